"""Typing stub of the compiled shanten/ukeire kernels (see majiang/_core/efficiency.pyx).

Inputs are validated by :mod:`majiang.efficiency`; counts are C-contiguous uint8 (34,)
vectors (or (N, 34) batches).  Error codes below -1: -100 a count above 4, -101 a tile
total that is a multiple of 3 or above 17; 99 = no arrangement of the forms exists.
"""
from typing import Any

import numpy as np
import numpy.typing as npt

U8 = npt.NDArray[np.uint8]

def build_tables() -> tuple[int, int]: ...
def shanten_one(counts: U8, mask: int, quads: bool, caps: U8 | None = None, jokers: int = 0,
                fifth: bool = False) -> int: ...
def shanten_fast(hand: Any, mask: int, quads: bool) -> int: ...
def shanten_many(counts: U8, mask: int, quads: bool, out: npt.NDArray[np.int8],
                 jokers: U8 | None = None, fifth: bool = False) -> int: ...
def ukeire_one(counts: U8, mask: int, quads: bool, caps: U8 | None, visible: U8 | None,
               jokers: int = 0, fifth: bool = False) -> tuple[int, npt.NDArray[np.int8]]: ...
def discard_rows(counts: U8, mask: int, quads: bool, caps: U8 | None, visible: U8 | None,
                 second_order: bool, jokers: int = 0, fifth: bool = False
                 ) -> list[tuple[int, int, npt.NDArray[np.int8], float]]: ...

"""Typing stub of the compiled shanten/ukeire kernels (see majiang/_core/efficiency.pyx).

Inputs are validated by :mod:`majiang.efficiency`; counts are C-contiguous uint8 (34,)
vectors (or (N, 34) batches).  Error codes below -1: -100 a count above 4, -101 a tile
total that is a multiple of 3 or above 17; 99 = no arrangement of the forms exists.

Shape options (keyword-only): ``caps`` uint8 (34,) copies available to the concealed
hand (None = 4 each; 0 = kind not in the tile set), ``pair_mask`` (None = any kind;
else bit k allows kind k as the pair of a regular arrangement), ``void_suits`` (0 = no
rule; else suit bits 1 万 / 2 筒 / 4 条 of which the complete hand lacks at least one).
"""
from typing import Any

import numpy as np
import numpy.typing as npt

_U8 = npt.NDArray[np.uint8]

def build_tables() -> tuple[int, int]: ...
def set_five_bound(on: bool) -> None: ...
def shanten_one(counts: _U8, mask: int, quads: bool, caps: _U8 | None = None, jokers: int = 0,
                fifth: bool = False, *, pair_mask: int | None = None,
                void_suits: int = 0) -> int: ...
def shanten_fast(hand: Any, mask: int, quads: bool, need: int = 0) -> int: ...
def shanten_many(counts: _U8, mask: int, quads: bool, out: npt.NDArray[np.int8],
                 jokers: _U8 | None = None, fifth: bool = False, *, caps: _U8 | None = None,
                 pair_mask: int | None = None, void_suits: int = 0) -> int: ...
def ukeire_one(counts: _U8, mask: int, quads: bool, caps: _U8 | None, visible: _U8 | None,
               jokers: int = 0, fifth: bool = False, *, pair_mask: int | None = None,
               void_suits: int = 0) -> tuple[int, npt.NDArray[np.int8]]: ...
def discard_rows(counts: _U8, mask: int, quads: bool, caps: _U8 | None, visible: _U8 | None,
                 second_order: bool, jokers: int = 0, fifth: bool = False, *,
                 pair_mask: int | None = None, void_suits: int = 0
                 ) -> list[tuple[int, int, npt.NDArray[np.int8], float]]: ...
def ukeire_fast(counts: Any, mask: int, quads: bool) -> dict[str, int] | None: ...

# direct parsing of ASCII text / lists (None = not handled: validate the slow way)
def plain_counts(text: Any, readonly: bool = False) -> tuple[_U8, int] | None: ...
def parse_text(text: Any) -> tuple[_U8, int, tuple[int, ...], tuple[int, ...], int] | None: ...
def list_counts(x: Any) -> _U8 | None: ...
def tile_list_counts(x: Any) -> _U8 | None: ...

# the table cache on disk
TABLE_SOURCE: str | None
CACHE_FORMAT: int
CACHE_MAGIC: bytes
def cache_dir() -> str | None: ...
def cache_file() -> str | None: ...
def cache_key() -> bytes: ...
def discard_columns(counts: _U8, mask: int, quads: bool, caps: _U8 | None, visible: _U8 | None,
                    second_order: bool, jokers: int = 0, fifth: bool = False, *,
                    pair_mask: int | None = None, void_suits: int = 0
                    ) -> tuple[list[str], npt.NDArray[np.int64], npt.NDArray[np.int64],
                               npt.NDArray[np.int64], list[str], npt.NDArray[np.float64]]: ...

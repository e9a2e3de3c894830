"""Typing stub of the compiled shape engine (see majiang/_core/shapes.pyx)."""
from typing import Any, Sequence

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

FORM_BITS: dict[str, int]
FORM_ORDER: tuple[str, ...]
JOKER_DRAW: int

@disjoint_base
class ShapeSpec:
    unknown_forms: bool
    def __init__(self, forms: Sequence[str], quads: bool, copies: Sequence[int], void: bool,
                 pair_258: bool, no_void: bool, three_jokers: bool | int,
                 honor_chows: bool = ...) -> None: ...

def form_shanten(spec: ShapeSpec, counts: npt.NDArray[np.uint8], jokers: int = 0,
                 caps: npt.NDArray[np.uint8] | None = None, n_melds: int = 0,
                 meld_bits: int = 0) -> npt.NDArray[np.int16]: ...
def shanten(spec: ShapeSpec, counts: npt.NDArray[np.uint8], jokers: int = 0,
            caps: npt.NDArray[np.uint8] | None = None, n_melds: int = 0,
            meld_bits: int = 0) -> int: ...
def shanten_many(spec: ShapeSpec, counts: npt.NDArray[np.uint8],
                 jokers: npt.NDArray[np.uint8] | None, out: npt.NDArray[np.int16],
                 caps: npt.NDArray[np.uint8] | None = None) -> int: ...
def ukeire(spec: ShapeSpec, counts: npt.NDArray[np.uint8], jokers: int = 0,
           caps: npt.NDArray[np.uint8] | None = None, n_melds: int = 0, meld_bits: int = 0,
           visible: Any = None, joker_kinds: Any = None, joker_copies: Any = 4,
           stand_in: tuple[int, int, int] | None = None) -> tuple[int, dict[int, int]]: ...
def discard_ukeire(spec: ShapeSpec, counts: npt.NDArray[np.uint8], jokers: int = 0,
                   caps: npt.NDArray[np.uint8] | None = None, n_melds: int = 0,
                   meld_bits: int = 0, visible: Any = None, joker_kinds: Any = None,
                   joker_copies: Any = 4, stand_in: tuple[int, int, int] | None = None
                   ) -> list[tuple[int, int, dict[int, int]]]: ...

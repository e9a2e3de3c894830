"""Typing stub of the engine's compiled helpers (see majiang/_core/game.pyx).

Count vectors are C-contiguous uint8 (34,); inputs are validated by majiang.game.
"""
import numpy as np
import numpy.typing as npt

U8 = npt.NDArray[np.uint8]

class ShapeOpts:
    mask: int
    quads: bool
    fifth: bool
    pair_mask: int
    void_suits: int
    def __init__(self, mask: int, quads: bool, caps: U8 | None, pair_mask: int,
                 void_suits: int, fifth: bool = False, live: U8 | None = None) -> None: ...

def shanten(counts: U8, so: ShapeOpts, jokers: int = 0) -> int: ...
def waits(counts: U8, so: ShapeOpts, jokers: int, out: U8) -> int: ...
def evaluate(counts: U8, so: ShapeOpts, jokers: int, visible: U8) -> tuple[int, int]: ...
def choose_discard(counts: U8, so: ShapeOpts, jokers: int, visible: U8, void_suit: int = -1,
                   allowed: U8 | None = None) -> tuple[int, int, int]: ...

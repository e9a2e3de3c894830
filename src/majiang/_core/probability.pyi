"""Typing stub of the compiled probability kernels (see majiang/_core/probability.pyx).

Inputs are validated by :mod:`majiang.probability`.  Counts are C-contiguous uint8
(34,) vectors of real tiles; jokers are counted separately and drawn from walls as
kind 34.  Status codes: 0 ok, -1 out of memory, -2 more than ``max_states`` states,
-3 the predicate raised, -4 interrupted by a signal (for -3/-4 the exception is in
``pred_error`` / ``_Pred.error``; re-raise a non-``Exception`` ``BaseException``
such as ``KeyboardInterrupt`` as itself).
"""
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

U8 = npt.NDArray[np.uint8]
I8 = npt.NDArray[np.int8]
I16 = npt.NDArray[np.int16]
F64 = npt.NDArray[np.float64]

# pred(h14 uint8 (34,), win_kind 0..34 (34 = a joker), n_jokers) -> bool
Predicate = Callable[[U8, int, int], bool]

class _Pred:
    calls: int
    error: BaseException | None
    def __init__(self, fn: Predicate | Callable[[U8, int], bool] | None) -> None: ...

class Graph:
    budget: int
    max_states: int
    unrestricted: bool
    joker_discard: bool
    n_states: int
    shanten_calls: int
    last_win_mass: F64 | None
    def __init__(self, u0: U8, caps: U8 | None, mask: int, quads: bool, budget: int,
                 max_states: int, pred: Predicate | _Pred | None, *,
                 pair_mask: int | None = None, void_suits: int = 0, joker_unseen: int = 0,
                 joker_discard: bool = True, fifth: bool = False,
                 unrestricted: bool = False) -> None: ...
    @property
    def pred_error(self) -> BaseException | None: ...
    def add_root(self, h0: U8, jokers0: int = 0) -> int: ...
    def shanten_of(self, i: int) -> int: ...
    def jokers_of(self, i: int) -> int: ...
    def hand_of(self, i: int) -> U8: ...
    def solve(self, root: int, h0: U8, T: int, U: int, objective: int
              ) -> tuple[int, F64 | None, F64 | None]: ...
    def edge_table(self) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], I8]: ...
    def reachable(self, root: int, T: int = 0, objective: int = 0) -> int: ...
    def simulate(self, root: int, V: F64, walls: U8, win_time: I16, tenpai_time: I16,
                 final: U8, win_tile: I8, final_jokers: I8 | None = None) -> int: ...

def simulate_greedy(h0: U8, u0: U8, caps: U8 | None, mask: int, quads: bool,
                    pred: Predicate | _Pred | None, walls: U8, win_time: I16,
                    tenpai_time: I16, final: U8, win_tile: I8, *, jokers0: int = 0,
                    joker_unseen: int = 0, joker_discard: bool = True, fifth: bool = False,
                    pair_mask: int | None = None, void_suits: int = 0,
                    final_jokers: I8 | None = None) -> int: ...

def true_wall_solve(h0: U8, jokers0: int, wall35: Any, T: int, objective: int, mask: int,
                    quads: bool, caps: U8 | None = None, *, fifth: bool = False,
                    pair_mask: int | None = None, void_suits: int = 0,
                    joker_discard: bool = True, pred: Predicate | _Pred | None = None,
                    max_states: int = 200_000, wins: bool = False
                    ) -> tuple[float, F64, int] | tuple[float, F64, int, Any] | None: ...

class _Unrestricted:
    n_states: int
    def __init__(self, h0: U8, u0: U8, mask: int, quads: bool, T: int, U: int) -> None: ...
    def run(self) -> float: ...


def deal_counts(offsets: npt.NDArray[np.int64], kind_of: U8, out: U8) -> int: ...

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
from typing_extensions import Self, disjoint_base

_U8 = npt.NDArray[np.uint8]
_I8 = npt.NDArray[np.int8]
_I16 = npt.NDArray[np.int16]
_F64 = npt.NDArray[np.float64]

# pred(h14 uint8 (34,), win_kind 0..34 (34 = a joker), n_jokers) -> bool
_Predicate = Callable[[_U8, int, int], bool]

# the compiled classes take their arguments in __cinit__, hence __new__ below
@disjoint_base
class _Pred:
    calls: int
    kernel_calls: int
    error: BaseException | None
    def __new__(cls, fn: _Predicate | Callable[[_U8, int], bool] | None) -> Self: ...

@disjoint_base
class Graph:
    budget: int
    max_states: int
    unrestricted: bool
    joker_discard: bool
    n_states: int
    shanten_calls: int
    last_win_mass: _F64 | None
    def __new__(cls, u0: _U8, caps: _U8 | None, mask: int, quads: bool, budget: int,
                max_states: int, pred: _Predicate | _Pred | None, *,
                pair_mask: int | None = None, void_suits: int = 0, joker_unseen: int = 0,
                joker_discard: bool = True, fifth: bool = False,
                unrestricted: bool = False) -> Self: ...
    @property
    def pred_error(self) -> BaseException | None: ...
    def add_root(self, h0: _U8, jokers0: int = 0) -> int: ...
    def shanten_of(self, i: int) -> int: ...
    def jokers_of(self, i: int) -> int: ...
    def hand_of(self, i: int) -> _U8: ...
    def solve(self, root: int, h0: _U8, T: int, U: int, objective: int
              ) -> tuple[int, _F64 | None, _F64 | None]: ...
    def edge_table(self) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], _I8]: ...
    def reachable(self, root: int, T: int = 0, objective: int = 0) -> int: ...
    def simulate(self, root: int, V: _F64, walls: _U8, win_time: _I16, tenpai_time: _I16,
                 final: _U8, win_tile: _I8, final_jokers: _I8 | None = None) -> int: ...

@disjoint_base
class GreedyMemo:
    @property
    def size(self) -> int: ...

def simulate_greedy(h0: _U8, u0: _U8, caps: _U8 | None, mask: int, quads: bool,
                    pred: _Predicate | _Pred | None, walls: _U8, win_time: _I16,
                    tenpai_time: _I16, final: _U8, win_tile: _I8, *, jokers0: int = 0,
                    joker_unseen: int = 0, joker_discard: bool = True, fifth: bool = False,
                    pair_mask: int | None = None, void_suits: int = 0,
                    final_jokers: _I8 | None = None, memo: GreedyMemo | None = None) -> int: ...

def true_wall_solve(h0: _U8, jokers0: int, wall35: Any, T: int, objective: int, mask: int,
                    quads: bool, caps: _U8 | None = None, *, fifth: bool = False,
                    pair_mask: int | None = None, void_suits: int = 0,
                    joker_discard: bool = True, pred: _Predicate | _Pred | None = None,
                    max_states: int = 200_000, wins: bool = False
                    ) -> tuple[float, _F64, int] | tuple[float, _F64, int, Any] | None: ...

@disjoint_base
class _Unrestricted:
    n_states: int
    def __new__(cls, h0: _U8, u0: _U8, mask: int, quads: bool, T: int, U: int) -> Self: ...
    def run(self) -> float: ...


def deal_counts(offsets: npt.NDArray[np.int64], kind_of: _U8, out: _U8) -> int: ...

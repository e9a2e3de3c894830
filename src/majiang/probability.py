"""Win and tenpai probabilities of a hand over the next draws, exact or by Monte Carlo.

Model
-----
*One player, self-draws only.*  The unseen tiles — the tile set (default 136 =
4 copies of 34 kinds, or the ruleset's) minus the player's hand (concealed tiles
and melds) minus the visible tiles — lie in random order (every permutation equally
likely) and the player draws ``T`` of them without replacement, one per turn.
After each draw the player wins if the 14-tile hand is a win (any complete hand,
or the ruleset's predicate, see :class:`WinRule`); otherwise the player discards
one tile.  Nobody else draws, discards, calls or wins; kongs and flowers are not
modelled.  ``P(win)`` is the probability of winning within the ``T`` draws;
``P(tenpai)`` the probability that the hand is tenpai (听牌) after one of the draws
(a hand that is tenpai before any draw has ``P(tenpai) = 1``).  Each probability
is the maximum over playing policies of *that* event's probability (the tenpai
policy may differ from the win policy).  Curves give, for ``t = 1..T``, the
probability that the event has happened by draw ``t`` under the policy that is
optimal for the full horizon ``T``.

What ``method="exact"`` computes
--------------------------------
The true optimum conditions on the whole draw history: the wall loses every tile
drawn, including those thrown back.  ``"exact"`` is exact backward induction in
a *simplified* model, with two named simplifications.

1. **Hand-state wall model (S1).**  The state is the 13-tile hand ``h`` and the
   number ``t`` of draws made.  The chance of drawing kind ``k`` is
   ``live_k(h) / (U - t)``, where ``U`` is the number of unseen tiles and
   ``live_k(h) = u_k - max(0, h_k - h0_k)``: the unseen copies of ``k`` minus the
   copies the hand holds beyond its starting count ``h0_k`` (those must have been
   drawn).  Tiles drawn and thrown back are forgotten: they shrink the wall
   (``U - t``) but not any kind's count.  This is the exact conditional chance
   whenever no copy of ``k`` was drawn and thrown earlier on the path; in
   particular it is exact for a tenpai hand that keeps its wait (the closed form
   ``1 - C(U-k, T) / C(U, T)`` holds to rounding).  Winning and shanten-lowering
   kinds get exactly ``live_k(h) / (U - t)`` (if their live copies ever exceed
   ``U - t``, only possible with ``T`` close to ``U``, the denominator becomes
   their sum); the remaining probability is shared among the other kinds in
   proportion to their live copies (it matters only for change moves, below).
2. **Restricted moves (S2).**  After a draw the player may (a) win; (b) if the
   draw lowers the shanten, discard any tile that keeps the new (lower) shanten;
   (c) throw the drawn tile back.  With ``changes=c > 0`` the player may also, at
   most ``c`` times along a path, swap a drawn tile that does not lower the
   shanten (or completes a hand that is not a win under the ruleset) for a tile
   in hand, keeping the shanten (手变: wait, shape and fan improvements).  Moves
   that raise the shanten (向听倒退) are never considered.  So under a ruleset the
   player steers toward a valid win only through change moves: with
   ``changes=0`` a tenpai hand whose completions all fail the ruleset (e.g. below
   8 fans) never wins.  Knitted forms (全不靠, 组合龙) are searched only when the
   shanten core knows them.

*Measured effects* (``bench/bench_winprob.py --model``, output kept in
``bench/winprob_model_results.txt``; horizon 18, nothing visible, the best
discard of each of the 40 bench hands):

* S1 vs. real walls (the exact-model policy played on 200 000 shuffled walls
  per hand, ``changes=0``): real − exact P(win) has mean +0.0000, mean |·|
  0.0008, max |·| 0.0016 on the 20 one-shanten hands (mean z +0.06, sd 0.95)
  and mean −0.0003, mean |·| 0.0007, max |·| 0.0024 on the 20 two-shanten
  hands (mean z −0.25, sd 1.03); P(tenpai) +0.0001 / +0.0004.  S1 is within
  Monte Carlo noise here.  With change moves (100 000 walls) the model stays
  within noise on 1-shanten hands (|z| <= 1.1) and is ≈ 0.003 high on a
  2-shanten hand (z = −2.0 / −1.8 for ``changes=1`` / ``2``).
* The ukeire-greedy policy on the same walls: identical decisions on the
  1-shanten bench hands, −0.0030 on average (down to −0.037) on the
  2-shanten ones; it differed from the optimal policy on 13 of 40 random
  2-shanten hands (by up to −0.035).
* S2 is the large one.  On the 20 one-shanten hands one change move raises
  P(win) by +0.070 on average (max +0.189), two by +0.106 (max +0.260); on a
  2-shanten hand one change move took P(win) from 0.263 to 0.464.  Against the
  unrestricted optimum of the S1 model (any discard after any draw, shanten may
  rise; enumerable only for short horizons) the restricted search is below by
  +0.0007 / +0.0026 / +0.0060 on average (max 0.0027 / 0.0093 / 0.0209) at
  horizons 3 / 4 / 5, growing with the horizon.  So ``changes=0`` (fast: the
  restricted search of the bench targets) is a lower bound of the optimum that
  is tight only for short horizons; use ``changes=1`` or ``2`` (10–100× slower)
  for long horizons.

Monte Carlo
-----------
``method="monte_carlo"`` deals ``n_samples`` real walls (uniform permutations of
the unseen tiles, first ``T`` drawn) and plays a policy: ``policy="optimal"`` the
exact-model policy above (so the estimate is the *true* probability of that
policy, free of S1), ``policy="greedy"`` an ukeire-greedy player (win when
allowed; after a draw that lowers shanten, keep the shanten and maximise the
live effective tiles it knows of).  Results carry standard errors
``sqrt(p (1 - p) / n)``.  Walls are dealt in fixed chunks, each with its own
child of ``numpy.random.SeedSequence(seed).spawn``, so results depend on the seed
only, never on ``n_jobs``.  ``method="auto"`` is exact when the hand is at most
2-shanten and the graph fits ``max_states``, otherwise Monte Carlo with the
greedy policy.
"""
from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._core import efficiency as _eff
from ._core import probability as _prob
from .efficiency import DEFAULT_FORMS, FORMS, form_mask
from .errors import InvalidHandError, MahjongError, RuleError
from .hand import Hand, Meld, as_hand, visible_counts
from .tiles import N_KINDS, N_SUITED, tile_name

__all__ = [
    "METHODS", "POLICIES", "Estimate", "Probabilities", "WinRule", "win_rule",
    "any_complete", "pair_258", "void_suit", "all_of",
    "probabilities", "win_probability", "tenpai_probability", "win_curve", "tenpai_curve",
    "discard_curves", "discard_probabilities", "starting_hand_shanten",
]

METHODS = ("auto", "exact", "monte_carlo")
POLICIES = ("optimal", "greedy")
DEFAULT_SAMPLES = 20_000
CHUNK = 1024                 # walls per Monte Carlo chunk (one spawned seed each)
AUTO_MAX_SHANTEN = 2
DEFAULT_MAX_STATES = 200_000
_OBJ_WIN, _OBJ_TENPAI = 0, 1


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Estimate:
    """A probability with its standard error (0.0 for exact values).

    ``float(est)`` gives the value.  ``method`` is ``"exact"`` or
    ``"monte_carlo"``; ``n_samples`` is None for exact values.
    """

    value: float
    se: float
    method: str
    n_samples: int | None = None

    def __float__(self) -> float:
        return float(self.value)

    def __format__(self, spec: str) -> str:
        if self.method == "exact":
            return format(self.value, spec or ".4f")
        return f"{format(self.value, spec or '.4f')} ± {format(self.se, spec or '.4f')}"


@dataclass(frozen=True, eq=False)
class Probabilities:
    """Win and tenpai probabilities of one hand over ``draws`` draws.

    Attributes
    ----------
    draws : int
        The horizon ``T``.
    p_win, p_tenpai : float
        Probability of winning / being tenpai within ``T`` draws (each under the
        policy optimal for it; see the module docstring).
    se_win, se_tenpai : float
        Standard errors (0.0 when exact).
    win_curve, tenpai_curve : numpy.ndarray
        ``float64`` of shape ``(T,)``: element ``t - 1`` is the probability that
        the event happened by draw ``t``; the last element equals ``p_win`` /
        ``p_tenpai``.
    win_curve_se, tenpai_curve_se : numpy.ndarray
        ``float64`` ``(T,)`` standard errors (zeros when exact).
    method : str
        ``"exact"`` or ``"monte_carlo"``.
    policy : str
        ``"optimal"`` (exact-model policy) or ``"greedy"``.
    n_samples : int or None
        Walls simulated (None when exact).
    n_states : int or None
        Hand states in the exact graph (None when not built).
    """

    draws: int
    p_win: float
    p_tenpai: float
    se_win: float
    se_tenpai: float
    win_curve: np.ndarray
    tenpai_curve: np.ndarray
    win_curve_se: np.ndarray
    tenpai_curve_se: np.ndarray
    method: str
    policy: str
    n_samples: int | None = None
    n_states: int | None = None
    _winning: Any = field(default=None, repr=False)   # winning-hand distribution (fan odds)

    @property
    def win(self) -> Estimate:
        return Estimate(self.p_win, self.se_win, self.method, self.n_samples)

    @property
    def tenpai(self) -> Estimate:
        return Estimate(self.p_tenpai, self.se_tenpai, self.method, self.n_samples)


# ---------------------------------------------------------------------------
# Win predicates
# ---------------------------------------------------------------------------

WinPredicate = Callable[[np.ndarray, tuple, int], bool]
Scorer = Callable[[np.ndarray, tuple, int], "tuple[int, Mapping[str, int]]"]


@dataclass(frozen=True)
class WinRule:
    """Which complete hands win, for the probability model.

    Attributes
    ----------
    name : str
        Shown in messages and tables.
    is_win : callable or None
        ``is_win(counts, melds, win_tile) -> bool``, called only on complete
        hands: ``counts`` is the ``uint8 (34,)`` concealed hand *including* the
        winning tile, ``melds`` the hand's tuple of :class:`~majiang.hand.Meld`,
        ``win_tile`` the kind index (self-drawn).  ``None``: every complete hand wins.
    forms : tuple of str
        Winning forms whose completion counts (as :func:`majiang.shanten`).
    seven_pairs_quads : bool
        Four of a kind may count as two pairs in seven pairs.
    score : callable or None
        ``score(counts, melds, win_tile) -> (total, {fan name: count})`` for
        :func:`majiang.odds.fan_odds`.
    tile_set : numpy.ndarray or None
        ``uint8 (34,)`` copies per kind in the wall's tile set (default 4 each).
    """

    name: str = "any complete hand"
    is_win: WinPredicate | None = None
    forms: tuple[str, ...] = DEFAULT_FORMS
    seven_pairs_quads: bool = False
    score: Scorer | None = None
    tile_set: np.ndarray | None = None


def any_complete(forms: Sequence[str] = DEFAULT_FORMS, seven_pairs_quads: bool = False) -> WinRule:
    """Every complete hand of the given forms wins."""
    return WinRule(forms=tuple(forms), seven_pairs_quads=seven_pairs_quads)


def _regular_pairs(counts: np.ndarray, n_sets: int) -> set[int]:
    from ._core import decompose as _dec
    return {int(p) for p, _ in _dec.regular_decompositions(np.ascontiguousarray(counts), n_sets)}


def pair_258(forms: Sequence[str] = DEFAULT_FORMS, *, special_forms_exempt: bool = True) -> WinRule:
    """二五八将: a regular hand wins only with a pair of 2, 5 or 8 of a suit.

    With ``special_forms_exempt`` (default) seven pairs and thirteen orphans win
    without that condition (as most tables play it); otherwise only a regular
    reading with a 2/5/8 pair wins.
    """
    special = tuple(f for f in forms if f != "regular")
    special_mask = form_mask(special) if special and special_forms_exempt else 0

    def is_win(counts: np.ndarray, melds: tuple, win_tile: int) -> bool:
        c = np.ascontiguousarray(counts, dtype=np.uint8)
        if "regular" in forms:
            pairs = _regular_pairs(c, int(c.sum()) // 3)
            if any(p < N_SUITED and p % 9 in (1, 4, 7) for p in pairs):
                return True
        if special_mask and not melds:
            return _eff.shanten_one(c, special_mask, False, None) == -1
        return False

    return WinRule(name="2-5-8 pair (二五八将)", is_win=is_win, forms=tuple(forms))


def void_suit(forms: Sequence[str] = DEFAULT_FORMS) -> WinRule:
    """缺一门: a hand (concealed tiles and melds) wins only if it lacks a whole suit."""
    def is_win(counts: np.ndarray, melds: tuple, win_tile: int) -> bool:
        total = np.asarray(counts, dtype=np.intp).copy()
        for m in melds:
            total += m.counts
        return any(total[s * 9:(s + 1) * 9].sum() == 0 for s in range(3))

    return WinRule(name="void suit (缺一门)", is_win=is_win, forms=tuple(forms))


def all_of(*rules: WinRule, name: str | None = None) -> WinRule:
    """A rule that wins when every given rule wins (forms/tile set of the first)."""
    if not rules:
        raise RuleError("all_of needs at least one WinRule")
    preds = [r.is_win for r in rules if r.is_win is not None]

    def is_win(counts, melds, win_tile) -> bool:
        return all(p(counts, melds, win_tile) for p in preds)

    first = rules[0]
    return WinRule(name=name or " + ".join(r.name for r in rules), is_win=is_win if preds else None,
                   forms=first.forms, seven_pairs_quads=first.seven_pairs_quads,
                   score=next((r.score for r in rules if r.score is not None), None),
                   tile_set=first.tile_set)


_BUILTIN = {
    "any": any_complete,
    "pair_258": pair_258,
    "258": pair_258,
    "void_suit": void_suit,
}


def win_rule(ruleset: Any = None) -> WinRule:
    """The :class:`WinRule` for a ``ruleset`` argument.

    ``None`` → any complete hand (regular, seven pairs, thirteen orphans); a
    :class:`WinRule` → itself; ``"any"``, ``"pair_258"``/``"258"``, ``"void_suit"``
    → the built-in predicates; any other string or a ruleset object → a rule
    built from :mod:`majiang.rules` and :func:`majiang.scoring.score` (e.g.
    ``"mcr"``: a complete hand wins only with at least 8 fans).

    Raises
    ------
    RuleError
        Unknown name, or the rules/scoring packages are not available.
    """
    if ruleset is None:
        return WinRule()
    if isinstance(ruleset, WinRule):
        return ruleset
    if isinstance(ruleset, str) and ruleset in _BUILTIN:
        return _BUILTIN[ruleset]()
    return _rule_from_ruleset(ruleset)


def _rule_from_ruleset(ruleset: Any) -> WinRule:
    """A WinRule from :mod:`majiang.rules` (a name or a Ruleset) and :mod:`majiang.scoring`."""
    try:
        from . import rules as _rules
    except ImportError as exc:
        raise RuleError(f"unknown ruleset {ruleset!r}: the rules package is not available "
                        f"({exc}); built-in win rules: {', '.join(_BUILTIN)}") from None
    rs = _rules.get(ruleset) if isinstance(ruleset, str) else ruleset
    return _ruleset_win_rule(rs)


def _ruleset_win_rule(rs: Any, *, seat_wind: Any = 0, prevalent_wind: Any = 0,
                      flowers: int = 0) -> WinRule:
    """Win predicate and scorer of a :class:`majiang.rules.Ruleset` via
    :func:`majiang.scoring.score` (self-drawn, the given winds; a complete hand wins
    when its fans reach the ruleset's minimum, e.g. 8 in Chinese Official rules)."""
    from . import scoring

    forms = tuple(f for f in rs.forms if f in FORMS) or ("regular",)

    def _score(counts: np.ndarray, melds: tuple, win_tile: int):
        before = np.array(counts, dtype=np.uint8)
        before[win_tile] -= 1
        try:
            return scoring.score(Hand(before, melds), int(win_tile), self_drawn=True,
                                 seat_wind=seat_wind, prevalent_wind=prevalent_wind,
                                 flowers=flowers, ruleset=rs)
        except InvalidHandError:
            return None

    def is_win(counts: np.ndarray, melds: tuple, win_tile: int) -> bool:
        r = _score(counts, melds, win_tile)
        return r is not None and bool(r.meets_minimum)

    def score(counts: np.ndarray, melds: tuple, win_tile: int):
        r = _score(counts, melds, win_tile)
        if r is None:
            return 0, {}
        return int(r.total), {f"{f.chinese} {f.english}": int(f.count) for f in r.fans}

    min_fan = getattr(rs, "min_fan", 0)
    return WinRule(name=f"{rs.name} (minimum {min_fan} fan)" if min_fan else rs.name,
                   is_win=is_win if min_fan else None, forms=forms,
                   seven_pairs_quads=bool(getattr(rs, "seven_pairs_quads", False)), score=score)


# ---------------------------------------------------------------------------
# Input handling
# ---------------------------------------------------------------------------

@dataclass
class _Position:
    counts: np.ndarray           # concealed uint8 (34,)
    caps: np.ndarray | None      # copies available to the concealed hand, or None
    melds: tuple
    unseen: np.ndarray           # uint8 (34,)
    U: int
    rule: WinRule
    mask: int
    quads: bool

    def pred(self) -> Callable | None:
        if self.rule.is_win is None:
            return None
        fn, melds = self.rule.is_win, self.melds
        return lambda counts, k: bool(fn(counts, melds, int(k)))


def _position(hand: Any, visible: Any, ruleset: Any) -> _Position:
    rule = win_rule(ruleset)
    mask = form_mask(tuple(f for f in rule.forms if f in FORMS) or ("regular",))
    if isinstance(hand, (str, Hand)):
        h = as_hand(hand)
    else:
        h = as_hand(hand, strict=False)
    counts = np.ascontiguousarray(h.concealed, dtype=np.uint8)
    caps = None
    if h.melds:
        locked = h.all_counts.astype(np.int16) - h.concealed
        caps = np.ascontiguousarray(4 - locked, dtype=np.uint8)
    vis = visible_counts(visible, h)
    tile_set = (np.full(N_KINDS, 4, dtype=np.int16) if rule.tile_set is None
                else np.asarray(rule.tile_set, dtype=np.int16))
    unseen = tile_set - h.all_counts.astype(np.int16) - vis.astype(np.int16)
    if unseen.min() < 0:
        k = int(np.argmin(unseen))
        raise InvalidHandError(
            f"{tile_name(k)}: the hand and the visible tiles hold "
            f"{int(h.all_counts[k]) + int(vis[k])} copies but the tile set of {rule.name!r} "
            f"has {int(tile_set[k])}")
    return _Position(counts, caps, h.melds, unseen.astype(np.uint8), int(unseen.sum()), rule,
                     mask, rule.seven_pairs_quads)


def _check_draws(draws: Any, U: int) -> int:
    if isinstance(draws, bool) or not isinstance(draws, (int, np.integer)):
        raise RuleError(f"draws must be a non-negative integer, got {draws!r}")
    draws = int(draws)
    if draws < 0:
        raise RuleError(f"draws must be >= 0, got {draws}")
    if draws > U:
        raise RuleError(f"draws={draws} exceeds the {U} unseen tiles left to draw")
    if draws > 32000:
        raise RuleError(f"draws={draws} is too large")
    return draws


def _check_method(method: str, policy: str | None) -> None:
    if method not in METHODS:
        raise RuleError(f"unknown method {method!r}; use one of {', '.join(METHODS)}")
    if policy is not None and policy not in POLICIES:
        raise RuleError(f"unknown policy {policy!r}; use one of {', '.join(POLICIES)}")


def _check_samples(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise RuleError(f"n_samples must be a positive integer, got {n!r}")
    return int(n)


def _check_changes(changes: Any) -> int:
    if isinstance(changes, bool) or not isinstance(changes, (int, np.integer)) or not 0 <= changes <= 8:
        raise RuleError(f"changes must be an integer 0..8, got {changes!r}")
    return int(changes)


def _n_jobs(n_jobs: int | None) -> int:
    if n_jobs is None or n_jobs == -1:
        return os.cpu_count() or 1
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs < 1:
        raise RuleError(f"n_jobs must be a positive integer, None or -1, got {n_jobs!r}")
    return int(n_jobs)


def _seed_sequence(seed: Any) -> np.random.SeedSequence:
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, np.random.Generator):
        return np.random.SeedSequence(int(seed.integers(0, 2**63)))
    if seed is None or (isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) and seed >= 0):
        return np.random.SeedSequence(seed)
    raise RuleError(f"seed must be None, a non-negative int or a numpy Generator, got {seed!r}")


# ---------------------------------------------------------------------------
# Engines
# ---------------------------------------------------------------------------

class _Engine:
    """One position: a shared graph for its roots, exact solves and simulations."""

    def __init__(self, pos: _Position, draws: int, changes: int, max_states: int):
        _eff.build_tables()
        self.pos, self.T, self.changes = pos, draws, changes
        self.max_states = max_states
        self.keep_wins = False
        self.graph = _prob.Graph(pos.unseen, pos.caps, pos.mask, pos.quads, changes,
                                 max_states, pos.pred())

    def shanten(self, h0: np.ndarray) -> int:
        return int(_eff.shanten_one(h0, self.pos.mask, self.pos.quads, self.pos.caps))

    def solve(self, h0: np.ndarray, objective: int):
        """(V, curve, root) or None when the state limit is hit."""
        root = self.graph.add_root(h0)
        status, V, curve = self.graph.solve(root, h0, self.T, self.pos.U, objective)
        self._raise_pred()
        if status == -2:
            return None
        if status < 0:
            raise MemoryError("out of memory while building the hand-state graph")
        return V, curve, root

    def _raise_pred(self) -> None:
        err = self.graph.pred_error
        if err is not None:
            raise RuleError(f"the win predicate of {self.pos.rule.name!r} raised "
                            f"{type(err).__name__}: {err}") from err

    def exact(self, h0: np.ndarray) -> Probabilities | None:
        T = self.T
        win = self.solve(h0, _OBJ_WIN)
        if win is None:
            return None
        wm = self.graph.last_win_mass
        ten = self.solve(h0, _OBJ_TENPAI)
        if ten is None:
            return None
        (Vw, cw, root), (Vt, ct, _) = win, ten
        winning = None
        if self.keep_wins:
            owner, kind, _ = self.graph.edge_table()
            owner, kind = owner[:wm.size], kind[:wm.size]
            sel = np.flatnonzero(wm > 0)
            hands = np.array([self.graph.hand_of(int(i)) for i in owner[sel]],
                             dtype=np.uint8).reshape(-1, N_KINDS)
            winning = (hands, kind[sel].astype(np.intp), wm[sel].copy(), None)
        z = np.zeros(T)
        return Probabilities(
            draws=T, p_win=float(Vw[root, 0]), p_tenpai=float(Vt[root, 0]), se_win=0.0,
            se_tenpai=0.0, win_curve=cw[1:].copy(), tenpai_curve=ct[1:].copy(),
            win_curve_se=z, tenpai_curve_se=z.copy(), method="exact", policy="optimal",
            n_states=int(self.graph.n_states), _winning=winning)

    def simulate(self, h0: np.ndarray, policy: str, n: int, seed: Any, n_jobs: int | None,
                 keep_wins: bool = False) -> Probabilities | None:
        pos, T = self.pos, self.T
        if policy == "optimal":
            win = self.solve(h0, _OBJ_WIN)
            ten = self.solve(h0, _OBJ_TENPAI) if win is not None else None
            if ten is None:
                return None
        pool = np.repeat(np.arange(N_KINDS, dtype=np.uint8), pos.unseen)
        n_chunks = max(1, math.ceil(n / CHUNK))
        seeds = _seed_sequence(seed).spawn(n_chunks)
        win_time = np.empty(n, dtype=np.int16)
        ten_time = np.empty(n, dtype=np.int16)
        final = np.empty((n, N_KINDS), dtype=np.uint8) if keep_wins else None
        tile = np.empty(n, dtype=np.int8)
        pred = _prob._Pred(pos.pred()) if policy == "greedy" else None

        def run(c: int) -> int:
            lo, hi = c * CHUNK, min(n, (c + 1) * CHUNK)
            m = hi - lo
            rng = np.random.Generator(np.random.PCG64(seeds[c]))
            walls = _deal(rng, pool, m, T)
            fin = final[lo:hi] if final is not None else np.empty((m, N_KINDS), dtype=np.uint8)
            if policy == "greedy":
                scratch = np.empty(m, dtype=np.int16)
                return _prob.simulate_greedy(h0, pos.unseen, pos.caps, pos.mask, pos.quads, pred,
                                             walls, win_time[lo:hi], ten_time[lo:hi], fin,
                                             tile[lo:hi])
            Vw, _, root = win
            Vt, _, _ = ten
            scratch_t = np.empty(m, dtype=np.int16)
            scratch_w = np.empty(m, dtype=np.int16)
            self.graph.simulate(root, Vw, walls, win_time[lo:hi], scratch_t, fin, tile[lo:hi])
            self.graph.simulate(root, Vt, walls, scratch_w, ten_time[lo:hi],
                                np.empty((m, N_KINDS), dtype=np.uint8), np.empty(m, dtype=np.int8))
            return 0

        jobs = _n_jobs(n_jobs)
        if jobs <= 1 or n_chunks == 1 or (policy == "greedy" and pos.rule.is_win is not None):
            codes = [run(c) for c in range(n_chunks)]
        else:
            with ThreadPoolExecutor(min(jobs, n_chunks)) as ex:
                codes = list(ex.map(run, range(n_chunks)))
        if pred is not None and pred.error is not None:
            err = pred.error
            raise RuleError(f"the win predicate of {pos.rule.name!r} raised "
                            f"{type(err).__name__}: {err}") from err
        if any(c < 0 for c in codes):
            raise MahjongError("Monte Carlo simulation failed")
        steps = np.arange(1, T + 1)
        wc = ((win_time[:, None] >= 1) & (win_time[:, None] <= steps[None, :])).mean(axis=0)
        tc = ((ten_time[:, None] >= 0) & (ten_time[:, None] <= steps[None, :])).mean(axis=0)
        p_t = float(tc[-1]) if T else float(np.mean(ten_time == 0))
        p_w = float(wc[-1]) if T else 0.0
        winning = None
        if keep_wins:
            won = win_time > 0
            winning = (final[won], tile[won].astype(np.intp), np.full(int(won.sum()), 1.0 / n), n)
        return Probabilities(
            draws=T, p_win=p_w, p_tenpai=p_t, se_win=_se(p_w, n), se_tenpai=_se(p_t, n),
            win_curve=wc.astype(np.float64), tenpai_curve=tc.astype(np.float64),
            win_curve_se=np.sqrt(wc * (1 - wc) / n), tenpai_curve_se=np.sqrt(tc * (1 - tc) / n),
            method="monte_carlo", policy=policy, n_samples=n,
            n_states=int(self.graph.n_states) if policy == "optimal" else None,
            _winning=winning)


def _deal(rng: np.random.Generator, pool: np.ndarray, m: int, T: int) -> np.ndarray:
    """``uint8 (m, T)``: the first ``T`` tiles of ``m`` uniform shuffles of ``pool``
    (a partial Fisher-Yates shuffle, vectorised over the rows)."""
    U = pool.size
    walls = np.tile(pool, (m, 1))
    rows = np.arange(m)
    for j in range(T):
        r = j + rng.integers(0, U - j, size=m)
        picked = walls[rows, r]
        walls[rows, r] = walls[rows, j]
        walls[rows, j] = picked
    return np.ascontiguousarray(walls[:, :T])


def _se(p: float, n: int) -> float:
    return math.sqrt(max(p * (1.0 - p), 0.0) / n)


def _zero_draws(engine: _Engine, h0: np.ndarray) -> Probabilities:
    tenpai = 1.0 if engine.shanten(h0) <= 0 else 0.0
    e = np.zeros(0)
    return Probabilities(0, 0.0, tenpai, 0.0, 0.0, e, e.copy(), e.copy(), e.copy(), "exact",
                         "optimal")


def _run(engine: _Engine, h0: np.ndarray, method: str, policy: str | None, n_samples: int,
         seed: Any, n_jobs: int | None, keep_wins: bool = False) -> Probabilities:
    if engine.T == 0:
        return _zero_draws(engine, h0)
    s = engine.shanten(h0)
    engine.keep_wins = keep_wins
    if method == "exact" or (method == "auto" and s <= AUTO_MAX_SHANTEN):
        res = engine.exact(h0)
        if res is not None:
            return res
        if method == "exact":
            raise RuleError(
                f"the exact search needs more than max_states={engine.max_states} hand states "
                f"for this {s}-shanten hand; raise max_states or use method='monte_carlo'")
        policy = "greedy"
    if method == "auto" and policy is None:
        policy = "greedy"
    if policy is None:
        policy = "optimal"
    engine.keep_wins = keep_wins
    res = engine.simulate(h0, policy, n_samples, seed, n_jobs, keep_wins)
    if res is None:       # optimal policy asked but the graph is too large
        if method == "auto":
            return engine.simulate(h0, "greedy", n_samples, seed, n_jobs, keep_wins)
        raise RuleError(
            f"the optimal policy needs more than max_states={engine.max_states} hand states; "
            "use policy='greedy' or raise max_states")
    return res


# ---------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------

_COMMON_DOC = """
    Parameters
    ----------
    hand : str, Hand or array_like of shape (34,)
        A hand waiting to draw (13 tiles counting melds / 3n+1 concealed).  A hand
        that must discard (14 / 3n+2) is evaluated with its best discard.
    draws : int
        Horizon ``T``: the number of draws, ``0 <= T <= `` unseen tiles.
    visible : str or array_like of shape (34,), optional
        Tiles seen outside the hand (removed from the wall).
    ruleset : None, str, WinRule or ruleset object
        Which complete hands win (see :func:`win_rule`); ``None`` = any.
    method : {"auto", "exact", "monte_carlo"}
        See the module docstring.
    seed : int or numpy.random.Generator, optional
        Monte Carlo seed.
    n_samples : int
        Monte Carlo walls.
    policy : {"optimal", "greedy"}, optional
        Monte Carlo policy (default: optimal for ``"monte_carlo"``; greedy when
        ``"auto"`` falls back to Monte Carlo).
    changes : int
        Change moves allowed along a path in the exact search (0..8; see S2).
    n_jobs : int or None
        Threads for Monte Carlo (None/-1 = all cores); results do not depend on it.
    max_states : int
        Size limit of the exact graph.

    Raises
    ------
    RuleError
        Bad ``draws``, ``method``, ``policy``, ``n_samples``, ``seed``, an unknown
        ruleset, or ``method="exact"`` beyond ``max_states``.
    InvalidHandError, InvalidNotationError
        A bad hand or visible tiles.
"""


def probabilities(hand: Any, draws: int, *, visible: Any = None, ruleset: Any = None,
                  method: str = "auto", seed: Any = None, n_samples: int = DEFAULT_SAMPLES,
                  policy: str | None = None, changes: int = 0, n_jobs: int | None = 1,
                  max_states: int = DEFAULT_MAX_STATES) -> Probabilities:
    """Win and tenpai probabilities and curves of a hand over the next ``draws`` draws.

    Returns
    -------
    Probabilities
        ``p_win``, ``p_tenpai``, standard errors, curves of shape ``(draws,)``.
    """
    _check_method(method, policy)
    n_samples = _check_samples(n_samples)
    changes = _check_changes(changes)
    pos = _position(hand, visible, ruleset)
    T = _check_draws(draws, pos.U)
    engine = _Engine(pos, T, changes, max_states)
    n = int(pos.counts.sum())
    if n % 3 == 1:
        return _run(engine, pos.counts, method, policy, n_samples, seed, n_jobs)
    results = _discards(engine, pos, method, policy, n_samples, seed, n_jobs, all_discards=False)
    best = max((r for r in results.values() if r is not None), key=lambda r: (r.p_win, r.p_tenpai))
    return best


probabilities.__doc__ += _COMMON_DOC


def win_probability(hand: Any, draws: int, **kwargs: Any) -> Estimate:
    """Probability of winning within ``draws`` self-draws (with its standard error).

    Keyword arguments as :func:`probabilities`.

    Returns
    -------
    Estimate
        ``value``, ``se`` (0.0 when exact), ``method``, ``n_samples``.
    """
    return probabilities(hand, draws, **kwargs).win


def tenpai_probability(hand: Any, draws: int, **kwargs: Any) -> Estimate:
    """Probability of being tenpai after at most ``draws`` draws (1.0 if tenpai now).

    Keyword arguments as :func:`probabilities`.  Returns an :class:`Estimate`.
    """
    return probabilities(hand, draws, **kwargs).tenpai


def win_curve(hand: Any, draws: int, **kwargs: Any) -> np.ndarray:
    """``float64 (draws,)``: probability of having won by draw ``1..draws``.

    Keyword arguments as :func:`probabilities` (use that for standard errors).
    """
    return probabilities(hand, draws, **kwargs).win_curve


def tenpai_curve(hand: Any, draws: int, **kwargs: Any) -> np.ndarray:
    """``float64 (draws,)``: probability of being tenpai by draw ``1..draws``."""
    return probabilities(hand, draws, **kwargs).tenpai_curve


for _f in (win_probability, tenpai_probability, win_curve, tenpai_curve):
    _f.__doc__ += _COMMON_DOC


def _discards(engine: _Engine, pos: _Position, method: str, policy: str | None, n_samples: int,
              seed: Any, n_jobs: int | None, all_discards: bool,
              keep_wins: bool = False) -> dict[int, Probabilities | None]:
    counts = pos.counts
    kinds = [int(k) for k in np.flatnonzero(counts)]
    h0s = {}
    shan = {}
    for d in kinds:
        h0 = counts.copy()
        h0[d] -= 1
        h0s[d] = h0
        shan[d] = engine.shanten(h0)
    best = min(shan.values())
    ss = _seed_sequence(seed).spawn(N_KINDS)      # one child per discard kind: order-free
    out: dict[int, Probabilities | None] = {}
    for d in kinds:
        if shan[d] > best and not all_discards:
            out[d] = None
            continue
        out[d] = _run(engine, h0s[d], method, policy, n_samples, ss[d], n_jobs, keep_wins)
    return out


def _check_discard_hand(pos: _Position) -> None:
    n = int(pos.counts.sum())
    if n % 3 != 2:
        raise InvalidHandError(
            f"per-discard probabilities need a hand that must discard (3n+2 concealed tiles, "
            f"14 with no melds), got {n}; use probabilities() for a hand waiting to draw")


def _discard_results(hand, draws, visible, ruleset, method, seed, n_samples, policy, changes,
                     n_jobs, max_states, all_discards):
    """Shared work of :func:`discard_curves` and :func:`discard_probabilities`:
    validate the options, build the position and solve every discard.
    Returns ``(position, engine, {discard kind: Probabilities or None})``."""
    _check_method(method, policy)
    n_samples = _check_samples(n_samples)
    changes = _check_changes(changes)
    pos = _position(hand, visible, ruleset)
    _check_discard_hand(pos)
    T = _check_draws(draws, pos.U)
    engine = _Engine(pos, T, changes, max_states)
    return pos, engine, _discards(engine, pos, method, policy, n_samples, seed, n_jobs,
                                  all_discards)


def discard_curves(hand: Any, draws: int, *, visible: Any = None, ruleset: Any = None,
                   method: str = "auto", seed: Any = None, n_samples: int = DEFAULT_SAMPLES,
                   policy: str | None = None, changes: int = 0, n_jobs: int | None = 1,
                   max_states: int = DEFAULT_MAX_STATES,
                   all_discards: bool = False) -> dict[str, Probabilities]:
    """Per discard of a hand that must discard: its :class:`Probabilities`.

    Only discards that keep the lowest shanten are evaluated unless
    ``all_discards`` (raising the shanten is then searched from the worse hand).

    Returns
    -------
    dict
        ``{discard tile name: Probabilities}`` in tile order.
    """
    pos, engine, res = _discard_results(hand, draws, visible, ruleset, method, seed, n_samples,
                                policy, changes, n_jobs, max_states, all_discards)
    return {tile_name(d): r for d, r in res.items() if r is not None}


discard_curves.__doc__ += _COMMON_DOC


def discard_probabilities(hand: Any, draws: int, *, visible: Any = None, ruleset: Any = None,
                          method: str = "auto", seed: Any = None,
                          n_samples: int = DEFAULT_SAMPLES, policy: str | None = None,
                          changes: int = 0, n_jobs: int | None = 1,
                          max_states: int = DEFAULT_MAX_STATES, all_discards: bool = False):
    """One row per distinct discard of a hand that must discard, in tile order.

    Columns ``discard`` (str), ``shanten`` (int, after the discard), ``p_tenpai``,
    ``p_win`` (float; NaN for discards that raise the shanten unless
    ``all_discards``), ``se_tenpai``, ``se_win`` (0.0 when exact), ``method``.

    Returns
    -------
    pandas.DataFrame
    """
    import pandas as pd

    pos, engine, res = _discard_results(hand, draws, visible, ruleset, method, seed, n_samples,
                                policy, changes, n_jobs, max_states, all_discards)
    rows = []
    for d, r in res.items():
        h0 = pos.counts.copy()
        h0[d] -= 1
        rows.append({
            "discard": tile_name(d),
            "shanten": engine.shanten(h0),
            "p_tenpai": r.p_tenpai if r is not None else np.nan,
            "p_win": r.p_win if r is not None else np.nan,
            "se_tenpai": r.se_tenpai if r is not None else np.nan,
            "se_win": r.se_win if r is not None else np.nan,
            "method": r.method if r is not None else "",
        })
    return pd.DataFrame(rows, columns=["discard", "shanten", "p_tenpai", "p_win", "se_tenpai",
                                       "se_win", "method"])


discard_probabilities.__doc__ += _COMMON_DOC


# ---------------------------------------------------------------------------
# Starting hands
# ---------------------------------------------------------------------------

def starting_hand_shanten(n: int, *, ruleset: Any = None, seed: Any = None,
                          n_jobs: int | None = None, hand_size: int = 13):
    """Shanten distribution of ``n`` random starting hands dealt from a full wall.

    Each hand is ``hand_size`` tiles drawn without replacement from the tile set
    (136 tiles by default, or the ruleset's), scored with the ruleset's forms
    (default: regular, seven pairs with distinct pairs, thirteen orphans).

    Parameters
    ----------
    n : int
        Number of hands (positive).
    ruleset : None, str or WinRule
        Forms and tile set (see :func:`win_rule`).
    seed : int or numpy.random.Generator, optional
    n_jobs : int or None
        Threads (None/-1 = all cores); the result does not depend on it.
    hand_size : int
        13 (default) or 16; must be 3m+1.

    Returns
    -------
    pandas.DataFrame
        Columns ``shanten`` (int), ``count`` (int), ``fraction`` (float) and
        ``se`` (binomial standard error of the fraction), one row per shanten
        value from the lowest to the highest observed.

    Raises
    ------
    RuleError
        Bad ``n``, ``hand_size``, ``n_jobs`` or ``seed``.
    """
    import pandas as pd

    from .efficiency import shanten_batch

    n = _check_samples(n)
    if hand_size not in (13, 16):
        raise RuleError(f"hand_size must be 13 or 16, got {hand_size!r}")
    rule = win_rule(ruleset)
    tile_set = (np.full(N_KINDS, 4, dtype=np.intp) if rule.tile_set is None
                else np.asarray(rule.tile_set, dtype=np.intp))
    kind_of = np.repeat(np.arange(N_KINDS, dtype=np.intp), tile_set)
    W = kind_of.size
    chunk = 1 << 15
    n_chunks = math.ceil(n / chunk)
    seeds = _seed_sequence(seed).spawn(n_chunks)
    hist = np.zeros((n_chunks, 64), dtype=np.int64)

    def run(c: int) -> None:
        m = min(n, (c + 1) * chunk) - c * chunk
        rng = np.random.Generator(np.random.PCG64(seeds[c]))
        keys = rng.random((m, W), dtype=np.float32)
        pick = np.argpartition(keys, hand_size - 1, axis=1)[:, :hand_size]
        flat = (np.arange(m, dtype=np.intp)[:, None] * N_KINDS + kind_of[pick]).ravel()
        counts = np.bincount(flat, minlength=m * N_KINDS).astype(np.uint8).reshape(m, N_KINDS)
        s = shanten_batch(counts, forms=rule.forms, seven_pairs_quads=rule.seven_pairs_quads,
                          n_jobs=1)
        hist[c] = np.bincount(s.astype(np.intp) + 1, minlength=64)[:64]

    jobs = _n_jobs(n_jobs)
    if jobs <= 1 or n_chunks == 1:
        for c in range(n_chunks):
            run(c)
    else:
        with ThreadPoolExecutor(min(jobs, n_chunks)) as ex:
            list(ex.map(run, range(n_chunks)))
    total = hist.sum(axis=0)
    present = np.flatnonzero(total)
    lo, hi = int(present.min()), int(present.max())
    rows = [(k - 1, int(total[k])) for k in range(lo, hi + 1)]
    df = pd.DataFrame(rows, columns=["shanten", "count"])
    df["fraction"] = df["count"] / n
    df["se"] = np.sqrt(df["fraction"] * (1 - df["fraction"]) / n)
    return df

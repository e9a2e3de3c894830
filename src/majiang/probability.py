"""Win and tenpai probabilities of a hand over the next draws, exact or by Monte Carlo.

Model
-----
*One player, self-draws only, under the ruleset's game model*
(:func:`majiang.rules.model.game_model`).  The unseen tiles — the ruleset's wall
(:meth:`GameModel.wall`: 136 / 108 / 144 / 84 tiles …, flowers excluded, the
jokers set apart and drawn *as jokers*, a turned indicator removed) minus the
player's hand (concealed tiles, jokers and melds) minus the visible tiles — lie in
random order (every permutation equally likely) and the player draws ``T`` of them
without replacement, one per turn.  After each draw the player wins if the hand
is a win under THE win predicate of the ruleset
(:func:`majiang.scoring.check_win`, self-drawn, with the given seat / prevalent
wind): every constraint of the ruleset applies (缺一门 void suit, 二五八将 pair,
minimum fan, joker limits …); otherwise the player discards one tile.  Nobody
else draws, discards, calls or wins; kongs and flowers are not modelled.
``P(win)`` is the probability of winning within the ``T`` draws; ``P(tenpai)``
the probability that the hand is tenpai (听牌, ruleset shanten 0: the ruleset's
forms, tile set, void suit, pair kinds) after one of the draws (a hand that is
tenpai before any draw has ``P(tenpai) = 1``).  Each probability is the maximum
over playing policies of *that* event's probability.  Curves give, for
``t = 1..T``, the probability that the event has happened by draw ``t`` under
the policy chosen for the full horizon ``T``.

A hand that must discard (one tile more, 14 / 17) is valued by its best discard:
its ``P(win)`` is the maximum over *every* discard (one that raises the shanten can
be the best over a long horizon or under a restricted policy) of ``P(win)`` of the
hand left waiting to draw, under the same method and policy, and likewise its
``P(tenpai)`` (under ``method="auto"``, a discard that raises the shanten counts
when the method solves it exactly — at most ``AUTO_MAX_SHANTEN``, or a short horizon —
not when only the greedy Monte Carlo would play it: another policy, and minutes of
sampling); :attr:`Estimate.discard` names the discard (the first in tile order
among equal ones) and the note all of them (``"best discard 2s"``, ``"5m or 8m"``,
``"1m (one of 14 equal)"``).  So ``win_probability(h14, T)`` equals the
largest ``p_win`` of ``discard_probabilities(h14, T, all_discards=True)``.  A hand
that already wins — complete, and a valid win under THE predicate, self-drawn, on
some tile of it as the drawn one (the last draw is not known) — has ``P(win) =
P(tenpai) = 1`` with the note ``"complete: wins now, N fan"`` (N the best fan total
over those tiles).  A hand complete in shape that is no win (below MCR's 8-fan
minimum, a third suit under 缺一门 …) is valued by its best discard, and the note
says why it cannot win.

Constraints a single-player self-draw model cannot satisfy give 0: under 开门
(must open: 武汉, 沈阳) a hand without a claimed meld never wins, so ``p_win`` is
0 and :attr:`Probabilities.note` states the rule.  Give such a hand with its
exposed melds (``"[555s] …"``) to get a real number.

Which model and which policy
----------------------------
Every result carries ``model`` and ``policy``:

* ``model="true wall"`` — exact optimal play over the actual draws: a tile drawn
  and thrown back has left the wall.  Used by ``method="exact"`` (and by
  ``"auto"``) for short horizons (``T <= TRUE_WALL_MAX_DRAWS``; with the winning
  hands kept, ``T <= TRUE_WALL_WINS_MAX_DRAWS``) by the kernel's true-wall solver
  (in Python under the 2-5-8-pair rulesets, see below); equal to a brute-force
  expectimax over the real wall (tested to 1e-9).
* ``model="kind counts (S1)"`` — the hand-state approximation for long horizons:
  the state is the hand and the number of draws; the chance of drawing kind
  ``k`` is ``live_k(h) / (U - t)`` with ``live_k(h) = u_k - max(0, h_k - h0_k)``.
  Tiles drawn and thrown back are forgotten (they shrink the wall but not any
  kind's count).  Exact whenever no copy of ``k`` was drawn and thrown earlier on
  the path (e.g. a tenpai hand keeping its wait: the closed form
  ``1 - C(U-k, T) / C(U, T)`` holds).
* ``policy="optimal"`` — the best play of the stated model (any discard after
  any draw, shanten may rise).  ``policy="changes<=c"`` — the restricted search:
  after a draw the player wins, or keeps the lowered shanten with any discard,
  or throws the drawn tile back, and at most ``c`` times along a path swaps a
  non-advancing draw for a tile in hand keeping the shanten (手变).  A lower
  bound of the optimum of the S1 model.
* Every policy name a result prints is accepted back as ``policy=`` and gives the
  same numbers: ``"changes<=c"`` is ``changes=c`` (with the method's default player),
  ``"greedy (ruleset shanten)"`` is ``"greedy"``.

Under rulesets whose shapes the kernel cannot judge (``pair_258_small`` / ``all_258``:
长沙, 合肥, 武汉; :func:`_kernel_misjudges`) the kernel is never used: horizons up to
``B258_PY_MAX_DRAWS`` (3) are the true-wall optimum solved in Python with the
ruleset's shanten and THE predicate; longer ones are Monte Carlo on real walls with a
greedy player judged the same way (``method="monte_carlo"``, ``model="real walls"``,
``policy="greedy (ruleset shanten)"``, a lower bound of the optimum, non-decreasing in
``T`` for a fixed seed).  ``method="exact"`` beyond 3 draws and ``changes=`` raise
:class:`~majiang.RuleError` there.

三金倒 (罗源) and 三财神 (温州, ``three_caishen_win``): three jokers held win on a
self-draw whatever the other tiles (:func:`majiang.rules.shapes.three_jokers_win`), and
two are ready by it.  The kernel knows shapes only, so whenever two jokers can be held
within the horizon (``2 - jokers <= min(T, jokers unseen)``) the position takes the
same Python paths as the 2-5-8 rulesets: the true-wall optimum up to
``B258_PY_MAX_DRAWS`` draws, judged by the ruleset's shanten (shape shanten and the
draws to a third joker, as :func:`majiang.rules.shapes.form_shanten`) and a win = a
third joker drawn or the shape complete under THE predicate; the greedy Monte Carlo
beyond.  Exact on the closed forms: a hand holding two jokers whose shape is out of
reach wins within ``T`` draws with probability ``T / U`` (one joker unseen).

The automatic exact search under a joker ruleset spends at most
:data:`JOKER_PRED_BUDGET` on THE win predicate (each distinct complete hand costs
``2**jokers`` units: the predicate enumerates the jokers' assignments, up to a second
a hand under 天津's seven 混儿); past it every discard of the call is played by the
greedy Monte Carlo (``method="monte_carlo"``, the note names the budget).

``method="exact"`` computes the best play that fits: the true wall when it fits,
else the unrestricted S1 graph when it fits ``max_states``, else the largest
change budget that fits (``changes=c`` forces the restricted search with budget
``c``).  ``method="auto"`` (the fast default) uses the true wall for short
horizons and otherwise the restricted S1 search with ``changes=0`` for hands at
most 3-shanten (policy ``"changes<=0"``), else Monte Carlo with the greedy
policy.

*Measured effects* (``bench/bench_winprob.py --model``, output kept in
``bench/winprob_model_results.txt``; horizon 18, nothing visible, the best
discard of each of the 40 bench hands, default model):

* S1 vs. real walls (the S1 policy played on 200 000 shuffled walls per hand,
  ``changes=0``): real − S1 P(win) has mean +0.0000, mean |·| 0.0008, max |·|
  0.0016 on the 20 one-shanten hands (mean z +0.06, sd 0.95) and mean −0.0003,
  mean |·| 0.0007, max |·| 0.0024 on the 20 two-shanten hands (mean z −0.25,
  sd 1.03); P(tenpai) +0.0001 / +0.0004.  S1 is within Monte Carlo noise here;
  with change moves it stays within noise on 1-shanten hands (|z| <= 1.1) and is
  ≈ 0.003 high on a 2-shanten hand.
* S1 under the rulesets' own walls (``tests/test_rules_probability.py``: T = 18,
  10 hands per ruleset, 20 000 real walls each, the S1 policy ``changes<=0``):
  |z| <= 2.5 on 长沙, 广东, 山东 (2-5-8), 沈阳, 四川, 四川血流 and 台湾 (mean z
  between −0.6 and +0.1 per ruleset).  On the 84-tile 卡五星 wall, where 18 draws
  are a quarter of the unseen tiles, one hand's S1 value is 0.0073 *above* the
  same policy on real walls (0.7757 vs 0.7684 ± 0.0007, 400 000 walls); at
  T <= 10 it agrees (|z| < 1).  S1 is optimistic when a large share of a small
  wall is drawn; use Monte Carlo (``policy="optimal"``) for the true value.
* The restricted search is the large effect: on the 20 one-shanten hands one
  change move raises P(win) by +0.070 on average (max +0.189), two by +0.106;
  against the unrestricted S1 optimum the restricted search is below by
  +0.0007 / +0.0026 / +0.0060 on average (max 0.0027 / 0.0093 / 0.0209) at
  horizons 3 / 4 / 5, growing with the horizon.  So ``"changes<=0"`` is a lower
  bound that is tight only for short horizons; ``method="exact"`` spends the
  state budget on the best policy that fits.

Monte Carlo
-----------
``method="monte_carlo"`` deals ``n_samples`` real walls of the ruleset (uniform
permutations of the unseen tiles, jokers included, first ``T`` drawn) and plays a
policy: ``policy="optimal"`` the S1 policy above (so the estimate is the *true*
probability of that policy, free of S1; ``Probabilities.policy`` names it),
``policy="greedy"`` an ukeire-greedy player.  Results carry standard errors
``sqrt(p (1 - p) / n)`` and ``model="real walls"``.  Walls are dealt in fixed
chunks, each with its own child of ``numpy.random.SeedSequence(seed).spawn``, so
results depend on the seed only, never on ``n_jobs``.

Cost: without a ruleset (and under rulesets whose only shape rules the core
honours exactly: tile set, 缺一门, 二五八将 for every win) the kernel needs no
predicate.  Otherwise THE win predicate is called once per distinct complete hand
and win kind (cached); it scores the hand (≈ 0.1 ms, ≈ 20 ms with jokers under
武汉), so long horizons under joker rulesets take minutes.

``KeyboardInterrupt`` raised during a long call (also inside the win predicate)
propagates unchanged; it is never turned into a :class:`~majiang.RuleError`.

At the table (``model="table"``)
--------------------------------
``win_probability(hand, T, model="table", ruleset=..., n_samples=..., seed=...,
opponents="efficiency")`` (and :func:`tenpai_probability`) play the hand at a full
table with the whole-hand engine (:mod:`majiang.game.table`): seat 0, the dealer,
is dealt the hand (a random extra dealt tile is its first draw), the other seats
get random hands from the rest of the ruleset's shuffled tile set and play the
built-in bots (or policy objects), seat 0 plays the efficiency bot; a sample is a
win when seat 0 wins — self-draw, after a kong, on a discard or by robbing a kong,
as the ruleset allows — before its ``T + 1``-th draw.  Another seat winning first
ends the sample as a loss (under 血战 / 血流 play goes on as the engine plays it).
The result is a Monte Carlo :class:`Estimate` with ``model="table (engine Monte
Carlo)"``, ``policy="efficiency bot"`` and a note naming the opponents; seen tiles
(``visible``) and melds are not modelled there.  The single-player model above
stays the default (``model=None`` or ``"single"``) and stays exact.

Layering: this module sits below :mod:`majiang.game` and never imports it by
statement.  Extra models are registered (:func:`register_model`); ``majiang.game``
registers ``"table"`` when it is imported, and :func:`_extra_model` — the one place
— imports the provider module named in ``_MODEL_PROVIDERS`` by name
(``importlib``) when a known model is asked for before its provider was imported.
"""
from __future__ import annotations

import importlib
import math
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Callable

import numpy as np

from ._core import efficiency as _eff
from ._core import probability as _prob
from ._parallel import plain_seed, resolve_n_jobs, spawn_seeds
from .efficiency import form_mask
from .errors import InvalidHandError, MahjongError, RuleError
from .hand import Hand, as_hand, visible_counts
from .rules.model import ALL_PAIRS, GameModel, game_model
from .rules.shapes import three_jokers_win as _three_jokers_win
from .tiles import N_KINDS, tile_name

__all__ = [
    "METHODS", "POLICIES", "MODELS", "Estimate", "Probabilities",
    "probabilities", "win_probability", "tenpai_probability", "win_curve", "tenpai_curve",
    "discard_curves", "discard_probabilities", "starting_hand_shanten", "register_model",
]

METHODS = ("auto", "exact", "monte_carlo")
POLICIES = ("optimal", "greedy")
MODELS = ("true wall", "kind counts (S1)", "real walls")
TRUE_WALL, S1, REAL = MODELS
DEFAULT_SAMPLES = 20_000
CHUNK = 1024                 # walls per Monte Carlo chunk (one spawned seed each)
AUTO_MAX_SHANTEN = 3
TRUE_WALL_MAX_DRAWS = 3      # horizons solved over the true wall
TRUE_WALL_WINS_MAX_DRAWS = 2
"""Horizons whose winning hands (fan odds, expected score) come from the true wall
(``true_wall_solve(..., wins=True)``); at 3 draws the true wall with a scoring
predicate takes seconds (the S1 forward pass keeps them, as before)."""
MAX_CHANGES = 8
DEFAULT_MAX_STATES = 200_000
JOKER = N_KINDS              # a joker draw in a wall / the win-kind of a joker draw
B258_PY_MAX_DRAWS = 3
"""Horizons solved exactly in Python under ``pair_258_small`` / ``all_258`` rulesets
(长沙, 合肥, 武汉; :func:`_kernel_misjudges`): the kernel judges completion and tenpai
by the core's forms, which miss 将将胡 of any shape and count a hand ready on a
non-2-5-8 pair, so it is never used there.  Longer horizons are Monte Carlo on real
walls (:meth:`_Engine.b258_simulate`: a greedy player judged by the ruleset's shanten
and THE predicate); ``method="exact"`` beyond this horizon, or ``changes=``, is a
:class:`~majiang.RuleError`."""


JOKER_PRED_BUDGET = 3000
"""Work an automatic (``method="auto"``) exact search may spend on THE win predicate
under a joker ruleset, in units of ``2**jokers`` per distinct complete hand judged (the
predicate enumerates the jokers' assignments: ≈ 20 ms with two jokers, up to a second
with six or seven, 天津).  The budget is shared by the discards of one call; past it
every discard of the call is played by Monte Carlo with the greedy player instead
(``method="monte_carlo"``, ``model="real walls"``, ``policy="greedy"``, the note says
why).  ``method="exact"`` has no budget."""


B258_SHANTEN_UNITS = 0.2
"""The cost, in :data:`JOKER_PRED_BUDGET` units, of one ruleset-shanten evaluation of
the Python 2-5-8 route (:func:`_kernel_misjudges`: 武汉, 长沙, 合肥; each distinct hand
``(h, jokers)`` is evaluated once a call, ≈ 0.4 ms with a joker, against ≈ 5 ms a unit of
THE predicate).  Under a joker ruleset the automatic exact search of that route
(:meth:`_Engine.b258_true_wall`) is charged these too, so that a horizon whose expectimax
would take minutes is played by the labelled greedy Monte Carlo instead."""


B258_MC_WORK = 30_000
"""Under a joker ruleset the automatic method's Monte Carlo on the Python route
(:meth:`_Engine.b258_simulate`) stops dealing walls once its greedy player has made this
many ruleset-shanten evaluations (:meth:`_Engine._b258_rows`, ≈ 0.15 ms each with a
joker, 武汉: a few seconds a discard) and at least :data:`B258_MC_MIN_SAMPLES` walls are
played: the estimate then rests on fewer walls than ``n_samples`` (its ``n_samples`` and
± say how many; the note says why).  Counts, not timings, so the result depends on the seed only.
``method="monte_carlo"`` plays every wall asked for."""
B258_MC_MIN_SAMPLES = 100


class _PredBudget(MahjongError):
    """The automatic exact search ran past :data:`JOKER_PRED_BUDGET`."""


def _kernel_misjudges(model: GameModel) -> bool:
    """True when the compiled kernel cannot judge this ruleset's wins and tenpai: the
    2-5-8 shape families (:attr:`majiang.rules.model.GameModel.shapes_258`, the one
    decision that efficiency's route and waits read too)."""
    return model.ruleset is not None and model.shapes_258
_OBJ_WIN, _OBJ_TENPAI = 0, 1


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Estimate:
    """A probability with its standard error (0.0 for exact values).

    ``float(est)`` gives the value; ``format(est, ".3f")`` the value (± se for Monte
    Carlo); ``str(est)`` also names the method, model and policy.  ``method`` is
    ``"exact"`` or ``"monte_carlo"``; ``n_samples`` is None for exact values;
    ``model`` / ``policy`` / ``note`` as in :class:`Probabilities`; ``discard`` the
    best discard of a hand that must discard (its value is that discard's; the first in
    tile order among equal ones, which the note lists), else "".
    """

    value: float
    se: float
    method: str
    n_samples: int | None = None
    model: str = S1
    policy: str = "optimal"
    note: str = ""
    discard: str = ""

    def __float__(self) -> float:
        return float(self.value)

    def __format__(self, spec: str) -> str:
        if self.method == "exact":
            return format(self.value, spec or ".4f")
        return f"{format(self.value, spec or '.4f')} ± {format(self.se, spec or '.4f')}"

    def __str__(self) -> str:
        note = f"; {self.note}" if self.note else ""
        return f"{format(self, '')} ({self.method}, {self.model}, policy {self.policy}{note})"


@dataclass(frozen=True, eq=False)
class Probabilities:
    """Win and tenpai probabilities of one hand over ``draws`` draws.

    Attributes
    ----------
    draws : int
        The horizon ``T``.
    p_win, p_tenpai : float
        Probability of winning / being tenpai within ``T`` draws.
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
        ``"optimal"`` (best play of the model), ``"changes<=c"`` (restricted
        search, a lower bound), ``"greedy"`` (Monte Carlo ukeire-greedy player) or
        ``"greedy (ruleset shanten)"`` (the 2-5-8 rulesets' greedy player); each is
        accepted back as ``policy=``.
    n_samples : int or None
        Walls simulated (None when exact).
    n_states : int or None
        Hand states of the exact search (None when not built).
    model : str
        ``"true wall"``, ``"kind counts (S1)"`` or ``"real walls"`` (Monte Carlo).
    note : str
        Why the probability is 0 by rule (e.g. 开门 with a closed hand), which discard
        a hand that must discard is valued by, that a complete hand wins now (or why
        it does not), else "".
    ruleset : str
        The game model's name.
    discard, tenpai_discard : str
        For a hand that must discard: the discard whose ``p_win`` (resp.
        ``p_tenpai``) is reported, the best one (:func:`probabilities`; the first in
        tile order among equal ones, which the note lists); "" otherwise (and for a
        complete hand that wins now).
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
    model: str = S1
    note: str = ""
    ruleset: str = ""
    _winning: Any = field(default=None, repr=False)   # winning-hand distribution (fan odds)
    discard: str = ""
    tenpai_discard: str = ""
    _tenpai: Any = field(default=None, repr=False)    # Estimate of the best tenpai discard

    @property
    def win(self) -> Estimate:
        return Estimate(self.p_win, self.se_win, self.method, self.n_samples, self.model,
                        self.policy, self.note, self.discard)

    @property
    def tenpai(self) -> Estimate:
        if self._tenpai is not None:
            return self._tenpai
        return Estimate(self.p_tenpai, self.se_tenpai, self.method, self.n_samples, self.model,
                        self.policy, "")

    @property
    def label(self) -> str:
        """``"<method>, <model>, policy <policy>"`` — what produced the numbers."""
        return f"{self.method}, {self.model}, policy {self.policy}"

    def __str__(self) -> str:
        rs = f"; {self.ruleset}" if self.ruleset else ""
        note = f"; {self.note}" if self.note else ""
        return (f"P(win) {format(self.win, '')}, P(tenpai) {format(self.tenpai, '')} within "
                f"{self.draws} draws ({self.label}{rs}{note})")


# ---------------------------------------------------------------------------
# The win predicate handed to the kernel
# ---------------------------------------------------------------------------

class _WinPred:
    """THE win predicate (:func:`check_win`) as the kernel's callable.

    ``pred(h14, win_kind, n_jokers=0)``: ``h14`` the concealed kinds after the draw
    (``uint8 (34,)``), ``win_kind`` the drawn kind (34 = a joker), ``n_jokers`` the
    jokers held after the draw.  Cached per call.  Self-drawn context.
    """

    def __init__(self, model: GameModel, melds: tuple, ctx: dict, never: bool = False):
        self.model, self.melds, self.ctx, self.never = model, melds, ctx, never
        self.cache: dict = {}
        self.results: dict = {}               # the scored result of each valid key
        self.calls = 0
        self.budget: float | None = None      # JOKER_PRED_BUDGET while an auto search runs
        self.spent = 0.0

    def __call__(self, h14: np.ndarray, k: int, n_jokers: int) -> bool:
        if self.never:
            return False
        key = (bytes(h14), int(k), int(n_jokers))
        got = self.cache.get(key)
        if got is not None:
            return got
        self.calls += 1
        if self.budget is not None:
            self.spent += 2.0 ** int(n_jokers)
            if self.spent > self.budget:
                raise _PredBudget(f"more than {self.budget:g} units of winning-hand checks")
        chk = self.check(np.asarray(h14, dtype=np.uint8), int(k), int(n_jokers))
        ok = bool(chk.valid)
        self.cache[key] = ok
        self.results[key] = chk.result if ok else None
        return ok

    def result(self, h14: np.ndarray, k: int, n_jokers: int):
        """The scored result of a win (None when not a win), from the cache of the
        calls made while solving when there is one (no budget applies)."""
        key = (bytes(h14), int(k), int(n_jokers))
        if key not in self.results:
            chk = self.check(np.asarray(h14, dtype=np.uint8), int(k), int(n_jokers))
            self.results[key] = chk.result if chk.valid else None
        return self.results[key]

    def check(self, h14: np.ndarray, k: int, n_jokers: int = 0):
        """The :class:`WinCheck` of ``h14`` completed by drawing ``k`` (34 = joker)."""
        from .scoring import check_win
        before = np.array(h14, dtype=np.uint8)
        if k == JOKER:
            hand = Hand(before, self.melds, (), n_jokers - 1)
            return check_win(hand, None, ruleset=self.model, self_drawn=True,
                             win_is_joker=True, **self.ctx)
        before[k] -= 1
        try:
            hand = Hand(before, self.melds, (), n_jokers)
        except InvalidHandError:
            from .scoring import WinCheck
            return WinCheck(False, "not a hand")
        return check_win(hand, k, ruleset=self.model, self_drawn=True, **self.ctx)


def _raise_pred_error(err: BaseException | None, model: GameModel) -> None:
    if err is None:
        return
    if not isinstance(err, Exception):          # KeyboardInterrupt, SystemExit
        raise err
    if isinstance(err, MahjongError) and not isinstance(err, InvalidHandError):
        raise err
    raise RuleError(f"checking whether a hand wins under {model.name!r} raised "
                    f"{type(err).__name__}: {err}") from err


# ---------------------------------------------------------------------------
# Input handling
# ---------------------------------------------------------------------------

@dataclass
class _Position:
    model: GameModel
    hand: Hand
    counts: np.ndarray           # concealed uint8 (34,)
    jokers: int                  # jokers held
    caps: np.ndarray | None      # copies available to the concealed hand, or None
    melds: tuple
    unseen: np.ndarray           # uint8 (34,) drawn as themselves
    joker_unseen: int            # unseen tiles drawn as jokers
    U: int                       # unseen tiles (jokers included)
    mask: int
    quads: bool
    pair_mask: int
    void_suits: int
    pred: _WinPred | None
    note: str = ""
    ctx: dict = field(default_factory=dict)     # seat / prevalent wind of THE predicate
    shown: dict = field(default_factory=dict)   # discard names shown otherwise (安庆 2m -> 7z)

    @property
    def name(self) -> str:
        return self.model.name

    def discard_name(self, d: int) -> str:
        """The tile name of discard `d` as the player sees it: ``*`` a joker, a held
        stand-in by its own name (安庆 7z, not the 钻牌 face it plays)."""
        name = _discard_name(d)
        return self.shown.get(name, name)


def _model_of(ruleset: Any) -> GameModel:
    """None / registry name / ``.toml`` path / Ruleset / GameModel -> GameModel."""
    return game_model(ruleset)


def _position(hand: Any, visible: Any, ruleset: Any, *, indicator: Any = None,
              seat_wind: Any = 0, prevalent_wind: Any = 0) -> _Position:
    model = _model_of(ruleset)
    if model.ruleset is not None:       # wild tiles by their faces, stand-ins as themselves
        from .efficiency import read_faces
        hand = read_faces(hand, model.ruleset, indicator)
    if isinstance(hand, str):
        h = as_hand(hand, hand_size=model.hand_size)
    elif isinstance(hand, Hand):
        h = hand
        if h.n_tiles not in (model.hand_size, model.hand_size + 1):
            raise InvalidHandError(
                f"{h.n_tiles} tiles (melds count 3, jokers included): {model.name} plays "
                f"{model.hand_size}-tile hands ({model.hand_size + 1} before a discard)")
    else:
        h = as_hand(hand, strict=False)
    if h.jokers and model.jokers is None:
        raise RuleError(f"{model.name} has no jokers; the hand holds {h.jokers} '*'")
    if model.ruleset is not None:
        model.check_flowers(h.flowers)
    counts = np.ascontiguousarray(h.concealed, dtype=np.uint8)
    vis = visible_counts(visible, h).astype(np.int16)
    held = h.all_counts.astype(np.int16)
    outside = np.flatnonzero((model.copies == 0) & ((held > 0) | (vis > 0)))
    if outside.size:
        raise InvalidHandError(
            f"{tile_name(int(outside[0]))} is not in the tile set of {model.name} "
            f"({model.n_tiles} tiles)")
    wall = model.wall(indicator)
    seen_jokers = 0
    if wall.joker_kinds and model.ruleset is not None:
        # seen tiles as they look, as ukeire reads them: a wild kind's face is a seen
        # joker, a stand-in (安庆 7z) a seen copy of the face it plays
        from .rules.shapes import stand_in
        vis = vis.copy()
        for k in wall.joker_kinds:
            seen_jokers += int(vis[k])
            vis[k] = 0
        si = stand_in(model.ruleset, indicator)
        if si is not None:
            vis[si[0]] += vis[si[1]]
            vis[si[1]] = 0
    unseen = wall.counts.astype(np.int16) - held - vis
    if unseen.min() < 0:
        k = int(np.argmin(unseen))
        extra = ""
        if k in wall.joker_kinds:
            extra = " (its other copies are jokers: write them as '*')"
        elif k == wall.indicator and model.set_apart(indicator)[k]:
            extra = " (one is the turned indicator, seen already: leave it out of visible)"
        raise InvalidHandError(
            f"{tile_name(k)}: the hand and the visible tiles hold {int(held[k] + vis[k])} "
            f"copies but the wall of {model.name} has {int(wall.counts[k])}{extra}")
    joker_unseen = wall.jokers - h.jokers - seen_jokers
    if joker_unseen < 0:
        raise InvalidHandError(f"{h.jokers} jokers held and {seen_jokers} seen but "
                               f"{model.name} has {wall.jokers}")
    sh = model.shape(h.melds)
    caps = None if bool(np.all(sh.caps == 4)) else np.ascontiguousarray(sh.caps)
    mask = form_mask(tuple(sh.forms))
    ok, why = (True, "")
    if not any(not m.concealed for m in h.melds):
        ok, why = model.closed_hand_can_win()
    ctx = {"seat_wind": seat_wind, "prevalent_wind": prevalent_wind}
    need_pred = model.ruleset is not None and not (sh.exact and model.jokers is None)
    pred = None
    if not ok:
        pred = _WinPred(model, h.melds, ctx, never=True)
    elif need_pred:
        pred = _WinPred(model, h.melds, ctx)
    note = "" if ok else (f"P(win) = 0 by rule: a closed hand cannot win under {model.name} "
                          f"({why}); give the hand with its claimed melds")
    return _Position(model, h, counts, int(h.jokers), caps, h.melds,
                     unseen.astype(np.uint8), int(joker_unseen),
                     int(unseen.sum()) + int(joker_unseen), mask, bool(sh.quads),
                     int(sh.pair_mask), int(sh.void_suits), pred, note, ctx,
                     _shown_names(model, indicator))


def _shown_names(model: GameModel, indicator: Any) -> dict:
    """``{face name: stand-in name}`` (:func:`majiang.efficiency._stand_in_names`)."""
    if model.ruleset is None or model.jokers is None or indicator is None:
        return {}
    from .efficiency import _stand_in_names
    return _stand_in_names(model.ruleset, indicator)


def _check_draws(draws: Any, U: int) -> int:
    if isinstance(draws, bool) or not isinstance(draws, (int, np.integer)):
        raise RuleError(f"draws must be a non-negative integer, got {draws!r}")
    draws = int(draws)
    if draws < 0:
        raise RuleError(f"draws must be >= 0, got {draws}")
    if draws > U:
        raise RuleError(f"{draws} draws: more than the {U} unseen tiles left to draw")
    if draws > 32000:
        raise RuleError(f"{draws} draws: too many (at most 32000)")
    return draws


def _check_method(method: str, policy: str | None) -> None:
    if method not in METHODS:
        raise RuleError(f"unknown method {method!r}; use one of {', '.join(METHODS)}")
    _policy_parts(policy)


GREEDY_258 = "greedy (ruleset shanten)"
"""The policy name of the greedy Monte Carlo under the 2-5-8 / 三金倒 Python paths."""


def _policy_parts(policy: Any) -> tuple[str | None, int | None]:
    """``(policy, changes)`` of a policy name as results print it (:attr:`Estimate.policy`),
    so that every printed name is accepted back as ``policy=``: ``"optimal"`` and
    ``"greedy"`` stay; ``"greedy (ruleset shanten)"`` is ``"greedy"`` (the only player of
    those rulesets' Monte Carlo); ``"changes<=c"`` is ``changes=c`` with the method's
    default player (the restricted search when exact, its policy on real walls under
    ``method="monte_carlo"``).  Raises :class:`~majiang.RuleError` for other values."""
    if policy is None or policy in POLICIES:
        return policy, None
    if policy == GREEDY_258:
        return "greedy", None
    m = re.fullmatch(r"\s*changes\s*<=\s*(\d+)\s*", policy) if isinstance(policy, str) else None
    if m is not None and int(m.group(1)) <= MAX_CHANGES:
        return None, int(m.group(1))
    raise RuleError(f"unknown policy {policy!r}; use one of {', '.join(POLICIES)}, "
                    f"{GREEDY_258!r} or 'changes<=c' with c in 0..{MAX_CHANGES}")


def _check_samples(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise RuleError(f"n_samples must be a positive integer, got {n!r}")
    return int(n)


def _check_changes(changes: Any) -> int | None:
    if changes is None:
        return None
    if (isinstance(changes, bool) or not isinstance(changes, (int, np.integer))
            or not 0 <= changes <= MAX_CHANGES):
        raise RuleError(f"changes must be None or an integer 0..{MAX_CHANGES}, got {changes!r}")
    return int(changes)


# ---------------------------------------------------------------------------
# Engines
# ---------------------------------------------------------------------------

class _Engine:
    """One position: graphs for its roots, exact solves and simulations."""

    def __init__(self, pos: _Position, draws: int, changes: int | None, max_states: int):
        _eff.build_tables()
        self.pos, self.T, self.changes = pos, draws, changes
        self.max_states = max_states
        self.keep_wins = False
        self._graphs: dict = {}
        self._shanten: dict = {}
        self._b258 = None       # pair_258_small / all_258: the ruleset's shape groups
        if _kernel_misjudges(pos.model):
            from .efficiency import _plan258
            self._b258 = _plan258(pos.model.ruleset)
        rs = pos.model.ruleset
        self._three = bool(rs is not None and _three_jokers_win(rs))
        self.pred_over = False  # the auto search ran past JOKER_PRED_BUDGET
        self.mc_work: int | None = None   # B258_MC_WORK while an auto call runs (jokers)
        self.rows_done = 0                # ruleset-shanten rows of the greedy player
        self._eff_memo: dict = {}

    # -- shanten under the ruleset's shape options --------------------------------
    def shanten(self, h0: np.ndarray, j0: int = 0) -> int:
        """The ruleset's shanten of ``(h0, j0)``; under 三金倒 / 三财神 the least of the shape
        shanten and the draws to a third joker (``2 - jokers``: -1 for a 3n+2 hand with
        three, 0 for a 3n+1 hand with two or more), as
        :func:`majiang.rules.shapes.form_shanten`."""
        s = self.shape_shanten(h0, j0)
        if self._three:
            n = int(h0.sum()) + int(j0)
            s = min(s, max(-1 if n % 3 == 2 else 0, 2 - int(j0)))
        return s

    def shape_shanten(self, h0: np.ndarray, j0: int = 0) -> int:
        """The shanten of the ruleset's shapes (its forms and constraints, no 三金倒)."""
        key = (h0.tobytes(), j0)
        got = self._shanten.get(key)
        if got is not None:
            return got
        pos = self.pos
        fifth = bool(pos.model.jokers is not None and pos.model.jokers.fifth_copy)
        if self._b258 is not None:       # small win 2-5-8 pair, 大胡 shapes any pair
            from .efficiency import _b258_shanten
            pred = pos.pred
            if isinstance(pred, _WinPred) and pred.budget is not None:
                pred.spent += B258_SHANTEN_UNITS      # the auto search's cost estimate
                if pred.spent > pred.budget:
                    raise _PredBudget(f"more than {pred.budget:g} units of work")
            caps = pos.caps if pos.caps is not None else self._b258.copies
            s = int(_b258_shanten(self._b258, np.ascontiguousarray(h0, dtype=np.uint8), caps,
                                  pos.melds, int(j0)))
            self._shanten[key] = s
            return s
        s = int(_eff.shanten_one(h0, pos.mask, pos.quads, pos.caps, j0, fifth,
                                 pair_mask=pos.pair_mask, void_suits=pos.void_suits))
        self._shanten[key] = s
        return s

    # -- graphs ------------------------------------------------------------------
    def graph(self, budget: int, unrestricted: bool = False):
        key = (budget, unrestricted)
        g = self._graphs.get(key)
        if g is None:
            pos = self.pos
            jr = pos.model.jokers
            g = _prob.Graph(pos.unseen, pos.caps, pos.mask, pos.quads, budget,
                            self.max_states, pos.pred, pair_mask=pos.pair_mask,
                            void_suits=pos.void_suits, joker_unseen=pos.joker_unseen,
                            joker_discard=bool(jr.discard) if jr is not None else True,
                            fifth=bool(jr.fifth_copy) if jr is not None else False,
                            unrestricted=unrestricted)
            self._graphs[key] = g
        return g

    def solve(self, g, h0: np.ndarray, j0: int, objective: int):
        """(V, curve, root) or None when the state limit is hit."""
        try:
            root = g.add_root(h0, j0)
        except MemoryError:
            if g.n_states >= self.max_states:
                return None
            raise
        status, V, curve = g.solve(root, h0, self.T, self.pos.U, objective)
        _raise_pred_error(g.pred_error, self.pos.model)
        if status in (-3, -4):
            raise KeyboardInterrupt("interrupted")
        if status == -2:
            return None
        if status < 0:
            raise MemoryError("out of memory while building the hand-state graph")
        return V, curve, root

    def _result(self, g, h0, j0, policy: str) -> Probabilities | None:
        T = self.T
        win = self.solve(g, h0, j0, _OBJ_WIN)
        if win is None:
            return None
        wm = g.last_win_mass
        ten = self.solve(g, h0, j0, _OBJ_TENPAI)
        if ten is None:
            return None
        (Vw, cw, root), (Vt, ct, _) = win, ten
        winning = None
        if self.keep_wins:
            winning = self._winning_of(g, wm)
        z = np.zeros(T)
        return Probabilities(
            draws=T, p_win=float(Vw[root, 0]), p_tenpai=float(Vt[root, 0]), se_win=0.0,
            se_tenpai=0.0, win_curve=cw[1:].copy(), tenpai_curve=ct[1:].copy(),
            win_curve_se=z, tenpai_curve_se=z.copy(), method="exact", policy=policy,
            n_states=int(g.n_states), model=S1, note=self.pos.note, ruleset=self.pos.name,
            _winning=winning)

    @staticmethod
    def _winning_of(g, wm):
        """(hands13 uint8 (n, 34), win kind intp (n,), weight (n,), jokers (n,), None)."""
        table = g.edge_table()
        owner, kind = table[0][:wm.size], table[1][:wm.size]
        sel = np.flatnonzero(wm > 0)
        hands = np.array([g.hand_of(int(i)) for i in owner[sel]],
                         dtype=np.uint8).reshape(-1, N_KINDS)
        jk = np.array([int(g.jokers_of(int(i))) for i in owner[sel]], dtype=np.intp)
        return hands, kind[sel].astype(np.intp), wm[sel].copy(), jk, None

    def _true_wall(self, h0: np.ndarray, j0: int) -> Probabilities | None:
        """The kernel's true-wall optimum; with ``keep_wins`` also the winning hands of
        that play (``true_wall_solve(..., wins=True)``)."""
        pos, T = self.pos, self.T
        jr = pos.model.jokers
        wall35 = np.append(pos.unseen, pos.joker_unseen).astype(np.int32)
        kw = dict(fifth=bool(jr.fifth_copy) if jr is not None else False,
                  pair_mask=pos.pair_mask, void_suits=pos.void_suits,
                  joker_discard=bool(jr.discard) if jr is not None else True,
                  pred=pos.pred, max_states=self.max_states)
        out, winning = [], None
        for objective in (_OBJ_WIN, _OBJ_TENPAI):
            wins = self.keep_wins and objective == _OBJ_WIN
            try:
                got = _prob.true_wall_solve(h0, j0, wall35, T, objective, pos.mask, pos.quads,
                                            pos.caps, wins=wins, **kw)
            except BaseException as exc:       # a predicate error is re-raised as itself
                if isinstance(exc, Exception) and not isinstance(exc, (MahjongError,
                                                                        MemoryError)):
                    _raise_pred_error(exc, pos.model)
                raise
            if got is None:
                return None
            out.append(got[:3])
            if wins:
                winning = _before_draw(*got[3])
        (p_win, cw, n_w), (p_ten, ct, n_t) = out
        n_states = int(n_w) + int(n_t)
        z = np.zeros(T)
        return Probabilities(
            draws=T, p_win=float(p_win), p_tenpai=float(p_ten), se_win=0.0, se_tenpai=0.0,
            win_curve=np.asarray(cw, dtype=np.float64).copy(),
            tenpai_curve=np.asarray(ct, dtype=np.float64).copy(), win_curve_se=z,
            tenpai_curve_se=z.copy(), method="exact", policy="optimal", n_states=n_states,
            model=TRUE_WALL, note=pos.note, ruleset=pos.name, _winning=winning)

    def _wins(self, h14: np.ndarray, nj: int, k: int) -> bool:
        """Whether drawing ``k`` (34 = a joker) to reach ``(h14, nj)`` wins: three jokers
        held under 三金倒 / 三财神 (a self-draw wins whatever the other tiles, the rule's
        shape-free win, which THE predicate accepts too), else the ruleset's shapes
        complete and THE predicate."""
        if self._three and nj >= 3:
            return True
        if self.shape_shanten(h14, nj) != -1:
            return False
        pred = self.pos.pred
        return pred is None or bool(pred(h14, k, nj))

    def _python_paths(self, j0: int) -> bool:
        """Whether this root is solved here rather than by the kernel, whose forms miss
        the ruleset's: 2-5-8 pair rulesets (:func:`_kernel_misjudges`), and 三金倒 /
        三财神 when two jokers (ready by it) can be held within the horizon — the draws
        still missing can come from the jokers unseen."""
        if self._b258 is not None:
            return True
        if not self._three:
            return False
        need = max(0, 2 - int(j0))
        return need <= min(self.T, self.pos.joker_unseen)

    def _effective(self, h: np.ndarray, nj: int, s: int) -> set:
        """Kinds (34 = a joker) whose draw lowers the ruleset shanten ``s`` of ``(h, nj)``
        after the best discard."""
        if self._b258 is not None and not self._three:
            from .efficiency import _b258_effective
            caps = self.pos.caps if self.pos.caps is not None else self._b258.copies
            _, eff = _b258_effective(self._b258, h, caps, self.pos.melds, nj)
            return set(int(k) for k in eff) | {JOKER}
        key = (h.tobytes(), nj)
        got = self._eff_memo.get(key)
        if got is not None:
            return got
        out = set()
        shape = self.shape_shanten(h, nj)
        if shape > s:
            pass                      # a draw lowers the shape shanten by one at most
        elif self._b258 is None:
            # the kinds that lower the shape shanten (a draw lowers it by one at most,
            # so only a shape at the least shanten has any): the kernel's ukeire
            pos = self.pos
            jr = pos.model.jokers
            _, live = _eff.ukeire_one(np.ascontiguousarray(h, dtype=np.uint8), pos.mask,
                                      pos.quads, pos.caps, None, int(nj),
                                      bool(jr is not None and jr.fifth_copy),
                                      pair_mask=pos.pair_mask, void_suits=pos.void_suits)
            out.update(int(k) for k in np.flatnonzero(live >= 0))
        else:                         # 2-5-8 shapes with 三金倒 (no such ruleset yet)
            for k in range(N_KINDS):
                h14 = h.copy()
                h14[k] += 1
                if self.shanten(h14, nj) < s:      # the 3n+2 hand: its best discard
                    out.add(k)
        if self.shanten(h, nj + 1) < s:            # a joker draw (三金倒, or any shape)
            out.add(JOKER)
        self._eff_memo[key] = out
        return out

    def b258_true_wall(self, h0: np.ndarray, j0: int) -> Probabilities:
        """``T <= B258_PY_MAX_DRAWS`` under a ``pair_258_small`` / ``all_258`` ruleset, or
        under 三金倒 / 三财神 (:meth:`_python_paths`): the true-wall expectimax in Python,
        completion and tenpai judged by the ruleset's shanten
        (:func:`majiang.efficiency._b258_shanten`: 2-5-8 pair for a small win, the 大胡
        shapes with any pair, 将将胡 of any shape; the draws to a third joker) and
        :meth:`_wins`.  Optimal play per objective (win, tenpai), as the kernel's; the
        winning hands of the win policy are kept.  A state whose shanten cannot be met in
        the draws left is worth 0 (a draw lowers the shanten by at most one)."""
        pos, T = self.pos, self.T
        pred = pos.pred
        jr = pos.model.jokers
        memo: dict = {}
        wins = self._wins

        def value(h, nj, wall, t, obj):
            """(value, curve (t + 1,), winning dist) of a 3n+1 state with t draws left;
            curve[i] = P(success within i draws) under the policy of the value."""
            s = self.shanten(h, nj)
            if obj == _OBJ_TENPAI and s <= 0:
                return 1.0, np.ones(t + 1), {}
            if s + (1 if obj == _OBJ_WIN else 0) > t or t == 0:
                return 0.0, np.zeros(t + 1), {}
            key = (h.tobytes(), nj, wall.tobytes(), t, obj)
            got = memo.get(key)
            if got is not None:
                return got
            U = int(wall.sum())
            val, curve, dist = 0.0, np.zeros(t + 1), {}
            draws = np.flatnonzero(wall)
            if s + (1 if obj == _OBJ_WIN else 0) == t:
                # no slack: only a draw that lowers the shanten can still succeed (the
                # best discard after any other draw keeps the shanten)
                eff = self._effective(h, nj, s)
                draws = [k for k in draws if int(k) in eff]
            for k in draws:
                k = int(k)
                p = wall[k] / U
                h14, nj14 = h.copy(), nj
                if k == JOKER:
                    nj14 += 1
                else:
                    h14[k] += 1
                if wins(h14, nj14, k):
                    val += p
                    curve[1:] += p
                    if obj == _OBJ_WIN:
                        dk = (h.tobytes(), k, nj)
                        dist[dk] = dist.get(dk, 0.0) + p
                    continue
                w2 = wall.copy()
                w2[k] -= 1
                best, best_c, best_d = -1.0, None, {}
                for _, h13, n13 in _after_discards(jr, h14, nj14):
                    v, c, dd = value(h13, n13, w2, t - 1, obj)
                    if v > best + 1e-15:
                        best, best_c, best_d = v, c, dd
                if best <= 0.0:
                    continue
                val += p * best
                curve[1:] += p * best_c
                for dk, q in best_d.items():
                    dist[dk] = dist.get(dk, 0.0) + p * q
            memo[key] = (val, curve, dist)
            return memo[key]

        wall = np.append(pos.unseen, pos.joker_unseen).astype(np.int64)
        p_win, cw, dist = value(h0.copy(), j0, wall, T, _OBJ_WIN)
        p_ten, ct, _ = value(h0.copy(), j0, wall, T, _OBJ_TENPAI)
        cw, ct = cw[1:], ct[1:]
        if pred is not None:
            _raise_pred_error(getattr(pred, "error", None), pos.model)
        keys = list(dist)
        hands = np.array([np.frombuffer(k[0], dtype=np.uint8) for k in keys],
                         dtype=np.uint8).reshape(-1, N_KINDS)
        z = np.zeros(T)
        return Probabilities(
            draws=T, p_win=float(p_win), p_tenpai=float(p_ten), se_win=0.0, se_tenpai=0.0,
            win_curve=np.asarray(cw, dtype=np.float64), tenpai_curve=np.asarray(
                ct, dtype=np.float64), win_curve_se=z, tenpai_curve_se=z.copy(),
            method="exact", policy="optimal", n_states=len(memo), model=TRUE_WALL,
            note=pos.note, ruleset=pos.name,
            _winning=(hands, np.array([k[1] for k in keys], dtype=np.intp),
                      np.array([dist[k] for k in keys]),
                      np.array([k[2] for k in keys], dtype=np.intp), None))

    def _b258_no_kernel(self) -> None:
        if self.changes is not None:
            raise RuleError(
                f"changes={self.changes}: the restricted search judges wins and tenpai by the "
                f"standard winning shapes only, not by {self.pos.name}'s "
                f"({self._what()}); leave changes=None")

    def _what(self) -> str:
        return ("三金倒 / 三财神: three jokers win on a self-draw" if self._b258 is None
                else "2-5-8 pair for a small win, 将将胡")

    def _b258_rows(self, rows: np.ndarray, jks: np.ndarray) -> np.ndarray:
        """The ruleset's shanten of each row (``uint8 (n, 34)``, jokers ``(n,)``)."""
        from .efficiency import _b258_batch
        pos = self.pos
        self.rows_done += len(rows)
        if self._b258 is not None and not self._three and not pos.melds \
                and pos.caps is None and not (rows > self._b258.copies).any():
            jk = np.ascontiguousarray(jks, dtype=np.uint8) if jks.any() else None
            out = np.empty(len(rows), dtype=np.int8)
            return _b258_batch(np.ascontiguousarray(rows, dtype=np.uint8), jk,
                               pos.model.ruleset, out).astype(np.int64)
        return np.array([self.shanten(np.ascontiguousarray(r), int(j))
                         for r, j in zip(rows, jks)], dtype=np.int64)

    def _b258_step(self, h: np.ndarray, nj: int, k: int, memo: dict, base: np.ndarray,
                   jbase: int):
        """The greedy player's move after drawing ``k`` (34 = a joker) to the 3n+1 hand
        ``(h, nj)``: ``None`` = the draw wins (the ruleset's shanten is -1 and THE
        predicate accepts it), else ``(h13, nj13, shanten)`` after the discard that
        keeps the least ruleset shanten, ties broken by the most live tiles that lower
        it (its ukeire: copies neither visible nor in the hand, ``base - h13``), then by
        throwing the drawn tile back, then by the lowest discarded kind."""
        key = (h.tobytes(), nj, k)
        got = memo.get(key, False)
        if got is not False:
            return got
        pos = self.pos
        h14, nj14 = h.copy(), nj
        if k == JOKER:
            nj14 += 1
        else:
            h14[k] += 1
        try:
            ok = self._wins(h14, nj14, k)
        except Exception as err:            # noqa: BLE001 - reported as a RuleError
            _raise_pred_error(err, pos.model)
        if ok:
            memo[key] = None
            return None
        opts = _after_discards(pos.model.jokers, h14, nj14)
        H = np.array([o[1] for o in opts], dtype=np.uint8)
        J = np.array([o[2] for o in opts], dtype=np.int64)
        S = self._b258_rows(H, J)
        best = np.flatnonzero(S == S.min())
        if best.size > 1:
            caps = pos.caps if pos.caps is not None else pos.model.copies
            rows, jrows, owner, weight = [], [], [], []
            for i in best:
                for t in range(N_KINDS):
                    w = int(base[t]) - int(H[i, t])
                    if w > 0 and H[i, t] < caps[t]:
                        r = H[i].copy()
                        r[t] += 1
                        rows.append(r)
                        jrows.append(J[i])
                        owner.append(i)
                        weight.append(w)
                if jbase - J[i] > 0:
                    rows.append(H[i].copy())
                    jrows.append(J[i] + 1)
                    owner.append(i)
                    weight.append(int(jbase - J[i]))
            owner = np.array(owner)
            score = dict.fromkeys(best.tolist(), 0)
            if rows:
                S2 = self._b258_rows(np.array(rows, dtype=np.uint8), np.array(jrows))
                for i, w, s2 in zip(owner, weight, S2):
                    if s2 < S[i]:
                        score[int(i)] += w
            top = max(score.values())
            cands = [i for i in best.tolist() if score[i] == top]
            back = [i for i in cands if J[i] == nj and np.array_equal(H[i], h)]
            pick = back[0] if back else cands[0]
        else:
            pick = int(best[0])
        got = (H[pick], int(J[pick]), int(S[pick]))
        memo[key] = got
        return got

    def b258_simulate(self, h0: np.ndarray, j0: int, n: int, seed: Any,
                      keep_wins: bool = False) -> Probabilities:
        """Horizons beyond ``B258_PY_MAX_DRAWS`` under a ``pair_258_small`` / ``all_258``
        ruleset: ``n`` real walls (:meth:`_wall_chunks`, as :meth:`simulate`: a shorter
        horizon's walls are the prefixes of a longer one's and the curves are those of
        one policy), played by the greedy player of :meth:`_b258_step`;
        tenpai = the ruleset's shanten <= 0 after a discard (or a win).  The player
        does not depend on the horizon, so the estimates are non-decreasing in it."""
        pos = self.pos
        n_chunks, chunk_walls = self._wall_chunks(n, seed)
        win_time = np.zeros(n, dtype=np.int16)
        ten_time = np.full(n, -1, dtype=np.int16)
        won_h, won_k, won_j = [], [], []
        memo: dict = {}
        h0 = np.ascontiguousarray(h0, dtype=np.uint8)
        base = pos.unseen.astype(np.int64) + h0       # copies not visible (melds aside)
        jbase = pos.joker_unseen + j0
        ready0 = self.shanten(h0, j0) <= 0
        played = n
        rows0 = self.rows_done
        for c in range(n_chunks):
            lo, _, walls = chunk_walls(c)
            for i, wall in enumerate(walls.tolist()):
                h, nj = h0, j0
                row = lo + i
                if (self.mc_work is not None and row >= B258_MC_MIN_SAMPLES
                        and self.rows_done - rows0 >= self.mc_work):
                    played = row
                    break
                if ready0:
                    ten_time[row] = 0
                for t, k in enumerate(wall):
                    got = self._b258_step(h, nj, k, memo, base, jbase)
                    if got is None:
                        win_time[row] = t + 1
                        if ten_time[row] < 0:
                            ten_time[row] = t + 1
                        if keep_wins:
                            won_h.append(h)
                            won_k.append(k)
                            won_j.append(nj)
                        break
                    h, nj, s = got
                    if s <= 0 and ten_time[row] < 0:
                        ten_time[row] = t + 1
            if played < n:
                break
        win_time, ten_time = win_time[:played], ten_time[:played]
        winning = None
        if keep_wins:
            winning = (np.array(won_h, dtype=np.uint8).reshape(-1, N_KINDS),
                       np.array(won_k, dtype=np.intp), np.full(len(won_k), 1.0 / played),
                       np.array(won_j, dtype=np.intp), played)
        note = pos.note or (
            f"{pos.name}: wins and tenpai judged by the ruleset's shanten ({self._what()}) "
            f"and its win rules; beyond {B258_PY_MAX_DRAWS} draws a greedy player (least "
            "shanten, then most live improving tiles) on real walls")
        if played < n:
            note += (f"; {played} of {n} walls played (the greedy player's work reached "
                     f"its cap of {self.mc_work} shanten evaluations)")
        return self._mc_result(win_time, ten_time, GREEDY_258, len(memo),
                               note, winning)

    def exact(self, h0: np.ndarray, j0: int, best: bool) -> Probabilities | None:
        """The exact search: ``best`` = the best play that fits (``method="exact"``),
        else the fast default (true wall for short horizons, else ``changes<=0``)."""
        if self._python_paths(j0):
            # pair_258_small / all_258, 三金倒: the kernel judges completion and tenpai by
            # the core's forms; short horizons are solved here with the ruleset's shanten
            self._b258_no_kernel()
            if self.T <= B258_PY_MAX_DRAWS:
                return self.b258_true_wall(h0, j0)
            if best:
                raise RuleError(
                    f"under {self.pos.name} ({self._what()}) the exact search covers at "
                    f"most {B258_PY_MAX_DRAWS} draws; use method='monte_carlo' (real walls, "
                    "greedy play) for longer horizons")
            return None
        if self.changes is not None:
            return self._result(self.graph(self.changes), h0, j0, f"changes<={self.changes}")
        if self.T <= (TRUE_WALL_WINS_MAX_DRAWS if self.keep_wins else TRUE_WALL_MAX_DRAWS):
            r = self._true_wall(h0, j0)
            if r is not None:
                return r
        if not best:
            return self._result(self.graph(0), h0, j0, "changes<=0")
        r = self._result(self.graph(0, unrestricted=True), h0, j0, "optimal")
        if r is not None:
            return r
        found, prev = None, -1
        for b in range(MAX_CHANGES + 1):
            r = self._result(self.graph(b), h0, j0, f"changes<={b}")
            if r is None:
                break
            found = r
            if r.n_states == prev:       # no change move left to add
                break
            prev = r.n_states
        return found

    def simulate(self, h0: np.ndarray, j0: int, policy: str, n: int, seed: Any,
                 n_jobs: int | None, keep_wins: bool = False) -> Probabilities | None:
        pos = self.pos
        if self._python_paths(j0):       # never the kernel's forms (see exact)
            self._b258_no_kernel()
            return self.b258_simulate(h0, j0, n, seed, keep_wins)
        label = "greedy"
        if policy == "optimal":
            budget = 0 if self.changes is None else self.changes
            g = self.graph(budget)
            win = self.solve(g, h0, j0, _OBJ_WIN)
            ten = self.solve(g, h0, j0, _OBJ_TENPAI) if win is not None else None
            if ten is None:
                return None
            label = f"changes<={budget}"
        n_chunks, chunk_walls = self._wall_chunks(n, seed)
        win_time = np.empty(n, dtype=np.int16)
        ten_time = np.empty(n, dtype=np.int16)
        final = np.empty((n, N_KINDS), dtype=np.uint8) if keep_wins else None
        final_j = np.zeros(n, dtype=np.int8)
        tile = np.empty(n, dtype=np.int8)
        gpred = _prob._Pred(pos.pred) if policy == "greedy" else None
        jr = pos.model.jokers

        def run(c: int) -> int:
            lo, hi, walls = chunk_walls(c)
            m = hi - lo
            fin = final[lo:hi] if final is not None else np.empty((m, N_KINDS), dtype=np.uint8)
            if policy == "greedy":
                return _prob.simulate_greedy(
                    h0, pos.unseen, pos.caps, pos.mask, pos.quads, gpred, walls,
                    win_time[lo:hi], ten_time[lo:hi], fin, tile[lo:hi],
                    pair_mask=pos.pair_mask, void_suits=pos.void_suits, jokers0=j0,
                    joker_unseen=pos.joker_unseen,
                    joker_discard=bool(jr.discard) if jr is not None else True,
                    fifth=bool(jr.fifth_copy) if jr is not None else False,
                    final_jokers=final_j[lo:hi])
            Vw, _, root = win
            Vt, _, _ = ten
            scratch_t = np.empty(m, dtype=np.int16)
            scratch_w = np.empty(m, dtype=np.int16)
            g.simulate(root, Vw, walls, win_time[lo:hi], scratch_t, fin, tile[lo:hi],
                       final_j[lo:hi])
            g.simulate(root, Vt, walls, scratch_w, ten_time[lo:hi],
                       np.empty((m, N_KINDS), dtype=np.uint8), np.empty(m, dtype=np.int8))
            return 0

        jobs = resolve_n_jobs(n_jobs)
        if jobs <= 1 or n_chunks == 1 or (policy == "greedy" and pos.pred is not None):
            codes = []
            for c in range(n_chunks):
                codes.append(run(c))
                if codes[-1] < 0 and gpred is not None:    # predicate error or a signal
                    _raise_pred_error(gpred.error, pos.model)
        else:
            with ThreadPoolExecutor(min(jobs, n_chunks)) as ex:
                codes = list(ex.map(run, range(n_chunks)))
        if gpred is not None:
            _raise_pred_error(gpred.error, pos.model)
        if any(c < 0 for c in codes):
            raise MahjongError("Monte Carlo simulation failed")
        winning = None
        if keep_wins:
            won = win_time > 0
            winning = (final[won], tile[won].astype(np.intp), np.full(int(won.sum()), 1.0 / n),
                       final_j[won].astype(np.intp), n)
        return self._mc_result(win_time, ten_time, label,
                               int(g.n_states) if policy == "optimal" else None, pos.note,
                               winning)

    def _wall_chunks(self, n: int, seed: Any) -> tuple:
        """The real walls of the Monte Carlo (both players, :meth:`simulate` and
        :meth:`b258_simulate`): ``(n_chunks, walls)``, ``walls(c) -> (lo, hi, uint8
        (hi - lo, T))`` the first ``T`` tiles of the shuffled unseen tiles (34 = a joker)
        for samples ``lo:hi``; chunk ``c`` of ``CHUNK`` samples draws from its own child
        of ``SeedSequence(seed).spawn``, so the walls depend on the seed only (never on
        ``n_jobs``) and a shorter horizon's walls are the prefixes of a longer one's."""
        pos, T = self.pos, self.T
        pool = np.repeat(np.arange(N_KINDS + 1, dtype=np.uint8),
                         np.append(pos.unseen, pos.joker_unseen).astype(np.intp))
        n_chunks = max(1, math.ceil(n / CHUNK))
        seeds = spawn_seeds(seed, n_chunks)

        def walls(c: int) -> tuple:
            lo, hi = c * CHUNK, min(n, (c + 1) * CHUNK)
            rng = np.random.Generator(np.random.PCG64(seeds[c]))
            return lo, hi, _deal(rng, pool, hi - lo, T)

        return n_chunks, walls

    def _mc_result(self, win_time: np.ndarray, ten_time: np.ndarray, policy: str,
                   n_states: int | None, note: str | None, winning: Any) -> Probabilities:
        """The Monte Carlo :class:`Probabilities` from each sample's draw of the win
        (``win_time``: 1..T, 0 = none) and of tenpai (``ten_time``: 0..T, -1 = never)."""
        T, n = self.T, win_time.size
        steps = np.arange(1, T + 1)
        wc = ((win_time[:, None] >= 1) & (win_time[:, None] <= steps[None, :])).mean(axis=0)
        tc = ((ten_time[:, None] >= 0) & (ten_time[:, None] <= steps[None, :])).mean(axis=0)
        p_t = float(tc[-1]) if T else float(np.mean(ten_time == 0))
        p_w = float(wc[-1]) if T else 0.0
        return Probabilities(
            draws=T, p_win=p_w, p_tenpai=p_t, se_win=_se(p_w, n), se_tenpai=_se(p_t, n),
            win_curve=wc.astype(np.float64), tenpai_curve=tc.astype(np.float64),
            win_curve_se=np.sqrt(wc * (1 - wc) / n), tenpai_curve_se=np.sqrt(tc * (1 - tc) / n),
            method="monte_carlo", policy=policy, n_samples=n, n_states=n_states, model=REAL,
            note=note, ruleset=self.pos.name, _winning=winning)


def _before_draw(hands14: np.ndarray, kinds: np.ndarray, jokers14: np.ndarray,
                 mass: np.ndarray) -> tuple:
    """The kernel's winning hands (complete hands, winning draw, jokers held after it,
    probability) as ``Probabilities._winning``: ``(hands13 uint8 (n, 34), win kind intp
    (n,), weight (n,), jokers before the draw intp (n,), None)``."""
    hands = np.array(hands14, dtype=np.uint8).reshape(-1, N_KINDS)
    kinds = np.asarray(kinds, dtype=np.intp)
    real = np.flatnonzero(kinds != JOKER)
    hands[real, kinds[real]] -= 1
    jokers = np.asarray(jokers14, dtype=np.intp) - (kinds == JOKER)
    return hands, kinds, np.asarray(mass, dtype=np.float64), jokers, None


def _deal(rng: np.random.Generator, pool: np.ndarray, m: int, T: int) -> np.ndarray:
    """``uint8 (m, T)``: the first ``T`` tiles of ``m`` uniform shuffles of ``pool``
    (a partial Fisher-Yates shuffle, vectorised over the rows; 34 = a joker)."""
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


def _zero_draws(engine: _Engine, h0: np.ndarray, j0: int) -> Probabilities:
    tenpai = 1.0 if engine.shanten(h0, j0) <= 0 else 0.0
    e = np.zeros(0)
    pos = engine.pos
    return Probabilities(0, 0.0, tenpai, 0.0, 0.0, e, e.copy(), e.copy(), e.copy(), "exact",
                         "optimal", model=TRUE_WALL, note=pos.note, ruleset=pos.name)


def _out_of_reach(engine: _Engine, s: int) -> Probabilities:
    T, pos = engine.T, engine.pos
    z = np.zeros(T)
    note = pos.note or f"{s}-shanten: no win or tenpai is reachable within {T} draws"
    return Probabilities(T, 0.0, 0.0, 0.0, 0.0, z, z.copy(), z.copy(), z.copy(), "exact",
                         "optimal", model=TRUE_WALL, note=note, ruleset=pos.name,
                         _winning=(np.zeros((0, N_KINDS), np.uint8), np.zeros(0, np.intp),
                                   np.zeros(0), np.zeros(0, np.intp), None))


def _run(engine: _Engine, h0: np.ndarray, j0: int, method: str, policy: str | None,
         n_samples: int, seed: Any, n_jobs: int | None, keep_wins: bool = False) -> Probabilities:
    seed = plain_seed(seed)        # once: a Generator advances once though walls are dealt twice
    policy = _policy_parts(policy)[0]     # a printed name; its change budget is the engine's
    if engine.T == 0:
        return _zero_draws(engine, h0, j0)
    s = engine.shanten(h0, j0)
    if s > engine.T:           # each draw lowers the shanten by at most one: both are 0
        return _out_of_reach(engine, s)
    engine.keep_wins = keep_wins
    short = engine.T <= TRUE_WALL_MAX_DRAWS
    pred = engine.pos.pred
    budgeted = (method == "auto" and isinstance(pred, _WinPred)
                and engine.pos.model.jokers is not None)
    engine.mc_work = (B258_MC_WORK if method == "auto" and engine.pos.model.jokers is not None
                      else None)
    if method == "exact" or (method == "auto" and (s <= AUTO_MAX_SHANTEN or short)
                             and not engine.pred_over):
        if budgeted:
            pred.budget = JOKER_PRED_BUDGET
        try:
            res = engine.exact(h0, j0, best=(method == "exact"))
        except _PredBudget:
            engine.pred_over = True
            res = None
        finally:
            if budgeted:
                pred.budget = None
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
    res = engine.simulate(h0, j0, policy, n_samples, seed, n_jobs, keep_wins)
    if res is not None and engine.pred_over:
        res = replace(res, note=(res.note + "; " if res.note else "") + (
            f"Monte Carlo because the exact search needs more than {JOKER_PRED_BUDGET} "
            "units of winning-hand checks (a hand with k jokers counts 2^k units"
            + (f", a 2-5-8 shanten evaluation {B258_SHANTEN_UNITS}" if engine._b258 is not None
               else "") + ")"))
    if res is None:       # optimal policy asked but the graph is too large
        if method == "auto":
            return engine.simulate(h0, j0, "greedy", n_samples, seed, n_jobs, keep_wins)
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
        A hand waiting to draw (the ruleset's hand size, 13 or 16, counting melds as
        3 and jokers ``*``).  A hand that must discard (one more tile) is valued by
        its best discard among all (named in ``discard`` and the note), or 1 when it
        wins now (see the module docstring).
    draws : int
        Horizon ``T``: the number of draws, ``0 <= T <=`` unseen tiles.
    visible : str or array_like of shape (34,), optional
        Tiles seen outside the hand (removed from the wall).
    ruleset : None, str, Ruleset, GameModel or path to a house-rule .toml
        The game model (:func:`majiang.rules.model.game_model`): tile set, hand
        size, forms, constraints, jokers and THE win predicate.  ``None`` = Chinese
        Official rules (``"mcr"``: 144 tiles, five forms, 8-fan minimum), as every
        function given no ruleset; ``"plain"``: 136 tiles, any complete regular /
        distinct seven pairs / thirteen orphans hand wins.
    indicator : str or int, optional
        The turned indicator for rulesets whose joker is found from it (武汉 …).
    seat_wind, prevalent_wind : int or str
        Win context for the predicate and scoring (0 = East).
    method : {"auto", "exact", "monte_carlo"}
        See the module docstring ("Which model and which policy").
    seed : int, SeedSequence, numpy Generator or None
        Monte Carlo seed.  A non-negative int, a ``numpy.random.SeedSequence`` or
        ``numpy.random.Generator`` (default ``0``: the same answer every call;
        ``None``: fresh entropy, a different answer every call).
    n_samples : int
        Monte Carlo walls.
    policy : str, optional
        ``"optimal"`` or ``"greedy"``: the Monte Carlo policy (default: optimal for
        ``"monte_carlo"``; greedy when ``"auto"`` falls back to Monte Carlo).  Every
        name a result prints is accepted: ``"changes<=c"`` (c in 0..8) is
        ``changes=c``, ``"greedy (ruleset shanten)"`` is ``"greedy"``.
    changes : int or None
        ``None`` (default): the method decides (``"exact"``: the best play that
        fits; ``"auto"``: ``changes<=0`` beyond the true-wall horizons).  An int
        0..8 forces the restricted S1 search with that many change moves.
    n_jobs : int or None
        Threads for Monte Carlo.  ``None`` lets the function choose (one worker for
        small inputs, up to every core for big ones), ``-1`` allows every core,
        ``k >= 1`` at most ``k`` workers; the result does not depend on it.
    max_states : int
        Size limit of the exact search.

    Raises
    ------
    RuleError
        Bad ``draws``, ``method``, ``policy``, ``n_samples``, ``seed``, ``changes`` (or
        one that disagrees with ``policy="changes<=c"``), an unknown ruleset, a missing
        indicator, or ``method="exact"`` beyond ``max_states``.
    InvalidHandError, InvalidNotationError
        A bad hand or visible tiles, a tile outside the ruleset's tile set, more
        copies than the wall holds.
    KeyboardInterrupt
        Propagated unchanged.
"""


def _setup(hand, draws, visible, ruleset, method, policy, n_samples, changes, max_states,
           indicator, seat_wind, prevalent_wind):
    _check_method(method, policy)
    n_samples = _check_samples(n_samples)
    changes = _check_changes(changes)
    named = _policy_parts(policy)[1]          # policy="changes<=c" is changes=c
    if named is not None:
        if changes is not None and changes != named:
            raise RuleError(f"policy={policy!r} and changes={changes} disagree; give one")
        changes = named
    pos = _position(hand, visible, ruleset, indicator=indicator, seat_wind=seat_wind,
                    prevalent_wind=prevalent_wind)
    T = _check_draws(draws, pos.U)
    return pos, _Engine(pos, T, changes, max_states), n_samples


@dataclass(frozen=True)
class _Complete:
    """The verdict of THE win predicate on a hand that must discard and is complete in
    shape (:func:`_completion`): ``wins``; ``fan`` the largest fan total over the tiles
    that can have been the self-drawn winning one (None when the model scores no fan);
    ``text`` what to tell the player; ``winning`` the win as ``Probabilities._winning``
    (weight 1) or None."""

    wins: bool
    fan: int | None
    text: str
    winning: Any = None


def _completion(engine: _Engine) -> _Complete | None:
    """Whether the 3n+2 hand of ``engine.pos`` wins now, self-drawn: None when it is not
    complete in shape (neither the ruleset's shanten nor the shape without its pair /
    void-suit constraints is -1); else THE win predicate (:func:`majiang.scoring.check_win`,
    self-drawn, the position's winds) on every tile it holds taken as the drawn one (the
    last draw of a hand is not known): it wins when one of them is a valid win, ``fan``
    the best total; otherwise the reason of the reading with the most fan (e.g. below the
    8-fan minimum of MCR, a third suit under 缺一门)."""
    pos = engine.pos
    h, nj = pos.counts, pos.jokers
    fifth = bool(pos.model.jokers is not None and pos.model.jokers.fifth_copy)
    if engine.shanten(h, nj) != -1 and int(
            _eff.shanten_one(h, pos.mask, pos.quads, pos.caps, nj, fifth)) != -1:
        return None
    pred = _WinPred(pos.model, pos.melds, pos.ctx)
    best, why = None, None                  # (fan, kind, check) of a win / of the reason
    for k in [int(k) for k in np.flatnonzero(h)] + ([JOKER] if nj else []):
        try:
            chk = pred.check(h.copy(), k, nj)
        except InvalidHandError:
            continue
        fan = int(chk.result.total) if getattr(chk.result, "total", None) is not None else -1
        if chk.valid:
            if best is None or fan > best[0]:
                best = (fan, k, chk)
        elif why is None or fan > why[0]:
            why = (fan, k, chk)
    if best is None:
        if why is None:
            return None
        reason = why[2].reason
        same = f"not a winning hand under {pos.name}: "      # said once, not twice
        reason = reason[len(same):] if reason.startswith(same) else reason
        return _Complete(False, None, f"complete shape but no win under {pos.name}: {reason}")
    fan, k = (best[0] if best[0] >= 0 else None), best[1]
    h13, j13 = h.copy(), nj
    if k == JOKER:
        j13 -= 1
    else:
        h13[k] -= 1
    winning = (h13[None, :], np.array([k], dtype=np.intp), np.ones(1),
               np.array([j13], dtype=np.intp), None)
    return _Complete(True, fan, "complete: wins now" + ("" if fan is None else f", {fan} fan"),
                     winning)


def _won_now(engine: _Engine, done: _Complete) -> Probabilities:
    """A hand that wins now: ``P(win) = P(tenpai) = 1`` at every draw."""
    T, pos = engine.T, engine.pos
    one, z = np.ones(T), np.zeros(T)
    return Probabilities(T, 1.0, 1.0, 0.0, 0.0, one, one.copy(), z, z.copy(), "exact",
                         "optimal", model=TRUE_WALL, note=done.text, ruleset=pos.name,
                         _winning=done.winning,
                         _tenpai=Estimate(1.0, 0.0, "exact", None, TRUE_WALL, "optimal",
                                          done.text))


BEST_NAMED = 3
"""At most this many equal best discards are named one by one (``"5m or 8m"``); more
are ``"1m (one of 14 equal)"``."""


def _best_names(results: dict, attr: str, pos=None) -> tuple[Probabilities, str, str]:
    """The result with the highest ``attr`` (``"p_win"``: then ``p_tenpai``;
    ``"p_tenpai"``: then ``p_win``), the first discard (tile order) that reaches it and
    all of them, ``"5m or 8m"`` (:data:`BEST_NAMED`)."""
    other = "p_tenpai" if attr == "p_win" else "p_win"
    ok = {d: r for d, r in results.items() if r is not None}
    key = (lambda r: (getattr(r, attr), getattr(r, other)))
    top = max(ok.values(), key=key)
    name = _discard_name if pos is None else pos.discard_name
    names = [name(d) for d, r in ok.items() if key(r) == key(top)]
    if len(names) > BEST_NAMED:
        return top, names[0], f"{names[0]} (one of {len(names)} equal)"
    return top, names[0], " or ".join(names)


def _fourteen(engine: _Engine, pos: _Position, method: str, policy: str | None,
              n_samples: int, seed: Any, n_jobs: int | None,
              keep_wins: bool = False) -> Probabilities:
    """The probabilities of a hand that must discard: 1 when it wins now
    (:func:`_completion`); else, for each event, those of its best discard under the
    method and policy — the maximum over *every* discard (one that raises the shanten
    can be the best over a long horizon, or under a restricted policy) of the hand
    waiting to draw; under ``method="auto"`` a discard that raises the shanten counts
    when the method solves it exactly (:func:`_auto_exact`), not when it would be
    played by the greedy Monte Carlo (another, weaker policy, and minutes of walls).  ``p_win`` and its curve come from the best discard for winning
    (:attr:`Probabilities.discard`), ``p_tenpai`` and its curve from the best for
    tenpai (:attr:`Probabilities.tenpai_discard`); the note names them, and says why
    a hand complete in shape is no win."""
    _check_discard_hand(pos)
    done = _completion(engine)
    if done is not None and done.wins:
        return _won_now(engine, done)
    res = _discards(engine, pos, method, policy, n_samples, seed, n_jobs, all_discards=True,
                    keep_wins=keep_wins, exact_raising=True)
    win, dw, all_w = _best_names(res, "p_win", pos)
    ten, dt, all_t = _best_names(res, "p_tenpai", pos)
    extra = "" if done is None or pos.note else f"; {done.text}"   # pos.note says why
    note = "; ".join(x for x in (win.note, f"best discard {all_w}") if x) + extra
    t_note = f"best discard {all_t}" + extra
    t_est = Estimate(ten.p_tenpai, ten.se_tenpai, ten.method, ten.n_samples, ten.model,
                     ten.policy, t_note, dt)
    return replace(win, p_tenpai=ten.p_tenpai, se_tenpai=ten.se_tenpai,
                   tenpai_curve=ten.tenpai_curve, tenpai_curve_se=ten.tenpai_curve_se,
                   note=note, discard=dw, tenpai_discard=dt, _tenpai=t_est)


def probabilities(hand: Any, draws: int, *, visible: Any = None, ruleset: Any = None,
                  method: str = "auto", seed: Any = 0, n_samples: int = DEFAULT_SAMPLES,
                  policy: str | None = None, changes: int | None = None,
                  n_jobs: int | None = 1, max_states: int = DEFAULT_MAX_STATES,
                  indicator: Any = None, seat_wind: Any = 0,
                  prevalent_wind: Any = 0) -> Probabilities:
    """Win and tenpai probabilities and curves of a hand over the next ``draws`` draws.

    Returns
    -------
    Probabilities
        ``p_win``, ``p_tenpai``, standard errors, curves of shape ``(draws,)``, and
        ``method`` / ``model`` / ``policy`` / ``note`` saying what produced them.
    """
    pos, engine, n_samples = _setup(hand, draws, visible, ruleset, method, policy, n_samples,
                                    changes, max_states, indicator, seat_wind, prevalent_wind)
    if (int(pos.counts.sum()) + pos.jokers) % 3 == 1:
        return _run(engine, pos.counts, pos.jokers, method, policy, n_samples, seed, n_jobs)
    return _fourteen(engine, pos, method, policy, n_samples, seed, n_jobs)


probabilities.__doc__ += _COMMON_DOC


# ---------------------------------------------------------------------------
# Extra models, registered by higher layers (dependency inversion)
# ---------------------------------------------------------------------------

SINGLE_PLAYER = ("single",)
"""Names of the default single-player model (``model=None`` too)."""
_MODELS: dict[str, Callable[..., Any]] = {}
_MODEL_PROVIDERS = {"table": "majiang.game"}
"""Known extra models and the module that registers each when imported."""


def register_model(name: str, fn: Callable[..., Any]) -> None:
    """Register an extra probability model for ``win_probability(..., model=name)``.

    ``fn(hand, draws, **kwargs)`` returns an object with ``win`` and ``tenpai``
    :class:`Estimate` attributes; it raises :class:`~majiang.RuleError` on bad
    keyword arguments.  A higher layer (``majiang.game``: ``"table"``) registers its
    model at import; registering a name again replaces it.

    Raises
    ------
    RuleError
        An empty or default model name, or ``fn`` not callable.
    """
    if not isinstance(name, str) or not name or name in SINGLE_PLAYER or not callable(fn):
        raise RuleError(f"register_model needs a new model name and a callable, got "
                        f"{name!r}, {fn!r}")
    _MODELS[name] = fn


def _extra_model(name: Any) -> Callable[..., Any]:
    """The registered model ``name``; a known model whose provider was not imported
    yet is loaded here by importing the provider by name (the one place)."""
    fn = _MODELS.get(name) if isinstance(name, str) else None
    if fn is None and isinstance(name, str) and name in _MODEL_PROVIDERS:
        importlib.import_module(_MODEL_PROVIDERS[name])
        fn = _MODELS.get(name)
    if fn is None:
        known = ", ".join(sorted(set(_MODELS) | set(_MODEL_PROVIDERS)))
        raise RuleError(f"unknown probability model {name!r}; use None / 'single' (the "
                        f"single-player model) or one of: {known}")
    return fn


def win_probability(hand: Any, draws: int, *, model: str | None = None,
                    **kwargs: Any) -> Estimate:
    """Probability of winning within ``draws`` self-draws (with its standard error).

    Keyword arguments as :func:`probabilities`.  Example (四川, 108 tiles: 4 live
    copies of 5s among 95 unseen tiles):
    ``win_probability("123456789p1155s", 1, ruleset="sichuan").value == 4/95``.

    ``model``: ``None`` / ``"single"`` (default) the single-player model above;
    ``"table"`` a Monte Carlo over the whole-hand engine with opponents (see the
    module docstring and :func:`majiang.game.table.table_probabilities` for its
    keyword arguments: ``ruleset``, ``n_samples``, ``seed``, ``opponents``,
    ``player``, ``indicator``, ``prevalent_wind``, ``n_jobs``); an unknown name
    raises :class:`~majiang.RuleError`.

    Returns
    -------
    Estimate
        ``value``, ``se`` (0.0 when exact), ``method``, ``n_samples``, ``model``,
        ``policy``, ``note``.
    """
    if model is not None and model not in SINGLE_PLAYER:
        return _extra_model(model)(hand, draws, **kwargs).win
    return probabilities(hand, draws, **kwargs).win


def tenpai_probability(hand: Any, draws: int, *, model: str | None = None,
                       **kwargs: Any) -> Estimate:
    """Probability of being tenpai (ruleset shanten 0) after at most ``draws`` draws
    (1.0 if tenpai now).  Keyword arguments as :func:`probabilities`; ``model`` as in
    :func:`win_probability`.  Returns an :class:`Estimate`.
    """
    if model is not None and model not in SINGLE_PLAYER:
        return _extra_model(model)(hand, draws, **kwargs).tenpai
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


def _after_discards(jr: Any, h14: np.ndarray, nj14: int) -> list:
    """``[(discard kind or JOKER, h13, nj13)]``: the hand after each discard of the
    3n+2 hand ``(h14, nj14)`` — each kind held, ascending, then a joker when one is
    held and the joker rule ``jr`` (None = no jokers) lets it be discarded."""
    out = []
    for d in np.flatnonzero(h14):
        h13 = h14.copy()
        h13[d] -= 1
        out.append((int(d), h13, nj14))
    if nj14 and (jr is None or jr.discard):
        out.append((JOKER, h14.copy(), nj14 - 1))
    return out


def _discard_options(pos: _Position) -> list:
    """``[(label, discard kind or JOKER, h0, j0)]`` for a hand that must discard."""
    return [(tile_name(d) if d != JOKER else "*", d, h0, j0)
            for d, h0, j0 in _after_discards(pos.model.jokers, pos.counts, pos.jokers)]


def _auto_exact(engine: _Engine, s: int, j0: int) -> bool:
    """Whether ``method="auto"`` solves a root of ruleset shanten ``s`` exactly (as
    :func:`_run` decides, the predicate budget aside): out of reach, a short horizon,
    or at most :data:`AUTO_MAX_SHANTEN` — but never beyond :data:`B258_PY_MAX_DRAWS`
    on the Python paths, which play longer horizons by Monte Carlo."""
    if s > engine.T:
        return True
    if engine._python_paths(j0):
        return engine.T <= B258_PY_MAX_DRAWS
    return s <= AUTO_MAX_SHANTEN or engine.T <= TRUE_WALL_MAX_DRAWS


def _discards(engine: _Engine, pos: _Position, method: str, policy: str | None, n_samples: int,
              seed: Any, n_jobs: int | None, all_discards: bool,
              keep_wins: bool = False, exact_raising: bool = False) -> dict:
    """``{discard kind (34 = a joker): Probabilities or None}``: None for discards that
    raise the ruleset shanten (unless ``all_discards``; with ``exact_raising`` under
    ``method="auto"`` only those it solves exactly, :func:`_auto_exact`) or leave no
    arrangement."""
    opts = _discard_options(pos)
    shan = {d: engine.shanten(h0, j0) for _, d, h0, j0 in opts}
    best = min(shan.values())
    ss = spawn_seeds(seed, N_KINDS + 1)      # one child per discard kind: order-free
    out: dict = {}
    over = engine.pred_over
    for _, d, h0, j0 in opts:
        raising = shan[d] > best
        if (raising and not all_discards) or shan[d] >= 99 or (
                raising and exact_raising and method == "auto"
                and not _auto_exact(engine, shan[d], j0)):
            out[d] = None
            continue
        out[d] = _run(engine, h0, j0, method, policy, n_samples, ss[d], n_jobs, keep_wins)
        if engine.pred_over and not over:
            # past the predicate budget: the discards already solved exactly are played
            # by the same Monte Carlo as the rest, so that one model ranks them all
            over = True
            for _, d2, h2, j2 in opts:
                if d2 == d:
                    break
                if out.get(d2) is not None and out[d2].method == "exact":
                    out[d2] = _run(engine, h2, j2, method, policy, n_samples, ss[d2], n_jobs,
                                   keep_wins)
    return out


def _check_discard_hand(pos: _Position) -> None:
    n = int(pos.counts.sum()) + pos.jokers
    if n % 3 != 2:
        raise InvalidHandError(
            f"per-discard probabilities need a hand that must discard (3n+2 concealed tiles, "
            f"{pos.model.hand_size + 1} with no melds), got {n}; use probabilities() for a "
            f"hand waiting to draw")


def _discard_results(hand, draws, visible, ruleset, method, seed, n_samples, policy, changes,
                     n_jobs, max_states, all_discards, indicator=None, seat_wind=0,
                     prevalent_wind=0, keep_wins=False):
    """Shared work of :func:`discard_curves`, :func:`discard_probabilities` and
    :func:`majiang.advise`: validate, build the position and solve every discard.
    Returns ``(position, engine, {discard kind: Probabilities or None})``."""
    pos, engine, n_samples = _setup(hand, draws, visible, ruleset, method, policy, n_samples,
                                    changes, max_states, indicator, seat_wind, prevalent_wind)
    _check_discard_hand(pos)
    return pos, engine, _discards(engine, pos, method, policy, n_samples, seed, n_jobs,
                                  all_discards, keep_wins)


def _discard_name(d: int) -> str:
    return "*" if d == JOKER else tile_name(d)


def discard_curves(hand: Any, draws: int, *, visible: Any = None, ruleset: Any = None,
                   method: str = "auto", seed: Any = 0, n_samples: int = DEFAULT_SAMPLES,
                   policy: str | None = None, changes: int | None = None,
                   n_jobs: int | None = 1, max_states: int = DEFAULT_MAX_STATES,
                   all_discards: bool = False, indicator: Any = None, seat_wind: Any = 0,
                   prevalent_wind: Any = 0) -> dict[str, Probabilities]:
    """Per discard of a hand that must discard: its :class:`Probabilities`.

    Only discards that keep the lowest ruleset shanten are evaluated unless
    ``all_discards``.

    Returns
    -------
    dict
        ``{discard tile name ("*" = a joker): Probabilities}`` in tile order.
    """
    pos, engine, res = _discard_results(hand, draws, visible, ruleset, method, seed, n_samples,
                                        policy, changes, n_jobs, max_states, all_discards,
                                        indicator, seat_wind, prevalent_wind)
    return {pos.discard_name(d): r for d, r in res.items() if r is not None}


discard_curves.__doc__ += _COMMON_DOC


def discard_probabilities(hand: Any, draws: int, *, visible: Any = None, ruleset: Any = None,
                          method: str = "auto", seed: Any = 0,
                          n_samples: int = DEFAULT_SAMPLES, policy: str | None = None,
                          changes: int | None = None, n_jobs: int | None = 1,
                          max_states: int = DEFAULT_MAX_STATES, all_discards: bool = False,
                          indicator: Any = None, seat_wind: Any = 0, prevalent_wind: Any = 0):
    """One row per distinct discard of a hand that must discard, in tile order.

    :func:`probabilities` of the hand is the largest ``p_win`` (and ``p_tenpai``) of
    the rows with ``all_discards=True`` (unless the hand wins now; under
    ``method="auto"`` of the rows solved exactly when the lowest shanten's are).

    Columns ``discard`` (str), ``shanten`` (int, ruleset shanten after the discard;
    99 = no arrangement under the ruleset), ``p_tenpai``, ``p_win`` (float; NaN for
    discards that raise the shanten unless ``all_discards``), ``se_tenpai``,
    ``se_win`` (0.0 when exact), ``method``, ``model``, ``policy``, ``note``.

    Returns
    -------
    pandas.DataFrame
    """
    pos, engine, res = _discard_results(hand, draws, visible, ruleset, method, seed, n_samples,
                                        policy, changes, n_jobs, max_states, all_discards,
                                        indicator, seat_wind, prevalent_wind)
    return _probability_frame(pos, engine, res)


def _probability_frame(pos, engine, res):
    import pandas as pd
    cols = ["discard", "shanten", "p_tenpai", "p_win", "se_tenpai", "se_win", "method",
            "model", "policy", "note"]
    rows = []
    for (_, d, h0, j0) in _discard_options(pos):
        r = res.get(d)
        rows.append({
            "discard": pos.discard_name(d),
            "shanten": engine.shanten(h0, j0),
            "p_tenpai": r.p_tenpai if r is not None else np.nan,
            "p_win": r.p_win if r is not None else np.nan,
            "se_tenpai": r.se_tenpai if r is not None else np.nan,
            "se_win": r.se_win if r is not None else np.nan,
            "method": r.method if r is not None else "",
            "model": r.model if r is not None else "",
            "policy": r.policy if r is not None else "",
            "note": r.note if r is not None else "",
        })
    return pd.DataFrame(rows, columns=cols)


discard_probabilities.__doc__ += _COMMON_DOC


# ---------------------------------------------------------------------------
# Starting hands
# ---------------------------------------------------------------------------

def _deal_hands(rng: np.random.Generator, m: int, kind_of: np.ndarray, hand_size: int
          ) -> np.ndarray:
    """Deal ``m`` hands of ``hand_size`` tiles without replacement from the wall
    ``kind_of`` (uint8, the kind of each wall tile; 34 = joker).

    A partial Fisher-Yates shuffle per hand in the compiled core (without the GIL):
    the offsets are drawn in bulk from ``rng`` (``rng.integers(0, W - t)`` for step
    ``t``), so a hand is a uniform ``hand_size``-subset of the wall and the result is
    reproducible for a given generator state.  Returns the counts, uint8 of shape
    ``(m, 35)`` (column 34: jokers)."""
    W = kind_of.size
    offsets = rng.integers(0, W - np.arange(hand_size, dtype=np.int64), size=(m, hand_size),
                           dtype=np.int64)
    out = np.zeros((m, N_KINDS + 1), dtype=np.uint8)
    if _prob.deal_counts(offsets, kind_of, out) != 0:   # pragma: no cover - offsets in range
        raise RuntimeError("deal_counts: an offset out of range")
    return out


def starting_hand_shanten(n: int, *, ruleset: Any = None, seed: Any = 0,
                          n_jobs: int | None = None, hand_size: int | None = None,
                          indicator: Any = None):
    """Shanten distribution of ``n`` random starting hands dealt from the ruleset's wall.

    Each hand is ``hand_size`` tiles (default: the ruleset's, 13 or 16) drawn without
    replacement from the ruleset's wall (:meth:`GameModel.wall`: 136 by default, 108
    for 四川/长沙, 84 for 卡五星 …; jokers dealt as jokers), and its shanten is the
    ruleset's (its forms, tile set, 缺一门 void suit, 二五八将 pair kinds, jokers).
    The published 13-tile / 136-tile distribution applies only to ``ruleset="plain"``.

    Parameters
    ----------
    n : int
        Number of hands (positive).
    ruleset : None, str, Ruleset, GameModel or .toml path
        Default ``None``: Chinese Official rules (``"mcr"``), as every function given
        no ruleset.
    seed : int, SeedSequence, numpy Generator or None
        A non-negative int, a ``numpy.random.SeedSequence`` or ``numpy.random.Generator``
        (default ``0``: the same answer every call; ``None``: fresh entropy, a
        different answer every call).
        The hands are reproducible for a given seed (and independent of ``n_jobs``).
        Since issue 12 the hands are dealt by a partial Fisher-Yates shuffle in the
        compiled core (was: sorting random keys in NumPy), so a given seed now deals
        different hands than before; the distribution is the same (uniform subsets).
    n_jobs : int or None
        Threads: ``None`` lets the function choose (one worker for small inputs, up to every
        core for big ones), ``-1`` allows every core, ``k >= 1`` at most ``k``
        workers; the result does not depend on it.
    hand_size : int, optional
        Override the ruleset's hand size (13 or 16).
    indicator : str or int, optional
        Turned indicator for rulesets whose joker is found from it.

    Returns
    -------
    pandas.DataFrame
        Columns ``shanten`` (int), ``count`` (int), ``fraction`` (float) and
        ``se`` (binomial standard error of the fraction), one row per shanten
        value from the lowest to the highest observed.  ``df.attrs`` holds
        ``ruleset``, ``hand_size`` and ``wall`` (tiles dealt from).

    Raises
    ------
    RuleError
        Bad ``n``, ``hand_size``, ``n_jobs``, ``seed``, an unknown ruleset or a
        missing indicator.
    """
    import pandas as pd

    from .efficiency import shanten_batch

    n = _check_samples(n)
    model = _model_of(ruleset)
    if hand_size is None:
        hand_size = model.hand_size
    if hand_size not in (13, 16):
        raise RuleError(f"hand_size must be 13 or 16, got {hand_size!r}")
    wall = model.wall(indicator)
    sh = model.shape(())
    mask = form_mask(tuple(sh.forms))
    caps = None if bool(np.all(sh.caps == 4)) else np.ascontiguousarray(sh.caps)
    plain = sh.pair_mask == ALL_PAIRS and sh.void_suits == 0 and not wall.jokers
    fifth = bool(model.jokers is not None and model.jokers.fifth_copy)
    kind_of = np.repeat(np.arange(N_KINDS + 1, dtype=np.uint8),
                        np.append(wall.counts, wall.jokers).astype(np.intp))
    chunk = 1 << 15
    n_chunks = math.ceil(n / chunk)
    seeds = spawn_seeds(seed, n_chunks)
    hist = np.zeros((n_chunks, 128), dtype=np.int64)
    b258 = _kernel_misjudges(model)     # the ruleset's shanten (efficiency), not the core's

    def one(c: np.ndarray, j: int) -> int:
        return int(_eff.shanten_one(c, mask, sh.quads, caps, j, fifth,
                                    pair_mask=sh.pair_mask, void_suits=sh.void_suits))

    def run(c: int) -> None:
        m = min(n, (c + 1) * chunk) - c * chunk
        rng = np.random.Generator(np.random.PCG64(seeds[c]))
        allc = _deal_hands(rng, m, kind_of, hand_size)
        counts = np.ascontiguousarray(allc[:, :N_KINDS])
        if plain and caps is None:
            s = shanten_batch(counts, forms=tuple(sh.forms), seven_pairs_quads=sh.quads,
                              n_jobs=1).astype(np.intp)
        elif b258:              # small win 2-5-8 pair, 大胡 shapes any pair, 将将胡
            s = shanten_batch(counts, ruleset=model.ruleset, n_jobs=1,
                              jokers=np.ascontiguousarray(allc[:, N_KINDS])).astype(np.intp)
        else:
            jk = allc[:, N_KINDS]
            s = np.fromiter((one(counts[i], int(jk[i])) for i in range(m)), dtype=np.intp,
                            count=m)
        hist[c] = np.bincount(np.minimum(s, 126) + 1, minlength=128)[:128]

    jobs = resolve_n_jobs(n_jobs)
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
    df.attrs.update(ruleset=model.name, hand_size=hand_size, wall=int(wall.size))
    return df


# ---------------------------------------------------------------------------
# Winning hands: fans, points (fan odds, expected score)
# ---------------------------------------------------------------------------

def _points(model: GameModel, r: Any) -> int:
    """Points of a scored win: ``RegionalResult.points``, else the ruleset's
    :class:`~majiang.rules.base.ScoringRule` applied to the fan total."""
    pts = getattr(r, "points", None)
    if pts is not None:
        return int(pts)
    return int(model.ruleset.points(int(r.total), [f.id for f in r.fans]))


def _win_outcomes(pos: _Position, res: Probabilities) -> list:
    """``[(weight, FanResult)]`` over the winning hands of ``res`` (computed with
    ``keep_wins``): weight = probability of winning with that hand and tile (exact)
    or 1/n per won wall (Monte Carlo).  Scored by THE win predicate (self-drawn)."""
    if res._winning is None or pos.model.ruleset is None:
        return []
    hands, tiles, weights, jokers = res._winning[:4]
    pred = pos.pred if pos.pred is not None else _WinPred(pos.model, pos.melds, {})
    out = []
    for h13, k, w, nj in zip(hands, tiles, weights, jokers):
        k, nj = int(k), int(nj)
        h14 = np.array(h13, dtype=np.uint8)
        if k == JOKER:
            nj += 1
        else:
            h14[k] += 1
        r = pred.result(h14, k, nj)
        if r is not None:
            out.append((float(w), r))
    return out


def _score_summary(pos: _Position, res: Probabilities) -> tuple[float, float]:
    """``(exp_score, mean_fan)`` of a result computed with ``keep_wins``: expected
    points within the horizon (0 for no win) and the mean fan total given a win
    (NaN without a win)."""
    outs = _win_outcomes(pos, res)
    if not outs:
        return 0.0, float("nan")
    tot_w = sum(w for w, _ in outs)
    exp = sum(w * _points(pos.model, r) for w, r in outs)
    fan = sum(w * int(r.total) for w, r in outs)
    return float(exp), float(fan / tot_w) if tot_w > 0 else float("nan")

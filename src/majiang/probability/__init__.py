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
* ``model="kind counts"`` (S1 below) — the hand-state approximation for long horizons:
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

十三烂 and 七星归位 (安庆, 保定, 南昌: whole-hand forms the kernel does not know) are
played on the same Python paths, judged by the ruleset's compiled shape engine, whenever
the root's shanten in them is within the horizon and the horizon is solved exactly
(``B258_PY_MAX_DRAWS``), or beyond it when that form is at least as close as the
others (greedy Monte Carlo); otherwise the kernel plays the other forms and the note
says the whole-hand form was left out (a lower bound).  Under 南昌 a held 精 stands for
its own face in 十三烂 (德国, :func:`majiang.rules.shapes.own_face_forms`); a 精 drawn
later plays as a joker only, which the note names as a lower bound.

三金倒 (罗源) and 三财神 (温州, ``three_caishen_win``): three jokers held win on a
self-draw whatever the other tiles (:func:`majiang.rules.shapes.three_jokers_win`), and
two are ready by it (广东 四鬼胡: four, three ready; ``need`` below).  The kernel knows
shapes only, so whenever ``need - 1`` jokers can be held within the horizon
(``need - 1 - jokers <= min(T, jokers unseen)``) the position takes the
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

Modules
-------
This package's public names are the ones above; the parts live in
:mod:`~majiang.probability.limits` (method, model and policy names, horizons, the work
budgets), :mod:`~majiang.probability.results` (:class:`Estimate`,
:class:`Probabilities`), :mod:`~majiang.probability.position` (the checked input and
THE win predicate as the kernel's callable), :mod:`~majiang.probability.engine` (one
position's exact searches and Monte Carlo, and the choice of route),
:mod:`~majiang.probability.route258` (the Python route of the 2-5-8 / 三金倒 rulesets),
:mod:`~majiang.probability.discards` (a hand that must discard: wins now, best discard),
:mod:`~majiang.probability.outcomes` (fans and points of the winning hands),
:mod:`~majiang.probability.starting` (starting-hand shanten) and
:mod:`~majiang.probability.models` (the registry of extra models).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import RuleError

# The parts' names, private ones included, stay importable from here as they were from
# the one module this package replaced (majiang.odds, majiang.analysis,
# majiang.game.table, the tests and the bench use them).
# ruff: noqa: F401
from .discards import (
    BEST_NAMED, _auto_exact, _best_names, _check_discard_hand, _Complete, _completion,
    _discard_options, _discard_results, _discards, _fourteen, _probability_frame, _won_now,
)
from .engine import (
    _auto_method, _before_draw, _deal, _Engine, _out_of_reach, _run, _se, _setup, _zero_draws,
)
from .limits import (
    _OBJ_TENPAI, _OBJ_WIN, AUTO_MAX_SHANTEN, B258_MC_MIN_SAMPLES, B258_MC_WORK,
    B258_PY_MAX_DRAWS, B258_SHANTEN_UNITS, CHUNK, DEFAULT_MAX_STATES, DEFAULT_SAMPLES,
    GREEDY_258, JOKER, JOKER_PRED_BUDGET, MAX_CHANGES, METHODS, MODELS, POLICIES, REAL, S1,
    TRUE_WALL, TRUE_WALL_MAX_DRAWS, TRUE_WALL_WINS_MAX_DRAWS, _kernel_misjudges, _PredBudget,
)
from .models import _MODEL_PROVIDERS, _MODELS, SINGLE_PLAYER, _extra_model, register_model
from .outcomes import _points, _score_summary, _win_outcomes
from .position import (
    _after_discards, _check_changes, _check_draws, _check_method, _check_samples,
    _discard_name, _model_of, _policy_parts, _Position, _position, _raise_pred_error,
    _shown_names, _WinPred,
)
from .results import Estimate, Probabilities
from .starting import _deal_hands, starting_hand_shanten

__all__ = [
    "METHODS", "POLICIES", "MODELS", "Estimate", "Probabilities",
    "probabilities", "win_probability", "tenpai_probability", "win_curve", "tenpai_curve",
    "discard_curves", "discard_probabilities", "starting_hand_shanten", "register_model",
]

# ---------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------

_COMMON_DOC = """
    Parameters
    ----------
    hand : str, Hand, array_like of shape (34,) or Position
        A hand waiting to draw (the ruleset's hand size, 13 or 16, counting melds as
        3 and jokers ``*``).  A hand that must discard (one more tile) is valued by
        its best discard among all (named in ``discard`` and the note), or 1 when it
        wins now (see the module docstring).  A :class:`~majiang.position.Position`
        gives the hand, ``visible``, ``ruleset``, ``indicator`` and the winds; one of
        those keywords given as well with another value (any ``visible``) raises
        :class:`~majiang.errors.RuleError`.
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
        The play policy, honoured under every method; :attr:`Probabilities.policy`
        names the one used.  ``"optimal"``: the best play (under ``"auto"`` the best
        that fits, as ``method="exact"``; the S1 policy on real walls under
        ``"monte_carlo"``); ``"greedy"``: the ukeire-greedy player (under ``"auto"``
        its Monte Carlo).  Default None: the method's own (``"auto"``: the true wall or
        ``changes<=0``, greedy when it falls back to Monte Carlo).  Every name a result
        prints is accepted: ``"changes<=c"`` (c in 0..8) is ``changes=c``,
        ``"greedy (ruleset shanten)"`` is ``"greedy"``.
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


def probabilities(hand: Any, draws: int, *, visible: Any = None, ruleset: Any = None,
                  method: str = "auto", seed: Any = 0, n_samples: int = DEFAULT_SAMPLES,
                  policy: str | None = None, changes: int | None = None,
                  n_jobs: int | None = 1, max_states: int = DEFAULT_MAX_STATES,
                  indicator: Any = None, seat_wind: Any = 0,
                  prevalent_wind: Any = 0, void: Any = None) -> Probabilities:
    """Win and tenpai probabilities and curves of a hand over the next ``draws`` draws.

    ``void``: the declared void suit (定缺, ``"m"`` / ``"p"`` / ``"s"`` or 0..2) under a
    ruleset with a void suit: every win must lack that suit
    (:func:`majiang.rules.derived.with_void`; a position gives its seat's own).

    Returns
    -------
    Probabilities
        ``p_win``, ``p_tenpai``, standard errors, curves of shape ``(draws,)``, and
        ``method`` / ``model`` / ``policy`` / ``note`` saying what produced them.
    """
    if type(hand).__name__ == "Position":
        from ..position import check_draws
        check_draws(hand, draws, "probabilities")
        hand, kw = _unpack(hand, "probabilities", visible, ruleset, indicator, seat_wind,
                           prevalent_wind)
        visible, ruleset, indicator = kw["visible"], kw["ruleset"], kw.get("indicator")
        seat_wind, prevalent_wind = kw["seat_wind"], kw["prevalent_wind"]
    if void is not None:
        from ..rules.derived import with_void
        ruleset = with_void(ruleset, void)
    method = _auto_method(method, policy)      # a named policy is honoured under "auto"
    pos, engine, n_samples = _setup(hand, draws, visible, ruleset, method, policy, n_samples,
                                    changes, max_states, indicator, seat_wind, prevalent_wind)
    if (int(pos.counts.sum()) + pos.jokers) % 3 == 1:
        return _run(engine, pos.counts, pos.jokers, method, policy, n_samples, seed, n_jobs)
    return _fourteen(engine, pos, method, policy, n_samples, seed, n_jobs)


probabilities.__doc__ += _COMMON_DOC


def _unpack(hand: Any, what: str, visible: Any, ruleset: Any, indicator: Any, seat_wind: Any,
            prevalent_wind: Any) -> tuple:
    """(hand, keywords) of a :class:`~majiang.position.Position` given as the hand (see
    :func:`majiang.position.analysis_inputs`)."""
    from ..position import analysis_inputs
    return analysis_inputs(hand, what, dict(visible=visible, ruleset=ruleset,
                                            indicator=indicator, seat_wind=seat_wind,
                                            prevalent_wind=prevalent_wind))


def _position_kwargs(hand: Any, what: str, model: str | None, kwargs: dict) -> tuple:
    """A Position given to :func:`win_probability` / :func:`tenpai_probability`: its
    hand and keywords (an extra model such as ``"table"`` gets the ruleset, indicator
    and prevalent wind, and the visible tiles only when some are seen, which it then
    refuses in its own words)."""
    if type(hand).__name__ != "Position":
        return hand, kwargs
    from ..position import analysis_inputs
    if model is None or model in SINGLE_PLAYER:
        return analysis_inputs(hand, what, kwargs)
    keys = ("ruleset", "indicator", "prevalent_wind")      # the table model: no own void
    if hand.analysis_visible().any():
        keys += ("visible",)
    return analysis_inputs(hand, what, kwargs, keys, void=False)


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
    from ..position import check_draws
    check_draws(hand, draws, "win_probability")
    hand, kwargs = _position_kwargs(hand, "win_probability", model, kwargs)
    if model is not None and model not in SINGLE_PLAYER:
        _no_void(kwargs, model)
        return _extra_model(model)(hand, draws, **kwargs).win
    return probabilities(hand, draws, **kwargs).win


def tenpai_probability(hand: Any, draws: int, *, model: str | None = None,
                       **kwargs: Any) -> Estimate:
    """Probability of being tenpai (ruleset shanten 0) after at most ``draws`` draws
    (1.0 if tenpai now).  Keyword arguments as :func:`probabilities`; ``model`` as in
    :func:`win_probability`.  Returns an :class:`Estimate`.
    """
    from ..position import check_draws
    check_draws(hand, draws, "tenpai_probability")
    hand, kwargs = _position_kwargs(hand, "tenpai_probability", model, kwargs)
    if model is not None and model not in SINGLE_PLAYER:
        _no_void(kwargs, model)
        return _extra_model(model)(hand, draws, **kwargs).tenpai
    return probabilities(hand, draws, **kwargs).tenpai


def _no_void(kwargs: dict, model: str) -> None:
    """Refuse ``void=`` for a model of the whole table (its engine declares every seat's
    void itself)."""
    if kwargs.get("void") is not None:
        raise RuleError(f"void= applies to the single-player model; the {model!r} model "
                        "has every seat declare its own void suit")


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


discard_probabilities.__doc__ += _COMMON_DOC

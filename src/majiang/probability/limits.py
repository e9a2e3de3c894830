"""Names and limits of the probability routes: the methods, models and policies a
result names, the horizons each exact route covers, and the work budgets of the
automatic method under joker rulesets.

The budgets (:data:`JOKER_PRED_BUDGET`, :data:`B258_SHANTEN_UNITS`,
:data:`B258_MC_WORK`, :data:`B258_MC_WORK_PLAIN`, :data:`B258_MC_MIN_SAMPLES`,
:data:`JOKER_MC_PRED_WORK`, :data:`JOKER_MC_MAX_WALLS`) are read as attributes of this
module when a call runs (``limits.JOKER_PRED_BUDGET``), so setting them here (a test's
``monkeypatch.setattr(limits, ...)``) changes what the next call may spend; the copies
:mod:`majiang.probability` re-exports are for reading.
"""
from __future__ import annotations

from ..errors import MahjongError
from ..rules.model import GameModel
from ..tiles import N_KINDS

METHODS = ("auto", "exact", "monte_carlo")
POLICIES = ("optimal", "greedy")
MODELS = ("true wall", "kind counts", "real walls")
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


JOKER_MC_PRED_WORK = 1500
"""Under a joker ruleset the automatic method's greedy Monte Carlo on the compiled
route stops dealing walls after the chunk (:data:`CHUNK` walls) in which THE win
predicate's checks of this discard reach this many units (as
:data:`JOKER_PRED_BUDGET`: ``2**jokers`` per distinct complete hand, ≈ 3 ms a unit
with two jokers under 天津): the estimate then rests on fewer walls than
``n_samples`` (its ``n_samples`` and ± say how many; the note says why).  Counts, not
timings, so the result depends on the seed only.  ``method="monte_carlo"`` plays
every wall asked for."""
JOKER_MC_MAX_WALLS = 4096
"""The walls a discard's greedy Monte Carlo of :data:`JOKER_MC_PRED_WORK` plays at most
under the automatic method (the compiled greedy player with a joker rule: ≈ 0.1 s a
chunk of :data:`CHUNK` walls over 10 draws)."""


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
B258_MC_WORK_PLAIN = 50_000
""":data:`B258_MC_WORK` of a ruleset without jokers on the Python route (长沙, 合肥):
the automatic method's greedy Monte Carlo stops dealing walls once its player has
judged this many hands by the ruleset's shanten (:meth:`_Engine._b258_rows`, every
row counted, ≈ 4 µs each; a few hundred a wall over 10 draws: ≈ 0.2 s and some
hundred walls a discard) and at least :data:`B258_MC_MIN_SAMPLES` walls are played;
the result's ``n_samples`` and ± say how many walls it rests on and the note says
why.  ``method="monte_carlo"`` plays every wall asked for."""


class _PredBudget(MahjongError):
    """The automatic exact search ran past :data:`JOKER_PRED_BUDGET`."""


def _kernel_misjudges(model: GameModel) -> bool:
    """True when the compiled kernel cannot judge this ruleset's wins and tenpai: the
    2-5-8 shape families (:attr:`majiang.rules.model.GameModel.shapes_258`, the one
    decision that efficiency's route and waits read too)."""
    return model.shapes_258
_OBJ_WIN, _OBJ_TENPAI = 0, 1


GREEDY_258 = "greedy (ruleset shanten)"
"""The policy name of the greedy Monte Carlo under the 2-5-8 / 三金倒 Python paths."""

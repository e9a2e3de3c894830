"""Fan scoring of a winning hand: the best decomposition under a ruleset.

:func:`score` reads the hand *before* the winning tile (13 tile-equivalents,
melds counted 3 each), adds the win tile, enumerates every decomposition in the
ruleset's winning forms and every attribution of the win tile to a set, scores
each with the ruleset's fan table and keeps the highest total (就高不就低).

The exclusion principles of Chinese Official rules are applied by one mechanism,
driven by the fan table's data:

* **不重复 (no repeat)** — a fan implied by a counted fan is not counted: every
  :class:`~majiang.rules.Fan` lists the fans it excludes (``excludes``, the 不计
  column of docs/rules/mcr.md §2).  Fans are processed from the biggest (lowest id)
  down; a fan that is itself excluded excludes nothing (so 七对 excludes 不求人
  and 自摸 still counts).  ``reduces`` removes a given number of occurrences
  (九莲宝灯: one 幺九刻 fewer).
* **不拆移 / 不得相同 / 套算一次** for the patterns made of several sets (一般高,
  喜相逢, 连六, 老少副, 三同刻, 清龙 …, the fans with a ``combination``): the rule
  text reads "如果有尚未组合过的一副牌，只可同已组合过的相应的一副牌套算一次"
  (a set not yet combined may be combined once with one set already combined)
  and "凡已经合过某一番种的牌，不能再同其他一副牌组成相同的番种计分" (sets that
  formed a fan cannot form the same fan again with another set).  So a chosen
  group of combinations must admit an order in which each group shares at most
  one set with the sets combined before it, and no set is in two groups of the
  same fan.  Among the valid choices the highest total wins; ties go to more
  distinct fans, then to the bigger fans.  This also yields "three-set fan +
  at most one pair fan with the fourth set" and "no pair fan inside a three-set
  fan" without listing those exclusions.
* **就高不就低** — the decomposition and win-tile attribution with the highest
  total is kept; ties keep the first in the order special forms, then regular
  decompositions (core order), then attributions in set order.

Waits (边张 / 坎张 / 单钓将) need a single waiting kind (独听).  Waits are judged by
shape: a kind is a wait when one more copy completes the hand in any of the
ruleset's forms, even if no copy is left to draw (as the rules judge a wait
whose tiles are all discarded).  A 和绝张 flag is checked against the hand: it
is impossible when the hand holds a concealed copy of the win tile, and implied
when the player's own exposed melds show three copies.

Speed: for rulesets whose fan table is the Chinese Official one, :func:`score`
runs the compiled kernel :mod:`majiang._core.fans` (decompositions, attributions,
predicates and the exclusion principles in C, the fan values and 不计 lists read
from the ruleset's table) and returns a :class:`FanResult` whose fields are built
on first access; ``method="python"`` runs the reference engine described above,
which the kernel matches exactly (tests/test_scoring_kernel.py).
:func:`score_batch` scores numpy batches with the kernel without the GIL.

Errors: :class:`~majiang.errors.InvalidHandError` for a non-winning hand ("not
a winning hand"), a wrong tile count, a fifth copy, or a context that
contradicts the hand (杠上开花 without a kong, robbing a kong of a tile the hand
holds, 和绝张 while holding a copy); :class:`~majiang.errors.RuleError` for an
unknown ruleset or option; :class:`~majiang.errors.InvalidNotationError` for
unreadable tiles.

Layout (each module one concern; data flows down the list, never back up):

* :mod:`.results` — :class:`FanCount`, :class:`FanResult` (imports no engine);
* :mod:`.waiting` — :func:`waits`, shape-based waits (独听) (not ``waits.py``: a submodule
  named like the function it exports would shadow it on the package);
* :mod:`.reference` — the Python reference engine (:func:`evaluate`,
  :func:`candidates`, decompositions, attributions, exclusion principles);
* :mod:`.kernel` — the bridge to :mod:`majiang._core.fans`, :func:`score_batch`;
* :mod:`.regional` — regional rules: jokers, win constraints, extra forms, points;
* :mod:`.api` — :func:`score`, the front door that picks kernel, reference or regional;
* :mod:`.predicate` — THE win predicate :func:`check_win` / :func:`is_win`.
"""
from __future__ import annotations

from .api import score
from .kernel import BatchScores, melds_array, score_batch
from .predicate import WinCheck, check_win, is_win
from .reference import candidates, evaluate, wind_index
from .regional import RegionalResult
from .results import FanCount, FanResult
from .waiting import waits

__all__ = ["score", "score_batch", "BatchScores", "FanResult", "FanCount", "waits", "evaluate",
           "candidates", "wind_index", "melds_array", "RegionalResult", "WinCheck",
           "check_win", "is_win"]

"""Shanten (向听), ukeire (有效牌) and discard tables: the public API over the Cython core.

Every function takes a hand as a string (any notation of :mod:`majiang.tiles`,
melds in ``[...]``, concealed kongs in ``{...}``), a :class:`~majiang.hand.Hand`,
or a count vector (``numpy`` array-like of shape ``(34,)``, concealed tiles only).

Definitions
-----------
*Shanten* is the least number of tile swaps (discard one, draw one that exists)
that makes the hand complete, minus one: −1 = complete, 0 = tenpai (听牌).
No arrangement may use a fifth copy of a kind, counting the copies the player
holds in exposed melds, so ``123456789m1111p`` is 1-shanten, not tenpai.
A hand with ``k`` exposed melds needs ``4 - k`` sets and a pair; a bare count
vector of ``3n+1`` or ``3n+2`` tiles needs ``n`` sets (so small hands can be
studied too; at most 17 tiles, i.e. 16-tile rules).

*Forms* (winning shapes): ``"regular"`` (sets + a pair), ``"seven_pairs"``
(七对; with ``seven_pairs_quads=True`` four of a kind counts as two pairs, as in
Chinese Official rules — otherwise the pairs must be distinct, as in riichi),
``"thirteen_orphans"`` (十三幺), ``"honors_and_knitted"`` (全不靠) and
``"knitted_straight"`` (组合龙).  Seven pairs, thirteen orphans and 全不靠 need the
whole 13/14-tile hand concealed.

*The default*: every function given no ruleset (``ruleset=None``) uses Chinese Official
rules, ``"mcr"`` (:data:`majiang.rules.model.DEFAULT_RULESET`): the five forms above,
a quad counting as two pairs, the 144-tile set — the rules of :func:`majiang.score`
and :func:`majiang.scoring.check_win` too, so every function gives one answer.  The
riichi-style shape arithmetic of other libraries (regular, seven *distinct* pairs,
thirteen orphans, 136 tiles) is the ``"plain"`` ruleset (:mod:`majiang.rules.plain`).
Without a ruleset a hand may still hold generic jokers (``*`` / ``jokers=``, plain wild
tiles); a named ruleset without a joker rule refuses them.

*Narrowing* (``forms=`` / ``seven_pairs_quads=``): ``forms`` keeps only those of the
ruleset's forms and ``seven_pairs_quads`` sets only that option; the tile set, shape
rules (缺一门, 二五八将), jokers and the rest of the ruleset stay
(:func:`majiang.rules.derived.narrowed`).  A form the ruleset does not have is a
RuleError: ``shanten(h, ruleset="sichuan", forms=("thirteen_orphans",))`` has no
meaning in a 108-tile set without honours.

*Ukeire* of a ``3n+1`` hand: the tile kinds whose draw lowers the shanten, each
with its *live count* ``4 - (copies in the hand and its melds) - (visible copies)``.

*Rulesets* (``ruleset=``) supply the forms and their shape rules: the tile set
(108 tiles: no honors; 84: no 万, no winds — a kind outside it is never drawn and
live counts use the set's copies), 缺一门 (``void_suit``: the complete hand, melds
included, lacks one suit) and 二五八将 (``pair_258``: the pair of a regular hand is
a 2, 5 or 8).  These are computed exactly by the core; rulesets with jokers and
shape rules, or extra forms (十三烂), by :mod:`majiang.rules.shapes`.

``pair_258_small`` (长沙, 合肥, 武汉: a small win needs a 2-5-8 pair, a 大胡 may use
any pair) is exact too.  Reading chosen: a hand is complete when it wins *by shape
alone* — on a discard or by self-draw, with no situational context — so the
shanten is the least over the shapes that can win that way: a regular hand with a
2-5-8 pair, and each 大胡 shape of the ruleset's fans tagged ``"big"``
(:func:`majiang.rules.fans.big_shapes`: 七小对, 碰碰胡, 清一色, 风一色,
将将胡 of any shape, 全求人 with four claimed melds, won on a discard).  Situational
大胡 (海底捞月, 海底炮, 杠上开花, 抢杠胡, 天胡 / 地胡; tagged ``"situational"``) never
make a hand ready: they need the last tile, a kong or the first turn.  Each shape
is a core call (``pair_mask`` 2-5-8; caps of one suit; seven pairs) or a closed
form (all pungs, all 2/5/8, 全求人); ukeire is the union of the effective tiles of
the shapes at the minimum (see :func:`_b258_effective`), the discard table's
``improvement`` is NaN.  合肥 八枝 (``eight_of_a_suit``: a suit holds 8 or more tiles
at the win, melds included) is exact too: the core cannot express it, so each shape
group is then maximised per suit and combined in Python (:func:`_eight_groups`).  Not
modelled: 武汉 开口 (a claim, not a shape: closed hands get their shape shanten).

The package's modules, one concept each: :mod:`._ruleset` (forms, the ruleset a call
uses and its route), :mod:`._hand` (hand validation, core errors, visible tiles),
:mod:`._jokers` (wild faces, :func:`read_faces`), :mod:`._plan` / :mod:`._eight` /
:mod:`._b258` (the ``pair_258_small`` route: its plan and closed forms, 八枝, the
groups), :mod:`._api` (:func:`shanten`, :func:`ukeire`, :func:`decompositions`),
:mod:`._batch` (:func:`shanten_batch`) and :mod:`._tables` (:func:`discard_table`).
"""
from __future__ import annotations

# Besides the public API, the names other modules, tests and benchmarks import from
# majiang.efficiency are re-exported (``name as name``); each lives in the submodule it
# is imported from here: patch it there.
from .._core import efficiency as _eff  # noqa: F401  (the compiled core, tests patch it)
from ._api import decompositions, shanten, ukeire
from ._b258 import _b258_batch as _b258_batch
from ._b258 import _b258_effective as _b258_effective
from ._b258 import _b258_groups as _b258_groups
from ._b258 import _b258_per_family as _b258_per_family
from ._b258 import _b258_shanten as _b258_shanten
from ._batch import _ROWS_PER_THREAD as _ROWS_PER_THREAD
from ._batch import _runnable_cores as _runnable_cores
from ._batch import _spare_cores as _spare_cores
from ._batch import shanten_batch
from ._eight import _eight_groups as _eight_groups
from ._hand import _prepare as _prepare
from ._jokers import _stand_in_names as _stand_in_names
from ._jokers import read_faces as read_faces
from ._jokers import wild_faces as wild_faces
from ._plan import _plan258 as _plan258
from ._ruleset import DEFAULT_FORMS, FORMS, form_mask
from ._ruleset import _regional_jokers as _regional_jokers
from ._ruleset import _route as _route
from ._ruleset import resolve_forms as resolve_forms
from ._tables import _discard_table_rows as _discard_table_rows
from ._tables import discard_columns as discard_columns
from ._tables import discard_table, void_first

__all__ = [
    "FORMS", "DEFAULT_FORMS", "shanten", "shanten_batch", "ukeire", "decompositions",
    "discard_table", "void_first", "form_mask",
]

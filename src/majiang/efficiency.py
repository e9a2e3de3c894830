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
(:func:`majiang.rules.model.narrowed`).  A form the ruleset does not have is a
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
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ._core import decompose as _decompose
from ._core import efficiency as _eff
from ._memo import per_ruleset
from ._parallel import resolve_n_jobs
from .errors import InvalidHandError, RuleError
from .hand import Decomposition, Hand, as_hand, visible_counts
from .tiles import N_KINDS, _plain_counts, as_counts_batch, tile_name

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

__all__ = [
    "FORMS", "DEFAULT_FORMS", "shanten", "shanten_batch", "ukeire", "decompositions",
    "discard_table", "form_mask",
]

FORMS = {
    "regular": 1,
    "seven_pairs": 2,
    "thirteen_orphans": 4,
    "honors_and_knitted": 8,
    "knitted_straight": 16,
}
"""Winning forms the core knows, with their bit in the core's form mask."""

DEFAULT_FORMS = ("regular", "seven_pairs", "thirteen_orphans")
"""The forms of the ``"plain"`` ruleset (riichi-style: seven distinct pairs).  Not the
default: ``ruleset=None`` is Chinese Official rules (see the module notes)."""

_ERR_BAD_COUNT = -100
_ERR_BAD_SIZE = -101
_NO_ARRANGEMENT = 99
_MASKS: dict[Any, int] = {}


def form_mask(forms: Sequence[str] | str) -> int:
    """Bit mask of the core for a sequence of form names.

    Raises
    ------
    RuleError
        For an unknown form name or an empty selection.
    """
    try:
        return _MASKS[forms]
    except (KeyError, TypeError):
        pass
    if isinstance(forms, str):
        names = (forms,)
    else:
        try:
            names = tuple(forms)
        except TypeError:
            raise RuleError(f"forms must be a sequence of form names, got {forms!r}") from None
    mask = 0
    for f in names:
        if not isinstance(f, str) or f not in FORMS:
            raise RuleError(f"unknown winning form {f!r}; known forms: {', '.join(FORMS)}")
        mask |= FORMS[f]
    if not mask:
        raise RuleError("forms must name at least one winning form")
    try:
        _MASKS[forms] = mask
    except TypeError:      # unhashable (a list): fine, just not cached
        pass
    return mask


def _core_error(counts: np.ndarray, code: int, where: str = "",
                jokers: int = 0) -> InvalidHandError:
    if code == _ERR_BAD_COUNT:
        k = int(np.argmax(counts > 4))
        return InvalidHandError(f"{where}{int(counts[k])} copies of {tile_name(k)}: "
                                "at most 4 of each tile exist")
    n = int(counts.sum())
    with_j = f" + {jokers} jokers" if jokers else ""
    return InvalidHandError(f"{where}{n} concealed tiles{with_j}: a hand needs 3n+1 or 3n+2 "
                            "tiles (13 or 14 with no melds, at most 17)")


def _prepare(hand: Any, jokers: int = 0, hand_size: int = 13
             ) -> tuple[np.ndarray, np.ndarray | None, Hand | None, int]:
    """(concealed uint8 (34,), caps or None, Hand or None, jokers) for any accepted hand.

    A string or Hand must hold a full hand of ``hand_size`` (13: 13/14 tiles counting
    melds and jokers; 16 under 16-tile rulesets), so a miscounted 13-tile hand is an
    error rather than a 16-tile hand.  ``jokers`` (the keyword) are added to the hand's
    own ``*`` jokers before any check, so ``shanten("123m456p789s112z", jokers=1)`` and
    ``shanten("123m456p789s112z*")`` are the same hand.  A bare count vector may be a
    partial hand (3n+1 / 3n+2 tiles with the jokers).  The returned ``jokers`` is the
    total held.
    """
    if (type(hand) is np.ndarray and hand.dtype == np.uint8 and hand.shape == (N_KINDS,)
            and hand.flags.c_contiguous):
        return hand, None, None, jokers
    if isinstance(hand, str):
        h = as_hand(hand + " " + "*" * jokers if jokers else hand, hand_size=hand_size)
    elif isinstance(hand, Hand):
        if jokers:
            hand = Hand(hand.concealed, hand.melds, hand.flowers,
                        _check_jokers(hand.jokers + jokers))
        h = as_hand(hand, hand_size=hand_size)
    else:           # a bare count vector may be a partial hand (3n+1 / 3n+2 tiles)
        from .tiles import as_counts
        h = Hand(as_counts(hand), jokers=jokers)
    caps = None
    if h.melds:
        locked = h.all_counts.astype(np.int16) - h.concealed
        caps = np.ascontiguousarray(4 - locked, dtype=np.uint8)
    return np.ascontiguousarray(h.concealed, dtype=np.uint8), caps, h, _check_jokers(h.jokers)


_RULES_GET: Any = None


def _get_ruleset(ruleset: Any) -> Any:
    """:func:`majiang.rules.get`, imported on first use (rules is data; imported lazily)
    and then kept: a ``from .rules import`` inside each helper cost about 1.5 µs per
    call, five times per ``shanten(..., ruleset=)``."""
    global _RULES_GET
    if _RULES_GET is None:
        from .rules import get
        _RULES_GET = get
    return _RULES_GET(ruleset)


_DEFAULT_RS: Any = None


def _resolved(ruleset: Any, forms: Any = None, seven_pairs_quads: bool | None = None) -> Any:
    """The :class:`~majiang.rules.Ruleset` a call uses: ``ruleset`` (``None`` = the default,
    :data:`majiang.rules.model.DEFAULT_RULESET`) narrowed by ``forms`` /
    ``seven_pairs_quads`` (:func:`majiang.rules.model.narrowed`: the other rules kept).

    Raises
    ------
    RuleError
        An unknown ruleset; a form the ruleset does not have.
    """
    if forms is None and seven_pairs_quads is None:
        if ruleset is None:
            global _DEFAULT_RS
            if _DEFAULT_RS is None:
                from .rules.model import DEFAULT_RULESET
                _DEFAULT_RS = _get_ruleset(DEFAULT_RULESET)
            return _DEFAULT_RS
        return _get_ruleset(ruleset)
    from .rules.model import narrowed
    return narrowed(ruleset, forms, seven_pairs_quads)


def resolve_forms(forms: Sequence[str] | None, seven_pairs_quads: bool | None,
                  ruleset: Any = None) -> tuple[tuple[str, ...], bool]:
    """Winning forms and the seven-pairs quad option of ``ruleset`` (a name such as
    ``"mcr"`` or a :class:`majiang.rules.Ruleset`; ``None`` = the default, Chinese
    Official rules) narrowed by ``forms`` / ``seven_pairs_quads`` (:func:`_resolved`).

    Raises
    ------
    RuleError
        For an unknown ruleset name, or a form the ruleset does not have.
    """
    r = _resolved(ruleset, forms, seven_pairs_quads)
    return tuple(r.forms), bool(r.seven_pairs_quads)


_SHAPE_IN_CORE = frozenset(("void_suit", "pair_258"))
"""Shape constraints the core computes exactly (``Opts.void_suits`` / ``Opts.pair_mask``).
``pair_258_small`` (2-5-8 pair for a small win only; a 大胡 may use any pair) has its
own route, ``"b258"`` (:func:`_b258_groups`): the least shanten over the small-win
shape (the core's ``pair_mask``) and the ruleset's 大胡 shapes that need no
situational context, each a core call or a closed form."""

_WHOLE_HAND = 2 | 4 | 8     # seven pairs, thirteen orphans, honors-and-knitted


def _route(ruleset: Any, forms: Any = None) -> tuple[str | None, Any]:
    """How a ruleset's shanten is computed: ``("python", rs)`` by the shape engine of
    :mod:`majiang.rules.shapes` (compiled, ``_core/shapes.pyx``, equal to its Python
    reference; jokers with shape rules, extra forms such as 十三烂, ``no_void``), ``("core", rs)`` by the core with shape options (void suit, 2-5-8
    pair, a reduced tile set), ``("b258", rs)`` for ``pair_258_small`` (small-win and
    big-win shapes, :func:`_b258_groups`), or ``(None, None)`` (plain core: forms only).
    ``ruleset`` None is the default ruleset; ``forms`` narrows it (:func:`_resolved`),
    ``rs`` is then the narrowed ruleset."""
    rec = _rule_of(_resolved(ruleset, forms))
    return rec.how, (None if rec.how is None else rec.rs)


class _Rule:
    """What a ``shanten`` / ``ukeire`` call needs of one ruleset object, read once
    (:func:`_rule`): ``how`` (the route of :func:`_route`), the core form ``mask`` of its
    forms (None when a form is not the core's), ``quads``, ``fifth`` (a joker may be a
    fifth copy), ``size`` (hand size), and for the ``"core"`` route the shape options of
    a hand without melds (``caps``, ``pair_mask``, ``void``) from the game model."""

    __slots__ = ("rs", "how", "mask", "quads", "fifth", "size", "caps", "pair_mask",
                 "void")

    def __init__(self, rs: Any, how: str | None) -> None:
        self.rs, self.how = rs, how
        try:
            self.mask = form_mask(tuple(rs.forms))
        except RuleError:       # 十三烂, 将将胡 …: not core forms (other routes)
            self.mask = None
        self.quads = bool(rs.seven_pairs_quads)
        self.fifth = bool(rs.jokers is not None and rs.jokers.fifth_copy)
        self.size = rs.hand_size
        self.caps = self.pair_mask = None
        self.void = 0
        if how == "core":
            from .rules.model import game_model
            sh = game_model(rs).shape(())
            self.caps, self.pair_mask, self.void = sh.caps, sh.pair_mask, sh.void_suits


_DEFAULT_RULE: Any = None


def _default_rule() -> _Rule:
    """The :class:`_Rule` of the default ruleset (``ruleset=None``), kept after the first
    call: the default path pays no ruleset look-up."""
    global _DEFAULT_RULE
    if _DEFAULT_RULE is None:
        _DEFAULT_RULE = _rule_of(_resolved(None))
    return _DEFAULT_RULE


_RULE_BY_NAME: dict = {}
_REGISTRY: Any = None


def _rule(ruleset: Any) -> _Rule:
    """The cached :class:`_Rule` of a ruleset (a name, a ``.toml`` path or a Ruleset):
    one :func:`majiang.rules.get` per call, the rest read once per ruleset object.  A
    registry name is looked up once: its record is kept while the registry still holds
    the same ruleset under that name.

    Raises
    ------
    RuleError
        An unknown ruleset.
    """
    global _REGISTRY
    if type(ruleset) is str:
        rec = _RULE_BY_NAME.get(ruleset)
        if rec is not None and _REGISTRY.get(rec.rs.name) is rec.rs:
            return rec
        rec = _rule_of(_get_ruleset(ruleset))
        if not ruleset.lower().endswith(".toml") and len(_RULE_BY_NAME) < 256:
            from .rules import _REGISTRY
            _RULE_BY_NAME[ruleset] = rec
        return rec
    return _rule_of(_get_ruleset(ruleset))


def _build_rule(r: Any) -> _Rule:
    from .rules.model import game_model
    from .rules.shapes import needs_python
    how = None
    model = game_model(r)
    if model.shapes_258:    # the model's one 2-5-8 decision (waits, probability)
        how = "b258"            # small win: 2-5-8 pair; 大胡 shapes: any pair (_b258_groups)
    elif needs_python(r):
        how = "python"
        if (model.jokers is None and not model.extra_forms
                and not model.shape_constraints - _SHAPE_IN_CORE):
            how = "core"
    return _Rule(r, how)


_rule_of = per_ruleset(_build_rule)


def _flowers_allowed(ruleset: Any, hand: Any) -> None:
    """Flowers in a hand under a ruleset whose tile set has none (四川, 广东 …) are an
    error (:meth:`GameModel.check_flowers <majiang.rules.model.GameModel.check_flowers>`).
    Plain ASCII text without an ``f`` holds no flower and is not parsed again."""
    if isinstance(hand, str) and "f" not in hand and hand.isascii():
        return
    from .rules.model import game_model
    game_model(ruleset).check_hand_flowers(hand)


def _jokers_allowed(ruleset: Any, hand: Any, jokers: Any) -> None:
    """A ``*`` (or ``jokers=``) under a ruleset that has no jokers is an error, as in
    scoring and probabilities; without a ruleset any hand may hold generic jokers.
    Flowers under a tile set without flowers are refused here too (:func:`_flowers_allowed`).

    Raises
    ------
    RuleError
        The ruleset has no joker rule and the hand holds jokers.
    InvalidHandError
        The hand holds flowers the ruleset's tile set does not have.
    """
    if ruleset is None:
        return
    _flowers_allowed(ruleset, hand)
    if isinstance(hand, str):
        held = hand.count("*")
    else:
        held = int(getattr(hand, "jokers", 0) or 0)
    if not held and isinstance(jokers, (int, np.integer)) and not isinstance(jokers, bool):
        held = int(jokers)
    if not held:
        return
    from .rules.model import game_model
    model = game_model(ruleset)
    if model.jokers is None:
        raise RuleError(f"{model.name} has no jokers; the hand holds {held} '*'")


# ------------------------------------------------ 二五八将 for a small win (pair_258_small)
_KINDS_258 = tuple(9 * s + r for s in range(3) for r in (1, 4, 7))
_MASK_258 = sum(1 << k for k in _KINDS_258)
_ALL_PAIRS = (1 << N_KINDS) - 1
_FORM_REGULAR = 1
_FORM_SEVEN = 2


class _Plan258:
    """What :func:`_b258_groups` needs of a ``pair_258_small`` ruleset (cached per ruleset):
    the big shape families (:func:`majiang.rules.fans.big_shapes`), kinds no
    complete hand may hold (武汉: 红中, ``no_red_dragon``), whether a small win allows
    at most one joker (``max_one_joker_small``), the seven-pairs quad option."""

    __slots__ = ("rs", "fams", "banned", "one_joker", "quads", "seven", "pungs", "j258",
                 "melded", "groups", "copies", "cache", "pair_mask", "void", "strict",
                 "eight", "row_by_row")

    def __init__(self, rs: Any) -> None:
        from .rules.fans import shape_families
        from .rules.model import game_model
        model = game_model(rs)
        odd = (["no_void"] if model.no_void else []) + [f for f in model.extra_forms
                                                        if f != "all_258"]
        if odd or model.three_jokers_win:
            raise RuleError(f"{rs.name}: the 2-5-8 shape families (pair_258_small / all_258) "
                            f"do not combine with {', '.join(odd) or 'the three-joker win'} "
                            "in shanten / ukeire")
        self.rs = rs
        # the small win's pair and the 大胡 families: the one reading (waits reads it
        # too); without pair_258_small every form wins by itself
        small, self.fams = shape_families(rs)
        self.pair_mask = None if small == _ALL_PAIRS else small
        # 二五八将 for every regular hand (house rules adding pair_258): the pair of each
        # regular group (small win, one suit, all pungs, 全求人) is a 2, 5 or 8
        self.strict = model.pair_kinds is not None
        self.void = model.void_suit             # 缺一门: every group lacks a suit
        self.eight = model.eight_of_a_suit      # 合肥 八枝: _eight_groups
        self.row_by_row = self.void or self.strict or self.eight   # _b258_batch
        self.banned = model.banned_kinds
        self.one_joker = model.one_joker_small
        self.quads = bool(rs.seven_pairs_quads)
        self.seven = "seven_pairs" in self.fams
        self.pungs = "all_pungs" in self.fams
        self.j258 = "all_258" in self.fams
        self.melded = "melded_all" in self.fams
        self.groups = ((tuple((f"flush:{'mps'[g]}", g) for g in range(3))
                        if "flush" in self.fams else ())
                       + ((("all_honors", 3),) if "all_honors" in self.fams else ()))
        self.copies = np.ascontiguousarray(rs.copies, dtype=np.uint8)
        self.cache: dict = {}


_plan258 = per_ruleset(_Plan258)


def _pungs_kept(c: list, caps: list, m: int, pair_ok: int | None = None) -> int:
    """碰碰胡: most held tiles kept by ``m`` pungs and a pair of distinct kinds within
    ``caps`` (a kind cannot be both: five copies), or -1 when no such target exists.

    Exact: a pung slot keeps ``min(c, 3)`` of its kind, the pair ``min(c, 2)``; only
    held kinds keep anything, so the best pungs are the ``m`` largest values among
    held kinds (padded with empty kinds), for each choice of the pair (a kind whose bit
    is set in ``pair_ok``, when given: 二五八将)."""
    ok = _ALL_PAIRS if pair_ok is None else pair_ok
    e3 = 0
    vals = []
    pairs = []
    free = -1           # an empty pair kind, off the pung list (caps < 3) if there is one
    for k in range(N_KINDS):        # one pass (issue 12: three before)
        ck = caps[k]
        if ck >= 3:
            e3 += 1
        if c[k]:
            if ck >= 3:
                vals.append((c[k] if c[k] < 3 else 3, k))
            if ck >= 2 and ok >> k & 1:
                pairs.append(k)
        elif ck >= 2 and ok >> k & 1 and (free < 0 or (caps[free] >= 3 and ck < 3)):
            free = k
    if free >= 0:
        pairs.append(free)
    vals.sort(reverse=True)
    top = vals[:m]
    top_sum = sum(v for v, _ in top)
    top_kinds = {k for _, k in top}
    nxt = vals[m][0] if len(vals) > m else 0
    best = -1
    for p in pairs:
        if e3 - (caps[p] >= 3) < m:
            continue
        got = top_sum - min(c[p], 3) + nxt if p in top_kinds else top_sum
        got += min(c[p], 2)
        if got > best:
            best = got
    return best


def _closed_shanten(fam: str, c: list, caps: list, need: int, jokers: int,
                    pair_ok: int | None = None) -> int:
    """Shanten of one closed-form family (``all_pungs``, ``all_258``, ``melded_all``):
    ``need - kept - jokers - 1`` (at least −1), 99 when the family has no target;
    ``kept`` = the most held tiles a complete target of the family keeps.  ``pair_ok``:
    the kinds allowed as the pair of all pungs / 全求人 (bit mask; None = any)."""
    if fam == "all_258":
        room = sum(caps[k] for k in _KINDS_258)
        if room < need:
            return 99
        kept = min(need, sum(min(c[k], caps[k]) for k in _KINDS_258))
    elif fam == "all_pungs":
        kept = _pungs_kept(c, caps, (need - 2) // 3, pair_ok)
        if kept < 0:
            return 99
    else:                                   # melded_all: the pair is all that is concealed
        ok = _ALL_PAIRS if pair_ok is None else pair_ok
        kept = max((min(c[k], 2) for k in range(N_KINDS) if caps[k] >= 2 and ok >> k & 1),
                   default=-1)
        if kept < 0:
            return 99
    return max(-1, need - kept - jokers - 1)


def _closed_best(fam: str, c: list, caps: list, need: int, jokers: int, voids: tuple,
                 pair_ok: int | None) -> int:
    """:func:`_closed_shanten` under 缺一门: the least over the suits ``voids`` the hand may
    lack (the caps of that suit at 0); ``voids`` empty = no void suit needed."""
    if not voids:
        return _closed_shanten(fam, c, caps, need, jokers, pair_ok)
    best = 99
    for v in voids:
        cv = list(caps)
        cv[9 * v:9 * v + 9] = [0] * 9
        best = min(best, _closed_shanten(fam, c, cv, need, jokers, pair_ok))
    return best


_GROUP_SPAN = ((0, 9), (9, 18), (18, 27), (27, 34))


def _group_caps(plan: _Plan258, base: np.ndarray, g: int) -> np.ndarray:
    """``base`` with every kind outside group ``g`` (0-2 a suit, 3 the honors) at 0."""
    key = (base.tobytes(), g)
    got = plan.cache.get(key)
    if got is None:
        lo, hi = _GROUP_SPAN[g]
        got = np.zeros(N_KINDS, np.uint8)
        got[lo:hi] = base[lo:hi]
        if len(plan.cache) > 4096:
            plan.cache.clear()
        plan.cache[key] = got
    return got


# ------------------------------------------------ 合肥 八枝 (eight_of_a_suit) in the groups
_NEG = -1000
_EIGHT = 8      # 八枝: at the win one suit holds at least 8 tiles (melds and kongs included)


def _group_targets(honors: bool, chows: bool, max_sets: int) -> tuple:
    """Every target of one group (a suit, or the honors), grouped by (sets, pair):
    ``(T, pair, starts, keys)`` with ``T`` int8 (N, 9 or 7) tile counts (at most 4 a
    kind; at most ``max_sets`` pungs and chows, chows only with ``chows``), ``pair``
    the pair's position or -1, ``starts`` the first row of each (sets, pair) block and
    ``keys`` its ``2 * sets + has_pair``.  Built once per argument triple."""
    key = (honors, chows, max_sets)
    got = _TARGETS.get(key)
    if got is not None:
        return got
    npos = 7 if honors else 9
    shapes = [[3 if i == r else 0 for i in range(npos)] for r in range(npos)]
    if chows and not honors:
        shapes += [[1 if r <= i <= r + 2 else 0 for i in range(npos)] for r in range(7)]
    rows: list = []

    def grow(start: int, v: list, n: int) -> None:
        rows.append((tuple(v), n))
        if n == max_sets:
            return
        for i in range(start, len(shapes)):
            w = [a + b for a, b in zip(v, shapes[i])]
            if max(w) <= 4:
                grow(i, w, n + 1)

    grow(0, [0] * npos, 0)
    base = np.array([v for v, _ in rows], np.int8)
    nsets = np.array([n for _, n in rows], np.int64)
    T, S, P = [base], [nsets], [np.full(len(base), -1, np.int64)]
    for r in range(npos):               # the same with a pair on position r
        ok = base[:, r] <= 2
        v = base[ok].copy()
        v[:, r] += 2
        T.append(v)
        S.append(nsets[ok])
        P.append(np.full(len(v), r, np.int64))
    T = np.concatenate(T)
    S = np.concatenate(S)
    P = np.concatenate(P)
    keys = 2 * S + (P >= 0)
    order = np.argsort(keys, kind="stable")     # targets grouped by (sets, pair)
    keys = keys[order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    T = T[order]
    # each row = a left half (positions 0-4) and a right half: kept is then two lookups
    halves = []
    for part in (T[:, :5], T[:, 5:]):
        code = part.astype(np.int64) @ (5 ** np.arange(part.shape[1], dtype=np.int64))
        uniq, first, idx = np.unique(code, return_index=True, return_inverse=True)
        halves.append((np.ascontiguousarray(part[first]), idx.reshape(-1)))
    got = (halves, P[order], starts, keys[starts])
    _TARGETS[key] = got
    return got


_TARGETS: dict = {}     # (honors, chows, max_sets) -> _group_targets
_BANS: dict = {}        # (honors, chows, max_sets, pair_bits) -> target rows with a banned pair
_TABLES: dict = {}      # _group_table


def _group_table(h: tuple, caps: tuple, honors: bool, chows: bool, pair_bits: int,
                 max_sets: int) -> np.ndarray:
    """``best[2 m + p]`` (int64): the most tiles of ``h`` (one group's counts) a target of
    ``m`` sets and ``p`` (0 / 1) pairs of this group keeps, within ``caps``, the pair on
    a position whose bit is set in ``pair_bits``; ``_NEG`` when no such target exists.
    Exact (every target of :func:`_group_targets`), cached."""
    key = (h, caps, honors, chows, pair_bits, max_sets)
    got = _TABLES.get(key)
    if got is not None:
        return got
    halves, P, starts, keys = _group_targets(honors, chows, max_sets)
    kept = None
    for (pats, idx), lo, hi in zip(halves, (0, 5), (5, len(h))):
        part = np.minimum(pats, np.array(h[lo:hi], np.int8)).sum(axis=1, dtype=np.int16)
        if min(caps[lo:hi]) < 4:
            part[(pats > np.array(caps[lo:hi], np.int8)).any(axis=1)] = _NEG
        kept = part[idx] if kept is None else kept + part[idx]
    if pair_bits != (1 << len(h)) - 1:
        bkey = (honors, chows, max_sets, pair_bits)
        ban = _BANS.get(bkey)
        if ban is None:         # rows whose pair sits on a position not allowed
            ban = _BANS[bkey] = np.flatnonzero(np.isin(
                P, [r for r in range(len(h)) if not pair_bits >> r & 1]))
        kept[ban] = _NEG
    got = np.full(2 * max_sets + 2, _NEG, np.int64)
    got[keys] = np.maximum.reduceat(kept, starts)
    if len(_TABLES) > 1 << 16:
        _TABLES.clear()
    _TABLES[key] = got
    return got


def _suit_rule(ms: tuple, eight: bool, void: bool, size) -> tuple:
    """The 八枝 / 缺一门 test of one choice of target sizes per suit (``size[s]`` tiles of
    suit ``s`` in the concealed target; ``ms[s]`` in the melds): (some suit holds 8 or
    more, or no 八枝 rule) and (some suit is empty, or no void rule)."""
    return ((not eight or any(size[s] + ms[s] >= _EIGHT for s in range(3)))
            and (not void or any(size[s] == 0 and ms[s] == 0 for s in range(3))))


_SPLITS: dict = {}


def _splits(n_sets: int, size: int, ms: tuple, eight: bool, void: bool) -> tuple:
    """Every split of ``n_sets`` sets and one pair among the three suits and the honors,
    as indices ``2 m + p`` into the group tables of ``2 size + 2`` entries: ``(idx (4,
    N), ok (N,))``, ``ok`` = the split passes :func:`_suit_rule` (八枝 / 缺一门)."""
    key = (n_sets, size, ms, eight, void)
    got = _SPLITS.get(key)
    if got is None:
        rows, ok = [], []
        for m0 in range(n_sets + 1):
            for m1 in range(n_sets - m0 + 1):
                for m2 in range(n_sets - m0 - m1 + 1):
                    m3 = n_sets - m0 - m1 - m2
                    for p in range(4):
                        ps = [int(g == p) for g in range(4)]
                        rows.append([2 * m + q for m, q in zip((m0, m1, m2, m3), ps)])
                        ok.append(_suit_rule(ms, eight, void, [3 * m + 2 * q for m, q in
                                                               zip((m0, m1, m2), ps)]))
        idx = np.array(rows, np.intp).T
        got = _SPLITS[key] = (np.ascontiguousarray(idx[:, ok]), int(sum(ok)))
    return got


def _eight_regular(c: list, caps: list, ms: tuple, n_sets: int, pair_mask: int | None,
                   chows: bool, only: int | None, eight: bool, void: bool) -> int:
    """Most tiles kept by a regular target (``n_sets`` sets and a pair; ``chows`` False:
    all pungs) under 八枝 / 缺一门, exact: the per-group tables of :func:`_group_table`
    combined over every split of the sets and the pair among the three suits and the
    honors (:func:`_splits`).  ``only``: the one group (0-3) the target may use (清一色,
    字一色); ``_NEG`` or less when there is no target."""
    size = max(4, n_sets)       # one target list for 0-4 sets
    idx, n_ok = _splits(n_sets, size, ms, eight, void)
    if not n_ok:
        return _NEG
    total = None
    for g, (lo, hi) in enumerate(_GROUP_SPAN):
        if only is not None and g != only:
            tab = _EMPTY_GROUP.get(size)
            if tab is None:
                tab = _EMPTY_GROUP[size] = np.array([0] + [_NEG] * (2 * size + 1), np.int64)
        else:
            bits = (1 << (hi - lo)) - 1 if pair_mask is None else (pair_mask >> lo) & (
                (1 << (hi - lo)) - 1)
            tab = _group_table(tuple(c[lo:hi]), tuple(caps[lo:hi]), g == 3, chows, bits,
                               size)
        total = tab[idx[g]] if total is None else total + tab[idx[g]]
    return int(total.max())


_EMPTY_GROUP: dict = {}


def _eight_seven(c: list, caps: list, quads: bool, eight: bool, void: bool) -> int:
    """Most tiles kept by seven pairs (a quad = two pairs with ``quads``) under 八枝 /
    缺一门: per group, the best of ``u`` pairs (:func:`_seven_table`), combined over the
    splits of the seven pairs that pass :func:`_suit_rule` (listed once per rule)."""
    splits = _SEVEN_SPLITS.get((eight, void))
    if splits is None:
        splits = _SEVEN_SPLITS[(eight, void)] = [
            (u0, u1, u2, 7 - u0 - u1 - u2) for u0 in range(8) for u1 in range(8 - u0)
            for u2 in range(8 - u0 - u1)
            if _suit_rule((0, 0, 0), eight, void, (2 * u0, 2 * u1, 2 * u2))]
    t0, t1, t2, t3 = (_seven_table(tuple(c[lo:hi]), tuple(caps[lo:hi]), quads)
                      for lo, hi in _GROUP_SPAN)
    return max(_NEG, max((t0[a] + t1[b] + t2[d] + t3[e] for a, b, d, e in splits),
                         default=_NEG))


_SEVEN_SPLITS: dict = {}
_SEVEN_TABLES: dict = {}


def _seven_table(h: tuple, caps: tuple, quads: bool) -> list:
    """``best[u]`` (u = 0..7): the most tiles of ``h`` (one group's counts) kept by ``u``
    pairs of distinct kinds within ``caps`` (a quad = two pairs with ``quads``), ``_NEG``
    when ``u`` pairs do not fit; a knapsack over the group's kinds, cached (a draw
    changes one group: the other three are read back)."""
    key = (h, caps, quads)
    best = _SEVEN_TABLES.get(key)
    if best is not None:
        return best
    best = [0] + [_NEG] * 7
    for ck, capk in zip(h, caps):
        opts = []
        if capk >= 2:
            opts.append((1, min(ck, 2)))
            if quads and capk >= 4:
                opts.append((2, min(ck, 4)))
        if not opts:
            continue
        new = best[:]
        for u in range(8):
            if best[u] <= _NEG // 2:
                continue
            for du, v in opts:
                if u + du <= 7 and best[u] + v > new[u + du]:
                    new[u + du] = best[u] + v
        best = new
    if len(_SEVEN_TABLES) > 1 << 16:
        _SEVEN_TABLES.clear()
    _SEVEN_TABLES[key] = best
    return best


def _eight_all_258(c: list, caps: list, ms: tuple, need: int, eight: bool,
                   void: bool) -> int:
    """Most tiles kept by 将将胡 (``need`` tiles, every one a 2, 5 or 8, any shape) under
    八枝 / 缺一门: ``t`` target tiles of a suit keep ``min(t, held 2/5/8 of the suit)``,
    at most the suit's 2/5/8 copies; combined over every split of ``need``."""
    room = [sum(caps[9 * s + r] for r in (1, 4, 7)) for s in range(3)]
    held = [sum(min(c[9 * s + r], caps[9 * s + r]) for r in (1, 4, 7)) for s in range(3)]
    out = _NEG
    for t0 in range(min(need, room[0]) + 1):
        for t1 in range(min(need - t0, room[1]) + 1):
            t2 = need - t0 - t1
            if t2 > room[2]:
                continue
            v = min(t0, held[0]) + min(t1, held[1]) + min(t2, held[2])
            if v > out and _suit_rule(ms, eight, void, (t0, t1, t2)):
                out = v
    return out


def _eight_melded(c: list, caps: list, ms: tuple, pair_ok: int | None, eight: bool,
                  void: bool) -> int:
    """全求人 (four claimed melds, the concealed pair is the whole target) under 八枝 /
    缺一门: the best pair kind whose suit sizes pass :func:`_suit_rule`."""
    ok = _ALL_PAIRS if pair_ok is None else pair_ok
    out = _NEG
    for k in range(N_KINDS):
        if caps[k] >= 2 and ok >> k & 1 and min(c[k], 2) > out:
            size = [0, 0, 0]
            if k < 27:
                size[k // 9] = 2
            if _suit_rule(ms, eight, void, size):
                out = min(c[k], 2)
    return out


def _eight_one(plan: _Plan258, name: str, c: list, base: list, ms: tuple, need: int,
               jokers: int) -> int:
    """Shanten of one group of :func:`_eight_groups` (99 = no target)."""
    n_sets = (need - 2) // 3
    strict = _MASK_258 if plan.strict else None
    eight, void = plan.eight, plan.void
    if name == "small":
        kept = _eight_regular(c, base, ms, n_sets, plan.pair_mask, True, None, eight, void)
    elif name == "seven_pairs":
        kept = _eight_seven(c, base, plan.quads, eight, void)
    elif name == "all_pungs":
        kept = _eight_regular(c, base, ms, n_sets, strict, False, None, eight, void)
    elif name == "all_258":
        kept = _eight_all_258(c, base, ms, need, eight, void)
    elif name == "melded_all":
        kept = _eight_melded(c, base, ms, strict, eight, void)
    else:                       # flush:<suit> / all_honors: one group
        g = 3 if name == "all_honors" else "mps".index(name[-1])
        kept = _eight_regular(c, base, ms, n_sets, strict, True, g, eight, void)
    if kept <= _NEG // 2:
        return 99
    return max(-1, need - kept - jokers - 1)


def _closed_families(plan: _Plan258, melds: tuple, need: int) -> list:
    """The closed-form families of :func:`_b258_groups` open to a hand with these melds:
    ``all_pungs`` (no chow melded), ``all_258`` (every meld tile a 2, 5 or 8),
    ``melded_all`` (four claimed melds, the pair alone concealed)."""
    closed = []
    if plan.pungs and all(m.kind != "chow" for m in melds):
        closed.append("all_pungs")
    if plan.j258 and all(t in _KINDS_258 for m in melds for t in m.tiles):
        closed.append("all_258")
    if (plan.melded and len(melds) == 4 and need == 2
            and all(not m.concealed for m in melds)):
        closed.append("melded_all")
    return closed


def _eight_groups(plan: _Plan258, counts: np.ndarray, base: np.ndarray, melds: tuple,
                  jokers: int, prune: bool | None, voids: tuple, void: int) -> list:
    """The groups of :func:`_b258_groups` under 八枝 (合肥 ``eight_of_a_suit``: at the win
    one suit holds 8 or more tiles, melds and kongs included), each exact by
    :func:`_eight_one`; ``how`` is ``("eight", name, base list, meld suit sizes, need,
    bound, bound how)``.  ``voids`` / ``void``: the suits the hand may lack under 缺一门
    (a tuple and its bits, from :func:`_b258_groups`; empty without the rule).

    The core cannot express a least number of tiles of a suit.  Each group's shanten
    without 八枝 (a core call or a closed form, as :func:`_b258_groups` computes it) is a
    lower bound of the group's: groups are taken in the order of their bounds and,
    with ``prune`` (see :func:`_b258_groups`), the exact value is computed only for a
    group whose bound can still reach the minimum."""
    n = int(counts.sum()) + jokers
    need = 3 * (n // 3) + 2
    ms = tuple(sum(len(m.tiles) for m in melds if m.tile < 27 and m.tile // 9 == s)
               for s in range(3))
    strict = _MASK_258 if plan.strict else None
    cl = counts.tolist()
    bl = base.tolist()
    bounds = []                 # (bound, name, how of the bound)
    s = _eff.shanten_one(counts, _FORM_REGULAR, False, base, jokers, False,
                         pair_mask=plan.pair_mask, void_suits=void)
    bounds.append((s, "small", ("core", counts, _FORM_REGULAR, base, jokers, plan.pair_mask,
                                void)))
    if plan.seven and not melds and need == 14:
        s = _eff.shanten_one(counts, _FORM_SEVEN, plan.quads, base, jokers, False,
                             void_suits=void)
        bounds.append((s, "seven_pairs", ("core", counts, _FORM_SEVEN, base, jokers, None,
                                          void)))
    closed = _closed_families(plan, melds, need)
    for fam in closed:
        bounds.append((_closed_best(fam, cl, bl, need, jokers, voids, strict), fam,
                       ("closed", fam, bl, voids, strict)))
    meld_groups = {t // 9 if t < 27 else 3 for m in melds for t in m.tiles}
    for name, g in plan.groups:
        if meld_groups - {g}:
            continue
        cg = _group_caps(plan, base, g)
        s = _eff.shanten_one(counts, _FORM_REGULAR, False, cg, jokers, False,
                             pair_mask=strict)
        bounds.append((s, name, ("core", counts, _FORM_REGULAR, cg, jokers, strict, 0)))
    bounds.sort(key=lambda b: b[0])
    out = []
    best = 99
    for lb, name, lb_how in bounds:
        if prune is not None and (lb >= 99 or lb > best or (prune and lb == best)):
            continue
        s = 99 if lb >= 99 else _eight_one(plan, name, cl, bl, ms, need, jokers)
        out.append((name, s, ("eight", name, bl, ms, need, lb, lb_how)))
        best = min(best, s)
    return out or [("small", 99, bounds[0][2])]


def _b258_groups(plan: _Plan258, counts: np.ndarray, caps: np.ndarray, melds: tuple,
                 jokers: int, prune: bool | None = None) -> list:
    """Shanten of each group of shape families of a ``pair_258_small`` hand.

    Returns ``[(name, shanten, how)]``; ``how`` is ``("core", counts, mask, caps,
    jokers, pair_mask, void_suits)`` (a core call) or ``("closed", family, caps, voids,
    pair_ok)`` (:func:`_closed_best`).  ``prune``:
    None = every group; True = leave out a one-suit group whose lower bound (the
    tiles outside the suit must go) is not below the least shanten found so far
    (enough for the minimum); False = leave out only those above it (enough for the
    groups AT the minimum, as ukeire needs).

    The groups (each is exact; the hand's shanten is their minimum, because a hand
    wins by shape under the ruleset iff it completes one of them):

    * ``small``: a regular hand with a 2/5/8 pair (the core's ``pair_mask``), with
      ``seven_pairs`` in the same core call when seven pairs is a big shape (the pair
      mask restricts the regular pair only).  Under ``max_one_joker_small`` (武汉)
      jokers beyond one are dead tiles for the small win: held on a kind the complete
      hand may not hold (caps 0), so they must be swapped out;
    * ``flush:<suit>``: a regular hand of one suit, any pair (caps outside the suit 0),
      when every meld is of that suit; ``all_honors`` likewise for the honors;
    * ``all_pungs``, ``all_258`` and ``melded_all`` in closed form (melds: all pungs /
      kongs; all of 2/5/8 tiles; four claimed melds).

    The model's other shape rules hold in every group: 缺一门 (``void_suit``: the core's
    ``void_suits`` for the core groups, the least over the suits the hand may lack for
    the closed forms; a one-suit group lacks two suits anyway) and 二五八将 for every
    regular hand (``pair_258``: the pair mask of each regular group).  Under 八枝
    (``eight_of_a_suit``, 合肥) every group comes from :func:`_eight_groups` instead
    (``how`` = ``("eight", …)``).
    """
    c8 = counts
    n = int(c8.sum()) + jokers
    need = 3 * (n // 3) + 2
    base = caps
    if plan.banned:
        base = caps.copy()
        base[list(plan.banned)] = 0
    void, voids = 0, ()
    if plan.void:               # the suits the complete hand may lack (not in a meld)
        meld_suits = {t // 9 for m in melds for t in m.tiles if t < 27}
        voids = tuple(v for v in range(3) if v not in meld_suits)
        void = sum(1 << v for v in voids)
        if not voids:
            return [("small", 99, ("core", c8, _FORM_REGULAR, caps, jokers, plan.pair_mask,
                                   0))]
    if plan.eight:              # 八枝: every group by the per-suit tables
        return _eight_groups(plan, c8, base, melds, jokers, prune, voids, void)
    seven_here = plan.seven and not melds and need == 14
    strict = _MASK_258 if plan.strict else None
    out = []
    reg = _FORM_REGULAR
    jk_small = jokers
    c_small = c8
    split_seven = False
    if plan.one_joker and jokers > 1:
        jk_small = 1
        dead = next((k for k in range(N_KINDS) if base[k] == 0
                     and int(c8[k]) + jokers - 1 <= 4), None)
        if dead is not None:
            c_small = c8.copy()
            c_small[dead] += jokers - 1
        else:                     # no free kind to hold them: count them as wild (a bound)
            jk_small = jokers
        split_seven = seven_here
    mask = reg | (_FORM_SEVEN if seven_here and not split_seven else 0)
    best = _eff.shanten_one(c_small, mask, plan.quads, base, jk_small, False,
                            pair_mask=plan.pair_mask, void_suits=void)
    out.append(("small", best, ("core", c_small, mask, base, jk_small, plan.pair_mask,
                                void)))
    if split_seven:
        s = _eff.shanten_one(c8, _FORM_SEVEN, plan.quads, base, jokers, False,
                             void_suits=void)
        out.append(("seven_pairs", s, ("core", c8, _FORM_SEVEN, base, jokers, None, void)))
        best = min(best, s)
    closed = _closed_families(plan, melds, need)
    if closed:
        cl = c8.tolist()
        bl = base.tolist()
        for fam in closed:
            s = _closed_best(fam, cl, bl, need, jokers, voids, strict)
            out.append((fam, s, ("closed", fam, bl, voids, strict)))
            best = min(best, s)
    if plan.groups:
        meld_groups = {t // 9 if t < 27 else 3 for m in melds for t in m.tiles}
        for name, g in plan.groups:
            if meld_groups - {g}:
                continue
            lo, hi = _GROUP_SPAN[g]
            if prune is not None:
                lb = need - int(c8[lo:hi].sum()) - jokers - 1
                if lb > best or (prune and lb == best):
                    continue          # at least the tiles outside the group must go
            cg = _group_caps(plan, base, g)
            s = _eff.shanten_one(c8, reg, False, cg, jokers, False, pair_mask=strict)
            out.append((name, s, ("core", c8, reg, cg, jokers, strict, 0)))
            best = min(best, s)
    return out


def _b258_batch(counts: np.ndarray, jk: np.ndarray | None, rs: Any,
                out: np.ndarray) -> np.ndarray:
    """:func:`shanten_batch` under a ``pair_258_small`` ruleset (rows without melds):
    every group of :func:`_b258_groups` over all rows at once (a core batch call per
    core group, the closed forms in NumPy), then the least per row."""
    plan = _plan258(rs)
    n = counts.shape[0]
    sizes = counts.sum(axis=1, dtype=np.int64) + (0 if jk is None else jk.astype(np.int64))
    bad = np.flatnonzero((counts.max(axis=1, initial=0) > 4) | (sizes % 3 == 0)
                         | (sizes > 17))
    if bad.size:
        i = int(bad[0])
        raise _core_error(counts[i], _ERR_BAD_COUNT if counts[i].max() > 4 else _ERR_BAD_SIZE,
                          where=f"row {i}: ", jokers=0 if jk is None else int(jk[i]))
    if plan.row_by_row or (plan.one_joker and jk is not None and (jk > 1).any()):
        # dead jokers, 缺一门, 二五八将 on every regular group: row by row
        for i in range(n):
            out[i] = _b258_shanten(plan, counts[i], plan.copies, (),
                                   0 if jk is None else int(jk[i]))
        return out
    base = plan.copies.copy()
    if plan.banned:
        base[list(plan.banned)] = 0
    mask = _FORM_REGULAR | (_FORM_SEVEN if plan.seven else 0)    # 7 pairs: 14-tile rows only
    _eff.shanten_many(counts, mask, plan.quads, out, jk, False, caps=base,
                      pair_mask=plan.pair_mask)
    tmp = np.empty(n, np.int8)
    for _, g in plan.groups:
        _eff.shanten_many(counts, _FORM_REGULAR, False, tmp, jk, False,
                          caps=_group_caps(plan, base, g))
        np.minimum(out, tmp, out=out)
    j = np.zeros(n, np.int64) if jk is None else jk.astype(np.int64)
    need = 3 * (sizes // 3) + 2
    c = counts.astype(np.int64)
    b = base.astype(np.int64)
    if plan.j258:
        k258 = list(_KINDS_258)
        if int(b[k258].sum()) >= int(need.max(initial=0)):
            kept = np.minimum(need, np.minimum(c[:, k258], b[k258]).sum(axis=1))
            np.minimum(out, np.maximum(-1, need - kept - j - 1), out=out)
    if plan.pungs:
        for m in np.unique((need - 2) // 3):
            rows = np.flatnonzero((need - 2) // 3 == m)
            kept = _pungs_kept_rows(c[rows], b, int(m))
            if kept is not None:
                s = np.maximum(-1, need[rows] - kept - j[rows] - 1)
                out[rows] = np.minimum(out[rows], s)
    return out


def _pungs_kept_rows(c: np.ndarray, caps: np.ndarray, m: int) -> np.ndarray | None:
    """:func:`_pungs_kept` for every row of ``c`` (int64 (N, 34)); None when the caps
    leave too few kinds (then no row has an all-pungs target)."""
    e3 = int((caps >= 3).sum())
    if e3 - 1 < m:
        return None
    v3 = np.where(caps >= 3, np.minimum(c, 3), -100)
    v2 = np.where(caps >= 2, np.minimum(c, 2), -100)
    srt = -np.sort(-v3, axis=1)
    top = srt[:, :m].sum(axis=1)
    nxt = srt[:, m] if m < srt.shape[1] else np.zeros(len(c), np.int64)
    last = srt[:, m - 1] if m else np.full(len(c), 100)
    # a kind in the top m (value >= the m-th) gives up its slot to the next value
    in_top = (v3 >= last[:, None]) & (caps >= 3)[None, :] & (m > 0)
    got = np.where(in_top, top[:, None] - v3 + nxt[:, None], top[:, None]) + v2
    got = np.where((caps >= 2)[None, :], got, -100)
    return got.max(axis=1)


def _b258_shanten(plan: _Plan258, counts, caps, melds, jokers) -> int:
    return min(s for _, s, _ in _b258_groups(plan, counts, caps, melds, jokers, prune=True))


def _b258_effective(plan: _Plan258, counts: np.ndarray, caps: np.ndarray, melds: tuple,
                    jokers: int) -> tuple[int, set]:
    """(shanten, effective kinds) of a 3n+1 hand.

    A kind is effective iff drawing it lowers the least shanten over the groups.  Only
    groups AT the minimum can: drawing one tile raises the tiles a complete target
    keeps by at most one and leaves ``need`` unchanged, so every group's shanten
    drops by 0 or 1; a group above the minimum ``m`` stays at ``m`` or more, so the
    minimum falls below ``m`` iff some group at ``m`` falls.  The effective kinds are
    therefore the union of the effective kinds of the groups at the minimum (a core
    ukeire call per core group, a draw-by-draw check of the closed forms), each
    limited to kinds that can be drawn (``counts < caps``).
    """
    groups = _b258_groups(plan, counts, caps, melds, jokers, prune=False)
    m = min(s for _, s, _ in groups)
    eff: set = set()
    if m >= 99:
        return m, eff
    need = 3 * ((int(counts.sum()) + jokers) // 3) + 2
    for _, s, how in groups:
        if s == m:
            _group_effective(plan, how, counts, caps, need, jokers, m, eff)
    return m, {k for k in eff if counts[k] < caps[k]}


def _group_effective(plan: _Plan258, how: tuple, counts: np.ndarray, caps: np.ndarray,
                     need: int, jokers: int, m: int, eff: set) -> None:
    """Add to ``eff`` the kinds whose draw takes one group (``how`` of
    :func:`_b258_groups`, at shanten ``m``) below ``m``.  An ``"eight"`` group (八枝)
    whose shanten equals its lower bound (the same group without 八枝) can only fall
    on a draw that lowers the bound too (the bound stays at or below the group), so
    only those draws are tried."""
    if how[0] == "core":
        _, cg, mask, capg, jk, pm, vd = how
        s2, live = _eff.ukeire_one(cg, mask, plan.quads if mask & _FORM_SEVEN else False,
                                   capg, None, jk, False, pair_mask=pm, void_suits=vd)
        eff.update(int(k) for k in np.flatnonzero(live >= 0))
        return
    cl = counts.tolist()
    if how[0] == "eight":
        _, name, bl, ms, need_g, lb, lb_how = how
        cand = range(N_KINDS)
        if lb == m:
            sub: set = set()
            _group_effective(plan, lb_how, counts, caps, need, jokers, m, sub)
            cand = sorted(sub)
        _add_lowering(cl, caps, cand, eff, m,
                      lambda c: _eight_one(plan, name, c, bl, ms, need_g, jokers))
        return
    _, fam, bl, voids, strict = how
    _add_lowering(cl, caps, range(N_KINDS), eff, m,
                  lambda c: _closed_best(fam, c, bl, need, jokers, voids, strict))


def _add_lowering(cl: list, caps: Any, cand: Any, eff: set, m: int, value: Any) -> None:
    """Add to `eff` each kind of `cand` below its cap (and not there yet) whose draw into
    the counts `cl` (restored after) brings ``value(cl)`` below `m`."""
    for k in cand:
        if cl[k] >= caps[k] or k in eff:
            continue
        cl[k] += 1
        if value(cl) < m:
            eff.add(k)
        cl[k] -= 1


def _b258_hand(hand: Any, rs: Any, jokers: Any, residue: int | None, what: str):
    """(counts, caps, melds, jokers, hand) of a hand under a ``pair_258_small`` ruleset,
    validated as the core routes validate (tile set, copies, size)."""
    if (type(hand) is np.ndarray and hand.dtype == np.uint8 and hand.shape == (N_KINDS,)
            and hand.flags.c_contiguous and type(jokers) is int and 0 <= jokers <= 8):
        n = int(hand.sum()) + jokers           # a bare vector: caps = the tile set
        copies = _plan258(rs).copies
        if (residue is None or n % 3 == residue) and n % 3 and n <= 17 \
                and not (hand > copies).any():
            return hand, copies, (), jokers, None
    if type(hand) is str and type(jokers) is int and jokers == 0:
        p = _plain_counts(hand)     # plain text of a full hand: no Hand built (issue 12)
        if p is not None and rs.hand_size <= p[1] <= rs.hand_size + 1 and (
                residue is None or p[1] % 3 == residue):
            copies = _plan258(rs).copies
            if not (p[0] > copies).any():
                return p[0], copies, (), 0, None
    counts, _, h, jokers = _prepare(hand, _check_jokers(jokers), rs.hand_size)
    if counts.max(initial=0) > 4:
        raise _core_error(counts, _ERR_BAD_COUNT)
    n = int(counts.sum()) + jokers
    if residue is not None and (n % 3 != residue or n > 17):
        raise InvalidHandError(f"{what} (3n+{residue} tiles, at most 17), got {n}")
    if n % 3 == 0 or n > 17:
        raise _core_error(counts, _ERR_BAD_SIZE, jokers=jokers)
    copies = _plan258(rs).copies
    if (h is None or not h.melds) and not (counts > copies).any():
        return counts, copies, (), jokers, h          # no melds: caps = the tile set
    caps = _shape_options(rs, counts, h)["caps"]
    return counts, caps, (() if h is None else h.melds), jokers, h


def _b258_per_family(hand: Any, ruleset: Any, jokers: int = 0) -> dict[str, int]:
    """``{group: shanten}`` of a hand under a ``pair_258_small`` ruleset (every group of
    :func:`_b258_groups`, for the CLI's per-form table); 99 = impossible."""
    rs = _get_ruleset(ruleset)
    counts, caps, melds, jokers, _ = _b258_hand(hand, rs, jokers, None, "")
    plan = _plan258(rs)
    out = {}
    small = "small (2-5-8 pair)" if plan.pair_mask is not None else "regular"
    for name, s, how in _b258_groups(plan, counts, caps, melds, jokers):
        if name == "small" and how[0] == "core" and how[2] & _FORM_SEVEN:   # split the call
            _, cg, mask, capg, jk, pm, vd = how
            out[small] = int(_eff.shanten_one(cg, _FORM_REGULAR, False, capg, jk, False,
                                              pair_mask=pm, void_suits=vd))
            out["seven_pairs"] = int(_eff.shanten_one(cg, _FORM_SEVEN, plan.quads, capg, jk,
                                                      False, void_suits=vd))
        else:
            out[small if name == "small" else name] = int(s)
    return out


def _b258_ukeire(hand: Any, rs: Any, visible: Any, jokers: int, indicator: Any) -> dict:
    counts, caps, melds, jokers, h = _b258_hand(
        hand, rs, jokers, 1, "ukeire needs a hand waiting for a draw; for a hand that must "
        "discard use discard_table()")
    vis = _visible(visible, h, counts)
    plan = _plan258(rs)
    s, eff = _b258_effective(plan, counts, caps, melds, jokers)
    jk = None
    if rs.jokers is not None and (indicator is not None or rs.jokers.source == "fixed"):
        jk = rs.joker_kind(indicator)
    out = {}
    for k in sorted(eff):
        if k == jk:
            continue
        live = int(caps[k]) - int(counts[k]) - (0 if vis is None else int(vis[k]))
        out[tile_name(k)] = max(0, live)
    if jk is not None and jokers < 8 and s < 99:
        if _b258_shanten(plan, counts, caps, melds, jokers + 1) < s:
            seen = 0 if vis is None else int(vis[jk])
            out[tile_name(jk) + "*"] = max(0, rs.jokers.copies - jokers - seen)
    return out


def _b258_columns(hand: Any, rs: Any, visible: Any, jokers: int) -> tuple:
    """:func:`discard_columns` under a ``pair_258_small`` ruleset (``improvement`` NaN:
    the two-step value is not computed over the combined shapes)."""
    from .tiles import format_counts
    counts, caps, melds, jokers, h = _b258_hand(
        hand, rs, jokers, 2, "a discard table needs a hand that must discard; for a hand "
        "waiting for a draw use ukeire()")
    vis = _visible(visible, h, counts)
    plan = _plan258(rs)
    names, sh, kinds, count, texts = [], [], [], [], []
    work = counts.copy()
    for d in np.flatnonzero(counts):
        d = int(d)
        work[d] -= 1
        s, eff = _b258_effective(plan, work, caps, melds, jokers)
        work[d] += 1
        e = np.zeros(N_KINDS, np.uint8)
        total = 0
        for k in eff:
            e[k] = 1
            # the discard is seen: for its kind, held - 1 + 1 seen = the copies before
            total += max(0, int(caps[k]) - int(work[k]) - (0 if vis is None else int(vis[k])))
        names.append(tile_name(d))
        sh.append(s)
        kinds.append(len(eff))
        count.append(total)
        texts.append(format_counts(e))
    return (names, np.array(sh, np.int64), np.array(kinds, np.int64),
            np.array(count, np.int64), texts, np.full(len(names), np.nan))


def _regional(ruleset: Any, forms: Any):
    """The ruleset when its shape rules need :mod:`majiang.rules.shapes` (jokers with a
    shape rule or a reduced tile set, extra forms such as 十三烂, ``no_void``), else None.

    Extension point for regional rulesets: the core stays ruleset-free; void suits,
    2-5-8 pairs and reduced tile sets are core options (:func:`_shape_options`); a
    ruleset whose winning shapes the core cannot express is computed by the exact
    Python engine of :mod:`majiang.rules.shapes` (checked against the core where both
    apply, tests/test_shape_core.py).
    """
    how, r = _route(ruleset, forms)
    return r if how == "python" else None


def _shape_options(rs: Any, counts: np.ndarray, h: Hand | None) -> dict:
    """Core keyword options ``{caps, pair_mask, void_suits}`` of ruleset `rs` for this hand:
    caps = tile-set copies less the copies in the melds, the 2-5-8 pair mask, and the
    void-suit bits less the suits the melds already hold (from the game model).

    Raises
    ------
    InvalidHandError
        A tile outside the ruleset's tile set, or more copies than the set leaves.
    """
    from .rules.model import game_model
    melds = () if h is None else h.melds
    copies = np.asarray(rs.copies)
    bad = [int(k) for k in np.flatnonzero(counts) if copies[k] == 0]
    bad += [m.tile for m in melds if copies[m.tile] == 0]
    if bad:
        raise InvalidHandError(f"{tile_name(bad[0])} is not in the tile set of ruleset "
                               f"{rs.name} ({rs.tiles})")
    locked = np.zeros(N_KINDS, np.int16)
    for m in melds:
        for t in m.tiles:
            locked[t] += 1
    if np.any(locked > copies):
        k = int(np.argmax(locked > copies))
        raise InvalidHandError(f"melds hold more {tile_name(k)} than ruleset {rs.name} has")
    shape = game_model(rs).shape(melds)
    over = counts > shape.caps
    if over.any():
        k = int(np.argmax(over))
        raise InvalidHandError(f"{int(counts[k])} copies of {tile_name(k)}: the ruleset's "
                               f"tile set leaves {int(shape.caps[k])}")
    return {"caps": shape.caps, "pair_mask": shape.pair_mask, "void_suits": shape.void_suits}


def _no_whole(mask: int, h: Hand | None) -> int:
    """Seven pairs, thirteen orphans and 全不靠 need the whole hand concealed: off with melds."""
    return mask & ~_WHOLE_HAND if h is not None and h.melds else mask


def _regional_jokers(ruleset: Any, forms: Any, indicator: Any):
    """:func:`_regional`, or the ruleset when its joker kind is known (fixed, or from
    `indicator`) so ukeire can list a joker draw."""
    rs = _regional(ruleset, forms)
    if rs is None:
        r = _resolved(ruleset, forms)
        if r.jokers is not None and (indicator is not None or r.jokers.source == "fixed"):
            rs = r
    return rs


def _check_indicator(hand: Any, ruleset: Any, indicator: Any) -> Any:
    """The hand with its wild tiles read from their faces (:func:`read_faces`), after
    checking a turned `indicator`: a tile (also under a ruleset whose jokers do not need
    one, or without a ruleset), in the ruleset's tile set, and refused for a fixed joker.

    Raises
    ------
    RuleError, InvalidNotationError
        An indicator that is not a tile, not in the tile set, or given for a fixed joker.
    InvalidHandError
        As :func:`read_faces`.
    """
    if indicator is None:
        return read_faces(hand, ruleset, None)
    from .rules.model import _kind_of, game_model
    _kind_of(indicator)     # a tile even where nothing reads it (40, 'zz': errors)
    if ruleset is None:
        return hand
    model = game_model(ruleset)
    if model.jokers is None:
        return hand
    if model.jokers.source == "fixed":
        raise RuleError(f"{model.name}'s joker kind is fixed ({tile_name(model.jokers.fixed)}):"
                        " no indicator is turned; leave the indicator out")
    return read_faces(hand, ruleset, indicator)


def read_faces(hand: Any, ruleset: Any, indicator: Any = None) -> Any:
    """A hand written as its tiles look, read under a joker ruleset: the one notation of
    every front door (shanten, ukeire, discard tables, advise, the probabilities, the
    scoring through :mod:`majiang.scoring.faces`).

    Once the wild kinds are known (:meth:`GameModel.joker_kinds`: a fixed joker such as
    杭州 白板, or the turned `indicator`: 天津 1m turned = 1m and 2m 混儿), every concealed
    tile of a wild kind IS a joker, exactly as a ``*`` (a joker whose face is not given);
    both may be mixed.  A stand-in (:attr:`JokerRule.substitute`: 安庆 红中, 温州 / 上海百搭
    活动百搭 / 杭州 翻财神 白板) is written as the tile it is (``7z``, ``5z``) and plays as
    the wild kind's face, in the concealed tiles and in a pung or kong.  Without a ruleset,
    without jokers, or with a turned joker and no indicator, the hand is returned as given.

    Returns
    -------
    Hand or the input
        A :class:`~majiang.hand.Hand` with the wild faces moved to ``jokers`` and the
        stand-ins moved to the face; the input itself when nothing changes (and for a
        count vector, which has no place for jokers: pass ``jokers=``).

    Raises
    ------
    InvalidHandError
        More tiles of a wild kind than its wild copies in play (天津 1m turned: 3), more
        jokers than the ruleset has, or more stand-ins than the wall holds.
    """
    if ruleset is None or not isinstance(hand, (str, Hand)):
        if indicator is not None and ruleset is not None and not isinstance(hand, (str, Hand)):
            _refuse_wild_counts(hand, ruleset, indicator)
        return hand
    jr = _get_ruleset(ruleset).jokers
    if jr is None or (indicator is None and jr.source != "fixed"):
        return hand
    from .rules.model import game_model
    model = game_model(ruleset)
    h = hand if isinstance(hand, Hand) else as_hand(hand, strict=False)
    kinds = model.joker_kinds(indicator)
    wall = model.wall(indicator)
    conc = np.array(h.concealed, dtype=np.uint8)
    melds = h.melds
    moved = 0
    for k, cp in zip(kinds, jr.kind_copies):
        n = int(conc[k])
        if n > cp:
            ind = "" if indicator is None else f" with indicator {tile_name(_kind(indicator))}"
            raise InvalidHandError(
                f"the hand holds {n} {tile_name(k)}: under {model.name}{ind} they are "
                f"jokers and {cp} of them are in play")
        moved += n
        conc[k] = 0
    sub = jr.substitute
    face = kinds[0]
    changed_melds = False
    if sub is not None and len(kinds) == 1 and sub != face:
        stand = int(conc[sub]) + sum(m.tiles.count(sub) for m in melds)
        if stand > int(wall.counts[face]):
            raise InvalidHandError(
                f"the hand holds {stand} {tile_name(sub)}: under {model.name} they are "
                f"stand-ins playing as {tile_name(face)}, and the wall holds "
                f"{int(wall.counts[face])}")
        if conc[sub]:
            conc[face] += conc[sub]
            conc[sub] = 0
            changed_melds = True
        if any(m.tile == sub and m.kind != "chow" for m in melds):
            from .hand import Meld
            melds = tuple(Meld(m.kind, face, m.concealed)
                          if m.tile == sub and m.kind != "chow" else m for m in melds)
            changed_melds = True
    if not moved and not changed_melds:
        return hand
    if h.jokers + moved > wall.jokers:
        raise InvalidHandError(f"{h.jokers + moved} jokers ('*' and wild faces) but "
                               f"{model.name} has {wall.jokers}")
    return Hand(conc, melds, h.flowers, h.jokers + moved)


def _kind(x: Any) -> int:
    from .rules.model import _kind_of
    return _kind_of(x)


def _stand_in_names(ruleset: Any, indicator: Any) -> dict:
    """``{face name: stand-in name}`` when a stand-in plays as the wild kind's face under
    `ruleset` and `indicator` (安庆 红中 as the 钻牌's face; :func:`read_faces` moved the
    held stand-ins to the face, whose other copies are all jokers): a discard of the face
    is a discard of the stand-in, shown by the tile's own name.  Empty otherwise."""
    if ruleset is None:
        return {}
    rs = _get_ruleset(ruleset)
    if rs.jokers is None or rs.jokers.substitute is None:
        return {}
    from .rules.shapes import stand_in
    si = stand_in(rs, indicator)
    return {} if si is None else {tile_name(si[0]): tile_name(si[1])}


def _refuse_wild_counts(hand: Any, ruleset: Any, indicator: Any) -> None:
    """A count vector (34,) has no place for jokers: a wild kind in it is refused, beyond
    the stand-ins the wall holds (安庆: a count of the 钻牌's face is a 红中 playing as it)."""
    from .rules.model import game_model
    model = game_model(ruleset)
    if model.jokers is None or model.jokers.source == "fixed":
        return
    conc = np.asarray(hand)
    if conc.shape != (N_KINDS,):
        return
    wall = model.wall(indicator)
    for k in wall.joker_kinds:
        if int(conc[k]) > int(wall.counts[k]):
            raise InvalidHandError(
                f"the counts hold {int(conc[k])} {tile_name(k)}, a wild kind under "
                f"indicator {tile_name(_kind(indicator))}: count its copies in jokers=")


def _hand_size(ruleset: Any) -> int:
    """13, or the ruleset's hand size (16 for 台湾/罗源)."""
    if ruleset is None:
        return 13
    return _get_ruleset(ruleset).hand_size


def _ruleset_fifth(ruleset: Any, joker_fifth_copy: bool) -> bool:
    if ruleset is None or joker_fifth_copy:
        return joker_fifth_copy
    r = _get_ruleset(ruleset)
    return bool(r.jokers is not None and r.jokers.fifth_copy)


def _check_jokers(jokers: Any) -> int:
    if isinstance(jokers, (bool, np.bool_)) or not isinstance(jokers, (int, np.integer)):
        raise RuleError(f"jokers must be an integer count, got {jokers!r}")
    if not 0 <= jokers <= 8:
        raise RuleError(f"jokers must be between 0 and 8, got {jokers}")
    return int(jokers)


def shanten(hand: Any, *, forms: Sequence[str] | None = None,
            seven_pairs_quads: bool | None = None, jokers: int = 0,
            joker_fifth_copy: bool = False, ruleset: Any = None,
            indicator: Any = None) -> int:
    """Shanten number (向听数) of a hand: −1 complete, 0 tenpai.

    Parameters
    ----------
    hand : str, Hand or array_like of shape (34,)
        13/14 tiles counting melds and jokers (or any 3n+1 / 3n+2 concealed vector).
    forms : sequence of str, optional
        Narrow the ruleset's winning forms to these (see :data:`FORMS`); the result is
        the minimum over them.  Every other rule of the ruleset stays (tile set, void
        suit, 2-5-8 pair, jokers).  Default: all the ruleset's forms.
    seven_pairs_quads : bool, optional
        Whether four of a kind counts as two pairs in seven pairs.  Default: the
        ruleset's choice (True under Chinese Official rules, False under ``"plain"``).
    jokers : int
        Wild tiles (钻牌/财神/百搭/混儿/赖子/金) held beside the 34 kinds, 0..8.
        Each joker stands for any one tile.  They count toward the hand exactly as
        ``*`` in the string does: ``shanten("123m456p789s112z", jokers=1)`` is
        ``shanten("123m456p789s112z*")``.
    joker_fifth_copy : bool
        Whether a joker may stand for a fifth copy of a kind (regular form only).
    ruleset : str or Ruleset, optional
        The rules: winning forms and shape rules (tile set, void suit, 2-5-8 pair;
        see the module notes), e.g. ``shanten("123m456p789s1155s", ruleset="sichuan")``
        is 3 (one suit must go).  Default ``None``: Chinese Official rules (``"mcr"``:
        the five forms, a quad counting as two pairs), as :func:`majiang.score`;
        ``"plain"`` is the riichi-style regular / distinct seven pairs / thirteen
        orphans of other shanten libraries.
    indicator : str or int, optional
        With a joker ruleset: the turned indicator.  Every joker is simply wild, so
        the number does not depend on it; it is checked (a tile of the ruleset's
        set) and the hand is read by its faces (:func:`read_faces`: a tile of a wild kind
        is a joker, as ``*``; a stand-in plays as the wild kind's face).  Ignored
        without jokers.

    Returns
    -------
    int
        The shanten number; ``99`` if no arrangement of the forms exists at all
        (e.g. only seven pairs asked for a hand with melds).

    Raises
    ------
    InvalidHandError
        A fifth copy, a tile count that is not 3n+1 / 3n+2, a bad array; under a
        ruleset, a tile outside its tile set.
    InvalidNotationError
        An unparsable string.
    RuleError
        An unknown ruleset, a form the ruleset does not have, a bad joker count.
    """
    named = ruleset is not None
    if forms is None and seven_pairs_quads is None:
        # the default ruleset's record, kept; a named one's, looked up once (issue 12)
        rec = _default_rule() if ruleset is None else _rule(ruleset)
    else:
        rec = _rule_of(_resolved(ruleset, forms, seven_pairs_quads))
    ruleset = rec.rs
    how = rec.how
    if indicator is not None:
        hand = _check_indicator(hand, ruleset, indicator)     # wild tiles by their faces
    elif ruleset.jokers is not None:
        hand = read_faces(hand, ruleset)        # a fixed joker's faces are jokers
    if named:           # no ruleset given: generic jokers allowed
        _jokers_allowed(ruleset, hand, jokers)
    if how == "python":
        from .rules.shapes import ruleset_shanten
        return ruleset_shanten(hand, ruleset, jokers=_check_jokers(jokers))
    if how == "b258":
        counts, caps, melds, jk, _ = _b258_hand(hand, ruleset, jokers, None, "")
        return _b258_shanten(_plan258(ruleset), counts, caps, melds, jk)
    if how == "core":
        if not jokers and type(hand) is str:
            # quick path: plain text of a full hand within the tile set, no melds
            p = _plain_counts(hand)
            if (p is not None and rec.size <= p[1] <= rec.size + 1
                    and not (p[0] > rec.caps).any()):
                s = _eff.shanten_one(p[0], rec.mask, rec.quads, rec.caps, 0, False,
                                     pair_mask=rec.pair_mask, void_suits=rec.void)
                if s >= -1:
                    return s
        mask, quads, counts, caps, h, jokers, extra = _hand_query(
            hand, None, "", None, None, ruleset, jokers, shape=True)
        s = _eff.shanten_one(counts, mask, quads, caps, jokers, False, **extra)
        if s < -1:
            raise _core_error(counts, s, jokers=jokers)
        return s
    # the ruleset's (narrowed) forms and options, all read once in its record
    joker_fifth_copy = joker_fifth_copy or rec.fifth
    seven_pairs_quads = rec.quads
    mask = rec.mask if rec.mask is not None else form_mask(ruleset.forms)
    size = rec.size
    if not jokers:
        # quick paths: a count vector (any 3n+1 / 3n+2 size); plain text or a Hand
        # without melds of 13/14 tiles when that is the ruleset's hand size
        if type(hand) is np.ndarray:
            s = _eff.shanten_fast(hand, mask, seven_pairs_quads)
        elif size != 13:
            s = -200
        elif type(hand) is Hand:
            s = (_eff.shanten_fast(hand.concealed, mask, seven_pairs_quads, 13)
                 if not hand.melds and not hand.jokers else -200)
        else:
            s = _eff.shanten_fast(hand, mask, seven_pairs_quads)
        if s >= -1:
            return s
    jokers = _check_jokers(jokers)
    counts, caps, h, jokers = _prepare(hand, jokers, size)
    s = _eff.shanten_one(counts, _no_whole(mask, h), seven_pairs_quads, caps, jokers,
                         joker_fifth_copy)
    if s < -1:
        raise _core_error(counts, s, jokers=jokers)
    return s


def shanten_batch(counts: Any, *, forms: Sequence[str] | None = None,
                  seven_pairs_quads: bool | None = None, n_jobs: int | None = 1,
                  jokers: Any = None, joker_fifth_copy: bool = False,
                  ruleset: Any = None) -> np.ndarray:
    """Shanten of every row of a batch of concealed count vectors.

    Parameters
    ----------
    counts : array_like of shape (N, 34)
        Integer counts 0..4 per kind; each row holds 3n+1 or 3n+2 tiles (≤ 17).
        A C-contiguous ``uint8`` array is used without a copy.
    forms, seven_pairs_quads, ruleset
        As in :func:`shanten` (default: Chinese Official rules; ``forms`` narrows the
        ruleset's forms).  A ruleset's shape rules apply to every row as to a
        hand without melds: its tile set (a row may not hold a kind outside it),
        void suit and 2-5-8 pair in the core; rulesets with jokers and shape rules or
        extra forms (十三烂) by the compiled shape engine of :mod:`majiang.rules.shapes`.
    n_jobs : int or None
        Threads (the kernel releases the GIL): ``None`` lets the function choose (one
        worker for small inputs, up to every core for big ones), ``-1`` allows every
        core, ``k >= 1`` at most ``k`` workers; the result does not depend on it.
        Here ``None`` takes the cores not busy with other processes (by the load
        average), and a thread gets at least 8192 rows, so small batches run on one
        thread; threads come from a pool kept for the process.
    jokers : int or array_like of shape (N,), optional
        Wild tiles held beside each row (0..8), as in :func:`shanten`.
    joker_fifth_copy : bool
        As in :func:`shanten`.

    Returns
    -------
    numpy.ndarray
        ``int8`` array of shape ``(N,)``.

    Raises
    ------
    InvalidHandError
        The message names the first bad row and tile.
    """
    rec = _rule_of(_resolved(ruleset, forms, seven_pairs_quads))
    how, rs = rec.how, rec.rs
    seven_pairs_quads = rec.quads
    joker_fifth_copy = joker_fifth_copy or rec.fifth
    # b258 / python: their own shapes (extra forms such as 十三烂 are no core form bits)
    mask = form_mask(rs.forms) if how not in ("b258", "python") else _FORM_REGULAR
    if not (type(counts) is np.ndarray and counts.dtype == np.uint8 and counts.ndim == 2
            and counts.shape[1] == N_KINDS and counts.flags.c_contiguous):
        counts = as_counts_batch(counts)
    n = counts.shape[0]
    extra: dict = {}
    if how is not None:
        copies = np.asarray(rs.copies)
        over = counts > copies
        if over.any():
            i, k = (int(x) for x in np.argwhere(over)[0])
            raise InvalidHandError(f"row {i}: {int(counts[i, k])} copies of {tile_name(k)}: "
                                   f"the tile set of ruleset {rs.name} has {int(copies[k])}")
        if how == "core":
            extra = _shape_options(rs, np.zeros(N_KINDS, np.uint8), None)
    out = np.empty(n, dtype=np.int8)
    jk = None
    if jokers is not None:
        jk = np.asarray(jokers)
        if jk.ndim == 0:
            jk = np.full(n, _check_jokers(jk.item() if jk.dtype.kind in "iu" else jokers),
                         np.uint8)
        elif jk.shape != (n,) or jk.dtype.kind not in "iu" or (n and (jk.min() < 0
                                                                     or jk.max() > 8)):
            raise RuleError(f"jokers must be an integer 0..8 or an integer array of shape "
                            f"({n},) with values 0..8")
        jk = np.ascontiguousarray(jk, dtype=np.uint8)
    jobs = resolve_n_jobs(n_jobs)
    if how == "python":
        return _batch_python(counts, jk, rs, out)
    if how == "b258":       # the groups of _b258_groups, each over the whole batch
        return _b258_batch(counts, jk, rs, out)
    if n_jobs is None and n >= 2 * _ROWS_PER_THREAD:
        jobs = min(_spare_cores(jobs), _runnable_cores(jobs))
    jobs = min(jobs, n // _ROWS_PER_THREAD)
    if jobs <= 1:
        bad = _eff.shanten_many(counts, mask, seven_pairs_quads, out, jk, joker_fifth_copy,
                                **extra)
    else:
        bounds = np.linspace(0, n, jobs + 1, dtype=np.int64)

        def run(lo: int, hi: int) -> int:
            local = _eff.shanten_many(counts[lo:hi], mask, seven_pairs_quads, out[lo:hi],
                                      None if jk is None else jk[lo:hi], joker_fifth_copy,
                                      **extra)
            return lo + local if local >= 0 else -1

        bads = [b for b in _pool(jobs).map(run, bounds[:-1], bounds[1:]) if b >= 0]
        bad = min(bads) if bads else -1
    if bad >= 0:
        row = counts[bad]
        code = _ERR_BAD_COUNT if row.max() > 4 else _ERR_BAD_SIZE
        raise _core_error(row, code, where=f"row {bad}: ",
                          jokers=0 if jk is None else int(jk[bad]))
    return out


def _batch_python(counts: np.ndarray, jk: np.ndarray | None, rs: Any,
                  out: np.ndarray) -> np.ndarray:
    """The rows through the compiled shape engine of :mod:`majiang.rules.shapes`
    (shape rules the core lacks; equal to its Python engine, tests/test_shapes_core.py)."""
    from .rules.shapes import _spec, core_shanten_batch
    out[:] = core_shanten_batch(counts, jk, _spec(rs))     # the spec compiled once per ruleset
    return out


def _hand_query(hand: Any, residue: int | None, what: str, forms, seven_pairs_quads, ruleset,
                jokers: Any = 0, shape: bool = False):
    """Shared prologue of the single-hand functions: resolve the forms, validate the
    hand, and require ``(tiles + jokers) % 3 == residue`` (1: waiting for a draw,
    2: must discard; None: either).  With ``shape`` and a ruleset whose shape rules
    the core computes (:func:`_route`), the caps come from its tile set and the
    extra core options from :func:`_shape_options`.  Returns ``(mask, quads, counts,
    caps, hand, jokers, extra)``; ``extra`` holds the keyword options of the kernels
    (empty without shape rules).  Seven pairs / thirteen orphans / 全不靠 are dropped
    from ``mask`` for a hand with melds."""
    extra: dict = {}
    rec = _rule_of(_resolved(ruleset, forms, seven_pairs_quads))
    rs = rec.rs if shape and rec.how is not None else None
    seven_pairs_quads = rec.quads
    mask = rec.mask if rec.mask is not None else form_mask(rec.rs.forms)
    jokers = _check_jokers(jokers)
    counts, caps, h, jokers = _prepare(hand, jokers, rec.size)
    if counts.max(initial=0) > 4:
        raise _core_error(counts, _ERR_BAD_COUNT)
    n = int(counts.sum()) + jokers
    if residue is not None and (n % 3 != residue or n > 17):
        raise InvalidHandError(f"{what} (3n+{residue} tiles, at most 17), got {n}")
    if rs is not None:
        extra = _shape_options(rs, counts, h)
        caps = extra.pop("caps")
    return _no_whole(mask, h), seven_pairs_quads, counts, caps, h, jokers, extra


_ROWS_PER_THREAD = 8192
"""Fewest rows given a thread of their own by :func:`shanten_batch`.  Measured on 2 cores
with the reused pool (bench/bench_api.py): two threads of 2.5k rows each lose to one
thread, of 5k rows each already win (41 against 58 ns/hand); 8k leaves a margin for a
busy machine."""
_POOLS: dict[int, ThreadPoolExecutor] = {}


def _spare_cores(cores: int) -> int:
    """Cores not already busy (``cores`` less the 1-minute load average, this process
    counted as one of ours): with every core taken by other processes, extra threads
    only share them and a batch gets slower than on one thread."""
    import os
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return cores
    return max(1, min(cores, int(cores - load + 1.5)))


def _runnable_cores(cores: int) -> int:
    """Cores not running another task right now (Linux: the runnable count of
    ``/proc/loadavg``, this thread included; elsewhere ``cores``).  The load average
    lags a minute behind: on 2 cores at a load of 4, two threads ran a batch 1.1-3x
    slower than one (bench/bench_api.py)."""
    try:
        with open("/proc/loadavg") as f:
            running = int(f.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return cores
    return max(1, min(cores, cores - running + 1))


def _pool(jobs: int) -> ThreadPoolExecutor:
    """A thread pool of ``jobs`` workers, created once and reused by every batch call."""
    pool = _POOLS.get(jobs)
    if pool is None:
        from concurrent.futures import ThreadPoolExecutor   # not needed at import
        pool = _POOLS.setdefault(jobs, ThreadPoolExecutor(jobs,
                                                          thread_name_prefix="majiang"))
    return pool


def _visible_in_set(visible: Any, ruleset: Any) -> Any:
    """``visible`` at the boundary of :func:`ukeire` / :func:`discard_table` /
    :func:`discard_columns`: under a ruleset, a ``uint8 (34,)`` count vector whose kinds
    are all in the ruleset's tile set (:meth:`GameModel.check_kinds
    <majiang.rules.model.GameModel.check_kinds>`, the check the CLI's ``--visible``
    uses); unchanged without a ruleset or visible tiles.

    Raises
    ------
    InvalidHandError
        A visible kind outside the tile set (4z under a 108-tile ruleset), bad counts.
    InvalidNotationError
        Unreadable text.
    """
    if visible is None or ruleset is None:
        return visible
    from .rules.model import game_model
    v = visible_counts(visible)
    game_model(ruleset).check_kinds(v, "visible")
    return v


def _seen_indicator(visible: Any, ruleset: Any, indicator: Any) -> Any:
    """``visible`` plus the turned indicator the game model sets apart from the wall
    (:meth:`majiang.rules.model.GameModel.set_apart`: 安庆 / 武汉, joker = indicator + 1),
    so that the live counts are those of :meth:`GameModel.wall` as in the probabilities;
    unchanged without a ruleset or indicator."""
    if indicator is None or ruleset is None:
        return visible
    from .rules.model import game_model
    return game_model(ruleset).seen_with_indicator(visible, indicator)


def _visible(visible: Any, hand: Hand | None, counts: np.ndarray) -> np.ndarray | None:
    """The visible tiles as a ``uint8 (34,)`` vector checked with the hand (hand + visible
    within 4 copies a kind; :func:`majiang.hand.visible_counts`); None for none."""
    if visible is None:
        return None
    if hand is None:
        hand = Hand(counts)
    v = visible_counts(visible, hand)
    return np.ascontiguousarray(v, dtype=np.uint8)


def ukeire(hand: Any, visible: Any = None, *, forms: Sequence[str] | None = None,
           seven_pairs_quads: bool | None = None, jokers: int = 0,
           joker_fifth_copy: bool = False, ruleset: Any = None,
           indicator: Any = None) -> dict[str, int]:
    """Effective tiles (有效牌) of a 3n+1 hand with their live counts.

    Parameters
    ----------
    hand : str, Hand or array_like of shape (34,)
        A hand waiting for a draw (13 tiles counting melds, or 3n+1 concealed).
    visible : str or array_like of shape (34,), optional
        Every tile the player sees besides the hand (discards, others' exposed
        melds, indicators).  Hand + visible may not exceed 4 copies of a kind; under
        a ruleset every visible kind must be in its tile set.
    forms, seven_pairs_quads, jokers, joker_fifth_copy, ruleset
        As in :func:`shanten` (default: Chinese Official rules, ``"mcr"``; ``forms``
        narrows the ruleset's forms).  With jokers, only real kinds are listed (a drawn
        joker always lowers the shanten; the ruleset knows which kind it is).
    indicator : str or int, optional
        With a joker ruleset: the turned indicator, so the joker kind is known; it is
        then listed as ``"<kind>*"`` when drawing a joker helps, and its natural
        copies are not listed as ordinary tiles.  (Fixed jokers such as 红中 need none.)
        A substitute kind (:attr:`JokerRule.substitute`: 安庆 红中, 温州 / 上海百搭 白板)
        is drawn as the joker kind's face: that draw is listed under the substitute's
        own name (``"7z"``, ``"5z"``: the tile the player draws; in the hand it is
        written as itself too, :func:`read_faces`), live = its copies − the stand-ins
        held − the visible substitutes.  Under a three-joker win (罗源 三金倒, 温州 三财神) the shanten
        counts the draws to a third joker too (:func:`majiang.rules.shapes.form_shanten`).

    Returns
    -------
    dict
        ``{tile: live}`` in tile order, e.g. ``{"1m": 3, "4m": 4, "7m": 2}``; a kind
        whose copies are all visible stays in the dict with 0.

    Raises
    ------
    InvalidHandError
        For a 3n+2 hand (use :func:`discard_table`), a fifth copy, bad counts, a
        visible kind outside the ruleset's tile set.
    """
    if (visible is None and forms is None and seven_pairs_quads is None
            and type(jokers) is int and jokers == 0 and indicator is None):
        # quick path (a ruleset whose shapes are the core's forms on the full tile set:
        # the default, "plain"): a plain count vector, plain text or a Hand of 13
        # concealed tiles, built into the dict by the core
        rec = _default_rule() if ruleset is None else _rule(ruleset)
        vec = None
        if (rec.how is None and rec.size == 13 and rec.mask is not None
                and rec.rs.jokers is None):     # a joker ruleset reads the faces first
            vec = hand
            if type(hand) is str:
                p = _plain_counts(hand)
                vec = p[0] if p is not None and p[1] == 13 else None
            elif type(hand) is Hand:
                vec = (hand.concealed if not hand.melds and not hand.jokers
                       and not hand.flowers else None)
                if vec is not None and hand.n_concealed != 13:
                    vec = None
        fast = None if vec is None else _eff.ukeire_fast(vec, rec.mask, rec.quads)
        if fast is not None:
            return fast
    generic = ruleset is None           # no ruleset given: generic jokers allowed
    ruleset = _resolved(ruleset, forms, seven_pairs_quads)
    forms = seven_pairs_quads = None
    hand = _check_indicator(hand, ruleset, indicator)     # wild tiles by their faces
    visible = _visible_in_set(visible, ruleset)
    how, rs = _route(ruleset)
    if not generic:
        _jokers_allowed(ruleset, hand, jokers)
    if how == "b258":       # 2-5-8 pair for a small win, any pair for a 大胡 shape
        return _b258_ukeire(hand, rs, _seen_indicator(visible, ruleset, indicator),
                            _check_jokers(jokers), indicator)
    rs = _regional_jokers(ruleset, forms, indicator)
    wild = None
    if rs is not None and how != "python":
        # known wild kinds under plain shapes (天津): the core, the wild kinds set aside
        wild, rs = rs.jokers, None
    if rs is not None:      # regional shape rules / joker kind: majiang.rules.shapes
        from .rules.shapes import ruleset_ukeire
        return ruleset_ukeire(hand, rs, visible, jokers=_check_jokers(jokers),
                              indicator=indicator)
    joker_fifth_copy = _ruleset_fifth(ruleset, joker_fifth_copy)
    mask, seven_pairs_quads, counts, caps, h, jokers, extra = _hand_query(
        hand, 1, "ukeire needs a hand waiting for a draw; for a hand that must discard use "
        "discard_table()", forms, seven_pairs_quads, ruleset, jokers, shape=True)
    vis = _visible(_seen_indicator(visible, ruleset, indicator), h, counts)
    s, live = _eff.ukeire_one(counts, mask, seven_pairs_quads, caps, vis, jokers,
                              joker_fifth_copy, **extra)
    if s < -1:
        raise _core_error(counts, s, jokers=jokers)
    if wild is None:
        return {tile_name(k): int(live[k]) for k in np.flatnonzero(live >= 0)}
    return _with_wild(counts, live, s, mask, seven_pairs_quads, caps, vis, jokers,
                      joker_fifth_copy, extra, wild, indicator, ruleset)


def _with_wild(counts, live, s, mask, quads, caps, vis, jokers, fifth, extra, jr, indicator,
               ruleset=None):
    """The core's ukeire under known wild kinds (as :func:`majiang.rules.shapes.ruleset_ukeire`
    lists them): the wild kinds' faces are not draws of their own; a joker draw that
    lowers the shanten is keyed ``"<kinds>*"`` with the wild copies left (minus the jokers
    held and the wild copies visible).  With a substitute kind (白板 under 上海百搭 活动百搭,
    杭州 flip; :func:`majiang.rules.shapes.stand_in`) a drawn substitute plays as the
    face: when the face would help it is listed under the substitute's own name, live =
    the face's drawable copies − face tiles held − visible substitutes."""
    from .rules.shapes import joker_draw_left, listed_draws, named_draws, stand_in
    kinds = jr.kinds(indicator)
    jk, jcopies = (kinds, jr.kind_copies) if len(kinds) > 1 else (kinds[0], jr.total_copies)
    si = None
    copies = caps_t = (4,) * N_KINDS                # plain shapes: the 136 / 144 sets
    if ruleset is not None:
        rs = _get_ruleset(ruleset)
        if jr.substitute is not None:
            si = stand_in(rs, indicator)
        if caps is not None:
            copies, caps_t = rs.copies, caps
    better = {int(k) for k in np.flatnonzero(live >= 0)}
    joker_better = (joker_draw_left(jk, jcopies, jokers)
                    and _eff.shanten_one(counts, mask, quads, caps, jokers + 1, fifth,
                                         **extra) < s)
    return named_draws(listed_draws(better, joker_better, counts, caps_t, copies, vis, jk,
                                    jcopies, si, jokers), jk)


def discard_columns(hand: Any, visible: Any, forms, seven_pairs_quads, second_order: bool,
                    jokers: int, joker_fifth_copy: bool, ruleset: Any) -> tuple:
    """The kernel's discard-table columns of a hand that must discard, core forms only
    (no regional shape rules): ``(names, shanten, ukeire_kinds, ukeire_count, ukeire,
    improvement)`` in tile order — lists of str and int64 / float64 arrays.  Shared by
    :func:`discard_table` and :func:`majiang.advise`.  Raises as :func:`discard_table`."""
    generic = ruleset is None           # no ruleset given: generic jokers allowed
    ruleset = _resolved(ruleset, forms, seven_pairs_quads)
    forms = seven_pairs_quads = None
    visible = _visible_in_set(visible, ruleset)
    how, rs = _route(ruleset)
    if not generic:
        _jokers_allowed(ruleset, hand, jokers)
    if how == "b258":       # 2-5-8 pair for a small win, any pair for a 大胡 shape
        return _b258_columns(hand, rs, visible, _check_jokers(jokers))
    joker_fifth_copy = _ruleset_fifth(ruleset, joker_fifth_copy)
    mask, seven_pairs_quads, counts, caps, h, jokers, extra = _hand_query(
        hand, 2, "a discard table needs a hand that must discard; for a hand waiting for a "
        "draw use ukeire()", forms, seven_pairs_quads, ruleset, jokers, shape=True)
    s = _eff.shanten_one(counts, mask, seven_pairs_quads, caps, jokers, joker_fifth_copy,
                         **extra)
    if s < -1:
        raise _core_error(counts, s, jokers=jokers)
    vis = _visible(visible, h, counts)
    return _eff.discard_columns(counts, mask, seven_pairs_quads, caps, vis, second_order,
                                jokers, joker_fifth_copy, **extra)


def discard_table(hand: Any, visible: Any = None, *, forms: Sequence[str] | None = None,
                  seven_pairs_quads: bool | None = None, second_order: bool = True,
                  jokers: int = 0, joker_fifth_copy: bool = False, ruleset: Any = None,
                  indicator: Any = None):
    """One row per distinct discard of a 3n+2 hand (何切), in tile order.

    Parameters
    ----------
    hand, visible, forms, seven_pairs_quads, jokers, joker_fifth_copy, ruleset
        As in :func:`ukeire` (default: Chinese Official rules).  Jokers are kept (a joker is never the advised discard
        in this table; rulesets that allow discarding one decide that themselves).
    second_order : bool
        Compute the ``improvement`` column (slower).
    indicator : str or int, optional
        As in :func:`ukeire`: with a joker ruleset the wild kinds are known, their
        natural copies are not counted as ordinary draws and a helpful joker draw
        shows as ``*`` in the ``ukeire`` column (the shape engine of
        :mod:`majiang.rules.shapes`; ``improvement`` is then NaN).

    Columns
    -------
    discard : str
        The tile discarded (Tenhou notation).
    shanten : int
        Shanten after the discard.
    ukeire_kinds : int
        Number of effective tile kinds after the discard.
    ukeire_count : int
        Live effective tiles (sum of live counts).
    ukeire : str
        The effective kinds, compact Tenhou notation (``"147m"``).
    improvement : float
        Second-order efficiency (改良/two-step): the average, weighted by live
        counts, over the effective draws of the best live ukeire reachable after
        that draw and the best discard keeping the lower shanten.  NaN when
        already tenpai (nothing further to improve) or when not computed.

    Returns
    -------
    pandas.DataFrame

    Raises
    ------
    InvalidHandError
        For a 3n+1 hand, a fifth copy, bad counts, a visible kind outside the
        ruleset's tile set.
    """
    import pandas as pd

    rsv = _resolved(ruleset, forms, seven_pairs_quads)     # None: the default ruleset
    hand = _check_indicator(hand, rsv, indicator)     # wild tiles by their faces
    rs = _regional_jokers(rsv, None, indicator)     # a fixed joker kind needs none
    if rs is not None and _route(rsv)[0] == "b258":
        rs = None           # pair_258_small: discard_columns (_b258_columns)
    if rs is not None:      # regional shape rules / joker kinds: majiang.rules.shapes
        from .rules.shapes import ruleset_discard_table
        _jokers_allowed(rsv, hand, jokers)      # as ukeire / discard_columns
        table = ruleset_discard_table(hand, rs, _visible_in_set(visible, rsv),
                                      jokers=_check_jokers(jokers), indicator=indicator)
        names = _stand_in_names(rsv, indicator)
        if names:       # a held stand-in is discarded as itself (安庆 7z, not the face)
            table["discard"] = table["discard"].replace(names)
        return table
    return _table_frame(pd, discard_columns(
        hand, _seen_indicator(visible, rsv, indicator), forms, seven_pairs_quads,
        second_order, jokers, joker_fifth_copy, ruleset))


_TABLE_COLUMNS = ["discard", "shanten", "ukeire_kinds", "ukeire_count", "ukeire",
                  "improvement"]
_FRAME_PARTS: list = []     # [column Index, the dtype pandas infers for a list of str]


def _table_frame(pd: Any, columns: tuple) -> Any:
    """The discard table from :func:`discard_columns`'s six fresh columns, equal (values,
    dtypes, index) to ``pd.DataFrame(dict(zip(_TABLE_COLUMNS, columns)))``.

    Issue 12: that constructor spends about 90 µs of a 130 µs call inferring the column
    labels' and strings' dtypes anew each time.  Here the column Index and the string
    dtype are made once, the two string columns are converted with that dtype, and the
    frame is assembled by ``DataFrame._from_arrays`` without re-validation (about 45 µs).
    That classmethod is not public API, so any failure falls back to the public
    constructor (tested equal in tests/test_fast_paths.py)."""
    names, sh, kinds, count, texts, impr = columns
    try:
        if not _FRAME_PARTS:
            _FRAME_PARTS[:] = [pd.Index(_TABLE_COLUMNS), pd.Series(["1m"]).dtype]
        index, str_dtype = _FRAME_PARTS
        if str_dtype == object:
            strings = (np.array(names, dtype=object), np.array(texts, dtype=object))
        else:
            strings = (pd.array(names, dtype=str_dtype), pd.array(texts, dtype=str_dtype))
        return pd.DataFrame._from_arrays(
            [strings[0], sh, kinds, count, strings[1], impr], columns=index,
            index=pd.RangeIndex(len(names)), verify_integrity=False)
    except (AttributeError, TypeError, ValueError):     # a pandas without the fast path
        return pd.DataFrame(dict(zip(_TABLE_COLUMNS, columns)), copy=False)


def _discard_table_rows(hand: Any, visible: Any = None, *, forms=None, seven_pairs_quads=None,
                        second_order: bool = True, jokers: int = 0,
                        joker_fifth_copy: bool = False, ruleset: Any = None):
    """The table as :func:`discard_table` built it before issue 12 (row dicts from
    ``discard_rows``): the reference of the equivalence tests."""
    import pandas as pd
    from .tiles import format_counts
    mask, seven_pairs_quads, counts, caps, h, jokers, extra = _hand_query(
        hand, 2, "a discard table needs a hand that must discard; for a hand waiting for a "
        "draw use ukeire()", forms, seven_pairs_quads, ruleset, jokers, shape=True)
    vis = _visible(visible, h, counts)
    rows = []
    for kind, sh, live, second in _eff.discard_rows(counts, mask, seven_pairs_quads, caps,
                                                     vis, second_order, jokers,
                                                     joker_fifth_copy, **extra):
        eff = live >= 0
        rows.append({
            "discard": tile_name(kind),
            "shanten": int(sh),
            "ukeire_kinds": int(eff.sum()),
            "ukeire_count": int(live[eff].sum()),
            "ukeire": format_counts(eff.astype(np.uint8)),
            "improvement": float(second),
        })
    return pd.DataFrame(rows, columns=_TABLE_COLUMNS)


def decompositions(hand: Any, *, forms: Sequence[str] | None = None,
                   seven_pairs_quads: bool | None = None,
                   ruleset: Any = None) -> list[Decomposition]:
    """Every distinct decomposition of a complete hand's concealed tiles.

    Parameters
    ----------
    hand : str, Hand or array_like of shape (34,)
        A 3n+2 hand (14 tiles counting melds).  Exposed melds stay in the Hand;
        the decompositions cover the concealed tiles.
    forms, seven_pairs_quads, ruleset
        As in :func:`shanten`: the ruleset's forms (default Chinese Official rules, so
        组合龙 and 全不靠 are listed; ``ruleset="plain"`` for regular, distinct seven
        pairs and thirteen orphans), narrowed by ``forms``.  Only the shapes are
        decomposed: the ruleset's other rules (minimum fan, 缺一门 …) are the scorer's.

    Returns
    -------
    list of Decomposition
        Regular decompositions (pair + sets) first, in a fixed order, then seven
        pairs, thirteen orphans, 全不靠 and 组合龙 (with their knitted tiles) when the
        forms ask for them and the hand has those shapes; empty when the hand is
        not complete.

    Raises
    ------
    InvalidHandError
        For a 3n+1 hand, a fifth copy, bad counts.
    """
    mask, seven_pairs_quads, counts, caps, h, _, _ = _hand_query(
        hand, 2, "decompositions need a complete-size hand", forms, seven_pairs_quads,
        ruleset)
    n = int(counts.sum())
    out: list[Decomposition] = []
    if mask & FORMS["regular"]:
        for pair, sets in _decompose.regular_decompositions(counts, n // 3):
            out.append(Decomposition(form="regular", pair=pair, sets=sets))
    whole = n == 14 and caps is None
    if whole and mask & FORMS["seven_pairs"]:
        ok = (np.all(counts % 2 == 0) if seven_pairs_quads
              else np.all((counts == 0) | (counts == 2)))
        if ok:
            pairs = tuple(int(k) for k in np.flatnonzero(counts) for _ in range(counts[k] // 2))
            out.append(Decomposition(form="seven_pairs", pairs=pairs))
    if whole and mask & FORMS["thirteen_orphans"]:
        from .tiles import TERMINALS_AND_HONORS
        orph = np.asarray(TERMINALS_AND_HONORS)
        if counts[orph].min() >= 1 and counts[orph].sum() == 14:
            pair = int(orph[np.argmax(counts[orph] == 2)])
            out.append(Decomposition(form="thirteen_orphans", pair=pair))
    if mask & (FORMS["honors_and_knitted"] | FORMS["knitted_straight"]):
        from .rules.knitted import honors_and_knitted, knitted_straight_decompositions
        c = counts.tolist()
        n_melds = 0 if h is None else h.n_melds
        if mask & FORMS["honors_and_knitted"] and n == 14 and caps is None:
            if honors_and_knitted(c, n_melds) is not None:
                out.append(Decomposition(form="honors_and_knitted",
                                         knitted=tuple(np.flatnonzero(counts).tolist())))
        if mask & FORMS["knitted_straight"]:
            for ks, pair, sets in knitted_straight_decompositions(c, 4 - n // 3):
                out.append(Decomposition(form="knitted_straight", pair=pair, sets=sets,
                                         knitted=ks))
    return out

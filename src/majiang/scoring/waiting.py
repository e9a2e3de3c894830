"""Waits judged by shape: the kinds one more copy of which completes the hand.

Used by :func:`waits` and by the engines for 独听 (a single waiting kind).  Complete
hands hold ``hand_size + 1`` tiles counting melds as 3: 14, or 17 for the 16-tile
rulesets (台湾, 罗源).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from .. import rules as _rules
from ..errors import InvalidHandError, RuleError
from ..hand import as_hand
from ..rules.base import EXTRA_FORMS
from ..rules.fans import shape_families
from ..rules.knitted import KNITTED_STRAIGHTS, honors_and_knitted, knitted_straight_decompositions
from ..rules.model import game_model
from ..rules.shapes import _lonely_kept
from ..rules.shapes.forms import EIGHT_PAIRS_SIZE, eight_pairs_complete, eight_pairs_kept
from ..tiles import KINDS_258, TERMINALS_AND_HONORS, tile_name

__all__ = ["waits"]

_ORPHANS = TERMINALS_AND_HONORS


_HONOR_CHOWS = ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3), (4, 5, 6))
"""The honour chows as positions of the honours (东南西北中发白 = 0..6), by lowest
position: three different winds, the three dragons (南昌)."""


@lru_cache(maxsize=1 << 16)
def _group_ok(tup: tuple, honors: Any) -> bool:
    """Can a suit's (or the honors') counts be split into sets, plus one pair when
    their number is 3n+2?  Counts may exceed 4 (shape-based checks).  ``honors``: False
    for a suit, True for the honours, ``"chows"`` for the honours where honour chows
    are sets (:attr:`RuleSpec.honor_chows <majiang.rules.model.RuleSpec.honor_chows>`)."""
    n = sum(tup)
    if n == 0:
        return True
    if n % 3 == 1:
        return False
    return _split(tup, n % 3 == 2, honors)


def _split(tup: tuple, pair: bool, honors: Any) -> bool:
    i = 0
    while tup[i] == 0:
        i += 1
        if i == len(tup):
            return not pair
    c = list(tup)
    if c[i] >= 3:
        c[i] -= 3
        if _rest_ok(c, pair, honors):
            return True
        c[i] += 3
    if pair and c[i] >= 2:
        c[i] -= 2
        if _rest_ok(c, False, honors):
            return True
        c[i] += 2
    if not honors and i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        if _rest_ok(c, pair, honors):
            return True
    if honors == "chows":
        for trio in _HONOR_CHOWS:
            if trio[0] == i and c[trio[1]] and c[trio[2]]:
                for t in trio:
                    c[t] -= 1
                if _rest_ok(c, pair, honors):
                    return True
                for t in trio:
                    c[t] += 1
    return False


def _rest_ok(c: list, pair: bool, honors: Any) -> bool:
    if not any(c):
        return not pair
    return _split(tuple(c), pair, honors)


_GROUPS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))
ALL_PAIRS = (1 << 34) - 1


def _regular_complete(c: list, n_melds: int, size: int = 14, pair_mask: int = ALL_PAIRS,
                      honor_chows: bool = False) -> bool:
    """Whether the counts ``c`` are ``(size - 2) / 3 - n_melds`` sets and one pair
    (``size`` = the complete hand, 14 or 17 tiles counting melds as 3); with a
    ``pair_mask`` (bit ``k``: kind ``k`` may be the pair, 二五八将) some reading must
    have an allowed pair; ``honor_chows``: three different winds or the three dragons
    are a set too (南昌)."""
    if sum(c) != size - 3 * n_melds:
        return False
    pair_group = None
    for lo, hi, honors in _GROUPS:
        if honors and honor_chows:
            honors = "chows"
        tup = tuple(c[lo:hi])
        n = sum(tup)
        if n % 3 == 1:
            return False
        if n % 3 == 2:
            if pair_group is not None:
                return False
            pair_group = (lo, hi, honors)
        if not _group_ok(tup, honors):
            return False
    if pair_group is None:
        return False
    if pair_mask == ALL_PAIRS:
        return True
    lo, hi, honors = pair_group
    for p in range(lo, hi):
        if c[p] >= 2 and pair_mask >> p & 1:
            rest = list(c[lo:hi])
            rest[p - lo] -= 2
            if _group_ok(tuple(rest), honors):
                return True
    return False


def _complete(c: list, n_melds: int, forms, quads: bool, size: int = 14,
              pair_mask: int = ALL_PAIRS, honor_chows: bool = False) -> bool:
    """Whether ``c`` (concealed counts, win tile included) completes the hand in one
    of ``forms``; the forms without sets (seven pairs, thirteen orphans, knitted)
    exist only for 14-tile hands; ``honor_chows`` as :func:`_regular_complete`."""
    if "regular" in forms and _regular_complete(c, n_melds, size, pair_mask, honor_chows):
        return True
    if size == 17 and n_melds == 0 and "eight_pairs" in forms and eight_pairs_complete(c):
        return True             # 温州 八对 (eight pairs and one more, 17 concealed)
    if size != 14:
        return False
    if n_melds == 0 and sum(c) == 14:
        if "seven_pairs" in forms and all(x % 2 == 0 and (quads or x <= 2) for x in c):
            return True
        if "thirteen_orphans" in forms and all(c[t] for t in _ORPHANS) and \
                sum(c[t] for t in _ORPHANS) == 14:
            return True
        if "honors_and_knitted" in forms and honors_and_knitted(c, 0) is not None:
            return True
    if "knitted_straight" in forms and n_melds <= 1 and knitted_straight_decompositions(c, n_melds):
        return True
    return False


def _wait_candidates(c: list, forms, honor_chows: bool = False) -> list[int]:
    cand = set()
    for t in range(34):
        if c[t]:
            cand.add(t)
            if t >= 27 and honor_chows:     # the other kinds of its honour chows
                cand.update(range(27, 31) if t < 31 else range(31, 34))
            if t < 27:
                r = t % 9
                for d in (-2, -1, 1, 2):
                    if 0 <= r + d <= 8:
                        cand.add(t + d)
    special = [f for f in forms if f in ("thirteen_orphans", "honors_and_knitted",
                                          "knitted_straight", *EXTRA_FORMS)]
    if special:
        distinct = sum(1 for x in c if x)
        if distinct >= 11 or "eight_pairs" in special:     # 八对: the odd tile is any kind
            cand.update(range(34))
        elif "knitted_straight" in special:
            for ks in KNITTED_STRAIGHTS:
                if sum(1 for t in ks if c[t]) >= 8:
                    cand.update(ks)
    return sorted(cand)


def _waits_counts(c: list, n_melds: int, forms, quads: bool, size: int = 14,
                  pair_mask: int = ALL_PAIRS, honor_chows: bool = False) -> list[int]:
    """Kinds ``t`` for which ``c + t`` is complete (:func:`_complete`), by shape
    (counts may exceed the copies left); ``honor_chows`` as :func:`_regular_complete`."""
    out = []
    for t in _wait_candidates(c, forms, honor_chows):
        c[t] += 1
        if _complete(c, n_melds, forms, quads, size, pair_mask, honor_chows):
            out.append(t)
        c[t] -= 1
    return out


def _extra_form_complete(c: list, forms, copies: tuple) -> bool:
    """十三烂 / 七星十三烂 (regional extra forms): 14 distinct lonely tiles."""
    if sum(c) != 14 or max(c) != 1:
        return False
    for form, seven in (("thirteen_lonely", None), ("seven_stars", 7)):
        if form in forms and _lonely_kept(tuple(c), copies, seven) == 14:
            return True
    return False


_KINDS_258 = frozenset(KINDS_258)


def beyond_core(model, c, melds: tuple = (), jokers: int = 0) -> bool:
    """Whether a complete-sized hand may win in a form the core shape check
    (:func:`majiang._core.game.shanten`, :attr:`GameModel.core_forms`) does not know:
    the shape half of THE predicate that the compiled check leaves out.

    ``c`` the concealed counts with the win tile (34,), ``melds`` the Meld tuple,
    ``jokers`` the wild tiles held besides ``c``.  True for 十三烂 / 七星十三烂 (the
    model's extra forms: 14 distinct concealed lonely tiles, no melds, no jokers — 安庆
    "drawing a joker breaks 十三烂") and for 将将胡 of any shape (the ``all_258`` form:
    every tile, melds included, a 2, 5 or 8; a joker may stand for one) and for 温州 八对
    (17 concealed tiles: eight pairs and one more, jokers filling) and for a regular
    hand that needs an honour chow (南昌, :attr:`RuleSpec.honor_chows
    <majiang.rules.model.RuleSpec.honor_chows>`; jokers filling, by the shape engine,
    :func:`_honor_chow_complete`).  False means
    the hand completes no form beyond the core; True asks THE predicate
    (:func:`majiang.scoring.check_win`), which decides the rest.  The game engine's
    win pre-check and its end-of-hand readiness use it beside the compiled check.
    """
    all258, extra, copies, eight, hc = _beyond_of(model)
    if all258 and _only_258(c, melds):
        return True
    if eight and not melds and _eight_pairs_with([int(x) for x in c], int(jokers), copies):
        return True             # 温州 八对 (jokers pair the odd tiles)
    if hc and _honor_chow_complete(model, c, melds, jokers):
        return True             # 南昌: a regular hand with an honour chow
    if not extra or melds or jokers:
        return False
    cl = [int(x) for x in c]
    return (sum(cl) == 14 and max(cl) == 1 and _spread(cl)
            and _extra_form_complete(cl, extra, copies))


def beyond_waits(model, c, melds: tuple = (), jokers: int = 0) -> list[int]:
    """The kinds ``k`` for which :func:`beyond_core` holds of the 3n+1 hand ``c`` (34,)
    plus one copy of ``k`` (a kind the tile set lacks or whose four copies ``c`` holds
    never), ascending: the waits beyond the compiled check's."""
    all258, extra, copies, eight, hc = _beyond_of(model)
    out = set()
    if all258 and _only_258(c, melds):
        out.update(k for k in _KINDS_258 if copies[k] and c[k] < 4)
    if hc:
        cl = [int(x) for x in c]
        for k in range(34):
            if copies[k] and cl[k] < 4:
                cl[k] += 1
                if _honor_chow_complete(model, cl, melds, jokers):
                    out.add(k)
                cl[k] -= 1
    if eight and not melds:
        cl = [int(x) for x in c]
        if sum(cl) + jokers == EIGHT_PAIRS_SIZE - 1:
            for k in range(34):
                if copies[k] and cl[k] < 4:
                    cl[k] += 1
                    if _eight_pairs_with(cl, int(jokers), copies):
                        out.add(k)
                    cl[k] -= 1
    if extra and not melds and not jokers:
        cl = [int(x) for x in c]
        if sum(cl) == 13 and max(cl) == 1 and _spread(cl):
            for k in range(34):
                if copies[k] and not cl[k] and (k >= 27 or _spread_with(cl, k)):
                    cl[k] = 1
                    if _extra_form_complete(cl, extra, copies):
                        out.add(k)
                    cl[k] = 0
    return sorted(out)


def _spread(cl: list) -> bool:
    """The held tiles of each suit lie at least 3 ranks apart (十三烂's suited tiles;
    a cheap filter before :func:`_extra_form_complete`)."""
    for s in range(0, 27, 9):
        last = -3
        for r in range(9):
            if cl[s + r]:
                if r - last < 3:
                    return False
                last = r
    return True


def _spread_with(cl: list, k: int) -> bool:
    s, r = k - k % 9, k % 9
    return not any(cl[s + x] for x in range(max(0, r - 2), min(9, r + 3)))


def _only_258(c, melds) -> bool:
    return all(t in _KINDS_258 for m in melds for t in m.tiles) \
        and not any(c[k] for k in _NOT_258)


_NOT_258 = tuple(k for k in range(34) if k not in _KINDS_258)
_BEYOND: dict = {}


def _honor_chow_complete(model, c, melds: tuple = (), jokers: int = 0) -> bool:
    """Whether the concealed counts ``c`` (34, the win tile included) and ``jokers``
    complete a regular hand with the ``melds`` when honour chows are sets (the shape
    engine's regular form under the model, :mod:`majiang.rules.shapes`; caps: the tile
    set less the melds — a hand above them is not complete)."""
    import numpy as np
    from ..rules.shapes import _spec, core_form_shanten
    caps = np.array(model.copies, dtype=np.int64)
    for m in melds:
        for t in m.tiles:
            caps[t] -= 1
    cc = np.array([int(x) for x in c], dtype=np.int64)
    n = int(cc.sum()) + int(jokers)
    if n % 3 != 2 or (cc > caps).any() or caps.min() < 0:
        return False
    per = core_form_shanten(cc.astype(np.uint8), jokers=int(jokers),
                            caps=caps.astype(np.uint8), n_melds=len(melds),
                            spec=_spec(model.ruleset))
    return per.get("regular", 99) == -1


def _beyond_of(model) -> tuple:
    """(all_258 form, the extra forms of 14-tile hands, copies tuple, 八对, honour chows)
    of a model, kept."""
    got = _BEYOND.get(id(model))
    if got is None or got[0] is not model:
        got = (model, "all_258" in model.forms,
               tuple(f for f in model.extra_forms if f not in ("all_258", "eight_pairs"))
               if model.hand_size == 13 else (),
               tuple(int(x) for x in model.copies),
               "eight_pairs" in model.forms and model.hand_size == EIGHT_PAIRS_SIZE - 1,
               model.honor_chows)
        _BEYOND[id(model)] = got
    return got[1:]


def _eight_pairs_with(c, jokers: int, copies: tuple) -> bool:
    """八对 of the concealed counts ``c`` (no melds) and ``jokers`` wild tiles: 17 tiles
    and the jokers fill every tile the best target misses (:func:`eight_pairs_kept`)."""
    return (sum(c) + jokers == EIGHT_PAIRS_SIZE
            and eight_pairs_kept(c, copies) + jokers >= EIGHT_PAIRS_SIZE)


def _waits_258_small(c: list, melds: tuple, model, size: int, strict: int = ALL_PAIRS) -> set:
    """Waits under the 2-5-8 shape families (:attr:`GameModel.shapes_258`: 长沙, 合肥,
    武汉): a small win needs a 2/5/8 pair; a 大胡 shape of the ruleset
    (:func:`majiang.rules.fans.shape_families`: seven pairs, all pungs, one suit, all
    honors, 将将胡 of any shape, 全求人) any pair — unless ``strict`` (the model's
    pair mask, 二五八将 for every regular hand) narrows the pair of every regular shape.
    By shape, as :func:`waits` (which drops the kinds a complete hand may not hold)."""
    pair_mask, fams = shape_families(model.ruleset)     # the one reading (efficiency's too)
    n_melds = len(melds)
    quads = model.seven_pairs_quads
    found = set(_waits_counts(c, n_melds, ("regular",), quads, size, pair_mask))
    if "seven_pairs" in fams:
        found.update(_waits_counts(c, n_melds, ("seven_pairs",), quads, size))
    meld_tiles = [t for m in melds for t in m.tiles]
    meld_groups = {t // 9 if t < 27 else 3 for t in meld_tiles}
    groups = ([0, 1, 2] if "flush" in fams else []) + ([3] if "all_honors" in fams else [])
    need = size - 3 * n_melds
    for t in range(34):
        c[t] += 1
        if sum(c) == need:
            held = [k for k in range(34) if c[k]]
            for g in groups:
                if not meld_groups - {g} and all((k // 9 if k < 27 else 3) == g for k in held) \
                        and _regular_complete(c, n_melds, size, strict):
                    found.add(t)
            if ("all_pungs" in fams and all(m.kind != "chow" for m in melds)
                    and sorted(c[k] for k in held).count(2) == 1
                    and all(c[k] in (2, 3) for k in held)
                    and any(c[k] == 2 and strict >> k & 1 for k in held)):
                found.add(t)
            if ("all_258" in fams and all(k in _KINDS_258 for k in held)
                    and all(k in _KINDS_258 for k in meld_tiles)):
                found.add(t)
            if ("melded_all" in fams and n_melds == 4 and need == 2 and c[t] == 2
                    and strict >> t & 1
                    and all(not m.concealed for m in melds)):
                found.add(t)
        c[t] -= 1
    return found


def waits(hand: Any, *, ruleset: Any = "mcr", indicator: Any = None) -> list[str]:
    """The waiting tiles of a hand, judged by shape under the ruleset's game model.

    A kind is a wait when one more copy completes the hand in one of the
    ruleset's winning forms and shape rules, whether or not a copy is left to
    draw (Chinese Official rules judge 独听 — 边张 / 坎张 / 单钓将 — by the hand's
    shape).  The shape rules are those of the game model
    (:meth:`majiang.rules.model.GameModel.shape`): the tile set (a kind outside
    it is never a wait), 缺一门 (the complete hand lacks a suit), 不允许缺门 (the
    complete hand holds all three suits, ``no_void``) and 二五八将 (the
    pair of a regular hand is a 2, 5 or 8); under ``pair_258_small`` (长沙, 合肥,
    武汉) the 2-5-8 pair of a small win, or any shape of a 大胡 that needs no
    situational context (seven pairs, all pungs, one suit, 将将胡 of any shape,
    全求人 on a discard …); 八枝 (``eight_of_a_suit``, 合肥: a suit holds 8 or more
    tiles, melds included); kinds a complete hand never holds concealed
    (:attr:`~majiang.rules.model.RuleSpec.banned_kinds`: 武汉 红中, 安庆 杠牌 发 / 白 — a
    hand holding one has no wait).  Rules that depend on the win's context or fans (minimum
    fan, must open, self-draw only …) are not applied:
    ask :func:`majiang.scoring.check_win` for one tile.

    By shape means a kind whose four copies are all in the hand is still listed (a
    "fifth copy": ``waits("1111m234p567s789s")`` is ``['1m']``, a wait no draw can
    fill).  There is no live-count variant of ``waits``; the live counts of a hand's
    useful draws are :func:`majiang.ukeire`'s, which never lists a fifth copy (its
    shanten uses only tiles that exist, so that hand is 1-shanten there).

    One default for every layer: ``waits``, :func:`majiang.score`,
    :func:`majiang.shanten`, :func:`majiang.ukeire`, :func:`majiang.discard_table` and
    :func:`majiang.scoring.check_win` given no ruleset all use Chinese Official rules
    (``"mcr"``: regular, seven pairs with a quad as two pairs, thirteen orphans,
    honors-and-knitted, knitted straight), so they agree on every hand;
    ``ruleset="plain"`` is the riichi-style regular / distinct seven pairs / thirteen
    orphans.

    Parameters
    ----------
    hand : str or Hand
        The hand before the win: the ruleset's hand size (13, or 16 for 台湾 /
        罗源), counting exposed melds as 3 tiles.
    ruleset : str, Ruleset or None
        Default ``"mcr"`` (see above); None is the same default ruleset.
    indicator : str or int, optional
        The turned joker indicator, as in :func:`majiang.shanten`: applied where a rule
        reads it (:func:`majiang.rules.derived.with_indicator`: under 武汉 the turned kind
        is the 痞子, which no complete hand may hold, so a hand holding it has no wait),
        and the hand is read by its faces (:func:`majiang.efficiency.read_faces`: a tile
        of the wild kind is a joker, refused as ``*`` is).  Checked to be a tile;
        ignored by a ruleset without jokers.

    Returns
    -------
    list of str
        Tile names in tile order (empty when the hand is not tenpai).

    Raises
    ------
    InvalidHandError
        A hand of the wrong size, or melds holding more copies than the tile set.
    InvalidNotationError
        Unreadable tiles.
    RuleError
        Unknown ruleset; a hand with jokers (their waits depend on what a joker
        may stand for: use :func:`majiang.ukeire` with the ruleset); an ``indicator``
        that is not a tile, outside the tile set, or given for a fixed joker.
    """
    if indicator is not None:
        from ..efficiency._jokers import _check_indicator
        from ..rules.derived import with_indicator
        ruleset = with_indicator(ruleset, indicator)    # 武汉 痞子: never kept
        hand = _check_indicator(hand, ruleset, indicator)   # wild tiles by their faces
    model = game_model(None if ruleset is None else _rules.get(ruleset))
    h = as_hand(hand, hand_size=model.hand_size)
    if h.jokers:
        raise RuleError("waits() takes a hand without jokers; for a hand with jokers use "
                        "majiang.ukeire(hand, ruleset=...)")
    if h.n_tiles != model.hand_size:
        raise InvalidHandError(f"waits need a {model.hand_size}-tile hand, got {h.n_tiles}")
    try:
        opts = model.shape(h.melds)
    except RuleError as exc:
        raise InvalidHandError(str(exc)) from None
    c = [int(x) for x in h.concealed]
    n_melds = len(h.melds)
    size = model.hand_size + 1
    if model.shapes_258:            # the game model's one 2-5-8 route decision
        found = _waits_258_small(c, h.melds, model, size, opts.pair_mask)
    else:
        found = set(_waits_counts(c, n_melds, model.forms, model.seven_pairs_quads, size,
                                  opts.pair_mask, model.honor_chows))
    extra = tuple(f for f in model.extra_forms if f != "all_258")
    if extra and n_melds == 0 and size == 14:
        for t in range(34):
            c[t] += 1
            if _extra_form_complete(c, extra, tuple(int(x) for x in model.copies)):
                found.add(t)
            c[t] -= 1
    for k in model.banned_kinds:    # never held at a win (武汉 红中, 安庆 杠牌 发 / 白)
        found = set() if c[k] else found - {k}
    eight = model.eight_of_a_suit      # 八枝 (合肥): a suit holds >= 8
    if eight:
        suit = [sum(c[9 * s:9 * s + 9]) for s in range(3)]
        for m in h.melds:
            if m.tile < 27:
                suit[m.tile // 9] += len(m.tiles)
    no_void = model.no_void         # 不允许缺门 (沈阳): all three suits
    if no_void:
        held = [any(c[9 * s:9 * s + 9]) or any(m.tile < 27 and m.tile // 9 == s
                                                for m in h.melds) for s in range(3)]
    out = []
    for t in sorted(found):
        if not model.copies[t]:
            continue
        if no_void and not all(held[s] or (t < 27 and t // 9 == s) for s in range(3)):
            continue
        if eight and not any(suit[s] + (t < 27 and t // 9 == s) >= 8 for s in range(3)):
            continue
        if opts.void_suits:
            c[t] += 1
            lacks = any(opts.void_suits >> s & 1 and not any(c[9 * s:9 * s + 9])
                        for s in range(3))
            c[t] -= 1
            if not lacks:
                continue
        out.append(tile_name(t))
    return out

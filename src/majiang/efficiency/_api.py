"""The single-hand functions: :func:`shanten`, :func:`ukeire` and
:func:`decompositions`."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._core import decompose as _decompose
from .._core import efficiency as _eff
from ..hand import Decomposition, Hand
from ..tiles import _plain_counts, tile_name
from ._b258 import _b258_hand, _b258_shanten, _b258_ukeire
from ._hand import (_check_jokers, _core_error, _hand_query, _no_whole, _prepare, _seen_indicator,
                    _visible, _visible_in_set)
from ._jokers import _check_indicator, _with_wild, read_faces, wild_faces
from ._plan import _plan258
from ._ruleset import (FORMS, _default_rule, _jokers_allowed, _regional_jokers, _resolved, _route,
                       _rule, _rule_of, _ruleset_fifth, form_mask)


def shanten(hand: Any, *, forms: Sequence[str] | None = None,
            seven_pairs_quads: bool | None = None, jokers: int = 0,
            joker_fifth_copy: bool = False, ruleset: Any = None,
            indicator: Any = None, void: Any = None) -> int:
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
    void : str or int, optional
        The seat's declared void suit (定缺) under a ruleset with a void suit (四川 and
        the other 缺一门 rulesets): ``"m"``, ``"p"``, ``"s"`` or 0..2.  The complete hand
        must then lack that suit (not merely some suit); ``None`` (default): not declared
        (:func:`majiang.rules.derived.with_void`).

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
        An unknown ruleset, a form the ruleset does not have, a bad joker count;
        ``void`` under a ruleset without a void suit.
    """
    if void is not None:
        from ..rules.derived import with_void
        ruleset = with_void(ruleset, void)
    if indicator is not None and ruleset is not None:
        from ..rules.derived import with_indicator
        ruleset = with_indicator(ruleset, indicator)    # 武汉 痞子: never kept
    named = ruleset is not None
    if forms is None and seven_pairs_quads is None:
        # the default ruleset's record, kept; a named one's, looked up once (issue 12)
        rec = _default_rule() if ruleset is None else _rule(ruleset)
    else:
        rec = _rule_of(_resolved(ruleset, forms, seven_pairs_quads))
    ruleset = rec.rs
    how = rec.how
    faces = None
    if indicator is not None:
        if how == "python":
            faces = wild_faces(hand, ruleset, indicator)      # 南昌 德国: read by 十三烂
        hand = _check_indicator(hand, ruleset, indicator)     # wild tiles by their faces
    elif ruleset.jokers is not None:
        hand = read_faces(hand, ruleset)        # a fixed joker's faces are jokers
    if named and not (type(jokers) is int and not jokers and type(hand) is str
                      and "*" not in hand and "f" not in hand and hand.isascii()):
        # no ruleset given: generic jokers allowed; plain ASCII text without '*' or
        # flowers needs no check (the common named call, e.g. ruleset="plain")
        _jokers_allowed(ruleset, hand, jokers)
    if how == "python":
        from ..rules.shapes import ruleset_shanten
        return ruleset_shanten(hand, ruleset, jokers=_check_jokers(jokers), faces=faces)
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


def ukeire(hand: Any, visible: Any = None, *, forms: Sequence[str] | None = None,
           seven_pairs_quads: bool | None = None, jokers: int = 0,
           joker_fifth_copy: bool = False, ruleset: Any = None,
           indicator: Any = None, void: Any = None) -> dict[str, int]:
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
    void : str or int, optional
        The declared void suit (定缺), as in :func:`shanten`.

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
    if void is not None:
        from ..rules.derived import with_void
        ruleset = with_void(ruleset, void)
    if indicator is not None and ruleset is not None:
        from ..rules.derived import with_indicator
        ruleset = with_indicator(ruleset, indicator)    # 武汉 痞子: never kept
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
    faces = None if indicator is None else wild_faces(hand, ruleset, indicator)
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
        from ..rules.shapes import ruleset_ukeire
        return ruleset_ukeire(hand, rs, visible, jokers=_check_jokers(jokers),
                              indicator=indicator, faces=faces)
    joker_fifth_copy = _ruleset_fifth(ruleset, joker_fifth_copy)
    mask, seven_pairs_quads, counts, caps, h, jokers, extra = _hand_query(
        hand, 1, "ukeire needs a hand waiting for a draw; for a hand that must discard use "
        "discard_table()", forms, seven_pairs_quads, ruleset, jokers, shape=True)
    vis = _visible(_seen_indicator(visible, ruleset, indicator), h, counts)
    if wild is not None and visible is not None:     # seen wild copies + jokers held
        from ..rules.model import game_model
        game_model(ruleset).check_seen(visible, indicator, jokers)
    s, live = _eff.ukeire_one(counts, mask, seven_pairs_quads, caps, vis, jokers,
                              joker_fifth_copy, **extra)
    if s < -1:
        raise _core_error(counts, s, jokers=jokers)
    if wild is None:
        return {tile_name(k): int(live[k]) for k in np.flatnonzero(live >= 0)}
    return _with_wild(counts, live, s, mask, seven_pairs_quads, caps, vis, jokers,
                      joker_fifth_copy, extra, wild, indicator, ruleset)


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
        from ..tiles import TERMINALS_AND_HONORS
        orph = np.asarray(TERMINALS_AND_HONORS)
        if counts[orph].min() >= 1 and counts[orph].sum() == 14:
            pair = int(orph[np.argmax(counts[orph] == 2)])
            out.append(Decomposition(form="thirteen_orphans", pair=pair))
    if mask & (FORMS["honors_and_knitted"] | FORMS["knitted_straight"]):
        from ..rules.knitted import honors_and_knitted, knitted_straight_decompositions
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

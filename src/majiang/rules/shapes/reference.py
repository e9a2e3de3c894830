"""The pure-Python reference of the shape engine (:mod:`majiang.rules.shapes`): shanten
per form (:func:`form_shanten`), the least over the forms (:func:`shanten_counts`) and
ukeire (:func:`ukeire_counts`) under a :class:`~.spec.Spec`, and the ukeire dict both
engines list (:func:`listed_draws`).
"""
from __future__ import annotations

from ...errors import InvalidHandError, RuleError
from ...tiles import tile_name
from .forms import (_NEG, EXTRA_FORM_KEPT, _orphans_kept, _regular_kept,
                    _seven_pairs_kept, eight_pairs_kept)
from .spec import THREE_JOKERS, Spec

__all__ = ["form_shanten", "shanten_counts", "ukeire_counts", "joker_draw_left",
           "listed_draws"]


def _kept_by_form(c: tuple, caps: tuple, n_sets: int, n_melds: int, spec: Spec,
                  whole: bool, meld_suits: frozenset = frozenset()) -> dict:
    out = {}
    voids = tuple(v for v in (0, 1, 2) if v not in meld_suits) if spec.void else (None,)
    for form in spec.forms:
        if form == "regular":
            out[form] = max((_regular_kept(c, caps, n_sets, v, spec.pair_258, spec.no_void,
                                           meld_suits, spec.honor_chows) for v in voids),
                            default=_NEG)
        elif form == "eight_pairs":     # 温州 八对: a fully concealed 17-tile hand, jokers too
            out[form] = _NEG if n_melds or n_sets != 5 else max(
                eight_pairs_kept(c, caps, tuple(k for k in spec.kinds if v is None
                                                or not 9 * v <= k < 9 * v + 9))
                for v in voids)
        elif not whole:
            continue
        elif form == "seven_pairs":
            best = _NEG
            for v in voids:
                kinds = tuple(k for k in spec.kinds if v is None or not (9 * v <= k < 9 * v + 9))
                if spec.no_void:
                    # seven pairs holding all three suits: rarely needed; approximate by the
                    # unconstrained value only when all three suits can appear
                    pass
                best = max(best, _seven_pairs_kept(c, caps, spec.quads, kinds))
            out[form] = best
        elif form == "thirteen_orphans":
            out[form] = _NEG if spec.void else _orphans_kept(c, caps)
        elif form in EXTRA_FORM_KEPT:
            out[form] = _NEG if spec.void else EXTRA_FORM_KEPT[form](c, caps)
        else:
            raise RuleError(f"the Python shape engine does not know the form {form!r} "
                            "(knitted forms are computed by the core only)")
    return out


def form_shanten(counts, *, jokers: int = 0, caps=None, n_melds: int = 0,
                 spec: Spec, meld_suits=()) -> dict:
    """Shanten per form ``{form: shanten}`` (99 when the form is impossible).

    ``counts`` are the concealed real tiles (34), ``jokers`` the wild tiles held,
    ``caps`` the copies available to the concealed hand (tile set minus the copies
    in one's melds; default the spec's copies), ``n_melds`` the declared melds.
    ``meld_suits``: the suits (0 万, 1 筒, 2 条) those melds hold (a void suit cannot
    be one of them; they count as present for the all-three-suits rule).
    With ``spec.three_jokers`` (:func:`three_jokers_win`: the jokers that win at once,
    3 or 4) the dict also holds ``"three_jokers"``: the draws to the last of them
    (``need - 1 - jokers``; at least -1 for a 3n+2 hand, 0 for a 3n+1 hand).
    """
    c = tuple(int(x) for x in counts)
    if caps is None:
        caps = spec.copies
    else:
        caps = tuple(min(int(a), b) for a, b in zip(caps, spec.copies))
    n_dead = 0
    for k in spec.dead:         # held, never kept (安庆 杠牌, 武汉 红中): size only
        if c[k] > 4:
            raise InvalidHandError(f"{c[k]} copies of {tile_name(k)}: the tile set has 4")
        n_dead += c[k]
    if n_dead:
        c = tuple(0 if k in spec.dead else x for k, x in enumerate(c))
    for k in range(34):
        if c[k] > caps[k]:
            raise InvalidHandError(f"{c[k]} copies of {tile_name(k)}: the ruleset's tile set "
                                   f"leaves {caps[k]}")
    n = sum(c) + jokers + n_dead
    if n % 3 == 0 or n > 17:
        raise InvalidHandError(f"{n} concealed tiles (jokers included): a hand needs 3n+1 "
                               "or 3n+2 tiles")
    n_sets = (n - 2) // 3 if n % 3 == 2 else (n - 1) // 3
    need = 3 * n_sets + 2
    whole = n_melds == 0 and need == 14
    out = {}
    for form, kept in _kept_by_form(c, caps, n_sets, n_melds, spec, whole,
                                    frozenset(meld_suits)).items():
        if kept <= _NEG // 2:
            out[form] = 99
            continue
        j = 0 if form in EXTRA_FORM_KEPT else jokers
        out[form] = max(-1, need - kept - j - 1)
    if spec.three_jokers:
        # 三金倒 / 三财神 (3) or 四鬼胡 (4): that many jokers held win on a self-draw with
        # any other tiles; each missing joker is one draw (the hand keeps its jokers and
        # discards another tile), so a 3n+2 hand is complete (-1) with all of them and a
        # 3n+1 hand is ready (0) with one fewer — and with all, where every draw wins
        out[THREE_JOKERS] = max(-1 if n % 3 == 2 else 0, spec.three_jokers - 1 - jokers)
    return out


def shanten_counts(counts, *, jokers: int = 0, caps=None, n_melds: int = 0, spec: Spec,
                   meld_suits=()) -> int:
    """Least shanten over the spec's forms (see :func:`form_shanten`)."""
    per = form_shanten(counts, jokers=jokers, caps=caps, n_melds=n_melds, spec=spec,
                       meld_suits=meld_suits)
    return min(per.values()) if per else 99


def ukeire_counts(counts, *, jokers: int = 0, caps=None, n_melds: int = 0, spec: Spec,
                  visible=None, joker_kind: int | None = None,
                  joker_copies: int = 4, meld_suits=(),
                  stand_in: tuple | None = None, _shanten=None) -> tuple[int, dict]:
    """(shanten, {kind: live}) of a 3n+1 hand; a drawn joker is listed under ``-1``.
    (``_shanten``: the shanten function used, :func:`shanten_counts` by default; the
    compiled engine passes its own for hands it computes only through this loop.)

    Live counts: copies in the tile set minus the hand (concealed and melds) minus
    `visible`.  With `joker_kind` the natural copies of that kind are jokers: the
    kind is not drawn as itself, and drawing it (a joker) is listed when it helps.
    Two wild kinds (南昌 正精 / 副精, 天津 混儿): `joker_kind` and `joker_copies` are
    tuples (kinds, wild copies of each); a visible copy of a wild kind counts as a
    seen joker once the kind's non-wild copies (a face-up indicator) are seen.

    `stand_in` ``(face, substitute, copies)`` (see :func:`stand_in`): the substitute
    kind (安庆 红中, 温州 / 上海百搭 / 杭州 flip 白板) is never drawn as itself; a drawn
    one plays as ``face`` (the joker kind's natural tile, written so in the hand).  That
    draw is listed under the **substitute kind** (the tile the player draws, e.g. 5z),
    live = ``copies`` (the face's drawable copies, :meth:`GameModel.wall`) − the
    ``face`` tiles held (concealed and in melds: every one is a stand-in) − visible
    copies of the substitute (seen stand-ins are written by their own name; a visible
    ``face`` tile is a seen joker, as without a substitute).
    """
    jks = joker_kind if isinstance(joker_kind, tuple) else (
        () if joker_kind is None else (joker_kind,))
    c = [int(x) for x in counts]
    caps_t = tuple(spec.copies) if caps is None else tuple(
        min(int(a), b) for a, b in zip(caps, spec.copies))
    kw = dict(caps=caps_t, n_melds=n_melds, spec=spec, meld_suits=meld_suits)
    shanten_counts_ = shanten_counts if _shanten is None else _shanten
    s = shanten_counts_(c, jokers=jokers, **kw)
    face = sub = None
    if stand_in is not None:
        face, sub, _ = stand_in
    better = set()
    for k in spec.kinds:
        if k == sub or (k in jks and k != face) or c[k] >= caps_t[k]:
            continue                # the substitute is drawn as the face; jokers below
        c[k] += 1
        if shanten_counts_(c, jokers=jokers, **kw) < s:
            better.add(k)
        c[k] -= 1
    joker_better = (joker_draw_left(joker_kind, joker_copies, jokers)
                    and shanten_counts_(c, jokers=jokers + 1, **kw) < s)
    return s, listed_draws(better, joker_better, c, caps_t, spec.copies, visible,
                           joker_kind, joker_copies, stand_in, jokers)


def joker_draw_left(joker_kind, joker_copies, jokers: int) -> bool:
    """Whether a joker can still be drawn: the wild kind is known and some wild copy is
    not held (at most 8 held)."""
    if joker_kind is None:
        return False
    total = sum(joker_copies) if isinstance(joker_kind, tuple) else joker_copies
    return jokers < min(8, total)


def listed_draws(better, joker_better: bool, counts, caps, copies, visible, joker_kind,
                 joker_copies, stand_in, jokers: int) -> dict:
    """The ukeire dict ``{kind: live}`` (a joker draw under ``-1``) from which draws lower
    the shanten: ``better`` the kinds whose draw does (the stand-in's face for a drawn
    substitute), ``joker_better`` a drawn joker does (and :func:`joker_draw_left`).  The
    live counts of :func:`ukeire_counts`; shared with ``efficiency``'s core route under
    known wild kinds (the compiled ``_core.shapes.ukeire_dict`` is the same in C).

    ``counts`` concealed real tiles, ``caps`` the copies left to the concealed hand,
    ``copies`` the tile set's (``copies - caps``: the copies in one's melds),
    ``visible`` None or (34,), ``jokers`` held, the other arguments as in
    :func:`ukeire_counts`."""
    two = isinstance(joker_kind, tuple)
    jks = joker_kind if two else (() if joker_kind is None else (joker_kind,))
    vis = [0] * 34 if visible is None else [int(x) for x in visible]
    out: dict = {}
    face = sub = None
    if stand_in is not None:
        face, sub, n_face = stand_in
    for k in range(34):
        if k in better and k != sub and k not in jks and copies[k]:
            out[k] = max(0, int(caps[k]) - int(counts[k]) - vis[k])
    if face is not None and face in better:
        held = int(counts[face]) + int(copies[face]) - int(caps[face])   # every one a stand-in
        out[sub] = max(0, n_face - held - vis[sub])
    if joker_better:            # the wild copies not held nor seen
        if two:                 # every visible wild-kind tile is a seen joker (the
            seen = sum(vis[k] for k in jks)     # turned copy face up is not in visible)
            out[-1] = max(0, sum(joker_copies) - jokers - seen)
        else:
            out[-1] = max(0, joker_copies - jokers - vis[joker_kind])
    return out

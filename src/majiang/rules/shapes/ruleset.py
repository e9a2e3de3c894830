"""Shanten, ukeire and discard tables of a hand under a ruleset (:func:`ruleset_shanten`,
:func:`ruleset_ukeire`, :func:`ruleset_discard_table`): the hand's melds, jokers, the
turned indicator and the stand-in tile (:func:`stand_in`) read from the ruleset, then
the compiled engine (:mod:`.compiled`) or the reference (:mod:`.reference`).
"""
from __future__ import annotations

from itertools import product

import numpy as np

from ...errors import InvalidHandError, RuleError
from ...hand import Hand, _check_total, as_hand, visible_counts
from ...tiles import format_counts, tile_name
from ..._core import shapes as _cs
from ..._memo import per_ruleset
from ..base import EXTRA_FORMS
from ..constraints import SHAPE_CONSTRAINTS
from ..model import rule_spec
from .compiled import (ENGINES, _compiled, _meld_bits, _u8, _u8_visible, _unknown_whole,
                       beside_applies,
                       core_form_shanten, core_shanten_counts, core_ukeire_counts)
from .forms import EXTRA_FORM_KEPT
from .reference import form_shanten, ukeire_counts
from .spec import spec_of, three_jokers_win

__all__ = ["meld_suits", "needs_python", "ruleset_shanten", "own_face_forms", "ruleset_ukeire",
           "ruleset_discard_table", "stand_in", "melds_as_face", "named_draws"]


def meld_suits(melds) -> frozenset:
    """The suits (0 万, 1 筒, 2 条) held in these melds."""
    return frozenset(t // 9 for m in melds for t in m.tiles if t < 27)


def _void_meld_suits(rs, melds) -> frozenset:
    """:func:`meld_suits` of the melds plus, under a declared void suit (定缺,
    :attr:`~majiang.rules.model.RuleSpec.declared_void`), the two other suits: the shape
    engines never take a suit held in a meld as the void one, so only the declared suit
    can be."""
    held = meld_suits(melds)
    declared = rule_spec(rs).declared_void
    return held if declared is None else held | {s for s in range(3) if s != declared}


def needs_python(rs) -> bool:
    """Whether shanten/ukeire under `rs` need the shape engine of :mod:`majiang.rules.shapes`
    (compiled by default, see :data:`ENGINES`), else the core's own options suffice."""
    return (bool(SHAPE_CONSTRAINTS & set(rs.constraints))
            or any(f in EXTRA_FORMS for f in rs.forms)
            or rule_spec(rs).honor_chows                    # 南昌: the core knows none
            or rs.tile_set not in ("136", "144")
            or three_jokers_win(rs)
            or bool(rule_spec(rs).kong_only_kinds))      # 安庆 杠牌: Spec.dead


def _hand_parts(hand, jokers: int, rs):
    """(Hand, caps left by the melds, jokers held in all) of a hand under `rs`.  Text or a
    Hand must be a full hand of ``rs.hand_size`` (13: 13 / 14 tiles counting melds and
    jokers), as on the core routes (``efficiency._prepare``); a bare count vector may be
    a partial hand.  ``jokers`` (the keyword) join the text's own ``*`` before any check."""
    if isinstance(hand, str) and jokers:
        hand, jokers = hand + " " + "*" * jokers, 0
    if isinstance(hand, (str, Hand)):
        h = as_hand(hand, strict=False)
        _check_total(h.n_concealed + h.jokers + jokers, len(h.melds), rs.hand_size)
    else:
        h = as_hand(np.asarray(hand), strict=False)
    rule_spec(rs).check_melds(h.melds)      # an honour chow only where the ruleset plays it
    caps = [rs.copies[k] for k in range(34)]
    for m in h.melds:
        for t in m.tiles:
            caps[t] -= 1
    if min(caps) < 0:
        k = int(np.argmin(caps))
        raise InvalidHandError(f"melds hold more {tile_name(k)} than ruleset {rs.name} has")
    bad = [k for k in range(34) if h.concealed[k] and rs.copies[k] == 0]
    bad += [m.tile for m in h.melds if rs.copies[m.tile] == 0]
    if bad:
        raise InvalidHandError(f"{tile_name(bad[0])} is not in the tile set of ruleset "
                               f"{rs.name} ({rs.tiles})")
    return h, tuple(caps), jokers + h.jokers


def _check_engine(engine: str) -> bool:
    """True for the compiled engine."""
    if engine not in ENGINES:
        raise RuleError(f"engine must be one of {ENGINES}, got {engine!r}")
    return engine != "python"




_spec = per_ruleset(spec_of)
""":func:`spec_of`, kept per ruleset object (its compiled form is made once)."""


def ruleset_shanten(hand, rs, *, jokers: int = 0, per_form: bool = False,
                    engine: str = "auto", faces=None):
    """Shanten of a hand under ruleset `rs` (constraints, extra forms, tile set, jokers):
    an int, or ``{form: shanten}`` with `per_form` (:func:`form_shanten`).  `engine`:
    :data:`ENGINES` (the compiled engine by default; ``"python"`` the reference).
    `faces` (``uint8 (34,)``, optional): the held jokers' faces (:func:`wild_faces
    <majiang.efficiency.wild_faces>`), read by :func:`own_face_forms`."""
    fs = core_form_shanten if _check_engine(engine) else form_shanten
    h, caps, j = _hand_parts(hand, jokers, rs)
    kw = dict(caps=caps, n_melds=len(h.melds), spec=_spec(rs),
              meld_suits=_void_meld_suits(rs, h.melds))
    per = fs(h.concealed, jokers=j, **kw)
    per = own_face_forms(per, rs, h.concealed, j, faces, fs, **kw)
    return per if per_form else min(per.values())


def own_face_forms(per: dict, rs, counts, jokers: int, faces, fs=core_form_shanten,
                   **kw) -> dict:
    """``per`` (``{form: shanten}`` of ``counts`` with ``jokers``) with the extra forms
    (十三烂, 七星归位, which take no joker: :data:`EXTRA_FORM_KEPT`) also read with held
    wild tiles standing for their own faces, where the ruleset allows it
    (:attr:`JokerRule.own_face_natural <majiang.rules.jokers.JokerRule.own_face_natural>`:
    南昌 德国, "a 精 standing for its own face is a natural tile").

    `faces` (``uint8 (34,)`` or None): the faces of the wild tiles the hand was dealt or
    drew by sight.  With ``jokers`` below their number (some were discarded) the best
    ``jokers`` of them are kept (the player chooses which to throw); jokers beyond them
    (of no known face) take no part, as in the plain reading.  ``fs``: the per-form
    shanten function (:func:`core_form_shanten` or the reference), ``kw`` its keywords.
    Returns ``per`` itself when nothing changes (no faces, no such rule, no extra form,
    a hand with melds)."""
    jr = rs.jokers
    if (faces is None or not jokers or jr is None or not jr.own_face_natural
            or kw.get("n_melds") or not any(f in EXTRA_FORM_KEPT for f in per)):
        return per
    f = np.asarray(faces, dtype=np.int64)
    n = min(int(jokers), int(f.sum()))
    if n == 0:
        return per
    out = dict(per)
    kinds = [int(k) for k in np.flatnonzero(f)]
    base = np.asarray(counts, dtype=np.int64)
    for take in product(*(range(int(f[k]) + 1) for k in kinds)):
        if sum(take) != n:
            continue
        c = base.copy()
        for k, t in zip(kinds, take):
            c[k] += t
        got = fs(c, jokers=int(jokers) - n, **kw)
        for form in EXTRA_FORM_KEPT:
            if form in got and form in out:
                out[form] = min(out[form], got[form])
    return out


def _joker_kind(rs, indicator):
    """The wild kind (int), the wild kinds (tuple) with two kinds, or None (unknown)."""
    if rs.jokers is None or rs.jokers.flowers:
        return None
    if rs.jokers.source == "fixed" and rs.jokers.second is None:
        return rs.jokers.fixed
    if indicator is None and rs.jokers.needs_indicator:
        return None
    return rs.jokers.kinds(indicator) if rs.jokers.second else rs.joker_kind(indicator)


def _joker_copies(rs):
    if rs.jokers is None:
        return 4
    return rs.jokers.kind_copies if rs.jokers.second else rs.jokers.copies


def _joker_key(jk) -> str:
    """``"6m*"`` for one wild kind, ``"9p1p*"`` for two (正精 then 副精)."""
    return "".join(tile_name(k) for k in (jk if isinstance(jk, tuple) else (jk,))) + "*"


def stand_in(rs, indicator=None) -> tuple | None:
    """``(face, substitute, copies)`` when a substitute kind stands in for the joker
    kind's natural tile under `rs` and this `indicator` (安庆 红中; 温州, 上海百搭 活动百搭,
    杭州 flip: 白板): ``face`` the joker kind, ``substitute`` the stand-in kind,
    ``copies`` the face's drawable copies in a fresh wall (:meth:`GameModel.wall`: the
    stand-ins, a turned stand-in (安庆 红中 turned) already set apart; the analyses add
    :meth:`GameModel.set_apart` to ``visible``, so it is not taken off twice).  None without a substitute, when the joker kind is unknown (no
    indicator), or when the substitute is itself the joker kind (温州 with 白板 turned)."""
    jr = rs.jokers
    if jr is None or jr.substitute is None or jr.second is not None:
        return None
    if jr.source != "fixed" and indicator is None:
        return None
    face = jr.kind(indicator)
    if face == jr.substitute:
        return None
    from ..jokers import _kind
    from ..model import game_model
    n = int(game_model(rs).wall(indicator).counts[face])
    if jr.source == "next" and _kind(indicator) == jr.substitute:
        n += 1      # the face-up stand-in: counted once, through the visible tiles
    return (int(face), int(jr.substitute), n) if n > 0 else None


def melds_as_face(melds, face: int, sub: int) -> tuple:
    """``melds`` (:class:`~majiang.hand.Meld` objects) with each pung or kong of the
    stand-in kind ``sub`` (安庆 红中, 上海百搭 / 温州 / 杭州 翻财神 白板: ``[555z]``) as the
    same meld of the joker kind's ``face``, the one reading of a stand-in meld
    (:func:`majiang.efficiency.read_faces`, :meth:`majiang.Position.played_melds`); chows
    and other melds unchanged."""
    from ...hand import Meld
    return tuple(Meld(m.kind, face, m.concealed) if m.kind != "chow" and m.tile == sub
                 else m for m in melds)


def _seen(rs, visible, indicator, jokers: int = 0):
    """``visible`` plus the indicator the game model sets apart
    (:meth:`majiang.rules.model.GameModel.set_apart`), checked with the `jokers` held
    (:meth:`~majiang.rules.model.GameModel.check_seen`)."""
    if rs.jokers is None or (indicator is None and rs.jokers.needs_indicator):
        return visible
    from ..model import game_model
    model = game_model(rs)
    model.check_seen(visible, indicator, jokers)
    return model.seen_with_indicator(visible, indicator)


def _own_faces_apply(rs, indicator, n_melds: int) -> bool:
    """Whether wild tiles may stand for their own faces in the extra forms of `rs` for
    this hand (:func:`own_face_forms`): the rule, known wild kinds, an extra form in the
    ruleset and a concealed hand (十三烂 / 七星 take the whole hand)."""
    jr = rs.jokers
    return bool(jr is not None and jr.own_face_natural and not n_melds
                and (indicator is not None or jr.source == "fixed")
                and any(f in EXTRA_FORM_KEPT for f in rs.forms))


def _own_faces_matter(rs, indicator, counts, jokers: int, faces, slack: int, **kw) -> bool:
    """Whether the own-face reading (:func:`own_face_forms`) can change the ukeire of
    this hand (``slack`` 0 for a 3n+1 hand) or of any of its discards (``slack`` 1 for a
    3n+2 hand): :func:`_own_faces_apply`, and the extra forms read with the faces at
    most ``slack`` above the plain shanten.  A draw lowers a form's shanten by one at
    most and a discard raises the hand's by one at most, so beyond that every draw's
    verdict is the plain engine's (the common case: the compiled tables serve it)."""
    if not _own_faces_apply(rs, indicator, kw.get("n_melds", 0)):
        return False
    per = core_form_shanten(counts, jokers=int(jokers), **kw)
    own = own_face_forms(per, rs, counts, int(jokers), faces, **kw)
    extra = min((v for f, v in own.items() if f in EXTRA_FORM_KEPT), default=99)
    return extra <= min(per.values()) + slack


def _own_face_ukeire(rs, indicator, counts, jokers: int, faces, vis, **kw) -> tuple:
    """``(shanten, {kind: live})`` as :func:`ukeire_counts` (a joker draw under ``-1``)
    where wild tiles may stand for their own faces (:func:`_own_faces_apply`): every
    draw is judged by :func:`ruleset_shanten`'s reading (:func:`own_face_forms`), a drawn
    wild tile by its face too (drawing 正精 and drawing 副精 may differ in 十三烂).  Live
    copies: the kind's copies less the hand, melds (``caps``) and ``vis`` (a helpful kind
    with none left is listed with 0, as :func:`ukeire_counts` lists it); a wild kind's
    copies less its held faces and seen copies, less the jokers held without a face."""
    c = np.asarray(counts, dtype=np.int64)
    f = np.zeros(34, np.int64) if faces is None else np.asarray(faces, dtype=np.int64)
    v = np.zeros(34, np.int64) if vis is None else np.asarray(vis, dtype=np.int64)
    caps = np.asarray(kw["caps"], dtype=np.int64)

    def shanten(cc, jj, ff) -> int:
        per = core_form_shanten(cc, jokers=jj, **kw)
        return min(own_face_forms(per, rs, cc, jj, ff, **kw).values())

    s = shanten(c, jokers, f)
    kinds = rs.jokers.kinds(indicator)
    live: dict = {}
    for k in range(34):
        if k in kinds or c[k] + 1 > caps[k]:
            continue
        c[k] += 1
        if shanten(c, jokers, f) < s:       # listed with no copy left too, as ukeire_counts
            live[k] = max(0, int(caps[k] - c[k] + 1 - v[k]))
        c[k] -= 1
    faceless = max(0, int(jokers) - int(f.sum()))
    wild = 0
    for k, cp in zip(kinds, rs.jokers.kind_copies):
        n = max(0, int(cp) - int(f[k]) - int(v[k]))
        if n:
            f[k] += 1
            if shanten(c, jokers + 1, f) < s:
                wild += n
            f[k] -= 1
    wild -= faceless
    if wild > 0:
        live[-1] = wild
    return s, live


def ruleset_ukeire(hand, rs, visible=None, *, jokers: int = 0, indicator=None,
                   engine: str = "auto", faces=None) -> dict:
    """``{tile: live}`` under `rs`; a helpful joker draw is keyed ``"<joker kind>*"``, a
    helpful stand-in draw (:func:`stand_in`) by the substitute's own name (``"5z"``).
    `engine`: :data:`ENGINES` (the compiled engine by default).  `faces`: the held
    jokers' faces where they may stand for themselves (:func:`own_face_forms`; then
    every draw is judged by that reading, :func:`_own_face_ukeire`)."""
    uk = core_ukeire_counts if _check_engine(engine) else ukeire_counts
    h, caps, j = _hand_parts(hand, jokers, rs)
    n = h.n_concealed + j
    if n % 3 != 1:
        raise InvalidHandError(f"ukeire needs a hand waiting for a draw (3n+1 tiles), got {n}; "
                               "for a hand that must discard use discard_table()")
    visible = _seen(rs, visible, indicator, j)     # the turned indicator is set apart
    vis = None if visible is None else visible_counts(visible, h)
    jk = _joker_kind(rs, indicator)
    if _own_faces_matter(rs, indicator, h.concealed, j, faces, 0, caps=caps,
                         n_melds=len(h.melds), spec=_spec(rs), meld_suits=()):
        _, live = _own_face_ukeire(rs, indicator, h.concealed, j, faces, vis, caps=caps,
                                   n_melds=0, spec=_spec(rs), meld_suits=())
        return named_draws(live, jk)
    s, live = uk(h.concealed, jokers=j, caps=caps, n_melds=len(h.melds),
                 meld_suits=_void_meld_suits(rs, h.melds), spec=_spec(rs), visible=vis, joker_kind=jk,
                 joker_copies=_joker_copies(rs), stand_in=stand_in(rs, indicator))
    live = _flower_draw(rs, h.concealed, j, s, live, caps=caps, n_melds=len(h.melds),
                        spec=_spec(rs), meld_suits=_void_meld_suits(rs, h.melds))
    return named_draws(live, jk)


def named_draws(live: dict, joker_kind) -> dict:
    """``{kind: live}`` (a joker draw under -1) as ``{tile: live}`` in tile order, the
    joker draw last under ``"<joker kind>*"`` (:func:`_joker_key`; ``"*"`` for flower
    jokers, whose kind is none)."""
    out = {tile_name(k): v for k, v in sorted(live.items()) if k >= 0}
    if -1 in live:
        out["*" if joker_kind is None else _joker_key(joker_kind)] = live[-1]
    return out


def _flower_draw(rs, counts, j: int, s: int, live: dict, **kw) -> dict:
    """Under flower jokers (花鬼, :attr:`JokerRule.flowers`) a flower draw is a joker with
    no kind, which the per-kind engines do not list: ``live`` with the joker draw added
    under -1 when one more joker lowers the shanten ``s`` — the flowers not held (the
    other seats' are unseen).  ``live`` unchanged under any other joker rule."""
    jr = rs.jokers
    if jr is None or not jr.flowers or j >= jr.copies or -1 in live:
        return live
    if core_shanten_counts(counts, jokers=j + 1, **kw) < s:
        live = dict(live)
        live[-1] = int(jr.copies) - int(j)
    return live


def ruleset_discard_table(hand, rs, visible=None, *, jokers: int = 0, indicator=None,
                          engine: str = "auto", faces=None):
    """One row per distinct discard (jokers are kept), as :func:`majiang.discard_table`;
    the ``improvement`` column is NaN (not computed under regional shape rules).
    `engine`: :data:`ENGINES` (the compiled engine by default); `faces` as
    :func:`ruleset_ukeire`."""
    import pandas as pd
    compiled = _check_engine(engine)
    h, caps, j = _hand_parts(hand, jokers, rs)
    n = h.n_concealed + j
    if n % 3 != 2 or n > 17:
        raise InvalidHandError(f"a discard table needs a hand that must discard (3n+2 tiles, "
                               f"at most 17), got {n}; for a hand waiting for a draw use "
                               "ukeire()")
    visible = _seen(rs, visible, indicator, j)     # the turned indicator is set apart
    vis = np.zeros(34, np.int64) if visible is None else visible_counts(visible, h).astype(
        np.int64)
    spec = _spec(rs)
    jk = _joker_kind(rs, indicator)
    si = stand_in(rs, indicator)
    per = None
    if _own_faces_matter(rs, indicator, h.concealed, j, faces, 1, caps=caps,
                         n_melds=len(h.melds), spec=spec, meld_suits=()):
        per = []
        c = h.concealed.astype(np.int64)
        for d in np.flatnonzero(c):
            c[d] -= 1
            v = vis.copy()
            v[d] += 1
            s, live = _own_face_ukeire(rs, indicator, c, j, faces, v, caps=caps, n_melds=0,
                                       spec=spec, meld_suits=())
            c[d] += 1
            per.append((int(d), s, live))
    elif compiled:
        cs = _compiled(spec)
        c8, k8, v8 = _u8(h.concealed), _u8(caps), _u8_visible(vis)
        if (c8 is not None and k8 is not None and v8 is not False
                and not _unknown_whole(cs, c8, j, len(h.melds))
                and not beside_applies(spec, n, len(h.melds))):     # 八对: the loop below
            try:
                per = _cs.discard_ukeire(cs, c8, j, k8, len(h.melds),
                                         _meld_bits(_void_meld_suits(rs, h.melds)), v8, jk,
                                         _joker_copies(rs), si)
            except ValueError:      # refused (a count above its cap): the reference raises
                per = None
    if per is None:
        per = []
        c = h.concealed.astype(np.int64)
        for d in range(34):
            if not c[d]:
                continue
            c[d] -= 1
            v = vis.copy()
            # the discard is seen (a held face tile of the joker kind is a stand-in: the
            # discarded tile is the substitute)
            v[si[1] if si is not None and d == si[0] else d] += 1
            s, live = ukeire_counts(c, jokers=j, caps=caps, n_melds=len(h.melds), spec=spec,
                                    meld_suits=_void_meld_suits(rs, h.melds), visible=v, joker_kind=jk,
                                    joker_copies=_joker_copies(rs), stand_in=si,
                                    _shanten=core_shanten_counts if compiled else None)
            c[d] += 1
            per.append((d, s, live))
    rows = []
    if rs.jokers is not None and rs.jokers.flowers:     # 花鬼: a flower draw is a joker
        c = h.concealed.astype(np.int64)
        out = []
        for d, s, live in per:
            c[d] -= 1
            out.append((d, s, _flower_draw(rs, c, j, s, live, caps=caps, n_melds=len(h.melds),
                                           spec=spec,
                                           meld_suits=_void_meld_suits(rs, h.melds))))
            c[d] += 1
        per = out
    for d, s, live in per:
        eff = np.zeros(34, np.uint8)
        for k in live:
            if k >= 0:
                eff[k] = 1
        text = format_counts(eff) + ("*" if -1 in live else "")
        rows.append({"discard": tile_name(d), "shanten": int(s), "ukeire_kinds": len(live),
                     "ukeire_count": int(sum(live.values())), "ukeire": text,
                     "improvement": float("nan")})
    return pd.DataFrame(rows, columns=["discard", "shanten", "ukeire_kinds", "ukeire_count",
                                       "ukeire", "improvement"])

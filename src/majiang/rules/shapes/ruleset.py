"""Shanten, ukeire and discard tables of a hand under a ruleset (:func:`ruleset_shanten`,
:func:`ruleset_ukeire`, :func:`ruleset_discard_table`): the hand's melds, jokers, the
turned indicator and the stand-in tile (:func:`stand_in`) read from the ruleset, then
the compiled engine (:mod:`.compiled`) or the reference (:mod:`.reference`).
"""
from __future__ import annotations

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
                       core_form_shanten, core_ukeire_counts)
from .reference import form_shanten, ukeire_counts
from .spec import spec_of, three_jokers_win

__all__ = ["meld_suits", "needs_python", "ruleset_shanten", "ruleset_ukeire",
           "ruleset_discard_table", "stand_in", "named_draws"]


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
            or rs.tile_set not in ("136", "144")
            or three_jokers_win(rs))


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
                    engine: str = "auto"):
    """Shanten of a hand under ruleset `rs` (constraints, extra forms, tile set, jokers):
    an int, or ``{form: shanten}`` with `per_form` (:func:`form_shanten`).  `engine`:
    :data:`ENGINES` (the compiled engine by default; ``"python"`` the reference)."""
    fs = core_form_shanten if _check_engine(engine) else form_shanten
    h, caps, j = _hand_parts(hand, jokers, rs)
    per = fs(h.concealed, jokers=j, caps=caps, n_melds=len(h.melds), spec=_spec(rs),
             meld_suits=_void_meld_suits(rs, h.melds))
    return per if per_form else min(per.values())


def _joker_kind(rs, indicator):
    """The wild kind (int), the wild kinds (tuple) with two kinds, or None (unknown)."""
    if rs.jokers is None:
        return None
    if rs.jokers.source == "fixed" and rs.jokers.second is None:
        return rs.jokers.fixed
    if indicator is None and rs.jokers.source != "fixed":
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


def _seen(rs, visible, indicator, jokers: int = 0):
    """``visible`` plus the indicator the game model sets apart
    (:meth:`majiang.rules.model.GameModel.set_apart`), checked with the `jokers` held
    (:meth:`~majiang.rules.model.GameModel.check_seen`)."""
    if rs.jokers is None or (indicator is None and rs.jokers.source != "fixed"):
        return visible
    from ..model import game_model
    model = game_model(rs)
    model.check_seen(visible, indicator, jokers)
    return model.seen_with_indicator(visible, indicator)


def ruleset_ukeire(hand, rs, visible=None, *, jokers: int = 0, indicator=None,
                   engine: str = "auto") -> dict:
    """``{tile: live}`` under `rs`; a helpful joker draw is keyed ``"<joker kind>*"``, a
    helpful stand-in draw (:func:`stand_in`) by the substitute's own name (``"5z"``).
    `engine`: :data:`ENGINES` (the compiled engine by default)."""
    uk = core_ukeire_counts if _check_engine(engine) else ukeire_counts
    h, caps, j = _hand_parts(hand, jokers, rs)
    n = h.n_concealed + j
    if n % 3 != 1:
        raise InvalidHandError(f"ukeire needs a hand waiting for a draw (3n+1 tiles), got {n}; "
                               "for a hand that must discard use discard_table()")
    visible = _seen(rs, visible, indicator, j)     # the turned indicator is set apart
    vis = None if visible is None else visible_counts(visible, h)
    jk = _joker_kind(rs, indicator)
    _, live = uk(h.concealed, jokers=j, caps=caps, n_melds=len(h.melds),
                 meld_suits=_void_meld_suits(rs, h.melds), spec=_spec(rs), visible=vis, joker_kind=jk,
                 joker_copies=_joker_copies(rs), stand_in=stand_in(rs, indicator))
    return named_draws(live, jk)


def named_draws(live: dict, joker_kind) -> dict:
    """``{kind: live}`` (a joker draw under -1) as ``{tile: live}`` in tile order, the
    joker draw last under ``"<joker kind>*"`` (:func:`_joker_key`)."""
    out = {tile_name(k): v for k, v in sorted(live.items()) if k >= 0}
    if -1 in live:
        out[_joker_key(joker_kind)] = live[-1]
    return out


def ruleset_discard_table(hand, rs, visible=None, *, jokers: int = 0, indicator=None,
                          engine: str = "auto"):
    """One row per distinct discard (jokers are kept), as :func:`majiang.discard_table`;
    the ``improvement`` column is NaN (not computed under regional shape rules).
    `engine`: :data:`ENGINES` (the compiled engine by default)."""
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
    if compiled:
        cs = _compiled(spec)
        c8, k8, v8 = _u8(h.concealed), _u8(caps), _u8_visible(vis)
        if (c8 is not None and k8 is not None and v8 is not False
                and not _unknown_whole(cs, c8, j, len(h.melds))):
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
                                    joker_copies=_joker_copies(rs), stand_in=si)
            c[d] += 1
            per.append((d, s, live))
    rows = []
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

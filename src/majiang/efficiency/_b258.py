"""The ``pair_258_small`` route (长沙, 合肥, 武汉): shanten as the least over the
small-win shape and the ruleset's 大胡 shapes (:func:`_b258_groups`), its batch form,
ukeire as the union of the effective tiles of the groups at the minimum, and the
discard-table columns."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._core import efficiency as _eff
from ..tiles import KINDS_258, MASK_258, N_KINDS, _plain_counts, tile_name
from ._eight import _eight_groups, _eight_one
from ._hand import (_ERR_BAD_COUNT, _ERR_BAD_SIZE, _check_jokers, _core_error, _prepare,
                    _shape_options, _visible, size_error)
from ._plan import (_FORM_REGULAR, _FORM_SEVEN, _GROUP_SPAN, _closed_best,
                    _closed_families, _group_caps, _Plan258, _plan258)
from ._ruleset import _get_ruleset


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
        voids = tuple(v for v in range(3) if v not in meld_suits
                      and plan.declared in (None, v))
        void = sum(1 << v for v in voids)
        if not voids:
            return [("small", 99, ("core", c8, _FORM_REGULAR, caps, jokers, plan.pair_mask,
                                   0))]
    if plan.eight:              # 八枝: every group by the per-suit tables
        return _eight_groups(plan, c8, base, melds, jokers, prune, voids, void)
    seven_here = plan.seven and not melds and need == 14
    strict = MASK_258 if plan.strict else None
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
        k258 = list(KINDS_258)
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
        raise size_error(what, residue, n)
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
    if rs.jokers is not None and (indicator is not None or not rs.jokers.needs_indicator):
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
    from ..tiles import format_counts
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

"""合肥 八枝 (``eight_of_a_suit``: at the win one suit holds 8 or more tiles, melds
included): the groups of the 2-5-8 route maximised per suit by exact per-group tables
and combined in Python (:func:`_eight_groups`), since the core cannot express it."""
from __future__ import annotations

import numpy as np

from .._core import efficiency as _eff
from ..tiles import KINDS_258, MASK_258, N_KINDS
from ._plan import (_ALL_PAIRS, _FORM_REGULAR, _FORM_SEVEN, _GROUP_SPAN, _closed_best,
                    _closed_families, _group_caps, _Plan258)

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
    room = [sum(caps[k] for k in KINDS_258[3 * s:3 * s + 3]) for s in range(3)]
    held = [sum(min(c[k], caps[k]) for k in KINDS_258[3 * s:3 * s + 3]) for s in range(3)]
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
    strict = MASK_258 if plan.strict else None
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
    strict = MASK_258 if plan.strict else None
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

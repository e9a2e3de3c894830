"""The reference shape engine per form: the most tiles of a hand a complete target of
that form can keep (:mod:`majiang.rules.shapes`).  Regular hands per group of kinds
(every combination of sets and an optional pair of a suit or of the honors, within the
copies left) combined over the groups under the suit rules; seven pairs, thirteen
orphans and the extra forms 十三烂 / 七星归位 (:data:`EXTRA_FORM_KEPT`) directly.
``_NEG`` marks an impossible target.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product

import numpy as np

from ...errors import RuleError
from ...tiles import KINDS_258, TERMINALS_AND_HONORS

__all__ = ["EXTRA_FORM_KEPT", "lonely_patterns", "eight_pairs_kept", "eight_pairs_complete",
           "EIGHT_PAIRS_SIZE"]

_NEG = -1000


_HONOR_CHOWS = ((0, 1, 2), (1, 2, 3), (0, 2, 3), (0, 1, 3), (4, 5, 6))
"""The honour chows as positions of the honour group (东南西北中发白 = 0..6): any three
winds, the three dragons (:data:`majiang.hand.HONOR_CHOW_STARTS`, 南昌)."""


@lru_cache(maxsize=None)
def _group_targets(honors: bool, max_sets: int, honor_chows: bool = False):
    """(T (N, npos) int8, nsets (N,), pair position or -1 (N,)) of one group's targets;
    with ``honor_chows`` the honours' sets include the honour chows."""
    npos = 7 if honors else 9
    sets = []
    for r in range(npos):
        v = [0] * npos
        v[r] = 3
        sets.append(v)
    if not honors:
        for r in range(7):
            v = [0] * npos
            v[r] = v[r + 1] = v[r + 2] = 1
            sets.append(v)
    elif honor_chows:
        for trio in _HONOR_CHOWS:
            v = [0] * npos
            for r in trio:
                v[r] = 1
            sets.append(v)
    S = np.array(sets, dtype=np.int8)
    rows, ns = [], []
    for k in range(max_sets + 1):
        for combo in combinations_with_replacement(range(len(sets)), k):
            v = S[list(combo)].sum(0) if combo else np.zeros(npos, np.int8)
            if v.max(initial=0) <= 4:
                rows.append(v)
                ns.append(k)
    base = np.array(rows, dtype=np.int8)
    nsets = np.array(ns, dtype=np.int8)
    Ts, Ns, Ps = [base], [nsets], [np.full(len(base), -1, np.int8)]
    for r in range(npos):
        v = base.copy()
        v[:, r] += 2
        ok = v.max(1) <= 4
        Ts.append(v[ok])
        Ns.append(nsets[ok])
        Ps.append(np.full(int(ok.sum()), r, np.int8))
    return np.concatenate(Ts), np.concatenate(Ns), np.concatenate(Ps)


@lru_cache(maxsize=1 << 16)
def _group_best(h: tuple, caps: tuple, honors: bool, pair_mask: int, max_sets: int,
                honor_chows: bool = False) -> tuple:
    """best[n][p]: most tiles of `h` kept by a target of n sets (+ a pair if p) of this
    group within `caps`, the pair restricted to positions in `pair_mask`."""
    T, N, P = _group_targets(honors, max_sets, honors and honor_chows)
    ha = np.array(h, np.int8)
    ok = (T <= np.array(caps, np.int8)).all(1)
    if pair_mask != (1 << len(h)) - 1:
        allowed = np.array([bool(pair_mask >> r & 1) for r in range(len(h))] + [True])
        ok &= allowed[P]          # P == -1 indexes the trailing True
    kept = np.minimum(T, ha).sum(1)
    best = np.full((max_sets + 1, 2), _NEG, np.int64)
    has_pair = (P >= 0).astype(np.int64)
    np.maximum.at(best, (N[ok].astype(np.int64), has_pair[ok]), kept[ok])
    return tuple(tuple(int(x) for x in row) for row in best)


_GROUPS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))


def _regular_kept(c: tuple, caps: tuple, n_sets: int, void: int | None, pair_258: bool,
                  no_void: bool = False, meld_suits: frozenset = frozenset(),
                  honor_chows: bool = False) -> int:
    """Most tiles kept by a regular target of n_sets sets + a pair (exact).

    ``meld_suits``: suits already present in the exposed melds (they satisfy the
    all-three-suits rule, and can never be the void suit); ``honor_chows``: three
    different winds or the three dragons are a set too (南昌)."""
    if n_sets > 5:
        raise RuleError("at most 5 sets (16-tile hands) in the Python shape engine")
    # dp over groups: (sets, pair) -> kept
    dp = {(0, 0): 0}
    for g, (lo, hi, honors) in enumerate(_GROUPS):
        h = c[lo:hi]
        cp = caps[lo:hi]
        if g == void:
            if any(h):
                pass                      # every tile of the void suit is swapped out
            continue
        mask = (1 << (hi - lo)) - 1
        if pair_258:
            mask = 0 if honors else sum(1 << (k - lo) for k in KINDS_258 if lo <= k < hi)
        best = _group_best(h, cp, honors, mask, n_sets, honor_chows)
        new: dict = {}
        for (s, p), k in dp.items():
            for n in range(n_sets - s + 1):
                for q in (0, 1):
                    if p + q > 1:
                        continue
                    b = best[n][q]
                    if b <= _NEG // 2:
                        continue
                    if no_void and g < 3 and n == 0 and q == 0 and g not in meld_suits:
                        continue          # this suit must appear in the target
                    key = (s + n, p + q)
                    v = k + b
                    if new.get(key, _NEG) < v:
                        new[key] = v
        dp = new
    return dp.get((n_sets, 1), _NEG)


def _seven_pairs_kept(c: tuple, caps: tuple, quads: bool, kinds: tuple) -> int:
    vals = []
    for k in kinds:
        if caps[k] >= 2:
            vals.append(min(c[k], 2))
            if quads and caps[k] >= 4:
                vals.append(min(max(c[k] - 2, 0), 2))
    if len(vals) < 7:
        return _NEG
    vals.sort(reverse=True)
    return sum(vals[:7])


# ---------------------------------------------------------------- 八对 (温州)
EIGHT_PAIRS_SIZE = 17
"""八对 takes a fully concealed 17-tile hand (16-tile games: 温州)."""


def eight_pairs_kept(c, caps, kinds=range(34)) -> int:
    """Most tiles of ``c`` kept by an 八对 target — eight pairs and one more tile, 17 tiles
    of ``kinds``, fully concealed (温州 八对, "八对加单张"; a four of a kind counts as two
    pairs, read as 七对's 豪华 convention), within ``caps`` — or :data:`_NEG` when fewer
    than eight pairs fit.  The best target takes the eight best pair slots (a kind gives
    min(c, 2), and with four copies left a second slot min(c - 2, 2)); its odd tile keeps
    one more held tile when one is left over (which needs no further copy)."""
    vals = []
    for k in kinds:
        if caps[k] >= 2:
            vals.append(min(c[k], 2))
            if caps[k] >= 4:
                vals.append(min(max(c[k] - 2, 0), 2))
    if len(vals) < 8:
        return _NEG
    vals.sort(reverse=True)
    kept = sum(vals[:8])
    return kept + int(sum(c[k] for k in kinds) > kept)


def eight_pairs_complete(c) -> bool:
    """Whether the concealed counts ``c`` (34, the winning tile included, no melds) are an
    八对 hand: 17 tiles, eight pairs (a four counts as two) and one more tile — exactly one
    kind held an odd number of times."""
    return sum(c) == EIGHT_PAIRS_SIZE and eight_pairs_kept(c, (4,) * 34) == EIGHT_PAIRS_SIZE


_ORPHANS = TERMINALS_AND_HONORS


def _orphans_kept(c: tuple, caps: tuple) -> int:
    if any(caps[k] < 1 for k in _ORPHANS):
        return _NEG
    kept = sum(1 for k in _ORPHANS if c[k])
    if any(c[k] >= 2 and caps[k] >= 2 for k in _ORPHANS):
        kept += 1
    elif not any(caps[k] >= 2 for k in _ORPHANS):
        return _NEG
    return kept


# ---------------------------------------------------------------- 十三烂 / 七星归位
@lru_cache(maxsize=None)
def lonely_patterns() -> tuple:
    """Rank subsets (0-based) of one suit whose members are pairwise at least 3 apart."""
    out = []
    for k in range(4):
        for combo in combinations(range(9), k):
            if all(b - a >= 3 for a, b in zip(combo, combo[1:])):
                out.append(combo)
    return tuple(out)


def _lonely_kept(c: tuple, caps: tuple, honors_needed: int | None) -> int:
    """Most tiles kept by a 十三烂 target (all 7 honors with honors_needed=7)."""
    per_suit = []
    for s in range(3):
        best = [_NEG] * 4
        for pat in lonely_patterns():
            if any(caps[9 * s + r] < 1 for r in pat):
                continue
            k = sum(1 for r in pat if c[9 * s + r])
            if k > best[len(pat)]:
                best[len(pat)] = k
        per_suit.append(best)
    honors_avail = [k for k in range(27, 34) if caps[k] >= 1]
    honors_held = sum(1 for k in honors_avail if c[k])
    best = _NEG
    for a, b, d in product(range(4), repeat=3):
        h = 14 - a - b - d
        if h < 0 or h > len(honors_avail):
            continue
        if honors_needed is not None and h != honors_needed:
            continue
        v = per_suit[0][a] + per_suit[1][b] + per_suit[2][d] + min(h, honors_held)
        best = max(best, v)
    return best


EXTRA_FORM_KEPT = {
    "thirteen_lonely": lambda c, caps: _lonely_kept(c, caps, None),
    "seven_stars": lambda c, caps: _lonely_kept(c, caps, 7),
}
"""Extra forms: ``kept(counts, caps) -> int`` (jokers never take part: 安庆 "drawing a
joker breaks 十三烂").  Both need a fully concealed 14-tile hand."""

"""二五八将 for a small win (``pair_258_small``): what the 2-5-8 route needs of a
ruleset (:class:`_Plan258`, cached per ruleset) and the closed-form families (all pungs,
all 2/5/8, 全求人), exact."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._memo import per_ruleset
from ..errors import RuleError
from ..tiles import KINDS_258, N_KINDS

# ------------------------------------------------ 二五八将 for a small win (pair_258_small)
_ALL_PAIRS = (1 << N_KINDS) - 1
_FORM_REGULAR = 1
_FORM_SEVEN = 2


class _Plan258:
    """What :func:`_b258_groups` needs of a ruleset of the 2-5-8 shape families (cached
    per ruleset), read from its rule spec (:class:`~majiang.rules.model.RuleSpec`) and
    the one reading of its families (:func:`majiang.rules.fans.shape_families`): the
    small win's pair mask and the big shape families, kinds no complete hand may hold
    (武汉: 红中), whether a small win allows at most one joker, the seven-pairs quad
    option, 二五八将 for every regular group, 缺一门, 八枝 and the tile-set copies."""

    __slots__ = ("rs", "fams", "banned", "one_joker", "quads", "seven", "pungs", "j258",
                 "melded", "groups", "copies", "cache", "pair_mask", "void", "strict",
                 "eight", "row_by_row", "declared")

    def __init__(self, rs: Any) -> None:
        from ..rules.fans import shape_families
        from ..rules.model import game_model
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
        self.declared = model.declared_void     # 定缺: that suit (rules.derived.with_void)
        self.eight = model.eight_of_a_suit      # 合肥 八枝: _eight_groups
        self.row_by_row = self.void or self.strict or self.eight   # _b258_batch
        self.banned = model.banned_kinds
        self.one_joker = model.one_joker_small
        self.quads = model.seven_pairs_quads
        self.seven = "seven_pairs" in self.fams
        self.pungs = "all_pungs" in self.fams
        self.j258 = "all_258" in self.fams
        self.melded = "melded_all" in self.fams
        self.groups = ((tuple((f"flush:{'mps'[g]}", g) for g in range(3))
                        if "flush" in self.fams else ())
                       + ((("all_honors", 3),) if "all_honors" in self.fams else ()))
        self.copies = np.array(model.copies)     # an own writable copy (the kernels take it as caps)
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
        room = sum(caps[k] for k in KINDS_258)
        if room < need:
            return 99
        kept = min(need, sum(min(c[k], caps[k]) for k in KINDS_258))
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


def _closed_families(plan: _Plan258, melds: tuple, need: int) -> list:
    """The closed-form families of :func:`_b258_groups` open to a hand with these melds:
    ``all_pungs`` (no chow melded), ``all_258`` (every meld tile a 2, 5 or 8),
    ``melded_all`` (four claimed melds, the pair alone concealed)."""
    closed = []
    if plan.pungs and all(m.kind != "chow" for m in melds):
        closed.append("all_pungs")
    if plan.j258 and all(t in KINDS_258 for m in melds for t in m.tiles):
        closed.append("all_258")
    if (plan.melded and len(melds) == 4 and need == 2
            and all(not m.concealed for m in melds)):
        closed.append("melded_all")
    return closed

"""Exact combinatorics of complete hands under a ruleset's tile set, forms and shape rules.

:func:`count_complete_hands` counts the complete hands of ``hand_size + 1`` tiles
(14, or 17 for 16-tile rulesets) — as kind-count vectors and weighted by physical
tiles (``∏ C(copies_k, count_k)``) — and the probability that a dealt hand is
complete (天和 odds before any fan condition): weighted / ``C(N, hand_size + 1)``,
``N`` the playable tiles of the set (flowers are replaced as they are dealt, so the
final hand is a uniform subset of the playable tiles).

Method (no enumeration of whole hands): a regular hand splits into four components
(three suits, the honors), each of which must itself be sets plus at most one pair;
a component vector's tile count fixes its number of sets and pairs.  So the complete
component vectors are generated once from the multisets of sets (pungs, chows) and
an optional pair, and whole hands are counted by convolving the components, with
the shape rules tracked in the state: 缺一门 (a suit left empty), all three suits
present, 二五八将 (the pair component has a reading with a 2/5/8 pair).  Seven pairs
is a dynamic programme over the 34 kinds; thirteen orphans and the knitted forms
(全不靠, 组合龙) are enumerated explicitly.  Overlaps (a hand complete in several
forms) are removed in the total: |regular ∪ seven pairs| by inclusion–exclusion
(the intersection convolved the same way over even component vectors), the few
explicit hands by membership tests.

Not applied (listed in ``DataFrame.attrs["not_applied"]``): conditions that need the
fans or the game (minimum fan, 大胡 exemptions, 开门 with a concealed hand is applied
as "no complete dealt hand wins").  Jokers are not supported yet (RuleError).
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb
from typing import Any

import numpy as np

from ..errors import RuleError
from ..rules.knitted import KNITTED_STRAIGHTS
from ..rules.constraints import SHAPE_CONSTRAINTS
from ..rules.model import SELF_DRAW_SAFE, game_model
from ..tiles import HONORS, KINDS_258, TERMINALS_AND_HONORS

__all__ = ["count_complete_hands", "COUNTABLE_FORMS"]

COUNTABLE_FORMS = ("regular", "seven_pairs", "thirteen_orphans", "honors_and_knitted",
                   "knitted_straight")
_APPLIED = SHAPE_CONSTRAINTS | SELF_DRAW_SAFE
_ORPHANS = TERMINALS_AND_HONORS
_RANKS_258 = frozenset(k % 9 for k in KINDS_258)


@lru_cache(maxsize=None)
def _components(n_ranks: int, chows: bool, caps: tuple, max_sets: int) -> dict:
    """Complete vectors of one component: ``{vector: (sets, pair, pair_ranks)}``.

    ``pair_ranks`` is the frozenset of ranks the pair can sit on over all readings
    (empty without a pair).
    """
    blocks = [(r, r, r) for r in range(n_ranks)]
    if chows:
        blocks += [(r, r + 1, r + 2) for r in range(n_ranks - 2)]
    out: dict = {}
    for k in range(max_sets + 1):
        for combo in combinations_with_replacement(range(len(blocks)), k):
            base = [0] * n_ranks
            for b in combo:
                for r in blocks[b]:
                    base[r] += 1
            if any(base[r] > caps[r] for r in range(n_ranks)):
                continue
            key = tuple(base)
            if key not in out:
                out[key] = (k, 0, frozenset())
            for p in range(n_ranks):
                if base[p] + 2 > caps[p]:
                    continue
                v = list(base)
                v[p] += 2
                key = tuple(v)
                old = out.get(key)
                out[key] = (k, 1, (old[2] if old else frozenset()) | {p})
    return out


def _weight(v: tuple, caps: tuple) -> int:
    w = 1
    for c, cap in zip(v, caps):
        w *= comb(cap, c)
    return w


def _even_units(v: tuple, quads: bool) -> int | None:
    """Seven-pairs units of a component vector (counts 0/2, or 0/2/4 with quads)."""
    u = 0
    for c in v:
        if c == 2:
            u += 1
        elif c == 4 and quads:
            u += 2
        elif c != 0:
            return None
    return u


class _Counter:
    def __init__(self, copies: np.ndarray, hand_size: int, quads: bool, *,
                 void: bool = False, all_suits: bool = False, pair_258: bool = False):
        self.caps = tuple(int(x) for x in copies)
        self.n = hand_size + 1
        self.sets = (self.n - 2) // 3
        self.quads = quads
        self.void = void                # 缺一门
        self.all_suits = all_suits      # every suit held (no_void)
        self.p258 = pair_258            # 二五八将
        self.comp = [_components(9, True, self.caps[9 * s:9 * s + 9], self.sets)
                     for s in range(3)] + [_components(7, False, self.caps[27:], self.sets)]

    # -- shape rules over the whole hand -------------------------------------------------
    def _suits_ok(self, mask: int) -> bool:
        if self.void and mask == 0b111:
            return False
        if self.all_suits and mask != 0b111:
            return False
        return True

    def _pair_ok(self, comp: int, pair_ranks: frozenset) -> bool:
        if not self.p258:
            return True
        return comp < 3 and bool(pair_ranks & _RANKS_258)

    # -- regular (and regular ∩ seven pairs) by convolution ---------------------------
    def regular(self, even_only: bool = False) -> tuple[int, int]:
        # state: (tiles, pairs, pair rule met, suit mask, units) -> [count, weight]
        states = {(0, 0, False, 0, 0): [1, 1]}
        for ci, comp in enumerate(self.comp):
            caps = self.caps[9 * ci:9 * ci + 9] if ci < 3 else self.caps[27:]
            prof: dict = {}
            for v, (m, p, pr) in comp.items():
                u = 0
                if even_only:
                    u = _even_units(v, self.quads)
                    if u is None:
                        continue
                key = (sum(v), p, p == 1 and self._pair_ok(ci, pr),
                       (1 << ci) if ci < 3 and any(v) else 0, u)
                acc = prof.setdefault(key, [0, 0])
                acc[0] += 1
                acc[1] += _weight(v, caps)
            nxt: dict = {}
            for (t, p, ok, mask, u), (c, w) in states.items():
                for (t2, p2, ok2, mask2, u2), (c2, w2) in prof.items():
                    if t + t2 > self.n or p + p2 > 1:
                        continue
                    key = (t + t2, p + p2, ok or ok2, mask | mask2, u + u2)
                    acc = nxt.setdefault(key, [0, 0])
                    acc[0] += c * c2
                    acc[1] += w * w2
            states = nxt
        count = weight = 0
        for (t, p, ok, mask, u), (c, w) in states.items():
            if t != self.n or p != 1 or not ok or not self._suits_ok(mask):
                continue
            if even_only and u != 7:
                continue
            count += c
            weight += w
        return count, weight

    def is_regular(self, v: tuple) -> bool:
        pairs = 0
        pair_ok = True
        mask = 0
        for ci in range(4):
            sub = v[9 * ci:9 * ci + 9] if ci < 3 else v[27:]
            got = self.comp[ci].get(tuple(sub))
            if got is None:
                return False
            m, p, pr = got
            pairs += p
            if p:
                pair_ok = self._pair_ok(ci, pr)
            if ci < 3 and any(sub):
                mask |= 1 << ci
        return pairs == 1 and pair_ok and self._suits_ok(mask)

    # -- seven pairs ---------------------------------------------------------------------
    def seven_pairs(self) -> tuple[int, int]:
        if self.n != 14:
            return 0, 0
        states = {(0, 0): [1, 1]}
        for k in range(34):
            cap = self.caps[k]
            opts = [(0, 0, 1)]
            if cap >= 2:
                opts.append((1, 2, comb(cap, 2)))
            if self.quads and cap >= 4:
                opts.append((2, 4, 1))
            bit = (1 << (k // 9)) if k < 27 else 0
            nxt: dict = {}
            for (u, mask), (c, w) in states.items():
                for du, cnt, wk in opts:
                    if u + du > 7:
                        continue
                    key = (u + du, mask | (bit if cnt else 0))
                    acc = nxt.setdefault(key, [0, 0])
                    acc[0] += c
                    acc[1] += w * wk
            states = nxt
        count = weight = 0
        for (u, mask), (c, w) in states.items():
            if u == 7 and self._suits_ok(mask):
                count += c
                weight += w
        return count, weight

    def is_seven_pairs(self, v: tuple) -> bool:
        u = _even_units(v, self.quads)
        mask = sum(1 << s for s in range(3) if any(v[9 * s:9 * s + 9]))
        return self.n == 14 and u == 7 and self._suits_ok(mask)

    # -- explicit small forms --------------------------------------------------------------
    def _ok_vector(self, v: list) -> bool:
        if any(c > cap for c, cap in zip(v, self.caps)):
            return False
        mask = sum(1 << s for s in range(3) if any(v[9 * s:9 * s + 9]))
        return self._suits_ok(mask)

    def thirteen_orphans(self) -> list:
        if self.n != 14:
            return []
        out = []
        for p in _ORPHANS:
            v = [0] * 34
            for k in _ORPHANS:
                v[k] = 1
            v[p] += 1
            if self._ok_vector(v):
                out.append(tuple(v))
        return out

    def honors_and_knitted(self) -> list:
        if self.n != 14:
            return []
        out = set()
        for knit in KNITTED_STRAIGHTS:
            kinds = list(knit) + list(HONORS)
            for drop in combinations_with_replacement(range(16), 2):
                if drop[0] == drop[1]:
                    continue
                v = [0] * 34
                for i, k in enumerate(kinds):
                    if i not in drop:
                        v[k] = 1
                if self._ok_vector(v):
                    out.add(tuple(v))
        return sorted(out)

    def knitted_straight(self) -> list:
        if self.n != 14:
            return []
        sets = [(k, k, k) for k in range(34)] + \
            [(k, k + 1, k + 2) for s in range(3) for k in range(9 * s, 9 * s + 7)]
        out = set()
        for knit in KNITTED_STRAIGHTS:
            for st in sets:
                for p in range(34):
                    v = [0] * 34
                    for k in knit:
                        v[k] += 1
                    for k in st:
                        v[k] += 1
                    v[p] += 2
                    if self._ok_vector(v):
                        out.add(tuple(v))
        return sorted(out)


def count_complete_hands(ruleset: Any = None, *, forms: Any = None):
    """Number of complete hands under a ruleset, per winning form and in total.

    Parameters
    ----------
    ruleset : None, str, Ruleset or GameModel
        ``None``: the default ruleset, Chinese Official rules (``"mcr"``);
        ``"plain"``: riichi-style forms (regular, seven pairs with distinct pairs,
        thirteen orphans) on 136 tiles.  The ruleset's tile set, hand
        size, forms (seven pairs with or without a quad as two pairs) and shape
        rules (缺一门 void suit, all three suits, 二五八将 pair).
    forms : sequence of str, optional
        Restrict to these of the ruleset's forms.

    Returns
    -------
    pandas.DataFrame
        One row per form and a last row ``form == "total"``; columns ``form``
        (str), ``hands`` (int64: complete kind-count vectors of ``hand_size + 1``
        tiles), ``weighted`` (int64: sets of physical tiles, ``∏ C(copies, count)``),
        ``probability`` (float64: weighted / ``C(N, hand_size + 1)``, the chance that
        a dealt hand of that many tiles is complete).  In the total a hand complete
        in several forms counts once.  ``attrs``: ``ruleset``, ``tiles`` (N),
        ``not_applied`` (conditions of the ruleset not counted, e.g. ``min_fan``).

    Raises
    ------
    RuleError
        Unknown ruleset or form, or a ruleset with jokers (not supported yet).
    """
    import pandas as pd

    model = game_model(ruleset)
    if model.jokers is not None:
        raise RuleError(f"count_complete_hands does not support jokers yet ({model.name})")
    use = tuple(model.forms) if forms is None else tuple(forms)
    bad = [f for f in use if f not in model.forms or f not in COUNTABLE_FORMS]
    if bad:
        raise RuleError(f"cannot count forms {bad} under {model.name}; countable forms of "
                        f"this ruleset: {[f for f in model.forms if f in COUNTABLE_FORMS]}")
    if not use:
        raise RuleError("no form to count")
    not_applied = list(model.constraints_beyond(_APPLIED))
    if model.min_fan:
        not_applied.append(f"min_fan={model.min_fan}")
    closed_ok, why = model.closed_hand_can_win()
    c = _Counter(model.copies, model.hand_size, model.seven_pairs_quads,
                 void=model.void_suit, all_suits=model.no_void,
                 pair_258=model.pair_kinds is not None)
    N = int(model.copies.sum())
    total_comb = comb(N, c.n)
    rows = []
    reg = sp = (0, 0)
    both = (0, 0)
    if "regular" in use:
        reg = c.regular()
        rows.append(("regular", *reg))
    if "seven_pairs" in use:
        sp = c.seven_pairs()
        rows.append(("seven_pairs", *sp))
        if "regular" in use:
            both = c.regular(even_only=True)
    tot_h = reg[0] + sp[0] - both[0]
    tot_w = reg[1] + sp[1] - both[1]
    for form, fn in (("thirteen_orphans", c.thirteen_orphans),
                     ("honors_and_knitted", c.honors_and_knitted),
                     ("knitted_straight", c.knitted_straight)):
        if form not in use:
            continue
        vecs = fn()
        h = len(vecs)
        w = sum(_weight(v, c.caps) for v in vecs)
        rows.append((form, h, w))
        for v in vecs:
            if ("regular" in use and c.is_regular(v)) or \
                    ("seven_pairs" in use and c.is_seven_pairs(v)):
                continue
            tot_h += 1
            tot_w += _weight(v, c.caps)
    rows.append(("total", tot_h, tot_w))
    if not closed_ok:
        rows = [(f, 0, 0) for f, _, _ in rows]
        not_applied.append(f"no dealt hand wins: {why}")
    df = pd.DataFrame(rows, columns=["form", "hands", "weighted"])
    df["hands"] = df["hands"].astype(np.int64)
    df["weighted"] = df["weighted"].astype(np.int64)
    df["probability"] = [w / total_comb for _, _, w in rows]
    df.attrs.update(ruleset=model.name, tiles=N, not_applied=tuple(not_applied))
    return df

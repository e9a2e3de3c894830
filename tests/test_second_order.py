"""The second-order (改良) column of the discard table against a reference from scratch.

The kernel (``second_order_c`` in majiang/_core/efficiency_second_order.pxi) is
incremental: it keeps the min-plus products of the groups a draw or discard leaves
alone, memoises the 3n+1 states it meets within a call and prunes the draws that cannot
lower the shanten.  The reference here shares none of that: it follows the definition of
the ``improvement`` column (see ``majiang.discard_table``) path by path, in plain
Python, and takes every shanten from the public functions (``majiang.shanten`` for a
hand with melds, ``majiang.shanten_batch`` -- the same kernel as ``shanten`` without the
Python per call -- for bare count vectors):

    improvement(d) = sum_k live(k) * best(k) / sum_k live(k)

over the draws k that lower the shanten s of h - d (live copies: copies available
minus held minus visible minus the discarded d, only k with live > 0), where best(k)
is the largest live ukeire over the discards d2 of h - d + k that keep shanten s - 1
(-1 if none), and the live ukeire of a state S counts, over the draws j that lower
its shanten, the copies of j not held in S, not visible and not the discarded d.
NaN when s <= 0 or no draw is live.

Cases: seeded random hands (uniform, near a complete hand, near seven pairs, near
thirteen orphans, one-suit heavy), with and without visible tiles, the default forms,
seven pairs with quads, single forms; partial hands (fewer concealed tiles); melds;
rulesets with a reduced tile set, a void suit (缺一门) and the 2-5-8 pair; jokers with
and without the fifth copy; the knitted forms (mcr); 16-tile hands.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import majiang as mj
from majiang.efficiency import discard_columns
from majiang.hand import Hand, Meld

ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
WALL = np.repeat(np.arange(34), 4)
N_PLAIN = 25            # hands per plain variant (150 in all); more in the slow test


# ============================================================ the reference
def reference_columns(h, visible, caps, shanten_many, n_tiles_kinds=34):
    """(shanten, ukeire_count, improvement) per discard kind of h, in tile order, from
    ``shanten_many(list of count vectors) -> list of shanten`` only."""
    h = np.asarray(h, np.int64)
    vis = np.zeros(34, np.int64) if visible is None else np.asarray(visible, np.int64)
    caps = np.asarray(caps, np.int64)
    kinds = [d for d in range(34) if h[d]]

    cache: dict[bytes, int] = {}

    def need(vectors):
        new = {}
        for v in vectors:
            key = v.astype(np.uint8).tobytes()
            if key not in cache and key not in new:
                new[key] = v
        if new:
            for key, s in zip(new, shanten_many(list(new.values()))):
                cache[key] = int(s)

    def sh(v):
        return cache[v.astype(np.uint8).tobytes()]

    def draws(S):
        return [j for j in range(34) if S[j] < caps[j]]

    def plus(S, j):
        T = S.copy()
        T[j] += 1
        return T

    def effective(S):
        return [j for j in draws(S) if sh(plus(S, j)) < sh(S)]

    # level 1: h - d and its draws
    first = {d: h - np.eye(34, dtype=np.int64)[d] for d in kinds}
    need(first.values())
    need([plus(S, j) for S in first.values() for j in draws(S)])
    # level 2: every state h - d + k - d2 along an effective, live draw k
    paths = {}
    for d in kinds:
        S = first[d]
        s = sh(S)
        seen = vis.copy()
        seen[d] += 1
        live = {k: max(caps[k] - S[k] - seen[k], 0) for k in effective(S)}
        paths[d] = (s, seen, live, {})
        if s <= 0:
            continue
        for k, w in live.items():
            if w <= 0:
                continue
            H = plus(S, k)
            paths[d][3][k] = [H - np.eye(34, dtype=np.int64)[d2] for d2 in range(34) if H[d2]]
    need([S2 for d in paths for states in paths[d][3].values() for S2 in states])
    # level 3: the draws of the states that keep shanten s - 1
    keep = [S2 for d in paths for states in paths[d][3].values() for S2 in states
            if sh(S2) == paths[d][0] - 1]
    need([plus(S2, j) for S2 in keep for j in draws(S2)])

    out = []
    for d in kinds:
        s, seen, live, by_draw = paths[d]
        improvement = math.nan
        if s > 0:
            acc = 0.0
            wsum = 0
            for k in sorted(by_draw):
                best = -1
                for S2 in by_draw[k]:
                    if sh(S2) != s - 1:
                        continue
                    total = sum(max(caps[j] - S2[j] - seen[j], 0) for j in effective(S2))
                    best = max(best, total)
                acc += live[k] * best
                wsum += live[k]
            if wsum > 0:
                improvement = acc / wsum
        out.append((s, sum(live.values()), improvement))
    return out


def check(hand_counts, *, melds=(), visible=None, forms=None, quads=None, jokers=0,
          fifth=False, ruleset=None, caps=None):
    """Compare the kernel's columns with the reference for one hand."""
    h = np.ascontiguousarray(hand_counts, np.uint8)
    if caps is None:
        copies = np.full(34, 4, np.int64) if ruleset is None else \
            np.asarray(mj.rules.get(ruleset).copies, np.int64)
        locked = np.zeros(34, np.int64)
        for m in melds:
            for t in m.tiles:
                locked[t] += 1
        caps = copies - locked
    hand = Hand(h, tuple(melds), jokers=0) if melds else h
    kw = dict(forms=forms, seven_pairs_quads=quads, ruleset=ruleset)
    if melds:
        def shanten_many(vectors):
            return [mj.shanten(Hand(np.asarray(v, np.uint8), tuple(melds), jokers=jokers),
                               joker_fifth_copy=fifth, **kw) for v in vectors]
    else:
        def shanten_many(vectors):
            return mj.shanten_batch(np.array(vectors, np.uint8), jokers=jokers,
                                    joker_fifth_copy=fifth, **kw)
    names, sh, kinds, count, texts, impr = discard_columns(
        hand, visible, forms, quads, True, jokers, fifth, ruleset)
    ref = reference_columns(h, visible, caps, shanten_many)
    assert names == [mj.tiles.tile_name(d) for d in range(34) if h[d]]
    assert list(sh) == [r[0] for r in ref]
    assert list(count) == [r[1] for r in ref]
    np.testing.assert_array_equal(impr, np.array([r[2] for r in ref]),
                                  err_msg=f"{mj.format_counts(h)} {melds} {kw} j={jokers}")
    return impr


# ============================================================ random hands
def near_complete(rng, n_sets=4, swaps=None):
    c = np.zeros(34, np.int64)
    for _ in range(n_sets):
        while True:
            if rng.random() < 0.5:
                k = int(rng.integers(34))
                if c[k] <= 1:
                    c[k] += 3
                    break
            else:
                s, r = int(rng.integers(3)), int(rng.integers(7))
                k = 9 * s + r
                if c[k:k + 3].max() <= 3:
                    c[k:k + 3] += 1
                    break
    while True:
        k = int(rng.integers(34))
        if c[k] <= 2:
            c[k] += 2
            break
    return swap(rng, c, int(rng.integers(1, 4)) if swaps is None else swaps)


def swap(rng, c, n):
    c = c.copy()
    for _ in range(n):
        out = int(rng.choice(np.flatnonzero(c)))
        c[out] -= 1
        while True:
            k = int(rng.integers(34))
            if c[k] < 4 and k != out:
                c[k] += 1
                break
    return c


def near_seven_pairs(rng):
    ks = rng.choice(34, 7, replace=False)
    c = np.zeros(34, np.int64)
    c[ks] = 2
    return swap(rng, c, int(rng.integers(1, 4)))


def near_orphans(rng):
    c = np.zeros(34, np.int64)
    c[list(ORPHANS)] = 1
    c[ORPHANS[int(rng.integers(13))]] += 1
    return swap(rng, c, int(rng.integers(1, 5)))


def one_suit(rng, n=14):
    suit = int(rng.integers(3))
    while True:
        c = np.bincount(9 * suit + rng.integers(0, 9, n), minlength=34)
        if c.max() <= 4:
            return c


def uniform(rng, n=14):
    return np.bincount(rng.choice(WALL, n, replace=False), minlength=34)


def random_hand(rng, i):
    return [uniform, near_complete, near_seven_pairs, near_orphans, one_suit][i % 5](rng)


def random_visible(rng, c, copies=None):
    copies = np.full(34, 4) if copies is None else np.asarray(copies)
    v = np.bincount(rng.choice(WALL, int(rng.integers(0, 30)), replace=False), minlength=34)
    return np.ascontiguousarray(np.minimum(v, copies - c).clip(0), np.uint8)


# ============================================================ tests
@pytest.mark.parametrize("variant", ["default", "visible", "quads", "regular",
                                     "seven_pairs", "orphans"])
def test_plain_hands(variant):
    rng = np.random.default_rng(["default", "visible", "quads", "regular", "seven_pairs",
                                 "orphans"].index(variant) + 100)
    kw = {"default": {}, "visible": {}, "quads": {"quads": True},
          "regular": {"forms": ("regular",)},
          "seven_pairs": {"forms": ("regular", "seven_pairs"), "quads": True},
          "orphans": {"forms": ("seven_pairs", "thirteen_orphans")}}[variant]
    finite = 0
    for i in range(N_PLAIN):
        c = random_hand(rng, i)
        vis = random_visible(rng, c) if variant == "visible" or i % 3 == 0 else None
        impr = check(c, visible=vis, **kw)
        finite += int(np.isfinite(impr).sum())
    assert finite > 2 * N_PLAIN        # the column is exercised, not all NaN


def test_partial_hands_and_melds():
    rng = np.random.default_rng(7)
    for i in range(24):
        n = (2, 5, 8, 11)[i % 4]
        c = uniform(rng, n) if i % 2 else near_complete(rng, n // 3)
        check(c, visible=random_visible(rng, c) if i % 3 else None)
    # the same concealed tiles with exposed melds: the melds' copies are not live
    for i in range(5):
        c = near_complete(rng, 3) if i % 2 else uniform(rng, 11)
        free = [k for k in range(34) if c[k] == 0]
        melds = (Meld("pung", free[int(rng.integers(len(free)))]),)
        check(c, melds=melds)


@pytest.mark.parametrize("ruleset", ["sichuan", "kawuxing", "lisi"])
def test_rulesets_with_caps_and_void_suit(ruleset):
    """Tile sets without honors (108) or without 万 and winds (84), 缺一门 void suits."""
    rs = mj.rules.get(ruleset)
    copies = np.asarray(rs.copies)
    rng = np.random.default_rng(len(ruleset))
    wall = np.repeat(np.arange(34), copies)
    done = 0
    while done < 8:
        if done % 2:
            c = np.bincount(rng.choice(wall, 14, replace=False), minlength=34)
        else:
            c = near_complete(rng)
            if np.any(c > copies):
                continue
        vis = random_visible(rng, c, copies) if done % 3 == 0 else None
        check(c, visible=vis, ruleset=ruleset)
        done += 1
    # with a meld: fewer copies of its kinds, and its suit is no longer void
    done = 0
    while done < 2:
        c = np.bincount(rng.choice(wall, 11, replace=False), minlength=34)
        suit = int(rng.integers(3))
        free = [k for k in range(9 * suit, 9 * suit + 7)
                if copies[k] and c[k:k + 3].max() < 4 and copies[k + 2]]
        if not free:
            continue
        check(c, melds=(Meld("chow", free[int(rng.integers(len(free)))]),), ruleset=ruleset)
        done += 1


@pytest.mark.parametrize("void_suits,mask", [(0, 1), (0, 3), (7, 3)])
def test_258_pair_with_caps(void_suits, mask):
    """The 2-5-8 pair (二五八将) with the 108-tile caps, with and without a void suit, at
    the kernel's options: the rulesets that ask for it decide per hand when it applies
    (a small win), so the shanten oracle here is the core's batch shanten under the same
    options (``shanten_many``, what ``shanten_batch`` runs for a ruleset's shape)."""
    from majiang._core import efficiency as E
    p258 = sum(1 << (9 * s + r) for s in range(3) for r in (1, 4, 7))
    caps = np.full(34, 4, np.uint8)
    caps[27:] = 0
    opts = dict(caps=caps, pair_mask=p258, void_suits=void_suits)

    def shanten_many(vectors):
        out = np.empty(len(vectors), np.int8)
        assert E.shanten_many(np.array(vectors, np.uint8), mask, False, out, **opts) < 0
        return out

    rng = np.random.default_rng(258 + void_suits + mask)
    wall = np.repeat(np.arange(27), 4)
    for i in range(12):
        c = np.bincount(rng.choice(wall, 14, replace=False), minlength=34)
        while i % 2:
            c = near_complete(rng)
            if not c[27:].any():
                break
        h = np.ascontiguousarray(c, np.uint8)
        vis = random_visible(rng, c, caps) if i % 3 == 0 else None
        names, sh, kinds, count, texts, impr = E.discard_columns(
            h, mask, False, caps, vis, True, 0, False, pair_mask=p258, void_suits=void_suits)
        ref = reference_columns(h, vis, caps, shanten_many)
        assert list(sh) == [r[0] for r in ref]
        np.testing.assert_array_equal(impr, np.array([r[2] for r in ref]))


@pytest.mark.parametrize("fifth", [False, True])
def test_jokers(fifth):
    rng = np.random.default_rng(11 + fifth)
    for i in range(3 if fifth else 12):     # a fifth copy: the direct programme (slow)
        jokers = 1 + i % 2
        c = uniform(rng, 14 - jokers) if i % 2 else swap(rng, near_complete(rng), 1)
        if c.sum() + jokers != 14:
            c = uniform(rng, 14 - jokers)
        check(c, jokers=jokers, fifth=fifth)
    for i in range(1 if fifth else 4):     # with a meld: caps below 4 and jokers
        c = uniform(rng, 10)
        free = [k for k in range(34) if c[k] == 0]
        check(c, melds=(Meld("pung", free[int(rng.integers(len(free)))]),), jokers=1,
              fifth=fifth)


def test_knitted_forms():
    rng = np.random.default_rng(5)
    for i in range(8):
        if i % 2:
            c = uniform(rng)
        else:       # near 全不靠: 147m 258p 369s and honors
            c = np.zeros(34, np.int64)
            for k in rng.choice([0, 3, 6, 10, 13, 16, 20, 23, 26] + list(range(27, 34)), 14,
                                replace=False):
                c[k] += 1
            c = swap(rng, c, 1)
        check(c, ruleset="mcr")
    for i in range(4):      # near 组合龙: 147m 258p 369s, a set and a pair
        c = np.zeros(34, np.int64)
        c[[0, 3, 6, 10, 13, 16, 20, 23, 26]] = 1
        c[int(rng.integers(34))] += 2
        k = int(rng.integers(27)) // 9 * 9 + int(rng.integers(7))
        c[k:k + 3] += 1
        if c.max() > 4:
            continue
        check(swap(rng, c, 1 + i % 2), ruleset="mcr")


def test_sixteen_tile_hands():
    rng = np.random.default_rng(16)
    for i in range(2):
        c = uniform(rng, 17) if i % 2 else near_complete(rng, 5)
        check(c, ruleset="taiwan")


@pytest.mark.slow
def test_plain_hands_many():
    rng = np.random.default_rng(2024)
    for i in range(1000):
        c = random_hand(rng, i)
        check(c, visible=random_visible(rng, c) if i % 2 else None, quads=bool(i % 3 == 0))


def _same_as_discard_rows(n, seed):
    """The kernel against ``discard_rows`` (the column as computed before it was
    incremental: a full ukeire for every state) on n random hands."""
    from majiang._core import efficiency as E
    rng = np.random.default_rng(seed)
    finite = 0
    for i in range(n):
        c = np.ascontiguousarray(random_hand(rng, i), np.uint8)
        vis = random_visible(rng, c) if i % 2 else None
        mask, quads = ((7, False), (7, True), (1, False), (3, True))[i % 4]
        impr = E.discard_columns(c, mask, quads, None, vis, True)[5]
        old = np.array([r[3] for r in E.discard_rows(c, mask, quads, None, vis, True)])
        np.testing.assert_array_equal(impr, old, err_msg=mj.format_counts(c))
        finite += int(np.isfinite(impr).sum())
    assert finite > n


def test_same_as_discard_rows():
    _same_as_discard_rows(300, 1)


@pytest.mark.slow
def test_same_as_discard_rows_100k():
    _same_as_discard_rows(100_000, 2)

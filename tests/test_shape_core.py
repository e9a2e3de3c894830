"""Shape constraints and tile sets in the Cython shanten core.

The core computes shanten exactly under a 缺一门 void suit (``void_suits``), a 二五八将
pair restriction (``pair_mask``) and reduced tile sets (``caps``: 108 tiles without
honors, 84 tiles without 万 and winds).  Checked here against two independent
references:

* the pure-Python shape engine :mod:`majiang.rules.shapes` (a different method:
  enumeration of per-suit targets), on random hands with 0-2 exposed melds;
* a brute force from the definition: multi-source breadth-first search over tile
  swaps from every complete hand of a small tile universe (one or two suits, some
  honors), with completeness decided by a plain recursive decomposition; and
  enumeration of every target for seven pairs / thirteen orphans / 全不靠 within caps.

The public functions (``shanten``/``ukeire``/``discard_table`` with ``ruleset=``) are
checked to give what :mod:`majiang.rules.shapes` gives, and the ``jokers=`` keyword to
mean the same as ``*`` in the hand.
"""
from __future__ import annotations

from collections import deque
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import majiang as mj
from majiang._core import efficiency as E
from majiang.errors import InvalidHandError
from majiang.rules import get as get_ruleset
from majiang.rules import shapes
from majiang.rules.shapes import Spec, form_shanten

from _hands import sets_of, take

REGULAR, SEVEN, ORPHANS, HK, KS = 1, 2, 4, 8, 16
P258 = sum(1 << (9 * s + r) for s in range(3) for r in (1, 4, 7))
C136 = np.full(34, 4, np.int64)
C108 = C136.copy()
C108[27:] = 0
C84 = C136.copy()
C84[0:9] = 0
C84[27:31] = 0
C_ODD = np.random.default_rng(99).integers(0, 5, 34)   # a made-up set: 0..4 copies a kind
C_ODD[[0, 9, 18, 22]] = 4                               # room for melds and orphans
ORPHAN_KINDS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def core(h, mask=REGULAR | SEVEN | ORPHANS, quads=False, caps=None, pair_mask=None,
         void_suits=0, jokers=0):
    h = np.ascontiguousarray(h, dtype=np.uint8)
    if caps is not None:
        caps = np.ascontiguousarray(caps, dtype=np.uint8)
    return E.shanten_one(h, mask, quads, caps, jokers, False, pair_mask=pair_mask,
                         void_suits=void_suits)


# ============================================================ random cases
def random_case(rng, copies, n_melds):
    """(concealed counts, meld tiles list, caps) of a random hand of a tile set: uniform,
    near a complete regular hand, or near seven pairs (0-3 random swaps)."""
    avail = copies.copy()
    meld_tiles = []
    for _ in range(n_melds):
        sets = sets_of(avail)
        meld_tiles.append(take(avail, sets[rng.integers(len(sets))]))
    caps = avail.copy()
    size = 14 - 3 * n_melds - int(rng.integers(2))
    style = rng.integers(3)
    tiles: list[int] = []
    if style == 1:                                      # near a complete regular hand
        a = avail.copy()
        for _ in range((size - 1) // 3):
            sets = sets_of(a)
            tiles += take(a, sets[rng.integers(len(sets))])
        pairs = [k for k in range(34) if a[k] >= 2]
        k = pairs[rng.integers(len(pairs))]
        tiles += [k, k]
    elif style == 2 and n_melds == 0:                   # near seven pairs
        kinds = [k for k in range(34) if avail[k] >= 2]
        for k in rng.choice(kinds, 7, replace=False):
            tiles += [int(k)] * 2
    # keep all but 0-3 random tiles (plus the surplus), then fill up uniformly
    rng.shuffle(tiles)
    tiles = tiles[:max(0, min(size, len(tiles)) - int(rng.integers(4)))]
    left = avail.copy()
    for t in tiles:
        left[t] -= 1
    pool = np.repeat(np.arange(34), left)
    extra = rng.choice(pool, size - len(tiles), replace=False)
    c = np.bincount(np.concatenate([np.array(tiles, dtype=np.int64), extra]), minlength=34)
    return c, meld_tiles, caps


def shapes_reference(c, caps, meld_tiles, spec):
    """Shanten from rules/shapes/.  That engine looks at the concealed tiles only, so
    with melds and a void suit the suits the melds hold are taken out of the eligible
    voids here (its per-void regular maximum is used directly)."""
    n_melds = len(meld_tiles)
    if not (spec.void and n_melds):
        return min(form_shanten(c, caps=tuple(int(x) for x in caps), n_melds=n_melds,
                                spec=spec).values())
    held = {t // 9 for m in meld_tiles for t in m if t < 27}
    n = int(c.sum())
    n_sets = n // 3
    need = 3 * n_sets + 2
    ct = tuple(int(x) for x in c)
    cp = tuple(int(x) for x in caps)
    kept = max((shapes._regular_kept(ct, cp, n_sets, v, spec.pair_258)
                for v in range(3) if v not in held), default=shapes._NEG)
    if kept <= shapes._NEG // 2:
        return 99
    return max(-1, need - kept - 1)


def core_for(c, caps, meld_tiles, spec):
    mask = sum({"regular": REGULAR, "seven_pairs": SEVEN, "thirteen_orphans": ORPHANS}[f]
               for f in spec.forms)
    if meld_tiles:
        mask &= REGULAR
    void = 0
    if spec.void:
        held = {t // 9 for m in meld_tiles for t in m if t < 27}
        void = sum(1 << s for s in range(3) if s not in held)
        if void == 0:
            return 99
    return core(c, mask, spec.quads, caps, P258 if spec.pair_258 else None, void)


CONFIGS = {
    "void_suit": (C136, dict(void=True), ("regular", "seven_pairs", "thirteen_orphans"), False),
    "pair_258": (C136, dict(pair_258=True), ("regular", "seven_pairs", "thirteen_orphans"),
                 False),
    "tiles_108": (C108, {}, ("regular", "seven_pairs"), True),
    "tiles_84": (C84, {}, ("regular", "seven_pairs", "thirteen_orphans"), True),
    "combined_108": (C108, dict(void=True, pair_258=True), ("regular", "seven_pairs"), True),
    "combined_84": (C84, dict(void=True, pair_258=True), ("regular", "seven_pairs"), False),
    "tiles_uneven": (C_ODD, {}, ("regular", "seven_pairs", "thirteen_orphans"), True),
    "combined_uneven": (C_ODD, dict(void=True, pair_258=True), ("regular", "seven_pairs"),
                        False),
}


def _compare(name, n_hands, seed):
    copies, cons, forms, quads = CONFIGS[name]
    spec = Spec(forms, quads, tuple(int(x) for x in copies), **cons)
    rng = np.random.default_rng(seed)
    seen = set()
    for i in range(n_hands):
        c, melds, caps = random_case(rng, copies, i % 3)
        want = shapes_reference(c, caps, melds, spec)
        got = core_for(c, caps, melds, spec)
        assert got == want, (name, c.tolist(), melds, want, got)
        seen.add(want)
    assert len(seen) >= 4          # the sample covers complete, tenpai and worse hands


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_core_equals_shapes_engine(name):
    _compare(name, 250, 11)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_core_equals_shapes_engine_20000(name):
    _compare(name, 20000, 2026)


@pytest.mark.parametrize("copies, cons", [(C136, dict(void=True, pair_258=True)),
                                          (C108, dict(void=True)),
                                          (C_ODD, dict(pair_258=True))])
def test_sixteen_tile_hands_match_shapes_engine(copies, cons):
    # five sets + a pair: the direct programme (beyond the tables' four sets)
    spec = Spec(("regular",), False, tuple(int(x) for x in copies), **cons)
    rng = np.random.default_rng(21)
    pool = np.repeat(np.arange(34), copies)
    for i in range(60):
        c = np.bincount(rng.choice(pool, 16 + i % 2, replace=False), minlength=34)
        want = min(form_shanten(c, caps=tuple(int(x) for x in copies), spec=spec).values())
        assert core(c, REGULAR, False, copies, P258 if cons.get("pair_258") else None,
                    7 if cons.get("void") else 0) == want


def test_random_case_is_valid():
    rng = np.random.default_rng(5)
    for i in range(300):
        c, melds, caps = random_case(rng, C108, i % 3)
        assert (c <= caps).all() and c.sum() + 3 * len(melds) in (13, 14)
        assert c[27:].sum() == 0


# ============================================================ brute force: BFS over swaps
def _is_complete(c, kinds_chow, pair_ok, void_suits, pair_done=False):
    """Plain recursive check: sets + exactly one pair, the pair on an allowed kind, and
    (with void_suits) no tile of at least one of those suits."""
    if void_suits and not pair_done and not any(
            (void_suits >> s) & 1 and not any(c[9 * s:9 * s + 9]) for s in range(3)):
        return False
    i = next((k for k in range(34) if c[k]), None)
    if i is None:
        return pair_done
    if c[i] >= 3:
        c[i] -= 3
        ok = _is_complete(c, kinds_chow, pair_ok, 0, pair_done)
        c[i] += 3
        if ok:
            return True
    if not pair_done and c[i] >= 2 and pair_ok(i):
        c[i] -= 2
        ok = _is_complete(c, kinds_chow, pair_ok, 0, True)
        c[i] += 2
        if ok:
            return True
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for t in (i, i + 1, i + 2):
            c[t] -= 1
        ok = _is_complete(c, kinds_chow, pair_ok, 0, pair_done)
        for t in (i, i + 1, i + 2):
            c[t] += 1
        return ok
    return False


def _states(kinds, caps, size):
    out = []

    def rec(j, left, cur):
        if j == len(kinds):
            if left == 0:
                out.append(tuple(cur))
            return
        for v in range(min(left, caps[kinds[j]]) + 1):
            cur.append(v)
            rec(j + 1, left - v, cur)
            cur.pop()

    rec(0, size, [])
    return out


def _bfs(kinds, caps, size, pair_mask, void_suits):
    """Swap distance of every hand of `size` tiles over `kinds` (within caps) to the
    nearest complete hand (multi-source BFS from all complete hands)."""
    states = _states(kinds, caps, size)
    dist = {}
    q = deque()
    full = np.zeros(34, np.int64)
    for s in states:
        full[:] = 0
        full[list(kinds)] = s
        if _is_complete(full.tolist(), None, lambda k: (pair_mask >> k) & 1, void_suits):
            dist[s] = 0
            q.append(s)
    capv = [caps[k] for k in kinds]
    while q:
        s = q.popleft()
        d = dist[s] + 1
        lst = list(s)
        for a in range(len(kinds)):
            if not lst[a]:
                continue
            lst[a] -= 1
            for b in range(len(kinds)):
                if b == a or lst[b] >= capv[b]:
                    continue
                lst[b] += 1
                t = tuple(lst)
                if t not in dist:
                    dist[t] = d
                    q.append(t)
                lst[b] -= 1
            lst[a] += 1
    return states, dist


def _check_universe(kinds, caps, n_sets, pair_mask, void_suits):
    """Every hand of 3n+2 and 3n+1 tiles of the universe: core shanten == BFS."""
    size = 3 * n_sets + 2
    states, dist = _bfs(kinds, caps, size, pair_mask, void_suits)
    capv = np.zeros(34, np.int64)
    for k in kinds:
        capv[k] = caps[k]
    full = np.zeros(34, np.int64)
    pm = None if pair_mask == (1 << 34) - 1 else pair_mask
    values = set()
    for s in states:
        full[:] = 0
        full[list(kinds)] = s
        want = dist[s] - 1 if s in dist else 99
        assert core(full, REGULAR, caps=capv, pair_mask=pm, void_suits=void_suits) == want, (
            s, want)
        values.add(want)
    # 3n+1 hands: one tile short; d(h) = 1 + min over drawable kinds of d(h + k)
    for s in _states(kinds, caps, size - 1):
        best = None
        for j, k in enumerate(kinds):
            if s[j] < caps[k]:
                t = s[:j] + (s[j] + 1,) + s[j + 1:]
                if t in dist and (best is None or dist[t] < best):
                    best = dist[t]
        want = best if best is not None else 99       # shanten = (1 + best) - 1
        full[:] = 0
        full[list(kinds)] = s
        assert core(full, REGULAR, caps=capv, pair_mask=pm, void_suits=void_suits) == want, (
            s, want)
    assert len(values) >= 3
    return values


def test_bfs_one_suit_pair_258():
    caps = [4] * 34
    _check_universe(tuple(range(9)), caps, 2, P258, 0)


def test_bfs_one_suit_and_honors_with_caps_and_mixed_pair_mask():
    caps = [0] * 34
    for k, v in zip(range(9), (4, 3, 2, 1, 0, 4, 2, 4, 3)):
        caps[k] = v
    caps[27], caps[28], caps[31] = 2, 1, 4
    mask = (1 << 0) | (1 << 3) | (1 << 6) | (1 << 7) | (1 << 28) | (1 << 31)
    _check_universe(tuple(range(9)) + (27, 28, 31), caps, 2, mask, 0)


def test_bfs_two_suits_void():
    caps = [4] * 34
    values = _check_universe(tuple(range(18)), caps, 1, (1 << 34) - 1, 0b011)
    assert 99 not in values


def test_bfs_two_suits_void_and_258_pair_with_caps():
    caps = [4] * 34
    caps[4] = 1          # one 5m left
    caps[10] = 2         # two 2p left
    _check_universe(tuple(range(3, 15)), caps, 1, P258, 0b011)


def test_bfs_void_with_only_one_eligible_suit():
    # suit 0 may not be void (e.g. a meld of 万 is held): the hand must lack 筒
    caps = [4] * 34
    _check_universe(tuple(range(4, 14)), caps, 1, (1 << 34) - 1, 0b010)


# ============================================================ whole-hand forms within caps
def _target_distance(h, targets):
    return min((int(np.maximum(t - h, 0).sum()) for t in targets), default=None)


def _seven_pair_targets(caps, quads):
    slots = [k for k in range(34) if caps[k] >= 2]
    slots += [k for k in range(34) if quads and caps[k] >= 4]
    out = set()
    for combo in combinations(sorted(slots), 7):
        t = np.zeros(34, np.int64)
        for k in combo:
            t[k] += 2
        out.add(tuple(t))
    return [np.array(t) for t in out]


@pytest.mark.parametrize("quads", [False, True])
def test_seven_pairs_within_caps_brute_force(quads):
    rng = np.random.default_rng(3 + quads)
    for _ in range(40):
        caps = np.zeros(34, np.int64)
        kinds = rng.choice(34, 9, replace=False)
        caps[kinds] = rng.integers(0, 5, 9)
        targets = _seven_pair_targets(caps, quads)
        pool = np.repeat(np.arange(34), caps)
        if len(pool) < 14:
            continue
        for n in (13, 14):
            for _ in range(5):
                h = np.bincount(rng.choice(pool, n, replace=False), minlength=34)
                d = _target_distance(h, targets)
                want = 99 if d is None else max(-1, d - 1)
                assert core(h, SEVEN, quads, caps) == want, (h.tolist(), caps.tolist())


def test_thirteen_orphans_within_caps_brute_force():
    rng = np.random.default_rng(8)
    for _ in range(200):
        caps = np.full(34, 4, np.int64)
        caps[list(ORPHAN_KINDS)] = rng.integers(0, 5, 13) if rng.random() < 0.3 else \
            rng.integers(1, 5, 13)
        targets = []
        if all(caps[k] >= 1 for k in ORPHAN_KINDS):
            for p in ORPHAN_KINDS:
                if caps[p] >= 2:
                    t = np.zeros(34, np.int64)
                    t[list(ORPHAN_KINDS)] = 1
                    t[p] += 1
                    targets.append(t)
        pool = np.repeat(np.arange(34), np.minimum(caps, 2))
        n = 13 + int(rng.integers(2))
        h = np.bincount(rng.choice(pool, n, replace=False), minlength=34)
        h = np.minimum(h, caps)
        if h.sum() != n:
            continue
        d = _target_distance(h, targets)
        want = 99 if d is None else max(-1, d - 1)
        assert core(h, ORPHANS, False, caps) == want, (h.tolist(), caps.tolist())


def test_honors_and_knitted_within_caps_brute_force():
    rng = np.random.default_rng(9)
    suits = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    for _ in range(150):
        caps = np.full(34, 4, np.int64)
        caps[rng.choice(34, 4, replace=False)] = 0
        targets = []
        for perm in suits:
            kinds = [perm[j] * 9 + j + 3 * r for j in range(3) for r in range(3)]
            kinds += list(range(27, 34))
            ok = [k for k in kinds if caps[k] >= 1]
            for combo in combinations(ok, 14):
                t = np.zeros(34, np.int64)
                t[list(combo)] = 1
                targets.append(t)
        pool = np.repeat(np.arange(34), caps)
        n = 13 + int(rng.integers(2))
        h = np.bincount(rng.choice(pool, n, replace=False), minlength=34)
        d = _target_distance(h, targets)
        want = 99 if d is None else max(-1, d - 1)
        assert core(h, HK, False, caps) == want, (h.tolist(), caps.tolist())


def test_whole_hand_forms_need_four_sets():
    # caps alone (a tile set) no longer switch seven pairs off; a 10-tile concealed
    # vector (a hand with a meld) never uses them
    h = np.zeros(34, np.int64)
    for k in (0, 2, 4, 6, 10, 12, 14):
        h[k] = 2
    assert core(h, SEVEN, caps=C136) == -1
    assert core(h, SEVEN, caps=C108) == -1
    h2 = h.copy()
    h2[[12, 14]] = 0
    assert core(h2, SEVEN, caps=C136) == 99


# ============================================================ properties
hands14 = st.lists(st.integers(0, 135), min_size=14, max_size=14, unique=True).map(
    lambda ts: np.bincount(np.array(ts) // 4, minlength=34))


@settings(max_examples=300, deadline=None)
@given(hands14, st.integers(0, 1), st.integers(0, (1 << 34) - 1), st.integers(1, 7),
       st.booleans())
def test_constraints_never_lower_shanten(h, drop, pm, void, quads):
    if drop:
        h = h.copy()
        h[int(np.flatnonzero(h)[0])] -= 1
    mask = REGULAR | SEVEN | ORPHANS
    base = core(h, mask, quads)
    with_pair = core(h, mask, quads, pair_mask=pm)
    with_void = core(h, mask, quads, void_suits=void)
    both = core(h, mask, quads, pair_mask=pm, void_suits=void)
    assert base <= with_pair <= both
    assert base <= with_void <= both
    # fewer copies available never helps either
    caps = np.maximum(h, 4 - (np.arange(34) % 3 == 0))
    assert core(h, mask, quads, caps=caps) >= base
    assert core(h, mask, quads, caps=caps, pair_mask=pm, void_suits=void) >= both


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2), st.lists(st.integers(0, 35), min_size=13, max_size=14),
       st.booleans())
def test_void_is_free_for_a_one_suit_hand(suit, ranks, honors):
    tiles = [9 * suit + r // 4 for r in ranks]
    if honors:                      # honors do not belong to a suit
        tiles[:3] = [27, 27, 33]
    h = np.bincount(tiles, minlength=34)
    if h.max() > 4:
        return
    assert core(h, void_suits=7) == core(h)
    assert core(h, void_suits=7, pair_mask=P258) == core(h, pair_mask=P258)


def test_no_restriction_values_mean_none():
    rng = np.random.default_rng(1)
    for _ in range(200):
        h = np.bincount(rng.choice(136, 14, replace=False) // 4, minlength=34)
        want = core(h)
        assert core(h, pair_mask=(1 << 34) - 1) == want
        assert core(h, pair_mask=(1 << 64) - 1) == want
        assert core(h, caps=C136) == want


def test_batch_kernel_with_options_matches_single():
    rng = np.random.default_rng(4)
    rows = np.array([np.bincount(rng.choice(108, 14, replace=False) // 4, minlength=34)
                     for _ in range(500)], dtype=np.uint8)
    out = np.empty(500, np.int8)
    assert E.shanten_many(rows, 3, True, out, caps=C108.astype(np.uint8), pair_mask=P258,
                          void_suits=7) == -1
    for i in range(500):
        assert out[i] == core(rows[i], 3, True, C108, P258, 7)


# ============================================================ public API under rulesets
def _hand_text(c):
    from majiang.tiles import format_counts
    return format_counts(np.asarray(c, dtype=np.uint8))


@pytest.mark.parametrize("name", ["sichuan", "kawuxing"])
def test_ruleset_shanten_matches_shapes_engine(name):
    # changsha (pair_258_small: small and big-win shapes) is checked against THE win
    # predicate in tests/test_changsha_shapes.py; the shapes engine does not model it
    rs = get_ruleset(name)
    rng = np.random.default_rng(7)
    for i in range(60):
        c, melds, caps = random_case(rng, np.asarray(rs.copies, np.int64), 0)
        text = _hand_text(c)
        assert mj.shanten(text, ruleset=name) == shapes.ruleset_shanten(text, rs)


@pytest.mark.parametrize("name", ["sichuan", "kawuxing"])
def test_ruleset_ukeire_and_discard_table_match_shapes_engine(name):
    rs = get_ruleset(name)
    rng = np.random.default_rng(17)
    cols = ["discard", "shanten", "ukeire_kinds", "ukeire_count", "ukeire"]
    for i in range(12):
        c, melds, caps = random_case(rng, np.asarray(rs.copies, np.int64), 0)
        if c.sum() == 13:
            text = _hand_text(c)
            assert mj.ukeire(text, ruleset=name) == shapes.ruleset_ukeire(text, rs)
        else:
            text = _hand_text(c)
            got = mj.discard_table(text, ruleset=name, second_order=False)
            want = shapes.ruleset_discard_table(text, rs)
            assert got[cols].equals(want[cols])


def test_sichuan_meld_suit_counts_toward_the_void():
    # [111m] holds 万, so the hand must lack 筒 or 条: the tenpai shape 456p789p234s+5s
    # cannot win.  Without 条: 456p789p kept (6 of 11 tiles) -> 5 to draw -> 4-shanten.
    hand = "[111m]456p789p234s5s"
    assert mj.shanten(hand) == 0
    assert mj.shanten(hand, ruleset="sichuan") == 4
    # only 万/筒 draws can help (条 must go), so 5s is no longer a wait
    live = mj.ukeire(hand, ruleset="sichuan")
    assert live and all(t[-1] in "mp" for t in live)
    # a meld in a suit the concealed tiles also hold: the other suit can still be void
    assert mj.shanten("[111m]123m456m789m5s", ruleset="sichuan") == 0
    # without 筒: 123m 789s 5s kept, 7 of 11 -> 4 to draw -> 3-shanten (without 条: 6 kept)
    assert mj.shanten("[111m]123m456p789s5s", ruleset="sichuan") == 3


def test_sichuan_examples_from_issue():
    assert mj.shanten("123m456p789s1155s", ruleset="sichuan") == 3
    assert mj.shanten("123m456p789s1155s") == 0


def test_batch_under_ruleset():
    rng = np.random.default_rng(12)
    rows = np.array([np.bincount(rng.choice(108, 13, replace=False) // 4, minlength=34)
                     for _ in range(100)], dtype=np.uint8)
    got = mj.shanten_batch(rows, ruleset="sichuan")
    rs = get_ruleset("sichuan")
    for i in range(0, 100, 10):
        assert got[i] == shapes.ruleset_shanten(rows[i], rs)
    bad = rows.copy()
    bad[3] = np.bincount([0, 1, 2, 12, 13, 14, 24, 25, 26, 9, 9, 10, 30], minlength=34)
    with pytest.raises(InvalidHandError, match="row 3"):
        mj.shanten_batch(bad, ruleset="sichuan")


def test_tile_outside_the_tile_set_is_an_error():
    with pytest.raises(InvalidHandError, match="tile set"):
        mj.shanten("123m456p789s1155z", ruleset="sichuan")
    with pytest.raises(InvalidHandError, match="tile set"):
        mj.ukeire("123m456p789s1155s", ruleset="kawuxing")


# ============================================================ jokers keyword == '*'
def test_jokers_keyword_counts_toward_the_hand():
    twelve = "123m456p789s112z"
    assert mj.shanten(twelve, jokers=1) == mj.shanten(twelve + "*") == 0
    assert mj.shanten("123m456p789s11z", jokers=3) == mj.shanten("123m456p789s11z***") == -1
    assert mj.shanten("123m456p789s11z", jokers=2) == mj.shanten("123m456p789s11z**") == 0
    assert mj.ukeire("123m456p789s12z", jokers=2) == mj.ukeire("123m456p789s12z**")
    assert mj.ukeire("123m456p789s12z", jokers=2)          # 1z, 2z and more are waits
    a = mj.discard_table("123m456p789s112z", jokers=2)
    b = mj.discard_table("123m456p789s112z**")
    assert a.equals(b)
    # a Hand, and a hand with a meld
    h = mj.parse_hand("123m456p789s1122z")
    assert mj.shanten(h, jokers=1) == mj.shanten("123m456p789s1122z*")
    assert mj.shanten("[123m]456p789s112z", jokers=1) == mj.shanten("[123m]456p789s112z*")
    # a count vector of 12 tiles + 1 joker
    c = np.bincount([0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27, 28], minlength=34)
    assert mj.shanten(c.tolist(), jokers=1) == mj.shanten(twelve + "*")
    with pytest.raises(InvalidHandError):
        mj.shanten(twelve, jokers=3)          # 15 tiles

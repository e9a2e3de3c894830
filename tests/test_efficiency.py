"""Shanten, ukeire, discard tables and decompositions: properties and brute-force checks."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import majiang
from majiang import (
    InvalidHandError, MahjongError, RuleError, decompositions, discard_table, shanten,
    shanten_batch, ukeire,
)
from majiang.tiles import parse_counts, tile_name


def random_hands(n: int, size: int, seed: int) -> np.ndarray:
    """n hands of `size` tiles drawn from a 136-tile wall: (n, 34) uint8."""
    rng = np.random.default_rng(seed)
    order = np.argsort(rng.random((n, 136)), axis=1)[:, :size] // 4
    out = np.zeros((n, 34), np.uint8)
    np.add.at(out, (np.repeat(np.arange(n), size), order.ravel()), 1)
    return out


# --- worked examples --------------------------------------------------------

@pytest.mark.parametrize("hand, expected", [
    ("123456789m1111p", 1),        # all four 1p held: no wait on 1p (issue's example)
    ("123456789m1112p", 0),
    ("11112222333344m", -1),
    ("123m456p789s1122z", 0),
    ("19m19p19s1234567z", 0),      # thirteen orphans, 13-sided
    ("19m19p19s1234567z1m", -1),
    ("1122334455667z", 0),         # seven pairs (distinct) tenpai on 7z
    ("11112233445566z", 1),        # quad + 5 pairs: distinct seven pairs needs a new kind
    # partial hands as count vectors (strings must hold a full hand)
    (parse_counts("1111m"), 1),    # one set + pair; the pair wait on 1m is dead
    (parse_counts("1111m2345p"), 0),   # swap 1m for 5p -> 111m 234p 55p
    (parse_counts("1111m159p5s"), 2),   # a pair from one single (1), a set from another (2)
])
def test_shanten_examples(hand, expected):
    assert shanten(hand, ruleset="plain") == expected


def test_strings_must_hold_a_full_hand():
    with pytest.raises(InvalidHandError, match="expected 13"):
        shanten("1111m2345p", ruleset="plain")


def test_seven_pairs_quads_option():
    hand = "11112233445566z"
    assert shanten(hand, forms=("seven_pairs",), ruleset="plain") == 1
    assert shanten(hand, forms=("seven_pairs",), seven_pairs_quads=True, ruleset="plain") == -1
    # 13 tiles: 1111z 22 33 44 55 66z + 7z -> with quads tenpai on 7z
    assert shanten("1111223344557z", forms=("seven_pairs",), seven_pairs_quads=True, ruleset="plain") == 0
    assert shanten("1111223344557z", forms=("seven_pairs",), ruleset="plain") == 2


def test_melds_lock_copies():
    # 1p single wait needs a fifth 1p: the pung holds three, the hand one
    assert shanten("1p234m456m789m [111p]", ruleset="plain") == 1
    assert "1p" not in ukeire("1p234m456m789m [111p]", ruleset="plain")
    # the same shape with a free wait is tenpai
    assert shanten("2p234m456m789m [111p]", ruleset="plain") == 0
    assert ukeire("2p234m456m789m [111p]", ruleset="plain") == {"2p": 3}
    # a chow meld locks one copy: 3p pair wait has 4 - 1 (meld) - 1 (hand) = 2 live
    assert ukeire("3p234m456m789m [123p]", ruleset="plain") == {"3p": 2}
    # concealed kong counts as a meld
    assert shanten("23m456p11z [555z] {6666m}", ruleset="plain") == 0
    assert ukeire("23m456p11z [555z] {6666m}", ruleset="plain") == {"1m": 4, "4m": 4}


def test_whole_hand_forms_need_concealed_hand():
    assert shanten("1122334455z [666z]", forms=("seven_pairs",), ruleset="plain") == 99


# --- consistency properties ----------------------------------------------------

def test_batch_equals_single_and_threads():
    hands = random_hands(3000, 14, 1)
    batch = shanten_batch(hands, ruleset="plain")
    assert [shanten(h, ruleset="plain") for h in hands[:500]] == batch[:500].tolist()
    assert np.array_equal(shanten_batch(hands, n_jobs=2, ruleset="plain"), batch)
    big = np.repeat(hands, 3, axis=0)
    assert np.array_equal(shanten_batch(big, n_jobs=None, ruleset="plain"), np.repeat(batch, 3))


@pytest.mark.parametrize("forms", [("regular",), ("seven_pairs",), ("thirteen_orphans",),
                                   majiang.DEFAULT_FORMS])
def test_fourteen_is_min_over_discards(forms):
    """shanten(14 tiles, ruleset="plain") = min over discards of shanten(13 tiles, ruleset="plain"): the swap definition."""
    hands = random_hands(1500, 14, 2)
    s14 = shanten_batch(hands, forms=forms, ruleset="plain")
    for h, s in zip(hands, s14):
        rows = np.repeat(h[None, :], 34, axis=0)
        idx = np.flatnonzero(h)
        rows = rows[idx]
        rows[np.arange(len(idx)), idx] -= 1
        assert s == shanten_batch(rows, forms=forms, ruleset="plain").min()


def test_forms_minimum():
    hands = random_hands(5000, 13, 3)
    parts = [shanten_batch(hands, forms=(f,), ruleset="plain") for f in majiang.DEFAULT_FORMS]
    assert np.array_equal(shanten_batch(hands, ruleset="plain"), np.minimum.reduce(parts))


# --- ukeire -------------------------------------------------------------------

def test_ukeire_equals_brute_force():
    """≥10k random hands: effective kinds = kinds whose addition lowers shanten."""
    rng = np.random.default_rng(4)
    hands = random_hands(10000, 13, 4)
    base = shanten_batch(hands, ruleset="plain")
    for h, s in zip(hands, base):
        # random visible tiles drawn from what is left of the wall
        left = 4 - h.astype(int)
        visible = np.minimum(left, rng.integers(0, 3, 34) * (rng.random(34) < 0.3)).astype(np.uint8)
        got = ukeire(h, visible, ruleset="plain")
        drawable = np.flatnonzero(h < 4)
        rows = np.repeat(h[None, :], len(drawable), axis=0)
        rows[np.arange(len(drawable)), drawable] += 1
        better = drawable[shanten_batch(rows, ruleset="plain") < s]
        expected = {tile_name(k): int(4 - h[k] - visible[k]) for k in better}
        assert got == expected


def test_ukeire_rejects_wrong_size_and_visible_overflow():
    with pytest.raises(InvalidHandError, match="discard_table"):
        ukeire("23345m111p456p99s6m", ruleset="plain")
    with pytest.raises(InvalidHandError, match="1m"):
        ukeire("1112345678999m", visible="1m1m", ruleset="plain")


# --- discard tables -------------------------------------------------------------

def test_discard_table_consistent_with_ukeire():
    for h in random_hands(300, 14, 5):
        table = discard_table(h, second_order=False, ruleset="plain")
        assert len(table) == np.count_nonzero(h)
        for row in table.itertuples():
            rest = h.copy()
            rest[parse_counts(row.discard).argmax()] -= 1
            u = ukeire(rest, visible=row.discard, ruleset="plain")    # the discarded copy is on the table
            assert row.shanten == shanten(rest, ruleset="plain")
            assert row.ukeire_kinds == len(u)
            assert row.ukeire_count == sum(u.values())


def test_seed_example_three_sided_wait():
    """Seed example: 二三三四五 + 六 drawn: discard 三 for the 1-4-7 wait, not 六."""
    adv = majiang.advise("23345m111p456p99s6m")
    best = adv.iloc[0]
    assert best.discard == "3m" and best.shanten == 0 and best.ukeire == "147m"
    six = adv.set_index("discard").loc["6m"]
    assert six.ukeire_count < best.ukeire_count and six["rank"] > best["rank"]


def test_second_order_by_hand():
    """Improvement of a 1-shanten discard recomputed by brute force."""
    hand = parse_counts("23345m111p456p99s6m")
    table = discard_table(hand, ruleset="plain").set_index("discard")
    rest = hand.copy()
    rest[parse_counts("9s").argmax()] -= 1
    u = ukeire(rest, visible="9s", ruleset="plain")
    num = den = 0
    for tile, live in u.items():
        if live == 0:
            continue
        drawn = rest + parse_counts(tile)
        best = max(sum(ukeire(drawn - parse_counts(tile_name(d)), visible="9s", ruleset="plain").values())
                   for d in np.flatnonzero(drawn)
                   if shanten(drawn - parse_counts(tile_name(d)), ruleset="plain") == 0)
        num += live * best
        den += live
    assert table.loc["9s", "improvement"] == pytest.approx(num / den)


# --- decompositions ---------------------------------------------------------------

def _brute_decompositions(counts: np.ndarray) -> set:
    n_sets = int(counts.sum()) // 3
    blocks = [("pung", k) for k in range(34) if counts[k] >= 3]
    blocks += [("chow", k) for k in range(27) if k % 9 <= 6
               and counts[k] and counts[k + 1] and counts[k + 2]]
    found = set()
    for pair in np.flatnonzero(counts >= 2):
        for combo in itertools.combinations_with_replacement(blocks, n_sets):
            c = np.zeros(34, int)
            c[pair] += 2
            for kind, k in combo:
                if kind == "pung":
                    c[k] += 3
                else:
                    c[k:k + 3] += 1
            if np.array_equal(c, counts):
                found.add((int(pair), tuple(sorted(combo, key=lambda b: (b[1], b[0])))))
    return found


def _random_complete(rng) -> np.ndarray:
    while True:
        c = np.zeros(34, int)
        for _ in range(4):
            if rng.random() < 0.6:
                s = rng.integers(0, 3) * 9 + rng.integers(0, 7)
                c[s:s + 3] += 1
            else:
                c[rng.integers(0, 34)] += 3
        c[rng.integers(0, 34)] += 2
        if c.max() <= 4:
            return c.astype(np.uint8)


def test_decompositions_equal_brute_force():
    rng = np.random.default_rng(6)
    hands = [_random_complete(rng) for _ in range(1500)]
    hands += [parse_counts(s) for s in ["11122233344455m", "11112222333344m", "22334455667788p"]]
    for h in hands:
        got = [(d.pair, d.sets) for d in decompositions(h, forms=("regular",), ruleset="plain")]
        assert len(got) == len(set(got)), "duplicate decomposition"
        assert set(got) == _brute_decompositions(h)


def test_decompositions_special_forms_and_incomplete():
    ds = decompositions("11223344556677z", ruleset="plain")
    assert [d.form for d in ds] == ["seven_pairs"]
    assert decompositions("11112233445566z", ruleset="plain") == []
    assert [d.form for d in decompositions("11112233445566z", seven_pairs_quads=True, ruleset="plain")] == [
        "seven_pairs"]
    assert [d.form for d in decompositions("19m19p19s12345677z", ruleset="plain")] == ["thirteen_orphans"]
    # 2233445566778899p... 22 33 44 55 66 77 88p is both seven pairs and regular
    forms = sorted(d.form for d in decompositions("22334455667788p", ruleset="plain"))
    assert forms.count("seven_pairs") == 1 and "regular" in forms
    assert decompositions("12345678m123p11z9p", ruleset="plain") == []


def test_decompositions_against_mahjong_package():
    divider_mod = pytest.importorskip("mahjong.hand_calculating.divider")
    divider = divider_mod.HandDivider()
    rng = np.random.default_rng(7)
    for _ in range(500):
        h = _random_complete(rng)
        tiles34 = h.astype(int).tolist()
        theirs = divider.divide_hand(tiles34)
        ours = decompositions(h, forms=("regular", "seven_pairs"), ruleset="plain")
        assert len(ours) == len(theirs), (majiang.format_counts(h), theirs)


# --- bad input --------------------------------------------------------------------

@pytest.mark.parametrize("bad, match", [
    ("11111m23456789p1s", "1m"),            # fifth copy named
    ("123m", "tiles"),                      # 3 tiles: not 3n+1/3n+2
    ("123456789m12p", "tiles"),
    (np.full(34, 5, np.uint8), "5 copies"),
    (np.zeros(33, np.uint8), "shape"),
    (np.array([1.5] + [0] * 33), "non-integer"),
])
def test_bad_hands(bad, match):
    with pytest.raises(MahjongError, match=match):
        shanten(bad, ruleset="plain")


def test_bad_options_and_batches():
    with pytest.raises(RuleError, match="sevenpairs"):
        shanten("123456789m1112p", forms=("sevenpairs",), ruleset="plain")
    rows = random_hands(10, 14, 8)
    rows[7, 3] = 5
    with pytest.raises(InvalidHandError, match="row 7"):
        shanten_batch(rows, ruleset="plain")
    rows[7] = 0
    rows[7, :4] = 3                         # 12 tiles: not 3n+1 / 3n+2
    with pytest.raises(InvalidHandError, match="row 7: 12 concealed tiles"):
        shanten_batch(rows, ruleset="plain")
    with pytest.raises(InvalidHandError, match="shape"):
        shanten_batch(np.zeros((3, 33), np.uint8), ruleset="plain")
    with pytest.raises(RuleError):
        shanten_batch(random_hands(5, 14, 9), n_jobs=0, ruleset="plain")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-2, 6), min_size=30, max_size=36))
def test_fuzz_arrays_never_crash(values):
    arr = np.array(values)
    try:
        s = shanten(arr, ruleset="plain")
    except MahjongError:
        return
    assert arr.shape == (34,) and arr.min() >= 0 and arr.max() <= 4
    assert -1 <= s <= 8
    assert int(arr.sum()) % 3 != 0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(0, 5), min_size=34, max_size=34), min_size=0, max_size=6))
def test_fuzz_batches_never_crash(rows):
    arr = np.array(rows, dtype=np.int64).reshape(-1, 34)
    try:
        out = shanten_batch(arr, ruleset="plain")
    except MahjongError:
        assert arr.size and (arr.max() > 4 or np.any(arr.sum(axis=1) % 3 == 0)
                             or np.any(arr.sum(axis=1) > 17))
        return
    assert out.shape == (len(rows),)
    assert np.all(out <= 8) and np.all(out >= -1)


def test_miscounted_hand_is_not_read_as_sixteen_tiles():
    """14 concealed + a meld is 17 tiles: an error under 13-tile rules, not a 16-tile hand."""
    with pytest.raises(InvalidHandError, match="expected 13 or 14"):
        shanten("123m456p789s1122z3z [555z]", ruleset="plain")
    with pytest.raises(InvalidHandError, match="expected 13 or 14"):
        majiang.advise("123m456p789s1122z34z [555z]")
    # under a 16-tile ruleset the same count is a hand
    assert shanten("1112345678999m12p4s", ruleset="taiwan") >= 0


# --- forms= narrows the ruleset (issue 17) ----------------------------------------------

def test_forms_narrow_a_ruleset_and_keep_its_tile_set_and_void_suit():
    # 四川 (108 tiles, 缺一门): the winning hand lacks a suit.  123m 456p 789s 11s 55s holds
    # three suits, 3 tiles of 万 and 3 of 筒; a tenpai hand is part of the winning hand, so
    # it holds no tile of some suit: at least 3 swaps, and 3 suffice (123m -> 5s 2s 3s:
    # 456p 789s 555s 123s 1s waits on 1s).  Regular form alone: still 3.
    hand = "123m456p789s1155s"
    assert majiang.shanten(hand, ruleset="sichuan", forms=("regular",)) == 3
    assert majiang.shanten(hand, ruleset="sichuan") == 3
    assert majiang.shanten(hand, forms=("regular",)) == 0       # default: no void suit
    c = majiang.tiles.as_counts(hand)[None]
    assert majiang.shanten_batch(c, ruleset="sichuan", forms=("regular",))[0] == 3
    # no effective draw of a fourth suit kind under the narrowed ruleset: every kind is
    # suited (108 tiles) and the live counts are those of the tile set
    uk = majiang.ukeire(hand, ruleset="sichuan", forms=("regular",))
    assert uk and all(t[-1] in "mps" for t in uk)
    # a form the ruleset does not have is an error, naming its forms
    with pytest.raises(RuleError, match="sichuan has no winning form 'thirteen_orphans'"
                                        ".*regular, seven_pairs"):
        majiang.shanten(hand, ruleset="sichuan", forms=("thirteen_orphans",))
    with pytest.raises(RuleError, match="no winning form 'knitted_straight'"):
        majiang.ukeire(hand, ruleset="plain", forms=("knitted_straight",))


def test_seven_pairs_quads_overrides_only_that_option():
    # 1111m 2233p 4455s 6z: with a quad as two pairs, six pairs + 6z: tenpai; with
    # distinct pairs, five pairs among six kinds: 6 - 5 + (7 - 6) = 2
    hand = "1111m2233p4455s6z"
    sp = ("seven_pairs",)
    assert majiang.shanten(hand, forms=sp) == 0                          # mcr: quads
    assert majiang.shanten(hand, forms=sp, seven_pairs_quads=False) == 2
    assert majiang.shanten(hand, ruleset="plain", forms=sp) == 2
    assert majiang.shanten(hand, ruleset="plain", forms=sp, seven_pairs_quads=True) == 0
    # under 四川 (quads count) the option keeps the 108-tile set: 6z is not in it
    with pytest.raises(majiang.InvalidHandError, match="tile set"):
        majiang.shanten(hand, ruleset="sichuan", seven_pairs_quads=False)

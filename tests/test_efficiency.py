"""Shanten, ukeire, discard tables and decompositions: properties and brute-force checks."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import majiang
import majiang as mj
from majiang import (
    InvalidHandError,
    MahjongError,
    RuleError,
    decompositions,
    discard_table,
    efficiency,
    shanten,
    shanten_batch,
    ukeire,
)
from majiang import hand as hand_mod
from majiang import tiles as tiles_mod
from majiang.efficiency import discard_columns
from majiang.hand import Hand, Meld
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


# ============================================================================
# The quick paths equal the validating routes
# The quick paths of issue 12 give exactly what the validating routes give.
#
# Each quick path (direct parsing of ASCII text in the core, trusted Hand construction,
# list fast paths, the string / Hand routes of ``shanten``, the ukeire kernel) is
# compared with the route it short-cuts -- the same public function with the quick path
# switched off (monkeypatched to "not handled") -- on random inputs, valid and invalid:
# same value, or same exception type and message.  A 5k fast variant runs always; the
# 100k variant is marked slow.
# ============================================================================
FAST_N = 5_000
SLOW_N = 100_000

_SUIT = "mpsz"


def _outcome(fn, *args, **kw):
    try:
        r = fn(*args, **kw)
    except MahjongError as e:
        return ("error", type(e).__name__, str(e))
    if isinstance(r, np.ndarray):
        return ("array", r.dtype.str, r.tolist(), r.flags.writeable)
    if type(r).__name__ == "DataFrame":
        return ("frame", r)
    if isinstance(r, majiang.Hand):
        return ("hand", r.concealed.tolist(), r.concealed.flags.writeable, r.melds,
                r.flowers, r.jokers, r.concealed.dtype.str)
    return ("value", r)


def _group_text(rng, kinds: list[int]) -> str:
    """Tenhou text of tile kinds, grouped by suit in random runs, red fives sometimes."""
    out = []
    order = list(kinds)
    rng.shuffle(order)
    i = 0
    while i < len(order):
        run = order[i:i + int(rng.integers(1, 5))]
        i += len(run)
        for suit in range(4):
            ds = []
            for k in run:
                if k // 9 == suit if k < 27 else suit == 3:
                    r = k - 9 * suit + 1
                    ds.append("0" if r == 5 and suit < 3 and rng.random() < 0.2 else str(r))
            if ds:
                out.append("".join(ds) + _SUIT[suit])
        if rng.random() < 0.3:
            out.append(" ")
    return "".join(out)


def _meld_text(rng, used: np.ndarray) -> str | None:
    for _ in range(10):
        kind = rng.integers(0, 4)
        if kind == 0:
            s = int(rng.integers(0, 3))
            t = 9 * s + int(rng.integers(0, 7))
            ks = [t, t + 1, t + 2]
        else:
            t = int(rng.integers(0, 34))
            ks = [t] * (3 if kind == 1 else 4)
        if all(used[k] + ks.count(k) <= 4 for k in set(ks)):
            for k in ks:
                used[k] += 1
            body = _group_text(rng, ks).replace(" ", "")
            return ("{" + body + "}") if kind == 3 else ("[" + body + "]")
    return None


def _random_hand_text(rng) -> str:
    """Mostly valid hand text (plain, with melds, flowers, jokers), sometimes broken."""
    used = np.zeros(34, np.int64)
    n_melds = int(rng.choice([0, 0, 0, 1, 2, 3, 4]))
    melds = [m for m in (_meld_text(rng, used) for _ in range(n_melds)) if m]
    size = int(rng.choice([13, 14, 13, 14, 16, 17, 12, 15, 11]))
    n_jokers = int(rng.choice([0, 0, 0, 0, 1, 2, 9]))
    n = max(0, size - 3 * len(melds) - min(n_jokers, 3))
    wall = np.repeat(np.arange(34), 4 - used)
    kinds = rng.choice(wall, size=min(n, len(wall)), replace=False).tolist()
    if rng.random() < 0.03 and kinds:       # a fifth copy
        kinds += [kinds[0]] * 4
    parts = [_group_text(rng, kinds)] + melds
    if n_jokers:
        parts.insert(int(rng.integers(0, len(parts) + 1)), "*" * min(n_jokers, 3)
                     if n_jokers < 9 else "*" * 9)
    if rng.random() < 0.2:
        fl = rng.choice(8, size=int(rng.integers(1, 4)), replace=rng.random() < 0.2) + 1
        parts.append("".join(map(str, fl)) + "f")
    rng.shuffle(parts)
    text = " ".join(parts) if rng.random() < 0.7 else "".join(parts)
    r = rng.random()
    if r < 0.08:        # corrupt one character
        pos = int(rng.integers(0, len(text) + 1))
        bad = str(rng.choice(list("x[]{}8z0*f 9 \t东M")))
        text = text[:pos] + bad + text[pos:]
    elif r < 0.12 and text:
        pos = int(rng.integers(0, len(text)))
        text = text[:pos] + text[pos + 1:]
    return text


def _texts(n: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    return [_random_hand_text(rng) for _ in range(n)]


@pytest.fixture
def slow_routes(monkeypatch):
    """Switch every quick path off: the routes as they were before issue 12."""
    def off(monkeypatch):
        monkeypatch.setattr(hand_mod, "_parse_text", lambda s: None)
        monkeypatch.setattr(tiles_mod, "_plain_counts", lambda s, readonly=False: None)
        monkeypatch.setattr(tiles_mod, "_tile_list_counts", lambda x: None)
        monkeypatch.setattr(tiles_mod, "_list_counts", lambda x: None)
    return off


def _compare_parsing(n: int, seed: int, monkeypatch, off) -> None:
    texts = _texts(n, seed)
    calls = [
        (majiang.parse_hand, {}), (majiang.parse_hand, {"strict": False}),
        (majiang.parse_hand, {"hand_size": 13}), (majiang.parse_hand, {"hand_size": 16}),
        (majiang.as_hand, {}), (majiang.parse_counts, {}), (majiang.counts_from_tiles, {}),
        (majiang.as_counts, {}),
    ]
    fast = [[_outcome(f, t, **kw) for f, kw in calls] for t in texts]
    off(monkeypatch)
    slow = [[_outcome(f, t, **kw) for f, kw in calls] for t in texts]
    n_ok = 0
    for t, a, b in zip(texts, fast, slow):
        assert a == b, t
        n_ok += a[0][0] == "hand"
    assert n_ok > n // 4        # the sample holds many valid hands, not only errors


def test_parsing_matches_validating_route(slow_routes, monkeypatch):
    _compare_parsing(FAST_N, 1, monkeypatch, slow_routes)


@pytest.mark.slow
def test_parsing_matches_validating_route_100k(slow_routes, monkeypatch):
    _compare_parsing(SLOW_N, 2, monkeypatch, slow_routes)


def test_parsed_hand_equals_its_parts():
    """Independent of either route: the hand built from what the text says."""
    h = majiang.parse_hand("23m0p56p11z [555z] {6666m} [3m12m] 51f *")
    assert h.concealed.tolist() == np.bincount([1, 2, 13, 13, 14, 27, 27],
                                               minlength=34).tolist()
    assert h.melds == (majiang.Meld("pung", 31), majiang.Meld("kong", 5, concealed=True),
                       majiang.Meld("chow", 0))
    assert h.flowers == (0, 4) and h.jokers == 1
    assert not h.concealed.flags.writeable
    with pytest.raises(ValueError):
        h.concealed[0] = 1
    assert h == majiang.Hand(h.concealed, h.melds, (4, 0), 1)
    assert hash(h) == hash(majiang.Hand(h.concealed, h.melds, (4, 0), 1))
    import pickle
    assert pickle.loads(pickle.dumps(h)) == h


def _random_lists(rng, n):
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.5:
            out.append(rng.integers(0, 34, size=int(rng.integers(0, 18))).tolist())
        elif r < 0.8:
            out.append(rng.integers(0, 5 if rng.random() < 0.9 else 6, size=34).tolist())
        elif r < 0.9:
            x = rng.integers(0, 5, size=34).tolist()
            x[int(rng.integers(0, 34))] = [True, -1, 2 ** 70, 1.0, "1"][int(rng.integers(0, 5))]
            out.append(x)
        else:
            out.append(tuple(rng.integers(-1, 35, size=int(rng.integers(0, 6))).tolist()))
    return out


@pytest.mark.parametrize("n", [FAST_N, pytest.param(SLOW_N, marks=pytest.mark.slow)])
def test_list_paths_match(n, slow_routes, monkeypatch):
    xs = _random_lists(np.random.default_rng(3), n)
    calls = (majiang.as_counts, majiang.counts_from_tiles, majiang.as_hand)
    fast = [[_outcome(f, x) for f in calls] for x in xs]
    slow_routes(monkeypatch)
    slow = [[_outcome(f, x) for f in calls] for x in xs]
    for x, a, b in zip(xs, fast, slow):
        assert a == b, x


def _shanten_outcomes(texts):
    out = []
    for t in texts:
        row = []
        for kw in ({}, {"ruleset": "mcr"}, {"forms": ("regular",)}, {"ruleset": "taiwan"},
                   {"seven_pairs_quads": False}, {"ruleset": "plain"}):
            row.append(_outcome(majiang.shanten, t, **kw))
        try:
            h = majiang.parse_hand(t)
        except MahjongError:
            h = None
        row.append(None if h is None else _outcome(majiang.shanten, h))
        row.append(None if h is None else _outcome(majiang.shanten, h, ruleset="taiwan"))
        row.append(_outcome(majiang.ukeire, t))
        row.append(None if h is None else _outcome(majiang.ukeire, h))
        row.append(_outcome(majiang.ukeire, t, ruleset="plain"))
        out.append(row)
    return out


@pytest.mark.parametrize("n", [FAST_N, pytest.param(SLOW_N, marks=pytest.mark.slow)])
def test_shanten_of_text_and_hand_match(n, slow_routes, monkeypatch):
    texts = _texts(n, 4)
    fast = _shanten_outcomes(texts)
    slow_routes(monkeypatch)
    for mod in (efficiency._api, efficiency._b258):     # where the quick paths read it
        monkeypatch.setattr(mod, "_plain_counts", lambda s, readonly=False: None)
    monkeypatch.setattr(efficiency._eff, "ukeire_fast", lambda *a: None)
    monkeypatch.setattr(efficiency._eff, "shanten_fast", _vector_only_fast(
        efficiency._eff.shanten_fast))
    slow = _shanten_outcomes(texts)
    for t, a, b in zip(texts, fast, slow):
        assert a == b, t


def _vector_only_fast(f):
    def g(hand, mask, quads, need=0):
        if isinstance(hand, str) or need:
            return -200
        return f(hand, mask, quads)
    return g


def test_shanten_of_text_against_xiangting():
    """An independent oracle for the string route (xiangting: regular + seven pairs +
    thirteen orphans, exact about the 4-copy limit)."""
    xiangting = pytest.importorskip("xiangting")
    rng = np.random.default_rng(5)
    wall = np.repeat(np.arange(34), 4)
    for _ in range(2000):
        ks = rng.choice(wall, size=int(rng.choice([13, 14])), replace=False).tolist()
        c = np.bincount(ks, minlength=34)
        text = _group_text(rng, ks)
        want = xiangting.calculate_replacement_number(c.tolist(),
                                                      xiangting.PlayerCount.FOUR) - 1
        assert majiang.shanten(text, ruleset="plain") == want, text


def _random_vectors(rng, n):
    wall = np.repeat(np.arange(34), 4)
    out = []
    for _ in range(n):
        size = int(rng.choice([13, 13, 13, 10, 7, 4, 1, 14, 16, 12]))
        if rng.random() < 0.5:      # concentrated: long suits, quads, 15-tile groups
            lo = 9 * int(rng.integers(0, 3))
            pool = (np.repeat(np.arange(lo, lo + 9), 4) if rng.random() < 0.3
                    else wall[4 * lo:4 * lo + 72])
            kinds = rng.choice(pool, size=size, replace=False)
        else:
            kinds = rng.choice(wall, size=size, replace=False)
        c = np.bincount(np.minimum(kinds, 33), minlength=34)
        if rng.random() < 0.02:
            c[int(rng.integers(0, 34))] = 5
        out.append(np.ascontiguousarray(c, dtype=np.uint8))
    return out


def _ukeire_outcomes(vectors):
    return [[_outcome(majiang.ukeire, c), _outcome(majiang.ukeire, c, seven_pairs_quads=False),
             _outcome(majiang.ukeire, c, ruleset="plain")]
            for c in vectors]


@pytest.mark.parametrize("n", [FAST_N, pytest.param(SLOW_N, marks=pytest.mark.slow)])
def test_ukeire_of_vector_matches(n, monkeypatch):
    vectors = _random_vectors(np.random.default_rng(6), n)
    fast = _ukeire_outcomes(vectors)
    monkeypatch.setattr(efficiency._eff, "ukeire_fast", lambda *a: None)
    slow = _ukeire_outcomes(vectors)
    n_dict = 0
    for c, a, b in zip(vectors, fast, slow):
        assert a == b, c.tolist()
        n_dict += a[0][0] == "value"
    assert n_dict > n // 2


def test_ukeire_of_vector_by_brute_force():
    """Independent of the kernel's ukeire: a draw is effective when the shanten of the
    hand plus that tile (computed by the direct programme: caps of 4 force it) drops."""
    rng = np.random.default_rng(7)
    for c in _random_vectors(rng, 400):
        n = int(c.sum())
        if n % 3 != 1 or c.max() > 4 or n > 13:
            continue
        got = majiang.ukeire(c, ruleset="plain")        # forms 1|2|4, distinct pairs
        assert got == _ukeire_by_direct_programme(c), c.tolist()


def _ukeire_by_direct_programme(c):
    """{tile: live copies} of the kinds whose draw lowers the plain forms' (1|2|4) shanten
    of ``c``, each draw asked of the direct programme (no table rows)."""
    caps4 = np.full(34, 4, np.uint8)
    s0 = efficiency._eff.shanten_one(c, 7, False, caps4)
    want = {}
    for k in range(34):
        if c[k] < 4:
            d = c.copy()
            d[k] += 1
            if efficiency._eff.shanten_one(d, 7, False, caps4) < s0:
                want[majiang.tile_name(k)] = 4 - int(c[k])
    return want


def test_ukeire_by_brute_force_where_seven_pairs_or_orphans_lead():
    """The table path looks at a draw only for the forms at the hand's distance (a draw
    lowers a form's distance by at most one): hands where seven pairs or thirteen
    orphans tie with or beat the regular form, against the direct programme per draw."""
    caps4 = np.full(34, 4, np.uint8)
    orphans = [0, 8, 9, 17, 18, 26] + list(range(27, 34))
    rng = np.random.default_rng(11)
    led = 0
    for i in range(600):
        c = np.zeros(34, np.int64)
        if i % 2:                       # pairs: five or six of them, the rest single
            ks = rng.choice(34, 13, replace=False)
            npairs = int(rng.integers(4, 7))
            c[ks[:npairs]] += 2
            c[ks[npairs:npairs + 13 - 2 * npairs]] += 1
        else:                           # terminals and honors, a few other tiles
            m = int(rng.integers(9, 14))
            c[rng.choice(orphans, m, replace=False)] += 1
            c[rng.choice(34, 13 - m, replace=True)] += 1
        if c.max() > 4 or c.sum() != 13:
            continue
        c = np.ascontiguousarray(c, dtype=np.uint8)
        s0 = efficiency._eff.shanten_one(c, 7, False, caps4)
        led += efficiency._eff.shanten_one(c, 1, False, caps4) >= s0 and \
            min(efficiency._eff.shanten_one(c, 2, False, caps4),
                efficiency._eff.shanten_one(c, 4, False, caps4)) == s0
        assert majiang.ukeire(c, ruleset="plain") == _ukeire_by_direct_programme(c), c.tolist()
    assert led > 100


# --------------------------------------------------------------------------- table cache

_CACHE_PROBE = r"""
import sys, numpy as np
from majiang._core import efficiency as e
e.build_tables()
rng = np.random.default_rng(8)
wall = np.repeat(np.arange(34), 4)
rows = np.stack([np.bincount(rng.choice(wall, 13 + (i % 2), replace=False), minlength=34)
                 for i in range(3000)]).astype(np.uint8)
out = np.empty(len(rows), np.int8)
e.shanten_many(rows, 7, False, out)
caps4 = np.full(34, 4, np.uint8)    # the direct programme: no table involved
ref = np.array([e.shanten_one(r, 7, False, caps4) for r in rows[:300]], np.int8)
assert (out[:300] == ref).all()
print(e.TABLE_SOURCE, e.cache_file(), out.tobytes().hex())
"""


def _probe(env_dir):
    import os
    import subprocess
    import sys
    env = dict(os.environ)
    if env_dir is None:
        env.pop("MAJIANG_CACHE_DIR", None)
    else:
        env["MAJIANG_CACHE_DIR"] = str(env_dir)
    r = subprocess.run([sys.executable, "-c", _CACHE_PROBE], env=env, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    source, path, values = r.stdout.split()
    return source, path, values


def test_table_cache_built_loaded_and_rebuilt(tmp_path):
    src1, path, v1 = _probe(tmp_path)
    assert src1 == "built" and path.startswith(str(tmp_path))
    from pathlib import Path
    f = Path(path)
    assert f.is_file() and not list(tmp_path.glob(".tables-*"))   # no temp file left
    src2, _, v2 = _probe(tmp_path)
    assert src2 == "cache" and v2 == v1
    # a corrupt payload byte: detected by the checksum, rebuilt, rewritten
    data = bytearray(f.read_bytes())
    data[len(data) // 2] ^= 0xFF
    f.write_bytes(bytes(data))
    src3, _, v3 = _probe(tmp_path)
    assert src3 == "built" and v3 == v1
    assert _probe(tmp_path)[0] == "cache"
    # a stale key (another build of the core): rebuilt
    data = bytearray(f.read_bytes())
    data[10] ^= 0xFF
    f.write_bytes(bytes(data))
    assert _probe(tmp_path)[0] == "built"
    # truncated
    f.write_bytes(f.read_bytes()[:1000])
    src4, _, v4 = _probe(tmp_path)
    assert src4 == "built" and v4 == v1


def test_table_cache_unwritable_or_disabled(tmp_path):
    blocker = tmp_path / "not_a_dir"
    blocker.write_text("x")
    src, _, v = _probe(blocker / "sub")         # cannot create the directory
    assert src == "built"
    src_off, path_off, v_off = _probe("")       # disabled
    assert src_off == "built" and path_off == "None" and v_off == v


# --------------------------------------------------------------------------- batch kernel

def _random_rows(rng, n):
    rows = np.zeros((n, 34), np.uint8)
    wall = np.repeat(np.arange(34), 4)
    for i in range(n):
        size = int(rng.choice([13, 14, 13, 14, 1, 2, 4, 5, 7, 8, 10, 11, 16, 17, 12, 15]))
        if rng.random() < 0.3:              # one or two suits: long groups, quads
            lo = 9 * int(rng.integers(0, 3))
            pool = wall[4 * lo:4 * lo + (36 if rng.random() < 0.5 else 72)]
        else:
            pool = wall
        rows[i] = np.bincount(rng.choice(pool, size=min(size, len(pool)), replace=False),
                              minlength=34)
        if rng.random() < 0.01:
            rows[i, int(rng.integers(0, 34))] = 5
    return rows


def _batch_matches(n, seed):
    """The batch kernel (branchless min-plus by set count, clamped indices) against the
    per-row route of the validating wrapper with caps of 4 -- the old index and min-plus
    code -- for every form mask, with and without quads."""
    rows = _random_rows(np.random.default_rng(seed), n)
    caps4 = np.full(34, 4, np.uint8)
    eff = efficiency._eff
    for mask in (1, 7, 2, 4, 6, 31, 25):
        for quads in (False, True):
            out = np.empty(n, np.int8)
            eff.shanten_many(rows, mask, quads, out)
            ref = np.array([eff.shanten_one(r, mask, quads, caps4) for r in rows])
            ref[ref < -1] = -128        # error codes, as the batch kernel writes them
            assert np.array_equal(out.astype(int), ref), (mask, quads)


def test_batch_kernel_matches_reference_route():
    _batch_matches(FAST_N, 9)


@pytest.mark.slow
def test_batch_kernel_matches_reference_route_100k():
    _batch_matches(SLOW_N, 10)


def test_batch_against_xiangting_and_threads():
    xiangting = pytest.importorskip("xiangting")
    rows = _random_rows(np.random.default_rng(11), 20_000)
    n = rows.sum(axis=1)
    ok = (rows.max(axis=1) <= 4) & (n % 3 != 0) & (n <= 14)
    rows = np.ascontiguousarray(rows[ok])
    got = majiang.shanten_batch(rows, ruleset="plain")
    four = xiangting.PlayerCount.FOUR
    want = [xiangting.calculate_replacement_number(r.tolist(), four) - 1 for r in rows]
    assert got.tolist() == want
    assert np.array_equal(majiang.shanten_batch(rows, n_jobs=None, ruleset="plain"), got)
    assert np.array_equal(majiang.shanten_batch(rows, n_jobs=2, ruleset="plain"), got)
    bad = rows.copy()
    bad[len(bad) - 3, 0] = 5
    with pytest.raises(majiang.InvalidHandError, match=f"row {len(bad) - 3}: "):
        majiang.shanten_batch(bad, n_jobs=2)


# --------------------------------------------------------------------------- discard tables

def _table_cases(rng, n):
    wall = np.repeat(np.arange(34), 4)
    cases = []
    for i in range(n):
        size = int(rng.choice([14, 14, 14, 11, 8, 5, 2]))
        ks = rng.choice(wall, size=size, replace=False)
        c = np.bincount(ks, minlength=34).astype(np.uint8)
        vis = None
        if rng.random() < 0.3:
            left = (4 - c).astype(np.int64)
            vis = np.minimum(left, rng.integers(0, 3, size=34) * (rng.random(34) < 0.3))
            vis = vis.astype(np.uint8)
        kw = [{}, {"seven_pairs_quads": False}, {"ruleset": "mcr"}, {"ruleset": "sichuan"},
              {"forms": ("regular",)}, {"ruleset": "plain"}][int(rng.integers(0, 6))]
        if kw.get("ruleset") == "sichuan":
            c[27:] = 0
            if c.sum() % 3 != 2:
                continue
            if vis is not None:
                vis[27:] = 0
        hand = majiang.format_counts(c) if size == 14 and rng.random() < 0.5 else c
        cases.append((hand, vis, kw))
    return cases


def _tables_match(n, n_second, seed):
    import pandas as pd
    cases = _table_cases(np.random.default_rng(seed), n)
    n_frames = 0
    for i, (hand, vis, kw) in enumerate(cases):
        second = i < n_second
        a = _outcome(majiang.discard_table, hand, vis, second_order=second, **kw)
        b = _outcome(efficiency._discard_table_rows, hand, vis, second_order=second, **kw)
        if a[0] == "error" or b[0] == "error":
            assert a == b
        else:
            pd.testing.assert_frame_equal(a[1], b[1])
            n_frames += 1
    assert n_frames > n // 2


def test_discard_table_matches_row_route():
    _tables_match(3000, 150, 12)


def test_discard_table_public_constructor_fallback(monkeypatch):
    """Without pandas' DataFrame._from_arrays the table comes from the public constructor,
    and both routes give the row route's frame (values, dtypes, index)."""
    import pandas as pd

    def gone(*a, **k):
        raise AttributeError("no _from_arrays in this pandas")

    monkeypatch.setattr(pd.DataFrame, "_from_arrays", gone, raising=False)
    _tables_match(300, 20, 14)


@pytest.mark.slow
def test_discard_table_matches_row_route_100k():
    _tables_match(SLOW_N, 3000, 13)


def test_auto_threads_follow_free_cores(monkeypatch):
    """n_jobs=None counts only the cores other processes leave free (load average)."""
    import os
    for load, want in ((0.0, 2), (1.0, 2), (1.6, 1), (6.0, 1)):
        monkeypatch.setattr(os, "getloadavg", lambda load=load: (load, load, load))
        assert efficiency._spare_cores(2) == want
    monkeypatch.setattr(os, "getloadavg", lambda: (_ for _ in ()).throw(OSError()))
    assert efficiency._spare_cores(4) == 4



# ------------------------------------------- knitted forms on the table routes (issue 17)

def _near_knitted(rng, n, size):
    """Hands near 全不靠 / 组合龙: most of a knitted pattern (147 / 258 / 369 in the three
    suits in some order), some honors, the rest random; at most 4 of a kind."""
    out = []
    while len(out) < n:
        order = rng.permutation(3)
        knit = [9 * int(order[j]) + j + 3 * r for j in range(3) for r in range(3)]
        keep = list(rng.choice(knit, size=int(rng.integers(5, 10)), replace=False))
        honors = list(rng.choice(np.arange(27, 34), size=int(rng.integers(0, 6)),
                                 replace=False))
        ks = (keep + honors)[:size]
        while len(ks) < size:
            ks.append(int(rng.integers(0, 34)))
        c = np.bincount(ks, minlength=34)
        if c.max() <= 4:
            out.append(np.ascontiguousarray(c, dtype=np.uint8))
    return out


def test_knitted_forms_on_the_table_routes():
    """ukeire and discard tables with the knitted forms (the default, Chinese Official)
    against the general route: the ukeire by adding each tile and asking the validating
    per-hand shanten (caps of 4 force it), the discard table against its row route."""
    import pandas as pd
    rng = np.random.default_rng(17)
    caps4 = np.full(34, 4, np.uint8)
    mask = 1 | 2 | 4 | 8 | 16
    # 13 tiles, and 10 (a partial vector: 组合龙 with no set, no whole-hand forms)
    for c in (_near_knitted(rng, 600, 13) + _near_knitted(rng, 200, 10)
              + _random_vectors(rng, 300)):
        if int(c.sum()) not in (10, 13) or c.max() > 4:
            continue
        s0 = efficiency._eff.shanten_one(c, mask, True, caps4)
        want = {}
        for k in range(34):
            if c[k] < 4:
                d = c.copy()
                d[k] += 1
                if efficiency._eff.shanten_one(d, mask, True, caps4) < s0:
                    want[majiang.tile_name(k)] = 4 - int(c[k])
        assert majiang.ukeire(c) == want, c.tolist()
        assert majiang.shanten(c) == s0
    hands = _near_knitted(rng, 120, 14) + _near_knitted(rng, 60, 11)
    knitted_best = 0
    for i, h in enumerate(hands):
        second = i < 40
        a = majiang.discard_table(h, second_order=second)
        b = efficiency._discard_table_rows(h, second_order=second)
        pd.testing.assert_frame_equal(a, b)
        knitted_best += (majiang.shanten(h) < majiang.shanten(h, forms=(
            "regular", "seven_pairs", "thirteen_orphans")))
    assert knitted_best > 20          # the knitted forms decide many of these hands


# ============================================================================
# The second-order (改良) column against a reference
# The second-order (改良) column of the discard table against a reference from scratch.
#
# The kernel (``second_order_c`` in majiang/_core/efficiency_second_order.pxi) is
# incremental: it keeps the min-plus products of the groups a draw or discard leaves
# alone, memoises the 3n+1 states it meets within a call and prunes the draws that cannot
# lower the shanten.  The reference here shares none of that: it follows the definition of
# the ``improvement`` column (see ``majiang.discard_table``) path by path, in plain
# Python, and takes every shanten from the public functions (``majiang.shanten`` for a
# hand with melds, ``majiang.shanten_batch`` -- the same kernel as ``shanten`` without the
# Python per call -- for bare count vectors):
#
#     improvement(d) = sum_k live(k) * best(k) / sum_k live(k)
#
# over the draws k that lower the shanten s of h - d (live copies: copies available
# minus held minus visible minus the discarded d, only k with live > 0), where best(k)
# is the largest live ukeire over the discards d2 of h - d + k that keep shanten s - 1
# (-1 if none), and the live ukeire of a state S counts, over the draws j that lower
# its shanten, the copies of j not held in S, not visible and not the discarded d.
# NaN when s <= 0 or no draw is live.
#
# Cases: seeded random hands (uniform, near a complete hand, near seven pairs, near
# thirteen orphans, one-suit heavy), with and without visible tiles, the default forms,
# seven pairs with quads, single forms; partial hands (fewer concealed tiles); melds;
# rulesets with a reduced tile set, a void suit (缺一门) and the 2-5-8 pair; jokers with
# and without the fifth copy; the knitted forms (mcr); 16-tile hands.
# ============================================================================
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

# ---------------------------------------------------------------------------
# ``visible`` of :func:`majiang.ukeire` / :func:`majiang.discard_table` /
# :func:`majiang.advise` is checked against the ruleset's tile set, as the CLI's
# ``--visible`` is (one check: ``GameModel.check_kinds``).
#
# The tile sets are the rule notes' (docs/rules/): 四川 / 合肥 play the 108 suited
# tiles only; 卡五星 84 tiles, no 万 and no winds; 罗源 36花 turns the seven honours into
# flowers, so no honour is a playable kind.  Every route of the analysis is covered:
# the core with shape options (sichuan, kawuxing), the 2-5-8 families (hefei) and the
# shape engine (luoyuan).

from majiang.cli import main
from majiang.tiles import parse_tile

CASES = [   # ruleset, a 13-tile hand (16 for luoyuan), a tile outside the set
    ("sichuan", "1112345678999m", "4z"),
    ("hefei", "1112345678999m", "1z"),
    ("kawuxing", "1112345678999p", "5m"),
    ("luoyuan", "1112345678999m123p", "1z"),
]


def _calls(hand):
    draw = "9s"
    return [(majiang.ukeire, hand), (majiang.discard_table, hand + draw),
            (majiang.advise, hand + draw)]


@pytest.mark.parametrize("name,hand,outside", CASES)
def test_visible_kind_outside_the_tile_set_is_refused(name, hand, outside):
    vec = np.zeros(34, np.uint8)
    vec[parse_tile(outside)] = 1
    for f, h in _calls(hand):
        for vis in (outside, vec):          # text and a count vector alike
            with pytest.raises(InvalidHandError) as e:
                f(h, vis, ruleset=name)
            assert f"{outside} is not in the tile set of {name}" in str(e.value)
            assert str(e.value).startswith("visible: ")


@pytest.mark.parametrize("name,hand,outside", CASES)
def test_visible_inside_the_tile_set_still_counts(name, hand, outside):
    # one seen copy of 2m/2p (in every set above) lowers that draw's live count by one
    seen = "2p" if name == "kawuxing" else "5m"
    got = majiang.ukeire(hand, seen, ruleset=name)
    base = majiang.ukeire(hand, ruleset=name)
    assert set(got) == set(base) and got[seen] == base[seen] - 1
    # without a ruleset (136 tiles) the same outside tile is an ordinary visible tile
    if name != "luoyuan":
        majiang.ukeire(hand, outside)


def test_library_and_cli_say_the_same(capsys):
    with pytest.raises(InvalidHandError) as e:
        majiang.ukeire("123m456p789s11s23p", "4z", ruleset="sichuan")
    assert main(["shanten", "123m456p789s11s23p", "--rules", "sichuan", "--visible", "4z"]) == 2
    err = capsys.readouterr().err
    lib = str(e.value).split(": ", 1)[1]
    assert lib == "4z is not in the tile set of sichuan (108 tiles)" and lib in err


def _five_set_hands(rng, n):
    """16/17-tile hands: uniform, one suit heavy, and complete five sets + pair less
    0-1 tiles; a list of (counts, jokers, expected shanten or None)."""
    tiles = np.repeat(np.arange(34), 4)
    heavy = np.where(tiles < 9, 8.0, 1.0)
    out = []
    for i in range(n):
        size = int(rng.choice([16, 17]))
        kind = i % 3
        if kind < 2:
            p = None if kind == 0 else heavy / heavy.sum()
            c = np.bincount(rng.choice(tiles, size, replace=False, p=p), minlength=34)
            out.append((c.astype(np.uint8), int(rng.integers(0, 2)) if size == 16 else 0,
                        None))
            continue
        # five sets and a pair built at random (within four copies): complete (-1),
        # and with one tile taken off tenpai (0): the answer by construction
        while True:
            c = np.zeros(34, np.int64)
            for _ in range(5):
                k = int(rng.integers(0, 34))
                if k < 27 and k % 9 < 7 and rng.random() < 0.6:
                    c[k:k + 3] += 1
                else:
                    c[k] += 3
            c[int(rng.integers(0, 34))] += 2
            if c.max() <= 4:
                break
        c = c.astype(np.uint8)
        if size == 17:
            out.append((c, 0, -1))
        else:
            c[int(rng.choice(np.flatnonzero(c)))] -= 1
            out.append((c, 0, 0))
    return out


def test_five_set_hands_from_table_rows_equal_the_direct_programme():
    # 16-tile hands need five sets: the kernel combines its four-set table rows and
    # bounds the splits with all five sets in one suit, running the direct programme
    # only when the bound does not settle it; switched off, the programme answers
    # every hand.  Both agree on random, one-suit-heavy and built complete hands, with
    # any pair and with the 2-5-8 pair, with and without a joker
    from majiang._core import efficiency as ek
    rng = np.random.default_rng(16)
    pm258 = sum(1 << (9 * s + r) for s in range(3) for r in (1, 4, 7))
    hands = _five_set_hands(rng, 1500)
    try:
        for pair_mask in (None, pm258):
            for c, j, expected in hands:
                got = []
                for on in (True, False):
                    ek.set_five_bound(on)
                    got.append(ek.shanten_one(c, 1, False, None, j, pair_mask=pair_mask))
                assert got[0] == got[1], (c, j, pair_mask)
                if expected is not None and pair_mask is None:
                    assert got[0] == expected, c
    finally:
        ek.set_five_bound(True)

"""Tests of majiang.hand: Meld, Hand, parse_hand/format_hand, as_hand, visible_counts,
Decomposition.

Expected values are hand-written tile index lists (0-8 = 1-9m, 9-17 = 1-9p,
18-26 = 1-9s, 27-33 = E S W N White Green Red), never output copied from the code.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import majiang
from majiang.errors import InvalidHandError, InvalidNotationError, MahjongError, RuleError
from majiang.hand import (
    Decomposition, Hand, Meld, as_hand, format_hand, parse_hand, visible_counts,
)


def counts(tiles):
    """Hand-made count vector from a list of tile indices."""
    c = np.zeros(34, dtype=np.uint8)
    for t in tiles:
        c[t] += 1
    return c


# ---------------------------------------------------------------------------
# Meld
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("meld, tiles, text", [
    (Meld("chow", 0), [0, 1, 2], "[123m]"),
    (Meld("chow", 15), [15, 16, 17], "[789p]"),
    (Meld("chow", 24), [24, 25, 26], "[789s]"),
    (Meld("pung", 31), [31, 31, 31], "[555z]"),
    (Meld("pung", 4), [4, 4, 4], "[555m]"),
    (Meld("kong", 31), [31, 31, 31, 31], "[5555z]"),
    (Meld("kong", 5, concealed=True), [5, 5, 5, 5], "{6666m}"),
])
def test_meld(meld, tiles, text):
    assert meld.tiles == tiles
    assert str(meld) == text
    c = meld.counts
    assert c.dtype == np.uint8 and c.shape == (34,)
    np.testing.assert_array_equal(c, counts(tiles))


def test_meld_value_semantics():
    assert Meld("pung", 3) == Meld("pung", np.int64(3))
    assert hash(Meld("kong", 3, True)) == hash(Meld("kong", 3, True))
    assert Meld("kong", 3) != Meld("kong", 3, concealed=True)
    assert type(Meld("pung", np.int64(3)).tile) is int


@pytest.mark.parametrize("args, fragment", [
    (("chow", 7), "8m"),        # 8-9-10 does not exist
    (("chow", 8), "9m"),
    (("chow", 16), "8p"),
    (("chow", 25), "8s"),
    (("chow", 32), "6z"),       # the honour chows start at 1z..5z (HONOR_CHOW_STARTS)
    (("chow", 33), "7z"),
    (("pung", 34), "34"),
    (("pung", -1), "-1"),
    (("pung", 1.0), "1.0"),
    (("kang", 1), "kang"),
    (("pung", 1, True), "concealed pung"),
    (("chow", 1, True), "concealed chow"),
    (("kong", 1, 1), "bool"),
])
def test_meld_errors(args, fragment):
    with pytest.raises(InvalidHandError, match=fragment):
        Meld(*args)


# ---------------------------------------------------------------------------
# parse_hand: notations
# ---------------------------------------------------------------------------

E, S, W, N, WH, GR, RD = 27, 28, 29, 30, 31, 32, 33
THIRTEEN = [1, 2, 12, 13, 14, 24, 25, 26, E, E]        # "23m456p789s11z" (10 tiles)

PARSE_CASES = [
    # text, concealed tiles, melds, flowers
    ("123m456p789s1234z", [0, 1, 2, 12, 13, 14, 24, 25, 26, E, S, W, N], (), ()),
    ("19m19p19s1234567z1m", [0, 0, 8, 9, 17, 18, 26, E, S, W, N, WH, GR, RD], (), ()),
    ("23m456p789s11z [555z]", THIRTEEN, (Meld("pung", WH),), ()),
    ("23m456p789s11z [555z] {6666m}", THIRTEEN,
     (Meld("pung", WH), Meld("kong", 5, True)), ()),
    ("23m456p789s11z[5555z]", THIRTEEN, (Meld("kong", WH),), ()),
    ("1m [123p] [999s] [3333z] {7777z}", [0],
     (Meld("chow", 9), Meld("pung", 26), Meld("kong", W), Meld("kong", RD, True)), ()),
    ("[321p] 1m [213p] [132p] 1m 9s9s9s", [0, 0, 26, 26, 26],
     (Meld("chow", 9), Meld("chow", 9), Meld("chow", 9)), ()),
    ("0m0p0s55m55p55s22z 1z1z", [4, 4, 4, 13, 13, 13, 22, 22, 22, S, S, E, E], (), ()),
    ("一万二万三万 四筒五筒六筒 七条八条九条 东东 中中", [0, 1, 2, 12, 13, 14, 24, 25, 26,
                                              E, E, RD, RD], (), ()),
    ("一万二万三万四饼五饼六饼七索八索九索 東東 紅中红中 [白白白]",
     [0, 1, 2, 12, 13, 14, 24, 25, 26, E, E, RD, RD], (Meld("pung", WH),), ()),
    ("\U0001F007\U0001F008\U0001F009\U0001F019\U0001F01A\U0001F01B\U0001F010\U0001F011"
     "\U0001F012\U0001F000\U0001F000\U0001F004\U0001F004",
     [0, 1, 2, 9, 10, 11, 18, 19, 20, E, E, RD, RD], (), ()),
    ("23m 四五六筒 \U0001F016\U0001F017\U0001F018 东1z [白板白板白板]",
     THIRTEEN, (Meld("pung", WH),), ()),
    ("[\U0001F004\U0001F004\U0001F004] {发发发发} 1m 2m 3m 4m 9p 9p 9p",
     [0, 1, 2, 3, 17, 17, 17], (Meld("pung", RD), Meld("kong", GR, True)), ()),
    # flowers: Chinese, glyphs, Tenhou-style, anywhere outside brackets
    ("春 123m456p789s1234z 梅", [0, 1, 2, 12, 13, 14, 24, 25, 26, E, S, W, N], (), (0, 4)),
    ("123m456p789s1234z 15f", [0, 1, 2, 12, 13, 14, 24, 25, 26, E, S, W, N], (), (0, 4)),
    ("123m456p789s1234z 1f5f", [0, 1, 2, 12, 13, 14, 24, 25, 26, E, S, W, N], (), (0, 4)),
    ("\U0001F026123m456p789s1234z\U0001F022", [0, 1, 2, 12, 13, 14, 24, 25, 26, E, S, W, N],
     (), (0, 4)),
    ("12345678f 123m456p789s1234z", [0, 1, 2, 12, 13, 14, 24, 25, 26, E, S, W, N],
     (), (0, 1, 2, 3, 4, 5, 6, 7)),
    ("夏秋冬兰竹菊 123m456p789s1234z", [0, 1, 2, 12, 13, 14, 24, 25, 26, E, S, W, N],
     (), (1, 2, 3, 5, 6, 7)),
    ("23m456p789s11z 8f [555z] 3f {6666m}", THIRTEEN,
     (Meld("pung", WH), Meld("kong", 5, True)), (2, 7)),
    # 16-tile hands
    ("123m456m789m123p456p7z", [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, RD], (), ()),
    ("1m [123p] [999s] [3333z] {7777z} [789m]", [0],
     (Meld("chow", 9), Meld("pung", 26), Meld("kong", W), Meld("kong", RD, True),
      Meld("chow", 6)), ()),
]


@pytest.mark.parametrize("text, tiles, melds, flowers", PARSE_CASES)
def test_parse_hand(text, tiles, melds, flowers):
    h = parse_hand(text)
    np.testing.assert_array_equal(h.concealed, counts(tiles))
    assert h.concealed.dtype == np.uint8 and h.concealed.shape == (34,)
    assert h.melds == melds
    assert h.flowers == flowers
    assert h.n_flowers == len(flowers)
    assert h.n_concealed == len(tiles)
    assert h.n_melds == len(melds)
    assert h.n_tiles == len(tiles) + 3 * len(melds)
    assert h == Hand(counts(tiles), melds, flowers)
    # round trip and canonical form
    assert parse_hand(format_hand(h)) == h
    assert format_hand(parse_hand(format_hand(h))) == format_hand(h)


@pytest.mark.parametrize("text, canonical", [
    ("1234z 789s 456p 123m", "123m456p789s1234z"),
    ("中中东东 一万二万三万 四筒五筒六筒 七条八条九条", "123m456p789s1177z"),
    ("[555z] 11z 789s 456p 23m {6666m}", "23m456p789s11z [555z] {6666m}"),
    ("[321p] 1m [789s] [111z] [999m]", "1m [123p] [789s] [111z] [999m]"),
    ("5f 123m456p789s1234z 1f", "123m456p789s1234z 15f"),
    ("梅春 123m456p789s1234z", "123m456p789s1234z 15f"),
    ("0m5m5m5m 9m99m 123p 7899s", "5555999m123p7899s"),
    ("[\U0001F004\U0001F004\U0001F004\U0001F004] 1m2m3m4m 9p 9p 9p 一索一索一索",
     "1234m999p111s [7777z]"),
])
def test_format_hand_canonical(text, canonical):
    assert format_hand(parse_hand(text)) == canonical
    assert format_hand(parse_hand(canonical)) == canonical


def test_repr_and_str():
    h = parse_hand("23m456p789s11z [555z] {6666m}")
    assert repr(h) == "Hand('23m456p789s11z [555z] {6666m}')"
    assert str(h) == "23m456p789s11z [555z] {6666m}"


def test_repr_html():
    h = parse_hand("23m456p789s11z [555z] {6666m} 春")
    out = h._repr_html_()
    assert out.startswith("<span") and out.endswith("</span>")
    assert "font-size" in out
    assert "\U0001F008\U0001F009" in out           # 2m 3m concealed
    assert "\U0001F006\U0001F006\U0001F006" in out  # [555z] = three White
    assert "\U0001F00C" in out and "\U0001F02B" in out  # 6m and a face-down tile
    assert "\U0001F026" in out                      # spring flower
    assert out.count("<span") >= 4                  # concealed, 2 melds, flowers


def test_repr_html_shows_jokers():
    """Was: a hand with jokers ('*') showed only its real tiles."""
    h = parse_hand("23m456p789s1z** [555z]")
    assert h.jokers == 2
    out = h._repr_html_()
    assert out.count("\U0001F02A") == 2             # MAHJONG TILE JOKER, one per joker
    # right after the concealed tiles, before the meld (the order of format_hand)
    assert out.index("\U0001F02A") < out.index("\U0001F006")
    assert "**" in out                              # the title holds the notation
    assert "\U0001F02A" not in parse_hand("23m456p789s11z1z [555z]")._repr_html_()


# ---------------------------------------------------------------------------
# Hand properties and value semantics
# ---------------------------------------------------------------------------

def test_hand_properties():
    h = parse_hand("23m456p789s11z [555z] {6666m}")
    assert h.n_concealed == 10 and h.n_melds == 2 and h.n_tiles == 16
    assert not h.is_concealed
    expected_all = counts(THIRTEEN + [WH] * 3 + [5] * 4)
    np.testing.assert_array_equal(h.all_counts, expected_all)
    assert h.all_counts.dtype == np.uint8
    closed = parse_hand("1112345678999m {5555p}")
    assert closed.is_concealed
    assert closed.n_tiles == 16 and closed.n_concealed == 13
    assert parse_hand("123m456p789s1234z").is_concealed


def test_hand_concealed_is_read_only_copy():
    c = counts(THIRTEEN + [GR, GR, GR])
    h = Hand(c)
    c[0] = 4
    assert h.concealed[0] == 0
    with pytest.raises(ValueError):
        h.concealed[0] = 1
    with pytest.raises(AttributeError):
        h.flowers = (1,)
    # all_counts is a fresh writable array
    a = h.all_counts
    a[0] = 2
    assert h.all_counts[0] == 0


def test_hand_pickle_and_copy_keep_invariants():
    import copy
    import pickle
    h = parse_hand("23m456p789s11z [555z] {6666m} 春")
    for h2 in (pickle.loads(pickle.dumps(h)), copy.deepcopy(h), copy.copy(h)):
        assert h2 == h
        assert not h2.concealed.flags.writeable


def test_hand_equality_and_hash():
    a = parse_hand("123m456p789s1234z 春")
    b = parse_hand("东南西北 一万二万三万 \U0001F01C\U0001F01D\U0001F01E 789s 1f")
    assert a == b and hash(a) == hash(b)
    assert len({a, b}) == 1
    assert a != parse_hand("123m456p789s1234z")                   # flowers differ
    assert a != parse_hand("123m456p789s1235z 1f")
    assert parse_hand("1m [123p] [456p]", strict=False) != \
        parse_hand("1m [456p] [123p]", strict=False)                     # meld order
    assert parse_hand("1m [1111p] [456p] [789p] [789s]") != \
        parse_hand("1m {1111p} [456p] [789p] [789s]")
    assert a != "123m456p789s1234z 1f"
    assert Hand("123m456p789s1234z") == Hand(counts([0, 1, 2, 12, 13, 14, 24, 25, 26,
                                                      E, S, W, N]))


@pytest.mark.parametrize("kwargs, exc, fragment", [
    (dict(concealed=np.zeros(33)), InvalidHandError, r"\(33,\)"),
    (dict(concealed=counts([0, 1, 2])), InvalidHandError, "3 concealed"),
    (dict(concealed=np.zeros(34)), InvalidHandError, "0 concealed"),
    (dict(concealed=counts([0]), melds=[Meld("pung", 0), Meld("kong", 0)]),
     InvalidHandError, "8 copies of 1m"),
    (dict(concealed=counts([0, 0]), melds=[Meld("chow", 0), Meld("chow", 0),
                                           Meld("pung", 1)]),
     InvalidHandError, "fifth copy of 2m"),
    (dict(concealed=counts([0]), melds=["[123m]"]), InvalidHandError, "Meld"),
    (dict(concealed=counts([0]), melds=Meld("pung", 3)), InvalidHandError, "sequence"),
    (dict(concealed=counts([0]), flowers=2), InvalidHandError, "n_flowers"),
    (dict(concealed=counts([0]), flowers=(1, 1)), InvalidHandError, "2f"),
    (dict(concealed=counts([0]), flowers=(8,)), InvalidHandError, "no flower 8"),
    (dict(concealed=counts([0]), flowers=(True,)), InvalidHandError, "True"),
    (dict(concealed=counts([0]), flowers="春"), InvalidHandError, "collection"),
])
def test_hand_constructor_errors(kwargs, exc, fragment):
    with pytest.raises(exc, match=fragment):
        Hand(**kwargs)


def test_hand_accepts_numpy_flowers_and_lists():
    h = Hand(counts([0]), [Meld("pung", 1)] * 0, np.array([7, 0]))
    assert h.flowers == (0, 7) and h.melds == ()


# ---------------------------------------------------------------------------
# parse_hand: errors
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, exc, fragments", [
    # notation
    ("123m456p789s123x", InvalidNotationError, ["'x'", "position 15"]),
    ("123m456p789s1234", InvalidNotationError, ["'1234'", "position 12", "suit"]),
    ("123m456p789s123z8z", InvalidNotationError, ["8z", "position 16"]),
    ("123m456p789s1239z", InvalidNotationError, ["9z", "position 15"]),
    # melds
    ("1234m [124m] 123p456s", InvalidNotationError, ["[124m]", "position 6"]),
    ("1234m [111z2z] 123p456s", InvalidNotationError, ["[111z2z]"]),
    ("1234m {555m} 123p456s", InvalidNotationError, ["{555m}", "4 identical"]),
    ("1234m {5555m5p} 12p456s", InvalidNotationError, ["{5555m5p}"]),
    ("1234m [125z] 123p456s", InvalidNotationError, ["[125z]", "three different winds"]),
    ("1234m [556z] 123p456s", InvalidNotationError, ["[556z]", "three dragons"]),
    ("1234m [89m1p] 123p456s", InvalidNotationError, ["[89m1p]"]),
    ("1234m [11m] 123p456s", InvalidNotationError, ["[11m]"]),
    ("1234m [] 123p456s", InvalidNotationError, ["[]"]),
    ("1234m [11111m] 123p456s", InvalidNotationError, ["[11111m]"]),
    ("1234m [1234m] 123p456s", InvalidNotationError, ["[1234m]"]),
    ("1234m [123m 123p456s", InvalidNotationError, ["unclosed", "position 6"]),
    ("1234m 123m] 123p456s", InvalidNotationError, ["unmatched", "position 10"]),
    ("1234m [123m} 123p456s", InvalidNotationError, ["unmatched", "position 11"]),
    ("1234m [1m[3m]] 123p456s", InvalidNotationError, ["position 9", "position 6"]),
    ("1234m [春12m] 123p456s", InvalidNotationError, ["春", "inside a meld"]),
    ("1234m [1f] 123p456s", InvalidNotationError, ["inside a meld"]),
    # repeated flower
    ("123m456p789s1234z 春 1f", InvalidHandError, ["春", "1f", "position 20"]),
    ("123m456p789s1234z 55f", InvalidHandError, ["5f", "position 19"]),
    ("123m456p789s1234z \U0001F022梅", InvalidHandError, ["梅", "5f"]),
    # fifth copy, within concealed and across concealed + melds
    ("11111m23456789p", InvalidHandError, ["fifth copy of 1m"]),
    ("155m56789p [555m]", InvalidHandError, ["fifth copy of 5m", "2 concealed",
                                              "3 in melds"]),
    ("15m12345678p [555m] {5555m}", InvalidHandError, ["8 copies of 5m"]),
    ("1m [123m] [123m] [123m] [123m]", InvalidHandError, ["fifth copy of 1m"]),
    ("1234567z [555z] [1111z]", InvalidHandError, ["fifth copy of 1z"]),
    # wrong tile count: names n, k and the expectation
    ("123m456p789s123z", InvalidHandError, ["12 concealed", "0 melds", "13, 14, 16 or 17"]),
    ("123m456p789s123456z", InvalidHandError, ["15 concealed", "0 melds", "= 15"]),
    ("123m456p [111z]", InvalidHandError, ["6 concealed", "1 meld ", "= 9"]),
    ("1m", InvalidHandError, ["1 concealed", "0 melds"]),
    ("", InvalidHandError, ["0 concealed", "0 melds"]),
    ("1m [123p] [456p] [789p] [123s] [456s] [789s]", InvalidHandError,
     ["1 concealed", "6 melds", "= 19"]),
])
def test_parse_hand_errors(text, exc, fragments):
    with pytest.raises(exc) as info:
        parse_hand(text)
    for f in fragments:
        assert f in str(info.value), (f, str(info.value))


def test_notation_error_has_position():
    with pytest.raises(InvalidNotationError) as info:
        parse_hand("1234m [124m] 123p456s")
    assert info.value.position == 6 and info.value.text == "1234m [124m] 123p456s"


# ---------------------------------------------------------------------------
# hand_size and strict
# ---------------------------------------------------------------------------

HAND_13 = "123m456p789s1234z"          # 13
HAND_14 = "123m456p789s11223z"         # 14
HAND_16 = "123456789m123p456s7z"       # 16
HAND_17 = "123456789m123p456s77z"      # 17
HAND_10 = "123m456p789s1z"             # 10


@pytest.mark.parametrize("text, hand_size, ok", [
    (HAND_13, None, True), (HAND_14, None, True), (HAND_16, None, True),
    (HAND_17, None, True), (HAND_10, None, False),
    (HAND_13, 13, True), (HAND_14, 13, True), (HAND_16, 13, False), (HAND_17, 13, False),
    (HAND_13, 16, False), (HAND_14, 16, False), (HAND_16, 16, True), (HAND_17, 16, True),
    (HAND_10, 10, True), (HAND_13, 10, False),
    ("1m [123p] [999s] [3333z] {7777z}", 13, True),          # 1 + 4*3 = 13
    ("1m [123p] [999s] [3333z] {7777z}", 16, False),
    ("1m [123p] [999s] [3333z] {7777z} [789m]", 16, True),   # 1 + 5*3 = 16
])
def test_hand_size(text, hand_size, ok):
    if ok:
        h = parse_hand(text, hand_size=hand_size)
        assert h.n_tiles in (hand_size or 13, (hand_size or 13) + 1, 16, 17)
    else:
        with pytest.raises(InvalidHandError, match="wrong number of tiles"):
            parse_hand(text, hand_size=hand_size)


@pytest.mark.parametrize("bad", [12, 14, 0, -2, "13", 13.0, True])
def test_bad_hand_size_option(bad):
    with pytest.raises(RuleError):
        parse_hand(HAND_13, hand_size=bad)


def test_strict_false():
    h = parse_hand("1m", strict=False)
    assert h.n_tiles == 1
    h = parse_hand("123m45p [111z]", strict=False)
    assert h.n_concealed == 5 and h.n_tiles == 8
    assert parse_hand(format_hand(h), strict=False) == h
    with pytest.raises(InvalidHandError, match="3 concealed"):
        parse_hand("123m", strict=False)
    with pytest.raises(InvalidHandError, match="0 concealed"):
        parse_hand("", strict=False)
    with pytest.raises(InvalidHandError, match="fifth copy"):
        parse_hand("11111m", strict=False)


# ---------------------------------------------------------------------------
# as_hand
# ---------------------------------------------------------------------------

def test_as_hand():
    h = parse_hand(HAND_13)
    assert as_hand(HAND_13) == h
    assert as_hand(h) is h
    c = counts([0, 1, 2, 12, 13, 14, 24, 25, 26, E, S, W, N])
    assert as_hand(c) == h
    assert as_hand(c.tolist()) == h
    assert as_hand(c.astype(np.int64)) == h
    partial = counts([0, 1, 2, 3])
    assert as_hand(partial, strict=False).n_tiles == 4
    with pytest.raises(InvalidHandError, match="4 concealed"):
        as_hand(partial)
    with pytest.raises(InvalidHandError, match="wrong number"):
        as_hand(parse_hand(HAND_10, strict=False))
    with pytest.raises(InvalidHandError, match="wrong number"):
        as_hand(h, hand_size=16)
    with pytest.raises(InvalidHandError, match=r"\(13,\)"):
        as_hand(list(range(13)))
    with pytest.raises(InvalidNotationError):
        as_hand("12x")
    with pytest.raises(InvalidHandError, match="5 copies of 1m"):
        as_hand([5] + [0] * 33)


# ---------------------------------------------------------------------------
# visible_counts
# ---------------------------------------------------------------------------

def test_visible_counts():
    z = visible_counts()
    assert z.dtype == np.uint8 and z.shape == (34,) and not z.any()
    np.testing.assert_array_equal(visible_counts(None), np.zeros(34, np.uint8))
    np.testing.assert_array_equal(visible_counts("1m 东东 中"), counts([0, E, E, RD]))
    np.testing.assert_array_equal(visible_counts(counts([5, 5])), counts([5, 5]))
    h = parse_hand("23m456p789s11z [555z] {6666m}")
    v = visible_counts("2m2m 1z 5z", hand=h)       # 1+2, 2+1, 3+1: all <= 4
    np.testing.assert_array_equal(v, counts([1, 1, E, WH]))


@pytest.mark.parametrize("visible, fragments", [
    ("1z1z1z", ["5 copies of 1z", "2 in the hand", "3 visible"]),
    ("55z", ["5 copies of 5z", "3 in the hand", "2 visible"]),   # counts the pung
    ("6m", ["5 copies of 6m", "4 in the hand"]),                 # counts the kong
    ([0] * 27 + [3] + [0] * 6, ["1z"]),
])
def test_visible_counts_conflicts(visible, fragments):
    h = parse_hand("23m456p789s11z [555z] {6666m}")
    with pytest.raises(InvalidHandError) as info:
        visible_counts(visible, hand=h)
    for f in fragments:
        assert f in str(info.value)


def test_visible_counts_bad_input():
    with pytest.raises(InvalidHandError):
        visible_counts(np.zeros(33))
    with pytest.raises(InvalidHandError, match="fifth copy"):
        visible_counts("11111m")
    with pytest.raises(InvalidNotationError):
        visible_counts("[111m]")
    with pytest.raises(InvalidHandError):
        visible_counts("1m", hand="123m")


# ---------------------------------------------------------------------------
# Decomposition
# ---------------------------------------------------------------------------

def test_decomposition_regular():
    d = Decomposition("regular", pair=E,
                      sets=(("pung", WH), ("chow", 24), ("chow", 0), ("chow", 12)))
    assert d.sets == (("chow", 0), ("chow", 12), ("chow", 24), ("pung", WH))
    assert str(d) == "11z 123m 456p 789s 555z"
    same = Decomposition("regular", E, (("chow", 0), ("chow", 12), ("chow", 24),
                                         ("pung", WH)))
    assert d == same and hash(d) == hash(same)


def test_decomposition_other_forms():
    d = Decomposition("seven_pairs", pairs=(33, 0, 9, 9, 18, 27, 31))
    assert d.pairs == (0, 9, 9, 18, 27, 31, 33)
    assert str(d) == "11m 11p 11p 11s 11z 55z 77z"
    t = Decomposition("thirteen_orphans", pair=0)
    assert str(t) == "11m 9m19p19s1234567z"


@pytest.mark.parametrize("kwargs, fragment", [
    (dict(form="seven_pair"), "seven_pair"),
    (dict(form="regular", pair=34), "34"),
    (dict(form="regular", sets=(("chow", 8),)), "9m"),
    (dict(form="regular", sets=(("chow", 32),)), "6z"),
    (dict(form="regular", sets=(("kong", 1),)), "kong"),
    (dict(form="regular", sets=((1,),)), "kind, tile"),
    (dict(form="seven_pairs", pairs=(40,)), "40"),
])
def test_decomposition_errors(kwargs, fragment):
    with pytest.raises(InvalidHandError, match=fragment):
        Decomposition(**kwargs)


# ---------------------------------------------------------------------------
# package API
# ---------------------------------------------------------------------------

def test_package_reexports():
    assert majiang.__version__ == "0.1.0"
    for name in ("Hand", "Meld", "Decomposition", "parse_hand", "format_hand", "as_hand",
                 "visible_counts", "parse_tiles", "as_counts", "MahjongError"):
        assert hasattr(majiang, name)
    assert majiang.parse_hand is parse_hand


# ---------------------------------------------------------------------------
# properties: round trip and fuzzing
# ---------------------------------------------------------------------------

@st.composite
def hands(draw, sizes=(13, 16)):
    """A random valid Hand built by drawing from a 136-tile pool (independent of parse)."""
    size = draw(st.sampled_from(sizes))
    total = size + draw(st.integers(0, 1))
    left = [4] * 34
    melds = []
    for _ in range(draw(st.integers(0, (total - 1) // 3))):
        kind = draw(st.sampled_from(["chow", "pung", "kong", "ckong"]))
        if kind == "chow":
            t = draw(st.sampled_from([k for k in range(27) if k % 9 <= 6]))
            need = [t, t + 1, t + 2]
        else:
            t = draw(st.integers(0, 33))
            need = [t] * (3 if kind == "pung" else 4)
        if all(left[k] >= need.count(k) for k in set(need)):
            for k in need:
                left[k] -= 1
            melds.append(Meld("kong", t, True) if kind == "ckong"
                         else Meld(kind, t))
    n = total - 3 * len(melds)
    concealed = []
    for _ in range(n):
        k = draw(st.sampled_from([k for k in range(34) if left[k] > 0]))
        left[k] -= 1
        concealed.append(k)
    flowers = draw(st.sets(st.integers(0, 7)))
    return Hand(counts(concealed), tuple(melds), tuple(flowers)), concealed, melds, flowers


@settings(max_examples=300)
@given(hands())
def test_round_trip_property(case):
    h, concealed, melds, flowers = case
    text = format_hand(h)
    back = parse_hand(text)
    assert back == h and hash(back) == hash(h)
    assert format_hand(back) == text
    # independent expectations from the generator
    assert back.n_concealed == len(concealed)
    assert back.melds == tuple(melds)
    assert back.flowers == tuple(sorted(flowers))
    assert back.n_tiles in (13, 14, 16, 17)
    all_c = counts(concealed + [t for m in melds for t in m.tiles])
    np.testing.assert_array_equal(back.all_counts, all_c)
    assert back.is_concealed == all(m.concealed for m in melds)
    # Chinese and glyph renderings parse to the same hand
    glyphs = "".join(majiang.tile_glyph(k) for k in concealed)
    chinese = " ".join(majiang.tile_chinese(k) for k in concealed)
    tail = " ".join(str(m) for m in melds) + " " + "".join(
        majiang.tiles.FLOWER_NAMES[f] for f in flowers)
    assert parse_hand(glyphs + " " + tail) == h
    assert parse_hand(chinese + " " + tail) == h


@settings(max_examples=200)
@given(hands(sizes=(1, 4, 7)))
def test_round_trip_partial(case):
    h = case[0]
    assert parse_hand(format_hand(h), strict=False) == h


FUZZ_ALPHABET = ("0123456789mpszf[]{} 一二三五九万筒饼条索东南西北白发中红板春梅"
                 "\U0001F000\U0001F004\U0001F007\U0001F022\ufe0fx!")


def _check_hand_invariants(h):
    assert isinstance(h, Hand)
    assert h.all_counts.max(initial=0) <= 4
    assert h.n_concealed % 3 in (1, 2)
    assert len(set(h.flowers)) == len(h.flowers)
    assert parse_hand(format_hand(h), strict=False) == h


@settings(max_examples=500)
@given(st.text(alphabet=FUZZ_ALPHABET, max_size=40))
def test_fuzz_text(text):
    for strict in (True, False):
        try:
            h = parse_hand(text, strict=strict)
        except MahjongError:
            continue
        _check_hand_invariants(h)
        if strict:
            assert h.n_tiles in (13, 14, 16, 17)


TOKENS = ["123m", "456p", "789s", "11z", "5z", "1m", "9p", "[123m]", "[555z]", "[5555z]",
          "{6666m}", "{111z}", "[124m]", "春", "1f", "东", "五万", "\U0001F004", " ", "8z",
          "[", "]", "0p", "x"]


@settings(max_examples=500)
@given(st.lists(st.sampled_from(TOKENS), max_size=12))
def test_fuzz_tokens(parts):
    text = "".join(parts)
    try:
        h = parse_hand(text, strict=False)
    except MahjongError:
        return
    _check_hand_invariants(h)

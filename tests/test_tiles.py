"""Tests of majiang.tiles: tile names, notation parsing, count vectors.

Expected values are written out by hand from the index table in docs/design.md
(0-8 = 1-9m, 9-17 = 1-9p, 18-26 = 1-9s, 27-33 = E S W N White Green Red).
"""
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from majiang import errors
from majiang.tiles import (
    CHARACTERS, DOTS, BAMBOO, DRAGONS, FLOWER_GLYPHS, FLOWER_NAMES, HONORS, N_KINDS,
    RANK_OF, SIMPLES, SUIT_OF, TERMINALS, TERMINALS_AND_HONORS, WINDS,
    as_counts, as_counts_batch, check_tile, counts_from_tiles, flower_chinese,
    flower_glyph, flower_name, format_counts, parse_counts, parse_tile, parse_tiles,
    tile_chinese, tile_glyph, tile_name, tiles_from_counts,
)
from majiang.errors import InvalidHandError, InvalidNotationError, MahjongError


def vec(**kw):
    """Count vector from keyword names like m1=2, z7=1 (hand-built expectation)."""
    base = {"m": 0, "p": 9, "s": 18, "z": 27}
    c = np.zeros(34, dtype=np.uint8)
    for key, n in kw.items():
        c[base[key[0]] + int(key[1]) - 1] = n
    return c


# ---------------------------------------------------------------------------
# errors
# ---------------------------------------------------------------------------

def test_error_family():
    for cls in (errors.InvalidNotationError, errors.InvalidHandError, errors.RuleError):
        assert issubclass(cls, errors.MahjongError)
    assert issubclass(errors.MahjongError, ValueError)


def test_notation_error_pickles_with_position():
    e = InvalidNotationError("bad", text="12x", position=2)
    e2 = pickle.loads(pickle.dumps(e))
    assert str(e2) == "bad" and e2.position == 2 and e2.text == "12x"


# ---------------------------------------------------------------------------
# constants
# ---------------------------------------------------------------------------

def test_constants():
    assert N_KINDS == 34
    assert sorted(TERMINALS_AND_HONORS) == [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
    assert len(set(TERMINALS_AND_HONORS)) == 13
    assert list(HONORS) == [27, 28, 29, 30, 31, 32, 33]
    assert list(WINDS) == [27, 28, 29, 30]
    assert list(DRAGONS) == [31, 32, 33]
    assert list(TERMINALS) == [0, 8, 9, 17, 18, 26]
    assert list(CHARACTERS) == list(range(9))
    assert list(DOTS) == list(range(9, 18))
    assert list(BAMBOO) == list(range(18, 27))
    assert len(SIMPLES) == 21 and 1 in SIMPLES and 0 not in SIMPLES and 27 not in SIMPLES
    assert SUIT_OF[0] == "m" and SUIT_OF[9] == "p" and SUIT_OF[26] == "s" and SUIT_OF[33] == "z"
    assert RANK_OF[4] == 5 and RANK_OF[33] == 7
    assert FLOWER_NAMES == ("春", "夏", "秋", "冬", "梅", "兰", "竹", "菊")


# ---------------------------------------------------------------------------
# single tile names
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("k, name, glyph, chinese", [
    (0, "1m", "\U0001F007", "一万"),
    (4, "5m", "\U0001F00B", "五万"),
    (8, "9m", "\U0001F00F", "九万"),
    (9, "1p", "\U0001F019", "一筒"),
    (11, "3p", "\U0001F01B", "三筒"),
    (17, "9p", "\U0001F021", "九筒"),
    (18, "1s", "\U0001F010", "一条"),
    (26, "9s", "\U0001F018", "九条"),
    (27, "1z", "\U0001F000", "东"),
    (28, "2z", "\U0001F001", "南"),
    (29, "3z", "\U0001F002", "西"),
    (30, "4z", "\U0001F003", "北"),
    (31, "5z", "\U0001F006", "白"),
    (32, "6z", "\U0001F005", "发"),
    (33, "7z", "\U0001F004", "中"),
])
def test_tile_names(k, name, glyph, chinese):
    assert tile_name(k) == name
    assert tile_glyph(k) == glyph
    assert tile_chinese(k) == chinese
    assert tile_name(np.int64(k)) == name
    for text in (name, glyph, chinese):
        assert parse_tile(text) == k


@pytest.mark.parametrize("bad", [-1, 34, 100, 1.5, True, "5m", None])
def test_tile_index_errors(bad):
    for fn in (tile_name, tile_glyph, tile_chinese, check_tile):
        with pytest.raises(InvalidHandError):
            fn(bad)


def test_flower_names():
    assert [flower_name(i) for i in range(8)] == [f"{i}f" for i in range(1, 9)]
    assert flower_chinese(0) == "春" and flower_chinese(7) == "菊"
    assert flower_glyph(0) == "\U0001F026"   # spring
    assert flower_glyph(4) == "\U0001F022"   # plum
    assert FLOWER_GLYPHS[7] == "\U0001F025"  # chrysanthemum
    with pytest.raises(InvalidHandError):
        flower_name(8)


# ---------------------------------------------------------------------------
# parse_tile
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, k", [
    ("5m", 4), ("0m", 4), ("0p", 13), ("0s", 22), ("1z", 27), ("7z", 33),
    ("5M", 4), ("9S", 26),
    ("一万", 0), ("1万", 0), ("五万", 4), ("五萬", 4), ("九万", 8),
    ("五筒", 13), ("五饼", 13), ("五餅", 13), ("3筒", 11),
    ("九条", 26), ("九索", 26), ("九條", 26), ("一索", 18),
    ("东", 27), ("東", 27), ("东风", 27), ("南", 28), ("南风", 28), ("西", 29),
    ("北", 30), ("北風", 30),
    ("白", 31), ("白板", 31), ("发", 32), ("發", 32), ("发财", 32),
    ("中", 33), ("红中", 33), ("紅中", 33),
    ("\U0001F004", 33), ("\U0001F004\ufe0f", 33), ("\U0001F010", 18),
    ("  5m ", 4),
])
def test_parse_tile(text, k):
    assert parse_tile(text) == k


@pytest.mark.parametrize("text", ["", "55m", "东南", "x", "春", "1f", "8z", "5", 5])
def test_parse_tile_errors(text):
    with pytest.raises(InvalidNotationError):
        parse_tile(text)


# ---------------------------------------------------------------------------
# parse_tiles
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("", []),
    ("   ", []),
    ("123m456p789s11z", [0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27]),
    ("1234567z", [27, 28, 29, 30, 31, 32, 33]),
    ("19m19p19s1234567z", [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]),
    ("55m 0m", [4, 4, 4]),
    ("321m", [2, 1, 0]),                                 # order as written
    ("1m1p1s1z", [0, 9, 18, 27]),
    ("一万二万三万", [0, 1, 2]),
    ("一万 二筒 三条 东 南 西 北 白 发 中", [0, 10, 20, 27, 28, 29, 30, 31, 32, 33]),
    ("123万", [0, 1, 2]),
    ("五饼五筒", [13, 13]),
    ("九索九条", [26, 26]),
    ("红中发财白板", [33, 32, 31]),
    ("\U0001F007\U0001F008\U0001F009", [0, 1, 2]),
    ("\U0001F019\U0001F021\U0001F010\U0001F018", [9, 17, 18, 26]),
    ("\U0001F000\U0001F001\U0001F002\U0001F003\U0001F006\U0001F005\U0001F004",
     [27, 28, 29, 30, 31, 32, 33]),
    ("\U0001F004\ufe0f\U0001F004\ufe0f", [33, 33]),
    ("12m 三筒 \U0001F010 中", [0, 1, 11, 18, 33]),
    ("1m\t2m\n3m", [0, 1, 2]),
    ("東南西北", [27, 28, 29, 30]),
])
def test_parse_tiles(text, expected):
    assert parse_tiles(text) == expected


@pytest.mark.parametrize("text, position, fragment", [
    ("123mx", 4, "'x'"),
    ("123m 45p !", 9, "'!'"),
    ("x", 0, "'x'"),
    ("12", 0, "'12'"),                  # digits at the end without suit
    ("123m45", 4, "'45'"),
    ("1m 2 3m", 3, "'2'"),               # whitespace ends a group
    ("12x", 0, "'x'"),
    ("8z", 0, "8z"),
    ("9z", 0, "9z"),
    ("0z", 0, "0z"),
    ("11z8z", 3, "8z"),
    ("m", 0, "'m'"),
    ("11mm", 3, "'m'"),
    ("123m [1m]", 5, "'['"),
    ("{", 0, "'{'"),
    ("1f", 0, "1f"),
    ("11m 春", 4, "春"),
    ("\U0001F022", 0, "梅"),               # flower glyph: not a tile
    ("五", 0, "'五'"),
    ("五x", 0, "'x'"),
    ("东x", 1, "'x'"),
    ("9f", 0, "9f"),
])
def test_parse_tiles_errors(text, position, fragment):
    with pytest.raises(InvalidNotationError) as info:
        parse_tiles(text)
    msg = str(info.value)
    assert info.value.position == position
    assert f"position {position}" in msg
    assert fragment in msg


@pytest.mark.parametrize("bad", [None, 5, ["1m"], b"1m"])
def test_parse_tiles_non_string(bad):
    with pytest.raises(InvalidNotationError):
        parse_tiles(bad)


# ---------------------------------------------------------------------------
# count vectors
# ---------------------------------------------------------------------------

def test_counts_from_tiles():
    c = counts_from_tiles([0, 0, 33, 13])
    assert c.dtype == np.uint8 and c.shape == (34,) and c.flags.c_contiguous
    np.testing.assert_array_equal(c, vec(m1=2, z7=1, p5=1))
    np.testing.assert_array_equal(counts_from_tiles([]), np.zeros(34, np.uint8))
    np.testing.assert_array_equal(counts_from_tiles(np.array([4, 4])), vec(m5=2))
    np.testing.assert_array_equal(counts_from_tiles("55m5z"), vec(m5=2, z5=1))


@pytest.mark.parametrize("tiles, fragment", [
    ([4] * 5, "fifth copy of 5m"),
    ([33] * 6, "6 copies of 7z"),
    ([34], "34"),
    ([-1], "-1"),
    ([1.0], "1.0"),
])
def test_counts_from_tiles_errors(tiles, fragment):
    with pytest.raises(InvalidHandError, match=fragment):
        counts_from_tiles(tiles)


def test_tiles_from_counts():
    assert tiles_from_counts(vec(m1=2, z7=1, p5=1)) == [0, 0, 13, 33]
    assert tiles_from_counts(np.zeros(34)) == []
    assert tiles_from_counts("321m") == [0, 1, 2]


@pytest.mark.parametrize("counts, text", [
    (vec(), ""),
    (vec(m1=1, m2=1, m3=1, p4=1, p5=1, p6=1, s7=1, s8=1, s9=1, z1=2), "123m456p789s11z"),
    (vec(z1=1, z2=1, z3=1, z4=1, z5=1, z6=1, z7=1), "1234567z"),
    (vec(m1=3, m2=1, m3=1, m4=1, m5=1, m6=1, m7=1, m8=1, m9=3), "1112345678999m"),
    (vec(s5=4, z7=4), "5555s7777z"),
    (vec(p1=1), "1p"),
])
def test_format_counts(counts, text):
    assert format_counts(counts) == text
    np.testing.assert_array_equal(parse_counts(text), counts)


def test_format_counts_validates():
    with pytest.raises(InvalidHandError):
        format_counts([5] + [0] * 33)


@st.composite
def count_vectors(draw):
    return np.array(draw(st.lists(st.integers(0, 4), min_size=34, max_size=34)),
                    dtype=np.uint8)


@given(count_vectors())
def test_format_parse_round_trip(c):
    text = format_counts(c)
    np.testing.assert_array_equal(parse_counts(text), c)
    assert sorted(parse_tiles(text)) == tiles_from_counts(c)
    # independent check: the number of digits equals the number of tiles
    assert sum(ch.isdigit() for ch in text) == int(c.sum())


# ---------------------------------------------------------------------------
# as_counts
# ---------------------------------------------------------------------------

def test_as_counts_valid_inputs():
    expected = vec(m1=1, z7=4)
    lst = [0] * 34
    lst[0], lst[33] = 1, 4
    for x in (lst, tuple(lst), np.array(lst, dtype=np.int64), np.array(lst, dtype=np.uint8),
              np.array(lst, dtype=np.float64), np.array(lst, dtype=np.int8), "1m7777z"):
        out = as_counts(x)
        assert out.dtype == np.uint8 and out.shape == (34,) and out.flags.c_contiguous
        np.testing.assert_array_equal(out, expected)


def test_as_counts_copies_and_makes_contiguous():
    src = np.zeros(34, dtype=np.uint8)
    out = as_counts(src)
    assert out is not src and not np.shares_memory(out, src)
    out[0] = 3
    assert src[0] == 0
    strided = np.zeros(68, dtype=np.int32)[::2]
    strided[5] = 2
    out = as_counts(strided)
    assert out.flags.c_contiguous and out[5] == 2


def _with(value, index=11, dtype=None):
    a = [0] * 34
    a[index] = value
    return np.array(a, dtype=dtype) if dtype is not None else a


@pytest.mark.parametrize("x, fragment", [
    (np.zeros(33), r"\(33,\)"),
    (np.zeros((2, 34)), r"\(2, 34\)"),
    (np.zeros(35, dtype=np.uint8), r"\(35,\)"),
    ([], r"\(0,\)"),
    (5, "expected tiles"),
    (_with(-1), "negative count -1 of 3p"),
    (_with(5), "5 copies of 3p"),
    (_with(256, dtype=np.int64), "256 copies of 3p"),  # must not wrap to 0
    (_with(255, dtype=np.uint8), "255 copies of 3p"),
    (_with(1.5), "1.5"),
    (_with(float("nan")), "NaN"),
    (np.zeros(34, dtype=object), "object"),
    (np.zeros(34, dtype=bool), "bool"),
    (np.zeros(34, dtype=complex), "complex"),
    (["a"] * 34, "dtype"),
    ([[1, 2], [3]], "rectangular"),
    (None, "expected tiles"),
])
def test_as_counts_errors(x, fragment):
    with pytest.raises(InvalidHandError, match=fragment):
        as_counts(x)


def test_as_counts_string_errors():
    with pytest.raises(InvalidNotationError):
        as_counts("12x")
    with pytest.raises(InvalidHandError, match="fifth copy of 1z"):
        as_counts("11111z")


# ---------------------------------------------------------------------------
# as_counts_batch
# ---------------------------------------------------------------------------

def test_as_counts_batch_valid():
    a = np.zeros((3, 34), dtype=np.int64)
    a[1, 0] = 4
    a[2, 33] = 1
    out = as_counts_batch(a)
    assert out.dtype == np.uint8 and out.shape == (3, 34) and out.flags.c_contiguous
    np.testing.assert_array_equal(out[1], vec(m1=4))
    np.testing.assert_array_equal(out[2], vec(z7=1))
    assert not np.shares_memory(out, a)
    assert as_counts_batch(np.zeros((0, 34))).shape == (0, 34)
    f = np.asfortranarray(np.ones((4, 34), dtype=np.uint8))
    assert as_counts_batch(f).flags.c_contiguous
    out = as_counts_batch(["123m", "7z"])
    np.testing.assert_array_equal(out, np.stack([vec(m1=1, m2=1, m3=1), vec(z7=1)]))


def _batch_with(row, col, value, dtype=np.int64):
    a = np.zeros((4, 34), dtype=dtype)
    a[row, col] = value
    return a


@pytest.mark.parametrize("x, fragment", [
    (np.zeros(34), r"\(34,\)"),
    (np.zeros((2, 33)), r"\(2, 33\)"),
    (np.zeros((2, 3, 34)), r"\(2, 3, 34\)"),
    (_batch_with(2, 11, 5), "row 2: 5 copies of 3p"),
    (_batch_with(3, 0, -2), "row 3: negative count -2 of 1m"),
    (_batch_with(1, 33, 1.5, np.float64), "row 1 for 7z"),
    (np.zeros((2, 34), dtype=object), "object"),
    ("123m", "single string"),
])
def test_as_counts_batch_errors(x, fragment):
    with pytest.raises(InvalidHandError, match=fragment):
        as_counts_batch(x)


def test_as_counts_batch_string_rows_name_the_row():
    with pytest.raises(InvalidNotationError, match="row 1"):
        as_counts_batch(["123m", "12x"])
    with pytest.raises(InvalidHandError, match="row 2: fifth copy of 1m"):
        as_counts_batch(["1m", "2m", "11111m"])


# ---------------------------------------------------------------------------
# fuzz: parse_tiles never fails with anything but MahjongError
# ---------------------------------------------------------------------------

ALPHABET = ("0123456789mpszfMPSZF[]{} \t一二三四五六七八九万萬筒饼条索东東南西北白发發中红板财风"
            "春夏秋冬梅兰竹菊\U0001F000\U0001F004\U0001F007\U0001F021\U0001F022\U0001F02B\ufe0f"
            "x!,.-é\x00")


@settings(max_examples=500)
@given(st.text(alphabet=ALPHABET, max_size=30))
def test_parse_tiles_fuzz(text):
    try:
        tiles = parse_tiles(text)
    except MahjongError:
        return
    assert all(isinstance(t, int) and 0 <= t < 34 for t in tiles)
    try:
        c = parse_counts(text)
    except InvalidHandError:
        return    # more than 4 copies
    assert int(c.sum()) == len(tiles)

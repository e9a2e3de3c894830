"""Tile kinds, tile notation and count vectors.

Tile kinds are the integers 0..33:

* 0–8: 1–9 characters 万 (Tenhou ``1m``–``9m``)
* 9–17: 1–9 dots 筒/饼 (``1p``–``9p``)
* 18–26: 1–9 bamboo 条/索 (``1s``–``9s``)
* 27–30: East South West North 东南西北 (``1z``–``4z``)
* 31, 32, 33: White 白, Green 发, Red 中 (``5z``, ``6z``, ``7z``)

A *count vector* is a C-contiguous ``numpy.uint8`` array of shape ``(34,)``
holding how many copies of each kind a set of tiles contains (at most 4);
batches are ``(N, 34)``.

Flowers 春夏秋冬梅兰竹菊 are not tile kinds; they are numbered 0..7 (written
``1f``..``8f``) and handled by :mod:`majiang.hand`.

Accepted notations (freely mixed, whitespace separates groups):

* Tenhou groups: ``123m456p789s11z``; ``0m``/``0p``/``0s`` is a red five (read
  as a plain five).
* Digits or Chinese numerals before a Chinese suit character: ``1万``,
  ``一万``, ``五筒``/``五饼``, ``九条``/``九索`` (traditional 萬 餅 條 too).
* Honor names: 东 南 西 北 白 发 中, also 東 發, 东风.., 白板, 发财, 红中.
* Unicode mahjong glyphs U+1F000..U+1F021 (a trailing variation selector is
  ignored).
"""
from __future__ import annotations

import operator
import re
from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np

from ._core.efficiency import list_counts as _list_counts
from ._core.efficiency import plain_counts as _plain_counts
from ._core.efficiency import tile_list_counts as _tile_list_counts
from .errors import InvalidHandError, InvalidNotationError

__all__ = [
    "N_KINDS", "N_SUITED", "N_FLOWERS", "MAX_COPIES", "SUITS",
    "SUIT_OF", "RANK_OF", "CHARACTERS", "DOTS", "BAMBOO", "HONORS", "WINDS",
    "DRAGONS", "TERMINALS", "TERMINALS_AND_HONORS", "SIMPLES", "KINDS_258", "MASK_258",
    "FLOWER_NAMES", "FLOWER_GLYPHS", "TILE_BACK_GLYPH", "JOKER_GLYPH",
    "check_tile", "tile_name", "tile_glyph", "tile_chinese",
    "flower_name", "flower_glyph", "flower_chinese",
    "parse_tile", "parse_tiles", "counts_from_tiles", "tiles_from_counts",
    "format_counts", "parse_counts", "as_counts", "as_counts_batch",
]

# --------------------------------------------------------------------------
# constants
# --------------------------------------------------------------------------
N_KINDS = 34
"""Number of tile kinds."""
N_SUITED = 27
"""Number of suited kinds (indices 0..26)."""
N_FLOWERS = 8
"""Number of distinct flower tiles (each exists once)."""
MAX_COPIES = 4
"""Copies of each kind in a standard set."""
SUITS = "mpsz"
"""Tenhou suit letters in index order: characters, dots, bamboo, honors."""

SUIT_OF: tuple[str, ...] = tuple("m" * 9 + "p" * 9 + "s" * 9 + "z" * 7)
"""Tenhou suit letter of each kind, length 34."""
RANK_OF: tuple[int, ...] = tuple(list(range(1, 10)) * 3 + list(range(1, 8)))
"""Tenhou number of each kind (1..9 for suits, 1..7 for honors), length 34."""

CHARACTERS: tuple[int, ...] = tuple(range(0, 9))
DOTS: tuple[int, ...] = tuple(range(9, 18))
BAMBOO: tuple[int, ...] = tuple(range(18, 27))
WINDS: tuple[int, ...] = (27, 28, 29, 30)
DRAGONS: tuple[int, ...] = (31, 32, 33)
HONORS: tuple[int, ...] = WINDS + DRAGONS
TERMINALS: tuple[int, ...] = (0, 8, 9, 17, 18, 26)
TERMINALS_AND_HONORS: tuple[int, ...] = TERMINALS + HONORS
"""The 13 kinds of thirteen orphans (十三幺)."""
SIMPLES: tuple[int, ...] = tuple(k for k in range(N_SUITED) if k % 9 not in (0, 8))
KINDS_258: tuple[int, ...] = tuple(k for k in range(N_SUITED) if k % 9 in (1, 4, 7))
"""The 9 suited 2s, 5s and 8s (2m 5m 8m 2p 5p 8p 2s 5s 8s), ascending: the pair kinds of
二五八将 (``pair_258``) and the tiles of 将将胡 (``all_258``).  ``KINDS_258[3 * s:3 * s + 3]``
are those of suit ``s``."""
MASK_258: int = sum(1 << k for k in KINDS_258)
""":data:`KINDS_258` as a bit mask over the 34 kinds (bit ``k`` set: kind ``k``)."""

FLOWER_NAMES: tuple[str, ...] = ("春", "夏", "秋", "冬", "梅", "兰", "竹", "菊")
"""Flowers 0..7 (Tenhou-style ``1f``..``8f``): seasons then plants."""
FLOWER_GLYPHS: tuple[str, ...] = tuple(
    chr(c) for c in (0x1F026, 0x1F027, 0x1F028, 0x1F029,   # spring..winter
                     0x1F022, 0x1F023, 0x1F024, 0x1F025))  # plum orchid bamboo chrys.
TILE_BACK_GLYPH = "\U0001F02B"
"""Face-down tile (U+1F02B), shown for the hidden tiles of a concealed kong."""
JOKER_GLYPH = "\U0001F02A"
"""MAHJONG TILE JOKER (U+1F02A), shown for each wild tile (``*`` in hand notation)."""

_CN_NUMERALS = "一二三四五六七八九"
_CN_SUIT_NAMES = ("万", "筒", "条")
_CN_HONOR_NAMES = ("东", "南", "西", "北", "白", "发", "中")


def _glyph_code(k: int) -> int:
    if k < 9:
        return 0x1F007 + k
    if k < 18:
        return 0x1F019 + (k - 9)
    if k < 27:
        return 0x1F010 + (k - 18)
    return (0x1F000, 0x1F001, 0x1F002, 0x1F003, 0x1F006, 0x1F005, 0x1F004)[k - 27]


_GLYPHS: tuple[str, ...] = tuple(chr(_glyph_code(k)) for k in range(N_KINDS))
_NAMES: tuple[str, ...] = tuple(f"{RANK_OF[k]}{SUIT_OF[k]}" for k in range(N_KINDS))
_CHINESE: tuple[str, ...] = tuple(
    [_CN_NUMERALS[k % 9] + _CN_SUIT_NAMES[k // 9] for k in range(N_SUITED)]
    + list(_CN_HONOR_NAMES))

# --------------------------------------------------------------------------
# single tiles
# --------------------------------------------------------------------------


def check_tile(k: Any) -> int:
    """Validate a tile index.

    Parameters
    ----------
    k : int-like
        Candidate tile kind (Python or numpy integer; ``bool`` is refused).

    Returns
    -------
    int
        `k` as a Python ``int`` in ``0..33``.

    Raises
    ------
    InvalidHandError
        If `k` is not an integer or is outside ``0..33``.
    """
    if isinstance(k, (bool, np.bool_)):
        raise InvalidHandError(f"tile index must be an integer 0..33, got {k!r}")
    try:
        i = operator.index(k)
    except TypeError:
        raise InvalidHandError(f"tile index must be an integer 0..33, got {k!r}") from None
    if not 0 <= i < N_KINDS:
        raise InvalidHandError(f"no tile kind {i}: tile indices are 0..33")
    return i


def tile_name(k: int) -> str:
    """Tenhou name of tile kind `k`, e.g. ``tile_name(4) == "5m"``, ``tile_name(33) == "7z"``.

    Raises
    ------
    InvalidHandError
        If `k` is not a tile index 0..33.
    """
    return _NAMES[check_tile(k)]


def tile_glyph(k: int) -> str:
    """Unicode mahjong glyph of tile kind `k` (one code point, e.g. ``"🀄"`` for 7z).

    Raises
    ------
    InvalidHandError
        If `k` is not a tile index 0..33.
    """
    return _GLYPHS[check_tile(k)]


def tile_chinese(k: int) -> str:
    """Chinese name of tile kind `k`: ``"五万"``, ``"三筒"``, ``"九条"``, ``"东"``, ``"中"``.

    Raises
    ------
    InvalidHandError
        If `k` is not a tile index 0..33.
    """
    return _CHINESE[check_tile(k)]


def _check_flower(f: Any) -> int:
    if isinstance(f, (bool, np.bool_)):
        raise InvalidHandError(f"flower index must be an integer 0..7, got {f!r}")
    try:
        i = operator.index(f)
    except TypeError:
        raise InvalidHandError(f"flower index must be an integer 0..7, got {f!r}") from None
    if not 0 <= i < N_FLOWERS:
        raise InvalidHandError(f"no flower {i}: flower indices are 0..7 (1f..8f)")
    return i


def flower_name(f: int) -> str:
    """Tenhou-style name ``"1f"``..``"8f"`` of flower `f` in 0..7 (InvalidHandError otherwise)."""
    return f"{_check_flower(f) + 1}f"


def flower_chinese(f: int) -> str:
    """Chinese name (春夏秋冬梅兰竹菊) of flower `f` in 0..7 (InvalidHandError otherwise)."""
    return FLOWER_NAMES[_check_flower(f)]


def flower_glyph(f: int) -> str:
    """Unicode glyph of flower `f` in 0..7 (InvalidHandError otherwise)."""
    return FLOWER_GLYPHS[_check_flower(f)]


# --------------------------------------------------------------------------
# tokenizer (shared with majiang.hand)
# --------------------------------------------------------------------------

class _Token(NamedTuple):
    """One lexical item: kind is "tile", "flower", "open" or "close"."""

    kind: str
    value: Any      # tile 0..33, flower 0..7, or the bracket character
    pos: int        # 0-based index in the parsed string


_DIGITS = {str(d): d for d in range(10)}
_NUMERALS = {**_DIGITS, **{c: i + 1 for i, c in enumerate(_CN_NUMERALS)}}
# suit marker -> Tenhou letter
_SUIT_MARKS = {
    "m": "m", "p": "p", "s": "s", "z": "z", "f": "f",
    "M": "m", "P": "p", "S": "s", "Z": "z", "F": "f",
    "万": "m", "萬": "m", "筒": "p", "饼": "p", "餅": "p",
    "条": "s", "條": "s", "索": "s",
}
_SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27}
# whole words, matched longest first
_WORDS: dict[str, tuple[str, int]] = {}
for _i, _names in enumerate((
        ("东", "東", "东风", "東風"), ("南", "南风", "南風"), ("西", "西风", "西風"),
        ("北", "北风", "北風"), ("白", "白板"), ("发", "發", "发财", "發財"),
        ("中", "红中", "紅中"))):
    for _w in _names:
        _WORDS[_w] = ("tile", 27 + _i)
for _i, _names in enumerate((("春",), ("夏",), ("秋",), ("冬",), ("梅",),
                             ("兰", "蘭"), ("竹",), ("菊",))):
    for _w in _names:
        _WORDS[_w] = ("flower", _i)
for _k in range(N_KINDS):
    _WORDS[_GLYPHS[_k]] = ("tile", _k)
for _i in range(N_FLOWERS):
    _WORDS[FLOWER_GLYPHS[_i]] = ("flower", _i)
_WORD_LENGTHS = sorted({len(w) for w in _WORDS}, reverse=True)
_IGNORED = {"\ufe0e", "\ufe0f"}  # variation selectors after emoji glyphs
_BRACKETS = {"[": "open", "]": "close", "{": "open", "}": "close"}


def _show(text: str) -> str:
    return repr(text) if len(text) <= 80 else repr(text[:77] + "...")


def _tokenize(text: str, *, brackets: bool) -> list[_Token]:
    """Split `text` into tile, flower and bracket tokens.

    Raises InvalidNotationError naming the bad character and its position.
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"expected a string of tiles, got {type(text).__name__}")
    tokens: list[_Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace() or ch in _IGNORED:
            i += 1
            continue
        if ch in _BRACKETS:
            if not brackets:
                raise InvalidNotationError(
                    f"bracket {ch!r} at position {i} in {_show(text)}: melds are only "
                    "allowed in a hand (use parse_hand)", text=text, position=i)
            tokens.append(_Token(_BRACKETS[ch], ch, i))
            i += 1
            continue
        if ch in _NUMERALS:
            j = i
            while j < n and text[j] in _NUMERALS:
                j += 1
            if j >= n or text[j] not in _SUIT_MARKS:
                after = ("the end of the string" if j >= n
                         else f"{text[j]!r} at position {j}")
                raise InvalidNotationError(
                    f"numerals {text[i:j]!r} at position {i} in {_show(text)} have no suit "
                    f"letter (m, p, s, z or 万 筒 条; f for flowers): found {after}",
                    text=text, position=i)
            suit = _SUIT_MARKS[text[j]]
            for q in range(i, j):
                tokens.append(_numbered_token(text, q, _NUMERALS[text[q]], suit))
            i = j + 1
            continue
        for length in _WORD_LENGTHS:
            word = text[i:i + length]
            if word in _WORDS:
                kind, value = _WORDS[word]
                tokens.append(_Token(kind, value, i))
                i += length
                break
        else:
            if ch in _SUIT_MARKS:
                raise InvalidNotationError(
                    f"suit letter {ch!r} at position {i} in {_show(text)} has no numbers "
                    "before it", text=text, position=i)
            raise InvalidNotationError(
                f"unknown character {ch!r} at position {i} in {_show(text)}",
                text=text, position=i)
    return tokens


def _numbered_token(text: str, pos: int, number: int, suit: str) -> _Token:
    if suit == "f":
        if not 1 <= number <= N_FLOWERS:
            raise InvalidNotationError(
                f"'{number}f' at position {pos} in {_show(text)}: flowers are 1f..8f",
                text=text, position=pos)
        return _Token("flower", number - 1, pos)
    if suit == "z":
        if not 1 <= number <= 7:
            raise InvalidNotationError(
                f"'{number}z' at position {pos} in {_show(text)}: honors are 1z..7z "
                "(东 南 西 北 白 发 中)", text=text, position=pos)
        return _Token("tile", 27 + number - 1, pos)
    if number == 0:   # red five
        number = 5
    return _Token("tile", _SUIT_BASE[suit] + number - 1, pos)


# --------------------------------------------------------------------------
# parsing and formatting
# --------------------------------------------------------------------------

def parse_tile(s: str) -> int:
    """Read exactly one tile in any notation.

    Parameters
    ----------
    s : str
        ``"5m"``, ``"0m"`` (red five), ``"一万"``, ``"1万"``, ``"五筒"``, ``"九索"``,
        ``"东"``, ``"红中"``, ``"🀄"`` ...

    Returns
    -------
    int
        Tile kind 0..33.

    Raises
    ------
    InvalidNotationError
        If `s` is not exactly one tile (unknown character, several tiles, a flower).
    """
    tiles = parse_tiles(s)
    if len(tiles) != 1:
        raise InvalidNotationError(
            f"expected exactly one tile, got {len(tiles)} in {_show(s)}", text=s)
    return tiles[0]


def parse_tiles(s: str) -> list[int]:
    """Read a run of concealed tiles in any mix of notations.

    Parameters
    ----------
    s : str
        E.g. ``"123m456p11z"``, ``"一万 二万 三万 东东"``, ``"🀇🀈🀉"``, ``"1万 5p 发"``.
        Whitespace separates groups and is otherwise ignored.

    Returns
    -------
    list of int
        Tile kinds in the order written (not sorted).

    Raises
    ------
    InvalidNotationError
        For an unknown character, numerals without a suit letter, a tile that does
        not exist (``8z``, ``0z``), brackets, or a flower (flowers are not tiles; see
        :func:`majiang.hand.parse_hand`).  The message gives the 0-based position.
    """
    if isinstance(s, str) and _PLAIN_TENHOU.fullmatch(s):
        return _plain_tenhou(s)
    tiles = []
    for tok in _tokenize(s, brackets=False):
        if tok.kind != "tile":
            raise InvalidNotationError(
                f"flower {FLOWER_NAMES[tok.value]} ({tok.value + 1}f) at position {tok.pos} "
                f"in {_show(s)} is not a tile; flowers belong in a hand (use parse_hand)",
                text=s, position=tok.pos)
        tiles.append(tok.value)
    return tiles


_PLAIN_TENHOU = re.compile(r"(?:[1-9]+[mps]|[1-7]+z)+")
_GROUP = re.compile(r"([1-9]+)([mpsz])")
_SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27}


def _plain_tenhou(s: str) -> list[int]:
    """Quick path for plain Tenhou text (digits 1-9 before m/p/s, 1-7 before z)."""
    out: list[int] = []
    for digits, suit in _GROUP.findall(s):
        base = _SUIT_BASE[suit] - 1
        out.extend(base + ord(ch) - 48 for ch in digits)
    return out


def _fifth_copy_message(k: int, n: int) -> str:
    head = "fifth copy" if n == 5 else f"{n} copies"
    return f"{head} of {_NAMES[k]}: at most {MAX_COPIES} of each tile exist"


def counts_from_tiles(tiles: Iterable[int] | str) -> np.ndarray:
    """Count vector of a list of tile kinds.

    Parameters
    ----------
    tiles : iterable of int, or str
        Tile kinds 0..33 (a string is read with :func:`parse_tiles`).

    Returns
    -------
    numpy.ndarray
        ``uint8``, shape ``(34,)``, C-contiguous.

    Raises
    ------
    InvalidHandError
        For an index outside 0..33 or more than 4 copies of a kind.
    InvalidNotationError
        If `tiles` is a string that cannot be parsed.
    """
    fast = _plain_counts(tiles) if isinstance(tiles, str) else _tile_list_counts(tiles)
    if fast is not None:        # plain text / a list of ints: read and checked in one pass
        return fast[0] if type(fast) is tuple else fast
    if isinstance(tiles, str):
        tiles = parse_tiles(tiles)
    try:
        idx = [check_tile(t) for t in tiles]
    except TypeError:
        raise InvalidHandError(f"expected tile kinds (a sequence of ints 0..33) or a tile "
                               f"string, got {type(tiles).__name__}") from None
    counts = np.bincount(np.asarray(idx, dtype=np.intp), minlength=N_KINDS)
    over = np.flatnonzero(counts > MAX_COPIES) if counts.max() > MAX_COPIES else ()
    if len(over):
        k = int(over[0])
        raise InvalidHandError(_fifth_copy_message(k, int(counts[k])))
    return counts.astype(np.uint8)


def tiles_from_counts(counts: Any) -> list[int]:
    """Sorted list of tile kinds in a count vector (validated with :func:`as_counts`)."""
    c = as_counts(counts)
    return np.repeat(np.arange(N_KINDS), c).tolist()


def format_counts(counts: Any) -> str:
    """Compact Tenhou string of a count vector, e.g. ``"123m456p789s11z"``.

    Suits appear in the order m, p, s, z; empty suits are omitted; an empty
    vector gives ``""``.  `counts` is validated with :func:`as_counts`.
    """
    c = as_counts(counts).tolist()
    parts = []
    for s, suit in enumerate(SUITS):
        lo, hi = 9 * s, (9 * s + 9 if s < 3 else N_KINDS)
        digits = "".join(str(k - lo + 1) * c[k] for k in range(lo, hi) if c[k])
        if digits:
            parts.append(digits + suit)
    return "".join(parts)


def parse_counts(s: str) -> np.ndarray:
    """Count vector (``uint8``, ``(34,)``) of a tile string in any notation.

    Raises
    ------
    InvalidNotationError
        If `s` cannot be parsed (see :func:`parse_tiles`).
    InvalidHandError
        If a kind appears more than 4 times.
    """
    fast = _plain_counts(s)
    if fast is not None:        # plain Tenhou text, no fifth copy: read in one pass
        return fast[0]
    return counts_from_tiles(parse_tiles(s))


# --------------------------------------------------------------------------
# validation of arrays
# --------------------------------------------------------------------------

def _as_int_array(x: Any, what: str) -> np.ndarray:
    """Convert to an integer ndarray (not yet range-checked) or raise InvalidHandError."""
    try:
        a = np.asarray(x)
    except (ValueError, TypeError) as exc:   # ragged nested sequences
        raise InvalidHandError(f"{what} is not a rectangular array of counts: {exc}") from None
    kind = a.dtype.kind
    if kind in "iu":
        return a
    if kind == "f":
        if a.size and not np.all(np.isfinite(a)):
            raise InvalidHandError(f"{what} contains NaN or infinity")
        if a.size and not np.array_equal(a, np.round(a)):
            bad = np.flatnonzero((a != np.round(a)).reshape(-1))[0]
            raise InvalidHandError(
                f"{what} has a non-integer count {a.reshape(-1)[bad]!r}"
                + _where(a.shape, int(bad)))
        return a
    raise InvalidHandError(
        f"{what} must hold integer counts, got dtype {a.dtype} "
        f"({'booleans' if kind == 'b' else 'not integers'})")


def _where(shape: tuple[int, ...], flat: int) -> str:
    if len(shape) == 1 and shape[0] == N_KINDS:
        return f" for {_NAMES[flat]}"
    if len(shape) == 2 and shape[1] == N_KINDS:
        return f" in row {flat // N_KINDS} for {_NAMES[flat % N_KINDS]}"
    return ""


def _check_range(a: np.ndarray, row: str = "") -> None:
    if not a.size or ((a.dtype.kind == "u" or a.min() >= 0) and a.max() <= MAX_COPIES):
        return              # the common case: one pass each, details only on failure
    neg = np.flatnonzero((a < 0).reshape(-1))
    if neg.size:
        f = int(neg[0])
        k = f % N_KINDS
        r = f"{row}{f // N_KINDS}: " if a.ndim == 2 else ""
        raise InvalidHandError(f"{r}negative count {int(a.reshape(-1)[f])} of {_NAMES[k]}")
    over = np.flatnonzero((a > MAX_COPIES).reshape(-1))
    if over.size:
        f = int(over[0])
        k = f % N_KINDS
        r = f"{row}{f // N_KINDS}: " if a.ndim == 2 else ""
        n = int(a.reshape(-1)[f])
        raise InvalidHandError(f"{r}{n} copies of {_NAMES[k]}: at most {MAX_COPIES} "
                               "of each tile exist")


def as_counts(x: Any) -> np.ndarray:
    """Validated copy of a single count vector.

    Parameters
    ----------
    x : str or array_like
        A tile string in any notation (see :func:`parse_tiles`), or an array-like of
        shape ``(34,)`` holding integer counts 0..4 (integral floats are accepted).

    Returns
    -------
    numpy.ndarray
        A new C-contiguous ``uint8`` array of shape ``(34,)``.

    Raises
    ------
    InvalidHandError
        Wrong shape, non-integer dtype (bool, object, str ...) or value (1.5, NaN),
        a negative count, or more than 4 copies (e.g. ``"5 copies of 3p"``).
    InvalidNotationError
        If `x` is a string that cannot be parsed.
    """
    if isinstance(x, str):
        return parse_counts(x)
    fast = _list_counts(x)      # a list/tuple of 34 ints 0..4: checked in one pass
    if fast is not None:
        return fast
    if x is None or isinstance(x, (bool, int, float, np.generic)):
        raise InvalidHandError(
            f"expected tiles: a string such as '123m456p789s1122z' or a count vector of "
            f"shape (34,), got {type(x).__name__} {x!r}")
    a = _as_int_array(x, "count vector")
    if a.shape != (N_KINDS,):
        hint = (" (a list of tile indices? use counts_from_tiles)"
                if a.ndim == 1 else "")
        raise InvalidHandError(
            f"count vector must have shape (34,), got shape {a.shape}{hint}")
    _check_range(a)
    return np.ascontiguousarray(a, dtype=np.uint8).copy()


def as_counts_batch(x: Any) -> np.ndarray:
    """Validated copy of a batch of count vectors.

    Parameters
    ----------
    x : array_like or sequence of str
        Shape ``(N, 34)`` integer counts 0..4 (``N`` may be 0), or a sequence of
        tile strings, one per row.

    Returns
    -------
    numpy.ndarray
        A new C-contiguous ``uint8`` array of shape ``(N, 34)``.

    Raises
    ------
    InvalidHandError
        Same checks as :func:`as_counts`; the message names the row.
    InvalidNotationError
        If a string row cannot be parsed (the message names the row).
    """
    if isinstance(x, str):
        raise InvalidHandError("a batch needs a sequence of hands, got a single string "
                               "(use as_counts, or wrap it in a list)")
    if isinstance(x, (list, tuple)) and any(isinstance(r, str) for r in x):
        rows = []
        for i, r in enumerate(x):
            try:
                rows.append(as_counts(r))
            except InvalidNotationError as exc:
                raise InvalidNotationError(f"row {i}: {exc}", text=exc.text,
                                           position=exc.position) from None
            except InvalidHandError as exc:
                raise InvalidHandError(f"row {i}: {exc}") from None
        return np.ascontiguousarray(np.stack(rows)) if rows else np.zeros((0, N_KINDS), np.uint8)
    a = _as_int_array(x, "count batch")
    if a.ndim != 2 or a.shape[1] != N_KINDS:
        raise InvalidHandError(f"count batch must have shape (N, 34), got shape {a.shape}")
    _check_range(a, row="row ")
    return np.ascontiguousarray(a, dtype=np.uint8).copy()

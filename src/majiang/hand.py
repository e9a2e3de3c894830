"""Hands: concealed tiles, melds and flowers, with parsing, formatting and validation.

Hand notation (see :mod:`majiang.tiles` for the tile notations)::

    23m456p11z [555z] {6666m} 15f

* concealed tiles in any notation;
* exposed melds in square brackets: ``[123m]`` chow, ``[555z]`` pung,
  ``[5555z]`` exposed kong;
* concealed kongs in braces: ``{6666m}``;
* flowers anywhere outside brackets: 春夏秋冬梅兰竹菊, their glyphs, or
  ``1f``..``8f`` (in that order);
* jokers (wild tiles: 钻牌/财神/混儿/赖子/金) as one ``*`` each outside brackets,
  e.g. ``123m45p**``; which kind is wild is the ruleset's business, the hand only
  counts them (:attr:`Hand.jokers`).

Invariants of every :class:`Hand`: at most 4 copies of each kind counting the
concealed tiles and all melds; each flower at most once; the number of
concealed tiles ``n`` satisfies ``n % 3 in (1, 2)``.  The total-size check
(13/14 or 16/17 tiles) is made by :func:`parse_hand` and :func:`as_hand`.
"""
from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._core.efficiency import parse_text as _parse_text
from .chows import HONOR_CHOW_STARTS, _check_chow_start, chow_tiles, chows_holding, honor_chow_start
from .errors import InvalidHandError, InvalidNotationError, RuleError
from .tiles import (
    FLOWER_NAMES, MAX_COPIES, N_FLOWERS, N_KINDS, N_SUITED, TERMINALS_AND_HONORS,
    JOKER_GLYPH, TILE_BACK_GLYPH, _PLAIN_TENHOU, _plain_tenhou, _show, _tokenize, as_counts, check_tile, counts_from_tiles,
    flower_glyph, format_counts, tile_glyph, tile_name,
)

__all__ = [
    "MELD_KINDS", "DECOMPOSITION_FORMS", "DEFAULT_HAND_SIZES", "HONOR_CHOW_STARTS",
    "chow_tiles", "honor_chow_start", "chows_holding",
    "Meld", "Hand", "Decomposition",
    "parse_hand", "format_hand", "as_hand", "visible_counts",
]

MELD_KINDS = ("chow", "pung", "kong")
DEFAULT_HAND_SIZES = (13, 16)
"""Hand sizes accepted when ``hand_size=None``."""


def _group(kind: str, tile: int, n: int | None = None) -> str:
    """Tenhou text of a set without brackets: ``"123m"``, ``"555z"``, ``"5555z"``,
    ``"124z"`` (an honour chow, its kinds sorted)."""
    name = tile_name(tile)
    if kind == "chow":
        if tile >= N_SUITED:
            return "".join(tile_name(t)[0] for t in sorted(chow_tiles(tile))) + "z"
        r = int(name[0])
        return f"{r}{r + 1}{r + 2}{name[1]}"
    return name[0] * (n if n is not None else (4 if kind == "kong" else 3)) + name[1]


# --------------------------------------------------------------------------
# Meld
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Meld:
    """A declared set: exposed chow, pung or kong, or a concealed kong.

    Parameters
    ----------
    kind : {"chow", "pung", "kong"}
    tile : int
        Tile kind 0..33; for a chow the lowest tile (a suited tile with rank 1..7), or
        for an honour chow its start (:data:`HONOR_CHOW_STARTS`, played only where the
        ruleset's ``RuleSpec.honor_chows`` is on).
    concealed : bool, default False
        True only for a concealed kong (暗杠).

    Raises
    ------
    InvalidHandError
        Unknown kind, bad tile, a chow that cannot exist, or a concealed non-kong.
    """

    kind: str
    tile: int
    concealed: bool = False

    def __post_init__(self) -> None:
        if self.kind not in MELD_KINDS:
            raise InvalidHandError(
                f"unknown meld kind {self.kind!r}; expected one of {MELD_KINDS}")
        object.__setattr__(self, "tile", check_tile(self.tile))
        if not isinstance(self.concealed, (bool, np.bool_)):
            raise InvalidHandError(f"Meld.concealed must be a bool, got {self.concealed!r}")
        object.__setattr__(self, "concealed", bool(self.concealed))
        if self.kind == "chow":
            _check_chow_start(self.tile, "bad meld")
        if self.concealed and self.kind != "kong":
            raise InvalidHandError(
                f"only a kong can be concealed, got a concealed {self.kind} of "
                f"{tile_name(self.tile)}")

    @property
    def tiles(self) -> list[int]:
        """Tile kinds of the meld, sorted (4 for a kong)."""
        t = self.tile
        if self.kind == "chow":
            return sorted(chow_tiles(t))
        return [t] * (4 if self.kind == "kong" else 3)

    @property
    def counts(self) -> np.ndarray:
        """Count vector of the meld's tiles: new ``uint8`` array, shape ``(34,)``."""
        c = np.zeros(N_KINDS, dtype=np.uint8)
        np.add.at(c, self.tiles, 1)
        return c

    def __str__(self) -> str:
        body = _group(self.kind, self.tile)
        return f"{{{body}}}" if self.concealed else f"[{body}]"


# --------------------------------------------------------------------------
# Hand
# --------------------------------------------------------------------------

def _normalize_flowers(flowers: Any) -> tuple[int, ...]:
    if isinstance(flowers, (int, np.integer)) and not isinstance(flowers, (bool, np.bool_)):
        raise InvalidHandError(
            f"Hand.flowers is the collection of flower indices 0..7 (1f..8f = "
            f"春夏秋冬梅兰竹菊), not a count; got the int {flowers!r} "
            "(use Hand.n_flowers for the count)")
    if isinstance(flowers, str) or not isinstance(flowers, Iterable):
        raise InvalidHandError(f"Hand.flowers must be a collection of flower indices 0..7, "
                               f"got {flowers!r}")
    seen: list[int] = []
    for f in flowers:
        if isinstance(f, (bool, np.bool_)) or not isinstance(f, (int, np.integer)) \
                or not 0 <= f < N_FLOWERS:
            raise InvalidHandError(f"no flower {f!r}: flower indices are 0..7 (1f..8f)")
        i = int(f)
        if i in seen:
            raise InvalidHandError(
                f"flower {FLOWER_NAMES[i]} ({i + 1}f) appears twice: each flower exists once")
        seen.append(i)
    return tuple(sorted(seen))


@dataclass(frozen=True, eq=False)
class Hand:
    """One player's tiles: concealed counts, declared melds and flowers.

    Parameters
    ----------
    concealed : array_like or str
        Concealed tiles as a count vector (anything :func:`majiang.tiles.as_counts`
        accepts).  Stored as a read-only ``uint8`` array of shape ``(34,)``.
    melds : sequence of Meld, default ()
        Exposed melds and concealed kongs, in the order they were declared.
    flowers : iterable of int, default ()
        Flower indices 0..7 (春夏秋冬梅兰竹菊), each at most once; stored as a
        sorted tuple.  The number of flowers is :attr:`n_flowers`.
    jokers : int, default 0
        Wild tiles held concealed beside the 34 kinds (0..8); written ``*``.

    Raises
    ------
    InvalidHandError
        Bad count vector, a non-Meld in `melds`, more than 4 copies of a kind
        (concealed + melds), a repeated or unknown flower, or a number of
        concealed tiles that is a multiple of 3.

    Notes
    -----
    Equality and hashing are by value.  The total size (13/14, 16/17 tiles) is
    not checked here; :func:`parse_hand` and :func:`as_hand` check it.
    """

    concealed: np.ndarray
    melds: tuple[Meld, ...] = ()
    flowers: tuple[int, ...] = field(default=())
    jokers: int = 0

    def __post_init__(self) -> None:
        j = self.jokers
        if isinstance(j, (bool, np.bool_)) or not isinstance(j, (int, np.integer)) \
                or not 0 <= j <= 8:
            raise InvalidHandError(f"Hand.jokers must be a count 0..8, got {j!r}")
        object.__setattr__(self, "jokers", int(j))
        c = as_counts(self.concealed)
        c.flags.writeable = False
        object.__setattr__(self, "concealed", c)
        if isinstance(self.melds, Meld) or not isinstance(self.melds, Iterable):
            raise InvalidHandError(f"Hand.melds must be a sequence of Meld, got {self.melds!r}")
        melds = tuple(self.melds)
        for m in melds:
            if not isinstance(m, Meld):
                raise InvalidHandError(f"Hand.melds must hold Meld objects, got {m!r}")
        object.__setattr__(self, "melds", melds)
        object.__setattr__(self, "flowers", _normalize_flowers(self.flowers))
        _check_copies(c, melds)
        n = int(c.sum()) + self.jokers
        if n % 3 == 0:
            jk = " (jokers included)" if self.jokers else ""
            raise InvalidHandError(
                f"{n} concealed tiles{jk} with {_melds(len(melds))}: the number of concealed "
                "tiles must be 1 or 2 more than a multiple of 3")

    # -- sizes ---------------------------------------------------------------
    @property
    def n_concealed(self) -> int:
        """Number of concealed tiles (concealed kongs are melds, not counted here)."""
        return int(self.concealed.sum())

    @property
    def n_melds(self) -> int:
        """Number of melds, concealed kongs included."""
        return len(self.melds)

    @property
    def n_tiles(self) -> int:
        """Hand size: concealed tiles + jokers + 3 per meld (a kong counts 3)."""
        return self.n_concealed + self.jokers + 3 * len(self.melds)

    @property
    def n_flowers(self) -> int:
        """Number of flowers."""
        return len(self.flowers)

    @property
    def is_concealed(self) -> bool:
        """True when no meld is exposed (concealed kongs keep a hand concealed)."""
        return all(m.concealed for m in self.melds)

    @property
    def all_counts(self) -> np.ndarray:
        """Concealed tiles plus every meld's tiles: new ``uint8`` array, shape ``(34,)``."""
        total = self.concealed.astype(np.uint8, copy=True)
        for m in self.melds:
            total += m.counts
        return total

    # -- value semantics -----------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return (self.melds == other.melds and self.flowers == other.flowers
                and self.jokers == other.jokers
                and bool(np.array_equal(self.concealed, other.concealed)))

    def __hash__(self) -> int:
        return hash((self.concealed.tobytes(), self.melds, self.flowers, self.jokers))

    def __reduce__(self):
        # rebuild through __init__ so the unpickled array is validated and read-only
        return (type(self), (np.array(self.concealed), self.melds, self.flowers, self.jokers))

    def __repr__(self) -> str:
        return f"Hand({format_hand(self)!r})"

    def __str__(self) -> str:
        return format_hand(self)

    def _repr_html_(self) -> str:
        return _hand_html(self)


_new_object = object.__new__


def _trusted_hand(concealed: np.ndarray, melds: tuple[Meld, ...] = (),
                  flowers: tuple[int, ...] = (), jokers: int = 0) -> Hand:
    """A Hand from parts a caller has already proved valid (a read-only uint8 (34,)
    array, Meld objects, a sorted tuple of distinct flowers, jokers 0..8, no kind above
    4, a concealed count not a multiple of 3): the checks of ``__post_init__`` skipped."""
    h = _new_object(Hand)
    d = h.__dict__
    d["concealed"] = concealed
    d["melds"] = melds
    d["flowers"] = flowers
    d["jokers"] = jokers
    return h


def _trusted_decomposition(form: str, pair: int | None, sets) -> "Decomposition":
    """A regular-form :class:`Decomposition` from parts a caller has already proved valid
    (a form of :data:`DECOMPOSITION_FORMS`, tiles 0..33, chows that exist): the checks of
    ``__post_init__`` skipped, the sets sorted as it sorts them."""
    d = _new_object(Decomposition)
    put = object.__setattr__
    put(d, "form", form)
    put(d, "pair", None if pair is None else int(pair))
    put(d, "sets", tuple(sorted(((k, int(t)) for k, t in sets), key=_set_order)))
    put(d, "pairs", ())
    put(d, "knitted", ())
    return d


def _set_order(st: tuple) -> tuple:
    return st[1], st[0]


_MELD_CACHE: dict[int, Meld] = {}
_MELD_KIND_OF_CODE = (("chow", False), ("pung", False), ("kong", False), ("kong", True))


def _meld_of_code(code: int) -> Meld:
    """The Meld of a core meld code (kind * 64 + tile; see ``_core.efficiency.parse_text``);
    Melds are immutable values, so one object per code is shared."""
    m = _MELD_CACHE.get(code)
    if m is None:
        kind, concealed = _MELD_KIND_OF_CODE[code >> 6]
        m = _MELD_CACHE[code] = Meld(kind, code & 63, concealed)
    return m


def _check_copies(concealed: np.ndarray, melds: tuple[Meld, ...]) -> None:
    if not melds:
        return              # as_counts already bounds a lone count vector by 4
    in_melds = np.zeros(N_KINDS, dtype=np.intp)
    for m in melds:
        np.add.at(in_melds, m.tiles, 1)
    total = in_melds + concealed
    over = np.flatnonzero(total > MAX_COPIES)
    if over.size:
        k = int(over[0])
        n = int(total[k])
        head = "fifth copy" if n == 5 else f"{n} copies"
        raise InvalidHandError(
            f"{head} of {tile_name(k)}: {int(concealed[k])} concealed + "
            f"{int(in_melds[k])} in melds; at most {MAX_COPIES} of each tile exist")


def _hand_html(hand: Hand) -> str:
    def tiles(ks: Iterable[int]) -> str:
        return "".join(tile_glyph(k) for k in ks)

    def span(content: str, title: str, extra: str = "") -> str:
        return (f'<span title="{html.escape(title)}" '
                f'style="margin-right:0.35em;{extra}">{content}</span>')

    parts = []
    ks = np.repeat(np.arange(N_KINDS), hand.concealed).tolist()
    if ks:
        parts.append(span(tiles(ks), format_counts(hand.concealed)))
    if hand.jokers:     # wild tiles come right after the concealed tiles, as in format_hand
        parts.append(span(JOKER_GLYPH * int(hand.jokers),
                          f"{hand.jokers} joker{'s' if hand.jokers > 1 else ''} (wild, *)"))
    for m in hand.melds:
        if m.concealed:   # shown with the two middle tiles face down
            body = tile_glyph(m.tile) + TILE_BACK_GLYPH * 2 + tile_glyph(m.tile)
            parts.append(span(body, f"concealed kong {m}",
                              "border-bottom:2px dashed #888;"))
        else:
            parts.append(span(tiles(m.tiles), f"{m.kind} {m}",
                              "border-bottom:2px solid #888;"))
    if hand.flowers:
        parts.append(span("".join(flower_glyph(f) for f in hand.flowers),
                          "flowers " + "".join(FLOWER_NAMES[f] for f in hand.flowers),
                          "opacity:0.85;"))
    return ('<span class="majiang-hand" style="font-size:2.5em;line-height:1.3;'
            f'white-space:nowrap" title="{html.escape(format_hand(hand))}">'
            + "".join(parts) + "</span>")


# --------------------------------------------------------------------------
# parse / format
# --------------------------------------------------------------------------

def _meld_from_group(text: str, open_tok, close_pos: int, tiles: list[int]) -> Meld:
    group = text[open_tok.pos:close_pos + 1]
    t = sorted(tiles)
    where = f"meld {group!r} at position {open_tok.pos}"
    if open_tok.value == "{":
        if len(t) == 4 and t[0] == t[3]:
            return Meld("kong", t[0], concealed=True)
        raise InvalidNotationError(
            f"{where}: a concealed kong {{...}} must be 4 identical tiles",
            text=text, position=open_tok.pos)
    if len(t) in (3, 4) and t[0] == t[-1]:
        return Meld("pung" if len(t) == 3 else "kong", t[0])
    if len(t) == 3 and t[0] < N_SUITED and t[1] == t[0] + 1 and t[2] == t[0] + 2:
        if t[0] // 9 == t[2] // 9:
            return Meld("chow", t[0])
    if len(t) == 3 and honor_chow_start(t) is not None:
        return Meld("chow", honor_chow_start(t))     # the ruleset decides if it is played
    raise InvalidNotationError(
        f"{where} is not a meld: expected 3 identical tiles (pung), 4 identical "
        "(kong), 3 consecutive tiles of one suit (chow) or, where a ruleset plays "
        "honour chows, three different winds or the three dragons",
        text=text, position=open_tok.pos)


_TOTALS: dict[int, tuple[int, ...]] = {}


def _allowed_totals(hand_size: int | None) -> tuple[int, ...]:
    if type(hand_size) is int:
        hit = _TOTALS.get(hand_size)
        if hit is not None:
            return hit
    totals = _allowed_totals_uncached(hand_size)
    if type(hand_size) is int:
        _TOTALS[hand_size] = totals
    return totals


def _allowed_totals_uncached(hand_size: int | None) -> tuple[int, ...]:
    if hand_size is None:
        sizes = DEFAULT_HAND_SIZES
    else:
        if isinstance(hand_size, bool) or not isinstance(hand_size, (int, np.integer)):
            raise RuleError(f"hand_size must be an int, got {hand_size!r}")
        if hand_size < 1 or hand_size % 3 != 1:
            raise RuleError(f"hand_size {hand_size} is not 1 more than a multiple of 3 "
                            "(e.g. 13 or 16)")
        sizes = (int(hand_size),)
    return tuple(t for s in sizes for t in (s, s + 1))


_DEFAULT_TOTALS = _allowed_totals(None)


def _either(items: Iterable[str]) -> str:
    items = list(items)
    return " or ".join(items) if len(items) <= 2 else ", ".join(items[:-1]) + " or " + items[-1]


def _melds(k: int) -> str:
    return f"{k} meld" if k == 1 else f"{k} melds"


def _check_total(n: int, k: int, hand_size: int | None) -> None:
    """Check n concealed tiles + k melds against the allowed hand sizes."""
    totals = _allowed_totals(hand_size)
    total = n + 3 * k
    if total not in totals:
        expected = _either(str(t) for t in totals)
        concealed = _either(str(t - 3 * k) for t in totals if t - 3 * k > 0)
        raise InvalidHandError(
            f"wrong number of tiles: {n} concealed + 3 x {_melds(k)} = {total}; "
            f"expected {expected} in total"
            + (f" ({concealed} concealed tiles with {_melds(k)})" if concealed else ""))


def parse_hand(s: str, *, hand_size: int | None = None, strict: bool = True) -> Hand:
    """Read a hand: concealed tiles, ``[exposed melds]``, ``{concealed kongs}``, flowers.

    Parameters
    ----------
    s : str
        E.g. ``"23m456p11z [555z] {6666m}"``, ``"一万二万三万 [东东东] 春 梅"``.
    hand_size : int, optional
        13 accepts 13 or 14 tiles, 16 accepts 16 or 17.  ``None`` (default) accepts
        13, 14, 16 or 17.  Tiles are counted as concealed + 3 per meld.
    strict : bool, default True
        False skips the total-size check (for partial hands in studies); the number of
        concealed tiles must still be 1 or 2 more than a multiple of 3.

    Returns
    -------
    Hand

    Raises
    ------
    InvalidNotationError
        Unknown character, numerals without a suit, ``8z``, unbalanced or nested
        brackets, a flower inside brackets, or a bracketed group that is no meld
        (``[124m]``, ``[111z2z]``, ``{555m}``, ``[125z]``; three different winds such
        as ``[123z]`` or the three dragons ``[567z]`` read as an honour chow, which only
        a ruleset with honour chows accepts).  Positions are 0-based.
    InvalidHandError
        A fifth copy (concealed + melds), a repeated flower, or a wrong tile count
        (the message names the concealed count n, the meld count k and the totals
        expected).
    RuleError
        If `hand_size` is not 1 more than a multiple of 3.
    """
    if strict:
        # reject a bad option before parsing
        totals = _DEFAULT_TOTALS if hand_size is None else _allowed_totals(hand_size)
    fast = _parse_text(s)
    if fast is not None:
        # ASCII text read in one pass by the core, every check but the size passed
        c, n, codes, flowers, n_jokers = fast
        n += n_jokers
        if (n + 3 * len(codes) in totals) if strict else n % 3:
            melds = tuple([_meld_of_code(m) for m in codes]) if codes else ()
            return _trusted_hand(c, melds, flowers, n_jokers)
    if isinstance(s, str) and _PLAIN_TENHOU.fullmatch(s):
        tiles = _plain_tenhou(s)     # quick path: concealed tiles in plain Tenhou text
        c = np.bincount(tiles, minlength=N_KINDS)   # kinds are valid by construction
        if c.max() > MAX_COPIES:
            c = counts_from_tiles(tiles)            # raises, naming the fifth copy
        if strict:
            _check_total(len(tiles), 0, hand_size)
        return Hand(c.astype(np.uint8))
    s, n_jokers = _strip_jokers(s)
    tokens = _tokenize(s, brackets=True)
    concealed: list[int] = []
    melds: list[Meld] = []
    flowers: dict[int, int] = {}
    open_tok = None
    inner: list[int] = []
    for tok in tokens:
        if tok.kind == "open":
            if open_tok is not None:
                raise InvalidNotationError(
                    f"bracket {tok.value!r} at position {tok.pos} in {_show(s)} opens inside "
                    f"the meld opened at position {open_tok.pos}", text=s, position=tok.pos)
            open_tok, inner = tok, []
        elif tok.kind == "close":
            want = "]" if open_tok is not None and open_tok.value == "[" else "}"
            if open_tok is None or tok.value != want:
                raise InvalidNotationError(
                    f"unmatched {tok.value!r} at position {tok.pos} in {_show(s)}",
                    text=s, position=tok.pos)
            melds.append(_meld_from_group(s, open_tok, tok.pos, inner))
            open_tok = None
        elif tok.kind == "flower":
            if open_tok is not None:
                raise InvalidNotationError(
                    f"flower {FLOWER_NAMES[tok.value]} ({tok.value + 1}f) at position "
                    f"{tok.pos} in {_show(s)} is inside a meld", text=s, position=tok.pos)
            if tok.value in flowers:
                raise InvalidHandError(
                    f"flower {FLOWER_NAMES[tok.value]} ({tok.value + 1}f) at position "
                    f"{tok.pos} repeats the one at position {flowers[tok.value]}: "
                    "each flower exists once")
            flowers[tok.value] = tok.pos
        elif open_tok is not None:
            inner.append(tok.value)
        else:
            concealed.append(tok.value)
    if open_tok is not None:
        raise InvalidNotationError(
            f"unclosed {open_tok.value!r} at position {open_tok.pos} in {_show(s)}",
            text=s, position=open_tok.pos)
    c = counts_from_tiles(concealed)
    _check_copies(c, melds)                 # a fifth copy is reported before the size
    if strict:
        _check_total(len(concealed) + n_jokers, len(melds), hand_size)
    return Hand(c, tuple(melds), tuple(flowers), n_jokers)


def _strip_jokers(s: str) -> tuple[str, int]:
    """Replace each ``*`` (or the joker glyph 🀪, as results show a joker) outside
    brackets by a space (positions kept); count them."""
    if isinstance(s, str):
        s = s.replace(JOKER_GLYPH, "*")
    if not isinstance(s, str) or "*" not in s:
        return s, 0
    out, depth, n = [], 0, 0
    for i, ch in enumerate(s):
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "*":
            if depth > 0:
                raise InvalidNotationError(
                    f"joker '*' at position {i} in {s!r} is inside a meld: melds hold "
                    "real tiles only", text=s, position=i)
            n += 1
            ch = " "
        out.append(ch)
    if n > 8:
        raise InvalidHandError(f"{n} jokers ('*'): at most 8 wild tiles")
    return "".join(out), n


def format_hand(hand: Hand) -> str:
    """Canonical text of a hand: ``"23m456p11z [555z] {6666m} 15f"``.

    Concealed tiles in compact Tenhou order, then the melds in their order, then
    the flowers as ``1f``..``8f`` (compact).  ``parse_hand(format_hand(h)) == h``
    (pass ``strict=False`` for hands whose size is not 13/14/16/17).
    """
    if not isinstance(hand, Hand):
        raise InvalidHandError(f"format_hand expects a Hand, got {type(hand).__name__}")
    parts = []
    text = format_counts(hand.concealed) + "*" * hand.jokers
    if text:
        parts.append(text)
    parts.extend(str(m) for m in hand.melds)
    if hand.flowers:
        parts.append("".join(str(f + 1) for f in hand.flowers) + "f")
    return " ".join(parts)


def as_hand(x: Any, *, hand_size: int | None = None, strict: bool = True) -> Hand:
    """Coerce a string, a :class:`Hand` or a concealed count vector to a Hand.

    Parameters
    ----------
    x : str, Hand or array_like
        A string is read with :func:`parse_hand`; an array-like of shape ``(34,)`` is
        the concealed tiles of a hand without melds (validated by
        :func:`majiang.tiles.as_counts`); a Hand is returned unchanged.
    hand_size, strict
        As in :func:`parse_hand`; the size check applies to every kind of input.

    Returns
    -------
    Hand

    Raises
    ------
    InvalidNotationError, InvalidHandError, RuleError
        As in :func:`parse_hand` and :func:`majiang.tiles.as_counts`.
    """
    if isinstance(x, str):
        return parse_hand(x, hand_size=hand_size, strict=strict)
    if isinstance(x, Hand):
        hand = x
    else:
        c = as_counts(x)            # a new array, counts 0..4 checked
        n = int(c.sum())
        if n % 3 == 0:
            return Hand(c)          # raises with the usual message
        c.flags.writeable = False
        hand = _trusted_hand(c)
        if strict and not (hand_size is None and n in _DEFAULT_TOTALS):
            _check_total(n, 0, hand_size)
        return hand
    if strict:
        n = hand.n_concealed + hand.jokers
        if not (hand_size is None and n + 3 * len(hand.melds) in _DEFAULT_TOTALS):
            _check_total(n, hand.n_melds, hand_size)
    return hand


def visible_counts(visible: Any = None, hand: Hand | None = None) -> np.ndarray:
    """Count vector of the tiles a player sees outside their own hand.

    Parameters
    ----------
    visible : None, str or array_like
        ``None`` means nothing visible; a string in any tile notation (no brackets);
        or a ``(34,)`` count array.
    hand : Hand, optional
        If given, check that the hand's tiles (concealed + melds) plus the visible
        tiles do not exceed 4 of any kind.

    Returns
    -------
    numpy.ndarray
        New C-contiguous ``uint8`` array of shape ``(34,)``.

    Raises
    ------
    InvalidHandError
        Bad array, more than 4 visible copies, or (with `hand`) hand + visible
        exceeding 4 copies; the message names the tile and both counts.
    InvalidNotationError
        If `visible` is a string that cannot be parsed.
    """
    v = np.zeros(N_KINDS, dtype=np.uint8) if visible is None else as_counts(visible)
    if hand is not None:
        if not isinstance(hand, Hand):
            raise InvalidHandError(f"hand must be a Hand, got {type(hand).__name__}")
        own = hand.all_counts
        total = own.astype(np.intp) + v
        over = np.flatnonzero(total > MAX_COPIES)
        if over.size:
            k = int(over[0])
            raise InvalidHandError(
                f"{int(total[k])} copies of {tile_name(k)}: {int(own[k])} in the hand + "
                f"{int(v[k])} visible; at most {MAX_COPIES} of each tile exist")
    return v


# --------------------------------------------------------------------------
# Decomposition
# --------------------------------------------------------------------------

DECOMPOSITION_FORMS = ("regular", "seven_pairs", "thirteen_orphans",
                       "honors_and_knitted", "knitted_straight",
                       "thirteen_lonely", "seven_stars", "all_258", "eight_pairs")
"""Known values of :attr:`Decomposition.form` (extend here when adding a form)."""
SET_KINDS = ("chow", "pung")


@dataclass(frozen=True)
class Decomposition:
    """One way of reading the concealed tiles of a hand as a winning (or partial) form.

    Parameters
    ----------
    form : str
        One of :data:`DECOMPOSITION_FORMS`.
    pair : int or None
        Tile kind of the pair (eye), if the form has one.
    sets : tuple of (str, int)
        Concealed sets as ``("chow" | "pung", lowest tile)`` (an honour chow by its
        start, :data:`HONOR_CHOW_STARTS`); stored sorted by
        (tile, kind).  Melds of the hand are not repeated here.
    pairs : tuple of int
        Pair tiles of seven pairs, stored sorted (a kind may repeat when a quad
        counts as two pairs).
    knitted : tuple of int
        The single tiles of the knitted forms (组合龙's nine knitted tiles; the 14
        different tiles of 全不靠), stored sorted; empty for other forms or when the
        producer does not list them.

    Raises
    ------
    InvalidHandError
        Unknown form or set kind, bad tile index, or a chow that cannot exist.
    """

    form: str
    pair: int | None = None
    sets: tuple[tuple[str, int], ...] = ()
    pairs: tuple[int, ...] = ()
    knitted: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.form not in DECOMPOSITION_FORMS:
            raise InvalidHandError(
                f"unknown decomposition form {self.form!r}; expected one of "
                f"{DECOMPOSITION_FORMS}")
        if self.pair is not None:
            object.__setattr__(self, "pair", check_tile(self.pair))
        sets = []
        for item in self.sets:
            try:
                kind, tile = item
            except (TypeError, ValueError):
                raise InvalidHandError(
                    f"each set must be a (kind, tile) pair, got {item!r}") from None
            if kind not in SET_KINDS:
                raise InvalidHandError(f"unknown set kind {kind!r}; expected one of {SET_KINDS}")
            tile = check_tile(tile)
            if kind == "chow":
                _check_chow_start(tile, "bad set")
            sets.append((kind, tile))
        object.__setattr__(self, "sets", tuple(sorted(sets, key=lambda st: (st[1], st[0]))))
        object.__setattr__(self, "pairs", tuple(sorted(check_tile(p) for p in self.pairs)))
        object.__setattr__(self, "knitted", tuple(sorted(check_tile(t) for t in self.knitted)))

    def __str__(self) -> str:
        parts = []
        if self.pair is not None:
            parts.append(_group("pung", self.pair, 2))
        parts.extend(_group(kind, tile) for kind, tile in self.sets)
        parts.extend(_group("pung", p, 2) for p in self.pairs)
        if self.form == "thirteen_orphans":
            singles = [k for k in TERMINALS_AND_HONORS if k != self.pair]
            parts.append(format_counts(counts_from_tiles(singles)))
        if self.knitted:
            parts.append(format_counts(counts_from_tiles(self.knitted)))
        return " ".join(parts)

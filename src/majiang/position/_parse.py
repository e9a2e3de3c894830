"""Reading the parts of a position: seats, tiles, melds (``"[123m]@3 {6666m}"``) and
discard rivers (``"19m4z6p@2"``) from text or Python values, and the per-seat entries of
the :class:`~majiang.position.Position` constructor.

Errors: :class:`~majiang.errors.InvalidNotationError` for unreadable text,
:class:`~majiang.errors.InvalidHandError` for a value that is no tile or meld,
:class:`~majiang.errors.RuleError` for seats and per-seat entries out of range.
"""
from __future__ import annotations

import re
from typing import Any, NamedTuple

import numpy as np

from ..errors import InvalidHandError, InvalidNotationError, RuleError
from ..hand import Meld
from ..records.datatypes import Discard
from ..tiles import N_KINDS, check_tile, parse_tiles

_WIND_NAMES = ("East", "South", "West", "North")
_SUIT_NAMES = ("万 (m)", "筒 (p)", "条 (s)")


class TableMeld(NamedTuple):
    """A seat's meld as the table sees it.

    ``meld``: the :class:`~majiang.hand.Meld` (``kind`` "chow" / "pung" / "kong", ``tile``
    its lowest kind, ``concealed`` True for a concealed kong); ``from_seat``: the seat
    whose discard was claimed into it (an added kong keeps its pung's), None for a
    concealed kong or when unknown.
    """

    meld: Meld
    from_seat: int | None = None

    def __str__(self) -> str:
        return str(self.meld) + ("" if self.from_seat is None else f"@{self.from_seat}")


# --------------------------------------------------------------------------
# reading the parts
# --------------------------------------------------------------------------

def _int(x: Any, what: str) -> int:
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)):
        raise RuleError(f"{what} must be an int, got {x!r}")
    return int(x)


def _tile(x: Any, what: str) -> int:
    """A tile kind from an int or a tile name ("5m", "东")."""
    if isinstance(x, str):
        tiles = parse_tiles(x)
        if len(tiles) != 1:
            raise InvalidNotationError(f"{what}: expected one tile, got {x!r}", text=x)
        return tiles[0]
    try:
        return check_tile(x)
    except InvalidHandError:
        raise InvalidHandError(f"{what}: {x!r} is not a tile (kinds 0..33 or a name such "
                               "as '5m')") from None


_MELD_TOKEN = re.compile(r"\s*([\[{])([^\]}]*)([\]}])(?:@(\d+))?\s*")


def _meld_of_text(body: str, bracket: str, text: str) -> Meld:
    """The Meld of a bracketed group's inner text (``"123m"`` in ``[123m]``)."""
    t = sorted(parse_tiles(body))
    where = f"meld {bracket}{body}{']' if bracket == '[' else '}'} in {text!r}"
    if bracket == "{":
        if len(t) == 4 and t[0] == t[3]:
            return Meld("kong", t[0], concealed=True)
        raise InvalidNotationError(f"{where}: a concealed kong {{...}} is 4 identical tiles",
                                   text=text)
    if len(t) in (3, 4) and t[0] == t[-1]:
        return Meld("pung" if len(t) == 3 else "kong", t[0])
    if len(t) == 3 and t[0] < 27 and t[1] == t[0] + 1 and t[2] == t[0] + 2 \
            and t[0] // 9 == t[2] // 9:
        return Meld("chow", t[0])
    raise InvalidNotationError(f"{where} is not a meld: 3 identical tiles (pung), 4 (kong) "
                               "or 3 consecutive tiles of one suit (chow)", text=text)


def _melds_of_text(text: str, seat: int) -> list[TableMeld]:
    """``"[123m]@3 [555z] {6666m}"``: melds in brackets, each optionally followed by
    ``@q`` (claimed from seat q)."""
    out: list[TableMeld] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _MELD_TOKEN.match(text, pos)
        if m is None:
            raise InvalidNotationError(
                f"melds of seat {seat}: cannot read {text[pos:].strip()!r} in {text!r}; write "
                "each meld in brackets, [123m] [555z] [5555z] or {6666m} for a concealed "
                "kong, optionally followed by @seat it was claimed from", text=text,
                position=pos)
        if (m.group(1) == "[") != (m.group(3) == "]"):
            raise InvalidNotationError(f"melds of seat {seat}: unmatched brackets in "
                                       f"{text!r}", text=text, position=pos)
        meld = _meld_of_text(m.group(2), m.group(1), text)
        frm = None if m.group(4) is None else int(m.group(4))
        out.append(TableMeld(meld, frm))
        pos = m.end()
    return out


def _table_meld(x: Any, seat: int) -> TableMeld:
    if type(x) is TableMeld and type(x.meld) is Meld and (x.from_seat is None
                                                          or type(x.from_seat) is int):
        return x                    # already normalised (a position's own meld)
    if isinstance(x, TableMeld):
        meld, frm = x
    elif isinstance(x, Meld):
        meld, frm = x, None
    elif isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], Meld):
        meld, frm = x
    elif isinstance(x, tuple) and len(x) == 3 and isinstance(x[0], str):
        meld, frm = Meld(x[0], _tile(x[1], f"meld of seat {seat}"), bool(x[2])), None
    elif isinstance(x, str):
        got = _melds_of_text(x, seat)
        if len(got) != 1:
            raise InvalidNotationError(f"melds of seat {seat}: {x!r} holds {len(got)} melds "
                                       "where one was expected", text=x)
        return got[0]
    else:
        raise InvalidHandError(f"melds of seat {seat}: {x!r} is not a meld (a Meld, a "
                               "TableMeld, (Meld, from_seat) or text such as '[123m]@3')")
    if not isinstance(meld, Meld):
        raise InvalidHandError(f"melds of seat {seat}: {meld!r} is not a Meld")
    if frm is not None:
        frm = _int(frm, "the seat a meld of seat " + str(seat) + " was claimed from")
    return TableMeld(meld, frm)


EMPTY = "-"
"""A seat's river or melds written as ``-``: none (as ``majiang danger --discards``)."""


def _seat_melds(x: Any, seat: int) -> tuple[TableMeld, ...]:
    if x is None or (isinstance(x, str) and x.strip() == EMPTY):
        return ()
    if isinstance(x, str):
        return tuple(_melds_of_text(x, seat))
    if isinstance(x, (Meld, TableMeld)):
        return (_table_meld(x, seat),)
    return tuple(_table_meld(m, seat) for m in x)


_CLAIM_MARK = re.compile(r"@(\d)")


def _discards_of_text(text: str, seat: int) -> list[Discard]:
    """``"19m4z@2 6p"``: tiles in discard order; ``@q`` after a tile marks it claimed by
    seat q."""
    out: list[Discard] = []
    pos = 0
    for m in _CLAIM_MARK.finditer(text):
        out.extend(Discard(t) for t in parse_tiles(text[pos:m.start()]))
        if not out or (m.start() > 0 and text[m.start() - 1].isspace()):
            raise InvalidNotationError(f"discards of seat {seat}: '@{m.group(1)}' at position "
                                       f"{m.start()} in {text!r} follows no tile; write it "
                                       "right after the claimed tile, as 6p@2",
                                       text=text, position=m.start())
        out[-1] = Discard(out[-1].tile, int(m.group(1)))
        pos = m.end()
    out.extend(Discard(t) for t in parse_tiles(text[pos:]))
    return out


def _seat_discards(x: Any, seat: int) -> tuple[Discard, ...]:
    if x is None or (isinstance(x, str) and x.strip() == EMPTY):
        return ()
    if isinstance(x, str):
        return tuple(_discards_of_text(x, seat))
    out: list[Discard] = []
    for d in x:
        if type(d) is Discard and type(d.tile) is int and 0 <= d.tile < N_KINDS \
                and (d.claimed_by is None or type(d.claimed_by) is int):
            out.append(d)           # already normalised (a position's own river)
            continue
        if isinstance(d, str) and "@" in d:
            out.extend(_discards_of_text(d, seat))
            continue
        if isinstance(d, Discard):
            t, by = d
        elif isinstance(d, tuple) and len(d) == 2:
            t, by = d
        else:
            t, by = d, None
        t = _tile(t, f"discards of seat {seat}")
        if by is not None:
            by = _int(by, "the seat that claimed a discard of seat " + str(seat))
        out.append(Discard(t, by))
    return tuple(out)


def _per_seat(x: Any, n: int, what: str, one: Any) -> tuple:
    """A per-seat tuple of length n from None, a sequence of length n or a {seat: value}
    mapping; ``one(value, seat)`` reads each entry."""
    if x is None:
        return tuple(one(None, p) for p in range(n))
    if isinstance(x, dict):
        bad = [k for k in x if isinstance(k, bool) or not isinstance(k, (int, np.integer))
               or not 0 <= k < n]
        if bad:
            raise RuleError(f"{what}: seat {bad[0]!r} is not a seat 0..{n - 1}")
        return tuple(one(x.get(p), p) for p in range(n))
    if isinstance(x, str):
        raise RuleError(f"{what} must list one entry per seat ({n} seats), got the text {x!r}")
    items = list(x)
    if len(items) != n:
        raise RuleError(f"{what} must list one entry per seat: {n} seats, got {len(items)}")
    return tuple(one(v, p) for p, v in enumerate(items))


def _seat_set(x: Any, n: int, what: str, unique: bool = False) -> tuple[int, ...]:
    """Sorted seats of ``x`` (None, one seat or an iterable); ``unique``: a seat given
    twice is a RuleError (a seat declares ready once)."""
    if x is None:
        return ()
    if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)):
        x = (x,)
    given = [_int(s, what) for s in x]
    if unique and len(set(given)) != len(given):
        twice = next(s for s in given if given.count(s) > 1)
        raise RuleError(f"{what}: seat {twice} is listed twice")
    out = sorted(set(given))
    bad = [s for s in out if not 0 <= s < n]
    if bad:
        raise RuleError(f"{what}: {bad[0]} is not a seat 0..{n - 1}")
    return tuple(out)


"""A table position: everything one seat sees at a decision.

:class:`Position` gathers what a player knows when it must act: the ruleset, its
seat, the dealer and the winds, its own concealed tiles (and the tile just drawn),
every seat's melds (with the seat each claimed meld came from), every seat's discards
in order (those claimed marked with the claiming seat), flowers, the joker indicator,
the tiles left in the wall, declared void suits (定缺), the seats that already won
(血战 / 血流) and ready declarations (报听).  It never holds another seat's concealed
tiles, nor the wall's order.

Tiles are kind indices 0..33 (0-8 = 1-9m, 9-17 = 1-9p, 18-26 = 1-9s, 27-30 = East South
West North, 31-33 = White Green Red); the own concealed tiles are physical kinds (a
held joker at its kind).  Count vectors are ``numpy`` arrays of shape ``(34,)``.

Counting rules (one place, used by every analysis that takes a Position):

* a discard claimed into a meld (or won on) is counted once, in the meld (or among the
  winner's :attr:`Position.won_tiles`), never in the river;
* another seat's concealed kong whose tile the seat did not see is a count in
  :attr:`Position.hidden_kongs` (4 unknown tiles, part of :meth:`Position.unseen_counts`);
* the joker indicator counts as seen when it stays face up on the table (as the
  ruleset says: :meth:`majiang.rules.model.GameModel.face_up`).

Errors: :class:`~majiang.errors.InvalidHandError` for tiles that cannot be there
together (a fifth copy, a tile outside the tile set, a hand size that does not fit the
turn), :class:`~majiang.errors.InvalidNotationError` for unreadable text and
:class:`~majiang.errors.RuleError` for seats, winds and options out of range.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from .errors import InvalidHandError, InvalidNotationError, MahjongError, RuleError
from .hand import Hand, Meld, as_hand
from .records.datatypes import Discard
from .tiles import N_KINDS, as_counts, check_tile, parse_tiles, tile_name

__all__ = ["Position", "TableMeld", "Discard", "position_from_dict", "position_from_text"]

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


def _seat_melds(x: Any, seat: int) -> tuple[TableMeld, ...]:
    if x is None:
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
    if x is None:
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


def _seat_set(x: Any, n: int, what: str) -> tuple[int, ...]:
    if x is None:
        return ()
    if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)):
        x = (x,)
    out = sorted({_int(s, what) for s in x})
    bad = [s for s in out if not 0 <= s < n]
    if bad:
        raise RuleError(f"{what}: {bad[0]} is not a seat 0..{n - 1}")
    return tuple(out)


# --------------------------------------------------------------------------
# Position
# --------------------------------------------------------------------------

@dataclass(frozen=True, eq=False, init=False)
class Position:
    """Everything one seat sees at a decision (keyword constructor; read-only).

    Parameters
    ----------
    hand : str, Hand or array_like of shape (34,), optional
        The seat's concealed tiles (the same as ``concealed=``; give one of them):
        text in the hand notation (``"123m456p789s1122z"``; melds written there,
        ``[555z]``, are the seat's own melds and flowers ``1f`` count as its flowers;
        ``*`` is a held joker, put at the ruleset's wild kind), a
        :class:`~majiang.hand.Hand`, or a count vector.  ``hand_size + 1`` tiles
        (counting melds as 3) when the seat must discard, ``hand_size`` when it waits.
    ruleset : str, path or Ruleset, optional
        ``None`` (default) = Chinese Official rules (``"mcr"``); kept as given,
        :attr:`model` is its :func:`~majiang.rules.model.game_model`.
    seat : int
        The viewing seat, ``0..players-1``.
    concealed : as `hand`
    drawn : int or str, optional
        The tile just drawn (counted in the concealed tiles); None while waiting or
        after a claim.
    dealer : int
        The dealer's seat (East); seat winds are ``(seat - dealer) % players``.
    prevalent_wind : int
        0..3 = East South West North.
    melds : per-seat entries, optional
        A sequence of one entry per seat (or a ``{seat: entry}`` dict); an entry is None,
        text (``"[123m]@3 [555z] {6666m}"``: ``@q`` = claimed from seat q), or a sequence
        of :class:`~majiang.hand.Meld`, :class:`TableMeld`, ``(Meld, from_seat)``.
    discards : per-seat entries, optional
        Each seat's discards in order: text (``"19m4z6p@2"``: ``@q`` after a tile = claimed
        by seat q) or a sequence of kinds, names or
        :class:`~majiang.records.Discard` ``(tile, claimed_by)``.
    flowers : per-seat counts, optional
        Flowers each seat has set aside (the own count also from flowers in `hand`).
    indicator : int or str, optional
        The turned joker indicator.
    wall_left : int, optional
        Tiles left in the wall; None = :attr:`tiles_left` derives it.
    voids : per-seat ints, optional
        Declared void suit (定缺): 0 万, 1 筒, 2 条, -1 none (rulesets with 缺一门 only).
    won, ready : iterable of seats
        Seats that already won (血战 / 血流) / declared ready (报听).
    hidden_kongs : per-seat counts, optional
        Concealed kongs of other seats whose tiles this seat did not see.
    won_tiles : per-seat tile lists, optional
        The tiles each winner took (shown face up under 血战 / 血流).
    last_discard : (seat, tile), optional
        The latest unclaimed discard; by default derived (see :attr:`last_discard`).

    Attributes
    ----------
    concealed : numpy.ndarray
        ``uint8 (34,)``, read-only: the seat's concealed tiles (physical kinds).
    melds : tuple of tuple of TableMeld
        Per seat (``len == players``).
    discards : tuple of tuple of Discard
        Per seat, in order; claimed ones marked.
    flowers, voids, hidden_kongs : tuple of int
        Per seat.
    won, ready : tuple of int
        Sorted seats.

    Raises
    ------
    InvalidHandError
        A fifth copy across all zones (concealed, every meld, the discards on the table,
        the won tiles, a face-up indicator), a tile outside the ruleset's tile set,
        a concealed count that fits no turn (``hand_size`` or ``hand_size + 1`` with
        the seat's melds; ``hand_size + 1`` with a drawn tile), a drawn tile not held,
        more flowers than the tile set has, or a claimed discard its claimer holds in no
        meld (and did not win on).
    InvalidNotationError
        Unreadable hand, meld or discard text.
    RuleError
        Unknown ruleset; a seat, dealer or wind out of range; per-seat entries of the
        wrong length; voids under a ruleset without 缺一门; jokers without a known
        wild kind.
    """

    ruleset: Any
    seat: int
    concealed: np.ndarray
    drawn: int | None
    dealer: int
    prevalent_wind: int
    melds: tuple
    discards: tuple
    flowers: tuple
    indicator: int | None
    wall_left: int | None
    voids: tuple
    won: tuple
    ready: tuple
    hidden_kongs: tuple
    won_tiles: tuple

    def __init__(self, hand: Any = None, *, ruleset: Any = None, seat: int = 0,
                 concealed: Any = None, drawn: Any = None, dealer: int = 0,
                 prevalent_wind: int = 0, melds: Any = None, discards: Any = None,
                 flowers: Any = None, indicator: Any = None, wall_left: int | None = None,
                 voids: Any = None, won: Any = (), ready: Any = (), hidden_kongs: Any = None,
                 won_tiles: Any = None, last_discard: Any = None) -> None:
        from .rules.model import game_model
        model = game_model(ruleset)
        n = model.players
        sets = object.__setattr__
        sets(self, "_model", model)
        sets(self, "ruleset", ruleset)
        seat = _int(seat, "seat")
        dealer = _int(dealer, "dealer")
        if not 0 <= seat < n:
            raise RuleError(f"seat must be 0..{n - 1} ({model.name} is played by {n}), "
                            f"got {seat}")
        if not 0 <= dealer < n:
            raise RuleError(f"dealer must be a seat 0..{n - 1}, got {dealer}")
        pw = _int(prevalent_wind, "prevalent_wind")
        if not 0 <= pw <= 3:
            raise RuleError(f"prevalent_wind must be 0..3 (East South West North), got {pw}")
        sets(self, "seat", seat)
        sets(self, "dealer", dealer)
        sets(self, "prevalent_wind", pw)
        ind = None if indicator is None else _tile(indicator, "indicator")
        if ind is not None and model.jokers is None:
            raise RuleError(f"indicator {tile_name(ind)}: {model.name} has no jokers")
        sets(self, "indicator", ind)
        # the own tiles
        if hand is not None and concealed is not None:
            raise RuleError("give the seat's tiles once: hand= or concealed=, not both")
        src = hand if hand is not None else concealed
        own_melds: tuple = ()
        own_flowers = 0
        if src is None:
            raise InvalidHandError("a position needs the seat's concealed tiles (hand=...)")
        if isinstance(src, str) or isinstance(src, Hand):
            h = as_hand(src, strict=False)
            c = h.concealed.copy()
            own_melds = tuple(TableMeld(m) for m in h.melds)
            own_flowers = h.n_flowers
            if h.jokers:
                kinds = model.joker_kinds(ind)
                if not kinds:
                    raise RuleError(f"the hand holds {h.jokers} joker(s) '*', but "
                                    f"{model.name} has no jokers")
                if int(c[kinds[0]]) + h.jokers > 4:
                    raise InvalidHandError(f"the hand holds {int(c[kinds[0]])} "
                                           f"{tile_name(kinds[0])} and {h.jokers} joker(s) "
                                           f"'*' (wild {tile_name(kinds[0])}): more than 4")
                c[kinds[0]] += h.jokers
        else:
            c = as_counts(src)
        c.flags.writeable = False
        sets(self, "concealed", c)
        # per seat
        ms = _per_seat(melds, n, "melds", _seat_melds)
        if own_melds:
            if ms[seat]:
                raise RuleError(f"the melds of seat {seat} are given twice: in the hand text "
                                "and in melds=")
            ms = ms[:seat] + (own_melds,) + ms[seat + 1:]
        sets(self, "melds", ms)
        sets(self, "discards", _per_seat(discards, n, "discards", _seat_discards))

        def count(what):
            def one(v, p):
                if v is None:
                    return 0
                v = _int(v, f"{what} of seat {p}")
                if v < 0:
                    raise RuleError(f"{what} of seat {p} must be >= 0, got {v}")
                return v
            return one

        fl = _per_seat(flowers, n, "flowers", count("flowers"))
        if own_flowers:
            if fl[seat] and fl[seat] != own_flowers:
                raise RuleError(f"seat {seat} holds {own_flowers} flower(s) in the hand text "
                                f"but flowers= gives {fl[seat]}")
            fl = fl[:seat] + (own_flowers,) + fl[seat + 1:]
        sets(self, "flowers", fl)
        sets(self, "hidden_kongs", _per_seat(hidden_kongs, n, "hidden_kongs",
                                             count("hidden kongs")))

        def void(v, p):
            if v is None:
                return -1
            v = _int(v, f"the void suit of seat {p}")
            if v not in (-1, 0, 1, 2):
                raise RuleError(f"the void suit of seat {p} must be 0 (万), 1 (筒), 2 (条) or "
                                f"-1 (none), got {v}")
            return v

        vs = _per_seat(voids, n, "voids", void)
        if any(v >= 0 for v in vs) and not model.void_suit:
            raise RuleError(f"voids (定缺) are declared only under a ruleset with a void suit "
                            f"(缺一门); {model.name} has none")
        sets(self, "voids", vs)
        sets(self, "won", _seat_set(won, n, "won"))
        sets(self, "ready", _seat_set(ready, n, "ready"))

        def tiles(v, p):
            if v is None:
                return ()
            if isinstance(v, str):
                return tuple(parse_tiles(v))
            return tuple(_tile(t, f"won tiles of seat {p}") for t in v)

        wt = _per_seat(won_tiles, n, "won_tiles", tiles)
        for p, ts in enumerate(wt):
            if ts and p not in self.won:
                raise RuleError(f"seat {p} has won tiles but is not among the seats that won")
        sets(self, "won_tiles", wt)
        d = None if drawn is None else _tile(drawn, "drawn")
        sets(self, "drawn", d)
        if wall_left is not None:
            wall_left = _int(wall_left, "wall_left")
        sets(self, "wall_left", wall_left)
        if last_discard is not None:
            try:
                ls, lt = last_discard
            except (TypeError, ValueError):
                raise RuleError(f"last_discard must be (seat, tile), got {last_discard!r}") \
                    from None
            last_discard = (_int(ls, "the seat of last_discard"), _tile(lt, "last_discard"))
        sets(self, "_last", last_discard)
        self._validate()

    # ------------------------------------------------------------------ checks
    def _validate(self) -> None:
        model, n, s = self._model, self.players, self.seat
        hs = model.hand_size
        # melds' seats and counts
        for p, ms in enumerate(self.melds):
            for tm in ms:
                f = tm.from_seat
                if f is not None and (not 0 <= f < n or f == p):
                    raise RuleError(f"seat {p}'s meld {tm.meld} is claimed from seat {f}: "
                                    f"not another seat 0..{n - 1}")
                if f is not None and tm.meld.concealed:
                    raise RuleError(f"seat {p}'s concealed kong {tm.meld} cannot be claimed "
                                    f"from seat {f}")
            k = len(ms) + self.hidden_kongs[p]
            if p != s and hs - 3 * k < 1:
                raise InvalidHandError(f"seat {p} has {k} melds: a {hs}-tile hand holds at "
                                       f"most {(hs - 1) // 3}")
        if self.hidden_kongs[s]:
            raise RuleError(f"hidden_kongs counts other seats' concealed kongs; seat {s}'s own "
                            "are melds such as {6666m}")
        # the own hand size fits the turn
        nc = int(self.concealed.sum())
        k = len(self.melds[s])
        size = nc + 3 * k
        if size not in (hs, hs + 1):
            raise InvalidHandError(
                f"seat {s} holds {nc} concealed tiles with {k} meld(s) = {size}; a "
                f"{hs}-tile hand holds {hs} while waiting or {hs + 1} when it must discard "
                f"({hs - 3 * k} or {hs + 1 - 3 * k} concealed tiles with {k} meld(s))")
        if self.drawn is not None:
            if size != hs + 1:
                raise InvalidHandError(f"seat {s} drew {tile_name(self.drawn)} but holds "
                                       f"{size} tiles, not {hs + 1}")
            if not self.concealed[self.drawn]:
                raise InvalidHandError(f"the drawn tile {tile_name(self.drawn)} is not among "
                                       "the concealed tiles")
        # claims: each claimed discard is in a meld of its claimer (or won on)
        claims = [[] for _ in range(n)]
        for p, river in enumerate(self.discards):
            for dsc in river:
                q = dsc.claimed_by
                if q is None:
                    continue
                if not 0 <= q < n or q == p:
                    raise RuleError(f"seat {p}'s discard {tile_name(dsc.tile)} is marked "
                                    f"claimed by seat {q}: not another seat 0..{n - 1}")
                claims[q].append((p, dsc.tile))
        for q, got in enumerate(claims):
            pool = [tm for tm in self.melds[q] if not tm.meld.concealed]
            wins = list(self.won_tiles[q])
            for p, t in got:
                hit = next((i for i, tm in enumerate(pool) if t in tm.meld.tiles
                            and tm.from_seat in (None, p)), None)
                if hit is not None:
                    pool.pop(hit)
                elif t in wins:
                    wins.remove(t)
                elif q in self.won and not self.won_tiles[q]:
                    pass                    # won on it; the won tiles were not given
                else:
                    raise InvalidHandError(
                        f"seat {p}'s discard {tile_name(t)} is marked claimed by seat {q}, "
                        f"but seat {q} holds no meld with {tile_name(t)} claimed from seat "
                        f"{p} (and did not win on it)")
        # flowers
        tf = sum(self.flowers)
        if tf > model.n_flowers:
            raise InvalidHandError(f"{tf} flowers set aside, but the tile set of {model.name} "
                                   f"has {model.n_flowers}")
        # every copy: concealed + melds + discards on the table + won tiles + indicator
        total = self._all_seen().astype(np.int64)
        model.check_kinds(total, "the position")
        over = np.flatnonzero(total > model.copies)
        if over.size:
            t = int(over[0])
            parts = self._where_is(t)
            raise InvalidHandError(
                f"{int(total[t])} copies of {tile_name(t)} in the position ({parts}); the "
                f"tile set of {model.name} has {int(model.copies[t])}")
        if self.wall_left is not None:
            derived = self._derived_wall()
            if not 0 <= self.wall_left <= derived:
                raise InvalidHandError(f"wall_left {self.wall_left}: the position leaves at "
                                       f"most {derived} tiles unseen for the wall")
        if self._last is not None:
            ls, lt = self._last
            if not 0 <= ls < n or not any(d.tile == lt and d.claimed_by is None
                                          for d in self.discards[ls][-1:]):
                raise InvalidHandError(f"last_discard ({ls}, {tile_name(lt)}) is not the "
                                       f"unclaimed last discard of seat {ls}")

    def _indicator_counts(self) -> np.ndarray:
        """``int64 (34,)``: the copy of the indicator that lies face up (the ruleset's
        :meth:`~majiang.rules.model.GameModel.face_up`)."""
        if self.indicator is None or self._model.jokers is None:
            return np.zeros(N_KINDS, np.int64)
        return self._model.face_up(self.indicator).astype(np.int64)

    def _counts(self) -> tuple:
        """``(table, melds, indicator)``, computed once (a position never changes):
        ``int64 (34,)`` discards on the table (unclaimed) plus every winner's won
        tiles; a tuple of ``int64 (34,)`` per seat, the tiles of its melds; the face-up
        indicator.  Read-only arrays."""
        got = self.__dict__.get("_cached")
        if got is not None:
            return got
        table = [0] * N_KINDS
        for river in self.discards:
            for d in river:
                if d.claimed_by is None:
                    table[d.tile] += 1
        for ts in self.won_tiles:
            for t in ts:
                table[t] += 1
        melds = []
        for ms in self.melds:
            row = [0] * N_KINDS
            for tm in ms:
                for t in tm.meld.tiles:
                    row[t] += 1
            a = np.array(row, np.int64)
            a.flags.writeable = False
            melds.append(a)
        t = np.array(table, np.int64)
        ind = self._indicator_counts()
        t.flags.writeable = ind.flags.writeable = False
        got = (t, tuple(melds), ind)
        object.__setattr__(self, "_cached", got)
        return got

    def _meld_counts(self, p: int) -> np.ndarray:
        return self._counts()[1][p]

    def _table_counts(self) -> np.ndarray:
        """Discards on the table (unclaimed) plus every winner's won tiles."""
        return self._counts()[0]

    def _all_seen(self) -> np.ndarray:
        table, melds, ind = self._counts()
        return self.concealed.astype(np.int64) + table + ind + sum(melds)

    def _where_is(self, t: int) -> str:
        parts = [f"{int(self.concealed[t])} concealed"]
        melds = sum(int(self._meld_counts(p)[t]) for p in range(self.players))
        parts.append(f"{melds} in melds")
        parts.append(f"{int(self._table_counts()[t])} discarded or won")
        ind = int(self._counts()[2][t])
        if ind:
            parts.append(f"{ind} indicator")
        return " + ".join(parts)

    def _derived_wall(self) -> int:
        model = self._model
        seen = int(self._all_seen().sum()) + 4 * sum(self.hidden_kongs)
        others = sum(self.concealed_count(p) for p in range(self.players) if p != self.seat)
        return int(model.copies.sum()) + model.n_flowers - sum(self.flowers) - seen - others

    # ------------------------------------------------------------------ derived
    @property
    def model(self):
        """The ruleset's :class:`~majiang.rules.model.GameModel`."""
        return self._model

    @property
    def players(self) -> int:
        """Number of seats (from the ruleset)."""
        return self._model.players

    @property
    def seat_wind(self) -> int:
        """The seat's wind, ``(seat - dealer) % players`` (0..3 = East South West North)."""
        return (self.seat - self.dealer) % self.players

    @property
    def hand_size(self) -> int:
        """The ruleset's hand size (13 or 16)."""
        return self._model.hand_size

    @property
    def own_melds(self) -> tuple:
        """The seat's own melds as :class:`~majiang.hand.Meld` objects, in order."""
        return tuple(tm.meld for tm in self.melds[self.seat])

    @property
    def must_discard(self) -> bool:
        """Whether the seat holds ``hand_size + 1`` tiles (after a draw or a claim)."""
        return int(self.concealed.sum()) + 3 * len(self.melds[self.seat]) == self.hand_size + 1

    @property
    def tiles_left(self) -> int:
        """:attr:`wall_left` when given, else derived: the tile set (flowers included)
        less every tile seen (concealed, melds, hidden kongs, discards on the table, won
        tiles, a face-up indicator, flowers set aside) and the other seats' concealed
        tiles (:meth:`concealed_count`)."""
        return self.wall_left if self.wall_left is not None else self._derived_wall()

    def visible_counts(self) -> np.ndarray:
        """``uint8 (34,)``: what the seat sees outside its own concealed tiles and own
        melds: the discards still on the table (its own too), the other seats' exposed
        melds (and concealed kongs whose tile is given), the tiles winners took, the
        face-up indicator.  A claimed discard is counted once (in its meld)."""
        table, melds, ind = self._counts()
        v = table + ind
        for p, m in enumerate(melds):
            if p != self.seat:
                v = v + m
        return v.astype(np.uint8)

    def unseen_counts(self) -> np.ndarray:
        """``int16 (34,)``: tile-set copies less the own concealed tiles, the own melds
        and :meth:`visible_counts`: the tiles in other seats' hands (their hidden kongs
        included) or the wall."""
        own = self.concealed.astype(np.int16) + self._meld_counts(self.seat).astype(np.int16)
        return (self._model.copies.astype(np.int16) - own
                - self.visible_counts().astype(np.int16))

    def opponents(self) -> tuple[int, ...]:
        """The other seats still playing (not in :attr:`won`), in seat order."""
        return tuple(p for p in range(self.players) if p != self.seat and p not in self.won)

    def concealed_count(self, seat: int) -> int:
        """Concealed tiles of ``seat``: the own count, else ``hand_size - 3 x melds``
        (hidden kongs included): another seat waits with ``hand_size`` tiles.

        Raises
        ------
        RuleError
            Not a seat.
        """
        seat = _int(seat, "seat")
        if not 0 <= seat < self.players:
            raise RuleError(f"seat must be 0..{self.players - 1}, got {seat}")
        if seat == self.seat:
            return int(self.concealed.sum())
        return self.hand_size - 3 * (len(self.melds[seat]) + self.hidden_kongs[seat])

    @property
    def last_discard(self) -> tuple[int, int] | None:
        """``(seat, tile)`` of the latest unclaimed discard: as given, else derived when
        the seat is not to discard (it holds ``hand_size`` tiles, so it may weigh a
        claim): the last discard of the nearest seat before it in turn order (seat - 1,
        seat - 2, …) whose river ends with an unclaimed tile; None when the seat must
        discard or no river qualifies."""
        if self._last is not None:
            return self._last
        if self.must_discard:
            return None
        n = self.players
        for i in range(1, n):
            p = (self.seat - i) % n
            river = self.discards[p]
            if river and river[-1].claimed_by is None:
                return (p, river[-1].tile)
        return None

    def _init_kwargs(self) -> dict:
        """The constructor's keywords that rebuild this position."""
        return dict(ruleset=self.ruleset, seat=self.seat, concealed=self.concealed,
                    drawn=self.drawn, dealer=self.dealer, prevalent_wind=self.prevalent_wind,
                    melds=self.melds, discards=self.discards, flowers=self.flowers,
                    indicator=self.indicator, wall_left=self.wall_left,
                    voids=self.voids if self._model.void_suit else None, won=self.won,
                    ready=self.ready, hidden_kongs=self.hidden_kongs,
                    won_tiles=self.won_tiles, last_discard=self._last)

    def __reduce__(self):
        # rebuilt through the constructor: validated, the array read-only again
        kw = self._init_kwargs()
        kw["concealed"] = np.array(self.concealed)
        return (_rebuild, (type(self), kw))

    def replace(self, **changes: Any) -> Position:
        """A new, validated position with some constructor arguments changed
        (``p.replace(drawn=None, wall_left=None)``)."""
        kw = self._init_kwargs()
        unknown = set(changes) - set(kw) - {"hand"}
        if unknown:
            raise RuleError(f"Position has no field {sorted(unknown)[0]!r}")
        if "hand" in changes:
            kw.pop("concealed")
        kw.update(changes)
        return type(self)(**kw)

    # ------------------------------------------------------------------ for the analyses
    @property
    def hand(self) -> Hand:
        """The seat's hand as the analyses read it (:class:`~majiang.hand.Hand`): the
        concealed tiles with every held copy of a wild kind as a joker (``*``), the own
        melds, and the own flowers (as the first ``flowers[seat]`` flower indices: a
        position keeps how many flowers a seat has, not which).

        Raises
        ------
        RuleError
            The ruleset's jokers follow an indicator and the position has none.
        """
        c = self.concealed.copy()
        j = 0
        for k in self._model.joker_kinds(self.indicator):
            j += int(c[k])
            c[k] = 0
        c.flags.writeable = False
        return Hand(c, self.own_melds, tuple(range(min(self.flowers[self.seat], 8))), j)

    def analysis_visible(self) -> np.ndarray:
        """``uint8 (34,)``: :meth:`visible_counts` less the face-up indicator, which
        every analysis counts on its own (see
        :meth:`majiang.rules.model.GameModel.set_apart`): the ``visible=`` of
        :func:`majiang.advise` and the probability functions."""
        return (self.visible_counts().astype(np.int64) - self._counts()[2]).astype(np.uint8)

    def analysis_kwargs(self) -> dict:
        """The keyword arguments a position gives :func:`majiang.advise`,
        :func:`majiang.probabilities`, :func:`majiang.win_probability` and
        :func:`majiang.fan_odds`: ``visible`` (:meth:`analysis_visible`), ``ruleset``,
        ``indicator`` (a tile name, when given), ``seat_wind`` and ``prevalent_wind``."""
        out: dict[str, Any] = {"visible": self.analysis_visible(),
                               "ruleset": self.ruleset, "seat_wind": self.seat_wind,
                               "prevalent_wind": self.prevalent_wind}
        if self.indicator is not None:
            out["indicator"] = tile_name(self.indicator)
        return out

    # ------------------------------------------------------------------ from play
    @classmethod
    def from_view(cls, view: Any) -> Position:
        """The position a :class:`~majiang.game.players.SeatView` shows (a policy's
        argument in :func:`majiang.game.play_hand`), read through its public properties.

        The engine's view keeps only the discards still on the table (a claimed discard
        leaves its river, so none is marked claimed) and does not say whom a meld was
        claimed from (``from_seat`` None); another seat's concealed kong is a
        :attr:`hidden_kongs` count; the tiles winners took under 血战 / 血流 are not
        shown.  ``wall_left`` is the engine's count of tiles left (flowers included).
        The view's ``drawn`` is kept only when it is one: the seat holds
        ``hand_size + 1`` tiles and did not just claim the latest discard into a chow or
        pung (the engine keeps a seat's last dealt tile as "drawn" until its first
        discard); its ``last_discard`` only while that tile still lies on the table.
        ``visible_counts`` is by physical kind (the view's counts a stand-in, 安庆 / 温州
        白板, as the kind it plays as).
        """
        return _from_view(cls, view)

    @classmethod
    def from_botzone(cls, record: Any, decision_index: int) -> Position:
        """The position of the seat about to discard at a Botzone record's discard
        decision number ``decision_index`` (an index into
        :func:`majiang.records.decision_points`; negative counts from the end).

        Botzone Chinese Official rules: ruleset ``"mcr"``, seat 0 deals (East), seat
        ``p`` has wind ``p``, no flowers.  Every river keeps its claimed discards
        (marked), each claimed meld names the seat it came from, another seat's
        concealed kong is a :attr:`hidden_kongs` count, and ``wall_left`` is the 84
        draws of Botzone's wall less those made.

        Raises
        ------
        RuleError
            ``decision_index`` is not the index of a decision of the record.
        InvalidHandError
            The record is inconsistent (as :func:`majiang.records.replay`).
        """
        return _from_botzone(cls, record, decision_index)

    @classmethod
    def from_log(cls, log: Any, step: int, *, seat: int | None = None,
                 ruleset: Any = None) -> Position:
        """The position at event ``step`` of a simulated hand's event log, seen from one
        seat.

        ``log``: one hand's events (an entry of the ``log`` column of
        ``majiang.simulate(..., logs=True)``, ``HandState.events`` of
        ``play_hand(..., log=True)``, JSON Lines text or a file path; see
        :mod:`majiang.game.logs`).  A **step** is an index into that list of events:
        the position is the table just *before* event ``step`` is applied, seen from
        the event's seat (``seat=`` for events of no seat, such as ``"end"``, or to
        look from another seat).  So at a ``"discard"`` or ``"declare"`` event it is
        the decision of the seat holding ``hand_size + 1`` tiles, at a ``"claim"``
        event the seat weighing the discard (:attr:`last_discard`), at a ``"draw"``
        the seat about to draw.  Steps before the ``"start"`` event are the 换三张
        (``"exchange"``) and 定缺 (``"void"``) decisions.  ``ruleset``: the Ruleset
        when the header's name is not registered (house rules).

        Rivers keep claimed discards (marked), melds name their source, other seats'
        concealed kongs are hidden, the tiles winners took (血战 / 血流) are
        :attr:`won_tiles`, and ``wall_left`` counts the tiles not yet taken from the
        physical wall (flowers included).

        Raises
        ------
        RuleError
            Not a hand log (no header or no ``"start"`` event), ``step`` out of range,
            or an event of no seat without ``seat=``.
        """
        return _from_log(cls, log, step, seat, ruleset)

    # ------------------------------------------------------------------ text forms
    def to_dict(self) -> dict:
        """The position as plain data (JSON / TOML friendly); keys are the field names
        (see :func:`position_from_dict` and ``docs/position.md``), values in the text
        notation: ``concealed`` and ``drawn`` as tiles, ``melds`` / ``discards`` /
        ``won_tiles`` one text per seat.  Fields at their default are left out.
        ``Position.from_dict(p.to_dict()) == p`` (a ruleset given as a Ruleset object
        is written by its name, which must then be registered to be read back)."""
        from .tiles import format_counts
        rs = self.ruleset
        out: dict[str, Any] = {"ruleset": rs if isinstance(rs, str) else self._model.name,
                               "seat": self.seat, "concealed": format_counts(self.concealed)}
        if self.drawn is not None:
            out["drawn"] = tile_name(self.drawn)
        if self.dealer:
            out["dealer"] = self.dealer
        if self.prevalent_wind:
            out["prevalent_wind"] = self.prevalent_wind
        if any(self.melds):
            out["melds"] = [" ".join(str(tm) for tm in ms) for ms in self.melds]
        if any(self.discards):
            out["discards"] = [_discard_text(r) for r in self.discards]
        if any(self.flowers):
            out["flowers"] = list(self.flowers)
        if self.indicator is not None:
            out["indicator"] = tile_name(self.indicator)
        if self.wall_left is not None:
            out["wall_left"] = self.wall_left
        if any(v >= 0 for v in self.voids):
            out["voids"] = list(self.voids)
        if self.won:
            out["won"] = list(self.won)
        if self.ready:
            out["ready"] = list(self.ready)
        if any(self.hidden_kongs):
            out["hidden_kongs"] = list(self.hidden_kongs)
        if any(self.won_tiles):
            out["won_tiles"] = [" ".join(tile_name(t) for t in ts) for ts in self.won_tiles]
        if self._last is not None:
            out["last_discard"] = [self._last[0], tile_name(self._last[1])]
        return out

    @classmethod
    def from_dict(cls, data: dict) -> Position:
        """A position from :meth:`to_dict`'s plain data (a parsed TOML or JSON position
        file); see :func:`position_from_dict`."""
        return position_from_dict(data, cls)

    def to_text(self) -> str:
        """The one-line form, ``key=value`` words (see :meth:`from_text`):
        ``Position.from_text(p.to_text()) == p``."""
        import shlex
        words = []
        for key, value in self.to_dict().items():
            if key in _TEXT_PER_SEAT:
                words.extend(f"{key}{q}={v.replace(' ', '')}" for q, v in enumerate(value)
                             if v)
            elif key in _PER_SEAT or key in ("won", "ready"):
                words.append(f"{key}={','.join(str(x) for x in value)}")
            elif key == "last_discard":
                words.append(f"last_discard={value[0]}:{value[1]}")
            else:
                words.append(f"{key}={value}")
        return " ".join(shlex.quote(w) for w in words)

    @classmethod
    def from_text(cls, text: str) -> Position:
        """A position from text: JSON (starts with ``{``), TOML (several lines; keys as
        in :meth:`to_dict`) or the one-line form.

        One-line form: words ``key=value`` separated by spaces, keys the field names
        (``hand`` for ``concealed``, ``wall`` for ``wall_left``, ``wind`` for
        ``prevalent_wind``), a per-seat field either as ``key<seat>=value`` or as a
        comma list for every seat; values with spaces in quotes.  For example::

            hand=1234m567p11z34788s drawn=8s seat=0 dealer=3 melds1=[555z]@2
            discards0=9p1z discards1=4z1m discards2=6s3z5z@1 discards3=2p wall=61

        (``[555z]@2``: a pung of 5z claimed from seat 2; ``5z@1``: seat 2's 5z, claimed
        by seat 1; ``flowers=0,1,0,2``; ``won=1,3``; ``last_discard=3:2p``).

        Raises
        ------
        InvalidNotationError
            A word that is not ``key=value``, unreadable JSON or TOML, or bad tiles.
        RuleError
            An unknown key, a seat suffix out of range, or what the constructor refuses.
        InvalidHandError
            As the constructor.
        """
        return position_from_text(text, cls)

    @classmethod
    def from_file(cls, path: Any) -> Position:
        """A position from a file: ``.toml``, ``.json``, or any other file holding the
        one-line form (see :meth:`from_text`).

        Raises
        ------
        RuleError
            The file cannot be read; otherwise as :meth:`from_text`.
        """
        from pathlib import Path
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8-sig")
        except OSError as exc:
            raise RuleError(f"cannot read the position file {str(p)!r}: "
                            f"{exc.strerror or exc}") from None
        suffix = p.suffix.lower()
        if suffix == ".toml":
            return position_from_dict(_toml(text, str(p)), cls)
        if suffix == ".json":
            return position_from_dict(_json(text, str(p)), cls)
        return position_from_text(text, cls)

    # ------------------------------------------------------------------ display
    def _repr_html_(self) -> str:
        return _position_html(self)

    # ------------------------------------------------------------------ value semantics
    def _key(self) -> tuple:
        return (self._model.name, self.seat, self.concealed.tobytes(), self.drawn, self.dealer,
                self.prevalent_wind, self.melds, self.discards, self.flowers, self.indicator,
                self.wall_left, self.voids, self.won, self.ready, self.hidden_kongs,
                self.won_tiles, self._last)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        from .tiles import format_counts
        text = format_counts(self.concealed)
        own = " ".join(str(tm.meld) for tm in self.melds[self.seat])
        return (f"Position({self._model.name}, seat {self.seat} "
                f"({_WIND_NAMES[self.seat_wind]}), hand {text}{' ' + own if own else ''}, "
                f"{self.tiles_left} tiles left)")


def _rebuild(cls: Any, kw: dict) -> Position:
    return cls(**kw)


# --------------------------------------------------------------------------
# construction from play: an engine view, a Botzone record, an engine log
# --------------------------------------------------------------------------

def _from_view(cls, view) -> Position:
    model = view.model
    n = view.players
    seat = view.seat
    melds: list[list] = []
    hidden = [0] * n
    for p, ms in enumerate(view.melds):
        row = []
        for kind, tile, concealed in ms:
            if tile is None:            # another seat's concealed kong: tile not shown
                hidden[p] += 1
            else:
                row.append(TableMeld(Meld(kind, int(tile), bool(concealed))))
        melds.append(row)
    c = np.asarray(view.concealed, dtype=np.uint8)
    drawn = view.drawn
    size = int(c.sum()) + 3 * len(melds[seat])
    if drawn is None or drawn >= N_KINDS or size != model.hand_size + 1 or not c[drawn]:
        drawn = None                # during the deal the engine keeps the last dealt tile
    discards = [[Discard(int(t)) for t in river] for river in view.discards]
    last = view.last_discard
    if last is not None:
        ls, lt = last
        if not (discards[ls] and discards[ls][-1].tile == lt):
            last = None             # claimed or won on since
            own = melds[seat]
            if drawn is not None and ls != seat and own and own[-1].meld.kind != "kong" \
                    and lt in own[-1].meld.tiles:
                drawn = None        # the seat just claimed it: nothing was drawn
    return cls(concealed=c, ruleset=model.ruleset if model.ruleset is not None else view.ruleset,
               seat=seat, drawn=drawn, dealer=view.dealer, prevalent_wind=view.prevalent_wind,
               melds=melds, discards=discards, flowers=list(view.flowers),
               indicator=view.indicator, wall_left=view.wall_left,
               voids=list(view.voids) if model.void_suit else None, won=list(view.won),
               hidden_kongs=hidden if any(hidden) else None, last_discard=last)


def _from_botzone(cls, record, decision_index: int) -> Position:
    from .records import WALL_PER_PLAYER, decision_points, replay
    decisions = list(decision_points(record))
    if isinstance(decision_index, bool) or not isinstance(decision_index, (int, np.integer)):
        raise RuleError(f"decision_index must be an int, got {decision_index!r}")
    if not -len(decisions) <= decision_index < len(decisions):
        raise RuleError(f"match {record.match_id} has {len(decisions)} discard decisions "
                        f"(0..{len(decisions) - 1}), not {decision_index}")
    d = decisions[int(decision_index)]
    frm: list[list] = [[] for _ in range(4)]
    before = None
    for st in replay(record):
        if st.index >= d.turn_index:
            break
        ev = st.event
        if ev.action in ("Chi", "Peng", "Gang"):
            frm[ev.player].append(before.last_discard[0])
        elif ev.action == "AnGang":
            frm[ev.player].append(None)
        before = st
    seat = d.player
    melds, hidden = [], [0, 0, 0, 0]
    for p in range(4):
        row = []
        for m, f in zip(before.melds[p], frm[p]):
            if m.concealed and p != seat:
                hidden[p] += 1          # the seat never saw the tiles of this kong
            else:
                row.append(TableMeld(Meld(m.kind, m.tile, m.concealed), f))
        melds.append(row)
    return cls(concealed=d.concealed, ruleset="mcr", seat=seat, drawn=d.drawn, dealer=0,
               prevalent_wind=record.prevalent_wind, melds=melds,
               discards=[list(r) for r in before.discards],
               wall_left=max(0, 4 * WALL_PER_PLAYER - sum(before.draws)),
               hidden_kongs=hidden if any(hidden) else None)


_SEATLESS = ("header", "deal", "jokers", "exchange_direction", "start", "end_table",
             "end_check", "end")


def _log_events(log: Any) -> list:
    """The events of one hand's log: a list of dicts, JSON Lines text or a file path."""
    if isinstance(log, list):
        return log
    if isinstance(log, str) or hasattr(log, "__fspath__"):
        import json
        import os
        text = str(log)
        if "\n" not in text and not text.lstrip().startswith("{") and os.path.exists(text):
            with open(text, encoding="utf-8-sig") as fh:
                text = fh.read()
        out = []
        for i, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    out.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise RuleError(f"log line {i} is not JSON: {exc}") from None
        return out
    return list(log)


def _from_log(cls, log: Any, step: int, seat: int | None, ruleset: Any) -> Position:
    from .rules.model import game_model
    events = _log_events(log)
    if not events or not isinstance(events[0], dict) or events[0].get("e") != "header":
        raise RuleError("a hand log starts with a header event (simulate(..., logs=True) "
                        "gives one per hand in its 'log' column)")
    if isinstance(step, bool) or not isinstance(step, (int, np.integer)):
        raise RuleError(f"step must be an event index, got {step!r}")
    step = int(step)
    if not 0 <= step < len(events):
        raise RuleError(f"step {step} is not an event of this log (0..{len(events) - 1})")
    h = events[0]
    model = game_model(ruleset if ruleset is not None else h["ruleset"])
    n = model.players
    ev_at = events[step]
    if seat is None:
        if "seat" not in ev_at:
            raise RuleError(f"event {step} ({ev_at.get('e')!r}) belongs to no seat; give seat=")
        seat = int(ev_at["seat"])
    wall = h["wall"]
    start_i = next((i for i, e in enumerate(events) if e.get("e") == "start"), None)
    if start_i is None:
        raise RuleError("the log has no 'start' event (written by an older engine)")
    start = events[start_i]
    hands = [np.bincount(np.asarray(t, dtype=np.intp), minlength=N_KINDS).astype(np.int16)
             for t in start["hands"]]
    flowers = [0] * n
    deal = next(e for e in events if e.get("e") == "deal")
    for p, fl in enumerate(deal["flowers"]):
        flowers[p] = len(fl)
    for e in events[:start_i]:
        if e.get("e") == "flowers":
            flowers[e["seat"]] = len(e["tiles"])
    drawn: list = [None] * n
    drawn[int(h["dealer"])] = int(start["drawn"])
    # the wall: tiles taken by the deal and its flower replacements, the indicator
    taken = int(sum(len(t) for t in start["hands"])) + sum(flowers)
    indicator = None
    jr = model.jokers
    sub = jr.substitute if jr is not None else None
    joker = None
    for e in events[:start_i]:
        if e.get("e") == "jokers":
            indicator, joker = e.get("indicator"), e.get("joker")
            if indicator is not None:
                aside = 0                # flowers turned over before the indicator
                while wall[len(wall) - 1 - aside] >= N_KINDS:
                    aside += 1
                taken += aside + int(model.face_up(indicator).sum())
    if step < start_i:
        # before the deal ends only 换三张 and 定缺 are decided: the hands of the start
        # event, less the tiles received in the exchange (still to come at an exchange)
        gives = {e["seat"]: e["tiles"] for e in events if e.get("e") == "exchange"}
        d = next((e["direction"] for e in events if e.get("e") == "exchange_direction"),
                 None)
        if ev_at.get("e") == "exchange" and d is not None:
            stp = (1, n - 1, 2)[int(d)]
            for p in range(n):
                for x in gives.get(p, ()):
                    hands[p][x] += 1
                    hands[(p + stp) % n][x] -= 1
        drawn = [None] * n
        drawn[int(h["dealer"])] = int(start["drawn"])
        if hands[int(h["dealer"])][drawn[int(h["dealer"])]] <= 0:
            drawn[int(h["dealer"])] = None
        first = start_i
    else:
        first = start_i + 1
    melds: list[list] = [[] for _ in range(n)]
    rivers: list[list] = [[] for _ in range(n)]
    voids = [-1] * n
    won: list[int] = []
    won_tiles: list[list] = [[] for _ in range(n)]
    last = None
    blood = bool(getattr(model.ruleset, "blood", ""))

    def play(t):
        return joker if (sub is not None and t == sub) else t

    for e in events[:min(start_i, step)]:
        if e.get("e") == "void":
            voids[e["seat"]] = int(e["suit"])
    for e in events[first:step]:
        k = e.get("e")
        if k == "void":
            voids[e["seat"]] = int(e["suit"])
        elif k == "draw":
            p, t = e["seat"], int(e["tile"])
            hands[p][t] += 1
            drawn[p] = t
            taken += 1
        elif k == "flower":
            flowers[e["seat"]] += 1
            taken += 1
        elif k == "discard":
            p, t = e["seat"], int(e["tile"])
            hands[p][t] -= 1
            rivers[p].append(Discard(t))
            drawn[p] = None
            last = (p, t)
        elif k == "call":
            q, t, p = e["seat"], int(e["tile"]), int(e["frm"])
            rivers[p][-1] = Discard(rivers[p][-1].tile, q)
            last = None
            kind = e["kind"]
            if kind == "chow":
                a = int(e["start"])
                for x in (a, a + 1, a + 2):
                    if x != play(t):
                        hands[q][x] -= 1
                melds[q].append(TableMeld(Meld("chow", a), p))
            else:
                hands[q][t] -= 3 if kind == "kong" else 2
                melds[q].append(TableMeld(Meld(kind, play(t)), p))
            drawn[q] = None
        elif k == "kong":
            p, t = e["seat"], int(e["tile"])
            if e["kind"] == "concealed":
                hands[p][t] -= 4
                melds[p].append(TableMeld(Meld("kong", t, True)))
            else:
                hands[p][t] -= 1
                for i, tm in enumerate(melds[p]):
                    if tm.meld.kind == "pung" and tm.meld.tile == t:
                        melds[p][i] = TableMeld(Meld("kong", t), tm.from_seat)
                        break
            drawn[p] = None
        elif k == "win":
            q, t, how = e["seat"], int(e["tile"]), e["how"]
            if q not in won:
                won.append(q)
            if not blood:
                continue
            if how in ("self_draw", "kong_replacement"):
                hands[q][t] -= 1
                won_tiles[q].append(t)
                drawn[q] = None
            elif how == "discard":
                p = int(e["discarder"])
                if rivers[p] and rivers[p][-1].claimed_by is None:
                    rivers[p][-1] = Discard(rivers[p][-1].tile, q)
                    won_tiles[q].append(t)
                last = None
            elif how == "robbing_kong":
                p = int(e["discarder"])
                kt = play(t)
                for i, tm in enumerate(melds[p]):
                    if tm.meld.kind == "kong" and tm.meld.tile == kt and not tm.meld.concealed:
                        melds[p][i] = TableMeld(Meld("pung", kt), tm.from_seat)
                        won_tiles[q].append(t)
                        break
    if last is not None and not (rivers[last[0]] and rivers[last[0]][-1] == Discard(last[1])):
        last = None
    # what the seat sees: the other seats' concealed kongs are hidden
    hidden = [0] * n
    shown = []
    for p in range(n):
        row = []
        for tm in melds[p]:
            if tm.meld.concealed and p != seat:
                hidden[p] += 1
            else:
                row.append(tm)
        shown.append(row)
    c = hands[seat]
    d_own = drawn[seat]
    if d_own is not None and (c[d_own] <= 0 or int(c.sum()) + 3 * len(melds[seat])
                              != model.hand_size + 1):
        d_own = None
    return cls(concealed=c.astype(np.uint8), ruleset=model.ruleset, seat=seat, drawn=d_own,
               dealer=int(h["dealer"]), prevalent_wind=int(h["prevalent_wind"]) % 4,
               melds=shown, discards=rivers, flowers=flowers, indicator=indicator,
               wall_left=len(wall) - taken, voids=voids if model.void_suit else None,
               won=won, won_tiles=won_tiles if any(won_tiles) else None,
               hidden_kongs=hidden if any(hidden) else None, last_discard=last)


# --------------------------------------------------------------------------
# text forms
# --------------------------------------------------------------------------

_FIELDS = ("ruleset", "seat", "concealed", "drawn", "dealer", "prevalent_wind", "melds",
           "discards", "flowers", "indicator", "wall_left", "voids", "won", "ready",
           "hidden_kongs", "won_tiles", "last_discard")
_ALIASES = {"hand": "concealed", "wall": "wall_left", "wind": "prevalent_wind"}
_PER_SEAT = ("melds", "discards", "flowers", "voids", "hidden_kongs", "won_tiles")
_TEXT_PER_SEAT = ("melds", "discards", "won_tiles")
_INT_FIELDS = ("seat", "dealer", "prevalent_wind", "wall_left")


def _discard_text(river) -> str:
    return " ".join(tile_name(d.tile) + ("" if d.claimed_by is None else f"@{d.claimed_by}")
                    for d in river)


def _toml(text: str, where: str) -> dict:
    import tomllib
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidNotationError(f"{where}: not a TOML position: {exc}") from None


def _json(text: str, where: str) -> dict:
    import json
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidNotationError(f"{where}: not a JSON position: {exc}") from None
    if not isinstance(data, dict):
        raise InvalidNotationError(f"{where}: a JSON position is an object of fields")
    return data


def position_from_dict(data: Any, cls: Any = None) -> Position:
    """A :class:`Position` from plain data: keys the field names (``hand``, ``wall``,
    ``wind`` also accepted for ``concealed``, ``wall_left``, ``prevalent_wind``); a
    per-seat field (``melds``, ``discards``, ``flowers``, ``voids``, ``hidden_kongs``,
    ``won_tiles``) a list with one entry per seat or a table ``{seat: entry}`` (TOML /
    JSON keys ``"0"``..``"3"``); ``last_discard`` ``[seat, tile]``.

    Raises
    ------
    RuleError
        Not a mapping, an unknown key, a key given twice (``hand`` and ``concealed``);
        otherwise as the :class:`Position` constructor.
    """
    if not isinstance(data, dict):
        raise RuleError(f"a position is a mapping of fields, got {type(data).__name__}")
    kw: dict[str, Any] = {}
    for key, value in data.items():
        name = _ALIASES.get(key, key)
        if name not in _FIELDS:
            raise RuleError(f"unknown position key {key!r}; keys: {', '.join(_FIELDS)} "
                            "(hand, wall and wind also read)")
        if name in kw:
            raise RuleError(f"position key {name!r} given twice")
        if name in _PER_SEAT and isinstance(value, dict):
            try:
                value = {int(k): v for k, v in value.items()}
            except ValueError:
                raise RuleError(f"{name}: seats are numbers 0..3, got "
                                f"{sorted(value)!r}") from None
        kw[name] = value
    if "concealed" not in kw:
        raise RuleError("a position needs the seat's tiles (key 'concealed' or 'hand')")
    return (cls or Position)(**kw)


def _line_words(text: str) -> list[str]:
    import shlex
    try:
        return shlex.split(text, comments=True)
    except ValueError as exc:
        raise InvalidNotationError(f"cannot read the position line: {exc}", text=text) \
            from None


def position_from_text(text: str, cls: Any = None) -> Position:
    """A :class:`Position` from JSON, TOML or the one-line form (see
    :meth:`Position.from_text`)."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"a position text must be a str, got {type(text).__name__}")
    body = text.strip()
    if body.startswith("{"):
        return position_from_dict(_json(body, "position"), cls)
    lines = [ln for ln in body.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if len(lines) > 1 or (lines and "=" in lines[0] and " = " in lines[0]
                          and lines[0].count("=") == 1):
        return position_from_dict(_toml(body, "position"), cls)
    data: dict[str, Any] = {}
    per_seat: dict[str, dict[int, str]] = {}
    for word in _line_words(body):
        key, eq, value = word.partition("=")
        if not eq or not key:
            raise InvalidNotationError(f"position word {word!r} is not key=value (e.g. "
                                       "hand=123m456p789s1122z)", text=text)
        m = re.fullmatch(r"([a-z_]+?)(\d)", key)
        if m and _ALIASES.get(m.group(1), m.group(1)) in _PER_SEAT:
            name = m.group(1)
            per_seat.setdefault(name, {})
            if int(m.group(2)) in per_seat[name]:
                raise RuleError(f"position key {key!r} given twice")
            per_seat[name][int(m.group(2))] = value
            continue
        name = _ALIASES.get(key, key)
        if name in data or name in per_seat:
            raise RuleError(f"position key {key!r} given twice")
        if name in _INT_FIELDS:
            data[key] = _int_word(key, value)
        elif name in ("won", "ready"):
            data[key] = [_int_word(key, v) for v in value.split(",") if v]
        elif name in _PER_SEAT:
            items = value.split(",")
            data[key] = items if name in _TEXT_PER_SEAT else [
                _int_word(key, v) for v in items]
        elif name == "last_discard":
            ls, colon, lt = value.partition(":")
            if not colon:
                raise InvalidNotationError(f"last_discard={value}: write seat:tile, e.g. "
                                           "last_discard=3:2p", text=text)
            data[key] = (_int_word(key, ls), lt)
        else:
            data[key] = value
    for name, entries in per_seat.items():
        if name in data:
            raise RuleError(f"position key {name!r} given both for every seat and per seat")
        field = _ALIASES.get(name, name)
        data[name] = {q: (v if field in _TEXT_PER_SEAT else _int_word(f"{name}{q}", v))
                      for q, v in entries.items()}
    return position_from_dict(data, cls)


def _int_word(key: str, value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise InvalidNotationError(f"position key {key}={value}: expected a whole number") \
            from None


# --------------------------------------------------------------------------
# HTML (Jupyter)
# --------------------------------------------------------------------------

def _position_html(p: Position) -> str:
    """The table as HTML: a header line, one row per seat (turn order from the viewing
    seat: its flags, melds and discard river as tile glyphs; claimed discards dimmed)
    and the seat's own hand, the drawn tile set apart."""
    import html

    from .tiles import TILE_BACK_GLYPH, format_counts, tile_glyph
    esc = html.escape

    def span(content: str, title: str, style: str = "") -> str:
        return f'<span title="{esc(title)}" style="{style}">{content}</span>'

    def meld_html(tm: TableMeld) -> str:
        m = tm.meld
        if m.concealed:
            body = tile_glyph(m.tile) + TILE_BACK_GLYPH * 2 + tile_glyph(m.tile)
            return span(body, f"concealed kong {m}",
                        "margin-right:0.3em;border-bottom:2px dashed #888")
        src = "" if tm.from_seat is None else f", claimed from seat {tm.from_seat}"
        return span("".join(tile_glyph(t) for t in m.tiles), f"{m.kind} {m}{src}",
                    "margin-right:0.3em;border-bottom:2px solid #888")

    def river_html(river) -> str:
        out = []
        for i, d in enumerate(river):
            if i and i % 6 == 0:
                out.append("<br>")
            if d.claimed_by is None:
                out.append(span(tile_glyph(d.tile), tile_name(d.tile)))
            else:
                out.append(span(tile_glyph(d.tile),
                                f"{tile_name(d.tile)}, claimed by seat {d.claimed_by}",
                                "opacity:0.3"))
        return "".join(out)

    model = p.model
    n = p.players
    head = [f"{esc(model.name)}", f"prevalent wind {_WIND_NAMES[p.prevalent_wind]}",
            f"{p.tiles_left} tiles left"]
    if p.indicator is not None:
        head.append(f"indicator {tile_glyph(p.indicator)} ({tile_name(p.indicator)})")
    rows = []
    for i in range(n):
        q = (p.seat + i) % n
        flags = [f"seat {q}", _WIND_NAMES[(q - p.dealer) % n]]
        if q == p.seat:
            flags.append("<b>you</b>")
        if q == p.dealer:
            flags.append("dealer")
        if p.voids[q] >= 0:
            flags.append(f"void {_SUIT_NAMES[p.voids[q]]}")
        if p.flowers[q]:
            flags.append(f"{p.flowers[q]} flower{'s' if p.flowers[q] > 1 else ''}")
        if q in p.won:
            won = "".join(tile_glyph(t) for t in p.won_tiles[q])
            flags.append("won" + (f" {won}" if won else ""))
        if q in p.ready:
            flags.append("ready")
        melds = "".join(meld_html(tm) for tm in p.melds[q])
        melds += "".join(span(TILE_BACK_GLYPH * 4, "concealed kong (tiles not seen)",
                              "margin-right:0.3em;border-bottom:2px dashed #888")
                         for _ in range(p.hidden_kongs[q]))
        rows.append("<tr>"
                    f'<td style="font-size:0.9em;text-align:left;vertical-align:top">'
                    f'{", ".join(flags)}</td>'
                    f'<td style="font-size:1.8em;text-align:left;white-space:nowrap">{melds}</td>'
                    f'<td style="font-size:1.8em;text-align:left;line-height:1.1">'
                    f'{river_html(p.discards[q])}</td></tr>')
    c = p.concealed.astype(np.intp).copy()
    drawn = ""
    if p.drawn is not None:
        c[p.drawn] -= 1
        drawn = span(tile_glyph(p.drawn), f"drawn {tile_name(p.drawn)}", "margin-left:0.5em")
    hand = "".join(tile_glyph(k) for k in np.repeat(np.arange(N_KINDS), c))
    own = "".join(meld_html(tm) for tm in p.melds[p.seat])
    return ('<div class="majiang-position">'
            f'<div style="font-size:0.9em">{" · ".join(head)}</div>'
            '<table style="border-collapse:collapse"><tr><th>seat</th><th>melds</th>'
            f'<th>discards</th></tr>{"".join(rows)}</table>'
            f'<div style="font-size:2.5em;white-space:nowrap" '
            f'title="{esc(format_counts(p.concealed))}">{hand}{drawn}'
            f'<span style="margin-left:0.5em">{own}</span></div></div>')


# --------------------------------------------------------------------------
# analyses given a position
# --------------------------------------------------------------------------

_ANALYSIS_DEFAULTS = {"visible": None, "ruleset": None, "indicator": None, "seat_wind": 0,
                      "prevalent_wind": 0, "jokers": 0}


def analysis_inputs(x: Any, what: str, given: dict,
                    keys: tuple = ("visible", "ruleset", "indicator", "seat_wind",
                                   "prevalent_wind")) -> tuple[Any, dict]:
    """``(hand, keywords)`` for an analysis called with ``x``: ``x`` itself and
    ``given`` unchanged unless ``x`` is a :class:`Position`, whose :attr:`Position.hand`
    and :meth:`Position.analysis_kwargs` (those named in ``keys``) then fill
    ``given``.  A keyword given with a value other than its default that disagrees with
    the position (any ``visible``, a different ruleset, indicator or wind, ``jokers``)
    is refused.

    Raises
    ------
    RuleError
        ``"<what>: the position gives the ruleset mcr; ruleset='sichuan' conflicts …"``.
    """
    if not isinstance(x, Position):
        return x, given
    kw = dict(given)
    mine = x.analysis_kwargs()
    if kw.get("jokers", 0):
        raise RuleError(f"{what}: the position's hand holds its jokers; drop jokers=")
    for k in keys:
        g = kw.get(k, _ANALYSIS_DEFAULTS[k])
        v = mine.get(k)
        if g is not None and not (k in ("seat_wind", "prevalent_wind") and _same_int(g, 0)):
            if k == "visible":
                raise RuleError(f"{what}: the position gives the visible tiles (its discards "
                                "and the other seats' melds); drop visible=")
            if not _agrees(k, g, v, x):
                shown = x.model.name if k == "ruleset" else v
                raise RuleError(f"{what}: the position gives {k} {shown}; {k}={g!r} "
                                "conflicts (drop the keyword or change the position)")
        if k in mine:
            kw[k] = v
    return x.hand, kw


def _same_int(a: Any, b: int) -> bool:
    return isinstance(a, (int, np.integer)) and not isinstance(a, bool) and int(a) == b


def _agrees(key: str, given: Any, value: Any, pos: Position) -> bool:
    from .rules.model import game_model
    if key == "ruleset":
        m = game_model(given)
        return m is pos.model or m.name == pos.model.name
    if key == "indicator":
        return value is not None and _tile(given, "indicator") == parse_tiles(value)[0]
    if key in ("seat_wind", "prevalent_wind"):
        from .scoring.reference import wind_index
        try:
            return wind_index(given, key) == value
        except MahjongError:
            return False
    return given == value


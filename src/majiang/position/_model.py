"""The :class:`Position` dataclass: its constructor (each part read by ``_parse``), the
validation of the whole position, the derived properties and value semantics.

Its other parts are mixed in from the modules of one concept each: the counts
(``_counts``), the inputs of the analyses (``_analysis``), the constructors from play
(``_build``), the text forms (``_text``) and the HTML (``_html``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InvalidHandError, InvalidNotationError, RuleError
from ..hand import Hand, as_hand
from ..tiles import as_counts, parse_tiles, tile_name
from ._analysis import _ForAnalyses
from ._build import _FromPlay
from ._counts import _Counts
from ._html import _position_html
from ._parse import (
    _WIND_NAMES,
    TableMeld,
    _int,
    _per_seat,
    _seat_discards,
    _seat_melds,
    _seat_set,
    _tile,
)
from ._text import _read_dict, _read_text, _TextForms


@dataclass(frozen=True, eq=False, init=False)
class Position(_Counts, _ForAnalyses, _FromPlay, _TextForms):
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
        of :class:`~majiang.hand.Meld`, :class:`TableMeld`, ``(Meld, from_seat)``.  The
        ``@q`` is optional: an exposed meld written without it was claimed from a seat not
        said (``from_seat`` None, as :meth:`from_view` gives every meld); with it, seat
        q's discards must hold the claimed tile marked claimed by the meld's owner
        (``7m@2`` in seat 0's river for seat 2's ``[777m]@0``).
    discards : per-seat entries, optional
        Each seat's discards in order: text (``"19m4z6p@2"``: ``@q`` after a tile = claimed
        by seat q) or a sequence of kinds, names or
        :class:`~majiang.records.Discard` ``(tile, claimed_by)``.  The rivers may be
        partial (only the discards that matter to a question): their lengths are not
        checked against the turn order, unless `complete_rivers`.
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
    complete_rivers : bool
        The rivers hold every discard of their seats, claimed ones kept and marked (as
        :meth:`from_log` and :meth:`from_botzone` build them): their lengths are then
        checked against the turn order (default False: rivers may be partial).  Play
        goes round from the dealer, one discard a turn; a claim (or a win under
        血战 / 血流) moves the turn on, skipping each seat between at most once.  So with
        ``c`` claims marked in the rivers plus wins, for two seats still playing, ``p``
        before ``q`` in turn order from the dealer: ``-c <= len(p's river) -
        len(q's river) <= 1 + c``.

    Attributes
    ----------
    concealed : numpy.ndarray
        ``uint8 (34,)``, read-only: the seat's concealed tiles (physical kinds).
    complete_rivers : bool
        As given (kept by :meth:`replace`).
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
        more flowers than the tile set has, a claimed discard its claimer holds in no
        meld (and did not win on), or a meld claimed from seat q (``@q``) whose tile is not
        marked claimed in seat q's discards; with `complete_rivers`, river lengths that
        no turn order gives.
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
    complete_rivers: bool

    def __init__(self, hand: Any = None, *, ruleset: Any = None, seat: int = 0,
                 concealed: Any = None, drawn: Any = None, dealer: int = 0,
                 prevalent_wind: int = 0, melds: Any = None, discards: Any = None,
                 flowers: Any = None, indicator: Any = None, wall_left: int | None = None,
                 voids: Any = None, won: Any = (), ready: Any = (), hidden_kongs: Any = None,
                 won_tiles: Any = None, last_discard: Any = None,
                 complete_rivers: bool = False) -> None:
        from ..rules.model import game_model
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
            h = _own_hand(src)
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
            if np.ndim(src) == 0:
                raise InvalidNotationError(
                    f"hand must be the seat's tiles as text, e.g. \"23345m111p456p99s6m\", "
                    f"or a count vector of shape (34,); got {type(src).__name__} {src!r}")
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
        if any(v >= 0 for v in vs) and not model.declares_void:
            raise RuleError(f"voids (定缺) are declared only under a ruleset with a declared "
                            f"void suit; {model.name} has none"
                            + (" (its hand lacks a suit only at the win, whichever suit "
                               "that is)" if model.void_suit else ""))
        sets(self, "voids", vs)
        sets(self, "won", _seat_set(won, n, "won"))
        sets(self, "ready", _seat_set(ready, n, "ready", unique=True))

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
        if not isinstance(complete_rivers, (bool, np.bool_)):
            raise RuleError(f"complete_rivers must be True or False, got {complete_rivers!r}")
        sets(self, "complete_rivers", bool(complete_rivers))
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
                if f is not None and tm.meld.kind == "chow" and f != (p - 1) % n:
                    raise RuleError(f"seat {p}'s chow {tm.meld} is claimed from seat {f}: a "
                                    f"chow is claimed only from the seat before, {(p - 1) % n}")
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
            if q in self.won and not self.won_tiles[q]:
                continue                    # won on it; the won tiles were not given
            pool = [tm for tm in self.melds[q] if not tm.meld.concealed]
            wins = list(self.won_tiles[q])

            def fits(i: int, j: int) -> bool:
                p, t = got[i]
                if j >= len(pool):
                    return t == wins[j - len(pool)]
                return t in pool[j].meld.tiles and pool[j].from_seat in (None, p)
            miss = _unmatched(len(got), len(pool) + len(wins), fits)
            if miss is not None:
                p, t = got[miss]
                raise InvalidHandError(
                    f"seat {p}'s discard {tile_name(t)} is marked claimed by seat {q}, "
                    f"but seat {q} holds no meld with {tile_name(t)} claimed from seat "
                    f"{p} (and did not win on it)")
        self._check_claim_marks()
        if self.complete_rivers:
            self._check_turn_order()
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
        derived = self._derived_wall()
        if derived < 0:         # first: with wall_left given it would say "at most -28"
            raise InvalidHandError(f"the position shows {-derived} tiles more than the tile "
                                   f"set of {model.name} holds (the other seats each keep "
                                   f"{self.hand_size} tiles less 3 a meld concealed)")
        if self.wall_left is not None and not 0 <= self.wall_left <= derived:
            raise InvalidHandError(f"wall_left {self.wall_left}: the position leaves at "
                                   f"most {derived} tiles unseen for the wall")
        if self._last is not None:
            ls, lt = self._last
            if not 0 <= ls < n or not any(d.tile == lt and d.claimed_by is None
                                          for d in self.discards[ls][-1:]):
                raise InvalidHandError(f"last_discard ({ls}, {tile_name(lt)}) is not the "
                                       f"unclaimed last discard of seat {ls}")

    def _check_turn_order(self) -> None:
        """Complete rivers fit the turn order (see ``complete_rivers``): one discard a turn
        from the dealer on; each claim or win moves the turn on past some seats, each of
        them skipped once, so it puts a seat at most one discard further behind another.
        Seats that won (血战) stop discarding and are not compared."""
        n = self.players
        c = sum(1 for river in self.discards for d in river if d.claimed_by is not None)
        c += sum(max(1, len(self.won_tiles[p])) for p in self.won)
        live = sorted((p for p in range(n) if p not in self.won),
                      key=lambda p: (p - self.dealer) % n)
        size = [len(river) for river in self.discards]
        what = f"{c} claim(s) and win(s)" if c else "no claim"
        for i, p in enumerate(live):
            for q in live[i + 1:]:
                if size[q] - size[p] > c:
                    raise InvalidHandError(
                        f"the rivers do not fit the turn order: seat {q} discarded "
                        f"{size[q]} tiles, seat {p} {size[p]}, though seat {p} plays "
                        f"before seat {q} from the dealer (seat {self.dealer}); with {what} "
                        f"a later seat is at most {c} ahead")
                if size[p] - size[q] > 1 + c:
                    raise InvalidHandError(
                        f"the rivers do not fit the turn order: seat {p} discarded "
                        f"{size[p]} tiles, seat {q} {size[q]}; with {what} a seat is at "
                        f"most {1 + c} ahead of a later one")

    def _check_claim_marks(self) -> None:
        """Each meld said to be claimed from seat ``f`` (``[777m]@f``) has its claimed tile
        in seat ``f``'s discards, marked claimed by the meld's owner (``7m@p``): the river
        keeps a claimed discard, marked (see the class text)."""
        n = self.players
        for p in range(n):
            for f in range(n):
                melds = [tm.meld for tm in self.melds[p] if tm.from_seat == f]
                if not melds:
                    continue
                marked = [d.tile for d in self.discards[f] if d.claimed_by == p]
                i = _unmatched(len(melds), len(marked),
                               lambda i, j: marked[j] in melds[i].tiles)   # noqa: B023
                if i is not None:
                    miss = melds[i]
                    ts = "/".join(tile_name(t) for t in sorted(set(miss.tiles)))
                    raise InvalidHandError(
                        f"seat {p}'s meld {miss} is claimed from seat {f}, but seat {f}'s "
                        f"discards hold no {ts} marked claimed by seat {p} (mark the "
                        f"claimed tile there, e.g. {tile_name(miss.tiles[0])}@{p}, or write "
                        f"the meld without @{f})")

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

    def opponents(self) -> tuple[int, ...]:
        """The other seats still playing (not in :attr:`won`), in seat order."""
        return tuple(p for p in range(self.players) if p != self.seat and p not in self.won)

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
                    voids=self.voids if self._model.declares_void else None, won=self.won,
                    ready=self.ready, hidden_kongs=self.hidden_kongs,
                    won_tiles=self.won_tiles, last_discard=self._last,
                    complete_rivers=self.complete_rivers)

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
        from ..tiles import format_counts
        text = format_counts(self.concealed)
        own = " ".join(str(tm.meld) for tm in self.melds[self.seat])
        return (f"Position({self._model.name}, seat {self.seat} "
                f"({_WIND_NAMES[self.seat_wind]}), hand {text}{' ' + own if own else ''}, "
                f"{self.tiles_left} tiles left)")


def _own_hand(src: Any) -> Any:
    """The seat's own tiles as a Hand.  A text of bare tiles whose count fits no hand by
    itself (its melds given in ``melds=``) is read as counts only, so that the
    position's own count check says what is wrong, melds counted."""
    try:
        return as_hand(src, strict=False)
    except InvalidHandError as exc:
        if not (isinstance(src, str) and "multiple of 3" in str(exc)):
            raise
        from types import SimpleNamespace

        from ..tiles import parse_counts
        try:
            c = parse_counts(src)
        except Exception:
            raise exc from None
        return SimpleNamespace(concealed=c, melds=(), n_flowers=0, jokers=0)


def _rebuild(cls: Any, kw: dict) -> Position:
    return cls(**kw)


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
    return _read_dict(data, cls or Position)


def position_from_text(text: str, cls: Any = None) -> Position:
    """A :class:`Position` from JSON, TOML or the one-line form (see
    :meth:`Position.from_text`)."""
    return _read_text(text, cls or Position)


def _unmatched(n_items: int, n_slots: int, fits: Any) -> int | None:
    """The first of ``n_items`` items left without a slot of its own when each takes a
    distinct one of ``n_slots`` slots it ``fits(item, slot)`` (a maximum matching by
    augmenting paths: two chows may share a tile kind), or None when all fit."""
    owner: dict[int, int] = {}              # slot -> item

    def take(i: int, seen: set) -> bool:
        for j in range(n_slots):
            if j in seen or not fits(i, j):
                continue
            seen.add(j)
            if j not in owner or take(owner[j], seen):
                owner[j] = i
                return True
        return False
    for i in range(n_items):
        if not take(i, set()):
            return i
    return None

"""Real game records: parse and replay Botzone Chinese Official (MCR) logs.

A Botzone log is plain text, one event a line (the format is described in
``majiang/data/botzone_mcr/README.md``)::

    Match 61602cb45ddc087351c04358
    Wind 1
    Player 0 Deal T8 B7 T1 W6 B8 W9 J1 T9 B2 W3 T6 F4 W9
    ...
    Player 0 Draw J3
    Player 0 Play T6
    ...
    Player 1 Hu B7
    Fan 9 混一色*1+箭刻*1+老少副*1
    Score -8 33 -17 -8

This module turns such text into :class:`GameRecord` objects (:func:`parse_games`,
:func:`load_games`, :func:`example_games`), replays a record event by event while
checking that it is consistent (:func:`replay`), and extracts the two kinds of
situations an analysis needs: every discard decision (:func:`decision_points`)
and every win with its context and the recorded fans (:func:`wins`).  Nothing
here depends on an advice or scoring engine.

Tiles are the toolkit's 34 kind indices (0-8 = 1-9m, 9-17 = 1-9p, 18-26 = 1-9s,
27-30 = East South West North, 31 White, 32 Green, 33 Red); count vectors are
``numpy.uint8`` arrays of shape ``(34,)``.  Melds are :class:`RecordMeld` named
tuples ``(kind, tile, concealed)`` with ``kind`` one of ``"chow"``, ``"pung"``,
``"kong"`` and ``tile`` the lowest tile of the meld.

Errors: text that cannot be read raises :class:`majiang.errors.InvalidNotationError`;
a log whose events contradict each other (a discard of a tile not in the hand, a
claim out of turn, a fifth copy of a tile ...) raises
:class:`majiang.errors.InvalidHandError`.  Both messages name the match id and the
line number.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from importlib import resources
from typing import Iterator, NamedTuple

import numpy as np

from majiang.errors import InvalidHandError, InvalidNotationError

__all__ = [
    "ACTIONS",
    "WALL_PER_PLAYER",
    "Decision",
    "Discard",
    "Event",
    "GameRecord",
    "RecordMeld",
    "ReplayState",
    "Win",
    "botzone_tile",
    "botzone_code",
    "decision_points",
    "example_games",
    "example_path",
    "load_games",
    "parse_games",
    "replay",
    "wins",
]

#: The event actions of a Botzone log, spelled as in the log.
ACTIONS = ("Draw", "Play", "Chi", "Peng", "Gang", "AnGang", "BuGang", "Hu")

#: Tiles each seat draws from its own wall in Botzone's duplicate format
#: (136 tiles = 4 walls of 34; 13 of them dealt).
WALL_PER_PLAYER = 21

_NUM_KINDS = 34
_HAND = 13
_WALL_TOTAL = 136 - 4 * _HAND  # draws possible in any wall model

_SUIT_BASE = {"W": 0, "B": 9, "T": 18}
# J1 = Red (33), J2 = Green (32), J3 = White (31)
_DRAGON = {1: 33, 2: 32, 3: 31}
_KIND_TO_CODE = (
    [f"W{i}" for i in range(1, 10)]
    + [f"B{i}" for i in range(1, 10)]
    + [f"T{i}" for i in range(1, 10)]
    + [f"F{i}" for i in range(1, 5)]
    + ["J3", "J2", "J1"]
)


# ---------------------------------------------------------------- tile codes
def botzone_tile(code: str) -> int:
    """Tile kind index (0..33) of a Botzone tile code.

    ``W1``-``W9`` -> 0-8 (1m-9m), ``B1``-``B9`` -> 9-17 (p), ``T1``-``T9`` ->
    18-26 (s), ``F1``-``F4`` -> 27-30 (East South West North), ``J1`` -> 33
    (Red 中), ``J2`` -> 32 (Green 发), ``J3`` -> 31 (White 白).

    Raises :class:`~majiang.errors.InvalidNotationError` naming the code when it is
    none of these (flower codes ``H1``-``H8`` included: they are not tile kinds).
    """
    if isinstance(code, str) and len(code) == 2 and code[1].isdigit():
        letter, number = code[0], int(code[1])
        if letter in _SUIT_BASE and 1 <= number <= 9:
            return _SUIT_BASE[letter] + number - 1
        if letter == "F" and 1 <= number <= 4:
            return 26 + number
        if letter == "J" and 1 <= number <= 3:
            return _DRAGON[number]
    raise InvalidNotationError(
        f"bad Botzone tile code {code!r}: expected W1-W9, B1-B9, T1-T9, F1-F4 or J1-J3",
        text=code if isinstance(code, str) else None,
    )


def botzone_code(kind: int) -> str:
    """Botzone tile code of a kind index 0..33 (inverse of :func:`botzone_tile`).

    Raises :class:`~majiang.errors.InvalidNotationError` for an index outside 0..33.
    """
    if isinstance(kind, (int, np.integer)) and 0 <= int(kind) < _NUM_KINDS:
        return _KIND_TO_CODE[int(kind)]
    raise InvalidNotationError(f"bad tile kind {kind!r}: expected an index 0..33")


def _name(kind: int) -> str:
    """Tenhou name of a kind ('5m', '7z') for messages."""
    if kind < 27:
        return f"{kind % 9 + 1}{'mps'[kind // 9]}"
    return f"{kind - 26}z"


def _counts_str(counts: np.ndarray) -> str:
    """Tenhou string of a count vector, for messages."""
    parts = []
    for base, suffix, n in ((0, "m", 9), (9, "p", 9), (18, "s", 9), (27, "z", 7)):
        digits = "".join(str(i + 1) * int(counts[base + i]) for i in range(n))
        if digits:
            parts.append(digits + suffix)
    return "".join(parts) or "-"


# ---------------------------------------------------------------- data types
@dataclass(frozen=True)
class Event:
    """One event line of a log.

    ``player`` is the seat 0..3, ``action`` one of :data:`ACTIONS`, ``tile`` a kind
    index 0..33 (for ``Chi`` the MIDDLE tile of the chow).  ``ignored`` holds the
    losing claims recorded on the same line (``... Ignore Player q Peng t``) as
    events of their own; they are data only and never applied.  ``line`` is the
    1-based line number in the parsed text (not part of equality).
    """

    player: int
    action: str
    tile: int
    ignored: tuple["Event", ...] = ()
    line: int = field(default=0, compare=False)

    def __str__(self) -> str:
        text = f"Player {self.player} {self.action} {botzone_code(self.tile)}"
        for ev in self.ignored:
            text += f" Ignore Player {ev.player} {ev.action} {botzone_code(ev.tile)}"
        return text


@dataclass
class GameRecord:
    """One hand of a Botzone log.

    - ``match_id``: Botzone's match id (str).
    - ``prevalent_wind``: 0..3 = East South West North.
    - ``deals``: 4 lists of 13 kind indices, the starting hands in log order;
      seat ``p`` has seat wind ``p``.
    - ``events``: the :class:`Event` lines in order.
    - ``fan_total``: recorded fan total (0 for a drawn hand).
    - ``fans``: recorded ``(Chinese fan name, count)`` pairs in log order.
    - ``scores``: settlement per seat, or None when the log gives none.
    - ``drawn``: True for a ``Huang`` (exhausted wall) hand.
    - ``line``: 1-based line number of the ``Match`` line (not part of equality).
    """

    match_id: str
    prevalent_wind: int
    deals: list[list[int]]
    events: list[Event]
    fan_total: int = 0
    fans: list[tuple[str, int]] = field(default_factory=list)
    scores: tuple[int, int, int, int] | None = None
    drawn: bool = False
    line: int = field(default=0, compare=False)


class RecordMeld(NamedTuple):
    """A meld as replayed: ``kind`` "chow"/"pung"/"kong", ``tile`` its lowest
    tile (kind index), ``concealed`` True only for a concealed kong."""

    kind: str
    tile: int
    concealed: bool = False

    def tiles(self) -> list[int]:
        """The kind indices of the meld's 3 or 4 tiles."""
        if self.kind == "chow":
            return [self.tile, self.tile + 1, self.tile + 2]
        return [self.tile] * (4 if self.kind == "kong" else 3)


class Discard(NamedTuple):
    """A discarded tile in a player's river; ``claimed_by`` is the seat that
    took it into a meld (or won on it), None while it lies on the table."""

    tile: int
    claimed_by: int | None = None


@dataclass(frozen=True, eq=False)
class ReplayState:
    """Snapshot of a hand after one event (yielded by :func:`replay`).

    - ``index``: index of the event in ``record.events``; ``event``: that event.
    - ``concealed``: uint8 ``(4, 34)``, each seat's concealed tiles (concealed
      kongs are melds, not concealed tiles).
    - ``melds``: per seat, a tuple of :class:`RecordMeld` in the order made.
    - ``discards``: per seat, a tuple of :class:`Discard` (the river, claimed
      tiles included and marked).
    - ``visible``: uint8 ``(4, 34)``; row ``p`` is everything seat ``p`` sees
      outside its own hand: every discard still on the table (its own too) and
      every tile of the other seats' exposed melds (a claimed discard is counted
      once, in the meld).  Concealed kongs of others are not visible; ``p``'s own
      melds belong to ``p``'s hand, not to ``visible``.
    - ``draws``: tiles drawn so far per seat (kong replacements included).
    - ``last_discard``: ``(seat, tile)`` of the discard that may still be claimed,
      else None.
    """

    index: int
    event: Event
    concealed: np.ndarray
    melds: tuple[tuple[RecordMeld, ...], ...]
    discards: tuple[tuple[Discard, ...], ...]
    visible: np.ndarray
    draws: tuple[int, int, int, int]
    last_discard: tuple[int, int] | None

    @property
    def wall_remaining(self) -> tuple[int, ...]:
        """Tiles left in each seat's own wall under Botzone's duplicate format
        (``WALL_PER_PLAYER - draws``; negative if the log does not fit that model)."""
        return tuple(WALL_PER_PLAYER - d for d in self.draws)


@dataclass(frozen=True, eq=False)
class Decision:
    """A discard decision of one seat (yielded by :func:`decision_points`).

    - ``game``: match id; ``turn_index``: index of the ``Play`` event in
      ``record.events``; ``player``: the seat.
    - ``concealed``: uint8 ``(34,)``, the concealed hand right before the discard
      (``14 - 3 * len(melds)`` tiles, the drawn or claimed tile included).
    - ``melds``: tuple of :class:`RecordMeld`.
    - ``visible``: uint8 ``(34,)``, what the seat sees outside its hand (see
      :class:`ReplayState`).
    - ``discard``: the kind discarded.
    - ``seat_wind``, ``prevalent_wind``: 0..3 = East South West North.
    - ``drawn``: the tile just drawn, or None when the discard follows a chow or
      pung claim.
    """

    game: str
    turn_index: int
    player: int
    concealed: np.ndarray
    melds: tuple[RecordMeld, ...]
    visible: np.ndarray
    discard: int
    seat_wind: int
    prevalent_wind: int
    drawn: int | None = None


@dataclass(frozen=True, eq=False)
class Win:
    """A winning situation (returned by :func:`wins`).

    - ``game``: match id; ``turn_index``: index of the ``Hu`` event; ``player``:
      the winner.
    - ``concealed``: uint8 ``(34,)``, the concealed hand BEFORE the winning tile
      (``13 - 3 * len(melds)`` tiles).
    - ``melds``: tuple of :class:`RecordMeld`; ``win_tile``: kind index.
    - ``self_drawn``: the winner drew the tile (the Hu follows its own Draw).
    - ``discarder``: seat that discarded the tile or whose added kong was robbed;
      None on a self-draw.
    - ``last_copy``: all 4 copies of the win tile are then known to the winner:
      its concealed hand, its own melds (concealed kongs included), what it sees
      on the table and in others' exposed melds, plus the win tile itself.
    - ``win_tile_shown``: copies of the win tile exposed on the table before the
      win (discards on the table and every seat's exposed melds, the winner's
      own included; not the win tile itself, not concealed tiles or concealed
      kongs).  Botzone's judge grants 和绝张 when this is 3.  It differs from
      ``last_copy`` only when the winner holds copies of the win tile concealed.
    - ``kong_replacement``: the win tile is the replacement draw right after the
      winner's own kong (杠上开花).
    - ``robbing_kong``: the win is on the tile of another seat's ``BuGang`` (抢杠和).
    - ``wall_last``: the win tile is the last tile of the wall (妙手回春 on a draw,
      海底捞月 on a discard), derived under Botzone's duplicate wall model: each
      seat draws its :data:`WALL_PER_PLAYER` tiles from its own wall, and the
      tile is the last when the wall of the seat after the drawer / discarder /
      kong declarer is empty.  None when the log does not fit the model (a seat
      drew more than its wall holds), since the walls themselves are not logged.
    - ``wall_remaining``: each seat's remaining wall under that model.
    - ``seat_wind``, ``prevalent_wind``: 0..3.
    - ``fan_total``, ``fans``, ``scores``: as recorded in the log.
    """

    game: str
    turn_index: int
    player: int
    concealed: np.ndarray
    melds: tuple[RecordMeld, ...]
    win_tile: int
    self_drawn: bool
    discarder: int | None
    last_copy: bool
    win_tile_shown: int
    kong_replacement: bool
    robbing_kong: bool
    wall_last: bool | None
    wall_remaining: tuple[int, ...]
    seat_wind: int
    prevalent_wind: int
    fan_total: int
    fans: tuple[tuple[str, int], ...]
    scores: tuple[int, int, int, int] | None


# ---------------------------------------------------------------- parsing
def _notation_error(match_id: str | None, lineno: int, line: str, why: str) -> InvalidNotationError:
    where = f"match {match_id}, " if match_id else ""
    return InvalidNotationError(f"{where}line {lineno} ({line.strip()!r}): {why}")


def _tile(code: str, match_id: str | None, lineno: int, line: str) -> int:
    try:
        return botzone_tile(code)
    except InvalidNotationError as exc:
        raise _notation_error(match_id, lineno, line, str(exc)) from None


def _seat(text: str, match_id: str | None, lineno: int, line: str) -> int:
    if text not in ("0", "1", "2", "3"):
        raise _notation_error(match_id, lineno, line, f"bad seat {text!r}: expected 0..3")
    return int(text)


def _parse_action(words: list[str], match_id: str, lineno: int, line: str) -> Event:
    """``Player p Action t [Ignore Player q Action t]...`` -> Event."""
    chunks: list[list[str]] = [[]]
    for w in words:
        if w == "Ignore":
            chunks.append([])
        else:
            chunks[-1].append(w)
    events = []
    for chunk in chunks:
        if len(chunk) != 4 or chunk[0] != "Player":
            raise _notation_error(
                match_id, lineno, line, "expected 'Player <p> <action> <tile>'"
            )
        seat = _seat(chunk[1], match_id, lineno, line)
        if chunk[2] not in ACTIONS:
            raise _notation_error(
                match_id, lineno, line,
                f"unknown action {chunk[2]!r}: expected one of {', '.join(ACTIONS)}",
            )
        events.append(Event(seat, chunk[2], _tile(chunk[3], match_id, lineno, line), line=lineno))
    if len(events) > 1 and events[0].action not in ("Chi", "Peng", "Gang", "Hu"):
        raise _notation_error(
            match_id, lineno, line, f"'Ignore' after {events[0].action}: only claims are contested"
        )
    main = events[0]
    return Event(main.player, main.action, main.tile, tuple(events[1:]), line=lineno)


def _parse_fans(words: list[str], match_id: str, lineno: int, line: str) -> tuple[int, list]:
    if len(words) not in (2, 3):
        raise _notation_error(match_id, lineno, line, "expected 'Fan <total> <name>*<count>+...'")
    try:
        total = int(words[1])
    except ValueError:
        raise _notation_error(match_id, lineno, line, f"bad fan total {words[1]!r}") from None
    fans = []
    if len(words) == 3:
        for item in words[2].split("+"):
            name, star, count = item.rpartition("*")
            if not star or not name or not count.isdigit() or int(count) < 1:
                raise _notation_error(match_id, lineno, line, f"bad fan entry {item!r}: expected <name>*<count>")
            fans.append((name, int(count)))
    return total, fans


def _parse_block(lines: list[tuple[int, str]]) -> GameRecord:
    """One hand: ``lines`` are (line number, stripped text), blank lines removed."""
    first_no, first = lines[0]
    words = first.split()
    if len(words) != 2 or words[0] != "Match":
        raise _notation_error(None, first_no, first, "a hand must start with 'Match <id>'")
    match_id = words[1]
    if len(lines) < 2 or lines[1][1].split()[:1] != ["Wind"]:
        no, text = lines[1] if len(lines) > 1 else lines[0]
        raise _notation_error(match_id, no, text, "expected 'Wind <0..3>' after the Match line")
    no, text = lines[1]
    w = text.split()
    if len(w) != 2 or w[1] not in ("0", "1", "2", "3"):
        raise _notation_error(match_id, no, text, "expected 'Wind <0..3>'")
    wind = int(w[1])

    deals: list[list[int] | None] = [None] * 4
    events: list[Event] = []
    fan_total, fans, scores, drawn = 0, [], None, False
    has_fan = False
    finished = False  # a Fan/Score/Huang line was read: no more events
    for no, text in lines[2:]:
        w = text.split()
        head = w[0]
        if head == "Player" and len(w) >= 3 and w[2] == "Deal":
            seat = _seat(w[1], match_id, no, text)
            if events or finished:
                raise _notation_error(match_id, no, text, "Deal line after the play started")
            if deals[seat] is not None:
                raise _notation_error(match_id, no, text, f"second Deal for player {seat}")
            if len(w) != 3 + _HAND:
                raise _notation_error(match_id, no, text, f"a Deal has {_HAND} tiles, got {len(w) - 3}")
            deals[seat] = [_tile(c, match_id, no, text) for c in w[3:]]
        elif head == "Player":
            if finished:
                raise _notation_error(match_id, no, text, "event after the result lines")
            if any(d is None for d in deals):
                missing = [p for p in range(4) if deals[p] is None]
                raise _notation_error(match_id, no, text, f"event before the Deal of player(s) {missing}")
            events.append(_parse_action(w, match_id, no, text))
        elif head == "Fan":
            if has_fan or drawn:
                raise _notation_error(match_id, no, text, "second result line")
            fan_total, fans = _parse_fans(w, match_id, no, text)
            has_fan = finished = True
        elif head == "Score":
            if scores is not None:
                raise _notation_error(match_id, no, text, "second Score line")
            try:
                vals = tuple(int(x) for x in w[1:])
            except ValueError:
                vals = ()
            if len(vals) != 4:
                raise _notation_error(match_id, no, text, "expected 'Score s0 s1 s2 s3' (4 integers)")
            scores = vals  # type: ignore[assignment]
            finished = True
        elif head == "Huang" and len(w) == 1:
            if has_fan or drawn:
                raise _notation_error(match_id, no, text, "second result line")
            drawn = finished = True
        else:
            raise _notation_error(match_id, no, text, f"unknown line type {head!r}")

    last_no, last = lines[-1]
    if any(d is None for d in deals):
        missing = [p for p in range(4) if deals[p] is None]
        raise _notation_error(match_id, last_no, last, f"missing Deal line(s) for player(s) {missing} (truncated log?)")
    n_hu = sum(ev.action == "Hu" for ev in events)
    if not has_fan and not drawn:
        raise _notation_error(
            match_id, last_no, last, "the hand ends without a result ('Fan'/'Score' or 'Huang'): truncated log?"
        )
    if has_fan and scores is None:
        raise _notation_error(match_id, last_no, last, "a 'Fan' line without its 'Score' line (truncated log?)")
    if has_fan and n_hu == 0:
        raise _notation_error(match_id, last_no, last, "a 'Fan' result but no 'Hu' event")
    if drawn and n_hu:
        raise _notation_error(match_id, last_no, last, "'Huang' (drawn hand) after a 'Hu' event")
    return GameRecord(
        match_id=match_id,
        prevalent_wind=wind,
        deals=deals,  # type: ignore[arg-type]
        events=events,
        fan_total=fan_total,
        fans=fans,
        scores=scores,
        drawn=drawn,
        line=first_no,
    )


def parse_games(text: str) -> list[GameRecord]:
    """Parse Botzone log text into one :class:`GameRecord` per hand.

    Hands are separated by blank lines (a new ``Match`` line also starts a hand).
    Only the syntax and the shape of each hand are checked here (Match, Wind,
    four 13-tile Deals, event lines, a result); whether the events are consistent
    is checked by :func:`replay`.

    Raises :class:`~majiang.errors.InvalidNotationError` with the match id and
    line number for an unreadable line, a bad tile code, a missing Deal, or a hand
    that ends without its result (a truncated log).
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidNotationError("the log is not UTF-8 text") from None
    if not isinstance(text, str):
        raise InvalidNotationError(f"expected the log as text, got {type(text).__name__}")
    text = text.removeprefix("\ufeff")          # a byte-order mark (e.g. Notepad)
    blocks: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            if current:
                blocks.append(current)
                current = []
            continue
        if line.startswith("Match") and current:
            blocks.append(current)
            current = []
        current.append((no, line))
    if current:
        blocks.append(current)
    return [_parse_block(b) for b in blocks]


def example_path():
    """The shipped example log (``majiang/data/botzone_mcr/games.txt``), located
    with :mod:`importlib.resources`; a ``Traversable`` (a ``pathlib.Path`` for a
    normal installation) with ``read_text()`` / ``open()``."""
    return resources.files("majiang").joinpath("data", "botzone_mcr", "games.txt")


def load_games(path: str | os.PathLike | None = None) -> list[GameRecord]:
    """Read and parse a Botzone log file (UTF-8); ``None`` reads the shipped
    example (8 hands, see :func:`example_path`).  Raises as :func:`parse_games`,
    and :class:`~majiang.errors.InvalidNotationError` naming the path when the file
    cannot be read or is not UTF-8 text."""
    if path is None:
        text = example_path().read_text(encoding="utf-8")
    else:
        try:
            with open(path, "rb") as fh:
                raw = fh.read()
        except OSError as exc:
            raise InvalidNotationError(
                f"cannot read the log {os.fspath(path)!r}: {exc.strerror}") from None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidNotationError(
                f"the log {os.fspath(path)!r} is not UTF-8 text") from None
    return parse_games(text)


def example_games() -> list[GameRecord]:
    """The 8 shipped Botzone MCR hands (a fresh list each call)."""
    return load_games(None)


# ---------------------------------------------------------------- replay
class _Replayer:
    """Mutable replay of one record; ``apply`` checks and applies one event."""

    # phases: who may do what next
    _DRAW = "draw"          # self.actor must Draw (seat 0, the dealer, at the start)
    _HOLD_DRAWN = "drawn"   # self.actor holds 14 after a draw: Play/AnGang/BuGang/Hu
    _HOLD_CLAIM = "claimed" # self.actor holds 14 after Chi/Peng: Play
    _DISCARDED = "discarded"  # a discard may be claimed, else the next seat draws
    _KONG = "kong"          # self.actor declared a kong: replacement Draw (or robbing Hu)
    _OVER = "over"

    def __init__(self, record: GameRecord):
        self.record = record
        self.concealed = np.zeros((4, _NUM_KINDS), dtype=np.int16)
        self.melds: list[list[RecordMeld]] = [[] for _ in range(4)]
        self.rivers: list[list[Discard]] = [[] for _ in range(4)]
        self.table = np.zeros(_NUM_KINDS, dtype=np.int16)        # discards on the table
        self.exposed = np.zeros((4, _NUM_KINDS), dtype=np.int16)  # exposed meld tiles
        self.hidden_kongs = np.zeros((4, _NUM_KINDS), dtype=np.int16)
        self.draws = [0, 0, 0, 0]
        self.phase = self._DRAW
        self.actor: int = 0  # East (seat 0) deals and draws first
        self.last_discard: tuple[int, int] | None = None  # (seat, tile)
        self.last_kong: tuple[str, int, int] | None = None  # (action, seat, tile)
        self.drawn: int | None = None  # tile of the actor's last draw
        self.replacement = False  # the actor's last draw followed its own kong
        self.index = -1
        self.event: Event | None = None
        if len(record.deals) != 4:
            self._fail(f"{len(record.deals)} Deal hands, expected 4", line=record.line)
        for p, deal in enumerate(record.deals):
            if len(deal) != _HAND:
                self._fail(f"player {p} is dealt {len(deal)} tiles, expected {_HAND}", line=record.line)
            for t in deal:
                self.concealed[p, t] += 1
        self._check_supply(range(_NUM_KINDS), what="the deals")

    # -- errors
    def _fail(self, why: str, line: int | None = None):
        """Raise InvalidHandError naming the match, where it is (line numbers are
        1-based and known only for records parsed from text) and the event."""
        ev = self.event
        where = f"match {self.record.match_id}"
        if ev is None:                 # checks of the deals, before any event
            if self.record.line:
                where += f" (starting at line {self.record.line})"
        else:
            line = line or ev.line
            if line:
                where += f", line {line}"
            where += f" ({ev})"
        raise InvalidHandError(f"{where}: {why}")

    def _check_supply(self, kinds, what: str):
        total = (
            self.concealed.sum(axis=0) + self.exposed.sum(axis=0)
            + self.hidden_kongs.sum(axis=0) + self.table
        )
        for k in kinds:
            if total[k] > 4:
                self._fail(f"{what} put {int(total[k])} copies of {_name(k)} in play (at most 4)")

    def _take(self, p: int, t: int, n: int = 1):
        if self.concealed[p, t] < n:
            self._fail(
                f"player {p} needs {n} of {_name(t)} but holds {int(self.concealed[p, t])} "
                f"(hand {_counts_str(self.concealed[p])})"
            )
        self.concealed[p, t] -= n

    def hand_size(self, p: int) -> int:
        """Concealed tiles + 3 per meld (a kong counts 3)."""
        return int(self.concealed[p].sum()) + 3 * len(self.melds[p])

    def _check_sizes(self):
        holding = self.actor if self.phase in (self._HOLD_DRAWN, self._HOLD_CLAIM, self._OVER) else None
        for p in range(4):
            want = 14 if p == holding else 13
            got = self.hand_size(p)
            if got != want:
                self._fail(
                    f"player {p} holds {got} tile-equivalents (concealed + 3 per meld), "
                    f"expected {want}"
                )

    def _claim_last_discard(self, p: int, action: str) -> int:
        """Checks a claim (Chi/Peng/Gang/Hu) on the last discard; returns the discard."""
        if self.phase != self._DISCARDED or self.last_discard is None:
            self._fail(f"{action} without a discard to claim")
        seat, tile = self.last_discard
        if seat == p:
            self._fail(f"player {p} claims its own discard")
        return tile

    def _mark_claimed(self, p: int):
        seat, tile = self.last_discard
        river = self.rivers[seat]
        river[-1] = Discard(river[-1].tile, p)
        self.table[tile] -= 1
        self.last_discard = None

    def _check_ignored(self, ev: Event):
        """Losing claims on the same discard: plausible, but never applied."""
        if self.phase != self._DISCARDED or self.last_discard is None:
            self._fail("'Ignore' claims without a discard to claim")
        seat, tile = self.last_discard
        seen = {ev.player}
        for ig in ev.ignored:
            q, t = ig.player, ig.tile
            if q == seat or q in seen:
                self._fail(f"ignored claim by player {q}, who cannot claim this discard")
            seen.add(q)
            need: list[int] = []
            if ig.action == "Chi":
                if q != (seat + 1) % 4 or t >= 27 or t % 9 in (0, 8) or tile // 9 != t // 9 or abs(tile - t) > 1:
                    self._fail(f"ignored Chi {_name(t)} by player {q} is impossible on {_name(tile)}")
                need = [k for k in (t - 1, t, t + 1) if k != tile]
            elif ig.action in ("Peng", "Gang"):
                if t != tile:
                    self._fail(f"ignored {ig.action} {_name(t)} on a discarded {_name(tile)}")
                need = [t] * (2 if ig.action == "Peng" else 3)
            elif ig.action == "Hu":
                if t != tile:
                    self._fail(f"ignored Hu on {_name(t)} but the discard is {_name(tile)}")
            else:
                self._fail(f"ignored {ig.action}: only Chi/Peng/Gang/Hu claims can lose on priority")
            have = np.bincount(need, minlength=_NUM_KINDS) if need else None
            if have is not None and np.any(have > self.concealed[q]):
                self._fail(
                    f"ignored {ig.action} {_name(t)} by player {q}, who lacks the tiles "
                    f"(hand {_counts_str(self.concealed[q])})"
                )

    # -- one event
    def apply(self, index: int, ev: Event):
        self.index, self.event = index, ev
        p, t, a = ev.player, ev.tile, ev.action
        if not (0 <= p < 4) or not (0 <= t < _NUM_KINDS):
            self._fail("seat or tile out of range")
        if self.phase == self._OVER:
            self._fail("event after the winning Hu")
        if ev.ignored:
            self._check_ignored(ev)

        if a == "Draw":
            if self.phase == self._DRAW:
                if p != self.actor:
                    self._fail(f"player {p} draws out of turn (player {self.actor} is due)")
                self.replacement = False
            elif self.phase == self._DISCARDED:
                due = (self.last_discard[0] + 1) % 4
                if p != due:
                    self._fail(f"player {p} draws out of turn (player {due} is due)")
                self.last_discard = None
                self.replacement = False
            elif self.phase == self._KONG:
                if p != self.actor:
                    self._fail(f"player {p} draws after player {self.actor}'s kong")
                self.replacement = True
            else:
                self._fail(f"Draw while player {self.actor} must discard")
            if sum(self.draws) >= _WALL_TOTAL:
                self._fail(f"more than {_WALL_TOTAL} draws: the wall holds no more tiles")
            self.concealed[p, t] += 1
            self.draws[p] += 1
            self._check_supply([t], what=f"player {p}'s draw")
            self.actor, self.drawn, self.phase = p, t, self._HOLD_DRAWN
            self.last_kong = None

        elif a == "Play":
            if self.phase not in (self._HOLD_DRAWN, self._HOLD_CLAIM) or p != self.actor:
                self._fail(f"player {p} discards out of turn")
            self._take(p, t)
            self.rivers[p].append(Discard(t))
            self.table[t] += 1
            self.last_discard = (p, t)
            self.phase, self.drawn, self.replacement = self._DISCARDED, None, False

        elif a == "Chi":
            claimed = self._claim_last_discard(p, a)
            seat = self.last_discard[0]
            if p != (seat + 1) % 4:
                self._fail(f"player {p} may chow only from player {(p - 1) % 4}, not from player {seat}")
            if t >= 27 or t % 9 in (0, 8):
                self._fail(f"{_name(t)} cannot be the middle tile of a chow")
            if claimed // 9 != t // 9 or abs(claimed - t) > 1:
                self._fail(f"the claimed {_name(claimed)} is not in the chow around {_name(t)}")
            self._mark_claimed(p)
            for k in (t - 1, t, t + 1):
                if k != claimed:
                    self._take(p, k)
                self.exposed[p, k] += 1
            self.melds[p].append(RecordMeld("chow", t - 1, False))
            self.actor, self.phase = p, self._HOLD_CLAIM

        elif a in ("Peng", "Gang"):
            claimed = self._claim_last_discard(p, a)
            if claimed != t:
                self._fail(f"{a} {_name(t)} on a discarded {_name(claimed)}")
            n = 2 if a == "Peng" else 3
            self._mark_claimed(p)
            self._take(p, t, n)
            self.exposed[p, t] += n + 1
            self.melds[p].append(RecordMeld("pung" if a == "Peng" else "kong", t, False))
            self.actor = p
            if a == "Peng":
                self.phase = self._HOLD_CLAIM
            else:
                self.phase, self.last_kong = self._KONG, (a, p, t)

        elif a == "AnGang":
            if self.phase != self._HOLD_DRAWN or p != self.actor:
                self._fail(f"player {p} declares a concealed kong without having drawn")
            self._take(p, t, 4)
            self.hidden_kongs[p, t] += 4
            self.melds[p].append(RecordMeld("kong", t, True))
            self.phase, self.last_kong = self._KONG, (a, p, t)

        elif a == "BuGang":
            if self.phase != self._HOLD_DRAWN or p != self.actor:
                self._fail(f"player {p} adds to a kong without having drawn")
            for i, m in enumerate(self.melds[p]):
                if m.kind == "pung" and m.tile == t and not m.concealed:
                    break
            else:
                self._fail(f"player {p} has no exposed pung of {_name(t)} to add to")
            self._take(p, t)
            self.melds[p][i] = RecordMeld("kong", t, False)
            self.exposed[p, t] += 1
            self.phase, self.last_kong = self._KONG, (a, p, t)

        elif a == "Hu":
            self._apply_hu(p, t)

        else:  # pragma: no cover - parse_games admits only ACTIONS
            self._fail(f"unknown action {a!r}")
        self._check_sizes()

    def _apply_hu(self, p: int, t: int):
        """Record the win context in self.win_info and end the hand."""
        kong_replacement = robbing = False
        if self.phase == self._HOLD_DRAWN and p == self.actor:
            if t != self.drawn:
                self._fail(f"self-drawn Hu on {_name(t)} but player {p} drew {_name(self.drawn)}")
            self_drawn, discarder = True, None
            kong_replacement = self.replacement
            self._take(p, t)  # concealed before the win tile
            actor = p
        elif self.phase == self._DISCARDED:
            claimed = self._claim_last_discard(p, "Hu")
            if claimed != t:
                self._fail(f"Hu on {_name(t)} but the last discard is {_name(claimed)}")
            self_drawn, discarder = False, self.last_discard[0]
            actor = discarder
        elif self.phase == self._KONG and self.last_kong and self.last_kong[0] == "BuGang":
            _, seat, tile = self.last_kong
            if seat == p:
                self._fail(f"player {p} robs its own kong")
            if tile != t:
                self._fail(f"robbing Hu on {_name(t)} but the added kong is of {_name(tile)}")
            self_drawn, discarder, robbing = False, seat, True
            actor = seat
        else:
            self._fail(f"player {p} cannot win now (no own draw, discard or added kong to win on)")

        before = self.concealed[p].copy()
        if before.sum() + 3 * len(self.melds[p]) != 13:
            self._fail(
                f"player {p} wins with {int(before.sum()) + 3 * len(self.melds[p]) + 1} "
                "tile-equivalents, expected 14"
            )
        own_melds = sum(
            (np.bincount(m.tiles(), minlength=_NUM_KINDS) for m in self.melds[p]),
            start=np.zeros(_NUM_KINDS, dtype=np.int64),
        )
        # copies of t outside the winner's hand, before the win tile arrived
        others_exposed = self.exposed.sum(axis=0) - self.exposed[p]
        table_t = int(self.table[t]) - (0 if self_drawn or robbing else 1)
        others_t = int(others_exposed[t]) - (1 if robbing else 0)
        shown = table_t + others_t + int(self.exposed[p, t])
        known = int(before[t]) + int(own_melds[t]) + table_t + others_t + 1
        nxt = (actor + 1) % 4
        fits = all(d <= WALL_PER_PLAYER for d in self.draws)
        self.win_info = dict(
            player=p,
            concealed=before.astype(np.uint8),
            melds=tuple(self.melds[p]),
            win_tile=t,
            self_drawn=self_drawn,
            discarder=discarder,
            last_copy=known == 4,
            win_tile_shown=shown,
            kong_replacement=kong_replacement,
            robbing_kong=robbing,
            wall_last=(self.draws[nxt] == WALL_PER_PLAYER) if fits else None,
            wall_remaining=tuple(WALL_PER_PLAYER - d for d in self.draws),
        )
        # move the tile to the winner (a robbed kong reverts to a pung)
        if robbing:
            seat = discarder
            for i, m in enumerate(self.melds[seat]):
                if m.kind == "kong" and m.tile == t and not m.concealed:
                    self.melds[seat][i] = RecordMeld("pung", t, False)
                    break
            self.exposed[seat, t] -= 1
        elif not self_drawn:
            self._mark_claimed(p)
        self.concealed[p, t] += 1
        self.actor, self.phase = p, self._OVER

    def visible(self) -> np.ndarray:
        """uint8 (4, 34): per seat, table discards + others' exposed meld tiles."""
        others = self.exposed.sum(axis=0)[None, :] - self.exposed
        return (self.table[None, :] + others).astype(np.uint8)

    def snapshot(self) -> ReplayState:
        return ReplayState(
            index=self.index,
            event=self.event,
            concealed=self.concealed.astype(np.uint8),
            melds=tuple(tuple(m) for m in self.melds),
            discards=tuple(tuple(r) for r in self.rivers),
            visible=self.visible(),
            draws=tuple(self.draws),
            last_discard=self.last_discard,
        )


def replay(record: GameRecord) -> Iterator[ReplayState]:
    """Replay a record; yields one :class:`ReplayState` after each event, in
    event order (``len(record.events)`` states).

    Semantics: ``Chi t`` makes the chow ``t-1, t, t+1`` from the previous seat's
    last discard (which leaves that seat's table river, marked claimed) and two
    tiles of the hand; ``Peng``/``Gang`` claim the last discard with 2/3 tiles of
    the hand; ``AnGang`` moves 4 concealed tiles into a concealed kong;
    ``BuGang`` moves one tile of the hand onto the seat's exposed pung; a kong is
    followed by the replacement ``Draw``.  ``Hu`` wins on the seat's own draw, the
    last discard, or another seat's ``BuGang`` tile (the robbed kong reverts to a
    pung); the winner's state then holds 14 tile-equivalents.  ``Ignore`` claims
    are not applied.

    Checked on every event (:class:`~majiang.errors.InvalidHandError` naming the
    match id, line and event): turn order (draw by the seat after the discarder
    unless a claim intervenes; chow only from the previous seat; kongs only after
    one's own draw or on a discard; a replacement draw after every kong), tiles
    taken from a hand exist there, never more than 4 copies of a kind in play, no
    more than 84 draws in all, each seat holds 13 tile-equivalents (concealed + 3
    per meld) between turns and 14 while it must discard.
    """
    r = _Replayer(record)
    for i, ev in enumerate(record.events):
        r.apply(i, ev)
        yield r.snapshot()


def decision_points(record: GameRecord) -> Iterator[Decision]:
    """Yield a :class:`Decision` for every discard (``Play``) of any seat, in
    order, with the hand right before the discard.  The record is replayed and
    validated as in :func:`replay` (same errors)."""
    r = _Replayer(record)
    for i, ev in enumerate(record.events):
        if ev.action == "Play" and r.actor == ev.player and r.phase in (r._HOLD_DRAWN, r._HOLD_CLAIM):
            p = ev.player
            decision = Decision(
                game=record.match_id,
                turn_index=i,
                player=p,
                concealed=r.concealed[p].astype(np.uint8),
                melds=tuple(r.melds[p]),
                visible=r.visible()[p],
                discard=ev.tile,
                seat_wind=p,
                prevalent_wind=record.prevalent_wind,
                drawn=r.drawn if r.phase == r._HOLD_DRAWN else None,
            )
            r.apply(i, ev)  # validates the discard before it is handed out
            yield decision
        else:
            r.apply(i, ev)


def wins(record: GameRecord) -> list[Win]:
    """The winning situations of a record (one per ``Hu`` event; Botzone has no
    multiple winners, so at most one), after replaying and validating the whole
    record as :func:`replay` does.  See :class:`Win` for the fields; the fans and
    scores are the recorded ones."""
    r = _Replayer(record)
    out: list[Win] = []
    for i, ev in enumerate(record.events):
        r.apply(i, ev)
        if ev.action == "Hu":
            info = r.win_info
            out.append(
                Win(
                    game=record.match_id,
                    turn_index=i,
                    seat_wind=info["player"],
                    prevalent_wind=record.prevalent_wind,
                    fan_total=record.fan_total,
                    fans=tuple(record.fans),
                    scores=record.scores,
                    **info,
                )
            )
    return out

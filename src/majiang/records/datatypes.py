"""The data types of a Botzone record (:mod:`majiang.records`): the parsed log
(:class:`Event`, :class:`GameRecord`) and what a replay yields (:class:`RecordMeld`,
:class:`Discard`, :class:`ReplayState`, :class:`Decision`, :class:`Win`).

Tiles are kind indices 0..33; count vectors are ``numpy.uint8`` arrays of shape ``(34,)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from .codes import WALL_PER_PLAYER, botzone_code


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
            from ..hand import chow_tiles
            return sorted(chow_tiles(self.tile))
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

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

The package is split by concept: :mod:`.codes` (Botzone tile codes), :mod:`.datatypes`
(the record and replay types), :mod:`.parse` (reading the text) and :mod:`.replay`
(replaying and extracting decisions and wins); every name is importable from
``majiang.records``.
"""

from __future__ import annotations

from .codes import ACTIONS, WALL_PER_PLAYER, botzone_code, botzone_tile
from .parse import example_games, example_path, load_games, parse_games
from .replay import decision_points, replay, wins
from .datatypes import Decision, Discard, Event, GameRecord, RecordMeld, ReplayState, Win

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

"""Botzone tile codes and the constants of a Botzone log (:mod:`majiang.records`).

``W1``-``W9``, ``B1``-``B9``, ``T1``-``T9`` are the three suits, ``F1``-``F4`` the
winds and ``J1``-``J3`` the dragons; :func:`botzone_tile` / :func:`botzone_code`
convert them to and from the toolkit's 34 kind indices.  Also the small message
helpers the parser and the replay share.
"""

from __future__ import annotations

import numpy as np

from majiang.errors import InvalidNotationError

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

"""Chows as tile kinds: which three kinds a chow holds and which chows hold a kind.

A suited chow is three successive ranks of one suit, named by its lowest tile (rank
1..7, it never wraps); where a ruleset plays honour chows (南昌, ``RuleSpec.honor_chows``)
three different winds or the three dragons are a chow too, named by its start
(:data:`HONOR_CHOW_STARTS`).  :mod:`majiang.hand` re-exports these names (melds and
decompositions name their chows this way).
"""
from __future__ import annotations

from collections.abc import Iterable

from .errors import InvalidHandError
from .tiles import N_SUITED, tile_name

__all__ = ["HONOR_CHOW_STARTS", "chow_tiles", "chows_holding", "honor_chow_start"]


HONOR_CHOW_STARTS = (27, 28, 29, 30, 31)
"""Starts of the honour chows (南昌: three different winds, or the three dragons), which
only a ruleset with ``RuleSpec.honor_chows`` plays: a chow is three successive kinds of
a cycle, and for the winds the cycle is 东→南→西→北→东 (the cycle of the 副精), so each
of the four three-wind chows starts after the wind it lacks — 27 东南西, 28 南西北,
29 西北东, 30 北东南 — and 31 is the dragon chow (all three dragons).  A suited chow starts
at rank 1..7 and never wraps."""


def chow_tiles(start: int) -> tuple[int, int, int]:
    """The three kinds of the chow starting at ``start`` (unsorted, in cycle order):
    ``(s, s + 1, s + 2)`` for a suited start, the winds after ``start`` in 东南西北 for
    27..30, the three dragons for 31 (:data:`HONOR_CHOW_STARTS`)."""
    if start < 27 or start == 31:
        return (start, start + 1, start + 2)
    return (start, 27 + (start - 26) % 4, 27 + (start - 25) % 4)


def chows_holding(kind: int, honor_chows: bool = False) -> tuple[int, ...]:
    """The starts of the chows holding ``kind``, ascending: the suited chows around a
    suited kind, and with ``honor_chows`` (:data:`HONOR_CHOW_STARTS`) the three-wind
    chows holding a wind (three of them) or the dragon chow."""
    if kind < 27:
        return tuple(a for a in (kind - 2, kind - 1, kind)
                     if a >= 0 and a // 9 == kind // 9 and a % 9 <= 6)
    if not honor_chows:
        return ()
    return tuple(s for s in HONOR_CHOW_STARTS if kind in chow_tiles(s))


def honor_chow_start(tiles: Iterable[int]) -> int | None:
    """The start (:data:`HONOR_CHOW_STARTS`) of the honour chow made of these three
    kinds, or None when they are not three different winds or the three dragons."""
    t = sorted(int(x) for x in tiles)
    if len(t) != 3 or len(set(t)) != 3 or t[0] < 27:
        return None
    if t == [31, 32, 33]:
        return 31
    if t[2] > 30:
        return None
    missing = ({27, 28, 29, 30} - set(t)).pop()
    return 27 + (missing - 26) % 4


def _check_chow_start(tile: int, what: str) -> None:
    if (tile >= N_SUITED or tile % 9 > 6) and tile not in HONOR_CHOW_STARTS:
        raise InvalidHandError(
            f"{what}: no chow starts at {tile_name(tile)} "
            "(chows are 3 consecutive tiles of one suit, lowest tile 1..7, or, where a "
            "ruleset plays honour chows, three different winds or the three dragons)")

"""Knitted-tile winning forms of Chinese Official rules, in plain Python.

* 组合龙 (knitted straight, "knitted_straight" form): 147 of one suit, 258 of
  another and 369 of the third ("不能错位": each suit keeps its own group),
  completed by one more set and a pair.  The 9 knitted tiles are concealed; the
  extra set may be a meld.
* 全不靠 (honors and knitted tiles, "honors_and_knitted" form): 14 different
  tiles taken from one knitted straight's 9 tiles and the 7 honors; no pair.
  With all seven honors it is 七星不靠.

Source: Chinese Official rules, fans 20 七星不靠, 34 全不靠, 35 组合龙 (ENC,
docs/rules/mcr.md §2).  Counts are sequences of 34 ints (any count, so shape-based
wait checks may probe a fifth copy).
"""
from __future__ import annotations

from itertools import permutations

__all__ = ["KNITTED_STRAIGHTS", "knitted_straight_decompositions", "honors_and_knitted",
           "is_knitted_straight_complete"]

KNITTED_STRAIGHTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(suit * 9 + g + 3 * k for suit, g in enumerate(groups) for k in range(3)))
    for groups in permutations(range(3)))
"""The six knitted straights as sorted tuples of 9 kind indices (groups 147/258/369
assigned to characters, dots, bamboo)."""

_HONORS = range(27, 34)


def _set_and_pair(rest: list[int], n_sets: int) -> list[tuple[int, tuple]]:
    """Decompositions of a small remainder into `n_sets` sets (0 or 1) and a pair."""
    out = []
    for p in range(34):
        if rest[p] < 2:
            continue
        rest[p] -= 2
        if n_sets == 0:
            if not any(rest):
                out.append((p, ()))
        else:
            left = [i for i, c in enumerate(rest) if c]
            if len(left) == 1 and rest[left[0]] == 3:
                out.append((p, (("pung", left[0]),)))
            elif (len(left) == 3 and left[0] < 27 and left[1] == left[0] + 1
                  and left[2] == left[0] + 2 and left[0] // 9 == left[2] // 9
                  and rest[left[0]] == rest[left[1]] == rest[left[2]] == 1):
                out.append((p, (("chow", left[0]),)))
        rest[p] += 2
    return out


def knitted_straight_decompositions(counts, n_melds: int) -> list[tuple[tuple, int, tuple]]:
    """Every reading of a complete hand as a knitted straight + set + pair.

    Parameters
    ----------
    counts : sequence of 34 int
        Concealed tiles, win tile included (``14 - 3 * n_melds`` tiles).
    n_melds : int
        Declared melds; at most 1 fits this form (the 9 knitted tiles are concealed).

    Returns
    -------
    list of (knitted, pair, sets)
        ``knitted`` the 9 tiles (sorted), ``pair`` the pair tile, ``sets`` the
        concealed extra set as ``(("chow" | "pung", tile),)`` or ``()`` when the
        extra set is a meld.
    """
    n_sets = 1 - n_melds
    if n_sets < 0:
        return []
    out = []
    for ks in KNITTED_STRAIGHTS:
        if all(counts[t] for t in ks):
            rest = list(counts)
            for t in ks:
                rest[t] -= 1
            for pair, sets in _set_and_pair(rest, n_sets):
                out.append((ks, pair, sets))
    return out


def is_knitted_straight_complete(counts, n_melds: int) -> bool:
    """True when the tiles form a knitted straight + set + pair (see above)."""
    return bool(knitted_straight_decompositions(counts, n_melds))


def honors_and_knitted(counts, n_melds: int = 0) -> tuple[int, ...] | None:
    """The suited knitted tiles of an honors-and-knitted hand (全不靠), else None.

    Parameters
    ----------
    counts : sequence of 34 int
        The 14 concealed tiles (win tile included); the form allows no meld.
    n_melds : int

    Returns
    -------
    tuple of int or None
        The suited tiles (7, 8 or 9 of one knitted straight), sorted; None when the
        hand is not of this form.
    """
    if n_melds or sum(counts) != 14 or max(counts) > 1:
        return None
    suited = tuple(t for t in range(27) if counts[t])
    for ks in KNITTED_STRAIGHTS:
        if all(t in ks for t in suited):
            return suited
    return None

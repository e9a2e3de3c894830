"""Waits judged by shape: the kinds one more copy of which completes the hand.

Used by :func:`waits` and by the engines for 独听 (a single waiting kind).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from .. import rules as _rules
from ..errors import InvalidHandError
from ..hand import as_hand
from ..rules.knitted import KNITTED_STRAIGHTS, honors_and_knitted, knitted_straight_decompositions
from ..tiles import TERMINALS_AND_HONORS, tile_name

__all__ = ["waits"]

_ORPHANS = tuple(TERMINALS_AND_HONORS)


@lru_cache(maxsize=1 << 16)
def _group_ok(tup: tuple, honors: bool) -> bool:
    """Can a suit's (or the honors') counts be split into sets, plus one pair when
    their number is 3n+2?  Counts may exceed 4 (shape-based checks)."""
    n = sum(tup)
    if n == 0:
        return True
    if n % 3 == 1:
        return False
    return _split(tup, n % 3 == 2, honors)


def _split(tup: tuple, pair: bool, honors: bool) -> bool:
    i = 0
    while tup[i] == 0:
        i += 1
        if i == len(tup):
            return not pair
    c = list(tup)
    if c[i] >= 3:
        c[i] -= 3
        if _rest_ok(c, pair, honors):
            return True
        c[i] += 3
    if pair and c[i] >= 2:
        c[i] -= 2
        if _rest_ok(c, False, honors):
            return True
        c[i] += 2
    if not honors and i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        if _rest_ok(c, pair, honors):
            return True
    return False


def _rest_ok(c: list, pair: bool, honors: bool) -> bool:
    if not any(c):
        return not pair
    return _split(tuple(c), pair, honors)


_GROUPS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))


def _regular_complete(c: list, n_melds: int) -> bool:
    pairs = 0
    for lo, hi, honors in _GROUPS:
        tup = tuple(c[lo:hi])
        n = sum(tup)
        if n % 3 == 1:
            return False
        if n % 3 == 2:
            pairs += 1
            if pairs > 1:
                return False
        if not _group_ok(tup, honors):
            return False
    return pairs == 1 and sum(c) == 14 - 3 * n_melds


def _complete(c: list, n_melds: int, forms, quads: bool) -> bool:
    if "regular" in forms and _regular_complete(c, n_melds):
        return True
    if n_melds == 0 and sum(c) == 14:
        if "seven_pairs" in forms and all(x % 2 == 0 and (quads or x <= 2) for x in c):
            return True
        if "thirteen_orphans" in forms and all(c[t] for t in _ORPHANS) and \
                sum(c[t] for t in _ORPHANS) == 14:
            return True
        if "honors_and_knitted" in forms and honors_and_knitted(c, 0) is not None:
            return True
    if "knitted_straight" in forms and n_melds <= 1 and knitted_straight_decompositions(c, n_melds):
        return True
    return False


def _wait_candidates(c: list, forms) -> list[int]:
    cand = set()
    for t in range(34):
        if c[t]:
            cand.add(t)
            if t < 27:
                r = t % 9
                for d in (-2, -1, 1, 2):
                    if 0 <= r + d <= 8:
                        cand.add(t + d)
    special = [f for f in forms if f in ("thirteen_orphans", "honors_and_knitted",
                                          "knitted_straight")]
    if special:
        distinct = sum(1 for x in c if x)
        if distinct >= 11:
            cand.update(range(34))
        elif "knitted_straight" in special:
            for ks in KNITTED_STRAIGHTS:
                if sum(1 for t in ks if c[t]) >= 8:
                    cand.update(ks)
    return sorted(cand)


def _waits_counts(c: list, n_melds: int, forms, quads: bool) -> list[int]:
    out = []
    for t in _wait_candidates(c, forms):
        c[t] += 1
        if _complete(c, n_melds, forms, quads):
            out.append(t)
        c[t] -= 1
    return out


def waits(hand: Any, *, ruleset: Any = "mcr") -> list[str]:
    """The waiting tiles of a 13-tile hand, judged by shape.

    A kind is a wait when one more copy completes the hand in one of the
    ruleset's winning forms, whether or not a copy is left to draw (Chinese
    Official rules judge 独听 — 边张 / 坎张 / 单钓将 — by the hand's shape).

    Parameters
    ----------
    hand : str or Hand
        The hand before the win (13 tile-equivalents).
    ruleset : str or Ruleset

    Returns
    -------
    list of str
        Tile names in tile order (empty when the hand is not tenpai).

    Raises
    ------
    InvalidHandError, InvalidNotationError, RuleError
    """
    rs = _rules.get(ruleset)
    h = as_hand(hand, hand_size=rs.hand_size)
    if h.n_tiles != rs.hand_size:
        raise InvalidHandError(f"waits need a {rs.hand_size}-tile hand, got {h.n_tiles}")
    c = [int(x) for x in h.concealed]
    return [tile_name(t) for t in _waits_counts(c, len(h.melds), rs.forms, rs.seven_pairs_quads)]


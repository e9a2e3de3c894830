"""Score a joker hand written with the jokers by their faces and the turned indicator.

:func:`majiang.score` takes jokers as ``*``: wild tiles whose face is not known.  Some
values depend on the faces: 南昌 德国 (no 精 acting as a wild — a 精 standing for its
own face is natural) and 天津 银杠胡 / 金杠胡 / 本混龙 (which 混儿 kind is held).  Here the
hand is written as the tiles look, e.g. ``"1122m3344p5566s7z"`` with indicator ``"1m"``
(南昌: 1m 正精, 2m 副精), and :func:`score`

1. finds the wild kinds from the indicator (one kind, or two: 南昌, 天津);
2. turns every held copy of them into a ``*`` (a winning tile of a wild kind is a
   joker win), and publishes the copies of each wild kind held — concealed, in melds
   and the win tile — in :data:`majiang.rules.base.WILD_HELD` while scoring;
3. when the ruleset's :attr:`JokerRule.own_face_natural` is set, also scores the hand
   as written (every joker standing for its own face, a natural tile), and returns the
   reading with more points.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import rules as _rules
from ..errors import InvalidHandError, RuleError
from ..hand import Hand, as_hand
from ..rules.base import WILD_HELD
from ..tiles import parse_tile
from .regional import score as _score

__all__ = ["score"]


def score(hand: Any, win_tile: Any = None, *, ruleset: Any, indicator: Any = None,
          **context: Any):
    """Score a win with the jokers written by their faces (see the module notes).

    Parameters
    ----------
    hand : str or Hand
        The hand before the winning tile, jokers by their faces (``*`` also accepted:
        a joker of unknown face).
    win_tile : str or int
        The winning tile (a wild kind's face = a joker drawn).
    ruleset : str or Ruleset
        A ruleset with jokers (南昌, 天津 …).
    indicator : str or int
        The turned tile (not needed for a fixed joker).
    **context
        ``self_drawn``, ``kong``, ``seat_wind``, ``first_turn`` … as
        :func:`majiang.score`.

    Returns
    -------
    RegionalResult
        The best reading (most points).

    Raises
    ------
    RuleError
        A ruleset without jokers, a missing or bad indicator.
    InvalidHandError
        No reading wins; more copies of a wild kind than the ruleset has.
    """
    rs = _rules.get(ruleset)
    if rs.jokers is None:
        raise RuleError(f"ruleset {rs.name} has no jokers; use majiang.score")
    kinds = rs.jokers.kinds(indicator)
    copies = rs.jokers.kind_copies
    h = as_hand(hand, hand_size=rs.hand_size)
    win = None if win_tile is None else (parse_tile(win_tile) if isinstance(win_tile, str)
                                         else int(win_tile))
    c = np.array(h.concealed, dtype=np.uint8)
    held, n = [], 0
    for k, cp in zip(kinds, copies):
        count = int(c[k]) + sum(m.tiles.count(k) for m in h.melds) + int(win == k)
        if count > cp and not any(m.tiles.count(k) for m in h.melds):
            raise InvalidHandError(f"the hand holds {count} of a wild kind of which "
                                   f"{rs.name} has {cp} wild copies")
        held.append(count)
        n += int(c[k])
        c[k] = 0
    found, err = [], None
    token = WILD_HELD.set((tuple(kinds), tuple(held)))
    try:
        if rs.jokers.own_face_natural and win is not None:
            try:
                found.append(_score(h, win, ruleset=rs, **context))
            except InvalidHandError as e:
                err = e
        wild_win = win is not None and win in kinds
        if n or wild_win or not rs.jokers.own_face_natural:
            h2 = Hand(c, h.melds, h.flowers, h.jokers + n)
            try:
                found.append(_score(h2, None if wild_win else win, ruleset=rs,
                                    win_is_joker=wild_win, **context))
            except InvalidHandError as e:
                err = e
    finally:
        WILD_HELD.reset(token)
    if not found:
        raise err
    return max(found, key=lambda r: r.points)

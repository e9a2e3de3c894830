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
3. with a substitute kind (:attr:`JokerRule.substitute`: 安庆 红中; 温州, 上海百搭
   活动百搭 and 杭州 ``caishen="flip"``: 白板) turns every held stand-in — concealed, in a
   pung / kong, or the winning tile — into the joker kind's face, the natural tile it
   plays as (温州 docs/rules/wenzhou.md §2 "白板 … plays as that tile"), so 双财归位 / 三财归位 see a 白板
   playing as the 财神's face beside the 财神 themselves; not when the substitute is
   itself the wild kind (温州 with a 白板 turned: the 白板 are the 财神);
4. when the ruleset's :attr:`JokerRule.own_face_natural` is set, also scores the hand
   as written (every joker standing for its own face, a natural tile), and returns the
   reading with more points.

The front doors take this path: :func:`majiang.score` and THE win predicate
:func:`majiang.scoring.check_win` given ``indicator=`` hand the hand over to
:func:`score` (through :func:`by_faces`); a ``*`` beside the faces is a joker of no
given face, which the fans reading the faces do not count (:func:`faces_matter`).  The
analyses read the same notation (:func:`majiang.efficiency.read_faces`), and the game
engine scores the wins of such rulesets by the faces of the held tiles.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import rules as _rules
from ..errors import InvalidHandError, RuleError
from ..hand import Hand, Meld, _trusted_hand, as_hand
from ..rules.base import WILD_HELD
from ..tiles import parse_tile, tile_name
from .regional import _fixed_face_hand
from .regional import score as _score

__all__ = ["score", "by_faces", "faces_matter", "regional_score", "held_faces", "check_by_faces",
           "FACES_TAG"]

FACES_TAG = "wild_held"
"""The tag of a fan whose predicate reads :data:`WILD_HELD` (which wild kinds are held):
天津 素胡 / 本混龙 / 银杠胡 / 金杠胡."""


def faces_matter(ruleset: Any) -> bool:
    """Whether the value of a win under `ruleset` depends on the faces of the wild tiles
    held: the ruleset has jokers and either a joker standing for its own face is natural
    (:attr:`JokerRule.own_face_natural`, 南昌 德国) or a fan is tagged :data:`FACES_TAG`
    (it reads :data:`WILD_HELD`, 天津).  The engine scores such wins by the faces.

    Raises
    ------
    RuleError
        Unknown ruleset.
    """
    rs = _rules.get(ruleset)
    jr = rs.jokers
    if jr is None:
        return False
    return bool(jr.own_face_natural or any(FACES_TAG in f.tags for f in rs.fans))


def by_faces(hand: Any, win_tile: Any = None, *, ruleset: Any, indicator: Any,
             jokers: int = 0, win_is_joker: bool = False, **context: Any):
    """The front doors' hand-off (:func:`majiang.score` / :func:`check_win` given
    ``indicator=``): :func:`score`.

    The hand is written as its tiles look (the notation of every front door once the
    wild kinds are known: :func:`majiang.efficiency.read_faces`); a ``*`` may stand
    beside the faces for a joker whose face is not given.  Under a ruleset whose values
    read the faces (:func:`faces_matter`: 天津 银杠胡 / 金杠胡 / 本混龙 / 素胡, 南昌 德国) only
    the wild tiles written by their faces count as held by face: a ``*`` is a joker of
    no known face (never a 银杠 / 金杠 copy, never its own face) — write the faces to have
    them counted.

    Raises
    ------
    InvalidHandError
        ``jokers`` or ``win_is_joker`` (with a turned indicator a joker drawn is the
        winning tile by its face, and a held joker is a face or ``*`` in the hand); no
        winning tile.
    RuleError
        As :func:`score` (no jokers in the ruleset, a bad indicator).
    """
    rs = _rules.get(ruleset)
    if jokers or win_is_joker:
        raise InvalidHandError("with a turned indicator the wild tiles are written in the "
                               "hand, by their faces or as '*', and a joker drawn as the "
                               "winning tile by its face; a separate joker count or a "
                               "'winning joker' flag is for hands scored without the "
                               "indicator")
    if win_tile is None:
        raise InvalidHandError("with a turned indicator give the winning tile by its face "
                               "(a wild kind's face for a joker drawn)")
    return score(hand, win_tile, ruleset=rs, indicator=indicator, **context)


def score(hand: Any, win_tile: Any = None, *, ruleset: Any, indicator: Any = None,
          **context: Any):
    """Score a win with the jokers written by their faces (see the module notes).

    Parameters
    ----------
    hand : str or Hand
        The hand before the winning tile, jokers by their faces (``*`` also accepted:
        a joker of unknown face), a stand-in by its own face (``5z`` 白板, ``7z`` 红中).
    win_tile : str or int
        The winning tile (a wild kind's face = a joker drawn; the substitute = a stand-in
        drawn, played as the wild kind's face).
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
        No reading wins; more copies of a wild kind than the ruleset has; more
        stand-ins than the joker kind's face can take.
    """
    rs = _rules.get(ruleset)
    if rs.jokers is None:
        raise RuleError(f"ruleset {rs.name} has no jokers; use majiang.score")
    if indicator is not None:       # a rule reading the turned kind (武汉 痞子)
        from ..rules.derived import with_indicator
        rs = with_indicator(rs, indicator)
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
    wild_win = win is not None and win in kinds
    sub = _stand_in(rs, indicator)
    if sub is not None:           # stand-ins play as the wild kind's face (natural)
        face, st = sub
        melds = tuple(Meld(m.kind, face, m.concealed) if m.tile == st and m.kind != "chow"
                      else m for m in h.melds)
        written = np.array(h.concealed, dtype=np.uint8)
        moved = int(c[st])
        for arr in (c, written):
            arr[face] += moved
            arr[st] = 0
        if win == st:
            win = face
        if (int(c[face]) + sum(m.tiles.count(face) for m in melds)
                + int(win == face and not wild_win) > 4):
            raise InvalidHandError(f"more than 4 tiles play as {tile_name(face)} (the "
                                   f"stand-in {tile_name(st)} with the natural copies)")
        if moved or melds != h.melds:
            h = Hand(written, melds, h.flowers, h.jokers)
    found, err = [], None
    token = WILD_HELD.set((tuple(kinds), tuple(held)))
    try:
        if rs.jokers.own_face_natural and win is not None:
            try:
                found.append(_score(h, win, ruleset=rs, **context))
            except InvalidHandError as e:
                err = e
        if n or wild_win or not rs.jokers.own_face_natural:
            if h.jokers + n <= 8:       # Hand()'s checks: h passed them, c has fewer tiles
                c.flags.writeable = False
                h2 = _trusted_hand(c, h.melds, h.flowers, h.jokers + n)
            else:
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


def _stand_in(rs, indicator):
    """``(face, substitute)`` when a substitute kind plays as the wild kind's face, or
    None (no substitute; the substitute is itself the wild kind)."""
    jr = rs.jokers
    if jr.substitute is None or jr.second is not None:
        return None
    face = jr.kind(indicator)
    return None if face == jr.substitute else (int(face), int(jr.substitute))


def regional_score(hand: Any, win_tile: Any = None, *, ruleset: Any = "sichuan",
                   jokers: int = 0, win_is_joker: bool = False, **context: Any):
    """:func:`majiang.scoring.regional.score`, with a fixed joker written by its face read
    as a joker: under a ruleset whose joker kind is fixed (杭州 白板, 广东 白板做鬼 / 红中鬼)
    a tile of that kind in the hand, or as the winning tile, is a joker, as ``*`` (the
    notation of :func:`majiang.efficiency.read_faces`), and the win is scored by
    :func:`score`.  ``context``: the win context keywords of
    :func:`majiang.scoring.regional.score`.

    Raises
    ------
    InvalidHandError, RuleError
        As :func:`majiang.scoring.regional.score`.
    """
    fixed = _fixed_face_hand(hand, win_tile, ruleset, jokers, win_is_joker)
    if fixed is not None:
        return score(hand, win_tile, ruleset=fixed, **context)
    return _score(hand, win_tile, ruleset=ruleset, jokers=jokers, win_is_joker=win_is_joker,
                  **context)


def held_faces(counts: Any, faces: Any, jokers: int):
    """The ways a hand given as played counts (``counts``: ``uint8 (34,)``, the wild
    kinds taken out) plus ``jokers`` wild tiles is written by its faces, when the wild
    tiles held were ``faces`` (``uint8 (34,)``, copies of each wild kind by face).

    Yields ``(concealed by faces uint8 (34,), jokers of no known face)``: with at least
    as many jokers as faces, the faces plus ``*`` for the rest (a joker drawn since); with
    fewer (wild tiles let go), every choice of the faces kept.  The callers (the
    probability layer's win predicate, the bots' judge of a wait) ask
    :func:`majiang.scoring.check_win` with ``indicator=`` of each and take a win when one
    wins, so that a wild tile standing for its own face (南昌 德国) and the values read
    from the faces (天津 银杠胡 …) count there as in the scorer."""
    c = np.asarray(counts, dtype=np.uint8)
    f = np.asarray(faces, dtype=np.uint8)
    n_face = int(f.sum())
    if jokers >= n_face:
        yield c + f, int(jokers) - n_face
        return
    kinds = [int(k) for k in np.flatnonzero(f)]

    def split(i, left):
        if i == len(kinds):
            if left == 0:
                yield {}
            return
        k = kinds[i]
        for a in range(min(int(f[k]), left), -1, -1):
            for rest in split(i + 1, left - a):
                yield {k: a, **rest}
    for kept in split(0, int(jokers)):
        out = c.copy()
        for k, a in kept.items():
            out[k] += a
        yield out, 0


def check_by_faces(check_win: Any, counts: Any, melds: tuple, win: Any, jokers: int,
                   faces: Any, indicator: Any, **context: Any):
    """:func:`majiang.scoring.check_win` of the played ``counts`` (before the win tile,
    ``jokers`` wild tiles held besides, ``melds``) read by the faces ``faces`` of the
    wild tiles held (:func:`held_faces`) with ``indicator=``; ``win`` the winning kind
    (not a wild kind).  Returns the first valid :class:`WinCheck`, else the first one."""
    first = None
    for conc, extra in held_faces(counts, faces, jokers):
        chk = check_win(Hand(conc, melds, (), extra), win, indicator=indicator, **context)
        if chk.valid:
            return chk
        if first is None:
            first = chk
    return first

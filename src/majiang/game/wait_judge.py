"""How the built-in bots judge a wait: whether a ready hand's wait wins under the
ruleset's own win predicate (:func:`majiang.check_win`, as a self-draw), cached per
seat; used by both game loops and by :meth:`SeatView.judge_waits`.  Split from
:mod:`majiang.game.players`, which re-exports every name."""
from __future__ import annotations

import numpy as np

from ..errors import MahjongError
from ..hand import _trusted_hand

__all__ = ["closed_out", "wait_judge", "hope_of", "wait_verdict"]


def closed_out(model, melds) -> bool:
    """Whether no wait of a hand with these ``melds`` can win whatever its tiles: it
    holds no claimed meld and the ruleset lets no closed hand win
    (:meth:`GameModel.closed_hand_can_win`: 开门, 武汉 / 沈阳).  The bots then ask THE
    predicate nothing about its waits (:func:`pick_valid_wait` sees every wait
    refused)."""
    return not any(not m.concealed for m in melds) and not model.closed_hand_can_win()[0]


def _refused(after, w) -> bool:
    return False


def wait_judge(check_win, rs, model, cache, melds, seat_wind, prevalent, jokers=0,
               flowers=0, faces=None, indicator=None, seat_fan=0):
    """``(verdict, hope)`` of :func:`pick_valid_wait` for a seat's hand with ``melds`` (a
    Meld tuple), ``jokers`` wild tiles held and ``flowers`` set aside: ``verdict(after,
    w)`` is :func:`wait_verdict` (cached in ``cache``), ``hope`` :func:`hope_of`; a hand
    the ruleset lets no wait win (:func:`closed_out`) gets a verdict that refuses every
    wait and no hope.  Both loops weigh their waits with it.  ``faces`` / ``indicator``:
    the wild tiles held by their faces, as :func:`wait_verdict`; ``seat_fan``: the 番 the
    seat carries on the table (:attr:`WinContext.seat_fan
    <majiang.winning.WinContext.seat_fan>`, 武汉 红中杠 …), as the win would read it."""
    if closed_out(model, melds):
        return _refused, None

    def verdict(after, w, flowers=flowers):
        return wait_verdict(check_win, rs, cache, after, melds, w, seat_wind, prevalent,
                            jokers, flowers, faces, indicator, seat_fan)
    return verdict, hope_of(verdict, flowers, model.n_flowers)


def hope_of(verdict, flowers, n_flowers):
    """The ``hope`` of :func:`pick_valid_wait` for a seat holding ``flowers`` of the set's
    ``n_flowers``: ``verdict`` with every flower drawn (南京: an opened small win needs 4
    硬花), or None when no flower is left to draw."""
    if flowers >= n_flowers:
        return None
    return lambda after, w: verdict(after, w, n_flowers)


def _kernel(check_win, rs, cache, melds, seat_wind, prevalent, flowers):
    """The compiled verdict for these melds, winds and flowers (cached in ``cache``), or
    None when ``check_win`` is not THE predicate or the kernel does not judge the
    ruleset (:func:`~majiang.scoring.kernel.win_verdict`)."""
    key = ("kernel", melds, int(seat_wind), int(prevalent), int(flowers))
    if key in cache:
        return cache[key]
    from ..scoring import check_win as the_predicate
    v = None
    if check_win is the_predicate:
        from ..scoring.kernel import win_verdict
        try:
            v = win_verdict(rs, melds, int(seat_wind), int(prevalent), int(flowers))
        except (MahjongError, ValueError):
            v = None
    cache[key] = v
    return v


def _sure_refusal(check_win, rs, c, melds, w, jokers) -> bool:
    """THE predicate surely refuses ``c`` + ``w`` self-drawn
    (:func:`majiang.scoring.refusal.sure_refusal`, switched by
    :data:`majiang.scoring.refusal.QUICK`); only when ``check_win`` is THE predicate."""
    from ..scoring import check_win as the_predicate
    from ..scoring import refusal
    return (refusal.QUICK and check_win is the_predicate
            and refusal.sure_refusal(rs, c, melds, w, jokers=jokers, self_drawn=True))


def wait_verdict(check_win, rs, cache, after, melds, w, seat_wind, prevalent,
                 jokers=0, flowers=0, faces=None, indicator=None, seat_fan=0) -> bool:
    """Whether ``after`` (a 3n+1 hand from the engine, ``melds`` its Meld tuple,
    ``jokers`` wild tiles held besides, ``flowers`` the seat's flowers set aside) + ``w``
    is a valid win under THE predicate when self-drawn (no special timing: a self-draw
    only adds value, so a wait that fails it never reaches the minimum), cached in
    ``cache`` by the tiles, the seat's wind, its flowers and ``seat_fan`` (the 番 it carries
    on the table, :attr:`WinContext.seat_fan <majiang.winning.WinContext.seat_fan>`).

    ``faces`` (``uint8 (34,)``, the wild tiles held by their faces) and ``indicator``:
    under a ruleset whose values read the faces
    (:func:`~majiang.scoring.faces.faces_matter`: 南昌 德国 with a 精 as its own face, 天津
    银杠胡 …) the hand is judged by them (:func:`~majiang.scoring.faces.check_by_faces`),
    as the scorer judges the win.

    Where THE predicate is :func:`majiang.check_win` and the ruleset's fans are the
    compiled kernel's (no jokers, no faces), the verdict is the kernel's
    (:func:`majiang.scoring.kernel.win_verdict`: the same answer, without building a
    hand and its fan result); a hand it cannot judge goes to ``check_win``."""
    by_faces = faces is not None and indicator is not None and bool(np.any(faces))
    key = (bytes(after), melds, int(w), int(seat_wind), int(jokers), int(flowers),
           bytes(np.asarray(faces, dtype=np.uint8)) if by_faces else None, int(seat_fan))
    got = cache.get(key)
    if got is not None:
        return got
    c = np.array(after, dtype=np.uint8)
    c.flags.writeable = False
    v = None if by_faces or jokers else _kernel(check_win, rs, cache, melds, seat_wind,
                                                prevalent, flowers)
    r = v(c, int(w), True) if v is not None else -1
    if r >= 0:
        got = bool(r)
    else:
        ctx = dict(ruleset=rs, self_drawn=True, flowers=int(flowers),
                   seat_wind=int(seat_wind), prevalent_wind=int(prevalent))
        if seat_fan:
            ctx["seat_fan"] = int(seat_fan)
        try:
            if by_faces:
                from ..scoring.faces import check_by_faces
                got = check_by_faces(check_win, c, melds, int(w), int(jokers), faces,
                                     indicator, **ctx).valid
            elif _sure_refusal(check_win, rs, c, melds, int(w), int(jokers)):
                got = False
            else:
                got = check_win(_trusted_hand(c, melds, jokers=int(jokers)), int(w),
                                **ctx).valid
        except MahjongError:
            got = False
    cache[key] = got
    return got

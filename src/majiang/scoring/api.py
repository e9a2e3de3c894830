"""The front door :func:`score`: the compiled kernel when the ruleset's fan table
is the Chinese Official one, else the reference engine, and regional rules
(jokers, win constraints, extra forms, doubling) through :mod:`.regional`.
"""
from __future__ import annotations

from typing import Any

from .. import rules as _rules
from .._core import fans as _kfans
from ..errors import RuleError
from ..hand import Hand
from ..rules.model import game_model
from .faces import by_faces as _by_faces
from .kernel import _LAST_KT, _hand_or_none, _kernel_table, _kind_or_none, _ruleset_or_none, \
    _wind_or_none
from .reference import _score_reference
from .faces import regional_score as _regional_score
from .results import FanResult, _new, _set

__all__ = ["score", "standard_self_drawn"]


def standard_self_drawn(ruleset: Any = None) -> bool:
    """The win context of a complete hand given with none, shared by
    :func:`majiang.score`, :func:`majiang.check_win` and :func:`majiang.advise`'s
    ``win now``: a win **on a discard** (seat East, prevalent wind East), or
    **self-drawn** under a ruleset whose wins are self-drawn only (its
    ``self_draw_only`` constraint: 天津, 杭州 …).  Returns the ``self_drawn`` flag."""
    if ruleset is None or ruleset == "mcr":
        return False
    return bool(game_model(ruleset).self_draw_only)


def score(hand: Any, win_tile: Any, *, self_drawn: bool | None = None, last_copy: bool = False,
          kong: bool = False, last_tile: bool = False, seat_wind: Any = 0,
          prevalent_wind: Any = 0, flowers: int = 0, ruleset: Any = "mcr",
          method: str = "auto", first_turn: str = "", indicator: Any = None,
          kong_discard: bool = False, declared_ready: Any = "",
          discarder_ready: bool = False, flower_replacement: bool = False,
          kong_claimed: bool = False, kong_chain: int = 0, seat_fan: int = 0) -> FanResult:
    """Score a winning hand: the fans of its best decomposition.

    Parameters
    ----------
    hand : str or Hand
        The hand BEFORE the winning tile: 13 tile-equivalents (concealed tiles +
        3 per meld), e.g. ``"23m456p11z [555z] {6666m}"`` (see
        :func:`majiang.hand.parse_hand`).  Flowers in the hand count as `flowers`.
    win_tile : str or int
        The winning tile (``"7s"``, ``"七条"``, or a kind 0..33).
    self_drawn : bool or None
        Won on one's own draw (自摸); False: on a discard (or a robbed kong).  None
        (default): the standard reading of a hand given with no win context
        (:func:`standard_self_drawn`): on a discard, self-drawn under a ruleset whose
        wins are self-drawn only — as :func:`majiang.check_win` and
        :func:`majiang.advise`.
    last_copy : bool
        和绝张: the other three copies of the win tile are visible.  Implied when
        the player's own exposed melds show three copies.
    kong : bool
        杠上开花 with `self_drawn` (the hand must have a kong), 抢杠和 without.
    last_tile : bool
        The last tile of the wall: 妙手回春 (self-drawn) / 海底捞月 (discard).
    seat_wind, prevalent_wind : int or str
        0..3 or ``"E"``/``"S"``/``"W"``/``"N"`` (东南西北).
    flowers : int
        Flowers collected (花牌, 1 fan each; not counted toward the minimum).
    ruleset : str or Ruleset
        Default ``"mcr"`` (Chinese Official rules; ``None`` means the same).
    first_turn : {"", "heavenly", "earthly", "human"}
        天和 / 地和 / 人和 (:attr:`majiang.winning.WinContext.first_turn`), for the
        rulesets that score them; the kernel is skipped when it is given.
    kong_discard : bool
        杠上炮 / 杠后炮: won on the discard its discarder made right after his own kong
        (:attr:`majiang.winning.WinContext.kong_discard`; a discard win only, not with
        ``kong``), for the rulesets that score it (四川 +1 番, 长沙 a 大胡, 云南 1 番, 内蒙
        the discarder's share doubled again); the kernel is skipped when it is given.
    declared_ready : {"", "concealed", "open"} or bool
        The winner had declared ready (报听; ``"open"``: with the hand shown, self-draw
        only; :attr:`majiang.winning.WinContext.declared_ready`), for the rulesets that
        score it (山东 暗楼 1 / 明楼 2 番, 海南 推倒胡 明摸); ``discarder_ready``: on a discard
        win, the discarder had declared (保定 / 立四 no 大包, 海南 推倒胡 明打).  The kernel is
        skipped when either is given.
    flower_replacement : bool
        With ``self_drawn``: won on the tile drawn for a flower (海南 花上添花;
        :attr:`majiang.winning.WinContext.flower_replacement`); InvalidHandError under a
        ruleset that plays no flowers.
    kong_claimed : bool
        With ``kong`` and ``self_drawn``: the kong was made on another's discard (南京
        大杠开花; :attr:`majiang.winning.WinContext.kong_claimed`).  The kernel is skipped
        when either is given.
    kong_chain : int
        With ``kong`` and ``self_drawn``: the kongs made in a row before the win, 1..4
        (0: not given, one kong; :attr:`majiang.winning.WinContext.kong_chain`): 杭州
        doubles 杠开 once per kong of the chain.  The hand must hold that many kongs;
        the kernel is skipped when it is given.
    seat_fan : int
        番 the winner carries on the table beyond the hand's tiles and melds, 0..99
        (:attr:`majiang.winning.WinContext.seat_fan`: 武汉's 红中杠 / 痞子杠 / 赖子杠, the
        红中, 痞子 and 赖子 played out): read by a ruleset's minimum where it has one
        (``wuhan`` with ``min_fan``); the kernel is skipped when it is given.
    method : {"auto", "kernel", "python"}
        ``"auto"`` (default) scores with the compiled kernel
        (:mod:`majiang._core.fans`) when the ruleset's fan table is the Chinese
        Official one, else with the Python engine; ``"python"`` forces the
        Python reference engine; ``"kernel"`` requires the kernel (RuleError
        for another fan table).  Both give the same result.
    indicator : str or int, optional
        The turned joker indicator.  Given, the hand is read with its wild tiles BY
        THEIR FACES (``"1122m3344p5566s7z"``, indicator ``"1m"``: under 南昌 1m 正精,
        2m 副精) and scored by :func:`majiang.scoring.faces.score` (the same path), which
        sees what ``*`` hides: 南昌 德国 with a 精 standing for its own face, 天津 银杠胡 /
        金杠胡 / 本混龙 (which wild kinds are held).  The win tile is given by its face
        too; a ``*`` may stand beside the faces for a joker of no given face (the fans
        reading the faces do not count it).  Not given (default): every ``*`` is a joker
        of unknown face, and a fixed joker's face (杭州 白板) is a joker too
        (:func:`majiang.efficiency.read_faces`, the notation of every front door); under a
        ruleset whose jokers come from a turned tile (武汉, 南昌, 天津 …) no written tile is
        then wild, each scores as itself (南昌 德国 may be awarded), which ``majiang
        score`` without ``--indicator`` says in a note.

    Returns
    -------
    FanResult
        ``.total`` (fan points, flowers included), ``.fans``, ``.decomposition``,
        ``.meets_minimum``, ``.to_dict()``.

    Raises
    ------
    InvalidHandError
        "not a winning hand" when no decomposition exists; a wrong tile count, a
        fifth copy, or a context the hand contradicts (see the module docstring).
    InvalidNotationError
        For unreadable tiles.
    RuleError
        Unknown ruleset, bad wind or flower count; ``indicator`` under a ruleset without
        jokers, or a bad one.

    With ``indicator`` the result is a :class:`RegionalResult`.

    Examples
    --------
    >>> r = score("123m456p789s11z [555z] 45m", "6m")    # doctest: +SKIP
    """
    if method not in ("auto", "kernel", "python"):
        raise RuleError(f"method must be 'auto', 'kernel' or 'python', got {method!r}")
    if ruleset is None:             # no ruleset: Chinese Official, as everywhere
        ruleset = "mcr"
    if self_drawn is None:
        self_drawn = standard_self_drawn(ruleset)
    if ruleset is not None and not (type(hand) is str and "f" not in hand
                                    and hand.isascii()):
        game_model(ruleset).check_hand_flowers(hand)    # flowers only where the set has them
    if indicator is not None:
        return _by_faces(hand, win_tile, ruleset=ruleset, indicator=indicator,
                         self_drawn=self_drawn, last_copy=last_copy, kong=kong,
                         last_tile=last_tile, seat_wind=seat_wind,
                         prevalent_wind=prevalent_wind, flowers=flowers,
                         first_turn=first_turn, kong_discard=kong_discard,
                         declared_ready=declared_ready, discarder_ready=discarder_ready,
                         flower_replacement=flower_replacement, kong_claimed=kong_claimed, kong_chain=kong_chain, seat_fan=seat_fan)
    if method != "python" and not first_turn and not kong_discard and not declared_ready \
            and not discarder_ready and not flower_replacement and not kong_claimed \
            and not kong_chain and not seat_fan:
        # compiled kernel; any input it does not take (and every error) goes on to
        # the reference below, which raises the reference's error
        rs = _rules._REGISTRY.get("mcr") if ruleset == "mcr" else _ruleset_or_none(ruleset)
        if rs is _LAST_KT[0]:
            kt = _LAST_KT[1]
        else:
            kt = _kernel_table(rs) if rs is not None else None
            if kt is None and method == "kernel" and rs is not None:
                raise RuleError(f"method='kernel': the fan table of ruleset {rs.name} is not "
                                "the Chinese Official one")
        if kt is not None:
            h = hand if type(hand) is Hand else _hand_or_none(hand, rs)
            if h is not None and any(m.kind == "chow" and m.tile >= 27 for m in h.melds):
                h = None        # an honour chow: the reference refuses or reads it
            win = win_tile if type(win_tile) is int else _kind_or_none(win_tile)
            seat = seat_wind if type(seat_wind) is int else _wind_or_none(seat_wind)
            prev = prevalent_wind if type(prevalent_wind) is int else \
                _wind_or_none(prevalent_wind)
            k = _kfans.score_hand(kt, rs, h, win, self_drawn, last_copy, kong, last_tile,
                                  seat, prev, flowers)
            if k is not None:
                r = _new(FanResult)
                _set(r, "_d", {"_src": k})
                return r
    return _score_python(hand, win_tile, self_drawn, last_copy, kong, last_tile, seat_wind,
                         prevalent_wind, flowers, ruleset, first_turn, kong_discard,
                         declared_ready=declared_ready, discarder_ready=discarder_ready,
                         flower_replacement=flower_replacement, kong_claimed=kong_claimed, kong_chain=kong_chain, seat_fan=seat_fan)


def _score_python(hand, win_tile, self_drawn, last_copy, kong, last_tile, seat_wind,
                  prevalent_wind, flowers, ruleset, first_turn="",
                  kong_discard=False, *, declared_ready="",
                  discarder_ready=False, flower_replacement=False,
                  kong_claimed=False, kong_chain=0, seat_fan=0) -> FanResult:
    """The reference engine (every error of :func:`score` is raised here)."""
    rs_ = _rules.get(ruleset)
    if rs_.extended or (isinstance(hand, str) and "*" in hand) or getattr(hand, "jokers", 0):
        # regional rules (jokers, win constraints, extra forms, doubling): .regional
        return _regional_score(hand, win_tile, self_drawn=self_drawn, last_copy=last_copy,
                               kong=kong, last_tile=last_tile, seat_wind=seat_wind,
                               prevalent_wind=prevalent_wind, flowers=flowers, ruleset=rs_,
                               first_turn=first_turn, kong_discard=kong_discard,
                               declared_ready=declared_ready, discarder_ready=discarder_ready,
                               flower_replacement=flower_replacement,
                               kong_claimed=kong_claimed, kong_chain=kong_chain, seat_fan=seat_fan)
    return _score_reference(hand, win_tile, self_drawn, last_copy, kong, last_tile, seat_wind,
                            prevalent_wind, flowers, ruleset, first_turn, kong_discard,
                            declared_ready=declared_ready, discarder_ready=discarder_ready,
                            flower_replacement=flower_replacement, kong_claimed=kong_claimed, kong_chain=kong_chain, seat_fan=seat_fan)

"""What the analyses read from a position: the hand (held wild tiles as jokers), the
visible tiles and the keywords (``Position.hand``, ``analysis_visible``,
``analysis_kwargs``; the :class:`_ForAnalyses` part of
:class:`~majiang.position.Position`), and :func:`analysis_inputs`, which
:func:`majiang.advise`, the probability functions and :func:`majiang.fan_odds` call
when given a position (see ``docs/position.md``).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import MahjongError, RuleError
from ..hand import Hand
from ..tiles import parse_tiles, tile_name
from ._parse import _tile


class _ForAnalyses:
    """The inputs of the analyses of :class:`~majiang.position.Position`."""

    @property
    def hand(self) -> Hand:
        """The seat's hand as the analyses read it (:class:`~majiang.hand.Hand`): the
        concealed tiles with every held copy of a wild kind as a joker (``*``), the own
        melds, and the own flowers (as the first ``flowers[seat]`` flower indices: a
        position keeps how many flowers a seat has, not which).

        Raises
        ------
        RuleError
            The ruleset's jokers follow an indicator and the position has none.
        """
        c = self.concealed.copy()
        j = 0
        for k in self._model.joker_kinds(self.indicator):
            j += int(c[k])
            c[k] = 0
        c.flags.writeable = False
        return Hand(c, self.own_melds, tuple(range(min(self.flowers[self.seat], 8))), j)

    def played_melds(self, seat: int) -> tuple:
        """The melds of ``seat`` (:class:`~majiang.hand.Meld` objects, in order) as the
        kinds they play as: a pung or kong of stand-ins (安庆 红中, 上海百搭 / 温州 /
        杭州 翻财神 白板, kept by its physical tiles, ``[555z]``) as the joker kind's
        face, as :func:`majiang.efficiency.read_faces` reads them; the melds unchanged
        without a stand-in or while the joker kind is unknown (no indicator).  Another
        seat's hidden concealed kongs are not among them (:attr:`hidden_kongs`).

        Raises
        ------
        RuleError
            Not a seat.
        """
        from ..rules.shapes import melds_as_face, stand_in
        seat = self._seat_arg(seat)
        melds = tuple(tm.meld for tm in self.melds[seat])
        si = stand_in(self._model.ruleset, self.indicator)
        return melds if si is None else melds_as_face(melds, si[0], si[1])

    def analysis_visible(self) -> np.ndarray:
        """``uint8 (34,)``: :meth:`visible_counts` less the face-up indicator, which
        every analysis counts on its own (see
        :meth:`majiang.rules.model.GameModel.set_apart`): the ``visible=`` of
        :func:`majiang.advise` and the probability functions."""
        return (self.visible_counts().astype(np.int64) - self._counts()[2]).astype(np.uint8)

    def analysis_kwargs(self) -> dict:
        """The keyword arguments a position gives :func:`majiang.advise`,
        :func:`majiang.probabilities`, :func:`majiang.win_probability` and
        :func:`majiang.fan_odds`: ``visible`` (:meth:`analysis_visible`), ``ruleset``,
        ``indicator`` (a tile name, when given), ``seat_wind``, ``prevalent_wind`` and
        ``void`` (the seat's own declared void suit as a suit letter, when it has one)."""
        out: dict[str, Any] = {"visible": self.analysis_visible(),
                               "ruleset": self.ruleset, "seat_wind": self.seat_wind,
                               "prevalent_wind": self.prevalent_wind}
        if self.indicator is not None:
            out["indicator"] = tile_name(self.indicator)
        if self.voids[self.seat] >= 0:
            out["void"] = "mps"[self.voids[self.seat]]
        return out



# --------------------------------------------------------------------------
# analyses given a position
# --------------------------------------------------------------------------

_ANALYSIS_DEFAULTS = {"visible": None, "ruleset": None, "indicator": None, "seat_wind": 0,
                      "prevalent_wind": 0, "jokers": 0}


def check_draws(pos: Any, draws: Any, what: str) -> None:
    """RuleError when ``draws`` (a horizon asked of an analysis of the Position ``pos``)
    is more than the tiles left in the wall at the position (:attr:`Position.tiles_left`):
    no seat can draw them.  (A seat's own share is about ``tiles_left // players``; the
    check refuses only the impossible.)  Anything else (None, a bad type) is left to the
    analysis's own checks."""
    if type(draws) is not int or type(pos).__name__ != "Position":
        return
    left = int(pos.tiles_left)
    if draws > left:
        own = 0 if left <= 0 else max(1, left // pos.players)
        raise RuleError(
            f"{what}: draws={draws}, but the wall has {left} tile{'s' if left != 1 else ''} "
            f"left at this position (about {own} draw{'s' if own != 1 else ''} for the "
            f"seat); ask for draws={own} or fewer")


def check_in_play(pos: Any, what: str) -> None:
    """RuleError unless the seat of ``pos`` still plays: under a ruleset where a win ends
    the hand no seat has won; under 血战 (xuezhan) the seat itself has not won and fewer
    than ``players - 1`` seats have (the hand then ends); under 血流 winners play on."""
    blood = getattr(pos.model.ruleset, "blood", "")
    won = list(pos.won)
    if won and not blood:
        raise RuleError(f"{what}: won={won}, but under {pos.model.name} a win ends the hand "
                        "(seats that win and play on exist only under 血战 / 血流 rulesets)")
    if blood == "xuezhan" and pos.seat in won:
        raise RuleError(f"{what}: seat {pos.seat} has won; under 血战 (xuezhan) a winner "
                        "plays no more")
    if blood == "xuezhan" and len(won) >= pos.players - 1:
        raise RuleError(f"{what}: {len(won)} seats have won; under 血战 (xuezhan) the hand "
                        f"ends when {pos.players - 1} have won")


def analysis_inputs(x: Any, what: str, given: dict,
                    keys: tuple = ("visible", "ruleset", "indicator", "seat_wind",
                                   "prevalent_wind"), void: bool = True,
                    given_only: bool = False) -> tuple[Any, dict]:
    """``(hand, keywords)`` for an analysis called with ``x``: ``x`` itself and
    ``given`` unchanged unless ``x`` is a :class:`Position`, whose :attr:`Position.hand`
    and :meth:`Position.analysis_kwargs` (those named in ``keys``) then fill
    ``given``.  A keyword given with a value other than its default that disagrees with
    the position (any ``visible``, a different ruleset, indicator or wind, ``jokers``)
    is refused.  With ``void`` (default) and ``"ruleset"`` among ``keys``, the seat's
    declared void suit (定缺) is applied to the ruleset
    (:func:`majiang.rules.derived.with_void`), so every analysis of the position holds
    the seat to its declaration; a ``void=`` the caller gives as well must then name
    the same suit (:func:`with_void` refuses another).  With ``given_only`` the caller
    passes None for a keyword it was not given (:func:`majiang.advise`), so a wind given
    as 0 (East) is checked too, and ``jokers`` given at all, even 0, is refused; the
    keywords ``given`` lacks or holds as None come from the position.

    Raises
    ------
    RuleError
        ``"<what>: the position gives the ruleset mcr; ruleset='sichuan' conflicts …"``.
    """
    if not isinstance(x, _ForAnalyses):          # not a Position
        return x, given
    check_in_play(x, what)
    kw = dict(given)
    mine = x.analysis_kwargs()
    if kw.get("jokers") is not None and (given_only or kw["jokers"]):
        raise RuleError(f"{what}: the position's hand holds its jokers; drop jokers="
                        f"{kw['jokers']!r}")
    for k in keys:
        g = kw.get(k, None if given_only else _ANALYSIS_DEFAULTS[k])
        v = mine.get(k)
        if g is not None and not (k in ("seat_wind", "prevalent_wind") and not given_only
                                  and _same_int(g, 0)):
            if k == "visible":
                raise RuleError(f"{what}: the position gives the visible tiles (its discards "
                                "and the other seats' melds); drop visible=")
            if not _agrees(k, g, v, x):
                shown = x.model.name if k == "ruleset" else v
                raise RuleError(f"{what}: the position gives {k} {shown}; {k}={g!r} "
                                "conflicts (drop the keyword or change the position)")
        if k in mine:
            kw[k] = v
    if void and "ruleset" in keys and "void" in mine:
        from ..rules.derived import with_void
        kw["ruleset"] = with_void(kw["ruleset"], mine["void"])
    return x.hand, kw


def _same_int(a: Any, b: int) -> bool:
    return isinstance(a, (int, np.integer)) and not isinstance(a, bool) and int(a) == b


def _agrees(key: str, given: Any, value: Any, pos: Any) -> bool:
    from ..rules.model import game_model
    if key == "ruleset":
        m = game_model(given)
        return m is pos.model or m.name == pos.model.name
    if key == "indicator":
        return value is not None and _tile(given, "indicator") == parse_tiles(value)[0]
    if key in ("seat_wind", "prevalent_wind"):
        from ..scoring.reference import wind_index
        try:
            return wind_index(given, key) == value
        except MahjongError:
            return False
    return given == value


"""THE win predicate: is this hand, with this context, a valid win under the ruleset?

Every layer that needs to know whether a hand wins — probabilities, fan odds, the
CLI, the game engine — calls :func:`is_win` / :func:`check_win`.  It asks the
scorer (:func:`majiang.scoring.score`), which enumerates every reading of the
hand and judges each with the ruleset's game model
(:meth:`majiang.rules.model.GameModel.violations`: void suit, 2-5-8 pair, must
open, self-draw only …, and the minimum fan).  No other module keeps its own
notion of "what wins".
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import InvalidHandError
from ..hand import Hand, as_hand
from ..rules.model import GameModel, game_model
from .api import score
from .faces import by_faces
from .faces import regional_score

__all__ = ["WinCheck", "check_win", "is_win"]


@dataclass(frozen=True)
class WinCheck:
    """Verdict of :func:`check_win`.

    Attributes
    ----------
    valid : bool
        The hand wins under the ruleset in this context.
    reason : str
        Why not ("" when valid): no decomposition, a broken constraint, below the
        minimum fan, a closed hand under 开门 …
    result : FanResult or None
        The scored reading (when the ruleset scores hands and some reading exists).
    """

    valid: bool
    reason: str = ""
    result: Any = None

    def __bool__(self) -> bool:
        return self.valid


def check_win(hand: Any, win_tile: Any = None, *, ruleset: Any = None,
              self_drawn: bool | None = None,
              jokers: int = 0, win_is_joker: bool = False, kong: bool = False,
              last_copy: bool = False, last_tile: bool = False, seat_wind: Any = 0,
              prevalent_wind: Any = 0, flowers: int = 0, first_turn: str = "",
              indicator: Any = None, kong_discard: bool = False, declared_ready: Any = "",
              discarder_ready: bool = False, flower_replacement: bool = False,
              kong_claimed: bool = False, kong_chain: int = 0, seat_fan: int = 0) -> WinCheck:
    """Whether ``hand`` + ``win_tile`` is a valid win under ``ruleset``, and why not.

    Parameters
    ----------
    hand : str or Hand
        The hand BEFORE the winning tile (the ruleset's hand size counting melds as
        3 and jokers).
    win_tile : str or int, optional
        The winning tile (ignored with ``win_is_joker``).
    ruleset : None, str, Ruleset or GameModel
        ``None``: the default ruleset, Chinese Official rules (``"mcr"``: its five
        forms, 8-fan minimum), as :func:`majiang.score`, :func:`majiang.shanten` and
        the other functions given no ruleset; ``"plain"``: any complete regular /
        distinct seven pairs / thirteen orphans hand wins.
    self_drawn, kong, last_copy, last_tile, seat_wind, prevalent_wind, flowers
        The win context, as :func:`majiang.scoring.score`.  ``self_drawn=None``
        (default): the standard reading of a hand given with no win context, the same
        as :func:`majiang.score` and :func:`majiang.advise`'s ``win now``
        (:func:`majiang.scoring.api.standard_self_drawn`): a win on a discard, or
        self-drawn under a ruleset whose wins are self-drawn only.
    first_turn : {"", "heavenly", "earthly", "human"}
        天和 / 地和 / 人和, for the rulesets that score them (the game engine sets it;
        :class:`majiang.winning.WinContext`).
    kong_discard : bool
        杠上炮 / 杠后炮: a win on the discard its discarder made right after his own kong
        (the game engine sets it; :attr:`majiang.winning.WinContext.kong_discard`), for the
        rulesets that score it.
    declared_ready, discarder_ready
        The winner / the discarder had declared ready (报听; the game engine sets them;
        :attr:`majiang.winning.WinContext.declared_ready`), for the rulesets that score
        a declaration.  The predicate does not refuse an undeclared win under a ruleset
        that requires the declaration: that is a table rule the game engine plays.
    flower_replacement, kong_claimed
        A self-draw on the tile drawn for a flower; a kong replacement drawn for a kong
        made on another's discard (the game engine sets them;
        :attr:`majiang.winning.WinContext.flower_replacement` / ``kong_claimed``).
    kong_chain : int
        With ``kong`` and ``self_drawn``: the kongs made in a row before the win (the game
        engine counts them; :attr:`majiang.winning.WinContext.kong_chain`; 0: one kong).
    seat_fan : int
        番 the winner carries on the table beyond the hand (the game engine counts them;
        :attr:`majiang.winning.WinContext.seat_fan`: 武汉 红中杠 / 痞子杠 / 赖子杠), read by
        a ruleset's minimum where it has one (``wuhan`` with ``min_fan``).
    jokers : int
        Wild tiles held besides any ``*`` in the hand; ``win_is_joker``: the
        winning draw is a joker.
    indicator : str or int, optional
        The turned joker indicator.  Given, the hand and the winning tile are read with
        the wild tiles BY THEIR FACES and judged on the reading of
        :func:`majiang.scoring.faces.score` (the path of :func:`majiang.score` with
        ``indicator``): 南昌 德国 with a 精 standing for its own face, 天津 银杠胡 / 金杠胡 /
        本混龙 count, and can lift a hand to the minimum.  ``jokers`` / ``win_is_joker``
        are then refused (InvalidHandError); a ``*`` beside the faces is a joker of no
        given face, which the fans reading the faces do not count.

    Returns
    -------
    WinCheck

    Raises
    ------
    InvalidNotationError, InvalidHandError
        Unreadable tiles, a fifth copy, a wrong tile count.
    RuleError
        Unknown ruleset, jokers under a ruleset without them.
    """
    model = game_model(ruleset)
    if self_drawn is None:
        self_drawn = bool(model.self_draw_only)     # as scoring.api.standard_self_drawn
    return _check_ruleset(model, hand, win_tile, self_drawn=self_drawn, jokers=jokers,
                          win_is_joker=win_is_joker, kong=kong, last_copy=last_copy,
                          last_tile=last_tile, seat_wind=seat_wind,
                          prevalent_wind=prevalent_wind, flowers=flowers,
                          first_turn=first_turn, indicator=indicator,
                          kong_discard=kong_discard, declared_ready=declared_ready,
                          discarder_ready=discarder_ready,
                          flower_replacement=flower_replacement, kong_claimed=kong_claimed, kong_chain=kong_chain, seat_fan=seat_fan)


def _check_ruleset(model: GameModel, hand, win_tile, **ctx) -> WinCheck:
    rs = model.ruleset
    h = hand if isinstance(hand, Hand) else as_hand(hand, strict=False)
    model.check_flowers(h.flowers)          # before any verdict: flowers the set lacks
    model.check_melds(h.melds)              # an honour chow only where the ruleset plays it
    if not any(not m.concealed for m in h.melds):
        ok, why = model.closed_hand_can_win()
        if not ok:
            return WinCheck(False, why)
    jokers, win_is_joker = ctx.pop("jokers"), ctx.pop("win_is_joker")
    indicator = ctx.pop("indicator")
    try:
        if indicator is not None:
            r = by_faces(hand, win_tile, ruleset=rs, indicator=indicator, jokers=jokers,
                         win_is_joker=win_is_joker, **ctx)
        elif jokers or win_is_joker or getattr(hand, "jokers", 0) or rs.extended:
            r = regional_score(hand, win_tile, ruleset=rs, jokers=jokers,
                               win_is_joker=win_is_joker, **ctx)
        else:
            r = score(hand, win_tile, ruleset=rs, **ctx)
    except InvalidHandError as exc:
        msg = str(exc)
        if "not a winning hand" in msg:
            return WinCheck(False, msg)
        raise
    if not r.meets_minimum:
        why = r.below_minimum()
        # a minimum that is not a sum of fan values names its own count
        return WinCheck(False, why if rs.win_minimum
                        else f"{why} ({rs.scoring.total_text(r.total)})", r)
    return WinCheck(True, "", r)


def is_win(hand: Any, win_tile: Any = None, **kwargs: Any) -> bool:
    """``bool(check_win(hand, win_tile, **kwargs))`` — see :func:`check_win`."""
    return check_win(hand, win_tile, **kwargs).valid

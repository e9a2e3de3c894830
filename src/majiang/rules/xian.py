"""西安麻将 — docs/rules/xian.md.

All facts from the seed: 136 tiles, 4 players, 13 tiles; chi from 上家, peng,
明槓/暗槓; only basic hands (a pair plus sets; honors make no chows); 截和; no
jokers; the draw (荒牌) thresholds 13 / 7 / 8 / 13 stacks left for 0 / 1 / 2 / 3+
kongs ("三槓還原"); payments in multiples of a base: 胡 1, 自摸 2, on 夾張/單調 one
more (2 / 3), 槓後開花 doubles, 天胡 3; 暗槓 2 and 明槓 1 base paid apart.

Ambiguities: who pays on a ron is not stated — the discarder alone; a self-draw
multiple is read as paid by each of the three ([interp.] of the digest); 天胡 (3x in
place of the self-draw multiple) comes from the win context's ``first_turn``, which the
game engine sets.  Kongs (暗槓 2, 明槓 1 base, "paid
apart") are the ruleset's ``kong_payments``, read like the self-draw multiple as paid by
each of the three ([interp.]: the payers are not stated), at once.

下注 (side bets, docs/rules/xian.md §5): before the dice each player may bet an amount
against all the others — the option ``bets``, one amount per seat (seat 0 first), the
default ``(0, 0, 0, 0)`` being "no bet".  A bettor who wins collects his bet from each
other player; when another player wins, the bettor pays his bet to that winner; a
self-draw doubles it; dealer and 偏家 alike (:func:`side_bets`, paid by the end-of-hand
settlement ``"xian"``, ``check`` = "下注").  A drawn hand settles no bet [interp.: the
text settles a bet against a winner only].
"""
from __future__ import annotations

from . import fans as F
from ..errors import RuleError
from .base import (END_SETTLEMENTS, POINTS_FUNCTIONS, KongPayments, Ruleset, ScoringRule,
                   WallEnd, check_int, settle_points)
from .checks import check_seat_amounts
from .table_rules import DealerRule, net_of

__all__ = ["build", "XIAN", "KONG_PAYMENTS", "xian_points", "side_bets"]

KONG_PAYMENTS = {"concealed": 2, "exposed": 1}


def xian_points(fans: dict, rs, w) -> int:
    mult = 1 + fans.get(2, 0) + fans.get(3, 0)
    if fans.get(5):
        mult = 3             # 天胡: 3x base (the table's row, in place of 自摸 / 夾張)
    if fans.get(4):
        mult *= 2
    return rs.scoring.base * mult


POINTS_FUNCTIONS["xian"] = xian_points

_SELF = ("self_draw", "kong_replacement", "flower")


def _bet_payments(bets, winner: int, self_drawn: bool) -> list:
    m = 2 if self_drawn else 1
    out = []
    for p, bet in enumerate(bets):
        if bet:
            payers = [q for q in range(len(bets)) if q != p] if p == winner else [p]
            out += [{"check": "下注", "payer": q, "payee": winner, "amount": bet * m}
                    for q in payers]
    return out


def side_bets(bets, winner: int, self_drawn: bool) -> tuple:
    """下注 of one win (docs/rules/xian.md §5): per-seat changes when seat `winner` wins
    and seat p had bet ``bets[p]`` (0 = no bet) against all the others.  The winner's own
    bet is paid to him by each other player, every other bettor pays his bet to the
    winner; everything doubles on a self-draw.  Zero-sum.

    Raises
    ------
    RuleError
        A negative or non-integer bet, or `winner` not a seat.
    """
    n = len(bets)
    bets = check_seat_amounts(tuple(bets), "下注 bets", n)
    if isinstance(winner, bool) or not isinstance(winner, int) or not 0 <= winner < n:
        raise RuleError(f"winner seat must be 0..{n - 1}, got {winner!r}")
    return net_of(_bet_payments(bets, winner, self_drawn), n)


def end_settlement(rs, table) -> list:
    """下注 of each win of the hand (:func:`side_bets`) as payment dicts."""
    bets = rs.options.get("bets", ())
    return [e for seat, how, _, _, _ in table.wins
            for e in _bet_payments(bets, seat, how in _SELF)]


END_SETTLEMENTS["xian"] = end_settlement


def build(*, base: int = 1, bets=(0, 0, 0, 0)) -> Ruleset:
    check_int(base, "xian option base", lo=1)
    bets = check_seat_amounts(bets, "xian option bets", 4)
    src = "docs/rules/xian.md"
    fl = (
        F.fan(1, "胡", "Win", 1, F.always, source=src),
        F.fan(2, "自摸", "Self-Drawn", 1, F.self_drawn, source=src),
        F.fan(3, "夾張/單調", "Closed or Single Wait", 1,
              lambda w: int(w.win_position in ("closed", "pair")), source=src),
        F.fan(4, "槓後開花", "Win on Kong Replacement (x2)", 0, F.kong_flower, source=src),
        F.fan(5, "天胡", "Heavenly Hand (3x)", 0, F.heavenly, source=src),
    )
    return Ruleset(
        # who deals next: a winning dealer continues, otherwise the next seat; on 荒牌 the dealer stays
        dealer_rule=DealerRule(),
        name="xian", title="西安麻将 (Xi'an)", tiles_note="17 stacks of 2 per player",
        players=4, hand_size=13,
        calls=("chow_left", "pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=("regular",), seven_pairs_quads=False, min_fan=0,
        flowers_count_toward_minimum=False, fans=fl, settlement=settle_points,
        settlement_params={}, source="docs/rules/xian.md", tile_set="136",
        constraints=(), ready="none",
        wall_end=WallEnd(by_kongs=((0, 26), (1, 14), (2, 16), (3, 26))),
        winners="head_bump", scoring=ScoringRule(mode="custom", base=base, function="xian"),
        options={"base": base, "bets": bets}, builder="xian", section="§3.3",
        end_settlement="xian" if any(bets) else "",
        kong_payments=KongPayments(concealed=2 * base, exposed=base, exposed_each=base,
                                   added=base),
        interpreted=("a discard win paid by the discarder alone (not stated)",
                     "the self-draw multiple and kong money paid by each of the three (not stated)",
                     "下注: a drawn hand settles no bet (not stated)"),
        missing=())


XIAN = build()

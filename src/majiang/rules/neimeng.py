"""内蒙麻将 (eastern Inner Mongolia, the 穷胡 style: 敖汉 / 赤峰 / 宁城) — docs/rules/neimeng.md.

The general rule text (docs/rules/neimeng.md §1): 136 tiles; the hand must be opened (a
chow from 上家 or a pung); a win needs a pung, kong or concealed pung, and a 幺九 or a dragon
pung.  One vendor's three servers for the area and a neighbouring product text fill in the
rest; the 敖汉 server is the one that applies the text's conditions (docs/rules/neimeng.md
§1).  Chosen reading (``variant="aohan"``):

* 136 tiles, 4 players, 13 tiles (dealer 14); 吃 from 上家, 碰, 明杠, 补杠, 暗杠; no jokers;
  regular hands only (no 七对, no 十三幺).
* Conditions (all must hold, §2): **开门** — at least one meld, a concealed kong counts
  (``has_meld``); **刻** — a pung or kong in the winning split, or a dragon pair
  (``pung_or_dragon_pair``); **幺九** — a suited 1 or 9 or any honour (``terminal_or_honor``);
  **三门齐** — all three suits (``no_void``); a dragon pung makes the hand all pungs
  (``dragon_pung_all_pungs``).  过胡: a passed win locks that kind until one's own discard.
* Values (§3, convention D: a hand of n 番 is worth 2ⁿ): 平胡 0, 对对胡 +2, 夹胡 +1 (the win
  fills the middle of a chow, it is the only winning kind, and at least 5 tiles are in hand),
  自摸 +1, 杠开 +1 (besides 自摸 [interp.]); no cap by default (option ``cap``).
* Settlement (§4): a share is 2ⁿ, ×2 when the dealer wins or pays it, ×2 when its payer has
  no meld (闭门).  Self-draw: each other player pays his share; all three 闭门: one more 番.
  Discard: **the discarder pays every share (包三家)**, his own doubled, and doubled again for
  杠后炮 (his discard right after his own kong: the win context's ``kong_discard``); all three
  闭门: the sum doubled.  The win's own settlement (:func:`settle_neimeng`) pays the shares without the 闭门
  factors (it does not see the other hands); the end-of-hand settlement ``"neimeng"`` adds them
  from the final table; :func:`settle_table` gives the whole payment in one call.
* Kongs (§4): 明杠 and 补杠 2 from each other player, 暗杠 4 from each, void when nobody won.
* One winner on a discard (the first in turn order after the discarder); play stops when 16
  tiles remain (§5).

``variant="ningcheng"`` (the "宁城" server, §6): no 吃 and none of the conditions; 七对 +2,
双七对 (a four inside the pairs, in place of 七对) +3, 对对胡 +1, 杠开 +1, no 自摸 番; the discarder
pays one share; each share ×2 with the dealer; 杠后炮 +1 (NCMJ); kongs 1 / 1 / 2 from each,
void in a drawn hand [the server pays them back out instead: not played] and for a kong its
owner follows by dealing in (the 杠后炮 discard, NCMJ).

* Call limits (§5, option ``call_limits``, on; the 宁城 server has none): the 敖汉 server's
  :func:`call_allowed` — no kong once fewer than 20 tiles are left, no concealed kong in a
  hand without a meld, no 吃 after a dragon pung and no dragon 碰 after a 吃, and with fewer
  than 5 tiles in hand no 吃, nor a 碰 / 明杠 when holding a 吃, unless holding a 暗杠.  The
  game engine offers only the calls it allows (:attr:`RuleSpec.call_limit
  <majiang.rules.model.RuleSpec.call_limit>`); such a hand is played by the Python loop.
* 挂铺 (§4, option ``gua_pu``, one stake per seat of 0, 2 or 4 posted before the hand; the
  default ``(0, 0, 0, 0)``: no bet): on a win the winner and each payer (on a discard only
  the discarder) exchange the sum of their two stakes, flat (:func:`gua_pu`, paid by the
  end-of-hand settlement ``"neimeng"``, ``check`` = "挂铺"); nothing in a drawn hand.

Not modelled: the ready discarder who escapes 包三家 (an option name only).  Lost in the
sources: 亮喜 (a 中发白 set shown in the first go-around, ×2 the player's result: no source
says where the shown tiles go — a set of the hand or aside with a replacement draw — nor
how it is paid in the 敖汉 game); 下跑 (one neighbouring product's flat side bet: who pays
it to whom is not given).
"""
from __future__ import annotations

from . import fans as F
from ..errors import RuleError
from .base import (DERIVED_OPTIONS, END_SETTLEMENTS, POINTS_FUNCTIONS, KongPayments,
                   Ruleset, ScoringRule, WallEnd, check_bool, check_choice, check_int,
                   doubling, register_settlement)
from .checks import check_seat_amounts
from .constraints import constraint
from .hebei import settle_dealer_double
from .table_rules import CALL_LIMITS, DealerRule, net_of

__all__ = ["build", "NEIMENG", "settle_neimeng", "settle_table", "neimeng_points", "gua_pu",
           "GUA_PU_STAKES", "call_allowed", "KONG_MIN_WALL"]

_SRC = "docs/rules/neimeng.md"

GUA_PU_STAKES = (0, 2, 4)
"""挂铺: the stakes a player may post before the hand (docs/rules/neimeng.md §4, XPN / CF)."""


@constraint("has_meld", "开门: at least one meld, a concealed kong included (内蒙)")
def has_meld(w, fans, rs) -> bool:
    return len(w.hand.melds) > 0


@constraint("pung_or_dragon_pair", "刻: a pung or kong in the winning split, or a dragon pair "
            "(内蒙)")
def pung_or_dragon_pair(w, fans, rs) -> bool:
    return w.form != "regular" or bool(w.pungs) or (w.pair is not None and w.pair >= 31)


@constraint("terminal_or_honor", "幺九: a suited 1 or 9, or any honour tile (内蒙)")
def terminal_or_honor(w, fans, rs) -> bool:
    return any(t >= 27 or t % 9 in (0, 8) for t in w.kinds)


@constraint("dragon_pung_all_pungs", "a hand with a dragon pung must be all pungs (内蒙)")
def dragon_pung_all_pungs(w, fans, rs) -> bool:
    return not any(t >= 31 for t in w.pungs) or bool(F.all_pungs(w))


def _jia_hu(w) -> int:
    """夹胡: the win fills the middle of a chow, no other kind wins, 5+ tiles in hand."""
    return int(w.win_position == "closed" and w.hand.n_concealed + 1 >= 5
               and F.waits_by_shape(w) == 1)


def _long_pairs(w) -> int:
    return int(w.form == "seven_pairs" and F.seven_pairs_quads(w) > 0)


def neimeng_points(fans: dict, rs, w) -> int:
    """2^番 times the base, 番 capped at ``rs.scoring.cap``."""
    fan = sum(rs.fan(k).value * n for k, n in fans.items())
    cap = rs.scoring.cap
    return rs.scoring.base * doubling(fan if cap is None else min(fan, cap))


POINTS_FUNCTIONS["neimeng"] = neimeng_points


def _share(points, payer, winner, dealer, closed):
    return points * (2 if dealer in (payer, winner) else 1) * (2 if closed else 1)


@register_settlement
def settle_neimeng(points: int, winner: int, discarder: int | None, *, players: int = 4,
                   dealer: int | None = 0, kong_discard: bool = False) -> tuple:
    """The win's payments without the 闭门 factors (docs/rules/neimeng.md §4): a share is
    `points`, ×2 with the dealer; a self-draw: each other player pays his share; a discard:
    the discarder pays every share, his own doubled (包三家), and doubled again when
    ``kong_discard`` (杠后炮: he discarded right after his own kong)."""
    return settle_table(points, winner, discarder, dealer=dealer, melds=(1,) * players,
                        players=players, kong_discard=kong_discard)


def settle_table(points: int, winner: int, discarder: int | None, *, dealer: int | None,
                 melds, players: int = 4, kong_discard: bool = False) -> tuple:
    """The whole payment of a win worth `points` (2^番) with the 闭门 factors
    (docs/rules/neimeng.md §4): ``melds[p]`` is the number of melds of seat p (0 = 闭门: his
    share ×2); all three payers 闭门 doubles every share on a self-draw (one more 番) and
    the sum on a discard.  Shares ×2 with the dealer; on a discard the discarder pays all
    of them, his own doubled, and doubled again with ``kong_discard`` (杠后炮, AHMJ)."""
    others = [p for p in range(players) if p != winner]
    all_closed = all(melds[p] == 0 for p in others)
    out = [0] * players
    for p in others:
        s = _share(points, p, winner, dealer, melds[p] == 0)
        if discarder is None:
            s *= 2 if all_closed else 1
            frm = p
        else:
            s *= (2 if p == discarder else 1) * (2 if all_closed else 1)
            if p == discarder and kong_discard:
                s *= 2
            frm = discarder
        out[frm] -= s
        out[winner] += s
    return tuple(out)


def gua_pu(stakes, winner: int, discarder: int | None) -> tuple:
    """挂铺 of one win (docs/rules/neimeng.md §4): seat p posted ``stakes[p]`` (0, 2 or 4)
    before the hand; the winner and each payer — on a self-draw each other player, on a
    discard (or a robbed kong) the discarder alone — exchange the flat sum of their two
    stakes, not multiplied.  Per-seat changes, zero-sum.

    Raises
    ------
    RuleError
        A stake not 0, 2 or 4, or a seat outside the table.
    """
    n = len(stakes)
    stakes = check_seat_amounts(tuple(stakes), "挂铺 stakes", n, GUA_PU_STAKES)
    for seat in (winner, discarder):
        if seat is not None and (isinstance(seat, bool) or seat not in range(n)):
            raise RuleError(f"seats must be 0..{n - 1}, got {seat!r}")
    return net_of(_gua_pu_payments(stakes, winner, discarder), n)


def _gua_pu_payments(stakes, winner, discarder) -> list:
    payers = [p for p in range(len(stakes)) if p != winner] if discarder is None \
        else [discarder]
    return [{"check": "挂铺", "payer": p, "payee": winner, "amount": stakes[winner] + stakes[p]}
            for p in payers if stakes[winner] + stakes[p]]


KONG_MIN_WALL = 20
"""No kong may be declared once fewer tiles than this are left in the wall (敖汉, XPN
``canGang``; docs/rules/neimeng.md §5)."""


def call_allowed(call: str, kind: int, melds, held: int, live: int | None = None) -> bool:
    """The 敖汉 server's limits on calls (docs/rules/neimeng.md §5, XPN
    ``AHMJPlayerCard::canEatCard`` / ``canPengWithCard`` / ``canMingGangWithCard`` /
    ``canAnGangWithCard``, ``canGang``): whether a seat holding ``melds`` (``(meld kind,
    tile, concealed)``) and ``held`` concealed tiles before the call may make ``call`` of
    ``kind``, ``live`` tiles being left in the wall (None: not asked).

    * no kong once fewer than :data:`KONG_MIN_WALL` tiles are left;
    * no concealed kong in a hand without a meld (门清);
    * no chow once the seat has a dragon pung; no dragon pung once it has a chow;
    * with fewer than 5 tiles in hand, no chow, and no pung or kong on a discard when the
      seat has a chow, unless it has a concealed kong (手把一: a single wait only for an
      all-pung hand).
    """
    kongs = ("exposed_kong", "added_kong", "concealed_kong")
    if call in kongs and live is not None and live < KONG_MIN_WALL:
        return False
    if call == "concealed_kong":
        return bool(melds)
    chow = any(m[0] == "chow" for m in melds)
    hidden_kong = any(m[0] == "kong" and m[2] for m in melds)
    if call == "chow":
        if any(m[0] == "pung" and m[1] >= 31 for m in melds):
            return False
        return held >= 5 or hidden_kong
    if call == "pung" and kind >= 31 and chow:
        return False
    if call in ("pung", "exposed_kong"):
        return held >= 5 or not chow or hidden_kong
    return True


CALL_LIMITS["neimeng"] = call_allowed


def end_settlement(rs, table) -> list:
    """The 闭门 part of each win (:func:`settle_table` less :func:`settle_neimeng`, the 敖汉
    game) and the 挂铺 side bets (:func:`gua_pu`; none in a drawn hand)."""
    out = []
    stakes = rs.options.get("gua_pu", ())
    for i, (seat, how, discarder, points, _) in enumerate(table.wins):
        d = None if how in ("self_draw", "kong_replacement") else discarder
        if any(stakes):
            out += _gua_pu_payments(stakes, seat, d)
        if rs.options.get("variant") != "aohan":
            continue
        kd = i < len(table.kong_discards) and bool(table.kong_discards[i])
        full = settle_table(points, seat, d, dealer=table.dealer, melds=table.melds,
                            players=table.players, kong_discard=kd)
        part = settle_neimeng(points, seat, d, players=table.players, dealer=table.dealer,
                              kong_discard=kd)
        for p in range(table.players):
            extra = part[p] - full[p]
            if p != seat and extra > 0:
                out.append({"check": "闭门", "payer": p, "payee": seat, "amount": extra})
    return out


END_SETTLEMENTS["neimeng"] = end_settlement


def build(*, variant: str = "aohan", cap: int | None = None, closed_win: bool = False,
          gua_pu=(0, 0, 0, 0), call_limits: bool = True) -> Ruleset:
    check_choice(variant, "neimeng option variant", ("aohan", "ningcheng"))
    gua_pu = check_seat_amounts(gua_pu, "neimeng option gua_pu", 4, GUA_PU_STAKES)
    check_int(cap, "neimeng option cap", lo=1, hi=16, optional=True)
    check_bool(closed_win, "neimeng option closed_win")
    check_bool(call_limits, "neimeng option call_limits")
    if variant == "aohan":
        fl = (
            F.fan(1, "对对胡", "All Pungs", 2, F.all_pungs, source=_SRC),
            F.fan(2, "夹胡", "Closed Wait", 1, _jia_hu, source=_SRC),
            F.fan(3, "自摸", "Self-Drawn", 1, F.self_drawn, source=_SRC),
            F.fan(4, "杠开", "Win on Kong Replacement", 1, F.kong_flower,
                  source=_SRC + " [interp.: besides 自摸]"),
            # no 番: the settlement doubles the discarder's own share again (settle_table)
            F.fan(7, "杠后炮", "Discard after a Kong (discarder's share x2)", 0,
                  F.kong_discard, source=_SRC + " §4"),
        )
        cons = (() if closed_win else ("has_meld",)) + (
            "pung_or_dragon_pair", "terminal_or_honor", "no_void", "dragon_pung_all_pungs")
        extra = dict(calls=("chow_left", "pung", "exposed_kong", "added_kong",
                            "concealed_kong"), forms=("regular",), constraints=cons,
                     settlement=settle_neimeng, end_settlement="neimeng",
                     settlement_params={"dealer": 0, "kong_discard": False},
                     kong_payments=KongPayments(concealed=4, exposed=2, exposed_each=2,
                                                added=2, when="with_win"))
    else:
        fl = (
            F.fan(1, "对对胡", "All Pungs", 1, F.all_pungs, source=_SRC),
            F.fan(4, "杠开", "Win on Kong Replacement", 1, F.kong_flower, source=_SRC),
            F.fan(5, "七对", "Seven Pairs", 2, F.seven_pairs, source=_SRC),
            F.fan(6, "双七对", "Seven Pairs with a Four", 3, _long_pairs, excludes=(5,),
                  source=_SRC),
            F.fan(7, "杠后炮", "Win on a Discard after a Kong", 1, F.kong_discard,
                  source=_SRC + " §6 (NCMJ)"),
        )
        extra = dict(calls=("pung", "exposed_kong", "added_kong", "concealed_kong"),
                     forms=("regular", "seven_pairs"), constraints=(),
                     settlement=settle_dealer_double, settlement_params={"dealer": 0},
                     end_settlement="neimeng" if any(gua_pu) else "",
                     kong_payments=KongPayments(concealed=2, exposed=1, exposed_each=1,
                                                added=1, when="with_win",
                                                void_on_deal_in=True))
    return Ruleset(
        # who deals next: the dealer keeps the deal on his own win; another's win or 荒庄 passes it (AHMJ setNextBankerIdx)
        dealer_rule=DealerRule(draw="pass"),
        name="neimeng", title="内蒙麻将 (Inner Mongolia, 穷胡)", players=4, hand_size=13,
        seven_pairs_quads=variant == "ningcheng", min_fan=0, flowers_count_toward_minimum=False, fans=fl,
        source=_SRC, tile_set="136", ready="none",
        wall_end=WallEnd(kept=16), winners="head_bump", pass_lock="kind",
        scoring=ScoringRule(mode="custom", function="neimeng", cap=cap),
        options={"variant": variant, "cap": cap, "closed_win": closed_win, "gua_pu": gua_pu,
                 "call_limits": call_limits,
                 # derived (DERIVED_OPTIONS): the 敖汉 server's limits (:func:`call_allowed`)
                 # played; the 宁城 server has none, whatever ``call_limits`` says
                 "call_limits_played": call_limits and variant == "aohan"},
        builder="neimeng", section="§3.12",
        interpreted=("the 敖汉 game of one vendor (docs/rules/neimeng.md §1); 宁城 as an option",
                     "杠开 besides 自摸"),
        missing=(),
        lost=("亮喜: where the shown 中发白 set goes and its payment in this game are not given",
              "the side bet 下跑: who pays it to whom is not given"), **extra)


DERIVED_OPTIONS["neimeng"] = frozenset({"call_limits_played"})
NEIMENG = build()

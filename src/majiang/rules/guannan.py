"""灌南麻将 (Guannan, 连云港, Jiangsu) — docs/rules/guannan.md.

The general rule text (docs/rules/guannan.md §1): **112 tiles** — 万 筒 条 ×36 and **one each
of 东南西北**; the shapes 七对, 碰碰和, 一条龙 and the ordinary hand (平牌).  A Jiangsu client's
create-room page for 灌南 gives the table options (players, 一炮多响 or 截胡, 大绝七对先胡, the
dealer scoring 庄闲同分 / 庄2闲1翻倍 / 庄2闲1不翻倍); **no value table exists in any source
found**: the rest is a provisional reading from the neighbouring 连云港 and 沭阳 games
(docs/rules/guannan.md §3), every point of it [interp.]:

* The four single winds can form no set or pair, so they are **bonus tiles**: set aside when
  drawn and replaced from the tail (tile set ``"112_wind_flowers"``); each counts at the
  settlement.  4 players, 13 tiles (dealer 14); 吃 from 上家, 碰, 明杠, 补杠, 暗杠; 推倒胡 —
  four sets and a pair or seven pairs (a four counts as two pairs), self-drawn or on a discard.
* Points per payer (:func:`points`): (底 + 风 + kongs) × 2^d, 底 = 1, 风 = the winner's bonus
  winds (+1 each), kongs 明杠 (also 补杠) +2 and 暗杠 +4, d = the doubling items among 自摸, 七对,
  碰碰和 and 一条龙 — 沭阳's structure at half its numbers.
* Dealer (option ``dealer``): "double" (庄2闲1翻倍, the client's default) — 底 is 2 when the
  dealer wins or pays, so the dealer's extra 1 is doubled too; "add" (庄2闲1不翻倍) — the extra 1
  is added after doubling; "same" (庄闲同分) — no dealer term.  The win's own settlement pays
  the dealer-free points; the dealer term is the end-of-hand settlement ``"guannan"``
  (:func:`dealer_term`), which reads the win's doubling items; :func:`settle_guannan` gives the
  whole payment in one call.
* Self-draw: each other player pays; discard: the discarder alone, once per winner.
* One winner on a discard (截胡, the client's default; option ``multiple_winners``: 一炮多响):
  the first seat in turn order after the discarder.
* 大绝七对先胡 (option ``seven_pairs_first``, off as in the client; with 截胡 only — the
  client shows the box only then): a seat winning with 七对 takes the discard ahead of a
  nearer seat winning on it without (the nearest such seat when several), the 七对 being
  counted as the scorer counts it (:attr:`~majiang.rules.base.Ruleset.win_first`)
  [interp.: read from the option's label alone].  What 大绝 names is not known (沭阳
  doubles a win on the 绝张, the last copy of a tile, but 灌南's sources never define
  大绝): not played.
* Wall end (连云港): 7 stacks (14 tiles) kept, one stack more per kong.  Drawn hand: no payment.

Options of :func:`build`: ``dealer`` ("double"), ``multiple_winners`` (False),
``seven_pairs_first`` (False), ``chow`` (True; False = no 吃, as 沭阳), ``players`` (4; 3).
Not played: the 大绝 half of 大绝七对先胡, the 风杠 alternative (the four winds laid out
together, as in 秦皇岛 / 承德), 2-player tables, caps (none found).
"""
from __future__ import annotations

from ..errors import RuleError
from . import fans as F
from .base import (END_SETTLEMENTS, POINTS_FUNCTIONS, Ruleset, ScoringRule, WallEnd,
                   check_bool, check_choice, doubling, settle_points)
from .table_rules import DealerRule

__all__ = ["build", "GUANNAN", "points", "dealer_term", "settle_guannan", "DOUBLINGS"]

_SRC = "docs/rules/guannan.md"
_INTERP = _SRC + " [interp.]"

DOUBLINGS = ("自摸", "七对", "碰碰和", "一条龙")
"""The items that each double the points (docs/rules/guannan.md §3)."""
_ADD = {5: 1, 6: 2, 7: 4}          # 风 +1 each, 明杠 +2, 暗杠 +4 (fan id: points)


def _winds(w) -> int:
    return max(w.context.flowers, w.hand.n_flowers)


def _open_kongs(w) -> int:
    return sum(1 for m in w.hand.melds if m.kind == "kong" and not m.concealed)


def points(fans: dict, rs, w) -> int:
    """(1 + 风 + 明杠 2 + 暗杠 4) × 2^d, d the doubling items, times the base: the payment of
    a payer when the dealer is neither the winner nor the payer."""
    add = 1 + sum(_ADD[k] * n for k, n in fans.items() if k in _ADD)
    d = sum(n for k, n in fans.items() if k not in _ADD)
    return rs.scoring.base * add * doubling(d)


POINTS_FUNCTIONS["guannan"] = points


def dealer_term(doublings: int, mode: str = "double") -> int:
    """What a payment to or from the dealer adds (docs/rules/guannan.md §3): 2^d under
    "double" (底 2 instead of 1, doubled with the rest), 1 under "add", 0 under "same"."""
    return {"double": doubling(doublings), "add": 1, "same": 0}[mode]


def settle_guannan(pts: int, doublings: int, winner: int, discarder: int | None, *,
                   dealer: int, mode: str = "double", players: int = 4) -> tuple:
    """The whole payment of a win worth `pts` (:func:`points`) with `doublings` doubling
    items: each other player on a self-draw, the discarder on a discard; a payment to or
    from the dealer adds :func:`dealer_term`."""
    out = [0] * players
    for p in range(players):
        if p == winner or (discarder is not None and p != discarder):
            continue
        amount = pts + (dealer_term(doublings, mode) if dealer in (p, winner) else 0)
        out[p] -= amount
        out[winner] += amount
    return tuple(out)


def end_settlement(rs, table) -> list:
    """The dealer term of each win (its doubling items read from the counted fans)."""
    mode = rs.options.get("dealer", "double")
    out = []
    for seat, how, discarder, _, fans in table.wins:
        d = sum(n for name, n in fans if name in DOUBLINGS)
        term = dealer_term(d, mode) * rs.scoring.base
        if not term:
            continue
        self_draw = how in ("self_draw", "kong_replacement")
        for p in range(table.players):
            if p == seat or (not self_draw and p != discarder):
                continue
            if table.dealer in (p, seat):
                out.append({"check": "庄", "payer": p, "payee": seat, "amount": term})
    return out


END_SETTLEMENTS["guannan"] = end_settlement


def build(*, dealer: str = "double", multiple_winners: bool = False, chow: bool = True,
          players: int = 4, seven_pairs_first: bool = False) -> Ruleset:
    """The 灌南 ruleset (see the module docstring for each option's reading).

    Raises
    ------
    RuleError
        An option of the wrong type or value, or ``seven_pairs_first`` with
        ``multiple_winners`` (大绝七对先胡 orders the claims of 截胡 only).
    """
    check_choice(dealer, "guannan option dealer", ("double", "add", "same"))
    check_bool(multiple_winners, "guannan option multiple_winners")
    check_bool(seven_pairs_first, "guannan option seven_pairs_first")
    if seven_pairs_first and multiple_winners:
        raise RuleError("guannan option seven_pairs_first needs one winner per discard "
                        "(multiple_winners=False): 大绝七对先胡 is a 截胡 table option")
    check_bool(chow, "guannan option chow")
    check_choice(players, "guannan option players", (3, 4))
    fl = (
        F.fan(1, "自摸", "Self-Drawn (x2)", 1, F.self_drawn, source=_INTERP),
        F.fan(2, "七对", "Seven Pairs (x2)", 1, F.seven_pairs, source=_SRC),
        F.fan(3, "碰碰和", "All Pungs (x2)", 1, F.all_pungs, source=_SRC),
        F.fan(4, "一条龙", "Pure Straight (x2)", 1, F.straight, source=_SRC),
        F.fan(5, "风", "Bonus Wind (+1 each)", 1, _winds, minimum=False, source=_INTERP),
        F.fan(6, "明杠", "Exposed Kong (+2)", 2, _open_kongs, source=_INTERP),
        F.fan(7, "暗杠", "Concealed Kong (+4)", 4, F.concealed_kongs, source=_INTERP),
    )
    calls = (("chow_left",) if chow else ()) + ("pung", "exposed_kong", "added_kong",
                                                "concealed_kong")
    return Ruleset(
        # who deals next: 轮庄: the dealer keeps the deal on his win, otherwise the next seat [interp. of LYG's 轮庄]
        dealer_rule=DealerRule(draw="pass"),
        name="guannan", title="灌南麻将 (Guannan)", players=players, hand_size=13,
        calls=calls, forms=("regular", "seven_pairs"), seven_pairs_quads=True, min_fan=0,
        flowers_count_toward_minimum=False, fans=fl, settlement=settle_points,
        settlement_params={}, source=_SRC, tile_set="112_wind_flowers", ready="none",
        wall_end=WallEnd(kept=14, per_exposed_kong=2, per_concealed_kong=2),
        winners="multiple" if multiple_winners else "head_bump",
        win_first=("七对",) if seven_pairs_first else (),
        scoring=ScoringRule(mode="custom", function="guannan"),
        options={"dealer": dealer, "multiple_winners": multiple_winners, "chow": chow,
                 "players": players, "seven_pairs_first": seven_pairs_first},
        builder="guannan", section="§3.27", end_settlement="guannan",
        interpreted=("values provisional, built from the neighbouring games (docs/rules/guannan.md §3)",
                     "the four single winds as bonus tiles; the dealer options",
                     "轮庄 read as: the dealer keeps the deal on his win, otherwise the next "
                     "seat deals",
                     "七对先胡 (option seven_pairs_first) read from the option's label: a "
                     "seat winning with 七对 takes the discard ahead of a nearer winner"),
        lost=("大绝 (in 大绝七对先胡): no source says what a 大绝 win is",))


GUANNAN = build()

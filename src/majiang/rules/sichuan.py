"""四川麻将 血战到底 (Chengdu "bloody battle") and 血流成河 — docs/rules/sichuan.md.

From the general rule texts (docs/rules/sichuan.md): 108 tiles (万筒条 only, 素麻将); no 吃, 碰 and 杠
allowed; a suit must be void to win (必须缺门); 一炮多响; the last four tiles win
automatically when they can; the discarder alone pays a win on a discard; each
kong adds 1 番; play goes on after a win (血战到底).

From the public sources (docs/rules/sichuan.md, code of several public servers): 定缺 (declare
the void suit) and 换三张; 番 as doublings (0-based convention A: points =
base × 2^番); the hand table (对对胡 1, 清一色 2, 七对 2, 将对 3, 金钩钓 +1, 带幺九 2,
根 +1 each, 杠上开花 / 杠上炮 / 抢杠胡 / 海底捞月 +1); the cap; 自摸加底 (+1 base per payer).

Ambiguities and their resolution (each an option of :func:`build`):

* 龙七对: ×8 (七对 ×4 × one 根) or ×16 (Chinese app texts) — ``long_seven_pairs``
  (default 8, the reading of ST/BK/MIL; the four is never counted again as a 根).
* Cap: ``cap`` in 番 (default 3 = ×8, the tournament default; 4 = ×16, 5 = ×32).
* 自摸: ``self_draw`` ``"add_base"`` (自摸加底, default) or ``"double"`` (自摸加番).
* 带幺九 / 将对 (幺九将对 switch): ``yaojiu_jiangdui`` (default True).
* 门清 / 中张: ``menqing_zhongzhang`` (default False).
* 血流成河 (winners stay in and may win again): ``xueliu=True`` (registered as
  ``sichuan_xueliu``).
* 天胡 / 地胡 (天地胡 switch): ``tiandi`` (None, the default: on for 血战, off for 血流, whose
  table has none, §10): 5 番 (×32, BY "6番" / ST) in place of the shape rows, the
  add-ons on top; 地胡 is a non-dealer's win on its first draw or on a discard before
  it ("first draw / first discard").  They come from the win context's
  ``first_turn``, which the game engine sets.
* 刮风下雨 (§4) is the ruleset's ``kong_payments``, paid at once by the engine in
  base units: 暗杠 2 from each player still in, 直杠 2 from the discarder (``cagua``:
  plus 1 from each other player still in, 擦挂, off by default), 补杠 1 from each
  player still in, nothing for a 转手杠 (the 4th tile held from an earlier turn) or a
  robbed kong; 呼叫转移 (``call_transfer``, on): the income of the kongs made in the
  turn whose discard is won on goes to the winner(s); 查花猪 / 查大叫 / 退税
  (``refund``, on) are the ruleset's ``end_checks`` at a drawn end (:data:`END_CHECKS`,
  §8).  换三张 (``exchange3``, off by default: a table switch, §9) is the
  ruleset's ``exchange``.
* 杠上炮 (§6, all sources: a win on the discard its discarder made right after his own
  kong) is +1 番, read from the win context's ``kong_discard`` (the game engine sets it),
  in 血战 and 血流 alike; its kong money moves by 呼叫转移 above.
"""
from __future__ import annotations

from . import fans as F
from .base import (KongPayments, Ruleset, ScoringRule, WallEnd, check_bool, check_choice,
                   check_int, settle_points)
from .table_rules import DealerRule

__all__ = ["build", "SICHUAN", "SICHUAN_XUELIU", "END_CHECKS", "KONG_PAYMENTS"]

END_CHECKS = ("查花猪: a player holding three suits pays 16 x base to each other non-pig",
              "查大叫: a player not ready pays each ready player that player's largest value",
              "退税: not-ready players and pigs refund their kong income")
KONG_PAYMENTS = {"concealed": 2, "direct": 2, "added": 1}
"""刮风下雨, in base units: 暗杠 2 from each player still in, 直杠 2 from the discarder,
补杠 1 from each player still in."""


def build(*, long_seven_pairs: int = 8, cap: int | None = 3, self_draw: str = "add_base",
          yaojiu_jiangdui: bool = True, menqing_zhongzhang: bool = False,
          xueliu: bool = False, base: int = 1, tiandi: bool | None = None,
          exchange3: bool = False, call_transfer: bool = True, refund: bool = True,
          cagua: bool = False) -> Ruleset:
    check_choice(long_seven_pairs, "sichuan option long_seven_pairs", (8, 16))
    check_choice(self_draw, "sichuan option self_draw", ("add_base", "double"))
    check_int(cap, "sichuan option cap", lo=0, optional=True)
    check_int(base, "sichuan option base", lo=1)
    for key, v in (("yaojiu_jiangdui", yaojiu_jiangdui), ("menqing_zhongzhang", menqing_zhongzhang),
                   ("xueliu", xueliu), ("exchange3", exchange3), ("call_transfer", call_transfer),
                   ("refund", refund), ("cagua", cagua)):
        check_bool(v, f"sichuan option {key}")
    check_bool(tiandi, "sichuan option tiandi", optional=True)
    src = "docs/rules/sichuan.md §5-6"
    fl = [
        F.fan(1, "平胡", "Basic Win", 0, F.always, fallback=True, source=src),
        F.fan(2, "对对胡", "All Pungs", 1, F.all_pungs, source=src),
        F.fan(3, "清一色", "Full Flush", 2, F.flush, source=src),
        F.fan(4, "七对", "Seven Pairs", 2, F.seven_pairs, source=src),
        F.fan(5, "龙七对", "Seven Pairs with a Quad", 3 if long_seven_pairs == 8 else 4,
              F.seven_pairs_quads, excludes=(4,), reduces=((9, 1),), source=src),
        F.fan(7, "金钩钓", "Single Tile Left", 1, F.single_left, source=src),
        F.fan(9, "根", "Root (four of a kind)", 1, F.quads_in_hand, source=src),
        F.fan(10, "杠上开花", "Win on Kong Replacement", 1, F.kong_flower, source=src),
        F.fan(11, "抢杠胡", "Robbing the Kong", 1, F.robbing, source=src),
        F.fan(12, "海底捞月", "Last Tile Self-Draw", 1, F.last_self, source=src),
        F.fan(18, "杠上炮", "Win on a Discard after a Kong", 1, F.kong_discard,
              source="docs/rules/sichuan.md §6"),
    ]
    if yaojiu_jiangdui:
        fl += [F.fan(6, "将对", "All 2-5-8 Pungs", 3,
                     lambda w: int(F.all_pungs(w) and F.all_258(w)), excludes=(2,), source=src),
               F.fan(8, "带幺九", "Terminal in Every Set", 2, F.outside, source=src)]
    if self_draw == "double":
        fl.append(F.fan(13, "自摸", "Self-Drawn", 1, F.self_drawn, source=src))
    if menqing_zhongzhang:
        fl += [F.fan(14, "门清", "Concealed Hand", 1, F.concealed, source=src),
               F.fan(15, "中张", "No Terminals", 1, F.no_terminals, source=src)]
    # ``tiandi`` None (the default) follows ``xueliu``, and is stored as None, so that a
    # house-rule file that switches ``xueliu`` gets the other table's default
    if (not xueliu) if tiandi is None else tiandi:
        # the hand table's total (BY "6番" 1-based, ST): the shape rows give way, the
        # add-ons (根, 杠上开花 …) still double on top
        shape = tuple(f.id for f in fl if f.id in (1, 2, 3, 4, 5, 6, 7, 8))
        fl += [F.fan(16, "天胡", "Heavenly Hand", 5, F.heavenly, excludes=shape,
                     source="docs/rules/sichuan.md §5 (BY, ST)"),
               F.fan(17, "地胡", "Earthly Hand", 5, F.earthly_or_human, excludes=shape,
                     source="docs/rules/sichuan.md §5 (BY, ST)")]
    name = "sichuan_xueliu" if xueliu else "sichuan"
    return Ruleset(
        # who deals next: the first winner deals next (BK firstHupai)
        dealer_rule=DealerRule(win="winner"),
        name=name,
        title="四川麻将 血流成河 (Sichuan, river of blood)" if xueliu
        else "四川麻将 血战到底 (Sichuan/Chengdu, bloody battle)",
        players=4,
        hand_size=13, calls=("pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=("regular", "seven_pairs"), seven_pairs_quads=True, min_fan=0,
        flowers_count_toward_minimum=False, fans=tuple(fl), settlement=settle_points,
        settlement_params={"self_draw_bonus": base if self_draw == "add_base" else 0},
        source="docs/rules/sichuan.md",
        tile_set="108", constraints=("void_suit",), ready="none", jokers=None,
        wall_end=WallEnd(kept=0), winners="multiple", blood="xueliu" if xueliu else "xuezhan",
        scoring=ScoringRule(mode="double", base=base, cap=cap),
        options={"long_seven_pairs": long_seven_pairs, "cap": cap, "self_draw": self_draw,
                 "yaojiu_jiangdui": yaojiu_jiangdui,
                 "menqing_zhongzhang": menqing_zhongzhang, "xueliu": xueliu, "base": base,
                 "tiandi": tiandi, "exchange3": exchange3, "call_transfer": call_transfer,
                 "refund": refund, "cagua": cagua},
        end_checks=("查花猪", "查大叫") + (("退税",) if refund else ()),
        exchange=3 if exchange3 else 0,
        kong_payments=KongPayments(
            concealed=KONG_PAYMENTS["concealed"] * base, exposed=KONG_PAYMENTS["direct"] * base,
            exposed_each=base if cagua else 0, added=KONG_PAYMENTS["added"] * base,
            late_added_free=True, when="at_once", transfer=call_transfer),
        builder="sichuan", section="§3.11" if xueliu else "§3.10",
        # 宜昌 (the 血流 variant, docs/rules/sichuan.md §10): its own values were not found
        interpreted=("Yichang values: the Sichuan standard used (docs/rules/sichuan.md §10)",)
        if xueliu else ())


SICHUAN = build()
SICHUAN_XUELIU = build(xueliu=True)

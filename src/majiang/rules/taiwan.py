"""台湾麻将 16张 (Taiwanese 16-tile) — docs/rules/taiwan.md.

From the general rule texts (docs/rules/taiwan.md): 16-tile hands; 连庄 adds one 番; 拉庄; 一炮三响 allowed.
From the public sources (docs/rules/taiwan.md, high confidence for the core table; FC = Funclub,
AS = 中華民國麻將競技協會): 144 tiles with flowers; dealer 17; 5 sets + a pair; 16
tiles kept back; 台 added, not doubled: each payment is 底 + 台 × the value of a 台 (4W,
AS); the discarder pays a discard win, each of the three a self-draw; the 台 table below.

The 底 (``base``, in units of one 台's value, default 3) is paid on every win on top of
its 台, a win worth 0 台 included: by the discarder on a discard, by each of the three on
a self-draw, with the dealer's 台 on top when he pays or wins.  The sources leave the
stake to the table; the default follows the usual Taiwanese stake "底 30 / 台 10" (the
worked example of the public 台數表 pages: a 2-台 win collects 30 + 2 × 10 = 50)
[interp.: tables also play 100/20, ``base=5``; ``base=0`` pays the 台 alone].

Resolutions (options): 字一色 16 (FC) or 8 (AS) — ``all_honors``; 天胡 24 (FC) or 16
(AS) — ``tianhu``, without 門清 / 自摸 on top; 地胡 16 (a non-dealer's first self-draw);
人胡 8 (FC: a win on a discard before one's first draw) — the three from the win
context's ``first_turn``, which the game engine sets; several winners: ``winners`` (the
seed's 一炮三响 = "multiple", default).

Flowers (FC, AS): 正花 / 門花 1 台 for each flower bearing the seat's number (1 East … 4
North, :func:`~majiang.rules.fans.seat_flowers`); 花槓 for each full set of four (春夏秋冬 or
the four plants): 1 台 (FC) or 2 (AS) — ``flower_kong``; 八仙過海 (all eight flowers) 8 台
in place of both (FC, Funclub 口袋麻將's rule page https://pocket.funclub.com.tw/rule; W,
Wanin's 麻將之星 rules, suppresses the other flower 台).  八仙過海 is also a win of its own
(``flower_win``, default on; FC, W: a "flower victory"): the game engine ends the hand as
soon as a seat holds all eight flowers, and that seat is paid 八仙過海 8 台 (with 莊家 /
連莊 / 拉莊 when it deals, 莊家 from the dealer when he pays) by each other seat, as a
self-draw; its hand's shape does not matter and the replacement tile is not drawn
[interp.: W scores a replacement that also completes the hand separately; not played].
七搶一 (``seven_rob_one``, default on with ``flower_win``; FC 8 台): once every flower is out,
split seven and one between two seats, the seven-flower seat wins at once, paid by the seat
holding the eighth alone [interp.: the sources do not say who pays; read as robbing that
seat's flower, whichever of the two came last], with 莊家 on the dealer's payment.  They read the flowers the hand
holds (``1f``..``8f``; a bare count scores 八仙過海 only); the game engine gives the
winner's hand its flowers.  The flowers add up: East holding 春夏秋冬 has 花槓 and 正花 (春).

Dealer (AS, 4W rules04 §4.2-4.3): 莊家 1 台 whenever the dealer wins or pays, and after n
repeat deals (連莊) n 台 連 + n 台 拉 more (連N拉N = 2n + 1).  A hand takes the repeats as
the option ``dealer_repeats`` (n, default 0): the dealer's
win counts 莊家, 連莊 x n and 拉莊 x n as fans (listed only when n > 0); a payment the dealer makes to another
winner (his discard, or his share of a self-draw) carries 1 + 2n 台 more (the settlement's
``dealer_pays_extra``; the dealer is seat 0, East).  :func:`majiang.play_match` plays hands
in a row and sets n hand by hand: the dealer keeps the deal on his win or a drawn hand
[interp.: the usual Taiwanese table rule; the sources count the repeats without saying what
makes one], otherwise his 下家 deals.  The seed's 拉庄 as a deferral (a non-dealer holding
back a third of his loss to the dealer as the next hand's stake) is lost in the sources
(``lost``): the general text gives the one sentence, no source says when it may be asked or
how the held stake is settled, and AS and 4W read 拉莊 as the n 台 above, which is played.
"""
from __future__ import annotations

from . import fans as F
from .base import (WINNERS, Ruleset, ScoringRule, WallEnd, check_bool, check_choice, check_int,
                   settle_points)
from .table_rules import DealerRule

FLOWERS = (F.FLOWER_FACES,)

__all__ = ["build", "TAIWAN"]


def _concealed_pungs(n: int):
    def pred(w) -> int:
        return int(w.concealed_pungs == n)
    return pred


def build(*, all_honors: int = 16, winners: str = "multiple", tianhu: int = 24,
          flower_kong: int = 1, dealer_repeats: int = 0, flower_win: bool = True,
          seven_rob_one: bool = True, base: int = 3) -> Ruleset:
    """The Taiwanese 16-tile ruleset (see the module docstring for each option's reading).

    Raises
    ------
    RuleError
        An option of the wrong type or out of range (``flower_kong`` 1 or 2,
        ``dealer_repeats`` 0..100, ``base`` 0..1000).
    """
    check_int(all_honors, "taiwan option all_honors", lo=0)
    check_int(tianhu, "taiwan option tianhu", lo=0)
    check_choice(winners, "taiwan option winners", WINNERS)
    check_int(flower_kong, "taiwan option flower_kong", lo=1, hi=2)
    check_int(dealer_repeats, "taiwan option dealer_repeats", lo=0, hi=100)
    check_bool(flower_win, "taiwan option flower_win")
    check_bool(seven_rob_one, "taiwan option seven_rob_one")
    check_int(base, "taiwan option base", lo=0, hi=1000)
    n = dealer_repeats
    fw = (F.FLOWER_WIN,) if flower_win else ()      # the fans a flower win counts
    src = "docs/rules/taiwan.md §2 (FC, AS)"
    fl = (
        F.fan(1, "大四喜", "Big Four Winds", 16, lambda w: int(F.wind_pungs(w) == 4),
              excludes=(13, 14, 20), source=src),
        F.fan(2, "字一色", "All Honors", all_honors, F.all_honors, excludes=(8,), source=src),
        F.fan(3, "清一色", "Full Flush", 8, F.flush, source=src),
        F.fan(4, "大三元", "Big Three Dragons", 8, lambda w: int(F.dragon_pungs(w) == 3),
              excludes=(9, 12), source=src),
        F.fan(5, "小四喜", "Little Four Winds", 8, lambda w: int(
            F.wind_pungs(w) == 3 and w.pair is not None and 27 <= w.pair <= 30),
            excludes=(13, 14), source=src),
        F.fan(6, "五暗刻", "Five Concealed Pungs", 8, _concealed_pungs(5), source=src),
        F.fan(7, "四暗刻", "Four Concealed Pungs", 5, _concealed_pungs(4), source=src),
        F.fan(8, "碰碰胡", "All Pungs", 4, F.all_pungs, source=src),
        F.fan(9, "小三元", "Little Three Dragons", 4, lambda w: int(
            F.dragon_pungs(w) == 2 and w.pair is not None and w.pair >= 31),
            excludes=(12,), source=src),
        F.fan(10, "混一色", "Half Flush", 4, F.half_flush, source=src),
        F.fan(11, "三暗刻", "Three Concealed Pungs", 2, _concealed_pungs(3), source=src),
        F.fan(12, "三元牌刻", "Dragon Pung", 1, F.dragon_pungs, source=src),
        F.fan(13, "圈風刻", "Prevalent Wind Pung", 1,
              lambda w: int(27 + w.context.prevalent_wind in w.pungs), source=src),
        F.fan(14, "門風刻", "Seat Wind Pung", 1,
              lambda w: int(27 + w.context.seat_wind in w.pungs), source=src),
        F.fan(15, "門清自摸", "Concealed Self-Draw", 3,
              lambda w: int(F.concealed(w) and w.context.self_drawn), excludes=(16, 17),
              source=src),
        F.fan(16, "門清", "Concealed Hand", 1, F.concealed, source=src),
        F.fan(17, "自摸", "Self-Drawn", 1, F.self_drawn, source=src),
        F.fan(18, "全求人", "Melded Hand", 2, F.melded_all, excludes=(22,), source=src),
        F.fan(19, "半求人", "Half Melded", 1, lambda w: int(
            F.single_left(w) and w.context.self_drawn and w.n_exposed == len(w.hand.melds) > 0),
            excludes=(17, 22), source=src),
        F.fan(20, "平胡", "All Chows", 2, lambda w: int(
            F.all_chows(w) and w.pair is not None and w.pair < 27
            and w.win_position == "open" and not w.context.self_drawn
            and w.context.flowers == 0), source=src),
        F.fan(21, "莊家", "Dealer", 1, F.dealer, tags=fw, source=src),
        F.fan(22, "獨聽", "Single-Tile Wait", 1, F.single_wait_any_size, source=src),
        F.fan(23, "海底撈月", "Last Tile Self-Draw", 1, F.last_self, source=src),
        F.fan(24, "河底撈魚", "Last Discard", 1, F.last_discard, source=src),
        F.fan(25, "槓上開花", "Win on Kong Replacement", 1, F.kong_flower, source=src),
        F.fan(26, "搶槓", "Robbing the Kong", 1, F.robbing, source=src),
        F.fan(31, "八仙過海", "All Eight Flowers", 8,
              lambda w: int(w.context.flowers == 8), excludes=(32, 33), tags=fw, source=src),
        F.fan(32, "正花", "Seat Flower", 1, F.seat_flowers, tags=FLOWERS, source=src),
    ) + ((
        F.fan(36, "七搶一", "Seven Robbing One", 8,
              lambda w: int(bool(getattr(w, "robbed", False)) and w.context.flowers == 7),
              excludes=(32, 33), tags=fw + (F.ROB_FLOWER,),
              source="docs/rules/taiwan.md §2 (FC)"),
    ) if flower_win and seven_rob_one else ()) + (
        F.fan(33, "花槓", "Flower Kong", flower_kong, F.flower_sets, tags=FLOWERS,
              source=src),
        F.fan(28, "天胡", "Heavenly Hand", tianhu, F.heavenly, excludes=(15, 16, 17),
              source=src),
        F.fan(29, "地胡", "Earthly Hand", 16, F.earthly, source=src),
        F.fan(30, "人胡", "Human Hand", 8, F.human, source="docs/rules/taiwan.md §2 (FC)"),
    )
    if n:
        fl += (F.fan(34, "連莊", "Dealer Repeat", 1, lambda w: n * F.dealer(w), tags=fw,
                     source="docs/rules/taiwan.md §1 (AS, 4W)"),
               F.fan(35, "拉莊", "Dealer Pull", 1, lambda w: n * F.dealer(w), tags=fw,
                     source="docs/rules/taiwan.md §1 (AS, 4W)"))
    return Ruleset(
        # who deals next: 連莊 on the dealer's win or a drawn hand
        dealer_rule=DealerRule(streak="dealer_repeats"),
        name="taiwan", title="台湾16张麻将 (Taiwanese 16-tile)",
        players=4, hand_size=16,
        calls=("chow_left", "pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=("regular",), seven_pairs_quads=False, min_fan=0,
        flowers_count_toward_minimum=False, fans=fl, settlement=settle_points,
        settlement_params={"dealer": 0, "dealer_pays_extra": 1 + 2 * n, "base": base},
        source="docs/rules/taiwan.md",
        tile_set="144", constraints=(), ready="optional", wall_end=WallEnd(kept=16),
        winners=winners, scoring=ScoringRule(mode="add", unit="tai"),  # §1: 台 are added
        options={"all_honors": all_honors, "winners": winners, "tianhu": tianhu,
                 "flower_kong": flower_kong, "dealer_repeats": dealer_repeats,
                 "flower_win": flower_win, "seven_rob_one": seven_rob_one, "base": base},
        builder="taiwan",
        section="§3.5",
        interpreted=("八仙過海 ends the hand without the replacement draw",
                     "底: 3 台 paid on every win on top of its 台 (the usual stake 底 30 / "
                     "台 10; the sources leave the stake to the table)",
                     "連莊: the dealer keeps the deal on his win or a drawn hand (the usual "
                     "table rule; the sources do not say what makes a repeat)",
                     "七搶一: the seat holding the eighth flower pays it alone, whichever of "
                     "the two came last"),
        lost=("拉庄 as a deferral (the general text: a non-dealer holds back a third of "
              "what he owes the dealer as the next hand's stake): no source says when it may "
              "be asked or how the held stake is settled; the public sources read 拉莊 as "
              "n 台 per repeat, which is played",))


TAIWAN = build()

"""安庆麻将 — docs/rules/anqing.md.

All facts come from the seeds: 136 tiles, 4 players, 13 tiles (dealer 14);
钻牌 jokers = indicator + 1 (suits 9→1, 东→南→西→北→东, 中→发→白→中), never used to
chi or peng; self-draw only (no 点炮, no 抢杠); forms: standard, 七对, 十三烂,
七星归位 (十三烂 with all seven honors), 大吊车, 一龙; 番 added up, payment =
(底番 + pattern 番) × base silver.

Ambiguities and resolutions:

* Rule set A (chi from 上家) or B (缺一门, no chi, 清一色 etc. scored):
  option ``rule_set`` ("A" default).  B's void is a condition of the win ("at most two
  of 筒 条 万 may be left to win", docs/rules/anqing.md §2): ``void_rule="at_win"`` —
  nothing is declared at the deal (no 定缺), discards and claims are free, and the player
  may change the suit he drops during the hand.
* 跑风 (6): read as a win on a single-kind wait (边/卡/独吊) with a natural tile,
  and any win of a joker-free 对对胡 (硬对对胡); a joker never makes 跑风.
* 七星归位 (30) is scored instead of 十三烂 (20), not on top (the text gives it as
  the value of the pattern that "exists only with 十三烂").
* 十三烂: suited tiles of one suit at least 3 apart (147, 258, 369 …), honors
  distinct, no joker in it (a drawn joker breaks it).
* 杠开: 4/7/10/13 番 for 1/2/3/4 kongs (3k + 1).
* 天胡 / 地胡 come from the win context's ``first_turn`` (the game engine sets it: the
  dealer complete on his dealt 14 before any discard, or a non-dealer on the self-draw of
  his first turn, nothing claimed or konged before).  Each 天胡 kind is the text's 天胡 30
  plus 跑风 6 where the text adds it, and one kind is scored per hand, the first that
  applies of: 双天胡 66 (七对 + 四钻; "the four jokers stand only for themselves" read
  as all four standing for one kind, two of the seven pairs — the scorer does not know
  the jokers' own face); 七对天胡 36; 四钻天胡 36 (four jokers held, any form); 大吊车天胡 36
  (a joker-free 大吊车; a hand with melds, so never on a dealt hand in play); 十三烂天胡 30
  (十三烂 or 七星归位); 摸牌天胡 30 (any other).  The 36 / 66 kinds contain 跑风, so they
  replace 跑风 and 七对有钻 ("七对有钻 … 不算天胡"); every 天胡 kind keeps the other
  patterns (平胡 / 庄家 底番, 门清, 十三烂 20, 七星归位 30, 大吊车 30 …), as 摸牌天胡's
  "+30" is on top of the hand.  吊钻 9 (大吊车 3 + 跑风 6) names no 天胡 value: a dealt
  吊钻 hand takes 摸牌天胡.  地胡 30 is added to the patterns.
* 连庄 (option ``dealer_repeats`` n, default 0; :func:`majiang.play_match` sets it hand
  by hand through the dealer rule's streak): the dealer keeps the deal only on a drawn
  hand (荒庄); the text's "庄家输赢各增加" +3, +6, +12, +15 at the 1st-4th repeat (15
  from the 4th repeat on, the text stopping there) is added to the dealer's win (fan
  连庄) and to each payment he makes to a winner; "庄底子加4" raises the dealer's 底
  (fan 庄家) by 4 a repeat on his own win (8 + 4n with 平胡), not on his payments (the
  dealer pays a non-dealer's win at the winner's 底, as without repeats).
* 包牌 (顺包 / 反包; :attr:`Ruleset.liabilities <majiang.rules.base.Ruleset.liabilities>`,
  played by the game engine): 顺包 — a seat that fed the winner 3 口 (claimed chows,
  pungs, kongs) pays "three times", at 4 口 six times; 反包 — a seat the winner himself
  fed 3 口 pays twice the 顺包 figure; all pungs / kongs among the 口 fed: ×2 more (×4 at
  4 口); the other two pay normally; a seat both ways pays both ("compute each side
  separately and sum").  Read [interp.]: the multiplied figure ("跟庄家算得以后相乘":
  reckoned as the dealer's, then multiplied) is the dealer's share of the win — the
  largest share, the whole (底番 + pattern 番) × base, 连庄 included — and it replaces the
  liable seat's own share.
* 杠牌 (option ``kong_only``, True): "发财和白板是杠牌只能用来杠，手上有就不能胡牌" — 发
  and 白 (when the 钻牌 is a dragon, the other two dragons) serve only in kongs.  With
  红中 playing as the 钻牌's own face these are always the faces 发 and 白 (``6z``,
  ``5z``): constraint ``kong_only_tiles`` (:attr:`RuleSpec.kong_only_kinds
  <majiang.rules.model.RuleSpec.kong_only_kinds>`).  They may be discarded and made
  into a kong (concealed, or from a discard with three held), never punged, chowed or
  used in a winning hand's sets or pair (nor a joker standing for one); one held loose
  blocks the win.  Shanten, ukeire, waits and the probabilities count a held one as a
  tile that must go (three held, which a fourth would make a kong, are counted the
  same: a kong draws a replacement, which the shanten does not model); so 七星归位,
  which needs both, cannot be made.  The second passage's reading — 发 laid out and
  replaced like a flower, one 番 of money each — and its remark that under 打缺 发 is
  an ordinary honour are not modelled; ``kong_only=False`` is the former reading
  (ordinary honours).
* 红中 stands in for the 钻牌's own face (``JokerRule(substitute=红中)``): with the
  indicator given, a hand is written as its tiles look (one notation everywhere,
  :func:`majiang.efficiency.read_faces`): a 红中 as ``7z``, read as the face, and a 钻牌 by
  its face or as ``*``; :func:`majiang.ukeire`, the discard tables and the probabilities
  list a helpful 红中 draw, a 红中 discard and a seen 红中 as ``"7z"`` too (live = the
  红中 left).
"""
from __future__ import annotations

from . import fans as F
from .base import (JokerRule, Ruleset, ScoringRule, WallEnd, check_bool, check_choice,
                   check_int, settle_points)
from .liability import Liability
from .table_rules import DealerRule

__all__ = ["build", "ANQING", "LIANZHUANG", "lianzhuang"]


def _paofeng(w) -> int:
    n, asg, win_joker = F.joker_info(w)
    if win_joker:
        return 0
    if w.win_position in ("edge", "closed", "pair") and w.unique_wait:
        return 1
    return int(F.all_pungs(w) and n == 0)


def _kong_flower(w) -> int:
    return 3 * F.kongs(w) + 1 if w.context.kong_replacement else 0


def _kong_points(w) -> int:
    pts = 0
    for m in w.hand.melds:
        if m.kind != "kong":
            continue
        pts += 2 if m.concealed else 1
        if 27 <= m.tile <= 30 or m.tile in (31, 33):
            pts += 1
    return pts


LIANZHUANG = (0, 3, 6, 12, 15)
"""连庄 番 at 0, 1, 2, 3, 4 repeats of the deal (docs/rules/anqing.md §5); 15 from the
4th repeat on."""


def lianzhuang(repeats: int) -> int:
    """连庄 番 of a dealer who has kept the deal ``repeats`` times in a row."""
    return LIANZHUANG[min(int(repeats), 4)]


def _heavenly_in(pred):
    return lambda w: int(F.heavenly(w) and bool(pred(w)))


def _double_heaven(w) -> int:
    n, asg, _ = F.joker_info(w)
    return int(n == 4 and len(set(asg)) == 1)


def build(*, rule_set: str = "A", kong_only: bool = True,
          dealer_repeats: int = 0) -> Ruleset:
    """The 安庆 ruleset; options ``rule_set`` ("A" / "B"), ``kong_only`` (bool) and
    ``dealer_repeats`` (int >= 0: the deals the dealer has kept in a row, 连庄).

    Raises
    ------
    RuleError
        An option outside those values.
    """
    check_choice(rule_set, "anqing option rule_set", ("A", "B"))
    check_bool(kong_only, "anqing option kong_only")
    check_int(dealer_repeats, "anqing option dealer_repeats", lo=0, hi=100)
    n = dealer_repeats
    lz = lianzhuang(n)
    src = "docs/rules/anqing.md"
    fl = [
        F.fan(1, "平胡", "Basic Win", 4, F.always, source=src),
        F.fan(2, "庄家", "Dealer", 4 + 4 * n, F.dealer,
              source=src + " §5 (8 for the dealer's 平胡; +4 a repeat, §1)"),
        F.fan(3, "跑风", "Running Wind", 6, _paofeng, source=src),
        F.fan(4, "七对有钻", "Seven Pairs with Jokers", 9,
              lambda w: int(F.seven_pairs(w) and F.jokers_held(w) > 0), excludes=(3,), source=src),
        F.fan(5, "门清", "Concealed Self-Draw", 3,
              lambda w: int(F.concealed(w) and w.context.self_drawn), source=src),
        F.fan(6, "碰碰胡", "All Pungs", 3, F.all_pungs, source=src),
        F.fan(7, "大吊车", "Single Tile Left (no joker)", 30,
              lambda w: int(F.single_left(w) and F.jokers_held(w) == 0), source=src),
        F.fan(8, "大吊车有钻", "Single Tile Left with Joker", 3,
              lambda w: int(F.single_left(w) and F.jokers_held(w) > 0), source=src),
        F.fan(9, "杠开", "Win on Kong Replacement", 1, _kong_flower, source=src),
        F.fan(10, "十三烂", "Thirteen Lonely Tiles", 20,
              lambda w: int(w.form == "thirteen_lonely"), source=src),
        F.fan(11, "七星归位", "Seven Stars", 30, lambda w: int(w.form == "seven_stars"),
              source=src),
        F.fan(12, "杠牌", "Kongs", 1, _kong_points, source=src),
        F.fan(13, "风", "Wind Pung", 1, F.wind_pungs, source=src),
        F.fan(14, "一龙", "Pure Straight", 10, F.straight, source=src),
        F.fan(15, "七对", "Seven Pairs", 0, F.seven_pairs, source=src),
        # 天胡: one kind a hand (a lower id excludes the later ones), §5
        F.fan(17, "双天胡", "Double Heavenly Hand", 66,
              _heavenly_in(lambda w: F.seven_pairs(w) and _double_heaven(w)),
              excludes=(3, 4, 18, 19, 20, 21, 22), source=src),
        F.fan(18, "七对天胡", "Heavenly Seven Pairs", 36, _heavenly_in(F.seven_pairs),
              excludes=(3, 4, 19, 20, 21, 22), source=src),
        F.fan(19, "四钻天胡", "Heavenly Four Jokers", 36,
              _heavenly_in(lambda w: F.jokers_held(w) == 4), excludes=(3, 20, 21, 22),
              source=src),
        F.fan(20, "大吊车天胡", "Heavenly Single Tile Left", 36,
              _heavenly_in(lambda w: F.single_left(w) and F.jokers_held(w) == 0),
              excludes=(3, 21, 22), source=src),
        F.fan(21, "十三烂天胡", "Heavenly Thirteen Lonely", 30,
              _heavenly_in(lambda w: w.form in ("thirteen_lonely", "seven_stars")),
              excludes=(22,), source=src),
        F.fan(22, "摸牌天胡", "Heavenly Hand", 30, F.heavenly, source=src),
        F.fan(23, "地胡", "Earthly Hand", 30, F.earthly, source=src),
    ]
    if lz:
        fl += [F.fan(24, "连庄", "Dealer Repeat", lz, F.dealer, source=src + " §5")]
    if rule_set == "B":
        fl += [F.fan(16, "清一色", "Full Flush", 10, F.flush, source=src + " (rule set B; "
                     "value not stated, 10 assumed)")]
    return Ruleset(
        # who deals next: any win passes the deal to the dealer's 下家; on 荒庄 the dealer stays (S003)
        dealer_rule=DealerRule(win="rotate", streak="dealer_repeats"),
        name="anqing", title="安庆麻将 (Anqing)", players=4, hand_size=13,
        calls=(("chow_left",) if rule_set == "A" else ()) + (
            "pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=("regular", "seven_pairs", "thirteen_lonely", "seven_stars"),
        seven_pairs_quads=True, min_fan=0, flowers_count_toward_minimum=False, fans=tuple(fl),
        settlement=settle_points,
        # 连庄: each payment the dealer makes to a winner carries the 连庄 番 too
        settlement_params={"dealer": 0, "dealer_pays_extra": lz} if lz else {},
        source="docs/rules/anqing.md",
        tile_set="136",
        constraints=("self_draw_only",) + (("void_suit",) if rule_set == "B" else ())
        + (("kong_only_tiles",) if kong_only else ()),
        void_rule="at_win",          # rule set B: 缺一门 at the win, no 定缺 (§2)
        ready="optional",
        jokers=JokerRule(source="next", copies=4, claim=False, be_claimed=False,
                         substitute=33),
        wall_end=WallEnd(kept=0), winners="single", scoring=ScoringRule(mode="add"),
        options={"rule_set": rule_set, "kong_only": kong_only,
                 "dealer_repeats": dealer_repeats}, builder="anqing",
        section="§3.2",
        interpreted=("跑风 read as a single-kind wait with a natural tile, or a joker-free 对对胡",
                     "七星归位 scored in place of 十三烂, not on top",
                     "rule set B: 清一色 value not stated, 10 assumed",
                     "天胡: one kind a hand, 30 + 跑风 6 where the text adds it (双天胡 66, "
                     "七对 / 四钻 / 大吊车 36, 十三烂 / 摸牌 30), on top of the other patterns; "
                     "the 36 / 66 kinds replace 跑风 and 七对有钻",
                     "双天胡: the four jokers read as standing for one kind (two of the pairs)",
                     "连庄: +3 / +6 / +12 / +15 番 on the dealer's win and on each payment he "
                     "makes, 15 from the 4th repeat on; the dealer's 底 +4 a repeat on his "
                     "own win only",
                     "包牌: the multiplied figure is the dealer's share of the win (the "
                     "largest; 底番 + patterns, 连庄 included), x3 at 3 口 and x6 at 4 口 "
                     "(反包 twice that), x2 / x4 more when every 口 fed is a pung or kong; it "
                     "replaces the liable seat's own share; a seat both 顺包 and 反包 pays both"),
        # 包牌 (docs/rules/anqing.md §5): 顺包 — a seat that fed the winner 3 口 pays the
        # dealer's figure x3 (x6 at 4 口); 反包 — a seat the winner fed 3 口 pays twice that;
        # x2 (x4 at 4 口) more when the 口 are all pungs / kongs; the other two pay normally
        liabilities=tuple(
            Liability(name, wins=("self_draw", "kong_replacement"), liable=who, fed=3,
                      pays="largest_share", times={3: 3 * k, 4: 6 * k},
                      all_pungs_times={3: 2, 4: 4})
            for name, who, k in (("顺包", "feeder", 1), ("反包", "fed", 2))))


ANQING = build()

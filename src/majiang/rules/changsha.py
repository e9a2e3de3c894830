"""长沙麻将 二五八 — docs/rules/changsha.md.

From the general rule texts (docs/rules/changsha.md): 108 tiles (no honors); 小胡 = a 2/5/8 pair (将) plus
sets; 大胡 七巧对 (seven pairs) and 清一色; 转转 style (any pair, no chi) as option.
From the public sources (docs/rules/changsha.md, high confidence, two commercial servers agree):
chi from the left, peng, kongs; 小胡 1 on a discard, 2 from each on a self-draw;
each 大胡 6 (they add up): 碰碰胡, 将将胡 (every tile a 2/5/8), 清一色, 七小对, 海底捞月,
海底炮, 杠上开花, 抢杠胡, 全求人; 豪华七小对 12, 双豪华 18; a 大胡 may use any pair;
一炮多响.

Resolutions: 将将胡 is a winning form of its own (``all_258``: every tile, melds
included, a 2, 5 or 8, any shape — docs/rules/changsha.md §2 "any shape"), a 大胡 (6); the 转转 option
keeps the seed's forms (regular, seven pairs) with any pair.  Shanten, ukeire, waits
and advice aim at the hands that win *by shape alone* (on a discard or by self-draw,
no situational context): a regular hand with a 2-5-8 pair (小胡), or a 大胡 shape
with any pair — 七小对, 碰碰胡, 清一色, 将将胡 of any shape, 全求人 (four claimed
melds, won on a discard).  海底捞月, 海底炮, 杠上开花 and 抢杠胡 are tagged
``"situational"``: they never make a hand ready (so ``123m456p789s1166s`` is not
ready: neither 1s nor 6s gives a 2-5-8 pair or a 大胡 shape).  起手胡, 扎鸟 and 杠上炮
need the game history (扎鸟 is an option of the settlement, not scored here).
"""
from __future__ import annotations

from . import fans as F
from .base import Ruleset, ScoringRule, WallEnd, check_bool, settle_points

__all__ = ["build", "CHANGSHA"]


def build(*, zhuanzhuan: bool = False) -> Ruleset:
    check_bool(zhuanzhuan, "changsha option zhuanzhuan")
    src = "docs/rules/changsha.md §2"
    big = ("big", "pattern")
    sit = big + ("situational",)      # needs the win's context: never ready by shape
    q = F.seven_pairs_quads
    fl = (
        F.fan(1, "双豪华七小对", "Double Luxury Seven Pairs", 18, lambda w: int(q(w) >= 2),
              excludes=(2, 3, 20, 21), tags=big + ("shape:seven_pairs",), source=src),
        F.fan(2, "豪华七小对", "Luxury Seven Pairs", 12, lambda w: int(q(w) == 1),
              excludes=(3, 20, 21), tags=big + ("shape:seven_pairs",), source=src),
        F.fan(3, "七小对", "Seven Pairs", 6, F.seven_pairs, tags=big, excludes=(20, 21), source=src),
        F.fan(4, "碰碰胡", "All Pungs", 6, F.all_pungs, tags=big, excludes=(20, 21), source=src),
        F.fan(5, "将将胡", "All 2-5-8", 6, F.all_258, tags=big, excludes=(20, 21), source=src),
        F.fan(6, "清一色", "Full Flush", 6, F.flush, tags=big, excludes=(20, 21), source=src),
        F.fan(7, "海底捞月", "Last Tile Self-Draw", 6, F.last_self, tags=sit, excludes=(20, 21), source=src),
        F.fan(8, "海底炮", "Last Tile Discard", 6, F.last_discard, tags=sit, excludes=(20, 21), source=src),
        F.fan(9, "杠上开花", "Win on Kong Replacement", 6, F.kong_flower, tags=sit, excludes=(20, 21), source=src),
        F.fan(10, "抢杠胡", "Robbing the Kong", 6, F.robbing, tags=sit, excludes=(20, 21), source=src),
        F.fan(11, "全求人", "Melded Hand", 6, F.melded_all, tags=big, excludes=(20, 21), source=src),
        F.fan(20, "小胡", "Small Win", 1, F.always, fallback=True, source=src),
        F.fan(21, "小胡自摸", "Small Win Self-Drawn", 1, F.self_drawn, minimum=False,
              source=src),
    )
    return Ruleset(
        name="changsha_zhuanzhuan" if zhuanzhuan else "changsha",
        title="长沙转转麻将 (Changsha zhuanzhuan)" if zhuanzhuan else "长沙麻将 二五八 (Changsha)",
        players=4, hand_size=13,
        calls=(() if zhuanzhuan else ("chow_left",)) + (
            "pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=("regular", "seven_pairs") + (() if zhuanzhuan else ("all_258",)),
        seven_pairs_quads=True, min_fan=0,
        flowers_count_toward_minimum=False, fans=fl, settlement=settle_points,
        settlement_params={}, source="docs/rules/changsha.md",
        tile_set="108", constraints=() if zhuanzhuan else ("pair_258_small",), ready="none",
        wall_end=WallEnd(kept=0), winners="multiple", scoring=ScoringRule(mode="add"),
        options={"zhuanzhuan": zhuanzhuan}, builder="changsha", section="§3.19")


CHANGSHA = build()
CHANGSHA_ZHUANZHUAN = build(zhuanzhuan=True)

"""武汉麻将 红中赖子杠 — RULESETS.md §3.16, STANDARD_READINGS.md §5.1.  Values provisional.

From the seeds (§3.16): chi, peng, kong; 开口 required; 赖子 jokers; holding 红中
blocks a win; two 赖子 cannot win a 屁和; 大胡: 碰碰和, 将一色, 清一色, 风一色, 全求人,
杠开, 海底捞, 抢杠; everything else is 屁和.
From the standard readings (§5.1, low-medium confidence): 136 tiles; one tile is
turned after the deal: its kind is the 痞子 and the next kind (suits 9→1, winds
东南西北, dragons 中发白) is the 赖子; a 屁胡 needs a 2/5/8 pair and at most one 赖子;
大胡 may use any pair and several 赖子; values differ by product — GF's flat 5 for
a 屁胡 and 15 for a 大胡 are used (``small``, ``big`` options), 大胡 adding up;
红中杠/赖子杠/痞子杠 personal 番 and 金顶 caps are product-specific and not scored.

Resolutions: 红中 may not be held at the win (constraint ``no_red_dragon``); 将一色
(all 2/5/8, "may use any pair") is the winning form ``all_258`` of any shape, as
长沙's 将将胡 (SR §4.2 CS/JD read the same hand so; HZ lists 将一色 among the 大胡
that need no 2/5/8 pair), melds included.

Shanten, ukeire, waits and advice aim at the hands that win by shape alone (as in
:mod:`majiang.rules.changsha`): a 屁胡 needs a 2/5/8 pair and at most one 赖子 (a
second joker is a tile to swap out), a 大胡 shape any pair and any jokers — 清一色,
将一色, 风一色, 碰碰胡, 全求人 (four claimed melds, won on a discard); 杠上开花,
海底捞月 and 抢杠胡 are tagged ``"situational"``; 红中 is never part of a target.
开口 is a claim, not a shape: a closed hand gets its shape shanten (the win predicate
refuses it until a meld is claimed).
"""
from __future__ import annotations

from . import fans as F
from .base import JokerRule, Ruleset, ScoringRule, WallEnd, settle_points

__all__ = ["build", "WUHAN"]


def build(*, small: int = 5, big: int = 15) -> Ruleset:
    src = "§3.16 + STANDARD_READINGS §5.1"
    tg = ("big", "pattern")
    sit = tg + ("situational",)       # needs the win's context: never ready by shape
    ex = (20,)
    fl = (
        F.fan(1, "清一色", "Full Flush", big, F.flush, tags=tg, excludes=ex, source=src),
        F.fan(2, "将一色", "All 2-5-8", big, F.all_258, tags=tg, excludes=ex, source=src),
        F.fan(3, "风一色", "All Honors", big, F.all_honors, tags=tg, excludes=ex, source=src),
        F.fan(4, "碰碰胡", "All Pungs", big, F.all_pungs, tags=tg, excludes=ex, source=src),
        F.fan(5, "全求人", "Melded Hand", big, F.melded_all, tags=tg, excludes=ex, source=src),
        F.fan(6, "杠上开花", "Win on Kong Replacement", big, F.kong_flower, tags=sit,
              excludes=ex, source=src),
        F.fan(7, "海底捞月", "Last Tile", big, lambda w: int(w.context.last_tile), tags=sit,
              excludes=ex, source=src),
        F.fan(8, "抢杠胡", "Robbing the Kong", big, F.robbing, tags=sit, excludes=ex,
              source=src),
        F.fan(20, "屁胡", "Small Win", small, F.always, fallback=True, source=src),
    )
    return Ruleset(
        name="wuhan", title="武汉麻将 红中赖子杠 (Wuhan)", tiles="136, no flowers",
        n_tiles=136, flowers=0, players=4, hand_size=13,
        calls=("chow_left", "pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=("regular", "all_258"), seven_pairs_quads=False, min_fan=0,
        flowers_count_toward_minimum=False, fans=fl, settlement=settle_points,
        settlement_params={}, source="RULESETS.md §3.16 (S003); STANDARD_READINGS.md §5.1",
        tile_set="136",
        constraints=("must_open", "no_red_dragon", "pair_258_small", "max_one_joker_small"),
        ready="none", jokers=JokerRule(source="next", copies=4), wall_end=WallEnd(kept=0),
        winners="head_bump", scoring=ScoringRule(mode="add"),
        options={"small": small, "big": big}, builder="wuhan", section="§3.16")


WUHAN = build()

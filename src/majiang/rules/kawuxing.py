"""卡五星 (襄阳/孝感 three-player, also 广水 拳打脚踢) — docs/rules/kawuxing.md.

From the seeds: 3 players; 84 tiles (万 and winds removed: 筒 条 中发白); peng and
kong only, no chi; a 屁和 only by self-draw or 抢杠 (广水); cap 16 番 with kongs
counted apart (广水).
From the public sources (docs/rules/kawuxing.md, medium: KW server + KS hobby code agree): 13
tiles (dealer 14); 卡五星 = winning on a 5 that fills 4-5-6; multipliers (as
doublings here, powers of two): 碰碰胡 ×2, 卡五星 ×2, 杠上开花 ×2, 杠上炮 ×2 (a win on the
discard its discarder made right after his own kong: the win context's ``kong_discard``),
抢杠胡 ×2, 海底 ×2,
暗四归一 ×4, 七小对 ×4, 清一色 ×4, 小三元 ×4, 手抓一 ×4, 龙七对 ×8, 大三元 ×8; cap ×8 or
×16 (option ``cap``: 3 or 4 doublings; the seed's 广水 cap 16 = 4).

Resolutions: 亮倒, 明四归一 (needs the meld history of the win tile), 买马 and 漂 are
table options outside one hand's score; 双龙七对 counts 龙七对 once per quad.
"""
from __future__ import annotations

from . import fans as F
from .base import Ruleset, ScoringRule, WallEnd, check_int, settle_points

__all__ = ["build", "KAWUXING"]


def _kawuxing(w) -> int:
    return int(w.win_position == "closed" and w.win_tile < 27 and w.win_tile % 9 == 4)


def _an_si_gui_yi(w) -> int:
    """暗四归一: four identical tiles in the concealed hand used as sets (not a kong)."""
    c = [0] * 34
    for t in range(34):
        c[t] = w.counts[t]
    return sum(1 for t in range(34) if c[t] == 4 and not any(
        m.tile == t and m.kind != "chow" for m in w.hand.melds))


def build(*, cap: int = 4) -> Ruleset:
    check_int(cap, "kawuxing option cap", lo=0, optional=True)
    src = "docs/rules/kawuxing.md"
    p = ("pattern",)
    fl = (
        F.fan(1, "屁胡", "Plain Win", 0, F.always, source=src),
        F.fan(2, "碰碰胡", "All Pungs", 1, F.all_pungs, tags=p, source=src),
        F.fan(3, "卡五星", "Closed Five", 1, _kawuxing, tags=p, source=src),
        F.fan(4, "杠上开花", "Win on Kong Replacement", 1, F.kong_flower, tags=p, source=src),
        F.fan(5, "抢杠胡", "Robbing the Kong", 1, F.robbing, tags=p, source=src),
        F.fan(6, "海底", "Last Tile", 1, lambda w: int(w.context.last_tile), tags=p,
              source=src),
        F.fan(7, "暗四归一", "Concealed Four", 2, _an_si_gui_yi, tags=p, source=src),
        F.fan(8, "七小对", "Seven Pairs", 2, F.seven_pairs, tags=p, source=src),
        F.fan(9, "清一色", "Full Flush", 2, F.flush, tags=p, source=src),
        F.fan(10, "小三元", "Little Three Dragons", 2, lambda w: int(
            F.dragon_pungs(w) == 2 and w.pair is not None and w.pair >= 31), tags=p,
            source=src),
        F.fan(11, "手抓一", "Single Tile Left", 2, F.single_left, tags=p, source=src),
        F.fan(12, "龙七对", "Seven Pairs with a Quad", 3, F.seven_pairs_quads, excludes=(8, 7),
              tags=p, source=src),
        F.fan(13, "大三元", "Big Three Dragons", 3, lambda w: int(F.dragon_pungs(w) == 3),
              excludes=(10,), tags=p, source=src),
        F.fan(14, "杠上炮", "Win on a Discard after a Kong", 1, F.kong_discard, tags=p,
              source=src),
    )
    return Ruleset(
        name="kawuxing", title="卡五星 (Ka Wu Xing, three players)",
        players=3, hand_size=13,
        calls=("pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=("regular", "seven_pairs"), seven_pairs_quads=True, min_fan=0,
        flowers_count_toward_minimum=False, fans=fl, settlement=settle_points,
        settlement_params={}, source="docs/rules/kawuxing.md", tile_set="84", constraints=("discard_needs_pattern",),
        ready="optional", wall_end=WallEnd(kept=0), winners="head_bump",
        scoring=ScoringRule(mode="double", cap=cap), options={"cap": cap},
        builder="kawuxing", section="§3.18")


KAWUXING = build()

"""山东/烟台麻将 — docs/rules/shandong.md.

From the seeds: 144 tiles listed (flowers' use not stated; they are not played
here); chi, peng, 明杠/补杠 (1 番) and 暗杠 (2 番), kongs scored only with a win;
win on a discard, by self-draw or by robbing a 补杠; ready not required; the
2-5-8 room option ("the hand holds at least one 2, 5 or 8"; 七对/十三幺 exempt);
one winner (head bump) and the discarder alone pays; the dealer wins or loses
1 番 more; 不能弃先和后 (:func:`may_win`); the fan table below.

Ambiguities: the 1-2 番 row grouping is uncertain — 自摸, 门清 and 混一色 are
read as 1 番 (option ``small_fans``); 推倒和 is the 1-番 base of every win;
暗楼 / 明楼 (a win after declaring ready, 1 / 2 番; 明楼 = the hand shown, self-draw only)
come from the win context's ``declared_ready``, which the game engine sets when a player
declares with a discard (:mod:`majiang.game.engine.declare`); 天和 (6) and 地和 (4, "a non-dealer
wins in the first go-around, before any chi, peng or kong": on its first draw or on a
discard) come from the win context's ``first_turn``, which the game engine sets (a
lone hand never has them); self-draw settlement is not stated: each of the
three pays.  Every fact is from the single rule text of docs/rules/shandong.md.
"""
from __future__ import annotations

from . import fans as F
from .base import Ruleset, ScoringRule, WallEnd, check_bool, check_int, settle_points
from .table_rules import DealerRule

__all__ = ["build", "SHANDONG", "may_win"]


def may_win(tile, passed: set | frozenset | tuple = ()) -> bool:
    """不能弃先和后: after passing a winning discard, not in a declared-ready state, the
    same tile cannot be won on until one's own next draw and discard; another
    winning tile can.  `passed` holds the kinds passed since the last own turn."""
    from ..tiles import parse_tile
    t = parse_tile(tile) if isinstance(tile, str) else tile
    return all((parse_tile(p) if isinstance(p, str) else p) != t for p in passed)


def build(*, pair_258: bool = False, small_fans: int = 1) -> Ruleset:
    check_bool(pair_258, "shandong option pair_258")
    check_int(small_fans, "shandong option small_fans", lo=0)
    src = "docs/rules/shandong.md"
    q = F.seven_pairs_quads
    fl = (
        F.fan(1, "推倒和", "Basic Win", 1, F.always, source=src),
        F.fan(2, "抢杠和", "Robbing the Kong", 1, F.robbing, source=src),
        F.fan(3, "庄家", "Dealer", 1, F.dealer, source=src),
        F.fan(4, "自摸", "Self-Drawn", small_fans, F.self_drawn, source=src),
        F.fan(5, "门清", "Concealed Hand", small_fans, F.concealed, source=src),
        F.fan(6, "混一色", "Half Flush", small_fans, F.half_flush, source=src),
        F.fan(7, "一条龙", "Pure Straight", 2, F.straight, source=src),
        F.fan(8, "杠上开花", "Win on Kong Replacement", 2, F.kong_flower, source=src),
        F.fan(9, "十三么", "Thirteen Orphans", 2, lambda w: int(w.form == "thirteen_orphans"),
              source=src),
        F.fan(10, "大吊车", "Single Tile Left", 2, F.single_left, source=src),
        F.fan(11, "碰碰和", "All Pungs", 2, F.all_pungs, source=src),
        F.fan(12, "海底捞月", "Last Tile Self-Draw", 3, F.last_self, source=src),
        F.fan(13, "七对", "Seven Pairs", 3, F.seven_pairs, source=src),
        F.fan(14, "清一色", "Full Flush", 4, F.flush, source=src),
        F.fan(15, "豪华七对", "Luxury Seven Pairs", 4, lambda w: int(q(w) == 1), excludes=(13,),
              source=src),
        F.fan(16, "超级豪华七对", "Super Luxury Seven Pairs", 6, lambda w: int(q(w) == 2),
              excludes=(13,), source=src),
        F.fan(17, "至尊豪华七对", "Supreme Luxury Seven Pairs", 8, lambda w: int(q(w) == 3),
              excludes=(13,), source=src),
        F.fan(18, "明杠", "Exposed Kong", 1, F.exposed_kongs, source=src),
        F.fan(19, "暗杠", "Concealed Kong", 2, F.concealed_kongs, source=src),
        F.fan(20, "地和", "Earthly Hand", 4, F.earthly_or_human, source=src),
        F.fan(21, "天和", "Heavenly Hand", 6, F.heavenly, source=src),
        # the declarations the game engine lets players make (tags: facts.ready_kinds)
        F.fan(22, "暗楼", "Concealed Ready", 1, F.declared_concealed,
              tags=(F.READY_CONCEALED,), source=src),
        F.fan(23, "明楼", "Open Ready (self-draw only)", 2, F.declared_open,
              tags=(F.READY_OPEN,), source=src),
    )
    return Ruleset(
        # who deals next: 抢庄: the winner deals next; on 荒庄 the dealer stays (docs/rules, S003)
        dealer_rule=DealerRule(win="winner"),
        name="shandong", title="山东/烟台麻将 (Shandong / Yantai)",
        tiles_note="flowers not played", players=4,
        hand_size=13, calls=("chow_left", "pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=("regular", "seven_pairs", "thirteen_orphans"), seven_pairs_quads=True, min_fan=0,
        flowers_count_toward_minimum=False, fans=fl, settlement=settle_points,
        settlement_params={}, source="docs/rules/shandong.md", tile_set="144",
        constraints=("has_258",) if pair_258 else (), ready="optional",
        wall_end=WallEnd(kept=0), winners="head_bump", scoring=ScoringRule(mode="add"),
        options={"pair_258": pair_258, "small_fans": small_fans}, builder="shandong",
        pass_lock="kind",
        section="§3.1",
        interpreted=("the 1-2 番 rows: 自摸, 门清 and 混一色 read as 1 番",
                     "a self-draw paid by each of the three (not stated)"),
        lost=("the use of the eight flowers (listed in the tile set, never stated): they "
              "are not played",))


SHANDONG = build()

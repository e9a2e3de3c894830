"""螺山麻将 "打来干、自摸干" — docs/rules/luoshan.md.

All facts from the seed: 136 tiles; dealer 14, others 13; chi from 上家 (from
anyone when winning), peng (真碰 beats 花碰), kongs; 财神 = turned tile + 1 (suits
9→1, 东南西北, 中发白), 4 copies, any tile at the win; one winner (nearest
counterclockwise); minimum 100 和 on self-draw, 200 on a discard; everyone pays
the winner the same; 和 points: 碰 2/4, 暗刻 4/8, 明杠 8/16, 暗杠 16/32 (2-8 /
幺九字), pair of 大料 or seat wind 2, win specials (self-draw: 吊头 4 on 2-8 else 6,
边/嵌 4; on a discard: 吊头 2 on 2-8 else 4, 边/嵌 2); 台: each pung/kong of 大料
or seat wind 1, 凑一台 1, 清三台 3, 清四台 4; final 和 = (basic + 10) × 2^台 rounded
up to 10; 平和 30, 清三台平和 240.

Ambiguities: the five winning types are lost except ① ordinary and ⑤ 对对胡, so
only the regular form is played; 平和 is read as an all-chow hand won on an open
(two-sided) wait; the self-drawn concealed pung specials (自摸六/自摸十) are read
as the value of a concealed pung completed by the self-drawn win tile (6 / 10
instead of 4 / 8).
"""
from __future__ import annotations


from . import fans as F
from .base import (DERIVED_OPTIONS, POINTS_FUNCTIONS, JokerRule, Ruleset, ScoringRule, WallEnd,
                   check_int, doubling, settle_everyone)
from .table_rules import DealerRule

__all__ = ["build", "LUOSHAN", "luoshan_points", "basic_he"]


def _big(t: int) -> bool:
    return t >= 27 or t % 9 in (0, 8)


def basic_he(w) -> int:
    """The basic 和 of a decomposed hand (sets, pair, win specials)."""
    he = 0
    for i, s in enumerate(w.sets):
        if s.kind == "chow":
            continue
        b = _big(s.tile)
        if s.kind == "kong":
            he += (32 if b else 16) if s.concealed else (16 if b else 8)
        elif s.concealed:
            if w.context.self_drawn and w.win_set == i:
                he += 10 if b else 6
            else:
                he += 8 if b else 4
        else:
            he += 4 if b else 2
    if w.pair is not None and (w.pair >= 31 or w.pair == 27 + w.context.seat_wind):
        he += 2
    pos = w.win_position
    if pos == "pair":
        if w.context.self_drawn:
            he += 6 if _big(w.pair) else 4
        else:
            he += 4 if _big(w.pair) else 2
    elif pos in ("edge", "closed"):
        he += 4 if w.context.self_drawn else 2
    return he


def _tai_honor(w) -> int:
    return sum(1 for t in w.pungs if t >= 31 or t == 27 + w.context.seat_wind)


def luoshan_points(fans: dict, rs, w) -> int:
    tai = sum(rs.fan(k).value * n for k, n in fans.items() if k >= 50)
    if fans.get(2):                     # 平和
        return 240 if fans.get(51) else 30
    return -(-(basic_he(w) + 10) * doubling(tai) // 10) * 10        # rounded up to 10


POINTS_FUNCTIONS["luoshan"] = luoshan_points


def build(*, min_self: int = 100, min_discard: int = 200, min_points=None) -> Ruleset:
    # ``min_points`` is stored, derived from ``min_self`` / ``min_discard``; the argument
    # is accepted (older house-rule files write it) and otherwise ignored
    check_int(min_self, "luoshan option min_self", lo=0)
    check_int(min_discard, "luoshan option min_discard", lo=0)
    src = "docs/rules/luoshan.md"
    fl = (
        F.fan(1, "和", "Basic He Points", 0, F.always, source=src),
        F.fan(2, "平和", "All Chows, Open Wait (30)", 0,
              lambda w: int(F.all_chows(w) and w.win_position == "open"), source=src),
        F.fan(50, "大料/门风刻", "Dragon or Seat-Wind Pung (1 台)", 1, _tai_honor, source=src),
        F.fan(51, "清三台", "Full Flush (3 台)", 3, F.flush, source=src),
        F.fan(52, "清四台", "Full Flush All Pungs (4 台)", 4,
              lambda w: int(F.flush(w) and F.all_pungs(w)), excludes=(51,), source=src),
        F.fan(53, "凑一台", "Half Flush (1 台)", 1, F.half_flush, source=src),
    )
    return Ruleset(
        # who deals next: the winner deals; on 荒和 the dealer stays (S000)
        dealer_rule=DealerRule(win="winner"),
        name="luoshan", title="螺山麻将 打来干 (Luoshan)", players=4, hand_size=13,
        calls=("chow_left", "chow_any_on_win", "pung", "exposed_kong", "added_kong",
               "concealed_kong"),
        forms=("regular",), seven_pairs_quads=False, min_fan=0,
        flowers_count_toward_minimum=False, fans=fl, settlement=settle_everyone,
        settlement_params={}, source="docs/rules/luoshan.md", tile_set="136",
        constraints=(), ready="optional", jokers=JokerRule(source="next", copies=4),
        wall_end=WallEnd(kept=0), winners="single",
        scoring=ScoringRule(mode="custom", function="luoshan"),
        options={"min_self": min_self, "min_discard": min_discard,
                 "min_points": [min_self, min_discard]},
        builder="luoshan", section="§3.28",
        interpreted=("平和 read as an all-chow hand won on a two-sided wait",
                     "自摸六 / 自摸十 read as a concealed pung completed by the self-drawn tile"),
        lost=("winning types ②-④ (the list of five keeps ① the ordinary hand and ⑤ 对对胡, "
              "which are played)",))


DERIVED_OPTIONS["luoshan"] = frozenset({"min_points"})
LUOSHAN = build()

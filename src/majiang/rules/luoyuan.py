"""罗源/福州麻将 (金) — docs/rules/luoyuan.md.

All facts from the seed: 16-tile hands (dealer 17): 5 sets + a pair; honors (and
the 8 flowers) are flowers, never played ("36花", 144 tiles; "20花", 128 tiles);
金 = the kind of the tile turned after 补花 (no +1; 3 copies stay wild, the turned
one is face up); a 金 may be discarded but not claimed, and using one to chi/peng
is an offence; chi only by the discarder's 下家, peng beats chi; basic shapes
only; 截胡; wall end keeps 18 (20花) or 20 (36花) tiles, +1 per exposed kong, +2 per
concealed kong; 番 = 花番 + 金 + 连庄 + 1, times 2 on self-draw; 平胡 (no flowers,
no kongs) (金 + 1) × 2; 三金倒 (花番 + 金) × 3, self-draw only, any shape;
金雀 (two 金 as the pair) × 6; 金龙 (three 金 as a pung) × 10.

Ambiguities: 花番 per item is not stated: each flower (flowers=) counts 1 and
each kong 1; 连庄 is 0 for a single hand (option ``repeat``); the formulas of
the dealer blocks are used for every seat (the non-dealer block differs only by
连庄); 抢金 and 天胡 need the game history and are not scored; 金龙 is read as
three jokers standing for one pung.

三金倒 in shanten and advice (option ``special_wins``, default ``("three_jokers",)``): a
hand holding three 金 wins on a self-draw whatever its shape, so the shanten is
min(shape shanten, 2 − 金 held) — each missing 金 is one draw; ready (0) with two, every
draw wins with three — and the 金 draw is an effective tile whenever that path is at the
minimum (:func:`majiang.rules.shapes.three_jokers_win`, :func:`~majiang.rules.shapes.form_shanten`).
``special_wins=()`` scores and computes shapes only.  The shape-free 三金倒 reading is
scored 0 on a discard (self-draw only, seed), and the stored option ``min_points`` (1, 1)
makes a 0-point reading no win, so :func:`majiang.check_win` refuses it there; a shape
win holding three 金 on a discard stands as its shape reading.
"""
from __future__ import annotations

from . import fans as F
from .base import (DERIVED_OPTIONS, POINTS_FUNCTIONS, JokerRule, Ruleset, ScoringRule, WallEnd,
                   check_bool, check_int, settle_points)
from .table_rules import DealerRule

__all__ = ["build", "LUOYUAN", "luoyuan_points"]


def _three(w) -> int:
    return int(bool(w._cache.get("three_jokers")))


def _jin_que(w) -> int:
    n, asg, _ = F.joker_info(w)
    return int(w.form == "regular" and w.pair is not None and asg.count(w.pair) >= 2
               and not _three(w))


def _jin_long(w) -> int:
    n, asg, _ = F.joker_info(w)
    return int(any(s.kind == "pung" and asg.count(s.tile) >= 3 for s in w.sets))


def luoyuan_points(fans: dict, rs, w) -> int:
    n, asg, _ = F.joker_info(w)
    hua = w.context.flowers + F.kongs(w)
    rep = rs.options.get("repeat", 0)
    if fans.get(7):                       # 天胡: x 10 in place of every other formula
        return (hua + n + rep + 1) * 10
    if fans.get(4):                       # 三金倒: self-draw only (0 = no win on a discard)
        return (hua + n + rep) * 3 if w.context.self_drawn else 0
    mult = 10 if fans.get(6) else 6 if fans.get(5) else 2 if w.context.self_drawn else 1
    if fans.get(3) and mult <= 2:          # 平胡: no flowers, no kongs
        return (n + rep + 1) * 2
    return (hua + n + rep + 1) * mult


POINTS_FUNCTIONS["luoyuan"] = luoyuan_points


def build(*, flowers36: bool = True, repeat: int = 0,
          special_wins=("three_jokers",), min_points=None) -> Ruleset:
    # ``min_points`` (1, 1) is stored so that the shape-free 三金倒 reading scored 0 on a
    # discard is no win; accepted (older house-rule files write it) and otherwise ignored
    check_bool(flowers36, "luoyuan option flowers36")
    check_int(repeat, "luoyuan option repeat", lo=0)
    from ..errors import RuleError
    if isinstance(special_wins, str) or not all(isinstance(x, str) for x in special_wins):
        raise RuleError(f"luoyuan option special_wins must be a list of names, got "
                        f"{special_wins!r}")
    src = "docs/rules/luoyuan.md"
    fl = (
        F.fan(1, "放胡", "Win", 0, F.always, source=src),
        F.fan(2, "自摸", "Self-Drawn (x2)", 0, F.self_drawn, source=src),
        F.fan(3, "平胡", "No Flowers No Kongs", 0,
              lambda w: int(w.context.flowers == 0 and F.kongs(w) == 0), source=src),
        F.fan(4, "三金倒", "Three Jokers (x3)", 0, _three, excludes=(3, 5, 6), source=src),
        F.fan(5, "金雀", "Two Jokers as the Pair (x6)", 0, _jin_que, source=src),
        F.fan(6, "金龙", "Three Jokers as a Pung (x10)", 0, _jin_long, excludes=(5,), source=src),
        F.fan(7, "天胡", "Heavenly Hand (x10)", 0,
              lambda w: int(F.heavenly(w) and not _three(w)), excludes=(2, 3, 4, 5, 6),
              source=src + " §4, §6"),
    )
    return Ruleset(
        # who deals next: 连庄 on the dealer's win or a drawn hand, otherwise the 下家 (S000)
        dealer_rule=DealerRule(streak="repeat"),
        name="luoyuan", title="罗源/福州麻将 (Luoyuan, 金)",
        players=4,
        hand_size=16, calls=("chow_left", "pung", "exposed_kong", "added_kong",
                             "concealed_kong"),
        forms=("regular",), seven_pairs_quads=False, min_fan=0,
        flowers_count_toward_minimum=False, fans=fl, settlement=settle_points,
        settlement_params={}, source="docs/rules/luoyuan.md",
        tile_set="144_honor_flowers" if flowers36 else "128_honor_flowers",
        constraints=(), ready="optional",
        jokers=JokerRule(source="turned", copies=3, claim=False, be_claimed=False,
                         discard=True),
        wall_end=WallEnd(kept=20 if flowers36 else 18, per_exposed_kong=1, per_concealed_kong=2),
        winners="head_bump", scoring=ScoringRule(mode="custom", function="luoyuan"),
        options={"flowers36": flowers36, "repeat": repeat, "special_wins": list(special_wins),
                 "min_points": (1, 1)},
        builder="luoyuan", section="§3.30",
        interpreted=("花番: each flower and each kong counts 1 (per-item values not stated)",
                     "金龙 read as three jokers standing for one pung",
                     "the dealer's formulas used for every seat",
                     "天胡: (花番 + 金 + 连庄 + 1) x 10 in place of every other formula, on a "
                     "complete shape (a shape-free 三金倒 on the deal stays x 3)"),
        lost=("抢金's two cases (its value is given, not when it applies): not scored",))


DERIVED_OPTIONS["luoyuan"] = frozenset({"min_points"})
LUOYUAN = build()

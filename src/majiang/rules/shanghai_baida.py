"""活动百搭 / 带弟百搭 (Shanghai-style 百搭) — docs/rules/shanghai_baida.md
(source keys SHW: the Shanghai module of a commercial server, ``ShbdCardTypeEnum`` /
``MjHuTypeEnum`` and its multiplier routine; SHR: the ``randioo`` 百搭 rules with a 3-fan
cap; MIL: the MIL 上海麻将 2024 summary; SHE: a hobby 上海百搭 engine).

From the general rule texts (docs/rules/shanghai_baida.md, only the joker rules):

* **活动百搭**: a tile is turned from the kong tail; **its own kind** is the 百搭 (the other
  3 copies) and a 白板 may stand in for the turned tile's face
  (``JokerRule(source="turned", copies=3, substitute=白)``).
* **带弟百搭**: the 百搭 is the turned tile **+ 1** — suits 9 → 1, honours in one cycle
  东南西北中发白 back to 东 (``JokerRule(source="next", honor_cycle="seven")``, 4 wild
  copies, the turned tile face up).

From the public sources (docs/rules/shanghai_baida.md): 4 players, 13 tiles (dealer 14); 吃 from the previous
player, 碰, 杠; a 百搭 may not be used to 碰 or 杠 (SHE, SHR).  Values, convention M (SHW):
平胡 ×1, 碰碰胡 ×2, 大吊车 ×2 (four melds, single wait), 混一色 ×2, 门清 ×2, 清一色 ×4,
字一色 ×8, 跑百搭 ×2 (a 百搭 as the single wait: the hand wins on any tile), 无百搭 ×2,
四百搭 ×4 (all four 百搭 held; with 活动百搭's three wild copies it cannot happen); win
types 杠开 ×2, 地胡 ×2, 抢杠 ×3 (抓冲, 自摸 and 天胡 ×1); 荒翻 ×2 on the first win after a
drawn hand (:func:`huang_fan`: game history).  Settlement is not stated (§5): the usual
one is used (the discarder pays a discard win, each other player a self-draw).

Options of :func:`build` (default first, alternatives named):

* ``convention`` ("huodong": 活动百搭, the seed's first paragraph; "daidi": 带弟百搭).
* ``dragons_as_flowers`` (False: the seed's tile set — both seed conventions need 中发白
  in play (the 白板 stand-in, the seven-kind cycle) — 144 tiles with 8 flowers; True:
  MIL / SHR 上海敲麻, 中发白 are flowers (144 = 108 + 16 winds + 20 flowers), so no 白板
  stand-in and 带弟 honours cycle 东南西北 only).
* ``values`` ("multiply": SHW; "sum": SHR — the 番 of the patterns are added and capped
  at 3: 四百搭 2, 无百搭 / 跑百搭 / 杠开 / 门清 / 大吊车 1 (SHR's table), the patterns SHR
  lacks 1 each [interp.]; 四百搭 excludes 跑百搭 and 无百搭; the points are
  ``(1 + flower_stake × 花) × 2^番``, SHR's ``(底 + 花分 × 花) × 2^番`` on a base of 1).
* ``flower_stake`` (1, with ``values="sum"``): SHR's 花分, what each 花 adds to the base
  (a room setting whose value no source gives [interp.]; 0: flowers add nothing).  花
  (:func:`baida_flowers`, SHR's count): each flower tile 1, each wind held three times in
  the concealed hand 1, each exposed wind pung 1, kongs: concealed wind 3 / other 2,
  exposed wind 2 / other 1 (SHR's added kong 1: a scored hand does not say how an exposed
  kong was made, so an added one counts as exposed [interp.]).

Not modelled: 乱风向 and 开宝 (meanings not stated), the base stake and who pays a discard
win (§5), SHR's dice 荒番 and its room cap.
"""
from __future__ import annotations

from . import fans as F
from .base import (POINTS_FUNCTIONS, JokerRule, Ruleset, ScoringRule, WallEnd, fan_product,
                   check_bool, check_choice, check_int, settle_points)
from .hangzhou import lone_joker_ready

__all__ = ["build", "SHANGHAI_BAIDA", "baida_points", "baida_flowers", "huang_fan",
           "FLOWER_STAKE"]

_SRC = "docs/rules/shanghai_baida.md (SHW)"
WHITE = 31
FLOWER_STAKE = 1
"""SHR's 花分 default: what each 花 adds to the base stake of 1 (a room setting whose value
no source gives) [interp.]."""
_MULT = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)


def huang_fan(points: int, drawn_before: bool = True) -> int:
    """荒翻 (SHW, SHR): a win right after a drawn hand is worth ×2.

    Raises
    ------
    RuleError
        Negative points.
    """
    check_int(points, "points", lo=0)
    return points * (2 if drawn_before else 1)


def baida_flowers(w) -> int:
    """花 of a win (SHR, docs/rules/shanghai_baida.md §3): each flower tile 1 (the win's
    flower count: 中发白 too when they are flowers), each wind of which the concealed hand
    holds three or more real tiles, the win tile included, 1 (暗花; a 百搭 makes none),
    each exposed wind pung 1, each kong: concealed wind 3, other 2; exposed wind 2,
    other 1 [interp.: an added kong counts as exposed — SHR counts an added one 1, and a
    scored hand does not say how its exposed kong was made]."""
    n = max(w.context.flowers, w.hand.n_flowers)
    win = w.context.win_tile
    _n, wild, win_joker = F.joker_info(w)      # the kinds the 百搭 stand for here
    for k in range(27, 31):
        real = int(w.hand.concealed[k]) - list(wild).count(k) + int(win == k and not win_joker)
        if real >= 3:
            n += 1
    for m in w.hand.melds:
        wind = 27 <= m.tile <= 30
        if m.kind == "kong":
            n += (3 if wind else 2) if m.concealed else (2 if wind else 1)
        elif m.kind == "pung" and wind:
            n += 1
    return n


def baida_points(fans: dict, rs, w) -> int:
    """``values="multiply"`` (SHW): the product of the multipliers.  ``"sum"`` (SHR):
    ``(1 + flower_stake × 花) × 2^番``, the 番 summed and capped at 3 — 四百搭 2, every
    other pattern 1 (SHR's table; the patterns it lacks count 1 [interp.]), 四百搭
    excluding 跑百搭 and 无百搭 — and 花 = :func:`baida_flowers`."""
    if rs.options.get("values", "multiply") == "sum":
        n = sum(c * (2 if k == 10 else 1) for k, c in fans.items() if k != 1)
        if fans.get(10):
            n -= int(bool(fans.get(8))) + int(bool(fans.get(9)))
        stake = 1 + int(rs.options.get("flower_stake", FLOWER_STAKE)) * baida_flowers(w)
        return stake * 2 ** min(3, n)
    return fan_product(fans, rs)


POINTS_FUNCTIONS["shanghai_baida"] = baida_points


def build(*, convention: str = "huodong", dragons_as_flowers: bool = False,
          values: str = "multiply", flower_stake: int = FLOWER_STAKE) -> Ruleset:
    check_choice(convention, "shanghai_baida option convention", ("huodong", "daidi"))
    check_choice(values, "shanghai_baida option values", ("multiply", "sum"))
    check_int(flower_stake, "shanghai_baida option flower_stake", lo=0)
    check_bool(dragons_as_flowers, "shanghai_baida option dragons_as_flowers")
    if convention == "huodong":
        jr = JokerRule(source="turned", copies=3, claim=False, be_claimed=False,
                       discard=True, substitute=None if dragons_as_flowers else WHITE)
    else:
        jr = JokerRule(source="next", copies=4, claim=False, be_claimed=False, discard=True,
                       honor_cycle="separate" if dragons_as_flowers else "seven")
    fl = (
        F.fan(1, "平胡", "Basic Win (x1)", 1, F.always, fallback=True, source=_SRC),
        F.fan(2, "碰碰胡", "All Pungs (x2)", 2, F.all_pungs, source=_SRC),
        F.fan(3, "大吊车", "Single Tile Left (x2)", 2, F.single_left, source=_SRC),
        F.fan(4, "混一色", "Half Flush (x2)", 2, F.half_flush, source=_SRC),
        F.fan(5, "门清", "Concealed Hand (x2)", 2, F.concealed, source=_SRC),
        F.fan(6, "清一色", "Full Flush (x4)", 4, F.flush, source=_SRC),
        F.fan(7, "字一色", "All Honors (x8)", 8, F.all_honors, source=_SRC),
        F.fan(8, "跑百搭", "Joker as the Lone Wait (x2)", 2, lone_joker_ready, source=_SRC),
        F.fan(9, "无百搭", "No Joker (x2)", 2, F.no_jokers, source=_SRC),
        F.fan(10, "四百搭", "Four Jokers (x4)", 4, lambda w: int(F.jokers_held(w) >= 4),
              source=_SRC),
        F.fan(11, "杠开", "Win on Kong Replacement (x2)", 2,
              lambda w: int(w.context.kong and w.context.self_drawn), source=_SRC),
        F.fan(12, "地胡", "Earthly Win (x2)", 2, F.earthly, source=_SRC),
        F.fan(13, "抢杠", "Robbing a Kong (x3)", 3,
              lambda w: int(w.context.kong and not w.context.self_drawn), source=_SRC),
    )
    return Ruleset(
        name="shanghai_baida", title="上海百搭 (活动百搭 / 带弟百搭)",
        players=4, hand_size=13,
        calls=("chow_left", "pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=("regular",), seven_pairs_quads=False, min_fan=0,
        flowers_count_toward_minimum=False, fans=fl, settlement=settle_points,
        settlement_params={"self_draw_all_pay": True},
        source="docs/rules/shanghai_baida.md",
        tile_set="144_dragon_flowers" if dragons_as_flowers else "144",
        constraints=("self_draw_only",) if values == "sum" else (), ready="none", jokers=jr, wall_end=WallEnd(kept=0),
        winners="head_bump", scoring=ScoringRule(mode="custom", function="shanghai_baida"),
        options={"convention": convention, "dragons_as_flowers": bool(dragons_as_flowers),
                 "values": values, "flower_stake": int(flower_stake)},
        builder="shanghai_baida", section="§3.24",
        interpreted=("Shanghai values (docs/rules/shanghai_baida.md)",
                     "the usual payers: the discarder on a discard, each other on a self-draw",
                     "a base stake of 1 (not stated)",
                     "values='sum' (one product): (1 + 花) x 2^番, each 花 adding 1 (its "
                     "per-flower value is a room setting) and an added kong counted as an "
                     "exposed one; the patterns that product lacks count 1 番; and, as that "
                     "product plays, self-draw only"),
        lost=("乱风向 (x4, its hand never defined)", "开宝 (x2, never defined)"))


SHANGHAI_BAIDA = build()

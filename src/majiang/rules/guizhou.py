"""贵州捉鸡 (Guizhou / Guiyang "catch the chicken") — docs/rules/guizhou.md
(source keys: GYR = a Guiyang rule text, BX = the BX ``gui_yang`` server module and its
``GameConstants_GY``, GYC = a commercial client's value table, MIL = a 2023 product
summary; hobby pages GYP, GYT).

From the general rule texts (docs/rules/guizhou.md): 108 tiles (万 筒 条 only); 碰 and 杠, no 吃; chickens (鸡) are bonus
tiles: 幺鸡 (1条) always, the turned tile + 1 after the hand (捉鸡, 9 wraps to 1), the
first 幺鸡 discarded (冲锋鸡); a ready player is paid for his chickens at the end (查听),
so a winner may pay and a loser may gain; 通行证: a plain win on a discard needs a kong.

From the public sources (docs/rules/guizhou.md):

* 4 players, 13 tiles (dealer 14); kongs are 豆: 闷豆 (concealed), 转弯豆 (added), 点豆
  (on a discard); 一炮多响 (several winners on one discard, ``winners="multiple"``);
* forms: four sets and a pair, or seven pairs (龙七对 with a four of a kind);
* **通行证** (constraint ``pass_or_pattern``): a win on a discard needs a 豆 in the hand
  or a hand worth more than 平胡 (GYR, GYP, GYT); a self-draw always may.  A robbed
  kong (抢杠胡) is read as allowed like a self-draw [interp.: it is scored +9 and paid
  by the konger], and so is a 热炮 discard (BX checks the pass on a plain discard only);
* hand values (convention P, GYR/BX/GYC): 平胡 1, 大对子 5, 七对 10, 清一色 10, 单吊 (all
  sets melded, single wait) 10, 清大对 15, 龙七对 20, 清七对 20, 单吊清一色 20, 清龙背 30,
  天胡 / 地胡 20.  The patterns do not add up: the hand is paid at its highest pattern
  (the combined patterns are their own entries, and each lists the smaller ones it
  contains as excluded), 平胡 only when no pattern applies; add-ons on top (BX): 杠上花
  +1, 抢杠胡 +9, 热炮 +1.  ``points`` = the highest pattern + the add-ons (:func:`guizhou_points`);
* settlement of the win (BX): on a self-draw each other player pays the value, on a
  discard the discarder alone pays (:func:`~majiang.rules.base.settle_points`);
* end-of-hand payments outside the hand value, as functions of the final table:
  :func:`kong_payments` (豆: 闷豆 3 from each other player, 点豆 3 from the feeder,
  转弯豆 3 from each; only a ready player collects) and :func:`chicken_payments`
  (幺鸡 1, the turned chicken 1, 金鸡 = 幺鸡 doubled when the turned tile is 9条,
  乌骨鸡 8筒 2 as an option, 冲锋鸡 bonus 2 (×2 金), 责任鸡 1; a ready player collects
  his chickens in hand and melds (a pung 3, a kong 4), the fixed chickens he discarded
  and his 冲锋 bonus from each other player; a player not ready pays his discarded
  fixed chickens and his 冲锋 bonus to each ready player).  Worked examples §6 are
  tests.  In a drawn hand (荒庄) 豆 and 鸡 are not paid (GYP); :func:`chajiao` settles
  查叫 instead (each player not ready pays each ready player that player's value).

Options of :func:`build` (default first, alternatives named):

* ``qing_da_dui`` (15, BX / GYC): the value of 清大对; 20 (GYR text).
* ``wugu`` (False): 乌骨鸡 (8筒) as a fixed chicken worth 2 (BX option).
* ``tong_san`` (False, BX 通三): every win gets +3 instead of the 平胡 point, and the
  冲锋 base becomes 3.
* ``dealer_repeats`` (n, default 0; :func:`majiang.play_match` sets it hand by hand
  through the dealer rule's streak, from 0 on a dealer's first deal): 连庄, "a dealer
  streak adds its count" (BX, docs/rules/guizhou.md §3) — the dealer's own win gets the
  add-on 连庄 +n, and each payment the dealer makes to a winner +n [interp.: BX adds
  the count on both sides of a payment that involves the dealer].  Who keeps the deal
  is not stated: the dealer keeps it on his own win and on a drawn hand, otherwise his
  下家 deals [interp.].  查叫 at a drawn end adds it too ("+ dealer streak", BX,
  docs/rules/guizhou.md §4): a ready dealer's value carries the 连庄 add-on, and each
  查叫 payment a dealer not ready makes carries +n [interp.: as in a win].

* 热炮 (BX): a win on the discard its discarder made right after his own kong (the win
  context's ``kong_discard``, set by both game loops) is an add-on +1 (+3 under 通三).
* ``shao`` (True): 烧 (BX ``shao``, GYP): the player who deals in that way (放热炮)
  collects none of his 豆 and none of his 鸡 for the hand; he still pays what he owes,
  and 责任鸡 stands [interp., BX].  The fact is the kong payments' ``burn``, which the
  end settlement reads for the chickens too.
* the turned-chicken options (BX ``GameConstants_GY``, all off by default): ``ben_ji``
  (本鸡: the turned tile itself is a chicken too), ``yao_bai`` (摇摆鸡: the rank one lower
  too), ``man_tang`` (满堂鸡: a ready player also collects the chickens he discarded),
  ``weekday`` (星期鸡: 1..7, the rank of the weekday in each suit is worth 1 more; an
  explicit value, never the clock; Sunday = 7 [interp.]) and ``chui_feng`` (吹风鸡: a
  turned 5筒 voids every chicken payment) — :func:`chicken_values`,
  :func:`chicken_payments`.  A turned chicken that is 1条 makes 金鸡 (BX).

报听 (GYR, BX; :mod:`majiang.game.engine.declare`): a player declares ready only on the
dealt hand (天听, 硬报: a non-dealer whose dealt 13 tiles are ready, before the dealer's
first discard; the dealer with his first discard [interp.]) or with the discard right
after his first draw (地听, 软报 [interp.: the dealer's first draw comes after his first
discard]); the hand is then frozen (each draw discarded unless it wins; a kong only of the
drawn tile that keeps the waits).  A declared player may win on a discard without the
通行证, and **杀报** (GYR: "any discard of a player who has 报听 may be won on by anyone")
lifts it for a win on a declared player's discard (constraint ``pass_or_pattern``).

* ``ting_values`` ("gyc", GYC's value table): 天听 20 / 地听 10 are hand patterns (the
  hand is paid at its highest pattern, so a declared 平胡 is worth 20 / 10); "bx" [interp.
  of "BX adds 20 for a 硬报 … 天听软报 +10"]: 硬报 +20 / 软报 +10 as add-ons on top of
  the hand's pattern.  A declared ready hand's 查叫 value at a drawn end holds it too.
  "none": a table without 报听 (no declaration is offered; the compiled game loop then
  plays the ruleset, as fast as before 报听 was played).

Not modelled (named): GYT's alternative values (七对 7, 龙七对 10, 清七对 17, 清龙背 20).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..errors import RuleError
from . import fans as F
from .base import (END_SETTLEMENTS, POINTS_FUNCTIONS, JokerRule, KongPayments, Ruleset,
                   ScoringRule, WallEnd, check_bool, check_choice, check_int,
                   settle_points)
from .constraints import constraint
from .table_rules import DealerRule

__all__ = ["build", "GUIZHOU", "guizhou_points", "chicken_values", "chicken_payments",
           "chicken_transfers", "kong_payments", "chajiao", "end_settlement", "YAOJI", "WUGU",
           "CHUI_FENG"]

YAOJI = 18
"""幺鸡: 1条 (kind 18), always a chicken."""
WUGU = 16
"""乌骨鸡: 8筒 (kind 16), a fixed chicken under the ``wugu`` option."""

_PATTERN = ("pattern",)
_ADDON = ("addon",)


def _flush(w) -> int:
    return int(F.flush(w))


def _pungs_all(w) -> int:
    return int(F.all_pungs(w))


def _dragon_seven(w) -> int:
    return int(F.seven_pairs_quads(w) > 0)


def _single(w) -> int:
    """单吊: every set melded, the single tile waited on for the pair."""
    return int(F.single_left(w) and len(w.hand.melds) == 4)


def guizhou_points(fans: Mapping, rs, w) -> int:
    """The value of a Guizhou win: the highest counted pattern (平胡 when none) plus the
    add-ons (杠上花, 抢杠胡), plus 3 under 通三 (convention P, docs/rules/guizhou.md §3)."""
    best, extra = 0, 0
    for k, n in fans.items():
        f = rs.fan(k)
        if "addon" in f.tags:
            extra += f.value * n
        else:
            best = max(best, f.value)
    if rs.options.get("tong_san"):
        extra += 3
    return best + extra


POINTS_FUNCTIONS["guizhou"] = guizhou_points


@constraint("pass_or_pattern", "通行证: a win on a discard needs a 豆 (kong) or a hand worth "
            "more than 平胡, or a ready declaration of the winner or of the discarder (杀报) "
            "(贵州捉鸡)")
def pass_or_pattern(w, fans, rs) -> bool:
    # 热炮: BX checks the pass only on a plain discard, not on the one right after a kong
    ctx = w.context
    if (ctx.self_drawn or ctx.robbing_kong or ctx.kong_discard or ctx.declared_ready
            or ctx.discarder_ready):
        return True
    if any(s.kind == "kong" for s in w.sets) or any(m.kind == "kong" for m in w.hand.melds):
        return True
    return any("pattern" in rs.fan(f).tags for f in fans)


def build(*, qing_da_dui: int = 15, wugu: bool = False, tong_san: bool = False,
          dealer_repeats: int = 0, shao: bool = True, ben_ji: bool = False,
          yao_bai: bool = False, man_tang: bool = False, weekday: int = 0,
          chui_feng: bool = False, ting_values: str = "gyc") -> Ruleset:
    """The 贵州捉鸡 ruleset (see the module docstring for the readings and options).

    Raises
    ------
    RuleError
        ``qing_da_dui`` not 15 or 20; a non-bool ``wugu`` / ``tong_san`` / ``shao`` /
        ``ben_ji`` / ``yao_bai`` / ``man_tang`` / ``chui_feng``; ``dealer_repeats`` not an
        int in 0..100; ``weekday`` not an int in 0..7; ``ting_values`` not "gyc", "bx" or
        "none".
    """
    check_choice(qing_da_dui, "guizhou option qing_da_dui", (15, 20))
    check_choice(ting_values, "guizhou option ting_values", ("gyc", "bx", "none"))
    ting_tags = _PATTERN if ting_values == "gyc" else _ADDON
    ting_label = "" if ting_values == "gyc" else "+"
    check_int(dealer_repeats, "guizhou option dealer_repeats", lo=0, hi=100)
    check_int(weekday, "guizhou option weekday (0 = off, 1 Monday .. 7 Sunday)", lo=0, hi=7)
    n = dealer_repeats
    for name, v in (("wugu", wugu), ("tong_san", tong_san), ("shao", shao),
                    ("ben_ji", ben_ji), ("yao_bai", yao_bai), ("man_tang", man_tang),
                    ("chui_feng", chui_feng)):
        check_bool(v, f"guizhou option {name}")
    src = "docs/rules/guizhou.md (GYR, BX, GYC)"
    fl = (
        F.fan(1, "平胡", "Plain Win (1)", 1, F.always, fallback=True, source=src),
        F.fan(2, "大对子", "All Pungs (5)", 5, _pungs_all, tags=_PATTERN, source=src),
        F.fan(3, "七对", "Seven Pairs (10)", 10, F.seven_pairs, tags=_PATTERN, source=src),
        F.fan(4, "清一色", "Full Flush (10)", 10, _flush, tags=_PATTERN, source=src),
        F.fan(5, "单吊", "All Melded, Single Wait (10)", 10, _single, excludes=(2,),
              tags=_PATTERN, source=src),
        F.fan(6, "清大对", f"Full Flush All Pungs ({qing_da_dui})", qing_da_dui,
              lambda w: _flush(w) and _pungs_all(w), excludes=(2, 4), tags=_PATTERN,
              source=src),
        F.fan(7, "龙七对", "Seven Pairs with a Four (20)", 20, _dragon_seven, excludes=(3,),
              tags=_PATTERN, source=src),
        F.fan(8, "清七对", "Full Flush Seven Pairs (20)", 20,
              lambda w: _flush(w) and F.seven_pairs(w), excludes=(3, 4), tags=_PATTERN,
              source=src),
        F.fan(9, "单吊清一色", "Full Flush All Melded (20)", 20,
              lambda w: _flush(w) and _single(w), excludes=(2, 4, 5, 6), tags=_PATTERN,
              source=src),
        F.fan(10, "清龙背", "Full Flush Seven Pairs with a Four (30)", 30,
              lambda w: _flush(w) and _dragon_seven(w), excludes=(3, 4, 7, 8), tags=_PATTERN,
              source=src),
        F.fan(11, "天胡", "Heavenly Hand (20)", 20, F.heavenly, tags=_PATTERN, source=src),
        F.fan(12, "地胡", "Earthly Hand (20)", 20, F.earthly_or_human, tags=_PATTERN,
              source=src),
        F.fan(13, "杠上花", "Win on Kong Replacement (+1)", 1, F.kong_flower, tags=_ADDON,
              minimum=False, source=src),
        F.fan(14, "抢杠胡", "Robbing the Kong (+9)", 9, F.robbing, tags=_ADDON, minimum=False,
              source=src),
        # 热炮 (BX): the discard its discarder made right after his own kong; +3 under 通三
        F.fan(20, "热炮", f"Win on a Discard after a Kong (+{3 if tong_san else 1})",
              3 if tong_san else 1, F.kong_discard, tags=_ADDON, minimum=False, source=src),
    )
    # 天听 / 地听 (报听 on the dealt hand / right after the first draw; GYC values as
    # patterns, or BX 硬报 / 软报 as add-ons): the game engine offers these declarations
    if ting_values != "none":
        fl += (F.fan(16, "天听", f"Ready on the Dealt Hand ({ting_label}20)", 20,
                     F.declared_on_deal, tags=ting_tags + (F.READY_DEAL,),
                     minimum=ting_values == "gyc", source=src),
               F.fan(17, "地听", f"Ready after the First Draw ({ting_label}10)", 10,
                     F.declared_first_draw, tags=ting_tags + (F.READY_FIRST_DRAW,),
                     minimum=ting_values == "gyc", source=src))
    if n:
        # 连庄 (BX): the streak's count on top of the dealer's own win
        fl += (F.fan(15, "连庄", f"Dealer Repeat (+{n})", n, F.dealer, tags=_ADDON,
                     minimum=False, source=src),)
    return Ruleset(
        name="guizhou", title="贵州捉鸡 (Guizhou chicken)",
        players=4, hand_size=13,
        calls=("pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=("regular", "seven_pairs"), seven_pairs_quads=True, min_fan=0,
        flowers_count_toward_minimum=False, fans=fl, settlement=settle_points,
        # 连庄: each payment the dealer makes to a winner carries the count too
        settlement_params={"dealer": 0, "dealer_pays_extra": n} if n else {},
        dealer_rule=DealerRule(streak="dealer_repeats"),
        source="docs/rules/guizhou.md",
        tile_set="108", constraints=("pass_or_pattern",), ready="optional",
        wall_end=WallEnd(kept=0), winners="multiple",
        scoring=ScoringRule(mode="custom", function="guizhou", unit="points"),
        options={"qing_da_dui": qing_da_dui, "wugu": wugu, "tong_san": tong_san,
                 "dealer_repeats": dealer_repeats, "shao": shao, "ben_ji": ben_ji,
                 "yao_bai": yao_bai, "man_tang": man_tang, "weekday": weekday,
                 "chui_feng": chui_feng, "ting_values": ting_values},
        builder="guizhou", section="§3.9",
        kong_payments=KongPayments(concealed=3, exposed=3, added=3, when="with_win",
                                   collect="ready", burn=shao),
        end_settlement="guizhou",
        interpreted=("values, 豆 and 鸡 from docs/rules/guizhou.md",
                     "抢杠胡 and 热炮 allowed without the 通行证, like a self-draw (as one server plays it)",
                     "连庄: +n on the dealer's win and on each payment he makes to a winner; "
                     "the dealer keeps the deal on his win and on a drawn hand",
                     "连庄 in 查叫: the ready dealer's value carries +n, and each 查叫 "
                     "payment of a dealer not ready carries +n, as in a win",
                     "烧: the burnt player collects no 豆 and no 鸡 but still pays; 责任鸡 "
                     "stands (as one server plays it)",
                     "chicken options: 本鸡 / 摇摆鸡 add kinds worth 1 (金鸡 when one is 1条); "
                     "满堂鸡: a ready player also collects the chickens he discarded; "
                     "星期鸡: the weekday's rank in each suit, worth 1 more, Sunday 7; "
                     "吹风鸡: a turned 5筒 voids every chicken payment, 责任鸡 included",
                     "天听 / 地听: 20 / 10 as hand patterns of one rule text (the hand is paid at its "
                     "highest); one server's 硬报 +20 / 软报 +10 as add-ons (option ting_values)",
                     "天听: a non-dealer before the dealer's first discard, the dealer with "
                     "his first discard; 地听: with the discard of the seat's first draw"))



# ---------------------------------------------------------------- end-of-hand payments
def _check_players(n: int, *seqs: Sequence) -> None:
    for s in seqs:
        if len(s) != n:
            raise RuleError(f"expected one entry per seat ({n}), got {len(s)}")


_NEXT_RANK = JokerRule(source="next")
"""The next-rank rule (9 wraps to 1) of :meth:`JokerRule.kind`: the turned chicken is
found as an indicator's wild kind is."""


_CHICKEN_OPTIONS = ("wugu", "ben_ji", "yao_bai", "weekday")
CHUI_FENG = 13
"""吹风鸡: a turned 5筒 (kind 13) voids the chickens under the ``chui_feng`` option."""


def _chicken_table(turned, *, wugu=False, ben_ji=False, yao_bai=False, weekday=0):
    """``(values, fixed, gold)``: the value per tile of each chicken kind, the fixed kinds
    (counted in the discards of every player) and whether 幺鸡 is 金鸡."""
    check_int(weekday, "the weekday of 星期鸡 (0 = off, 1 Monday .. 7 Sunday)", lo=0, hi=7)
    picked = []
    if turned is not None:
        check_int(turned, "the turned tile (a suited kind)", lo=0, hi=26)
        picked.append(_NEXT_RANK.kind(turned))
        if ben_ji:                                   # 本鸡: the turned tile itself
            picked.append(turned)
        if yao_bai:                                  # 摇摆鸡: one lower too (1 wraps to 9)
            picked.append(9 * (turned // 9) + (turned % 9 + 8) % 9)
    gold = YAOJI in picked
    out = {YAOJI: 2 if gold else 1}
    for k in dict.fromkeys(picked):
        if k != YAOJI:
            out[k] = out.get(k, 0) + 1
    if weekday:                                      # 星期鸡: the weekday's rank, each suit
        for suit in range(3):
            k = 9 * suit + weekday - 1
            out[k] = out.get(k, 0) + 1
    if wugu:
        out[WUGU] = out.get(WUGU, 0) + (4 if gold else 2)
    return out, ({YAOJI, WUGU} if wugu else {YAOJI}), gold


def chicken_values(turned: int | None, *, wugu: bool = False, ben_ji: bool = False,
                   yao_bai: bool = False, weekday: int = 0) -> dict[int, int]:
    """Chicken kinds and their value per tile for the tile turned after the hand (捉鸡).

    Parameters
    ----------
    turned : int or None
        Kind 0..26 of the turned wall tile; the chicken is the next rank of its suit
        (9 wraps to 1).  None: no tile was left to turn (the wall is empty), so only
        the fixed chickens count [interp.; the sources do not say].
    wugu : bool
        乌骨鸡 (8筒) as a fixed chicken worth 2 (BX option).
    ben_ji, yao_bai : bool
        本鸡: the turned tile itself is a chicken too; 摇摆鸡: the rank one lower too (1
        wraps to 9).  Each such kind is worth 1; when one of them is 1条 the 幺鸡 are
        金鸡 (BX ``GAME_RULE_TYPE_BEN_JI`` / ``SWING_JI``).
    weekday : int
        星期鸡: 1 (Monday) .. 7 (Sunday), the rank of that number in each suit is worth 1
        more (added to any other value) [interp.: Sunday is 7]; 0 = off.  The value is
        given, never read from a clock.

    Returns
    -------
    dict
        ``{kind: value}``: 幺鸡 1条 1 (2 when 金鸡: a turned chicken is itself 1条),
        each turned chicken 1 (added to a fixed chicken's value when they coincide),
        乌骨 2 (4 金).

    Raises
    ------
    RuleError
        ``turned`` not a suited kind; ``weekday`` not in 0..7.

    Source: docs/rules/guizhou.md §5 (GYR, BX).
    """
    return _chicken_table(turned, wugu=wugu, ben_ji=ben_ji, yao_bai=yao_bai,
                          weekday=weekday)[0]


def chicken_payments(tiles: Sequence[Mapping[int, int]], discards: Sequence[Sequence[int]],
                     ready: Sequence[bool], turned: int | None, *,
                     first_yaoji: int | None = None, first_yaoji_claimed_by: int | None = None,
                     wugu: bool = False, tong_san: bool = False, ben_ji: bool = False,
                     yao_bai: bool = False, man_tang: bool = False, weekday: int = 0,
                     chui_feng: bool = False, burnt: Sequence[int] = ()) -> tuple:
    """Per-seat chicken (鸡) payments at the end of a won hand (BX reading).

    Parameters
    ----------
    tiles : sequence of mapping
        Per seat, ``{kind: copies}`` of the tiles in the hand and melds (a pung counts
        3, a kong 4).
    discards : sequence of sequence of int
        Per seat, the kinds the player discarded that are still his (not claimed).
    ready : sequence of bool
        Per seat, whether the player is ready (听牌) or has won.
    turned : int
        The tile turned after the hand (the chicken is the next rank).
    first_yaoji : int, optional
        The seat that discarded the first 幺鸡 of the hand (冲锋鸡).
    first_yaoji_claimed_by : int, optional
        The seat that punged / konged that 幺鸡 (责任鸡), else None.
    wugu, tong_san : bool
        The ruleset options (乌骨鸡; 通三: the 冲锋 base is 3 instead of 2).
    ben_ji, yao_bai, weekday : bool, bool, int
        The chicken options of :func:`chicken_values` (本鸡, 摇摆鸡, 星期鸡).
    man_tang : bool
        满堂鸡: a ready player also collects for the chickens he discarded (the turned
        ones too, not only the fixed ones) (BX ``GAME_RULE_MAN_TANG_JI``).
    chui_feng : bool
        吹风鸡: when the turned tile is 5筒 no chicken is paid at all (BX
        ``GAME_RULE_BLOW_JI``) [interp.: 责任鸡 too, as the reading says "all"].
    burnt : sequence of int
        烧: seats that dealt in right after their own kong; they collect no chickens
        (they still pay, and 责任鸡 stands: BX ``shao``).

    Returns
    -------
    tuple of int
        Per-seat score changes, summing to 0.

    Rules (docs/rules/guizhou.md §5): a ready player's total is his chickens in hand
    and melds, the fixed chickens (幺鸡, 乌骨) he discarded and his 冲锋 bonus (base 2,
    ×2 金; the unclaimed first 幺鸡 also counts as a discarded 幺鸡); each other player
    pays him that total.  A player not ready counts only his discarded fixed chickens
    and his 冲锋 bonus, and pays that total to each ready player.  A claimed 冲锋 幺鸡
    is a 责任鸡: the discarder pays the claimant the 幺鸡's value (the claimant pays
    the discarder when only the discarder is ready) and earns no 冲锋 bonus.

    Raises
    ------
    RuleError
        Lists of the wrong length, a bad seat.
    """
    out = [0] * len(ready)
    for payer, payee, amount in chicken_transfers(
            tiles, discards, ready, turned, first_yaoji=first_yaoji,
            first_yaoji_claimed_by=first_yaoji_claimed_by, wugu=wugu, tong_san=tong_san,
            ben_ji=ben_ji, yao_bai=yao_bai, man_tang=man_tang, weekday=weekday,
            chui_feng=chui_feng, burnt=burnt):
        out[payer] -= amount
        out[payee] += amount
    return tuple(out)


def chicken_transfers(tiles: Sequence[Mapping[int, int]], discards: Sequence[Sequence[int]],
                      ready: Sequence[bool], turned: int | None, *,
                      first_yaoji: int | None = None, first_yaoji_claimed_by: int | None = None,
                      wugu: bool = False, tong_san: bool = False, ben_ji: bool = False,
                      yao_bai: bool = False, man_tang: bool = False, weekday: int = 0,
                      chui_feng: bool = False, burnt: Sequence[int] = ()) -> list:
    """The chicken payments of :func:`chicken_payments` one by one: ``(payer, payee,
    amount)`` triples with ``amount > 0`` (the game engine lists them in a hand's end
    checks).  Same parameters, rules and errors as :func:`chicken_payments`; the
    per-seat sums equal its result."""
    n = len(ready)
    _check_players(n, tiles, discards)
    values, fixed, gold = _chicken_table(turned, wugu=wugu, ben_ji=ben_ji, yao_bai=yao_bai,
                                         weekday=weekday)
    for seat in (first_yaoji, first_yaoji_claimed_by, *burnt):
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
            raise RuleError(f"seat must be 0..{n - 1}, got {seat!r}")
    if chui_feng and turned == CHUI_FENG:
        return []
    out = []
    for p in range(n):
        counted = values if (man_tang and ready[p]) else fixed   # 满堂鸡: every chicken
        total = sum(values.get(k, 0) for k in discards[p] if k in counted)
        if first_yaoji == p and first_yaoji_claimed_by is None:
            total += (3 if tong_san else 2) * (2 if gold else 1)
        if ready[p]:
            total += sum(values.get(k, 0) * c for k, c in tiles[p].items())
            if p in burnt:
                continue
            payers = [q for q in range(n) if q != p]
            out += [(q, p, total) for q in payers if total]
        elif total:
            out += [(p, q, total) for q in range(n) if q != p and ready[q]]
    if first_yaoji is not None and first_yaoji_claimed_by is not None:
        d, c = first_yaoji, first_yaoji_claimed_by
        if ready[d] and not ready[c]:
            d, c = c, d
        out.append((d, c, values[YAOJI]))
    return out


def end_settlement(rs, table) -> list:
    """The end-of-hand settlement of 贵州捉鸡 (``Ruleset.end_settlement = "guizhou"``,
    :data:`~majiang.rules.base.END_SETTLEMENTS`), from the final table
    (:class:`~majiang.rules.base.EndTable`).

    After a win: the chickens (:func:`chicken_transfers`, check ``"鸡"``) with the tile
    turned after the hand, the first 幺鸡 discarded (冲锋鸡) and who claimed it (责任鸡),
    under the ruleset's chicken options; a player who dealt in right after his own kong
    (烧, the kong payments' ``burn``) collects no chickens; the 豆 are the ruleset's
    ``kong_payments`` (ready players collect, a burnt player none).  At a drawn end
    (荒庄): 查叫 (:func:`chajiao`, check ``"查叫"``, with the dealer streak ``dealer_repeats``
    on each payment of a dealer not ready), no 豆 and no 鸡.

    Returns
    -------
    list of dict
        ``{"check", "payer", "payee", "amount"}`` (docs/rules/guizhou.md §4-5).
    """
    if not table.winners:
        return [{"check": "查叫", "payer": q, "payee": p, "amount": v}
                for q, p, v in _chajiao_transfers(
                    table.values, table.dealer, int(rs.options.get("dealer_repeats", 0)))]
    first = table.first_discards.get(YAOJI)
    fy, fc = (None, None) if first is None else (first[0], first[1])
    opts = rs.options
    kp = rs.kong_payments
    burnt = sorted({int(w[2]) for w, kd in zip(table.wins, table.kong_discards)
                    if kd and w[2] is not None}) if kp is not None and kp.burn else ()
    trs = chicken_transfers(table.tiles, table.discards, table.ready, table.turned,
                            first_yaoji=fy, first_yaoji_claimed_by=fc,
                            tong_san=bool(opts.get("tong_san")), burnt=burnt,
                            man_tang=bool(opts.get("man_tang")),
                            chui_feng=bool(opts.get("chui_feng")),
                            **{k: opts.get(k, 0) for k in _CHICKEN_OPTIONS})
    return [{"check": "鸡", "payer": int(a), "payee": int(b), "amount": int(v)}
            for a, b, v in trs]


END_SETTLEMENTS["guizhou"] = end_settlement


def kong_payments(kongs: Sequence[Sequence[tuple]], ready: Sequence[bool]) -> tuple:
    """Per-seat 豆 (kong) payments at the end of a won hand (BX reading).

    Parameters
    ----------
    kongs : sequence of sequence of tuple
        Per seat, its kongs as ``(kind, how, feeder)``: ``how`` is ``"concealed"`` (闷豆),
        ``"added"`` (转弯豆 / 爬坡豆) or ``"exposed"`` (点豆, ``feeder`` = the discarder's
        seat; None otherwise).
    ready : sequence of bool
        Per seat, ready (听牌) or won: only a ready player collects.

    Returns
    -------
    tuple of int
        Per-seat score changes, summing to 0: 闷豆 3 from each other player, 转弯豆 3 from
        each other player, 点豆 3 from the feeder (docs/rules/guizhou.md §4; GYP's
        alternative 2 / 3 / 1 is not built).

    Raises
    ------
    RuleError
        Lists of the wrong length, an unknown ``how``, an exposed kong without a feeder.
    """
    n = len(ready)
    _check_players(n, kongs)
    out = [0] * n
    for p in range(n):
        for kong in kongs[p]:
            _kind, how, feeder = kong
            if how not in ("concealed", "added", "exposed"):
                raise RuleError(f"kong type must be concealed, added or exposed, got {how!r}")
            if how == "exposed" and not (isinstance(feeder, int) and 0 <= feeder < n
                                         and feeder != p):
                raise RuleError(f"an exposed kong needs the feeder's seat, got {feeder!r}")
            if not ready[p]:
                continue
            payers = [feeder] if how == "exposed" else [q for q in range(n) if q != p]
            for q in payers:
                out[q] -= 3
                out[p] += 3
    return tuple(out)


def _chajiao_transfers(values, dealer, streak) -> list:
    """The payments of :func:`chajiao` one by one: ``(payer, payee, amount)``, amount > 0."""
    n = len(values)
    out = []
    for p, v in enumerate(values):
        if v is None:
            continue
        for q in range(n):
            if values[q] is None:
                amount = int(v) + (streak if q == dealer else 0)
                if amount > 0:
                    out.append((q, p, amount))
    return out


def chajiao(values: Sequence[int | None], *, dealer: int | None = None,
            streak: int = 0) -> tuple:
    """查叫 at a drawn end (荒庄): each player not ready pays each ready player that ready
    player's hand value, + the dealer streak (连庄) on each payment the dealer makes.

    Parameters
    ----------
    values : sequence of int or None
        Per seat, the value of the ready player's best waiting hand (a ready dealer's
        value already holds the 连庄 add-on, as his win would), or None when the player
        is not ready.
    dealer : int, optional
        The dealer's seat; None: no streak is added.
    streak : int
        The dealer streak (option ``dealer_repeats``): added to each payment the dealer,
        not ready, makes to a ready player [interp.: as in a win].

    Returns
    -------
    tuple of int
        Per-seat score changes, summing to 0 (docs/rules/guizhou.md §4, BX: "+ dealer
        streak").

    Raises
    ------
    RuleError
        ``dealer`` not a seat; ``streak`` not an int in 0..100.
    """
    n = len(values)
    if dealer is not None:
        check_int(dealer, "the dealer's seat", lo=0, hi=n - 1)
    check_int(streak, "the dealer streak", lo=0, hi=100)
    out = [0] * n
    for q, p, v in _chajiao_transfers(values, dealer, streak):
        out[q] -= v
        out[p] += v
    return tuple(out)


GUIZHOU = build()

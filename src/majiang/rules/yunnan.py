"""云南麻将 (Yunnan, 玉溪 / 楚雄) — docs/rules/yunnan.md.

The general rule text (docs/rules/yunnan.md §1) gives the flow: 136 tiles, 4 players, 13
tiles; no 吃, only 碰 and 杠 (明杠, 暗杠, 转弯杠); a **平和 must be self-drawn**, bigger
hands may also win on a discard; self-draw paid by all three, a discard by the discarder
alone, per winner (一炮多响); after passing a win no discard win until one's next draw; a
drawn hand is settled by **查大叫**, kong money not counted; 明杠 costs the discarder 2.
The 楚雄玉溪 product names the hands; **no 玉溪 values were found**: the values are those of
the neighbouring 曲靖 game of a commercial server (docs/rules/yunnan.md §3), marked as
borrowed.  Chosen reading:

* Points (convention D): 2^番, 番 capped at 3 (= 8 per payer).  番: 对对胡 1, 七对 2, 龙七对
  (one four in the pairs) 3, 双龙七对 (two or more) 4 [derived; the cap makes it 3], 清一色 2,
  混一色 1, 门清 1 (no claimed meld; a regular hand — the seven-pairs values already assume a
  closed hand) [interp.], 杠上花 1, 杠上五梅花 2 (杠上花 on 5筒, in place of 杠上花), 杠上炮 1
  (a win on the discard its discarder made right after his own kong: the win context's
  ``kong_discard``).  A hand of 0 番 (平和) wins only by self-draw (constraint
  ``pinghu_self_draw``); 杠上炮 makes a hand of 1 番, which may win on that discard
  [interp.].
* 抢杠胡: the points ×3 (option ``robbing`` = "x3"; "+1" = one more 番 instead), after the
  cap [interp.].
* Kongs (docs/rules/yunnan.md §4): 明杠 2 from the discarder; 暗杠 2 from each other player,
  转弯杠 1 from each [interp.: the Sichuan amounts]; paid only if someone wins (``with_win``:
  "杠钱不算" read as no kong money in a drawn hand).
* 查大叫 at a drawn end: each player who is not ready pays each ready player that player's
  largest hand value (a 平和 wait counts 1).
* 一炮多响 (several winners each paid by the discarder); 过水 locks every discard win until
  the player's own draw (``pass_lock="all"``); play to the last tile.

* 十风 (TYQ ``isShifeng``, 3 番, stands alone): a player whose first ten discards are all
  honours, having made no call or kong, wins at once on the tenth (出牌即胡: nobody may
  claim it), paid as a self-draw: 2^3 = 8 from each other player.  The fan is tagged
  :data:`~majiang.rules.fans.DISCARD_WIN`; the game engine counts it on the seat's own
  discards (claimed ones included) after each of them.
* 最后四张必须能胡必须胡 (``must_win_last=4``): once the fourth tile from the end of the
  wall has been drawn, a win a player may make (on his draw, a discard or a robbed kong)
  is taken by the engine for every player, bots and outside policies alike [interp.:
  "the last four tiles" read as the draws of the last four tiles and the discards made
  after them].

Not played: the two tail tiles turned face up at the start (a 杠上花 may take one; the
sources do not say what happens when the draws reach them, nor whether a taken one is
replaced — ``lost``), 双杠花 (meaning unsure).
"""
from __future__ import annotations

from . import fans as F
from .base import (POINTS_FUNCTIONS, KongPayments, Ruleset, ScoringRule, WallEnd,
                   check_choice, doubling, settle_points)
from .table_rules import DealerRule

__all__ = ["build", "YUNNAN", "yunnan_points"]

_SRC = "docs/rules/yunnan.md"
_BORROWED = _SRC + " (values of the neighbouring 曲靖 game)"

ROBBING = 11


def _long_pairs(n: int):
    def pred(w) -> int:
        return int(w.form == "seven_pairs" and F.seven_pairs_quads(w) >= n)
    return pred


def _five_plum(w) -> int:
    """杠上五梅花: 杠上花 won on 5筒."""
    return int(w.context.kong_replacement and w.context.win_tile == 13)


def yunnan_points(fans: dict, rs, w) -> int:
    """2^番 with 番 capped at ``rs.scoring.cap``; 抢杠胡 ×3 after the cap (option
    ``robbing="x3"``) or +1 番 before it (``"+1"``)."""
    fan = sum(rs.fan(k).value * n for k, n in fans.items() if k != ROBBING)
    robbed = bool(fans.get(ROBBING))
    if robbed and rs.options.get("robbing", "x3") == "+1":
        fan += 1
    cap = rs.scoring.cap
    pts = rs.scoring.base * doubling(fan if cap is None else min(fan, cap))
    if robbed and rs.options.get("robbing", "x3") == "x3":
        pts *= 3
    return pts


POINTS_FUNCTIONS["yunnan"] = yunnan_points


def build(*, cap: int | None = 3, robbing: str = "x3") -> Ruleset:
    check_choice(cap, "yunnan option cap", (3, 4, 5, None))
    check_choice(robbing, "yunnan option robbing", ("x3", "+1"))
    pat = ("pattern",)
    fl = (
        F.fan(1, "对对胡", "All Pungs", 1, F.all_pungs, tags=pat, source=_BORROWED),
        F.fan(2, "七对", "Seven Pairs", 2, F.seven_pairs, tags=pat, source=_BORROWED),
        F.fan(3, "龙七对", "Seven Pairs with a Four", 3, _long_pairs(1), excludes=(2,),
              tags=pat, source=_BORROWED),
        F.fan(4, "双龙七对", "Seven Pairs with Two Fours", 4, _long_pairs(2),
              excludes=(2, 3), tags=pat, source=_BORROWED + " [derived]"),
        F.fan(5, "清一色", "Full Flush", 2, F.flush, tags=pat, source=_BORROWED),
        F.fan(6, "混一色", "Half Flush", 1, F.half_flush, tags=pat, source=_BORROWED),
        F.fan(7, "门清", "Concealed Hand", 1, F.concealed, forms=("regular",), tags=pat,
              source=_BORROWED + " [interp.]"),
        F.fan(8, "杠上花", "Win on Kong Replacement", 1, F.kong_flower, tags=pat,
              source=_BORROWED),
        F.fan(9, "杠上五梅花", "Kong Replacement Win on 5 Dots", 2, _five_plum,
              excludes=(8,), tags=pat, source=_BORROWED),
        F.fan(10, "杠上炮", "Win on a Discard after a Kong", 1, F.kong_discard, tags=pat,
              source=_BORROWED + " [interp.: it lifts a 平和 above 0 番]"),
        F.fan(ROBBING, "抢杠胡", "Robbing a Kong (x3)", 0, F.robbing, source=_BORROWED),
        # 十风 (TYQ isShifeng): counted alone on the seat's discards, by the game engine
        F.fan(12, "十风", "Ten Honour Discards", 3, F.ten_honour_discards,
              tags=(F.DISCARD_WIN,), source=_BORROWED),
    )
    return Ruleset(
        # who deals next: the first winner deals; 一炮多响: the discarder's 下家 (S000)
        dealer_rule=DealerRule(win="winner", several="after_discarder"),
        name="yunnan", title="云南麻将 (Yunnan, 玉溪)", players=4, hand_size=13,
        calls=("pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=("regular", "seven_pairs"), seven_pairs_quads=True, min_fan=0,
        flowers_count_toward_minimum=False, fans=fl, settlement=settle_points,
        settlement_params={}, source=_SRC, tile_set="136",
        constraints=("pinghu_self_draw",), ready="none", wall_end=WallEnd(kept=0),
        winners="multiple", scoring=ScoringRule(mode="custom", function="yunnan", cap=cap),
        options={"cap": cap, "robbing": robbing}, builder="yunnan", section="§3.26",
        pass_lock="all", end_checks=("查大叫",),
        kong_payments=KongPayments(concealed=2, exposed=2, added=1, when="with_win"),
        # 最后四张必须能胡必须胡 (docs/rules/yunnan.md §1): the engine takes the win
        must_win_last=4,
        interpreted=("values borrowed from the neighbouring 曲靖 game (docs/rules/yunnan.md §3)",
                     "门清 1 番; concealed / added kong 2 / 1 from each; 抢杠 x3",
                     "a 平和 with 杠上炮 (1 番) may win on the discard",
                     "十风: the tenth honour discard wins at once, paid as a self-draw "
                     "(3 番 alone, as one server counts it); claimed discards count as the seat's",
                     "最后四张: from the draw of the fourth tile from the end, every "
                     "possible win is taken"),
        lost=("the two face-up tail tiles (杠上花翻两张尾牌): the sources do not say what "
              "happens when the draws reach them, nor whether a taken one is replaced",))


YUNNAN = build()

"""天津麻将 (Tianjin) — docs/rules/tianjin.md (source keys TJP: the
commercial PHP ``GameTianJin``; TJC: the ``tianjin-mahjong`` SPEC; TJJ: a GPL Tianjin
Mahjong in JavaScript; TJS: one-line catalogue summaries).

From the general rule texts (docs/rules/tianjin.md): 混儿 "中下滚，7张"; no 吃; no win on a discard; no 七对 / 十三幺;
混儿吊 2, 没混儿 2, 捉伍儿 3, 龙 4, 杠开 2, 本混儿龙 ×2.  From the public sources (docs/rules/tianjin.md):

* 136 tiles, 4 players, 13 tiles (dealer 14); 碰 and 杠 (直杠, 暗杠, 弯杠), no 吃;
  self-draw (and 杠开) only (constraint ``self_draw_only``); regular hands only.
* 混儿 中下滚 (TJC, TJP ``m_hun_card``): the last tile of the wall is turned; the other
  three copies of its kind (中) and all four copies of the next kind (下; 滚: 9→1, winds
  and dragons inside their group) are wild — 7 jokers
  (``JokerRule(source="turned", copies=3, second="next")``).  A 混儿 may not be
  discarded (TJC).
* Value, convention P (TJP): the points of the patterns are added — 混钓 (the pair is a
  混儿 + the winning tile) 2, 捉五魁 (the win on 5万 fills 4万-5万-6万) 3, 双混捉五魁 (its
  4万 and 6万 both 混儿) 6, 一条龙 4, 本混龙 8, 银杠胡 (holding three indicator-kind
  混儿) 6, 金杠胡 (holding the four next-kind 混儿) 8; 素胡 (no 混儿 in hand) is 2 alone
  and doubles the patterns it comes with; 平胡 1 only with 杠开; then 杠上开花 ×2, 天胡
  ×4.  A win needs 2 points (TJJ "2番起和"); with a 混儿 in hand there is no plain win
  (TJP): such a hand wins only through a pattern.
* Settlement: each other player pays the points (self-draw only).  Kongs are paid at
  once by each other player (:func:`kong_payments`; the engine: :data:`KONGS`): 直杠 1,
  暗杠 2, 弯杠 1, 银杠 6, 金杠 8 (TJP).
* 金杠 / 银杠 (TJP, TJC; option ``gold_kong``, on — off is TJJ2 without ``mode_金杠``): the
  four next-kind 混儿 (金杠), or with ``indicator_in_play`` the four of the indicator's
  kind (银杠), held together may be declared as a concealed kong
  (:attr:`JokerRule.kong <majiang.rules.jokers.JokerRule.kong>`): a set of the hand like
  any concealed kong, its tiles jokers out of play, paid 8 / 6 by each other player.
  [interp.] The kong's 混儿 still count as held: the hand is not 素胡, and a win with a
  金杠 / 银杠 declared is 金杠胡 / 银杠胡 (the hand's name; the readings do not say whether
  the four must stay concealed).

Options of :func:`build` (default first, alternatives named):

* ``indicator_in_play`` (False): the turned tile stays face up, 3 + 4 = 7 jokers (TJC, the
  seed's "7张"); True: it goes back into play, 4 + 4 = 8 jokers — TJP's 银杠 (a kong of
  the indicator kind) needs all four copies.  **Conflict** (§6).
* ``min_points`` (2, TJJ "2番起和"; 1 = "小和起和").
* ``hun_diao_alone`` (True): 混钓 alone reaches the minimum; False = TJJ's "2番起和无混儿吊".

[interp.] 本混龙: a 一条龙 in the suit of a 混儿 kind whose 混儿 of that suit stand for
themselves.  银杠胡 / 金杠胡 and 本混龙 need to know which 混儿 the hand holds: score
with :func:`majiang.scoring.faces.score` (the hand written with the 混儿 by their faces
and the turned ``indicator``; it publishes the held copies of each kind in
:data:`majiang.rules.base.WILD_HELD`); :func:`majiang.score` with ``*`` jokers knows
only their number and scores the other patterns; ``majiang.score(..., indicator=)`` and
``check_win(..., indicator=)`` take the faces and hand over to ``faces.score``.  These fans
are tagged ``"wild_held"``, so the game engine scores every 天津 win by the faces of the
held tiles (and a 银杠胡 / 金杠胡 / 本混龙 can lift a hand to the 2-point minimum).

* ``kou_ting`` (False; TJP's option 扣听): a player may declare ready (扣听) with a
  discard that leaves the hand ready; the hand is then locked (each draw discarded unless
  it wins, a kong only of the drawn tile that keeps the waits;
  :mod:`majiang.game.engine.declare`).  A declared win scores ×4, and with no pattern it
  is a 平胡 of 1 ("平胡 1 only after 扣听 or with 杠开"), so 1 × 4 = 4 reaches the
  minimum [interp.: that 平胡 stands whether or not the hand holds a 混儿].  Under the
  option the game engine plays 天津 in its Python loop.

Lost in the sources: the dealer side bets 坐庄 / 拉庄 (named as a table option between the
dealer and each non-dealer, with no amounts and no rule of who doubles what).  Caps and the
wall end are not stated: no cap, and the wall is played to the last tile [interp.].
"""
from __future__ import annotations

from typing import Any

from ..errors import RuleError
from . import fans as F
from .base import (POINTS_FUNCTIONS, WILD_HELD, JokerRule, KongPayments, Ruleset, ScoringRule,
                   WallEnd, check_bool, check_choice, settle_everyone, settle_points)
from .table_rules import DealerRule

__all__ = ["build", "TIANJIN", "tianjin_points", "kong_payments", "KONG_POINTS", "KONGS"]

_SRC = "docs/rules/tianjin.md (TJP)"

KONG_POINTS = {"exposed": 1, "concealed": 2, "added": 1, "silver": 6, "gold": 8}
"""Kong payments by each other player (TJP): 直杠 1, 暗杠 2, 弯杠 1, 银杠 (the indicator
kind) 6, 金杠 (the next kind) 8."""

KONGS = KongPayments(concealed=KONG_POINTS["concealed"], exposed=KONG_POINTS["exposed"],
                     exposed_each=KONG_POINTS["exposed"], added=KONG_POINTS["added"],
                     when="at_once", wild=(KONG_POINTS["silver"], KONG_POINTS["gold"]))
""":data:`KONG_POINTS` as the engine pays them (TJP): at once, each other player; a
concealed kong of the turned kind (银杠) or the next kind (金杠) by its wild place."""

_POINT_FANS = (2, 3, 4, 5, 6, 7, 8)

_FACES = ("wild_held",)
"""Tag of the fans that read :data:`WILD_HELD` (``majiang.scoring.faces.FACES_TAG``): the
game engine then scores this ruleset's wins with the hand by its faces."""


def kong_payments(kind: str, owner: int, players: int = 4) -> tuple:
    """Per-seat changes when seat `owner` makes a kong of `kind` (:data:`KONG_POINTS`):
    each other player pays its value at once.

    Raises
    ------
    RuleError
        Unknown kind or a seat outside the table.
    """
    if kind not in KONG_POINTS:
        raise RuleError(f"kong kind must be one of {', '.join(KONG_POINTS)}, got {kind!r}")
    if not 0 <= owner < players:
        raise RuleError(f"owner seat must be 0..{players - 1}, got {owner!r}")
    return settle_everyone(KONG_POINTS[kind], owner, None, players=players)


def _no_hun(w) -> int:
    """素胡: no 混儿 in the hand (no ``*``; with the faces known, no 混儿 held at all)."""
    held = WILD_HELD.get()
    if held is not None and sum(held[1]):
        return 0
    return int(F.joker_info(w)[0] == 0)


def _hun_diao(w) -> int:
    """混钓: a 混儿 held before the win waits alone; the win tile pairs with it (a drawn
    混儿 counts when the pair is two 混儿, not when it joins a real single)."""
    n, asg, win_joker = F.joker_info(w)
    if not n or w.form != "regular" or w.win_set != -1 or w.pair is None:
        return 0
    return int(asg.count(w.pair) >= (2 if win_joker else 1))


def _zhuo_wu(w) -> int:
    """捉五魁: the win tile 5万 sits in the middle of a 4万-5万-6万 chow."""
    n, asg, win_joker = F.joker_info(w)
    if win_joker or w.context.win_tile != 4 or w.win_set is None or w.win_set < 0:
        return 0
    s = w.sets[w.win_set]
    return int(s.kind == "chow" and s.tile == 3)


def _double_hun_wu(w) -> int:
    n, asg, _ = F.joker_info(w)
    return int(_zhuo_wu(w) and 3 in asg and 5 in asg)


def _dragon_suit(w):
    ch = w.chows
    for b in (0, 9, 18):
        if b in ch and b + 3 in ch and b + 6 in ch:
            return b // 9
    return None


def _ben_hun_long(w) -> int:
    """本混龙 [interp.]: 一条龙 in the suit of a 混儿 kind, that suit's held 混儿 all
    standing for themselves (needs the faces: :data:`WILD_HELD`)."""
    held = WILD_HELD.get()
    s = _dragon_suit(w)
    if held is None or s is None:
        return 0
    n, asg, _ = F.joker_info(w)
    own = [(k, c) for k, c in zip(*held) if k < 27 and k // 9 == s and c]
    return int(bool(own) and all(asg.count(k) >= c for k, c in own))


def _silver(w) -> int:
    held = WILD_HELD.get()
    return int(held is not None and w.context.self_drawn and held[1][0] >= 3)


def _gold(w) -> int:
    held = WILD_HELD.get()
    return int(held is not None and w.context.self_drawn and len(held[1]) > 1
               and held[1][1] >= 4)


def _plain(w) -> int:
    """平胡 (TJP: "only after 扣听 or with 杠开"): a win on a kong replacement, or by a
    hand declared ready (扣听, the win context's ``declared_ready``)."""
    return int(F.kong_flower(w) or bool(w.context.declared_ready))


def tianjin_points(fans: dict, rs, w) -> int:
    """Add the pattern points; 素胡 doubles them (or is 2 alone); 平胡 1 with 杠开 or after
    扣听; then 杠上开花 ×2, 天胡 ×4 and 扣听 ×4.  0 when only 混钓 counts and
    ``hun_diao_alone`` is off."""
    pts = sum(rs.fan(k).value * n for k, n in fans.items() if k in _POINT_FANS)
    if not rs.options.get("hun_diao_alone", True) and set(fans) & set(_POINT_FANS) == {2}:
        return 0
    if fans.get(1):
        pts = 2 * pts if pts else 2
    if fans.get(9):
        pts += 1
    if fans.get(10):
        pts *= 2
    if fans.get(11):
        pts *= 4
    if fans.get(12):
        pts *= 4
    return pts


POINTS_FUNCTIONS["tianjin"] = tianjin_points


def build(*, indicator_in_play: bool = False, min_points: Any = 2,
          hun_diao_alone: bool = True, gold_kong: bool = True,
          kou_ting: bool = False) -> Ruleset:
    """The 天津 ruleset (see the module docstring for every option's reading).

    Raises
    ------
    RuleError
        An option outside its choices.
    """
    check_bool(gold_kong, "tianjin option gold_kong")
    if isinstance(min_points, (tuple, list)):
        min_points = min_points[0]
    check_choice(min_points, "tianjin option min_points", (1, 2))
    check_bool(indicator_in_play, "tianjin option indicator_in_play")
    check_bool(hun_diao_alone, "tianjin option hun_diao_alone")
    check_bool(kou_ting, "tianjin option kou_ting")
    fl = (
        F.fan(1, "素胡", "No Joker (2, or x2)", 2, _no_hun, excludes=(9,), tags=_FACES,
              source=_SRC),
        F.fan(2, "混钓", "Joker Pair Wait", 2, _hun_diao, excludes=(9,), source=_SRC),
        F.fan(3, "捉五魁", "Five of Characters in 4-5-6", 3, _zhuo_wu, excludes=(9,),
              source=_SRC),
        F.fan(4, "双混捉五魁", "Five of Characters between Two Jokers", 6, _double_hun_wu,
              excludes=(3, 9), source=_SRC),
        F.fan(5, "一条龙", "Pure Straight", 4, F.straight, excludes=(9,), source=_SRC),
        F.fan(6, "本混龙", "Straight in the Joker Suit", 8, _ben_hun_long, excludes=(5, 9),
              tags=_FACES, source=_SRC + " [interp.]"),
        F.fan(7, "银杠胡", "Three Indicator-kind Jokers", 6, _silver, excludes=(9,),
              tags=_FACES, source=_SRC),
        F.fan(8, "金杠胡", "Four Next-kind Jokers", 8, _gold, excludes=(9,), source=_SRC),
        F.fan(9, "平胡", "Plain Win after a Kong or 扣听 (1)", 1,
              _plain if kou_ting else F.kong_flower, source=_SRC),
        F.fan(10, "杠上开花", "Win on Kong Replacement (x2)", 2, F.kong_flower, source=_SRC),
        F.fan(11, "天胡", "Heavenly Win (x4)", 4,
              lambda w: int(bool(getattr(w.context, "heavenly", False))), source=_SRC),
    )
    if kou_ting:
        # 扣听 (TJP, an option): declared and locked ready, x4; the game engine plays the
        # declaration with a discard (majiang.game.engine.declare)
        fl += (F.fan(12, "扣听", "Declared Ready (x4)", 4, F.declared_concealed,
                     tags=(F.READY_CONCEALED,), source=_SRC),)
    copies = 4 if indicator_in_play else 3
    return Ruleset(
        # who deals next: the winner keeps or takes the deal, otherwise the next seat (TJP, TJC)
        dealer_rule=DealerRule(win="winner", draw="pass"),
        name="tianjin", title="天津麻将 (Tianjin, 中下滚 混儿)",
        players=4,
        hand_size=13, calls=("pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=("regular",), seven_pairs_quads=False, min_fan=0,
        flowers_count_toward_minimum=False, fans=fl, settlement=settle_points,
        settlement_params={"self_draw_all_pay": True},
        source="docs/rules/tianjin.md",
        tile_set="136", constraints=("self_draw_only",), ready="optional",
        jokers=JokerRule(source="turned", copies=copies, second="next", second_copies=4,
                         claim=False, be_claimed=False, discard=False, kong=gold_kong),
        kong_payments=KONGS,
        wall_end=WallEnd(kept=0), winners="single",
        scoring=ScoringRule(mode="custom", function="tianjin", unit="points"),
        options={"indicator_in_play": bool(indicator_in_play),
                 "min_points": (min_points, min_points),
                 "hun_diao_alone": bool(hun_diao_alone), "gold_kong": gold_kong,
                 "kou_ting": bool(kou_ting)},
        builder="tianjin", section="§3.15",
        interpreted=("本混龙 read as a 一条龙 in the suit of a 混儿 kind whose 混儿 stand for themselves",
                     "the indicator in play or face up: an option (docs/rules/tianjin.md §6)",
                     "no cap and play to the last tile (caps and the wall end not stated)",
                     "扣听 (option kou_ting): declared with a discard that leaves the hand "
                     "ready, then locked; its 平胡 1 stands with 混儿 in hand")
        + (("a declared 金杠 / 银杠 still counts as held: not 素胡; 金杠胡 / 银杠胡",)
           if gold_kong else ()),
        lost=("the dealer side bets 坐庄 / 拉庄 (named as an option, no amounts given)",))


TIANJIN = build()

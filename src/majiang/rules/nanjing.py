"""南京麻将 (Nanjing): 进园子 and 敞开头 — docs/rules/nanjing.md
(source keys: NJ = the commercial Egret ``RuleDialog`` with both rule texts, index id
18044095381, weight high; NJH = a hobby TypeScript engine's tests, ids 69778821072 /
71485456962, weight low; the 软花 table: index id 35186037765, attribution uncertain).

From the general rule texts (docs/rules/nanjing.md): 20 flowers — the dragons are flowers, so no 大三元-type wins.

From the public sources (docs/rules/nanjing.md):

* 144 tiles = 108 suited + 16 winds + 20 flowers (8 flowers + 中发白 x 4), tile set
  ``144_dragon_flowers``; 124 tiles are played, flowers replaced from the tail (NJH);
  4 players, 13 tiles (dealer 14); 碰 and 杠, no 吃 [interp.] (NJ, NJH);
* scoring in 花, convention P (NJ): 跑一 (底花) 10 on every win; 门一 (门清) +10; 花砸2 =
  (硬花 + 软花) x 2; 混一色 / 对对胡 / 压绝 / 无花果 20 each; 清一色 / 全球独钓 / 七对 30
  each; 双七对 80, 豪华双七对 120; 超豪华双七对 "counts as 160" after the win; 小杠开花
  +10 / 大杠开花 +20; 地胡 +30 (see below); 海底捞月 +20 (self-draw within the last 2 stacks);
  天胡: 进园子 the three others are 干, 敞开头 +200;
* 硬花 = flower tiles (real flowers and dragons), the ``flowers`` count of the win;
  软花 from winds and kongs: wind pung 1, concealed wind pung 2, wind 明杠 3, wind 暗杠
  4, suit 明杠 1, suit 暗杠 2 (id 35186037765, attribution **uncertain**);
* an opened hand needs at least 4 硬花 for a small win (NJH), constraint
  ``open_small_needs_flowers``; the big wins are those of the 比下胡 list;
* 比下胡: the next hand's total x 2 after a dealer repeat, 接庄比, a drawn hand, 包牌,
  any big win (清一色, 混一色, 对对胡, 全球独钓, 七对, 杠后开花, 天胡, 地胡, 压绝, 无花果),
  花杠, a penalty or 一炮多响 (NJ) — :func:`bixia_next` says whether a win triggers it,
  and the settlement's ``bixia`` doubles a hand played under it;
* settlement: a self-draw is paid by each other player, a discard by the discarder
  (NJH); 包牌: 大杠开花 and 抢杠 count as a self-draw paid in full by the responsible
  player, 外包 for 全球独钓 / 三打四包 / 清一色 (NJ).  Played (the liability cases of
  :attr:`Ruleset.liabilities <majiang.rules.base.Ruleset.liabilities>`, both game loops):
  抢杠 — the robbed player pays what all three would pay on a self-draw (``抢杠包牌``);
  大杠开花 — the discarder who fed the kong pays the whole self-draw (``大杠开花包牌``: the
  feeder of the winner's latest claimed meld, which is that kong); the settlement's
  ``bao`` is the same payment for a caller settling by hand.  Not played: 外包 (the
  sources name its three cases but not who is responsible, nor when).

Readings of undefined terms ([interp.]): 双七对 / 豪华双七对 / 超豪华双七对 = seven pairs
with one / two / three four-of-a-kinds (NJH's 豪华七对 is the one-four hand); 超豪华双七对
is the whole total (160, no other item added); 压绝 = a win on the last copy of a kind
(绝张) with a one-tile wait (edge, closed or the pair; NJH "压绝不重复叠加压档"); 无花果 =
no 花 at all (硬花 + 软花 = 0; consistent with NJH's test that an opened hand with a wind
pung and no flowers cannot win); 全球独钓 = every set claimed, a single tile waited on;
小杠开花 (+10) / 大杠开花 (+20) = a win on the replacement of a kong of one's own tiles (a
concealed kong, or a pung made up with a drawn tile) / of a kong made on another player's
discard (明杠, the win context's ``kong_claimed``, which the game engine sets) — the text
names the two without defining them; the discarder who fed the kong is the "responsible
player" of its 包牌, which is what makes the claimed kong the big one (NJ's 比下胡 list
names both 杠后开花).

Options of :func:`build` (default first, alternatives named):

* ``table`` ("jinyuanzi", 进园子: each player brings a 园子 of ``yuanzi`` = 100 and the
  game ends when two are at 0, 两家干); "changkaitou" (敞开头, no stake limit) is
  registered as ``nanjing_changkaitou``.  One hand scores the same under both.
* ``soft_flowers`` (True): the 软花 table above; False = 硬花 only.
* ``open_min_flowers`` (4, NJH): 硬花 an opened small win needs; 0 = no such rule.
* ``seven_pairs_menqing`` (True, NJ's "成牌后门清"): seven pairs also get 门一; False =
  NJH ("七对不重复计门清").
* ``concealed_kong_money`` (6, NJH [interp.]): 现场汇 — NJ has kongs paid at once with
  no amounts; NJH's concealed kong collects 6 from each other player, paid by the game
  engine at once as the ruleset's ``kong_payments`` (not part of the hand's total, not
  doubled by 比下胡); 0 = no kong money.  Exposed kongs pay nothing (no value in any
  source).
* ``tian_ting`` (True): 天听 and 地胡 (below) are played; False: a table without 天听 (no
  declaration is offered, no 地胡; the compiled game loop then plays the ruleset).
* ``yaojue`` (20, NJ): NJH has 40 (**conflict**, §4).  NJH's 豪华七对 160 (one four)
  also conflicts with NJ's 双七对 80; NJ is followed, as §4 directs.

天胡 (the dealer complete on his dealt 14: the win context's ``first_turn``
"heavenly", which the game engine sets; NJ): 敞开头 +200 on top of the hand's total; 进园子
"the three others lose their whole 园子": the total is ``yuanzi`` (a full 园子, 100),
paid by each of the three as a self-draw, in place of every other item [interp.: one hand
does not know how much of his 园子 a player has left, so each is taken as full; 比下胡
doubles it like any total].  Both are big wins (比下胡 next hand).

地胡 (NJ: "after 天听, no 碰/杠", +30, a big win): 天听 is a ready declaration on the
dealt hand (the win context's ``declared_ready`` ``"deal"``, which the game engine offers
— :mod:`majiang.game.engine.declare` — to a non-dealer whose dealt 13 tiles are ready,
before the dealer's first discard, and to the dealer with his first discard [interp.]);
the declared hand is locked (each draw discarded unless it wins).  地胡 is a win of such a
hand with no pung and no kong (concealed kongs included) [interp.: "no 碰/杠"].

Not scored from one hand: the
exposed-kong and penalty payments (现场汇; NJ names them with no values), 压档 / 独占
(NJH +2, not in NJ).

硬花 beyond 8 (§1: "each flower tile (real flowers and dragons)"; the set has 20 of
them): every one counts, up to all 20 — 花砸2 adds 2 per 硬花 with no cap (NJ names
none), so 20 硬花 give 40 花 before the 软花.  The count is the win's ``flowers``
(0..20; the real flowers written in the hand are among them); more than the set's 20
is a :class:`~majiang.RuleError`.
"""
from __future__ import annotations

from . import fans as F
from .base import (KongPayments, Ruleset, ScoringRule, WallEnd, check_bool, check_choice,
                   check_int, register_settlement)
from .liability import Liability

__all__ = ["build", "NANJING", "NANJING_CHANGKAITOU", "settle_nanjing", "bixia_next",
           "hard_flowers", "soft_flowers", "BIG_WINS"]

BIG_WINS = ("混一色", "对对胡", "压绝", "无花果", "清一色", "全球独钓", "七对", "双七对",
            "豪华双七对", "超豪华双七对", "小杠开花", "大杠开花", "天胡", "地胡")
"""The big wins of NJ's 比下胡 list that a win shows."""


def _earthly(w) -> int:
    """地胡: the winner declared ready on the dealt hand (天听) and made no 碰 or 杠."""
    return int(w.context.declared_ready == "deal" and not w.hand.melds)


def hard_flowers(w) -> int:
    """硬花: flower tiles (real flowers and dragons) — the win's flower count, 0..20
    (the hand's real flowers, when written in it, are part of that count)."""
    return max(w.context.flowers, w.hand.n_flowers)


def soft_flowers(w) -> int:
    """软花 from winds and kongs: wind pung 1 (concealed 2), wind 明杠 3, wind 暗杠 4,
    suit 明杠 1, suit 暗杠 2."""
    n = 0
    for s in w.sets:
        if s.kind == "chow":
            continue
        wind = 27 <= s.tile <= 30
        if s.kind == "kong":
            n += (4 if s.concealed else 3) if wind else (2 if s.concealed else 1)
        elif wind:
            n += 2 if s.concealed else 1
    return n


def _flowers(soft: bool):
    def pred(w) -> int:
        return hard_flowers(w) + (soft_flowers(w) if soft else 0)
    return pred


def _quads(n: int):
    def pred(w) -> int:
        return int(w.form == "seven_pairs" and F.seven_pairs_quads(w) == n)
    return pred


def _yajue(w) -> int:
    return int(w.context.last_copy and w.win_position in ("edge", "closed", "pair"))


def _all_claimed_single(w) -> int:
    return int(len(w.hand.melds) == 4 and w.n_exposed == 4 and w.hand.n_concealed == 1)


@register_settlement
def settle_nanjing(points: int, winner: int, discarder: int | None, *, players: int = 4,
                   bixia: bool = False, bao: bool = False) -> tuple:
    """南京 settlement (NJ, NJH): each other player pays `points` on a self-draw, the
    discarder alone on a discard; ``bixia`` (比下胡) doubles; ``bao`` (包牌: 大杠开花,
    抢杠, 外包) makes the discarder pay all three shares, as for a self-draw."""
    amount = points * (2 if bixia else 1)
    out = [0] * players
    payers = [p for p in range(players) if p != winner]
    for p in payers:
        frm = p if discarder is None else discarder
        if discarder is not None and not bao and p != discarder:
            continue
        out[frm] -= amount
        out[winner] += amount
    return tuple(out)


def bixia_next(result) -> bool:
    """Whether a win makes the next hand 比下胡 (a big win of :data:`BIG_WINS`); the
    other triggers (dealer repeat, 接庄比, drawn hand, 包牌, 花杠, penalty, 一炮多响) are
    game events."""
    return any(f.chinese in BIG_WINS for f in result.fans)


def build(*, table: str = "jinyuanzi", yuanzi: int = 100, soft_flowers: bool = True,
          open_min_flowers: int = 4, seven_pairs_menqing: bool = True,
          yaojue: int = 20, concealed_kong_money: int = 6, tian_ting: bool = True) -> Ruleset:
    check_choice(table, "nanjing option table", ("jinyuanzi", "changkaitou"))
    check_bool(tian_ting, "nanjing option tian_ting")
    check_choice(yaojue, "nanjing option yaojue (20 in the commercial rule text, 40 in a hobby engine)", (20, 40))
    check_int(yuanzi, "nanjing option yuanzi", lo=1)
    check_bool(soft_flowers, "nanjing option soft_flowers")
    check_bool(seven_pairs_menqing, "nanjing option seven_pairs_menqing")
    check_int(open_min_flowers, "nanjing option open_min_flowers", lo=0, hi=20)
    check_int(concealed_kong_money, "nanjing option concealed_kong_money", lo=0)
    src = "docs/rules/nanjing.md (NJ)"
    big = ("big",)
    allx = tuple(range(1, 16)) + ((18,) if tian_ting else ())
    menqing = F.concealed if seven_pairs_menqing else (
        lambda w: int(F.concealed(w) and w.form != "seven_pairs"))
    fl = (
        F.fan(1, "跑一", "Base Flowers (底花)", 10, F.always, source=src),
        F.fan(2, "门一", "Concealed Hand (门清)", 10, menqing, source=src),
        F.fan(3, "花砸2", "Flowers x2 (硬花 + 软花)", 2, _flowers(soft_flowers), source=src),
        F.fan(4, "混一色", "Half Flush", 20, F.half_flush, tags=big, source=src),
        F.fan(5, "对对胡", "All Pungs", 20, F.all_pungs, tags=big, source=src),
        F.fan(6, "压绝", "Last Copy on a One-Tile Wait", yaojue, _yajue, tags=big, source=src),
        F.fan(7, "无花果", "No Flowers", 20, lambda w: int(_flowers(True)(w) == 0), tags=big,
              source=src),
        F.fan(8, "清一色", "Full Flush", 30, F.flush, tags=big, source=src),
        F.fan(9, "全球独钓", "All Claimed, Single Wait", 30, _all_claimed_single, tags=big,
              source=src),
        F.fan(10, "七对", "Seven Pairs", 30, _quads(0), tags=big, source=src),
        F.fan(11, "双七对", "Seven Pairs with a Four", 80, _quads(1), tags=big, source=src),
        F.fan(12, "豪华双七对", "Seven Pairs with Two Fours", 120, _quads(2), tags=big,
              source=src),
        F.fan(13, "超豪华双七对", "Seven Pairs with Three Fours (160 in all)", 160, _quads(3),
              excludes=tuple(i for i in allx if i != 13), tags=big, source=src),
        F.fan(14, "小杠开花", "Win on an Own Kong's Replacement", 10, F.kong_flower_own,
              tags=big, source=src + " [interp.: a concealed or added kong]"),
        F.fan(15, "海底捞月", "Last Tile Self-Draw", 20, F.last_self, source=src),
    )
    if tian_ting:
        # 地胡 (NJ: "after 天听, no 碰/杠"): the game engine offers 天听 on the dealt hand
        fl += (F.fan(18, "地胡", "Earthly Hand (天听, no pung or kong)", 30, _earthly,
                     tags=big + (F.READY_DEAL,), source=src),)
    ckt = table == "changkaitou"
    # 天胡 (NJ): 敞开头 +200; 进园子 each other player loses his whole 园子 (the total)
    fl += (F.fan(16, "天胡", "Heavenly Hand" + (" (+200)" if ckt else " (the whole 园子)"),
                 200 if ckt else yuanzi, F.heavenly,
                 excludes=() if ckt else allx, tags=big,
                 source=src),)
    fl += (F.fan(17, "大杠开花", "Win on a Claimed Kong's Replacement", 20,
                 F.kong_flower_claimed, tags=big,
                 source=src + " [interp.: a kong made on a discard]"),)
    return Ruleset(
        name="nanjing_changkaitou" if ckt else "nanjing",
        title="南京麻将 敞开头 (Nanjing, open table)" if ckt
        else "南京麻将 进园子 (Nanjing, stake table)",
        players=4, hand_size=13,
        calls=("pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=("regular", "seven_pairs"), seven_pairs_quads=True, min_fan=0,
        flowers_count_toward_minimum=True, fans=fl, settlement=settle_nanjing,
        settlement_params={"bixia": False, "bao": False},
        source="docs/rules/nanjing.md",
        tile_set="144_dragon_flowers",
        constraints=("open_small_needs_flowers",) if open_min_flowers else (),
        ready="optional", wall_end=WallEnd(kept=0), winners="multiple",
        scoring=ScoringRule(mode="add", unit="points"),  # convention P, counted in 花
        options={"table": table, "yuanzi": yuanzi, "soft_flowers": soft_flowers,
                 "open_min_flowers": open_min_flowers,
                 "seven_pairs_menqing": seven_pairs_menqing, "yaojue": yaojue,
                 "concealed_kong_money": concealed_kong_money, "tian_ting": tian_ting},
        # 现场汇 (NJ: kongs paid at once; NJH: 6 from each player for a 暗杠)
        kong_payments=KongPayments(concealed=concealed_kong_money, when="at_once")
        if concealed_kong_money else None,
        builder="nanjing", section="§3.25",
        interpreted=("no 吃; 双七对 levels, 压绝, 无花果 and 全球独钓 read from the names",
                     "天胡 under 进园子: each other player pays a full 园子 (the stake left "
                     "is not known to one hand)",
                     "现场汇: a concealed kong collects 6 from each other player at once (a "
                     "hobby text's value; the commercial text gives none)",
                     "大杠开花 a win on the replacement of a kong made on a discard, 小杠开花 of "
                     "a concealed or added kong",
                     "地胡: a win after 天听 (a ready declaration on the dealt hand: a "
                     "non-dealer before the dealer's first discard, the dealer with his first "
                     "discard; the hand then locked) with no pung or kong at all"),
        # 包牌 (NJ): 抢杠 and 大杠开花 count as a self-draw paid in full by the responsible
        # player: the robbed one; the discarder who fed the kong
        liabilities=(Liability("抢杠包牌", wins=("robbing_kong",), liable="discarder",
                               pays="self_draw"),
                     Liability("大杠开花包牌", wins=("kong_replacement",),
                               liable="last_feeder", only_fans=("大杠开花",), pays="win")),
        lost=("the 现场汇 amounts of exposed kongs and of penalties (named, no values)",
              "外包 (全球独钓, 三打四包, 清一色): named, but not who is responsible nor when"))


NANJING = build()
NANJING_CHANGKAITOU = build(table="changkaitou")

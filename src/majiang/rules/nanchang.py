"""南昌麻将 (Nanchang) — docs/rules/nanchang.md (source keys BX: the
xy-games Nanchang module and ``Constants_MJ_NANCHANG``; WHN: the 网狐 Nanchang
``TableFrameSink``; NCL / NCG: create-room options of two clients; NCC: a score
calculator).

From the general rule texts (docs/rules/nanchang.md): chows may be three different winds or three dragons; 十三烂; the
names 正精 / 副精, 霸王精, 冲关.  From the public sources (docs/rules/nanchang.md):

* 136 tiles, 4 players, 13 tiles (dealer 14); 吃 碰 杠; BX ends the hand with 34 tiles
  left (``WallEnd(kept=34)``).
* 精 (BX ``getFuJing``, WHN two king indices): a tile is turned after the deal; its kind
  is the **正精**, the next kind in its cycle (suits 9→1, 东→南→西→北→东, 中→发→白→中) the
  **副精**; all four copies of both kinds are wild (``JokerRule(source="turned",
  copies=4, second="next")``: 8 jokers; the turned tile is read as going back into play,
  since every copy is wild).  A discarded 精 may be claimed (the 冲关 liability of BX / WHN
  speaks of a 精 that was 碰/杠ed), as its face.
* Values, convention M on a base of 1 (BX, WHN): 平胡 ×1, 自摸 ×2, 德国 (no 精 acting as a
  wild) ×2 **and +5** (BX ``DE_GUO_EXTRA_SCORE``), 精钓 (the pair is a 精 + the winning
  tile) ×2, 大七对 (碰碰胡) ×2, 小七对 ×2, 十三烂 ×2, 七星十三烂 ×4, 杠开 ×2, 抢杠 ×2;
  天胡 / 地胡 a fixed 20 (``first_turn`` of the win context).  The value of a payment
  is ``M × 2 (dealer involved, WHN) + 5 (德国)``.
* 精分 (:func:`jing_scores`): 正精 2, 副精 1 over a player's hand and melds (and his own
  discarded 精 with 打出精牌算分, the NCL default — the caller counts them); s ≥ 5 →
  冲关 s × (s − 3); 霸王精 (one player alone holds 精) ×2 or +10; every other player pays
  the holder, whether or not anyone won.  :func:`settle_hand` adds the win and the 精分.
  The game engine pays it at the end of every hand through ``end_settlement="nanchang"``
  (:func:`end_settlement`, entries ``check="精分"`` in ``end_checks``).

Readings chosen where the sources differ (options of :func:`build`, default first):

* ``pay`` ("three", 三家付: on a discard win the discarder pays ×2 and the two others
  ×1, WHN's code and a BX option; "one", 一家付: the discarder alone pays ×2, BX).
  The +5 of 德国 on a discard is paid by the discarder only (WHN); on a self-draw by
  each payer.
* ``dealer_double`` (True, WHN 庄 ×2; False: no dealer factor — §5 leaves open whether
  点炮 ×2 and 庄 ×2 stack in all products; here they do).
* ``bawang`` ("double": 霸王精 ×2; "plus10": +10; both BX / NCL / NCG options).
* ``german_seven_pairs`` (True): 德国七对 carries one more ×2 — the WHN source example
  (§4 example 3: 自摸 ×2, 德国 ×2, 七对 ×2, "one more ×2", +5 = 21; the dealer 37)
  has that factor, which no other source names; False drops it.
* ``seven_pairs_quads`` (True): four of a kind counts as two pairs in 小七对 [interp.;
  not stated].
* ``cap`` (None; BX option 300): the cap on M (an even number, see below).
* ``chao_zhuang`` (True: 抄庄 is paid, see below; False: not paid).
* ``jing_discards`` (True, 打出精牌算分, the NCL default): a player's own discarded 精
  still in his pool count for his 精分 at the end; False: hand and melds only.
* ``chong_guan_bao`` (True, BX / WHN): 冲关包赔, see below; False: every other player pays
  a 冲关 himself.
* ``honor_chows`` (True; docs/rules/nanchang.md §1 "Calls", BX's 冲关 check, WHN's
  ``WIK_DNBL`` … claim kinds): a chow may also be **three different winds** (any three
  of 东南西北) or **the three dragons** (中发白), concealed in the hand or claimed.
  Readings [interp.; the sources name the sets only]: an honour chow is claimed like a
  suited chow — from the seat before only (``chow_left``), with the two other tiles
  from the hand — and it *is* a chow for the values: it spoils 大七对 (碰碰胡: all
  pungs) and counts toward 平胡 like any set.  Written ``[123z]`` / ``[134z]`` /
  ``[567z]`` (:data:`majiang.hand.HONOR_CHOW_STARTS`); every layer reads
  :attr:`RuleSpec.honor_chows <majiang.rules.model.RuleSpec.honor_chows>` (scoring's
  decompositions, shanten / ukeire / waits through the shape engine, probabilities by
  the Python paths, the Python game loop's claims, win check and efficiency bot; the
  compiled game loop does not play 南昌).  False: suited chows only.

Jokers in a scored hand: with :func:`majiang.score` a ``*`` is a wild 精 whose face is
unknown, so 德国 is counted only for a hand without ``*``.
:func:`majiang.scoring.faces.score` takes the hand with the 精 written by their faces
and the turned ``indicator``: a 精 standing for its own face is natural
(``JokerRule.own_face_natural``), so it scores the hand both with the 精 as their faces
(德国) and with every 精 wild, and keeps the better reading.  ``majiang.score(...,
indicator=)`` and ``check_win(..., indicator=)`` hand such a hand over to it, and the game
engine scores every 南昌 win that way (``own_face_natural``: the faces matter).

Settlement detail: :meth:`RegionalResult.settle <majiang.scoring.regional.RegionalResult.settle>`
passes one number, the points ``M + 5·[德国]``; every multiplier is 2 or 4 (天胡 a fixed
20), so M is 1 or even and 德国 makes it at least 2 — :func:`settle_nanchang` recovers
the +5 from an odd value of at least 7 (and the cap is kept even for that reason).

抄庄 (BX's rule text: "在开局第一圈，庄家出的第一张牌，三个闲家在第一圈每人都出一张"; the
payment is BX's code [interp. of code]; option ``chao_zhuang``, on): when the three others
each discard the dealer's first discard in the first go-around, the dealer pays
:data:`CHAO_ZHUANG_PAYMENT` (5) to each of them at the end of the hand, won or drawn
(:func:`end_settlement`, ``check="抄庄"``).  It is read from the discards made before the
first claim as 广东 跟庄 (:func:`majiang.rules.baoding.gen_zhuang_rounds`, the first go-around
only).

冲关包赔 (docs/rules/nanchang.md §2; BX ``checkChongGuangReason`` [interp. of code];
option ``chong_guan_bao``, on): when a player's 精分 reaches 冲关 (s >= 5) and any 精 he
counts was supplied by another player — the discard he claimed into a 碰 / 杠 / 吃, or the
discard (the robbed kong tile) he won on — the supplier of the first such tile he took
pays that holder's whole 精分 for every other player (the others pay him nothing),
``check="冲关包赔"`` (:func:`chong_guan_liable`, read from the final table's
``supplied``).  BX tests any supplied 精, not whether the 冲关 would fail without it.

Lost in the sources (``lost``): WHN's extra 10 per other player when the supplied 精 was
konged (it reads as a 精 kong's payment, and no source gives 南昌's kong payments);
德中德 ×4 (two products define it differently, one gating it on 霸王精: no
definition to play), the dealer-streak factor on 精分 (WHN multiplies by a dealer-streak
counter whose start and steps no reading gives; a match still passes the deal by
:data:`~majiang.rules.table_rules.DEFAULT_DEALER_RULE`) and the extra 精 rounds (上下翻精,
埋地雷, 回头一笑 …: product options named with "scored the same way", without saying which
tile is turned for each or whether 冲关 / 霸王精 apply per round).
"""
from __future__ import annotations

from typing import Any

from ..errors import RuleError
from . import fans as F
from .baoding import gen_zhuang_rounds
from .table_rules import END_NOTES
from .base import (END_SETTLEMENTS, POINTS_FUNCTIONS, JokerRule, Ruleset, ScoringRule, WallEnd,
                   check_bool, check_choice, check_int, fan_product, register_settlement)

__all__ = ["build", "NANCHANG", "nanchang_points", "settle_nanchang", "jing_score",
           "jing_scores", "jing_payments", "jing_holdings", "chong_guan_liable",
           "end_settlement", "settle_hand",
           "GERMAN_BONUS", "CHAO_ZHUANG_PAYMENT", "CHONG_GUAN", "is_chong_guan", "lone_hand_note"]

GERMAN_BONUS = 5
"""德国 adds 5 to each payment that carries it (BX ``DE_GUO_EXTRA_SCORE``)."""
CHAO_ZHUANG_PAYMENT = 5
"""抄庄: what the dealer pays each other player (docs/rules/nanchang.md §3, BX [interp. of
code])."""

_SRC = "docs/rules/nanchang.md (BX, WHN)"


def _german(w) -> int:
    """德国: no 精 acts as a wild (no ``*`` in the reading)."""
    return int(F.joker_info(w)[0] == 0)


def _jing_diao(w) -> int:
    """精钓: the pair is a 精 held before the win (a wild) + the winning tile (a drawn 精
    counts when the pair is two 精, not when it joins a real single)."""
    n, asg, win_joker = F.joker_info(w)
    if not n:
        return 0
    t = w.context.win_tile
    if w.form == "regular":
        return int(w.win_set == -1 and w.pair is not None
                   and asg.count(w.pair) >= (2 if win_joker else 1))
    if w.form == "seven_pairs":
        return int(t in asg and w.counts[t] - asg.count(t) == 1 and not win_joker)
    return 0


def _first_turn(w) -> int:
    ctx = w.context
    return int(bool(getattr(ctx, "heavenly", False) or getattr(ctx, "earthly", False)))


def _german_seven(w) -> int:
    return int(w.form == "seven_pairs" and _german(w))


def nanchang_points(fans: dict, rs, w) -> int:
    """``M + 5·[德国]``: M the product of the counted multipliers (capped), or 20 for
    天胡 / 地胡."""
    if fans.get(12):
        return 20
    return fan_product(fans, rs, "multiplier") + (GERMAN_BONUS if fans.get(3) else 0)


POINTS_FUNCTIONS["nanchang"] = nanchang_points


def _split(points: int) -> tuple[int, int]:
    """(M, bonus) from the points of :func:`nanchang_points` (see the module notes)."""
    if points % 2 and points >= 2 + GERMAN_BONUS:
        return points - GERMAN_BONUS, GERMAN_BONUS
    return points, 0


@register_settlement
def settle_nanchang(points: int, winner: int, discarder: int | None, *, players: int = 4,
                    dealer: int | None = 0, dealer_double: bool = True,
                    pay: str = "three") -> tuple:
    """南昌 settlement of a win worth `points` (``M + 5·[德国]``, :func:`nanchang_points`).

    Self-draw: each other player pays ``M`` (×2 when he or the winner is the dealer and
    ``dealer_double``) + 5 for 德国.  Discard (``pay="three"``, 三家付): the discarder
    pays ``2M`` (×2 dealer) + 5 for 德国, the two others ``M`` (×2 dealer); ``pay="one"``
    (一家付): the discarder alone pays.  Returns per-seat changes (sum 0).
    """
    m, bonus = _split(int(points))
    out = [0] * players

    def amount(p: int) -> int:
        a = m
        if dealer_double and dealer is not None and dealer in (p, winner):
            a *= 2
        return a

    for p in range(players):
        if p == winner:
            continue
        if discarder is None:
            a = amount(p) + bonus
        elif p == discarder:
            a = 2 * amount(p) + bonus
        elif pay == "three":
            a = amount(p)
        else:
            continue
        out[p] -= a
        out[winner] += a
    return tuple(out)


# ---------------------------------------------------------------- 精分
CHONG_GUAN = 5
"""The raw 精分 ``s = 2·正精 + 副精`` from which it is a 冲关, paid ``s × (s − 3)``
(:func:`jing_score`)."""


def jing_score(zheng: int, fu: int) -> int:
    """Raw 精分 of one player: ``s = 2·正精 + 副精``, and 冲关 ``s × (s − 3)`` from s = 5
    (5 → 10, 6 → 18, 7 → 28, 8 → 40).  BX ``EveryJingInfo``, WHN.

    Raises
    ------
    RuleError
        Negative counts.
    """
    if zheng < 0 or fu < 0:
        raise RuleError(f"精 counts must be non-negative, got {zheng}, {fu}")
    s = 2 * int(zheng) + int(fu)
    return s * (s - 3) if s >= CHONG_GUAN else s


def is_chong_guan(zheng: int, fu: int) -> bool:
    """Whether a holding of ``zheng`` 正精 and ``fu`` 副精 is a 冲关 (s = 2·正精 + 副精 >=
    :data:`CHONG_GUAN`), the one test :func:`jing_score`'s payment, :func:`chong_guan_liable`
    and :func:`end_settlement`'s check name read."""
    return 2 * int(zheng) + int(fu) >= CHONG_GUAN


def jing_scores(holdings, *, bawang: str = "double", liable: dict | None = None) -> tuple:
    """Per-seat changes of the 精分 settlement at the end of a hand (won or drawn).

    Parameters
    ----------
    holdings : sequence of (int, int)
        Per seat, the (正精, 副精) tiles counted for it: hand and melds, plus its own
        discarded 精 when 打出精牌算分 is on (NCL default).
    bawang : {"double", "plus10"}
        霸王精 — exactly one player holds any 精: his 精分 ×2, or +10.
    liable : dict, optional
        ``{holder seat: supplier seat}``: a 冲关 that depends on a 精 the supplier
        provided (BX ``checkChongGuangReason``); the supplier pays the holder's whole
        collection (what every other player would have paid).

    Returns
    -------
    tuple of int
        Per-seat changes, summing to 0.  Every other player pays each holder his 精分.

    Raises
    ------
    RuleError
        An unknown ``bawang`` or bad counts.
    """
    n = len(holdings)
    out = [0] * n
    for payer, payee, v in jing_payments(holdings, bawang=bawang, liable=liable):
        out[payer] -= v
        out[payee] += v
    return tuple(out)


def jing_payments(holdings, *, bawang: str = "double", liable: dict | None = None) -> list:
    """The single payments of :func:`jing_scores`: ``[(payer, payee, amount)]``, one per
    holder and other player (amount > 0), in seat order.

    Raises
    ------
    RuleError
        As :func:`jing_scores`.
    """
    if bawang not in ("double", "plus10"):
        raise RuleError(f"bawang must be 'double' or 'plus10', got {bawang!r}")
    hold = [(int(z), int(f)) for z, f in holdings]
    n = len(hold)
    out = []
    holders = [p for p, (z, f) in enumerate(hold) if z + f > 0]
    for p in holders:
        v = jing_score(*hold[p])
        if len(holders) == 1:
            v = 2 * v if bawang == "double" else v + 10
        sup = (liable or {}).get(p)
        for q in range(n):
            if q != p and v:
                out.append((q if sup is None else sup, p, v))
    return out


def jing_holdings(rs, table) -> list:
    """Per seat ``(正精, 副精)`` counted for 精分 from the final table
    (:class:`~majiang.rules.base.EndTable`): the copies of the two wild kinds
    (``table.wild``) in the hand, the melds and a won tile, plus the seat's own discards
    still in its pool when the ruleset's option ``jing_discards`` (打出精牌算分, the NCL
    default) is on.  All zero when the table names no wild kinds."""
    if len(table.wild) < 2:
        return [(0, 0)] * table.players
    zheng, fu = int(table.wild[0]), int(table.wild[1])
    own = bool(rs.options.get("jing_discards", True))
    out = []
    for q in range(table.players):
        t = table.tiles[q]
        z, f = int(t.get(zheng, 0)), int(t.get(fu, 0))
        if own:
            z += sum(1 for k in table.discards[q] if int(k) == zheng)
            f += sum(1 for k in table.discards[q] if int(k) == fu)
        out.append((z, f))
    return out


def chong_guan_liable(rs, table, holdings=None) -> dict:
    """冲关包赔 (BX ``checkChongGuangReason``, WHN; docs/rules/nanchang.md §2): ``{holder:
    supplier}`` for each player whose 精分 reaches 冲关 (s >= 5, :func:`jing_score`) while
    a 精 he counts came from another seat — the claimed discard of one of his 碰 / 杠 /
    吃, or the discard (or robbed kong tile) he won on (``table.supplied``).  The
    supplier of the first such tile he took is liable [interp. of BX's code: it takes the
    first claimed meld holding one].  Empty when the ruleset's option ``chong_guan_bao``
    is off or the table names no wild kinds."""
    if not rs.options.get("chong_guan_bao", True) or len(table.wild) < 2:
        return {}
    wild = {int(table.wild[0]), int(table.wild[1])}
    hold = holdings if holdings is not None else jing_holdings(rs, table)
    out = {}
    for q, (z, f) in enumerate(hold):
        if not is_chong_guan(z, f) or q >= len(table.supplied):
            continue
        for kind, sup in table.supplied[q]:
            if kind is not None and int(kind) in wild and sup != q:
                out[q] = int(sup)
                break
    return out


def end_settlement(rs, table) -> list:
    """南昌 精分 and 抄庄 at the end of every hand, won or drawn (``Ruleset.end_settlement =
    "nanchang"``, :data:`~majiang.rules.base.END_SETTLEMENTS`): :func:`jing_payments` of
    :func:`jing_holdings` with the ruleset's ``bawang`` option, entries ``{"check":
    "精分", "payer", "payee", "amount"}`` (``"冲关"`` when the holder's 精分 reached it, s >=
    :data:`CHONG_GUAN`, so a 冲关 is named where it is paid); a 冲关 resting on a 精 another seat supplied
    (:func:`chong_guan_liable`, option ``chong_guan_bao``) is paid by that seat alone for
    every other player, ``check="冲关包赔"``; then, with the option ``chao_zhuang``, 抄庄
    when the three others each discarded the dealer's first discard in the first
    go-around (read from the discards made before the first claim,
    :func:`~.baoding.gen_zhuang_rounds`): the dealer pays :data:`CHAO_ZHUANG_PAYMENT` to
    each, ``check="抄庄"``.
    """
    hold = jing_holdings(rs, table)
    liable = chong_guan_liable(rs, table, hold)

    def check(payer: int, holder: int) -> str:
        if liable.get(holder) == payer:
            return "冲关包赔"
        return "冲关" if is_chong_guan(*hold[holder]) else "精分"
    out = [{"check": check(a, b), "payer": a, "payee": b, "amount": v}
           for a, b, v in jing_payments(hold, bawang=rs.options.get("bawang", "double"),
                                        liable=liable)]
    if rs.options.get("chao_zhuang", True) and gen_zhuang_rounds(table.opening, table.dealer):
        out += [{"check": "抄庄", "payer": table.dealer, "payee": q,
                 "amount": CHAO_ZHUANG_PAYMENT}
                for q in range(table.players) if q != table.dealer]
    return out


END_SETTLEMENTS["nanchang"] = end_settlement


def lone_hand_note(rs, tiles, wild, taken) -> str | None:
    """What the winner's own 精 pay at the hand's end (:data:`END_NOTES`, ``majiang
    score``): his 正精 / 副精 in hand, melds and won tile, s = 2·正精 + 副精, his 精分 or
    冲关 (:func:`jing_score`) from each other player, and 冲关包赔 when a 精 he counts was
    taken from a discard (option ``chong_guan_bao``, :func:`chong_guan_liable`).  The
    other players' 精, his own discarded ones (option ``jing_discards``) and 霸王精 are
    only known at the table.  None without the wild kinds (no indicator)."""
    if len(wild) < 2:
        return None
    z, f = int(tiles.get(int(wild[0]), 0)), int(tiles.get(int(wild[1]), 0))
    s = 2 * z + f
    head = f"精分 at the hand's end, besides this payment: the winner's {z} 正精 + {f} 副精"
    if not s:
        return head + " (s = 0): nothing; the other players' 精 are paid to them"
    text = f"{head}, s = {s}"
    if is_chong_guan(z, f):
        text += f": 冲关 {s} x {s - 3} = {jing_score(z, f)} from each other player"
        if rs.options.get("chong_guan_bao", True) and {int(k) for k in taken} & {
                int(wild[0]), int(wild[1])}:
            text += " (冲关包赔: the player whose discard gave a 精 pays it for everyone)"
    else:
        text += f": {s} from each other player"
    return text + "; x2 or +10 as 霸王精 when no one else holds a 精"


END_NOTES["nanchang"] = lone_hand_note


def settle_hand(result: Any, winner: int | None, discarder: int | None = None, *,
                jing=(), bawang: str | None = None, liable: dict | None = None) -> tuple:
    """The whole 南昌 settlement of a hand: the win (``result.settle``; None = drawn
    hand) plus the 精分 of every player (:func:`jing_scores`; ``bawang`` defaults to the
    ruleset option of the result, else "double").

    Raises
    ------
    RuleError
        As :meth:`RegionalResult.settle` and :func:`jing_scores`.
    """
    players = len(jing) if jing else 4
    total = [0] * players
    if result is not None:
        total = list(result.settle(winner, discarder))
        rs = result._rules_object() if hasattr(result, "_rules_object") else NANCHANG
        if bawang is None:
            bawang = rs.options.get("bawang", "double")
    if jing:
        for p, d in enumerate(jing_scores(jing, bawang=bawang or "double", liable=liable)):
            total[p] += d
    return tuple(total)


def build(*, pay: str = "three", dealer_double: bool = True, bawang: str = "double",
          german_seven_pairs: bool = True, seven_pairs_quads: bool = True,
          cap: int | None = None, honor_chows: bool = True,
          jing_discards: bool = True, chao_zhuang: bool = True,
          chong_guan_bao: bool = True) -> Ruleset:
    check_choice(pay, "nanchang option pay", ("three", "one"))
    check_choice(bawang, "nanchang option bawang", ("double", "plus10"))
    for key, v in (("dealer_double", dealer_double), ("german_seven_pairs", german_seven_pairs),
                   ("seven_pairs_quads", seven_pairs_quads), ("honor_chows", honor_chows),
                   ("jing_discards", jing_discards), ("chao_zhuang", chao_zhuang),
                   ("chong_guan_bao", chong_guan_bao)):
        check_bool(v, f"nanchang option {key}")
    check_int(cap, "nanchang option cap", lo=2, even=True, optional=True)
    mult = ("multiplier",)
    fl = [
        F.fan(1, "平胡", "Basic Win (x1)", 1, F.always, fallback=True, source=_SRC),
        F.fan(2, "自摸", "Self-Drawn (x2)", 2, F.self_drawn, tags=mult, source=_SRC),
        F.fan(3, "德国", "No Wild Joker (x2 +5)", 2, _german, tags=mult, source=_SRC),
        F.fan(5, "精钓", "Joker Pair Wait (x2)", 2, _jing_diao, tags=mult, source=_SRC),
        F.fan(6, "大七对", "All Pungs (x2)", 2,
              lambda w: int(w.form == "regular" and F.all_pungs(w)), tags=mult, source=_SRC),
        F.fan(7, "小七对", "Seven Pairs (x2)", 2, F.seven_pairs, tags=mult, source=_SRC),
        F.fan(8, "十三烂", "Thirteen Lonely (x2)", 2,
              lambda w: int(w.form == "thirteen_lonely"), tags=mult, source=_SRC),
        F.fan(9, "七星十三烂", "Seven Stars Thirteen Lonely (x4)", 4,
              lambda w: int(w.form == "seven_stars"), tags=mult, excludes=(8,), source=_SRC),
        F.fan(10, "杠开", "Win on Kong Replacement (x2)", 2, F.kong_flower, tags=mult,
              source=_SRC),
        F.fan(11, "抢杠", "Robbing a Kong (x2)", 2,
              lambda w: int(w.context.kong and not w.context.self_drawn), tags=mult,
              source=_SRC),
        F.fan(12, "天胡/地胡", "Heavenly / Earthly Win (20)", 20, _first_turn,
              excludes=(1, 2, 3, 5, 6, 7, 8, 9, 10, 11) + ((13,) if german_seven_pairs else ()),
              source=_SRC),
    ]
    if german_seven_pairs:
        fl.append(F.fan(13, "德国七对", "Seven Pairs without Wild (one more x2)", 2,
                        _german_seven, tags=mult, source=_SRC + " example 3"))
    return Ruleset(
        name="nanchang", title="南昌麻将 (Nanchang, 正精/副精)",
        players=4,
        hand_size=13, calls=("chow_left", "pung", "exposed_kong", "added_kong",
                             "concealed_kong"),
        forms=("regular", "seven_pairs", "thirteen_lonely", "seven_stars"),
        seven_pairs_quads=bool(seven_pairs_quads), min_fan=0,
        flowers_count_toward_minimum=False, fans=tuple(fl), settlement=settle_nanchang,
        settlement_params={"dealer": 0, "dealer_double": bool(dealer_double), "pay": pay},
        source="docs/rules/nanchang.md",
        tile_set="136", constraints=(), ready="none",
        jokers=JokerRule(source="turned", copies=4, second="next", second_copies=4,
                         claim=False, be_claimed=True, discard=True,
                         own_face_natural=True),
        wall_end=WallEnd(kept=34), winners="head_bump", end_settlement="nanchang",
        scoring=ScoringRule(mode="custom", function="nanchang", cap=cap),
        options={"pay": pay, "dealer_double": bool(dealer_double), "bawang": bawang,
                 "german_seven_pairs": bool(german_seven_pairs),
                 "seven_pairs_quads": bool(seven_pairs_quads), "cap": cap,
                 "honor_chows": bool(honor_chows), "jing_discards": bool(jing_discards),
                 "chao_zhuang": bool(chao_zhuang), "chong_guan_bao": bool(chong_guan_bao)},
        builder="nanchang", section="§3.7",
        interpreted=("德国七对 carries one more x2 (one source example)",
                     "点炮 x2 and 庄 x2 stack",
                     "an honour chow (three winds / the three dragons) is claimed from the "
                     "seat before only, like a suited chow, and counts as a chow: it spoils "
                     "大七对 and is a set of 平胡",
                     "抄庄: the dealer pays 5 to each other player (one product's code)",
                     "冲关包赔: a 冲关 holding any 精 another player supplied (a claimed "
                     "discard, or the tile won on) is paid for everyone by the first such "
                     "supplier (one product's code)"),
        lost=("冲关包赔's extra 10 per other player when the 精 was konged (one product): "
              "no source gives 南昌's kong payments it would stand for",
              "德中德 x4: two products define it differently, one gating it on 霸王精",
              "the dealer-streak factor on 精分: a counter whose start and steps no source "
              "gives",
              "the extra 精 rounds (上下翻精, 埋地雷, 回头一笑 …): options named without "
              "which tiles are turned or how 冲关 / 霸王精 apply to each"))


NANCHANG = build()

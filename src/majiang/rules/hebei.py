"""河北麻将 (Hebei, the 混儿 game) — docs/rules/hebei.md.

The general rule texts list for 河北 (docs/rules/hebei.md §1): 碰 allowed, no 吃, self-draw
only, 混儿 jokers, a 14-tile win, no flowers, "基点为1、2、3", and the points 混儿吊 2,
没混儿 2, 捉伍儿 3, 龙 4, 杠開 2, 本混儿龙 (龙 ×2), which add up.  The same list is the
Tianjin-style 混儿 game of three Tianjin programs and of the Hebei rule texts of one
commercial platform (docs/rules/hebei.md §1-§5).  Chosen reading:

* 136 tiles, 4 players, 13 tiles (dealer 14); 碰, 明杠, 补杠, 暗杠, **no 吃**; a 混儿 may
  not be used to claim, may not be claimed and may not be discarded; regular hands only
  (no 七对 / 十三幺); **self-draw only** (constraint ``self_draw_only``).
* 混儿 (§2): the last wall tile is turned after the deal; the **next kind** (9→1 in a suit,
  东→南→西→北→东, 中→发→白→中) is wild — **4 jokers**; the turned tile stays out of play
  [interp.: one program takes it out, another leaves it in].
* Points (§3, convention P): the listed items **add** — 混儿吊 2 (the pair is a 混儿 and
  the winning tile), 没混儿 (素) 2 (no 混儿 held), 捉伍儿 3 (the win on 5万 fills 4万-6万),
  龙 4 (1-9 of one suit), 本混儿龙 8 (a 龙 in the 混儿's suit with its 混儿 standing for
  themselves, in place of 龙) [interp.], 杠開 2 (self-draw on a kong replacement).  A plain
  hand has no value and **does not win** [interp.: a win needs one listed item].
* Settlement (§4): each other player pays points × 基点 (the stake, ``stake``: 1, 2 or 3
  [interp. of "基点为1、2、3"]), **×2** on a payment to or from the dealer (庄2闲1).
  Kongs (:func:`kong_money`, the end-of-hand settlement ``"hebei"``): each other player pays
  明杠 1, 补杠 1, 暗杠 2, ×2 when the dealer pays or made the kong, settled only when someone
  won (荒庄荒杠).
* Wall end (§4): play stops when 7 stacks (14 tiles) remain.  Drawn hand: no payment.

Options of :func:`build` (default first, alternatives named in docs/rules/hebei.md §3-§4):

* ``jokers`` (4): 7 = also the 3 other copies of the turned kind (the Tianjin border game).
* ``arithmetic`` ("add", the text's "叠加"): "double" = the items add, then 素 and 杠開
  double instead of adding (one Tianjin program); "tianjin_x4" = items add, 素 ×4 and 杠開
  ×2, and a win needs 捉伍儿, 龙, 素 or 杠開 (another Tianjin program; a 素 or 杠開 hand
  without an added item counts 1 before the multipliers [interp.]).
* ``stake`` (1): 2 or 3.
* ``gen_zhuang`` (0, off: not in the rule text): 跟庄 of the Hebei city games (docs/rules/hebei.md
  §4) — when all four players discard the same kind in a go-around, from the first on, the
  dealer pays each other player this amount (1: 保定 / 廊坊, 2: 承德 / 唐山), not doubled,
  once per such go-around until one breaks the run (or a claim does), win or not; read
  from the discards made before the first claim as 保定's and 广东's 跟庄 (:func:`majiang.rules.baoding.gen_zhuang_rounds`).

金杠 (option ``gold_kong``, TJJ2 ``mode_金杠``, off): the four 混儿 held together may be
declared as a concealed kong — a set of the hand like any concealed kong, its tiles
jokers out of play — paid 8 by each other player at the win (混儿暗杠, dealer ×2,
:func:`kong_money`); the hand is then not 没混儿 (TJJ2 counts the kong's 混儿 as held).

Not modelled: a 15-tile wall end after an odd number of kongs, the dealer streak.  Lost in
the sources: 拉庄 (one program's "×2ⁿ side doubling": what n counts and who doubles against
whom are not given).
"""
from __future__ import annotations

from ..errors import RuleError
from . import fans as F
from .base import (DERIVED_OPTIONS, END_SETTLEMENTS, POINTS_FUNCTIONS, JokerRule, Ruleset, ScoringRule,
                   WallEnd, check_bool, check_choice, register_settlement)
from .baoding import gen_zhuang_rounds
from .tianjin import _ben_hun_long, _hun_diao, _no_hun, _zhuo_wu
from .table_rules import DealerRule

__all__ = ["build", "HEBEI", "hebei_points", "settle_dealer_double", "kong_money",
           "KONG_POINTS", "GOLD_KONG_POINTS"]

_SRC = "docs/rules/hebei.md"
_FACES = ("wild_held",)

KONG_POINTS = {"exposed": 1, "added": 1, "concealed": 2}
"""Kong money from each other player (docs/rules/hebei.md §4): 明杠 1, 补杠 1, 暗杠 2."""
GOLD_KONG_POINTS = 8
"""混儿暗杠 (金杠, a concealed kong of the four 混儿) from each other player
(docs/rules/hebei.md §4, TJJ2)."""

# fan ids
SU, HUN_DIAO, ZHUO_WU, LONG, BEN_HUN_LONG, GANG_KAI = 1, 2, 3, 4, 5, 6
_SHAPES = (HUN_DIAO, ZHUO_WU, LONG, BEN_HUN_LONG)


def hebei_points(fans: dict, rs, w) -> int:
    """The hand's points times the stake (docs/rules/hebei.md §3): under ``"add"`` the items
    add; under ``"double"`` the shape items add, then 素 and 杠開 double (each alone is 2);
    under ``"tianjin_x4"`` the shape items add (1 when none), 杠開 ×2, 素 ×4, and a hand
    without 捉伍儿, 龙, 素 or 杠開 scores 0 (no win)."""
    how = rs.options.get("arithmetic", "add")
    val = {k: rs.fan(k).value * n for k, n in fans.items()}
    if how == "add":
        pts = sum(val.values())
    else:
        pts = sum(v for k, v in val.items() if k in _SHAPES)
        if how == "double":
            for k in (SU, GANG_KAI):
                if fans.get(k):
                    pts = 2 * pts if pts else 2
        else:
            if not (set(fans) & {ZHUO_WU, LONG, BEN_HUN_LONG, SU, GANG_KAI}):
                return 0
            pts = pts or 1
            if fans.get(GANG_KAI):
                pts *= 2
            if fans.get(SU):
                pts *= 4
    return pts * rs.scoring.base


POINTS_FUNCTIONS["hebei"] = hebei_points


@register_settlement
def settle_dealer_double(points: int, winner: int, discarder: int | None, *,
                         players: int = 4, dealer: int | None = 0,
                         discarder_pays_all: bool = False) -> tuple:
    """Each other player pays `points` on a self-draw, the discarder alone on a discard
    (``discarder_pays_all``: the discarder pays every other player's share); a share is
    doubled when the dealer pays it or wins (庄2闲1, docs/rules/hebei.md §4)."""
    out = [0] * players
    for p in range(players):
        if p == winner or (discarder is not None and not discarder_pays_all
                           and p != discarder):
            continue
        amount = points * (2 if dealer is not None and dealer in (p, winner) else 1)
        frm = p if discarder is None else discarder
        out[frm] -= amount
        out[winner] += amount
    return tuple(out)


def kong_money(kongs, winners, dealer: int, players: int = 4, wild=()) -> list:
    """The kong payments of a finished hand (docs/rules/hebei.md §4): for each kong
    ``(kind, how, feeder)`` of seat q in ``kongs[q]``, each other player pays
    :data:`KONG_POINTS` [how] — a concealed kong of a kind in ``wild`` (the 混儿 kinds:
    金杠) :data:`GOLD_KONG_POINTS` — doubled when the dealer pays or made the kong;
    nothing when nobody won (荒庄荒杠).  Returns payment dicts (``check``, ``payer``,
    ``payee``, ``amount``).

    Raises
    ------
    RuleError
        An unknown kong kind.
    """
    if not winners:
        return []
    out = []
    for q, ks in enumerate(kongs):
        for kind, how, _ in ks:
            if how not in KONG_POINTS:
                raise RuleError(f"kong kind must be one of {', '.join(KONG_POINTS)}, "
                                f"got {how!r}")
            base = (GOLD_KONG_POINTS if how == "concealed" and kind in wild
                    else KONG_POINTS[how])
            for p in range(players):
                if p == q:
                    continue
                amt = base * (2 if dealer in (p, q) else 1)
                out.append({"check": "杠分", "payer": p, "payee": q, "amount": amt})
    return out


def end_settlement(rs, table) -> list:
    """Kong money at the end of the hand (:func:`kong_money` over the final table) and
    跟庄 (option ``gen_zhuang``: the dealer pays each other player that amount per copied
    go-around, in a drawn hand too)."""
    out = kong_money(table.kongs, table.winners, table.dealer, table.players,
                     table.wild)
    amount = rs.options.get("gen_zhuang", 0)
    rounds = gen_zhuang_rounds(table.opening, table.dealer) if amount else 0
    out += [{"check": "跟庄", "payer": table.dealer, "payee": p, "amount": rounds * amount}
            for p in range(table.players) if rounds and p != table.dealer]
    return out


END_SETTLEMENTS["hebei"] = end_settlement


def build(*, jokers: int = 4, arithmetic: str = "add", stake: int = 1,
          gold_kong: bool = False, gen_zhuang: int = 0) -> Ruleset:
    """The 河北 混儿 ruleset (see the module docstring for every option's reading).

    ``gold_kong`` (金杠, TJJ2 ``mode_金杠``; off by default as there): the four 混儿 held
    together may be declared as a concealed kong (:attr:`JokerRule.kong
    <majiang.rules.jokers.JokerRule.kong>`), paid :data:`GOLD_KONG_POINTS` by each other
    player at the win (dealer ×2).  ``gen_zhuang`` (跟庄, 0 = off, 1 or 2 a copied
    go-around): see the module docstring.

    Raises
    ------
    RuleError
        An option outside its choices.
    """
    check_choice(jokers, "hebei option jokers", (4, 7))
    check_bool(gold_kong, "hebei option gold_kong")
    check_choice(arithmetic, "hebei option arithmetic", ("add", "double", "tianjin_x4"))
    check_choice(stake, "hebei option stake", (1, 2, 3))
    check_choice(gen_zhuang, "hebei option gen_zhuang", (0, 1, 2))
    fl = (
        F.fan(SU, "没混儿", "No Joker (素)", 2, _no_hun, tags=_FACES, source=_SRC),
        F.fan(HUN_DIAO, "混儿吊", "Joker Pair Wait", 2, _hun_diao, source=_SRC),
        F.fan(ZHUO_WU, "捉伍儿", "Five of Characters in 4-5-6", 3, _zhuo_wu, source=_SRC),
        F.fan(LONG, "龙", "Pure Straight", 4, F.straight, source=_SRC),
        F.fan(BEN_HUN_LONG, "本混儿龙", "Straight in the Joker Suit", 8, _ben_hun_long,
              excludes=(LONG,), tags=_FACES, source=_SRC + " [interp.]"),
        F.fan(GANG_KAI, "杠開", "Win on Kong Replacement", 2, F.kong_flower, source=_SRC),
    )
    if jokers == 4:
        jr = JokerRule(source="next", copies=4, claim=False, be_claimed=False, discard=False,
                       kong=gold_kong)
    else:
        jr = JokerRule(source="turned", copies=3, second="next", second_copies=4,
                       claim=False, be_claimed=False, discard=False, kong=gold_kong)
    return Ruleset(
        # who deals next: the dealer keeps the deal on a win or a drawn hand, else the next seat (QQH)
        dealer_rule=DealerRule(),
        name="hebei", title="河北麻将 (Hebei, 混儿)", tiles_note="17 stacks of 2 per player",
        players=4, hand_size=13,
        calls=("pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=("regular",), seven_pairs_quads=False, min_fan=0,
        flowers_count_toward_minimum=False, fans=fl, settlement=settle_dealer_double,
        settlement_params={"dealer": 0}, source=_SRC, tile_set="136",
        constraints=("self_draw_only",), ready="none", jokers=jr,
        wall_end=WallEnd(kept=14), winners="single",
        scoring=ScoringRule(mode="custom", function="hebei", base=stake, unit="points"),
        options={"jokers": jokers, "arithmetic": arithmetic, "stake": stake,
                 "gold_kong": gold_kong, "gen_zhuang": gen_zhuang, "min_points": (1, 1)},
        builder="hebei", section="§3.13", end_settlement="hebei",
        interpreted=("read as the Tianjin-style 混儿 game (docs/rules/hebei.md)",
                     "the turned tile stays out of play; 4 jokers; 基点 as the stake; no plain win",
                     "跟庄 (off by default) repeats in every copied go-around and is not doubled")
        + (("a hand with a 金杠 is not 没混儿 (its 混儿 are the player's tiles, TJJ2)",)
           if gold_kong else ()),
        missing=(),
        lost=("拉庄 (one program's side doubling: what it counts and who bets are not given)",))


HEBEI = build()
DERIVED_OPTIONS["hebei"] = frozenset({"min_points"})

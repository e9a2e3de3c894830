"""温州麻将 (Wenzhou, 财神) — docs/rules/wenzhou.md (source keys
WZA: the commercial ``qipai_wenzhoumajiang`` server — ``WenzhouMajiangPanPlayerHufan``,
``WenzhouMajiangJiesuanCalculator``, ``WenzhouMajiangPanResultBuilder``, ``…Caishenqian``,
``…Gang``; W7: the 779游戏大厅 温州麻将 rule page; MIL: the MIL 温州麻将 2024 rulebook
summary; WZK: a hobby two-player engine).

From the general rule texts (docs/rules/wenzhou.md): 4 players, 吃碰杠, 财神 = any tile, 连庄 raises the base, seats
redrawn after four repeats; "17 tiles each" is the dealer's count.  From the standard
readings (§7):

* 136 tiles; **16-tile hands, dealer 17** (W7, MIL "十六张手牌", WZA ``FaPaiStrategy(16)``):
  a win is 5 sets + a pair.  吃 from the previous player, 碰, 杠; one winner (the first in
  turn order from the discarder); the last 16 tiles are not drawn (W7).
* 财神 (W7 "翻牌就是财神", MIL "每局翻财", WZA, WZK): a tile is turned; its kind (no +1) is
  the 财神 — the other 3 copies — and **白板 plays as the 财神's face**
  (``JokerRule(source="turned", copies=3, substitute=白)``: with the indicator given
  a hand is written as its tiles look — a 财神 by its face or ``*``, a 白板 as ``5z`` —
  :func:`majiang.efficiency.read_faces`; without it a 财神 is ``*`` and a 白板 is
  written as the face it plays).  A
  财神 may not be discarded, claimed or used to claim (W7, WZK).
* 三财神 (W7): three 财神 win without any shape (``special_wins=("three_jokers",)``,
  option ``three_caishen_win``); with a shape they are 双翻.
* Levels, convention M (WZA ``WenzhouMajiangPanPlayerHufan``): the hand's value is its
  highest level — 软 ×1 (a 财神 stands for another tile); 硬 ×2 (no 财神 substituted, and
  every self-draw and every 抢杠); 双翻 ×4 (天胡, 地胡, 三财神 always; with the option
  特殊双翻: 单张吊, 全求神, 双财归位, 碰碰胡, 杠开, 清一色, 混一色, 中发白, 财神牛对);
  四翻 ×8 (option 辣子辣: 三财归位).
* Settlement (WZA ``WenzhouMajiangPanResultBuilder``, W7): **every** non-winner pays the
  winner, also on a discard; between the dealer and a non-dealer level × 底分 × (1 + the
  买底 of the two), between two non-dealers level × 1.  底分 by the dealer's consecutive
  deal (:func:`base_points`; option ``base_table``): 1, 2, 3, 4 (default), 进阶1 2, 4, 6,
  8, 进阶2 2, 4, 8, 16.  Optional side payments: :func:`caishen_money` (财神钱) and
  :func:`kong_money` (杠算分: 明杠 1, 暗杠 2 from each other player).

Options of :func:`build` (default first, alternatives named):

* ``special_double`` (True: WZA's 特殊双翻 on — W7 lists 碰碰胡 and 单张全求 among the 双翻
  without an option; False: WZA without it, only 天胡 / 地胡 / 三财神).
* ``lazi`` (False; True = WZA 辣子辣: 三财归位 ×8).
* ``base_table`` ("default" 1/2/3/4, W7 "10/20/30/40"; "jinjie1"; "jinjie2").
* ``dealer_deal`` (1..4, the dealer's consecutive deal; 底分 of the table).
* ``three_caishen_win`` (True, W7; False: 三财神 needs a shape, WZA).
* ``caishen_dandiao`` (True, W7 财神单钓: a hand whose only missing tile is the pair of a
  lone 财神 — it waits on any tile — may not win on a discard; False: WZA, which has no
  such check).  Implemented as 0 points (no win) for that reading.  W7's "跑马一圈自摸胡牌"
  (he must let one go-around pass and win by self-draw) is read as the go-around up to his
  own next draw — the three other seats' discards, on which he may not win — so it is the
  same self-draw-only rule [interp.; the text does not say the go-around is any longer].

Which 财神 play as their own face (财神归位: 双财归位, 三财归位) needs the faces: score with
:func:`majiang.scoring.faces.score` (it publishes the held 财神 in
:data:`majiang.rules.base.WILD_HELD`); a held ``*`` is read as standing for another tile.
``faces.score`` reads a 白板 as the natural tile of the 财神's face (§2), so a 白板 playing
as, say, 5m beside two 财神 as 5m makes 双财归位.  In :func:`majiang.ukeire` and the
discard tables the 白板 draw that plays as the face is listed as ``"5z"`` (the tile drawn).

三财神 in shanten and advice (reading of W7 "三财神 win without any shape", on a self-draw:
a 财神 cannot be claimed): with ``three_caishen_win`` the shanten is min(shape shanten,
2 − 财神 held) — each missing 财神 is one draw (0: ready with two, every draw wins with
three) — and the 财神 draw is an effective tile whenever that path is at the minimum
(``options["special_wins"]`` holds ``"three_jokers"``, read by
:func:`majiang.rules.shapes.three_jokers_win`; these hands are computed by
:mod:`majiang.rules.shapes`).

八对 (``eight_pairs``, True: WZA's 构型 check "8 pairs and 1 single", W7 / MIL "八对加单张"):
a fully concealed 17-tile hand of eight pairs and one more tile wins (form
``"eight_pairs"``; a four of a kind counts as two pairs [interp.]; 财神 pair singles or
each other, or are the odd tile).  Its level: 八对 is 硬 (×2) even with a 财神
substituted, and 硬八对 (no 财神 substituted) is 双翻 (×4) always (§7.3; WZA's own code
gives 硬八对 its ×4 only with 特殊双翻).  Shanten, ukeire, waits, the win check and the
scorer know the form (:func:`majiang.rules.shapes.forms.eight_pairs_kept`, one closed form
beside the compiled engine); a 16-tile hand of eight pairs is ready on every tile.  The
game engine's bots do not aim at it (they win with it when it comes), and the
probabilities play the regular form only (a note says so: a lower bound).  ``eight_pairs``
False drops the form and its two fans.

Discard order (W7, ``discard_order="lone_honours"``, played in the game engine's legal
discards): a lone honour (the only tile of its kind in the hand) goes before any other
tile; after another seat discards an honour, a player holding a single tile of it
discards that tile.  Read as: "first" = before any other tile, whenever a lone honour is
held; "someone discards" = the table's latest discard, by another seat; 白板 counts as
the 财神 face it plays as [interp.].

Lost in the sources: 连庄 re-seating.  The general text says only that the four players
draw their seats again after the dealer has kept the deal four times; it does not say
whether the first deal counts among the four, who deals after the redraw or whether the
底分 starts again at 1 (WZA's 底分 stays at its last entry from the 4th deal on, and WZK
caps the streak at 4 without a redraw), so :func:`majiang.play_match` keeps the seats and
the streak goes on.
"""
from __future__ import annotations

from ..errors import RuleError
from . import fans as F
from .base import (DERIVED_OPTIONS, POINTS_FUNCTIONS, WILD_HELD, JokerRule, Ruleset, ScoringRule,
                   WallEnd,
                   check_bool, check_int, register_settlement, settle_everyone)
from .hangzhou import _real_before, lone_joker_ready
from .table_rules import DealerRule

__all__ = ["build", "WENZHOU", "wenzhou_points", "settle_wenzhou", "base_points",
           "caishen_money", "kong_money", "BASE_TABLES"]

_SRC = "docs/rules/wenzhou.md (WZA, W7)"
WHITE = 31
BASE_TABLES = {"default": (1, 2, 3, 4), "jinjie1": (2, 4, 6, 8), "jinjie2": (2, 4, 8, 16)}
"""底分 between the dealer and a non-dealer by the dealer's consecutive deal (WZA)."""


def base_points(deal: int, table: str = "default") -> int:
    """底分 for the dealer's `deal`-th consecutive deal (4 and more: the last entry).

    Raises
    ------
    RuleError
        Unknown table or ``deal`` < 1.
    """
    if table not in BASE_TABLES:
        raise RuleError(f"base_table must be one of {', '.join(BASE_TABLES)}, got {table!r}")
    check_int(deal, "dealer deal", lo=1)
    return BASE_TABLES[table][min(deal, 4) - 1]


def _own_face(w) -> int:
    """财神 standing for their own face (needs the faces: :data:`WILD_HELD`)."""
    held = WILD_HELD.get()
    if held is None:
        return 0
    n, asg, _ = F.joker_info(w)
    return min(asg.count(held[0][0]), held[1][0])


def _substituted(w) -> int:
    n = F.joker_info(w)[0]
    return n - _own_face(w)


def _hard(w) -> int:
    """硬: no 财神 stands for another tile, or a self-draw, or 抢杠 (WZA)."""
    return int(_substituted(w) == 0 or w.context.self_drawn or w.context.kong)


def _three(w) -> int:
    return int(F.joker_info(w)[0] >= 3 or bool(w._cache.get("three_jokers")))


def _quan_qiu_shen(w) -> int:
    """全求神: everything melded, the lone tile left a 财神 (waits on any tile)."""
    c, j = _real_before(w)
    return int(len(w.hand.melds) > 0 and j == 1 and sum(c) == 0)


def _single_left(w) -> int:
    """单张吊: everything melded, a single real tile waited on."""
    c, j = _real_before(w)
    return int(len(w.hand.melds) > 0 and j == 0 and sum(c) == 1)


def _dragons(w) -> int:
    """中发白: pairs or pungs of all three dragons."""
    if w.form != "regular":
        return 0
    have = set(w.pungs) | ({w.pair} if w.pair is not None else set())
    return int({31, 32, 33} <= have)


def _niu_dui(w) -> int:
    """财神牛对: the pair is two 财神."""
    n, asg, _ = F.joker_info(w)
    return int(w.form == "regular" and w.pair is not None and asg.count(w.pair) >= 2
               and w.counts[w.pair] == 2)


def wenzhou_points(fans: dict, rs, w) -> int:
    """The level: the highest value among the counted fans (软 1, 硬 2, 双翻 4, 四翻 8);
    0 (no win) for a 财神单钓 won on a discard when the option ``caishen_dandiao`` is on."""
    if (rs.options.get("caishen_dandiao") and not w.context.self_drawn
            and not w.context.kong and lone_joker_ready(w)):
        return 0
    return max((rs.fan(k).value for k in fans), default=1)


POINTS_FUNCTIONS["wenzhou"] = wenzhou_points


@register_settlement
def settle_wenzhou(points: int, winner: int, discarder: int | None, *, players: int = 4,
                   dealer: int | None = 0, base: int = 1, maidi: tuple = ()) -> tuple:
    """温州 settlement of a win at level `points`: every other player pays, self-drawn or
    not — level × ``base`` (底分) × (1 + 买底 of the two) between the dealer and a
    non-dealer, level × 1 between two non-dealers (WZA, W7).  ``maidi``: seats that bought
    底 this hand.  The discarder pays no more than the others."""
    lv = int(points)
    bought = set(maidi)
    out = [0] * players
    for p in range(players):
        if p == winner:
            continue
        if dealer is not None and dealer in (p, winner):
            a = lv * base * (1 + int(p in bought) + int(winner in bought))
        else:
            a = lv
        out[p] -= a
        out[winner] += a
    return tuple(out)


def caishen_money(held, winner: int | None = None) -> tuple:
    """财神钱 (option, WZA / W7): each 财神 a player holds is 1 from each other player; a
    winner holding three is paid double.  Everybody settles with everybody.

    Raises
    ------
    RuleError
        Negative counts or a bad winner seat.
    """
    h = [int(x) for x in held]
    n = len(h)
    if any(x < 0 for x in h):
        raise RuleError(f"财神 counts must be non-negative, got {h}")
    if winner is not None and not 0 <= winner < n:
        raise RuleError(f"winner seat must be 0..{n - 1}, got {winner!r}")
    out = [0] * n
    for p, x in enumerate(h):
        v = x * (2 if p == winner and x >= 3 else 1)
        for q in range(n):
            if q != p:
                out[q] -= v
                out[p] += v
    return tuple(out)


def kong_money(kind: str, owner: int, players: int = 4) -> tuple:
    """杠算分 (option, WZA ``WenzhouMajiangGang``): 明杠 (``"exposed"``, also an added
    kong) 1, 暗杠 (``"concealed"``) 2, from each other player.

    Raises
    ------
    RuleError
        Unknown kind or seat.
    """
    v = {"exposed": 1, "concealed": 2}.get(kind)
    if v is None:
        raise RuleError(f"kong kind must be exposed or concealed, got {kind!r}")
    if not 0 <= owner < players:
        raise RuleError(f"owner seat must be 0..{players - 1}, got {owner!r}")
    return settle_everyone(v, owner, None, players=players)


def build(*, special_double: bool = True, lazi: bool = False, base_table: str = "default",
          dealer_deal: int = 1, three_caishen_win: bool = True,
          caishen_dandiao: bool = True, special_wins=None, min_points=None,
          eight_pairs: bool = True) -> Ruleset:
    # ``special_wins`` and ``min_points`` are stored options derived from
    # ``three_caishen_win`` / ``caishen_dandiao``; accepted (older house-rule files write
    # them): a given ``special_wins`` decides ``three_caishen_win``
    for key, v in (("special_double", special_double), ("lazi", lazi),
                   ("three_caishen_win", three_caishen_win),
                   ("caishen_dandiao", caishen_dandiao), ("eight_pairs", eight_pairs)):
        check_bool(v, f"wenzhou option {key}")
    if special_wins is not None:          # the stored option (older house-rule files)
        three_caishen_win = "three_jokers" in tuple(special_wins)
    base = base_points(dealer_deal, base_table)
    fl = [
        F.fan(1, "软", "Soft: a Caishen stands for another tile (x1)", 1, F.always,
              fallback=True, source=_SRC),
        F.fan(2, "硬", "Hard: no Caishen substituted, or self-drawn (x2)", 2, _hard,
              source=_SRC),
        F.fan(3, "天胡", "Heavenly Win (x4)", 4, F.heavenly, source=_SRC),
        F.fan(4, "地胡", "Earthly Win (x4)", 4, F.earthly, source=_SRC),
        F.fan(5, "三财神", "Three Caishen (x4)", 4, _three, source=_SRC),
    ]
    if special_double:
        sd = _SRC + " 特殊双翻"
        fl += [
            F.fan(6, "单张吊", "Single Tile Left (x4)", 4, _single_left, source=sd),
            F.fan(7, "全求神", "Caishen as the Lone Wait (x4)", 4, _quan_qiu_shen, source=sd),
            F.fan(8, "双财归位", "Two Caishen as Themselves (x4)", 4,
                  lambda w: int(_own_face(w) == 2), source=sd),
            F.fan(9, "碰碰胡", "All Pungs (x4)", 4, F.all_pungs, source=sd),
            F.fan(10, "杠开", "Win on Kong Replacement (x4)", 4,
                  lambda w: int(w.context.kong and w.context.self_drawn), source=sd),
            F.fan(11, "清一色", "Full Flush (x4)", 4, F.flush, source=sd),
            F.fan(12, "混一色", "Half Flush (x4)", 4, F.half_flush, source=sd),
            F.fan(13, "中发白", "Three Dragons (x4)", 4, _dragons, source=sd),
            F.fan(14, "财神牛对", "Caishen Pair (x4)", 4, _niu_dui, source=sd),
        ]
    if lazi:
        fl.append(F.fan(15, "三财归位", "Three Caishen as Themselves (x8)", 8,
                        lambda w: int(_own_face(w) >= 3), source=_SRC + " 辣子辣"))
    if eight_pairs:
        fl += [
            F.fan(16, "八对", "Eight Pairs and One (x2)", 2,
                  lambda w: int(w.form == "eight_pairs"), source=_SRC + " 八对 (硬)"),
            F.fan(17, "硬八对", "Hard Eight Pairs: no Caishen substituted (x4)", 4,
                  lambda w: int(w.form == "eight_pairs" and _substituted(w) == 0),
                  source=_SRC + " 双翻"),
        ]
    return Ruleset(
        # who deals next: 连庄 raises the base (S003; WZA 底分 by the consecutive deal)
        dealer_rule=DealerRule(streak="dealer_deal", streak_from=1),
        name="wenzhou", title="温州麻将 (Wenzhou, 财神 + 白板)",
        players=4, hand_size=16,
        calls=("chow_left", "pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=("regular",) + (("eight_pairs",) if eight_pairs else ()),
        seven_pairs_quads=False, min_fan=0,
        flowers_count_toward_minimum=False, fans=tuple(fl), settlement=settle_wenzhou,
        settlement_params={"dealer": 0, "base": base},
        source="docs/rules/wenzhou.md",
        tile_set="136", constraints=(), ready="none",
        jokers=JokerRule(source="turned", copies=3, claim=False, be_claimed=False,
                         discard=False, substitute=WHITE),
        wall_end=WallEnd(kept=16), winners="head_bump",
        scoring=ScoringRule(mode="custom", function="wenzhou"),
        options={"special_double": bool(special_double), "lazi": bool(lazi),
                 "base_table": base_table, "dealer_deal": int(dealer_deal),
                 "three_caishen_win": bool(three_caishen_win),
                 "caishen_dandiao": bool(caishen_dandiao),
                 "special_wins": ["three_jokers"] if three_caishen_win else [],
                 "min_points": (1, 1) if caishen_dandiao else (0, 0),
                 "eight_pairs": bool(eight_pairs)},
        builder="wenzhou", section="§3.14", discard_order="lone_honours",
        interpreted=("八对: a four of a kind counts as two pairs",
                     "lone honours first: whenever one is held; the honour to follow is the "
                     "table's latest discard by another seat; 白板 counts as the 财神 face "
                     "it plays as",
                     "财神单钓's 跑马一圈 (a go-around before the self-draw): the go-around up "
                     "to his own next draw, so it is the self-draw-only rule"),
        lost=("连庄 re-seating: the seats are drawn again after four repeats, but no source "
              "says whether the first deal counts, who deals after the redraw or whether "
              "the 底分 starts again; a match keeps its seats",))


DERIVED_OPTIONS["wenzhou"] = frozenset({"special_wins", "min_points"})
WENZHOU = build()

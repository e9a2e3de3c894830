"""广东麻将: 推倒胡 (``guangdong``) and 鸡平胡 (``guangdong_jipinghu``) — docs/rules/guangdong.md.

From the general rule texts (docs/rules/guangdong.md): 漏和 (a passed win stays locked until the player 动牌), 一炮多响
(a dealer among the winners deals again), 番 doubles, 爆和 cap 3 番, limit hands such
as 十三幺 break the cap and stack nothing else.

From the public sources (docs/rules/guangdong.md; medium confidence for 推倒胡, low-medium for
鸡平胡): 推倒胡 — 136 tiles, no chi, any complete hand wins, a flat value (2) doubled
by 自摸, 杠上开花, 抢杠胡, optionally 七对 / 无鬼 / 海底; jokers (鬼牌) by option
(白板, 红中, 翻鬼 = turned + 1, or 翻双鬼 = turned + 1 and + 2, ``ghost="flip2"``, or 花鬼
= the flowers, ``ghost="flowers"``); the discarder pays, each pays on self-draw.

花鬼 (``ghost="flowers"``, ``flower_ghosts`` 4 or 8; docs/rules/guangdong.md §1 "Joker
options"): the 136 tiles plus 4 flowers (春夏秋冬) or 8 (and 梅兰竹菊), and the flowers are
the only jokers (:class:`~majiang.rules.jokers.JokerRule` ``source="flowers"``).  The model
[interp.: the readings name the option only]: a flower is a tile outside the 34 kinds, so it
is held as a joker, not as a face — a flower drawn (in the deal or later) stays in the hand
and is not replaced; the count vectors hold it in the joker slot (``*`` in hand notation:
``majiang shanten`` / ``advise`` with a house-rule file ``base = "guangdong"``, ``ghost =
"flowers"``).  A flower joker is never discarded (the readings do not say it may be): a pung
that would leave only flower jokers is not offered, and a hand of flower jokers alone, always
complete, wins at once.  无鬼 (no joker held) and 四鬼胡 count the flowers held as any joker.
Options 不带风 (``no_honors``: the 108 suited tiles) and 不带万 (``no_characters``: 100 tiles
without 万; both: the 72 筒 条), GF ``OptBuDaiZiPai`` / ``OptBuDaiWan``: the tile set is the
one fact that changes, and 十三幺 (needing 1m 9m and the honours) is then not a form; a 白板
or 红中 joker without the honours is refused.  四鬼胡 (``four_ghosts``, with a ghost): four
jokers held win at once on a self-draw, a plain win — the 三金倒 mechanism of the rule spec
with a count of four (:attr:`~majiang.rules.model.RuleSpec.jokers_to_win`).
鸡平胡 — chi from the left, the GJ 番 table (鸡胡 0, 平胡 1, 碰碰胡 2, 混一色 2, 清一色
4, 清碰 5, 混幺九 5, 小三元 5, 小四喜 5, limit hands 6), extras 门清/自摸/圈风/门风/三元
+1, 杠上开花/抢杠/海底 +3, minimum 起胡番数 by option.

Limit hands of 推倒胡 (``cap`` 3 番 by default, the 广东 爆和 of the encyclopedia
article on Chinese mahjong variants): 推倒胡 has no 番 table, so its limit hands are those
of the 爆胡 group of GJ (a commercial Guangdong platform's public C++ ``CardManager``,
``GetJipingFanNumByHuType``): 大三元, 大四喜, 字一色, 清幺九, 十三幺, 九莲宝灯, 天胡, 地胡,
人胡, each 6 番 (GJ's 爆胡 value), counted as doublings like the other 番 (points =
base × 2^6 = 128 with base 2), breaking the cap and stacking nothing else (no 自摸 /
七对 doubling on top).  [interp.] A hand of several limit hands is paid once.  The
doublings of an ordinary win stop at the cap (2 × 2^3 = 16 at most).

Resolutions: the 鸡平胡 cap is the seed's 3 番 by default (``cap``; GJ uses 6);
推倒胡 kong payments (直杠 3 / 补杠 1 / 暗杠 2, 荒庄荒杠; MQ, DK 99) are the ruleset's
``kong_payments`` (:data:`KONGS`), paid outside the hand value by the engine; 鸡平胡
takes the same amounts (DK 99's 碰后杠 1 / 放杠 3 / 暗杠 2) and, [interp.], 广东's
荒庄荒杠; 漏和 is ``pass_lock="all"``.

跟庄 and 买马 of 推倒胡 (docs/rules/guangdong.md §1, GF ``genZhuang`` / ``countHorse``, GT
``GAME_RULE_GEN_ZHUANG`` / ``GAME_RULE_MA_*``) are paid by the game engine at the end of the
hand (:func:`end_settlement`, ``check`` = "跟庄" / "买马"), besides the win and the kongs:

* 跟庄 (``follow_dealer``, on by default: a rule of the game in GF): when the three others
  each discard the dealer's first discard in the first go-around, the dealer pays each of
  them :data:`FOLLOW_DEALER_PAYMENT`, win or not (a claim among those discards ends it).
  Read as 保定's 跟庄 (:func:`majiang.rules.baoding.gen_zhuang_rounds`), the first go-around only.
* 买马 (``horses``, 0 by default: an option of most products; GF offers 2, 4, 6, 8, 10 or
  20): after a win that many tiles are turned from the head of the live wall (fewer when
  fewer are left [interp.]).  Counting from the dealer (1/5/9/东/中 the dealer, 2/6/南/发
  his 下家, 3/7/西/白 across, 4/8/北 his 上家: :func:`~majiang.rules.table_rules.pointed_seats`),
  each horse pointing at a winner's seat is a hit, and each seat that paid that win pays
  more per hit: ``horse_mode`` "add" :data:`HORSE_POINTS` (GF's fixed 2, default) or
  "times" one more win value (马跟底分), or ``"one"`` (一马全中, GT; "中到几就是几分"): only the
  first turned tile counts, whatever seat it points at, and each payer of the win pays its
  rank in points more (1..9; an honour 10 [interp.: the readings give no honour value]).
* 马跟杠 (``horse_kong``, off; GF, GT): each hit also repeats the winner's kong money — each
  payer of the win pays, per hit, again what the winner's kongs cost him (:data:`KONG_PAYMENTS`:
  直杠 3 from its feeder, 补杠 1 and 暗杠 2 from each) [interp.: "the winner's kong value" read
  per payer].
* 连庄 (``dealer_streak``, 0): the deals the dealer has held in a row before this one, a
  hand option that :func:`majiang.play_match` sets hand by hand: a dealer among the
  winners deals again (S003), another win passes the deal to his 下家, and after a drawn
  hand he keeps it [interp.: not stated; the usual reading].
  买马节节高 (``horse_streak``, off; GF, GT): 2 more horses per deal held in a row.
  节节高 (``streak_bonus``, off; GF, GT): a winning dealer gets 2 × the deals held in a row
  more from each seat that paid his win [interp.: the readings do not say who pays the
  bonus].

* 全包 (``full_pay``, off; GF, GT, DK 99 — options of the products): 抢杠全包, the robbed seat
  pays the other payers' shares as well (its own payment once more per other non-winner);
  杠爆全包, a win on the replacement of a kong made on a discard (the winner's last kong)
  is paid by that kong's feeder alone (:func:`_full_pay`) [interp.: the shares are the
  engine's values of the win].

The limit hands, 跟庄 and 买马 as read here, and what is not played, are listed by
``majiang rules guangdong`` (:data:`INTERPRETED`, :data:`MISSING`).
"""
from __future__ import annotations

from . import fans as F
from .baoding import gen_zhuang_rounds
from ..errors import RuleError
from .model import FOUR_JOKERS
from .constraints import constraint
from .base import (DERIVED_OPTIONS, END_SETTLEMENTS, JokerRule, KongPayments, Ruleset, ScoringRule, WallEnd,
                   check_bool, check_choice, check_int, settle_points)
from .table_rules import DealerRule, pointed_seats, raised_payments

__all__ = ["build", "build_jipinghu", "GUANGDONG", "GUANGDONG_JIPINGHU", "KONG_PAYMENTS",
           "end_settlement", "HORSE_MODES", "HORSE_POINTS", "FOLLOW_DEALER_PAYMENT",
           "ONE_HORSE_HONOR", "STREAK_HORSES", "STREAK_BONUS", "INTERPRETED", "MISSING",
           "FLOWER_GHOSTS"]

FOLLOW_DEALER_PAYMENT = 1
"""跟庄: what the dealer pays each other player (docs/rules/guangdong.md §1, GF)."""
HORSE_POINTS = 2
"""买马: the points a hit adds to each payment of the win in the "add" mode
(docs/rules/guangdong.md §1, GF's default)."""
HORSE_MODES = ("add", "times", "one")
"""买马 hits: "add" :data:`HORSE_POINTS` a hit, "times" one more win value a hit (马跟底分),
"one" 一马全中 (the first horse's rank in points, :data:`ONE_HORSE_HONOR` for an honour)."""
ONE_HORSE_HONOR = 10
"""一马全中: the points of an honour horse ([interp.]: the readings give the rank only)."""
STREAK_HORSES = 2
"""买马节节高: more horses per deal the dealer has held in a row (docs/rules/guangdong.md §1)."""
STREAK_BONUS = 2
"""节节高: a winning dealer's bonus per deal held in a row (docs/rules/guangdong.md §1)."""

INTERPRETED = (
    "推倒胡 has no 番 table: its limit hands are one platform's 爆胡 group, a hand of several "
    "paid once",
    "鸡平胡 kong money void in a drawn hand (荒庄荒杠)",
    "跟庄 read from the discards made before the first claim, the first go-around only",
    "fewer horses when fewer tiles are left; 一马全中: an honour horse counts 10; 马跟杠 "
    "repeats per payer what the winner's kongs cost him; 节节高 paid by the win's payers",
    "全包: the shares are the engine's values of the win (抢杠: the robbed seat's payment "
    "once more per other non-winner)",
    "四鬼胡: four jokers held win on any self-draw under any joker option, a plain win "
    "(one platform: 白板 jokers only, before one's first discard)",
    "翻双鬼: the two kinds after the turned tile are wild (4 copies each), honours cycling "
    "东南西北 and 中发白 as 翻鬼 (one platform cycles the seven honours)",
    "花鬼: the flowers are the only jokers, held in the hand (never replaced, never "
    "discarded: no pung that leaves only flower jokers; a hand of flower jokers alone wins)",
    "after a drawn hand the dealer keeps the deal (not stated; the usual reading)",
)
"""What the 广东 rulesets read by interpretation (:attr:`Ruleset.interpreted`)."""
MISSING = ()
"""What the 广东 rulesets do not play (:attr:`Ruleset.missing`): nothing left."""

KONG_PAYMENTS = {"direct": 3, "added": 1, "concealed": 2}
"""推倒胡 kong points (MQ, DK 99): 直杠 3 from the feeder, 补杠 1 and 暗杠 2 from each
other player; 荒庄荒杠 (void when nobody wins) — :data:`KONGS`, played by the engine."""
KONGS = KongPayments(concealed=2, exposed=3, added=1, when="with_win")

_GHOSTS = {None: None, "white": JokerRule(source="fixed", fixed=31),
           "red": JokerRule(source="fixed", fixed=33), "flip": JokerRule(source="next"),
           "flip2": JokerRule(source="next", second="next"), "flowers": None}
"""The ``ghost`` options: 白板 / 红中 jokers, 翻鬼 (the turned tile's next kind), 翻双鬼
(that kind and the next one, GF ``OptFanGui2``) and 花鬼 (the flowers, :func:`_flower_ghosts`)."""
FLOWER_GHOSTS = (4, 8)
"""花鬼: how many flowers join the 136 tiles as jokers (docs/rules/guangdong.md §1)."""


def _flower_ghosts(n: int) -> JokerRule:
    """花鬼: the `n` flowers are the jokers (never claimed, never used to claim)."""
    return JokerRule(source="flowers", copies=n)

_TILE_SETS = {(False, False): "136", (True, False): "108", (False, True): "100",
              (True, True): "72"}
"""The tile set of (``no_honors``, ``no_characters``): 不带风 / 不带万 (GF)."""

LIMIT_VALUE = 6
"""番 of a limit hand (GJ ``GetJipingFanNumByHuType``: the 爆胡 group is 6 番)."""


def _limit_hands(src: str, excluded: set) -> list:
    """The limit hands (爆胡 group): ids 20..28, each :data:`LIMIT_VALUE` 番, each
    excluding every fan in `excluded` and the other limit hands."""
    ids = set(range(20, 29))
    rows = ((20, "大三元", "Big Three Dragons", lambda w: int(F.dragon_pungs(w) == 3)),
            (21, "大四喜", "Big Four Winds", lambda w: int(F.wind_pungs(w) == 4)),
            (22, "字一色", "All Honors", F.all_honors),
            (23, "清幺九", "All Terminals", _pure_terminals),
            (24, "十三幺", "Thirteen Orphans", lambda w: int(w.form == "thirteen_orphans")),
            (25, "九莲宝灯", "Nine Gates", _nine_gates),
            (26, "天胡", "Heavenly Hand", F.heavenly),
            (27, "地胡", "Earthly Hand", F.earthly),
            (28, "人胡", "Human Hand", F.human))
    return [F.fan(i, zh, en + " (limit)", LIMIT_VALUE, pred,
                  excludes=tuple(sorted(excluded | (ids - {i}))), source=src)
            for i, zh, en, pred in rows]


def end_settlement(rs, table) -> list:
    """跟庄 and 买马 of 推倒胡 at the end of a hand (see the module docstring): a list of
    ``{"check", "payer", "payee", "amount"}`` over the final table
    (:class:`~majiang.rules.base.EndTable`)."""
    opts = rs.options
    n, dealer = table.players, table.dealer
    out = []
    if opts.get("follow_dealer", True) and gen_zhuang_rounds(table.opening, dealer):
        out += [{"check": "跟庄", "payer": dealer, "payee": q, "amount": FOLLOW_DEALER_PAYMENT}
                for q in range(n) if q != dealer]
    streak = int(opts.get("dealer_streak", 0))
    nh = int(opts.get("horses", 0))
    if nh and opts.get("horse_streak", False):
        nh += STREAK_HORSES * streak                        # 买马节节高
    mode = opts.get("horse_mode", "add")
    if nh and table.wins and table.rest:
        if mode == "one":                                   # 一马全中: the first horse's rank
            t = int(table.rest[0])
            pts = t % 9 + 1 if t < 27 else ONE_HORSE_HONOR
            out += raised_payments(table, lambda w, q: 1, "add", "买马", unit=pts)
            hits = [1] * n
        else:
            hits = pointed_seats(table.rest[:nh], dealer, n)
            out += raised_payments(table, lambda w, q: hits[w], mode, "买马", unit=HORSE_POINTS)
        if opts.get("horse_kong", False):                   # 马跟杠
            out += raised_payments(table, lambda w, q: hits[w] * _kong_cost(table, w, q), "add",
                                   "马跟杠")
    if streak and opts.get("streak_bonus", False):          # 节节高
        out += raised_payments(table, lambda w, q: int(w == dealer) * streak, "add", "节节高",
                               unit=STREAK_BONUS)
    if opts.get("full_pay", False):
        out += _full_pay(table)
    return out


def _full_pay(table) -> list:
    """全包 (GF ``checkAllInclude``, GT ``GANG_BAO_QUAN_BAO`` / ``QIANG_GANG_QUAN_BAO``, DK
    99): 抢杠全包 — the robbed seat pays the shares of the other payers too (each other
    non-winner's share, the robbed seat's own payment, once more); 杠爆全包 — a win on the
    replacement of a kong made on a discard (the winner's last kong, exposed, with its
    feeder) is paid by the feeder alone: he pays back every other payer's share."""
    out = []
    for (w, how, disc, *_), pay in zip(table.wins, table.payments):
        if how == "robbing_kong" and disc is not None and pay[disc] < 0:
            others = sum(1 for q in range(table.players) if q not in (w, disc))
            out.append({"check": "抢杠全包", "payer": disc, "payee": w,
                        "amount": -pay[disc] * others})
        elif how == "kong_replacement" and table.kongs[w]:
            _kind, kh, feeder = table.kongs[w][-1]
            if kh == "exposed" and feeder is not None:
                out += [{"check": "杠爆全包", "payer": feeder, "payee": q, "amount": -pay[q]}
                        for q in range(table.players)
                        if q not in (w, feeder) and pay[q] < 0]
    return out


def _kong_cost(table, w: int, q: int) -> int:
    """What the kongs of seat `w` cost seat `q` (:data:`KONG_PAYMENTS`): 直杠 3 from its
    feeder, 补杠 1 and 暗杠 2 from each other seat."""
    cost = 0
    for _kind, how, feeder in table.kongs[w]:
        if how == "exposed":
            cost += KONG_PAYMENTS["direct"] if feeder == q else 0
        else:
            cost += KONG_PAYMENTS["added" if how == "added" else "concealed"]
    return cost


END_SETTLEMENTS["guangdong"] = end_settlement


def build(*, ghost: str | None = None, seven_pairs: bool = True, no_ghost_double: bool = True,
          seabed_double: bool = False, base: int = 2, cap: int | None = 3,
          follow_dealer: bool = True, horses: int = 0, horse_mode: str = "add",
          horse_kong: bool = False, horse_streak: bool = False, streak_bonus: bool = False,
          dealer_streak: int = 0, full_pay: bool = False, no_honors: bool = False,
          no_characters: bool = False, four_ghosts: bool = False,
          special_wins=None, flower_ghosts: int = 8) -> Ruleset:
    """The 推倒胡 ruleset (see the module docstring for every option's reading).

    ``no_honors`` (不带风, GF ``OptBuDaiZiPai``) plays the 108 suited tiles, ``no_characters``
    (不带万, GF ``OptBuDaiWan``) the 100 tiles without 万, both together the 72 筒 条
    (:data:`~majiang.rules.tile_sets.TILE_SETS`); without 万 or honours 十三幺 cannot be
    made and is not a winning form.

    ``ghost="flowers"`` (花鬼) adds ``flower_ghosts`` (4 or 8) flowers to the 136 tiles as the
    jokers (see the module docstring for the model).

    ``four_ghosts`` (四鬼胡, docs/rules/guangdong.md §1 "Winning"; needs a ``ghost``): four
    jokers held win at once on a self-draw whatever the other tiles, a plain win (推倒胡
    and its doublings, no limit hand) — the 三金倒 mechanism with a count of four
    (``special_wins`` ``["four_jokers"]``, :attr:`RuleSpec.jokers_to_win
    <majiang.rules.model.RuleSpec.jokers_to_win>`).  ``special_wins`` is the stored form of
    ``four_ghosts`` (accepted from house-rule files; when given it decides it).

    Raises
    ------
    RuleError
        An option of the wrong type or out of range (``horses`` 0..20, ``horse_mode`` one
        of :data:`HORSE_MODES`, ``dealer_streak`` 0..100), a 白板 / 红中 joker
        (``ghost`` "white" / "red") with ``no_honors``, or ``four_ghosts`` without a
        ``ghost``; ``flower_ghosts`` not 4 or 8, or 花鬼 without the full 136 tiles.
    """
    check_choice(ghost, "guangdong option ghost", tuple(_GHOSTS))
    check_choice(flower_ghosts, "guangdong option flower_ghosts", FLOWER_GHOSTS)
    if ghost == "flowers" and (no_honors or no_characters):
        raise RuleError("guangdong option ghost='flowers' (花鬼) plays the 136 tiles and the "
                        "flowers; not with no_honors or no_characters")
    for key, v in (("seven_pairs", seven_pairs), ("no_ghost_double", no_ghost_double),
                   ("seabed_double", seabed_double), ("follow_dealer", follow_dealer),
                   ("horse_kong", horse_kong), ("horse_streak", horse_streak),
                   ("streak_bonus", streak_bonus), ("full_pay", full_pay),
                   ("no_honors", no_honors), ("no_characters", no_characters),
                   ("four_ghosts", four_ghosts)):
        check_bool(v, f"guangdong option {key}")
    if special_wins is not None:          # the stored option (house-rule files)
        if isinstance(special_wins, str) or not all(x == FOUR_JOKERS for x in special_wins):
            raise RuleError(f"guangdong option special_wins must be [] or "
                            f"[{FOUR_JOKERS!r}], got {special_wins!r}")
        four_ghosts = bool(special_wins)
    if four_ghosts and ghost is None:
        raise RuleError("guangdong option four_ghosts needs jokers (四鬼胡 holds four): choose "
                        "a ghost")
    if no_honors and ghost in ("white", "red"):
        raise RuleError(f"guangdong option ghost={ghost!r} needs the "
                        f"{'白板' if ghost == 'white' else '红中'} tiles, which no_honors "
                        "(不带风) removes")
    check_int(base, "guangdong option base", lo=1)
    check_int(cap, "guangdong option cap", lo=0, optional=True)
    check_int(horses, "guangdong option horses", lo=0, hi=20)
    check_choice(horse_mode, "guangdong option horse_mode", HORSE_MODES)
    check_int(dealer_streak, "guangdong option dealer_streak", lo=0, hi=100)
    src = "docs/rules/guangdong.md §1"
    fl = [F.fan(1, "推倒胡", "Any Win", 0, F.always, source=src),
          F.fan(2, "自摸", "Self-Drawn (x2)", 1, F.self_drawn, source=src),
          F.fan(3, "杠上开花", "Win on Kong Replacement (x2)", 1, F.kong_flower, source=src),
          F.fan(4, "抢杠胡", "Robbing the Kong (x2)", 1, F.robbing, source=src)]
    if seven_pairs:
        fl.append(F.fan(5, "七对", "Seven Pairs (x2)", 1, F.seven_pairs, source=src))
    if ghost is not None and no_ghost_double:
        fl.append(F.fan(6, "无鬼", "No Joker Held (x2)", 1, F.no_jokers, source=src))
    if seabed_double:
        fl.append(F.fan(7, "海底", "Last Tile (x2)", 1, F.last_self, source=src))
    if four_ghosts:     # the shape-free reading: a plain win, no 七对 or limit hand on it
        fl.append(F.fan(8, "四鬼胡", "Four Jokers", 0, _four_ghosts, excludes=(5, *range(20, 29)),
                        source=src))
    limit = _limit_hands("GJ GetJipingFanNumByHuType (爆胡 6); encyclopedia 广东 爆和",
                         {f.id for f in fl})
    fl.extend(limit)
    return Ruleset(
        # who deals next: a dealer among the winners deals again (S003); the streak
        # (连庄) is the dealer_streak option
        dealer_rule=DealerRule(streak="dealer_streak"),
        name="guangdong", title="广东推倒胡 (Guangdong push-down)", players=4, hand_size=13,
        calls=("pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=("regular",) + (("seven_pairs",) if seven_pairs else ())
        + (() if no_honors or no_characters else ("thirteen_orphans",)),
        seven_pairs_quads=True, min_fan=0, flowers_count_toward_minimum=False, fans=tuple(fl),
        settlement=settle_points, settlement_params={},
        source="docs/rules/guangdong.md §1",
        tile_set=(("140" if flower_ghosts == 4 else "144") if ghost == "flowers"
                  else _TILE_SETS[no_honors, no_characters]),
        constraints=("jokers_win_self_drawn",) if four_ghosts else (), ready="none",
        jokers=(_flower_ghosts(flower_ghosts) if ghost == "flowers" else _GHOSTS[ghost]),
        wall_end=WallEnd(kept=0),
        winners="multiple", scoring=ScoringRule(mode="double", base=base, cap=cap,
                                                limit=frozenset(f.id for f in limit)),
        options={"ghost": ghost, "seven_pairs": seven_pairs,
                 "no_ghost_double": no_ghost_double, "seabed_double": seabed_double,
                 "base": base, "cap": cap, "follow_dealer": follow_dealer, "horses": horses,
                 "horse_mode": horse_mode, "horse_kong": horse_kong,
                 "horse_streak": horse_streak, "streak_bonus": streak_bonus,
                 "dealer_streak": dealer_streak, "full_pay": full_pay,
                 "no_honors": no_honors, "no_characters": no_characters,
                 "four_ghosts": four_ghosts, "flower_ghosts": flower_ghosts,
                 "special_wins": [FOUR_JOKERS] if four_ghosts else []},
        builder="guangdong", section="§3.4", pass_lock="all", kong_payments=KONGS,
        end_settlement=("guangdong" if (follow_dealer or horses or streak_bonus or full_pay)
                        else ""),
        interpreted=INTERPRETED[:1] + INTERPRETED[2:5] + (INTERPRETED[5:6] if four_ghosts
                                                            else ())
        + (INTERPRETED[6:7] if ghost == "flip2" else ())
        + (INTERPRETED[7:8] if ghost == "flowers" else ()),
        missing=MISSING)


def _four_ghosts(w) -> int:
    """四鬼胡: the shape-free reading of four jokers held (scoring's special reading)."""
    return int(bool(w._cache.get("three_jokers")))


@constraint("jokers_win_self_drawn", "four jokers win without a shape on a self-draw only "
            "(四鬼胡)")
def jokers_win_self_drawn(w, fans, rs) -> bool:
    return not _four_ghosts(w) or bool(w.context.self_drawn)


def _mixed_terminals(w) -> int:
    return int(w.form == "regular" and not w.chows and F.has_honors(w)
               and all(t >= 27 or t % 9 in (0, 8) for t in w.kinds) and bool(F.suits(w)))


def _pure_terminals(w) -> int:
    return int(all(t < 27 and t % 9 in (0, 8) for t in w.kinds))


def _little_dragons(w) -> int:
    return int(F.dragon_pungs(w) == 2 and w.pair is not None and w.pair >= 31)


def _little_winds(w) -> int:
    return int(F.wind_pungs(w) == 3 and w.pair is not None and 27 <= w.pair <= 30)


def _nine_gates(w) -> int:
    if not F.flush(w) or w.n_exposed:
        return 0
    s = w.kinds[0] // 9
    c = w.counts[9 * s:9 * s + 9]
    need = (3, 1, 1, 1, 1, 1, 1, 1, 3)
    return int(all(a >= b for a, b in zip(c, need)))


def build_jipinghu(*, cap: int = 3, min_fan: int = 0, base: int = 1) -> Ruleset:
    check_int(cap, "guangdong_jipinghu option cap", lo=0, optional=True)
    check_int(min_fan, "guangdong_jipinghu option min_fan", lo=0)
    check_int(base, "guangdong_jipinghu option base", lo=1)
    src = "docs/rules/guangdong.md §2 (GJ)"
    L = {10, 11, 12, 13, 14, 15, 33, 34, 35}
    everything = set(range(10, 30))     # 30-32, 36 (杠上开花, 抢杠, 海底, 杠上炮) apply even to
    # limit hands
    fl = (
        F.fan(10, "大三元", "Big Three Dragons", 6, lambda w: int(F.dragon_pungs(w) == 3),
              excludes=everything - {10}, source=src),
        F.fan(11, "大四喜", "Big Four Winds", 6, lambda w: int(F.wind_pungs(w) == 4),
              excludes=everything - {11}, source=src),
        F.fan(12, "字一色", "All Honors", 6, F.all_honors, excludes=everything - {12}, source=src),
        F.fan(13, "清幺九", "All Terminals", 6, _pure_terminals, excludes=everything - {13},
              source=src),
        F.fan(14, "十三幺", "Thirteen Orphans", 6, lambda w: int(w.form == "thirteen_orphans"),
              excludes=everything - {14}, source=src),
        F.fan(15, "九莲宝灯", "Nine Gates", 6, _nine_gates, excludes=everything - {15},
              source=src),
        F.fan(16, "清碰", "Pure All Pungs", 5, lambda w: int(F.flush(w) and F.all_pungs(w)),
              excludes=(19, 21), source=src),
        F.fan(17, "混幺九", "Mixed Terminals", 5, _mixed_terminals, excludes=(19, 20),
              source=src),
        F.fan(18, "小三元", "Little Three Dragons", 5, _little_dragons, excludes=(29,),
              source=src),
        F.fan(22, "小四喜", "Little Four Winds", 5, _little_winds, source=src),
        F.fan(19, "碰碰胡", "All Pungs", 2, F.all_pungs, source=src),
        F.fan(20, "混一色", "Half Flush", 2, F.half_flush, source=src),
        F.fan(21, "清一色", "Full Flush", 4, F.flush, source=src),
        F.fan(23, "平胡", "All Chows", 1, F.all_chows, source=src),
        F.fan(24, "鸡胡", "Chicken Hand", 0, F.always, fallback=True, source=src),
        F.fan(25, "门清", "Concealed Hand", 1, F.concealed, source=src),
        F.fan(26, "自摸", "Self-Drawn", 1, F.self_drawn, source=src),
        F.fan(27, "圈风刻", "Prevalent Wind Pung", 1,
              lambda w: int(27 + w.context.prevalent_wind in w.pungs), source=src),
        F.fan(28, "门风刻", "Seat Wind Pung", 1,
              lambda w: int(27 + w.context.seat_wind in w.pungs), source=src),
        F.fan(29, "三元牌刻", "Dragon Pung", 1, F.dragon_pungs, source=src),
        F.fan(30, "杠上开花", "Win on Kong Replacement", 3, F.kong_flower, source=src),
        F.fan(31, "抢杠胡", "Robbing the Kong", 3, F.robbing, source=src),
        F.fan(32, "海底捞月", "Last Tile", 3, lambda w: int(w.context.last_tile), source=src),
        F.fan(36, "杠上炮", "Win on a Discard after a Kong", 3, F.kong_discard, source=src),
        F.fan(33, "天胡", "Heavenly Hand", 6, F.heavenly, excludes=everything, source=src),
        F.fan(34, "地胡", "Earthly Hand", 6, F.earthly, excludes=everything, source=src),
        F.fan(35, "人胡", "Human Hand", 6, F.human, excludes=everything, source=src),
    )
    return Ruleset(
        # who deals next: a dealer among the winners deals again (S003)
        dealer_rule=DealerRule(),
        name="guangdong_jipinghu", title="广东鸡平胡 (Guangzhou chicken hand)",
        tiles_note="flowers optional, not played", players=4,
        hand_size=13, calls=("chow_left", "pung", "exposed_kong", "added_kong",
                             "concealed_kong"),
        forms=("regular", "thirteen_orphans"), seven_pairs_quads=False, min_fan=min_fan,
        flowers_count_toward_minimum=False, fans=fl, settlement=settle_points,
        settlement_params={}, source="docs/rules/guangdong.md §2",
        tile_set="136", constraints=(), ready="none", wall_end=WallEnd(kept=0),
        winners="multiple", scoring=ScoringRule(mode="double", base=base, cap=cap,
                                                limit=frozenset(L)),
        options={"cap": cap, "min_fan": min_fan, "base": base}, builder="guangdong_jipinghu",
        pass_lock="all", kong_payments=KONGS,
        section="§3.4", interpreted=INTERPRETED[1:2])


DERIVED_OPTIONS["guangdong"] = frozenset({"special_wins"})
GUANGDONG = build()
GUANGDONG_JIPINGHU = build_jipinghu()
BUILDERS = {"guangdong_jipinghu": build_jipinghu}

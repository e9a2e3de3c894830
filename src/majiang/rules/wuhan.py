"""武汉麻将 红中赖子杠 — docs/rules/wuhan.md.  Values provisional.

From the general rule texts (docs/rules/wuhan.md): chi, peng, kong; 开口 required; 赖子 jokers; holding 红中
blocks a win; two 赖子 cannot win a 屁和; 大胡: 碰碰和, 将一色, 清一色, 风一色, 全求人,
杠开, 海底捞, 抢杠; everything else is 屁和.
From the public sources (docs/rules/wuhan.md, low-medium confidence): 136 tiles; one tile is
turned after the deal: its kind is the 痞子 and the next kind (suits 9→1, winds
东南西北, dragons 中发白) is the 赖子; a 屁胡 needs a 2/5/8 pair and at most one 赖子;
大胡 may use any pair and several 赖子; values differ by product — GF's flat 5 for
a 屁胡 and 15 for a 大胡 are used (``small``, ``big`` options), 大胡 adding up.

Personal 番 (个人番, docs/rules/wuhan.md §2; source keys HZ = the
commercial ``Table_HZ.getPersonFan`` / ``process_chi_hu_player_score``, KZ = the
kzpn200 article's summary): every player carries a 番 of their own, made of

* 开口 +1 (once, for having any claimed meld), 明杠 +1 each (a kong from a discard or
  an added kong), 暗杠 +1 each (option ``concealed_kong_fan``: 1 = HZ; 2 = "commonly
  2 in real play", unverified), 红中杠 +1, 痞子杠 +1 (playing out a 红中 / the 痞子),
  赖子杠 +2 (playing out a 赖子) — the data :data:`PERSONAL_FAN`, summed by
  :func:`personal_fan`;

and a payment between the winner and each payer rises with **both** players' 番
(KZ: "a player attempting to score more points with doubles also has to pay more").
How the two combine is the option ``personal`` (default first):

* ``"double"`` — each 番 doubles: the payer pays ``points × 2^(winner 番 + payer 番)``
  (KZ's "doubling system"; HZ's client shows each player's 番 as ``2^番``);
* ``"product"`` — HZ's settlement arithmetic read literally: ``(points + winner 番) ×
  payer 番`` (HZ adds the winner's personal 番 to the hand's 番 and multiplies by the
  payer's, so a payer with 0 personal 番 pays nothing; HZ's hand 番 are 0 for a 屁胡,
  1 per big pattern — set ``small=0, big=1`` to get them);
* ``"none"`` — personal 番 ignored (GF's flat values alone).

``cap`` (金顶, None): the most one payer pays for one win (HZ offers 10 / 20 / 50 / 100).
A self-draw is paid by each other player, a win on a discard by the discarder alone
(:func:`settle_wuhan`).  The per-seat 番 are given to :func:`settle_hand` (from counts
or from the melds with :func:`personal_counts`); ``RegionalResult.settle``, which does
not know the other players' melds, settles with every personal 番 0 (``"double"``: the
flat values; ``"product"``: nothing is paid — give the 番).  The game engine pays the
win that way at once and the rest at the end of the hand (its one win ends it): the end
settlement ``"wuhan"`` (:func:`end_settlement`) reads every seat's 番 from the final
table (:func:`table_personal`: claimed melds, kongs, and the 红中 / 痞子 / 赖子 each seat
played out, counted as discards — the engine plays them as discards, with no
replacement draw) and adds ``个人番`` payments up to :func:`settle_wuhan`.
HZ's minimum of 3 番 to win is the option ``min_fan`` (0 = none, the default: the
docs page reads GF's values and KZ's doubling as the default, HZ is one product): the hand
番 as HZ counts them (:func:`hand_fan`: 1 per 大胡 pattern, 0 for a 屁胡, whatever the
``small`` / ``big`` points) plus the winner's personal 番 at the moment of the win — his
melds' (开口, 明杠, 暗杠, read from the hand) and the 红中 / 痞子 / 赖子 he played out
(:func:`seat_fan`, which both game loops give the win predicate as
:attr:`WinContext.seat_fan <majiang.winning.WinContext.seat_fan>`; a lone hand takes
``seat_fan=``) — must reach it (:func:`short_of_minimum`).  Lost in the sources:
HZ's ×3 包 payments — docs/rules/wuhan.md gives neither who pays nor when (GF's 包牌 on
清一色 / 将一色 is a name only), so no liability case
(:mod:`majiang.rules.liability`) can be written for them.

Resolutions: 红中 may not be held at the win (constraint ``no_red_dragon``), nor the 痞子
(constraint ``no_pizi``, HZ ``analyse_chi_hu_card``: no 红中 or 痞子 in hand, the winning tile
neither): the 痞子 is the kind of the hand's turned tile, so a ruleset knows it once the
indicator is applied (:func:`majiang.rules.derived.with_indicator`, which the game loops do
after the deal and ``check_win`` / ``score`` / ``shanten`` / ``ukeire`` / ``discard_table``
do when given ``indicator=``); it is then a banned kind like 红中 (never held by a target
of shanten / advice, discarded first, no wait while held).  Without the indicator the 痞子 is
unknown and not refused.  A 赖子 standing for the 痞子's kind is a joker, not a 痞子; a 痞子
in a claimed meld is not held.  红中 is
"never part of a set": no seat may pung or kong it (claimed, added or concealed) in either
game loop or in :func:`majiang.advise_claim` / :func:`majiang.advise_kong`
(:attr:`~majiang.rules.model.GameModel.setless_kinds`); 将一色
(all 2/5/8, "may use any pair") is the winning form ``all_258`` of any shape, as
长沙's 将将胡 (docs/rules/changsha.md §2 CS/JD read the same hand so; HZ lists 将一色 among the 大胡
that need no 2/5/8 pair), melds included.

Shanten, ukeire, waits and advice aim at the hands that win by shape alone (as in
:mod:`majiang.rules.changsha`): a 屁胡 needs a 2/5/8 pair and at most one 赖子 (a
second joker is a tile to swap out), a 大胡 shape any pair and any jokers — 清一色,
将一色, 风一色, 碰碰胡, 全求人 (four claimed melds, won on a discard); 杠上开花,
海底捞月 and 抢杠胡 are tagged ``"situational"``; 红中 is never part of a target.
开口 is a claim, not a shape: a closed hand gets its shape shanten (the win predicate
refuses it until a meld is claimed).
"""
from __future__ import annotations

from typing import Any, Mapping

from ..errors import RuleError
from . import fans as F
from .base import (END_SETTLEMENTS, SEAT_FANS, WIN_MINIMUMS, JokerRule, Ruleset, ScoringRule,
                   WallEnd, check_choice, check_int, register_settlement)
from .table_rules import WIN_MINIMUM_WORDS

__all__ = ["build", "WUHAN", "PERSONAL_FAN", "PERSONAL_ALIASES", "COMBINES", "personal_fan",
           "personal_counts", "settle_wuhan", "settle_hand", "table_personal", "end_settlement",
           "seat_fan", "hand_fan", "short_of_minimum", "minimum_words"]

PERSONAL_FAN = {"开口": 1, "明杠": 1, "暗杠": 1, "红中杠": 1, "痞子杠": 1, "赖子杠": 2}
"""Personal 番 per item (HZ ``getPersonFan``); 暗杠 is the option ``concealed_kong_fan``."""

PERSONAL_ALIASES = {"opened": "开口", "exposed_kong": "明杠", "concealed_kong": "暗杠",
                    "red_dragon_kong": "红中杠", "pizi_kong": "痞子杠",
                    "laizi_kong": "赖子杠"}
"""English names accepted for the items of :data:`PERSONAL_FAN`."""

COMBINES = ("double", "product", "none")
"""How the winner's and a payer's personal 番 raise a payment (option ``personal``)."""


def _table(rs: Any = None) -> dict:
    if rs is None:
        rs = WUHAN
    elif isinstance(rs, str):       # a name or a .toml path, as everywhere else
        from . import get
        rs = get(rs)
    t = dict(PERSONAL_FAN)
    opts = getattr(rs, "options", {}) or {}
    t["暗杠"] = int(opts.get("concealed_kong_fan", t["暗杠"]))
    return t


def personal_fan(counts: Mapping[str, Any] | None = None, *, ruleset: Any = None,
                 **items: Any) -> int:
    """One player's personal 番: ``sum(count × PERSONAL_FAN[item])``, 开口 counted once.

    Parameters
    ----------
    counts : mapping, optional
        ``{item: count}`` with the items of :data:`PERSONAL_FAN` (Chinese) or their
        :data:`PERSONAL_ALIASES` (``opened`` is a bool or 0/1).
    ruleset : str or Ruleset, optional
        Whose ``concealed_kong_fan`` option to use (default :data:`WUHAN`: 1).
    **items
        The same items as keywords (English names).

    Returns
    -------
    int
        The 番 (HZ: 开口 1, 明杠 1, 暗杠 1, 红中杠 1, 痞子杠 1, 赖子杠 2 each).

    Raises
    ------
    RuleError
        `counts` not a mapping, an unknown item, or a count that is not a
        non-negative int (a bool counts as 0 / 1); an unknown ruleset name.
    """
    if counts is not None and not isinstance(counts, Mapping):
        raise RuleError(f"personal 番 counts must be a mapping of items (e.g. "
                        f"{{'明杠': 1}}) or an int 番, got {counts!r}")
    table = _table(ruleset)
    total = 0
    for key, n in list((counts or {}).items()) + list(items.items()):
        item = PERSONAL_ALIASES.get(key, key)
        if item not in table:
            raise RuleError(f"unknown personal 番 item {key!r}; expected one of "
                            f"{', '.join(list(PERSONAL_FAN) + list(PERSONAL_ALIASES))}")
        n = check_int(int(n) if isinstance(n, bool) else n,
                      f"personal 番 item {key!r} count", lo=0)
        if item == "开口":
            n = min(n, 1)
        total += table[item] * n
    return total


def personal_counts(hand: Any, *, red_dragon_kongs: int = 0, pizi_kongs: int = 0,
                    laizi_kongs: int = 0) -> dict:
    """The personal 番 items of a player from the melds of ``hand`` (a
    :class:`~majiang.Hand` or hand text): 开口 = any claimed meld, 明杠 = claimed or
    added kongs, 暗杠 = concealed kongs; the 红中 / 痞子 / 赖子 played out are given.

    Raises
    ------
    InvalidHandError, InvalidNotationError
        A hand that cannot be parsed.
    """
    from ..hand import as_hand
    h = as_hand(hand, strict=False)
    melds = tuple(h.melds)
    return {"开口": int(any(not m.concealed for m in melds)),
            "明杠": sum(1 for m in melds if m.kind == "kong" and not m.concealed),
            "暗杠": sum(1 for m in melds if m.kind == "kong" and m.concealed),
            "红中杠": int(red_dragon_kongs), "痞子杠": int(pizi_kongs),
            "赖子杠": int(laizi_kongs)}


def _amount(points: int, fw: int, fp: int, combine: str, cap: int | None) -> int:
    if combine == "double":
        a = points * 2 ** (fw + fp)
    elif combine == "product":
        a = (points + fw) * fp
    else:
        a = points
    return a if cap is None else min(a, cap)


@register_settlement
def settle_wuhan(points: int, winner: int, discarder: int | None, *, players: int = 4,
                 personal: Any = None, combine: str = "double",
                 cap: int | None = None) -> tuple:
    """武汉 settlement of a win worth `points` with personal 番 (docs/rules/wuhan.md, HZ, KZ).

    Each payer (every other player on a self-draw, the discarder alone on a discard)
    pays ``points × 2^(fw + fp)`` (``combine="double"``), ``(points + fw) × fp``
    (``"product"``, HZ) or ``points`` (``"none"``), ``fw`` / ``fp`` the winner's / the
    payer's personal 番 (:func:`personal_fan`), at most ``cap`` (金顶) each.

    Parameters
    ----------
    personal : sequence of int, optional
        Per seat, the personal 番 (length ``players``); None = all 0.

    Returns
    -------
    tuple of int
        Per-seat score changes (sum 0).

    Raises
    ------
    RuleError
        A `personal` of the wrong length or with negative values, an unknown
        `combine`, a negative `cap`.
    """
    if combine not in COMBINES:
        raise RuleError(f"wuhan personal must be one of {COMBINES}, got {combine!r}")
    check_int(cap, "wuhan cap (金顶)", lo=0, optional=True)
    fans = (0,) * players if personal is None else tuple(personal)
    if len(fans) != players or any(isinstance(f, bool) or not isinstance(f, int) or f < 0
                                   for f in fans):
        raise RuleError(f"personal 番 must be {players} non-negative ints, one per seat, "
                        f"got {personal!r}")
    out = [0] * players
    payers = [p for p in range(players) if p != winner] if discarder is None else [discarder]
    for p in payers:
        a = _amount(int(points), fans[winner], fans[p], combine, cap)
        out[p] -= a
        out[winner] += a
    return tuple(out)


def settle_hand(result: Any, winner: int, discarder: int | None = None, *,
                personal: Any = None) -> tuple:
    """Settle a scored 武汉 win (:class:`~majiang.scoring.regional.RegionalResult`) with
    every player's personal 番: ``personal`` per seat, each an int or a mapping of
    items for :func:`personal_fan`; the ruleset's ``personal`` / ``cap`` options apply.

    Raises
    ------
    RuleError
        As :meth:`RegionalResult.settle` (below the minimum, a discard win without the
        discarder, bad seats) and :func:`settle_wuhan`.
    """
    rs = result._rules_object()
    base = result.settle(winner, discarder)        # the checks of RegionalResult.settle
    if personal is None:
        return base
    try:
        seats = list(personal)
    except TypeError:
        raise RuleError(f"personal must hold one 番 (an int or a mapping of items) per "
                        f"seat, got {personal!r}") from None
    fans = tuple(f if isinstance(f, int) and not isinstance(f, bool)
                 else personal_fan(f, ruleset=rs) for f in seats)
    params = dict(rs.settlement_params)
    params["personal"] = fans
    d = None if result.context.self_drawn else discarder
    return settle_wuhan(result.points, winner, d, players=rs.players,
                        **{k: v for k, v in params.items() if k != "players"})


def table_personal(rs: Any, table: Any) -> tuple:
    """Every seat's personal 番 (:func:`personal_fan`) read from the final table of a hand
    (:class:`~majiang.rules.base.EndTable`, as the game engine fills it): 开口 = a claimed
    meld (melds beyond the concealed kongs), 明杠 = claimed and added kongs, 暗杠 =
    concealed kongs, and per tile played out (still in the seat's discards) 红中杠 (红中),
    赖子杠 (the wild kind) and 痞子杠 (the 痞子: the kind the wild kind follows)."""
    wild = table.wild[0] if table.wild else None
    pizi = None
    if wild is not None and rs.jokers is not None:
        pizi = next((k for k in range(34) if rs.jokers.kind(k) == wild), None)
    out = []
    for q in range(table.players):
        kongs = table.kongs[q]
        concealed = sum(1 for _, how, _ in kongs if how == "concealed")
        counts = {"开口": int(table.melds[q] > concealed) if table.melds else 0,
                  "明杠": len(kongs) - concealed, "暗杠": concealed,
                  **_played_out(table.discards[q], wild, pizi)}
        out.append(personal_fan(counts, ruleset=rs))
    return tuple(out)


def _played_out(discards: Any, wild: int | None, pizi: int | None) -> dict:
    """红中杠 / 赖子杠 / 痞子杠 of a seat: the 红中, 赖子 (the wild kind) and 痞子 in its
    pool (``discards``: physical tiles; a kind not known is None, none counted)."""
    d = list(discards)
    return {"红中杠": d.count(33), "赖子杠": 0 if wild is None else d.count(wild),
            "痞子杠": 0 if pizi is None else d.count(pizi)}


def seat_fan(rs: Any, discards: Any) -> int:
    """The personal 番 a seat carries beyond its hand (:data:`~majiang.rules.base.SEAT_FANS`
    ``"wuhan"``): 红中杠 1, 痞子杠 1, 赖子杠 2 per 红中 / 痞子 / 赖子 still in its pool
    (``discards``, physical tiles).  The 痞子 and 赖子 are known once the turned indicator
    is applied (:func:`majiang.rules.derived.with_indicator`, as both game loops do after
    the deal); without it only the 红中 count.  Its melds' 番 (开口, 明杠, 暗杠) are read
    from the hand by :func:`short_of_minimum`."""
    from .model import rule_spec
    pizi = rule_spec(rs).pizi
    wild = None if pizi is None or rs.jokers is None else rs.jokers.kind(pizi)
    return sum(PERSONAL_FAN[k] * n for k, n in _played_out(discards, wild, pizi).items())


def hand_fan(rs: Any, fans: Mapping) -> int:
    """A win's hand 番 as HZ counts them for the minimum: 1 per 大胡 pattern (the fans
    tagged ``"big"``), 0 for a 屁胡, whatever the ``small`` / ``big`` point values.
    ``fans``: the counted fans ``{fan id: count}``."""
    return sum(int(n) for k, n in fans.items() if "big" in rs.fan(k).tags)


def minimum_words(rs: Any) -> str:
    """HZ's minimum in words, from option ``min_fan`` as :func:`short_of_minimum` reads
    it (:data:`~majiang.rules.table_rules.WIN_MINIMUM_WORDS` ``"wuhan"``)."""
    return f"{int(rs.options.get('min_fan', 0))} 番 (hand 番 + personal 番)"


def short_of_minimum(rs: Any, w: Any, fans: Mapping) -> str:
    """HZ's minimum of a win (:data:`~majiang.rules.base.WIN_MINIMUMS` ``"wuhan"``, option
    ``min_fan``): the hand 番 (:func:`hand_fan`) plus the winner's personal 番 — his melds'
    (开口, 明杠, 暗杠: :func:`personal_counts` of the hand) and the 番 he carries on the
    table (:attr:`WinContext.seat_fan <majiang.winning.WinContext.seat_fan>`: 红中杠 /
    痞子杠 / 赖子杠) — must reach ``min_fan``.  ``""`` when it does, else one line saying
    by how much it falls short."""
    need = int(rs.options.get("min_fan", 0))
    if not need:
        return ""
    hf = hand_fan(rs, fans)
    ms = w.hand.melds          # 开口 once, 明杠 / 暗杠 each (as personal_counts)
    melds = (int(any(not m.concealed for m in ms))
             + sum(PERSONAL_FAN["明杠"] if not m.concealed else _table(rs)["暗杠"]
                   for m in ms if m.kind == "kong"))
    have = hf + melds + int(w.context.seat_fan)
    if have >= need:
        return ""
    return (f"below the {need}-番 minimum of {rs.name}: {hf} hand 番 + {melds} personal "
            f"番 from the melds + {int(w.context.seat_fan)} from the 红中 / 痞子 / 赖子 "
            f"played out = {have}")


SEAT_FANS["wuhan"] = seat_fan
WIN_MINIMUMS["wuhan"] = short_of_minimum
WIN_MINIMUM_WORDS["wuhan"] = minimum_words


def end_settlement(rs: Any, table: Any) -> list:
    """The personal 番 part of each win of a hand played by the game engine
    (:data:`~majiang.rules.base.END_SETTLEMENTS` ``"wuhan"``): a win is paid at once with
    every personal 番 0 (:attr:`RegionalResult.settle` does not see the table); here each
    payer pays the rest of :func:`settle_wuhan` with the personal 番 of
    :func:`table_personal` (the hand ends at its one win, so the final table is the
    table of the win), as ``个人番`` payments from payer to winner."""
    if not table.wins:
        return []
    fans = table_personal(rs, table)
    params = {k: v for k, v in rs.settlement_params.items() if k not in ("players", "personal")}
    out = []
    for (seat, how, discarder, points, _), paid in zip(table.wins, table.payments):
        d = None if how in ("self_draw", "kong_replacement") else discarder
        full = settle_wuhan(points, seat, d, players=table.players, personal=fans, **params)
        for p in range(table.players):
            rest = paid[p] - full[p]          # what payer p still owes the winner
            if p != seat and rest > 0:
                out.append({"check": "个人番", "payer": p, "payee": seat, "amount": rest})
    return out


END_SETTLEMENTS["wuhan"] = end_settlement


def build(*, small: int = 5, big: int = 15, personal: str = "double",
          concealed_kong_fan: int = 1, cap: int | None = None, min_fan: int = 0) -> Ruleset:
    """The 武汉 ruleset (registered as ``"wuhan"`` with the defaults; module docstring).

    Parameters
    ----------
    small, big : int
        Points of a 屁胡 and of each 大胡 pattern (GF: 5 and 15; HZ's hand 番: 0 and 1).
    personal : {"double", "product", "none"}
        How the winner's and a payer's personal 番 raise a payment (:data:`COMBINES`,
        :func:`settle_wuhan`); the settlement parameter ``combine``.
    concealed_kong_fan : {1, 2}
        Personal 番 of a 暗杠 (1 = HZ; 2 = "commonly 2 in real play", unverified).
    cap : int or None
        金顶: the most one payer pays for one win (None: no cap).
    min_fan : int
        HZ's minimum of a win (起胡番, HZ: 3; 0 = none, the default): the hand 番 (1 per
        大胡 pattern, 0 for a 屁胡, whatever `small` / `big`) plus the winner's personal 番
        at the moment of the win (:func:`short_of_minimum`); the game engine gives the
        win predicate the 红中杠 / 痞子杠 / 赖子杠 of the winner (:func:`seat_fan`).

    Raises
    ------
    RuleError
        An unknown `personal`, a `concealed_kong_fan` other than 1 or 2, a `cap` below 1,
        a negative `min_fan`.
    """
    check_choice(personal, "wuhan option personal", COMBINES)
    check_choice(concealed_kong_fan, "wuhan option concealed_kong_fan", (1, 2))
    check_int(small, "wuhan option small", lo=0)
    check_int(big, "wuhan option big", lo=0)
    check_int(cap, "wuhan option cap (金顶)", lo=1, optional=True)
    check_int(min_fan, "wuhan option min_fan (起胡番)", lo=0, hi=99)
    src = "docs/rules/wuhan.md"
    tg = ("big", "pattern")
    sit = tg + ("situational",)       # needs the win's context: never ready by shape
    ex = (20,)
    fl = (
        F.fan(1, "清一色", "Full Flush", big, F.flush, tags=tg, excludes=ex, source=src),
        F.fan(2, "将一色", "All 2-5-8", big, F.all_258, tags=tg, excludes=ex, source=src),
        F.fan(3, "风一色", "All Honors", big, F.all_honors, tags=tg, excludes=ex, source=src),
        F.fan(4, "碰碰胡", "All Pungs", big, F.all_pungs, tags=tg, excludes=ex, source=src),
        F.fan(5, "全求人", "Melded Hand", big, F.melded_all, tags=tg, excludes=ex, source=src),
        F.fan(6, "杠上开花", "Win on Kong Replacement", big, F.kong_flower, tags=sit,
              excludes=ex, source=src),
        F.fan(7, "海底捞月", "Last Tile", big, F.last_tile, tags=sit,
              excludes=ex, source=src),
        F.fan(8, "抢杠胡", "Robbing the Kong", big, F.robbing, tags=sit, excludes=ex,
              source=src),
        F.fan(20, "屁胡", "Small Win", small, F.always, fallback=True, source=src),
    )
    return Ruleset(
        name="wuhan", title="武汉麻将 红中赖子杠 (Wuhan)", players=4, hand_size=13,
        calls=("chow_left", "pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=("regular", "all_258"), seven_pairs_quads=False, min_fan=0,
        flowers_count_toward_minimum=False, fans=fl, settlement=settle_wuhan,
        settlement_params={"personal": None, "combine": personal, "cap": cap},
        source="docs/rules/wuhan.md",
        tile_set="136",
        constraints=("must_open", "no_red_dragon", "no_pizi", "pair_258_small",
                     "max_one_joker_small"),
        ready="none", jokers=JokerRule(source="next", copies=4), wall_end=WallEnd(kept=0),
        winners="head_bump", scoring=ScoringRule(mode="add", unit="points"),
        options={"small": small, "big": big, "personal": personal,
                 "concealed_kong_fan": concealed_kong_fan, "cap": cap, "min_fan": min_fan},
        builder="wuhan", section="§3.16", end_settlement="wuhan",
        seat_fan="wuhan" if min_fan else "", win_minimum="wuhan" if min_fan else "",
        interpreted=("values provisional (docs/rules/wuhan.md)",
                     "one product's 3-番 minimum (option min_fan, off by default) counts "
                     "the hand 番 as that product does (1 per 大胡, 0 for a 屁胡) plus the "
                     "winner's personal 番 at the win"),
        lost=("one product's x3 包 payments: the sources name them, not who pays nor when "
              "(another product's 包牌 on 清一色 / 将一色 is named only)",))


WUHAN = build()

"""Table rules the game engine plays besides the hand value: when the wall ends
(:class:`WallEnd`), kong payments (:class:`KongPayments`), the settlements at a drawn end
(:data:`END_CHECKS`), end-of-hand settlements over the final table (:class:`EndTable`,
:data:`END_SETTLEMENTS`) with the tiles turned after a win that point at seats
(:func:`pointed_seats`, :func:`raised_payments`: 长沙 扎鸟, 广东 买马), the lock after a
passed win (:data:`PASS_LOCKS`), the limits on calls (:data:`CALL_LIMITS`), and who
deals the next hand (:class:`DealerRule`).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import RuleError
from .checks import check_bool, check_int

__all__ = ["net_of", "WallEnd", "KongPayments", "END_CHECKS", "EndTable", "END_SETTLEMENTS", "END_NOTES", "SEAT_FANS", "WIN_MINIMUMS", "WIN_MINIMUM_WORDS", "CALL_LIMITS",
           "PASS_LOCKS", "pointed_seats", "raised_payments", "raised_amount", "RAISE_MODES",
           "DealerRule",
           "DEFAULT_DEALER_RULE", "DEALER_AFTER_WIN", "DEALER_AFTER_DRAW", "DEALER_SEVERAL"]


@dataclass(frozen=True)
class WallEnd:
    """When the hand is drawn (荒庄): tiles kept back at the end of the wall.

    ``kept`` tiles stay undrawn with no kongs; each exposed / concealed kong adds
    ``per_exposed_kong`` / ``per_concealed_kong``; ``by_kongs`` (pairs
    ``(kongs, kept)``, the last entry also for more kongs) overrides both (西安:
    13, 7, 8, 13 stacks for 0, 1, 2, 3+ kongs).  The joker indicator is never
    counted.

    ``per_seat`` (Botzone / IJCAI duplicate format, docs/rules/mcr_botzone.md): the
    shuffled wall is cut into one equal wall per seat; a seat deals its hand and draws
    (kong replacements too) only from its own wall, in order.  The hand is drawn when
    the seat to draw next has an empty wall; the draw or discard after which the next
    seat's wall is empty is the last tile (海底捞月 / 妙手回春), and no call or kong
    follows it.  Needs ``kept == 0``, no kong terms, no flowers and no jokers.
    """

    kept: int = 0
    per_exposed_kong: int = 0
    per_concealed_kong: int = 0
    by_kongs: tuple = ()
    per_seat: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_kongs", tuple(tuple(x) for x in self.by_kongs))
        check_bool(self.per_seat, "wall_end per_seat")
        if self.per_seat and (self.kept or self.per_exposed_kong or self.per_concealed_kong
                              or self.by_kongs):
            raise RuleError("a wall end with one wall per seat keeps no tiles back "
                            "(kept, per-kong terms and by_kongs must be 0)")

    def kept_tiles(self, exposed_kongs: int = 0, concealed_kongs: int = 0) -> int:
        """Tiles left undrawn when the hand is drawn, after the given kongs."""
        if self.by_kongs:
            n = exposed_kongs + concealed_kongs
            kept = self.by_kongs[-1][1]
            for k, v in self.by_kongs:
                if n == k:
                    kept = v
                    break
            return kept
        return (self.kept + self.per_exposed_kong * exposed_kongs
                + self.per_concealed_kong * concealed_kongs)


DEALER_AFTER_WIN = {
    "dealer": "after a win the dealer keeps the deal if he is a winner (alone or among "
              "several), else his 下家 deals",
    "winner": "after a win the winner deals (抢庄; the dealer keeps it on his own win)",
    "discarder": "after a win the discarder deals (通炮者坐庄), the winner after a self-draw",
    "rotate": "after a win the dealer's 下家 deals (no 连庄 on a win)",
}
"""Who deals after a won hand (:attr:`DealerRule.win`)."""
DEALER_AFTER_DRAW = {"keep": "after a drawn hand (荒庄) the dealer keeps the deal",
                     "pass": "after a drawn hand (荒庄) the dealer's 下家 deals"}
"""Who deals after a drawn hand (:attr:`DealerRule.draw`)."""
DEALER_SEVERAL = {"first": "the first winner listed", "discarder": "the discarder",
                  "after_discarder": "the discarder's 下家"}
"""Who deals after several wins on one discard (一炮多响) when the winner deals next
(:attr:`DealerRule.several`)."""


@dataclass(frozen=True)
class DealerRule:
    """Who deals the next hand of a match (连庄 / 轮庄 / 抢庄), and the build option of the
    ruleset that takes the dealer's streak.

    Seats are numbered in turn order, so the dealer's 下家 is ``(dealer + 1) % players``.

    Parameters
    ----------
    win : str
        After a won hand, a key of :data:`DEALER_AFTER_WIN`: ``"dealer"`` (default),
        ``"winner"``, ``"discarder"`` or ``"rotate"``.
    draw : str
        After a drawn hand, ``"keep"`` (default) or ``"pass"`` (:data:`DEALER_AFTER_DRAW`).
    several : str
        With ``win="winner"`` and several winners of one discard (一炮多响):
        ``"first"`` (default: the first listed; in 血战 the first to win),
        ``"discarder"`` or ``"after_discarder"`` (:data:`DEALER_SEVERAL`); the last two
        read every winner of a hand as a winner of its first winning discard (not for
        血战, where wins follow one another), and a self-drawn first win is the first
        winner's.
    streak : str
        The ruleset's build option that takes the dealer's streak ("" = none): its
        value for a hand is ``streak_from`` + the deals the dealer has kept in a row
        before it (台湾 ``dealer_repeats``, 广东 ``dealer_streak``: from 0; 杭州 / 温州
        ``dealer_deal``, the deal's number: from 1).
    streak_from : int
        The option's value on a dealer's first deal (0 or 1).

    Raises
    ------
    RuleError
        An unknown ``win`` / ``draw`` / ``several``, or a bad ``streak`` / ``streak_from``.
    """

    win: str = "dealer"
    draw: str = "keep"
    several: str = "first"
    streak: str = ""
    streak_from: int = 0

    def __post_init__(self) -> None:
        for name, table in (("win", DEALER_AFTER_WIN), ("draw", DEALER_AFTER_DRAW),
                            ("several", DEALER_SEVERAL)):
            if getattr(self, name) not in table:
                raise RuleError(f"dealer rule: {name} must be one of {', '.join(table)}, "
                                f"got {getattr(self, name)!r}")
        if not isinstance(self.streak, str):
            raise RuleError(f"dealer rule: streak must be an option name, got {self.streak!r}")
        check_int(self.streak_from, "dealer rule streak_from", lo=0, hi=1)

    def next_dealer(self, dealer: int, winners: Any, discarders: Any, players: int) -> int:
        """The seat that deals the next hand.

        ``winners`` / ``discarders``: the hand's winners in the order they won and, per
        win, the discarder (None on a self-draw), as the ``winners`` / ``discarder``
        columns of :func:`majiang.simulate`; empty for a drawn hand.
        """
        nxt = (dealer + 1) % players
        winners = list(winners)
        if not winners:
            return dealer if self.draw == "keep" else nxt
        if self.win == "rotate":
            return nxt
        if self.win == "dealer":
            return dealer if dealer in winners else nxt
        discarders = list(discarders)
        first = discarders[0] if discarders else None
        if self.win == "discarder":
            return winners[0] if first is None else int(first)
        if len(set(winners)) > 1 and first is not None and self.several != "first":
            # (one seat winning twice, on both tiles a 开杠 turned, is one winner)
            return int(first) if self.several == "discarder" else (int(first) + 1) % players
        return int(winners[0])

    def streak_options(self, rs: Any, streak: int) -> dict:
        """The build options that give ruleset ``rs`` a dealer who has kept the deal
        ``streak`` times in a row: ``{streak option: streak_from + streak}``, or ``{}``
        when ``rs`` has no such option or already that value (build it with
        :func:`majiang.rules.toml.with_options`)."""
        if not self.streak or self.streak not in rs.options:
            return {}
        value = self.streak_from + int(streak)
        return {} if rs.options[self.streak] == value else {self.streak: value}

    def describe(self) -> str:
        """The rule in one line of plain text."""
        text = DEALER_AFTER_WIN[self.win]
        if self.win == "winner":
            text += f" (several winners on one discard: {DEALER_SEVERAL[self.several]})"
        return f"{text}; {DEALER_AFTER_DRAW[self.draw]}"


DEFAULT_DEALER_RULE = DealerRule()
"""The dealer rule of a ruleset whose sources do not state one (:attr:`Ruleset.dealer_rule`
None): the dealer keeps the deal on his own win and on a drawn hand, otherwise his 下家
deals — the reading of most variants that state it (西安, 河北, 杭州, 罗源, 台湾, and the
缺一门 / 跟庄 variant of 保定)."""


@dataclass(frozen=True)
class KongPayments:
    """Kong payments outside the hand value (四川 刮风下雨, 广东 杠分), in points.

    Parameters
    ----------
    concealed : int
        暗杠 (下雨): paid by each other player still in (not yet out in 血战).
    exposed : int
        直杠 / 明杠 on a discard: paid by the discarder.
    exposed_each : int
        擦挂: besides ``exposed``, paid by each player still in other than the konger
        and the discarder (0 = off).
    added : int
        补杠 (an added kong): paid by each other player still in.
    late_added_free : bool
        转手杠: an added kong declared on a tile held from an earlier turn (not the
        tile just drawn) pays nothing.
    when : {"at_once", "with_win"}
        ``"at_once"``: kept whatever the end; ``"with_win"`` (荒庄荒杠): void when the
        hand ends with nobody having won.
    transfer : bool
        呼叫转移: the income of the kongs a player made in the turn whose discard is
        won on goes to the winner(s), split evenly (remainder to the first winner in
        turn order after the discarder).
    void_on_deal_in : bool
        The income of the kongs a player made in the turn whose discard is won on (杠后炮)
        is void: nobody pays it (内蒙 宁城, NCMJ: "a kong immediately followed by its owner
        dealing in is ignored").  Not with ``transfer``.
    burn : bool
        烧: a player who deals in with the discard he made right after his own kong
        (杠上炮, :attr:`majiang.winning.WinContext.kong_discard`) collects none of his kong
        income of the whole hand (贵州, docs/rules/guizhou.md §4; the ruleset's end
        settlement reads it for its own payments too: 贵州 鸡).  Not with ``transfer``.
    collect : {"always", "ready"}
        ``"ready"``: at the end of the hand only a player who has won or is ready
        (听牌: some tile completes a valid win, THE predicate, as a self-draw) collects
        his kong income (贵州 豆, docs/rules/guizhou.md §4); ``"always"`` (default).
    wild : tuple of int
        A concealed kong of a wild kind (金杠 / 银杠, :attr:`JokerRule.kong
        <majiang.rules.jokers.JokerRule.kong>`) pays ``wild[i]`` from each other player
        still in, ``i`` the kind's place in :meth:`JokerRule.kinds
        <majiang.rules.jokers.JokerRule.kinds>` (天津 TJP: 银杠 6 for the turned kind, 金杠
        8 for the next one); () (default) or a missing place: paid as ``concealed``.

    A robbed added kong pays nothing (the kong fails).  退税 (refund at a drawn end)
    is the end check ``"退税"`` of :attr:`Ruleset.end_checks`.

    Raises
    ------
    RuleError
        A negative amount, a non-boolean switch or an unknown ``when`` / ``collect``.
    """

    concealed: int = 0
    exposed: int = 0
    exposed_each: int = 0
    added: int = 0
    late_added_free: bool = False
    when: str = "at_once"
    transfer: bool = False
    collect: str = "always"
    void_on_deal_in: bool = False
    burn: bool = False
    wild: tuple = ()

    def __post_init__(self) -> None:
        for k in ("concealed", "exposed", "exposed_each", "added"):
            check_int(getattr(self, k), f"kong payment {k}", lo=0)
        if not isinstance(self.wild, (tuple, list)):
            raise RuleError(f"kong payments wild must be a list of points, got {self.wild!r}")
        object.__setattr__(self, "wild", tuple(self.wild))      # (a TOML file gives a list)
        for v in self.wild:
            check_int(v, "kong payment wild", lo=0)
        for k in ("late_added_free", "transfer", "void_on_deal_in", "burn"):
            check_bool(getattr(self, k), f"kong payments {k}")
        for k in ("void_on_deal_in", "burn"):
            if self.transfer and getattr(self, k):
                raise RuleError(f"kong payments: transfer (呼叫转移) and {k} are two answers "
                                "to one question; set one")
        if self.when not in ("at_once", "with_win"):
            raise RuleError(f"kong payments 'when' must be at_once or with_win, got "
                            f"{self.when!r}")
        if self.collect not in ("always", "ready"):
            raise RuleError(f"kong payments 'collect' must be always or ready, got "
                            f"{self.collect!r}")


END_CHECKS = ("查花猪", "查大叫", "退税")
"""Settlements at a drawn end (docs/rules/sichuan.md §8), in this order: 查花猪 (a player
holding three suits pays 16 x base to each other non-pig), 查大叫 (a player not ready
pays each ready player that player's largest value), 退税 (not-ready players and pigs
hand back their kong income)."""

@dataclass(frozen=True)
class EndTable:
    """The final table of a hand, as an end-of-hand settlement
    (:data:`END_SETTLEMENTS`, :attr:`Ruleset.end_settlement`) reads it.  Plain data:
    the game engine fills it, the ruleset's function turns it into payments.

    Attributes
    ----------
    players : int
    end : {"win", "wall", "blood"}
        How the hand ended (``"wall"``: 荒庄, nobody won or the wall ran out).
    winners : tuple of int
    ready : sequence of bool
        (Like ``values``, a per-seat tuple the engine works out on first use.)
        Per seat: won, or ready (some tile completes a valid win under THE predicate,
        as a self-draw).
    values : tuple of (int or None)
        Per seat: the points of the best win the seat waits on (None when not ready;
        a winner's win points).
    tiles : tuple of dict
        Per seat ``{kind: copies}`` over the concealed tiles and melds (a kong 4), and
        for a winner the winning tile.
    discards : tuple of tuple of int
        Per seat, the kinds still in that seat's discard pool (claimed ones removed).
    opening : tuple of tuple of int
        Per seat, the kinds it discarded while play went round in turn order from the
        dealer: before the first discard someone claimed (a call or a win on it; that tile
        not included) and before the first win.  What 跟庄 / 抄庄 read
        (:func:`~majiang.rules.baoding.gen_zhuang_rounds`): a claimed tile leaves its pool,
        so ``discards`` would shift the later ones into its place.  () when the loop did
        not keep it.
    kongs : tuple of tuple
        Per seat, ``(kind, how, feeder)``: how ``"concealed"`` / ``"added"`` /
        ``"exposed"`` (feeder = the discarder's seat, else None).
    turned : int or None
        The tile turned from the wall after the hand (the next live tile), None when
        the wall is empty.
    first_discards : mapping
        ``{kind: (seat, claimed_by)}``: the first discard of each kind in the hand and
        the seat that punged / konged / chowed that very tile (None when nobody did).
    wild : tuple of int
        The wild kinds of the hand (:meth:`JokerRule.kinds`: 南昌 正精 then 副精), () without
        jokers.
    dealer : int
        The dealer's seat (河北 / 内蒙 / 保定 double what the dealer pays or receives).
    melds : tuple of int
        Per seat, the number of melds (claimed or concealed kongs) at the end (内蒙 闭门).
    wins : tuple of tuple
        Per win in order, ``(seat, how, discarder, points, fans)`` with how
        ``"self_draw"`` / ``"kong_replacement"`` / ``"discard"`` / ``"robbing_kong"`` /
        ``"flower"`` (台湾 八仙過海: every flower collected, paid as a self-draw) and
        fans the counted fans as ``(chinese name, count)`` pairs.
    start : tuple of dict
        Per seat ``{kind: copies}``: the hand as dealt (the dealer's 14 tiles), after
        flowers are replaced (长沙 起手胡); () when the loop did not keep it.
    rest : tuple of int
        The kinds left in the live wall, in draw order from the head (长沙 扎鸟 turns
        its birds from there); flowers left out.
    payments : tuple of tuple
        Per win in order, the per-seat score change of that win (negative: a payer).
    win_tiles : tuple of int
        Per win in order, the winning tile's kind.
    kong_discards : tuple of bool
        Per win in order, won on the discard its discarder made right after his own kong
        (杠上炮 / 杠后炮, :attr:`majiang.winning.WinContext.kong_discard`).
    last_drawn : int or None
        The kind of the last playing tile drawn from the wall, head or tail (the 海底 tile
        when the wall ran out: 长沙 扎鸟 after a drawn hand); None when the loop did not
        keep it.
    supplied : tuple of tuple
        Per seat, the tiles it took from another seat, in the order taken, as
        ``(kind, supplier)``: the claimed discard of each claimed meld (an added kong
        keeps its pung's), then the tile it won on from another seat (a discard, or
        the robbed kong's tile).  The compiled loop does not keep which tile of a chow
        was claimed: its chows give kind None there (南昌 plays in the Python loop).
        () when the loop did not keep it.
    """

    players: int
    end: str
    winners: tuple
    ready: tuple
    values: tuple
    tiles: tuple
    discards: tuple
    kongs: tuple
    turned: int | None
    first_discards: Mapping
    wild: tuple = ()
    dealer: int = 0
    melds: tuple = ()
    wins: tuple = ()
    start: tuple = ()
    rest: tuple = ()
    payments: tuple = ()
    win_tiles: tuple = ()
    kong_discards: tuple = ()
    last_drawn: int | None = None
    opening: tuple = ()
    supplied: tuple = ()


END_SETTLEMENTS: dict[str, Callable] = {}
"""End-of-hand settlements by name (:attr:`Ruleset.end_settlement`): ``f(ruleset,
table: EndTable) -> list of dict`` with ``check``, ``payer``, ``payee``, ``amount``
(paid at the end besides the wins, kong payments and :data:`END_CHECKS`).  A ruleset
module registers its function (贵州捉鸡: 鸡 after a win, 查叫 at a drawn end)."""

END_NOTES: dict[str, Callable] = {}
"""What one winning hand scored alone (``majiang score``) shows of an end-of-hand
settlement, by the name of :data:`END_SETTLEMENTS`: ``f(ruleset, tiles, wild, taken) ->
str | None``, ``tiles`` the winner's ``{kind: count}`` (hand, melds and won tile, wild
tiles by face), ``wild`` the wild kinds (``()`` unknown), ``taken`` the kinds of the
melds claimed from a discard and of a won discard; one line naming the payments the
winner's tiles make at the hand's end (南昌 精分 / 冲关 / 冲关包赔), None for nothing to
say.  A ruleset module registers its function."""

SEAT_FANS: dict[str, Callable] = {}
"""番 a seat carries on the table beyond its hand, by name (:attr:`Ruleset.seat_fan`):
``f(ruleset, discards) -> int``, ``discards`` the physical tiles still in the seat's pool
(武汉: the 红中 / 痞子 / 赖子 played out, personal 番).  The game engine asks it at each
win and gives the count to the win predicate as :attr:`WinContext.seat_fan
<majiang.winning.WinContext.seat_fan>`.  A ruleset module registers its function."""

WIN_MINIMUMS: dict[str, Callable] = {}
"""Minimums of a win that are not a sum of fan values, by name
(:attr:`Ruleset.win_minimum`): ``f(ruleset, w, fans) -> str``, ``w`` the
:class:`~majiang.winning.WinningHand` read (its melds and :attr:`WinContext.seat_fan
<majiang.winning.WinContext.seat_fan>`), ``fans`` its counted fans ``{fan id: count}``;
``""`` when the win reaches the minimum, else why not in one line (武汉 HZ: hand 番 +
personal 番 at least 3).  Read through :meth:`RuleSpec.short_of_minimum
<majiang.rules.model.RuleSpec.short_of_minimum>`.  A ruleset module registers its
function."""

WIN_MINIMUM_WORDS: dict[str, Callable] = {}
"""The minimum of each :data:`WIN_MINIMUMS` entry in words, by the same name:
``f(ruleset) -> str`` read from the same fact the check reads (武汉 HZ: ``"3 番: hand 番
+ personal 番"`` from option ``min_fan``); ``majiang rules NAME`` prints it as the
ruleset's minimum.  A ruleset module registers it with its check."""

CALL_LIMITS: dict[str, Callable] = {}
"""Limits on calls by builder name (:attr:`majiang.rules.model.RuleSpec.call_limit`, on where
the ruleset's derived option ``call_limits_played`` is true: its ``call_limits`` under a
variant that plays them): ``f(call, kind, melds, held, live) -> bool``,
whether seat may make ``call`` (``"chow"``, ``"pung"``, ``"exposed_kong"``, ``"added_kong"``,
``"concealed_kong"``) of ``kind`` (a chow by its lowest kind) holding ``melds`` (``(meld kind,
tile, concealed)`` tuples), ``held`` concealed tiles before the call, with ``live`` tiles
left in the wall (None: not known, the wall limits are not asked).  A ruleset module
registers its function (内蒙 敖汉)."""

RAISE_MODES = ("add", "times", "double")
"""How the tiles turned after a win raise its payments (:func:`raised_payments`): ``"add"``
a fixed amount a tile, ``"times"`` x (1 + tiles), ``"double"`` x 2^tiles."""


def pointed_seats(tiles, anchor: int, players: int = 4) -> list[int]:
    """Per seat, how many of the turned ``tiles`` (kinds 0..33) point at it, counting in
    turn order from seat ``anchor``: a suited tile of rank r points (r - 1) mod 4 seats on
    (1/5/9 the anchor, 2/6 its 下家, 3/7 across, 4/8 its 上家), a wind 东/南/西/北 0/1/2/3
    seats on, a dragon 中/发/白 0/1/2 seats on.  The count of 长沙 扎鸟
    (docs/rules/changsha.md §4, anchor the winner) and of 广东 买马 (docs/rules/guangdong.md
    §1, anchor the dealer)."""
    out = [0] * players
    for t in tiles:
        t = int(t)
        step = (t % 9) % 4 if t < 27 else t - 27 if t < 31 else 33 - t
        out[(anchor + step) % players] += 1
    return out


def raised_amount(paid: int, k: int, mode: str, unit: int = 1) -> int:
    """How much more a payment of ``paid`` becomes when ``k`` tiles raise it
    (:data:`RAISE_MODES`): ``k * unit`` (``"add"``), ``paid * k`` (``"times"``: x (1 + k))
    or ``paid * (2^k - 1)`` (``"double"``: x 2^k)."""
    if mode == "add":
        return k * unit
    if mode == "times":
        return paid * k
    return paid * ((1 << k) - 1)


def raised_payments(table, hits, mode: str, check: str, unit: int = 1) -> list:
    """The extra payments when tiles turned after a win raise what its payers pay: for
    each win of ``table`` (:class:`EndTable`) and each seat that paid it, ``k = hits(winner,
    payer)`` tiles raise the payment by ``k * unit`` (``mode`` ``"add"``), by ``k`` times
    the payment (``"times"``: x (1 + k)) or to 2^k times it (``"double"``).  A list of
    ``{"check", "payer", "payee", "amount"}`` (amount > 0), named ``check``."""
    out = []
    for (w, *_), pay in zip(table.wins, table.payments):
        for q in range(table.players):
            if q == w or pay[q] >= 0:
                continue
            extra = raised_amount(-pay[q], hits(w, q), mode, unit)
            if extra:
                out.append({"check": check, "payer": q, "payee": w, "amount": extra})
    return out


PASS_LOCKS = ("", "kind", "all")
"""过水 / 漏和 after a passed win: none, ``"kind"`` (山东 不能弃先和后: the passed kind
until the player's own discard), ``"all"`` (广东 漏和: every discard win until then)."""


def net_of(payments: Any, players: int) -> tuple:
    """Per-seat score changes of end-settlement payment dicts (``{"payer", "payee",
    "amount"}``, as :data:`END_SETTLEMENTS` functions return them): a tuple of
    `players` ints summing to 0."""
    out = [0] * players
    for e in payments:
        out[e["payer"]] -= e["amount"]
        out[e["payee"]] += e["amount"]
    return tuple(out)

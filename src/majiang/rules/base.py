"""Rulesets as data: :class:`Fan` and :class:`Ruleset`.

A ruleset is a frozen dataclass holding the tile set, players, hand size,
calls, winning forms, minimum, fan table and settlement of one variant.  Fans
are data too: an id, names, a value, a small predicate over a
:class:`majiang.winning.WinningHand`, and the fans it excludes (不计).  The
scoring engine (:mod:`majiang.scoring`) enumerates decompositions and applies
the exclusion principles uniformly; a ruleset only supplies the table.

Regional variants are new :class:`Ruleset` values (often
``dataclasses.replace(base, ...)`` with a changed fan table); nothing here is
specific to Chinese Official rules.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..errors import RuleError
from .constraints import CONSTRAINTS

__all__ = ["Fan", "Ruleset", "FORM_NAMES", "CORE_FORMS", "EXTRA_FORMS", "JokerRule",
           "KongPayments", "END_CHECKS", "PASS_LOCKS", "EndTable", "END_SETTLEMENTS",
           "ScoringRule", "WallEnd", "TILE_SETS", "tile_copies", "SETTLEMENTS",
           "register_settlement", "CALLS", "WINNERS", "READY", "check_int", "check_bool",
           "check_choice", "FAN_VALUE_MAX", "FAN_DOUBLINGS_MAX", "DOUBLINGS_MAX", "doubling",
           "DERIVED_OPTIONS"]


def check_int(value: Any, what: str, *, lo: int | None = None, hi: int | None = None,
              optional: bool = False, even: bool = False) -> int | None:
    """The one check of an integer option or argument of a ruleset (builder options,
    scoring and kong-payment fields, TOML values): an ``int`` (a bool is not one) within
    ``lo`` .. ``hi`` (either bound may be open), even when ``even``; None passes when
    ``optional``.  Returns the value.

    Raises
    ------
    RuleError
        ``"<what> must be [None or ]an [even ]integer[ >= lo | <= hi | from lo to hi],
        got <value>"`` — one wording for every ruleset.
    """
    if optional and value is None:
        return None
    if (not isinstance(value, bool) and isinstance(value, int)
            and (lo is None or value >= lo) and (hi is None or value <= hi)
            and not (even and value % 2)):
        return value
    rng = ("" if lo is None and hi is None else f" >= {lo}" if hi is None
           else f" <= {hi}" if lo is None else f" from {lo} to {hi}")
    raise RuleError(f"{what} must be {'None or ' if optional else ''}an "
                    f"{'even ' if even else ''}integer{rng}, got {value!r}")


def check_bool(value: Any, what: str, *, optional: bool = False) -> bool | None:
    """The one check of a boolean option of a ruleset (builder options, TOML values): a
    ``bool`` — not a string such as ``"false"`` or ``"no"``, nor 0 / 1; None passes when
    ``optional``.  Returns the value.

    Raises
    ------
    RuleError
        ``"<what> must be [None or ]true or false, got <value>"``.
    """
    if isinstance(value, bool) or (optional and value is None):
        return value
    raise RuleError(f"{what} must be {'None or ' if optional else ''}true or false, "
                    f"got {value!r}")


def check_choice(value: Any, what: str, choices: Iterable) -> Any:
    """The one check of an option that takes one of a few values (an enum: ``"add_base"``
    or ``"double"``, 8 or 16, None): `value` must equal one of `choices` and be of the
    same type (``True`` is not 1, ``8.0`` is not 8).  Returns the value.

    Raises
    ------
    RuleError
        ``"<what> must be one of <choices>, got <value>"``.
    """
    choices = tuple(choices)
    for c in choices:
        if type(value) is type(c) and value == c:
            return value
    raise RuleError(f"{what} must be one of {', '.join(map(repr, choices))}, got {value!r}")


FAN_VALUE_MAX = 10_000
"""Largest value of one fan (points in an adding table, a multiplier in a custom one).
The published tables stay far below it (国标 88, 南京 160)."""
FAN_DOUBLINGS_MAX = 64
"""Largest value of one fan of a doubling table (``ScoringRule(mode="double")``): 64
doublings (x 2^64).  The published tables stay far below it (四川 5, 广东鸡平胡 6)."""
DOUBLINGS_MAX = 1024
"""Most doublings a win may be worth (:func:`doubling`): 2^1024, a 309-digit number."""


def doubling(n: int) -> int:
    """``2 ** n`` for the doublings of a win (``ScoringRule(mode="double")``, 螺山 台),
    refusing an absurd exponent instead of computing (and hanging on) a huge number.

    Raises
    ------
    RuleError
        `n` is not an integer from 0 to :data:`DOUBLINGS_MAX`.
    """
    check_int(n, "the doublings of a win", lo=0, hi=DOUBLINGS_MAX)
    return 1 << n


DERIVED_OPTIONS: dict[str, frozenset] = {}
"""Per builder name, the keys of :attr:`Ruleset.options` that the builder derives from
its other options (杭州 ``min_points`` from ``you_cai_bi_kao``, 温州 ``special_wins``
from ``three_caishen_win``): stored for the code that reads them, never written to a
house-rule file (:func:`majiang.rules.dumps`) nor carried over when house rules change
the options."""


CORE_FORMS = ("regular", "seven_pairs", "thirteen_orphans", "honors_and_knitted",
              "knitted_straight")
"""Forms the Cython core computes (:data:`majiang.efficiency.FORMS`)."""
EXTRA_FORMS = ("thirteen_lonely", "seven_stars", "all_258")
"""Forms the core does not know: 十三烂 (thirteen lonely tiles) and 七星归位 (十三烂
holding all seven honors), computed by :mod:`majiang.rules.shapes`; 将将胡 / 将一色
(``all_258``: every tile of the hand, melds included, is a 2, 5 or 8 of a suit, in any
shape; STANDARD_READINGS §4.2 CS/JD, §5.1 HZ), computed in closed form by
:mod:`majiang.efficiency` and scored by :mod:`majiang.scoring.regional`."""
FORM_NAMES = CORE_FORMS + EXTRA_FORMS
"""Winning forms a ruleset may list (:attr:`Ruleset.forms`)."""

CALLS = ("chow_left", "chow_any_on_win", "pung", "exposed_kong", "added_kong",
         "concealed_kong")
WINNERS = ("head_bump", "multiple", "single")
"""Several players win on one discard: 截和 (the first in turn order after the
discarder), 一炮多响 (all of them), or only one winner per hand (the hand ends)."""
READY = ("none", "optional", "required")


# ---------------------------------------------------------------- tile sets
def _copies(suits=(0, 1, 2), winds=4, dragons=4, one_each_wind=False) -> tuple:
    c = [0] * 34
    for s in suits:
        for k in range(9 * s, 9 * s + 9):
            c[k] = 4
    for k in range(27, 31):
        c[k] = 1 if one_each_wind else winds
    for k in range(31, 34):
        c[k] = dragons
    return tuple(c)


TILE_SETS = {
    # name: (copies of the 34 playable kinds, flowers (non-playing tiles), description)
    "136": (_copies(), 0, "136: 3 suits x 36, 4 winds x 4, 3 dragons x 4"),
    "144": (_copies(), 8, "144: 136 + 8 flowers 春夏秋冬梅兰竹菊"),
    "108": (_copies(winds=0, dragons=0), 0, "108: 万 筒 条 x 36 only (素麻将)"),
    "112": (_copies(dragons=0, one_each_wind=True), 0,
            "112: 108 + one each of 东南西北 (灌南)"),
    "84": (_copies(suits=(1, 2), winds=0), 0, "84: 筒 条 x 36 + 中发白 x 4 (no 万, no winds)"),
    "128_honor_flowers": (_copies(winds=0, dragons=0), 20,
                          "128: 108 suited + 东南西北中 x 4 as flowers (罗源 20花)"),
    "144_honor_flowers": (_copies(winds=0, dragons=0), 36,
                          "144: 108 suited + 28 honors and 8 flowers, all as flowers (罗源 36花)"),
    "116": (_copies(winds=0, dragons=0), 8, "116: 108 suited + 8 flowers (海南 无字牌)"),
    "144_dragon_flowers": (_copies(dragons=0), 20,
                           "144: 108 suited + 16 winds + 20 flowers (8 flowers + 中发白 x 4, 南京)"),
}
"""Built-in tile sets: per-kind copies of the playable kinds and non-playing (flower) tiles."""


def tile_copies(name: str) -> tuple:
    """Copies of each of the 34 kinds in the tile set `name` (:data:`TILE_SETS`).

    Raises
    ------
    RuleError
        Unknown tile set.
    """
    try:
        return TILE_SETS[name][0]
    except KeyError:
        raise RuleError(f"unknown tile set {name!r}; known: {', '.join(TILE_SETS)}") from None


# ---------------------------------------------------------------- jokers
_SUCC = {}
for _s in range(3):
    for _r in range(9):
        _SUCC[9 * _s + _r] = 9 * _s + (_r + 1) % 9
_WIND_CYCLE = (27, 28, 29, 30)
_DRAGON_CYCLE = (33, 32, 31)                 # 中 -> 发 -> 白 -> 中
_HONOR_CYCLE7 = (27, 28, 29, 30, 33, 32, 31)  # 东南西北中发白, end joined to start


@dataclass(frozen=True)
class JokerRule:
    """Which tile kind is wild (钻牌/财神/百搭/混儿/赖子/金) and what a joker may do.

    Parameters
    ----------
    source : {"next", "turned", "fixed"}
        ``"next"``: the kind after a turned indicator (suits 9→1, winds 东→南→西→北→东,
        dragons 中→发→白→中, or one 7-cycle 东南西北中发白 with ``honor_cycle="seven"``);
        ``"turned"``: the turned tile's kind itself (罗源 金, 活动百搭);
        ``"fixed"``: always ``fixed`` (e.g. 红中).
    fixed : int, optional
        The kind for ``source="fixed"``.
    honor_cycle : {"separate", "seven"}
    copies : int
        How many copies of the joker kind are wild (4; 3 when the turned one stays
        face up on the table).
    claim, be_claimed, discard : bool
        Whether a joker may be used to claim (吃/碰), whether a discarded joker may be
        claimed or won on, whether a joker may be discarded at all.
    fifth_copy : bool
        Whether a joker may stand for a fifth copy of a kind.
    substitute : int, optional
        A kind that stands in for the joker's natural tile (安庆: 红中; 温州, 上海百搭
        活动百搭, 杭州 翻财神: 白板).  Its copies are drawn as that face
        (:meth:`GameModel.wall`); a hand writes a held one as the face; ukeire and the
        discard tables list its draw under the substitute's own name (``"7z"``, ``"5z"``);
        :func:`majiang.scoring.faces.score` takes it by its own name.
    second : {None, "next"}
        A second wild kind: ``"next"`` = the kind after the first wild kind in its
        cycle (same cycles as ``source="next"``).  南昌 正精 (the turned kind) + 副精
        (the next kind); 天津 混儿 中下滚 (3 of the turned kind + 4 of the next).
        ``None`` (default): one wild kind, as every ruleset before.
    second_copies : int
        Wild copies of the second kind (4).
    own_face_natural : bool
        A joker standing for its own face counts as a natural tile (南昌 德国: "no 精
        acting as a wild"); read by :func:`majiang.scoring.faces.score`, which then also
        scores the hand with the jokers as their faces.  False (default): a held joker
        is always a joker (天津 素胡 = no 混儿 held at all).
    """

    source: str = "next"
    fixed: int | None = None
    honor_cycle: str = "separate"
    copies: int = 4
    claim: bool = False
    be_claimed: bool = False
    discard: bool = True
    fifth_copy: bool = False
    substitute: int | None = None
    second: str | None = None
    second_copies: int = 4
    own_face_natural: bool = False

    def __post_init__(self) -> None:
        if self.source not in ("next", "turned", "fixed"):
            raise RuleError(f"joker source must be next, turned or fixed, got {self.source!r}")
        if self.source == "fixed" and (self.fixed is None or not 0 <= self.fixed < 34):
            raise RuleError("a fixed joker needs fixed=<kind 0..33>")
        if self.honor_cycle not in ("separate", "seven"):
            raise RuleError(f"honor_cycle must be separate or seven, got {self.honor_cycle!r}")
        if not 1 <= self.copies <= 8:
            raise RuleError(f"joker copies must be 1..8, got {self.copies}")
        if self.second not in (None, "next"):
            raise RuleError(f"joker second must be None or 'next', got {self.second!r}")
        if self.second is not None:
            if not 1 <= self.second_copies <= 4:
                raise RuleError(f"joker second_copies must be 1..4, got {self.second_copies}")
            if self.copies + self.second_copies > 8:
                raise RuleError("two joker kinds may have at most 8 wild copies together "
                                f"(a hand counts at most 8 jokers), got {self.copies} + "
                                f"{self.second_copies}")
            if self.substitute is not None:
                raise RuleError("a substitute tile works with one joker kind only")

    def kind(self, indicator: int | None = None) -> int:
        """The wild kind for a turned `indicator` kind (ignored for fixed jokers)."""
        if self.source == "fixed":
            return int(self.fixed)
        if indicator is None:
            raise RuleError("this ruleset's joker is found from a turned indicator tile; "
                            "give the indicator")
        t = _kind(indicator)
        if self.source == "turned":
            return t
        return self._next(t)

    def _next(self, t: int) -> int:
        """The kind after `t` in its cycle (suits 9→1, winds, dragons or the 7-cycle)."""
        if t < 27:
            return _SUCC[t]
        if self.honor_cycle == "seven":
            cyc = _HONOR_CYCLE7
        else:
            cyc = _WIND_CYCLE if t < 31 else _DRAGON_CYCLE
        return cyc[(cyc.index(t) + 1) % len(cyc)]

    def kinds(self, indicator: int | None = None) -> tuple:
        """Every wild kind for a turned `indicator`: ``(kind,)``, or ``(kind, next kind)``
        with :attr:`second` (南昌 正精 / 副精, 天津 混儿)."""
        k = self.kind(indicator)
        if self.second is None:
            return (k,)
        return (k, self._next(k))

    @property
    def kind_copies(self) -> tuple:
        """Wild copies of each kind of :meth:`kinds`, in the same order."""
        return (self.copies,) if self.second is None else (self.copies, self.second_copies)

    @property
    def total_copies(self) -> int:
        """Wild tiles in the set: the sum of :attr:`kind_copies`."""
        return sum(self.kind_copies)

    @property
    def plain(self) -> bool:
        """One wild kind of the usual sort, which the compiled game loop plays: never
        claimed, never used to claim, discardable, no substitute tile, no second kind."""
        return (self.substitute is None and not self.claim and not self.be_claimed
                and self.discard and self.second is None)


WILD_HELD: ContextVar = ContextVar("majiang_wild_held", default=None)
"""``(wild kinds, copies of each held)`` of the hand being scored, published by
:func:`majiang.scoring.faces.score` (the hand written with the jokers by their faces and
the turned indicator); None otherwise.  Fan predicates that depend on which joker kind
is held (天津 银杠胡 / 金杠胡 / 本混龙) read it."""


def _kind(x) -> int:
    if isinstance(x, str):
        from ..tiles import parse_tile
        return parse_tile(x)
    if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < 34:
        raise RuleError(f"a tile kind must be 0..33 or a tile name, got {x!r}")
    return int(x)


# ---------------------------------------------------------------- scoring rule
POINTS_FUNCTIONS: dict[str, Callable] = {}


def fan_product(fans: Mapping, rs, tag: str | None = None) -> int:
    """The product of ``value ** count`` over the counted `fans` (``{fan id: count}``),
    only those tagged `tag` when given, capped at ``rs.scoring.cap`` (``None``: no cap).
    The multiplier rulesets' points functions (南昌, 杭州, 上海百搭) share it."""
    m = 1
    for k, n in fans.items():
        f = rs.fan(k)
        if tag is None or tag in f.tags:
            m *= f.value ** n
    cap = rs.scoring.cap
    return m if cap is None else min(m, cap)


@dataclass(frozen=True)
class ScoringRule:
    """How counted fans become points.

    ``mode="add"``: points = ``base * total`` (fan points add up; MCR, 台湾 台, 长沙);
    ``mode="double"``: fan values are doublings, points = ``base * 2 ** min(total, cap)``
    (四川 番 in the 0-based convention, 广东 番, 卡五星 multipliers as powers of two,
    沈阳 2^N); ``mode="custom"``: ``POINTS_FUNCTIONS[function](counts, ruleset)``
    (螺山 和 × 2^台).  ``cap`` is in fan units (``None``: no cap); fans listed in
    ``limit`` (limit hands such as 十三幺 in 广东) are paid at their own value and
    break the cap.
    """

    mode: str = "add"
    base: int = 1
    cap: int | None = None
    limit: frozenset = frozenset()
    function: str = ""

    def __post_init__(self) -> None:
        if self.mode not in ("add", "double", "custom"):
            raise RuleError(f"scoring mode must be add, double or custom, got {self.mode!r}")
        # a doubling cap is an exponent (2 ** cap is shown and paid): at most DOUBLINGS_MAX
        check_int(self.cap, "scoring cap", lo=0, optional=True,
                  hi=DOUBLINGS_MAX if self.mode == "double" else None)
        check_int(self.base, "scoring base", lo=1)
        object.__setattr__(self, "limit", frozenset(self.limit))
        if self.mode == "custom" and self.function not in POINTS_FUNCTIONS:
            raise RuleError(f"unknown points function {self.function!r}")


# ---------------------------------------------------------------- wall end
@dataclass(frozen=True)
class WallEnd:
    """When the hand is drawn (荒庄): tiles kept back at the end of the wall.

    ``kept`` tiles stay undrawn with no kongs; each exposed / concealed kong adds
    ``per_exposed_kong`` / ``per_concealed_kong``; ``by_kongs`` (pairs
    ``(kongs, kept)``, the last entry also for more kongs) overrides both (西安:
    13, 7, 8, 13 stacks for 0, 1, 2, 3+ kongs).  The joker indicator is never
    counted.
    """

    kept: int = 0
    per_exposed_kong: int = 0
    per_concealed_kong: int = 0
    by_kongs: tuple = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_kongs", tuple(tuple(x) for x in self.by_kongs))

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
    collect : {"always", "ready"}
        ``"ready"``: at the end of the hand only a player who has won or is ready
        (听牌: some tile completes a valid win, THE predicate, as a self-draw) collects
        his kong income (贵州 豆, STANDARD_READINGS_2 §4.4); ``"always"`` (default).

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

    def __post_init__(self) -> None:
        for k in ("concealed", "exposed", "exposed_each", "added"):
            check_int(getattr(self, k), f"kong payment {k}", lo=0)
        for k in ("late_added_free", "transfer"):
            check_bool(getattr(self, k), f"kong payments {k}")
        if self.when not in ("at_once", "with_win"):
            raise RuleError(f"kong payments 'when' must be at_once or with_win, got "
                            f"{self.when!r}")
        if self.collect not in ("always", "ready"):
            raise RuleError(f"kong payments 'collect' must be always or ready, got "
                            f"{self.collect!r}")


END_CHECKS = ("查花猪", "查大叫", "退税")
"""Settlements at a drawn end (STANDARD_READINGS §1.8), in this order: 查花猪 (a player
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
    ready : tuple of bool
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


END_SETTLEMENTS: dict[str, Callable] = {}
"""End-of-hand settlements by name (:attr:`Ruleset.end_settlement`): ``f(ruleset,
table: EndTable) -> list of dict`` with ``check``, ``payer``, ``payee``, ``amount``
(paid at the end besides the wins, kong payments and :data:`END_CHECKS`).  A ruleset
module registers its function (贵州捉鸡: 鸡 after a win, 查叫 at a drawn end)."""

PASS_LOCKS = ("", "kind", "all")
"""过水 / 漏和 after a passed win: none, ``"kind"`` (山东 不能弃先和后: the passed kind
until the player's own discard), ``"all"`` (广东 漏和: every discard win until then)."""


# ---------------------------------------------------------------- settlements
SETTLEMENTS: dict[str, Callable[..., tuple]] = {}


def register_settlement(fn: Callable[..., tuple]) -> Callable[..., tuple]:
    """Make a settlement function known by name (for TOML house rules)."""
    SETTLEMENTS[fn.__name__] = fn
    return fn


@register_settlement
def settle_points(points: int, winner: int, discarder: int | None, *, players: int = 4,
                  self_draw_all_pay: bool = True, discarder_pays_all: bool = False,
                  dealer: int | None = None, dealer_extra: int = 0,
                  self_draw_bonus: int = 0) -> tuple:
    """The usual regional settlement of a win worth `points`.

    On a discard the discarder alone pays (``discarder_pays_all``: the discarder
    also pays the two others' shares, 包三家); on a self-draw each other player pays
    (or, with ``self_draw_all_pay=False``, nobody: no self-draw premium).  When
    ``dealer`` is given, a payment between the dealer and another player adds
    ``dealer_extra``; ``self_draw_bonus`` is added to each self-draw payment
    (四川 自摸加底).
    """
    out = [0] * players

    def pay(frm: int, amount: int) -> None:
        if dealer is not None and (frm == dealer or winner == dealer):
            amount += dealer_extra
        out[frm] -= amount
        out[winner] += amount

    if discarder is None:
        if self_draw_all_pay:
            for p in range(players):
                if p != winner:
                    pay(p, points + self_draw_bonus)
    elif discarder_pays_all:
        for p in range(players):
            if p != winner:
                amount = points + (dealer_extra if dealer is not None and
                                   (p == dealer or winner == dealer) else 0)
                out[discarder] -= amount
                out[winner] += amount
    else:
        pay(discarder, points)
    return tuple(out)


@register_settlement
def settle_everyone(points: int, winner: int, discarder: int | None, *,
                    players: int = 4) -> tuple:
    """Everyone pays the winner the same `points`, self-drawn or not (螺山)."""
    out = [0] * players
    for p in range(players):
        if p != winner:
            out[p] -= points
            out[winner] += points
    return tuple(out)


@dataclass(frozen=True)
class Fan:
    """One scoring pattern (番种).

    Parameters
    ----------
    id : int
        Stable integer id (for Chinese Official rules the standard order 1..81).
    chinese, english : str
        Names, e.g. ``"清一色"``, ``"Full Flush"``.
    value : int
        Fan points per occurrence.
    predicate : callable, optional
        ``predicate(w: WinningHand) -> int``: how many times the fan occurs in
        the decomposed hand (0 = absent).  Exactly one of `predicate` and
        `combination` is given.
    combination : callable, optional
        ``combination(w) -> iterable of tuples of set indices``: every group of
        sets of ``w.sets`` that forms the pattern (一般高, 三同刻 …).  Which of
        those groups count is decided by the scoring engine with the
        套算一次 / 不得相同 principles.
    excludes : frozenset of int
        Ids of the fans not counted together with this one (不计).
    reduces : tuple of (int, int)
        Partial exclusions ``(fan id, how many fewer)``, e.g. 九莲宝灯 counts one
        幺九刻 less.
    forms : frozenset of str or None
        Winning forms in which the fan can occur; ``None`` means all.
    minimum : bool
        Whether the fan counts toward the ruleset's minimum (False for flowers).
    fallback : bool
        Counted once when no other fan counting toward the minimum is present
        (无番和); its predicate is then ignored.
    aliases : tuple of str
        Other names the fan goes by (e.g. Botzone's ``"嵌张"`` for 坎张).
    tags : frozenset of str
        Free labels read by win constraints, e.g. ``"big"`` (a 大胡 that may use any
        pair in 长沙/武汉, or a pattern that allows a win on a discard).
    source : str
        Where the rule comes from.
    """

    id: int
    chinese: str
    english: str
    value: int
    predicate: Callable[[Any], int] | None = None
    combination: Callable[[Any], Iterable[tuple[int, ...]]] | None = None
    excludes: frozenset = frozenset()
    reduces: tuple = ()
    forms: frozenset | None = None
    minimum: bool = True
    fallback: bool = False
    aliases: tuple = ()
    source: str = ""
    tags: frozenset = frozenset()

    def __post_init__(self) -> None:
        object.__setattr__(self, "tags", frozenset(self.tags))
        check_int(self.id, "fan id", lo=1)
        if (self.predicate is None) == (self.combination is None):
            raise RuleError(f"fan {self.id} {self.chinese}: give exactly one of predicate "
                            "and combination")
        object.__setattr__(self, "excludes", frozenset(self.excludes))
        object.__setattr__(self, "reduces", tuple(tuple(r) for r in self.reduces))
        if self.forms is not None:
            forms = frozenset(self.forms)
            bad = forms - set(FORM_NAMES)
            if bad:
                raise RuleError(f"fan {self.id} {self.chinese}: unknown forms {sorted(bad)}")
            object.__setattr__(self, "forms", forms)
        object.__setattr__(self, "aliases", tuple(self.aliases))

    def __str__(self) -> str:
        return f"{self.id} {self.chinese} {self.english} ({self.value})"


def _mapping(x: Mapping | None) -> Mapping:
    return MappingProxyType(dict(x or {}))


@dataclass(frozen=True)
class Ruleset:
    """A complete variant: tiles, players, calls, forms, minimum, fans, settlement.

    Parameters
    ----------
    name : str
        Registry key, e.g. ``"mcr"``.
    title : str
        Human name, e.g. ``"Chinese Official (国标麻将)"``.
    players : int
        3 or 4.
    hand_size : int
        13 or 16 (the dealer starts with one more).
    calls : tuple of str
        Allowed claims: ``"chow_left"`` (chow from the player on the left only),
        ``"pung"``, ``"exposed_kong"``, ``"added_kong"``, ``"concealed_kong"``.
    forms : tuple of str
        Winning forms, names from :data:`FORM_NAMES`.
    seven_pairs_quads : bool
        Whether four of a kind counts as two pairs in seven pairs.
    min_fan : int
        Minimum fan to win (起和分).
    flowers_count_toward_minimum : bool
    fans : tuple of Fan
        The fan table; ids unique.
    settlement : callable
        ``settlement(total, winner, discarder, **settlement_params) -> tuple`` of
        per-seat score changes (``discarder`` None on a self-draw).
    settlement_params : mapping
        Keyword arguments for `settlement` (e.g. ``{"base": 8}``).
    source : str
        Where the rules come from (documents, sections).

    Regional fields (all optional; the defaults describe Chinese Official rules):

    tile_set : str
        Key of :data:`TILE_SETS` (``"144"``, ``"136"``, ``"108"``, ``"112"``, ``"84"`` …);
        gives :attr:`copies`, the playable copies of each of the 34 kinds, and the
        derived :attr:`tiles` (description), :attr:`n_tiles` and :attr:`flowers`.
    tiles_note : str
        A remark added to the tile set's description in :attr:`tiles` (西安
        ``"17 stacks of 2 per player"``); "" for none.
    constraints : tuple of str
        Names of win constraints in :data:`majiang.rules.constraints.CONSTRAINTS`
        (``"void_suit"`` 缺一门, ``"pair_258"`` 二五八将, ``"must_open"`` 开门,
        ``"terminal"`` 幺九, ``"self_draw_only"`` …).  A hand that breaks one does not win.
    ready : {"none", "optional", "required"}
        Ready declaration (报听).
    jokers : JokerRule or None
    wall_end : WallEnd
    winners : {"head_bump", "multiple", "single"}
    blood : {"", "xuezhan", "xueliu"}
        四川 style: play on after a win until three have won (血战到底) or to the
        last tile, winners staying in (血流成河).
    scoring : ScoringRule
    options : mapping
        The values of the ruleset's build options (e.g. ``{"long_seven_pairs": 16}``);
        :func:`majiang.rules.load` rebuilds a ruleset from them.
    builder : str
        Name of the registered builder that made this ruleset from `options`.
    status : {"complete", "partial"}
        ``"partial"``: the documents leave facts out (:attr:`missing`).
    missing : tuple of str
    section : str
        Section of RULESETS.md (``"§3.10"``).

    Table rules the game engine plays (defaults: none):

    pass_lock : {"", "kind", "all"}
        过水 / 漏和 after a passed win (:data:`PASS_LOCKS`).
    end_checks : tuple of str
        Settlements at a drawn end, names from :data:`END_CHECKS`.
    exchange : int
        换三张: tiles of one suit each player passes after the deal (0 = none, 3).
    kong_payments : KongPayments or None
        Kong payments outside the hand value.
    end_settlement : str
        Name of an end-of-hand settlement in :data:`END_SETTLEMENTS` ("" = none), paid
        from the final table (:class:`EndTable`) after a win or a drawn end.

    Raises
    ------
    RuleError
        An unknown name in any field, a bad count, or a fan value out of bounds (below
        0, above :data:`FAN_VALUE_MAX`, or above :data:`FAN_DOUBLINGS_MAX` in a doubling
        table).
    """

    name: str
    title: str
    players: int
    hand_size: int
    calls: tuple
    forms: tuple
    seven_pairs_quads: bool
    min_fan: int
    flowers_count_toward_minimum: bool
    fans: tuple
    settlement: Callable[..., tuple]
    settlement_params: Mapping = field(default_factory=dict)
    source: str = ""
    tile_set: str = "144"
    constraints: tuple = ()
    ready: str = "optional"
    jokers: JokerRule | None = None
    wall_end: WallEnd = WallEnd()
    winners: str = "head_bump"
    blood: str = ""
    scoring: ScoringRule = ScoringRule()
    options: Mapping = field(default_factory=dict)
    builder: str = ""
    status: str = "complete"
    missing: tuple = ()
    section: str = ""
    pass_lock: str = ""
    end_checks: tuple = ()
    exchange: int = 0
    kong_payments: KongPayments | None = None
    end_settlement: str = ""
    tiles_note: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "calls", tuple(self.calls))
        object.__setattr__(self, "constraints", tuple(self.constraints))
        object.__setattr__(self, "missing", tuple(self.missing))
        object.__setattr__(self, "options", _mapping(self.options))
        object.__setattr__(self, "end_checks", tuple(self.end_checks))
        if self.pass_lock not in PASS_LOCKS:
            raise RuleError(f"ruleset {self.name}: pass_lock must be one of {PASS_LOCKS}, "
                            f"got {self.pass_lock!r}")
        bad = [c for c in self.end_checks if c not in END_CHECKS]
        if bad:
            raise RuleError(f"ruleset {self.name}: unknown end checks {bad}; known: "
                            f"{', '.join(END_CHECKS)}")
        check_choice(self.exchange, f"ruleset {self.name}: exchange", (0, 3))
        check_int(self.min_fan, f"ruleset {self.name}: min_fan", lo=0)
        check_bool(self.seven_pairs_quads, f"ruleset {self.name}: seven_pairs_quads")
        check_bool(self.flowers_count_toward_minimum,
                   f"ruleset {self.name}: flowers_count_toward_minimum")
        if not isinstance(self.end_settlement, str):
            raise RuleError(f"ruleset {self.name}: end_settlement must be a name, got "
                            f"{self.end_settlement!r}")
        if self.kong_payments is not None and not isinstance(self.kong_payments, KongPayments):
            raise RuleError(f"ruleset {self.name}: kong_payments must be a KongPayments")
        if self.end_settlement and self.end_settlement not in END_SETTLEMENTS:
            raise RuleError(f"ruleset {self.name}: unknown end settlement "
                            f"{self.end_settlement!r}; known: "
                            f"{', '.join(sorted(END_SETTLEMENTS)) or 'none'}")
        tile_copies(self.tile_set)
        bad = set(self.calls) - set(CALLS)
        if bad:
            raise RuleError(f"ruleset {self.name}: unknown calls {sorted(bad)}; known: "
                            f"{', '.join(CALLS)}")
        if self.ready not in READY:
            raise RuleError(f"ruleset {self.name}: ready must be one of {READY}, "
                            f"got {self.ready!r}")
        if self.winners not in WINNERS:
            raise RuleError(f"ruleset {self.name}: winners must be one of {WINNERS}, "
                            f"got {self.winners!r}")
        if self.blood not in ("", "xuezhan", "xueliu"):
            raise RuleError(f"ruleset {self.name}: blood must be '', xuezhan or xueliu, "
                            f"got {self.blood!r}")
        if self.status not in ("complete", "partial"):
            raise RuleError(f"ruleset {self.name}: status must be complete or partial")
        if self.constraints:
            unknown = [c for c in self.constraints if c not in CONSTRAINTS]
            if unknown:
                raise RuleError(f"ruleset {self.name}: unknown constraints {unknown}; known: "
                                f"{', '.join(sorted(CONSTRAINTS))}")
        object.__setattr__(self, "forms", tuple(self.forms))
        bad = set(self.forms) - set(FORM_NAMES)
        if bad:
            raise RuleError(f"ruleset {self.name}: unknown winning forms {sorted(bad)}")
        if self.players not in (3, 4):
            raise RuleError(f"ruleset {self.name}: players must be 3 or 4, got {self.players}")
        if self.hand_size % 3 != 1:
            raise RuleError(f"ruleset {self.name}: hand_size {self.hand_size} is not 3n+1")
        fans = tuple(sorted(self.fans, key=lambda f: f.id))
        top = FAN_DOUBLINGS_MAX if self.scoring.mode == "double" else FAN_VALUE_MAX
        for f in fans:
            check_int(f.value, f"ruleset {self.name}: value of fan {f.id} {f.chinese}",
                      lo=0, hi=top)
        ids = [f.id for f in fans]
        if len(set(ids)) != len(ids):
            raise RuleError(f"ruleset {self.name}: duplicate fan ids")
        known = set(ids)
        for f in fans:
            missing = (set(f.excludes) | {i for i, _ in f.reduces}) - known
            if missing:
                raise RuleError(f"ruleset {self.name}: fan {f.id} {f.chinese} excludes unknown "
                                f"fan ids {sorted(missing)}")
        object.__setattr__(self, "fans", fans)
        object.__setattr__(self, "settlement_params", _mapping(self.settlement_params))
        index: dict = {}
        for f in fans:
            for key in (f.id, f.chinese, f.english, f.english.lower(), *f.aliases):
                index.setdefault(key, f)
        object.__setattr__(self, "_index", index)

    def fan(self, key: int | str) -> Fan:
        """The fan with this id, Chinese or English name, or alias.

        Raises
        ------
        RuleError
            When no fan matches.
        """
        index = self._index  # type: ignore[attr-defined]
        f = index.get(key)
        if f is None and isinstance(key, str):
            f = index.get(key.lower())
        if f is None:
            raise RuleError(f"ruleset {self.name} has no fan {key!r}")
        return f

    def settle(self, total: int, winner: int, discarder: int | None = None) -> tuple:
        """Per-seat score changes for a win worth `total` fan (see `settlement`).

        Raises
        ------
        RuleError
            For seats outside ``0..players-1`` or ``discarder == winner``.
        """
        n = self.players
        if not 0 <= winner < n:
            raise RuleError(f"winner seat must be 0..{n - 1}, got {winner!r}")
        if discarder is not None and (not 0 <= discarder < n or discarder == winner):
            raise RuleError(f"discarder seat must be 0..{n - 1} and not the winner, "
                            f"got {discarder!r}")
        return self.settlement(self.points(total), winner, discarder, players=n,
                               **self.settlement_params)

    # -- facts of the tile set (derived, never stored twice) ----------------
    @property
    def tiles(self) -> str:
        """Description of the tile set (:data:`TILE_SETS`), with :attr:`tiles_note`."""
        text = TILE_SETS[self.tile_set][2]
        return f"{text}; {self.tiles_note}" if self.tiles_note else text

    @property
    def n_tiles(self) -> int:
        """Physical tiles in the set, flowers included (136, 144, 108 …)."""
        return sum(self.copies) + self.n_flowers

    @property
    def flowers(self) -> int:
        """Flower tiles in the set (non-playing tiles; the same as :attr:`n_flowers`)."""
        return self.n_flowers

    # -- regional helpers --------------------------------------------------
    @property
    def copies(self) -> tuple:
        """Playable copies of each of the 34 kinds (0 for kinds not in the set)."""
        return tile_copies(self.tile_set)

    @property
    def kinds(self) -> tuple:
        """The playable kinds of the tile set."""
        return tuple(k for k, c in enumerate(self.copies) if c)

    @property
    def n_flowers(self) -> int:
        """Non-playing tiles (flowers, or honors used as flowers)."""
        return TILE_SETS[self.tile_set][1]

    @property
    def extended(self) -> bool:
        """Whether hands need the Python layer (:mod:`majiang.rules.shapes`,
        :mod:`majiang.scoring.regional`): jokers, shape constraints, extra forms, a
        reduced tile set or a non-additive scoring rule."""
        return (self.jokers is not None or bool(self.constraints)
                or any(f in EXTRA_FORMS for f in self.forms)
                or self.scoring != ScoringRule() or self.tile_set not in ("136", "144"))

    def joker_kind(self, indicator: Any = None) -> int:
        """The wild kind of this ruleset for a turned `indicator` (kind or tile name).

        Raises
        ------
        RuleError
            When the ruleset has no jokers, or needs an indicator and got none.
        """
        if self.jokers is None:
            raise RuleError(f"ruleset {self.name} has no jokers")
        return self.jokers.kind(indicator)

    def points(self, total: int, fan_ids: Iterable[int] = ()) -> int:
        """Points of a win worth `total` fan under :attr:`scoring`.

        Raises
        ------
        RuleError
            Custom scoring (it needs the fan counts), or a doubling win worth more than
            :data:`DOUBLINGS_MAX` doublings.
        """
        sc = self.scoring
        limit = bool(sc.limit & set(fan_ids))
        if sc.mode == "add":
            t = total if (sc.cap is None or limit) else min(total, sc.cap)
            return sc.base * t
        if sc.mode == "double":
            t = total if (sc.cap is None or limit) else min(total, sc.cap)
            return sc.base * doubling(t)
        raise RuleError(f"ruleset {self.name}: custom scoring needs the fan counts; "
                        "use majiang.score(...).points")

    def __str__(self) -> str:
        return (f"{self.title} [{self.name}]: {self.players} players, {self.hand_size}-tile "
                f"hands, {self.tiles}; forms {', '.join(self.forms)}; minimum {self.min_fan} "
                f"fan; {len(self.fans)} fans")

"""From counted fans to points to payments: :class:`ScoringRule` (how fan totals become
points: adding, doubling or a registered points function), the bounds on fan values and
doublings, and the settlements that turn a win's points into per-seat payments
(:data:`SETTLEMENTS`, :func:`settle_points`, :func:`settle_everyone`).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..errors import RuleError
from .checks import check_int

__all__ = ["ScoringRule", "UNITS", "POINTS_FUNCTIONS", "fan_product", "FAN_VALUE_MAX",
           "FAN_DOUBLINGS_MAX", "DOUBLINGS_MAX", "doubling", "SETTLEMENTS",
           "register_settlement", "settle_points", "settle_everyone"]


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


POINTS_FUNCTIONS: dict[str, Callable] = {}

UNITS = ("fan", "points", "tai")
"""The units of a fan table (:attr:`ScoringRule.unit`): 番 (``"fan"``), the points
themselves (``"points"``: amounts, convention P of docs/rules/README.md), or 台
(``"tai"``: 台湾's 台, added, each worth one stake unit on top of the 底)."""


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

    ``unit``: what the fan values and a win's total count, as the ruleset's sources name
    them (:data:`UNITS`): ``"fan"`` (番, the default: MCR, 四川, 广东 …), ``"points"``
    (the table's values are the points themselves, e.g. 武汉's 屁胡 5 / 大胡 15, which
    are no 番: its 3-番 minimum counts 番 another way) or ``"tai"`` (台湾 台).  In
    ``"custom"`` mode the total is the values added, no count in any unit
    (:attr:`total_unit` None, :meth:`total_text`).  Everything that prints or labels a
    win's total asks :meth:`total_text` / :attr:`total_label`.
    """

    mode: str = "add"
    base: int = 1
    cap: int | None = None
    limit: frozenset = frozenset()
    function: str = ""
    unit: str = "fan"

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
        if self.unit not in UNITS:
            raise RuleError(f"scoring unit must be one of {', '.join(UNITS)}, got "
                            f"{self.unit!r}")

    @property
    def total_unit(self) -> str | None:
        """The unit of a win's total (:data:`UNITS`), None in ``"custom"`` mode (the values
        added, which the points function reads: no count of fan or points)."""
        return None if self.mode == "custom" else self.unit

    @property
    def total_label(self) -> str:
        """A column or line label for a win's total: the unit (``"fan"``, ``"points"``,
        ``"tai"``), ``"value"`` in ``"custom"`` mode."""
        return self.total_unit or "value"

    def total_text(self, total) -> str:
        """A win's total in the ruleset's unit: ``"8 fan"``, ``"5 points"`` (one point:
        ``"1 point"``), ``"3 tai"``; in ``"custom"`` mode the bare number (the values
        added, which the points function reads: no count of fan or points)."""
        if self.mode == "custom":
            return str(total)
        if self.unit == "points":
            return f"{total} point{'' if total == 1 else 's'}"
        return f"{total} {self.unit}"

    def minimum_text(self, n: int) -> str:
        """A minimum total in the ruleset's unit: ``"the 8-fan minimum"``, ``"the 3-point
        minimum"``, ``"the 2-tai minimum"``; ``"the minimum total of 8"`` in ``"custom"``
        mode."""
        if self.mode == "custom":
            return f"the minimum total of {n}"
        return f"the {n}-{'point' if self.unit == 'points' else self.unit} minimum"


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
                  self_draw_bonus: int = 0, dealer_pays_extra: int = 0,
                  base: int = 0) -> tuple:
    """The usual regional settlement of a win worth `points`.

    On a discard the discarder alone pays (``discarder_pays_all``: the discarder
    also pays the two others' shares, 包三家); on a self-draw each other player pays
    (or, with ``self_draw_all_pay=False``, nobody: no self-draw premium).  When
    ``dealer`` is given, a payment between the dealer and another player adds
    ``dealer_extra``, and a payment the dealer makes adds ``dealer_pays_extra`` as well
    (台湾 莊家 and 連莊 / 拉莊 when the dealer pays: its own win counts them as fans);
    ``self_draw_bonus`` is added to each self-draw payment (四川 自摸加底), and ``base``
    to every payment, on a discard or a self-draw (台湾 底: the stake 底 + 台, paid on a
    win worth no 台 too).
    """
    out = [0] * players
    points += base

    def pay(frm: int, amount: int) -> None:
        if dealer is not None and frm == dealer:
            amount += dealer_pays_extra
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

"""Result types of fan scoring: :class:`FanCount` and :class:`FanResult`.

A :class:`FanResult` is immutable.  The reference engine (:mod:`.reference`)
builds every field at once; a result of the compiled kernel (:mod:`.kernel`)
holds the kernel's record and builds each field on first access through
:data:`_KERNEL_FIELDS`, which :mod:`.kernel` fills (this module imports no
engine).
"""
from __future__ import annotations

import html
from dataclasses import FrozenInstanceError, dataclass

from .. import rules as _rules
from ..errors import RuleError
from ..hand import Decomposition, Hand, format_hand
from ..tiles import tile_name
from ..winning import WinContext, WinningHand

__all__ = ["FanCount", "FanResult"]

_set = object.__setattr__
_new = object.__new__
_KERNEL_FIELDS: dict = {}
"""How each FanResult field is built from a kernel result (filled by :mod:`.kernel`)."""


@dataclass(frozen=True)
class FanCount:
    """One fan of a result: ``id``, names, ``value`` per occurrence and ``count``."""

    id: int
    chinese: str
    english: str
    value: int
    count: int

    @property
    def points(self) -> int:
        """``value * count``."""
        return self.value * self.count

    def __str__(self) -> str:
        times = f" x{self.count}" if self.count != 1 else ""
        return f"{self.chinese} {self.english} {self.value}{times}"


_MISSING = object()
_FIELDS = ("total", "fans", "form", "decomposition", "knitted", "win_set", "meets_minimum",
           "min_fan", "hand", "context", "ruleset", "winning_hand")


def _field(name: str, doc: str) -> property:
    def get(self):
        d = self._d
        v = d.get(name, _MISSING)
        if v is _MISSING:            # a kernel result: build the field on first access
            v = d[name] = _KERNEL_FIELDS[name](self)
        return v
    get.__name__ = name
    return property(get, doc=doc)


class FanResult:
    """The score of a winning hand.

    Immutable.  Results of the compiled kernel build their fields on first
    access (the fan list, decomposition and :class:`WinningHand` cost more than
    the scoring itself); the values are those of the reference engine.

    Attributes
    ----------
    total : int
        Fan points, flowers included.
    fans : tuple of FanCount
        The counted fans in id order.
    form : str
        Winning form of the chosen decomposition.
    decomposition : Decomposition
        The chosen reading of the concealed tiles, win tile included (for the
        knitted forms the knitted tiles are in :attr:`knitted`).
    knitted : tuple of int
        Knitted tiles (组合龙 / 全不靠 suited tiles), else empty.
    win_set : str
        Which set the win tile completed, e.g. ``"chow 123m (edge)"``, ``"pair"``.
    meets_minimum : bool
        Whether the fans that count toward the minimum (flowers excluded in
        Chinese Official rules) reach :attr:`min_fan`.
    min_fan : int
    hand : Hand
        The hand before the win.
    context : WinContext
        The win context as scored (和绝张 possibly implied by the hand).
    ruleset : str
        Name of the ruleset.
    winning_hand : WinningHand
        The decomposed hand the fans were read from.
    """

    __slots__ = ("_d",)

    def __init__(self, total: int, fans: tuple, form: str, decomposition: Decomposition,
                 knitted: tuple, win_set: str, meets_minimum: bool, min_fan: int, hand: Hand,
                 context: WinContext, ruleset: str, winning_hand: WinningHand) -> None:
        _set(self, "_d", {"total": total, "fans": fans, "form": form,
                          "decomposition": decomposition, "knitted": knitted,
                          "win_set": win_set, "meets_minimum": meets_minimum,
                          "min_fan": min_fan, "hand": hand, "context": context,
                          "ruleset": ruleset, "winning_hand": winning_hand})

    total = _field("total", "Fan points, flowers included.")
    fans = _field("fans", "The counted fans in id order (tuple of FanCount).")
    form = _field("form", "Winning form of the chosen decomposition.")
    decomposition = _field("decomposition", "The chosen reading of the concealed tiles.")
    knitted = _field("knitted", "Knitted tiles (组合龙 / 全不靠 suited tiles), else empty.")
    win_set = _field("win_set", "Which set the win tile completed, e.g. 'chow 123m (edge)'.")
    meets_minimum = _field("meets_minimum", "Whether the fans reach the ruleset's minimum.")
    min_fan = _field("min_fan", "The ruleset's minimum.")
    hand = _field("hand", "The hand before the win.")
    context = _field("context", "The win context as scored.")
    ruleset = _field("ruleset", "Name of the ruleset.")
    winning_hand = _field("winning_hand", "The decomposed hand the fans were read from.")

    def __setattr__(self, name, value):
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name):
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self):
        # every field built, subclass and its extra attributes kept
        return (_restore_result, (type(self), {f: getattr(self, f) for f in _FIELDS},
                                  dict(getattr(self, "__dict__", {}))))


    def __contains__(self, key) -> bool:
        return any(key in (f.id, f.chinese, f.english) for f in self.fans)

    def count(self, key: int | str) -> int:
        """How many times the fan with this id or name is counted (0 if absent)."""
        for f in self.fans:
            if key in (f.id, f.chinese, f.english):
                return f.count
        return 0

    @property
    def fan_counts(self) -> dict[int, int]:
        """``{fan id: count}``."""
        return {f.id: f.count for f in self.fans}

    def below_minimum(self) -> str:
        """Why the hand is no win under the ruleset's minimum ("" when it reaches it)."""
        if self.meets_minimum:
            return ""
        sc = self._rules_object().scoring
        return f"below {sc.minimum_text(self.min_fan)} of {self.ruleset}"

    def _rules_object(self):
        """The Ruleset this result was scored under: the object itself when scoring kept
        it (a non-default build or a house rule shares its name with the registered
        ruleset, so a lookup by name would settle with the wrong parameters), else the
        registered ruleset of that name (e.g. after unpickling)."""
        rs = self._d.get("_ruleset_obj")
        return rs if rs is not None else _rules.get(self.ruleset)

    def _check_settles(self) -> None:
        if not self.meets_minimum:
            raise RuleError(f"{format_hand(self.hand)} + {tile_name(self.context.win_tile)} "
                            f"is {self.below_minimum()}: not a win, so it settles nothing "
                            "(check meets_minimum first)")

    def settle(self, winner: int = 0, discarder: int | None = None, *,
               as_self_draw: bool = False) -> tuple:
        """Per-seat score changes under the ruleset's settlement (discarder None = self-draw;
        ``as_self_draw``: the win paid as a self-draw whatever its context, as a liability
        case that counts it so, :mod:`majiang.rules.liability`).

        Returns
        -------
        tuple of int
            One change per seat, summing to 0 (:meth:`majiang.rules.Ruleset.settle`;
            dealer terms between the dealer, the seat whose wind is East, and the others).

        Raises
        ------
        RuleError
            The hand is below the ruleset's minimum (:attr:`meets_minimum` is False):
            it is no win and settles nothing (Chinese Official rules: 8 fan, flowers
            excluded, docs/rules/mcr.md §2); a win on a discard without the discarder's
            seat; seats outside the table.
        """
        self._check_settles()
        rs = self._rules_object()
        if discarder is None and not (self.context.self_drawn or as_self_draw):
            raise RuleError("a win on a discard needs the discarder's seat")
        own = self.context.self_drawn or as_self_draw
        # the dealer's seat, from the winner's seat wind (East = the dealer)
        return rs.settle(self.total, winner, None if own else discarder,
                         dealer=winner - self.context.seat_wind,
                         kong_discard=self.context.kong_discard,
                         declared_ready=self.context.declared_ready,
                         discarder_ready=self.context.discarder_ready)

    def to_dict(self) -> dict:
        """Plain-Python view (JSON-serialisable)."""
        d = self.decomposition
        return {
            "ruleset": self.ruleset,
            "hand": format_hand(self.hand),
            "win_tile": tile_name(self.context.win_tile),
            "self_drawn": self.context.self_drawn,
            "last_copy": self.context.last_copy,
            "kong": self.context.kong,
            "last_tile": self.context.last_tile,
            "kong_discard": self.context.kong_discard,
            "declared_ready": self.context.declared_ready,
            "discarder_ready": self.context.discarder_ready,
            "flower_replacement": self.context.flower_replacement,
            "kong_claimed": self.context.kong_claimed,
            "seat_wind": "ESWN"[self.context.seat_wind],
            "prevalent_wind": "ESWN"[self.context.prevalent_wind],
            "flowers": self.context.flowers,
            "total": self.total,
            "meets_minimum": self.meets_minimum,
            "min_fan": self.min_fan,
            "form": self.form,
            "decomposition": str(d) if d is not None else "",
            "pair": tile_name(d.pair) if d is not None and d.pair is not None else None,
            "sets": [f"{k} {_set_text(k, t)}" for k, t in (d.sets if d is not None else ())],
            "knitted": [tile_name(t) for t in self.knitted],
            "win_set": self.win_set,
            "fans": [{"id": f.id, "chinese": f.chinese, "english": f.english,
                      "value": f.value, "count": f.count, "points": f.points}
                     for f in self.fans],
        }

    def __str__(self) -> str:
        lines = [f"{format_hand(self.hand)} + {tile_name(self.context.win_tile)}"
                 f" ({'self-drawn' if self.context.self_drawn else 'discard'})"
                 f"  form: {self.form}  win tile in: {self.win_set}"]
        w = max([len(f.chinese) * 2 + len(f.english) for f in self.fans] or [10])
        for f in self.fans:
            name = f"{f.chinese} {f.english}"
            pad = " " * max(1, w + 2 - (len(f.chinese) * 2 + len(f.english) + 1))
            times = f" x {f.count}" if f.count != 1 else ""
            lines.append(f"  {f.id:2d} {name}{pad}{f.value:3d}{times:5s} = {f.points:3d}")
        mark = "" if self.meets_minimum else \
            f"  ({self.below_minimum()}: not a win, no payment)"
        lines.append(f"  total {self._rules_object().scoring.total_text(self.total)}{mark}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        fans = ", ".join(f"{f.chinese}{'x' + str(f.count) if f.count > 1 else ''}"
                         for f in self.fans)
        return f"FanResult(total={self.total}, fans=[{fans}])"

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{f.id}</td><td>{html.escape(f.chinese)}</td>"
            f"<td>{html.escape(f.english)}</td><td style='text-align:right'>{f.value}</td>"
            f"<td style='text-align:right'>{f.count}</td>"
            f"<td style='text-align:right'>{f.points}</td></tr>" for f in self.fans)
        hand_html = self.hand._repr_html_()
        note = "" if self.meets_minimum else f" ({self.below_minimum()}: not a win)"
        return (f"<div class='majiang-fans'>{hand_html} + "
                f"<b>{html.escape(tile_name(self.context.win_tile))}</b>"
                f"<table><thead><tr><th>#</th><th>番种</th><th>Fan</th><th>value</th>"
                f"<th>count</th><th>points</th></tr></thead><tbody>{rows}</tbody>"
                f"<tfoot><tr><td colspan='5'><b>total</b>{html.escape(note)}</td>"
                f"<td style='text-align:right'><b>{self.total}</b></td></tr></tfoot>"
                f"</table><small>form: {html.escape(self.form)}; win tile in: "
                f"{html.escape(self.win_set)}</small></div>")


def _restore_result(cls, fields: dict, extra: dict):
    r = _new(cls)
    _set(r, "_d", fields)
    for k, v in extra.items():
        _set(r, k, v)
    return r


def _set_text(kind: str, t: int) -> str:
    name = tile_name(t)
    if kind == "chow":
        r = int(name[0])
        return f"{r}{r + 1}{r + 2}{name[1]}"
    return name[0] * (4 if kind == "kong" else 3) + name[1]


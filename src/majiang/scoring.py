"""Fan scoring of a winning hand: the best decomposition under a ruleset.

:func:`score` reads the hand *before* the winning tile (13 tile-equivalents,
melds counted 3 each), adds the win tile, enumerates every decomposition in the
ruleset's winning forms and every attribution of the win tile to a set, scores
each with the ruleset's fan table and keeps the highest total (就高不就低).

The exclusion principles of Chinese Official rules are applied by one mechanism,
driven by the fan table's data:

* **不重复 (no repeat)** — a fan implied by a counted fan is not counted: every
  :class:`~majiang.rules.Fan` lists the fans it excludes (``excludes``, the 不计
  column of RULESETS.md §2).  Fans are processed from the biggest (lowest id)
  down; a fan that is itself excluded excludes nothing (so 七对 excludes 不求人
  and 自摸 still counts).  ``reduces`` removes a given number of occurrences
  (九莲宝灯: one 幺九刻 fewer).
* **不拆移 / 不得相同 / 套算一次** for the patterns made of several sets (一般高,
  喜相逢, 连六, 老少副, 三同刻, 清龙 …, the fans with a ``combination``): the rule
  text reads "如果有尚未组合过的一副牌，只可同已组合过的相应的一副牌套算一次"
  (a set not yet combined may be combined once with one set already combined)
  and "凡已经合过某一番种的牌，不能再同其他一副牌组成相同的番种计分" (sets that
  formed a fan cannot form the same fan again with another set).  So a chosen
  group of combinations must admit an order in which each group shares at most
  one set with the sets combined before it, and no set is in two groups of the
  same fan.  Among the valid choices the highest total wins; ties go to more
  distinct fans, then to the bigger fans.  This also yields "three-set fan +
  at most one pair fan with the fourth set" and "no pair fan inside a three-set
  fan" without listing those exclusions.
* **就高不就低** — the decomposition and win-tile attribution with the highest
  total is kept; ties keep the first in the order special forms, then regular
  decompositions (core order), then attributions in set order.

Waits (边张 / 坎张 / 单钓将) need a single waiting kind (独听).  Waits are judged by
shape: a kind is a wait when one more copy completes the hand in any of the
ruleset's forms, even if no copy is left to draw (as the rules judge a wait
whose tiles are all discarded).  A 和绝张 flag is checked against the hand: it
is impossible when the hand holds a concealed copy of the win tile, and implied
when the player's own exposed melds show three copies.

Speed: for rulesets whose fan table is the Chinese Official one, :func:`score`
runs the compiled kernel :mod:`majiang._core.fans` (decompositions, attributions,
predicates and the exclusion principles in C, the fan values and 不计 lists read
from the ruleset's table) and returns a :class:`FanResult` whose fields are built
on first access; ``method="python"`` runs the reference engine described above,
which the kernel matches exactly (tests/test_scoring_kernel.py).
:func:`score_batch` scores numpy batches with the kernel without the GIL.

Errors: :class:`~majiang.errors.InvalidHandError` for a non-winning hand ("not
a winning hand"), a wrong tile count, a fifth copy, or a context that
contradicts the hand (杠上开花 without a kong, robbing a kong of a tile the hand
holds, 和绝张 while holding a copy); :class:`~majiang.errors.RuleError` for an
unknown ruleset or option; :class:`~majiang.errors.InvalidNotationError` for
unreadable tiles.
"""
from __future__ import annotations

import html
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import FrozenInstanceError, dataclass
from functools import lru_cache
from itertools import combinations, permutations
from typing import Any, NamedTuple

import numpy as np

from . import rules as _rules
from ._core import decompose as _decompose
from ._core import fans as _kfans
from .errors import InvalidHandError, MahjongError, RuleError
from .hand import Decomposition, Hand, as_hand, format_hand
from .rules.knitted import KNITTED_STRAIGHTS, honors_and_knitted, knitted_straight_decompositions
from .tiles import TERMINALS_AND_HONORS, parse_tile, tile_name
from .winning import SetView, WinContext, WinningHand

__all__ = ["score", "score_batch", "BatchScores", "FanResult", "FanCount", "waits", "evaluate",
           "candidates", "wind_index"]

_ORPHANS = tuple(TERMINALS_AND_HONORS)
_WIND_NAMES = {"e": 0, "east": 0, "东": 0, "s": 1, "south": 1, "南": 1,
               "w": 2, "west": 2, "西": 2, "n": 3, "north": 3, "北": 3}


def wind_index(x: Any, what: str = "wind") -> int:
    """Wind 0..3 (East South West North) from an int or a name (``"E"``, ``"south"``, ``"西"``).

    Raises
    ------
    RuleError
        For anything else.
    """
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool) and 0 <= x <= 3:
        return int(x)
    if isinstance(x, str) and x.strip().lower() in _WIND_NAMES:
        return _WIND_NAMES[x.strip().lower()]
    raise RuleError(f"{what} must be 0..3 or one of E S W N (东南西北), got {x!r}")


# =====================================================================
# result types
# =====================================================================

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

    def settle(self, winner: int = 0, discarder: int | None = None) -> tuple:
        """Per-seat score changes under the ruleset's settlement (discarder None = self-draw)."""
        rs = _rules.get(self.ruleset)
        if discarder is None and not self.context.self_drawn:
            raise RuleError("a win on a discard needs the discarder's seat")
        return rs.settle(self.total, winner, None if self.context.self_drawn else discarder)

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
        mark = "" if self.meets_minimum else f"  (below the {self.min_fan}-fan minimum)"
        lines.append(f"  total {self.total} fan{mark}")
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
        note = "" if self.meets_minimum else f" (below the {self.min_fan}-fan minimum)"
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


# =====================================================================
# compiled fan tables
# =====================================================================

class _Table:
    """Per-ruleset lookup tables for the evaluation loop."""

    def __init__(self, rs) -> None:
        self.rs = rs
        self.by_form: dict[str, list] = {}
        for form in rs.forms:
            self.by_form[form] = [f for f in rs.fans if f.forms is None or form in f.forms]
        self.fan = {f.id: f for f in rs.fans}
        self.excludes = {f.id: tuple(f.excludes) for f in rs.fans if f.excludes}
        self.reduces = {f.id: f.reduces for f in rs.fans if f.reduces}
        self.fallback = [f.id for f in rs.fans if f.fallback]
        self.minimum = {f.id for f in rs.fans if f.minimum and not f.fallback}
        self.value = {f.id: f.value for f in rs.fans}
        self.fan_counts: dict[int, FanCount] = {}   # shared FanCount per id * 256 + count


_TABLES: dict[int, tuple] = {}


def _table(rs) -> _Table:
    entry = _TABLES.get(id(rs))
    if entry is None or entry[0] is not rs:
        entry = _TABLES[id(rs)] = (rs, _Table(rs))
    return entry[1]


# =====================================================================
# combination choice (套算一次 / 不得相同)
# =====================================================================

def _valid_order(groups: list[tuple]) -> bool:
    for order in permutations(groups):
        used: set = set()
        ok = True
        for g in order:
            if sum(1 for i in g if i in used) > 1:
                ok = False
                break
            used.update(g)
        if ok:
            return True
    return False


def _choose(combos: list[tuple[int, int, tuple]]) -> dict[int, int]:
    """Best admissible subset of (fan id, value, set indices) groups -> {id: count}."""
    if len(combos) == 1:
        return {combos[0][0]: 1}
    best_key = None
    best: tuple = ()
    n = len(combos)
    for r in range(1, min(3, n) + 1):
        for sub in combinations(range(n), r):
            picked = [combos[i] for i in sub]
            # 不得相同: a set forms a given fan at most once
            clash = False
            for a, b in combinations(picked, 2):
                if a[0] == b[0] and set(a[2]) & set(b[2]):
                    clash = True
                    break
            if clash:
                continue
            if r > 1 and not _valid_order([p[2] for p in picked]):
                continue
            ids = sorted(p[0] for p in picked)
            key = (sum(p[1] for p in picked), len(set(ids)), [-i for i in ids])
            if best_key is None or key > best_key:
                best_key, best = key, picked
    out: dict[int, int] = {}
    for fid, _, _ in best:
        out[fid] = out.get(fid, 0) + 1
    return out


def evaluate(w: WinningHand, ruleset: Any = "mcr") -> dict[int, int]:
    """Fan counts ``{fan id: count}`` of one decomposed hand, exclusions applied.

    Parameters
    ----------
    w : WinningHand
    ruleset : str or Ruleset

    Returns
    -------
    dict
        Counted fans in id order (flowers included).
    """
    tb = _table(_rules.get(ruleset))
    counts: dict[int, int] = {}
    combos: list = []
    for f in tb.by_form.get(w.form, ()):
        if f.predicate is not None:
            n = f.predicate(w)
            if n:
                counts[f.id] = n
        else:
            for g in f.combination(w):
                combos.append((f.id, f.value, g))
    if combos:
        for fid, n in _choose(combos).items():
            counts[fid] = counts.get(fid, 0) + n
    # 不重复: biggest first; an excluded fan excludes nothing
    excl = tb.excludes
    for fid in sorted(counts):
        if fid in counts and fid in excl:
            for x in excl[fid]:
                counts.pop(x, None)
    for fid, red in tb.reduces.items():
        if fid in counts:
            for x, k in red:
                if x in counts:
                    left = counts[x] - k
                    if left > 0:
                        counts[x] = left
                    else:
                        del counts[x]
    if tb.fallback and not any(fid in tb.minimum for fid in counts):
        counts[tb.fallback[0]] = 1
    return {k: counts[k] for k in sorted(counts)}


def _total(tb: _Table, counts: dict[int, int]) -> int:
    v = tb.value
    return sum(v[k] * n for k, n in counts.items())


# =====================================================================
# waits (shape-based)
# =====================================================================

@lru_cache(maxsize=1 << 16)
def _group_ok(tup: tuple, honors: bool) -> bool:
    """Can a suit's (or the honors') counts be split into sets, plus one pair when
    their number is 3n+2?  Counts may exceed 4 (shape-based checks)."""
    n = sum(tup)
    if n == 0:
        return True
    if n % 3 == 1:
        return False
    return _split(tup, n % 3 == 2, honors)


def _split(tup: tuple, pair: bool, honors: bool) -> bool:
    i = 0
    while tup[i] == 0:
        i += 1
        if i == len(tup):
            return not pair
    c = list(tup)
    if c[i] >= 3:
        c[i] -= 3
        if _rest_ok(c, pair, honors):
            return True
        c[i] += 3
    if pair and c[i] >= 2:
        c[i] -= 2
        if _rest_ok(c, False, honors):
            return True
        c[i] += 2
    if not honors and i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        if _rest_ok(c, pair, honors):
            return True
    return False


def _rest_ok(c: list, pair: bool, honors: bool) -> bool:
    if not any(c):
        return not pair
    return _split(tuple(c), pair, honors)


_GROUPS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))


def _regular_complete(c: list, n_melds: int) -> bool:
    pairs = 0
    for lo, hi, honors in _GROUPS:
        tup = tuple(c[lo:hi])
        n = sum(tup)
        if n % 3 == 1:
            return False
        if n % 3 == 2:
            pairs += 1
            if pairs > 1:
                return False
        if not _group_ok(tup, honors):
            return False
    return pairs == 1 and sum(c) == 14 - 3 * n_melds


def _complete(c: list, n_melds: int, forms, quads: bool) -> bool:
    if "regular" in forms and _regular_complete(c, n_melds):
        return True
    if n_melds == 0 and sum(c) == 14:
        if "seven_pairs" in forms and all(x % 2 == 0 and (quads or x <= 2) for x in c):
            return True
        if "thirteen_orphans" in forms and all(c[t] for t in _ORPHANS) and \
                sum(c[t] for t in _ORPHANS) == 14:
            return True
        if "honors_and_knitted" in forms and honors_and_knitted(c, 0) is not None:
            return True
    if "knitted_straight" in forms and n_melds <= 1 and knitted_straight_decompositions(c, n_melds):
        return True
    return False


def _wait_candidates(c: list, forms) -> list[int]:
    cand = set()
    for t in range(34):
        if c[t]:
            cand.add(t)
            if t < 27:
                r = t % 9
                for d in (-2, -1, 1, 2):
                    if 0 <= r + d <= 8:
                        cand.add(t + d)
    special = [f for f in forms if f in ("thirteen_orphans", "honors_and_knitted",
                                          "knitted_straight")]
    if special:
        distinct = sum(1 for x in c if x)
        if distinct >= 11:
            cand.update(range(34))
        elif "knitted_straight" in special:
            for ks in KNITTED_STRAIGHTS:
                if sum(1 for t in ks if c[t]) >= 8:
                    cand.update(ks)
    return sorted(cand)


def _waits_counts(c: list, n_melds: int, forms, quads: bool) -> list[int]:
    out = []
    for t in _wait_candidates(c, forms):
        c[t] += 1
        if _complete(c, n_melds, forms, quads):
            out.append(t)
        c[t] -= 1
    return out


def waits(hand: Any, *, ruleset: Any = "mcr") -> list[str]:
    """The waiting tiles of a 13-tile hand, judged by shape.

    A kind is a wait when one more copy completes the hand in one of the
    ruleset's winning forms, whether or not a copy is left to draw (Chinese
    Official rules judge 独听 — 边张 / 坎张 / 单钓将 — by the hand's shape).

    Parameters
    ----------
    hand : str or Hand
        The hand before the win (13 tile-equivalents).
    ruleset : str or Ruleset

    Returns
    -------
    list of str
        Tile names in tile order (empty when the hand is not tenpai).

    Raises
    ------
    InvalidHandError, InvalidNotationError, RuleError
    """
    rs = _rules.get(ruleset)
    h = as_hand(hand, hand_size=rs.hand_size)
    if h.n_tiles != rs.hand_size:
        raise InvalidHandError(f"waits need a {rs.hand_size}-tile hand, got {h.n_tiles}")
    c = [int(x) for x in h.concealed]
    return [tile_name(t) for t in _waits_counts(c, len(h.melds), rs.forms, rs.seven_pairs_quads)]


# =====================================================================
# decompositions and attributions
# =====================================================================

_POSITION_ORDER = {"edge": 0, "closed": 1, "pair": 2, "open": 3, "pung": 4, "special": 5}


def _position(kind: str, tile: int, win: int) -> str:
    if kind == "chow":
        if win == tile + 1:
            return "closed"
        if (win == tile + 2 and tile % 9 == 0) or (win == tile and tile % 9 == 6):
            return "edge"
        return "open"
    return "pung"


def _meld_views(h: Hand) -> list[SetView]:
    return [SetView(m.kind, m.tile, m.concealed, True) for m in h.melds]


def _decompositions(rs, h: Hand, c: list, c_arr: np.ndarray):
    """Yield (form, decomposition, sets(concealed), pair, pairs, knitted)."""
    n_melds = len(h.melds)
    forms = rs.forms
    n = sum(c)
    if n_melds == 0 and n == 14:
        if "seven_pairs" in forms and all(x % 2 == 0 and (rs.seven_pairs_quads or x <= 2)
                                          for x in c):
            pairs = tuple(t for t in range(34) for _ in range(c[t] // 2))
            yield ("seven_pairs", Decomposition("seven_pairs", pairs=pairs), (), None, pairs, ())
        if "thirteen_orphans" in forms and all(c[t] for t in _ORPHANS) and \
                sum(c[t] for t in _ORPHANS) == 14:
            pair = next(t for t in _ORPHANS if c[t] == 2)
            yield ("thirteen_orphans", Decomposition("thirteen_orphans", pair=pair), (), pair,
                   (), ())
        if "honors_and_knitted" in forms:
            kn = honors_and_knitted(c, 0)
            if kn is not None:
                yield ("honors_and_knitted", Decomposition("honors_and_knitted"), (), None, (), kn)
    if "knitted_straight" in forms and n_melds <= 1 and sum(1 for x in c[:27] if x) >= 9:
        for ks, pair, sets in knitted_straight_decompositions(c, n_melds):
            yield ("knitted_straight", Decomposition("knitted_straight", pair=pair, sets=sets),
                   sets, pair, (), ks)
    if "regular" in forms:
        for pair, sets in _decompose.regular_decompositions(c_arr, (n - 2) // 3):
            yield ("regular", None, sets, pair, (), ())


def _all_counts(h: Hand) -> list[int]:
    """Concealed + meld tiles as a list of 34 ints (no numpy per-meld work)."""
    c = h.concealed.tolist()
    for m in h.melds:
        if m.kind == "chow":
            c[m.tile] += 1
            c[m.tile + 1] += 1
            c[m.tile + 2] += 1
        else:
            c[m.tile] += 4 if m.kind == "kong" else 3
    return c


def _prepare(hand, win_tile, self_drawn, last_copy, kong, last_tile, seat_wind,
             prevalent_wind, flowers, ruleset):
    rs = _rules.get(ruleset)
    h = as_hand(hand, hand_size=rs.hand_size)
    if h.n_tiles != rs.hand_size:
        raise InvalidHandError(
            f"score() takes the hand BEFORE the winning tile ({rs.hand_size} tiles counting "
            f"melds as 3), got {h.n_tiles}; pass the win tile separately")
    win = parse_tile(win_tile) if isinstance(win_tile, str) else win_tile
    if isinstance(win, (np.integer,)):
        win = int(win)
    if isinstance(flowers, bool) or not isinstance(flowers, (int, np.integer)):
        raise RuleError(f"flowers must be a count 0..{rs.flowers}, got {flowers!r}")
    flowers = int(flowers)
    if h.n_flowers and flowers and flowers != h.n_flowers:
        raise RuleError(f"flowers={flowers} contradicts the {h.n_flowers} flower(s) in the hand")
    flowers = flowers or h.n_flowers
    if flowers > rs.flowers:
        raise RuleError(f"{flowers} flowers: ruleset {rs.name} has {rs.flowers}")
    ctx = WinContext(win, bool(self_drawn), bool(last_copy), bool(kong), bool(last_tile),
                     wind_index(seat_wind, "seat_wind"),
                     wind_index(prevalent_wind, "prevalent_wind"), flowers)
    allc = _all_counts(h)
    if allc[win] >= 4:
        raise InvalidHandError(
            f"fifth copy of {tile_name(win)}: the hand already holds 4 (concealed + melds)")
    exposed_win = sum(m.tiles.count(win) for m in h.melds if not m.concealed)
    if ctx.kong and ctx.self_drawn and not any(m.kind == "kong" for m in h.melds):
        raise InvalidHandError("kong=True on a self-draw means 杠上开花 (win on a kong "
                               "replacement), but the hand has no kong")
    if ctx.kong and not ctx.self_drawn and allc[win]:
        raise InvalidHandError(
            f"kong=True on a discard means 抢杠和 (robbing an added kong of {tile_name(win)}), "
            f"but the hand holds {int(allc[win])} {tile_name(win)}; the other player's kong "
            "would need a fifth copy")
    if ctx.last_copy and h.concealed[win]:
        raise InvalidHandError(
            f"last_copy (和绝张) needs the other three {tile_name(win)} visible, but the hand "
            f"holds {int(h.concealed[win])} concealed")
    if exposed_win == 3 and not ctx.last_copy:
        # the player's own exposed melds show three copies: the win tile is the last one
        ctx = WinContext(win, ctx.self_drawn, True, ctx.kong, ctx.last_tile, ctx.seat_wind,
                         ctx.prevalent_wind, ctx.flowers)
    return rs, h, ctx


def candidates(hand: Any, win_tile: Any, *, self_drawn: bool = False, last_copy: bool = False,
               kong: bool = False, last_tile: bool = False, seat_wind: Any = 0,
               prevalent_wind: Any = 0, flowers: int = 0,
               ruleset: Any = "mcr") -> list[tuple[int, dict, WinningHand]]:
    """Every scored reading of a winning hand: ``(total, {fan id: count}, WinningHand)``.

    Same parameters and errors as :func:`score`; the list follows the tie order
    described in the module docstring.  Useful to inspect alternatives;
    :func:`score` returns the first with the highest total.
    """
    rs, h, ctx = _prepare(hand, win_tile, self_drawn, last_copy, kong, last_tile, seat_wind,
                          prevalent_wind, flowers, ruleset)
    return _candidates(rs, h, ctx)


def _candidates(rs, h: Hand, ctx: WinContext) -> list[tuple[int, dict, WinningHand]]:
    tb = _table(rs)
    win = ctx.win_tile
    c_arr = np.array(h.concealed, dtype=np.uint8)
    c_arr[win] += 1
    c = c_arr.tolist()
    allc = _all_counts(h)
    allc[win] += 1
    counts = tuple(allc)
    melds = _meld_views(h)
    n_melds = len(melds)
    cache: dict = {}
    uw: list = []          # lazily computed unique-wait flag

    def unique_wait() -> bool:
        if not uw:
            before = h.concealed.tolist()
            ws = _waits_counts(before, n_melds, rs.forms, rs.seven_pairs_quads)
            uw.append(len(ws) == 1)
        return uw[0]

    out = []
    for form, dec, csets, pair, pairs, knitted in _decompositions(rs, h, c, c_arr):
        if dec is None:
            dec = Decomposition(form, pair=pair, sets=csets)
        # attributions of the win tile
        attrs: list[tuple[int | None, str]] = []
        if form in ("regular", "knitted_straight"):
            seen = set()
            for i, (kind, t) in enumerate(csets):
                if (kind, t) in seen:
                    continue
                if (kind == "chow" and t <= win <= t + 2 and t // 9 == win // 9) or \
                        (kind == "pung" and t == win):
                    seen.add((kind, t))
                    attrs.append((n_melds + i, _position(kind, t, win)))
            if pair == win:
                attrs.append((-1, "pair"))
            if knitted and win in knitted:
                attrs.append((None, "special"))
            # equal totals keep the first: name a wait edge before closed before single
            attrs.sort(key=lambda a: _POSITION_ORDER[a[1]])
        else:
            attrs.append((None, "special"))
        for win_set, pos in attrs:
            sets = list(melds)
            for i, (kind, t) in enumerate(csets):
                concealed = not (n_melds + i == win_set and kind == "pung" and not ctx.self_drawn)
                sets.append(SetView(kind, t, concealed, False))
            u = unique_wait() if pos in ("edge", "closed", "pair") else False
            w = WinningHand(h, ctx, dec, form, tuple(sets), pair, pairs, knitted, counts,
                            win_set, pos, u, cache)
            fans = evaluate(w, rs)
            out.append((_total(tb, fans), fans, w))
    return out


def score(hand: Any, win_tile: Any, *, self_drawn: bool = False, last_copy: bool = False,
          kong: bool = False, last_tile: bool = False, seat_wind: Any = 0,
          prevalent_wind: Any = 0, flowers: int = 0, ruleset: Any = "mcr",
          method: str = "auto") -> FanResult:
    """Score a winning hand: the fans of its best decomposition.

    Parameters
    ----------
    hand : str or Hand
        The hand BEFORE the winning tile: 13 tile-equivalents (concealed tiles +
        3 per meld), e.g. ``"23m456p11z [555z] {6666m}"`` (see
        :func:`majiang.hand.parse_hand`).  Flowers in the hand count as `flowers`.
    win_tile : str or int
        The winning tile (``"7s"``, ``"七条"``, or a kind 0..33).
    self_drawn : bool
        Won on one's own draw (自摸); otherwise on a discard (or a robbed kong).
    last_copy : bool
        和绝张: the other three copies of the win tile are visible.  Implied when
        the player's own exposed melds show three copies.
    kong : bool
        杠上开花 with `self_drawn` (the hand must have a kong), 抢杠和 without.
    last_tile : bool
        The last tile of the wall: 妙手回春 (self-drawn) / 海底捞月 (discard).
    seat_wind, prevalent_wind : int or str
        0..3 or ``"E"``/``"S"``/``"W"``/``"N"`` (东南西北).
    flowers : int
        Flowers collected (花牌, 1 fan each; not counted toward the minimum).
    ruleset : str or Ruleset
        Default ``"mcr"`` (Chinese Official rules).
    method : {"auto", "kernel", "python"}
        ``"auto"`` (default) scores with the compiled kernel
        (:mod:`majiang._core.fans`) when the ruleset's fan table is the Chinese
        Official one, else with the Python engine; ``"python"`` forces the
        Python reference engine; ``"kernel"`` requires the kernel (RuleError
        for another fan table).  Both give the same result.

    Returns
    -------
    FanResult
        ``.total`` (fan points, flowers included), ``.fans``, ``.decomposition``,
        ``.meets_minimum``, ``.to_dict()``.

    Raises
    ------
    InvalidHandError
        "not a winning hand" when no decomposition exists; a wrong tile count, a
        fifth copy, or a context the hand contradicts (see the module docstring).
    InvalidNotationError
        For unreadable tiles.
    RuleError
        Unknown ruleset, bad wind or flower count.

    Examples
    --------
    >>> r = score("123m456p789s11z [555z] 45m", "6m")    # doctest: +SKIP
    """
    if method == "auto" or method == "kernel":
        # compiled kernel; any input it does not take (and every error) goes on to
        # the reference below, which raises the reference's error
        rs = _rules._REGISTRY.get("mcr") if ruleset == "mcr" else _ruleset_or_none(ruleset)
        if rs is _LAST_KT[0]:
            kt = _LAST_KT[1]
        else:
            kt = _kernel_table(rs) if rs is not None else None
            if kt is None and method == "kernel" and rs is not None:
                raise RuleError(f"method='kernel': the fan table of ruleset {rs.name} is not "
                                "the Chinese Official one")
        if kt is not None:
            h = hand if type(hand) is Hand else _hand_or_none(hand, rs)
            win = win_tile if type(win_tile) is int else _kind_or_none(win_tile)
            seat = seat_wind if type(seat_wind) is int else _wind_or_none(seat_wind)
            prev = prevalent_wind if type(prevalent_wind) is int else \
                _wind_or_none(prevalent_wind)
            k = _kfans.score_hand(kt, rs, h, win, self_drawn, last_copy, kong, last_tile,
                                  seat, prev, flowers)
            if k is not None:
                r = _new(FanResult)
                _set(r, "_d", {"_src": k})
                return r
    elif method != "python":
        raise RuleError(f"method must be 'auto', 'kernel' or 'python', got {method!r}")
    return _score_python(hand, win_tile, self_drawn, last_copy, kong, last_tile, seat_wind,
                         prevalent_wind, flowers, ruleset)


def _score_python(hand, win_tile, self_drawn, last_copy, kong, last_tile, seat_wind,
                  prevalent_wind, flowers, ruleset) -> FanResult:
    """The reference engine (every error of :func:`score` is raised here)."""
    rs_ = _rules.get(ruleset)
    if rs_.extended or (isinstance(hand, str) and "*" in hand) or getattr(hand, "jokers", 0):
        # regional rules (jokers, win constraints, extra forms, doubling): majiang.regional
        from .regional import score as _regional_score
        return _regional_score(hand, win_tile, self_drawn=self_drawn, last_copy=last_copy,
                               kong=kong, last_tile=last_tile, seat_wind=seat_wind,
                               prevalent_wind=prevalent_wind, flowers=flowers, ruleset=rs_)
    rs, h, ctx = _prepare(hand, win_tile, self_drawn, last_copy, kong, last_tile, seat_wind,
                          prevalent_wind, flowers, ruleset)
    cands = _candidates(rs, h, ctx)
    if not cands:
        raise InvalidHandError(
            f"not a winning hand: {format_hand(h)} + {tile_name(ctx.win_tile)} has no "
            f"decomposition in the forms of {rs.name} ({', '.join(rs.forms)})")
    best = cands[0]
    for cand in cands[1:]:
        if cand[0] > best[0]:
            best = cand
    return _result(rs, h, ctx, best)


def _result(rs, h: Hand, ctx: WinContext, best) -> FanResult:
    total, fans, w = best
    tb = _table(rs)
    fan_counts = tuple(FanCount(k, tb.fan[k].chinese, tb.fan[k].english, tb.fan[k].value, n)
                       for k, n in fans.items())
    if not rs.flowers_count_toward_minimum:
        counted = sum(tb.value[k] * n for k, n in fans.items() if tb.fan[k].minimum)
    else:
        counted = total
    return FanResult(total=total, fans=fan_counts, form=w.form, decomposition=w.decomposition,
                     knitted=tuple(w.knitted), win_set=_where(w),
                     meets_minimum=counted >= rs.min_fan, min_fan=rs.min_fan, hand=h,
                     context=ctx, ruleset=rs.name, winning_hand=w)


def _where(w: WinningHand) -> str:
    """Text of the set the win tile completed (:attr:`FanResult.win_set`)."""
    if w.win_set is None:
        return "knitted tiles" if w.knitted and w.form == "knitted_straight" else w.form
    if w.win_set == -1:
        return f"pair {tile_name(w.pair)}"
    s = w.sets[w.win_set]
    return f"{s.kind} {_set_text(s.kind, s.tile)} ({w.win_position})"


# =====================================================================
# compiled kernel (majiang._core.fans)
# =====================================================================

_set = object.__setattr__
_new = object.__new__
_KTABLES: dict[int, tuple] = {}


def _kernel_table(rs):
    """The kernel's FanTable for a ruleset, or None when the kernel cannot score it.

    The kernel implements the predicates and combinations of the Chinese
    Official fan table; it scores any ruleset of 13-tile hands whose fans are
    among those (same predicate, combination and forms per id).  Values, 不计
    lists, reductions, the fallback fan and the minimum flags are read from the
    ruleset's own table, so they stay single-sourced in :mod:`majiang.rules`.
    """
    entry = _KTABLES.get(id(rs))
    if entry is None or entry[0] is not rs:
        entry = _KTABLES[id(rs)] = (rs, _build_kernel_table(rs))
    if entry[1] is not None:
        _LAST_KT[0], _LAST_KT[1] = entry
    return entry[1]


def _build_kernel_table(rs):
    if rs.hand_size != 13 or getattr(rs, "extended", False):
        return None                # regional rules (jokers, constraints ...): majiang.regional
    ref = {f.id: f for f in _rules.MCR.fans}
    for f in rs.fans:
        g = ref.get(f.id)
        if g is None or f.predicate is not g.predicate or \
                f.combination is not g.combination or f.forms != g.forms:
            return None
    rows = [(f.id, f.value, None if f.forms is None else tuple(sorted(f.forms)),
             f.combination is not None, tuple(sorted(f.excludes)), tuple(f.reduces),
             bool(f.minimum), bool(f.fallback)) for f in rs.fans]
    return _kfans.FanTable(rows, tuple(rs.forms), bool(rs.seven_pairs_quads), rs.hand_size,
                           rs.flowers)


_LAST_KT: list = [None, None]     # (ruleset, table) of the last kernel ruleset


def _ruleset_or_none(ruleset):
    try:
        return _rules.get(ruleset)
    except MahjongError:
        return None


def _hand_or_none(hand, rs):
    try:
        return as_hand(hand, hand_size=rs.hand_size)
    except MahjongError:
        return None


_KIND_CACHE: dict = {}


def _kind_or_none(x):
    """Tile kind of a win tile given as a name or numpy int; None when not plain."""
    if isinstance(x, str):
        k = _KIND_CACHE.get(x)
        if k is None:
            try:
                k = parse_tile(x)
            except MahjongError:
                return None
            if len(_KIND_CACHE) < 4096:
                _KIND_CACHE[x] = k
        return k
    if isinstance(x, np.integer) and not isinstance(x, np.bool_):
        return int(x)
    return None


def _wind_or_none(x):
    try:
        return wind_index(x)
    except MahjongError:
        return None


def _src(r: FanResult):
    return r._d["_src"]


def _k_fans(r: FanResult) -> tuple:
    k = _src(r)
    tb = _table(k.ruleset)
    shared = tb.fan_counts          # FanCount is immutable: one object per (id, count)
    out = []
    for key in k.fan_keys:          # fan id * 256 + count
        fc = shared.get(key)
        if fc is None:
            f = tb.fan[key >> 8]
            fc = shared[key] = FanCount(f.id, f.chinese, f.english, f.value, key & 255)
        out.append(fc)
    return tuple(out)


def _k_meets_minimum(r: FanResult) -> bool:
    k = _src(r)
    rs = k.ruleset
    counted = k.total if rs.flowers_count_toward_minimum else k.total_min
    return counted >= rs.min_fan


def _k_decomposition(r: FanResult) -> Decomposition:
    k = _src(r)
    form = k.form
    if form == "seven_pairs":
        return Decomposition(form, pairs=k.pairs)
    if form == "thirteen_orphans":
        return Decomposition(form, pair=k.pair)
    if form == "honors_and_knitted":
        return Decomposition(form)
    return Decomposition(form, pair=k.pair, sets=k.concealed_sets)


def _k_context(r: FanResult) -> WinContext:
    k = _src(r)
    return WinContext(k.win, k.self_drawn, k.last_copy, k.kong, k.last_tile, k.seat_wind,
                      k.prevalent_wind, k.flowers)


def _k_winning_hand(r: FanResult) -> WinningHand:
    k = _src(r)
    h = k.hand
    sets = _meld_views(h)
    conc = k.set_concealed
    n_melds = len(h.melds)
    for i, (kind, t) in enumerate(k.concealed_sets):
        sets.append(SetView(kind, t, conc[n_melds + i], False))
    counts = _all_counts(h)
    counts[k.win] += 1
    return WinningHand(h, r.context, r.decomposition, k.form, tuple(sets), k.pair, k.pairs,
                       k.knitted, tuple(counts), k.win_set, k.win_position, k.unique_wait, {})


_KERNEL_FIELDS = {
    "total": lambda r: _src(r).total,
    "fans": _k_fans,
    "form": lambda r: _src(r).form,
    "decomposition": _k_decomposition,
    "knitted": lambda r: _src(r).knitted,
    "win_set": lambda r: _where(r.winning_hand),
    "meets_minimum": _k_meets_minimum,
    "min_fan": lambda r: _src(r).ruleset.min_fan,
    "hand": lambda r: _src(r).hand,
    "context": _k_context,
    "ruleset": lambda r: _src(r).ruleset.name,
    "winning_hand": _k_winning_hand,
}
"""How each FanResult field is built from a kernel result (on first access)."""


# =====================================================================
# batches
# =====================================================================

class BatchScores(NamedTuple):
    """Scores of a batch of hands (:func:`score_batch`); row i is hand i.

    ``fans[i, f]`` is the count of fan id ``f`` (column 0 unused); ``status`` is
    0 for a scored hand, 1 when the context contradicts the hand (wrong size, fifth
    copy, 杠上开花 without a kong, robbing a held kind, 和绝张 holding a copy) and 2
    for a hand that does not win; rows with a non-zero status are all zero.
    """

    total: np.ndarray          # (N,) int32, flowers included
    fans: np.ndarray           # (N, 82) uint8, indexed by fan id
    meets_minimum: np.ndarray  # (N,) bool
    status: np.ndarray         # (N,) int8


_MELD_CODES = {"chow": 0, "pung": 1, "kong": 2}


def _column(x, n: int, name: str, lo: int, hi: int) -> np.ndarray:
    a = np.asarray(x)
    if a.dtype == np.bool_:
        a = a.astype(np.int64)
    if a.ndim == 0:
        a = np.full(n, a)
    if a.shape != (n,) or not np.issubdtype(a.dtype, np.integer):
        raise RuleError(f"{name} must be an int or an integer array of shape ({n},), "
                        f"got {np.asarray(x).dtype} {np.shape(x)}")
    if n and (a.min() < lo or a.max() > hi):
        raise RuleError(f"{name} must be in {lo}..{hi}")
    return a.astype(np.uint8)


def melds_array(hands) -> np.ndarray:
    """The ``(N, 4, 3)`` int8 meld array of :func:`score_batch` from Hands: rows
    ``(kind, tile, concealed)`` with kind 0 chow, 1 pung, 2 kong, -1 for no meld."""
    out = np.full((len(hands), 4, 3), -1, dtype=np.int8)
    for i, h in enumerate(hands):
        for j, m in enumerate(h.melds):
            out[i, j] = (_MELD_CODES[m.kind], m.tile, m.concealed)
    return out


def score_batch(concealed: Any, win_tiles: Any, melds: Any = None, *, self_drawn: Any = False,
                last_copy: Any = False, kong: Any = False, last_tile: Any = False,
                seat_wind: Any = 0, prevalent_wind: Any = 0, flowers: Any = 0,
                ruleset: Any = "mcr", n_jobs: int | None = None) -> BatchScores:
    """Score many winning hands at once with the compiled kernel (no GIL held).

    The fan counts equal those of :func:`score` hand by hand; invalid hands get a
    status instead of an exception.

    Parameters
    ----------
    concealed : array_like, shape (N, 34)
        Concealed tiles of each hand BEFORE the win (counts 0..4).
    win_tiles : array_like of int, shape (N,)
        Win tile kinds 0..33.
    melds : array_like, shape (N, 4, 3), optional
        Declared melds as rows ``(kind, tile, concealed)``: kind 0 chow (tile = its
        lowest), 1 pung, 2 kong; ``concealed`` 1 only for a concealed kong; rows of
        -1 after the last meld (see :func:`melds_array`).  None: no melds.
    self_drawn, last_copy, kong, last_tile : bool or array of bool, shape (N,)
    seat_wind, prevalent_wind : int or array of int (0..3)
    flowers : int or array of int (0..8)
    ruleset : str or Ruleset
        A ruleset whose fan table the kernel implements (Chinese Official).
    n_jobs : int, optional
        Threads scoring slices of the batch in parallel (the kernel holds no GIL);
        default: every local core for batches of 4096 hands or more, else 1.

    Returns
    -------
    BatchScores
        ``total``, ``fans`` (N, 82), ``meets_minimum``, ``status``.

    Raises
    ------
    RuleError
        A ruleset the kernel cannot score, or a context array of the wrong shape or range.
    InvalidHandError
        Malformed tiles or melds (shape, counts above 4, an impossible chow, a
        concealed meld that is not a kong).
    """
    rs = _rules.get(ruleset)
    kt = _kernel_table(rs)
    if kt is None:
        raise RuleError(f"score_batch needs the Chinese Official fan table; ruleset {rs.name} "
                        "has another (use score() hand by hand)")
    c = np.asarray(concealed)
    if c.ndim != 2 or c.shape[1] != 34 or not (np.issubdtype(c.dtype, np.integer)
                                                 or c.dtype == np.bool_):
        raise InvalidHandError(f"concealed must be an integer array of shape (N, 34), got "
                               f"{c.dtype} {c.shape}")
    n = c.shape[0]
    if n and (c.min() < 0 or c.max() > 4):
        raise InvalidHandError("concealed counts must be 0..4")
    c = np.ascontiguousarray(c, dtype=np.uint8)
    if melds is None:
        m = np.full((n, 4, 3), -1, dtype=np.int8)
    else:
        m = np.asarray(melds)
        if m.shape != (n, 4, 3) or not np.issubdtype(m.dtype, np.integer):
            raise InvalidHandError(f"melds must be an integer array of shape ({n}, 4, 3), "
                                   f"got {m.dtype} {m.shape}")
        m = np.ascontiguousarray(m, dtype=np.int8)
        kind, tile, conc = m[..., 0], m[..., 1], m[..., 2]
        present = kind >= 0
        after = np.cumsum(~present, axis=1) > 0
        if np.any(present & after):
            raise InvalidHandError("melds must come first in each row (kind -1 after the last)")
        if np.any(kind > 2) or np.any(present & ((tile < 0) | (tile > 33))):
            raise InvalidHandError("meld kinds must be 0 chow, 1 pung, 2 kong and tiles 0..33")
        if np.any(present & (kind == 0) & ((tile > 26) | (tile % 9 > 6))):
            raise InvalidHandError("a chow starts on a suited tile of rank 1..7")
        if np.any(present & ((conc < 0) | (conc > 1) | ((conc == 1) & (kind != 2)))):
            raise InvalidHandError("only a kong can be concealed (flag 0 or 1)")
        allc = c.astype(np.int64)
        rows = np.nonzero(present)
        t = tile[rows].astype(np.int64)
        k = kind[rows]
        for off in range(3):
            sel = k == 0
            np.add.at(allc, (rows[0][sel], t[sel] + off), 1)
        sel = k > 0
        np.add.at(allc, (rows[0][sel], t[sel]), np.where(k[sel] == 2, 4, 3))
        if n and allc.max() > 4:
            raise InvalidHandError("more than 4 copies of a kind (concealed + melds)")
    ctx = np.zeros((n, 9), dtype=np.uint8)
    ctx[:, 0] = _column(win_tiles, n, "win_tiles", 0, 33)
    ctx[:, 1] = _column(self_drawn, n, "self_drawn", 0, 1)
    ctx[:, 2] = _column(last_copy, n, "last_copy", 0, 1)
    ctx[:, 3] = _column(kong, n, "kong", 0, 1)
    ctx[:, 4] = _column(last_tile, n, "last_tile", 0, 1)
    ctx[:, 5] = _column(seat_wind, n, "seat_wind", 0, 3)
    ctx[:, 6] = _column(prevalent_wind, n, "prevalent_wind", 0, 3)
    ctx[:, 7] = _column(flowers, n, "flowers", 0, rs.flowers)
    fans = np.empty((n, 82), dtype=np.uint8)
    total = np.empty(n, dtype=np.int32)
    total_min = np.empty(n, dtype=np.int32)
    status = np.empty(n, dtype=np.int8)
    if n_jobs is None:
        n_jobs = (os.cpu_count() or 1) if n >= 4096 else 1
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs < 1:
        raise RuleError(f"n_jobs must be a positive int, got {n_jobs!r}")
    n_jobs = int(min(n_jobs, max(1, n // 256)))
    if n_jobs == 1:
        _kfans.score_batch(kt, c, m, ctx, fans, total, total_min, status)
    else:
        bounds = np.linspace(0, n, n_jobs + 1).astype(int)
        with ThreadPoolExecutor(n_jobs) as pool:
            jobs = [pool.submit(_kfans.score_batch, kt, c[a:b], m[a:b], ctx[a:b], fans[a:b],
                                total[a:b], total_min[a:b], status[a:b])
                    for a, b in zip(bounds[:-1], bounds[1:])]
            for j in jobs:
                j.result()
    counted = total if rs.flowers_count_toward_minimum else total_min
    return BatchScores(total, fans, (counted >= rs.min_fan) & (status == 0), status)

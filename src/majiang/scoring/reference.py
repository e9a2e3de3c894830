"""The Python reference engine: decompositions, win-tile attributions, fan tables
and the exclusion principles (see :mod:`majiang.scoring` for the rules applied).

The compiled kernel (:mod:`.kernel`) matches it exactly
(tests/test_scoring_kernel.py); regional rules (:mod:`.regional`) build on it.
"""
from __future__ import annotations

import dataclasses
from itertools import combinations, permutations
from typing import Any

import numpy as np

from .. import rules as _rules
from .._core import decompose as _decompose
from ..errors import InvalidHandError, RuleError
from ..hand import Decomposition, Hand, _trusted_decomposition, as_hand, chow_tiles, format_hand
from ..rules.model import game_model
from ..rules.knitted import honors_and_knitted, knitted_straight_decompositions
from ..rules.shapes.forms import eight_pairs_complete
from ..tiles import TERMINALS_AND_HONORS as _ORPHANS
from ..tiles import parse_tile, tile_name
from ..winning import SetView, WinContext, WinningHand
from .results import FanCount, FanResult, _set_text
from .waiting import _waits_counts

__all__ = ["evaluate", "candidates", "wind_index"]

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
        #: per form: ``(id, predicate, combination)`` of its fans, in table order
        self.steps = {form: tuple((f.id, f.predicate, f.combination) for f in fans)
                      for form, fans in self.by_form.items()}


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
    for fid, predicate, combination in tb.steps.get(w.form, ()):
        if predicate is not None:
            n = predicate(w)
            if n:
                counts[fid] = n
        else:
            for g in combination(w):
                combos.append((fid, tb.value[fid], g))
    if combos:
        for fid, n in _choose(combos).items():
            counts[fid] = counts.get(fid, 0) + n
    if counts:
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
    if len(counts) < 2:         # already in id order
        return counts
    return {k: counts[k] for k in sorted(counts)}


def _total(tb: _Table, counts: dict[int, int]) -> int:
    v = tb.value
    return sum(v[k] * n for k, n in counts.items())

# =====================================================================
# decompositions and attributions
# =====================================================================

_POSITION_ORDER = {"edge": 0, "closed": 1, "pair": 2, "open": 3, "pung": 4, "special": 5}


def _position(kind: str, tile: int, win: int) -> str:
    if kind == "chow":
        if tile >= 27:      # an honour chow: two held winds wait on either other wind
            return "closed" if tile == 31 else "open"
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
    if n_melds == 0 and "eight_pairs" in forms and eight_pairs_complete(c):
        # 温州 八对: eight pairs (a four counts as two) and one more tile, 17 concealed
        pairs = tuple(t for t in range(34) for _ in range(c[t] // 2))
        yield ("eight_pairs", Decomposition("eight_pairs", pairs=pairs), (), None, pairs, ())
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
        for pair, sets in _decompose.regular_decompositions(c_arr, (n - 2) // 3,
                                                            game_model(rs).honor_chows):
            yield ("regular", None, sets, pair, (), ())


def _all_counts(h: Hand) -> list[int]:
    """Concealed + meld tiles as a list of 34 ints (no numpy per-meld work)."""
    c = h.concealed.tolist()
    for m in h.melds:
        if m.kind == "chow":
            for t in m.tiles:
                c[t] += 1
        else:
            c[m.tile] += 4 if m.kind == "kong" else 3
    return c


def flower_count(flowers: Any, h: Hand, rs) -> int:
    """The flowers a win scores: the ``flowers`` count given, or the flower tiles written
    in the hand (``1f``) when none is given; both must agree.  One rule for the reference
    and the regional engines (MCR 花牌: 1 fan per flower, however it is given).

    Raises
    ------
    RuleError
        Not a count; a count that contradicts the hand's flower tiles; more flowers than
        the ruleset's tile set has.
    """
    if isinstance(flowers, bool) or not isinstance(flowers, (int, np.integer)):
        raise RuleError(f"flowers must be a count 0..{rs.flowers}, got {flowers!r}")
    flowers = int(flowers)
    if flowers < 0:
        raise RuleError(f"a count of flowers cannot be negative, got {flowers}")
    if h.n_flowers and flowers and flowers != h.n_flowers:
        raise RuleError(f"{flowers} flowers given, but the hand holds {h.n_flowers} flower "
                        "tile(s)")
    flowers = flowers or h.n_flowers
    if not 0 <= flowers <= rs.flowers:      # the tile set's flowers (南京 20 硬花, 罗源 36花)
        raise RuleError(f"{flowers} flowers: ruleset {rs.name} has {rs.flowers}")
    return flowers


def _prepare(hand, win_tile, self_drawn, last_copy, kong, last_tile, seat_wind,
             prevalent_wind, flowers, ruleset, first_turn="", kong_discard=False,
             declared_ready="", discarder_ready=False, flower_replacement=False,
             kong_claimed=False, kong_chain=0, seat_fan=0):
    rs = _rules.get(ruleset)
    h = as_hand(hand, hand_size=rs.hand_size)
    game_model(rs).check_melds(h.melds)      # an honour chow only where the ruleset plays it
    if h.n_tiles != rs.hand_size:
        raise InvalidHandError(
            f"the hand to score or check is the hand BEFORE the winning tile "
            f"({rs.hand_size} tiles counting melds as 3), got {h.n_tiles}; pass the win tile "
            "separately")
    win = parse_tile(win_tile) if isinstance(win_tile, str) else win_tile
    if isinstance(win, (np.integer,)):
        win = int(win)
    flowers = flower_count(flowers, h, rs)
    ctx = WinContext(win, bool(self_drawn), bool(last_copy), bool(kong), bool(last_tile),
                     wind_index(seat_wind, "seat_wind"),
                     wind_index(prevalent_wind, "prevalent_wind"), flowers, first_turn,
                     bool(kong_discard), declared_ready, bool(discarder_ready),
                     bool(flower_replacement), bool(kong_claimed), kong_chain, seat_fan)
    allc = _all_counts(h)
    if allc[win] >= 4:
        raise InvalidHandError(
            f"fifth copy of {tile_name(win)}: the hand already holds 4 (concealed + melds)")
    exposed_win = sum(m.tiles.count(win) for m in h.melds if not m.concealed)
    if ctx.kong and ctx.self_drawn and not any(m.kind == "kong" for m in h.melds):
        raise InvalidHandError("kong=True on a self-draw means 杠上开花 (win on a kong "
                               "replacement), but the hand has no kong")
    _check_kong_claimed(ctx, h)
    _check_kong_chain(ctx, h)
    _check_flower_replacement(ctx.flower_replacement, rs)
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
        ctx = dataclasses.replace(ctx, last_copy=True)
    return rs, h, ctx


def _check_kong_chain(ctx: WinContext, h: Hand) -> None:
    """kong_chain k (the win ends k kongs in a row) needs k kongs in the hand."""
    have = sum(1 for m in h.melds if m.kind == "kong")
    if ctx.kong_chain > have:
        raise InvalidHandError(f"kong_chain={ctx.kong_chain} means {ctx.kong_chain} kongs made "
                               f"in a row before the win, but the hand has {have}")


def _check_flower_replacement(flower_replacement, rs) -> None:
    """flower_replacement (a win on the tile drawn for a flower) needs a ruleset whose
    tile set has flowers."""
    if flower_replacement and not rs.flowers:
        raise InvalidHandError("flower_replacement means a win on the tile drawn for a "
                               f"flower, but ruleset {rs.name} plays no flowers")


def _check_kong_claimed(ctx: WinContext, h: Hand) -> None:
    """kong_claimed (the kong won on was made on a discard) needs an exposed kong."""
    if ctx.kong_claimed and not any(m.kind == "kong" and not m.concealed for m in h.melds):
        raise InvalidHandError("kong_claimed means the kong was made on another player's "
                               "discard, but the hand has no exposed kong")


def candidates(hand: Any, win_tile: Any, *, self_drawn: bool = False, last_copy: bool = False,
               kong: bool = False, last_tile: bool = False, seat_wind: Any = 0,
               prevalent_wind: Any = 0, flowers: int = 0,
               ruleset: Any = "mcr", first_turn: str = "",
               kong_discard: bool = False, declared_ready: Any = "",
               discarder_ready: bool = False, flower_replacement: bool = False,
               kong_claimed: bool = False, kong_chain: int = 0, seat_fan: int = 0) -> list[tuple[int, dict, WinningHand]]:
    """Every scored reading of a winning hand: ``(total, {fan id: count}, WinningHand)``.

    Same parameters and errors as :func:`score`; the list follows the tie order
    described in the module docstring.  Useful to inspect alternatives;
    :func:`score` returns the first with the highest total.
    """
    rs, h, ctx = _prepare(hand, win_tile, self_drawn, last_copy, kong, last_tile, seat_wind,
                          prevalent_wind, flowers, ruleset, first_turn, kong_discard,
                          declared_ready, discarder_ready, flower_replacement, kong_claimed, kong_chain,
                          seat_fan)
    return _candidates(rs, h, ctx)


def _candidates(rs, h: Hand, ctx: WinContext) -> list[tuple[int, dict, WinningHand]]:
    """Every reading of ``h`` + the win tile of ``ctx`` (:func:`_readings`) with its fans
    (:func:`evaluate`, under the joker / wild-face values published at the time of the
    call) and their total."""
    tb = _table(rs)
    out = []
    for w in _readings(rs, h, ctx):
        fans = evaluate(w, rs)
        out.append((_total(tb, fans), fans, w))
    return out


_READINGS: dict = {}
_READINGS_MAX = 10_000
"""Hands kept by :func:`_readings` before its memo is emptied (about 2.7 kB a hand)."""


def _readings(rs, h: Hand, ctx: WinContext) -> tuple[WinningHand, ...]:
    """Every :class:`WinningHand` of ``h`` + the win tile of ``ctx``: each decomposition
    in the ruleset's forms and each attribution of the win tile, in the tie order of
    the module docstring.

    Kept per (forms, honour chows, hand, context): they depend on nothing else (the fans, and the
    joker assignment a regional scorer publishes, are read when they are evaluated),
    and a probability search asks of the same assigned hand again and again.  The
    readings are read-only for the fan predicates, so one object serves every call;
    the memo is emptied when it holds :data:`_READINGS_MAX` hands."""
    key = _readings_key(rs, h.concealed.tobytes(), h.melds, h.flowers, h.jokers, ctx)
    got = _READINGS.get(key)
    if got is None:
        if len(_READINGS) >= _READINGS_MAX:
            _READINGS.clear()
        got = _READINGS[key] = tuple(_build_readings(rs, h, ctx))
    return got


def _readings_key(rs, concealed: bytes, melds: tuple, flowers: tuple, jokers: int,
                  ctx: WinContext) -> tuple:
    """The key of :func:`_readings` of a hand (its concealed counts as ``uint8`` bytes)."""
    return (rs.forms, rs.seven_pairs_quads, rs.hand_size, game_model(rs).honor_chows,
            concealed, melds, flowers, jokers, ctx)


def _build_readings(rs, h: Hand, ctx: WinContext):
    """Yield the readings of :func:`_readings` (computed)."""
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
            ws = _waits_counts(before, n_melds, rs.forms, rs.seven_pairs_quads,
                               rs.hand_size + 1, honor_chows=game_model(rs).honor_chows)
            uw.append(len(ws) == 1)
        return uw[0]

    for form, dec, csets, pair, pairs, knitted in _decompositions(rs, h, c, c_arr):
        if dec is None:         # the compiled decomposer's sets: valid by construction
            dec = _trusted_decomposition(form, pair, csets)
        # attributions of the win tile
        attrs: list[tuple[int | None, str]] = []
        if form in ("regular", "knitted_straight"):
            seen = set()
            for i, (kind, t) in enumerate(csets):
                if (kind, t) in seen:
                    continue
                if (kind == "chow" and win in chow_tiles(t)) or (kind == "pung" and t == win):
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
            u = unique_wait if pos in ("edge", "closed", "pair") else False
            yield WinningHand(h, ctx, dec, form, tuple(sets), pair, pairs, knitted, counts,
                              win_set, pos, u, cache)


def _score_reference(hand, win_tile, self_drawn, last_copy, kong, last_tile, seat_wind,
                     prevalent_wind, flowers, ruleset, first_turn="",
                     kong_discard=False, *, declared_ready="",
                     discarder_ready=False, flower_replacement=False,
                     kong_claimed=False, kong_chain=0, seat_fan=0) -> FanResult:
    """The reference engine for rulesets without regional extensions."""
    rs, h, ctx = _prepare(hand, win_tile, self_drawn, last_copy, kong, last_tile, seat_wind,
                          prevalent_wind, flowers, ruleset, first_turn, kong_discard,
                          declared_ready, discarder_ready, flower_replacement, kong_claimed, kong_chain,
                          seat_fan)
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
    r = FanResult(total=total, fans=fan_counts, form=w.form, decomposition=w.decomposition,
                  knitted=tuple(w.knitted), win_set=_where(w),
                  meets_minimum=_meets_minimum(rs, _counted(rs, tb, fans, total)),
                  min_fan=rs.min_fan, hand=h,
                  context=ctx, ruleset=rs.name, winning_hand=w)
    r._d["_ruleset_obj"] = rs
    return r


def _counted(rs, tb: _Table, fans: dict, total: int) -> int:
    """Fan points that count toward the ruleset's minimum (flowers excluded unless the
    ruleset counts them, :attr:`Ruleset.flowers_count_toward_minimum`)."""
    if rs.flowers_count_toward_minimum:
        return total
    return sum(tb.value[k] * n for k, n in fans.items() if tb.fan[k].minimum)


def _meets_minimum(rs, counted):
    """The game model's verdict on the minimum fan (:meth:`GameModel.meets_minimum`);
    ``counted`` may be an int or an integer array."""
    return game_model(rs).meets_minimum(counted)


def _where(w: WinningHand) -> str:
    """Text of the set the win tile completed (:attr:`FanResult.win_set`)."""
    if w.win_set is None:
        return "knitted tiles" if w.knitted and w.form == "knitted_straight" else w.form
    if w.win_set == -1:
        return f"pair {tile_name(w.pair)}"
    s = w.sets[w.win_set]
    return f"{s.kind} {_set_text(s.kind, s.tile)} ({w.win_position})"



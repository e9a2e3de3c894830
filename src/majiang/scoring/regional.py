"""Scoring under regional rulesets: jokers, win constraints, extra forms, doubling and caps.

:func:`majiang.scoring.score` delegates here when a ruleset needs it
(:attr:`majiang.rules.Ruleset.extended`).  The procedure:

1. Jokers (``*`` in the hand, or ``jokers=``; ``win_is_joker`` when the winning
   draw is itself a joker) are assigned kinds with
   :func:`majiang.rules.shapes.joker_assignments` (the assignments of
   :func:`~majiang.rules.shapes.joker_decompositions`: only kinds that complete a
   set or the pair); each distinct assignment gives a concrete hand, scored by
   the ordinary engine (every decomposition, every win-tile attribution) with
   the assignment published to the fan predicates (:func:`majiang.rules.fans.joker_info`).
   The readings of a concrete hand are kept (:func:`majiang.scoring.reference._readings`:
   a probability search or a game asks of the same assigned hands again and again);
   only the fans are evaluated anew, under each assignment.
2. Extra forms (十三烂, 七星归位) and 三金倒 (three jokers, 罗源) are read directly.
3. Each reading must pass the ruleset's win constraints (:mod:`majiang.rules.constraints`);
   the reading with the most *points* (:meth:`Ruleset.points`, or the ruleset's
   custom points function) wins.
4. No valid reading: :class:`~majiang.errors.InvalidHandError` naming the broken
   constraint (e.g. "缺一门 … holds three suits").
"""
from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .. import rules as _rules
from .._memo import per_ruleset
from ..errors import InvalidHandError, RuleError
from ..hand import Decomposition, Hand, _trusted_hand, as_hand, format_hand
from ..rules.base import POINTS_FUNCTIONS, WILD_HELD, ready_settlement_params
from ..rules.constraints import DESCRIPTIONS
from ..rules.fans import JOKERS
from ..rules.model import game_model
from ..rules.shapes import _lonely_kept, joker_assignments
from ..tiles import KINDS_258, parse_tile, tile_name
from ..winning import SetView, WinContext, WinningHand
from .reference import (_READINGS, _check_flower_replacement, _check_kong_chain,
                        _check_kong_claimed, _counted, _meets_minimum, _readings,
                        _readings_key, _table, _where, evaluate, flower_count, wind_index)
from .results import FanCount, FanResult

__all__ = ["score", "RegionalResult", "candidates"]


class RegionalResult(FanResult):
    """A :class:`~majiang.scoring.FanResult` with the ruleset's points.

    Extra attributes: ``points`` (after the scoring rule: doubling, cap, custom),
    ``capped`` (bool: the ruleset's cap lowered the points, e.g. 四川 3 番 = x8),
    ``jokers`` (kinds the jokers stand for, as tile names), ``win_is_joker``,
    ``dealer`` (the winner is the dealer, seat East).

    :meth:`settle` raises :class:`~majiang.errors.RuleError` for a hand below the
    minimum (:attr:`meets_minimum` False), and ``str()`` prints no points for it.
    """

    def __init__(self, *args, points: int = 0, jokers: tuple = (), win_is_joker: bool = False,
                 dealer: bool = False, capped: bool = False) -> None:
        super().__init__(*args)
        for k, v in (("points", points), ("jokers", jokers), ("win_is_joker", win_is_joker),
                     ("dealer", dealer), ("capped", capped)):
            object.__setattr__(self, k, v)

    def below_minimum(self) -> str:
        if self.meets_minimum:
            return ""
        short = game_model(self._rules_object()).short_of_minimum(
            self.winning_hand, {f.id: f.count for f in self.fans})
        if short:
            return short
        lo = game_model(_rules.get(self.ruleset)).min_points
        if lo is not None:
            need = lo[0] if self.context.self_drawn else lo[1]
            how = "self-drawn" if self.context.self_drawn else "on a discard"
            return f"below the {need}-point minimum of {self.ruleset} for a win {how}"
        return super().below_minimum()

    def cap_text(self) -> str:
        """``"capped at 3 fan (x8)"`` when :attr:`capped`, else ``""``."""
        if not getattr(self, "capped", False):
            return ""
        sc = self._rules_object().scoring
        if sc.mode == "double":
            return f"capped at {sc.total_text(sc.cap)} (x{2 ** sc.cap})"
        return f"capped at {sc.total_text(sc.cap)}"     # the unit; custom: the bare number

    def settle(self, winner: int = 0, discarder: int | None = None, *,
               as_self_draw: bool = False) -> tuple:
        """Per-seat score changes for :attr:`points` under the ruleset's settlement
        (``as_self_draw``: paid as a self-draw whatever the win's context, as a liability
        case that counts it so, :mod:`majiang.rules.liability`).

        Raises
        ------
        RuleError
            Below the minimum (no win, nothing to settle); a win on a discard
            without the discarder's seat; a winner seat outside the table.
        """
        self._check_settles()
        rs = self._rules_object()
        if discarder is None and not (self.context.self_drawn or as_self_draw):
            raise RuleError("a win on a discard needs the discarder's seat")
        n = rs.players
        if not 0 <= winner < n:
            raise RuleError(f"winner seat must be 0..{n - 1}, got {winner!r}")
        d = None if (self.context.self_drawn or as_self_draw) else discarder
        params = dict(rs.settlement_params)
        if "dealer" in params:      # the dealer's seat, from the winner's seat wind (East = dealer)
            params["dealer"] = (winner - self.context.seat_wind) % n
        if "kong_discard" in params:  # 杠后炮 paid by the settlement itself (内蒙)
            params["kong_discard"] = bool(self.context.kong_discard and d is not None)
        ready_settlement_params(params, self.context.declared_ready,
                                self.context.discarder_ready, d)
        return rs.settlement(self.points, winner, d, players=n, **params)

    def to_dict(self) -> dict:
        d = super().to_dict()
        d["points"] = self.points
        d["capped"] = bool(getattr(self, "capped", False))
        d["jokers"] = list(self.jokers)
        d["win_is_joker"] = self.win_is_joker
        return d

    def __str__(self) -> str:
        s = super().__str__()
        if self.meets_minimum:
            extra = f"  points {self.points}"
            cap = self.cap_text()
            if cap:
                extra += f"  ({cap})"
        else:
            extra = "  no points: not a win"
        if self.jokers:
            extra += f"  (jokers as {' '.join(self.jokers)})"
        return s + "\n" + extra


def _points(rs, fans: dict, w: WinningHand) -> int:
    sc = rs.scoring
    if sc.mode == "custom":
        return int(POINTS_FUNCTIONS[sc.function](fans, rs, w))
    tb = _table(rs)
    total = sum(tb.value[k] * n for k, n in fans.items())
    return rs.points(total, fans)


class _Uncapped:
    """A ruleset seen without its scoring cap (to tell whether a custom points
    function applied the cap)."""

    __slots__ = ("_rs", "scoring")

    def __init__(self, rs) -> None:
        self._rs = rs
        self.scoring = dataclasses.replace(rs.scoring, cap=None)

    def __getattr__(self, name):
        return getattr(self._rs, name)


def _capped(rs, fans: dict, w: WinningHand, points: int, total: int) -> bool:
    """Whether the ruleset's cap (:attr:`ScoringRule.cap`) lowered ``points``."""
    sc = rs.scoring
    if sc.cap is None:
        return False
    if sc.mode == "custom":
        return int(POINTS_FUNCTIONS[sc.function](fans, _Uncapped(rs), w)) != points
    return total > sc.cap and not (sc.limit & set(fans))


def _violations(rs, w: WinningHand, fans: dict) -> list[str]:
    """The constraints this reading breaks: the game model's verdict
    (:meth:`majiang.rules.model.GameModel.violations`), the one source of truth."""
    return game_model(rs).violations(w, fans)


def _special(rs, h: Hand, ctx: WinContext, c: list, n_jokers: int):
    """WinningHands of the extra forms (no jokers in them) and of 三金倒."""
    out = []
    if len(h.melds) == 0 and sum(c) + n_jokers == 14 and n_jokers == 0:
        caps = tuple(rs.copies)
        for form, seven in (("thirteen_lonely", None), ("seven_stars", 7)):
            if form in rs.forms and _lonely_kept(tuple(c), caps, seven) == 14 and max(c) == 1:
                out.append(WinningHand(h, ctx, Decomposition(form), form, (), None, (), (),
                                       tuple(c), None, "special", False))
    if "all_258" in rs.forms and n_jokers == 0:
        w = _all_258_hand(h, ctx, c)
        if w is not None:
            out.append(w)
    if game_model(rs).three_jokers_win and n_jokers >= game_model(rs).jokers_to_win:
        allc = _with_melds(c, h.melds)
        out.append(WinningHand(h, ctx, Decomposition("regular"), "regular", (), None, (), (),
                               tuple(allc), None, "special", False, {"three_jokers": True}))
    return out


def _has_special(rs) -> bool:
    """Whether :func:`_special` can read a hand without jokers under ``rs`` (an extra
    form: 十三烂, 七星归位, 将将胡)."""
    return any(f in rs.forms for f in ("thirteen_lonely", "seven_stars", "all_258"))


def _with_melds(c, melds) -> list:
    """The counts ``c`` (34,) plus every tile of `melds`, as a new list."""
    allc = [int(x) for x in c]
    for m in melds:
        for t in m.tiles:
            allc[t] += 1
    return allc


def _only_258(allc) -> bool:
    """Every tile counted in ``allc`` is a 2, 5 or 8 of a suit."""
    return not any(x and k not in KINDS_258 for k, x in enumerate(allc))


def _all_258_hand(h: Hand, ctx: WinContext, c: list):
    """The 将将胡 / 将一色 reading (form ``all_258``) of the concealed counts ``c`` (win
    tile and assigned jokers included) and the melds of ``h``: every tile a 2, 5 or 8
    of a suit, in any shape (docs/rules/changsha.md §2: "every tile a 2/5/8, any shape");
    None when some tile is not.  The melds are its sets (a meld of 2/5/8 tiles only is
    a pung or kong)."""
    allc = _with_melds(c, h.melds)
    if not _only_258(allc):
        return None
    sets = tuple(SetView(m.kind, m.tile, m.concealed, True) for m in h.melds)
    return WinningHand(h, ctx, Decomposition("all_258"), "all_258", sets, None, (), (),
                       tuple(allc), None, "special", False)


def _all_258_jokers(c_full, melds, J: int, caps: list, win_is_joker: bool):
    """A joker assignment for the ``all_258`` form, or None: when every real tile is a
    2, 5 or 8, the jokers stand for 2/5/8 kinds with copies left (which ones does not
    change the reading).  With ``win_is_joker`` the last one is the win tile."""
    if not _only_258(_with_melds(c_full, melds)):
        return None
    asg = []
    left = {k: caps[k] - int(c_full[k]) for k in KINDS_258}
    for _ in range(J):
        k = max(KINDS_258, key=lambda t: (left[t], -t))
        if left[k] <= 0:
            return None
        left[k] -= 1
        asg.append(k)
    return tuple(sorted(asg))


def _eight_pairs_jokers(c_full, J: int, caps: list, kinds) -> set:
    """Joker assignments that make the concealed counts ``c_full`` (no melds) plus ``J``
    jokers an 八对 hand (eight pairs and one more tile, :func:`eight_pairs_complete`): one
    odd kind stays the odd tile, a joker pairs each other odd kind, and the jokers left
    (an even number) make pairs of the held kind with the most copies left (or, with no
    odd kind, one joker is the odd tile there).  One reading per choice of the odd tile:
    where the leftover pairs go changes no 温州 level but 清一色 / 混一色, read with the
    held kinds."""
    c = [int(x) for x in c_full]
    odd = [k for k in kinds if c[k] % 2]
    if J < len(odd) - 1:
        return set()
    out = set()
    for single in (odd or [None]):
        cnt = c[:]
        asg = []
        for k in odd:
            if k != single:
                if cnt[k] + 1 > caps[k]:
                    break
                cnt[k] += 1
                asg.append(k)
        else:
            left = J - len(asg)
            pool = [k for k in kinds if c[k]] or list(kinds)
            if single is None:              # no odd kind: one joker is the odd tile
                k = max(pool, key=lambda t: (caps[t] - cnt[t], -t))
                if cnt[k] + 1 > caps[k]:
                    continue
                cnt[k] += 1
                asg.append(k)
                left -= 1
            while left >= 2:
                k = max(pool, key=lambda t: (caps[t] - cnt[t], -t))
                if cnt[k] + 2 > caps[k]:
                    break
                cnt[k] += 2
                asg += [k, k]
                left -= 2
            if left == 0:
                out.add(tuple(sorted(asg)))
    return out


def _absent_kinds(rs) -> list:
    """The kinds outside the ruleset's tile set (no copy)."""
    return [k for k in range(34) if not rs.copies[k]]


class _Facts:
    """What :func:`candidates` reads of a ruleset on every hand, read once per ruleset
    object (:func:`_facts`)."""

    __slots__ = ("copies", "kinds", "absent", "joker_forms", "special", "model")

    def __init__(self, rs) -> None:
        self.copies = tuple(rs.copies)
        self.kinds = tuple(rs.kinds)
        self.absent = tuple(_absent_kinds(rs))
        self.joker_forms = tuple(f for f in rs.forms if f in ("regular", "seven_pairs"))
        self.special = _has_special(rs)
        self.model = game_model(rs)


_facts = per_ruleset(_Facts)


def candidates(hand: Any, win_tile: Any = None, *, self_drawn: bool = False,
               last_copy: bool = False, kong: bool = False, last_tile: bool = False,
               seat_wind: Any = 0, prevalent_wind: Any = 0, flowers: int = 0,
               ruleset: Any = "sichuan", jokers: int = 0, win_is_joker: bool = False,
               first_turn: str = "", kong_discard: bool = False, declared_ready: Any = "",
               discarder_ready: bool = False, flower_replacement: bool = False,
               kong_claimed: bool = False, kong_chain: int = 0, seat_fan: int = 0):
    """Every reading ``(points, fans, WinningHand, joker kinds, violations)``."""
    rs = _rules.get(ruleset)
    if ((kong_discard and (self_drawn or kong)) or declared_ready or discarder_ready
            or flower_replacement or kong_claimed or kong_chain or seat_fan):
        # raises on a context the win contradicts (the readings below drop such contexts)
        WinContext(0, bool(self_drawn), False, bool(kong), kong_discard=bool(kong_discard),
                   declared_ready=declared_ready, discarder_ready=discarder_ready,
                   flower_replacement=flower_replacement, kong_claimed=kong_claimed, kong_chain=kong_chain, seat_fan=seat_fan)
    h0 = as_hand(hand, hand_size=rs.hand_size)
    if kong_claimed:
        _check_kong_claimed(WinContext(0, True, kong=True, kong_claimed=True), h0)
    if kong_chain:
        _check_kong_chain(WinContext(0, True, kong=True, kong_chain=kong_chain), h0)
    _check_flower_replacement(flower_replacement, rs)
    if h0.n_tiles + jokers != rs.hand_size:
        raise InvalidHandError(f"the hand to score or check is the hand BEFORE the winning tile "
                               f"({rs.hand_size} tiles counting melds as 3 and jokers), got "
                               f"{h0.n_tiles + jokers}")
    if h0.flowers:          # flowers only where the tile set has them
        game_model(rs).check_flowers(h0.flowers)
    facts = _facts(rs)
    facts.model.check_melds(h0.melds)      # an honour chow only where the ruleset plays it
    copies = facts.copies
    for k in facts.absent:
        if h0.concealed[k] or any(k in m.tiles for m in h0.melds):
            raise InvalidHandError(f"{tile_name(k)} is not in the tile set of {rs.name} "
                                   f"({rs.tiles})")
    J = h0.jokers + int(jokers) + (1 if win_is_joker else 0)
    if rs.jokers is None and J:
        raise RuleError(f"ruleset {rs.name} has no jokers")
    if not win_is_joker:
        if win_tile is None:
            raise RuleError("give the winning tile (or win_is_joker=True)")
        win = parse_tile(win_tile) if isinstance(win_tile, str) else int(win_tile)
        if not copies[win]:
            raise InvalidHandError(f"{tile_name(win)} is not in the tile set of {rs.name}")
    else:
        win = None
    flowers = flower_count(flowers, h0, rs)     # the count given, or the hand's 1f tiles
    base = h0.concealed.astype(np.int64)
    c_full = base.copy()
    if win is not None:
        c_full[win] += 1
    melds = h0.melds
    caps = list(copies)
    for m in melds:
        for t in m.tiles:
            caps[t] -= 1
    # distinct joker assignments (kinds that complete sets); none without jokers
    if J:
        assignments = joker_assignments(c_full, J, n_melds=len(melds), caps=caps,
                                        forms=facts.joker_forms,
                                        quads=rs.seven_pairs_quads, kinds=facts.kinds,
                                        fifth_copy=bool(rs.jokers.fifth_copy),
                                        honor_chows=facts.model.honor_chows)
        if "all_258" in rs.forms:           # 将将胡 of any shape: no decomposition needed
            a = _all_258_jokers(c_full, melds, J, caps, bool(win_is_joker))
            if a is not None:
                assignments.add(a)
        if "eight_pairs" in rs.forms and not melds:     # 温州 八对
            assignments |= _eight_pairs_jokers(c_full, J, caps, rs.kinds)
        assignments = sorted(assignments)
    else:
        assignments = [()]
    in_melds = [0] * 34
    for m in melds:
        for t in m.tiles:
            in_melds[t] += 1
    h0_conc = h0.concealed.tolist()
    c_full_l = c_full.tolist()
    model = facts.model
    special = facts.special
    contexts: dict = {}         # the WinContext of each win tile (None: refused)

    def context_of(wt: int):
        if wt not in contexts:
            try:
                contexts[wt] = WinContext(int(wt), bool(self_drawn), bool(last_copy), bool(kong),
                                          bool(last_tile), wind_index(seat_wind, "seat_wind"),
                                          wind_index(prevalent_wind, "prevalent_wind"), flowers,
                                          first_turn, bool(kong_discard), declared_ready,
                                          bool(discarder_ready), bool(flower_replacement),
                                          bool(kong_claimed), kong_chain, seat_fan)
            except InvalidHandError:
                contexts[wt] = None
        return contexts[wt]

    out = []
    flowers0 = h0.flowers
    for asg in assignments:
        c = list(c_full_l)
        for k in asg:
            c[k] += 1
        wins = [win] if win is not None else sorted(set(asg))
        for wt in wins:
            ctx = context_of(wt)
            if ctx is None:
                continue
            before = list(c)
            before[wt] -= 1
            # the readings of this assigned hand when an earlier hand had them (a hand
            # is built, and checked, only to compute them)
            readings = _READINGS.get(_readings_key(rs, bytes(before), melds, flowers0, 0, ctx))
            hb = None
            if readings is None or special:
                # the checks of Hand(): h0 passed them, so only a count the assignment or
                # the win tile changed can break them (more than four a kind, melds too)
                if all(before[k] == h0_conc[k] or before[k] + in_melds[k] <= 4
                       for k in (*asg, wt)):
                    b8 = np.array(before, dtype=np.uint8)
                    b8.flags.writeable = False
                    hb = _trusted_hand(b8, melds, flowers0)
                else:
                    try:
                        hb = Hand(np.array(before, dtype=np.uint8), melds, flowers0)
                    except InvalidHandError:
                        continue
                if readings is None:
                    readings = _readings(rs, hb, ctx)
            token = JOKERS.set((J, tuple(asg), bool(win_is_joker)))
            try:
                for w in readings:
                    fans = evaluate(w, rs)
                    out.append((_points(rs, fans, w), fans, w, asg, model.violations(w, fans)))
                if special:
                    for w in _special(rs, hb, ctx, c, 0):
                        fans = evaluate(w, rs)
                        out.append((_points(rs, fans, w), fans, w, asg,
                                    model.violations(w, fans)))
            finally:
                JOKERS.reset(token)
    if game_model(rs).three_jokers_win and J >= game_model(rs).jokers_to_win:
        # 三金倒: three jokers win whatever the other tiles are
        ctx = WinContext(win if win is not None else 0, bool(self_drawn), False, bool(kong),
                         bool(last_tile), wind_index(seat_wind, "seat_wind"),
                         wind_index(prevalent_wind, "prevalent_wind"), flowers, first_turn,
                         bool(kong_discard), declared_ready, bool(discarder_ready),
                         bool(flower_replacement), bool(kong_claimed), kong_chain, seat_fan)
        token = JOKERS.set((J, (), bool(win_is_joker)))
        try:
            for w in _special(rs, h0, ctx, c_full.tolist(), J):
                fans = evaluate(w, rs)
                out.append((_points(rs, fans, w), fans, w, (), _violations(rs, w, fans)))
        finally:
            JOKERS.reset(token)
    return rs, h0, out


def _fixed_face_hand(hand, win_tile, ruleset, jokers, win_is_joker):
    """The ruleset when `hand` / `win_tile` hold a face of its fixed joker kind (to be
    read by :func:`majiang.scoring.faces.score`), else None; never inside that reading
    (:data:`WILD_HELD` set) nor with a separate joker count."""
    if jokers or win_is_joker or WILD_HELD.get() is not None:
        return None
    rs = _rules.get(ruleset)
    jr = rs.jokers
    if jr is None or jr.source != "fixed":
        return None
    k = int(jr.fixed)
    h = as_hand(hand, hand_size=rs.hand_size) if not isinstance(hand, Hand) else hand
    win = None if win_tile is None else (parse_tile(win_tile) if isinstance(win_tile, str)
                                         else int(win_tile))
    return rs if (int(h.concealed[k]) or win == k) else None


def score(hand: Any, win_tile: Any = None, *, self_drawn: bool = False, last_copy: bool = False,
          kong: bool = False, last_tile: bool = False, seat_wind: Any = 0,
          prevalent_wind: Any = 0, flowers: int = 0, ruleset: Any = "sichuan",
          jokers: int = 0, win_is_joker: bool = False, first_turn: str = "",
          kong_discard: bool = False, declared_ready: Any = "",
          discarder_ready: bool = False, flower_replacement: bool = False,
          kong_claimed: bool = False, kong_chain: int = 0, seat_fan: int = 0) -> RegionalResult:
    """Score a winning hand under a regional ruleset (see the module docstring).

    Parameters are those of :func:`majiang.scoring.score`, plus ``jokers`` (wild
    tiles held besides any ``*`` in the hand) and ``win_is_joker`` (the winning
    draw is a joker; ``win_tile`` is then ignored).  ``seat_wind`` 0 (East) is the
    dealer.  ``first_turn``: 天和 / 地和 / 人和; ``kong_discard``: 杠上炮, a win on the discard
    made right after the discarder's kong; ``declared_ready`` / ``discarder_ready``: the
    winner / the discarder had declared ready; ``flower_replacement``: won on the tile drawn
    for a flower; ``kong_claimed``: the kong replacement won on was drawn for a kong made on
    a discard (:class:`majiang.winning.WinContext`).

    Jokers here are ``*`` (or ``jokers=``) only; a hand that writes a fixed joker by its
    face (杭州 白板 …) is read by :func:`majiang.scoring.faces.regional_score`, the
    entry point of :func:`majiang.score` and :func:`majiang.check_win`.

    Raises
    ------
    InvalidHandError
        Not a winning hand, or one the ruleset forbids (the message names the
        constraint, e.g. ``void_suit``); tiles outside the ruleset's tile set.
    """
    rs, h0, cands = candidates(hand, win_tile, self_drawn=self_drawn, last_copy=last_copy,
                               kong=kong, last_tile=last_tile, seat_wind=seat_wind,
                               prevalent_wind=prevalent_wind, flowers=flowers, ruleset=ruleset,
                               jokers=jokers, win_is_joker=win_is_joker, first_turn=first_turn,
                               kong_discard=kong_discard, declared_ready=declared_ready,
                               discarder_ready=discarder_ready,
                               flower_replacement=flower_replacement, kong_claimed=kong_claimed, kong_chain=kong_chain, seat_fan=seat_fan)
    def what():        # the hand in the messages (built only for a refusal)
        return (f"{format_hand(h0)} + {'a joker' if win_is_joker else tile_name(parse_tile(win_tile) if isinstance(win_tile, str) else win_tile)}")
    if not cands:
        raise InvalidHandError(f"not a winning hand: {what()} has no decomposition in the forms "
                               f"of {rs.name} ({', '.join(rs.forms)})")
    valid = [x for x in cands if not x[4]]
    if not valid:
        broken = sorted({v for x in cands for v in x[4]})
        raise InvalidHandError(
            f"not a winning hand under {rs.name}: {what()} breaks "
            + "; ".join(f"{b} ({_broken_text(rs, b)})" for b in broken))
    best = valid[0]
    for x in valid[1:]:
        if x[0] > best[0]:
            best = x
    model = game_model(rs)
    if rs.win_minimum and model.short_of_minimum(best[2], best[1]):
        # a minimum not in the points (武汉 HZ 番): a reading that reaches it goes first
        up = [x for x in valid if not model.short_of_minimum(x[2], x[1])]
        if up:
            best = max(up, key=lambda x: x[0])
    points, fans, w, asg, _ = best
    tb = _table(rs)
    total = sum(tb.value[k] * n for k, n in fans.items())
    fan_counts = tuple(FanCount(k, tb.fan[k].chinese, tb.fan[k].english,
                                         tb.fan[k].value, n) for k, n in fans.items())
    meets = (_meets_minimum(rs, _counted(rs, tb, fans, total))
             and not model.short_of_minimum(w, fans))
    lo = model.min_points
    if lo is not None:
        # 螺山: the minimum is in points (和 x 2^台) by win type, not in fan
        meets = points >= (lo[0] if w.context.self_drawn else lo[1])
    r = RegionalResult(total, fan_counts, w.form, w.decomposition, (), _where(w), meets,
                       rs.min_fan, h0, w.context, rs.name, w, points=points,
                       jokers=tuple(tile_name(k) for k in asg),
                       win_is_joker=bool(win_is_joker), dealer=w.context.seat_wind == 0,
                       capped=_capped(rs, fans, w, points, total))
    r._d["_ruleset_obj"] = rs
    return r


def _broken_text(rs: Any, rule: str) -> str:
    """What a broken win constraint means; a declared void suit (定缺) names its suit
    rather than the generic 缺一门 rule."""
    if rule == "void_suit":
        from ..rules.model import rule_spec
        v = rule_spec(rs).declared_void
        if v is not None:
            return (f"定缺: the seat declared {'万筒条'[v]} ({'mps'[v]}) void, and the "
                    "complete hand holds it")
    return DESCRIPTIONS[rule]

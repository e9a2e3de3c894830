"""The ``"expert"`` built-in player: plans for a hand that may win under the ruleset, calls
only into such a plan, and folds against a likely-ready opponent.

It reads nothing but the public :class:`~majiang.game.players.SeatView` and plays in the
Python game loop only (the compiled loop hosts the ``"random"`` and ``"efficiency"`` bots;
a table with an expert seat is played by the Python loop, as for any policy object).

How it plays (every rule below is this policy, not a rule of the game):

**Plans** (rulesets with a minimum fan whose fan catalogue holds the named fans: Chinese
Official ``mcr`` / ``mcr_botzone``).  A plan is a target a hand can be built toward, with a
distance in the shanten convention (-1 complete, 0 ready) computed from the own tiles and
melds:

* one-suit plans (混一色 per suit, 清一色 per suit): the ruleset's shanten with the tiles
  outside the plan unusable (the compiled shanten under caps of 0 for those kinds);
* 碰碰和: shanten of four pungs and a pair (``2 need - 2 pungs - pairs kept - eyes``);
* fixed-chow plans (花龙, 清龙, 三色三同顺, 三色三步高: three given chows): the missing
  tiles of the chows not yet melded, plus what the other tiles lack of one more set and a
  pair; dead when a missing tile has no unseen copy left;
* the general plan (any shape, small fans adding up): the ruleset's shanten, weighed
  :data:`GENERAL_CONCEALED` while the hand has no claimed meld (门前清 / 不求人 / 平和 …
  may still add up) and :data:`GENERAL_OPEN` once open (全求人 and odd fans only).

A plan whose fan is below the minimum weighs :data:`SHORT` more (it needs another fan);
the value of a hand is the least distance + weight over its plans (:func:`plan_value`).

**Discards.**  When the least shanten after a discard is 0 or 1 the exact count decides:
ready discards by the live copies of the waits that win under the ruleset's own win
predicate (:func:`~majiang.game.players.pick_valid_wait`, as the efficiency bot), 1-shanten
discards by their *valid ukeire* — the live copies of the draws after which some discard
leaves a ready hand with a wait the predicate accepts (the helper of
:func:`~majiang.game.players.step_back`).  Otherwise, or when nothing there can win, the
discard of least plan value, then least shanten, then most live ukeire, then honors before
terminals before inner tiles.  Under a ruleset where every complete shape wins and no plan
applies this is the efficiency bot's order.

**Calls.**  A pung or chow only when the plan value after the call (and its best discard)
is at least :data:`CALL_GAIN` below the value of the hand as it is, reached by a plan
other than the open general one, and, when the call makes the hand ready, with a live wait
that wins; a call that makes the hand ready with such a wait counts as value 0
(:data:`READY_CALLS`).  An exposed kong only
in a hand already open (a concealed hand keeps 门前清); concealed and added kongs as the
efficiency bot (when they do not raise the shanten).  Wins are always taken.

**Defence** (cheap: no sampling of opponent hands, so a decision costs about a millisecond;
:func:`majiang.danger` would cost far more).  Each opponent's chance of being ready is the
tempo prior of :mod:`majiang.opponents` (:meth:`~majiang.opponents.OpponentModel.p_ready_prior`
from its discards and claimed melds).  When the largest reaches :data:`FOLD_P` and the own
hand is :data:`FOLD_SHANTEN` or more from ready, it folds: the held tile of least cheap
danger, summed over opponents weighted by their readiness — a tile the opponent discarded
itself weighs :data:`OWN_FACTOR`, one discarded after its last discard (and passed)
:data:`PASSED_FACTOR`, otherwise by the unseen copies (``(1 + unseen) / 5``), honors
:data:`HONOR_FACTOR` and terminals :data:`TERMINAL_FACTOR` (fewer waits hold them).

Measured (``bench/bench_realism.py``, 2,000 hands of four players under ``mcr_botzone``,
seed 0; the published strong-AI figures of the IJCAI final in brackets): drawn hands 3.1 %
(efficiency bots 12.7 %; [1.6 %]), self-draw share of wins 30.6 % [30.2 %], wins per
player-hand 24.2 % [23.2-25.2 %], mean fan 12.56 [12.45], 平和 in 46.1 % of wins [43.0 %],
全求人 in 0.9 % (efficiency bots 16.7 %).  In the duplicate format (:func:`majiang.arena`,
300 walls × 4 rotations under ``mcr``, one expert against three efficiency bots) the expert
scores +7.4 points per hand (95 % interval 5.7 to 9.1), wins 35 % of hands and deals in
14.5 % (the efficiency bots: 17-21 % and 17-19 %).  A hand of four experts takes about 20
times as long as one of four efficiency bots in the Python loop.  Under a ruleset without
plans (no minimum fan: 四川, 广东 …) it discards and calls as the efficiency bot and only
the fold differs — rarely: 100 四川 walls × 4 rotations against three efficiency bots
played the very same hands (the big hands that pay under regional rules are not planned
yet).
"""
from __future__ import annotations

import itertools

import numpy as np

from .._core import game as _cg
from ..errors import MahjongError
from .players import (BUILTIN_PLAYERS, EfficiencyPlayer, _centrality, _valid_ukeire, called,
                      legal_discard)

__all__ = ["ExpertPlayer", "plan_value", "plans_of"]

SHORT = 0.5
"""Weight added to a plan whose fan alone is below the ruleset's minimum."""
GENERAL_CONCEALED = 1.0
"""Weight of the general plan while the hand holds no claimed meld."""
GENERAL_OPEN = 3.0
"""Weight of the general plan in an open hand."""
FOLD_P = 0.25
"""An opponent's P(ready) (tempo prior) from which the expert may fold."""
FOLD_SHANTEN = 3
"""The own shanten from which the expert folds against a likely-ready opponent."""
OWN_FACTOR = 0.3
PASSED_FACTOR = 0.1
HONOR_FACTOR = 0.6
TERMINAL_FACTOR = 0.8
SELF_DRAWN_ONLY = 0.35
"""Weight of a live copy of a wait that wins only self-drawn (against 1 for one that also
wins on a discard): roughly the share of a tile's copies the seat draws itself."""
CALL_GAIN = 0.5
"""The least drop of the plan value a pung / chow must bring (its distance falls by 1 when
the called set is one of the plan's)."""
READY_CALLS = True
"""Whether a pung / chow that makes the hand ready with a live wait that wins is taken
even when no fan plan is behind it."""
TOP_PLANS = 5
"""Plans (the nearest) weighed for each discard."""

_IMPOSSIBLE = 99


# ------------------------------------------------------------------ plans
class _Plan:
    __slots__ = ("name", "kind", "data", "weight", "general")

    def __init__(self, name, kind, data, weight, general=False):
        self.name, self.kind, self.data, self.weight, self.general = (
            name, kind, data, weight, general)

    def __repr__(self) -> str:
        return f"_Plan({self.name!r}, {self.kind}, {self.data!r})"


_PLANS: dict = {}


def plans_of(model) -> tuple:
    """The plans (:mod:`majiang.game.expert`) of a ruleset's game model: empty under a
    ruleset without a minimum fan or without the fans named there in its catalogue."""
    got = _PLANS.get(id(model))
    if got is not None and got[0] is model:
        return got[1]
    out = []
    mf = int(model.min_fan)
    if mf > 0:
        value = {f.chinese: int(f.value) for f in model.ruleset.fans}

        def w(name):
            return 0.0 if value[name] >= mf else SHORT
        for s in range(3):
            if "混一色" in value:
                ok = np.zeros(34, dtype=bool)
                ok[9 * s:9 * s + 9] = True
                ok[27:] = True
                out.append(_Plan("混一色", "suit", ok, w("混一色")))
            if "清一色" in value:
                ok = np.zeros(34, dtype=bool)
                ok[9 * s:9 * s + 9] = True
                out.append(_Plan("清一色", "suit", ok, w("清一色")))
        if "碰碰和" in value:
            out.append(_Plan("碰碰和", "pungs", None, w("碰碰和")))
        if "五门齐" in value:
            out.append(_Plan("五门齐", "gates", None, w("五门齐")))
        perms = list(itertools.permutations(range(3)))
        if "花龙" in value:
            for p in perms:
                out.append(_Plan("花龙", "chows", tuple(9 * p[i] + 3 * i for i in range(3)),
                                 w("花龙")))
        if "清龙" in value:
            for s in range(3):
                out.append(_Plan("清龙", "chows", (9 * s, 9 * s + 3, 9 * s + 6), w("清龙")))
        if "三色三同顺" in value:
            for r in range(7):
                out.append(_Plan("三色三同顺", "chows", (r, 9 + r, 18 + r), w("三色三同顺")))
        if "三色三步高" in value:
            for r in range(5):
                for p in perms:
                    out.append(_Plan("三色三步高", "chows",
                                     tuple(9 * p[i] + r + i for i in range(3)), w("三色三步高")))
    res = tuple(out)
    _PLANS[id(model)] = (model, res)
    return res


def _pair_prog(r) -> int:
    best = 0
    for k in np.flatnonzero(r):
        if r[k] >= 2:
            return 2
        best = 1
    return best


def _rest_prog(r, need_set: bool) -> int:
    """Useful tiles of ``r`` toward one more set (when ``need_set``) and a pair."""
    base = _pair_prog(r)
    if not need_set:
        return base
    best = base
    ks = [int(k) for k in np.flatnonzero(r)]
    for k in ks:
        cands = [((k,), 1)]
        if r[k] >= 2:
            cands.append(((k, k), 2))
        if r[k] >= 3:
            cands.append(((k, k, k), 3))
        if k < 27:
            rank = k % 9
            if rank <= 7 and r[k + 1]:
                cands.append(((k, k + 1), 2))
                if rank <= 6 and r[k + 2]:
                    cands.append(((k, k + 1, k + 2), 3))
            if rank <= 6 and r[k + 2]:
                cands.append(((k, k + 2), 2))
        for tiles, v in cands:
            if v + 2 <= best:
                continue
            for t in tiles:
                r[t] -= 1
            best = max(best, v + _pair_prog(r))
            for t in tiles:
                r[t] += 1
            if best >= 5:
                return 5
    return best


def _pung_dist(c, n_melds: int) -> int:
    need = 4 - n_melds
    trips = pairs = 0
    for k in np.flatnonzero(c):
        if c[k] >= 3:
            trips += 1
        elif c[k] == 2:
            pairs += 1
    m = min(trips, need)
    pairs += trips - m
    e = 1 if pairs else 0
    t = min(pairs - e, need - m)
    return 2 * need - 2 * m - t - e


_GATES = ((0, 9), (9, 18), (18, 27), (27, 31), (31, 34))


def _gates_dist(c, melds) -> int:
    """Distance of 五门齐: one group (set or pair) from each of 万, 筒, 条, winds and
    dragons."""
    done = set()
    for m in melds:
        g = next(i for i, (a, b) in enumerate(_GATES) if a <= m.tile < b)
        if g in done:
            return _IMPOSSIBLE
        done.add(g)
    sets, pairs = {}, {}
    for g, (a, b) in enumerate(_GATES):
        if g in done:
            continue
        part = c[a:b]
        sp = pp = 0
        for i in np.flatnonzero(part):
            n = int(part[i])
            pp = max(pp, 2 if n >= 2 else 1)
            sp = max(sp, 3 if n >= 3 else 2 if n == 2 else 1)
            if g < 3:
                near = (i + 1 < 9 and part[i + 1]), (i + 2 < 9 and part[i + 2])
                if near[0] and near[1]:
                    sp = 3
                elif near[0] or near[1]:
                    sp = max(sp, 2)
        sets[g], pairs[g] = sp, pp
    if not sets:
        return _IMPOSSIBLE
    need = min(sum(3 - sets[r] for r in sets if r != p) + 2 - pairs[p] for p in sets)
    return need - 1


def _chow_dist(c, targets, melds, avail) -> int:
    """Distance of the fixed-chow plan ``targets`` (lowest tiles of three chows);
    ``avail``: copies of each kind not seen outside the own hand."""
    left = list(targets)
    other = 0
    for m in melds:
        if m.kind == "chow" and m.tile in left:
            left.remove(m.tile)
        elif m.kind == "chow":
            return _IMPOSSIBLE
        else:
            other += 1
    if other > 1:
        return _IMPOSSIBLE
    need = np.zeros(34, dtype=np.int64)
    for a in left:
        need[a] += 1
        need[a + 1] += 1
        need[a + 2] += 1
    cc = c.astype(np.int64)
    used = np.minimum(cc, need)
    short = need - used
    if (short > avail - cc).any():
        return _IMPOSSIBLE              # a missing tile with no copy left to draw
    rest = (cc - used).astype(np.int64)
    prog = _rest_prog(rest, other == 0)
    size = 3 * (4 - len(melds)) + 2
    return size - int(used.sum()) - prog - 1


def _plan_dist(plan, c, melds, j, so, avail, live) -> int:
    if plan.kind == "suit":
        ok = plan.data
        for m in melds:
            if not ok[m.tile]:
                return _IMPOSSIBLE
        caps = np.where(ok, 4, 0).astype(np.uint8)
        pso = _cg.ShapeOpts(so.mask, so.quads, caps, so.pair_mask, so.void_suits, so.fifth,
                            np.minimum(caps, live).astype(np.uint8))
        return int(_cg.shanten(c, pso, j))
    if plan.kind == "gates":
        return _gates_dist(c, melds)
    if plan.kind == "pungs":
        if any(m.kind == "chow" for m in melds):
            return _IMPOSSIBLE
        return _pung_dist(c, len(melds))
    return _chow_dist(c, plan.data, melds, avail)


def plan_value(view, c=None, extra_melds=(), plans=None, with_plan=False, general=True):
    """The least plan distance + weight (float) of the seat's hand over ``plans`` (default
    the ruleset's, :func:`plans_of`) and, with ``general``, the general plan.  ``c``:
    ``uint8 (34,)`` counts as played (default the own concealed tiles); ``extra_melds``:
    a call being weighed (:class:`~majiang.hand.Meld`).  With ``with_plan``: ``(value,
    plan name or "general", plan)``; a value of 99 or more: no plan reachable."""
    if c is None:
        c, _ = view.play_counts()
    j = view.play_counts()[1]
    melds = tuple(view.own_melds) + tuple(extra_melds)
    so = view.shape_options(tuple(extra_melds))
    ctx = _context(view, melds)
    vals = _all_dists(c, melds, j, so, ctx, plans)
    if not general:
        vals = [x for x in vals if x[2] is not None] or [(float(_IMPOSSIBLE), "general", None)]
    best = min(vals, key=lambda x: x[0])
    return best if with_plan else best[0]


def _context(view, melds):
    """(avail, live, plans, concealed?) for plan distances."""
    live = np.array(view.model.shape(melds).caps, dtype=np.uint8)
    vis = view.visible_counts().astype(np.int64)
    own = np.zeros(34, dtype=np.int64)
    for m in melds:
        for t in m.tiles:
            own[t] += 1
    avail = 4 - vis - own
    concealed = all(m.concealed for m in melds)
    return avail, live, plans_of(view.model), concealed


def _all_dists(c, melds, j, so, ctx, plans=None):
    """[(value, name, plan)] over the ruleset's plans and the general plan."""
    avail, live, all_plans, concealed = ctx
    sh = int(_cg.shanten(c, so, j))
    if all_plans:
        gw = GENERAL_CONCEALED if concealed else GENERAL_OPEN
    else:
        gw = 0.0
    out = [(sh + gw, "general", None)]
    if j:
        return out
    for p in (all_plans if plans is None else plans):
        d = _plan_dist(p, c, melds, j, so, avail, live)
        if d < _IMPOSSIBLE:
            out.append((d + p.weight, p.name, p))
    return out


# ------------------------------------------------------------------ the player
class ExpertPlayer(EfficiencyPlayer):
    """Plans, valid progress, calls into a plan, a cheap fold (see the module text).
    Plays in the Python game loop only."""

    name = "expert"

    # -- discards -------------------------------------------------------------
    def discard(self, view) -> int:
        legal = view.legal_discards
        c, j = view.play_counts()
        if j:       # wild tiles held: the efficiency bot's discard
            return super().discard(view)
        vis = view.visible_counts()
        so = view.shape_options()
        allowed = self._allowed(view, legal)
        k = self._attack(view, c, j, vis, so, allowed)
        k = self._defend(view, c, j, so, allowed, k)
        return legal_discard(view, k, legal)

    def _cands(self, c, j, so, vis, allowed):
        """{kind: (shanten, live ukeire)} of each allowed discard."""
        out = {}
        for x in np.flatnonzero(allowed):
            x = int(x)
            if not c[x]:
                continue
            c[x] -= 1
            out[x] = _cg.evaluate(c, so, j, vis)
            c[x] += 1
        return out

    def _attack(self, view, c, j, vis, so, allowed) -> int:
        cands = self._cands(c, j, so, vis, allowed)
        if not cands:
            return -1
        least = min(s for s, _ in cands.values())
        aware = view.min_aware
        if aware and least <= 1:
            live, verdict, wild, hope = self._judge(view, j)
            if least == 0:
                k = self._ready_pick(view, c, j, vis, so, allowed, live, verdict, wild)
                if k >= 0:
                    return k
            k = self._valid_step(view, c, j, so, vis, live, verdict, wild,
                                 [x for x, (s, _) in cands.items() if s <= 1])
            if k >= 0:
                return k
        if not plans_of(view.model):
            k, _, _ = self._best(view, c, j, so, vis, allowed)
            return int(k)
        return self._by_plan(view, c, j, so, cands)

    def _ready_pick(self, view, c, j, vis, so, allowed, live, verdict, wild) -> int:
        """Among the discards that leave the hand ready, the one whose waits weigh most:
        live copies of a wait that wins on a discard count 1, of one that wins only
        self-drawn :data:`SELF_DRAWN_ONLY`; -1 when no live wait wins."""
        out = np.zeros(34, dtype=np.uint8)
        melds = tuple(view.own_melds)
        best, key = -1, None
        for x in np.flatnonzero(allowed):
            x = int(x)
            if not c[x]:
                continue
            c[x] -= 1
            if _cg.shanten(c, so, j) == 0:
                _cg.waits(c, so, j, out)
                score = total = 0.0
                for w in np.flatnonzero(out):
                    w = int(w)
                    left = int(live[w]) - int(c[w]) - int(vis[w])
                    if w in wild or left <= 0:
                        continue
                    total += left
                    if not verdict(c, w):
                        continue
                    score += left if self._on_discard(view, c, melds, w) else (
                        SELF_DRAWN_ONLY * left)
                if score > 0:
                    kk = (-score, -total, _centrality(x), x)
                    if key is None or kk < key:
                        best, key = x, kk
            c[x] += 1
        return best

    def _on_discard(self, view, after, melds, w) -> bool:
        """Whether the ready hand ``after`` (+ ``melds``) wins on a discard of ``w`` under
        the ruleset's win predicate (cached per hand)."""
        cache = self.__dict__.setdefault("_disc_cache", {})
        key = (after.tobytes(), melds, w, view.seat_wind, view.prevalent_wind,
               view.flowers[view.seat], view.ruleset)
        got = cache.get(key)
        if got is None:
            from ..hand import _trusted_hand
            from ..scoring import check_win
            h = np.array(after, dtype=np.uint8)
            h.flags.writeable = False
            try:
                got = check_win(_trusted_hand(h, melds), w, ruleset=view.model.ruleset,
                                self_drawn=False, seat_wind=view.seat_wind,
                                prevalent_wind=view.prevalent_wind,
                                flowers=view.flowers[view.seat]).valid
            except MahjongError:
                got = False
            if len(cache) > 1 << 15:
                cache.clear()
            cache[key] = got
        return got

    def _valid_step(self, view, c, j, so, vis, live, verdict, wild, xs) -> int:
        """Among the discards ``xs``, the one with the most weighed valid ukeire: the live
        copies of the draws after which some discard leaves a ready hand with a wait that
        wins, a draw counting 1 when such a wait also wins on a discard and
        :data:`SELF_DRAWN_ONLY` when it wins only self-drawn; -1 when none has any."""
        bound = []
        for x in xs:
            c[x] -= 1
            bound.append((-_valid_ukeire(c, j, so, vis, live, None, wild), _centrality(x), x))
            c[x] += 1
        bound.sort()
        best, top = -1, 0.0
        for nb, _, x in bound:
            if -nb <= top:
                break
            c[x] -= 1
            v = self._weighed_ukeire(view, c, j, so, vis, live, verdict, wild)
            c[x] += 1
            if v > top:
                best, top = x, v
        return best

    def _weighed_ukeire(self, view, c, j, so, vis, live, verdict, wild) -> float:
        """The weighed valid ukeire of the 3n+1 hand ``c`` (see :meth:`_valid_step`): a
        wait that can win on a discard counts 1, one that wins only self-drawn
        :data:`SELF_DRAWN_ONLY` (:func:`~majiang.game.players._valid_ukeire`)."""
        melds = tuple(view.own_melds)

        def weight(c13, w) -> float:
            return 1.0 if self._on_discard(view, c13, melds, w) else SELF_DRAWN_ONLY

        return _valid_ukeire(c, j, so, vis, live, verdict, wild, weight)

    def _by_plan(self, view, c, j, so, cands) -> int:
        melds = tuple(view.own_melds)
        ctx = _context(view, melds)
        vals = _all_dists(c, melds, j, so, ctx)
        vals.sort(key=lambda x: x[0])
        cut = vals[0][0] + 1.0
        top = [p for v, _, p in vals if v <= cut and p is not None][:TOP_PLANS]
        best, key = -1, None
        for x, (s, u) in cands.items():
            c[x] -= 1
            d = min(v for v, _, _ in _all_dists(c, melds, j, so, ctx, top))
            c[x] += 1
            kk = (d, s, -u, _centrality(x), x)
            if key is None or kk < key:
                best, key = x, kk
        return best

    # -- defence ---------------------------------------------------------------
    def _threats(self, view) -> dict:
        from ..opponents import DEFAULT_MODEL
        out = {}
        model = view.model
        for q in range(view.players):
            if q == view.seat or q in view.won:
                continue
            nd = len(view.discards[q])
            nm = sum(1 for m in view.melds[q] if not m[2])
            out[q] = DEFAULT_MODEL.p_ready_prior(model, nd, nm)
        return out

    def _defend(self, view, c, j, so, allowed, k) -> int:
        threats = self._threats(view)
        if not threats or max(threats.values()) < FOLD_P:
            return k
        if int(_cg.shanten(c, so, j)) < FOLD_SHANTEN:     # the best shanten after a discard
            return k
        return self.safest(view, c, allowed, threats, k)

    @staticmethod
    def safest(view, c, allowed, threats, prefer=-1) -> int:
        """The allowed held kind of least cheap danger against ``threats`` (``{seat:
        P(ready)}``; see the module text); ties go to ``prefer``, then honors first."""
        vis = view.visible_counts().astype(np.int64)
        disc = view.discards
        pk = view.play_kind
        n, me = view.players, view.seat
        own_disc, after = {}, {}
        for q in threats:
            own_disc[q] = {pk(t) for t in disc[q]}
            # the latest discard of each seat after q in turn order before this seat
            # (passed by q since its own latest discard; claims make this approximate)
            d = (q - me) % n
            after[q] = {pk(disc[(me + e) % n][-1]) for e in range(d + 1, n)
                        if disc[(me + e) % n]}
        best, key = -1, None
        for x in np.flatnonzero(allowed):
            x = int(x)
            if not c[x]:
                continue
            unseen = max(4 - int(vis[x]) - int(c[x]), 0)
            base = (1 + unseen) / 5.0
            if x >= 27:
                base *= HONOR_FACTOR
            elif x % 9 in (0, 8):
                base *= TERMINAL_FACTOR
            dz = 0.0
            for q, p in threats.items():
                f = 1.0
                if x in own_disc[q]:
                    f *= OWN_FACTOR
                if x in after[q]:
                    f *= PASSED_FACTOR
                dz += p * base * f
            kk = (round(dz, 9), x != prefer, _centrality(x), x)
            if key is None or kk < key:
                best, key = x, kk
        return best

    # -- calls -----------------------------------------------------------------
    def claim(self, view, options):
        if ("win",) in options:
            return ("win",)
        last = view.last_discard
        if last is None or not plans_of(view.model):
            return super().claim(view, options)
        kind = view.play_kind(last[1])
        c, j = view.play_counts()
        if j:
            return super().claim(view, options)
        melds = tuple(view.own_melds)
        open_hand = any(not m.concealed for m in melds)
        now = plan_value(view, c)
        best, key = None, now
        for o in options:
            c2, m = called(c, kind, o)
            if o[0] == "kong":
                if not open_hand:
                    continue
                s0 = int(_cg.shanten(c, view.shape_options(), j))
                s1 = int(_cg.shanten(c2, view.shape_options((m,)), j))
                if s1 <= s0 and best is None:
                    best = o
                continue
            v, name = plan_value(view, c2, (m,), with_plan=True)[:2]
            ready = self._call_can_win(view, c2, j, m)
            if ready is False:
                continue
            if ready is True and READY_CALLS:
                v = min(v, 0.0)         # a ready hand whose wait wins: as good as a plan
            elif name == "general":
                continue
            if v > key - CALL_GAIN:
                continue
            best, key = o, v
        return best

    def _call_can_win(self, view, c2, j, m):
        """After the call ``m`` (counts ``c2``, the hand to discard from): None when its
        least shanten after a discard is not 0 (nothing to judge yet), True when some
        discard leaves a ready hand with a live wait that wins, False otherwise."""
        so = view.shape_options((m,))
        vis = view.visible_counts()
        allowed = self._allowed(view)
        k, s, _ = _cg.choose_discard(c2, so, j, vis, view.voids[view.seat], allowed)
        if k < 0:
            return False
        if s != 0:
            return None
        if not view.min_aware:
            return True
        live = np.array(view.model.shape(tuple(view.own_melds) + (m,)).caps, dtype=np.int64)
        verdict, hope = view.judge_waits(j, (m,))
        wild = () if view.stand_in is not None else view.joker_kinds
        got = self._valid_tenpai(c2, j, vis, so, allowed, live, verdict, wild, hope)
        return got >= 0

    def declare(self, view, options):
        if ("win",) in options:
            return ("win",)
        return super().declare(view, options)

    def __repr__(self) -> str:
        return "ExpertPlayer()"


# the registry lives in players (which the engine asks); this module adds itself, and
# majiang.game imports it, so the name is known wherever majiang.game.players is
BUILTIN_PLAYERS["expert"] = ExpertPlayer

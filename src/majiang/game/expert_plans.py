"""The plans of the ``"expert"`` player (:mod:`majiang.game.expert`): targets a hand can be
built toward under the ruleset, each with a distance in the shanten convention (-1
complete, 0 ready) from the own tiles and melds, and the value of a hand over its plans
(:func:`plan_value`).  The expert's module text states how the plans are chosen and
weighed; the constants below are that policy's, not rules of the game.  Split from
:mod:`majiang.game.expert`, which re-exports the public names."""
from __future__ import annotations

import itertools

import numpy as np

from .._core import FORM_BITS
from .._core import game as _cg

__all__ = ["plan_value", "plans_of", "value_rules"]

SHORT = 0.5
"""Weight added to a plan whose fan alone is below the ruleset's minimum."""
GENERAL_CONCEALED = 1.0
"""Weight of the general plan while the hand holds no claimed meld."""
GENERAL_OPEN = 3.0
"""Weight of the general plan in an open hand."""
FAN_WEIGHT = 0.15
"""Under a doubling ruleset without a minimum (:func:`value_rules`): the distance a plan
may give up per doubling its fan is worth (a plan weighs ``-FAN_WEIGHT * value``)."""
PAIRS_FAN_WEIGHT = 0.0
""":data:`FAN_WEIGHT` for the seven-pairs plan: its waits are one kind (3 copies at most),
so its distance overstates its speed.  0 by default: 0.15 measured -0.075 points per hand
against +0.021 with 0 under 广东 (七对 x2; 1,000 walls x 4 rotations against three
efficiency bots)."""
LIMIT_WEIGHT = 0.0
"""Under :func:`value_rules`: the distance a limit hand (广东 十三幺, 字一色, 清幺九, 大三元:
paid at its own value past the cap) may be further than the nearest hand.  0 by default:
1.5 measured -0.057 points per hand against 0's -0.013 (广东, 1,000 walls x 4 rotations
against three efficiency bots; both within noise of 0)."""
_PUNG_FANS = ("碰碰和", "对对胡", "碰碰胡")
_PAIR_FANS = ("七对", "七对子")

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
    """The plans (:mod:`majiang.game.expert`) of a ruleset's game model: under a minimum
    fan the 8-fan targets named in its catalogue, under :func:`value_rules` the fans that
    pay (:func:`_value_plans`), else empty."""
    got = _PLANS.get(id(model))
    if got is not None and got[0] is model:
        return got[1]
    out = []
    mf = int(model.min_fan)
    if value_rules(model):
        out = _value_plans(model)
    elif mf > 0:
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


def value_rules(model) -> bool:
    """Whether plans weigh their fan's value (a ruleset whose fans are doublings and that
    has no minimum: 四川 血战, 广东 推倒胡 …) rather than the reach of a minimum."""
    return int(model.min_fan) == 0 and model.ruleset.scoring.mode == "double"


def _value_plans(model) -> list:
    """The plans of a :func:`value_rules` ruleset, read from its fan catalogue: 清一色 /
    混一色 per suit, the all-pungs fan, seven pairs; each weighs ``-FAN_WEIGHT`` times
    its value in doublings (up to the ruleset's cap)."""
    rs = model.ruleset
    cap = rs.scoring.cap
    value = {}
    for f in rs.fans:
        if int(f.id) not in rs.scoring.limit:
            value[f.chinese] = int(f.value) if cap is None else min(int(f.value), int(cap))
    honors = bool(np.asarray(model.shape(()).caps)[27:].any())
    out = []

    def w(name):
        return -FAN_WEIGHT * value[name]
    for s in range(3):
        ok = np.zeros(34, dtype=bool)
        ok[9 * s:9 * s + 9] = True
        if value.get("清一色", 0) > 0:
            out.append(_Plan("清一色", "suit", ok, w("清一色")))
        if honors and value.get("混一色", 0) > 0:
            ok2 = ok.copy()
            ok2[27:] = True
            out.append(_Plan("混一色", "suit", ok2, w("混一色")))
    for name in _PUNG_FANS:
        if value.get(name, 0) > 0:
            out.append(_Plan(name, "pungs", None, w(name)))
            break
    if "seven_pairs" in model.forms:
        for name in _PAIR_FANS:
            if value.get(name, 0) > 0:
                out.append(_Plan(name, "pairs", bool(model.seven_pairs_quads),
                                 -PAIRS_FAN_WEIGHT * value[name]))
                break
    limits = {f.chinese for f in rs.fans if int(f.id) in rs.scoring.limit}
    if "十三幺" in limits and "thirteen_orphans" in model.forms:
        out.append(_Plan("十三幺", "form", FORM_BITS["thirteen_orphans"], -LIMIT_WEIGHT))
    if honors and "字一色" in limits:
        ok = np.zeros(34, dtype=bool)
        ok[27:] = True
        out.append(_Plan("字一色", "suit", ok, -LIMIT_WEIGHT))
    if "清幺九" in limits:
        ok = np.zeros(34, dtype=bool)
        ok[[0, 8, 9, 17, 18, 26]] = True
        out.append(_Plan("清幺九", "suit", ok, -LIMIT_WEIGHT))
    if honors and "大三元" in limits:
        out.append(_Plan("大三元", "dragons", (31, 32, 33), -LIMIT_WEIGHT))
    return out


def _dragons_dist(c, melds, dragons, avail) -> int:
    """Distance of 大三元: a pung (or kong) of each of ``dragons``, one more set and a
    pair; dead when a dragon lacks the copies."""
    other = 0
    need = list(dragons)
    for m in melds:
        if m.kind in ("pung", "kong") and m.tile in need:
            need.remove(m.tile)
        else:
            other += 1
    if other > 1:
        return _IMPOSSIBLE
    used = 0
    rest = np.asarray(c, dtype=np.int64).copy()
    for d in need:
        have = min(int(rest[d]), 3)
        if 3 - have > int(avail[d]) - int(rest[d]):
            return _IMPOSSIBLE
        used += have
        rest[d] -= have
    prog = _rest_prog(rest, other == 0)
    size = 3 * (4 - len(melds)) + 2
    return size - used - prog - 1


def _pairs_dist(c, melds, quads: bool) -> int:
    """Distance of seven pairs (a concealed hand): ``6 - pairs``, a four counting two
    pairs when ``quads``, else one pair and a missing kind."""
    if melds:
        return _IMPOSSIBLE
    cc = np.asarray(c, dtype=np.int64)
    if quads:
        return 6 - int((cc // 2).sum())
    pairs = int((cc >= 2).sum())
    kinds = int((cc >= 1).sum())
    return 6 - pairs + max(0, 7 - kinds)


def _rest_prog(r, need_set: bool) -> int:
    """Useful tiles of ``r`` (counts (34,)) toward one more set (when ``need_set``) and a
    pair (the compiled counter: this runs for every plan of every discard)."""
    return int(_cg.rest_progress(np.ascontiguousarray(r, dtype=np.int64), bool(need_set)))


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
    d = _cg.chow_plan_distance(np.ascontiguousarray(c, dtype=np.uint8),
                               np.ascontiguousarray(avail, dtype=np.int64), left, other,
                               len(melds))
    return _IMPOSSIBLE if d < 0 else int(d)


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
    if plan.kind == "form":
        if melds:
            return _IMPOSSIBLE
        pso = _cg.ShapeOpts(plan.data, so.quads, None, so.pair_mask, so.void_suits, so.fifth,
                            np.asarray(live, dtype=np.uint8))
        return int(_cg.shanten(c, pso, j))
    if plan.kind == "dragons":
        return _dragons_dist(c, melds, plan.data, avail)
    if plan.kind == "pairs":
        return _pairs_dist(c, melds, plan.data)
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
    """(avail, live, plans, concealed?, value rules?) for plan distances."""
    live = np.array(view.model.shape(melds).caps, dtype=np.uint8)
    vis = view.visible_counts().astype(np.int64)
    own = np.zeros(34, dtype=np.int64)
    for m in melds:
        for t in m.tiles:
            own[t] += 1
    avail = 4 - vis - own
    concealed = all(m.concealed for m in melds)
    return avail, live, plans_of(view.model), concealed, value_rules(view.model)


def _all_dists(c, melds, j, so, ctx, plans=None):
    """[(value, name, plan)] over the ruleset's plans and the general plan."""
    avail, live, all_plans, concealed, valued = ctx
    sh = int(_cg.shanten(c, so, j))
    if all_plans and not valued:
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

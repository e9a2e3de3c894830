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
GENERAL_CONCEALED = 1.5
"""Weight of the general plan while the hand holds no claimed meld.  Four experts under
mcr_botzone, the same walls (hands 20,000-29,999 / 30,000-39,999 of seed 0): 1.0 gave 294 /
291 drawn hands, 1.5 275 / 276 (the hands drawn under one value only: 319 against 285
over both blocks), 2.0 272 / 290, 0.5 327 on the first; the mean fan of a win 12.55,
12.34, 11.89, 12.79.  On hands 0-19,999: 624 drawn with 1.0, 529 with 1.5
(``bench/bench_realism.py``)."""
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
    __slots__ = ("name", "kind", "data", "weight", "general", "index")

    def __init__(self, name, kind, data, weight, general=False):
        self.name, self.kind, self.data, self.weight, self.general = (
            name, kind, data, weight, general)
        self.index = -1         # its place among the ruleset's plans (plans_of)

    def __repr__(self) -> str:
        return f"_Plan({self.name!r}, {self.kind}, {self.data!r})"


_PLANS: dict = {}


def plans_of(model) -> tuple:
    """The plans (:mod:`majiang.game.expert`) of a ruleset's game model: under a minimum
    fan the 8-fan targets named in its catalogue, under :func:`value_rules` the fans that
    pay (:func:`_value_plans`), else empty."""
    return _plan_set(model)[0]


def _plan_set(model) -> tuple:
    """``(plans, compiled plans)`` of :func:`plans_of` (cached per model)."""
    got = _PLANS.get(id(model))
    if got is not None and got[0] is model:
        return got[1:]
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
    for i, p in enumerate(res):
        p.index = i
    ps = _cg.PlanSet([(p.kind, p.data, p.weight) for p in res])
    _PLANS[id(model)] = (model, res, ps)
    return res, ps


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


def plan_value(view, c=None, extra_melds=(), plans=None, with_plan=False, general=True):
    """The least plan distance + weight (float) of the seat's hand over ``plans`` (default
    the ruleset's, :func:`plans_of`) and, with ``general``, the general plan.  ``c``:
    ``uint8 (34,)`` counts as played (default the own concealed tiles); ``extra_melds``:
    a call being weighed (:class:`~majiang.hand.Meld`).  With ``with_plan``: ``(value,
    plan name or "general", plan)``; a value of 99 or more: no plan reachable.  Ties go
    to the general plan, then to the first of ``plans``."""
    if c is None:
        c, _ = view.play_counts()
    j = view.play_counts()[1]
    melds = tuple(view.own_melds) + tuple(extra_melds)
    so = view.shape_options(tuple(extra_melds))
    ctx = _context(view, melds)
    vals = _values(c, melds, j, so, ctx)
    all_plans = ctx[2]
    order = range(len(all_plans)) if plans is None else [p.index for p in plans]
    best, bp = (vals[0], None) if general else (float(_IMPOSSIBLE), None)
    alive = general
    for i in order:
        v = vals[i + 1]
        if v < _IMPOSSIBLE_VALUE and (not alive or v < best):
            best, bp, alive = v, all_plans[i], True
    best = float(best)
    if not with_plan:
        return best
    return best, ("general" if bp is None else bp.name), bp


_IMPOSSIBLE_VALUE = float("inf")


def _context(view, melds):
    """(avail, compiled plans, plans, concealed?, value rules?) for plan distances:
    ``avail`` (int64 (34,)) the copies of each kind not seen outside the own hand."""
    vis = view.visible_counts().astype(np.int64)
    own = np.zeros(34, dtype=np.int64)
    for m in melds:
        for t in m.tiles:
            own[t] += 1
    avail = 4 - vis - own
    concealed = all(m.concealed for m in melds)
    plans, ps = _plan_set(view.model)
    return avail, ps, plans, concealed, value_rules(view.model)


def _general_weight(ctx) -> float:
    """The general plan's weight: :data:`GENERAL_CONCEALED` / :data:`GENERAL_OPEN` beside
    fan plans under a minimum fan, else 0."""
    _, _, all_plans, concealed, valued = ctx
    if all_plans and not valued:
        return GENERAL_CONCEALED if concealed else GENERAL_OPEN
    return 0.0


def _values(c, melds, j, so, ctx) -> np.ndarray:
    """``float64 (1 + plans,)``: the general plan's value (the shanten + its weight),
    then each plan's distance + weight in the order of :func:`plans_of` (``inf``: not
    reachable, every plan while jokers are held), by the compiled kernels
    (:func:`majiang._core.game.plan_values`)."""
    avail, ps, all_plans = ctx[:3]
    out = np.empty(1 + len(all_plans))
    sh = _cg.plan_values(ps, np.ascontiguousarray(c, dtype=np.uint8), so, int(j), melds,
                         avail, out[1:])
    out[0] = sh + _general_weight(ctx)
    return out


def _minima(c, melds, j, so, ctx, plans, discards) -> np.ndarray:
    """``float64 (len(discards),)``: for each held kind of ``discards``, the least value
    after discarding it over the general plan and the plans of index ``plans``
    (:func:`majiang._core.game.plan_minima`)."""
    avail, ps = ctx[:2]
    out = np.empty(len(discards))
    _cg.plan_minima(ps, np.ascontiguousarray(c, dtype=np.uint8), so, int(j),
                    _general_weight(ctx), melds, avail, np.asarray(plans, dtype=np.int64),
                    np.asarray(discards, dtype=np.int64), out)
    return out

"""Fan odds (番种概率): which fans a hand wins with, and how big the win is.

:func:`fan_odds` plays the probability model of :mod:`majiang.probability` (one
player, self-draws from the ruleset's wall, horizon ``T``) under any ruleset that
scores hands, and reports for every fan the probability of *winning with that fan*
within the horizon, plus the distribution of the winning fan total and of the
points (the ruleset's scoring rule: 番 added, doubled, capped …).

Every win is judged and scored by THE win predicate
(:func:`majiang.scoring.check_win`, self-drawn): the ruleset's tile set, jokers,
constraints and minimum fan all apply.  Exact when the exact search is used: over
the true wall for ``T <= 2`` (``TRUE_WALL_WINS_MAX_DRAWS``): the kernel's distribution
of the winning hands of the optimal play, the same play whose win probability
:func:`~majiang.probability.win_probability` reports (among discards of equal win
probability the drawn tile is thrown back first, then a joker, then the lowest kind;
under the 2-5-8-pair rulesets 长沙 / 合肥 / 武汉 the engine's own expectimax with the
ruleset's shanten); else read off the forward pass of the kind-count model S1
(``changes<=0`` unless ``changes`` is given); otherwise Monte Carlo over real walls
with standard errors.  The policy maximises the probability of winning, not the fan
total; the ``policy`` / ``model`` columns name it.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .probability import (
    DEFAULT_MAX_STATES, DEFAULT_SAMPLES, _auto_method, _fourteen, _points, _run, _setup, _win_outcomes,
)

__all__ = ["fan_odds"]


def fan_odds(hand: Any, draws: int, *, ruleset: Any = None, visible: Any = None,
             method: str = "auto", seed: Any = 0, n_samples: int = DEFAULT_SAMPLES,
             policy: str | None = None,
             changes: int | None = None, n_jobs: int | None = 1,
             max_states: int = DEFAULT_MAX_STATES, indicator: Any = None, seat_wind: Any = 0,
             prevalent_wind: Any = 0, void: Any = None):
    """Probability of winning with each fan within ``draws`` self-draws.

    Parameters
    ----------
    hand : str, Hand, array_like of shape (34,) or Position
        A hand waiting to draw (the ruleset's hand size counting melds); a hand that
        must discard is played from its discard with the highest win probability.  A
        :class:`~majiang.position.Position` gives the hand, ``visible``, ``ruleset``,
        ``indicator`` and the winds (as in :func:`majiang.advise`).
    draws : int
        Horizon (number of draws).
    ruleset : None, str, Ruleset, GameModel or .toml path
        Any ruleset (every registered one scores hands).  Default ``None``: Chinese
        Official rules (``"mcr"``), as every function given no ruleset.
    visible, method, seed, n_samples, policy, changes, n_jobs, max_states, indicator,
    seat_wind, prevalent_wind, void
        As :func:`majiang.probability.probabilities` (``void``: the declared void suit,
        定缺, under a ruleset with a void suit).

    Returns
    -------
    pandas.DataFrame
        Long format, columns ``category`` (``"win"``: one row, the win probability;
        ``"fan"``: one row per fan seen, name ``"<Chinese> <English>"``; ``"total"``:
        one row per winning fan total, name the total as a string; ``"points"``: one
        row per points value under the ruleset's scoring rule), ``name``,
        ``probability`` (float: P(win with this fan / total / points within the
        horizon); the ``"total"`` and ``"points"`` rows each sum to the win
        probability), ``se`` (standard error, 0.0 when exact), ``method``,
        ``model``, ``policy``.  Fan rows are sorted by probability, totals and points
        by value.  ``df.attrs`` holds ``exp_score`` (expected points, 0 for no win),
        ``mean_fan`` (mean fan total given a win) and ``note``.

    Raises
    ------
    RuleError
        Bad options as in ``probabilities``.
    KeyboardInterrupt
        Propagated unchanged.
    """
    import pandas as pd

    if type(hand).__name__ == "Position":
        from .position import analysis_inputs
        hand, kw = analysis_inputs(hand, "fan_odds", dict(
            visible=visible, ruleset=ruleset, indicator=indicator, seat_wind=seat_wind,
            prevalent_wind=prevalent_wind))
        visible, ruleset, indicator = kw["visible"], kw["ruleset"], kw.get("indicator")
        seat_wind, prevalent_wind = kw["seat_wind"], kw["prevalent_wind"]
    if void is not None:
        from .rules.derived import with_void
        ruleset = with_void(ruleset, void)
    method = _auto_method(method, policy)      # a named policy is honoured under "auto"
    pos, engine, n_samples = _setup(hand, draws, None if visible is None else visible, ruleset,
                                    method, policy, n_samples, changes, max_states, indicator,
                                    seat_wind, prevalent_wind)
    if (int(pos.counts.sum()) + pos.jokers) % 3 == 1:
        res = _run(engine, pos.counts, pos.jokers, method, policy, n_samples, seed, n_jobs,
                   keep_wins=True)
    else:
        res = _fourteen(engine, pos, method, policy, n_samples, seed, n_jobs, keep_wins=True)
    fan_p: dict[str, float] = {}
    total_p: dict[int, float] = {}
    points_p: dict[int, float] = {}
    for w, r in _win_outcomes(pos, res):
        total_p[int(r.total)] = total_p.get(int(r.total), 0.0) + w
        pts = _points(pos.model, r)
        points_p[pts] = points_p.get(pts, 0.0) + w
        for f in r.fans:
            name = f"{f.chinese} {f.english}"
            fan_p[name] = fan_p.get(name, 0.0) + w
    exact = res.method == "exact"
    ns = res.n_samples

    def se(p: float) -> float:
        return 0.0 if exact else float(np.sqrt(max(p * (1 - p), 0.0) / ns))

    tag = (res.method, res.model, res.policy)
    rows = [("win", "win", res.p_win, se(res.p_win), *tag)]
    for name, p in sorted(fan_p.items(), key=lambda kv: (-kv[1], kv[0])):
        rows.append(("fan", name, p, se(p), *tag))
    for total in sorted(total_p):
        rows.append(("total", str(total), total_p[total], se(total_p[total]), *tag))
    for pts in sorted(points_p):
        rows.append(("points", str(pts), points_p[pts], se(points_p[pts]), *tag))
    df = pd.DataFrame(rows, columns=["category", "name", "probability", "se", "method", "model",
                                     "policy"])
    won = sum(total_p.values())
    df.attrs.update(
        exp_score=float(sum(p * v for v, p in points_p.items())),
        mean_fan=float(sum(p * v for v, p in total_p.items()) / won) if won > 0 else float("nan"),
        note=res.note, ruleset=pos.name)
    return df

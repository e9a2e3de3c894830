"""Fan odds (番种概率): which fans a hand wins with, and how big the win is.

:func:`fan_odds` plays the probability model of :mod:`majiang.probability` (one
player, self-draws from a random wall, horizon ``T``) under a ruleset with a
scorer, and reports for every fan the probability of *winning with that fan*
within the horizon, plus the distribution of the winning fan total.

Exact when the exact search is used (the win distribution over final hands is
read off the optimal policy's forward pass), otherwise Monte Carlo over real
walls with standard errors.  The policy maximises the probability of winning,
not the fan total.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .errors import RuleError
from .probability import (
    DEFAULT_MAX_STATES, DEFAULT_SAMPLES, _check_changes, _check_discard_hand, _check_draws,
    _check_method, _check_samples, _discards, _Engine, _position, _run,
)

__all__ = ["fan_odds"]


def fan_odds(hand: Any, draws: int, *, ruleset: Any, visible: Any = None, method: str = "auto",
             seed: Any = None, n_samples: int = DEFAULT_SAMPLES, policy: str | None = None,
             changes: int = 0, n_jobs: int | None = 1, max_states: int = DEFAULT_MAX_STATES):
    """Probability of winning with each fan within ``draws`` self-draws.

    Parameters
    ----------
    hand : str, Hand or array_like of shape (34,)
        A hand waiting to draw (13 tiles counting melds); a hand that must discard
        (14) is played from its discard with the highest win probability.
    draws : int
        Horizon (number of draws).
    ruleset : str, Ruleset or WinRule
        Must provide a scorer (e.g. ``"mcr"``); see :func:`majiang.probability.win_rule`.
    visible, method, seed, n_samples, policy, changes, n_jobs, max_states
        As :func:`majiang.probability.probabilities`.

    Returns
    -------
    pandas.DataFrame
        Long format, columns ``category`` (``"win"``: one row, the win probability;
        ``"fan"``: one row per fan seen, name ``"<Chinese> <English>"``; ``"total"``:
        one row per winning fan total, name the total as a string), ``name``,
        ``probability`` (float: P(win with this fan / this total within the
        horizon); the ``"total"`` rows sum to the win probability), ``se``
        (standard error, 0.0 when exact), ``method``.  Fan rows are sorted by
        probability, totals by value.

    Raises
    ------
    RuleError
        The ruleset has no scorer; bad options as in ``probabilities``.
    """
    import pandas as pd

    from .probability import win_rule

    rule = win_rule(ruleset)
    if rule.score is None:
        raise RuleError(f"fan_odds needs a ruleset with a scorer; {rule.name!r} has none "
                        "(try ruleset='mcr')")
    _check_method(method, policy)
    n_samples = _check_samples(n_samples)
    changes = _check_changes(changes)
    pos = _position(hand, visible, rule)
    T = _check_draws(draws, pos.U)
    engine = _Engine(pos, T, changes, max_states)
    n = int(pos.counts.sum())
    if n % 3 == 1:
        res = _run(engine, pos.counts, method, policy, n_samples, seed, n_jobs, keep_wins=True)
    else:
        _check_discard_hand(pos)
        all_res = _discards(engine, pos, method, policy, n_samples, seed, n_jobs,
                            all_discards=False, keep_wins=True)
        res = max((r for r in all_res.values() if r is not None),
                  key=lambda r: (r.p_win, r.p_tenpai))
    fan_p: dict[str, float] = {}
    total_p: dict[int, float] = {}
    cache: dict = {}
    if res._winning is not None:
        hands, tiles, weights, _ = res._winning
        for h13, k, w in zip(hands, tiles, weights):
            key = (h13.tobytes(), int(k))
            if key not in cache:
                h14 = h13.copy()
                h14[k] += 1
                cache[key] = rule.score(h14, pos.melds, int(k))
            total, fans = cache[key]
            total_p[total] = total_p.get(total, 0.0) + float(w)
            for name in fans:
                fan_p[name] = fan_p.get(name, 0.0) + float(w)
    exact = res.method == "exact"
    ns = res.n_samples

    def se(p: float) -> float:
        return 0.0 if exact else float(np.sqrt(max(p * (1 - p), 0.0) / ns))

    rows = [("win", "win", res.p_win, se(res.p_win), res.method)]
    for name, p in sorted(fan_p.items(), key=lambda kv: (-kv[1], kv[0])):
        rows.append(("fan", name, p, se(p), res.method))
    for total in sorted(total_p):
        rows.append(("total", str(total), total_p[total], se(total_p[total]), res.method))
    return pd.DataFrame(rows, columns=["category", "name", "probability", "se", "method"])

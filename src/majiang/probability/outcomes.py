"""Winning hands of a result kept with ``keep_wins``: their fans and points (fan odds,
expected score), scored by THE win predicate, self-drawn."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..rules.model import GameModel
from .limits import JOKER
from .position import _Position, _WinPred
from .results import Probabilities


def _points(model: GameModel, r: Any) -> int:
    """Points of a scored win: ``RegionalResult.points``, else the ruleset's
    :class:`~majiang.rules.base.ScoringRule` applied to the fan total."""
    pts = getattr(r, "points", None)
    if pts is not None:
        return int(pts)
    return int(model.ruleset.points(int(r.total), [f.id for f in r.fans]))


def _win_outcomes(pos: _Position, res: Probabilities) -> list:
    """``[(weight, FanResult)]`` over the winning hands of ``res`` (computed with
    ``keep_wins``): weight = probability of winning with that hand and tile (exact)
    or 1/n per won wall (Monte Carlo).  Scored by THE win predicate (self-drawn)."""
    if res._winning is None:
        return []
    hands, tiles, weights, jokers = res._winning[:4]
    pred = pos.pred if pos.pred is not None else _WinPred(pos.model, pos.melds, {})
    out = []
    for h13, k, w, nj in zip(hands, tiles, weights, jokers):
        k, nj = int(k), int(nj)
        h14 = np.array(h13, dtype=np.uint8)
        if k == JOKER:
            nj += 1
        else:
            h14[k] += 1
        r = pred.result(h14, k, nj)
        if r is not None:
            out.append((float(w), r))
    return out


def _score_summary(pos: _Position, res: Probabilities) -> tuple[float, float]:
    """``(exp_score, mean_fan)`` of a result computed with ``keep_wins``: expected
    points within the horizon (0 for no win) and the mean fan total given a win
    (NaN without a win)."""
    outs = _win_outcomes(pos, res)
    if not outs:
        return 0.0, float("nan")
    tot_w = sum(w for w, _ in outs)
    exp = sum(w * _points(pos.model, r) for w, r in outs)
    fan = sum(w * int(r.total) for w, r in outs)
    return float(exp), float(fan / tot_w) if tot_w > 0 else float("nan")

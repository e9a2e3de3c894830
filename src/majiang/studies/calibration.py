"""How honest is ``p_deal_in``?  Calibration of :func:`majiang.danger` against the truth.

:func:`danger_calibration` plays hands of four built-in ``"efficiency"`` players
(:func:`majiang.simulate` with event logs) and, at each discard decision, builds the
discarding seat's view (:meth:`majiang.Position.from_log`), asks the danger model for
``p_deal_in`` of the tile actually discarded, and records the truth the engine knows:
**did the discard complete a valid win for some opponent** — the engine offered some
opponent a win on it (a ``"claim"`` event whose options include ``["win"]``).  The engine
offers a win exactly when the opponent's actual concealed tiles and melds make a win that
the ruleset's own predicate accepts on a discard (minimum fan, 缺一门, pass locks, …),
whether or not the opponent then takes it; so the truth is "could win", not "chose to".

The hands are split in two halves by hand index (even: the *fit* half, odd: the *test*
half).  Two baselines are fitted on the fit half only and every score is computed on the
test half, for the model and both baselines in the same run:

- ``seen``: the observed deal-in rate of the fit half for each number of copies seen
  (:attr:`majiang.Position.visible_counts` of the discarded kind, the ``seen`` column of
  :func:`majiang.danger`); a count absent from the fit half gets the fit half's base rate;
- ``constant``: the base rate of the fit half.

Scores: the Brier score (mean squared error of the probability), the AUC (the
probability that a random deal-in discard gets a higher p than a random safe one, ties
counted one half; rank-based, Mann–Whitney) and a reliability table (bins of equal count
by p, :func:`reliability_table`: mean p, observed rate, count and the binomial standard error
``sqrt(rate (1 - rate) / n)`` of the observed rate).  Discards of one hand are not
independent; the standard errors treat them as if they were.

Tiles are kind indices 0..33.
"""
from __future__ import annotations

import concurrent.futures as cf
import os
from typing import Any

import numpy as np

from .._parallel import resolve_n_jobs, spawn_seeds, watch_parent
from ..errors import RuleError

__all__ = ["danger_calibration", "brier_score", "auc_score", "reliability_table",
           "discard_truths", "botzone_calibration", "fit_recalibration"]

CHUNK = 4
"""Hands per work item (the seeds are split by work item, so results do not depend on
``n_jobs``)."""


# -- scores -------------------------------------------------------------------------------
def brier_score(p: Any, y: Any) -> float:
    """Mean of ``(p - y)^2`` over paired probabilities ``p`` and 0/1 outcomes ``y``
    (float arrays of one length).  Raises :class:`RuleError` on empty or unequal inputs."""
    p, y = _pair(p, y)
    return float(np.mean((p - y) ** 2))


def auc_score(p: Any, y: Any) -> float:
    """Area under the ROC curve of scores ``p`` for 0/1 outcomes ``y``: the probability
    that a random positive has a higher score than a random negative, ties counted one
    half (Mann–Whitney U / (n1 n0), with mid-ranks).  ``nan`` when one class is absent."""
    from scipy.stats import rankdata
    p, y = _pair(p, y)
    pos = y > 0.5
    n1 = int(pos.sum())
    n0 = len(y) - n1
    if n1 == 0 or n0 == 0:
        return float("nan")
    r = rankdata(p)
    return float((r[pos].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))


def reliability_table(p: Any, y: Any, bins: int = 10, *, strategy: str = "quantile"):
    """Reliability table of probabilities ``p`` against 0/1 outcomes ``y``.

    ``strategy="quantile"`` (default): the discards sorted by ``p`` (stable) and cut into
    ``bins`` groups of nearly equal size (``numpy.array_split``), which keeps every bin
    populated when most probabilities are small; ``"uniform"``: ``bins`` equal-width bins
    on [0, 1] (the last one closed).  Returns a DataFrame, one row per non-empty bin:
    ``lo``, ``hi`` (the bin's edges: its smallest and largest p for quantile bins),
    ``n``, ``mean_p``, ``rate`` (observed share of 1s), ``se``
    (``sqrt(rate (1 - rate) / n)``), ``gap`` (``rate - mean_p``).

    Raises :class:`RuleError` on bad inputs.
    """
    import pandas as pd
    p, y = _pair(p, y)
    if not isinstance(bins, (int, np.integer)) or bins < 1:
        raise RuleError(f"bins must be a positive int, got {bins!r}")
    groups = []
    if strategy == "quantile":
        order = np.argsort(p, kind="stable")
        for g in np.array_split(order, min(bins, len(p))):
            groups.append((float(p[g].min()), float(p[g].max()), g))
    elif strategy == "uniform":
        edges = np.linspace(0.0, 1.0, bins + 1)
        idx = np.clip(np.searchsorted(edges, p, side="right") - 1, 0, bins - 1)
        for b in range(bins):
            groups.append((float(edges[b]), float(edges[b + 1]), np.flatnonzero(idx == b)))
    else:
        raise RuleError(f'strategy must be "quantile" or "uniform", got {strategy!r}')
    rows = []
    for lo, hi, g in groups:
        n = len(g)
        if n == 0:
            continue
        rate = float(y[g].mean())
        mp = float(p[g].mean())
        rows.append({"lo": lo, "hi": hi, "n": n, "mean_p": mp, "rate": rate,
                     "se": float(np.sqrt(rate * (1 - rate) / n)), "gap": rate - mp})
    return pd.DataFrame(rows, columns=["lo", "hi", "n", "mean_p", "rate", "se", "gap"])


def fit_recalibration(p_raw: Any, y: Any, *, eps: float | None = None) -> tuple[float, float]:
    """``(a, b)`` of the recalibration ``logit p = a + b logit(p_raw + eps)`` (step 6 of
    :mod:`majiang.opponents`; Platt scaling) fitted by maximum likelihood to raw
    probabilities ``p_raw`` and 0/1 outcomes ``y`` (float arrays of one length):
    a logistic regression on the one feature ``logit(p_raw + eps)``
    (:func:`scipy.optimize.minimize`, BFGS with the exact gradient; the log-likelihood is
    concave).  ``eps`` defaults to :data:`majiang.opponents.CALIBRATION_EPS`.

    Raises :class:`RuleError` on empty or unequal inputs or when one outcome is absent
    (no finite maximum)."""
    from scipy.optimize import minimize
    from scipy.special import expit, log_expit
    from ..opponents import CALIBRATION_EPS
    p, yy = _pair(p_raw, y)
    if yy.min() == yy.max():
        raise RuleError("fitting a recalibration needs both outcomes among the discards")
    e = CALIBRATION_EPS if eps is None else float(eps)
    xr = np.clip(p + e, 1e-12, 1.0 - 1e-9)
    X = np.column_stack([np.ones_like(xr), np.log(xr / (1.0 - xr))])

    def nll(theta: np.ndarray) -> tuple[float, np.ndarray]:
        z = X @ theta
        ll = yy * log_expit(z) + (1.0 - yy) * log_expit(-z)
        return -float(ll.sum()), -(X.T @ (yy - expit(z)))
    res = minimize(nll, np.array([0.0, 1.0]), jac=True, method="BFGS",
                   options={"gtol": 1e-8})
    return float(res.x[0]), float(res.x[1])


def _pair(p: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    p = np.asarray(p, dtype=float).ravel()
    y = np.asarray(y, dtype=float).ravel()
    if len(p) == 0 or len(p) != len(y):
        raise RuleError(f"need equal, non-empty p and outcomes, got {len(p)} and {len(y)}")
    return p, y


# -- truth from an engine log -------------------------------------------------------------
def discard_truths(log: list) -> dict[int, bool]:
    """``{step: dealt_in}`` for every discard decision of one hand's event log: True when
    the engine offered some opponent a win on that discard (a ``"claim"`` event right after
    it whose options include ``["win"]``).  Forced discards (a locked 血流 hand) are left
    out: they are not decisions."""
    out: dict[int, bool] = {}
    cur = None
    for i, e in enumerate(log):
        k = e["e"]
        if k == "discard":
            cur = None
            if not e.get("forced"):
                cur = i
                out[i] = False
        elif k == "claim" and cur is not None:
            if any(list(o) == ["win"] for o in e.get("options", ())):
                out[cur] = True
        elif k not in ("win",):
            cur = None
    return out


def _chunk(ruleset: str, n: int, seed: Any, max_discards: int | None, n_samples: int) -> list:
    from ..game.runner import simulate
    from ..position import Position
    from ..reading import danger_arrays
    rng = np.random.default_rng(seed.generate_state(2))
    df = simulate(ruleset, n, logs=True, n_jobs=1, progress=False, seed=seed)
    rows = []
    for h, log in enumerate(df["log"]):
        truth = discard_truths(log)
        steps = sorted(truth)
        if max_discards is not None and len(steps) > max_discards:
            steps = sorted(rng.choice(steps, size=max_discards, replace=False).tolist())
        for st in steps:
            pos = Position.from_log(log, st)
            t = int(log[st]["tile"])
            a = danger_arrays(pos, n_samples=n_samples, seed=0, loss=False)
            rows.append((h, st, pos.seat, t, float(a["p"][t]), float(a["p_se"][t]),
                         int(pos.visible_counts()[t]), bool(truth[st]),
                         float(a["p_raw"][t])))
    return rows


def danger_calibration(ruleset: Any, n_hands: int, *, seed: Any = 0, n_jobs: Any = None,
                       bins: int = 10, max_discards: int | None = None,
                       n_samples: int | None = None) -> dict:
    """Calibrate :func:`majiang.danger`'s ``p_deal_in`` on simulated discards.

    Parameters
    ----------
    ruleset : str
        A registered ruleset name (``"mcr"``, ``"sichuan"``, ``"guangdong"``, …).
    n_hands : int
        Hands of four built-in efficiency players.
    seed : int, SeedSequence, Generator or None
        Default 0; split by work item of :data:`CHUNK` hands.
    n_jobs : int or None
        Worker processes (see :mod:`majiang._parallel`); the result does not depend on it.
    bins : int
        Bins of the reliability tables (equal count, :func:`reliability_table`).
    max_discards : int or None
        Discards sampled per hand (uniformly, without replacement); None: every discard
        decision.  Sampling spreads the cost over more hands.
    n_samples : int or None
        Ready hands per opponent of the danger model (default its own default).

    Returns
    -------
    dict
        ``"discards"``: DataFrame, one row per discard studied: ``hand``, ``step`` (index
        in the log), ``seat``, ``tile`` (kind), ``p`` (the model's p_deal_in), ``p_se``,
        ``p_raw`` (before the recalibration, step 6 of :mod:`majiang.opponents`),
        ``copies_seen``, ``truth`` (bool), ``half`` (``"fit"`` or ``"test"``),
        ``p_seen``, ``p_constant`` (the baselines' probabilities);
        ``"scores"``: DataFrame indexed by predictor (``model``, ``seen``, ``constant``)
        with ``brier``, ``auc``, ``n`` on the test half;
        ``"reliability"``: ``{predictor: reliability table}`` on the test half;
        ``"model"``: the danger model's name; ``"ruleset"``, ``"n_hands"``.

    Raises
    ------
    RuleError
        A bad ``n_hands``, ``n_jobs``, ``seed``, ``bins`` or ``max_discards``.
    """
    import pandas as pd
    from ..opponents import DEFAULT_MODEL, DEFAULT_SAMPLES
    from ..rules import get as get_ruleset
    name = ruleset if isinstance(ruleset, str) else getattr(ruleset, "name", None)
    get_ruleset(name)
    if not isinstance(n_hands, (int, np.integer)) or n_hands < 2:
        raise RuleError(f"n_hands must be an int >= 2, got {n_hands!r}")
    if max_discards is not None and (not isinstance(max_discards, (int, np.integer))
                                     or max_discards < 1):
        raise RuleError(f"max_discards must be a positive int or None, got {max_discards!r}")
    ns = DEFAULT_SAMPLES if n_samples is None else int(n_samples)
    items = [(a, min(a + CHUNK, n_hands)) for a in range(0, n_hands, CHUNK)]
    seeds = spawn_seeds(seed, len(items))
    workers = min(resolve_n_jobs(n_jobs, auto=len(items) if n_hands >= 40 else 1), len(items))
    args = [(name, b - a, s, max_discards, ns) for (a, b), s in zip(items, seeds)]
    if workers > 1:
        with cf.ProcessPoolExecutor(max_workers=workers, initializer=watch_parent,
                                    initargs=(os.getpid(),)) as ex:
            parts = list(ex.map(_chunk, *zip(*args)))
    else:
        parts = [_chunk(*x) for x in args]
    rows = [(a + r[0],) + r[1:] for (a, _), part in zip(items, parts) for r in part]
    df = pd.DataFrame(rows, columns=["hand", "step", "seat", "tile", "p", "p_se",
                                     "copies_seen", "truth", "p_raw"])
    out = score(df, bins=bins)
    out.update({"model": DEFAULT_MODEL.name, "ruleset": name, "n_hands": int(n_hands)})
    return out


def score(df: Any, *, bins: int = 10) -> dict:
    """Fit the baselines on the even hands, score model and baselines on the odd hands.
    ``df`` has columns ``hand``, ``p``, ``copies_seen``, ``truth``; returns the
    ``discards`` / ``scores`` / ``reliability`` entries of :func:`danger_calibration`."""
    import pandas as pd
    df = df.copy()
    df["half"] = np.where(df["hand"].to_numpy() % 2 == 0, "fit", "test")
    fit = df[df["half"] == "fit"]
    y_fit = fit["truth"].to_numpy(dtype=float)
    base = float(y_fit.mean()) if len(fit) else float("nan")
    rate = {int(c): float(g["truth"].mean()) for c, g in fit.groupby("copies_seen")}
    df["p_seen"] = [rate.get(int(c), base) for c in df["copies_seen"]]
    df["p_constant"] = base
    test = df[df["half"] == "test"]
    y = test["truth"].to_numpy(dtype=float)
    scores, rel = {}, {}
    for key, col in (("model", "p"), ("seen", "p_seen"), ("constant", "p_constant")):
        p = test[col].to_numpy(dtype=float)
        scores[key] = {"brier": brier_score(p, y), "auc": auc_score(p, y), "n": len(y)}
        rel[key] = reliability_table(p, y, bins)
    return {"discards": df, "scores": pd.DataFrame(scores).T, "reliability": rel,
            "base_rate": base}


# -- real games -----------------------------------------------------------------------------
def botzone_calibration(records: Any = None, *, bins: int = 10, n_samples: int | None = None) -> dict:
    """The same scores on the discard decisions of Botzone records (default: the bundled
    Chinese Official games, :func:`majiang.records.example_games`).

    The records hold every seat's tiles, so the truth is computed: a discard deals in when
    some opponent's concealed tiles and melds at that moment, with the discarded tile,
    make a win valid on a discard (:func:`majiang.scoring.check_win`, seat wind = seat,
    the record's prevalent wind, Chinese Official's 8-fan minimum).  Fit and test halves are
    by hand index, as in :func:`danger_calibration`.
    """
    import pandas as pd
    from ..hand import Hand, Meld
    from ..opponents import DEFAULT_MODEL, DEFAULT_SAMPLES
    from ..position import Position
    from ..reading import danger_arrays
    from ..records import example_games
    from ..records.replay import _Replayer
    from ..scoring import check_win
    from ..errors import MahjongError
    recs = example_games() if records is None else list(records)
    ns = DEFAULT_SAMPLES if n_samples is None else int(n_samples)
    rows = []
    for h, rec in enumerate(recs):
        r = _Replayer(rec)
        d = 0
        for i, ev in enumerate(rec.events):
            if (ev.action == "Play" and r.actor == ev.player
                    and r.phase in (r._HOLD_DRAWN, r._HOLD_CLAIM)):
                p, t = ev.player, int(ev.tile)
                truth = False
                for q in range(4):
                    if q == p:
                        continue
                    hand = Hand(r.concealed[q].astype(np.uint8),
                                tuple(Meld(m.kind, m.tile, m.concealed) for m in r.melds[q]))
                    try:
                        if check_win(hand, t, ruleset="mcr", self_drawn=False, seat_wind=q,
                                     prevalent_wind=rec.prevalent_wind):
                            truth = True
                    except MahjongError:
                        pass
                pos = Position.from_botzone(rec, d)
                a = danger_arrays(pos, n_samples=ns, seed=0)
                rows.append((h, d, p, t, float(a["p"][t]), float(a["p_se"][t]),
                             int(pos.visible_counts()[t]), truth, float(a["p_raw"][t])))
                d += 1
            r.apply(i, ev)
    df = pd.DataFrame(rows, columns=["hand", "step", "seat", "tile", "p", "p_se",
                                     "copies_seen", "truth", "p_raw"])
    out = score(df, bins=bins)
    out.update({"model": DEFAULT_MODEL.name, "ruleset": "mcr", "n_hands": len(recs)})
    return out

"""Fit the ready model of :mod:`majiang.opponents`: how often an opponent is ready.

Run ``python bench/fit_tempo.py [HANDS] [PER_HAND] [RULESET ...]`` (default 400 hands, 8
discards per hand, mcr sichuan guangdong).  For each ruleset it plays ``HANDS`` hands of
four built-in ``"efficiency"`` players (:func:`majiang.simulate` with logs, seed 7), and
at up to ``PER_HAND`` discard decisions per hand (sampled uniformly) reads every
opponent of the discarding seat with the model (:func:`majiang.opponents.read_position`,
600 samples) and records, per opponent:

- its discards ``d`` and melds ``m`` (what the viewer sees);
- ``L``, the mean likelihood of the model's ready samples given the table
  (:attr:`~majiang.opponents.OpponentRead.lik`);
- the truth: whether its actual hand (rebuilt from the log,
  :meth:`majiang.Position.from_log` from its own seat) has a wait that wins on a discard
  under the ruleset's win predicate (the verdict path of the model,
  :class:`majiang.opponents._Judge`, which agrees with :func:`majiang.scoring.check_win`).

It then fits ``logit P(ready | table) = a + b log(1 + d) + c_m + g log L`` (``c_0 = 0``,
``m >= 4`` one class) by maximum likelihood (Newton-Raphson), leaving out the reads with
no ready sample (their tiles get P 0 whatever P(ready) is), and prints the tuple
:data:`majiang.opponents.TEMPO` holds and the fitted against observed rates by
discards.  Re-run it to re-derive the coefficients (``--rows DIR`` keeps the rows in
``DIR/<ruleset>.npy`` and refits from them when they exist).
"""
from __future__ import annotations

import os

import numpy as np

import majiang
from majiang.opponents import OpponentModel, _Judge, read_position
from majiang.position import Position
from majiang.studies.calibration import discard_truths

FLAT = OpponentModel(tempo=(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0))
"""Any tempo will do for the reads: only ``lik`` (which does not depend on it) is kept."""


def truth_ready(log: list, step: int, seat: int, viewer: int) -> bool:
    """Whether ``seat``'s actual hand at ``step`` has a wait winning on a discard."""
    head = log[0]
    n = len(head["players"])
    op = Position.from_log(log, step, seat=seat)
    j = _Judge(op.model, tuple(op.own_melds), seat, viewer, (seat - head["dealer"]) % n,
               head["prevalent_wind"], int(op.flowers[seat]))
    h = np.asarray(op.concealed, np.int16)[None, :]
    r, w = np.nonzero(j.waits(h))
    lost = j.batch(h, r, w)
    return bool((lost == lost).any())


def ready_rows(ruleset: str, n_hands: int, per_hand: int, seed: int = 7) -> np.ndarray:
    """``(d, m, log L, ready)`` rows (float64) of one ruleset."""
    df = majiang.simulate(ruleset, n_hands, logs=True, n_jobs=1, progress=False, seed=seed)
    rng = np.random.default_rng(seed)
    rows = []
    for log in df["log"]:
        steps = sorted(discard_truths(log))
        if len(steps) > per_hand:
            steps = sorted(rng.choice(steps, size=per_hand, replace=False).tolist())
        for st in steps:
            pos = Position.from_log(log, st)
            for r in read_position(pos, model=FLAT, loss=False):
                if r.n_ready == 0:
                    continue
                m = len(pos.melds[r.seat]) + int(pos.hidden_kongs[r.seat])
                rows.append((len(pos.discards[r.seat]), m, np.log(r.lik),
                             truth_ready(log, st, r.seat, pos.seat)))
    return np.array(rows, dtype=np.float64)


def design(rows: np.ndarray) -> np.ndarray:
    m = np.minimum(rows[:, 1], 4)
    cols = [np.ones(len(rows)), np.log1p(rows[:, 0])]
    cols += [(m == k).astype(float) for k in (1, 2, 3, 4)]
    cols.append(rows[:, 2])
    return np.column_stack(cols)


def _logistic(X: np.ndarray, y: np.ndarray, offset: np.ndarray) -> np.ndarray:
    beta = np.zeros(X.shape[1])
    for _ in range(60):                       # Newton-Raphson, a small ridge
        p = 1 / (1 + np.exp(-(X @ beta + offset)))
        g = X.T @ (y - p) - 1e-3 * beta
        H = (X * (p * (1 - p))[:, None]).T @ X + 1e-3 * np.eye(len(beta))
        beta += np.linalg.solve(H, g)
    return beta


def fit(rows: np.ndarray) -> np.ndarray:
    """The maximum-likelihood ``(a, b, c1, c2, c3, c4, g)`` with the evidence weight ``g``
    held in [0, 1] (between ignoring the table's evidence and Bayes' rule with the
    model's likelihood): fitted free, then refitted with ``g`` fixed at the bound it
    crossed.  A small ridge keeps a meld class that never occurs at 0."""
    X, y = design(rows), rows[:, 3]
    beta = _logistic(X, y, np.zeros(len(y)))
    if 0.0 <= beta[-1] <= 1.0:
        return beta
    g = min(max(beta[-1], 0.0), 1.0)
    return np.append(_logistic(X[:, :-1], y, g * X[:, -1]), g)


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n_hands", nargs="?", type=int, default=400, metavar="HANDS",
                    help="hands per ruleset (default: %(default)s)")
    ap.add_argument("per_hand", nargs="?", type=int, default=8, metavar="PER_HAND",
                    help="discard decisions read per hand (default: %(default)s)")
    ap.add_argument("rulesets", nargs="*", metavar="RULESET",
                    help="rulesets (default: mcr sichuan guangdong)")
    ap.add_argument("--rows", metavar="DIR", default=None,
                    help="keep the rows in DIR/<ruleset>.npy and refit from them")
    a = ap.parse_args()
    n_hands, per_hand, save = a.n_hands, a.per_hand, a.rows
    for rs in a.rulesets or ("mcr", "sichuan", "guangdong"):
        if save and os.path.exists(os.path.join(save, f"{rs}.npy")):
            rows = np.load(os.path.join(save, f"{rs}.npy"))
        else:
            rows = ready_rows(rs, n_hands, per_hand)
            if save:
                os.makedirs(save, exist_ok=True)
                np.save(os.path.join(save, f"{rs}.npy"), rows)
        beta = fit(rows)
        p = 1 / (1 + np.exp(-design(rows) @ beta))
        print(f'{rs}: {len(rows)} reads, {int(rows[:, 3].sum())} ready; '
              f'"{rs}": ({", ".join(f"{b:.3f}" for b in beta)}),', flush=True)
        for lo, hi in ((0, 3), (4, 6), (7, 9), (10, 12), (13, 15), (16, 99)):
            sel = (rows[:, 0] >= lo) & (rows[:, 0] <= hi)
            if sel.sum():
                print(f"  discards {lo:2d}-{hi:2d}: fitted {p[sel].mean():.3f} observed "
                      f"{rows[sel, 3].mean():.3f} (n={int(sel.sum())})")

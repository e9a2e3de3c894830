"""Fit the tempo prior of :mod:`majiang.opponents`: how often a seat is ready.

Run ``python bench/fit_tempo.py [HANDS]`` (default 400 per ruleset).  For mcr, sichuan and
guangdong it plays ``HANDS`` hands of four built-in ``"efficiency"`` players
(:func:`majiang.simulate` with logs), rebuilds every seat's concealed tiles from the log
(:meth:`majiang.Position.from_log`),
and after each discard records (discards the seat has made, melds it holds, whether some
tile would complete a valid win on a discard under the ruleset's win predicate).  It then
fits ``logit P(ready) = a + b * discards + c * melds`` by maximum likelihood and prints
the coefficients and the observed rates by number of discards.  The coefficients are the
ones :data:`majiang.opponents.TEMPO` holds (re-run this script to re-derive them).
"""
from __future__ import annotations

import sys

import numpy as np

import majiang
from majiang.hand import Hand
from majiang.position import Position
from majiang.scoring import check_win, waits
from majiang.tiles import parse_tile


def ready_rows(ruleset: str, n_hands: int, seed: int = 7):
    rs = majiang.rules.get(ruleset)
    df = majiang.simulate(ruleset, n_hands, logs=True, n_jobs=1, progress=False, seed=seed)
    rows = []
    cache: dict = {}
    for log in df["log"]:
        head = log[0]
        dealer, prev = head["dealer"], head["prevalent_wind"]
        n = len(head["players"])
        ndisc = [0] * n
        for i, e in enumerate(log):
            if e["e"] == "discard":
                s = e["seat"]
                ndisc[s] += 1
                # the seat's hand just after its discard, rebuilt from the log
                pos = Position.from_log(log, i + 1, seat=s)
                h = Hand(np.asarray(pos.concealed, dtype=np.uint8), tuple(pos.own_melds))
                key = (bytes(h.concealed), h.melds, (s - dealer) % n, prev)
                got = cache.get(key)
                if got is None:
                    got = False
                    try:
                        for w in waits(h, ruleset=rs):
                            if check_win(h, parse_tile(w), ruleset=rs, self_drawn=False,
                                         seat_wind=(s - dealer) % n, prevalent_wind=prev):
                                got = True
                                break
                    except majiang.MahjongError:
                        got = False
                    cache[key] = got
                rows.append((ndisc[s], len(h.melds), got))
    return np.array(rows, dtype=np.int64)


def fit(rows: np.ndarray) -> np.ndarray:
    X = np.column_stack([np.ones(len(rows)), rows[:, 0], rows[:, 1]]).astype(float)
    y = rows[:, 2].astype(float)
    beta = np.zeros(3)
    for _ in range(50):                       # Newton-Raphson for the logistic MLE
        p = 1 / (1 + np.exp(-X @ beta))
        g = X.T @ (y - p)
        H = (X * (p * (1 - p))[:, None]).T @ X
        beta += np.linalg.solve(H, g)
    return beta


if __name__ == "__main__":
    n_hands = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    for rs in ("mcr", "sichuan", "guangdong"):
        rows = ready_rows(rs, n_hands)
        beta = fit(rows)
        print(f"{rs}: {len(rows)} discards; a={beta[0]:.3f} b={beta[1]:.4f} c={beta[2]:.3f}")
        for d in range(1, 25, 3):
            sel = rows[:, 0] == d
            if sel.sum():
                print(f"  discards {d:2d}: ready {rows[sel, 2].mean():.3f} (n={sel.sum()})")

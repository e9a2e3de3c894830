"""Timing of :func:`majiang.danger` and :func:`majiang.advise` at table positions.

Run ``python bench/bench_danger.py [N]`` (default 60 positions).  The positions are the
discard decisions of the bundled Botzone Chinese Official games
(:meth:`majiang.Position.from_botzone`, every third decision, up to N).  For each it
times ``danger(position)`` (default 600 ready hands per opponent) and
``advise(position)`` (the default horizon, with the danger columns), one call each after a warm-up,
and prints the median and the 90th percentile in ms, with the mean standard error of
p_deal_in over the rows.  Timing only: nothing here is asserted.
"""
from __future__ import annotations

import sys
import time

import numpy as np

import majiang
from majiang.records import decision_points, example_games


def positions(n: int):
    out = []
    for rec in example_games():
        k = len(list(decision_points(rec)))
        for i in range(0, k, 3):
            out.append(majiang.Position.from_botzone(rec, i))
            if len(out) >= n:
                return out
    return out


def main(n: int) -> None:
    pos = positions(n)
    majiang.danger(pos[0], n_samples=50)
    majiang.advise(pos[0], draws=2, danger_samples=50)
    td, ta, se = [], [], []
    for p in pos:
        t = time.perf_counter()
        df = majiang.danger(p)
        td.append(time.perf_counter() - t)
        se.append(float(df["p_deal_in_se"].mean()))
        t = time.perf_counter()
        majiang.advise(p)
        ta.append(time.perf_counter() - t)
    for name, xs in (("danger(position)", td), ("advise(position)", ta)):
        ms = 1000 * np.array(xs)
        print(f"{name:28s} median {np.median(ms):7.1f} ms  p90 {np.percentile(ms, 90):7.1f} ms"
              f"  ({len(ms)} positions)")
    print(f"mean standard error of p_deal_in: {np.mean(se):.4f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 60)

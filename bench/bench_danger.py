"""Timing of :func:`majiang.danger` and :func:`majiang.advise` at table positions.

Run ``python bench/bench_danger.py [N] [DRAWS] [--danger-only]`` (default 60 positions,
the default horizon; ``--danger-only`` times only ``danger``).  The positions are the discard decisions of the bundled Botzone Chinese Official
games (:meth:`majiang.Position.from_botzone`, every third decision, up to N).  For each it
times, one call each after a warm-up:

- ``danger(position)`` (default 600 ready hands per opponent);
- ``advise(position, draws=DRAWS)`` (with the danger columns; no DRAWS: the default
  horizon, at most 3 draws; ``8`` asks for the issue's ``draws=8``, which goes to the Monte
  Carlo search on far hands and can take minutes per position);
- ``advise(hand, draws=DRAWS)``: the same hand and melds without the table (no position),

and prints, by the wall clock and by the process's CPU time (the one to read on a
shared, loaded machine), the median and the 90th percentile in ms with the sample size and the
standard error of the median (bootstrap, 2,000 resamples), the ratio of the two advise
medians, and the mean standard error of p_deal_in over the rows.  Timing only: nothing
here is asserted.

Measured on the shared 2-core machine, 60 positions, CPU time, median ± its standard
error (the wall clock was about four times longer under the load):

- ``danger(position)``: 18.8 ± 0.3 ms before the change below, 18.3 ± 0.3 after (untouched);
- ``advise(position)``, default horizon (at most 3 draws): 56.1 ± 3.3 ms with the ranking,
  the danger columns and the push-or-fold verdicts done by pandas sorts and merges;
  42.4 ± 4.3 ms with them in NumPy (the same tables); 39.4 ± 3.7 ms in a later run on
  the recalibrated danger model (danger 17.4 ± 0.3 ms).  What is left: the danger model
  (about 17 ms, read once per call), the exact probability kernel with its 8-fan checks
  (about 15 ms near the median), pandas building the table (about 5 ms).
- ``advise(position, draws=8)``: seconds to minutes on hands two or more tiles from ready
  before the changes below (0.04 s, 0.2 s, 15 s, 37 s, 76 s, 178 s on the first six
  positions); after them, 60 positions, CPU: median **53.4 ± 17.4 ms** (the standard
  error is wide because the median falls between the 2-shanten positions, 20-60 ms, and
  the 3-shanten ones, 0.3-0.6 s), 90th percentile 0.86 s, slowest (4-shanten, the
  20,000-wall greedy Monte Carlo per discard) about 2 s; ``advise(hand, draws=8)``
  27.6 ms.  The changes: a per-thread memo of the shanten programme's rows under caps
  (the exact search of a 2-shanten hand: 1.0 s -> 0.08 s), the compiled 8-fan verdict
  in the kernels instead of a Python call per complete hand (0.17 s -> 0.13 s), and the
  greedy Monte Carlo keeping each hand's least-shanten discards and their effective
  kinds (4-shanten: 30-180 s -> 1-2 s, the same decisions).
- ``advise(position)`` at the default horizon after the same changes: 31.9 ± 1.9 ms
  (p90 72.8 ms).
"""
from __future__ import annotations

import time

import numpy as np

import majiang
from majiang.hand import Hand, Meld
from majiang.records import decision_points, example_games


def positions(n: int):
    out = []
    for rec in example_games():
        ds = list(decision_points(rec))
        for i in range(0, len(ds), 3):
            d = ds[i]
            hand = Hand(d.concealed, tuple(Meld(m.kind, m.tile, m.concealed) for m in d.melds))
            out.append((majiang.Position.from_botzone(rec, i), hand, d))
            if len(out) >= n:
                return out
    return out


def median_se(xs: np.ndarray, reps: int = 2000) -> float:
    rng = np.random.default_rng(0)
    meds = np.median(rng.choice(xs, size=(reps, len(xs)), replace=True), axis=1)
    return float(np.std(meds, ddof=1))


def main(n: int, draws: int | None, danger_only: bool = False) -> None:
    pos = positions(n)
    p0, h0, d0 = pos[0]
    majiang.danger(p0, n_samples=50)
    if not danger_only:
        majiang.advise(p0, draws=2, danger_samples=50)
    td, ta, th, se = [], [], [], []

    def timed(out, f, *a, **kw):
        t, c = time.perf_counter(), time.process_time()
        r = f(*a, **kw)
        out.append((time.perf_counter() - t, time.process_time() - c))
        return r

    for p, hand, d in pos:
        df = timed(td, majiang.danger, p)
        se.append(float(df["p_deal_in_se"].mean()))
        if danger_only:
            continue
        timed(ta, majiang.advise, p, draws=draws)
        timed(th, majiang.advise, hand, d.visible, ruleset="mcr", draws=draws,
              seat_wind=d.seat_wind, prevalent_wind=d.prevalent_wind)
    h = "default horizon" if draws is None else f"draws={draws}"
    for col, clock in ((0, "wall"), (1, "cpu")):
        for name, xs in (("danger(position)", td), (f"advise(position, {h})", ta),
                         (f"advise(hand, {h})", th)):
            if not xs:
                continue
            ms = 1000 * np.array(xs)[:, col]
            print(f"{clock:4s} {name:34s} median {np.median(ms):8.1f} ms ± {median_se(ms):6.1f}"
                  f" (s.e.)  p90 {np.percentile(ms, 90):8.1f} ms  ({len(ms)} positions)")
        if ta:
            a = np.median(np.array(ta)[:, col]) / np.median(np.array(th)[:, col])
            print(f"{clock:4s} ratio advise(position) / advise(hand), medians: {a:.2f}")
    print(f"mean standard error of p_deal_in: {np.mean(se):.4f}")


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=60, metavar="N",
                    help="positions (default: %(default)s)")
    ap.add_argument("draws", nargs="?", type=int, default=None, metavar="DRAWS",
                    help="advise's draws (default: its own horizon)")
    ap.add_argument("--danger-only", action="store_true", help="time only danger()")
    a = ap.parse_args()
    main(a.n, a.draws, danger_only=a.danger_only)

"""Benchmark and model checks of majiang.probability on the fixed bench hands.

    python bench/bench_winprob.py            # timing: exact per-discard advice, horizon 18
    python bench/bench_winprob.py --model    # measure the model's simplifications (slow)

Timing: for each of the 40 hands of ``winprob_hands.json`` (20 at 1-shanten, 20 at
2-shanten, closed 14-tile hands) the wall time of
``discard_probabilities(hand, 18, method="exact")`` (every discard that keeps the
lowest shanten gets exact P(win) and P(tenpai); no ruleset, nothing visible),
best of 3 runs; medians per shanten group.  Targets: <= 3 ms (1-shanten),
<= 45 ms (2-shanten).

--model: on the best discard of each hand,
  S1  exact value vs. the same policy played on N real shuffled walls (and the
      ukeire-greedy policy on the same walls);
  S2  restricted search vs. change budgets 1 and 2 (horizon 18) and vs. the
      unrestricted optimum of the same wall model at horizons 3..5 (1-shanten hands).
"""
from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import sys
import time

import numpy as np

import majiang
from majiang import probability as P
from majiang._core import efficiency as _eff
from majiang._core import probability as _prob

HERE = pathlib.Path(__file__).resolve().parent
HANDS = json.loads((HERE / "winprob_hands.json").read_text())["hands"]
T = 18


def timing(repeat: int = 3) -> None:
    P.discard_probabilities(HANDS[0]["hand"], T, method="exact")       # tables, imports
    groups: dict[int, list[float]] = {}
    print(f"exact per-discard advice, horizon {T}, best of {repeat} (ms)")
    print(f"{'hand':<22}{'shanten':>8}{'ms':>9}{'states':>8}  best discard  P(win)  P(tenpai)")
    for h in HANDS:
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            table = P.discard_probabilities(h["hand"], T, method="exact")
            best = min(best, time.perf_counter() - t0)
        groups.setdefault(h["shanten"], []).append(best * 1e3)
        top = table.sort_values("p_win", ascending=False).iloc[0]
        curves = P.discard_curves(h["hand"], T, method="exact")
        states = max(r.n_states for r in curves.values())
        print(f"{h['hand']:<22}{h['shanten']:>8}{best * 1e3:>9.2f}{states:>8}  {top['discard']:>12}"
              f"  {top['p_win']:.4f}  {top['p_tenpai']:.4f}")
    for s, ts in sorted(groups.items()):
        print(f"{s}-shanten: median {statistics.median(ts):.2f} ms, max {max(ts):.2f} ms "
              f"over {len(ts)} hands")


def _best_discard(hand: str) -> str:
    table = P.discard_probabilities(hand, T, method="exact")
    top = table.sort_values(["p_win", "discard"], ascending=[False, True]).iloc[0]
    c = majiang.parse_counts(hand)
    c[majiang.parse_tile(top["discard"])] -= 1
    return majiang.format_counts(c)


def model(n: int, jobs: int) -> None:
    print(f"S1: exact (hand-state wall model) vs real walls, n={n} walls per hand, horizon {T}")
    print(f"{'hand (after best discard)':<24}{'sh':>3}{'exact':>8}{'real':>8}{'se':>7}{'z':>6}"
          f"{'greedy':>8}{'tenpai':>8}{'real':>8}{'z':>6}")
    diffs: dict[int, list[tuple[float, float, float, float]]] = {}
    for i, h in enumerate(HANDS):
        h13 = _best_discard(h["hand"])
        ex = P.probabilities(h13, T, method="exact")
        mc = P.probabilities(h13, T, method="monte_carlo", policy="optimal", seed=1000 + i,
                             n_samples=n, n_jobs=jobs)
        gr = P.probabilities(h13, T, method="monte_carlo", policy="greedy", seed=1000 + i,
                             n_samples=n, n_jobs=jobs)
        z = (mc.p_win - ex.p_win) / mc.se_win
        zt = (mc.p_tenpai - ex.p_tenpai) / mc.se_tenpai
        diffs.setdefault(h["shanten"], []).append(
            (mc.p_win - ex.p_win, z, gr.p_win - mc.p_win, mc.p_tenpai - ex.p_tenpai))
        print(f"{h13:<24}{h['shanten']:>3}{ex.p_win:>8.4f}{mc.p_win:>8.4f}{mc.se_win:>7.4f}"
              f"{z:>6.1f}{gr.p_win:>8.4f}{ex.p_tenpai:>8.4f}{mc.p_tenpai:>8.4f}{zt:>6.1f}")
        sys.stdout.flush()
    for s, d in sorted(diffs.items()):
        a = np.array(d)
        print(f"{s}-shanten: real - exact: mean {a[:, 0].mean():+.4f}, mean |.| "
              f"{np.abs(a[:, 0]).mean():.4f}, max |.| {np.abs(a[:, 0]).max():.4f}; "
              f"mean z {a[:, 1].mean():+.2f} (sd {a[:, 1].std():.2f}); greedy - optimal on real "
              f"walls: mean {a[:, 2].mean():+.4f}, min {a[:, 2].min():+.4f}; "
              f"tenpai real - exact: mean {a[:, 3].mean():+.4f}")

    print(f"\nS2: restricted search vs change budgets (horizon {T}) and vs the unrestricted "
          "optimum of the same model at short horizons, 1-shanten hands")
    print(f"{'hand':<24}{'c=0':>8}{'c=1':>8}{'c=2':>8}{'ms c2':>9}  unrestricted - restricted "
          "at T=3,4,5")
    gains = {1: [], 2: []}
    gaps = {3: [], 4: [], 5: []}
    for h in HANDS:
        if h["shanten"] != 1:
            continue
        h13 = _best_discard(h["hand"])
        v = {}
        for c in (0, 1, 2):
            t0 = time.perf_counter()
            v[c] = P.win_probability(h13, T, method="exact", changes=c,
                                     max_states=2_000_000).value
            ms = (time.perf_counter() - t0) * 1e3
        gains[1].append(v[1] - v[0])
        gains[2].append(v[2] - v[0])
        counts = majiang.parse_counts(h13)
        u0 = (4 - counts).astype(np.uint8)
        row = []
        for tt in (3, 4, 5):
            un = _prob._Unrestricted(counts, u0, 7, False, tt, int(u0.sum())).run()
            re = P.win_probability(h13, tt, method="exact").value
            gaps[tt].append(un - re)
            row.append(f"{un - re:+.5f}")
        print(f"{h13:<24}{v[0]:>8.4f}{v[1]:>8.4f}{v[2]:>8.4f}{ms:>9.0f}  {' '.join(row)}")
        sys.stdout.flush()
    for c, g in gains.items():
        print(f"changes={c}: P(win) gain mean {np.mean(g):+.4f}, max {np.max(g):+.4f}")
    for tt, g in gaps.items():
        print(f"T={tt}: unrestricted - restricted mean {np.mean(g):+.5f}, max {np.max(g):+.5f}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--model", action="store_true", help="measure the model simplifications")
    ap.add_argument("-n", type=int, default=200_000, help="walls per hand for --model")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    _eff.build_tables()
    if args.model:
        model(args.n, args.jobs)
    else:
        timing()

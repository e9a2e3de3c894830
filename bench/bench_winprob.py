"""Benchmark and model checks of majiang.probability on the fixed bench hands.

    python bench/bench_winprob.py            # timing: default per-discard advice, horizon 18
    python bench/bench_winprob.py --optimum  # cost of the best play (method="exact")
    python bench/bench_winprob.py --model    # measure the model's simplifications (slow)

Timing: for each of the 40 hands of ``winprob_hands.json`` (20 at 1-shanten, 20 at
2-shanten, closed 14-tile hands) the wall time of ``discard_probabilities(hand, 18, ruleset="plain")``
with the default options (``method="auto"``: every discard that keeps the lowest
shanten gets exact P(win) and P(tenpai) of the restricted S1 search, policy
``changes<=0``, printed; no ruleset, nothing visible), best of 3 runs; medians
per shanten group.  Targets: <= 3 ms (1-shanten), <= 45 ms (2-shanten).

--optimum: the cost of ``method="exact"`` (the best play that fits: the true wall
at T <= 3, the unrestricted S1 graph when it fits max_states, else the largest
change budget) on the best discard of each hand at horizons 3..6 and 18, with
the policy it reached.

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
    P.discard_probabilities(HANDS[0]["hand"], T, ruleset="plain")       # tables, imports
    groups: dict[int, list[float]] = {}
    policies: set = set()
    print(f"per-discard advice with the default options, horizon {T}, best of {repeat} (ms)")
    print(f"{'hand':<22}{'shanten':>8}{'ms':>9}{'states':>8}  best discard  P(win)  P(tenpai)")
    for h in HANDS:
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            table = P.discard_probabilities(h["hand"], T, ruleset="plain")
            best = min(best, time.perf_counter() - t0)
        policies |= {f"{m}, {mo}, policy {po}" for m, mo, po in
                     zip(table["method"], table["model"], table["policy"]) if m}
        groups.setdefault(h["shanten"], []).append(best * 1e3)
        top = table.sort_values("p_win", ascending=False).iloc[0]
        curves = P.discard_curves(h["hand"], T)
        states = max(r.n_states for r in curves.values())
        print(f"{h['hand']:<22}{h['shanten']:>8}{best * 1e3:>9.2f}{states:>8}  {top['discard']:>12}"
              f"  {top['p_win']:.4f}  {top['p_tenpai']:.4f}")
    for s, ts in sorted(groups.items()):
        print(f"{s}-shanten: median {statistics.median(ts):.2f} ms, max {max(ts):.2f} ms "
              f"over {len(ts)} hands")
    print("default options used: " + "; ".join(sorted(policies)))


def optimum(max_states: int, per_group: int) -> None:
    """Cost of method="exact" (best play that fits) on the best discard of each hand."""
    horizons = (3, 4, 5, 6, T)
    print(f"method='exact' (best play that fits, max_states={max_states}) on the best "
          f"discard; ms / policy reached / states")
    print(f"{'hand (after best discard)':<24}{'sh':>3}  " + "  ".join(
        f"{'T=' + str(t):>28}" for t in horizons))
    seen: dict[int, int] = {}
    cost: dict[tuple, list] = {}
    for h in HANDS:
        if seen.get(h["shanten"], 0) >= per_group:
            continue
        seen[h["shanten"]] = seen.get(h["shanten"], 0) + 1
        h13 = _best_discard(h["hand"])
        cells = []
        for t in horizons:
            t0 = time.perf_counter()
            try:
                r = P.probabilities(h13, t, method="exact", max_states=max_states, ruleset="plain")
                ms = (time.perf_counter() - t0) * 1e3
                cells.append(f"{ms:>9.1f} {r.policy:>11} {r.n_states or 0:>6}")
                cost.setdefault((h["shanten"], t, r.policy), []).append(ms)
            except majiang.RuleError:
                cells.append(f"{'-':>9} {'too large':>11} {'':>6}")
        print(f"{h13:<24}{h['shanten']:>3}  " + "  ".join(cells))
        sys.stdout.flush()
    for (s, t, pol), ms in sorted(cost.items()):
        print(f"{s}-shanten T={t}: policy {pol} on {len(ms)} hands, median "
              f"{statistics.median(ms):.1f} ms, max {max(ms):.1f} ms")


def _best_discard(hand: str) -> str:
    table = P.discard_probabilities(hand, T, ruleset="plain")
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
        ex = P.probabilities(h13, T, method="exact", changes=0, ruleset="plain")
        mc = P.probabilities(h13, T, method="monte_carlo", policy="optimal", seed=1000 + i,
                             n_samples=n, n_jobs=jobs, changes=0, ruleset="plain")
        gr = P.probabilities(h13, T, method="monte_carlo", policy="greedy", seed=1000 + i,
                             n_samples=n, n_jobs=jobs, ruleset="plain")
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
                                     max_states=2_000_000, ruleset="plain").value
            ms = (time.perf_counter() - t0) * 1e3
        gains[1].append(v[1] - v[0])
        gains[2].append(v[2] - v[0])
        counts = majiang.parse_counts(h13)
        u0 = (4 - counts).astype(np.uint8)
        row = []
        for tt in (3, 4, 5):
            un = _prob._Unrestricted(counts, u0, 7, False, tt, int(u0.sum())).run()
            re = P.win_probability(h13, tt, method="exact", changes=0, ruleset="plain").value
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
    ap.add_argument("--optimum", action="store_true", help="cost of method='exact'")
    ap.add_argument("--max-states", type=int, default=P.DEFAULT_MAX_STATES)
    ap.add_argument("--per-group", type=int, default=5, help="hands per shanten for --optimum")
    ap.add_argument("-n", type=int, default=200_000, help="walls per hand for --model")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    _eff.build_tables()
    if args.model:
        model(args.n, args.jobs)
    elif args.optimum:
        optimum(args.max_states, args.per_group)
    else:
        timing()

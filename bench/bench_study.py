"""Hands per second of a rule-variant study, per ruleset, beside riichienv in the same run.

Run ``python bench/bench_study.py [--hands N] [--rulesets a,b,c] [--jobs 1,2] [--dask]``.
For each ruleset and each worker count it times :func:`majiang.compare_rulesets` on
that ruleset alone (``n_hands`` hands with the ``"efficiency"`` bots: simulation plus
the summary with its intervals) and prints hands/s, the share of the time spent in
:func:`majiang.studies.summarize_hands`, and the speed-up over one process.  With
``--dask`` the same study also runs on a 2-worker ``dask.distributed.LocalCluster``
(``executor=client``) when dask is installed and ``majiang.simulate`` takes an
executor.  riichienv's game loop (Rust, a first-legal-action agent, one 一局 per
``reset``; :func:`bench_simulate.bench_riichienv`) is timed for the same number of
seconds as the slowest single-process study, for scale.  Timing only: nothing here is
asserted.
"""
from __future__ import annotations

import argparse
import inspect
import time

import majiang
from majiang.studies import summarize_hands

RULESETS = ("mcr", "guangdong", "sichuan", "sichuan_xueliu")


def _simulate_options(**kw) -> dict:
    """The run options this version of majiang.simulate takes (progress bars off)."""
    params = inspect.signature(majiang.simulate).parameters
    if "progress" in params:
        kw["progress"] = False
    return {k: v for k, v in kw.items() if k in params}


def bench_study(ruleset: str, n_hands: int, **run) -> dict:
    t0 = time.perf_counter()
    table = majiang.simulate(ruleset, n_hands, seed=2024, **_simulate_options(**run))
    t1 = time.perf_counter()
    summary = summarize_hands(table)
    t2 = time.perf_counter()
    wins = int(table["winners"].map(len).sum())
    return {"hands": n_hands, "seconds": t2 - t0, "rate": n_hands / (t2 - t0),
            "summary_share": (t2 - t1) / (t2 - t0), "wins_per_hand": wins / n_hands,
            "rows": len(summary)}


def check_same_as_compare(ruleset: str, n_hands: int) -> None:
    """The timed path (simulate, then summarize_hands) is what compare_rulesets does."""
    a = majiang.compare_rulesets([ruleset], n_hands, seed=2024, **_simulate_options(n_jobs=1))
    b = summarize_hands(majiang.simulate(ruleset, n_hands, seed=2024,
                                         **_simulate_options(n_jobs=1)))
    assert a.equals(b), ruleset


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000, help="hands per ruleset and setting")
    ap.add_argument("--rulesets", default=",".join(RULESETS))
    ap.add_argument("--jobs", default="1,2", help="worker counts, comma-separated")
    ap.add_argument("--dask", action="store_true", help="also a 2-worker Dask LocalCluster")
    args = ap.parse_args(argv)
    rulesets = [r.strip() for r in args.rulesets.split(",") if r.strip()]
    jobs = [int(j) for j in args.jobs.split(",")]
    for rs in rulesets:
        check_same_as_compare(rs, 60)
    print(f"{args.hands} hands per line, 4x efficiency bots; rate = hands / (simulate + "
          "summary) seconds")
    print(f"{'ruleset':<16}{'setting':<14}{'hands/s':>10}{'speed-up':>10}{'summary':>9}"
          f"{'wins/hand':>11}")
    slowest = 0.0
    for rs in rulesets:
        base = None
        for j in jobs:
            r = bench_study(rs, args.hands, n_jobs=j)
            base = base or r["rate"]
            if j == 1:
                slowest = max(slowest, r["seconds"])
            print(f"{rs:<16}{f'n_jobs={j}':<14}{r['rate']:>10.1f}{r['rate'] / base:>9.2f}x"
                  f"{r['summary_share']:>9.1%}{r['wins_per_hand']:>11.2f}")
        if args.dask:
            _dask_line(rs, args.hands, base)
    from bench_simulate import bench_riichienv
    ri = bench_riichienv(max(slowest, 2.0))
    if ri is None:
        print("riichienv not installed")
    else:
        print(f"{'riichienv':<16}{'1 process':<14}{ri['rate']:>10.1f}   (riichi game loop, "
              "first legal action; no study summary)")


def _dask_line(ruleset: str, n_hands: int, base: float | None) -> None:
    if "executor" not in inspect.signature(majiang.simulate).parameters:
        print(f"{ruleset:<16}{'dask':<14}  (this majiang.simulate takes no executor)")
        return
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        print(f"{ruleset:<16}{'dask':<14}  (dask.distributed not installed)")
        return
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        bench_study(ruleset, min(n_hands, 100), executor=client)       # warm the workers
        r = bench_study(ruleset, n_hands, executor=client)
    up = f"{r['rate'] / base:>9.2f}x" if base else f"{'':>10}"
    print(f"{ruleset:<16}{'dask 2 workers':<14}{r['rate']:>10.1f}{up}"
          f"{r['summary_share']:>9.1%}{r['wins_per_hand']:>11.2f}")


if __name__ == "__main__":
    main()

"""Strength in the duplicate format: does a player beat the weaker ones it sits with?

Run ``python bench/bench_strength.py [--walls N] [--rulesets mcr,sichuan,guangdong]
[--n-jobs J]`` (default 2,000 walls, ``rotate4``: every wall replayed with the
players in the four cyclic seat orders, so 8,000 hands per line).  For each ruleset
it plays, with :func:`majiang.arena`:

* ``efficiency`` against three ``random`` players, and
* ``expert`` against three ``efficiency`` players (when the ``expert`` player exists),

and prints the first player's mean score per hand with its 95 % interval (a t
interval over the per-wall means: the wall is the unit of independence), its win and
deal-in rates, and whether the interval excludes 0 — the test of issue 19 item 6 that
the stronger player gains score per hand.  Nothing here is asserted; the figures go
in the closing note.
"""
from __future__ import annotations

import argparse
import time

import majiang
from majiang.game.players import BUILTIN_PLAYERS

PAIRINGS = (("efficiency", "random"), ("expert", "efficiency"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--walls", type=int, default=2000)
    ap.add_argument("--rulesets", default="mcr,sichuan,guangdong")
    ap.add_argument("--n-jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args(argv)
    print(f"{'ruleset':10} {'player':10} {'vs 3':10} {'walls':>6} {'mean':>8} {'lo':>8} "
          f"{'hi':>8} {'win':>6} {'deal-in':>7}  excludes 0   seconds")
    for name in a.rulesets.split(","):
        for strong, weak in PAIRINGS:
            if strong not in BUILTIN_PLAYERS:
                print(f"{name:10} {strong:10} {weak:10}  (no such player yet)")
                continue
            t = time.perf_counter()
            res = majiang.arena([strong, weak, weak, weak], name, a.walls, seed=a.seed,
                                n_jobs=a.n_jobs, progress=False)
            r = res.iloc[0]
            ok = "yes" if (r.lo > 0 or r.hi < 0) else "no"
            print(f"{name:10} {strong:10} {weak:10} {a.walls:6d} {r.mean_score:8.3f} "
                  f"{r.lo:8.3f} {r.hi:8.3f} {r.win_rate:6.3f} {r.deal_in_rate:7.3f}  "
                  f"{ok:11} {time.perf_counter() - t:8.1f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

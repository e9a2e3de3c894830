"""Hands per second per core of the game engine, beside riichienv in the same run.

Run ``python bench/bench_simulate.py [SECONDS]`` (default 5 seconds per line).  For
each of mcr, sichuan and guangdong, with four ``"random"`` and with four
``"efficiency"`` players, for taiwan (16-tile hands, flowers) and wuhan (jokers, a
win predicate with constraints) with four ``"efficiency"`` players (issue targets:
taiwan >= 200 hands/s, wuhan >= 400), and for mcr_botzone and mcr with four ``"expert"``
players (the Python loop; :data:`EXPERT`), it plays hands one after another on one core
(:func:`majiang.game.play_hand`, the path :func:`majiang.simulate` takes for
``n_jobs=1``; every win is checked and scored by the win predicate) and prints hands/s, wins
per hand and the share of drawn hands.  riichienv (its Rust engine driven from Python
with a first-legal-action agent, one 一局 per ``reset``) is timed the same way when
installed.  Each line gives wall-clock hands/s and hands per CPU-second of this
process (``time.process_time``: on a shared machine the wall clock also counts the
time other processes hold the core).  Timing only: nothing here is asserted.
"""
from __future__ import annotations

import argparse
import time

from majiang.game import play_hand

RULESETS = ("mcr", "sichuan", "guangdong")
PLAYERS = ("random", "efficiency")
REGIONAL = (("taiwan", "efficiency"), ("wuhan", "efficiency"))
EXPERT = (("mcr_botzone", "expert"), ("mcr", "expert"))
"""The ``"expert"`` player (plans, valid ukeire, calls, a cheap fold; it plays in the
Python loop) under the Chinese Official rulesets its plans are for."""


def bench_engine(ruleset: str, player: str, seconds: float) -> dict:
    t0 = time.perf_counter()
    c0 = time.process_time()
    n = wins = drawn = 0
    while True:
        st = play_hand(ruleset, player, seed=2024, hand=n)
        n += 1
        wins += len(st.wins)
        drawn += not st.wins
        el = time.perf_counter() - t0
        if el >= seconds and n >= 5:
            break
    cpu = time.process_time() - c0
    return {"hands": n, "seconds": el, "rate": n / el, "cpu_rate": n / cpu, "wins": wins / n,
            "drawn": drawn / n}


def bench_riichienv(seconds: float) -> dict | None:
    try:
        from riichienv import RiichiEnv
    except ImportError:
        return None
    env = RiichiEnv()
    t0 = time.perf_counter()
    c0 = time.process_time()
    n = 0
    while True:
        obs = env.reset()
        while not env.done():
            obs = env.step({pid: o.legal_actions()[0] for pid, o in obs.items()})
        n += 1
        el = time.perf_counter() - t0
        if el >= seconds and n >= 5:
            break
    return {"hands": n, "seconds": el, "rate": n / el, "cpu_rate": n / (time.process_time() - c0)}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seconds", nargs="?", type=float, default=5.0,
                    help="seconds per line (default: %(default)s)")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    seconds = parse_args(argv).seconds
    print(f"{'engine':<34}{'hands':>7}{'hands/s':>10}{'cpu h/s':>10}{'wins/hand':>11}"
          f"{'drawn':>8}{'cpu ms/h':>10}")
    rates = {}
    for rs, pl in [(rs, pl) for rs in RULESETS for pl in PLAYERS] + list(REGIONAL) + list(EXPERT):
        r = bench_engine(rs, pl, seconds)
        rates[(rs, pl)] = (r["rate"], r["cpu_rate"])
        print(f"{'majiang ' + rs + ', 4x ' + pl:<34}{r['hands']:>7}{r['rate']:>10.1f}"
              f"{r['cpu_rate']:>10.1f}{r['wins']:>11.2f}{r['drawn']:>8.1%}"
              f"{1000 / r['cpu_rate']:>10.2f}")
    ri = bench_riichienv(seconds)
    if ri is None:
        print("riichienv not installed")
        return
    print(f"{'riichienv (riichi), first legal':<34}{ri['hands']:>7}{ri['rate']:>10.1f}"
          f"{ri['cpu_rate']:>10.1f}{'':>19}{1000 / ri['cpu_rate']:>10.2f}")
    for (rs, pl), (v, c) in rates.items():
        print(f"  ratio majiang {rs}/{pl} : riichienv = {v / ri['rate']:.2f} "
              f"(cpu {c / ri['cpu_rate']:.2f})")


if __name__ == "__main__":
    main()

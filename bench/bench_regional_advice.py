"""Seconds a user waits for regional advice with win probabilities (issue 20: Changsha
``--draws 10`` within 5 s, Tianjin within 3 s).

Run ``python bench/bench_regional_advice.py [--src DIR ...] [--repeat N] [--only WORD]``
to time the two CLI commands below (``--only tianjin``: those whose name holds the
word), each in a fresh interpreter (imports included, as a user waits), once per
source tree given with ``--src`` (a ``src`` directory holding
``majiang``, e.g. a checkout of an older commit for the "before" column; default the
tree this script's ``majiang`` is imported from).  Wall and CPU seconds (the children's
user + system time: the figure that does not depend on other load on the machine) are
printed per command and tree, the least of ``--repeat`` runs.

Measured on the shared 2-core machine (one run each, CPU seconds, the machine loaded by a
test run): changsha ``--draws 10`` 3.60 s (target 5; 91-101 s at the start of the issue),
tianjin ``--draws 10`` 2.77 s (target 3; 3.48 s at the last stop, 23 s at the start) --
after the per-thread memo of the shanten programme's rows under caps and the greedy
Monte Carlo's per-hand memo of its decisions' effective kinds.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

COMMANDS = {
    "changsha --draws 10": ["advise", "123m14556p123789s", "--draws", "10", "--rules",
                            "changsha"],
    "tianjin --draws 10": ["advise", "123m14556p123789s", "--draws", "10", "--rules",
                           "tianjin", "--indicator", "1m"],
}
TARGETS = {"changsha --draws 10": 5.0, "tianjin --draws 10": 3.0}


def run_once(src: str, args: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of ``python -m majiang *args`` with ``src`` first
    on the import path."""
    env = dict(os.environ, PYTHONPATH=src)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "majiang", *args], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", action="append", help="a src directory (repeatable)")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--only", action="append", help="time only the commands naming this word")
    a = ap.parse_args(argv)
    if a.src:
        srcs = a.src
    else:
        import majiang
        srcs = [str(Path(majiang.__file__).resolve().parents[1])]
    print(f"{'command':22} {'target':>6} {'wall s':>8} {'cpu s':>8}  src")
    for name, args in COMMANDS.items():
        if a.only and not any(w in name for w in a.only):
            continue
        for src in srcs:
            runs = [run_once(src, args) for _ in range(a.repeat)]
            wall = min(r[0] for r in runs)
            cpu = min(r[1] for r in runs)
            print(f"{name:22} {TARGETS[name]:6.1f} {wall:8.2f} {cpu:8.2f}  {src}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

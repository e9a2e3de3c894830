"""Benchmark our shanten against the peer calculators on the same random hands.

    python bench/bench_shanten.py [--n 100000] [--seed 0] [--forms all|regular|both]
                                  [--peer-subset 10000] [--repeats 3] [--json out.json]

Hands: N random 13-tile and N random 14-tile hands from a 136-tile wall (bench/peers.py).
Timings are microseconds per hand from ``time.perf_counter``, best of ``--repeats`` for
every measurement whose first run takes under a second. Peer inputs are converted to the
peer's own format *before* timing (the conversion is not timed); ours get the (N, 34) uint8
batch or its (34,) rows. Our first call (which builds the core's tables) is timed apart as
"table build". Peers have no batch API of their own, so their rows are single calls in a
Python loop and their ratio is against our single call; "disagree" counts hands where the
peer differs from us on the same form set. The pure-Python ``mahjong`` runs on the first
``--peer-subset`` hands only.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers as P  # noqa: E402

THREE = ("regular", "seven_pairs", "thirteen_orphans")
SKIP = "skipped (pip install .[bench])"
SIZES = (13, 14)


def best_time(fn, repeats: int) -> tuple[float, object]:
    """(best seconds, result of the last run); repeats only when a run is under 1 s."""
    best, out = float("inf"), None
    for i in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t0
        best = min(best, dt)
        if dt > 1.0:
            break
    return best, out


class Row:
    def __init__(self, impl, forms, kind, note=""):
        self.impl, self.forms, self.kind, self.note = impl, forms, kind, note
        self.us = {}        # size -> µs per hand
        self.ratio = {}     # size -> ratio to ours
        self.disagree = {}  # size -> "k / n" or text
        self.skipped = None


def loop(fn, inputs):
    """A Python loop of single calls; returns int8 results."""
    return np.fromiter((fn(x) for x in inputs), dtype=np.int8, count=len(inputs))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000, help="hands per size (default 100000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--forms", choices=("all", "regular", "both"), default="both",
                    help="'all' = regular+seven pairs+thirteen orphans; 'both' (default) "
                         "also runs a regular-form-only table")
    ap.add_argument("--peer-subset", type=int, default=10_000,
                    help="hands for the slow pure-Python peer (default 10000)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", help="also write the results to this JSON file")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    import majiang
    t_import = time.perf_counter() - t0
    t0 = time.perf_counter()
    majiang.shanten_batch(P.random_hands(2, 13, seed=1))
    t_build = time.perf_counter() - t0
    for s in SIZES:             # warm every path timed below
        w = P.random_hands(500, s, seed=2)
        for forms in (THREE, ("regular",), ("seven_pairs",), ("thirteen_orphans",)):
            for quads in (False, True):
                majiang.shanten_batch(w, ruleset="plain", forms=forms, seven_pairs_quads=quads)
                for row in w[:100]:
                    majiang.shanten(row, ruleset="plain", forms=forms, seven_pairs_quads=quads)

    hands = {s: P.random_hands(args.n, s, seed=args.seed + s) for s in SIZES}
    sub = min(args.peer_subset, args.n)
    cpus = os.cpu_count() or 1

    print(f"majiang {majiang.__version__}: import {t_import * 1e3:.0f} ms, "
          f"table build (first call) {t_build * 1e3:.0f} ms; "
          f"N = {args.n} hands per size, seed {args.seed}, {cpus} CPUs, numpy {np.__version__}")
    print("timings: µs per hand, best of %d; peers get pre-converted input" % args.repeats)

    results = {"n": args.n, "seed": args.seed, "import_ms": t_import * 1e3,
               "table_build_ms": t_build * 1e3, "tables": {}}
    form_sets = {"all": ["all"], "regular": ["regular"], "both": ["all", "regular"]}[args.forms]
    for fs in form_sets:
        rows = run_table(majiang, hands, fs, sub, args.repeats, cpus)
        title = ("forms: regular + seven pairs + thirteen orphans" if fs == "all"
                 else "forms: regular only")
        print()
        print_table(title, rows)
        results["tables"][fs] = [dict(impl=r.impl, forms=r.forms, kind=r.kind, note=r.note,
                                      us=r.us, ratio=r.ratio, disagree=r.disagree,
                                      skipped=r.skipped) for r in rows]
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1, default=str)
    return 0


def run_table(majiang, hands, fs, sub, repeats, cpus) -> list[Row]:
    forms = THREE if fs == "all" else ("regular",)
    fname = "r+7p+13o" if fs == "all" else "regular"
    rows: list[Row] = []
    ours_batch = Row("majiang shanten_batch", fname, "batch", "n_jobs=1")
    ours_par = Row("majiang shanten_batch", fname, "batch",
                   f"n_jobs=None ({cpus} CPUs; threads from 4096 rows)")
    ours_single = Row("majiang shanten", fname, "single", "loop over (34,) rows")
    rows += [ours_batch, ours_par, ours_single]
    ref = {}
    for s in SIZES:
        h = hands[s]
        n = len(h)
        # "plain": the peers' riichi-style forms (seven distinct pairs); the library's
        # default is Chinese Official rules (the 5-form rows below)
        dt, ref[s] = best_time(lambda: majiang.shanten_batch(h, ruleset="plain", forms=forms),
                               repeats)
        ours_batch.us[s] = dt / n * 1e6
        ours_batch.ratio[s] = 1.0
        dt, par = best_time(lambda: majiang.shanten_batch(h, ruleset="plain", forms=forms,
                                                          n_jobs=None), repeats)
        ours_par.us[s] = dt / n * 1e6
        ours_par.ratio[s] = ours_par.us[s] / ours_batch.us[s]
        ours_par.disagree[s] = f"{int((par != ref[s]).sum())}/{n}"
        rowlist = list(h)
        f = majiang.shanten
        dt, single = best_time(lambda: loop(lambda r: f(r, ruleset="plain", forms=forms),
                                            rowlist), repeats)
        ours_single.us[s] = dt / n * 1e6
        ours_single.ratio[s] = 1.0
        ours_single.disagree[s] = f"{int((single != ref[s]).sum())}/{n}"

    def peer(impl, module, pforms, convert, call, sizes=SIZES, subset=None, note="",
             compare=None):
        """Time a peer's single call in a loop; ``compare(size, idx)`` gives our values."""
        row = Row(impl, pforms, "single", note)
        rows.append(row)
        if not P.available(module):
            row.skipped = SKIP
            return
        for s in SIZES:
            if s not in sizes:
                row.disagree[s] = "n/a"
                continue
            h = hands[s][:subset] if subset else hands[s]
            inputs = convert(h)
            dt, got = best_time(lambda: loop(call, inputs), repeats)
            row.us[s] = dt / len(h) * 1e6
            row.ratio[s] = row.us[s] / ours_single.us[s]
            if compare is not None:
                mine = compare(s, len(h))
                row.disagree[s] = f"{int((got != mine).sum())}/{len(h)}"
            else:
                row.disagree[s] = "n/a (forms differ)"

    def ours(s, n, **kw):
        if not kw:
            return ref[s][:n]
        return majiang.shanten_batch(hands[s][:n], **kw)

    if fs == "all":
        import_ok = P.available("xiangting")
        if import_ok:
            import xiangting
            four = xiangting.PlayerCount.FOUR
            xcall = xiangting.calculate_replacement_number
        peer("xiangting 6 (Rust)", "xiangting", "r+7p+13o (min only)",
             lambda h: h.tolist(), (lambda x: xcall(x, four) - 1) if import_ok else None,
             compare=ours)
        if P.available("riichienv"):
            import riichienv
            rcall = riichienv.calculate_shanten
        else:
            rcall = None
        peer("riichienv (Rust)", "riichienv", "r+7p+13o (min only)", P.riichienv_inputs,
             rcall, compare=ours)
        if P.available("mahjong"):
            from mahjong.shanten import Shanten
            mcall = Shanten.calculate_shanten
        else:
            mcall = None
        peer("mahjong (pure Python)", "mahjong", "r+7p+13o", lambda h: h.tolist(), mcall,
             subset=sub, note=f"first {sub} hands", compare=ours)
        gb = _gb()
        has_mcr = all(f in getattr(majiang, "FORMS", {}) for f in
                      ("honors_and_knitted", "knitted_straight"))
        mcr_forms = THREE + ("honors_and_knitted", "knitted_straight")
        mcr_single = None
        if has_mcr:
            # our own figures for the five Chinese Official forms, the peer's comparison
            mcr_batch = Row("majiang shanten_batch", "all 5 MCR forms", "batch", "n_jobs=1")
            mcr_single = Row("majiang shanten", "all 5 MCR forms", "single",
                             "loop over (34,) rows")
            rows += [mcr_batch, mcr_single]
            for s in SIZES:
                h = hands[s]
                dt, _ = best_time(lambda: majiang.shanten_batch(
                    h, forms=mcr_forms, seven_pairs_quads=True), repeats)
                mcr_batch.us[s] = dt / len(h) * 1e6
                mcr_batch.ratio[s] = mcr_batch.us[s] / ours_batch.us[s]
                rowlist = list(h)
                dt, _ = best_time(lambda: loop(lambda r: majiang.shanten(
                    r, forms=mcr_forms, seven_pairs_quads=True), rowlist), repeats)
                mcr_single.us[s] = dt / len(h) * 1e6
                mcr_single.ratio[s] = mcr_single.us[s] / ours_single.us[s]
        peer("PyMahjongGB MahjongShanten", "MahjongGB", "all 5 MCR forms", P.gb_inputs,
             (lambda x: gb.MahjongShanten((), x)) if gb else None, sizes=(13,),
             note="13 tiles only; x ours = vs our 5-form single call",
             compare=(lambda s, n: ours(s, n, forms=mcr_forms, seven_pairs_quads=True))
             if has_mcr else None)
        if mcr_single is not None and rows[-1].us.get(13):
            rows[-1].ratio[13] = rows[-1].us[13] / mcr_single.us[13]
        peer("PyMahjongGB SevenPairsShanten", "MahjongGB", "7p (quad = 2 pairs)",
             P.gb_inputs, (lambda x: gb.SevenPairsShanten(x)[0]) if gb else None,
             sizes=(13,), note="vs ours seven_pairs_quads=True",
             compare=lambda s, n: ours(s, n, forms=("seven_pairs",), seven_pairs_quads=True))
        peer("PyMahjongGB ThirteenOrphansShanten", "MahjongGB", "13o", P.gb_inputs,
             (lambda x: gb.ThirteenOrphansShanten(x)[0]) if gb else None, sizes=(13,),
             compare=lambda s, n: ours(s, n, forms=("thirteen_orphans",)))
    else:
        if P.available("mahjong"):
            from mahjong.shanten import Shanten
            mcall = Shanten.calculate_shanten_for_regular_hand
        else:
            mcall = None
        peer("mahjong regular (pure Python)", "mahjong", "regular", lambda h: h.tolist(),
             mcall, subset=sub, note=f"first {sub} hands", compare=ours)
        gb = _gb()
        peer("PyMahjongGB RegularShanten", "MahjongGB", "regular (no 4-copy limit)",
             P.gb_inputs, (lambda x: gb.RegularShanten(x)[0]) if gb else None, sizes=(13,),
             note="13 tiles only", compare=ours)
        for name in ("xiangting", "riichienv"):
            r = Row(name, "-", "-", "no regular-only API (minimum of 3 forms only)")
            r.skipped = "n/a"
            rows.append(r)
    return rows


def _gb():
    try:
        import MahjongGB
    except ImportError:
        return None
    return MahjongGB


def print_table(title: str, rows: list[Row]) -> None:
    head = ["implementation", "forms", "calls", "µs/13", "µs/14", "×ours 13", "×ours 14",
            "disagree 13", "disagree 14", "note"]
    table = []
    for r in rows:
        if r.skipped:
            table.append([r.impl, r.forms, r.kind] + ["-"] * 6
                         + ["; ".join(x for x in (r.skipped, r.note) if x and x != "n/a")])
            continue
        cells = [r.impl, r.forms, r.kind]
        cells += [f"{r.us[s]:.3f}" if s in r.us else "-" for s in SIZES]
        cells += [f"{r.ratio[s]:.2f}" if s in r.ratio else "-" for s in SIZES]
        cells += [r.disagree.get(s, "-") for s in SIZES]
        cells.append(r.note)
        table.append(cells)
    widths = [max(len(str(c)) for c in col) for col in zip(head, *table)]
    print(title)
    print("  ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip())
    print("  ".join("-" * w for w in widths))
    for cells in table:
        print("  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip())
    print("×ours: batch rows vs our batch (n_jobs=1), single-call rows vs our single call")


if __name__ == "__main__":
    sys.exit(main())

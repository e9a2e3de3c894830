"""Calibration of ``p_deal_in`` (:mod:`majiang.studies.calibration`) from the command line.

    python bench/calibrate_danger.py HANDS PER_HAND [RULESET ...] [--jobs N] [--out DIR]

plays ``HANDS`` hands of four efficiency players per ruleset (default mcr, sichuan,
guangdong), studies ``PER_HAND`` discards sampled per hand, and prints the Brier score and
AUC of the danger model and of the two baselines (copies seen only; a constant), both fitted
on the other half of the hands, and the model's reliability table (10 bins of equal
count).  With ``--out`` it writes ``DIR/<ruleset>.csv`` (one row per discard) and
``DIR/<ruleset>.png`` (the reliability diagram).  ``--botzone`` adds the bundled real
games (``HANDS`` 0: only them).  The issue's 100,000 discards per ruleset:

    python bench/calibrate_danger.py 12500 8 --jobs -1 --out calibration

(``--seed S`` plays another set of hands; ``--merge A.csv B.csv ...`` scores the
discards of several runs together; with ``--fit`` it fits the recalibration of
``opponents.CALIBRATION`` on their fit half, with ``--recalibrate`` it scores raw runs as
recalibrated by the current fit).
"""
from __future__ import annotations

import argparse
import os

import numpy as np

from majiang.studies.calibration import botzone_calibration, danger_calibration


def report(name: str, out: dict) -> str:
    d = out["discards"]
    test = d[d["half"] == "test"]
    lines = [f"### {name}: {len(d)} discards from {out['n_hands']} hands "
             f"({len(test)} in the test half, {int(test['truth'].sum())} deal-ins); "
             f"model {out['model']!r}", "",
             "| predictor | Brier | AUC |", "|---|---|---|"]
    for k, r in out["scores"].iterrows():
        lines.append(f"| {k} | {r['brier']:.5f} | {r['auc']:.3f} |")
    lines += ["", "| bin p range | n | mean p | observed | s.e. | gap / s.e. |",
              "|---|---|---|---|---|---|"]
    for _, r in out["reliability"]["model"].iterrows():
        z = r["gap"] / r["se"] if r["se"] > 0 else float("nan")
        lines.append(f"| {r['lo']:.4f}–{r['hi']:.4f} | {int(r['n'])} | {r['mean_p']:.4f} | "
                     f"{r['rate']:.4f} | {r['se']:.4f} | {z:+.1f} |")
    sc = out["scores"]
    beats = all(sc.loc["model", "brier"] < sc.loc[k, "brier"] for k in ("seen", "constant"))
    rel = out["reliability"]["model"]
    big = rel[rel["n"] >= 500]
    ok = (big["gap"].abs() <= np.maximum(2 * big["se"], 0.02)).sum()
    lines += ["", f"model Brier below both baselines: {'yes' if beats else 'no'}; bins of "
              f">= 500 discards within 2 s.e. (or 0.02) of the observed rate: {ok} of "
              f"{len(big)}"]
    return "\n".join(lines) + "\n"


def merged(paths: list, ruleset: str = "mcr", *, recalibrate: bool = False,
           raw: bool = False) -> dict:
    """The scores of :func:`majiang.studies.calibration.score` on the discards of several
    runs' CSV files (``--out``), hand numbers offset so that the runs' hands stay apart
    and keep their parity (fit / test half).  ``recalibrate``: ``p`` recomputed from the
    raw reading (column ``p_raw``; ``p`` in files written before the recalibration
    existed) by the current recalibration of ``ruleset`` (step 6 of
    :mod:`majiang.opponents`), so that runs of the raw model are scored as the shipped
    model reads them; ``raw``: the raw reading itself is scored."""
    import pandas as pd
    from majiang.opponents import DEFAULT_MODEL
    from majiang.rules.model import game_model
    from majiang.studies.calibration import score
    parts, off = [], 0
    for path in paths:
        d = pd.read_csv(path)
        if "p_raw" not in d.columns:
            d["p_raw"] = d["p"]
        d = d[["hand", "step", "seat", "tile", "p", "p_se", "copies_seen", "truth", "p_raw"]]
        d["hand"] += off
        off = int(d["hand"].max()) + 1
        off += off % 2
        parts.append(d)
    df = pd.concat(parts, ignore_index=True)
    if recalibrate:
        df["p"] = DEFAULT_MODEL.recalibrate(game_model(ruleset), df["p_raw"].to_numpy())[0]
    elif raw:
        df["p"] = df["p_raw"]
    out = score(df)
    out.update({"model": "ready-hand samples", "n_hands": off})
    return out


def fit(paths: list) -> tuple:
    """``(a, b)`` of the recalibration fitted on the fit half (even hands) of the merged
    runs' raw readings (:func:`majiang.studies.calibration.fit_recalibration`)."""
    from majiang.studies.calibration import fit_recalibration
    d = merged(paths)["discards"]
    f = d[d["half"] == "fit"]
    return fit_recalibration(f["p_raw"].to_numpy(), f["truth"].to_numpy(dtype=float))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("hands", type=int)
    ap.add_argument("per_hand", type=int)
    ap.add_argument("rulesets", nargs="*", default=["mcr", "sichuan", "guangdong"])
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--out", default=None)
    ap.add_argument("--botzone", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--merge", nargs="+", default=None, metavar="CSV",
                    help="score the discards of earlier runs' CSV files together (hands "
                         "renumbered run after run) instead of playing")
    ap.add_argument("--recalibrate", action="store_true",
                    help="with --merge: score the raw readings as recalibrated by the "
                         "current fit (opponents.CALIBRATION)")
    ap.add_argument("--fit", action="store_true",
                    help="with --merge: fit the recalibration (a, b) on the fit half and "
                         "print it (for opponents.CALIBRATION)")
    ap.add_argument("--plot", default=None, help="with --merge: save the reliability "
                    "diagram to this file")
    a = ap.parse_args()
    if a.merge:
        name = a.rulesets[0] if a.rulesets else "mcr"
        if a.fit:
            print(f"{name}: (a, b) = {fit(a.merge)}", flush=True)
            return
        out = merged(a.merge, name, recalibrate=a.recalibrate)
        print(report(name, out), flush=True)
        if a.plot:
            from majiang import plots
            plots.calibration(out, title=name).savefig(a.plot)
        return
    runs = [(rs, lambda rs=rs: danger_calibration(rs, a.hands, max_discards=a.per_hand,
                                                  n_jobs=a.jobs, seed=a.seed))
            for rs in a.rulesets if a.hands > 0]
    if a.botzone:
        runs.append(("botzone", botzone_calibration))
    for name, run in runs:
        out = run()
        print(report(name, out), flush=True)
        if a.out:
            from majiang import plots
            os.makedirs(a.out, exist_ok=True)
            out["discards"].to_csv(os.path.join(a.out, f"{name}.csv"), index=False)
            plots.calibration(out, title=name).savefig(os.path.join(a.out, f"{name}.png"))


if __name__ == "__main__":
    main()

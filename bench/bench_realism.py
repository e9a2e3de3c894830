"""Realism of the built-in players under Chinese Official rules as played on Botzone.

Plays ``--hands`` hands (default 2,000; the realism targets are stated for 20,000) of four
``expert`` and of four ``efficiency`` players under ``mcr_botzone`` (136 tiles, no
flowers, one wall per seat) and prints, beside the published figures of real play:

* drawn hands (荒庄) — % of hands;
* self-draw share — % of wins that were self-drawn (杠上开花 counted as self-drawn);
* wins per player-hand — wins / (4 × hands);
* mean fan of a win;
* 平和 share and 全求人 share — % of wins scoring that fan.

Published figures (Chinese Official, 136 tiles, no flowers):

* human online games, 530,458 hands of 2017 Botzone data (README of
  github.com/ccr-cheng/botzone-mahjong-environment): 2.3 % drawn, 25.7 % self-drawn;
* strong AI, the IJCAI final, 12,288 duplicate games (github.com/SuuTTT/IJCAI-mahjong,
  ``campaign/final2_harvest/``): 1.6 % drawn, 30.2 % self-drawn, 23.2-25.2 % wins per
  player-hand, mean fan 12.45, 平和 43.0 % of wins, 全求人 not among the 12 commonest fans.

Run: ``python bench/bench_realism.py [--hands N] [--jobs K] [--players expert efficiency]
[--ruleset mcr_botzone]``.
"""
from __future__ import annotations

import argparse
import time

import majiang

PUBLISHED = {
    "drawn %": ("2.3", "1.6", "<= 3"),
    "self-draw % of wins": ("25.7", "30.2", "25-32"),
    "wins per player-hand %": ("-", "23.2-25.2", "22-26"),
    "mean fan": ("-", "12.45", "11.5-13.5"),
    "平和 % of wins": ("-", "43.0", ">= 38"),
    "全求人 % of wins": ("-", "not in top 12", "<= 5"),
}


def stats(df, players: int = 4) -> dict:
    """The realism statistics of a :func:`majiang.simulate` table."""
    n = len(df)
    wins = [(t, f, fans) for ts, fs, fl in zip(df["win_types"], df["fan_totals"], df["fans"])
            for t, f, fans in zip(ts, fs, fl)]
    nw = max(len(wins), 1)
    selfd = sum(1 for t, _, _ in wins if t in ("self_draw", "kong_replacement"))

    def share(name):
        return 100.0 * sum(1 for _, _, fans in wins if any(x[0] == name for x in fans)) / nw
    return {
        "drawn %": 100.0 * float((df["end"] == "wall").mean()) if n else 0.0,
        "self-draw % of wins": 100.0 * selfd / nw,
        "wins per player-hand %": 100.0 * len(wins) / max(players * n, 1),
        "mean fan": sum(f for _, f, _ in wins) / nw,
        "平和 % of wins": share("平和"),
        "全求人 % of wins": share("全求人"),
    }


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ruleset", default="mcr_botzone")
    ap.add_argument("--players", nargs="+", default=["expert", "efficiency"])
    a = ap.parse_args(argv)
    cols = {}
    for p in a.players:
        t = time.time()
        df = majiang.simulate(a.ruleset, a.hands, players=p, seed=a.seed, n_jobs=a.jobs,
                              progress=False)
        cols[p] = stats(df)
        print(f"{p} x4: {a.hands} hands under {a.ruleset} in {time.time() - t:.0f} s")
    head = f"{'statistic':<26}" + "".join(f"{p + ' x4':>14}" for p in a.players)
    real = a.ruleset == "mcr_botzone"
    if real:
        head += f"{'human 2017':>12}{'IJCAI final':>15}{'target':>12}"
    print(head)
    for k in PUBLISHED:
        row = f"{k:<26}" + "".join(f"{cols[p][k]:>14.2f}" for p in a.players)
        if real:
            h, ai, tgt = PUBLISHED[k]
            row += f"{h:>12}{ai:>15}{tgt:>12}"
        print(row)
    if not real:
        print(f"(no published real-play figures for {a.ruleset}: ours only)")


if __name__ == "__main__":
    main()

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

Run: ``python bench/bench_realism.py [--hands N] [--start I] [--seed S] [--jobs K]
[--players expert efficiency] [--ruleset mcr_botzone] [--plot docs/realism.png]``; the
hands are hands ``I .. I+N-1`` of the run seeded ``S`` (defaults 0 and 0: the hands of
``majiang.simulate(ruleset, N, seed=S)``), so two versions of a player compare on the same
walls; ``--plot`` draws each statistic for our players beside the published values, the
target band shaded.
"""
from __future__ import annotations

import argparse
import time

import majiang

# numeric published values and target bands for the figure: (human 2017, IJCAI final,
# (target low, target high)); None where no figure was published
PUBLISHED_NUM = {
    "drawn %": (2.3, 1.6, (0.0, 3.0)),
    "self-draw % of wins": (25.7, 30.2, (25.0, 32.0)),
    "wins per player-hand %": (None, 24.2, (22.0, 26.0)),
    "mean fan": (None, 12.45, (11.5, 13.5)),
    "平和 % of wins": (None, 43.0, (38.0, 100.0)),
    "全求人 % of wins": (None, None, (0.0, 5.0)),
}

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


def hands(ruleset, n: int, player, seed: int, start: int, jobs: int):
    """The :func:`majiang.simulate` table of hands ``start .. start+n-1`` of the run seeded
    ``seed`` (hand ``i`` is seeded by its index alone, so these are the same hands as in a
    run from 0); from a ``start`` above 0 they are played in this process."""
    if start == 0:
        return majiang.simulate(ruleset, n, players=player, seed=seed, n_jobs=jobs,
                                progress=False)
    import pandas as pd
    from majiang.game import play_hand, summarize
    return pd.DataFrame([summarize(play_hand(ruleset, player, seed=seed, hand=h))
                         for h in range(start, start + n)])


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--start", type=int, default=0,
                    help="first hand index (hands START .. START+HANDS-1 of the seed's run)")
    ap.add_argument("--ruleset", default="mcr_botzone")
    ap.add_argument("--players", nargs="+", default=["expert", "efficiency"])
    ap.add_argument("--plot", default=None, help="write the figure to this path")
    a = ap.parse_args(argv)
    cols = {}
    for p in a.players:
        t = time.time()
        c = time.process_time()
        df = hands(a.ruleset, a.hands, p, a.seed, a.start, a.jobs)
        cols[p] = stats(df)
        print(f"{p} x4: {a.hands} hands (hands {a.start}-{a.start + a.hands - 1} of seed "
              f"{a.seed}) under {a.ruleset} in {time.time() - t:.0f} s "
              f"({time.process_time() - c:.0f} s CPU in this process)")
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
    from scipy.stats import binomtest
    for p in a.players:
        k = round(cols[p]["drawn %"] * a.hands / 100)
        ci = binomtest(k, a.hands).proportion_ci(method="wilson")
        print(f"drawn hands, {p} x4: {k} of {a.hands}, 95 % Wilson interval "
              f"{100 * ci.low:.2f}-{100 * ci.high:.2f} %")
    if not real:
        print(f"(no published real-play figures for {a.ruleset}: ours only)")
    if a.plot:
        plot(cols, a.ruleset, a.hands, a.plot)
        print(f"figure: {a.plot}")


def plot(cols: dict, ruleset: str, hands: int, path: str) -> None:
    """One panel per statistic: our players' values as bars, the published values as
    markers (IJCAI final: the middle of its 23.2-25.2 % range for wins per player-hand),
    the target band shaded."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import font_manager
    cjk = [f.name for f in font_manager.fontManager.ttflist
           if any(k in f.name for k in ("CJK", "Hei", "Song", "WenQuanYi"))]
    if cjk:
        plt.rcParams["font.family"] = cjk[0]
    names = list(PUBLISHED_NUM)
    fig, axes = plt.subplots(1, len(names), figsize=(3.0 * len(names), 3.4))
    for ax, k in zip(axes, names):
        human, ai, (lo, hi) = PUBLISHED_NUM[k]
        vals = [cols[p][k] for p in cols]
        ax.bar(range(len(vals)), vals, color=["#3b7dd8", "#9aa5b1", "#c9b458"][:len(vals)])
        top = max(vals + [v for v in (human, ai) if v is not None] + [lo]) * 1.25
        ax.axhspan(lo, min(hi, top), color="#2ca02c", alpha=0.12, label="target")
        if human is not None:
            ax.axhline(human, color="#d62728", ls="--", lw=1.2, label="human 2017")
        if ai is not None:
            ax.axhline(ai, color="k", ls=":", lw=1.4, label="IJCAI final")
        ax.set_xticks(range(len(vals)), [p for p in cols], rotation=20)
        ax.set_ylim(0, top)
        label = k if cjk else k.replace("平和", "All Chows").replace("全求人", "Melded Hand")
        ax.set_title(label, fontsize=9)
    axes[0].legend(fontsize=7, loc="upper right")
    fig.suptitle(f"{ruleset}: {hands} hands per line, four copies of each player", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()

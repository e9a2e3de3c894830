"""Play many independent hands under a ruleset with bots and summarise them.

A thin command over majiang.simulate: each hand is dealt from its own seeded wall
(hand i from SeedSequence(seed).spawn(...)[i]), so the summary does not depend on
--jobs.  Prints the number of hands, the win rate of each seat (hands it won; in
blood-battle rulesets such as sichuan several seats can win one hand), the share
of wins by self-draw (自摸), the drawn-hand (荒庄, no winner) rate, the mean
number of wall draws per hand, the mean fan total of a win and the most frequent
fans (the share of wins that scored each).

Players: random, efficiency (one per seat, comma-separated; one name for every
seat).

Scale: --jobs N worker processes (default -1: every core); --out DIR writes each
finished chunk of --chunk-size hands as a Parquet file in DIR beside a manifest of
the arguments, so the same command run again after Ctrl-C or a crash plays only the
missing chunks (and a different command into DIR is refused).  A progress bar on
stderr for runs longer than a few seconds (--no-progress: none).

Examples:
  majiang simulate mcr -n 200
  majiang simulate sichuan -n 500 --players efficiency,efficiency,random,random --jobs 2
  majiang simulate guangdong -n 100 --seed 7 --json
  majiang simulate mcr -n 1000000 --out runs/mcr-1m
"""
from __future__ import annotations

import argparse
from collections import Counter

from ._common import add_json_flag, add_run_args, emit_json, run_options, write

HELP = "play N hands with bots under a ruleset and summarise wins, draws and fans"

TOP_FANS = 10


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ruleset", metavar="RULESET",
                        help="ruleset name (majiang rules lists them) or house-rule .toml file")
    add_run_args(parser, hands=100,
                 out_help="resumable run directory: one Parquet file per finished chunk "
                          "and a manifest; rerun the same command to resume")
    add_json_flag(parser)


def summarize(table, n_players: int) -> dict:
    """The summary of a :func:`majiang.simulate` table: plain Python numbers."""
    from ..game.runner import SELF_DRAWN
    n = len(table)
    wins = Counter()
    n_wins = n_self = 0
    fan_totals: list[int] = []
    fans = Counter()
    for winners, types, totals, hand_fans in zip(table["winners"], table["win_types"],
                                                 table["fan_totals"], table["fans"]):
        for seat in set(winners):
            wins[int(seat)] += 1
        n_wins += len(winners)
        n_self += sum(t in SELF_DRAWN for t in types)
        fan_totals.extend(int(t) for t in totals)
        for per_winner in hand_fans:
            for name in {f[0] for f in per_winner}:
                fans[name] += 1
    drawn = sum(len(w) == 0 for w in table["winners"])
    return {
        "ruleset": str(table["ruleset"].iloc[0]) if n else None,
        "hands": n,
        "win_rate": [wins[s] / n if n else None for s in range(n_players)],
        "wins": n_wins,
        "self_draw_share": n_self / n_wins if n_wins else None,
        "drawn_rate": drawn / n if n else None,
        "mean_draws": float(table["draws"].mean()) if n else None,
        "mean_fan_total": sum(fan_totals) / len(fan_totals) if fan_totals else None,
        "top_fans": [{"fan": f, "wins": c, "share": c / n_wins}
                     for f, c in fans.most_common(TOP_FANS)],
    }


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def run(args: argparse.Namespace) -> int:
    from ..game import simulate
    from ..rules import get as get_ruleset

    players, options = run_options(args)
    rs = get_ruleset(args.ruleset)
    table = simulate(rs, args.n, players=players, seed=args.seed, **options)
    s = summarize(table, int(rs.players))
    s["ruleset"] = rs.name
    s["players"] = args.players or "efficiency"
    s["seed"] = args.seed
    if args.out is not None:
        s["out"] = args.out
    if args.json:
        emit_json(s)
        return 0
    write(f"ruleset  {rs.name}; players {s['players']}; seed {args.seed}")
    write(f"hands    {s['hands']}  ({s['wins']} wins)")
    if args.out is not None:
        write(f"run      {args.out}  (Parquet chunks; majiang.game.read_run reads them)")
    write("win rate " + "  ".join(f"seat {i}: {_pct(r)}" for i, r in enumerate(s["win_rate"])))
    write(f"self-draw share of wins  {_pct(s['self_draw_share'])}")
    write(f"drawn hands (荒庄)       {_pct(s['drawn_rate'])}")
    write(f"mean draws per hand      {s['mean_draws']:.1f}")
    mf = s["mean_fan_total"]
    write(f"mean fan total of a win  {'-' if mf is None else f'{mf:.2f}'}")
    if s["top_fans"]:
        write("top fans " + "  ".join(f"{f['fan']} {_pct(f['share'])}" for f in s["top_fans"]))
    return 0

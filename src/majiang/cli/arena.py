"""Compare players in the duplicate format: every wall replayed in every seat order.

A thin command over majiang.arena.  Each wall (a shuffled tile order from the
seed) is played once per seat order: --rotations rotate4 (default) seats the
players in the cyclic rotations, one per seat; all24 in every order.  The luck of
the deal then falls on every player alike, so small differences in strength show
with few walls.

Prints one line per player: the mean score per hand with its 95 % interval (a t
interval over the walls, each player's score first averaged over the seat orders
of a wall), the share of hands won, dealt into (a win on the player's discard)
and drawn (nobody won), the self-drawn share of its wins, the mean fan of a win
and rank points per hand (4 / 2 / 1 / 0 for first to fourth in each hand, ties
share).

Players: random, efficiency, expert (the built-in bots; a name may repeat), one per seat.

Scale: --jobs N worker processes (default: automatic); --out DIR writes each
finished chunk of walls as a Parquet file beside a manifest of the arguments, so
the same command run again after Ctrl-C plays only the missing walls.

Examples:
  majiang arena efficiency random random random --walls 200
  majiang arena efficiency efficiency random random --rules sichuan --walls 500 --plot arena.png
  majiang arena efficiency random random random --walls 5000 --out runs/arena --jobs 2
"""
from __future__ import annotations

import argparse

from ._common import (Column, CommandError, add_json_flag, check_plot_path, emit_json,
                      fmt_float, fmt_percent, format_table, stderr_is_terminal, write)
from ._rule_options import add_option_arg, load_ruleset, ruleset_label

HELP = "compare players in the duplicate format (each wall in every seat order)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("players", metavar="PLAYER", nargs="+",
                        help="one player per seat (random, efficiency, expert)")
    # not an option: the players are named, one per seat; -n N gets a clear error
    parser.add_argument("-n", dest="player_count", metavar="N", help=argparse.SUPPRESS)
    parser.add_argument("--rules", default="mcr", metavar="RULESET",
                        help="ruleset name (majiang rules lists them; default: %(default)s)")
    add_option_arg(parser)
    parser.add_argument("--walls", type=int, default=100, metavar="N",
                        help="walls to play (default: %(default)s)")
    parser.add_argument("--rotations", choices=("rotate4", "all24"), default="rotate4",
                        help="seat orders per wall: the cyclic rotations or every order "
                             "(default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="seed (default: %(default)s)")
    parser.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="worker processes: N >= 1, or -1 for every core (default: "
                             "automatic); the result does not depend on it")
    parser.add_argument("--out", default=None, metavar="DIR",
                        help="resumable run directory (Parquet parts and a manifest); rerun "
                             "the same command to resume")
    parser.add_argument("--plot", default=None, metavar="FILE",
                        help="write a figure of the mean scores and their intervals")
    parser.add_argument("--progress", dest="progress", action="store_const", const=True,
                        default=None, help="progress bar on stderr even when it is not a "
                                           "terminal")
    parser.add_argument("--no-progress", dest="progress", action="store_const", const=False,
                        help="no progress bar")
    add_json_flag(parser)


def _signed(v) -> str:
    return f"{float(v):+.2f}"


COLUMNS = (
    Column("player", "player"),
    Column("mean_score", "score/hand", ">", _signed),
    Column("ci", "95% interval", ">"),
    Column("win_rate", "win", ">", fmt_percent),
    Column("deal_in_rate", "deal-in", ">", fmt_percent),
    Column("drawn_rate", "drawn", ">", fmt_percent),
    Column("self_draw_share", "self-draw", ">", fmt_percent),
    Column("mean_fan", "fan/win", ">", fmt_float(2)),
    Column("rank_points", "rank pts", ">", fmt_float(3)),
)


def run(args: argparse.Namespace) -> int:
    from ..studies.arena import DEFAULT_RANK_POINTS, arena

    if args.player_count is not None:
        seats = load_ruleset(args.rules).players
        raise CommandError(f"arena takes no player count (-n {args.player_count}): name one "
                           f"PLAYER per seat, {seats} under {args.rules}, e.g. majiang arena "
                           + " ".join(["efficiency"] + ["random"] * (seats - 1)))
    if args.walls < 1:
        raise CommandError(f"--walls must be 1 or more, got {args.walls}")
    if args.jobs is not None and (args.jobs == 0 or args.jobs < -1):
        raise CommandError(f"--jobs must be 1 or more, or -1 for every core; got {args.jobs}")
    if args.plot:
        check_plot_path(args.plot)
    progress = stderr_is_terminal() if args.progress is None else args.progress
    ruleset = load_ruleset(args.rules, args.rule_options)
    table = arena(list(args.players), ruleset, args.walls, rotations=args.rotations,
                  seed=args.seed, n_jobs=args.jobs, out=args.out, progress=progress)
    hands = int(table["hands"].max())
    if args.plot:
        from ..plots import arena_intervals

        fig = arena_intervals(table, title=f"{ruleset_label(ruleset)}: duplicate, "
                                           f"{args.walls} walls x {args.rotations}")
        try:
            fig.savefig(args.plot)
        except (OSError, ValueError) as exc:
            raise CommandError(f"cannot write the plot {args.plot!r}: {exc}") from None
    if args.json:
        data = {"ruleset": table.attrs["ruleset"], "walls": args.walls,
                "rotations": args.rotations, "seed": args.seed, "hands_per_player": hands,
                "confidence": 0.95, "rank_points": list(DEFAULT_RANK_POINTS)}
        if args.out is not None:
            data["out"] = args.out
        emit_json({**data, "rows": table})
        return 0
    write(f"ruleset  {ruleset_label(ruleset)}; {args.walls} walls x {args.rotations} "
          f"({hands} hands per player); seed {args.seed}")
    if args.out is not None:
        write(f"run      {args.out}  (Parquet parts; majiang.studies.arena.read_arena reads them)")
    rows = []
    for r in table.to_dict("records"):
        ci = "-" if r["lo"] != r["lo"] else f"[{r['lo']:+.2f}, {r['hi']:+.2f}]"
        rows.append({**r, "player": f"{r['player']} ({r['index']})", "ci": ci})
    unit = ruleset.scoring.total_label             # "fan/win", "points/win" (武汉), "tai/win"
    cols = [c._replace(header=f"{unit}/win") if c.key == "mean_fan" else c for c in COLUMNS]
    for line in format_table(rows, cols):
        write(line)
    write("score/hand: 95% t interval over walls (each wall averaged over its seat orders); "
          "rank pts: 4/2/1/0 per hand, ties share")
    return 0

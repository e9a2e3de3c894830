"""Play hands in a row under a ruleset, the dealer, his streak and the scores carried over.

A thin command over majiang.play_match: who deals the next hand follows the ruleset's
own rule (majiang rules NAME shows it on its "dealer" line: keep on a win, on a drawn
hand …); the dealer's streak (連莊 / 连庄) is passed to each hand through the ruleset's
streak option, so a ruleset that pays it (台湾 連莊 / 拉莊, 安庆, 贵州 …) pays it hand by
hand; the prevalent wind moves on after every four passes of the deal.  Prints one line
per hand — match, hand, prevalent wind, dealer, streak, winners (seat and how), each
seat's score change and running score — and each match's final scores.

--rounds R plays until the deal has gone round the table R times (4: 东南西北, a full
game; default 1); --hands N plays N hands instead.  --matches M plays M independent
matches one after another.  Players and seed as in simulate.

Examples:
  majiang match taiwan
  majiang match guangdong --rounds 4 --players expert,efficiency,efficiency,efficiency
  majiang match anqing --hands 12 --seed 3 --json
"""
from __future__ import annotations

import argparse

from ._common import add_json_flag, emit_json, parse_players, write
from ._rule_options import add_option_arg, load_ruleset, ruleset_label

HELP = "play hands in a row: dealer, streak (連莊) and scores carried from hand to hand"

_WINDS = "ESWN"
_HOW = {"self_draw": "self-drawn", "kong_replacement": "kong replacement",
        "discard": "discard", "robbing_kong": "robbing a kong", "flower": "flowers",
        "discard_win": "on its own discards"}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ruleset", metavar="RULESET",
                        help="ruleset name (majiang rules lists them) or house-rule .toml file")
    add_option_arg(parser)
    g = parser.add_mutually_exclusive_group()
    g.add_argument("--rounds", type=int, default=None, metavar="R",
                   help="play until the deal has gone round the table R times (default 1)")
    g.add_argument("--hands", type=int, default=None, metavar="N",
                   help="play N hands instead of whole rounds")
    parser.add_argument("--matches", type=int, default=1, metavar="M",
                        help="independent matches, one after another (default 1)")
    parser.add_argument("--players", default=None, metavar="NAME[,NAME...]",
                        help="random, efficiency or expert, one per seat or one for every "
                             "seat (default: efficiency)")
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    add_json_flag(parser)


def run(args: argparse.Namespace) -> int:
    from ..game import play_match

    rs = load_ruleset(args.ruleset, args.rule_options)
    df = play_match(rs, parse_players(args.players), hands=args.hands, rounds=args.rounds,
                    matches=args.matches, seed=args.seed)
    rows = []
    for r in df.itertuples():
        rows.append({"match": int(r.match), "hand": int(r.hand),
                     "prevalent_wind": _WINDS[int(r.prevalent_wind) % 4],
                     "dealer": int(r.dealer), "dealer_streak": int(r.dealer_streak),
                     "winners": [{"seat": int(s), "how": str(h)}
                                 for s, h in zip(r.winners, r.win_types)],
                     "end": str(r.end), "score_deltas": [int(x) for x in r.score_deltas],
                     "scores": [int(x) for x in r.scores]})
    final = {}
    for row in rows:
        final[row["match"]] = row["scores"]
    if args.json:
        emit_json({"ruleset": rs.name, "players": args.players or "efficiency",
                   "seed": args.seed, "hands": rows,
                   "final_scores": [final[m] for m in sorted(final)]})
        return 0
    write(f"ruleset  {ruleset_label(rs)}; players {args.players or 'efficiency'}; seed {args.seed}")
    write(f"dealer   {_dealer_text(rs)}")
    write()
    write("match  hand  wind  dealer  streak  winners                      change"
          "                scores")
    for row in rows:
        won = ", ".join(f"seat {w['seat']} ({_HOW.get(w['how'], w['how'])})"
                        for w in row["winners"]) or "drawn hand"
        write(f"{row['match']:>5}  {row['hand']:>4}  {row['prevalent_wind']:>4}  "
              f"{row['dealer']:>6}  {row['dealer_streak']:>6}  {won:<27}  "
              f"{_seats(row['score_deltas']):<20}  {_seats(row['scores'])}")
    if not rows:
        write("no hands played (--hands 0)")
    write()
    for m in sorted(final):
        write(f"final    match {m}: " + "  ".join(f"seat {i} {v:+d}"
                                                  for i, v in enumerate(final[m])))
    return 0


def _seats(values) -> str:
    return " ".join(f"{v:+d}" for v in values)


def _dealer_text(rs) -> str:
    """Who deals next under ``rs``, as ``majiang rules NAME`` words it."""
    from ..rules import describe
    return str(describe(rs)["next_dealer"]["rule"])

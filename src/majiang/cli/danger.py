"""How dangerous each discard is at a table position (放铳: a discard another player wins on).

The position is the hand of the seat to play (--seat, default 0) with every seat's
rivers (--discards, one entry per seat in seat order, tiles in the order thrown; "-" for
an empty river; "6p@2" marks a tile seat 2 claimed) and melds (--melds, one entry per
seat: "[123m]@3 [555z]", "-" for none).  Tiles not seen are in the other hands or the
wall.

For every tile kind in the hand: seen = copies on the table and in the other seats'
melds (生张 when none, 熟张 otherwise); p_deal_in = the probability that discarding it
completes a valid win for some opponent, with its standard error (±1SE) and one column
per opponent; exp_loss = the points expected to be paid for it (under the ruleset's
settlement; Chinese Official rules: the winner's fan + 8).  A line above the table names
the opponent model and each opponent's probability of being ready.  The model
(majiang.opponents): the chance an opponent is ready grows with its discards and melds
(fitted on self-play of the library's efficiency players); its ready hands are drawn from
the unseen tiles and judged by the ruleset's own win rules (Chinese Official: a wait
below 8 fan does not win); a hand that could have won on a tile it let pass, or on its
own latest discard, is unlikely.

--position FILE|TEXT reads the whole table instead (a .toml / .json position file or the
one-line form, as "majiang advise --position" takes: docs/position.md); HAND and the
options that describe the table (--discards, --melds, --seat, --dealer, --wind, --drawn,
--won, --voids, another --rules) are then refused.

Example:
  majiang danger 123m456m789p6p11s2s9p --drawn 9p \\
      --discards 1z2z9s1m8s5z3m2p 3z4z1s7z9m1p4s2z3s6p 7z8m2s4s1z3z5z7m5s6p 2z5z3s7s4z6z1s8m9m6p
  majiang danger --position position.toml
"""
from __future__ import annotations

import argparse

from ._common import (
    Column, CommandError, add_json_flag, add_position_arg, add_rules_arg, emit_json,
    fmt_float, format_table, load_position, load_ruleset, write,
)

HELP = "the danger of each discard at a table position (放铳 probability, expected loss)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("hand", metavar="HAND", nargs="?",
                        help='the seat\'s concealed tiles (and own melds), e.g. '
                             '"123m456m789p6p11s2s9p"')
    parser.add_argument("--discards", nargs="+", metavar="RIVER",
                        help='every seat\'s discards in order, one per seat ("-" = none), '
                             'e.g. 1z9m 3z6p - 7s; "6p@2" = claimed by seat 2')
    parser.add_argument("--melds", nargs="+", metavar="MELDS",
                        help='every seat\'s melds, one per seat ("-" = none), e.g. - '
                             '"[123m]@0" - "[555z]@1"')
    parser.add_argument("--seat", type=int, default=0, help="the seat to play (default 0)")
    parser.add_argument("--dealer", type=int, default=0, help="the dealer's seat (default 0)")
    parser.add_argument("--wind", type=int, default=0,
                        help="prevalent wind 0..3 = East South West North (default 0)")
    parser.add_argument("--drawn", metavar="TILE", help="the tile just drawn (in HAND)")
    parser.add_argument("--won", nargs="+", type=int, default=(), metavar="SEAT",
                        help="seats that already won (血战 / 血流)")
    parser.add_argument("--voids", nargs="+", type=int, metavar="SUIT",
                        help="declared void suit per seat (0 万, 1 筒, 2 条, -1 none)")
    parser.add_argument("--samples", type=int, default=None,
                        help="ready hands drawn per opponent (default 600)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    add_rules_arg(parser)
    add_position_arg(parser)
    add_json_flag(parser)


def _per_seat(values, n: int, what: str):
    if values is None:
        return None
    if len(values) != n:
        raise CommandError(f"{what}: give one entry per seat ({n}), got {len(values)}")
    return [None if v == "-" else v for v in values]


TABLE_OPTIONS = (("hand", "HAND", None), ("discards", "--discards", None),
                 ("melds", "--melds", None), ("seat", "--seat", 0), ("dealer", "--dealer", 0),
                 ("wind", "--wind", 0), ("drawn", "--drawn", None), ("won", "--won", ()),
                 ("voids", "--voids", None))
"""The options that describe the table, which --position gives instead: (attribute,
option, default)."""


def _from_position(args: argparse.Namespace):
    """The position of --position, refusing the options that describe the table too."""
    from ..rules.model import game_model
    given = [opt for key, opt, default in TABLE_OPTIONS
             if getattr(args, key) not in (default, None) and getattr(args, key) != list(
                 default or [])]
    if given:
        raise CommandError(f"danger: --position gives the table; drop {', '.join(given)}")
    pos = load_position(args.position, rules=args.rules, options=args.rule_options)
    if args.rules and game_model(load_ruleset(args.rules)).name != pos.model.name:
        raise CommandError(f"danger: --rules {args.rules} but the position is played under "
                           f"{pos.model.name}; drop one of them")
    return pos


COLUMNS = [
    Column("tile", "tile"),
    Column("seen", "seen", ">"),
    Column("label", "label"),
    Column("p_deal_in", "p_deal_in", ">", fmt_float(4)),
    Column("p_deal_in_se", "±1SE", ">", fmt_float(4)),
]


def run(args: argparse.Namespace) -> int:
    from ..opponents import DEFAULT_SAMPLES
    from ..position import Position
    from ..reading import danger
    from ..rules.model import game_model

    if args.position is not None:
        pos = _from_position(args)
    elif args.hand is None:
        raise CommandError("danger needs a HAND (or --position)")
    else:
        rs = load_ruleset(args.rules, args.rule_options)
        n = game_model(rs).players
        pos = Position(args.hand, ruleset=rs, seat=args.seat, dealer=args.dealer,
                       prevalent_wind=args.wind, drawn=args.drawn,
                       discards=_per_seat(args.discards, n, "--discards"),
                       melds=_per_seat(args.melds, n, "--melds"), won=args.won,
                       voids=_per_seat(args.voids, n, "--voids"))
    n_samples = DEFAULT_SAMPLES if args.samples is None else args.samples
    df = danger(pos, n_samples=n_samples, seed=args.seed)
    if args.json:
        emit_json({"position": repr(pos), "model": df.attrs["model"],
                   "model_text": df.attrs["model_text"], "n_samples": n_samples,
                   "p_ready": df.attrs["p_ready"], "notes": df.attrs["notes"],
                   "rows": df})
        return 0
    ready = ", ".join(f"seat {s} {p:.3f}" for s, p in sorted(df.attrs["p_ready"].items()))
    write(f"{pos!r}")
    write(f"model: {df.attrs['model_text']}; {n_samples} hands per opponent, seed "
          f"{args.seed}")
    write(f"P(ready): {ready}")
    seats = [c for c in df.columns if c.startswith("p_seat")]
    cols = COLUMNS + [Column(c, "seat " + c[6:], ">", fmt_float(4)) for c in seats] + [
        Column("exp_loss", "exp_loss", ">", fmt_float(3))]
    for line in format_table(df.to_dict(orient="records"), cols):
        write(line)
    for note in df.attrs["notes"]:
        write(f"note: {note}")
    return 0

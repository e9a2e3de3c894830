"""Whether to claim the discard on offer: win, kong, pung, chow (each way) or pass.

POSITION is a table position (docs/position.md): a .toml / .json position file or the
one-line form.  The seat waits (it holds 13 tiles counting melds, 16 under a 16-tile
ruleset) and another seat's discard is on offer: the last unclaimed discard before it
in turn order, or the position's last_discard.  --tile names the offered tile (it must
be that discard).

The answers the ruleset allows are listed, best first: "win" when the hand plus the tile
is a valid win on a discard (never under a self-draw-only ruleset; under Chinese
Official rules only with at least 8 fan; the win's total in the column named by the
ruleset's unit: fan, points under 武汉 / 长沙, tai under 台湾); "kong" with three copies held;
"pung" with two; "chow 3-4-5m" for each way the tile fits a run, only from the seat
before in turn order and only where the ruleset allows chows; and "pass".  After a chow
or pung the seat must discard: the row shows the best discard of that position as
"majiang advise" ranks it, with its shanten and live effective tiles (ukeire); after a
pass or a kong the seat waits for a draw: the shanten and live effective tiles of the
waiting hand.  The called tile leaves the river and joins the seat's meld.  Rows rank
by shanten, then live ukeire; with --draws T by p_win within T draws, then p_tenpai.
When the seat must discard instead (its own turn, no --tile), the table weighs declaring
a concealed kong (four held) or an added kong (an own pung and its fourth copy; the
replacement tile is one draw more) against the best discard.
--danger adds, after a chow or pung, the chance that its discard deals in (p_deal_in),
the expected payment (exp_loss) and ev, as "majiang advise --position" does; with
--draws as well the rows rank by ev (the expected gain of the seat's own wins within
the horizon less exp_loss; a pass or a kong discards nothing now, so its exp_loss is 0).

Example:
  majiang claim "hand=1155m234p678s123z discards2=9s5m"
  majiang claim "hand=134m456p789s1122z discards3=3z2m" --draws 2
  majiang claim "hand=1111m234p678s1237z discards3=3z"
  majiang claim "ruleset=wuhan hand=..." --option min_fan=3

--option KEY=VALUE changes a build option of the position's ruleset (ruleset= in the
position; Chinese Official rules without it).
"""
from __future__ import annotations

import argparse

from ._common import (
    Column, add_json_flag, emit_json, fmt_float, format_table, load_position, write,
)
from ._rule_options import add_option_arg, ruleset_label

HELP = "whether to claim the discard on offer (win, kong, pung, chow or pass) or declare a kong"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position", metavar="POSITION",
                        help="a table position: a .toml / .json file or the one-line form, "
                             "e.g. \"hand=1155m234p678s123z discards2=9s5m\"")
    parser.add_argument("--tile", metavar="TILE",
                        help="the offered tile (default: the discard on offer)")
    parser.add_argument("--draws", type=int, default=None, metavar="T",
                        help="add p_tenpai / p_win within T draws and rank by them")
    parser.add_argument("--danger", action="store_true",
                        help="weigh the discard after a chow or pung (p_deal_in, exp_loss, "
                             "ev); slower")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    add_option_arg(parser)
    add_json_flag(parser)


def run(args: argparse.Namespace) -> int:
    from ..claims import advise_claim, advise_kong
    from ._common import CommandError

    if args.draws is not None and args.draws < 1:
        raise CommandError(f"--draws must be at least 1, got {args.draws}")
    pos = load_position(args.position, "claim", options=args.rule_options)
    if pos.must_discard and args.tile is None:      # own turn: a kong or a discard
        df = advise_kong(pos, draws=args.draws, seed=args.seed, danger=args.danger)
    else:
        df = advise_claim(pos, args.tile, draws=args.draws, seed=args.seed,
                          danger=args.danger)
    attrs = dict(df.attrs)
    if args.json:
        import pandas as pd
        df = df.assign(fan=pd.Series([None if v is None or v != v else int(v)
                                      for v in df["fan"]], index=df.index, dtype=object))
        emit_json({"position": repr(pos), **{k: v for k, v in attrs.items()
                                              if k != "calls"},
                   "calls": list(attrs["calls"]), "rows": df})
        return 0
    attrs["ruleset"] = ruleset_label(pos.model.ruleset)     # its label shows any --option
    write(f"{pos!r}")
    if "tile" in attrs:
        write(f"offered: {attrs['tile']} from seat {attrs['from_seat']} "
              f"({attrs['ruleset']})")
    else:
        write(f"own turn: declare a kong or discard ({attrs['ruleset']})")
    if args.draws is not None:
        write(f"p_win within {args.draws} draws; model {attrs.get('probability_model')}; "
              f"policy {attrs.get('policy')}")
    if args.danger and attrs.get("opponent_model_text"):
        write(f"opponent model: {attrs['opponent_model_text']}")
    cols = [Column("rank", "rank", ">"), Column("action", "action"),
            Column("discard", "discard"), Column("shanten", "shanten", ">"),
            Column("ukeire_count", "live", ">"), Column("ukeire", "ukeire"),
            Column("fan", pos.model.ruleset.scoring.total_label, ">", _fan)]
    if args.draws is not None:
        cols += [Column("p_tenpai", "p_tenpai", ">", fmt_float(4)),
                 Column("p_win", "p_win", ">", fmt_float(4))]
    if args.danger:
        cols += [Column("p_deal_in", "p_deal_in", ">", fmt_float(4)),
                 Column("exp_loss", "exp_loss", ">", fmt_float(3)),
                 Column("ev", "ev", ">", fmt_float(3))]
    for line in format_table(df.to_dict(orient="records"), cols):
        write(line)
    if attrs.get("no_win"):
        write(f"note: {attrs['no_win']}")
    return 0


def _fan(v) -> str:
    return "-" if v is None or v != v else str(int(v))

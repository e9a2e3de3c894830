"""Shanten (向听数) of a hand, per winning form and overall.

-1 = complete, 0 = tenpai (听牌), n = n tile swaps from tenpai.  For a hand
waiting for a draw (13 tiles counting melds; 16 under a 16-tile --rules such as
taiwan) also its effective tiles (有效牌): each kind whose draw lowers the
shanten, with its live count (copies still unseen, counting --visible); under
--rules with jokers and --indicator, a joker draw is listed as "<kind>*".
--visible is checked against the ruleset's tile set (4z under a 108-tile
ruleset is an error); "*" in it is a seen joker (a ruleset with one joker kind,
fixed or named by --indicator), which lowers the live count of a joker draw.  "-"
marks a form the hand cannot take (seven pairs and thirteen orphans need a fully
concealed hand).

Examples:
  majiang shanten 2345m111p456p99s6m --visible 1m1m
  majiang shanten 19m19p19s1234567z --forms thirteen_orphans
  majiang shanten "123456789m123p5s [111z]" --rules taiwan
  majiang shanten "123m456p789s1s22z*" --rules wuhan --indicator 4z   (* = a joker)
  majiang shanten 23456789m11p579s --rules sichuan --void m   (定缺 万)
"""
from __future__ import annotations

import argparse

from ._common import (
    Column, add_forms_args, add_indicator_arg, add_void_arg, add_json_flag, add_rules_arg, check_indicator,
    command_hint, emit_json, format_table,
    hand_glyphs, hand_size, parse_cli_hand, parse_cli_visible,
    plural, read_hand_faces, rules_and_forms, shanten_label, shanten_value, write,
)

HELP = "shanten per winning form; effective tiles of a hand waiting for a draw"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("hand", nargs="+", metavar="HAND",
                        help='the hand, e.g. "2345m111p456p99s6m"')
    parser.add_argument("--visible", metavar="TILES",
                        help="tiles seen outside the hand; lowers the live counts (* = a "
                             "seen joker, under --rules with one joker kind)")
    add_forms_args(parser)
    add_rules_arg(parser)
    add_indicator_arg(parser)
    add_void_arg(parser)
    add_json_flag(parser)


def run(args: argparse.Namespace) -> int:
    from ..efficiency import shanten, ukeire
    from ..hand import format_hand
    from ..rules.model import game_model

    # --rules (default: Chinese Official rules) narrowed by --forms / --seven-pairs-quads,
    # as forms= / seven_pairs_quads= narrow it in Python
    rs, eff, narrowing = rules_and_forms(args)
    forms, quads = eff.forms, eff.seven_pairs_quads
    hand = parse_cli_hand(" ".join(args.hand), rs)
    indicator = check_indicator(args.indicator, rs, needed=True)
    written = hand                  # as written: for the calls that take the indicator
    hand = read_hand_faces(hand, rs, indicator)     # wild tiles by their faces: jokers
    seen = parse_cli_visible(args.visible, hand, rs, indicator)
    visible = None if seen is None else seen.counts
    from ..rules.shapes import needs_python, ruleset_shanten
    if game_model(eff).shapes_258:       # the 2-5-8 shape families (长沙, 武汉 …)
        from ..efficiency import _b258_per_family
        per_form = {f: shanten_value(s) for f, s in _b258_per_family(hand, eff).items()}
    elif needs_python(eff):
        per_form = {f: shanten_value(s) for f, s in
                    ruleset_shanten(hand, eff, per_form=True).items()}
    else:       # the ruleset gives the hand size (16 under 台湾) and jokers
        per_form = {f: shanten_value(shanten(hand, ruleset=rs, forms=(f,),
                                             seven_pairs_quads=quads))
                    for f in forms}
    # ruleset=rs (None without --rules): a hand may hold generic jokers then
    overall = shanten_value(shanten(hand, ruleset=rs, **narrowing))
    uk = {"ruleset": rs, "indicator": indicator, **narrowing}
    waiting = (hand.n_concealed + hand.jokers) % 3 == 1
    effective = (ukeire(written, visible, **uk)
                 if waiting and overall is not None and overall >= 0 else None)

    if args.json:
        emit_json({
            "hand": format_hand(written),
            "glyphs": hand_glyphs(written),
            "tiles": hand.n_tiles,
            "forms": per_form,
            "shanten": overall,
            "seven_pairs_quads": quads,
            "visible": None if seen is None else seen.text,
            "ukeire": effective,
            "ukeire_kinds": None if effective is None else len(effective),
            "ukeire_count": None if effective is None else sum(effective.values()),
        })
        return 0

    write(f"hand     {format_hand(written)}   {hand_glyphs(written)}")
    if seen is not None:
        write(f"visible  {seen.text or '-'}")
    write()
    rows = [{"form": f, "shanten": s, "meaning": shanten_label(s) if s is not None else ""}
            for f, s in per_form.items()]
    rows.append({"form": "overall", "shanten": overall, "meaning": shanten_label(overall)})
    for line in format_table(rows, [Column("form", "form"), Column("shanten", "shanten", ">"),
                                    Column("meaning", "")]):
        write(line)
    if effective is not None:
        total = sum(effective.values())
        write()
        write(f"ukeire   {plural(total, 'live tile')} in {plural(len(effective), 'kind')}: "
              + "  ".join(f"{t}({n})" for t, n in effective.items()))
    elif not waiting:
        write()
        write(f"{hand_size(rs) + 1} tiles: to rank the discards run: "
              f"{command_hint('advise', written, args)}")
    return 0

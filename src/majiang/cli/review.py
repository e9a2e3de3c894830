"""Replay Botzone Chinese Official (MCR) logs and compare every discard with our advice.

For each game: the decisions where the player's discard is not one of our best
(with --all: every decision), then the win with its recorded fans and score and
ours beside them: "agrees" when the fan lists match fan by fan (Botzone's names
read as the rules' fans: 嵌张 = 坎张) and so do the total and score, else "DIFFERS"
naming what differs.  One concealed + one melded kong is scored 明暗杠 (5 fan) as
Botzone's judge does (the mcr option concealed_and_melded_kong, on by default);
--official-fans scores the 81 official fans instead (暗杠 2 + 明杠 1; a recorded
明暗杠 is then read as 暗杠 + 明杠).  The output names the reading used.
At the end: the agreement rate per player (seat) and overall.

Columns: turn = event index in the log; p = seat (0 East .. 3 North); hand =
the hand before the discard, melds in [ ] (exposed) and { } (concealed kong);
draw = tile just drawn (- after a chow/pung); discard and its rank in our
advice (1 = among the best); sh / live = shanten and live effective tiles
after the discard; advised = our best discard, with its sh / live.

Advice is tile efficiency only (shanten, then live effective tiles): it ignores
fans, the 8-fan minimum, defence and reads, so a disagreement is worth a look,
not proof of a mistake.

Examples:
  majiang review --example
  majiang review games.txt --player 2 --all
  majiang review --example --json > review.json
  majiang review --example --official-fans
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from typing import Any

from ._common import (
    Column, CommandError, add_json_flag, emit_json, fmt_float, fmt_percent, format_table,
    write,
)

HELP = "compare the discards of Botzone MCR game logs with our advice"

WINDS = ("East", "South", "West", "North")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", nargs="?", metavar="LOG",
                        help="Botzone log file (UTF-8 text; '-' reads standard input)")
    parser.add_argument("--example", action="store_true",
                        help="review the 8 hands shipped with majiang")
    parser.add_argument("--player", type=int, action="append", choices=range(4),
                        metavar="N", help="only seat N (0..3); repeat for several")
    parser.add_argument("--all", action="store_true",
                        help="list every decision, not only the disagreements")
    parser.add_argument("--second-order", action="store_true",
                        help="use the two-step tie-break in the ranking (slower)")
    parser.add_argument("--official-fans", action="store_true",
                        help="score the wins with the 81 official fans: one concealed + "
                             "one melded kong is 暗杠 + 明杠, not Botzone's 明暗杠")
    add_json_flag(parser)


# --------------------------------------------------------------------------
# scoring hook
# --------------------------------------------------------------------------

def win_scorer(args: argparse.Namespace) -> Callable[[Any], Mapping[str, Any]] | None:
    """The function that scores each win with our own fan calculator, or None.

    Hook for MCR scoring: return a callable taking a
    :class:`majiang.records.Win` and returning extra columns, e.g.
    ``{"our_fan_total": 9, "our_fans": [("混一色", 1), ...]}``.  They are added to
    each win in the JSON output and printed after the recorded fans.  The logs are
    Chinese Official games, so each win is scored under ``mcr`` (明暗杠 on, as
    Botzone's judge), or with ``--official-fans`` under the 81 official fans
    (``rules.mcr.MCR_OFFICIAL``).  The scorer's ``reading`` names which.
    """
    from ..review import MCRWinScorer, mcr_win_scorer
    from ..rules.mcr import MCR_OFFICIAL

    if getattr(args, "official_fans", False):
        return MCRWinScorer(MCR_OFFICIAL)
    return mcr_win_scorer


READING_TEXT = {
    "明暗杠": "one concealed + one melded kong = 明暗杠 5 fan (mcr option "
             "concealed_and_melded_kong on, as Botzone's judge)",
    "暗杠+明杠": "one concealed + one melded kong = 暗杠 2 + 明杠 1 (the 81 official fans; "
              "a recorded 明暗杠 is read as 暗杠 + 明杠)",
}
"""How the text output names each Chinese Official reading (``review.kong_reading``)."""


# --------------------------------------------------------------------------
# run
# --------------------------------------------------------------------------

def _load(args: argparse.Namespace) -> tuple[list, str]:
    from ..records import example_games, parse_games

    if args.example and args.log:
        raise CommandError("give either a LOG file or --example, not both")
    if args.example:
        return example_games(), "the shipped example"
    if not args.log:
        raise CommandError("review needs a LOG file (or --example for the shipped games)")
    path = args.log
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
    except FileNotFoundError:
        raise CommandError(f"no such log file: {path!r}") from None
    except IsADirectoryError:
        raise CommandError(f"{path!r} is a directory, not a log file") from None
    except UnicodeDecodeError as exc:
        raise CommandError(f"{path!r} is not UTF-8 text ({exc.reason} at byte {exc.start})") \
            from None
    except OSError as exc:
        raise CommandError(f"cannot read {path!r}: {exc.strerror or exc}") from None
    games = parse_games(text)
    if not games:
        raise CommandError(f"no game records in {path!r} (a record starts with 'Match <id>')")
    return games, repr(path)


DECISION_COLUMNS = [
    Column("turn", "turn", ">"),
    Column("player", "p", ">"),
    Column("hand", "hand"),
    Column("drawn", "draw"),
    Column("discard", "discard"),
    Column("rank", "rank", ">"),
    Column("shanten", "sh", ">"),
    Column("ukeire_count", "live", ">"),
    Column("advised", "advised"),
    Column("advised_shanten", "sh", ">"),
    Column("advised_ukeire_count", "live", ">"),
]

AGREEMENT_TABLE = [
    Column("player", "player", ">"),
    Column("decisions", "decisions", ">"),
    Column("agreed", "agreed", ">"),
    Column("agreement", "rate", ">", fmt_percent),
    Column("mean_rank", "mean rank", ">", fmt_float(2)),
    Column("shanten_loss", "worse shanten", ">"),
    Column("ukeire_loss", "live lost", ">", fmt_float(2)),
]


def _verdict(win: Mapping[str, Any]) -> str:
    """"agrees", or "DIFFERS: ..." naming the fans, total or score that differ."""
    what = []
    if not win.get("fans_agree", False):
        differ = win.get("fans_differ") or []
        what.append("fans " + ", ".join(f"{name} recorded {a}, ours {b}"
                                        for name, a, b in differ) if differ else "fans")
    if win.get("total_agrees") is False:
        what.append("total")
    if win.get("scores_agree") is False:
        what.append("score")
    return "agrees" if not what else "DIFFERS: " + "; ".join(what)


def _win_lines(win: Mapping[str, Any], extra: list[str]) -> list[str]:
    how = ("self-drawn" if win["self_drawn"]
           else f"from player {win['discarder']}")
    fans = " ".join(f"{name}" + (f"x{n}" if n > 1 else "") for name, n in win["fans"])
    lines = [f"  win: player {win['player']} on {win['win_tile']} ({how}), "
             f"hand {win['hand']}",
             f"       recorded {win['fan_total']} fan: {fans}"
             + ("" if win["scores"] is None
                else "; score " + " ".join(str(s) for s in win["scores"]))]
    if {"our_fan_total", "our_fans", "our_scores"} <= set(extra):
        ours = " ".join(f"{name}" + (f"x{n}" if n > 1 else "") for name, n in win["our_fans"])
        score = ("no win (below the minimum)" if win["our_scores"] is None
                 else "score " + " ".join(str(s) for s in win["our_scores"]))
        lines.append(f"       ours     {win['our_fan_total']} fan: {ours}; {score}"
                     f"  ({_verdict(win)})")
    elif extra:
        lines.append("       ours: " + ", ".join(f"{k} {win[k]}" for k in extra))
    return lines


def run(args: argparse.Namespace) -> int:
    from ..review import MCR_FORMS, WIN_COLUMNS, agreement, review_games, review_wins

    games, source = _load(args)
    players = None if args.player is None else sorted(set(args.player))
    df = review_games(games, second_order=args.second_order, players=players)
    scorer = win_scorer(args)
    wins = review_wins(games, scorer=scorer)
    reading = wins.attrs.get("reading")        # the scorer's reading (review_wins)
    extra = [c for c in wins.columns if c not in WIN_COLUMNS]
    by_player = agreement(df, "player")
    by_game = agreement(df, "game")
    overall = agreement(df, None)

    if args.json:
        emit_json({
            "source": source,
            "settings": {"forms": list(MCR_FORMS), "seven_pairs_quads": True,
                         "second_order": args.second_order, "players": players,
                         "reading": reading},
            "games": [{"game": g.match_id, "prevalent_wind": g.prevalent_wind,
                       "drawn": g.drawn} for g in games],
            "decisions": df,
            "wins": wins,
            "agreement": {"players": by_player, "games": by_game,
                          "overall": overall.to_dict(orient="records")[0]},
        })
        return 0

    write(f"review of {len(games)} game(s) from {source}: "
          f"{len(df)} discard decisions"
          + ("" if players is None else f" of player(s) {', '.join(map(str, players))}"))
    write("rank = place of the actual discard in our advice (1 = best); sh / live = shanten "
          "and live effective tiles after the discard")
    if reading is not None:
        write(f"wins scored as Chinese Official, reading {reading}: "
              f"{READING_TEXT.get(reading, reading)}")
    game_stats = by_game.set_index("game")
    for g in games:
        write()
        rows = df[df["game"] == g.match_id]
        head = f"game {g.match_id}  (prevalent wind {WINDS[g.prevalent_wind]})"
        if g.match_id in game_stats.index:
            st = game_stats.loc[g.match_id]
            head += (f": {int(st['agreed'])}/{int(st['decisions'])} decisions agree "
                     f"({fmt_percent(st['agreement'])})")
        write(head)
        shown = rows if args.all else rows[~rows["agrees"]]
        if len(shown):
            for line in format_table(shown.to_dict(orient="records"), DECISION_COLUMNS,
                                     indent="  "):
                write(line)
        elif len(rows):
            write("  every decision agrees")
        for win in wins[wins["game"] == g.match_id].to_dict(orient="records"):
            for line in _win_lines(win, extra):
                write(line)
        if g.drawn:
            write("  drawn hand (荒庄): the wall ran out")

    write()
    write("agreement per player")
    table = by_player.to_dict(orient="records")
    table += [{"player": "all", **overall.to_dict(orient="records")[0]}]
    for line in format_table(table, AGREEMENT_TABLE):
        write(line)
    write("worse shanten = discards leaving a higher shanten than ours; live lost = mean "
          "live tiles given up at equal shanten")
    return 0

"""Rank the discards of a hand that must discard (何切), best first.

The hand has 14 tiles counting melds and jokers (17 under a 16-tile --rules such
as taiwan).  Discards are ranked by
shanten after the discard, then live effective tiles (有效牌 still unseen,
counting --visible), then the two-step improvement, then the number of
effective kinds; discards equal on all of these share a rank.  --visible is
checked against the ruleset's tile set; "*" in it is a seen joker (a ruleset
with one joker kind, fixed or named by --indicator), not accepted with --draws
or --plot, whose probabilities have no place for seen jokers.

Columns: rank; discard; shanten after it; live = effective tiles still unseen;
kinds = effective tile kinds; ukeire = those kinds; 2-step = average best live
ukeire after drawing an effective tile ("-" when already tenpai; "n/a" when not
computed under this ruleset: the two-step count is made for the plain forms only,
so rulesets with shape rules or jokers such as changsha, wuhan, tianjin leave it out).

With --draws T the table gains p_tenpai and p_win: the probability of being
ready / of winning within T self-draws with the best play (exact where feasible,
see majiang.probability), and is ranked by p_win, then p_tenpai, then live
ukeire.  A line above the table names the method (exact or Monte Carlo), the
probability model and the play policy that produced them; a Monte Carlo p_win
has its standard error in column ±1SE (p_win ± one SE).  Notes of the probability
model (e.g. "P(win) = 0 by rule: a closed hand cannot win under wuhan") are printed
under the table (--json: "notes").  Under a --rules that
scores hands it also gains exp_score (expected points within T draws) and
mean_fan (mean fan total of the wins).  --plot FILE writes the curves per
discard (PNG/SVG/PDF).  --policy NAME (with --draws) plays the probabilities
with that policy: every name the probability line prints is accepted back
(optimal, greedy, "changes<=0" …) and gives the same numbers; under the
default method "greedy" is the greedy player's Monte Carlo and "optimal" the best
play that fits, and the probability line names the policy used.

A complete hand that is a valid win under the ruleset (self-drawn, on some
tile of it as the drawn one) is not advised as a hand to discard from: the
command prints "win now: N fan" (N the best total, in the ruleset's unit:
"N points" under 武汉 / 长沙, "N tai" under 台湾) and stops, unless
--discards asks for the discard table as well.  A hand complete in shape that
is no win (e.g. below the 8-fan minimum of mcr) is advised as usual, with a
line saying why it cannot win.

--position FILE|TEXT reads the whole table instead of HAND and --visible: a
.toml / .json position file or the one-line form (docs/position.md): the seat's hand
and melds, every seat's discards and melds (what they show is the visible tiles),
the ruleset, the joker indicator, the winds and the seat's declared void suit.  The
table is then weighed as well (majiang.advise given a Position): p_deal_in (the chance
the discard deals in, 放铳), exp_loss (the points then paid), exp_gain (the seat's own
self-drawn wins within the horizon, in settlement points; --draws, default the seat's
remaining draws, at most 3, or shanten + 2 for a hand 3 or more from ready) and ev = exp_gain - exp_loss, ranked by --by ev (default),
efficiency (the order without the table) or safety; a line "verdict" says whether to
push or fold and a line "opponents" names the opponent model.  --no-danger gives the
table of the hand and its visible tiles alone (faster).  When
the seat may declare a concealed or added kong, a line "kong" says whether that or the
best discard is better by shanten and live ukeire ("majiang claim POSITION" prints the
full table).

--model table (with --draws) takes p_tenpai / p_win from the whole-hand engine at a
full table instead of the single-player model: the hand after each discard is dealt to
the dealer's seat and played against three efficiency bots, --samples hands per discard
(default 400; a Monte Carlo, ±1SE shown), so opponents who win first or take tiles
count.  It starts from a deal: no melds, --visible or --position, and no --policy or
--plot.

--void SUIT (m, p or s; --rules with a void suit such as sichuan) declares the
player's void suit (定缺): the complete hand must lack that suit, and while the
hand holds tiles of it only those are listed (they are discarded first).

Example:
  majiang advise 23345m111p456p99s6m --visible 1m1m7m
  majiang advise --position "hand=23345m111p456p99s6m seat=1 discards0=1z7m@29m \
      discards3=7m5z melds2=[777m]@0"
  majiang advise 2225678m88p12466s --draws 18 --plot curves.png
  majiang advise 123456789m11p579s --rules sichuan --void m
"""
from __future__ import annotations

import argparse
import re

from ._common import (
    Column, CommandError, add_forms_args, add_indicator_arg, add_json_flag, add_void_arg,
    add_position_arg, add_rules_arg, check_indicator, load_position, position_options, check_plot_path, command_hint, emit_json,
    fmt_float, format_table, hand_glyphs, hand_size, parse_cli_hand,
    parse_cli_visible, plural, read_hand_faces, refuse_seen_jokers, rules_and_forms,
    shanten_label, shanten_value, write,
)
from ._rule_options import ruleset_label

HELP = "rank the discards of a hand that must discard (何切)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("hand", nargs="*", metavar="HAND",
                        help='the hand, e.g. "23345m111p456p99s6m" or "3m456p789s1166z [555z]"')
    parser.add_argument("--visible", metavar="TILES",
                        help="tiles seen outside the hand (discards, others' melds), e.g. 1m1m7m; "
                             "* = a seen joker (--rules with one joker kind; not with --draws)")
    parser.add_argument("--no-second-order", dest="second_order", action="store_false",
                        help="skip the two-step tie-break (faster)")
    parser.add_argument("--draws", type=int, metavar="T",
                        help="add p_tenpai / p_win within T self-draws (e.g. 18)")
    parser.add_argument("--plot", metavar="FILE",
                        help="write win/tenpai curves per discard to FILE (needs --draws; "
                             "default 18)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed for Monte Carlo estimates (default 0)")
    parser.add_argument("--policy", metavar="NAME",
                        help='play policy of the probabilities (needs --draws): any name the '
                             'probability line prints, e.g. optimal, greedy, "changes<=0"')
    parser.add_argument("--model", metavar="NAME", choices=("single", "table"),
                        help="probability model of --draws: single (default, the player "
                             "alone, exact where feasible) or table (a Monte Carlo of the "
                             "whole table with three efficiency bots)")
    parser.add_argument("--samples", type=int, metavar="N",
                        help="hands played per discard by --model table (default 400)")
    parser.add_argument("--by", choices=("ev", "efficiency", "safety"), default=None,
                        help="with --position: rank by ev (default), efficiency or safety")
    parser.add_argument("--no-danger", dest="danger", action="store_false",
                        help="with --position: leave the danger columns out (faster)")
    parser.add_argument("--discards", action="store_true",
                        help="rank the discards even when the hand wins now")
    add_forms_args(parser)
    add_rules_arg(parser)
    add_indicator_arg(parser)
    add_void_arg(parser)
    add_position_arg(parser)
    add_json_flag(parser)


COLUMNS = [
    Column("rank", "rank", ">"),
    Column("discard", "discard"),
    Column("shanten", "shanten", ">"),
    Column("ukeire_count", "live", ">"),
    Column("ukeire_kinds", "kinds", ">"),
    Column("ukeire", "ukeire"),
    Column("valid_ukeire", "valid", ">"),
    Column("waits_fan", "waits fan (discard/self-drawn)", "<", lambda v: v or "-"),
    Column("improvement", "2-step", ">", lambda v: v if isinstance(v, str) else f"{v:.2f}"),
    Column("p_tenpai", "p_tenpai", ">", fmt_float(3)),
    Column("p_win", "p_win", ">", fmt_float(3)),
    Column("se_win", "±1SE", ">", fmt_float(3)),
    Column("exp_score", "exp_score", ">", fmt_float(3)),
    Column("mean_fan", "mean_fan", ">", fmt_float(2)),
]

DANGER_COLUMNS = [
    Column("exp_gain", "exp_gain", ">", fmt_float(3)),
    Column("p_deal_in", "p_deal_in", ">", fmt_float(4)),
    Column("exp_loss", "exp_loss", ">", fmt_float(3)),
    Column("ev", "ev", ">", fmt_float(3)),
]
"""Shown with --position (the table weighed, majiang.advise given a Position)."""
WAIT_COLUMNS = ("valid_ukeire", "waits_fan")
"""Shown under a ruleset whose complete shapes may still not win (a minimum in fan):
the live copies of the tenpai waits that win, and each wait's fan total."""
UNIT_HEADERS = {"waits_fan": "waits {unit} (discard/self-drawn)", "mean_fan": "mean_{unit}"}
"""Headers of the columns of a win's total, in the ruleset's unit
(:attr:`majiang.rules.ScoringRule.total_label`: ``mean_points`` under 武汉 / 长沙)."""
DRAW_COLUMNS = ("p_tenpai", "p_win", "exp_score", "mean_fan")
"""Columns present only with --draws (exp_score/mean_fan only when the table has them;
se_win, labelled ±1SE, only when some p_win is a Monte Carlo estimate)."""

PROVENANCE = ("method", "model", "policy")
"""Columns of the advise table naming what produced p_win/p_tenpai."""


def provenance(table) -> list[dict]:
    """The distinct (method, model, policy) of the table's rows, in row order: what
    produced p_win/p_tenpai (one entry unless discards were computed differently)."""
    if not all(k in table.columns for k in PROVENANCE):
        return []
    seen: list[dict] = []
    for rec in table[list(PROVENANCE)].to_dict(orient="records"):
        rec = {k: (None if v is None or (isinstance(v, float) and v != v) else str(v))
               for k, v in rec.items()}
        if rec not in seen:
            seen.append(rec)
    return seen


NOT_COMPUTED = "n/a"
"""The 2-step cell of a row not yet tenpai whose two-step count the ruleset does not
compute ("-" is kept for a tenpai row, which has no two-step)."""


def two_step_cell(value, shanten):
    """The ``2-step`` cell: `value` when computed; None (shown ``-``) for a tenpai or
    unarranged row; :data:`NOT_COMPUTED` for a row of shanten 1 or more without it."""
    if value is not None and value == value:
        return value
    if shanten is not None and shanten == shanten and shanten >= 1:
        return NOT_COMPUTED
    return None


def probability_notes(table) -> list[dict]:
    """The distinct non-empty notes of the probability model in the advise table
    (column ``note``), in row order, e.g. that P(win) is 0 by rule: each
    ``{"note": text, "discards": [the discards it applies to, in table order]}``.
    A row's note is split at ``"; "`` into its clauses, so that a clause shared by
    every row is given once; clauses that differ only in their numbers (walls played
    per discard) are given once with each varying number as its range ``lo–hi``."""
    if "note" not in table.columns:
        return []
    out: dict[str, tuple[list[str], list[str]]] = {}    # shape -> (clauses, discards)
    for d, v in zip(table["discard"], table["note"]):
        if isinstance(v, str) and v:
            for clause in dict.fromkeys(c.strip() for c in v.split("; ")):
                if clause:
                    texts, who = out.setdefault(_NUMBER.sub("\0", clause), ([], []))
                    texts.append(clause)
                    who.append(str(d))
    return [{"note": _number_ranges(shape, texts), "discards": list(dict.fromkeys(who))}
            for shape, (texts, who) in out.items()]


_NUMBER = re.compile(r"\d+")


def _number_ranges(shape: str, texts: list[str]) -> str:
    """`shape` (numbers as NUL characters) with each number from `texts`, or its range
    ``lo–hi`` where the texts differ there."""
    cols = zip(*([int(x) for x in _NUMBER.findall(t)] for t in texts))
    parts = [str(c[0]) if min(c) == max(c) else f"{min(c)}–{max(c)}" for c in cols]
    it = iter(parts)
    return re.sub("\0", lambda _: next(it), shape)


def minimum_note(table, ruleset, draws: int | None) -> dict | None:
    """The note when every discard's p_win is 0 while some reaches tenpai and the
    ruleset (None: Chinese Official rules) has a minimum a win must reach: the ready
    hands the play reaches win nothing that meets it (武汉 ``min_fan=3``); None
    otherwise.  The minimum in words as ``majiang rules NAME`` prints it
    (:func:`majiang.rules.summary.minimum_words`)."""
    from ..rules import get as get_ruleset
    from ..rules.summary import minimum_words
    if draws is None or "p_win" not in table.columns or "p_tenpai" not in table.columns:
        return None
    wins, ready = table["p_win"].dropna(), table["p_tenpai"].dropna()
    if wins.empty or (wins > 0).any() or not (ready > 0).any():
        return None
    rs = ruleset if ruleset is not None else get_ruleset("mcr")
    if not rs.min_fan and not rs.win_minimum:
        return None
    return {"note": f"every p_win is 0: a win under {ruleset_label(rs)} must reach "
                    f"{minimum_words(rs)}, and the "
                    f"ready hands this play reaches within {plural(draws, 'draw')} fall "
                    "below it",
            "discards": [str(d) for d in table.loc[wins.index, "discard"]]}


def note_lines(notes: list[dict], n_evaluated: int) -> list[str]:
    """Text lines under the table: ``note     <text>``, prefixed by the discards it
    applies to unless it applies to all `n_evaluated` rows with probabilities."""
    lines = []
    for n in notes:
        who = "" if len(n["discards"]) == n_evaluated else f"({' '.join(n['discards'])}) "
        lines.append(f"note     {who}{n['note']}")
    return lines


SE_LABEL = "p_win ± 1 standard error in column ±1SE"
"""What a Monte Carlo row's ``±1SE`` column is, said on the provenance line."""


def provenance_line(prov: list[dict]) -> str:
    """``"probability  exact; model kind counts; policy changes<=0"`` (several
    entries joined by `` | ``); a Monte Carlo entry says what its ± is
    (:data:`SE_LABEL`)."""
    return "probability  " + " | ".join(
        f"{p['method'] or '-'}"
        + (f" ({SE_LABEL})" if p["method"] == "monte_carlo" else "")
        + f"; model {p['model'] or '-'}; policy {p['policy'] or '-'}"
        for p in prov)


def run(args: argparse.Namespace) -> int:
    from ..analysis import advise, completion
    from ..efficiency import shanten
    from ..hand import format_hand

    if args.plot:                      # a bad path fails now, not after the table
        check_plot_path(args.plot)
    winds = {}
    kong = None
    pos = None
    if (args.by is not None or not args.danger) and args.position is None:
        raise CommandError("--by and --no-danger weigh a table position: give --position")
    if args.position is not None:
        pos = load_position(args.position, rules=args.rules, options=args.rule_options)
        position_options(args, pos, "advise")
        if not args.danger:
            from ..claims import kong_note
            kong = kong_note(pos)       # a concealed / added kong instead of a discard
        text = format_hand(pos.hand)
        winds = {"seat_wind": pos.seat_wind, "prevalent_wind": pos.prevalent_wind}
    elif not args.hand:
        raise CommandError("advise needs a HAND (or --position)")
    else:
        text = " ".join(args.hand)
    # --rules (default Chinese Official) narrowed by --forms / --seven-pairs-quads as in
    # Python; the probabilities (no forms= of their own) take the narrowed ruleset
    ruleset, eff, fq = rules_and_forms(args)
    forms, quads = eff.forms, eff.seven_pairs_quads
    narrowing = fq["forms"] is not None or fq["seven_pairs_quads"] is not None
    prob_rules = eff if narrowing else ruleset
    hand = parse_cli_hand(text, ruleset)
    if (hand.n_concealed + hand.jokers) % 3 != 2:
        size = hand_size(ruleset)
        raise CommandError(
            f"advise needs a hand that must discard ({size + 1} tiles counting melds), "
            f"got {hand.n_tiles} in {text!r}; for the effective tiles of a hand waiting "
            f"for a draw run: {command_hint('shanten', hand, args)}")
    indicator = check_indicator(args.indicator, ruleset, needed=True)
    ind = {} if indicator is None else {"indicator": indicator}
    faces = read_hand_faces(hand, ruleset, indicator)     # wild tiles by their faces
    seen = parse_cli_visible(args.visible, faces, ruleset, indicator)
    visible = None if seen is None else seen.counts
    current = shanten_value(shanten(faces, ruleset=ruleset, **fq))
    draws = args.draws
    if args.plot and draws is None:
        draws = 18
    if draws is not None and draws < 0:
        raise CommandError(f"--draws must be 0 or more, got {draws}")
    if draws is not None:
        refuse_seen_jokers(seen, "--plot" if args.draws is None else "--draws")
    if args.policy is not None and draws is None:
        raise CommandError("--policy names the play policy of p_win / p_tenpai: give --draws")
    model = _model_options(args, draws, seen)
    done = completion(hand, ruleset=ruleset, **fq, **ind, **winds)
    win_now = done.text if done is not None and done.wins else None
    no_win = done.text if done is not None and not done.wins else None
    if win_now is not None and not (args.discards or args.plot):
        return _print_win_now(args, hand, current, seen, forms, quads, draws, win_now)
    pol = {} if args.policy is None else {"policy": args.policy}
    weighed = pos is not None and args.danger
    if weighed:                 # the table weighed: danger, exp_gain, ev
        from ..reading import horizon
        by = args.by or "ev"
        if draws is None and by != "efficiency":
            draws = horizon(pos)
        table = advise(pos, second_order=args.second_order, draws=draws, seed=args.seed,
                       by=by, **fq, **pol)
        kong = table.attrs.get("kong")
    else:
        table = advise(hand, visible, ruleset=ruleset, second_order=args.second_order,
                       draws=draws, seed=args.seed, **fq, **ind, **pol, **winds, **model)
    # the core's "no arrangement" sentinel is shown as '-' (null in JSON)
    table["shanten"] = table["shanten"].map(shanten_value).astype(object)
    prov = provenance(table) if draws is not None else []
    sampled = any(p["method"] == "monte_carlo" for p in prov)
    if sampled and "se_win" in table.columns:     # '-' where p_win is exact
        table["se_win"] = table["se_win"].where(table["method"] == "monte_carlo")
    notes = probability_notes(table) if draws is not None else []
    scored = pos.model.ruleset if pos is not None else ruleset
    below = minimum_note(table, scored, draws)
    if below is not None:
        notes.append(below)
    columns = [c for c in COLUMNS
               if (args.second_order or c.key != "improvement")
               and (c.key not in DRAW_COLUMNS
                    or (draws is not None and c.key in table.columns))
               and (c.key != "se_win" or (sampled and c.key in table.columns))
               and (c.key not in WAIT_COLUMNS
                    or (c.key in table.columns and (table["shanten"] == 0).any()))]
    columns += [c for c in DANGER_COLUMNS if c.key in table.columns]
    unit = "fan" if scored is None else scored.scoring.total_label
    columns = [c._replace(header=UNIT_HEADERS[c.key].format(unit=unit))
               if c.key in UNIT_HEADERS else c for c in columns]

    if args.json:
        keep = [c.key for c in columns] + [k for k in PROVENANCE
                                           if draws is not None and k in table.columns]
        emit_json({
            "hand": format_hand(hand),
            "glyphs": hand_glyphs(hand),
            "shanten": current,
            "visible": None if seen is None else seen.text,
            "forms": list(forms),
            "seven_pairs_quads": quads,
            "second_order": args.second_order,
            "draws": draws,
            "probability": prov or None,
            "notes": notes,
            "win_now": win_now,
            "no_win": no_win,
            **({} if kong is None else {"kong": kong}),
            **({} if not weighed else {
                "by": table.attrs["by"], "push_or_fold": table.attrs["push_or_fold"],
                "opponent_model": table.attrs["opponent_model_text"],
                "danger_samples": table.attrs["n_samples"]}),
            "discards": table[keep],
        })
        if args.plot:
            _plot(hand, visible, prob_rules, draws, args.seed, args.plot, quiet=True,
                  indicator=indicator)
        return 0

    write(f"hand     {format_hand(hand)}   {hand_glyphs(hand)}")
    write(f"shanten  {shanten_label(current)}")
    if seen is not None:
        write(f"visible  {seen.text or '-'}")
    write(f"forms    {', '.join(forms)}" + ("  (quads count as two pairs)" if quads else ""))
    if win_now is not None:
        write(win_now)
    if no_win is not None:
        write(no_win)
    if kong is not None:
        write(f"kong     {kong}")
    if weighed:
        write(f"ranked   by {table.attrs['by']}")
        write(f"verdict  {table.attrs['push_or_fold']}")
        write(f"opponents {table.attrs['opponent_model_text']}; {table.attrs['n_samples']} hands per "
              "opponent")
    if prov:
        write(provenance_line(prov))
    write()
    rows = table.to_dict(orient="records")
    for row in rows:
        row["improvement"] = two_step_cell(row.get("improvement"), row.get("shanten"))
        if "valid_ukeire" in row:       # only a tenpai row's waits are judged
            row["valid_ukeire"] = row["valid_ukeire"] if row.get("shanten") == 0 else "-"
    for line in format_table(rows, columns):
        write(line)
    if "valid_ukeire" in table.columns and (table["shanten"] == 0).any():
        write("valid: live copies of the waits that win under the ruleset's minimum "
              f"(on a discard or self-drawn); {unit} of each wait beside it")
    if "p_win" in table.columns:
        within = (f"{args.draws} draws" if args.draws is not None else
                  "the default horizon (the seat's share of the wall, at most 3 draws or "
                  "shanten + 2)")
        write(f"p_tenpai / p_win: probability of being ready / of winning within {within} "
              "(the model on the probability line)"
              + ("; exp_score: expected value of those wins in the ruleset's points of a "
                 f"hand (fan under Chinese Official), before settlement; mean_{unit}: mean "
                 f"{'total' if unit == 'value' else unit} of a win"
                 if "exp_score" in table.columns else ""))
    evaluated = int(table["p_win"].notna().sum()) if "p_win" in table.columns else 0
    for line in note_lines(notes, evaluated):
        write(line)
    if args.plot:
        write()
        _plot(hand, visible, prob_rules, draws, args.seed, args.plot, indicator=indicator)
    return 0


def _model_options(args: argparse.Namespace, draws, seen) -> dict:
    """advise()'s ``model`` / ``n_samples`` from --model / --samples, checked: the table
    model needs --draws and a hand dealt from the start (no melds, --visible, --position,
    --policy or --plot)."""
    if args.samples is not None and args.model != "table":
        raise CommandError("--samples sets the hands played by --model table: give "
                           "--model table")
    if args.model in (None, "single"):
        return {}
    if args.draws is None:
        raise CommandError("--model table needs --draws (the horizon of p_win)")
    for given, opt in ((args.position is not None, "--position"),
                       (seen is not None, "--visible"), (args.plot, "--plot"),
                       (args.policy is not None, "--policy")):
        if given:
            raise CommandError(f"--model table starts from a deal with no seen tiles and "
                               f"plays the efficiency bot: drop {opt}")
    if args.samples is not None and args.samples < 1:
        raise CommandError(f"--samples must be at least 1, got {args.samples}")
    return {"model": "table", **({} if args.samples is None else {"n_samples": args.samples})}


def _print_win_now(args, hand, current, seen, forms, quads, draws, win_now: str) -> int:
    """The answer for a hand that wins now: ``win now: N fan``, no discard table
    (``--json``: ``"win_now"`` and an empty ``"discards"``)."""
    from ..hand import format_hand

    if args.json:
        emit_json({
            "hand": format_hand(hand), "glyphs": hand_glyphs(hand), "shanten": current,
            "visible": None if seen is None else seen.text, "forms": list(forms),
            "seven_pairs_quads": quads, "second_order": args.second_order, "draws": draws,
            "probability": None, "notes": [], "win_now": win_now, "no_win": None,
            "discards": [],
        })
        return 0
    write(f"hand     {format_hand(hand)}   {hand_glyphs(hand)}")
    write(f"shanten  {shanten_label(current)}")
    if seen is not None:
        write(f"visible  {seen.text or '-'}")
    write(f"forms    {', '.join(forms)}" + ("  (quads count as two pairs)" if quads else ""))
    write(win_now)
    write("(--discards ranks the discards as well)")
    return 0


def plot_title(hand, draws: int, ruleset=None) -> str:
    """Title of the ``--plot`` figure: the hand in Tenhou notation, the horizon and the
    ruleset, e.g. ``"2225678m88p12466s: discards within 18 draws (sichuan)"``."""
    from ..hand import format_hand

    rules = (f" ({ruleset_label(ruleset)})" if ruleset is not None
             else "")
    return f"{format_hand(hand)}: discards within {plural(draws, 'draw')}{rules}"


PLOT_CURVES = 6
"""At most this many discards drawn by ``--plot``."""


def _plot(hand, visible, ruleset, draws: int, seed: int, path: str, quiet: bool = False,
          indicator: str | None = None) -> None:
    """Write the win/tenpai curves of the best discards: every discard is evaluated, as
    in the table (a discard that raises the shanten may still win more often over a
    long horizon), and the :data:`PLOT_CURVES` with the highest final win
    probability (then tenpai probability) are drawn."""
    import matplotlib
    matplotlib.use("Agg")
    from ..plots import probability_curves
    from ..probability import discard_curves

    curves = discard_curves(hand, draws, visible=visible, ruleset=ruleset, seed=seed,
                            all_discards=True,
                            **({} if indicator is None else {"indicator": indicator}))
    best = sorted(curves, key=lambda d: (-float(curves[d].p_win),
                                         -float(curves[d].p_tenpai)))[:PLOT_CURVES]
    curves = {d: curves[d] for d in curves if d in best}      # tile order kept
    fig = probability_curves(curves, title=plot_title(hand, draws, ruleset))
    try:
        fig.savefig(path, dpi=120)
    except (OSError, ValueError) as exc:
        raise CommandError(f"cannot write the plot to {path!r}: {exc}") from None
    if not quiet:
        write(f"plot     {path}")

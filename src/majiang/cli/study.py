"""Compare rulesets: the same bots play N hands under each, summarised with 95 % intervals.

A command over majiang.compare_rulesets.  For each ruleset (a registered name or a
house-rule .toml file) it prints, side by side, value [95 % interval] of: the win rate
of each seat counted from the dealer (share of hands the seat won; under 血战/血流
several seats win one hand), the dealer advantage (dealer win rate minus the mean of
the others), the self-draw share of wins, the drawn-hand rate (荒庄, no winner), the
share of hands that ran out of wall, wins per hand, the hand's length in wall draws
(mean and quantiles), the mean total of a win (in each ruleset's unit: fan, points
or tai) and its points, the most frequent fans
(share of wins that scored each) and the variance of each seat's score change.

Intervals: Wilson for shares (clustered by hand where one hand has several wins),
Student t for means, order statistics for quantiles, a large-sample interval for
variances (help(majiang.studies.compare) gives the details).  Every ruleset plays
the same seed; the table does not depend on --jobs.

Scale: --jobs N worker processes (default -1: every core); --out DIR keeps each
ruleset's hands as resumable Parquet chunks under DIR/<ruleset> (see majiang simulate
--help), so the same command run again after Ctrl-C plays only the missing chunks.

Examples:
  majiang study mcr guangdong sichuan -n 500
  majiang study sichuan sichuan_xueliu -n 1000 --jobs 2 --plot study.png
  majiang study mcr house.toml -n 200 --seed 7 --json
  majiang study mcr guangdong -n 1000000 --out runs/study
  majiang study wuhan sichuan -n 500 --option cap=none

--option KEY=VALUE applies to every ruleset named that takes KEY (an error when none
does); a ruleset it changes is labelled with it, e.g. wuhan[min_fan=3].
"""
from __future__ import annotations

import argparse

from ._common import (Column, CommandError, add_json_flag, add_run_args, check_plot_path,
                      emit_json, format_table, plural, run_options, write)
from ._rule_options import add_option_arg, load_rulesets, ruleset_label

HELP = ("compare rulesets over N bot-played hands each: win rates, draws, fans, with 95%% "
        "intervals")

TOP_FANS = 10

_SHARES = {"win_rate", "dealer_advantage", "self_draw_share", "draw_rate", "wall_end_rate",
           "fan_share"}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("rulesets", nargs="+", metavar="RULESET",
                        help="ruleset names (majiang rules lists them) or house-rule .toml "
                             "files, each compared under its own name")
    add_run_args(parser, hands=200, players="expert",
                 out_help="resumable run directories, DIR/<ruleset> each: one Parquet "
                          "file per finished chunk; rerun the same command to resume")
    parser.add_argument("--top-fans", type=int, default=TOP_FANS, metavar="K",
                        help="fans shown: the K most frequent under any ruleset "
                             "(default: %(default)s; --json has every fan)")
    parser.add_argument("--plot", metavar="FILE", default=None,
                        help="write the comparison bars (majiang.plots.compare) to FILE "
                             "(.png, .svg, .pdf ...)")
    add_option_arg(parser, several=True)
    add_json_flag(parser)


def _fmt(metric: str, value: float, lo: float, hi: float) -> str:
    import math

    if value is None or math.isnan(value):
        return "-"
    if metric in _SHARES:
        body = f"{100 * value:.1f}%"
        scale, digits = 100, 1
    elif metric in ("score_var", "draws_quantile"):
        body, scale, digits = f"{value:.0f}", 1, 0
    else:
        body, scale, digits = f"{value:.2f}", 1, 2
    if lo is None or hi is None or math.isnan(lo) or math.isnan(hi):
        return body
    return f"{body} [{scale * lo:.{digits}f}, {scale * hi:.{digits}f}]"


def _text_rows(table, labels: list[str], top_fans: int,
               units: dict[str, str] | None = None) -> list[dict]:
    """Rows of the text table: one per (metric, key), a column per ruleset.  A fan is
    one row across rulesets when its Chinese name is the same (labelled with the first
    ruleset's key); the `top_fans` fans with the largest share under any ruleset.  The
    mean total of a win names each ruleset's unit (`units`: ruleset label -> its
    :attr:`~majiang.rules.ScoringRule.total_label`, ``"fan"`` for a label not in it)."""
    units = units or {}
    from ..studies.compare import METRIC_LABELS, same_fan_keys

    rows: list[dict] = []
    for metric in dict.fromkeys(table["metric"]):
        part = table[table["metric"] == metric]
        if metric == "fan_share":
            fan = same_fan_keys(part["key"])
            top = (part.assign(_fan=fan).groupby("_fan", sort=False)["value"].max()
                   .sort_values(ascending=False, kind="stable").index[:max(top_fans, 0)])
            groups = [(f, fan == f) for f in top]
        else:
            groups = [(key, part["key"] == key) for key in dict.fromkeys(part["key"])]
        for key, mask in groups:
            row = {"metric": METRIC_LABELS.get(metric, (metric,))[0], "key": key}
            for label in labels:
                hit = part[mask & (part["ruleset"] == label)]
                row[label] = (_fmt(metric, *hit[["value", "lo", "hi"]].iloc[0].tolist())
                              if len(hit) else "-")
                if metric == "mean_fan_total" and row[label] != "-":
                    row[label] += f" {units.get(label, 'fan')}"
            rows.append(row)
    return rows


def check_distinct(names: list[str], found: list) -> None:
    """CommandError when two RULESET arguments (`names`, loaded as `found`) name the same
    ruleset (each is compared under its ruleset's name, so a house-rule file named like a
    registered ruleset clashes with it too)."""
    seen: dict[str, str] = {}
    for arg, rs in zip(names, found):
        name = ruleset_label(rs)
        if name in seen:
            same = (f"{arg}" if seen[name] == arg
                    else f"{name} ({seen[name]} and {arg} both have that name)")
            raise CommandError(f"a ruleset is named twice: {same}; each ruleset compared "
                               "needs its own name, no duplicate (give a house-rule file a "
                               "name of its own)")
        seen[name] = arg


def run(args: argparse.Namespace) -> int:
    from ..studies import compare_rulesets

    players, options = run_options(args)
    if args.top_fans < 0:
        raise CommandError(f"--top-fans must be 0 or more, got {args.top_fans}")
    if args.plot:                      # a bad path fails now, not after the hands
        check_plot_path(args.plot)
    found = load_rulesets(args.rulesets, args.rule_options)
    check_distinct(args.rulesets, found)
    named = {ruleset_label(rs): rs for rs in found}     # the label output names it by
    table = compare_rulesets(named, args.n, players=players, seed=args.seed, **options)
    labels = list(dict.fromkeys(table["ruleset"]))
    who = table.attrs.get("players", {})
    played = sorted({f"{v[0]} in every seat" if len(set(v)) == 1 else ", ".join(v)
                     for v in who.values() if v}) or [str(args.players)]
    if args.plot:
        from ..plots import compare

        fig = compare(table, title=f"{', '.join(labels)}: {plural(args.n, 'hand')} each; "
                                   f"players {'; '.join(played)}")
        try:
            fig.savefig(args.plot)
        except (OSError, ValueError) as exc:
            raise CommandError(f"cannot write the plot {args.plot!r}: {exc}") from None
    if args.json:
        data = {"rulesets": labels, "hands": args.n, "players": "; ".join(played),
                "seed": args.seed, "confidence": 0.95}
        if args.out is not None:
            data["out"] = args.out
        emit_json({**data, "rows": table})
        return 0
    write(f"rulesets {', '.join(labels)}; {plural(args.n, 'hand')} each; players "
          f"{'; '.join(played)}; seed {args.seed}")
    write("value [95% interval]; seats counted from the dealer; shares of hands, or of wins "
          "for self-draw and fans")
    cols = [Column("metric", "metric"), Column("key", "key")]
    cols += [Column(label, label, ">") for label in labels]
    units = {label: rs.scoring.total_label for label, rs in named.items()}
    for line in format_table(_text_rows(table, labels, args.top_fans, units), cols):
        write(line)
    if args.plot:
        write(f"plot written to {args.plot}")
    return 0

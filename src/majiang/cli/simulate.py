"""Play many independent hands under a ruleset with bots and summarise them.

A thin command over majiang.simulate: each hand is dealt from its own seeded wall
(hand i from SeedSequence(seed).spawn(...)[i]), so the summary does not depend on
--jobs.  Prints, with 95 % intervals (majiang.studies.compare.summarize_hands:
Wilson for shares, t for means, clustered by hand when a hand has several
wins): the number of hands and of wins, wins per hand and the hands with several
winners, with the ruleset's rule for them (截和: one winner per discard;
一炮多响: every claimant wins; 血战 / 血流: play goes on after a win); the win rate
of each seat twice, by absolute seat (the same player every hand while the
dealer rotates) and by seat from the dealer (dealer, dealer+1 = 下家 …), a seat's
rate being the share of hands it won at least once; the share of wins by
self-draw (自摸, 杠上开花 included), the drawn-hand (荒庄, no winner) rate, the
mean number of wall draws per hand, the mean fan total of a win (when the ruleset's
fan values are 番 that add or double; "mean tai total" for 台湾 台) and the mean points of a win (when they are not
the same number: doubling, a base, the ruleset's own points formula, values in points),
the payments outside a win's points (杠分, 跟庄, 扎鸟, 南昌 精分 / 冲关 / 冲关包赔 …: the
share of hands with one and the mean paid in such a hand) and the most frequent fans (the share of wins that scored each: one win scores
several fans, e.g. 长沙 小胡 with 小胡自摸, so the shares overlap and add to more than
100 %).

Players: random, efficiency, expert (one per seat, comma-separated; one name for every
seat).

Scale: --jobs N worker processes (default -1: every core); --out DIR writes each
finished chunk of --chunk-size hands as a Parquet file in DIR beside a manifest of
the arguments, so the same command run again after Ctrl-C or a crash plays only the
missing chunks (and a different command into DIR is refused); after Ctrl-C a line
on stderr says how many chunks are saved.  A progress bar on stderr for runs longer
than a few seconds when stderr is a terminal (--progress: also into a file or pipe;
--no-progress: none).

Examples:
  majiang simulate mcr -n 200
  majiang simulate sichuan -n 500 --players efficiency,efficiency,random,random --jobs 2
  majiang simulate guangdong -n 100 --seed 7 --json
  majiang simulate mcr -n 1000000 --out runs/mcr-1m
"""
from __future__ import annotations

import argparse
from ._common import add_json_flag, add_run_args, emit_json, plural, run_options, write
from ._rule_options import add_option_arg, load_ruleset, ruleset_label

HELP = "play N hands with bots under a ruleset and summarise wins, draws and fans"

TOP_FANS = 10


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ruleset", metavar="RULESET",
                        help="ruleset name (majiang rules lists them) or house-rule .toml file")
    add_option_arg(parser)
    add_run_args(parser, hands=100,
                 out_help="resumable run directory: one Parquet file per finished chunk "
                          "and a manifest; rerun the same command to resume")
    add_json_flag(parser)


WINNERS_RULE = {
    "head_bump": "one winner per discard: 截和 (head bump), the first claimant in turn "
                 "order after the discarder wins",
    "multiple": "several winners on one discard: 一炮多响, every claimant wins",
    "single": "one winner per hand",
}
"""How the ruleset's ``winners`` field settles a discard several players can win on."""

BLOOD_RULE = {"xuezhan": "血战到底: play goes on after a win until three players have won",
              "xueliu": "血流成河: play goes on to the last tile, winners staying in"}


def _row(z, metric: str, key: str = "") -> dict:
    r = z[(z["metric"] == metric) & (z["key"] == key)].iloc[0]
    return {"value": _num(r["value"]), "lo": _num(r["lo"]), "hi": _num(r["hi"]),
            "n": int(r["n"])}


def _num(x) -> float | None:
    x = float(x)
    return None if x != x else x


def summarize(table, ruleset) -> dict:
    """The summary of a :func:`majiang.simulate` table, read from
    :func:`majiang.studies.compare.summarize_hands` (values with 95 % intervals;
    plain Python numbers, None where undefined).

    Seats are labelled both ways: ``win_rate`` by absolute seat (``"seat 0"`` …: the
    same player every hand while the dealer rotates; the share of hands the seat won,
    with summarize_hands' Wilson interval, which counts seats from the dealer) and
    ``win_rate_from_dealer`` (``"dealer"``, ``"dealer+1"`` …).
    ``wins`` counts wins, so under 一炮多响 / 血战 a hand can add several; ``wins_per_hand``
    and ``hands_with_several_winners`` say how often that happened.
    """
    import numpy as np

    from ..studies.compare import summarize_hands, wilson_interval

    n = len(table)
    z = summarize_hands(table, ruleset=ruleset)
    rel = z[z["metric"] == "win_rate"]
    per_hand = table["winners"].map(len).to_numpy()
    n_wins = int(per_hand.sum())
    seats = np.fromiter((int(s) for w in table["winners"] for s in w), dtype=np.int64,
                        count=n_wins)
    won = np.zeros((n, int(ruleset.players)), dtype=bool)
    won[np.repeat(np.arange(n), per_hand), seats] = True
    k = won.sum(axis=0)
    lo, hi = wilson_interval(k, n)
    fans = z[(z["metric"] == "fan_share") & (z["value"] > 0)].head(TOP_FANS)
    return {
        "ruleset": ruleset.name,
        "hands": n,
        "wins": n_wins,
        "wins_per_hand": _row(z, "wins_per_hand"),
        "hands_with_several_winners": int((per_hand > 1).sum()),
        "winners_rule": ruleset.winners,
        "blood": ruleset.blood or None,
        "win_rate": {f"seat {i}": {"value": k[i] / n, "lo": _num(lo[i]), "hi": _num(hi[i]),
                                   "n": n} for i in range(len(k))},
        "win_rate_from_dealer": {k: _row(rel, "win_rate", k) for k in rel["key"]},
        "self_draw_share": _row(z, "self_draw_share"),
        "drawn_rate": _row(z, "draw_rate"),
        "mean_draws": _row(z, "mean_draws"),
        "mean_fan_total": _row(z, "mean_fan_total"),
        "mean_points": _row(z, "mean_points"),
        "total_unit": ruleset.scoring.total_unit,
        "side_payments": side_payments(table),
        "top_fans": [{"fan": r.key, "wins": int(round(r.value * r.n)), "share": float(r.value),
                      "lo": float(r.lo), "hi": float(r.hi)} for r in fans.itertuples()],
        "intervals": "95% (wilson for shares, t for means; clustered by hand when a hand "
                     "has several wins)",
    }


def side_payments(table) -> list:
    """The payments outside a win's points (the ``end_checks`` column of
    :func:`majiang.simulate`: 杠分, 跟庄, 买马, 扎鸟, 南昌 精分 / 冲关 / 冲关包赔 / 抄庄 …),
    per check name in order of first appearance: ``hands`` (hands with at least one such
    payment), ``share`` (of all hands) and ``mean_paid`` (the amount paid in such a hand,
    summed over its payments, averaged over those hands)."""
    hands: dict[str, int] = {}
    paid: dict[str, int] = {}
    for checks in table["end_checks"]:
        seen = set()
        for c in checks:
            name = str(c["check"])
            paid[name] = paid.get(name, 0) + int(c["amount"])
            if name not in seen:
                seen.add(name)
                hands[name] = hands.get(name, 0) + 1
    n = max(len(table), 1)
    return [{"check": k, "hands": h, "share": h / n, "mean_paid": paid[k] / h}
            for k, h in hands.items()]


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _ci(d: dict, fmt) -> str:
    """``"25.7% [20.8, 31.1]"``: the value and its 95 % interval."""
    if d["value"] is None:
        return "-"
    if d["lo"] is None or d["hi"] is None:
        return fmt(d["value"])
    return f"{fmt(d['value'])} [{fmt(d['lo'])}, {fmt(d['hi'])}]"


def run(args: argparse.Namespace) -> int:
    from ..game import simulate

    players, options = run_options(args)
    rs = load_ruleset(args.ruleset, args.rule_options)
    table = simulate(rs, args.n, players=players, seed=args.seed, **options)
    s = summarize(table, rs)
    s["players"] = args.players or "efficiency"
    s["seed"] = args.seed
    if args.out is not None:
        s["out"] = args.out
    if args.json:
        emit_json(s)
        return 0
    write(f"ruleset  {ruleset_label(rs)}; players {s['players']}; seed {args.seed}")
    wph = s["wins_per_hand"]["value"]
    write(f"hands    {s['hands']}  ({plural(s['wins'], 'win')}, "
          f"{'-' if wph is None else f'{wph:.3f}'} per hand; "
          f"{plural(s['hands_with_several_winners'], 'hand')} with several winners)")
    rule = WINNERS_RULE.get(rs.winners, rs.winners)
    if rs.blood:
        rule += "; " + BLOOD_RULE.get(rs.blood, rs.blood)
    write(f"winners  {rule}")
    if args.out is not None:
        write(f"run      {args.out}  (Parquet chunks; majiang.game.read_run reads them)")
    write("values with 95% intervals [lo, hi]")
    write("win rate by seat (the same player every hand; the dealer rotates)")
    write("         " + "  ".join(f"{k}: {_ci(d, _pct)}" for k, d in s["win_rate"].items()))
    write("win rate by seat from the dealer (dealer+1 = 下家, the dealer's next player)")
    write("         " + "  ".join(f"{k}: {_ci(d, _pct)}"
                                  for k, d in s["win_rate_from_dealer"].items()))
    write(f"self-draw share of wins  {_ci(s['self_draw_share'], _pct)}")
    write(f"drawn hands (荒庄)       {_ci(s['drawn_rate'], _pct)}")
    write(f"mean draws per hand      {_ci(s['mean_draws'], lambda x: f'{x:.1f}')}")
    sc = rs.scoring
    if sc.total_unit in ("fan", "tai"):      # totals that are no points (UNITS)
        write(f"mean {sc.unit} total of a win  "
              f"{_ci(s['mean_fan_total'], lambda x: f'{x:.2f}')}")
    if sc.mode != "add" or sc.base != 1 or sc.unit == "points":
        write(f"mean points of a win     {_ci(s['mean_points'], lambda x: f'{x:.2f}')}")
    if s["side_payments"]:
        write("side payments outside the win's points (share of hands with one; mean paid "
              "in such a hand)")
        write("         " + "  ".join(f"{c['check']} {_pct(c['share'])} ({c['mean_paid']:.1f})"
                                      for c in s["side_payments"]))
    if s["top_fans"]:
        write("top fans (share of wins that scored each; a win can score several, so the "
              "shares overlap)")
        write("         " + "  ".join(f"{f['fan']} {_pct(f['share'])}" for f in s["top_fans"]))
    return 0

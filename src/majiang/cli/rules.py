"""Rulesets: list them, show one, or show every surveyed regional variant with its status.

  majiang rules                 registered rulesets (name, title, players, tiles)
  majiang rules sichuan         one ruleset: tiles, calls, forms, constraints, jokers,
                                scoring, wall end, options and the fan table
  majiang rules house.toml      a house-rule file (starts from a built-in ruleset)
  majiang rules --all           every variant of the project's survey of Chinese
                                regional rules (Chinese Official and the regional
                                games), complete or partial (notes; a partial row names the
                                missing facts)
  majiang rules sichuan --toml  the ruleset as a house-rule TOML file to edit

The "source" line says where a ruleset's facts come from: a section of that
survey of published rule texts, and the project's standard readings where the
texts leave a point open (each rule module, majiang.rules.<name>, documents
them).
"""
from __future__ import annotations

import argparse

from ._common import Column, add_json_flag, emit_json, format_table, write

HELP = "list rulesets, show one, or every regional variant with its status (--all)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", nargs="?", metavar="NAME|FILE", help="a ruleset or .toml file")
    parser.add_argument("--all", action="store_true",
                        help="every surveyed regional variant with its status")
    parser.add_argument("--toml", action="store_true", help="print the ruleset as TOML")
    add_json_flag(parser)


def _describe(rs) -> dict:
    return {
        "name": rs.name, "title": rs.title, "section": rs.section, "status": rs.status,
        "players": rs.players, "hand_size": rs.hand_size, "tiles": rs.tiles,
        "calls": list(rs.calls), "forms": list(rs.forms), "constraints": list(rs.constraints),
        "ready": rs.ready, "winners": rs.winners, "blood": rs.blood,
        "jokers": None if rs.jokers is None else {
            "source": rs.jokers.source, "copies": rs.jokers.copies,
            "claim": rs.jokers.claim, "fifth_copy": rs.jokers.fifth_copy,
            "second": rs.jokers.second, "second_copies": rs.jokers.second_copies},
        "scoring": {"mode": rs.scoring.mode, "base": rs.scoring.base, "cap": rs.scoring.cap},
        "min_fan": rs.min_fan, "options": dict(rs.options),
        "fans": [{"id": f.id, "chinese": f.chinese, "english": f.english, "value": f.value}
                 for f in rs.fans],
        "source": source_in_words(rs.source),
    }


_SOURCE_WORDS = (
    ("RULESETS.md", "rules survey"),
    ("STANDARD_READINGS.md", "standard readings"),
)


def source_in_words(text: str) -> str:
    """A ruleset's ``source`` with the project's reference documents (which do not
    ship with the package) named in words: ``"RULESETS.md §3.1 (S001)"`` ->
    ``"rules survey §3.1 (S001)"``."""
    for file, words in _SOURCE_WORDS:
        text = text.replace(file, words)
    return text


def run(args: argparse.Namespace) -> int:
    from .. import rules

    if args.all:
        rows = [{"section": v.section, "variant": v.chinese, "english": v.english,
                 "ruleset": v.ruleset or "-", "status": v.status,
                 "missing": "; ".join(v.missing)} for v in rules.catalog.variants()]
        if args.json:
            emit_json(rows)
            return 0
        for line in format_table(rows, [Column("section", "§"), Column("variant", "variant"),
                                        Column("english", ""), Column("ruleset", "ruleset"),
                                        Column("status", "status"),
                                        Column("missing", "notes (partial: the missing facts)")]):
            write(line)
        return 0
    if args.name is None:
        rows = []
        for name in rules.available():
            rs = rules.get(name)
            rows.append({"name": name, "title": rs.title, "players": rs.players,
                         "hand": rs.hand_size, "tiles": rs.tiles.split(":")[0],
                         "status": rs.status})
        if args.json:
            emit_json(rows)
            return 0
        for line in format_table(rows, [Column("name", "name"), Column("title", "title"),
                                        Column("players", "players", ">"),
                                        Column("hand", "hand", ">"), Column("tiles", "tiles"),
                                        Column("status", "status")]):
            write(line)
        return 0
    rs = rules.get(args.name)
    if args.toml:
        write(rules.dumps(rs).rstrip("\n"))
        return 0
    d = _describe(rs)
    if args.json:
        emit_json(d)
        return 0
    write(f"{rs.title} [{rs.name}]  {rs.section}  status {rs.status}")
    write(f"source   {source_in_words(rs.source)}")
    write(f"players  {rs.players}, {rs.hand_size}-tile hands; tiles {rs.tiles}")
    write(f"calls    {', '.join(rs.calls) or 'none'}")
    write(f"forms    {', '.join(rs.forms)}")
    write(f"win      constraints: {', '.join(rs.constraints) or 'none'}; ready {rs.ready}; "
          f"several winners: {rs.winners}{'; ' + rs.blood if rs.blood else ''}; "
          f"minimum {rs.min_fan}")
    if rs.jokers is not None:
        j = rs.jokers
        two = (f" + the next kind ({j.second_copies} copies)" if j.second else "")
        write(f"jokers   {j.source} ({j.copies} copies){two}; claim {j.claim}; "
              f"be claimed {j.be_claimed}; fifth copy {j.fifth_copy}")
    sc = rs.scoring
    write(f"scoring  {sc.mode}, base {sc.base}, cap {sc.cap}"
          + (f", {sc.function}" if sc.function else ""))
    if rs.options:
        write("options  " + ", ".join(f"{k}={v}" for k, v in rs.options.items()))
    write()
    rows = [{"id": f.id, "fan": f.chinese, "english": f.english, "value": f.value}
            for f in rs.fans]
    for line in format_table(rows, [Column("id", "#", ">"), Column("fan", "番种"),
                                    Column("english", "fan"), Column("value", "value", ">")]):
        write(line)
    return 0

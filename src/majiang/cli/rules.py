"""Rulesets: list them, show one, or show every surveyed regional variant with its status.

  majiang rules                 registered rulesets (name, title, players, tiles)
  majiang rules sichuan         one ruleset: tiles, calls, forms, constraints, jokers,
                                scoring, wall end, options and the fan table
  majiang rules house.toml      a house-rule file (starts from a built-in ruleset)
  majiang rules --all           every variant of the project's survey of Chinese
                                regional rules (Chinese Official and the regional
                                games) with its status: complete (every rule played as
                                the sources state it), interpreted (every rule played,
                                some open facts read by interpretation), sources
                                incomplete (every rule the sources define played, some
                                facts lost in the sources or never defined), gaps (some
                                rules the sources define not played), partial (no
                                ruleset yet); each row names what is interpreted, not
                                played or lost in the sources
  majiang rules --all taiwan    the surveyed variants a ruleset plays, with their status
  majiang rules sichuan --toml  the ruleset as a house-rule TOML file to edit
  majiang rules wuhan --option min_fan=3
                                the ruleset with a build option changed (also with
                                --toml: a house-rule file with it)
  majiang rules sichuan --notes the ruleset's page of the project's rule notes
  majiang rules --notes         the pages of the rule notes

The "source" line says where a ruleset's facts come from: the page of
the project's rule notes that summarises the published rule texts and game products
behind the ruleset (they ship with the package: majiang rules NAME --notes prints the
page; each rule module, majiang.rules.<name>, documents them too).
"""
from __future__ import annotations

import argparse

from ._common import Column, CommandError, add_json_flag, emit_json, format_table, write
from ._rule_options import add_option_arg, load_ruleset

HELP = "list rulesets, show one, or every regional variant with its status (--all)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", nargs="?", metavar="NAME|FILE", help="a ruleset or .toml file")
    parser.add_argument("--all", action="store_true",
                        help="every surveyed regional variant with its status")
    parser.add_argument("--toml", action="store_true", help="print the ruleset as TOML")
    parser.add_argument("--notes", action="store_true",
                        help="print the rule-notes page a ruleset's source cites (NAME: a "
                             "ruleset or a page); without NAME, list the pages")
    add_option_arg(parser)
    add_json_flag(parser)


def source_in_words(text: str) -> str:
    """A ruleset's ``source`` with the rule notes it cites named in words
    (:func:`majiang.rules.summary.source_in_words`, imported when called so that the
    command line starts without loading every ruleset)."""
    from ..rules.summary import source_in_words as in_words
    return in_words(text)


def status_summary(statuses: list) -> str:
    """One line counting the variants per status: ``"31 variants: 3 complete, 10
    interpreted, 6 sources incomplete, 12 with gaps"`` (a status with no variant is left
    out)."""
    words = {"complete": "complete", "interpreted": "interpreted",
             "sources incomplete": "sources incomplete", "gaps": "with gaps",
             "partial": "partial (no ruleset)"}
    parts = [f"{statuses.count(k)} {w}" for k, w in words.items() if statuses.count(k)]
    return f"{len(statuses)} variants: {', '.join(parts)}"


def show_notes(name: str | None) -> int:
    """``--notes``: the rule-notes page of ruleset or page `name` (Markdown), or the list
    of pages without a name."""
    from .. import rules
    from ..errors import MahjongError
    from ..rules.notes import notes_text, page_of, pages

    if name is None:
        write("rule notes: " + ", ".join(pages()))
        write("majiang rules NAME --notes prints one")
        return 0
    if name in pages():
        page = name
    else:
        try:
            page = page_of(rules.get(name))
        except MahjongError:
            raise CommandError(f"rules --notes: {name!r} is neither a ruleset nor a "
                               f"rule-notes page; pages: {', '.join(pages())}") from None
    if page is None:
        raise CommandError(f"rules --notes: ruleset {name!r} cites no rule-notes page")
    write(notes_text(page).rstrip("\n"))
    return 0


def run(args: argparse.Namespace) -> int:
    from .. import rules

    if args.rule_options and (args.name is None or args.all or args.notes):
        raise CommandError("rules: --option changes one ruleset: give NAME|FILE, without "
                           "--all or --notes")
    if args.notes:
        other = [f for f, on in (("--all", args.all), ("--toml", args.toml),
                                 ("--json", args.json)) if on]
        if other:
            raise CommandError(f"rules: --notes prints a page; leave out {', '.join(other)}")
        return show_notes(args.name)
    if args.all:
        if args.toml:
            raise CommandError("rules: --toml prints one ruleset; leave out --all")
        vs = rules.catalog.variants()
        if args.name is not None:          # the rows of the variants this ruleset plays
            name = rules.get(args.name).name
            vs = tuple(v for v in vs if v.ruleset == name)
            if not vs:
                raise CommandError(f"rules --all: no surveyed variant is played by "
                                   f"{args.name!r}; show it with majiang rules {args.name}")
        rows = [{"section": v.section, "variant": v.chinese, "english": v.english,
                 "ruleset": v.ruleset or "-", "status": v.status,
                 "interpreted": [source_in_words(t) for t in v.interpreted],
                 "missing": [source_in_words(t) for t in v.missing],
                 "lost": [source_in_words(t) for t in v.lost]} for v in vs]
        if args.json:
            emit_json(rows)
            return 0
        for r in rows:
            r["notes"] = "; ".join(
                ([f"interpreted: {'; '.join(r['interpreted'])}"] if r["interpreted"] else [])
                + ([f"not played: {'; '.join(r['missing'])}"] if r["missing"] else [])
                + ([f"lost in the sources: {'; '.join(r['lost'])}"] if r["lost"] else []))
        for line in format_table(rows, [Column("section", "§"), Column("variant", "variant"),
                                        Column("english", ""), Column("ruleset", "ruleset"),
                                        Column("status", "status"),
                                        Column("notes", "what is interpreted, not played or lost in the sources")]):
            write(line)
        if args.name is None:
            write()
            write(status_summary([v.status for v in vs]))
        return 0
    if args.name is None:
        rows = []
        for name in rules.available():
            rs = rules.get(name)
            rows.append({"name": name, "title": rs.title, "players": rs.players,
                         "hand": rs.hand_size, "tiles": rs.tiles.split(":")[0],
                         "status": rs.status, "coverage": rs.coverage})
        if args.json:
            emit_json(rows)
            return 0
        for line in format_table(rows, [Column("name", "name"), Column("title", "title"),
                                        Column("players", "players", ">"),
                                        Column("hand", "hand", ">"), Column("tiles", "tiles"),
                                        Column("coverage", "coverage")]):
            write(line)
        return 0
    rs = load_ruleset(args.name, args.rule_options)
    if args.toml:
        write(rules.dumps(rs).rstrip("\n"))
        return 0
    if args.json:
        emit_json(rules.describe(rs))
        return 0
    for line in rules.describe_lines(rs):
        write(line)
    write()
    rows = [{"id": f.id, "fan": f.chinese, "english": f.english, "value": f.value}
            for f in rs.fans]
    for line in format_table(rows, [Column("id", "#", ">"), Column("fan", "番种"),
                                    Column("english", "fan"), Column("value", "value", ">")]):
        write(line)
    return 0

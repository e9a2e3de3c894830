"""A ruleset in words: :func:`describe` (plain data, as ``majiang rules NAME --json``
prints it) and :func:`describe_lines` (the text lines ``majiang rules NAME`` prints
above the fan table).

The command line prints a ruleset through these, so no module outside ``rules/`` reads
a ruleset's constraints or build options (tests/test_layers.py checks it).
"""
from __future__ import annotations

import re

from .base import Ruleset
from .notes import CITED

__all__ = ["describe", "describe_lines", "source_in_words"]

_RULE_NOTE = re.compile(CITED.pattern + r"((?: §\d+(?:\.\d+)*(?:-§?\d+(?:\.\d+)*)?)?)")
"""A cited page (:data:`majiang.rules.notes.CITED`) with its section(s), group 2."""


def source_in_words(text: str) -> str:
    """A ruleset's ``source`` with the rule notes it cites (``docs/rules/`` of the
    repository, shipped in the package: :mod:`majiang.rules.notes`) named as a page a user
    can open: ``"docs/rules/sichuan.md §5"`` -> ``"rule notes 'sichuan' §5 (majiang rules
    sichuan --notes)"``."""
    return _RULE_NOTE.sub(r"rule notes '\1'\2 (majiang rules \1 --notes)", text)


def describe(rs: Ruleset) -> dict:
    """The facts of ruleset `rs` as plain JSON-ready data: names, section and status,
    coverage (:attr:`~majiang.rules.base.Ruleset.coverage`) with the interpreted facts,
    the rules not played (``missing``) and the facts lost in the sources (``lost``),
    players, hand size, tiles, calls, forms, win constraints, how the void-suit rule is
    played (``void``: ``"declared"`` 定缺, ``"at_win"``, None without one), ready
    declaration, several
    winners, 血战 / 血流, jokers (None without), scoring, minimum fan, who deals next in a
    match (``next_dealer``: the dealer rule in words, ``stated`` False when the sources
    state none and the usual reading is used, the streak option), the liability (包) cases
    in words (``liability``, :meth:`~majiang.rules.liability.Liability.describe`), build
    options, the
    fan table (``id``, ``chinese``, ``english``, ``value`` each) and the source in words
    (:func:`source_in_words`).  Lists, dicts, str, int, bool and None only."""
    j = rs.jokers
    return {
        "name": rs.name, "title": rs.title, "section": rs.section, "status": rs.status,
        "coverage": rs.coverage, "interpreted": [source_in_words(t) for t in rs.interpreted],
        "missing": [source_in_words(t) for t in rs.missing],
        "lost": [source_in_words(t) for t in rs.lost],
        "players": rs.players, "hand_size": rs.hand_size, "tiles": rs.tiles,
        "calls": list(rs.calls), "forms": list(rs.forms), "constraints": list(rs.constraints),
        "void": _void(rs), "ready": rs.ready, "winners": rs.winners, "blood": rs.blood,
        "standing_tiles": rs.standing_tiles, "ready_kongs": rs.ready_kongs,
        "jokers": None if j is None else {
            "source": j.source, "copies": j.copies, "claim": j.claim,
            "fifth_copy": j.fifth_copy, "second": j.second, "second_copies": j.second_copies},
        "scoring": {"mode": rs.scoring.mode, "base": rs.scoring.base, "cap": rs.scoring.cap,
                    "unit": rs.scoring.unit},
        "min_fan": rs.min_fan, "minimum": minimum_words(rs), "next_dealer": _dealer(rs), "options": dict(rs.options),
        "liability": [c.describe() for c in rs.liabilities],
        "fans": [{"id": f.id, "chinese": f.chinese, "english": f.english, "value": f.value}
                 for f in rs.fans],
        "source": source_in_words(rs.source),
    }


_VOID_WORDS = {
    "declared": "定缺: each player declares a void suit after the deal (shown to all), "
                "throws its tiles first and claims none",
    "at_win": "缺门 at the win: the winning hand lacks a suit; nothing is declared and "
              "the plan may change during the hand",
}


def _void(rs: Ruleset) -> str | None:
    """How the void-suit rule (缺一门) is played: ``"declared"`` (定缺), ``"at_win"``, or
    None without one (:attr:`~majiang.rules.base.Ruleset.void_rule`)."""
    return rs.void_rule if "void_suit" in rs.constraints else None


def _dealer(rs: Ruleset) -> dict:
    rule = rs.next_dealer_rule
    return {"rule": rule.describe(), "stated": rs.dealer_rule is not None,
            "streak_option": rule.streak or None}


def minimum_words(rs: Ruleset) -> str:
    """The minimum a win must reach, as the win check reads it: :attr:`Ruleset.min_fan`
    in the ruleset's unit (:meth:`ScoringRule.total_text`: ``"8 fan"``; ``"0"`` for none),
    or a :attr:`Ruleset.win_minimum`'s own words
    (:data:`~majiang.rules.table_rules.WIN_MINIMUM_WORDS`, e.g. 武汉 ``min_fan=3``:
    ``"3 番 (hand 番 + personal 番)"``)."""
    from .table_rules import WIN_MINIMUM_WORDS
    words = WIN_MINIMUM_WORDS.get(rs.win_minimum) if rs.win_minimum else None
    total = rs.scoring.total_text(rs.min_fan) if rs.min_fan else "0"   # in its unit
    if words is None:
        return total
    return words(rs) if not rs.min_fan else f"{total}; {words(rs)}"


def describe_lines(rs: Ruleset) -> list[str]:
    """The summary of ruleset `rs` as text lines (no trailing newlines): title, source,
    players and tiles, calls, forms, the win (constraints, ready, several winners,
    minimum), the void-suit rule (定缺 or at the win) when it has one, jokers when it has
    them, scoring, who deals next in a match, its liability
    (包) cases and build options when it has them, and the
    coverage with what is interpreted, not played, or lost in the sources."""
    lines = [
        f"{rs.title} [{rs.name}]  {rs.section}"
        + ("" if rs.status == "complete" else "  (partial: shapes only)"),
        f"source   {source_in_words(rs.source)}",
        f"players  {rs.players}, {rs.hand_size}-tile hands; tiles {rs.tiles}",
        f"calls    {', '.join(rs.calls) or 'none'}",
        f"forms    {', '.join(rs.forms)}",
        f"win      constraints: {', '.join(rs.constraints) or 'none'}; ready {rs.ready}; "
        f"several winners: {rs.winners}{'; ' + rs.blood if rs.blood else ''}; "
        f"minimum {minimum_words(rs)}",
    ]
    if _void(rs):
        lines.append(f"void     {_VOID_WORDS[_void(rs)]}")
    if rs.standing_tiles or not rs.ready_kongs:
        lines.append("ready    " + "; ".join(
            ([f"{rs.standing_tiles} standing tiles each, discarded only to declare ready "
              "(face down)"] if rs.standing_tiles else [])
            + ([] if rs.ready_kongs else ["no kong after declaring"])))
    if rs.jokers is not None:
        j = rs.jokers
        two = (f" + the next kind ({j.second_copies} copies)" if j.second else "")
        lines.append(f"jokers   {j.source} ({j.copies} copies){two}; claim {j.claim}; "
                     f"be claimed {j.be_claimed}; fifth copy {j.fifth_copy}")
    sc = rs.scoring
    lines.append(f"scoring  {sc.mode}, base {sc.base}, cap {sc.cap}"
                 + (f", {sc.function}" if sc.function else "")
                 + ("" if sc.unit == "fan" else f"; fan values in {sc.unit}"))
    d = _dealer(rs)
    lines.append(f"dealer   {d['rule']}"
                 + ("" if d["stated"] else " (not stated: the usual reading)")
                 + (f"; streak option {d['streak_option']}" if d["streak_option"] else ""))
    if rs.liabilities:
        lines.append("liability " + "; ".join(c.describe() for c in rs.liabilities))
    if rs.options:      # as --option KEY=VALUE reads them; the derived ones apart
        from .toml import knobs, option_text
        given = knobs(rs)
        derived = [k for k in rs.options if k not in given]
        lines.append("options  " + ", ".join(f"{k}={option_text(v)}" for k, v in given.items())
                     + (f" (and from them: {', '.join(f'{k}={option_text(rs.options[k])}' for k in derived)})"
                        if derived else ""))
    lines.append(f"coverage {rs.coverage}")
    if rs.interpreted:
        lines.append("interpreted  " + "; ".join(source_in_words(t) for t in rs.interpreted))
    if rs.missing:
        lines.append("not played   " + "; ".join(source_in_words(t) for t in rs.missing))
    if rs.lost:
        lines.append("lost in the sources  "
                     + "; ".join(source_in_words(t) for t in rs.lost))
    return lines

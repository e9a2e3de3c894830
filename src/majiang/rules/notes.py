"""The project's rule notes: one Markdown page per ruleset (and a few shared pages) that
summarises the published rule texts and game products behind it.

They are written in the repository's ``docs/rules/`` and ship inside the package as
``majiang/data/rule_notes/*.md`` (setup.py copies them into every wheel), so an installed
``majiang`` can show them: ``majiang rules NAME --notes``.  A source checkout reads
``docs/rules/`` itself.  A ruleset's ``source`` cites its page by that path;
:func:`majiang.rules.summary.source_in_words` words it as a page a user can open.
"""
from __future__ import annotations

import re
from pathlib import Path

from ..errors import RuleError

__all__ = ["notes_dir", "pages", "page_of", "notes_text"]

PACKAGED = Path(__file__).resolve().parents[1] / "data" / "rule_notes"
"""Where an installed package holds the pages (a wheel built by setup.py)."""
CHECKOUT = Path(__file__).resolve().parents[3] / "docs" / "rules"
"""Where a source checkout holds them."""

CITED = re.compile(r"docs/rules/(\w+)\.md")
"""How a ruleset's ``source`` cites a page (group 1: the page name); also
:func:`majiang.rules.summary.source_in_words`."""


def notes_dir() -> Path | None:
    """The folder of the rule-note pages: the packaged copy, else the checkout's
    ``docs/rules``; None when neither exists."""
    for d in (PACKAGED, CHECKOUT):
        if d.is_dir() and any(d.glob("*.md")):
            return d
    return None


def pages() -> tuple[str, ...]:
    """The page names (``"sichuan"``, ``"common"`` …), sorted; the index page
    ``README`` is left out."""
    d = notes_dir()
    if d is None:
        return ()
    return tuple(sorted(p.stem for p in d.glob("*.md") if p.stem != "README"))


def page_of(ruleset) -> str | None:
    """The page a ruleset's ``source`` cites first (``"hefei"`` for
    ``"docs/rules/hefei.md"``), or None when it cites none."""
    m = CITED.search(getattr(ruleset, "source", "") or "")
    return m.group(1) if m else None


def notes_text(page: str) -> str:
    """The Markdown text of rule-note page `page` (a page name, see :func:`pages`).

    Raises
    ------
    RuleError
        An unknown page (the message lists them), or no rule notes in this installation.
    """
    d = notes_dir()
    if d is None:
        raise RuleError("the rule notes are not in this installation (they ship in the "
                        "package's data/rule_notes; reinstall majiang)")
    if page not in pages():
        raise RuleError(f"no rule-notes page {page!r}; pages: {', '.join(pages())}")
    return (d / f"{page}.md").read_text(encoding="utf-8")

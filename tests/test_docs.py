"""The documents the code cites live in the repository (``docs/``), and user-facing text
speaks plain words.

* No file of src/, tests/, bench/, notebooks/ or README.md cites the reference notes that
  stay outside the repository (their names are assembled below so that this file does
  not cite them either).
* Every ``docs/...`` path cited there exists, and every ``docs/<page>.md §n`` names a
  numbered section of that page (``## n. ...``).
* Every ruleset and every surveyed variant has its ``§`` number in the index of
  ``docs/rules/README.md``, and every ruleset's ``source`` is a rule-notes page.
* User-facing text — exception messages, printed / written lines, warnings and the notes
  of result objects (string literals in ``raise``, ``print`` / ``write`` / ``warn`` calls,
  ``note=`` / ``message=`` / ``help=`` keywords and ``note`` / ``msg`` assignments of
  ``src/majiang``), plus the output of ``majiang rules`` — uses no internal jargon: no
  "THE predicate" / "win predicate", no seed-file tags, no constant names, no issue
  numbers, no short source keys of the rule notes' register.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from majiang import rules
from majiang.cli import main

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PKG = ROOT / "src" / "majiang"
SCANNED = [ROOT / d for d in ("src", "tests", "bench", "notebooks")] + [ROOT / "README.md"]
SUFFIXES = {".py", ".pyx", ".pxd", ".pxi", ".pyi", ".ipynb", ".md", ".toml", ".txt", ".cfg"}

# the reference notes outside the repository, by name (assembled, not written out)
OUTSIDE = re.compile("|".join(re.escape(a + b) for a, b in (
    ("RULESETS", ".md"), ("STANDARD_", "READINGS"), ("DESIGN", ".md"), ("../", "shared"))))


def _files():
    for base in SCANNED:
        paths = [base] if base.is_file() else sorted(base.rglob("*"))
        for p in paths:
            if p.is_file() and p.suffix in SUFFIXES and "__pycache__" not in p.parts:
                yield p


def test_no_citation_of_reference_notes_outside_the_repository():
    hits = [f"{p.relative_to(ROOT)}:{n}: {line.strip()[:100]}"
            for p in _files()
            for n, line in enumerate(p.read_text(errors="replace").splitlines(), 1)
            if OUTSIDE.search(line)]
    assert not hits, "cite the page under docs/ that holds the fact:\n" + "\n".join(hits)


# ---------------------------------------------------------------- docs/ citations
CITE = re.compile(r"docs/[\w./-]*[\w/]((?: §\d+(?:-\d+)?)?)")


def _sections(page: Path) -> set[int]:
    return {int(m.group(1)) for m in re.finditer(r"^## (\d+)\.", page.read_text(), re.M)}


def test_every_cited_docs_path_exists_with_its_section():
    bad, seen = [], 0
    for p in _files():
        for n, line in enumerate(p.read_text(errors="replace").splitlines(), 1):
            for m in CITE.finditer(line):
                seen += 1
                path = m.group(0).split(" §")[0].rstrip("/.")
                target = ROOT / path
                where = f"{p.relative_to(ROOT)}:{n}: {m.group(0)}"
                if not target.exists():
                    bad.append(where + " (no such file)")
                    continue
                if m.group(1):
                    lo, _, hi = m.group(1)[2:].partition("-")
                    missing = set(range(int(lo), int(hi or lo) + 1)) - _sections(target)
                    if missing:
                        bad.append(where + f" (no section {sorted(missing)})")
    assert seen > 100                      # the code does cite them
    assert not bad, "\n".join(bad)


def test_every_rules_page_is_in_the_index():
    index = (DOCS / "rules" / "README.md").read_text()
    pages = {p.name for p in (DOCS / "rules").glob("*.md")} - {"README.md"}
    assert pages and all(f"({name}" in index for name in pages)


def test_the_index_leaves_the_status_to_the_catalog():
    # a status column kept by hand went stale (every row "complete"); the status is
    # worked out once, from each ruleset's notes (majiang rules --all)
    index = (DOCS / "rules" / "README.md").read_text()
    header = next(ln for ln in index.splitlines() if ln.startswith("| § |"))
    assert "Status" not in header and "majiang rules --all" in index
    rows = re.findall(r"^\| §[\d.]+ \|.*$", index, re.M)
    assert rows and not [r for r in rows if r.rstrip(" |").endswith(("complete", "interpreted"))]


def test_sections_and_sources_of_the_rulesets_are_documented():
    index = (DOCS / "rules" / "README.md").read_text()
    numbers = set(re.findall(r"^\| (§[\d.]+) \|", index, re.M))
    for v in rules.catalog.VARIANTS:
        assert v.section in numbers, v
    for name in rules.available():
        rs = rules.get(name)
        if rs.section:
            assert rs.section in numbers, (name, rs.section)
        cited = re.findall(r"docs/rules/\w+\.md", rs.source)
        assert cited and all((ROOT / c).exists() for c in cited), (name, rs.source)


# ---------------------------------------------------------------- jargon
def _register_keys() -> list[str]:
    text = (DOCS / "rules" / "README.md").read_text()
    keys = set()
    for cell in re.findall(r"^\| \*\*([^*]+)\*\* \|", text, re.M):
        keys.update(k.strip() for k in cell.split("/"))
    return sorted(k for k in keys if len(k) >= 2)


JARGON = re.compile("|".join([
    r"\bTHE (?:win )?predicate\b", r"\bwin[- ]predicate\b",
    r"\bS00\d\b",                                   # tags of the seed texts
    r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]\b",       # constant names (JOKER_PRED_BUDGET)
    r"\b[Ii]ssue \d+", r"\bduplicates D\d\b", r"\bSR §",
    r"\b(?:%s)\b" % "|".join(map(re.escape, _register_keys())),
]))

SINKS = {"print", "write", "warn", "emit", "echo", "fail", "error", "note", "add_note"}
TEXT_KEYWORDS = {"note", "notes", "message", "reason", "help", "description", "epilog"}
TEXT_TARGETS = ("note", "msg", "message", "warning", "reason")


def _strings(node):
    for n in ast.walk(node):
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            yield n.value


def _call_name(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _user_texts(tree):
    """(line, text) of the string literals that reach a user."""
    for n in ast.walk(tree):
        nodes = []
        if isinstance(n, ast.Raise) and n.exc is not None:
            nodes.append(n.exc)
        elif isinstance(n, ast.Call):
            name = _call_name(n)
            if name in SINKS:
                nodes += list(n.args) + [k.value for k in n.keywords]
            elif name in ("append", "extend", "insert") and any(
                    w in ast.unparse(n.func.value).lower() for w in TEXT_TARGETS):
                nodes += list(n.args)
            else:
                nodes += [k.value for k in n.keywords if k.arg in TEXT_KEYWORDS]
        elif isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and n.value is not None:
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            if any(w in ast.unparse(t).lower() for t in targets for w in TEXT_TARGETS):
                nodes.append(n.value)
        for x in nodes:
            for s in _strings(x):
                yield x.lineno, s


def test_scanner_sees_user_texts():
    tree = ast.parse('raise RuleError(f"THE predicate of {x} failed")\n'
                     'note = "past JOKER_PRED_BUDGET"\nwrite("see issue 12")\n'
                     'res = replace(res, note="ENC says")\nnotes.append("(HZB) value")\n')
    assert {line for line, s in _user_texts(tree) if JARGON.search(s)} == {1, 2, 3, 4, 5}


def test_user_facing_text_has_no_internal_jargon():
    hits = []
    for p in sorted(PKG.rglob("*.py")):
        for line, text in _user_texts(ast.parse(p.read_text())):
            m = JARGON.search(text)
            if m:
                hits.append(f"{p.relative_to(ROOT)}:{line}: {m.group(0)!r} in {text[:80]!r}")
    assert not hits, "reword in plain words:\n" + "\n".join(hits)


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def test_rules_command_speaks_plain_words(capsys):
    outputs = {"--all": _run(capsys, "rules", "--all"), "list": _run(capsys, "rules")}
    for name in rules.available():
        outputs[name] = _run(capsys, "rules", name)
    for what, out in outputs.items():
        m = JARGON.search(out)
        assert m is None, (what, m.group(0))
        source = [line for line in out.splitlines() if line.startswith("source")]
        assert all(".md" not in line for line in source), (what, source)


@pytest.mark.parametrize("name", ["sichuan", "mcr", "hangzhou"])
def test_rules_source_names_the_rule_notes(capsys, name):
    out = _run(capsys, "rules", name)
    source = next(line for line in out.splitlines() if line.startswith("source"))
    assert f"rule notes '{name}'" in source

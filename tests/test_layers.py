"""The import graph of ``src/majiang`` has no cycles and follows the layers of docs/design.md.

The graph is built from the source text (``ast`` over every ``.py`` file, a regular
expression over the Cython ``.pyx`` files), so it sees module-level AND
function-level imports alike: a lazy import still makes a lower layer depend on a
higher one.

The rule enforced (docs/design.md, "Layers: data flows down, never back up"): every
module has a rank, and no module imports a module of higher rank.  Modules of one
rank may import each other as long as no cycle forms.

====  ==================================================  ===========================
rank  modules                                             why
====  ==================================================  ===========================
0     errors, _core, _memo, _parallel                     the compiled core knows no ruleset;
                                                          caching, n_jobs and seeds
1     tiles, chows, hand, winning                         notation, hands, decomposed-hand type
2     rules (every ruleset, the game model, shapes)       variants as data + small predicates
3     efficiency                                          shanten / ukeire; may read a
                                                          ruleset's shape rules (rules is
                                                          data, below it), so rules never
                                                          imports efficiency
4     scoring                                             fans of a winning hand; THE win
                                                          predicate (uses efficiency for
                                                          the default, rule-less model)
5     probability, odds, analysis, records, position,     questions about one hand; records
      opponents, reading, claims, waiting_hand            only parses game logs; a position
                                                          reads records and logs, not the game;
                                                          the opponent model reads a position
6     game                                                one whole hand under a ruleset
7     studies, review, env                                many hands / a whole real game;
                                                          the PettingZoo environment
8     plots, cli, the ``majiang`` package, __main__       presentation, public re-exports
====  ==================================================  ===========================

One kind of edge is left out of the cycle check: a submodule importing names
from its own package's ``__init__`` *inside a function* (``rules/toml.py`` and
``rules/model.py`` call ``rules.get`` — the registry — when run).  By then the
package has finished importing, so no import-time cycle can form; a module-level
import of the parent package from a submodule still counts.

The same rule for facts: no module outside ``rules/`` reads a ruleset's ``constraints`` or
``options`` (it asks ``rules``: a game-model property, ``rules.describe``).
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PKG = SRC / "majiang"

RANKS = {
    "majiang.errors": 0, "majiang._core": 0, "majiang._memo": 0, "majiang._parallel": 0,
    "majiang._ranks": 0,
    "majiang.tiles": 1, "majiang.chows": 1, "majiang.hand": 1, "majiang.winning": 1,
    "majiang.rules": 2,
    "majiang.efficiency": 3,
    "majiang.scoring": 4,
    "majiang.probability": 5, "majiang.odds": 5, "majiang.analysis": 5, "majiang.records": 5,
    "majiang.position": 5, "majiang.opponents": 5, "majiang.reading": 5, "majiang.claims": 5,
    "majiang.waiting_hand": 5,
    "majiang.game": 6,
    "majiang.studies": 7, "majiang.review": 7, "majiang.env": 7,
    "majiang.plots": 8, "majiang.cli": 8, "majiang.__main__": 8, "majiang": 8,
}
LOW = ("majiang.rules", "majiang.tiles", "majiang.hand", "majiang.winning", "majiang._core")
HIGH = ("majiang.scoring", "majiang.probability", "majiang.odds", "majiang.analysis",
        "majiang.review", "majiang.records", "majiang.plots", "majiang.cli")


def _modules() -> dict[str, tuple[Path, bool]]:
    mods = {}
    for p in sorted(PKG.rglob("*.py")) + sorted(PKG.rglob("*.pyx")):
        parts = list(p.relative_to(SRC).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        if is_pkg:
            parts = parts[:-1]
        mods.setdefault(".".join(parts), (p, is_pkg))
    return mods


def _target(mods: dict, name: str) -> str | None:
    """The module an imported dotted name lands in (longest known prefix)."""
    while name not in mods and "." in name:
        name = name.rsplit(".", 1)[0]
    return name if name in mods else None


_PYX_IMPORT = re.compile(r"^\s*(?:from\s+(\.*[\w.]*)\s+import\s+([\w, ]+)|import\s+([\w.]+))",
                         re.M)


_PYX_INCLUDE = re.compile(r'^include\s+"([\w.]+\.pxi)"\s*$', re.M)


def _pyx_text(path: Path) -> str:
    """A Cython module's source with its ``include "x.pxi"`` parts pasted in."""
    return _PYX_INCLUDE.sub(lambda m: _pyx_text(path.parent / m.group(1)), path.read_text())


def test_pyx_text_pastes_the_included_parts():
    text = _pyx_text(PKG / "_core" / "fans.pyx")
    assert "cdef class FanTable" in text and not _PYX_INCLUDE.search(text)


def _imports(mod: str, path: Path, is_pkg: bool, mods: dict) -> list[tuple[str, bool, str]]:
    """``(imported module, at module level, parent-package import)`` for each import."""
    here = mod.split(".") if is_pkg else mod.split(".")[:-1]
    found: list[tuple[int, str | None, list[str], bool]] = []   # level, module, names, top
    if path.suffix == ".pyx":
        for m in _PYX_IMPORT.finditer(_pyx_text(path)):
            line = m.group(0)
            if "cimport" in line:
                continue
            if m.group(3):
                found.append((0, m.group(3), [], True))
            else:
                spec = m.group(1)
                level = len(spec) - len(spec.lstrip("."))
                found.append((level, spec.lstrip(".") or None,
                              [n.strip() for n in m.group(2).split(",")], True))
    else:
        tree = ast.parse(path.read_text(), filename=str(path))
        top = {id(n) for n in tree.body}
        for parent in ast.walk(tree):       # imports under module-level if/try are top too
            if isinstance(parent, (ast.If, ast.Try)) and id(parent) in top:
                top.update(id(n) for n in ast.walk(parent))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    found.append((0, a.name, [], id(node) in top))
            elif isinstance(node, ast.ImportFrom):
                found.append((node.level, node.module, [a.name for a in node.names],
                              id(node) in top))
    out = []
    for level, module, names, at_top in found:
        if level:
            base = here[:len(here) - (level - 1)]
            target = ".".join(base + ([module] if module else []))
        else:
            target = module or ""
        if not (target == "majiang" or target.startswith("majiang.")):
            continue
        for n in names or [None]:
            sub = f"{target}.{n}" if n else target
            t = _target(mods, sub if sub in mods else target)
            if t is None or t == mod:
                continue
            parent_pkg = mod.startswith(t + ".") and mods[t][1]
            out.append((t, at_top, parent_pkg))
    return out


def _graph(skip_lazy_parent: bool = True) -> dict[str, set[str]]:
    mods = _modules()
    g: dict[str, set[str]] = {m: set() for m in mods}
    for m, (p, is_pkg) in mods.items():
        for t, at_top, parent_pkg in _imports(m, p, is_pkg, mods):
            if skip_lazy_parent and parent_pkg and not at_top:
                continue
            g[m].add(t)
    return g


def _cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict = {}
    low: dict = {}
    stack: list = []
    on: set = set()
    out: list = []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in g[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def _rank(mod: str) -> int:
    hit = _target(RANKS, mod)
    if hit is None:
        raise AssertionError(f"{mod} has no layer in tests/test_layers.py RANKS; add it "
                             "(and to docs/design.md's table)")
    return RANKS[hit]


def test_the_graph_sees_known_edges():
    """The checker itself finds real edges, lazy ones included (it can fail)."""
    g = _graph(skip_lazy_parent=False)
    assert "majiang.scoring.results" in g["majiang.scoring.kernel"]
    assert "majiang.tiles" in g["majiang.hand"]
    assert "majiang.rules" in g["majiang.rules.toml"]            # function-level, parent
    assert "majiang.rules" not in _graph()["majiang.rules.toml"]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_function_level_imports_are_seen(tmp_path):
    """A lazy import inside a function of a low module is an edge like any other."""
    fake = tmp_path / "fake.py"
    fake.write_text("import numpy\n\ndef f():\n    from ..scoring import score\n"
                    "    from .. import probability\n    return score, probability\n")
    mods = _modules()
    got = _imports("majiang.rules.fake", fake, False, mods)
    assert ("majiang.scoring", False, False) in got
    assert ("majiang.probability", False, False) in got
    g = {"majiang.rules.fake": {t for t, _, _ in got}}
    assert any(_rank(t) > _rank(m) for m, ts in g.items() for t in ts)


def test_no_import_cycles():
    cycles = _cycles(_graph())
    assert cycles == [], "import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_every_module_has_a_layer():
    for m in _graph():
        _rank(m)


def test_no_module_imports_a_higher_layer():
    bad = [f"{m} (rank {_rank(m)}) imports {t} (rank {_rank(t)})"
           for m, ts in _graph(skip_lazy_parent=False).items() for t in sorted(ts)
           if _rank(t) > _rank(m)]
    assert bad == [], "\n".join(bad)


@pytest.mark.parametrize("low", LOW)
def test_lower_layers_never_import_the_analysis_layers(low):
    """The rule of issue 8 item 7 spelled out: nothing in rules/, tiles, hand, winning
    or _core imports scoring, probability, odds, analysis, review, records, plots or
    cli (module-level or inside a function)."""
    g = _graph(skip_lazy_parent=False)
    bad = [f"{m} imports {t}" for m, ts in g.items()
           if m == low or m.startswith(low + ".")
           for t in ts if any(t == h or t.startswith(h + ".") for h in HIGH)]
    assert bad == []


# ------------------------------------------------ rule facts are read inside rules/ only
RULE_FIELDS = ("constraints", "options")
"""Fields of a :class:`~majiang.rules.Ruleset` (and of the game model built from it) that
only ``rules/`` reads: the rest of the package asks ``rules`` (``GameModel`` properties,
``rules.describe``) instead of interpreting constraint names or build options itself."""
NOT_RULESETS: dict[tuple[str, str], str] = {}
"""``(file under src/majiang, expression)`` -> why that object is not a ruleset (e.g. an
argparse namespace with an ``options`` argument).  Empty today."""


def _rule_field_reads(text: str, suffix: str = ".py") -> list[tuple[int, str]]:
    """``(line, expression)`` of every read of ``<obj>.constraints`` / ``<obj>.options``
    (and ``getattr(<obj>, "constraints")``) in a module's source; a module path such as
    ``rules.constraints`` is not a read, nor a method such as ``constraints_beyond()``."""
    if suffix in (".pyx", ".pxi"):  # the compiled core knows no ruleset; a plain text check
        pat = re.compile(r"(?<!rules)\.(?:%s)\b" % "|".join(RULE_FIELDS))
        return [(i, line.strip()) for i, line in enumerate(text.splitlines(), 1)
                if pat.search(line.split("#")[0])]
    out = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Attribute) and node.attr in RULE_FIELDS:
            owner = node.value
            name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
            if name == "rules":         # the module majiang.rules.constraints
                continue
            out.append((node.lineno, ast.unparse(node)))
        elif (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "getattr"
              and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
              and node.args[1].value in RULE_FIELDS):
            out.append((node.lineno, ast.unparse(node)))
    return sorted(out)


def test_the_rule_field_check_can_fail():
    src = ("from majiang.rules.constraints import CONSTRAINTS\n"
           "import majiang.rules\n"
           "a = rs.constraints\nb = self.ruleset.options.get('x')\n"
           "c = model.constraints_beyond(())\nd = majiang.rules.constraints.DESCRIPTIONS\n"
           "e = getattr(rs, 'options', None)\nf = rs.constraints_note\n")
    assert [e for _, e in _rule_field_reads(src)] == [
        "rs.constraints", "self.ruleset.options", "getattr(rs, 'options', None)"]
    assert _rule_field_reads("x = rs.options  # comment\ny = rules.constraints\n",
                             ".pyx") == [(1, "x = rs.options  # comment")]


def test_no_module_outside_rules_reads_ruleset_constraints_or_options():
    """Issue 17: a fact about a ruleset lives in rules/ (the game model's properties,
    ``rules.describe`` for display); no other module reads a ruleset's (or its game
    model's) ``constraints`` or ``options``."""
    bad = []
    for p in sorted(PKG.rglob("*.py")) + sorted(PKG.rglob("*.pyx")) + sorted(PKG.rglob("*.pxi")):
        rel = p.relative_to(PKG).as_posix()
        if rel.startswith("rules/"):
            continue
        for line, expr in _rule_field_reads(p.read_text(), p.suffix):
            if (rel, expr) not in NOT_RULESETS:
                bad.append(f"src/majiang/{rel}:{line}: {expr}")
    assert bad == [], ("read the fact through majiang.rules (a GameModel property, "
                       "rules.describe) instead, or list a non-ruleset object in "
                       "NOT_RULESETS:\n" + "\n".join(bad))

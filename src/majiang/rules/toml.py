"""House rules in TOML: :func:`load` / :func:`loads` start from a built-in ruleset and
change it; :func:`dumps` writes any ruleset back (``loads(dumps(r))`` rebuilds ``r``).

Format (every key optional except ``base``)::

    base = "sichuan"              # a registered ruleset
    name = "our_table"            # registry-style name of the result
    title = "Friday Sichuan"

    [options]                     # the base's build options (see its module)
    long_seven_pairs = 16
    cap = 4

    [rules]                       # ruleset fields
    min_fan = 1
    constraints = ["void_suit"]   # names from majiang.rules.constraints
    winners = "head_bump"         # head_bump | multiple | single
    ready = "optional"            # none | optional | required
    cap = 5                       # scoring cap (fan units); "none" for no cap
    scoring_base = 2

    [fans]                        # fan values by Chinese name, English name or id
    "清一色" = 3
    remove = ["带幺九"]           # drop fans from the table

    [[add_fans]]                  # new fans from the shared predicates (majiang.rules.fans)
    id = 40
    chinese = "门清"
    english = "Concealed Hand"
    value = 1
    predicate = "concealed"

Unknown keys, unknown fans, options and bad values raise :class:`~majiang.errors.RuleError`
naming them.
"""
from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path
from typing import Any

from ..errors import RuleError
from .base import Ruleset, ScoringRule

__all__ = ["load", "loads", "dumps", "apply"]

_TOP = {"base", "name", "title", "options", "rules", "fans", "add_fans"}
_RULES = {"min_fan", "constraints", "winners", "ready", "cap", "scoring_base"}


def load(path: str | Path) -> Ruleset:
    """Read a house-rule file (see the module docstring) and register the result.

    The result is registered under its ``name`` (default ``"<base>+house"``) so that
    ``rules.get(name)`` finds it; a later file with the same name replaces it.  A name
    that belongs to a built-in ruleset is registered as ``"<name>+house"`` instead:
    built-ins are never replaced.

    Raises
    ------
    RuleError
        Unreadable file, bad TOML, unknown keys or values (the message names them).
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise RuleError(f"cannot read house rules {str(path)!r}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RuleError(f"house rules {str(path)!r} are not UTF-8 text") from None
    return loads(text, where=str(path))


def loads(text: str, *, where: str = "<string>") -> Ruleset:
    """Like :func:`load`, from a TOML string."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RuleError(f"{where}: not valid TOML: {exc}") from None
    return apply(data, where=where)


def _check_keys(d: dict, allowed: set, what: str, where: str) -> None:
    bad = sorted(set(d) - allowed)
    if bad:
        raise RuleError(f"{where}: unknown key(s) {', '.join(map(repr, bad))} in {what}; "
                        f"allowed: {', '.join(sorted(allowed))}")


def apply(data: dict, *, where: str = "<house rules>") -> Ruleset:
    """Build a ruleset from parsed TOML data."""
    from . import BUILDERS, get
    from .constraints import CONSTRAINTS
    from . import fans as F

    if not isinstance(data, dict):
        raise RuleError(f"{where}: expected a table")
    _check_keys(data, _TOP, "the file", where)
    if "base" not in data:
        raise RuleError(f"{where}: missing key 'base' (the built-in ruleset to start from, "
                        "e.g. base = \"sichuan\")")
    base_name = data["base"]
    if not isinstance(base_name, str):
        raise RuleError(f"{where}: base must be a ruleset name, got {base_name!r}")
    base = get(base_name)
    rs = base
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RuleError(f"{where}: [options] must be a table")
    if options:
        builder = BUILDERS.get(base.builder)
        if builder is None:
            raise RuleError(f"{where}: ruleset {base.name} has no build options")
        known = set(base.options)
        _check_keys(options, known, f"[options] of {base.name}", where)
        try:
            rs = builder(**{**dict(base.options), **options})
        except TypeError as exc:
            raise RuleError(f"{where}: bad option value: {exc}") from None
    changes: dict[str, Any] = {}
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        raise RuleError(f"{where}: [rules] must be a table")
    _check_keys(rules, _RULES, "[rules]", where)
    if "min_fan" in rules:
        v = rules["min_fan"]
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise RuleError(f"{where}: rules.min_fan must be a non-negative integer, got {v!r}")
        changes["min_fan"] = v
    if "constraints" in rules:
        v = rules["constraints"]
        if not isinstance(v, list) or any(c not in CONSTRAINTS for c in v):
            bad = [c for c in (v if isinstance(v, list) else [v]) if c not in CONSTRAINTS]
            raise RuleError(f"{where}: unknown constraint(s) {bad}; known: "
                            f"{', '.join(sorted(CONSTRAINTS))}")
        changes["constraints"] = tuple(v)
    for key in ("winners", "ready"):
        if key in rules:
            changes[key] = rules[key]
    if "cap" in rules or "scoring_base" in rules:
        cap = rules.get("cap", rs.scoring.cap)
        if cap == "none":
            cap = None
        try:
            changes["scoring"] = dataclasses.replace(
                rs.scoring, cap=cap, base=rules.get("scoring_base", rs.scoring.base))
        except RuleError as exc:
            raise RuleError(f"{where}: {exc}") from None
    fans_t = data.get("fans", {})
    if not isinstance(fans_t, dict):
        raise RuleError(f"{where}: [fans] must be a table")
    fans = list(rs.fans)
    removed: set = set()
    for key, value in fans_t.items():
        if key == "remove":
            if not isinstance(value, list):
                raise RuleError(f"{where}: fans.remove must be a list of fan names")
            for name in value:
                removed.add(_fan(rs, name, where).id)
            continue
        f = _fan(rs, int(key) if key.isdigit() else key, where)
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleError(f"{where}: value of fan {key!r} must be an integer, got {value!r}")
        fans = [dataclasses.replace(x, value=value) if x.id == f.id else x for x in fans]
    if removed:
        fans = [dataclasses.replace(x, excludes=x.excludes - removed,
                                    reduces=tuple(r for r in x.reduces if r[0] not in removed))
                for x in fans if x.id not in removed]
    for i, add in enumerate(data.get("add_fans", [])):
        _check_keys(add, {"id", "chinese", "english", "value", "predicate", "excludes"},
                    f"add_fans[{i}]", where)
        pred = getattr(F, str(add.get("predicate", "")), None)
        if pred is None or not callable(pred) or add.get("predicate", "").startswith("_"):
            raise RuleError(f"{where}: add_fans[{i}]: unknown predicate "
                            f"{add.get('predicate')!r} (a function of majiang.rules.fans)")
        try:
            fans.append(F.fan(add["id"], add["chinese"], add.get("english", add["chinese"]),
                              add["value"], pred, excludes=add.get("excludes", ())))
        except KeyError as exc:
            raise RuleError(f"{where}: add_fans[{i}] needs {exc.args[0]!r}") from None
    changes["fans"] = tuple(fans)
    for key in ("name", "title"):
        if key in data:
            if not isinstance(data[key], str) or not data[key]:
                raise RuleError(f"{where}: {key} must be a non-empty string")
            changes[key] = data[key]
    if "name" not in changes:
        changes["name"] = f"{rs.name}+house"
    try:
        out = dataclasses.replace(rs, **changes)
    except RuleError as exc:
        raise RuleError(f"{where}: {exc}") from None
    from . import BUILTIN_NAMES, register
    if out.name in BUILTIN_NAMES:
        # never replace a built-in in the registry (results look their ruleset up by
        # name): a file that reuses a built-in's name is registered as "<name>+house"
        out = dataclasses.replace(out, name=f"{out.name}+house")
    register(out, replace=True)
    return out


def _fan(rs: Ruleset, key, where: str):
    try:
        return rs.fan(key)
    except RuleError:
        raise RuleError(f"{where}: ruleset {rs.name} has no fan {key!r}; fans: "
                        + ", ".join(f.chinese for f in rs.fans)) from None


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if v is None:
        return '"none"'
    raise RuleError(f"cannot write {v!r} to TOML")


def dumps(rs: Ruleset) -> str:
    """The ruleset as a house-rule TOML text that :func:`loads` turns back into it."""
    from . import BUILDERS
    base = rs.builder if rs.builder in BUILDERS else rs.name
    lines = [f"# {rs.title}", f"base = {_toml_value(base)}", f"name = {_toml_value(rs.name)}",
             f"title = {_toml_value(rs.title)}", ""]
    opts = {k: v for k, v in rs.options.items() if v is not None or True}
    if opts and rs.builder in BUILDERS:
        lines.append("[options]")
        for k, v in opts.items():
            if v is None:
                continue            # None = the builder's default "off"
            lines.append(f"{k} = {_toml_value(v)}")
        lines.append("")
    lines += ["[rules]", f"min_fan = {rs.min_fan}",
              f"constraints = {_toml_value(list(rs.constraints))}",
              f"winners = {_toml_value(rs.winners)}", f"ready = {_toml_value(rs.ready)}",
              f"cap = {_toml_value(rs.scoring.cap)}", f"scoring_base = {rs.scoring.base}", "",
              "[fans]"]
    for f in rs.fans:
        lines.append(f"{_toml_value(f.chinese)} = {f.value}   # {f.id} {f.english}")
    return "\n".join(lines) + "\n"

"""House rules in TOML: :func:`load` / :func:`loads` start from a built-in ruleset and
change it; :func:`dumps` writes any ruleset back (``loads(dumps(r))`` rebuilds ``r``).

Format (every key optional except ``base``)::

    base = "sichuan"              # a registered ruleset
    name = "our_table"            # registry-style name of the result
    title = "Friday Sichuan"

    [options]                     # the base's build options (see its module)
    long_seven_pairs = 16
    cap = 4                       # scoring cap (fan units); "none" for no cap

    [rules]                       # ruleset fields
    min_fan = 1
    constraints = ["void_suit"]   # names from majiang.rules.constraints
    winners = "head_bump"         # head_bump | multiple | single
    ready = "optional"            # none | optional | required
    pass_lock = "kind"            # 过水 / 漏和: "" | kind | all
    end_checks = ["查花猪", "查大叫", "退税"]   # at a drawn end
    end_settlement = ""           # a registered end-of-hand settlement ("guizhou")
    exchange = 3                  # 换三张 (0 = none)
    kong_payments = {concealed = 2, exposed = 2, added = 1}   # KongPayments fields;
    #                             # {} = none (刮风下雨, 杠分)
    # cap = 5                     # scoring cap, scoring_base = 2: for rulesets
    #                             # without such build options

    [fans]                        # fan values (0 or more) by Chinese name, English
    "清一色" = 3                  # name or id
    remove = ["带幺九"]           # drop fans from the table

The scoring cap, scoring base and minimum fan can be written in ``[rules]``
(``cap``, ``scoring_base``, ``min_fan``) or, for a ruleset that takes them as
build options (e.g. 四川 ``cap``/``base``, 广东鸡平胡 ``cap``/``min_fan``/``base``, 卡五星
and 沈阳 ``cap``, 西安/广东 ``base``), in ``[options]`` (``cap``, ``base``,
``min_fan``).  Either place gives the same ruleset; a file that gives one of them
in both places with different values is an error.

    [[add_fans]]                  # new fans from the shared predicates (majiang.rules.fans)
    id = 40
    chinese = "门清"
    english = "Concealed Hand"
    value = 1
    predicate = "concealed"

Unknown keys, unknown fans, options and bad values (a negative fan value, a cap or
base given twice with different values) raise :class:`~majiang.errors.RuleError`
naming them.
"""
from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path
from typing import Any

from ..errors import RuleError
from .base import KongPayments, Ruleset, check_int

__all__ = ["load", "loads", "dumps", "apply"]

_TOP = {"base", "name", "title", "options", "rules", "fans", "add_fans"}
_RULES = {"min_fan", "constraints", "winners", "ready", "cap", "scoring_base",
          "pass_lock", "end_checks", "exchange", "kong_payments",
          "end_settlement"}


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
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        raise RuleError(f"{where}: [rules] must be a table")
    _check_keys(rules, _RULES, "[rules]", where)
    options, rules = _merge_shared(base, dict(options), dict(rules), where)
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
    if "min_fan" in rules:
        v = rules["min_fan"]
        check_int(v, f"{where}: rules.min_fan", lo=0)
        changes["min_fan"] = v
    if "constraints" in rules:
        v = rules["constraints"]
        if not isinstance(v, list) or any(c not in CONSTRAINTS for c in v):
            bad = [c for c in (v if isinstance(v, list) else [v]) if c not in CONSTRAINTS]
            raise RuleError(f"{where}: unknown constraint(s) {bad}; known: "
                            f"{', '.join(sorted(CONSTRAINTS))}")
        changes["constraints"] = tuple(v)
    for key in ("winners", "ready", "pass_lock", "exchange", "end_settlement"):
        if key in rules:
            changes[key] = rules[key]
    if "end_checks" in rules:
        v = rules["end_checks"]
        if not isinstance(v, list):
            raise RuleError(f"{where}: rules.end_checks must be a list of names")
        changes["end_checks"] = tuple(v)
    if "kong_payments" in rules:
        v = rules["kong_payments"]
        if not isinstance(v, dict):
            raise RuleError(f"{where}: rules.kong_payments must be a table of KongPayments "
                            "fields")
        known = {f.name for f in dataclasses.fields(KongPayments)}
        _check_keys(v, known, "rules.kong_payments", where)
        try:
            changes["kong_payments"] = KongPayments(**v) if v else None
        except RuleError as exc:
            raise RuleError(f"{where}: {exc}") from None
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
        _check_fan_value(value, f"fan {key!r}", where)
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
        if "value" in add:
            _check_fan_value(add["value"], f"add_fans[{i}] ({add.get('chinese', '?')})", where)
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


_SHARED = {"cap": "cap", "scoring_base": "base", "min_fan": "min_fan"}
"""[rules] keys that some rulesets also take as build options ([options] key): the
scoring cap, the scoring base and the minimum fan."""


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _merge_shared(base: Ruleset, options: dict, rules: dict, where: str):
    """Route the [rules] keys that the base ruleset also takes as build options (see
    :data:`_SHARED`) into the options, so the builder sees one value (its settlement
    and option list stay consistent).  Both given with different values: RuleError."""
    for rkey, okey in _SHARED.items():
        if rkey not in rules or okey not in base.options:
            continue
        value = rules.pop(rkey)
        if rkey == "cap" and value == "none":
            value = None
        if okey in options:
            other = None if options[okey] == "none" and okey == "cap" else options[okey]
            if not _same(other, value):
                raise RuleError(
                    f"{where}: rules.{rkey} = {_toml_value(value)} and options.{okey} = "
                    f"{_toml_value(other)} disagree; {base.name} takes the {okey} as a build "
                    f"option, so give it once (in [options])")
        options[okey] = value
    if options.get("cap") == "none" and "cap" in base.options:
        options["cap"] = None
    return options, rules


def _check_fan_value(value: Any, what: str, where: str) -> None:
    check_int(value, f"{where}: value of {what}")
    if value < 0:
        raise RuleError(f"{where}: value of {what} must be 0 or more, got {value} "
                        "(a fan never takes points away)")


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
    built = rs.builder in BUILDERS
    # the cap, base and minimum are written once: as build options where the builder
    # takes them, else in [rules]
    as_option = {k for k in _SHARED.values() if built and k in rs.options}
    if rs.options and built:
        lines.append("[options]")
        for k, v in rs.options.items():
            if v is None and k != "cap":
                continue            # None = the builder's default "off"
            lines.append(f"{k} = {_toml_value(v)}")     # a cap of None is "none"
        lines.append("")
    lines += ["[rules]"]
    if "min_fan" not in as_option:
        lines.append(f"min_fan = {rs.min_fan}")
    lines += [f"constraints = {_toml_value(list(rs.constraints))}",
              f"winners = {_toml_value(rs.winners)}", f"ready = {_toml_value(rs.ready)}",
              f"pass_lock = {_toml_value(rs.pass_lock)}",
              f"end_checks = {_toml_value(list(rs.end_checks))}", f"exchange = {rs.exchange}",
              f"end_settlement = {_toml_value(rs.end_settlement)}"]
    kp = rs.kong_payments
    lines.append("kong_payments = {" + ", ".join(
        f"{f.name} = {_toml_value(getattr(kp, f.name))}"
        for f in dataclasses.fields(KongPayments)) + "}" if kp is not None
        else "kong_payments = {}")
    if "cap" not in as_option:
        lines.append(f"cap = {_toml_value(rs.scoring.cap)}")
    if "base" not in as_option:
        lines.append(f"scoring_base = {rs.scoring.base}")
    lines += ["", "[fans]"]
    for f in rs.fans:
        lines.append(f"{_toml_value(f.chinese)} = {f.value}   # {f.id} {f.english}")
    return "\n".join(lines) + "\n"

"""House rules in TOML: :func:`load` / :func:`loads` start from a built-in ruleset and
change it; :func:`dumps` writes any ruleset back (``loads(dumps(r))`` rebuilds ``r``).

:func:`dumps` writes the base, the build options (the knobs) and only what differs
from the ruleset those options build, with the rest (the rules and fan table the
options give) as comments; so a dumped file with an option switched builds the same
ruleset as the builder given that option (换三张 ``exchange3``, 德国七对 …).

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
    void_rule = "declared"        # 缺一门 played as 定缺 at the deal | at_win (no declaring)
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

Unknown keys, unknown fans, options and bad values (a string for a true/false option,
a fan value below 0 or above :data:`~majiang.rules.base.FAN_VALUE_MAX`, or above
:data:`~majiang.rules.base.FAN_DOUBLINGS_MAX` in a doubling table, a cap or base given
twice with different values) raise :class:`~majiang.errors.RuleError` naming the file,
the key and the value.
"""
from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path
from typing import Any

from ..errors import RuleError
from .base import (DERIVED_OPTIONS, FAN_DOUBLINGS_MAX, FAN_VALUE_MAX, KongPayments, Ruleset,
                   check_int)

__all__ = ["load", "loads", "dumps", "apply", "option_value", "option_text", "with_options",
           "knobs", "label", "changed_options"]

_TOP = {"base", "name", "title", "options", "rules", "fans", "add_fans"}
_RULES = {"min_fan", "constraints", "void_rule", "winners", "ready", "cap", "scoring_base",
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
    try:
        base = get(base_name)
    except RuleError as exc:          # (an unknown name: the message lists the known ones)
        raise RuleError(f"{where}: base: {exc}") from None
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
            rs = builder(**{**knobs(base), **options})
        except TypeError as exc:
            raise RuleError(f"{where}: bad option value: {exc}") from None
        except RuleError as exc:
            raise RuleError(f"{where}: {exc}") from None
    changes: dict[str, Any] = {}
    if "min_fan" in rules:
        v = rules["min_fan"]
        check_int(v, f"{where}: rules.min_fan", lo=0)
        changes["min_fan"] = v
    if "constraints" in rules:
        v = rules["constraints"]
        if not isinstance(v, list):
            raise RuleError(f"{where}: rules.constraints must be a list of names, e.g. "
                            f'["void_suit"] ([] for none), got {_toml_value(v)}')
        bad = [c for c in v if c not in CONSTRAINTS]
        if bad:
            raise RuleError(f"{where}: unknown constraint(s) {bad}; known: "
                            f"{', '.join(sorted(CONSTRAINTS))}")
        changes["constraints"] = tuple(v)
    for key in ("void_rule", "winners", "ready", "pass_lock", "exchange", "end_settlement"):
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
        _check_fan_value(value, f"fan {key!r}", where, rs)
        fans = [dataclasses.replace(x, value=value) if x.id == f.id else x for x in fans]
    if removed:
        fans = [dataclasses.replace(x, excludes=x.excludes - removed,
                                    reduces=tuple(r for r in x.reduces if r[0] not in removed))
                for x in fans if x.id not in removed]
    add_fans = data.get("add_fans", [])
    if not isinstance(add_fans, list) or not all(isinstance(a, dict) for a in add_fans):
        raise RuleError(f"{where}: add_fans must be a list of tables ([[add_fans]])")
    for i, add in enumerate(add_fans):
        _check_keys(add, {"id", "chinese", "english", "value", "predicate", "excludes"},
                    f"add_fans[{i}]", where)
        pred = getattr(F, str(add.get("predicate", "")), None)
        if pred is None or not callable(pred) or add.get("predicate", "").startswith("_"):
            raise RuleError(f"{where}: add_fans[{i}]: unknown predicate "
                            f"{add.get('predicate')!r} (a function of majiang.rules.fans)")
        if "value" in add:
            _check_fan_value(add["value"], f"add_fans[{i}] ({add.get('chinese', '?')})",
                             where, rs)
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
    for key, value in options.items():
        if (isinstance(value, str) and value.lower() == "none" and key in base.options
                and _takes_none(base, key)):
            options[key] = None
    return options, rules


def _takes_none(rs: Ruleset, key: str) -> bool:
    """Whether build option `key` of `rs` means something by None: the cap (None = no
    cap) and the options whose builder default is None (sichuan ``tiandi``, guangdong
    ``ghost``) — so ``"none"`` is None there, and stays a word for an option that has
    ``"none"`` among its words (guizhou ``ting_values``)."""
    import inspect

    from . import BUILDERS
    if key == "cap":
        return True
    builder = BUILDERS.get(rs.builder)
    if builder is None:
        return False
    param = inspect.signature(builder).parameters.get(key)
    return param is not None and param.default is None


def _check_fan_value(value: Any, what: str, where: str, rs: Ruleset) -> None:
    check_int(value, f"{where}: value of {what}")
    if value < 0:
        raise RuleError(f"{where}: value of {what} must be 0 or more, got {value} "
                        "(a fan never takes points away)")
    if rs.scoring.mode == "double" and value > FAN_DOUBLINGS_MAX:
        raise RuleError(f"{where}: value of {what} must be at most {FAN_DOUBLINGS_MAX} "
                        f"doublings in {rs.name} (fan values double the points), got {value}")
    if value > FAN_VALUE_MAX:
        raise RuleError(f"{where}: value of {what} must be at most {FAN_VALUE_MAX}, "
                        f"got {value}")


def with_options(rs: Ruleset, **options: Any) -> Ruleset:
    """Ruleset ``rs`` built again with some build options changed: a built-in ruleset
    by its builder, any other (house rules) through its house-rule text
    (:func:`dumps`, then the options, then :func:`apply`), so its own changes stay.

    Raises
    ------
    RuleError
        An option ``rs`` does not take or a bad value; a ruleset a house-rule file
        cannot write (:func:`dumps`).
    """
    from . import BUILDERS, BUILTIN_NAMES, get
    if rs.name in BUILTIN_NAMES and get(rs.name) is rs and rs.builder in BUILDERS:
        where = "with_options"
        _check_keys(options, set(rs.options), f"the options of {rs.name}", where)
        options, _ = _merge_shared(rs, dict(options), {}, where)     # cap "none" as in a file
        try:
            return BUILDERS[rs.builder](**{**knobs(rs), **options})
        except TypeError as exc:
            raise RuleError(f"{where}: bad option value: {exc}") from None
    data = tomllib.loads(dumps(rs))
    data.setdefault("options", {}).update(options)
    return apply(data, where=f"ruleset {rs.name}")


def option_value(text: str) -> Any:
    """A build option's value written as a house-rule file's ``[options]`` table writes
    it, read by the same TOML reader: ``true`` / ``false``, an integer, a float, a quoted
    string or an array (``min_fan=3``, ``chong_guan_bao=false``, ``personal="double"``);
    a bare word that is no TOML value (``double``, ``none``) is that word as a string, as
    a shell drops the quotes.  ``cap`` ``"none"`` then means no cap, as in a file
    (:func:`with_options`).  Whether the value suits the option is the builder's check."""
    text = text.strip()
    if text in ("True", "False"):              # as Python (and older output) writes them
        return text == "True"
    if "\n" not in text and "\r" not in text:
        if text.startswith("(") and text.endswith(")"):     # a tuple as Python writes it
            text = f"[{text[1:-1]}]"
        try:
            return tomllib.loads(f"v = {text}")["v"]
        except tomllib.TOMLDecodeError:
            pass
    return text


def option_text(value: Any) -> str:
    """Build option value `value` as ``--option KEY=VALUE`` and :func:`option_value` read
    it back (``majiang rules NAME`` prints the options so): ``true`` / ``false``, ``none``
    (None: no cap, or the builder's default), numbers, a bare word, else TOML
    (``[0, 0]``, a quoted string)."""
    if value is None:
        return "none"
    if isinstance(value, str) and value and option_value(value) == value:
        return value
    if isinstance(value, tuple):
        value = list(value)
    return _toml_value(value)


def label(rs: Ruleset) -> str:
    """Ruleset `rs` as output names it: its :attr:`~Ruleset.name` followed by the build
    options in which it differs from the built-in ruleset of that name
    (:func:`changed_options`, written as ``--option`` reads them), e.g.
    ``"wuhan[min_fan=3]"``; the name alone for a built-in ruleset and for house rules
    (``"wuhan+house"``).  An option the name implies is not repeated (``sichuan`` with
    ``xueliu=true`` is ``"sichuan_xueliu"``).  The name itself stays the registry's key
    (logs and worker processes look the ruleset up by it).  The keys an analysis adds
    (the turned indicator, a declared void: :mod:`majiang.rules.derived`) are no build
    options and are left out."""
    from . import get
    got = changed_options(rs)
    got = {k: v for k, v in got.items() if k in get(rs.name).options}
    if not got:
        return rs.name
    return f"{rs.name}[{','.join(f'{k}={option_text(v)}' for k, v in got.items())}]"


def changed_options(rs: Ruleset) -> dict:
    """The build options (:func:`knobs`) in which `rs` differs from the built-in ruleset of
    its name — what a hand log's header records so that :func:`majiang.game.replay` plays
    the hand under the same options (side bets, variants); ``{}`` for the built-in itself
    and for house rules not built by a built-in's builder."""
    from . import BUILDERS, BUILTIN_NAMES, get
    if rs.name not in BUILTIN_NAMES or rs.builder not in BUILDERS:
        return {}
    base = get(rs.name)
    if base is rs or base.builder != rs.builder:
        return {}
    mine, theirs = knobs(rs), knobs(base)
    return {k: v for k, v in mine.items() if theirs.get(k) != v}


def knobs(rs: Ruleset) -> dict:
    """The build options of `rs` a house-rule file gives: :attr:`Ruleset.options`
    without the ones its builder derives from the others
    (:data:`~majiang.rules.base.DERIVED_OPTIONS`)."""
    derived = DERIVED_OPTIONS.get(rs.builder, frozenset())
    return {k: v for k, v in rs.options.items() if k not in derived}


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


_RULE_FIELDS = ("min_fan", "constraints", "void_rule", "winners", "ready", "pass_lock",
                "end_checks", "exchange", "end_settlement", "kong_payments", "cap", "scoring_base")
"""The [rules] keys, in the order :func:`dumps` writes them."""

_FIXED_FIELDS = ("players", "hand_size", "calls", "forms", "seven_pairs_quads",
                 "flowers_count_toward_minimum", "settlement", "settlement_params", "tile_set",
                 "tiles_note", "jokers", "wall_end", "blood", "dealer_rule", "win_first",
                 "discard_order", "liabilities", "must_win_last",
                 "standing_tiles", "ready_kongs", "kong_reveal")
"""Ruleset fields a house-rule file cannot change: they come from the base and options."""


def _rule_value(rs: Ruleset, key: str) -> Any:
    if key == "cap":
        return rs.scoring.cap
    if key == "scoring_base":
        return rs.scoring.base
    v = getattr(rs, key)
    return list(v) if isinstance(v, tuple) else v


def _rule_line(rs: Ruleset, key: str) -> str:
    v = _rule_value(rs, key)
    if key == "kong_payments":
        return "kong_payments = {" + ", ".join(
            f"{f.name} = {_toml_value(getattr(v, f.name))}"
            for f in dataclasses.fields(KongPayments)) + "}" if v is not None \
            else "kong_payments = {}"
    return f"{key} = {_toml_value(v)}"


def _fan_key(rs: Ruleset, f) -> str:
    """The [fans] key of `f`: its Chinese name when that finds it, else its id."""
    return _toml_value(f.chinese) if rs.fan(f.chinese).id == f.id else f'"{f.id}"'


def dumps(rs: Ruleset) -> str:
    """The ruleset as a house-rule TOML text that :func:`loads` turns back into it.

    Written: the base (the builder's ruleset), every build option (the knobs; an unset
    one as a comment), and only what differs from the ruleset those options build —
    name, title, [rules] fields, fan values, removed and added fans.  What the options
    give is written as comments, so switching an option in the file changes the rules
    and fans that follow from it.

    Raises
    ------
    RuleError
        When the ruleset differs from what its base and options build in a way a
        house-rule file cannot say (tiles, players, calls, jokers …, or an added fan
        whose predicate is not a function of :mod:`majiang.rules.fans`).
    """
    from . import BUILDERS, available, get
    from . import fans as F
    built = rs.builder in BUILDERS
    if built:
        base = rs.builder
        opts = knobs(rs)
        ref = BUILDERS[rs.builder](**opts)
    elif rs.name in available():
        base, opts, ref = rs.name, {}, get(rs.name)
    else:
        raise RuleError(f"ruleset {rs.name} is neither built from options nor registered: "
                        "a house-rule file cannot start from it")
    bad = [k for k in _FIXED_FIELDS if getattr(rs, k) != getattr(ref, k)]
    if (rs.scoring.mode, rs.scoring.function, rs.scoring.limit) != (
            ref.scoring.mode, ref.scoring.function, ref.scoring.limit):
        bad.append("scoring")
    if bad:
        raise RuleError(f"ruleset {rs.name}: {', '.join(bad)} differ(s) from what base "
                        f"{base!r} and its options give; a house-rule file cannot say that")
    lines = [f"# {rs.title}", f"base = {_toml_value(base)}"]
    for key in ("name", "title"):
        v = getattr(rs, key)
        same = v == getattr(ref, key) or (key == "name" and v == f"{ref.name}+house")
        lines.append(("# " if same else "") + f"{key} = {_toml_value(v)}")
    lines.append("")
    # the cap, base and minimum are written once: as build options where the builder
    # takes them, else in [rules]
    as_option = {k for k in _SHARED.values() if k in opts}
    if opts:
        lines.append("[options]")
        for k, v in opts.items():
            if v is None and k != "cap":        # None = the builder's default
                lines.append(f"# {k}: not set (the ruleset's default)")
            else:
                lines.append(f"{k} = {_toml_value(v)}")     # a cap of None is "none"
        lines.append("")
    lines += ["[rules]", "# commented: what the base and options give"]
    for key in _RULE_FIELDS:
        if _SHARED.get(key) in as_option:
            continue
        line = _rule_line(rs, key)
        lines.append(line if _rule_value(rs, key) != _rule_value(ref, key) else f"# {line}")
    lines += ["", "[fans]", "# commented: the values the base and options give"]
    mine = {f.id: f for f in rs.fans}
    theirs = {f.id: f for f in ref.fans}
    for f in ref.fans:
        if f.id in mine and mine[f.id].value != f.value:
            lines.append(f"{_fan_key(ref, f)} = {mine[f.id].value}   # {f.id} {f.english}")
        elif f.id in mine:
            lines.append(f"# {_fan_key(ref, f)} = {f.value}   # {f.id} {f.english}")
    removed = [f for f in ref.fans if f.id not in mine]
    if removed:
        lines.append("remove = [" + ", ".join(_fan_key(ref, f) for f in removed) + "]")
    for f in rs.fans:
        if f.id in theirs:
            continue
        pred = getattr(f.predicate, "__name__", "")
        again = None
        if not pred.startswith("_") and getattr(F, pred, None) is f.predicate:
            again = F.fan(f.id, f.chinese, f.english, f.value, f.predicate,
                          excludes=f.excludes)
        if again != f:
            raise RuleError(f"ruleset {rs.name}: fan {f.id} {f.chinese} cannot be written "
                            "to a house-rule file (its predicate is not a function of "
                            "majiang.rules.fans)")
        lines += ["", "[[add_fans]]", f"id = {f.id}", f"chinese = {_toml_value(f.chinese)}",
                  f"english = {_toml_value(f.english)}", f"value = {f.value}",
                  f"predicate = {_toml_value(pred)}",
                  f"excludes = {_toml_value(sorted(f.excludes))}"]
    return "\n".join(lines) + "\n"

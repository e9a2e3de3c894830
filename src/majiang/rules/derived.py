"""Rulesets derived from a ruleset for one hand or one question: its winning forms
narrowed (:func:`narrowed`), a seat's declared void suit applied (:func:`with_void`, 定缺)
and the hand's turned indicator applied where a rule reads it (:func:`with_indicator`,
武汉 痞子).  Each is the same :class:`~majiang.rules.Ruleset` with one field or option
changed, made once per (ruleset, value); :mod:`majiang.rules.model` re-exports them."""
from __future__ import annotations

from typing import Any

from ..errors import RuleError
from ..tiles import tile_name
from .._memo import per_ruleset
from .base import Ruleset
from .declared import DECLARED_VOID, TURNED, void_index
from .model import DEFAULT_RULESET, RuleSpec, _kind_of, rule_spec

__all__ = ["narrowed", "with_void", "with_indicator"]


def narrowed(ruleset: Any = None, forms: Any = None,
             seven_pairs_quads: bool | None = None) -> Ruleset:
    """The ruleset (a name, a ``.toml`` path, a :class:`~majiang.rules.Ruleset`; ``None`` =
    :data:`DEFAULT_RULESET`) with its winning forms narrowed to ``forms`` and its
    seven-pairs quad option set to ``seven_pairs_quads``; everything else (tile set,
    constraints such as 缺一门, jokers, minimum, fans) is kept.  ``None`` keeps the
    ruleset's own value; with both None the ruleset itself is returned.  The result
    keeps the ruleset's name and is made once per (ruleset, forms, option).

    Narrowing only: ``forms`` (a form name or a sequence of them) must be among the
    ruleset's forms, so a shape the ruleset does not let win (thirteen orphans under
    四川, whose 108 tiles hold no honours) is an error, not a silent change of rules.
    For other forms choose a ruleset that has them (``"plain"``: regular, seven distinct
    pairs, thirteen orphans; ``"mcr"``: the five Chinese Official forms).

    Raises
    ------
    RuleError
        Unknown ruleset; ``forms`` empty, not form names, or naming a form the ruleset
        does not have (the message lists the ruleset's forms).
    """
    from . import get
    rs = get(DEFAULT_RULESET if ruleset is None else ruleset)
    if forms is None and seven_pairs_quads is None:
        return rs
    if forms is not None:
        names = (forms,) if isinstance(forms, str) else forms
        try:
            names = tuple(names)
        except TypeError:
            raise RuleError(f"forms must be a sequence of form names, got {forms!r}") from None
        if not names:
            raise RuleError("forms must name at least one winning form")
        from .base import FORM_NAMES
        unknown = [f for f in names if f not in FORM_NAMES]
        if unknown:
            raise RuleError(f"unknown winning form {unknown[0]!r}; known forms: "
                            f"{', '.join(FORM_NAMES)}")
        bad = [f for f in names if f not in rs.forms]
        if bad:
            raise RuleError(f"{rs.name} has no winning form {bad[0]!r}; forms can only "
                            f"narrow its forms: {', '.join(rs.forms)}")
        forms = tuple(f for f in rs.forms if f in names)
    key = (forms, None if seven_pairs_quads is None else bool(seven_pairs_quads))
    memo = _narrow_memo(rs)
    got = memo.get(key)
    if got is None:
        from dataclasses import replace
        changes: dict = {}
        if forms is not None and forms != tuple(rs.forms):
            changes["forms"] = forms
        if key[1] is not None and key[1] != bool(rs.seven_pairs_quads):
            changes["seven_pairs_quads"] = key[1]
        got = memo[key] = replace(rs, **changes) if changes else rs
    return got


_narrow_memo = per_ruleset(lambda rs: {})


def with_void(ruleset: Any = None, void: Any = None) -> Ruleset:
    """The ruleset (a name, a ``.toml`` path, a Ruleset or a RuleSpec; ``None`` =
    :data:`DEFAULT_RULESET`) with a seat's declared void suit (定缺) applied: the
    complete hand must lack that suit (:attr:`RuleSpec.declared_void`).  ``void``: a suit
    letter ``"m"`` / ``"p"`` / ``"s"`` or 0..2; ``None`` returns the ruleset itself.  The
    result keeps the ruleset's name and is made once per (ruleset, suit).

    Raises
    ------
    RuleError
        ``void`` is not a suit, the ruleset has no void-suit rule (缺一门), or it plays
        the void at the win only (:attr:`RuleSpec.declares_void` False: nothing to declare).
    """
    from . import get
    if isinstance(ruleset, RuleSpec):
        ruleset = ruleset.ruleset
    rs = get(DEFAULT_RULESET if ruleset is None else ruleset)
    s = void_index(void)
    if s is None:
        return rs
    spec = rule_spec(rs)
    if not spec.void_suit:
        raise RuleError(f"void={void!r}: {rs.name} has no void suit (缺一门) to declare")
    if not spec.declares_void:
        raise RuleError(f"void={void!r}: {rs.name} declares no void suit (no 定缺): its hand "
                        "must lack a suit only when it wins, whichever suit that is "
                        "(void_rule 'at_win'); drop void=")
    had = rs.options.get(DECLARED_VOID)
    if had is not None and had != s:
        raise RuleError(f"void={void!r} conflicts with the declared void suit "
                        f"{'mps'[int(had)]} (drop void= or change the position)")
    return _with_option(rs, DECLARED_VOID, s)


_option_memo = per_ruleset(lambda rs: {})


def _with_option(rs: Ruleset, key: str, value: Any) -> Ruleset:
    """``rs`` with the per-hand option ``key`` set to ``value`` (``rs`` itself when it
    already has it), made once per (ruleset, key, value)."""
    if rs.options.get(key) == value:
        return rs
    memo = _option_memo(rs)
    got = memo.get((key, value))
    if got is None:
        from dataclasses import replace
        got = memo[(key, value)] = replace(rs, options={**rs.options, key: value})
    return got


def with_indicator(ruleset: Any = None, indicator: Any = None) -> Ruleset:
    """The ruleset (a name, a ``.toml`` path, a Ruleset or a RuleSpec; ``None`` =
    :data:`DEFAULT_RULESET`) with the hand's turned joker indicator applied where a rule
    reads it: 武汉 (constraint ``no_pizi``): the turned kind is the 痞子, which no complete
    hand may hold (:attr:`RuleSpec.pizi`, :attr:`RuleSpec.banned_kinds`; docs/rules/wuhan.md
    §1).  Under a ruleset with no such rule, or with ``indicator`` None, the ruleset
    itself.  The result keeps the ruleset's name and is made once per (ruleset, kind).

    Raises
    ------
    RuleError
        ``indicator`` is not a tile kind 0..33 or a tile name; a ruleset that already
        carries another turned kind.
    """
    from . import get
    if isinstance(ruleset, RuleSpec):
        ruleset = ruleset.ruleset
    rs = get(DEFAULT_RULESET if ruleset is None else ruleset)
    if indicator is None or "no_pizi" not in rs.constraints:
        return rs
    k = _kind_of(indicator)
    had = rs.options.get(TURNED)
    if had is not None and had != k:
        raise RuleError(f"indicator={indicator!r} conflicts with the turned indicator "
                        f"{tile_name(int(had))} this ruleset already carries")
    return _with_option(rs, TURNED, k)

"""A seat's declared void suit (定缺) applied to a ruleset: :func:`with_void` makes the
ruleset whose :attr:`RuleSpec.declared_void <majiang.rules.model.RuleSpec.declared_void>`
is that suit, which every analysis then reads (the shape options' ``void_suits`` with only
that suit's bit, the ``void_suit`` win predicate, the discard tables' "declared suit first"
rows).  The rule that a void suit exists at all stays a fact of the ruleset
(``void_suit`` among its constraints); the declaration is a fact of one seat.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._memo import per_ruleset
from ..errors import RuleError

if TYPE_CHECKING:
    from .base import Ruleset

__all__ = ["DECLARED_VOID", "void_index", "with_void"]

DECLARED_VOID = "declared_void"
"""The key of :attr:`Ruleset.options <majiang.rules.Ruleset.options>` that holds the
declared void suit of a ruleset made by :func:`with_void`."""


def void_index(void: Any) -> int | None:
    """A declared void suit as 0 (万), 1 (筒) or 2 (条): a suit letter ``"m"``, ``"p"``,
    ``"s"`` or an int 0..2; ``None`` (and -1, a position's "none") = not declared.

    Raises
    ------
    RuleError
        Anything else.
    """
    if void is None:
        return None
    if isinstance(void, str) and void.strip().lower() in ("m", "p", "s"):
        return "mps".index(void.strip().lower())
    if isinstance(void, (int, np.integer)) and not isinstance(void, bool) and -1 <= void <= 2:
        return None if void == -1 else int(void)
    raise RuleError(f"void must be a suit letter m, p or s (or 0, 1, 2), got {void!r}")


def with_void(ruleset: Any = None, void: Any = None) -> Ruleset:
    """The ruleset (a name, a ``.toml`` path, a Ruleset or a RuleSpec; ``None`` =
    :data:`DEFAULT_RULESET`) with a seat's declared void suit (定缺) applied: the
    complete hand must lack that suit (:attr:`RuleSpec.declared_void`).  ``void``: a suit
    letter ``"m"`` / ``"p"`` / ``"s"`` or 0..2; ``None`` returns the ruleset itself.  The
    result keeps the ruleset's name and is made once per (ruleset, suit).

    Raises
    ------
    RuleError
        ``void`` is not a suit, or the ruleset has no void-suit rule (缺一门).
    """
    from . import get
    from .model import DEFAULT_RULESET, RuleSpec, rule_spec
    if isinstance(ruleset, RuleSpec):
        ruleset = ruleset.ruleset
    rs = get(DEFAULT_RULESET if ruleset is None else ruleset)
    s = void_index(void)
    if s is None:
        return rs
    if not rule_spec(rs).void_suit:
        raise RuleError(f"void={void!r}: {rs.name} has no void suit (缺一门) to declare")
    had = rs.options.get(DECLARED_VOID)
    if had == s:
        return rs
    if had is not None:
        raise RuleError(f"void={void!r} conflicts with the declared void suit "
                        f"{'mps'[int(had)]} (drop void= or change the position)")
    memo = _void_memo(rs)
    got = memo.get(s)
    if got is None:
        from dataclasses import replace
        got = memo[s] = replace(rs, options={**rs.options, DECLARED_VOID: s})
    return got


_void_memo = per_ruleset(lambda rs: {})

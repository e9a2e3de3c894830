"""A seat's declared void suit (定缺) applied to a ruleset:
:func:`~majiang.rules.derived.with_void` makes the
ruleset whose :attr:`RuleSpec.declared_void <majiang.rules.model.RuleSpec.declared_void>`
is that suit, which every analysis then reads (the shape options' ``void_suits`` with only
that suit's bit, the ``void_suit`` win predicate, the discard tables' "declared suit first"
rows).  The rule that a void suit exists at all stays a fact of the ruleset
(``void_suit`` among its constraints); the declaration is a fact of one seat.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import RuleError

__all__ = ["DECLARED_VOID", "TURNED", "void_index"]

DECLARED_VOID = "declared_void"
"""The key of :attr:`Ruleset.options <majiang.rules.Ruleset.options>` that holds the
declared void suit of a ruleset made by :func:`with_void`."""

TURNED = "turned_indicator"
"""The key of :attr:`Ruleset.options <majiang.rules.Ruleset.options>` that holds the kind
of the hand's turned joker indicator on a ruleset made by
:func:`~majiang.rules.derived.with_indicator` (武汉: that kind is the 痞子, which may not be
held at a win)."""


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

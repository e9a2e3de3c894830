"""The joker assignment of the reading being scored, published to fan predicates and
win constraints.

When :mod:`majiang.scoring.regional` scores a hand with jokers it replaces each joker
by the kind it stands for and sets :data:`JOKERS` for the duration of the reading, so
predicates such as 硬 (no jokers), 金雀 or 七对有钻 and constraints such as
``max_one_joker_small`` can see them.  A leaf module (imports nothing of majiang), so
both :mod:`.constraints` and :mod:`.fans` read it without importing each other.
"""
from __future__ import annotations

from contextvars import ContextVar
from typing import Any

__all__ = ["JOKERS", "joker_info"]

JOKERS: ContextVar = ContextVar("majiang_jokers", default=(0, (), False))
"""(number of jokers, kinds they stand for, whether the win tile is a joker)."""


def joker_info(w: Any = None) -> tuple:
    """``(n, kinds, win_is_joker)`` of the hand being scored (``w`` is not read: the
    assignment is the one published in :data:`JOKERS`)."""
    return JOKERS.get()

"""The one check of each kind of ruleset option: integers (:func:`check_int`), booleans
(:func:`check_bool`), enumerations (:func:`check_choice`) and per-seat amounts
(:func:`check_seat_amounts`: side bets the players choose before a hand), shared by the builders,
the rule types and the house-rule reader so that every ruleset words a bad value the
same way (a :class:`~majiang.errors.RuleError`).
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..errors import RuleError

__all__ = ["check_int", "check_bool", "check_choice", "check_seat_amounts"]


def check_int(value: Any, what: str, *, lo: int | None = None, hi: int | None = None,
              optional: bool = False, even: bool = False) -> int | None:
    """The one check of an integer option or argument of a ruleset (builder options,
    scoring and kong-payment fields, TOML values): an ``int`` (a bool is not one) within
    ``lo`` .. ``hi`` (either bound may be open), even when ``even``; None passes when
    ``optional``.  Returns the value.

    Raises
    ------
    RuleError
        ``"<what> must be [None or ]an [even ]integer[ >= lo | <= hi | from lo to hi],
        got <value>"`` — one wording for every ruleset.
    """
    if optional and value is None:
        return None
    if (not isinstance(value, bool) and isinstance(value, int)
            and (lo is None or value >= lo) and (hi is None or value <= hi)
            and not (even and value % 2)):
        return value
    rng = ("" if lo is None and hi is None else f" >= {lo}" if hi is None
           else f" <= {hi}" if lo is None else f" from {lo} to {hi}")
    raise RuleError(f"{what} must be {'None or ' if optional else ''}an "
                    f"{'even ' if even else ''}integer{rng}, got {value!r}")


def check_bool(value: Any, what: str, *, optional: bool = False) -> bool | None:
    """The one check of a boolean option of a ruleset (builder options, TOML values): a
    ``bool`` — not a string such as ``"false"`` or ``"no"``, nor 0 / 1; None passes when
    ``optional``.  Returns the value.

    Raises
    ------
    RuleError
        ``"<what> must be [None or ]true or false, got <value>"``.
    """
    if isinstance(value, bool) or (optional and value is None):
        return value
    raise RuleError(f"{what} must be {'None or ' if optional else ''}true or false, "
                    f"got {value!r}")


def check_choice(value: Any, what: str, choices: Iterable) -> Any:
    """The one check of an option that takes one of a few values (an enum: ``"add_base"``
    or ``"double"``, 8 or 16, None): `value` must equal one of `choices` and be of the
    same type (``True`` is not 1, ``8.0`` is not 8).  Returns the value.

    Raises
    ------
    RuleError
        ``"<what> must be one of <choices>, got <value>"``.
    """
    choices = tuple(choices)
    for c in choices:
        if type(value) is type(c) and value == c:
            return value
    raise RuleError(f"{what} must be one of {', '.join(map(repr, choices))}, got {value!r}")


def check_seat_amounts(value: Any, what: str, players: int,
                       choices: Iterable | None = None) -> tuple:
    """The one check of a per-seat amount option (a side bet each player chooses before
    the hand, seat 0 first): a list or tuple of `players` integers, each one of
    `choices` when given, else 0 or more.  Returns it as a tuple.

    Raises
    ------
    RuleError
        ``"<what> must be a list of <players> amounts, one per seat, got <value>"``, or
        the wording of :func:`check_int` / :func:`check_choice` for one seat's amount.
    """
    if not isinstance(value, (list, tuple)) or len(value) != players:
        raise RuleError(f"{what} must be a list of {players} amounts, one per seat, "
                        f"got {value!r}")
    for i, v in enumerate(value):
        if choices is None:
            check_int(v, f"{what} (seat {i})", lo=0)
        else:
            check_choice(v, f"{what} (seat {i})", choices)
    return tuple(value)

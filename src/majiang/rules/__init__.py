"""Rulesets: every variant as data (:class:`Ruleset`, :class:`Fan`) plus a registry.

>>> from majiang import rules
>>> rules.available()
('mcr',)
>>> rules.get("mcr").fan(24).chinese
'一色三节高'

Built-in rulesets come from ``RULESETS.md``; :func:`register` adds one (for
example a regional variant built with ``dataclasses.replace(get("mcr"), ...)``).
"""
from __future__ import annotations

from ..errors import RuleError
from .base import FORM_NAMES, Fan, Ruleset
from .mcr import MCR

__all__ = ["Fan", "Ruleset", "FORM_NAMES", "get", "available", "register", "MCR"]

_REGISTRY: dict[str, Ruleset] = {}
_ALIASES = {"chinese_official": "mcr", "guobiao": "mcr", "国标": "mcr", "国标麻将": "mcr"}


def register(ruleset: Ruleset, *, replace: bool = False) -> Ruleset:
    """Add a ruleset to the registry under ``ruleset.name``.

    Raises
    ------
    RuleError
        If the argument is not a Ruleset, or the name is taken and `replace` is False.
    """
    if not isinstance(ruleset, Ruleset):
        raise RuleError(f"register expects a Ruleset, got {type(ruleset).__name__}")
    if ruleset.name in _REGISTRY and not replace:
        raise RuleError(f"a ruleset named {ruleset.name!r} is already registered")
    _REGISTRY[ruleset.name] = ruleset
    return ruleset


def get(name: str | Ruleset) -> Ruleset:
    """The ruleset registered as `name` (a Ruleset is returned unchanged).

    Raises
    ------
    RuleError
        For an unknown name; the message lists the available ones.
    """
    if isinstance(name, Ruleset):
        return name
    if isinstance(name, str):
        key = _ALIASES.get(name.strip().lower(), _ALIASES.get(name.strip(), name.strip().lower()))
        r = _REGISTRY.get(key)
        if r is not None:
            return r
    raise RuleError(f"unknown ruleset {name!r}; available: {', '.join(available())}")


def available() -> tuple[str, ...]:
    """Names of the registered rulesets, sorted."""
    return tuple(sorted(_REGISTRY))


register(MCR)

"""Rulesets: every variant as data (:class:`Ruleset`, :class:`Fan`) plus a registry.

>>> from majiang import rules
>>> "mcr" in rules.available() and "sichuan" in rules.available()
True
>>> rules.get("mcr").fan(24).chinese
'一色三节高'

Built-in rulesets come from the rule notes in ``docs/rules/`` (one module each: :mod:`.sichuan`,
:mod:`.shandong`, :mod:`.anqing` …; :mod:`.catalog` lists every §3 variant with
its status); :func:`register` adds one; :func:`load` reads a house-rule TOML file
that starts from a built-in one; :func:`dumps` writes a ruleset back to TOML;
:func:`describe` / :func:`describe_lines` give a ruleset's facts as plain data / text.
"""
from __future__ import annotations

from ..errors import RuleError
from .base import FORM_NAMES, Fan, JokerRule, Ruleset, ScoringRule, WallEnd
from .mcr import MCR
from .mcr import build as _mcr_build

__all__ = ["Fan", "Ruleset", "FORM_NAMES", "JokerRule", "ScoringRule", "WallEnd", "get",
           "available", "register", "MCR", "BUILDERS", "load", "loads", "dumps", "catalog",
           "describe", "describe_lines", "RuleSpec", "rule_spec"]

_REGISTRY: dict[str, Ruleset] = {}
_ALIASES = {"chinese_official": "mcr", "guobiao": "mcr", "国标": "mcr", "国标麻将": "mcr"}
BUILDERS: dict = {}
"""Builder functions by name: ``BUILDERS["sichuan"](**options) -> Ruleset``."""


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
    """The ruleset registered as `name` (a Ruleset is returned unchanged); a name ending
    in ``.toml`` is loaded as a house-rule file (:func:`load`).

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
        if name.strip().lower().endswith(".toml"):
            return load(name.strip())
    raise RuleError(f"unknown ruleset {name!r}; available: {', '.join(available())}")


def available() -> tuple[str, ...]:
    """Names of the registered rulesets, sorted."""
    return tuple(sorted(_REGISTRY))


register(MCR)
BUILDERS["mcr"] = _mcr_build


def _register_builtins() -> None:
    """Register every ruleset module of this package: a module (not a subpackage, not
    ``_private``) with a top-level ``build`` function is a ruleset module; its
    builders go into :data:`BUILDERS` (``build`` under the module's name, plus its own
    ``BUILDERS``) and its module-level :class:`Ruleset` objects into the registry.
    Nothing lists the modules by hand: a new ``rules/<name>.py`` with ``build`` is found."""
    import pkgutil
    from importlib import import_module
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.ispkg or info.name.startswith("_"):
            continue
        mod = import_module(f"{__name__}.{info.name}")
        build = getattr(mod, "build", None)
        if not callable(build) or getattr(build, "__module__", None) != mod.__name__:
            continue
        BUILDERS.setdefault(info.name, build)
        BUILDERS.update(getattr(mod, "BUILDERS", {}))
        for obj in vars(mod).values():
            if isinstance(obj, Ruleset) and obj.name not in _REGISTRY:
                register(obj)


_register_builtins()
BUILTIN_NAMES = frozenset(_REGISTRY)
"""Names of the built-in rulesets; house rules may not replace them."""

from .toml import dumps, load, loads  # noqa: E402
from . import catalog  # noqa: E402
from .summary import describe, describe_lines  # noqa: E402
from .model import RuleSpec, rule_spec  # noqa: E402

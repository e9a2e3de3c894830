"""``--option KEY=VALUE``: a ruleset's build options on the command line.

The keys are the ones ``majiang rules NAME`` lists under ``options`` (and a house-rule
file writes in its ``[options]`` table, ``majiang rules NAME --toml``); the values are
read as that file reads them (:func:`majiang.rules.toml.option_value`: ``true`` /
``false``, numbers, words), and the ruleset is built again with them
(:func:`majiang.rules.toml.with_options`), so ``--rules wuhan --option min_fan=3``
plays the same rules as a file ``base = "wuhan"`` with ``[options] min_fan = 3``.
Given with a house-rule file, the flag wins over the file's value.  Every command that
takes a ruleset reads its ruleset through :func:`load_ruleset`.
"""
from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from ._errors import CommandError

__all__ = ["add_option_arg", "load_ruleset", "load_rulesets", "ruleset_label",
           "with_cli_options"]

FLAG = "--option"


def add_option_arg(parser: argparse.ArgumentParser, *, several: bool = False) -> None:
    """``--option KEY=VALUE`` (repeatable, into ``args.rule_options``); `several`: the
    command names several rulesets, and each option applies to every one that takes it
    (:func:`load_rulesets`)."""
    which = ("each ruleset that takes the key (an error when none does)" if several
             else "the ruleset")
    parser.add_argument(FLAG, dest="rule_options", action="append", default=None,
                        metavar="KEY=VALUE",
                        help=f"a build option, applied to {which}, as in a house-rule .toml "
                             "file's [options] (the keys majiang rules NAME lists; values "
                             "true/false, none, numbers or words), e.g. --option min_fan=3; "
                             "repeatable; wins over the same option in a .toml file")


def load_ruleset(name: str | None, options: Sequence[str] | None = None):
    """The :class:`~majiang.rules.Ruleset` named by ``--rules`` (a registered name or a
    house-rule ``.toml`` file) with the ``--option`` values `options` applied
    (:func:`with_cli_options`); None when neither a name nor an option is given (an
    option without ``--rules`` applies to the library's default, Chinese Official rules).

    Raises
    ------
    RuleError
        Unknown name, unreadable or invalid file.
    CommandError
        A bad ``--option`` (see :func:`with_cli_options`).
    """
    from ..rules import get as get_ruleset
    if not name and not options:
        return None
    return with_cli_options(get_ruleset(name or "mcr"), options)


def ruleset_label(rs) -> str:
    """How output names :class:`~majiang.rules.Ruleset` `rs`: its name with the options it
    was built with, e.g. ``wuhan[min_fan=3]`` (:func:`majiang.rules.toml.label`)."""
    from ..rules.toml import label
    return label(rs)


def load_rulesets(names: Sequence[str], options: Sequence[str] | None) -> list:
    """The rulesets `names` (registered names or house-rule files), each built again with
    the ``--option`` texts among `options` whose key it takes (``majiang study wuhan
    sichuan --option cap=none`` lifts both caps; ``--option min_fan=3`` changes 武汉
    alone).

    Raises
    ------
    RuleError
        Unknown name, unreadable or invalid file.
    CommandError
        An option without ``=`` or whose key none of the rulesets takes; a value a
        ruleset's builder refuses.
    """
    from ..rules import get as get_ruleset
    from ..rules.toml import knobs
    found = [get_ruleset(name) for name in names]
    keyed = [(text, _split(text, "min_fan=3")[0]) for text in options or ()]
    for text, key in keyed:
        if not any(key in knobs(rs) for rs in found):
            raise CommandError(f"{FLAG} {text}: no ruleset given takes option {key!r}; "
                               + "; ".join(f"the options of {rs.name}: "
                                           f"{', '.join(knobs(rs)) or 'none'}" for rs in found))
    return [with_cli_options(rs, [text for text, key in keyed if key in knobs(rs)])
            for rs in found]


def _split(text: str, example: str, valid: str = "") -> tuple[str, str]:
    """``(key, value)`` of ``--option`` text `text`, the key stripped.

    Raises
    ------
    CommandError
        No ``=`` or an empty key: the message shows `example` and, when given, `valid`
        (the ruleset's option keys)."""
    key, eq, value = text.partition("=")
    key = key.strip()
    if not eq or not key:
        raise CommandError(f"{FLAG} {text!r}: expected KEY=VALUE, e.g. {FLAG} {example}"
                           + (f"; {valid}" if valid else ""))
    return key, value


def with_cli_options(rs: Any, options: Sequence[str] | None) -> Any:
    """`rs` built again with the ``--option KEY=VALUE`` texts `options` (a later value
    of one key wins); `rs` itself when there are none.

    Raises
    ------
    CommandError
        An option without ``=``, a key the ruleset does not take, a value its builder
        refuses: one line naming the ruleset's option keys.
    """
    from ..errors import RuleError
    from ..rules.toml import knobs, option_value, with_options
    if not options:
        return rs
    keys = tuple(knobs(rs))
    valid = (f"the options of {rs.name}: {', '.join(keys)}" if keys
             else f"{rs.name} takes no options")
    values: dict[str, Any] = {}
    for text in options:
        typed = text.partition("=")[0].strip()
        example = typed if typed in keys else keys[0] if keys else "KEY"
        key, value = _split(text, f"{example}=VALUE", valid)
        if key not in keys:
            raise CommandError(f"{FLAG} {text}: unknown option {key!r}; {valid}")
        values[key] = option_value(value)
    try:
        return with_options(rs, **values)
    except RuleError as exc:
        message = str(exc).removeprefix("with_options: ")
        raise CommandError(f"{FLAG}: {message}; {valid}") from None

"""The ``majiang`` command line.

Usage::

    majiang advise "23345m111p456p99s6m" [--visible 1m1m7m] [--json]
    majiang shanten "2345m111p456p99s6m" [--forms regular,seven_pairs] [--json]
    majiang review LOG | --example [--all] [--player N] [--json]

Each subcommand is one module of this package listed in :data:`SUBCOMMANDS`.
A module provides

* ``HELP``: a one-line summary for ``majiang --help``;
* its docstring: the subcommand's description (``majiang NAME --help``);
* ``configure(parser)``: add its arguments to an :class:`argparse.ArgumentParser`;
* ``run(args) -> int``: do the work, print through :mod:`majiang.cli._common`,
  return the exit code.

To add a subcommand (``score``, ``rules`` ...) write ``cli/score.py`` with those
three names and add ``"score"`` to :data:`SUBCOMMANDS`.

Errors: a :class:`~majiang.errors.MahjongError` (bad tile, bad hand, unknown
form ...) or a :class:`~majiang.cli._common.CommandError` (unreadable file ...)
prints ``majiang: error: <message>`` on stderr and exits with 2; usage errors
are argparse's (also exit 2).  No traceback for bad input.  Ctrl-C
(``KeyboardInterrupt``) exits with 130 and is never reported as bad input, even
when a library call wrapped it in a MahjongError; ``simulate`` / ``study`` with
``--out DIR`` then say on stderr how many chunks are saved and that the same
command resumes.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from ..errors import MahjongError
from ._common import CommandError

__all__ = ["SUBCOMMANDS", "build_parser", "main"]

PROG = "majiang"

SUBCOMMANDS: tuple[str, ...] = (
    "advise",
    "claim",
    "danger",
    "shanten",
    "review",
    "score",
    "rules",
    "simulate",
    "match",
    "study",
    "arena",
)
"""Subcommand modules of :mod:`majiang.cli`, in ``--help`` order."""

EXIT_ERROR = 2
EXIT_INTERRUPT = 130
"""Exit code after Ctrl-C (128 + SIGINT), never turned into a bad-input error."""


class _SubParser(argparse.ArgumentParser):
    """A subcommand's parser: a usage error prints argparse's two lines, the usage
    shortened to one (``usage: majiang simulate [options] RULESET``: the positional
    arguments; ``--help`` lists the options) rather than every option wrapped over
    several lines, then ``majiang simulate: error: ...``."""

    def format_short_usage(self) -> str:
        formatter = self._get_formatter()
        positionals = [a for a in self._actions if not a.option_strings]
        formatter.add_usage(None, positionals, [], prefix="")
        tail = formatter.format_help().strip().removeprefix(self.prog).strip()
        return f"usage: {self.prog} [options] {tail}".rstrip() + "\n"

    def error(self, message: str):
        self.exit(2, f"{self.format_short_usage()}{self.prog}: error: {message}\n")


class _Parser(argparse.ArgumentParser):
    """The top-level parser; it keeps each subcommand's parser so that an unknown
    option is reported with that subcommand's usage."""
    subcommand_parsers: dict[str, argparse.ArgumentParser]


def build_parser() -> _Parser:
    """The top-level parser with one subparser per entry of :data:`SUBCOMMANDS`."""
    from .. import __version__

    parser = _Parser(
        prog=PROG,
        description="Mahjong (麻将) analysis: shanten, effective tiles, discard advice, "
                    "game reviews.  Hands in Tenhou notation (123m456p789s11z, melds in "
                    "[...], concealed kongs in {...}), Chinese (一万 五筒 九条 东) or tile "
                    "glyphs.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True,
                                parser_class=_SubParser)
    parser.subcommand_parsers = {}
    for name in SUBCOMMANDS:
        module = importlib.import_module(f"{__name__}.{name}")
        p = sub.add_parser(name, help=module.HELP, description=module.__doc__,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        module.configure(p)
        p.set_defaults(_run=module.run)
        parser.subcommand_parsers[name] = p
    return parser


def _exit_code(code: object) -> int:
    if code is None:
        return 0
    return code if isinstance(code, int) else 1


def _interrupted(exc: BaseException) -> bool:
    """Whether a KeyboardInterrupt is in the cause/context chain of `exc`."""
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        if isinstance(cur, KeyboardInterrupt):
            return True
        seen.add(id(cur))
        cur = cur.__cause__ or cur.__context__
    return False


def saved_chunks(out: str) -> tuple[int, int]:
    """``(chunks, hands)`` finished in the run directory `out` of ``simulate --out`` or,
    one level down, in the per-ruleset directories of ``study --out`` (0, 0 when `out`
    does not exist)."""
    import os

    from ..game.store import finished_parts

    if not os.path.isdir(out):
        return 0, 0
    dirs = [out] + sorted(os.path.join(out, d) for d in os.listdir(out)
                          if os.path.isdir(os.path.join(out, d)))
    parts = [p for d in dirs for p in finished_parts(d)]
    return len(parts), sum(b - a for a, b in parts)


def _report_interrupt(args) -> None:
    """After Ctrl-C in a command writing a resumable run (``--out DIR``), one line on
    stderr: how many chunks are saved and that the same command resumes."""
    out = getattr(args, "out", None)
    if not out or getattr(args, "command", None) not in ("simulate", "study", "arena"):
        return
    from ._common import plural

    if args.command == "arena":
        from ..game.store import finished_parts
        import os
        try:
            parts = finished_parts(out) if os.path.isdir(out) else set()
        except OSError:
            return
        walls = sum(b - a for a, b in parts)
        print(f"{PROG}: interrupted: {plural(len(parts), 'chunk')} ({plural(walls, 'wall')}) "
              f"saved in {out}; run the same command again to resume", file=sys.stderr)
        return

    try:
        chunks, hands = saved_chunks(out)
    except OSError:
        return
    print(f"{PROG}: interrupted: {plural(chunks, 'chunk')} ({plural(hands, 'hand')}) saved "
          f"in {out}; run the same command again to resume", file=sys.stderr)


# A library error names the Python keyword; the command line says its flag instead
# (dest of the parsed arguments, the flag, the library's words).  Applied only when the
# command has that flag.
_FLAG_WORDS = (
    ("seed", "--seed", r"\bseed must be a non-negative integer, a numpy SeedSequence or "
                       r"Generator, or None \(fresh entropy\)", "--seed must be a non-negative integer"),
    ("seed", "--seed", r"\bseed=", "--seed "),
    ("seat", "--seat", r"\bseat_wind\b=?", "--seat"),
    ("prevalent", "--prevalent", r"\bprevalent_wind\b=?", "--prevalent"),
    ("out", "--out", r"\bout=", "--out "),
    ("jobs", "--jobs", r"\bn_jobs\b=?", "--jobs"),
    ("n", "-n", r"\bn_hands\b=?", "-n"),
    ("draws", "--draws", r"\bdraws=", "--draws "),
    ("visible", "--visible", r"\bvisible=", "--visible "),
    ("indicator", "--indicator", r"\bindicator=", "--indicator "),
    ("void", "--void", r"\bvoid=", "--void "),
    ("void", "--void", r"^void must\b", "--void must"),
    ("indicator", "--indicator", r"give the indicator\b", "give it with --indicator TILE"),
)


def cli_words(message: object, args: object = None) -> str:
    """`message` (a library error) with the Python keywords it names replaced by the
    flags of the command (``seed`` → ``--seed``, ``seat_wind`` → ``--seat``, ``out=`` →
    ``--out``, "give the indicator" → "give it with --indicator TILE"), for the flags
    `args` (the parsed arguments) has."""
    import re
    text = str(message)
    for dest, _flag, pattern, repl in _FLAG_WORDS:
        if args is not None and hasattr(args, dest):
            text = re.sub(pattern, repl, text)
    return text


def _error(message: object, args: object = None) -> int:
    print(f"{PROG}: error: {cli_words(message, args)}", file=sys.stderr)
    return EXIT_ERROR


def _silence_stdout() -> None:
    """After a broken pipe: point stdout at devnull so the interpreter's final
    flush does not complain (the recipe of the Python ``signal`` docs)."""
    import os
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _tolerant_output() -> None:
    """Tile glyphs and Chinese names on a console that cannot encode them (GBK, cp1252,
    ASCII) are replaced rather than crashing the command."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and (stream.encoding or "").lower().replace("-", "") \
                not in ("utf8", "utf16", "utf32"):
            try:
                reconfigure(errors="replace")
            except (ValueError, OSError):
                pass


def _fewer_collections() -> None:
    """Raise the garbage collector's first threshold to 20,000 new objects (Python's
    default is 700).  A command is one process that builds many long-lived objects (the
    scorer's kept readings, a search's results): at the default the growing heap is
    scanned whole several times a run (about half a second of CPU in a 4-second
    ``advise --draws 10 --rules tianjin``).  Only when collections happen changes, never
    a value."""
    import gc
    first, *rest = gc.get_threshold()
    if 0 < first < 20_000:
        gc.set_threshold(20_000, *rest)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with `argv` (default ``sys.argv[1:]``); returns the
    exit code (0 success, 2 bad input or usage, 130 interrupted by Ctrl-C) instead
    of exiting."""
    _tolerant_output()
    _fewer_collections()
    args = None
    try:
        parser = build_parser()
        try:
            args, extra = parser.parse_known_args(argv)
            if extra:                  # the subcommand's usage and error, not the top level's
                parser.subcommand_parsers[args.command].error(
                    f"unrecognized arguments: {' '.join(extra)}")
        except SystemExit as exc:      # --help, --version, or a usage error
            return _exit_code(exc.code)
        return int(args._run(args) or 0)
    except KeyboardInterrupt:          # Ctrl-C: the shell convention 128 + SIGINT
        _report_interrupt(args)
        return EXIT_INTERRUPT
    except (MahjongError, CommandError) as exc:
        if _interrupted(exc):          # a library call that wrapped the interrupt
            _report_interrupt(args)
            return EXIT_INTERRUPT
        return _error(exc, args)
    except BrokenPipeError:            # e.g. `majiang review --example --all | head`
        _silence_stdout()
        return 0

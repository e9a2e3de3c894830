"""Helpers shared by the subcommands: errors, common options, text tables, JSON.

Everything that writes goes through :func:`write` / :func:`emit_json`, which look
up ``sys.stdout`` at call time (so tests can capture it).
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from ._errors import CommandError
from ._rule_options import add_option_arg, load_ruleset

__all__ = [
    "CommandError", "NO_ARRANGEMENT", "Column", "add_json_flag", "add_forms_args",
    "add_rules_arg", "add_indicator_arg", "check_indicator", "read_hand_faces",
    "load_ruleset", "rules_and_forms", "hand_size", "parse_cli_hand", "command_hint",
    "Visible", "parse_cli_visible", "refuse_seen_jokers", "check_plot_path", "plural",
    "parse_forms", "hand_glyphs", "shanten_label", "shanten_value", "display_width",
    "format_table", "fmt_float", "fmt_percent", "jsonable", "emit_json", "write",
]

NO_ARRANGEMENT = 99
"""Shanten values at or above this mean "no arrangement of these forms exists"
(e.g. seven pairs asked for a hand with melds)."""


# --------------------------------------------------------------------------
# options
# --------------------------------------------------------------------------

def add_json_flag(parser: argparse.ArgumentParser) -> None:
    """``--json``: machine-readable output instead of the text table."""
    parser.add_argument("--json", action="store_true",
                        help="print JSON instead of a text table")


def add_forms_args(parser: argparse.ArgumentParser) -> None:
    """``--forms a,b,c`` and ``--seven-pairs-quads`` / ``--no-seven-pairs-quads``: narrow
    the ruleset (``--rules``, default Chinese Official rules) exactly as ``forms=`` /
    ``seven_pairs_quads=`` do in Python (read with :func:`rules_and_forms`)."""
    from ..efficiency import FORMS

    parser.add_argument(
        "--forms", default=None, metavar="FORM[,FORM...]",
        help=f"only these of the ruleset's winning forms, comma-separated; known: "
             f"{', '.join(FORMS)} (default: all the ruleset's forms)")
    parser.add_argument(
        "--seven-pairs-quads", action=argparse.BooleanOptionalAction, default=None,
        help="four of a kind counts as two pairs in seven pairs (default: the ruleset's "
             "choice: yes under Chinese Official rules, no under --rules plain)")


def add_rules_arg(parser: argparse.ArgumentParser) -> None:
    """``--rules NAME|FILE``: a registered ruleset or a house-rule TOML file: its winning
    forms, shape constraints (void suit, 2-5-8 pair), tile set and jokers (see ``majiang
    rules``).  Without it: Chinese Official rules, as the library's default.  Also
    ``--option KEY=VALUE``, the ruleset's build options (:mod:`majiang.cli._rule_options`)."""
    parser.add_argument("--rules", metavar="NAME|FILE", default=None,
                        help="ruleset name (majiang rules lists them) or house-rule .toml "
                             "file (default: mcr, Chinese Official rules; plain: any "
                             "complete hand, riichi-style shapes)")
    add_option_arg(parser)


def add_void_arg(parser: argparse.ArgumentParser) -> None:
    """``--void SUIT``: the player's declared void suit (定缺: m, p or s) under --rules
    with a void suit (sichuan …), read by :func:`rules_and_forms`."""
    parser.add_argument("--void", metavar="SUIT", default=None,
                        help="declared void suit (定缺: m, p or s) under --rules with a "
                             "void suit such as sichuan: the hand must lose that whole "
                             "suit, and its tiles are discarded first")


def add_indicator_arg(parser: argparse.ArgumentParser) -> None:
    """``--indicator TILE``: the turned tile that names the joker kind under rulesets
    whose joker follows an indicator (e.g. wuhan: the kind after it), read with
    :func:`check_indicator`."""
    parser.add_argument("--indicator", metavar="TILE", default=None,
                        help="turned joker indicator tile, for --rules whose joker is "
                             "found from it (e.g. wuhan, tianjin; shanten and advise "
                             "need it there); an error under --rules with a fixed "
                             "joker (hangzhou: 5z) or none")


def check_indicator(indicator: str | None, ruleset, needed: bool = False) -> str | None:
    """The ``--indicator`` value, checked against the ruleset: it needs ``--rules``
    whose joker is found from a turned tile (CommandError under no jokers or a fixed
    joker such as 杭州's 白板, which no turned tile changes) and must be a tile
    (InvalidNotationError/InvalidHandError).  ``needed`` (shanten, advise: they count
    the wild kinds' live copies): CommandError when such a ruleset is given without
    ``--indicator``."""
    if indicator is None:
        jr = None if ruleset is None else ruleset.jokers
        if needed and jr is not None and jr.needs_indicator:
            raise CommandError(f"--rules {ruleset.name} finds its jokers from the turned "
                               "tile: give it with --indicator TILE")
        return None
    if ruleset is None or ruleset.jokers is None:
        raise CommandError("--indicator needs --rules with jokers (e.g. --rules wuhan)")
    from ..tiles import parse_tile, tile_name
    if ruleset.jokers.flowers:
        raise CommandError(f"--indicator: the jokers of {ruleset.name} are its flowers (花鬼), "
                           "not found from a turned tile; leave --indicator out")
    if ruleset.jokers.source == "fixed":
        raise CommandError(
            f"--indicator: the joker of {ruleset.name} is fixed "
            f"({tile_name(int(ruleset.jokers.fixed))}), not found from a turned tile; "
            "leave --indicator out")
    with cli_flowers("--indicator", "an indicator"):
        return tile_name(parse_tile(indicator))


_FLOWER_ADVICE = "; flowers belong in a hand"


class cli_flowers:
    """Context manager: a library error for a flower written where only tiles go
    (``--visible 1f``, ``--indicator 1f``), whose advice is for Python callers, is
    re-raised as :class:`~majiang.errors.InvalidNotationError` in command-line words:
    ``--visible: flower 春 (1f) ... is not a tile; flowers cannot be visible tiles``."""

    def __init__(self, option: str, noun: str) -> None:
        self.option, self.noun = option, noun

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        from ..errors import InvalidNotationError

        if isinstance(exc, InvalidNotationError) and _FLOWER_ADVICE in str(exc):
            head = str(exc).split(_FLOWER_ADVICE)[0]
            raise InvalidNotationError(
                f"{self.option}: {head}; flowers cannot be {self.noun}",
                text=exc.text, position=exc.position) from None
        return False


def read_hand_faces(hand, ruleset, indicator: str | None):
    """The command line's hand as the library reads it under a joker ruleset once the
    wild kinds are known (a fixed joker, or ``--indicator``): every tile of a wild kind
    is a joker, like ``*``, and a stand-in (安庆 红中, 白板 under 温州 / 上海百搭 活动百搭
    / 杭州 翻财神) plays as the wild kind's face (:func:`majiang.efficiency.read_faces`).
    The commands pass the hand as written (with ``--indicator``) to the library calls
    that take the indicator, and this reading to the ones that do not.

    Raises
    ------
    InvalidHandError
        More tiles of a wild kind than are in play, more stand-ins than the wall holds.
    """
    from ..efficiency import read_faces
    return read_faces(hand, ruleset, indicator)


def rules_and_forms(args: argparse.Namespace) -> tuple[Any, Any, dict]:
    """``(ruleset, effective, narrowing)`` of a command's ``--rules``, ``--forms`` and
    ``--seven-pairs-quads``: ``ruleset`` the ``--rules`` ruleset or None
    (:func:`load_ruleset`); ``effective`` the :class:`~majiang.rules.Ruleset` the command
    uses — ``--rules`` (default Chinese Official rules) narrowed by the two options
    exactly as ``forms=`` / ``seven_pairs_quads=`` narrow it in Python
    (:func:`majiang.rules.derived.narrowed`: the tile set, shape rules and jokers stay);
    ``narrowing`` the keywords ``forms`` / ``seven_pairs_quads`` to pass to the library
    together with ``ruleset=ruleset`` (None when not given).  A command's ``--void``
    and ``--indicator`` are applied to both rulesets as ``void=`` / ``indicator=`` apply
    them in Python (:func:`majiang.rules.derived.with_void`,
    :func:`majiang.rules.derived.with_indicator`: under 武汉 the turned kind is the 痞子,
    which no complete hand may hold).

    Raises
    ------
    RuleError
        Unknown ruleset or form, a form the ruleset does not have.
    CommandError
        ``--indicator`` under ``--rules`` whose jokers do not come from a turned tile
        (:func:`check_indicator`).
    """
    from ..rules.derived import narrowed, with_indicator, with_void

    ruleset = load_ruleset(args.rules, getattr(args, "rule_options", None))
    if getattr(args, "void", None) is not None:     # --void: the declared void suit
        ruleset = with_void(ruleset, args.void)
    indicator = check_indicator(getattr(args, "indicator", None), ruleset)
    if indicator is not None:       # the turned tile, where a rule reads it (武汉 痞子)
        ruleset = with_indicator(ruleset, indicator)
    forms = None if args.forms is None else parse_forms(args.forms)
    quads = args.seven_pairs_quads
    effective = narrowed(ruleset, forms, quads)
    return ruleset, effective, {"forms": forms, "seven_pairs_quads": quads}


def hand_size(ruleset) -> int:
    """Tiles in a hand waiting for a draw: the ruleset's (16 under 台湾/罗源), else 13."""
    return 13 if ruleset is None else int(ruleset.hand_size)


def parse_cli_hand(text: str, ruleset) -> Any:
    """The hand of a command line, counted against the ruleset's hand size.

    Without ``--rules`` a hand holds 13/14 tiles (counting melds as 3 and jokers);
    under a 16-tile ruleset 16/17.  A hand that fits the other size is an error
    whose message says which ``--rules`` it needs, so the commands agree on what
    they accept.

    Jokers (``*``) need ``--rules`` with jokers: the default rules (Chinese Official)
    have none, and every command refuses them alike.

    Raises
    ------
    InvalidHandError, InvalidNotationError
    RuleError
        ``*`` without ``--rules`` or under a ruleset without jokers.

    Flowers under a tile set without them are refused here too, before the size
    check (whose hint would name a command that refuses them).
    """
    from ..errors import InvalidHandError
    from ..hand import parse_hand
    from ..tiles import JOKER_GLYPH

    text = text.replace(JOKER_GLYPH, "*")       # the glyph the output shows for a joker
    size = hand_size(ruleset)
    try:
        hand = parse_hand(text, hand_size=size)
    except InvalidHandError as exc:
        _refuse_stars(text, ruleset)
        _wrong_size(text, ruleset, size, exc)
    _refuse_stars(text, ruleset)
    if hand.flowers and ruleset is not None:
        # before any other check, whose hint would name a command refusing the flower
        from ..rules.model import game_model
        game_model(ruleset).check_flowers(hand.flowers)
    return hand


def _refuse_stars(text: str, ruleset) -> None:
    """RuleError for ``*`` in a hand under no ``--rules`` (the default, Chinese Official
    rules) or a ruleset without jokers."""
    n = text.count("*")
    if n and (ruleset is None or ruleset.jokers is None):
        from ..rules.model import game_model
        raise game_model(ruleset).no_jokers(n, "--rules hangzhou")   # None: mcr


def _wrong_size(text: str, ruleset, size: int, exc: Exception) -> None:
    """Re-raise `exc` (a hand of the wrong size) naming the ``--rules`` it needs."""
    from ..errors import InvalidHandError
    from ..hand import parse_hand
    try:
        other = parse_hand(text)          # 13/14 or 16/17 tiles
    except InvalidHandError:
        raise exc from None
    from .. import rules

    n = other.n_tiles
    want = n - n % 3 + 1                   # 13 or 16
    names = [r for r in rules.available()          # built-ins: not a house rule
             if r in rules.BUILTIN_NAMES and rules.get(r).hand_size == want]
    where = ("" if ruleset is None else
             f"ruleset {ruleset.name} plays {size}-tile hands ({size} waiting for a draw, "
             f"{size + 1} when discarding); ")
    if want == 13:
        need = f"a {n}-tile hand is played without --rules or under a 13-tile ruleset"
    elif names:
        need = (f"a {n}-tile hand needs a {want}-tile ruleset: --rules "
                + " or --rules ".join(names))
    else:
        need = f"no ruleset plays {want}-tile hands"
    raise InvalidHandError(f"{exc}; {where}{need}") from None


class Visible(NamedTuple):
    """The ``--visible`` tiles read by :func:`parse_cli_visible`.

    ``counts``: ``uint8 (34,)`` as :func:`majiang.ukeire` / :func:`majiang.advise` take
    ``visible`` (each seen joker counted as a visible copy of the joker kind: the
    efficiency layer reads a visible copy of a wild kind as a seen joker);
    ``jokers``: the seen jokers (each ``*``, and each visible copy of the wild kind
    written by its face, e.g. ``5z`` under 杭州); ``text``: Tenhou text, ``*``
    kept; ``face``: the wild kind's name, or None when it is unknown or there are two.
    """

    counts: np.ndarray
    jokers: int
    text: str
    face: str | None = None


def parse_cli_visible(text: str | None, hand, ruleset, indicator: str | None = None):
    """The ``--visible`` tiles, checked against the ruleset's tile set and the hand.

    ``*`` marks a seen joker.  It is accepted under a ruleset with one wild kind
    once that kind is known (a fixed joker such as 杭州 白板, or ``--indicator``) and
    is then counted as a visible copy of the wild kind, which lowers the live count
    of a joker draw in the effective tiles (:func:`majiang.ukeire` reads a visible
    copy of the wild kind as a seen joker).  The probability functions take
    ``visible`` as 34 kind counts with no place for seen jokers, so callers that
    compute probabilities refuse them (:func:`refuse_seen_jokers`).

    Returns
    -------
    Visible or None
        None when `text` is None.

    Raises
    ------
    InvalidNotationError
        Unreadable tiles.
    InvalidHandError
        A kind outside the ruleset's tile set (4z under a 108-tile ruleset); more
        copies of a kind in the hand and ``--visible`` together than the tile set
        holds (jokers held and seen count as copies of the wild kind); more jokers
        held and seen than the ruleset has.
    RuleError
        ``*`` under no ruleset or one without jokers, with a turned joker and no
        ``--indicator``, or under a ruleset with two wild kinds (南昌, 天津: write a
        seen joker by its face).

    The turned indicator that the game model sets apart or keeps face up
    (:meth:`majiang.rules.model.GameModel.face_up`: 安庆 / 武汉, 天津's turned 混儿) counts
    as seen by itself, as in the library: ``--visible`` leaves it out, and every visible
    copy of a wild kind is a seen joker.
    """
    if text is None:
        return None
    from ..errors import InvalidHandError, RuleError
    from ..hand import visible_counts
    from ..rules.model import game_model
    from ..tiles import format_counts, tile_name

    stars = text.count("*")
    with cli_flowers("--visible", "visible tiles"):
        v = visible_counts(text.replace("*", ""), hand).astype(np.int64)
    shown = format_counts(v.astype(np.uint8)) + "*" * stars
    model = game_model(ruleset)
    copies = np.asarray(model.copies, dtype=np.int64)
    model.check_kinds(v, "--visible")       # the library's check of visible tiles
    jr = model.jokers
    if stars and jr is None:
        where = ("give --rules with jokers (e.g. --rules hangzhou)" if ruleset is None
                 else f"ruleset {model.name} has no jokers")
        raise RuleError(f"--visible holds {stars} '*' (seen jokers): {where}")
    kind = None
    if jr is not None and (not jr.needs_indicator or indicator is not None):
        kinds = jr.kinds(indicator)
        if len(kinds) == 1:
            kind = int(kinds[0])
        elif stars:
            faces = " or ".join(tile_name(k) for k in kinds)
            raise RuleError(f"--visible '*': {model.name} has two wild kinds ({faces}); "
                            "write each seen joker by its face")
    if stars and jr.second is not None and kind is None:
        raise RuleError(f"--visible '*': {model.name} has two wild kinds; give --indicator "
                        "and write each seen joker by its face")
    if stars and kind is None:
        raise RuleError(f"--visible '*': the joker of {model.name} is found from a turned "
                        "tile; give --indicator so that the joker kind is known")
    used = np.asarray(hand.all_counts, dtype=np.int64) + v
    apart = np.zeros(34, np.int64) if indicator is None else model.face_up(indicator)
    used += apart          # the turned indicator (安庆 / 武汉, 天津 …) is seen by itself
    if kind is not None:
        wild = min(int(jr.copies), int(copies[kind]))
        if int(hand.jokers) + stars > wild:
            raise InvalidHandError(
                f"{int(hand.jokers) + stars} jokers: {int(hand.jokers)} in the hand + {stars} "
                f"seen ('*' in --visible); {model.name} has {wild}")
        used[kind] += int(hand.jokers) + stars
        if jr.substitute is not None:       # a held face is a stand-in (another tile)
            used[kind] -= int(hand.all_counts[kind])
        seen_faces = int(v[kind])       # the face-up indicator is not in --visible
        v[kind] += stars
    over = np.flatnonzero(used > copies)
    if over.size:
        k = int(over[0])
        extra = "" if k != kind else " (jokers held and seen included)"
        if apart[k]:
            extra += " and the turned --indicator (seen already: leave it out of --visible)"
        raise InvalidHandError(
            f"--visible: {int(used[k])} copies of {tile_name(k)} in the hand and the visible "
            f"tiles{extra}, but the tile set of {model.name} has {int(copies[k])}")
    model.check_seen(v, indicator, int(hand.jokers), "--visible")   # v holds the stars
    if kind is None:
        return Visible(np.ascontiguousarray(v, dtype=np.uint8), stars, shown)
    return Visible(np.ascontiguousarray(v, dtype=np.uint8), stars + seen_faces, shown,
                   tile_name(kind))


def check_plot_path(path: str, option: str = "--plot") -> None:
    """CommandError unless `path` can take a figure: its folder exists (and is a
    folder), it is not a folder itself, and its extension, if any, is a format
    matplotlib writes.  Called before any computing, so a mistyped ``--plot`` fails
    at once rather than after the table."""
    import os

    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise CommandError(f"cannot write the plot to {path!r} ({option}): it is a folder; "
                           f"give a file name such as {os.path.join(path, 'plot.png')!r}")
    if not os.path.isdir(folder):
        what = (f"{folder} is not a folder" if os.path.exists(folder)     # /dev/null/a.png
                else f"folder {folder} does not exist")
        raise CommandError(f"cannot write the plot to {path!r} ({option}): {what}")
    ext = os.path.splitext(path)[1].lstrip(".").lower()
    if ext:
        from matplotlib.backend_bases import FigureCanvasBase

        known = FigureCanvasBase.get_supported_filetypes()
        if ext not in known:
            raise CommandError(f"cannot write the plot to {path!r} ({option}): unknown image "
                               f"format .{ext}; use one of "
                               + ", ".join("." + k for k in sorted(known)))


def plural(n: int, word: str, many: str | None = None) -> str:
    """``"1 kind"``, ``"3 kinds"``: `n` and `word`, made plural (``many``, default
    `word` + "s") unless `n` is 1."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def refuse_seen_jokers(visible, what: str) -> None:
    """RuleError when ``--visible`` holds a seen joker (:attr:`Visible.jokers`) and
    `what` (e.g. ``"--draws"``) computes probabilities: :mod:`majiang.probability`
    takes visible tiles as 34 kind counts with no place for seen jokers."""
    if visible is not None and visible.jokers:
        from ..errors import RuleError
        how = "'*'" if visible.face is None else f"'*' or {visible.face}"
        raise RuleError(
            f"{what}: seen jokers ({how} in --visible) are not modelled by the win/tenpai "
            "probabilities (they take visible tiles as kind counts, with no place for "
            f"seen jokers); leave them out of --visible or leave out {what}")


def command_hint(command: str, hand, args: argparse.Namespace) -> str:
    """A command line to copy, carrying the options the user gave that both commands
    take (``--rules``, ``--indicator``, ``--void``, ``--forms``, ``--seven-pairs-quads``,
    ``--visible``): ``majiang advise "123m..." --rules wuhan --indicator 5m``."""
    import shlex

    from ..hand import format_hand

    line = f'majiang {command} "{format_hand(hand)}"'
    for option in ("rules", "indicator", "void", "forms", "visible"):
        value = getattr(args, option, None)
        if value:
            line += f" --{option} {shlex.quote(str(value))}"
    quads = getattr(args, "seven_pairs_quads", None)
    if quads is not None:
        line += " --seven-pairs-quads" if quads else " --no-seven-pairs-quads"
    return line


def parse_forms(text: str) -> tuple[str, ...]:
    """``"regular, seven_pairs"`` -> ``("regular", "seven_pairs")`` (validated:
    :class:`~majiang.errors.RuleError` names an unknown form; whether the ruleset has
    it is checked by :func:`rules_and_forms`)."""
    from ..errors import RuleError
    from ..rules.base import FORM_NAMES

    names: list[str] = []
    for part in text.split(","):
        name = part.strip().replace("-", "_")
        if name and name not in names:
            names.append(name)
    for name in names:
        if name not in FORM_NAMES:
            raise RuleError(f"unknown winning form {name!r}; known forms: "
                            f"{', '.join(FORM_NAMES)}")
    if not names:
        raise RuleError("forms must name at least one winning form")
    return tuple(names)


# --------------------------------------------------------------------------
# mahjong text
# --------------------------------------------------------------------------

def hand_glyphs(hand) -> str:
    """Unicode tiles of a hand, in the order of :func:`~majiang.hand.format_hand`:
    concealed tiles and one joker glyph (U+1F02A) per wild tile, then each meld in
    ``[ ]`` (``{ }`` for a concealed kong), then the flowers."""
    from ..tiles import JOKER_GLYPH, flower_glyph, tile_glyph, tiles_from_counts

    parts = ["".join(tile_glyph(k) for k in tiles_from_counts(hand.concealed))
             + JOKER_GLYPH * int(hand.jokers)]
    for m in hand.melds:
        body = "".join(tile_glyph(k) for k in m.tiles)
        parts.append("{" + body + "}" if m.concealed else "[" + body + "]")
    parts.append("".join(flower_glyph(f) for f in hand.flowers))
    return " ".join(p for p in parts if p)


def shanten_value(s: int) -> int | None:
    """The shanten as an int, or None when no arrangement exists."""
    return None if s >= NO_ARRANGEMENT else int(s)


def shanten_label(s: int | None) -> str:
    """``-1`` -> ``"complete (和了)"``, ``0`` -> ``"tenpai (听牌)"``, ``2`` ->
    ``"2-shanten (2向听)"``, None -> ``"no arrangement"``."""
    if s is None or s >= NO_ARRANGEMENT:
        return "no arrangement"
    if s < 0:
        return "complete (和了)"
    if s == 0:
        return "tenpai (听牌)"
    return f"{s}-shanten ({s}向听)"


# --------------------------------------------------------------------------
# text tables
# --------------------------------------------------------------------------

def display_width(text: str) -> int:
    """Terminal columns of `text`: East Asian wide and full-width characters count 2,
    combining marks 0."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


class Column(NamedTuple):
    """One column of :func:`format_table`.

    ``key`` is the row key, ``header`` the title, ``align`` ``"<"`` or ``">"``,
    ``fmt`` turns a value into text (default ``str``, with None/NaN as ``"-"``).
    """

    key: str
    header: str
    align: str = "<"
    fmt: Callable[[Any], str] | None = None


def _cell(value: Any, fmt: Callable[[Any], str] | None) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return fmt(value) if fmt is not None else str(value)


def format_table(rows: Iterable[Mapping[str, Any]], columns: Sequence[Column], *,
                 indent: str = "", gap: str = "  ") -> list[str]:
    """Lines of an aligned text table (header first), widths from the contents."""
    cells = [[_cell(row.get(c.key), c.fmt) for c in columns] for row in rows]
    heads = [c.header for c in columns]
    widths = [max([display_width(h)] + [display_width(r[i]) for r in cells])
              for i, h in enumerate(heads)]

    def line(values: Sequence[str]) -> str:
        out = []
        for v, w, c in zip(values, widths, columns):
            pad = " " * (w - display_width(v))
            out.append(pad + v if c.align == ">" else v + pad)
        return (indent + gap.join(out)).rstrip()

    return [line(heads)] + [line(r) for r in cells]


def fmt_float(digits: int = 2) -> Callable[[Any], str]:
    return lambda v: f"{float(v):.{digits}f}"


def fmt_percent(v: Any) -> str:
    return f"{100 * float(v):.1f}%"


# --------------------------------------------------------------------------
# output
# --------------------------------------------------------------------------

def write(text: str = "") -> None:
    """Print one line (or several) to the current ``sys.stdout``."""
    print(text, file=sys.stdout)


def jsonable(obj: Any) -> Any:
    """Plain JSON data from numpy scalars/arrays, pandas frames, tuples and NaN
    (which becomes null)."""
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, (np.bool_,)):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        f = float(obj)
        return None if math.isnan(f) or math.isinf(f) else f
    if isinstance(obj, Mapping):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, np.ndarray):
        return [jsonable(v) for v in obj.tolist()]
    if hasattr(obj, "to_dict") and hasattr(obj, "columns"):       # pandas DataFrame
        return [jsonable(r) for r in obj.to_dict(orient="records")]
    if isinstance(obj, (list, tuple, set, frozenset)):
        return [jsonable(v) for v in obj]
    try:                                                          # pandas NA / NaT
        import pandas as pd
        if pd.isna(obj):
            return None
    except (ImportError, TypeError, ValueError):
        pass
    return str(obj)


def emit_json(obj: Any) -> None:
    """Write `obj` as indented JSON (UTF-8 text; ``\\u`` escapes when the output
    stream cannot encode Chinese or tile glyphs)."""
    data = jsonable(obj)
    text = json.dumps(data, ensure_ascii=False, indent=2)
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        text = json.dumps(data, ensure_ascii=True, indent=2)
    write(text)


def add_run_args(parser: argparse.ArgumentParser, *, hands: int, out_help: str,
                 players: str = "efficiency") -> None:
    """The options of a run of simulated hands (``majiang simulate`` / ``majiang study``):
    ``-n``, ``--players``, ``--seed``, ``--jobs``, ``--out``, ``--chunk-size``,
    ``--progress`` / ``--no-progress`` (read back by :func:`run_options`); ``players``
    the default the help names (the command's function decides it)."""
    parser.add_argument("-n", "--hands", dest="n", type=int, default=hands, metavar="N",
                        help="hands per ruleset (default: %(default)s)")
    parser.add_argument("--players", default=None, metavar="NAME[,NAME...]",
                        help="one player per seat (random, efficiency, expert); one name for every "
                             f"seat (default: {players}; efficiency plays about ten times "
                             "faster than expert, which comes closer to real play)")
    parser.add_argument("--seed", type=int, default=0, help="seed (default: %(default)s)")
    parser.add_argument("--jobs", type=int, default=-1, metavar="N",
                        help="worker processes: N >= 1, or -1 for every core "
                             "(default: %(default)s); the result does not depend on it")
    parser.add_argument("--out", default=None, metavar="DIR",
                        help=out_help + " (DIR and its parent folders are created if "
                                        "missing)")
    parser.add_argument("--chunk-size", type=int, default=None, metavar="K",
                        help="hands per chunk (default: from N, or the one in --out)")
    parser.add_argument("--progress", dest="progress", action="store_const", const=True,
                        default=None,
                        help="progress bars on stderr even when it is not a terminal "
                             "(default: only on a terminal)")
    parser.add_argument("--no-progress", dest="progress", action="store_const", const=False,
                        help="no progress bars on stderr")


def stderr_is_terminal() -> bool:
    """Whether ``sys.stderr`` is an interactive terminal (False when redirected to a
    file or pipe, or missing)."""
    try:
        return bool(sys.stderr is not None and sys.stderr.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def parse_players(text: str | None) -> Any:
    """``--players NAME[,NAME...]``: None (not given), one name for every seat, or the
    list of names (one per seat; the library checks the count and the names).

    Raises
    ------
    CommandError
        The option names no player."""
    if text is None:
        return None
    names = [p.strip() for p in text.split(",") if p.strip()]
    if not names:
        raise CommandError("--players needs at least one player name")
    return names[0] if len(names) == 1 else names


def run_options(args: argparse.Namespace) -> tuple[Any, dict]:
    """``(players, options)`` for :func:`majiang.simulate` from :func:`add_run_args`'s
    options, checked: ``options`` holds ``n_jobs``, ``progress`` (``--progress`` /
    ``--no-progress``; by default on only when stderr is a terminal) and, when given,
    ``out`` and ``chunk_size``.

    Raises
    ------
    CommandError
        ``-n`` or ``--chunk-size`` below 1, ``--jobs`` 0 or below -1, an empty
        ``--players``.
    """
    if args.n < 1:
        raise CommandError(f"-n must be 1 or more, got {args.n}")
    if args.jobs == 0 or args.jobs < -1:
        raise CommandError(f"--jobs must be 1 or more, or -1 for every core; got {args.jobs}")
    if args.chunk_size is not None and args.chunk_size < 1:
        raise CommandError(f"--chunk-size must be 1 or more, got {args.chunk_size}")
    players = parse_players(args.players)
    progress = args.progress
    if progress is None:               # a bar redrawn into a file or pipe is noise
        progress = stderr_is_terminal()
    options = {"n_jobs": args.jobs, "progress": progress}
    if args.out is not None:
        options["out"] = args.out
    if args.chunk_size is not None:
        options["chunk_size"] = args.chunk_size
    return players, options


def add_position_arg(parser: argparse.ArgumentParser) -> None:
    """``--position FILE|TEXT``: a table position (:class:`majiang.Position`) read with
    :func:`load_position`."""
    parser.add_argument("--position", metavar="FILE|TEXT",
                        help="a table position: a .toml / .json position file, or the "
                             "one-line form, e.g. \"hand=23345m111p456p99s6m seat=1 "
                             "discards0=1z7m9m melds2=[777m]@0\" (see docs/position.md)")


def load_position(value: str, command: str = "--position", rules: str | None = None,
                  options=None):
    """The :class:`~majiang.position.Position` of ``--position`` (or of a command's
    POSITION argument, ``command`` naming it in the errors): a file when ``value`` names
    one, else the one-line form (read under ``rules``, the command's ``--rules``, when it
    names no ``ruleset=``) or JSON / TOML text; ``options`` (``--option KEY=VALUE``
    texts) change the ruleset the position plays.

    Raises
    ------
    CommandError
        When ``value`` is empty, or is bare tile notation (a hand, not a position).
    InvalidNotationError, InvalidHandError, RuleError
        As :meth:`majiang.Position.from_file` / :meth:`~majiang.Position.from_text`.
    """
    import os

    from ..errors import MahjongError
    from ..position import Position
    from ..tiles import parse_tiles
    if not value.strip():
        raise CommandError(f"{command} needs a position file or the one-line form, got an "
                           "empty string")
    if "=" not in value and not os.path.isfile(value):
        try:
            parse_tiles(value)
        except MahjongError:
            pass                # not tiles: read as a file name (its error names it)
        else:
            raise CommandError(f"{command} needs a position (a .toml / .json file or the "
                               f"one-line form), not a hand: e.g. \"hand={value.strip()} "
                               "discards2=9s\" (see docs/position.md)")
    if "=" not in value or os.path.isfile(value):
        pos = Position.from_file(value)
    else:
        if rules and len(rules.split()) == 1 and "ruleset=" not in value \
                and " = " not in value and "\n" not in value.strip() \
                and value.lstrip()[:1] != "{":
            value = f"ruleset={rules} {value}"      # a one-line form naming no ruleset
        pos = Position.from_text(value)
    if options:
        from ._rule_options import with_cli_options
        pos = pos.replace(ruleset=with_cli_options(pos.model.ruleset, options))
    return pos


def position_options(args: argparse.Namespace, pos, command: str) -> None:
    """Fill ``args.rules`` / ``args.indicator`` / ``args.visible`` from a position given
    with ``--position`` (the hand is read from it); an option the position also gives
    (HAND, --visible, another --rules or --indicator) is a :class:`CommandError`."""
    from ..rules.model import game_model
    from ..tiles import format_counts, parse_tile, tile_name
    if getattr(args, "hand", None):
        raise CommandError(f"{command}: give the hand as HAND or in --position, not both")
    if getattr(args, "visible", None) is not None:
        raise CommandError(f"{command}: --position gives the visible tiles (discards and "
                           "the other seats' melds); drop --visible")
    name = pos.ruleset if isinstance(pos.ruleset, str) else pos.model.name
    if args.rules and game_model(load_ruleset(args.rules)).name != pos.model.name:
        raise CommandError(f"{command}: --rules {args.rules} but the position is played "
                           f"under {pos.model.name}; drop one of them")
    args.rules = args.rules or name
    if pos.indicator is not None:
        if args.indicator is not None and parse_tile(args.indicator) != pos.indicator:
            raise CommandError(f"{command}: --indicator {args.indicator} but the position's "
                               f"indicator is {tile_name(pos.indicator)}")
        args.indicator = tile_name(pos.indicator)
    args.visible = format_counts(pos.analysis_visible())
    own = pos.analysis_kwargs().get("void")        # the seat's declared void suit (定缺)
    if own is not None and hasattr(args, "void"):
        if args.void is not None and args.void.strip().lower() != own:
            raise CommandError(f"{command}: --void {args.void} but the position's seat "
                               f"declared {own}")
        args.void = own

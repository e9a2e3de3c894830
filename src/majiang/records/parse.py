"""Parsing Botzone log text into :class:`~majiang.records.GameRecord` objects
(:func:`parse_games`, :func:`load_games`, :func:`example_games`).

Only the syntax and the shape of each hand are checked here; whether the events are
consistent is checked by the replay (:mod:`majiang.records.replay`).  Errors:
:class:`majiang.errors.InvalidNotationError` naming the match id and the line number.
"""

from __future__ import annotations

import os
from importlib import resources

from majiang.errors import InvalidNotationError

from .codes import _HAND, ACTIONS, botzone_tile
from .datatypes import Event, GameRecord


def _notation_error(match_id: str | None, lineno: int, line: str, why: str) -> InvalidNotationError:
    where = f"match {match_id}, " if match_id else ""
    return InvalidNotationError(f"{where}line {lineno} ({line.strip()!r}): {why}")


def _tile(code: str, match_id: str | None, lineno: int, line: str) -> int:
    try:
        return botzone_tile(code)
    except InvalidNotationError as exc:
        raise _notation_error(match_id, lineno, line, str(exc)) from None


def _seat(text: str, match_id: str | None, lineno: int, line: str) -> int:
    if text not in ("0", "1", "2", "3"):
        raise _notation_error(match_id, lineno, line, f"bad seat {text!r}: expected 0..3")
    return int(text)


def _parse_action(words: list[str], match_id: str, lineno: int, line: str) -> Event:
    """``Player p Action t [Ignore Player q Action t]...`` -> Event."""
    chunks: list[list[str]] = [[]]
    for w in words:
        if w == "Ignore":
            chunks.append([])
        else:
            chunks[-1].append(w)
    events = []
    for chunk in chunks:
        if len(chunk) != 4 or chunk[0] != "Player":
            raise _notation_error(
                match_id, lineno, line, "expected 'Player <p> <action> <tile>'"
            )
        seat = _seat(chunk[1], match_id, lineno, line)
        if chunk[2] not in ACTIONS:
            raise _notation_error(
                match_id, lineno, line,
                f"unknown action {chunk[2]!r}: expected one of {', '.join(ACTIONS)}",
            )
        events.append(Event(seat, chunk[2], _tile(chunk[3], match_id, lineno, line), line=lineno))
    if len(events) > 1 and events[0].action not in ("Chi", "Peng", "Gang", "Hu"):
        raise _notation_error(
            match_id, lineno, line, f"'Ignore' after {events[0].action}: only claims are contested"
        )
    main = events[0]
    return Event(main.player, main.action, main.tile, tuple(events[1:]), line=lineno)


def _parse_fans(words: list[str], match_id: str, lineno: int, line: str) -> tuple[int, list]:
    if len(words) not in (2, 3):
        raise _notation_error(match_id, lineno, line, "expected 'Fan <total> <name>*<count>+...'")
    try:
        total = int(words[1])
    except ValueError:
        raise _notation_error(match_id, lineno, line, f"bad fan total {words[1]!r}") from None
    fans = []
    if len(words) == 3:
        for item in words[2].split("+"):
            name, star, count = item.rpartition("*")
            if not star or not name or not count.isdigit() or int(count) < 1:
                raise _notation_error(match_id, lineno, line, f"bad fan entry {item!r}: expected <name>*<count>")
            fans.append((name, int(count)))
    return total, fans


def _parse_block(lines: list[tuple[int, str]]) -> GameRecord:
    """One hand: ``lines`` are (line number, stripped text), blank lines removed."""
    first_no, first = lines[0]
    words = first.split()
    if len(words) != 2 or words[0] != "Match":
        raise _notation_error(None, first_no, first, "a hand must start with 'Match <id>'")
    match_id = words[1]
    if len(lines) < 2 or lines[1][1].split()[:1] != ["Wind"]:
        no, text = lines[1] if len(lines) > 1 else lines[0]
        raise _notation_error(match_id, no, text, "expected 'Wind <0..3>' after the Match line")
    no, text = lines[1]
    w = text.split()
    if len(w) != 2 or w[1] not in ("0", "1", "2", "3"):
        raise _notation_error(match_id, no, text, "expected 'Wind <0..3>'")
    wind = int(w[1])

    deals: list[list[int] | None] = [None] * 4
    events: list[Event] = []
    fan_total, fans, scores, drawn = 0, [], None, False
    has_fan = False
    finished = False  # a Fan/Score/Huang line was read: no more events
    for no, text in lines[2:]:
        w = text.split()
        head = w[0]
        if head == "Player" and len(w) >= 3 and w[2] == "Deal":
            seat = _seat(w[1], match_id, no, text)
            if events or finished:
                raise _notation_error(match_id, no, text, "Deal line after the play started")
            if deals[seat] is not None:
                raise _notation_error(match_id, no, text, f"second Deal for player {seat}")
            if len(w) != 3 + _HAND:
                raise _notation_error(match_id, no, text, f"a Deal has {_HAND} tiles, got {len(w) - 3}")
            deals[seat] = [_tile(c, match_id, no, text) for c in w[3:]]
        elif head == "Player":
            if finished:
                raise _notation_error(match_id, no, text, "event after the result lines")
            if any(d is None for d in deals):
                missing = [p for p in range(4) if deals[p] is None]
                raise _notation_error(match_id, no, text, f"event before the Deal of player(s) {missing}")
            events.append(_parse_action(w, match_id, no, text))
        elif head == "Fan":
            if has_fan or drawn:
                raise _notation_error(match_id, no, text, "second result line")
            fan_total, fans = _parse_fans(w, match_id, no, text)
            has_fan = finished = True
        elif head == "Score":
            if scores is not None:
                raise _notation_error(match_id, no, text, "second Score line")
            try:
                vals = tuple(int(x) for x in w[1:])
            except ValueError:
                vals = ()
            if len(vals) != 4:
                raise _notation_error(match_id, no, text, "expected 'Score s0 s1 s2 s3' (4 integers)")
            scores = vals  # type: ignore[assignment]
            finished = True
        elif head == "Huang" and len(w) == 1:
            if has_fan or drawn:
                raise _notation_error(match_id, no, text, "second result line")
            drawn = finished = True
        else:
            raise _notation_error(match_id, no, text, f"unknown line type {head!r}")

    last_no, last = lines[-1]
    if any(d is None for d in deals):
        missing = [p for p in range(4) if deals[p] is None]
        raise _notation_error(match_id, last_no, last, f"missing Deal line(s) for player(s) {missing} (truncated log?)")
    n_hu = sum(ev.action == "Hu" for ev in events)
    if not has_fan and not drawn:
        raise _notation_error(
            match_id, last_no, last, "the hand ends without a result ('Fan'/'Score' or 'Huang'): truncated log?"
        )
    if has_fan and scores is None:
        raise _notation_error(match_id, last_no, last, "a 'Fan' line without its 'Score' line (truncated log?)")
    if has_fan and n_hu == 0:
        raise _notation_error(match_id, last_no, last, "a 'Fan' result but no 'Hu' event")
    if drawn and n_hu:
        raise _notation_error(match_id, last_no, last, "'Huang' (drawn hand) after a 'Hu' event")
    return GameRecord(
        match_id=match_id,
        prevalent_wind=wind,
        deals=deals,  # type: ignore[arg-type]
        events=events,
        fan_total=fan_total,
        fans=fans,
        scores=scores,
        drawn=drawn,
        line=first_no,
    )


def parse_games(text: str) -> list[GameRecord]:
    """Parse Botzone log text into one :class:`GameRecord` per hand.

    Hands are separated by blank lines (a new ``Match`` line also starts a hand).
    Only the syntax and the shape of each hand are checked here (Match, Wind,
    four 13-tile Deals, event lines, a result); whether the events are consistent
    is checked by :func:`replay`.

    Raises :class:`~majiang.errors.InvalidNotationError` with the match id and
    line number for an unreadable line, a bad tile code, a missing Deal, or a hand
    that ends without its result (a truncated log).
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidNotationError("the log is not UTF-8 text") from None
    if not isinstance(text, str):
        raise InvalidNotationError(f"expected the log as text, got {type(text).__name__}")
    text = text.removeprefix("\ufeff")          # a byte-order mark (e.g. Notepad)
    blocks: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            if current:
                blocks.append(current)
                current = []
            continue
        if line.startswith("Match") and current:
            blocks.append(current)
            current = []
        current.append((no, line))
    if current:
        blocks.append(current)
    return [_parse_block(b) for b in blocks]


def example_path():
    """The shipped example log (``majiang/data/botzone_mcr/games.txt``), located
    with :mod:`importlib.resources`; a ``Traversable`` (a ``pathlib.Path`` for a
    normal installation) with ``read_text()`` / ``open()``."""
    return resources.files("majiang").joinpath("data", "botzone_mcr", "games.txt")


def load_games(path: str | os.PathLike | None = None) -> list[GameRecord]:
    """Read and parse a Botzone log file (UTF-8); ``None`` reads the shipped
    example (8 hands, see :func:`example_path`).  Raises as :func:`parse_games`,
    and :class:`~majiang.errors.InvalidNotationError` naming the path when the file
    cannot be read or is not UTF-8 text."""
    if path is None:
        text = example_path().read_text(encoding="utf-8")
    else:
        try:
            with open(path, "rb") as fh:
                raw = fh.read()
        except OSError as exc:
            raise InvalidNotationError(
                f"cannot read the log {os.fspath(path)!r}: {exc.strerror}") from None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidNotationError(
                f"the log {os.fspath(path)!r} is not UTF-8 text") from None
    return parse_games(text)


def example_games() -> list[GameRecord]:
    """The 8 shipped Botzone MCR hands (a fresh list each call)."""
    return load_games(None)

"""The text forms of a position: plain data (``to_dict`` / ``from_dict``; JSON and TOML
files), the one-line ``key=value`` form (``to_text`` / ``from_text``) and files
(``from_file``); the :class:`_TextForms` part of :class:`~majiang.position.Position`.
The keys and values are described in ``docs/position.md``.

Errors: :class:`~majiang.errors.InvalidNotationError` for unreadable JSON, TOML or words,
:class:`~majiang.errors.RuleError` for unknown or repeated keys and unreadable files.
"""
from __future__ import annotations

import re
from typing import Any, TypeVar

from ..errors import InvalidNotationError, RuleError
from ..tiles import tile_name

_FIELDS = ("ruleset", "seat", "concealed", "drawn", "dealer", "prevalent_wind", "melds",
           "discards", "flowers", "indicator", "wall_left", "voids", "won", "ready",
           "hidden_kongs", "won_tiles", "last_discard")
_ALIASES = {"hand": "concealed", "wall": "wall_left", "wind": "prevalent_wind"}
_PER_SEAT = ("melds", "discards", "flowers", "voids", "hidden_kongs", "won_tiles")
_TEXT_PER_SEAT = ("melds", "discards", "won_tiles")
_INT_FIELDS = ("seat", "dealer", "prevalent_wind", "wall_left")

_P = TypeVar("_P")


def _discard_text(river) -> str:
    return " ".join(tile_name(d.tile) + ("" if d.claimed_by is None else f"@{d.claimed_by}")
                    for d in river)


def _toml(text: str, where: str) -> dict:
    import tomllib
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidNotationError(f"{where}: not a TOML position: {exc}") from None


def _json(text: str, where: str) -> dict:
    import json
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidNotationError(f"{where}: not a JSON position: {exc}") from None
    if not isinstance(data, dict):
        raise InvalidNotationError(f"{where}: a JSON position is an object of fields")
    return data


def _read_dict(data: Any, cls: Any) -> Any:
    """A ``cls`` (a Position class) from plain data: see
    :func:`majiang.position.position_from_dict`."""
    if not isinstance(data, dict):
        raise RuleError(f"a position is a mapping of fields, got {type(data).__name__}")
    kw: dict[str, Any] = {}
    for key, value in data.items():
        name = _ALIASES.get(key, key)
        if name not in _FIELDS:
            raise RuleError(f"unknown position key {key!r}; keys: {', '.join(_FIELDS)} "
                            "(hand, wall and wind also read)")
        if name in kw:
            raise RuleError(f"position key {name!r} given twice")
        if name in _PER_SEAT and isinstance(value, dict):
            try:
                value = {int(k): v for k, v in value.items()}
            except ValueError:
                raise RuleError(f"{name}: seats are numbers 0..3, got "
                                f"{sorted(value)!r}") from None
        kw[name] = value
    if "concealed" not in kw:
        raise RuleError("a position needs the seat's tiles (key 'concealed' or 'hand')")
    return cls(**kw)


def _line_words(text: str) -> list[str]:
    import shlex
    try:
        return shlex.split(text, comments=True)
    except ValueError as exc:
        raise InvalidNotationError(f"cannot read the position line: {exc}", text=text) \
            from None


def _read_text(text: str, cls: Any) -> Any:
    """A ``cls`` (a Position class) from JSON, TOML or the one-line form (see
    :meth:`majiang.position.Position.from_text`)."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"a position text must be a str, got {type(text).__name__}")
    body = text.strip()
    if body.startswith("{"):
        return _read_dict(_json(body, "position"), cls)
    lines = [ln for ln in body.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if len(lines) > 1 or (lines and "=" in lines[0] and " = " in lines[0]
                          and lines[0].count("=") == 1):
        return _read_dict(_toml(body, "position"), cls)
    data: dict[str, Any] = {}
    per_seat: dict[str, dict[int, str]] = {}
    for word in _line_words(body):
        key, eq, value = word.partition("=")
        if not eq or not key:
            raise InvalidNotationError(f"position word {word!r} is not key=value (e.g. "
                                       "hand=123m456p789s1122z)", text=text)
        m = re.fullmatch(r"([a-z_]+?)(\d)", key)
        if m and _ALIASES.get(m.group(1), m.group(1)) in _PER_SEAT:
            name = m.group(1)
            per_seat.setdefault(name, {})
            if int(m.group(2)) in per_seat[name]:
                raise RuleError(f"position key {key!r} given twice")
            per_seat[name][int(m.group(2))] = value
            continue
        name = _ALIASES.get(key, key)
        if name in data or name in per_seat:
            raise RuleError(f"position key {key!r} given twice")
        if name in _INT_FIELDS:
            data[key] = _int_word(key, value)
        elif name in ("won", "ready"):
            data[key] = [_int_word(key, v) for v in value.split(",") if v]
        elif name in _PER_SEAT:
            items = value.split(",")
            data[key] = items if name in _TEXT_PER_SEAT else [
                _int_word(key, v) for v in items]
        elif name == "last_discard":
            ls, colon, lt = value.partition(":")
            if not colon:
                raise InvalidNotationError(f"last_discard={value}: write seat:tile, e.g. "
                                           "last_discard=3:2p", text=text)
            data[key] = (_int_word(key, ls), lt)
        else:
            data[key] = value
    for name, entries in per_seat.items():
        if name in data:
            raise RuleError(f"position key {name!r} given both for every seat and per seat")
        field = _ALIASES.get(name, name)
        data[name] = {q: (v if field in _TEXT_PER_SEAT else _int_word(f"{name}{q}", v))
                      for q, v in entries.items()}
    return _read_dict(data, cls)


def _int_word(key: str, value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise InvalidNotationError(f"position key {key}={value}: expected a whole number") \
            from None


class _TextForms:
    """The text forms of :class:`~majiang.position.Position`."""

    def to_dict(self) -> dict:
        """The position as plain data (JSON / TOML friendly); keys are the field names
        (see :func:`position_from_dict` and ``docs/position.md``), values in the text
        notation: ``concealed`` and ``drawn`` as tiles, ``melds`` / ``discards`` /
        ``won_tiles`` one text per seat.  Fields at their default are left out.
        ``Position.from_dict(p.to_dict()) == p`` (a ruleset given as a Ruleset object
        is written by its name, which must then be registered to be read back)."""
        from ..tiles import format_counts
        rs = self.ruleset
        out: dict[str, Any] = {"ruleset": rs if isinstance(rs, str) else self._model.name,
                               "seat": self.seat, "concealed": format_counts(self.concealed)}
        if self.drawn is not None:
            out["drawn"] = tile_name(self.drawn)
        if self.dealer:
            out["dealer"] = self.dealer
        if self.prevalent_wind:
            out["prevalent_wind"] = self.prevalent_wind
        if any(self.melds):
            out["melds"] = [" ".join(str(tm) for tm in ms) for ms in self.melds]
        if any(self.discards):
            out["discards"] = [_discard_text(r) for r in self.discards]
        if any(self.flowers):
            out["flowers"] = list(self.flowers)
        if self.indicator is not None:
            out["indicator"] = tile_name(self.indicator)
        if self.wall_left is not None:
            out["wall_left"] = self.wall_left
        if any(v >= 0 for v in self.voids):
            out["voids"] = list(self.voids)
        if self.won:
            out["won"] = list(self.won)
        if self.ready:
            out["ready"] = list(self.ready)
        if any(self.hidden_kongs):
            out["hidden_kongs"] = list(self.hidden_kongs)
        if any(self.won_tiles):
            out["won_tiles"] = [" ".join(tile_name(t) for t in ts) for ts in self.won_tiles]
        if self._last is not None:
            out["last_discard"] = [self._last[0], tile_name(self._last[1])]
        return out

    @classmethod
    def from_dict(cls: type[_P], data: dict) -> _P:
        """A position from :meth:`to_dict`'s plain data (a parsed TOML or JSON position
        file); see :func:`position_from_dict`."""
        return _read_dict(data, cls)

    def to_text(self) -> str:
        """The one-line form, ``key=value`` words (see :meth:`from_text`):
        ``Position.from_text(p.to_text()) == p``."""
        import shlex
        words = []
        for key, value in self.to_dict().items():
            if key in _TEXT_PER_SEAT:
                words.extend(f"{key}{q}={v.replace(' ', '')}" for q, v in enumerate(value)
                             if v)
            elif key in _PER_SEAT or key in ("won", "ready"):
                words.append(f"{key}={','.join(str(x) for x in value)}")
            elif key == "last_discard":
                words.append(f"last_discard={value[0]}:{value[1]}")
            else:
                words.append(f"{key}={value}")
        return " ".join(shlex.quote(w) for w in words)

    @classmethod
    def from_text(cls: type[_P], text: str) -> _P:
        """A position from text: JSON (starts with ``{``), TOML (several lines; keys as
        in :meth:`to_dict`) or the one-line form.

        One-line form: words ``key=value`` separated by spaces, keys the field names
        (``hand`` for ``concealed``, ``wall`` for ``wall_left``, ``wind`` for
        ``prevalent_wind``), a per-seat field either as ``key<seat>=value`` or as a
        comma list for every seat; values with spaces in quotes.  For example::

            hand=1234m567p11z34788s drawn=8s seat=0 dealer=3 melds1=[555z]@2
            discards0=9p1z discards1=4z1m discards2=6s3z5z@1 discards3=2p wall=61

        (``[555z]@2``: a pung of 5z claimed from seat 2; ``5z@1``: seat 2's 5z, claimed
        by seat 1; ``flowers=0,1,0,2``; ``won=1,3``; ``last_discard=3:2p``).

        Raises
        ------
        InvalidNotationError
            A word that is not ``key=value``, unreadable JSON or TOML, or bad tiles.
        RuleError
            An unknown key, a seat suffix out of range, or what the constructor refuses.
        InvalidHandError
            As the constructor.
        """
        return _read_text(text, cls)

    @classmethod
    def from_file(cls: type[_P], path: Any) -> _P:
        """A position from a file: ``.toml``, ``.json``, or any other file holding the
        one-line form (see :meth:`from_text`).

        Raises
        ------
        RuleError
            The file cannot be read; otherwise as :meth:`from_text`.
        """
        from pathlib import Path
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8-sig")
        except OSError as exc:
            raise RuleError(f"cannot read the position file {str(p)!r}: "
                            f"{exc.strerror or exc}") from None
        suffix = p.suffix.lower()
        if suffix == ".toml":
            return _read_dict(_toml(text, str(p)), cls)
        if suffix == ".json":
            return _read_dict(_json(text, str(p)), cls)
        return _read_text(text, cls)

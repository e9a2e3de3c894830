"""The one exception family of majiang.

Every error raised on purpose by the package derives from :class:`MahjongError`,
which is itself a :class:`ValueError`, so callers may catch either.  Messages
always name the offending tile, character (with its 0-based position in the
input string), count or option.
"""
from __future__ import annotations

__all__ = ["MahjongError", "InvalidNotationError", "InvalidHandError", "RuleError"]


class MahjongError(ValueError):
    """Base class of all majiang errors."""


class InvalidNotationError(MahjongError):
    """A string could not be read as tiles, a hand or a meld.

    Raised for an unknown character, a group of digits without a suit letter,
    a tile that does not exist (``8z``), or a bracketed group that is not a
    legal meld.

    Attributes
    ----------
    text : str or None
        The string being parsed, when known.
    position : int or None
        0-based index of the offending character in `text`, when known.
    """

    def __init__(self, message: str, *, text: str | None = None,
                 position: int | None = None) -> None:
        super().__init__(message)
        self.text = text
        self.position = position


class InvalidHandError(MahjongError):
    """Tiles that cannot exist together, or a malformed count array.

    Raised for a fifth copy of a tile kind, a repeated flower, a wrong tile
    count, and count arrays of the wrong shape, dtype or values.
    """


class RuleError(MahjongError):
    """An unknown ruleset, or an option that a ruleset or function does not accept."""

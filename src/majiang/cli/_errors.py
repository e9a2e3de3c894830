"""The command line's own error (its helper modules raise it; :mod:`majiang.cli` reports
it as ``majiang: error: ...``, exit 2)."""
from __future__ import annotations

__all__ = ["CommandError"]


class CommandError(Exception):
    """A problem the command line itself finds (unreadable file, missing
    argument): reported like a :class:`~majiang.errors.MahjongError`, exit 2."""

"""Moved to :mod:`majiang.scoring.predicate`; import :func:`majiang.scoring.check_win` /
:func:`majiang.scoring.is_win` instead.  Kept as a re-export while callers move."""
from .scoring.predicate import WinCheck, check_win, is_win

__all__ = ["WinCheck", "check_win", "is_win"]

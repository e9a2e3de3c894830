"""Competition ranks (1, 1, 3, ...) of rows already in best-first order, shared by every
ranked table (:func:`majiang.advise`, :func:`majiang.advise_claim`, the danger-weighed
advice of :mod:`majiang.reading`)."""
from __future__ import annotations

import numpy as np

__all__ = ["shared_ranks", "rank_key"]


RANK_DIGITS = 12
"""Significant digits of a floating-point value compared when ranking: two probabilities
that differ only past them (the same sum added in another order, e.g. mirror-image
discards 4s and 6s) are equal, and the rows fall to the next key."""


def rank_key(values: np.ndarray) -> np.ndarray:
    """Float array `values` rounded to :data:`RANK_DIGITS` significant digits for
    ranking (NaN stays NaN); float64, the same shape."""
    x = np.asarray(values, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        mag = np.where(np.isfinite(x) & (x != 0), np.floor(np.log10(np.abs(x))), 0.0)
    scale = 10.0 ** (RANK_DIGITS - 1 - mag)
    return np.where(np.isfinite(x), np.round(x * scale) / scale, x)


def shared_ranks(crit: np.ndarray) -> np.ndarray:
    """Ranks of rows already in best-first order, ``crit`` of shape (n, k) their ranking
    keys: a row equal to the one before on every key shares its rank (competition
    ranking 1, 1, 3, ...); NaN never equals, so it starts a rank.  Returns int64 (n,)."""
    n = len(crit)
    ranks = np.arange(1, n + 1, dtype=np.int64)
    if n > 1:
        ranks[1:][np.all(crit[1:] == crit[:-1], axis=1)] = 0
        ranks = np.maximum.accumulate(ranks)
    return ranks

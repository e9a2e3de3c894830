"""Competition ranks (1, 1, 3, ...) of rows already in best-first order, shared by every
ranked table (:func:`majiang.advise`, :func:`majiang.advise_claim`, the danger-weighed
advice of :mod:`majiang.reading`)."""
from __future__ import annotations

import numpy as np

__all__ = ["shared_ranks"]


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

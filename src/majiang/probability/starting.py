"""The shanten distribution of random starting hands dealt from a ruleset's wall
(:func:`starting_hand_shanten`)."""
from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from .._core import efficiency as _eff
from .._core import probability as _prob
from .._parallel import resolve_n_jobs, spawn_seeds
from ..errors import RuleError
from ..rules.model import ALL_PAIRS
from ..tiles import N_KINDS
from .limits import _kernel_misjudges
from .position import _check_samples, _model_of


def _deal_hands(rng: np.random.Generator, m: int, kind_of: np.ndarray, hand_size: int
          ) -> np.ndarray:
    """Deal ``m`` hands of ``hand_size`` tiles without replacement from the wall
    ``kind_of`` (uint8, the kind of each wall tile; 34 = joker).

    A partial Fisher-Yates shuffle per hand in the compiled core (without the GIL):
    the offsets are drawn in bulk from ``rng`` (``rng.integers(0, W - t)`` for step
    ``t``), so a hand is a uniform ``hand_size``-subset of the wall and the result is
    reproducible for a given generator state.  Returns the counts, uint8 of shape
    ``(m, 35)`` (column 34: jokers)."""
    W = kind_of.size
    offsets = rng.integers(0, W - np.arange(hand_size, dtype=np.int64), size=(m, hand_size),
                           dtype=np.int64)
    out = np.zeros((m, N_KINDS + 1), dtype=np.uint8)
    if _prob.deal_counts(offsets, kind_of, out) != 0:   # pragma: no cover - offsets in range
        raise RuntimeError("deal_counts: an offset out of range")
    return out


def starting_hand_shanten(n: int, *, ruleset: Any = None, seed: Any = 0,
                          n_jobs: int | None = None, hand_size: int | None = None,
                          indicator: Any = None):
    """Shanten distribution of ``n`` random starting hands dealt from the ruleset's wall.

    Each hand is ``hand_size`` tiles (default: the ruleset's, 13 or 16) drawn without
    replacement from the ruleset's wall (:meth:`GameModel.wall`: 136 by default, 108
    for 四川/长沙, 84 for 卡五星 …; jokers dealt as jokers), and its shanten is the
    ruleset's (its forms, tile set, 缺一门 void suit, 二五八将 pair kinds, jokers).
    The published 13-tile / 136-tile distribution applies only to ``ruleset="plain"``.

    Parameters
    ----------
    n : int
        Number of hands (positive).
    ruleset : None, str, Ruleset, GameModel or .toml path
        Default ``None``: Chinese Official rules (``"mcr"``), as every function given
        no ruleset.
    seed : int, SeedSequence, numpy Generator or None
        A non-negative int, a ``numpy.random.SeedSequence`` or ``numpy.random.Generator``
        (default ``0``: the same answer every call; ``None``: fresh entropy, a
        different answer every call).
        The hands are reproducible for a given seed (and independent of ``n_jobs``).
        Since issue 12 the hands are dealt by a partial Fisher-Yates shuffle in the
        compiled core (was: sorting random keys in NumPy), so a given seed now deals
        different hands than before; the distribution is the same (uniform subsets).
    n_jobs : int or None
        Threads: ``None`` lets the function choose (one worker for small inputs, up to every
        core for big ones), ``-1`` allows every core, ``k >= 1`` at most ``k``
        workers; the result does not depend on it.
    hand_size : int, optional
        Override the ruleset's hand size (13 or 16).
    indicator : str or int, optional
        Turned indicator for rulesets whose joker is found from it.

    Returns
    -------
    pandas.DataFrame
        Columns ``shanten`` (int), ``count`` (int), ``fraction`` (float) and
        ``se`` (binomial standard error of the fraction), one row per shanten
        value from the lowest to the highest observed.  ``df.attrs`` holds
        ``ruleset``, ``hand_size`` and ``wall`` (tiles dealt from).

    Raises
    ------
    RuleError
        Bad ``n``, ``hand_size``, ``n_jobs``, ``seed``, an unknown ruleset or a
        missing indicator.
    """
    import pandas as pd

    from ..efficiency import shanten_batch

    n = _check_samples(n, "n")
    model = _model_of(ruleset)
    if hand_size is None:
        hand_size = model.hand_size
    if hand_size not in (13, 16):
        raise RuleError(f"hand_size must be 13 or 16, got {hand_size!r}")
    wall = model.wall(indicator)
    sh = model.shape(())
    mask = sh.mask
    caps = None if bool(np.all(sh.caps == 4)) else np.ascontiguousarray(sh.caps)
    plain = sh.pair_mask == ALL_PAIRS and sh.void_suits == 0 and not wall.jokers
    fifth = sh.fifth
    kind_of = np.repeat(np.arange(N_KINDS + 1, dtype=np.uint8),
                        np.append(wall.counts, wall.jokers).astype(np.intp))
    chunk = 1 << 15
    n_chunks = math.ceil(n / chunk)
    seeds = spawn_seeds(seed, n_chunks)
    hist = np.zeros((n_chunks, 128), dtype=np.int64)
    b258 = _kernel_misjudges(model)     # the ruleset's shanten (efficiency), not the core's

    def one(c: np.ndarray, j: int) -> int:
        return int(_eff.shanten_one(c, mask, sh.quads, caps, j, fifth,
                                    pair_mask=sh.pair_mask, void_suits=sh.void_suits))

    def run(c: int) -> None:
        m = min(n, (c + 1) * chunk) - c * chunk
        rng = np.random.Generator(np.random.PCG64(seeds[c]))
        allc = _deal_hands(rng, m, kind_of, hand_size)
        counts = np.ascontiguousarray(allc[:, :N_KINDS])
        if plain and caps is None:
            s = shanten_batch(counts, forms=tuple(sh.forms), seven_pairs_quads=sh.quads,
                              n_jobs=1).astype(np.intp)
        elif b258:              # small win 2-5-8 pair, 大胡 shapes any pair, 将将胡
            s = shanten_batch(counts, ruleset=model.ruleset, n_jobs=1,
                              jokers=np.ascontiguousarray(allc[:, N_KINDS])).astype(np.intp)
        else:
            jk = allc[:, N_KINDS]
            s = np.fromiter((one(counts[i], int(jk[i])) for i in range(m)), dtype=np.intp,
                            count=m)
        hist[c] = np.bincount(np.minimum(s, 126) + 1, minlength=128)[:128]

    jobs = resolve_n_jobs(n_jobs)
    if jobs <= 1 or n_chunks == 1:
        for c in range(n_chunks):
            run(c)
    else:
        with ThreadPoolExecutor(min(jobs, n_chunks)) as ex:
            list(ex.map(run, range(n_chunks)))
    total = hist.sum(axis=0)
    present = np.flatnonzero(total)
    lo, hi = int(present.min()), int(present.max())
    rows = [(k - 1, int(total[k])) for k in range(lo, hi + 1)]
    df = pd.DataFrame(rows, columns=["shanten", "count"])
    df["fraction"] = df["count"] / n
    df["se"] = np.sqrt(df["fraction"] * (1 - df["fraction"]) / n)
    df.attrs.update(ruleset=model.name, hand_size=hand_size, wall=int(wall.size))
    return df

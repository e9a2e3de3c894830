"""Shanten of a batch of count vectors (:func:`shanten_batch`) and the thread pool
kept for the process."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .._core import efficiency as _eff
from .._parallel import resolve_n_jobs
from ..errors import InvalidHandError, RuleError
from ..tiles import N_KINDS, as_counts_batch, tile_name
from ._b258 import _b258_batch
from ._hand import _ERR_BAD_COUNT, _ERR_BAD_SIZE, _check_jokers, _core_error, _shape_options
from ._plan import _FORM_REGULAR
from ._ruleset import _resolved, _rule_of

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor


def shanten_batch(counts: Any, *, forms: Sequence[str] | None = None,
                  seven_pairs_quads: bool | None = None, n_jobs: int | None = 1,
                  jokers: Any = None, joker_fifth_copy: bool = False,
                  ruleset: Any = None) -> np.ndarray:
    """Shanten of every row of a batch of concealed count vectors.

    Parameters
    ----------
    counts : array_like of shape (N, 34)
        Integer counts 0..4 per kind; each row holds 3n+1 or 3n+2 tiles (≤ 17).
        A C-contiguous ``uint8`` array is used without a copy.
    forms, seven_pairs_quads, ruleset
        As in :func:`shanten` (default: Chinese Official rules; ``forms`` narrows the
        ruleset's forms).  A ruleset's shape rules apply to every row as to a
        hand without melds: its tile set (a row may not hold a kind outside it),
        void suit and 2-5-8 pair in the core; rulesets with jokers and shape rules or
        extra forms (十三烂) by the compiled shape engine of :mod:`majiang.rules.shapes`.
    n_jobs : int or None
        Threads (the kernel releases the GIL): ``None`` lets the function choose (one
        worker for small inputs, up to every core for big ones), ``-1`` allows every
        core, ``k >= 1`` at most ``k`` workers; the result does not depend on it.
        Here ``None`` takes the cores not busy with other processes (by the load
        average), and a thread gets at least 8192 rows, so small batches run on one
        thread; threads come from a pool kept for the process.
    jokers : int or array_like of shape (N,), optional
        Wild tiles held beside each row (0..8), as in :func:`shanten`.
    joker_fifth_copy : bool
        As in :func:`shanten`.

    Returns
    -------
    numpy.ndarray
        ``int8`` array of shape ``(N,)``.

    Raises
    ------
    InvalidHandError
        The message names the first bad row and tile.
    """
    rec = _rule_of(_resolved(ruleset, forms, seven_pairs_quads))
    how, rs = rec.how, rec.rs
    seven_pairs_quads = rec.quads
    joker_fifth_copy = joker_fifth_copy or rec.fifth
    # b258 / python: their own shapes (extra forms such as 十三烂 are no core form bits)
    mask = rec.mask if how not in ("b258", "python") else _FORM_REGULAR
    if not (type(counts) is np.ndarray and counts.dtype == np.uint8 and counts.ndim == 2
            and counts.shape[1] == N_KINDS and counts.flags.c_contiguous):
        counts = as_counts_batch(counts)
    n = counts.shape[0]
    extra: dict = {}
    if how is not None:
        copies = np.asarray(rs.copies)
        over = counts > copies
        if over.any():
            i, k = (int(x) for x in np.argwhere(over)[0])
            raise InvalidHandError(f"row {i}: {int(counts[i, k])} copies of {tile_name(k)}: "
                                   f"the tile set of ruleset {rs.name} has {int(copies[k])}")
        if how == "core":
            extra = _shape_options(rs, np.zeros(N_KINDS, np.uint8), None)
    out = np.empty(n, dtype=np.int8)
    jk = None
    if jokers is not None:
        jk = np.asarray(jokers)
        if jk.ndim == 0:
            jk = np.full(n, _check_jokers(jk.item() if jk.dtype.kind in "iu" else jokers),
                         np.uint8)
        elif jk.shape != (n,) or jk.dtype.kind not in "iu" or (n and (jk.min() < 0
                                                                     or jk.max() > 8)):
            raise RuleError(f"jokers must be an integer 0..8 or an integer array of shape "
                            f"({n},) with values 0..8")
        jk = np.ascontiguousarray(jk, dtype=np.uint8)
    jobs = resolve_n_jobs(n_jobs)
    if how == "python":
        return _batch_python(counts, jk, rs, out)
    if how == "b258":       # the groups of _b258_groups, each over the whole batch
        return _b258_batch(counts, jk, rs, out)
    if n_jobs is None and n >= 2 * _ROWS_PER_THREAD:
        jobs = min(_spare_cores(jobs), _runnable_cores(jobs))
    jobs = min(jobs, n // _ROWS_PER_THREAD)
    if jobs <= 1:
        bad = _eff.shanten_many(counts, mask, seven_pairs_quads, out, jk, joker_fifth_copy,
                                **extra)
    else:
        bounds = np.linspace(0, n, jobs + 1, dtype=np.int64)

        def run(lo: int, hi: int) -> int:
            local = _eff.shanten_many(counts[lo:hi], mask, seven_pairs_quads, out[lo:hi],
                                      None if jk is None else jk[lo:hi], joker_fifth_copy,
                                      **extra)
            return lo + local if local >= 0 else -1

        bads = [b for b in _pool(jobs).map(run, bounds[:-1], bounds[1:]) if b >= 0]
        bad = min(bads) if bads else -1
    if bad >= 0:
        row = counts[bad]
        code = _ERR_BAD_COUNT if row.max() > 4 else _ERR_BAD_SIZE
        raise _core_error(row, code, where=f"row {bad}: ",
                          jokers=0 if jk is None else int(jk[bad]))
    return out


def _batch_python(counts: np.ndarray, jk: np.ndarray | None, rs: Any,
                  out: np.ndarray) -> np.ndarray:
    """The rows through the compiled shape engine of :mod:`majiang.rules.shapes`
    (shape rules the core lacks; equal to its Python engine, tests/test_shapes.py)."""
    from ..rules.shapes import _spec, core_shanten_batch
    out[:] = core_shanten_batch(counts, jk, _spec(rs))     # the spec compiled once per ruleset
    return out


_ROWS_PER_THREAD = 8192
"""Fewest rows given a thread of their own by :func:`shanten_batch`.  Measured on 2 cores
with the reused pool (bench/bench_api.py): two threads of 2.5k rows each lose to one
thread, of 5k rows each already win (41 against 58 ns/hand); 8k leaves a margin for a
busy machine."""
_POOLS: dict[int, ThreadPoolExecutor] = {}


def _spare_cores(cores: int) -> int:
    """Cores not already busy (``cores`` less the 1-minute load average, this process
    counted as one of ours): with every core taken by other processes, extra threads
    only share them and a batch gets slower than on one thread."""
    import os
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return cores
    return max(1, min(cores, int(cores - load + 1.5)))


def _runnable_cores(cores: int) -> int:
    """Cores not running another task right now (Linux: the runnable count of
    ``/proc/loadavg``, this thread included; elsewhere ``cores``).  The load average
    lags a minute behind: on 2 cores at a load of 4, two threads ran a batch 1.1-3x
    slower than one (bench/bench_api.py)."""
    try:
        with open("/proc/loadavg") as f:
            running = int(f.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return cores
    return max(1, min(cores, cores - running + 1))


def _pool(jobs: int) -> ThreadPoolExecutor:
    """A thread pool of ``jobs`` workers, created once and reused by every batch call."""
    pool = _POOLS.get(jobs)
    if pool is None:
        from concurrent.futures import ThreadPoolExecutor  # not needed at import
        pool = _POOLS.setdefault(jobs, ThreadPoolExecutor(jobs,
                                                          thread_name_prefix="majiang"))
    return pool

"""The one meaning of ``n_jobs`` and ``seed`` in every public function, and the
worker-process guard of the process pools.

``n_jobs`` (:func:`resolve_n_jobs`)
    ``None``: the function chooses (one worker for small inputs, up to every core
    for big ones); ``-1``: every core this process may use; ``k >= 1``: at most ``k``
    workers (fewer when there is less work than that).  Anything else (0, -2, a
    float, a bool) raises :class:`~majiang.errors.RuleError`.  Results never depend on
    ``n_jobs``.

``seed`` (:func:`as_seed_sequence`)
    A non-negative int, a ``numpy.random.SeedSequence`` or a
    ``numpy.random.Generator``; every function's default is ``0``, so a call without
    a seed gives the same answer each time.  ``None`` asks for fresh entropy from the
    operating system (numpy's meaning: a different answer each time).  A Generator
    gives a SeedSequence seeded with one 63-bit draw from it (so it advances).
    Parallel work splits the SeedSequence into spawned children by the index of the
    work item (:func:`spawn_seeds`), never by worker, so the results do not depend
    on ``n_jobs``; the same SeedSequence object given twice gives the same result.

Layer 0: imports only :mod:`majiang.errors` and numpy.
"""
from __future__ import annotations

import os
import sys
from typing import Any

from .errors import RuleError

__all__ = ["N_JOBS_DOC", "SEED_DOC", "available_cores", "resolve_n_jobs", "as_seed_sequence",
           "int_seed", "plain_seed", "spawn_seeds", "watch_parent"]

N_JOBS_DOC = ("``None`` lets the function choose (one worker for small inputs, up to every "
              "core for big ones), ``-1`` allows every core, ``k >= 1`` at most ``k`` "
              "workers; the result does not depend on it.")
"""The sentence every public docstring gives for ``n_jobs``."""

SEED_DOC = ("A non-negative int, a ``numpy.random.SeedSequence`` or ``numpy.random.Generator`` "
            "(default ``0``: the same answer every call; ``None``: fresh entropy, a "
            "different answer every call).")
"""The sentence every public docstring gives for ``seed``."""


def _is_int(x: Any) -> bool:
    import numpy as np
    return not isinstance(x, (bool, np.bool_)) and isinstance(x, (int, np.integer))


def available_cores() -> int:
    """Cores this process may run on (``os.sched_getaffinity`` where there is one,
    else ``os.cpu_count()``), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def resolve_n_jobs(n_jobs: Any, auto: int | None = None) -> int:
    """Workers for an ``n_jobs`` argument (the one check of it in the package).

    Parameters
    ----------
    n_jobs : int or None
        ``None``: ``auto``; ``-1``: :func:`available_cores`; ``k >= 1``: ``k``.
    auto : int, optional
        The caller's automatic choice for ``None`` (default: every core).

    Returns
    -------
    int
        A positive number of workers.

    Raises
    ------
    RuleError
        0, a negative number other than -1, a bool, a float or any other type.
    """
    if n_jobs is None:
        return available_cores() if auto is None else max(1, int(auto))
    if not _is_int(n_jobs) or not (n_jobs >= 1 or n_jobs == -1):
        raise RuleError(f"n_jobs must be a positive integer (that many workers), None "
                        f"(automatic) or -1 (every core), got {n_jobs!r}")
    return available_cores() if n_jobs == -1 else int(n_jobs)


def as_seed_sequence(seed: Any) -> Any:
    """A ``numpy.random.SeedSequence`` for a ``seed`` argument (module text).

    Raises
    ------
    RuleError
        A negative int, a bool, a float or any other type.
    """
    import numpy as np
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, np.random.Generator):
        return np.random.SeedSequence(int(seed.integers(0, 2**63)))
    if seed is None or (_is_int(seed) and seed >= 0):
        return np.random.SeedSequence(None if seed is None else int(seed))
    raise RuleError(f"seed must be a non-negative integer, a numpy SeedSequence or Generator, "
                    f"or None (fresh entropy), got {seed!r}")


def spawn_seeds(seed: Any, n: int) -> list:
    """The ``n`` children that ``as_seed_sequence(seed).spawn(n)`` gives a fresh
    SeedSequence, without advancing the argument's own spawn counter: the same
    SeedSequence object passed twice gives the same children, so the same result
    (numpy's ``spawn`` would give new ones the second time).

    Raises
    ------
    RuleError
        As :func:`as_seed_sequence`.
    """
    import numpy as np
    ss = as_seed_sequence(seed)
    key = tuple(ss.spawn_key)
    return [np.random.SeedSequence(ss.entropy, spawn_key=key + (i,), pool_size=ss.pool_size)
            for i in range(int(n))]


def plain_seed(seed: Any) -> Any:
    """A ``seed`` argument as an int when it stands for one (an int, a numpy int,
    ``SeedSequence(k)`` without spawn key, a Generator's one draw), else as its
    SeedSequence (:func:`as_seed_sequence`, called once: a Generator advances once,
    ``None`` draws fresh entropy once).

    Raises
    ------
    RuleError
        As :func:`as_seed_sequence`.
    """
    if _is_int(seed) and seed >= 0:
        return int(seed)
    ss = as_seed_sequence(seed)
    if (not ss.spawn_key and ss.pool_size == 4 and _is_int(ss.entropy) and ss.entropy >= 0
            and not isinstance(seed, type(None))):
        return int(ss.entropy)
    return ss


def int_seed(seed: Any) -> int:
    """A ``seed`` argument as one non-negative int (a run's recorded seed, which
    replays the run): an int as it is; a plain ``SeedSequence(k)`` (no spawn key) as
    ``k``, the same seed; a Generator as one 63-bit draw from it (it advances; the
    draw :func:`as_seed_sequence` makes); any other SeedSequence, or ``None`` (fresh
    entropy), as 63 bits of its state.

    Raises
    ------
    RuleError
        As :func:`as_seed_sequence`.
    """
    import numpy as np
    got = plain_seed(seed)
    if isinstance(got, int):
        return got
    return int(got.generate_state(1, np.uint64)[0] >> np.uint64(1))


# ------------------------------------------------------------------ worker processes
_POLL = 0.5          # seconds between two looks at the parent from a worker's watch thread


def _alive(pid: int) -> bool:
    if sys.platform == "win32":     # os.kill(pid, 0) would terminate the process there
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:                 # exists, not ours to signal (PermissionError)
        return True
    return True


def _pdeathsig() -> bool:
    """Linux: ask the kernel to SIGKILL this process when its parent dies
    (``prctl(PR_SET_PDEATHSIG)``); False where that is not available."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes
        import signal
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(1, int(signal.SIGKILL), 0, 0, 0) == 0     # PR_SET_PDEATHSIG = 1
    except (OSError, AttributeError, TypeError):
        return False


def watch_parent(parent: int) -> None:
    """Worker-process initializer: end this process at once when ``parent`` (the
    process that runs the pool) dies, e.g. of ``kill -9``; without it the workers
    of a killed run stay blocked on their task queue.  On Linux the kernel kills the
    worker (``PR_SET_PDEATHSIG``) when the worker is a child of ``parent``; a daemon
    thread checks every half second that the worker's parent is still ``parent``
    (POSIX: an orphan is adopted by another process), or for a worker started by a
    fork server that ``parent`` is still alive (not on Windows).  A worker busy in
    compiled code notices at its next Python step."""
    import threading
    child = os.getppid() == parent
    if child:
        _pdeathsig()
    if (os.getppid() != parent) if child else not _alive(parent):
        os._exit(1)                 # the parent died before the guard was set

    def watch() -> None:
        import time
        while True:
            time.sleep(_POLL)
            if (os.getppid() != parent) if child else not _alive(parent):
                os._exit(1)

    threading.Thread(target=watch, name="majiang-parent-watch", daemon=True).start()

"""``majiang.simulate``: many independent hands under a ruleset, as a pandas DataFrame.

The hands are cut into chunks of consecutive hand indices; a chunk runs in this
process, in a local process (or thread) pool, or on any
:class:`concurrent.futures.Executor` (a Dask cluster included).  Hand ``i`` is
seeded from ``SeedSequence(seed)`` by its index alone, so the table never depends
on the chunking or on where a chunk ran.  With ``out=DIR`` each finished chunk is a
Parquet file in a resumable run directory (:mod:`majiang.game.store`).
"""
from __future__ import annotations

import os
import sys
from typing import Any

from .._parallel import available_cores, int_seed, resolve_n_jobs, watch_parent
from ..errors import RuleError

__all__ = ["simulate", "COLUMNS", "SELF_DRAWN", "default_chunk_size"]

COLUMNS = ("ruleset", "hand", "seed", "dealer", "winners", "win_types", "discarder", "fans",
           "fan_totals", "points", "score_deltas", "draws", "wall_left", "turns", "end",
           "kongs", "calls", "flowers", "end_checks")
_PROGRESS_DELAY = 3.0           # seconds before a progress bar appears

SELF_DRAWN = frozenset(("self_draw", "kong_replacement"))
"""The ``win_types`` of a self-drawn win (自摸): a win on one's own draw, the kong
replacement draw (杠上开花) included; ``discard`` and ``robbing_kong`` are not."""


def _run_chunk(ruleset, players, seed, start, stop, logs, exchange3=False):
    from .engine import play_hand
    from .logs import summarize
    rows = []
    for h in range(start, stop):
        st = play_hand(ruleset, players, seed=seed, hand=h, log=logs, exchange3=exchange3)
        row = summarize(st)
        if logs:
            row["log"] = st.events
        rows.append(row)
    return rows


def default_chunk_size(n_hands: int, logs: bool = False) -> int:
    """Hands per chunk when ``simulate`` is not given ``chunk_size``.

    Parameters
    ----------
    n_hands : int
        Hands in the run.
    logs : bool
        Whether the run keeps event logs.

    Returns
    -------
    int
        The largest of 50, 100, 200, 500, 1000, 2000 that still cuts the run into
        at least 32 chunks (50 for short runs), at most 200 with ``logs`` (a logged
        hand is ~100 events).  It depends on the arguments only, so a resumed run
        finds the same chunks.  Bigger chunks make fewer, better-compressed files
        (about 28 kB per 1000 Chinese Official hands at 1000 a chunk, ~190 kB at 50).
    """
    size = 50
    for k in (100, 200, 500, 1000, 2000):
        if n_hands >= 32 * k:
            size = k
    return min(size, 200) if logs else size


def _is_int(x) -> bool:
    import numpy as np
    return not isinstance(x, (bool, np.bool_)) and isinstance(x, (int, np.integer))


def _is_dask_client(x) -> bool:
    """A ``dask.distributed.Client`` (or a subclass), recognised without importing dask."""
    return (any(c.__name__ == "Client" and c.__module__.split(".")[0] == "distributed"
                for c in type(x).__mro__)
            and callable(getattr(x, "get_executor", None)))


def dask_client_of(executor: Any):
    """The Dask client when ``executor`` is one, None for a
    :class:`concurrent.futures.Executor` or None.

    Raises
    ------
    RuleError
        Anything else.
    """
    import concurrent.futures as cf
    if executor is None:
        return None
    if _is_dask_client(executor):
        return executor
    if not isinstance(executor, cf.Executor):
        raise RuleError("executor must be a concurrent.futures.Executor or a "
                        f"dask.distributed.Client, got {type(executor).__name__}")
    return None


def _forks(mp) -> bool:
    """Whether new processes fork (without fixing the start method as a side effect)."""
    method = mp.get_start_method(allow_none=True) or mp.get_all_start_methods()[0]
    return method == "fork"


def pool_for(todo: list, client: Any, executor: Any, workers: int, players: Any,
             builtin: bool, registered: bool) -> tuple:
    """``(executor, the pool this call owns, submission window, by_process)`` for the
    chunks ``todo`` of :func:`simulate` and :func:`majiang.arena`: the Dask client's
    executor (its own window), a given executor (a Dask one's window, else twice its
    workers), or a local pool of ``workers`` — processes when every player is a name the
    workers know (``builtin``, or ``registered`` and forked), each ending with this
    process even on kill -9, else threads; ``(None, None, None, False)`` to play in this
    process (one chunk or one worker)."""
    import concurrent.futures as cf
    if todo and client is not None:
        return client.get_executor(pure=False), None, _DaskWindow(client), False
    if todo and executor is not None:
        behind = getattr(executor, "_client", None)       # client.get_executor()
        if _is_dask_client(behind):
            return executor, None, _DaskWindow(behind), False
        k = 2 * (getattr(executor, "_max_workers", None) or available_cores()) + 1
        return executor, None, (lambda: k), False
    workers = min(workers, len(todo))
    if len(todo) <= 1 or workers <= 1:
        return None, None, None, False
    import multiprocessing as mp
    by_process = (all(isinstance(p, str) for p in players)
                  and (builtin or (registered and _forks(mp))))
    if by_process:
        own = cf.ProcessPoolExecutor(max_workers=workers, initializer=watch_parent,
                                     initargs=(os.getpid(),))
    else:
        own = cf.ThreadPoolExecutor(max_workers=workers)
    return own, own, (lambda: 2 * workers + 1), by_process


class _DaskWindow:
    """Chunks to keep in flight on a Dask cluster: two per worker thread plus one,
    re-read every few seconds (an adaptive cluster grows and shrinks)."""

    def __init__(self, client):
        self.client, self.at, self.value = client, -1e9, 3

    def __call__(self) -> int:
        import time
        now = time.monotonic()
        if now - self.at > 5.0:
            self.at = now
            try:
                self.value = 2 * max(1, sum(self.client.nthreads().values())) + 1
            except Exception:          # a scheduler hiccup: keep the last value
                pass
        return self.value


def _progress_bar(total: int, initial: int, name: str, enabled: bool):
    if not enabled or total <= initial or sys.stderr is None:
        return None
    try:
        from tqdm import tqdm
    except ImportError:             # progress is a convenience, never a failure
        return None
    return tqdm(total=total, initial=initial, unit="hand", desc=f"simulate {name}",
                delay=_PROGRESS_DELAY, file=sys.stderr, dynamic_ncols=True, smoothing=0.05)


def _stop_pool(ex) -> None:
    """Stop our own pool now: terminate worker processes (a running chunk would
    otherwise keep Ctrl-C waiting for it) and drop queued work.  Threads cannot be
    stopped: they finish their current chunk in the background, unread."""
    procs = list((getattr(ex, "_processes", None) or {}).values())
    for proc in procs:
        try:
            proc.terminate()
        except Exception:           # already gone
            pass
    ex.shutdown(wait=bool(procs), cancel_futures=True)


def simulate(ruleset: Any, n_hands: int, *, players: Any = None, seed: Any = 0,
             n_jobs: int | None = -1, executor: Any = None, out: Any = None,
             chunk_size: int | None = None, progress: bool = True, logs: bool = False,
             exchange3: bool = False):
    """Play ``n_hands`` independent hands and return one row per hand.

    The built-in ``"random"`` and ``"efficiency"`` players play in the compiled loop
    (:class:`majiang._core.game.FastHand`) unless the ruleset needs the Python loop
    (substitute jokers, forms outside the core) or logs are asked for; both loops
    play the same hands.  A table with an ``"expert"`` (or any policy object) is
    played by the Python loop.  Every win is judged and scored by THE win predicate.

    Parameters
    ----------
    ruleset : str or Ruleset
        A registered name (or house-rule ``.toml``), or a Ruleset object.
    n_hands : int
        Number of hands, >= 0.
    players : str, policy object or sequence of them, optional
        One per seat; default ``("efficiency",) * players``.  A single name (or
        policy object) is used for every seat.  See :mod:`majiang.game.players`.
    seed : int, SeedSequence, numpy Generator or None
        A non-negative int, a ``numpy.random.SeedSequence`` or
        ``numpy.random.Generator`` (default ``0``: the same answer every call;
        ``None``: fresh entropy, a different answer every call).  The run's seed is
        an int (the ``seed`` column and the manifest of ``out`` record it): an int
        as given, ``SeedSequence(k)`` as ``k``; a Generator gives one 63-bit draw
        (it advances), any other SeedSequence or ``None`` 63 bits of its state.
        Hand ``i`` draws its wall and its bots' choices from one PCG64 stream of
        ``SeedSequence(seed).spawn(...)[i]`` (as :func:`majiang.game.play_hand`
        with ``hand=i``), so the table does not depend on ``n_jobs``,
        ``chunk_size``, ``executor`` or a resumed ``out``.
    n_jobs : int or None
        Local workers when no ``executor`` is given: ``None`` lets the function
        choose (one worker for small inputs, up to every core for big ones), ``-1``
        allows every core, ``k >= 1`` at most ``k`` workers; the result does not
        depend on it.  Here ``None`` and ``-1`` (default) take every core this
        process may use (``os.sched_getaffinity``), never more workers than chunks;
        ``1`` plays every hand in this process.  Worker processes end as soon as
        this process dies (even of ``kill -9``).  Worker processes for built-in
        rulesets (and registered house rules where processes fork) with built-in
        players; threads for other ruleset objects and for policy objects (a
        policy sees the hands of a chunk in order, chunks in any order).  A run
        of one chunk is played here.
    executor : concurrent.futures.Executor or dask.distributed.Client, optional
        Run the chunks there instead of a pool of our own (``n_jobs`` is then
        ignored); the executor is neither shut down nor reused for anything else.
        A Dask ``Client`` is used through ``client.get_executor(pure=False)``;
        every worker needs ``majiang`` installed.  For example::

            from dask.distributed import Client, LocalCluster
            with LocalCluster(n_workers=2, threads_per_worker=1) as cl, Client(cl) as client:
                table = majiang.simulate("mcr", 100_000, executor=client, out="runs/mcr")

        Chunks are submitted a few per worker at a time (memory stays flat) and
        come back to this process, which alone writes ``out`` (workers need no
        shared file system).  A built-in ruleset travels by name; a house or
        modified ruleset as the object, which needs an executor that can send it
        (threads, or Dask's cloudpickle; rulesets hold lambdas that plain pickle,
        as used by ``ProcessPoolExecutor``, refuses).
    out : str or os.PathLike, optional
        A run directory (:mod:`majiang.game.store`): each finished chunk is written
        at once as one Parquet file (temporary name, then rename), beside a
        manifest ``_manifest.json`` of the run's arguments (ruleset name and a
        fingerprint of its data, ``n_hands``, ``seed``, players, ``chunk_size``,
        ``exchange3``, ``logs``, package version).  Rerunning with the same
        arguments after Ctrl-C, an error or ``kill -9`` plays only the missing
        chunks.  Chunks are not kept in memory; the returned table is read back
        from the directory at the end (:func:`majiang.game.read_run`; lazily:
        ``dask.dataframe.read_parquet(out)`` gives the raw Parquet encoding).
    chunk_size : int, optional
        Hands per chunk (>= 1); default :func:`default_chunk_size` (``n_hands``
        only), or with ``out`` the chunk size of the run already in the directory.
    progress : bool
        A tqdm bar (hands done, rate, time left) on ``sys.stderr`` for runs that
        last more than a few seconds; plain text, so it also works in notebooks and
        logs.  ``False``: no bar.
    logs : bool
        Add a ``log`` column with each hand's event list (:mod:`majiang.game.logs`).
    exchange3 : bool
        Play 换三张 before 定缺 (see :func:`majiang.game.play_hand`); refused under a
        ruleset without 定缺.

    Returns
    -------
    pandas.DataFrame
        ``n_hands`` rows in hand order.  Columns :data:`COLUMNS` (+ ``log``):
        ``ruleset`` (str), ``hand``, ``seed``, ``dealer`` (int64), ``winners``
        (list of seats; empty for a drawn hand), ``win_types`` (per winner:
        ``self_draw``, ``discard``, ``robbing_kong``, ``kong_replacement``, ``flower``:
        台湾 八仙過海, every flower collected),
        ``discarder`` (per winner, None on a self-draw), ``fans`` (per winner:
        ``[name, count]`` pairs), ``fan_totals``, ``points`` (after the ruleset's
        scoring rule), ``score_deltas`` (per seat), ``draws`` (int64: tiles drawn
        from the wall, replacements included), ``wall_left``, ``turns`` (int64:
        discards), ``end`` (``win``, ``wall``, ``blood``), ``kongs`` and ``calls``
        (per seat), ``flowers`` (per seat), ``end_checks`` (payments outside the
        hand value, already in ``score_deltas``: dicts ``check, payer, payee,
        amount``; ``check`` is ``杠分`` (kong payments: 四川 刮风下雨, 广东 杠分, 贵州 豆,
        the last only to ready players), ``呼叫转移``, and at a drawn 四川 end
        ``查花猪`` / ``查大叫`` / ``退税``; the ruleset's end settlement adds ``鸡``
        (贵州 chickens after a win), ``查叫`` (贵州, at a drawn end), ``跟庄`` / ``买马``
        (广东) or ``扎鸟`` and the 起手胡 names (长沙)).  The
        list-valued columns hold Python lists of int / str (object dtype).  With
        ``out`` the same table, read back from the directory.  ``attrs["players"]``
        names who played, seat by seat (:func:`majiang.game.store.player_names`).

    Raises
    ------
    RuleError
        Unknown ruleset or player, a wrong number of players, a bad ``n_hands``,
        ``seed``, ``n_jobs`` (0, below -1, not an int), ``chunk_size``, ``executor``
        (not an Executor or Dask Client, or shut down) or ``out`` (a file, not writable,
        a non-empty directory of something else, or a directory holding a run
        with different arguments — nothing is written then; a damaged chunk file
        there, named with what to do).
    IllegalMoveError
        A policy's illegal move (names the seat, the move and the legal options).
    KeyboardInterrupt
        Ctrl-C: our worker processes are terminated at once; with ``out`` every
        chunk finished so far is on disk and a rerun resumes from there.
    """

    from ..rules.model import game_model
    from .players import seat_players
    model = game_model(ruleset)
    if not _is_int(n_hands) or n_hands < 0:
        raise RuleError(f"n_hands must be a non-negative int, got {n_hands!r}")
    workers = resolve_n_jobs(n_jobs)
    seed = int_seed(seed)
    if chunk_size is not None and (not _is_int(chunk_size) or chunk_size < 1):
        raise RuleError(f"chunk_size must be a positive int (hands per chunk) or None, "
                        f"got {chunk_size!r}")
    client = dask_client_of(executor)
    if out is not None and not isinstance(out, (str, os.PathLike)):
        raise RuleError(f"out must be a directory path (str or os.PathLike), got "
                        f"{type(out).__name__}")
    if out is not None and not os.fspath(out):
        raise RuleError("out must be a directory path, got ''")
    n = model.players
    players = seat_players(players, n)
    rs = model.ruleset
    from .. import rules as _rules
    registered = _rules._REGISTRY.get(rs.name) is rs
    builtin = registered and rs.name in _rules.BUILTIN_NAMES
    # a chunk names a built-in ruleset (any worker finds it by importing majiang); a
    # house or modified ruleset travels as the object (threads, fork, cloudpickle)
    key = rs.name if builtin else rs
    from .engine.deal import check_exchange
    check_exchange(model, exchange3)
    n_hands, logs, exchange3 = int(n_hands), bool(logs), bool(exchange3)
    cols = list(COLUMNS) + (["log"] if logs else [])

    store = None
    if out is not None:
        from . import store
        if seed >= 2 ** 63:
            raise RuleError(f"with out=, seed must be below 2**63 (stored as int64), got {seed}")
        if chunk_size is None:
            old = store.read_manifest(out)
            chunk_size = int(old["chunk_size"]) if old else None
    if chunk_size is None:
        chunk_size = default_chunk_size(n_hands, logs)
    chunk_size = int(chunk_size)
    bounds = [(a, min(a + chunk_size, n_hands)) for a in range(0, n_hands, chunk_size)]

    results: dict = {}
    if store is not None:
        manifest = store.run_manifest(rs, builtin=builtin, n_hands=n_hands, seed=seed,
                                      players=players, chunk_size=chunk_size,
                                      exchange3=exchange3, logs=logs, columns=cols)
        store.open_run(out, manifest)
        have = store.finished_parts(out)
        store.check_parts(out, have & set(bounds))     # a damaged file: named, before playing
        todo = [b for b in bounds if b not in have]

        def sink(a, b, rows):
            store.write_part(out, a, b, rows, cols)
    else:
        todo = list(bounds)

        def sink(a, b, rows):
            results[a] = rows

    args = (key, players, seed)
    ex, own, window, by_process = pool_for(todo, client, executor, workers, players,
                                           builtin, registered)
    if by_process and not builtin:
        args = (rs.name, players, seed)     # a forked worker inherits the registry entry

    done_hands = n_hands - sum(b - a for a, b in todo)
    bar = None
    try:
        if ex is None:
            bar = _progress_bar(n_hands, done_hands, rs.name, progress)
            for a, b in todo:
                sink(a, b, _run_chunk(*args, a, b, logs, exchange3))
                if bar is not None:
                    bar.update(b - a)
        else:
            _run_pooled(ex, own, todo, args, logs, exchange3, window, sink,
                        lambda: _progress_bar(n_hands, done_hands, rs.name, progress),
                        salvage=store is not None)
    finally:
        if bar is not None:
            bar.close()
    from .store import frame, player_names
    if store is not None:
        table = store.read_run(out, columns=cols)
    else:
        rows = [r for a, _ in bounds for r in results[a]]
        table = frame({c: [r[c] for r in rows] for c in cols}, cols)
    if hasattr(table, "attrs"):
        table.attrs["players"] = player_names(players)      # who played, seat by seat
    return table


def _run_pooled(ex, own, todo, args, logs, exchange3, window, sink, make_bar, *, salvage,
                task=None):
    """Chunks on an executor, at most ``window()`` in flight, each handed to ``sink``
    as it finishes; ``task(*args, a, b, logs, exchange3)`` plays a chunk (default
    :func:`_run_chunk`; :func:`majiang.arena` passes its own).  On any exception (Ctrl-C included): cancel what is queued, stop
    our own pool at once, hand the chunks already finished to ``sink`` when
    ``salvage`` (they are on disk then), re-raise."""
    import concurrent.futures as cf
    queue = list(reversed(todo))
    pending: dict = {}
    bar = None
    try:
        while queue or pending:
            room = window()
            while queue and len(pending) < room:
                a, b = queue.pop()
                try:
                    f = ex.submit(task or _run_chunk, *args, a, b, logs, exchange3)
                except RuntimeError as exc:       # a shut-down executor
                    raise RuleError(f"the executor does not accept work: {exc}") from None
                pending[f] = (a, b)
            if bar is None:       # after the first submit: worker processes are forked
                bar = make_bar()
            done, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            for f in sorted(done, key=pending.get):
                rows = f.result()
                a, b = pending.pop(f)
                sink(a, b, rows)
                if bar is not None:
                    bar.update(b - a)
    except BaseException:
        for f in pending:
            f.cancel()
        if own is not None:
            _stop_pool(own)
        if salvage:
            for f, (a, b) in sorted(pending.items(), key=lambda kv: kv[1]):
                try:
                    if f.done() and not f.cancelled() and f.exception() is None:
                        sink(a, b, f.result())
                except BaseException:       # best effort: the first error wins
                    break
        raise
    finally:
        if bar is not None:
            bar.close()
    if own is not None:
        own.shutdown()

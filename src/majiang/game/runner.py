"""``majiang.simulate``: many independent hands under a ruleset, as a pandas DataFrame."""
from __future__ import annotations

from typing import Any

from ..errors import RuleError

__all__ = ["simulate", "COLUMNS"]

COLUMNS = ("ruleset", "hand", "seed", "dealer", "winners", "win_types", "discarder", "fans",
           "fan_totals", "points", "score_deltas", "draws", "wall_left", "turns", "end",
           "kongs", "calls", "flowers", "end_checks")
_CHUNK = 50


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


def simulate(ruleset: Any, n_hands: int, *, players: Any = None, seed: int = 0,
             n_jobs: int = 1, logs: bool = False, exchange3: bool = False):
    """Play ``n_hands`` independent hands and return one row per hand.

    Built-in players (``"random"``, ``"efficiency"``) play in the compiled loop
    (:class:`majiang._core.game.FastHand`) unless the ruleset needs the Python loop
    (substitute jokers, forms outside the core) or logs are asked for; both loops
    play the same hands.  Every win is judged and scored by THE win predicate.

    Parameters
    ----------
    ruleset : str or Ruleset
        A registered name (or house-rule ``.toml``), or a Ruleset object.
    n_hands : int
    players : sequence of str or policy objects, optional
        One per seat; default ``("efficiency",) * players``.  A single name is used
        for every seat.  See :mod:`majiang.game.players`.
    seed : int
        Hand ``i`` draws its wall and its bots' choices from one PCG64 stream of
        ``SeedSequence(seed).spawn(...)[i]``, so the table does not depend on
        ``n_jobs`` or chunking.
    n_jobs : int
        Worker processes over independent chunks of hands (threads when the
        ruleset or a policy cannot be sent to a process).
    exchange3 : bool
        Play 换三张 before 定缺 (see :func:`majiang.game.play_hand`).
    logs : bool
        Add a ``log`` column with each hand's event list (:mod:`majiang.game.logs`).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`COLUMNS` (+ ``log``): ``ruleset``, ``hand``, ``seed``,
        ``dealer``, ``winners`` (list of seats; empty for a drawn hand),
        ``win_types`` (per winner: ``self_draw``, ``discard``, ``robbing_kong``,
        ``kong_replacement``), ``discarder`` (per winner, None on a self-draw),
        ``fans`` (per winner: ``[name, count]`` pairs), ``fan_totals``, ``points``
        (after the ruleset's scoring rule), ``score_deltas`` (per seat), ``draws``
        (tiles drawn from the wall, replacements included), ``wall_left``,
        ``turns`` (discards), ``end`` (``win``, ``wall``, ``blood``), ``kongs`` and
        ``calls`` (per seat), ``flowers`` (per seat), ``end_checks`` (四川 查花猪 /
        查大叫 payments at a drawn end: dicts ``check, payer, payee, amount``).

    Raises
    ------
    RuleError
        Unknown ruleset or player, a wrong number of players, a bad ``n_hands`` /
        ``n_jobs``.
    IllegalMoveError
        A policy's illegal move (names the seat, the move and the legal options).
    """
    import numpy as np
    import pandas as pd
    from ..rules.model import game_model
    from .players import make_players
    model = game_model(ruleset)
    if model.ruleset is None:
        raise RuleError("simulate needs a ruleset, e.g. 'mcr'")
    if isinstance(n_hands, bool) or not isinstance(n_hands, (int, np.integer)) or n_hands < 0:
        raise RuleError(f"n_hands must be a non-negative int, got {n_hands!r}")
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs < 1:
        raise RuleError(f"n_jobs must be a positive int, got {n_jobs!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise RuleError(f"seed must be a non-negative int, got {seed!r}")
    n = model.players
    if players is None:
        players = ("efficiency",) * n
    if isinstance(players, str):
        players = (players,) * n
    players = tuple(players)
    make_players(players, n)          # validates names and the count
    rs = model.ruleset
    from .. import rules as _rules
    registered = _rules._REGISTRY.get(rs.name) is rs
    key = rs.name if registered else rs
    bounds = [(a, min(a + _CHUNK, int(n_hands))) for a in range(0, int(n_hands), _CHUNK)]
    rows = []
    if n_jobs == 1 or len(bounds) <= 1:
        for a, b in bounds:
            rows.extend(_run_chunk(key, players, int(seed), a, b, logs, exchange3))
    else:
        from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
        by_process = registered and all(isinstance(p, str) for p in players)
        Ex = ProcessPoolExecutor if by_process else ThreadPoolExecutor
        ex = Ex(max_workers=int(n_jobs))
        futs = []
        try:
            futs = [ex.submit(_run_chunk, key, players, int(seed), a, b, logs, exchange3)
                    for a, b in bounds]
            for f in futs:
                rows.extend(f.result())
        except BaseException:
            # Ctrl-C or an error: stop worker processes now; otherwise the interpreter
            # waits at exit for every chunk already running
            for f in futs:
                f.cancel()
            for proc in list((getattr(ex, "_processes", None) or {}).values()):
                proc.terminate()
            ex.shutdown(wait=True, cancel_futures=True)
            raise
        ex.shutdown()
    cols = list(COLUMNS) + (["log"] if logs else [])
    return pd.DataFrame(rows, columns=cols)

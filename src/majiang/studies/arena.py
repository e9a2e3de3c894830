"""``majiang.arena``: duplicate evaluation of players (each wall replayed in every seat order).

Mahjong's luck is mostly the wall.  In the duplicate format of the Botzone /
IJCAI Chinese Standard Mahjong contests (one hand per game, "seats exchanged over
the same starting tiles": the README of github.com/ailab-pku/Chinese-Standard-Mahjong,
the contest organisers' repository), the same shuffled wall is played again with
the players in other seat orders, so each player meets the same tiles from every
seat and the luck of the deal cancels between them.  :func:`arena` does that:

* wall ``w`` (``0 <= w < n_walls``) is the full physical tile order shuffled by a
  PCG64 stream of ``SeedSequence(seed, spawn_key=(w, 0))``; the bots' own random
  choices (the random bot) come from ``SeedSequence(seed, spawn_key=(w, 1))``,
  the same stream in every seat order, so a seat order differs from another only
  by who sits where.  The dealer is seat ``w % players`` and the prevalent wind
  ``(w // players) % 4`` in every seat order of the wall;
* ``rotations="rotate4"``: the cyclic rotations (player ``i`` at seat
  ``(i + r) % players`` in rotation ``r``; 4 at a four-player table);
  ``"all24"``: every permutation of the players over the seats (24 at four);
* each (wall, seat order) is one hand of :func:`majiang.game.play_hand` with that
  explicit wall (the compiled loop for built-in bots).

The unit of independence is the wall: each player's score is averaged over the
seat orders of a wall, and the 95 % interval of the mean score per hand is a
Student t interval over those per-wall averages (``scipy.stats.t``).  Under a
zero-sum ruleset with four copies of one deterministic player, every player sits
in every seat once per wall (``rotate4``), so each player's mean is exactly 0.

Rank points (``rank_points``): Botzone plays one hand per game and ranks the
players of a game by its score.  We found no published table of the contests'
rank points, so this is our rule, documented here: the Chinese Official
tournament table of standard points (标准分: 4 / 2 / 1 / 0 for first to fourth
place) applied to every replayed hand, tied players sharing the mean of the
places they tie for (two players sharing first get 3 each).  Pass another table
(e.g. ``(3, 2, 1, 0)``) to change it.

With ``out=DIR`` each finished chunk of walls is one Parquet file (the
``part-SSSSSSSSSSSS-EEEEEEEEEEEE.parquet`` names of :mod:`majiang.game.store`, here
counting walls) beside ``_arena.json``, the run's arguments; rerunning the same
call after Ctrl-C or a crash plays only the missing walls.
"""
from __future__ import annotations

import itertools
import os
import sys
from typing import Any

from .._parallel import int_seed, resolve_n_jobs
from ..errors import RuleError

__all__ = ["arena", "arena_summary", "read_arena", "seat_orders", "HAND_COLUMNS",
           "SUMMARY_COLUMNS", "ROTATIONS", "DEFAULT_RANK_POINTS"]

ROTATIONS = ("rotate4", "all24")
DEFAULT_RANK_POINTS = (4.0, 2.0, 1.0, 0.0)
"""Rank points of first .. fourth (Chinese Official tournament standard points)."""

HAND_COLUMNS = ("wall", "rotation", "player", "seat", "dealer", "score", "wins",
                "self_draws", "fan_sum", "deal_ins", "drawn")
"""The raw table (int64 columns; one row per wall, seat order and player):
``wins`` the player's wins in the hand (several only in 血战 / 血流 rulesets),
``self_draws`` those by self-draw (杠上开花 included), ``fan_sum`` the fan totals of
those wins, ``deal_ins`` wins made on the player's discard (robbing its kong
included), ``drawn`` 1 when nobody won the hand."""

SUMMARY_COLUMNS = ("player", "index", "mean_score", "lo", "hi", "sd_wall", "win_rate",
                   "deal_in_rate", "drawn_rate", "self_draw_share", "mean_fan",
                   "rank_points", "rank_points_lo", "rank_points_hi", "walls", "hands")

_MANIFEST = "_arena.json"
_FORMAT = "majiang.arena/1"
_COMPARED = ("format", "ruleset", "ruleset_fingerprint", "n_walls", "seed", "players",
             "rotations", "chunk_size", "version")
_SELF = frozenset(("self_draw", "kong_replacement"))
_PROGRESS_DELAY = 3.0


def seat_orders(n: int, rotations: str) -> list[tuple[int, ...]]:
    """The seat orders of a wall: tuples ``order`` with ``order[seat] = player index``.

    Raises
    ------
    RuleError
        ``rotations`` is not ``"rotate4"`` or ``"all24"``.
    """
    if rotations == "rotate4":
        return [tuple((s - r) % n for s in range(n)) for r in range(n)]
    if rotations == "all24":
        return list(itertools.permutations(range(n)))
    raise RuleError(f"rotations must be 'rotate4' (the cyclic seat rotations) or 'all24' "
                    f"(every seat order), got {rotations!r}")


def _wall(model, seed: int, w: int):
    import numpy as np

    from ..game.engine.wall import build_wall
    gen = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(w, 0))))
    return build_wall(model, gen)


def _run_walls(key, players, seed, orders, a, b, _logs=False, _exchange3=False):
    """Rows of :data:`HAND_COLUMNS` for walls ``a <= w < b`` (a worker's task)."""
    import numpy as np

    from ..game.engine import play_hand
    from ..rules.model import game_model
    model = game_model(key)
    n = model.players
    rows = {c: [] for c in HAND_COLUMNS}
    for w in range(a, b):
        wall = _wall(model, seed, w)
        bots = np.random.SeedSequence(seed, spawn_key=(w,))
        dealer, wind = w % n, (w // n) % 4
        for r, order in enumerate(orders):
            st = play_hand(model, [players[i] for i in order], seed=bots, hand=1, wall=wall,
                           dealer=dealer, prevalent_wind=wind)
            wins, deltas = st.wins, list(st.deltas)
            for seat, i in enumerate(order):
                mine = [x for x in wins if x["seat"] == seat]
                rows["wall"].append(w)
                rows["rotation"].append(r)
                rows["player"].append(i)
                rows["seat"].append(seat)
                rows["dealer"].append(int(seat == dealer))
                rows["score"].append(int(deltas[seat]))
                rows["wins"].append(len(mine))
                rows["self_draws"].append(sum(x["how"] in _SELF for x in mine))
                rows["fan_sum"].append(int(sum(x["total"] for x in mine)))
                rows["deal_ins"].append(sum(x["discarder"] == seat for x in wins))
                rows["drawn"].append(int(not wins))
    return rows


# ------------------------------------------------------------------ summary
def _rank_points(scores, table) -> Any:
    """Rank points of one hand's scores (ties share the mean of their places)."""
    import numpy as np
    s = np.asarray(scores, dtype=float)
    pts = np.asarray(table, dtype=float)
    out = np.empty(len(s))
    for i, x in enumerate(s):
        above = int((s > x).sum())
        tied = int((s == x).sum())
        out[i] = pts[above:above + tied].mean()
    return out


def _t_interval(x, level: float = 0.95) -> tuple[float, float, float, float]:
    """``(mean, lo, hi, sd)`` of a Student t interval for the mean of ``x``."""
    import numpy as np
    from scipy import stats
    x = np.asarray(x, dtype=float)
    k = len(x)
    if k == 0:
        return (float("nan"),) * 4
    m = float(x.mean())
    if k == 1:
        return m, float("nan"), float("nan"), float("nan")
    sd = float(x.std(ddof=1))
    half = float(stats.t.ppf(0.5 + level / 2, k - 1)) * sd / np.sqrt(k)
    return m, m - half, m + half, sd


def arena_summary(hands: Any, players: Any = None, *, rank_points: Any = None):
    """The per-player summary of a raw arena table (:data:`HAND_COLUMNS`).

    Parameters
    ----------
    hands : pandas.DataFrame
        One row per wall, seat order and player (as ``arena(...).attrs["hands"]``).
    players : sequence of str, optional
        The label of each player index (default ``"player i"``).
    rank_points : sequence of float, optional
        Points of first, second ... place in a hand (default
        :data:`DEFAULT_RANK_POINTS`; its length must be the number of players).

    Returns
    -------
    pandas.DataFrame
        One row per player index, columns :data:`SUMMARY_COLUMNS`: ``mean_score``
        (score per hand) with ``lo`` / ``hi`` its 95 % t interval over the per-wall
        means (NaN with one wall) and ``sd_wall`` their standard deviation;
        ``win_rate`` (hands won at least once), ``deal_in_rate`` (hands in which a
        win was made on the player's discard), ``drawn_rate`` (hands nobody won),
        ``self_draw_share`` (self-drawn wins / wins, NaN without wins),
        ``mean_fan`` (fan total per win), ``rank_points`` per hand with its
        interval clustered by wall the same way; ``walls``, ``hands`` (int64).

    Raises
    ------
    RuleError
        Missing columns, or a rank-point table of the wrong length.
    """
    import numpy as np
    import pandas as pd
    missing = [c for c in HAND_COLUMNS if c not in hands.columns]
    if missing:
        raise RuleError(f"an arena table needs the columns {missing}")
    h = hands
    n = int(h["player"].max()) + 1 if len(h) else (len(players) if players is not None else 0)
    table = DEFAULT_RANK_POINTS if rank_points is None else tuple(float(x) for x in rank_points)
    if len(table) < n:
        raise RuleError(f"rank_points needs one value per place ({n}), got {list(table)}")
    h = h.sort_values(["wall", "rotation", "seat"], kind="stable")
    score = h["score"].to_numpy(dtype=float).reshape(-1, n) if len(h) else np.zeros((0, n))
    rp = np.concatenate([_rank_points(s, table[:n]) for s in score]) if len(score) else []
    h = h.assign(rp=rp)
    per_wall = h.groupby(["player", "wall"], sort=True)[["score", "rp"]].mean()
    out = []
    for i in range(n):
        mine = h[h["player"] == i]
        pw = per_wall.loc[i] if i in per_wall.index.get_level_values(0) else per_wall.iloc[:0]
        m, lo, hi, sd = _t_interval(pw["score"].to_numpy())
        rm, rlo, rhi, _ = _t_interval(pw["rp"].to_numpy())
        k = len(mine)
        wins = int(mine["wins"].sum())
        out.append({
            "player": (players[i] if players is not None else f"player {i}"),
            "index": i,
            "mean_score": m, "lo": lo, "hi": hi, "sd_wall": sd,
            "win_rate": float((mine["wins"] > 0).mean()) if k else float("nan"),
            "deal_in_rate": float((mine["deal_ins"] > 0).mean()) if k else float("nan"),
            "drawn_rate": float(mine["drawn"].mean()) if k else float("nan"),
            "self_draw_share": mine["self_draws"].sum() / wins if wins else float("nan"),
            "mean_fan": mine["fan_sum"].sum() / wins if wins else float("nan"),
            "rank_points": rm, "rank_points_lo": rlo, "rank_points_hi": rhi,
            "walls": int(mine["wall"].nunique()), "hands": k,
        })
    df = pd.DataFrame(out, columns=list(SUMMARY_COLUMNS))
    return df.astype({"index": "int64", "walls": "int64", "hands": "int64"})


# ------------------------------------------------------------------ run directory
def _manifest(rs, players, n_walls, seed, rotations, chunk_size) -> dict:
    from ..game.store import _version, ruleset_fingerprint
    names = [p.strip().lower() if isinstance(p, str)
             else f"policy:{type(p).__module__}.{type(p).__qualname__}" for p in players]
    return {"format": _FORMAT, "ruleset": rs.name, "ruleset_fingerprint": ruleset_fingerprint(rs),
            "n_walls": int(n_walls), "seed": int(seed), "players": names,
            "rotations": rotations, "chunk_size": int(chunk_size), "version": _version(),
            "columns": list(HAND_COLUMNS)}


def _read_manifest(path: str) -> dict | None:
    from ..game.store import read_manifest
    return read_manifest(path, name=_MANIFEST, fmt=_FORMAT, kind="arena")


def _open_run(path: str, manifest: dict) -> None:
    from ..game.store import open_run
    open_run(path, manifest, name=_MANIFEST, compared=_COMPARED, read=_read_manifest,
             kind="arena")


def _write_part(path: str, a: int, b: int, rows: dict) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from ..game.store import _atomic_write, part_name
    table = pa.table({c: pa.array(rows[c], type=pa.int64()) for c in HAND_COLUMNS})
    try:
        _atomic_write(os.path.join(path, part_name(a, b)),
                      lambda fh: pq.write_table(table, fh, compression="zstd"))
    except OSError as exc:
        raise RuleError(f"cannot write {part_name(a, b)} to {path!r}: {exc}; the parts written "
                        "so far are kept, rerun with the same arguments to resume") from None


def _read_part(path: str, a: int, b: int) -> dict:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from ..game.store import part_name
    fn = os.path.join(path, part_name(a, b))
    try:
        t = pq.read_table(fn, columns=list(HAND_COLUMNS))
    except (OSError, ValueError, KeyError, pa.ArrowException) as exc:
        raise RuleError(f"arena part {fn} is damaged ({' '.join(str(exc).split())[:200]}); "
                        f"delete it and rerun with the same arguments to play walls "
                        f"{a}..{b - 1} again") from None
    return {c: t.column(c).to_pylist() for c in HAND_COLUMNS}


def read_arena(path: Any, *, partial: bool = False):
    """The raw table (:data:`HAND_COLUMNS`) of an arena run directory.

    Raises
    ------
    RuleError
        Not an arena run directory; unfinished (unless ``partial``); a damaged part.
    """
    from ..game.store import finished_parts
    path = os.fspath(path)
    m = _read_manifest(path)
    if m is None:
        raise RuleError(f"{path!r} has no {_MANIFEST}; not a majiang.arena run directory")
    n, k = int(m["n_walls"]), int(m["chunk_size"])
    want = [(a, min(a + k, n)) for a in range(0, n, k)]
    have = finished_parts(path)
    missing = [x for x in want if x not in have]
    if missing and not partial:
        raise RuleError(f"the arena run in {path!r} is unfinished ({len(missing)} of "
                        f"{len(want)} parts missing); rerun with the same arguments to finish it")
    return _frame([_read_part(path, a, b) for a, b in want if (a, b) in have])


def _frame(parts: list):
    import pandas as pd
    data = {c: [x for p in parts for x in p[c]] for c in HAND_COLUMNS}
    return pd.DataFrame(data, columns=list(HAND_COLUMNS)).astype("int64")


# ------------------------------------------------------------------ the run
def _bar(total: int, initial: int, enabled: bool):
    if not enabled or total <= initial or sys.stderr is None:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, initial=initial, unit="wall", desc="arena", delay=_PROGRESS_DELAY,
                file=sys.stderr, dynamic_ncols=True, smoothing=0.05)


def arena(players: Any, ruleset: Any = None, n_walls: int = 100, *, rotations: str = "rotate4",
          seed: Any = 0, n_jobs: int | None = None, executor: Any = None, out: Any = None,
          chunk_size: int | None = None, rank_points: Any = None, progress: bool = True):
    """Duplicate evaluation: every wall played with the players in every chosen seat order.

    Parameters
    ----------
    players : sequence of str or policy objects
        One per seat of the ruleset (4 at the usual table): built-in bot names
        (``"random"``, ``"efficiency"`` ...; :mod:`majiang.game.players`) or policy
        objects.  The same name may appear several times.
    ruleset : str or Ruleset, optional
        A registered name or Ruleset (default ``"mcr"``).
    n_walls : int
        Walls to play (>= 1); each is played ``len(seat_orders)`` times.
    rotations : {"rotate4", "all24"}
        ``"rotate4"``: the cyclic rotations (one per seat); ``"all24"``: every
        permutation of the players over the seats (module text).
    seed : int, SeedSequence, numpy Generator or None
        A non-negative int, a ``numpy.random.SeedSequence`` or
        ``numpy.random.Generator`` (default ``0``: the same answer every call;
        ``None``: fresh entropy, a different answer every call).  Wall ``w`` and
        its bots' random stream come from ``SeedSequence(seed, spawn_key=(w, ...))``
        (module text), so the result does not depend on ``n_jobs``, ``executor``,
        ``chunk_size`` or a resumed ``out``.
    n_jobs : int or None
        ``None`` lets the function choose (one worker for small inputs, up to every
        core for big ones), ``-1`` allows every core, ``k >= 1`` at most ``k``
        workers; the result does not depend on it.  Worker processes for built-in
        rulesets and player names; threads otherwise.
    executor : concurrent.futures.Executor or dask.distributed.Client, optional
        Run the chunks of walls there (as :func:`majiang.simulate`).
    out : str or os.PathLike, optional
        A resumable run directory: one Parquet file per finished chunk of walls
        and ``_arena.json``; a rerun with the same arguments plays only the
        missing walls, one with other arguments is refused (nothing written).
    chunk_size : int, optional
        Walls per chunk (default: from ``n_walls`` and the seat orders, or the one
        in ``out``).
    rank_points : sequence of float, optional
        Points for first .. last place in each replayed hand (default
        :data:`DEFAULT_RANK_POINTS`, 4/2/1/0; ties share).
    progress : bool
        A tqdm bar on stderr for runs longer than a few seconds.

    Returns
    -------
    pandas.DataFrame
        One row per entry of ``players``, columns :data:`SUMMARY_COLUMNS` (see
        :func:`arena_summary`): ``mean_score`` per hand and its 95 % interval
        ``lo`` / ``hi`` clustered by wall, ``win_rate``, ``deal_in_rate``,
        ``drawn_rate``, ``self_draw_share``, ``mean_fan``, ``rank_points``,
        ``walls``, ``hands``.  ``df.attrs`` holds ``hands`` (the raw table,
        :data:`HAND_COLUMNS`), ``ruleset``, ``rotations``, ``seed`` and
        ``n_walls``.

    Raises
    ------
    RuleError
        Unknown ruleset or player, the wrong number of players, a bad ``n_walls``,
        ``rotations``, ``seed``, ``n_jobs``, ``chunk_size``, ``executor`` or
        ``out`` (a file, a directory of another run), a damaged part file.
    IllegalMoveError
        A policy's illegal move.
    """

    from .. import rules as _rules
    from ..game.players import is_policy, make_players
    from ..game.runner import _is_int, _run_pooled, dask_client_of, pool_for
    from ..rules.model import game_model
    model = game_model("mcr" if ruleset is None else ruleset)
    n = model.players
    if isinstance(players, str) or is_policy(players):
        raise RuleError(f"players must be a list of {n} players (names or policies), "
                        f"got a single {players!r:.40}")
    players = tuple(players)
    make_players(players, n)            # names and count checked
    if not _is_int(n_walls) or n_walls < 1:
        raise RuleError(f"n_walls must be a positive int, got {n_walls!r}")
    n_walls = int(n_walls)
    orders = seat_orders(n, rotations)
    seed = int_seed(seed)
    if seed >= 2 ** 63:
        raise RuleError(f"seed must be below 2**63, got {seed}")
    table_pts = DEFAULT_RANK_POINTS[:n] if rank_points is None else tuple(rank_points)
    if len(table_pts) != n:
        raise RuleError(f"rank_points needs one value per place ({n}), got {list(table_pts)}")
    client = dask_client_of(executor)
    if out is not None and (not isinstance(out, (str, os.PathLike)) or not os.fspath(out)):
        raise RuleError(f"out must be a directory path, got {out!r}")
    if chunk_size is not None and (not _is_int(chunk_size) or chunk_size < 1):
        raise RuleError(f"chunk_size must be a positive int (walls per chunk), got {chunk_size!r}")
    rs = model.ruleset
    registered = _rules._REGISTRY.get(rs.name) is rs
    builtin = registered and rs.name in _rules.BUILTIN_NAMES
    key = rs.name if builtin else rs
    hands_per_wall = len(orders)
    total = n_walls * hands_per_wall
    workers = resolve_n_jobs(n_jobs, auto=1 if total < 2000 else None)

    path = None
    if out is not None:
        path = os.fspath(out)
        if chunk_size is None:
            old = _read_manifest(path) if os.path.isdir(path) else None
            chunk_size = int(old["chunk_size"]) if old else None
    if chunk_size is None:
        chunk_size = max(1, min(500, total // 32 // hands_per_wall) or 1)
        chunk_size = max(1, min(chunk_size, 250))
    chunk_size = int(chunk_size)
    bounds = [(a, min(a + chunk_size, n_walls)) for a in range(0, n_walls, chunk_size)]
    results: dict = {}
    if path is not None:
        from ..game.store import finished_parts
        _open_run(path, _manifest(rs, players, n_walls, seed, rotations, chunk_size))
        have = finished_parts(path)
        todo = [x for x in bounds if x not in have]

        def sink(a, b, rows):
            _write_part(path, a, b, rows)
    else:
        todo = list(bounds)

        def sink(a, b, rows):
            results[a] = rows

    args = (key, players, seed, orders)
    ex, own, window, by_process = pool_for(todo, client, executor, workers, players,
                                           builtin, registered)
    if by_process:
        args = (rs.name, players, seed, orders)
    done = n_walls - sum(b - a for a, b in todo)
    if ex is None:
        bar = _bar(n_walls, done, progress)
        try:
            for a, b in todo:
                sink(a, b, _run_walls(*args, a, b))
                if bar is not None:
                    bar.update(b - a)
        finally:
            if bar is not None:
                bar.close()
    else:
        _run_pooled(ex, own, todo, args, False, False, window, sink,
                    lambda: _bar(n_walls, done, progress), salvage=path is not None,
                    task=_run_walls)
    if path is not None:
        hands = read_arena(path)
    else:
        hands = _frame([results[a] for a, _ in bounds])
    labels = [p if isinstance(p, str) else getattr(p, "name", type(p).__name__) for p in players]
    df = arena_summary(hands, labels, rank_points=table_pts)
    df.attrs.update({"hands": hands, "ruleset": rs.name, "rotations": rotations, "seed": seed,
                     "n_walls": n_walls})
    return df

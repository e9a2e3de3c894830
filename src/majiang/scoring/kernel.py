"""The bridge to the compiled fan kernel (:mod:`majiang._core.fans`): kernel tables
per ruleset, lazily built :class:`~.results.FanResult` fields, and :func:`score_batch`.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple

import numpy as np

from .. import rules as _rules
from .._core import fans as _kfans
from .._parallel import resolve_n_jobs
from ..errors import InvalidHandError, MahjongError, RuleError
from ..hand import Decomposition, as_hand
from ..tiles import parse_tile
from ..winning import SetView, WinContext, WinningHand
from .reference import _all_counts, _meets_minimum, _meld_views, _table, _where, wind_index
from .results import _KERNEL_FIELDS, FanCount, FanResult

__all__ = ["score_batch", "BatchScores", "melds_array", "win_verdict"]

_KTABLES: dict[int, tuple] = {}


def _kernel_table(rs):
    """The kernel's FanTable for a ruleset, or None when the kernel cannot score it.

    The kernel implements the predicates and combinations of the Chinese
    Official fan table; it scores any ruleset of 13-tile hands whose fans are
    among those (same predicate, combination and forms per id).  Values, 不计
    lists, reductions, the fallback fan and the minimum flags are read from the
    ruleset's own table, so they stay single-sourced in :mod:`majiang.rules`.
    """
    entry = _KTABLES.get(id(rs))
    if entry is None or entry[0] is not rs:
        entry = _KTABLES[id(rs)] = (rs, _build_kernel_table(rs))
    if entry[1] is not None:
        _LAST_KT[0], _LAST_KT[1] = entry
    return entry[1]


def _build_kernel_table(rs):
    if rs.hand_size != 13 or getattr(rs, "extended", False):
        return None                # regional rules (jokers, constraints ...): .regional
    ref = {f.id: f for f in _rules.MCR.fans}
    for f in rs.fans:
        g = ref.get(f.id)
        if g is None or f.predicate is not g.predicate or \
                f.combination is not g.combination or f.forms != g.forms:
            return None
    rows = [(f.id, f.value, None if f.forms is None else tuple(sorted(f.forms)),
             f.combination is not None, tuple(sorted(f.excludes)), tuple(f.reduces),
             bool(f.minimum), bool(f.fallback)) for f in rs.fans]
    return _kfans.FanTable(rows, tuple(rs.forms), bool(rs.seven_pairs_quads), rs.hand_size,
                           rs.flowers)


_LAST_KT: list = [None, None]     # (ruleset, table) of the last kernel ruleset


def win_verdict(model: Any, melds: Any = (), seat_wind: Any = 0, prevalent_wind: Any = 0,
                flowers: int = 0):
    """The compiled minimum-fan verdict of one seat, or None where it is not the ruleset's.

    A :class:`majiang._core.fans.WinVerdict`: called on ``before`` (uint8 (34,), the
    concealed tiles before the win) and a win kind it answers 1 (a winning hand whose fans
    counting toward the minimum reach it), 0 (below the minimum or not a winning hand) or
    -1 (a hand the kernel does not judge: a fifth copy, a context the hand contradicts).
    The probability kernels and the game loop ask it without the GIL.  It is the verdict
    of :func:`majiang.check_win` (the same compiled scorer as :func:`majiang.score`, the
    minimum of :meth:`RuleSpec.meets_minimum <majiang.rules.model.RuleSpec.meets_minimum>`)
    when the ruleset's fans are scored by the kernel (13-tile hands, the Chinese Official
    fan table: ``mcr``, ``mcr_botzone`` …), it has no jokers and a closed hand may win;
    None otherwise (the caller keeps the Python predicate).

    Parameters
    ----------
    model : RuleSpec (GameModel), Ruleset or name
    melds : sequence of Meld
        The seat's melds (``kind``, ``tile``, ``concealed``).
    seat_wind, prevalent_wind : int or str
        0..3 or ``"E"`` …; flowers: flowers held.

    Raises
    ------
    RuleError
        A bad wind; ValueError for a meld or flower count out of range.
    """
    from ..rules.model import game_model
    model = game_model(model)
    rs = model.ruleset
    if model.jokers is not None or _kernel_table(rs) is None:
        return None
    if not any(not m.concealed for m in melds) and not model.closed_hand_can_win()[0]:
        return None
    return _kfans.WinVerdict(_kernel_table(rs), tuple(melds), wind_index(seat_wind),
                             wind_index(prevalent_wind, "prevalent wind"), int(flowers),
                             int(game_model(rs).min_fan),
                             bool(rs.flowers_count_toward_minimum))


def _ruleset_or_none(ruleset):
    try:
        return _rules.get(ruleset)
    except MahjongError:
        return None


def _hand_or_none(hand, rs):
    try:
        return as_hand(hand, hand_size=rs.hand_size)
    except MahjongError:
        return None


_KIND_CACHE: dict = {}


def _kind_or_none(x):
    """Tile kind of a win tile given as a name or numpy int; None when not plain."""
    if isinstance(x, str):
        k = _KIND_CACHE.get(x)
        if k is None:
            try:
                k = parse_tile(x)
            except MahjongError:
                return None
            if len(_KIND_CACHE) < 4096:
                _KIND_CACHE[x] = k
        return k
    if isinstance(x, np.integer) and not isinstance(x, np.bool_):
        return int(x)
    return None


def _wind_or_none(x):
    try:
        return wind_index(x)
    except MahjongError:
        return None


def _src(r: FanResult):
    return r._d["_src"]


def _k_fans(r: FanResult) -> tuple:
    k = _src(r)
    tb = _table(k.ruleset)
    shared = tb.fan_counts          # FanCount is immutable: one object per (id, count)
    out = []
    for key in k.fan_keys:          # fan id * 256 + count
        fc = shared.get(key)
        if fc is None:
            f = tb.fan[key >> 8]
            fc = shared[key] = FanCount(f.id, f.chinese, f.english, f.value, key & 255)
        out.append(fc)
    return tuple(out)


def _k_meets_minimum(r: FanResult) -> bool:
    k = _src(r)
    rs = k.ruleset
    return _meets_minimum(rs, k.total if rs.flowers_count_toward_minimum else k.total_min)


def _k_decomposition(r: FanResult) -> Decomposition:
    k = _src(r)
    form = k.form
    if form == "seven_pairs":
        return Decomposition(form, pairs=k.pairs)
    if form == "thirteen_orphans":
        return Decomposition(form, pair=k.pair)
    if form == "honors_and_knitted":
        return Decomposition(form)
    return Decomposition(form, pair=k.pair, sets=k.concealed_sets)


def _k_context(r: FanResult) -> WinContext:
    k = _src(r)
    return WinContext(k.win, k.self_drawn, k.last_copy, k.kong, k.last_tile, k.seat_wind,
                      k.prevalent_wind, k.flowers)


def _k_winning_hand(r: FanResult) -> WinningHand:
    k = _src(r)
    h = k.hand
    sets = _meld_views(h)
    conc = k.set_concealed
    n_melds = len(h.melds)
    for i, (kind, t) in enumerate(k.concealed_sets):
        sets.append(SetView(kind, t, conc[n_melds + i], False))
    counts = _all_counts(h)
    counts[k.win] += 1
    return WinningHand(h, r.context, r.decomposition, k.form, tuple(sets), k.pair, k.pairs,
                       k.knitted, tuple(counts), k.win_set, k.win_position, k.unique_wait, {})


_KERNEL_FIELDS.update({
    "total": lambda r: _src(r).total,
    "fans": _k_fans,
    "form": lambda r: _src(r).form,
    "decomposition": _k_decomposition,
    "knitted": lambda r: _src(r).knitted,
    "win_set": lambda r: _where(r.winning_hand),
    "meets_minimum": _k_meets_minimum,
    "min_fan": lambda r: _src(r).ruleset.min_fan,
    "hand": lambda r: _src(r).hand,
    "context": _k_context,
    "ruleset": lambda r: _src(r).ruleset.name,
    "winning_hand": _k_winning_hand,
})
"""How each FanResult field is built from a kernel result (on first access)."""


# =====================================================================
# batches
# =====================================================================

class BatchScores(NamedTuple):
    """Scores of a batch of hands (:func:`score_batch`); row i is hand i.

    ``fans[i, f]`` is the count of fan id ``f`` (column 0 unused); ``status`` is
    0 for a scored hand, 1 when the context contradicts the hand (wrong size, fifth
    copy, 杠上开花 without a kong, robbing a held kind, 和绝张 holding a copy) and 2
    for a hand that does not win; rows with a non-zero status are all zero.
    """

    total: np.ndarray          # (N,) int32, flowers included
    fans: np.ndarray           # (N, 83) uint8, indexed by fan id (82 = 明暗杠)
    meets_minimum: np.ndarray  # (N,) bool
    status: np.ndarray         # (N,) int8


_MELD_CODES = {"chow": 0, "pung": 1, "kong": 2}


def _column(x, n: int, name: str, lo: int, hi: int) -> np.ndarray:
    a = np.asarray(x)
    if a.dtype == np.bool_:
        a = a.astype(np.int64)
    if a.ndim == 0:
        a = np.full(n, a)
    if a.shape != (n,) or not np.issubdtype(a.dtype, np.integer):
        raise RuleError(f"{name} must be an int or an integer array of shape ({n},), "
                        f"got {np.asarray(x).dtype} {np.shape(x)}")
    if n and (a.min() < lo or a.max() > hi):
        raise RuleError(f"{name} must be in {lo}..{hi}")
    return a.astype(np.uint8)


def melds_array(hands) -> np.ndarray:
    """The ``(N, 4, 3)`` int8 meld array of :func:`score_batch` from Hands: rows
    ``(kind, tile, concealed)`` with kind 0 chow, 1 pung, 2 kong, -1 for no meld."""
    out = np.full((len(hands), 4, 3), -1, dtype=np.int8)
    for i, h in enumerate(hands):
        for j, m in enumerate(h.melds):
            out[i, j] = (_MELD_CODES[m.kind], m.tile, m.concealed)
    return out


def score_batch(concealed: Any, win_tiles: Any, melds: Any = None, *, self_drawn: Any = False,
                last_copy: Any = False, kong: Any = False, last_tile: Any = False,
                seat_wind: Any = 0, prevalent_wind: Any = 0, flowers: Any = 0,
                ruleset: Any = "mcr", n_jobs: int | None = None) -> BatchScores:
    """Score many winning hands at once with the compiled kernel (no GIL held).

    The fan counts equal those of :func:`score` hand by hand; invalid hands get a
    status instead of an exception.

    Parameters
    ----------
    concealed : array_like, shape (N, 34)
        Concealed tiles of each hand BEFORE the win (counts 0..4).
    win_tiles : array_like of int, shape (N,)
        Win tile kinds 0..33.
    melds : array_like, shape (N, 4, 3), optional
        Declared melds as rows ``(kind, tile, concealed)``: kind 0 chow (tile = its
        lowest), 1 pung, 2 kong; ``concealed`` 1 only for a concealed kong; rows of
        -1 after the last meld (see :func:`melds_array`).  None: no melds.
    self_drawn, last_copy, kong, last_tile : bool or array of bool, shape (N,)
    seat_wind, prevalent_wind : int or array of int (0..3)
    flowers : int or array of int (0..8)
    ruleset : str or Ruleset
        A ruleset whose fan table the kernel implements (Chinese Official).
    n_jobs : int or None
        Threads scoring slices of the batch in parallel (the kernel holds no GIL):
        ``None`` lets the function choose (one worker for small inputs, up to every
        core for big ones), ``-1`` allows every core, ``k >= 1`` at most ``k``
        workers; the result does not depend on it.  Here ``None`` (default) takes
        every core for batches of 4096 hands or more, and a thread gets at least 256
        hands.

    Returns
    -------
    BatchScores
        ``total``, ``fans`` (N, 83: fan ids 1..81 and 82 明暗杠; column 0 unused),
        ``meets_minimum``, ``status``.

    Raises
    ------
    RuleError
        A ruleset the kernel cannot score, a context array of the wrong shape or range,
        or a bad ``n_jobs`` (0, below -1, not an int).
    InvalidHandError
        Malformed tiles or melds (shape, counts above 4, an impossible chow, a
        concealed meld that is not a kong).
    """
    rs = _rules.get(ruleset)
    kt = _kernel_table(rs)
    if kt is None:
        raise RuleError(f"score_batch needs the Chinese Official fan table; ruleset {rs.name} "
                        "has another (use score() hand by hand)")
    c = np.asarray(concealed)
    if c.ndim != 2 or c.shape[1] != 34 or not (np.issubdtype(c.dtype, np.integer)
                                                 or c.dtype == np.bool_):
        raise InvalidHandError(f"concealed must be an integer array of shape (N, 34), got "
                               f"{c.dtype} {c.shape}")
    n = c.shape[0]
    if n and (c.min() < 0 or c.max() > 4):
        raise InvalidHandError("concealed counts must be 0..4")
    c = np.ascontiguousarray(c, dtype=np.uint8)
    if melds is None:
        m = np.full((n, 4, 3), -1, dtype=np.int8)
    else:
        m = np.asarray(melds)
        if m.shape != (n, 4, 3) or not np.issubdtype(m.dtype, np.integer):
            raise InvalidHandError(f"melds must be an integer array of shape ({n}, 4, 3), "
                                   f"got {m.dtype} {m.shape}")
        m = np.ascontiguousarray(m, dtype=np.int8)
        kind, tile, conc = m[..., 0], m[..., 1], m[..., 2]
        present = kind >= 0
        after = np.cumsum(~present, axis=1) > 0
        if np.any(present & after):
            raise InvalidHandError("melds must come first in each row (kind -1 after the last)")
        if np.any(kind > 2) or np.any(present & ((tile < 0) | (tile > 33))):
            raise InvalidHandError("meld kinds must be 0 chow, 1 pung, 2 kong and tiles 0..33")
        if np.any(present & (kind == 0) & ((tile > 26) | (tile % 9 > 6))):
            raise InvalidHandError("a chow starts on a suited tile of rank 1..7")
        if np.any(present & ((conc < 0) | (conc > 1) | ((conc == 1) & (kind != 2)))):
            raise InvalidHandError("only a kong can be concealed (flag 0 or 1)")
        allc = c.astype(np.int64)
        rows = np.nonzero(present)
        t = tile[rows].astype(np.int64)
        k = kind[rows]
        for off in range(3):
            sel = k == 0
            np.add.at(allc, (rows[0][sel], t[sel] + off), 1)
        sel = k > 0
        np.add.at(allc, (rows[0][sel], t[sel]), np.where(k[sel] == 2, 4, 3))
        if n and allc.max() > 4:
            raise InvalidHandError("more than 4 copies of a kind (concealed + melds)")
    ctx = np.zeros((n, 9), dtype=np.uint8)
    ctx[:, 0] = _column(win_tiles, n, "win_tiles", 0, 33)
    ctx[:, 1] = _column(self_drawn, n, "self_drawn", 0, 1)
    ctx[:, 2] = _column(last_copy, n, "last_copy", 0, 1)
    ctx[:, 3] = _column(kong, n, "kong", 0, 1)
    ctx[:, 4] = _column(last_tile, n, "last_tile", 0, 1)
    ctx[:, 5] = _column(seat_wind, n, "seat_wind", 0, 3)
    ctx[:, 6] = _column(prevalent_wind, n, "prevalent_wind", 0, 3)
    ctx[:, 7] = _column(flowers, n, "flowers", 0, rs.flowers)
    fans = np.empty((n, _kfans.N_FAN_IDS), dtype=np.uint8)
    total = np.empty(n, dtype=np.int32)
    total_min = np.empty(n, dtype=np.int32)
    status = np.empty(n, dtype=np.int8)
    n_jobs = min(resolve_n_jobs(n_jobs, auto=None if n >= 4096 else 1), max(1, n // 256))
    if n_jobs == 1:
        _kfans.score_batch(kt, c, m, ctx, fans, total, total_min, status)
    else:
        bounds = np.linspace(0, n, n_jobs + 1).astype(int)
        with ThreadPoolExecutor(n_jobs) as pool:
            jobs = [pool.submit(_kfans.score_batch, kt, c[a:b], m[a:b], ctx[a:b], fans[a:b],
                                total[a:b], total_min[a:b], status[a:b])
                    for a, b in zip(bounds[:-1], bounds[1:])]
            for j in jobs:
                j.result()
    counted = total if rs.flowers_count_toward_minimum else total_min
    return BatchScores(total, fans, _meets_minimum(rs, counted) & (status == 0), status)

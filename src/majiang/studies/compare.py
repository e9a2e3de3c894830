"""Rule-variant studies: the same bots under several rulesets, summarised with intervals.

:func:`compare_rulesets` plays ``n_hands`` hands under each ruleset with
:func:`majiang.simulate` and returns one tidy table of metrics with 95 % confidence
intervals; :func:`summarize_hands` computes the same rows from one table of
:func:`~majiang.simulate` (e.g. one read back from Parquet), and
:func:`draws_distribution` gives the whole distribution of hand length.

Units and independence
----------------------
Hands are independent (each is dealt from its own seeded stream), so every
*per-hand* metric is an average over independent hands.  *Per-win* metrics (fan
shares, self-draw share, mean fan total) average over wins; under a ruleset where
one hand can have several wins — several winners off one discard (一炮多响), 血战到底
(sichuan: up to three seats win in turn), 血流成河 (sichuan_xueliu: a seat may win
again and again) — the wins of one hand are not independent, so those intervals
treat the hand as the sampling unit (a ratio estimator clustered by hand, below).

Interval methods (``method`` column; ``confidence`` 0.95 by default; the functions are
in :mod:`majiang.studies.intervals`)
--------------------------------------------------------------------
``wilson``
    Wilson score interval of a binomial proportion (successes / trials), trials
    independent: hands, or wins when no hand has more than one win.
``wilson-clustered``
    A per-win proportion when some hand has several wins: the ratio estimator
    p = Σ y_h / Σ m_h over hands h (y_h wins with the property, m_h wins in the
    hand), its linearised variance n/(n−1) · Σ (y_h − p m_h)² / (Σ m_h)², the design
    effect deff = that variance / (p(1−p)/Σ m_h), floored at 1 (never narrower than
    treating wins as independent), and the Wilson interval at the effective size
    Σ m_h / deff.
``t``
    Student t interval of a mean of independent values (n − 1 degrees of freedom).
``t-clustered``
    A per-win mean when some hand has several wins: the ratio Σ s_h / Σ m_h with the
    linearised variance above and a t quantile on (hands − 1) degrees of freedom.
``order-statistic``
    A distribution-free interval of a quantile: the order statistics X_(l), X_(u)
    with l, u from the Binomial(n, q) distribution so that P(l ≤ B < u) ≥ 95 %;
    valid (conservative) for discrete values such as draws.  The value is the
    sample quantile X_(⌈nq⌉) (numpy's ``inverted_cdf``).
``log-asymptotic``
    The variance s² (ddof 1) with a large-sample, distribution-free interval on
    the log scale: Var(s²) ≈ (m₄ − s⁴ (n−3)/(n−1)) / n (m₄ the fourth central
    moment), s² · exp(± z · √Var(s²) / s²).  Score deltas are far from normal, so
    the chi-square interval (exact only for normal data) is not used; this one
    needs a few hundred hands to be accurate.

Rows (``metric``, ``key``)
--------------------------
Seats are counted from the dealer in turn order: ``key`` ``"dealer"``,
``"dealer+1"`` (the dealer's next player, 下家), ``"dealer+2"``, ``"dealer+3"``.

================================  ===========  =========================================
metric                            key          value (n)
================================  ===========  =========================================
``win_rate``                      seat         share of hands the seat won at least once
                                               (hands); under 血战/血流 several seats win
                                               one hand, so the seats' rates can add to
                                               more than 1 − draw_rate
``dealer_advantage``              ``""``       dealer win rate − mean win rate of the
                                               other seats: the mean over hands of
                                               won(dealer) − mean(won(others)) (hands)
``self_draw_share``               ``""``       share of wins by self-draw, 杠上开花 included (wins)
``draw_rate``                     ``""``       share of hands with no winner, 荒庄 (hands)
``wall_end_rate``                 ``""``       share of hands that ended with the wall
                                               exhausted (``end == "wall"``); differs from
                                               draw_rate under 血战 (wins, then the wall
                                               ran out) (hands)
``wins_per_hand``                 ``""``       mean number of wins in a hand (hands)
``mean_draws``                    ``""``       mean tiles drawn from the wall in a hand,
                                               replacement draws included: the hand's
                                               length (hands)
``draws_quantile``                ``q10`` …    quantiles of that length (hands)
``mean_fan_total``                ``""``       mean fan total of a win (wins)
``mean_points``                   ``""``       mean points of a win, after the ruleset's
                                               scoring rule (wins)
``fan_share``                     fan          share of wins that scored the fan at least
                                               once, for every fan of the ruleset's table
                                               (0 when never seen) and every other name the
                                               engine reported; key ``"<Chinese> <English>"``
                                               (wins)
``score_mean``                    seat         mean score change of the seat in a hand
                                               (hands)
``score_var``                     seat         variance of that score change (hands)
================================  ===========  =========================================

"Win rate" is thus always per hand and per seat; "per win" always means per
winning event (an entry of the ``winners`` list), so a seat that wins three times in
one 血流成河 hand adds three wins.
"""
from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from .._parallel import int_seed, resolve_n_jobs
from ..errors import MahjongError, RuleError
from ..game.runner import SELF_DRAWN
# the interval functions live in .intervals; the public ones are re-exported here
from .intervals import (_check_confidence, clustered_mean, clustered_share, mean_interval,
                        quantile_interval, t_critical, variance_interval, wilson_interval)

__all__ = ["compare_rulesets", "summarize_hands", "draws_distribution", "METRICS",
           "METRIC_LABELS", "QUANTILES", "same_fan_keys", "COLUMNS", "wilson_interval", "t_critical", "mean_interval",
           "quantile_interval", "variance_interval", "clustered_share", "clustered_mean",
           "seat_labels"]

COLUMNS = ("ruleset", "metric", "key", "value", "lo", "hi", "n", "method")
"""Columns of the tidy tables of :func:`compare_rulesets` and :func:`summarize_hands`."""

METRICS = ("win_rate", "dealer_advantage", "self_draw_share", "draw_rate", "wall_end_rate",
           "wins_per_hand", "mean_draws", "draws_quantile", "mean_fan_total", "mean_points",
           "fan_share", "score_mean", "score_var")
"""The ``metric`` values, in table order (see the module docstring)."""

METRIC_LABELS = {
    "win_rate": ("win rate", "win rate by seat (from the dealer)"),
    "dealer_advantage": ("dealer advantage", "dealer advantage"),
    "self_draw_share": ("self-draw share", "self-draw share of wins"),
    "draw_rate": ("draw rate (荒庄)", "drawn hands (荒庄)"),
    "wall_end_rate": ("wall end rate", "hands ending at the wall"),
    "wins_per_hand": ("wins per hand", "wins per hand"),
    "mean_draws": ("mean draws", "mean wall draws per hand"),
    "draws_quantile": ("draws quantile", "wall draws: quantiles"),
    "mean_fan_total": ("mean total", "mean total of a win (fan, points or tai: each "
                       "ruleset's unit)"),
    "mean_points": ("mean points", "mean points of a win"),
    "fan_share": ("fan share", "share of wins with the fan"),
    "score_mean": ("mean score", "mean score change by seat"),
    "score_var": ("score variance", "score variance by seat")}
"""Per :data:`METRICS` value, ``(row label, panel title)``: the short label of a text
table row (``majiang study``) and the longer title of a plot panel
(:func:`majiang.plots.compare`)."""

QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)
"""Default quantiles of hand length (``draws_quantile`` rows ``q10`` … ``q90``)."""

_NEED = ("dealer", "winners", "win_types", "fans", "fan_totals", "points", "score_deltas",
         "draws", "end")


# ---------------------------------------------------------------- one table

def seat_labels(players: int) -> list[str]:
    """``["dealer", "dealer+1", ...]``: keys of the per-seat rows, seats counted from
    the dealer in turn order."""
    return ["dealer"] + [f"dealer+{i}" for i in range(1, int(players))]


def _resolve_table_ruleset(table, ruleset):
    from .. import rules
    if ruleset is not None:
        return rules.get(ruleset)
    if len(table) and "ruleset" in table.columns:
        name = table["ruleset"].iloc[0]
        try:
            return rules.get(name)
        except RuleError:
            return None
    return None


def same_fan_keys(keys: Any) -> Any:
    """One key per fan across rulesets: each ``fan_share`` key ``"<Chinese> <English>"``
    mapped to the first key seen with the same Chinese name (so 自摸 of two rulesets
    whose English names differ is one fan).  `keys` a pandas Series; returns a Series
    of str, same index."""
    keys = keys.astype(str)
    ident = keys.str.split(" ", n=1).str[0]
    first = dict(zip(ident[::-1], keys[::-1]))
    return ident.map(first)


def _fan_labels(rs) -> dict[str, str]:
    if rs is None:
        return {}
    return {f.chinese: f"{f.chinese} {f.english}" for f in rs.fans}


def summarize_hands(table: Any, *, ruleset: Any = None, label: str | None = None,
                    quantiles: Iterable[float] = QUANTILES, confidence: float = 0.95):
    """The study metrics of one :func:`majiang.simulate` table, with intervals.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per hand, the columns of :data:`majiang.game.runner.COLUMNS` (at
        least ``dealer, winners, win_types, fans, fan_totals, points, score_deltas,
        draws, end``), all hands under one ruleset.
    ruleset : str or Ruleset, optional
        Names the fans (``"<Chinese> <English>"`` keys, zero rows for fans never
        seen) and the number of players; default: the registered ruleset named in
        the table's ``ruleset`` column, if any (else seats from ``score_deltas``
        and fan keys as the engine wrote them).
    label : str, optional
        The ``ruleset`` column of the result (default the ruleset's name).
    quantiles : iterable of float in (0, 1)
        Levels of the ``draws_quantile`` rows (key ``q10`` for 0.1, ``q2.5`` for
        0.025).
    confidence : float

    Returns
    -------
    pandas.DataFrame
        Columns :data:`COLUMNS`: ``ruleset`` (str), ``metric`` (str, one of
        :data:`METRICS`), ``key`` (str: seat, fan, quantile or ``""``), ``value``,
        ``lo``, ``hi`` (float64; NaN where undefined, e.g. per-win rows without a
        win), ``n`` (int64: the hands or wins behind the value), ``method`` (str, the
        interval's method).  Rows and methods: module docstring.

    Raises
    ------
    MahjongError
        `table` is not a simulate table (missing columns) or is empty.
    RuleError
        Bad `ruleset`, `quantiles` or `confidence`.
    """
    import pandas as pd

    confidence = _check_confidence(confidence)
    cols = getattr(table, "columns", None)
    if cols is None:
        raise MahjongError("summarize_hands needs the DataFrame of majiang.simulate, got "
                           f"{type(table).__name__}")
    missing = [c for c in _NEED if c not in cols]
    if missing:
        raise MahjongError(f"summarize_hands needs a majiang.simulate table; missing "
                           f"column(s) {', '.join(missing)}")
    n = len(table)
    if n == 0:
        raise MahjongError("summarize_hands needs at least one hand; the table is empty")
    qs = _check_quantiles(quantiles)
    rs = _resolve_table_ruleset(table, ruleset)
    if label is None:
        label = rs.name if rs is not None else str(table["ruleset"].iloc[0]) \
            if "ruleset" in cols else "?"
    try:
        deltas = np.array([np.asarray(d, dtype=float) for d in table["score_deltas"]])
    except (TypeError, ValueError):
        raise MahjongError("score_deltas must hold one number per seat in every hand") \
            from None
    P = int(rs.players) if rs is not None else int(deltas.shape[-1])
    if deltas.ndim != 2 or deltas.shape[1] != P:
        raise MahjongError(f"score_deltas must hold {P} values per hand (one per seat)")
    dealer = table["dealer"].to_numpy(dtype=np.int64)
    winners = table["winners"].tolist()
    m = np.fromiter((len(w) for w in winners), dtype=np.int64, count=n)
    W = int(m.sum())
    hand_of = np.repeat(np.arange(n), m)
    seat = np.fromiter((int(s) for w in winners for s in w), dtype=np.int64, count=W)
    rel = (seat - dealer[hand_of]) % P
    won = np.zeros((n, P), dtype=bool)
    won[hand_of, rel] = True
    selfdraw = np.fromiter((t in SELF_DRAWN for ts in table["win_types"] for t in ts),
                           dtype=bool, count=W)
    totals = np.fromiter((float(t) for ts in table["fan_totals"] for t in ts), dtype=float,
                         count=W)
    points = np.fromiter((float(t) for ts in table["points"] for t in ts), dtype=float,
                         count=W)
    draws = table["draws"].to_numpy(dtype=float)
    wall_end = (table["end"] == "wall").to_numpy()
    clustered = W > 0 and int(m.max()) > 1
    z_rows: list[tuple] = []

    def row(metric, key, value, lo, hi, count, method):
        z_rows.append((label, metric, key, float(value), float(lo), float(hi), int(count),
                       method))

    def share_per_hand(metric, key, hits):
        k = int(np.sum(hits))
        lo, hi = wilson_interval(k, n, confidence)
        row(metric, key, k / n, lo, hi, n, "wilson")

    def mean_per_hand(metric, key, x):
        v, lo, hi, c = mean_interval(x, confidence)
        row(metric, key, v, lo, hi, c, "t")

    def share_per_win(metric, key, hit):
        """hit: bool per win."""
        if not clustered:
            k = int(np.sum(hit))
            lo, hi = wilson_interval(k, W, confidence)
            row(metric, key, k / W if W else math.nan, lo, hi, W, "wilson")
            return
        y = np.bincount(hand_of, weights=hit.astype(float), minlength=n)
        p, lo, hi, _ = clustered_share([y.sum()], [np.sum(y * y)], [np.sum(y * m)], m,
                                       confidence)
        row(metric, key, p[0], lo[0], hi[0], W, "wilson-clustered")

    def mean_per_win(metric, key, x):
        if not clustered:
            v, lo, hi, c = mean_interval(x, confidence)
            row(metric, key, v, lo, hi, c, "t")
            return
        s = np.bincount(hand_of, weights=x, minlength=n)
        v, lo, hi, method = clustered_mean(s, m, confidence)
        row(metric, key, v, lo, hi, W, method)

    seats = seat_labels(P)
    for r, key in enumerate(seats):
        share_per_hand("win_rate", key, won[:, r])
    adv = won[:, 0].astype(float) - won[:, 1:].mean(axis=1)
    mean_per_hand("dealer_advantage", "", adv)
    share_per_win("self_draw_share", "", selfdraw)
    share_per_hand("draw_rate", "", m == 0)
    share_per_hand("wall_end_rate", "", wall_end)
    mean_per_hand("wins_per_hand", "", m.astype(float))
    mean_per_hand("mean_draws", "", draws)
    for q in qs:
        v, lo, hi, c = quantile_interval(draws, q, confidence)
        row("draws_quantile", _q_key(q), v, lo, hi, c, "order-statistic")
    mean_per_win("mean_fan_total", "", totals)
    mean_per_win("mean_points", "", points)

    # fans: the set of fan names of each win
    names_of = _fan_labels(rs)
    win_ids: list[int] = []
    fan_names: list[str] = []
    w = 0
    for hand_fans in table["fans"]:
        for per_winner in hand_fans:
            for name in {str(f[0]) for f in per_winner}:
                win_ids.append(w)
                fan_names.append(name)
            w += 1
    if w != W:
        raise MahjongError("fans must hold one list per winner (as winners)")
    order = list(names_of) + sorted(set(fan_names) - set(names_of))
    code = {name: i for i, name in enumerate(order)}
    F = len(order)
    if F:
        fc = np.fromiter((code[x] for x in fan_names), dtype=np.int64, count=len(fan_names))
        wi = np.asarray(win_ids, dtype=np.int64)
        hits = np.bincount(fc, minlength=F)
        if not clustered:
            lo, hi = wilson_interval(hits, W, confidence)
            with np.errstate(invalid="ignore", divide="ignore"):
                p = hits / W if W else np.full(F, np.nan)
            method = "wilson"
        else:
            hf, cnt = np.unique(hand_of[wi] * F + fc, return_counts=True)
            h, f = hf // F, hf % F
            y1 = np.bincount(f, weights=cnt, minlength=F)
            y2 = np.bincount(f, weights=cnt.astype(float) ** 2, minlength=F)
            ym = np.bincount(f, weights=cnt * m[h], minlength=F)
            p, lo, hi, _ = clustered_share(y1, y2, ym, m, confidence)
            method = "wilson-clustered"
        fan_rows = sorted(range(F), key=lambda i: (-hits[i], order[i]))
        for i in fan_rows:
            row("fan_share", names_of.get(order[i], order[i]), p[i], lo[i], hi[i], W, method)

    for r, key in enumerate(seats):
        x = deltas[np.arange(n), (dealer + r) % P]
        mean_per_hand("score_mean", key, x)
        v, lo, hi, c = variance_interval(x, confidence)
        row("score_var", key, v, lo, hi, c, "log-asymptotic")
    out = pd.DataFrame(z_rows, columns=list(COLUMNS))
    out["n"] = out["n"].astype(np.int64)
    return out


def _check_quantiles(quantiles) -> tuple[float, ...]:
    try:
        qs = tuple(float(q) for q in quantiles)
    except (TypeError, ValueError):
        raise RuleError(f"quantiles must be numbers between 0 and 1, got {quantiles!r}") \
            from None
    bad = [q for q in qs if not 0 < q < 1]
    if bad:
        raise RuleError(f"quantile levels must lie strictly between 0 and 1, got {bad}")
    return qs


def _q_key(q: float) -> str:
    return "q" + f"{100 * q:.6g}"


def draws_distribution(table: Any, *, label: str | None = None, confidence: float = 0.95):
    """The distribution of hand length (wall draws per hand) of a simulate table.

    Returns
    -------
    pandas.DataFrame
        Long table, one row per observed number of draws: ``ruleset`` (str),
        ``draws`` (int64), ``hands`` (int64), ``share`` (float64, of all hands) with its
        Wilson interval ``lo``, ``hi``.  Concatenate the tables of several rulesets
        for a tidy comparison (``pandas.concat``).

    Raises
    ------
    MahjongError
        Not a simulate table (no ``draws`` column) or an empty one.
    """
    import pandas as pd

    confidence = _check_confidence(confidence)
    cols = getattr(table, "columns", None)
    if cols is None or "draws" not in cols:
        raise MahjongError("draws_distribution needs the DataFrame of majiang.simulate "
                           "(with a draws column)")
    n = len(table)
    if n == 0:
        raise MahjongError("draws_distribution needs at least one hand; the table is empty")
    if label is None:
        label = str(table["ruleset"].iloc[0]) if "ruleset" in cols else "?"
    values, counts = np.unique(table["draws"].to_numpy(dtype=np.int64), return_counts=True)
    lo, hi = wilson_interval(counts, n, confidence)
    return pd.DataFrame({"ruleset": label, "draws": values.astype(np.int64),
                         "hands": counts.astype(np.int64), "share": counts / n,
                         "lo": lo, "hi": hi})


# ---------------------------------------------------------------- several rulesets

def _one_spec(label_hint: str | None, spec: Any):
    """``(label, Ruleset, run options)`` of one entry of `rulesets`."""
    from .. import rules
    from ..rules.base import Ruleset

    options: dict = {}
    if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[1], Mapping):
        spec, options = spec[0], dict(spec[1])
    if isinstance(spec, Path):
        spec = str(spec)
    if not isinstance(spec, (str, Ruleset)):
        raise RuleError("each ruleset must be a registered name, a Ruleset or a house-rule "
                        f".toml path, got {type(spec).__name__}: {spec!r}")
    if isinstance(spec, str) and not spec.strip():
        raise RuleError("empty ruleset name")
    rs = rules.get(spec)
    label = label_hint if label_hint is not None else rs.name
    if not isinstance(label, str) or not label.strip():
        raise RuleError(f"ruleset labels must be non-empty strings, got {label!r}")
    return label, rs, options


def _specs(rulesets: Any) -> list[tuple[str, Any, dict]]:
    from ..rules.base import Ruleset

    if isinstance(rulesets, (str, Path, Ruleset)):
        rulesets = [rulesets]
    if isinstance(rulesets, Mapping):
        items = [(str(k) if not isinstance(k, str) else k, v) for k, v in rulesets.items()]
    else:
        try:
            items = [(None, v) for v in rulesets]
        except TypeError:
            raise RuleError("rulesets must be a list of names, Ruleset objects or house-rule "
                            f".toml paths (or a dict label -> ruleset), got "
                            f"{type(rulesets).__name__}") from None
    if not items:
        raise RuleError("compare_rulesets needs at least one ruleset; got an empty list")
    specs = [_one_spec(k, v) for k, v in items]
    seen: dict[str, int] = {}
    for label, _, _ in specs:
        seen[label] = seen.get(label, 0) + 1
    dup = sorted(k for k, c in seen.items() if c > 1)
    if dup:
        raise RuleError(f"duplicate ruleset name(s) {', '.join(map(repr, dup))}: each ruleset "
                        "in a comparison needs its own name; pass a dict {label: ruleset} "
                        "or give the variants distinct names")
    return specs


def _out_dir(out: Any, label: str) -> str:
    from ..game.store import make_dir     # DIR and its missing parents are made
    safe = re.sub(r"[^\w.+-]+", "_", label).strip("._") or "ruleset"
    return str(Path(make_dir(out)) / safe)


STUDY_PLAYERS = "expert"
"""The players of :func:`compare_rulesets` when none are given: the ``"expert"`` in every
seat, whose hands come closest to real play (``bench/bench_realism.py``)."""


def compare_rulesets(rulesets: Any, n_hands: int, *, players: Any = None, seed: Any = 0,
                     n_jobs: int | None = -1, quantiles: Iterable[float] = QUANTILES,
                     confidence: float = 0.95, **run_options: Any):
    """Play the same bots under several rulesets and compare them, with intervals.

    Each ruleset is played with :func:`majiang.simulate` (``n_hands`` hands, the
    same `players` and `seed` for every ruleset, so a ruleset's rows do not depend on
    which others are compared) and summarised by :func:`summarize_hands`.

    Parameters
    ----------
    rulesets : sequence or mapping
        Each a registered name (``"mcr"``), a :class:`~majiang.rules.Ruleset` or a
        house-rule ``.toml`` path (str or Path; loaded by :func:`majiang.rules.load`,
        as ``majiang rules`` and the other commands do), labelled by the ruleset's
        name.  A mapping ``{label: ruleset}`` chooses the labels; a value may also be
        ``(ruleset, {run options})`` for options of that ruleset alone (e.g.
        ``{"sichuan": "sichuan", "sichuan 换三张": ("sichuan", {"exchange3": True})}``).
        One name / Ruleset alone is a list of one.
    n_hands : int
        Hands per ruleset, 1 or more.
    players : str or sequence, optional
        As :func:`majiang.simulate`; default :data:`STUDY_PLAYERS`, the ``"expert"`` in
        every seat (plays for the hands that win and pay under each ruleset; the
        efficiency bots, ``players="efficiency"``, are about ten times faster but make
        four times the drawn hands of real players under Chinese Official rules).
    seed : int, SeedSequence, numpy Generator or None
        A non-negative int, a ``numpy.random.SeedSequence`` or
        ``numpy.random.Generator`` (default ``0``: the same answer every call;
        ``None``: fresh entropy, a different answer every call).  Turned into one
        int run seed before the first ruleset (as :func:`majiang.simulate` does), so
        every ruleset plays the same walls.
    n_jobs : int or None
        ``None`` lets the function choose (one worker for small inputs, up to every
        core for big ones), ``-1`` allows every core, ``k >= 1`` at most ``k``
        workers; the result does not depend on it.  Passed to
        :func:`majiang.simulate` (default ``-1``, as there).
    quantiles, confidence
        As :func:`summarize_hands`.
    **run_options
        Passed to :func:`majiang.simulate` (``exchange3``, and the run
        options it has: executor, chunk size, progress ...).  ``out=DIR`` writes each
        ruleset's hands under ``DIR/<label>`` (label with characters other than
        letters, digits, ``._+-`` replaced by ``_``).

    Returns
    -------
    pandas.DataFrame
        The tidy table of :func:`summarize_hands` for each ruleset, concatenated in
        the given order: columns :data:`COLUMNS` (``ruleset``, ``metric``, ``key``,
        ``value``, ``lo``, ``hi``, ``n``, ``method``).  Metrics, "win rate" and "per
        win" under rulesets with several wins per hand, and the interval methods: the
        module docstring of :mod:`majiang.studies.compare`.  For the whole
        distribution of hand length use :func:`draws_distribution` on a simulate
        table.  ``attrs["players"]``: who played, ``{label: [name per seat]}``.

    Raises
    ------
    RuleError
        Empty `rulesets`; an unknown ruleset name (the message lists the available
        ones) or an unreadable / invalid house-rule file; a ruleset given twice under
        one name; ``n_hands`` not a positive int; bad `players`, `seed` or run options
        (from :func:`majiang.simulate`, prefixed with the ruleset's label).

    Examples
    --------
    >>> import majiang
    >>> t = majiang.compare_rulesets(["mcr", "guangdong"], 20, seed=1)
    >>> sorted(set(t["ruleset"]))
    ['guangdong', 'mcr']
    >>> t.query("metric == 'draw_rate'")[["ruleset", "value", "lo", "hi", "n"]].shape
    (2, 5)
    """
    import pandas as pd

    if isinstance(n_hands, bool) or not isinstance(n_hands, (int, np.integer)) or n_hands < 1:
        raise RuleError(f"n_hands must be a positive int (hands per ruleset), got {n_hands!r}")
    confidence = _check_confidence(confidence)
    qs = _check_quantiles(quantiles)
    resolve_n_jobs(n_jobs)            # refused before any ruleset is played
    seed = int_seed(seed)             # once: a Generator advances, None is drawn once
    specs = _specs(rulesets)
    from ..game import simulate

    if players is None:
        players = STUDY_PLAYERS
    parts = []
    who = {}
    for label, rs, own in specs:
        opts = {"n_jobs": n_jobs, **run_options, **own}
        if opts.get("out") is not None:
            opts["out"] = _out_dir(opts["out"], label)
        try:
            table = simulate(rs, int(n_hands), players=players, seed=seed, **opts)
        except RuleError as exc:
            raise RuleError(f"{label}: {exc}") from None
        except TypeError as exc:          # an option simulate does not take
            raise RuleError(f"{label}: bad run option for majiang.simulate: {exc}") from None
        if not isinstance(table, pd.DataFrame):       # e.g. a lazily read Parquet result
            table = table.compute() if hasattr(table, "compute") else pd.DataFrame(table)
        who[label] = list(getattr(table, "attrs", {}).get("players", ()))
        parts.append(summarize_hands(table, ruleset=rs, label=label, quantiles=qs,
                                     confidence=confidence))
    out = pd.concat(parts, ignore_index=True)
    out.attrs["players"] = who            # who played, per ruleset label, seat by seat
    return out

"""The confidence intervals of the rule-variant studies (:mod:`majiang.studies.compare`,
whose module text states which metric takes which): Wilson for proportions, t for means,
ratio estimators clustered by hand, order statistics for quantiles, a log-asymptotic
interval for variances.  Plain functions of arrays, no ruleset."""
from __future__ import annotations

import functools
import math
from statistics import NormalDist
from typing import Any

import numpy as np

from ..errors import RuleError

__all__ = ["wilson_interval", "t_critical", "mean_interval", "clustered_mean",
           "clustered_share", "quantile_interval", "variance_interval"]


def _z(confidence: float) -> float:
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def _check_confidence(confidence: Any) -> float:
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) \
            or not 0 < confidence < 1:
        raise RuleError(f"confidence must be a number between 0 and 1, got {confidence!r}")
    return float(confidence)


def wilson_interval(successes: Any, trials: Any, confidence: float = 0.95):
    """Wilson score interval of a binomial proportion.

    Parameters
    ----------
    successes, trials : array_like of float
        Broadcast together; ``trials`` may be an effective (non-integer) size.
    confidence : float

    Returns
    -------
    (lo, hi) : tuple of numpy float64 arrays (0-d for scalar input)
        NaN where ``trials`` is 0.
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    z = _z(confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z / denom * np.sqrt(np.maximum(p * (1 - p) / n + z * z / (4 * n * n), 0))
        lo = np.where(n > 0, np.clip(centre - half, 0, 1), np.nan)
        hi = np.where(n > 0, np.clip(centre + half, 0, 1), np.nan)
    # p = 0 or 1: the bound at the edge is exact (rounding can leave 1e-17)
    lo = np.where((n > 0) & (k <= 0), 0.0, lo)
    hi = np.where((n > 0) & (k >= n), 1.0, hi)
    return lo, hi


def _t_abs_cdf(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t with integer `df` (Abramowitz & Stegun 26.7.3-4)."""
    theta = math.atan(t / math.sqrt(df))
    s, c2 = math.sin(theta), math.cos(theta) ** 2
    if df % 2 == 0:
        j = np.arange(1, df // 2)
        coef = np.cumprod((2 * j - 1) / (2 * j)) if j.size else np.empty(0)
        return s * (1 + float(np.sum(coef * c2 ** j)))
    if df == 1:
        return 2 * theta / math.pi
    j = np.arange(1, (df - 1) // 2)
    coef = np.cumprod((2 * j) / (2 * j + 1)) if j.size else np.empty(0)
    return 2 / math.pi * (theta + s * math.cos(theta) * (1 + float(np.sum(coef * c2 ** j))))


def t_critical(confidence: float, df: int) -> float:
    """The two-sided critical value t with P(|T| <= t) = `confidence`, Student's t
    with `df` degrees of freedom (``scipy.stats.t.ppf(0.5 + confidence / 2, df)``).

    Exact (the closed-form t distribution function for integer df, inverted by
    bisection) up to df = 1000; beyond, the Cornish-Fisher expansion in 1/df to the
    fourth order (error below 1e-12 there).

    Raises
    ------
    RuleError
        `df` < 1 or `confidence` outside (0, 1).
    """
    confidence = _check_confidence(confidence)
    if isinstance(df, bool) or not isinstance(df, (int, np.integer)) or df < 1:
        raise RuleError(f"degrees of freedom must be a positive int, got {df!r}")
    return _t_critical(confidence, int(df))


@functools.lru_cache(maxsize=1024)
def _t_critical(confidence: float, df: int) -> float:
    if df > 1000:
        z = _z(confidence)
        v = float(df)
        return (z + (z ** 3 + z) / (4 * v)
                + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * v ** 2)
                + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * v ** 3)
                + (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z)
                / (92160 * v ** 4))
    lo, hi = 0.0, math.pi / 2          # bisection on theta = atan(t / sqrt(df))
    for _ in range(200):
        mid = (lo + hi) / 2
        if _t_abs_cdf(math.sqrt(df) * math.tan(mid), df) < confidence:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-16:
            break
    return math.sqrt(df) * math.tan((lo + hi) / 2)


def mean_interval(values: Any, confidence: float = 0.95) -> tuple[float, float, float, int]:
    """``(mean, lo, hi, n)``: the Student t interval of the mean of independent values
    (NaN bounds for fewer than 2 values, NaN mean for none)."""
    x = np.asarray(values, dtype=float).ravel()
    n = x.size
    if n == 0:
        return math.nan, math.nan, math.nan, 0
    m = float(x.mean())
    if n < 2:
        return m, math.nan, math.nan, n
    half = t_critical(confidence, n - 1) * float(x.std(ddof=1)) / math.sqrt(n)
    return m, m - half, m + half, n


def clustered_mean(sums: Any, counts: Any, confidence: float = 0.95):
    """``(mean, lo, hi, method)`` of a per-win mean from per-hand sums.

    ``sums[h]`` is the sum of the values of hand h's wins, ``counts[h]`` its number
    of wins (0 allowed).  The mean is Σ sums / Σ counts, the interval the t-clustered
    one of the module docstring; NaN when there is no win.  Only for hands with
    several wins; with at most one win per hand use :func:`mean_interval` on the
    wins' values (what :func:`summarize_hands` does).
    """
    s = np.asarray(sums, dtype=float)
    m = np.asarray(counts, dtype=float)
    M = float(m.sum())
    n = s.size
    if M == 0:
        return math.nan, math.nan, math.nan, "t-clustered"
    r = float(s.sum()) / M
    if n < 2:
        return r, math.nan, math.nan, "t-clustered"
    var = n / (n - 1) * float(np.sum((s - r * m) ** 2)) / (M * M)
    half = t_critical(confidence, n - 1) * math.sqrt(var)
    return r, r - half, r + half, "t-clustered"


def clustered_share(y_sum: Any, y_sq: Any, y_m: Any, counts: Any, confidence: float = 0.95):
    """Per-win proportions clustered by hand (vectorised over properties).

    Parameters
    ----------
    y_sum, y_sq, y_m : array_like, shape (F,)
        For each of F properties (e.g. fans): Σ_h y_h, Σ_h y_h² and Σ_h y_h m_h over
        hands, y_h the wins of hand h with the property.
    counts : array_like, shape (H,)
        m_h, the wins of each hand (all H hands, those without a win included).

    Returns
    -------
    (p, lo, hi, n_eff) : numpy float64 arrays of shape (F,)
        The wilson-clustered interval of the module docstring.
    """
    y1 = np.asarray(y_sum, dtype=float)
    y2 = np.asarray(y_sq, dtype=float)
    ym = np.asarray(y_m, dtype=float)
    m = np.asarray(counts, dtype=float)
    M, M2, H = float(m.sum()), float(np.sum(m * m)), m.size
    if M == 0:
        nan = np.full(y1.shape, np.nan)
        return nan, nan, nan, np.zeros(y1.shape)
    p = y1 / M
    ss = np.maximum(y2 - 2 * p * ym + p * p * M2, 0.0)      # Σ (y_h − p m_h)²
    var_c = ss * (H / (H - 1) if H > 1 else 1.0) / (M * M)
    var_b = p * (1 - p) / M
    with np.errstate(divide="ignore", invalid="ignore"):
        deff = np.where(var_b > 0, np.maximum(var_c / var_b, 1.0), 1.0)
    n_eff = M / deff
    lo, hi = wilson_interval(p * n_eff, n_eff, confidence)
    return p, lo, hi, n_eff


def _binom_cdf(n: int, q: float) -> tuple[int, np.ndarray]:
    """``(k0, cdf)``: P(B <= k) for k = k0 .. k0 + len(cdf) - 1, B ~ Binomial(n, q),
    over a window holding all but ~1e-30 of the mass (P(B < k0) below that)."""
    if q <= 0 or q >= 1:
        raise RuleError(f"quantile levels must lie strictly between 0 and 1, got {q!r}")
    sd = math.sqrt(n * q * (1 - q))
    a = max(0, int(n * q - 12 * sd) - 2)
    b = min(n, int(n * q + 12 * sd) + 2)
    k = np.arange(a, b + 1, dtype=float)
    logp = (math.lgamma(n + 1) - np.array([math.lgamma(v + 1) for v in k])
            - np.array([math.lgamma(n - v + 1) for v in k])
            + k * math.log(q) + (n - k) * math.log1p(-q))
    pmf = np.exp(logp)
    return a, np.cumsum(pmf)


def quantile_interval(values: Any, q: float, confidence: float = 0.95):
    """``(value, lo, hi, n)``: the sample q-quantile X_(⌈nq⌉) and the distribution-free
    order-statistic interval [X_(l), X_(u)] with P(l <= B < u) >= `confidence`,
    B ~ Binomial(n, q) (l, u clipped to 1..n for small n)."""
    x = np.sort(np.asarray(values, dtype=float).ravel())
    n = x.size
    if n == 0:
        return math.nan, math.nan, math.nan, 0
    alpha = 1 - confidence
    k0, cdf = _binom_cdf(n, q)
    ks = k0 + np.arange(cdf.size)
    below = ks[cdf <= alpha / 2]
    j_lo = int(below.max()) if below.size else k0 - 1        # largest j, F(j) <= alpha/2
    above = ks[cdf >= 1 - alpha / 2]
    j_hi = int(above.min()) if above.size else n            # smallest j, F(j) >= 1 - alpha/2
    l = min(max(j_lo + 1, 1), n)
    u = min(max(j_hi + 1, 1), n)
    value = x[max(math.ceil(n * q), 1) - 1]
    return float(value), float(x[l - 1]), float(x[u - 1]), n


def variance_interval(values: Any, confidence: float = 0.95):
    """``(s2, lo, hi, n)``: the sample variance (ddof 1) and its log-asymptotic,
    distribution-free interval (module docstring); NaN bounds for fewer than 4
    values, ``(0, 0, 0)`` when all values are equal."""
    x = np.asarray(values, dtype=float).ravel()
    n = x.size
    if n < 2:
        return math.nan, math.nan, math.nan, n
    s2 = float(x.var(ddof=1))
    if n < 4:
        return s2, math.nan, math.nan, n
    if s2 == 0:
        return 0.0, 0.0, 0.0, n
    m4 = float(np.mean((x - x.mean()) ** 4))
    v = max(m4 - s2 * s2 * (n - 3) / (n - 1), 0.0) / n
    half = _z(confidence) * math.sqrt(v) / s2
    return s2, s2 * math.exp(-half), s2 * math.exp(half), n

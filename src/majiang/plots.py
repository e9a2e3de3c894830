"""Matplotlib figures for the probability studies.

Every function returns a :class:`matplotlib.figure.Figure` (never calls
``plt.show``); pass ``ax`` to draw into an existing axes instead (its figure is
returned).  Inputs are the results of :mod:`majiang.probability` /
:mod:`majiang.odds`, so computing and drawing stay separate.

Text that the default font cannot draw (Chinese fan names, tile glyphs) is drawn
with a font that matplotlib knows and that has those characters (Noto Sans CJK,
Source Han Sans, WenQuanYi, SimHei ... whatever is installed, see
:func:`fallback_font`); on a machine without one, those characters are left out
(a fan named ``"门前清 Concealed Hand"`` is labelled ``"Concealed Hand"``), so a
figure never shows empty boxes and drawing it never warns about missing glyphs.
"""
from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np

from .errors import MahjongError

__all__ = ["probability_curves", "fan_odds_bars", "shanten_histogram", "fallback_font",
           "CURVE_STYLES", "compare", "fan_heatmap", "COMPARE_METRICS", "arena_intervals",
           "calibration", "danger_strip", "attack_defence"]

# ------------------------------------------------------------------ fonts
_CJK_PROBE = "番门清平和断幺中发白万筒条东南西北"
"""Characters a fallback font must have: those of fan and tile names."""

_CJK_NAME_HINTS = ("cjk", "hei", "song", "ming", "kai", "wenquanyi", "wqy", "source han",
                   "sarasa", "yahei", "pingfang", "hiragino", "droid sans fallback",
                   "noto sans sc", "noto sans tc", "noto serif sc", "fang", "unifont",
                   "gothic", "mincho", "simsun", "ukai", "uming")


@functools.lru_cache(maxsize=None)
def _charmap(path: str) -> frozenset:
    from matplotlib import ft2font
    try:
        return frozenset(ft2font.FT2Font(path).get_charmap())
    except (OSError, RuntimeError, ValueError):
        return frozenset()


@functools.lru_cache(maxsize=None)
def _default_font() -> tuple[str, frozenset]:
    """(path, code points) of the font matplotlib uses for plain text."""
    import warnings

    from matplotlib import font_manager
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        path = font_manager.findfont(font_manager.FontProperties(), fallback_to_default=True)
    return path, _charmap(path)


@functools.lru_cache(maxsize=None)
def fallback_font() -> str | None:
    """Family name of an installed font with Chinese characters, or None.

    Searches the fonts matplotlib's font manager knows (system fonts and those
    registered with ``matplotlib.font_manager.fontManager.addfont``), those whose
    name suggests CJK first, for one holding the characters of fan and tile names.
    The result is cached; call ``fallback_font.cache_clear()`` after adding a font.
    """
    from matplotlib import font_manager

    # "Last Resort" (shipped with matplotlib) maps every code point to a placeholder
    # glyph: a box with the block's name, exactly what the fallback is meant to avoid
    entries = [e for e in font_manager.fontManager.ttflist
               if "last resort" not in e.name.lower()]
    hinted = [e for e in entries if any(h in e.name.lower() for h in _CJK_NAME_HINTS)]
    need = {ord(c) for c in _CJK_PROBE}
    for e in hinted + [e for e in entries if e not in hinted]:
        if need <= _charmap(e.fname):
            return e.name
    return None


def _drawable(text: str) -> tuple[str, dict]:
    """`text` and the Text keyword arguments to draw it without missing glyphs.

    Characters the default font lacks are drawn with :func:`fallback_font` when that
    font has them all; otherwise they are dropped (with the spaces and brackets left
    around them).
    """
    text = str(text)
    _, have = _default_font()
    missing = {c for c in text if not c.isspace() and ord(c) not in have}
    if not missing:
        return text, {}
    family = fallback_font()
    if family is not None:
        from matplotlib import font_manager
        path = font_manager.findfont(font_manager.FontProperties(family=family),
                                     fallback_to_default=False)
        if {ord(c) for c in missing} <= _charmap(path):
            return text, {"fontfamily": [font_manager.FontProperties().get_family()[0],
                                         family]}
    kept = "".join(c for c in text if c not in missing)
    for empty in ("()", "（）", "[]"):
        kept = kept.replace(empty, "")
    return " ".join(kept.split()), {}


def _set_title(obj: Any, text: str, method: str) -> None:
    t, kw = _drawable(text)
    getattr(obj, method)(t, **kw)


def _legend(a: Any) -> None:
    handles, labels = a.get_legend_handles_labels()
    fams = [kw for _, kw in (_drawable(l) for l in labels) if kw]
    prop = {"size": "small"}
    if fams:
        prop["family"] = fams[0]["fontfamily"]
    a.legend(handles, [_drawable(l)[0] for l in labels], prop=prop)


def _need_columns(table: Any, columns: tuple[str, ...], what: str, source: str) -> None:
    cols = getattr(table, "columns", None)
    if cols is None:
        raise MahjongError(f"{what} needs a pandas DataFrame with columns "
                           f"{', '.join(columns)} (from {source}), got {type(table).__name__}")
    missing = [c for c in columns if c not in cols]
    if missing:
        raise MahjongError(f"{what} needs a table with columns {', '.join(columns)} (from "
                           f"{source}); missing {', '.join(missing)}; got columns "
                           f"{', '.join(map(str, cols))}")


# ------------------------------------------------------------------ curve styles
_COLORS = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown",
           "tab:pink", "tab:gray", "tab:olive", "tab:cyan")
_MARKERS = ("o", "s", "^", "D", "v", "P", "X")
_LINESTYLES = ("-", "--", ":", "-.")

CURVE_STYLES: tuple[dict, ...] = tuple(
    {"color": _COLORS[i % len(_COLORS)], "marker": _MARKERS[i % len(_MARKERS)],
     "linestyle": _LINESTYLES[(i // len(_COLORS)) % len(_LINESTYLES)]}
    for i in range(len(_COLORS) * len(_MARKERS)))
"""Style of the i-th curve of :func:`probability_curves`: 10 colours, 7 markers (a
number prime to 10) and 4 line styles, so the first 70 curves differ in colour and
marker pair, and no two of the 70 share all three."""

# Published 13-tile starting-hand distribution (136 tiles; regular, seven pairs with
# distinct pairs, thirteen orphans), in percent.
PUBLISHED_STARTING_SHANTEN = {0: 0.0081, 1: 0.621, 2: 9.35, 3: 36.20, 4: 39.88, 5: 13.10,
                              6: 0.836}


def _figure(ax: Any, ncols: int = 1, size: tuple[float, float] = (6.4, 4.0)):
    from matplotlib.figure import Figure

    if ax is None:
        fig = Figure(figsize=size, layout="constrained")
        axes = fig.subplots(1, ncols, squeeze=False)[0]
        return fig, list(axes)
    axes = list(np.atleast_1d(ax))
    if len(axes) != ncols:
        raise MahjongError(f"ax must hold {ncols} axes, got {len(axes)}")
    return axes[0].figure, axes


def probability_curves(curves: Mapping[str, Any] | Any, *, which: str = "both",
                       ax: Any = None, title: str | None = None):
    """Win and tenpai probability by draw, one line per discard.

    Parameters
    ----------
    curves : Probabilities or mapping of label -> Probabilities
        E.g. the result of :func:`majiang.probability.discard_curves`.
    which : {"both", "win", "tenpai"}
        Panels to draw (two side by side for ``"both"``).
    ax : matplotlib Axes or sequence of Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure
        x: draws 1..T; y: probability (0..1); Monte Carlo curves get a ±2 SE band.
        Each curve has its own colour, marker and line style (:data:`CURVE_STYLES`,
        so more than 10 discards stay apart); curves that would cover each other
        (within 0.004 at every draw) are set side by side, up to ±0.3 draw, and
        exactly equal ones (tied discards) are marked "(tied)" in the legend, so
        none hides another.

    Raises
    ------
    MahjongError
        Unknown ``which``, empty ``curves``, a value that is not a
        :class:`~majiang.probability.Probabilities`, or a wrong number of axes.
    """
    panels = {"both": ("win", "tenpai"), "win": ("win",), "tenpai": ("tenpai",)}
    if which not in panels:
        raise MahjongError(f"which must be 'both', 'win' or 'tenpai', got {which!r}")
    if not isinstance(curves, Mapping):
        curves = {"": curves}
    if not curves:
        raise MahjongError("no curves to plot")
    names = panels[which]
    data = {}
    for label, r in curves.items():
        try:
            data[label] = {w: (np.asarray(getattr(r, f"{w}_curve"), dtype=float),
                               np.asarray(getattr(r, f"{w}_curve_se"), dtype=float))
                           for w in names}
        except (AttributeError, TypeError, ValueError):
            raise MahjongError(
                f"curve {label!r}: expected majiang.probability.Probabilities (with "
                f"win_curve, tenpai_curve and their _se arrays), got {type(r).__name__}"
            ) from None
    fig, axes = _figure(ax, len(names), (11.0, 4.0) if len(names) == 2 else (6.4, 4.0))
    from matplotlib.ticker import MaxNLocator

    labels = list(data)
    for a, what in zip(axes, names):
        ys = [data[lb][what][0] for lb in labels]
        offsets = _tie_offsets(ys, atol=_VISUAL_TIE)     # curves that would cover each other
        tied = _tie_offsets(ys, atol=1e-12) != 0          # exactly equal ones
        for i, label in enumerate(labels):
            y, se = data[label][what]
            x = np.arange(1, y.size + 1) + offsets[i]
            text = f"discard {label}" if label else None
            if text and tied[i]:
                text += " (tied)"
            (line,) = a.plot(x, y, label=text, markersize=4, linewidth=1.3,
                             **CURVE_STYLES[i % len(CURVE_STYLES)])
            if se.any():
                a.fill_between(x, y - 2 * se, y + 2 * se, color=line.get_color(), alpha=0.2)
        a.set_xlabel("draws")
        a.xaxis.set_major_locator(MaxNLocator(integer=True))
        a.set_ylabel(f"P({what} by draw)")
        a.set_ylim(0, 1)
        a.grid(alpha=0.3)
        a.set_title(f"{what} probability")
        if any(labels):
            _legend(a)
    if title:
        _set_title(fig, title, "suptitle")
    return fig


_VISUAL_TIE = 0.004
"""Curves closer than this everywhere (in probability) would be drawn on top of
each other, so they are set side by side."""


def _tie_offsets(ys: list[np.ndarray], step: float = 0.12, atol: float = 1e-12) -> np.ndarray:
    """Horizontal offsets (in draws) that set tied curves side by side: curves whose
    values are all within `atol` of the first of their group are spread by `step`
    around their draw, the group centred; a curve with no twin stays at 0."""
    off = np.zeros(len(ys))
    done = [False] * len(ys)
    for i, y in enumerate(ys):
        if done[i]:
            continue
        group = [j for j in range(i, len(ys)) if not done[j] and ys[j].shape == y.shape
                 and np.allclose(ys[j], y, rtol=0, atol=atol)]
        for j in group:
            done[j] = True
        if len(group) > 1:
            width = min(step, 0.6 / (len(group) - 1))
            for pos, j in enumerate(group):
                off[j] = (pos - (len(group) - 1) / 2) * width
    return off


def fan_odds_bars(odds: Any, *, top: int = 15, ax: Any = None, title: str | None = None):
    """Horizontal bars of P(win with fan) from :func:`majiang.odds.fan_odds`.

    Parameters
    ----------
    odds : pandas.DataFrame
        The long table of ``fan_odds`` (rows with ``category == "fan"`` are drawn).
    top : int
        Most probable fans shown.

    Returns
    -------
    matplotlib.figure.Figure
        Error bars of 2 SE for Monte Carlo tables.  Fan names keep their Chinese
        part only where a font for it is installed (see the module docstring).

    Raises
    ------
    MahjongError
        `odds` is not a table with the columns ``category``, ``name``,
        ``probability`` and ``se``; wrong number of axes.
    """
    _need_columns(odds, ("category", "name", "probability", "se"), "fan_odds_bars",
                  "majiang.odds.fan_odds")
    fans = odds[odds["category"] == "fan"].sort_values("probability", ascending=False).head(top)
    fig, (a,) = _figure(ax, 1, (7.0, 0.35 * max(len(fans), 3) + 1.2))
    y = np.arange(len(fans))[::-1]
    a.barh(y, fans["probability"], xerr=2 * fans["se"] if fans["se"].any() else None,
           color="tab:blue", alpha=0.8)
    shown = [_drawable(n) for n in fans["name"].tolist()]
    a.set_yticks(y, [t for t, _ in shown])
    for tick, (_, kw) in zip(a.get_yticklabels(), shown):
        if kw:
            tick.set_fontfamily(kw["fontfamily"])
    win = odds.loc[odds["category"] == "win", "probability"]
    if len(win):
        a.axvline(float(win.iloc[0]), color="k", ls="--", lw=1, label="P(win)")
        a.legend(fontsize="small")
    a.set_xlabel("P(win with fan within horizon)")
    a.grid(axis="x", alpha=0.3)
    if title:
        _set_title(a, title, "set_title")
    return fig


def published_applies(dist: Any) -> bool:
    """Whether :data:`PUBLISHED_STARTING_SHANTEN` describes the table `dist`: its
    ``attrs`` name the ``"plain"`` ruleset (regular, distinct seven pairs, thirteen
    orphans), 13-tile hands and a 136-tile wall."""
    attrs = getattr(dist, "attrs", None) or {}
    return (attrs.get("ruleset") == "plain"
            and attrs.get("hand_size") == 13 and attrs.get("wall") == 136)


def shanten_histogram(dist: Any, *, published: bool = True, ax: Any = None,
                      title: str | None = None):
    """Bar chart of a starting-hand shanten distribution.

    Parameters
    ----------
    dist : pandas.DataFrame
        From :func:`majiang.probability.starting_hand_shanten` (``shanten``,
        ``fraction``, ``se``).
    published : bool
        Mark the published 13-tile distribution (136 tiles; regular, seven pairs,
        thirteen orphans) -- only when ``dist.attrs`` (set by
        :func:`~majiang.probability.starting_hand_shanten`) shows that model: the
        ``"plain"`` ruleset (``starting_hand_shanten(n, ruleset="plain")``), 13-tile
        hands and a 136-tile wall.  Another ruleset, hand size or wall, or a table
        without those attrs, is drawn without it (the published figures would not
        describe it).

    Returns
    -------
    matplotlib.figure.Figure
        y in percent.

    Raises
    ------
    MahjongError
        `dist` is not a table with the columns ``shanten``, ``fraction`` and
        ``se``; wrong number of axes.
    """
    _need_columns(dist, ("shanten", "fraction", "se"), "shanten_histogram",
                  "majiang.probability.starting_hand_shanten")
    fig, (a,) = _figure(ax)
    x = dist["shanten"].to_numpy()
    a.bar(x, 100 * dist["fraction"], yerr=200 * dist["se"], color="tab:green", alpha=0.8,
          label="sampled")
    if published and published_applies(dist):
        px = np.array(sorted(PUBLISHED_STARTING_SHANTEN))
        a.plot(px, [PUBLISHED_STARTING_SHANTEN[k] for k in px], "k_", ms=20, mew=2,
               label="published")
    a.set_xlabel("shanten")
    a.set_ylabel("% of starting hands")
    a.set_xticks(x)
    a.legend(fontsize="small")
    a.grid(axis="y", alpha=0.3)
    if title:
        _set_title(a, title, "set_title")
    return fig


# ------------------------------------------------------------------ rule-variant studies
COMPARE_METRICS = ("win_rate", "dealer_advantage", "self_draw_share", "draw_rate",
                   "mean_draws", "mean_fan_total")
"""Panels of :func:`compare` by default (``metric`` values of
:func:`majiang.compare_rulesets`)."""

_COMPARE_MAX_KEYS = 12
"""At most this many keys (the largest values) per panel of :func:`compare`."""


def _tick_labels(a: Any, axis: str, positions: Any, texts: list[str], **kw: Any) -> None:
    shown = [_drawable(t) for t in texts]
    getattr(a, f"set_{axis}ticks")(positions, [t for t, _ in shown], **kw)
    for tick, (_, fkw) in zip(getattr(a, f"get_{axis}ticklabels")(), shown):
        if fkw:
            tick.set_fontfamily(fkw["fontfamily"])


def _study_table(table: Any, what: str):
    _need_columns(table, ("ruleset", "metric", "key", "value", "lo", "hi"), what,
                  "majiang.compare_rulesets")
    if len(table) == 0:
        raise MahjongError(f"{what}: the table is empty")
    return table


def _distinct_labels(names: list[str]) -> list[str]:
    """Ruleset labels that stay distinct when drawn: where dropping the characters no
    installed font has (``"sichuan 换三张"`` -> ``"sichuan"``) would make two equal or one
    empty, each such label gets its position, ``"sichuan 换三张 (2)"``."""
    shown = [_drawable(n)[0] for n in names]
    clash = {t for t in shown if not t or shown.count(t) > 1}
    return [f"{n} ({i + 1})" if t in clash else n for i, (n, t) in enumerate(zip(names, shown))]


def compare(table: Any, metrics: Any = None, ax: Any = None, *, title: str | None = None):
    """Bars of study metrics per ruleset, with their confidence intervals.

    Parameters
    ----------
    table : pandas.DataFrame
        From :func:`majiang.compare_rulesets` (or :func:`majiang.studies.summarize_hands`
        tables concatenated): columns ``ruleset``, ``metric``, ``key``, ``value``,
        ``lo``, ``hi``.
    metrics : str or sequence of str, optional
        One panel each (default :data:`COMPARE_METRICS`, those present in the table).
        Within a panel, one group of bars per ``key`` (seat, fan, quantile; at most
        the 12 largest), one bar per ruleset, in the table's order.
    ax : matplotlib Axes or sequence of Axes, optional
        One per metric.
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure
        Error bars span each row's ``lo`` .. ``hi`` (none where undefined).  Chinese
        text (fan names, 荒庄, ruleset labels) keeps its characters only where a font
        for them is installed (module docstring).

    Raises
    ------
    MahjongError
        Not a compare table; a metric that is not in it (the message lists those
        that are); wrong number of axes.
    """
    from .studies.compare import METRIC_LABELS, same_fan_keys

    _study_table(table, "compare")
    present = list(dict.fromkeys(table["metric"]))
    if metrics is None:
        metrics = [m for m in COMPARE_METRICS if m in present] or present[:1]
    elif isinstance(metrics, str):
        metrics = [metrics]
    metrics = list(metrics)
    if not metrics:
        raise MahjongError("compare needs at least one metric")
    bad = [m for m in metrics if m not in present]
    if bad:
        raise MahjongError(f"metric(s) {', '.join(map(repr, bad))} not in the table; it has "
                           f"{', '.join(present)}")
    n = len(metrics)
    if ax is None:
        from matplotlib.figure import Figure

        cols = min(n, 3)
        rows = -(-n // cols)
        fig = Figure(figsize=(4.6 * cols, 3.4 * rows + 0.4), layout="constrained")
        grid = list(fig.subplots(rows, cols, squeeze=False).ravel())
        for extra in grid[n:]:
            extra.set_visible(False)
        axes = grid[:n]
    else:
        fig, axes = _figure(list(np.ravel(np.asarray(ax, dtype=object))), n)
    rulesets = list(dict.fromkeys(table["ruleset"]))
    names = _distinct_labels([str(r) for r in rulesets])
    width = 0.8 / len(rulesets)
    for a, metric in zip(axes, metrics):
        part = table[table["metric"] == metric]
        if metric == "fan_share":
            part = part.assign(key=same_fan_keys(part["key"]))
        keys = list(dict.fromkeys(part["key"]))
        if len(keys) > _COMPARE_MAX_KEYS:
            top = part.groupby("key", sort=False)["value"].max().sort_values(ascending=False)
            keep = set(top.index[:_COMPARE_MAX_KEYS])
            keys = [k for k in keys if k in keep]
        x = np.arange(len(keys))
        for i, rs in enumerate(rulesets):
            sub = part[part["ruleset"] == rs].set_index("key")
            v = np.array([float(sub["value"].get(k, np.nan)) for k in keys])
            lo = np.array([float(sub["lo"].get(k, np.nan)) for k in keys])
            hi = np.array([float(sub["hi"].get(k, np.nan)) for k in keys])
            ok = np.isfinite(v)            # no row (or no value): no bar, not a 0 bar
            if not ok.any():
                continue
            err = np.vstack([np.nan_to_num(v - lo, nan=0.0), np.nan_to_num(hi - v, nan=0.0)])
            a.bar((x + (i - (len(rulesets) - 1) / 2) * width)[ok], v[ok], width,
                  yerr=np.clip(err[:, ok], 0, None), capsize=2,
                  color=_COLORS[i % len(_COLORS)], alpha=0.85, label=names[i],
                  error_kw={"elinewidth": 1})
        if keys == [""]:                          # a metric without keys: no tick
            a.set_xticks([])
        else:
            rotate = len(keys) > 4 or any(len(str(k)) > 10 for k in keys)
            _tick_labels(a, "x", x, [str(k) for k in keys], rotation=30 if rotate else 0,
                         ha="right" if rotate else "center")
        a.axhline(0, color="k", lw=0.6)
        a.grid(axis="y", alpha=0.3)
        title_of = METRIC_LABELS.get(metric, (None, metric.replace("_", " ")))[1]
        _set_title(a, title_of, "set_title")
    if len(rulesets) > 1 or rulesets[0]:
        _legend(axes[0])
    if title:
        _set_title(fig, title, "suptitle")
    return fig


def fan_heatmap(table: Any, *, top: int = 20, ax: Any = None, title: str | None = None):
    """Heat map of fan frequencies per win: fans (rows) × rulesets (columns).

    Parameters
    ----------
    table : pandas.DataFrame
        From :func:`majiang.compare_rulesets`: its ``fan_share`` rows (``key``
        ``"<Chinese> <English>"``).  A fan is one row across rulesets when its Chinese
        name is the same (labelled with the first ruleset's English name).
    top : int
        The fans with the largest share under any ruleset (1 or more).
    ax : matplotlib Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure
        Cells: share of wins that scored the fan (colour, and the percentage written
        in the cell); grey where the ruleset's fan table has no such fan.

    Raises
    ------
    MahjongError
        Not a compare table, no ``fan_share`` rows, a bad `top`, wrong number of axes.
    """
    from .studies.compare import same_fan_keys

    _study_table(table, "fan_heatmap")
    if isinstance(top, bool) or not isinstance(top, (int, np.integer)) or top < 1:
        raise MahjongError(f"top must be a positive int, got {top!r}")
    fans = table[table["metric"] == "fan_share"]
    if fans.empty:
        raise MahjongError("fan_heatmap needs the fan_share rows of majiang.compare_rulesets; "
                           "the table has none")
    grid = (fans.assign(_fan=same_fan_keys(fans["key"]))
            .pivot_table(index="_fan", columns="ruleset", values="value", aggfunc="max",
                         sort=False, dropna=False))
    rulesets = list(dict.fromkeys(table["ruleset"]))
    grid = grid.reindex(columns=rulesets)
    order = grid.max(axis=1).sort_values(ascending=False, kind="stable").index[:int(top)]
    grid = grid.loc[order]
    data = grid.to_numpy(dtype=float)
    nr, nc = data.shape
    fig, (a,) = _figure(ax, 1, (2.0 + 1.1 * nc + 2.6, 0.34 * nr + 1.6))
    import matplotlib

    cmap = matplotlib.colormaps["viridis"].with_extremes(bad="lightgrey")
    vmax = float(np.nanmax(data)) if np.isfinite(data).any() else 1.0
    im = a.imshow(np.ma.masked_invalid(data), cmap=cmap, vmin=0, vmax=max(vmax, 1e-9),
                  aspect="auto", interpolation="nearest")
    for i in range(nr):
        for j in range(nc):
            v = data[i, j]
            if np.isfinite(v):
                a.text(j, i, f"{100 * v:.1f}%" if v < 0.9995 else "100%", ha="center",
                       va="center", fontsize="x-small",
                       color="white" if v < 0.6 * vmax else "black")
    _tick_labels(a, "y", np.arange(nr), [str(f) for f in grid.index])
    _tick_labels(a, "x", np.arange(nc), _distinct_labels([str(r) for r in rulesets]),
                 rotation=30 if nc > 3 else 0, ha="right" if nc > 3 else "center")
    fig.colorbar(im, ax=a, label="share of wins", shrink=0.8)
    if title:
        _set_title(a, title, "set_title")
    return fig


def arena_intervals(table: Any, ax: Any = None, *, title: str | None = None):
    """Mean score per hand of each player of a duplicate run, with its 95 % interval.

    Parameters
    ----------
    table : pandas.DataFrame
        From :func:`majiang.arena`: columns ``player``, ``mean_score``, ``lo``, ``hi``
        (``hands`` and ``walls`` label the axis when present).
    ax : matplotlib Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure
        One horizontal point and interval per row, in the table's order (top down),
        a line at 0 (the mean of a zero-sum table).

    Raises
    ------
    MahjongError
        Not an arena table, or an empty one.
    """
    _need_columns(table, ("player", "mean_score", "lo", "hi"), "arena_intervals",
                  "majiang.arena")
    if len(table) == 0:
        raise MahjongError("arena_intervals: the table is empty")
    fig, (a,) = _figure(ax, 1, (6.4, 1.0 + 0.5 * len(table)))
    y = np.arange(len(table))[::-1]
    m = table["mean_score"].to_numpy(dtype=float)
    lo = table["lo"].to_numpy(dtype=float)
    hi = table["hi"].to_numpy(dtype=float)
    err = np.clip(np.vstack([np.nan_to_num(m - lo), np.nan_to_num(hi - m)]), 0, None)
    for i in range(len(table)):
        a.errorbar(m[i], y[i], xerr=err[:, i:i + 1], fmt="o", capsize=4,
                   color=_COLORS[i % len(_COLORS)])
    players = [str(p) for p in table["player"]]
    names = _distinct_labels([f"{p} ({i})" if players.count(p) > 1 else p
                              for i, p in enumerate(players)])
    _tick_labels(a, "y", y, names)
    a.axvline(0, color="k", lw=0.6)
    a.grid(axis="x", alpha=0.3)
    label = "mean score per hand, 95% interval clustered by wall"
    if "walls" in table.columns and "hands" in table.columns:
        label += (f"\n{int(table['walls'].max())} walls, {int(table['hands'].max())} hands "
                  "per player")
    a.set_xlabel(label)
    if title:
        _set_title(fig, title, "suptitle")
    return fig


_CALIBRATION_LABELS = {"model": "danger model", "seen": "copies seen only", "constant": "constant"}


def calibration(result: Any, ax: Any = None, *, title: str | None = None):
    """Reliability diagram of deal-in probabilities: observed rate against mean p per bin.

    Parameters
    ----------
    result : dict
        From :func:`majiang.studies.calibration.danger_calibration` (its
        ``"reliability"`` entry is drawn, the Brier scores go in the legend) or a mapping
        ``{label: reliability table}`` (:func:`~majiang.studies.calibration.reliability_table`:
        columns ``mean_p``, ``rate``, ``se``, ``n``).
    ax : matplotlib Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure
        One line per predictor, each bin a point with a ±2 standard error bar, and the
        diagonal (perfect calibration).

    Raises
    ------
    MahjongError
        No table, or a table without the columns above.
    """
    if isinstance(result, Mapping) and "reliability" in result:
        tables = result["reliability"]
        scores = result.get("scores")
    else:
        tables, scores = result, None
    if not isinstance(tables, Mapping) or not tables:
        raise MahjongError("calibration: give a danger_calibration result or "
                           "{label: reliability table}")
    fig, (a,) = _figure(ax, 1, (5.2, 5.0))
    top = 0.0
    for i, (key, t) in enumerate(tables.items()):
        _need_columns(t, ("mean_p", "rate", "se", "n"), "calibration",
                      "majiang.studies.calibration.reliability_table")
        x = t["mean_p"].to_numpy(dtype=float)
        y = t["rate"].to_numpy(dtype=float)
        e = 2 * t["se"].to_numpy(dtype=float)
        label = _CALIBRATION_LABELS.get(key, str(key))
        if scores is not None and key in getattr(scores, "index", ()):
            label += f" (Brier {float(scores.loc[key, 'brier']):.4f})"
        a.errorbar(x, y, yerr=e, fmt="o-", capsize=3, ms=4, label=label,
                   color=_COLORS[i % len(_COLORS)])
        top = max(top, float(np.nanmax(np.r_[x, y + e])) if len(x) else 0.0)
    top = min(1.0, 1.05 * top) or 1.0
    a.plot([0, top], [0, top], color="k", lw=0.8, ls="--", label="perfect calibration")
    a.set_xlim(0, top)
    a.set_ylim(0, top)
    a.set_xlabel("mean predicted P(deal in) per bin")
    a.set_ylabel("observed deal-in rate (±2 s.e.)")
    a.grid(alpha=0.3)
    _legend(a)
    if title:
        _set_title(fig, title, "suptitle")
    return fig


def danger_strip(danger: Any, ax: Any = None, *, title: str | None = None):
    """The danger of each discard as a strip of tiles coloured by ``p_deal_in``.

    ``danger`` is :func:`majiang.danger`'s table (columns ``tile``, ``seen``,
    ``p_deal_in``).  Each tile is a cell, darker red for a higher P(deal in), with its
    value and the copies seen under it; a live tile (生张, none seen) has a thick outline.
    Returns a :class:`matplotlib.figure.Figure`; raises :class:`MahjongError` for a table
    without those columns."""
    from matplotlib import colormaps
    from matplotlib.colors import Normalize
    from matplotlib.patches import Rectangle
    _need_columns(danger, ("tile", "seen", "p_deal_in"), "danger_strip", "majiang.danger")
    p = danger["p_deal_in"].to_numpy(dtype=float)
    n = len(p)
    fig, (a,) = _figure(ax, 1, (max(4.0, 0.62 * n + 1.2), 2.1))
    norm = Normalize(0.0, max(float(np.nanmax(p)) if n else 0.0, 1e-9))
    cmap = colormaps["Reds"]
    for i, (t, s, v) in enumerate(zip(danger["tile"], danger["seen"], p)):
        live = int(s) == 0
        a.add_patch(Rectangle((i + 0.05, 0.0), 0.9, 1.0, facecolor=cmap(norm(v)),
                              edgecolor="k", lw=2.2 if live else 0.6))
        a.text(i + 0.5, 0.5, str(t), ha="center", va="center", fontsize=11,
               color="white" if norm(v) > 0.6 else "black")
        a.text(i + 0.5, -0.22, f"{v:.3f}", ha="center", va="center", fontsize=7)
        a.text(i + 0.5, -0.48, "live" if live else f"seen {int(s)}", ha="center",
               va="center", fontsize=7)
    a.set_xlim(0, max(n, 1))
    a.set_ylim(-0.65, 1.05)
    a.set_axis_off()
    from matplotlib.cm import ScalarMappable
    fig.colorbar(ScalarMappable(norm, cmap), ax=a, label="P(deal in)", shrink=0.8)
    _set_title(a, title or "danger of each discard (thick outline: a live tile, none seen)",
               "set_title")
    return fig


def attack_defence(advice: Any, ax: Any = None, *, title: str | None = None, top: int = 14):
    """Attack against defence per discard: ``exp_gain`` up, ``-exp_loss`` down, ``ev``
    as a dot, in the table's order (the ``top`` first rows).

    ``advice`` is :func:`majiang.advise`'s table at a position (columns ``discard``,
    ``exp_loss``, ``ev``; ``exp_gain`` 0 when absent).  Returns a
    :class:`matplotlib.figure.Figure`; raises :class:`MahjongError` for a table without
    those columns."""
    _need_columns(advice, ("discard", "exp_loss", "ev"), "attack_defence",
                  "majiang.advise given a majiang.Position")
    t = advice.head(top)
    gain = (t["exp_gain"].astype(float).fillna(0.0).to_numpy() if "exp_gain" in t.columns
            else np.zeros(len(t)))
    loss = t["exp_loss"].astype(float).to_numpy()
    x = np.arange(len(t))
    fig, (a,) = _figure(ax, 1, (max(4.5, 0.55 * len(t) + 1.5), 3.6))
    a.bar(x, gain, color="tab:green", label="exp_gain (own wins)")
    a.bar(x, -loss, color="tab:red", label="-exp_loss (dealing in)")
    a.plot(x, t["ev"].astype(float).to_numpy(), "ko", ms=5, label="ev = gain - loss")
    a.axhline(0.0, color="k", lw=0.8)
    a.set_xticks(x, [str(d) for d in t["discard"]])
    a.set_xlabel("discard (in the table's order)")
    a.set_ylabel("points")
    a.grid(axis="y", alpha=0.3)
    _legend(a)
    _set_title(a, title or f"attack and defence per discard (by {advice.attrs.get('by', '?')})",
               "set_title")
    return fig

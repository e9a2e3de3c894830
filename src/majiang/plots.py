"""Matplotlib figures for the probability studies.

Every function returns a :class:`matplotlib.figure.Figure` (never calls
``plt.show``); pass ``ax`` to draw into an existing axes instead (its figure is
returned).  Inputs are the results of :mod:`majiang.probability` /
:mod:`majiang.odds`, so computing and drawing stay separate.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .errors import MahjongError

__all__ = ["probability_curves", "fan_odds_bars", "shanten_histogram"]

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

    Raises
    ------
    MahjongError
        Unknown ``which``, empty ``curves`` or wrong number of axes.
    """
    panels = {"both": ("win", "tenpai"), "win": ("win",), "tenpai": ("tenpai",)}
    if which not in panels:
        raise MahjongError(f"which must be 'both', 'win' or 'tenpai', got {which!r}")
    if not isinstance(curves, Mapping):
        curves = {"": curves}
    if not curves:
        raise MahjongError("no curves to plot")
    names = panels[which]
    fig, axes = _figure(ax, len(names), (11.0, 4.0) if len(names) == 2 else (6.4, 4.0))
    from matplotlib.ticker import MaxNLocator

    for a, what in zip(axes, names):
        for label, r in curves.items():
            y = np.asarray(getattr(r, f"{what}_curve"))
            se = np.asarray(getattr(r, f"{what}_curve_se"))
            x = np.arange(1, y.size + 1)
            (line,) = a.plot(x, y, marker=".", label=f"discard {label}" if label else None)
            if se.any():
                a.fill_between(x, y - 2 * se, y + 2 * se, color=line.get_color(), alpha=0.2)
        a.set_xlabel("draws")
        a.xaxis.set_major_locator(MaxNLocator(integer=True))
        a.set_ylabel(f"P({what} by draw)")
        a.set_ylim(0, 1)
        a.grid(alpha=0.3)
        a.set_title(f"{what} probability")
        if any(curves.keys()):
            a.legend(fontsize="small")
    if title:
        fig.suptitle(title)
    return fig


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
        Error bars of 2 SE for Monte Carlo tables.
    """
    fans = odds[odds["category"] == "fan"].sort_values("probability", ascending=False).head(top)
    fig, (a,) = _figure(ax, 1, (7.0, 0.35 * max(len(fans), 3) + 1.2))
    y = np.arange(len(fans))[::-1]
    a.barh(y, fans["probability"], xerr=2 * fans["se"] if fans["se"].any() else None,
           color="tab:blue", alpha=0.8)
    a.set_yticks(y, fans["name"].tolist())
    win = odds.loc[odds["category"] == "win", "probability"]
    if len(win):
        a.axvline(float(win.iloc[0]), color="k", ls="--", lw=1, label="P(win)")
        a.legend(fontsize="small")
    a.set_xlabel("P(win with fan within horizon)")
    a.grid(axis="x", alpha=0.3)
    if title:
        a.set_title(title)
    return fig


def shanten_histogram(dist: Any, *, published: bool = True, ax: Any = None,
                      title: str | None = None):
    """Bar chart of a starting-hand shanten distribution.

    Parameters
    ----------
    dist : pandas.DataFrame
        From :func:`majiang.probability.starting_hand_shanten` (``shanten``,
        ``fraction``, ``se``).
    published : bool
        Mark the published 13-tile distribution (136 tiles, three forms).

    Returns
    -------
    matplotlib.figure.Figure
        y in percent.
    """
    fig, (a,) = _figure(ax)
    x = dist["shanten"].to_numpy()
    a.bar(x, 100 * dist["fraction"], yerr=200 * dist["se"], color="tab:green", alpha=0.8,
          label="sampled")
    if published:
        px = np.array(sorted(PUBLISHED_STARTING_SHANTEN))
        a.plot(px, [PUBLISHED_STARTING_SHANTEN[k] for k in px], "k_", ms=20, mew=2,
               label="published")
    a.set_xlabel("shanten")
    a.set_ylabel("% of starting hands")
    a.set_xticks(x)
    a.legend(fontsize="small")
    a.grid(axis="y", alpha=0.3)
    if title:
        a.set_title(title)
    return fig

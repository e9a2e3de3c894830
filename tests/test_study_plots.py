"""plots.compare and plots.fan_heatmap: Figures from compare_rulesets tables (Agg
backend), what they draw checked against the table, no missing-glyph warnings."""
from __future__ import annotations

import io
import warnings

import matplotlib
import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

import majiang
from majiang import plots
from majiang.errors import MahjongError

matplotlib.use("Agg")


def _rows(ruleset, metric, items):
    return [(ruleset, metric, k, v, lo, hi, 100, "wilson") for k, v, lo, hi in items]


TABLE = pd.DataFrame(
    _rows("mcr", "win_rate", [("dealer", .30, .25, .35), ("dealer+1", .20, .15, .26)])
    + _rows("sichuan 换三张", "win_rate", [("dealer", .70, .60, .78),
                                          ("dealer+1", .65, .55, .74)])
    + _rows("mcr", "draw_rate", [("", .12, .08, .17)])
    + _rows("sichuan 换三张", "draw_rate", [("", .0, .0, .04)])
    + _rows("mcr", "fan_share", [("门前清 Concealed Hand", .3, .2, .4),
                                 ("自摸 Self-Drawn", .25, .2, .3), ("平和 All Chows", .1, .05, .2)])
    + _rows("sichuan 换三张", "fan_share", [("平胡 Basic Win", .8, .7, .9),
                                            ("自摸 Self-Drawn (x2)", .35, .3, .4)])
    + [("mcr", "mean_fan_total", "", 12.5, np.nan, np.nan, 1, "t")],
    columns=["ruleset", "metric", "key", "value", "lo", "hi", "n", "method"])
"""A compare_rulesets-shaped table with round numbers (and a row without an interval)."""


def _render(fig) -> None:
    """Draw with every warning an error (missing glyphs warn at draw time)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig.savefig(io.BytesIO(), format="png", dpi=40)


def _bars(ax):
    """(heights, lower ends, upper ends) of each bar series of a bar chart, in order."""
    out = []
    for c in ax.containers:
        if not hasattr(c, "errorbar") or c.errorbar is None:
            continue
        heights = [p.get_height() for p in c.patches]
        segs = c.errorbar.lines[2][0].get_segments()
        out.append((heights, [min(s[:, 1]) for s in segs], [max(s[:, 1]) for s in segs]))
    return out


def test_compare_draws_each_value_with_its_interval():
    fig = plots.compare(TABLE, ["win_rate", "draw_rate"], title="two rulesets")
    assert isinstance(fig, Figure)
    axes = [a for a in fig.axes if a.get_visible()]
    assert len(axes) == 2
    (mcr, sc) = _bars(axes[0])
    np.testing.assert_allclose(mcr[0], [.30, .20])
    np.testing.assert_allclose(mcr[1], [.25, .15])
    np.testing.assert_allclose(mcr[2], [.35, .26])
    np.testing.assert_allclose(sc[0], [.70, .65])
    np.testing.assert_allclose(sc[2], [.78, .74])
    (d1, d2) = _bars(axes[1])
    np.testing.assert_allclose([d1[0][0], d1[1][0], d1[2][0]], [.12, .08, .17])
    assert [t.get_text() for t in axes[0].get_xticklabels()] == ["dealer", "dealer+1"]
    _render(fig)


def test_compare_default_metrics_are_those_present_and_rows_without_interval():
    fig = plots.compare(TABLE)
    axes = [a for a in fig.axes if a.get_visible()]
    # COMPARE_METRICS present in TABLE: win_rate, draw_rate, mean_fan_total
    assert len(axes) == 3
    (only,) = _bars(axes[2])
    assert only[0] == [12.5] and only[1] == [12.5] and only[2] == [12.5]   # no bar of error
    _render(fig)


def test_compare_fan_share_merges_a_fan_by_its_chinese_name():
    fig = plots.compare(TABLE, "fan_share")
    a = fig.axes[0]
    labels = [t.get_text() for t in a.get_xticklabels()]
    assert sum("Self-Drawn" in t for t in labels) == 1
    i = next(j for j, t in enumerate(labels) if "Self-Drawn" in t)
    at_tick = [[p.get_height() for p in c.patches if abs(p.get_x() + p.get_width() / 2 - i) < .5]
               for c in a.containers if hasattr(c, "patches")]
    assert at_tick == [[pytest.approx(.25)], [pytest.approx(.35)]]
    assert sum(len(c.patches) for c in a.containers if hasattr(c, "patches")) == 5
    _render(fig)


def test_compare_into_given_axes_and_bad_input():
    fig = Figure()
    axes = fig.subplots(1, 2)
    assert plots.compare(TABLE, ["win_rate", "draw_rate"], ax=axes) is fig
    with pytest.raises(MahjongError, match="ax must hold 2 axes"):
        plots.compare(TABLE, ["win_rate", "draw_rate"], ax=axes[0])
    with pytest.raises(MahjongError, match="'nope' not in the table"):
        plots.compare(TABLE, ["win_rate", "nope"])
    with pytest.raises(MahjongError, match="columns"):
        plots.compare(pd.DataFrame({"x": [1]}))
    with pytest.raises(MahjongError, match="DataFrame"):
        plots.compare([1, 2, 3])
    with pytest.raises(MahjongError, match="empty"):
        plots.compare(TABLE.iloc[:0])


def test_fan_heatmap_cells_are_the_shares():
    fig = plots.fan_heatmap(TABLE, top=3, title="fans")
    a = fig.axes[0]
    data = a.images[0].get_array()
    labels = [t.get_text() for t in a.get_yticklabels()]
    assert len(labels) == 3
    assert [t.get_text() for t in a.get_xticklabels()] in (
        ["mcr", "sichuan 换三张"], ["mcr", "sichuan"])     # Chinese dropped without a font
    # most frequent first: 平胡 (.8 under sichuan), 自摸 (.35), 门前清 (.3)
    assert "Basic Win" in labels[0] and "Self-Drawn" in labels[1] and "Concealed" in labels[2]
    assert data.mask[0, 0] and data[0, 1] == pytest.approx(.8)         # mcr has no 平胡
    assert (data[1, 0], data[1, 1]) == pytest.approx((.25, .35))      # one 自摸 row
    assert data.mask[2, 1] and data[2, 0] == pytest.approx(.3)
    texts = sorted(t.get_text() for t in a.texts)
    assert texts == sorted(["80.0%", "25.0%", "35.0%", "30.0%"])
    _render(fig)


def test_fan_heatmap_bad_input():
    with pytest.raises(MahjongError, match="top"):
        plots.fan_heatmap(TABLE, top=0)
    with pytest.raises(MahjongError, match="fan_share"):
        plots.fan_heatmap(TABLE[TABLE.metric != "fan_share"])
    with pytest.raises(MahjongError, match="columns"):
        plots.fan_heatmap(pd.DataFrame({"ruleset": ["mcr"]}))


def test_without_a_cjk_font_names_fall_back_to_english(monkeypatch):
    monkeypatch.setattr(plots, "fallback_font", lambda: None)
    fig = plots.fan_heatmap(TABLE, title="番 per win")
    _render(fig)
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert "Basic Win" in labels and not any("平" in t for t in labels)
    assert "sichuan" in [t.get_text() for t in fig.axes[0].get_xticklabels()]
    fig = plots.compare(TABLE, ["draw_rate", "fan_share"])
    _render(fig)
    assert fig.axes[0].get_title() == "drawn hands"
    assert all(t.get_text().isascii() for t in fig.axes[0].get_legend().get_texts())


def test_rulesets_that_differ_only_in_chinese_stay_apart_without_a_cjk_font(monkeypatch):
    """"sichuan" and "sichuan 换三张" would both be drawn as "sichuan"."""
    monkeypatch.setattr(plots, "fallback_font", lambda: None)
    two = pd.concat([TABLE[TABLE.ruleset == "sichuan 换三张"].assign(ruleset="sichuan"),
                     TABLE[TABLE.ruleset == "sichuan 换三张"]], ignore_index=True)
    fig = plots.compare(two, ["win_rate"])
    _render(fig)
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert legend == ["sichuan (1)", "sichuan (2)"]
    heat = plots.fan_heatmap(two)
    _render(heat)
    assert [t.get_text() for t in heat.axes[0].get_xticklabels()] == ["sichuan (1)",
                                                                      "sichuan (2)"]
    # with distinct drawn labels nothing is added
    legend = [t.get_text() for t in plots.compare(TABLE, ["win_rate"]).axes[0]
              .get_legend().get_texts()]
    assert legend == ["mcr", "sichuan"]


def test_plots_of_a_real_comparison():
    t = majiang.compare_rulesets(["mcr", "sichuan_xueliu"], 30, seed=1, n_jobs=1)
    fig = plots.compare(t)
    _render(fig)
    heat = plots.fan_heatmap(t, top=8)
    _render(heat)
    shown = heat.axes[0].images[0].get_array()
    assert shown.shape == (8, 2)
    best = t[t.metric == "fan_share"].groupby(
        t["key"].str.split(" ").str[0])["value"].max().max()
    assert np.nanmax(shown) == pytest.approx(best)

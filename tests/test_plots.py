"""Plots return Figures (no display needed) and reject bad input."""
import matplotlib
import pytest
from matplotlib.figure import Figure

from majiang import plots
from majiang import probability as P
from majiang.errors import MahjongError

matplotlib.use("Agg")


def test_probability_curves_per_discard():
    curves = P.discard_curves("2225678m88p12466s", 12)
    fig = plots.probability_curves(curves, title="per discard")
    assert isinstance(fig, Figure) and len(fig.axes) == 2
    assert len(fig.axes[0].lines) == len(curves)
    one = plots.probability_curves(P.probabilities("2225678m88p1246s", 8, method="monte_carlo",
                                                   seed=1, n_samples=500), which="win")
    assert isinstance(one, Figure) and len(one.axes) == 1
    with pytest.raises(MahjongError):
        plots.probability_curves(curves, which="both-ish")
    with pytest.raises(MahjongError):
        plots.probability_curves({})


def test_probability_curves_into_given_axes():
    fig = Figure()
    ax = fig.subplots()
    out = plots.probability_curves(P.probabilities("123456789m1234p", 5), which="tenpai", ax=ax)
    assert out is fig


def test_fan_odds_bars():
    pytest.importorskip("majiang.scoring")
    from majiang.odds import fan_odds
    fig = plots.fan_odds_bars(fan_odds("123456789m1234p", 8, ruleset="mcr"), title="mcr")
    assert isinstance(fig, Figure) and fig.axes[0].patches


def test_shanten_histogram():
    df = P.starting_hand_shanten(20_000, seed=3, n_jobs=1)
    fig = plots.shanten_histogram(df)
    assert isinstance(fig, Figure)
    assert len(fig.axes[0].patches) == len(df)

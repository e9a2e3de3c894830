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
    df = P.starting_hand_shanten(20_000, seed=3, n_jobs=1, ruleset="plain")
    fig = plots.shanten_histogram(df)
    assert isinstance(fig, Figure)
    assert len(fig.axes[0].patches) == len(df)
    assert _has_published(fig)


def _has_published(fig) -> bool:
    return "published" in [t.get_text() for t in fig.axes[0].get_legend().get_texts()]


def test_shanten_histogram_published_only_for_the_plain_13_136_model():
    """The published table is for 13 tiles from 136 with three forms (``"plain"``): a
    108-tile sichuan wall, 16-tile taiwan hands, mcr's extra forms (the default ruleset)
    or a table without attrs get no overlay; published=False never does."""
    df = P.starting_hand_shanten(2_000, seed=1, n_jobs=1, ruleset="plain")
    assert _has_published(plots.shanten_histogram(df))
    assert not _has_published(plots.shanten_histogram(df, published=False))
    default = P.starting_hand_shanten(2_000, seed=1, n_jobs=1)
    assert default.attrs["ruleset"] == "mcr"
    assert not _has_published(plots.shanten_histogram(default))
    for ruleset in ("sichuan", "taiwan", "mcr"):
        other = P.starting_hand_shanten(2_000, seed=1, n_jobs=1, ruleset=ruleset)
        assert not _has_published(plots.shanten_histogram(other)), ruleset
    bare = df.copy()
    bare.attrs = {}
    assert not _has_published(plots.shanten_histogram(bare))
    # the attrs alone decide: relabelled as 136/13 default it gets the overlay
    fake = P.starting_hand_shanten(2_000, seed=1, n_jobs=1, ruleset="sichuan")
    fake.attrs.update(df.attrs)
    assert _has_published(plots.shanten_histogram(fake))


# ---------------------------------------------------------------- issue 8 regressions
import io  # noqa: E402
import types  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

FAN_TABLE = pd.DataFrame(
    [("win", "win", 0.40, 0.0, "exact"), ("fan", "门前清 Concealed Hand", 0.30, 0.0, "exact"),
     ("fan", "断幺 All Simples", 0.20, 0.0, "exact"), ("fan", "平和 All Chows", 0.10, 0.0, "exact"),
     ("total", "8", 0.40, 0.0, "exact")],
    columns=["category", "name", "probability", "se", "method"])
"""A fan_odds-shaped table (the layout documented by majiang.odds.fan_odds)."""


def _render(fig) -> None:
    """Draw the figure with every warning an error (missing glyphs warn at draw time)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig.savefig(io.BytesIO(), format="png", dpi=40)


def _curve(y) -> types.SimpleNamespace:
    y = np.asarray(y, dtype=float)
    return types.SimpleNamespace(win_curve=y, tenpai_curve=np.minimum(1, 2 * y),
                                 win_curve_se=np.zeros_like(y), tenpai_curve_se=np.zeros_like(y))


def _has_glyphs(text: str) -> bool:
    from matplotlib import font_manager, ft2font
    path = font_manager.findfont(font_manager.FontProperties())
    cmap = ft2font.FT2Font(path).get_charmap()
    return all(ord(c) in cmap for c in text if not c.isspace())


def test_fan_names_without_a_cjk_font_fall_back_to_english(monkeypatch):
    """Was: Chinese fan names drawn as empty boxes with ~20 'Glyph missing' warnings."""
    monkeypatch.setattr(plots, "fallback_font", lambda: None)
    fig = plots.fan_odds_bars(FAN_TABLE, title="fans of 门前清 hands")
    _render(fig)
    a = fig.axes[0]
    labels = [t.get_text() for t in a.get_yticklabels()]
    assert labels == ["Concealed Hand", "All Simples", "All Chows"]      # most probable first
    assert a.get_title() == "fans of hands"
    assert all(_has_glyphs(t) for t in labels + [a.get_title()])


def test_fan_names_on_this_machine_draw_without_warnings():
    """Whatever fonts this machine has: no warning, and no label the chosen fonts lack."""
    fig = plots.fan_odds_bars(FAN_TABLE, title="门前清 🀇")
    _render(fig)


def _tiny_cjk_font(path, chars: str) -> None:
    """A TrueType font with a square glyph for each of `chars` (built with fontTools)."""
    pytest.importorskip("fontTools")
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    names = [".notdef"] + [f"u{ord(c):04X}" for c in chars]
    pen = TTGlyphPen(None)
    pen.moveTo((100, 0)), pen.lineTo((100, 700)), pen.lineTo((800, 700)), pen.lineTo((800, 0))
    pen.closePath()
    box = pen.glyph()
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({ord(c): n for c, n in zip(chars, names[1:])})
    fb.setupGlyf({n: box for n in names})
    fb.setupHorizontalMetrics({n: (900, 100) for n in names})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Majiang Test CJK", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=800, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    fb.save(str(path))


def test_an_installed_cjk_font_keeps_the_chinese_names(tmp_path):
    from matplotlib import font_manager

    chars = plots._CJK_PROBE + "门前清断幺平和"
    path = tmp_path / "majiang-test-cjk.ttf"
    _tiny_cjk_font(path, "".join(dict.fromkeys(chars)))
    fm = font_manager.fontManager
    before = list(fm.ttflist)
    fm.addfont(str(path))
    plots.fallback_font.cache_clear()
    try:
        assert plots.fallback_font() == "Majiang Test CJK"
        fig = plots.fan_odds_bars(FAN_TABLE)
        _render(fig)
        ticks = fig.axes[0].get_yticklabels()
        assert [t.get_text() for t in ticks][0] == "门前清 Concealed Hand"
        assert "Majiang Test CJK" in ticks[0].get_fontfamily()
    finally:
        fm.ttflist[:] = before
        fm._findfont_cached.cache_clear()
        plots.fallback_font.cache_clear()


def test_tied_curves_stay_visible():
    """Was: discards with equal probabilities drawn on top of each other."""
    same = np.linspace(0.05, 0.5, 8)
    curves = {"5m": _curve(same), "8m": _curve(same), "1s": _curve(same * 0.8)}
    fig = plots.probability_curves(curves, which="win")
    lines = fig.axes[0].lines
    xy = [np.column_stack([l.get_xdata(), l.get_ydata()]) for l in lines]
    for i in range(len(xy)):
        for j in range(i + 1, len(xy)):
            assert not np.array_equal(xy[i], xy[j])
            # every marker of one curve is apart from the other's markers
            assert np.min(np.abs(xy[i][:, None, :] - xy[j][None, :, :]).sum(-1)) > 0.05
    tied = [l.get_label() for l in lines if "(tied)" in l.get_label()]
    assert tied == ["discard 5m (tied)", "discard 8m (tied)"]
    assert np.allclose(lines[2].get_xdata(), np.arange(1, 9))    # an untied curve stays put
    _render(fig)


def test_many_discards_never_repeat_a_style():
    """Was: the 11th discard reused the 1st colour (matplotlib's 10-colour cycle)."""
    curves = {f"{k}m": _curve(np.linspace(0, 0.9, 6) * (k + 1) / 15) for k in range(14)}
    fig = plots.probability_curves(curves)
    for a in fig.axes:
        styles = [(l.get_color(), l.get_marker(), l.get_linestyle()) for l in a.lines]
        assert len(styles) == 14 and len(set(styles)) == 14
        pairs = [(c, m) for c, m, _ in styles]
        assert len(set(pairs)) == 14
    _render(fig)


@pytest.mark.parametrize("fn, table, needle", [
    (plots.fan_odds_bars, pd.DataFrame({"shanten": [1], "fraction": [1.0], "se": [0.0]}),
     "category, name, probability, se"),
    (plots.shanten_histogram, FAN_TABLE, "shanten, fraction, se"),
    (plots.shanten_histogram, {"shanten": [1]}, "pandas DataFrame"),
])
def test_the_wrong_table_is_a_clear_error(fn, table, needle):
    """Was: KeyError('category') / KeyError('shanten')."""
    with pytest.raises(MahjongError) as err:
        fn(table)
    assert needle in str(err.value)


def test_curves_of_the_wrong_type_are_a_clear_error():
    with pytest.raises(MahjongError, match="Probabilities"):
        plots.probability_curves({"5m": [0.1, 0.2]})


def test_danger_strip_colours_each_tile_by_p_deal_in():
    import pandas as pd
    df = pd.DataFrame({"tile": ["6p", "9p", "1s"], "seen": [3, 0, 1],
                       "p_deal_in": [0.0, 0.02, 0.01]})
    fig = plots.danger_strip(df)
    assert isinstance(fig, Figure)
    a = fig.axes[0]
    faces = [p.get_facecolor() for p in a.patches]
    # the most dangerous tile (9p) is drawn darkest, the safest (6p) lightest
    assert sum(faces[1][:3]) < sum(faces[2][:3]) < sum(faces[0][:3])
    widths = [p.get_linewidth() for p in a.patches]
    assert widths[1] > widths[0] == widths[2]           # 9p is live (生张): thick outline
    with pytest.raises(MahjongError, match="p_deal_in"):
        plots.danger_strip(df.drop(columns="p_deal_in"))


def test_attack_defence_bars_gain_up_loss_down():
    import pandas as pd
    t = pd.DataFrame({"discard": ["3m", "7z"], "exp_gain": [2.0, 0.0],
                      "exp_loss": [0.5, 0.0], "ev": [1.5, 0.0]})
    fig = plots.attack_defence(t)
    a = fig.axes[0]
    heights = sorted(round(p.get_height(), 6) for p in a.patches)
    assert heights == [-0.5, 0.0, 0.0, 2.0]
    with pytest.raises(MahjongError, match="ev"):
        plots.attack_defence(t.drop(columns="ev"))

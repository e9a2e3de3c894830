"""The win-predicate budget of the automatic exact search under joker rulesets (天津:
seven 混儿, THE predicate ≈ 20 ms to 1 s a hand): past JOKER_PRED_BUDGET the call is
played by the labelled greedy Monte Carlo, every discard alike."""
import numpy as np
import pytest

from majiang import probability as P
from majiang.probability import limits  # the budgets are read there when a call runs


def test_tianjin_budget_falls_back_to_labelled_monte_carlo():
    h = "123m456p789s3p7s**"
    r = P.probabilities(h, 3, ruleset="tianjin", indicator="5m", seed=1, n_samples=4000)
    assert r.method == "monte_carlo" and r.policy == "greedy"
    assert "winning-hand checks" in r.note
    # one draw stays exact (few predicate calls)
    r1 = P.probabilities(h, 1, ruleset="tianjin", indicator="5m")
    assert r1.method == "exact"
    # every discard of one call is played by the same model
    df = P.discard_probabilities("123m456p789s1z3p7s**", 3, ruleset="tianjin",
                                 indicator="5m", seed=1, n_samples=2000)
    assert set(df["method"][df["p_win"].notna()]) == {"monte_carlo"}


def test_the_budget_counts_jokers():
    # each distinct complete hand costs 2**jokers units
    model = P._model_of("tianjin")
    pred = P._WinPred(model, (), {})
    pred.budget = 5
    h = np.zeros(34, dtype=np.uint8)
    h[[0, 1, 2, 9, 10, 11, 18, 19, 20, 3, 4, 5]] = 1      # 123456m 123p 123s + 2 jokers
    pred(h, 0, 2)                                         # 4 units
    try:
        pred(h, 1, 2)                                     # 8 > 5: over
    except P._PredBudget:
        pass
    else:
        raise AssertionError("the budget was not enforced")
    pred.budget = None
    assert pred(h, 0, 2) == pred.cache[(bytes(h), 0, 2)]  # cached, no charge


# -- the Python 2-5-8 route (武汉: pair_258_small with jokers) -------------------------
WUHAN = "2345m11p456p99s3m*"          # 1-shanten, one joker (indicator 3z)


def test_wuhan_exact_search_is_charged_and_falls_back(monkeypatch):
    # each ruleset-shanten evaluation of the 2-5-8 route costs B258_SHANTEN_UNITS: a
    # budget of 20 evaluations is spent long before a 2-draw expectimax is done
    monkeypatch.setattr(limits, "JOKER_PRED_BUDGET", 20 * P.B258_SHANTEN_UNITS)
    monkeypatch.setattr(limits, "B258_MC_WORK", 2000)
    r = P.probabilities(WUHAN, 2, ruleset="wuhan", indicator="3z", seed=3, n_samples=300)
    assert r.method == "monte_carlo" and r.model == "real walls"
    assert r.policy.startswith("greedy")
    assert "winning-hand checks" in r.note and "2-5-8 shanten evaluation" in r.note
    # method="exact" has no budget: the same position stays exact
    e = P.probabilities(WUHAN, 2, ruleset="wuhan", indicator="3z", method="exact")
    assert e.method == "exact" and e.model == "true wall"
    # ... and the labelled Monte Carlo agrees with it within its noise
    assert abs(r.p_tenpai - e.p_tenpai) <= 4 * r.se_tenpai + 1e-9


def test_wuhan_default_budget_keeps_short_horizons_exact():
    r = P.probabilities(WUHAN, 1, ruleset="wuhan", indicator="3z")
    assert r.method == "exact" and (r.note is None or "winning-hand checks" not in r.note)


def test_wuhan_budget_is_shared_by_the_discards(monkeypatch):
    monkeypatch.setattr(limits, "JOKER_PRED_BUDGET", 20 * P.B258_SHANTEN_UNITS)
    monkeypatch.setattr(limits, "B258_MC_WORK", 2000)
    df = P.discard_probabilities("2345m11p456p99s36m*", 2, ruleset="wuhan", indicator="3z",
                                 seed=1, n_samples=200)
    solved = df["p_tenpai"].notna()
    assert solved.sum() >= 2
    assert set(df["method"][solved]) == {"monte_carlo"}


def test_wuhan_monte_carlo_work_cap(monkeypatch):
    # auto: the Python route's greedy player stops after B258_MC_WORK shanten
    # evaluations once B258_MC_MIN_SAMPLES walls are played; the estimate says so
    monkeypatch.setattr(limits, "B258_MC_WORK", 1)
    monkeypatch.setattr(limits, "B258_MC_MIN_SAMPLES", 120)
    r = P.probabilities(WUHAN, 4, ruleset="wuhan", indicator="3z", seed=5, n_samples=5000)
    assert r.method == "monte_carlo" and r.n_samples == 120
    assert "120 of 5000 walls" in r.note and "its cap of" in r.note
    assert r.se_tenpai == pytest.approx(np.sqrt(r.p_tenpai * (1 - r.p_tenpai) / 120))
    # method="monte_carlo" plays every wall asked for
    m = P.probabilities(WUHAN, 4, ruleset="wuhan", indicator="3z", seed=5, n_samples=150,
                        method="monte_carlo")
    assert m.n_samples == 150 and "its cap of" not in (m.note or "")

"""The win-predicate budget of the automatic exact search under joker rulesets (天津:
seven 混儿, THE predicate ≈ 20 ms to 1 s a hand): past JOKER_PRED_BUDGET the call is
played by the labelled greedy Monte Carlo, every discard alike."""
import numpy as np

from majiang import probability as P


def test_tianjin_budget_falls_back_to_labelled_monte_carlo():
    h = "123m456p789s3p7s**"
    r = P.probabilities(h, 3, ruleset="tianjin", indicator="5m", seed=1, n_samples=4000)
    assert r.method == "monte_carlo" and r.policy == "greedy"
    assert "JOKER_PRED_BUDGET" in r.note
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

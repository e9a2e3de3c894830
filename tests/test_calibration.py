"""Calibration of the danger model (majiang.studies.calibration): scores on hand-made
inputs with hand-computed values, and the truth flags against an independent recomputation
of every opponent's hand from the engine log."""
from __future__ import annotations

import numpy as np
import pytest

import majiang
from majiang.errors import RuleError
from majiang.hand import Hand, Meld
from majiang.scoring import check_win
from majiang.studies.calibration import (auc_score, brier_score, danger_calibration,
                                         discard_truths, reliability_table)


def test_brier_by_hand():
    # (0.2-0)^2 + (0.9-1)^2 + (0.5-1)^2 = 0.04 + 0.01 + 0.25 = 0.30, over 3
    assert brier_score([0.2, 0.9, 0.5], [0, 1, 1]) == pytest.approx(0.1)
    assert brier_score([1.0, 0.0], [1, 0]) == 0.0


def test_auc_by_hand():
    # positives 0.35, 0.8; negatives 0.1, 0.4: pairs won 0.35>0.1, 0.8>0.1, 0.8>0.4 -> 3/4
    assert auc_score([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1]) == pytest.approx(0.75)
    # a tie counts one half
    assert auc_score([0.5, 0.5], [0, 1]) == pytest.approx(0.5)
    # perfect and reversed orderings
    assert auc_score([0.1, 0.2, 0.9], [0, 0, 1]) == 1.0
    assert auc_score([0.9, 0.2, 0.1], [0, 0, 1]) == 0.0
    assert np.isnan(auc_score([0.1, 0.2], [0, 0]))


def test_reliability_by_hand():
    p, y = [0.1, 0.2, 0.3, 0.4], [0, 1, 0, 1]
    t = reliability_table(p, y, 2)            # quantile: {0.1, 0.2} and {0.3, 0.4}
    assert t["n"].tolist() == [2, 2]
    assert t["mean_p"].tolist() == pytest.approx([0.15, 0.35])
    assert t["rate"].tolist() == pytest.approx([0.5, 0.5])
    assert t["se"].tolist() == pytest.approx([np.sqrt(0.25 / 2)] * 2)
    assert t["gap"].tolist() == pytest.approx([0.35, 0.15])
    u = reliability_table(p + [1.0], y + [1], 2, strategy="uniform")  # [0, .5) and [.5, 1]
    assert u["n"].tolist() == [4, 1]
    assert u["mean_p"].tolist() == pytest.approx([0.25, 1.0])
    assert u["rate"].tolist() == pytest.approx([0.5, 1.0])
    assert u["se"].tolist() == pytest.approx([0.25, 0.0])
    with pytest.raises(RuleError):
        reliability_table([0.1], [0, 1])
    with pytest.raises(RuleError):
        reliability_table(p, y, strategy="equal")


def test_discard_truths_reads_win_offers():
    log = [{"e": "header"}, {"e": "start"},
           {"e": "discard", "seat": 0, "tile": 3},
           {"e": "claim", "seat": 1, "options": [["pung"]], "choice": None},
           {"e": "draw", "seat": 1, "tile": 5},
           {"e": "discard", "seat": 1, "tile": 7},
           {"e": "claim", "seat": 3, "options": [["win"]], "choice": None},   # passed: still True
           {"e": "draw", "seat": 2, "tile": 5},
           {"e": "discard", "seat": 2, "tile": 9, "forced": True},
           {"e": "claim", "seat": 0, "options": [["win"]], "choice": ["win"]}]
    assert discard_truths(log) == {2: False, 5: True}


def _independent_truths(log, rs):
    """Every seat's concealed tiles rebuilt from the log; a discard deals in when some
    opponent that has not won holds tiles that win on it by check_win (mcr: no pass lock)."""
    head = log[0]
    dealer, prev = head["dealer"], head["prevalent_wind"]
    n = len(head["players"])
    hands = [np.zeros(34, np.int64) for _ in range(n)]
    melds = [[] for _ in range(n)]
    out = {}
    for i, e in enumerate(log):
        k = e["e"]
        if k == "start":
            for s, h in enumerate(e["hands"]):
                for t in h:
                    if t < 34:
                        hands[s][t] += 1
        elif k == "draw" and e["tile"] < 34:
            hands[e["seat"]][e["tile"]] += 1
        elif k == "call":
            s, t = e["seat"], e["tile"]
            if e["kind"] == "chow":
                for x in range(e["start"], e["start"] + 3):
                    if x != t:
                        hands[s][x] -= 1
                melds[s].append(Meld("chow", e["start"]))
            else:
                hands[s][t] -= 2 if e["kind"] == "pung" else 3
                melds[s].append(Meld(e["kind"], t))
        elif k == "kong":
            s, t = e["seat"], e["tile"]
            if e["kind"] == "concealed":
                hands[s][t] -= 4
                melds[s].append(Meld("kong", t, True))
            elif e["kind"] == "added":
                hands[s][t] -= 1
                melds[s] = [Meld("kong", t) if (m.kind == "pung" and m.tile == t) else m
                            for m in melds[s]]
        elif k == "discard":
            s, t = e["seat"], e["tile"]
            hands[s][t] -= 1
            hit = False
            for q in range(n):
                if q == s:
                    continue
                h = Hand(hands[q].astype(np.uint8), tuple(melds[q]))
                try:
                    hit |= bool(check_win(h, t, ruleset=rs, self_drawn=False,
                                          seat_wind=(q - dealer) % n, prevalent_wind=prev))
                except majiang.MahjongError:
                    pass
            out[i] = hit
    return out


def test_truth_flags_match_independent_check():
    df = majiang.simulate("mcr", 6, logs=True, n_jobs=1, progress=False, seed=3)
    n_true = 0
    for log in df["log"]:
        ours = discard_truths(log)
        ref = _independent_truths(log, majiang.rules.get("mcr"))
        assert ours == {i: ref[i] for i in ours}
        n_true += sum(ours.values())
    assert n_true >= 1          # the check saw at least one deal-in


def test_tiny_calibration_end_to_end():
    out = danger_calibration("mcr", 4, max_discards=3, n_samples=60, n_jobs=1)
    d = out["discards"]
    assert len(d) == 12
    assert set(d["half"]) == {"fit", "test"}
    assert ((d["p"] >= 0) & (d["p"] <= 1)).all()
    assert list(out["scores"].index) == ["model", "seen", "constant"]
    assert out["model"] == majiang.opponents.DEFAULT_MODEL.name
    again = danger_calibration("mcr", 4, max_discards=3, n_samples=60, n_jobs=1)["discards"]
    assert again["p"].tolist() == d["p"].tolist()          # same seed, same answer
    with pytest.raises(RuleError):
        danger_calibration("mcr", 1)
    with pytest.raises(RuleError):
        danger_calibration("mcr", 4, max_discards=0)


def test_calibration_plot():
    from majiang import plots
    out = danger_calibration("mcr", 2, max_discards=4, n_samples=40, n_jobs=1, bins=2)
    fig = plots.calibration(out, title="tiny")
    assert fig.axes
    with pytest.raises(majiang.MahjongError):
        plots.calibration({})


@pytest.mark.slow
def test_botzone_calibration_runs():
    from majiang.studies.calibration import botzone_calibration
    out = botzone_calibration(n_samples=100)
    assert len(out["discards"]) > 300
    assert out["discards"]["truth"].sum() >= 1


def test_fit_recalibration_recovers_known_coefficients():
    # Outcomes drawn from a known Platt map of known raw probabilities: maximum likelihood
    # recovers (a, b) to within sampling error (n = 200,000, s.e. of each about 0.01-0.02).
    from majiang.studies.calibration import fit_recalibration
    rng = np.random.default_rng(3)
    p = np.where(rng.random(200_000) < 0.15, 0.0, rng.beta(0.6, 30, 200_000))
    x = p + 1e-4
    a, b = -0.3, 0.8
    q = 1 / (1 + np.exp(-(a + b * np.log(x / (1 - x)))))
    y = rng.random(len(p)) < q
    fa, fb = fit_recalibration(p, y)
    assert abs(fa - a) < 0.1 and abs(fb - b) < 0.03
    with pytest.raises(RuleError, match="both outcomes"):
        fit_recalibration(p[:10], np.zeros(10))

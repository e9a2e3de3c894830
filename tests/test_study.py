"""Rule-variant studies (issue 10 items 3 and 5): majiang.compare_rulesets, its interval
functions and the ``majiang study`` command.

Correctness sources, independent of the code under test:
* the interval functions against scipy.stats (t quantiles, Wilson interval of
  binomtest, binomial distribution for the order-statistic ranks);
* coverage on data with a KNOWN answer: Bernoulli / Poisson / discrete draws, and
  whole simulate-shaped tables generated here from stated probabilities, summarised by
  summarize_hands, with every metric's truth in closed form;
* the metrics of real simulate runs recomputed here with plain pandas (explode /
  groupby), for a single-winner, a multiple-winner and a 血流成河 ruleset.
"""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import majiang
from majiang.cli import main
from majiang.errors import MahjongError, RuleError
from majiang.studies import compare as C
from majiang.studies import compare_rulesets, draws_distribution, summarize_hands

stats = pytest.importorskip("scipy.stats")


# ---------------------------------------------------------------- interval functions

@pytest.mark.parametrize("df", [1, 2, 3, 4, 5, 7, 10, 29, 30, 99, 100, 500, 999, 1000,
                                1001, 5000, 10**5, 10**7])
@pytest.mark.parametrize("confidence", [0.5, 0.9, 0.95, 0.99])
def test_t_critical_matches_scipy(df, confidence):
    want = stats.t.ppf(0.5 + confidence / 2, df)
    assert C.t_critical(confidence, df) == pytest.approx(want, rel=1e-10, abs=1e-12)


@pytest.mark.parametrize("n", [1, 2, 5, 20, 173, 1000, 123456])
def test_wilson_matches_scipy(n):
    for k in sorted({0, 1, n // 3, n // 2, n - 1, n}):
        ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
        lo, hi = C.wilson_interval(k, n)
        assert float(lo) == pytest.approx(ci.low, abs=1e-12)
        assert float(hi) == pytest.approx(ci.high, abs=1e-12)
    lo, hi = C.wilson_interval(np.array([0, 3]), np.array([0, 10]))
    assert np.isnan(lo[0]) and np.isnan(hi[0]) and lo[1] > 0


@pytest.mark.parametrize("n", [10, 37, 200, 5000])
@pytest.mark.parametrize("q", [0.1, 0.25, 0.5, 0.9])
def test_quantile_ranks_from_scipy_binomial(n, q):
    """The order statistics are the ranks the binomial distribution gives (computed
    here with scipy), and the value is numpy's inverted_cdf quantile."""
    x = np.random.default_rng(n).normal(size=n)
    value, lo, hi, count = C.quantile_interval(x, q)
    xs = np.sort(x)
    F = stats.binom.cdf(np.arange(n + 1), n, q)
    j_lo = max([j for j in range(n + 1) if F[j] <= 0.025], default=-1)
    j_hi = min(j for j in range(n + 1) if F[j] >= 0.975)
    l, u = min(max(j_lo + 1, 1), n), min(max(j_hi + 1, 1), n)
    assert (lo, hi, count) == (xs[l - 1], xs[u - 1], n)
    assert value == np.quantile(x, q, method="inverted_cdf")
    if 1 < l and u < n:      # not clipped: the binomial coverage is at least 95 %
        assert stats.binom.cdf(u - 1, n, q) - stats.binom.cdf(l - 1, n, q) >= 0.95


def test_wilson_covers_a_known_proportion():
    rng = np.random.default_rng(11)
    for p, n in ((0.3, 200), (0.05, 1000), (0.7, 60)):
        k = rng.binomial(n, p, size=4000)
        lo, hi = C.wilson_interval(k, n)
        cover = np.mean((lo <= p) & (p <= hi))
        assert 0.93 <= cover <= 0.975, (p, n, cover)


def test_t_interval_covers_a_known_mean():
    rng = np.random.default_rng(12)
    hits = 0
    for _ in range(2000):
        x = rng.poisson(40, 30)
        _, lo, hi, _ = C.mean_interval(x)
        hits += lo <= 40 <= hi
    assert 0.93 <= hits / 2000 <= 0.97


def test_quantile_interval_covers_discrete_and_continuous_quantiles():
    rng = np.random.default_rng(13)
    reps = 1500
    for q in (0.1, 0.5, 0.9):
        truth = stats.poisson.ppf(q, 40)        # discrete: conservative, never below 95 %
        hits = sum(lo <= truth <= hi
                   for _, lo, hi, _ in (C.quantile_interval(rng.poisson(40, 200), q)
                                        for _ in range(reps)))
        assert hits / reps >= 0.95
        truth = stats.expon.ppf(q)              # continuous: close to 95 %
        hits = sum(lo <= truth <= hi
                   for _, lo, hi, _ in (C.quantile_interval(rng.exponential(size=300), q)
                                        for _ in range(reps)))
        assert 0.93 <= hits / reps <= 0.985


SCORE_VALUES = np.array([-8, -8, -8, 24, -2, 2, 0, 40, -40])
SCORE_PROBS = np.array([.3, .2, .1, .1, .1, .1, .05, .03, .02])
SCORE_MEAN = float(SCORE_VALUES @ SCORE_PROBS)
SCORE_VAR = float(((SCORE_VALUES - SCORE_MEAN) ** 2) @ SCORE_PROBS)


def test_variance_interval_covers_a_known_variance_of_skewed_scores():
    """Skewed, heavy-tailed score-like values (a rare ±40): the chi-square interval
    would be wrong here; the log-asymptotic one holds near 95 %."""
    rng = np.random.default_rng(14)
    reps, hits, chi_hits = 2000, 0, 0
    for _ in range(reps):
        x = rng.choice(SCORE_VALUES, 400, p=SCORE_PROBS)
        s2, lo, hi, n = C.variance_interval(x)
        hits += lo <= SCORE_VAR <= hi
        c_lo = (n - 1) * s2 / stats.chi2.ppf(0.975, n - 1)
        c_hi = (n - 1) * s2 / stats.chi2.ppf(0.025, n - 1)
        chi_hits += c_lo <= SCORE_VAR <= c_hi
    assert 0.92 <= hits / reps <= 0.975
    assert chi_hits / reps < 0.85          # why the normal-theory interval is not used
    assert C.variance_interval([3, 3, 3, 3, 3]) == (0.0, 0.0, 0.0, 5)


def _clustered_hands(rng, H):
    """Hands with 0-4 wins each; within a hand the wins share a chance (0.6 or 0.2) of
    scoring a fan, so wins of one hand are correlated; the per-win share is 0.4."""
    m = rng.integers(0, 5, H)
    ph = np.where(rng.random(H) < 0.5, 0.6, 0.2)
    return m, rng.binomial(m, ph)


def test_clustered_share_covers_where_treating_wins_as_independent_does_not():
    rng = np.random.default_rng(15)
    reps, clustered, naive = 2000, 0, 0
    for _ in range(reps):
        m, y = _clustered_hands(rng, 300)
        p, lo, hi, n_eff = C.clustered_share([y.sum()], [np.sum(y * y)], [np.sum(y * m)], m)
        clustered += lo[0] <= 0.4 <= hi[0]
        assert n_eff[0] <= m.sum()
        lo2, hi2 = C.wilson_interval(y.sum(), m.sum())
        naive += lo2 <= 0.4 <= hi2
    assert 0.93 <= clustered / reps <= 0.97
    assert naive / reps < 0.93


def test_clustered_mean_covers_a_known_per_win_mean():
    rng = np.random.default_rng(16)
    reps, hits = 1500, 0
    for _ in range(reps):
        m = rng.integers(0, 5, 300)
        mu = rng.exponential(3.0, 300)           # a hand effect; per-win mean 3
        s = rng.poisson(mu * m)                  # sum of m Poisson(mu) values
        _, lo, hi, method = C.clustered_mean(s, m)
        hits += lo <= 3.0 <= hi
    assert method == "t-clustered"
    assert 0.925 <= hits / reps <= 0.97


# ---------------------------------------------------------------- known-answer tables

P_SINGLE = np.array([.31, .23, .23, .23])     # who wins (by seat from the dealer), if any
P_ANY = 0.85
P_BLOOD = np.array([.5, .4, .4, .4])          # 血战-like: each seat wins independently


def _fake_table(rng, H: int, blood: bool) -> pd.DataFrame:
    """A simulate-shaped table with stated probabilities (4 seats, dealer h % 4).

    Per win: self-draw with a hand-level chance 0.2 or 0.5 (share 0.35); fan "A" with a
    hand-level chance 0.6 or 0.2 (share 0.4), fan "B" with chance 0.1; fan total
    Poisson(mu), mu an Exponential(3) hand effect (mean 3); points = 2 total + 1 (7).
    Per hand: draws Poisson(40); each seat's score change drawn from SCORE_VALUES."""
    P = 4
    dealer = np.arange(H) % P
    if blood:
        won = rng.random((H, P)) < P_BLOOD
        rel = [list(rng.permutation(np.flatnonzero(w))) for w in won]
    else:
        who = rng.choice(P, size=H, p=P_SINGLE)
        rel = [[int(w)] if a else [] for w, a in zip(who, rng.random(H) < P_ANY)]
    s_h = np.where(rng.random(H) < .5, .2, .5)
    f_h = np.where(rng.random(H) < .5, .6, .2)
    mu = rng.exponential(3.0, H)
    deltas = rng.choice(SCORE_VALUES, size=(H, P), p=SCORE_PROBS)
    draws = rng.poisson(40, H)
    k = np.array([len(r) for r in rel])
    hand = np.repeat(np.arange(H), k)                  # the hand of each win
    W = int(k.sum())
    sd = rng.random(W) < s_h[hand]
    fa = rng.random(W) < f_h[hand]
    fb = rng.random(W) < 0.1
    tot = rng.poisson(mu[hand])
    cut = np.cumsum(k)[:-1]
    per = [np.split(a, cut) for a in (sd, fa, fb, tot)]
    return pd.DataFrame({
        "ruleset": "fake", "hand": np.arange(H), "dealer": dealer,
        "winners": [[int((d + r) % P) for r in rs] for d, rs in zip(dealer, rel)],
        "win_types": [["self_draw" if x else "discard" for x in v] for v in per[0]],
        "discarder": [[None if x else 0 for x in v] for v in per[0]],
        "fans": [[([["A", 1]] if a else []) + ([["B", 2]] if b else []) for a, b in zip(va, vb)]
                 for va, vb in zip(per[1], per[2])],
        "fan_totals": [[int(t) for t in v] for v in per[3]],
        "points": [[int(2 * t + 1) for t in v] for v in per[3]],
        "score_deltas": [[int(x) for x in row] for row in deltas], "draws": draws,
        "end": np.where(k > 0, "win", "wall")})


def _truth(blood: bool) -> dict:
    if blood:
        rates = P_BLOOD
        drawn = float(np.prod(1 - P_BLOOD))
        wins = float(P_BLOOD.sum())
    else:
        rates = P_ANY * P_SINGLE
        drawn = 1 - P_ANY
        wins = P_ANY
    t = {("win_rate", k): r for k, r in zip(C.seat_labels(4), rates)}
    t.update({("dealer_advantage", ""): rates[0] - rates[1:].mean(),
              ("self_draw_share", ""): 0.35, ("draw_rate", ""): drawn,
              ("wall_end_rate", ""): drawn, ("wins_per_hand", ""): wins,
              ("mean_draws", ""): 40.0, ("mean_fan_total", ""): 3.0, ("mean_points", ""): 7.0,
              ("fan_share", "A"): 0.4, ("fan_share", "B"): 0.1})
    for q in C.QUANTILES:
        t[("draws_quantile", C._q_key(q))] = stats.poisson.ppf(q, 40)
    for k in C.seat_labels(4):
        t[("score_mean", k)] = SCORE_MEAN
        t[("score_var", k)] = SCORE_VAR
    return t


@pytest.mark.parametrize("blood", [False, True], ids=["one-winner", "blood-battle"])
def test_summarize_hands_intervals_cover_known_answers(blood):
    """Every metric of summarize_hands on tables with a known answer: its interval
    holds the truth in about 95 % of 300 tables (>= 95 % for the discrete quantiles;
    binomial spread of 300 tables: +-0.04)."""
    rng = np.random.default_rng(2024 + blood)
    truth = _truth(blood)
    hits = dict.fromkeys(truth, 0)
    reps = 300
    methods = set()
    for _ in range(reps):
        s = summarize_hands(_fake_table(rng, 300, blood))
        got = {(r.metric, r.key): (r.lo, r.hi) for r in s.itertuples()}
        assert set(got) == set(truth)
        for k, v in truth.items():
            lo, hi = got[k]
            hits[k] += lo <= v <= hi
        methods |= set(s["method"])
    cover = {k: h / reps for k, h in hits.items()}
    low = {k: c for k, c in cover.items() if c < 0.9}
    high = {k: c for k, c in cover.items() if c > 0.99 and k[0] != "draws_quantile"}
    assert not low and not high, (low, high)
    assert ("wilson-clustered" in methods) == blood and ("t-clustered" in methods) == blood


@pytest.mark.slow
@pytest.mark.parametrize("blood", [False, True], ids=["one-winner", "blood-battle"])
def test_summarize_hands_coverage_full_size(blood):
    """The same with 2000 tables: every interval within 0.93..0.97 (discrete quantiles
    >= 0.95), a binomial spread of +-0.015 around 95 %."""
    rng = np.random.default_rng(99 + blood)
    truth = _truth(blood)
    hits = dict.fromkeys(truth, 0)
    reps = 2000
    for _ in range(reps):
        s = summarize_hands(_fake_table(rng, 400, blood))
        for r in s.itertuples():
            hits[(r.metric, r.key)] += r.lo <= truth[(r.metric, r.key)] <= r.hi
    cover = {k: h / reps for k, h in hits.items()}
    bad = {k: c for k, c in cover.items()
           if c < (0.95 if k[0] == "draws_quantile" else 0.93)
           or (c > 0.97 and k[0] != "draws_quantile")}
    assert not bad, bad


# ---------------------------------------------------------------- real runs vs pandas

def _direct(table: pd.DataFrame, players: int) -> dict:
    """The metrics of a simulate table computed with plain pandas."""
    n = len(table)
    t = table.reset_index(drop=True)
    w = t[["dealer", "winners", "win_types", "fan_totals", "points", "fans"]].copy()
    w["h"] = np.arange(n)
    wins = w.explode(["winners", "win_types", "fan_totals", "points", "fans"]).dropna(
        subset=["winners"])
    wins["rel"] = (wins["winners"].astype(int) - wins["dealer"]) % players
    out = {}
    per_seat = wins.groupby("rel")["h"].nunique()
    for r, key in enumerate(C.seat_labels(players)):
        out[("win_rate", key)] = per_seat.get(r, 0) / n
    won = pd.DataFrame(0.0, index=range(n), columns=range(players))
    for h, r in zip(wins["h"], wins["rel"]):
        won.loc[h, r] = 1.0
    out[("dealer_advantage", "")] = (won[0] - won.loc[:, 1:].mean(axis=1)).mean()
    # a win on a kong replacement draw (杠上开花) is self-drawn too
    out[("self_draw_share", "")] = wins["win_types"].isin(["self_draw",
                                                           "kong_replacement"]).mean()
    out[("draw_rate", "")] = (t["winners"].map(len) == 0).mean()
    out[("wall_end_rate", "")] = (t["end"] == "wall").mean()
    out[("wins_per_hand", "")] = t["winners"].map(len).mean()
    out[("mean_draws", "")] = t["draws"].mean()
    for q in (0.1, 0.25, 0.5, 0.75, 0.9):
        out[("draws_quantile", C._q_key(q))] = np.quantile(t["draws"], q, method="inverted_cdf")
    out[("mean_fan_total", "")] = wins["fan_totals"].astype(float).mean()
    out[("mean_points", "")] = wins["points"].astype(float).mean()
    names = wins["fans"].map(lambda fl: sorted({f[0] for f in fl}))
    counts = names.explode().dropna().value_counts()
    for name, c in counts.items():
        out[("fan_share", name)] = c / len(wins)
    d = pd.DataFrame(t["score_deltas"].tolist())
    for r, key in enumerate(C.seat_labels(players)):
        x = pd.Series([d.iat[h, (t["dealer"][h] + r) % players] for h in range(n)])
        out[("score_mean", key)] = x.mean()
        out[("score_var", key)] = x.var()
    return out


@pytest.mark.parametrize("ruleset", ["mcr", "guangdong", "sichuan_xueliu"])
def test_metrics_equal_direct_pandas_computations(ruleset):
    table = majiang.simulate(ruleset, 120, seed=5, n_jobs=1)
    s = summarize_hands(table)
    rs = majiang.rules.get(ruleset)
    got = {(r.metric, r.key.split(" ")[0] if r.metric == "fan_share" else r.key): r.value
           for r in s.itertuples()}
    want = _direct(table, rs.players)
    for k, v in want.items():
        assert got[k] == pytest.approx(v, rel=1e-12, abs=1e-12), k
    # every fan of the ruleset's table has a row; those never scored are 0
    fans = s[s.metric == "fan_share"]
    assert {f"{f.chinese} {f.english}" for f in rs.fans} <= set(fans["key"])
    unseen = fans[~fans["key"].str.split(" ").str[0].isin(
        [k[1] for k in want if k[0] == "fan_share"])]
    assert (unseen["value"] == 0).all() and (unseen["lo"] == 0).all() and (unseen["hi"] > 0).all()
    assert (s["lo"].fillna(-np.inf) <= s["value"].fillna(0) + 1e-12).all()
    assert (s["value"].fillna(0) <= s["hi"].fillna(np.inf) + 1e-12).all()
    assert list(s.columns) == list(C.COLUMNS)
    assert s["n"].dtype == np.int64 and s["value"].dtype == np.float64
    n_wins = int(table["winners"].map(len).sum())
    assert (s.loc[s.metric.isin(["fan_share", "self_draw_share", "mean_fan_total"]), "n"]
            == n_wins).all()
    assert (s.loc[s.metric.isin(["win_rate", "draw_rate", "score_var"]), "n"] == 120).all()


def test_several_wins_per_hand_use_the_clustered_methods():
    s = summarize_hands(majiang.simulate("sichuan_xueliu", 60, seed=1, n_jobs=1))
    m = s.set_index(["metric", "key"])["method"]
    assert m[("self_draw_share", "")] == "wilson-clustered"
    assert m[("mean_fan_total", "")] == "t-clustered"
    assert m[("win_rate", "dealer")] == "wilson"
    one = summarize_hands(majiang.simulate("mcr", 60, seed=1, n_jobs=1)).set_index(["metric", "key"])
    assert one.loc[("self_draw_share", ""), "method"] == "wilson"


def test_draws_distribution_is_the_histogram():
    table = majiang.simulate("guangdong", 80, seed=2, n_jobs=1)
    d = draws_distribution(table)
    vc = table["draws"].value_counts().sort_index()
    assert d["draws"].tolist() == vc.index.tolist()
    assert d["hands"].tolist() == vc.tolist()
    assert d["share"].sum() == pytest.approx(1.0)
    assert (d["ruleset"] == "guangdong").all()
    assert (d["lo"] <= d["share"]).all() and (d["share"] <= d["hi"]).all()


# ---------------------------------------------------------------- compare_rulesets

def test_compare_rulesets_is_each_ruleset_summarised_in_order():
    t = compare_rulesets(["mcr", "sichuan"], 40, seed=3)
    assert list(dict.fromkeys(t["ruleset"])) == ["mcr", "sichuan"]
    # the study's default players are the experts, and the table says so
    assert t.attrs["players"] == {"mcr": ["expert"] * 4, "sichuan": ["expert"] * 4}
    for name in ("mcr", "sichuan"):
        alone = summarize_hands(majiang.simulate(name, 40, seed=3, players="expert"))
        part = t[t["ruleset"] == name].reset_index(drop=True)
        pd.testing.assert_frame_equal(part, alone)
    assert majiang.compare_rulesets is compare_rulesets
    assert "compare_rulesets" in majiang.__all__


def test_compare_rulesets_is_deterministic_and_independent_of_the_others():
    a = compare_rulesets(["guangdong", "mcr"], 30, seed=9)
    b = compare_rulesets(["guangdong", "mcr"], 30, seed=9)
    pd.testing.assert_frame_equal(a, b)
    only = compare_rulesets("mcr", 30, seed=9)
    pd.testing.assert_frame_equal(a[a.ruleset == "mcr"].reset_index(drop=True), only)
    c = compare_rulesets(["guangdong", "mcr"], 30, seed=10)
    assert not a["value"].equals(c["value"])


def test_simulate_and_study_tables_say_who_played():
    df = majiang.simulate("mcr", 3, seed=1, players=["efficiency", "random"] * 2,
                          progress=False)
    assert df.attrs["players"] == ["efficiency", "random"] * 2
    t = compare_rulesets(["mcr"], 3, seed=1, players="random", progress=False)
    assert t.attrs["players"] == {"mcr": ["random"] * 4}


def test_compare_rulesets_n_jobs_does_not_change_the_table():
    a = compare_rulesets(["guangdong"], 120, seed=4, n_jobs=1)
    b = compare_rulesets(["guangdong"], 120, seed=4, n_jobs=2)
    pd.testing.assert_frame_equal(a, b)


def test_labels_ruleset_objects_toml_files_and_per_ruleset_options(tmp_path):
    import dataclasses
    house = tmp_path / "house.toml"
    house.write_text('base = "mcr"\nname = "mcr_study_test_nomin"\n[rules]\nmin_fan = 0\n',
                     encoding="utf-8")
    variant = dataclasses.replace(majiang.rules.get("guangdong"), name="gd_study_variant")
    t = compare_rulesets({"official": "mcr", "house": str(house), "obj": variant,
                          "sichuan 换三张": ("sichuan", {"exchange3": True})}, 20, seed=1)
    assert list(dict.fromkeys(t["ruleset"])) == ["official", "house", "obj", "sichuan 换三张"]
    swap = majiang.simulate("sichuan", 20, seed=1, exchange3=True, players="expert")
    pd.testing.assert_frame_equal(
        t[t.ruleset == "sichuan 换三张"].reset_index(drop=True),
        summarize_hands(swap, ruleset="sichuan", label="sichuan 换三张"))
    by_path = compare_rulesets([house], 20, seed=1)          # a Path, labelled by its name
    assert set(by_path["ruleset"]) == {"mcr_study_test_nomin"}


def test_out_writes_each_ruleset_in_its_own_directory_and_resumes(tmp_path):
    import inspect
    if "out" not in inspect.signature(majiang.simulate).parameters:
        pytest.skip("this majiang.simulate has no out option")
    spec = {"mcr": "mcr", "sichuan 换三张": ("sichuan", {"exchange3": True})}
    a = compare_rulesets(spec, 60, seed=1, n_jobs=1, out=tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mcr", "sichuan_换三张"]
    pd.testing.assert_frame_equal(a, compare_rulesets(spec, 60, seed=1, n_jobs=1))
    pd.testing.assert_frame_equal(a, compare_rulesets(spec, 60, seed=1, n_jobs=1, out=tmp_path))
    with pytest.raises(RuleError, match=r"^mcr: .*different"):
        compare_rulesets(["mcr"], 60, seed=2, n_jobs=1, out=tmp_path)


@pytest.mark.parametrize("rulesets, n, match", [
    (["mcr", "no_such_rules"], 5, "unknown ruleset 'no_such_rules'"),
    ([], 5, "at least one ruleset"),
    ({}, 5, "at least one ruleset"),
    (["mcr", "mcr"], 5, "duplicate ruleset name"),
    (["mcr", "guobiao"], 5, "duplicate ruleset name"),      # an alias of mcr
    (["mcr"], 0, "n_hands must be a positive int"),
    (["mcr"], -3, "n_hands must be a positive int"),
    (["mcr"], 2.5, "n_hands must be a positive int"),
    (["mcr"], True, "n_hands must be a positive int"),
    ([42], 5, "registered name, a Ruleset or a house-rule"),
    (["missing_house_rules.toml"], 5, "cannot read house rules"),
    (["  "], 5, "empty ruleset name"),
    (7, 5, "rulesets must be a list"),
])
def test_bad_input_raises_rule_error(rulesets, n, match):
    with pytest.raises(RuleError, match=match):
        compare_rulesets(rulesets, n)


def test_bad_players_and_options_name_the_ruleset():
    with pytest.raises(RuleError, match=r"^kawuxing: .*player"):
        compare_rulesets(["kawuxing"], 2, players=["random"] * 4)
    with pytest.raises(RuleError, match="mcr: bad run option"):
        compare_rulesets(["mcr"], 2, no_such_option=1)
    with pytest.raises(RuleError, match="confidence"):
        compare_rulesets(["mcr"], 2, confidence=95)
    with pytest.raises(RuleError, match="quantile"):
        compare_rulesets(["mcr"], 2, quantiles=[0.5, 1.0])
    with pytest.raises(MahjongError, match="missing column"):
        summarize_hands(pd.DataFrame({"dealer": [0]}))
    with pytest.raises(MahjongError, match="empty"):
        summarize_hands(majiang.simulate("mcr", 1, seed=0).iloc[:0])
    ragged = majiang.simulate("mcr", 2, seed=0, n_jobs=1)
    ragged.at[1, "score_deltas"] = [1, 2, 3]
    with pytest.raises(MahjongError, match="score_deltas"):
        summarize_hands(ragged)
    with pytest.raises(MahjongError, match="score_deltas must hold 4"):
        summarize_hands(ragged.iloc[1:])
    with pytest.raises(RuleError, match="degrees of freedom"):
        C.t_critical(0.95, 0)


# ---------------------------------------------------------------- CLI

def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_study_json_is_the_compare_table(capsys):
    code, out, err = _run(capsys, "study", "mcr", "guangdong", "-n", "30", "--seed", "2",
                          "--json")
    assert code == 0, err
    data = json.loads(out)
    want = compare_rulesets(["mcr", "guangdong"], 30, seed=2, n_jobs=1)
    assert data["rulesets"] == ["mcr", "guangdong"]
    assert (data["hands"], data["seed"]) == (30, 2)
    rows = pd.DataFrame(data["rows"])
    assert list(rows.columns) == list(C.COLUMNS)
    assert len(rows) == len(want)
    assert rows["key"].tolist() == want["key"].tolist()
    np.testing.assert_allclose(rows["value"].astype(float), want["value"], rtol=1e-12)
    np.testing.assert_allclose(rows["hi"].astype(float), want["hi"], rtol=1e-12)


def test_study_text_table_and_plot(capsys, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    import majiang.plots as P
    titles = []
    draw = P.compare

    def compare(table, *a, **kw):
        titles.append(kw.get("title"))
        return draw(table, *a, **kw)
    monkeypatch.setattr(P, "compare", compare)
    png = tmp_path / "study.png"
    code, out, err = _run(capsys, "study", "sichuan", "guangdong", "-n", "30",
                          "--players", "random", "--plot", str(png))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("rulesets sichuan, guangdong; 30 hands each")
    header = next(l for l in lines if l.startswith("metric"))
    assert "sichuan" in header and "guangdong" in header
    assert any(l.startswith("win rate") and "dealer" in l for l in lines)
    assert any(l.startswith("draw rate (荒庄)") for l in lines)
    assert any("[" in l and "]" in l for l in lines)          # intervals shown
    want = compare_rulesets(["sichuan", "guangdong"], 30, players="random", n_jobs=1)
    v = want.query("ruleset == 'sichuan' and metric == 'draw_rate'")["value"].iloc[0]
    drawn = next(l for l in lines if l.startswith("draw rate"))
    assert f"{100 * v:.1f}%" in drawn
    assert png.exists() and png.stat().st_size > 1000
    # the figure says who played, as the first line does
    assert titles == ["sichuan, guangdong: 30 hands each; players random in every seat"]


def test_study_errors(capsys):
    code, _, err = _run(capsys, "study", "mcr", "nope", "-n", "5")
    assert code == 2 and "unknown ruleset 'nope'" in err
    code, _, err = _run(capsys, "study", "mcr", "-n", "0")
    assert code == 2 and "-n must be 1 or more" in err
    code, _, err = _run(capsys, "study", "mcr", "mcr", "-n", "3")
    assert code == 2 and "duplicate" in err
    code, _, err = _run(capsys, "study", "mcr", "-n", "3", "--jobs", "0")
    assert code == 2 and "--jobs" in err
    code, _, err = _run(capsys, "study", "mcr", "-n", "3", "--chunk-size", "0")
    assert code == 2 and "--chunk-size" in err


def test_study_out_and_jobs_do_not_change_the_table(capsys, tmp_path):
    argv = ["study", "mcr", "sichuan", "-n", "60", "--seed", "4", "--json", "--no-progress"]
    code, one, err = _run(capsys, *argv, "--jobs", "1")
    assert code == 0, err
    code, two, err = _run(capsys, *argv, "--jobs", "2", "--out", str(tmp_path),
                          "--chunk-size", "25")
    assert code == 0, err
    a, b = json.loads(one), json.loads(two)
    assert b.pop("out") == str(tmp_path)
    assert a == b
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mcr", "sichuan"]
    assert _run(capsys, "study")[0] == 2                          # usage: RULESET required


def test_study_help(capsys):
    code, out, _ = _run(capsys, "--help")
    assert code == 0 and "study" in out and "95% intervals" in out
    code, out, _ = _run(capsys, "study", "--help")
    assert code == 0 and "--plot FILE" in out and "Wilson" in out


def test_metric_labels_cover_every_metric():
    # the text table (majiang study) and the plot panels (plots.compare) read their
    # labels from this one table: each metric has a row label and a panel title
    assert list(C.METRIC_LABELS) == list(C.METRICS)
    for metric, (label, title) in C.METRIC_LABELS.items():
        assert label and title, metric

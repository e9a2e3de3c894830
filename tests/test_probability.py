"""Win / tenpai probabilities: closed forms, an independent reference DP, Monte Carlo
agreement, rulesets, starting hands, API errors."""
from __future__ import annotations

import math
import re
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest

import majiang
from majiang import probability as P
from majiang.efficiency import shanten as _shanten
from majiang.errors import InvalidHandError, MahjongError, RuleError
from majiang.tiles import parse_counts, parse_tile

TENPAI = [
    # hand, waits (kinds), visible
    ("123456789m1234p", "14p", None),          # 1p/4p, 6 live
    ("123456789m1135p", "4p", "44p"),           # closed wait, 2 visible -> 2 live
    ("1112345678999m", "123456789m", None),    # nine gates: 9 kinds, 23 live
    ("1122334455667z", "7z", "77z"),           # seven pairs single wait, 1 live
]


def _live(hand: str, waits: str, visible: str | None) -> tuple[int, int]:
    c = parse_counts(hand)
    v = parse_counts(visible) if visible else np.zeros(34, np.uint8)
    kinds = [parse_tile(f"{d}{waits[-1]}") for d in waits[:-1]]
    k = sum(4 - int(c[w]) - int(v[w]) for w in kinds)
    U = 136 - int(c.sum()) - int(v.sum())
    return k, U


# ---------------------------------------------------------------- closed forms
@pytest.mark.parametrize("hand,waits,visible", TENPAI)
def test_next_draw_is_k_over_u(hand, waits, visible):
    k, U = _live(hand, waits, visible)
    p = P.win_probability(hand, 1, visible=visible, method="exact", ruleset="plain")
    assert p.se == 0.0 and p.method == "exact"
    assert Fraction(p.value).limit_denominator(10**6) == Fraction(k, U)
    assert p.value == pytest.approx(k / U, abs=1e-15)


@pytest.mark.parametrize("hand,waits,visible", TENPAI)
@pytest.mark.parametrize("T", [2, 5, 18, 40])
def test_hypergeometric_closed_form(hand, waits, visible, T):
    k, U = _live(hand, waits, visible)
    closed = 1 - Fraction(math.comb(U - k, T), math.comb(U, T))
    # the wait-keeping policy (restricted search, no change move) is the closed form
    r = P.probabilities(hand, T, visible=visible, method="exact", changes=0, ruleset="plain")
    assert r.policy == "changes<=0" and r.model == "kind counts"
    assert r.p_win == pytest.approx(float(closed), rel=1e-12, abs=1e-15)
    # the curve is the closed form at every horizon t <= T
    for t in range(1, T + 1):
        assert r.win_curve[t - 1] == pytest.approx(
            1 - math.comb(U - k, t) / math.comb(U, t), rel=1e-12, abs=1e-15)
    # richer searches are never below the wait-keeping policy
    assert P.win_probability(hand, T, visible=visible, changes=1, ruleset="plain").value >= float(closed) - 1e-12
    if T == 2:      # the best play of the model (true wall) is never below it
        best = P.win_probability(hand, T, visible=visible, method="exact", max_states=400_000, ruleset="plain")
        assert best.policy == "optimal" and best.value >= float(closed) - 1e-12
    assert r.p_tenpai == 1.0 and np.all(r.tenpai_curve == 1.0)


def test_dead_wait_is_zero_without_changes_and_positive_with():
    # 1p/4p all visible: the restricted search cannot win, a change move can
    vis = "1111p444p"
    assert P.win_probability("123456789m1234p", 10, visible="111p444p", ruleset="plain").value == 0.0
    assert P.win_probability("123456789m1234p", 10, visible="111p444p", changes=1, ruleset="plain").value > 0.0
    with pytest.raises(InvalidHandError):
        P.win_probability("123456789m1234p", 10, visible=vis, ruleset="plain")     # fifth copies of 1p and 4p


# ---------------------------------------------------------------- reference DP
def _reference(hand: str, T: int):
    """Plain-Python backward induction of the same model (S1 + S2, no changes)."""
    h0 = tuple(int(x) for x in parse_counts(hand))
    u0 = tuple(4 - x for x in h0)
    U = sum(u0)

    def sh(h):
        return _shanten(np.array(h, dtype=np.uint8), ruleset="plain")

    @lru_cache(maxsize=None)
    def edges(h):
        s = sh(h)
        out = []
        for k in range(34):
            if u0[k] == 0 or h[k] >= 4:
                continue
            h14 = list(h)
            h14[k] += 1
            s14 = sh(h14)
            if s14 == -1:
                out.append((k, True, ()))
            elif s14 < s:
                succ = []
                for d in range(34):
                    if h14[d] and d != k:
                        h13 = list(h14)
                        h13[d] -= 1
                        if sh(h13) == s14:
                            succ.append(tuple(h13))
                out.append((k, False, tuple(succ)))
        return tuple(out)

    @lru_cache(maxsize=None)
    def V(h, t):
        if t == T:
            return 0.0
        stay = V(h, t + 1)
        lives = []
        for k, win, succ in edges(h):
            live = u0[k] - max(0, h[k] - h0[k])
            lives.append(max(live, 0))
        den = max(U - t, sum(lives))
        acc, pe = 0.0, 0.0
        for (k, win, succ), live in zip(edges(h), lives):
            if live <= 0:
                continue
            p = live / den
            pe += p
            acc += p * (1.0 if win else max([stay] + [V(s, t + 1) for s in succ]))
        return acc + (1 - pe) * stay

    return V(h0, 0)


@pytest.mark.parametrize("hand,T", [("2225678m88p1246s", 8), ("35567m459p4456s2z", 7),
                                    ("36m1456788p3556s", 5), ("1122m3344p5566s7z", 6)])
def test_kernel_matches_python_reference(hand, T):
    assert P.win_probability(hand, T, method="exact", changes=0, ruleset="plain").value == pytest.approx(
        _reference(hand, T), rel=1e-10, abs=1e-14)


# ---------------------------------------------------------------- exact vs Monte Carlo
def _random_hands(n_each: int, seed: int):
    rng = np.random.default_rng(seed)
    out = {1: [], 2: []}
    while min(len(v) for v in out.values()) < n_each:
        c = np.bincount(rng.choice(136, 13, replace=False) // 4, minlength=34).astype(np.uint8)
        s = _shanten(c, ruleset="plain")
        if s in out and len(out[s]) < n_each:
            out[s].append(majiang.format_counts(c))
    return out[1] + out[2]


@pytest.mark.parametrize("hand", _random_hands(10, 2024))
def test_exact_agrees_with_real_wall_monte_carlo(hand):
    T = 12
    ex = P.probabilities(hand, T, method="exact", changes=0, ruleset="plain")
    mc = P.probabilities(hand, T, method="monte_carlo", policy="optimal", seed=7,
                         n_samples=20_000, n_jobs=2, changes=0, ruleset="plain")
    assert mc.policy == ex.policy == "changes<=0" and mc.model == "real walls"
    assert ex.method == "exact" and mc.method == "monte_carlo" and mc.n_samples == 20_000
    assert abs(ex.p_win - mc.p_win) <= 3 * mc.se_win + 1e-12
    assert abs(ex.p_tenpai - mc.p_tenpai) <= 3 * mc.se_tenpai + 1e-12
    # the whole curve, point by point
    assert np.all(np.abs(ex.win_curve - mc.win_curve) <= 3 * mc.win_curve_se + 1e-12)


def test_greedy_never_beats_optimal_by_more_than_noise():
    for hand in _random_hands(3, 5):
        ex = P.probabilities(hand, 12, method="exact", changes=0, ruleset="plain")
        gr = P.probabilities(hand, 12, method="monte_carlo", policy="greedy", seed=3,
                             n_samples=10_000, ruleset="plain")
        assert gr.p_win <= ex.p_win + 4 * gr.se_win


def test_monte_carlo_reproducible_and_independent_of_jobs():
    a = P.probabilities("2225678m88p1246s", 10, method="monte_carlo", seed=123,
                        n_samples=5000, n_jobs=1, ruleset="plain")
    b = P.probabilities("2225678m88p1246s", 10, method="monte_carlo", seed=123,
                        n_samples=5000, n_jobs=2, ruleset="plain")
    c = P.probabilities("2225678m88p1246s", 10, method="monte_carlo",
                        seed=np.random.default_rng(123), n_samples=5000, ruleset="plain")
    assert a.p_win == b.p_win and np.array_equal(a.win_curve, b.win_curve)
    assert 0 < c.p_win < 1 and c.se_win > 0


def test_auto_uses_exact_up_to_two_shanten_and_mc_beyond():
    assert P.win_probability("2225678m88p1246s", 6, ruleset="plain").method == "exact"
    far = "258m258p258s1357z"           # many shanten: Monte Carlo, greedy policy
    r = P.probabilities(far, 6, seed=1, n_samples=2000, ruleset="plain")
    assert r.method == "monte_carlo" and r.policy == "greedy" and r.p_win == 0.0


# ---------------------------------------------------------------- results and curves
def test_curves_shape_monotone_and_end_at_probability():
    hand = "3m14567888p3556s"              # 2-shanten
    r = P.probabilities(hand, 18, ruleset="plain")
    for curve, p in ((r.win_curve, r.p_win), (r.tenpai_curve, r.p_tenpai)):
        assert curve.shape == (18,) and curve.dtype == np.float64
        assert np.all(np.diff(curve) >= -1e-15)
        assert curve[-1] == pytest.approx(p, abs=1e-12)
    assert r.method == "exact"
    np.testing.assert_array_equal(P.win_curve(hand, 18, ruleset="plain"), r.win_curve)
    np.testing.assert_array_equal(P.tenpai_curve(hand, 18, ruleset="plain"), r.tenpai_curve)
    assert 0 < r.p_win < r.p_tenpai < 1
    assert float(P.tenpai_probability(hand, 18, ruleset="plain")) == r.p_tenpai


def test_fourteen_tile_hand_uses_best_discard():
    table = P.discard_probabilities("2225678m88p12466s", 18, ruleset="plain")
    assert list(table.columns) == ["discard", "shanten", "p_tenpai", "p_win", "se_tenpai",
                                   "se_win", "method", "model", "policy", "note"]
    # discards that raise the shanten are NaN unless asked for
    assert table.loc[table["shanten"] > table["shanten"].min(), "p_win"].isna().all()
    full = P.discard_probabilities("2225678m88p12466s", 10, all_discards=True, ruleset="plain")
    assert not full["p_win"].isna().any()


def test_draws_zero():
    r = P.probabilities("123456789m1234p", 0, ruleset="plain")
    assert r.p_win == 0.0 and r.p_tenpai == 1.0 and r.win_curve.shape == (0,)
    assert P.tenpai_probability("2225678m88p1246s", 0, ruleset="plain").value == 0.0


def test_advise_gains_probability_columns():
    plain = majiang.advise("2225678m88p12466s", ruleset="plain")
    assert "p_win" not in plain.columns
    adv = majiang.advise("2225678m88p12466s", draws=18, ruleset="plain")
    assert {"p_tenpai", "p_win"} <= set(adv.columns)
    # ranked by p_win first (breaking to a wide 2-shanten shape beats the narrow
    # 1-shanten ones over 18 draws), every discard filled
    assert adv.loc[0, "p_win"] == pytest.approx(adv["p_win"].max())
    assert adv["p_win"].notna().all()
    assert list(adv["p_win"]) == sorted(adv["p_win"], reverse=True)


def test_melds_and_visible_tiles():
    r = P.probabilities("123m456p789s1p [555z]", 1, ruleset="plain")   # single wait on 1p... with a pung
    U = 136 - 13 - 0
    assert r.p_win == pytest.approx(3 / U)
    assert P.win_probability("123m456p789s1p [555z]", 1, visible="1p", ruleset="plain").value == pytest.approx(
        2 / (U - 1))


# ---------------------------------------------------------------- rulesets
def test_pair_258_rule_of_changsha():
    # single wait on the pair tile: 5m satisfies 二五八将, 1m does not (长沙, 108 tiles)
    assert P.win_probability("123m456p789s123s5m", 5, ruleset="changsha").value > 0
    assert P.win_probability("123m456p789s123s1m", 1, ruleset="changsha").value == 0.0
    assert P.win_probability("123m456p789s123s1m", 5, ruleset="plain").value > 0
    # seven pairs is a 大胡: any pair
    assert P.win_probability("1122m3344p5566s7s", 1, ruleset="changsha").value == \
        pytest.approx(3 / 95)


def test_void_suit_rule_of_sichuan():
    assert P.win_probability("123456789m1234p", 5, ruleset="sichuan").value > 0
    # three suits: 缺一门 needs at least four draws
    assert P.win_probability("123456m123p123s1s", 3, ruleset="sichuan").value == 0.0
    assert P.win_probability("123456m123p123s1s", 3, ruleset="plain").value > 0


def test_predicate_errors_and_unknown_ruleset(monkeypatch):
    import majiang.scoring as S

    def boom(*a, **k):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(S, "check_win", boom)
    with pytest.raises(RuleError, match="boom"):
        P.win_probability("123456789m1234p", 5, ruleset="changsha")

    def interrupt(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(S, "check_win", interrupt)
    with pytest.raises(KeyboardInterrupt):
        P.win_probability("123456789m1234p", 5, ruleset="changsha")
    with pytest.raises(KeyboardInterrupt):
        P.win_probability("123456789m1234p", 5, ruleset="changsha", method="monte_carlo",
                          policy="greedy", n_samples=100)
    monkeypatch.undo()
    with pytest.raises(RuleError, match="unknown ruleset"):
        P.win_probability("123456789m1234p", 5, ruleset="no-such-rules")


@pytest.mark.parametrize("hand", ["222456m13567p22s", "2234567m777p789s"])
def test_mcr_minimum_fan(hand):
    pytest.importorskip("majiang.scoring")
    # every completion of these hands scores below 8 fans (self-drawn)
    assert P.win_probability(hand, 1, ruleset="mcr").value == 0.0
    assert P.win_probability(hand, 12, ruleset="mcr").value == 0.0
    assert P.win_probability(hand, 12, ruleset="plain").value > 0.0
    assert P.win_probability(hand, 1, ruleset="plain").value > 0.0


def test_mcr_counts_fans_above_minimum():
    pytest.importorskip("majiang.scoring")
    # 123456789m1234p: 清龙 + 不求人 + ... >= 8 on both waits
    assert P.win_probability("123456789m1234p", 6, ruleset="mcr").value == pytest.approx(
        P.win_probability("123456789m1234p", 6, ruleset="plain").value)


def test_fan_odds_tables():
    pytest.importorskip("majiang.scoring")
    from majiang.odds import fan_odds
    df = fan_odds("123456789m1234p", 10, ruleset="mcr")
    win = float(df.loc[df["category"] == "win", "probability"].iloc[0])
    assert win == pytest.approx(P.win_probability("123456789m1234p", 10, ruleset="plain").value)
    assert df.loc[df["category"] == "total", "probability"].sum() == pytest.approx(win)
    fans = df[df["category"] == "fan"].set_index("name")["probability"]
    assert fans.max() <= win + 1e-12
    assert any("清龙" in n for n in fans.index)
    mc = fan_odds("123456789m1234p", 10, ruleset="mcr", method="monte_carlo", seed=1,
                  n_samples=4000)
    mwin = float(mc.loc[mc["category"] == "win", "probability"].iloc[0])
    se = float(mc.loc[mc["category"] == "win", "se"].iloc[0])
    assert abs(mwin - win) <= 4 * se
    # no ruleset: the default, Chinese Official rules
    assert fan_odds("123456789m1234p", 10).equals(df)


# ---------------------------------------------------------------- starting hands
PUBLISHED = {0: 0.000081, 1: 0.00621, 2: 0.0935, 3: 0.3620, 4: 0.3988, 5: 0.1310,
             6: 0.00836}


def test_starting_hand_shanten_matches_published_distribution():
    n = 400_000
    df = P.starting_hand_shanten(n, seed=2024, n_jobs=2, ruleset="plain")
    assert df["count"].sum() == n
    got = dict(zip(df["shanten"], df["fraction"]))
    for s, p in PUBLISHED.items():
        sigma = math.sqrt(p * (1 - p) / n)
        assert abs(got.get(s, 0.0) - p) <= 4 * sigma + 1e-5, (s, got.get(s), p)


def test_starting_hand_shanten_reproducible():
    a = P.starting_hand_shanten(50_000, seed=1, n_jobs=1, ruleset="plain")
    b = P.starting_hand_shanten(50_000, seed=1, n_jobs=2, ruleset="plain")
    assert a.equals(b)


# ---------------------------------------------------------------- errors
@pytest.mark.parametrize("kwargs,match", [
    ({"draws": -1}, "draws must be >= 0"),
    ({"draws": 1.5}, "draws must be a non-negative integer"),
    ({"draws": 500}, "more than the"),
    ({"draws": 5, "method": "magic"}, "unknown method"),
    ({"draws": 5, "policy": "random"}, "unknown policy"),
    ({"draws": 5, "n_samples": 0}, "n_samples"),
    ({"draws": 5, "seed": "x", "method": "monte_carlo"}, "seed"),
    ({"draws": 5, "changes": -1}, "changes"),
])
def test_bad_options(kwargs, match):
    with pytest.raises(RuleError, match=match):
        P.probabilities("2225678m88p1246s", **kwargs, ruleset="plain")


def test_bad_hands():
    with pytest.raises(MahjongError):
        P.win_probability("2225678m88p1246", 5, ruleset="plain")        # not a hand
    with pytest.raises(InvalidHandError, match="must discard"):
        P.discard_probabilities("2225678m88p1246s", 5, ruleset="plain")
    with pytest.raises(RuleError):
        P.starting_hand_shanten(0, ruleset="plain")
    with pytest.raises(RuleError, match="max_states"):
        P.probabilities("258m258p258s1357z", 8, method="exact", max_states=50, ruleset="plain")


# ---------------------------------------------------------------- hands that must discard
def _sichuan_reference(hand13, T: int, held=None) -> float:
    """The S1 model without change moves (as :func:`_reference`) under 四川: its 108-tile
    wall (no honors) and its shanten (void suit); 四川 judges wins by shape alone.
    ``held``: the tiles out of the wall (default the hand; a discarded tile is out too)."""
    from majiang.rules.model import game_model
    copies = tuple(int(x) for x in game_model("sichuan").copies)
    h0 = tuple(int(x) for x in hand13)
    out = h0 if held is None else tuple(int(x) for x in held)
    u0 = tuple(c - x for c, x in zip(copies, out))
    U = sum(u0)

    @lru_cache(maxsize=None)
    def sh(h):
        return int(majiang.shanten(np.array(h, dtype=np.uint8), ruleset="sichuan"))

    @lru_cache(maxsize=None)
    def edges(h):
        s = sh(h)
        out = []
        for k in range(34):
            if u0[k] == 0 or h[k] >= 4:
                continue
            h14 = list(h)
            h14[k] += 1
            s14 = sh(tuple(h14))
            if s14 == -1:
                out.append((k, True, ()))
            elif s14 < s:
                succ = [tuple(h14[:d] + [h14[d] - 1] + h14[d + 1:])
                        for d in range(34) if h14[d] and d != k]
                out.append((k, False, tuple(x for x in succ if sh(x) == s14)))
        return tuple(out)

    @lru_cache(maxsize=None)
    def V(h, t):
        if t == T:
            return 0.0
        stay = V(h, t + 1)
        acc, pe = 0.0, 0.0
        for k, win, succ in edges(h):
            live = max(u0[k] - max(0, h[k] - h0[k]), 0)
            if live:
                p = live / (U - t)
                pe += p
                acc += p * (1.0 if win else max([stay] + [V(x, t + 1) for x in succ]))
        return acc + (1 - pe) * stay

    return V(h0, 0)


def test_fourteen_tile_hand_is_its_best_discard_readme():
    # issue: 0.2813 (the best 1-shanten discard) was reported although discarding 2s
    # (2-shanten, a wider shape) wins more often under the same policy
    hand = "2225678m88p12466s"
    for rs in ("mcr", "sichuan"):
        h = hand if rs == "mcr" else "2225678p88s12466s"       # two suits for 四川
        full = P.discard_probabilities(h, 18, ruleset=rs, all_discards=True)
        w = P.win_probability(h, 18, ruleset=rs)
        t = P.tenpai_probability(h, 18, ruleset=rs)
        assert w.value == full["p_win"].max() and t.value == full["p_tenpai"].max()
        best = full.loc[full["p_win"] == full["p_win"].max(), "discard"].tolist()
        assert w.discard == best[0] and f"best discard {' or '.join(best)}" in w.note
        assert t.discard in full.loc[full["p_tenpai"] == t.value, "discard"].tolist()
        assert w.policy == full.loc[full["discard"] == best[0], "policy"].iloc[0]
    # the README hand: 2s (2-shanten) beats the 1-shanten discards under changes<=0
    w = P.win_probability(hand, 18, ruleset="mcr")
    assert w.discard == "2s" and majiang.shanten("2225678m88p1466s", ruleset="mcr") == 2
    r = P.probabilities(hand, 18, ruleset="mcr")
    assert r.discard == "2s" and r.win_curve[-1] == pytest.approx(r.p_win, abs=1e-12)
    assert r.tenpai_curve[-1] == pytest.approx(r.p_tenpai, abs=1e-12)


def test_fourteen_tile_auto_leaves_out_discards_it_would_only_sample():
    # 3-shanten under MCR: the discards that raise it to 4 would be played by the greedy
    # Monte Carlo (another policy, and 20 000 walls each); auto compares the exact ones
    hand = "1358m2469p1357s11z"
    assert majiang.shanten(hand, ruleset="mcr") == 3
    assert majiang.shanten("358m2469p1357s11z", ruleset="mcr") == 3
    assert majiang.shanten("1358m2469p1357s1z", ruleset="mcr") == 4
    r = P.probabilities(hand, 18, ruleset="mcr")
    low = P.discard_probabilities(hand, 18, ruleset="mcr")
    assert r.method == "exact" and r.p_win == low["p_win"].max()


@pytest.mark.parametrize("T", [3, 5])
def test_fourteen_tile_hand_matches_reference_max_over_discards(T):
    hand = "2225678p88s12466s"
    c = parse_counts(hand)
    # the discarded tile is out of the wall: 108 - 14 tiles unseen
    ref = max(_sichuan_reference(np.where(np.arange(34) == d, c - 1, c), T, held=c)
              for d in np.flatnonzero(c))
    got = P.win_probability(hand, T, ruleset="sichuan", method="exact", changes=0)
    assert got.value == pytest.approx(ref, rel=1e-10, abs=1e-14)


def test_fourteen_tile_tenpai_discard_closed_form():
    # 四川: 123456789p1155s + 9s.  Discarding 9s is tenpai on 1s/5s (L = 4 live of
    # U = 108 - 14 = 94); every other discard is 1-shanten or worse, so it cannot win
    # in one draw and wins in two with probability below 20/94 * 8/93 < 0.019, while
    # the kept wait wins in two with 1 - C(90,2)/C(94,2) > 0.08.
    hand, L, U = "123456789p1155s9s", 4, 94
    one = P.win_probability(hand, 1, ruleset="sichuan")
    assert one.value == pytest.approx(L / U, abs=1e-15) and one.discard == "9s"
    for T in (1, 2):
        closed = 1 - math.comb(U - L, T) / math.comb(U, T)
        r = P.probabilities(hand, T, ruleset="sichuan", method="exact", changes=0)
        assert r.p_win == pytest.approx(closed, rel=1e-12) and r.discard == "9s"
        assert r.p_tenpai == 1.0


# ---------------------------------------------------------------- complete hands
def _best_fan(hand: str, ruleset: str, self_drawn: bool = True):
    """The best fan total of THE predicate over the tiles of a complete 14-tile hand as
    the self-drawn (or discarded) winning one (None when none is a valid win), and the
    reasons."""
    c = parse_counts(hand)
    fans, reasons = [], []
    for k in np.flatnonzero(c):
        before = c.copy()
        before[k] -= 1
        chk = majiang.check_win(majiang.format_counts(before), int(k), ruleset=ruleset,
                                self_drawn=self_drawn)
        (fans if chk.valid else reasons).append(
            int(chk.result.total) if chk.valid else chk.reason)
    return (max(fans) if fans else None), reasons


@pytest.mark.parametrize("hand,ruleset", [("123m111z222z333z44z", "mcr"),
                                          ("11223344556677p", "sichuan")])
def test_complete_winning_hand_wins_now(hand, ruleset):
    fan, _ = _best_fan(hand, ruleset)
    assert fan is not None
    for T in (0, 1, 18):
        w = P.win_probability(hand, T, ruleset=ruleset)
        t = P.tenpai_probability(hand, T, ruleset=ruleset)
        assert w.value == 1.0 and t.value == 1.0 and w.se == 0.0
        assert w.note == f"complete: wins now, {fan} fan" and t.note == w.note
        assert w.discard == ""
    r = P.probabilities(hand, 6, ruleset=ruleset)
    assert np.all(r.win_curve == 1.0) and np.all(r.tenpai_curve == 1.0)
    adv = majiang.advise(hand, ruleset=ruleset)
    # advise: the default context of score / check_win (on a discard), the tile named
    fan_d, _ = _best_fan(hand, ruleset, self_drawn=False)
    assert re.fullmatch(rf"win now: {fan_d} fan \(\w\w on a discard\)", adv.attrs["win_now"])
    assert adv.attrs["no_win"] is None
    # the discards are still ranked, for a player who declines the win
    assert len(adv) == len(np.flatnonzero(parse_counts(hand)))
    # fan odds: the win now, with its fan total
    from majiang.odds import fan_odds
    odds = fan_odds(hand, 4, ruleset=ruleset)
    total = odds[odds["category"] == "total"]
    assert list(total["name"]) == [str(fan)] and list(total["probability"]) == [1.0]


@pytest.mark.parametrize("hand,ruleset,why", [
    ("123m567m345p678s55s", "mcr", "below the 8-fan minimum of mcr"),
    ("123m456p789s123s55s", "sichuan", "void_suit"),
])
def test_complete_shape_that_is_no_win_is_advised_to_discard(hand, ruleset, why):
    fan, reasons = _best_fan(hand, ruleset)
    assert fan is None and all(why in r for r in reasons)
    full = P.discard_probabilities(hand, 8, ruleset=ruleset, all_discards=True)
    w = P.win_probability(hand, 8, ruleset=ruleset)
    assert w.value == full["p_win"].max() < 1.0
    assert f"no win under {ruleset}" in w.note and why in w.note
    adv = majiang.advise(hand, ruleset=ruleset)
    assert adv.attrs["win_now"] is None and why in adv.attrs["no_win"]
    assert len(adv) == len(np.flatnonzero(parse_counts(hand)))


def test_mcr_below_minimum_fan_by_hand():
    # 123m567m345p678s55s self-drawn, concealed: 平和 2 (four chows, a suited pair; it
    # implies 无字) + 不求人 4 + at most one wait fan (边张 / 坎张 / 单钓) 1 = 7 < 8,
    # whichever tile was the drawn one: no win under MCR
    fan, reasons = _best_fan("123m567m345p678s55s", "mcr")
    assert fan is None and len(reasons) == 13
    assert max(int(r.rsplit("(", 1)[1].split()[0]) for r in reasons) == 7


# ---------------------------------------------------------------- policy names round-trip
def _same(a, b):
    assert a.p_win == b.p_win and a.p_tenpai == b.p_tenpai
    assert a.policy == b.policy and a.method == b.method and a.model == b.model


@pytest.mark.parametrize("hand,T,kw,printed", [
    ("2225678p88s1246s", 2, {}, "optimal"),                       # true wall
    ("2225678p88s1246s", 12, {}, "changes<=0"),
    ("2225678p88s12466s", 12, {}, "changes<=0"),                  # 14 tiles
    ("2225678p88s1246s", 8, {"method": "monte_carlo", "n_samples": 3000, "seed": 4},
     "changes<=0"),
    ("123456789p1135s", 4, {"method": "exact"}, "optimal"),       # S1 optimal
    ("123456789p1135s", 4, {"method": "exact", "max_states": 3000}, "changes<=3"),
    ("2225678p88s1246s", 6, {"method": "exact", "changes": 2}, "changes<=2"),
    ("1357p1357s1357m9p", 6, {"n_samples": 2000, "seed": 1}, "greedy"),   # 4-shanten
])
def test_every_printed_policy_name_is_accepted_back(hand, T, kw, printed):
    r = P.probabilities(hand, T, ruleset="sichuan", **kw)
    assert r.policy == r.win.policy == r.tenpai.policy == printed
    kw2 = {k: v for k, v in kw.items() if k != "changes"}
    _same(r, P.probabilities(hand, T, ruleset="sichuan", policy=printed, **kw2))
    assert str(r.win).count(f"policy {printed}") == 1          # the name as printed


def test_greedy_ruleset_shanten_name_round_trips():
    kw = dict(ruleset="changsha", n_samples=400, seed=2)
    r = P.probabilities("2258m2258p2258s8s", 5, **kw)
    assert r.policy == P.GREEDY_258
    _same(r, P.probabilities("2258m2258p2258s8s", 5, policy=r.policy, **kw))


def test_advise_policy_names_round_trip():
    adv = majiang.advise("2225678p88s12466s", ruleset="sichuan", draws=12)
    for name in set(adv["policy"]):
        again = majiang.advise("2225678p88s12466s", ruleset="sichuan", draws=12, policy=name)
        m = adv.merge(again, on="discard")
        assert (m["p_win_x"] == m["p_win_y"]).all() and (m["policy_x"] == m["policy_y"]).all()


def test_policy_names_refused_with_a_clear_error():
    for bad in ("changes<=9", "changes", "best", 3):
        with pytest.raises(RuleError, match="unknown policy"):
            P.win_probability("2225678p88s1246s", 6, ruleset="sichuan", policy=bad)
    with pytest.raises(RuleError, match="disagree"):
        P.win_probability("2225678p88s1246s", 6, ruleset="sichuan", policy="changes<=1",
                          changes=2)
    assert P.win_probability("2225678p88s1246s", 6, ruleset="sichuan", policy="changes<=1",
                             changes=1).policy == "changes<=1"


def test_advise_shortcut_never_skips_a_complete_hand():
    """advise skips :func:`completion` when the shanten shows the hand incomplete (under a
    ruleset without pair / void rules); the verdicts must equal completion() itself on
    complete hands (random sets + pair) and on random 14-tile hands."""
    from majiang.analysis import completion

    rng = np.random.default_rng(17)
    hands = []
    for _ in range(40):                         # complete: four sets and a pair
        c = np.zeros(34, np.int64)
        while True:
            c[:] = 0
            for _ in range(4):
                if rng.random() < 0.5:
                    s, r = rng.integers(3), rng.integers(7)
                    c[9 * s + r:9 * s + r + 3] += 1
                else:
                    c[rng.integers(34)] += 3
            c[rng.integers(34)] += 2
            if c.max() <= 4:
                break
        hands.append(majiang.format_counts(c.astype(np.uint8)))
    wall = np.repeat(np.arange(34), 4)
    for _ in range(40):
        hands.append(majiang.format_counts(np.bincount(rng.choice(wall, 14, replace=False),
                                                  minlength=34).astype(np.uint8)))
    for rs in ("mcr", "plain"):
        for h in hands:
            done = completion(h, ruleset=rs)
            attrs = majiang.advise(h, ruleset=rs, second_order=False).attrs
            assert attrs["win_now"] == (done.text if done is not None and done.wins else None)
            assert attrs["no_win"] == (done.text if done is not None and not done.wins
                                       else None)
    assert any(completion(h, ruleset="plain") is not None for h in hands[:40])


# ----------------------------------------------- a policy named under method="auto"
def test_policy_is_honoured_under_auto():
    # 123m456p789s111z2z under "plain" waits on 2z alone: 3 live of U = 136 - 13 = 123
    # unseen; keeping the wait wins within T draws with 1 - C(U-3, T) / C(U, T)
    from math import comb
    hand, T, U = "123m456p789s111z2z", 10, 123
    keep = 1 - comb(U - 3, T) / comb(U, T)
    default = majiang.probabilities(hand, draws=T, ruleset="plain")
    assert default.policy == "changes<=0" and default.p_win == pytest.approx(keep, abs=1e-12)
    greedy = majiang.probabilities(hand, draws=T, ruleset="plain", policy="greedy",
                                   n_samples=20_000)
    assert greedy.method == "monte_carlo" and greedy.policy == "greedy"
    assert abs(greedy.p_win - keep) < 4 * greedy.se_win + 1e-3
    best = majiang.probabilities(hand, draws=T, ruleset="plain", policy="optimal")
    exact = majiang.probabilities(hand, draws=T, ruleset="plain", method="exact")
    assert (best.p_win, best.policy, best.method) == (exact.p_win, exact.policy, "exact")
    assert best.p_win > keep + 0.05       # changing the wait (2z tanki) beats keeping it
    # the printed name is accepted back and gives the same numbers
    again = majiang.probabilities(hand, draws=T, ruleset="plain", policy=best.policy)
    assert again.p_win == best.p_win and again.policy == best.policy


def test_estimate_prints_tiny_values_with_a_significant_digit():
    from majiang.probability.results import Estimate
    # 5e-5 ± 5e-5 is not 0.0001 ± 0.0000: the first significant digit is the 5th decimal
    assert format(Estimate(5e-5, 5e-5, "monte_carlo"), "") == "0.00005 ± 0.00005"
    assert format(Estimate(0.2437, 0.003, "monte_carlo"), "") == "0.2437 ± 0.0030"
    assert format(Estimate(0.25, 0.0, "exact"), "") == "0.2500"
    assert format(Estimate(5e-5, 5e-5, "monte_carlo"), ".3f") == "0.000 ± 0.000"


def test_model_names_are_plain_words():
    # printed on every probability line: no internal labels
    assert P.MODELS == ("true wall", "kind counts", "real walls")

# ---------------------------------------------------------------------------
# Regional advice speed (issue 20): the batched 2-5-8 route and the automatic
# Monte Carlo caps must not change what is computed, only how fast / how many walls
# ---------------------------------------------------------------------------

CHANGSHA_HANDS = ["123m14556p123789s", "258m258p2588s1399s", "1122m3355p77889s4m",
                  "123456789m2255p1s"]


def test_b258_batched_rows_equal_the_row_by_row_shanten():
    """The engine's batched ruleset shanten (one batch of the core + closed forms per
    call, memoized) equals the row-by-row reference of efficiency on random 13- and
    14-tile Changsha hands."""
    from majiang.efficiency import _b258_shanten, _plan258
    from majiang.probability.engine import _Engine
    from majiang.probability.position import _position
    pos = _position("123m14556p123789s", None, "changsha")
    eng = _Engine(pos, 3, None, P.DEFAULT_MAX_STATES)
    plan = _plan258(pos.model.ruleset)
    rng = np.random.default_rng(20)
    pool = np.repeat(np.arange(27), 4)
    rows = np.zeros((300, 34), np.uint8)
    for i in range(300):
        rows[i] = np.bincount(rng.choice(pool, 13 + i % 2, replace=False), minlength=34)
    rows[150:] = rows[:150]                       # the memo answers the repeats
    got = eng._b258_rows(rows, np.zeros(300, np.int64))
    want = [_b258_shanten(plan, r, plan.copies, (), 0) for r in rows]
    assert got.tolist() == want


@pytest.mark.parametrize("hand", CHANGSHA_HANDS[:3])
def test_changsha_one_draw_equals_the_winning_tiles(hand):
    """draws=1: P(win) = live copies of the kinds that complete a win under THE
    predicate (check_win, self-drawn) / the unseen tiles, for every discard; exact."""
    from majiang.scoring import check_win
    from majiang.tiles import format_counts
    counts = parse_counts(hand)
    df = P.discard_probabilities(hand, 1, ruleset="changsha")
    checked = 0
    for d in np.flatnonzero(counts):
        h13 = counts.copy()
        h13[d] -= 1
        unseen = 4 - counts                              # the discard is seen
        unseen[27:] = 0
        U = int(unseen.sum())
        live = sum(int(unseen[k]) for k in range(27) if unseen[k] and check_win(
            format_counts(h13), format_counts(np.eye(34, dtype=np.uint8)[k]),
            ruleset="changsha", self_drawn=True).valid)
        row = df[df["discard"] == P._discard_name(int(d))].iloc[0]
        if np.isnan(row["p_win"]):           # a discard raising the shanten: not solved
            continue
        checked += 1
        assert row["method"] == "exact"
        assert row["p_win"] == pytest.approx(live / U, abs=1e-12)
    assert checked


@pytest.mark.parametrize("hand", CHANGSHA_HANDS)
def test_changsha_greedy_monte_carlo_within_4_se_of_exact(hand):
    """The greedy Monte Carlo of the Python route against the exact search at 1 and 2
    draws: at one draw the policy does not matter (within 4 SE both ways); at two
    the greedy player cannot beat the optimum (at most 4 SE above it)."""
    for T in (1, 2):
        ex = P.discard_probabilities(hand, T, ruleset="changsha")
        mc = P.discard_probabilities(hand, T, ruleset="changsha", method="monte_carlo",
                                     n_samples=3000, seed=7)
        for (_, e), (_, m) in zip(ex.iterrows(), mc.iterrows()):
            if np.isnan(e["p_win"]) or np.isnan(m["p_win"]):
                continue
            se = max(m["se_win"], 1e-3)
            assert m["p_win"] <= e["p_win"] + 4 * se
            if T == 1:
                assert abs(m["p_win"] - e["p_win"]) <= 4 * se


def _old_tie(eng, h, nj, H, J, S, best, base, jbase):
    """The greedy tie-break as the engine played it before the batched version (the
    reference of the differential test): tile by tile."""
    pos = eng.pos
    caps = pos.caps if pos.caps is not None else pos.model.copies
    score = dict.fromkeys(best.tolist(), 0)
    for i in best:
        for t in range(34):
            w = int(base[t]) - int(H[i, t])
            if w > 0 and H[i, t] < caps[t]:
                r = H[i].copy()
                r[t] += 1
                if eng.shanten(r, int(J[i])) < S[i]:
                    score[int(i)] += w
        if jbase - J[i] > 0 and eng.shanten(H[i].copy(), int(J[i]) + 1) < S[i]:
            score[int(i)] += int(jbase - J[i])
    top = max(score.values())
    cands = [i for i in best.tolist() if score[i] == top]
    back = [i for i in cands if J[i] == nj and np.array_equal(H[i], h)]
    return back[0] if back else cands[0]


@pytest.mark.parametrize("ruleset,hand,ind", [("changsha", "123m14556p123789s", None),
                                              ("wuhan", "123m14556p12378s*", "3z")])
def test_greedy_tie_break_equals_the_tile_by_tile_reference(ruleset, hand, ind):
    from majiang.probability.engine import _Engine
    from majiang.probability.position import _after_discards, _position
    pos = _position(hand, None, ruleset, indicator=ind)
    eng = _Engine(pos, 5, None, P.DEFAULT_MAX_STATES)
    rng = np.random.default_rng(3)
    pool = np.repeat(np.arange(27), 4)
    base = np.full(34, 4, np.int64)
    base[27:] = pos.model.copies[27:]
    n = 0
    for _ in range(60):
        h14 = np.bincount(rng.choice(pool, 14, replace=False), minlength=34).astype(np.uint8)
        nj = int(rng.integers(0, 2)) if pos.model.jokers is not None else 0
        if nj:
            h14[np.flatnonzero(h14)[0]] -= 1
        opts = _after_discards(pos.model.jokers, h14, nj)
        H = np.array([o[1] for o in opts], dtype=np.uint8)
        J = np.array([o[2] for o in opts], dtype=np.int64)
        S = eng._b258_rows(H, J)
        best = np.flatnonzero(S == S.min())
        if best.size < 2:
            continue
        n += 1
        assert eng._b258_tie(H[0], nj, H, J, S, best, base, 3) == _old_tie(
            eng, H[0], nj, H, J, S, best, base, 3)
    assert n >= 20


def test_changsha_auto_monte_carlo_work_cap(monkeypatch):
    """Without jokers the automatic method's greedy Monte Carlo stops at its work cap
    (B258_MC_WORK_PLAIN hands judged) once B258_MC_MIN_SAMPLES walls are played, and
    says so; method='monte_carlo' plays every wall."""
    from majiang.probability import limits
    monkeypatch.setattr(limits, "B258_MC_WORK_PLAIN", 1)
    monkeypatch.setattr(limits, "B258_MC_MIN_SAMPLES", 150)
    h = "123m1456p123789s"
    r = P.probabilities(h, 5, ruleset="changsha", seed=2, n_samples=3000)
    assert r.method == "monte_carlo" and r.n_samples == 150
    assert "150 of 3000 walls played" in r.note
    assert r.se_win == pytest.approx(math.sqrt(r.p_win * (1 - r.p_win) / 150))
    full = P.probabilities(h, 5, ruleset="changsha", seed=2, n_samples=300,
                           method="monte_carlo")
    assert full.n_samples == 300 and "walls played" not in full.note
    # the capped walls are the first walls of the full run (same seed, same player)
    assert abs(full.p_win - r.p_win) <= 4 * max(r.se_win, 1e-3)


def test_tianjin_auto_monte_carlo_caps_its_walls(monkeypatch):
    """Under a joker ruleset the automatic greedy Monte Carlo of the compiled route
    stops after the chunk that reaches JOKER_MC_MAX_WALLS (or its predicate work) and
    says so; its estimate stays within 4 SE of the exact search at 2 draws (the exact
    optimum: the greedy player is at most 4 SE above it)."""
    from majiang.probability import limits
    monkeypatch.setattr(limits, "JOKER_PRED_BUDGET", 1)        # force the Monte Carlo
    monkeypatch.setattr(limits, "JOKER_MC_MAX_WALLS", 1024)
    h = "123m456p789s3p7s**"
    r = P.probabilities(h, 2, ruleset="tianjin", indicator="5m", seed=1, n_samples=5000)
    assert r.method == "monte_carlo" and r.n_samples == 1024
    assert "1024 of 5000 walls played" in r.note
    ex = P.probabilities(h, 2, ruleset="tianjin", indicator="5m", method="exact")
    assert r.p_win <= ex.p_win + 4 * max(r.se_win, 1e-3)
    one = P.probabilities(h, 1, ruleset="tianjin", indicator="5m", seed=1, n_samples=5000)
    one_ex = P.probabilities(h, 1, ruleset="tianjin", indicator="5m", method="exact")
    assert abs(one.p_win - one_ex.p_win) <= 4 * max(one.se_win, 1e-3)


# 三金倒 (罗源) / 三财神 (温州) in the win and tenpai probabilities.
#
# Closed forms (hypergeometric): with the shape out of reach within T draws, a hand
# holding ``j`` jokers wins within T self-draws exactly when the ``3 - j`` jokers still
# needed are among the T draws, and is ready (by the rule: two jokers held) when
# ``2 - j`` are.  With one joker unseen, P = T / U; with two unseen and one held,
# P(win) = C(U - 2, T - 2) / C(U, T) and P(tenpai) = 1 - C(U - 2, T) / C(U, T).
# U (the unseen tiles) is counted by hand below.

from math import comb


from majiang import check_win
from majiang.rules import luoyuan, wenzhou

NO_THREE = luoyuan.build(special_wins=())

# 14 real tiles + 2 jokers (金 = 9s); shape shanten 3 without the rule
HAND2, IND2 = "13579m12468p1357s**", "9s"
# luoyuan: 108 suited tiles - 14 in hand - the turned 9s - 2 jokers held = 91, 1 joker unseen
U2 = 108 - 14 - 1 - 2
# 15 real tiles + 1 joker (金 = 2s); shape shanten 4 without the rule
HAND1, IND1 = "13579m13579p13579s*", "2s"
U1 = 108 - 15 - 1 - 1            # 2 jokers unseen


def test_shapes_are_out_of_reach():
    assert majiang.shanten(HAND2, ruleset=NO_THREE, indicator=IND2) == 3
    assert majiang.shanten(HAND1, ruleset=NO_THREE, indicator=IND1) == 4
    # the rule: two jokers held are ready, one is one step away
    assert majiang.shanten(HAND2, ruleset="luoyuan", indicator=IND2) == 0
    assert majiang.shanten(HAND1, ruleset="luoyuan", indicator=IND1) == 1


@pytest.mark.parametrize("T", [1, 2, 3])
def test_two_jokers_closed_form(T):
    r = P.probabilities(HAND2, T, ruleset="luoyuan", indicator=IND2)
    assert r.method == "exact"
    assert r.p_win == pytest.approx(T / U2, abs=1e-12)
    assert r.p_tenpai == 1.0
    np.testing.assert_allclose(r.win_curve, np.arange(1, T + 1) / U2, atol=1e-12)
    # without the rule the shape alone cannot win in 3 draws
    assert P.probabilities(HAND2, T, ruleset=NO_THREE, indicator=IND2).p_win == 0.0
    assert P.win_probability(HAND2, T, ruleset="luoyuan", indicator=IND2).value == \
        pytest.approx(T / U2, abs=1e-12)


def test_one_joker_closed_form():
    T = 3
    r = P.probabilities(HAND1, T, ruleset="luoyuan", indicator=IND1)
    assert r.p_win == pytest.approx(comb(U1 - 2, T - 2) / comb(U1, T), abs=1e-12)
    assert r.p_tenpai == pytest.approx(1 - comb(U1 - 2, T) / comb(U1, T), abs=1e-12)
    t = P.tenpai_probability(HAND1, T, ruleset="luoyuan", indicator=IND1)
    assert t.value == pytest.approx(1 - comb(U1 - 2, T) / comb(U1, T), abs=1e-12)


def test_wenzhou_three_caishen_closed_form():
    # wenzhou: 136 tiles - the turned 9s - 16 in hand = 119 unseen, 1 财神 unseen
    h = "13579m13579p1357s**"
    assert majiang.shanten(h, ruleset=wenzhou.build(three_caishen_win=False),
                           indicator="9s") == 3
    for T in (1, 2, 3):
        r = P.probabilities(h, T, ruleset="wenzhou", indicator="9s")
        assert r.p_win == pytest.approx(T / 119, abs=1e-12)
    off = P.probabilities(h, 3, ruleset=wenzhou.build(three_caishen_win=False),
                          indicator="9s")
    assert off.p_win == 0.0


def test_monte_carlo_beyond_the_exact_horizon():
    T, n = 6, 20_000
    r = P.probabilities(HAND2, T, ruleset="luoyuan", indicator=IND2, seed=3, n_samples=n)
    assert r.method == "monte_carlo" and r.model == "real walls"
    assert "三金倒" in r.note
    # shape shanten 3: a shape win needs at least 4 improving draws of the 6; the joker
    # alone gives T / U, and the estimate lies near it
    p = T / U2
    assert abs(r.p_win - p) < 5 * np.sqrt(p * (1 - p) / n) + 0.01
    assert r.p_win >= p - 5 * np.sqrt(p * (1 - p) / n)
    with pytest.raises(majiang.RuleError):
        P.probabilities(HAND2, T, ruleset="luoyuan", indicator=IND2, method="exact")


def _brute_one_draw(hand, ind, rs):
    """P(win on the next self-draw) by THE predicate over the real unseen tiles."""
    h = majiang.hand.as_hand(hand, hand_size=16)
    jk = parse_tile(ind)
    unseen = np.full(34, 4)
    unseen[27:] = 0                                  # honours are flowers
    unseen[jk] = 0                                   # turned + 3 jokers
    unseen -= h.concealed.astype(int)
    joker_unseen = 3 - h.jokers
    U = unseen.sum() + joker_unseen
    p = 0.0
    for k in np.flatnonzero(unseen):
        if check_win(h, int(k), ruleset=rs, self_drawn=True).valid:
            p += unseen[k] / U
    if joker_unseen and check_win(h, None, ruleset=rs, self_drawn=True,
                                  win_is_joker=True).valid:
        p += joker_unseen / U
    return p


@pytest.mark.parametrize("hand", ["123m456m789p13578s**", "11m456m789p123s468s**",
                                  "13579m12468p1357s**"])
def test_one_draw_equals_the_predicate(hand):
    # the rule's win (the third joker) and the shape wins, against check_win itself
    r = P.probabilities(hand, 1, ruleset="luoyuan", indicator="9s")
    assert r.p_win == pytest.approx(_brute_one_draw(hand, "9s", "luoyuan"), abs=1e-12)


@pytest.mark.parametrize("hand", ["123m456m789p13578s22p", "11m456m789p123s468s78p"])
def test_no_jokers_two_draws_win_equals_kernel(hand):
    # no joker held: three jokers cannot be drawn in 2 draws, so P(win) is the shape's
    # (kernel true wall under the ruleset without the rule); being ready by two jokers
    # only adds to P(tenpai)
    a = P.probabilities(hand, 2, ruleset="luoyuan", indicator="9s")
    b = P.probabilities(hand, 2, ruleset=NO_THREE, indicator="9s")
    assert a.model == b.model == "true wall"
    assert a.p_win == pytest.approx(b.p_win, abs=1e-12)
    assert a.p_tenpai >= b.p_tenpai - 1e-12


def test_discard_probabilities_count_the_third_joker():
    # 17 tiles: 15 real + 2 jokers; every discard of a real tile keeps the jokers:
    # U = 108 - 15 - 1 - 2 = 90 and one joker unseen
    hand = "13579m12468p1357s1m**"
    df = P.discard_probabilities(hand, 2, ruleset="luoyuan", indicator="9s")
    real = df[df["discard"] != "*"]
    assert len(real) == 14
    np.testing.assert_allclose(real["p_win"].to_numpy(dtype=float), 2 / 90, atol=1e-12)
    assert (real["shanten"] == 0).all() and (real["p_tenpai"] == 1.0).all()
    # throwing a joker away leaves one (shanten 1 by the rule): not a best discard
    joker = df[df["discard"] == "*"].iloc[0]
    assert joker["shanten"] == 1 and np.isnan(joker["p_win"])


def test_shape_and_third_joker_together_obey_the_union_bounds():
    # shape 1-shanten and two jokers (one unseen): the win comes by the shape or by the
    # third joker, so max(P_shape, T/U) <= P <= P_shape + T/U (the shape alone: the
    # kernel's true wall under the ruleset without the rule); here strictly inside
    hand, T = "123m456m789p11s47s5p**", 2
    assert majiang.shanten(hand, ruleset=NO_THREE, indicator="9s") == 1
    p = P.probabilities(hand, T, ruleset="luoyuan", indicator="9s").p_win
    shape = P.probabilities(hand, T, ruleset=NO_THREE, indicator="9s").p_win
    joker = T / U2
    assert max(shape, joker) + 1e-6 < p < shape + joker - 1e-6

# ---------------------------------------------------------------------------
# The win-predicate budget of the automatic exact search under joker rulesets (天津:
# seven 混儿, THE predicate ≈ 20 ms to 1 s a hand): past JOKER_PRED_BUDGET the call is
# played by the labelled greedy Monte Carlo, every discard alike.

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


def test_a_zero_lower_bound_says_it_is_one():
    """1-shanten under Chinese Official whose ready shapes all fall short of 8 fan: the
    automatic exact search (changes<=0) finds no win, which is a lower bound, and the
    result says so (the greedy player does find wins)."""
    r = P.probabilities("2225678m88p1246s", 18)
    assert r.p_win == 0.0 and r.policy == "changes<=0"
    assert "lower bound" in r.note and "optimal" in r.note
    g = P.probabilities("2225678m88p1246s", 18, policy="greedy", n_samples=4000, seed=1)
    assert g.p_win > 0

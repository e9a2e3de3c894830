"""Win / tenpai probabilities under 长沙 (``pair_258_small``) beyond the short horizons.

Regression: from 3 draws on the compiled kernel judged completion and tenpai by the
core's forms (any pair), so ``12399m456p56789s`` — 1-shanten under 长沙, whose only
pair 99m is not a 2-5-8 pair — got P(tenpai within 3 draws) = 1.0 (it is ready on
the core's forms) and a win curve that fell with the horizon.

The reference here is independent of :mod:`majiang.probability`: real 108-tile walls
dealt with this test's own generator, played by a greedy player written here with the
public :func:`majiang.efficiency.shanten` / :func:`~majiang.efficiency.ukeire` under
the ruleset and THE win predicate (:func:`majiang.scoring.check_win`) for wins.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from majiang import RuleError, rules
from majiang.efficiency import shanten, ukeire
from majiang.hand import Hand, parse_hand
from majiang.probability import probabilities, tenpai_probability
from majiang.scoring import check_win

CS = rules.get("changsha")
HAND = "12399m456p56789s"
N_MC = 3000


def _reference(T: int, n: int, seed: int) -> tuple[float, float]:
    """(P(win), P(tenpai)) within ``T`` draws on ``n`` shuffled walls: after each draw
    the player wins when THE predicate accepts the draw, else discards to the least
    shanten under 长沙, ties to the most live improving tiles (ukeire under 长沙),
    then throwing the drawn tile back, then the lowest kind."""
    h0 = parse_hand(HAND).concealed.astype(np.uint8)
    wall = np.repeat(np.arange(27), 4).tolist()
    for k in np.flatnonzero(h0):
        for _ in range(int(h0[k])):
            wall.remove(int(k))
    rng = np.random.default_rng(seed)
    memo: dict = {}

    def step(h: np.ndarray, k: int):
        key = (h.tobytes(), k)
        if key in memo:
            return memo[key]
        if check_win(Hand(h), k, ruleset=CS, self_drawn=True).valid:
            memo[key] = None
            return None
        h14 = h.copy()
        h14[k] += 1
        best = None
        for d in np.flatnonzero(h14):
            c = h14.copy()
            c[d] -= 1
            s = shanten(c, ruleset=CS)
            u = sum(ukeire(c, ruleset=CS).values())
            rank = (s, -u, 0 if d == k else 1, int(d))
            if best is None or rank < best[0]:
                best = (rank, c)
        memo[key] = (best[1], best[0][0])
        return memo[key]

    wins = ten = 0
    assert shanten(h0, ruleset=CS) == 1
    for _ in range(n):
        draws = rng.permutation(wall)[:T].tolist()
        h, ready = h0, False
        for k in draws:
            got = step(h, k)
            if got is None:
                wins += 1
                ready = True
                break
            h, s = got
            ready = ready or s <= 0
        ten += ready
    return wins / n, ten / n


def test_short_horizons_are_exact_and_not_ready_on_a_non_258_pair():
    # before any draw: 1-shanten under 长沙 (ready on the core's forms)
    assert tenpai_probability(HAND, 0, ruleset="changsha").value == 0.0
    one = probabilities(HAND, 1, ruleset="changsha")
    assert one.model == "true wall" and one.method == "exact" and one.policy == "optimal"
    # one draw: ready after it iff some discard leaves a hand of shanten <= 0 under 长沙
    wall = 4 - parse_hand(HAND).concealed.astype(int)
    wall[27:] = 0
    h = parse_hand(HAND).concealed.astype(np.uint8)
    good = 0
    for t in np.flatnonzero(wall):
        c14 = h.copy()
        c14[t] += 1
        if any(shanten(c14 - np.eye(34, dtype=np.uint8)[d], ruleset=CS) <= 0
               for d in np.flatnonzero(c14)):
            good += wall[t]
    assert one.p_tenpai == pytest.approx(good / wall.sum(), abs=1e-12)
    three = probabilities(HAND, 3, ruleset="changsha")
    assert three.model == "true wall" and three.method == "exact"
    two = probabilities(HAND, 2, ruleset="changsha")
    assert two.p_tenpai <= three.p_tenpai < 0.6
    assert two.p_win <= three.p_win


def test_long_horizons_monotone_and_match_real_walls():
    res = [probabilities(HAND, T, ruleset="changsha", seed=7, n_samples=N_MC)
           for T in range(1, 6)]
    ten = [r.tenpai for r in res]
    win = [r.win for r in res]
    assert ten[2].value < 0.6 and ten[2].value >= ten[1].value
    for seq in (ten, win):
        for a, b in zip(seq, seq[1:]):
            assert b.value >= a.value - 4 * math.hypot(a.se, b.se), (a, b)
        for e in seq[3:]:          # beyond the exact horizons: real walls, labelled so
            assert e.method == "monte_carlo" and e.model == "real walls"
            assert "greedy" in e.policy
    # against the independent greedy player on independent walls
    r = res[4]
    ref_w, ref_t = _reference(5, N_MC, seed=12345)
    se_t = math.hypot(r.se_tenpai, math.sqrt(ref_t * (1 - ref_t) / N_MC))
    se_w = math.hypot(r.se_win, math.sqrt(ref_w * (1 - ref_w) / N_MC))
    assert abs(r.p_tenpai - ref_t) <= 4 * se_t, (r.p_tenpai, ref_t)
    assert abs(r.p_win - ref_w) <= 4 * max(se_w, 1 / N_MC), (r.p_win, ref_w)
    # and the curve of the 5-draw call is the one of its own policy (same walls)
    assert np.all(np.diff(r.tenpai_curve) >= 0) and np.all(np.diff(r.win_curve) >= 0)


def test_no_kernel_search_under_the_258_shapes():
    with pytest.raises(RuleError, match="2-5-8"):
        probabilities(HAND, 6, ruleset="changsha", method="exact")
    with pytest.raises(RuleError, match="changes"):
        probabilities(HAND, 6, ruleset="changsha", changes=0)

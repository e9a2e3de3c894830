"""三金倒 (罗源) / 三财神 (温州) in the win and tenpai probabilities.

Closed forms (hypergeometric): with the shape out of reach within T draws, a hand
holding ``j`` jokers wins within T self-draws exactly when the ``3 - j`` jokers still
needed are among the T draws, and is ready (by the rule: two jokers held) when
``2 - j`` are.  With one joker unseen, P = T / U; with two unseen and one held,
P(win) = C(U - 2, T - 2) / C(U, T) and P(tenpai) = 1 - C(U - 2, T) / C(U, T).
U (the unseen tiles) is counted by hand below.
"""
from math import comb

import numpy as np
import pytest

import majiang
from majiang import check_win
from majiang import probability as P
from majiang.rules import luoyuan, wenzhou
from majiang.tiles import parse_tile

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

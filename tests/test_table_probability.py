"""Win / tenpai probability at the table (``win_probability(..., model="table")``):
a Monte Carlo over the whole-hand engine (src/majiang/game/table.py).

Independent check: with opponents that never win and never claim and a seat 0 that
never claims, the table is the single-player model (seat 0's draws are a uniform
sample of the unseen tiles; the opponents' draws are thrown away unseen by seat 0),
so the table's P(win) and P(tenpai) must agree with the exact single-player solver
(``method="exact"``: the true-wall expectimax for T <= 3, the S1 graph beyond) within
Monte Carlo error.  The efficiency bot is not the optimal policy, so the hands are
chosen where it plays (near) optimally: tenpai hands and simple 1-shanten hands.
"""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from majiang import InvalidHandError, RuleError
from majiang.game.players import EfficiencyPlayer
from majiang.game.table import MODEL_NAME, table_probabilities
from majiang.probability import tenpai_probability, win_probability


class Passive:
    """Never wins, never claims, never declares: throws its drawn tile."""

    name = "passive"

    def declare(self, view, options):
        return None

    def claim(self, view, options):
        return None

    def discard(self, view):
        legal = view.legal_discards
        return view.drawn if view.drawn in legal else legal[0]


class NoClaims(EfficiencyPlayer):
    """The efficiency bot without calls and without wins on a discard."""

    name = "efficiency (no claims)"

    def claim(self, view, options):
        return None


class Spy(EfficiencyPlayer):
    """The efficiency bot that records its concealed tiles at its first decision."""

    name = "spy"

    def __init__(self):
        super().__init__()
        self.first = None

    def _seen(self, view):
        if self.first is None:
            self.first = np.array(view.concealed, dtype=np.int64)

    def declare(self, view, options):
        self._seen(view)
        return super().declare(view, options)

    def discard(self, view):
        self._seen(view)
        return super().discard(view)


def _alone(hand, T, n, seed=11, ruleset="guangdong"):
    return table_probabilities(hand, T, ruleset=ruleset, n_samples=n, seed=seed,
                               opponents=Passive(), player=NoClaims())


def _agree(est, exact, k=4.0):
    se = max(est.se, np.sqrt(max(exact.value * (1 - exact.value), 1e-4) / est.n_samples))
    assert abs(est.value - exact.value) <= k * se, (format(est), format(exact))


# ---------------------------------------------------------------- (a) the independent check

@pytest.mark.parametrize("hand,T,n", [
    ("123456789m1122p", 1, 1500),        # tenpai, shanpon 1p/2p: 4 outs of 123 unseen
    ("123456789m1122p", 3, 1500),        # true-wall optimum
    ("234567m2366p578s", 8, 1000),       # 1-shanten, S1 graph
])
def test_table_alone_equals_single_player(hand, T, n):
    r = _alone(hand, T, n)
    ex = win_probability(hand, T, ruleset="guangdong", method="exact")
    _agree(r.win, ex)
    assert r.win_kinds["discard"] == r.win_kinds["robbing_kong"] == 0
    assert r.others_first == 0
    et = tenpai_probability(hand, T, ruleset="guangdong", method="exact")
    if et.value < 1.0:
        _agree(r.tenpai, et)
    else:
        assert r.tenpai.value == 1.0


def test_first_draw_closed_form():
    """T = 1 under guangdong: P = 4 / 123 (1p, 2p: two live copies each)."""
    r = _alone("123456789m1122p", 1, 1500, seed=3)
    _agree(r.win, type(r.win)(4 / 123, 0.0, "exact"))


@pytest.mark.slow
@pytest.mark.parametrize("hand,T", [
    ("123456789m1122p", 6), ("123456789m1135p", 6), ("123456789m13p15s", 6),
    ("123456m234p1358s", 8), ("1234m456p12378s5z", 5),
])
def test_table_alone_equals_single_player_slow(hand, T):
    r = _alone(hand, T, 6000, seed=5)
    _agree(r.win, win_probability(hand, T, ruleset="guangdong", method="exact"))
    et = tenpai_probability(hand, T, ruleset="guangdong", method="exact")
    if et.value < 1.0:
        _agree(r.tenpai, et)


def test_seat0_is_dealt_the_hand():
    """Seat 0 (the dealer) holds the given tiles plus one dealt tile at its first move."""
    from majiang.tiles import counts_from_tiles, parse_tiles
    given = counts_from_tiles(parse_tiles("123456789m1122p")).astype(np.int64)
    for seed in range(5):
        spy = Spy()
        table_probabilities("123456789m1122p", 1, ruleset="guangdong", n_samples=1,
                            seed=seed, player=spy, opponents=Passive())
        extra = spy.first - given
        assert extra.min() >= 0 and extra.sum() == 1
    spy = Spy()                          # a 14-tile hand is dealt as it is
    table_probabilities("123456789m11223p", 0, ruleset="guangdong", n_samples=1, seed=0,
                        player=spy, opponents=Passive())
    assert np.array_equal(spy.first, counts_from_tiles(parse_tiles("123456789m11223p")))


# ---------------------------------------------------------------- (b) real opponents

def test_real_opponents_mcr_discard_wins_reproducible():
    kw = dict(ruleset="mcr", n_samples=200, seed=7)
    r1 = table_probabilities("123456789m1122p", 6, **kw)
    r2 = table_probabilities("123456789m1122p", 6, **kw)
    r3 = table_probabilities("123456789m1122p", 6, n_jobs=2, **kw)
    for r in (r1, r2, r3):
        assert 0.0 <= r.win.value <= 1.0 and 0.0 <= r.tenpai.value <= 1.0
    assert r1.win == r2.win == r3.win and r1.win_kinds == r3.win_kinds
    assert r1.win_kinds["discard"] > 0          # 清龙 (16 fans) wins on a discard
    assert r1.win.value == pytest.approx(sum(r1.win_kinds.values()) / 200)
    assert r1.tenpai.value == 1.0               # tenpai when dealt
    other = table_probabilities("123456789m1122p", 6, ruleset="mcr", n_samples=200, seed=8)
    assert (other.win_kinds, other.tenpai) != (r1.win_kinds, r1.tenpai) or \
        other.others_first != r1.others_first   # the seed matters


def test_self_draw_only_ruleset_never_wins_on_a_discard():
    r = table_probabilities("123456789m1122p", 6, ruleset="hangzhou", n_samples=150, seed=1)
    assert r.win_kinds["discard"] == 0 and r.win_kinds["robbing_kong"] == 0
    assert r.win.value > 0
    # a fixed joker (hangzhou 白板) in the hand
    rj = table_probabilities("123456789m112p*", 6, ruleset="hangzhou", n_samples=150, seed=1)
    assert rj.win_kinds["discard"] == 0 and rj.win.value > r.win.value


def test_blood_rules_seat0_plays_on_after_another_win():
    """血战到底 (sichuan): another seat's win does not end seat 0's hand; elsewhere
    (mcr) the first win ends the hand, so seat 0 never wins after another seat."""
    kw = dict(n_samples=250, seed=4)
    xz = table_probabilities("123456789p1155s", 12, ruleset="sichuan", **kw)
    assert xz.won_after_others > 0
    mcr = table_probabilities("123456789m1122p", 12, ruleset="mcr", **kw)
    assert mcr.won_after_others == 0 and mcr.others_first > 0


def test_win_probability_dispatch_and_estimate_fields():
    e = win_probability("123456789m1122p", 4, model="table", ruleset="mcr", n_samples=100,
                        seed=2)
    assert e.model == MODEL_NAME == "table (engine Monte Carlo)"
    assert e.policy == "efficiency bot" and e.method == "monte_carlo" and e.n_samples == 100
    assert "opponents: 3 x efficiency bot" in e.note
    assert e.se == pytest.approx(np.sqrt(e.value * (1 - e.value) / 100))
    t = tenpai_probability("123456789m13p15s", 4, model="table", ruleset="mcr",
                           n_samples=100, seed=2, opponents="random")
    assert "random" in t.note and 0.0 <= t.value <= 1.0
    # the default model is unchanged
    assert win_probability("123456789p1155s", 1, ruleset="sichuan").value == \
        pytest.approx(4 / 95)
    assert win_probability("123456789p1155s", 1, ruleset="sichuan", model="single").value \
        == pytest.approx(4 / 95)


def test_opponent_list_and_three_players():
    r = table_probabilities("123456789m1122p", 3, ruleset="mcr", n_samples=30, seed=0,
                            opponents=["random", "efficiency", Passive()])
    assert "random, efficiency, passive" in r.win.note
    r3 = table_probabilities("123456789p1122s", 4, ruleset="kawuxing", n_samples=60, seed=0)
    assert "opponents: 2 x efficiency bot" in r3.win.note and 0 < r3.win.value <= 1
    with pytest.raises(RuleError, match="2 opponents"):
        table_probabilities("123456789p1122s", 3, ruleset="kawuxing", n_samples=5,
                            opponents=["random"] * 3)
    with pytest.raises(InvalidHandError, match="kawuxing"):       # 1m is not in the set
        table_probabilities("123456789m1122p", 3, ruleset="kawuxing", n_samples=5)


def test_lazy_provider_import():
    """majiang.probability never imports majiang.game by statement; model='table' loads it."""
    code = ("import sys, majiang.probability as p\n"
            "assert 'majiang.game' not in sys.modules\n"
            "e = p.win_probability('123456789m1122p', 2, model='table', ruleset='mcr', "
            "n_samples=20, seed=0)\n"
            "assert 'majiang.game' in sys.modules and e.model.startswith('table')\n")
    subprocess.run([sys.executable, "-c", code], check=True)


# ---------------------------------------------------------------- (c) bad input

@pytest.mark.parametrize("kw,err,msg", [
    (dict(model="nope"), RuleError, "unknown probability model"),
    (dict(model="table", ruleset="nope"), RuleError, "unknown ruleset"),   # None: mcr
    (dict(model="table", ruleset="mcr", n_samples=0), RuleError, "n_samples"),
    (dict(model="table", ruleset="mcr", n_samples=1.5), RuleError, "n_samples"),
    (dict(model="table", ruleset="mcr", method="exact"), RuleError, "does not take method"),
    (dict(model="table", ruleset="mcr", visible="1p"), RuleError, "seen tiles"),
    (dict(model="table", ruleset="mcr", opponents="bogus"), RuleError, "unknown player"),
    (dict(model="table", ruleset="mcr", opponents=["random"] * 2), RuleError, "3 opponents"),
    (dict(model="table", ruleset="nonexistent"), RuleError, "unknown ruleset"),
    (dict(model="table", ruleset="mcr", seed=-1), RuleError, "seed"),
    (dict(model="table", ruleset="mcr", indicator="1z"), RuleError, "indicator"),
])
def test_bad_input(kw, err, msg):
    with pytest.raises(err, match=msg):
        win_probability("123456789m1122p", 3, **kw)


@pytest.mark.parametrize("hand,draws,kw,err", [
    ("123456789m1122p", 0, {}, RuleError),                   # a 13-tile hand draws >= 1
    ("123456789m1122p", -1, {}, RuleError),
    ("123456789m1122p", True, {}, RuleError),
    ("[111m]456789m1122p", 3, {}, RuleError),                # melds
    ("123456789m112p", 3, {}, InvalidHandError),             # 12 tiles
    ("123456789m112p*", 3, {}, RuleError),                   # no jokers under mcr
    ("123456789m112p*", 3, {"ruleset": "wuhan"}, RuleError),  # turned joker: no indicator
    ("11111m2345678m12p", 3, {}, InvalidHandError),          # five 1m
])
def test_bad_hands(hand, draws, kw, err):
    kw = {"ruleset": "mcr", **kw}
    with pytest.raises(err):
        table_probabilities(hand, draws, n_samples=5, seed=0, **kw)


def test_table_probe_reads_only_the_public_seat_view():
    # the table's probe watches seat 0 through SeatView's public helpers (won, wins,
    # draws_made, play_counts, own_melds, shape_options), never the engine state
    import ast
    from pathlib import Path

    from majiang.game import table
    tree = ast.parse(Path(table.__file__).read_text(encoding="utf-8"))
    bad = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "_st"]
    assert bad == [], f"table.py reads the engine state at lines {bad}"


def test_seat_view_wins_and_draws_made_follow_the_hand():
    # recounted from the hand's own event log: every "win" event in order, and the
    # draws of seat 0 ("draw" events of seat 0; a flower replacement is one draw event)
    from majiang.game import play_hand
    from majiang.game.players import SeatView

    seen = {}

    class Spy(EfficiencyPlayer):
        def start(self, view):
            seen["view"] = view

    st = play_hand("sichuan", [Spy(np.random.default_rng(1))] + ["efficiency"] * 3,
                   seed=5, hand=0, log=True, engine="python")
    view = seen["view"]
    assert isinstance(view, SeatView) and view.seat == 0
    wins = [(e["seat"], e["how"]) for e in st.events if e["e"] == "win"]
    assert view.wins == wins and wins
    assert view.won == sorted({s for s, _ in wins})
    draws = sum(1 for e in st.events if e["e"] == "draw" and e["seat"] == 0)
    assert view.draws_made == draws > 0

"""灌南 (guannan): a test per point item and settlement rule, the worked examples of
docs/rules/guannan.md §4, the options, and hands played by the engine.

Expected values are worked out by hand from docs/rules/guannan.md §2-§3 ((1 + 风 + kongs) × 2^d;
the dealer term 2^d / 1 / 0; self-draw all pay, a discard the discarder), never read from the
code's output.  Seats A = 0, B = 1, C = 2, D = 3; B deals when A's seat wind is 3.
"""
from __future__ import annotations

import pytest
from _engine_helpers import Script, build_test_wall

import majiang
from majiang import RuleError, rules
from majiang.game import play_hand, replay, summarize, to_jsonl
from majiang.rules import guannan as G
from majiang.rules.model import game_model

A_NOT_DEALER, A_DEALER = 3, 0


def _score(hand, win, rs="guannan", **kw):
    kw.setdefault("seat_wind", A_NOT_DEALER)
    return majiang.score(hand, win, ruleset=rs, **kw)


def test_model_facts():
    rs, m = rules.get("guannan"), game_model("guannan")
    assert m.n_tiles == 112 and m.n_flowers == 4 and sum(m.copies) == 108
    assert sum(m.copies[27:]) == 0                  # the four winds are bonus tiles
    assert m.players == 4 and m.hand_size == 13 and "chow_left" in rs.calls
    assert rs.forms == ("regular", "seven_pairs") and rs.winners == "head_bump"
    assert rs.wall_end.kept_tiles(0, 0) == 14 and rs.wall_end.kept_tiles(1, 1) == 18
    assert rs.section == "§3.27" and rs.status == "complete"


# ----------------------------------------------------------------- items (§3)
@pytest.mark.parametrize("hand, win, kw, item, points", [
    # an ordinary hand on a discard: 底 1
    ("123m456p789s11m45s", "6s", {}, None, 1),
    ("123m456p789s11m45s", "6s", {"self_drawn": True}, "自摸", 2),         # x2
    ("1122m3344p5566s7m", "7m", {}, "七对", 2),                           # x2
    ("111m222p333s4s [555m]", "4s", {}, "碰碰和", 2),                     # x2
    ("123456789m11p45s", "6s", {}, "一条龙", 2),                          # x2
    ("123m456p789s11m45s", "6s", {"flowers": 3}, "风", 1 + 3),          # +1 each
    ("123m456p11m45s [7777s]", "6s", {}, "明杠", 1 + 2),                  # +2
    ("123m456p11m45s {7777s}", "6s", {}, "暗杠", 1 + 4),                  # +4
])
def test_each_item(hand, win, kw, item, points):
    r = _score(hand, win, **kw)
    if item is not None:
        assert item in r
    assert r.points == points, (r.fans, r.points)


def test_every_item_is_tested():
    assert {f.chinese for f in rules.get("guannan").fans} == {
        "自摸", "七对", "碰碰和", "一条龙", "风", "明杠", "暗杠"}


def test_items_combine():
    # two winds, a concealed kong, 自摸 and 碰碰和: (1 + 2 + 4) x 4 = 28
    r = _score("111m222p333s4s {5555m}", "4s", self_drawn=True, flowers=2)
    assert r.points == 28


# ----------------------------------------------------------------- settlement (§3)
def test_dealer_terms():
    assert [G.dealer_term(2, m) for m in ("double", "add", "same")] == [4, 1, 0]
    # a discard of 4 points (d = 1) by the dealer C: 4 + 2
    assert G.settle_guannan(4, 1, 0, 2, dealer=2) == (6, 0, -6, 0)
    assert G.settle_guannan(4, 1, 0, 2, dealer=1) == (4, 0, -4, 0)   # the dealer not involved


def test_options_checked_and_round_trip():
    for kw in ({"dealer": "triple"}, {"multiple_winners": 1}, {"chow": "no"}, {"players": 2}):
        with pytest.raises(RuleError):
            G.build(**kw)
    rs = G.build(multiple_winners=True, chow=False, players=3)
    assert rs.winners == "multiple" and "chow_left" not in rs.calls and rs.players == 3
    back = rules.loads(rules.dumps(rules.get("guannan")))
    assert dict(back.options) == dict(rules.get("guannan").options)


# ----------------------------------------------------------------- worked examples (§4)
def test_example_1_self_draw_two_winds():
    r = _score("123m456p789s11m45s", "6s", self_drawn=True, flowers=2)
    assert r.points == 6
    assert G.settle_guannan(r.points, 1, 0, None, dealer=1) == (20, -8, -6, -6)


def test_example_2_straight_on_a_discard():
    r = _score("123456789m11p45s", "6s", flowers=1)
    assert r.points == 4 and r.settle(0, 2) == (4, 0, -4, 0)
    assert G.settle_guannan(r.points, 1, 0, 2, dealer=1) == (4, 0, -4, 0)


def test_example_3_dealer_all_pungs_with_a_kong():
    r = _score("111m222p333s4s {5555m}", "4s", self_drawn=True, flowers=1, seat_wind=A_DEALER)
    assert r.points == 24
    for mode, each in (("double", 28), ("add", 25), ("same", 24)):
        got = G.settle_guannan(r.points, 2, 0, None, dealer=0, mode=mode)
        assert got == (3 * each, -each, -each, -each)


# ----------------------------------------------------------------- the engine
def test_hands_in_the_engine():
    # 300 hands: zero-sum; each win plus its dealer term equals settle_guannan
    wins = 0
    for h in range(300):
        pl = "efficiency" if h % 2 == 0 else "random"
        st = play_hand("guannan", (pl,) * 4, seed=71, hand=h)
        assert sum(st.deltas) == 0
        for w in st.wins:
            wins += 1
            d = sum(n for name, n in w["fans"] if name in G.DOUBLINGS)
            want = G.settle_guannan(w["points"], d, w["seat"], w["discarder"],
                                    dealer=st.dealer)
            got = list(w["deltas"])
            for e in st.end_checks:
                if e["check"] == "庄" and e["payee"] == w["seat"]:
                    got[e["payer"]] -= e["amount"]
                    got[e["payee"]] += e["amount"]
            assert tuple(got) == want
    assert wins >= 100


def test_multiple_winners_option_plays():
    rs = G.build(multiple_winners=True)
    for h in range(40):
        st = play_hand(rs, ("efficiency",) * 4, seed=72, hand=h)
        assert sum(st.deltas) == 0


def test_replay():
    for h in range(6):
        st = play_hand("guannan", "efficiency", seed=9, hand=h, log=True)
        again = replay(to_jsonl(st.events))
        assert summarize(again) == summarize(st)


# ----------------------------------------------------------------- 大绝七对先胡 (§1)
# the dealer (A, seat 0) discards 5s first; B (seat 1, the nearest) wins on it with an
# ordinary hand (46s, 底 1), C (seat 2) with 七对 (x2); D holds 七对 on 5s too, or not
_DEALER = "13579m2468p1379s5s"
_B_ORDINARY = "123m456p789m11p46s"
_C_PAIRS = "22446688m3377p5s"
_D_NOTHING = "99s8p1p3m2m6p7m9m2s4s6s8s"
_D_PAIRS = "1199p55p99s11s33m5s"


def _first_discard_won(rs, d_hand=_D_NOTHING):
    wall = build_test_wall("guannan", [_DEALER, _B_ORDINARY, _C_PAIRS, d_hand])
    st = play_hand(rs, [Script("5s"), Script(), Script(), Script()], wall=wall, hand=0)
    assert st.turns == 1 and all(w["discarder"] == 0 for w in st.wins)
    return [w["seat"] for w in st.wins], list(st.deltas)


def test_seven_pairs_first_takes_the_discard():
    # 截胡 (default): the nearest, B, wins: 底 1, the dealer paying 底 2 (庄2闲1翻倍)
    assert _first_discard_won(G.GUANNAN) == ([1], [-2, 2, 0, 0])
    # 七对先胡: C's 七对 goes ahead of B: (2) x 2 from the dealer
    rs = G.build(seven_pairs_first=True)
    assert rs.win_first == ("七对",) and rs.options["seven_pairs_first"] is True
    assert _first_discard_won(rs) == ([2], [-4, 0, 4, 0])
    # two 七对 winners: the nearer of them (C, not D)
    assert _first_discard_won(rs, _D_PAIRS) == ([2], [-4, 0, 4, 0])
    # 一炮多响: all three winners, B 2, C 4, D 4
    assert _first_discard_won(G.build(multiple_winners=True), _D_PAIRS) == (
        [1, 2, 3], [-10, 2, 4, 4])


def test_seven_pairs_first_checked():
    from dataclasses import replace
    with pytest.raises(RuleError):
        G.build(seven_pairs_first=True, multiple_winners=True)
    with pytest.raises(RuleError):
        G.build(seven_pairs_first="yes")
    with pytest.raises(RuleError):              # a fan the ruleset does not have
        replace(G.GUANNAN, win_first=("清一色",))
    with pytest.raises(RuleError):              # nothing to order when all win
        replace(G.build(multiple_winners=True), win_first=("七对",))
    assert replace(G.GUANNAN, win_first=("Seven Pairs (x2)",)).win_first == ("七对",)
    # the compiled loop gives a discard to the nearest winner: the rule plays in the
    # Python loop
    rs = G.build(seven_pairs_first=True)
    with pytest.raises(RuleError):
        play_hand(rs, "efficiency", seed=1, hand=0, engine="compiled")
    for h in range(20):
        st = play_hand(rs, "efficiency", seed=73, hand=h)
        assert sum(st.deltas) == 0
    back = rules.loads(rules.dumps(rs))
    assert back.win_first == ("七对",)

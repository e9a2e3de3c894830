"""罗源 (rules/luoyuan.py): 天胡 from the win context's ``first_turn``.

docs/rules/luoyuan.md §4 (天胡: the dealer's hand complete after 开金) and §6 (番 = 花番 +
金 + 连庄 + 1; 天胡 × 10, one multiplier a win).  Expected values are worked by hand from
that table, never read from the code's output.
"""
from __future__ import annotations

import pytest

import majiang
from majiang.game import play_hand
from majiang.rules import luoyuan as L

from _engine_helpers import build_test_wall


def _points(hand, win, rs="luoyuan", **kw):
    r = majiang.score(hand, win, ruleset=rs, self_drawn=True, **kw)
    return r, r.points


@pytest.mark.parametrize("hand, win, kw, heavenly, plain", [
    # 5 sets + a pair, no flowers, no 金: 天胡 (0 + 0 + 0 + 1) x 10; without: 平胡 (0 + 1) x 2
    ("123m456m789p123s456s1p", "1p", {}, 10, 2),
    # 3 flowers: (3 + 1) x 10; without: a self-draw (3 + 1) x 2
    ("123m456m789p123s456s1p", "1p", {"flowers": 3}, 40, 8),
    # three 金 as a pung of 1m (金龙 x 10 without the flag): (0 + 3 + 1) x 10 either way;
    # with 2 flowers (2 + 3 + 1) x 10
    ("123m456m789p123s4s***", "4s", {}, 40, 40),
    ("123m456m789p123s4s***", "4s", {"flowers": 2}, 60, 60),
    # three 金 and no shape: 三金倒 (0 + 3) x 3 with or without the flag (天胡 needs a
    # complete hand)
    ("147258m147258p1s***", "4s", {}, 9, 9),
])
def test_heavenly_hand(hand, win, kw, heavenly, plain):
    r, pts = _points(hand, win, first_turn="heavenly", **kw)
    assert pts == heavenly
    assert ("天胡" in r) == (heavenly != 9)
    r0, pts0 = _points(hand, win, **kw)
    assert pts0 == plain and "天胡" not in r0


def test_heavenly_hand_with_repeats():
    # 连庄 2: (0 + 0 + 2 + 1) x 10
    _, pts = _points("123m456m789p123s456s1p", "1p", rs=L.build(repeat=2),
                     first_turn="heavenly")
    assert pts == 30


def test_heavenly_settlement():
    r, pts = _points("123m456m789p123s456s1p", "1p", first_turn="heavenly", flowers=1)
    assert pts == 20 and r.settle(0) == (60, -20, -20, -20)


def test_earthly_is_not_a_fan_here():
    # the text names only 天胡: a non-dealer's first-draw win is a plain self-draw
    r, pts = _points("123m456m789p123s456s1p", "1p", seat_wind=1, first_turn="earthly")
    assert "天胡" not in r and pts == 2


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_engine_dealer_wins_after_kaijin(engine):
    # the dealer's 17: 123m 456m 789p 123s 456s 11p; the 金 9s (turned from the tail) is
    # in nobody's hand; 天胡 (0 + 0 + 0 + 1) x 10 from each of three
    hands = ["123m456m789p123s456s11p", "2345678m2345678p44s", "2345678s99m99p3355s1m",
             "111s999s666p9m777m88m5p"]
    wall = build_test_wall("luoyuan", hands, tail="9s")
    st = play_hand("luoyuan", "efficiency", wall=wall, dealer=0, engine=engine)
    (w,) = st.wins
    assert (w["seat"], w["how"]) == (0, "self_draw")
    assert "天胡" in {n for n, _ in w["fans"]}
    assert w["deltas"] == [30, -10, -10, -10]


def test_only_qiangjin_is_left_out_and_it_is_lost_in_the_sources():
    # RULESETS §3.30: 抢金 "occurs just after 开金; the two situations are not described"
    # (its value is given): nothing the sources define is left unplayed
    assert L.LUOYUAN.missing == ()
    assert len(L.LUOYUAN.lost) == 1 and "抢金" in L.LUOYUAN.lost[0]
    assert L.LUOYUAN.coverage == "sources incomplete"

"""Boundary consistency of the turned indicator, stand-ins and flowers (one game model).

Expected values are counted from the rules (docs/rules/; the ruleset modules'
readings), never taken from the library's output:

* 安庆 钻牌 / 武汉 赖子 (joker = indicator + 1): the turned indicator is set apart
  face up, so of its 4 copies 3 can be drawn; the 4 copies of the joker kind are
  jokers.  136 tiles − 1 turned − 13 held = 122 unseen for a fresh hand.
* 上海百搭 (the turned kind is wild): the face-up copy is one of the 4, the other 3
  are jokers; 白板 (5z) stands in for the joker's face.  Again 122 unseen.
* 安庆 红中 stands in for the 钻牌's face and is written as itself (7z) in a hand; a tile
  of the joker kind written by its face is a joker.
* 四川 (108) and 广东 (136) have no flowers; MCR (144) has 8.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import majiang
from majiang.errors import InvalidHandError
from majiang.rules.model import game_model
from majiang.scoring import check_win, score

# (ruleset, hand, indicator, {wait: live counted from the rule}, joker key, jokers live)
CASES = [
    # waits 1m / 4m and any joker (5m); the turned 4m is set apart: 4m has 3 left
    ("anqing", "23m456p789p11s678s", "4m", {"1m": 4, "4m": 3}, "5m*", 4),
    # indicator 1m: the turned 1m is set apart, jokers 2m; the 7z plays as 2m
    ("anqing", "3m7z456p789p11s678s", "1m", {"1m": 3, "4m": 4}, "2m*", 4),
    # two 红中 stand-ins (face 2m): 4 红中 − 2 held = 2 drawable, listed under the
    # tile drawn (7z); 1s: 4 − 2 held
    ("anqing", "77z456p789p11s678s", "1m", {"1s": 2, "7z": 2}, "2m*", 4),
    # 武汉 must open: a claimed chow; the 22s pair is 2-5-8
    ("wuhan", "23m456p22s678s [789p]", "4m", {"1m": 4, "4m": 3}, "5m*", 4),
    # 上海百搭: 4m turned is wild (3 more jokers); 白板 plays 4m's face: 4 drawable
    ("shanghai_baida", "23m456p789p11s678s", "4m", {"1m": 4, "5z": 4}, "4m*", 3),
]


@pytest.mark.parametrize("rs, hand, ind, waits, jkey, jlive", CASES)
def test_one_draw_win_is_live_waits_over_unseen(rs, hand, ind, waits, jkey, jlive):
    unseen = 136 - 1 - 13                   # one tile turned, 13 held
    wall = game_model(rs).wall(ind)
    assert wall.size == 136 - 1 or (rs == "shanghai_baida" and wall.size == 135)
    assert wall.size - 13 == unseen
    u = majiang.ukeire(hand, ruleset=rs, indicator=ind)
    assert u == {**waits, jkey: jlive}
    p = majiang.win_probability(hand, 1, ruleset=rs, indicator=ind)
    assert float(p) == pytest.approx(float(Fraction(sum(u.values()), unseen)), abs=1e-12)
    assert float(p) == pytest.approx((sum(waits.values()) + jlive) / unseen, abs=1e-12)


@pytest.mark.parametrize("rs", ["anqing", "wuhan"])
def test_indicator_set_apart_once(rs):
    m = game_model(rs)
    apart = m.set_apart("4m")
    assert apart.sum() == 1 and apart[3] == 1
    assert int(m.wall("4m").counts[3]) == 4 - 1
    # the turned kind of a "turned" joker rule is not set apart a second time
    for other in ("shanghai_baida", "tianjin", "nanchang", "wenzhou"):
        assert game_model(other).set_apart("4m").sum() == 0


def test_visible_indicator_counts_once():
    hand = "23m456p789p11s678s"
    u = majiang.ukeire(hand, ruleset="anqing", indicator="4m", visible="4m4m4m")
    assert u["4m"] == 0                         # 4 copies: 3 seen + 1 turned
    with pytest.raises(InvalidHandError):     # a fifth 4m with the turned one
        majiang.ukeire(hand, ruleset="anqing", indicator="4m", visible="4m4m4m4m")
    with pytest.raises(InvalidHandError):
        majiang.win_probability(hand, 1, ruleset="anqing", indicator="4m",
                                visible="4m4m4m4m")
    with pytest.raises(InvalidHandError):
        majiang.discard_table(hand + "9s", ruleset="anqing", indicator="4m",
                              visible="4m4m4m4m")
    t = majiang.discard_table(hand + "9s", ruleset="anqing", indicator="4m")
    row = t[t["discard"] == "9s"].iloc[0]
    assert row["ukeire_count"] == 4 + 3 + 4     # 1m, 4m (one turned), 4 jokers


def test_cli_visible_refuses_fifth_with_indicator(capsys):
    from majiang.cli import main
    args = ["advise", "23m456p789p11s678s9s", "--rules", "anqing", "--indicator", "4m"]
    assert main(args + ["--visible", "4m4m4m4m"]) == 2
    assert "indicator" in capsys.readouterr().err
    assert main(args + ["--visible", "4m4m4m"]) == 0


def test_anqing_red_dragons_are_stand_ins():
    # 红中 turned: the 钻牌 is 发 (中→发→白→中); 3 红中 are left to stand in for 发
    with pytest.raises(InvalidHandError, match="stand-in"):
        majiang.shanten("7777z123m456p789s", ruleset="anqing", indicator="7z")
    assert majiang.shanten("777z123m456p789s1s", ruleset="anqing", indicator="7z") == 0
    # a 发 written by its face is a 钻牌 (a joker), as '*'
    assert majiang.ukeire("666z123m456p789s1s", ruleset="anqing", indicator="7z") == \
        majiang.ukeire("***123m456p789s1s", ruleset="anqing", indicator="7z")
    # 武汉 has no stand-in: a tile of the joker kind is a joker
    assert majiang.ukeire("2345m111p456p99s6m", ruleset="wuhan", indicator="1m") == \
        majiang.ukeire("345m111p456p99s6m*", ruleset="wuhan", indicator="1m")


FLOWER_HAND = "1f23345m111p456p99s6m"


@pytest.mark.parametrize("rs", ["sichuan", "guangdong"])
def test_flowers_refused_without_flowers(rs):
    assert game_model(rs).n_flowers == 0
    calls = [
        lambda: majiang.shanten(FLOWER_HAND, ruleset=rs),
        lambda: majiang.discard_table(FLOWER_HAND, ruleset=rs),
        lambda: majiang.advise(FLOWER_HAND, ruleset=rs),
        lambda: majiang.ukeire("1f2345m111p456p99s6m", ruleset=rs),
        lambda: majiang.win_probability("1f2345m111p456p99s6m", 1, ruleset=rs),
        lambda: score("1f1122334455667p", "7p", self_drawn=True, ruleset=rs),
        lambda: check_win("1f1122334455667p", "7p", self_drawn=True, ruleset=rs),
        lambda: majiang.shanten(majiang.parse_hand("春23345m111p456p99s6m"), ruleset=rs),
    ]
    for call in calls:
        with pytest.raises(InvalidHandError, match="no flowers"):
            call()


def test_flowers_refused_before_a_closed_hand_verdict():
    # 武汉 must open: a closed hand is refused by rule, but the flower is refused first
    assert game_model("wuhan").n_flowers == 0
    with pytest.raises(InvalidHandError, match="no flowers"):
        check_win("1f1122334455669p", "7p", self_drawn=True, ruleset="wuhan")


def test_flowers_accepted_with_flowers():
    assert game_model("mcr").n_flowers == 8
    assert majiang.shanten(FLOWER_HAND, ruleset="mcr") == majiang.shanten(
        FLOWER_HAND[2:], ruleset="mcr")
    r = score("1f1122334455667p", "7p", self_drawn=True, ruleset="mcr")
    # 连七对 88 + 自摸 1 + 花牌 1 (one flower)
    assert r.total == 88 + 1 + 1
    assert np.all(game_model("mcr").set_apart() == 0)

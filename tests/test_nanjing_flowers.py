"""南京: more than 8 硬花 (docs/rules/nanjing.md §1: each of the 20 flower tiles —
8 flowers + 中发白 x 4 — is a 硬花; docs/rules/nanjing.md §2: 花砸2 = (硬花 + 软花) x 2, 跑一 10, 门一 10).

Expected points are worked from the docs/rules/nanjing.md §2 table by hand.
"""
import pytest

from majiang import InvalidHandError, RuleError, check_win, score
from majiang.rules import nanjing

# a concealed plain hand with no wind sets (软花 0), won by self-draw: 跑一 + 门一
PLAIN = ("123m456p789s11s23m", "4m")


@pytest.mark.parametrize("flowers", [0, 1, 8, 9, 12, 16, 19, 20])
def test_every_hard_flower_counts(flowers):
    r = score(*PLAIN, ruleset="nanjing", self_drawn=True, flowers=flowers)
    expect = 10 + 10 + 2 * flowers + (20 if flowers == 0 else 0)   # 无花果 at 0
    assert r.points == expect


def test_twenty_hard_flowers_with_soft_flowers():
    # concealed East pung (软花 2), 20 硬花, self-drawn 门清: 10 + 10 + (20 + 2) x 2
    r = score("123m456p111z22s78s", "9s", ruleset="nanjing", self_drawn=True, flowers=20)
    assert r.points == 10 + 10 + 44


def test_source_record_still_holds():
    # docs/rules/nanjing.md §3 example 1 (NJH record): 门清 self-draw, 6 硬花 + 2 软花 = 36
    r = score("123m456p111z22s78s", "9s", ruleset="nanjing", self_drawn=True, flowers=6)
    assert r.points == 36


def test_opened_hand_with_many_flowers():
    # exposed East pung (软花 1), won on a discard with 11 硬花: 10 + (11 + 1) x 2
    r = score("123m456p78s11s [111z]", "9s", ruleset="nanjing", flowers=11)
    assert r.points == 10 + 24
    assert r.settle(0, 2) == (34, 0, -34, 0)


def test_more_than_the_set_is_an_error():
    with pytest.raises(RuleError):
        score(*PLAIN, ruleset="nanjing", self_drawn=True, flowers=21)
    with pytest.raises(RuleError):
        score(*PLAIN, ruleset="nanjing", self_drawn=True, flowers=-1)


def test_the_win_predicate_takes_many_flowers():
    # the game engine passes the seat's whole flower count to THE predicate
    chk = check_win("123m123p123s2z [111z]", "2z", ruleset="nanjing", self_drawn=False,
                    flowers=13)
    assert chk.valid
    assert chk.result.points == 10 + (13 + 1) * 2    # 跑一, 花砸2 (硬花 13 + wind pung 1)


def test_open_min_flowers_option_range():
    rs = nanjing.build(open_min_flowers=10)
    with pytest.raises(InvalidHandError):
        score("123m123p123s2z [111z]", "2z", ruleset=rs, flowers=9)
    assert score("123m123p123s2z [111z]", "2z", ruleset=rs, flowers=10).points == \
        10 + (10 + 1) * 2
    with pytest.raises(RuleError):
        nanjing.build(open_min_flowers=21)


def test_no_longer_missing():
    assert not any("硬花" in m for m in nanjing.NANJING.missing)


@pytest.mark.parametrize("ruleset,flowers", [("sichuan", 1), ("guangdong", 8),
                                             ("hainan", 9)])
def test_regional_flowers_bounded_by_the_tile_set(ruleset, flowers):
    # sichuan (108) and guangdong (136) have no flower tiles, hainan 8: one more than the
    # tile set holds is refused, as by the Chinese Official scorer (9 under mcr)
    hand, win = ("123m456p789m11p23m", "4m") if ruleset != "guangdong" else PLAIN
    with pytest.raises(RuleError, match="flowers"):
        score(hand, win, ruleset=ruleset, self_drawn=True, flowers=flowers)
    with pytest.raises(RuleError, match="flowers"):
        score(*PLAIN, ruleset="mcr", self_drawn=True, flowers=9)

"""海南 (hainan): fans, settlement and win rules.

Every expected value is worked out by hand from the rule text (docs/rules/hainan.md), never
read from the code's output; the worked examples of the page are checked exactly
("source example") or as computed there ("computed").
"""
from __future__ import annotations

import pytest

from majiang import InvalidHandError, rules
from majiang.rules import hainan
from majiang.scoring import score

# ----------------------------------------------------------------- 海南
# multipliers (HN): 杠上开花 3, 清一色 2, 碰碰胡 2, 七小对 2 / 豪华 3, 十三幺 13, 自摸 2; cap 8.
HAINAN_FANS = [
    ("123m456p22m45m {1111s}", "6m", {"self_drawn": True, "kong": True}, "杠上开花", 3 * 2),
    ("123m456m789m11m45m", "6m", {}, "清一色", 2),
    ("111m222p33s44s [555s]", "4s", {}, "碰碰胡", 2),
    ("1122m3344p5566s7s", "7s", {}, "七小对", 2),
    ("1111m2233p5566s7s", "7s", {}, "豪华七小对", 3),
    ("19m19p19s1234567z", "1m", {}, "十三幺", 8),            # 13, capped at 8
    ("123m456p789s11z45m", "6m", {"self_drawn": True}, "自摸", 2),
    # 地胡 x3 (the engine's first_turn), a 番 source: wins on a discard by itself
    ("123m456p789s11z45m", "6m", {"first_turn": "human"}, "地胡", 3),
    ("123m456p789s11z45m", "6m", {"self_drawn": True, "first_turn": "earthly"}, "地胡", 6),
]


@pytest.mark.parametrize("hand, win, kw, fan, points", HAINAN_FANS)
def test_hainan_multiplier(hand, win, kw, fan, points):
    r = score(hand, win, ruleset="hainan", seat_wind=1, **kw)
    assert fan in r
    assert r.points == points


def test_hainan_cap_option():
    assert score("19m19p19s1234567z", "1m", ruleset=hainan.build(cap=16)).points == 13
    assert score("19m19p19s1234567z", "1m", ruleset=hainan.build(cap=12),
                 self_drawn=True).points == 12
    assert score("19m19p19s1234567z", "1m", ruleset=hainan.build(cap=None),
                 self_drawn=True).points == 26


# open hand, a pung claimed, no 2-5-8 pair, three suits: no 番 at all
NO_FAN = "123m456p78s11m [999s]"


def test_hainan_discard_needs_fan():
    with pytest.raises(InvalidHandError, match="discard_needs_pattern"):
        score(NO_FAN, "6s", ruleset="hainan", seat_wind=1)
    assert score(NO_FAN, "6s", ruleset="hainan", seat_wind=1, self_drawn=True).points == 2
    assert score(NO_FAN, "6s", ruleset="hainan", seat_wind=1, kong=True).points == 1  # 抢杠
    assert score(NO_FAN, "6s", ruleset=hainan.build(you_fan=False), seat_wind=1).points == 1


@pytest.mark.parametrize("hand, kw, fan", [
    ("123m456p78s55m [999s]", {"seat_wind": 1}, "有眼"),
    ("123m456p78s11m [555z]", {"seat_wind": 1}, "箭刻"),
    ("123m456p78s11m [999s] 1f", {"seat_wind": 0}, "番花对位"),     # dealer: 春
    ("123m456p78s11m [999s] 8f", {"seat_wind": 2}, "番花对位"),     # 对家: 菊
    ("123m456p78s11m [222z]", {"seat_wind": 1}, "令牌/风刻"),       # own wind 南
    ("123m456p78s11m [222z]", {"seat_wind": 2, "prevalent_wind": 1}, "令牌/风刻"),  # 令
    ("123m456p789s11m45s", {"seat_wind": 1}, "门清"),
    ("123m456m78m11z [999m]", {"seat_wind": 1}, "混一色"),
    ("123m456p78s11m [9999s]", {"seat_wind": 1}, "杠"),
    ("456p78s11m999s [123m]", {"seat_wind": 1}, "只吃不碰"),
    ("123m456p78s11m [999s]", {"seat_wind": 1, "flowers": 7}, "花胡"),
])
def test_hainan_fan_sources(hand, kw, fan):
    win = "3s" if hand.endswith("45s") else "6s" if "78s" in hand else "9m"
    r = score(hand, win, ruleset="hainan", **kw)      # a discard win: allowed by the 番
    assert fan in r
    assert r.points == 1                               # 番 is a condition, not a multiplier


def test_hainan_fan_sources_that_do_not_apply():
    # another seat's flower, a wind that is neither own nor prevailing, 叫令 off
    with pytest.raises(InvalidHandError):
        score("123m456p78s11m [999s] 1f", "6s", ruleset="hainan", seat_wind=1)
    with pytest.raises(InvalidHandError):
        score("123m456p78s11m [444z]", "6s", ruleset="hainan", seat_wind=1)
    with pytest.raises(InvalidHandError):
        score("123m456p78s11m [222z]", "6s", ruleset=hainan.build(jiao_ling=False),
              seat_wind=2, prevalent_wind=1)


def test_hainan_every_fan_tested():
    tested = {c[3] for c in HAINAN_FANS} | {"有眼", "箭刻", "番花对位", "令牌/风刻", "门清",
                                             "混一色", "杠", "只吃不碰", "花胡", "平胡",
                                             "天胡",      # 天胡: tests/test_engine_rules.py
                                             "花上添花"}  # below
    assert {f.chinese for f in rules.get("hainan").fans} == tested


def test_hainan_worked_examples():
    # docs/rules/hainan.md §5 example 1 (computed): 庄闲 on; a non-dealer self-draws 清一色 碰碰胡:
    # 2 x 2 x 2 = 8; the dealer pays 16, the others 8 each -> +32
    r = score("111222333555m7m", "7m", ruleset="hainan", seat_wind=1, self_drawn=True)
    assert r.points == 8
    assert r.settle(1) == (-16, 32, -8, -8)
    # the dealer found from the winner's seat wind: winner seat 1 is North, so seat 2
    # deals and pays double
    r = score("111222333555m7m", "7m", ruleset="hainan", seat_wind=3, self_drawn=True)
    assert r.settle(1) == (-8, 32, -16, -8)
    # example 2 (computed): a non-dealer wins 七小对 on another non-dealer's discard:
    # the dealer pays 4, the discarder 2 + 1, the third player 2 -> +9
    r = score("1122m3344p5566s7s", "7s", ruleset="hainan", seat_wind=1)
    assert r.points == 2
    assert r.settle(1, 2) == (-4, 9, -3, -2)


def test_hainan_settlement_rules():
    s = hainan.settle_hainan
    # the dealer wins: every payment involves the dealer (d = 2); discarder +1
    assert s(2, 0, None) == (12, -4, -4, -4)
    assert s(2, 0, 3) == (13, -4, -4, -5)
    # the dealer deals in to a non-dealer: 2 x 2 + 1 from the dealer
    assert s(2, 1, 0) == (-5, 9, -2, -2)
    # 庄闲 off: d = 1 for everyone
    assert s(2, 1, 0, zhuangxian=False) == (-3, 7, -2, -2)
    # three players
    assert s(2, 1, None, players=3) == (-4, 6, -2)


# ----------------------------------------------------------------- 花上添花 / 花砸
# docs/rules/hainan.md §3: 花上添花 (a win on a flower replacement) x3 in the servers' scale,
# multiplied with the rest (自摸 x2); the fragment's 花砸 (docs/rules/hainan_tuidao.md) adds
# nothing — option huashang=False, and the 推倒胡 settlement's table.
def test_hainan_flower_replacement_win():
    hand, win = "123m456p789s11z45m", "6m"      # 门清 (a 番 source, x1)
    plain = score(hand, win, ruleset="hainan", seat_wind=1, self_drawn=True)
    assert plain.points == 2 and "花上添花" not in plain                 # 自摸 x2
    r = score(hand, win, ruleset="hainan", seat_wind=1, self_drawn=True,
              flower_replacement=True)
    assert "花上添花" in r and r.points == 2 * 3                          # 自摸 x 花上添花
    # winner seat 1 (South), so seat 0 deals: 6 x 2 from the dealer, 6 from each other
    assert r.settle(1) == (-12, 24, -6, -6)
    # 花砸: the same win adds nothing
    r = score(hand, win, ruleset=hainan.build(huashang=False), seat_wind=1, self_drawn=True,
              flower_replacement=True)
    assert "花上添花" not in r and r.points == 2
    # a win with no 番 source still wins by self-draw (无番靠自摸) and takes the x3
    assert score(NO_FAN, "6s", ruleset="hainan", seat_wind=1, self_drawn=True,
                 flower_replacement=True).points == 2 * 3
    # only on one's own draw
    with pytest.raises(InvalidHandError, match="flower_replacement"):
        score(hand, win, ruleset="hainan", seat_wind=1, flower_replacement=True)


def test_hainan_kong_replacement_that_was_a_flower():
    # a kong's replacement was a flower, itself replaced: one x3 (花上添花), not 杠上开花 as
    # well [interp.]: 3 x 2 (自摸) = 6, where both would give 3 x 3 x 2 = 18 (capped 8)
    kw = dict(ruleset="hainan", seat_wind=1, self_drawn=True, kong=True)
    r = score("123m456p22m45m {1111s}", "6m", flower_replacement=True, **kw)
    assert "花上添花" in r and "杠上开花" not in r and r.points == 6
    assert score("123m456p22m45m {1111s}", "6m", **kw).points == 6      # 杠上开花 alone

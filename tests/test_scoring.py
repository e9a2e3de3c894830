"""Chinese Official scoring: every one of the 81 fans from a hand written from the rule
texts (ENC via docs/rules/mcr.md §2), its 不计 list, the exclusion principles, waits, the
readings chosen where the texts are silent, errors and the result object."""
from __future__ import annotations

import json

import pytest

import majiang
from majiang import parse_hand, rules
from majiang.errors import InvalidHandError, MahjongError, RuleError
from majiang.scoring import FanResult, candidates, score, waits

RS = rules.get("mcr")
D = dict(self_drawn=True)          # self-drawn
ESWN = dict(seat_wind=3, prevalent_wind=3)   # North/North: no wind fans for E S W

# (fan id, hand before the win, win tile, context, fans that must NOT be counted (不计))
CASES = [
    (1, "111z222z333z444z5m", "5m", {}, "三风刻 碰碰和 圈风刻 门风刻 幺九刻"),
    (2, "555z666z777z123m9p", "9p", {}, "双箭刻 箭刻"),
    (3, "223344666s88s66z", "6z", {}, "混一色 缺一门"),
    (4, "1112345678999m", "5m", {}, "清一色 门前清 缺一门 无字"),
    (5, "[1111m] [2222p] {3333s} [4444z] 5m", "5m", {}, "三杠 碰碰和 单钓将 明杠 双明杠 暗杠"),
    (6, "1122334455667m", "7m", {}, "七对子 清一色 门前清 单钓将 无字 缺一门"),
    (7, "19m19p19s1234567z", "1z", D, "五门齐 不求人 门前清 单钓将 混幺九"),
    (8, "111m999m111p999p1s", "1s", {}, "混幺九 碰碰和 全带幺 幺九刻 无字 双同刻"),
    (9, "111z222z333z44z56m", "7m", {}, "三风刻 幺九刻"),
    (10, "555z666z77z123m45p", "6p", {}, "双箭刻 箭刻"),
    (11, "111z222z555z666z7z", "7z", {}, "碰碰和 混幺九 全带幺 幺九刻 缺一门"),
    (12, "111m222p333s444z5m", "5m", D, "碰碰和 门前清 不求人"),
    (13, "112233778899m5m", "5m", {}, "七对子 清一色 平和 一般高 老少副 缺一门 无字"),
    (14, "11112222333m55p", "3m", {}, "一色三同顺 一般高 四归一"),
    (15, "111222333444m5p", "5p", {}, "一色三节高 碰碰和"),
    (16, "123234345456m5p", "5p", {}, "一色三步高 连六 老少副"),
    (17, "[1111m] [2222p] [3333s] 456m5p", "5p", {}, "双明杠 明杠"),
    (18, "111m999p111z555z9s", "9s", {}, "碰碰和 全带幺 幺九刻"),
    (19, "1133m5577p22s115z", "5z", {}, "门前清 不求人 单钓将"),
    (20, "147m25p3s1234567z", "8p", {}, "全不靠 五门齐 门前清 单钓将"),
    (21, "222m888m444p666s2p", "2p", {}, "碰碰和 断幺 无字"),
    (22, "123456789m1123m", "1m", {}, "缺一门 无字"),
    (23, "[123m] [123m] 123m45p99s", "6p", {}, "一色三节高 一般高"),
    (24, "111m222m333m45p99s", "6p", {}, "一色三同顺"),
    (25, "789m789p789s999s8m", "8m", {}, "大于五 无字"),
    (26, "456m456p456s444m5p", "5p", {}, "断幺 无字"),
    (27, "123m123p123s333m2p", "2p", {}, "小于五 无字"),
    (28, "123456789m11p45s", "6s", {}, ""),
    (29, "123789m123789p5s", "5s", {}, "平和 喜相逢 老少副 无字"),
    (30, "123m234m345m11p78s", "9s", {}, ""),
    (31, "345m456p567s555m5p", "5p", {}, "断幺 无字"),
    (32, "111m111p111s23m99p", "4m", {}, ""),
    (33, "111m222p333s45m99p", "6m", {}, ""),
    (34, "147m258p36s12345z", "6z", {}, "五门齐 门前清 单钓将 组合龙"),
    (35, "147m258p369s45p11z", "6p", {}, ""),
    (36, "678m678p789s999s6m", "6m", {}, "无字"),
    (37, "123m234p123s444m1p", "1p", {}, "无字"),
    (38, "111z222z333z456m7p", "7p", ESWN, "幺九刻"),
    (39, "123m456p789s11z56m", "7m", {}, ""),
    (40, "123p345p888p222s5z", "5z", {}, "缺一门"),
    (41, "345m345p345s11z78m", "6m", {}, ""),
    (42, "333m444p555s11z78m", "9m", {}, ""),
    (43, "[234m] 678m67p345s22z", "5p", {}, ""),
    (44, "[234m] 678m67p345s22z", "5p", dict(self_drawn=True, last_tile=True), "自摸"),
    (45, "[234m] 678m67p345s22z", "5p", dict(last_tile=True), ""),
    (46, "{2222m} 678m67p345s22z", "5p", dict(self_drawn=True, kong=True), "自摸"),
    (47, "[234m] 678m67p345s22z", "5p", dict(kong=True, last_copy=True), "和绝张"),
    (48, "[111m] 222p333s555z7z", "7z", {}, ""),
    (49, "123456789m111z2z", "2z", {}, "缺一门"),
    (50, "123m234p345s11z56m", "7m", {}, ""),
    (51, "123m456p789s11z55z", "5z", {}, ""),
    (52, "[123m] [456p] [789s] [555z] 1z", "1z", {}, "单钓将"),
    (53, "{1111m} {2222p} 345s678s9p", "9p", {}, "暗杠 双暗刻"),
    (54, "555z666z123m456p9s", "9s", {}, "箭刻"),
    (55, "123m789p111s999m1z", "1z", {}, ""),
    (56, "123m456p789s234s5p", "5p", D, "自摸"),
    (57, "[1111m] [2222p] 345s678s9p", "9p", {}, "明杠"),
    (58, "[234m] 678m67p345s22z", "5p", dict(last_copy=True), ""),
    (59, "555z123m456p789s1s", "1s", {}, ""),
    (60, "222z123m456p789s1s", "1s", dict(prevalent_wind=1), "幺九刻"),
    (61, "333z123m456p789s1s", "1s", dict(seat_wind=2), "幺九刻"),
    (62, "123m456p789s234s5p", "5p", {}, ""),
    (63, "123m456p789s23m55p", "1m", {}, "无字"),
    (64, "111m123m456p789s5s", "5s", {}, ""),
    (65, "222m222p456s789s5m", "5m", {}, ""),
    (66, "222m333p456s789s5m", "5m", {}, ""),
    (67, "{2222m} 345p456s789s5m", "5m", {}, ""),
    (68, "234m345p456s678m5p", "5p", {}, "无字"),
    (69, "123m123m456p789s5s", "5s", {}, ""),
    (70, "123m123p456s789s5z", "5z", {}, ""),
    (71, "123m456m789p11s23p", "4p", {}, ""),
    (72, "123m789m456p11s23p", "4p", {}, ""),
    (73, "111m456p789s234s5p", "5p", {}, ""),
    (74, "[1111m] 456p789s234s5p", "5p", {}, ""),
    (75, "123m456m789p11p23p", "4p", {}, ""),
    (76, "111m456m789p11p23p", "4p", {}, ""),
    (77, "12m456p789s234s55p", "3m", {}, ""),
    (78, "13m456p789s234s55p", "2m", {}, ""),
    (79, "123m456p789s234s9p", "9p", {}, ""),
    (80, "[123m] 456p789s234s5p", "5p", D, ""),
    (81, "123m456p789s234s5p", "5p", dict(flowers=3), ""),
]


def test_every_fan_has_a_case():
    assert sorted(c[0] for c in CASES) == list(range(1, 82))


@pytest.mark.parametrize("fid,hand,win,ctx,absent", CASES,
                         ids=[f"{c[0]}-{RS.fan(c[0]).chinese}" for c in CASES])
def test_fan(fid, hand, win, ctx, absent):
    r = score(hand, win, **ctx)
    fan = RS.fan(fid)
    assert r.count(fid) >= 1, f"{fan} missing from {r!r}"
    for name in absent.split():
        assert r.count(name) == 0, f"{name} counted with {fan.chinese} (不计): {r!r}"
    # the 不计 list of the fan is never violated
    for other in RS.fan(fid).excludes:
        assert r.count(other) == 0
    assert r.total == sum(f.points for f in r.fans)


def test_excluded_lists_are_data():
    assert {RS.fan(i).chinese for i in RS.fan("大四喜").excludes} == \
        {"三风刻", "碰碰和", "圈风刻", "门风刻", "幺九刻"}
    assert {RS.fan(i).chinese for i in RS.fan("七对子").excludes} == {"不求人", "门前清", "单钓将"}


# ------------------------------------------------------------------ exact totals
@pytest.mark.parametrize("hand,win,ctx,expected", [
    # 九莲宝灯 on 5m: 88 + 双暗刻 (111m, 999m) + one 幺九刻 (the other is part of the fan)
    ("1112345678999m", "5m", {}, {"九莲宝灯": 1, "双暗刻": 1, "幺九刻": 1}),
    # self-drawn seven pairs: 自摸 still counts (不求人 is the excluded one)
    ("1133m5577p22s115z", "5z", D, {"七对子": 1, "五门齐": 1, "自摸": 1}),
    # 七对子 + 字一色 (tile-composition fans apply to seven pairs)
    ("1122334455667z", "7z", {}, {"七对子": 1, "字一色": 1}),
    # 四暗刻 self-drawn: 自摸 counts, 不求人 and 门前清 do not
    ("111m333p555s444z5m", "5m", D, {"四暗刻": 1, "幺九刻": 2, "单钓将": 1, "自摸": 1}),
    # 和绝张 + 抢杠和: robbing excludes 和绝张
    ("[234m] 678m67p345s22z", "5p", dict(kong=True, last_copy=True), {"抢杠和": 1}),
    # 3 concealed kongs + 1 melded: 四杠 + 三暗刻
    ("{1111m} {3333p} {5555s} [4444z] 5m", "5m", {}, {"四杠": 1, "三暗刻": 1, "幺九刻": 2}),
    # one concealed + one melded kong: 暗杠 + 明杠 (no 明暗杠 among the 81: the official
    # reading, option concealed_and_melded_kong off; the default is tested in
    # tests/test_mcr.py)
    ("23m789s11z [5555z] {6666m}", "1m", dict(ruleset=rules.mcr.MCR_OFFICIAL),
     {"箭刻": 1, "暗杠": 1, "明杠": 1, "缺一门": 1}),
])
def test_exact_fans(hand, win, ctx, expected):
    r = score(hand, win, **ctx)
    assert {f.chinese: f.count for f in r.fans} == expected


# ------------------------------------------------------------------ 套算一次 / 不得相同
def test_combined_once_rule_text_examples():
    # "234567s234567p，只能计为 喜相逢*2 连六*1 或者 喜相逢*1 连六*2"
    r = score("234567s234567p5m", "5m")
    assert r.count("喜相逢") + r.count("连六") == 3
    assert r.count("喜相逢") == 2 and r.count("连六") == 1
    # "234s223344567p，只能计为：一般高、喜相逢、连六"
    r = score("234s223344567p1z", "1z")
    assert (r.count("一般高"), r.count("喜相逢"), r.count("连六")) == (1, 1, 1)


def test_three_set_fan_plus_at_most_one_with_the_fourth():
    r = score("123456789m123p5s", "5s")
    assert r.count("清龙") == 1 and r.count("喜相逢") == 1
    assert r.count("连六") == 0 and r.count("老少副") == 0     # inside 清龙: not again
    r = score("[123m] [123m] 123m123p9s", "9s")               # 一色三同顺 + 1 more only
    assert r.count("一色三同顺") == 1
    assert r.count("一般高") + r.count("喜相逢") == 1


def test_highest_reading_is_kept():
    # 111222333m concealed: pungs (一色三节高 + 三暗刻) beat chows (一色三同顺)
    r = score("111222333m45p99s", "6p")
    assert r.count("一色三节高") == 1 and r.count("三暗刻") == 1
    totals = sorted({t for t, _, _ in candidates("111222333m45p99s", "6p")})
    assert r.total == totals[-1] and len(totals) > 1


# ------------------------------------------------------------------ waits and 暗刻
def test_waits_are_judged_by_shape():
    assert waits("1112345678999m") == [f"{i}m" for i in range(1, 10)]
    assert waits("12m456p789s234s55p") == ["3m"]
    # 1113m with [333m]: 3m completes the shape although all four copies are held,
    # so 2m is not the only wait and scores no 坎张
    hand = "1113m [333m] [456p] [789s]"
    assert waits(hand) == ["2m", "3m"]
    assert score(hand, "2m").count("坎张") == 0
    # 12345m waiting 3/6: no 边张 (ENC: 手中有12345和3 不算边张)
    assert score("12345m456p789s55p", "3m").count("边张") == 0
    # 1233m winning on 3m counts 边张 (ENC)
    assert score("1233m456p789s555z", "3m").count("边张") == 1
    # 4556m winning on 5m is 坎张; 45567m winning on 6m is not (ENC)
    assert score("4556m456p789s555z", "5m").count("坎张") == 1
    assert score("45567m456p789s55z", "6m").count("坎张") == 0


def test_discard_completing_a_pung_makes_it_exposed():
    concealed = score("111m222p44s55s789m", "4s", self_drawn=True)
    assert concealed.count("三暗刻") == 1
    claimed = score("111m222p44s55s789m", "4s")
    assert claimed.count("双暗刻") == 1 and claimed.count("三暗刻") == 0
    # when the win tile can complete a chow instead, the pung stays concealed
    r = score("111m23m222p333s55z", "1m")
    assert r.count("三暗刻") == 1


def test_knitted_straight_win_inside_the_knitted_tiles_scores_no_wait():
    r = score("147m258p36s123s55z", "9s")
    assert r.form == "knitted_straight"
    assert waits("147m258p36s123s55z") == ["9s"]
    assert not any(r.count(n) for n in ("边张", "坎张", "单钓将"))
    # the pair of a knitted straight is a single wait
    r = score("147m258p369s123s5z", "5z")
    assert r.count("组合龙") == 1 and r.count("单钓将") == 1


def test_last_copy_implied_by_own_melds():
    # [789m] x3 shows three 8m: winning on the fourth is 和绝张 without the flag
    r = score("[789m] [789m] [789m] 79m11p", "8m")
    assert r.count("和绝张") == 1 and r.context.last_copy
    assert score("[789m] [789m] [789m] 56p99p", "4p").count("和绝张") == 0


# ------------------------------------------------------------------ minimum, settlement
def test_minimum_excludes_flowers():
    r = score("[234m] 678m67p345s22z", "5p", flowers=7)
    assert r.count("无番和") == 1 and r.total == 15 and r.meets_minimum
    r = score("[234m] 678m67p555z22s", "5p", flowers=7)
    assert r.count("箭刻") == 1 and r.total == 9 and not r.meets_minimum


def test_chicken_hand_ignores_flowers():
    r = score("[234m] 678m67p345s22z", "5p", flowers=2)
    assert {f.chinese: f.count for f in r.fans} == {"无番和": 1, "花牌": 2}


def test_settlement():
    r = score("123m456p789s234s5p", "5p")          # 门前清 + 单钓将 ... on a discard
    t = r.total
    assert r.settle(winner=1, discarder=3) == (-8, 3 * 8 + t, -8, -8 - t)
    r = score("123m456p789s234s5p", "5p", self_drawn=True)
    t = r.total
    assert r.settle(winner=0) == (3 * (8 + t), -8 - t, -8 - t, -8 - t)
    with pytest.raises(RuleError):
        score("123m456p789s234s5p", "5p").settle(winner=0)


def test_below_the_minimum_settles_nothing():
    """Chinese Official rules: a win needs 8 fan, flowers not counted (docs/rules/mcr.md §2).
    Issue 8: the score text said 'below the 8-fan minimum' and then a payment."""
    # 门前清 2 + 平和 2 + 喜相逢 1 + 老少副 1 = 6 on a discard
    r = score("123m789m45p789s55s", "3p")
    assert r.total == 6 and not r.meets_minimum
    with pytest.raises(RuleError, match="8-fan minimum.*settles nothing"):
        r.settle(winner=0, discarder=1)
    assert "not a win" in str(r) and "no payment" in str(r)
    # 6 fan and 2 flowers: total 8 but still below the minimum
    r = score("123m789m45p789s55s", "3p", flowers=2)
    assert r.total == 8 and not r.meets_minimum
    with pytest.raises(RuleError):
        r.settle(winner=0, discarder=1)
    # self-drawn: 不求人 4 replaces 门前清 2, so 8 fan without the flowers
    r = score("123m789m45p789s55s", "3p", self_drawn=True)
    assert r.total == 8 and r.meets_minimum and sum(r.settle(winner=0)) == 0
    assert "not a win" not in str(r)


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize("hand,win,ctx,match", [
    ("123m456p789s234s5p", "6p", {}, "not a winning hand"),
    ("123m456p789s234s55p", "5p", {}, "BEFORE the winning tile"),
    ("123m456p789s234s5p", "5p", dict(self_drawn=True, kong=True), "no kong"),
    ("123m456p789s234s5p", "5p", dict(kong=True), "robbing"),
    ("123m456p789s234s5p", "5p", dict(last_copy=True), "holds"),
    ("111m456p789s234s9m", "9m", {}, None),
])
def test_errors(hand, win, ctx, match):
    if match is None:
        score(hand, win, **ctx)            # a legal hand for contrast
        return
    with pytest.raises(InvalidHandError, match=match):
        score(hand, win, **ctx)


def test_fifth_copy_and_bad_options():
    with pytest.raises(InvalidHandError, match="fifth copy"):
        score("[1111m] 456p789s23s11p", "1m")
    with pytest.raises(RuleError):
        score("123m456p789s234s5p", "5p", seat_wind="X")
    with pytest.raises(RuleError):
        score("123m456p789s234s5p", "5p", ruleset="nope")
    with pytest.raises(MahjongError):
        score("123m456p789s234s5p", "5x")


def test_flowers_from_the_hand():
    h = parse_hand("123m456p789s234s5p 春梅")
    assert score(h, "5p").count("花牌") == 2
    with pytest.raises(RuleError):
        score(h, "5p", flowers=3)


# ------------------------------------------------------------------ result object
def test_result_views():
    r = score("123m456p789s11z55z", "5z", seat_wind="S", prevalent_wind="东")
    assert isinstance(r, FanResult)
    assert r.form == "regular" and r.decomposition.pair == 27
    assert "花龙" in r and "Mixed Straight" in str(r) and "total" in str(r)
    assert "<table>" in r._repr_html_()
    d = r.to_dict()
    json.dumps(d, ensure_ascii=False)
    assert d["total"] == r.total and d["fans"][0]["id"] == r.fans[0].id
    assert d["seat_wind"] == "S" and d["win_set"].startswith("pung")
    assert r.winning_hand.form == "regular"


# ------------------------------------------------------------------ command line
def test_cli_score(capsys):
    from majiang.cli import main
    assert main(["score", "456p789s11z [555z] 45m", "--win", "6m", "--seat", "S"]) == 0
    out = capsys.readouterr().out
    assert "五门齐" in out and "All Types" in out and "total    9 fan" in out
    assert main(["score", "19m19p19s1234567z", "--win", "1z", "--self-drawn", "--flowers",
                 "1", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["total"] == 88 + 1 + 1 and d["fans"][0]["chinese"] == "十三幺"
    assert sum(d["settlement"]) == 0
    assert main(["score", "456p789s11z [555z] 45m", "--win", "9m"]) == 2
    assert "not a winning hand" in capsys.readouterr().err


# ------------------------------------------------ one default context for a complete hand
def test_one_default_win_context_for_score_check_win_and_advise():
    # 147m258p36s123s55z + 9s under the default rules (Chinese Official), counted by hand:
    # on a discard 组合龙 12 + 门前清 2 = 14; self-drawn 组合龙 12 + 不求人 4 = 16
    from majiang.scoring.api import standard_self_drawn
    h = "147m258p36s123s55z"
    chk = majiang.check_win(h, "9s")
    assert chk.valid and chk.result.total == 14 == majiang.score(h, "9s").total
    assert majiang.check_win(h, "9s", self_drawn=True).result.total == 16
    assert majiang.score(h, "9s", self_drawn=True).total == 16
    # advise names the best winning tile in the same context: 2s closes 1s-3s,
    # 组合龙 12 + 门前清 2 + 坎张 1 = 15
    t = majiang.advise(h + "9s", second_order=False)
    assert t.attrs["win_now"] == "win now: 15 fan (2s on a discard)"
    assert majiang.check_win("147m258p369s13s55z", "2s").result.total == 15
    # the standard reading is self-drawn where no discard wins (天津: self-draw only)
    assert not standard_self_drawn(None) and not standard_self_drawn("sichuan")
    assert standard_self_drawn("tianjin")


def test_no_ruleset_means_chinese_official():
    """``ruleset=None`` is the default ruleset (Chinese Official), as in check_win and
    every other function taking a ruleset (a fresh user saw score(..., ruleset=None) fail
    with "unknown ruleset None" while check_win took it)."""
    a = score("456p789s11z [555z] 45m", "6m", ruleset=None)
    b = score("456p789s11z [555z] 45m", "6m", ruleset="mcr")
    assert (a.total, [f.id for f in a.fans]) == (b.total, [f.id for f in b.fans])

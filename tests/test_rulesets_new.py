"""New regional rulesets of issue 11 without new joker machinery: 合肥 (hefei), 海南
(hainan), 南京 (nanjing, nanjing_changkaitou), 立四 (lisi).

Every expected value is worked out by hand from the rule text (docs/rules/hefei.md,
hainan.md, nanjing.md, lisi.md; docs/rules/changsha.md for the Changsha values 合肥 uses), never
read from the code's output.  The worked examples of those pages are checked
exactly ("source example") or as computed there ("computed").
"""
from __future__ import annotations

import pytest

import majiang
from majiang import InvalidHandError, RuleError, rules
from majiang.analysis import advise
from majiang.cli import main
from majiang.rules import hainan, hefei, lisi, nanjing
from majiang.rules.model import game_model
from majiang.scoring import score

NEW = ("hefei", "hainan", "nanjing", "nanjing_changkaitou", "lisi")


# ----------------------------------------------------------------- registry, model, catalog
@pytest.mark.parametrize("name, tiles, flowers, players, hand", [
    ("hefei", 108, 0, 4, 13),            # docs/rules/hefei.md §1 "只有万筒索"; 4 players, 13
    ("hainan", 144, 8, 4, 13),           # docs/rules/hainan.md §1 136 + 8 flowers
    ("nanjing", 144, 20, 4, 13),         # docs/rules/nanjing.md §1 108 + 16 winds + 20 flowers
    ("nanjing_changkaitou", 144, 20, 4, 13),
    ("lisi", 108, 0, 3, 13),             # docs/rules/lisi.md §1 LSA: 108, three players
])
def test_game_model_facts(name, tiles, flowers, players, hand):
    m = game_model(name)
    assert m.n_tiles == tiles and m.n_flowers == flowers
    assert m.players == players
    assert m.hand_size == hand and m.dealer_hand_size == hand + 1
    assert rules.get(name).status == "complete"


def test_tile_sets_by_kind():
    nj = game_model("nanjing").copies
    assert list(nj[27:31]) == [4, 4, 4, 4] and list(nj[31:34]) == [0, 0, 0]   # dragons = flowers
    assert all(c == 4 for c in nj[:27])
    assert sum(game_model("hefei").copies[27:]) == 0
    assert sum(game_model("lisi").copies[27:]) == 0
    assert sum(game_model("hainan").copies) == 136
    assert game_model(hainan.build(no_honors=True)).n_tiles == 116        # 无字牌 option
    assert game_model(hefei.build(tiles=144)).n_tiles == 144               # HFMJ inventory


def test_calls_from_the_readings():
    assert "chow_left" not in rules.get("hefei").calls          # 不许碰 read as no 吃
    assert "pung" in rules.get("hefei").calls
    assert "chow_left" in rules.get("hainan").calls
    assert "chow_left" not in rules.get("nanjing").calls
    assert "chow_left" not in rules.get("lisi").calls
    assert rules.get("lisi").ready == "required"


def test_catalog_marks_them_complete(capsys):
    from majiang.rules.catalog import variants
    got = {v.section: (v.ruleset, v.status) for v in variants()}
    assert got["§3.8"] == ("hefei", "complete")
    assert got["§3.20"] == ("hainan", "complete")
    assert got["§3.22"] == ("lisi", "complete")
    assert got["§3.25"] == ("nanjing", "complete")
    assert main(["rules", "--all"]) == 0
    out = capsys.readouterr().out
    for name in ("hefei", "hainan", "lisi", "nanjing"):
        line = next(ln for ln in out.splitlines() if f" {name} " in ln)
        assert "complete" in line


@pytest.mark.parametrize("name", NEW)
def test_toml_round_trip(name):
    rs = rules.get(name)
    back = rules.loads(rules.dumps(rs))
    assert back.builder == rs.builder and dict(back.options) == dict(rs.options)
    assert [f.value for f in back.fans] == [f.value for f in rs.fans]


def test_bad_options_raise_rule_error():
    with pytest.raises(RuleError):
        hefei.build(tiles=136)
    with pytest.raises(RuleError):
        hainan.build(cap=10)
    with pytest.raises(RuleError):
        nanjing.build(table="other")
    with pytest.raises(RuleError):
        nanjing.build(yaojue=30)


# ----------------------------------------------------------------- shanten / advise
@pytest.mark.parametrize("name, hand, expected", [
    # ready on 3m/6m (or 3m-6m and the pair); every name of the readings allows it
    ("hefei", "123m456m789m55p45m", 0),        # 万 ≥ 8, pair 5p (2-5-8)
    ("hainan", "123m456p789s11z45m", 0),
    ("nanjing", "123m456p789s11z45m", 0),
    ("lisi", "123m456m789m55p45m", 0),
    # 立四 needs a void suit: three suits cost a swap (drop 1s, draw a 万/筒)
    ("lisi", "123m456m789m55p1s4m", 1),
])
def test_shanten_under_each(name, hand, expected):
    assert majiang.shanten(hand, ruleset=name) == expected


@pytest.mark.parametrize("name, hand, waits", [
    ("hefei", "123m456m789m55p45m", {"3m", "6m"}),
    ("hainan", "123m456p789s11z45m", {"3m", "6m"}),
    ("nanjing", "123m456p789s11z45m", {"3m", "6m"}),
    ("lisi", "123m456m789m55p45m", {"3m", "6m"}),
])
def test_ukeire_and_advise_under_each(name, hand, waits):
    assert set(majiang.ukeire(hand, ruleset=name)) == waits
    table = advise(hand + "1p", ruleset=name)
    assert table.iloc[0]["shanten"] == 0
    assert table.iloc[0]["discard"] == "1p"       # the stray tile goes


def test_lisi_shanten_keeps_the_void_suit():
    # 13 tiles in three suits, tenpai by shape, but 立四 needs one suit void
    h = "123m456p789s11m45m"
    assert majiang.shanten(h) == 0
    assert majiang.shanten(h, ruleset="lisi") >= 1


# ----------------------------------------------------------------- 合肥
# values (docs/rules/changsha.md §2 via docs/rules/hefei.md §1): 小和 1 (self-draw 2 from each); each
# 大和 6; 超大和 12; 最大和 18; 豪华七对 12, 双豪华 18.
HEFEI_FANS = [
    # hand (13), win, context, fan, expected points
    ("11112222m55p66p7p", "7p", {}, "双豪华七小对", 18),
    ("1111m2233m55p66p7p", "7p", {}, "豪华七对", 12),
    ("1122m3344m55p66p7p", "7p", {}, "七小对", 6),
    ("111333666999m4p", "4p", {}, "碰碰和", 6),
    ("123m456m789m11m45m", "6m", {}, "清一色", 6),
    ("123456789m5p {2222p}", "5p", {"self_drawn": True, "kong": True}, "杠上花", 6),
    ("123456789m34p88p", "2p", {"kong": True}, "抢杠和", 6),
    ("123456789m34p88p", "2p", {"self_drawn": True, "last_tile": True}, "海底捞月", 6),
    ("5p [123m] [456m] [789m] [111m]", "5p", {}, "全求人", 6),
    ("123456789m55p34p", "2p", {}, "小和", 1),
    ("123456789m55p34p", "2p", {"self_drawn": True}, "小和自摸", 2),
]


@pytest.mark.parametrize("hand, win, kw, fan, points", HEFEI_FANS)
def test_hefei_fan(hand, win, kw, fan, points):
    r = score(hand, win, ruleset="hefei", **kw)
    assert fan in r
    assert r.points == points


def test_hefei_every_fan_tested():
    tested = {c[3] for c in HEFEI_FANS} | {"将将和"}
    assert {f.chinese for f in rules.get("hefei").fans} == tested


def test_hefei_jiangjiang_is_a_big_win_and_classes_add():
    # docs/rules/hefei.md: 碰碰和 + 将将和 is a 超大和 = 12 (docs/rules/hefei.md §1)
    r = score("222m555m888m22p55p", "2p", ruleset="hefei")
    assert "将将和" in r and "碰碰和" in r and r.points == 12


def test_hefei_zuidahe_cap():
    # docs/rules/hefei.md 最大和: 豪华七对 + 清一色 + 海底捞月 = 18 (not 12 + 6 + 6)
    hand, win, kw = "1111m2233m5566m7m", "7m", {"self_drawn": True, "last_tile": True}
    assert score(hand, win, ruleset="hefei", **kw).points == 18
    # the uncapped Changsha addition
    assert score(hand, win, ruleset=hefei.build(cap=None), **kw).points == 24


def test_hefei_win_constraints():
    # 八枝: no suit holds 8 tiles
    with pytest.raises(InvalidHandError, match="eight_of_a_suit"):
        score("123m456p789s55s34m", "2m", ruleset="hefei")
    # 小和 needs a 2-5-8 pair (Changsha reading); option jiang_258=False lifts it
    with pytest.raises(InvalidHandError, match="pair_258_small"):
        score("123456789m11p34p", "2p", ruleset="hefei")
    assert score("123456789m11p34p", "2p", ruleset=hefei.build(jiang_258=False)).points == 1
    # a 大和 may use any pair
    assert score("123m456m789m11m45m", "6m", ruleset="hefei").points == 6


def test_hefei_settlement():
    # 小和 on a discard: 1 from the discarder
    assert score("123456789m55p34p", "2p", ruleset="hefei").settle(0, 2) == (1, 0, -1, 0)
    # 小和 self-drawn: 2 from each
    assert score("123456789m55p34p", "2p", ruleset="hefei",
                 self_drawn=True).settle(1) == (-2, 6, -2, -2)
    # 大和: 6 from the discarder, or 6 from each on a self-draw
    assert score("123m456m789m11m45m", "6m", ruleset="hefei").settle(3, 0) == (-6, 0, 0, 6)
    assert score("123m456m789m11m45m", "6m", ruleset="hefei",
                 self_drawn=True).settle(0) == (18, -6, -6, -6)


def test_hefei_start_of_hand_wins():
    assert hefei.start_of_hand_wins("1111m369m1369p13s") == ("四喜", "无将和")
    assert hefei.start_of_hand_wins("123456789m1234p5s") == ()
    assert hefei.start_of_hand_wins("111m222p3456789s1p") == ("六顺",)
    assert hefei.start_of_hand_wins("123456789m1234p") == ("缺一色",)
    assert hefei.START_OF_HAND_PAYMENT == 2


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
                                             "天胡"}      # 天胡: tests/test_engine_rules.py
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


# ----------------------------------------------------------------- 南京
# 花 (NJ): 跑一 10; 门一 +10; (硬花 + 软花) x 2; 混一色 / 对对胡 / 压绝 / 无花果 20;
# 清一色 / 全球独钓 / 七对 30; 双七对 80; 豪华双七对 120; 超豪华双七对 160 in all;
# 小杠开花 +10; 海底捞月 +20.
NANJING_FANS = [
    # hand, win, context, fan, expected total 花
    ("123m456p789s11z45m", "6m", {"flowers": 1}, "跑一", 10 + 10 + 2),
    ("123m456p789s11z45m", "6m", {"flowers": 1}, "门一", 22),
    ("123m456p789s11z45m", "6m", {"flowers": 3}, "花砸2", 10 + 10 + 6),
    ("123m456m789m22z45m", "6m", {"flowers": 1}, "混一色", 10 + 10 + 2 + 20),
    ("111m222p333s444m5s", "5s", {"flowers": 1}, "对对胡", 10 + 10 + 2 + 20),
    ("123m456p789s11z46m", "5m", {"flowers": 1, "last_copy": True}, "压绝", 10 + 10 + 2 + 20),
    ("123m456p789s11z45m", "6m", {}, "无花果", 10 + 10 + 20),
    ("234567m99m78m [111m]", "9m", {"flowers": 2}, "清一色", 10 + 30 + 4),
    ("5p [111m] [222m] [333s] [444s]", "5p", {"flowers": 1}, "全球独钓",
     10 + 2 + 20 + 30),                                 # also 对对胡
    ("1122m3344p5566s7s", "7s", {"flowers": 1}, "七对", 10 + 10 + 2 + 30),
    ("1111m2233p5566s7s", "7s", {"flowers": 1}, "双七对", 10 + 10 + 2 + 80),
    ("11112222m5566s7s", "7s", {"flowers": 1}, "豪华双七对", 10 + 10 + 2 + 120),
    ("111122223333m4m", "4m", {"flowers": 1}, "超豪华双七对", 160),
    ("123m456p11z45m {1111s}", "6m", {"flowers": 1, "self_drawn": True, "kong": True},
     "杠后开花", 10 + 10 + (1 + 2) * 2 + 10),          # suit 暗杠: 软花 2
    ("123m456p789s11z45m", "6m", {"flowers": 1, "self_drawn": True, "last_tile": True},
     "海底捞月", 10 + 10 + 2 + 20),
]


@pytest.mark.parametrize("hand, win, kw, fan, total", NANJING_FANS)
def test_nanjing_fan(hand, win, kw, fan, total):
    r = score(hand, win, ruleset="nanjing", **kw)
    assert fan in r
    assert r.points == total


def test_nanjing_every_fan_tested():
    assert {f.chinese for f in rules.get("nanjing").fans} == {c[3] for c in NANJING_FANS}


@pytest.mark.parametrize("hand, win, kw, total", [
    # 软花 table: wind pung 1, concealed wind pung 2, wind 明杠 3, wind 暗杠 4,
    # suit 明杠 1, suit 暗杠 2; opened small wins carry 4 硬花
    ("123m456p789s2z [111z]", "2z", {"flowers": 4}, 10 + (4 + 1) * 2),
    ("123m456p789s111z5m", "5m", {"flowers": 1}, 10 + 10 + (1 + 2) * 2),
    ("123m456p789s2z [1111z]", "2z", {"flowers": 4}, 10 + (4 + 3) * 2),
    ("123m456p789s2z {1111z}", "2z", {"flowers": 1}, 10 + 10 + (1 + 4) * 2),
    ("123m456p789s2z [1111s]", "2z", {"flowers": 4}, 10 + (4 + 1) * 2),
    ("123m456p789s2z {1111s}", "2z", {"flowers": 1}, 10 + 10 + (1 + 2) * 2),
])
def test_nanjing_soft_flowers(hand, win, kw, total):
    assert score(hand, win, ruleset="nanjing", **kw).points == total


def test_nanjing_source_example_1():
    # docs/rules/nanjing.md §3 source record (NJH): 门清 self-draw, 6 硬花 and 2 软花:
    # 10 + 10 + 6 x 2 + 2 x 2 = 36, paid by each of three (+108)
    r = score("123m456p789s111z5m", "5m", ruleset="nanjing", self_drawn=True, flowers=6)
    assert r.points == 36
    assert r.settle(1) == (-36, 108, -36, -36)


def test_nanjing_computed_example_2():
    # docs/rules/nanjing.md §3 computed (NJ): 清一色 on a discard, 2 硬花, not 门清: 44; under 比下胡 88
    r = score("234567m99m78m [111m]", "9m", ruleset="nanjing", flowers=2)
    assert r.points == 44
    assert r.settle(1, 2) == (0, 44, -44, 0)
    assert nanjing.settle_nanjing(r.points, 1, 2, bixia=True) == (0, 88, -88, 0)
    assert nanjing.bixia_next(r)                        # a big win: next hand 比下胡


def test_nanjing_open_hand_needs_four_hard_flowers():
    # NJH: an opened small win with fewer than 4 硬花 is refused; with 4 it wins
    with pytest.raises(InvalidHandError, match="open_small_needs_flowers"):
        score("123m123p123s2z [111z]", "2z", ruleset="nanjing", flowers=3)
    assert score("123m123p123s2z [111z]", "2z", ruleset="nanjing", flowers=4).points == 20
    # a big win needs none (清一色 + 无花果)
    assert score("234567m99m78m [111m]", "9m", ruleset="nanjing").points == 10 + 30 + 20
    # option off
    assert score("123m123p123s2z [111z]", "2z", ruleset=nanjing.build(open_min_flowers=0),
                 flowers=1).points == 10 + (1 + 1) * 2


def test_nanjing_options():
    # 七对 without 门一 (NJH reading)
    r = score("1122m3344p5566s7s", "7s", ruleset=nanjing.build(seven_pairs_menqing=False),
              flowers=1)
    assert r.points == 10 + 2 + 30
    # 压绝 40 (NJH)
    r = score("123m456p789s11z46m", "5m", ruleset=nanjing.build(yaojue=40), flowers=1,
              last_copy=True)
    assert r.points == 10 + 10 + 2 + 40
    # 压绝 needs a one-tile wait: a two-sided wait on the last copy is not 压绝
    r = score("123m456p789s11z45m", "6m", ruleset="nanjing", flowers=1, last_copy=True)
    assert "压绝" not in r and r.points == 22
    # soft flowers off
    r = score("123m456p789s111z5m", "5m", ruleset=nanjing.build(soft_flowers=False), flowers=1)
    assert r.points == 10 + 10 + 2
    # 敞开头 scores one hand the same
    assert score("123m456p789s111z5m", "5m", ruleset="nanjing_changkaitou",
                 self_drawn=True, flowers=6).points == 36


def test_nanjing_settlement_rules():
    s = nanjing.settle_nanjing
    assert s(30, 2, None) == (-30, -30, 90, -30)           # self-draw: each pays
    assert s(30, 2, 0) == (-30, 0, 30, 0)                   # discard: the discarder
    assert s(30, 2, 0, bao=True) == (-90, 0, 90, 0)         # 包牌: as a self-draw, all by one
    assert s(30, 2, None, bixia=True) == (-60, -60, 180, -60)
    small = score("123m456p789s11z45m", "6m", ruleset="nanjing", flowers=1)
    assert not nanjing.bixia_next(small)


def test_nanjing_dragons_are_flowers():
    with pytest.raises(InvalidHandError, match="not in the tile set"):
        score("123m456p789s5z [111z]", "5z", ruleset="nanjing")


# ----------------------------------------------------------------- 立四
def test_lisi_source_example_1():
    # docs/rules/lisi.md §3 source example (LSA): self-draw with one 明杠 and one 暗杠:
    # each opponent pays 20 + 5 + 10 = 35; winner +70
    r = score("123m456m5p [1111p] {9999m}", "5p", ruleset="lisi", self_drawn=True)
    assert "明杠" in r and "暗杠" in r and "胡牌" in r
    assert r.points == 35
    assert r.settle(0) == (70, -35, -35)


def test_lisi_computed_example_2():
    # docs/rules/lisi.md §3 computed: a non-dealer wins on the other non-dealer's discard (not ready),
    # one 暗杠: the discarder pays 15 + 20 = 35
    r = score("123m456m78m55p {9999p}", "9m", ruleset="lisi", seat_wind=1)
    assert r.settle(1, 2) == (0, 35, -35)
    # the same win by the dealer (seat wind East): the discarder pays 20 + 20
    r = score("123m456m78m55p {9999p}", "9m", ruleset="lisi", seat_wind=0)
    assert r.settle(1, 2) == (0, 40, -40)


def test_lisi_settlement_rules():
    s = lisi.settle_lisi
    assert s(20, 1, None) == (-20, 40, -20)                    # self-draw, no kong
    assert s(20, 0, 2) == (20, 0, -20)                         # not ready, winner dealer
    assert s(20, 1, 2) == (0, 15, -15)                         # not ready, winner not dealer
    assert s(25, 0, 2) == (20 + 10, 0, -(20 + 10))            # 明杠 doubled by not-ready
    assert s(20, 0, 2, discarder_ready=True) == (20, -10, -10)  # ready, winner dealer
    assert s(20, 1, 2, discarder_ready=True) == (-10, 15, -5)   # ready, winner not dealer
    assert s(30, 1, 2, discarder_ready=True) == (-20, 35, -15)  # 暗杠 10 from both


def test_lisi_win_rules():
    # exactly two suits: one suit does not win, three suits do not either
    with pytest.raises(InvalidHandError, match="two_suits"):
        score("123m456m789m11m45m", "6m", ruleset="lisi")
    with pytest.raises(InvalidHandError, match="void_suit"):
        score("123m456p789s11m45m", "6m", ruleset="lisi")
    # no seven pairs in LSA's forms
    with pytest.raises(InvalidHandError):
        score("1133m5577m2288p9p", "9p", ruleset="lisi")
    # wall end (docs/rules/lisi.md): 7 stacks, 7 with one kong, 8 with two, one more per kong
    we = rules.get("lisi").wall_end
    assert [we.kept_tiles(k, 0) for k in range(4)] == [14, 14, 16, 18]


def test_lisi_shape_options_are_not_exact():
    # the void suit is a shape rule; "exactly two suits" is judged at the win only
    m = game_model("lisi")
    assert m.void_suit and not m.shape().exact
    assert majiang.shanten("123m456m789m11m45m", ruleset="lisi") == 0
    with pytest.raises(InvalidHandError, match="two_suits"):
        score("123m456m789m11m45m", "3m", ruleset="lisi")


def test_lisi_every_fan_tested():
    assert {f.chinese for f in rules.get("lisi").fans} == {"胡牌", "明杠", "暗杠"}

"""南京 (nanjing, nanjing_changkaitou): fans, settlement and win rules.

Every expected value is worked out by hand from the rule text (docs/rules/nanjing.md), never
read from the code's output; the worked examples of the page are checked exactly
("source example") or as computed there ("computed").
"""

from __future__ import annotations

import pytest

from majiang import InvalidHandError, RuleError, check_win, rules
from majiang.rules import nanjing
from majiang.scoring import score

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
     "小杠开花", 10 + 10 + (1 + 2) * 2 + 10),          # suit 暗杠: 软花 2
    ("123m456p11z45m [1111s]", "6m",                     # a kong made on a discard
     {"flowers": 1, "self_drawn": True, "kong": True, "kong_claimed": True},
     "大杠开花", 10 + (1 + 1) * 2 + 20),                # suit 明杠: 软花 1; no 门一
    ("123m456p789s11z45m", "6m", {"flowers": 1, "self_drawn": True, "last_tile": True},
     "海底捞月", 10 + 10 + 2 + 20),
    # 地胡 (after 天听, no 碰/杠): +30
    ("123m456p789s11z45m", "6m", {"flowers": 1, "self_drawn": True, "declared_ready": "deal"},
     "地胡", 10 + 10 + 2 + 30),
    # 天胡 (进园子): the three others lose their whole 园子 (100): the total, nothing added
    ("123m456p789s11z45m", "6m", {"flowers": 3, "self_drawn": True,
                                  "first_turn": "heavenly"}, "天胡", 100),
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


# ============================================================================
# More than 8 硬花
# 南京: more than 8 硬花 (docs/rules/nanjing.md §1: each of the 20 flower tiles —
# 8 flowers + 中发白 x 4 — is a 硬花; docs/rules/nanjing.md §2: 花砸2 = (硬花 + 软花) x 2, 跑一 10, 门一 10).
#
# Expected points are worked from the docs/rules/nanjing.md §2 table by hand.
# ============================================================================
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


# ----------------------------------------------------------------- 天胡 (first_turn)
@pytest.mark.parametrize("ruleset, kw, total, without", [
    # 进园子: the whole 园子 from each of the three, in place of every item
    # (without the flag: 跑一 10 + 门一 10 + 无花果 20; with 5 硬花 10 + 10 + 10)
    ("nanjing", {}, 100, 40),
    ("nanjing", {"flowers": 5}, 100, 30),
    # 敞开头: +200 on top: 跑一 10 + 门一 10 + 无花果 20 + 200; with 3 硬花 10 + 10 + 6 + 200
    ("nanjing_changkaitou", {}, 240, 40),
    ("nanjing_changkaitou", {"flowers": 3}, 226, 26),
])
def test_heavenly_hand(ruleset, kw, total, without):
    hand, win = "123m456p789s11z45m", "6m"
    r = score(hand, win, ruleset=ruleset, self_drawn=True, first_turn="heavenly", **kw)
    assert "天胡" in r and r.points == total
    assert r.settle(0) == (3 * total, -total, -total, -total)
    assert nanjing.bixia_next(r)                        # a big win: next hand 比下胡
    # the same win without the flag: no 天胡
    plain = score(hand, win, ruleset=ruleset, self_drawn=True, **kw)
    assert "天胡" not in plain and plain.points == without


def test_heavenly_hand_whole_yuanzi_option():
    r = score("123m456p789s11z45m", "6m", ruleset=nanjing.build(yuanzi=150), self_drawn=True,
              first_turn="heavenly")
    assert r.points == 150


def test_heavenly_big_hand_changkaitou():
    # 超豪华双七对 is 160 in all, +200 for 天胡 on the open table
    r = score("111122223333m4m", "4m", ruleset="nanjing_changkaitou", self_drawn=True,
              first_turn="heavenly")
    assert r.points == 360


@pytest.mark.parametrize("engine", ["python", "auto"])
def test_engine_dealer_wins_on_the_deal(engine):
    # (天听 for 地胡 is a declaration the compiled loop does not play: 南京 plays in the
    # Python loop, engine="compiled" refuses it — test_engine_declare.py)
    from majiang.game import play_hand
    from _engine_helpers import build_test_wall
    # the dealer's 14: 111 222 333 444 55m complete; 清一色 + 对对胡 + 无花果 + 门一 + 跑一
    hands = ["11122233344455m", "123456789p1234s", "123456789s5678p", "666777888999m9p"]
    for name, each in (("nanjing", 100),
                       ("nanjing_changkaitou", 10 + 10 + 20 + 20 + 30 + 200)):
        st = play_hand(name, "efficiency", wall=build_test_wall(name, hands), dealer=0,
                       engine=engine)
        (w,) = st.wins
        assert (w["seat"], w["how"]) == (0, "self_draw")
        assert "天胡" in {n for n, _ in w["fans"]}
        assert w["deltas"] == [3 * each, -each, -each, -each]


def test_earthly_hand_after_tianting():
    # 地胡 (NJ): after 天听 (a declaration on the dealt hand: declared_ready "deal"), no 碰/杠
    rs = rules.get("nanjing")
    assert not any("地胡" in m or "天胡" in m for m in rs.missing)
    # on a discard, 1 硬花, not 门清 by NJ's 门一 (a discard win keeps the hand concealed:
    # 门一 10 counts): 10 + 10 + 2 + 30 = 52; undeclared 22
    r = score("123m456p789s11z45m", "6m", ruleset="nanjing", flowers=1, declared_ready="deal")
    assert "地胡" in r and r.points == 52
    assert nanjing.bixia_next(r)                        # a big win: 比下胡 next hand
    assert score("123m456p789s11z45m", "6m", ruleset="nanjing", flowers=1).points == 22
    # a concealed kong (杠) or another declaration: no 地胡
    r = score("123m456p11z45m {1111s}", "6m", ruleset="nanjing", flowers=1,
              self_drawn=True, declared_ready="deal")
    assert "地胡" not in r
    r = score("123m456p789s11z45m", "6m", ruleset="nanjing", flowers=1, self_drawn=True,
              declared_ready="concealed")
    assert "地胡" not in r and r.points == 22
    # a table without 天听 (option tian_ting=False): no 地胡, nothing to declare
    from majiang.game.engine.facts import ready_kinds
    from majiang.rules.model import game_model
    off = nanjing.build(tian_ting=False)
    assert "地胡" not in {f.chinese for f in off.fans}
    assert ready_kinds(game_model(off)) == () and ready_kinds(game_model(rs)) == ("deal",)
    with pytest.raises(RuleError, match="tian_ting"):
        nanjing.build(tian_ting=1)


# ------------------------------------------------------ 现场汇 kong money
def test_concealed_kong_money_paid_at_once():
    """现场汇 (docs/rules/nanjing.md §2, NJH): a concealed kong collects 6 from each other
    player at once; exposed and added kongs pay nothing (no value in any source)."""
    from majiang.game.engine import KongLedger
    led = KongLedger(nanjing.NANJING, 4)
    led.kong(2, "concealed", [False] * 4, 0)
    led.kong(1, "exposed", [False] * 4, 1, discarder=0)
    led.kong(3, "added", [False] * 4, 2)
    got = [(e["payer"], e["payee"], e["amount"]) for e, *_ in led.items]
    assert got == [(0, 2, 6), (1, 2, 6), (3, 2, 6)]
    assert nanjing.NANJING.kong_payments.when == "at_once"
    assert nanjing.NANJING_CHANGKAITOU.kong_payments.concealed == 6


def test_concealed_kong_money_option():
    assert nanjing.build(concealed_kong_money=0).kong_payments is None
    assert nanjing.build(concealed_kong_money=10).kong_payments.concealed == 10
    with pytest.raises(RuleError):
        nanjing.build(concealed_kong_money=-6)
    assert not any("现场汇" in m for m in nanjing.NANJING.missing)
    assert any("现场汇" in x for x in nanjing.NANJING.lost)


# ----------------------------------------------------------------- 小杠开花 / 大杠开花
# docs/rules/nanjing.md §2: 小杠开花 +10 / 大杠开花 +20; 大 = the kong was made on another's
# discard [interp.] (the win context's kong_claimed).  跑一 10; 花砸2 = (硬花 + 软花) x 2 with
# a suit 明杠 worth 1 软花 and a suit 暗杠 2; an opened hand, so no 门一.
def test_nanjing_big_and_small_kong_flower():
    hand, win = "123m456p11z45m [1111s]", "6m"      # the kong shown: 明杠 (claimed or added)
    kw = dict(ruleset="nanjing", self_drawn=True, kong=True, flowers=1)
    big = score(hand, win, kong_claimed=True, **kw)
    assert "大杠开花" in big and "小杠开花" not in big
    assert big.points == 10 + (1 + 1) * 2 + 20
    small = score(hand, win, **kw)                  # an added kong: 小杠开花
    assert "小杠开花" in small and "大杠开花" not in small
    assert small.points == 10 + (1 + 1) * 2 + 10
    # both are big wins: the next hand is 比下胡
    assert nanjing.bixia_next(big) and nanjing.bixia_next(small)
    # a concealed kong cannot have been made on a discard; kong_claimed needs a kong win
    with pytest.raises(InvalidHandError, match="no exposed kong"):
        score("123m456p11z45m {1111s}", win, kong_claimed=True, **kw)
    with pytest.raises(InvalidHandError, match="kong_claimed"):
        score(hand, win, ruleset="nanjing", self_drawn=True, kong_claimed=True, flowers=1)

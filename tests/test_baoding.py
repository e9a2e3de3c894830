"""The 缺一门 / 跟庄 variant read as 保定 (baoding): a test per hand value and settlement rule, the
worked examples of docs/rules/baoding.md §5, the options, and hands played by the engine.

Expected values are worked out by hand from docs/rules/baoding.md §3-§4 (hand chips multiply;
a share is chips + the winner's kong chips, ×2 with the dealer; 大包 for a discarder not ready;
跟庄 1 per copied go-around), never read from the code's output.  Seats A = 0, B = 1, C = 2,
D = 3; B deals when A's seat wind is 3.
"""
from __future__ import annotations

import pytest

import majiang
from majiang import InvalidHandError, RuleError, rules
from majiang.game import play_hand, replay, summarize, to_jsonl
from majiang.rules import baoding as B
from majiang.rules.model import game_model
from _engine_helpers import Script, build_test_wall

A_NOT_DEALER = 3
QYM = B.build(que_yi_men=True)


def _score(hand, win, rs="baoding", **kw):
    kw.setdefault("seat_wind", A_NOT_DEALER)
    return majiang.score(hand, win, ruleset=rs, **kw)


def test_model_facts():
    rs, m = rules.get("baoding"), game_model("baoding")
    assert m.n_tiles == 136 and m.players == 4 and m.hand_size == 13
    assert "chow_left" not in rs.calls and rs.ready == "required"
    assert rs.winners == "head_bump" and rs.wall_end.kept_tiles(2, 1) == 15
    assert set(rs.forms) == {"regular", "seven_pairs", "thirteen_orphans", "seven_stars"}
    assert set(QYM.forms) == {"regular", "seven_pairs"} and "void_suit" in QYM.constraints
    assert rs.section == "§3.23" and rs.status == "complete"


# ----------------------------------------------------------------- values (§3)
@pytest.mark.parametrize("hand, win, kw, item, chips", [
    ("123m456p789s11z45s", "6s", {}, None, 1),                         # 平胡
    ("1122m3344p5566s7z", "7z", {}, "七小对", 2),
    ("1111m3344p55s66s7z", "7z", {}, "豪华七对", 4),
    ("1111m3333p55s66s7z", "7z", {}, "超级豪华七对", 8),
    ("123456789m11z45s", "6s", {}, "一条龙", 2),
    ("123m456m789m11m45m", "6m", {}, "清一色", 4 * 2),                  # and 一条龙
    ("123m345m567m11m45m", "6m", {}, "清一色", 4),
    ("1m9m1p9p1s9s1z2z3z4z5z6z7z", "1m", {}, "十三幺", 10),
    ("147m258p3s123456z", "7z", {}, "七不挨", 8),
    ("123m11z45s [777p] {9999s}", "6s", {"self_drawn": True, "kong": True}, "杠上花",
     1 * 2 + 2),                                                         # and its 暗杠 2
    ("123m456p789s11z45s", "6s", {"kong": True}, "抢杠胡", 2),
    ("123m456p11z45s [7777s]", "6s", {}, "明杠", 1 + 1),
    ("123m456p11z45s {7777s}", "6s", {}, "暗杠", 1 + 2),
])
def test_each_value(hand, win, kw, item, chips):
    r = _score(hand, win, **kw)
    if item is not None:
        assert item in r
    assert r.points == chips, (r.fans, r.points)


def test_every_value_is_tested():
    assert {f.chinese for f in rules.get("baoding").fans} == {
        "七小对", "豪华七对", "超级豪华七对", "一条龙", "清一色", "十三幺", "七不挨", "杠上花",
        "抢杠胡", "明杠", "暗杠"}


def test_que_yi_men_option():
    # three suits: no win; one suit and honours as a plain hand: no win; 清一色 wins
    with pytest.raises(InvalidHandError, match="void_suit"):
        _score("123m456p789s11z45s", "6s", rs=QYM)
    with pytest.raises(InvalidHandError, match="no_half_flush_plain"):
        _score("123m456m789m11z45m", "6m", rs=QYM)
    assert _score("123m345m567m11m45m", "6m", rs=QYM).points == 4
    assert _score("123m456m11z45p [777p]", "6p", rs=QYM).points == 1
    with pytest.raises(InvalidHandError):
        _score("1m9m1p9p1s9s1z2z3z4z5z6z7z", "1m", rs=QYM)       # no 十三幺


# ----------------------------------------------------------------- settlement (§4)
def test_self_draw_shares():
    assert B.settle_baoding(3, 0, None, dealer=1) == (12, -6, -3, -3)


def test_ready_discarder_three_pay():
    assert B.settle_baoding(2, 0, 2, dealer=1, discarder_ready=True) == (8, -4, -2, -2)


def test_da_bao_discarder_pays_all():
    assert B.settle_baoding(2, 0, 2, dealer=1) == (8, 0, -8, 0)


def test_gen_zhuang_rounds_from_pools():
    e, s = 27, 28                                       # 东, 南
    pools = ((e, s, 5), (e, s, 6), (e, s, 7), (e, s, 8))
    assert B.gen_zhuang_rounds(pools, dealer=0) == 2
    assert B.gen_zhuang_rounds(((e, 1), (e, 1), (2,), (e, 1)), dealer=0) == 0  # claimed
    assert B.gen_zhuang_rounds(((), (), (), ()), dealer=2) == 0


# ----------------------------------------------------------------- worked examples (§5)
def test_example_1_ready_self_draw_with_kongs():
    r = _score("123m11z45s [7777s] {9999m}", "6s", self_drawn=True)
    assert r.points == 4 and r.settle(0) == (16, -8, -4, -4)


def test_example_2_da_bao():
    r = _score("1122m3344p5566s7z", "7z")
    assert r.points == 2 and r.settle(0, 2) == (8, 0, -8, 0)
    assert B.settle_baoding(2, 0, 2, dealer=1, discarder_ready=True) == (8, -4, -2, -2)


def test_example_3_gen_zhuang_twice():
    assert B.gen_zhuang(2, dealer=1) == (2, -6, 2, 2)


def test_example_4_zha_hu():
    assert B.zha_hu(3, dealer=1) == (1, 2, 1, -4)
    with pytest.raises(RuleError):
        B.zha_hu(4, dealer=1)
    with pytest.raises(RuleError):
        B.gen_zhuang(-1, dealer=0)


def test_options_checked_and_round_trip():
    for kw in ({"que_yi_men": 1}, {"gen_zhuang": "yes"}, {"qi_bu_ai": None}):
        with pytest.raises(RuleError):
            B.build(**kw)
    for rs in (rules.get("baoding"), QYM):
        back = rules.loads(rules.dumps(rs))
        assert dict(back.options) == dict(rs.options) and back.forms == rs.forms


# ----------------------------------------------------------------- the engine
def test_gen_zhuang_in_the_engine():
    # everyone discards 东 then 南 (go-arounds 1 and 2), go-around 3 draws 5m 6m 7m 8s
    hands = ["1z2z13579m13579p13s", "1z2z2468m2468p247s", "1z2z135m246p579s56z",
             "1z2z357m468p68s577z"]
    draws = "9p9p9p" + "4z4z4z4z" + "5m6m7m8s"
    wall = build_test_wall("baoding", hands, draws=draws)
    pols = [Script("1z2z") for _ in range(4)]
    st = play_hand("baoding", pols, wall=wall, dealer=0)
    gz = [(e["payer"], e["payee"], e["amount"]) for e in st.end_checks if e["check"] == "跟庄"]
    assert sorted(gz) == [(0, 1, 2), (0, 2, 2), (0, 3, 2)]
    assert sum(st.deltas) == 0
    st = play_hand(B.build(gen_zhuang=False), [Script("1z2z") for _ in range(4)],
                   wall=wall, dealer=0)
    assert not [e for e in st.end_checks if e["check"] == "跟庄"]


def test_hands_in_the_engine():
    # 120 hands: zero-sum; every winner had declared ready (required); each discard win pays
    # settle_baoding with discarder_ready exactly when the discarder had declared (from the
    # log's ready events), so 大包 only for an undeclared discarder; no refund afterwards
    wins = declared_discards = 0
    for h in range(120):
        pl = "efficiency" if h % 2 == 0 else "random"
        st = play_hand("baoding", (pl,) * 4, seed=81, hand=h, log=True)
        assert sum(st.deltas) == 0
        declared = {e["seat"] for e in st.events if e["e"] == "ready" and e["choice"]}
        assert not [e for e in st.end_checks if e["check"] == "三家出"]
        for w in st.wins:
            wins += 1
            assert w["seat"] in declared and w["declared_ready"] == "concealed"
            d = w["discarder"] if w["how"] not in ("self_draw", "kong_replacement") else None
            ready = d is not None and d in declared
            declared_discards += ready
            assert w["discarder_ready"] == ready
            want = B.settle_baoding(w["points"], w["seat"], d, dealer=st.dealer,
                                    discarder_ready=ready)
            assert tuple(w["deltas"]) == want
    assert wins >= 40 and declared_discards >= 1


def test_replay():
    for h in range(4):
        st = play_hand("baoding", "efficiency", seed=9, hand=h, log=True)
        again = replay(to_jsonl(st.events))
        assert summarize(again) == summarize(st)

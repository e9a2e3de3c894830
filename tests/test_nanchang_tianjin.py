"""南昌 (nanchang) and 天津 (tianjin): a test per fan and settlement rule, the worked examples
of docs/rules/nanchang.md §4 and docs/rules/tianjin.md §5, the game-model facts and the options.

Expected values come from the reading's text (multipliers and points as docs/rules/nanchang.md §3 / docs/rules/tianjin.md §3
state them, settlement as docs/rules/nanchang.md §2-3 / docs/rules/tianjin.md §4 describe it), worked out by hand in the
comments — never from the library's own output.
"""
from __future__ import annotations

import pytest

import majiang
from majiang import InvalidHandError, RuleError, rules
from majiang.game import play_hand, replay, summarize, to_jsonl
from majiang.rules import nanchang as N
from majiang.rules import tianjin as T
from majiang.rules.model import game_model
from majiang.scoring import faces
from majiang.tiles import parse_tile
from _engine_helpers import GoldKonger as _GoldKonger

# ============================================================== 南昌
def _nc(hand, win, **kw):
    return majiang.score(hand, win, ruleset="nanchang", **kw)


def test_nanchang_model_facts():
    rs = rules.get("nanchang")
    m = game_model("nanchang")
    assert m.n_tiles == 136 and m.players == 4 and m.hand_size == 13
    assert "chow_left" in rs.calls and "pung" in rs.calls
    assert set(rs.forms) >= {"regular", "seven_pairs", "thirteen_lonely", "seven_stars"}
    assert rs.wall_end.kept == 34                               # BX END = 34
    assert rs.jokers.total_copies == 8 and rs.jokers.be_claimed


def test_nanchang_example_1_jing_from_the_indicator():
    """docs/rules/nanchang.md §4 example 1 (computed, BX): 9筒 → 正 9筒 副 1筒; 北 → 副 东; 白 → 副 中."""
    m = game_model("nanchang")
    assert m.joker_kinds("9p") == (parse_tile("9p"), parse_tile("1p"))
    assert m.joker_kinds("北") == (parse_tile("4z"), parse_tile("1z"))
    assert m.joker_kinds("白") == (parse_tile("5z"), parse_tile("7z"))


def test_nanchang_example_2_chongguan_bawang():
    """docs/rules/nanchang.md §4 example 2 (computed, BX): two 正精 + one 副精: s = 5 → 冲关 10; alone (霸王精
    ×2) 20 from each of three: +60."""
    assert N.jing_score(2, 1) == 10
    assert N.jing_scores([(2, 1), (0, 0), (0, 0), (0, 0)]) == (60, -20, -20, -20)


def test_nanchang_example_3_german_seven_pairs():
    """docs/rules/nanchang.md §4 example 3 (source example, WHN comment): a non-dealer self-draws 德国 七对:
    each other non-dealer pays 21 (2·2·2·2 + 5), the dealer 37 (2·16 + 5)."""
    r = _nc("1122m3344p5566s7z", "7z", self_drawn=True, seat_wind=1)
    assert r.points == 21
    assert r.settle(1) == (-37, 21 + 21 + 37, -21, -21)
    # the same hand with the 精 written by their faces (indicator 1m: 1m 正, 2m 副): the
    # 精 stand for themselves, so it is still 德国 and the better reading
    r = faces.score("1122m3344p5566s7z", "7z", ruleset="nanchang", indicator="1m", self_drawn=True, seat_wind=1)
    assert r.points == 21 and "德国" in r


def test_nanchang_chongguan_table_and_small_counts():
    # s = 2·正 + 副; from 5: s·(s−3) — 5→10, 6→18, 7→28, 8→40 (docs/rules/nanchang.md §2)
    assert [N.jing_score(z, f) for z, f in ((0, 5), (3, 0), (3, 1), (4, 0))] == [10, 18, 28, 40]
    assert [N.jing_score(z, f) for z, f in ((0, 0), (1, 0), (0, 3), (2, 0))] == [0, 2, 3, 4]
    with pytest.raises(RuleError):
        N.jing_score(-1, 0)


def test_nanchang_jing_settlement_variants():
    # two holders: no 霸王; seat 0 s=3 (1 正 + 1 副), seat 1 s=2 (2 副)
    assert N.jing_scores([(1, 1), (0, 2), (0, 0), (0, 0)]) == (9 - 2, 6 - 3, -5, -5)
    # 霸王精 +10 option: s = 2 → 12 from each
    assert N.jing_scores([(1, 0), (0, 0), (0, 0), (0, 0)], bawang="plus10") == \
        (36, -12, -12, -12)
    assert N.jing_scores([(1, 0), (0, 0), (0, 0), (0, 0)]) == (12, -4, -4, -4)
    # 冲关 liability: seat 2 supplied the 精 → pays the whole 3 × 20
    assert N.jing_scores([(2, 1), (0, 0), (0, 0), (0, 0)], liable={0: 2}) == (60, 0, -60, 0)
    with pytest.raises(RuleError):
        N.jing_scores([(1, 0)] * 4, bawang="x")


def test_nanchang_plain_win_on_a_discard_three_pay():
    # 精 (*) as 5m: no pattern → 平胡 M = 1.  Winner seat 1 (non-dealer), discarder seat 2:
    # discarder 2·1 = 2, dealer (seat 0) 1·2 = 2, seat 3 1 (三家付, 庄 ×2)
    r = _nc("123m456p789s11z4m*", "6m", seat_wind=1)
    assert r.points == 1 and "平胡" in r
    assert r.settle(1, 2) == (-2, 5, -2, -1)
    rs = N.build(pay="one")
    r = majiang.score("123m456p789s11z4m*", "6m", ruleset=rs, seat_wind=1)
    assert r.settle(1, 2) == (0, 2, -2, 0)
    rs = N.build(dealer_double=False)
    r = majiang.score("123m456p789s11z4m*", "6m", ruleset=rs, seat_wind=1)
    assert r.settle(1, 2) == (-1, 4, -2, -1)


def test_nanchang_self_draw_and_dealer():
    # 自摸 ×2: M = 2; non-dealer winner seat 1: dealer pays 4, the others 2
    r = _nc("123m456p789s11z4m*", "6m", self_drawn=True, seat_wind=1)
    assert r.points == 2 and "自摸" in r
    assert r.settle(1) == (-4, 8, -2, -2)
    # dealer wins (seat 0): everyone pays 2·2
    r = _nc("123m456p789s11z4m*", "6m", self_drawn=True, seat_wind=0)
    assert r.settle(0) == (12, -4, -4, -4)


def test_nanchang_german_bonus_on_a_discard():
    # 德国 (no *): M = 2, +5 paid by the discarder only (WHN); non-dealer winner seat 1,
    # discarder seat 3: 2·2 + 5 = 9; dealer 2·2 = 4; seat 2 pays 2
    r = _nc("123m456p789s11z45m", "6m", seat_wind=1)
    assert r.points == 7 and "德国" in r
    assert r.settle(1, 3) == (-4, 15, -2, -9)


@pytest.mark.parametrize("hand,win,kw,fan,points", [
    ("123m456p789s123s*", "7z", {}, "精钓", 2),                    # pair 7z + a 精
    ("111m222p333s44s55z", "5z", {}, "大七对", 2 * 2 + 5),         # 大七对 × 德国, +5
    ("147m258p369s1234z", "5z", {}, "十三烂", 2 * 2 + 5),          # 十三烂 × 德国
    ("14m25p369s123456z", "7z", {}, "七星十三烂", 4 * 2 + 5),      # 七星 × 德国
    ("123m456p11z4m* {7777s}", "6m", {"self_drawn": True, "kong": True}, "杠开", 2 * 2),
    ("123m456p789s11z4m*", "6m", {"kong": True}, "抢杠", 2),
    ("123m456p789s11z4m*", "6m", {"self_drawn": True, "first_turn": "heavenly"},
     "天胡/地胡", 20),
    ("1133m5577p99s22z3z", "3z", {}, "小七对", 2 * 2 * 2 + 5),    # 小七对 × 德国 × 德国七对
    ("1133m5577p99s22z3z", "3z", {}, "德国七对", 13),
])
def test_nanchang_fan(hand, win, kw, fan, points):
    r = _nc(hand, win, **kw)
    assert fan in r, (r.fans, r.points)
    assert r.points == points


def test_every_nanchang_fan_is_tested():
    names = {"平胡", "自摸", "德国", "精钓", "大七对", "小七对", "十三烂", "七星十三烂", "杠开",
             "抢杠", "天胡/地胡", "德国七对"}
    assert {f.chinese for f in rules.get("nanchang").fans} == names


def test_nanchang_seven_stars_replaces_thirteen_lonely():
    r = _nc("14m25p369s123456z", "7z")
    assert "七星十三烂" in r and "十三烂" not in r


def test_faces_score_errors():
    with pytest.raises(RuleError):
        faces.score("123m456p789s11z45m", "6m", ruleset="mcr", indicator="1m")
    with pytest.raises(RuleError):
        faces.score("123m456p789s11z45m", "6m", ruleset="nanchang")       # no indicator
    with pytest.raises(InvalidHandError):                                  # 4 正 + the win
        faces.score("1111m2p456p789s11z", "1m", ruleset="tianjin", indicator="1m",
                    self_drawn=True)


def test_tianjin_faces_never_make_su_hu():
    # 天津: a held 混儿 is a 混儿 even when it could stand for its own face (no 素胡)
    r = faces.score("123m456p789s11z45s", "6s", ruleset="tianjin", indicator="5s",
                    self_drawn=True)
    assert "素胡" not in r and r.points == 0


def test_nanchang_score_with_faces_prefers_german_only_when_it_wins():
    # indicator 5p: 5p 正, 6p 副.  The 6p is needed as a wild (4m6p + 5m? no: 4m + 6p as
    # 5m) → only the wild reading wins: 平胡 on a discard, M = 1
    r = faces.score("123m456s789s11z4m6p", "6m", ruleset="nanchang", indicator="5p",
                    seat_wind=1)
    assert r.points == 1 and "德国" not in r
    with pytest.raises(InvalidHandError):
        faces.score("123m456s789s11z1m9p", "5z", ruleset="nanchang", indicator="5p")


def test_nanchang_options():
    assert N.build(cap=300).scoring.cap == 300
    for bad in (dict(pay="two"), dict(bawang="x"), dict(cap=7), dict(honor_chows="yes")):
        with pytest.raises(RuleError):
            N.build(**bad)
    rs = N.build(german_seven_pairs=False)
    r = majiang.score("1122m3344p5566s7z", "7z", ruleset=rs, self_drawn=True, seat_wind=1)
    assert r.points == 2 * 2 * 2 + 5                             # no WHN extra ×2
    r = majiang.score("1122m3344p5566s7z", "7z", ruleset=N.build(cap=4), self_drawn=True,
                      seat_wind=1)
    assert r.points == 4 + 5


def test_nanchang_settle_hand_adds_the_jing():
    r = _nc("1122m3344p5566s7z", "7z", self_drawn=True, seat_wind=1)
    total = N.settle_hand(r, 1, jing=[(0, 0), (2, 1), (0, 0), (0, 0)])
    assert total == (-37 - 20, 79 + 60, -21 - 20, -21 - 20)
    # a drawn hand: only the 精分
    assert N.settle_hand(None, None, jing=[(0, 1), (0, 0), (0, 0), (0, 0)]) == (6, -2, -2, -2)


def test_nanchang_toml_round_trip():
    rs = rules.loads('base = "nanchang"\n[options]\nbawang = "plus10"\npay = "one"\n')
    assert rs.options["bawang"] == "plus10" and rs.settlement_params["pay"] == "one"
    assert rs.jokers.second == "next"


def test_nanchang_shanten_advise_probability():
    # 8 jokers wild: a hand with two * is tenpai on anything pairing
    assert majiang.shanten("123m456p789s1z2z**", ruleset="nanchang", indicator="9p") == 0
    # 东南白 is no honour chow (three winds or the three dragons are): the lone honours go
    a = majiang.advise("123m456p789s1z2z5z**", ruleset="nanchang", indicator="9p")
    assert set(a["discard"]) == {"1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s",
                                 "1z", "2z", "5z"}
    assert a.iloc[0]["discard"] in ("1z", "2z", "5z")          # keeps the complete sets


# ============================================================== 天津
def test_tianjin_model_facts():
    rs = rules.get("tianjin")
    assert "chow_left" not in rs.calls and "pung" in rs.calls
    assert rs.forms == ("regular",)
    assert game_model("tianjin").self_draw_only
    assert rs.jokers.discard is False and rs.jokers.total_copies == 7
    w = game_model(T.build(indicator_in_play=True)).wall("5p")
    assert w.jokers == 8 and w.size == 136


def test_tianjin_example_1_jokers():
    """docs/rules/tianjin.md §5 example 1: 5筒 → the other three 5筒 and the four 6筒; 9万 → 9万 ×3 + 1万 ×4;
    北 → 北 ×3 + 东 ×4."""
    m = game_model("tianjin")
    for ind, (a, b) in (("5p", ("5p", "6p")), ("9m", ("9m", "1m")), ("4z", ("4z", "1z"))):
        w = m.wall(ind)
        assert w.joker_kinds == (parse_tile(a), parse_tile(b))
        assert w.jokers == 3 + 4
        assert w.counts[parse_tile(a)] == 0 and w.counts[parse_tile(b)] == 0


def test_tianjin_example_2_hun_diao_dragon():
    """docs/rules/tianjin.md §5 example 2: self-drawn 一条龙 with a 混儿 as the pair partner (混钓一条龙):
    2 + 4 = 6; each of three pays 6."""
    r = faces.score("123456789m111s5p", "9s", ruleset="tianjin", indicator="5p",
                    self_drawn=True)
    assert r.points == 6 and "混钓" in r and "一条龙" in r
    assert r.settle(0) == (18, -6, -6, -6)


def test_tianjin_example_3_zhuo_wu_no_hun():
    """docs/rules/tianjin.md §5 example 3: no 混儿, win on 5万 in 4-5-6万: 捉五魁 3 × 素胡 2 = 6; after a
    kong (杠开) ×2 = 12 from each player."""
    r = majiang.score("123p46m789s111z99s", "5m", ruleset="tianjin", self_drawn=True)
    assert r.points == 6 and "捉五魁" in r and "素胡" in r
    r = majiang.score("123p46m789s99s {1111z}", "5m", ruleset="tianjin", self_drawn=True,
                      kong=True)
    assert r.points == 12
    assert r.settle(2) == (-12, -12, 36, -12)


@pytest.mark.parametrize("score_kw,hand,win,fan,points", [
    ({}, "123m456p789s11z45s", "6s", "素胡", 2),
    ({}, "123p789s111z99s**", "5m", "双混捉五魁", 6),
    ({}, "123456789m111s2z", "2z", "一条龙", 2 * 4),          # 素胡 doubles 龙
    ({"indicator": "4m"}, "123456789m111s2z", "2z", "本混龙", 8),
    ({"indicator": "5z"}, "123m456p789s1z555z", "1z", "银杠胡", 6),
    ({"indicator": "5z"}, "123m456p789s7777z", "1z", "金杠胡", 2 + 8),
    ({}, "123m456p11z4m* {7777s}", "6m", "平胡", 1 * 2),        # 平胡 1 only with 杠开
    ({}, "123m456p11z4m* {7777s}", "6m", "杠上开花", 2),
    ({"first_turn": "heavenly"}, "123m456p789s11z45s", "6s", "天胡", 2 * 4),
])
def test_tianjin_fan(score_kw, hand, win, fan, points):
    kw = {"self_drawn": True}
    if fan in ("平胡", "杠上开花"):
        kw["kong"] = True
    if "first_turn" in score_kw:
        kw["first_turn"] = score_kw["first_turn"]
    if "indicator" in score_kw:
        r = faces.score(hand, win, ruleset="tianjin", indicator=score_kw["indicator"], **kw)
    else:
        r = majiang.score(hand, win, ruleset="tianjin", **kw)
    assert fan in r, (r.fans, r.points)
    assert r.points == points


def test_every_tianjin_fan_is_tested():
    names = {"素胡", "混钓", "捉五魁", "双混捉五魁", "一条龙", "本混龙", "银杠胡", "金杠胡",
             "平胡", "杠上开花", "天胡"}
    assert {f.chinese for f in rules.get("tianjin").fans} == names


def test_tianjin_benhunlong_needs_the_faces():
    # with * only the number of 混儿 is known, not that they are 4万 / 5万: the ** as 45m
    # make a 一条龙 (4 points, the pair 2z is real), never 本混龙
    r = majiang.score("123m6789m111s2z**", "2z", ruleset="tianjin", self_drawn=True)
    assert "本混龙" not in r and "一条龙" in r and r.points == 4


def test_tianjin_minimum_and_no_plain_joker_win():
    # a 混儿 completing a chow, no pattern: 0 points, below the 2-point minimum
    r = majiang.score("123m456p789s11z4s*", "6s", ruleset="tianjin", self_drawn=True)
    assert r.points == 0 and not r.meets_minimum
    with pytest.raises(RuleError):
        r.settle(0)
    # 混钓 alone: 2 points (TJJ default); off with hun_diao_alone=False
    r = majiang.score("123m456p789s123s*", "7z", ruleset="tianjin", self_drawn=True)
    assert r.points == 2 and r.meets_minimum
    rs = T.build(hun_diao_alone=False)
    r = majiang.score("123m456p789s123s*", "7z", ruleset=rs, self_drawn=True)
    assert not r.meets_minimum
    # min_points 1: the same 0-point hand still fails, a 1-point hand would pass
    assert T.build(min_points=1).options["min_points"] == (1, 1)


def test_tianjin_self_draw_only():
    with pytest.raises(InvalidHandError, match="self_draw_only"):
        majiang.score("123m456p789s11z45s", "6s", ruleset="tianjin", self_drawn=False)
    # given no win context, a hand under a self-draw-only ruleset is read self-drawn
    r = majiang.score("123m456p789s11z45s", "6s", ruleset="tianjin")
    assert r.context.self_drawn


def test_tianjin_kong_payments():
    assert T.kong_payments("exposed", 0) == (3, -1, -1, -1)
    assert T.kong_payments("concealed", 1) == (-2, 6, -2, -2)
    assert T.kong_payments("added", 2) == (-1, -1, 3, -1)
    assert T.kong_payments("silver", 3) == (-6, -6, -6, 18)
    assert T.kong_payments("gold", 1) == (-8, 24, -8, -8)
    with pytest.raises(RuleError):
        T.kong_payments("bronze", 0)


def test_tianjin_options():
    with pytest.raises(RuleError):
        T.build(min_points=3)
    rs = rules.loads('base = "tianjin"\n[options]\nindicator_in_play = true\n')
    assert rs.jokers.copies == 4


def test_tianjin_shanten_ukeire_with_indicator():
    # 7 jokers are wild whatever their kind: two * make 1z2z + ** a pung-and-pair wait
    assert majiang.shanten("123m456p789s1z2z**", ruleset="tianjin", indicator="5s") == 0
    u = majiang.ukeire("123m456p789s1z2z**", ruleset="tianjin", indicator="5s")
    assert "5s6s*" in u and "5s" not in u and "6s" not in u


def test_catalog_lists_both_with_their_gaps():
    rows = {v.ruleset: v for v in rules.catalog.variants() if v.ruleset}
    # 南昌 plays 抄庄 and the 冲关 liability (冲关包赔), 德中德 is lost in the sources.
    # 天津 plays 扣听 (option) and loses only the side bets (no amounts anywhere)
    assert rows["nanchang"].status == "sources incomplete" and not rows["nanchang"].missing
    assert any("冲关包赔" in m for m in rows["nanchang"].interpreted)
    assert not any("抄庄" in m for m in rows["nanchang"].missing)
    assert any("德中德" in m for m in rows["nanchang"].lost)
    assert rows["tianjin"].status == "sources incomplete" and not rows["tianjin"].missing
    assert any("拉庄" in m for m in rows["tianjin"].lost)


def test_simulate_runs():
    df = majiang.simulate("nanchang", 4, n_jobs=1)
    assert len(df) == 4
    df = majiang.simulate("tianjin", 4, n_jobs=1)
    assert len(df) == 4


# ----------------------------------------------------------------- 天津 金杠 / 银杠


def test_tianjin_gold_kong_hands():
    # indicator 5p: 混儿 = 5p x3 + 6p x4.  123m 456m 789s 5p {6666p} (金杠 declared),
    # self-drawn 7s: the pair 5p + 7s is 混钓 2; the four 6p are held (in the kong): 金杠胡
    # 8 [interp.]; not 素胡.  2 + 8 = 10.
    r = faces.score("123m456m789s5p{6666p}", "7s", ruleset="tianjin", indicator="5p",
                    self_drawn=True)
    assert r.points == 10 and "金杠胡" in r and "混钓" in r and "素胡" not in r
    # 银杠 (indicator in play, four 5p): 123m 456m 789s 6p {5555p}, self-drawn 7s:
    # 混钓 2 + 银杠胡 6 = 8
    r = faces.score("123m456m789s6p{5555p}", "7s", ruleset=T.build(indicator_in_play=True),
                    indicator="5p", self_drawn=True)
    assert r.points == 8 and "银杠胡" in r and "素胡" not in r


def test_tianjin_engine_kong_money():
    # TJP: paid at once by each other player: 直杠 1, 暗杠 2, 弯杠 1, 银杠 6, 金杠 8
    from majiang.game.engine.kongs import KongLedger
    led = KongLedger(rules.get("tianjin"), 4)
    outs = [False] * 4
    led.kong(0, "concealed", outs, 0, wild=1)        # 金杠 (the next kind)
    led.kong(1, "concealed", outs, 0, wild=0)        # 银杠 (the turned kind)
    led.kong(2, "concealed", outs, 0)                # 暗杠
    led.kong(3, "exposed", outs, 0, discarder=0)     # 直杠 on A's discard
    led.kong(0, "added", outs, 0)                    # 弯杠
    got = [(it.entry["payee"], it.entry["payer"], it.entry["amount"]) for it in led.items]
    assert got == [(0, 1, 8), (0, 2, 8), (0, 3, 8), (1, 0, 6), (1, 2, 6), (1, 3, 6),
                   (2, 0, 2), (2, 1, 2), (2, 3, 2), (3, 0, 1), (3, 1, 1), (3, 2, 1),
                   (0, 1, 1), (0, 2, 1), (0, 3, 1)]
    assert T.build(gold_kong=False).jokers.kong is False and rules.get("tianjin").jokers.kong


def test_tianjin_gold_kong_in_play():
    # seed 3, hand 118: A (a bot that kongs its 混儿) declares the four next-kind 混儿 and
    # self-draws 金杠胡 alone (8).  金杠 8 from each of three (+24) and the win 8 from each
    # (+24): A +48, the others -16 each.
    st = play_hand("tianjin", [_GoldKonger(), "efficiency", "efficiency", "efficiency"],
                   seed=3, hand=118)
    jk = st.jks[1]
    assert [m["tiles"] for m in st.seats[0].melds if m["tile"] in st.jks] == [[jk] * 4]
    assert [(w["seat"], w["points"]) for w in st.wins] == [(0, 8)]
    assert st.deltas == [48, -16, -16, -16]


def test_tianjin_conservation_and_replay_with_gold_kongs():
    for h in range(30):
        st = play_hand("tianjin", "random", seed=1, hand=h)
        assert sum(st.deltas) == 0
        assert (st.census() == st.expected_census()).all()
    st = play_hand("tianjin", "random", seed=1, hand=43, log=True)
    assert any(m["tile"] in st.jks for s in st.seats for m in s.melds)
    again = replay(to_jsonl(st.events))
    assert summarize(again) == summarize(st)


def test_tianjin_dealer_side_bets_lost():
    # 坐庄 / 拉庄: named as an option, no amounts in any source (docs/rules/tianjin.md §4)
    rs = rules.get("tianjin")
    assert any("坐庄" in x for x in rs.lost) and not any("坐庄" in x for x in rs.missing)


# ---------------------------------------------------------------- 天津 扣听 (option)
# docs/rules/tianjin.md §3: 平胡 1 only after 扣听 or with 杠开; 扣听 (declared and locked
# ready, an option) x4 on top of the points, as 杠上开花 x2 and 天胡 x4.
@pytest.mark.parametrize("hand, win, kw, points", [
    ("123m456p789s11z4m*", "6m", {}, 1 * 4),                       # 平胡 x 扣听
    ("123m456p789s11z45s", "6s", {}, 2 * 4),                       # 素胡 x 扣听
    ("123p46m789s111z99s", "5m", {}, 3 * 2 * 4),                   # 捉五魁 x 素胡 x 扣听
    ("123m456p11z4m* {7777s}", "6m", {"kong": True}, 1 * 2 * 4),   # 平胡 x 杠开 x 扣听
    ("123p46m789s99s {1111z}", "5m", {"kong": True}, 3 * 2 * 2 * 4),
])
def test_tianjin_kou_ting(hand, win, kw, points):
    rs = T.build(kou_ting=True)
    r = majiang.score(hand, win, ruleset=rs, self_drawn=True, declared_ready="concealed", **kw)
    assert r.points == points and "扣听" in r
    assert r.settle(0) == (3 * points, -points, -points, -points)


def test_tianjin_kou_ting_needs_the_declaration_and_the_option():
    # a plain joker hand without 扣听 is no win (below the 2-point minimum, no pattern)
    rs = T.build(kou_ting=True)
    assert not majiang.check_win("123m456p789s11z4m*", "6m", ruleset=rs, self_drawn=True).valid
    assert not majiang.check_win("123m456p789s11z4m*", "6m", ruleset="tianjin", self_drawn=True,
                                 declared_ready="concealed").valid
    assert rules.get("tianjin").options["kou_ting"] is False
    assert not any("扣听" in m for m in rules.get("tianjin").missing)
    with pytest.raises(RuleError, match="kou_ting"):
        T.build(kou_ting="yes")

"""河北 (hebei, the 混儿 game): a test per point item and settlement rule, the worked examples
of docs/rules/hebei.md §5, the options, and hands played by the engine.

Every expected value is worked out by hand from docs/rules/hebei.md §2-§4 (items add; each
other player pays; ×2 to or from the dealer; kongs 1 / 1 / 2 from each, ×2 with the dealer,
only when someone won), never read from the code's output.  Seats: A = 0, B = 1, C = 2,
D = 3; ``seat_wind`` is the winner's seat wind, so the dealer sits at
``(winner - seat_wind) % 4`` (B is the dealer when A has seat wind 3).
"""
from __future__ import annotations

import pytest

import majiang
from majiang import InvalidHandError, RuleError, rules
from majiang.game import play_hand, replay, summarize, to_jsonl
from majiang.rules import hebei as H
from majiang.rules.model import game_model
from majiang.scoring import faces
from majiang.tiles import parse_tile
from _engine_helpers import GoldKonger as _GoldKonger

A_NOT_DEALER = 3        # A's seat wind when B (seat 1) deals
A_DEALER = 0


# ----------------------------------------------------------------- model (§1, §2)
def test_model_facts():
    rs = rules.get("hebei")
    m = game_model("hebei")
    assert m.n_tiles == 136 and m.n_flowers == 0 and m.players == 4 and m.hand_size == 13
    assert "chow_left" not in rs.calls and {"pung", "exposed_kong", "added_kong",
                                           "concealed_kong"} <= set(rs.calls)
    assert rs.forms == ("regular",) and m.self_draw_only
    assert rs.jokers.discard is False and rs.jokers.claim is False
    assert rs.wall_end.kept_tiles(0, 0) == 14 and rs.wall_end.kept_tiles(2, 1) == 14
    assert rs.status == "complete" and rs.section == "§3.13"


@pytest.mark.parametrize("indicator, wild", [("6p", "7p"), ("9m", "1m"), ("4z", "1z"),
                                              ("7z", "6z"), ("5z", "7z")])
def test_joker_is_the_next_kind(indicator, wild):
    # §2: the next kind, 9 -> 1, 北 -> 东, 中 -> 发 -> 白 -> 中; 4 jokers; the turned tile out
    w = game_model("hebei").wall(indicator)
    assert w.joker_kinds == (parse_tile(wild),) and w.jokers == 4
    assert w.counts[parse_tile(indicator)] == 3 and w.size == 135


def test_seven_jokers_option():
    w = game_model(H.build(jokers=7)).wall("6p")
    assert w.joker_kinds == (parse_tile("6p"), parse_tile("7p")) and w.jokers == 3 + 4


# ----------------------------------------------------------------- one test per item (§3)
@pytest.mark.parametrize("hand, win, kw, item, points", [
    # no 混儿, plain shape: 没混儿 2 alone
    ("123m456p789s11z45s", "6s", {}, "没混儿", 2),
    # the pair is the 混儿 and the drawn 7z: 混儿吊 2
    ("123m456p789s123s*", "7z", {}, "混儿吊", 2),
    # 5万 fills 4万-6万, a 混儿 elsewhere (no 素): 捉伍儿 3
    ("46m123p789s11z33s*", "5m", {}, "捉伍儿", 3),
    # 1-9万 with a 混儿 in a pung: 龙 4
    ("123456789m22z5p*", "5p", {}, "龙", 4),
    # a kong replacement completes 4万-*-6万: 杠開 2
    ("123m456p11z4m* {7777s}", "6m", {"kong": True}, "杠開", 2),
])
def test_each_item(hand, win, kw, item, points):
    r = majiang.score(hand, win, ruleset="hebei", self_drawn=True, **kw)
    assert item in r and r.points == points, (r.fans, r.points)


def test_ben_hun_long_needs_the_faces():
    # indicator 3万 -> 混儿 4万; 1-9万 with the held 4万 as itself: 本混儿龙 8 in place of 龙 4
    r = faces.score("123456789m1z [555z]", "1z", ruleset="hebei", indicator="3m",
                    self_drawn=True)
    assert "本混儿龙" in r and "龙" not in [f.chinese for f in r.fans] and r.points == 8


def test_every_item_is_tested():
    assert {f.chinese for f in rules.get("hebei").fans} == {
        "没混儿", "混儿吊", "捉伍儿", "龙", "本混儿龙", "杠開"}


def test_items_add():
    # §3 叠加: no 混儿, 1-9万 completed by 5万 in 4万-6万, pung 白 ... 素 2 + 捉伍儿 3 + 龙 4
    r = majiang.score("12346789m11z222z", "5m", ruleset="hebei", self_drawn=True)
    assert r.points == 2 + 3 + 4


def test_plain_hand_does_not_win():
    # a 混儿 completing a chow, no listed item: no value, no win
    r = majiang.score("123m456p789s11z4s*", "6s", ruleset="hebei", self_drawn=True)
    assert r.points == 0 and not r.meets_minimum
    with pytest.raises(RuleError):
        r.settle(0)


def test_self_draw_only():
    with pytest.raises(InvalidHandError, match="self_draw_only"):
        majiang.score("123m456p789s11z45s", "6s", ruleset="hebei", self_drawn=False)
    # no win context given: self-drawn under a self-draw-only ruleset (the standard reading)
    assert majiang.score("123m456p789s11z45s", "6s", ruleset="hebei").context.self_drawn


# ----------------------------------------------------------------- settlement (§4)
def test_settlement_dealer_doubles():
    # 5 points, winner 0: dealer 1 pays 10, the others 5; a dealer winner gets 10 from each
    assert H.settle_dealer_double(5, 0, None, dealer=1) == (20, -10, -5, -5)
    assert H.settle_dealer_double(5, 0, None, dealer=0) == (30, -10, -10, -10)


def test_stake_multiplies():
    r = majiang.score("123m456p789s11z45s", "6s", ruleset=H.build(stake=3), self_drawn=True)
    assert r.points == 2 * 3


def test_kong_money():
    # B deals: A's concealed kong pays B 2x2, C 2, D 2; an exposed kong of D 1 each, B 2
    kongs = (((8, "concealed", None),), (), (), ((5, "exposed", 0),))
    got = H.kong_money(kongs, winners=(0,), dealer=1)
    by = {(e["payer"], e["payee"]): e["amount"] for e in got}
    assert by == {(1, 0): 4, (2, 0): 2, (3, 0): 2, (0, 3): 1, (1, 3): 2, (2, 3): 1}
    assert H.kong_money(kongs, winners=(), dealer=1) == []      # 荒庄荒杠
    with pytest.raises(RuleError):
        H.kong_money((((1, "golden", None),),), winners=(0,), dealer=0, players=1)


# ----------------------------------------------------------------- worked examples (§5)
def test_example_1_su_zhuo_wu():
    # indicator 6p -> 混儿 7p; A (B deals): pung 东, 46m 123p 789s 99s, draws 5m
    r = faces.score("46m123p789s99s [111z]", "5m", ruleset="hebei", indicator="6p",
                    self_drawn=True, seat_wind=A_NOT_DEALER)
    assert r.points == 5 and "捉伍儿" in r and "没混儿" in r
    assert r.settle(0) == (20, -10, -5, -5)
    for arith, pts in (("double", 6), ("tianjin_x4", 12)):
        r = faces.score("46m123p789s99s [111z]", "5m", ruleset=H.build(arithmetic=arith),
                        indicator="6p", self_drawn=True, seat_wind=A_NOT_DEALER)
        assert r.points == pts
    r = faces.score("46m123p789s99s [111z]", "5m", ruleset=H.build(arithmetic="tianjin_x4"),
                    indicator="6p", self_drawn=True, seat_wind=A_NOT_DEALER)
    assert r.settle(0) == (48, -24, -12, -12)


def test_example_2_dealer_hun_diao_long():
    # indicator 5p -> 混儿 6p; A deals: 1-9s, pung 南, one 6p; draws 8m
    r = faces.score("123456789s6p [222z]", "8m", ruleset="hebei", indicator="5p",
                    self_drawn=True, seat_wind=A_DEALER)
    assert r.points == 6 and "混儿吊" in r and "龙" in r
    assert r.settle(0) == (36, -12, -12, -12)


def test_example_3_kong_money():
    # A (B deals) holds a concealed 9万 kong and wins: B 4, C 2, D 2 -> A +8; drawn: nothing
    got = H.kong_money((((8, "concealed", None),), (), (), ()), winners=(0,), dealer=1)
    assert sorted((e["payer"], e["amount"]) for e in got) == [(1, 4), (2, 2), (3, 2)]
    assert sum(e["amount"] for e in got) == 8


def test_tianjin_x4_needs_a_listed_shape():
    r = majiang.score("123m456p789s123s*", "7z", ruleset=H.build(arithmetic="tianjin_x4"),
                      self_drawn=True)
    assert not r.meets_minimum          # 混儿吊 alone is not enough there


def test_options_checked_and_round_trip():
    with pytest.raises(RuleError):
        H.build(jokers=5)
    with pytest.raises(RuleError):
        H.build(arithmetic="multiply")
    with pytest.raises(RuleError):
        H.build(stake=4)
    rs = rules.loads('base = "hebei"\n[options]\narithmetic = "double"\nstake = 2\n')
    assert rs.options["arithmetic"] == "double" and rs.scoring.base == 2
    back = rules.loads(rules.dumps(rules.get("hebei")))
    assert dict(back.options) == dict(rules.get("hebei").options)


# ----------------------------------------------------------------- the engine
def test_hands_in_the_engine():
    # 300 hands: tiles conserved (checked by the engine), zero-sum, only self-drawn wins
    # of at least one item, kong money only with a win and doubled with the dealer
    wins = 0
    for h in range(300):
        pl = "efficiency" if h % 3 == 0 else "random"
        st = play_hand("hebei", (pl,) * 4, seed=31, hand=h)
        assert sum(st.deltas) == 0
        for w in st.wins:
            assert w["how"] in ("self_draw", "kong_replacement") and w["points"] >= 2
            wins += 1
        kong = [e for e in st.end_checks if e["check"] == "杠分"]
        if not st.wins:
            assert not kong
        for e in kong:
            base = e["amount"] // (2 if st.dealer in (e["payer"], e["payee"]) else 1)
            assert base in (1, 2)
    assert wins >= 20


def test_replay():
    for h in range(6):
        st = play_hand("hebei", "efficiency", seed=8, hand=h, log=True)
        again = replay(to_jsonl(st.events))
        assert summarize(again) == summarize(st)


# ----------------------------------------------------------------- 金杠 (option gold_kong)


def test_gold_kong_money_by_hand():
    # docs/rules/hebei.md §4 (TJJ2): 混儿暗杠 8 from each other player, the dealer x2.
    # B deals; A's concealed kong of the 混儿 7p (kind 15) and someone won: B 16, C 8, D 8
    got = H.kong_money((((15, "concealed", None),), (), (), ()), winners=(2,), dealer=1,
                       wild=(15,))
    assert sorted((e["payer"], e["amount"]) for e in got) == [(1, 16), (2, 8), (3, 8)]
    # the same kong of a kind that is not wild is a plain 暗杠 2 (B 4, C 2, D 2)
    got = H.kong_money((((15, "concealed", None),), (), (), ()), winners=(2,), dealer=1)
    assert sum(e["amount"] for e in got) == 8
    assert H.kong_money((((15, "concealed", None),), (), (), ()), winners=(), dealer=1,
                        wild=(15,)) == []          # 荒庄荒杠


def test_gold_kong_hand_is_not_su():
    # indicator 6p -> 混儿 7p; the four 7p declared as a kong: 46m 123p 789s 99s {7777p},
    # self-drawn 5m: 捉伍儿 3 and, the kong's 混儿 being the player's (TJJ2 素 reads every
    # tile he has), no 没混儿: 3.  The same hand with a kong of 东 instead: 3 + 2 = 5.
    rs = H.build(gold_kong=True)
    r = faces.score("46m123p789s99s{7777p}", "5m", ruleset=rs, indicator="6p", self_drawn=True)
    assert r.points == 3 and "没混儿" not in r
    r = faces.score("46m123p789s99s{1111z}", "5m", ruleset=rs, indicator="6p", self_drawn=True)
    assert r.points == 5 and "没混儿" in r


def test_gold_kong_option():
    assert H.build().jokers.kong is False and H.build(gold_kong=True).jokers.kong is True
    assert H.build(jokers=7, gold_kong=True).jokers.kong is True
    with pytest.raises(RuleError):
        H.build(gold_kong="yes")
    assert not any("金杠" in m for m in H.build().missing)
    rs = rules.loads('base = "hebei"\n[options]\ngold_kong = true\n')
    assert rs.jokers.kong and rules.loads(rules.dumps(rs)).options["gold_kong"] is True


def test_gold_kong_in_play():
    # seed 3, hand 118: seat A (a bot that kongs its 混儿) declares the four 混儿 (8s) as
    # a kong; C is the dealer; B wins 没混儿 2 (nobody else
    # can hold a 混儿: all four are in the kong).  Kong money (TJJ2): A +8 from B and D,
    # +16 from the dealer C = +32.  The win: B +2 from A and D, +4 from C = +8.
    # A: +32 - 2 = +30; B: -8 + 8 = 0; C: -16 - 4 = -20; D: -8 - 2 = -10.
    rs = H.build(gold_kong=True)
    st = play_hand(rs, [_GoldKonger(), "efficiency", "efficiency", "efficiency"], seed=3,
                   hand=118)
    assert st.dealer == 2
    assert [m for m in st.seats[0].melds if m["tile"] in st.jks] == [
        {"kind": "kong", "tile": st.jks[0], "concealed": True, "tiles": [st.jks[0]] * 4,
         "frm": None, "claimed": None}]
    assert [(w["seat"], w["points"]) for w in st.wins] == [(1, 2)]
    assert st.deltas == [30, 0, -20, -10]
    # without the option the same bot is never offered the kong
    st = play_hand("hebei", [_GoldKonger(), "efficiency", "efficiency", "efficiency"], seed=3,
                   hand=118)
    assert not any(m["tile"] in st.jks for s in st.seats for m in s.melds)


def test_gold_kong_conservation_and_replay():
    rs = H.build(gold_kong=True)
    for h in range(30):
        st = play_hand(rs, "random", seed=1, hand=h)
        assert sum(st.deltas) == 0
        assert (st.census() == st.expected_census()).all()
    st = play_hand(rs, "random", seed=1, hand=110, log=True)
    assert any(m["tile"] in st.jks for s in st.seats for m in s.melds)
    again = replay(to_jsonl(st.events), ruleset=rs)
    assert summarize(again) == summarize(st)


# ----------------------------------------------------------------- 跟庄 (§4, option)
def test_gen_zhuang_off_by_default_and_checked():
    assert rules.get("hebei").options["gen_zhuang"] == 0
    with pytest.raises(RuleError):
        H.build(gen_zhuang=3)
    assert "拉庄" in " ".join(rules.get("hebei").lost)


def test_gen_zhuang_by_hand():
    from _engine_helpers import by_check, end_table
    e, w = parse_tile("1z"), parse_tile("3p")
    # dealer B; go-arounds 1 and 2 copied (东, then 3筒), broken in the 3rd: with 1 a go-around
    # B pays A, C, D 2 each (B -6), win or not; with 2 a go-around, 4 each
    pools = ((e, w, 5), (e, w, 6), (e, w, 7), (e, w, 8))
    t = end_table(end="wall", opening=pools, dealer=1, melds=(0,) * 4)
    assert by_check(H.end_settlement(H.build(gen_zhuang=1), t)) == {
        "跟庄": [(1, 0, 2), (1, 2, 2), (1, 3, 2)]}
    assert by_check(H.end_settlement(H.build(gen_zhuang=2), t)) == {
        "跟庄": [(1, 0, 4), (1, 2, 4), (1, 3, 4)]}
    assert H.end_settlement(H.build(), t) == []                     # off
    broken = end_table(end="wall", opening=((e,), (e,), (w,), (e,)), dealer=1)
    assert H.end_settlement(H.build(gen_zhuang=2), broken) == []


def _copied_rounds(events, dealer):
    """Go-arounds from the first in which all four discarded the same kind and nothing was
    claimed, read from the log (a call ends the run)."""
    rounds, cur = 0, []
    for e in events:
        if e["e"] == "call" or (e["e"] == "kong" and e["kind"] != "concealed" and not cur):
            break
        if e["e"] == "discard":
            cur.append((e["seat"], e["tile"]))
            if len(cur) == 4:
                if [s for s, _ in cur] != [(dealer + i) % 4 for i in range(4)] or \
                        len({t for _, t in cur}) != 1:
                    break
                rounds, cur = rounds + 1, []
    return rounds


def test_gen_zhuang_in_play():
    # seeded hands in which the first go-around is copied, one won and one drawn: the
    # dealer pays 2 a copied go-around (read from the log) to each other player
    rs = H.build(gen_zhuang=2)
    for h, end in ((993, "win"), (1194, "wall")):
        st = play_hand(rs, "efficiency", seed=5, hand=h, log=True)
        r = _copied_rounds(st.events, st.dealer)
        assert st.end_reason == end and r >= 1 and sum(st.deltas) == 0
        got = sorted((c["payer"], c["payee"], c["amount"]) for c in st.end_checks
                     if c["check"] == "跟庄")
        assert got == sorted((st.dealer, q, 2 * r) for q in range(4) if q != st.dealer)
        assert summarize(replay(to_jsonl(st.events))) == summarize(st)
    for h in range(30):                                  # zero-sum with the option on
        assert sum(play_hand(rs, "efficiency", seed=5, hand=h).deltas) == 0

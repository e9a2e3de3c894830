"""海南 推倒胡 / 明摸 / 明打 (hainan_tuidao): a test per payment rule, the worked examples of
docs/rules/hainan_tuidao.md §4, the options, and hands played by the engine.

Expected values are worked out by hand from docs/rules/hainan_tuidao.md §2-§3 (推倒胡: each other
player 1, the discarder 1 more; 明摸 4 / 8; 明打 8 / 16), never read from the code's output.
Seats A = 0, B = 1, C = 2, D = 3; B is the dealer when A's seat wind is 3.
"""
from __future__ import annotations

import pytest

import majiang
from majiang import InvalidHandError, RuleError, rules
from majiang.game import play_hand, replay, summarize, to_jsonl
from majiang.rules import hainan_tuidao as T

A_NOT_DEALER = 3
# A's hand: 123万 55万 456筒 789条 46条, a 2-5-8 pair (a 番 source) and closed (门清)
HAND, WIN = "123m55m456p789s46s", "5s"


def _score(rs="hainan_tuidao", **kw):
    return majiang.score(HAND, WIN, ruleset=rs, seat_wind=A_NOT_DEALER, **kw)


def test_model_is_hainan_with_its_own_settlement():
    rs, hn = rules.get("hainan_tuidao"), rules.get("hainan")
    assert (rs.tile_set, rs.calls, rs.forms, rs.constraints) == \
        (hn.tile_set, hn.calls, hn.forms, hn.constraints)
    assert rs.n_tiles == 144 and rs.flowers == 8
    assert rs.section == "§3.21" and rs.status == "complete"
    assert "花上添花" not in {f.chinese for f in rs.fans}        # 花砸 counts no 番


# ----------------------------------------------------------------- payments (§2)
def test_flat_unit_whatever_the_hand():
    # 清一色 七对 would be x2 x2 on the 海南 scale; flat it is 1
    r = majiang.score("1122334455667m", "7m", ruleset="hainan_tuidao")
    assert r.points == 1


def test_tuidao_discard_everyone_pays_discarder_one_more():
    assert T.settle_tuidao(1, 0, 2, dealer=1) == (4, -1, -2, -1)


def test_tuidao_self_draw_each_pays_one():
    r = _score(self_drawn=True)
    assert r.settle(0) == (3, -1, -1, -1)


def test_discard_needs_a_fan_source():
    # a claimed pung of 6条, pair 东 (not A's wind): no 番 source, no discard win
    with pytest.raises(InvalidHandError, match="discard_needs_pattern"):
        majiang.score("123m456p789s1z [666s]", "1z", ruleset="hainan_tuidao",
                      seat_wind=A_NOT_DEALER)
    r = majiang.score("123m456p789s1z [666s]", "1z", ruleset="hainan_tuidao",
                      seat_wind=A_NOT_DEALER, self_drawn=True)
    assert r.settle(0) == (3, -1, -1, -1)


def test_mingmo():
    assert T.mingmo(0, dealer=1) == (16, -8, -4, -4)
    assert T.mingmo(1, dealer=1) == (-8, 24, -8, -8)        # a dealer winner: 8 from each


def test_mingda():
    assert T.mingda(0, 2, dealer=1) == (-8, 0, 8, 0)
    assert T.mingda(0, 2, dealer=0) == (-16, 0, 16, 0)
    assert T.mingda(3, 1, dealer=1) == (0, 16, 0, -16)      # the dealer wins
    with pytest.raises(RuleError):
        T.mingda(1, 1, dealer=0)
    with pytest.raises(RuleError):
        T.mingmo(4, dealer=0)


# ----------------------------------------------------------------- worked examples (§4)
def test_example_1_tuidao_on_a_discard():
    assert _score().settle(0, 2) == (4, -1, -2, -1)
    lit = _score(rules.BUILDERS["hainan_tuidao"](payment="discarder"))
    assert lit.settle(0, 2) == (1, 0, -1, 0)
    full = _score(rules.BUILDERS["hainan_tuidao"](unit="hainan"))
    assert full.points == 1 and full.settle(0, 2) == (5, -2, -2, -1)


def test_example_2_mingmo():
    assert T.mingmo(0, dealer=1) == (16, -8, -4, -4)


def test_example_3_mingda():
    assert T.mingda(0, 2, dealer=1)[0] == -8
    assert T.mingda(0, 2, dealer=0)[0] == -16


def test_options_checked_and_round_trip():
    for kw in ({"payment": "all"}, {"unit": "double"}, {"cap": 9}, {"you_fan": 1}):
        with pytest.raises(RuleError):
            T.build(**kw)
    back = rules.loads(rules.dumps(rules.get("hainan_tuidao")))
    assert dict(back.options) == dict(rules.get("hainan_tuidao").options)
    rs = rules.loads('base = "hainan_tuidao"\n[options]\nunit = "hainan"\n')
    assert rs.settlement_params["unit"] == "hainan"


# ----------------------------------------------------------------- the engine
def test_hands_in_the_engine():
    # 200 hands: zero-sum; 推倒胡: a discard win costs 4 in all (the discarder 2), a self-draw 3;
    # a winner declared with the hand shown self-draws (明摸): 4 from each non-dealer, 8 from
    # the dealer (24 for a dealer winner, else 16); a declared discarder deals in (明打): he
    # alone pays 8, 16 with the dealer (docs/rules/hainan_tuidao.md §2)
    wins = mingmo = 0
    for h in range(200):
        pl = "efficiency" if h % 2 == 0 else "random"
        st = play_hand("hainan_tuidao", (pl,) * 4, seed=51, hand=h)
        assert sum(st.deltas) == 0
        for w in st.wins:
            wins += 1
            d, p, q = w["deltas"], w["seat"], w["discarder"]
            # 包牌 (hainan's liability cases): one seat pays the winner's whole gain
            liable = w["liability"][0][1] if w["liability"] else None
            if liable is not None:
                assert d[liable] == -d[p] and all(d[x] == 0 for x in range(4)
                                                  if x not in (p, liable))
            if w["declared_ready"]:
                assert w["declared_ready"] == "open" and q is None   # self-draw only
                mingmo += 1
                assert d[p] == (24 if p == st.dealer else 16)
                for x in range(4):
                    if x != p and liable is None:
                        assert d[x] == -(8 if st.dealer in (x, p) else 4)
            elif w["discarder_ready"]:
                assert d[q] == -(16 if st.dealer in (p, q) else 8) and d[p] == -d[q]
            else:
                assert d[p] == (3 if q is None else 4)
                if q is not None and liable is None:
                    assert d[q] == -2
    assert wins >= 60 and mingmo >= 10


def test_replay():
    for h in range(6):
        st = play_hand("hainan_tuidao", "efficiency", seed=9, hand=h, log=True)
        again = replay(to_jsonl(st.events))
        assert summarize(again) == summarize(st)

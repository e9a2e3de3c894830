"""云南 (yunnan): a test per hand value and payment rule, the worked examples of
docs/rules/yunnan.md §5, the options, and hands played by the engine.

Expected values are worked out by hand from docs/rules/yunnan.md §3-§4 (番 add, 2^番 capped at 3
番, self-draw paid by all three, a discard by the discarder per winner; kongs 2 / 2 / 1; 查大叫
at a drawn end), never read from the code's output.  Seats A = 0, B = 1, C = 2, D = 3.
"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

import majiang
from majiang import InvalidHandError, RuleError, rules
from majiang.game import play_hand, replay, summarize, to_jsonl
from majiang.game.engine import end_checks
from majiang.rules import yunnan as Y
from majiang.rules.model import game_model
from majiang.tiles import as_counts


def _score(hand, win, **kw):
    return majiang.score(hand, win, ruleset="yunnan", **kw)


# ----------------------------------------------------------------- model (§1)
def test_model_facts():
    rs = rules.get("yunnan")
    m = game_model("yunnan")
    assert m.n_tiles == 136 and m.n_flowers == 0 and m.players == 4 and m.hand_size == 13
    assert "chow_left" not in rs.calls
    assert rs.winners == "multiple" and rs.pass_lock == "all"
    assert rs.end_checks == ("查大叫",) and rs.wall_end.kept_tiles(3, 3) == 0
    kp = rs.kong_payments
    assert (kp.exposed, kp.exposed_each, kp.concealed, kp.added, kp.when) == \
        (2, 0, 2, 1, "with_win")
    assert rs.status == "complete" and rs.section == "§3.26"


# ----------------------------------------------------------------- one test per value (§3)
@pytest.mark.parametrize("hand, win, kw, fan, points", [
    ("[111m] 222p333s44z66m", "6m", {}, "对对胡", 2),                       # 1 番
    ("1122m3344p5566s7z", "7z", {}, "七对", 4),                            # 2 番
    ("1111m3344p55s66s7z", "7z", {}, "龙七对", 8),                         # 3 番
    ("1111m3333p55s66s7z", "7z", {}, "双龙七对", 8),                       # 4 番, cap 3
    ("[111m] 234m567m88m99m", "9m", {}, "清一色", 4),                      # 2 番
    ("[111m] 234m567m11z99m", "9m", {}, "混一色", 2),                      # 1 番
    ("123m456p789s11z45s", "6s", {}, "门清", 2),                           # 1 番
    ("123m11z46m [999p] {7777s}", "5m", {"self_drawn": True, "kong": True}, "杠上花", 2),
    ("46p123m11z [999m] {8888s}", "5p", {"self_drawn": True, "kong": True}, "杠上五梅花", 4),
    ("123m456p789s4s [111z]", "4s", {"kong": True}, "抢杠胡", 1 * 3),    # 0 番, x3
])
def test_each_value(hand, win, kw, fan, points):
    r = _score(hand, win, **kw)
    assert fan in r and r.points == points, (r.fans, r.points)


def test_every_value_is_tested():
    assert {f.chinese for f in rules.get("yunnan").fans} == {
        "对对胡", "七对", "龙七对", "双龙七对", "清一色", "混一色", "门清", "杠上花",
        "杠上五梅花", "抢杠胡", "杠上炮"}


def test_five_plum_replaces_kong_flower():
    r = _score("46p123m11z [999m] {8888s}", "5p", self_drawn=True, kong=True)
    assert "杠上花" not in [f.chinese for f in r.fans]


def test_cap_and_no_cap():
    # 双龙七对 4 番: capped at 3 -> 8; without a cap 16; 清一色 七对 = 4 番 -> 8 capped
    assert _score("1111m3333p55s66s7z", "7z").points == 8
    r = majiang.score("1111m3333p55s66s7z", "7z", ruleset=Y.build(cap=None))
    assert r.points == 16
    assert _score("1122m3344m5566m7m", "7m").points == 8


def test_robbing_plus_one_option():
    r = majiang.score("123m456p789s4s [111z]", "4s", ruleset=Y.build(robbing="+1"),
                      kong=True)
    assert r.points == 2


def test_pinghu_only_by_self_draw():
    # a 0-番 hand (a claimed pung, no pattern) on a discard is no win; self-drawn it is 1
    with pytest.raises(InvalidHandError, match="pinghu_self_draw"):
        _score("123m456p789s1z [222m]", "1z")
    assert _score("123m456p789s1z [222m]", "1z", self_drawn=True).points == 1


# ----------------------------------------------------------------- payments (§4)
def test_self_draw_and_discard_payments():
    r = _score("1122m3344p5566s7z", "7z", self_drawn=True)
    assert r.settle(0) == (12, -4, -4, -4)
    r = _score("1122m3344p5566s7z", "7z")
    assert r.settle(0, 2) == (4, 0, -4, 0)


# ----------------------------------------------------------------- worked examples (§5)
def test_example_1_pinghu_self_draw():
    r = _score("123m456p789s1z [222m]", "1z", self_drawn=True)
    assert r.settle(0) == (3, -1, -1, -1)


def test_example_2_flush_all_pungs_on_a_discard():
    r = _score("55599p33p [222p] [777p]", "3p")
    assert r.total == 3 and r.points == 8
    assert r.settle(0, 1) == (8, -8, 0, 0)


def test_example_3_five_plum_with_kong_money():
    r = _score("46p123m11z [999m] {8888s}", "5p", self_drawn=True, kong=True)
    assert r.points == 4
    hand = r.settle(0)
    kong = [2 * 3, -2, -2, -2]               # the concealed kong: 2 from each
    assert [a + b for a, b in zip(hand, kong)] == [18, -6, -6, -6]
    assert rules.get("yunnan").kong_payments.concealed == 2


def _wall_state(hands, melds):
    seats = [SimpleNamespace(phys=as_counts(t), melds=melds.get(q, []), discards=[],
                             won_tiles=[]) for q, t in enumerate(hands)]
    return SimpleNamespace(rs=rules.get("yunnan"), wins=[], seats=seats, n=4, dealer=1,
                           prevalent=0, end_reason="wall", deltas=[0] * 4, wall_left=0,
                           head=0, tail=-1, wall=np.zeros(0, dtype=np.int16))


def test_example_4_chadajiao():
    # A ready on 七对 (7z: 2 番 -> 4); B ready on a 平和 wait (4s, a claimed 南 pung: 1);
    # C and D scattered over three suits, not ready (no 花猪 in 云南): each pays A 4, B 1
    pung = {"kind": "pung", "tile": 28, "concealed": False, "tiles": [28] * 3, "frm": 3}
    st = _wall_state(["1122m3344p5566s7z", "123m456p789s4s", "13579m13579p258p",
                      "4468m4468s13579s"], {1: [pung]})
    got = sorted((c["check"], c["payer"], c["payee"], c["amount"]) for c in end_checks(st))
    assert got == [("查大叫", 2, 0, 4), ("查大叫", 2, 1, 1), ("查大叫", 3, 0, 4),
                   ("查大叫", 3, 1, 1)]
    assert st.deltas == [8, 2, -5, -5]


def test_example_5_several_winners():
    d = _score("[111m] 222p333s44z66m", "6m")
    a = _score("1122m3344p5566s6m", "6m")
    assert (d.points, a.points) == (2, 4)
    total = [x + y for x, y in zip(d.settle(3, 2), a.settle(0, 2))]
    assert total == [4, 0, -6, 2]


def test_options_checked_and_round_trip():
    with pytest.raises(RuleError):
        Y.build(cap=2)
    with pytest.raises(RuleError):
        Y.build(robbing="x2")
    back = rules.loads(rules.dumps(rules.get("yunnan")))
    assert dict(back.options) == dict(rules.get("yunnan").options)


# ----------------------------------------------------------------- the engine
def test_hands_in_the_engine():
    # 300 hands: zero-sum; discard wins only with a pattern; kong money only with a win;
    # at a drawn end only 查大叫, paid by not-ready players to ready ones
    wins = walls = 0
    for h in range(300):
        pl = "efficiency" if h % 2 == 0 else "random"
        st = play_hand("yunnan", (pl,) * 4, seed=41, hand=h)
        assert sum(st.deltas) == 0
        for w in st.wins:
            wins += 1
            if w["how"] == "discard":
                assert w["points"] >= 2
        if not st.wins:
            assert {c["check"] for c in st.end_checks} <= {"查大叫"}
            walls += bool(st.end_checks)
    assert wins >= 100 and walls >= 1


def test_replay():
    for h in range(6):
        st = play_hand("yunnan", "efficiency", seed=9, hand=h, log=True)
        again = replay(to_jsonl(st.events))
        assert summarize(again) == summarize(st)

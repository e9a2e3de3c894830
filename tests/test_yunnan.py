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
from majiang.rules import fans as F
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
        "杠上五梅花", "抢杠胡", "杠上炮", "十风"}


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


# ----------------------------------------------------------------- 最后四张 (the engine)
class _NeverWins:
    """The efficiency bot, except that it passes every win it is offered."""

    def __init__(self):
        from majiang.game.players import EfficiencyPlayer
        self.bot = EfficiencyPlayer()

    def discard(self, view):
        return self.bot.discard(view)

    def declare(self, view, options):
        c = self.bot.declare(view, [o for o in options if o != ("win",)])
        return None if c == ("win",) else c

    def claim(self, view, options):
        c = self.bot.claim(view, [o for o in options if o != ("win",)])
        return None if c == ("win",) else c


# 136 tiles, 13 each and the dealer's 14th dealt: 83 tiles to draw (no tiles kept); the
# fourth from last is the 80th draw (docs/rules/yunnan.md §1: "最后四张必须能胡必须胡")
_LAST_FOUR_FROM = 136 - 4 * 13 - 1 - 3


def test_last_four_tiles_win_is_taken():
    """Players who pass every win they are offered still win once the fourth tile from
    the end has been drawn (on a draw or a discard): the engine takes the win for them;
    before that they never win, and without the rule (must_win_last=0) never at all."""
    import dataclasses
    rs = rules.get("yunnan")
    assert rs.must_win_last == 4
    off = dataclasses.replace(rs, must_win_last=0)
    late = 0
    for h in range(24):
        st = play_hand(rs, [_NeverWins() for _ in range(4)], seed=5, hand=h, log=True)
        assert sum(st.deltas) == 0
        draws = 0
        for e in st.events:
            if e["e"] == "draw":
                draws += 1
            elif e["e"] == "win":
                assert draws >= _LAST_FOUR_FROM, (h, draws)
                late += 1
            elif e["e"] in ("declare", "claim"):
                assert ["win"] not in e["options"] or draws < _LAST_FOUR_FROM
        again = replay(to_jsonl(st.events))
        assert summarize(again) == summarize(st)
        st0 = play_hand(off, [_NeverWins() for _ in range(4)], seed=5, hand=h)
        assert not st0.wins
    assert late >= 3


def test_last_four_tiles_bots_always_win():
    """The built-in bots take every win they may, so the rule never overrides them: a
    bot's hands under the rule and without it are the same, move for move."""
    import dataclasses
    off = dataclasses.replace(rules.get("yunnan"), must_win_last=0)
    for h in range(12):
        pl = ("random",) * 4 if h % 2 else ("efficiency",) * 4
        a = play_hand("yunnan", pl, seed=8, hand=h, log=True)
        b = play_hand(off, pl, seed=8, hand=h, log=True)
        assert [e for e in a.events if e["e"] != "header"] == \
            [e for e in b.events if e["e"] != "header"], h


# ----------------------------------------------------------------- 十风 (the engine)
class _Order:
    """Discards the highest kind it holds (honours first) or the lowest; never claims,
    never declares a win or a kong."""

    def __init__(self, highest):
        self.highest = highest

    def discard(self, view):
        held = [k for k in range(34) if view.concealed[k]]
        return held[-1] if self.highest else held[0]

    def claim(self, view, options):
        return None

    def declare(self, view, options):
        return None


def _shifeng_wall(first):
    """A physical wall dealing the dealer (seat 0, the first 14 tiles) ``first``; the
    rest in a fixed shuffled order."""
    import random
    rest = [k for k in range(34) for _ in range(4)]
    for k in first:
        rest.remove(k)
    random.Random(3).shuffle(rest)
    return list(first) + rest


_TWELVE_HONOURS = [27, 27, 27, 28, 28, 28, 29, 29, 30, 30, 31, 32]


def test_shifeng_fan_on_the_discards():
    # docs/rules/yunnan.md §3: the first ten discards all honours, no call or kong
    ok = SimpleNamespace(discards=(27, 28, 29, 30, 31, 32, 33, 27, 28, 29), melds=0)
    assert F.ten_honour_discards(ok) == 1
    assert F.ten_honour_discards(SimpleNamespace(discards=ok.discards[:9], melds=0)) == 0
    assert F.ten_honour_discards(SimpleNamespace(discards=ok.discards, melds=1)) == 0
    late = SimpleNamespace(discards=(0,) + ok.discards, melds=0)     # a suited tile first
    assert F.ten_honour_discards(late) == 0
    assert "十风" not in _score("123m456p789s11z45s", "6s")           # no discards: no 十风


def test_shifeng_wins_on_the_tenth_honour_discard():
    """The dealer holds twelve honours and discards honours first: his tenth discard wins
    十风 at once — 3 番, 2^3 = 8 from each other player (a self-draw's payment), +24 —
    and nobody may claim that tile.  Discarding a suited tile first loses it."""
    wall = _shifeng_wall(_TWELVE_HONOURS + [0, 1])
    pl = [_Order(True)] + [_Order(False) for _ in range(3)]
    st = play_hand("yunnan", pl, seed=0, hand=0, wall=wall, dealer=0, log=True)
    (w,) = st.wins
    assert (w["seat"], w["how"], w["fans"]) == (0, "discard_win", [("十风", 1)])
    assert w["deltas"] == [24, -8, -8, -8] and list(st.deltas) == [24, -8, -8, -8]
    mine = [e["tile"] for e in st.events if e["e"] == "discard" and e["seat"] == 0]
    assert len(mine) == 10 and all(t >= 27 for t in mine) and w["tile"] == mine[-1]
    assert st.events[-1]["e"] == "end" and st.end_reason == "win"
    after = st.events[[i for i, e in enumerate(st.events) if e["e"] == "discard"][-1] + 1:]
    assert not any(e["e"] == "claim" for e in after)
    again = replay(to_jsonl(st.events))
    assert summarize(again) == summarize(st)
    # the same wall, the dealer discarding his lowest tile (a suited one) first: no 十风
    st = play_hand("yunnan", [_Order(False)] * 4, seed=0, hand=0, wall=wall, dealer=0)
    assert not any(x["how"] == "discard_win" for x in st.wins)


def test_shifeng_in_both_loops():
    """The compiled loop does not stop for a win on one's own discards: a compiled hand
    where one may have happened (an over-estimate from the final pools and claims) is
    played again by the Python loop, so both loops settle every hand alike."""
    from majiang.game.engine import fast_eligible
    from majiang.game.engine.facts import discard_win, discard_win_possible
    m = game_model("yunnan")
    assert discard_win(m) and not discard_win(game_model("sichuan"))
    assert fast_eligible(m, ("random",) * 4)
    wall = _shifeng_wall(_TWELVE_HONOURS + [0, 1])
    pl = [_Order(True)] + [_Order(False) for _ in range(3)]
    st = play_hand("yunnan", pl, seed=0, hand=0, wall=wall, dealer=0)
    assert st.wins[0]["how"] == "discard_win" and discard_win_possible(m, st.seats)
    st = play_hand("yunnan", [_Order(False)] * 4, seed=0, hand=0, wall=wall, dealer=0)
    assert not discard_win_possible(m, st.seats)
    for h in range(20):
        pl = ("random",) * 4 if h % 2 else ("efficiency",) * 4
        a = play_hand("yunnan", pl, seed=8, hand=h)
        b = play_hand("yunnan", pl, seed=8, hand=h, engine="python")
        assert list(a.deltas) == list(b.deltas) and a.wins == b.wins or \
            [w["deltas"] for w in a.wins] == [w["deltas"] for w in b.wins], h

"""开杠 (majiang.game.engine.open_kong, ``Ruleset.kong_reveal``; 长沙 杠 vs 补张,
docs/rules/changsha.md §1): a ready konger may turn two tiles instead of the one
replacement.  Scripted walls worked by hand from the reading (each 大胡 6 from each
player on a self-draw, 6 from the discarder on a discard; 杠上开花 and 杠上炮 are 大胡;
both turned tiles winning: counted twice), seeded hands of both loops, the locked konger,
replay and the env's mask."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from majiang import rules
from majiang.game import players as P
from majiang.game.seat_view import SeatView
from majiang.game.engine import play_hand
from majiang.game.logs import replay, summarize
from majiang.rules import changsha as C
from majiang.rules.model import game_model
from majiang.tiles import parse_tiles

from _engine_helpers import Script, build_test_wall, check_settlement, live_decisions

# 起手胡 and 扎鸟 off: the payments below are the wins' alone
RS = C.build(start_wins=False, birds=0)

# seat 0 (the dealer) konges 1111m at once; the hand left, 234m 567p 789s 5s, waits on
# 5s (a 2-5-8 pair: a 小胡 shape); seats 1-3 are not ready and hold no 1m
_KONGER = "1111m234m567p789s5s"
_TWO_WAITS = "1111m234m567p78s55s"            # after the kong: waits 6s and 9s
_SEAT1_9P = "234p456m789m78p55s"               # waits 6p / 9p with a 5s pair
_OTHERS = ("3467m12368p1346s", "2689m1234p23469s", "3569m2345p12467s")


class Konger(Script):
    """A scripted seat that takes the 开杠 (True) or the 补张 (False) when asked."""

    def __init__(self, open_it=True, **kw):
        super().__init__(**kw)
        self.open_it = open_it
        self.asked = []

    def open_kong(self, view, kind, waits):
        self.asked.append((kind, list(waits)))
        return self.open_it


def _play(hands, tail, konger=None, log=False):
    wall = build_test_wall("changsha", hands, tail=tail)
    pol = [konger or Konger(declares=("concealed_kong",))] + [Script() for _ in range(3)]
    st = play_hand(RS, pol, wall=wall, hand=0, log=log, engine="python")
    check_settlement(st)
    return st, pol[0]


def test_the_first_turned_tile_wins():
    # turned 5s, 9p: 5s completes 234m 567p 789s 55s + the kong: 杠上开花 (a 大胡: 6 from each)
    st, k = _play((_KONGER,) + _OTHERS, "5s9p")
    assert k.asked == [(0, [parse_tiles("5s")[0]])]
    assert [(w["seat"], w["how"], w["fans"]) for w in st.wins] == [
        (0, "kong_replacement", [("杠上开花", 1)])]
    assert list(st.deltas) == [18, -6, -6, -6]


def test_the_second_turned_tile_wins():
    st, _ = _play((_KONGER,) + _OTHERS, "9p5s")
    assert [w["tile"] for w in st.wins] == parse_tiles("5s")
    assert list(st.deltas) == [18, -6, -6, -6]
    assert st.seats[0].discards == parse_tiles("9p")      # the other turned tile


def test_both_turned_tiles_win_twice():
    # 234m 567p 78s 55s waits 6s and 9s: both turned, 杠上开花 counted twice (12 from each)
    st, _ = _play((_TWO_WAITS,) + _OTHERS, "6s9s")
    assert [(w["seat"], w["tile"]) for w in st.wins] == [(0, t) for t in parse_tiles("6s9s")]
    assert list(st.deltas) == [36, -12, -12, -12]


def test_another_seat_wins_on_a_turned_tile():
    # neither 9p nor 3m completes the konger's hand; seat 1 wins on 9p: 杠上炮 (a 大胡),
    # 6 from the konger alone; the tile leaves the konger's discards
    others = (_SEAT1_9P,) + _OTHERS[1:]
    st, _ = _play((_KONGER,) + others, "9p3m")
    assert [(w["seat"], w["how"], w["discarder"], w["fans"]) for w in st.wins] == [
        (1, "discard", 0, [("杠上炮", 1)])]
    assert list(st.deltas) == [-6, 6, 0, 0]
    assert st.seats[0].discards == parse_tiles("3m")


def test_nobody_wins_the_tiles_are_discards_and_the_konger_is_locked():
    st, k = _play((_KONGER,) + _OTHERS, "9p3m", log=True)
    ev = st.events
    i = next(j for j, e in enumerate(ev) if e["e"] == "kong_reveal")
    assert ev[i]["tiles"] == parse_tiles("9p3m")
    assert ev[i + 1]["e"] == "draw" and ev[i + 1]["seat"] == 1      # play passes to 下家
    assert st.seats[0].locked
    later = [e for e in ev[i:] if e.get("seat") == 0]
    assert all(e.get("forced") for e in later if e["e"] == "discard")
    assert not [e for e in later if e["e"] in ("call", "kong", "declare")]
    assert st.seats[0].discards[:2] == parse_tiles("9p3m")


def test_bu_zhang_is_one_replacement():
    st, k = _play((_KONGER,) + _OTHERS, "5s9p", konger=Konger(open_it=False,
                                                                 declares=("concealed_kong",)))
    # the 补张 draws 5s alone: the same 杠上开花, paid once; no tile turned
    assert k.asked and list(st.deltas) == [18, -6, -6, -6]
    assert not st.seats[0].locked


def test_a_policy_without_the_method_takes_the_bu_zhang():
    class Plain(Script):
        pass
    st, _ = _play((_TWO_WAITS,) + _OTHERS, "6s9s", konger=Plain(declares=("concealed_kong",)))
    assert len(st.wins) == 1 and list(st.deltas) == [18, -6, -6, -6]


def test_replay_of_a_hand_with_a_kong_reveal():
    for tail, others in (("9p3m", (_SEAT1_9P,) + _OTHERS[1:]), ("6s9s", _OTHERS)):
        hands = ((_KONGER if tail == "9p3m" else _TWO_WAITS),) + others
        st, _ = _play(hands, tail, log=True)
        kinds = [e["e"] for e in st.events]
        assert "open_kong" in kinds and "kong_reveal" in kinds
        again = replay(st.events, ruleset=RS)
        assert summarize(again) == summarize(st) and list(again.deltas) == list(st.deltas)


def test_the_efficiency_bots_chance():
    # two turned tiles, 3 live copies of the wait in 94 unseen: 1 - (91 * 90) / (94 * 93)
    class View:
        kong_reveal = 2
        model = game_model(RS)
        own_melds = ()

        def play_counts(self):
            c = np.zeros(34, dtype=np.uint8)
            for t in parse_tiles("234m567p789s5s"):
                c[t] += 1
            c[0] = 0
            return c, 0

        def visible_counts(self):
            v = np.zeros(34, dtype=np.uint8)
            v[0] = 4                              # the four 1m of the kong, as melds seen
            return v

        unseen_counts = SeatView.unseen_counts    # the real count from the two above

    got = P.open_kong_chance(View(), parse_tiles("5s"))
    assert got == pytest.approx(1 - (91 * 90) / (94 * 93))
    assert got < P.OPEN_KONG_CHANCE and not P.EfficiencyPlayer().open_kong(
        View(), 0, parse_tiles("5s"))


def test_a_seeded_hand_opens_and_locks_the_konger():
    # seed 1, hand 37 (efficiency bots, default rules): seat 2 opens a kong, nobody wins
    # the tiles, seat 2 stays locked (every later discard forced) and wins on a discard
    st = play_hand("changsha", "efficiency", seed=1, hand=37, log=True, engine="python")
    check_settlement(st)
    ev = st.events
    i = next(j for j, e in enumerate(ev) if e["e"] == "kong_reveal")
    assert ev[i]["seat"] == 2 and st.seats[2].locked
    later = [e for e in ev[i + 1:] if e.get("seat") == 2]
    assert later and all(e.get("forced") for e in later if e["e"] == "discard")
    assert not [e for e in later if e["e"] in ("call", "kong")]
    fast = play_hand("changsha", "efficiency", seed=1, hand=37, engine="compiled")
    assert list(fast.deltas) == list(st.deltas) and summarize(fast) == summarize(st)


def test_both_loops_agree_and_conserve_when_every_ready_konger_opens(monkeypatch):
    monkeypatch.setattr(P, "OPEN_KONG_CHANCE", 0.0)
    rs = C.build()                                     # a fresh object: fresh loop flags
    opened = 0
    for players in ("efficiency", "random"):
        for i in range(30):
            a = play_hand(rs, players, seed=5, hand=i, engine="compiled")
            b = play_hand(rs, players, seed=5, hand=i, engine="python", log=True)
            check_settlement(a)
            check_settlement(b)
            assert list(a.deltas) == list(b.deltas) and summarize(a) == summarize(b)
            assert a.end_checks == b.end_checks
            opened += any(e["e"] == "kong_reveal" for e in b.events)
    assert opened >= 2


def test_any_ruleset_may_set_it():
    # the flag is generic: 四川 (血战, kong payments) with it plays, conserves and replays
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setattr(P, "OPEN_KONG_CHANCE", 0.0)
    try:
        rs = dataclasses.replace(rules.get("sichuan"), kong_reveal=2)
        opened = 0
        for i in range(30):
            b = play_hand(rs, "efficiency", seed=9, hand=i, engine="python", log=True)
            check_settlement(b)
            opened += any(e["e"] == "kong_reveal" for e in b.events)
            a = play_hand(rs, "efficiency", seed=9, hand=i, engine="compiled")
            assert list(a.deltas) == list(b.deltas)
        assert opened >= 1
    finally:
        monkeypatch.undo()
    assert rules.get("changsha").kong_reveal == 2
    assert rules.get("changsha_zhuanzhuan").kong_reveal == 0
    assert rules.get("sichuan").kong_reveal == 0
    with pytest.raises(rules.RuleError, match="kong_reveal"):
        dataclasses.replace(rules.get("changsha"), kong_reveal=9)


def test_the_env_asks_open_kong_with_its_own_mask():
    pytest.importorskip("pettingzoo")
    from majiang.env import OPEN_KONG, PASS, env

    class Opener(P.EfficiencyPlayer):
        def open_kong(self, view, kind, waits):
            return True

    asked = 0
    for seed in (10, 13):
        e = env("changsha")
        u = e.unwrapped
        e.reset(seed=seed)
        for agent, obs in live_decisions(e):
            o, m = obs["observation"], obs["action_mask"]
            if o[13, 0] == 7:
                asked += 1
                assert np.flatnonzero(m).tolist() == [PASS, OPEN_KONG]
                ask = [x for x in u.hand_state.events if x["e"] == "open_kong"]
                assert ask == [] and np.flatnonzero(o[10]).tolist()
                e.step(OPEN_KONG)
                continue
            e.step(u.policy_action(Opener()))
        ev = u.hand_state.events
        got = [x for x in ev if x["e"] == "open_kong"]
        assert got and got[0]["choice"] is True and any(x["e"] == "kong_reveal" for x in ev)
        p = got[0]["seat"]
        if u.hand_state.seats[p].locked:
            assert u.observe(f"player_{p}")["observation"][13, 29] == 1
    assert asked == 2

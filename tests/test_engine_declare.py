"""Ready declarations (报听) in the game engine (majiang.game.engine.declare): scripted hands
where a player declares (logged, shown, the hand locked), declared wins scored against
undeclared ones, "required" refusing an undeclared win, "open" refusing a discard win, kongs
after a declaration, replay, zero-sum hands and the compiled / Python routing.

Expected values are worked by hand from docs/rules/shandong.md (暗楼 1, 明楼 2 番 on top of the
same win), docs/rules/baoding.md / lisi.md (no win undeclared; 大包 only for an undeclared
discarder) and docs/rules/hainan_tuidao.md §2 (明摸 4 / 8 from each), never read from the
code's output.
"""
from __future__ import annotations

import pytest

import majiang
from majiang import InvalidHandError, RuleError
from majiang.game import play_hand, replay, summarize, to_jsonl
from majiang.game.engine import fast_eligible, play_fast
from majiang.game.engine.facts import ready_kinds
from majiang.rules import baoding as B
from majiang.rules.model import game_model
from majiang.winning import WinContext

from _engine_helpers import Script, build_test_wall

# the dealer (seat 0) holds 123m456m789m 44p 78s + 1z: discarding 1z leaves 6s / 9s waits;
# the other three hold scattered tiles that no draw below completes
HANDS = ["123m456m789m44p78s1z", "159m159p159s1234z", "268m268p268s5567z",
         "347m347p347s2367z"]
# draws: seat 1, 2, 3, then the dealer's 5m (a locked hand discards it), 1, 2, 3, the dealer's 9s
DRAWS = "8m8p2s5m9m9p1s9s"


class Declarer(Script):
    """Script that declares ``kind`` the first time it is asked (never when None), and
    records what its view shows of everyone's declarations at each discard."""

    def __init__(self, kind=None, **kw):
        super().__init__(**kw)
        self.kind = kind
        self.asked = []
        self.shown = []

    def declare_ready(self, view, discard, waits):
        self.asked.append((discard, list(waits)))
        return self.kind or False

    def discard(self, view):
        self.shown.append(list(view.declared))
        return super().discard(view)


def _play(name, kind, draws=DRAWS, hands=HANDS, others=None):
    wall = build_test_wall(name, hands, draws=draws)
    pols = [Declarer(kind, discards="1z")] + [Declarer(None) for _ in range(3)]
    st = play_hand(name, pols, wall=wall, dealer=0, log=True)
    return st, pols


def test_scripted_declaration_logged_shown_and_locked():
    st, pols = _play("shandong", "concealed")
    ready = [e for e in st.events if e["e"] == "ready"]
    assert ready[0]["seat"] == 0 and ready[0]["tile"] == majiang.parse_tile("1z")
    assert ready[0]["choice"] == "concealed"
    assert sorted(ready[0]["waits"]) == sorted(majiang.parse_tiles("6s9s"))
    assert pols[0].asked == [(majiang.parse_tile("1z"), ready[0]["waits"])]
    # public: the next seats' views show seat 0's declaration from then on
    assert pols[1].shown[0] == ["concealed", "", "", ""]
    # locked: the dealer's next discard is his draw (5m), forced, not asked
    i = st.events.index(ready[0])
    mine = [e for e in st.events[i + 1:] if e["e"] == "discard" and e["seat"] == 0]
    assert mine and mine[0]["tile"] == majiang.parse_tile("5m") and mine[0].get("forced")
    assert len(pols[0].shown) == 1          # asked to discard only before declaring
    # what another seat's view of the log shows: the declaration, not its waits
    from majiang.game.players import SeatView
    seen = [e for e in SeatView(st, 1).seen_events() if e["e"] == "ready"]
    assert [(e["seat"], e["choice"]) for e in seen] == [(0, "concealed")]
    own = [e for e in SeatView(st, 0).seen_events() if e["e"] == "ready"]
    assert "waits" not in seen[0] and "waits" in own[0]
    w = st.wins[0]
    assert (w["seat"], w["how"], w["declared_ready"]) == (0, "self_draw", "concealed")
    assert ("暗楼", 1) in w["fans"]


def test_declared_win_scores_the_fan():
    # the same hand undeclared / 暗楼 / 明楼: the total rises by 1 / 2 番 (docs/rules/shandong.md),
    # settled by each of the three (a self-draw) at the total
    plain, _ = _play("shandong", None)
    dark, _ = _play("shandong", "concealed")
    shown, _ = _play("shandong", "open")
    t0 = plain.wins[0]["total"]
    assert not plain.wins[0]["declared_ready"]
    assert not [f for f, _ in plain.wins[0]["fans"] if f in ("暗楼", "明楼")]
    assert dark.wins[0]["total"] == t0 + 1 and shown.wins[0]["total"] == t0 + 2
    assert ("明楼", 1) in shown.wins[0]["fans"]             # (name, times counted)
    for st in (plain, dark, shown):
        t = st.wins[0]["total"]
        assert tuple(st.deltas) == (3 * t, -t, -t, -t)


def test_open_declaration_wins_only_by_self_draw():
    # seat 3's first draw is 6s, which it discards: a concealed declarer wins on it, an open
    # one may not (docs/rules/shandong.md 明楼, docs/rules/hainan_tuidao.md 报听明摸)
    draws = "8m8p6s5m9m9p1s9s"
    dark, _ = _play("shandong", "concealed", draws=draws)
    w = dark.wins[0]
    assert (w["seat"], w["how"], w["discarder"]) == (0, "discard", 3)
    shown, pols = _play("shandong", "open", draws=draws)
    w = shown.wins[0]
    assert (w["seat"], w["how"]) == (0, "self_draw")
    assert not [o for k, o in pols[0].seen if k == "claim" and ("win",) in o]


def test_required_refuses_an_undeclared_win():
    # 保定: the same complete hand wins only after a declaration
    st, pols = _play("baoding", None)
    assert not st.wins
    assert not [o for _, o in pols[0].seen if ("win",) in o]
    st, pols = _play("baoding", "concealed")
    assert st.wins[0]["seat"] == 0 and st.wins[0]["declared_ready"] == "concealed"


def test_kong_after_declaring_only_when_it_keeps_the_waits():
    # 111p + 5s: waits 5s; a kong of the drawn 1p leaves 5s: offered.  1112p: waits 2p / 3p;
    # a kong of 1p leaves 2p alone: not offered
    others = ["159m259p159s1234z"] + HANDS[2:]          # no 1p among the others
    keeps = ["123m456m789m111p5s1z"] + others
    st, pols = _play("shandong", "concealed", hands=keeps, draws="8m8p2s1p")
    assert ("concealed_kong", majiang.parse_tile("1p")) in \
        [o for k, opts in pols[0].seen if k == "declare" for o in opts]
    breaks = ["123m456m789m1112p1z"] + others
    st, pols = _play("shandong", "concealed", hands=breaks, draws="8m8p2s1p")
    assert not [o for k, opts in pols[0].seen if k == "declare" for o in opts
                if o[0] == "concealed_kong"]
    # and a declared hand calls nothing: seat 0 is never offered a pung
    assert not [o for k, opts in pols[0].seen if k == "claim" for o in opts if o[0] == "pung"]


def test_replay_reproduces_declarations():
    found = 0
    for name in ("shandong", "baoding", "lisi", "hainan_tuidao"):
        for h in range(6):
            st = play_hand(name, "efficiency", seed=5, hand=h, log=True)
            if not any(e["e"] == "ready" and e["choice"] for e in st.events):
                continue
            found += 1
            again = replay(to_jsonl(st.events))
            assert summarize(again) == summarize(st)
            pick = [(e["seat"], e["tile"], e["choice"]) for e in st.events if e["e"] == "ready"]
            assert pick == [(e["seat"], e["tile"], e["choice"]) for e in again.events
                            if e["e"] == "ready"]
    assert found >= 8


@pytest.mark.parametrize("name", ["shandong", "baoding", "lisi", "hainan_tuidao"])
def test_seeded_hands_zero_sum_and_locked(name):
    declared_wins = 0
    for h in range(30):
        for pl in ("efficiency", "random"):
            st = play_hand(name, pl, seed=77, hand=h, log=True)
            assert sum(st.deltas) == 0
            since = {}
            for i, e in enumerate(st.events):
                if e["e"] == "ready" and e["choice"]:
                    since[e["seat"]] = i
                elif e["e"] == "discard" and e["seat"] in since:
                    assert e.get("forced")                    # a locked hand is not asked
                    prev = [x for x in st.events[:i] if x.get("seat") == e["seat"]
                            and x["e"] == "draw"]
                    assert prev[-1]["tile"] == e["tile"]      # it discards what it drew
                elif e["e"] == "call":
                    assert e["seat"] not in since
            for w in st.wins:
                if game_model(name).ruleset.ready == "required":
                    assert w["declared_ready"]
                declared_wins += bool(w["declared_ready"])
                if w["declared_ready"] == "open":
                    assert w["how"] in ("self_draw", "kong_replacement")
    assert declared_wins >= 10


def test_routing_compiled_and_python():
    for name in ("shandong", "baoding", "lisi", "hainan_tuidao"):
        assert ready_kinds(game_model(name))
        assert not fast_eligible(game_model(name), ("efficiency",) * game_model(name).players)
    assert ready_kinds(game_model("shandong")) == ("concealed", "open")
    assert ready_kinds(game_model("hainan_tuidao")) == ("open",)
    assert ready_kinds(game_model("baoding")) == ("concealed",)
    # optional without a value (MCR) or none (四川): nothing to declare, the compiled loop
    for name in ("mcr", "sichuan", "guizhou"):
        assert ready_kinds(game_model(name)) == ()
        assert fast_eligible(game_model(name), ("efficiency",) * 4)
    st = play_hand("mcr", "efficiency", seed=1, hand=0)
    assert type(st).__name__ == "FastState"
    with pytest.raises(RuleError):
        play_hand("shandong", "efficiency", engine="compiled")
    with pytest.raises(RuleError):
        play_fast(game_model("baoding"), ("efficiency",) * 4)
    st = play_hand("shandong", "efficiency", seed=1, hand=0)
    assert type(st).__name__ == "HandState"


def test_context_and_settlement_flags():
    assert WinContext(5, declared_ready=True).declared_ready == "concealed"
    with pytest.raises(InvalidHandError):
        WinContext(5, declared_ready="open")                  # open: self-draw only
    with pytest.raises(InvalidHandError):
        WinContext(5, declared_ready="half")
    with pytest.raises(InvalidHandError):
        WinContext(5, self_drawn=True, discarder_ready=True)
    with pytest.raises(InvalidHandError):
        majiang.score("123m456m789m44p78s", "9s", ruleset="shandong", declared_ready="open")
    # 保定 平胡 1 chip, the dealer (seat 0) wins on seat 1's discard: shares 2 each; undeclared
    # discarder pays all three (大包), declared each pays his own (docs/rules/baoding.md §4)
    h = "123m456p789s1122z"
    r = majiang.check_win(h, "1z", ruleset="baoding").result
    assert r.settle(0, 1) == (6, -6, 0, 0) == B.settle_baoding(1, 0, 1, dealer=0)
    r = majiang.check_win(h, "1z", ruleset="baoding", discarder_ready=True).result
    assert r.settle(0, 1) == (6, -2, -2, -2)
    # 海南 推倒胡 明摸: a non-dealer (seat 1, the dealer seat 0) self-draws declared open:
    # the dealer pays 8, the others 4 each
    r = majiang.score("123m55m456p789s46s", "5s", ruleset="hainan_tuidao", seat_wind=1,
                      self_drawn=True, declared_ready="open")
    assert r.settle(1) == (-8, 16, -4, -4)
    # 明打: seat 2 (declared) deals in to seat 1: he alone pays 8 (no dealer involved)
    r = majiang.score("123m55m456p789s46s", "5s", ruleset="hainan_tuidao", seat_wind=1,
                      discarder_ready=True)
    assert r.settle(1, 2) == (0, 8, -8, 0)

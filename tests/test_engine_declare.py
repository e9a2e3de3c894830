"""Ready declarations (报听) in the game engine (majiang.game.engine.declare): scripted hands
where a player declares (logged, shown, the hand locked), declared wins scored against
undeclared ones, "required" refusing an undeclared win, "open" refusing a discard win, kongs
after a declaration, replay, zero-sum hands and the compiled / Python routing; the
declarations of their own moment: 天听 on the dealt hand and 地听 right after the first draw
(docs/rules/guizhou.md §1, §3: 天听 20 / 地听 10; docs/rules/nanjing.md: 地胡 +30 after 天听).

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
from majiang.rules import guizhou as G
from majiang.rules import tianjin as T
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
    for name in ("mcr", "sichuan", "tianjin"):
        assert ready_kinds(game_model(name)) == ()
    for name in ("mcr", "sichuan"):
        assert fast_eligible(game_model(name), ("efficiency",) * 4)
    # 天听 / 地听 (贵州), 天听 for 地胡 (南京), 扣听 (天津's option): the Python loop
    assert ready_kinds(game_model("guizhou")) == ("deal", "first_draw")
    assert ready_kinds(game_model("nanjing")) == ("deal",)
    assert ready_kinds(game_model(T.build(kou_ting=True))) == ("concealed",)
    for rs in ("guizhou", "nanjing", T.build(kou_ting=True)):
        assert not fast_eligible(game_model(rs), ("efficiency",) * 4)
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


# ---------------------------------------------------------------- 天听 / 地听 (their own moment)
# 贵州 (108 tiles): seat 1 is dealt 123m456m789m 11p 45s, ready on 3s / 6s (天听); seat 2
# 1234m 234p 678p 22s 7s, ready on 6s / 9s after drawing 8s and discarding 1m (地听); the
# dealer and seat 3 hold scattered tiles.  Draws: seat 1 6p, seat 2 8s, seat 3 8p, the dealer
# 3s, seat 1 9p, seat 2 9s.
GZ_HANDS = ["1599m15799p25899s", "123m456m789m11p45s", "1234m234p678p227s",
            "1357m1357p357s9m9p"]
GZ_DRAWS = "6p8s8p3s9p9s"


class Offered(Declarer):
    """Declarer that also records the kinds offered at each ask."""

    def declare_ready(self, view, discard, waits):
        self.asked.append((discard, list(waits), view.ready_offered))
        return self.kind or False


def _gz(rs, kinds, dealer_discards="9p", draws=GZ_DRAWS, hands=GZ_HANDS, **kw):
    wall = build_test_wall("guizhou", hands, draws=draws)
    pols = [Offered(kinds[0], discards=dealer_discards)] + [
        Offered(k, discards=d) for k, d in zip(kinds[1:], ("", "1m", ""))]
    return play_hand(rs, pols, wall=wall, dealer=0, log=True, **kw), pols


def test_deal_declaration_before_the_first_discard_locked_and_won():
    # seat 1 declares 天听 right after the deal (no discard), seat 2 is asked only at the
    # discard of its first draw: 地听 (offered alone then)
    st, pols = _gz("guizhou", (None, "deal", "first_draw", None))
    ready = [e for e in st.events if e["e"] == "ready"]
    first_discard = next(i for i, e in enumerate(st.events) if e["e"] == "discard")
    assert st.events.index(ready[0]) < first_discard
    assert (ready[0]["seat"], ready[0]["tile"], ready[0]["choice"]) == (1, None, "deal")
    assert sorted(ready[0]["waits"]) == sorted(majiang.parse_tiles("3s6s"))
    assert pols[1].asked == [(None, ready[0]["waits"], ("deal",))]
    assert (ready[1]["seat"], ready[1]["tile"], ready[1]["choice"]) == \
        (2, majiang.parse_tile("1m"), "first_draw")
    assert pols[2].asked[0][2] == ("first_draw",)
    assert len(ready) == 2                       # nobody else is ever asked
    # public from then on: the dealer's view at his first discard shows seat 1's 天听
    assert pols[0].shown[0] == ["", "deal", "", ""]
    # locked: seat 1 discards its first draw (6p), forced
    d1 = [e for e in st.events if e["e"] == "discard" and e["seat"] == 1]
    assert d1[0]["tile"] == majiang.parse_tile("6p") and d1[0].get("forced")
    # the dealer discards his draw 3s: seat 1 wins on it — a 平胡 on a discard without a
    # 豆, allowed after 报听 (docs/rules/guizhou.md §2), worth 天听 20 (the highest pattern)
    w = st.wins[0]
    assert (w["seat"], w["how"], w["discarder"], w["declared_ready"]) == \
        (1, "discard", 0, "deal")
    assert w["points"] == 20 and [f for f, _ in w["fans"]] == ["天听"]
    assert w["deltas"] == [-20, 20, 0, 0]         # the discarder alone pays
    assert sum(st.deltas) == 0


def test_first_draw_declaration_and_bx_values():
    # seat 1 declines 天听; seat 2 declares 地听 and self-draws 9s on its second draw.
    # GYC: 10 (the highest pattern, 平胡 not counted); BX: 平胡 1 + 软报 10 = 11, and with
    # seat 1's 天听 declared, 平胡 1 + 硬报 20 = 21 on the dealer's 3s
    st, _ = _gz("guizhou", (None, None, "first_draw", None))
    w = st.wins[0]
    assert (w["seat"], w["how"], w["declared_ready"], w["points"]) == \
        (2, "self_draw", "first_draw", 10)
    bx = G.build(ting_values="bx")
    st, _ = _gz(bx, (None, None, "first_draw", None))
    assert (st.wins[0]["seat"], st.wins[0]["points"]) == (2, 11)
    st, _ = _gz(bx, (None, "deal", None, None))
    assert (st.wins[0]["seat"], st.wins[0]["how"], st.wins[0]["points"]) == (1, "discard", 21)


def test_undeclared_plain_hand_needs_the_pass():
    # undeclared, seat 1's 平胡 on the dealer's 3s has no 通行证: no win offered; it
    # self-draws nothing either, so the dealer's 3s passes
    st, pols = _gz("guizhou", (None, None, None, None))
    assert not [w for w in st.wins if w["seat"] == 1 and w["how"] == "discard"]
    assert not [o for k, o in pols[1].seen if k == "claim" and ("win",) in o]


def test_dealer_declares_on_the_dealt_hand_with_his_first_discard():
    # 南京: the dealer is dealt 123m456m789m 11p 45s + 东; discarding 东 leaves 3s / 6s: 天听
    # offered with that discard (and never again); he self-draws 3s with no pung or kong:
    # 跑一 10 + 门一 10 + 花砸2 0 + 无花果 20 + 地胡 30 = 70, each of three pays 70
    hands = ["123m456m789m11p45s1z", "159m159p159s1234z", "268m268p268s1234z",
             "347m347p347s2344z"]
    wall = build_test_wall("nanjing", hands, draws="8m8p2s3s")
    pols = [Offered("deal", discards="1z")] + [Offered(None) for _ in range(3)]
    st = play_hand("nanjing", pols, wall=wall, dealer=0, log=True)
    assert pols[0].asked == [(majiang.parse_tile("1z"), sorted(majiang.parse_tiles("3s6s")),
                              ("deal",))]
    w = st.wins[0]
    assert (w["seat"], w["how"], w["declared_ready"]) == (0, "self_draw", "deal")
    assert ("地胡", 1) in w["fans"] and w["points"] == 70
    assert tuple(st.deltas) == (210, -70, -70, -70)
    # undeclared, the same win is 40
    pols = [Offered(None, discards="1z")] + [Offered(None) for _ in range(3)]
    st = play_hand("nanjing", pols, wall=wall, dealer=0, log=True)
    assert st.wins[0]["points"] == 40


def test_replay_of_deal_declarations():
    for rs, kinds in (("guizhou", (None, "deal", "first_draw", None)),
                      (G.build(ting_values="bx"), (None, None, "first_draw", None))):
        st, _ = _gz(rs, kinds)
        again = replay(to_jsonl(st.events), ruleset=rs if not isinstance(rs, str) else None)
        assert summarize(again) == summarize(st)
        assert [(e["seat"], e["tile"], e["choice"]) for e in st.events if e["e"] == "ready"] \
            == [(e["seat"], e["tile"], e["choice"]) for e in again.events if e["e"] == "ready"]


def _windows_kept(st):
    """Every ready ask is at its moment: a non-dealer's dealt hand before any discard
    (``tile`` None), the dealer's first discard before any draw, or the discard of the
    seat's first draw."""
    drawn = {}
    discards = {}
    for i, e in enumerate(st.events):
        if e["e"] == "draw":
            drawn[e["seat"]] = drawn.get(e["seat"], 0) + 1
        elif e["e"] == "discard":
            discards[e["seat"]] = discards.get(e["seat"], 0) + 1
        elif e["e"] == "ready":
            p = e["seat"]
            if e["tile"] is None:
                assert e["options"] == ["deal"] and p != st.dealer and not discards
            elif "deal" in e["options"]:
                assert p == st.dealer and not drawn.get(p) and discards[p] == 1
            elif "first_draw" in e["options"]:
                assert drawn[p] == 1
            else:                                  # 报听 / 扣听 with any discard
                assert e["options"] == ["concealed"]


@pytest.mark.parametrize("rs", ["guizhou", "nanjing", G.build(ting_values="bx"),
                                T.build(kou_ting=True)], ids=str)
def test_seeded_deal_declarations_zero_sum_and_locked(rs):
    declared = 0
    for h in range(30):
        for pl in ("efficiency", "random"):
            st = play_hand(rs, pl, seed=91, hand=h, log=True)
            assert sum(st.deltas) == 0
            _windows_kept(st)
            since = set()
            for e in st.events:
                if e["e"] == "ready" and e["choice"]:
                    since.add(e["seat"])
                    declared += 1
                elif e["e"] == "discard" and e["seat"] in since:
                    assert e.get("forced")
                elif e["e"] == "call":
                    assert e["seat"] not in since
            for w in st.wins:
                assert bool(w["declared_ready"]) == (w["seat"] in since)
    # 天听 / 地听 need a ready hand by the first draw (3 in these 60 hands under 贵州, none
    # under 南京, whose scripted hand above declares); 扣听 may come at any discard
    assert declared >= {"guizhou": 2, "nanjing": 0, "tianjin": 30}[game_model(rs).name]


# ---------------------------------------------------------------- 立四 standing tiles
# docs/rules/lisi.md §1: the first four tiles dealt to each player stand apart; before ready
# none is discarded, but pungs and kongs may use them; the declaration is the discard of one
# of them, face down; a player with none left cannot declare (so cannot win).

class Stander(Declarer):
    """:class:`Declarer` declaring ``kind`` when asked (None: never), recording the legal
    discards it is offered.  立四's void is a condition of the win only (no 定缺,
    docs/rules/lisi.md §1): a void-suit ask fails the test."""

    def __init__(self, kind="concealed", **kw):
        super().__init__(kind=kind, **kw)
        self.legal = []

    def choose_void(self, view):
        raise AssertionError("立四 declares no void suit (缺门 at the win only)")

    def discard(self, view):
        self.legal.append(sorted(view.legal_discards))
        return super().discard(view)


_t = majiang.parse_tile
# dealer: standing 9p 1m 2m 3m (the first four dealt), then 456m789m 11p 34p; seat 1: standing
# 1s2s3s4s, a free 9p pair; seat 2: nothing that wins or calls.  Seat 1 draws 2p and throws it.
LISI = ["9p123m456m789m11p34p", "1s2s3s4s9p9p5p6p6s7s8s9s9s", "1s2s3s5s6s7s8s2p6p7p8p5s6s"]


def _lisi(hands=LISI, draws="2p", dealer_kw=None, p1_kw=None):
    wall = build_test_wall("lisi", hands, draws=draws)
    pols = [Stander(**(dealer_kw or {"discards": "9p"})), Stander(**(p1_kw or {})),
            Stander()]
    return play_hand("lisi", pols, wall=wall, dealer=0, log=True), pols


def test_lisi_standing_tiles_dealt_shown_and_discarded_only_to_declare():
    st, pols = _lisi()
    stand = next(e for e in st.events if e["e"] == "standing")
    assert stand["tiles"] == [sorted(majiang.parse_tiles(h[:8])) if i else
                              sorted(majiang.parse_tiles("9p123m")) for i, h in enumerate(LISI)]
    # before ready: the free tiles, and of the standing ones only 9p, whose discard leaves
    # 123m456m789m 11p 34p ready (2p / 5p); 1m, 2m or 3m would not
    assert pols[0].legal[0] == sorted(majiang.parse_tiles("456789m1p3p4p9p"))
    # 9p is held only standing: its discard is the declaration, made for the seat, face down
    ready = [e for e in st.events if e["e"] == "ready"]
    assert [(e["seat"], e["tile"], e["choice"], e.get("forced")) for e in ready] == \
        [(0, _t("9p"), "concealed", True)]
    assert pols[0].asked == []
    assert st.seats[0].face_down == [_t("9p")] and _t("9p") not in st.seats[0].discards
    d = next(e for e in st.events if e["e"] == "discard" and e["seat"] == 0)
    assert d["tile"] == _t("9p") and d["face_down"]
    # nobody claims it: seat 1 holds a free 9p pair and is offered no pung
    assert not [o for k, opts in pols[1].seen if k == "claim" for o in opts if o[0] == "pung"]
    # seat 1's 2p: the declared dealer wins; the discarder was not ready, the winner is the
    # dealer: he alone pays 20 (docs/rules/lisi.md §2)
    w = st.wins[0]
    assert (w["seat"], w["how"], w["discarder"], w["declared_ready"]) == \
        (0, "discard", 1, "concealed")
    assert tuple(st.deltas) == (20, -20, 0)
    assert (st.census() == st.expected_census()).all()
    # what the others see: how many stand, the face-down tile hidden
    from majiang.game.players import SeatView
    v1 = SeatView(st, 1)
    assert v1.standing_counts == [3, 4, 4] and v1.face_down == [1, 0, 0]
    assert int(v1.standing.sum()) == 4 and int(SeatView(st, 0).standing.sum()) == 3
    seen = v1.seen_events()
    assert next(e for e in seen if e["e"] == "discard" and e["seat"] == 0)["tile"] is None
    assert next(e for e in seen if e["e"] == "ready")["tile"] is None
    assert next(e for e in seen if e["e"] == "standing")["tiles"] == [4, stand["tiles"][1], 4]
    again = replay(to_jsonl(st.events))
    assert summarize(again) == summarize(st) and again.seats[0].face_down == [_t("9p")]


def test_lisi_a_kind_held_free_and_standing_asks():
    # the dealer holds 9p standing and two free: discarding a 9p leaves 123m456m789m 9p9p 34p,
    # ready (2p / 5p), so he is asked; yes lays the standing 9p face down, no throws a free
    # one face up (it stays in his pool) and keeps the standing one
    hands = ["9p123m456m789m9p9p34p", "1s2s3s4s8p8p5p6p6s7s8s9s9s", LISI[2]]
    st, pols = _lisi(hands, draws="2p3p")
    first = [e for e in st.events if e["e"] == "ready"][0]
    assert (first["seat"], first["tile"], first["choice"], first.get("forced")) == \
        (0, _t("9p"), "concealed", None)
    assert pols[0].asked[0] == (_t("9p"), [_t("2p"), _t("5p")])
    assert st.seats[0].face_down == [_t("9p")] and int(st.seats[0].standing.sum()) == 3
    assert tuple(st.deltas) == (20, -20, 0)                 # as above: seat 1's 2p
    st, pols = _lisi(hands, draws="2p3p", dealer_kw={"discards": "9p", "kind": None})
    assert pols[0].asked[0][0] == _t("9p") and not st.seats[0].declared
    d = next(e for e in st.events if e["e"] == "discard" and e["seat"] == 0)
    assert not d.get("face_down") and not st.seats[0].face_down
    assert st.seats[0].standing[_t("9p")] == 1
    assert not [w for w in st.wins if w["seat"] == 0]          # undeclared: never wins


def test_lisi_a_standing_tile_not_declaring_is_illegal():
    hands = LISI
    wall = build_test_wall("lisi", hands, draws="2p")
    pols = [Stander(discards="1m"), Stander(), Stander()]

    class Bad(Stander):
        def discard(self, view):
            return _t("1m")          # standing, and 23m456m789m11p34p9p is not ready

    pols[0] = Bad()
    with pytest.raises(majiang.game.engine.IllegalMoveError, match="legal discards"):
        play_hand("lisi", pols, wall=wall, dealer=0)


def test_lisi_calls_use_standing_copies_first_keeping_one():
    # worked by hand from the rule chosen (docs/rules/lisi.md: standing copies first while
    # another standing tile is left; the free ones when they do not suffice)
    from types import SimpleNamespace

    import numpy as np

    from majiang.game.engine.declare import call_leaves_discard, standing_used

    def seat(phys, standing):
        s = SimpleNamespace(phys=np.zeros(34, np.uint8), standing=np.zeros(34, np.uint8))
        for t in majiang.parse_tiles(phys):
            s.phys[t] += 1
        for t in majiang.parse_tiles(standing):
            s.standing[t] += 1
        return s

    p9 = _t("9p")
    assert standing_used(seat("9p9p1s2s3s", "9p1s2s3s"), p9, 2) == 1     # one standing 9p
    assert standing_used(seat("9p9p9p1s", "9p9p1s"), p9, 2) == 2         # both, 1s is left
    assert standing_used(seat("9p9p9p", "9p"), p9, 2) == 0               # the last: kept
    assert standing_used(seat("9p9p", "9p"), p9, 2) == 1                 # free ones too few
    assert standing_used(seat("9p9p9p9p", "9p9p9p9p"), p9, 4) == 4       # a concealed kong
    st = SimpleNamespace(standing=4, seats=[seat("9p9p1s2s", "9p9p1s2s")])
    assert not call_leaves_discard(st, 0, {p9: 2})       # only 1s2s standing would be left
    st.seats = [seat("9p9p1s5s", "9p1s")]
    assert call_leaves_discard(st, 0, {p9: 2})           # 1s (standing) and 5s (free) left
    st.standing = 0
    assert call_leaves_discard(st, 0, {p9: 2})


def test_lisi_standing_tiles_rule_validated_and_routed():
    import dataclasses
    rs = majiang.rules.get("lisi")
    assert rs.standing_tiles == 4 and not rs.missing
    with pytest.raises(RuleError, match="standing"):
        dataclasses.replace(rs, ready="none")
    with pytest.raises(RuleError, match="standing_tiles"):
        dataclasses.replace(rs, standing_tiles=14)
    assert not fast_eligible(game_model("lisi"), ("efficiency",) * 3)


@pytest.mark.parametrize("pl", ["efficiency", "random", "expert"])
def test_lisi_seeded_hands_standing_rules_hold(pl):
    wins = 0
    for h in range(30):
        st = play_hand("lisi", pl, seed=2026, hand=h, log=True)
        assert sum(st.deltas) == 0 and (st.census() == st.expected_census()).all()
        dealt = next(e for e in st.events if e["e"] == "standing")["tiles"]
        for p, s in enumerate(st.seats):
            assert len(s.face_down) == (1 if s.declared else 0)
            assert all(t in dealt[p] for t in s.face_down)
        for i, e in enumerate(st.events):
            if e["e"] == "discard" and e.get("face_down"):
                # the declaration: nothing claims it, the next event is the ready one
                nxt = st.events[i + 1]
                assert nxt["e"] == "ready" and nxt["seat"] == e["seat"] and nxt["choice"]
                assert not [x for x in st.events[i + 1:i + 4] if x["e"] in ("call", "win")
                            and x.get("discarder", x.get("frm")) == e["seat"]
                            and x.get("tile") == e["tile"]]
        for w in st.wins:
            assert st.seats[w["seat"]].face_down and w["declared_ready"]
        wins += len(st.wins)
    assert wins >= (20 if pl != "random" else 0)


def test_lisi_no_kong_after_ready():
    # docs/rules/lisi.md §4 (LSA: "after listening, kongs are not allowed"): the dealer
    # declares with his standing 9p on 111p 23m... and draws the fourth 1p: under 保定's rule
    # (ready_kongs) that kong keeps his wait and is offered; 立四 offers none
    import dataclasses
    hands = ["9p123m456m789m111p4p", "1s2s3s4s8p8p5p6p6s7s8s9s9s", LISI[2]]
    draws = "3s3s1p"
    st, pols = _lisi(hands, draws=draws)
    assert st.seats[0].declared and st.seats[0].face_down == [_t("9p")]
    assert not [o for k, opts in pols[0].seen if k == "declare" for o in opts
                if o[0] == "concealed_kong"]
    loose = dataclasses.replace(majiang.rules.get("lisi"), ready_kongs=True)
    wall = build_test_wall("lisi", hands, draws=draws)
    pols = [Stander(discards="9p"), Stander(), Stander()]
    play_hand(loose, pols, wall=wall, dealer=0)
    assert ("concealed_kong", _t("1p")) in [o for k, opts in pols[0].seen if k == "declare"
                                            for o in opts]

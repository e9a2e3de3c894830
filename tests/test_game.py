"""The whole-hand engine (majiang.game): conservation, zero-sum, valid wins, replay,
seeds, and the table rules on hand-built walls."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

import majiang
from majiang import MahjongError, RuleError, efficiency, rules
from majiang.game import IllegalMoveError, play_hand, replay, simulate, summarize, to_jsonl
from majiang.hand import Hand
from majiang.rules.model import game_model
from _engine_helpers import Script, build_test_wall

COMPLETE = [n for n in rules.available() if rules.get(n).status == "complete"]


def _check_win_fn():
    from majiang.scoring import check_win
    return check_win


def _fast(name):
    from majiang.game.engine import fast_eligible
    m = game_model(name)
    return fast_eligible(m, ("random",) * m.players)


# ---------------------------------------------------------------- invariants
def _check_hand(st):
    rs = st.rs
    # every physical tile exactly once
    assert np.array_equal(st.census(), st.expected_census())
    # zero-sum settlements (every built-in settlement is)
    assert sum(st.deltas) == 0
    check_win = _check_win_fn()
    for w in st.wins:
        if w["how"] == "flower":
            continue        # 台湾 八仙過海 / 七搶一: won by the flowers, no hand to check
        hand, tile, kw = w["check"]
        # the win is valid under THE predicate, called again from outside the engine
        again = check_win(hand, tile, **kw)
        assert again.valid, (rs.name, str(hand), tile, again.reason)
        assert again.result.total == w["total"]
        # and the shape is complete by the public shanten (no jokers, core forms)
        # (a hand by its faces with an indicator holds its wild tiles as natural ones)
        if not hand.jokers and not kw["win_is_joker"] and tile is not None \
                and kw.get("indicator") is None and set(rs.forms) <= set(efficiency.FORMS):
            c = np.array(hand.concealed, dtype=np.uint8)
            c[tile] += 1
            if rs.hand_size == 13:
                forms = tuple(f for f in rs.forms if not hand.melds or f in
                              ("regular", "knitted_straight"))
                assert efficiency.shanten(Hand(c, hand.melds), forms=forms,
                                          seven_pairs_quads=rs.seven_pairs_quads) == -1
            else:       # 16-tile hands: the ruleset gives the hand size (regular form)
                assert efficiency.shanten(Hand(c, hand.melds), ruleset=rs.name) == -1
        if rs.name == "mcr":
            # 8 fans without the flowers (花牌 does not count toward the minimum)
            r = w["result"]
            assert sum(f.value * f.count for f in r.fans if f.chinese != "花牌") >= 8
    # the hand ended for a reason the rules give
    if st.end_reason == "wall" and rs.wall_end.per_seat:
        # one wall per seat (mcr_botzone): some seat's own wall is empty (others may
        # still hold tiles, skipped by calls)
        assert any(nx < lo for nx, lo in zip(st.seat_next, st.seat_low))
    elif st.end_reason == "wall":
        exp = sum(s.n_kongs_exposed for s in st.seats)
        con = sum(s.n_kongs_concealed for s in st.seats)
        assert st.wall_left <= rs.wall_end.kept_tiles(exp, con)
    if not rs.blood:
        assert len({w["discarder"] for w in st.wins}) <= 1
        if rs.winners != "multiple":
            assert len(st.wins) <= 1


@pytest.mark.parametrize("name", COMPLETE)
def test_random_hands_conserve_tiles_and_score_valid_wins(name):
    n = rules.get(name).players
    for h in range(200 if _fast(name) else 12):
        _check_hand(play_hand(name, ("random",) * n, seed=11, hand=h))


@pytest.mark.parametrize("name", COMPLETE)
def test_efficiency_hands_conserve_tiles_and_score_valid_wins(name):
    n = rules.get(name).players
    wins = 0
    for h in range(30 if _fast(name) and rules.get(name).hand_size == 13 else 4):
        st = play_hand(name, ("efficiency",) * n, seed=12, hand=h)
        _check_hand(st)
        wins += len(st.wins)
    assert wins >= 1 or name in ("luoshan", "shenyang", "wuhan", "taiwan", "mcr")


@pytest.mark.slow
@pytest.mark.parametrize("name", COMPLETE)
def test_many_hands_invariants(name):
    # 10,000 random hands and 1,000 efficiency hands per complete ruleset, in whichever
    # loop the ruleset plays (issue "Whole games": conservation on >= 10,000 hands)
    n = rules.get(name).players
    for pl, count in (("random", 10000), ("efficiency", 1000)):
        for h in range(count):
            _check_hand(play_hand(name, (pl,) * n, seed=99, hand=h))


def test_blood_rules():
    # 血战到底: nobody wins twice; a winner never draws again; a hand that ends
    # early has three winners
    for h in range(20):
        st = play_hand("sichuan", "efficiency", seed=5, hand=h, log=True)
        seats = [w["seat"] for w in st.wins]
        assert len(seats) == len(set(seats))
        if st.end_reason == "blood":
            assert len(seats) == 3
        else:
            assert st.end_reason == "wall" and st.wall_left == 0
        out = set()
        for ev in st.events:
            if ev["e"] == "win":
                out.add(ev["seat"])
            elif ev["e"] in ("draw", "discard") and ev.get("seat") in out:
                pytest.fail(f"seat {ev['seat']} played after winning (hand {h})")
    # 血流成河: play goes to the last tile; some seat wins more than once
    repeat = False
    for h in range(20):
        st = play_hand("sichuan_xueliu", "efficiency", seed=5, hand=h)
        assert st.end_reason == "wall" and st.wall_left == 0
        c = Counter(w["seat"] for w in st.wins)
        repeat |= any(v > 1 for v in c.values())
        _check_hand(st)
    assert repeat


def test_void_suit_declared_and_discarded_first():
    st = play_hand("sichuan", "efficiency", seed=3, hand=0, log=True)
    voids = {ev["seat"]: ev["suit"] for ev in st.events if ev["e"] == "void"}
    assert sorted(voids) == [0, 1, 2, 3]
    held = {}
    # replay the discards: while a seat holds its void suit, it discards that suit
    hands = {p: Counter() for p in range(4)}
    for ev in st.events:
        if ev["e"] == "deal":
            for p, tiles in enumerate(ev["hands"]):
                hands[p].update(tiles)
        elif ev["e"] == "draw":
            hands[ev["seat"]][ev["tile"]] += 1
        elif ev["e"] == "discard":
            p, t = ev["seat"], ev["tile"]
            v = voids[p]
            has_void = any(hands[p][k] for k in range(9 * v, 9 * v + 9))
            if has_void:
                assert 9 * v <= t < 9 * v + 9
            hands[p][t] -= 1
        elif ev["e"] == "call":
            p = ev["seat"]
            for _ in range(3 if ev["kind"] == "kong" else 2):
                hands[p][ev["tile"]] -= 1
        elif ev["e"] == "kong":
            hands[ev["seat"]][ev["tile"]] -= 4 if ev["kind"] == "concealed" else 1
    del held


def test_replay_reproduces_hands():
    for name in ("mcr", "sichuan", "sichuan_xueliu", "anqing", "luoyuan", "kawuxing", "xian"):
        for pl in ("random", "efficiency"):
            for h in range(3):
                st = play_hand(name, pl, seed=21, hand=h, log=True)
                text = to_jsonl(st.events)
                again = replay(text)
                assert summarize(again) == summarize(st)
                assert [e for e in again.events if e["e"] != "header"] == \
                    [e for e in st.events if e["e"] != "header"]


def test_one_policy_object_plays_every_seat():
    # one policy object (not a list) means that object in every seat, as one name does;
    # it used to fail with a TypeError on len()
    from majiang.game.players import EfficiencyPlayer
    bot = EfficiencyPlayer(np.random.default_rng(0))
    one = play_hand("mcr", bot, seed=3, hand=1)
    four = play_hand("mcr", [bot] * 4, seed=3, hand=1)
    assert summarize(one) == summarize(four)


def test_same_seed_same_table_for_any_n_jobs():
    a = simulate("guangdong", 110, players="random", seed=4, n_jobs=1)
    b = simulate("guangdong", 110, players="random", seed=4, n_jobs=2)
    pd.testing.assert_frame_equal(a, b)
    assert list(a["hand"]) == list(range(110))


def test_simulate_columns_and_logs():
    t = simulate("mcr", 3, seed=1, logs=True)
    for col in ("ruleset", "hand", "seed", "dealer", "winners", "win_types", "discarder",
                "fans", "fan_totals", "score_deltas", "draws", "wall_left", "kongs", "calls",
                "log"):
        assert col in t.columns
    for _, row in t.iterrows():
        assert sum(row["score_deltas"]) == 0
        again = summarize(replay(row["log"]))
        for k in ("winners", "fan_totals", "score_deltas", "draws", "wall_left"):
            assert again[k] == row[k]


def test_bad_input():
    with pytest.raises(RuleError, match="unknown ruleset"):
        simulate("nope", 1)
    with pytest.raises(RuleError, match="unknown player"):
        simulate("mcr", 1, players=("random", "random", "random", "genius"))
    with pytest.raises(RuleError, match="3 players"):
        simulate("kawuxing", 1, players=("random",) * 4)
    with pytest.raises(RuleError):
        simulate("mcr", -1)

    class Bad:
        def discard(self, view):
            return 99

        def claim(self, view, options):
            return None

        def declare(self, view, options):
            return None

    with pytest.raises(IllegalMoveError, match=r"seat 0 .*discard returned 99.*legal"):
        play_hand("guangdong", (Bad(), "random", "random", "random"), seed=0, dealer=0)
    assert issubclass(IllegalMoveError, MahjongError)


# ---------------------------------------------------------------- hand-built walls
_wall = build_test_wall


# seat 0 (dealer) discards 5p first; seats 1, 2, 3 all win on it (tanki, kanchan,
# shanpon); seat 3 could also pung it
_MULTI = ["23m13579p1357s577z", "123456789m5p999s", "46p11122233344z", "55p777888999m66z"]


def _head_bump_ruleset():
    rs = rules.get("guangdong")
    name = "test_guangdong_head_bump"
    if name not in rules.available():
        rules.register(replace(rs, name=name, winners="head_bump"))
    return rules.get(name)


def test_several_winners_on_one_discard():
    wall = _wall("guangdong", _MULTI)
    st = play_hand("guangdong", [Script("5p"), Script(), Script(), Script()], wall=wall,
                   dealer=0)
    assert [w["seat"] for w in st.wins] == [1, 2, 3]
    assert all(w["how"] == "discard" and w["discarder"] == 0 for w in st.wins)
    assert st.end_reason == "win"
    _check_hand(st)
    # the discarder pays each winner (一炮多响), the others pay nothing
    assert st.deltas[0] == -sum(st.deltas[1:]) and all(d > 0 for d in st.deltas[1:])


def test_head_bump_takes_the_first_in_turn_order():
    rs = _head_bump_ruleset()
    wall = _wall(rs, _MULTI)
    st = play_hand(rs, [Script("5p"), Script(), Script(), Script()], wall=wall, dealer=0)
    assert [w["seat"] for w in st.wins] == [1]
    # seat 1 passes: the next winner in turn order takes it
    st = play_hand(rs, [Script("5p"), Script(skip_wins=1), Script(), Script()], wall=wall,
                   dealer=0)
    assert [w["seat"] for w in st.wins] == [2]
    _check_hand(st)


def test_win_beats_pung():
    rs = _head_bump_ruleset()
    wall = _wall(rs, _MULTI)
    # seat 3 prefers its pung, seats 1 and 2 pass, then seat 3 is the only claimer:
    # its pung is made; with seat 2 winning, the pung is not
    st = play_hand(rs, [Script("5p"), Script(skip_wins=1), Script(), Script(claims=("pung",),
                                                                       skip_wins=1)],
                   wall=wall, dealer=0)
    assert [w["seat"] for w in st.wins] == [2]
    assert st.seats[3].n_calls == 0
    st = play_hand(rs, [Script("5p"), Script(skip_wins=1), Script(skip_wins=1),
                        Script(claims=("pung",), skip_wins=1)], wall=wall, dealer=0, log=True)
    calls = [e for e in st.events if e["e"] == "call"]
    assert calls[0]["seat"] == 3 and calls[0]["kind"] == "pung" and calls[0]["frm"] == 0


def test_pung_beats_chow_and_chow_only_from_the_left():
    name = "guangdong_jipinghu"
    hands = ["147m39p5p1258s2567z", "46p258m369s12345z", "55p128p369m369s67z",
             "258m1479s39p1234z"]
    wall = _wall(name, hands)
    pols = [Script("5p"), Script(claims=("chow",)), Script(claims=("pung",)), Script()]
    st = play_hand(name, pols, wall=wall, dealer=0, log=True)
    call = [e for e in st.events if e["e"] == "call"][0]
    assert call["seat"] == 2 and call["kind"] == "pung"
    assert ("claim", [("chow", 12)]) in pols[1].seen
    # on seat 0's 5p only seat 1 (next in turn) is offered a chow
    first = []
    for e in st.events:
        if e["e"] == "call":
            break
        if e["e"] == "claim":
            first.append((e["seat"], [tuple(o) for o in e["options"]]))
    assert first == [(1, [("chow", 12)]), (2, [("pung",)])]
    # without the pung, the chow is made
    pols = [Script("5p"), Script(claims=("chow",)), Script(), Script()]
    st = play_hand(name, pols, wall=wall, dealer=0, log=True)
    call = [e for e in st.events if e["e"] == "call"][0]
    assert call["seat"] == 1 and call["kind"] == "chow" and call["start"] == 12


def test_robbing_an_added_kong():
    # seat 1 pungs seat 0's 5p, later draws the 4th 5p and adds it to the pung;
    # seat 3 (46p, waiting on 5p) passed the first 5p and robs the kong
    hands = ["147m39p5p1258s2567z", "258m1557p3469s56z", "369m268p12379s47z",
             "46p11122233344z"]
    wall = _wall("guangdong", hands, draws="9m8m1p5p")
    pols = [Script("5p"), Script("3s", claims=("pung",), declares=("added_kong",)), Script(),
            Script(skip_wins=1)]
    st = play_hand("guangdong", pols, wall=wall, dealer=0)
    assert [(w["seat"], w["how"], w["discarder"]) for w in st.wins] == [(3, "robbing_kong", 1)]
    r = st.wins[0]["result"]
    assert r.context.kong and not r.context.self_drawn
    # the robbed kong is a pung again; every tile still accounted for
    assert [m["kind"] for m in st.seats[1].melds] == ["pung"]
    _check_hand(st)


def test_must_open():
    # the dealer's 14 dealt tiles are complete and closed: a win under 推倒胡 (天和),
    # none under 沈阳 (开门: a pung or exposed kong first)
    hands = ["123m456p789s111z99m", "258m1357p3469s56z", "369m268p12378s47z",
             "47m39p1s22233344z"]
    for name, can in (("guangdong", True), ("shenyang", False)):
        wall = _wall(name, hands)
        pols = [Script(), Script(), Script(), Script()]
        st = play_hand(name, pols, wall=wall, dealer=0, log=True)
        first = []
        for e in st.events:
            if e["e"] == "discard":
                break
            if e["e"] == "declare" and e["seat"] == 0:
                first = e["options"]
        assert (["win"] in first) == can
        if can:
            assert st.wins[0]["seat"] == 0 and st.wins[0]["how"] == "self_draw"


def test_wall_end_keeps_tiles_back():
    # 台湾: 16 tiles stay in the wall; 西安: 26 / 14 / 16 / 26 by kongs
    for name in ("taiwan", "xian"):
        rs = rules.get(name)
        seen = 0
        for h in range(30):
            st = play_hand(name, "random", seed=8, hand=h)
            if st.end_reason == "wall":
                exp = sum(s.n_kongs_exposed for s in st.seats)
                con = sum(s.n_kongs_concealed for s in st.seats)
                assert st.wall_left == rs.wall_end.kept_tiles(exp, con)
                seen += 1
        assert seen


def test_flowers_and_jokers():
    # mcr: flowers are set aside (never in a hand) and counted in the win context
    for h in range(10):
        st = play_hand("mcr", "random", seed=2, hand=h)
        for s in st.seats:
            assert all(t >= 34 for t in s.flowers)
        assert sum(len(s.flowers) for s in st.seats) + sum(
            1 for t in st.wall[st.head:st.tail + 1] if t >= 34) == 8
        for w in st.wins:
            assert w["check"][2]["flowers"] == len(st.seats[w["seat"]].flowers)
    # 'next' jokers: the kind after the turned indicator is wild
    st = play_hand("anqing", "efficiency", seed=3, hand=0, log=True)
    ev = [e for e in st.events if e["e"] == "jokers"][0]
    assert ev["joker"] == rules.get("anqing").joker_kind(ev["indicator"])
    # 'turned' jokers (罗源): the turned kind itself, its 3 other copies wild
    st = play_hand("luoyuan", "efficiency", seed=3, hand=0, log=True)
    ev = [e for e in st.events if e["e"] == "jokers"][0]
    assert ev["joker"] == ev["indicator"]


# ---------------------------------------------------------------- PyMahjongGB
def _gb_compare(n_hands, seed):
    MahjongGB = pytest.importorskip("MahjongGB")
    from bench_scoring import Case, gb_fans
    from majiang.scoring import candidates
    rs = rules.get("mcr")
    calc = MahjongGB.MahjongFanCalculator
    n_wins = 0
    bad = []
    for h in range(n_hands):
        st = play_hand("mcr", "efficiency", seed=seed, hand=h)
        for w in st.wins:
            hand, tile, kw = w["check"]
            case = Case(hand, tile, kw["self_drawn"], kw["last_copy"], kw["kong"],
                        kw["last_tile"], kw["seat_wind"], kw["prevalent_wind"], kw["flowers"],
                        "simulated")
            ours = {f.chinese: f.count for f in w["result"].fans}
            g = gb_fans(calc, case)
            n_wins += 1
            if isinstance(g, str):
                bad.append((str(hand), tile, kw, ours, g))
                continue
            theirs = {rs.fan(name).chinese: c for name, c in g.items()}
            if theirs == ours:
                continue
            total2 = sum(rs.fan(k).value * c for k, c in theirs.items())
            tie = total2 == w["total"] and any(
                t == total2 and {rs.fan(k).chinese: c for k, c in counts.items()} == theirs
                for t, counts, _ in candidates(hand, tile, **{k: v for k, v in kw.items()
                                                               if k not in ("ruleset", "jokers",
                                                                            "win_is_joker")}))
            if not tie:
                bad.append((str(hand), tile, kw, ours, theirs))
    return n_wins, bad


def test_simulated_mcr_wins_agree_with_pymahjonggb():
    n_wins, bad = _gb_compare(40, seed=31)
    assert n_wins >= 20
    assert not bad, bad[:3]


@pytest.mark.slow
def test_many_simulated_mcr_wins_agree_with_pymahjonggb():
    n_wins, bad = _gb_compare(11500, seed=32)
    assert n_wins >= 10000
    assert not bad, bad[:3]


def test_deal_shanten_distribution_matches_starting_hand_shanten():
    from majiang.probability import starting_hand_shanten
    n = 3000
    for name in ("guangdong", "mcr"):
        got = Counter()
        for h in range(n):
            st = play_hand(name, "random", seed=77, hand=h, deal_only=True)
            p = (st.dealer + 1) % 4          # a non-dealer's 13 tiles
            got[efficiency.shanten(st.start_hands[p], forms=rules.get(name).forms)] += 1
        ref = starting_hand_shanten(20000, ruleset=name, seed=5)
        for _, row in ref.iterrows():
            f = got[int(row["shanten"])] / n
            se = np.sqrt(row["fraction"] * (1 - row["fraction"]) / n + row["se"] ** 2)
            assert abs(f - row["fraction"]) <= 5 * se + 1e-9, (name, row["shanten"], f,
                                                                row["fraction"])


def test_passed_win_is_locked_until_the_own_turn():
    # seat 1 waits on 5p/8p and passes seat 0's 5p, which seat 3 pungs; seat 3 then
    # discards 8p before seat 1 has played again: 不能弃先和后 (山东) locks only the
    # passed kind, so seat 1 wins on 8p; 漏和 (广东) locks every discard win
    hands = ["23m12359p1357s577z", "123456789m67p99s", "147m149p2569s235z",
             "369m558p248s1467z"]
    for name, wins_8p in (("shandong", True), ("guangdong", False)):
        wall = _wall(name, hands)
        pols = [Script("5p"), Script(skip_wins=1), Script(), Script("8p", claims=("pung",))]
        st = play_hand(name, pols, wall=wall, dealer=0, log=True)
        offers = [e for e in st.events if e["e"] == "claim" and e["seat"] == 1]
        assert ["win"] in offers[0]["options"] and offers[0]["choice"] is None
        assert [e for e in st.events if e["e"] == "pass_win"][0]["seat"] == 1
        call = [e for e in st.events if e["e"] == "call"][0]
        assert (call["seat"], call["kind"], call["tile"]) == (3, "pung", 13)
        if wins_8p:
            assert [(w["seat"], w["tile"], w["discarder"]) for w in st.wins] == [(1, 16, 3)]
        else:
            assert not any(w["seat"] == 1 and w["tile"] == 16 and w["discarder"] == 3
                           for w in st.wins)
            i = next(i for i, e in enumerate(st.events)
                     if e["e"] == "discard" and e["seat"] == 3 and e["tile"] == 16)
            for e in st.events[i + 1:]:
                if e["e"] == "draw":
                    break
                assert not (e["e"] == "claim" and e["seat"] == 1 and ["win"] in e["options"])
    # without such a rule (default: 四川 has none) the same tile could be won again
    assert play_hand("sichuan", "random", seed=1, deal_only=True).pass_lock is None


# ---------------------------------------------------------------- compiled loop
@pytest.mark.parametrize("name", [n for n in COMPLETE if _fast(n)])
def test_compiled_loop_plays_the_same_hands_as_the_python_loop(name):
    n = rules.get(name).players
    for pl in ("random", "efficiency"):
        for h in range(6):
            a = play_hand(name, (pl,) * n, seed=17, hand=h, engine="python")
            b = play_hand(name, (pl,) * n, seed=17, hand=h, engine="compiled")
            assert summarize(a) == summarize(b), (name, pl, h)
            assert [w["check"][2] for w in a.wins] == [w["check"][2] for w in b.wins]
            _check_hand(b)
    mixed = ("random", "efficiency") * (n // 2) + ("efficiency",) * (n % 2)
    for h in range(4):
        a = play_hand(name, mixed, seed=18, hand=h, engine="python")
        b = play_hand(name, mixed, seed=18, hand=h, engine="compiled")
        assert summarize(a) == summarize(b)


def _five_bound_hands(names, hands, players=("efficiency", "random")):
    # the same hands (summaries: moves, wins, settlement) with the shanten kernel's
    # five-set table path on and off (off: every 16-tile hand by the direct programme)
    from majiang._core import efficiency as ek
    try:
        for name in names:
            for pl in players:
                for h in range(hands):
                    got = []
                    for on in (False, True):
                        ek.set_five_bound(on)
                        got.append(summarize(play_hand(name, pl, seed=23, hand=h)))
                    assert got[0] == got[1], (name, pl, h)
    finally:
        ek.set_five_bound(True)


def test_sixteen_tile_hands_same_with_the_five_set_table_path():
    _five_bound_hands(("taiwan",), 12)


@pytest.mark.slow
def test_sixteen_tile_hands_same_with_the_five_set_table_path_many():
    _five_bound_hands(("taiwan", "luoyuan", "wenzhou"), 300, ("efficiency",))


def test_compiled_loop_on_hand_built_walls():
    wall = _wall("guangdong", _MULTI)
    for pl in ("random", "efficiency"):
        a = play_hand("guangdong", pl, wall=wall, dealer=0, engine="python")
        b = play_hand("guangdong", pl, wall=wall, dealer=0, engine="compiled")
        assert summarize(a) == summarize(b)
    with pytest.raises(RuleError, match="compiled"):
        play_hand("anqing", "random", engine="compiled")     # a substitute joker tile


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_both_loops_refuse_a_wall_without_each_tile_once(engine):
    # one check for both loops: the tile set (mcr: 136 tiles, 8 flowers 34..41) once each
    good = np.concatenate([np.repeat(np.arange(34), 4), np.arange(34, 42)]).astype(np.int16)
    assert play_hand("mcr", "random", wall=good, dealer=0, engine=engine).wins is not None
    twice = good.copy()
    twice[0] = twice[-1]                  # a flower twice, 1m three times
    short = good[:-1]                     # a flower missing
    for bad in (twice, short, np.append(good, 5)):
        with pytest.raises(RuleError, match=r"exactly once \(144 tiles"):
            play_hand("mcr", "random", wall=bad, dealer=0, engine=engine)


@pytest.mark.parametrize("ghost", ["flip", "white"])
def test_compiled_loop_with_jokers(ghost):
    rs = rules.BUILDERS["guangdong"](ghost=ghost)
    for pl in ("random", "efficiency"):
        for h in range(8):
            a = play_hand(rs, pl, seed=5, hand=h, engine="python")
            b = play_hand(rs, pl, seed=5, hand=h, engine="compiled")
            assert summarize(a) == summarize(b)
            _check_hand(b)
            if ghost == "flip":
                assert b.jk == rs.joker_kind(b.indicator)


def test_bot_ukeire_restricted_to_near_kinds_is_exact():
    # the bots count ukeire only over kinds near the hand and skip discards whose
    # ukeire bound cannot win; trying every discard and all 34 kinds gives the same
    # choice and the same (shanten, ukeire) on random hands of every size
    from majiang._core import game as cg
    rng = np.random.default_rng(1)
    tiles = np.repeat(np.arange(34), 4)
    vis = np.zeros(34, np.uint8)
    try:
        for mask in (1, 3, 5, 7, 31):
            so = cg.ShapeOpts(mask, False, None, (1 << 34) - 1, 0)
            for _ in range(1500 if mask != 31 else 400):
                n = int(rng.choice([2, 5, 8, 11, 14]))
                h = np.bincount(rng.choice(tiles, n, replace=False), minlength=34).astype(
                    np.uint8)
                h13 = h.copy()
                h13[np.flatnonzero(h)[0]] -= 1
                got = []
                for near in (True, False):
                    cg.set_near(near)
                    cg.set_prune(near)
                    cg.set_rows(near)           # the draws by table rows vs a call each
                    got.append((cg.choose_discard(h, so, 0, vis), cg.evaluate(h13, so, 0, vis)))
                assert got[0] == got[1], (mask, h)
    finally:
        cg.set_near(True)
        cg.set_prune(True)
        cg.set_rows(True)


def test_lone_tiles_rule_out_a_hand_one_tile_short():
    # the compiled loop skips the win check of a hand with two lone tiles (held once,
    # nothing of the suit within two ranks; an honor held once): no hand of 3n+1
    # tiles with two of them is one tile short of sets + a pair or of seven pairs
    from majiang._core import game as cg
    rng = np.random.default_rng(5)
    tiles = np.repeat(np.arange(34), 4)
    so = cg.ShapeOpts(3, False, None, (1 << 34) - 1, 0)
    seen = Counter()
    for i in range(6000):
        n = int(rng.choice([1, 4, 7, 10, 13]))
        if i % 2:                     # near-complete hands: a complete one less a tile
            h = np.zeros(34, np.int64)
            for _ in range(n // 3):
                k = int(rng.integers(34))
                if k < 27 and k % 9 < 7 and rng.random() < 0.6:
                    h[k:k + 3] += 1
                else:
                    h[k] += 3
            h[int(rng.integers(34))] += 2
            h[int(rng.choice(np.flatnonzero(h)))] -= 1
            if h.max() > 4:
                continue
            h = h.astype(np.uint8)
        else:
            h = np.bincount(rng.choice(tiles, n, replace=False), minlength=34).astype(np.uint8)
        lone = sum(1 for k in range(34) if h[k] == 1 and (
            k >= 27 or not any(h[j] for j in range(max(k - 2, 9 * (k // 9)),
                                                    min(k + 3, 9 * (k // 9) + 9)) if j != k)))
        assert min(cg.lone_tile_count(h), 2) == min(lone, 2), h
        if lone >= 2:
            assert cg.shanten(h, so, 0) >= 1, h
        seen[(lone >= 2, cg.shanten(h, so, 0) <= 0)] += 1
    assert seen[(False, True)] and seen[(True, False)]


def test_hand_stream_is_numpys():
    # the seed words and the wall shuffle computed in C are numpy's: the same PCG64
    # state as SeedSequence(seed, spawn_key=(hand,)), the same wall as
    # Generator.permutation, and the stream left where numpy leaves it
    from majiang.game.engine import build_wall, hand_bit_generator
    m = game_model("taiwan")                 # 144 tiles with flowers
    tiles = np.sort(np.asarray(build_wall(m, np.random.default_rng(0))))
    for seed in (0, 7, 2**32 - 1, 2**32, 2**64 + 5, 2**130 + 3):
        for h in (0, 1, 199, 2**32 + 7):
            ref = np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(h,)))
            bg = hand_bit_generator(seed, h)
            assert bg.state == ref.state
            g, gr = np.random.Generator(bg), np.random.Generator(ref)
            w = build_wall(m, g)
            assert w.dtype == np.int16 and np.array_equal(w, gr.permutation(tiles))
            assert g.integers(1 << 40) == gr.integers(1 << 40)
    kids = hand_bit_generator(3, 4).seed_seq.spawn(2)
    assert np.array_equal(kids[1].generate_state(4),
                          np.random.SeedSequence(3, spawn_key=(4,)).spawn(2)[1].generate_state(4))


def test_botzone_records_of_simulated_hands_replay_and_rescore():
    from majiang import records
    from majiang.game import write_botzone
    from majiang.review import score_win
    t = simulate("mcr", 30, seed=3, logs=True)
    text = write_botzone(t)
    games = records.parse_games(text)
    assert len(games) == 30
    checked = 0
    for g in games:
        for _ in records.replay(g):          # consistent event by event
            pass
        for w in records.wins(g):
            recorded = dict(w.fans)
            if {"海底捞月", "妙手回春"} & set(recorded):
                continue     # the record's wall model cannot tell the last tile
            r = score_win(w)
            assert {f.chinese: f.count for f in r.fans} == recorded
            assert r.total == w.fan_total
            checked += 1
    assert checked >= 15
    with pytest.raises(RuleError, match="log"):
        write_botzone(simulate("mcr", 1, seed=3))


def test_sichuan_end_checks():
    # 查花猪 / 查大叫 at a drawn 四川 end, re-derived by brute force over every tile
    check_win = _check_win_fn()
    rs = rules.get("sichuan")
    seen = Counter()
    for h in range(150):
        for engine in ("compiled", "python"):
            st = play_hand("sichuan", "efficiency" if h % 4 == 0 else "random", seed=6,
                           hand=h, engine=engine)
            if engine == "compiled":
                ref = summarize(st)
            else:
                assert summarize(st) == ref
        assert sum(st.deltas) == 0
        ends = [c for c in st.end_checks if c["check"] in ("查花猪", "查大叫")]
        if st.end_reason != "wall":
            assert ends == []
            continue
        won = {w["seat"] for w in st.wins}
        part = [q for q in range(4) if q not in won]
        suits, best = {}, {}
        for q in part:
            s = st.seats[q]
            kinds = set(np.flatnonzero(s.phys)) | {t for m in s.melds for t in m["tiles"]}
            suits[q] = {int(k) // 9 for k in kinds}
            hand = Hand(s.phys, tuple(majiang.Meld(m["kind"], m["tile"], m["concealed"])
                                      for m in s.melds))
            vals = [check_win(hand, k, ruleset=rs, self_drawn=False,
                              seat_wind=(q - st.dealer) % 4, prevalent_wind=st.prevalent)
                    for k in range(27) if hand.all_counts[k] < 4]
            best[q] = max([v.result.points for v in vals if v.valid], default=0)
        pigs = {q for q in part if len(suits[q]) == 3}
        expect = [("查花猪", q, r, 16) for q in sorted(pigs) for r in part
                  if r != q and r not in pigs]
        ready = [q for q in part if q not in pigs and best[q] > 0]
        expect += [("查大叫", q, r, best[r]) for q in part if q not in pigs and q not in ready
                   for r in ready]
        got = [(c["check"], c["payer"], c["payee"], c["amount"]) for c in ends]
        assert got == expect
        seen.update(c[0] for c in got)
    assert seen["查大叫"] > 0 and seen["查花猪"] > 0


def test_exchange_three():
    # 换三张: each seat passes three tiles of one suit, all in one direction; both loops
    # play the same hands and the log replays
    dirs = Counter()
    for h in range(24):
        pl = "random" if h % 2 else "efficiency"
        a = play_hand("sichuan", pl, seed=9, hand=h, engine="python", exchange3=True,
                      log=True)
        b = play_hand("sichuan", pl, seed=9, hand=h, engine="compiled", exchange3=True)
        assert summarize(a) == summarize(b)
        assert summarize(replay(to_jsonl(a.events))) == summarize(a)
        _check_hand(b)
        deal = next(e for e in a.events if e["e"] == "deal")
        start = next(e for e in a.events if e["e"] == "start")
        gives = {e["seat"]: e["tiles"] for e in a.events if e["e"] == "exchange"}
        d = next(e for e in a.events if e["e"] == "exchange_direction")["direction"]
        dirs[d] += 1
        step = (1, 3, 2)[d]
        for p in range(4):
            assert len(gives[p]) == 3 and len({t // 9 for t in gives[p]}) == 1
            got = Counter(deal["hands"][p])
            got.subtract(gives[p])
            got.update(gives[(p - step) % 4])
            assert +got == Counter(start["hands"][p])
    assert len(dirs) == 3


class TsumogiriPolicy:
    """A user policy: discards its drawn tile (else its first legal tile), never
    claims or declares, wins whenever it may."""

    def discard(self, view):
        legal = view.legal_discards
        return view.drawn if view.drawn in legal else legal[0]

    def claim(self, view, options):
        return ("win",) if ("win",) in options else None

    def declare(self, view, options):
        return ("win",) if ("win",) in options else None


def test_user_policies_in_simulate():
    players = (TsumogiriPolicy(), "efficiency", "random", "efficiency")
    a = simulate("guangdong_jipinghu", 60, players=players, seed=2, n_jobs=1)
    b = simulate("guangdong_jipinghu", 60, players=players, seed=2, n_jobs=2)
    pd.testing.assert_frame_equal(a, b)
    assert all(sum(d) == 0 for d in a["score_deltas"])
    assert all(c[0] == 0 for c in a["calls"])          # the policy never claims


def test_hand_seeds_are_spawned_children():
    from majiang.game.engine import hand_seed_sequence
    kids = np.random.SeedSequence(1234).spawn(6)
    for h in (0, 5):
        a = hand_seed_sequence(1234, h).generate_state(4)
        assert np.array_equal(a, kids[h].generate_state(4))
        b = hand_seed_sequence(np.random.SeedSequence(1234), h).generate_state(4)
        assert np.array_equal(b, a)


def test_knitted_lower_bound():
    # the bots skip the knitted forms when this bound shows they cannot do better
    from majiang._core import game as cg
    rng = np.random.default_rng(3)
    tiles = np.repeat(np.arange(34), 4)
    for i in range(4000):
        if i % 2:
            pat = rng.permutation(3)
            pool = [9 * pat[r % 3] + r for r in range(9)] + list(range(27, 34)) * 2
            h = np.bincount(rng.choice(pool, 14, replace=False), minlength=34)
        else:
            h = np.bincount(rng.choice(tiles, 14, replace=False), minlength=34)
        h = h.astype(np.uint8)
        if i % 3 == 0:
            h[np.flatnonzero(h)[0]] -= 1          # 13 tiles
        for mask in (8, 16):
            so = cg.ShapeOpts(mask, False, None, (1 << 34) - 1, 0)
            assert cg.knitted_lower_bound(h, mask, 0) <= cg.shanten(h, so, 0)

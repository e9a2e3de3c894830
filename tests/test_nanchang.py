"""南昌 honour chows (rules/nanchang.py, docs/rules/nanchang.md §1 "Calls"): three different
winds (any three of 东南西北) or the three dragons (中发白) are a chow, concealed or claimed
from the seat before.  Every expected value below is derived by hand from that rule or by
the brute-force enumeration written here, never read from the library's own output."""
from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np
import pytest

import majiang
from majiang import InvalidHandError, InvalidNotationError, RuleError
from majiang._core import decompose as _decompose
from majiang.game.engine import play_hand
from majiang.game.engine.fast import fast_eligible
from majiang.hand import HONOR_CHOW_STARTS, Meld, chow_tiles, chows_holding, honor_chow_start
from majiang.rules import nanchang as N
from majiang.rules.model import rule_spec
from majiang.rules.shapes import ruleset_shanten
from majiang.scoring import check_win
from majiang.tiles import parse_tiles

from _engine_helpers import Script, build_test_wall, check_settlement

E, S, W, NO, WH, GR, RD = range(27, 34)     # 1z..7z: 东 南 西 北, then the three dragons
NC_PLAIN = N.build(honor_chows=False)       # the same ruleset without honour chows


# ---------------------------------------------------------------- the sets themselves
def test_honour_chows_are_the_five_sets_of_the_rule():
    # any three of the four winds (C(4, 3) = 4) and the three dragons: 5 honour chows
    sets = {frozenset(chow_tiles(s)) for s in HONOR_CHOW_STARTS}
    assert sets == {frozenset(x) for x in ((E, S, W), (E, S, NO), (E, W, NO), (S, W, NO),
                                           (WH, GR, RD))}
    for s in HONOR_CHOW_STARTS:
        assert honor_chow_start(chow_tiles(s)) == s
    assert honor_chow_start((E, S, WH)) is None and honor_chow_start((E, E, S)) is None
    # a wind is in three wind chows, a dragon in the one dragon chow; none without the rule
    assert len(chows_holding(E, True)) == 3 and chows_holding(GR, True) == (31,)
    assert chows_holding(E) == () and chows_holding(4) == (2, 3, 4)


def test_honour_chow_melds_parse_and_print():
    h = majiang.parse_hand("123m456p55s [134z] [567z]")
    assert [sorted(m.tiles) for m in h.melds] == [[E, W, NO], [WH, GR, RD]]
    assert str(h.melds[0]) == "[134z]" and all(m.kind == "chow" for m in h.melds)
    with pytest.raises(InvalidNotationError):
        majiang.parse_hand("123m456p55s [125z] [567z]")      # two winds and a dragon
    with pytest.raises(InvalidHandError):
        Meld("chow", RD)                                       # no chow starts at 7z


# ---------------------------------------------------------------- complete hands
@pytest.mark.parametrize("hand, win", [
    ("123m456p789s12z55m", "3z"),       # 东南 + 西: a wind chow
    ("123m456p789s24z55m", "1z"),       # 南北 + 东 (北东南)
    ("123m456p789s56z55m", "7z"),       # 白发 + 中: the dragon chow
])
def test_a_hand_complete_only_with_an_honour_chow(hand, win):
    # 123m 456p 789s 55m and one honour chow: under the ruleset's rule a win; the same
    # hand with suited chows only (no honour chow) has no decomposition
    assert check_win(hand, win, ruleset="nanchang", self_drawn=True).valid
    assert not check_win(hand, win, ruleset=NC_PLAIN, self_drawn=True).valid
    assert not check_win(hand, win, ruleset="mcr", self_drawn=True).valid
    r = majiang.score(hand, win, ruleset="nanchang", self_drawn=True)
    assert r.form == "regular"
    kinds = {k for k, t in r.decomposition.sets}
    assert kinds == {"chow"}                 # four chows (three suited, one honour) + 55m


def test_four_different_winds():
    # 13 tiles 123m456p789s + 东南西北: a single wind pairs with its copy and the other
    # three make a chow, so every wind is a wait (4 kinds) and nothing else (five honours
    # are a set and a pair only with a pair among them)
    hand = "123m456p789s1234z"
    assert majiang.waits(hand, ruleset="nanchang") == ["1z", "2z", "3z", "4z"]
    assert ruleset_shanten(hand, rule_spec("nanchang").ruleset) == 0
    # without honour chows four lone winds are two tiles from ready (3 sets, 4 singles:
    # 8 - 2 x 3 = 2)
    assert majiang.shanten(hand) == 2
    assert majiang.waits(hand, ruleset="mcr") == []
    # 1122334z4z (each wind twice): the pair is any wind, the other three winds twice make
    # two identical chows: four readings of 123m 456p + 2 chows + a pair
    c = np.zeros(34, np.uint8)
    for t in parse_tiles("123m456p11223344z"):
        c[t] += 1
    got = _decompose.regular_decompositions(c, 4, True)
    assert sorted(p for p, _ in got) == [E, S, W, NO]
    for pair, sets in got:
        rest = [w for w in (E, S, W, NO) if w != pair]
        honour = [t for k, t in sets if t >= 27]
        assert len(honour) == 2 and set(chow_tiles(honour[0])) == set(rest)
    assert _decompose.regular_decompositions(c, 4) == []          # no honour chows: none


def test_an_honour_chow_spoils_all_pungs():
    # [567z] [124z] are chows: not 大七对 (碰碰胡); with pungs of honours it is
    r = majiang.score("1m [567z] [124z] [222p] [333s]", "1m", ruleset="nanchang",
                      self_drawn=True)
    assert "大七对" not in r
    r = majiang.score("1m [555z] [444z] [222p] [333s]", "1m", ruleset="nanchang",
                      self_drawn=True)
    assert "大七对" in r


def test_jokers_fill_an_honour_chow():
    # 12z + a wild 精 (indicator 9m: 9m / 1m wild, written *): the 精 stands for 3z or 4z
    r = majiang.score("5m 12z567z222p333s*", "5m", ruleset="nanchang", self_drawn=True)
    assert r.form == "regular" and not check_win(
        "5m 12z567z222p333s*", "5m", ruleset=NC_PLAIN, self_drawn=True).valid


# ---------------------------------------------------------------- shanten by brute force
_UNIVERSE = list(range(9)) + list(range(27, 34))      # 1m..9m and the honours


def _targets(n_sets: int, honour_chows: bool, caps: np.ndarray):
    """Every complete target (``n_sets`` sets and a pair) on 1m..9m and the honours, as
    rows of 34 counts within ``caps``: a hand on these kinds keeps most with such a target
    (a set or pair elsewhere keeps none of it and one here with room always exists)."""
    sets = []
    for k in _UNIVERSE:
        v = np.zeros(34, np.int8)
        v[k] = 3
        sets.append(v)
    for s in range(7):
        v = np.zeros(34, np.int8)
        v[[s, s + 1, s + 2]] = 1
        sets.append(v)
    if honour_chows:
        for trio in ((E, S, W), (E, S, NO), (E, W, NO), (S, W, NO), (WH, GR, RD)):
            v = np.zeros(34, np.int8)
            v[list(trio)] = 1
            sets.append(v)
    S_ = np.array(sets)
    rows = [S_[list(c)].sum(0) if c else np.zeros(34, np.int8)
            for c in combinations_with_replacement(range(len(sets)), n_sets)]
    base = np.array(rows, dtype=np.int8)
    out = []
    for p in _UNIVERSE:
        t = base.copy()
        t[:, p] += 2
        out.append(t[(t <= caps).all(1)])
    return np.concatenate(out)


@pytest.fixture(scope="module")
def targets4():
    return _targets(4, True, np.full(34, 4, np.int8))


def _brute_shanten(h: np.ndarray, T: np.ndarray) -> int:
    """``need - kept - 1``: the regular shanten as the least tiles to change (need = the
    tiles of a complete concealed part)."""
    need = 3 * ((int(h.sum()) - 2) // 3 if h.sum() % 3 == 2 else int(h.sum()) // 3) + 2
    kept = int(np.minimum(T, h).sum(1).max())
    return need - kept - 1


def test_shanten_equals_a_brute_force_enumeration(targets4):
    rs = rule_spec("nanchang").ruleset
    rng = np.random.default_rng(20)
    pool = np.repeat(np.array(_UNIVERSE), 4)
    for i in range(40):
        n = 13 if i % 2 else 14
        h = np.bincount(rng.choice(pool, n, replace=False), minlength=34).astype(np.uint8)
        want = _brute_shanten(h, targets4)
        for engine in ("core", "python"):
            got = ruleset_shanten(h, rs, per_form=True, engine=engine)["regular"]
            assert got == want, (engine, h.nonzero(), got, want)


def test_shanten_with_an_honour_chow_meld_equals_the_brute_force():
    rs = rule_spec("nanchang").ruleset
    caps = np.full(34, 4, np.int8)
    caps[[E, W, NO]] -= 1                                     # the meld [134z]
    T = _targets(3, True, caps)
    rng = np.random.default_rng(7)
    pool = np.repeat(np.array(_UNIVERSE), 4)
    for _ in range(12):
        while True:
            h = np.bincount(rng.choice(pool, 10, replace=False), minlength=34)
            if (h <= caps).all():
                break
        text = majiang.tiles.format_counts(h.astype(np.uint8)) + " [134z]"
        want = _brute_shanten(h.astype(np.uint8), T)
        got = ruleset_shanten(text, rs, per_form=True)["regular"]
        assert got == want


# ---------------------------------------------------------------- the game loops
def test_an_honour_chow_is_claimed_from_the_seat_before_only():
    # indicator 9p (9p, 1p wild: kept out of the hands); the dealer discards 东 first;
    # seat 1 (after the dealer) holds 南西北: three wind chows hold 东 (东南西, 西北东,
    # 北东南); seat 2 holds 东东南西 (offered the pung, which it passes), not the seat after
    # the discarder: no chow for it
    hands = ["1z123m456m789m2345p", "234z123s456s789s6p", "11z23z123s567s668p",
             "556677z234m44p3s8m"]
    wall = build_test_wall("nanchang", hands, tail="9p")
    pols = [Script("1z"), Script(claims=("chow",)), Script(), Script()]
    st = play_hand("nanchang", pols, wall=wall, dealer=0, engine="python", log=True)
    first = [opts for kind, opts in pols[1].seen if kind == "claim"][0]
    assert sorted(o[1] for o in first if o[0] == "chow") == [E, W, NO]   # starts 27, 29, 30
    second = [opts for kind, opts in pols[2].seen if kind == "claim"][0]
    assert ("pung",) in second and not any(o[0] == "chow" for o in second)
    call = next(e for e in st.events if e["e"] == "call")
    assert (call["seat"], call["kind"], call["frm"], call["start"]) == (1, "chow", 0, E)
    assert sorted(st.seats[1].melds[0]["tiles"]) == [E, S, W]
    check_settlement(st)
    # the position rebuilt from the log after the call: seat 1 holds [123z] and 北, its
    # 南 / 西 gone (13 tiles: 10 concealed + the meld)
    step = next(i for i, e in enumerate(st.events) if e["e"] == "call") + 1
    pos = majiang.Position.from_log(st.events, step, seat=1)
    assert [sorted(m.tiles) for m in pos.own_melds] == [[E, S, W]]
    assert pos.hand.concealed[NO] == 1 and not pos.hand.concealed[S] \
        and not pos.hand.concealed[W]


def test_both_loops_zero_sum_and_the_compiled_loop_leaves_nanchang_alone():
    model = rule_spec("nanchang")
    # the compiled loop knows suited chows only: nanchang (and its 十三烂) play in Python
    assert not fast_eligible(model, ["efficiency"] * 4)
    with pytest.raises(RuleError, match="honour chows"):
        play_hand("nanchang", "efficiency", engine="compiled")
    chows = 0
    for seed in range(30):
        st = play_hand("nanchang", "efficiency", seed=seed, log=True)
        check_settlement(st)
        for e in st.events:
            if e["e"] == "call" and e["kind"] == "chow" and e["start"] >= 27:
                chows += 1
                assert e["frm"] == (e["seat"] - 1) % 4
    assert chows > 0            # the bots do claim honour chows
    # the compiled loop on a ruleset it plays: still zero-sum
    for seed in range(30):
        assert sum(play_hand("mcr", "efficiency", seed=seed).deltas) == 0


# ---------------------------------------------------------------- other rulesets unchanged
def test_other_rulesets_play_no_honour_chows():
    assert not rule_spec("mcr").honor_chows and rule_spec("nanchang").honor_chows
    assert not rule_spec(NC_PLAIN).honor_chows
    # 123z is no set under mcr: 123m456p789s + 123z + 55m is not a win there
    assert not check_win("123m456p789s12z55m", "3z", ruleset="mcr", self_drawn=True).valid
    for rs in ("mcr", "plain", "guangdong"):
        with pytest.raises(RuleError):
            majiang.score("1m [567z] [124z] [222p] [333s]", "1m", ruleset=rs, self_drawn=True)
        with pytest.raises(RuleError):
            majiang.shanten("1m [567z] [124z] [222p] [333s]", ruleset=rs)
    # the honour chow claim is nanchang's only
    assert N.build(honor_chows=False).options["honor_chows"] is False
    assert "honour chows" not in " ".join(N.NANCHANG.missing)


def test_probability_reads_honour_chows():
    # 123m456p789s + 东南西北, indicator 6m (6m 正精, 7m 副精: all 8 copies wild, the
    # turned 6m back in play): 136 - 13 = 123 unseen tiles; a draw wins on any of the 12
    # winds left (each wind pairs, the other three chow) or any of the 8 wild tiles
    from majiang.probability import probabilities
    r = probabilities("123m456p789s1234z", 1, ruleset="nanchang", indicator="6m",
                      method="exact")
    assert r.p_win == pytest.approx(20 / 123) and r.p_tenpai == 1.0


def test_the_efficiency_bot_keeps_an_honour_chow():
    # the dealer holds 东南西 (a chow here) and lone tiles 147m 258p 369s + 99m: a bot by
    # the core's shapes throws a lone honour first (honours before terminals); by the
    # ruleset's shapes 东南西 is a complete set and a lone suited tile goes
    hands = ["123z147m258p369s99m", "456m456p456s4567z", "23m23p23s78m78p78s5z",
             "11s22s33s44s55s66m7z"]
    wall = build_test_wall("nanchang", hands, tail="9p")
    st = play_hand("nanchang", ["efficiency", Script(), Script(), Script()], wall=wall,
                   dealer=0, engine="python", log=True)
    first = next(e for e in st.events if e["e"] == "discard")
    assert first["seat"] == 0 and first["tile"] not in (E, S, W)
    st = play_hand(NC_PLAIN, ["efficiency", Script(), Script(), Script()], wall=wall,
                   dealer=0, engine="python", log=True)
    first = next(e for e in st.events if e["e"] == "discard")
    assert first["tile"] in (E, S, W)


def test_claim_advice_offers_the_honour_chows():
    # seat 0 holds 南西 and 北; the seat before (3) discards 东: the wind chows holding 东
    # with two held winds: 东南西 (南西), 北东南 (北南), 西北东 (西北) — three rows
    pos = majiang.Position("123m456p789s234z5m", ruleset="nanchang", indicator="9m",
                           discards=[None, None, None, "1z"])
    acts = set(majiang.advise_claim(pos)["action"])
    assert {"chow 1-2-3z", "chow 1-2-4z", "chow 1-3-4z"} <= acts
    plain = majiang.Position("123m456p789s234z5m", ruleset=NC_PLAIN, indicator="9m",
                             discards=[None, None, None, "1z"])
    assert not any(a.startswith("chow") for a in majiang.advise_claim(plain)["action"])


# ---------------------------------------------------------------- 抄庄 (docs/rules/nanchang.md §3)
def test_chao_zhuang_from_the_final_table():
    # BX: "在开局第一圈，庄家出的第一张牌，三个闲家在第一圈每人都出一张" — all three others
    # throw the dealer's first discard in the first go-around: the dealer pays 5 to each
    # (no 精 on the table: no 精分)
    from _engine_helpers import by_check, end_table
    t = end_table(end="wall", opening=((E, 3), (E, 5), (E,), (E, 7)))
    assert by_check(N.end_settlement(N.NANCHANG, t)) == {"抄庄": [(0, 1, 5), (0, 2, 5),
                                                                  (0, 3, 5)]}
    # the dealer in seat 2: he pays; a later go-around copied as well: still 5 each
    t2 = end_table(end="win", opening=((S, 1), (S, 1), (S, 1), (S, 1)), dealer=2)
    assert by_check(N.end_settlement(N.NANCHANG, t2)) == {"抄庄": [(2, 0, 5), (2, 1, 5),
                                                                   (2, 3, 5)]}
    # one seat threw another tile, or the option is off: nothing
    assert N.end_settlement(N.NANCHANG, end_table(opening=((E,), (E,), (W,), (E,)))) == []
    assert N.end_settlement(N.build(chao_zhuang=False), t) == []


def test_chao_zhuang_with_jing_scores():
    # 精 9p / 1p: seat 1 holds 9p 9p 1p (s = 2 + 2 + 1 = 5: 冲关 10, alone: 霸王 x2 = 20),
    # paid by each other seat; 抄庄 on top: the dealer pays 5 to each other seat
    from _engine_helpers import by_check, end_table
    p9, p1 = 17, 9
    t = end_table(end="wall", opening=((E,), (E,), (E,), (E,)), wild=(p9, p1),
                  tiles=({}, {p9: 2, p1: 1}, {}, {}))
    got = by_check(N.end_settlement(N.NANCHANG, t))
    assert got == {"冲关": [(0, 1, 20), (2, 1, 20), (3, 1, 20)],
                   "抄庄": [(0, 1, 5), (0, 2, 5), (0, 3, 5)]}


def _chao_wall():
    # each seat holds one 东 and no 精 (indicator 9p: 9p and 1p wild, kept out); nobody
    # holds two 东, so nobody can pung it
    hands = ["1z123m456m789m2345p", "1z234s567s23m678p4s", "2z1z345s678s23p567m",
             "1z4z456m789s23s78p"]
    return build_test_wall("nanchang", hands, tail="9p")


@pytest.mark.parametrize("dealer", [0, 1])
def test_chao_zhuang_in_play(dealer):
    # every seat throws 东 first: the dealer pays 5 to each at the end, win or not
    wall = _chao_wall()
    pols = [Script("1z") for _ in range(4)]
    st = play_hand("nanchang", pols, wall=wall, dealer=dealer, engine="python", log=True)
    firsts = {}
    for e in st.events:
        if e["e"] == "discard":
            firsts.setdefault(e["seat"], e["tile"])
    assert firsts == {0: E, 1: E, 2: E, 3: E}
    chao = [e for e in check_settlement(st) if e["check"] == "抄庄"]
    assert sorted((e["payer"], e["payee"], e["amount"]) for e in chao) == sorted(
        (dealer, q, 5) for q in range(4) if q != dealer)
    # the replayed log settles the same
    from majiang.game.logs import replay, summarize
    again = replay(st.events)
    assert summarize(again) == summarize(st)
    # seat 2 throws 南 first instead: the run is broken, no 抄庄
    st = play_hand("nanchang", [Script("1z"), Script("1z"), Script("2z"), Script("1z")],
                   wall=wall, dealer=0, engine="python")
    assert not [e for e in check_settlement(st) if e["check"] == "抄庄"]


def test_chao_zhuang_conservation_and_matches():
    # ~30 seeded hands a player kind: zero-sum, the end payments add up; a match of hands
    # carries the scores (their sum stays 0)
    for players in ("efficiency", "random"):
        for seed in range(15):
            st = play_hand("nanchang", players, seed=seed, hand=seed)
            for e in check_settlement(st):
                if e["check"] == "抄庄":
                    assert e["payer"] == st.dealer and e["amount"] == 5
    t = majiang.play_match("nanchang", hands=6, seed=3)
    assert all(sum(s) == 0 for s in t["scores"])


# ---------------------------------------------------------------- 冲关包赔 (docs/rules/nanchang.md §2)
P9, P1 = 17, 9                  # indicator 9p: 正精 9p, 副精 1p


def test_chong_guan_liability_from_the_final_table():
    # seat 1 holds 9p 9p 1p (s = 2 + 2 + 1 = 5: 冲关 5 x 2 = 10; alone: 霸王 x2 = 20),
    # one 9p claimed from seat 3's discard: seat 3 pays the 20 of each other seat, 60
    from _engine_helpers import by_check, end_table
    t = end_table(end="wall", wild=(P9, P1), tiles=({}, {P9: 2, P1: 1}, {}, {}),
                  supplied=((), ((P9, 3),), (), ()))
    assert by_check(N.end_settlement(N.NANCHANG, t)) == {"冲关包赔": [(3, 1, 20)] * 3}
    # the option off: each other seat pays its own 20
    assert by_check(N.end_settlement(N.build(chong_guan_bao=False), t)) == {
        "冲关": [(0, 1, 20), (2, 1, 20), (3, 1, 20)]}
    # the same tiles won on seat 0's 1p discard: seat 0 pays the 60
    t = end_table(end="win", wild=(P9, P1), tiles=({}, {P9: 2, P1: 1}, {}, {}),
                  supplied=((), ((P1, 0),), (), ()))
    assert by_check(N.end_settlement(N.NANCHANG, t)) == {"冲关包赔": [(0, 1, 20)] * 3}


def test_no_chong_guan_liability_without_chong_guan_or_a_supplied_jing():
    from _engine_helpers import by_check, end_table
    # s = 2 + 1 + 1 = 4 < 5: no 冲关 (4, 霸王 x2 = 8 from each), the claimed 9p changes nothing
    t = end_table(end="wall", wild=(P9, P1), tiles=({}, {P9: 1, P1: 2}, {}, {}),
                  supplied=((), ((P9, 3),), (), ()))
    assert by_check(N.end_settlement(N.NANCHANG, t)) == {
        "精分": [(0, 1, 8), (2, 1, 8), (3, 1, 8)]}
    # 冲关 but the tile taken from seat 3 is no 精 (5m): every seat pays its own 20
    t = end_table(end="wall", wild=(P9, P1), tiles=({}, {P9: 2, P1: 1}, {}, {}),
                  supplied=((), ((4, 3),), (), ()))
    assert by_check(N.end_settlement(N.NANCHANG, t)) == {
        "冲关": [(0, 1, 20), (2, 1, 20), (3, 1, 20)]}


def test_chong_guan_liability_names_the_first_supplier_and_leaves_other_holders():
    # seat 1: 9p x3 (s = 6: 冲关 6 x 3 = 18), taken: 5m from seat 0, 9p from seat 2, 9p
    # from seat 3 -> seat 2 (the first 精 taken) pays 3 x 18 = 54; seat 2 holds one 1p
    # (s = 1, no 霸王: two holders), paid 1 by each other seat
    from _engine_helpers import by_check, end_table
    t = end_table(end="wall", wild=(P9, P1), tiles=({}, {P9: 3}, {P1: 1}, {}),
                  supplied=((), ((4, 0), (P9, 2), (P9, 3)), (), ()))
    got = by_check(N.end_settlement(N.NANCHANG, t))
    assert got == {"冲关包赔": [(2, 1, 18)] * 3,
                   "精分": [(0, 2, 1), (1, 2, 1), (3, 2, 1)]}
    assert N.chong_guan_liable(N.NANCHANG, t) == {1: 2}


def _pung_jing_wall():
    # indicator 9p (9p, 1p wild); the dealer holds one 9p and throws it first; seat 1
    # holds 9p 9p 1p and punges it (passing the win it offers); nobody else holds a 精
    hands = ["9p1m2m4m5m7m8m2s3s5s6s1z2z3z", "99p1p123s456s78s5m7z",
             "3m6m9m4p7p2p5p3s6s1z2z3z4z", "1m2m4m7m2p5p8p1s4s7s5z6z2z"]
    return build_test_wall("nanchang", hands, tail="9p")


@pytest.mark.parametrize("bao", [True, False])
def test_chong_guan_liability_in_play(bao):
    # seat 1 ends with [999p] and 1p: s = 3 x 2 + 1 = 7 -> 冲关 7 x 4 = 28; alone
    # (seat 0's 9p was claimed, so it is not in its pool): 霸王 x2 = 56 from each other
    # seat; the 9p came from seat 0's discard: seat 0 pays all three shares, 168
    from _engine_helpers import by_check
    pols = [Script("9p"), Script("7z", claims=("pung",), skip_wins=1), Script(), Script()]
    rs = N.NANCHANG if bao else N.build(chong_guan_bao=False)
    st = play_hand(rs, pols, wall=_pung_jing_wall(), dealer=0, engine="python", log=True)
    call = next(e for e in st.events if e["e"] == "call")
    assert (call["seat"], call["kind"], call["tile"], call["frm"]) == (1, "pung", P9, 0)
    got = by_check(check_settlement(st))
    if bao:
        assert got["冲关包赔"] == [(0, 1, 56)] * 3 and "精分" not in got and "冲关" not in got
    else:
        assert got["冲关"] == [(0, 1, 56), (2, 1, 56), (3, 1, 56)] and "精分" not in got
    # the replayed log settles the same
    from majiang.game.logs import replay, summarize
    again = replay(st.events)
    assert summarize(again) == summarize(st) and again.end_checks == st.end_checks


def test_chong_guan_liability_conservation():
    # 30 seeded hands: zero-sum, the end payments add up; each 冲关包赔 payer supplied the
    # payee a 精 (a call on his discard or the discard won on) and the payee reached 冲关
    seen = 0
    for seed in range(30):
        st = play_hand("nanchang", "random", seed=seed, hand=seed, log=True)
        for e in check_settlement(st):
            if e["check"] != "冲关包赔":
                continue
            seen += 1
            a, b = e["payer"], e["payee"]
            took = [x for x in st.events if x["e"] == "call" and x["seat"] == b
                    and x["frm"] == a and x["tile"] in st.jks]
            took += [w for w in st.wins if w["seat"] == b and w.get("discarder") == a
                     and w["tile"] in st.jks]
            assert took
            s = st.seats[b]
            held = list(np.flatnonzero(s.phys).repeat(np.asarray(s.phys)[np.flatnonzero(
                s.phys)])) + [t for m in s.melds for t in m["tiles"]] + list(s.won_tiles)
            held += [w["tile"] for w in st.wins if w["seat"] == b and w["how"] == "discard"
                     and w["tile"] not in s.won_tiles] + list(s.discards)
            assert 2 * held.count(st.jks[0]) + held.count(st.jks[1]) >= 5
    assert seen > 0

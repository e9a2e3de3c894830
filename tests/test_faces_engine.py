"""Wild tiles by their faces at the front doors and in the game engine, and 南昌 精分 at
the end of every hand.

* ``majiang.score(..., indicator=)`` / ``check_win(..., indicator=)`` read the wild tiles
  by their faces and hand over to :func:`majiang.scoring.faces.score` (one path); the
  values checked are the worked examples of docs/rules/nanchang.md §4 / docs/rules/tianjin.md §5 and the fan
  values of docs/rules/nanchang.md §3 / docs/rules/tianjin.md §3, worked out by hand in the comments.
* The engine scores every win of a ruleset whose faces matter (南昌 德国, 天津 银杠胡 …)
  by the faces of the held tiles; each such win is recomputed here from the final table
  (the seat's physical tiles, its melds, the indicator of the log) with ``faces.score``.
* 南昌 精分 (docs/rules/nanchang.md §2): paid at the end of every hand through ``END_SETTLEMENTS``; checked
  against :func:`jing_scores` of holdings counted here from the seats, zero-sum, and the
  docs/rules/nanchang.md §4 example 2 on a constructed end table.
"""
from __future__ import annotations

import numpy as np
import pytest

import majiang
from majiang import InvalidHandError, RuleError, rules
from majiang.game.engine import play_hand
from majiang.hand import Hand, Meld
from majiang.rules import nanchang as N
from majiang.rules.base import END_SETTLEMENTS, EndTable
from majiang.scoring import check_win, faces
from majiang.scoring.faces import faces_matter
from majiang.tiles import parse_tile


# ====================================================================== front doors
def test_nanchang_example_3_through_the_front_door():
    """docs/rules/nanchang.md §4 example 3: a non-dealer self-draws 德国 七对 — each other non-dealer pays 21
    (自摸 2 · 德国 2 · 七对 2 · one more 2 = 16, + 5), the dealer 37 (2 · 16 + 5).
    Indicator 1m: 1m 正精, 2m 副精 — the 精 stand for their own faces."""
    r = majiang.score("1122m3344p5566s7z", "7z", ruleset="nanchang", indicator="1m",
                      self_drawn=True, seat_wind=1)
    assert r.points == 21 and "德国" in r
    assert r.settle(1) == (-37, 21 + 21 + 37, -21, -21)
    w = check_win("1122m3344p5566s7z", "7z", ruleset="nanchang", indicator="1m",
                  self_drawn=True, seat_wind=1)
    assert w.valid and w.result.points == 21
    # one path: the front door gives faces.score's reading
    f = faces.score("1122m3344p5566s7z", "7z", ruleset="nanchang", indicator="1m",
                    self_drawn=True, seat_wind=1)
    assert [(x.chinese, x.count) for x in f.fans] == [(x.chinese, x.count) for x in r.fans]


def test_nanchang_german_with_a_jing_held_needs_the_faces():
    # indicator 9p: 9p 正精, 1p 副精.  Hand 123p (a real 1p 副精 as its own face) 456m
    # 789s 11z 23s + 4s, self-drawn by seat 1: no 精 acts as a wild → 德国: M = 自摸 2 ·
    # 德国 2 = 4, + 5 = 9 (docs/rules/nanchang.md §3)
    hand, win = "123p456m789s11z23s", "4s"
    r = majiang.score(hand, win, ruleset="nanchang", indicator="9p", self_drawn=True,
                      seat_wind=1)
    assert "德国" in r and r.points == 2 * 2 + 5
    # written with * (face unknown) the 1p is a wild: no 德国, M = 自摸 2
    r2 = majiang.score("23p456m789s11z23s*", win, ruleset="nanchang", self_drawn=True,
                       seat_wind=1)
    assert "德国" not in r2 and r2.points == 2


def test_tianjin_example_2_through_the_front_door():
    """docs/rules/tianjin.md §5 example 2: 混钓一条龙 self-drawn, 2 + 4 = 6, each of three pays 6.  Indicator
    5p: the 5p are 混儿 (the pair partner of the win tile 9s)."""
    r = majiang.score("123456789m111s5p", "9s", ruleset="tianjin", indicator="5p",
                      self_drawn=True)
    assert r.points == 6 and "混钓" in r and "一条龙" in r
    assert r.settle(0) == (18, -6, -6, -6)
    assert check_win("123456789m111s5p", "9s", ruleset="tianjin", indicator="5p").valid


def test_tianjin_silver_kong_win_lifts_a_hand_to_the_minimum():
    # indicator 5z (白): 5z x3 + 7z (中) x4 are 混儿.  123m 456p 789s 555z + 1z 1z: the three
    # 白 stand as a set — 银杠胡 6 (docs/rules/tianjin.md §3), so the win is valid.  With * the 混儿 kinds are
    # unknown: the same hand has no pattern (0 points, below the 2-point minimum).
    w = check_win("123m456p789s1z555z", "1z", ruleset="tianjin", indicator="5z",
                  self_drawn=True)
    assert w.valid and "银杠胡" in w.result and w.result.points == 6
    w2 = check_win("123m456p789s1z***", "1z", ruleset="tianjin", self_drawn=True)
    assert not w2.valid


def test_front_door_errors():
    # a * beside the faces is a joker of no given face: accepted, never counted by face
    # (天津 5z turned: 银杠胡 needs three 5z 混儿 held by their faces)
    r = majiang.score("123m456p789s1z555z", "1z", ruleset="tianjin", indicator="5z",
                      self_drawn=True)
    assert "银杠胡" in r
    r = majiang.score("123m456p789s1z55z*", "1z", ruleset="tianjin", indicator="5z",
                      self_drawn=True)
    assert "银杠胡" not in r
    assert not check_win("123m456p789s1z55z*", "1z", ruleset="tianjin", indicator="5z",
                         self_drawn=True).valid
    # jokers= / win_is_joker with indicator=
    with pytest.raises(InvalidHandError):
        check_win("123p456m789s11z23s", "4s", ruleset="nanchang", indicator="9p", jokers=1)
    with pytest.raises(InvalidHandError):
        check_win("123p456m789s11z23s", None, ruleset="nanchang", indicator="9p",
                  win_is_joker=True)
    # no jokers in the ruleset / the default model
    with pytest.raises(RuleError):
        majiang.score("123m456p789s11z45m", "6m", ruleset="mcr", indicator="1m")
    with pytest.raises(RuleError):
        check_win("123m456p789s11z45m", "6m", indicator="1m")
    # more wild copies than the ruleset has (天津: 3 of the indicator kind)
    with pytest.raises(InvalidHandError):
        check_win("123m456p789s5555z", "1z", ruleset="tianjin", indicator="5z")


def test_faces_matter_flag():
    assert faces_matter("nanchang") and faces_matter("tianjin")
    assert not faces_matter("mcr") and not faces_matter("sichuan")
    assert not faces_matter("shenyang")      # one wild kind, faces never read


# ====================================================================== engine
def _recompute(st, w, ind):
    """The win re-scored with faces.score from the final table: the seat's physical
    tiles (less a self-drawn win tile), its melds, the physical win tile."""
    s = st.seats[w["seat"]]
    ph = np.array(s.phys, dtype=np.uint8)
    self_drawn = w["how"] in ("self_draw", "kong_replacement")
    if self_drawn:
        ph[w["tile"]] -= 1
    melds = tuple(Meld(m["kind"], m["tile"], m["concealed"]) for m in s.melds)
    return faces.score(Hand(ph, melds), w["tile"], ruleset=st.rs, indicator=ind,
                       self_drawn=self_drawn,
                       kong=w["how"] in ("kong_replacement", "robbing_kong"),
                       seat_wind=(w["seat"] - st.dealer) % st.n,
                       prevalent_wind=st.prevalent, flowers=len(s.flowers))


def _star_args(st, w, kinds):
    """(hand with every wild tile as '*', win tile or None, context) of a win."""
    s = st.seats[w["seat"]]
    ph = np.array(s.phys, dtype=np.uint8)
    self_drawn = w["how"] in ("self_draw", "kong_replacement")
    if self_drawn:
        ph[w["tile"]] -= 1
    j = sum(int(ph[k]) for k in kinds)
    for k in kinds:
        ph[k] = 0
    melds = tuple(Meld(m["kind"], m["tile"], m["concealed"]) for m in s.melds)
    wj = w["tile"] in kinds
    kw = dict(ruleset=st.rs, self_drawn=self_drawn, win_is_joker=wj,
              kong=w["how"] in ("kong_replacement", "robbing_kong"),
              seat_wind=(w["seat"] - st.dealer) % st.n, prevalent_wind=st.prevalent)
    return Hand(ph, melds, jokers=j), (None if wj else w["tile"]), kw


def _star_reading(st, w, kinds):
    """THE predicate's reading of a win with every wild tile as '*' (faces unknown)."""
    hand, tile, kw = _star_args(st, w, kinds)
    return check_win(hand, tile, **kw).result


def _indicator(st):
    return next(e["indicator"] for e in st.events if e["e"] == "jokers")


def test_engine_nanchang_german_with_a_jing_held():
    # seed 3 hand 64: seat wins self-drawn 德国 holding a 精 (found by a scan; hand 12
    # before 南昌's honour chows were played)
    st = play_hand("nanchang", seed=3, hand=64, log=True)
    ind = _indicator(st)
    kinds = rules.get("nanchang").jokers.kinds(ind)
    seen = 0
    for w in st.wins:
        s = st.seats[w["seat"]]
        held = sum(int(s.phys[k]) for k in kinds)
        r = _recompute(st, w, ind)
        assert [(f.chinese, int(f.count)) for f in r.fans] == [tuple(x) for x in w["fans"]]
        assert r.points == w["points"]
        if held and "德国" in dict(w["fans"]):
            seen += 1
            # 自摸 2 · 德国 2 = 4, + 5 (docs/rules/nanchang.md §3)
            assert w["points"] == 4 + 5
            # the old '*' reading (every 精 wild) misses it
            star = _star_reading(st, w, kinds)
            assert "德国" not in star and star.points < w["points"]
    assert seen == 1


@pytest.mark.parametrize("hand,fan", [(27, "银杠胡"), (118, "金杠胡")])
def test_engine_tianjin_faces_fans(hand, fan):
    st = play_hand("tianjin", seed=3, hand=hand, log=True)
    ind = _indicator(st)
    kinds = rules.get("tianjin").jokers.kinds(ind)
    (w,) = st.wins
    assert fan in dict(w["fans"])
    s = st.seats[w["seat"]]
    held = [int(s.phys[k]) for k in kinds]
    # 银杠胡: 3 of the indicator kind held; 金杠胡: 4 of the next kind (docs/rules/tianjin.md §3)
    assert (held[0] >= 3) if fan == "银杠胡" else (held[1] == 4)
    r = _recompute(st, w, ind)
    assert r.points == w["points"]
    assert [(f.chinese, int(f.count)) for f in r.fans] == [tuple(x) for x in w["fans"]]
    # with '*' (faces unknown) the fan is never seen
    star = _star_reading(st, w, kinds)
    assert star is None or fan not in star


def test_engine_nanchang_every_win_matches_faces_score():
    for h in range(8):
        st = play_hand("nanchang", seed=11, hand=h, log=True)
        ind = _indicator(st)
        for w in st.wins:
            r = _recompute(st, w, ind)
            assert r.points == w["points"], (h, w["fans"])


# ====================================================================== 精分
def _holdings(st, kinds, own_discards=True):
    """(正精, 副精) per seat counted from the seats: hand, melds, won tiles, a discard win
    tile, and the seat's own discards still in its pool (打出精牌算分)."""
    out = []
    for q, s in enumerate(st.seats):
        tiles = [int(k) for k in np.repeat(np.arange(34), s.phys)]
        tiles += [int(t) for m in s.melds for t in m["tiles"]] + [int(t) for t in s.won_tiles]
        for w in st.wins:
            if w["seat"] == q and w["how"] in ("discard", "robbing_kong") \
                    and w["tile"] not in s.won_tiles:
                tiles.append(int(w["tile"]))
        if own_discards:
            tiles += [int(t) for t in s.discards]
        out.append((tiles.count(kinds[0]), tiles.count(kinds[1])))
    return out


def test_engine_pays_jing_every_hand():
    assert rules.get("nanchang").end_settlement == "nanchang"
    assert "nanchang" in END_SETTLEMENTS
    paid_hands = 0
    for h in range(10):
        st = play_hand("nanchang", seed=5, hand=h, log=True)
        kinds = tuple(st.jks)
        hold = _holdings(st, kinds)
        want = N.jing_scores(hold)
        got = [0] * st.n
        for e in st.end_checks:
            # 冲关: the holder's 精分 reached 5 (s = 2 正精 + 副精), paid s(s - 3)
            s_holder = 2 * hold[e["payee"]][0] + hold[e["payee"]][1]
            assert e["check"] == ("冲关" if s_holder >= 5 else "精分") and e["amount"] > 0
            got[e["payer"]] -= e["amount"]
            got[e["payee"]] += e["amount"]
        assert tuple(got) == want, (h, hold)
        assert sum(got) == 0 and sum(st.deltas) == 0
        wins = [sum(w["deltas"][q] for w in st.wins) for q in range(st.n)]
        assert list(st.deltas) == [a + b for a, b in zip(wins, got)]
        logged = [e for e in st.events if e["e"] == "end_check"]
        assert len(logged) == len(st.end_checks)
        paid_hands += any(want)
    assert paid_hands >= 5          # 8 精 in 136 tiles: most hands pay some 精分


def _table(tiles, discards=((), (), (), ()), wild=(0, 1)):
    return EndTable(players=4, end="wall", winners=(), ready=(False,) * 4,
                    values=(None,) * 4, tiles=tuple(tiles), discards=tuple(discards),
                    kongs=((),) * 4, turned=None, first_discards={}, wild=wild)


def test_jing_example_2_on_a_constructed_table():
    """docs/rules/nanchang.md §4 example 2: two 正精 + one 副精 → s = 5, 冲关 10; nobody else holds a 精 →
    霸王精 ×2 = 20 from each of three: +60."""
    z, f = parse_tile("9p"), parse_tile("1p")          # indicator 9p (docs/rules/nanchang.md §4 example 1)
    rs = rules.get("nanchang")
    t = _table([{z: 2, f: 1, 3: 3}, {5: 2}, {}, {}], wild=(z, f))
    pays = END_SETTLEMENTS["nanchang"](rs, t)
    assert sorted((e["payer"], e["payee"], e["amount"]) for e in pays) == \
        [(1, 0, 20), (2, 0, 20), (3, 0, 20)]
    assert all(e["check"] == "冲关" for e in pays)          # s = 5: 冲关
    # 霸王精 +10 option: 10 + 10 = 20 as well; with a 副精 at seat 2 no 霸王: 10 and 1
    t2 = _table([{z: 2, f: 1}, {}, {f: 1}, {}], wild=(z, f))
    d = [0] * 4
    for e in END_SETTLEMENTS["nanchang"](rs, t2):
        d[e["payer"]] -= e["amount"]
        d[e["payee"]] += e["amount"]
    assert d == [30 - 1, -10 - 1, 3 - 10, -10 - 1]


def test_jing_own_discards_option():
    # a 正精 discarded by seat 1 still in its pool: counted with 打出精牌算分 (NCL default),
    # not without.  Seat 0 holds one 正精: s = 2 each → no 霸王 (two holders): 2 and 2
    rs = rules.get("nanchang")
    t = _table([{0: 1}, {}, {}, {}], discards=((), (0,), (), ()))
    d = [0] * 4
    for e in END_SETTLEMENTS["nanchang"](rs, t):
        d[e["payer"]] -= e["amount"]
        d[e["payee"]] += e["amount"]
    assert d == [6 - 2, 6 - 2, -4, -4]
    rs2 = N.build(jing_discards=False)
    d = [0] * 4
    for e in END_SETTLEMENTS["nanchang"](rs2, t):
        d[e["payer"]] -= e["amount"]
        d[e["payee"]] += e["amount"]
    assert d == [12, -4, -4, -4]      # seat 0 alone: 霸王精 2 × 2 = 4 from each

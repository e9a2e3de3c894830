"""Jokers (wild tiles) in the core, checked against brute force.

Brute force: a joker stands for any one tile, so the shanten of real tiles ``h`` plus
``j`` jokers is the least shanten of ``h + A`` over every multiset ``A`` of ``j``
kinds (no count above 4 unless jokers may be fifth copies).  Ukeire is checked the
same way: a real kind is effective when adding it lowers that brute-force shanten.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import majiang
from majiang import InvalidHandError, RuleError, rules, shanten, shanten_batch, ukeire
from majiang.rules import luoyuan as LY
from majiang.rules import nanchang as NC
from majiang.rules import wenzhou as WZ
from majiang.rules.model import game_model
from majiang.rules.shapes import three_jokers_win
from majiang.scoring import faces
from majiang.tiles import format_counts, parse_tile, tile_name


def _assignments(h: np.ndarray, j: int, kinds=range(34)) -> np.ndarray:
    rows = []
    for combo in itertools.combinations_with_replacement(kinds, j):
        r = h.astype(np.int64).copy()
        for k in combo:
            r[k] += 1
        if r.max() <= 4:
            rows.append(r)
    return np.array(rows, dtype=np.uint8).reshape(-1, 34)


# riichi-style shapes (regular, seven distinct pairs, thirteen orphans) with generic jokers:
# the default ruleset (Chinese Official) narrowed, since "plain" has no joker rule
RIICHI = {"forms": majiang.DEFAULT_FORMS, "seven_pairs_quads": False}
NC_SUITED = NC.build(honor_chows=False)
"""南昌 without its honour chows: the brute force below knows suited chows only."""


def brute_shanten(h: np.ndarray, j: int, forms=majiang.DEFAULT_FORMS) -> int:
    if j == 0:
        return int(shanten_batch(h[None, :], forms=forms, seven_pairs_quads=False)[0])
    return int(shanten_batch(_assignments(h, j), forms=forms, seven_pairs_quads=False).min())


def _random_real(n: int, size: int, rng) -> np.ndarray:
    order = np.argsort(rng.random((n, 136)), axis=1)[:, :size] // 4
    out = np.zeros((n, 34), np.uint8)
    np.add.at(out, (np.repeat(np.arange(n), size), order.ravel()), 1)
    return out


@pytest.mark.parametrize("jokers", [1, 2, 3, 4])
@pytest.mark.parametrize("total", [13, 14])
def test_random_hands_match_brute_force(jokers, total):
    rng = np.random.default_rng(100 * jokers + total)
    n = {1: 1200, 2: 1000, 3: 250, 4: 60}[jokers]     # 2 x (1200+1000+250+60) = 5020 hands
    real = _random_real(n, total - jokers, rng)
    got = shanten_batch(real, jokers=jokers, **RIICHI)
    expected = [brute_shanten(h, jokers) for h in real]
    assert got.tolist() == expected


def test_random_hands_with_jokers_mixed_batch():
    """≥10k hands overall (with the test above): a batch with a per-row joker count."""
    rng = np.random.default_rng(7)
    j = rng.integers(0, 3, 5000)
    real = np.stack([_random_real(1, 14 - int(k), rng)[0] for k in j])
    got = shanten_batch(real, jokers=j, **RIICHI)
    for h, k, s in zip(real, j, got):
        assert s == brute_shanten(h, int(k))


@pytest.mark.parametrize("forms", [("regular",), ("seven_pairs",), ("thirteen_orphans",),
                                   ("seven_pairs",), ("honors_and_knitted",),
                                   ("knitted_straight",)])
def test_each_form_matches_brute_force(forms):
    rng = np.random.default_rng(len(forms[0]))
    real = _random_real(300, 12, rng)
    got = shanten_batch(real, jokers=2, forms=forms, seven_pairs_quads=False)
    assert got.tolist() == [brute_shanten(h, 2, forms) for h in real]


@pytest.mark.parametrize("n_real, jokers", [(1, 1), (2, 2), (3, 1), (4, 1), (5, 2), (6, 1),
                                            (4, 3), (7, 1), (6, 2), (5, 3)])
def test_exhaustive_one_suit(n_real, jokers):
    """Every one-suit real part (with jokers) of 2, 5 or 8 tiles in all."""
    hands = [c for c in itertools.product(range(5), repeat=9) if sum(c) == n_real]
    real = np.zeros((len(hands), 34), np.uint8)
    real[:, :9] = hands
    got = shanten_batch(real, jokers=jokers, forms=("regular",))
    kinds = list(range(9)) + [27, 28]       # jokers as other kinds: any two fresh honors
    for h, s in zip(real, got):
        assert s == int(shanten_batch(_assignments(h, jokers, kinds),
                                      forms=("regular",)).min())


def test_ukeire_with_jokers_matches_brute_force():
    rng = np.random.default_rng(11)
    for jokers in (1, 2):
        for h in _random_real(150, 13 - jokers, rng):
            base = brute_shanten(h, jokers)
            expected = {}
            for k in range(34):
                if h[k] < 4:
                    h2 = h.copy()
                    h2[k] += 1
                    if brute_shanten(h2, jokers) < base:
                        expected[tile_name(k)] = int(4 - h[k])
            assert ukeire(h, jokers=jokers, **RIICHI) == expected


def test_fifth_copy_option():
    # 1111m + 2 jokers (6 tiles: 1 set + pair... plus) — 1111m + joker: the pair 1m+joker
    # would be a fifth 1m.  Hand: 1111m 456p 789p + 1 joker = 14 tiles.
    h = majiang.parse_counts("1111m456p789p")
    assert shanten(h, jokers=1) == 0                    # no fifth copy: not complete
    assert shanten(h, jokers=1, joker_fifth_copy=True) == -1
    # a joker standing for a fifth copy is never worse
    rng = np.random.default_rng(3)
    real = _random_real(3000, 12, rng)
    strict = shanten_batch(real, jokers=2)
    loose = shanten_batch(real, jokers=2, joker_fifth_copy=True)
    assert np.all(loose <= strict)


def test_fifth_copy_against_target_enumeration():
    """Small hands: jokers as fifth copies, against every complete target up to 8 copies."""
    blocks = [("pung", k) for k in range(9)] + [("chow", k) for k in range(7)]
    targets = []
    for sets in itertools.combinations_with_replacement(blocks, 1):
        for pair in range(9):
            w = np.zeros(34, int)
            for kind, k in sets:
                if kind == "pung":
                    w[k] += 3
                else:
                    w[k:k + 3] += 1
            w[pair] += 2
            targets.append(w)
    targets = np.array(targets)
    hands = [c for c in itertools.product(range(5), repeat=9) if sum(c) == 3]
    real = np.zeros((len(hands), 34), np.uint8)
    real[:, :9] = hands
    got = shanten_batch(real, jokers=2, joker_fifth_copy=True, forms=("regular",))
    for h, s in zip(real.astype(int), got):
        d = np.maximum(targets - h, 0).sum(axis=1).min() - 2
        assert s == max(d, 0) - 1


def test_joker_errors():
    with pytest.raises(RuleError, match="jokers"):
        shanten("123456789m1112p", jokers=-1)
    with pytest.raises(RuleError, match="jokers"):
        shanten("123456789m1112p", jokers=9)
    with pytest.raises(RuleError, match="jokers"):
        shanten("123456789m1112p", jokers=1.5)
    with pytest.raises(InvalidHandError, match="jokers"):
        shanten(majiang.parse_counts("123456789m11122p"), jokers=1)   # 14 + 1 = 15
    with pytest.raises(RuleError):
        shanten_batch(np.zeros((2, 34), np.uint8), jokers=[1, 2, 3])


# ------------------------------------------------------- one joker notation (faces, '*')
# Once the wild kinds are known (a fixed joker, or the turned indicator), a hand is
# written as its tiles look: a tile of a wild kind IS a joker, exactly as '*'; a
# stand-in (安庆 红中, 白板 under 杭州 翻财神) is written as itself and plays as the wild
# kind's face.  Each pair below is one physical hand written both ways.
HZ_FLIP = majiang.rules.BUILDERS["hangzhou"](caishen="flip")
NOTATION = [
    # 天津 1m turned: 混儿 1m (3 in play) and 2m (4); one of each kind, and both
    ("tianjin", "1m", "345m678p234s999s1m", "345m678p234s999s*", "5s", True),
    ("tianjin", "1m", "345m678p234s999s2m", "345m678p234s999s*", "5s", True),
    ("tianjin", "1m", "345m678p2s999s12m4s", "345m678p2s999s4s**", "3s", True),
    # 杭州: the 白板 are the 财神 (fixed, no indicator)
    ("hangzhou", None, "123m456p789s123s5z", "123m456p789s123s*", "5z", True),
    ("hangzhou", None, "123m456p789s11z5z3m", "123m456p789s11z3m*", "3m", True),
    # 杭州 翻财神: 3m turned is wild (3 in play), a 白板 plays as 3m
    (HZ_FLIP, "3m", "12m456p789s111z5z3m", "12m456p789s111z5z*", "9p", True),
    # 安庆 1m turned: 钻牌 2m (4 jokers), a 红中 plays as 2m
    ("anqing", "1m", "13m2m456p789s123s1z", "13m*456p789s123s1z", "1z", True),
    ("anqing", "1m", "13m456p789s11z77z2m", "13m456p789s11z77z*", "1z", True),
]


@pytest.mark.parametrize("rs,ind,faces,stars,win,self_drawn", NOTATION)
def test_faces_and_stars_read_the_same(rs, ind, faces, stars, win, self_drawn):
    kw = {"ruleset": rs} if ind is None else {"ruleset": rs, "indicator": ind}
    assert shanten(faces, **kw) == shanten(stars, **kw)
    assert ukeire(faces, **kw) == ukeire(stars, **kw)
    # advise (and the discard table) of the 14-tile hand: the same top discard and rows
    a, b = majiang.advise(faces + "9s", **kw), majiang.advise(stars + "9s", **kw)
    assert a["discard"].iloc[0] == b["discard"].iloc[0]
    assert a.drop(columns="improvement").equals(b.drop(columns="improvement"))
    # the score of the win (a joker drawn by its face is the same joker as '*')
    r1 = majiang.score(faces, win, self_drawn=self_drawn, **kw)
    r2 = majiang.score(stars, win, self_drawn=self_drawn, **kw)
    assert (r1.points, r1.total, sorted(f.chinese for f in r1.fans)) == \
        (r2.points, r2.total, sorted(f.chinese for f in r2.fans))
    assert majiang.check_win(faces, win, self_drawn=self_drawn, **kw).valid == \
        majiang.check_win(stars, win, self_drawn=self_drawn, **kw).valid


def test_notation_values_from_the_rules():
    # 天津 混钓 (a 混儿 waits alone, the win tile pairs with it) = 2 points, paid by each
    # of the three others (self-draw only): the 1m face, the 2m face and '*' alike
    for hand in ("345m678p234s999s1m", "345m678p234s999s2m", "345m678p234s999s*"):
        r = majiang.score(hand, "5s", self_drawn=True, ruleset="tianjin", indicator="1m")
        assert r.points == 2 and r.settle(0) == (6, -2, -2, -2)
    # 杭州 爆头 (a lone 财神 pairs with any tile drawn) M 2, by the 白板 face or '*'
    for hand in ("123m456p789s123s5z", "123m456p789s123s*"):
        r = majiang.score(hand, "1z", self_drawn=True, ruleset="hangzhou", seat_wind=1)
        assert r.points == 2 and {f.chinese for f in r.fans} == {"爆头"}
    # 安庆 1m turned (钻牌 2m): 1m + a 红中 (playing 2m) wait on 3m (4 left) or a joker
    # (4); a 2m face in the hand is a 钻牌 instead, read as '*'
    assert ukeire("1m7z456p789s123s11z", ruleset="anqing", indicator="1m") == {
        "3m": 4, "2m*": 4}
    assert ukeire("1m2m456p789s123s11z", ruleset="anqing", indicator="1m") == \
        ukeire("1m*456p789s123s11z", ruleset="anqing", indicator="1m")


def test_stand_in_discard_shown_as_itself():
    # 安庆: discarding a held 红中 is shown as 7z, not as the 2m it plays
    t = majiang.discard_table("13m456p789s123s77z1z", ruleset="anqing", indicator="1m")
    assert "7z" in set(t["discard"]) and "2m" not in set(t["discard"])
    a = majiang.advise("13m456p789s123s77z1z", ruleset="anqing", indicator="1m", draws=1)
    assert a.loc[a["discard"] == "7z", "p_win"].notna().all()
    d = majiang.discard_probabilities("13m456p789s123s77z1z", 1, ruleset="anqing",
                                      indicator="1m")
    assert "7z" in set(d["discard"]) and "2m" not in set(d["discard"])
    c = majiang.probability.discard_curves("13m456p789s123s77z1z", 1, ruleset="anqing",
                                           indicator="1m")
    assert "7z" in c and "2m" not in c


def test_cli_reads_faces_and_stars_alike(capsys):
    from majiang.cli import main

    def out(*args):
        assert main(list(args) + ["--json"]) == 0
        import json
        return json.loads(capsys.readouterr().out)

    for cmd in ("shanten", "advise"):
        extra = "" if cmd == "shanten" else "9s"
        a = out(cmd, "345m678p234s999s1m" + extra, "--rules", "tianjin", "--indicator", "1m")
        b = out(cmd, "345m678p234s999s*" + extra, "--rules", "tianjin", "--indicator", "1m")
        a.pop("hand"), b.pop("hand"), a.pop("glyphs"), b.pop("glyphs")
        assert a == b
    a = out("score", "345m678p234s999s1m", "--win", "5s", "--self-drawn", "--rules",
            "tianjin", "--indicator", "1m")
    b = out("score", "345m678p234s999s*", "--win", "5s", "--self-drawn", "--rules",
            "tianjin", "--indicator", "1m")
    assert a["points"] == b["points"] == 2 and a["settlement"] == b["settlement"]


def test_cli_joker_errors_use_cli_words(capsys):
    from majiang.cli import main
    cases = [["score", "345m678p234s1111m", "--win", "5s", "--self-drawn", "--rules",
              "tianjin", "--indicator", "1m"],
             ["advise", "345m678p2345s1111m", "--rules", "tianjin", "--indicator", "1m"],
             ["advise", "345m678p2345s99s19p", "--rules", "tianjin", "--indicator", "1m",
              "--draws", "500"],
             ["shanten", "345m678p234s999s*", "--rules", "hangzhou", "--indicator", "1m"],
             ["shanten", "345m678p234s999s*", "--rules", "tianjin"],
             ["advise", "345m678p234s999s*", "--rules", "tianjin"]]
    for args in cases:
        assert main(args) == 2
        err = capsys.readouterr().err
        assert err.startswith("majiang: error:")
        for word in ("indicator=", "ruleset=", "jokers=", "win_is_joker", "draws="):
            assert word not in err, (args, err)


@pytest.mark.parametrize("seen,stand_ins,jokers", [("7z", 1, 0), ("7z7z", 2, 0),
                                                   ("2m", 0, 1), ("2m7z", 1, 1)])
def test_anqing_seen_stand_ins_one_way(seen, stand_ins, jokers):
    """安庆 1m turned (钻牌 2m): 13m456p789s123s11z waits on 2m, played by a 红中 (4) or a
    钻牌 (4).  A seen 7z is a seen 红中, a seen 2m a seen 钻牌, for ukeire and the
    probabilities alike: one draw wins with (8 − seen) of (136 − 1 turned − 13 − seen)."""
    hand = "13m456p789s123s11z"
    u = ukeire(hand, seen, ruleset="anqing", indicator="1m")
    assert u == {"7z": 4 - stand_ins, "2m*": 4 - jokers}
    n = len(seen) // 2
    p = majiang.win_probability(hand, 1, visible=seen, ruleset="anqing", indicator="1m")
    assert float(p) == pytest.approx((8 - n) / (122 - n), abs=1e-12)


# ============================================================================
# Stand-in tiles and the three-joker win
# Stand-in tiles (JokerRule.substitute) among the effective draws, faces.score with
# stand-ins, and the shape-free three-joker win (罗源 三金倒, 温州 三财神) in shanten,
# ukeire and discard tables.
#
# Every expectation is built independently of the code under test:
#
# * ukeire / discard tables: the real wall is built tile by tile (the physical 136/144
#   tiles less the face-up indicator; the wild kind's copies are jokers, the substitute's
#   copies play as the wild kind's face), each physical tile left is drawn in turn and the
#   ruleset's shanten recomputed; a draw is effective when it lowers the shanten, live =
#   its physical copies left (minus the visible ones);
# * readiness under the three-joker win: a hand is ready iff some physical draw (a joker
#   included) makes :func:`majiang.check_win` valid on a self-draw;
# * faces.score: the levels of docs/rules/wenzhou.md §3 (双财归位 双翻 ×4, 三财归位 四翻 ×8
#   with 辣子辣, 硬 ×2, 三财神 ×4), worked by hand in the comments.
# ============================================================================
WHITE, RED = parse_tile("5z"), parse_tile("7z")


# ----------------------------------------------------------------- the physical wall
def _physical(rs, ind):
    """(physical copies (34,) a player counts as unseen, wild kind, substitute or None).
    Built from the tile set alone, not from GameModel.wall.  The face-up indicator is
    seen by every library function on its own (安庆: joker = indicator + 1, the turned
    tile is set apart), and when it is a copy of the wild kind itself (罗源, 温州,
    活动百搭) the other three are the wild copies."""
    jr = rs.jokers
    phys = np.array(rs.copies, dtype=np.int64)
    face = jr.kind(ind)
    if jr.source == "turned":
        phys[face] -= 1                                   # face up; three wild
    elif jr.source == "next":
        phys[parse_tile(ind)] -= 1                        # face up, set apart
    sub = jr.substitute if jr.substitute is not None and jr.substitute != face else None
    return phys, face, sub


def _written(P, face, sub):
    """Physical counts -> (written counts, jokers): the hand as its tiles look, the wild
    copies written '*' (their face reads the same), the stand-ins as themselves."""
    h = P.copy()
    j = int(h[face])
    h[face] = 0
    return h, j


def _text(h, j):
    return format_counts(h.astype(np.uint8)) + "*" * j


def _deal(phys, size, rng, force=()):
    """A physical hand of `size` tiles: the kinds in `force` first, the rest at random."""
    pool = list(np.repeat(np.arange(34), phys))
    P = np.zeros(34, np.int64)
    for k in force:
        if P[k] < phys[k]:
            P[k] += 1
            pool.remove(k)
    pick = rng.choice(len(pool), size - int(P.sum()), replace=False)
    for i in pick:
        P[pool[i]] += 1
    return P


def _brute_ukeire(rs, ind, P, phys, face, sub, seen=None):
    """{key: live} of the physical draws that lower the ruleset's shanten."""
    h, j = _written(P, face, sub)
    kw = {"ruleset": rs, "indicator": ind}
    base = majiang.shanten(_text(h, j), **kw)
    out = {}
    for p in range(34):
        left = int(phys[p] - P[p] - (0 if seen is None else seen[p]))
        if phys[p] - P[p] <= 0:
            continue
        P2 = P.copy()
        P2[p] += 1
        h2, j2 = _written(P2, face, sub)
        if majiang.shanten(_text(h2, j2), **kw) < base:
            key = tile_name(face) + "*" if p == face else tile_name(p)
            out[key] = max(0, left)
    return base, out


SUBSTITUTE_CASES = [
    ("anqing", {}, 13),                                   # 红中 plays as the 钻牌's face
    ("wenzhou", {"three_caishen_win": False}, 16),        # 白板 plays as the 财神's face
    ("wenzhou", {}, 16),                                  # the same with 三财神 on
    ("shanghai_baida", {}, 13),                           # 活动百搭: 白板 as the face
    ("hangzhou", {"caishen": "flip"}, 13),                # 翻财神 option: 白板 as the face
]


@pytest.mark.parametrize("name,kw,size", SUBSTITUTE_CASES)
def test_ukeire_lists_the_stand_in_draw(name, kw, size, n_inds=3, seed=11):
    """ukeire = brute force over the physical draws, on random hands holding stand-ins
    (written as the face) and jokers; the stand-in draw is keyed by the substitute's own
    name with its copies left."""
    rs = rules.BUILDERS[name](**kw)
    rng = np.random.default_rng(seed + len(name) + len(kw))
    kinds = [k for k in game_model(rs).kinds]
    n_hands = 6 if rs.hand_size == 16 else 10
    listed = checked = 0
    for ind in rng.choice(kinds, n_inds, replace=False):
        ind = tile_name(int(ind))
        phys, face, sub = _physical(rs, ind)
        for i in range(n_hands):
            nb = [k for k in (face - 1, face + 1) if 0 <= k < 34 and k // 9 == face // 9
                  and face < 27]
            force = ([sub] * (i % 3) if sub is not None else []) + nb[:1] + [face] * (i % 2)
            P = _deal(phys, size, rng, force)
            h, j = _written(P, face, sub)
            base, expect = _brute_ukeire(rs, ind, P, phys, face, sub)
            got = majiang.ukeire(_text(h, j), ruleset=rs, indicator=ind)
            assert got == expect, (name, _text(h, j), ind)
            listed += sub is not None and tile_name(sub) in got
            checked += 1
    assert checked >= 18
    if not three_jokers_win(rs):    # (with 三财神 the joker path is mostly the minimum)
        assert listed >= 3      # the stand-in draw was effective in some hands


@pytest.mark.slow
@pytest.mark.parametrize("name,kw,size", SUBSTITUTE_CASES)
def test_ukeire_lists_the_stand_in_draw_more(name, kw, size):
    """The same over 12 indicators (and more hands)."""
    test_ukeire_lists_the_stand_in_draw(name, kw, size, n_inds=12, seed=101)


def test_anqing_issue_example():
    """13m456p789s123s11z, indicator 1m (钻牌 2m): the 2m is drawn as one of the four 2m
    jokers or as one of the four 红中 (7z) that play as 2m."""
    assert majiang.ukeire("13m456p789s123s11z", ruleset="anqing", indicator="1m") == {
        "7z": 4, "2m*": 4}
    # two stand-ins held (written as themselves, 77z): a 2m/1z shanpon; two 红中 left
    assert majiang.ukeire("456p789s123s11z77z", ruleset="anqing", indicator="1m") == {
        "1z": 2, "7z": 2, "2m*": 4}


def test_stand_in_live_counts_with_visible_tiles():
    """上海百搭 活动百搭, indicator 8s (3 wild 8s, the four 白板 play as 8s): waiting on 8s.
    Visible 白板 are seen stand-ins (5z); a visible 8s is a seen 百搭."""
    hand = "123m456p123s11z79s"
    assert majiang.ukeire(hand, ruleset="shanghai_baida", indicator="8s") == {
        "5z": 4, "8s*": 3}
    assert majiang.ukeire(hand, "5z5z8s", ruleset="shanghai_baida", indicator="8s") == {
        "5z": 2, "8s*": 2}


def test_ukeire_agrees_with_win_probability():
    """For ready hands every effective draw wins: live total / tiles left = the one-draw
    win probability of the probability layer (which models the wall on its own)."""
    for name, ind, hand in [("shanghai_baida", "8s", "123m456p123s11z79s"),
                            ("anqing", "1m", "13m456p789s123s11z"),
                            ("wenzhou", "9s", "123m456p789p555s78s11z")]:
        rs = rules.get(name)
        left = int(np.sum(rs.copies)) - 1 - rs.hand_size      # the indicator face up
        uk = majiang.ukeire(hand, ruleset=name, indicator=ind)
        p = float(majiang.win_probability(hand, 1, ruleset=name, indicator=ind))
        assert p == pytest.approx(sum(uk.values()) / left, abs=1e-4), (name, uk)


@pytest.mark.parametrize("name,kw,size", SUBSTITUTE_CASES[:4])
def test_discard_table_counts_the_stand_in(name, kw, size):
    """Each row = brute-force ukeire after that discard (a discarded face tile is a
    stand-in: the substitute is then seen, no joker)."""
    rs = rules.BUILDERS[name](**kw)
    rng = np.random.default_rng(5 + len(name))
    ind = "4p"
    phys, face, sub = _physical(rs, ind)
    for i in range(2):
        P = _deal(phys, size + 1, rng, [sub, sub, face - 1])
        h, j = _written(P, face, sub)
        table = majiang.discard_table(_text(h, j), ruleset=rs, indicator=ind)
        assert len(table) == int((h > 0).sum())
        for row in table.itertuples():
            d = parse_tile(row.discard)
            P2 = P.copy()
            P2[sub if d == face else d] -= 1
            seen = np.zeros(34, np.int64)
            seen[sub if d == face else d] = 1
            s, expect = _brute_ukeire(rs, ind, P2, phys, face, sub, seen)
            assert (row.shanten, row.ukeire_kinds, row.ukeire_count) == (
                s, len(expect), sum(expect.values())), (name, _text(h, j), row.discard)


# ----------------------------------------------------------------- faces.score
def test_faces_score_wenzhou_white_plays_as_the_caishen_face():
    """docs/rules/wenzhou.md §2: 白板 plays as the 财神's face.  Indicator 5m: 5m is the 财神 (three wild).
    Hand 123p 456p 789p 11s 12s + 5m 5m (two 财神) + 5z (a 白板 = a natural 5m), win 3s on
    a discard: 555m = the two 财神 as themselves with the 白板 → 双财归位 (双翻 ×4); no
    财神 stands for another tile → 硬 (×2); level = the highest: 4 (docs/rules/wenzhou.md §3)."""
    r = faces.score("123p456p789p11s12s55m5z", "3s", ruleset="wenzhou", indicator="5m",
                    seat_wind=1)
    assert r.points == 4
    assert {f.chinese for f in r.fans} == {"双财归位", "硬"}
    # the 白板 is the winning tile (self-drawn): 555m again → 4
    r = faces.score("123p456p789p11s123s55m", "5z", ruleset="wenzhou", indicator="5m",
                    seat_wind=1, self_drawn=True)
    assert r.points == 4 and "双财归位" in {f.chinese for f in r.fans}
    # a 白板 pung is a pung of the face (indicator 9s: 999s), not of 白: with 666z 777z
    # no 中发白 (双翻 4); no 财神 held → 硬 (2) on a discard
    r = faces.score("666z777z123p456p1s [555z]", "1s", ruleset="wenzhou", indicator="9s",
                    seat_wind=1)
    assert r.points == 2 and {f.chinese for f in r.fans} == {"硬"}


def test_faces_score_wenzhou_three_caishen_home_with_white():
    """辣子辣 (lazi=True): 三财归位 = 四翻 ×8 (docs/rules/wenzhou.md §3).  Indicator 5m; hand 34m + 5z (白板 =
    5m: 345m) + 555m (the three 财神 as themselves) + 123p 456p 789p + 1s, self-drawn
    1s: 三财归位 8 (三财神 4, 硬 2 below it)."""
    rs = WZ.build(lazi=True)
    r = faces.score("34m555m123p456p789p1s5z", "1s", ruleset=rs, indicator="5m",
                    seat_wind=1, self_drawn=True)
    assert r.points == 8 and "三财归位" in {f.chinese for f in r.fans}
    # without the stand-in reading the 白板 is a lone honour: at most 三财神 (4)
    r = faces.score("34m555m123p456p789p1s6z", "1s", ruleset=rs, indicator="5m",
                    seat_wind=1, self_drawn=True)
    assert r.points == 4


def test_faces_score_stand_in_errors_and_turned_white():
    # four 白板 + the 5m face: five tiles playing as 5m
    with pytest.raises(majiang.InvalidHandError):
        faces.score("123p456p789p1s5555z", "1s", ruleset="wenzhou", indicator="5m",
                    self_drawn=True)
    # 白板 turned: the 白板 are the 财神 themselves (no stand-in): 5z5z are two 财神 standing
    # for 5m beside the natural 5m — not 归位 (their face is 白); self-drawn → 硬 (2)
    r = faces.score("123p456p789p11s12s55z5m", "3s", ruleset="wenzhou", indicator="5z",
                    seat_wind=1, self_drawn=True)
    assert r.points == 2 and "双财归位" not in {f.chinese for f in r.fans}


# ----------------------------------------------------------------- three jokers
def test_three_jokers_flag_comes_from_the_ruleset():
    assert three_jokers_win(rules.get("luoyuan")) and three_jokers_win(rules.get("wenzhou"))
    assert not three_jokers_win(LY.build(special_wins=()))
    assert not three_jokers_win(WZ.build(three_caishen_win=False))
    assert not three_jokers_win(rules.get("hangzhou"))


@pytest.mark.parametrize("rs,shape_rs,ind", [
    (LY.build(), LY.build(special_wins=()), "5p"),
    (WZ.build(), WZ.build(three_caishen_win=False), "5p"),
])
def test_three_jokers_shanten_and_readiness(rs, shape_rs, ind):
    """shanten = min(shape shanten, 2 − jokers) (3n+1); ready (0) iff some physical draw,
    a joker included, makes check_win valid on a self-draw; a 3n+2 hand holding three
    jokers is complete (−1) and wins."""
    rng = np.random.default_rng(3)
    phys, face, sub = _physical(rs, ind)
    ready_by_jokers = ready_by_shape = 0
    for i in range(24):
        force = [face] * (i % 4)
        P = _deal(phys, rs.hand_size, rng, force)
        h, j = _written(P, face, sub)
        text = _text(h, j)
        s = majiang.shanten(text, ruleset=rs, indicator=ind)
        shape = majiang.shanten(text, ruleset=shape_rs, indicator=ind)
        assert s == min(shape, max(0, 2 - j)), text
        ready = False
        for p in range(34):
            if phys[p] - P[p] <= 0:
                continue
            if p == face:
                chk = majiang.check_win(text, None, ruleset=rs, self_drawn=True,
                                        win_is_joker=True)
            else:
                chk = majiang.check_win(text, face if p == sub else p, ruleset=rs,
                                        self_drawn=True)
            if chk.valid:
                ready = True
                break
        assert (s == 0) == ready, text
        ready_by_jokers += s == 0 and shape > 0
        ready_by_shape += s == 0 and shape == 0
        uk = majiang.ukeire(text, ruleset=rs, indicator=ind)
        if 2 - j <= shape and j < 3:
            assert uk.get(tile_name(face) + "*", 0) == 3 - j     # the joker draws left
        if 2 - j < shape and j < 3:     # only the joker path: nothing else helps
            assert set(uk) == {tile_name(face) + "*"}
        if j >= 3:                  # ready on any draw
            assert len([v for v in uk.values() if v > 0]) == sum(
                1 for p in range(34) if phys[p] - P[p] > 0)
        # the 3n+2 hand after drawing a joker
        P2 = P.copy()
        if phys[face] - P[face] > 0:
            P2[face] += 1
            h2, j2 = _written(P2, face, sub)
            s2 = majiang.shanten(_text(h2, j2), ruleset=rs, indicator=ind)
            if j2 >= 3:
                assert s2 == -1
    assert ready_by_jokers >= 3


def test_three_jokers_discard_table_rows():
    """罗源, indicator 5p: 16 tiles + the drawn tile, two 金 held: every discard keeps two
    金 → ready on the third 金 (shanten 0), the 金 draw listed (1 left of 3 wild)."""
    table = majiang.discard_table("147m258p369s14789m1s**", ruleset="luoyuan",
                                  indicator="6p")
    assert (table.shanten == 0).all()
    assert all(u.endswith("*") for u in table.ukeire)
    # far from a shape: the rows are the joker path only (1 金 left: 3 wild − 2 held)
    far = majiang.discard_table("147m258p369s1479m15s**", ruleset="luoyuan", indicator="6p")
    assert set(far.ukeire) == {"*"} and set(far.ukeire_count) == {1}
    assert set(far.shanten) == {0}
    # the same without 三金倒: the shape shanten, higher
    shape = majiang.discard_table("147m258p369s1479m15s**", ruleset=LY.build(special_wins=()),
                                  indicator="6p")
    assert (shape.shanten > 0).all()


def test_luoyuan_three_jin_self_draw_only():
    """§3.30: 三金倒 is self-draw only.  147m 258p 369s 1478m + three 金 has no shape: it
    wins self-drawn ((0 花 + 3 金) × 3 = 9), not on a discard; a real shape with three 金
    still wins on a discard (as that shape)."""
    hand = "147m258p369s1478m***"
    assert majiang.check_win(hand, "9s", ruleset="luoyuan", self_drawn=True).valid
    assert majiang.score(hand, "9s", ruleset="luoyuan", self_drawn=True).points == 9
    assert not majiang.check_win(hand, "9s", ruleset="luoyuan", self_drawn=False).valid
    assert majiang.check_win("123m456p789s123s1p***", "9m", ruleset="luoyuan",
                             self_drawn=False).valid

# ---------------------------------------------------------------------------
# Two joker kinds (南昌 正精 + 副精, 天津 混儿 中下滚), checked by brute force.
#
# Every joker is simply wild, whichever kind it is, so the shanten of real tiles ``h``
# with ``J`` jokers is the least plain shanten of ``h + A`` over every multiset ``A`` of
# ``J`` kinds with no count above 4 (the brute force above, with the
# assignments built once per joker count and broadcast).  What the two kinds change is
# the bookkeeping: which kinds are set apart in the wall, how many jokers a wall holds,
# that their faces are never ordinary draws, and the live count of a joker draw — each
# checked here against counts worked out from the rule text (docs/rules/nanchang.md §2,
# docs/rules/tianjin.md §2), not from the library.

from majiang.rules.base import JokerRule
from majiang.rules.shapes import ruleset_shanten
from majiang.tiles import parse_tile

from _brute import assign as _assign, brute, deal as _wall_deal

# the cycles as the rule texts give them (independent of base.py's tables)
_SUITS_NEXT = {9 * s + r: 9 * s + (r + 1) % 9 for s in range(3) for r in range(9)}
_HONOR_NEXT = {27: 28, 28: 29, 29: 30, 30: 27,          # 东→南→西→北→东
               33: 32, 32: 31, 31: 33}                  # 中→发→白→中
NEXT = {**_SUITS_NEXT, **_HONOR_NEXT}


# ---------------------------------------------------------------- the rule object
def test_joker_rule_two_kinds_follow_the_cycles():
    jr = JokerRule(source="turned", copies=4, second="next")
    for t in range(34):
        assert jr.kinds(t) == (t, NEXT[t])
        assert jr.kind(t) == t
    jr2 = JokerRule(source="next", second="next")          # next and the one after
    assert jr2.kinds("9m") == (0, 1)
    assert JokerRule(source="turned", copies=3, second="next").total_copies == 7
    assert JokerRule(source="turned", copies=3, second="next").kind_copies == (3, 4)


def test_joker_rule_one_kind_unchanged():
    """Every registered ruleset with one joker kind: kinds() is (kind,), copies as before."""
    seen = 0
    for name in rules.available():
        jr = rules.get(name).jokers
        if jr is None or jr.second is not None:
            continue
        seen += 1
        for t in range(34):
            if jr.source == "fixed" or rules.get(name).copies[t]:
                assert jr.kinds(t) == (jr.kind(t),)
        assert jr.kind_copies == (jr.copies,) and jr.total_copies == jr.copies
    assert seen >= 3


@pytest.mark.parametrize("kw", [dict(second="prev"), dict(second="next", second_copies=0),
                                dict(second="next", second_copies=5),
                                dict(second="next", copies=5),
                                dict(second="next", substitute=33)])
def test_joker_rule_errors(kw):
    with pytest.raises(RuleError):
        JokerRule(source="turned", **kw)


# ---------------------------------------------------------------- the wall
@pytest.mark.parametrize("name,jokers,face_up", [("nanchang", 8, 0), ("tianjin", 7, 1)])
def test_wall_sets_both_kinds_apart(name, jokers, face_up):
    model = game_model(name)
    for ind in range(34):
        w = model.wall(ind)
        assert w.joker_kinds == (ind, NEXT[ind])
        assert w.joker_kind == ind and w.indicator == ind
        assert w.jokers == jokers
        assert w.counts[ind] == 0 and w.counts[NEXT[ind]] == 0
        others = [k for k in range(34) if k not in (ind, NEXT[ind])]
        assert (w.counts[others] == 4).all()
        assert w.size == 136 - face_up


def test_wall_of_one_kind_rulesets_is_conserved():
    """One-kind rulesets: drawable + jokers + the face-up indicator = the tile set."""
    for name in rules.available():
        model = game_model(name)
        jr = model.jokers
        if jr is None or jr.second is not None:
            continue
        for ind in model.kinds[:9]:
            w = model.wall(ind)
            assert w.joker_kinds == (w.joker_kind,)
            face_up = int(jr.source == "next" or (jr.source == "turned" and jr.copies < 4))
            assert w.size + face_up == int(model.copies.sum()), name


def test_joker_kinds_of_the_model():
    assert game_model("nanchang").joker_kinds("9p") == (parse_tile("9p"), parse_tile("1p"))
    assert game_model("tianjin").joker_kinds("4z") == (30, 27)
    assert game_model("mcr").joker_kinds("1m") == ()


# ---------------------------------------------------------------- brute force
def _two_text(h: np.ndarray, j: int) -> str:
    from majiang.tiles import format_counts
    return format_counts(h) + "*" * j


def test_tianjin_shanten_equals_brute_force_on_random_deals():
    """≥ 10k dealt hands (13 and 14 tiles) of 天津 (regular form, 7 jokers of two kinds)."""
    model = game_model("tianjin")
    rng = np.random.default_rng(2024)
    checked = 0
    for size in (13, 14):
        for ind in rng.choice(34, 20, replace=False):
            hands = _wall_deal(model, int(ind), 260, size, rng)
            for h, j in hands:
                if j > 3:       # rare (P ~ 1%); the exhaustive test below covers many jokers
                    continue
                got = shanten(_two_text(h, j), ruleset="tianjin", indicator=int(ind))
                assert got == brute(h, j, ("regular",)), (_two_text(h, j), int(ind))
                checked += 1
    assert checked >= 10_000


def test_nanchang_shanten_equals_brute_force_on_random_deals():
    """南昌 (regular + seven pairs with quads, 8 jokers): the per-form shanten of the shape
    engine against brute force (十三烂 takes no jokers and is left out here; honour chows
    off, the brute force's shapes knowing suited chows only: tests/test_nanchang.py
    checks them)."""
    rs = NC_SUITED
    model = game_model(rs)
    rng = np.random.default_rng(7)
    checked = 0
    for ind in rng.choice(34, 12, replace=False):
        for h, j in _wall_deal(model, int(ind), 70, 14, rng):
            if j > 3:
                continue
            per = ruleset_shanten(_two_text(h, j), rs, per_form=True)
            got = min(per["regular"], per["seven_pairs"])
            assert got == brute(h, j, ("regular", "seven_pairs"), quads=True), _two_text(h, j)
            checked += 1
    assert checked >= 800


@pytest.mark.parametrize("n_real,jokers", [(7, 7), (6, 8), (8, 6), (9, 5), (10, 4)])
def test_many_jokers_one_suit_exhaustive(n_real, jokers):
    """Up to 8 jokers (both kinds together): one-suit real parts, jokers assigned to the
    suit's kinds or two fresh kinds (any other kind holds no real tile, so a joker set
    there is as good as one of fresh honours) — sampled from the exhaustive list."""
    hands = [c for c in itertools.product(range(5), repeat=9) if sum(c) == n_real]
    rng = np.random.default_rng(n_real)
    pick = rng.choice(len(hands), min(len(hands), 120), replace=False)
    kinds = list(range(9)) + [27, 28]
    assign = []
    for combo in itertools.combinations_with_replacement(kinds, jokers):
        r = np.zeros(34, np.int16)
        for k in combo:
            r[k] += 1
        assign.append(r)
    assign = np.array(assign)
    for i in pick:
        h = np.zeros(34, np.uint8)
        h[:9] = hands[i]
        rows = h.astype(np.int16)[None, :] + assign
        rows = rows[rows.max(axis=1) <= 4].astype(np.uint8)
        expect = int(shanten_batch(rows, forms=("regular",)).min())
        assert shanten(_two_text(h, jokers), ruleset="tianjin") == expect, _two_text(h, jokers)


@pytest.mark.parametrize("name,ind,total", [("tianjin", "5z", 7), ("nanchang", "9p", 8),
                                            ("tianjin", "9m", 7)])
def test_ukeire_two_kinds_matches_brute_force(name, ind, total):
    """Real kinds: effective when adding one lowers the brute-force shanten, live = 4 −
    held − visible; the joker draw keyed "<正><副>*", live = total − held − visible jokers;
    the wild kinds never listed as ordinary draws."""
    rng = np.random.default_rng(len(name) + len(ind))
    if name == "nanchang":      # honour chows off: the brute force's chows are suited
        name = NC_SUITED
    model = game_model(name)
    kinds = model.joker_kinds(ind)
    forms = ("regular",) if name == "tianjin" else ("regular", "seven_pairs")
    key = "".join(tile_name(k) for k in kinds) + "*"
    n_checked = 0
    for h, j in _wall_deal(model, parse_tile(ind), 40, 13, rng):
        if j > 2:
            continue
        text = _two_text(h, j)
        if name is NC_SUITED:       # 十三烂 can change the listed kinds: keep to hands
            rs = rules.get(name)    # whose lonely form is far behind
            if ruleset_shanten(text, rs, per_form=True)["thirteen_lonely"] <= \
                    brute(h, j, forms, True) + 1:
                continue
        base = brute(h, j, forms, quads=True)
        expect = {}
        for k in range(34):
            if k in kinds or h[k] >= 4:
                continue
            h2 = h.copy()
            h2[k] += 1
            if brute(h2, j, forms, quads=True) < base:
                expect[tile_name(k)] = int(4 - h[k])
        if brute(h, j + 1, forms, quads=True) < base:
            expect[key] = total - j
        got = ukeire(text, ruleset=name, indicator=ind)
        assert got == expect, (text, ind)
        assert not any(tile_name(k) in got for k in kinds)
        n_checked += 1
    assert n_checked >= 15


def test_ukeire_joker_live_count_subtracts_visible_jokers():
    # 天津 indicator 5z: 5z (3 wild + the face-up one, seen by itself and left out of
    # visible) and 7z (4 wild).  One 7z seen leaves 7 − 2 held − 1 seen = 4 jokers; every
    # visible 5z is a wild copy too: 5z7z seen leaves 7 − 2 − 2 = 3.
    u = ukeire("123m456p789s1z2z**", ruleset="tianjin", indicator="5z", visible="7z")
    assert u["5z7z*"] == 4
    u = ukeire("123m456p789s1z2z**", ruleset="tianjin", indicator="5z", visible="5z7z")
    assert u["5z7z*"] == 3
    u = ukeire("123m456p789s1z2z**", ruleset="tianjin", indicator="5z")
    assert u["5z7z*"] == 5


def test_discard_table_and_advise_take_the_indicator():
    hand = "123m456p789s1z2z*" + "34s"          # 14 tiles, one joker
    t = majiang.discard_table(hand, ruleset="tianjin", indicator="5z")
    assert set(t["discard"]) == {"1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s",
                                 "3s", "4s", "1z", "2z"}
    assert not any("5z" in u or "7z" in u for u in t["ukeire"])
    # shanten column = brute force after each discard
    h = majiang.parse_counts("123m456p789s34s1z2z")
    for _, row in t.iterrows():
        h2 = h.copy()
        h2[parse_tile(row["discard"])] -= 1
        assert row["shanten"] == brute(h2, 1, ("regular",))
    a = majiang.advise(hand, ruleset="tianjin", indicator="5z")
    assert a.iloc[0]["shanten"] == t["shanten"].min()
    assert set(a["discard"]) == set(t["discard"])


def test_indicator_checks():
    # a wild face held is a joker, as '*' (9p turned: 9p 正精, 1p 副精; 5z turned: 5z
    # (3 in play) and 6z; 4z turned: 4z and 1z)
    assert shanten("123m456p789s1p2p33z", ruleset="nanchang", indicator="9p") == \
        shanten("123m456p789s2p33z*", ruleset="nanchang", indicator="9p")
    assert ukeire("123m456p789s11z5z7z", ruleset="tianjin", indicator="5z") == \
        ukeire("123m456p789s11z7z*", ruleset="tianjin", indicator="5z")
    assert majiang.discard_table("123m456p789s11z5z7z9s", ruleset="tianjin",
                                 indicator="4z").equals(
        majiang.discard_table("123m456p789s5z7z9s**", ruleset="tianjin", indicator="4z"))
    # more faces of a wild kind than are in play (5z turned: the 4th is face up)
    with pytest.raises(InvalidHandError, match="3 of them are in play"):
        ukeire("123m456p789s5555z", ruleset="tianjin", indicator="5z")   # 13 tiles
    with pytest.raises(Exception):
        shanten("123m456p789s1z2z**", ruleset="tianjin", indicator="9x")
    # the shanten does not depend on the indicator (every joker is simply wild)
    assert shanten("123m456p789s1z2z**", ruleset="tianjin", indicator="5s") == \
        shanten("123m456p789s1z2z**", ruleset="tianjin") == 0
    # a ruleset without jokers ignores it (as the probability functions do)
    assert shanten("123m456p789s1122z", ruleset="mcr", indicator="1z") == \
        shanten("123m456p789s1122z", ruleset="mcr")


def test_probabilities_count_both_kinds():
    """One draw, exact: 南昌 wins on 1s (2 live), 4s (4) and any of the 8 jokers of 123
    unseen tiles; 天津 needs 2 points, so a joker completing the chow (no pattern) is no
    win: 6 of 122 (135 drawable less 13 held)."""
    hand = "123m456m789p11s23s"
    p = majiang.win_probability(hand, 1, ruleset="nanchang", indicator="5p")
    assert p.value == pytest.approx(14 / 123, abs=1e-12)
    p = majiang.win_probability(hand, 1, ruleset="tianjin", indicator="5p")
    assert p.value == pytest.approx(6 / 122, abs=1e-12)
    # a held 副精 written by its face (6p) is a joker there too, as '*'
    assert majiang.win_probability("123m456m789p11s26p", 1, ruleset="nanchang",
                                   indicator="5p").value == pytest.approx(
        majiang.win_probability("123m456m789p11s2p*", 1, ruleset="nanchang",
                                indicator="5p").value, abs=1e-12)


def test_seven_and_eight_jokers():
    assert shanten("1234567m" + "*" * 7, ruleset="tianjin", indicator="5p") == -1
    assert shanten("123456m" + "*" * 8, ruleset="nanchang", indicator="5p") == -1
    # 13 tiles with 6 jokers: tenpai on anything; a drawn joker completes it too
    u = ukeire("123456m1z" + "*" * 6, ruleset="tianjin", indicator="5p")
    assert u["5p6p*"] == 7 - 6
    assert "5p" not in u and "6p" not in u and len(u) == 33


@pytest.mark.parametrize("name,hand,ind", [("tianjin", "123m456m789p11s2s*", "5p"),
                                           ("nanchang", "123m456m789p11s2s*", "5p"),
                                           ("tianjin", "123m789p11s23s55z*", "5p")])
def test_two_draw_probability_equals_expectimax(name, hand, ind):
    """Two draws, every discard: the exact probability model against the expectimax over
    the real wall of tests/test_rules_probability.py (``Brute``: draws enumerated from
    ``model.wall(indicator)``, wins judged by check_win), with both wild kinds drawn as
    jokers."""
    from test_rules_probability import Brute
    ref = Brute(name, hand, indicator=ind).value(2)
    got = majiang.probabilities(hand, 2, ruleset=name, indicator=ind, method="exact")
    assert ref > 0 and got.p_win == pytest.approx(ref, abs=1e-12)


def _two_brute_ukeire(h: np.ndarray, j: int, kinds: tuple, total: int, key: str) -> dict:
    """Brute-force ukeire (regular form) of real tiles h + j jokers: every variant (h,
    h + one real kind, h + one more joker) expanded over its joker assignments in one
    batch, the least shanten per variant by segment."""
    variants = [(h, j)]
    real = [k for k in range(34) if k not in kinds and h[k] < 4]
    variants += [(h + np.eye(34, dtype=np.uint8)[k], j) for k in real]
    if j < 8:
        variants.append((h, j + 1))
    blocks, starts = [], []
    n = 0
    for v, jj in variants:
        rows = v.astype(np.int16)[None, :] + _assign(jj) if jj else v[None, :].astype(np.int16)
        rows = rows[rows.max(axis=1) <= 4]
        starts.append(n)
        n += len(rows)
        blocks.append(rows)
    sh = shanten_batch(np.concatenate(blocks).astype(np.uint8), forms=("regular",))
    best = np.minimum.reduceat(sh.astype(np.int64), starts)
    base = best[0]
    out = {tile_name(k): int(4 - h[k]) for k, b in zip(real, best[1:1 + len(real)])
           if b < base}
    if j < 8 and best[-1] < base:
        out[key] = total - j
    return out


@pytest.mark.parametrize("n_hands", [2_000, pytest.param(10_000, marks=pytest.mark.slow)])
def test_tianjin_ukeire_equals_brute_force_on_random_deals(n_hands):
    """天津 ukeire (the core with the two wild kinds set aside) against brute force on
    random 13-tile deals of random indicators (hands with more than 2 jokers skipped:
    their assignments are too many for a fast test; the shanten tests cover them)."""
    model = game_model("tianjin")
    rng = np.random.default_rng(n_hands)
    checked = 0
    while checked < n_hands:
        ind = int(rng.integers(34))
        kinds = model.joker_kinds(ind)
        key = "".join(tile_name(k) for k in kinds) + "*"
        for h, j in _wall_deal(model, ind, 100, 13, rng):
            if j > 2:
                continue
            got = ukeire(_two_text(h, j), ruleset="tianjin", indicator=ind)
            assert got == _two_brute_ukeire(h, j, kinds, 7, key), (_two_text(h, j), ind)
            checked += 1


def test_the_joker_glyph_reads_back_as_a_joker():
    # results show a wild tile as 🀪 (U+1F02A); typed back in, it is a '*'
    from majiang.hand import parse_hand
    from majiang.tiles import JOKER_GLYPH
    assert JOKER_GLYPH == "\U0001F02A"
    assert parse_hand("123m45p🀪🀪678s112z") == parse_hand("123m45p**678s112z")
    assert parse_hand("123m45p🀪\ufe0f🀪678s112z").jokers == 2
    assert majiang.shanten("123m45p🀪🀪678s112z", ruleset="hangzhou") == \
        majiang.shanten("123m45p**678s112z", ruleset="hangzhou")

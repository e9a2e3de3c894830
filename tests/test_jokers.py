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
from majiang import RuleError, InvalidHandError, shanten, shanten_batch, ukeire
from majiang.tiles import tile_name


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

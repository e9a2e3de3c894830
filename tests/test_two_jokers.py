"""Two joker kinds (南昌 正精 + 副精, 天津 混儿 中下滚), checked by brute force.

Every joker is simply wild, whichever kind it is, so the shanten of real tiles ``h``
with ``J`` jokers is the least plain shanten of ``h + A`` over every multiset ``A`` of
``J`` kinds with no count above 4 (the brute force of tests/test_jokers.py, with the
assignments built once per joker count and broadcast).  What the two kinds change is
the bookkeeping: which kinds are set apart in the wall, how many jokers a wall holds,
that their faces are never ordinary draws, and the live count of a joker draw — each
checked here against counts worked out from the rule text (docs/rules/nanchang.md §2,
docs/rules/tianjin.md §2), not from the library.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import majiang
from majiang import InvalidHandError, RuleError, rules, shanten, shanten_batch, ukeire
from majiang.rules.base import JokerRule
from majiang.rules.model import game_model
from majiang.rules.shapes import ruleset_shanten
from majiang.tiles import parse_tile, tile_name

from _brute import assign as _assign, brute, deal as _deal

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
def _text(h: np.ndarray, j: int) -> str:
    from majiang.tiles import format_counts
    return format_counts(h) + "*" * j


def test_tianjin_shanten_equals_brute_force_on_random_deals():
    """≥ 10k dealt hands (13 and 14 tiles) of 天津 (regular form, 7 jokers of two kinds)."""
    model = game_model("tianjin")
    rng = np.random.default_rng(2024)
    checked = 0
    for size in (13, 14):
        for ind in rng.choice(34, 20, replace=False):
            hands = _deal(model, int(ind), 260, size, rng)
            for h, j in hands:
                if j > 3:       # rare (P ~ 1%); the exhaustive test below covers many jokers
                    continue
                got = shanten(_text(h, j), ruleset="tianjin", indicator=int(ind))
                assert got == brute(h, j, ("regular",)), (_text(h, j), int(ind))
                checked += 1
    assert checked >= 10_000


def test_nanchang_shanten_equals_brute_force_on_random_deals():
    """南昌 (regular + seven pairs with quads, 8 jokers): the per-form shanten of the shape
    engine against brute force (十三烂 takes no jokers and is left out here)."""
    model = game_model("nanchang")
    rs = rules.get("nanchang")
    rng = np.random.default_rng(7)
    checked = 0
    for ind in rng.choice(34, 12, replace=False):
        for h, j in _deal(model, int(ind), 70, 14, rng):
            if j > 3:
                continue
            per = ruleset_shanten(_text(h, j), rs, per_form=True)
            got = min(per["regular"], per["seven_pairs"])
            assert got == brute(h, j, ("regular", "seven_pairs"), quads=True), _text(h, j)
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
        assert shanten(_text(h, jokers), ruleset="tianjin") == expect, _text(h, jokers)


@pytest.mark.parametrize("name,ind,total", [("tianjin", "5z", 7), ("nanchang", "9p", 8),
                                            ("tianjin", "9m", 7)])
def test_ukeire_two_kinds_matches_brute_force(name, ind, total):
    """Real kinds: effective when adding one lowers the brute-force shanten, live = 4 −
    held − visible; the joker draw keyed "<正><副>*", live = total − held − visible jokers;
    the wild kinds never listed as ordinary draws."""
    model = game_model(name)
    kinds = model.joker_kinds(ind)
    forms = ("regular",) if name == "tianjin" else ("regular", "seven_pairs")
    rng = np.random.default_rng(len(name) + len(ind))
    key = "".join(tile_name(k) for k in kinds) + "*"
    n_checked = 0
    for h, j in _deal(model, parse_tile(ind), 40, 13, rng):
        if j > 2:
            continue
        text = _text(h, j)
        if name == "nanchang":      # 十三烂 can change the listed kinds: keep to hands
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


def _brute_ukeire(h: np.ndarray, j: int, kinds: tuple, total: int, key: str) -> dict:
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
        for h, j in _deal(model, ind, 100, 13, rng):
            if j > 2:
                continue
            got = ukeire(_text(h, j), ruleset="tianjin", indicator=ind)
            assert got == _brute_ukeire(h, j, kinds, 7, key), (_text(h, j), ind)
            checked += 1

"""Shanten, ukeire, waits and advice under ``pair_258_small`` (长沙, 合肥, 武汉), and the
将将胡 / 将一色 winning form (``all_258``).

The oracle is THE win predicate (:func:`majiang.scoring.check_win`) with no
situational context: a 13-tile hand is ready iff some drawable tile makes it a valid
win (self-drawn or on a discard, no last tile, no kong).  Expected values of the
scoring tests come from the readings (docs/rules/changsha.md §2: each 大胡 6 in
长沙, they add up; docs/rules/hefei.md §1: 合肥 uses the same values; 武汉:
GF's flat 5 / 15, the ruleset's defaults ``small`` / ``big``).
"""
from __future__ import annotations

import dataclasses
import io
from contextlib import redirect_stdout

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import majiang
from majiang import rules
from majiang.efficiency import discard_table, shanten, shanten_batch, ukeire
from majiang.hand import Hand
from majiang.scoring import check_win, score
from majiang.tiles import format_counts, tile_name

from _hands import K258, family_hand

CS = rules.get("changsha")
WALL108 = np.repeat(np.arange(27), 4)


def _wins(c: np.ndarray, t: int, ruleset=CS, melds=()) -> bool:
    """THE predicate, no situational context: self-drawn or on a discard."""
    h = Hand(c, melds)
    return any(check_win(h, t, ruleset=ruleset, self_drawn=sd).valid for sd in (True, False))


def _oracle_waits(c: np.ndarray, ruleset=CS, melds=()) -> list[int]:
    held = c.astype(int).copy()
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    copies = np.asarray(rules.get(ruleset).copies)
    return [t for t in range(34) if held[t] < copies[t] and _wins(c, t, ruleset, melds)]


# ------------------------------------------------------------ hand generators
def _complete_hand(rng) -> np.ndarray:
    """A random complete 14-tile concealed hand of one of the shape families (small win,
    any-pair regular, seven pairs, all pungs, one suit, all 2/5/8) within 4 copies."""
    while True:
        kind = int(rng.integers(6))
        suits = [int(rng.integers(3))] if kind == 4 else [0, 1, 2]
        family = {2: "seven_pairs", 5: "all_258", 3: "pungs"}.get(kind, "sets")
        c = family_hand(rng, family, suits, pair_258=kind == 0)
        if c is not None:
            return c.astype(np.uint8)


def _near_hands(seed: int, n: int):
    """13-tile hands: a complete hand less one tile, sometimes with one tile changed,
    and plain random deals."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        r = rng.random()
        if r < 0.2:
            c = np.bincount(rng.choice(WALL108, 13, replace=False), minlength=34)
            out.append(c.astype(np.uint8))
            continue
        c = _complete_hand(rng).astype(np.int64)
        c[rng.choice(np.flatnonzero(c))] -= 1
        if r < 0.5:
            c[rng.choice(np.flatnonzero(c))] -= 1
            k = int(rng.integers(27))
            c[k] += 1
        if c.max() <= 4:
            out.append(c.astype(np.uint8))
    return out


# ------------------------------------------------------------ the defect itself
def test_cli_example_is_not_tenpai():
    from majiang.cli import main
    buf = io.StringIO()
    with redirect_stdout(buf):
        main(["shanten", "123m456p789s1166s", "--rules", "changsha"])
    out = buf.getvalue()
    overall = [line for line in out.splitlines() if line.startswith("overall")][0]
    assert "tenpai" not in overall
    assert not check_win("123m456p789s1166s", "1s", ruleset="changsha").valid
    assert not check_win("123m456p789s1166s", "6s", ruleset="changsha").valid
    assert shanten("123m456p789s1166s", ruleset="changsha") > 0
    assert majiang.waits("123m456p789s1166s", ruleset="changsha") == []
    # the same hand with a 2-5-8 pair is ready on the pair's partner
    assert shanten("123m456p789s1155s", ruleset="changsha") == 0
    assert ukeire("123m456p789s1155s", ruleset="changsha") == {"1s": 2}


def test_zhuanzhuan_keeps_any_pair():
    # 转转 has no 2-5-8 rule: the hand above is ready there
    assert shanten("123m456p789s1166s", ruleset="changsha_zhuanzhuan") == 0


# ------------------------------------------------------------ brute force: ready hands
@pytest.mark.parametrize("seed", [1, 2])
def test_tenpai_and_waits_equal_the_predicate(seed):
    hands = _near_hands(seed, 120)
    n_ready = 0
    for c in hands:
        want = _oracle_waits(c)
        s = shanten(c, ruleset="changsha")
        assert (s == 0) == bool(want), (format_counts(c), s, want)
        assert s >= 0
        text = format_counts(c)
        got_waits = majiang.waits(text, ruleset="changsha")
        drawable = [t for t in got_waits if c[majiang.tiles.parse_tile(t)] < 4]
        assert drawable == [tile_name(t) for t in want], text
        if want:
            n_ready += 1
            assert sorted(ukeire(c, ruleset="changsha")) == sorted(tile_name(t) for t in want)
    assert n_ready >= 25          # the generator does produce ready hands


def test_big_shapes_any_pair_ready():
    for hand in ("1133m5577p99s228s",      # 七小对
                 "111m333p777s99s11s",     # 碰碰胡 with a non-2-5-8 pair
                 "1112345678999m",         # 清一色 nine gates
                 "2258m2258p2258s8s"):     # 将将胡 of no regular shape
        c = majiang.hand.as_hand(hand).concealed
        want = [tile_name(t) for t in _oracle_waits(c)]
        assert want, hand
        assert shanten(hand, ruleset="changsha") == 0
        assert majiang.waits(hand, ruleset="changsha") == want
        assert sorted(ukeire(hand, ruleset="changsha")) == sorted(want)


# ------------------------------------------------------------ brute force: 1-shanten
def _ready(c: np.ndarray) -> bool:
    """Ready by the (predicate-checked) waits: some drawable wait."""
    if int(c.sum()) != 13:
        return False
    w = majiang.waits(format_counts(c), ruleset="changsha")
    return any(c[majiang.tiles.parse_tile(t)] < 4 for t in w)


def test_one_shanten_by_draw_and_discard():
    hands = _near_hands(7, 150)
    checked = 0
    for c in hands:
        s = shanten(c, ruleset="changsha")
        if s < 1 or s > 2:
            continue
        reach = False
        for t in range(27):
            if c[t] >= 4:
                continue
            c14 = c.copy()
            c14[t] += 1
            for d in np.flatnonzero(c14):
                c13 = c14.copy()
                c13[d] -= 1
                if _ready(c13):
                    reach = True
                    break
            if reach:
                break
        assert reach == (s == 1), (format_counts(c), s)
        checked += 1
    assert checked >= 20


def test_ukeire_is_the_draws_that_lower_shanten():
    for c in _near_hands(11, 80):
        s = shanten(c, ruleset="changsha")
        got = ukeire(c, ruleset="changsha")
        want = {}
        for t in range(27):
            if c[t] >= 4:
                continue
            c14 = c.copy()
            c14[t] += 1
            if shanten(c14, ruleset="changsha") < s:
                want[tile_name(t)] = 4 - int(c[t])
        assert got == want, format_counts(c)


def test_group_minimum_lemma():
    """Only the shape groups at the minimum can lower it: every group drops by 0 or 1."""
    from majiang.efficiency import _b258_groups, _plan258
    plan = _plan258(CS)
    caps = np.asarray(CS.copies, dtype=np.uint8)
    for c in _near_hands(13, 60):
        before = {n: s for n, s, _ in _b258_groups(plan, c, caps, (), 0)}
        for t in range(27):
            if c[t] >= 4:
                continue
            c14 = c.copy()
            c14[t] += 1
            after = {n: s for n, s, _ in _b258_groups(plan, c14, caps, (), 0)}
            for n in before:
                assert before[n] - after[n] in (0, 1), (format_counts(c), n, t)


# ------------------------------------------------------------ bounds (property tests)
STRICT = dataclasses.replace(CS, name="changsha_strict_test", constraints=("pair_258",),
                             forms=("regular", "seven_pairs"))


@st.composite
def _hand108(draw, size=13):
    idx = draw(st.lists(st.integers(0, 107), min_size=size, max_size=size, unique=True))
    return np.bincount(WALL108[idx], minlength=34).astype(np.uint8)


@settings(max_examples=300, deadline=None)
@given(_hand108())
def test_bounds(c):
    s = shanten(c, ruleset="changsha")
    unrestricted = shanten(c, forms=("regular", "seven_pairs"), seven_pairs_quads=True)
    all_258 = int(sum(c[k] for k in range(34) if k not in K258))   # 13 tiles: swaps needed - 1
    assert s >= min(unrestricted, all_258)
    assert s <= shanten(c, ruleset=STRICT)
    assert s <= all_258


@settings(max_examples=100, deadline=None)
@given(_hand108(14))
def test_discard_table_agrees(c):
    table = discard_table(c, ruleset="changsha")
    for row in table.itertuples():
        k = majiang.tiles.parse_tile(row.discard)
        c13 = c.copy()
        c13[k] -= 1
        assert row.shanten == shanten(c13, ruleset="changsha")
        vis = np.zeros(34, np.uint8)
        vis[k] = 1
        uk = ukeire(c13, vis, ruleset="changsha")
        assert row.ukeire_kinds == len(uk)
        assert row.ukeire_count == sum(uk.values())


@pytest.mark.parametrize("name", ["changsha", "hefei", "wuhan"])
def test_batch_equals_single(name):
    rng = np.random.default_rng(4)
    rows = _near_hands(3, 200) + [
        np.bincount(rng.choice(WALL108, 14, replace=False), minlength=34).astype(np.uint8)
        for _ in range(100)]
    hands = np.array(rows, dtype=np.uint8)
    got = shanten_batch(hands, ruleset=name)
    assert got.tolist() == [shanten(c, ruleset=name) for c in hands]
    if name == "wuhan":            # jokers: the dead-joker rows go one by one
        jk = rng.integers(0, 3, size=len(hands)).astype(np.uint8)
        keep = hands.sum(axis=1) + jk <= 14
        sub = np.ascontiguousarray(hands[keep])
        got = shanten_batch(sub, ruleset=name, jokers=jk[keep])
        assert got.tolist() == [shanten(c, ruleset=name, jokers=int(j))
                                for c, j in zip(sub, jk[keep])]


def test_advise_agrees():
    hand = "123m456p789s1166s5m"
    a = majiang.advise(hand, ruleset="changsha")
    t = discard_table(hand, ruleset="changsha")
    best = a.iloc[0]
    assert best["shanten"] == t["shanten"].min() == 1
    assert set(a["discard"]) == set(t["discard"])
    merged = a.merge(t, on="discard", suffixes=("", "_t"))
    assert (merged["shanten"] == merged["shanten_t"]).all()
    assert (merged["ukeire_count"] == merged["ukeire_count_t"]).all()


def test_melds():
    # four claimed melds: 全求人 waits on the single tile's pair, any tile (on a discard)
    h = "5m [123p] [456s] [789m] [111s]"
    assert shanten(h, ruleset="changsha") == 0
    h = "1m [123p] [456s] [789m] [111s]"
    assert shanten(h, ruleset="changsha") == 0
    assert check_win(h, "1m", ruleset="changsha", self_drawn=False).valid
    assert not check_win(h, "1m", ruleset="changsha", self_drawn=True).valid
    assert majiang.waits(h, ruleset="changsha") == ["1m"]
    # a concealed kong keeps it from 全求人 (and it is no pung hand: a chow meld)
    h = "1m [123p] [456s] [789m] {1111s}"
    assert shanten(h, ruleset="changsha") == 1
    # melded pungs of 2/5/8 keep 将将胡 open
    h = "2258m258p [222s] [555p]"
    c = majiang.hand.as_hand(h)
    want = [tile_name(t) for t in _oracle_waits(c.concealed, melds=c.melds)]
    by_shape = majiang.waits(h, ruleset="changsha")
    assert want and [t for t in by_shape if t != "5p"] == want   # 5p: a fifth copy
    assert "5p" in by_shape
    assert shanten(h, ruleset="changsha") == 0


# ------------------------------------------------------------ 将将胡 scoring
def test_all_258_scores_as_a_big_win():
    # not a regular or seven-pairs shape: only the all_258 form reads it
    r = score("2258m2258p258s88s", "5s", ruleset="changsha", self_drawn=False)
    assert r.form == "all_258"
    assert [f.chinese for f in r.fans] == ["将将胡"]
    assert r.points == 6                                  # docs/rules/changsha.md §2: each 大胡 6
    # seven pairs of 2/5/8: 七小对 + 将将胡 add up (docs/rules/changsha.md §2)
    r = score("22m55m88m22p55p88p2s", "2s", ruleset="changsha", self_drawn=False)
    assert r.points == 12
    # a non-2/5/8 tile or meld breaks it
    assert not check_win("2258m2258p258s8s1s", "5s", ruleset="changsha").valid
    assert not check_win("2258m258p258s [234m]", "5s", ruleset="changsha").valid
    assert check_win("2258m258p258s [222s]", "5s", ruleset="changsha").valid


def test_all_258_hefei_and_wuhan():
    # 合肥: 将将和 a 大和 = 6 (docs/rules/hefei.md §1); 八枝 needs 8 of a suit
    r = score("2222558m258p258s", "8m", ruleset="hefei", self_drawn=False)
    assert r.form == "all_258" and r.points == 6
    assert not check_win("2258m2258p258s88s", "5s", ruleset="hefei").valid   # 八枝 fails
    # 武汉: 将一色 a 大胡 = 15 (the ruleset's default, GF); must be opened
    r = score("258m258p2558s [222p]", "5p", ruleset="wuhan", self_drawn=False)
    assert r.form == "all_258" and r.points == 15
    assert [f.chinese for f in r.fans] == ["将一色"]
    assert not check_win("2258m2258p258s88s", "5s", ruleset="wuhan").valid   # not opened


def test_wuhan_shapes():
    # 红中 may not be held at the win: a hand holding two can only be ready without them
    assert shanten("123m456p789s5m [777s]", ruleset="wuhan") == 0
    assert shanten("123m456p789s7z [555s]", ruleset="wuhan") >= 1
    # small win needs a 2/5/8 pair
    assert shanten("123m456p789s1m [666s]", ruleset="wuhan") == 1
    h = "123m456p789s1m [666s]"
    c = majiang.hand.as_hand(h)
    assert _oracle_waits(c.concealed, "wuhan", c.melds) == []


def test_every_big_fan_is_classified():
    """Each big fan of the three rulesets is a shape family or situational."""
    from majiang.rules.fans import big_shapes
    for name in ("changsha", "hefei", "wuhan"):
        rs = rules.get(name)
        fams = big_shapes(rs)
        assert "all_258" in fams and "all_pungs" in fams and "flush" in fams
        for f in rs.fans:
            if "big" in f.tags:
                assert ("situational" in f.tags or any(t.startswith("shape:") for t in f.tags)
                        or f.predicate.__name__ in ("seven_pairs", "all_pungs", "flush",
                                                    "all_honors", "all_258", "melded_all")), \
                    (name, f.chinese)


# ------------------------------------------------------------ 武汉 with jokers (brute force)
def _wuhan_hands(seed: int, n: int):
    """13-tile 武汉 hands with one claimed pung, 0-2 jokers: a complete hand less one
    tile, some tiles turned into jokers, sometimes one tile changed (红中 included)."""
    from majiang.hand import Meld
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        c = np.zeros(34, np.int64)
        kind = rng.integers(4)
        suits = [int(rng.integers(3))] if kind == 1 else [0, 1, 2, 3]
        groups = []
        for _ in range(4):
            s = suits[int(rng.integers(len(suits)))]
            if s == 3:
                groups.append(("pung", 27 + int(rng.integers(6))))
            else:
                r = int(rng.integers(9))
                if kind == 2 or r > 6 or rng.random() < 0.4:
                    groups.append(("pung", 9 * s + r))
                else:
                    groups.append(("chow", 9 * s + r))
        if kind == 3:                                  # 将一色
            groups = [("pung", int(k)) for k in rng.choice(K258, 4, replace=False)]
        s = suits[int(rng.integers(len(suits)))]
        pair = (27 + int(rng.integers(6)) if s == 3 else
                9 * s + (int(rng.choice([1, 4, 7])) if rng.random() < 0.6 else int(rng.integers(9))))
        meld_kind, meld_tile = next(((k, t) for k, t in groups if k == "pung"), (None, None))
        if meld_kind is None:
            continue
        groups.remove(("pung", meld_tile))
        for k, t in groups:
            if k == "pung":
                c[t] += 3
            else:
                c[t:t + 3] += 1
        c[pair] += 2
        c[rng.choice(np.flatnonzero(c))] -= 1
        if rng.random() < 0.4:
            c[rng.choice(np.flatnonzero(c))] -= 1
            c[int(rng.integers(34))] += 1
        J = int(rng.choice([0, 1, 1, 2]))
        for _ in range(J):
            c[rng.choice(np.flatnonzero(c))] -= 1
        if c.max() > 4 or c[meld_tile] + 3 > 4:
            continue
        out.append((c.astype(np.uint8), (Meld("pung", meld_tile),), J))
    return out


def test_wuhan_jokers_tenpai_equals_the_predicate():
    n_ready = 0
    for c, melds, J in _wuhan_hands(21, 70):
        h = Hand(c, melds, (), J)
        held = c.astype(int) + np.bincount([t for m in melds for t in m.tiles], minlength=34)
        wins = [t for t in range(34) if held[t] < 4 and any(
            check_win(h, t, ruleset="wuhan", self_drawn=sd).valid for sd in (True, False))]
        joker_win = check_win(h, None, ruleset="wuhan", win_is_joker=True).valid
        s = shanten(h, ruleset="wuhan")
        assert (s == 0) == bool(wins or joker_win), (str(h), s, wins, joker_win)
        if J == 0 and s == 0:
            assert sorted(ukeire(h, ruleset="wuhan")) == sorted(tile_name(t) for t in wins)
        n_ready += s == 0
    assert n_ready >= 15


# ------------------------------------------------------------ probabilities
def test_probabilities_follow_the_shapes():
    from majiang.probability import probabilities
    # 将将胡 of no regular shape, ready on 9 kinds (23 live of the 95 unseen)
    r = probabilities("2258m2258p2258s8s", 1, ruleset="changsha")
    assert r.p_win == pytest.approx(23 / 95)
    assert probabilities("2258m2258p2258s8s", 2, ruleset="changsha").p_win > r.p_win
    # not ready under changsha: no tenpai before a draw, none after one (2-shanten)
    assert probabilities("123m456p789s1166s", 0, ruleset="changsha").p_tenpai == 0.0
    assert probabilities("123m456p789s1166s", 1, ruleset="changsha").p_tenpai == 0.0


def test_one_draw_probabilities_by_brute_force():
    """T = 1 on the true 108-tile wall: p_win = P(the draw wins by THE predicate),
    p_tenpai = P(some discard after the draw leaves a ready hand, by the
    predicate-checked waits) — computed here without the ruleset's shanten."""
    from majiang.probability import probabilities
    for c in _near_hands(41, 14):
        wall = 4 - c.astype(int)
        wall[27:] = 0
        U = wall.sum()
        p_win = sum(wall[t] for t in range(27) if wall[t] and _wins(c, t)) / U
        p_ten = 0.0
        for t in range(27):
            if not wall[t]:
                continue
            c14 = c.copy()
            c14[t] += 1
            if _wins(c, t) or any(_ready(c14 - np.eye(34, dtype=np.uint8)[d])
                                  for d in np.flatnonzero(c14)):
                p_ten += wall[t] / U
        r = probabilities(c, 1, ruleset="changsha")
        assert r.p_win == pytest.approx(p_win, abs=1e-12), format_counts(c)
        assert r.p_tenpai == pytest.approx(p_ten, abs=1e-12), format_counts(c)


def test_long_horizon_probabilities_follow_the_shapes():
    from majiang.probability import probabilities
    two = probabilities("2258m2258p2258s8s", 2, ruleset="changsha").p_win
    assert probabilities("2258m2258p2258s8s", 3, ruleset="changsha").p_win >= two


def test_starting_hand_shanten_uses_the_shapes():
    """Same seed, same 108-tile wall, so the same deals: changsha (2-5-8 pair for a small
    win) has fewer ready starting hands than 转转 (any pair), and its histogram is the
    one of shanten_batch under changsha (checked on the deals' total)."""
    from majiang.probability import starting_hand_shanten
    cs = starting_hand_shanten(20_000, ruleset="changsha", seed=3)
    zz = starting_hand_shanten(20_000, ruleset="changsha_zhuanzhuan", seed=3)
    assert cs["count"].sum() == zz["count"].sum() == 20_000
    ready = {name: int(d.loc[d["shanten"] <= 0, "count"].sum()) for name, d in
             (("cs", cs), ("zz", zz))}
    assert ready["cs"] < ready["zz"]
    assert not cs["count"].equals(zz["count"])


def test_all_258_form_without_the_258_rule():
    """合肥 jiang_258=False (any pair for a 小和) keeps the all_258 form: every form wins
    by itself; checked against THE predicate on a ruleset without 八枝."""
    from majiang.rules import hefei
    rs = hefei.build(jiang_258=False)
    no8 = dataclasses.replace(rs, name="hefei_no_eight_test", constraints=())
    assert shanten("2258m2258p2258s8s", ruleset=no8) == 0
    # 八枝 (8 of a suit) is part of the shape now: 4 + 4 + 5 tiles keep at most 11 of
    # a complete 将将和 (tests/test_hefei.py)
    assert shanten("2258m2258p2258s8s", ruleset=rs) == 2
    assert shanten("123m456p789s1166s", ruleset=rs) == 0
    assert majiang.waits("123m456p789s1166s", ruleset=rs) == ["1s", "6s"]
    free = dataclasses.replace(rules.get("changsha_zhuanzhuan"), name="zz_all_258_test",
                               forms=("regular", "seven_pairs", "all_258"))
    for c in _near_hands(31, 60):
        want = _oracle_waits(c, free)
        assert (shanten(c, ruleset=free) == 0) == bool(want), format_counts(c)
        drawable = [t for t in majiang.waits(format_counts(c), ruleset=free)
                    if c[majiang.tiles.parse_tile(t)] < 4]
        assert drawable == [tile_name(t) for t in want]

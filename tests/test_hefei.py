"""合肥 (hefei): fans, settlement and win rules.

Every expected value is worked out by hand from the rule text (docs/rules/hefei.md; docs/rules/changsha.md for the Changsha values it uses), never
read from the code's output; the worked examples of the page are checked exactly
("source example") or as computed there ("computed").
"""

from __future__ import annotations

import pytest
from majiang import InvalidHandError, rules
from majiang.rules import hefei
from majiang.scoring import score
from itertools import combinations_with_replacement
import numpy as np
import majiang
from majiang.efficiency import shanten, shanten_batch, ukeire
from majiang.hand import Hand
from majiang.scoring import check_win
from majiang.tiles import format_counts, tile_name
from _hands import K258, family_hand, near_hands

# ----------------------------------------------------------------- 合肥
# values (docs/rules/changsha.md §2 via docs/rules/hefei.md §1): 小和 1 (self-draw 2 from each); each
# 大和 6; 超大和 12; 最大和 18; 豪华七对 12, 双豪华 18.
HEFEI_FANS = [
    # hand (13), win, context, fan, expected points
    ("11112222m55p66p7p", "7p", {}, "双豪华七小对", 18),
    ("1111m2233m55p66p7p", "7p", {}, "豪华七对", 12),
    ("1122m3344m55p66p7p", "7p", {}, "七小对", 6),
    ("111333666999m4p", "4p", {}, "碰碰和", 6),
    ("123m456m789m11m45m", "6m", {}, "清一色", 6),
    ("123456789m5p {2222p}", "5p", {"self_drawn": True, "kong": True}, "杠上花", 6),
    ("123456789m34p88p", "2p", {"kong": True}, "抢杠和", 6),
    ("123456789m34p88p", "2p", {"self_drawn": True, "last_tile": True}, "海底捞月", 6),
    ("5p [123m] [456m] [789m] [111m]", "5p", {}, "全求人", 6),
    ("123456789m55p34p", "2p", {}, "小和", 1),
    ("123456789m55p34p", "2p", {"self_drawn": True}, "小和自摸", 2),
]


@pytest.mark.parametrize("hand, win, kw, fan, points", HEFEI_FANS)
def test_hefei_fan(hand, win, kw, fan, points):
    r = score(hand, win, ruleset="hefei", **kw)
    assert fan in r
    assert r.points == points


def test_hefei_every_fan_tested():
    tested = {c[3] for c in HEFEI_FANS} | {"将将和"}
    assert {f.chinese for f in rules.get("hefei").fans} == tested


def test_hefei_jiangjiang_is_a_big_win_and_classes_add():
    # docs/rules/hefei.md: 碰碰和 + 将将和 is a 超大和 = 12 (docs/rules/hefei.md §1)
    r = score("222m555m888m22p55p", "2p", ruleset="hefei")
    assert "将将和" in r and "碰碰和" in r and r.points == 12


def test_hefei_zuidahe_cap():
    # docs/rules/hefei.md 最大和: 豪华七对 + 清一色 + 海底捞月 = 18 (not 12 + 6 + 6)
    hand, win, kw = "1111m2233m5566m7m", "7m", {"self_drawn": True, "last_tile": True}
    assert score(hand, win, ruleset="hefei", **kw).points == 18
    # the uncapped Changsha addition
    assert score(hand, win, ruleset=hefei.build(cap=None), **kw).points == 24


def test_hefei_win_constraints():
    # 八枝: no suit holds 8 tiles
    with pytest.raises(InvalidHandError, match="eight_of_a_suit"):
        score("123m456p789s55s34m", "2m", ruleset="hefei")
    # 小和 needs a 2-5-8 pair (Changsha reading); option jiang_258=False lifts it
    with pytest.raises(InvalidHandError, match="pair_258_small"):
        score("123456789m11p34p", "2p", ruleset="hefei")
    assert score("123456789m11p34p", "2p", ruleset=hefei.build(jiang_258=False)).points == 1
    # a 大和 may use any pair
    assert score("123m456m789m11m45m", "6m", ruleset="hefei").points == 6


def test_hefei_settlement():
    # 小和 on a discard: 1 from the discarder
    assert score("123456789m55p34p", "2p", ruleset="hefei").settle(0, 2) == (1, 0, -1, 0)
    # 小和 self-drawn: 2 from each
    assert score("123456789m55p34p", "2p", ruleset="hefei",
                 self_drawn=True).settle(1) == (-2, 6, -2, -2)
    # 大和: 6 from the discarder, or 6 from each on a self-draw
    assert score("123m456m789m11m45m", "6m", ruleset="hefei").settle(3, 0) == (-6, 0, 0, 6)
    assert score("123m456m789m11m45m", "6m", ruleset="hefei",
                 self_drawn=True).settle(0) == (18, -6, -6, -6)


def test_hefei_start_of_hand_wins():
    assert hefei.start_of_hand_wins("1111m369m1369p13s") == ("四喜", "无将和")
    assert hefei.start_of_hand_wins("123456789m1234p5s") == ()
    assert hefei.start_of_hand_wins("111m222p3456789s1p") == ("六顺",)
    assert hefei.start_of_hand_wins("123456789m1234p") == ("缺一色",)
    assert hefei.START_OF_HAND_PAYMENT == 2


# ============================================================================
# 八枝 (eight of a suit) in shanten, ukeire and waits
# 合肥 八枝 (``eight_of_a_suit``: at the win one suit holds 8 or more tiles, melds and
# kongs included; rules/hefei.py, docs/rules/hefei.md §1) in shanten, ukeire and
# waits.
#
# Two independent checks:
#
# * THE win predicate (:func:`majiang.scoring.check_win`, no situational context: a
#   13-tile hand is ready iff some drawable tile makes it a valid win, self-drawn or on
#   a discard) for tenpai, waits and ukeire;
# * exhaustive targets: for small bare count vectors (7, 8, 10, 11 tiles: 2 or 3 sets
#   and a pair) every complete hand that wins by shape under 合肥 is listed from the
#   rules' text (small win: sets + a 2-5-8 pair; 大和 shapes any pair: all pungs, one
#   suit, 将将和 of any shape), 八枝 applied, and the shanten is
#   ``need - max_T sum(min(T, hand)) - 1``; the same predicate written here is checked
#   against :func:`check_win` on the 14-tile hands of the first test and gives the
#   1-shanten check of 13-tile hands (some draw and discard leave a ready hand).
# ============================================================================
HF = rules.get("hefei")


# ------------------------------------------------------------ an independent predicate
def _sets_and_pair(c: list, pair_ok) -> bool:
    """Sets (pungs / chows of a suit) and exactly one pair whose kind passes pair_ok."""
    def rec(c, pair):
        i = next((k for k in range(27) if c[k]), None)
        if i is None:
            return pair
        if c[i] >= 3:
            c[i] -= 3
            ok = rec(c, pair)
            c[i] += 3
            if ok:
                return True
        if not pair and c[i] >= 2 and pair_ok(i):
            c[i] -= 2
            ok = rec(c, True)
            c[i] += 2
            if ok:
                return True
        if i % 9 <= 6 and c[i + 1] and c[i + 2]:
            for k in (i, i + 1, i + 2):
                c[k] -= 1
            ok = rec(c, pair)
            for k in (i, i + 1, i + 2):
                c[k] += 1
            if ok:
                return True
        return False
    return rec(list(c), False)


def _pungs_and_pair(c: list) -> bool:
    return sorted(x for x in c if x) .count(2) == 1 and all(x in (0, 2, 3) for x in c)


def _wins_by_shape(c: list, melds=()) -> bool:
    """合肥 by shape: c = the concealed tiles of a complete hand (win tile included)."""
    allc = list(c)
    for m in melds:
        for t in m.tiles:
            allc[t] += 1
    if not any(sum(allc[9 * s:9 * s + 9]) >= 8 for s in range(3)):
        return False                                        # 八枝
    if _sets_and_pair(c, lambda k: k in K258):              # 小和: 2-5-8 pair
        return True
    if not melds and sum(c) == 14 and all(x % 2 == 0 for x in c):
        return True                                         # 七小对 (a quad = two pairs)
    if all(m.kind != "chow" for m in melds) and _pungs_and_pair(c):
        return True                                         # 碰碰和
    if len({t // 9 for t in range(27) if allc[t]}) == 1 and _sets_and_pair(c, lambda k: True):
        return True                                         # 清一色
    if all(allc[t] == 0 for t in range(27) if t not in K258):
        return True                                         # 将将和, any shape
    if len(melds) == 4 and all(not m.concealed for m in melds) and max(c) == 2:
        return True                                         # 全求人
    return False


def _predicate(c: np.ndarray, t: int, melds=()) -> bool:
    h = Hand(c, melds)
    return any(check_win(h, t, ruleset=HF, self_drawn=sd).valid for sd in (True, False))


# ------------------------------------------------------------ hands
def _complete(rng) -> np.ndarray:
    """A complete 14-tile hand by shape alone (八枝 not asked for: about half have it)."""
    while True:
        kind = rng.integers(5)
        suits = [int(rng.integers(3))] if kind == 4 else list(rng.permutation(3)[:2 + (
            rng.random() < 0.6)])
        family = {1: "seven_pairs", 2: "all_258", 3: "pungs"}.get(int(kind), "sets")
        c = family_hand(rng, family, suits, pair_258=kind == 0)
        if c is not None:
            return c


def _hands13(seed: int, n: int) -> list[np.ndarray]:
    return near_hands(_complete, seed, n)



# ------------------------------------------------------------ THE predicate
@pytest.mark.parametrize("seed", [3, 4])
def test_tenpai_waits_ukeire_equal_the_predicate(seed):
    ready = eight_decides = 0
    for c in _hands13(seed, 70):
        want = [t for t in range(27) if c[t] < 4 and _predicate(c, t)]
        for t in range(27):                 # the predicate written above, on 14 tiles
            if c[t] < 4:
                c14 = [int(x) for x in c]
                c14[t] += 1
                assert _wins_by_shape(c14) == (t in want), (format_counts(c), t)
        s = shanten(c, ruleset=HF)
        text = format_counts(c)
        assert s >= 0 and (s == 0) == bool(want), (text, s, want)
        got = [w for w in majiang.waits(text, ruleset="hefei")
               if c[majiang.tiles.parse_tile(w)] < 4]
        assert got == [tile_name(t) for t in want], text
        if want:
            ready += 1
            assert sorted(ukeire(c, ruleset=HF)) == sorted(tile_name(t) for t in want), text
        free = majiang.shanten(c, ruleset=rules.get("changsha"))  # same shapes, no 八枝
        eight_decides += s != free
    assert ready >= 15 and eight_decides >= 10


def test_eight_with_a_void_suit_equals_the_predicate():
    """八枝 with 缺一门 (a house rule on 合肥): the two suit rules together (the void suits
    found once in the 2-5-8 groups and handed to the 八枝 tables) against THE predicate
    of that ruleset; shanten_batch (row by row) equals shanten."""
    cons = ", ".join(f'"{x}"' for x in tuple(HF.constraints) + ("void_suit",))
    rs = rules.loads(f'base = "hefei"\nname = "hefei_void"\n[rules]\nconstraints = [{cons}]\n')
    ready = void_decides = 0
    hands = _hands13(12, 50)
    for c in hands:
        want = [t for t in range(27) if c[t] < 4 and any(
            check_win(Hand(c), t, ruleset=rs, self_drawn=sd).valid for sd in (True, False))]
        s = shanten(c, ruleset=rs)
        text = format_counts(c)
        assert s >= 0 and (s == 0) == bool(want), (text, s, want)
        got = [w for w in majiang.waits(text, ruleset=rs)
               if c[majiang.tiles.parse_tile(w)] < 4]
        assert got == [tile_name(t) for t in want], text
        if want:
            ready += 1
            assert sorted(ukeire(c, ruleset=rs)) == sorted(tile_name(t) for t in want), text
        void_decides += s != shanten(c, ruleset=HF)
    assert ready >= 12 and void_decides >= 10
    assert shanten_batch(np.array(hands), ruleset=rs).tolist() == [
        shanten(c, ruleset=rs) for c in hands]


def test_examples():
    # 6 + 5 + 2 tiles of the three suits: a 2-5-8 pair and sets, ready under 长沙 (no
    # 八枝); under 合肥 a complete hand keeps at most 11 of these tiles (e.g. 123456m88m
    # 456p789s: the 22p pair goes, 8m 8m 9s come), so two swaps are needed before the win
    hand = "123m456m22p456p78s"
    assert majiang.shanten(hand, ruleset="changsha") == 0
    assert not [t for t in range(27) if _predicate(majiang.as_hand(hand).concealed, t)]
    assert shanten(hand, ruleset="hefei") == 2
    assert majiang.waits(hand, ruleset="hefei") == [] and ukeire(hand, ruleset="hefei")
    # 8 万 after the draw: ready on 3m / 6m / 9m (the 5p pung, the 22p pair)
    assert majiang.waits("123m456m78m22p555s", ruleset="hefei") == ["3m", "6m", "9m"]


def test_melds_count_toward_eight():
    # [222m] + 12345m: 8 万 with the pung, so the wait on 3m/6m counts
    for text in ("[222m]12345m55p567s", "[789p]12345m55p567s"):
        h = majiang.as_hand(text)
        want = [t for t in range(27)
                if h.all_counts[t] < 4 and _predicate(h.concealed, t, h.melds)]
        assert [w for w in majiang.waits(text, ruleset="hefei")] == [tile_name(t)
                                                                     for t in want]
        assert (shanten(text, ruleset="hefei") == 0) == bool(want), text
        if want:
            assert sorted(ukeire(text, ruleset="hefei")) == sorted(tile_name(t) for t in want)


def test_one_shanten_by_draw_and_discard():
    """A 13-tile hand is 1-shanten iff it is not ready and some draw and discard leave a
    ready hand (ready by the predicate written above)."""
    def ready(c):
        for t in range(27):
            if c[t] < 4:
                c[t] += 1
                ok = _wins_by_shape(c)
                c[t] -= 1
                if ok:
                    return True
        return False

    checked = 0
    for c in _hands13(9, 30):
        s = shanten(c, ruleset=HF)
        if s > 1:
            continue
        cl = [int(x) for x in c]
        one = False
        if not ready(cl):
            for d in range(27):
                if cl[d] >= 4 or one:
                    continue
                cl[d] += 1
                for x in range(27):
                    if cl[x] and x != d:
                        cl[x] -= 1
                        one = one or ready(cl)
                        cl[x] += 1
                cl[d] -= 1
            assert (s == 1) == one, format_counts(c)
            checked += 1
    assert checked >= 8


# ------------------------------------------------------------ exhaustive targets
def _targets(n_sets: int) -> np.ndarray:
    """Every complete hand of ``n_sets`` sets + a pair, or of ``3 n_sets + 2`` tiles of
    将将和, that wins under 合肥 by shape (八枝 included), as int16 (N, 27) counts, listed
    by construction: a regular target wins when its pair is a 2, 5 or 8 (小和), its sets
    are all pungs (碰碰和) or it is of one suit (清一色)."""
    eye = np.eye(27, dtype=np.int16)
    sets = [3 * eye[k] for k in range(27)] + [eye[k:k + 3].sum(0) for k in range(27)
                                               if k % 9 <= 6]
    suit = [k // 9 for k in range(27)] + [k // 9 for k in range(27) if k % 9 <= 6]
    sets = np.array(sets)
    suit = np.array(suit)
    combos = np.array(list(combinations_with_replacement(range(len(sets)), n_sets)))
    base = sets[combos].sum(axis=1)
    pungs_only = (combos < 27).all(axis=1)
    one_suit = np.where((suit[combos] == suit[combos][:, :1]).all(axis=1),
                        suit[combos][:, 0], -1)
    out = []
    for p in range(27):
        t = base.copy()
        t[:, p] += 2
        wins = (p in K258) | pungs_only | (one_suit == p // 9)
        out.append(t[(t.max(axis=1) <= 4) & wins])
    need = 3 * n_sets + 2
    j = np.array([np.bincount(combo, minlength=27)
                  for combo in combinations_with_replacement(K258, need)], np.int16)
    out.append(j[j.max(axis=1) <= 4])                   # 将将和 of any shape
    T = np.concatenate(out)
    T = T[T.reshape(-1, 3, 9).sum(axis=2).max(axis=1) >= 8]     # 八枝
    return np.unique(T, axis=0)


@pytest.mark.parametrize("n_sets", [2, 3])
def test_small_hands_equal_exhaustive_targets(n_sets):
    T = _targets(n_sets)
    need = 3 * n_sets + 2
    rng = np.random.default_rng(20 + n_sets)
    rows = []
    for size in (need - 1, need):
        for i in range(60):
            if i % 2:       # mostly one or two suits, so 八枝 is near
                suits = rng.choice(3, 1 + int(rng.integers(2)), replace=False)
                pool = np.concatenate([np.arange(9 * s, 9 * s + 9) for s in suits])
            else:
                pool = np.arange(27)
            c = np.zeros(34, np.int64)
            for k in rng.choice(np.repeat(pool, 4), size, replace=False):
                c[k] += 1
            rows.append(c.astype(np.uint8))
    got = shanten_batch(np.array(rows), ruleset=HF)
    for c, s in zip(rows, got):
        kept = np.minimum(T, c[:27].astype(np.int16)).sum(axis=1).max()
        assert s == max(-1, need - kept - 1), format_counts(c)
        assert shanten(c, ruleset=HF) == s

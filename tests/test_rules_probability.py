"""Probabilities under every complete ruleset with its own tile set or win constraints.

The reference is a plain-Python expectimax over the *actual* draws from the
ruleset's real wall (a tile drawn and thrown back has left the wall), with THE win
predicate (``check_win``) as the only win test, written here independently of the
probability kernel: no shanten, no hand-state graph.  A small plain-Python
completeness test (regular / seven pairs / thirteen orphans, jokers filling any
gap) only skips the predicate on hands that cannot be complete.

Monte Carlo over real shuffled walls of each ruleset must agree with the exact
model at T = 18 within 3 standard errors.
"""
from __future__ import annotations

import signal
import threading
from functools import lru_cache

import numpy as np
import pytest

from majiang import probability as P
from majiang.errors import InvalidHandError, MahjongError, RuleError
from majiang.hand import Hand, parse_hand
from majiang.rules import BUILDERS
from majiang.rules.model import game_model
from majiang.tiles import parse_counts, tile_name

try:                                  # THE win predicate (moving into majiang.scoring)
    from majiang.scoring import check_win
except ImportError:                   # pragma: no cover
    from majiang.scoring import check_win

JOKER = 34
ORPHANS = frozenset([0, 8, 9, 17, 18, 26] + list(range(27, 34)))
SHANDONG_258 = BUILDERS["shandong"](pair_258=True)


# ----------------------------------------------------------- independent pieces
@lru_cache(maxsize=None)
def _regular(c: tuple, j: int, pair: bool) -> bool:
    """Can the real tiles ``c`` (34 counts) and ``j`` jokers form sets (and a pair if
    ``pair``)?  Plain recursion on the lowest remaining kind."""
    i = next((k for k in range(34) if c[k]), None)
    if i is None:
        return j % 3 == (2 if pair else 0)
    lst = list(c)
    # pung (jokers fill the missing copies)
    for t in range(1, min(3, c[i]) + 1):
        if 3 - t <= j:
            lst[i] -= t
            if _regular(tuple(lst), j - (3 - t), pair):
                return True
            lst[i] += t
    if pair:
        for t in range(1, min(2, c[i]) + 1):
            if 2 - t <= j:
                lst[i] -= t
                if _regular(tuple(lst), j - (2 - t), False):
                    return True
                lst[i] += t
    if i < 27:
        r, base = i % 9, i - i % 9
        for lo in (r - 2, r - 1, r):               # chows holding i, lower members jokers
            if lo < 0 or lo + 2 > 8:
                continue
            members = [base + lo + x for x in range(3)]
            # every way to take the members above i real or as a joker
            above = [m for m in members if m > i]
            below = sum(1 for m in members if m < i)
            for mask in range(1 << len(above)):
                use = [m for b, m in enumerate(above) if mask >> b & 1]
                if any(lst[m] == 0 for m in use):
                    continue
                need = below + len(above) - len(use)
                if need > j:
                    continue
                lst[i] -= 1
                for m in use:
                    lst[m] -= 1
                ok = _regular(tuple(lst), j - need, pair)
                lst[i] += 1
                for m in use:
                    lst[m] += 1
                if ok:
                    return True
    return False


def _could_be_complete(c: tuple, j: int, n_melds: int) -> bool:
    """A superset of every winning shape of the tested rulesets."""
    if _regular(c, j, True):
        return True
    if n_melds:
        return False
    odd = sum(x % 2 for x in c)
    if odd <= j and (j - odd) % 2 == 0:           # seven pairs (quads allowed)
        return True
    if all(c[k] == 0 for k in range(34) if k not in ORPHANS) and max(c) <= 2:
        dup = sum(1 for x in c if x == 2)
        return dup <= 1
    return False


def _stand_in(model, indicator):
    """(face, stand-in) when a stand-in plays as the wild kind's face (安庆 红中; 白板
    under 温州 / 上海百搭 活动百搭 / 杭州 翻财神), else None."""
    if model.ruleset is None or indicator is None:
        return None
    from majiang.rules.shapes import stand_in
    si = stand_in(model.ruleset, indicator)
    return None if si is None else (si[0], si[1])


def _as_played(h, model, indicator):
    """A hand as its tiles look -> as they play: each stand-in (concealed or in a pung /
    kong) counts as the wild kind's face (the wall deals it as that face)."""
    si = _stand_in(model, indicator)
    if si is None:
        return h
    from majiang.hand import Meld
    face, sub = si
    c = np.array(h.concealed, dtype=np.uint8)
    c[face] += c[sub]
    c[sub] = 0
    melds = tuple(Meld(m.kind, face, m.concealed) if m.tile == sub and m.kind != "chow"
                  else m for m in h.melds)
    return Hand(c, melds, h.flowers, h.jokers)


class Brute:
    """Expectimax over actual draws: ``value(T)`` = max over play of P(win within T)."""

    def __init__(self, ruleset, hand: str, visible: str | None = None, indicator=None,
                 **ctx):
        self.model = game_model(ruleset)
        self.rs = self.model.ruleset
        h = _as_played(parse_hand(hand, hand_size=self.model.hand_size), self.model,
                       indicator)
        self.melds = h.melds
        w = self.model.wall(indicator)
        vis = parse_counts(visible).astype(int) if visible else np.zeros(34, int)
        wall = w.counts.astype(int) - h.all_counts.astype(int) - vis
        assert wall.min() >= 0
        self.wall0 = tuple(int(x) for x in wall) + (int(w.jokers) - h.jokers,)
        self.h0 = tuple(int(x) for x in h.concealed)
        self.j0 = h.jokers
        jr = self.model.jokers
        self.joker_discard = jr is None or jr.discard
        self.ctx = ctx
        self.checks = 0

    @lru_cache(maxsize=None)
    def wins(self, h14: tuple, nj: int, k: int) -> bool:
        if any(x > 4 for x in h14):
            return False
        if not self.model.honor_chows and not _could_be_complete(h14, nj, len(self.melds)):
            return False        # (honour chows, 南昌: that superset misses them)
        before = list(h14)
        if k != JOKER:
            before[k] -= 1
        self.checks += 1
        rs = self.rs if self.rs is not None else None
        if k == JOKER:
            hand = Hand(np.array(before, dtype=np.uint8), self.melds, (), nj - 1)
            return check_win(hand, None, ruleset=rs, self_drawn=True, win_is_joker=True,
                             **self.ctx).valid
        hand = Hand(np.array(before, dtype=np.uint8), self.melds, (), nj)
        return check_win(hand, k, ruleset=rs, self_drawn=True, **self.ctx).valid

    def _add(self, h: tuple, nj: int, k: int):
        if k == JOKER:
            return h, nj + 1
        lst = list(h)
        lst[k] += 1
        return tuple(lst), nj

    @lru_cache(maxsize=None)
    def waits(self, h: tuple, nj: int) -> tuple:
        kinds = range(35) if self.wall0[JOKER] else range(34)
        return tuple(k for k in kinds if self.wins(*self._add(h, nj, k), k))

    def _discards(self, h: tuple, nj: int):
        for d in range(34):
            if h[d]:
                lst = list(h)
                lst[d] -= 1
                yield tuple(lst), nj
        if nj and self.joker_discard:
            yield h, nj - 1

    def value(self, T: int) -> float:
        return self._v(self.h0, self.j0, self.wall0, T) if T else 0.0

    def _v(self, h: tuple, nj: int, wall: tuple, t: int) -> float:
        U = sum(wall)
        if t == 1:
            return sum(wall[k] for k in self.waits(h, nj)) / U
        total = 0.0
        for k in range(35):
            if not wall[k]:
                continue
            p = wall[k] / U
            h14, nj14 = self._add(h, nj, k)
            if self.wins(h14, nj14, k):
                total += p
                continue
            w2 = list(wall)
            w2[k] -= 1
            w2 = tuple(w2)
            best = max(self._v(h13, j13, w2, t - 1) for h13, j13 in self._discards(h14, nj14))
            total += p * best
        return total


# ----------------------------------------------------------- hands per ruleset
def _random_hands(ruleset, n: int, seed: int, *, meld: str | None = None,
                  suits=(0, 1, 2), honors: bool = True, shanten1: int = 0,
                  indicator=None, accept=None) -> list[str]:
    """``n`` hands near a complete shape of the ruleset's tile set: a random complete
    14-tile shape minus one tile (and ``shanten1`` of them with one more tile
    swapped).  ``meld``: the first set is exposed ("pung" / "chow" / "any")."""
    model = game_model(ruleset)
    rng = np.random.default_rng(seed)
    hs = model.hand_size
    n_sets = (hs + 1) // 3
    out: list[str] = []
    avail = model.wall(indicator).counts if model.jokers is not None else model.copies
    kinds = [k for k in model.kinds if ((k >= 27 and honors) or (k < 27 and k // 9 in suits))
             and avail[k] >= 3]
    while len(out) < n:
        c = np.zeros(34, int)
        sets = []
        for s in range(n_sets):
            for _ in range(50):
                k = int(rng.choice(kinds))
                if k < 27 and k % 9 <= 6 and rng.random() < 0.6 and (
                        meld != "pung" or s > 0) and k + 2 in kinds:
                    tiles = [k, k + 1, k + 2]
                elif meld != "chow" or s > 0:
                    tiles = [k, k, k]
                else:
                    continue
                cc = c.copy()
                for t in tiles:
                    cc[t] += 1
                if all(cc[t] <= avail[t] for t in tiles):
                    c = cc
                    sets.append(tiles)
                    break
        for _ in range(50):
            k = int(rng.choice(kinds))
            if c[k] + 2 <= avail[k]:
                c[k] += 2
                break
        if c.sum() != 3 * n_sets + 2:
            continue
        concealed = c.copy()
        exposed = ""
        if meld is not None:
            for t in sets[0]:
                concealed[t] -= 1
            exposed = " [" + "".join(tile_name(t)[0] for t in sets[0]) + tile_name(sets[0][0])[1] + "]"
        idx = np.repeat(np.arange(34), concealed)
        drop = int(rng.choice(idx))
        concealed[drop] -= 1
        if len(out) < shanten1:
            idx = np.repeat(np.arange(34), concealed)
            drop2 = int(rng.choice(idx))
            add = int(rng.choice(kinds))
            if add != drop2 and c[add] + 1 <= avail[add] - (1 if add == drop else 0):
                concealed[drop2] -= 1
                concealed[add] += 1
        from majiang.tiles import format_counts
        si = _stand_in(model, indicator)
        if si is not None:      # a stand-in dealt as the wild kind's face: written as itself
            concealed[si[1]] += concealed[si[0]]
            concealed[si[0]] = 0
            if meld is not None and sets[0][0] == si[0] and sets[0][1] == si[0]:
                exposed = " [" + 3 * tile_name(si[1])[0] + tile_name(si[1])[1] + "]"
        text = format_counts(concealed.astype(np.uint8)) + exposed
        try:
            h = parse_hand(text, hand_size=hs)
        except MahjongError:
            continue
        if any(not model.copies[k] for k in np.flatnonzero(h.all_counts)):
            continue
        if accept is not None and not accept(h.all_counts):
            continue
        out.append(text)
    return out


RULESETS = {
    # name: (ruleset, generator options, extra probability options)
    "sichuan": ("sichuan", dict(suits=(0, 1), honors=False), {}),
    "sichuan_xueliu": ("sichuan_xueliu", dict(suits=(1, 2), honors=False), {}),
    "changsha": ("changsha", dict(honors=False), {}),
    "wuhan": ("wuhan", dict(meld="any", honors=False), {"indicator": "1z"}),
    # 沈阳: all three suits and a suited 1 or 9 (else every hand is 0 by rule)
    "shenyang": ("shenyang", dict(meld="pung", accept=lambda c: all(
        c[9 * s:9 * s + 9].sum() for s in range(3)) and any(c[k] for k in (0, 8, 9, 17, 18, 26))),
        {}),
    "shandong_258": (SHANDONG_258, dict(), {}),
    "guangdong": ("guangdong", dict(), {}),
    "taiwan": ("taiwan", dict(), {}),
    "kawuxing": ("kawuxing", dict(suits=(1, 2)), {}),
}
N_FAST, N_SLOW = 3, 10


def _hands(name: str, n: int) -> list[str]:
    rs, gen, opts = RULESETS[name]
    return _random_hands(rs, n, seed=sum(map(ord, name)), shanten1=n // 2,
                         indicator=opts.get("indicator"), **gen)


# ----------------------------------------------------------- exact = brute force
def _check_exact(name: str, hand: str, T: int, visible: str | None = None) -> None:
    rs, _, opts = RULESETS[name]
    ref = Brute(rs, hand, visible, **opts).value(T)
    got = P.probabilities(hand, T, ruleset=rs, method="exact", visible=visible, **opts)
    assert got.model == "true wall" and got.policy == "optimal"
    assert got.p_win == pytest.approx(ref, abs=1e-9), (name, hand, T)
    auto = P.probabilities(hand, T, ruleset=rs, visible=visible, **opts)
    assert auto.p_win == pytest.approx(ref, abs=1e-9)


@pytest.mark.parametrize("name", sorted(RULESETS))
@pytest.mark.parametrize("T", [1, 2])
def test_exact_equals_brute_force_small_set(name, T):
    for hand in _hands(name, N_FAST)[:N_FAST]:
        _check_exact(name, hand, T)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RULESETS))
def test_exact_equals_brute_force_ten_hands(name):
    for hand in _hands(name, N_SLOW):
        for T in (1, 2):
            _check_exact(name, hand, T)


def _narrow_visible(name: str, hand: str, keep: int, seed: int) -> str:
    """Visible tiles that leave only ``keep`` drawable kinds (so T = 3 is cheap for
    the brute force): every other kind's remaining copies are visible."""
    rs, _, opts = RULESETS[name]
    model = game_model(rs)
    h = parse_hand(hand, hand_size=model.hand_size)
    w = model.wall(opts.get("indicator")).counts.astype(int) - h.all_counts.astype(int)
    rng = np.random.default_rng(seed)
    live = [k for k in range(34) if w[k] > 0]
    near = [k for k in live if h.concealed[k] or (k < 27 and any(
        h.concealed[j] for j in range(k - 2, k + 3) if 0 <= j < 27 and j // 9 == k // 9))]
    pick = set(near[:keep]) | set(rng.choice(live, size=min(2, len(live)), replace=False).tolist())
    vis = np.array([w[k] if k not in pick else 0 for k in range(34)], dtype=np.uint8)
    from majiang.tiles import format_counts
    return format_counts(vis)


@pytest.mark.parametrize("name", ["sichuan", "changsha", "taiwan", "wuhan"])
def test_exact_equals_brute_force_three_draws(name):
    for i, hand in enumerate(_hands(name, 2)):
        vis = _narrow_visible(name, hand, 6, i)
        _check_exact(name, hand, 3, vis)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RULESETS))
def test_exact_equals_brute_force_three_draws_all(name):
    for i, hand in enumerate(_hands(name, N_SLOW)):
        vis = _narrow_visible(name, hand, 6, i)
        _check_exact(name, hand, 3, vis)


# ----------------------------------------------------------- Monte Carlo at T = 18
# Measured S1 bias (the kind-count model forgets tiles drawn and thrown back): on the
# 84-tile 卡五星 wall at T = 18 (a quarter of the unseen tiles drawn) this hand's S1
# value 0.7757 is above the same policy on real walls, 0.7684 +- 0.0007 (400 000
# walls): z = -4.2 at 20 000 walls.  Agreement holds at T <= 10 (|z| < 1).
KNOWN_S1_BIAS = {("kawuxing", "1225999p556677s"): 0.015}


def _check_mc(name: str, hand: str, seed: int, n: int) -> None:
    rs, _, opts = RULESETS[name]
    ex = P.probabilities(hand, 18, ruleset=rs, method="exact", changes=0, **opts)
    mc = P.probabilities(hand, 18, ruleset=rs, method="monte_carlo", policy="optimal",
                         changes=0, n_samples=n, seed=seed, **opts)
    assert mc.model == "real walls" and ex.model == "kind counts"
    se = max(mc.se_win, 1.0 / n)
    bias = KNOWN_S1_BIAS.get((name, hand))
    if bias is not None:          # S1 is optimistic here, by less than the stated bound
        assert 0 < ex.p_win - mc.p_win < bias + 3 * se
        return
    assert abs(mc.p_win - ex.p_win) <= 3 * se, (name, hand, mc.p_win, ex.p_win, se)


# 长沙 / 武汉 (pair_258_small) are left out of the S1-vs-real-walls checks: the kernel
# judges their wins and tenpai by the core's forms, so ``changes=`` is refused there and
# long horizons are Monte Carlo with the ruleset's shanten (tests/test_changsha_horizons.py).
@pytest.mark.parametrize("name", ["sichuan", "taiwan"])
def test_monte_carlo_agrees_at_18_small_set(name):
    hand = _hands(name, 1)[0]
    _check_mc(name, hand, 1, 4000)


# 武汉 is left out: its predicate scores hands with jokers (≈ 20 ms a call) and the S1
# graph of a joker hand needs thousands of calls — about 3 minutes a hand on an idle
# core, so it is checked outside the suite (first hand: S1 0.0078, real walls 0.0094,
# z = +2.3).  Its exact values
# are checked against the brute force above (T <= 3, jokers drawn and held).
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(set(RULESETS) - {"wuhan", "changsha"}))
def test_monte_carlo_agrees_at_18(name):
    for i, hand in enumerate(_hands(name, N_SLOW)):
        _check_mc(name, hand, 100 + i, 20_000)


# ----------------------------------------------------------- the examples
def test_sichuan_wall_is_108_tiles():
    p = P.win_probability("123456789p1155s", 1, ruleset="sichuan")
    # waits: 1s and 5s (shanpon), 2 live copies each -> 4 of 108 - 13 = 95
    assert p.value == pytest.approx(4 / 95, abs=1e-15)
    assert p.model == "true wall"


def test_sichuan_three_suit_hand_cannot_win_within_three_draws():
    # 3-shanten under 缺一门: four draws are needed at least
    r = P.probabilities("123m456p789s1155s", 3, ruleset="sichuan")
    assert r.p_win == 0.0 and r.method == "exact"
    free = P.probabilities("123m456p789s1155s", 5, ruleset=None)
    assert free.p_win > 0.1
    assert P.probabilities("123m456p789s1155s", 5, ruleset="sichuan", changes=0,
                           method="exact").p_win < 0.02


def test_changsha_one_one_pair_is_not_a_win():
    # 1p single wait -> a 1-1 pair: not 二五八将 (a small win)
    r = P.probabilities("123m456p789s123s1p", 1, ruleset="changsha")
    assert r.p_win == 0.0
    assert P.probabilities("123m456p789s123s1p", 1).p_win == pytest.approx(3 / 123)
    # a 5p single wait wins (2-5-8 pair), on Changsha's 108-tile wall
    assert P.probabilities("123m456p789s123s5p", 1, ruleset="changsha").p_win == \
        pytest.approx(2 / 95)


@pytest.mark.parametrize("name", ["wuhan", "shenyang"])
def test_must_open_closed_hand_is_zero_with_reason(name):
    opts = RULESETS[name][2]
    r = P.probabilities("123m456p789s1155s", 3, ruleset=name, **opts)
    assert r.p_win == 0.0 and "must_open" in r.note and "closed" in r.note
    assert "must_open" in str(r.win)


def test_must_open_opened_hand_is_a_real_number():
    # 沈阳: opened by a pung, all three suits, a terminal; waits 1s/5s
    r = P.probabilities("123m456p1155s [999s]", 1, ruleset="shenyang")
    ref = Brute("shenyang", "123m456p1155s [999s]").value(1)
    assert r.p_win == pytest.approx(ref, abs=1e-12) and r.p_win > 0 and r.note == ""


def test_tile_outside_the_tile_set():
    with pytest.raises(InvalidHandError, match="tile set"):
        P.win_probability("123m456p789s1155z", 1, ruleset="sichuan")
    with pytest.raises(InvalidHandError, match="tile set"):
        P.win_probability("123456789p1155s", 1, ruleset="sichuan", visible="1z")


def test_missing_indicator_is_a_rule_error():
    with pytest.raises(RuleError, match="indicator"):
        P.win_probability("123m456p789s1s [555p]", 1, ruleset="wuhan")


def test_taiwan_sixteen_tile_hands():
    r = P.probabilities("123456789m123p5s [111z]", 1, ruleset="taiwan")
    # 144 tiles less 8 flowers, less the 16 in hand: 120 unseen, 3 live 5s
    assert r.p_win == pytest.approx(3 / 120, abs=1e-15)
    ref = Brute("taiwan", "123456789m123p5s [111z]").value(1)
    assert r.p_win == pytest.approx(ref, abs=1e-12) and r.p_win > 0


def test_advise_sichuan_fills_the_best_discards():
    from majiang import advise
    t = advise("123m456p11557899s", ruleset="sichuan", draws=5)
    finite = t[t["shanten"] < 99]
    assert finite["p_win"].notna().all() and finite["p_tenpai"].notna().all()
    best = t.iloc[0]
    assert best["p_win"] == t["p_win"].max()
    # a 3-shanten discard cannot be tenpai with certainty
    bad = t[t["shanten"] >= 3]
    assert (bad["p_tenpai"] < 1.0).all()


def test_starting_hand_taiwan_deals_sixteen():
    df = P.starting_hand_shanten(2000, ruleset="taiwan", seed=1)
    assert df.attrs["hand_size"] == 16 and df.attrs["wall"] == 136


# ----------------------------------------------------------- starting hands (brute force)
@lru_cache(maxsize=None)
def _regular_kept(c: tuple, slots: int, pair_free: bool) -> int:
    """Most tiles of ``c`` (suited kinds, 9 per suit) that can stay in a complete
    regular hand: ``slots`` sets still open (each keeps a set, a two-tile part of one
    or a single), one pair slot (a pair or a single)."""
    i = next((k for k in range(len(c)) if c[k]), None)
    if i is None:
        return 0
    lst = list(c)

    def take(*ks):
        t = list(lst)
        for k in ks:
            t[k] -= 1
        return tuple(t)

    r = i % 9
    best = _regular_kept(take(i), slots, pair_free)            # the tile goes
    if slots:
        groups = [(i,)]
        if c[i] >= 2:
            groups.append((i, i))
        if c[i] >= 3:
            groups.append((i, i, i))
        if r <= 7 and c[i + 1]:
            groups.append((i, i + 1))
        if r <= 6 and c[i + 2]:
            groups.append((i, i + 2))
        if r <= 6 and c[i + 1] and c[i + 2]:
            groups.append((i, i + 1, i + 2))
        for g in groups:
            best = max(best, len(g) + _regular_kept(take(*g), slots - 1, pair_free))
    if pair_free:
        best = max(best, 1 + _regular_kept(take(i), slots, False))
        if c[i] >= 2:
            best = max(best, 2 + _regular_kept(take(i, i), slots, False))
    return best


def _void_shanten(c) -> int:
    """Shanten of a 13-tile 108-tile-set hand under 缺一门 (regular or seven pairs,
    quads as two pairs): 13 minus the most tiles a complete two-suit hand keeps."""
    c = [int(x) for x in c]
    best = 0
    for v in range(3):
        kept_suits = [s for s in range(3) if s != v]
        cc = tuple(c[9 * s + r] for s in kept_suits for r in range(9))
        reg = _regular_kept(cc, 4, True)
        pairs = sum(x // 2 for x in cc)
        singles = sum(x % 2 for x in cc)
        p = min(pairs, 7)
        sp = 2 * p + min(singles + 2 * (pairs - p), 7 - p)
        best = max(best, reg, sp)
    return 13 - best


def test_void_shanten_reference_on_known_hands():
    assert _void_shanten(parse_counts("123456789p1155s")) == 0
    assert _void_shanten(parse_counts("123m456p789s1155s")) == 3
    assert _void_shanten(parse_counts("1122334455667p")) == 0      # seven pairs
    assert _void_shanten(parse_counts("1111222233334p")) == 0      # quads as pairs


def _starting_reference(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    wall = np.repeat(np.arange(27), 4)                 # 108 tiles, independent of the model
    hist = np.zeros(10)
    for _ in range(n):
        pick = rng.choice(wall, size=13, replace=False)
        hist[_void_shanten(np.bincount(pick, minlength=34))] += 1
    return hist / n


def _compare_start(n_ref: int) -> None:
    ref = _starting_reference(n_ref, 7)
    lib = P.starting_hand_shanten(100_000, ruleset="sichuan", seed=11)
    assert lib.attrs["wall"] == 108 and lib.attrs["hand_size"] == 13
    got = np.zeros(10)
    for s, f in zip(lib["shanten"], lib["fraction"]):
        got[int(s)] = f
    pooled = (ref * n_ref + got * 100_000) / (n_ref + 100_000)
    se = np.sqrt(pooled * (1 - pooled) * (1 / n_ref + 1 / 100_000)) + 1e-12
    z = (got - ref) / se
    assert np.all(np.abs(z[(ref > 0) | (got > 0)]) < 3.5), (ref, got)


def test_starting_hand_shanten_sichuan_matches_brute_force():
    _compare_start(1500)


@pytest.mark.slow
def test_starting_hand_shanten_sichuan_matches_brute_force_large():
    _compare_start(20_000)


def test_starting_hand_shanten_per_hand_equals_reference():
    from majiang.efficiency import shanten
    rng = np.random.default_rng(5)
    wall = np.repeat(np.arange(27), 4)
    for _ in range(200):
        c = np.bincount(rng.choice(wall, size=13, replace=False), minlength=34)
        assert shanten(c.astype(np.uint8), ruleset="sichuan") == _void_shanten(c)


def test_starting_hand_shanten_sichuan_differs_from_changsha_and_default():
    a = P.starting_hand_shanten(20_000, ruleset="sichuan", seed=3)
    b = P.starting_hand_shanten(20_000, ruleset="changsha", seed=3)
    c = P.starting_hand_shanten(20_000, seed=3)
    ma = (a["shanten"] * a["fraction"]).sum()
    mb = (b["shanten"] * b["fraction"]).sum()
    mc = (c["shanten"] * c["fraction"]).sum()
    assert a.attrs["wall"] == 108 and c.attrs["wall"] == 136
    assert ma > mb + 0.2 and abs(mb - mc) > 0.01


# ----------------------------------------------------------- KeyboardInterrupt
def _interrupt_in_kernel(monkeypatch) -> threading.Event:
    """Send SIGINT to the main thread once it has entered a compiled probability kernel
    (a Graph or the greedy simulation), not after a guessed delay; set the returned
    event to stop waiting."""
    from majiang._core import probability as kernels
    entered, stop = threading.Event(), threading.Event()

    def entering(real):
        def call(*args, **kwargs):
            entered.set()
            return real(*args, **kwargs)
        return call
    for name in ("Graph", "simulate_greedy"):
        monkeypatch.setattr(kernels, name, entering(getattr(kernels, name)))
    main = threading.main_thread().ident

    def interrupt():
        while not stop.is_set():
            if entered.wait(0.05):
                signal.pthread_kill(main, signal.SIGINT)
                return
    threading.Thread(target=interrupt, daemon=True).start()
    return stop


@pytest.mark.parametrize("call", ["probabilities", "monte_carlo", "advise", "fan_odds"])
def test_keyboard_interrupt_propagates(call, monkeypatch):
    """Ctrl-C in the middle of a long computation (each call runs for minutes) raises
    KeyboardInterrupt."""
    import majiang
    calls = {
        "probabilities": lambda: P.probabilities("1234m5678p3469s77z", 18, ruleset="mcr",
                                                 method="exact", max_states=10**7),
        "monte_carlo": lambda: P.probabilities("123m456p789s1155s", 18, ruleset="sichuan",
                                               method="monte_carlo", policy="greedy",
                                               n_samples=10**7),
        "advise": lambda: majiang.advise("1234m5678p346s77z1p", ruleset="mcr", draws=18,
                                         method="exact"),
        "fan_odds": lambda: majiang.fan_odds("1234m5678p3469s77z", 18, ruleset="mcr",
                                             method="monte_carlo", n_samples=10**7),
    }
    stop = _interrupt_in_kernel(monkeypatch)
    try:
        with pytest.raises(KeyboardInterrupt):
            calls[call]()
    finally:
        stop.set()


# ----------------------------------------------------------- fan odds under every ruleset
def _indicator(model):
    if model.jokers is None or model.jokers.source == "fixed":
        return None
    return "1z" if model.copies[27] else tile_name(model.kinds[0])


def _first_draw_reference(rs, hand: str, indicator):
    """P(win), P(win with fan), expected points on the next draw, by enumerating the
    draws of the real wall with check_win."""
    b = Brute(rs, hand, indicator=indicator)
    U = sum(b.wall0)
    p_win, fans, exp = 0.0, {}, 0.0
    for k in range(35):
        if not b.wall0[k]:
            continue
        before = np.array(b.h0, dtype=np.uint8)
        if k == JOKER:
            chk = check_win(Hand(before, b.melds, (), b.j0), None, ruleset=b.rs,
                            self_drawn=True, win_is_joker=True)
        else:
            chk = check_win(Hand(before, b.melds, (), b.j0), k, ruleset=b.rs, self_drawn=True)
        if not chk.valid:
            continue
        p = b.wall0[k] / U
        p_win += p
        r = chk.result
        pts = getattr(r, "points", None)
        if pts is None:
            pts = b.rs.points(r.total, [f.id for f in r.fans])
        exp += p * pts
        for f in r.fans:
            fans[f"{f.chinese} {f.english}"] = fans.get(f"{f.chinese} {f.english}", 0.0) + p
    return p_win, fans, exp


def _all_rulesets():
    from majiang import rules
    return rules.available()


@pytest.mark.parametrize("name", _all_rulesets())
def test_fan_odds_first_draw_under_every_ruleset(name):
    from majiang import fan_odds
    model = game_model(name)
    meld = "pung" if model.must_open else None
    ind = _indicator(model)
    hands = _random_hands(name, 2, seed=len(name), meld=meld, shanten1=0, indicator=ind)
    for hand in hands:
        ref_win, ref_fans, ref_exp = _first_draw_reference(name, hand, ind)
        df = fan_odds(hand, 1, ruleset=name, indicator=ind)
        win = float(df.loc[df["category"] == "win", "probability"].iloc[0])
        assert win == pytest.approx(ref_win, abs=1e-12), (name, hand)
        got = df[df["category"] == "fan"].set_index("name")["probability"].to_dict()
        assert set(got) == set(ref_fans)
        for k, v in ref_fans.items():
            assert got[k] == pytest.approx(v, abs=1e-12)
        assert df.loc[df["category"] == "total", "probability"].sum() == pytest.approx(win)
        assert df.attrs["exp_score"] == pytest.approx(ref_exp, abs=1e-12)
        assert P.win_probability(hand, 1, ruleset=name, indicator=ind).value == \
            pytest.approx(ref_win, abs=1e-12)


def test_ruleset_forms_accepted(tmp_path):
    from majiang.rules.toml import dumps
    text = dumps(SHANDONG_258).replace('name = "shandong"', 'name = "shandong258_test"')
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    hand = "111m333p999s1s [777z]"            # 1s single wait: no 2/5/8 tile at all
    by_obj = P.probabilities(hand, 2, ruleset=SHANDONG_258)
    by_path = P.probabilities(hand, 2, ruleset=str(path))
    by_model = P.probabilities(hand, 2, ruleset=game_model(SHANDONG_258))
    assert by_obj.p_win == by_path.p_win == by_model.p_win
    assert by_obj.p_win == pytest.approx(Brute(SHANDONG_258, hand).value(2), abs=1e-12)
    # without the 2-5-8 option the first draw of 1s wins
    assert P.probabilities(hand, 1, ruleset="shandong").p_win == pytest.approx(3 / (136 - 13))
    assert P.probabilities(hand, 1, ruleset=SHANDONG_258).p_win == 0.0


@pytest.mark.parametrize("rs,hand,ind,T", [
    ("wuhan", "3m456p789s55p* [111s]", "1z", 1),
    ("wuhan", "3m456p789s55p* [111s]", "1z", 2),
    ("anqing", "123m456p789s55p1p*", "1z", 1),
    pytest.param("anqing", "123m456p789s55p1p*", "1z", 2, marks=pytest.mark.slow),
])
def test_jokers_held_and_drawn_equal_brute_force(rs, hand, ind, T):
    ref = Brute(rs, hand, indicator=ind).value(T)
    got = P.probabilities(hand, T, ruleset=rs, indicator=ind, method="exact")
    assert got.model == "true wall" and ref > 0
    assert got.p_win == pytest.approx(ref, abs=1e-9)


@pytest.mark.parametrize("name", ["sichuan", "changsha", "shandong_258", "wuhan"])
def test_fan_odds_two_draws_true_wall(name):
    from majiang import fan_odds
    rs, _, opts = RULESETS[name]
    hand = _hands(name, 1)[0]
    ref = Brute(rs, hand, **opts).value(2)
    df = fan_odds(hand, 2, ruleset=rs, **opts)
    win = float(df.loc[df["category"] == "win", "probability"].iloc[0])
    assert win == pytest.approx(ref, abs=1e-9) and set(df["model"]) == {"true wall"}
    for cat in ("total", "points"):
        assert df.loc[df["category"] == cat, "probability"].sum() == pytest.approx(win, abs=1e-9)

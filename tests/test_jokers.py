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


def brute_shanten(h: np.ndarray, j: int, forms=majiang.DEFAULT_FORMS) -> int:
    if j == 0:
        return int(shanten_batch(h[None, :], forms=forms)[0])
    return int(shanten_batch(_assignments(h, j), forms=forms).min())


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
    got = shanten_batch(real, jokers=jokers)
    expected = [brute_shanten(h, jokers) for h in real]
    assert got.tolist() == expected


def test_random_hands_with_jokers_mixed_batch():
    """≥10k hands overall (with the test above): a batch with a per-row joker count."""
    rng = np.random.default_rng(7)
    j = rng.integers(0, 3, 5000)
    real = np.stack([_random_real(1, 14 - int(k), rng)[0] for k in j])
    got = shanten_batch(real, jokers=j)
    for h, k, s in zip(real, j, got):
        assert s == brute_shanten(h, int(k))


@pytest.mark.parametrize("forms", [("regular",), ("seven_pairs",), ("thirteen_orphans",),
                                   ("seven_pairs",), ("honors_and_knitted",),
                                   ("knitted_straight",)])
def test_each_form_matches_brute_force(forms):
    rng = np.random.default_rng(len(forms[0]))
    real = _random_real(300, 12, rng)
    got = shanten_batch(real, jokers=2, forms=forms)
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
            assert ukeire(h, jokers=jokers) == expected


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

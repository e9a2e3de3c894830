"""Chinese Official special forms: 全不靠 honors-and-knitted and 组合龙 knitted straight.

Checked against a brute force that lists every complete target hand of the form and
takes the least number of tiles to add, d = min_w sum(max(w - h, 0)) (shanten = d - 1),
and against PyMahjongGB's per-form shanten on random and form-rich hands.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import majiang
from majiang import shanten, shanten_batch

PATTERNS = [p for p in itertools.permutations(range(3))]


def _knit_kinds(perm) -> list[int]:
    return [perm[j] * 9 + j + 3 * r for j in range(3) for r in range(3)]


def _honors_knitted_targets() -> np.ndarray:
    rows = []
    for perm in PATTERNS:
        pool = _knit_kinds(perm) + list(range(27, 34))
        for drop in itertools.combinations(pool, 2):
            w = np.zeros(34, int)
            w[[k for k in pool if k not in drop]] = 1
            rows.append(w)
    return np.unique(np.array(rows), axis=0)


def _knitted_straight_targets(n_sets: int) -> np.ndarray:
    blocks = [("pung", k) for k in range(34)] + [("chow", k) for k in range(27) if k % 9 <= 6]
    rows = []
    for perm in PATTERNS:
        base = np.zeros(34, int)
        base[_knit_kinds(perm)] = 1
        for sets in itertools.combinations_with_replacement(blocks, n_sets):
            w0 = base.copy()
            for kind, k in sets:
                if kind == "pung":
                    w0[k] += 3
                else:
                    w0[k:k + 3] += 1
            for pair in range(34):
                w = w0.copy()
                w[pair] += 2
                if w.max() <= 4:
                    rows.append(w)
    return np.unique(np.array(rows), axis=0)


def _brute(hands: np.ndarray, targets: np.ndarray) -> np.ndarray:
    out = []
    for h in hands.astype(int):
        out.append(np.maximum(targets - h, 0).sum(axis=1).min() - 1)
    return np.array(out)


def _rich_hands(n: int, size: int, seed: int) -> np.ndarray:
    """Hands drawn mostly from one knitted pattern + honors + a few others."""
    rng = np.random.default_rng(seed)
    out = np.zeros((n, 34), np.uint8)
    for i in range(n):
        perm = PATTERNS[rng.integers(6)]
        pool = np.array(_knit_kinds(perm) * 2 + list(range(27, 34)) + list(rng.integers(0, 34, 6)))
        while out[i].sum() < size:
            k = rng.choice(pool)
            if out[i, k] < 4:
                out[i, k] += 1
    return out


@pytest.mark.parametrize("size", [13, 14])
def test_honors_and_knitted_brute_force(size):
    targets = _honors_knitted_targets()
    hands = np.concatenate([_rich_hands(400, size, 1), majiang_random(300, size, 2)])
    got = shanten_batch(hands, forms=("honors_and_knitted",))
    assert np.array_equal(got, _brute(hands, targets))


@pytest.mark.parametrize("size", [13, 14])
def test_knitted_straight_brute_force(size):
    targets = _knitted_straight_targets(1)
    hands = np.concatenate([_rich_hands(150, size, 3), majiang_random(50, size, 4)])
    got = shanten_batch(hands, forms=("knitted_straight",))
    assert np.array_equal(got, _brute(hands, targets))


def test_knitted_straight_with_a_meld():
    """With one exposed set the knitted straight needs only the nine + a pair."""
    targets = _knitted_straight_targets(0)
    hands = _rich_hands(200, 10, 5)
    got = shanten_batch(hands, forms=("knitted_straight",))
    assert np.array_equal(got, _brute(hands, targets))
    # through a Hand: 147m 258p 369s 1z + [555z] is tenpai on 1z
    assert shanten("147m258p369s1z [555z]", forms=("knitted_straight",)) == 0
    assert majiang.ukeire("147m258p369s1z [555z]", forms=("knitted_straight",)) == {"1z": 3}


@pytest.mark.parametrize("hand, forms, expected", [
    ("147m258p369s1234z", ("honors_and_knitted",), 0),      # 13 of the 16 kinds
    ("147m258p369s12345z", ("honors_and_knitted",), -1),     # 14 distinct: complete
    ("147m258p3s1234567z", ("honors_and_knitted",), -1),     # 七星不靠 shape
    ("147m258p11234567z", ("honors_and_knitted",), 0),      # a pair is never part of it
    ("147m258p369s123m1z", ("knitted_straight",), 0),         # single wait on 1z
    ("147m258p369s123m11z", ("knitted_straight",), -1),
    ("147m258p36s123m11z", ("knitted_straight",), 0),          # wait on 9s inside the knit
])
def test_examples(hand, forms, expected):
    assert shanten(hand, forms=forms) == expected


def test_against_pymahjonggb():
    peers = pytest.importorskip("peers")
    if not peers.available("MahjongGB"):
        pytest.skip("PyMahjongGB not installed")
    hands = np.concatenate([_rich_hands(3000, 13, 6), majiang_random(5000, 13, 7)])
    for fn, forms in [(peers.gb_honors_knitted, ("honors_and_knitted",)),
                      (peers.gb_knitted_straight, ("knitted_straight",))]:
        ours = shanten_batch(hands, forms=forms)
        theirs = np.array([fn(h) for h in hands])
        bad = np.flatnonzero(ours != theirs)
        assert bad.size == 0, [(majiang.format_counts(hands[i]), ours[i], theirs[i])
                               for i in bad[:5]]


def majiang_random(n: int, size: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    order = np.argsort(rng.random((n, 136)), axis=1)[:, :size] // 4
    out = np.zeros((n, 34), np.uint8)
    np.add.at(out, (np.repeat(np.arange(n), size), order.ravel()), 1)
    return out

"""Exhaustive check of shanten against a brute-force breadth-first search over tile swaps.

For every hand of one suit (and every honors-only hand) of 1, 2, 4, 5, 7, 8, 10,
11, 13 and 14 tiles, the shanten the core computes must equal the number of
swaps (discard one tile, draw one that exists — never a fifth copy) that a BFS
needs to reach a complete hand (3n+2 tiles, shanten = swaps - 1) or a tenpai
hand (3n+1 tiles, shanten = swaps).

The BFS runs over a small universe: the suit's nine kinds (or the seven honors)
plus two *fresh* kinds the hand does not hold, which can only form pungs and
pairs.  Those stand for every other kind: a fresh kind is worth the same in any
suit (a set of three drawn tiles, a pair of two) and two of them suffice for the
hands here (the test would show a smaller core value otherwise, since the core
uses all 34 kinds).  States are base-5 codes in a dense int8 array; the graph is
undirected (a swap's reverse is a swap), so a multi-source BFS from the goal
states gives every state's distance.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from majiang import shanten_batch

SIZES = [1, 2, 4, 5, 7, 8, 10, 11, 13, 14]


def _universe_sets(n_suit: int, chows: bool, n_fresh: int):
    """Blocks over the universe: (counts vector) for each set, and each pair."""
    k = n_suit + n_fresh
    sets, pairs = [], []
    for i in range(k):
        v = np.zeros(k, np.int64)
        v[i] = 3
        sets.append(v)
        p = np.zeros(k, np.int64)
        p[i] = 2
        pairs.append(p)
    if chows:
        for i in range(n_suit - 2):
            v = np.zeros(k, np.int64)
            v[i:i + 3] = 1
            sets.append(v)
    return sets, pairs


def _complete_codes(n_sets: int, sets, pairs, k: int) -> np.ndarray:
    pw = 5 ** np.arange(k, dtype=np.int64)
    codes = set()
    for combo in itertools.combinations_with_replacement(range(len(sets)), n_sets):
        base = sum((sets[i] for i in combo), np.zeros(k, np.int64))
        if base.max(initial=0) > 4:
            continue
        for p in pairs:
            w = base + p
            if w.max() <= 4:
                codes.add(int(w @ pw))
    return np.fromiter(codes, np.int64)


def _neighbours(codes: np.ndarray, k: int) -> np.ndarray:
    """All codes one swap away (remove a copy of i, add a copy of j != i)."""
    pw = 5 ** np.arange(k, dtype=np.int64)
    digits = (codes[:, None] // pw[None, :]) % 5
    out = []
    for i in range(k):
        has = digits[:, i] > 0
        for j in range(k):
            if i == j:
                continue
            ok = has & (digits[:, j] < 4)
            out.append(codes[ok] - pw[i] + pw[j])
    return np.concatenate(out) if out else codes[:0]


def _bfs(sources: np.ndarray, k: int) -> np.ndarray:
    dist = np.full(5 ** k, -1, np.int8)
    frontier = np.unique(sources)
    dist[frontier] = 0
    d = 0
    while frontier.size:
        nb = np.unique(_neighbours(frontier, k))
        nb = nb[dist[nb] < 0]
        d += 1
        dist[nb] = d
        frontier = nb
    return dist


def _hands(n_suit: int, n_tiles: int) -> np.ndarray:
    rows = [c for c in itertools.product(range(5), repeat=n_suit) if sum(c) == n_tiles]
    return np.array(rows, dtype=np.int64).reshape(-1, n_suit)


def _check(n_suit: int, offset: int, chows: bool, n_tiles: int):
    n_fresh = 2
    k = n_suit + n_fresh
    sets, pairs = _universe_sets(n_suit, chows, n_fresh)
    n_sets = n_tiles // 3
    complete = _complete_codes(n_sets, sets, pairs, k)
    if n_tiles % 3 == 2:
        goals = complete
    else:  # tenpai hands: a complete hand less one tile
        goals = np.unique(_neighbours_remove(complete, k))
    dist = _bfs(goals, k)
    hands = _hands(n_suit, n_tiles)
    pw = 5 ** np.arange(k, dtype=np.int64)
    expected = dist[hands @ pw[:n_suit]].astype(np.int64)
    assert (expected >= 0).all()
    if n_tiles % 3 == 2:
        expected -= 1
    counts = np.zeros((len(hands), 34), np.uint8)
    counts[:, offset:offset + n_suit] = hands
    got = shanten_batch(counts, forms=("regular",), ruleset="plain")
    bad = np.flatnonzero(got != expected)
    assert bad.size == 0, [(hands[i].tolist(), int(got[i]), int(expected[i])) for i in bad[:5]]


def _neighbours_remove(codes: np.ndarray, k: int) -> np.ndarray:
    pw = 5 ** np.arange(k, dtype=np.int64)
    digits = (codes[:, None] // pw[None, :]) % 5
    return np.concatenate([codes[digits[:, i] > 0] - pw[i] for i in range(k)])


@pytest.mark.parametrize("n_tiles", SIZES)
def test_honors_only_hands_match_bfs(n_tiles):
    _check(7, 27, False, n_tiles)


@pytest.mark.parametrize("n_tiles", [1, 2, 4, 5, 7, 8])
def test_one_suit_hands_match_bfs(n_tiles):
    _check(9, 0, True, n_tiles)


@pytest.mark.slow
@pytest.mark.parametrize("n_tiles", [10, 11, 13, 14])
def test_one_suit_large_hands_match_bfs(n_tiles):
    _check(9, 9, True, n_tiles)

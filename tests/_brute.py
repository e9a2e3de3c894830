"""Shared brute-force helpers for joker tests: shanten as the least plain shanten over
every joker assignment (no fifth copy), and random deals from a ruleset's wall.

Imported by tests/test_jokers.py and tests/test_hangzhou_wenzhou_baida.py."""
from __future__ import annotations

import itertools

import numpy as np

from majiang import shanten_batch

_ASSIGN: dict = {}


def assign(j: int) -> np.ndarray:
    """Every multiset of j kinds as count rows (N, 34), int16; cached per j."""
    got = _ASSIGN.get(j)
    if got is None:
        rows = []
        for combo in itertools.combinations_with_replacement(range(34), j):
            r = np.zeros(34, np.int16)
            for k in combo:
                r[k] += 1
            rows.append(r)
        got = _ASSIGN[j] = np.array(rows, np.int16).reshape(-1, 34)
    return got


def brute(h: np.ndarray, j: int, forms, quads=False) -> int:
    """Least plain shanten of counts h (34,) with j jokers over every assignment."""
    if j == 0:
        return int(shanten_batch(h[None, :].astype(np.uint8), forms=forms,
                                 seven_pairs_quads=quads)[0])
    rows = h.astype(np.int16)[None, :] + assign(j)
    rows = rows[rows.max(axis=1) <= 4].astype(np.uint8)
    return int(shanten_batch(rows, forms=forms, seven_pairs_quads=quads).min())


def deal(model, ind, n, size, rng):
    """n hands of `size` tiles dealt from the wall of indicator ind: (real counts, jokers)."""
    w = model.wall(ind)
    pool = np.concatenate([np.repeat(np.arange(34), w.counts), np.full(w.jokers, 34)])
    out = []
    for _ in range(n):
        pick = rng.choice(pool, size, replace=False)
        c = np.bincount(pick, minlength=35)
        out.append((c[:34].astype(np.uint8), int(c[34])))
    return out


def written(model, ind, h: np.ndarray, j: int) -> str:
    """A dealt hand (:func:`deal`: counts in which a stand-in counts as the wild kind's
    face it plays, and j jokers) as its tiles look: the stand-ins as themselves (安庆 红中,
    白板 under 温州 / 上海百搭 活动百搭 / 杭州 翻财神), the jokers as '*'."""
    from majiang.rules.shapes import stand_in
    from majiang.tiles import format_counts
    si = None if model.ruleset is None else stand_in(model.ruleset, ind)
    h = np.array(h, dtype=np.uint8)
    if si is not None:
        h[si[1]] += h[si[0]]
        h[si[0]] = 0
    return format_counts(h) + "*" * j

"""Random-hand building blocks shared by the tests.

* Changsha-family shapes (2-5-8 rulesets): tests/test_changsha_shapes.py,
  tests/test_hefei.py, tests/test_route_258.py.  Each test file keeps its own mix
  of families and suits (its random stream is unchanged); the shapes are built here once.
* Sets that fit the copies left: tests/test_shapes.py."""
from __future__ import annotations

import numpy as np

K258 = [9 * s + r for s in range(3) for r in (1, 4, 7)]
"""The 2-5-8 kinds of the three suits."""


def family_hand(rng, family: str, suits, *, pair_258: bool = False):
    """One try at a 14-tile hand of `family` over `suits` as counts (34,) int64, or None
    when a kind would exceed 4 copies.

    family: ``"seven_pairs"`` (7 distinct pairs), ``"all_258"`` (14 tiles of the 2-5-8
    kinds, 将将胡), ``"pungs"`` (4 pungs + a pair) or ``"sets"`` (4 chows or pungs + a
    pair); the pair of the last two is a 2, 5 or 8 when `pair_258`."""
    c = np.zeros(34, np.int64)
    if family == "seven_pairs":
        for k in rng.choice([9 * s + r for s in suits for r in range(9)], 7, replace=False):
            c[k] += 2
    elif family == "all_258":
        for k in rng.choice([k for k in K258 if k // 9 in suits], 14):
            c[k] += 1
    else:
        for _ in range(4):
            s = suits[int(rng.integers(len(suits)))]
            r = int(rng.integers(9))
            if family == "pungs" or rng.random() < 0.4 or r > 6:
                c[9 * s + r] += 3
            else:
                c[9 * s + r:9 * s + r + 3] += 1
        s = suits[int(rng.integers(len(suits)))]
        c[9 * s + (int(rng.choice([1, 4, 7])) if pair_258 else int(rng.integers(9)))] += 2
    return c if c.max() <= 4 else None


def near_hands(complete, seed: int, n: int) -> list[np.ndarray]:
    """`n` 13-tile hands (uint8 counts) one or two tiles from ``complete(rng)``'s hands:
    one tile taken out, and with probability 0.4 another swapped for a random suited one."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        c = complete(rng)
        c[rng.choice(np.flatnonzero(c))] -= 1
        if rng.random() < 0.4:
            c[rng.choice(np.flatnonzero(c))] -= 1
            c[int(rng.integers(27))] += 1
        if c.max() <= 4:
            out.append(c.astype(np.uint8))
    return out


def sets_of(avail):
    """Pungs ``(kind, 'p')`` and chows ``(lowest kind, 'c')`` that fit in the copies
    `avail` (34,)."""
    out = [(k, "p") for k in range(34) if avail[k] >= 3]
    out += [(k, "c") for k in range(27) if k % 9 <= 6 and min(avail[k:k + 3]) >= 1]
    return out


def take(avail, s):
    """Take set `s` of :func:`sets_of` out of `avail` (in place); its three kinds."""
    k, t = s
    if t == "p":
        avail[k] -= 3
        return [k] * 3
    avail[k:k + 3] -= 1
    return [k, k + 1, k + 2]

"""The compiled shape engine against the Python one and the unconstrained core, per ruleset.

Run ``python bench/bench_shapes.py`` (``--quick`` for fewer hands and repeats).

For each ruleset whose shanten needs the shape engine (``efficiency._route`` gives
``"python"``: anqing, nanchang, luoyuan, wenzhou, shenyang) the same random hands of
the ruleset's tile set and hand size (3n+1 tiles: 13 or 16, no melds, 0-2 jokers where
the ruleset has them) are timed three ways, per hand:

* ``compiled``: ``majiang._core.shapes`` (``shanten`` per call, ``shanten_many`` per
  batch row, ``ukeire`` per call: the ruleset's constraints, forms and tile set);
* ``python``: the reference engine ``majiang.rules.shapes.shanten_counts`` /
  ``ukeire_counts`` (on fewer hands: milliseconds each; its per-suit caches are warmed
  on other hands first, so its figures are if anything optimistic);
* ``core``: the unconstrained core (``efficiency.shanten_one`` / ``shanten_many`` /
  ``ukeire_one``: regular + seven pairs, no tile-set caps, no shape rules) — the speed
  the issue's target is measured against (compiled within 3x of it per hand).

Every figure is the best over repeats of the thread CPU time per hand (the least
disturbed by other processes on a shared machine).  The compiled engine does more
than the core (the ruleset's extra forms, e.g. 十三烂 / 七星, and the suit rules),
so the ratio is what those rules cost at core speed.
"""
from __future__ import annotations


import numpy as np

import peers  # noqa: E402  (bench/, the script's folder)
from majiang import rules
from majiang._core import efficiency as E
from majiang._core import shapes as CS
from majiang.efficiency import _route
from majiang.rules import shapes as S

if __name__ == "__main__":
    import argparse
    _ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    _ap.add_argument("--quick", action="store_true", help="fewer hands and repeats")
    QUICK = _ap.parse_args().quick
else:
    QUICK = False
REPEAT = 3 if QUICK else 5
N_HANDS = 500 if QUICK else 2000
N_PY = 10 if QUICK else 30
CORE_MASK = 1 | 2           # regular + seven pairs


def best_per_hand(fn, items, repeat=REPEAT) -> float:
    return peers.best_cpu_per_item(fn, items, repeat)


def best_batch(fn, n, repeat=REPEAT) -> float:
    """Best CPU seconds of one ``fn()`` call over a batch of `n` hands, per hand."""
    return peers.best_cpu_per_item(lambda _: fn(), (None,), repeat) / n


def hands_of(rs, n, rng):
    """(counts uint8 (n, 34), jokers uint8 (n,)): 3n+1 hands of the ruleset's tile set."""
    copies = np.array(rs.copies, np.int64)
    pool = np.repeat(np.arange(34), copies)
    maxj = min(2, rs.jokers.total_copies) if rs.jokers is not None else 0
    size = rs.hand_size
    out = np.zeros((n, 34), np.uint8)
    jk = np.zeros(n, np.uint8)
    for i in range(n):
        j = int(rng.integers(0, maxj + 1))
        t = rng.choice(pool, size - j, replace=False)
        out[i] = np.bincount(t, minlength=34)
        jk[i] = j
    return out, jk


def us(x: float) -> str:
    return f"{x * 1e6:8.2f} µs" if x < 1e-3 else f"{x * 1e3:8.2f} ms"


def main() -> None:
    rng = np.random.default_rng(2026)
    names = [n for n in rules.available() if _route(n, None)[0] == "python"]
    print(f"{'ruleset':9} {'what':16} {'compiled':>12} {'python':>12} {'core':>12} "
          f"{'comp/core':>9} {'py/comp':>9}")
    summary = []
    for name in names:
        rs = rules.get(name)
        spec = S.spec_of(rs)
        cs = S._compiled(spec)
        H, J = hands_of(rs, N_HANDS + 2 * N_PY, rng)
        H_main, J_main = H[:N_HANDS], J[:N_HANDS]
        items = list(zip(H_main, J_main.tolist()))
        py_items = list(zip(H[N_HANDS:N_HANDS + N_PY], J[N_HANDS:N_HANDS + N_PY].tolist()))
        warm = list(zip(H[N_HANDS + N_PY:], J[N_HANDS + N_PY:].tolist()))
        E.build_tables()
        # shanten per call
        c_one = best_per_hand(lambda x: CS.shanten(cs, x[0], x[1]), items)
        k_one = best_per_hand(lambda x: E.shanten_one(x[0], CORE_MASK, False, None, x[1],
                                                      False), items)
        for x in warm:
            S.shanten_counts(x[0], jokers=x[1], spec=spec)
        p_one = best_per_hand(lambda x: S.shanten_counts(x[0], jokers=x[1], spec=spec),
                              py_items, 1)
        # shanten per batch row
        out16 = np.empty(N_HANDS, np.int16)
        out8 = np.empty(N_HANDS, np.int8)
        c_many = best_batch(lambda: CS.shanten_many(cs, H_main, J_main, out16), N_HANDS)
        k_many = best_batch(lambda: E.shanten_many(H_main, CORE_MASK, False, out8, J_main,
                                                   False), N_HANDS)
        # ukeire per call (the ruleset's joker kind unknown: draws of every kind)
        uk_items = items[: N_HANDS // 4]
        c_uk = best_per_hand(lambda x: CS.ukeire(cs, x[0], x[1]), uk_items)
        k_uk = best_per_hand(lambda x: E.ukeire_one(x[0], CORE_MASK, False, None, None, x[1],
                                                    False), uk_items)
        for x in warm[:5]:
            S.ukeire_counts(x[0], jokers=x[1], spec=spec)
        p_uk = best_per_hand(lambda x: S.ukeire_counts(x[0], jokers=x[1], spec=spec),
                             py_items[: max(3, N_PY // 3)], 1)
        for what, c, p, k in (("shanten (call)", c_one, p_one, k_one),
                              ("shanten (batch)", c_many, None, k_many),
                              ("ukeire (call)", c_uk, p_uk, k_uk)):
            print(f"{name:9} {what:16} {us(c):>12} {us(p) if p else '':>12} {us(k):>12} "
                  f"{c / k:8.2f}x {(f'{p / c:8.0f}x' if p else ''):>9}")
            summary.append((name, what, c / k))
    worst = max(summary, key=lambda r: r[2])
    print(f"\nworst compiled/core ratio: {worst[2]:.2f}x ({worst[0]}, {worst[1]}); "
          f"target <= 3x: {'ok' if worst[2] <= 3 else 'MISSED'} "
          f"({sum(r[2] <= 3 for r in summary)}/{len(summary)} rows within 3x)")


if __name__ == "__main__":
    main()

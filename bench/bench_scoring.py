"""Random winning hands for Chinese Official scoring, a PyMahjongGB adapter, and a timing run.

Run ``python bench/bench_scoring.py [N] [--profile]`` to time :func:`majiang.scoring.score`
per hand — the compiled kernel (default), the Python reference engine
(``method="python"``), a hand given as text, and :func:`majiang.scoring.score_batch` —
against PyMahjongGB's ``MahjongFanCalculator`` on the same N random winning hands
(default 20,000); ``--profile`` adds a cProfile of the kernel path.

The generator (:func:`random_winning_hands`) is shared with
``tests/test_scoring_differential.py``.  Every hand it makes is a winning hand with a
consistent context: all forms (regular with 0-4 melds of chows, pungs, exposed and
concealed kongs; seven pairs with and without quads; thirteen orphans; honors and
knitted tiles; knitted straight with 0 or 1 meld), biased toward the big patterns
(one suit, honors, terminals, repeated chows, shifted pungs) so that every fan
appears; random seat and prevalent winds; self-draw, 和绝张, kong (杠上开花 only with
a kong, 抢杠和 only when the hand holds no copy of the tile) and last-tile flags;
0-8 flowers.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from majiang.hand import Hand, Meld
from majiang.rules.knitted import KNITTED_STRAIGHTS
from majiang.tiles import TERMINALS_AND_HONORS

__all__ = ["Case", "random_winning_hands", "gb_args", "gb_fans", "GB_NAME_FIX"]

ORPHANS = tuple(TERMINALS_AND_HONORS)


@dataclass(frozen=True)
class Case:
    """One random winning situation."""

    hand: Hand              # before the win tile
    win_tile: int
    self_drawn: bool
    last_copy: bool
    kong: bool
    last_tile: bool
    seat_wind: int
    prevalent_wind: int
    flowers: int
    form: str               # the form the generator built

    def kwargs(self) -> dict:
        return dict(self_drawn=self.self_drawn, last_copy=self.last_copy, kong=self.kong,
                    last_tile=self.last_tile, seat_wind=self.seat_wind,
                    prevalent_wind=self.prevalent_wind, flowers=self.flowers)


# --------------------------------------------------------------------------- generator
def _pool(rng) -> list[int]:
    """A tile pool biasing the hand toward one pattern family."""
    r = rng.random()
    if r < 0.35:
        return list(range(34))
    if r < 0.55:                      # one suit (+ maybe honors)
        s = int(rng.integers(3))
        pool = list(range(9 * s, 9 * s + 9))
        if rng.random() < 0.5:
            pool += list(range(27, 34))
        return pool
    if r < 0.65:                      # honors heavy
        return list(range(27, 34)) + [int(x) for x in rng.choice(27, 4, replace=False)]
    if r < 0.75:                      # terminals and honors
        return list(ORPHANS)
    if r < 0.82:                      # green / reversible
        return [19, 20, 21, 23, 25, 32] if rng.random() < 0.5 else \
            [9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31]
    if r < 0.9:                       # rank band
        lo, hi = [(0, 3), (3, 6), (6, 9), (0, 4), (5, 9)][int(rng.integers(5))]
        return [9 * s + k for s in range(3) for k in range(lo, hi)]
    return [t for t in range(27) if t % 9 in (1, 3, 4, 5, 7)]     # evens and fives


def _sets_from_pool(rng, pool: list[int], counts: np.ndarray, n: int) -> list | None:
    sets = []
    suited = [t for t in pool if t < 27]
    motif = rng.random()
    base = int(rng.choice(suited)) if suited else None
    for k in range(n):
        for _ in range(30):
            if base is not None and motif < 0.25:          # repeated / shifted chows
                step = int(rng.integers(0, 4))
                suit = base // 9 if rng.random() < 0.6 else int(rng.integers(3))
                start = min(6, base % 9 + step * k) if rng.random() < 0.7 else int(rng.integers(7))
                kind, t = "chow", 9 * suit + start
            elif base is not None and motif < 0.4:          # shifted / same-rank pungs
                suit = base // 9 if rng.random() < 0.5 else int(rng.integers(3))
                rank = min(8, base % 9 + (k if rng.random() < 0.6 else 0))
                kind, t = "pung", 9 * suit + rank
            else:
                t = int(rng.choice(pool))
                if t < 27 and t % 9 <= 6 and rng.random() < 0.55 and \
                        (t + 1 in pool or rng.random() < 0.3):
                    kind = "chow"
                else:
                    kind = "pung"
            need = [t, t + 1, t + 2] if kind == "chow" else [t, t, t]
            if all(counts[x] + need.count(x) <= 4 for x in set(need)):
                for x in need:
                    counts[x] += 1
                sets.append((kind, t))
                break
        else:
            return None
    return sets


def _regular(rng):
    counts = np.zeros(34, dtype=np.int64)
    pool = _pool(rng)
    k = int(rng.choice([0, 0, 0, 1, 1, 2, 2, 3, 4]))
    sets = _sets_from_pool(rng, pool, counts, 4)
    if sets is None:
        return None
    pair_pool = [t for t in pool if counts[t] <= 2] or [t for t in range(34) if counts[t] <= 2]
    pair = int(rng.choice(pair_pool))
    counts[pair] += 2
    melds, concealed = [], np.zeros(34, dtype=np.uint8)
    concealed[pair] += 2
    order = list(range(4))
    rng.shuffle(order)
    for j, i in enumerate(order):
        kind, t = sets[i]
        if j < k:
            if kind == "pung" and counts[t] == 3 and rng.random() < 0.35:
                counts[t] += 1
                melds.append(Meld("kong", t, concealed=bool(rng.random() < 0.4)))
            else:
                melds.append(Meld(kind, t))
        else:
            if kind == "pung" and counts[t] == 3 and rng.random() < 0.12:
                counts[t] += 1                       # a concealed kong among the rest
                melds.append(Meld("kong", t, concealed=True))
                continue
            for x in ([t, t + 1, t + 2] if kind == "chow" else [t, t, t]):
                concealed[x] += 1
    return concealed, melds


def _seven_pairs(rng):
    pool = _pool(rng)
    counts = np.zeros(34, dtype=np.uint8)
    if rng.random() < 0.15:                           # shifted pairs
        s, lo = int(rng.integers(3)), int(rng.integers(3))
        for r in range(lo, lo + 7):
            counts[9 * s + r] = 2
        return counts, []
    n = 0
    tries = 0
    while n < 7 and tries < 200:
        tries += 1
        t = int(rng.choice(pool)) if rng.random() < 0.8 else int(rng.integers(34))
        if counts[t] == 0 or (counts[t] == 2 and rng.random() < 0.15):
            counts[t] += 2
            n += 1
    return (counts, []) if n == 7 else None


def _thirteen_orphans(rng):
    counts = np.zeros(34, dtype=np.uint8)
    counts[list(ORPHANS)] = 1
    counts[int(rng.choice(ORPHANS))] += 1
    return counts, []


def _honors_knitted(rng):
    ks = KNITTED_STRAIGHTS[int(rng.integers(6))]
    n_honors = int(rng.choice([5, 6, 7]))
    honors = rng.choice(range(27, 34), n_honors, replace=False)
    suited = rng.choice(ks, 14 - n_honors, replace=False)
    counts = np.zeros(34, dtype=np.uint8)
    counts[list(honors)] = 1
    counts[list(suited)] = 1
    return counts, []


def _knitted_straight(rng):
    ks = KNITTED_STRAIGHTS[int(rng.integers(6))]
    counts = np.zeros(34, dtype=np.int64)
    counts[list(ks)] += 1
    sets = _sets_from_pool(rng, list(range(34)), counts, 1)
    if sets is None:
        return None
    pair = int(rng.choice([t for t in range(34) if counts[t] <= 2]))
    counts[pair] += 2
    concealed = np.zeros(34, dtype=np.uint8)
    concealed[list(ks)] += 1
    concealed[pair] += 2
    melds = []
    kind, t = sets[0]
    if rng.random() < 0.35:
        if kind == "pung" and counts[t] == 3 and rng.random() < 0.4:
            melds.append(Meld("kong", t, concealed=bool(rng.random() < 0.4)))
        else:
            melds.append(Meld(kind, t))
    else:
        for x in ([t, t + 1, t + 2] if kind == "chow" else [t, t, t]):
            concealed[x] += 1
    return concealed, melds


def _nine_gates(rng):
    s = int(rng.integers(3))
    counts = np.zeros(34, dtype=np.uint8)
    counts[9 * s:9 * s + 9] = [3, 1, 1, 1, 1, 1, 1, 1, 3]
    counts[9 * s + int(rng.integers(9))] += 1
    return counts, []


def _terminal_chows(rng):
    counts = np.zeros(34, dtype=np.uint8)
    s = int(rng.integers(3))
    if rng.random() < 0.5:                       # 一色双龙会
        for t in (9 * s, 9 * s + 6):
            counts[t:t + 3] += 2
    else:                                        # 三色双龙会
        for o in range(3):
            if o != s:
                for t in (9 * o, 9 * o + 6):
                    counts[t:t + 3] += 1
    counts[9 * s + 4] += 2
    melds = []
    if rng.random() < 0.3:                       # expose one chow
        t = int(rng.choice([t for t in range(27) if t % 9 in (0, 6) and counts[t]]))
        counts[t:t + 3] -= 1
        melds.append(Meld("chow", t))
    return counts, melds


_FORMS = (("regular", 0.76, _regular), ("nine_gates", 0.01, _nine_gates),
          ("terminal_chows", 0.01, _terminal_chows), ("seven_pairs", 0.08, _seven_pairs),
          ("thirteen_orphans", 0.03, _thirteen_orphans),
          ("honors_and_knitted", 0.05, _honors_knitted),
          ("knitted_straight", 0.06, _knitted_straight))


def random_winning_hands(n: int, seed: int = 0) -> list[Case]:
    """`n` random winning situations (see the module docstring)."""
    rng = np.random.default_rng(seed)
    names = [f[0] for f in _FORMS]
    probs = np.array([f[1] for f in _FORMS])
    probs /= probs.sum()
    out: list[Case] = []
    while len(out) < n:
        i = int(rng.choice(len(names), p=probs))
        made = _FORMS[i][2](rng)
        if made is None:
            continue
        full, melds = made
        full = np.asarray(full, dtype=np.uint8)
        win = int(rng.choice(np.flatnonzero(full)))
        before = full.copy()
        before[win] -= 1
        hand = Hand(before, tuple(melds))
        allc = hand.all_counts
        exposed_win = sum(m.tiles.count(win) for m in melds if not m.concealed)
        self_drawn = bool(rng.random() < 0.45)
        has_kong = any(m.kind == "kong" for m in melds)
        if self_drawn:
            kong = has_kong and rng.random() < 0.3
        else:
            kong = allc[win] == 0 and rng.random() < 0.3
        last_copy = bool(before[win] == 0 and not kong and
                         (exposed_win == 3 or rng.random() < 0.15))
        last_tile = bool(rng.random() < 0.08)
        flowers = int(rng.choice(9, p=[0.6, 0.15, 0.1, 0.05, 0.04, 0.02, 0.02, 0.01, 0.01]))
        out.append(Case(hand, win, self_drawn, last_copy, bool(kong), last_tile,
                        int(rng.integers(4)), int(rng.integers(4)), flowers, names[i]))
    return out


# --------------------------------------------------------------------------- PyMahjongGB
_CODES = ([f"W{i}" for i in range(1, 10)] + [f"B{i}" for i in range(1, 10)]
          + [f"T{i}" for i in range(1, 10)] + [f"F{i}" for i in range(1, 5)]
          + ["J3", "J2", "J1"])          # 31 White = J3, 32 Green = J2, 33 Red = J1

GB_NAME_FIX = {"明暗杠": {"明杠": 1, "暗杠": 1}}
"""PyMahjongGB fans that are not among the 81 and the standard fans they stand for:
明暗杠 (5, one concealed + one melded kong) is 暗杠 (2) + 明杠 (1) by the 81 fans.  Only
for the official reading (``rules.mcr.MCR_OFFICIAL``); the default ``mcr`` scores 明暗杠
itself (option concealed_and_melded_kong), so :func:`gb_fans` translates only on request."""


def gb_args(case: Case) -> tuple:
    """Positional arguments of ``MahjongGB.MahjongFanCalculator`` for a case."""
    packs = []
    for m in case.hand.melds:
        if m.kind == "chow":
            packs.append(("CHI", _CODES[m.tile + 1], 1))
        elif m.kind == "pung":
            packs.append(("PENG", _CODES[m.tile], 1))
        else:
            packs.append(("GANG", _CODES[m.tile], 0 if m.concealed else 1))
    tiles = tuple(_CODES[t] for t in range(34) for _ in range(int(case.hand.concealed[t])))
    return (tuple(packs), tiles, _CODES[case.win_tile], case.flowers, case.self_drawn,
            case.last_copy, case.kong, case.last_tile, case.seat_wind, case.prevalent_wind)


def gb_fans(calc, case: Case, fix: dict | None = None) -> dict[str, int] | str:
    """PyMahjongGB's fans ``{Chinese name: count}`` as it names them, or the error text;
    ``fix=GB_NAME_FIX`` translates 明暗杠 for the official 81-fan reading."""
    try:
        res = calc(*gb_args(case), verbose=True)
    except TypeError as e:
        return str(e)
    out: dict[str, int] = {}
    for _value, count, name, _en in res:
        for n2, c2 in (fix or {}).get(name, {name: 1}).items():
            out[n2] = out.get(n2, 0) + c2 * count
    return out


# --------------------------------------------------------------------------- timing
def _best(fn, repeat: int) -> float:
    """Best wall time of `repeat` runs (the machine may be shared and noisy)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main(n: int = 20_000, repeat: int = 3, profile: bool = False) -> dict:
    """Time score() (kernel and Python reference), PyMahjongGB and score_batch on the
    same `n` random winning hands; print µs per hand and the ratios."""
    from majiang.hand import format_hand, parse_hand
    from majiang.scoring import melds_array, score, score_batch
    cases = random_winning_hands(n, seed=12345)
    calls = [(c.hand, c.win_tile, c.kwargs()) for c in cases]
    texts = [(format_hand(c.hand), c.win_tile, c.kwargs()) for c in cases]
    res: dict[str, float] = {}

    def kernel():
        for h, w, kw in calls:
            score(h, w, **kw)

    def kernel_fans():
        for h, w, kw in calls:
            score(h, w, **kw).fans

    def kernel_text():
        for h, w, kw in texts:
            score(h, w, **kw)

    def parse_only():
        for h, _, _ in texts:
            parse_hand(h)

    def python():
        for h, w, kw in calls:
            score(h, w, method="python", **kw)

    res["kernel"] = _best(kernel, repeat) / n * 1e6
    res["kernel+fans"] = _best(kernel_fans, repeat) / n * 1e6
    res["kernel(str)"] = _best(kernel_text, 1) / n * 1e6
    res["parse"] = _best(parse_only, 1) / n * 1e6
    res["python"] = _best(python, 1) / n * 1e6

    conc = np.stack([c.hand.concealed for c in cases])
    melds = melds_array([c.hand for c in cases])
    cols = {k: np.array([getattr(c, k) for c in cases]) for k in
            ("self_drawn", "last_copy", "kong", "last_tile", "seat_wind", "prevalent_wind",
             "flowers")}
    wins = np.array([c.win_tile for c in cases])
    res["batch"] = _best(lambda: score_batch(conc, wins, melds, **cols, n_jobs=1),
                         repeat) / n * 1e6
    res["batch(all)"] = _best(lambda: score_batch(conc, wins, melds, **cols), repeat) / n * 1e6
    try:
        from MahjongGB import MahjongFanCalculator as calc
    except ImportError:
        calc = None
    if calc is not None:
        args = [gb_args(c) for c in cases]

        def gb():
            for a in args:
                try:
                    calc(*a)
                except TypeError:
                    pass
        res["pymahjonggb"] = _best(gb, repeat) / n * 1e6

    print(f"{n} random winning hands (all forms, melds, kongs, flags, flowers); best of "
          f"{repeat} for the fast paths; us per hand")
    rows = [("kernel", "score(Hand) — compiled kernel (default)"),
             ("kernel+fans", "score(Hand).fans — kernel + building the fan list"),
             ("kernel(str)", "score(str) — kernel, hand parsed from text"),
             ("parse", "parse_hand(str) alone"),
             ("python", "score(Hand, method='python') — reference engine"),
             ("batch", "score_batch(arrays, n_jobs=1) — kernel loop without the GIL"),
             ("batch(all)", "score_batch(arrays) — threads on every core"),
             ("pymahjonggb", "PyMahjongGB MahjongFanCalculator (pre-built tuples)")]
    for key, label in rows:
        if key in res:
            print(f"  {res[key]:9.2f}  {label}")
    if "pymahjonggb" in res:
        gbt = res["pymahjonggb"]
        print(f"  ratios: kernel/PyMahjongGB {res['kernel'] / gbt:.2f}, "
              f"batch/PyMahjongGB {res['batch'] / gbt:.2f}, "
              f"python/kernel {res['python'] / res['kernel']:.0f}x")
    else:
        print(f"  ratio python/kernel {res['python'] / res['kernel']:.0f}x "
              "(PyMahjongGB not installed)")
    if profile:
        import cProfile
        import pstats
        prof = cProfile.Profile()
        prof.enable()
        for h, w, kw in calls[:3000]:
            score(h, w, **kw)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(14)
    return res


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=20_000, metavar="N",
                    help="random winning hands (default: %(default)s)")
    ap.add_argument("--profile", action="store_true", help="add a cProfile of the kernel path")
    a = ap.parse_args()
    main(a.n, profile=a.profile)

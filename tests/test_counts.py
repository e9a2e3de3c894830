"""Exact counts of complete hands, proven independently.

1. Published values: Project Euler problem 696 gives w(4,1,1) = 20, w(9,1,4) = 13259
   and w(9,3,4) = 5237550 distinct winning hands (4 sets + a pair, suits only, four
   copies of each tile) — the regular form on the 108-tile set; the 14-tile regular
   count on 136 tiles is the well-known 11,498,658, and the riichi 天和 rate of a
   complete dealt hand is about 1 in 330,000.
2. Brute force: every count vector over a small tile set, each judged complete by a
   plain recursive decomposition written here (not the core), with the shape rules
   (void suit, 2-5-8 pair) checked on the vector.
3. Monte Carlo: the rate of complete dealt hands over random deals.
"""
import dataclasses
import itertools
from math import comb

import numpy as np
import pytest

from majiang import rules
from majiang.errors import RuleError
from majiang.studies import count_complete_hands
from majiang.studies.counts import _components, _Counter


# ------------------------------------------------------------------ published values
def test_project_euler_small_values():
    one_pair_one_set = [v for v, (m, p, _) in _components(4, True, (4,) * 4, 1).items()
                        if sum(v) == 5]
    assert len(one_pair_one_set) == 20                        # w(4, 1, 1)
    one_suit = [v for v, (m, p, _) in _components(9, True, (4,) * 9, 4).items()
                if sum(v) == 14]
    assert len(one_suit) == 13259                            # w(9, 1, 4)


def test_project_euler_three_suits_is_the_108_tile_regular_count():
    rs = dataclasses.replace(rules.get("sichuan"), name="no_void_108", constraints=(),
                             forms=("regular",))
    df = count_complete_hands(rs)
    assert int(df.loc[df.form == "regular", "hands"].iloc[0]) == 5237550   # w(9, 3, 4)


def test_riichi_regular_count_and_tenhou_odds():
    df = count_complete_hands()
    assert int(df.loc[df.form == "regular", "hands"].iloc[0]) == 11498658
    p = float(df.loc[df.form == "total", "probability"].iloc[0])
    assert 1 / 340_000 < p < 1 / 320_000                      # 天和 ≈ 1 in 330,000
    assert df.attrs["tiles"] == 136


# ------------------------------------------------------------------ brute force
def _decomposes(v: list, sets: int, pair: bool, chow_kinds: set) -> bool:
    """Plain recursive check: v is `sets` sets plus (if pair) one pair."""
    i = next((k for k, c in enumerate(v) if c), None)
    if i is None:
        return sets == 0 and not pair
    if v[i] >= 3 and sets:
        v[i] -= 3
        ok = _decomposes(v, sets - 1, pair, chow_kinds)
        v[i] += 3
        if ok:
            return True
    if pair and v[i] >= 2:
        v[i] -= 2
        ok = _decomposes(v, sets, False, chow_kinds)
        v[i] += 2
        if ok:
            return True
    if sets and i in chow_kinds and v[i + 1] and v[i + 2]:
        for k in (i, i + 1, i + 2):
            v[k] -= 1
        ok = _decomposes(v, sets - 1, pair, chow_kinds)
        for k in (i, i + 1, i + 2):
            v[k] += 1
        if ok:
            return True
    return False


def _pair_kinds(v: list, sets: int, chow_kinds: set) -> set:
    out = set()
    for p, c in enumerate(v):
        if c >= 2:
            w = list(v)
            w[p] -= 2
            if _decomposes(w, sets, False, chow_kinds):
                out.add(p)
    return out


KINDS = (0, 1, 2, 3, 4, 9, 10, 27)       # 1-5m, 1-2p, East: chows only inside 万


@pytest.mark.parametrize("cons, quads", [
    ((), False), ((), True), (("void_suit",), True), (("pair_258",), False),
    (("no_void",), False),
])
def test_counts_equal_brute_force_on_a_small_tile_set(cons, quads):
    copies = np.zeros(34, dtype=np.uint8)
    copies[list(KINDS)] = 4
    c = _Counter(copies, 13, quads, void="void_suit" in cons, all_suits="no_void" in cons,
                 pair_258="pair_258" in cons)
    chow_kinds = {k for k in KINDS if k < 27 and k % 9 <= 6 and k + 2 in KINDS}
    n_reg = w_reg = n_sp = w_sp = n_tot = w_tot = 0
    for counts in itertools.product(range(5), repeat=len(KINDS)):
        if sum(counts) != 14:
            continue
        v = [0] * 34
        for k, x in zip(KINDS, counts):
            v[k] = x
        suits = {k // 9 for k in KINDS if k < 27 and v[k]}
        if "void_suit" in cons and len(suits) == 3:
            continue
        if "no_void" in cons and len(suits) != 3:
            continue
        weight = 1
        for x in counts:
            weight *= comb(4, x)
        reg = False
        if "pair_258" in cons:
            reg = any(p < 27 and p % 9 in (1, 4, 7) for p in _pair_kinds(v, 4, chow_kinds))
        else:
            reg = _decomposes(list(v), 4, True, chow_kinds)
        sp = all(x in ((0, 2, 4) if quads else (0, 2)) for x in counts) and \
            sum(x // 2 for x in counts) == 7
        n_reg += reg
        w_reg += weight * reg
        n_sp += sp
        w_sp += weight * sp
        n_tot += reg or sp
        w_tot += weight * (reg or sp)
    assert c.regular() == (n_reg, w_reg)
    assert c.seven_pairs() == (n_sp, w_sp)
    both = c.regular(even_only=True)
    assert c.regular()[0] + c.seven_pairs()[0] - both[0] == n_tot
    assert c.regular()[1] + c.seven_pairs()[1] - both[1] == w_tot


# ------------------------------------------------------------------ rulesets
def test_sichuan_void_suit_lowers_the_count():
    free = dataclasses.replace(rules.get("sichuan"), name="sichuan_free", constraints=())
    a = count_complete_hands("sichuan")
    b = count_complete_hands(free)
    ta = int(a.loc[a.form == "total", "hands"].iloc[0])
    tb = int(b.loc[b.form == "total", "hands"].iloc[0])
    assert 0 < ta < tb
    # the weighted total divided by C(108, 14) is the probability
    w = int(a.loc[a.form == "total", "weighted"].iloc[0])
    assert float(a.loc[a.form == "total", "probability"].iloc[0]) == pytest.approx(
        w / comb(108, 14))


def test_mcr_forms_and_overlaps():
    df = count_complete_hands("mcr").set_index("form")
    assert int(df.loc["thirteen_orphans", "hands"]) == 13
    # 全不靠: 6 knitted patterns x C(16, 14) ways to leave out two of the 16 tiles
    assert int(df.loc["honors_and_knitted", "hands"]) == 6 * comb(16, 2)
    # the total removes hands complete in several forms, so it is below the sum
    parts = df.drop(index="total")["hands"].sum()
    assert int(df.loc["total", "hands"]) < parts
    assert "min_fan=8" in df.attrs["not_applied"]


def test_sixteen_tile_hands_count_17_tiles():
    df = count_complete_hands("taiwan")
    p = float(df.loc[df.form == "total", "probability"].iloc[0])
    w = int(df.loc[df.form == "total", "weighted"].iloc[0])
    assert p == pytest.approx(w / comb(136, 17))


def test_must_open_rulesets_have_no_complete_dealt_win():
    df = count_complete_hands("shenyang")
    assert (df["hands"] == 0).all()
    assert any("must_open" in x for x in df.attrs["not_applied"])


def test_bad_arguments():
    with pytest.raises(RuleError):
        count_complete_hands("no_such_rules")
    with pytest.raises(RuleError, match="jokers"):
        count_complete_hands("wuhan")
    with pytest.raises(RuleError, match="cannot count"):
        count_complete_hands("sichuan", forms=("thirteen_orphans",))


# ------------------------------------------------------------------ Monte Carlo
def _deal_rate(copies: np.ndarray, n_tiles: int, deals: int, seed: int, forms, quads) -> float:
    from majiang import shanten_batch
    rng = np.random.default_rng(seed)
    pool = np.repeat(np.arange(34), copies)
    hits = 0
    chunk = 100_000
    for start in range(0, deals, chunk):
        m = min(chunk, deals - start)
        keys = rng.random((m, pool.size), dtype=np.float32)
        pick = np.argpartition(keys, n_tiles - 1, axis=1)[:, :n_tiles]
        flat = (np.arange(m)[:, None] * 34 + pool[pick]).ravel()
        counts = np.bincount(flat, minlength=m * 34).astype(np.uint8).reshape(m, 34)
        hits += int((shanten_batch(counts, forms=forms, seven_pairs_quads=quads,
                                   n_jobs=1) == -1).sum())
    return hits / deals


def test_monte_carlo_agrees_on_a_small_tile_set():
    copies = np.zeros(34, dtype=np.uint8)
    copies[list(KINDS)] = 4
    c = _Counter(copies, 13, False)
    reg, sp, both = c.regular(), c.seven_pairs(), c.regular(even_only=True)
    p = (reg[1] + sp[1] - both[1]) / comb(int(copies.sum()), 14)
    n = 200_000
    rate = _deal_rate(copies, 14, n, 7, ("regular", "seven_pairs"), False)
    assert abs(rate - p) < 4 * np.sqrt(p * (1 - p) / n)


@pytest.mark.slow
def test_monte_carlo_ten_million_riichi_deals():
    df = count_complete_hands()
    p = float(df.loc[df.form == "total", "probability"].iloc[0])
    n = 10_000_000
    rate = _deal_rate(np.full(34, 4, np.uint8), 14, n, 11,
                      ("regular", "seven_pairs", "thirteen_orphans"), False)
    assert abs(rate - p) < 4 * np.sqrt(p * (1 - p) / n)

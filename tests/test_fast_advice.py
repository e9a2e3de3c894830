"""Issue 12: the fast advice, review and dealing paths give the same results as the
code they replaced (reference implementations kept here, as they were before)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from majiang import advise, discard_table


def _advise_before(hand, visible=None, **kw):
    """advise() without draws as it was before issue 12: the pandas table from
    discard_table, sorted with sort_values, ranks by a Python loop."""
    table = discard_table(hand, visible, **kw)
    crit_cols = ["shanten", "ukeire_count", "_imp", "ukeire_kinds"]
    asc = [True, False, False, False]
    key = table.assign(_imp=table["improvement"].fillna(-1.0))
    order = key.sort_values(crit_cols, ascending=asc, kind="stable").index
    out = table.loc[order].reset_index(drop=True)
    crit = key.loc[order, crit_cols].to_numpy()
    new_group = np.ones(len(out), dtype=bool)
    if len(out) > 1:
        new_group[1:] = np.any(crit[1:] != crit[:-1], axis=1)
    ranks = np.zeros(len(out), dtype=np.int64)
    rank = 0
    for i, is_new in enumerate(new_group):
        if is_new:
            rank = i + 1
        ranks[i] = rank
    out.insert(0, "rank", ranks)
    return out


def _random_hand(rng, size=14, concentrated=False):
    """A random hand of ``size`` tiles from a 136-tile wall, as a (34,) uint8 array.
    ``concentrated`` draws from few kinds so that ties and near-complete hands are
    frequent."""
    kinds = rng.choice(34, size=8, replace=False) if concentrated else np.arange(34)
    wall = np.repeat(kinds, 4)
    pick = rng.choice(len(wall), size=size, replace=False)
    return np.bincount(wall[pick], minlength=34).astype(np.uint8)


def _random_visible(rng, counts):
    room = 4 - counts.astype(np.int64)
    vis = np.zeros(34, dtype=np.uint8)
    for k in rng.choice(34, size=rng.integers(0, 12), replace=True):
        if vis[k] < room[k]:
            vis[k] += 1
    return vis


def _text(counts):
    from majiang.tiles import format_counts
    return format_counts(counts.astype(np.uint8))


def _check_advise(n, seed):
    rng = np.random.default_rng(seed)
    for i in range(n):
        counts = _random_hand(rng, concentrated=bool(i % 2))
        hand = _text(counts) if i % 3 == 0 else counts
        visible = _random_visible(rng, counts) if i % 4 == 1 else None
        kw = {"second_order": i % 5 == 0}
        if i % 7 == 3:
            kw["forms"] = ["regular"]
        if i % 11 == 5:
            kw["ruleset"] = "mcr"
        new = advise(hand, visible, **kw)
        old = _advise_before(hand, visible, **kw)
        pd.testing.assert_frame_equal(new, old, check_exact=True)


def test_advise_matches_previous_table_on_random_hands():
    _check_advise(5000, 12)


@pytest.mark.slow
def test_advise_matches_previous_table_100k():
    _check_advise(100_000, 1212)


def test_advise_ranks_ties_and_improvement_nan():
    # a tenpai discard (improvement NaN, counted as -1) and exact ties share a rank,
    # the next distinct row takes its position + 1 (competition ranking)
    t = advise("123456789m1234p5s")
    assert t["rank"].tolist()[:4] == [1, 2, 2, 4]
    assert t.loc[0, "discard"] == "5s" and np.isnan(t.loc[0, "improvement"])
    assert list(t["rank"]) == sorted(t["rank"])


def test_advise_errors_unchanged():
    from majiang import InvalidHandError
    with pytest.raises(InvalidHandError):
        advise("123456789m1234p")       # 13 tiles: does not discard
    with pytest.raises(InvalidHandError):
        advise("11111m23456789p1s")     # a fifth copy

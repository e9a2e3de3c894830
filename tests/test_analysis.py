"""Advice (majiang.analysis.advise), review and dealing: the fast paths give the same
results as the code they replaced (reference implementations kept here, as they were
before)."""
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
        # under the 8-fan minimum the tenpai rows rank by the waits that win (the
        # valid_ukeire tests below); the rows below them are as before
        new = new.drop(columns=["valid_ukeire", "waits_fan"], errors="ignore")
        ready = (old["shanten"] == 0).to_numpy()
        assert sorted(new["discard"][ready]) == sorted(old["discard"][ready])
        pd.testing.assert_frame_equal(new[~ready], old[~ready], check_exact=True)


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


# ---------------------------------------------------------------- review
def _review_before(decision, *, forms, seven_pairs_quads=True, second_order=False):
    """review_decision as it was before issue 12: a ranked advise() table per decision
    (here the pandas reference above)."""
    from majiang.hand import format_hand
    from majiang.review import decision_hand
    from majiang.tiles import counts_from_tiles, format_counts, parse_tile, tile_name

    hand = decision_hand(decision)
    table = _advise_before(hand, decision.visible, forms=forms,
                           seven_pairs_quads=seven_pairs_quads, second_order=second_order)
    actual = tile_name(decision.discard)
    cols = {c: table[c].tolist() for c in ("discard", "rank", "shanten", "ukeire_count",
                                           "ukeire", "improvement")}
    discards, ranks = cols["discard"], cols["rank"]
    i = discards.index(actual)
    best = [d for d, r in zip(discards, ranks) if r == 1]
    agrees = ranks[i] == 1
    j = i if agrees else 0
    row = {
        "game": decision.game, "turn": int(decision.turn_index),
        "player": int(decision.player), "hand": format_hand(hand),
        "drawn": None if decision.drawn is None else tile_name(decision.drawn),
        "discard": actual, "rank": int(ranks[i]), "shanten": int(cols["shanten"][i]),
        "ukeire_count": int(cols["ukeire_count"][i]), "ukeire": str(cols["ukeire"][i]),
        "advised": discards[j],
        "best": format_counts(counts_from_tiles([parse_tile(b) for b in best])),
        "advised_shanten": int(cols["shanten"][j]),
        "advised_ukeire_count": int(cols["ukeire_count"][j]),
        "agrees": bool(agrees), "options": len(discards),
    }
    if second_order:
        row["improvement"] = float(cols["improvement"][i])
        row["advised_improvement"] = float(cols["improvement"][j])
    return row


def _random_decision(rng, n_melds):
    """A synthetic discard decision: ``n_melds`` melds (chow, pung or kong), a concealed
    hand of 14 - 3 * n_melds tiles, random visible tiles; at most 4 of a kind overall."""
    from majiang.records import Decision, RecordMeld

    used = np.zeros(34, dtype=np.int64)
    melds = []
    while len(melds) < n_melds:
        kind = rng.choice(["chow", "pung", "kong"], p=[0.5, 0.4, 0.1])
        if kind == "chow":
            suit, start = rng.integers(0, 3), rng.integers(0, 7)
            tiles = [9 * suit + start + d for d in range(3)]
        else:
            t = int(rng.integers(0, 34))
            tiles = [t] * (3 if kind == "pung" else 4)
        need = np.bincount(tiles, minlength=34)
        if np.all(used + need <= 4):
            used += need
            melds.append(RecordMeld(str(kind), int(min(tiles)), False))
    wall = np.repeat(np.arange(34), 4 - used)
    pick = wall[rng.choice(len(wall), size=14 - 3 * n_melds, replace=False)]
    concealed = np.bincount(pick, minlength=34).astype(np.uint8)
    room = 4 - used - concealed
    visible = np.zeros(34, dtype=np.uint8)
    for k in rng.choice(34, size=rng.integers(0, 25)):
        if visible[k] < room[k]:
            visible[k] += 1
    discard = int(rng.choice(np.flatnonzero(concealed)))
    return Decision("synthetic", int(rng.integers(0, 200)), int(rng.integers(0, 4)),
                    concealed, tuple(melds), visible, discard, 0, 0,
                    None if rng.random() < 0.3 else discard)


def _check_review(n, seed):
    from majiang.review import MCR_FORMS, review_decision
    rng = np.random.default_rng(seed)
    for i in range(n):
        n_melds = int(rng.choice(4, p=[0.7, 0.15, 0.1, 0.05]))
        d = _random_decision(rng, n_melds)
        forms = MCR_FORMS if i % 2 else ("regular", "seven_pairs")
        # the two-step column with melds costs 0.1-0.4 s in the kernel: only a few
        second = i % 10 == 0 and (n_melds == 0 or i % 1000 == 0)
        kw = {"forms": forms, "second_order": second, "seven_pairs_quads": i % 3 != 1}
        new = review_decision(d, **kw)
        old = _review_before(d, **kw)
        assert new == old or _nan_equal(new, old), (d, new, old)


def _nan_equal(a, b):
    if a.keys() != b.keys():
        return False
    return all(x == y or (isinstance(x, float) and np.isnan(x) and np.isnan(y))
               for x, y in ((a[k], b[k]) for k in a))


def test_review_decision_matches_previous_on_random_decisions():
    _check_review(5000, 121)


@pytest.mark.slow
def test_review_decision_matches_previous_100k():
    _check_review(100_000, 12121)


def test_review_games_matches_previous_on_the_example():
    from majiang import records
    from majiang.review import MCR_FORMS, review_decision
    n = 0
    for g in records.example_games():
        for d in records.decision_points(g):
            for so in (False, True) if n % 6 == 0 else (False,):
                new = review_decision(d, second_order=so)
                assert _nan_equal(new, _review_before(d, forms=MCR_FORMS, second_order=so))
            n += 1
    assert n == 361     # the example's discard decisions (counted in test_review)


# ---------------------------------------------------------------- dealing
def _deal_before(rng, m, kind_of, hand_size):
    """Dealing as before issue 12: argpartition of float32 keys, bincount."""
    W = kind_of.size
    keys = rng.random((m, W), dtype=np.float32)
    pick = np.argpartition(keys, hand_size - 1, axis=1)[:, :hand_size]
    flat = (np.arange(m)[:, None] * 35 + kind_of.astype(np.intp)[pick]).ravel()
    return np.bincount(flat, minlength=m * 35).reshape(m, 35)


def _wall(counts, jokers=0):
    return np.repeat(np.arange(35, dtype=np.uint8),
                     np.append(np.asarray(counts), jokers).astype(np.intp))


def _chi2_p(observed, expected):
    from scipy import stats
    keep = expected > 0
    o, e = observed[keep], expected[keep]
    assert o.sum() == pytest.approx(e.sum())
    return stats.chi2.sf(((o - e) ** 2 / e).sum(), keep.sum() - 1)


def test_deal_is_a_uniform_subset_of_a_small_wall():
    # 6 distinct tiles, 3 dealt: each of the C(6,3) = 20 subsets has probability 1/20
    from itertools import combinations

    from majiang.probability import _deal_hands as _deal
    kind_of = np.arange(6, dtype=np.uint8)
    m = 40_000
    c = _deal(np.random.default_rng(7), m, kind_of, 3)
    assert np.all(c.sum(axis=1) == 3) and np.all(c <= 1) and not c[:, 6:].any()
    subsets = {s: i for i, s in enumerate(combinations(range(6), 3))}
    cells = np.zeros(20)
    for row in c[:, :6]:
        cells[subsets[tuple(np.flatnonzero(row))]] += 1
    assert _chi2_p(cells, np.full(20, m / 20)) > 1e-4


@pytest.mark.parametrize("name, copies, jokers, size", [
    ("136", [4] * 34, 0, 13), ("108", [4] * 27 + [0] * 7, 0, 13),
    ("136 with 8 jokers", [4] * 34, 8, 16), ("uneven", [1, 2, 3, 4] * 8 + [2, 1], 3, 13),
])
def test_deal_per_kind_marginals_are_hypergeometric(name, copies, jokers, size):
    # copies of one kind in a hand ~ hypergeometric(W, copies of the kind, hand size)
    from scipy import stats

    from majiang.probability import _deal_hands as _deal
    kind_of = _wall(copies, jokers)
    W, m = kind_of.size, 30_000
    c = _deal(np.random.default_rng(11), m, kind_of, size)
    assert c.dtype == np.uint8 and c.shape == (m, 35)
    assert np.all(c.sum(axis=1) == size)
    assert np.all(c <= np.append(copies, jokers))
    pvals = []
    for k, K in enumerate(list(copies) + [jokers]):
        if K == 0:
            continue
        support = np.arange(K + 1)
        expected = stats.hypergeom(W, K, size).pmf(support) * m
        observed = np.bincount(c[:, k], minlength=K + 1)[:K + 1].astype(float)
        pvals.append(_chi2_p(observed, expected))
    # one p-value per kind; Bonferroni over the kinds
    assert min(pvals) > 1e-4 / len(pvals), (name, min(pvals))


def test_deal_matches_the_previous_dealing_in_distribution():
    # two-sample chi-square: shanten histograms and pair-of-kind statistics of hands
    # dealt the new way and the old way (different streams, same distribution)
    from scipy import stats

    from majiang import shanten_batch
    from majiang.probability import _deal_hands as _deal
    kind_of = _wall([4] * 34)
    m = 60_000
    new = _deal(np.random.default_rng(3), m, kind_of, 13)
    old = _deal_before(np.random.default_rng(4), m, kind_of, 13).astype(np.uint8)
    sn = shanten_batch(np.ascontiguousarray(new[:, :34]), n_jobs=1)
    so = shanten_batch(np.ascontiguousarray(old[:, :34]), n_jobs=1)
    lo = min(sn.min(), so.min())
    table = np.stack([np.bincount(sn - lo, minlength=10)[:10],
                      np.bincount(so - lo, minlength=10)[:10]])
    table = table[:, table.sum(axis=0) >= 5]
    assert stats.chi2_contingency(table)[1] > 1e-4
    # joint: number of pairs (kinds held twice or more) per hand
    pn = np.bincount((new[:, :34] >= 2).sum(axis=1), minlength=8)[:8]
    po = np.bincount((old[:, :34] >= 2).sum(axis=1), minlength=8)[:8]
    t2 = np.stack([pn, po])
    t2 = t2[:, t2.sum(axis=0) >= 5]
    assert stats.chi2_contingency(t2)[1] > 1e-4


def test_deal_counts_rejects_out_of_range_offsets():
    from majiang._core.probability import deal_counts
    kind_of = np.arange(5, dtype=np.uint8)
    out = np.zeros((1, 5), dtype=np.uint8)
    assert deal_counts(np.array([[0, 4]], dtype=np.int64), kind_of, out) == -1  # 4 >= 5 - 1
    with pytest.raises(ValueError):
        deal_counts(np.zeros((1, 2), dtype=np.int64), kind_of, np.zeros((1, 4), np.uint8))


def test_starting_hand_shanten_reproducible_and_job_independent():
    from majiang.probability import starting_hand_shanten
    a = starting_hand_shanten(70_000, seed=9, n_jobs=1)
    b = starting_hand_shanten(70_000, seed=9, n_jobs=2)
    c = starting_hand_shanten(70_000, seed=9, n_jobs=1)
    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(a, c)
    assert int(a["count"].sum()) == 70_000


@pytest.mark.slow
def test_starting_hand_shanten_published_distribution_1m():
    # the 13-tile / 136-tile starting-hand shanten distribution (Tenhou-style forms:
    # regular, seven pairs, thirteen orphans) compared against the old dealing, 1M each
    from scipy import stats

    from majiang import shanten_batch
    from majiang.probability import starting_hand_shanten
    m = 1_000_000
    new = starting_hand_shanten(m, seed=2, n_jobs=1).set_index("shanten")["count"]
    old = _deal_before(np.random.default_rng(5), m, _wall([4] * 34), 13).astype(np.uint8)
    so = pd.Series(np.bincount(shanten_batch(np.ascontiguousarray(old[:, :34]), n_jobs=1) + 1))
    so.index = so.index - 1
    table = pd.concat([new, so], axis=1).fillna(0).to_numpy().T
    table = table[:, table.sum(axis=0) >= 5]
    assert stats.chi2_contingency(table)[1] > 1e-4


# ------------------------------------------------ waits that win under the 8-fan minimum
def _gb_fan(hand13: str, win: str, self_drawn: bool, last_copy: bool = False) -> int:
    """PyMahjongGB's fan total of a concealed 13-tile hand winning on ``win`` (East
    seat, East round, no flowers): the peer's reading, independent of ours."""
    mgb = pytest.importorskip("MahjongGB")
    from majiang.tiles import parse_tiles

    def code(k: int) -> str:        # W/B/T suits, F1-F4 winds, J1-J3 dragons
        if k < 27:
            return "WBT"[k // 9] + str(k % 9 + 1)
        return f"F{k - 26}" if k < 31 else f"J{k - 30}"

    fans = mgb.MahjongFanCalculator(
        pack=(), hand=tuple(code(k) for k in parse_tiles(hand13)),
        winTile=code(parse_tiles(win)[0]), flowerCount=0, isSelfDrawn=self_drawn,
        is4thTile=last_copy, isAboutKong=False, isWallLast=False, seatWind=0, prevalentWind=0)
    return sum(f[0] for f in fans)


def _row(table, discard):
    return table[table["discard"] == discard].iloc[0]


def test_advise_counts_only_the_wait_reaching_8_fan():
    # discard 4z: 123m 456p 78s 555z 11p waits on 6s / 9s; 9s completes 花龙 (8) +
    # 箭刻 2 + 门前清 2 = 12 on a discard (不求人 4 instead of 门前清: 14 self-drawn);
    # 6s has no 花龙: 箭刻 + 门前清 = 4 (6 self-drawn), below the minimum either way
    hand13 = "123m456p78s555z11p"
    assert _gb_fan(hand13, "9s", False) == 12 and _gb_fan(hand13, "9s", True) == 14
    assert _gb_fan(hand13, "6s", False) < 8 and _gb_fan(hand13, "6s", True) < 8
    t = advise(hand13 + "4z")
    row = _row(t, "4z")
    assert row["shanten"] == 0 and row["ukeire_count"] == 8     # 4 + 4 live by shape
    assert row["valid_ukeire"] == 4                              # only 9s wins
    assert row["waits_fan"] == "6s:<8/<8 9s:12/14"
    assert t.iloc[0]["discard"] == "4z" and t.columns[-1] == "waits_fan"


def test_advise_tenpai_without_an_8_fan_wait_is_not_ready():
    # discard 5z: 2345m 456p 789s 123s waits on 2m / 5m, no 花龙 (the 123 is in s):
    # every win is below 8 fan, on a discard and self-drawn
    hand13 = "2345m456p789s123s"
    for w in ("2m", "5m"):
        assert _gb_fan(hand13, w, False) < 8 and _gb_fan(hand13, w, True) < 8
    row = _row(advise(hand13 + "5z"), "5z")
    assert row["shanten"] == 0 and row["ukeire_count"] == 6
    assert row["valid_ukeire"] == 0
    assert row["waits_fan"].startswith("not ready: ")


def test_advise_wait_valid_only_self_drawn():
    # the README hand, discard 3m: 23456m 111p 456p 99s + 1m is 喜相逢 连六 幺九刻 无字
    # (4) + 门前清 2 = 6 on a discard, + 不求人 4 = 8 self-drawn: it counts, with a note
    assert _gb_fan("23456m111p456p99s", "1m", False) == 6
    assert _gb_fan("23456m111p456p99s", "1m", True) == 8
    t = advise("23345m111p456p99s6m")
    row = _row(t, "3m")
    assert "1m:<8/8 (self-drawn only)" in row["waits_fan"]
    assert row["valid_ukeire"] == 4          # the four 1m (none held); 4m / 7m never win
    # a ruleset whose complete shapes all win gets no such columns
    assert "waits_fan" not in advise("23345m111p456p99s6m", ruleset="plain").columns


def test_advise_wait_on_the_last_copy_counts_heju_zhang():
    # three 1m on the table: the fourth is 和绝张 (4 fan), so 1m wins on a discard too
    d, s = _gb_fan("23456m111p456p99s", "1m", False, True), _gb_fan(
        "23456m111p456p99s", "1m", True, True)
    assert d >= 8 and s >= 8
    row = _row(advise("23345m111p456p99s6m", visible="1m1m1m"), "3m")
    assert f"1m:{d}/{s}" in row["waits_fan"] and "self-drawn only" not in row["waits_fan"]
    assert row["valid_ukeire"] == 1          # the one 1m left


# ------------------------------------------------ push or fold, the table model (issue 18)
def test_push_or_fold_is_a_fact_about_the_position_not_the_ranking():
    """The verdict compares the efficiency choice within the default horizon with the
    safest discard by ev; it must not change with ``by=`` (the README position once said
    "push: discard 3m" under one ranking and "2m" under another)."""
    import majiang
    p = majiang.Position("23345m111p456p99s6m", seat=1, melds=[None, None, "[777m]@0", None],
                         discards=["1z 7m@2 9m", "2z", "3z 4z", "7m 5z"])
    verdicts = {by: advise(p, by=by, danger_samples=100).attrs["push_or_fold"]
                for by in ("ev", "efficiency", "safety")}
    assert len(set(verdicts.values())) == 1, verdicts
    # the ev ranking's own columns give the same verdict when recomputed from them
    from majiang.analysis import push_or_fold
    ev = advise(p, danger_samples=100)
    assert push_or_fold(ev) == verdicts["ev"]


def test_push_or_fold_picks_the_fold_by_ev():
    """A table built by hand: the advised discard is the best ev = exp_gain - exp_loss;
    it is a push when it gains as much as the most attacking discard, a fold when it is
    as safe as the safest, else a compromise."""
    from majiang.analysis import push_or_fold
    t = pd.DataFrame({"discard": ["3m", "7z", "9s"], "p_win": [0.30, 0.00, 0.10],
                      "p_tenpai": [0.9, 0.2, 0.5], "ukeire_count": [8, 2, 5],
                      "exp_gain": [3.0, 0.0, 1.0], "exp_loss": [4.0, 0.0, 1.5],
                      "p_deal_in": [0.2, 0.0, 0.05]})
    # ev: 3m -1, 7z 0, 9s -0.5
    assert push_or_fold(t) == ("fold: discard 7z (ev 0.00) rather than push with 3m "
                               "(ev -1.00)")
    t.loc[2, "exp_loss"] = 0.5          # ev 9s 0.5: neither the push nor the fold
    assert push_or_fold(t) == ("compromise: discard 9s (ev 0.50) rather than push with 3m "
                               "(ev -1.00) or fold with 7z (ev 0.00)")
    t.loc[0, "exp_loss"] = 1.0          # ev 3m 2.0
    assert push_or_fold(t) == "push: discard 3m (ev 2.00; the safest, 7z, has ev 0.00)"
    # of two equally attacking discards the push is the safer one
    t.loc[2, ["p_win", "p_tenpai", "ukeire_count", "exp_gain", "exp_loss"]] = [
        0.30, 0.9, 8, 3.0, 0.2]
    assert push_or_fold(t).startswith("push: discard 9s (ev 2.80;")
    # no win within reach (every gain 0): the safest discard is a fold
    t["exp_gain"] = 0.0
    assert push_or_fold(t) == "fold: discard 7z (ev 0.00) rather than push with 9s (ev -0.20)"
    # nothing wins within the horizon at all (every p_win 0 too): the verdict says that ev
    # is the danger alone and names a horizon that reaches a win from the best shanten
    t["p_win"] = 0.0
    t["shanten"] = [3, 4, 3]
    assert push_or_fold(t) == (
        "fold: discard 7z (ev 0.00) rather than push with 9s (ev -0.20) — no discard wins "
        "within the horizon from 3-shanten, so ev weighs the danger alone: give draws=5 or "
        "more to weigh the attack")


def test_advise_with_the_table_model_is_win_probability_per_discard():
    """advise(model="table") gives each discard the table model's own estimate for the
    hand after it (majiang.win_probability with model="table", same seed and samples)."""
    from majiang import win_probability
    hand = "23345m111p456p99s6m"
    df = advise(hand, draws=2, model="table", n_samples=24).set_index("discard")
    assert set(df["model"]) == {"table (engine Monte Carlo)"}
    for d in ("3m", "6m"):
        rest = {"3m": "2345m111p456p99s6m", "6m": "23345m111p456p99s"}[d]
        est = win_probability(rest, 2, model="table", n_samples=24, seed=0)
        assert df.loc[d, "p_win"] == est.value and df.loc[d, "se_win"] == est.se
    assert (df["method"] == "monte_carlo").all() and "exp_score" not in df.columns


def test_advise_table_model_errors():
    import majiang
    from majiang.errors import RuleError
    with pytest.raises(RuleError, match="give draws"):
        advise("23345m111p456p99s6m", model="table")
    with pytest.raises(RuleError, match="seen tiles"):
        advise("23345m111p456p99s6m", "1z", draws=2, model="table", n_samples=4)
    p = majiang.Position("23345m111p456p99s6m", discards=[None, "1z", None, None])
    with pytest.raises(RuleError, match="position"):
        advise(p, draws=2, model="table")
    with pytest.raises(RuleError, match="unknown probability model"):
        advise("23345m111p456p99s6m", draws=2, model="tabel")


# ------------------------------------------------ the seed's lesson (issue 18, item 7)
# Seat 0 (East, dealer, Chinese Official rules) holds 白白白 发发发 456s 南 678p and has just
# drawn 9p.  Throwing 6p keeps 789p, throwing 9p keeps 678p: either way the hand waits on
# the 南 (2z) alone with the same fans (双箭刻 6 + 门前清 2 / 不求人 4 + 单钓将 1 + 缺一门 1;
# 456s rules out 全带幺, so 789p scores nothing that 678p does not), so the two discards are
# worth exactly the same to the seat's own hand and only the table can tell them apart.
SEED_HAND = "555z666z456s2z6789p"
QUIET = ["1z9m", "3z1s", "1m9s", "7z4z"]                 # two go-arounds, no 6p or 9p
LATE_SIX_SEEN = ["3z4z9s1m8s7z3m2p4z1s", "3z4z1s7z9m1p4s1z3s6p",      # 10 discards each;
                 "7z8m2s4s1z3z9m7m5s6p", "1z7z3s7s4z1z1s8m9s6p"]      # each opponent threw
LATE_NINE_SEEN = ["3z4z9s1m8s7z3m2p4z1s", "3z4z1s7z9m1p4s1z3s9p",     # 6p (or 9p) in the
                  "7z8m2s4s1z3z9m7m5s9p", "1z7z3s7s4z1z1s8m9s9p"]     # latest go-around


def _seed_advice(discards, **kw):
    import majiang
    pos = majiang.Position(SEED_HAND, seat=0, drawn="9p", discards=discards)
    return advise(pos, danger_samples=2000, **kw).set_index("discard")


def test_seed_lesson_quiet_table_gives_the_efficiency_discard():
    """Model: ``advise(position)`` ranked by ev (the default) with the default opponent
    model ("ready-hand samples", :mod:`majiang.opponents`).  Two go-arounds in, nobody is
    likely ready (P(ready) under 0.03 each), so the danger changes nothing: the best ev is
    the efficiency choice (throwing 南 to wait on 6p/9p), and of the two equal run
    discards the terminal 9p, which completes fewer waits, is the safer (the seed's middle
    grade: "抓进六筒会打九筒")."""
    df = _seed_advice(QUIET)
    eff = advise(__import__("majiang").Position(SEED_HAND, seat=0, drawn="9p",
                                                discards=QUIET), by="efficiency",
                 danger_samples=50)
    assert df.index[0] == eff.loc[0, "discard"] == "2z" and eff.loc[1, "rank"] == 2
    assert df.loc["6p", "exp_gain"] == pytest.approx(df.loc["9p", "exp_gain"])
    assert df.loc["9p", "p_deal_in"] < df.loc["6p", "p_deal_in"]
    assert max(df.attrs["p_ready"].values()) < 0.03


def test_seed_lesson_late_table_throws_the_seen_six_dots():
    """Model: as above.  Ten discards each, every opponent threw 六筒 in the latest
    go-around (熟张: with the seat's own copy all four are out) and nobody has thrown 九筒
    (生张).  The seed's strong player draws 九筒 and throws 六筒: ev ranks 6p first,
    above the 9p with the same expected gain, because 9p is the more likely to deal in
    (more than two standard errors apart at 2,000 ready hands per opponent)."""
    df = _seed_advice(LATE_SIX_SEEN)
    assert df.index[0] == "6p"
    assert df.loc["6p", "exp_gain"] == pytest.approx(df.loc["9p", "exp_gain"])
    d = df.loc["9p", "p_deal_in"] - df.loc["6p", "p_deal_in"]
    assert d > 2 * np.hypot(df.loc["9p", "p_deal_in_se"], df.loc["6p", "p_deal_in_se"])
    assert df.loc["6p", "ev"] > df.loc["9p", "ev"]


def test_seed_lesson_reverse_table_throws_the_seen_nine_dots():
    """Model: as above.  The reverse table: 九筒 thrown by every opponent in the latest
    go-around, 六筒 never: ev throws 9p."""
    df = _seed_advice(LATE_NINE_SEEN)
    assert df.index[0] == "9p"
    assert df.loc["6p", "p_deal_in"] - df.loc["9p", "p_deal_in"] > 2 * np.hypot(
        df.loc["9p", "p_deal_in_se"], df.loc["6p", "p_deal_in_se"])


# The second example: 23345m + 6m (here 2334455 6 8m 456p 99s, just drawn 8m).  Throwing 8m
# keeps 23344556m: a three-sided wait on 1m 4m 7m (234 345 56 / 23 345 456 / …); throwing 2m
# keeps 3344556 8m: 345 345 + the closed 6_8 wait on 7m (坎张).
WAIT_HAND = "233445568m456p99s"


def test_seed_lesson_three_sided_wait_normally():
    """Model: ``advise(position)`` by ev, default opponent model.  On a quiet table the
    three-sided wait (throw 8m: 10 live tiles) beats the closed 7m (throw 2m: 4 live), as
    the seed's middle grade plays ("听一、四、七")."""
    import majiang
    pos = majiang.Position(WAIT_HAND, drawn="8m", discards=["1z9p", "2z", "9s", "7z"])
    df = advise(pos, danger_samples=600).set_index("discard")
    assert df.index[0] == "8m" and df.loc["8m", "ukeire_count"] == 10
    assert df.loc["8m", "ev"] > df.loc["2m", "ev"]


def test_seed_lesson_closed_seven_when_one_and_four_are_dead():
    """Model: as above.  Every 1m is on the table and the other two 4m too, so the
    three-sided wait is a wait on 7m alone (4 live either way); the seed's strong player
    takes the closed 7m ("情愿不听一、四、七而听嵌七"), which here also scores more (坎张)."""
    import majiang
    pos = majiang.Position(WAIT_HAND, drawn="8m",
                           discards=["1z1m9p4m", "2z1m3z", "9s1m4m", "7z1m"])
    df = advise(pos, danger_samples=600).set_index("discard")
    assert df.index[0] == "2m"
    assert df.loc["2m", "ev"] > df.loc["8m", "ev"]
    assert df.loc["8m", "ukeire_count"] == df.loc["2m", "ukeire_count"] == 4


def test_an_unknown_ranking_is_named_as_such_for_a_hand():
    from majiang.errors import RuleError
    # a plain hand with an unknown by= says the rankings, not "give a Position"
    with pytest.raises(RuleError, match="by must be one of"):
        advise("23345m111p456p99s6m", by="nosuch")
    with pytest.raises(RuleError, match="give a majiang.Position"):
        advise("23345m111p456p99s6m", by="safety")


# ------------------------------------- advise(position): the same table, faster (issue 18)
def _advise_position_before(p, *, by="ev", draws=None, danger_samples=100, seed=0):
    """advise(position) as it was before the speed-up, from the unchanged building blocks
    (discard_table, the probability columns, danger_arrays, completion, kong_verdict): the
    discard and probability tables joined by ``merge`` and ranked by ``sort_values``; the
    danger columns, the ranking by ev / safety and the push-or-fold verdict by pandas
    sorts, as the code read then."""
    import majiang.analysis as A
    from majiang.efficiency import void_first
    from majiang.opponents import DEFAULT_MODEL
    from majiang.position import analysis_inputs
    from majiang.probability import DEFAULT_SAMPLES
    from majiang.reading import danger_arrays, horizon

    def _competition_ranks(key):             # one key: ranks 1, 1, 3 ... of sorted rows
        return A._shared_ranks(np.asarray(key)[:, None])
    from majiang.tiles import parse_tile
    from majiang.waiting_hand import kong_verdict

    hand, kw = analysis_inputs(p, "advise", dict(
        visible=None, ruleset=None, indicator=None, seat_wind=0, prevalent_wind=0, jokers=0))
    vis, rs, ind = kw["visible"], kw["ruleset"], kw.get("indicator")
    sw, pw = kw["seat_wind"], kw["prevalent_wind"]
    if draws is None and by != "efficiency":
        draws = horizon(p)
    if draws is None:
        table = A._advice(hand, vis, None, None, True, 0, False, rs, None, "auto", seed,
                          DEFAULT_SAMPLES, None, ind, sw, pw, None, gain=True)
    else:
        table = discard_table(hand, vis, ruleset=rs, indicator=ind)
        probs = A._probability_columns(hand, draws, vis, rs, "auto", seed, DEFAULT_SAMPLES,
                                       None, ind, sw, pw, 0, None, True)
        table = table.merge(probs, on="discard", how="left")
        crit = ["_pw", "_pt", "ukeire_count", "shanten", "_imp", "ukeire_kinds"]
        key = table.assign(_imp=table["improvement"].fillna(-1.0),
                           _pw=table["p_win"].fillna(-1.0), _pt=table["p_tenpai"].fillna(-1.0))
        order = key.sort_values(crit, ascending=[False, False, False, True, False, False],
                                kind="stable").index
        table = table.loc[order].reset_index(drop=True)
        table.insert(0, "rank", A._shared_ranks(key.loc[order, crit].to_numpy()))
    table = void_first(table, rs)
    done = None
    if not A._surely_incomplete(hand, rs, None, None, 0, ind):
        done = A.completion(hand, ruleset=rs, indicator=ind, seat_wind=sw, prevalent_wind=pw)
    table.attrs["win_now"] = done.text if done is not None and done.wins else None
    table.attrs["no_win"] = done.text if done is not None and not done.wins else None
    # reading.weigh
    a = danger_arrays(p, n_samples=danger_samples, seed=seed)
    kinds = [parse_tile(d) for d in table["discard"]]
    out = table.copy()
    out["p_deal_in"] = a["p"][kinds]
    out["p_deal_in_se"] = a["p_se"][kinds]
    out["exp_loss"] = a["loss"][kinds]
    gain = out["exp_gain"].fillna(0.0) if "exp_gain" in out.columns else 0.0
    out["ev"] = gain - out["exp_loss"]
    if by == "ev":
        out = out.sort_values("ev", ascending=False, kind="stable")
        out["rank"] = _competition_ranks(out["ev"].to_numpy())
    elif by == "safety":
        out = out.sort_values(["exp_loss", "p_deal_in"], kind="stable")
        out["rank"] = _competition_ranks(out["exp_loss"].to_numpy())
    out = out.reset_index(drop=True)
    out.attrs.update(table.attrs)
    out.attrs.update({"by": by, "opponent_model": DEFAULT_MODEL.name,
                      "opponent_model_text": DEFAULT_MODEL.describe(),
                      "n_samples": danger_samples,
                      "p_ready": {r.seat: r.p_ready for r in a["reads"]}})
    # analysis.push_or_fold
    gains = None
    if "exp_gain" not in out.columns:
        gains = A._probability_columns(hand, horizon(p), vis, rs, "auto", seed,
                                       DEFAULT_SAMPLES, None, ind, sw, pw, 0, None, True)
    f = out.drop(columns=[c for c in ("p_win", "p_tenpai", "exp_gain")
                          if gains is not None and c in out.columns])
    if gains is not None:
        f = f.merge(gains[["discard", "p_win", "p_tenpai", "exp_gain"]], on="discard",
                    how="left")
    f = f.assign(_k=[parse_tile(d) for d in f["discard"]],
                 _g=f["exp_gain"].astype(float).fillna(0.0) if "exp_gain" in f else 0.0,
                 _pw=f["p_win"].astype(float).fillna(-1.0) if "p_win" in f else -1.0,
                 _pt=f["p_tenpai"].astype(float).fillna(-1.0) if "p_tenpai" in f else -1.0,
                 _u=f["ukeire_count"].astype(float), _l=f["exp_loss"].astype(float))
    f["_ev"] = f["_g"] - f["_l"]
    best = f.sort_values(["_ev", "_l", "_k"], ascending=[False, True, True],
                         kind="stable").iloc[0]
    push = f.sort_values(["_g", "_pw", "_pt", "_u", "_l", "_k"],
                         ascending=[False, False, False, False, True, True],
                         kind="stable").iloc[0]
    safe = f.sort_values(["_l", "p_deal_in", "_k"], kind="stable").iloc[0]

    def ev(r):
        return f"ev {r['_ev']:.2f}"
    attack = ["_g", "_pw", "_pt", "_u"]
    if (best[attack].to_numpy(dtype=float) >= push[attack].to_numpy(dtype=float)).all():
        v = (f"push: discard {best['discard']} ({ev(best)}; the safest, "
             f"{safe['discard']}, has {ev(safe)})")
    elif best["_l"] <= safe["_l"]:
        v = (f"fold: discard {best['discard']} ({ev(best)}) rather than push with "
             f"{push['discard']} ({ev(push)})")
    else:
        v = (f"compromise: discard {best['discard']} ({ev(best)}) rather than push with "
             f"{push['discard']} ({ev(push)}) or fold with {safe['discard']} ({ev(safe)})")
    if (f["_g"] <= 0).all() and (f["_pw"] <= 0).all() and "shanten" in f:
        s = int(f["shanten"].min())      # (added later: a horizon too short to win)
        v += (f" — no discard wins within the horizon from {s}-shanten, so ev weighs the "
              f"danger alone: give draws={s + 2} or more to weigh the attack")
    out.attrs["push_or_fold"] = v
    out.attrs["kong"] = kong_verdict(p, out, draws, seed, by)
    return out


def _speed_positions():
    """Real-game positions (Botzone records shipped with the library; a fold, a push,
    melds, near and far from ready) and constructed ones: the README's 23345m table, a
    concealed kong on offer, a declared void under sichuan, a complete hand."""
    import majiang
    from majiang.records import example_games
    games = example_games()
    out = [majiang.Position.from_botzone(games[g], i)
           for g, i in ((0, 7), (0, 35), (0, 42), (0, 46), (1, 0), (1, 28), (1, 35))]
    out.append(majiang.Position("23345m111p456p99s6m", seat=1,
                                melds=[None, None, "[777m]@0", None],
                                discards=["1z 7m@2 9m", "2z", "3z 4z", "7m 5z"]))
    out.append(majiang.Position("1111m234p678s1237z", discards=["9s", "8s", "7s", "3z"],
                                drawn="7z"))
    out.append(majiang.Position("123456789m11556s", ruleset="sichuan", voids=[2, -1, -1, -1]))
    out.append(majiang.Position("123456789m12p11z3p", drawn="3p"))     # win now: 一气通贯
    return out


@pytest.mark.parametrize("by, draws", [("ev", None), ("efficiency", None), ("safety", 2),
                                       ("ev", 1)])
def test_advise_position_same_table_as_before_the_speed_up(by, draws):
    """The faster advise(position) (NumPy ranking and verdicts, no merge) returns the
    same DataFrame, dtypes and attrs as the pandas code it replaced, kept above."""
    for p in _speed_positions():
        new = advise(p, by=by, draws=draws, danger_samples=100)
        old = _advise_position_before(p, by=by, draws=draws)
        pd.testing.assert_frame_equal(new, old, check_exact=True)
        assert new.attrs == old.attrs, p


def test_jokers_without_a_ruleset_are_generic_and_mcr_says_why_it_refuses_them():
    """With no ruleset a ``*`` is a generic wild tile read by shape only (as
    majiang.shanten): the 14-tile hand 2345m111p456p99s6m* is ready after discarding 2m
    (345m6m* + 111p 456p 99s: * completes 3456m into two runs, or pairs) — the same
    shanten as the shape functions give.  Chinese Official rules have no jokers: asked
    for them (ruleset="mcr", or the probability columns, which need a ruleset's win
    rules) the error says so in one line."""
    import majiang
    hand = "2345m111p456p99s6m*"
    t = advise(hand)
    assert t.loc[0, "shanten"] == 0 == majiang.shanten("345m111p456p99s6m*")
    for kw in (dict(ruleset="mcr"), dict(draws=2)):
        with pytest.raises(majiang.RuleError) as exc:
            advise(hand, **kw)
        msg = str(exc.value)
        assert msg.startswith("mcr has no jokers: Chinese Official") and "no wild tiles" in msg
        assert "the hand holds 1 '*'" in msg and "\n" not in msg
    assert advise(hand, ruleset="hangzhou").loc[0, "shanten"] == 0    # a ruleset with jokers


def test_default_horizon_reaches_a_win_from_far_hands():
    """A hand s tiles from ready needs s + 1 draws to win at all: the default horizon of
    advise(position) is 3 draws, or s + 2 when s + 1 > 3 (at most 6, never more than the
    seat's remaining draws), so a far hand's discards are weighed by attack, not by
    danger alone.  Botzone record 1, decision 0 is 3-shanten: 5 draws; decision 46 of
    record 0 is ready: 3."""
    import majiang
    from majiang.records import example_games
    from majiang.reading import horizon
    games = example_games()
    far = majiang.Position.from_botzone(games[1], 0)
    assert majiang.shanten(far.hand, ruleset=far.ruleset) == 3
    assert horizon(far) == 5
    t = advise(far, danger_samples=100)
    assert (t["p_win"] > 0).any() and "no discard wins" not in t.attrs["push_or_fold"]
    near = majiang.Position.from_botzone(games[0], 46)
    assert majiang.shanten(near.hand, ruleset=near.ruleset) == 0 and horizon(near) == 3
    two = majiang.Position.from_botzone(games[0], 3)     # 2-shanten: 3 draws reach a win
    assert majiang.shanten(two.hand, ruleset=two.ruleset) == 2 and horizon(two) == 3
    # never more than the seat's remaining draws: 9 tiles left, 4 players -> 2
    short = far.replace(wall_left=9)
    assert horizon(short) == min(5, short.tiles_left // short.players)

"""The opponent model (majiang.opponents): forced hands whose answer is known by hand,
the rules the model must apply (minimum fan, self-draw only, pass locks), the sampler's
invariants, and the reported standard error."""
from __future__ import annotations

import numpy as np
import pytest

import majiang
from majiang.errors import InvalidHandError, RuleError
from majiang.opponents import (
    DEFAULT_MODEL, OpponentModel, read_opponent, sample_ready_hands,
)
from majiang.rules.derived import narrowed
from majiang.tiles import as_counts, parse_tile

SURE = OpponentModel(tempo=(30.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0))   # ready (P = 1 - 1e-13)


def _kinds(*names):
    return [parse_tile(x) for x in names]


def _forced(hand: str, **kw):
    """The unseen tiles are exactly the opponent's 13 tiles: its hand is forced."""
    pool = as_counts(hand).astype(np.int64)
    kw.setdefault("candidates", _kinds("1s", "4s", "7s", "9m", "5z"))
    kw.setdefault("model", SURE)
    kw.setdefault("n_samples", 300)
    return read_opponent(pool, seat=1, viewer=0, **kw)


def test_forced_hand_wins_exactly_on_its_waits_and_pays_fan_plus_8():
    # 123m 456p 789s 11z + 23s waits on 1s / 4s.  By hand (Chinese Official fan table):
    # 1s: 花龙 8 + 门前清 2 + 喜相逢 (123m-123s) 1 = 11 fan; 4s: 花龙 8 + 门前清 2 = 10 fan.
    # The discarder pays fan + 8 (8 to each other player besides).
    r = _forced("123m456p789s11z23s", ruleset="mcr")
    wins = np.flatnonzero(r.p_win > 0)
    assert list(wins) == _kinds("1s", "4s")
    assert r.p_win[wins] == pytest.approx(1.0)
    # every sample wins: the Monte Carlo error is that of a share seen in all ess samples,
    # below the binomial bound sqrt(1/4 / ess) and above 0 (a finite sample never proves 1)
    assert (r.p_win_se[wins] > 0).all() and (r.p_win_se[wins] <= 0.5 / np.sqrt(r.ess)).all()
    assert r.loss[parse_tile("1s")] == 11 + 8
    assert r.loss[parse_tile("4s")] == 10 + 8


def test_forced_hand_p_win_is_the_ready_probability():
    # with the plain prior, a forced ready hand with no evidence: P(t wins) = P(ready) =
    # the prior itself, logistic(a + b * log(1 + discards) + c_melds), no melds: c_0 = 0
    model = OpponentModel(tempo=(-1.0, 0.2, 5.0, 5.0, 5.0, 5.0, 1.0))
    r = _forced("123m456p789s11z23s", ruleset="mcr", model=model, discards=[33, 32, 31])
    prior = 1 / (1 + np.exp(-(-1.0 + 0.2 * np.log(4))))
    assert r.p_ready_prior == pytest.approx(prior)
    assert r.p_ready == pytest.approx(prior)          # no discard of it is among its waits
    assert r.p_win[parse_tile("1s")] == pytest.approx(prior)


def test_mcr_wait_below_8_fan_never_deals_in():
    # 123m 789m 456p 11z + 56s waits on 4s / 7s.  By hand: 4s = 门前清 2 + 老少副 (123m-789m)
    # 1 + 喜相逢 (456p-456s) 1 = 4; 7s = 门前清 2 + 老少副 1 = 3; an honour pair, so no 平和 /
    # 断幺 / 无字; no three suits: both below 8 fan.
    hand = "123m789m456p11z56s"
    r = _forced(hand, ruleset="mcr")
    assert not r.p_win.any()
    assert r.p_ready == 0.0                          # no ready hand among the samples
    # the same hand without a minimum wins on both (any complete hand wins under plain)
    r = _forced(hand, ruleset="plain")
    assert list(np.flatnonzero(r.p_win > 0)) == _kinds("4s", "7s")


@pytest.mark.parametrize("name", ["tianjin", "hangzhou", "anqing"])
def test_self_draw_only_rulesets_never_deal_in(name):
    model = majiang.game_model(name)
    assert model.self_draw_only
    pool = model.copies.astype(np.int64)
    r = read_opponent(pool, ruleset=name, seat=1, viewer=0, n_samples=50,
                      discards=list(range(10)), model=SURE)
    assert not r.p_win.any() and not r.loss.any()


def test_honour_with_no_unseen_copy_is_safe_against_regular_hands():
    # A regular hand waits on an honour only as a pair or a pung (单钓 / 双碰), so it holds
    # a copy: with no copy unseen, no regular hand wins on it (the viewer's last copy).
    rs = narrowed("mcr", forms=("regular",))
    pool = np.full(34, 4, np.int64)
    pool[parse_tile("7z")] = 0
    pool[parse_tile("1z")] = 1
    r = read_opponent(pool, ruleset=rs, seat=2, viewer=0, n_samples=400, candidates=_kinds("7z"),
                      model=SURE, seed=3)
    assert r.p_win[parse_tile("7z")] == 0.0
    assert r.n_ready > 0


def test_a_passed_tile_is_less_likely_to_win():
    hand = "123m456p789s11z23s"
    free = _forced(hand, ruleset="mcr", model=DEFAULT_MODEL, discards=[33] * 0)
    passed = _forced(hand, ruleset="mcr", model=DEFAULT_MODEL, passed=_kinds("4s"))
    # the forced hand let a winning 4s pass: weight pass_factor f, so the evidence L = f
    # and logit P(ready) drops by g log f (g the fitted evidence weight; g = 1 is Bayes'
    # rule p' = p f / (p f + 1 - p))
    p, f = free.p_ready, DEFAULT_MODEL.pass_factor
    g = DEFAULT_MODEL.tempo_of(majiang.game_model("mcr"))[1][6]
    assert passed.p_ready == pytest.approx(1 / (1 + (1 - p) / p * f ** -g))
    assert passed.p_win[parse_tile("4s")] < free.p_win[parse_tile("4s")]


def test_pass_locks_bar_the_passed_wins():
    hand = "123m456p789s11z23s"
    # 山东 不能弃先和后 (pass_lock "kind"): the passed kind cannot win until its next discard
    r = _forced(hand, ruleset="shandong", passed=_kinds("4s"))
    assert majiang.rules.get("shandong").pass_lock == "kind"
    assert r.p_win[parse_tile("4s")] == 0.0 and r.p_win[parse_tile("1s")] > 0
    # 广东 漏和 (pass_lock "all"): no discard win at all until then
    r = _forced(hand, ruleset="guangdong", passed=_kinds("4s"))
    assert majiang.rules.get("guangdong").pass_lock == "all"
    assert not r.p_win.any()
    r = _forced(hand, ruleset="guangdong")
    assert r.p_win[parse_tile("4s")] > 0


def test_own_latest_discard_among_the_waits_is_unlikely():
    hand = "123m456p789s11z23s"
    r = _forced(hand, ruleset="mcr", model=DEFAULT_MODEL, discards=_kinds("9m", "1s"))
    free = _forced(hand, ruleset="mcr", model=DEFAULT_MODEL, discards=_kinds("9m", "9m"))
    assert r.p_ready < free.p_ready


def test_sampled_hands_are_ready_and_within_the_pool():
    pool = np.full(34, 4, np.int64) - as_counts("123456789m1234p").astype(np.int64)
    rng = np.random.default_rng(5)
    for n_sets in (4, 2):
        hands = sample_ready_hands(pool, n_sets, 200, rng)
        assert len(hands) == 200
        assert (hands.sum(axis=1) == 3 * n_sets + 1).all()
        assert (hands <= pool).all() and (hands >= 0).all()
        for h in hands[:40]:           # ready by the ruleset-free shape check (any form)
            melds = " ".join(["[111z]"] * 0)
            text = majiang.format_counts(h) + melds
            if n_sets == 4:
                assert majiang.waits(text, ruleset="plain")


def test_extra_copy_lets_a_hand_wait_on_the_viewers_last_copy():
    # pool lacks 4s entirely; one added copy (the viewer's) may complete the hand, but the
    # generated 13 tiles never hold it
    pool = as_counts("123m456p789s11z23s").astype(np.int64)
    rng = np.random.default_rng(0)
    hands = sample_ready_hands(pool, 4, 100, rng, extra=_kinds("4s"))
    assert len(hands) > 0 and (hands <= pool).all()


def test_seeded_and_reproducible():
    pool = np.full(34, 4, np.int64) - as_counts("123456789m1234p").astype(np.int64)
    a = read_opponent(pool, seat=1, viewer=0, n_samples=100, seed=7, discards=[27, 28])
    b = read_opponent(pool, seat=1, viewer=0, n_samples=100, seed=np.random.SeedSequence(7),
                      discards=[27, 28])
    assert np.array_equal(a.p_win, b.p_win)


def test_errors():
    with pytest.raises(InvalidHandError):
        read_opponent(np.zeros(33), seat=1, viewer=0)
    with pytest.raises(InvalidHandError):
        read_opponent(np.full(34, 5), seat=1, viewer=0)
    with pytest.raises(RuleError):
        read_opponent(np.full(34, 4), seat=1, viewer=0, n_samples=0)
    with pytest.raises(RuleError):
        read_opponent(np.full(34, 4), seat=1, viewer=0, seed=-1)
    with pytest.raises(RuleError):
        OpponentModel(pass_factor=0)
    with pytest.raises(RuleError):
        OpponentModel(tempo=(1, 2, 3))


def test_standard_error_matches_the_spread_over_seeds():
    # the reported standard error of P(t wins) against the spread of 12 independent runs
    pool = np.full(34, 4, np.int64) - as_counts("123456789m1234p").astype(np.int64)
    runs = [read_opponent(pool, seat=1, viewer=0, n_samples=150, seed=s, model=SURE)
            for s in range(12)]
    p = np.array([r.p_win for r in runs])
    se = np.mean([r.p_win_se for r in runs], axis=0)
    sd = p.std(axis=0, ddof=1)
    busy = se > 0.02
    assert busy.sum() >= 5
    ratio = sd[busy] / se[busy]
    assert 0.5 < np.median(ratio) < 1.6


@pytest.mark.slow
def test_standard_error_matches_the_spread_over_seeds_big():
    pool = np.full(34, 4, np.int64) - as_counts("123456789m1234p").astype(np.int64)
    runs = [read_opponent(pool, seat=1, viewer=0, n_samples=600, seed=s, model=SURE)
            for s in range(40)]
    p = np.array([r.p_win for r in runs])
    se = np.mean([r.p_win_se for r in runs], axis=0)
    sd = p.std(axis=0, ddof=1)
    busy = se > 0.01
    ratio = sd[busy] / se[busy]
    assert 0.75 < np.median(ratio) < 1.3


def test_standard_error_covers_rare_kinds():
    # A rare winning kind is often hit by no sample at all: its reported error must still
    # be of the size of the spread of independent runs (it was reported 0, or ~1000x too
    # small, before).  The spread over 24 seeds is the independent measure.
    pool = np.full(34, 4, np.int64) - as_counts("123456789m1234p").astype(np.int64)
    runs = [read_opponent(pool, seat=1, viewer=0, n_samples=150, seed=s, model=SURE)
            for s in range(24)]
    p = np.array([r.p_win for r in runs])
    se = np.array([r.p_win_se for r in runs])
    assert (se > 0).all()                      # no estimate claims to be exact
    mean = p.mean(axis=0)
    rare = (mean > 0) & (mean < 0.02)
    assert rare.sum() >= 3
    ratio = p.std(axis=0, ddof=1)[rare] / se.mean(axis=0)[rare]
    assert 0.3 < np.median(ratio) < 2.5


def test_a_wait_on_a_held_kind_with_unseen_copies_is_generated():
    # The opponent's 13 tiles are forced: 123m 456p 789s 111z + 5z, a single wait (单钓) on
    # 5z.  The viewer holds another 5z (so one is unseen: the opponent's).  Completing the
    # hand needs the viewer's copy, which is not among the unseen tiles; the model must
    # still find the wait (by hand: P(5z wins) = P(ready) = 1 under SURE, any ruleset
    # where every complete hand wins).
    pool = as_counts("123m456p789s111z5z").astype(np.int64)
    r = read_opponent(pool, ruleset="plain", seat=1, viewer=0, n_samples=400,
                      candidates=_kinds("5z", "9m"), model=SURE, seed=1)
    assert list(np.flatnonzero(r.p_win > 0)) == _kinds("5z")
    assert r.p_win[parse_tile("5z")] == pytest.approx(1.0)


@pytest.mark.parametrize("name", ["sichuan", "guangdong", "mcr"])
def test_judge_agrees_with_check_win(name):
    # the verdict paths of the model (shape decides / the compiled scorer) against THE
    # predicate, check_win, on random near-complete hands and each of their shape waits
    from majiang.opponents import _Judge
    from majiang.scoring import check_win
    gm = majiang.game_model(name)
    rng = np.random.default_rng(11)
    pool = gm.copies.astype(np.int64).copy()
    if name == "sichuan":
        pool[18:27] = 0                       # a declared void (条): the hand lacks a suit
    pool[parse_tile("9m")] = 0                # every other 9m visible: the viewer's is the
    hands = sample_ready_hands(pool, 4, 150, rng, extra=_kinds("9m"))   # last (和绝张)
    j = _Judge(gm, (), 1, 0, 1, 0, 0, last_copy=_kinds("9m"))
    rows, waits = np.nonzero(j.waits(hands))
    got = j.batch(hands, rows, waits)
    assert len(rows) > 100
    for i, w, g in zip(rows, waits, got):
        h = majiang.format_counts(hands[i])
        ok = check_win(h, int(w), ruleset=name, self_drawn=False, seat_wind=1,
                       last_copy=int(w) == parse_tile("9m"))
        assert ok.valid == (g == g), (h, int(w))

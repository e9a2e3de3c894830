"""majiang.danger: the danger of each discard at a table position (majiang.danger)."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import majiang
from majiang.reading import danger, danger_arrays
from majiang.errors import RuleError
from majiang.opponents import OpponentModel
from majiang.rules.derived import narrowed

# every opponent ready; the raw reading of steps 1-5 (the recalibration has its own tests)
SURE = OpponentModel(tempo=(30.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0), calibrate=False)

# A late table (seat 0 to discard, ten discards each): the seed's 六筒 / 九筒 lesson.  Seat 0
# holds 七八九筒 and 六筒 and has just drawn a second 九筒; each opponent threw 六筒 in the
# latest go-around and nobody won on it (熟张); 九筒 was never thrown (生张).
LATE_RIVERS = [
    "1z2z9s1m8s5z3m2p",
    "3z4z1s7z9m1p4s2z3s6p",
    "7z8m2s4s1z3z5z7m5s6p",
    "2z5z3s7s4z6z1s8m9m6p",
]


def _late(**kw):
    kw.setdefault("ruleset", "mcr")
    return majiang.Position("123m456m789p6p11s2s9p", seat=0, discards=LATE_RIVERS, drawn="9p",
                            **kw)


def test_columns_rows_and_labels():
    pos = _late()
    df = danger(pos, n_samples=200)
    held = [majiang.tile_name(int(k)) for k in np.flatnonzero(pos.concealed)]
    assert list(df["tile"]) == held
    for col in ("tile", "seen", "label", "p_deal_in", "p_deal_in_se", "p_seat1", "p_seat2",
                "p_seat3", "exp_loss", "exp_loss_se"):
        assert col in df.columns
    row = df.set_index("tile")
    # 6p: three copies in the rivers (熟张); 9p: none (生张); 1s: one (seat 1's river)
    assert row.loc["6p", "seen"] == 3 and row.loc["6p", "label"] == "熟张"
    assert row.loc["9p", "seen"] == 0 and row.loc["9p", "label"] == "生张"
    assert row.loc["1s", "seen"] == 2
    assert ((df["p_deal_in"] >= 0) & (df["p_deal_in"] <= 1)).all()
    assert df.attrs["model"] == "ready-hand samples"
    assert set(df.attrs["p_ready"]) == {1, 2, 3}


def test_seed_lesson_six_dots_is_safer_than_nine_dots():
    """The seed's strong player, holding 七八九筒 + 六筒 and drawing 九筒, throws 六筒 (熟张)
    rather than 九筒 (生张).  Under the default model (ready-hand samples, ready model
    fitted on efficiency self-play; each opponent let 六筒 pass in the latest go-around or
    threw it itself) 六筒 is the safer discard by more than two standard errors.  The gap
    is small in absolute terms (9p about 0.003, 6p about 0.0004, both far below 7p / 8p
    at about 0.017), so it needs thousands of samples to be significant."""
    df = danger(_late(), n_samples=8000).set_index("tile")
    d = df.loc["9p", "p_deal_in"] - df.loc["6p", "p_deal_in"]
    se = np.hypot(df.loc["9p", "p_deal_in_se"], df.loc["6p", "p_deal_in_se"])
    assert d > 2 * se
    assert df.loc["6p", "exp_loss"] < df.loc["9p", "exp_loss"]


def test_seed_lesson_holds_at_the_defaults():
    # the `majiang danger --help` example at the default samples and seed: 6p below 9p
    # in p_deal_in and in exp_loss, and 9p is not shown as safe (it was 0.0000 before the
    # viewer's copies could complete an opponent's hand)
    df = danger(_late()).set_index("tile")
    assert df.loc["9p", "p_deal_in"] > 0
    assert df.loc["6p", "p_deal_in"] < df.loc["9p", "p_deal_in"]
    assert df.loc["6p", "exp_loss"] < df.loc["9p", "exp_loss"]


def test_combination_of_opponents():
    pos = _late()
    a = danger_arrays(pos, n_samples=150, model=SURE)
    reads = sorted(a["reads"], key=lambda r: r.seat)      # seats 1, 2, 3: turn order after 0
    p = [r.p_win for r in reads]
    assert np.allclose(a["p"], 1 - (1 - p[0]) * (1 - p[1]) * (1 - p[2]))
    # Chinese Official rules: 截和, the first winner after the discarder takes the discard
    assert majiang.rules.get("mcr").winners == "head_bump"
    head = (p[0] * reads[0].loss + (1 - p[0]) * p[1] * reads[1].loss
            + (1 - p[0]) * (1 - p[1]) * p[2] * reads[2].loss)
    assert np.allclose(a["loss"], head)


def test_every_copy_seen_honour_is_safe_against_regular_hands():
    # The last 7z (three in the rivers): a regular hand waits on an honour only as a pair
    # or pung, holding a copy; under the regular form alone nobody can win on it.
    rs = narrowed("mcr", forms=("regular",))
    rivers = ["7z1m", "7z2m", "7z3m", "4m"]
    pos = majiang.Position("123m456m789p1p11s2s7z", ruleset=rs, seat=0, discards=rivers)
    df = danger(pos, n_samples=300, model=SURE).set_index("tile")
    assert df.loc["7z", "seen"] == 3
    assert df.loc["7z", "p_deal_in"] == 0.0
    assert (df["p_deal_in"] > 0).sum() >= 5


def test_self_draw_only_ruleset_gives_zero():
    rs = replace(majiang.rules.get("plain"), constraints=("self_draw_only",))
    assert majiang.game_model(rs).self_draw_only
    pos = majiang.Position("123m456m789p6p11s2s9p", ruleset=rs, seat=0, discards=LATE_RIVERS,
                           drawn="9p")
    df = danger(pos, n_samples=50, model=SURE)
    assert (df["p_deal_in"] == 0).all() and (df["exp_loss"] == 0).all()


def test_seats_that_won_are_not_opponents():
    # 血战 (sichuan): seat 2 has won and is out; only seats 1 and 3 are read
    pos = majiang.Position("123m456m789p6p11p2p9p", ruleset="sichuan", seat=0, drawn="9p",
                           won=[2], won_tiles=[None, None, "5s", None],
                           discards=["1m9s", "3s4s", "7s", "8s"], voids=[2, 0, 0, 1])
    df = danger(pos, n_samples=50)
    assert [c for c in df.columns if c.startswith("p_seat")] == ["p_seat1", "p_seat3"]


def test_seeded():
    pos = _late()
    a = danger(pos, n_samples=100, seed=4)
    b = danger(pos, n_samples=100, seed=4)
    assert a.equals(b)


def test_not_a_position():
    with pytest.raises(RuleError):
        danger("123m456m789p6p11s2s9p")


@pytest.mark.slow
def test_p_deal_in_agrees_across_seeds_within_standard_errors():
    pos = _late()
    runs = [danger(pos, n_samples=600, seed=s) for s in range(10)]
    p = np.array([r["p_deal_in"] for r in runs])
    se = np.mean([r["p_deal_in_se"] for r in runs], axis=0)
    z = np.abs(p - p.mean(axis=0)) / np.maximum(se, 1e-9)
    assert (z < 5).all()
    assert 0.6 < np.median(p.std(axis=0, ddof=1) / np.maximum(se, 1e-9)) < 1.5


# ---------------------------------------------------------------- advise at a position
def test_advise_at_a_position_adds_the_danger_and_ranks_by_ev():
    pos = _late()
    df = majiang.advise(pos, danger_samples=200)
    for col in ("p_win", "exp_gain", "p_deal_in", "p_deal_in_se", "exp_loss", "ev"):
        assert col in df.columns
    assert np.allclose(df["ev"], df["exp_gain"].fillna(0) - df["exp_loss"])
    assert (np.diff(df["ev"].to_numpy()) <= 1e-12).all()          # best ev first
    assert list(df["rank"]) == sorted(df["rank"])
    # the opponent model under its own name: the rows' "model" is the probability model's
    assert df.attrs["by"] == "ev" and df.attrs["opponent_model"] == "ready-hand samples"
    assert "model" not in df.attrs and set(df["model"]) <= {"kind counts", "true wall",
                                                            "real walls"}
    # the danger columns are danger()'s, row by row
    d = danger(pos, n_samples=200).set_index("tile")
    for _, row in df.iterrows():
        assert row["p_deal_in"] == pytest.approx(d.loc[row["discard"], "p_deal_in"])


def test_exp_gain_is_the_chinese_official_self_draw_settlement():
    # Chinese Official rules: a self-drawn win of F fan takes 8 + F from each of the other
    # three players, and a hand's points are its fan total, so within the horizon
    # exp_gain = 3 * (8 * p_win + exp_score)
    assert majiang.rules.get("mcr").settle(10, 0, None) == (54, -18, -18, -18)
    df = majiang.advise(_late(), draws=6, danger_samples=50)
    assert np.allclose(df["exp_gain"], 3 * (8 * df["p_win"] + df["exp_score"]))


def test_advise_by_efficiency_keeps_the_order_without_a_position():
    pos = _late()
    df = majiang.advise(pos, by="efficiency", draws=5, danger_samples=50)
    plain = majiang.advise(majiang.Hand(pos.concealed), pos.visible_counts(), draws=5)
    assert list(df["discard"]) == list(plain["discard"])
    assert list(df["rank"]) == list(plain["rank"])


def test_fold_when_no_win_is_reachable():
    # Two draws left each (8 tiles in the wall): a 2-shanten hand cannot win, so exp_gain
    # is 0 for every discard and ev = -exp_loss.  The efficiency choice (9s, keeping
    # 2-shanten) is a live suited tile; breaking the 中 pair (the other two on the table:
    # no opponent holds one, and a regular hand waits on an honour only holding a copy)
    # risks nothing, so the advice folds.
    rivers = ["7z1m9p", "7z2m1p", "3m9s", "4m1s"]
    pos = majiang.Position("123456m5p69s1177z8p", ruleset="mcr", seat=0, discards=rivers,
                           wall_left=8)
    df = majiang.advise(pos, opponent_model=SURE, danger_samples=200)
    assert (df["exp_gain"].fillna(0) == 0).all()
    assert np.allclose(df["ev"], -df["exp_loss"])
    assert df.loc[0, "exp_loss"] == df["exp_loss"].min() == 0.0
    eff = majiang.advise(pos, by="efficiency", opponent_model=SURE, danger_samples=200)
    assert eff.loc[0, "discard"] == "9s" and eff.loc[0, "exp_loss"] > 0
    assert df.set_index("discard").loc["7z", "p_deal_in"] == 0.0
    assert df.attrs["push_or_fold"].startswith("fold: discard ")
    safety = majiang.advise(pos, by="safety", opponent_model=SURE, danger_samples=200)
    assert (np.diff(safety["exp_loss"].to_numpy()) >= 0).all()


def test_advise_position_errors():
    pos = _late()
    with pytest.raises(RuleError):
        majiang.advise(pos, visible="1m")
    with pytest.raises(RuleError):
        majiang.advise(pos, ruleset="plain")
    with pytest.raises(RuleError):
        majiang.advise(pos, by="luck")
    with pytest.raises(RuleError):
        majiang.advise("123m456m789p6p11s2s9p", by="ev")


# -- step 6: the recalibration ---------------------------------------------------------------
def test_recalibration_is_the_stated_map_of_the_raw_total():
    # logit p = a + b logit(p_raw + eps) with the ruleset's fitted (a, b); the raw total is
    # the same combination of the opponents' reads as without the recalibration.
    from majiang.opponents import CALIBRATION, CALIBRATION_EPS, DEFAULT_MODEL
    pos = _late()
    a = danger_arrays(pos, n_samples=150)
    raw = danger_arrays(pos, n_samples=150, model=replace(DEFAULT_MODEL, calibrate=False))
    assert np.allclose(a["p_raw"], raw["p"])
    ca, cb = CALIBRATION["mcr"]
    x = raw["p"] + CALIBRATION_EPS
    want = 1.0 / (1.0 + np.exp(-(ca + cb * np.log(x / (1 - x)))))
    assert np.allclose(a["p"], want)
    # increasing: it never changes which of two tiles is safer
    order = np.argsort(raw["p"], kind="stable")
    assert (np.diff(a["p"][order]) >= -1e-15).all()
    # each opponent's share is scaled by p / p_raw where the raw reading is positive
    pos_k = raw["p"] > 0
    ratio = np.divide(a["p"], raw["p"], out=np.zeros(34), where=pos_k)
    for s, pw in raw["per_seat"].items():
        assert np.allclose(a["per_seat"][s][pos_k], pw[pos_k] * ratio[pos_k])
    assert np.allclose(a["loss"][pos_k], raw["loss"][pos_k] * ratio[pos_k])
    # a kind no sample waits on keeps the floor, shared equally by the three opponents
    zero = np.flatnonzero(~pos_k)
    assert len(zero)
    for s in a["per_seat"]:
        assert np.allclose(a["per_seat"][s][zero], a["p"][zero] / 3)


def test_recalibration_slope_is_the_derivative():
    from majiang.opponents import DEFAULT_MODEL
    gm = majiang.game_model("guangdong")
    p = np.array([0.0, 1e-4, 0.003, 0.05, 0.4, 0.97])
    q, slope = DEFAULT_MODEL.recalibrate(gm, p)
    h = 1e-7
    num = (DEFAULT_MODEL.recalibrate(gm, p + h)[0] - DEFAULT_MODEL.recalibrate(gm, p - h)[0]) \
        / (2 * h)
    assert np.allclose(slope[1:], num[1:], rtol=1e-4)
    off = OpponentModel(calibrate=False).recalibrate(gm, p)
    assert np.array_equal(off[0], p) and (off[1] == 1).all()
    # a given (a, b) = (0, 1) is logit p = logit(p_raw + eps): p_raw shifted by eps
    ident = OpponentModel(calibration=(0, 1)).recalibrate(gm, p)[0]
    assert np.allclose(ident, p + 1e-4)
    with pytest.raises(RuleError, match="calibration"):
        OpponentModel(calibration=(1.0,))


def test_recalibration_floor_skips_a_void_opponent():
    # 血战 (sichuan): seat 1 declared 万 void, so it cannot win on a 万 tile; a 万 kind that
    # no sampled hand waits on (few samples: 1m here) gets its floor from seats 2 and 3 only.
    from majiang.opponents import DEFAULT_MODEL
    rivers = ["1m9s", "3s4s", "7s", "8s"]
    pos = majiang.Position("123m456m789p6p11p2p9p", ruleset="sichuan", seat=0, drawn="9p",
                           discards=rivers, voids=[2, 0, 1, 1])
    a = danger_arrays(pos, n_samples=5)
    raw = danger_arrays(pos, n_samples=5, model=replace(DEFAULT_MODEL, calibrate=False))
    assert not raw["per_seat"][1][:9].any()               # the void opponent: no 万 win
    zero = [k for k in range(9) if raw["p"][k] == 0 and pos.concealed[k]]
    assert zero, "the position must hold a 万 kind no sample waits on"
    for k in zero:
        assert a["p"][k] > 0 and a["per_seat"][1][k] == 0
        assert np.isclose(a["per_seat"][2][k], a["p"][k] / 2)
        assert np.isclose(a["per_seat"][3][k], a["p"][k] / 2)
    # every opponent void in 万: no one may take a 万 tile, p stays 0
    pos = majiang.Position("123m456m789p6p11p2p9p", ruleset="sichuan", seat=0, drawn="9p",
                           discards=rivers, voids=[2, 0, 0, 0])
    a = danger_arrays(pos, n_samples=50)
    assert (a["p"][:9] == 0).all() and (a["p"][9:27] > 0).all()


@pytest.mark.parametrize("ruleset,won,why", [
    ("mcr", [1], "a win ends the hand"),                  # Chinese Official: no play on
    ("sichuan", [0], "seat 0 has won"),                    # 血战: the winner plays no more
    ("sichuan", [1, 2, 3], "3 seats have won"),            # 血战 ends when three have won
])
def test_positions_after_the_seat_or_the_hand_is_done_are_refused(ruleset, won, why):
    pos = majiang.Position("123456789m11p579s", ruleset=ruleset, seat=0, won=won)
    with pytest.raises(RuleError, match=why):
        danger(pos, n_samples=20)
    with pytest.raises(RuleError, match=why):
        majiang.advise(pos)
    # 血流 (xueliu): winners play on, the position is read
    ok = majiang.Position("123456789m11p579s", ruleset="sichuan_xueliu", seat=0, won=[0, 1])
    assert len(danger(ok, n_samples=20)) == 13

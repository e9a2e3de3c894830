"""majiang.arena: duplicate evaluation (each wall replayed in every seat order)."""
from __future__ import annotations

import concurrent.futures as cf
import math
import os

import numpy as np
import pandas as pd
import pytest

import majiang
from majiang.errors import RuleError
from majiang.studies import arena as arena_mod
from majiang.studies.arena import HAND_COLUMNS, arena, arena_summary, read_arena, seat_orders

EFF4 = ["efficiency"] * 4
R_VS_E = ["random", "efficiency", "efficiency", "efficiency"]


def test_public_name():
    assert majiang.arena is arena


def test_seat_orders():
    rot = seat_orders(4, "rotate4")
    assert len(rot) == 4 and len(set(rot)) == 4
    # each player sits in each seat exactly once over the rotations
    for i in range(4):
        assert sorted(o.index(i) for o in rot) == [0, 1, 2, 3]
    assert len(set(seat_orders(4, "all24"))) == 24


# ------------------------------------------------------------------ symmetry
def test_identical_players_rotate4_mean_exactly_zero():
    """Four copies of one player, every seat once per wall, under zero-sum Chinese
    Official scoring: each player's wall total is the sum of one hand's four score
    changes, 0; the interval is [0, 0]."""
    df = arena(EFF4, "mcr", 6, progress=False)
    hands = df.attrs["hands"]
    assert (hands.groupby(["wall", "rotation"])["score"].sum() == 0).all()
    assert (df["mean_score"] == 0).all() and (df["lo"] == 0).all() and (df["hi"] == 0).all()
    assert (df["hands"] == 24).all() and (df["walls"] == 6).all()
    # the same hand in every rotation: the rank points of a wall add up alike for all
    assert df["rank_points"].nunique() == 1
    assert df["rank_points"].iloc[0] == pytest.approx(7 / 4)    # (4+2+1+0)/4


def test_identical_random_players_all24_equal_means():
    """All 24 seat orders of four identical (random) players: the bots' stream is the
    wall's, so every order plays the same hand, and each player sits in each seat 6
    times: the per-player tables agree exactly."""
    df = arena(["random"] * 4, "mcr", 2, rotations="all24", progress=False)
    h = df.attrs["hands"]
    assert len(h) == 2 * 24 * 4
    for col in ("mean_score", "win_rate", "deal_in_rate", "rank_points"):
        assert df[col].nunique() == 1, col
    per = h.groupby("player")[["score", "wins", "deal_ins", "fan_sum"]].sum()
    assert (per.nunique() == 1).all()


def test_zero_sum_across_players():
    df = arena(R_VS_E, "mcr", 4, progress=False)
    assert (df.attrs["hands"].groupby(["wall", "rotation"])["score"].sum() == 0).all()
    assert df["mean_score"].sum() == pytest.approx(0, abs=1e-9)
    # every hand of a wall uses the wall's dealer, whatever the seat order
    h = df.attrs["hands"]
    dealer_seats = h[h["dealer"] == 1].groupby("wall")["seat"].unique()
    assert all(len(s) == 1 and s[0] == w % 4 for w, s in dealer_seats.items())


def test_same_wall_in_every_rotation():
    """A wall's hands differ only by seating: with four identical players the four
    rotations give the same score per seat."""
    h = arena(EFF4, "sichuan", 3, progress=False).attrs["hands"]
    by_seat = h.pivot_table(index=["wall", "seat"], columns="rotation", values="score")
    assert (by_seat.nunique(axis=1) == 1).all()


# ------------------------------------------------------------------ the interval, by hand
def _table(per_wall_scores):
    """A raw table: 4 players, one rotation per wall; player 0 scores x, the
    others -x/3 each (zero-sum), no wins."""
    rows = []
    for w, x in enumerate(per_wall_scores):
        for p in range(4):
            rows.append({"wall": w, "rotation": 0, "player": p, "seat": p, "dealer": int(p == 0),
                         "score": x if p == 0 else -x // 3, "wins": 0, "self_draws": 0,
                         "fan_sum": 0, "deal_ins": 0, "drawn": 1})
    return pd.DataFrame(rows, columns=list(HAND_COLUMNS))


def test_interval_hand_computed():
    """Walls with player-0 means 3, 6, 18 (t table: t(0.975, 2) = 4.303):
    mean 9, sd = sqrt(((-6)^2 + (-3)^2 + 9^2) / 2) = sqrt(63), half-width
    4.302653 * sqrt(63) / sqrt(3) = 4.302653 * sqrt(21) = 19.71737."""
    df = arena_summary(_table([3, 6, 18]))
    r = df.iloc[0]
    assert r["mean_score"] == 9
    assert r["sd_wall"] == pytest.approx(math.sqrt(63))
    half = 4.302652729911275 * math.sqrt(21)
    assert r["lo"] == pytest.approx(9 - half) and r["hi"] == pytest.approx(9 + half)
    assert df.iloc[1]["mean_score"] == pytest.approx(-3)      # -1, -2, -6
    assert r["drawn_rate"] == 1 and r["win_rate"] == 0 and math.isnan(r["mean_fan"])
    # one wall: no interval
    one = arena_summary(_table([3])).iloc[0]
    assert one["mean_score"] == 3 and math.isnan(one["lo"]) and math.isnan(one["hi"])


def test_interval_averages_rotations_first():
    """The wall is the unit: two rotations of a wall count once, by their mean."""
    a = _table([2, 10])
    b = a.assign(rotation=1, score=a["score"] * 0)       # second rotation: 0 everywhere
    df = arena_summary(pd.concat([a, b], ignore_index=True))
    r = df.iloc[0]
    assert r["mean_score"] == 3                  # per-wall means 1 and 5
    half = 12.706204736174698 * math.sqrt(8) / math.sqrt(2)   # t(0.975, 1), sd sqrt(8)
    assert r["hi"] - r["mean_score"] == pytest.approx(half)
    assert r["hands"] == 4 and r["walls"] == 2


def test_rank_points_ties_share():
    pts = arena_mod._rank_points([8, 8, -8, -8], (4, 2, 1, 0))
    assert list(pts) == [3, 3, 0.5, 0.5]
    pts = arena_mod._rank_points([24, -8, -8, -8], (4, 2, 1, 0))
    assert list(pts) == [4, 1, 1, 1]
    assert list(arena_mod._rank_points([0, 5, -5, 0], (3, 2, 1, 0))) == [1.5, 3, 0, 1.5]


# ------------------------------------------------------------------ strength
def test_random_loses_to_efficiency():
    df = arena(R_VS_E, "mcr", 24, progress=False)
    rnd = df.iloc[0]
    assert rnd["player"] == "random"
    assert rnd["hi"] < 0 < df.iloc[1:]["mean_score"].min()
    assert rnd["rank_points"] < df.iloc[1]["rank_points"]
    assert rnd["win_rate"] < df.iloc[1]["win_rate"]


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["mcr", "sichuan", "guangdong"])
def test_efficiency_beats_random_2000_walls(ruleset):
    df = arena(["efficiency", "random", "random", "random"], ruleset, 2000, n_jobs=-1,
               progress=False)
    assert df.iloc[0]["lo"] > 0
    assert (df.iloc[1:]["hi"] < 0).all()


# ------------------------------------------------------------------ runs and resumption
def test_independent_of_jobs_and_executor():
    a = arena(R_VS_E, "mcr", 6, n_jobs=1, chunk_size=2, progress=False)
    b = arena(R_VS_E, "mcr", 6, n_jobs=2, chunk_size=2, progress=False)
    with cf.ThreadPoolExecutor(2) as ex:
        c = arena(R_VS_E, "mcr", 6, executor=ex, chunk_size=3, progress=False)
    pd.testing.assert_frame_equal(a.attrs["hands"], b.attrs["hands"])
    pd.testing.assert_frame_equal(a.attrs["hands"], c.attrs["hands"])
    pd.testing.assert_frame_equal(a, b)


def test_walls_are_a_prefix():
    """Wall w depends on the seed and w only: the first walls of a longer run are
    the walls of a shorter one."""
    short = arena(R_VS_E, "mcr", 3, progress=False).attrs["hands"]
    long = arena(R_VS_E, "mcr", 6, progress=False).attrs["hands"]
    pd.testing.assert_frame_equal(short, long[long["wall"] < 3].reset_index(drop=True))
    other = arena(R_VS_E, "mcr", 3, seed=1, progress=False).attrs["hands"]
    assert not short.equals(other)


def test_resume_after_interrupt(tmp_path, monkeypatch):
    out = tmp_path / "run"
    full = arena(R_VS_E, "mcr", 8, chunk_size=2, progress=False)
    real = arena_mod._run_walls
    calls = []

    def flaky(*args):
        calls.append(args[-2:])
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(arena_mod, "_run_walls", flaky)
    with pytest.raises(KeyboardInterrupt):
        arena(R_VS_E, "mcr", 8, chunk_size=2, n_jobs=1, out=out, progress=False)
    parts = sorted(n for n in os.listdir(out) if n.startswith("part-"))
    assert len(parts) == 2                                    # walls 0..3 saved
    with pytest.raises(RuleError, match="unfinished"):
        read_arena(out)
    assert len(read_arena(out, partial=True)) == 4 * 4 * 4
    calls.clear()
    monkeypatch.setattr(arena_mod, "_run_walls", lambda *a: calls.append(a[-2:]) or real(*a))
    resumed = arena(R_VS_E, "mcr", 8, n_jobs=1, out=out, progress=False)   # chunk size read back
    assert calls == [(4, 6), (6, 8)]                          # finished walls not replayed
    pd.testing.assert_frame_equal(resumed.attrs["hands"], full.attrs["hands"])
    pd.testing.assert_frame_equal(resumed, full)
    again = arena(R_VS_E, "mcr", 8, n_jobs=1, out=out, progress=False)
    assert len(calls) == 2
    pd.testing.assert_frame_equal(again, full)


def test_out_refuses_another_run(tmp_path):
    out = tmp_path / "run"
    arena(R_VS_E, "mcr", 2, out=out, progress=False)
    with pytest.raises(RuleError, match="different arena run.*n_walls"):
        arena(R_VS_E, "mcr", 3, out=out, progress=False)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "x.txt").write_text("x")
    with pytest.raises(RuleError, match="not empty"):
        arena(R_VS_E, "mcr", 2, out=tmp_path / "other", progress=False)


@pytest.mark.parametrize("kwargs, match", [
    ({"players": ["efficiency"] * 3}, "4 players"),
    ({"players": "efficiency"}, "list of 4 players"),
    ({"players": ["efficiency", "nobody", "random", "random"]}, "nobody"),
    ({"n_walls": 0}, "n_walls"),
    ({"rotations": "all"}, "rotate4"),
    ({"n_jobs": 0}, "n_jobs"),
    ({"rank_points": (3, 2, 1)}, "rank_points"),
    ({"ruleset": "no-such-rules"}, "no-such-rules"),
])
def test_bad_arguments(kwargs, match):
    args = {"players": R_VS_E, "ruleset": "mcr", "n_walls": 2, **kwargs}
    with pytest.raises(RuleError, match=match):
        arena(args.pop("players"), args.pop("ruleset"), args.pop("n_walls"), progress=False,
              **args)


def test_policy_objects():
    """A policy object plays in the Python loop; a policy that behaves as the
    efficiency bot gives the efficiency bot's table."""
    from majiang.game.players import make_players
    eff = make_players(["efficiency"], 1, np.random.default_rng(0))[0]
    a = arena(["random", eff, "efficiency", "efficiency"], "mcr", 2, progress=False)
    b = arena(R_VS_E, "mcr", 2, progress=False)
    pd.testing.assert_frame_equal(a.attrs["hands"], b.attrs["hands"])


# ------------------------------------------------------------------ CLI and plot
def test_cli(tmp_path, capsys):
    from majiang.cli import main
    png = tmp_path / "a.png"
    code = main(["arena", "efficiency", "random", "random", "random", "--walls", "4",
                 "--plot", str(png), "--no-progress"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "efficiency (0)" in out and "95% interval" in out
    assert png.stat().st_size > 1000
    code = main(["arena", "efficiency", "random", "--walls", "2"])
    assert code == 2
    assert "4 players" in capsys.readouterr().err


def test_plot_rejects_other_tables():
    from majiang.errors import MahjongError
    from majiang.plots import arena_intervals
    with pytest.raises(MahjongError, match="arena"):
        arena_intervals(pd.DataFrame({"x": [1]}))


@pytest.mark.parametrize("ruleset", ["kawuxing", "guangdong", "guizhou"])
def test_identical_players_zero_mean_other_rulesets(ruleset):
    """The symmetry holds at any table size: three players get 3 rotations (kawuxing),
    and with four copies of one player every zero-sum ruleset gives mean 0 exactly."""
    from majiang.rules.model import game_model
    n = game_model(ruleset).players
    df = arena(["efficiency"] * n, ruleset, 2, progress=False)
    assert len(df) == n and (df["hands"] == 2 * n).all()
    assert (df.attrs["hands"].groupby(["wall", "rotation"])["score"].sum() == 0).all()
    assert (df["mean_score"] == 0).all()
    assert len(arena(["efficiency"] * n, ruleset, 1, rotations="all24",
                     progress=False).attrs["hands"]) == math.factorial(n) * n

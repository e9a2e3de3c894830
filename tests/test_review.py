"""majiang.review: every recorded discard compared with our advice."""
from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from majiang import records
from majiang.efficiency import shanten, ukeire
from majiang.hand import Hand, parse_hand
from majiang.review import (
    AGREEMENT_COLUMNS, MCR_FORMS, REVIEW_COLUMNS, WIN_COLUMNS, agreement, decision_hand,
    review_decision, review_game, review_games, review_wins,
)
from majiang.tiles import counts_from_tiles, parse_tile, parse_tiles, tile_name


# ---------------------------------------------------------------- raw-text counts
def _raw_blocks() -> dict[str, str]:
    """Match id -> the text of its block, split from the raw log by hand."""
    text = records.example_path().read_text(encoding="utf-8")
    blocks = re.split(r"^(?=Match )", text, flags=re.M)
    out = {}
    for b in blocks:
        m = re.match(r"Match (\S+)", b)
        if m:
            out[m.group(1)] = b
    return out


RAW = _raw_blocks()
PLAY = re.compile(r"^Player ([0-3]) Play \S+\s*$", re.M)
HU = re.compile(r"^Player ([0-3]) Hu (\S+)", re.M)


def _plays(block: str, player: int | None = None) -> int:
    return sum(1 for m in PLAY.finditer(block) if player is None or int(m.group(1)) == player)


@pytest.fixture(scope="module")
def games():
    return records.example_games()


@pytest.fixture(scope="module")
def df(games):
    return review_games(games)


# ---------------------------------------------------------------- shape
def test_raw_log_has_eight_games(games):
    assert len(RAW) == 8
    assert [g.match_id for g in games] == list(RAW)


def test_one_row_per_play_event(games, df):
    assert list(df.columns) == list(REVIEW_COLUMNS)
    assert len(df) == sum(_plays(b) for b in RAW.values())
    for g in games:
        assert (df["game"] == g.match_id).sum() == _plays(RAW[g.match_id])
    # in game order, turns increasing within a game
    for _, rows in df.groupby("game", sort=False):
        assert rows["turn"].is_monotonic_increasing


def test_review_game_equals_slice_of_review_games(games, df):
    one = review_game(games[3])
    part = df[df["game"] == games[3].match_id].reset_index(drop=True)
    pd.testing.assert_frame_equal(one, part)


def test_dtypes(df):
    for col in ("turn", "player", "rank", "shanten", "ukeire_count", "advised_shanten",
                "advised_ukeire_count", "options"):
        assert df[col].dtype == np.int64, col
    assert df["agrees"].dtype == bool


# ---------------------------------------------------------------- consistency
def test_rank_and_agreement_are_consistent(df):
    assert (df["rank"] >= 1).all()
    assert (df["rank"] <= df["options"]).all()
    assert (df["agrees"] == (df["rank"] == 1)).all()
    for row in df.itertuples():
        best = parse_tiles(row.best)
        assert parse_tile(row.advised) in best
        assert (parse_tile(row.discard) in best) == row.agrees
        if row.agrees:
            assert row.advised == row.discard
            assert (row.shanten, row.ukeire_count) == (row.advised_shanten,
                                                       row.advised_ukeire_count)
        else:
            # the advice is at least as good on the two first criteria
            assert (row.advised_shanten, -row.advised_ukeire_count) <= \
                (row.shanten, -row.ukeire_count)


def test_hand_column_round_trips(df):
    for row in df.itertuples():
        hand = parse_hand(row.hand)
        assert hand.n_tiles == 14
        assert hand.concealed[parse_tile(row.discard)] >= 1
        if row.drawn is not None and not pd.isna(row.drawn):
            assert hand.concealed[parse_tile(row.drawn)] >= 1


def test_some_hands_have_melds_and_some_decisions_follow_claims(df):
    assert df["hand"].str.contains(r"\[").any()
    assert df["drawn"].isna().any()


def _after_discard(d):
    after = d.concealed.copy()
    after[d.discard] -= 1
    return Hand(after, decision_hand(d).melds)


def test_row_matches_an_independent_computation(games):
    """Shanten and live ukeire after the actual discard, recomputed directly from
    the 13-tile hand with :func:`shanten` and :func:`ukeire`."""
    checked = 0
    for d in records.decision_points(games[0]):
        row = review_decision(d)
        hand = _after_discard(d)
        s = shanten(hand, forms=MCR_FORMS, seven_pairs_quads=True)
        assert row["shanten"] == s
        live = ukeire(hand, d.visible, forms=MCR_FORMS, seven_pairs_quads=True)
        assert parse_tiles(row["ukeire"]) == [parse_tile(t) for t in live]
        if tile_name(d.discard) not in live:     # else the discarded copy is seen: next test
            assert row["ukeire_count"] == sum(live.values())
        checked += 1
    assert checked == _plays(RAW[games[0].match_id])


def test_live_count_after_a_discard_counts_the_discard_as_seen(games):
    for d in records.decision_points(games[0]):
        row = review_decision(d)
        seen = d.visible.copy()
        seen[d.discard] += 1
        live = ukeire(_after_discard(d), seen, forms=MCR_FORMS, seven_pairs_quads=True)
        assert row["ukeire_count"] == sum(live.values())


def _decision(concealed: str, discard: str, melds=()) -> records.Decision:
    return records.Decision(
        game="synthetic", turn_index=0, player=0,
        concealed=counts_from_tiles(concealed), melds=tuple(melds),
        visible=np.zeros(34, dtype=np.uint8), discard=parse_tile(discard),
        seat_wind=0, prevalent_wind=0, drawn=None)


def test_seven_pairs_with_a_quad_is_tenpai_under_mcr():
    d = _decision("1111m223344p55s6s7z", "7z")
    mcr = review_decision(d)
    assert mcr["shanten"] == 0 and mcr["agrees"]
    riichi = review_decision(d, seven_pairs_quads=False)
    assert riichi["shanten"] > 0


def test_record_melds_become_hand_melds():
    meld = records.RecordMeld("pung", parse_tile("7z"))
    d = _decision("12356789p33z5z", "5z", [meld])
    row = review_decision(d)
    assert row["hand"] == "12356789p335z [777z]"
    assert row["shanten"] == 0


def test_players_filter(games):
    part = review_games(games, players=[2])
    assert set(part["player"]) == {2}
    assert len(part) == sum(_plays(b, 2) for b in RAW.values())


def test_second_order_adds_columns(games):
    two = review_game(games[2], second_order=True)
    assert {"improvement", "advised_improvement"} <= set(two.columns)
    one = review_game(games[2])
    assert len(one) == len(two)


# ---------------------------------------------------------------- agreement
def test_agreement_per_player_and_overall(df):
    per = agreement(df)
    assert list(per.columns) == ["player"] + list(AGREEMENT_COLUMNS)
    assert list(per["player"]) == [0, 1, 2, 3]
    for p in range(4):
        assert per.loc[per.player == p, "decisions"].item() == \
            sum(_plays(b, p) for b in RAW.values())
    assert per["decisions"].sum() == len(df)
    assert per["agreed"].sum() == df["agrees"].sum()
    assert ((per["agreement"] >= 0) & (per["agreement"] <= 1)).all()
    assert np.allclose(per["agreement"], per["agreed"] / per["decisions"])
    assert (per["mean_rank"] >= 1).all()

    total = agreement(df, None)
    assert len(total) == 1
    assert total["decisions"].item() == len(df)
    assert 0 <= total["agreement"].item() <= 1
    assert total["shanten_loss"].item() == int((df["shanten"] > df["advised_shanten"]).sum())


def test_agreement_per_game_and_pairs(df):
    per_game = agreement(df, "game")
    assert len(per_game) == 8
    for row in per_game.itertuples():
        assert row.decisions == _plays(RAW[row.game])
    both = agreement(df, ["game", "player"])
    assert both["decisions"].sum() == len(df)
    assert len(both) == 32


def test_agreement_of_nothing(df):
    empty = agreement(df.iloc[:0], None)
    assert empty["decisions"].item() == 0
    assert np.isnan(empty["agreement"].item())
    assert len(agreement(df.iloc[:0])) == 0


# ---------------------------------------------------------------- wins
def test_wins_match_the_raw_log(games):
    w = review_wins(games)
    assert list(w.columns) == list(WIN_COLUMNS)
    expected = [(mid, int(m.group(1))) for mid, b in RAW.items() for m in HU.finditer(b)]
    assert list(zip(w["game"], w["player"])) == expected
    for row in w.itertuples():
        fan = re.search(r"^Fan (\d+)", RAW[row.game], re.M)
        assert row.fan_total == int(fan.group(1))
        assert parse_hand(row.hand, hand_size=13).n_tiles == 13
        assert row.self_drawn == pd.isna(row.discarder)


def test_win_scorer_hook_adds_columns(games):
    w = review_wins(games, scorer=lambda win: {"our_fan_total": win.fan_total,
                                               "n_melds": len(win.melds)})
    assert list(w.columns) == list(WIN_COLUMNS) + ["our_fan_total", "n_melds"]
    assert (w["our_fan_total"] == w["fan_total"]).all()


def test_review_scores_every_win_like_the_log(games):
    """Each recorded win of the shipped games: our total and settlement equal the log's."""
    from majiang.review import mcr_win_scorer, review_wins

    table = review_wins(games, scorer=mcr_win_scorer)
    assert len(table) == sum(r.fan_total > 0 for r in games)
    assert table["fans_agree"].all()
    assert (table["our_fan_total"] == table["fan_total"]).all()

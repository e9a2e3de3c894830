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


# ---------------------------------------------------------------- fan lists (issue 8)
def _first_win(games):
    return next(w for g in games for w in records.wins(g))


def test_a_made_up_fan_with_the_right_total_does_not_agree(games):
    """Was: fans_agree compared only totals and settlements, so a fan name the rules
    do not have still 'agreed'."""
    import dataclasses

    from majiang.review import mcr_win_scorer

    win = _first_win(games)
    assert mcr_win_scorer(win)["fans_agree"]
    (name, n), *rest = win.fans
    fake = dataclasses.replace(win, fans=(("麻将大师", n), *rest))   # same total recorded
    row = mcr_win_scorer(fake)
    assert row["fans_agree"] is False
    assert row["total_agrees"] is True and row["scores_agree"] is True
    assert ("麻将大师", n, 0) in row["fans_differ"] and (name, 0, n) in row["fans_differ"]
    # a recorded count that differs, and a fan left out
    more = dataclasses.replace(win, fans=((name, n + 1), *rest))
    assert mcr_win_scorer(more)["fans_agree"] is False
    fewer = dataclasses.replace(win, fans=tuple(rest))
    assert mcr_win_scorer(fewer)["fans_agree"] is False


def test_recorded_names_are_read_with_aliases_and_the_botzone_kong_fan():
    """嵌张 is Botzone's name for 坎张; its 明暗杠 (5) is 暗杠 (2) + 明杠 (1) by the 81 MCR
    fans (values from the rules: 暗杠 2, 明杠 1, 坎张 1, 箭刻 2) — the official reading,
    option concealed_and_melded_kong off; the default keeps 明暗杠 (its test is in
    tests/test_mcr.py)."""
    from majiang.review import recorded_fans
    from majiang.rules.mcr import MCR_OFFICIAL

    fans, total, unknown = recorded_fans([("明暗杠", 1), ("嵌张", 1), ("箭刻", 2)],
                                         MCR_OFFICIAL)
    assert fans == {"暗杠": 1, "明杠": 1, "坎张": 1, "箭刻": 2}
    assert total == 2 + 1 + 1 + 2 * 2 and unknown == []
    fans, total, unknown = recorded_fans([("不存在", 1), ("箭刻", 1)])
    assert unknown == ["不存在"] and fans == {"不存在": 1, "箭刻": 1} and total == 2


def test_review_text_names_what_differs(games, capsys, monkeypatch):
    import dataclasses

    from majiang.cli import main
    from majiang import records as rec

    real = rec.wins

    def doctored(record):
        out = real(record)
        return [dataclasses.replace(w, fans=(("麻将大师", 1),) + tuple(w.fans[1:]))
                for w in out]
    monkeypatch.setattr(rec, "wins", doctored)
    import majiang.review as rv
    monkeypatch.setattr(rv, "wins", doctored)
    assert main(["review", "--example"]) == 0
    out = capsys.readouterr().out
    assert "DIFFERS: fans 麻将大师 recorded 1, ours 0" in out
    assert "(agrees)" not in out


# ---------------------------------------------------------------- error locations (issue 8)
def _bad_deal_text() -> str:
    """The first shipped game with player 1 dealt three 9m beside player 0's two: five
    copies in the deals."""
    block = next(iter(RAW.values())).strip("\n")
    lines = block.split("\n")
    i = next(i for i, l in enumerate(lines) if l.startswith("Player 1 Deal"))
    lines[i] = "Player 1 Deal W9 W9 W9 W2 J2 B6 B6 T4 B2 T7 F3 T9 B1"
    assert sum(l.split().count("W9") for l in lines if " Deal " in l) == 5
    return "\n".join(lines) + "\n"


def test_a_bad_deal_is_located_without_line_none(tmp_path, capsys):
    """Was: 'match ..., line None: the deals put 5 copies of 9m in play'."""
    from majiang.cli import main
    from majiang.errors import InvalidHandError

    text = _bad_deal_text()
    game = records.parse_games(text)[0]
    with pytest.raises(InvalidHandError) as err:
        list(records.decision_points(game))
    msg = str(err.value)
    assert "None" not in msg and "line 1" in msg and "5 copies of 9m" in msg
    f = tmp_path / "bad.txt"
    f.write_text(text, encoding="utf-8")
    assert main(["review", str(f)]) == 2
    cli_err = capsys.readouterr().err
    assert "None" not in cli_err and "line 1" in cli_err


def test_a_record_built_in_code_names_the_event_not_a_line():
    """Records made without text have no line numbers: the message names the event."""
    import dataclasses

    from majiang.errors import InvalidHandError

    game = records.parse_games(_bad_deal_text())[0]
    bare = dataclasses.replace(game, line=0)
    with pytest.raises(InvalidHandError) as err:
        list(records.replay(bare))
    assert "line" not in str(err.value) and "None" not in str(err.value)
    good = records.example_games()[0]
    ev = good.events
    i = next(i for i, e in enumerate(ev) if e.action == "Play")
    swapped = dataclasses.replace(ev[i], player=(ev[i].player + 1) % 4, line=0)
    bad = dataclasses.replace(good, events=[*ev[:i], swapped, *ev[i + 1:]], line=0)
    with pytest.raises(InvalidHandError) as err:
        list(records.replay(bad))
    msg = str(err.value)
    assert "line" not in msg and "None" not in msg and "Play" in msg


def test_a_win_we_count_below_the_minimum_is_reported_not_raised(games, monkeypatch):
    """Our count below 8 fan (a disagreement with the log): no settlement, no crash."""
    import majiang.review as rv
    from majiang.scoring import score

    win = _first_win(games)
    real = rv.score_win

    def low(w, ruleset="mcr"):
        r = real(w, ruleset)
        assert r.meets_minimum
        # the same hand scored under a house table whose minimum it misses
        return score(r.hand, w.win_tile, self_drawn=w.self_drawn, seat_wind=w.seat_wind,
                     prevalent_wind=w.prevalent_wind,
                     ruleset=rules_high_minimum())
    monkeypatch.setattr(rv, "score_win", low)
    row = rv.mcr_win_scorer(win)
    assert row["our_scores"] is None and row["scores_agree"] is False


def rules_high_minimum():
    from majiang import rules
    return rules.loads('base = "mcr"\nname = "mcr_min88"\n[rules]\nmin_fan = 88\n')

"""Botzone MCR game records: parsing, replay, decisions and wins on the 8 shipped hands."""

import re

import numpy as np
import pytest

from majiang.errors import InvalidHandError, InvalidNotationError, MahjongError
from majiang.records import (
    Discard, Event, RecordMeld, botzone_code, botzone_tile, decision_points, example_games,
    example_path, load_games, parse_games, replay, wins,
)

GAME1 = "61602cb45ddc087351c04358"
GAME3 = "61602cb45ddc087351c04362"  # Player 2 wins on its own draw B3 (和绝张)
GAME5 = "61602cb45ddc087351c0436c"  # Player 3 AnGang W7; Player 1 self-draws
GAME7 = "61602cb45ddc087351c04376"  # Player 2 BuGang J1


def counts(tenhou: str) -> np.ndarray:
    """Tiny independent Tenhou reader for expected hands: '123m45z' -> (34,) counts."""
    out = np.zeros(34, dtype=np.uint8)
    for digits, suit in re.findall(r"(\d+)([mpsz])", tenhou):
        base = "mpsz".index(suit) * 9
        for d in digits:
            out[base + int(d) - 1] += 1
    assert sum(len(d) for d, _ in re.findall(r"(\d+)([mpsz])", tenhou)) == out.sum()
    return out


def meld_counts(melds) -> np.ndarray:
    out = np.zeros(34, dtype=np.int64)
    for m in melds:
        for t in m.tiles():
            out[t] += 1
    return out


@pytest.fixture(scope="module")
def games():
    return example_games()


@pytest.fixture(scope="module")
def by_id(games):
    return {g.match_id: g for g in games}


@pytest.fixture(scope="module")
def text():
    return example_path().read_text(encoding="utf-8")


# ------------------------------------------------------------------ tile codes
def test_tile_codes_map_to_kinds():
    assert [botzone_tile(f"W{i}") for i in range(1, 10)] == list(range(0, 9))
    assert [botzone_tile(f"B{i}") for i in range(1, 10)] == list(range(9, 18))
    assert [botzone_tile(f"T{i}") for i in range(1, 10)] == list(range(18, 27))
    assert [botzone_tile(f"F{i}") for i in range(1, 5)] == [27, 28, 29, 30]
    assert botzone_tile("J1") == 33  # Red 中 = 7z
    assert botzone_tile("J2") == 32  # Green 发 = 6z
    assert botzone_tile("J3") == 31  # White 白 = 5z
    assert all(botzone_tile(botzone_code(k)) == k for k in range(34))


@pytest.mark.parametrize("code", ["X1", "W0", "B10", "T", "F5", "J4", "J0", "H1", "w1", "", "1m"])
def test_bad_tile_code_is_named(code):
    with pytest.raises(InvalidNotationError, match=re.escape(repr(code))):
        botzone_tile(code)


def test_bad_kind_index():
    with pytest.raises(InvalidNotationError):
        botzone_code(34)


# ------------------------------------------------------------------ parsing
def test_parse_all_shipped_games(games, text):
    assert len(games) == 8
    assert len({g.match_id for g in games}) == 8
    assert games[0].match_id == GAME1 and games[0].prevalent_wind == 1
    assert [g.prevalent_wind for g in games] == [1, 2, 3, 3, 0, 3, 3, 2]
    for g in games:
        assert len(g.deals) == 4 and all(len(d) == 13 for d in g.deals)
        assert not g.drawn and g.scores is not None and sum(g.scores) == 0
        assert g.fans and all(isinstance(n, str) and c >= 1 for n, c in g.fans)
    assert games[0].fans == [("混一色", 1), ("箭刻", 1), ("老少副", 1)]
    assert games[0].fan_total == 9 and games[0].scores == (-8, 33, -17, -8)
    assert ("连六", 2) in games[3].fans
    # every non-blank line is accounted for
    n_lines = sum(1 for line in text.splitlines() if line.strip())
    assert n_lines == sum(2 + 4 + len(g.events) + 2 for g in games)


def test_load_games_from_path(tmp_path, text, games):
    p = tmp_path / "log.txt"
    p.write_text(text, encoding="utf-8")
    assert load_games(p) == games
    assert load_games(str(p)) == load_games()


def test_ignored_claims_are_kept_as_data(games):
    g = games[0]
    ev = next(e for e in g.events if e.ignored)
    assert (ev.player, ev.action, ev.tile) == (0, "Peng", botzone_tile("W9"))
    assert ev.ignored == (Event(3, "Chi", botzone_tile("W8")),)
    assert ev.line == 45
    assert str(ev) == "Player 0 Peng W9 Ignore Player 3 Chi W8"
    # not applied: player 3's hand is unchanged by the line
    states = list(replay(g))
    i = g.events.index(ev)
    assert np.array_equal(states[i].concealed[3], states[i - 1].concealed[3])
    assert states[i].melds[3] == ()
    assert sum(len(e.ignored) for g in games for e in g.events) == 3


# ------------------------------------------------------------------ replay
def test_replay_conserves_tiles(games):
    for g in games:
        states = list(replay(g))
        assert len(states) == len(g.events)
        for st in states:
            table = np.zeros(34, dtype=np.int64)
            for river in st.discards:
                for d in river:
                    if d.claimed_by is None:
                        table[d.tile] += 1
            melds = [meld_counts(ms) for ms in st.melds]
            total = st.concealed.sum(axis=0).astype(np.int64) + sum(melds) + table
            assert total.max() <= 4, (g.match_id, st.index)
            assert total.sum() == 52 + sum(st.draws), (g.match_id, st.index)
            assert sum(st.draws) <= 84
            for p in range(4):
                # a seat's own hand plus what it sees never exceeds 4 copies
                seen = st.concealed[p].astype(np.int64) + melds[p] + st.visible[p]
                assert seen.max() <= 4
                exposed_others = sum(
                    meld_counts([m for m in st.melds[q] if not m.concealed]) for q in range(4) if q != p
                )
                assert np.array_equal(st.visible[p], table + exposed_others)
                assert st.visible.dtype == np.uint8 and st.visible.shape == (4, 34)
                size = int(st.concealed[p].sum()) + 3 * len(st.melds[p])
                holder = st.event.player if st.event.action in ("Draw", "Chi", "Peng", "Hu") else None
                assert size == (14 if p == holder else 13), (g.match_id, st.index, p)


def test_chow_uses_middle_tile_and_claims_last_discard(games):
    g = games[0]
    i = next(i for i, e in enumerate(g.events) if e.action == "Chi")
    assert str(g.events[i - 1]) == "Player 1 Play T4" and str(g.events[i]) == "Player 2 Chi T5"
    before, after = list(replay(g))[i - 1 : i + 1]
    assert after.melds[2] == (RecordMeld("chow", botzone_tile("T4"), False),)
    assert after.discards[1][-1] == Discard(botzone_tile("T4"), claimed_by=2)
    assert before.last_discard == (1, botzone_tile("T4")) and after.last_discard is None
    diff = before.concealed[2].astype(int) - after.concealed[2].astype(int)
    assert np.array_equal(diff, counts("56s"))  # T5 and T6 left the hand, T4 came from the river
    assert after.visible[0][botzone_tile("T4")] == 1  # others see the whole chow
    assert after.visible[2][botzone_tile("T4")] == 0  # the chow is in player 2's own hand


def test_concealed_kong_hidden_and_added_kong_shown(by_id):
    g = by_id[GAME5]
    i = next(i for i, e in enumerate(g.events) if e.action == "AnGang")
    st = list(replay(g))[i]
    w7 = botzone_tile("W7")
    assert RecordMeld("kong", w7, True) in st.melds[3]
    assert st.concealed[3][w7] == 0
    assert [st.visible[q][w7] for q in range(4)] == [0, 0, 0, 0]
    assert str(g.events[i + 1]) == "Player 3 Draw W4"  # replacement draw

    g = by_id[GAME7]
    i = next(i for i, e in enumerate(g.events) if e.action == "BuGang")
    before, after = list(replay(g))[i - 1 : i + 1]
    j1 = botzone_tile("J1")
    assert RecordMeld("pung", j1, False) in before.melds[2]
    assert RecordMeld("kong", j1, False) in after.melds[2]
    assert [after.visible[q][j1] for q in (0, 1, 3)] == [4, 4, 4]


# ------------------------------------------------------------------ decisions
def test_first_decision_exact(games):
    d = next(decision_points(games[0]))
    # Deal T8 B7 T1 W6 B8 W9 J1 T9 B2 W3 T6 F4 W9 + Draw J3
    assert (d.game, d.turn_index, d.player) == (GAME1, 1, 0)
    assert np.array_equal(d.concealed, counts("3699m278p1689s457z"))
    assert d.concealed.dtype == np.uint8 and d.concealed.shape == (34,)
    assert d.discard == botzone_tile("T6") and d.drawn == botzone_tile("J3") == 31
    assert d.melds == () and d.visible.sum() == 0
    assert (d.seat_wind, d.prevalent_wind) == (0, 1)


def test_every_decision_has_a_full_hand(games):
    total = 0
    for g in games:
        ds = list(decision_points(g))
        assert len(ds) == sum(e.action == "Play" for e in g.events)
        for d in ds:
            assert int(d.concealed.sum()) == 14 - 3 * len(d.melds)
            assert d.concealed[d.discard] >= 1
            assert (d.concealed.astype(int) + meld_counts(d.melds) + d.visible).max() <= 4
            assert d.seat_wind == d.player and d.prevalent_wind == g.prevalent_wind
            assert (d.drawn is None) == (g.events[d.turn_index - 1].action in ("Chi", "Peng"))
        total += len(ds)
    assert total == 361


def test_decision_after_claim(games):
    g = games[0]
    i = next(i for i, e in enumerate(g.events) if e.action == "Peng")
    d = next(d for d in decision_points(g) if d.turn_index == i + 1)
    assert d.player == 0 and d.drawn is None
    assert d.melds == (RecordMeld("pung", botzone_tile("W9"), False),)
    assert int(d.concealed.sum()) == 11


# ------------------------------------------------------------------ wins
def test_one_win_per_hu_line(games, text):
    hu_lines = [line for line in text.splitlines() if re.match(r"Player \d Hu ", line)]
    all_wins = [w for g in games for w in wins(g)]
    assert len(all_wins) == len(hu_lines) == 8
    assert [w.player for w in all_wins] == [int(line.split()[1]) for line in hu_lines]


def test_self_drawn_win_checked_by_hand(by_id):
    (w,) = wins(by_id[GAME3])
    # ... Player 2 Draw B3 / Player 2 Hu B3: 234p 567p 99p 456s 555s
    assert w.player == 2 and w.self_drawn and w.discarder is None
    assert w.win_tile == botzone_tile("B3")
    assert np.array_equal(w.concealed, counts("2456799p455556s"))
    assert w.melds == ()
    # B3 was discarded by players 0, 1 and 3 before: the last copy (和绝张)
    assert w.win_tile_shown == 3 and w.last_copy
    assert not w.kong_replacement and not w.robbing_kong and w.wall_last is False
    assert (w.seat_wind, w.prevalent_wind) == (2, 3)
    assert w.fan_total == 14 and ("不求人", 1) in w.fans and w.scores == (-22, -22, 66, -22)


def test_discard_win_checked_by_hand(games):
    (w,) = wins(games[0])
    # Player 2 Play B7 / Player 1 Hu B7: 123p 567p 789p 33z + pung 7z
    assert w.player == 1 and not w.self_drawn and w.discarder == 2
    assert np.array_equal(w.concealed, counts("12356789p33z"))
    assert w.melds == (RecordMeld("pung", botzone_tile("J1"), False),)
    assert w.win_tile == botzone_tile("B7") and not w.last_copy
    assert w.wall_remaining == (11, 9, 12, 11)


def test_wins_agree_with_recorded_fans_and_scores(games):
    for g in games:
        for w in wins(g):
            names = {n for n, _ in w.fans}
            assert w.self_drawn == bool(names & {"自摸", "不求人"}), g.match_id
            assert (w.win_tile_shown == 3) == ("和绝张" in names), g.match_id
            assert int(w.concealed.sum()) == 13 - 3 * len(w.melds)
            f = w.fan_total
            if w.self_drawn:
                expected = [-(8 + f)] * 4
                expected[w.player] = 3 * (8 + f)
            else:
                expected = [-8] * 4
                expected[w.discarder] = -(8 + f)
                expected[w.player] = 24 + f
            assert list(w.scores) == expected, g.match_id
            assert w.wall_last is False and not w.kong_replacement and not w.robbing_kong


def _edit(text: str, old: str, new: str) -> str:
    assert text.count(old) >= 1
    return text.replace(old, new, 1)


def _game1(text: str) -> str:
    return text.split("\n\n")[0] + "\n"


def _replay_all(text: str):
    for g in parse_games(text):
        for _ in replay(g):
            pass
        wins(g)


# ------------------------------------------------------------------ errors
def test_bad_tile_code_in_log_names_code_match_and_line(text):
    bad = _edit(_game1(text), "Player 0 Play T6", "Player 0 Play T0")
    with pytest.raises(InvalidNotationError, match=r"61602cb45ddc087351c04358.*line 8.*'T0'"):
        parse_games(bad)


@pytest.mark.parametrize(
    "cut, why",
    [
        (lambda t: t.rsplit("Fan ", 1)[0], "without a result"),
        (lambda t: t.rsplit("Score", 1)[0], "without its 'Score'"),
        (lambda t: t.replace("Player 3 Deal W1 B4 T4 T3 B4 W2 W5 W7 F2 T5 W8 W6 B5\n", ""), "Deal"),
        (lambda t: t.replace("Wind 1\n", ""), "Wind"),
        (lambda t: _edit(t, "Player 0 Draw J3", "Player 0 Fetch J3"), "unknown action"),
        (lambda t: _edit(t, "Player 0 Draw J3", "Player 5 Draw J3"), "bad seat"),
        (lambda t: _edit(t, "Score -8 33 -17 -8", "Score -8 33 -17"), "4 integers"),
    ],
)
def test_truncated_or_malformed_log(text, cut, why):
    with pytest.raises(InvalidNotationError, match=re.escape(why)):
        parse_games(cut(_game1(text)))


@pytest.mark.parametrize(
    "old, new, line, why",
    [
        # a discard of a tile not in the hand
        ("Player 0 Play T6", "Player 0 Play W1", 8, "needs 1 of 1m but holds 0"),
        # a draw line lost: player 0's next discard (now line 15) is out of turn
        ("Player 0 Draw T9\n", "", 15, "player 0 discards out of turn"),
        # a fifth copy of W9 (two in player 0's deal, two more here, one drawn later)
        ("Player 1 Deal B5 W5 F3 W2 J2", "Player 1 Deal W9 W9 F3 W2 J2", 0, "copies of 9m"),
        # chow from a seat that is not the previous one
        ("Player 2 Chi T5", "Player 3 Chi T5", 19, "may chow only from player 2"),
        # pung of a tile that was not discarded
        ("Player 0 Peng T9", "Player 0 Peng W9", 49, "on a discarded 9s"),
        # win on a tile other than the discard
        ("Player 1 Hu B7", "Player 1 Hu B8", 103, "the last discard is 7p"),
        # an ignored claim by a seat without the tiles
        ("Ignore Player 3 Chi W8", "Ignore Player 3 Chi W2", 45, "impossible"),
    ],
)
def test_inconsistent_log(text, old, new, line, why):
    bad = _edit(_game1(text), old, new)
    with pytest.raises(InvalidHandError, match=re.escape(why)) as info:
        _replay_all(bad)
    msg = str(info.value)
    assert GAME1 in msg
    if line:
        assert f"line {line} " in msg


def test_event_after_win_and_errors_are_mahjong_errors(text):
    bad = _edit(_game1(text), "Player 1 Hu B7\n", "Player 1 Hu B7\nPlayer 1 Play B7\n")
    with pytest.raises(MahjongError, match="after the winning Hu"):
        _replay_all(bad)
    assert issubclass(InvalidHandError, ValueError)


def test_drawn_hand_record_parses():
    lines = [
        "Match m1", "Wind 0",
        "Player 0 Deal W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 B4",
        "Player 1 Deal B5 B6 B7 B8 B9 T1 T2 T3 T4 T5 T6 T7 T8",
        "Player 2 Deal T9 F1 F2 F3 F4 J1 J2 J3 W1 W2 W3 W4 W5",
        "Player 3 Deal W6 W7 W8 W9 B1 B2 B3 B4 B5 B6 B7 B8 B9",
        "Player 0 Draw T9", "Player 0 Play T9", "Huang",
    ]
    (g,) = parse_games("\r\n".join(lines))
    assert g.drawn and g.fans == [] and g.fan_total == 0 and g.scores is None
    assert wins(g) == [] and len(list(replay(g))) == 2
    assert list(decision_points(g))[0].drawn == botzone_tile("T9")


# ------------------------------------------------------------------ synthetic logs (kongs, wall end)
# Win shapes are not checked by the replay, only tile counts and turn order,
# so small hand-made logs exercise the paths the 8 real hands never take.
DEALS = [
    "Player 0 Deal W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3",
    "Player 1 Deal W1 B4 B5 B6 B7 B8 B9 T1 T2 T3 T4 T5 T6",
    "Player 2 Deal T7 T8 T9 F1 F1 F2 F2 F3 F3 F4 F4 J1 J1",
    "Player 3 Deal J2 J2 J3 J3 B1 B2 B3 T7 T8 T9 W2 W3 W4",
]


def _log(*events, result=("Fan 8 抢杠和*1", "Score -16 -8 32 -8"), deals=DEALS):
    return "\n".join(["Match synthetic", "Wind 0", *deals, *events, *result]) + "\n"


def test_robbing_a_kong():
    (g,) = parse_games(_log(
        "Player 0 Draw J1", "Player 0 Play J1",
        "Player 1 Draw J2", "Player 1 Play W1",
        "Player 0 Peng W1", "Player 0 Play W9",
        "Player 1 Draw F1", "Player 1 Play F1",
        "Player 2 Draw W5", "Player 2 Play W5",
        "Player 3 Draw W6", "Player 3 Play W6",
        "Player 0 Draw W1", "Player 0 BuGang W1",
        "Player 2 Hu W1",
    ))
    (w,) = wins(g)
    assert w.robbing_kong and not w.self_drawn and w.discarder == 0 and not w.kong_replacement
    assert w.win_tile == 0 and w.win_tile_shown == 3 and w.last_copy
    final = list(replay(g))[-1]
    assert final.melds[0] == (RecordMeld("pung", 0, False),)  # the robbed kong reverts
    assert final.concealed[2].sum() == 14 and final.visible[1][0] == 3


KONG_DEAL_0 = "Player 0 Deal W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2"
NO_W1_DEAL_1 = "Player 1 Deal W9 B4 B5 B6 B7 B8 B9 T1 T2 T3 T4 T5 T6"


@pytest.mark.parametrize("concealed, deal_1, kong", [
    (True, NO_W1_DEAL_1, ["Player 0 Draw W1", "Player 0 AnGang W1"]),
    (False, DEALS[1], ["Player 0 Draw J1", "Player 0 Play J1",
                       "Player 1 Draw J2", "Player 1 Play W1", "Player 0 Gang W1"]),
])
def test_win_on_kong_replacement(concealed, deal_1, kong):
    (g,) = parse_games(_log(
        *kong, "Player 0 Draw B3", "Player 0 Hu B3",
        result=("Fan 8 杠上开花*1", "Score 48 -16 -16 -16"),
        deals=[KONG_DEAL_0, deal_1, *DEALS[2:]],
    ))
    (w,) = wins(g)
    assert w.kong_replacement and w.self_drawn and not w.robbing_kong
    assert w.melds == (RecordMeld("kong", 0, concealed),)
    assert int(w.concealed.sum()) == 10
    after_kong = list(replay(g))[len(kong) - 1]
    assert [after_kong.visible[q][0] for q in (1, 2, 3)] == ([0] * 3 if concealed else [4] * 3)


def _full_wall_log(ending):
    """Every seat draws its 21 tiles and discards them at once (seed-fixed wall)."""
    rng = np.random.default_rng(7)
    tiles = rng.permutation(np.repeat(np.arange(34), 4))
    walls = [list(tiles[34 * p : 34 * p + 34]) for p in range(4)]
    lines = ["Match fullwall", "Wind 0"]
    lines += [f"Player {p} Deal " + " ".join(botzone_code(t) for t in walls[p][:13]) for p in range(4)]
    last = None
    for r in range(21):
        for p in range(4):
            last = botzone_code(walls[p][13 + r])
            lines.append(f"Player {p} Draw {last}")
            if (r, p) != (20, 3):
                lines.append(f"Player {p} Play {last}")
    return "\n".join(lines + [s.replace("LAST", last) for s in ending]) + "\n"


def test_last_tile_of_the_wall():
    self_draw = parse_games(_full_wall_log(["Player 3 Hu LAST", "Fan 8 妙手回春*1", "Score -16 -16 -16 48"]))[0]
    (w,) = wins(self_draw)
    assert w.wall_last is True and w.wall_remaining == (0, 0, 0, 0) and w.self_drawn

    on_discard = parse_games(_full_wall_log(
        ["Player 3 Play LAST", "Player 0 Hu LAST", "Fan 8 海底捞月*1", "Score 32 -8 -8 -16"]))[0]
    (w,) = wins(on_discard)
    assert w.wall_last is True and w.discarder == 3

    (g,) = parse_games(_full_wall_log(["Player 3 Play LAST", "Huang"]))
    assert g.drawn and wins(g) == [] and list(replay(g))[-1].draws == (21, 21, 21, 21)

    too_long = _full_wall_log(["Player 3 Play LAST", "Player 0 Draw W1", "Huang"])
    with pytest.raises(InvalidHandError, match="more than 84 draws"):
        _replay_all(too_long)

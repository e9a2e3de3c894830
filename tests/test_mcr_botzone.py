"""The ruleset ``mcr_botzone`` (Chinese Official in Botzone's / IJCAI's duplicate format,
docs/rules/mcr_botzone.md) and the engine's one-wall-per-seat rule (``WallEnd.per_seat``).

Expected values come from the competition's rules, worked out by hand: a seat's wall
is the quarter of its seat wind (East's first), taken from its end; the hand ends when
the seat to draw next has an empty wall; 妙手回春 / 海底捞月 are the draw / the discard
after which the next seat's wall is empty.  The fan totals of the scripted wins are
summed by hand from the Chinese Official table and checked against PyMahjongGB (the fan
library behind Botzone's judge) where it is installed.
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from majiang import rules
from majiang.errors import RuleError
from majiang.records import example_games
from majiang.game.engine import fast_eligible, play_hand
from majiang.rules.base import Ruleset
from majiang.rules.model import game_model
from majiang.rules.table_rules import WallEnd

RS = rules.get("mcr_botzone")
WALL = 34                      # tiles per seat wall
DRAWS = WALL - 13              # tiles a seat draws when it makes no kong


def kinds(text: str) -> list[int]:
    """'234m79p' -> kind indices (m 0.., p 9.., s 18.., z 27..)."""
    out, digits = [], []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
        else:
            base = {"m": 0, "p": 9, "s": 18, "z": 27}[ch]
            out += [base + d - 1 for d in digits]
            digits = []
    return out


def seat_walls(received: dict[int, list[int]]) -> np.ndarray:
    """A 136-tile wall in which seat wind ``w`` receives ``received[w]`` first (its
    deal, then its draws in order); the rest of each quarter is filled from the unused
    tiles in kind order.  Seat wind w's quarter is wall[34w:34w+34], taken from its end."""
    pool = Counter({k: 4 for k in range(34)})
    for tiles in received.values():
        pool.subtract(tiles)
    assert min(pool.values()) >= 0
    rest = [k for k in range(34) for _ in range(pool[k])]
    wall = []
    for w in range(4):
        seq = list(received.get(w, []))
        while len(seq) < WALL:
            seq.append(rest.pop(0))
        assert len(seq) == WALL
        wall += seq[::-1]                 # taken from the end
    return np.array(wall, dtype=np.int16)


class Scripted:
    """Discards the tile just drawn, never calls, wins when it can, declares a concealed
    kong when offered; keeps every option it was offered."""

    def __init__(self):
        self.offered = []

    def discard(self, view):
        return int(view.drawn) if view.drawn is not None else int(np.flatnonzero(view.hand)[-1])

    def claim(self, view, options):
        self.offered.append(list(options))
        return ("win",) if ("win",) in options else None

    def declare(self, view, options):
        if ("win",) in options:
            return ("win",)
        kongs = [o for o in options if o[0] == "concealed_kong"]
        return kongs[0] if kongs else None


# dead 13-tile hands: no tile completes them in any form
JUNK = {0: kinds("147m147p147s1234z"), 1: kinds("258m258p258s567z"),
        2: kinds("369m369p369s234z"), 3: kinds("147m147p147s1234z")}
READY = kinds("234m345p678s22s79p")          # waits on 8p only (坎张)
EIGHT_P = kinds("8p")[0]


def _play(received, dealer=0, log=True):
    pols = [Scripted() for _ in range(4)]
    st = play_hand("mcr_botzone", pols, wall=seat_walls(received), dealer=dealer,
                   prevalent_wind=0, log=log)
    assert (st.census() == st.expected_census()).all()
    assert sum(st.deltas) == 0
    return st, pols


# ------------------------------------------------------------------ the ruleset
def test_ruleset_facts():
    assert "mcr_botzone" in rules.available()
    assert RS.n_tiles == 136 and RS.n_flowers == 0
    assert RS.wall_end.per_seat and not rules.get("mcr").wall_end.per_seat
    ids = {f.id for f in RS.fans}
    assert 81 not in ids and 82 in ids               # no 花牌; 明暗杠 as Botzone's judge
    assert {f.id for f in rules.get("mcr").fans} - ids == {81}
    assert RS.min_fan == 8 and RS.winners == "head_bump"
    off = rules.BUILDERS["mcr_botzone"](concealed_and_melded_kong=False)
    assert {f.id for f in off.fans} == ids - {82} and off.wall_end.per_seat


def test_house_rules_file_keeps_the_per_seat_walls():
    back = rules.loads(rules.dumps(RS))
    assert back.wall_end.per_seat and back.tile_set == "136"
    assert {f.id for f in back.fans} == {f.id for f in RS.fans}


def test_rules_command_prints_it(capsys):
    from majiang.cli import main
    assert main(["rules", "mcr_botzone"]) == 0
    out = capsys.readouterr().out
    assert "mcr_botzone" in out and "four walls of 34" in out and "136" in out


def test_per_seat_wall_rule_is_checked():
    with pytest.raises(RuleError, match="keeps no tiles back"):
        WallEnd(kept=14, per_seat=True)
    mcr = rules.get("mcr")                           # 144 tiles: flowers
    with pytest.raises(RuleError, match="one wall per seat"):
        Ruleset(**{**{f: getattr(mcr, f) for f in mcr.__dataclass_fields__},
                   "name": "x", "wall_end": WallEnd(per_seat=True)})


# ------------------------------------------------------------------ engine routing
def test_compiled_loop_refuses_per_seat_walls_and_auto_routes_to_python():
    model = game_model(RS)
    assert not fast_eligible(model, ["efficiency"] * 4)
    assert fast_eligible(game_model(rules.get("mcr")), ["efficiency"] * 4)
    st = play_hand("mcr_botzone", seed=3)             # engine="auto"
    assert type(st).__name__ == "HandState"
    with pytest.raises(RuleError, match="wall per seat"):
        play_hand("mcr_botzone", seed=3, engine="compiled")


# ------------------------------------------------------------------ own walls
@pytest.mark.parametrize("hand", range(12))
def test_each_seat_takes_only_its_own_wall_in_order(hand):
    st = play_hand("mcr_botzone", ["efficiency", "random", "efficiency", "random"],
                   seed=11, hand=hand, log=True)
    wall = np.asarray(st.wall)
    deal = next(e for e in st.events if e["e"] == "deal")["hands"]
    for p in range(4):
        w = (p - st.dealer) % 4
        seq = [int(x) for x in wall[34 * w:34 * w + 34][::-1]]
        k = 14 if p == st.dealer else 13
        assert sorted(deal[p]) == sorted(seq[:k])
        draws = [e["tile"] for e in st.events if e["e"] == "draw" and e["seat"] == p]
        assert draws == seq[k:k + len(draws)]
    assert st.wall_left == sum(34 - (14 if p == st.dealer else 13) - st.seats[p].n_drawn
                               for p in range(4))


def test_kong_replacement_comes_from_the_own_wall():
    # seat 1 (South) holds four 5m: it declares the concealed kong on its first turn and
    # its replacement is the next tile of its own wall (here 9s, its 2nd received draw)
    south = kinds("5555m258p258s567z") + kinds("1z9s")
    st, _ = _play({0: JUNK[0] + kinds("9m"), 1: south, 2: JUNK[2], 3: JUNK[3]})
    ev = [e for e in st.events if e["e"] in ("draw", "kong") and e["seat"] == 1]
    assert ev[0] == {"e": "draw", "seat": 1, "tile": kinds("1z")[0], "tail": False}
    assert ev[1]["e"] == "kong" and ev[1]["kind"] == "concealed"
    assert ev[2] == {"e": "draw", "seat": 1, "tile": kinds("9s")[0], "tail": True}


# ------------------------------------------------------------------ the wall end
def test_drawn_hand_when_the_next_seats_wall_is_empty_and_no_call_on_the_last_discard():
    # no kong: every seat takes its whole wall; the last draw is North's 21st, and its
    # discard (5m) may not be punged by South, who holds a pair of 5m
    south = kinds("2558m258p258s567z")
    fillers = kinds("1m1m9m9m1s1s9s9s5z5z6z6z7z7z3m3m6m6m7s7s")        # no 5m
    received = {0: JUNK[0], 1: south, 2: JUNK[2], 3: JUNK[3] + fillers + kinds("5m")}
    st, pols = _play(received)
    assert st.end_reason == "wall" and not st.wins and st.wall_left == 0
    assert [s.n_drawn for s in st.seats] == [DRAWS - 1, DRAWS, DRAWS, DRAWS]
    discards = [e for e in st.events if e["e"] == "discard"]
    assert discards[-1] == {"e": "discard", "seat": 3, "tile": kinds("5m")[0]}
    last = max(i for i, e in enumerate(st.events) if e["e"] == "discard")
    assert not any(e["e"] in ("claim", "call") for e in st.events[last:])
    # earlier 5m discards were offered to South as a pung (the rule is only at the end)
    assert any(("pung",) in o for o in pols[1].offered)


def test_a_kong_shortens_the_own_wall_and_ends_the_hand_a_turn_earlier():
    # South kongs on its first turn: its wall is empty after its 20th turn; the hand ends
    # after East's 21st turn (East's discard is the last), West and North keep one tile
    south = kinds("5555m258p258s567z")
    st, _ = _play({0: JUNK[0], 1: south, 2: JUNK[2], 3: JUNK[3]})
    assert st.end_reason == "wall" and not st.wins
    assert st.seats[1].n_kongs_concealed == 1
    assert [s.n_drawn for s in st.seats] == [DRAWS - 1, DRAWS, DRAWS - 1, DRAWS - 1]
    assert st.wall_left == 2
    assert [e for e in st.events if e["e"] == "discard"][-1]["seat"] == 0


# ------------------------------------------------------------------ 妙手回春 / 海底捞月
def _pymahjonggb_total(hand, win, self_drawn, seat_wind):
    mgb = pytest.importorskip("MahjongGB")
    code = {}
    for k in range(34):
        code[k] = ("W%d" % (k + 1) if k < 9 else "B%d" % (k - 8) if k < 18 else
                   "T%d" % (k - 17) if k < 27 else "F%d" % (k - 26) if k < 31 else
                   {31: "J3", 32: "J2", 33: "J1"}[k])
    fans = mgb.MahjongFanCalculator(pack=(), hand=tuple(code[k] for k in hand),
                                    winTile=code[win], flowerCount=0, isSelfDrawn=self_drawn,
                                    is4thTile=False, isAboutKong=False, isWallLast=True,
                                    seatWind=seat_wind, prevalentWind=0)
    return sum(p for p, _ in fans), {n for _, n in fans}        # (fan points, name)


def test_last_tile_draw_is_the_draw_before_an_empty_next_wall():
    # North (seat 3) is ready on 8p (234m 345p 678s 22s 79p) and draws 8p as its 21st
    # tile: East's wall is then empty, so it is 妙手回春 (8) + 不求人 4 + 平和 2 + 坎张 1 = 15.
    # Without 妙手回春 the hand has 7 fan and cannot win; earlier draws of other seats'
    # own last tiles (East's 20th draw empties East's wall) are not 妙手回春.
    seq3 = READY + [k for k in kinds("1m1m9m9m1s1s9s9s5z5z6z6z7z7z3m3m6m6m7s7s")] + [EIGHT_P]
    assert len(seq3) == 34
    st, _ = _play({0: JUNK[0], 1: JUNK[1], 2: JUNK[2], 3: seq3})
    (w,) = st.wins
    assert w["seat"] == 3 and w["how"] == "self_draw" and w["tile"] == EIGHT_P
    assert dict(w["fans"]) == {"妙手回春": 1, "不求人": 1, "平和": 1, "坎张": 1}
    assert w["total"] == 8 + 4 + 2 + 1
    assert st.deltas == [-(8 + 15)] * 3 + [3 * (8 + 15)]
    total, names = _pymahjonggb_total(READY, EIGHT_P, True, 3)
    assert total == 15 and "妙手回春" in names


def test_last_tile_claim_is_a_win_on_the_discard_before_an_empty_next_wall():
    # East (dealer) is ready on 8p; North draws 8p as its 21st tile and discards it, East's
    # wall being empty: East wins 海底捞月 8 + 门前清 2 + 平和 2 + 坎张 1 = 13.
    seq3 = JUNK[3] + kinds("1m1m9m9m1s1s9s9s5z5z6z6z7z7z3m3m6m6m7s7s") + [EIGHT_P]
    st, _ = _play({0: READY + kinds("4z"), 1: JUNK[1], 2: JUNK[2], 3: seq3})
    (w,) = st.wins
    assert w["seat"] == 0 and w["how"] == "discard" and w["tile"] == EIGHT_P
    assert dict(w["fans"]) == {"海底捞月": 1, "门前清": 1, "平和": 1, "坎张": 1}
    assert w["total"] == 8 + 2 + 2 + 1
    assert st.deltas == [3 * 8 + 13, -8, -8, -(8 + 13)]
    total, names = _pymahjonggb_total(READY, EIGHT_P, False, 0)
    assert total == 13 and "海底捞月" in names


# ------------------------------------------------------------------ many hands
def _run(n, seed, players):
    ends = Counter()
    for h in range(n):
        st = play_hand("mcr_botzone", players, seed=seed, hand=h)
        assert (st.census() == st.expected_census()).all()
        assert sum(st.deltas) == 0
        assert all(s.n_drawn <= DRAWS + s.n_kongs_exposed + s.n_kongs_concealed
                   for s in st.seats)
        if st.end_reason == "wall":      # drawn: some seat had to draw from an empty wall
            assert any(nx < lo for nx, lo in zip(st.seat_next, st.seat_low))
        ends[st.end_reason] += 1
    return ends


def test_engine_plays_300_hands_conserving_tiles_and_zero_sum():
    ends = _run(240, 5, ["efficiency"] * 4) + _run(60, 6, ["random", "efficiency"] * 2)
    assert sum(ends.values()) == 300 and ends["win"] > 0 and ends["wall"] > 0


@pytest.mark.slow
def test_engine_plays_3000_hands_conserving_tiles_and_zero_sum():
    ends = _run(3000, 7, ["efficiency"] * 4)
    assert sum(ends.values()) == 3000


# ------------------------------------------------------------------ the Botzone games
class Follow:
    """Plays one seat of a Botzone record: the recorded draws are checked against the
    engine's, the recorded moves are made (one cursor shared by the four seats)."""

    def __init__(self, seat, events, cursor):
        self.seat, self.events, self.cursor = seat, events, cursor

    def _next(self, view=None):
        ev = self.events[self.cursor[0]]
        if ev.action == "Draw" and view is not None and ev.player == self.seat:
            assert view.drawn == ev.tile, (ev, view.drawn)
            self.cursor[0] += 1
            ev = self.events[self.cursor[0]]
        return ev

    def _take(self):
        self.cursor[0] += 1

    def declare(self, view, options):
        ev = self._next(view)
        assert ev.player == self.seat
        want = {"Hu": ("win",), "AnGang": ("concealed_kong", ev.tile),
                "BuGang": ("added_kong", ev.tile)}.get(ev.action)
        if want is None:
            return None
        assert want in options, (ev, options)
        self._take()
        return want

    def discard(self, view):
        ev = self._next(view)
        assert (ev.player, ev.action) == (self.seat, "Play"), ev
        self._take()
        return ev.tile

    def claim(self, view, options):
        ev = self._next()
        if ev.player != self.seat:
            return None
        want = {"Hu": ("win",), "Peng": ("pung",), "Gang": ("kong",),
                "Chi": ("chow", ev.tile - 1)}.get(ev.action)
        if want is None:
            return None
        assert want in options, (ev, options)
        self._take()
        return want


@pytest.mark.parametrize("g", example_games(), ids=lambda g: g.match_id[-6:])
def test_botzone_games_replay_move_for_move_with_their_walls(g):
    """Each shipped game, its walls rebuilt from the deals and draws it records (seat
    wind w takes deal + draws in order from its own wall), plays move for move in the
    engine under mcr_botzone and ends with the recorded win, fans and scores."""
    received = {p: list(g.deals[p]) for p in range(4)}
    for ev in g.events:
        if ev.action == "Draw":
            received[ev.player].append(ev.tile)
    assert all(len(r) <= WALL for r in received.values())
    cursor = [0]
    pols = [Follow(p, g.events, cursor) for p in range(4)]
    st = play_hand("mcr_botzone", pols, wall=seat_walls(received), dealer=0,
                   prevalent_wind=g.prevalent_wind)
    assert cursor[0] == len(g.events)                 # every recorded move was made
    assert [s.n_drawn for s in st.seats] == [len(received[p]) - 13 - (p == 0)
                                            for p in range(4)]
    (w,) = st.wins
    recorded = Counter()
    for name, count in g.fans:
        recorded[RS.fan(name).chinese] += count
    assert dict(w["fans"]) == dict(recorded)
    assert w["total"] == g.fan_total and tuple(st.deltas) == tuple(g.scores)


def test_simulated_hands_written_as_botzone_records_fit_the_records_wall_model():
    """Hands played under mcr_botzone, written as Botzone records, replay in the record
    reader (no seat draws more than its wall) and every win, last tiles included (the
    reader derives 海底捞月 / 妙手回春 from the duplicate walls), rescores as written."""
    from majiang import records, simulate
    from majiang.game import write_botzone
    from majiang.review import score_win
    games = records.parse_games(write_botzone(simulate("mcr_botzone", 24, seed=3, logs=True)))
    assert len(games) == 24
    n = 0
    for g in games:
        for _ in records.replay(g):
            pass
        for w in records.wins(g):
            r = score_win(w)
            assert {f.chinese: f.count for f in r.fans} == dict(w.fans)
            n += 1
    assert n >= 12


@pytest.mark.parametrize("case", ["self_draw", "discard"])
def test_scripted_last_tile_wins_read_back_from_their_botzone_record(case):
    from majiang import records
    from majiang.game.logs import botzone_text
    fillers = kinds("1m1m9m9m1s1s9s9s5z5z6z6z7z7z3m3m6m6m7s7s")
    if case == "self_draw":
        received = {0: JUNK[0], 1: JUNK[1], 2: JUNK[2], 3: READY + fillers + [EIGHT_P]}
        fan = "妙手回春"
    else:
        received = {0: READY + kinds("4z"), 1: JUNK[1], 2: JUNK[2],
                    3: JUNK[3] + fillers + [EIGHT_P]}
        fan = "海底捞月"
    st, _ = _play(received)
    (g,) = records.parse_games(botzone_text(st.events))
    (w,) = records.wins(g)
    assert w.wall_last is True and dict(w.fans)[fan] == 1

"""长沙 起手胡 and 扎鸟 (majiang.rules.changsha, docs/rules/changsha.md §3-4): the patterns,
the bird seats, the payments on scripted walls (hand-checked from the rules) and the
engine's conservation and zero-sum over a few hundred hands."""
from __future__ import annotations

import pytest

from majiang.errors import RuleError
from majiang.game.engine import play_hand
from majiang.rules import changsha as C
from majiang.tiles import parse_tiles

from _engine_helpers import by_check as _by_check
from _engine_helpers import check_settlement
from _engine_helpers import end_table as _table


def _counts(text: str) -> list[int]:
    c = [0] * 34
    for k in parse_tiles(text):
        c[int(k)] += 1
    return c


# -- the patterns --------------------------------------------------------------------


@pytest.mark.parametrize("hand,want", [
    ("1111m234p567s288s", ("四喜",)),                  # four 1m
    ("1133669m1139p13s", ("板板胡",)),                  # no 2, 5 or 8 anywhere
    ("123456789m1234p", ("缺一色",)),                   # no 条
    ("222m555p1237899s", ("六六顺",)),                  # two triplets
    ("1111m3333p13669s", ("四喜", "板板胡", "六六顺")),   # a four is also a triplet
    ("1113m3339p16679s", ("板板胡", "六六顺")),
    ("123m456p789s234s55s", ()),
])
def test_start_of_hand_patterns(hand, want):
    assert C.start_of_hand_wins(_counts(hand)) == want
    assert C.start_of_hand_wins(dict(enumerate(_counts(hand)))) == want


def test_hefei_names_the_same_patterns():
    from majiang.rules.hefei import start_of_hand_wins as hefei
    assert hefei("1113m3339p16679s") == ("无将和", "六顺")


# -- the bird seats ------------------------------------------------------------------


def test_bird_seats_count_from_the_anchor():
    # ranks 1/5/9 the anchor, 2/6 the next seat, 3/7 across, 4/8 the seat before
    one_m, two_p, three_s, four_m, five_s, eight_p, nine_m = 0, 10, 20, 3, 22, 16, 8
    assert C.bird_seats([one_m, five_s, nine_m], 2) == [0, 0, 3, 0]
    assert C.bird_seats([two_p], 3) == [1, 0, 0, 0]
    assert C.bird_seats([three_s], 1) == [0, 0, 0, 1]
    assert C.bird_seats([four_m, eight_p], 0) == [0, 0, 0, 2]


def test_birds_on_a_discard_win_from_the_table():
    # seat 1 wins 6 (a 大胡) on seat 3's discard; birds 5m (-> seat 1, the winner) and
    # 8s (rank 8 -> the winner's 上家, seat 0, not a payer): +1 only
    t = _table(winners=(1,), wins=((1, "discard", 3, 6, ()),), payments=((0, 6, 0, -6),),
               win_tiles=(5,), rest=(4, 25, 0, 0), start=())
    assert _by_check(C.end_settlement(C.build(), t)) == {"扎鸟": [(3, 1, 1)]}
    # x (1 + birds): 6 x 2 = 12, 6 more
    assert _by_check(C.end_settlement(C.build(bird_mode="times"), t)) == {"扎鸟": [(3, 1, 6)]}
    # four birds 5m 8s 1m 1m: three on the winner -> 6 x 2^3 = 48, 42 more
    assert _by_check(C.end_settlement(C.build(birds=4, bird_mode="double"), t)) == {
        "扎鸟": [(3, 1, 42)]}


def test_birds_on_a_last_tile_win_and_several_winners():
    # 海底: the wall is empty, the winning tile (3p, rank 3) is the one bird: across
    # from the self-drawing winner (seat 0) is seat 2, who pays 2 + 1
    t = _table(winners=(0,), wins=((0, "self_draw", None, 2, ()),),
               payments=((6, -2, -2, -2),), win_tiles=(11,), rest=(), start=())
    assert _by_check(C.end_settlement(C.build(), t)) == {"扎鸟": [(2, 0, 1)]}
    # two winners (seats 1 and 2) on seat 0's discard: count from the discarder; birds
    # 2m (-> seat 1) and 1s (-> seat 0, the payer of both): 1 winner bird + 1 payer bird
    # for seat 1's win, 0 + 1 for seat 2's
    t = _table(winners=(1, 2), wins=((1, "discard", 0, 1, ()), (2, "discard", 0, 6, ())),
               payments=((-1, 1, 0, 0), (-6, 0, 6, 0)), win_tiles=(7, 7), rest=(1, 18),
               start=())
    assert _by_check(C.end_settlement(C.build(), t)) == {"扎鸟": [(0, 1, 2), (0, 2, 1)]}


def test_no_birds_at_a_drawn_end_and_options():
    t = _table(end="wall", rest=(0, 0), start=())
    assert C.end_settlement(C.build(), t) == []
    # nobody claimed a 起手胡: no birds after a drawn hand, even with the 海底 tile known
    start = tuple(dict(enumerate(_counts(h))) for h in (_WIN,) + _OTHERS)
    t = _table(end="wall", rest=(), start=start, last_drawn=0)
    assert C.end_settlement(C.build(), t) == []
    assert C.build(start_wins=False, birds=0).end_settlement == ""
    assert C.build(zhuanzhuan=True).end_settlement == ""      # 转转: a separate game
    for bad in (dict(birds=9), dict(birds=True), dict(bird_mode="x"), dict(start_wins=1),
                dict(start_win_birds=1)):
        with pytest.raises(RuleError):
            C.build(**bad)


# -- scripted walls ------------------------------------------------------------------

# the dealer (seat 0, hand 0) is dealt a winning 小胡 of 14 tiles with no 起手胡 pattern
# and wins it by self-draw on the first turn: 2 from each other player (§2)
_WIN = "123m456m789p234s55s"


def _wall(hands, birds=""):
    """Seats 0..3 dealt ``hands`` (seat 0: 14 tiles), then ``birds`` at the head of the
    live wall, then the rest of the 108 tiles."""
    pool = [k for k in range(27) for _ in range(4)]
    wall = []
    for text in list(hands) + [birds]:
        for k in parse_tiles(text):
            pool.remove(int(k))
            wall.append(int(k))
    return wall + pool


_OTHERS = ("1289m1245p14678s", "3467m12678p1356s", "1369m3459p23479s")


def test_scripted_hands_have_no_pattern_but_the_named_ones():
    assert [C.start_of_hand_wins(_counts(h)) for h in (_WIN,) + _OTHERS] == [()] * 4


@pytest.mark.parametrize("engine", ["compiled", "python"])
@pytest.mark.parametrize("mode,want", [
    # birds 1m (rank 1: the winner) and 4p (rank 4: the winner's 上家, seat 3)
    ("add", [10, -3, -3, -4]),        # each pays 2 + 1 (winner's bird); seat 3 + 1 more
    ("times", [14, -4, -4, -6]),      # 2 x (1 + 1); seat 3: 2 x (1 + 2)
    ("double", [16, -4, -4, -8]),     # 2 x 2^1; seat 3: 2 x 2^2
])
def test_birds_on_a_scripted_wall(engine, mode, want):
    rs = C.build(start_wins=False, bird_mode=mode)
    st = play_hand(rs, ["efficiency"] * 4, wall=_wall((_WIN,) + _OTHERS, "1m4p"), hand=0,
                   engine=engine)
    assert [w["seat"] for w in st.wins] == [0] and st.wins[0]["deltas"] == [6, -2, -2, -2]
    assert list(st.deltas) == want


@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_start_of_hand_wins_on_a_scripted_wall(engine):
    # seat 1 holds four 1s (四喜); seat 2 has no 2/5/8 and no 条 (板板胡 + 缺一色);
    # seat 3 holds 777p 999p (六六顺): each pattern 2 from each of the other three
    others = ("1111s2356m234p68s", "1133679m113446p", "1249m777999p346s")
    assert [C.start_of_hand_wins(_counts(h)) for h in others] == [
        ("四喜",), ("板板胡", "缺一色"), ("六六顺",)]
    rs = C.build(birds=0)
    st = play_hand(rs, ["efficiency"] * 4, wall=_wall((_WIN,) + others), hand=0,
                   engine=engine)
    got = _by_check(st.end_checks)
    assert got["四喜"] == [(0, 1, 2), (2, 1, 2), (3, 1, 2)]
    assert got["板板胡"] == got["缺一色"] == [(0, 2, 2), (1, 2, 2), (3, 2, 2)]
    assert got["六六顺"] == [(0, 3, 2), (1, 3, 2), (2, 3, 2)]
    # the dealer's self-drawn 小胡 (2 each) and the start wins: seat 0 +6 - 8,
    # seat 1 -2 + 6 - 6, seat 2 -2 + 12 - 4, seat 3 -2 + 6 - 6
    assert list(st.deltas) == [-2, -2, 6, -2]


# -- the engine over many hands ------------------------------------------------------


def test_engine_conservation_and_zero_sum():
    rs = C.build(birds=4, bird_mode="times")
    seen = set()
    for i in range(150):
        for players in (["efficiency"] * 4, ["random"] * 4):
            st = play_hand(rs, players, seed=7, hand=i)
            seen.update(e["check"] for e in check_settlement(st))
    assert "扎鸟" in seen and seen & {"四喜", "板板胡", "缺一色", "六六顺"}


def test_both_loops_pay_the_same():
    for i in range(60):
        a = play_hand(C.CHANGSHA, ["efficiency"] * 4, seed=3, hand=i, engine="compiled")
        b = play_hand(C.CHANGSHA, ["efficiency"] * 4, seed=3, hand=i, engine="python")
        assert list(a.deltas) == list(b.deltas) and a.end_checks == b.end_checks


def test_replay_pays_the_same():
    from majiang.game.logs import replay, summarize
    rs = C.build(birds=4)
    for i in range(12):
        st = play_hand(rs, ["efficiency"] * 4, seed=11, hand=i, log=True)
        again = replay(st.events, ruleset=rs)
        assert summarize(again) == summarize(st)
        assert list(again.deltas) == list(st.deltas) and again.end_checks == st.end_checks


# -- birds and 起手胡 (docs/rules/changsha.md §4, CS) -----------------------------------
# seat 2 holds four 1s (四喜, 1 pattern) or no 2/5/8 and no 条 (板板胡 + 缺一色, 2)
_SIXI = "1111s2356m234p68s"
_TWO = "1133679m113446p"


def _start(seat2):
    return tuple(dict(enumerate(_counts(h))) for h in (_WIN, _OTHERS[0], seat2, _OTHERS[2]))


def test_birds_raise_the_start_of_hand_payments():
    # seat 1 wins 6 on seat 3's discard; birds 5m (rank 5: the winner, seat 1) and 8s
    # (rank 8: the winner's 上家, seat 0); seat 2's 四喜 is paid 2 by each other seat
    t = _table(winners=(1,), wins=((1, "discard", 3, 6, ()),), payments=((0, 6, 0, -6),),
               win_tiles=(5,), rest=(4, 25, 0, 0), start=_start(_SIXI))
    assert C.start_of_hand_wins(t.start[2]) == ("四喜",)
    got = _by_check(C.end_settlement(C.build(), t))
    assert got["四喜"] == [(0, 2, 2), (1, 2, 2), (3, 2, 2)]
    # the win: +1 (the winner's bird); the 四喜 payments: seat 0 (1 bird) and seat 1 (1
    # bird) pay 1 more each, seat 3 (none, nor on seat 2) nothing
    assert got["扎鸟"] == [(0, 2, 1), (1, 2, 1), (3, 1, 1)]
    # x (1 + birds): 2 x 2 = 4, 2 more each; the win 6 more
    assert _by_check(C.end_settlement(C.build(bird_mode="times"), t))["扎鸟"] == [
        (0, 2, 2), (1, 2, 2), (3, 1, 6)]
    # four birds 5m 8s 1m 1m: seat 1 holds 3, seat 0 holds 1; x 2^birds: the 四喜 of
    # seat 1 becomes 2 x 8 (14 more), of seat 0 2 x 2 (2 more)
    assert _by_check(C.end_settlement(C.build(birds=4, bird_mode="double"), t))["扎鸟"] == [
        (0, 2, 2), (1, 2, 14), (3, 1, 42)]
    # start_win_birds off (CS 起手鸟分): the birds raise the win alone
    assert _by_check(C.end_settlement(C.build(start_win_birds=False), t))["扎鸟"] == [
        (3, 1, 1)]


def test_birds_after_a_drawn_hand_with_a_start_of_hand_win():
    # the wall ran out; seat 2 claimed 板板胡 + 缺一色 (4 from each); the 海底 tile (the
    # last drawn) is the one bird, counted from the dealer (seat 0)
    t = _table(end="wall", rest=(), start=_start(_TWO), dealer=0, last_drawn=11)
    got = _by_check(C.end_settlement(C.build(), t))
    assert got["板板胡"] == got["缺一色"] == [(0, 2, 2), (1, 2, 2), (3, 2, 2)]
    # 3p: rank 3, across from the dealer: seat 2, the claimant: +1 from each payer
    assert got["扎鸟"] == [(0, 2, 1), (1, 2, 1), (3, 2, 1)]
    # x (1 + 1): each 4 more; x 2^1: the same
    for mode in ("times", "double"):
        assert _by_check(C.end_settlement(C.build(bird_mode=mode), t))["扎鸟"] == [
            (0, 2, 4), (1, 2, 4), (3, 2, 4)]
    # 2m: rank 2, the dealer's 下家 (seat 1): only seat 1's payment rises
    t2 = _table(end="wall", rest=(), start=_start(_TWO), dealer=0, last_drawn=1)
    assert _by_check(C.end_settlement(C.build(), t2))["扎鸟"] == [(1, 2, 1)]
    # counted from the dealer: with seat 3 dealing, 3p points at seat 1
    t3 = _table(end="wall", rest=(), start=_start(_TWO), dealer=3, last_drawn=11)
    assert _by_check(C.end_settlement(C.build(), t3))["扎鸟"] == [(1, 2, 1)]
    # off, or no birds: the 起手胡 alone
    for rs in (C.build(start_win_birds=False), C.build(birds=0)):
        assert "扎鸟" not in _by_check(C.end_settlement(rs, t))


def test_drawn_hands_turn_the_last_tile_drawn_in_both_loops():
    # the 海底 tile is read from the Python loop's log (its last draw), independently of
    # the loops' own record; each drawn hand with a 起手胡 pays the birds it points at
    seen = raised = 0
    for i in range(60):                # random players: mostly drawn hands
        st = play_hand(C.CHANGSHA, ["random"] * 4, seed=21, hand=i, log=True)
        if st.end_reason != "wall":
            continue
        start = [C.start_of_hand_wins(h) for h in
                 (dict(enumerate(x.tolist())) for x in st.start_hands)]
        if not any(start):
            assert "扎鸟" not in {e["check"] for e in st.end_checks}
            continue
        seen += 1
        last = [e["tile"] for e in st.events if e["e"] == "draw"][-1]
        seat = (st.dealer + last % 9) % 4           # rank r: (r - 1) places on
        want = []
        for p, names in enumerate(start):
            for q in range(4):
                if names and q != p and seat in (p, q):
                    want.append((q, p, 1))
        assert _by_check(st.end_checks).get("扎鸟", []) == sorted(want)
        raised += bool(want)
        fast = play_hand(C.CHANGSHA, ["random"] * 4, seed=21, hand=i, engine="compiled")
        assert fast.end_checks == st.end_checks and list(fast.deltas) == list(st.deltas)
    assert seen >= 5 and raised >= 5

"""广东推倒胡 跟庄 and 买马 (majiang.rules.guangdong, docs/rules/guangdong.md §1): the seats a
turned tile points at, the payments over a final table and on a scripted wall (hand-checked
from the rules), and the engine's conservation and zero-sum over a few hundred hands.
(The limit hands breaking the cap are tested in test_regional.)"""
from __future__ import annotations

import pytest

from majiang.errors import RuleError
from majiang.game.engine import play_hand
from majiang.rules import guangdong as G
from majiang.rules.table_rules import pointed_seats
from majiang.tiles import parse_tiles

from _engine_helpers import by_check as _by_check
from _engine_helpers import check_settlement
from _engine_helpers import end_table as _table


def _k(text: str) -> list[int]:
    return [int(k) for k in parse_tiles(text)]


def test_horse_seats_count_from_the_dealer():
    # 1/5/9/东/中 the dealer, 2/6/南/发 his 下家, 3/7/西/白 across, 4/8/北 his 上家
    assert pointed_seats(_k("159m1z7z"), 0) == [5, 0, 0, 0]
    assert pointed_seats(_k("26p2z6z"), 0) == [0, 4, 0, 0]
    assert pointed_seats(_k("37s3z5z"), 0) == [0, 0, 4, 0]
    assert pointed_seats(_k("48m4z"), 0) == [0, 0, 0, 3]
    # the dealer in seat 2: 中 is seat 2, 北 seat 1 (the dealer's 上家)
    assert pointed_seats(_k("7z4z"), 2) == [0, 1, 1, 0]


def test_follow_dealer_first_go_around():
    e = _k("1z")[0]
    # all four discarded 东 first (dealer 0): the dealer pays 1 to each of the three
    t = _table(end="wall", discards=((e, 3), (e, 5), (e,), (e, 7)))
    assert _by_check(G.end_settlement(G.build(), t)) == {"跟庄": [(0, 1, 1), (0, 2, 1),
                                                                 (0, 3, 1)]}
    # the second go-around copied too: still once (GF: the dealer's first discard only)
    t2 = _table(end="wall", discards=((e, 3), (e, 3), (e, 3), (e, 3)), dealer=1)
    assert _by_check(G.end_settlement(G.build(), t2)) == {"跟庄": [(1, 0, 1), (1, 2, 1),
                                                                  (1, 3, 1)]}
    # one seat broke it, or the option is off: nothing
    assert G.end_settlement(G.build(), _table(discards=((e,), (e,), (3,), (e,)))) == []
    assert G.end_settlement(G.build(follow_dealer=False), t) == []


def test_horses_on_a_self_drawn_win_from_the_table():
    # seat 2 self-draws 16 from each; horses 3p (across the dealer: seat 2), 7z 中 (the
    # dealer), 6z 发 (seat 1), 3z 西 (seat 2): two hits on the winner
    t = _table(winners=(2,), wins=((2, "self_draw", None, 16, ()),),
               payments=((-16, -16, 48, -16),), rest=tuple(_k("3p7z6z3z1m")))
    # add: 2 points a hit from each payer; times: one more win value a hit
    assert _by_check(G.end_settlement(G.build(follow_dealer=False, horses=4), t)) == {
        "买马": [(0, 2, 4), (1, 2, 4), (3, 2, 4)]}
    assert _by_check(G.end_settlement(G.build(follow_dealer=False, horses=4,
                                              horse_mode="times"), t)) == {
        "买马": [(0, 2, 32), (1, 2, 32), (3, 2, 32)]}
    # two horses: 3p hits, 中 does not
    assert _by_check(G.end_settlement(G.build(follow_dealer=False, horses=2), t)) == {
        "买马": [(0, 2, 2), (1, 2, 2), (3, 2, 2)]}


def test_horses_on_a_discard_win_several_winners_and_a_drawn_end():
    # seats 1 and 3 win on seat 0's discard (4 and 8); horses 2m (seat 1), 8s (seat 3),
    # 6z 发 (seat 1): the discarder pays 2 x 2 more to seat 1, 2 more to seat 3
    t = _table(winners=(1, 3), wins=((1, "discard", 0, 4, ()), (3, "discard", 0, 8, ())),
               payments=((-4, 4, 0, 0), (-8, 0, 0, 8)), rest=tuple(_k("2m8s6z")))
    assert _by_check(G.end_settlement(G.build(follow_dealer=False, horses=6), t)) == {
        "买马": [(0, 1, 4), (0, 3, 2)]}
    # no win, no horses; the wall has run out: no horse either
    assert G.end_settlement(G.build(follow_dealer=False, horses=8),
                            _table(end="wall", rest=tuple(_k("1m")))) == []
    t_empty = _table(winners=(1,), wins=((1, "self_draw", None, 4, ()),),
                     payments=((-4, 12, -4, -4),), rest=())
    assert G.end_settlement(G.build(follow_dealer=False, horses=8), t_empty) == []


def test_options():
    assert G.GUANGDONG.options["follow_dealer"] is True and G.GUANGDONG.options["horses"] == 0
    assert G.build(follow_dealer=False).end_settlement == ""
    assert G.build(follow_dealer=False, horses=2).end_settlement == "guangdong"
    for bad in (dict(horses=21), dict(horses=True), dict(horse_mode="double"),
                dict(follow_dealer=1)):
        with pytest.raises(RuleError):
            G.build(**bad)


# -- scripted walls ------------------------------------------------------------------

# the dealer (seat 0) is dealt a complete hand and wins it by self-draw on the first
# turn: 天胡, a limit hand, 2 x 2^6 = 128 from each other player
_WIN = "123m456m789p234s55s"
_OTHERS = ("1289m1245p14678s", "3467m12678p1356s", "1369m3459p23479s")


def _wall(hands, horses=""):
    """Seats 0..3 dealt ``hands`` (seat 0: 14 tiles), then ``horses`` at the head of the
    live wall, then the rest of the 136 tiles."""
    pool = [k for k in range(34) for _ in range(4)]
    wall = []
    for text in list(hands) + [horses]:
        for k in parse_tiles(text):
            pool.remove(int(k))
            wall.append(int(k))
    return wall + pool


@pytest.mark.parametrize("engine", ["compiled", "python"])
@pytest.mark.parametrize("mode,want", [
    # horses 5z... : 1m (the dealer = the winner: a hit), 2z 南 (seat 1), 7z 中 (a hit),
    # 4m (seat 3): two hits
    ("add", [384 + 12, -132, -132, -132]),      # 2 x 2 more from each
    ("times", [384 * 3, -384, -384, -384]),     # two more win values from each
])
def test_horses_on_a_scripted_wall(engine, mode, want):
    rs = G.build(horses=4, horse_mode=mode)
    st = play_hand(rs, ["efficiency"] * 4, wall=_wall((_WIN,) + _OTHERS, "1m2z7z4m"),
                   hand=0, engine=engine)
    assert [w["seat"] for w in st.wins] == [0] and st.wins[0]["deltas"] == [384, -128,
                                                                            -128, -128]
    assert list(st.deltas) == want


# -- the engine over many hands ------------------------------------------------------


def test_engine_conservation_and_zero_sum():
    rs = G.build(horses=4)
    seen = set()
    for i in range(150):
        for players in (["efficiency"] * 4, ["random"] * 4):
            st = play_hand(rs, players, seed=5, hand=i)
            for e in check_settlement(st):
                seen.add(e["check"])
                if e["check"] == "跟庄":
                    assert e["payer"] == st.dealer and e["amount"] == 1
    assert {"买马", "跟庄"} <= seen


def test_both_loops_pay_the_same():
    rs = G.build(horses=6, horse_mode="times")
    for i in range(60):
        a = play_hand(rs, ["efficiency"] * 4, seed=3, hand=i, engine="compiled")
        b = play_hand(rs, ["efficiency"] * 4, seed=3, hand=i, engine="python")
        assert list(a.deltas) == list(b.deltas) and a.end_checks == b.end_checks


def test_replay_pays_the_same():
    from majiang.game.logs import replay, summarize
    rs = G.build(horses=4)
    for i in range(12):
        st = play_hand(rs, ["efficiency"] * 4, seed=11, hand=i, log=True)
        again = replay(st.events, ruleset=rs)
        assert summarize(again) == summarize(st)
        assert list(again.deltas) == list(st.deltas) and again.end_checks == st.end_checks

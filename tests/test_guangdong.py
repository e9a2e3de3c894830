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
    t = _table(end="wall", opening=((e, 3), (e, 5), (e,), (e, 7)))
    assert _by_check(G.end_settlement(G.build(), t)) == {"跟庄": [(0, 1, 1), (0, 2, 1),
                                                                 (0, 3, 1)]}
    # the second go-around copied too: still once (GF: the dealer's first discard only)
    t2 = _table(end="wall", opening=((e, 3), (e, 3), (e, 3), (e, 3)), dealer=1)
    assert _by_check(G.end_settlement(G.build(), t2)) == {"跟庄": [(1, 0, 1), (1, 2, 1),
                                                                  (1, 3, 1)]}
    # one seat broke it, or the option is off: nothing
    assert G.end_settlement(G.build(), _table(opening=((e,), (e,), (3,), (e,)))) == []
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



def test_one_horse_counts_its_rank():
    # 一马全中 (GT "中到几就是几分"): only the first turned tile counts, wherever it points.
    # seat 2 self-draws 16 from each; the first horse 7m: 7 points more from each payer
    t = _table(winners=(2,), wins=((2, "self_draw", None, 16, ()),),
               payments=((-16, -16, 48, -16),), rest=tuple(_k("7m1m")))
    rs = G.build(follow_dealer=False, horses=1, horse_mode="one")
    assert _by_check(G.end_settlement(rs, t)) == {"买马": [(0, 2, 7), (1, 2, 7), (3, 2, 7)]}
    # an honour horse (西): 10 (our reading) from each; a discard win: the discarder only
    t2 = _table(winners=(1,), wins=((1, "discard", 3, 4, ()),), payments=((0, 4, 0, -4),),
                rest=tuple(_k("3z")))
    assert _by_check(G.end_settlement(rs, t2)) == {"买马": [(3, 1, 10)]}


def test_horse_follows_the_kong():
    # 马跟杠: seat 2 won by self-draw with an added kong of 5p (1 from each) and a direct
    # kong of 9s fed by seat 3 (3 from seat 3).  Horses 3p (seat 2) and 7s (seat 2): two
    # hits, so each payer pays 2 x 2 = 4 (买马) and 2 x what the kongs cost him: seats 0
    # and 1: 2 x 1 = 2; seat 3: 2 x (1 + 3) = 8
    t = _table(winners=(2,), wins=((2, "self_draw", None, 16, ()),),
               payments=((-16, -16, 48, -16),), rest=tuple(_k("3p7s")),
               kongs=((), (), ((_k("5p")[0], "added", None), (_k("9s")[0], "exposed", 3)), ()))
    got = _by_check(G.end_settlement(G.build(follow_dealer=False, horses=2, horse_kong=True),
                                     t))
    assert got == {"买马": [(0, 2, 4), (1, 2, 4), (3, 2, 4)],
                   "马跟杠": [(0, 2, 2), (1, 2, 2), (3, 2, 8)]}
    # no hit (horse 2m points at seat 1): neither
    t_miss = _table(winners=(2,), wins=t.wins, payments=t.payments, rest=tuple(_k("2m")),
                    kongs=t.kongs)
    assert G.end_settlement(G.build(follow_dealer=False, horses=1, horse_kong=True),
                            t_miss) == []


def test_horses_and_bonus_grow_with_the_dealer_streak():
    # 买马节节高: 2 horses + 2 per deal held; after 2 deals held, 6 horses.  Dealer 0 wins
    # by self-draw (each pays 16); horses 2m 3m 4m 6m 7m 1m: only the sixth (1m) points at
    # the dealer, so one hit, 2 points from each.  With 2 horses alone: no hit.
    t = _table(winners=(0,), wins=((0, "self_draw", None, 16, ()),),
               payments=((48, -16, -16, -16),), rest=tuple(_k("2m3m4m6m7m1m")))
    plain = G.build(follow_dealer=False, horses=2, dealer_streak=2)
    assert G.end_settlement(plain, t) == []
    grown = G.build(follow_dealer=False, horses=2, horse_streak=True, dealer_streak=2)
    assert _by_check(G.end_settlement(grown, t)) == {"买马": [(1, 0, 2), (2, 0, 2), (3, 0, 2)]}
    # 节节高: a winning dealer gets 2 x 2 = 4 more from each payer; not when another wins
    bonus = G.build(follow_dealer=False, streak_bonus=True, dealer_streak=2)
    assert bonus.end_settlement == "guangdong"
    assert _by_check(G.end_settlement(bonus, t)) == {"节节高": [(1, 0, 4), (2, 0, 4),
                                                                (3, 0, 4)]}
    t_other = _table(winners=(1,), wins=((1, "discard", 0, 4, ()),), payments=((-4, 4, 0, 0),))
    assert G.end_settlement(bonus, t_other) == []
    # the first deal (no streak): no bonus
    assert G.end_settlement(G.build(follow_dealer=False, streak_bonus=True), t) == []


def test_new_options_are_checked():
    for bad in (dict(horse_kong=1), dict(horse_streak="yes"), dict(streak_bonus=None),
                dict(full_pay="on"),
                dict(dealer_streak=-1), dict(dealer_streak=True), dict(horse_mode="all")):
        with pytest.raises(RuleError):
            G.build(**bad)
    from majiang import rules
    rs = G.build(horses=1, horse_mode="one", horse_kong=True, dealer_streak=3,
                 streak_bonus=True, horse_streak=True)
    back = rules.loads(rules.dumps(rs))
    assert dict(back.options) == dict(rs.options)


@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_engine_pays_one_horse_and_the_bonus(engine):
    # the scripted 天胡 below (dealer 0, 128 from each), 一马全中 on 4m (4 from each) and
    # 节节高 after one deal held (2 x 1 = 2 from each): 128 + 4 + 2 = 134 from each
    rs = G.build(horses=1, horse_mode="one", streak_bonus=True, dealer_streak=1)
    st = play_hand(rs, ["efficiency"] * 4, wall=_wall((_WIN,) + _OTHERS, "4m"), hand=0,
                   engine=engine)
    assert list(st.deltas) == [3 * 134, -134, -134, -134]
    check_settlement(st)



def test_full_pay_on_a_robbed_kong_and_a_kong_burst():
    # 抢杠全包: seat 1 robs seat 3's added kong, worth 8 from the robbed seat: the robbed
    # seat pays the other two non-winners' shares as well, 2 x 8 = 16 more
    t = _table(winners=(1,), wins=((1, "robbing_kong", 3, 8, ()),), payments=((0, 8, 0, -8),))
    rs = G.build(follow_dealer=False, full_pay=True)
    assert rs.end_settlement == "guangdong"
    assert _by_check(G.end_settlement(rs, t)) == {"抢杠全包": [(3, 1, 16)]}
    # 杠爆全包: seat 2 wins on the replacement of a kong of 9s made on seat 0's discard
    # (each paid 8): seat 0 pays back seats 1 and 3, so he alone pays the 24
    k9s = _k("9s")[0]
    t2 = _table(winners=(2,), wins=((2, "kong_replacement", None, 8, ()),),
                payments=((-8, -8, 24, -8),), kongs=((), (), ((k9s, "exposed", 0),), ()))
    assert _by_check(G.end_settlement(rs, t2)) == {"杠爆全包": [(0, 1, 8), (0, 3, 8)]}
    # a concealed kong's replacement (no feeder): each pays his own share
    t3 = _table(winners=(2,), wins=t2.wins, payments=t2.payments,
                kongs=((), (), ((k9s, "concealed", None),), ()))
    assert G.end_settlement(rs, t3) == []
    # off by default
    assert G.end_settlement(G.build(follow_dealer=False), t) == []


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


def test_engine_full_pay_conserves():
    # 全包 moves shares between payers: every hand stays zero-sum and its end payments add up
    rs = G.build(full_pay=True, follow_dealer=False)
    for i in range(120):
        for engine in ("compiled", "python"):
            check_settlement(play_hand(rs, ["efficiency"] * 4, seed=9, hand=i, engine=engine))


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


# -- 不带风 / 不带万 (GF OptBuDaiZiPai / OptBuDaiWan, docs/rules/guangdong.md §1 "Tiles") --------


@pytest.mark.parametrize("kw, tiles, absent", [
    (dict(), 136, ""),
    (dict(no_honors=True), 108, "1234567z"),                 # 136 - 7 honours x 4
    (dict(no_characters=True), 100, "123456789m"),           # 136 - 9 万 x 4
    (dict(no_honors=True, no_characters=True), 72, "123456789m1234567z"),   # 筒 条 x 36
])
def test_tile_set_options_make_the_wall(kw, tiles, absent):
    from majiang.rules.model import game_model
    rs = G.build(**kw)
    assert game_model(rs).n_tiles == tiles
    st = play_hand(rs, ["efficiency"] * 4, seed=2, hand=0, deal_only=True)
    assert len(st.wall) == tiles
    census = st.census()
    assert census.sum() == tiles
    assert all(census[k] == 0 for k in _k(absent)) if absent else True
    # 十三幺 needs 1m 9m and the honours: no winning form without them
    assert ("thirteen_orphans" in rs.forms) == (not kw)


def test_tile_set_options_refusals():
    for ghost in ("white", "red"):       # 白板 / 红中 jokers need the honours
        with pytest.raises(RuleError, match="no_honors"):
            G.build(no_honors=True, ghost=ghost)
    G.build(no_characters=True, ghost="white")           # 白板 is still in the 100 tiles
    G.build(no_honors=True, ghost="flip")                # the turned tile is suited
    for bad in (dict(no_honors=1), dict(no_characters="yes")):
        with pytest.raises(RuleError):
            G.build(**bad)
    from majiang import rules
    rs = G.build(no_honors=True, no_characters=True)
    assert dict(rules.loads(rules.dumps(rs)).options) == dict(rs.options)


def test_tile_outside_the_set_is_refused():
    import majiang
    from majiang.errors import InvalidHandError
    with pytest.raises(InvalidHandError, match="1m is not in the tile set"):
        majiang.shanten("123m456p789s1123s", ruleset=G.build(no_characters=True))
    with pytest.raises(InvalidHandError, match="is not in the tile set"):
        majiang.shanten("123p456p789s11s11z", ruleset=G.build(no_honors=True))
    # a 万-free hand one tile from a win (123p 456p 789s 11s + 23s): tenpai, 0
    assert majiang.shanten("123p456p789s1123s", ruleset=G.build(no_characters=True)) == 0


@pytest.mark.parametrize("kw", [dict(no_honors=True, horses=4),
                                dict(no_characters=True, ghost="flip"),
                                dict(no_honors=True, no_characters=True, ghost="flip")])
def test_simulate_smaller_tile_sets_both_loops(kw):
    import majiang
    rs = G.build(**kw)
    for logs in (False, True):               # the compiled loop, then the Python one
        df = majiang.simulate(rs, 30, seed=4, n_jobs=1, progress=False, logs=logs)
        assert len(df) == 30
        assert all(sum(d) == 0 for d in df["score_deltas"])
        assert (df["end"] == "win").any()
    for i in range(10):
        check_settlement(play_hand(rs, ["efficiency"] * 4, seed=6, hand=i, engine="python"))


# -- 四鬼胡 (four jokers win at once; docs/rules/guangdong.md §1 "Winning") -------------------


def test_four_ghosts_option():
    from majiang.rules.model import game_model
    assert game_model(G.build(ghost="white", four_ghosts=True)).jokers_to_win == 4
    assert game_model(G.build(ghost="flip", four_ghosts=True)).jokers_to_win == 4
    assert game_model(G.build(ghost="white")).jokers_to_win == 0
    with pytest.raises(RuleError, match="needs jokers"):
        G.build(four_ghosts=True)                    # no ghost, no jokers to hold
    for bad in (dict(four_ghosts=1), dict(ghost="white", special_wins="four_jokers"),
                dict(ghost="white", special_wins=["three_jokers"])):
        with pytest.raises(RuleError):
            G.build(**bad)
    from majiang import rules
    rs = G.build(ghost="red", four_ghosts=True)
    back = rules.loads(rules.dumps(rs))
    assert dict(back.options) == dict(rs.options) and game_model(back).jokers_to_win == 4


# 10 tiles no two of which make a set or a pair (1m 4m 7m 2p 5p 8p 3s 6s 9s 东), with 白板
# jokers (written *): only the jokers can win this hand
_JUNK = "147m258p369s1z"


def test_four_ghosts_shanten():
    import majiang
    rs = G.build(ghost="white", four_ghosts=True)
    plain = G.build(ghost="white")
    # each missing joker is one draw: 14 tiles holding four are complete (-1); 13 holding
    # three are ready (0: the fourth wins); 13 holding two need two more draws (1)
    assert majiang.shanten(_JUNK + "****", ruleset=rs) == -1
    assert majiang.shanten(_JUNK + "***", ruleset=rs) == 0
    assert majiang.shanten(_JUNK + "7z**", ruleset=rs) == 1
    # without the option the junk needs shapes: 3 jokers + 10 isolated tiles is far away
    assert majiang.shanten(_JUNK + "***", ruleset=plain) > 0
    # ready only by the fourth joker: the one 白板 left is the only useful draw
    assert majiang.ukeire(_JUNK + "***", ruleset=rs) == {"5z*": 1}


def test_four_ghosts_win_verdict():
    import majiang
    rs = G.build(ghost="white", four_ghosts=True)
    # drawing the fourth joker wins at once, whatever the other tiles
    assert majiang.check_win(_JUNK + "***", None, ruleset=rs, self_drawn=True,
                             win_is_joker=True).valid
    # holding four and self-drawing any tile wins too: a plain win, base 2 doubled once by
    # 自摸 = 4 (no limit hand, no 七对 on the shape-free reading)
    r = majiang.score("147m258p369s****", "7z", ruleset=rs, self_drawn=True)
    assert r.points == 4 and {f.chinese for f in r.fans} == {"推倒胡", "自摸", "四鬼胡"}
    # on another player's discard it is no win (四鬼胡 is a self-draw win)
    assert not majiang.check_win("147m258p369s****", "7z", ruleset=rs,
                                 self_drawn=False).valid
    # without the option: no win
    assert not majiang.check_win(_JUNK + "***", None, ruleset=G.build(ghost="white"),
                                 self_drawn=True, win_is_joker=True).valid


@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_four_ghosts_in_the_game(engine):
    # the dealer is dealt the four 白板 (jokers) and 10 junk tiles: he wins at once by
    # self-draw, a plain win (2 x 2 for 自摸) from each of the three others; without the
    # option he cannot win on the deal
    hands = (_JUNK + "5555z",) + _OTHERS
    rs = G.build(ghost="white", four_ghosts=True, follow_dealer=False)
    st = play_hand(rs, ["efficiency"] * 4, wall=_wall(hands), hand=0, engine=engine)
    assert [w["seat"] for w in st.wins] == [0] and st.turns <= 1
    assert list(st.deltas) == [12, -4, -4, -4]
    check_settlement(st)
    other = play_hand(G.build(ghost="white", follow_dealer=False), ["efficiency"] * 4,
                      wall=_wall(hands), hand=0, engine=engine)
    assert other.turns > 1
    # three jokers are not enough (the count is four, not 三金倒's three)
    three = play_hand(rs, ["efficiency"] * 4, wall=_wall((_JUNK + "4z555z",) + _OTHERS),
                      hand=0, engine=engine)
    assert three.turns > 1


def test_simulate_four_ghosts_both_loops():
    import majiang
    rs = G.build(ghost="flip", four_ghosts=True, horses=2)
    for logs in (False, True):
        df = majiang.simulate(rs, 30, seed=8, n_jobs=1, progress=False, logs=logs)
        assert len(df) == 30 and all(sum(d) == 0 for d in df["score_deltas"])


@pytest.mark.parametrize("T", [1, 2, 3])
def test_four_ghosts_win_probability_closed_form(T):
    # 10 junk tiles + three 白板 jokers: the shape is 3 away (no shape win within 3 draws),
    # so the hand wins within T self-draws exactly when the one 白板 left is among them:
    # 136 - 13 in hand = 123 unseen tiles, P = T / 123 (hypergeometric, one tile)
    from majiang import probability as P
    import majiang
    h = _JUNK + "***"
    assert majiang.shanten(h, ruleset=G.build(ghost="white")) == 3
    r = P.probabilities(h, T, ruleset=G.build(ghost="white", four_ghosts=True))
    assert r.p_win == pytest.approx(T / 123, abs=1e-12) and r.p_tenpai == 1.0
    assert P.probabilities(h, T, ruleset=G.build(ghost="white")).p_win == 0.0


# -- 翻双鬼 (ghost="flip2", GF OptFanGui2: the two kinds after the turned tile are wild) ------


def test_two_ghost_kinds_from_the_turned_tile():
    from majiang.rules.model import game_model
    m = game_model(G.build(ghost="flip2"))
    # next kind, then the one after: suits 9 -> 1 -> 2; 北 -> 东 -> 南; 中 -> 发 -> 白
    for ind, kinds in (("9m", "1m2m"), ("5p", "6p7p"), ("4z", "1z2z"), ("7z", "6z5z")):
        w = m.wall(ind)
        assert tuple(w.joker_kinds) == tuple(_k(kinds))
        assert w.jokers == 8 and w.size == 136 - 1          # the turned tile face up
    assert "翻双鬼" in " ".join(G.build(ghost="flip2").interpreted)
    assert not any("翻双鬼" in m for m in G.MISSING)


def test_two_ghost_kinds_win_and_shanten():
    import majiang
    two, one = G.build(ghost="flip2"), G.build(ghost="flip")
    # 123p 456p 789s + 5s 9s + 1m 2m, self-drawing 5s, turned 9m: with 1m and 2m wild,
    # 5s 5s + 1m make a pung and 9s + 2m the pair; with 1m alone wild 2m is a loose tile
    h = "123p456p789s59s12m"
    assert majiang.check_win(h, "5s", ruleset=two, indicator="9m", self_drawn=True).valid
    assert not majiang.check_win(h, "5s", ruleset=one, indicator="9m", self_drawn=True).valid
    # turned 1m: 2m 3m are wild and 1m is a plain tile: no win
    assert not majiang.check_win(h, "5s", ruleset=two, indicator="1m", self_drawn=True).valid
    # before the draw: ready (5s or 9s, or any joker) with two wild kinds, 1 away with one
    assert majiang.shanten(h, ruleset=two, indicator="9m") == 0
    assert majiang.shanten(h, ruleset=one, indicator="9m") == 1


def test_simulate_two_ghost_kinds():
    import majiang
    for kw in (dict(ghost="flip2"), dict(ghost="flip2", four_ghosts=True, no_characters=True)):
        rs = G.build(**kw)
        for logs in (False, True):
            df = majiang.simulate(rs, 30, seed=2, n_jobs=1, progress=False, logs=logs)
            assert len(df) == 30 and all(sum(d) == 0 for d in df["score_deltas"])
        for i in range(6):
            check_settlement(play_hand(rs, ["efficiency"] * 4, seed=7, hand=i))


# ----------------------------------------------------------------- 花鬼 (flowers as jokers)
FLOWERS4 = G.build(ghost="flowers", flower_ghosts=4)
FLOWERS8 = G.build(ghost="flowers")


def test_flower_ghosts_model():
    from majiang.rules.model import game_model
    for rs, n, tiles in ((FLOWERS4, 4, 140), (FLOWERS8, 8, 144)):
        m = game_model(rs)
        assert m.n_flowers == n and m.n_tiles == tiles
        assert rs.jokers.flowers and rs.jokers.kinds() == () and rs.jokers.total_copies == n
        assert m.wall().jokers == n and m.joker_kind() is None
        assert any("花鬼" in x for x in rs.interpreted)
    assert G.build().missing == ()
    with pytest.raises(RuleError):
        G.build(ghost="flowers", flower_ghosts=6)
    with pytest.raises(RuleError):
        G.build(ghost="flowers", no_honors=True)
    with pytest.raises(RuleError):
        FLOWERS8.jokers.kind()


def test_flower_ghosts_scoring_by_hand():
    import majiang
    # 123m 456p 789s 东东 4s + a flower (*), 6s discarded: the flower is 5s; 推倒胡 2, a
    # joker held so no 无鬼 doubling: 2, the discarder pays
    r = majiang.score("123m456p789s11z4s*", "6s", ruleset=FLOWERS4)
    assert r.points == 2 and "无鬼" not in r and r.settle(0, 1) == (2, -2, 0, 0)
    # self-drawn: x2 = 4 from each of three
    r = majiang.score("123m456p789s11z4s*", "6s", ruleset=FLOWERS4, self_drawn=True)
    assert r.points == 4 and r.settle(0) == (12, -4, -4, -4)
    # a natural 5s instead: 无鬼 doubles, 4 from the discarder
    r = majiang.score("123m456p789s11z45s", "6s", ruleset=FLOWERS4)
    assert r.points == 4 and "无鬼" in r


def test_flower_ghosts_shanten_and_ukeire():
    import majiang
    # 123m 456p 789s 东 南 + two flowers: ready; 东 (3 left), 南 (3 left) or a flower (the
    # flowers not held: 4 - 2 or 8 - 2) completes — any other draw leaves 东 南 X unpaired
    for rs, left in ((FLOWERS4, 2), (FLOWERS8, 6)):
        assert majiang.shanten("123m456p789s1z2z**", ruleset=rs) == 0
        assert majiang.ukeire("123m456p789s1z2z**", ruleset=rs) == {"1z": 3, "2z": 3,
                                                                    "*": left}
    t = majiang.discard_table("123m456p789s1z2z**3s", ruleset=FLOWERS4)
    row = t[t["discard"] == "3s"].iloc[0]
    assert row["shanten"] == 0 and row["ukeire_count"] == 3 + 3 + 2


def test_flower_ghosts_in_play():
    from majiang.game.engine.fast import fast_eligible
    from majiang.rules.model import game_model
    assert not fast_eligible(game_model(FLOWERS8), ("efficiency",) * 4, False)
    # the deal keeps the flowers in the hands: 13 tiles each, the dealer 14, none replaced
    st = play_hand(FLOWERS8, "efficiency", seed=5, hand=24, deal_only=True)
    assert [int(s.phys.sum()) + len(s.flowers) for s in st.seats] == [14, 13, 13, 13]
    # seed 5, hand 24: seat 0 self-draws a flower as its winning joker: 推倒胡 2 x 自摸 = 4
    # from each (a joker held: no 无鬼); its 暗杠 of 中 earlier is paid 2 by each at the win
    st = play_hand(FLOWERS8, "efficiency", seed=5, hand=24, log=True)
    (w,) = st.wins
    assert w["seat"] == 0 and w["tile"] >= 34 and w["how"] == "self_draw"
    assert dict(w["fans"]) == {"推倒胡": 1, "自摸": 1} and w["deltas"] == [12, -4, -4, -4]
    assert st.seats[0].melds[0]["kind"] == "kong" and st.seats[0].melds[0]["concealed"]
    assert st.deltas == [12 + 3 * 2, -6, -6, -6]
    assert not any(e["e"] in ("flower", "flowers") for e in st.events)   # never replaced
    assert any(e["e"] == "draw" and e["tile"] >= 34 for e in st.events)
    from majiang.game import replay, summarize, to_jsonl
    again = replay(to_jsonl(st.events), ruleset=FLOWERS8)
    assert summarize(again) == summarize(st)


@pytest.mark.parametrize("rs", [FLOWERS4, FLOWERS8])
def test_flower_ghosts_conservation(rs):
    held = 0
    for h in range(30):
        st = play_hand(rs, "random" if h % 2 else "efficiency", seed=6, hand=h)
        assert sum(st.deltas) == 0
        assert (st.census() == st.expected_census()).all()
        held += sum(len(s.flowers) for s in st.seats)
        for w in st.wins:
            jokers = len(st.seats[w["seat"]].flowers)
            assert ("无鬼" in dict(w["fans"])) == (jokers == 0)
    assert held > 0


class _Recorder:
    """A policy that records the options it is offered and passes (declares nothing)."""

    def __init__(self):
        self.seen = []

    def claim(self, view, options):
        self.seen.append(list(options))
        return None

    def declare(self, view, options):
        self.seen.append(list(options))
        return None

    def discard(self, view):
        return int(view.legal_discards[0])


def test_flower_ghosts_never_left_without_a_discard():
    import numpy as np
    from majiang.game.engine import HandState, _Game
    from majiang.game.players import SeatView
    pols = [_Recorder() for _ in range(4)]
    st = HandState(FLOWERS8, pols, seed=1)
    g = _Game(st, pols, [SeatView(st, p) for p in range(4)])
    g.deal()
    s = st.seats[1]
    # seat 1: three pungs out, concealed 5m 5m and two flower jokers (3n+1 = 4 tiles)
    s.phys[:] = 0
    s.phys[4] = 2
    s.flowers[:] = [34, 35]
    s.melds[:] = [{"kind": "pung", "tile": t, "concealed": False, "tiles": [t] * 3, "frm": 0}
                  for t in (0, 9, 18)]
    st._melds_changed(1)
    # a discarded 5m: 5m 5m 5m + the two flowers as a pair win — or a pung, which would
    # leave only the flower jokers (never discarded): the pung is not offered
    for p in (0, 2, 3):          # (the other seats out of the way: no tiles to claim with)
        st.seats[p].phys[:] = 0
        st.seats[p].flowers[:] = []
    pols[1].seen.clear()
    g.claim_round(0, 4)
    assert pols[1].seen == [[("win",)]]
    # its own turn with nothing but flower jokers: four melds out and one flower held,
    # drawing another flower makes a pair of jokers, complete — the win is taken without
    # asking (it could discard nothing)
    s.phys[:] = 0
    s.flowers[:] = [34]
    s.melds.append({"kind": "pung", "tile": 27, "concealed": False, "tiles": [27] * 3,
                    "frm": 0})
    st._melds_changed(1)
    st.wall[st.head] = 36
    t = st.draw(1)
    assert t == 36 and not s.phys.any()
    pols[1].seen.clear()
    out = g.own_turn(1, t, False)
    assert out[0] == "end" and st.wins and st.wins[-1]["seat"] == 1 and pols[1].seen == []
    assert np.sum(st.deltas) == 0


# -- 跟庄 after a claim: read from the discards made in turn order (EndTable.opening) ------


def _opening_from_log(events, n=4):
    """Per seat, its discards before the first call or win, read from the log (a claimed
    discard, the last one logged, taken back out)."""
    out = [[] for _ in range(n)]
    for e in events:
        if e["e"] == "call" or (e["e"] == "win" and e.get("how") == "discard"):
            out[e.get("frm", e.get("discarder"))].pop()
            break
        if e["e"] == "win":
            break
        if e["e"] == "discard":
            out[e["seat"]].append(int(e["tile"]))
    return tuple(tuple(x) for x in out)


def test_follow_dealer_not_read_after_the_first_discard_is_claimed():
    # the dealer throws 东, seat 2 pungs it and throws 5m; seats 3, 0, 1 throw 5m too.
    # The pools then read 5m 5m 5m 5m from the dealer on (东 left the dealer's pool), but
    # nobody followed the dealer's first discard: no 跟庄 (GF: the others discard the
    # dealer's first discard in the first go-around)
    from majiang.game.engine.settlement import end_table
    from _engine_helpers import Script, build_test_wall
    hands = ["1z5m1m4m7m2p5p8p3s6s9s3z4z6z", "5m1m4m7m2p5p8p3s6s9s2z3z7z",
             "1z1z5m2m8m3p6p9p1s4s7s2z4z", "5m2m8m3p6p9p1s4s7s3z4z6z7z"]
    wall = build_test_wall("guangdong", hands)
    pols = [Script("1z5m"), Script("5m"), Script("5m", claims=("pung",)), Script("5m")]
    st = play_hand("guangdong", pols, wall=wall, dealer=0, engine="python", log=True)
    calls = [(e["seat"], e["kind"], e["tile"]) for e in st.events if e["e"] == "call"]
    assert calls[0] == (2, "pung", _k("1z")[0])
    # the shifted pools
    assert [tuple(s.discards[:1]) for s in st.seats] == [tuple(_k("5m"))] * 4
    assert end_table(st).opening == ((), (), (), ())
    assert not [e for e in st.end_checks if e["check"] == "跟庄"]


@pytest.mark.parametrize("hand", [1036, 2819])
def test_follow_dealer_after_a_claim_in_both_loops(hand):
    # seeded hands where a claim in the first go-around shifts the pools into a false
    # follow (1036: the dealer's 东 punged, then 南 from four seats out of turn; 2819: the
    # third discard punged): no 跟庄 in either loop; the opening is the log's
    from majiang.game.engine.settlement import end_table
    from majiang.rules.baoding import gen_zhuang_rounds
    py = play_hand("guangdong", "efficiency", seed=7, hand=hand, engine="python", log=True)
    want = _opening_from_log(py.events)
    for st in (py, play_hand("guangdong", "efficiency", seed=7, hand=hand, engine="compiled")):
        t = end_table(st)
        assert gen_zhuang_rounds(t.discards, t.dealer) == 1      # the pools' false reading
        assert t.opening == want
        assert not [e for e in st.end_checks if e["check"] == "跟庄"]


def test_opening_matches_the_log_on_seeded_hands():
    from majiang.game.engine.settlement import end_table
    for h in range(40):
        py = play_hand("guangdong", "efficiency", seed=5, hand=h, engine="python", log=True)
        fast = play_hand("guangdong", "efficiency", seed=5, hand=h, engine="compiled")
        want = _opening_from_log(py.events)
        assert end_table(py).opening == want == end_table(fast).opening


def test_flower_ghosts_not_under_blood_rules():
    # a blood winner's self-drawn tile is set aside by its kind, and a flower joker has none:
    # the combination (no ruleset plays it) is refused when the ruleset is made
    import dataclasses
    rs = G.build(ghost="flowers")
    for blood in ("xuezhan", "xueliu"):
        with pytest.raises(RuleError, match="花鬼.*blood rules"):
            dataclasses.replace(rs, blood=blood, winners="multiple")
    assert dataclasses.replace(G.build(ghost="white"), blood="xuezhan").blood == "xuezhan"

"""台湾16张 flowers and dealer (majiang.rules.taiwan, docs/rules/taiwan.md): 正花 / 花槓 /
八仙過海 from the flowers held, 莊家 / 連莊 / 拉莊 on the dealer's win and on his payments
(values hand-checked from the 台 table: FC, AS, 4W), a scripted wall, and the engine's
conservation and zero-sum."""
from __future__ import annotations

import numpy as np
import pytest

from majiang.errors import RuleError
from majiang.game.engine import play_hand
from majiang.rules import taiwan as T
from majiang.rules.points import settle_points
from majiang.scoring import check_win
from majiang.tiles import parse_tiles

# a concealed hand waiting on 2z / 3z (对倒): 123m 456p 789s 111z + 22z 33z
_HAND = "123m456p789s111z22z33z"


def _fans(hand, win, rs=None, **kw):
    r = check_win(hand, win, ruleset=rs or T.TAIWAN, **kw)
    assert r.valid, r.reason
    return {f.chinese: f.count * f.value for f in r.result.fans}, r.result


def test_seat_flowers_by_number():
    # East: 1f (春) and 5f (梅) bear number 1, 3f does not: 正花 x 2
    fans, _ = _fans(_HAND + " 1f3f5f", "3z", seat_wind=0)
    assert fans["正花"] == 2 and "花槓" not in fans
    # South: 2f and 6f; North: 4f and 8f
    assert _fans(_HAND + " 2f6f7f", "3z", seat_wind=1)[0]["正花"] == 2
    assert _fans(_HAND + " 4f8f", "3z", seat_wind=3)[0]["正花"] == 2
    assert "正花" not in _fans(_HAND + " 1f5f", "3z", seat_wind=2)[0]
    # a count alone does not say which flowers: no 正花
    assert "正花" not in _fans(_HAND, "3z", seat_wind=0, flowers=3)[0]


def test_flower_kong_and_all_eight():
    # South with the four seasons: 花槓 1 (FC) or 2 (AS), and its own 夏 as 正花
    fans, r = _fans(_HAND + " 1f2f3f4f", "3z", seat_wind=1)
    assert fans["花槓"] == 1 and fans["正花"] == 1
    assert _fans(_HAND + " 1f2f3f4f", "3z", T.build(flower_kong=2), seat_wind=1)[0][
        "花槓"] == 2
    assert _fans(_HAND + " 5f6f7f8f1f2f3f", "3z", seat_wind=1)[0]["花槓"] == 1
    # all eight: 八仙過海 8 in place of 正花 and 花槓; on a discard by W: 圈風刻 1 + 門清 1 + 8
    fans, r = _fans(_HAND + " 12345678f", "3z", seat_wind=1)
    assert fans == {"圈風刻": 1, "門清": 1, "八仙過海": 8}
    assert r.total == 10


def test_dealer_repeats_on_the_dealers_win():
    # East self-draws: 圈風刻 1 + 門風刻 1 (東 both) + 門清自摸 3 + 莊家 1 + 連莊 n + 拉莊 n;
    # each of the three pays the 底 (3) + 10
    rs = T.build(dealer_repeats=2)
    fans, r = _fans(_HAND, "3z", rs, seat_wind=0, self_drawn=True)
    assert fans == {"圈風刻": 1, "門風刻": 1, "門清自摸": 3, "莊家": 1, "連莊": 2, "拉莊": 2}
    assert r.total == 10 and r.settle(0, None) == (39, -13, -13, -13)
    # no repeats: no 連莊 / 拉莊 row (no fan worth 0 is shown)
    fans0, r0 = _fans(_HAND, "3z", seat_wind=0, self_drawn=True)
    assert "連莊" not in fans0 and "拉莊" not in fans0 and r0.total == 6


def test_dealer_pays_his_tai():
    # South self-draws 圈風刻 1 + 門清自摸 3 = 4: each pays the 底 3 + 4, the dealer
    # 1 (莊家) + 2n more
    fans, r = _fans(_HAND, "3z", seat_wind=1, self_drawn=True)
    assert r.total == 4 and r.settle(1, None) == (-8, 22, -7, -7)
    r2 = _fans(_HAND, "3z", T.build(dealer_repeats=3), seat_wind=1, self_drawn=True)[1]
    assert r2.settle(1, None) == (-14, 28, -7, -7)          # 3 + 4 + 1 + 6
    # on a discard: the dealer discarding pays it, anyone else does not
    r3 = _fans(_HAND, "3z", T.build(dealer_repeats=1), seat_wind=1)[1]
    assert r3.total == 2                                     # 圈風刻 1 + 門清 1
    assert r3.settle(1, 0) == (-8, 8, 0, 0) and r3.settle(1, 2) == (0, 5, -5, 0)
    # the dealer is the seat whose wind is East: South sitting in seat 2 makes seat 1 the
    # dealer (the engine rotates the deal), and seat 1 pays the 莊家 台
    assert r.settle(2, None) == (-7, -8, 22, -7)
    # the settlement term itself
    assert settle_points(4, 2, 0, dealer=0, dealer_pays_extra=3) == (-7, 0, 7, 0)
    assert settle_points(4, 0, 2, dealer=0, dealer_pays_extra=3) == (4, 0, -4, 0)


def test_options():
    assert T.TAIWAN.options["flower_kong"] == 1 and T.TAIWAN.options["dealer_repeats"] == 0
    for bad in (dict(flower_kong=3), dict(flower_kong=0), dict(dealer_repeats=-1),
                dict(dealer_repeats=True), dict(flower_win=1)):
        with pytest.raises(RuleError):
            T.build(**bad)


# -- a scripted wall -------------------------------------------------------------------

def _wall(dealer, others, tail):
    """The dealer's 17 dealt tiles (flowers as 34 + i), the others' 16, the rest of the 144
    tiles, then ``tail`` (its first tile drawn first from the end)."""
    pool = [k for k in range(34) for _ in range(4)] + list(range(34, 42))
    head = list(dealer) + [t for h in others for t in h]
    for t in head + tail:
        pool.remove(t)
    return head + pool + tail[::-1]


@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_dealer_flower_on_a_scripted_wall(engine):
    # the dealer is dealt 123m 456m 789m 123p 456p 9s and 春 (1f, East's flower); the
    # replacement from the tail is 9s: 天胡 24 + 莊家 1 + 正花 1 + 獨聽 1 (only 9s
    # completes) + 連莊 1 + 拉莊 1 = 29, with the 底 3: 32 from each of the three
    dealer = [int(k) for k in parse_tiles("123m456m789m123p456p9s")] + [34]
    others = [[int(k) for k in parse_tiles(h)] for h in
              ("1234m1234p1234s1234z", "5678m5678p5678s5677z", "1234m5678p2345s1155z")]
    wall = _wall(dealer, others, [int(parse_tiles("9s")[0])])
    st = play_hand(T.build(dealer_repeats=1), ["efficiency"] * 4, wall=wall, hand=0,
                   engine=engine)
    assert [w["seat"] for w in st.wins] == [0]
    assert dict(st.wins[0]["fans"]) == {"天胡": 1, "莊家": 1, "正花": 1, "獨聽": 1,
                                        "連莊": 1, "拉莊": 1}
    assert list(st.deltas) == [96, -32, -32, -32]


def _tiles(text):
    return [int(k) for k in parse_tiles(text)]


_FLOWERS = list(range(34, 42))       # 1f..8f as physical tiles


@pytest.mark.parametrize("engine", ["compiled", "python"])
@pytest.mark.parametrize("seat,repeats,want", [
    # South dealt all eight flowers: the 底 3 + 八仙過海 8 from each, the dealer 1 more (莊家)
    (2, 0, [-12, -11, 34, -11]),
    # the dealer: 底 3 + 八仙過海 8 + 莊家 1 + 連莊 1 + 拉莊 1 from each
    (0, 1, [42, -14, -14, -14]),
])
def test_all_eight_flowers_at_the_deal_win_at_once(engine, seat, repeats, want):
    hands = [_tiles("1234567m1234567p123s"), _tiles("1234567m1234567p4s"),
             _tiles("1234567s1234567z56m"), _tiles("89m89p89s1234567z1s")]
    hands[seat] = hands[seat][:8 + (seat == 0)] + _FLOWERS
    # the eight replacements come from the tail
    st = play_hand(T.build(dealer_repeats=repeats), ["efficiency"] * 4,
                   wall=_wall(hands[0], hands[1:], _tiles("888m888p88s")), hand=0,
                   engine=engine)
    assert [(w["seat"], w["how"]) for w in st.wins] == [(seat, "flower")]
    assert st.end_reason == "win" and list(st.deltas) == want


@pytest.mark.parametrize("engine", ["compiled", "python"])
@pytest.mark.parametrize("robbed,want", [
    # 七搶一 (docs/rules/taiwan.md §2, FC: 8 台): South holds seven flowers, the eighth is
    # dealt to the dealer: South wins at once, paid by the dealer alone (our reading of
    # "rob the 8th"): 底 3 + 8 + 莊家 1 (the dealer pays 1 more) = 12
    (0, [-12, 12, 0, 0]),
    # the eighth dealt to West (not the dealer): 3 + 8 from West alone
    (2, [0, 11, -11, 0]),
])
def test_seven_flowers_rob_the_eighth(engine, robbed, want):
    hands = [_tiles("1234567m1234567p123s"), _tiles("1234567m1234567p4s"),
             _tiles("1234567s1234567z56m"), _tiles("89m89p89s1234567z1s")]
    hands[1] = hands[1][:9] + _FLOWERS[:7]
    hands[robbed] = hands[robbed][:15 + (robbed == 0)] + _FLOWERS[7:]
    st = play_hand(T.TAIWAN, ["efficiency"] * 4,
                   wall=_wall(hands[0], hands[1:], _tiles("888m888p88s")), hand=0,
                   engine=engine)
    # the win's tile is the robbed flower (8f), its payer the robbed seat
    assert [(w["seat"], w["how"], w["fans"], w["discarder"], w["tile"]) for w in st.wins] \
        == [(1, "flower", [("七搶一", 1)], robbed, _FLOWERS[7])]
    assert st.end_reason == "win" and list(st.deltas) == want
    if engine == "python":
        from majiang.game.logs import replay, summarize
        st = play_hand(T.TAIWAN, ["efficiency"] * 4,
                       wall=_wall(hands[0], hands[1:], _tiles("888m888p88s")), hand=0, log=True)
        again = replay(st.events, ruleset=T.TAIWAN)
        assert summarize(again) == summarize(st) and list(again.deltas) == want
    # off: nobody wins at the deal
    st = play_hand(T.build(seven_rob_one=False), ["efficiency"] * 4,
                   wall=_wall(hands[0], hands[1:], _tiles("888m888p88s")), hand=0,
                   engine=engine)
    assert not any(w["how"] == "flower" for w in st.wins)


@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_the_eighth_flower_drawn_ends_the_hand(engine):
    # the dealer holds no pair (no 天胡) and discards one tile that nobody can claim (South
    # holds no two tiles that chow or pung with any of the dealer's, West and North no
    # pair of them), so South draws the head tile: the eighth flower.  South's seven
    # flowers were replaced from the tail by 9m 1p 5p 1s 5s 9s 3s.
    dealer = _tiles("13578m2468p68s234567z")
    south = _tiles("1234567z1m9p") + _FLOWERS[:7]
    west = _tiles("8m123456789p1234s67s")
    north = _tiles("8m123456789p5678s11z")
    wall = _wall(dealer, [south, west, north] + [[_FLOWERS[7]]],
                 _tiles("9m1p5p1s5s9s3s"))
    st = play_hand(T.TAIWAN, ["efficiency"] * 4, wall=wall, hand=0, engine=engine)
    assert [(w["seat"], w["how"], w["fans"]) for w in st.wins] == [(1, "flower",
                                                                    [("八仙過海", 1)])]
    # 底 3 + 八仙過海 8 from each, 莊家 1 more from the dealer
    assert list(st.deltas) == [-12, 34, -11, -11] and st.turns == 1
    if engine == "python":
        from majiang.game.logs import replay, summarize
        st = play_hand(T.TAIWAN, ["efficiency"] * 4, wall=wall, hand=0, log=True)
        again = replay(st.events, ruleset=T.TAIWAN)
        assert summarize(again) == summarize(st) and summarize(st)["win_types"] == ["flower"]


# -- the engine over many hands --------------------------------------------------------


def test_engine_conservation_and_zero_sum():
    rs = T.build(dealer_repeats=1, flower_kong=2)
    seen = set()
    hands = [(["random"] * 4, i) for i in range(300)] + [(["efficiency"] * 4, i)
                                                         for i in range(12)]
    for players, i in hands:
        st = play_hand(rs, players, seed=9, hand=i)
        assert sum(st.deltas) == 0
        paid = np.zeros(4, dtype=np.int64)
        for w in st.wins:
            paid += w["deltas"]
            seen.update(f for f, _ in w["fans"])
        assert list(paid) == list(st.deltas)
        assert np.array_equal(st.census(), st.expected_census())
    assert {"正花", "莊家", "連莊", "拉莊"} <= seen


def test_both_loops_score_the_flowers_alike():
    rs = T.build(dealer_repeats=2)
    for i in range(80):
        a = play_hand(rs, ["random"] * 4, seed=4, hand=i, engine="compiled")
        b = play_hand(rs, ["random"] * 4, seed=4, hand=i, engine="python")
        assert list(a.deltas) == list(b.deltas)
        assert [w["fans"] for w in a.wins] == [w["fans"] for w in b.wins]


def test_replay_scores_the_same():
    from majiang.game.logs import replay, summarize
    rs = T.build(dealer_repeats=1)
    for i in range(15):
        st = play_hand(rs, ["random"] * 4, seed=13, hand=i, log=True)
        again = replay(st.events, ruleset=rs)
        assert summarize(again) == summarize(st)


def test_cli_scores_the_flowers_written_in_the_hand(capsys):
    from majiang.cli import main
    # South holding 春夏秋冬: 正花 (夏) 1 + 花槓 1, with 圈風刻 1 + 門清 1
    assert main(["score", _HAND + " 1f2f3f4f", "--win", "3z", "--rules", "taiwan",
                 "--seat", "S"]) == 0
    out = capsys.readouterr().out
    # the total in 台 (docs/rules/taiwan.md §1: 台 are added)
    assert "正花" in out and "花槓" in out and "total    4 tai" in out


# -- the 底 (base): paid on every win on top of its 台 ---------------------------------

# an open hand worth 0 台 on a discard: the 111m pung is melded (no 門清), it is not all
# chows (no 平胡), 67s waits on 5s or 8s (no 獨聽), no honour pung, no flower, West (no 莊家)
_OPEN0 = "234m567p234s67s99s [111m]"


def test_base_is_paid_on_a_win_worth_no_tai():
    r = check_win(_OPEN0, "8s", ruleset=T.TAIWAN, seat_wind=2)
    assert r.valid and r.result.total == 0 and not r.result.fans
    # the discarder alone pays the 底 (3); the two others pay nothing
    assert r.result.settle(2, 1) == (0, -3, 3, 0)
    # the dealer discarding pays the 底 and his 莊家 台: 3 + 1
    assert r.result.settle(2, 0) == (-4, 0, 4, 0)
    # base=0: the 台 alone, nothing on a 0-台 win
    r0 = check_win(_OPEN0, "8s", ruleset=T.build(base=0), seat_wind=2)
    assert r0.result.settle(2, 1) == (0, 0, 0, 0)
    r5 = check_win(_OPEN0, "8s", ruleset=T.build(base=5), seat_wind=2)
    assert r5.result.settle(2, 1) == (0, -5, 5, 0)


def test_base_on_a_self_draw_from_each():
    # the same hand self-drawn: 自摸 1; each pays 底 3 + 1, the dealer 莊家 1 more
    r = check_win(_OPEN0, "8s", ruleset=T.TAIWAN, seat_wind=2, self_drawn=True)
    assert r.result.total == 1
    assert r.result.settle(2, None) == (-5, -4, 13, -4)
    # after two repeat deals the dealer pays 1 + 2 × 2 more: 3 + 1 + 5
    r2 = check_win(_OPEN0, "8s", ruleset=T.build(dealer_repeats=2), seat_wind=2,
                   self_drawn=True)
    assert r2.result.settle(2, None) == (-9, -4, 17, -4)
    # the settlement term: base added to every payment; default 0 leaves it unchanged
    assert settle_points(0, 2, 1, base=3) == (0, -3, 3, 0)
    assert settle_points(2, 2, None, base=3, dealer=0, dealer_pays_extra=1) == (-6, -5, 16, -5)
    assert settle_points(2, 2, None) == (-2, -2, 6, -2)


def test_base_option_checked():
    assert T.TAIWAN.options["base"] == 3 and T.TAIWAN.settlement_params["base"] == 3
    for bad in (-1, True, 1.5, 1001):
        with pytest.raises(RuleError):
            T.build(base=bad)


def test_base_in_a_match_by_the_closed_form():
    # every payment of 30 hands of a match is 底 + 台, the dealer paying 1 + 2n more
    # (n the streak of the hand): recomputed from each row's winners and 台 alone
    import majiang
    t = majiang.play_match("taiwan", hands=30, seed=5)
    assert len(t) == 30 and (t.fan_totals.map(len) > 0).sum() >= 10
    assert any(0 in r for r in t.fan_totals)            # a 0-台 win was seen
    for r in t.itertuples():
        want = [0, 0, 0, 0]
        for w, tai, d in zip(r.winners, r.fan_totals, r.discarder):
            for q in ([d] if d is not None else [q for q in range(4) if q != w]):
                pay = 3 + tai + (1 + 2 * r.dealer_streak if q == r.dealer else 0)
                want[q] -= pay
                want[w] += pay
        assert list(r.score_deltas) == want and sum(r.score_deltas) == 0

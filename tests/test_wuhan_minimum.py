"""武汉 HZ minimum of 3 番 to win (docs/rules/wuhan.md §2, option ``min_fan``).

Expected values are worked by hand from the reading: the total is the hand 番 counted the
HZ way (屁胡 0, each 大胡 pattern 1, whatever the point values) plus the winner's personal
番 at the win: 开口 1, 明杠 1, 暗杠 1 (option 2), 红中杠 1, 痞子杠 1, 赖子杠 2 — the melds'
read from the hand, the tiles played out given as ``seat_fan`` (the engine counts them).
"""
import numpy as np
import pytest

import majiang
from majiang import InvalidHandError, RuleError
from majiang.rules import wuhan as W
from majiang.winning import WinContext

HZ = W.build(min_fan=3)
PI_HU = "123m456m78p55s [777s]"        # 屁胡 on 6p / 9p, one claimed pung: 开口 1
FLUSH = "1134567899m [222m]"           # 清一色 on 9m (1 hand 番), 开口 1


def test_default_has_no_minimum():
    assert W.WUHAN.options["min_fan"] == 0
    assert not W.WUHAN.win_minimum and not W.WUHAN.seat_fan
    assert majiang.check_win(PI_HU, "9p", ruleset="wuhan").valid


@pytest.mark.parametrize("self_drawn", [False, True])
def test_pi_hu_needs_two_more_personal_fan(self_drawn):
    # 0 hand 番 + 开口 1 + seat_fan: 1 + 1 = 2 < 3 refused; 1 + 2 = 3 wins
    for sf, ok in ((0, False), (1, False), (2, True), (4, True)):
        r = majiang.check_win(PI_HU, "9p", ruleset=HZ, seat_fan=sf, self_drawn=self_drawn)
        assert r.valid is ok, (sf, r.reason)
        if not ok:
            assert f"below the 3-番 minimum of wuhan: 0 hand 番 + 1 personal 番 from the " \
                   f"melds + {sf} from" in r.reason


def test_big_pattern_plus_two_personal_wins():
    # 清一色 1 + 开口 1 = 2: refused; with one 红中 played out (1) = 3: wins
    assert not majiang.check_win(FLUSH, "9m", ruleset=HZ).valid
    assert majiang.check_win(FLUSH, "9m", ruleset=HZ, seat_fan=1).valid
    # 清一色 + 碰碰胡 = 2 hand 番, + 开口 1 = 3 with nothing played out
    r = majiang.score("1113335557m [999m]", "7m", ruleset=HZ)
    assert {f.chinese for f in r.fans} == {"清一色", "碰碰胡"} and r.meets_minimum
    assert W.hand_fan(HZ, {f.id: f.count for f in r.fans}) == 2


def test_kongs_count_from_the_hand():
    # 屁胡 with a claimed pung and a concealed kong: 开口 1 + 暗杠 1 = 2
    h = "123m456m5s [777s] {1111p}"
    assert not majiang.check_win(h, "5s", ruleset=HZ).valid
    assert majiang.check_win(h, "5s", ruleset=HZ, seat_fan=1).valid
    # 暗杠 worth 2 (option): 开口 1 + 2 = 3
    assert majiang.check_win(h, "5s", ruleset=W.build(min_fan=3, concealed_kong_fan=2)).valid
    # a claimed kong instead: 开口 1 + 明杠 1 = 2, and a second one makes 3
    assert not majiang.check_win("123m456m5s [777s] [1111p]", "5s", ruleset=HZ).valid
    assert majiang.check_win("123m5s [777s] [1111p] [9999p]", "5s", ruleset=HZ).valid


def test_point_values_do_not_count_toward_the_minimum():
    # GF's 5 points for a 屁胡 are no 番: still 0 hand 番
    rs = W.build(min_fan=3, small=50, big=150)
    assert not majiang.check_win(PI_HU, "9p", ruleset=rs, seat_fan=1).valid
    assert majiang.check_win(PI_HU, "9p", ruleset=rs, seat_fan=2).valid


def test_score_says_why_and_settles_nothing():
    r = majiang.score(PI_HU, "9p", ruleset=HZ, seat_fan=1)
    assert not r.meets_minimum
    assert r.below_minimum() == ("below the 3-番 minimum of wuhan: 0 hand 番 + 1 personal 番 "
                                 "from the melds + 1 from the 红中 / 痞子 / 赖子 played out = 2")
    assert "not a win" in str(r)
    with pytest.raises(RuleError):
        r.settle(0, 1)
    ok = majiang.score(PI_HU, "9p", ruleset=HZ, seat_fan=2)
    assert ok.meets_minimum and ok.points == 5 and ok.context.seat_fan == 2
    assert ok.settle(0, 1) == (5, -5, 0, 0)


def test_seat_fan_counts_the_tiles_played_out():
    # indicator 东 (27): 痞子 东, 赖子 南 (28); 红中 1, 痞子 1, 赖子 2 each
    from majiang.rules.derived import with_indicator
    rs = with_indicator(HZ, "1z")
    assert W.seat_fan(rs, (33, 27, 28, 5)) == 1 + 1 + 2
    assert W.seat_fan(rs, (33, 33, 28, 28)) == 2 + 4
    assert W.seat_fan(rs, ()) == 0
    # the indicator not known: only the 红中 count
    assert W.seat_fan(HZ, (33, 27, 28)) == 1
    assert majiang.rules.model.rule_spec(rs).seat_fan((28,)) == 2
    assert majiang.rules.model.rule_spec("wuhan").seat_fan((33,)) == 0    # no such 番


def test_bad_values():
    for bad in (-1, 100, True, 1.5):
        with pytest.raises(InvalidHandError):
            WinContext(0, seat_fan=bad)
    with pytest.raises(InvalidHandError):
        majiang.check_win(PI_HU, "9p", ruleset=HZ, seat_fan=-1)
    with pytest.raises(RuleError):
        W.build(min_fan=-1)
    import dataclasses
    with pytest.raises(RuleError, match="unknown win_minimum"):
        dataclasses.replace(W.WUHAN, win_minimum="nowhere")
    with pytest.raises(RuleError, match="unknown seat_fan"):
        dataclasses.replace(W.WUHAN, seat_fan="nowhere")


def test_toml_and_options():
    from majiang.rules import toml
    back = toml.loads(toml.dumps(HZ))
    assert back.win_minimum == "wuhan" and back.options["min_fan"] == 3
    # [rules] min_fan on a wuhan base is the option
    rs = toml.loads('base = "wuhan"\nname = "hz"\n[rules]\nmin_fan = 3\n')
    assert rs.options["min_fan"] == 3 and rs.win_minimum == "wuhan" and rs.min_fan == 0
    assert not majiang.check_win(PI_HU, "9p", ruleset=rs).valid


def test_advice_and_probability_ask_the_same_predicate():
    from majiang.analysis import completion
    done = completion("123m456m789p55s [777s]", ruleset=HZ, indicator="6z")
    assert not done.wins and "below the 3-番 minimum" in done.text
    assert completion("123m456m789p55s [777s]", ruleset="wuhan", indicator="6z").wins
    # one draw: a 屁胡 with 开口 only (1 番) never reaches 3 on one self-draw; the default
    # wins on 6p / 9p
    p0 = majiang.win_probability(PI_HU, 1, ruleset="wuhan", indicator="5z").value
    p3 = majiang.win_probability(PI_HU, 1, ruleset=HZ, indicator="5z").value
    assert p0 > 0 and p3 == 0


def test_cli_score_seat_fan(tmp_path, capsys):
    from majiang.cli import main
    f = tmp_path / "hz.toml"
    f.write_text('base = "wuhan"\nname = "hz"\n[options]\nmin_fan = 3\n', encoding="utf-8")
    main(["score", *PI_HU.split(), "--win", "9p", "--rules", str(f), "--seat-fan", "1"])
    out = capsys.readouterr().out
    assert "below the 3-番 minimum of hz" in out and "nothing is paid" in out
    assert "changes nothing" not in out
    main(["score", *PI_HU.split(), "--win", "9p", "--rules", str(f), "--seat-fan", "2"])
    out = capsys.readouterr().out
    assert "2 番 carried on the table" in out and "below" not in out
    main(["score", *PI_HU.split(), "--win", "9p", "--rules", "wuhan", "--seat-fan", "2"])
    assert "--seat-fan changes nothing for this hand" in capsys.readouterr().out


# ------------------------------------------------------------ in play

_BIG = {"清一色", "将一色", "风一色", "碰碰胡", "全求人", "杠上开花", "海底捞月", "抢杠胡"}


def _log_personal(events):
    """Each seat's personal 番 from the event log alone (as tests/test_wuhan_personal.py)."""
    jk = next(e for e in events if e["e"] == "jokers")
    pizi, wild = jk["indicator"], jk["joker"]
    opened, kongs = [0] * 4, [0] * 4
    played = [[] for _ in range(4)]
    for e in events:
        if e["e"] == "call":
            opened[e["seat"]] = 1
            kongs[e["seat"]] += e["kind"] == "kong"
            played[e["frm"]].remove(e["tile"])
        elif e["e"] == "kong":
            kongs[e["seat"]] += 1
        elif e["e"] == "discard":
            played[e["seat"]].append(e["tile"])
        elif e["e"] == "win" and e.get("discarder") is not None and e["how"] == "discard":
            played[e["discarder"]].remove(e["tile"])
    return [opened[q] + kongs[q] + played[q].count(33) + played[q].count(pizi)
            + 2 * played[q].count(wild) for q in range(4)]


def test_engine_refuses_wins_below_the_minimum(monkeypatch):
    from majiang.game import play_hand
    from majiang.game.engine import fast, state
    from majiang.scoring import check_win as the_predicate
    refused = []

    def counting(hand, win, **kw):
        r = the_predicate(hand, win, **kw)
        if "below the 3-番 minimum" in r.reason:
            refused.append((hand, win, kw))
        return r
    monkeypatch.setattr(fast, "check_win_fn", lambda: counting)
    monkeypatch.setattr(state, "check_win_fn", lambda: counting)
    wins = 0
    for i in range(15):
        st = play_hand(HZ, ["efficiency"] * 4, seed=5, hand=i, log=True)
        assert sum(st.deltas) == 0
        personal = _log_personal(st.events)
        for w in st.wins:
            wins += 1
            hand_fan = sum(n for f, n in w["fans"] if f in _BIG)
            assert hand_fan + personal[w["seat"]] >= 3, (i, w["fans"], personal)
    assert wins >= 8 and refused
    # each refusal is a would-be win: the default rules (no minimum) take the same hand
    for hand, win, kw in refused[:20]:
        turned = majiang.rules.model.rule_spec(kw["ruleset"]).pizi
        kw = dict(kw, ruleset=majiang.rules.derived.with_indicator("wuhan", turned),
                  seat_fan=0)
        assert the_predicate(hand, win, **kw).valid
    assert any(kw["seat_fan"] for _, _, kw in refused)      # played-out tiles counted


def test_both_loops_alike_and_conservation():
    from majiang.game import play_hand
    for seed in range(30):
        a = play_hand(HZ, ("efficiency",) * 4, seed=seed, engine="python")
        b = play_hand(HZ, ("efficiency",) * 4, seed=seed)
        assert sum(a.deltas) == 0 and sum(b.deltas) == 0
        assert list(a.deltas) == list(b.deltas), seed
        assert a.end_checks == b.end_checks, seed


def test_replay_under_the_option():
    from majiang.game import play_hand
    from majiang.game.logs import replay
    for h in range(3):
        st = play_hand(HZ, ("efficiency",) * 4, seed=3, hand=h, log=True)
        assert st.events[0]["options"] == {"min_fan": 3}
        r = replay(st.events)
        assert list(r.deltas) == list(st.deltas) and r.end_checks == st.end_checks
        assert [w["seat"] for w in r.wins] == [w["seat"] for w in st.wins]
        assert np.array_equal(np.asarray(r.wall), np.asarray(st.wall))

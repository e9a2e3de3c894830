"""majiang.play_match (game/match.py) and the dealer rule it follows
(rules/table_rules.DealerRule): who deals next, the dealer's streak given to each hand,
the prevalent wind, cumulative scores.  Expected values come from the rule texts
(the dealer keeps / passes the deal) and from simulate's own seating, not from
play_match's output."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import majiang
from majiang import RuleError, rules
from majiang.game import engine
from majiang.rules.table_rules import DEFAULT_DEALER_RULE, DealerRule
from majiang.rules.toml import with_options


# ---------------------------------------------------------------- the rule, by hand
@pytest.mark.parametrize("rule, dealer, winners, discarders, want", [
    # 连庄 on a win, 下家 otherwise; a drawn hand keeps (the default reading)
    (DealerRule(), 2, [2], [0], 2),
    (DealerRule(), 2, [3], [None], 3),
    (DealerRule(), 3, [1], [2], 0),
    (DealerRule(), 2, [], [], 2),
    (DealerRule(), 1, [0, 1], [2, 2], 1),                  # a dealer among the winners (广东)
    (DealerRule(draw="pass"), 2, [], [], 3),               # 内蒙 AHMJ: 荒庄 passes
    (DealerRule(win="rotate", draw="pass"), 0, [0], [None], 1),    # mcr
    (DealerRule(win="rotate"), 0, [], [], 0),              # 安庆: any win passes, 荒庄 keeps
    (DealerRule(win="winner"), 1, [3], [0], 3),            # 山东 抢庄
    (DealerRule(win="winner"), 1, [1], [None], 1),
    (DealerRule(win="winner", draw="pass"), 1, [], [], 2),  # 天津
    (DealerRule(win="winner", several="discarder"), 0, [1, 2], [3, 3], 3),       # 长沙 JD
    (DealerRule(win="winner", several="after_discarder"), 0, [1, 2], [3, 3], 0),  # 云南
    (DealerRule(win="winner", several="discarder"), 0, [2], [None], 2),
    (DealerRule(win="winner"), 0, [2, 1, 3], [0, None, 1], 2),   # 血战: the first winner
    (DealerRule(win="discarder"), 0, [2], [1], 1),          # 合肥 通炮者坐庄
    (DealerRule(win="discarder"), 0, [2], [None], 2),
])
def test_next_dealer(rule, dealer, winners, discarders, want):
    assert rule.next_dealer(dealer, winners, discarders, 4) == want


def test_next_dealer_three_players():
    assert DealerRule().next_dealer(2, [0], [2], 3) == 0


@pytest.mark.parametrize("kw", [{"win": "loser"}, {"draw": "maybe"}, {"several": "all"},
                                {"streak_from": 2}, {"streak": 3}])
def test_dealer_rule_bad_values(kw):
    with pytest.raises(RuleError, match="dealer rule"):
        DealerRule(**kw)


def test_ruleset_dealer_rules():
    """The rule facts of the readings, one per ruleset; None falls back to the default."""
    spec = {n: rules.get(n).next_dealer_rule for n in ("mcr", "taiwan", "guangdong", "sichuan",
                                                  "changsha", "hangzhou", "neimeng", "guizhou")}
    assert (spec["mcr"].win, spec["mcr"].draw) == ("rotate", "pass")
    assert (spec["taiwan"].win, spec["taiwan"].draw, spec["taiwan"].streak) == (
        "dealer", "keep", "dealer_repeats")
    assert spec["guangdong"].streak == "dealer_streak"
    assert spec["sichuan"].win == "winner"
    assert (spec["changsha"].win, spec["changsha"].several) == ("winner", "discarder")
    assert (spec["hangzhou"].streak, spec["hangzhou"].streak_from) == ("dealer_deal", 1)
    assert spec["neimeng"].draw == "pass"
    # 贵州 连庄 (docs/rules/guizhou.md §3): the streak option, the usual keep/pass
    assert (spec["guizhou"].win, spec["guizhou"].draw, spec["guizhou"].streak) == (
        "dealer", "keep", "dealer_repeats")
    sy = rules.get("shenyang")
    assert sy.dealer_rule is None and sy.next_dealer_rule == DEFAULT_DEALER_RULE
    d = rules.describe(sy)["next_dealer"]
    assert d["stated"] is False and d["streak_option"] is None
    assert rules.describe(rules.get("taiwan"))["next_dealer"]["streak_option"] == "dealer_repeats"
    with pytest.raises(RuleError, match="dealer_rule"):
        dataclasses.replace(rules.get("mcr"), dealer_rule="keep")


# ---------------------------------------------------------------- matches
def _kept_before(t) -> list:
    """Deals the dealer had kept in a row before each row, counted from the dealer column."""
    out, prev = [], None
    for m, d in zip(t["match"], t["dealer"]):
        out.append(out[-1] + 1 if prev == (m, d) else 0)
        prev = (m, d)
    return out


@pytest.fixture(scope="module")
def taiwan():
    return majiang.play_match("taiwan", rounds=2, matches=2, seed=3)


def test_taiwan_dealer_keeps_on_win_or_draw(taiwan):
    t = taiwan
    kinds = set()
    for a, b in zip(t.iloc[:-1].itertuples(), t.iloc[1:].itertuples()):
        if a.match != b.match:
            continue
        keeps = a.dealer in a.winners or not a.winners
        kinds.add("dealer win" if a.dealer in a.winners else "draw" if not a.winners
                  else "other win")
        assert b.dealer == (a.dealer if keeps else (a.dealer + 1) % 4)
        assert b.dealer_streak == (a.dealer_streak + 1 if keeps else 0)
    assert kinds == {"dealer win", "draw", "other win"}
    assert list(t["dealer_streak"]) == _kept_before(t)
    assert max(t["dealer_streak"]) >= 2


def test_taiwan_streak_scored(taiwan):
    """The streak reaches the hand: a dealer's win counts 連莊 and 拉莊 n times each."""
    seen = 0
    for r in taiwan.itertuples():
        for w, fans in zip(r.winners, r.fans):
            got = dict((name, k) for name, k in fans)
            if w == r.dealer and r.dealer_streak:
                assert got.get("連莊") == got.get("拉莊") == r.dealer_streak
                seen += 1
            else:
                assert "連莊" not in got
    assert seen


def test_rounds_and_wind(taiwan):
    t = taiwan
    assert sorted(set(t["match"])) == [0, 1]
    for m, g in t.groupby("match"):
        d = list(g["dealer"])
        assert d[0] == 0 and list(g["dealer_streak"])[0] == 0
        passes = sum(a != b for a, b in zip(d, d[1:]))
        assert passes == 7          # the 8th pass ends rounds=2; the last hand passes it
        # the wind moves to South when the deal comes back to seat 0
        first_south = next(i for i in range(1, len(d)) if sum(
            a != b for a, b in zip(d[:i + 1], d[1:i + 1])) == 4)
        assert list(g["prevalent_wind"]) == [0] * first_south + [1] * (len(d) - first_south)
    assert list(t["hand"]) == list(range(len(t)))


def test_scores_cumulative_zero_sum(taiwan):
    for m, g in taiwan.groupby("match"):
        deltas = np.array(list(g["score_deltas"]))
        assert (deltas.sum(axis=1) == 0).all()
        assert (np.array(list(g["scores"])) == deltas.cumsum(axis=0)).all()


def test_reproducible(taiwan):
    again = majiang.play_match("taiwan", rounds=2, matches=2, seed=3)
    assert again.equals(taiwan)
    other = majiang.play_match("taiwan", rounds=2, matches=2, seed=4)
    assert not other[["winners", "score_deltas"]].equals(taiwan[["winners", "score_deltas"]])


def test_mcr_rotates_as_simulate():
    """No 连庄 in Chinese Official rules: a match is simulate's seating (dealer hand % 4,
    wind hand // 4) and the same hands."""
    t = majiang.play_match("mcr", hands=6, seed=5)
    s = majiang.simulate("mcr", 6, seed=5, n_jobs=1, progress=False)
    assert t[list(s.columns)].equals(s)
    assert list(t["dealer"]) == [0, 1, 2, 3, 0, 1]
    assert list(t["prevalent_wind"]) == [0, 0, 0, 0, 1, 1]
    assert list(t["dealer_streak"]) == [0] * 6
    assert len(majiang.play_match("mcr", seed=5)) == 4          # rounds=1: one each


def test_streak_option_per_hand(monkeypatch):
    """The option given to each hand is the kept deals (+1 for 杭州's deal number)."""
    got = []
    real = engine.play_hand

    def spy(rs, *a, **kw):
        got.append(rules.get(rs).options["dealer_deal"])
        return real(rs, *a, **kw)

    monkeypatch.setattr(engine, "play_hand", spy)
    t = majiang.play_match("hangzhou", hands=12, seed=2)
    assert got == [k + 1 for k in _kept_before(t)]
    assert max(got) >= 2


def test_house_rules_keep_their_changes():
    house = rules.loads('base = "taiwan"\nname = "taiwan_house"\n[fans]\n"莊家" = 3\n')
    t = majiang.play_match(house, hands=10, seed=3)
    assert set(t["ruleset"]) == {"taiwan_house"}
    for r in t.itertuples():
        for w, fans in zip(r.winners, r.fans):
            assert ("連莊" in dict(fans)) == (w == r.dealer and r.dealer_streak > 0)
    built = with_options(house, **house.next_dealer_rule.streak_options(house, 2))
    assert built.options["dealer_repeats"] == 2 and built.fan("莊家").value == 3
    assert built.name == "taiwan_house"


def _streak_ruleset(name, streak):
    rs = rules.get(name)
    return with_options(rs, **rs.next_dealer_rule.streak_options(rs, streak))


def test_streak_options():
    tw = rules.get("taiwan")
    assert tw.next_dealer_rule.streak_options(tw, 0) == {}          # already 0
    assert tw.next_dealer_rule.streak_options(tw, 3) == {"dealer_repeats": 3}
    three = _streak_ruleset("taiwan", 3)
    assert three.name == "taiwan" and three.options["dealer_repeats"] == 3
    assert three.settlement_params["dealer_pays_extra"] == 1 + 2 * 3     # 莊家 + 連3拉3
    assert _streak_ruleset("wenzhou", 2).options["dealer_deal"] == 3     # the 3rd deal
    mcr = rules.get("mcr")
    assert mcr.next_dealer_rule.streak_options(mcr, 5) == {}            # no streak option
    with pytest.raises(RuleError, match="unknown key"):
        with_options(tw, dealer_streak=1)


def test_empty_and_columns():
    t = majiang.play_match("guangdong", hands=0)
    assert len(t) == 0 and list(t.columns)[-4:] == ["match", "prevalent_wind",
                                                    "dealer_streak", "scores"]
    assert "dealer keeps" in t.attrs["dealer_rule"]


@pytest.mark.parametrize("kw, msg", [
    ({"hands": 3, "rounds": 1}, "not both"),
    ({"hands": -1}, "hands must be"),
    ({"hands": 2.0}, "hands must be"),
    ({"rounds": 0}, "rounds must be"),
    ({"rounds": True}, "rounds must be"),
    ({"matches": 0}, "matches must be"),
    ({"seed": -3}, "seed"),
    ({"players": ("efficiency",) * 3}, "player"),
    ({"players": "nobody"}, "player"),
])
def test_bad_arguments(kw, msg):
    with pytest.raises(RuleError, match=msg):
        majiang.play_match("taiwan", **kw)


def test_unknown_ruleset():
    with pytest.raises(RuleError, match="unknown ruleset"):
        majiang.play_match("nowhere", hands=1)


def test_match_that_never_ends(monkeypatch):
    """A table where nobody wins under a rule that keeps the deal on a draw: a clear error."""
    from majiang.game import match
    monkeypatch.setattr(match, "MAX_HANDS_PER_ROUND", 1)
    real = engine.play_hand

    def drawn(*a, **kw):
        st = real(*a, **kw)
        st.wins = []
        st.deltas = [0] * len(st.deltas)
        return st

    monkeypatch.setattr(engine, "play_hand", drawn)
    with pytest.raises(RuleError, match="did not end within 4 hands"):
        majiang.play_match("taiwan", rounds=1)

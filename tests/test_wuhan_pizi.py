"""武汉 痞子 (docs/rules/wuhan.md §1, HZ ``analyse_chi_hu_card``): the turned tile's kind is
the 痞子; a player may not win holding it, and the winning tile may not be it.

Hands are built by hand.  ``234m567m789p5s [111s]`` + 5s is a 屁胡 (opened by the pung, a
2/5/8 pair 5s, no 赖子).  The indicators are chosen so that the 赖子 (the next kind) is
not in the hand: 9p -> 赖子 1p (痞子 9p held in 789p); 5s -> 赖子 6s (痞子 = the pair and the
winning tile); 1s -> 赖子 2s (痞子 only in the claimed pung: not held); 1z -> 赖子 南.
"""
import numpy as np
import pytest

import majiang
from majiang import RuleError
from majiang.rules import get
from majiang.rules.model import game_model
from majiang.rules.derived import with_indicator
from majiang.scoring import check_win

HAND = "234m567m789p5s [111s]"


def test_check_win_refuses_a_held_pizi():
    assert check_win(HAND, "5s", ruleset="wuhan").valid          # 痞子 unknown
    assert check_win(HAND, "5s", ruleset="wuhan", indicator="1z").valid
    r = check_win(HAND, "5s", ruleset="wuhan", indicator="9p")
    assert not r.valid and "no_pizi" in r.reason
    # the pair and the winning tile are the 痞子
    assert not check_win(HAND, "5s", ruleset="wuhan", indicator="5s").valid
    # a 痞子 in a claimed meld is not held
    assert check_win(HAND, "5s", ruleset="wuhan", indicator="1s").valid
    # the same verdicts on the ruleset carrying the turned tile
    assert not check_win(HAND, "5s", ruleset=with_indicator("wuhan", "9p")).valid
    assert check_win(HAND, "5s", ruleset=with_indicator("wuhan", "1s")).valid


def test_winning_tile_may_not_be_the_pizi():
    h = "234m567m78p5s5s [111s]"             # waits 6p / 9p
    assert check_win(h, "9p", ruleset="wuhan").valid
    assert not check_win(h, "9p", ruleset="wuhan", indicator="9p").valid
    assert check_win(h, "6p", ruleset="wuhan", indicator="9p").valid


def test_with_indicator_model():
    rs = with_indicator("wuhan", "9p")
    m = game_model(rs)
    assert rs.name == "wuhan" and m.pizi == 17
    assert m.banned_kinds == (33, 17)                 # 红中 and the 痞子
    assert game_model("wuhan").pizi is None and game_model("wuhan").banned_kinds == (33,)
    assert with_indicator(rs, 17) is rs                # made once per kind
    assert with_indicator("wuhan", "9p") is rs
    assert with_indicator("wuhan", None) is get("wuhan")
    assert with_indicator("mcr", "9p") is get("mcr")   # no rule reads the turned tile
    # 红中 turned: the 痞子 is 红中 itself, banned once
    assert game_model(with_indicator("wuhan", "7z")).banned_kinds == (33,)
    with pytest.raises(RuleError):
        with_indicator(rs, "1m")                       # another turned tile
    with pytest.raises(RuleError):
        with_indicator("wuhan", 40)


def test_advice_discards_the_pizi():
    # 14 tiles: discarding 5s or 5p leaves a 5p / 5s pair wait; with the 痞子 5s only
    # discarding it is ready (keeping it, no wait: the pair cannot be 5s, and the 13
    # tiles hold three sets + one unusable tile -> 1-shanten)
    h = "234m567m789m5s5p [111s]"
    rows = lambda t: dict(zip(t.discard, t.shanten))   # noqa: E731
    plain = rows(majiang.discard_table(h, ruleset="wuhan"))
    assert plain["5s"] == 0 and plain["5p"] == 0
    got = rows(majiang.discard_table(h, ruleset="wuhan", indicator="5s"))
    assert got["5s"] == 0 and got["5p"] == 1
    assert majiang.shanten("234m567m789m5s [111s]", ruleset="wuhan") == 0
    assert majiang.shanten("234m567m789m5s [111s]", ruleset="wuhan", indicator="5s") == 1
    assert majiang.shanten("234m567m789m5s [111s]", ruleset="wuhan", indicator="9p") == 0


@pytest.mark.parametrize("log", [False, True])      # compiled loop / Python loop
def test_game_loops_never_win_holding_the_pizi(monkeypatch, log):
    from majiang.game import play_hand
    from majiang.game.engine import fast, state
    from majiang.scoring import check_win as the_predicate
    refused = []

    def counting(*a, **k):
        r = the_predicate(*a, **k)
        if "no_pizi" in r.reason:
            refused.append(r.reason)
        return r
    monkeypatch.setattr(fast, "check_win_fn", lambda: counting)
    monkeypatch.setattr(state, "check_win_fn", lambda: counting)
    wins = 0
    for i in range(40):
        st = play_hand("wuhan", ["efficiency"] * 4, seed=11, hand=i, log=log)
        for w in st.wins:
            wins += 1
            hand, tile, _ = w["check"]
            assert not np.asarray(hand.concealed)[st.indicator] and tile != st.indicator
    assert wins >= 20
    assert refused          # the bots did reach complete hands holding the 痞子

"""A declared void suit (定缺, :mod:`majiang.rules.declared`) in the analyses: ``void=``
of shanten / ukeire / discard_table / advise / probabilities / fan_odds, a Position's
own declaration and ``--void`` on the command line.

Expected values are counted by hand from the rules of 四川 (108 tiles, 缺一门; the
declared suit must be gone from the winning hand and is discarded before any other
tile): the shanten of a 14-tile hand is 14 - (most tiles it keeps of one complete hand
lacking the declared suit) - 1.
"""
from __future__ import annotations

import json

import pytest

import majiang as mj
from majiang.analysis import completion
from majiang.cli import main
from majiang.errors import RuleError
from majiang.rules.model import rule_spec, void_index
from majiang.rules.derived import with_void

HAND = "123456789m11p579s"      # the 定缺 万 example: all nine 万 must go


def test_void_index_reads_letters_and_ints():
    assert [void_index(v) for v in ("m", "p", "s", 0, 1, 2, None, -1)] == \
        [0, 1, 2, 0, 1, 2, None, None]
    for bad in ("z", "mp", 3, True, 1.0):
        with pytest.raises(RuleError, match="void must be a suit letter"):
            void_index(bad)


def test_with_void_is_kept_and_refused_where_no_void_rule():
    a = with_void("sichuan", "p")
    assert a is with_void("sichuan", 1) and a.name == "sichuan"
    assert rule_spec(a).declared_void == 1 and rule_spec("sichuan").declared_void is None
    assert rule_spec(a).shape(()).void_suits == 0b010       # only the declared suit's bit
    assert with_void("sichuan", None) is mj.rules.get("sichuan")
    with pytest.raises(RuleError, match="mcr has no void suit"):
        with_void(None, "m")
    with pytest.raises(RuleError, match="conflicts with the declared void suit p"):
        with_void(a, "m")


def test_shanten_counted_by_hand_per_declared_suit():
    # void m: keep 11p 5s 7s 9s (11p + 567s + 789s + ...: 5 tiles) -> 14 - 5 - 1 = 8
    # void p: keep 123 456 789m + 57s(+6s) + 9s(+9s) -> 12 tiles -> 1
    # void s: keep 123 456 789m + 11p -> 11 tiles -> 2
    got = {v: mj.shanten(HAND, ruleset="sichuan", void=v) for v in "mps"}
    assert got == {"m": 8, "p": 1, "s": 2}
    assert mj.shanten(HAND, ruleset="sichuan") == min(got.values())      # 缺一门 as such
    with pytest.raises(RuleError):
        mj.shanten(HAND, void="m")                  # mcr: no void-suit rule


def test_advise_discards_the_declared_suit_first():
    generic = mj.advise(HAND, ruleset="sichuan")
    assert generic["discard"].iloc[0] == "1p"       # keeps the 万: the bug this fixes
    table = mj.advise(HAND, ruleset="sichuan", void="m")
    assert sorted(table["discard"]) == [f"{i}m" for i in range(1, 10)]
    assert set(table["shanten"]) == {8} and set(table["rank"]) == {1}
    dt = mj.discard_table(HAND, ruleset="sichuan", void="m")
    assert list(dt["discard"]) == [f"{i}m" for i in range(1, 10)]
    # one 万 left among the tiles: it is the only legal discard
    one = mj.advise("123456789p1159s1m", ruleset="sichuan", void="m")
    assert list(one["discard"]) == ["1m"] and list(one["rank"]) == [1]
    # after the 万 are gone, every discard is listed again
    # (one row per kind held: nine 筒, 1s, 5s, 9s)
    assert len(mj.advise("123456789p11559s", ruleset="sichuan", void="m")) == 12


def test_a_hand_without_the_declared_suit_equals_the_generic_result():
    # holding only 筒 and 条, 缺一门 can only mean 万: the same numbers with void="m"
    hand = "123456789p11558s"
    a = mj.advise(hand, ruleset="sichuan")
    b = mj.advise(hand, ruleset="sichuan", void="m")
    assert a.equals(b)
    assert mj.discard_table(hand, ruleset="sichuan").equals(
        mj.discard_table(hand, ruleset="sichuan", void="m"))
    wait = "123456789p1155s"
    assert mj.ukeire(wait, ruleset="sichuan", void=0) == mj.ukeire(wait, ruleset="sichuan")
    assert mj.fan_odds(wait, 2, ruleset="sichuan", void="m").equals(
        mj.fan_odds(wait, 2, ruleset="sichuan"))


def test_win_probability_needs_the_declared_suit_gone():
    wait = "123456789m1155s"        # ready on 1s / 5s, lacking 筒
    # 2 + 2 live winning tiles among 108 - 13 unseen
    assert mj.win_probability(wait, 1, ruleset="sichuan", void="p").value == \
        pytest.approx(4 / 95)
    assert mj.win_probability(wait, 1, ruleset="sichuan").value == pytest.approx(4 / 95)
    # declared 万 or 条: the hand holds that suit, so no win can come in one draw
    for v in "ms":
        assert mj.win_probability(wait, 1, ruleset="sichuan", void=v).value == 0.0
        assert mj.probabilities(wait, 1, ruleset="sichuan", void=v).p_tenpai == 0.0
    assert mj.tenpai_probability(wait, 1, ruleset="sichuan", void="p").value == 1.0
    # the win predicate holds the declaration too
    done = completion("123m456m789m11s555s", ruleset=with_void("sichuan", "m"))
    assert done is not None and not done.wins
    assert completion("123m456m789m11s555s", ruleset=with_void("sichuan", "p")).wins


def test_position_passes_its_seats_void():
    p = mj.Position(HAND, ruleset="sichuan", voids=[0, -1, -1, -1])
    assert p.analysis_kwargs()["void"] == "m"
    table = mj.advise(p, by="efficiency")
    assert sorted(table["discard"]) == [f"{i}m" for i in range(1, 10)]
    assert mj.advise(p, by="efficiency", void="m").equals(table)
    with pytest.raises(RuleError, match="conflicts with the declared void suit m"):
        mj.advise(p, by="efficiency", void="p")
    # no declaration: 缺一门 as such (the generic advice keeps the 万)
    q = mj.Position(HAND, ruleset="sichuan")
    assert "void" not in q.analysis_kwargs()
    assert mj.advise(q, by="efficiency")["discard"].iloc[0] == "1p"


def test_cli_void(capsys):
    code = main(["advise", HAND, "--rules", "sichuan", "--void", "m", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    rows = json.loads(out)["discards"]
    assert sorted(r["discard"] for r in rows) == [f"{i}m" for i in range(1, 10)]
    code = main(["shanten", "23456789m11p579s", "--rules", "sichuan", "--void", "m",
                 "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    got = json.loads(out)
    # 13 tiles, keep 11p 5s 7s 9s -> 14 - 5 - 1 = 8; any 筒 or 条 joins a set
    assert got["shanten"] == 8 and got["ukeire_kinds"] == 18
    code = main(["shanten", "23456789m11p579s", "--void", "m"])
    out, err = capsys.readouterr()
    assert code != 0 and "--void" in err and "mcr has no void suit" in err
    code = main(["advise", HAND, "--rules", "sichuan", "--void", "x"])
    out, err = capsys.readouterr()
    assert code != 0 and "--void must be a suit letter m, p or s" in err

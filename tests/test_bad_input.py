"""Bad input found by a fresh user: every case is a MahjongError with a clear message
(or handled), never another exception or a traceback."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

import majiang
from majiang import MahjongError, RuleError, records, rules
from majiang.review import agreement


@pytest.mark.parametrize("call", [
    lambda: majiang.shanten("123456789m1112p", forms=5),
    lambda: majiang.shanten("123456789m1112p", forms=[None]),
    lambda: majiang.counts_from_tiles(None),
    lambda: majiang.counts_from_tiles(5),
    lambda: records.parse_games(None),
    lambda: records.parse_games(b"\xff\xfe"),
    lambda: records.load_games("/nonexistent/log.txt"),
    lambda: records.load_games("/"),
])
def test_clear_errors(call):
    with pytest.raises(MahjongError):
        call()


def test_agreement_bad_key():
    df = majiang.review.review_game(records.example_games()[0])
    with pytest.raises(RuleError, match="bogus"):
        agreement(df, by="bogus")


def test_log_with_byte_order_mark(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + records.example_path().read_bytes())
    assert len(records.load_games(path)) == 8


def test_house_rules_not_utf8(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_bytes(b"\xff\xfe\x00base")
    with pytest.raises(RuleError, match="UTF-8"):
        rules.load(path)


def test_knitted_decompositions_listed():
    forms = tuple(majiang.FORMS)
    for hand, form in [("147m258p369s12345z", "honors_and_knitted"),
                       ("147m258p369s11z456m", "knitted_straight"),
                       ("147m258p369s11z [456m]", "knitted_straight")]:
        assert majiang.shanten(hand, forms=forms) == -1
        ds = majiang.decompositions(hand, forms=forms)
        assert [d.form for d in ds] == [form]
        assert len(ds[0].knitted) in (9, 14)


@pytest.mark.parametrize("encoding", ["gbk", "cp1252", "ascii"])
def test_cli_on_a_console_that_cannot_show_glyphs(encoding):
    env = dict(os.environ, PYTHONIOENCODING=encoding)
    out = subprocess.run([sys.executable, "-m", "majiang", "advise", "23345m111p456p99s6m"],
                         capture_output=True, env=env)
    assert out.returncode == 0, out.stderr
    assert b"Traceback" not in out.stderr
    assert b"3m" in out.stdout


@pytest.mark.parametrize("ruleset", ["sichuan", "mcr", "changsha"])
def test_jokers_under_a_ruleset_without_jokers_are_refused_everywhere(ruleset):
    """Was: shanten / ukeire / discard_table / advise took '*' as wild under rulesets
    that have no jokers (score, check_win and probabilities refused the same hand)."""
    for call in (lambda: majiang.shanten("123456789p115s*", ruleset=ruleset),
                 lambda: majiang.ukeire("123456789p115s*", ruleset=ruleset),
                 lambda: majiang.discard_table("123456789p115s*4s", ruleset=ruleset),
                 lambda: majiang.advise("123456789p115s*4s", ruleset=ruleset),
                 lambda: majiang.shanten("123456789p115s", jokers=1, ruleset=ruleset)):
        with pytest.raises(majiang.RuleError, match="has no jokers"):
            call()
    assert majiang.shanten("123456789p115s*") == 0          # no ruleset: generic jokers


def test_fixed_joker_draws_are_listed_without_an_indicator():
    """Was: advise / discard_table under a fixed joker kind (杭州 白板 财神) dropped the
    joker draws unless a meaningless indicator was given; ukeire listed them."""
    hand13 = "123m3456p789s11z*"
    want = majiang.ukeire(hand13, ruleset="hangzhou")
    assert "5z*" in want
    table = majiang.discard_table("1237m456p789s11z*3p", ruleset="hangzhou",
                                  second_order=False)
    row = table[table.discard == "7m"].iloc[0]
    assert row.ukeire_count == sum(want.values())
    adv = majiang.advise("1237m456p789s11z*3p", ruleset="hangzhou", second_order=False)
    assert adv[adv.discard == "7m"].iloc[0].ukeire_count == sum(want.values())
    with pytest.raises(RuleError, match="fixed"):
        majiang.advise("1237m456p789s11z*3p", ruleset="hangzhou", indicator="1p")


@pytest.mark.parametrize("ruleset", ["mcr", None, "guizhou", "anqing"])
@pytest.mark.parametrize("indicator", [40, -1, True, "zz", "1m1m"])
def test_an_indicator_that_is_no_tile_is_refused_everywhere(ruleset, indicator):
    """Was: silently ignored where the ruleset's jokers need no indicator (or no ruleset)."""
    hand = "123m456p789s1122m" if ruleset == "guizhou" else "123m456p789s1122z"
    for call in (majiang.shanten, majiang.ukeire, majiang.discard_table):
        h = hand + ("5m" if call is majiang.discard_table else "")
        with pytest.raises((majiang.RuleError, majiang.InvalidNotationError)):
            call(h, ruleset=ruleset, indicator=indicator)


def test_wrong_size_message_names_the_size_with_the_need():
    # the size needed follows the function's need, the hint names the other function
    with pytest.raises(majiang.InvalidHandError,
                       match=r"^ukeire needs a hand waiting for a draw \(3n\+1 tiles, at most "
                             r"17\), got 14; for a hand that must discard use discard_table\(\)$"):
        majiang.ukeire("123m456p789s1122z5z")
    with pytest.raises(majiang.InvalidHandError,
                       match=r"must discard \(3n\+2 tiles, at most 17\), got 13; .* ukeire\(\)$"):
        majiang.discard_table("123m456p789s1122z")


@pytest.mark.parametrize("x", [None, 5, 3.5, True])
def test_a_scalar_or_none_is_not_a_hand(x):
    """None or a number where tiles are expected: one line naming what is expected."""
    with pytest.raises(majiang.InvalidHandError, match="expected tiles: a string"):
        majiang.shanten(x)
    with pytest.raises(majiang.InvalidHandError, match="expected tiles"):
        majiang.ukeire(x)

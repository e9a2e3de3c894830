"""``majiang advise``: a hand that wins now, a complete shape that is no win, and
``--policy`` taking back every policy name the probability line prints."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest

import majiang
from majiang.cli import main
from majiang.tiles import parse_counts


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def rows(out: str) -> list[str]:
    return [line for line in out.splitlines() if re.match(r"^\s*\d+\s+\S+\s+-?\d", line)]


def best_fan(hand: str, ruleset: str):
    """The best fan total of THE predicate over the tiles of the hand as the self-drawn
    winning one, or None when none wins."""
    c = parse_counts(hand)
    fans = []
    for k in np.flatnonzero(c):
        before = c.copy()
        before[k] -= 1
        chk = majiang.check_win(majiang.format_counts(before), int(k), ruleset=ruleset)
        if chk.valid:
            fans.append(int(chk.result.total))
    return max(fans) if fans else None


@pytest.mark.parametrize("hand,rules", [("123m111z222z333z44z", "mcr"),
                                        ("11223344556677p", "sichuan")])
def test_a_winning_hand_says_win_now(capsys, hand, rules):
    fan = best_fan(hand, rules)
    code, out, err = run(capsys, "advise", hand, "--rules", rules)
    assert code == 0 and err == ""
    # the default context of score / check_win (on a discard), the winning tile named
    assert any(re.fullmatch(rf"win now: {fan} fan \(\w\w on a discard\)", x)
               for x in out.splitlines())
    assert rows(out) == [] and "rank  discard" not in out and "probability" not in out
    # asked for, the discards are ranked below the win
    code, out, _ = run(capsys, "advise", hand, "--rules", rules, "--discards", "--draws", "4")
    assert code == 0 and f"win now: {fan} fan" in out and len(rows(out)) > 0
    code, out, _ = run(capsys, "advise", hand, "--rules", rules, "--json")
    data = json.loads(out)
    assert data["win_now"].startswith(f"win now: {fan} fan (") and data["discards"] == []
    assert data["no_win"] is None


@pytest.mark.parametrize("hand,rules,why", [
    # on a discard (the default reading): 平和 2 + 门前清 2 + 无字 1 = 5
    ("123m567m345p678s55s", "mcr", "below the 8-fan minimum of mcr (5 fan)"),
    ("123m456p789s123s55s", "sichuan", "void_suit"),
])
def test_a_complete_shape_that_is_no_win_is_advised(capsys, hand, rules, why):
    assert best_fan(hand, rules) is None
    code, out, _ = run(capsys, "advise", hand, "--rules", rules)
    assert code == 0 and "win now" not in out
    line = next(x for x in out.splitlines() if f"no win under {rules}" in x)
    assert why in line
    assert len(rows(out)) == len(np.flatnonzero(parse_counts(hand)))
    data = json.loads(run(capsys, "advise", hand, "--rules", rules, "--json")[1])
    assert why in data["no_win"] and data["win_now"] is None and data["discards"]


@pytest.mark.parametrize("hand,extra", [
    ("2225678p88s12466s", ["--draws", "12"]),                     # exact, changes<=0
    ("2225678p88s12466s", ["--draws", "2"]),                      # true wall, optimal
])
def test_policy_printed_is_accepted_back(capsys, hand, extra):
    code, out, _ = run(capsys, "advise", hand, "--rules", "sichuan", *extra)
    assert code == 0
    names = re.findall(r"policy ([^;|\n]+?)(?: \||$)", out, flags=re.M)
    assert names
    for name in set(names):
        code, again, err = run(capsys, "advise", hand, "--rules", "sichuan", *extra,
                               "--policy", name)
        assert code == 0 and err == ""
        assert rows(again) == rows(out)


def test_policy_errors(capsys):
    code, _, err = run(capsys, "advise", "2225678p88s12466s", "--rules", "sichuan",
                       "--policy", "greedy")
    assert code == 2 and "--draws" in err and "Traceback" not in err
    code, _, err = run(capsys, "advise", "2225678p88s12466s", "--rules", "sichuan",
                       "--draws", "4", "--policy", "changes<=9")
    assert code == 2 and "unknown policy" in err and "Traceback" not in err


# ---------------------------------------------------------------- --position
_LINE = ("hand=23345m111p456p99s6m seat=1 dealer=0 discards0=1z7m@29m discards1=2z "
         "discards2=3z4z discards3=7m5z melds2=[777m]@0")


def test_position_line_and_file_give_the_same_advice(capsys, tmp_path):
    code, out, _ = run(capsys, "advise", "--position", _LINE, "--json", "--no-danger")
    assert code == 0
    got = json.loads(out)
    # the position's visible tiles: the rivers on the table and seat 2's 777m
    assert parse_counts(got["visible"]).tolist() == parse_counts("77779m12345z").tolist()
    best = got["discards"][0]
    # by hand: 3m leaves 2345m6m waiting on 1m 4m 7m; live 4 + 3 + 0 (every 7m seen)
    assert best["discard"] == "3m" and best["ukeire"] == "147m" and best["ukeire_count"] == 7
    f = tmp_path / "p.toml"
    f.write_text('hand = "23345m111p456p99s6m"\nseat = 1\n'
                 'discards = ["1z 7m@2 9m", "2z", "3z 4z", "7m 5z"]\n'
                 'melds = ["", "", "[777m]@0", ""]\n')
    code, out2, _ = run(capsys, "advise", "--position", str(f), "--json", "--no-danger")
    assert code == 0 and json.loads(out2) == got
    # the same as HAND with --visible
    code, out3, _ = run(capsys, "advise", "23345m111p456p99s6m", "--visible", "77779m12345z",
                        "--json")
    assert json.loads(out3)["discards"] == got["discards"]


@pytest.mark.parametrize("line, extra, match", [
    (_LINE, ["23345m111p456p99s6m"], "not both"),
    (_LINE, ["--visible", "1m"], "drop --visible"),
    # a position naming its ruleset and --rules naming another (a line naming none is
    # read under --rules: tests/test_cli.py)
    ("ruleset=mcr " + _LINE, ["--rules", "sichuan"], "under mcr"),
])
def test_position_conflicting_options(capsys, line, extra, match):
    code, _, err = run(capsys, "advise", "--position", line, *extra)
    assert code == 2 and match in err


def test_position_errors_are_one_line(capsys, tmp_path):
    code, _, err = run(capsys, "advise", "--position", "hand=23345m111p456p99s6m colour=red")
    assert code == 2 and "unknown position key 'colour'" in err
    code, _, err = run(capsys, "advise", "--position", str(tmp_path / "none.toml"))
    assert code == 2 and "cannot read" in err
    code, _, err = run(capsys, "advise")
    assert code == 2 and "HAND" in err


def test_policy_named_is_the_policy_used(capsys):
    # under the default method a named policy is played, and the line names it
    hand = "2225678p88s12466s"
    _, out0, _ = run(capsys, "advise", hand, "--rules", "sichuan", "--draws", "12")
    code, out, err = run(capsys, "advise", hand, "--rules", "sichuan", "--draws", "12",
                         "--policy", "greedy")
    assert code == 0 and err == ""
    line = next(x for x in out.splitlines() if x.startswith("probability"))
    assert "monte_carlo" in line and re.findall(r"policy ([^;|\n]+?)(?: \||$)", line) \
        == ["greedy"]
    assert rows(out) != rows(out0)


# ---------------------------------------------------------------- --model table
def test_model_table_gives_the_table_models_probabilities(capsys):
    code, out, err = run(capsys, "advise", "23345m111p456p99s6m", "--draws", "2",
                         "--model", "table", "--samples", "12", "--json")
    assert code == 0 and not err
    got = json.loads(out)
    assert got["probability"][0]["model"] == "table (engine Monte Carlo)"
    row = {r["discard"]: r for r in got["discards"]}
    est = majiang.win_probability("2345m111p456p99s6m", 2, model="table", n_samples=12, seed=0)
    assert row["3m"]["p_win"] == est.value
    code, out, _ = run(capsys, "advise", "23345m111p456p99s6m", "--draws", "2",
                       "--model", "table", "--samples", "12")
    assert code == 0 and "table (engine Monte Carlo)" in out and "±1SE" in out


@pytest.mark.parametrize("extra, match", [
    (["--model", "table"], "needs --draws"),
    (["--model", "table", "--draws", "2", "--visible", "1z"], "drop --visible"),
    (["--model", "table", "--draws", "2", "--policy", "greedy"], "drop --policy"),
    (["--draws", "2", "--samples", "5"], "give --model table"),
    (["--model", "table", "--draws", "2", "--samples", "0"], "at least 1"),
    (["--model", "tabel", "--draws", "2"], "invalid choice"),
])
def test_model_table_errors_are_one_line(capsys, extra, match):
    code, _, err = run(capsys, "advise", "23345m111p456p99s6m", *extra)
    assert code == 2 and match in err and "Traceback" not in err


def test_position_weighs_the_table_as_python_does(capsys):
    """advise --position gives majiang.advise(position)'s columns and order (ev by
    default, the seat's horizon), the verdict and the opponent model."""
    code, out, err = run(capsys, "advise", "--position", _LINE, "--json")
    assert code == 0 and not err
    got = json.loads(out)
    ref = majiang.advise(majiang.Position.from_text(_LINE), second_order=True)
    assert [r["discard"] for r in got["discards"]] == list(ref["discard"])
    for r, (_, q) in zip(got["discards"], ref.iterrows()):
        assert r["ev"] == pytest.approx(q["ev"]) and r["p_deal_in"] == pytest.approx(
            q["p_deal_in"])
    assert got["by"] == "ev" and got["push_or_fold"] == ref.attrs["push_or_fold"]
    code, out, _ = run(capsys, "advise", "--position", _LINE, "--by", "safety")
    assert code == 0 and "verdict  " + ref.attrs["push_or_fold"] in out
    assert "ranked   by safety" in out and "p_deal_in" in out and "opponents " in out
    code, _, err = run(capsys, "advise", "23345m111p456p99s6m", "--by", "ev")
    assert code == 2 and "give --position" in err


@pytest.mark.parametrize("hand", ["234m456p7789s1z*22z", "[234m]456p7789s1z*22z"])
def test_a_shape_complete_only_without_the_rules_is_not_called_complete(capsys, hand):
    # 武汉, 赖子 1z (indicator 4z): with both jokers wild 234m 456p 789s 77s 222z is a
    # complete shape, but a small win needs a 2/5/8 pair and at most one joker, so the
    # ruleset's shanten is 1 (the shanten line) and the note must not say "complete shape"
    code, out, _ = run(capsys, "advise", hand, "--rules", "wuhan", "--indicator", "4z")
    assert code == 0 and "shanten  1-shanten" in out
    line = next(x for x in out.splitlines() if "no win under wuhan" in x)
    assert line.startswith("no win under wuhan: a complete shape only without its shape "
                           "rules (by them 1-shanten); ")
    assert "complete shape but no win" not in out

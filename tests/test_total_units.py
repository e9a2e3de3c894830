"""The unit of a win's total (ScoringRule.unit: 番 "fan", "points", 台 "tai") matches each
ruleset's rule note, and every place that prints or labels a total says it in that unit
(score, advise / majiang.analysis "win now", the win predicate's reason, arena, simulate,
study)."""
from __future__ import annotations

import dataclasses
import re

import pytest

from majiang import check_win, rules
from majiang.analysis import completion
from majiang.cli import main
from majiang.errors import RuleError
from majiang.rules.points import UNITS, ScoringRule

# Hand-written from the rule notes (one page per ruleset in docs/rules/, the section named):
# "fan" where the values are 番 (added, doubled or multiplied), "points" where they are
# amounts (convention P of docs/rules/README.md "Value conventions"), "tai" for 台湾's added
# 台.  A ruleset with a points function ("custom") prints its total as a bare number
# whatever the unit.
NOTE_UNITS = {
    "anqing": ("fan", "anqing.md §5 Scoring (番): payment = (base 番 + pattern 番) x money"),
    "baoding": ("points", "baoding.md header: convention P (chips)"),
    "changsha": ("points", "changsha.md §2 Values: per paying player"),
    "changsha_zhuanzhuan": ("points", "changsha.md §2 Values"),
    "guangdong": ("fan", "guangdong.md §1: 番 doubled"),
    "guangdong_jipinghu": ("fan", "guangdong.md §2: 番 doubled"),
    "guannan": ("fan", "guannan.md §3: (底 + 风 + kongs) x 2^d, no single unit; kept 番"),
    "guizhou": ("points", "guizhou.md header: convention P (multiples of the base)"),
    "hainan": ("fan", "hainan.md §3: convention M (multipliers)"),
    "hainan_tuidao": ("fan", "hainan_tuidao.md: 海南's 番 sources and multipliers"),
    "hangzhou": ("fan", "hangzhou.md header: convention M (multipliers)"),
    "hebei": ("points", "hebei.md header: convention P, points add"),
    "hefei": ("points", "hefei.md §1 'Values (Changsha reading)', changsha.md §2"),
    "kawuxing": ("fan", "kawuxing.md: 番 / multipliers as powers of two, cap 16 番"),
    "lisi": ("points", "lisi.md §2 Settlement (convention P): 20 / 15 / 10 / 5"),
    "luoshan": ("fan", "luoshan.md: 和 x 2^台 (台 doublings; no single unit); kept 番"),
    "luoyuan": ("fan", "luoyuan.md: 番 = base + 花番 + 金"),
    "mcr": ("fan", "mcr.md §2: 番 that add, 8-番 minimum"),
    "mcr_botzone": ("fan", "mcr_botzone.md: Chinese Official 番"),
    "nanchang": ("fan", "nanchang.md header: convention M"),
    "nanjing": ("points", "nanjing.md header: convention P, counted in 花; §2 Scoring"),
    "nanjing_changkaitou": ("points", "nanjing.md header and §2"),
    "neimeng": ("fan", "neimeng.md §3: convention D, n 番 worth 2^n"),
    "plain": ("fan", "common.md §4: shapes only, no value table (one 和牌 of 1)"),
    "shandong": ("fan", "shandong.md §5 Fan table: 番"),
    "shanghai_baida": ("fan", "shanghai_baida.md header: convention M"),
    "shenyang": ("fan", "shenyang.md: N 番 scores 2^N"),
    "sichuan": ("fan", "sichuan.md header: 番 (multipliers, convention C)"),
    "sichuan_xueliu": ("fan", "sichuan.md"),
    "taiwan": ("tai", "taiwan.md §1 Scoring: 台 are added; 底 + 台 x the value of a 台"),
    "tianjin": ("points", "tianjin.md header: convention P, points add"),
    "wenzhou": ("fan", "wenzhou.md header: convention M"),
    "wuhan": ("points", "wuhan.md §2: point values small / big"),
    "xian": ("fan", "xian.md §5: multiples of one base"),
    "yunnan": ("fan", "yunnan.md header: convention D"),
}


def test_every_builtin_ruleset_is_in_the_table():
    assert set(NOTE_UNITS) == set(rules.BUILTIN_NAMES)


@pytest.mark.parametrize("name", sorted(NOTE_UNITS))
def test_unit_matches_the_rule_note(name):
    unit, _section = NOTE_UNITS[name]
    assert unit in UNITS
    assert rules.get(name).scoring.unit == unit


def test_unit_texts():
    assert ScoringRule(unit="tai").total_text(3) == "3 tai"
    assert ScoringRule(unit="points").total_text(2) == "2 points"
    assert ScoringRule().minimum_text(8) == "the 8-fan minimum"
    assert ScoringRule(unit="points").minimum_text(3) == "the 3-point minimum"
    assert ScoringRule(unit="tai").minimum_text(2) == "the 2-tai minimum"
    custom = ScoringRule(mode="custom", function="luoyuan", unit="points")
    assert custom.total_unit is None and custom.total_label == "value"
    assert custom.minimum_text(4) == "the minimum total of 4"
    assert ScoringRule(unit="tai").total_label == "tai"
    with pytest.raises(RuleError, match="fan, points, tai"):
        ScoringRule(unit="台")


# 长沙 (changsha.md §2): a 小胡 on a discard is 1 from the discarder; this hand has no 大胡
# (two suits, chows, a 5p pair): 1 point.  The same hand under MCR is counted in 番.
CS_HAND = "123m456m789m123p55p"


def test_win_now_is_in_the_ruleset_unit():
    cs = completion(CS_HAND, ruleset="changsha")
    assert cs.wins and cs.fan == 1
    assert cs.text.startswith("win now: 1 point (")
    mcr = completion(CS_HAND, ruleset="mcr")
    assert mcr.wins and re.match(r"win now: \d+ fan \(", mcr.text)


def run(capsys, *argv: str) -> str:
    code = main(list(argv))
    out = capsys.readouterr().out
    assert code == 0, out
    return out


def test_advise_prints_win_now_in_the_unit(capsys):
    out = run(capsys, "advise", CS_HAND, "--rules", "changsha")
    assert "win now: 1 point (" in out and " fan" not in out


def test_below_a_minimum_in_points(capsys):
    # a house 长沙 with a 2-point minimum: the 1-point 小胡 is refused, in points
    rs = dataclasses.replace(rules.get("changsha"), min_fan=2)
    chk = check_win("123m456m789m123p5p", "5p", ruleset=rs)
    assert not chk.valid
    assert chk.reason == "below the 2-point minimum of changsha (1 point)"
    assert "total 1 point  (below the 2-point minimum" in str(chk.result)


def test_score_prints_tai_under_taiwan(capsys):
    # 16 tiles: five chows and a pair (the number of 台 is the scorer's tests)
    out = run(capsys, "score", "123m456m789m123p456p7s", "--win", "7s", "--rules", "taiwan")
    assert re.search(r"^total    \d+ tai\b", out, re.M), out


def test_simulate_prints_the_tai_total(capsys):
    out = run(capsys, "simulate", "taiwan", "-n", "8", "--jobs", "1")
    assert "mean tai total of a win" in out and "fan total" not in out


def test_arena_labels_the_total_in_points(capsys):
    out = run(capsys, "arena", "efficiency", "efficiency", "random", "random",
              "--rules", "wuhan", "--walls", "1", "--jobs", "1")
    header = next(line for line in out.splitlines() if line.startswith("player"))
    assert "points/win" in header and "fan" not in header


def test_study_names_each_rulesets_unit(capsys):
    out = run(capsys, "study", "mcr", "wuhan", "-n", "6", "--jobs", "1")
    row = next(line for line in out.splitlines() if line.startswith("mean total"))
    cells = re.findall(r"\b(fan|points)\b", row)
    assert cells == ["fan", "points"], row


def test_claim_labels_the_win_in_points(capsys):
    # 长沙: the 5p on offer completes CS_HAND, a 小胡 on a discard: 1 point (§2)
    out = run(capsys, "claim", "ruleset=changsha hand=123m456m789m123p5p discards2=9s5p")
    header = next(line for line in out.splitlines() if line.startswith("rank"))
    assert header.split()[-1] == "points"
    win = next(line for line in out.splitlines() if line.split()[1:2] == ["win"])
    assert win.split()[-1] == "1"

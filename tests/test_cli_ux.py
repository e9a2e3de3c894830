"""What a fresh user of the command line tripped on: short usage errors, the unit of a
score's total, the statistics ``simulate`` prints, where the rule notes are."""
from __future__ import annotations

import json
import re

import pytest

from majiang.cli import SUBCOMMANDS, main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- usage errors
@pytest.mark.parametrize("argv, words", [
    (["simulate", "luoyuan", "-n", "abc"], "argument -n/--hands: invalid int value: 'abc'"),
    (["study", "mcr", "-n", "x"], "invalid int value: 'x'"),
    (["score", "123m"], "required: --win"),
    (["match", "mcr", "--hands", "1", "--rounds", "1"], "not allowed with"),
])
def test_a_usage_error_is_two_lines(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 2, err
    assert lines[0].startswith(f"usage: majiang {argv[0]} [options]")
    assert lines[1].startswith(f"majiang {argv[0]}: error: ") and words in lines[1]


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_every_command_names_its_positionals_in_the_short_usage(capsys, command):
    code, _, err = run(capsys, command, "--no-such-flag")
    assert code == 2
    first, second = err.splitlines()
    assert first.startswith(f"usage: majiang {command} [options]")
    assert second.endswith("--no-such-flag") or "required" in second
    code, out, _ = run(capsys, command, "--help")      # --help keeps the whole usage
    assert code == 0 and out.startswith(f"usage: majiang {command} [-h] ")


# ---------------------------------------------------------------- units of a total
# 武汉 (docs/rules/wuhan.md §2): 屁胡 5 points, its 3-番 minimum counted another way
WUHAN = ["score", "[234m]456p789s222s5m", "--win", "5m", "--rules", "wuhan"]


def test_wuhan_total_is_in_points_next_to_its_fan_minimum(capsys):
    code, out, _ = run(capsys, *WUHAN, "--seat-fan", "1", "--option", "min_fan=3")
    assert code == 0
    total = next(line for line in out.splitlines() if line.startswith("total"))
    assert total.startswith("total    5 points  (below the 3-番 minimum")
    assert " fan" not in total.split("(")[0]
    code, out, _ = run(capsys, *WUHAN, "--json")
    assert json.loads(out)["total_unit"] == "points"


def test_mcr_total_stays_in_fan(capsys):
    # only the unit is checked here (the fans are the scorer's tests)
    code, out, _ = run(capsys, "score", "123m456p789s1122z", "--win", "1z")
    assert code == 0
    assert re.search(r"^total    \d+ fan$", out, re.M)
    code, out, _ = run(capsys, "score", "123m456p789s1122z", "--win", "1z", "--json")
    assert json.loads(out)["total_unit"] == "fan"


def test_unit_is_checked_and_shown():
    from majiang import rules
    from majiang.errors import RuleError
    from majiang.rules.points import ScoringRule
    with pytest.raises(RuleError, match="unit"):
        ScoringRule(unit="番")
    assert ScoringRule().total_text(8) == "8 fan"
    assert ScoringRule(unit="points").total_text(1) == "1 point"
    assert ScoringRule(mode="custom", function="luoyuan").total_text(3) == "3"
    assert rules.describe(rules.get("wuhan"))["scoring"]["unit"] == "points"
    assert not rules.get("mcr").extended            # a unit changes no computation


# ---------------------------------------------------------------- simulate statistics
def _simulate(capsys, name: str, n: int = 30) -> str:
    code, out, err = run(capsys, "simulate", name, "-n", str(n), "--jobs", "1")
    assert code == 0, err
    return out


def test_luoyuan_simulate_prints_points_not_a_zero_fan_total(capsys):
    out = _simulate(capsys, "luoyuan")
    assert "fan total" not in out and "0.00 [0.00, 0.00]" not in out
    m = re.search(r"^mean points of a win +(\d+\.\d+)", out, re.M)
    assert m and float(m.group(1)) >= 1        # 罗源: every win is worth points


def test_simulate_prints_the_total_in_the_ruleset_unit(capsys):
    mcr = _simulate(capsys, "mcr", 12)
    assert "mean fan total of a win" in mcr and "mean points" not in mcr   # the same number
    wuhan = _simulate(capsys, "wuhan", 12)
    assert "fan total" not in wuhan and "mean points of a win" in wuhan
    sichuan = _simulate(capsys, "sichuan", 12)               # 番 double: both differ
    assert "mean fan total of a win" in sichuan and "mean points of a win" in sichuan


def test_changsha_fan_shares_overlap_and_say_so(capsys):
    """小胡 + 小胡自摸 add to more than 100 % because every 小胡自摸 win is also a 小胡 win
    (a self-drawn 小胡 scores both: 1 + 1, docs/rules/changsha.md §2); counted here from
    the hands themselves."""
    from majiang import rules
    from majiang.game import simulate
    from majiang.game.runner import SELF_DRAWN
    n = 40
    out = _simulate(capsys, "changsha", n)
    assert "a win can score several, so the shares overlap" in out
    table = simulate(rules.get("changsha"), n, seed=0, n_jobs=1)
    wins = [(t, {str(f[0]) for f in fans})
            for ts, per_win in zip(table["win_types"], table["fans"])
            for t, fans in zip(ts, per_win)]
    big = {f.chinese for f in rules.get("changsha").fans} - {"小胡", "小胡自摸"}
    small = [t for t, names in wins if not names & big]
    small_self = [t for t in small if t in SELF_DRAWN]
    assert small and small_self
    for t, names in wins:         # the partition: a win is 小胡 or has a 大胡, not both
        assert ("小胡" in names) != bool(names & big)
        assert ("小胡自摸" in names) == ("小胡" in names and t in SELF_DRAWN)

    def share(name):
        return float(re.search(rf"(?<!\S){name} [A-Za-z -]+? (\d+\.\d)%", out).group(1))
    assert share("小胡") == pytest.approx(round(100 * len(small) / len(wins), 1))
    assert share("小胡自摸") == pytest.approx(round(100 * len(small_self) / len(wins), 1))
    # the classes that do not overlap (小胡 wins, wins with a 大胡) are every win once
    assert len(small) + sum(bool(names & big) for _, names in wins) == len(wins)


# ---------------------------------------------------------------- rule notes
def test_rules_cite_notes_a_user_can_open(capsys):
    """`majiang rules --all` cited "majiang rule notes 'hefei' §1", a page that did not
    ship; now the citation names the command that prints it, and the command does."""
    code, out, _ = run(capsys, "rules", "--all")
    assert code == 0
    hefei = next(line for line in out.splitlines() if " hefei " in line)
    assert "rule notes 'hefei' §1 (majiang rules hefei --notes)" in hefei
    code, page, err = run(capsys, "rules", "hefei", "--notes")
    assert code == 0 and err == ""
    assert page.startswith("# §3.8 合肥麻将 (Hefei)")
    assert "## 1." in page                                 # the §1 the citation names


def test_every_cited_page_prints(capsys):
    from majiang import rules
    from majiang.rules.notes import page_of, pages
    listed = pages()
    assert {"sichuan", "common", "hefei"} <= set(listed) and "README" not in listed
    for name in rules.BUILTIN_NAMES:
        page = page_of(rules.get(name))
        assert page in listed, name
        code, out, _ = run(capsys, "rules", name, "--notes")
        assert code == 0 and out.startswith("# "), name


def test_notes_errors(capsys):
    code, _, err = run(capsys, "rules", "nosuch", "--notes")
    assert code == 2 and "neither a ruleset nor a rule-notes page" in err and "sichuan" in err
    code, _, err = run(capsys, "rules", "sichuan", "--notes", "--toml")
    assert code == 2 and "leave out --toml" in err
    code, out, _ = run(capsys, "rules", "--notes")
    assert code == 0 and "common" in out


def test_the_packaged_copy_is_read_first(monkeypatch, tmp_path):
    from majiang.rules import notes
    (tmp_path / "sichuan.md").write_text("# packaged copy\n", encoding="utf-8")
    monkeypatch.setattr(notes, "PACKAGED", tmp_path)
    assert notes.notes_dir() == tmp_path and notes.notes_text("sichuan") == "# packaged copy\n"
    monkeypatch.setattr(notes, "PACKAGED", tmp_path / "missing")
    monkeypatch.setattr(notes, "CHECKOUT", tmp_path / "missing")
    from majiang.errors import RuleError
    with pytest.raises(RuleError, match="not in this installation"):
        notes.notes_text("sichuan")


def test_setup_ships_the_rule_notes(monkeypatch, tmp_path):
    """setup.py copies docs/rules/*.md into the built package's data/rule_notes (where
    majiang.rules.notes.PACKAGED looks), and MANIFEST.in puts them in the sdist.  Run with
    the build tools stubbed: only the copying is checked here, not a whole build."""
    import runpy
    import sys
    import types
    from pathlib import Path

    import setuptools
    from majiang.rules import notes
    root = Path(__file__).resolve().parents[1]
    cython = types.ModuleType("Cython")
    build = types.ModuleType("Cython.Build")
    build.cythonize = lambda *a, **k: []
    monkeypatch.setitem(sys.modules, "Cython", cython)
    monkeypatch.setitem(sys.modules, "Cython.Build", build)
    monkeypatch.setattr(setuptools, "setup", lambda **kw: kw)
    ns = runpy.run_path(str(root / "setup.py"), run_name="setup_under_test")
    copied = ns["copy_rule_notes"](str(tmp_path))
    dest = tmp_path / "majiang" / "data" / "rule_notes"
    assert len(copied) == len(list((root / "docs" / "rules").glob("*.md"))) > 30
    assert (dest / "hefei.md").read_text(encoding="utf-8") == \
        (root / "docs" / "rules" / "hefei.md").read_text(encoding="utf-8")
    assert notes.PACKAGED.relative_to(notes.PACKAGED.parents[1]) == Path("data/rule_notes")
    assert "include docs/rules/*.md" in (root / "MANIFEST.in").read_text(encoding="utf-8")


# ---------------------------------------------------------------- side payments (南昌 冲关)
def test_simulate_names_the_side_payments_nanchang_chong_guan(capsys):
    """南昌 冲关 (docs/rules/nanchang.md §2: from s = 2 正精 + 副精 >= 5 the 精分 is
    s(s - 3)) is named where it is paid, and simulate lists the payments outside the
    win's points; the shares counted here from the hands' own payments."""
    from majiang import rules
    from majiang.game import simulate
    n, seed = 40, 2
    table = simulate(rules.get("nanchang"), n, seed=seed, n_jobs=1)
    hands_with = {}
    for checks in table["end_checks"]:
        for name in {c["check"] for c in checks}:
            hands_with[name] = hands_with.get(name, 0) + 1
    assert hands_with.get("冲关", 0) >= 1 and hands_with.get("精分", 0) >= 1
    for checks in table["end_checks"]:       # a 冲关 is paid s(s - 3) >= 10 (s >= 5)
        assert all(c["amount"] >= 10 for c in checks if c["check"] == "冲关")
    code, out, err = run(capsys, "simulate", "nanchang", "-n", str(n), "--seed", str(seed),
                         "--jobs", "1")
    assert code == 0, err
    lines = out.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("side payments"))
    for name, k in hands_with.items():
        assert f"{name} {100 * k / n:.1f}%" in lines[i + 1], (name, lines[i + 1])
    code, out, _ = run(capsys, "simulate", "nanchang", "-n", str(n), "--seed", str(seed),
                       "--jobs", "1", "--json")
    got = {c["check"]: c["hands"] for c in json.loads(out)["side_payments"]}
    assert got == hands_with


def test_simulate_without_side_payments_prints_no_such_line(capsys):
    out = _simulate(capsys, "mcr", 8)
    assert "side payments" not in out


# 南昌, indicator 9p: 正精 9p (the turned kind), 副精 1p (the next); s = 2 正精 + 副精,
# 冲关 from s >= 5 pays s(s - 3): 5 -> 10, 8 -> 40 (docs/rules/nanchang.md §2)
NANCHANG = ["--rules", "nanchang", "--indicator", "9p"]


def _end_note(capsys, *argv):
    code, out, err = run(capsys, "score", *argv, "--json")
    assert code == 0, err
    return json.loads(out)["end_note"]


def test_score_names_chong_guan_of_the_winner(capsys):
    note = _end_note(capsys, "99p1p234m567m345s5s", "--win", "5s", *NANCHANG)
    assert "2 正精 + 1 副精, s = 5: 冲关 5 x 2 = 10 from each other player" in note
    assert "冲关包赔" not in note                       # every 精 is his own draw
    code, out, _ = run(capsys, "score", "99p1p234m567m345s5s", "--win", "5s", *NANCHANG)
    assert any(line.startswith("note     精分") and "冲关" in line for line in out.splitlines())


def test_score_names_chong_guan_bao_for_a_claimed_jing(capsys):
    # a claimed pung of 9p (正精) and the 1p won on a discard: 3 正精 + 2 副精, s = 8
    note = _end_note(capsys, "[999p]1p234m567m345s", "--win", "1p", *NANCHANG)
    assert "s = 8: 冲关 8 x 5 = 40" in note and "冲关包赔" in note
    note = _end_note(capsys, "[999p]1p234m567m345s", "--win", "1p", "--self-drawn",
                     *NANCHANG, "--option", "chong_guan_bao=false")
    assert "s = 8: 冲关 8 x 5 = 40" in note and "冲关包赔" not in note
    # a concealed kong of 正精, self-drawn: nothing taken from anyone
    note = _end_note(capsys, "1p234m567m345s{9999p}", "--win", "1p", "--self-drawn",
                     *NANCHANG)
    assert "4 正精 + 2 副精, s = 10: 冲关 10 x 7 = 70" in note and "冲关包赔" not in note


def test_score_end_note_only_where_known(capsys):
    assert _end_note(capsys, "123p234m567m345s5s", "--win", "5s", *NANCHANG).startswith(
        "精分 at the hand's end, besides this payment: the winner's 0 正精 + 1 副精, s = 1: 1 ")
    assert _end_note(capsys, "123p234m567m345s5s", "--win", "5s", "--rules",
                     "nanchang") is None                # no indicator: 精 unknown
    assert _end_note(capsys, "123p234p567m345m5m", "--win", "5m", "--rules",
                     "sichuan") is None                 # no end-of-hand settlement


def test_messages_name_the_right_thing(capsys, tmp_path):
    # --plot under a file that is no folder: not "does not exist"
    from majiang.cli._common import CommandError, check_plot_path
    with pytest.raises(CommandError, match=r"/dev/null is not a folder"):
        check_plot_path("/dev/null/a.png")
    with pytest.raises(CommandError, match=r"folder \S+ does not exist"):
        check_plot_path(str(tmp_path / "missing" / "a.png"))
    # starting_hand_shanten's parameter is n
    import majiang
    from majiang.errors import RuleError
    with pytest.raises(RuleError, match=r"^n must be a positive integer, got -5"):
        majiang.starting_hand_shanten(-5)
    # score counts the hand before the winning tile: 13, not "13 or 14"
    code = main(["score", "123m456p789s", "--win", "5m"])
    err = capsys.readouterr().err
    assert code == 2 and "BEFORE the winning tile (13 tiles" in err and "got 9" in err
    assert "13 or 14" not in err

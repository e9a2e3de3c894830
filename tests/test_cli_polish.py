"""Command-line polish reported by a first-time user: notes of the probability model
shown, the 2-step legend, Ctrl-C with --out, --plot checked first, CLI wording of
flower / duplicate-ruleset errors, ``score --rules``, plurals, progress bars only on
a terminal."""
from __future__ import annotations

import json
import os

import pytest

from majiang.cli import main
from majiang.cli import _common as C
from majiang.cli.advise import NOT_COMPUTED, plot_title, two_step_cell

CLOSED = "23345m111p456p99s6m"         # no claimed meld: wuhan needs one (开口) to win


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _table(out: str) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the advise text table (lines from 'rank' to the first
    line that does not start with a rank number)."""
    lines = out.splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.startswith("rank"))
    head = lines[i].split()
    rows = []
    for ln in lines[i + 1:]:
        parts = ln.split()
        if not parts or not parts[0].isdigit():
            break
        rows.append(parts)
    return head, rows


# 1. the probability notes ---------------------------------------------------------

def test_closed_hand_under_wuhan_says_why_p_win_is_zero(capsys):
    code, out, err = run(capsys, "advise", CLOSED, "--rules", "wuhan", "--indicator", "1z",
                         "--draws", "3")
    assert code == 0, err
    head, rows = _table(out)
    pw = head.index("p_win")
    assert rows and all(float(r[pw]) == 0.0 for r in rows)
    notes = [ln for ln in out.splitlines() if ln.startswith("note")]
    assert any("a closed hand cannot win under wuhan" in n for n in notes)
    # the notes come under the table, not above it
    assert out.index("note ") > out.index("rank")


def test_json_carries_the_notes(capsys):
    code, out, err = run(capsys, "advise", CLOSED, "--rules", "wuhan", "--indicator", "1z",
                         "--draws", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert any("a closed hand cannot win under wuhan" in n["note"] for n in data["notes"])
    named = {d for n in data["notes"] for d in n["discards"]}
    assert named <= {r["discard"] for r in data["discards"]}


def test_notes_empty_without_draws(capsys):
    code, out, _ = run(capsys, "advise", CLOSED, "--json")
    assert code == 0 and json.loads(out)["notes"] == []


# 2. the 2-step column -----------------------------------------------------------

def test_two_step_cell_rule():
    assert two_step_cell(3.5, 1) == 3.5
    assert two_step_cell(float("nan"), 0) is None          # tenpai: '-'
    assert two_step_cell(float("nan"), None) is None       # no arrangement: '-'
    assert two_step_cell(float("nan"), 2) == NOT_COMPUTED
    assert two_step_cell(None, 1) == NOT_COMPUTED


def test_two_step_not_computed_is_told_apart_from_tenpai(capsys):
    # 2m/3m/6m keep tenpai; the others are 1-shanten (a 2-5-8 pair already held)
    code, out, err = run(capsys, "advise", "23345m111p456p22s6m", "--rules", "changsha")
    assert code == 0, err
    head, rows = _table(out)
    sh, two = head.index("shanten"), head.index("2-step")
    assert {r[sh] for r in rows} == {"0", "1"}
    for r in rows:
        assert r[two] == ("-" if r[sh] == "0" else NOT_COMPUTED)
    # the plain forms compute it: numbers, never n/a
    code, out, _ = run(capsys, "advise", "23345m111p456p22s6m")
    head, rows = _table(out)
    assert all(r[head.index("2-step")] != NOT_COMPUTED for r in rows)
    assert any(r[head.index("2-step")] not in ("-", NOT_COMPUTED) for r in rows)


def test_help_explains_both_markers(capsys):
    code, out, _ = run(capsys, "advise", "--help")
    assert code == 0
    flat = " ".join(out.split())
    assert '"-" when already tenpai' in flat and '"n/a" when not computed' in flat


# 3. Ctrl-C with --out -----------------------------------------------------------

@pytest.mark.parametrize("cmd,sub", [("simulate", ""), ("study", "mcr")])
def test_ctrl_c_says_what_is_saved_and_how_to_resume(capsys, tmp_path, monkeypatch, cmd,
                                                     sub):
    from majiang.game import store

    real = store.write_part
    calls = []

    def interrupt_on_second(*a, **k):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(store, "write_part", interrupt_on_second)
    out_dir = tmp_path / "run"
    argv = [cmd, "mcr", "-n", "3", "--chunk-size", "1", "--jobs", "1", "--no-progress",
            "--out", str(out_dir)]
    code, out, err = run(capsys, *argv)
    assert code == 130
    parts = [n for n in os.listdir(out_dir / sub) if n.endswith(".parquet")]
    assert len(parts) == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert f"1 chunk (1 hand) saved in {out_dir}" in lines[0]
    assert "run the same command again to resume" in lines[0]
    # and it does resume: only the missing chunks are played
    monkeypatch.setattr(store, "write_part", real)
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert len([n for n in os.listdir(out_dir / sub) if n.endswith(".parquet")]) == 3


def test_ctrl_c_without_out_prints_nothing(capsys, monkeypatch):
    import majiang.game

    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(majiang.game, "simulate", interrupted)
    code, out, err = run(capsys, "simulate", "mcr", "-n", "3", "--jobs", "1")
    assert code == 130 and out == "" and err == ""


# 4. --plot checked before computing ----------------------------------------------

def test_advise_bad_plot_folder_fails_before_the_table(capsys, tmp_path, monkeypatch):
    import majiang.analysis

    def never(*a, **k):
        raise AssertionError("advise computed before the --plot path was checked")

    monkeypatch.setattr(majiang.analysis, "advise", never)
    bad = tmp_path / "missing" / "x.png"
    code, out, err = run(capsys, "advise", CLOSED, "--draws", "3", "--plot", str(bad))
    assert code == 2 and out == ""
    assert f"folder {tmp_path / 'missing'} does not exist" in err


def test_study_bad_plot_fails_before_playing(capsys, tmp_path, monkeypatch):
    import majiang.studies

    def never(*a, **k):
        raise AssertionError("hands played before the --plot path was checked")

    monkeypatch.setattr(majiang.studies, "compare_rulesets", never)
    code, out, err = run(capsys, "study", "mcr", "-n", "2", "--plot",
                         str(tmp_path / "missing" / "x.png"))
    assert code == 2 and out == "" and "does not exist" in err
    code, out, err = run(capsys, "study", "mcr", "-n", "2", "--plot",
                         str(tmp_path / "x.notaformat"))
    assert code == 2 and "unknown image format .notaformat" in err
    code, out, err = run(capsys, "study", "mcr", "-n", "2", "--plot", str(tmp_path))
    assert code == 2 and "is a folder" in err


def test_good_plot_path_passes(tmp_path):
    C.check_plot_path(str(tmp_path / "curves.png"))
    C.check_plot_path(str(tmp_path / "curves.svg"))
    C.check_plot_path(str(tmp_path / "curves"))     # no extension: matplotlib's default


# 5. CLI wording of errors -------------------------------------------------------

def test_flower_as_visible_tile(capsys):
    code, out, err = run(capsys, "advise", CLOSED, "--visible", "1f")
    assert code == 2
    assert "--visible" in err and "flowers cannot be visible tiles" in err
    assert "parse_hand" not in err
    code, out, err = run(capsys, "shanten", "123456789m123p5p", "--visible", "1m1f")
    assert code == 2 and "flowers cannot be visible tiles" in err and "parse_hand" not in err


def test_flower_as_indicator(capsys):
    code, out, err = run(capsys, "advise", CLOSED, "--rules", "wuhan", "--indicator", "1f")
    assert code == 2
    assert "--indicator" in err and "flowers cannot be an indicator" in err
    assert "parse_hand" not in err


def test_other_notation_errors_unchanged(capsys):
    code, out, err = run(capsys, "advise", CLOSED, "--visible", "1x")
    assert code == 2 and "no suit letter" in err


def test_study_same_ruleset_twice(capsys, monkeypatch):
    import majiang.studies

    def never(*a, **k):
        raise AssertionError("hands played for a duplicate ruleset")

    monkeypatch.setattr(majiang.studies, "compare_rulesets", never)
    code, out, err = run(capsys, "study", "mcr", "mcr", "-n", "2")
    assert code == 2
    assert "a ruleset is named twice: mcr" in err
    assert "dict" not in err and "{label" not in err


# 6. score --rules ---------------------------------------------------------------

def test_score_usage_says_rules(capsys):
    main(["score", "--help"])
    out = capsys.readouterr().out
    usage = out.split("\n\n")[0]
    assert "--rules NAME|FILE" in usage and "--ruleset" not in usage


def test_score_ruleset_alias_still_works(capsys):
    hand = ["1122334455667p", "--win", "7p", "--self-drawn"]
    a = run(capsys, "score", *hand, "--rules", "sichuan", "--json")
    b = run(capsys, "score", *hand, "--ruleset", "sichuan", "--json")
    assert a[0] == b[0] == 0 and a[1] == b[1]
    assert json.loads(a[1])["ruleset"] == "sichuan"


# 7. plurals ---------------------------------------------------------------------

def test_plural():
    assert C.plural(1, "kind") == "1 kind"
    assert C.plural(0, "kind") == "0 kinds"
    assert C.plural(2, "live tile") == "2 live tiles"


def test_shanten_one_kind(capsys):
    # 123m456m789m123p + 5p: a single wait on 5p, 3 copies unseen
    code, out, err = run(capsys, "shanten", "123456789m123p5p")
    assert code == 0, err
    assert "3 live tiles in 1 kind:" in out
    code, out, err = run(capsys, "shanten", "123456789m123p5p", "--visible", "5p5p")
    assert "1 live tile in 1 kind:" in out
    assert "1 kinds" not in out and "1 live tiles" not in out


def test_plot_title_one_draw():
    from majiang.hand import parse_hand

    assert plot_title(parse_hand(CLOSED), 1).endswith("within 1 draw")
    assert plot_title(parse_hand(CLOSED), 18).endswith("within 18 draws")


def test_simulate_one_hand_plurals(capsys):
    code, out, err = run(capsys, "simulate", "mcr", "-n", "1", "--jobs", "1")
    assert code == 0, err
    line = next(ln for ln in out.splitlines() if ln.startswith("hands"))
    assert "1 hands" not in line and "1 wins" not in line


# 8. progress bars only on a terminal --------------------------------------------

def _opts(*extra):
    import argparse

    p = argparse.ArgumentParser()
    C.add_run_args(p, hands=10, out_help="x")
    return C.run_options(p.parse_args(list(extra)))[1]


def test_progress_default_follows_the_terminal(monkeypatch):
    class Tty:
        def isatty(self):
            return True

    class File:
        def isatty(self):
            return False

    monkeypatch.setattr("sys.stderr", File())
    assert _opts()["progress"] is False
    assert _opts("--progress")["progress"] is True
    monkeypatch.setattr("sys.stderr", Tty())
    assert _opts()["progress"] is True
    assert _opts("--no-progress")["progress"] is False


def test_no_bar_into_a_file_unless_forced(capsys, monkeypatch):
    from majiang.game import runner

    monkeypatch.setattr(runner, "_PROGRESS_DELAY", 0.0)     # show the bar at once
    code, out, err = run(capsys, "simulate", "mcr", "-n", "4", "--jobs", "1")
    assert code == 0 and err == ""                          # capsys' stderr: not a tty
    code, out, err = run(capsys, "simulate", "mcr", "-n", "4", "--jobs", "1", "--progress")
    assert code == 0 and "simulate mcr" in err


def test_probability_notes_merge_clauses_that_differ_in_numbers():
    import pandas as pd
    from majiang.cli.advise import probability_notes
    table = pd.DataFrame({"discard": ["1p", "2m", "6m", "9s"],
                          "note": ["rule #1 holds; 151 of 20000 walls played",
                                   "rule #1 holds; 151 of 20000 walls played",
                                   "rule #1 holds; 242 of 20000 walls played",
                                   None]})
    assert probability_notes(table) == [
        {"note": "rule #1 holds", "discards": ["1p", "2m", "6m"]},
        {"note": "151–242 of 20000 walls played", "discards": ["1p", "2m", "6m"]}]

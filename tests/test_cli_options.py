"""``--option KEY=VALUE``: a ruleset's build options on the command line, read as a
house-rule file reads them (majiang.rules.toml.option_value / with_options)."""
from __future__ import annotations

import json

import pytest

from majiang import rules
from majiang.cli import build_parser, main
from majiang.rules.toml import option_value, with_options

# 武汉: an opened hand (开口: 1 personal 番) waiting on 5m for the 将 (pair); a 屁胡,
# 5 points, 0 hand 番 (docs/rules/wuhan.md §2: HZ counts 1 番 per 大胡 pattern, 0 for a
# 屁胡, plus the winner's personal 番).  With --seat-fan N the count is 0 + 1 + N.
WUHAN = ["score", "[234m]456p789s222s5m", "--win", "5m", "--rules", "wuhan"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code: int, err: str, *needles: str) -> None:
    assert code == 2
    assert err.startswith("majiang: error: --option") and err.count("\n") == 1, err
    for n in needles:
        assert n in err, err


@pytest.mark.parametrize("text, value", [
    ("3", 3), ("0", 0), ("true", True), ("false", False), ("1.5", 1.5),
    ("double", "double"), ('"double"', "double"), ("none", "none"), ("[1, 2]", [1, 2]),
    (' "two words" ', "two words"), ("a\nb = 1", "a\nb = 1"),
])
def test_values_read_as_a_house_rule_file_reads_them(text, value):
    got = option_value(text)
    assert got == value and type(got) is type(value)


def test_every_command_that_takes_a_ruleset_takes_option():
    parser = build_parser()
    takes = set()
    for name, sub in parser.subcommand_parsers.items():
        flags = {s for a in sub._actions for s in a.option_strings}
        positional = {a.dest for a in sub._actions if not a.option_strings}
        if ("--rules" in flags or {"ruleset", "rulesets", "position"} & positional
                or name == "rules"):
            assert "--option" in flags, name
            takes.add(name)
    assert takes == {"advise", "danger", "shanten", "score", "simulate", "match", "arena",
                     "study", "claim", "rules"}


def test_min_fan_option_in_score_hand_worked(capsys):
    code, out, _ = run(capsys, *WUHAN, "--seat-fan", "1")
    assert code == 0 and "payment  E +5  S -5" in out          # no minimum by default
    code, out, _ = run(capsys, *WUHAN, "--seat-fan", "1", "--option", "min_fan=3")
    assert code == 0 and "not a win" in out and "= 2" in out   # 0 + 1 + 1 < 3
    code, out, _ = run(capsys, *WUHAN, "--seat-fan", "2", "--option", "min_fan=3")
    assert code == 0 and "payment  E +5  S -5" in out          # 0 + 1 + 2 = 3


def test_flag_and_file_build_the_same_ruleset(capsys, tmp_path):
    path = tmp_path / "hz.toml"
    path.write_text('base = "wuhan"\n[options]\nmin_fan = 3\n', encoding="utf-8")
    by_file = run(capsys, *WUHAN[:-1], str(path), "--seat-fan", "1", "--json")
    by_flag = run(capsys, *WUHAN, "--seat-fan", "1", "--option", "min_fan=3", "--json")
    a, b = (json.loads(out.replace("wuhan+house", "wuhan")) for _, out, _ in (by_file, by_flag))
    assert a["settlement"] is None and b["settlement"] is None
    assert {k: v for k, v in a.items() if k != "ruleset"} == \
        {k: v for k, v in b.items() if k != "ruleset"}
    # the flag wins over the file's value
    code, out, _ = run(capsys, *WUHAN[:-1], str(path), "--seat-fan", "1",
                       "--option", "min_fan=0")
    assert code == 0 and "payment  E +5  S -5" in out


def test_later_option_wins_and_words_need_no_quotes(capsys):
    code, out, _ = run(capsys, *WUHAN, "--seat-fan", "1", "--option", "min_fan=3",
                       "--option", "min_fan=2", "--option", "personal=none")
    assert code == 0 and "payment  E +5  S -5" in out          # 2 >= 2


def test_unknown_key_names_the_valid_ones(capsys):
    code, _, err = run(capsys, *WUHAN, "--option", "min_fans=3")
    one_line_error(code, err, "'min_fans'", "small, big, personal, concealed_kong_fan, cap, "
                                            "min_fan")


def test_option_without_equals(capsys):
    code, _, err = run(capsys, *WUHAN, "--option", "min_fan")
    one_line_error(code, err, "KEY=VALUE", "min_fan=VALUE", "the options of wuhan")


def test_bad_value(capsys):
    code, _, err = run(capsys, *WUHAN, "--option", "min_fan=abc")
    one_line_error(code, err, "min_fan", "'abc'", "the options of wuhan")
    code, _, err = run(capsys, *WUHAN, "--option", "min_fan=True")    # read as true
    one_line_error(code, err, "min_fan", "got True")


def test_ruleset_without_options(capsys):
    code, _, err = run(capsys, "score", "123m456p789s111z2z", "--win", "2z", "--rules",
                       "plain", "--option", "x=1")
    one_line_error(code, err, "plain takes no options")


def test_cap_none_as_in_a_file():
    sichuan = rules.get("sichuan")
    assert sichuan.scoring.cap is not None
    assert with_options(sichuan, cap="none").scoring.cap is None
    assert rules.loads('base = "sichuan"\n[options]\ncap = "none"\n').scoring.cap is None


def test_match_plays_the_option(capsys):
    from majiang.game import play_match
    code, out, err = run(capsys, "match", "changsha", "--hands", "4", "--option", "birds=0",
                         "--json")
    assert code == 0, err
    rs = with_options(rules.get("changsha"), birds=0)
    df = play_match(rs, None, hands=4, seed=0)
    assert json.loads(out)["hands"][-1]["scores"] == [int(x) for x in df["scores"].iloc[-1]]
    code, _, err = run(capsys, "simulate", "changsha", "-n", "2", "--option", "bird=0")
    one_line_error(code, err, "'bird'", "birds")


def test_shanten_and_danger_take_option(capsys):
    code, _, err = run(capsys, "shanten", "123m456p789s11z22z", "--option", "bogus=1")
    one_line_error(code, err, "'bogus'", "the options of mcr")
    code, _, err = run(capsys, "danger", "123m456p789s11z22z", "--rules", "sichuan",
                       "--option", "bogus=1")
    one_line_error(code, err, "'bogus'", "the options of sichuan")


def _printed_options(rs) -> list[str]:
    """The ``KEY=VALUE`` texts of the ``options`` line ``majiang rules NAME`` prints."""
    import re
    line = next(x for x in rules.describe_lines(rs) if x.startswith("options  "))
    given = line.removeprefix("options  ").split(" (and from them: ")[0]
    return re.split(r", (?=\w+=)", given)


def test_every_printed_option_value_is_read_back_by_option():
    # majiang rules NAME prints cap=None for wuhan once; --option cap=None then failed
    from majiang.cli._rule_options import with_cli_options
    checked = 0
    for name in rules.available():
        rs = rules.get(name)
        if not rs.options:
            continue
        for text in _printed_options(rs):
            key = text.partition("=")[0]
            again = with_cli_options(rs, [text])
            got, want = again.options[key], rs.options[key]
            assert (list(got) if isinstance(got, tuple) else got) == (
                list(want) if isinstance(want, tuple) else want), (name, text)
            checked += 1
    assert checked > 150


@pytest.mark.parametrize("text", ["cap=None", "cap=none"])
def test_no_cap_written_either_way(capsys, text):
    # 清一色 七对 self-drawn in 四川: 1 + 2 + 1 = 4 fan over the default cap of 3
    argv = ["score", "1122334455667p", "--win", "7p", "--self-drawn", "--rules", "sichuan"]
    # (docs/rules/sichuan.md): 2^4 = 16 uncapped, 2^3 = 8 under the cap; 自摸加底 +1 each
    code, out, err = run(capsys, *argv)
    assert code == 0 and "points   8  (capped" in out and "E +27" in out, out
    code, out, err = run(capsys, *argv, "--option", text)
    assert code == 0, err
    assert "points   16\n" in out and "E +51  S -17" in out, out


@pytest.mark.parametrize("text, value", [("True", True), ("False", False), ("(1, 2)", [1, 2])])
def test_python_spellings_read(text, value):
    assert option_value(text) == value


def test_none_is_none_only_where_the_option_takes_none():
    from majiang.cli._rule_options import with_cli_options
    assert with_cli_options(rules.get("sichuan"), ["tiandi=None"]).options["tiandi"] is None
    assert with_cli_options(rules.get("sichuan"), ["tiandi=true"]).options["tiandi"] is True
    g = with_cli_options(rules.get("guizhou"), ["ting_values=none"])
    assert g.options["ting_values"] == "none"


def test_study_option_applies_to_each_ruleset_that_takes_it():
    from majiang.cli._common import CommandError
    from majiang.cli._rule_options import load_rulesets
    wuhan, sichuan = load_rulesets(["wuhan", "sichuan"], ["min_fan=3", "cap=none"])
    assert wuhan.options["min_fan"] == 3 and wuhan.options["cap"] is None
    assert sichuan.options["cap"] is None and "min_fan" not in sichuan.options
    assert rules.get("sichuan").options["cap"] == 3
    with pytest.raises(CommandError, match="no ruleset given takes option 'foo'"):
        load_rulesets(["wuhan", "sichuan"], ["foo=1"])


def test_rules_name_takes_option(capsys):
    code, out, _ = run(capsys, "rules", "wuhan", "--option", "min_fan=3")
    assert code == 0 and "min_fan=3" in out
    code, out, _ = run(capsys, "rules", "wuhan", "--option", "min_fan=3", "--toml")
    assert code == 0 and "min_fan = 3" in out
    code, _, err = run(capsys, "rules", "--all", "--option", "min_fan=3")
    assert code == 2 and "give NAME|FILE" in err


def test_claim_takes_option(capsys):
    pos = "ruleset=sichuan hand=1155m234p678s123m discards2=9s5m"
    code, out, err = run(capsys, "claim", pos, "--json", "--option", "cap=none")
    assert code == 0, err
    code, _, err = run(capsys, "claim", pos, "--option", "min_fan=3")
    assert code == 2 and "unknown option 'min_fan'" in err and "sichuan" in err


def test_claim_option_without_ruleset_in_the_position(capsys):
    # no ruleset= in the position: the option applies to Chinese Official rules, whose
    # builder has no cap (this raised AttributeError on None before)
    pos = "hand=1155m234p678s123z discards2=9s5m"
    code, _, err = run(capsys, "claim", pos, "--option", "cap=3")
    one_line_error(code, err, "unknown option 'cap'", "the options of mcr")


def test_label_names_the_changed_options():
    from majiang.rules.toml import label
    assert label(rules.get("wuhan")) == "wuhan"
    assert label(with_options(rules.get("wuhan"), min_fan=3)) == "wuhan[min_fan=3]"
    assert label(with_options(rules.get("wuhan"), min_fan=0)) == "wuhan"      # the default
    # xueliu=true is what the name sichuan_xueliu says; the cap is not
    assert label(with_options(rules.get("sichuan"), xueliu=True)) == "sichuan_xueliu"
    assert (label(with_options(rules.get("sichuan"), xueliu=True, cap=None))
            == "sichuan_xueliu[cap=none]")
    assert with_options(rules.get("wuhan"), min_fan=3).name == "wuhan"   # the registry key


def test_simulate_header_shows_the_options(capsys):
    argv = ["simulate", "wuhan", "-n", "4", "--seed", "1", "--jobs", "1"]
    code, out, _ = run(capsys, *argv)
    assert code == 0 and out.startswith("ruleset  wuhan; ")
    code, out, _ = run(capsys, *argv, "--option", "min_fan=3")
    assert code == 0 and out.startswith("ruleset  wuhan[min_fan=3]; ")


@pytest.mark.parametrize("need", [1, 3, 5])
def test_rules_prints_the_minimum_the_win_check_uses(need):
    # 武汉's minimum is option min_fan, read by its own check (rs.min_fan stays 0)
    from majiang.rules import loads
    from majiang.rules.summary import describe_lines
    for rs in (with_options(rules.get("wuhan"), min_fan=need),
               loads(f'base = "wuhan"\nname = "hz{need}"\n[rules]\nmin_fan = {need}\n'),
               loads(f'base = "wuhan"\nname = "hzo{need}"\n[options]\nmin_fan = {need}\n')):
        win = next(x for x in describe_lines(rs) if x.startswith("win "))
        assert win.endswith(f"minimum {need} 番 (hand 番 + personal 番)"), win
    assert next(x for x in describe_lines(rules.get("wuhan"))
                if x.startswith("win ")).endswith("minimum 0")


def test_minimum_note_when_every_p_win_is_zero():
    import pandas as pd

    from majiang.cli.advise import minimum_note
    hz3 = with_options(rules.get("wuhan"), min_fan=3)
    zero = pd.DataFrame({"discard": ["7s", "2z"], "p_tenpai": [0.9, 0.7], "p_win": [0.0, 0.0]})
    got = minimum_note(zero, hz3, 6)
    assert got["discards"] == ["7s", "2z"]
    assert "wuhan[min_fan=3] must reach 3 番 (hand 番 + personal 番)" in got["note"]
    assert "8 fan" in minimum_note(zero, None, 6)["note"]          # Chinese Official: 8
    assert minimum_note(zero, rules.get("sichuan"), 6) is None     # no minimum: no note
    assert minimum_note(zero, hz3, None) is None                   # no --draws
    some = zero.assign(p_win=[0.0, 0.01])
    assert minimum_note(some, hz3, 6) is None
    never_ready = zero.assign(p_tenpai=[0.0, 0.0])                 # not the minimum's doing
    assert minimum_note(never_ready, hz3, 6) is None


def test_advise_notes_the_minimum(capsys):
    argv = ["advise", "[234m]456p7789s1z*22z", "--rules", "wuhan", "--indicator", "4z",
            "--draws", "6"]
    code, out, _ = run(capsys, *argv, "--option", "min_fan=3")
    assert code == 0 and "note     every p_win is 0: a win under wuhan[min_fan=3]" in out
    code, out, _ = run(capsys, *argv)
    assert code == 0 and "every p_win is 0" not in out


def test_advise_position_applies_the_option_to_the_position_ruleset(capsys, tmp_path):
    # --option changes the ruleset the position plays, as a house-rule file naming the
    # same change does: wuhan with min_fan=3 (this hand, 1 番 from its open meld, cannot
    # reach it within the horizon; the option was ignored by the table weighing before)
    house = tmp_path / "hz3.toml"
    house.write_text('base = "wuhan"\nname = "hz3"\n[options]\nmin_fan = 3\n',
                     encoding="utf-8")
    table = "hand=[234m]456p789s222s5m6m seat=0 discards1=5m indicator=9p"
    code, by_option, _ = run(capsys, "advise", "--position", f"{table} ruleset=wuhan",
                             "--option", "min_fan=3", "--seed", "3")
    assert code == 0
    code, by_file, _ = run(capsys, "advise", "--position", f"{table} ruleset={house}",
                           "--seed", "3")
    assert code == 0
    verdict = [next(x for x in out.splitlines() if x.startswith("verdict"))
               for out in (by_option, by_file)]
    assert verdict[0] == verdict[1] and "ev 0.00" in verdict[0]

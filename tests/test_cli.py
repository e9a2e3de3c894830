"""The ``majiang`` command line, run in-process through ``main([...])`` and once
as a subprocess."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import textwrap
import types

import pandas as pd
import pytest

from majiang import cli, records, rules
from majiang.cli import SUBCOMMANDS, build_parser, main
from majiang.cli import _common as C
from majiang.cli.advise import NOT_COMPUTED, plot_title, two_step_cell
from majiang.errors import RuleError
from majiang.tiles import N_KINDS, parse_tile

SEED = "23345m111p456p99s6m"          # 二三三四五万 + 六万 ...: discard 3m -> 1-4-7m wait
SEED_CHINESE = "二三三四五六万一一一四五六筒九九条"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def table_rows(out: str) -> list[list[str]]:
    """Rows of the ranked advise table (lines starting with a rank number)."""
    return [line.split() for line in out.splitlines() if re.match(r"^\s*\d+\s+\S+\s+-?\d", line)]


def assert_error(code: int, err: str, *needles: str) -> None:
    assert code == 2
    assert err.startswith("majiang: error: ")
    assert "Traceback" not in err
    for n in needles:
        assert n in err


# ---------------------------------------------------------------- advise
def test_advise_seed_example(capsys):
    code, out, err = run(capsys, "advise", SEED)
    assert code == 0 and err == ""
    head = out.splitlines()[0]
    assert "233456m111456p99s" in head                      # canonical Tenhou
    assert "\U0001F008\U0001F009\U0001F009" in head          # 2m 3m 3m glyphs
    assert "tenpai" in out.splitlines()[1]
    rows = table_rows(out)
    by_discard = {r[1]: r for r in rows}
    assert rows[0][:2] == ["1", "3m"]
    assert by_discard["3m"][5] == "147m"                     # three-sided wait
    assert by_discard["3m"][3] == "11"                       # 4 + 3 + 4 live
    assert int(by_discard["3m"][0]) < int(by_discard["6m"][0])
    assert [r[1] for r in rows].index("3m") < [r[1] for r in rows].index("6m")


def test_advise_columns_are_aligned(capsys):
    _, out, _ = run(capsys, "advise", SEED)
    lines = [l for l in out.splitlines()              # header + table rows (not the legend)
             if l.strip() and not l.startswith("valid:")][3:]
    header = lines[0]
    assert header.split()[:3] == ["rank", "discard", "shanten"]
    col = header.index("shanten") + len("shanten")
    for line in lines[1:]:
        assert line[col - 1].isdigit() and (len(line) == col or line[col] == " ")


def test_advise_accepts_chinese_and_split_arguments(capsys):
    _, a, _ = run(capsys, "advise", SEED_CHINESE, "--no-second-order")
    _, b, _ = run(capsys, "advise", "23345m", "111p", "456p", "99s6m", "--no-second-order")
    assert a == b
    assert "2-step" not in a


def test_advise_valid_column_only_on_tenpai_rows(capsys):
    # 123m456p789s1122z + 5z: only discarding 5z is tenpai (1z / 2z 双碰, both 8 fan or
    # more); a 1-shanten row has no waits to judge, so its "valid" cell is "-"
    _, out, _ = run(capsys, "advise", "123m456p789s1122z5z")
    rows = {ln.split()[1]: ln.split() for ln in out.splitlines()
            if ln.strip() and ln.split()[0].isdigit()}
    header = next(ln.split() for ln in out.splitlines() if ln.startswith("rank"))
    v = header.index("valid")
    assert rows["5z"][v] == "4" and rows["1m"][v] == "-"
    assert any(ln.startswith("valid: live copies") for ln in out.splitlines())
    _, out, _ = run(capsys, "advise", "123m456p789s1123z5z")     # no tenpai discard
    assert "valid" not in out


def test_advise_json(capsys):
    code, out, _ = run(capsys, "advise", SEED, "--visible", "1m1m7m", "--json")
    assert code == 0
    data = json.loads(out)
    assert {"hand", "glyphs", "shanten", "visible", "forms", "seven_pairs_quads",
            "second_order", "discards"} <= set(data)
    assert data["shanten"] == 0 and data["visible"] == "117m"
    # under the 8-fan minimum: 2m (3m / 9s, both winning self-drawn: 2 + 2 live) ranks
    # above 3m (1m x2 the only winning wait, self-drawn; 4m / 7m stay below 8 fan)
    assert [d["discard"] for d in data["discards"][:2]] == ["2m", "3m"]
    first = data["discards"][1]
    assert set(first) == {"rank", "discard", "shanten", "ukeire_count", "ukeire_kinds",
                          "ukeire", "improvement", "valid_ukeire", "waits_fan"}
    assert first["valid_ukeire"] == 2
    assert (first["rank"], first["discard"], first["ukeire"]) == (2, "3m", "147m")
    assert first["ukeire_count"] == 2 + 3 + 3                 # 1m x2, 4m x3, 7m x3 live
    assert first["improvement"] is None                       # tenpai: nothing to improve
    ranks = {d["discard"]: d["rank"] for d in data["discards"]}
    assert ranks["3m"] < ranks["6m"]


def test_advise_json_without_second_order(capsys):
    _, out, _ = run(capsys, "advise", SEED, "--json", "--no-second-order")
    data = json.loads(out)
    assert "improvement" not in data["discards"][0]
    assert data["second_order"] is False


def test_advise_with_melds(capsys):
    code, out, _ = run(capsys, "advise", "2356m456p78s11z [555z]", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["hand"] == "2356m456p78s11z [555z]"
    assert data["shanten"] == 1
    assert data["glyphs"].endswith("]")


@pytest.mark.parametrize("argv, needles", [
    (["advise", "23345m111p456p99s6x"], ["'x'", "position 18"]),
    (["advise", "23345m111p456p99s8z"], ["8z"]),
    (["advise", "22222m111p456p99s6m"], ["2m"]),
    (["advise", "2345m111p456p99s6m"], ["must discard", "13"]),
    (["advise", SEED, "--visible", "3m3m3m"], ["3m"]),
    (["advise", SEED, "--visible", "9q"], ["9q"]),
    (["advise", SEED, "--forms", "regular,kokushi"], ["kokushi"]),
    (["advise", "23m456p789s11z [124m]"], ["[124m]"]),
    (["shanten", "123m"], ["wrong number of tiles"]),
])
def test_bad_input_exits_2_with_a_message(capsys, argv, needles):
    code, out, err = run(capsys, *argv)
    assert out == ""
    assert_error(code, err, *needles)


def test_usage_errors_return_2(capsys):
    assert main([]) == 2
    assert main(["advise"]) == 2
    assert main(["frobnicate"]) == 2
    assert main(["--help"]) == 0
    assert "advise" in capsys.readouterr().out


def test_unknown_option_gets_the_subcommand_usage(capsys):
    code, out, err = run(capsys, "shanten", "123m456p789s1122z", "--bogus")
    assert code == 2 and out == ""
    assert err.startswith("usage: majiang shanten")
    assert "majiang shanten: error: unrecognized arguments: --bogus" in err


def test_arena_refuses_a_player_count_in_one_line(capsys):
    # arena names one player per seat: MCR is a four-player game, 立四 a three-player one
    code, out, err = run(capsys, "arena", "efficiency", "random", "-n", "3")
    assert out == ""
    assert_error(code, err, "-n 3", "one PLAYER per seat", "4 under mcr",
                 "majiang arena efficiency random random random")
    assert err.count("\n") == 1 and "usage:" not in err
    code, _, err = run(capsys, "arena", "efficiency", "-n", "3", "--rules", "lisi")
    assert_error(code, err, "3 under lisi", "majiang arena efficiency random random\n")


def test_claim_says_a_bare_hand_is_not_a_position(capsys, tmp_path):
    code, out, err = run(capsys, "claim", "1155m234p678s123z")
    assert out == ""
    assert_error(code, err, "claim needs a position", "not a hand",
                 '"hand=1155m234p678s123z')
    assert "cannot read the position file" not in err
    code, _, err = run(capsys, "advise", "--position", "1155m234p678s123z")
    assert_error(code, err, "--position needs a position", "not a hand")
    missing = str(tmp_path / "nofile.toml")           # a file name keeps the file error
    code, _, err = run(capsys, "claim", missing)
    assert_error(code, err, "cannot read the position file", "nofile.toml")


# ---------------------------------------------------------------- shanten
def test_shanten_text(capsys):
    code, out, _ = run(capsys, "shanten", "2345m111p456p99s6m", "--visible", "1m1m")
    assert code == 0
    lines = {l.split()[0]: l.split() for l in out.splitlines() if l.strip()}
    assert lines["regular"][1] == "0"
    assert lines["overall"][1] == "0"
    assert "seven_pairs" in lines and "thirteen_orphans" in lines
    assert "1m(2)" in out and "4m(3)" in out and "7m(4)" in out
    assert "9 live tiles in 3 kinds" in out


def test_shanten_json(capsys):
    code, out, _ = run(capsys, "shanten", "2345m111p456p99s6m", "--visible", "1m1m", "--json",
                       "--forms", "regular,seven_pairs")
    assert code == 0
    data = json.loads(out)
    assert data["forms"] == {"regular": 0, "seven_pairs": 4}
    assert data["shanten"] == 0
    assert data["ukeire"] == {"1m": 2, "4m": 3, "7m": 4}
    assert (data["ukeire_kinds"], data["ukeire_count"]) == (3, 9)


def test_shanten_forms_with_melds_and_14_tiles(capsys):
    _, out, _ = run(capsys, "shanten", "23m456p789s166z [555z]", "--json")
    data = json.loads(out)
    assert data["tiles"] == 14
    assert data["forms"]["seven_pairs"] is None              # needs a concealed hand
    assert data["forms"]["regular"] == 0
    assert data["ukeire"] is None                            # 14 tiles: discard first


def test_shanten_seven_pairs_quads_option(capsys):
    hand = "1111m223344p55s6s"      # 1111m as two pairs + 22 33 44p 55s: waits on 6s
    _, out, _ = run(capsys, "shanten", hand, "--forms", "seven_pairs", "--json",
                    "--no-seven-pairs-quads")
    assert json.loads(out)["shanten"] > 0
    _, out, _ = run(capsys, "shanten", hand, "--forms", "seven_pairs", "--json",
                    "--seven-pairs-quads")
    assert json.loads(out)["shanten"] == 0
    # the default ruleset (Chinese Official) counts the quad; plain does not
    _, out, _ = run(capsys, "shanten", hand, "--forms", "seven_pairs", "--json")
    assert json.loads(out)["shanten"] == 0 and json.loads(out)["seven_pairs_quads"]
    _, out, _ = run(capsys, "shanten", hand, "--forms", "seven_pairs", "--json",
                    "--rules", "plain")
    assert json.loads(out)["shanten"] > 0


# ---------------------------------------------------------------- review
def _raw_plays(player: int | None = None) -> int:
    text = records.example_path().read_text(encoding="utf-8")
    return sum(1 for m in re.finditer(r"^Player ([0-3]) Play \S+\s*$", text, re.M)
               if player is None or int(m.group(1)) == player)


def test_review_example_text(capsys):
    code, out, err = run(capsys, "review", "--example")
    assert code == 0 and err == ""
    n = _raw_plays()
    assert f"{n} discard decisions" in out.splitlines()[0]
    assert out.count("\ngame ") == 8
    assert out.count("  win: player ") == 8 - out.count("drawn hand")
    assert "recorded 9 fan: 混一色 箭刻 老少副" in out
    table = out[out.index("agreement per player"):].splitlines()
    rows = {r.split()[0]: r.split() for r in table[2:7]}
    assert set(rows) == {"0", "1", "2", "3", "all"}
    assert int(rows["all"][1]) == n
    assert sum(int(rows[p][1]) for p in "0123") == n
    assert sum(int(rows[p][2]) for p in "0123") == int(rows["all"][2])
    for r in rows.values():
        rate = float(r[3].rstrip("%")) / 100
        assert 0 <= rate <= 1
        assert abs(rate - int(r[2]) / int(r[1])) < 0.0006


def test_review_example_json(capsys):
    code, out, _ = run(capsys, "review", "--example", "--json")
    assert code == 0
    data = json.loads(out)
    assert {"source", "settings", "games", "decisions", "wins", "agreement"} <= set(data)
    decisions = data["decisions"]
    assert len(decisions) == _raw_plays()
    assert {"game", "turn", "player", "hand", "discard", "rank", "shanten", "ukeire_count",
            "advised", "advised_shanten", "advised_ukeire_count", "agrees"} <= set(decisions[0])
    overall = data["agreement"]["overall"]
    assert overall["decisions"] == len(decisions)
    assert overall["agreed"] == sum(d["agrees"] for d in decisions)
    assert 0 <= overall["agreement"] <= 1
    for p in data["agreement"]["players"]:
        assert p["decisions"] == _raw_plays(p["player"])
        assert 0 <= p["agreement"] <= 1
    assert len(data["games"]) == 8 and len(data["agreement"]["games"]) == 8
    win = data["wins"][0]
    assert win["fans"][0] == ["混一色", 1] and win["fan_total"] == 9


def test_review_player_filter_and_all(capsys):
    _, out, _ = run(capsys, "review", "--example", "--player", "2", "--all", "--json")
    data = json.loads(out)
    assert {d["player"] for d in data["decisions"]} == {2}
    assert len(data["decisions"]) == _raw_plays(2)
    _, text, _ = run(capsys, "review", "--example", "--player", "2", "--all")
    listed = [l for l in text.splitlines() if re.match(r"^\s+\d+\s+2\s+\S", l)]
    assert len(listed) == _raw_plays(2)
    _, brief, _ = run(capsys, "review", "--example", "--player", "2")
    shown = [l for l in brief.splitlines() if re.match(r"^\s+\d+\s+2\s+\S", l)]
    assert len(shown) == sum(not d["agrees"] for d in data["decisions"])


def test_review_reads_a_file(capsys, tmp_path):
    text = records.example_path().read_text(encoding="utf-8")
    first = text.split("\n\n")[0] + "\n"
    path = tmp_path / "one.txt"
    path.write_text(first, encoding="utf-8")
    code, out, _ = run(capsys, "review", str(path), "--json")
    assert code == 0
    assert len(json.loads(out)["decisions"]) == len(re.findall(r"^Player \d Play ", first, re.M))


def test_review_errors(capsys, tmp_path):
    code, _, err = run(capsys, "review", str(tmp_path / "missing.txt"))
    assert_error(code, err, "no such log file", "missing.txt")
    assert_error(*run(capsys, "review")[::2], "LOG")
    truncated = tmp_path / "cut.txt"
    text = records.example_path().read_text(encoding="utf-8")
    truncated.write_text("\n".join(text.splitlines()[:30]) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "review", str(truncated))
    assert_error(code, err, "61602cb45ddc087351c04358", "line 30")
    binary = tmp_path / "bin.dat"
    binary.write_bytes(b"\xff\xfe\x00Match")
    assert_error(*run(capsys, "review", str(binary))[::2], "UTF-8")
    assert_error(*run(capsys, "review", str(tmp_path))[::2], "directory")


# ---------------------------------------------------------------- structure
def test_every_subcommand_module_follows_the_contract():
    import importlib
    for name in SUBCOMMANDS:
        module = importlib.import_module(f"majiang.cli.{name}")
        assert isinstance(module.HELP, str) and module.__doc__
        assert callable(module.configure) and callable(module.run)
    assert {"advise", "shanten", "review"} <= set(SUBCOMMANDS)


def test_adding_a_subcommand_takes_one_module_and_one_name(capsys, monkeypatch):
    module = types.ModuleType("majiang.cli.hello")
    module.__doc__ = "Say hello."
    module.HELP = "say hello"
    module.configure = lambda p: p.add_argument("who")
    module.run = lambda args: print(f"hello {args.who}") or 0
    monkeypatch.setitem(sys.modules, "majiang.cli.hello", module)
    monkeypatch.setattr(cli, "SUBCOMMANDS", SUBCOMMANDS + ("hello",))
    assert "hello" in build_parser().format_help()
    assert run(capsys, "hello", "world")[:2] == (0, "hello world\n")


def test_win_scorer_hook_output(capsys, monkeypatch):
    from majiang.cli import review as review_cmd
    monkeypatch.setattr(review_cmd, "win_scorer",
                        lambda args: (lambda win: {"our_fan_total": win.fan_total}))
    _, out, _ = run(capsys, "review", "--example")
    assert "ours: our_fan_total 9" in out
    _, out, _ = run(capsys, "review", "--example", "--json")
    assert json.loads(out)["wins"][0]["our_fan_total"] == 9


# ---------------------------------------------------------------- as a program
def test_python_m_majiang_cli():
    ok = subprocess.run([sys.executable, "-m", "majiang.cli", "advise", SEED, "--json"],
                        capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["discards"][0]["discard"] == "3m"
    bad = subprocess.run([sys.executable, "-m", "majiang.cli", "shanten", "123m456p789s11z8z"],
                         capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert bad.returncode == 2
    assert bad.stderr.startswith("majiang: error: ") and "8z" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_advise_draws_and_plot(tmp_path, capsys):
    """--draws adds p_tenpai/p_win; --plot writes a PNG; a bad path is a clean error."""
    import json

    out = tmp_path / "curves.png"
    assert main(["advise", "2225678m88p12466s", "--draws", "6", "--plot", str(out),
                 "--no-second-order", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    first = data["discards"][0]
    assert 0 < first["p_win"] < first["p_tenpai"] <= 1
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["advise", "2225678m88p12466s", "--plot", str(tmp_path / "no" / "x.png")]) == 2
    assert "cannot write the plot" in capsys.readouterr().err
    assert main(["advise", "2225678m88p12466s", "--draws", "-1"]) == 2


# ---------------------------------------------------------------- simulate
def _sim_table(ruleset: str, n: int, players=None, seed: int = 0):
    import majiang
    return majiang.simulate(ruleset, n, players=players, seed=seed)


def test_simulate_json_matches_the_table(capsys):
    """The summary is recomputed here with pandas from majiang.simulate's own rows."""
    code, out, _ = run(capsys, "simulate", "mcr", "-n", "20", "--seed", "3", "--json")
    assert code == 0
    s = json.loads(out)
    t = _sim_table("mcr", 20, seed=3)
    assert s["hands"] == 20 and s["ruleset"] == "mcr"
    no_winner = t["winners"].map(len).eq(0)
    assert s["drawn_rate"]["value"] == pytest.approx(no_winner.mean())
    for seat in range(4):                      # absolute seats: the same player each hand
        assert s["win_rate"][f"seat {seat}"]["value"] == pytest.approx(
            t["winners"].map(lambda w: seat in w).mean())
        # seats from the dealer (dealer+1 = the dealer's next player)
        key = "dealer" if seat == 0 else f"dealer+{seat}"
        assert s["win_rate_from_dealer"][key]["value"] == pytest.approx(
            pd.Series([(d + seat) % 4 in w for d, w in zip(t["dealer"], t["winners"])]).mean())
    for d in list(s["win_rate"].values()) + [s["drawn_rate"], s["self_draw_share"]]:
        assert d["lo"] <= d["value"] <= d["hi"]
    flat_types = t["win_types"].explode().dropna()
    assert s["wins"] == len(flat_types)
    assert s["wins_per_hand"]["value"] == pytest.approx(len(flat_types) / 20)
    assert s["hands_with_several_winners"] == int(t["winners"].map(len).gt(1).sum())
    # self-drawn: on one's own draw, the kong replacement (杠上开花) included
    assert s["self_draw_share"]["value"] == pytest.approx(
        flat_types.isin(["self_draw", "kong_replacement"]).mean())
    assert s["mean_draws"]["value"] == pytest.approx(t["draws"].mean())
    totals = t["fan_totals"].explode().dropna().astype(float)
    assert s["mean_fan_total"]["value"] == pytest.approx(totals.mean())
    # MCR: one winner per hand at most here, so hands with a winner + drawn hands = all
    if t["winners"].map(len).max() <= 1:
        assert sum(d["value"] for d in s["win_rate"].values()) + s["drawn_rate"]["value"] \
            == pytest.approx(1.0)
    # MCR's minimum is 8 fan: every win reaches it (flowers excluded, so >= 8 holds)
    assert totals.min() >= 8
    shares = [f["share"] for f in s["top_fans"]]
    assert shares == sorted(shares, reverse=True) and all(0 < x <= 1 for x in shares)


def test_simulate_text_and_players(capsys):
    code, out, _ = run(capsys, "simulate", "sichuan", "-n", "20",
                       "--players", "efficiency,efficiency,random,random")
    assert code == 0
    for needle in ("hands    20", "win rate", "seat 3", "self-draw", "荒庄", "mean draws",
                   "mean fan total", "top fans"):
        assert needle in out
    # same seed, same hands: the text is reproducible
    assert run(capsys, "simulate", "sichuan", "-n", "20",
               "--players", "efficiency,efficiency,random,random")[1] == out


def test_simulate_errors(capsys):
    assert_error(*run(capsys, "simulate", "nope", "-n", "2")[::2], "unknown ruleset")
    assert_error(*run(capsys, "simulate", "mcr", "-n", "2", "--players", "x")[::2],
                 "unknown player")
    assert_error(*run(capsys, "simulate", "mcr", "-n", "0")[::2], "-n")


# ---------------------------------------------------------------- advise --draws provenance
def test_advise_draws_names_method_model_and_policy(capsys):
    import majiang

    hand = "2225678m88p12466s"
    for draws in ("3", "6"):
        table = majiang.advise(hand, draws=int(draws))
        code, out, _ = run(capsys, "advise", hand, "--draws", draws)
        assert code == 0
        lines = [ln for ln in out.splitlines() if ln.startswith("probability")]
        assert len(lines) == 1
        for key in ("method", "model", "policy"):
            for value in set(table[key]):
                assert str(value) in lines[0]
        # the default ruleset (Chinese Official) scores hands
        assert "exp_score" in out and "mean_fan" in out
        code, out, _ = run(capsys, "advise", hand, "--draws", draws, "--json")
        d = json.loads(out)
        assert {(p["method"], p["model"], p["policy"]) for p in d["probability"]} == \
            set(zip(table["method"], table["model"], table["policy"]))
        # ranked by p_win, then p_tenpai (both to 12 significant digits: float noise ties),
        # then live ukeire (best first)
        keys = [(-float(f"{r['p_win']:.12g}"), -float(f"{r['p_tenpai']:.12g}"),
                 -r["ukeire_count"]) for r in d["discards"]]
        assert keys == sorted(keys)
    # without --draws: no provenance line
    assert "probability" not in run(capsys, "advise", hand)[1]


def test_advise_draws_scored_ruleset_shows_exp_score_and_mean_fan(capsys):
    import majiang

    hand = "2225678m88p12466s"
    table = majiang.advise(hand, draws=4, ruleset="sichuan")
    code, out, _ = run(capsys, "advise", hand, "--draws", "4", "--rules", "sichuan")
    assert code == 0
    header = next(ln for ln in out.splitlines() if ln.lstrip().startswith("rank"))
    assert "exp_score" in header.split() and "mean_fan" in header.split()
    d = json.loads(run(capsys, "advise", hand, "--draws", "4", "--rules", "sichuan",
                       "--json")[1])
    by_discard = {r["discard"]: r for r in d["discards"]}
    for rec in table.to_dict(orient="records"):
        got = by_discard[rec["discard"]]
        assert got["exp_score"] == pytest.approx(rec["exp_score"])
        assert got["mean_fan"] == pytest.approx(rec["mean_fan"], nan_ok=True)
        # a win scores at least one point under sichuan, so E[score] >= P(win)
        assert got["exp_score"] >= got["p_win"] - 1e-12


def test_advise_help_says_how_draws_rank():
    text = " ".join(build_parser()._subparsers._group_actions[0].choices["advise"]
                    .format_help().split())
    assert "ranked by p_win, then p_tenpai, then live ukeire" in text


def test_simulate_summary_does_not_depend_on_jobs(capsys):
    """Hands are seeded one by one, so two worker processes give the same summary."""
    one = run(capsys, "simulate", "mcr", "-n", "60", "--seed", "5", "--json")[1]
    two = run(capsys, "simulate", "mcr", "-n", "60", "--seed", "5", "--jobs", "2", "--json")[1]
    assert json.loads(one) == json.loads(two)


# ---------------------------------------------------------------- --forms narrows --rules
def test_forms_narrow_rules_as_in_python(capsys):
    import majiang

    hand = "123m456p789s1155s"      # 四川: 3-shanten (a suit must go), whatever the forms
    for extra in ([], ["--forms", "regular"], ["--forms", "seven_pairs"],
                  ["--no-seven-pairs-quads"]):
        code, out, _ = run(capsys, "shanten", hand, "--rules", "sichuan", "--json", *extra)
        assert code == 0
        d = json.loads(out)
        forms = None if not extra or extra[0] != "--forms" else (extra[1],)
        quads = False if extra == ["--no-seven-pairs-quads"] else None
        want = majiang.shanten(hand, ruleset="sichuan", forms=forms, seven_pairs_quads=quads)
        assert d["shanten"] == want
        assert d["ukeire"] == majiang.ukeire(hand, ruleset="sichuan", forms=forms,
                                             seven_pairs_quads=quads)
        assert list(d["forms"]) == list(forms or ("regular", "seven_pairs"))
        assert d["seven_pairs_quads"] is (quads is None)
    assert json.loads(run(capsys, "shanten", hand, "--rules", "sichuan", "--json", "--forms",
                          "regular")[1])["shanten"] == 3
    # advise: the same narrowing
    full = hand + "9p"
    code, out, _ = run(capsys, "advise", full, "--rules", "sichuan", "--forms", "regular",
                       "--json", "--no-second-order")
    assert code == 0
    d = json.loads(out)
    assert d["forms"] == ["regular"]
    want = majiang.advise(full, ruleset="sichuan", forms=("regular",), second_order=False)
    assert [r["discard"] for r in d["discards"]] == list(want["discard"])
    assert [r["shanten"] for r in d["discards"]] == list(want["shanten"])
    # a form the ruleset lacks: a clear error
    code, _, err = run(capsys, "shanten", hand, "--rules", "sichuan", "--forms",
                       "thirteen_orphans")
    assert_error(code, err, "sichuan has no winning form 'thirteen_orphans'",
                 "regular, seven_pairs")


def test_cli_default_is_chinese_official(capsys):
    code, out, _ = run(capsys, "shanten", "147m258p36s123s55z9s", "--json")
    assert code == 0 and json.loads(out)["shanten"] == -1       # 组合龙
    code, out, _ = run(capsys, "shanten", "147m258p36s123s55z9s", "--json", "--rules", "plain")
    assert json.loads(out)["shanten"] == 4


def test_rules_all_prints_no_python_names(capsys):
    # the catalogue is for players: no module.function names
    code, out, _ = run(capsys, "rules", "--all")
    assert code == 0 and "chain_value" not in out
    assert not re.search(r"\b[a-z]+\.[a-z_]+_[a-z_]+\b", out)


# ============================================================================
# Command-line wording and output details
# Command-line polish reported by a first-time user: notes of the probability model
# shown, the 2-step legend, Ctrl-C with --out, --plot checked first, CLI wording of
# flower / duplicate-ruleset errors, ``score --rules``, plurals, progress bars only on
# a terminal.
# ============================================================================
CLOSED = "23345m111p456p99s6m"         # no claimed meld: wuhan needs one (开口) to win




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
    # 2-step is the last column (the waits-fan cells before it hold spaces)
    assert head[-1] == "2-step"
    sh = head.index("shanten")
    assert {r[sh] for r in rows} == {"0", "1"}
    for r in rows:
        assert r[-1] == ("-" if r[sh] == "0" else NOT_COMPUTED)
    # the plain forms compute it: numbers, never n/a
    code, out, _ = run(capsys, "advise", "23345m111p456p22s6m", "--rules", "plain")
    head, rows = _table(out)
    assert head[-1] == "2-step"
    assert all(r[-1] != NOT_COMPUTED for r in rows)
    assert any(r[-1] not in ("-", NOT_COMPUTED) for r in rows)


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


# ============================================================================
# Command-line hints, errors and jokers
# Regression tests for the command-line bugs a fresh user found (issue 8, item 6):
# 16-tile hands and the hints between commands, hands below the minimum, the cap note,
# jokers in the glyph line, Ctrl-C, the ``rules --help`` text.
# ============================================================================
JOKER_GLYPH = "\U0001F02A"      # Unicode MAHJONG TILE JOKER




# ---------------------------------------------------------------- brute force
def _complete(c: list[int], sets: int) -> bool:
    """`c` (34 counts) splits into `sets` pungs/chows and one pair (plain recursion)."""
    def sets_only(c: list[int], n: int) -> bool:
        if n == 0:
            return not any(c)
        i = next((k for k in range(N_KINDS) if c[k]), None)
        if i is None:
            return False
        if c[i] >= 3:
            c[i] -= 3
            ok = sets_only(c, n - 1)
            c[i] += 3
            if ok:
                return True
        if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            for d in (0, 1, 2):
                c[i + d] -= 1
            ok = sets_only(c, n - 1)
            for d in (0, 1, 2):
                c[i + d] += 1
            if ok:
                return True
        return False

    for p in range(N_KINDS):
        if c[p] >= 2:
            c[p] -= 2
            ok = sets_only(c, sets)
            c[p] += 2
            if ok:
                return True
    return False


def _counts(text: str) -> list[int]:
    c = [0] * N_KINDS
    for m in re.finditer(r"(\d+)([mpsz])", text):
        for d in m.group(1):
            c[parse_tile(d + m.group(2))] += 1
    return c


# ---------------------------------------------------------------- 16-tile hands
TAIWAN_WAITING = "123456789m123p5s [111z]"      # 13 concealed + a pung of East = 16


def test_shanten_takes_a_16_tile_hand_under_taiwan(capsys):
    """Was: 'expected 13 or 14 in total' although advise --rules taiwan took it."""
    code, out, err = run(capsys, "shanten", TAIWAN_WAITING, "--rules", "taiwan", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["tiles"] == 16
    # independent: the kinds that complete 4 sets + pair of the concealed 13 (+1 tile),
    # live = 4 minus the copies in the hand (the meld holds 1z)
    concealed = _counts("123456789m123p5s")
    waits = {}
    for k in range(N_KINDS):
        if concealed[k] < 4:
            concealed[k] += 1
            if _complete(concealed, 4):
                waits[k] = 4 - concealed[k] + 1
            concealed[k] -= 1
    assert waits == {parse_tile("5s"): 3}
    assert data["shanten"] == 0 and data["forms"]["regular"] == 0
    assert data["ukeire"] == {"5s": 3}


def test_a_17_tile_hand_under_taiwan_is_complete_and_points_to_advise(capsys):
    code, out, _ = run(capsys, "shanten", "123456789m123p55s [111z]", "--rules", "taiwan")
    assert code == 0
    assert "complete" in out
    assert _complete(_counts("123456789m123p55s"), 4)
    assert 'majiang advise "123456789m123p55s [111z]" --rules taiwan' in out


HINT = re.compile(r"run: (majiang .*)$", re.M)


@pytest.mark.parametrize("argv", [
    ("shanten", "23345m111p456p99s6m"),                         # 14 tiles -> advise
    ("advise", "2345m111p456p99s6m"),                           # 13 tiles -> shanten
    ("advise", TAIWAN_WAITING, "--rules", "taiwan"),            # 16 -> shanten --rules
    ("shanten", "123456789m123p4s11z55s", "--rules", "taiwan"),  # 17 -> advise --rules
    ("advise", "123m456p789s12s**", "--rules", "hangzhou"),     # jokers count as tiles
    ("shanten", "123m456p789s125s**", "--rules", "hangzhou"),
    ("advise", "123m456p789s1122s 1f"),                         # a flower, 144 tiles
])
def test_every_hint_names_a_command_that_accepts_the_hand(capsys, argv):
    """Was: the hints sent a 16-tile hand to 'majiang shanten', which rejected it."""
    code, out, err = run(capsys, *argv)
    m = HINT.search(out + err)
    assert m, out + err
    hinted = shlex.split(m.group(1))
    assert hinted[0] == "majiang" and hinted[1] != argv[0]
    code2, out2, err2 = run(capsys, *hinted[1:])
    assert code2 == 0, err2
    assert "error" not in err2


@pytest.mark.parametrize("argv, needle", [
    (("shanten", TAIWAN_WAITING), "--rules luoyuan or --rules taiwan"),
    (("advise", "123456789m123p4s11z55s"), "--rules luoyuan or --rules taiwan"),
    (("shanten", "2345m111p456p99s6m", "--rules", "taiwan"), "ruleset taiwan plays 16-tile"),
])
def test_a_hand_of_the_other_size_names_the_rules_it_needs(capsys, argv, needle):
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.startswith("majiang: error: ") and needle in err
    sixteen = sorted(n for n in rules.available()       # built-ins, as the hint: other
                     if n in rules.BUILTIN_NAMES and rules.get(n).hand_size == 16)  # tests add house rules
    assert sixteen == ["luoyuan", "taiwan", "wenzhou"]


def test_advise_counts_jokers_toward_the_hand(capsys):
    """Was: 'needs 14 tiles ... got 14' for 12 tiles + 2 jokers."""
    code, out, err = run(capsys, "advise", "123m456p789s125s**", "--rules", "hangzhou",
                         "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["glyphs"].count(JOKER_GLYPH) == 2


# ---------------------------------------------------------------- glyphs
def test_glyph_line_shows_jokers_and_flowers(capsys):
    code, out, _ = run(capsys, "shanten", "123m456p789s12s** 12f", "--rules", "shanghai_baida",
                       "--indicator", "3m", "--json")
    assert code == 0
    glyphs = json.loads(out)["glyphs"]
    assert glyphs.count(JOKER_GLYPH) == 2
    assert glyphs.split()[0].endswith(JOKER_GLYPH * 2)            # after the concealed tiles
    assert glyphs.split()[-1] == "\U0001F026\U0001F027"            # 春 夏
    code, out, _ = run(capsys, "shanten", "123m456p789s12s**", "--rules", "hangzhou")
    assert JOKER_GLYPH * 2 in out.splitlines()[0]


# ---------------------------------------------------------------- score
BELOW = ("123m789m45p789s55s", "3p")   # 门前清 2 + 平和 2 + 喜相逢 1 + 老少副 1 = 6 < 8


def test_a_hand_below_the_minimum_settles_nothing(capsys):
    """Was: '(below the 8-fan minimum)' and then a payment line."""
    code, out, _ = run(capsys, "score", BELOW[0], "--win", BELOW[1])
    assert code == 0
    assert "below the 8-fan minimum" in out
    pay = [l for l in out.splitlines() if l.startswith("payment")]
    assert len(pay) == 1 and not re.search(r"[+-]\d", pay[0]) and "nothing is paid" in pay[0]
    code, out, _ = run(capsys, "score", BELOW[0], "--win", BELOW[1], "--json")
    data = json.loads(out)
    assert data["meets_minimum"] is False and data["total"] < data["min_fan"] == 8
    assert data["settlement"] is None


def test_a_points_minimum_is_named_in_points(capsys):
    """螺山 counts its minimum in points (100 self-drawn, 200 on a discard), not fan."""
    code, out, _ = run(capsys, "score", "123m456p789s1s999s", "--win", "1s", "--rules", "luoshan")
    assert code == 0
    pay = next(l for l in out.splitlines() if l.startswith("payment"))
    assert "200-point minimum" in pay and not re.search(r"[+-]\d", pay)


def test_a_hand_at_the_minimum_still_pays(capsys):
    code, out, _ = run(capsys, "score", "456p789s11z [555z] 45m", "--win", "6m", "--json")
    data = json.loads(out)
    assert data["meets_minimum"] is True and data["total"] >= 8
    s = data["settlement"]
    # MCR: the discarder pays 8 + total, the others 8 each (zero sum)
    assert sum(s) == 0 and s[0] == 24 + data["total"] and s[1] == -(8 + data["total"])


def test_sichuan_score_says_when_the_cap_cut_the_points(capsys):
    """Was: 4 fan shown as 8 points with no word of the cap (3 fan = x8 by default)."""
    # 清一色 (2) + 七对 (2) = 4 fan > cap 3
    code, out, _ = run(capsys, "score", "1122334455667p", "--win", "7p", "--self-drawn",
                       "--rules", "sichuan")
    assert code == 0
    points = next(l for l in out.splitlines() if l.startswith("points"))
    assert "capped at 3 fan" in points and "4 fan counted" in points
    assert points.split()[1] == str(2 ** 3)
    _, out, _ = run(capsys, "score", "1122334455667p", "--win", "7p", "--self-drawn",
                    "--rules", "sichuan", "--json")
    assert json.loads(out)["capped"] is True
    # 3 fan or less: no cap note
    _, out, _ = run(capsys, "score", "123456789p1123s", "--win", "4s", "--self-drawn",
                    "--rules", "sichuan")
    assert "capped" not in out


def test_a_house_cap_above_the_total_is_not_reported(capsys, tmp_path):
    f = tmp_path / "cap5.toml"
    f.write_text('base = "sichuan"\nname = "cap5"\n[options]\ncap = 5\n', encoding="utf-8")
    code, out, err = run(capsys, "score", "1122334455667p", "--win", "7p", "--self-drawn",
                         "--rules", str(f))
    assert code == 0, err
    points = next(l for l in out.splitlines() if l.startswith("points"))
    assert points.split()[1] == str(2 ** 4) and "capped" not in points


# ---------------------------------------------------------------- rules --help
@pytest.mark.parametrize("command", [None, "advise", "shanten", "review", "score", "rules"])
def test_help_cites_no_file_outside_the_repository(capsys, command):
    """Was: 'majiang rules --help' cited a reference file that does not ship."""
    code, out, _ = run(capsys, *([command] if command else []), "--help")
    assert code == 0 and out.startswith("usage: majiang")
    assert "shared" not in out
    # a page it cites (e.g. docs/position.md) is a file of the repository
    import pathlib
    root = pathlib.Path(__file__).resolve().parent.parent
    for page in re.findall(r"[\w./-]+\.md\b", out):
        assert (root / page).is_file(), page


def test_rules_show_describes_the_sources_in_words(capsys):
    for name in ("sichuan", "mcr", "guangdong"):
        code, out, _ = run(capsys, "rules", name)
        assert code == 0
        source = next(l for l in out.splitlines() if l.startswith("source"))
        assert ".md" not in source, source


# ---------------------------------------------------------------- Ctrl-C
def _raise_in_run(monkeypatch, exc: BaseException):
    import majiang.analysis

    def boom(*args, **kwargs):
        raise exc
    monkeypatch.setattr(majiang.analysis, "advise", boom)


def test_keyboard_interrupt_exits_130(capsys, monkeypatch):
    _raise_in_run(monkeypatch, KeyboardInterrupt())
    code, out, err = run(capsys, "advise", "23345m111p456p99s6m")
    assert code == 130 and "error" not in err


def test_an_interrupt_wrapped_in_a_mahjong_error_still_exits_130(capsys, monkeypatch):
    """Was: 'the win predicate ... raised KeyboardInterrupt' became a RuleError, exit 2."""
    try:
        raise RuleError("the win predicate raised KeyboardInterrupt") from KeyboardInterrupt()
    except RuleError as exc:
        wrapped = exc
    _raise_in_run(monkeypatch, wrapped)
    code, _, err = run(capsys, "advise", "23345m111p456p99s6m")
    assert code == 130 and "error" not in err
    _raise_in_run(monkeypatch, RuleError("plain bad input"))
    code, _, err = run(capsys, "advise", "23345m111p456p99s6m")
    assert code == 2 and "plain bad input" in err


_SLOW = textwrap.dedent("""
    import sys, time
    import majiang.analysis
    from majiang.errors import RuleError
    WRAP = {wrap}

    def slow(*args, **kwargs):
        print("ready", flush=True)
        try:
            while True:
                time.sleep(0.01)
        except KeyboardInterrupt as exc:
            if WRAP:
                raise RuleError("the win predicate raised KeyboardInterrupt") from exc
            raise

    majiang.analysis.advise = slow
    from majiang.cli import main
    sys.exit(main(["advise", "23345m111p456p99s6m"]))
""")


@pytest.mark.skipif(os.name != "posix", reason="SIGINT to a child process")
@pytest.mark.parametrize("wrap", [False, True])
def test_ctrl_c_on_a_running_command_exits_130(wrap):
    """A real SIGINT while the command computes: exit 130, no traceback, no error line."""
    p = subprocess.Popen([sys.executable, "-c", _SLOW.format(wrap=wrap)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "ready"
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 130, err
    assert "Traceback" not in err and "error" not in err


# ---------------------------------------------------------------- --plot
def test_plot_title_names_the_hand(tmp_path, capsys, monkeypatch):
    """Was: the --plot figure was titled '18 draws' with no word of the hand."""
    import warnings

    import majiang.plots

    seen = {}
    real = majiang.plots.probability_curves

    def spy(curves, **kwargs):
        seen.update(kwargs)
        return real(curves, **kwargs)
    monkeypatch.setattr(majiang.plots, "probability_curves", spy)
    out = tmp_path / "c.png"
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # no missing-glyph warnings either
        code = main(["advise", "2225678m88p12466s", "--draws", "4", "--plot", str(out),
                     "--no-second-order"])
    assert code == 0, capsys.readouterr().err
    assert seen["title"].startswith("2225678m88p12466s: ") and "4 draws" in seen["title"]
    assert out.read_bytes()[:4] == b"\x89PNG"


# ---------------------------------------------------------------- --indicator
def test_indicator_names_the_joker_kind_in_the_ukeire(capsys):
    """武汉: the joker (赖子) is the kind after the turned indicator, winds cycling
    E S W N: North (4z) turned makes East (1z) wild, and drawing one is effective."""
    # tenpai on 5s / 2z; a joker draw completes it as 碰碰胡 (a 大胡 may hold two jokers;
    # 123m456p789s1s22z* is not ready under 武汉: no 2/5/8 pair, no 大胡 shape)
    hand = "111m555p999s5s22z*"
    code, out, err = run(capsys, "shanten", hand, "--rules", "wuhan", "--indicator", "4z",
                         "--json")
    assert code == 0, err
    uk = json.loads(out)["ukeire"]
    assert "1z*" in uk and uk["1z*"] > 0
    # the kind unknown: shanten needs --indicator, as advise does
    code, _, err = run(capsys, "shanten", hand, "--rules", "wuhan", "--json")
    assert code == 2 and "--indicator" in err
    code, _, err = run(capsys, "shanten", hand.replace("*", "1z"), "--indicator", "4z")
    assert code == 2 and "--indicator needs --rules with jokers" in err
    code, _, err = run(capsys, "advise", "123m456p789s15s22z1z", "--rules", "mcr",
                       "--indicator", "4z")
    assert code == 2 and "--indicator" in err
    code, _, err = run(capsys, "advise", "123m456p789s15s22z*", "--rules", "wuhan",
                       "--indicator", "9x")
    assert code == 2 and err.startswith("majiang: error: ")


def _descendants(pid: int) -> int:
    """How many processes descend from ``pid`` (Linux /proc)."""
    parent = {}
    for entry in os.scandir("/proc"):
        try:
            with open(f"/proc/{entry.name}/stat") as f:
                parent[int(entry.name)] = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
    found, frontier = 0, {pid}
    while frontier:
        frontier = {q for q, pp in parent.items() if pp in frontier}
        found += len(frontier)
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads processes in /proc")
def test_ctrl_c_stops_a_simulation_with_worker_processes():
    """Was: with --jobs 2 Ctrl-C waited for every running chunk (the whole run).
    The SIGINT is sent once the worker processes exist (the run takes minutes)."""
    import time
    p = subprocess.Popen([sys.executable, "-m", "majiang", "simulate", "sichuan", "-n", "400000",
                          "--jobs", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    try:
        deadline = time.monotonic() + 120
        while _descendants(p.pid) < 2 and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        if p.poll() is not None:
            pytest.fail(f"simulate ended before its workers started: {p.communicate()}")
        assert _descendants(p.pid) >= 2, "no worker processes after 120 s"
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 130, err
    assert "Traceback" not in err


def test_advise_plot_draws_the_top_ranked_discard(capsys, tmp_path, monkeypatch):
    """Was: --plot drew only the discards that keep the lowest shanten, so the table's
    best discard over 18 draws (2s, which raises the shanten) was missing."""
    import majiang.plots as plots
    seen = {}
    real = plots.probability_curves

    def spy(curves, **kw):
        seen.update(curves)
        return real(curves, **kw)

    monkeypatch.setattr(plots, "probability_curves", spy)
    code, out, err = run(capsys, "advise", "2225678m88p12466s", "--draws", "18", "--plot",
                         str(tmp_path / "c.png"), "--json")
    assert code == 0, err
    top = json.loads(out)["discards"][0]["discard"]
    assert top == "2s" and top in seen and len(seen) <= 6


def test_score_takes_the_indicator_and_reads_wild_tiles_by_face(capsys):
    """Was: `majiang score` had no --indicator, so 南昌 德国 with a 精 held (docs/rules/nanchang.md
    §3: 自摸 ×2 · 德国 ×2 + 5 = 9; the dealer pays ×2 before the +5: 13) could not be
    scored from the command line."""
    code, out, err = run(capsys, "score", "123p456m789s11z23s", "--win", "4s", "--rules",
                         "nanchang", "--indicator", "9p", "--self-drawn", "--seat", "S",
                         "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["points"] == 9
    code, _, err = run(capsys, "score", "123p456m789s11z23s", "--win", "4s", "--indicator", "9p")
    assert code == 2 and "--indicator" in err


# ---------------------------------------------------------------- ± labelled (fresh users)
def test_table_model_says_what_plus_minus_is():
    """``str()`` of the table model's result and estimates names the model and says
    that ± is one standard error; the se is sqrt(p (1 - p) / n) (computed here)."""
    import math

    from majiang.game.table import MODEL_NAME, table_probabilities
    from majiang.probability import win_probability

    n = 24
    r = table_probabilities("123456789m1122p", 2, ruleset="mcr", n_samples=n, seed=3)
    text = str(r)
    p = r.win.value
    assert f"{p:.4f} ± {math.sqrt(p * (1 - p) / n):.4f}" in text
    assert f"± 1 standard error, {n} hands" in text and MODEL_NAME in text
    assert "opponents: 3 x efficiency bot" in text
    assert sum(r.win_kinds.values()) == round(p * n)
    e = win_probability("123456789m1122p", 2, ruleset="mcr", model="table", n_samples=n,
                        seed=3)
    assert e.value == p and "± is 1 standard error" in str(e) and MODEL_NAME in str(e)


def test_advise_monte_carlo_rows_label_their_standard_error(capsys):
    import majiang
    from majiang.cli import main

    hand = "19m19p19s1234z2468m"          # 3-shanten: the far discards are sampled
    # plain shapes: the sampling is the subject (Chinese Official, the default, is slower)
    assert main(["advise", hand, "--draws", "4", "--no-second-order", "--rules", "plain"]) == 0
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if ln.startswith("probability"))
    assert "monte_carlo (p_win ± 1 standard error in column ±1SE)" in line
    header = next(ln for ln in out.splitlines() if ln.startswith("rank"))
    assert "±1SE" in header.split()
    assert main(["advise", hand, "--draws", "4", "--no-second-order", "--json",
                 "--rules", "plain"]) == 0
    import json
    rows = json.loads(capsys.readouterr().out)["discards"]
    t = majiang.advise(hand, draws=4, second_order=False, ruleset="plain")
    assert (t["method"] == "monte_carlo").any() and (t["method"] == "exact").any()
    for r in rows:
        ref = t[t["discard"] == r["discard"]].iloc[0]
        if ref["method"] == "monte_carlo":
            assert r["se_win"] == ref["se_win"]
        else:
            assert r["se_win"] is None            # '-' for an exact p_win
    # an exact table has no ±1SE column
    assert main(["advise", "2225678m88p12466s", "--draws", "3", "--no-second-order"]) == 0
    assert "±1SE" not in capsys.readouterr().out


# ---------------------------------------------------------------- simulate: several winners
@pytest.mark.parametrize("ruleset,rule", [
    ("mcr", "one winner per discard: 截和 (head bump)"),
    ("guangdong", "several winners on one discard: 一炮多响"),
    ("sichuan", "血战到底"),
])
def test_simulate_says_how_many_winners_a_hand_can_have(capsys, ruleset, rule):
    import majiang
    from majiang.cli import main

    assert main(["simulate", ruleset, "-n", "40", "--seed", "2", "--jobs", "1",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    t = majiang.simulate(ruleset, 40, seed=2, n_jobs=1, progress=False)
    m = t["winners"].map(len)
    assert f"({int(m.sum())} wins, {m.mean():.3f} per hand; {int((m > 1).sum())} hands " \
           "with several winners)" in out
    assert rule in out
    assert "win rate by seat (the same player every hand" in out
    assert "win rate by seat from the dealer" in out
    if ruleset == "mcr":                  # 截和: never two winners in a hand
        assert m.max() <= 1


# ---------------------------------------------------------------- score: labelled columns
@pytest.mark.parametrize("hand,win,wait", [
    ("456p789s11z [555z] 45m", "6m", "chow 456m (open wait 两面)"),      # 45m + 6m: two-sided
    ("456p789s11z [555z] 46m", "5m", "chow 456m (closed wait 坎张)"),    # 4_6m: the middle
    ("456p789s11z [555z] 12m", "3m", "chow 123m (edge wait 边张)"),      # 12m: only 3m
    ("456p789s1z [555z] 456m", "1z", "pair 1z (single wait 单钓)"),
    ("456p789s11z [555z] 66m", "6m", "pung 666m (a pair became a pung: 对倒 wait)"),
    ("19m19p19s1234567z", "1z", "the thirteen_orphans form"),
])
def test_score_labels_the_wait_and_the_fan_id(capsys, hand, win, wait):
    from majiang.cli import main
    from majiang.rules import get

    assert main(["score", hand, "--win", win]) == 0
    out = capsys.readouterr().out
    assert f"win tile completed {wait}" in out
    assert "(open)" not in out
    header = next(ln for ln in out.splitlines() if "番种" in ln)
    assert header.split()[:2] == ["fan", "id"]
    # the first column is the fan's id in the ruleset's fan table
    table = {f.id: f.chinese for f in get("mcr").fans}
    rows = [ln.split() for ln in out.splitlines()[out.splitlines().index(header) + 1:]]
    rows = [r for r in rows if r and r[0].isdigit()]
    assert rows and all(table[int(r[0])] == r[1] for r in rows)


# ------------------------------------------------- jokers and --indicator: one rule
@pytest.mark.parametrize("argv", [
    ("shanten", "123m45p**678s1122z"), ("advise", "123m45p**678s1122z"),
    ("score", "123m45p*678s1122z", "--win", "3p"),
    ("shanten", "123m45p**678s1122z", "--rules", "sichuan"),
])
def test_jokers_without_jokers_in_the_rules_one_error(capsys, argv):
    # the default rules (Chinese Official) have no jokers: every command says so alike
    code, _, err = run(capsys, *argv)
    assert code == 2 and "has no jokers" in err and "--rules" in err
    assert len(err.strip().splitlines()) == 1
    if "--rules" not in argv:           # and why: the default rules play no wild tiles
        assert "mcr has no jokers: Chinese Official" in err and "no wild tiles" in err


def test_indicator_rule_is_the_same_for_shanten_and_advise(capsys):
    # 天津 finds its jokers from the turned tile: both commands need --indicator
    for cmd, hand in (("shanten", "123m45p**678s112z"), ("advise", "123m45p**678s1122z")):
        code, _, err = run(capsys, cmd, hand, "--rules", "tianjin")
        assert code == 2 and "--indicator" in err and "give the indicator" not in err
        code, _, err = run(capsys, cmd, hand, "--rules", "tianjin", "--indicator", "3z")
        assert code == 0, err
    # 杭州's joker is fixed (5z): an --indicator would be ignored, so it is an error
    code, _, err = run(capsys, "shanten", "123m45p**678s112z", "--rules", "hangzhou",
                       "--indicator", "3m")
    assert code == 2 and "--indicator" in err and "fixed" in err


def test_flower_under_a_set_without_flowers_is_refused_first(capsys):
    # sichuan's 108 tiles have no flowers: the error says so, and names no command that
    # would refuse the same flower
    for argv in (("advise", "123m456p789s1122s 1f"), ("shanten", "123m456p789s11223s 1f"),
                 ("score", "123m456p789s1122s 1f", "--win", "3s")):
        code, out, err = run(capsys, *argv, "--rules", "sichuan")
        assert code == 2 and "has no flowers" in err and "run:" not in err


@pytest.mark.parametrize("argv, flag, word", [
    (("advise", "23345m111p456p99s6m", "--draws", "4", "--seed", "-1"), "--seed", "Generator"),
    (("score", "23345m111p456p99s", "--win", "6m", "--seat", "X"), "--seat", "seat_wind"),
    (("score", "23345m111p456p99s", "--win", "6m", "--prevalent", "Q"), "--prevalent",
     "prevalent_wind"),
    (("simulate", "mcr", "-n", "2", "--seed", "-5"), "--seed", "SeedSequence"),
    (("simulate", "mcr", "-n", "2", "--out", "/dev/null/x"), "--out", "out="),
    (("advise", "123m45p**678s1122z", "--rules", "wuhan"), "--indicator",
     "give the indicator"),
])
def test_errors_name_the_flags(capsys, argv, flag, word):
    code, _, err = run(capsys, *argv)
    assert code == 2 and flag in err and word not in err, err


def test_position_text_without_a_ruleset_reads_rules(capsys):
    # a one-line position that names no ruleset is read under --rules (it was read under
    # mcr and then refused as "played under mcr"); one that names another is still refused
    code, out, _ = run(capsys, "advise", "--position", "seat=1 concealed=233456m111456p99s",
                       "--rules", "sichuan", "--no-danger", "--json")
    # under mcr the hand is ready (discard 3m: 2m 33m... waits 1-4-7m); under sichuan's 缺一门
    # the three suits keep it one from ready (99s, or another suit, must go first)
    assert code == 0 and json.loads(out)["shanten"] == 1
    code, out, _ = run(capsys, "advise", "--position", "seat=1 concealed=233456m111456p99s",
                       "--no-danger", "--json")
    assert code == 0 and json.loads(out)["shanten"] == 0
    code, _, err = run(capsys, "advise", "--position",
                       "ruleset=mcr seat=1 concealed=233456m111456p99s", "--rules", "sichuan")
    assert code != 0 and "played under mcr" in err


def test_position_errors_that_used_to_be_vague(capsys, tmp_path):
    code, _, err = run(capsys, "advise", "--position", "")
    assert code == 2 and "empty string" in err and "directory" not in err
    f = tmp_path / "p.toml"
    f.write_text("hand = 123\n")
    code, _, err = run(capsys, "advise", "--position", str(f))
    assert code == 2 and "hand must be the seat's tiles as text" in err
    code, _, err = run(capsys, "advise", "--position", "hand=23345m111p456p99s6m discards1=-")
    assert code == 0 and not err


def test_declared_void_names_its_suit_when_a_win_breaks_it(capsys):
    # sichuan, 条 declared void: 123456789m 11p 57s + 6s is complete in shape but holds 条
    from majiang.rules.derived import with_void
    from majiang.scoring import check_win
    v = check_win("123456789m11p57s", "6s", ruleset=with_void("sichuan", "s"))
    assert not v.valid and "declared 条 (s) void" in v.reason


def test_main_collects_less_often_and_leaves_a_disabled_collector(capsys):
    """A command raises the collector's first threshold to 20,000 new objects (a long
    search keeps many objects; Python's 700 has the heap scanned whole again and again);
    a threshold of 0 (collection switched off) is left as it is."""
    import gc
    old = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        assert main(["shanten", "123m456p789s1122z"]) == 0
        assert gc.get_threshold() == (20_000, 10, 10)
        gc.set_threshold(0, 10, 10)
        assert main(["shanten", "123m456p789s1122z"]) == 0
        assert gc.get_threshold() == (0, 10, 10)
    finally:
        gc.set_threshold(*old)
    capsys.readouterr()


def test_score_kong_discard_flag(capsys):
    # 杠上炮 (docs/rules/sichuan.md §6): a 平胡 on a discard is x1; made right after the
    # discarder's kong it gains 1 番: x2, paid by the discarder
    code, out, _ = run(capsys, "score", "123m456m789m55p78p", "--win", "9p", "--rules",
                       "sichuan", "--kong-discard")
    assert code == 0 and "杠上炮" in out and "after its discarder's kong" in out
    assert next(l for l in out.splitlines() if l.startswith("points")).split()[1] == "2"
    _, out, _ = run(capsys, "score", "123m456m789m55p78p", "--win", "9p", "--rules",
                    "sichuan", "--kong-discard", "--json")
    d = json.loads(out)
    assert d["kong_discard"] is True and d["settlement"] == [2, -2, 0, 0]
    # a self-draw has no discarder: a one-line error
    code, _, err = run(capsys, "score", "123m456m789m55p78p", "--win", "9p", "--rules",
                       "sichuan", "--kong-discard", "--self-drawn")
    assert code != 0 and "needs a win on a discard" in err and "Traceback" not in err


def test_score_total_of_multipliers_is_not_called_a_fan_count(capsys):
    # 海南 (docs/rules/hainan.md): 自摸 x2 and 花上添花 x3 multiply, 2 x 3 = 6 points; the
    # values' sum (5) is printed as such, never as "5 fan"
    code, out, _ = run(capsys, "score", "123m456p789s234s5p", "--win", "5p", "--self-drawn",
                       "--flower-replacement", "--rules", "hainan")
    assert code == 0
    total = next(l for l in out.splitlines() if l.startswith("total"))
    assert "fan" not in total and "formula" in total
    assert next(l for l in out.splitlines() if l.startswith("points")).split()[1] == "6"
    # an additive ruleset keeps its fan total
    _, out, _ = run(capsys, "score", "123m456m789m55p78p", "--win", "9p", "--rules", "sichuan")
    assert next(l for l in out.splitlines() if l.startswith("total")).endswith("fan")


def test_score_names_the_liability_it_cannot_apply(capsys):
    # 南京 大杠开花 包牌 (docs/rules/nanjing.md): the feeder of the kong pays the whole win;
    # a hand text does not say who fed it, so the plain settlement is printed with a note
    _, out, _ = run(capsys, "score", "2m345p678s [111s] [7777p]", "--win", "2m", "--self-drawn",
                    "--kong", "--kong-claimed", "--rules", "nanjing", "--flowers", "8")
    note = [l for l in out.splitlines() if l.startswith("note") and "包" in l]
    assert note and "大杠开花包牌" in note[0]
    # 海南 三道牌 needs three melds fed: a concealed hand gets no note, four claimed melds do
    _, out, _ = run(capsys, "score", "123m456p789s234s5p", "--win", "5p", "--rules", "hainan")
    assert "包" not in out
    _, out, _ = run(capsys, "score", "5p [123m] [456p] [789s] [234s]", "--win", "5p",
                    "--rules", "hainan", "--json")
    assert "三道牌" in json.loads(out)["liability_note"]


def test_score_applies_the_liability_the_hand_text_settles(capsys, tmp_path):
    # 海南 防勾脚 (docs/rules/hainan.md §7): every win on a discard is a 包, the discarder
    # paying what the three would.  The plain settlement of this 平胡 on S's discard (the
    # next seat, as score assumes; E the winner and dealer): E +7, S -3, W -2, N -2 (the
    # command's own line without the option, below); under 防勾脚 S pays all 7.  海底包牌
    # applies on the last tile only (no tile left to draw) and never to a self-draw.
    fg = tmp_path / "fg.toml"
    fg.write_text('name = "fg"\nbase = "hainan"\n[options]\nfang_goujiao = true\n',
                  encoding="utf-8")
    hd = tmp_path / "hd.toml"
    hd.write_text('name = "hd"\nbase = "hainan"\n[options]\nhaidi_bao = true\n',
                  encoding="utf-8")

    def pay(*args):
        _, out, _ = run(capsys, "score", "123m456p789s11z 23m", "--win", "1m", *args, "--json")
        d = json.loads(out)
        return d["settlement"], d["liability_note"]
    assert pay("--rules", "hainan") == ([7, -3, -2, -2], None)
    settled, note = pay("--rules", str(fg))
    assert settled == [7, -7, 0, 0] and "防勾脚" in note and "S pays" in note
    assert pay("--rules", str(hd))[0] == [7, -3, -2, -2]
    assert pay("--rules", str(hd), "--last-tile")[0] == [7, -7, 0, 0]
    assert pay("--rules", str(fg), "--self-drawn")[1] is None


def test_score_flower_replacement_and_kong_claimed_flags(capsys):
    # 海南 花上添花 (docs/rules/hainan.md §3): 自摸 x2 x 花上添花 x3 = 6; winner South, so the
    # dealer (the next seat back, East) pays 12 and the two others 6
    code, out, _ = run(capsys, "score", "123m456p789s11z45m", "--win", "6m", "--rules",
                       "hainan", "--self-drawn", "--seat", "S", "--flower-replacement", "--json")
    d = json.loads(out)
    assert code == 0 and d["flower_replacement"] is True and d["settlement"] == [-12, 24, -6, -6]
    # 南京 大杠开花 +20 (docs/rules/nanjing.md §2): 跑一 10 + 花砸2 (1 硬花 + 1 软花) x 2 + 20
    code, out, _ = run(capsys, "score", "123m456p11z45m [1111s]", "--win", "6m", "--rules",
                       "nanjing", "--self-drawn", "--kong", "--kong-claimed", "--flowers", "1")
    assert code == 0 and "大杠开花" in out and "the kong made on a discard" in out
    assert next(l for l in out.splitlines() if l.startswith("points")).split()[1] == "34"
    # a flag the ruleset does not read is named; a contradicting one is a one-line error
    _, out, _ = run(capsys, "score", "123m456p789s11z45m", "--win", "6m", "--rules", "mcr",
                    "--self-drawn", "--flower-replacement")
    assert "--flower-replacement changes nothing for this hand" in out
    code, _, err = run(capsys, "score", "123m456p789s11z45m", "--win", "6m", "--rules",
                       "hainan", "--flower-replacement")
    assert code != 0 and "needs a self-draw" in err and "Traceback" not in err


def test_score_flag_errors_are_plain(capsys, tmp_path):
    # a negative flower count, a flower replacement where the tile set has no flowers
    # (四川: 108 suited tiles) and a house-rule file with an unknown base: one line each,
    # saying what is wrong (the file named)
    code, _, err = run(capsys, "score", "456p789s11z [555z] 45m", "--win", "6m", "--flowers",
                       "-3")
    assert code != 0 and "cannot be negative" in err and "Traceback" not in err
    code, _, err = run(capsys, "score", "1122334455667p", "--win", "7p", "--self-drawn",
                       "--flower-replacement", "--rules", "sichuan")
    assert code != 0 and "sichuan plays no flowers" in err and "Traceback" not in err
    f = tmp_path / "nope.toml"
    f.write_text('base = "nope"\nname = "x"\n', encoding="utf-8")
    code, _, err = run(capsys, "score", "1122334455667p", "--win", "7p", "--rules", str(f))
    assert code != 0 and str(f) in err and "'nope'" in err and "Traceback" not in err


def test_score_kong_chain(capsys):
    # 杭州 (docs/rules/hangzhou.md §3, §5): M = 2^chain x [爆头 x2]: 爆头 with two kongs in a row
    # is 2 x 2^2 = 8; the winner South self-draws (§6, first deal N 2): the dealer pays 8 x 2
    # = 16, the others 8
    hand = "123m456m* {1111p} {2222p}"
    code, out, _ = run(capsys, "score", hand, "--win", "1z", "--self-drawn", "--kong",
                       "--kong-chain", "2", "--seat", "S", "--rules", "hangzhou", "--json")
    d = json.loads(out)
    assert code == 0 and d["points"] == 8 and d["settlement"] == [-16, 32, -8, -8]
    _, out, _ = run(capsys, "score", hand, "--win", "1z", "--self-drawn", "--kong",
                    "--kong-chain", "2", "--seat", "S", "--rules", "hangzhou")
    assert "after 2 kongs in a row" in out
    # more kongs in the chain than in the hand: a one-line error; MCR reads no chain
    code, _, err = run(capsys, "score", hand, "--win", "1z", "--self-drawn", "--kong",
                       "--kong-chain", "3", "--rules", "hangzhou")
    assert code != 0 and "kong_chain=3" in err and "Traceback" not in err
    _, out, _ = run(capsys, "score", "123m456m789m1s{1111p}", "--win", "1s", "--self-drawn",
                    "--kong", "--kong-chain", "1")
    assert "--kong-chain changes nothing for this hand" in out


def test_score_names_a_table_flag_the_ruleset_does_not_read(capsys):
    # 广东 推倒胡 has no 杠上炮 (docs/rules/guangdong.md: no such fan, no payment rule), so
    # --kong-discard changes nothing there and the output says so; under 四川 it counts
    # (the fan row above), so no such note
    code, out, _ = run(capsys, "score", "123m456p789s11z45m", "--win", "6m", "--rules",
                       "guangdong", "--kong-discard")
    assert code == 0
    assert "note     --kong-discard changes nothing for this hand" in out
    _, out, _ = run(capsys, "score", "123m456p789s11z45m", "--win", "6m", "--rules",
                    "guangdong", "--kong-discard", "--json")
    assert "--kong-discard" in json.loads(out)["flag_note"]
    _, out, _ = run(capsys, "score", "123m456m789m55p78p", "--win", "9p", "--rules",
                    "sichuan", "--kong-discard")
    assert "changes nothing" not in out
    # Python: declared_ready=None reads as not declared ("")
    import majiang
    a = majiang.score("123m456p789s11z45m", "6m", ruleset="shandong", declared_ready=None)
    b = majiang.score("123m456p789s11z45m", "6m", ruleset="shandong")
    assert a.total == b.total and a.context.declared_ready == ""


def test_score_declared_ready_flags(capsys):
    # 山东 (docs/rules/shandong.md): 推倒和 1 + 门清 1 + 一条龙 2 on a discard = 4; 暗楼 adds 1 = 5,
    # paid by the discarder alone
    code, out, _ = run(capsys, "score", "123m456m789m44p78s", "--win", "9s", "--rules",
                       "shandong", "--seat", "S", "--declared-ready", "concealed", "--json")
    d = json.loads(out)
    assert code == 0 and d["declared_ready"] == "concealed" and d["total"] == 4 + 1
    code, out, _ = run(capsys, "score", "123m456m789m44p78s", "--win", "9s", "--rules",
                       "shandong", "--seat", "S", "--declared-ready", "concealed")
    assert code == 0 and "暗楼" in out and "declared ready (concealed)" in out
    # 明楼 on a discard: a one-line error
    code, _, err = run(capsys, "score", "123m456m789m44p78s", "--win", "9s", "--rules",
                       "shandong", "--declared-ready", "open")
    assert code != 0 and "self-draw" in err and "Traceback" not in err
    # 保定 平胡 1 by the dealer on a declared discarder: each pays his own share of 2
    _, out, _ = run(capsys, "score", "123m456p789s1122z", "--win", "1z", "--rules", "baoding",
                    "--discarder-ready", "--json")
    assert json.loads(out)["settlement"] == [6, -2, -2, -2]


# ---------------------------------------------------------------- --indicator: the 痞子
PIZI_HAND = "[123p] 234s 678s 345m 2s"
"""By hand, under 武汉 with 5m turned (5m the 痞子, 6m the joker): 123p 234s 678s 345m are
four sets and 2s waits for its 2-5-8 pair (tenpai, 0) - but the 痞子 5m may not stay in a
complete hand, so 345m is 34m + a tile to throw: 1-shanten (2m for 234m, 2s for the pair)."""


def test_shanten_applies_the_turned_indicator_like_python(capsys):
    code, out, err = run(capsys, "shanten", PIZI_HAND, "--rules", "wuhan", "--indicator", "5m",
                         "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["shanten"] == 1
    assert data["forms"]["small (2-5-8 pair)"] == 1
    # another turned tile (1z: 1z the 痞子, not held): tenpai on the 2s pair
    code, out, err = run(capsys, "shanten", PIZI_HAND, "--rules", "wuhan", "--indicator", "1z",
                         "--json")
    assert code == 0, err
    assert json.loads(out)["shanten"] == 0
    code, out, err = run(capsys, "shanten", PIZI_HAND, "--rules", "wuhan", "--indicator", "5m")
    assert code == 0, err
    overall = next(line for line in out.splitlines() if line.startswith("overall"))
    assert overall.split()[1] == "1"


def test_advise_header_applies_the_turned_indicator(capsys):
    # + 9p: 14 tiles; discarding 5m or 9p keeps the 1-shanten above, nothing does better
    code, out, err = run(capsys, "advise", PIZI_HAND + " 9p", "--rules", "wuhan",
                         "--indicator", "5m", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["shanten"] == 1
    assert min(r["shanten"] for r in data["discards"]) == 1
    code, out, err = run(capsys, "advise", PIZI_HAND + " 9p", "--rules", "wuhan",
                         "--indicator", "5m")
    assert code == 0, err
    assert "shanten  1-shanten" in out


def test_the_suggested_command_carries_the_options_given(capsys):
    hand = PIZI_HAND + " 9p"
    code, out, err = run(capsys, "shanten", hand, "--rules", "wuhan", "--indicator", "5m")
    assert code == 0, err
    hint = out.strip().splitlines()[-1].split("run: ", 1)[1]
    assert "--indicator 5m" in hint and "--rules wuhan" in hint
    argv = shlex.split(hint)
    assert argv[:2] == ["majiang", "advise"]
    code, out, err = run(capsys, *argv[1:])     # the suggestion runs as given
    assert code == 0, err
    assert "shanten  1-shanten" in out
    # and back: a 13-tile hand given to advise names shanten with the same options
    code, _, err = run(capsys, "advise", PIZI_HAND, "--rules", "wuhan", "--indicator", "5m")
    assert code == 2
    argv = shlex.split(err.split("run: ", 1)[1])
    assert argv[:2] == ["majiang", "shanten"] and "--indicator" in argv
    code, out, err = run(capsys, *argv[1:])
    assert code == 0, err


def test_score_says_when_a_turned_joker_ruleset_gets_no_indicator(capsys):
    hand, win = "123m456p789s1122z", "2z"
    for rules_name in ("nanchang", "tianjin"):
        code, out, err = run(capsys, "score", hand, "--win", win, "--rules", rules_name)
        assert code == 0, err
        assert "no --indicator given: scored without jokers" in out
        code, out, err = run(capsys, "score", hand, "--win", win, "--rules", rules_name,
                             "--json")
        assert code == 0, err
        assert "scored without jokers" in json.loads(out)["joker_note"]
        # with the indicator the jokers are known: no note
        code, out, err = run(capsys, "score", hand, "--win", win, "--rules", rules_name,
                             "--indicator", "5s", "--json")
        assert code == 0, err
        assert json.loads(out)["joker_note"] is None
    # a fixed joker (杭州 白板) or no jokers: nothing to say
    code, out, err = run(capsys, "score", hand, "--win", win, "--json")
    assert code == 0, err
    assert json.loads(out)["joker_note"] is None


def test_match_plays_hands_in_a_row(capsys):
    """majiang match: one line per hand and each match's final scores; the JSON's final
    scores are the sums of its hands' score changes, each hand sums to zero, and under
    台湾 the dealer keeps the deal after his own win (his streak then grows by one)."""
    code, out, _ = run(capsys, "match", "taiwan", "--hands", "6", "--seed", "3", "--json")
    assert code == 0
    d = json.loads(out)
    assert d["ruleset"] == "taiwan" and len(d["hands"]) == 6
    totals = [0, 0, 0, 0]
    for h in d["hands"]:
        assert sum(h["score_deltas"]) == 0
        totals = [a + b for a, b in zip(totals, h["score_deltas"])]
        assert h["scores"] == totals
    assert d["final_scores"] == [totals]
    for a, b in zip(d["hands"], d["hands"][1:]):
        if a["dealer"] in [w["seat"] for w in a["winners"]]:
            assert b["dealer"] == a["dealer"] and b["dealer_streak"] == a["dealer_streak"] + 1
    code, out, _ = run(capsys, "match", "taiwan", "--hands", "6", "--seed", "3")
    assert code == 0 and out.count("\n    0 ") == 6
    assert "final    match 0: " + "  ".join(f"seat {i} {v:+d}" for i, v in
                                            enumerate(totals)) in out
    assert "dealer   after a win the dealer keeps the deal" in out
    code, _, err = run(capsys, "match", "taiwan", "--hands", "2", "--rounds", "1")
    assert code == 2 and "not allowed with" in err
    code, _, err = run(capsys, "match", "nosuch")
    assert code == 2 and "unknown ruleset" in err and "Traceback" not in err

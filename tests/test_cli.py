"""The ``majiang`` command line, run in-process through ``main([...])`` and once
as a subprocess."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import types

import pandas as pd
import pytest

from majiang import cli, records
from majiang.cli import SUBCOMMANDS, build_parser, main

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
    lines = [l for l in out.splitlines() if l.strip()][3:]   # header + table rows
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


def test_advise_json(capsys):
    code, out, _ = run(capsys, "advise", SEED, "--visible", "1m1m7m", "--json")
    assert code == 0
    data = json.loads(out)
    assert {"hand", "glyphs", "shanten", "visible", "forms", "seven_pairs_quads",
            "second_order", "discards"} <= set(data)
    assert data["shanten"] == 0 and data["visible"] == "117m"
    first = data["discards"][0]
    assert set(first) == {"rank", "discard", "shanten", "ukeire_count", "ukeire_kinds",
                          "ukeire", "improvement"}
    assert (first["rank"], first["discard"], first["ukeire"]) == (1, "3m", "147m")
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
        # ranked by p_win, then p_tenpai, then live ukeire (best first)
        keys = [(-r["p_win"], -r["p_tenpai"], -r["ukeire_count"]) for r in d["discards"]]
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

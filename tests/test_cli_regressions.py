"""Regression tests for the command-line bugs a fresh user found (issue 8, item 6):
16-tile hands and the hints between commands, hands below the minimum, the cap note,
jokers in the glyph line, Ctrl-C, the ``rules --help`` text."""
from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import textwrap

import pytest

from majiang import rules
from majiang.cli import main
from majiang.errors import RuleError
from majiang.tiles import N_KINDS, parse_tile

JOKER_GLYPH = "\U0001F02A"      # Unicode MAHJONG TILE JOKER


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


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
    assert ".md" not in out and "shared" not in out


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

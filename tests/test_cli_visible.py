"""``--visible`` of ``majiang shanten`` / ``majiang advise``: checked against the
ruleset's tile set and the hand, and ``*`` for a seen joker.

Expected live counts are worked from the rule, not read from our output: 杭州's
joker is 白板 (5z), all four copies wild; a hand holding one joker leaves
4 - 1 = 3 joker draws, and each seen joker takes one more away."""
from __future__ import annotations

import json

import pytest

from majiang.cli import main

HZ = "123m456p789s1s22z*"          # 杭州: tenpai, a joker draw completes it


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def error(capsys, *argv) -> str:
    code, out, err = run(capsys, *argv)
    assert code == 2 and err.startswith("majiang: error: ") and "Traceback" not in err
    return err


def ukeire_json(capsys, *argv) -> dict:
    code, out, _ = run(capsys, "shanten", *argv, "--json")
    assert code == 0
    return json.loads(out)


# ------------------------------------------------------------ tile set and copies
@pytest.mark.parametrize("cmd,hand", [("shanten", "123m456p789s11s23p"),
                                      ("advise", "123m456p789s11s234p")])
def test_visible_outside_the_tile_set(capsys, cmd, hand):
    # sichuan plays 108 tiles: no honours, so a seen 4z cannot exist
    err = error(capsys, cmd, hand, "--rules", "sichuan", "--visible", "4z")
    assert "4z is not in the tile set of sichuan (108 tiles)" in err
    # the same hand and tile without --rules (136 tiles) is fine
    code, _, _ = run(capsys, cmd, hand, "--visible", "4z")
    assert code == 0


def test_visible_counts_jokers_held_as_copies(capsys):
    # 5z is 杭州's joker kind: 1 held as '*' + 4 seen = 5 copies of a 4-copy tile
    err = error(capsys, "shanten", HZ, "--rules", "hangzhou", "--visible", "5z5z5z5z")
    assert "5 copies of 5z" in err and "hangzhou has 4" in err
    # a plain kind over 4 is still refused (hand 1s + four seen)
    err = error(capsys, "shanten", HZ, "--rules", "hangzhou", "--visible", "1s1s1s1s")
    assert "1s" in err


# ------------------------------------------------------------ seen jokers
def test_seen_jokers_lower_the_live_joker_draws(capsys):
    base = ukeire_json(capsys, HZ, "--rules", "hangzhou")["ukeire"]
    assert base["5z*"] == 4 - 1                      # 4 wild copies, 1 held
    for seen in (1, 2, 3):
        d = ukeire_json(capsys, HZ, "--rules", "hangzhou", "--visible", "*" * seen)
        assert d["ukeire"]["5z*"] == 4 - 1 - seen
        assert d["visible"] == "*" * seen
        # only the joker draw changes
        assert {k: v for k, v in d["ukeire"].items() if k != "5z*"} == \
            {k: v for k, v in base.items() if k != "5z*"}
    # '*' and the face of the wild kind mean the same seen joker
    assert ukeire_json(capsys, HZ, "--rules", "hangzhou", "--visible", "1s*")["ukeire"] == \
        ukeire_json(capsys, HZ, "--rules", "hangzhou", "--visible", "1s5z")["ukeire"]


def test_seen_jokers_in_advise(capsys):
    hand = HZ + "1m"
    code, out, _ = run(capsys, "advise", hand, "--rules", "hangzhou", "--json",
                       "--no-second-order")
    before = {r["discard"]: r["ukeire_count"] for r in json.loads(out)["discards"]}
    code, out, _ = run(capsys, "advise", hand, "--rules", "hangzhou", "--json",
                       "--no-second-order", "--visible", "**")
    data = json.loads(out)
    after = {r["discard"]: r["ukeire_count"] for r in data["discards"]}
    assert data["visible"] == "**"
    # every discard that keeps a useful joker draw loses the two seen jokers
    joker_rows = [r["discard"] for r in data["discards"] if "*" in r["ukeire"]]
    assert joker_rows
    for d in before:
        assert after[d] == before[d] - (2 if d in joker_rows else 0)


def test_too_many_jokers(capsys):
    err = error(capsys, "shanten", HZ, "--rules", "hangzhou", "--visible", "****")
    assert "5 jokers: 1 in the hand + 4 seen" in err and "hangzhou has 4" in err


@pytest.mark.parametrize("argv,needle", [
    (["123m456p789s1s223z", "--visible", "*"], "--rules with jokers"),
    (["123m456p789s1s223z", "--rules", "mcr", "--visible", "*"], "mcr has no jokers"),
    ([HZ.replace("*", "3z"), "--rules", "wuhan", "--visible", "*"], "--indicator"),
    (["123m456p789s1s22z*", "--rules", "tianjin", "--indicator", "4z", "--visible", "*"],
     "two wild kinds (4z or 1z)"),
])
def test_star_refused_where_the_joker_is_unknown(capsys, argv, needle):
    assert needle in error(capsys, "shanten", *argv)


@pytest.mark.parametrize("extra,what", [(["--draws", "2"], "--draws"),
                                        (["--plot", "unused.png"], "--plot")])
@pytest.mark.parametrize("seen", ["*", "5z"])
def test_probabilities_refuse_seen_jokers(capsys, tmp_path, extra, what, seen):
    extra = [x if x != "unused.png" else str(tmp_path / x) for x in extra]
    err = error(capsys, "advise", HZ + "1m", "--rules", "hangzhou", "--visible", seen, *extra)
    assert f"{what}: seen jokers" in err and "not modelled" in err
    assert not (tmp_path / "unused.png").exists()


def test_visible_copies_of_the_turned_indicator_kind(capsys):
    # 天津, indicator 1m: the turned 1m is face up (seen by itself), 3 more 1m are wild;
    # a fourth visible 1m would be a fifth copy
    hand = "345m45p**678s1122s"
    for seen in ("1m1m1m1m", "1m" * 8):
        err = error(capsys, "advise", hand, "--rules", "tianjin", "--indicator", "1m",
                    "--visible", seen, "--no-second-order")
        assert "copies of 1m" in err and len(err.strip().splitlines()) == 1
    # each visible 1m is a seen joker: 7 wild - 2 held - 1 seen
    code, out, _ = run(capsys, "advise", hand, "--rules", "tianjin", "--indicator", "1m",
                       "--visible", "1m", "--json", "--no-second-order")
    code0, out0, _ = run(capsys, "advise", hand, "--rules", "tianjin", "--indicator", "1m",
                         "--json", "--no-second-order")
    row = {r["discard"]: r["ukeire_count"] for r in json.loads(out)["discards"]}
    row0 = {r["discard"]: r["ukeire_count"] for r in json.loads(out0)["discards"]}
    assert row["4p"] == row0["4p"] - 1

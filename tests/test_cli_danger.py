"""``majiang danger``: the danger table of a position from the command line."""
from __future__ import annotations

import json

from majiang.cli import main

HAND = "123m456m789p6p11s2s9p"
RIVERS = ["1z2z9s1m8s5z3m2p", "3z4z1s7z9m1p4s2z3s6p", "7z8m2s4s1z3z5z7m5s6p",
          "2z5z3s7s4z6z1s8m9m6p"]


def run(capsys, *argv: str):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_text_table(capsys):
    code, out, err = run(capsys, "danger", HAND, "--drawn", "9p", "--samples", "100",
                         "--discards", *RIVERS)
    assert code == 0 and not err
    lines = out.splitlines()
    assert lines[1].startswith("model: ready-hand samples")
    assert lines[2].startswith("P(ready): seat 1 ")
    head = lines[3].split()
    assert head[:5] == ["tile", "seen", "label", "p_deal_in", "±1SE"]
    assert head[-1] == "exp_loss" and "seat" in head
    rows = {r.split()[0]: r.split() for r in lines[4:]}
    assert set(rows) == {"1m", "2m", "3m", "4m", "5m", "6m", "6p", "7p", "8p", "9p", "1s", "2s"}
    assert rows["6p"][1:3] == ["3", "熟张"] and rows["9p"][1:3] == ["0", "生张"]


def test_json(capsys):
    code, out, _ = run(capsys, "danger", HAND, "--drawn", "9p", "--samples", "60", "--json",
                       "--discards", *RIVERS)
    assert code == 0
    data = json.loads(out)
    assert data["model"] == "ready-hand samples" and data["n_samples"] == 60
    assert set(data["p_ready"]) == {"1", "2", "3"}
    row = {r["tile"]: r for r in data["rows"]}
    assert row["6p"]["seen"] == 3 and 0 <= row["6p"]["p_deal_in"] <= 1


def test_bad_input(capsys):
    code, _, err = run(capsys, "danger", HAND, "--discards", "1m", "2m")
    assert code == 2 and err.startswith("majiang: error: ") and "one entry per seat" in err
    code, _, err = run(capsys, "danger", "123m", "--samples", "10")
    assert code == 2 and "Traceback" not in err


def test_position_file_gives_the_same_table_as_the_options(capsys, tmp_path):
    f = tmp_path / "late.toml"
    f.write_text(f'hand = "{HAND}"\ndrawn = "9p"\ndiscards = {json.dumps(RIVERS)}\n')
    code, out, err = run(capsys, "danger", "--position", str(f), "--samples", "60", "--json")
    assert code == 0 and not err
    code, ref, _ = run(capsys, "danger", HAND, "--drawn", "9p", "--samples", "60", "--json",
                       "--discards", *RIVERS)
    assert json.loads(out)["rows"] == json.loads(ref)["rows"]
    line = "hand=" + HAND + " drawn=9p " + " ".join(
        f"discards{i}={r}" for i, r in enumerate(RIVERS))
    code, out2, _ = run(capsys, "danger", "--position", line, "--samples", "60", "--json")
    assert code == 0 and json.loads(out2)["rows"] == json.loads(ref)["rows"]


def test_position_refuses_the_table_options(capsys, tmp_path):
    f = tmp_path / "p.toml"
    f.write_text(f'hand = "{HAND}"\ndrawn = "9p"\n')
    code, _, err = run(capsys, "danger", HAND, "--position", str(f))
    assert code == 2 and "drop HAND" in err and len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, "danger", "--position", str(f), "--seat", "2",
                       "--discards", *RIVERS)
    assert code == 2 and "drop --discards, --seat" in err
    code, _, err = run(capsys, "danger", "--position", str(f), "--rules", "sichuan")
    assert code == 2 and "under mcr" in err
    code, _, err = run(capsys, "danger")
    assert code == 2 and "HAND (or --position)" in err

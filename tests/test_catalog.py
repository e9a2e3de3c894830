"""The catalogue of surveyed variants (majiang.rules.catalog, ``majiang rules --all``): each
variant's status says honestly how much of it a ruleset plays, and names what is read by
interpretation and what is not played or lost."""
from __future__ import annotations

import json

from majiang import rules
from majiang.cli import main
from majiang.rules.base import coverage_of
from majiang.rules.catalog import STATUSES, VARIANTS, variants


def test_status_follows_the_named_facts():
    # the rule of the status: "complete" only when nothing is interpreted or missing
    assert coverage_of((), ()) == "complete"
    assert coverage_of(("x",), ()) == "interpreted"
    assert coverage_of((), ("y",)) == "gaps" and coverage_of(("x",), ("y",)) == "gaps"
    vs = variants()
    assert len(vs) == len(VARIANTS) == 31
    for v in vs:
        assert v.status in STATUSES
        assert v.ruleset is not None                     # every variant plays today
        rs = rules.get(v.ruleset)
        # the ruleset's facts are shown, after the variant's own
        assert v.interpreted[len(v.interpreted) - len(rs.interpreted):] == rs.interpreted
        assert v.missing[len(v.missing) - len(rs.missing):] == rs.missing
        if v.status == "complete":
            assert not v.interpreted and not v.missing, v.section
        if v.status == "interpreted":
            assert v.interpreted and not v.missing, v.section
        if v.status == "gaps":
            assert v.missing, v.section


def test_rows_that_lost_facts_are_not_complete():
    got = {v.section: v for v in variants()}
    # 螺山: winning types ②-④ are lost (the source text lists five, gives two)
    assert got["§3.28"].status == "gaps" and any("②-④" in m for m in got["§3.28"].missing)
    # 沈阳: 闭门炮 is named and never defined
    assert any("闭门炮" in m for m in got["§3.29"].missing)
    # one ruleset, two variants: 卡五星 plays 襄阳 as stated, 广水 with 卡五星's values
    assert got["§3.18"].status == "complete" and got["§3.17"].status == "interpreted"
    # 宜昌 plays with the Sichuan values
    assert got["§3.11"].status == "interpreted"
    # rules of the readings still unplayed are named: 广东 花鬼 (四鬼胡, 不带风 / 不带万,
    # 武汉's refusal of a win holding the 痞子 and 南昌's honour chows — an interpretation of
    # how they are claimed and valued — are played now)
    assert not any("honour chows" in m for m in got["§3.7"].missing)
    assert any("honour chow" in m for m in got["§3.7"].interpreted)
    assert not any("痞子" in m for m in got["§3.16"].missing)
    assert any("花鬼" in m for m in got["§3.4"].missing)
    assert not any("四鬼胡" in m or "不带" in m for m in got["§3.4"].missing)


def test_cli_lists_the_notes_and_counts(capsys):
    assert main(["rules", "--all"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    vs = variants()
    counts = {s: sum(v.status == s for v in vs) for s in STATUSES}
    words = {"complete": "complete", "interpreted": "interpreted", "gaps": "with gaps",
             "partial": "partial (no ruleset)"}
    want = "31 variants: " + ", ".join(f"{counts[s]} {words[s]}" for s in STATUSES if counts[s])
    assert out[-1] == want
    shenyang = next(ln for ln in out if " shenyang " in ln)
    assert " gaps " in shenyang and "not played or lost: 闭门炮 undefined" in shenyang
    assert "interpreted: 小和 1" in shenyang
    mcr = next(ln for ln in out if " mcr " in ln)
    assert mcr.rstrip().endswith("complete")


def test_cli_json_gives_lists(capsys):
    assert main(["rules", "--all", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    row = next(r for r in rows if r["ruleset"] == "hefei")
    assert row["status"] == "interpreted" and row["missing"] == []
    assert row["interpreted"][0].startswith("Changsha values (majiang rule notes 'hefei' §1)")


def test_one_ruleset_shows_its_coverage(capsys):
    assert main(["rules", "shenyang"]) == 0
    out = capsys.readouterr().out
    assert "coverage gaps" in out and "not played or lost  闭门炮 undefined" in out
    assert main(["rules", "mcr"]) == 0
    out = capsys.readouterr().out
    assert "coverage complete" in out and "not played" not in out
    d = rules.describe(rules.get("hefei"))
    assert d["coverage"] == "interpreted" and d["missing"] == []

"""The catalogue of surveyed variants (majiang.rules.catalog, ``majiang rules --all``): each
variant's status says honestly how much of it a ruleset plays, and names what is read by
interpretation, what is not played and what the sources lost or never defined."""
from __future__ import annotations

import json

from majiang import rules
from majiang.cli import main
import pytest

from majiang.errors import RuleError
from majiang.rules.base import COVERAGES, coverage_of
from majiang.rules.catalog import STATUSES, VARIANTS, variants


@pytest.mark.parametrize("interpreted", [(), ("x",)])
@pytest.mark.parametrize("missing", [(), ("y",)])
@pytest.mark.parametrize("lost", [(), ("z",)])
def test_status_of_every_combination(interpreted, missing, lost):
    # a rule not played outranks a lost fact, which outranks an interpretation
    want = ("gaps" if missing else "sources incomplete" if lost
            else "interpreted" if interpreted else "complete")
    assert coverage_of(interpreted, missing, lost) == want
    assert coverage_of(interpreted, missing) == coverage_of(interpreted, missing, ())


def test_statuses_best_first():
    assert COVERAGES == ("complete", "interpreted", "sources incomplete", "gaps")
    assert STATUSES == COVERAGES + ("partial",)


def test_a_note_must_be_a_tuple_of_strings():
    # a lone string (a forgotten comma) would otherwise be shown letter by letter
    import dataclasses
    rs = rules.get("mcr")
    for name in ("interpreted", "missing", "lost"):
        with pytest.raises(RuleError, match=name):
            dataclasses.replace(rs, **{name: "a forgotten comma"})


def test_status_follows_the_named_facts():
    vs = variants()
    assert len(vs) == len(VARIANTS) == 31
    for v in vs:
        assert v.status in STATUSES
        assert v.ruleset is not None                     # every variant plays today
        rs = rules.get(v.ruleset)
        # the ruleset's facts are shown, after the variant's own
        assert v.interpreted[len(v.interpreted) - len(rs.interpreted):] == rs.interpreted
        assert v.missing[len(v.missing) - len(rs.missing):] == rs.missing
        assert v.lost[len(v.lost) - len(rs.lost):] == rs.lost
        if v.status == "complete":
            assert not v.interpreted and not v.missing and not v.lost, v.section
        if v.status == "interpreted":
            assert v.interpreted and not v.missing and not v.lost, v.section
        if v.status == "sources incomplete":
            assert v.lost and not v.missing, v.section
        if v.status == "gaps":
            assert v.missing, v.section
        # no note is both not played and lost, nor both lost and interpreted
        assert not set(v.missing) & set(v.lost), v.section
        assert not set(v.interpreted) & set(v.lost), v.section
        for t in v.missing:             # a "not played" note does not say the text is lost
            assert "undefined" not in t and " lost" not in t, (v.section, t)


def test_the_short_list_and_all_read_one_status(capsys):
    # `majiang rules` (per ruleset) and `rules --all` (per variant) take the status from
    # the same notes: a ruleset that plays one variant shows that variant's status; 宜昌
    # (the Sichuan values used) is interpreted in both
    vs = variants()
    per_ruleset = {}
    for v in vs:
        per_ruleset.setdefault(v.ruleset, []).append(v)
    assert main(["rules", "--json"]) == 0
    short = {r["name"]: r["coverage"] for r in json.loads(capsys.readouterr().out)}
    for name, rows in per_ruleset.items():
        if len(rows) == 1 and not VARIANTS[vs.index(rows[0])].interpreted:
            assert short[name] == rows[0].status == rules.get(name).coverage, name
    assert short["sichuan_xueliu"] == "interpreted"
    assert {v.section: v.status for v in vs}["§3.11"] == "interpreted"
    assert rules.get("sichuan_xueliu").section == "§3.11"
    assert short["sichuan"] == "complete"


def test_a_fact_the_sources_lose_is_lost_not_missing():
    got = {v.section: v for v in variants()}
    # each named by the rule texts without a definition (a lost list, an undefined name)
    for section, word in (("§3.29", "闭门炮"), ("§3.28", "②-④"), ("§3.6", "十风"),
                          ("§3.24", "乱风向"), ("§3.24", "开宝"), ("§3.27", "大绝"),
                          ("§3.30", "抢金"), ("§3.21", "items 1 and 3")):
        assert any(word in t for t in got[section].lost), (section, word)
        assert not any(word in t for t in got[section].missing), (section, word)
    # 十风 is defined by the Yunnan sources (ten honour discards), so Yunnan plays it; what
    # the draws do on reaching the two face-up tail tiles they never say
    assert any("十风" in t for t in got["§3.26"].interpreted)
    assert not got["§3.26"].missing
    assert any("tail tiles" in t for t in got["§3.26"].lost)
    # a fact left open for which a value is played is interpreted, not lost: 沈阳's wall
    # end and several winners, 天津's caps and wall end
    for section in ("§3.29", "§3.15"):
        notes = got[section].missing + got[section].lost
        assert not any("wall end" in t for t in notes), section
        assert any("wall end" in t for t in got[section].interpreted), section
    # 螺山: every rule its sources define is played, some are lost
    assert got["§3.28"].status == "sources incomplete"
    # 沈阳's 亮牌: the text does not say what a shown set is in the hand (a set of it or
    # not, a replacement or not) nor what its 2 番 counts: lost, not played
    # (docs/rules/shenyang.md §4)
    assert got["§3.29"].status == "sources incomplete"
    assert any("亮牌" in t for t in got["§3.29"].lost) and not got["§3.29"].missing


def test_rows_that_lost_facts_are_not_complete():
    got = {v.section: v for v in variants()}
    # 螺山: winning types ②-④ are lost (the source text lists five, gives two)
    assert got["§3.28"].status == "sources incomplete"
    assert any("②-④" in m for m in got["§3.28"].lost)
    # 沈阳: 闭门炮 is named and never defined
    assert any("闭门炮" in m for m in got["§3.29"].lost)
    # one ruleset, two variants: 卡五星 plays 襄阳 as stated, 广水 with 卡五星's values
    assert got["§3.18"].status == "complete" and got["§3.17"].status == "interpreted"
    # 宜昌 plays with the Sichuan values
    assert got["§3.11"].status == "interpreted"
    # rules of the readings once unplayed are played now: 广东 花鬼 (option ghost =
    # "flowers"), 四鬼胡, 不带风 / 不带万, 武汉's refusal of a win holding the 痞子 and
    # 南昌's honour chows (an interpretation of how they are claimed and valued)
    assert not any("honour chows" in m for m in got["§3.7"].missing)
    assert any("honour chow" in m for m in got["§3.7"].interpreted)
    assert not any("痞子" in m for m in got["§3.16"].missing)
    assert not any("花鬼" in m for m in got["§3.4"].missing)
    assert not any("四鬼胡" in m or "不带" in m for m in got["§3.4"].missing)


def test_cli_lists_the_notes_and_counts(capsys):
    assert main(["rules", "--all"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    vs = variants()
    counts = {s: sum(v.status == s for v in vs) for s in STATUSES}
    words = {"complete": "complete", "interpreted": "interpreted",
             "sources incomplete": "sources incomplete", "gaps": "with gaps",
             "partial": "partial (no ruleset)"}
    want = "31 variants: " + ", ".join(f"{counts[s]} {words[s]}" for s in STATUSES if counts[s])
    assert out[-1] == want
    assert sum(counts.values()) == 31 and counts["sources incomplete"] >= 3
    shenyang = next(ln for ln in out if " shenyang " in ln)
    assert " sources incomplete " in shenyang and "lost in the sources: 闭门炮" in shenyang
    assert "not played" not in shenyang and "interpreted: 小和 1" in shenyang
    assert "亮牌 (2 番): whether a shown set is one of the hand's four sets" in shenyang
    luoshan = next(ln for ln in out if " luoshan " in ln)
    assert " sources incomplete " in luoshan and "lost in the sources: winning types ②-④" in luoshan
    assert "not played" not in luoshan
    mcr = next(ln for ln in out if " mcr " in ln)
    assert mcr.rstrip().endswith("complete")


def test_not_played_is_said_once(capsys):
    # every `missing` entry is not played by definition: the display adds the label once
    texts = [t for v in VARIANTS for t in v.missing]
    texts += [t for n in rules.available() for t in rules.get(n).missing]
    # (every ruleset may have nothing left to list: then there is nothing to say twice)
    assert not [t for t in texts if "not played" in t]
    assert main(["rules", "--all"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert max(ln.count("not played") for ln in out[1:]) == 1
    taiwan = next(ln for ln in out if " taiwan " in ln)
    # the seed's 拉庄 deferral is defined by no source: lost, not "not played"
    assert "lost in the sources: 拉庄 as a deferral" in taiwan and "not played" not in taiwan
    gaps = [n for n in rules.available() if rules.get(n).missing]
    for name in gaps[:1]:
        assert main(["rules", name]) == 0
        out = capsys.readouterr().out
        first = rules.get(name).missing[0]
        assert f"not played   {first}" in out and out.count("not played") == 1
    # 立四's standing tiles are played now (docs/rules/lisi.md §1)
    assert main(["rules", "lisi"]) == 0
    assert "not played" not in capsys.readouterr().out


def test_all_with_a_name_shows_its_variants(capsys):
    # docs/rules/README.md: Taiwan 16-tile is §3.5; 卡五星 plays Guangshui and Xiangyang
    for name, sections in (("taiwan", ["§3.5"]), ("kawuxing", ["§3.17", "§3.18"])):
        assert main(["rules", "--all", name]) == 0
        out = capsys.readouterr().out.strip().splitlines()
        assert [ln.split()[0] for ln in out[1:]] == sections
        assert "variants:" not in out[-1]
        assert main(["rules", "--all", name, "--json"]) == 0
        rows = json.loads(capsys.readouterr().out)
        assert [r["section"] for r in rows] == sections
    assert main(["rules", "--all", "changsha_zhuanzhuan"]) == 2    # no variant of its own
    err = capsys.readouterr().err
    assert err.startswith("majiang: error: ") and "changsha_zhuanzhuan" in err
    assert main(["rules", "--all", "taiwn"]) == 2
    assert "unknown ruleset 'taiwn'" in capsys.readouterr().err
    assert main(["rules", "--all", "--toml"]) == 2
    assert "--toml" in capsys.readouterr().err


def test_cli_json_gives_lists(capsys):
    assert main(["rules", "--all", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    row = next(r for r in rows if r["ruleset"] == "hefei")
    assert row["status"] == "interpreted" and row["missing"] == [] and row["lost"] == []
    assert row["interpreted"][0].startswith(
        "Changsha values (rule notes 'hefei' §1 (majiang rules hefei --notes))")
    row = next(r for r in rows if r["ruleset"] == "shenyang")
    assert isinstance(row["lost"], list) and any("闭门炮" in t for t in row["lost"])
    assert not any("闭门炮" in t for t in row["missing"])
    assert {r["status"] for r in rows} <= set(STATUSES)


def test_one_ruleset_shows_its_coverage(capsys):
    assert main(["rules", "shenyang"]) == 0
    out = capsys.readouterr().out
    assert "coverage sources incomplete" in out and "lost in the sources  闭门炮" in out
    assert "亮牌 (2 番)" in out and "not played" not in out
    assert main(["rules", "luoshan"]) == 0
    out = capsys.readouterr().out
    assert "coverage sources incomplete" in out and "not played" not in out
    assert main(["rules", "mcr"]) == 0
    out = capsys.readouterr().out
    assert "coverage complete" in out and "not played" not in out and "lost" not in out
    d = rules.describe(rules.get("hefei"))
    assert d["coverage"] == "interpreted" and d["missing"] == [] and d["lost"] == []
    d = rules.describe(rules.get("luoshan"))
    assert d["coverage"] == "sources incomplete" and d["missing"] == []
    assert any("②-④" in t for t in d["lost"])
    assert main(["rules", "luoshan", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["lost"] == d["lost"]

"""rules.describe / rules.describe_lines (majiang.rules.summary): a ruleset's facts as
plain data and as the text ``majiang rules NAME`` prints, read inside rules/ so the
command line never reads a ruleset's constraints or options itself."""
import json

import pytest

from majiang import rules
from majiang.rules.summary import source_in_words


def test_chinese_official_facts():
    d = rules.describe(rules.get("mcr"))
    # Chinese Official rules: the standard 81 fans numbered from 大四喜 (88) to 花牌 (1),
    # a win needs 8 fan, no jokers, no win constraints, 4 players with 13-tile hands
    by_id = {f["id"]: f for f in d["fans"]}
    assert set(range(1, 82)) <= set(by_id) and d["min_fan"] == 8
    assert (by_id[1]["chinese"], by_id[1]["value"]) == ("大四喜", 88)
    assert (by_id[81]["chinese"], by_id[81]["value"]) == ("花牌", 1)
    assert d["jokers"] is None and d["constraints"] == []
    assert (d["players"], d["hand_size"]) == (4, 13)
    lines = rules.describe_lines(rules.get("mcr"))
    assert lines[0].startswith("Chinese Official") and "[mcr]" in lines[0]
    assert not any(line.startswith("jokers") for line in lines)


def test_sichuan_void_suit_and_108_tiles():
    # 四川血战: 108 tiles (万 筒 条 only), 缺一门 (a hand holds at most two suits)
    d = rules.describe(rules.get("sichuan"))
    assert d["constraints"] == ["void_suit"] and d["tiles"].startswith("108")
    win = next(line for line in rules.describe_lines(rules.get("sichuan"))
               if line.startswith("win"))
    assert "constraints: void_suit" in win


def test_joker_line_for_a_joker_ruleset():
    # 武汉 赖子: the kind after the turned indicator, all 4 copies wild
    lines = rules.describe_lines(rules.get("wuhan"))
    jokers = next(line for line in lines if line.startswith("jokers"))
    assert jokers.startswith("jokers   next (4 copies)")
    assert rules.describe(rules.get("wuhan"))["jokers"]["copies"] == 4


@pytest.mark.parametrize("name", rules.available())
def test_every_ruleset_describes_as_json(name):
    rs = rules.get(name)
    d = json.loads(json.dumps(rules.describe(rs)))
    assert d["name"] == name and ".md" not in d["source"]
    lines = rules.describe_lines(rs)
    assert all("\n" not in line for line in lines)
    assert any(line.startswith("options  ") for line in lines) == bool(d["options"])


def test_source_in_words():
    assert (source_in_words("docs/rules/shandong.md")
            == "rule notes 'shandong' (majiang rules shandong --notes)")
    assert (source_in_words("docs/rules/sichuan.md §8")
            == "rule notes 'sichuan' §8 (majiang rules sichuan --notes)")
    # every page a source cites is named as a page the installed package prints
    # (majiang rules hefei once printed a file name that does not ship)
    assert (source_in_words("docs/rules/hefei.md §1; docs/rules/changsha.md")
            == "rule notes 'hefei' §1 (majiang rules hefei --notes); "
               "rule notes 'changsha' (majiang rules changsha --notes)")
    assert (source_in_words("docs/rules/hebei.md §1-§5, docs/rules/guizhou.md §4-5).")
            == "rule notes 'hebei' §1-§5 (majiang rules hebei --notes), "
               "rule notes 'guizhou' §4-5 (majiang rules guizhou --notes)).")

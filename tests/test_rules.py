"""Rulesets as data: the registry, the Chinese Official fan table, Fan/Ruleset validation,
settlement, and building a variant from the built-in ruleset."""
from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from majiang import rules
from majiang.errors import RuleError
from majiang.rules import Fan
from majiang.rules.knitted import KNITTED_STRAIGHTS, honors_and_knitted, \
    knitted_straight_decompositions
from majiang.scoring import score

MCR = rules.get("mcr")


def test_registry():
    assert "mcr" in rules.available()
    assert rules.get("MCR") is MCR and rules.get("国标") is MCR and rules.get(MCR) is MCR
    with pytest.raises(RuleError, match="available"):
        rules.get("riichi-but-not-really")
    with pytest.raises(RuleError):
        rules.register(MCR)                         # name taken
    with pytest.raises(RuleError):
        rules.register("mcr")                       # not a Ruleset


def test_mcr_basic_facts():
    assert (MCR.players, MCR.hand_size, MCR.n_tiles, MCR.flowers) == (4, 13, 144, 8)
    assert MCR.min_fan == 8 and not MCR.flowers_count_toward_minimum
    assert set(MCR.forms) == {"regular", "seven_pairs", "thirteen_orphans",
                              "honors_and_knitted", "knitted_straight"}
    assert MCR.seven_pairs_quads
    assert "chow_left" in MCR.calls
    assert "docs/rules/mcr.md" in MCR.source


def test_fan_table_is_the_standard_81():
    MCR = rules.mcr.MCR_OFFICIAL     # option concealed_and_melded_kong off (明暗杠 is 82)
    ids = [f.id for f in MCR.fans]
    assert ids == list(range(1, 82))
    # docs/rules/mcr.md §2 count check: 88:7, 64:6, 48:2, 32:3, 24:9, 16:6, 12:5, 8:9, 6:7, 4:4, 2:10, 1:13
    assert Counter(f.value for f in MCR.fans) == {88: 7, 64: 6, 48: 2, 32: 3, 24: 9, 16: 6,
                                                  12: 5, 8: 9, 6: 7, 4: 4, 2: 10, 1: 13}
    assert (MCR.fan(1).chinese, MCR.fan(43).chinese, MCR.fan(81).chinese) == \
        ("大四喜", "无番和", "花牌")
    assert MCR.fan("Full Flush").id == 22 and MCR.fan("full flush").id == 22
    assert MCR.fan("七对").id == 19 and MCR.fan("独听・单钓").id == 79
    for f in MCR.fans:
        assert f.id not in f.excludes
        assert all(1 <= x <= 81 for x in f.excludes)
        assert f.source
    assert not MCR.fan(81).minimum and MCR.fan(43).fallback
    with pytest.raises(RuleError):
        MCR.fan("no such fan")


def test_s003_exclusions_are_in_the_table():
    def names(fan):
        return {MCR.fan(i).chinese for i in MCR.fan(fan).excludes}
    # the 不计 column of docs/rules/mcr.md §2 is contained in ours
    s003 = {"大四喜": {"圈风刻", "门风刻", "三风刻", "碰碰和"}, "大三元": {"箭刻"},
            "绿一色": {"混一色"}, "九莲宝灯": {"清一色"}, "连七对": {"清一色", "不求人", "单钓将"},
            "十三幺": {"五门齐", "不求人", "单钓将"}, "清幺九": {"碰碰和", "双同刻", "无字"},
            "小四喜": {"三风刻"}, "小三元": {"箭刻"}, "字一色": {"碰碰和"},
            "四暗刻": {"门前清", "碰碰和"}, "一色双龙会": {"平和", "七对子", "清一色"},
            "一色四同顺": {"一色三同顺", "一般高", "四归一"}, "一色四节高": {"一色三节高", "碰碰和"},
            "混幺九": {"碰碰和"}, "七对子": {"不求人", "单钓将"},
            "七星不靠": {"五门齐", "不求人", "单钓将"}, "全双刻": {"碰碰和", "断幺"},
            "清一色": {"无字"}, "一色三同顺": {"一色三节高"}, "一色三节高": {"一色三同顺"},
            "全大": {"无字"}, "全中": {"断幺"}, "全小": {"无字"},
            "三色双龙会": {"喜相逢", "老少副", "无字", "平和"}, "全带五": {"断幺"},
            "全不靠": {"五门齐", "不求人", "单钓将"}, "大于五": {"无字"}, "小于五": {"无字"},
            "推不倒": {"缺一门"}, "妙手回春": {"自摸"}, "杠上开花": {"自摸"}, "抢杠和": {"和绝张"},
            "全求人": {"单钓将"}}
    for fan, excl in s003.items():
        assert excl <= names(fan), fan


def test_fan_validation():
    with pytest.raises(RuleError):
        Fan(0, "x", "x", 1, predicate=lambda w: 0)
    with pytest.raises(RuleError):
        Fan(1, "x", "x", 1)                                      # no predicate
    with pytest.raises(RuleError):
        Fan(1, "x", "x", 1, predicate=lambda w: 0, combination=lambda w: ())
    with pytest.raises(RuleError):
        Fan(1, "x", "x", 1, predicate=lambda w: 0, forms={"bogus"})


def test_ruleset_validation():
    with pytest.raises(RuleError):
        dataclasses.replace(MCR, players=5)
    with pytest.raises(RuleError):
        dataclasses.replace(MCR, hand_size=14)
    with pytest.raises(RuleError):
        dataclasses.replace(MCR, forms=("regular", "jokers"))
    with pytest.raises(RuleError):
        dataclasses.replace(MCR, fans=MCR.fans + (MCR.fans[0],))
    bad = dataclasses.replace(MCR.fan(80), excludes=frozenset({999}))
    with pytest.raises(RuleError, match="unknown"):
        dataclasses.replace(MCR, fans=MCR.fans[:79] + (bad, MCR.fans[80]))


def test_settlement():
    assert MCR.settle(10, winner=1, discarder=3) == (-8, 34, -8, -18)
    assert MCR.settle(10, winner=2) == (-18, -18, 54, -18)
    for total in (8, 13, 88):
        for disc in (None, 0, 3):
            assert sum(MCR.settle(total, 1, disc)) == 0
    with pytest.raises(RuleError):
        MCR.settle(8, winner=4)
    with pytest.raises(RuleError):
        MCR.settle(8, winner=1, discarder=1)


def test_a_variant_is_data():
    """A house rule without the minimum and with 花牌 worth 2: a new Ruleset value."""
    flowers2 = dataclasses.replace(MCR.fan(81), value=2)
    house = dataclasses.replace(MCR, name="mcr-house", title="house rules", min_fan=0,
                                fans=MCR.fans[:80] + (flowers2,))
    r = score("[234m] 678m67p555z22s", "5p", flowers=1, ruleset=house)
    assert r.total == 2 + 2 and r.meets_minimum and r.ruleset == "mcr-house"
    assert score("[234m] 678m67p555z22s", "5p", flowers=1).total == 3
    without_chicken = dataclasses.replace(
        MCR, name="no-chicken", fans=tuple(f for f in MCR.fans if f.id != 43))
    r = score("[234m] 678m67p345s22z", "5p", ruleset=without_chicken)
    assert r.total == 0 and not r.meets_minimum


def test_knitted_helpers():
    assert len(KNITTED_STRAIGHTS) == 6 and all(len(k) == 9 for k in KNITTED_STRAIGHTS)
    c = [0] * 34
    for t in (0, 3, 6, 10, 13, 16, 20, 23, 26, 27, 28, 29, 30, 31):
        c[t] = 1
    assert honors_and_knitted(c) == (0, 3, 6, 10, 13, 16, 20, 23, 26)
    c[31] = 0
    c[1] = 1                                 # 2m breaks the knitting
    assert honors_and_knitted(c) is None
    c = [0] * 34
    for t in KNITTED_STRAIGHTS[0]:
        c[t] += 1
    c[27] += 3
    c[31] += 2
    [(ks, pair, sets)] = knitted_straight_decompositions(c, 0)
    assert ks == KNITTED_STRAIGHTS[0] and pair == 31 and sets == (("pung", 27),)
    assert knitted_straight_decompositions(c, 2) == []


def test_house_rules_never_replace_a_builtin():
    """A TOML file reusing a built-in's name is registered as '<name>+house'."""
    back = rules.loads(rules.dumps(MCR))
    assert back.name == "mcr+house"
    assert rules.get("mcr") is MCR
    assert [(f.id, f.value) for f in back.fans] == [(f.id, f.value) for f in MCR.fans]


# ---------------------------------------------------------------- house TOML (issue 8)
@pytest.mark.parametrize("text, needle", [
    ('base = "sichuan"\n[fans]\n"清一色" = -1\n', "'清一色' must be 0 or more, got -1"),
    ('base = "mcr"\n[fans]\n"Full Flush" = -24\n', "'Full Flush' must be 0 or more"),
    ('base = "sichuan"\n[[add_fans]]\nid = 40\nchinese = "门清"\nvalue = -2\n'
     'predicate = "concealed"\n', "add_fans[0] (门清) must be 0 or more"),
])
def test_house_rules_reject_a_negative_fan(text, needle):
    """Was: a negative fan value was accepted (a fan taking points away)."""
    with pytest.raises(RuleError) as err:
        rules.loads(text)
    assert needle in str(err.value)


def test_house_rules_accept_a_zero_fan():
    rs = rules.loads('base = "sichuan"\nname = "zero_qys"\n[fans]\n"清一色" = 0\n')
    assert rs.fan("清一色").value == 0


@pytest.mark.parametrize("base, rkey, okey, a, b", [
    ("sichuan", "cap", "cap", 5, 4),
    ("sichuan", "scoring_base", "base", 2, 3),
    ("guangdong_jipinghu", "min_fan", "min_fan", 3, 2),
    ("kawuxing", "cap", "cap", 5, 6),
])
def test_house_rules_reject_a_cap_or_base_given_twice_differently(base, rkey, okey, a, b):
    """Was: [rules] cap = 5 with [options] cap = 4 gave a ruleset whose scoring said 5
    and whose options said 4."""
    text = f'base = "{base}"\n[options]\n{okey} = {b}\n[rules]\n{rkey} = {a}\n'
    with pytest.raises(RuleError) as err:
        rules.loads(text)
    assert f"rules.{rkey} = {a}" in str(err.value) and f"options.{okey} = {b}" in str(err.value)
    same = rules.loads(f'base = "{base}"\nname = "same_{base}"\n[options]\n{okey} = {a}\n'
                       f'[rules]\n{rkey} = {a}\n')
    assert same.options[okey] == a


@pytest.mark.parametrize("where", ["rules", "options"])
def test_a_sichuan_cap_means_the_same_in_either_table(where):
    """Both places give one ruleset: scoring cap, option and points agree (cap 5 fan:
    6 fan pay 2**5 = 32 at base 1)."""
    key = "cap"
    rs = rules.loads(f'base = "sichuan"\nname = "cap5_{where}"\n[{where}]\n{key} = 5\n')
    assert rs.scoring.cap == 5 and rs.options["cap"] == 5
    assert rs.points(6) == 2 ** 5 and rs.points(4) == 2 ** 4
    back = rules.loads(rules.dumps(rs))
    assert back.scoring.cap == 5 and back.options["cap"] == 5


def test_a_sichuan_base_in_rules_reaches_the_settlement():
    """[rules] scoring_base = 2 is the builder's base: 自摸加底 adds 2, not the default 1."""
    rs = rules.loads('base = "sichuan"\nname = "base2"\n[rules]\nscoring_base = 2\n')
    assert rs.scoring.base == 2 and rs.options["base"] == 2
    assert rs.settlement_params["self_draw_bonus"] == 2


def test_no_cap_round_trips():
    rs = rules.loads('base = "sichuan"\nname = "nocap"\n[rules]\ncap = "none"\n')
    assert rs.scoring.cap is None and rs.options["cap"] is None
    text = rules.dumps(rs)
    assert text.count("cap =") == 1
    back = rules.loads(text)
    assert back.scoring.cap is None and back.points(10) == 2 ** 10


def test_dumps_writes_the_cap_and_base_once():
    for name in rules.available():
        text = rules.dumps(rules.get(name))
        assert text.count("\ncap =") <= 1 and text.count("base = ") <= 2, name  # base = "<name>"


def test_every_ruleset_module_is_discovered():
    """The registry finds its ruleset modules itself (no hand-kept list): every module of
    majiang/rules with a top-level ``build`` function has its builder registered under the
    module's name and at least one registered ruleset built from it."""
    import ast
    from pathlib import Path

    import majiang.rules as rules_pkg

    folder = Path(rules_pkg.__file__).parent
    found = []
    for path in sorted(folder.glob("*.py")):
        if path.name.startswith("_"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(n, ast.FunctionDef) and n.name == "build" for n in tree.body):
            found.append(path.stem)
    assert len(found) >= 20, found   # 24 modules today (mcr, plain and 22 regional)
    for name in found:
        assert rules_pkg.BUILDERS.get(name) is not None, name
        assert rules_pkg.BUILDERS[name].__module__ == f"majiang.rules.{name}"
        mod = __import__(f"majiang.rules.{name}", fromlist=["build"])
        made = [v for v in vars(mod).values() if isinstance(v, rules_pkg.Ruleset)]
        assert made and all(r.name in rules_pkg.available() for r in made), name

"""武汉 personal 番 (docs/rules/wuhan.md: HZ getPersonFan, KZ doubling).

Expected values are worked by hand from the reading: 开口 1, 明杠 1, 暗杠 1 (option 2),
红中杠 1, 痞子杠 1, 赖子杠 2; "double": points x 2^(winner + payer), "product" (HZ):
(points + winner) x payer; 金顶 caps each payment.
"""
import pytest

from majiang import RuleError, score
from majiang.rules import wuhan as W


def test_personal_fan_table():
    assert W.personal_fan({"开口": 1}) == 1
    assert W.personal_fan({"明杠": 2}) == 2
    assert W.personal_fan({"暗杠": 1}) == 1
    assert W.personal_fan({"红中杠": 1, "痞子杠": 1}) == 2
    assert W.personal_fan({"赖子杠": 1}) == 2
    # 开口 counts once however many melds were claimed
    assert W.personal_fan({"开口": 3}) == 1
    assert W.personal_fan(opened=True, laizi_kong=2, red_dragon_kong=1) == 1 + 4 + 1
    # the concealed-kong option: 2 per 暗杠
    rs2 = W.build(concealed_kong_fan=2)
    assert W.personal_fan({"暗杠": 2, "开口": 1}, ruleset=rs2) == 5
    assert W.personal_fan({}) == 0


def test_personal_counts_from_melds():
    # [555p] claimed pung, {1111s} concealed kong, [7777m] claimed kong
    c = W.personal_counts("45m22m [555p] {1111s} [7777m]", laizi_kongs=1)
    assert c == {"开口": 1, "明杠": 1, "暗杠": 1, "红中杠": 0, "痞子杠": 0, "赖子杠": 1}
    assert W.personal_fan(c) == 1 + 1 + 1 + 2
    # only a concealed kong: not opened
    c = W.personal_counts("456p22m45m6m789s {1111s}")
    assert c["开口"] == 0 and c["暗杠"] == 1


def test_double_self_draw():
    # winner 2 (开口 + 明杠); payers 1, 1 (暗杠 only), 3 (开口 + 赖子杠)
    fans = (2, 1, 1, 3)
    out = W.settle_wuhan(5, 0, None, personal=fans)
    assert out == (5 * 8 + 5 * 8 + 5 * 32, -40, -40, -160)
    assert sum(out) == 0


def test_double_discard_only_discarder_pays():
    out = W.settle_wuhan(15, 1, 3, personal=(0, 2, 4, 1))
    assert out == (0, 15 * 8, 0, -15 * 8)


def test_product_hz():
    fans = (2, 1, 0, 3)
    out = W.settle_wuhan(5, 0, None, personal=fans, combine="product")
    # (5 + 2) x payer: 7, 0 (a payer with no personal 番 pays nothing in HZ), 21
    assert out == (28, -7, 0, -21)


def test_none_and_default_flat():
    assert W.settle_wuhan(5, 0, None, personal=(3, 3, 3, 3), combine="none") == (15, -5, -5, -5)
    # no personal 番 given: the flat reading (every 番 0 -> x1)
    assert W.WUHAN.settle(5, 0, None) == (15, -5, -5, -5)
    assert W.WUHAN.settle(15, 2, 1) == (0, -15, 15, 0)


def test_cap_jinding():
    out = W.settle_wuhan(5, 0, None, personal=(2, 1, 1, 3), cap=50)
    assert out == (40 + 40 + 50, -40, -40, -50)


def test_settle_hand_scored_win():
    # 清一色 (大胡 15) won on a self-draw; winner opened with [111m]
    r = score("12345678m99m [111m]", "9m", ruleset="wuhan", self_drawn=True)
    assert r.points == 15
    counts = [W.personal_counts("12345678m99m9m [111m]"), 0, {"暗杠": 1}, {"赖子杠": 1}]
    out = W.settle_hand(r, 0, personal=counts)
    # winner 1; payers 0, 1, 2 -> 15 x 2, 15 x 4, 15 x 8
    assert out == (30 + 60 + 120, -30, -60, -120)
    # without personal 番: RegionalResult.settle, the flat 15 each
    assert W.settle_hand(r, 0) == (45, -15, -15, -15)


def test_settle_hand_options_of_the_result_ruleset():
    rs = W.build(personal="product", cap=10)
    r = score("12345678m99m [111m]", "9m", ruleset=rs, self_drawn=True)
    out = W.settle_hand(r, 0, personal=[1, 1, 0, 2])
    # (15 + 1) x 1 = 16 -> 10; 0; (15 + 1) x 2 = 32 -> 10
    assert out == (20, -10, 0, -10)


def test_bad_input():
    with pytest.raises(RuleError):
        W.settle_wuhan(5, 0, None, personal=(1, 2))
    with pytest.raises(RuleError):
        W.settle_wuhan(5, 0, None, personal=(1, -1, 0, 0))
    with pytest.raises(RuleError):
        W.settle_wuhan(5, 0, None, combine="triple")
    with pytest.raises(RuleError):
        W.personal_fan({"杠": 1})
    with pytest.raises(RuleError):
        W.personal_fan({"明杠": -1})
    with pytest.raises(RuleError):
        W.build(personal="sum")
    with pytest.raises(RuleError):
        W.build(concealed_kong_fan=3)
    with pytest.raises(RuleError):
        W.build(cap=0)


def test_bad_personal_values_are_rule_errors_not_crashes():
    # a bool, a string or an int where a mapping of items belongs (was AttributeError)
    for bad in (True, "明杠", 3):
        with pytest.raises(RuleError, match="mapping of items"):
            W.personal_fan(bad)
    with pytest.raises(RuleError, match="count must be an integer >= 0"):
        W.personal_fan({"明杠": 1.0})
    r = score("12345678m99m [111m]", "9m", ruleset="wuhan", self_drawn=True)
    with pytest.raises(RuleError):
        W.settle_hand(r, 0, personal=[True, 0, 0, 0])
    with pytest.raises(RuleError, match="one 番"):
        W.settle_hand(r, 0, personal=5)


def test_personal_fan_reads_a_ruleset_by_name():
    # 暗杠 1 番 under the registered wuhan (HZ), as with the Ruleset object itself; a
    # name is looked up (an unknown one was silently read as the default options)
    assert W.personal_fan({"暗杠": 2}, ruleset="wuhan") == W.personal_fan(
        {"暗杠": 2}, ruleset=W.WUHAN) == 2
    with pytest.raises(RuleError):
        W.personal_fan({"暗杠": 1}, ruleset="no_such_ruleset")


def test_options_round_trip():
    rs = W.build(personal="product", concealed_kong_fan=2, cap=20)
    assert rs.options["personal"] == "product"
    assert rs.settlement_params["combine"] == "product"
    assert rs.settlement_params["cap"] == 20
    again = W.build(**{k: v for k, v in rs.options.items()})
    assert again.settlement_params == rs.settlement_params


def test_toml_round_trip():
    from majiang.rules import toml
    rs = W.build(personal="product", concealed_kong_fan=2, cap=20)
    back = toml.loads(toml.dumps(rs))
    assert back.settlement_params == rs.settlement_params
    assert back.settle(5, 0, None) == rs.settle(5, 0, None)

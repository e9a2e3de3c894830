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


# ------------------------------------------------------------ personal 番 in the game engine

def _table(**kw):
    from majiang.rules.base import EndTable
    base = dict(players=4, end="win", winners=(0,), ready=(True,) * 4, values=(5,) * 4,
                tiles=({},) * 4, discards=((),) * 4, kongs=((),) * 4, turned=None,
                first_discards={})
    base.update(kw)
    return EndTable(**base)


# indicator 东 (27): 痞子 东, 赖子 南 (28).  Seat 0 won a self-drawn 屁胡 (5) with a claimed
# pung and a claimed kong (开口 1 + 明杠 1 = 2); seat 1 holds a concealed kong (暗杠 1, not
# opened); seat 2 played out two 红中 and a 赖子 (2 + 2 = 4); seat 3 a 痞子 (1).
_T = dict(wild=(28,), melds=(2, 1, 0, 0), kongs=(((5, "exposed", 2),), ((9, "concealed", None),),
                                                 (), ()),
          discards=((1, 2), (3,), (33, 4, 33, 28), (27, 30)),
          wins=((0, "self_draw", None, 5, (("屁胡", 1),)),), payments=((15, -5, -5, -5),))


def test_table_personal_by_hand():
    assert W.table_personal(W.WUHAN, _table(**_T)) == (2, 1, 4, 1)
    # 暗杠 worth 2 under the option
    assert W.table_personal(W.build(concealed_kong_fan=2), _table(**_T)) == (2, 2, 4, 1)


def test_end_settlement_double_by_hand():
    # paid at the win: 5 each; owed 5 x 2^(2 + fp): 40, 320, 40 -> the rest at the end
    out = W.end_settlement(W.WUHAN, _table(**_T))
    assert out == [{"check": "个人番", "payer": 1, "payee": 0, "amount": 35},
                   {"check": "个人番", "payer": 2, "payee": 0, "amount": 315},
                   {"check": "个人番", "payer": 3, "payee": 0, "amount": 35}]


def test_end_settlement_product_and_none_by_hand():
    # HZ: (5 + 2) x fp = 7, 28, 7; paid at the win: (5 + 0) x 0 = 0
    t = _table(**dict(_T, payments=((0, 0, 0, 0),)))
    out = W.end_settlement(W.build(personal="product"), t)
    assert [(e["payer"], e["amount"]) for e in out] == [(1, 7), (2, 28), (3, 7)]
    assert W.end_settlement(W.build(personal="none"), _table(**_T)) == []


def test_end_settlement_discard_win_only_the_discarder():
    # seat 0 wins on seat 2's discard: only seat 2 pays, 5 x 2^(2 + 4) = 320, 5 paid at once
    t = _table(**dict(_T, wins=((0, "discard", 2, 5, ()),), payments=((5, 0, -5, 0),)))
    out = W.end_settlement(W.WUHAN, t)
    assert out == [{"check": "个人番", "payer": 2, "payee": 0, "amount": 315}]


def _log_personal(events):
    """Personal 番 counted from the event log alone: claims, kongs and discards; the 痞子
    is the turned indicator, the 赖子 the wild kind (the log's ``jokers`` event)."""
    jk = next(e for e in events if e["e"] == "jokers")
    pizi, wild = jk["indicator"], jk["joker"]
    opened, exposed, concealed = [0] * 4, [0] * 4, [0] * 4
    played = [[] for _ in range(4)]
    for e in events:
        if e["e"] == "call":
            opened[e["seat"]] = 1
            exposed[e["seat"]] += e["kind"] == "kong"
            played[e["frm"]].remove(e["tile"])          # a claimed discard leaves the pool
        elif e["e"] == "kong":
            if e["kind"] == "concealed":
                concealed[e["seat"]] += 1
            else:
                exposed[e["seat"]] += 1
        elif e["e"] == "discard":
            played[e["seat"]].append(e["tile"])
        elif e["e"] == "win" and e.get("discarder") is not None and e["how"] == "discard":
            played[e["discarder"]].remove(e["tile"])
    return [opened[q] + exposed[q] + concealed[q] + played[q].count(33) + played[q].count(pizi)
            + 2 * played[q].count(wild) for q in range(4)]


@pytest.mark.parametrize("engine", ["python", "auto"])
def test_engine_pays_personal_fan(engine):
    from majiang.game import play_hand
    won = 0
    for seed in range(25):
        st = play_hand("wuhan", seed=seed, players=("efficiency",) * 4, log=engine == "python",
                       engine=engine)
        assert sum(st.deltas) == 0
        if not st.wins:
            assert list(st.deltas) == [0] * 4
            continue
        won += 1
        if engine != "python":
            continue
        w = st.wins[0]
        fans = _log_personal(st.events)
        p, pts = w["seat"], w["points"]
        payers = [q for q in range(4) if q != p] if w["discarder"] is None else [w["discarder"]]
        expect = [0] * 4
        for q in payers:
            expect[q] -= pts * 2 ** (fans[p] + fans[q])
            expect[p] += pts * 2 ** (fans[p] + fans[q])
        assert list(st.deltas) == expect, seed
    assert won >= 10


def test_both_loops_settle_personal_fan_alike():
    from majiang.game import play_hand
    for seed in range(12):
        a = play_hand("wuhan", seed=seed, players=("efficiency",) * 4, engine="python")
        b = play_hand("wuhan", seed=seed, players=("efficiency",) * 4)
        assert list(a.deltas) == list(b.deltas), seed
        assert a.end_checks == b.end_checks, seed

"""上海百搭 flower stake (rules/shanghai_baida.py, docs/rules/shanghai_baida.md §3): with
``values="sum"`` (SHR) a win pays ``(1 + flower_stake × 花) × 2^番`` — the 番 summed and
capped at 3 (四百搭 2, every other pattern 1) — where 花 counts each flower tile 1, each
wind held three times (real tiles) in the concealed hand 1, each exposed wind pung 1, each
kong: concealed wind 3 / other 2, exposed wind 2 / other 1.  Every expected value below
is worked by hand from that rule, never read from the library's output."""
from __future__ import annotations

import numpy as np
import pytest

import majiang
from majiang import RuleError
from majiang.game.engine import play_hand
from majiang.rules import shanghai_baida as SB

from _engine_helpers import check_settlement

SUM = SB.build(values="sum")


def _pts(hand, win, rs=SUM, **kw):
    return majiang.score(hand, win, ruleset=rs, **kw).points


@pytest.mark.parametrize("hand,win,kw,points", [
    # no pattern (a 百搭 held, chows claimed), 3 flowers: (1 + 3) x 1
    ("11z4m* [123m] [456p] [789s]", "6m", {"flowers": 3}, 4),
    # an exposed 南 pung (1 花) and 2 flowers: (1 + 3) x 1
    ("11z4m* [123m] [456p] [222z]", "6m", {"flowers": 2}, 4),
    # exposed 西 kong 2 + concealed 北 kong 3 = 5 花; 混一色 (m + honours) 1 番: 6 x 2
    ("11z4m* [123m] [3333z] {4444z}", "6m", {"self_drawn": True}, 12),
    # suit kongs: exposed 1 + concealed 2 = 3 花, no pattern: 4 x 1
    ("11z4m* [123m] [3333p] {4444s}", "6m", {"self_drawn": True}, 4),
    # 南南 + a 百搭 make no 暗花 (two real tiles): no 花, no pattern
    ("1z22z* [123m] [456p] [789s]", "1z", {}, 1),
    # 南南南 real: 暗花 1; 无百搭 1 番: (1 + 1) x 2
    ("1z222z [123m] [456p] [789s]", "1z", {}, 4),
    # the four winds held three times: 4 花; 碰碰胡 门清 字一色 无百搭 = 4 番, cap 3: 5 x 8
    ("111z222z333z444z7z", "7z", {}, 40),
])
def test_flower_stake_by_hand(hand, win, kw, points):
    assert _pts(hand, win, **kw) == points


def test_flower_stake_option_and_the_multiply_values():
    # 花分 2: (1 + 2 x 3) x 1 = 7; 0: flowers add nothing
    assert _pts("11z4m* [123m] [456p] [789s]", "6m", SB.build(values="sum", flower_stake=2),
                flowers=3) == 7
    assert _pts("11z4m* [123m] [456p] [789s]", "6m", SB.build(values="sum", flower_stake=0),
                flowers=3) == 1
    # SHW's products (the default values) read no flowers: 平胡 x1
    assert _pts("11z4m* [123m] [456p] [789s]", "6m", "shanghai_baida", flowers=3) == 1
    for bad in (-1, 1.5, True):
        with pytest.raises(RuleError):
            SB.build(flower_stake=bad)
    assert "flower_stake" in SB.SHANGHAI_BAIDA.options
    assert not SB.SHANGHAI_BAIDA.missing


def _fan_count(fans):
    names = dict(fans)
    n = sum(c * (2 if f == "四百搭" else 1) for f, c in fans if f != "平胡")
    if "四百搭" in names:
        n -= int("跑百搭" in names) + int("无百搭" in names)
    return min(3, n)


def _flowers_by_hand(st, w):
    """花 of a played win from the final table: the seat's flowers, its melds, the real
    winds (not the 百搭 kind) held three times with the win tile."""
    s = st.seats[w["seat"]]
    n = len(s.flowers)
    phys = np.asarray(s.phys, dtype=int).copy()
    if w["how"] in ("discard", "robbing_kong"):
        phys[w["tile"]] += 1
    for k in range(27, 31):
        if k not in st.jks and phys[k] >= 3:
            n += 1
    for m in s.melds:
        wind = 27 <= m["tile"] <= 30
        if m["kind"] == "kong":
            n += (3 if wind else 2) if m["concealed"] else (2 if wind else 1)
        elif m["kind"] == "pung" and wind:
            n += 1
    return n


@pytest.mark.parametrize("kw", [dict(values="sum"),
                                dict(values="sum", convention="daidi",
                                     dragons_as_flowers=True)])
def test_flower_stake_in_play(kw):
    # ~30 seeded hands a ruleset (the 带弟 one in the compiled loop): zero-sum, and each
    # win's points are (1 + 花) x 2^番 with 花 counted from the table by hand
    rs = SB.build(**kw)
    flowered = 0
    for seed in range(30):
        st = play_hand(rs, "efficiency", seed=seed, hand=seed)
        check_settlement(st)
        for w in st.wins:
            f = _flowers_by_hand(st, w)
            flowered += f > 0
            assert w["points"] == (1 + f) * 2 ** _fan_count(w["fans"]), (seed, w["fans"], f)
    assert flowered > 0


def test_the_sum_values_play_self_draw_only():
    # SHR, whose values values="sum" plays, is self-draw only (docs/rules/shanghai_baida.md
    # §3: "each other player pays"): the same hand wins self-drawn, not on a discard; the
    # default values (SHW) still take discard wins
    assert _pts("11z4m* [123m] [456p] [789s]", "6m", self_drawn=True, flowers=3) == 4
    with pytest.raises(majiang.InvalidHandError, match="self_draw_only"):
        _pts("11z4m* [123m] [456p] [789s]", "6m", self_drawn=False, flowers=3)
    assert _pts("11z4m* [123m] [456p] [789s]", "6m", "shanghai_baida", self_drawn=False) == 1
    discard_wins = sum_wins = 0
    for seed in range(20):
        st = play_hand(SUM, "efficiency", seed=seed, hand=seed)
        assert all(w["how"] != "discard" for w in st.wins), seed
        sum_wins += len(st.wins)
        st = play_hand("shanghai_baida", "efficiency", seed=seed, hand=seed)
        discard_wins += sum(w["how"] == "discard" for w in st.wins)
    assert discard_wins > 0 and sum_wins > 0

"""立四 (lisi): fans, settlement and win rules.

Every expected value is worked out by hand from the rule text (docs/rules/lisi.md), never
read from the code's output; the worked examples of the page are checked exactly
("source example") or as computed there ("computed").
"""
from __future__ import annotations

import pytest

import majiang
from majiang import InvalidHandError, rules
from majiang.rules import lisi
from majiang.rules.model import game_model
from majiang.scoring import score


# ----------------------------------------------------------------- 立四
def test_lisi_source_example_1():
    # docs/rules/lisi.md §3 source example (LSA): self-draw with one 明杠 and one 暗杠:
    # each opponent pays 20 + 5 + 10 = 35; winner +70
    r = score("123m456m5p [1111p] {9999m}", "5p", ruleset="lisi", self_drawn=True)
    assert "明杠" in r and "暗杠" in r and "胡牌" in r
    assert r.points == 35
    assert r.settle(0) == (70, -35, -35)


def test_lisi_computed_example_2():
    # docs/rules/lisi.md §3 computed: a non-dealer wins on the other non-dealer's discard (not ready),
    # one 暗杠: the discarder pays 15 + 20 = 35
    r = score("123m456m78m55p {9999p}", "9m", ruleset="lisi", seat_wind=1)
    assert r.settle(1, 2) == (0, 35, -35)
    # the same win by the dealer (seat wind East): the discarder pays 20 + 20
    r = score("123m456m78m55p {9999p}", "9m", ruleset="lisi", seat_wind=0)
    assert r.settle(1, 2) == (0, 40, -40)


def test_lisi_settlement_rules():
    s = lisi.settle_lisi
    assert s(20, 1, None) == (-20, 40, -20)                    # self-draw, no kong
    assert s(20, 0, 2) == (20, 0, -20)                         # not ready, winner dealer
    assert s(20, 1, 2) == (0, 15, -15)                         # not ready, winner not dealer
    assert s(25, 0, 2) == (20 + 10, 0, -(20 + 10))            # 明杠 doubled by not-ready
    assert s(20, 0, 2, discarder_ready=True) == (20, -10, -10)  # ready, winner dealer
    assert s(20, 1, 2, discarder_ready=True) == (-10, 15, -5)   # ready, winner not dealer
    assert s(30, 1, 2, discarder_ready=True) == (-20, 35, -15)  # 暗杠 10 from both


def test_lisi_win_rules():
    # exactly two suits: one suit does not win, three suits do not either
    with pytest.raises(InvalidHandError, match="two_suits"):
        score("123m456m789m11m45m", "6m", ruleset="lisi")
    with pytest.raises(InvalidHandError, match="void_suit"):
        score("123m456p789s11m45m", "6m", ruleset="lisi")
    # no seven pairs in LSA's forms
    with pytest.raises(InvalidHandError):
        score("1133m5577m2288p9p", "9p", ruleset="lisi")
    # wall end (docs/rules/lisi.md): 7 stacks, 7 with one kong, 8 with two, one more per kong
    we = rules.get("lisi").wall_end
    assert [we.kept_tiles(k, 0) for k in range(4)] == [14, 14, 16, 18]


def test_lisi_shape_options_are_not_exact():
    # the void suit is a shape rule; "exactly two suits" is judged at the win only
    m = game_model("lisi")
    assert m.void_suit and not m.shape().exact
    assert majiang.shanten("123m456m789m11m45m", ruleset="lisi") == 0
    with pytest.raises(InvalidHandError, match="two_suits"):
        score("123m456m789m11m45m", "3m", ruleset="lisi")


def test_lisi_every_fan_tested():
    assert {f.chinese for f in rules.get("lisi").fans} == {"胡牌", "明杠", "暗杠"}


def test_lisi_rules_show_the_standing_tiles(capsys):
    # docs/rules/lisi.md §1: four standing tiles, discarded only to declare ready, and no
    # kong once declared
    from majiang.cli import main
    assert main(["rules", "lisi"]) == 0
    out = capsys.readouterr().out
    assert "4 standing tiles each, discarded only to declare ready (face down)" in out
    assert "no kong after declaring" in out
    assert main(["rules", "mcr"]) == 0
    assert "standing" not in capsys.readouterr().out

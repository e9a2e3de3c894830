"""The game model: one description of each ruleset's tiles, table and wins.

Expected values come from the rule texts (docs/rules/), not
from the code: 四川 plays 108 tiles (万筒条 only), 卡五星 84 tiles for three players,
台湾 16-tile hands, Chinese Official 144 tiles with 8 flowers and an 8-fan minimum.
"""
import pytest

import majiang
from majiang import rules
from majiang.errors import RuleError
from majiang.rules.model import ALL_PAIRS, game_model

from majiang.scoring import check_win


@pytest.mark.parametrize("name, tiles, players, hand", [
    ("sichuan", 108, 4, 13), ("sichuan_xueliu", 108, 4, 13), ("changsha", 108, 4, 13),
    ("mcr", 144, 4, 13), ("kawuxing", 84, 3, 13), ("taiwan", 144, 4, 16),
    ("guangdong", 136, 4, 13), ("luoyuan", 144, 4, 16),
])
def test_tile_sets_and_tables(name, tiles, players, hand):
    m = game_model(name)
    assert m.n_tiles == tiles
    assert m.players == players
    assert m.hand_size == hand and m.dealer_hand_size == hand + 1


def test_default_model_is_riichi_style_136():
    m = game_model(None)
    assert m.n_tiles == 136 and m.unconstrained
    assert m.forms == ("regular", "seven_pairs", "thirteen_orphans")
    assert not m.seven_pairs_quads


def test_108_tile_set_has_no_honors_and_84_no_characters():
    s = game_model("sichuan").copies
    assert s[:27].tolist() == [4] * 27 and s[27:].sum() == 0
    k = game_model("kawuxing").copies
    assert k[:9].sum() == 0 and k[9:27].tolist() == [4] * 18
    assert k[27:31].sum() == 0 and k[31:].tolist() == [4, 4, 4]     # 中发白, no winds


def test_model_is_cached_and_read_only():
    m = game_model("sichuan")
    assert game_model("sichuan") is m and game_model(rules.get("sichuan")) is m
    with pytest.raises(ValueError):
        m.copies[0] = 3


def test_unknown_ruleset_is_a_rule_error():
    with pytest.raises(RuleError, match="unknown ruleset"):
        game_model("no_such_rules")
    with pytest.raises(RuleError):
        game_model(3.5)


def test_shape_options_void_suit_and_melds():
    m = game_model("sichuan")
    s = m.shape()
    assert s.void_suits == 0b111 and s.pair_mask == ALL_PAIRS and s.exact
    assert s.caps[:27].tolist() == [4] * 27 and s.caps[27:].sum() == 0
    h = majiang.parse_hand("123m456p1s789s [222p]")       # a meld of dots: 筒 cannot be void
    s2 = m.shape(h.melds)
    assert s2.void_suits == 0b101
    assert s2.caps[10] == 1                             # 2p: four in the set, three melded


def test_shape_options_258_pair():
    import dataclasses
    rs = dataclasses.replace(rules.get("xian"), name="xian_258", constraints=("pair_258",))
    s = game_model(rs).shape()
    # the pair may be 2, 5 or 8 of a suit: kinds 1, 4, 7 of each suit
    allowed = {9 * suit + rank - 1 for suit in range(3) for rank in (2, 5, 8)}
    assert s.pair_mask == sum(1 << k for k in allowed)


def test_must_open_rulesets_close_no_win():
    for name in ("wuhan", "shenyang"):
        ok, why = game_model(name).closed_hand_can_win()
        assert not ok and "must_open" in why
    assert game_model("mcr").closed_hand_can_win() == (True, "")


def test_wall_sets_jokers_apart():
    # 武汉: 赖子 = the tile after the turned indicator; the indicator stays face up
    m = game_model("wuhan")
    w = m.wall("5m")
    assert w.joker_kind == 5 and w.jokers == 4 and w.indicator == 4
    assert w.counts[5] == 0 and w.counts[4] == 3
    assert w.size == 136 - 1
    # 罗源: the turned tile's own kind is the 金; three wild copies, the turned one face up
    lw = game_model("luoyuan").wall("5m")
    assert lw.joker_kind == 4 and lw.jokers == 3 and lw.counts[4] == 0
    assert lw.size == 108 - 1
    with pytest.raises(RuleError):
        m.wall()                                     # the indicator is needed


def test_wall_without_jokers_is_the_tile_set():
    w = game_model("sichuan").wall()
    assert w.size == 108 and w.jokers == 0 and w.joker_kind is None
    assert game_model("mcr").wall().size == 136      # flowers are replaced as drawn


# ----------------------------------------------------------- the one predicate
@pytest.mark.parametrize("ruleset, hand, tile, valid", [
    # 长沙 二五八将: a small win needs a 2/5/8 pair
    ("changsha", "123m456p789s123s1p", "1p", False),
    ("changsha", "123m456p789s123s5p", "5p", True),
    # 四川 缺一门: three suits never win, two do
    ("sichuan", "123m456p789s1155s", "1s", False),
    ("sichuan", "123456789p1155s", "1s", True),
    # 武汉 / 沈阳 开门: a closed hand never wins
    ("wuhan", "123m456p789s1155s", "5s", False),
    # no ruleset: any complete hand
    (None, "123m456p789s1155s", "1s", True),
    (None, "123m456p789s1155s", "2s", False),
    # 16-tile hands
    ("taiwan", "123456789m123p5s [111z]", "5s", True),
])
def test_check_win(ruleset, hand, tile, valid):
    r = check_win(hand, tile, ruleset=ruleset)
    assert r.valid is valid
    assert bool(r) is valid
    if not valid:
        assert r.reason


def test_check_win_minimum_fan():
    # 平和 + 喜相逢 + 老少副 on a discard: 4 fan, below the 8-fan minimum of MCR
    r = check_win("123m789m45p789s55s", "3p", ruleset="mcr", self_drawn=False)
    assert not r.valid and "minimum" in r.reason and r.result is not None
    assert r.result.total < 8


def test_check_win_bad_input_raises():
    with pytest.raises(majiang.MahjongError):
        check_win("123m456p789s1155", "1s", ruleset="sichuan")
    with pytest.raises(majiang.MahjongError):
        check_win("123m456p789s11555s", "5s", ruleset="sichuan")   # a fifth 5s

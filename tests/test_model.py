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


def test_default_model_is_chinese_official():
    m = game_model(None)
    assert m is game_model("mcr")
    assert m.n_tiles == 144 and m.min_fan == 8 and m.seven_pairs_quads
    assert len(m.forms) == 5


def test_plain_model_is_riichi_style_136():
    m = game_model("plain")
    assert m.n_tiles == 136 and m.unconstrained and m.n_flowers == 0
    assert m.forms == ("regular", "seven_pairs", "thirteen_orphans")
    assert not m.seven_pairs_quads and m.min_fan == 0


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


# ---------------------------------------------------------------- one default (issue 17)
# 147m 258p 36s 123s 55z + 9s: 组合龙 (knitted straight 147m 258p 369s) + the chow 123s +
# the pair 55z, a Chinese Official win (docs/rules/mcr.md §2: 组合龙 12 fan); riichi-style
# shapes (regular, seven pairs, thirteen orphans) have no such form.
HEADLINE = "147m258p36s123s55z"


def test_every_function_gives_one_answer_for_the_headline_hand():
    from majiang.errors import InvalidHandError
    from majiang.scoring import is_win

    hand, full = HEADLINE, HEADLINE + "9s"
    assert majiang.waits(hand) == ["9s"]
    verdict = check_win(hand, "9s")
    assert verdict.valid and is_win(hand, "9s")
    assert "组合龙" in {f.chinese for f in verdict.result.fans}
    # on a discard: 组合龙 12 + 门前清 2 (concealed hand); self-drawn: 组合龙 12 + 不求人 4
    # (which excludes 门前清 and 自摸); no other MCR fan: the pair is a dragon, the win
    # tile sits inside the knitted tiles (no 边张 / 坎张 / 单钓将), three suits, no wind
    # one default context (on a discard) for score and check_win
    assert majiang.score(hand, "9s").total == 14
    assert verdict.result.total == 14
    assert check_win(hand, "9s", self_drawn=True).result.total == 16
    assert majiang.shanten(hand) == 0 and majiang.shanten(full) == -1
    assert [d.form for d in majiang.decompositions(full)] == ["knitted_straight"]
    assert majiang.ukeire(hand) == {"9s": 4}
    # 14 tiles and no win tile: the documented reading (the hand before the win tile,
    # so a clear InvalidHandError), or the last tile as the win; never a TypeError
    try:
        whole = check_win(full)
    except InvalidHandError as exc:
        assert "win tile" in str(exc)
    else:
        assert whole.valid
    # every discard of the complete hand leaves it tenpai at best, none lower
    assert int(majiang.advise(full, second_order=False)["shanten"].min()) == 0
    # one self-draw: the four 9s among the 136 - 13 = 123 unseen playable tiles
    # (flowers are replaced as drawn); the win (16 fan) meets the 8-fan minimum
    assert majiang.win_probability(hand, 1).value == pytest.approx(4 / 123)
    # the complete hand is a valid win now: probability 1 (not "not a winning shape")
    assert majiang.win_probability(full, 3).value == 1.0
    # the same answers as naming Chinese Official rules
    assert majiang.shanten(hand) == majiang.shanten(hand, ruleset="mcr")
    assert check_win(hand, "9s", ruleset="mcr").valid


def test_plain_is_the_riichi_style_shapes():
    hand, full = HEADLINE, HEADLINE + "9s"
    assert majiang.waits(hand, ruleset="plain") == []
    assert not check_win(hand, "9s", ruleset="plain").valid
    assert majiang.shanten(full, ruleset="plain") == 4      # see test_differential
    # every complete shape wins, with no fan needed: regular, distinct seven pairs,
    # thirteen orphans; a quad is not two pairs
    for h, w in (("123m456p789s1122z", "1z"), ("1122m3344p5566s7z", "7z"),
                 ("19m19p19s1234567z", "1m")):
        assert check_win(h, w, ruleset="plain").valid, h
    assert not check_win("1122m3344p5555s7z", "7z", ruleset="plain").valid
    assert check_win("1122m3344p5555s7z", "7z").valid     # the default: a quad is two pairs
    assert "plain" in rules.available()


def test_narrowed_keeps_every_other_rule():
    from majiang.rules.derived import narrowed

    sc = rules.get("sichuan")
    reg = narrowed("sichuan", ("regular",))
    assert reg.forms == ("regular",) and reg.tile_set == sc.tile_set == "108"
    assert reg.constraints == sc.constraints == ("void_suit",)
    assert reg.seven_pairs_quads == sc.seven_pairs_quads and reg.name == "sichuan"
    assert narrowed("sichuan", ("regular",)) is reg                  # made once
    assert narrowed("sichuan") is sc and narrowed(None) is rules.get("mcr")
    q = narrowed(None, seven_pairs_quads=False)
    assert q.forms == rules.get("mcr").forms and not q.seven_pairs_quads
    assert game_model(reg).void_suit and game_model(reg).n_tiles == 108
    with pytest.raises(RuleError, match="sichuan has no winning form 'thirteen_orphans'.*"
                                        "regular, seven_pairs"):
        narrowed("sichuan", ("thirteen_orphans",))
    with pytest.raises(RuleError, match="unknown winning form 'kokushi'"):
        narrowed("mcr", ("kokushi",))
    with pytest.raises(RuleError, match="at least one"):
        narrowed("mcr", ())


# ---------------------------------------------------- the turned indicator, seen by itself
# 天津 with indicator 1m (中下滚): the turned 1m stays face up, the other three 1m and all
# four 2m are wild — 7 jokers.  The face-up copy is counted as seen by itself, so a caller's
# visible tiles hold at most 3 more 1m, and each visible 1m or 2m is one wild copy seen.
TJ_WAIT = "345m45p**678s112s"          # 13 tiles, 2 jokers held


def test_face_up_copy_of_a_turned_wild_kind():
    m = game_model("tianjin")
    up = m.face_up("1m")
    assert int(up[0]) == 1 and int(up.sum()) == 1
    # 安庆 (joker = indicator + 1): the turned tile is set apart, also face up
    assert int(game_model("anqing").face_up("1m")[0]) == 1
    # 南昌: the turned 正精 stays in the wall (all four wild): nothing face up
    assert not game_model("nanchang").face_up("1m").any()


@pytest.mark.parametrize("visible", ["1m1m1m1m", "1m" * 8])
def test_visible_copies_of_the_turned_kind_are_checked(visible):
    from majiang.errors import InvalidHandError
    for call in (lambda: majiang.ukeire(TJ_WAIT, ruleset="tianjin", indicator="1m",
                                        visible=visible),
                 lambda: majiang.discard_table(TJ_WAIT + "9s", ruleset="tianjin",
                                               indicator="1m", visible=visible),
                 lambda: game_model("tianjin").check_seen(visible, "1m")):
        with pytest.raises(InvalidHandError, match="1m") as e:
            call()
        assert "\n" not in str(e.value)
    # three more 1m are possible (3 wild copies)
    game_model("tianjin").check_seen("1m1m1m", "1m")


def test_seen_wild_copies_and_held_jokers_within_the_wall():
    from majiang.errors import InvalidHandError
    # 4 2m + 3 1m seen = all 7 jokers, but the hand holds 2 more
    with pytest.raises(InvalidHandError, match="7 jokers"):
        majiang.ukeire(TJ_WAIT, ruleset="tianjin", indicator="1m", visible="2m2m2m2m1m1m1m")


@pytest.mark.parametrize("visible, live", [
    (None, 7 - 2), ("1m", 7 - 2 - 1), ("1m1m", 7 - 2 - 2), ("2m", 7 - 2 - 1),
    ("1m1m1m", 7 - 2 - 3), ("1m2m2m", 7 - 2 - 3),
])
def test_every_visible_wild_copy_lowers_the_joker_draw(visible, live):
    u = majiang.ukeire(TJ_WAIT, ruleset="tianjin", indicator="1m", visible=visible)
    assert u["1m2m*"] == live
    # the discard table counts the same: discarding 9s leaves TJ_WAIT
    t = majiang.discard_table(TJ_WAIT + "9s", ruleset="tianjin", indicator="1m",
                              visible=visible)
    t0 = majiang.discard_table(TJ_WAIT + "9s", ruleset="tianjin", indicator="1m")
    row = t.set_index("discard").loc["9s"]
    row0 = t0.set_index("discard").loc["9s"]
    assert int(row["ukeire_count"]) == int(row0["ukeire_count"]) - (5 - live)


def test_probabilities_check_the_turned_kind_too():
    from majiang.errors import InvalidHandError
    with pytest.raises(InvalidHandError, match="1m"):
        majiang.win_probability(TJ_WAIT, draws=2, ruleset="tianjin", indicator="1m",
                                visible="1m1m1m1m")


# ----------------------------------------------------------- the rule spec
def test_rule_spec_is_the_game_model_under_its_name():
    from majiang.rules import RuleSpec, rule_spec
    from majiang.rules.model import GameModel
    assert GameModel is RuleSpec and majiang.RuleSpec is RuleSpec
    assert majiang.rule_spec is rule_spec and majiang.game_model is rule_spec
    m = rule_spec("sichuan")
    assert m is game_model("sichuan") and isinstance(m, RuleSpec)
    assert rule_spec(m) is m and rule_spec(None) is rule_spec("mcr")
    assert rule_spec(None).ruleset is rules.get("mcr")     # always a ruleset, never None


@pytest.mark.parametrize("name, flowers, text", [
    # tile sets of the rule notes: 四川 108 suited tiles, no flowers; 国标 144 with the
    # 8 flowers 春夏秋冬梅兰竹菊; 南京 144 with 20 flowers (8 + 中发白 x 4)
    ("sichuan", 0, "108"), ("mcr", 8, "144"), ("nanjing", 20, "144"),
])
def test_rule_spec_derives_the_tile_facts_from_the_tile_set(name, flowers, text):
    m = game_model(name)
    assert m.n_flowers == m.flowers == flowers
    assert m.tiles.startswith(text)
    assert m.n_tiles == int(m.copies.sum()) + flowers == int(text)
    assert "n_flowers" not in {f.name for f in __import__("dataclasses").fields(m)}


@pytest.mark.parametrize("name", ["luoshan", "luoyuan", "tianjin", "wenzhou"])
def test_points_minimum_makes_shape_options_inexact(name):
    # 螺山 a win needs 100 / 200 points, 天津 2, 温州 / 罗源 1 (rule notes): a complete
    # shape may score below the minimum, so the shape options alone do not decide a win
    m = game_model(name)
    assert m.min_points is not None and any(x > 0 for x in m.min_points)
    assert m.shape(()).exact is False


def test_zero_points_minimum_keeps_shape_options_exact_when_nothing_else_applies():
    import dataclasses
    # 杭州 without 有财必拷响 stores min_points (0, 0): no minimum at all
    rs = dataclasses.replace(rules.get("hangzhou"), name="hz_no_min", constraints=(),
                             jokers=None)
    m = game_model(rs)
    assert m.min_points == (0, 0) and m.shape(()).exact


# ------------------------------------------- every shape-option type agrees with the spec
_258_BY_HAND = sum(1 << (9 * suit + rank - 1) for suit in range(3) for rank in (2, 5, 8))


def _expected(rs):
    """The shape facts read straight from the ruleset's data (not through the spec)."""
    cons = set(rs.constraints)
    core = tuple(f for f in rs.forms if f in ("regular", "seven_pairs", "thirteen_orphans",
                                             "honors_and_knitted", "knitted_straight"))
    bits = {"regular": 1, "seven_pairs": 2, "thirteen_orphans": 4, "honors_and_knitted": 8,
            "knitted_straight": 16}
    return {
        "forms": tuple(rs.forms), "core": core or ("regular",),
        "mask": sum(bits[f] for f in (core or ("regular",))),
        "quads": bool(rs.seven_pairs_quads), "copies": list(rs.copies),
        "pair_mask": _258_BY_HAND if "pair_258" in cons else ALL_PAIRS,
        "void": "void_suit" in cons, "no_void": "no_void" in cons,
        "fifth": bool(rs.jokers is not None and rs.jokers.fifth_copy),
        # never held concealed at a win: 武汉 红中, 安庆 杠牌 发 / 白
        "dead": tuple(sorted(((33,) if "no_red_dragon" in cons else ())
                             + ((31, 32) if "kong_only_tiles" in cons else ()))),
    }


@pytest.mark.parametrize("name", rules.available())
def test_every_shape_option_type_agrees_with_the_rule_spec(name):
    from majiang.efficiency._ruleset import _rule
    from majiang.rules.shapes import spec_of
    rs = rules.get(name)
    e = _expected(rs)
    m = game_model(name)
    # RuleSpec
    assert m.forms == e["forms"] and m.seven_pairs_quads == e["quads"]
    assert m.copies.tolist() == e["copies"] and m.pair_mask == e["pair_mask"]
    assert m.void_suit == e["void"] and m.no_void == e["no_void"]
    assert m.fifth_copy == e["fifth"]
    # ShapeOptions (no melds)
    sh = m.shape(())
    assert sh.forms == e["core"] and sh.mask == e["mask"] and sh.quads == e["quads"]
    assert sh.caps.tolist() == e["copies"] and sh.pair_mask == e["pair_mask"]
    assert sh.void_suits == (0b111 if e["void"] else 0) and sh.fifth == e["fifth"]
    # the shape engine's spec and its compiled mirror
    sp = spec_of(rs)
    assert sp.forms == e["forms"] and sp.quads == e["quads"] and sp.dead == e["dead"]
    assert list(sp.copies) == [0 if k in e["dead"] else c for k, c in enumerate(e["copies"])]
    assert tuple(sorted(m.banned_kinds)) == e["dead"]
    assert sp.void == e["void"] and sp.no_void == e["no_void"] and sp.fifth == e["fifth"]
    assert sp.pair_258 == (e["pair_mask"] != ALL_PAIRS)
    assert all(type(x) is int for x in sp.copies)
    # efficiency's route record
    rec = _rule(name)
    assert rec.rs is rs and rec.quads == e["quads"] and rec.fifth == e["fifth"]
    assert rec.size == rs.hand_size
    assert rec.mask == (e["mask"] if e["core"] == tuple(f for f in e["forms"]) else None)
    if rec.how == "core":
        assert rec.caps.tolist() == e["copies"] and rec.pair_mask == e["pair_mask"]
        assert rec.void == (0b111 if e["void"] else 0)
    # the game kernels' options (strict: the pair rule; loose: any pair; never a void)
    for n_melds in (0, 1, 2):
        whole = 0 if n_melds == 0 else (2 | 4 | 8) | (16 if n_melds > 1 else 0)
        go = sh.game_opts(n_melds)
        assert go.mask == ((e["mask"] & ~whole) or 1) and go.quads == e["quads"]
        assert go.pair_mask == e["pair_mask"] and go.void_suits == 0 and go.fifth == e["fifth"]
        assert sh.game_opts(n_melds, pairs=False).pair_mask == ALL_PAIRS
    # the 2-5-8 route's plan
    if m.shapes_258:
        from majiang.efficiency import _plan258
        plan = _plan258(rs)
        assert plan.quads == e["quads"] and plan.copies.tolist() == e["copies"]
        assert plan.strict == (e["pair_mask"] != ALL_PAIRS) and plan.void == e["void"]


@pytest.mark.parametrize("name", rules.available())
def test_probability_position_reads_the_rule_spec_shape(name):
    from majiang.probability.position import _position
    m = game_model(name)
    kinds = [k for k in range(34) if m.copies[k]]
    tiles = []
    for k in kinds:                       # two of each kind in the set, low kinds first
        tiles += [k, k]
    hand = majiang.format_counts(
        __import__("numpy").bincount(tiles[:m.hand_size], minlength=34))
    ind = None
    if m.jokers is not None and m.jokers.source != "fixed":
        ind = majiang.tile_name(kinds[-1])
    pos = _position(hand, None, name, indicator=ind)
    # the spec of the hand's ruleset: 武汉 carries the turned kind (its 痞子) from here on
    from majiang.rules.derived import with_indicator
    sh = game_model(with_indicator(name, ind)).shape(())
    assert pos.shape is sh
    assert (pos.mask, pos.quads, pos.pair_mask, pos.void_suits) == (
        sh.mask, sh.quads, sh.pair_mask, sh.void_suits)

# ---------------------------------------------------------------------------
# Boundary consistency of the turned indicator, stand-ins and flowers (one game model).
#
# Expected values are counted from the rules (docs/rules/; the ruleset modules'
# readings), never taken from the library's output:
#
# * 安庆 钻牌 / 武汉 赖子 (joker = indicator + 1): the turned indicator is set apart
#   face up, so of its 4 copies 3 can be drawn; the 4 copies of the joker kind are
#   jokers.  136 tiles − 1 turned − 13 held = 122 unseen for a fresh hand.
# * 上海百搭 (the turned kind is wild): the face-up copy is one of the 4, the other 3
#   are jokers; 白板 (5z) stands in for the joker's face.  Again 122 unseen.
# * 安庆 红中 stands in for the 钻牌's face and is written as itself (7z) in a hand; a tile
#   of the joker kind written by its face is a joker.
# * 四川 (108) and 广东 (136) have no flowers; MCR (144) has 8.

from fractions import Fraction

import numpy as np

from majiang.errors import InvalidHandError
from majiang.scoring import score

# (ruleset, hand, indicator, {wait: live counted from the rule}, joker key, jokers live)
CASES = [
    # waits 1m / 4m and any joker (5m); the turned 4m is set apart: 4m has 3 left
    ("anqing", "23m456p789p11s678s", "4m", {"1m": 4, "4m": 3}, "5m*", 4),
    # indicator 1m: the turned 1m is set apart, jokers 2m; the 7z plays as 2m
    ("anqing", "3m7z456p789p11s678s", "1m", {"1m": 3, "4m": 4}, "2m*", 4),
    # two 红中 stand-ins (face 2m): 4 红中 − 2 held = 2 drawable, listed under the
    # tile drawn (7z); 1s: 4 − 2 held
    ("anqing", "77z456p789p11s678s", "1m", {"1s": 2, "7z": 2}, "2m*", 4),
    # 武汉 must open: a claimed chow; the 22s pair is 2-5-8; the turned 4m is the 痞子,
    # never the winning tile (docs/rules/wuhan.md §1): 1m alone
    ("wuhan", "23m456p22s678s [789p]", "4m", {"1m": 4}, "5m*", 4),
    # 上海百搭: 4m turned is wild (3 more jokers); 白板 plays 4m's face: 4 drawable
    ("shanghai_baida", "23m456p789p11s678s", "4m", {"1m": 4, "5z": 4}, "4m*", 3),
]


@pytest.mark.parametrize("rs, hand, ind, waits, jkey, jlive", CASES)
def test_one_draw_win_is_live_waits_over_unseen(rs, hand, ind, waits, jkey, jlive):
    unseen = 136 - 1 - 13                   # one tile turned, 13 held
    wall = game_model(rs).wall(ind)
    assert wall.size == 136 - 1 or (rs == "shanghai_baida" and wall.size == 135)
    assert wall.size - 13 == unseen
    u = majiang.ukeire(hand, ruleset=rs, indicator=ind)
    assert u == {**waits, jkey: jlive}
    p = majiang.win_probability(hand, 1, ruleset=rs, indicator=ind)
    assert float(p) == pytest.approx(float(Fraction(sum(u.values()), unseen)), abs=1e-12)
    assert float(p) == pytest.approx((sum(waits.values()) + jlive) / unseen, abs=1e-12)


@pytest.mark.parametrize("rs", ["anqing", "wuhan"])
def test_indicator_set_apart_once(rs):
    m = game_model(rs)
    apart = m.set_apart("4m")
    assert apart.sum() == 1 and apart[3] == 1
    assert int(m.wall("4m").counts[3]) == 4 - 1
    # the turned kind of a "turned" joker rule is not set apart a second time
    for other in ("shanghai_baida", "tianjin", "nanchang", "wenzhou"):
        assert game_model(other).set_apart("4m").sum() == 0


def test_visible_indicator_counts_once():
    hand = "23m456p789p11s678s"
    u = majiang.ukeire(hand, ruleset="anqing", indicator="4m", visible="4m4m4m")
    assert u["4m"] == 0                         # 4 copies: 3 seen + 1 turned
    with pytest.raises(InvalidHandError):     # a fifth 4m with the turned one
        majiang.ukeire(hand, ruleset="anqing", indicator="4m", visible="4m4m4m4m")
    with pytest.raises(InvalidHandError):
        majiang.win_probability(hand, 1, ruleset="anqing", indicator="4m",
                                visible="4m4m4m4m")
    with pytest.raises(InvalidHandError):
        majiang.discard_table(hand + "9s", ruleset="anqing", indicator="4m",
                              visible="4m4m4m4m")
    t = majiang.discard_table(hand + "9s", ruleset="anqing", indicator="4m")
    row = t[t["discard"] == "9s"].iloc[0]
    assert row["ukeire_count"] == 4 + 3 + 4     # 1m, 4m (one turned), 4 jokers


def test_cli_visible_refuses_fifth_with_indicator(capsys):
    from majiang.cli import main
    args = ["advise", "23m456p789p11s678s9s", "--rules", "anqing", "--indicator", "4m"]
    assert main(args + ["--visible", "4m4m4m4m"]) == 2
    assert "indicator" in capsys.readouterr().err
    assert main(args + ["--visible", "4m4m4m"]) == 0


def test_anqing_red_dragons_are_stand_ins():
    # 红中 turned: the 钻牌 is 发 (中→发→白→中); 3 红中 are left to stand in for 发
    with pytest.raises(InvalidHandError, match="stand-in"):
        majiang.shanten("7777z123m456p789s", ruleset="anqing", indicator="7z")
    from majiang.rules import anqing
    plain = anqing.build(kong_only=False)
    assert majiang.shanten("777z123m456p789s1s", ruleset=plain, indicator="7z") == 0
    # ... and with 杠牌 on, a 红中 playing as 发 is kong-only ("发财的钻牌。红中和白板就可以用来
    # 杠牌"): three dead tiles, 123m 456p 789s 1s keep 10 of 14: shanten 14 - 10 - 1 = 3
    assert majiang.shanten("777z123m456p789s1s", ruleset="anqing", indicator="7z") == 3
    # a 发 written by its face is a 钻牌 (a joker), as '*'
    assert majiang.ukeire("666z123m456p789s1s", ruleset="anqing", indicator="7z") == \
        majiang.ukeire("***123m456p789s1s", ruleset="anqing", indicator="7z")
    # 武汉 has no stand-in: a tile of the joker kind is a joker
    assert majiang.ukeire("2345m111p456p99s6m", ruleset="wuhan", indicator="1m") == \
        majiang.ukeire("345m111p456p99s6m*", ruleset="wuhan", indicator="1m")


FLOWER_HAND = "1f23345m111p456p99s6m"


@pytest.mark.parametrize("rs", ["sichuan", "guangdong"])
def test_flowers_refused_without_flowers(rs):
    assert game_model(rs).n_flowers == 0
    calls = [
        lambda: majiang.shanten(FLOWER_HAND, ruleset=rs),
        lambda: majiang.discard_table(FLOWER_HAND, ruleset=rs),
        lambda: majiang.advise(FLOWER_HAND, ruleset=rs),
        lambda: majiang.ukeire("1f2345m111p456p99s6m", ruleset=rs),
        lambda: majiang.win_probability("1f2345m111p456p99s6m", 1, ruleset=rs),
        lambda: score("1f1122334455667p", "7p", self_drawn=True, ruleset=rs),
        lambda: check_win("1f1122334455667p", "7p", self_drawn=True, ruleset=rs),
        lambda: majiang.shanten(majiang.parse_hand("春23345m111p456p99s6m"), ruleset=rs),
    ]
    for call in calls:
        with pytest.raises(InvalidHandError, match="no flowers"):
            call()


def test_flowers_refused_before_a_closed_hand_verdict():
    # 武汉 must open: a closed hand is refused by rule, but the flower is refused first
    assert game_model("wuhan").n_flowers == 0
    with pytest.raises(InvalidHandError, match="no flowers"):
        check_win("1f1122334455669p", "7p", self_drawn=True, ruleset="wuhan")


def test_flowers_accepted_with_flowers():
    assert game_model("mcr").n_flowers == 8
    assert majiang.shanten(FLOWER_HAND, ruleset="mcr") == majiang.shanten(
        FLOWER_HAND[2:], ruleset="mcr")
    r = score("1f1122334455667p", "7p", self_drawn=True, ruleset="mcr")
    # 连七对 88 + 自摸 1 + 花牌 1 (one flower)
    assert r.total == 88 + 1 + 1
    assert np.all(game_model("mcr").set_apart() == 0)

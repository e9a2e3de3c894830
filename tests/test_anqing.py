"""安庆 杠牌 (docs/rules/anqing.md §3): "如果不是中发白的钻牌时候，发财和白板是杠牌只能用来杠，
手上有就不能胡牌 … 如果是中发白的钻牌，则其余两个就成了杠牌" — 发 and 白 serve only in kongs,
and holding one blocks a win.  With 红中 playing as the 钻牌's own face (§3) the kong-only
tiles are always the faces 发 (6z) and 白 (5z).  Expected values are worked by hand from
that text; ``kong_only=False`` is the former reading (ordinary honours), for contrast.
"""
import pytest

import majiang
from majiang import check_win, shanten, ukeire, waits
from majiang.game import play_hand
from majiang.rules import anqing as A

from _engine_helpers import Script, build_test_wall

PLAIN = A.build(kong_only=False)


def _win(hand, tile, rs="anqing", **kw):
    return check_win(hand, tile, ruleset=rs, self_drawn=True, **kw).valid


def test_a_held_kong_only_tile_blocks_the_win():
    # a pung of 发 / a pair of 白 in hand: complete by shape, no win
    assert not _win("123m456p789s11z66z", "6z")
    assert not _win("123m456p789s123p5z", "5z")
    assert not _win("123m456p789s55z11z", "1z")
    for hand, t in (("123m456p789s11z66z", "6z"), ("123m456p789s123p5z", "5z")):
        assert _win(hand, t, PLAIN)


def test_a_kong_of_kong_only_tiles_is_a_meld_like_any_other():
    assert _win("123m456p789s1z {6666z}", "1z")          # concealed kong (暗杠)
    assert _win("123m456p789s1z [5555z]", "1z")          # claimed kong (明杠)


def test_red_dragon_playing_as_fa_is_kong_only_too():
    # indicator 中 -> 钻牌 发: 红中 plays as 发 (§3), so a pung of 红中 is a pung of 发
    assert not _win("123m456p789s11z77z", "7z", indicator="7z")
    assert _win("123m456p789s11z77z", "7z", PLAIN, indicator="7z")
    # indicator 1m -> 钻牌 2m: 红中 plays as 2m, an ordinary tile
    assert _win("13m456p789s123s11z", "7z", indicator="1m")


def test_shanten_counts_kong_only_tiles_as_tiles_to_replace():
    # 123m 456p 789s 11z + 66z: the 发 pair is two dead tiles; a fourth set needs three
    # new tiles, so two draws away from ready: shanten 2 (0 when 发 is an honour)
    assert shanten("123m456p789s1166z", ruleset="anqing") == 2
    assert shanten("123m456p789s1166z", ruleset=PLAIN) == 0
    # a joker cannot stand for a kong-only tile either: 11m + 6z dead + *: one set short
    assert shanten("123m456p789s11m6z*", ruleset="anqing") == 1
    assert shanten("123m456p789s11m6z*", ruleset=PLAIN) == 0
    # complete only without the kong-only tiles
    assert shanten("123m456p789s11z666z", ruleset="anqing") == 2
    assert shanten("123m456p789s11z {6666z}", ruleset="anqing") == -1
    assert shanten("123m456p789s1z {6666z}", ruleset="anqing") == 0


def test_ukeire_and_waits_never_use_a_kong_only_tile():
    # 123m 456p 789s 11z 5m + a dead 6z: 1-shanten; 3m-7m (a set with 5m) and 1z (a pung,
    # 5m the pair) help; 6z (a 发 pair) helps only when 发 is an honour
    u = ukeire("123m456p789s11z5m6z", ruleset="anqing")
    assert shanten("123m456p789s11z5m6z", ruleset="anqing") == 1
    assert set(u) == {"3m", "4m", "5m", "6m", "7m", "1z"}
    assert "6z" in ukeire("123m456p789s11z5m6z", ruleset=PLAIN)
    # a hand holding 白 waits on nothing; the same hand with 1z 5z as honours waits on both
    assert waits("123m456p789s1155z", ruleset="anqing") == []
    assert waits("123m456p789s1155z", ruleset=PLAIN) == ["1z", "5z"]
    assert waits("123m456p789s1z {6666z}", ruleset="anqing") == ["1z"]


def test_engines_agree_on_a_kong_only_hand():
    for hand in ("123m456p789s1166z", "123m456p789s11z5m6z", "19m19p19s1234566z"):
        assert (majiang.rules.shapes.ruleset_shanten(hand, A.ANQING, engine="python")
                == majiang.rules.shapes.ruleset_shanten(hand, A.ANQING, engine="core"))


# dealer discards 6z first; seat 1 holds 发 (two or three copies); indicator 1p (钻牌 2p)
def _claims_on_fa(held: str, rs):
    rest = {"66z": "1234567m11p2345s", "666z": "123456m11p2345s"}[held]
    hands = ["6z123m456m789m1234p", held + rest, "123456789s3456p", "1133z55z456789p"]
    wall = build_test_wall("anqing", hands, tail="1p")
    pols = [Script("6z"), Script(), Script(), Script()]
    play_hand(rs, pols, wall=wall, dealer=0, engine="python")
    return [opts for kind, opts in pols[1].seen if kind == "claim"]


def test_the_engine_never_offers_a_pung_of_a_kong_only_tile():
    first = _claims_on_fa("66z", "anqing")
    assert not first or ("pung",) not in first[0]
    assert ("pung",) in _claims_on_fa("66z", PLAIN)[0]
    # three held: the kong from the discard is offered, the pung is not
    opts = _claims_on_fa("666z", "anqing")[0]
    assert ("kong",) in opts and ("pung",) not in opts


def test_engine_winners_never_hold_a_kong_only_tile():
    for seed in range(20):
        st = play_hand("anqing", "efficiency", seed=seed, log=True)
        assert sum(st.deltas) == 0
        for w in st.wins:
            hand = w["check"][0]
            assert not hand.concealed[31] and not hand.concealed[32] and w["tile"] not in (31, 32)
        assert not [e for e in st.events
                    if e["e"] == "call" and e["kind"] == "pung" and e["tile"] in (31, 32)]


def test_option_check():
    with pytest.raises(majiang.RuleError):
        A.build(kong_only="yes")
    assert A.ANQING.options["kong_only"] is True
    assert "kong_only_tiles" in A.ANQING.constraints
    assert "kong_only_tiles" not in PLAIN.constraints


def test_a_house_ruleset_with_kong_only_tiles_takes_the_shape_engine():
    # without jokers or extra forms the constraint alone routes shanten through the
    # shape engine (the core's own options know no kong-only kinds)
    import dataclasses
    rs = dataclasses.replace(majiang.rules.get("plain"), name="plain_kong_only",
                             constraints=("kong_only_tiles",))
    assert shanten("123m456p789s1166z", ruleset=rs) == 2
    assert shanten("123m456p789s1166z", ruleset="plain") == 0
    assert set(ukeire("123m456p789s11z5m6z", ruleset=rs)) == {"3m", "4m", "5m", "6m", "7m", "1z"}


def test_compiled_engine_equals_the_reference_on_dead_tiles():
    # the compiled engine takes a held kong-only tile as a joker and gives the joker forms
    # one shanten back per tile; the reference keeps no target tile of those kinds
    import numpy as np
    from majiang.hand import Hand
    from majiang.rules.shapes import (core_form_shanten, form_shanten, ruleset_ukeire,
                                      spec_of)
    rng = np.random.default_rng(20)
    sp = spec_of(A.ANQING)
    held = 0
    for _ in range(150):
        tiles = list(rng.choice(np.repeat(np.arange(34), 4), 13 + int(rng.integers(2)),
                                replace=False))
        tiles[:2] = [[31, 31], [32, 27], [31, 32]][int(rng.integers(3))]
        c = np.bincount(tiles, minlength=34)
        if c.max() > 4:
            continue
        jokers = int(rng.integers(0, 3))
        for _ in range(jokers):
            c[int(rng.choice(np.flatnonzero(c[:31])))] -= 1
        held += 1
        assert form_shanten(c, jokers=jokers, spec=sp) == core_form_shanten(c, jokers=jokers,
                                                                            spec=sp)
        if (c.sum() + jokers) % 3 == 1:
            h = Hand(c.astype(np.uint8), (), jokers=jokers)
            assert ruleset_ukeire(h, A.ANQING, engine="python") == ruleset_ukeire(h, A.ANQING)
    assert held >= 100


# ---------------------------------------------------------------- 天胡 / 地胡 / 连庄
# docs/rules/anqing.md §5: 平胡 non-dealer 4, dealer 8 (平胡 4 + 庄家 4); 门清 3; 跑风 6;
# 七对有钻 9 (跑风 included, "不算天胡"); 十三烂 20; 风 1.  天胡, one kind a hand: 双天胡
# 66 (七对 + 四钻); 七对天胡 36 and 四钻天胡 36 (30 + 跑风 6, in place of 跑风 / 七对有钻);
# 十三烂天胡 30 and 摸牌天胡 +30 on top of the patterns; 地胡 30 (a non-dealer's first draw).
HEAVEN = [
    # hand, win, first_turn, the 天胡 / 地胡 fan, total 番 with the flag, without it
    # seven natural pairs: 8 + 门清 3 + 36; without: 8 + 3 (七对 alone is worth 0)
    ("11m22m33p44p55s66s1z", "1z", "七对天胡", 8 + 3 + 36, 8 + 3),
    # seven pairs with two jokers: 七对天胡 36 replaces 七对有钻 9
    ("11m22m33p44p55s6s**", "6s", "七对天胡", 8 + 3 + 36, 8 + 9 + 3),
    # five natural pairs + four jokers as two more pairs of one kind: 双天胡 66
    ("11m22m33p44p5s****", "5s", "双天胡", 8 + 3 + 66, 8 + 9 + 3),
    # a standard hand holding four jokers (123m 456p 789s(78s + 9s) 111z(1z + **) **-pair):
    # 四钻天胡 36; 风 1 for the 东 pung
    ("123m456p78s1z****", "9s", "四钻天胡", 8 + 3 + 1 + 36, 8 + 3 + 1),
    # 十三烂 (147m 258p 369s 东南西北中) 20: + 30
    ("147m258p369s1234z", "7z", "十三烂天胡", 8 + 3 + 20 + 30, 8 + 3 + 20),
    # a plain dealt hand: 摸牌天胡 +30
    ("123m456p789s11z45m", "6m", "摸牌天胡", 8 + 3 + 30, 8 + 3),
]


@pytest.mark.parametrize("hand, win, fan, total, without", HEAVEN)
def test_heavenly_kinds(hand, win, fan, total, without):
    r = majiang.score(hand, win, ruleset="anqing", self_drawn=True, first_turn="heavenly")
    names = {f.chinese for f in r.fans}
    assert fan in names and r.total == total
    # one 天胡 kind a hand, and none of 跑风 / 七对有钻 beside a 36 / 66 kind
    assert len(names & {"双天胡", "七对天胡", "四钻天胡", "大吊车天胡", "十三烂天胡",
                        "摸牌天胡"}) == 1
    if fan in ("双天胡", "七对天胡", "四钻天胡"):
        assert not names & {"跑风", "七对有钻"}
    plain = majiang.score(hand, win, ruleset="anqing", self_drawn=True)
    assert plain.total == without and not any("天胡" in f.chinese for f in plain.fans)


def test_big_single_heavenly_kind_on_the_scorer():
    # 大吊车 (four melds, a single 1z): not a dealt hand in play, but the scorer takes the flag:
    # 平胡 8 + 大吊车 30 + 大吊车天胡 36 (跑风 6 inside it); without the flag 跑风 6 (a single
    # wait on a natural tile) + 碰碰胡 3
    hand = "1z [111m] [222p] [333s] [444m]"
    r = majiang.score(hand, "1z", ruleset="anqing", self_drawn=True, first_turn="heavenly")
    assert {f.chinese for f in r.fans} >= {"大吊车", "大吊车天胡"} and "跑风" not in r
    plain = majiang.score(hand, "1z", ruleset="anqing", self_drawn=True)
    assert r.total - plain.total == 36 - 6


def test_earthly_hand():
    # 地胡 30 for a non-dealer: 平胡 4 + 门清 3 + 30
    r = majiang.score("123m456p789s11z45m", "6m", ruleset="anqing", self_drawn=True,
                      seat_wind=1, first_turn="earthly")
    assert "地胡" in r and r.total == 4 + 3 + 30
    assert r.settle(1) == (-37, 111, -37, -37)


def test_engine_heavenly_hand():
    # the dealer's dealt 14 are seven pairs (no joker: indicator 1p, 钻牌 2p): 七对天胡
    hands = ["11m22m33p44p55s66s11z", "345678m345678p2z", "1234789s22z33z44z",
             "99m99p99s789m789p1z"]
    wall = build_test_wall("anqing", hands, tail="1p")
    st = play_hand("anqing", "efficiency", wall=wall, dealer=0, engine="python")
    (w,) = st.wins
    assert (w["seat"], w["how"]) == (0, "self_draw")
    assert "七对天胡" in {n for n, _ in w["fans"]}
    each = 8 + 3 + 36
    assert w["deltas"] == [3 * each, -each, -each, -each]


def test_engine_earthly_hand():
    # the dealer throws 2z (nobody can claim it); seat 1 holds six pairs and 7s and draws 7s
    hands = ["345678m345678p2z9s", "11m22m33p44p55s66s7s", "1234789s33z44z1p8p",
             "99m99p9s789m789p1z2p"]
    wall = build_test_wall("anqing", hands, draws="7s", tail="1p")
    st = play_hand("anqing", [Script("2z"), Script(), Script(), Script()], wall=wall,
                   dealer=0, engine="python")
    (w,) = st.wins
    assert (w["seat"], w["how"]) == (1, "self_draw")
    assert "地胡" in {n for n, _ in w["fans"]}
    each = 4 + 3 + 30                 # 七对 without jokers is worth 0
    assert w["deltas"] == [-each, 3 * each, -each, -each]


def test_lianzhuang_values():
    # §5: +3, +6, +12, +15 at the 1st-4th repeat; 15 from then on (the text stops there)
    assert [A.lianzhuang(n) for n in range(7)] == [0, 3, 6, 12, 15, 15, 15]
    with pytest.raises(majiang.RuleError):
        A.build(dealer_repeats=-1)
    assert A.ANQING.next_dealer_rule.streak == "dealer_repeats"
    assert A.ANQING.options["dealer_repeats"] == 0


@pytest.mark.parametrize("n, lz", [(1, 3), (2, 6), (3, 12), (4, 15)])
def test_lianzhuang_on_the_dealer_win_and_loss(n, lz):
    rs = A.build(dealer_repeats=n)
    # the dealer's 平胡 + 门清: 4 + (4 + 4n) + 3 + 连庄, from each of three
    r = majiang.score("123m456p789s11z45m", "6m", ruleset=rs, self_drawn=True)
    each = 4 + 4 + 4 * n + 3 + lz
    assert r.total == each and r.settle(0) == (3 * each, -each, -each, -each)
    # a non-dealer's self-drawn 平胡 + 门清 (7): the dealer pays 连庄 more
    r = majiang.score("123m456p789s11z45m", "6m", ruleset=rs, self_drawn=True, seat_wind=1)
    assert r.total == 7 and r.settle(1) == (-7 - lz, 21 + lz, -7, -7)


# hand-table values of docs/rules/anqing.md §5 (庄家 4 + 4 a repeat, §1)
_FAN_VALUES = {"平胡": 4, "跑风": 6, "七对有钻": 9, "门清": 3, "碰碰胡": 3, "大吊车": 30,
               "大吊车有钻": 3, "杠开": 1, "十三烂": 20, "七星归位": 30, "杠牌": 1, "风": 1,
               "一龙": 10, "七对": 0}


def test_play_match_lianzhuang_grows_with_the_streak():
    # one efficiency player among random ones: drawn hands (荒庄, the dealer keeps the deal)
    # and wins both; seeds 0 and 3 give repeats 1, 2, 3 with wins on them
    seen = set()
    for seed in (0, 3):
        t = majiang.play_match("anqing", ["random", "efficiency", "random", "random"],
                               hands=12, seed=seed)
        prev = None
        for r in t.itertuples():
            d, n = r.dealer, r.dealer_streak
            if prev is not None:        # the deal stays only after a drawn hand
                assert (d == prev.dealer) == (not prev.winners)
                assert n == (prev.dealer_streak + 1 if not prev.winners else 0)
            prev = r
            assert sum(r.score_deltas) == 0
            if not r.winners:
                assert list(r.score_deltas) == [0, 0, 0, 0]
                continue
            (w,), (fans,) = r.winners, r.fans
            lz = (0, 3, 6, 12, 15)[min(n, 4)]
            vals = dict(_FAN_VALUES, 庄家=4 + 4 * n, 连庄=lz)
            each = sum(vals[name] * k for name, k in fans)
            assert ("连庄" in dict(fans)) == (w == d and n > 0)
            want = [-(each + (lz if p == d else 0)) for p in range(4)]
            # 包牌 (顺包 / 反包): a seat that fed the winner 3 口 (or was fed 3 by him) pays
            # the dealer's figure (the largest share) x 3 / 6, x2 反包, x2 / x4 all pungs
            top = -min(want[p] for p in range(4) if p != w)
            for p in range(4):
                if p != w and r.score_deltas[p] != want[p]:
                    assert -r.score_deltas[p] in {top * k for k in (3, 6, 12, 24, 48, 96)}
                    want[p] = r.score_deltas[p]
            want[w] = -sum(want[p] for p in range(4) if p != w)
            assert list(r.score_deltas) == want
            if n:
                seen.add((n, w == d))
    assert {1, 2, 3} <= {n for n, _ in seen} and (3, True) in seen and (2, False) in seen


def test_nothing_missing_the_package_payment_interpreted():
    # 包牌 is played as a stated reading (docs/rules/anqing.md §5)
    assert A.ANQING.missing == () and A.ANQING.coverage == "interpreted"
    assert any(t.startswith("包牌:") for t in A.ANQING.interpreted)

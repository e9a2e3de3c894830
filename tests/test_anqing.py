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

"""waits() under every hand size and shape rule of the game model.

Regression (issue 8): ``waits("123456789m123p5s [111z]", ruleset="taiwan")`` was ``[]``
because the completeness check assumed 14-tile hands.

Independent check: for random tenpai hands built by removing one tile from a random
complete hand, ``waits`` equals the kinds ``k`` (present in the tile set, a copy
left) for which the ruleset shanten of ``hand + k`` is -1.  The shanten side is
:func:`majiang.shanten` with ``ruleset=`` (the compiled core, or
:mod:`majiang.rules.shapes` under shape rules) — code that shares nothing with the
set splitter in :mod:`majiang.scoring.waiting`.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import majiang
from majiang import RuleError, rules, shanten
from majiang.errors import InvalidHandError
from majiang.rules.model import game_model
from majiang.scoring import waits
from majiang.tiles import format_counts, tile_name


def test_taiwan_16_tile_regression():
    assert waits("123456789m123p5s [111z]", ruleset="taiwan") == ["5s"]
    # two-sided wait in a 16-tile hand, no melds
    assert waits("123456789m123p11s45s", ruleset="taiwan") == ["3s", "6s"]


def test_sichuan_void_suit_and_108_tiles():
    # three suits can never win under 缺一门, whatever the shape
    assert waits("123m456p789s1155s", ruleset="sichuan") == []
    assert waits("123456789p1155s", ruleset="sichuan") == ["1s", "5s"]
    # an honor completes no Sichuan hand: honors are not in the 108-tile set
    assert waits("123456789p1155s", ruleset="mcr") == ["1s", "5s"]


def _strict_258():
    """Changsha with the plain 二五八将 shape rule (every regular win needs a 2/5/8
    pair), a house variant: the built-in rulesets use the fan-dependent form."""
    return dataclasses.replace(rules.get("changsha"), name="changsha_pair_258",
                               constraints=("pair_258",), forms=("regular", "seven_pairs"))


def test_pair_258_keeps_only_258_pairs():
    strict = _strict_258()
    # 1p single wait: the pair would be 11p
    assert waits("123m456p789s123s1p", ruleset=strict) == []
    # pair_258_small: a small win needs the 2/5/8 pair; 11p only in a big-win shape
    assert waits("123m456p789s123s1p", ruleset="changsha") == []
    assert waits("123m456p789s123s1p", ruleset="changsha_zhuanzhuan") == ["1p"]
    assert waits("111m456p789p123p1p", ruleset="changsha") == []   # 11p: no big shape
    assert waits("111m444p777p999p1p", ruleset="changsha") == ["1p"]        # 碰碰胡
    # 55s + 34s: 2s and 5s both keep the 55s pair
    assert waits("123m456p789s55s34s", ruleset=strict) == ["2s", "5s"]
    # 11s + 34s: no 2/5/8 pair either way; 2s + 5s no longer wins
    assert waits("123m456p789s11s34s", ruleset=strict) == []
    # 5p single wait on a 2-5-8 kind
    assert waits("123m456p789s123s5p", ruleset=strict) == ["5p"]


def test_hand_size_and_joker_errors():
    with pytest.raises(InvalidHandError):
        waits("123456789m123p5s", ruleset="taiwan")          # 13 tiles under taiwan
    with pytest.raises(RuleError, match="jokers"):
        waits("123456789m123p5s*", ruleset="wuhan")


def _random_tenpai(rng, model, suits, n_melds):
    """A complete regular hand of ``model.hand_size + 1`` tiles (melds included), less
    one concealed tile; returns the hand string and the full-hand counts."""
    n_sets = (model.hand_size + 1 - 2) // 3
    kinds = [k for k in model.kinds if k >= 27 or k // 9 in suits]
    for _ in range(1000):
        used = np.zeros(34, dtype=int)
        sets = []
        ok = True
        for _ in range(n_sets):
            if rng.random() < 0.6:
                starts = [k for k in kinds if k < 27 and k % 9 <= 6 and k + 2 in kinds]
                t = int(rng.choice(starts))
                sets.append(("chow", t))
                for d in range(3):
                    used[t + d] += 1
            else:
                t = int(rng.choice(kinds))
                sets.append(("pung", t))
                used[t] += 3
        pair = int(rng.choice(kinds))
        used[pair] += 2
        if np.any(used > np.asarray(model.copies)):
            ok = False
        if ok:
            break
    melds = sets[:n_melds]
    conc = used.copy()
    text = []
    for kind, t in melds:
        if kind == "chow":
            conc[t:t + 3] -= 1
            text.append(f"[{tile_name(t)[0]}{int(tile_name(t)[0]) + 1}"
                        f"{int(tile_name(t)[0]) + 2}{tile_name(t)[1]}]")
        else:
            conc[t] -= 3
            text.append(f"[{tile_name(t)[0] * 3}{tile_name(t)[1]}]")
    drop = int(rng.choice(np.flatnonzero(conc)))
    conc[drop] -= 1
    hand = format_counts(conc.astype(np.uint8)) + ("" if not text else " " + " ".join(text))
    return hand, used - np.eye(34, dtype=int)[drop], conc


def _add(hand: str, k: int) -> str:
    conc, _, melds = hand.partition(" ")
    return f"{conc}{tile_name(k)}" + (f" {melds}" if melds else "")


@pytest.mark.parametrize("name, n_hands", [
    ("taiwan", 120), ("mcr", 80), ("sichuan", 120), ("strict_258", 100)])
def test_waits_equal_ruleset_shanten_completions(name, n_hands):
    rs = _strict_258() if name == "strict_258" else rules.get(name)
    model = game_model(rs)
    rng = np.random.default_rng(8_000 + len(name))
    suits_all = sorted({k // 9 for k in model.kinds if k < 27})
    checked = 0
    for i in range(n_hands):
        suits = [s for s in suits_all if rng.random() < 0.7] or suits_all[:1]
        hand, held, _ = _random_tenpai(rng, model, suits, int(rng.integers(0, 3)))
        got = waits(hand, ruleset=rs)
        expected = [tile_name(k) for k in model.kinds
                    if held[k] < model.copies[k]
                    and shanten(_add(hand, k), ruleset=rs) == -1]
        # waits are judged by shape: a kind whose every copy is already held may be a
        # wait too; compare on the kinds that can still be drawn
        drawable = [t for t in got if held[_kind(t)] < model.copies[_kind(t)]]
        assert drawable == expected, (name, hand)
        checked += bool(expected)
    assert checked > n_hands // 4          # most constructed hands are tenpai


def _kind(name: str) -> int:
    from majiang.tiles import parse_tile
    return parse_tile(name)


# ============================================================================
# waits() defaults and fifth copies
# waits() defaults and fifth copies (fresh users' report).
#
# Every function given no ruleset uses Chinese Official rules (``"mcr"``), as ``score``
# does: ``waits``, ``shanten``, ``check_win`` agree (``ruleset=None`` is that default too).
# The riichi-style forms are ``ruleset="plain"``; their oracle is the PyPI ``mahjong``
# package (riichi shanten: regular, seven distinct pairs, thirteen orphans).
# ============================================================================
mahjong_shanten = pytest.importorskip("mahjong.shanten")


def _riichi_complete(counts) -> bool:
    return mahjong_shanten.Shanten().calculate_shanten(list(counts)) == -1


def _complete_hands(rng, n):
    """Random complete 14-tile concealed hands: four sets and a pair, or seven pairs."""
    out = []
    while len(out) < n:
        c = np.zeros(34, np.int64)
        if rng.random() < 0.2:
            for k in rng.choice(34, 7, replace=False):
                c[k] += 2
        else:
            for _ in range(4):
                if rng.random() < 0.5:
                    k = int(rng.integers(34))
                    c[k] += 3
                else:
                    s, r = int(rng.integers(3)), int(rng.integers(7))
                    c[9 * s + r:9 * s + r + 3] += 1
            c[int(rng.integers(34))] += 2
        if c.max() <= 4:
            out.append(c)
    return out


def test_waits_plain_equals_the_riichi_oracle():
    rng = np.random.default_rng(20261201)
    checked = 0
    for full in _complete_hands(rng, 250):
        hand = full.copy()
        hand[int(rng.choice(np.flatnonzero(hand)))] -= 1        # tenpai by construction
        got = majiang.waits(hand_text(hand), ruleset="plain")
        want = []
        for t in range(34):
            c = hand.copy()
            c[t] += 1
            if hand[t] < 4 and _riichi_complete(c):
                want.append(tile_name(t))
        # a kind with all four copies in the hand is listed by shape (never drawn)
        got_real = [w for w in got if hand[majiang.tiles.parse_tile(w)] < 4]
        assert got_real == want, hand_text(hand)
        assert want                                      # the test can fail
        # and agrees with shanten() under the same ruleset: each listed wait completes
        for w in want:
            assert majiang.shanten(hand_text(hand) + w, ruleset="plain") == -1
        checked += 1
    assert checked == 250


def hand_text(c) -> str:
    return majiang.tiles.format_counts(np.asarray(c, dtype=np.uint8))


@pytest.mark.parametrize("hand,mcr,plain", [
    ("147m258p36s123s55z", ["9s"], []),       # knitted straight: Chinese Official only
    ("1111m2233p4455s6z", ["6z"], []),        # a quad as two pairs: Chinese Official only
    ("1122m3344p5566s7z", ["7z"], ["7z"]),    # seven distinct pairs: both
])
def test_one_default_for_waits_and_shanten(hand, mcr, plain):
    assert majiang.waits(hand) == majiang.waits(hand, ruleset="mcr") == mcr
    assert majiang.waits(hand, ruleset=None) == mcr
    assert majiang.waits(hand, ruleset="plain") == plain
    # shanten agrees with waits under each ruleset; no ruleset = "mcr"
    assert majiang.shanten(hand) == majiang.shanten(hand, ruleset="mcr") == 0
    assert (majiang.shanten(hand, ruleset="plain") == 0) == bool(plain)


def test_fifth_copy_is_listed_by_shape_and_never_live():
    hand = "1111m234p567s789s"          # 1m completes it only as a fifth copy
    assert majiang.waits(hand) == ["1m"] == majiang.waits(hand, ruleset=None)
    assert majiang.shanten(hand) == 1   # shanten never uses a fifth copy
    assert "1m" not in majiang.ukeire(hand)
    with pytest.raises(majiang.InvalidHandError):      # the win itself: a fifth copy
        majiang.scoring.check_win(hand, "1m", ruleset="mcr")


# ---------------------------------------------------------------- indicator=
PIZI_HAND = "[123p] 234s 678s 345m 2s"
"""By hand: 123p 234s 678s 345m are four sets and 2s a single, so under 武汉 (2-5-8 pair
for a small win) it waits on 2s (pair 22s) and 5s (22s + 345s + 678s).  With 5m turned
the 5m of 345m is the 痞子, which no complete hand holds: no wait at all."""


def test_waits_takes_the_indicator_as_shanten_does():
    assert waits(PIZI_HAND, ruleset="wuhan") == ["2s", "5s"]
    assert waits(PIZI_HAND, ruleset="wuhan", indicator="5m") == []
    # another indicator (1z turned: 1z the 痞子, 2z the joker), neither kind held
    assert waits(PIZI_HAND, ruleset="wuhan", indicator="1z") == ["2s", "5s"]
    # a ruleset without jokers ignores it, after checking it is a tile
    assert waits("123m456p789s1122z", indicator="1m") == ["1z", "2z"]
    with pytest.raises(majiang.InvalidNotationError):
        waits(PIZI_HAND, ruleset="wuhan", indicator="zz")
    with pytest.raises(RuleError, match="fixed"):      # 杭州: the joker kind is fixed
        waits("123m456p789s1122z", ruleset="hangzhou", indicator="1m")
    # 5m turned: 6m is the joker; a hand holding one is a hand with jokers
    with pytest.raises(RuleError, match="without jokers"):
        waits("[123p] 234s 678s 346m 2s", ruleset="wuhan", indicator="5m")

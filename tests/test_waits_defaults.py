"""waits() defaults and fifth copies (fresh users' report).

Every function given no ruleset uses Chinese Official rules (``"mcr"``), as ``score``
does: ``waits``, ``shanten``, ``check_win`` agree (``ruleset=None`` is that default too).
The riichi-style forms are ``ruleset="plain"``; their oracle is the PyPI ``mahjong``
package (riichi shanten: regular, seven distinct pairs, thirteen orphans)."""
from __future__ import annotations

import numpy as np
import pytest

import majiang
from majiang.tiles import tile_name

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

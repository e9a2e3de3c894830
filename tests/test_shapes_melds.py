"""The Python shape engine counts the suits held in exposed melds.

Regression: under 沈阳 (all three suits needed) ``6z [777m] [111s] [567p] [333z]`` waits on
6z — its melds already hold all three suits — but the shape engine asked the concealed
tiles alone for all three suits and answered 99 (no arrangement).  Under a void suit a
suit held in a meld can never be the void one.  Checked against the core (tested by
brute force in test_shapes.py) on random melded hands under 四川.
"""
import numpy as np
import pytest

import majiang
from majiang import rules
from majiang.hand import Hand, Meld, parse_hand
from majiang.rules import shapes
from majiang.scoring import check_win


def test_shenyang_melds_supply_the_three_suits():
    h = parse_hand("6z [777m] [111s] [567p] [333z]", hand_size=13)
    assert majiang.shanten(h, ruleset="shenyang") == 0
    assert majiang.ukeire(h, ruleset="shenyang") == {"6z": 3}
    assert check_win(h, "6z", ruleset="shenyang", self_drawn=True).valid


def test_void_suit_never_a_meld_suit():
    # 1m is melded, so 万 cannot be void; 筒 and 条 both hold tiles: 4 swaps to clear one
    assert shapes.ruleset_shanten("[111m]456p789p234s5s", rules.get("sichuan")) == 4


@pytest.mark.parametrize("seed", range(3))
def test_shape_engine_equals_core_on_melded_void_suit_hands(seed):
    rng = np.random.default_rng(seed)
    rs = rules.get("sichuan")
    checked = 0
    while checked < 150:
        n_melds = int(rng.integers(1, 3))
        melds, used = [], np.zeros(34, np.int64)
        for _ in range(n_melds):
            t = int(rng.integers(0, 27))
            if used[t] + 3 > 4:
                break
            melds.append(Meld("pung", t))
            used[t] += 3
        else:
            pool = np.repeat(np.arange(27), 4 - used[:27])
            pick = rng.choice(pool, size=13 - 3 * len(melds), replace=False)
            c = np.bincount(pick, minlength=34).astype(np.uint8)
            h = Hand(c, tuple(melds))
            assert shapes.ruleset_shanten(h, rs) == majiang.shanten(h, ruleset="sichuan")
            checked += 1

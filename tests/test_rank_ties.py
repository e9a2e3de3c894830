"""Ranking on probabilities rounded to 12 significant digits (majiang._ranks.rank_key):
float noise no longer splits mirror-image discards."""
from __future__ import annotations

import math

import numpy as np

import majiang
from majiang._ranks import rank_key


def test_rank_key_rounds_to_twelve_significant_digits():
    a, b = 0.2948624007875633, 0.29486240078756326        # the same sum, another order
    assert a != b and rank_key(np.array([a]))[0] == rank_key(np.array([b]))[0]
    got = rank_key(np.array([0.1, 0.1000000001, 1e-15, 1.0000000000001e-15, 0.0, -1.0,
                             math.nan]))
    assert got[0] != got[1]                  # differ in the 10th digit: still apart
    assert got[2] == got[3]                  # relative, not absolute rounding
    assert got[4] == 0.0 and got[5] == -1.0 and math.isnan(got[6])


def test_mirror_image_discards_share_a_rank():
    # 23467m11p456s1122z under 广东: discarding 4s leaves 56s, discarding 6s leaves 45s —
    # mirror images of each other for every count (the suit is otherwise empty), so every
    # column is the same and so must be the rank
    t = majiang.advise("23467m11p456s1122z", ruleset="guangdong", draws=8,
                       second_order=False)
    rows = t.set_index("discard")
    assert rows.loc["4s", "ukeire_count"] == rows.loc["6s", "ukeire_count"]
    assert math.isclose(rows.loc["4s", "p_win"], rows.loc["6s", "p_win"], rel_tol=1e-12)
    assert rows.loc["4s", "rank"] == rows.loc["6s", "rank"]

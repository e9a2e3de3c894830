"""Argument and ruleset-option checks written once: ``n_jobs`` (efficiency._n_jobs, used by
probability and the game table too) and the integer options of the ruleset builders."""
from __future__ import annotations

import numpy as np
import pytest

from majiang import RuleError, shanten_batch, starting_hand_shanten


@pytest.mark.parametrize("bad", [True, False, 0, -2, 1.5, "2"])
def test_n_jobs_refused_alike_in_efficiency_and_probability(bad):
    rows = np.zeros((1, 34), np.uint8)
    rows[0, :13] = 1
    with pytest.raises(RuleError, match="n_jobs must be a positive integer"):
        shanten_batch(rows, n_jobs=bad)
    with pytest.raises(RuleError, match="n_jobs must be a positive integer"):
        starting_hand_shanten(10, n_jobs=bad, seed=1)


def test_n_jobs_accepted_values_give_the_same_result():
    rng = np.random.default_rng(5)
    rows = np.zeros((50, 34), np.uint8)
    for r in rows:
        np.add.at(r, rng.choice(136, 13, replace=False) // 4, 1)
    ref = shanten_batch(rows, n_jobs=1)
    for ok in (None, -1, 2, np.int64(1)):
        assert np.array_equal(shanten_batch(rows, n_jobs=ok), ref)

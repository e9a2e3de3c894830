"""Argument and ruleset-option checks written once: ``n_jobs``
(majiang._parallel.resolve_n_jobs, used by every public function that takes it) and the
integer options of the ruleset builders."""
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


# ------------------------------------------------------------ integer options: check_int
from majiang import rules  # noqa: E402
from majiang.rules.base import KongPayments, ScoringRule, check_int  # noqa: E402

_SHAPE = r" must be (None or )?an (even )?integer( >= -?\d+| <= \d+| from \d+ to \d+)?, got "


@pytest.mark.parametrize("family, kwargs", [
    ("hefei", {"cap": 5}),
    ("hefei", {"cap": True}),
    ("hangzhou", {"cap": 0}),
    ("hangzhou", {"dealer_deal": 0}),
    ("nanchang", {"cap": 3}),                 # not even
    ("nanchang", {"cap": "300"}),
    ("nanjing", {"open_min_flowers": 21}),
    ("nanjing", {"open_min_flowers": 2.0}),
    ("wuhan", {"cap": 0}),
])
def test_bad_integer_option_of_each_family(family, kwargs):
    (key, value), = kwargs.items()
    with pytest.raises(RuleError, match=_SHAPE) as e:
        rules.BUILDERS[family](**kwargs)
    assert repr(value) in str(e.value) and key in str(e.value)


def test_bad_integer_arguments_of_the_rule_helpers():
    from majiang.rules import guizhou, hangzhou, shanghai_baida, wenzhou, wuhan
    for call in (lambda: hangzhou.dealer_factor(0), lambda: wenzhou.base_points(-1),
                 lambda: hangzhou.chain_value(kongs=-1), lambda: hangzhou.chain_value(branch=0),
                 lambda: shanghai_baida.huang_fan(-2),
                 lambda: guizhou.chicken_values(27), lambda: guizhou.chicken_values(True),
                 lambda: wuhan.settle_wuhan(4, 0, None, cap=-1),
                 lambda: ScoringRule(cap=-1), lambda: ScoringRule(base=0),
                 lambda: KongPayments(concealed=-2)):
        with pytest.raises(RuleError, match=_SHAPE):
            call()


def test_bad_integer_values_in_house_rules():
    for text in ('base = "sichuan"\n[rules]\nmin_fan = -1\n',
                 'base = "sichuan"\n[rules]\nmin_fan = 1.5\n',
                 'base = "sichuan"\n[fans]\n"清一色" = "three"\n'):
        with pytest.raises(RuleError, match="<string>: .*" + _SHAPE):
            rules.loads(text)


def test_check_int_passes_good_values_and_reads_alike():
    assert check_int(3, "x", lo=0) == 3
    assert check_int(None, "x", optional=True) is None
    assert check_int(4, "x", lo=2, even=True) == 4
    assert check_int(-7, "x") == -7
    msgs = []
    for bad, kw in ((None, {}), (True, {"lo": 0}), (1.0, {"lo": 0, "hi": 3}),
                    (5, {"lo": 6, "optional": True}), (3, {"even": True, "lo": 2}),
                    (9, {"hi": 8})):
        with pytest.raises(RuleError) as e:
            check_int(bad, "opt", **kw)
        msgs.append(str(e.value))
    assert msgs == ["opt must be an integer, got None",
                    "opt must be an integer >= 0, got True",
                    "opt must be an integer from 0 to 3, got 1.0",
                    "opt must be None or an integer >= 6, got 5",
                    "opt must be an even integer >= 2, got 3",
                    "opt must be an integer <= 8, got 9"]

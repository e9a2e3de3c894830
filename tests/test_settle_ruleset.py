"""A result settles under the Ruleset it was scored with, not the registered ruleset of
the same name: a non-default build shares the registered name."""
import pickle

import majiang
from majiang.rules import hainan

HAND = "123m456m789m123p5p"


def _expected_hainan(points, winner, dealer, zhuangxian):
    # 海南 (docs/rules/hainan.md): every other player pays points x d on a self-draw,
    # d = 2 when the dealer is the payer or the winner and 庄闲 is on, else 1
    out = [0] * 4
    for p in range(4):
        if p != winner:
            d = 2 if zhuangxian and dealer in (p, winner) else 1
            out[p] -= points * d
            out[winner] += points * d
    return tuple(out)


def test_non_default_build_settles_with_its_own_parameters():
    flat = hainan.build(zhuangxian=False)
    assert flat.name == majiang.rules.get("hainan").name      # same name, other settlement
    r_flat = majiang.score(HAND, win_tile="5p", self_drawn=True, seat_wind=1, ruleset=flat)
    r_default = majiang.score(HAND, win_tile="5p", self_drawn=True, seat_wind=1,
                              ruleset="hainan")
    assert r_flat.points == r_default.points
    # winner seat 1 is South: the dealer (East) sits at seat 0
    assert r_flat.settle(1) == _expected_hainan(r_flat.points, 1, 0, False)
    assert r_default.settle(1) == _expected_hainan(r_default.points, 1, 0, True)
    assert r_flat.settle(1) != r_default.settle(1)


def test_unpickled_result_of_a_registered_ruleset_still_settles():
    r = majiang.score(HAND, win_tile="5p", self_drawn=True, ruleset="guangdong")
    r2 = pickle.loads(pickle.dumps(r))
    assert r2.settle(0) == r.settle(0)
    assert sum(r2.settle(0)) == 0


def test_check_win_size_error_does_not_name_score():
    import pytest
    from majiang.scoring import check_win
    for rs in ("guangdong", "mcr"):
        with pytest.raises(majiang.InvalidHandError) as e:
            check_win("123m456m789m123p55p", win_tile="5p", ruleset=rs)
        assert "score()" not in str(e.value) and "BEFORE the winning tile" in str(e.value)

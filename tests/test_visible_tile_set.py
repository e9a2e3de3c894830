"""``visible`` of :func:`majiang.ukeire` / :func:`majiang.discard_table` /
:func:`majiang.advise` is checked against the ruleset's tile set, as the CLI's
``--visible`` is (one check: ``GameModel.check_kinds``).

The tile sets are the rule notes' (docs/rules/): 四川 / 合肥 play the 108 suited
tiles only; 卡五星 84 tiles, no 万 and no winds; 罗源 36花 turns the seven honours into
flowers, so no honour is a playable kind.  Every route of the analysis is covered:
the core with shape options (sichuan, kawuxing), the 2-5-8 families (hefei) and the
shape engine (luoyuan)."""
from __future__ import annotations

import numpy as np
import pytest

import majiang
from majiang import InvalidHandError
from majiang.cli import main
from majiang.tiles import parse_tile

CASES = [   # ruleset, a 13-tile hand (16 for luoyuan), a tile outside the set
    ("sichuan", "1112345678999m", "4z"),
    ("hefei", "1112345678999m", "1z"),
    ("kawuxing", "1112345678999p", "5m"),
    ("luoyuan", "1112345678999m123p", "1z"),
]


def _calls(hand):
    draw = "9s"
    return [(majiang.ukeire, hand), (majiang.discard_table, hand + draw),
            (majiang.advise, hand + draw)]


@pytest.mark.parametrize("name,hand,outside", CASES)
def test_visible_kind_outside_the_tile_set_is_refused(name, hand, outside):
    vec = np.zeros(34, np.uint8)
    vec[parse_tile(outside)] = 1
    for f, h in _calls(hand):
        for vis in (outside, vec):          # text and a count vector alike
            with pytest.raises(InvalidHandError) as e:
                f(h, vis, ruleset=name)
            assert f"{outside} is not in the tile set of {name}" in str(e.value)
            assert str(e.value).startswith("visible: ")


@pytest.mark.parametrize("name,hand,outside", CASES)
def test_visible_inside_the_tile_set_still_counts(name, hand, outside):
    # one seen copy of 2m/2p (in every set above) lowers that draw's live count by one
    seen = "2p" if name == "kawuxing" else "5m"
    got = majiang.ukeire(hand, seen, ruleset=name)
    base = majiang.ukeire(hand, ruleset=name)
    assert set(got) == set(base) and got[seen] == base[seen] - 1
    # without a ruleset (136 tiles) the same outside tile is an ordinary visible tile
    if name != "luoyuan":
        majiang.ukeire(hand, outside)


def test_library_and_cli_say_the_same(capsys):
    with pytest.raises(InvalidHandError) as e:
        majiang.ukeire("123m456p789s11s23p", "4z", ruleset="sichuan")
    assert main(["shanten", "123m456p789s11s23p", "--rules", "sichuan", "--visible", "4z"]) == 2
    err = capsys.readouterr().err
    lib = str(e.value).split(": ", 1)[1]
    assert lib == "4z is not in the tile set of sichuan (108 tiles)" and lib in err

"""One 2-5-8 route decision (:attr:`majiang.rules.model.GameModel.shapes_258`) read by
shanten / ukeire (efficiency), waits (scoring.waiting) and probabilities alike.

House rulesets built from TOML combine the 2-5-8 shape families (``pair_258_small`` /
the ``all_258`` form) with 缺一门 (``void_suit``) and 二五八将 for every regular hand
(``pair_258``).  Before the decision was one property the three layers disagreed on
them (the efficiency route ignored the void suit or raised, waits applied it, the
probability engine ignored it).  The oracle is THE win predicate
(:func:`majiang.scoring.check_win`) with no situational context: a 13-tile hand is
ready iff some drawable tile makes it a valid win (self-drawn or on a discard).
"""
from __future__ import annotations

import numpy as np
import pytest

import majiang
from majiang import rules
from majiang.efficiency import shanten, shanten_batch, ukeire
from majiang.hand import Hand
from majiang.rules.model import game_model
from majiang.scoring import check_win
from majiang.tiles import format_counts, tile_name

from _hands import family_hand, near_hands


def _house(name: str, constraints: list[str]):
    cons = ", ".join(f'"{c}"' for c in constraints)
    return rules.loads(f'base = "changsha"\nname = "{name}"\n[rules]\n'
                       f'constraints = [{cons}]\n')


HOUSE = {
    "small_void": _house("t258_small_void", ["pair_258_small", "void_suit"]),
    "all258_void": _house("t258_all258_void", ["void_suit"]),
    "all258_strict_void": _house("t258_strict_void", ["pair_258", "void_suit"]),
    "all258_strict": _house("t258_strict", ["pair_258"]),
}


def _wins(c: np.ndarray, t: int, rs, melds=()) -> bool:
    h = Hand(c, melds)
    return any(check_win(h, t, ruleset=rs, self_drawn=sd).valid for sd in (True, False))


def _oracle(c: np.ndarray, rs, melds=()) -> list[int]:
    held = c.astype(int).copy()
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    copies = np.asarray(rs.copies)
    return [t for t in range(34) if held[t] < copies[t] and _wins(c, t, rs, melds)]


def _complete(rng) -> np.ndarray:
    """A complete 14-tile hand of one of the families, mostly of two suits."""
    while True:
        suits = list(rng.choice(3, 2, replace=False)) if rng.random() < 0.7 else [0, 1, 2]
        kind = rng.integers(5)
        family = {0: "seven_pairs", 1: "all_258", 2: "pungs"}.get(int(kind), "sets")
        c = family_hand(rng, family, suits, pair_258=kind == 3)
        if c is not None:
            return c


def _hands(seed: int, n: int) -> list[np.ndarray]:
    return near_hands(_complete, seed, n)



def test_one_decision_in_the_game_model():
    for rs in HOUSE.values():
        assert game_model(rs).shapes_258
    for name in ("changsha", "hefei", "wuhan"):
        assert game_model(name).shapes_258
    for name in ("mcr", "sichuan", "changsha_zhuanzhuan", None):
        assert not game_model(name).shapes_258


@pytest.mark.parametrize("key", list(HOUSE))
def test_shanten_waits_ukeire_equal_the_predicate(key):
    rs = HOUSE[key]
    ready = 0
    hands = _hands(list(HOUSE).index(key) + 11, 45)
    for c in hands:
        want = _oracle(c, rs)
        s = shanten(c, ruleset=rs)
        text = format_counts(c)
        assert s >= 0 and (s == 0) == bool(want), (key, text, s, want)
        got = [t for t in majiang.waits(text, ruleset=rs)
               if c[majiang.tiles.parse_tile(t)] < 4]
        assert got == [tile_name(t) for t in want], (key, text)
        if want:
            ready += 1
            assert sorted(ukeire(c, ruleset=rs)) == sorted(tile_name(t) for t in want), text
    assert ready >= 8
    batch = shanten_batch(np.array(hands), ruleset=rs)
    assert batch.tolist() == [shanten(c, ruleset=rs) for c in hands]


def test_void_suit_decides_the_examples():
    rs = HOUSE["all258_void"]
    # 将将胡 shape, but all three suits held: one swap from a two-suit 将将胡
    assert not _oracle(np.array(majiang.tiles.as_counts("22m55m88m22p55p88p2s"),
                                np.uint8), rs)
    assert shanten("22m55m88m22p55p88p2s", ruleset=rs) == 1
    assert majiang.waits("22m55m88m22p55p88p2s", ruleset=rs) == []


@pytest.mark.parametrize("key", ["small_void", "all258_strict_void"])
def test_one_draw_probabilities_equal_the_predicate(key):
    """T = 1 on the 108-tile wall: p_win = P(the draw wins by THE predicate)."""
    from majiang.probability import probabilities
    rs = HOUSE[key]
    for c in _hands(7, 12):
        wall = 4 - c.astype(int)
        wall[27:] = 0
        p = sum(wall[t] for t in _oracle(c, rs)) / wall.sum()
        assert probabilities(c, 1, ruleset=rs).p_win == pytest.approx(p, abs=1e-12), \
            format_counts(c)


def test_melds_count_toward_the_void_suit():
    rs = HOUSE["small_void"]
    for text, expect in (("[222s]22m55m88m55p88p", []), ("[555s]123m456m789m5m", ["5m"])):
        h = majiang.as_hand(text)
        want = _oracle(h.concealed, rs, h.melds)
        assert [tile_name(t) for t in want] == expect
        assert [t for t in majiang.waits(text, ruleset=rs)] == [tile_name(t) for t in want]
        assert (shanten(text, ruleset=rs) == 0) == bool(want), text

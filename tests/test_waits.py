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

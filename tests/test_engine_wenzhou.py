"""温州 discard order in the game engine's legal discards (docs/rules/wenzhou.md §1, W7: "a
lone honour must go first; after someone discards an honour you follow with the same
honour if you hold a single one"; ``Ruleset.discard_order == "lone_honours"``).

Constructed hands with the legal discards worked out by hand from that reading, and
seeded hands where every discard decision is checked against the reading through what the
seat's view shows (its tiles as played and the latest discard)."""
from __future__ import annotations

import numpy as np
import pytest

import majiang
from majiang.game.engine import fast_eligible, play_hand
from majiang.rules import wenzhou as W
from majiang.rules.model import game_model
from majiang.tiles import parse_tiles


def _dealt(jk, hand):
    """A dealt 温州 table with the 财神 kind ``jk`` (白板 its stand-in) and seat 0 holding
    ``hand`` (a tile string)."""
    st = play_hand("wenzhou", deal_only=True, seed=1)
    st.jk, st.jks = jk, (jk,)
    phys = np.zeros(34, dtype=np.uint8)
    for t in parse_tiles(hand):
        phys[t] += 1
    st.seats[0].phys = phys
    st.seats[0].drawn = None
    return st


E, S, WH, GR, RD = 27, 28, 31, 32, 33          # 东 南 白 发 中


def test_lone_honours_go_first():
    # 123m 456p 789s 11s 东 南南 中 + 5p 5p 9m: lone honours 东 and 中
    st = _dealt(4, "123m4556p789s119s1z22z7z")
    assert st.legal_discards(0) == [E, RD]
    # the 南 pair is no lone honour: after another seat's 南 the lone ones still go first
    st.last_discard = (2, S)
    assert st.legal_discards(0) == [E, RD]
    # after another seat's 中, the single 中 follows it
    st.last_discard = (3, RD)
    assert st.legal_discards(0) == [RD]
    # one's own discard is not followed
    st.last_discard = (0, RD)
    assert st.legal_discards(0) == [E, RD]


def test_no_lone_honour_frees_the_discard():
    st = _dealt(4, "123m4556p789s119s22z77z")
    want = sorted(set(parse_tiles("123m4556p789s119s22z77z")))
    assert st.legal_discards(0) == want
    st.last_discard = (1, S)          # a pair of 南: nothing to follow
    assert st.legal_discards(0) == want


def test_white_counts_as_the_face_it_plays_as():
    # 财神 5万 (suited): a single 白板 plays as 5万, no honour — the discard is free
    hand = "123m4556p789s119s5z"
    st = _dealt(4, hand)
    assert st.legal_discards(0) == sorted(set(parse_tiles(hand)))
    # 财神 东: a single 白板 plays as 东, a lone honour; the 东 (财神) may not be discarded
    st = _dealt(E, "123m4556p789s19s1z5z")
    assert st.legal_discards(0) == [WH]


def test_ruleset_field():
    assert W.WENZHOU.discard_order == "lone_honours"
    assert majiang.rules.get("mcr").discard_order == ""
    assert not any("lone" in m for m in W.WENZHOU.missing)
    assert not fast_eligible(game_model("wenzhou"), ("efficiency",) * 4)
    with pytest.raises(majiang.RuleError):
        import dataclasses
        dataclasses.replace(W.WENZHOU, discard_order="honours")


class _Checked:
    """A random player that checks each of its discard decisions against the reading,
    from its view: the tiles as played (wild tiles out), the latest discard."""

    def __init__(self, rng):
        self.rng = rng
        self.forced = 0

    def discard(self, view):
        legal = view.legal_discards
        counts, _ = view.play_counts()
        lone = {h for h in range(27, 34) if int(counts[h]) == 1}
        played = {view.play_kind(t) for t in legal}
        last = view.last_discard
        follow = None if last is None or last[0] == view.seat else view.play_kind(last[1])
        if follow in lone:
            assert played == {follow}
            self.forced += 1
        elif lone:
            assert played == lone
            self.forced += 1
        elif counts.any():
            # no lone honour: every tile held (the wild ones aside) may go
            assert played == {h for h in range(34) if counts[h]}
        return legal[int(self.rng.integers(len(legal)))]

    def claim(self, view, options):
        return ("win",) if ("win",) in options else None

    def declare(self, view, options):
        return ("win",) if ("win",) in options else None


def test_seeded_hands_obey_the_order():
    rng = np.random.default_rng(5)
    forced = 0
    for h in range(6):
        pols = [_Checked(rng) for _ in range(4)]
        play_hand("wenzhou", pols, seed=3, hand=h)
        forced += sum(p.forced for p in pols)
    assert forced > 0

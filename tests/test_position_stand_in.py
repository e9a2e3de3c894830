"""Positions under a stand-in tile (安庆 红中, 上海百搭 / 温州 / 杭州 翻财神 白板: a tile that
plays as the joker kind's face, ``JokerRule.substitute``): a meld claimed from a discarded
stand-in is kept by its physical tiles (``[555z]``, the notation of
:func:`majiang.efficiency.read_faces`, which reads it as the face's pung), so the claim
check finds the discard in it and the copy count counts 白板 as 白板."""
from __future__ import annotations

import numpy as np
import pytest

import majiang as mj
from majiang.efficiency import read_faces
from majiang.errors import InvalidHandError
from majiang.hand import Meld
from majiang.position import Position
from majiang.rules.model import game_model
from majiang.rules.toml import with_options


def _stand_in_rulesets():
    """Every registered ruleset with a stand-in tile, and 杭州 with its 翻财神 option."""
    out = [n for n in mj.rules.available()
           if (jr := game_model(n).jokers) is not None and jr.substitute is not None]
    return out + [with_options(mj.rules.get("hangzhou"), caishen="flip")]


def test_the_stand_in_rulesets_are_found():
    # the registry's stand-in rulesets (a new one joins the tests below by itself)
    names = {getattr(r, "name", r) for r in _stand_in_rulesets()}
    assert {"shanghai_baida", "anqing", "wenzhou", "hangzhou"} <= names


def _stand_in_melds(st) -> int:
    return sum(1 for s in st.seats for m in s.melds
               if st.sub >= 0 and st.sub != st.jk and st.sub in m["tiles"])


# seeds whose hand (hand 0) claims a stand-in into a pung, per ruleset and players
_SEEDS = {("shanghai_baida", "random"): (2, 6), ("shanghai_baida", "efficiency"): (17, 19),
          ("anqing", "random"): (0, 5), ("anqing", "efficiency"): (0, 24),
          ("wenzhou", "random"): (0, 9), ("wenzhou", "efficiency"): (13, 16),
          ("hangzhou", "random"): (16, 20), ("hangzhou", "efficiency"): (11, 16)}


@pytest.mark.parametrize("ruleset", _stand_in_rulesets(), ids=lambda r: getattr(r, "name", r))
@pytest.mark.parametrize("players", ["random", "efficiency"])
def test_from_log_builds_every_step_of_hands_claiming_stand_ins(ruleset, players):
    from majiang.game import play_hand
    name = getattr(ruleset, "name", ruleset)
    claimed = 0
    for seed in (*_SEEDS[(name, players)], 1):
        st = play_hand(ruleset, players, seed=seed, log=True)
        claimed += _stand_in_melds(st)
        ev = st.events
        for step, e in enumerate(ev):
            # every position validates (claims, the copy count, the turn order)
            Position.from_log(ev, step, seat=e.get("seat", 0), ruleset=ruleset)
        # at the end each seat's melds are the engine's: physical tiles counted, the
        # kinds they play as (read_faces) the engine's melds
        for p, s in enumerate(st.seats):
            pos = Position.from_log(ev, len(ev) - 1, seat=p, ruleset=ruleset)
            phys = np.zeros(34, np.int64)
            for m in s.melds:
                np.add.at(phys, m["tiles"], 1)
            mine = np.zeros(34, np.int64)
            for m in pos.own_melds:
                np.add.at(mine, m.tiles, 1)
            assert np.array_equal(mine, phys), (seed, p)
            played = read_faces(pos.hand, pos.ruleset, pos.indicator).melds
            assert played == pos.played_melds(p) == st.meld_objects(p), (seed, p)
    assert claimed, "the seeds no longer claim a stand-in: pick others"


_KW = dict(ruleset="shanghai_baida", indicator="6m", seat=0, dealer=0)


def test_a_hand_built_stand_in_pung_counts_its_copies():
    # 上海百搭 活动百搭, 6m turned: the other three 6m are 百搭, the four 白板 play as 6m.
    # Seat 0 punged seat 1's 白板 with two of its own and holds the fourth, with the three
    # 百搭: four 白板 and four 6m (three held, the indicator) — nothing counted twice
    p = Position("666m123p45s5z11z", melds=["[555z]@1", None, None, None],
                 discards=["1z", "5z@0", "9p", "9s"], **_KW)
    assert p.hand.jokers == 3 and int(p.hand.concealed[31]) == 1
    assert int(p.unseen_counts()[31]) == 0 and int(p.unseen_counts()[5]) == 0
    # the analyses read the pung as the 6m it plays as
    assert [str(m) for m in read_faces(p.hand, p.ruleset, p.indicator).melds] == ["[666m]"]
    assert p.own_melds == (Meld("pung", 31),)
    assert p.played_melds(0) == (Meld("pung", 5),) and p.played_melds(1) == ()
    # without the indicator the joker kind is unknown: the pung is the 白板 it is
    assert p.replace(indicator=None).played_melds(0) == (Meld("pung", 31),)
    assert len(mj.advise(p, second_order=False, draws=2, n_samples=100,
                         danger_samples=10)) > 1
    # a fifth physical 白板 (one more on the table) is refused, by name
    with pytest.raises(InvalidHandError, match="5 copies of 5z"):
        Position("666m123p45s5z11z", melds=["[555z]@1", None, None, None],
                 discards=["1z5z", "5z@0", "9p", "9s"], **_KW)
    # the pung written by the kind it plays as is of 6m, whose other copies are held as
    # 百搭 or face up: too many 6m
    with pytest.raises(InvalidHandError, match="7 copies of 6m"):
        Position("666m123p45s5z11z", melds=["[666m]@1", None, None, None],
                 discards=["1z", "6m@0", "9p", "9s"], **_KW)

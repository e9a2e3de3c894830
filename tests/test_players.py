"""The policy side of :mod:`majiang.game.players`: the built-in bots read only the
public :class:`SeatView` (no reach into the engine's state), and a policy written with
the view's public helpers alone plays whole hands.

Expected values are independent of the helpers under test: the tiles a seat sees are
recounted from the public pools and melds; the efficiency bot behind a view that hides
every private name must make the very same moves (same events, same payments) as the
bot given the plain view.
"""
from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from majiang._core import game as cg
from majiang.game import play_hand, players
from majiang.game.players import EfficiencyPlayer, SeatView
from majiang.rules.model import game_model
from majiang.tiles import parse_counts


def test_policies_read_the_engine_state_only_through_seatview():
    """The built-in policies see the table only through SeatView: their modules never
    read the engine state (``._st``), and seat_view.py reads it only inside SeatView."""
    from majiang.game import expert, expert_plans, seat_view, wait_judge

    def reads(mod, allowed_class=None):
        tree = ast.parse(Path(mod.__file__).read_text(encoding="utf-8"))
        inside = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and node.name == allowed_class:
                inside.update(id(n) for n in ast.walk(node))
        return [n.lineno for n in ast.walk(tree)
                if isinstance(n, ast.Attribute) and n.attr == "_st" and id(n) not in inside]

    for mod in (players, expert, expert_plans, wait_judge):
        assert reads(mod) == [], f"{mod.__name__} reads view._st at lines {reads(mod)}"
    assert reads(seat_view, "SeatView") == []
    assert reads(seat_view) != []        # the view itself does read the state


class _PublicOnly:
    """A view that forwards only public names (anything starting with '_' is refused)."""

    def __init__(self, view):
        object.__setattr__(self, "_v", view)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(f"private view attribute {name!r}")
        return getattr(object.__getattribute__(self, "_v"), name)


class _Guarded:
    """The efficiency bot given only the public view."""

    name = "guarded"

    def __init__(self):
        self._bot = EfficiencyPlayer()

    def choose_void(self, view):
        return self._bot.choose_void(_PublicOnly(view))

    def exchange(self, view):
        return self._bot.exchange(_PublicOnly(view))

    def declare(self, view, options):
        return self._bot.declare(_PublicOnly(view), options)

    def discard(self, view):
        return self._bot.discard(_PublicOnly(view))

    def claim(self, view, options):
        return self._bot.claim(_PublicOnly(view), options)


# two wild kinds (南昌), a stand-in tile (安庆), a minimum to win (合肥), 定缺 (四川),
# a plain table (MCR)
@pytest.mark.parametrize("name,hand", [("nanchang", 0), ("anqing", 1), ("hefei", 2),
                                       ("sichuan", 0), ("mcr", 3)])
def test_efficiency_bot_plays_the_same_hand_from_the_public_view(name, hand):
    n = game_model(name).players
    plain = play_hand(name, [EfficiencyPlayer() for _ in range(n)], seed=7, hand=hand,
                      engine="python", log=True)
    guarded = play_hand(name, [_Guarded() for _ in range(n)], seed=7, hand=hand,
                        engine="python", log=True)
    # the header names the players; every event after it must match
    assert guarded.events[0]["e"] == plain.events[0]["e"] == "header"
    assert guarded.events[1:] == plain.events[1:]
    assert guarded.deltas == plain.deltas
    assert plain.ended and any(e["e"] == "discard" for e in plain.events)


class _ShapePolicy:
    """A user's policy from the public view only: wins when it may, never calls, and
    discards by the compiled least-shanten / most-live-ukeire choice over
    ``view.shape_options()``; it records what it saw for the checks below."""

    def __init__(self):
        self.seen = []

    def declare(self, view, options):
        return ("win",) if ("win",) in options else None

    def claim(self, view, options):
        return ("win",) if ("win",) in options else None

    def discard(self, view):
        c, j = view.play_counts()
        vis = view.visible_counts()
        self.seen.append((view.concealed, c, j, vis, view.discards, view.melds,
                          view.seat, view.joker_kinds, view.stand_in, view.last_discard))
        legal = view.legal_discards
        allowed = np.zeros(34, dtype=np.uint8)
        for t in legal:
            if t not in view.joker_kinds:
                allowed[view.play_kind(t)] = 1
        k, _, _ = cg.choose_discard(c, view.shape_options(), j, vis, view.voids[view.seat],
                                    allowed)
        if view.stand_in is not None and k == view.joker_kind:
            k = view.stand_in
        return int(k) if k in legal else int(legal[0])


def _recount(discards, melds, seat):
    """Tiles by kind in every pool and in the other seats' exposed melds."""
    v = np.zeros(34, dtype=np.int64)
    for pool in discards:
        for t in pool:
            v[t] += 1
    for q, ms in enumerate(melds):
        if q == seat:
            continue
        for kind, tile, concealed in ms:
            if concealed:
                continue
            if kind == "chow":
                v[tile:tile + 3] += 1
            else:
                v[tile] += 4 if kind == "kong" else 3
    return v


def test_policy_from_public_helpers_plays_a_full_hand_and_sees_the_table():
    pols = [_ShapePolicy() for _ in range(4)]
    st = play_hand("mcr", pols, seed=11, hand=0)
    assert st.ended
    seen = [s for p in pols for s in p.seen]
    assert len(seen) > 10
    for concealed, c, j, vis, discards, melds, seat, jks, sub, last in seen:
        # no wild tiles under MCR: the tiles as played are the physical tiles
        assert j == 0 and jks == () and sub is None
        assert c.dtype == np.uint8 and c.shape == (34,)
        assert np.array_equal(c, concealed)
        assert vis.dtype == np.uint8 and vis.shape == (34,)
        assert np.array_equal(vis.astype(np.int64), _recount(discards, melds, seat))


@pytest.mark.parametrize("name", ["nanchang", "anqing"])
def test_play_counts_take_the_wild_tiles_out(name):
    pols = [_ShapePolicy() for _ in range(4)]
    st = play_hand(name, pols, seed=3, hand=0)
    assert st.ended
    seen = [s for p in pols for s in p.seen]
    assert any(s[2] for s in seen), "no seat ever held a wild tile: pick another seed"
    for concealed, c, j, vis, discards, melds, seat, jks, sub, last in seen:
        # every copy of a wild kind is a joker; a stand-in fills the joker kind's place
        assert j == sum(int(concealed[k]) for k in jks)
        assert int(c.sum()) + j == int(concealed.sum())
        for k in jks:
            want = int(concealed[sub]) if sub is not None and k == jks[0] else 0
            assert int(c[k]) == want
        if sub is not None:
            assert int(c[sub]) == 0


def test_judge_waits_is_bound_to_the_seat():
    """The seat's verdict on a wait is the module's wait_judge with the seat's own
    melds, wind and flowers: a complete MCR hand of 8+ fan wins, a bare 1-fan shape
    does not."""
    st = play_hand("mcr", ["efficiency"] * 4, seed=1, deal_only=True)
    view = SeatView(st, 0)
    verdict, _ = view.judge_waits(0)
    # 九莲宝灯 (88 fan): 1112345678999m + 5m
    after = parse_counts("1112345678999m")
    assert verdict(after, 4)
    # 123m 456p 777s 23s 55m + 4s self-drawn: 不求人 4 + 无字 1 = 5 fan, plus one per
    # flower the seat set aside: under the minimum of 8 with at most 2 flowers
    assert view.flowers[0] <= 2
    after = parse_counts("123m456p777s23s55m")
    assert not verdict(after, 21)

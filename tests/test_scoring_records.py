"""Score every win of the shipped Botzone MCR games and reproduce the judge's result,
under ``mcr`` and under ``mcr_botzone`` (the duplicate format the games were played in).

Botzone's judge records the fans by Chinese name (its fan library calls 坎张 "嵌张")
and the settlement.  Context mapping from :class:`majiang.records.Win`:
self-draw as recorded; 和绝张 when three copies were exposed on the table
(``win_tile_shown == 3``, the judge's rule); kong = 杠上开花 or 抢杠和; last tile
from the duplicate-wall model; Botzone plays without flowers.
"""
from __future__ import annotations

import pytest

from majiang import rules
from majiang.hand import Hand, Meld
from majiang.records import example_games, wins
from majiang.scoring import score

RS = rules.get("mcr")
RULESETS = ("mcr", "mcr_botzone")
WINS = [w for g in example_games() for w in wins(g)]


def _score(w, ruleset="mcr"):
    hand = Hand(w.concealed, tuple(Meld(m.kind, m.tile, m.concealed) for m in w.melds))
    return score(hand, w.win_tile, self_drawn=w.self_drawn, last_copy=w.win_tile_shown == 3,
                 kong=w.kong_replacement or w.robbing_kong, last_tile=bool(w.wall_last),
                 seat_wind=w.seat_wind, prevalent_wind=w.prevalent_wind, ruleset=ruleset)


def test_there_are_wins():
    assert len(WINS) == 8


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("w", WINS, ids=[w.game[-6:] for w in WINS])
def test_botzone_fans_and_settlement(w, name):
    rs = rules.get(name)
    r = _score(w, name)
    recorded = {}
    for fan_name, count in w.fans:
        fan = rs.fan(fan_name)             # Botzone name -> our fan (嵌张 -> 坎张)
        recorded[fan.id] = recorded.get(fan.id, 0) + count
    assert r.fan_counts == recorded
    assert r.total == w.fan_total
    assert r.meets_minimum
    assert r.settle(w.player, w.discarder) == w.scores
    assert rs.settle(r.total, w.player, w.discarder) == w.scores


def test_botzone_games_fit_one_wall_per_seat():
    """Every shipped game fits mcr_botzone's walls: no seat drew more than its wall."""
    assert all(w.wall_last is not None and min(w.wall_remaining) >= 0 for w in WINS)


def test_botzone_name_for_closed_wait():
    assert RS.fan("嵌张").chinese == "坎张"
    assert any(name == "嵌张" for w in WINS for name, _ in w.fans)

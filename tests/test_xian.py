"""西安 (xian) 下注 side bets (docs/rules/xian.md §5): before the dice a player may bet an
amount against all the others; if he wins, each other player pays him the bet; if another
wins, the bet goes to that winner; a self-draw doubles it; dealer and 偏家 alike.

Expected values are worked out by hand from that text, never read from the code's output.
Seats A = 0, B = 1, C = 2, D = 3.
"""
from __future__ import annotations

import pytest

from majiang import RuleError, rules
from majiang.game import play_hand, replay, summarize, to_jsonl
from majiang.rules import xian as X
from majiang.rules.toml import with_options
from majiang.rules.table_rules import net_of

BETS = (0, 2, 0, 1)                  # B bets 2, D bets 1
XIAN_BETS = with_options(rules.get("xian"), bets=BETS)


def test_default_is_no_bet():
    rs = rules.get("xian")
    assert rs.options["bets"] == (0, 0, 0, 0) and rs.end_settlement == ""
    assert "下注" not in " ".join(rs.missing)
    assert XIAN_BETS.end_settlement == "xian"


def test_non_bettor_self_draws():
    # A self-draws: B's bet 2 and D's bet 1 go to A, doubled: B -4, D -2, A +6
    assert X.side_bets(BETS, 0, True) == (6, -4, 0, -2)


def test_non_bettor_wins_on_a_discard():
    # A wins on a discard: B pays 2, D pays 1 (not doubled), whoever discarded
    assert X.side_bets(BETS, 0, False) == (3, -2, 0, -1)


def test_bettor_wins_on_a_discard():
    # B wins: A, C and D each pay B's bet 2 (+6); D's own bet 1 goes to B
    assert X.side_bets(BETS, 1, False) == (-2, 7, -2, -3)


def test_bettor_self_draws():
    # D self-draws: A, B, C each pay D's bet 1 x 2 = 2 (+6); B's bet 2 x 2 = 4 goes to D
    assert X.side_bets(BETS, 3, True) == (-2, -6, -2, 10)


def test_no_bet_pays_nothing():
    assert X.side_bets((0, 0, 0, 0), 2, True) == (0, 0, 0, 0)


def test_bad_bets_refused():
    for bets in ((1, 2, 3), (0, -1, 0, 0), (0, 1.5, 0, 0), "1234", (0, True, 0, 0)):
        with pytest.raises(RuleError):
            X.build(bets=bets)
    with pytest.raises(RuleError):
        X.side_bets(BETS, 4, True)


def test_options_round_trip():
    back = rules.loads(rules.dumps(XIAN_BETS))
    assert back.options["bets"] == BETS and back.end_settlement == "xian"


def _bets_of_hand(st, bets):
    """下注 of a played hand, worked out from the win records (who won, how)."""
    out = [0] * 4
    for w in st.wins:
        m = 2 if w["how"] in ("self_draw", "kong_replacement") else 1
        for p, b in enumerate(bets):
            if p == w["seat"]:
                for q in range(4):
                    if q != p:
                        out[q] -= b * m
                        out[p] += b * m
            else:
                out[p] -= b * m
                out[w["seat"]] += b * m
    return out


def test_side_bets_in_the_engine():
    # 30 seeded hands: zero-sum; the 下注 entries are the bets of the hand's win (none in a
    # drawn hand); both kinds of win happen
    hows = set()
    for h in range(30):
        st = play_hand(XIAN_BETS, "efficiency", seed=7, hand=h)
        assert sum(st.deltas) == 0
        got = list(net_of([e for e in st.end_checks if e["check"] == "下注"], 4))
        assert got == _bets_of_hand(st, BETS)
        if not st.wins:
            assert got == [0, 0, 0, 0]
        hows |= {w["how"] for w in st.wins}
    assert {"self_draw", "discard"} <= hows


def test_replay_with_bets():
    for h in range(3):
        st = play_hand(XIAN_BETS, "efficiency", seed=7, hand=h, log=True)
        assert summarize(replay(to_jsonl(st.events))) == summarize(st)

"""Kongs made in a row before a win on the last one's replacement
(:attr:`majiang.winning.WinContext.kong_chain`): the context's checks, the game engine's
count (:meth:`majiang.game.engine.kongs.KongLedger.chain`, both loops) and 杭州's 杠开, ×2
per kong of the chain (docs/rules/hangzhou.md §3, §5: M = branch × 2^chain × [4个白板 ×2] ×
[爆头 ×2]).  Every expected value is worked by hand from that formula and the settlement
(§6: a dealer's self-draw on his first deal, N = 2, is paid stake × N by each non-dealer)."""
from __future__ import annotations

import pytest

import majiang
from majiang import InvalidHandError
from majiang.game.engine import play_hand
from majiang.game.engine.kongs import KongLedger
from majiang.game.logs import replay, summarize
from majiang.rules import hangzhou as HZ
from majiang.winning import WinContext

from _engine_helpers import Script, build_test_wall, check_settlement


def test_context_checks():
    assert WinContext(0, True, kong=True, kong_chain=3).kong_chain == 3
    assert "2 kongs in a row" in str(WinContext(0, True, kong=True, kong_chain=2))
    for bad in (dict(self_drawn=True, kong_chain=2),              # not on a kong replacement
                dict(self_drawn=False, kong=True, kong_chain=1),  # a robbed kong
                dict(self_drawn=True, kong=True, kong_chain=5),
                dict(self_drawn=True, kong=True, kong_chain=True)):
        with pytest.raises(InvalidHandError):
            WinContext(0, **bad)
    # a chain of two needs two kongs in the hand, under any ruleset
    for rs in ("hangzhou", "mcr"):
        with pytest.raises(InvalidHandError, match="kong_chain=2"):
            majiang.score("123m456m789m1s{1111p}", "1s", ruleset=rs, self_drawn=True,
                          kong=True, kong_chain=2)


def test_ledger_counts_the_kongs_of_one_turn():
    led = KongLedger(majiang.rules.get("mcr"), 4)      # no kong payments: still counted
    assert led.chain(0) == 0
    led.kong(0, "concealed", [False] * 4, 3)
    led.kong(0, "added", [False] * 4, 3)
    assert led.chain(0) == 2 and led.chain(1) == 0
    led.kong(0, "concealed", [False] * 4, 7)            # a later turn: a new chain
    assert led.chain(0) == 1
    led.kong(2, "exposed", [False] * 4, 8, discarder=1)
    led.kong(2, "concealed", [False] * 4, 8)            # exposed, then concealed: two
    assert led.chain(2) == 2 and led.chain(0) == 0


@pytest.mark.parametrize("chain,m", [(0, 4), (1, 4), (2, 8), (3, 16), (4, 16)])
def test_hangzhou_gangkai_doubles_per_kong(chain, m):
    # 爆头 (×2): 123m 456m + a lone 财神 with two kongs … four; 杠开 ×2^k, capped at 16
    # (chain 0 = one kong); with no cap, four kongs: 2 × 2^4 = 32
    hand = {0: "123m456m*{1111p}{2222p}", 1: "123m456m*{1111p}{2222p}",
            2: "123m456m*{1111p}{2222p}", 3: "123m*{1111p}{2222p}{3333p}",
            4: "*{1111p}{2222p}{3333p}{4444p}"}[chain]
    r = majiang.score(hand, "1z", ruleset="hangzhou", self_drawn=True, kong=True,
                      kong_chain=chain, seat_wind=1)
    assert r.points == m
    assert {f.chinese: f.count for f in r.fans}["杠开"] == max(1, chain)
    if chain == 4:
        r = majiang.score(hand, "1z", ruleset=HZ.build(cap=None), self_drawn=True, kong=True,
                          kong_chain=4, seat_wind=1)
        assert r.points == 32 == HZ.chain_value(baotou=True, kongs=4, cap=None)


# the dealer holds 1111p 222p 123m 456m 7s: he konges 1p, draws 2p from the tail, konges 2p,
# draws 7s and wins: {1111p}{2222p} 123m 456m 77s, no 财神 — M = 2^2 = 4 (杠开 twice), and
# each non-dealer pays 4 × N 2 = 8 (dealer +24)
_HANDS = ["1111p222p123m456m7s", "1z2z3z4z6z7z1s4s7s1m4m7m9m", "1z2z3z4z6z7z2s5s8s2m5m8m8p",
          "1z2z3z4z6z7z3s6s9s3m6m9m3p"]       # the others: lone tiles, no 财神


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_two_kongs_in_a_row_in_play(engine):
    wall = build_test_wall("hangzhou", _HANDS, tail="2p7s")
    st = play_hand("hangzhou", "efficiency", wall=wall, dealer=0, engine=engine)
    assert [w["seat"] for w in st.wins] == [0]
    assert st.wins[0]["result"].context.kong_chain == 2
    assert {f.chinese: f.count for f in st.wins[0]["result"].fans} == {"杠开": 2}
    assert list(st.deltas) == [24, -8, -8, -8]
    check_settlement(st)


def test_the_chain_restarts_after_a_discard_and_replays():
    # scripted: the dealer konges 1p (replacement 9s), throws 9s; his next draw brings 2p:
    # he konges 2p and wins on its replacement 7s — one kong in that turn: M 2, 4 each
    wall = build_test_wall("hangzhou", _HANDS, draws="9p9p9p2p", tail="9s7s")
    pols = [Script("9s", declares=("concealed_kong",)), Script("9p"), Script("9p"),
            Script("9p")]
    st = play_hand("hangzhou", pols, wall=wall, dealer=0, engine="python", log=True)
    assert [e["tile"] for e in st.events if e["e"] == "kong"] == [9, 10]
    assert [w["seat"] for w in st.wins] == [0]
    assert st.wins[0]["result"].context.kong_chain == 1
    assert list(st.deltas) == [12, -4, -4, -4]
    again = replay(st.events)
    assert summarize(again) == summarize(st)


def test_conservation_on_seeded_hands():
    # 30 seeded hands: zero-sum, the payments add up, and both loops play them alike
    for seed in range(30):
        a = play_hand("hangzhou", "efficiency", seed=seed, hand=seed, engine="python")
        b = play_hand("hangzhou", "efficiency", seed=seed, hand=seed, engine="compiled")
        check_settlement(a)
        check_settlement(b)
        assert list(a.deltas) == list(b.deltas)


def test_kongs_read_by_the_ruleset():
    # 四川 pays 刮风下雨 and 广东 杠分 (kong payments), 杭州's 杠开 counts the chain; MCR
    # and 武汉 do neither: the compiled loop leaves its ledger alone there
    from majiang.game.engine.fast import _fast_flags
    from majiang.game.engine.kongs import kongs_read
    from majiang.rules.model import game_model
    expect = {"sichuan": True, "guangdong": True, "hangzhou": True, "mcr": False,
              "wuhan": False}
    for name, want in expect.items():
        rs = majiang.rules.get(name)
        assert kongs_read(rs) is want, name
        assert _fast_flags(game_model(rs))["pay_kongs"] == int(want), name


def test_every_chain_fan_is_tagged():
    # the tag is what the compiled loop reads: a fan counting WinContext.kong_chain
    # without it would score one kong where the chain had more
    from majiang.rules import fans as F
    for name in majiang.rules.available():
        for f in majiang.rules.get(name).fans:
            if f.predicate is F.kong_chain:
                assert F.KONG_CHAIN in f.tags, (name, f.chinese)


def _compiled_hands(name, n, count_kongs):
    """``n`` seeded compiled hands of ``name``, the ledger told of every kong when
    ``count_kongs`` (the loop's flag before it read the ruleset) or as the ruleset says."""
    from majiang.game.engine import fast
    orig = fast.kongs_read
    fast._FLAGS.clear()
    fast._HAND_FLAGS.clear()
    if count_kongs:
        fast.kongs_read = lambda rs: True
    try:
        out = []
        for s in range(n):
            st = play_hand(name, "efficiency", seed=s, hand=s, engine="compiled")
            out.append((sum(t[0] + t[1] for t in st.tallies), summarize(st),
                        list(st.deltas),
                        [(w["seat"], w["fans"], w["total"], w["deltas"]) for w in st.wins]))
        return out
    finally:
        fast.kongs_read = orig
        fast._FLAGS.clear()
        fast._HAND_FLAGS.clear()


def _check_same(name, n):
    a = _compiled_hands(name, n, True)
    b = _compiled_hands(name, n, False)
    assert sum(1 for x in b if x[0]) >= n // 10        # hands with kongs were played
    assert a == b


def test_scores_unchanged_without_the_ledger():
    # MCR pays no kong money and reads no chain: the same hands, wins and scores
    _check_same("mcr", 200)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["changsha", "hainan", "hefei", "kawuxing", "luoyuan",
                                  "shenyang", "taiwan", "wuhan", "plain", "guannan"])
def test_scores_unchanged_without_the_ledger_regional(name):
    _check_same(name, 200)

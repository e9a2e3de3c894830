"""Liability (包) payments: :mod:`majiang.rules.liability` and its use by both game loops.

Expected values are worked by hand from the readings (docs/rules/hainan.md §4, nanjing.md
§2, anqing.md §5): the ruleset's own payments first, then who takes them over.
"""
from __future__ import annotations

import dataclasses

import pytest

from majiang import rules
from majiang.errors import RuleError
from majiang.game.engine import play_hand
from majiang.game.engine.fast import fast_eligible
from majiang.game.logs import replay, summarize, to_jsonl
from majiang.rules.anqing import build as anqing_build
from majiang.rules.hainan import settle_hainan
from majiang.rules.liability import Liability, liable_payments
from majiang.rules.model import game_model
from majiang.rules.nanjing import settle_nanjing

HAINAN = rules.get("hainan")
NANJING = rules.get("nanjing")
ANQING = rules.get("anqing")


def _melds(n=4, **fed):
    """Claimed melds per seat: ``fed={"w0": [(from, kind), ...]}`` for seat 0 …"""
    out = [[] for _ in range(n)]
    for key, ms in fed.items():
        out[int(key[1:])] = list(ms)
    return out


def _pay(rs, deltas, *, winner, how, discarder=None, fans=("平胡",), melds, self_draw=None,
         live_left=None):
    return liable_payments(rs.liabilities, deltas, winner=winner, how=how,
                           discarder=discarder, fans=fans, melds=melds, self_draw=self_draw,
                           live_left=live_left)


# ------------------------------------------------------------------ 海南 (HN, §4)
# B (seat 1) deals, 庄闲 on: a payment between the dealer and another seat is 2 units
def test_hainan_three_melds_from_the_discarder():
    # A (0) wins a 平胡 (value 1) on C's (2) discard: B 2, C 1 + 1 炮分, D 1 -> +5
    base = settle_hainan(1, 0, 2, dealer=1)
    assert base == (5, -2, -2, -1)
    three = _melds(w0=[(2, "pung"), (2, "chow"), (2, "kong")])
    got, applied = _pay(HAINAN, base, winner=0, how="discard", discarder=2,
                        fans=("平胡", "有眼"), melds=three)
    assert got == (5, 0, -5, 0) and applied == [("三道牌", 2)]     # C pays it all
    two = _melds(w0=[(2, "pung"), (2, "chow"), (3, "pung")])
    assert _pay(HAINAN, base, winner=0, how="discard", discarder=2, melds=two)[0] == base
    # three melds from D, C's discard: D is not the discarder, nothing moves
    assert _pay(HAINAN, base, winner=0, how="discard", discarder=2,
                melds=_melds(w0=[(3, "pung")] * 3))[0] == base


def test_hainan_fanless_robbed_kong():
    # A robs C's added kong with no 番 source: C pays the whole 5
    base = settle_hainan(1, 0, 2, dealer=1)
    got, applied = _pay(HAINAN, base, winner=0, how="robbing_kong", discarder=2,
                        fans=("平胡",), melds=_melds())
    assert got == (5, 0, -5, 0) and applied == [("无番抢杠", 2)]
    # with a 2-5-8 pair (a 番 source) the robbed kong is paid as a discard
    assert _pay(HAINAN, base, winner=0, how="robbing_kong", discarder=2,
                fans=("平胡", "有眼"), melds=_melds())[0] == base
    # 无番 (you_fan off): no such case
    off = rules.hainan.build(you_fan=False)
    assert [c.name for c in off.liabilities] == ["三道牌", "四道牌"]


def test_hainan_four_melds_self_draw():
    # A self-draws (自摸 x2: value 2): B 4, C 2, D 2 -> +8; C fed all four melds: C pays 8
    base = settle_hainan(2, 0, None, dealer=1)
    assert base == (8, -4, -2, -2)
    four = _melds(w0=[(2, "pung"), (2, "chow"), (2, "chow"), (2, "pung")])
    got, applied = _pay(HAINAN, base, winner=0, how="self_draw", melds=four)
    assert got == (8, 0, -8, 0) and applied == [("四道牌", 2)]
    three = _melds(w0=[(2, "pung"), (2, "chow"), (2, "chow"), (3, "pung")])
    assert _pay(HAINAN, base, winner=0, how="self_draw", melds=three)[0] == base


# ------------------------------------------------------------------ 南京 (NJ, §2)
def test_nanjing_robbed_kong_paid_as_a_self_draw():
    # a 36-花 hand robbed from C: as a discard C would pay 36; 抢杠 counts as a self-draw
    # (36 from each of three) paid in full by C: 108
    base = settle_nanjing(36, 0, 2)
    assert base == (36, 0, -36, 0)
    got, applied = _pay(NANJING, base, winner=0, how="robbing_kong", discarder=2,
                        melds=_melds(), self_draw=lambda: settle_nanjing(36, 0, None))
    assert got == (108, 0, -108, 0) and applied == [("抢杠包牌", 2)]
    # an ordinary discard win is untouched
    assert _pay(NANJING, base, winner=0, how="discard", discarder=2, melds=_melds())[0] == base


def test_nanjing_claimed_kong_replacement_paid_by_the_kong_feeder():
    # 大杠开花: a 46 hand (跑一 10 + 大杠开花 20 + 8 花 x 2) self-drawn on the replacement of
    # a kong made on C's discard: 46 from each of three (+138), all paid by C
    base = settle_nanjing(46, 0, None)
    assert base == (138, -46, -46, -46)
    ms = _melds(w0=[(3, "pung"), (2, "kong")])          # the kong is the latest meld
    got, applied = _pay(NANJING, base, winner=0, how="kong_replacement",
                        fans=("跑一", "大杠开花", "花砸2"), melds=ms)
    assert got == (138, 0, -138, 0) and applied == [("大杠开花包牌", 2)]
    # 小杠开花 (an own kong): nobody is responsible
    assert _pay(NANJING, base, winner=0, how="kong_replacement",
                fans=("跑一", "小杠开花"), melds=ms)[0] == base


# ------------------------------------------------------------------ 安庆 (§5, [interp.])
def test_anqing_shunbao_and_fanbao():
    # B (seat 1, not the dealer) self-draws 7 番 (平胡 4 + 碰碰胡 3): each pays 7 (+21)
    base = (-7, 21, -7, -7)
    pungs = _melds(w1=[(3, "pung"), (3, "pung"), (3, "kong")])
    # 顺包: D (3) fed three pungs: 7 x 3 x 2 (all pungs) = 42; A and C pay 7
    got, applied = _pay(ANQING, base, winner=1, how="self_draw", melds=pungs)
    assert got == (-7, 56, -7, -42) and applied == [("顺包", 3)]
    mixed = _melds(w1=[(3, "pung"), (3, "chow"), (3, "pung")])
    assert _pay(ANQING, base, winner=1, how="self_draw", melds=mixed)[0] == (-7, 35, -7, -21)
    # four 口, all pungs: 7 x 6 x 4 = 168 (the winner 7 + 7 + 168)
    four = _melds(w1=[(3, "pung")] * 4)
    assert _pay(ANQING, base, winner=1, how="self_draw", melds=four)[0] == (-7, 182, -7, -168)
    # 反包: the winner fed D three chows: D pays twice the 顺包 figure, 7 x 6 = 42
    fan = _melds(w3=[(1, "chow")] * 3)
    got, applied = _pay(ANQING, base, winner=1, how="self_draw", melds=fan)
    assert got == (-7, 56, -7, -42) and applied == [("反包", 3)]
    # both ways with D (three chows each way): 21 + 42 = 63
    both = _melds(w1=[(3, "chow")] * 3, w3=[(1, "chow")] * 3)
    assert _pay(ANQING, base, winner=1, how="self_draw", melds=both)[0] == (-7, 77, -7, -63)
    # two 口 only: nothing moves
    assert _pay(ANQING, base, winner=1, how="self_draw",
                melds=_melds(w1=[(3, "pung")] * 2))[0] == base


def test_anqing_dealers_figure_with_lianzhuang():
    # one repeat (连庄 +3 on each payment the dealer, seat 0, makes): B wins 7 番 by
    # self-draw: the dealer pays 10, C and D 7 (+24).  D fed three chows: 10 x 3 = 30
    rs = anqing_build(dealer_repeats=1)
    base = rs.settle(7, 1, None, dealer=0)
    assert base == (-10, 24, -7, -7)
    got = _pay(rs, base, winner=1, how="self_draw", melds=_melds(w1=[(3, "chow")] * 3))[0]
    assert got == (-10, 47, -7, -30)


# ------------------------------------------------------------------ 海南 options (§7)
def test_hainan_haidi_bao_zone():
    # docs/rules/hainan.md §7, by hand: HN pays a discard win as a 包 when the wall holds
    # 15 < left <= 15 + 4, i.e. at most 4 tiles left to draw (15 kept); A (0) wins a 平胡 on
    # C's (2) discard, B (1) the dealer: plain B 2, C 1 + 1, D 1 -> +5; 包: C pays 5
    from majiang.rules.hainan import build
    rs = build(haidi_bao=True)
    assert [c.name for c in rs.liabilities] == ["三道牌", "无番抢杠", "海底包牌", "四道牌"]
    base = settle_hainan(1, 0, 2, dealer=1)
    none = _melds()
    for left_to_draw, want in ((5, base), (4, (5, 0, -5, 0)), (1, (5, 0, -5, 0)),
                               (0, (5, 0, -5, 0))):
        got, applied = _pay(rs, base, winner=0, how="discard", discarder=2,
                            fans=("平胡", "有眼"), melds=none, live_left=left_to_draw)
        assert got == want, left_to_draw
        assert applied == ([("海底包牌", 2)] if want != base else [])
    # a robbed kong in the zone too (HN's 抢杠 case), with a 番 source (no 无番抢杠)
    got, applied = _pay(rs, base, winner=0, how="robbing_kong", discarder=2,
                        fans=("平胡", "有眼"), melds=none, live_left=lambda: 3)
    assert got == (5, 0, -5, 0) and applied == [("海底包牌", 2)]
    # a self-draw in the zone stays as settled; the position not known: no 包
    zimo = settle_hainan(2, 0, None, dealer=1)
    assert _pay(rs, zimo, winner=0, how="self_draw", melds=none, live_left=0)[0] == zimo
    assert _pay(rs, base, winner=0, how="discard", discarder=2, fans=("有眼",),
                melds=none)[0] == base
    # off by default
    assert _pay(HAINAN, base, winner=0, how="discard", discarder=2, fans=("有眼",),
                melds=none, live_left=0)[0] == base
    # three players: the zone is 3 tiles
    assert build(haidi_bao=True, players=3).liabilities[2].last_tiles == 3


def test_hainan_fang_goujiao():
    # HN: with 防勾脚 every discard (or robbed kong) win is settled as a 包 — the
    # discarder pays what all three would plus the 炮分: 5 here, anywhere in the hand
    from majiang.rules.hainan import build
    rs = build(fang_goujiao=True)
    base = settle_hainan(1, 0, 2, dealer=1)
    got, applied = _pay(rs, base, winner=0, how="discard", discarder=2, fans=("有眼",),
                        melds=_melds(), live_left=80)
    assert got == (5, 0, -5, 0) and applied == [("防勾脚", 2)]
    # the dealer deals in to a 七小对 (value 2): each pays 2 x 2 (dealer) / 2 x 1, +1:
    # B 4 + 1, C 2, D 2 -> +9, all from B
    base = settle_hainan(2, 0, 1, dealer=1)
    assert base == (9, -5, -2, -2)
    got, _ = _pay(rs, base, winner=0, how="discard", discarder=1, fans=("七小对",),
                  melds=_melds())
    assert got == (9, -9, 0, 0)
    zimo = settle_hainan(2, 0, None, dealer=1)
    assert _pay(rs, zimo, winner=0, how="self_draw", melds=_melds())[0] == zimo
    tuidao = rules.hainan_tuidao.build(fang_goujiao=True, haidi_bao=True)
    assert {"海底包牌", "防勾脚"} <= {c.name for c in tuidao.liabilities}
    assert tuidao.options["fang_goujiao"] and tuidao.options["haidi_bao"]


def test_hainan_options_in_play():
    # both loops play the options (no routing): a seeded hand where the zone applies
    from majiang.rules.hainan import build
    rs = build(haidi_bao=True, fang_goujiao=False)
    assert fast_eligible(game_model(rs), ["efficiency"] * 4)
    seen = set()
    for h in [59] + list(range(12)):
        a = play_hand(rs, ["efficiency"] * 4, seed=31, hand=h, engine="compiled")
        b = play_hand(rs, ["efficiency"] * 4, seed=31, hand=h, engine="python", log=h == 59)
        assert a.deltas == b.deltas and sum(a.deltas) == 0
        assert [w["liability"] for w in a.wins] == [w["liability"] for w in b.wins]
        for w in a.wins:
            seen.update(n for n, _ in w["liability"])
        if h == 59:               # the discarder pays the whole win, late in the wall
            (w,) = a.wins
            (name, q), = w["liability"]
            assert name == "海底包牌" and q == w["discarder"] and w["how"] == "discard"
            plain = w["result"].settle(w["seat"], q)
            assert w["deltas"][q] == -plain[w["seat"]]
            draws = sum(1 for e in b.events if e["e"] == "draw")
            again = replay(to_jsonl(b.events))
            assert summarize(again) == summarize(b)
            assert draws > 0
    assert "海底包牌" in seen


# ------------------------------------------------------------------ the cases' checks
@pytest.mark.parametrize("kw", [dict(wins=("tsumo",)), dict(liable="someone"),
                                dict(pays="half"), dict(liable="feeder", fed=0),
                                dict(fed=5), dict(times={3: 0}), dict(times="x"),
                                dict(last_tiles=-1), dict(last_tiles=True)])
def test_bad_cases_raise(kw):
    with pytest.raises(RuleError):
        Liability("x", **kw)


def test_ruleset_field_checked_and_in_toml():
    with pytest.raises(RuleError):
        dataclasses.replace(HAINAN, liabilities=("三道牌",))
    text = rules.dumps(HAINAN)
    assert rules.loads(text).liabilities == HAINAN.liabilities


# ------------------------------------------------------------------ in play
@pytest.mark.parametrize("name,seed,hand,players,case", [
    ("hainan", 144, 0, "efficiency", "无番抢杠"), ("hainan", 172, 0, "efficiency", "三道牌"),
    ("hainan", 7, 618, "random", "四道牌"), ("nanjing", 88, 0, "efficiency", "抢杠包牌"),
    ("nanjing", 7, 150, "efficiency", "大杠开花包牌"),
    ("anqing", 19, 0, "efficiency", "顺包"), ("anqing", 14, 0, "efficiency", "反包")])
def test_liability_happens_in_play(name, seed, hand, players, case):
    st = play_hand(name, [players] * 4, seed=seed, hand=hand, log=case == "大杠开花包牌")
    (w,) = [w for w in st.wins if w["liability"]]
    (got, q), = w["liability"]
    assert got == case
    d, p, r = w["deltas"], w["seat"], w["result"]
    plain = (r.settle(p, None) if w["discarder"] is None else r.settle(p, w["discarder"]))
    if case == "大杠开花包牌":     # the kong's discarder: the whole self-draw
        assert w["kong_claimed"] and w["how"] == "kong_replacement"
        kongs = [e for e in st.events if e["e"] == "call" and e["kind"] == "kong"
                 and e["seat"] == p]
        assert kongs[-1]["frm"] == q          # the discarder of the winner's latest kong
        assert d[q] == -plain[p] and d[p] == plain[p]
    elif case == "抢杠包牌":       # the whole self-draw from the robbed seat
        whole = sum(-x for x in r.settle(p, None, as_self_draw=True) if x < 0)
        assert d[q] == -whole and d[p] == whole
    elif name == "hainan":         # the whole win, the others nothing
        assert d[q] == -plain[p] and d[p] == plain[p]
    else:                          # one share multiplied, the others as usual
        top = max(-x for x in plain if x < 0)
        assert -d[q] in {top * k for k in (3, 6, 12, 24, 48)}
        assert all(d[x] == plain[x] for x in range(4) if x not in (p, q))
    assert sum(d) == 0
    if name != "anqing":
        assert all(d[x] == 0 for x in range(4) if x not in (p, q))


@pytest.mark.parametrize("name", ["hainan", "hainan_tuidao", "nanjing", "anqing"])
def test_conservation(name):
    for h in range(30):
        pl = "efficiency" if h % 2 else "random"
        st = play_hand(name, [pl] * 4, seed=20, hand=h)
        assert sum(st.deltas) == 0
        assert sum(sum(w["deltas"]) for w in st.wins) == 0


@pytest.mark.parametrize("name,seeds", [("hainan", [(144, 0), (172, 0), (5, 0)]),
                                        ("nanjing", [(88, 0), (246, 0), (7, 150), (3, 0)])])
def test_both_loops_pay_the_same(name, seeds):
    # 南京's 天听 sends it to the Python loop; the table without it is the one both loops play
    from majiang.rules import nanjing
    rs = nanjing.build(tian_ting=False) if name == "nanjing" else name
    assert fast_eligible(game_model(rs), ["efficiency"] * 4)   # no routing for liability
    for s, h in seeds:
        a = play_hand(rs, ["efficiency"] * 4, seed=s, hand=h, engine="compiled")
        b = play_hand(rs, ["efficiency"] * 4, seed=s, hand=h, engine="python")
        assert a.deltas == b.deltas
        assert [w["liability"] for w in a.wins] == [w["liability"] for w in b.wins]


def test_replay_keeps_the_liability():
    st = play_hand("nanjing", ["efficiency"] * 4, seed=88, log=True)
    (ev,) = [e for e in st.events if e["e"] == "win"]
    assert ev["liability"] == [["抢杠包牌", ev["discarder"]]]
    again = replay(to_jsonl(st.events))
    assert summarize(again) == summarize(st)
    assert [e for e in again.events if e["e"] == "win"] == [ev]


def test_rules_summary_names_the_cases():
    # `majiang rules NAME` / describe(): the cases in words, none for a ruleset without
    from majiang.rules.summary import describe, describe_lines
    line = next(ln for ln in describe_lines(HAINAN) if ln.startswith("liability "))
    assert "三道牌: on a discard win, the discarder who fed the winner 3 or more melds pays " \
           "the whole win" in line
    assert describe(NANJING)["liability"][0] == ("抢杠包牌: on a robbing kong win, the robbed "
                                                 "player pays the whole win as a self-draw")
    assert "x3 at 3 melds" in describe(ANQING)["liability"][0]
    assert describe(rules.get("mcr"))["liability"] == []
    assert not any(ln.startswith("liability") for ln in describe_lines(rules.get("mcr")))

"""内蒙 (neimeng): a test per value, win condition and settlement rule, the worked examples of
docs/rules/neimeng.md §7, the 宁城 option, and hands played by the engine.

Expected values are worked out by hand from docs/rules/neimeng.md §2-§6 (2^番; a share ×2 with
the dealer, ×2 for a payer with no meld; the discarder pays every share, his own doubled;
kongs 2 / 2 / 4 from each), never read from the code's output.  Seats A = 0, B = 1, C = 2,
D = 3; B is the dealer when A's seat wind is 3.
"""
from __future__ import annotations

import pytest

import majiang
from majiang import InvalidHandError, RuleError, rules
from majiang.game import play_hand, replay, summarize, to_jsonl
from majiang.rules import neimeng as N
from majiang.rules.model import game_model
from majiang.rules.table_rules import net_of

A_NOT_DEALER = 3
NING = N.build(variant="ningcheng")


def _score(hand, win, rs="neimeng", **kw):
    kw.setdefault("seat_wind", A_NOT_DEALER)
    return majiang.score(hand, win, ruleset=rs, **kw)


def test_model_facts():
    rs, m = rules.get("neimeng"), game_model("neimeng")
    assert m.n_tiles == 136 and m.players == 4 and m.hand_size == 13 and rs.jokers is None
    assert "chow_left" in rs.calls and rs.forms == ("regular",)
    assert rs.winners == "head_bump" and rs.pass_lock == "kind"
    assert rs.wall_end.kept_tiles(1, 1) == 16
    kp = rs.kong_payments
    assert (kp.exposed, kp.exposed_each, kp.added, kp.concealed, kp.when) == \
        (2, 2, 2, 4, "with_win")
    assert rs.section == "§3.12" and rs.status == "complete"
    assert "chow_left" not in NING.calls and "seven_pairs" in NING.forms


# ----------------------------------------------------------------- values (§3)
@pytest.mark.parametrize("hand, win, kw, fan, points", [
    # pungs 东 and 222万, 888条 55筒 77万 + 7万 on a discard: 对对胡 2 番
    ("888s55p77m [111z] [222m]", "7m", {}, "对对胡", 4),
    # chow 123万, 999筒 456条 55筒 24万 + 3万 on a discard: 夹胡 1 番
    ("999p456s55p24m [123m]", "3m", {}, "夹胡", 2),
    # 1113万 waits 2万 and 3万: drawing 3万 (pung 111万, pair 33万) is 自摸 alone
    ("1113m999p456s [789s]", "3m", {"self_drawn": True}, "自摸", 2),
    # a kong replacement: 杠开 1 + 自摸 1
    ("1113m456s999p {7777p}", "3m", {"self_drawn": True, "kong": True}, "杠开", 4),
])
def test_each_value(hand, win, kw, fan, points):
    r = _score(hand, win, **kw)
    assert fan in r and r.points == points, (r.fans, r.points)


def test_jia_hu_needs_the_only_winning_kind():
    # 1113万 + 2万: the middle of 123万, but 3万 also wins -> no 夹胡 (自摸 only)
    r = _score("1113m999p456s [789s]", "2m", self_drawn=True)
    assert "夹胡" not in r and r.points == 2


@pytest.mark.parametrize("fan, hand, win, kw, points", [
    ("七对", "1122m3344p5566s7z", "7z", {"self_drawn": True}, 4),
    ("双七对", "1111m3344p55s66s7z", "7z", {}, 8),
    ("对对胡", "888s55p77m [111z] [222m]", "7m", {}, 2),
    ("杠开", "123m456s789s9p {7777p}", "9p", {"self_drawn": True, "kong": True}, 2),
])
def test_ningcheng_values(fan, hand, win, kw, points):
    r = _score(hand, win, rs=NING, **kw)
    assert fan in r and r.points == points, (r.fans, r.points)


def test_every_value_is_tested():
    assert {f.chinese for f in rules.get("neimeng").fans} == {"对对胡", "夹胡", "自摸", "杠开",
                                                              "杠后炮"}
    assert {f.chinese for f in NING.fans} == {"对对胡", "七对", "双七对", "杠开", "杠后炮"}


# ----------------------------------------------------------------- conditions (§2)
@pytest.mark.parametrize("hand, win, broken", [
    ("123m456p789s999s1z", "1z", "has_meld"),                  # closed hand
    ("123m456p789s1s [789m]", "1s", "pung_or_dragon_pair"),     # no pung, pair 1条
    ("234m456p456s6s [888m]", "6s", "terminal_or_honor"),       # only 2-8
    ("123m456m789p1z [999p]", "1z", "no_void"),                  # no 条
    ("123m456p789s1s [555z]", "1s", "dragon_pung_all_pungs"),    # 白 pung with chows
])
def test_each_condition(hand, win, broken):
    with pytest.raises(InvalidHandError, match=broken):
        _score(hand, win, self_drawn=True)


def test_conditions_that_pass():
    # a concealed kong opens the hand and gives the pung; an honour is a 幺九; a dragon pair
    # stands in for the pung
    assert _score("123m456p789s1z {9999p}", "1z", self_drawn=True).points == 2
    assert _score("123m456p789s5z [789m]", "5z", self_drawn=True).points == 2
    # 闷胡 option: a closed hand may win
    r = _score("123m456p789s999s1z", "1z", rs=N.build(closed_win=True), self_drawn=True)
    assert r.points == 2


def test_no_seven_pairs():
    with pytest.raises(InvalidHandError):
        _score("1122m3344p5566s7z", "7z", self_drawn=True)


# ----------------------------------------------------------------- settlement (§4)
def test_share_factors():
    # self-draw of 1: dealer B pays 2, C (no meld) 2, D 1
    assert N.settle_table(1, 0, None, dealer=1, melds=(1, 1, 0, 1)) == (5, -2, -2, -1)
    # all three without a meld: one more 番 -> each share doubled again
    assert N.settle_table(1, 0, None, dealer=1, melds=(1, 0, 0, 0)) == (16, -8, -4, -4)


def test_discarder_pays_the_table():
    # discard of 1 by C: B 2 (dealer), C 1 x 2 (own), D 1 -> C pays 5
    assert N.settle_table(1, 0, 2, dealer=1, melds=(1, 1, 1, 1)) == (5, 0, -5, 0)
    # all three without a meld: shares 4, 4, 2 summed and doubled -> 20
    assert N.settle_table(1, 0, 2, dealer=1, melds=(1, 0, 0, 0)) == (20, 0, -20, 0)


def test_win_settlement_without_the_closed_factor():
    assert N.settle_neimeng(4, 0, None, dealer=1) == (16, -8, -4, -4)
    assert N.settle_neimeng(4, 0, 2, dealer=1) == (20, 0, -20, 0)


def test_ningcheng_discarder_pays_one_share():
    r = _score("888s55p77m [111z] [222m]", "7m", rs=NING)
    assert r.settle(0, 2) == (2, 0, -2, 0) and r.settle(0, 1) == (4, -4, 0, 0)


# ----------------------------------------------------------------- worked examples (§7)
def test_example_1_jia_hu_self_draw():
    r = _score("999p456s55p24m [123m]", "3m", self_drawn=True)
    assert r.total == 2 and r.points == 4
    assert N.settle_table(r.points, 0, None, dealer=1, melds=(1, 1, 1, 0)) == (20, -8, -4, -8)


def test_example_2_all_pungs_on_a_discard():
    r = _score("888s55p77m [111z] [222m]", "7m")
    assert r.points == 4
    assert r.settle(0, 2) == (20, 0, -20, 0)
    assert N.settle_table(4, 0, 2, dealer=1, melds=(2, 1, 1, 0)) == (24, 0, -24, 0)


def test_example_3_kong_money():
    kp = rules.get("neimeng").kong_payments
    assert kp.concealed * 3 == 12 and kp.when == "with_win"


def test_example_4_ningcheng_seven_pairs():
    r = _score("1122m3344p5566s7z", "7z", rs=NING, self_drawn=True)
    assert r.settle(0) == (16, -8, -4, -4)


def test_options_checked_and_round_trip():
    for kw in ({"variant": "chifeng"}, {"cap": 0}, {"closed_win": "yes"}):
        with pytest.raises(RuleError):
            N.build(**kw)
    for rs in (rules.get("neimeng"), NING):
        back = rules.loads(rules.dumps(rs))
        assert dict(back.options) == dict(rs.options) and back.calls == rs.calls


# ----------------------------------------------------------------- the engine
def test_hands_in_the_engine():
    # 300 hands: zero-sum; each win plus its 闭门 part equals settle_table over the final
    # melds; kong money only with a win
    wins = closed = 0
    for h in range(300):
        pl = "efficiency" if h % 2 == 0 else "random"
        st = play_hand("neimeng", (pl,) * 4, seed=61, hand=h)
        assert sum(st.deltas) == 0
        melds = tuple(len(s.melds) for s in st.seats)
        for w in st.wins:
            wins += 1
            d = None if w["discarder"] is None else w["discarder"]
            want = N.settle_table(w["points"], w["seat"], d, dealer=st.dealer, melds=melds,
                                  kong_discard=w["kong_discard"])
            got = list(w["deltas"])
            for e in st.end_checks:
                if e["check"] == "闭门":
                    closed += 1
                    got[e["payer"]] -= e["amount"]
                    got[e["payee"]] += e["amount"]
            assert tuple(got) == want
        if not st.wins:
            assert not st.end_checks
    assert wins >= 100 and closed >= 1


def test_replay():
    for h in range(6):
        st = play_hand("neimeng", "efficiency", seed=9, hand=h, log=True)
        again = replay(to_jsonl(st.events))
        assert summarize(again) == summarize(st)


# ----------------------------------------------------------------- 杠后炮 in play
def _ningcheng_kong_money(events, void=True):
    """The 宁城 kong money of a won hand read from its log (docs/rules/neimeng.md §6): each
    other player pays 1 for a kong on a discard or an added kong, 2 for a concealed kong
    (nothing for a robbed one); a kong whose owner's next discard is won on (杠后炮) pays
    nothing (``void``; False: it pays too).  Returns sorted (payer, payee, amount)."""
    pending = {}           # seat -> its kongs of this turn, waiting for its discard
    kept = []
    for i, e in enumerate(events):
        k = e["e"]
        if k == "kong" or (k == "call" and e["kind"] == "kong"):
            kind = "exposed" if k == "call" else e["kind"]
            pending.setdefault(e["seat"], []).append(kind)
        elif k == "win" and e["how"] == "robbing_kong":
            pending.pop(e["discarder"], None)
        elif k == "discard":
            p = e["seat"]
            dealt_in = any(ev["e"] == "win" and ev["discarder"] == p
                           and ev["how"] == "discard" for ev in events[i + 1:i + 8]
                           if ev["e"] in ("claim", "pass_win", "win"))
            kinds = pending.pop(p, [])
            if not (dealt_in and void):
                kept += [(p, kind) for kind in kinds]
    for p, kinds in pending.items():        # kongs of the last turn (no discard after)
        kept += [(p, kind) for kind in kinds]
    amount = {"exposed": 1, "added": 1, "concealed": 2}
    return sorted((q, p, amount[kind]) for p, kind in kept for q in range(4) if q != p)


def test_ningcheng_kong_discard_in_both_loops():
    # seeded hands with a 杠后炮 win: the compiled loop and the Python loop (with a log)
    # play the same hand; 杠后炮 +1 番 on the win; the discarder's kong of that turn pays
    # nothing (NCMJ), every other kong is paid
    found = 0
    for h in range(400):
        b = play_hand(NING, "efficiency", seed=20, hand=h, engine="compiled")
        if not any(w["kong_discard"] for w in b.wins):
            continue
        a = play_hand(NING, "efficiency", seed=20, hand=h, log=True)
        assert summarize(a) == summarize(b)
        w = next(w for w in a.wins if w["kong_discard"])
        assert "杠后炮" in {f for f, _ in w["fans"]}
        got = sorted((c["payer"], c["payee"], c["amount"]) for c in a.end_checks
                     if c["check"] == "杠分")
        assert got == _ningcheng_kong_money(a.events)
        assert got != _ningcheng_kong_money(a.events, void=False)     # a kong was voided
        assert sum(a.deltas) == 0 and list(a.deltas) == list(b.deltas)
        found += 1
        if found == 2:
            break
    assert found == 2
    assert NING.kong_payments.void_on_deal_in and not rules.get("neimeng").kong_payments.void_on_deal_in
    # 呼叫转移 (the money to the winner) and void are two answers to one question
    from majiang.rules.base import KongPayments
    with pytest.raises(RuleError, match="transfer"):
        KongPayments(concealed=2, transfer=True, void_on_deal_in=True)


# ----------------------------------------------------------------- call limits (§5)
# by hand from the 敖汉 server's rules (docs/rules/neimeng.md §5); melds (kind, tile, concealed)
CHOW_1M, PUNG_RED, PUNG_9P = ("chow", 0, False), ("pung", 31, False), ("pung", 17, False)
HIDDEN_KONG = ("kong", 22, True)


@pytest.mark.parametrize("call, kind, melds, held, live, ok", [
    ("chow", 3, (PUNG_RED,), 10, 50, False),            # no chow after a dragon pung
    ("chow", 3, (PUNG_9P,), 10, 50, True),
    ("pung", 32, (CHOW_1M,), 10, 50, False),            # no dragon pung after a chow
    ("pung", 32, (PUNG_9P,), 10, 50, True),
    ("pung", 5, (CHOW_1M,), 10, 50, True),
    ("pung", 5, (CHOW_1M, PUNG_9P, PUNG_RED), 4, 50, False),   # 4 in hand with a chow
    ("exposed_kong", 5, (CHOW_1M, PUNG_9P, PUNG_RED), 4, 50, False),
    ("pung", 5, (CHOW_1M, PUNG_9P, HIDDEN_KONG), 4, 50, True),  # ... unless a 暗杠
    ("pung", 5, (PUNG_9P, PUNG_RED, ("pung", 9, False)), 4, 50, True),  # no chow: allowed
    ("chow", 3, (PUNG_9P, ("pung", 9, False), ("pung", 20, False)), 4, 50, False),
    ("chow", 3, (PUNG_9P, ("pung", 9, False), HIDDEN_KONG), 4, 50, True),
    ("pung", 5, (CHOW_1M, PUNG_9P), 7, 50, True),       # 7 in hand: no limit
    ("concealed_kong", 5, (), 14, 50, False),           # no 暗杠 in a hand without a meld
    ("concealed_kong", 5, (PUNG_9P,), 11, 50, True),
    ("exposed_kong", 5, (), 13, 19, False),             # fewer than 20 tiles left
    ("added_kong", 17, (PUNG_9P,), 11, 19, False),
    ("added_kong", 17, (PUNG_9P,), 11, 20, True),
    ("concealed_kong", 5, (PUNG_9P,), 11, None, True),  # wall not known: not asked
])
def test_call_limits(call, kind, melds, held, live, ok):
    assert N.call_allowed(call, kind, melds, held, live) is ok


def test_call_limits_option():
    assert game_model("neimeng").call_limit is N.call_allowed
    # 宁城 plays none whatever the option says (it keeps the option as given)
    assert game_model(NING).call_limit is None and not NING.options["call_limits_played"]
    off = N.build(call_limits=False)
    assert game_model(off).call_limit is None
    assert rules.loads(rules.dumps(off)).options["call_limits"] is False


def test_call_limits_follow_the_variant():
    # back to 敖汉 from 宁城: the limits are the 敖汉 server's (on by default, §5), not the
    # 宁城 server's none; an explicit call_limits=False stays off
    from majiang.rules.toml import with_options
    back = with_options(NING, variant="aohan")
    assert game_model(back).call_limit is N.call_allowed
    assert dict(back.options) == dict(N.NEIMENG.options)
    off = with_options(N.build(variant="ningcheng", call_limits=False), variant="aohan")
    assert game_model(off).call_limit is None and off.options["call_limits"] is False
    assert game_model(with_options(N.NEIMENG, variant="ningcheng")).call_limit is None


def _check_calls_from_the_log(events):
    """Every call and kong of a logged hand against the limits worked out from the log
    alone: melds and wall count rebuilt from the events.  Returns the calls checked."""
    melds = {q: [] for q in range(4)}
    taken = 53                      # 13 each and the dealer's 14th
    n = 0
    for e in events:
        k = e["e"]
        if k == "draw":
            taken += 1
        elif k == "call" or k == "kong":
            q, t = e["seat"], e["tile"]
            mine = melds[q]
            held = 13 - 3 * len(mine)        # before a claim; 14 - 3m on one's own turn
            chow = any(m[0] == "chow" for m in mine)
            hidden = any(m[0] == "kong" and m[2] for m in mine)
            kind = e["kind"] if k == "kong" else {"kong": "exposed_kong"}.get(e["kind"],
                                                                             e["kind"])
            if kind in ("exposed_kong", "added", "concealed"):
                assert 136 - taken >= 20
            if kind == "concealed":
                assert mine
            if kind == "chow":
                assert not any(m[0] == "pung" and m[1] >= 31 for m in mine)
                assert held >= 5 or hidden
            if kind == "pung" and t >= 31:
                assert not chow
            if kind in ("pung", "exposed_kong"):
                assert held >= 5 or not chow or hidden
            n += 1
            if k == "call":
                start = e["start"] if e["kind"] == "chow" else t
                mine.append(({"kong": "kong"}.get(e["kind"], e["kind"]), start, False))
            elif e["kind"] == "concealed":
                mine.append(("kong", t, True))
            else:
                i = next(i for i, m in enumerate(mine) if m[0] == "pung" and m[1] == t)
                mine[i] = ("kong", t, False)
    return n


def test_call_limits_in_play(monkeypatch):
    # 40 seeded hands in the Python loop: every call made keeps the limits (checked from
    # the log alone), and the limits refused calls the hands could otherwise make
    refused = []
    from majiang.rules.table_rules import CALL_LIMITS

    def counting(call, kind, melds, held, live):
        ok = N.call_allowed(call, kind, melds, held, live)
        if not ok:
            refused.append(call)
        return ok
    monkeypatch.setitem(CALL_LIMITS, "neimeng", counting)
    calls = 0
    for h in range(40):
        st = play_hand("neimeng", "efficiency", seed=11, hand=h, log=True)
        calls += _check_calls_from_the_log(st.events)
    assert calls >= 100 and {"chow", "pung"} <= set(refused)


# ----------------------------------------------------------------- 挂铺 (§4)
STAKES = (2, 0, 4, 2)


@pytest.mark.parametrize("winner, discarder, deltas", [
    (0, None, (2 + 6 + 4, -2, -6, -4)),     # A self-draws: B 2+0, C 2+4, D 2+2
    (0, 2, (6, 0, -6, 0)),                  # C deals in: C alone, 2+4
    (1, 3, (0, 2, 0, -2)),                  # B (no stake) wins on D's discard: 0+2
    (1, None, (-2, 8, -4, -2)),             # B self-draws: A 2, C 4, D 2
])
def test_gua_pu(winner, discarder, deltas):
    assert N.gua_pu(STAKES, winner, discarder) == deltas


def test_gua_pu_option():
    assert rules.get("neimeng").options["gua_pu"] == (0, 0, 0, 0)
    for bad in ((1, 0, 0, 0), (0, 0, 0), (0, 0, 0, 6)):
        with pytest.raises(RuleError):
            N.build(gua_pu=bad)
    with pytest.raises(RuleError):
        N.gua_pu(STAKES, 5, None)


def test_gua_pu_in_the_engine():
    # 30 seeded hands per variant: zero-sum, the 挂铺 entries are the stakes exchanged by the
    # win's payers (worked from the win records), nothing in a drawn hand
    for variant in ("aohan", "ningcheng"):
        rs = N.build(variant=variant, gua_pu=STAKES)
        seen = 0
        for h in range(30):
            st = play_hand(rs, "efficiency", seed=13, hand=h)
            assert sum(st.deltas) == 0
            got = list(net_of([e for e in st.end_checks if e["check"] == "挂铺"], 4))
            want = [0] * 4
            for w in st.wins:
                s = w["seat"]
                payers = [q for q in range(4) if q != s] if w["discarder"] is None \
                    else [w["discarder"]]
                for q in payers:
                    want[q] -= STAKES[s] + STAKES[q]
                    want[s] += STAKES[s] + STAKES[q]
            assert got == want
            seen += bool(st.wins)
        assert seen >= 10
        log = play_hand(rs, "efficiency", seed=13, hand=1, log=True)
        assert log.events[0]["options"]["gua_pu"] == list(STAKES)
        assert summarize(replay(to_jsonl(log.events))) == summarize(log)


def test_call_limits_doc_example():
    # docs/rules/neimeng.md §5: chow 123万, pungs 999筒 and 东, 5577条 in hand; C discards 7条
    chow, p9, east = ("chow", 0, False), ("pung", 17, False), ("pung", 27, False)
    assert not N.call_allowed("pung", 24, (chow, p9, east), 4, 60)
    assert N.call_allowed("pung", 24, (chow, p9, ("kong", 23, True)), 4, 60)


def test_call_limits_in_both_loops():
    # the compiled loop asks the same limits: 30 seeded hands play move for move as in the
    # Python loop; without the limits some of them play otherwise
    off = N.build(call_limits=False)
    differ = 0
    for h in range(30):
        b = play_hand("neimeng", "efficiency", seed=11, hand=h, engine="compiled")
        a = play_hand("neimeng", "efficiency", seed=11, hand=h, log=True)
        assert summarize(a) == summarize(b) and sum(b.deltas) == 0
        differ += summarize(play_hand(off, "efficiency", seed=11, hand=h)) != summarize(b)
    assert differ >= 3

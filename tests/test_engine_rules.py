"""Table rules of the engine that live outside the hand value or need the game
history: 天和 / 地和 / 人和 flags, kong payments (四川 刮风下雨, 呼叫转移, 退税; 广东
荒庄荒杠), and the table rules read from Ruleset fields (过水, end checks, 换三张).

Expected values come from the readings (docs/rules/sichuan.md §4-8, guangdong.md §1, taiwan.md §2),
worked by hand on constructed walls, or re-derived from the event log by a separate
reading of the rules — never copied from the engine's output.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

import majiang
from majiang import RuleError, rules
from majiang.game import play_hand, summarize
from majiang.game.engine import KongLedger, end_checks
from majiang.hand import Hand
from majiang.rules import nanjing
from majiang.rules.base import KongPayments
from majiang.rules.model import game_model
from majiang.scoring import check_win
from majiang.tiles import parse_tiles
from _engine_helpers import Script as _Script
from _engine_helpers import build_test_wall


_wall = build_test_wall


def _wall_tail(ruleset, hands, tile):
    """:func:`_wall` with a copy of ``tile`` moved to the end (the first kong
    replacement)."""
    wall = _wall(ruleset, hands)
    k = parse_tiles(tile)[0]
    i = max(j for j, t in enumerate(wall) if t == k)
    wall[i], wall[-1] = wall[-1], wall[i]
    return wall


class Script(_Script):
    """:class:`_engine_helpers.Script` that also names its void suit at 定缺 (0 unless
    ``void`` is given)."""

    def __init__(self, discards="", claims=(), declares=(), void=None):
        super().__init__(discards, claims, declares)
        self.void = void

    def choose_void(self, view):
        return self.void if self.void is not None else 0


def _fan_names(win):
    return {name for name, _ in win["fans"]}


# ---------------------------------------------------------------- 天和 / 地和 / 人和
# 四川 (docs/rules/sichuan.md §5, BY/ST): 天胡 and 地胡 are ×32 (5 番) in place of the
# shape rows; the default cap is 3 番 (×8); 自摸加底 adds 1 base per payer (docs/rules/sichuan.md §7).
_HEAVEN = ["11122233344455m", "123456789p1234s", "123456789s5678p", "666777888999m9p"]


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_heavenly_hand_in_both_loops(engine):
    wall = _wall("sichuan", _HEAVEN)
    st = play_hand("sichuan", "efficiency", wall=wall, dealer=0, engine=engine)
    w = st.wins[0]
    assert (w["seat"], w["how"]) == (0, "self_draw")
    assert _fan_names(w) == {"天胡"}
    # capped at 3 番 = 8 base each, +1 base 自摸加底, from each of three
    assert w["deltas"] == [27, -9, -9, -9]
    if engine == "python":
        assert w["check"][2]["first_turn"] == "heavenly"


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_mcr_heavenly_hand_passes_the_flag_and_scores_no_such_fan(engine):
    # the 81 fans (docs/rules/mcr.md §2) hold no 天和: the engine passes first_turn, and the
    # dealer's complete start hand scores what the same win scores without the flag
    wall = _wall("mcr", _HEAVEN)
    st = play_hand("mcr", "efficiency", wall=wall, dealer=0, engine=engine)
    w = st.wins[0]
    assert (w["seat"], w["how"]) == (0, "self_draw")
    assert not _fan_names(w) & {"天和", "天胡", "地和", "人和"}
    plain = check_win("1112223334445m", "5m", ruleset="mcr", self_drawn=True, seat_wind=0)
    assert w["total"] == plain.result.total
    if engine == "python":
        assert w["check"][2]["first_turn"] == "heavenly"


# dealer: one 万 tile (fewest: its 定缺 suit, so it discards 1m first); seat 1 holds
# 九莲宝灯 in 筒 and draws 5p first (地胡)
_EARTH = ["1m22p11123456789s", "1112345678999p", "2345678m345678s", "123456789m1234s"]


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_earthly_hand_in_both_loops(engine):
    wall = _wall("sichuan", _EARTH, draws="5p")
    st = play_hand("sichuan", "efficiency", wall=wall, dealer=0, engine=engine)
    w = st.wins[0]
    assert (w["seat"], w["how"], w["tile"]) == (1, "self_draw", parse_tiles("5p")[0])
    assert "地胡" in _fan_names(w) and not _fan_names(w) & {"清一色", "天胡"}
    assert w["deltas"] == [-9, 27, -9, -9]


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_human_hand_in_both_loops(engine):
    # seat 2 waits on 1m, the dealer's first discard (人和, read as 地胡 in 四川)
    hands = ["1m22p11123456789s", "1112345678999p", "1m234567888999m", "23456789s23456m"]
    wall = _wall("sichuan", hands, draws="5p")
    st = play_hand("sichuan", "efficiency", wall=wall, dealer=0, engine=engine)
    w = st.wins[0]
    # seat 2 wins on the dealer's first discard before its own first draw
    assert (w["seat"], w["how"], w["discarder"]) == (2, "discard", 0)
    assert "地胡" in _fan_names(w)
    assert w["deltas"] == [-8, 0, 8, 0]           # capped 3 番 = 8, the discarder alone
    # play goes on (血战); a win breaks the first go-around for everyone else
    assert all(not _fan_names(x) & {"地胡", "天胡"} for x in st.wins[1:])


def test_a_call_breaks_the_first_go_around():
    # 山东 (§3.1): 地和 4 番, "a non-dealer wins in the first go-around, before any chi,
    # peng or kong".  Seat 1 waits on 5p; seat 3 may pung the dealer's 1z.
    hands = ["11z23m456m789m123s9p", "123m456m789s22z46p", "2345678m234567s",
             "11z345m678s79p2p34z"]
    for pung in (False, True):
        wall = _wall("shandong", hands, draws="5p5p5p")
        pols = [Script("1z"), Script(), Script(), Script(claims=("pung",) if pung else ())]
        st = play_hand("shandong", pols, wall=wall, dealer=0)
        w = next(x for x in st.wins if x["seat"] == 1)
        assert ("地和" in _fan_names(w)) is (not pung), pung
        assert "天和" not in _fan_names(w)


def test_first_turn_needs_the_right_seat_and_win():
    # the context refuses flags the win contradicts
    with pytest.raises(majiang.InvalidHandError):
        check_win("123m456p789s11z45m", "6m", ruleset="shandong", first_turn="heavenly",
                  self_drawn=False)
    with pytest.raises(majiang.InvalidHandError):
        check_win("123m456p789s11z45m", "6m", ruleset="shandong", first_turn="earthly",
                  self_drawn=True, seat_wind=0)
    with pytest.raises(majiang.InvalidHandError):
        check_win("123m456p789s11z45m", "6m", ruleset="shandong", first_turn="sky")
    # hand values from the readings: 台湾 天胡 24 (FC) without 門清自摸; 人胡 8
    r = check_win("123m456m789p123s11s45p", "6p", ruleset="taiwan", self_drawn=True,
                  first_turn="heavenly").result
    assert {f.chinese for f in r.fans} == {"天胡", "莊家"} and r.total == 25
    # 海南 天胡 ×3 on top of 自摸 ×2 (HN convention M)
    r = check_win("123m456p789s11z45m", "6m", ruleset="hainan", self_drawn=True,
                  first_turn="heavenly").result
    assert r.points == 6
    # 血流 has no 天地胡 (docs/rules/sichuan.md §10); MCR has none either
    for name in ("sichuan_xueliu", "mcr"):
        r = check_win("123m456m789m55p78p" if name != "mcr" else "123m456p789s11z45m",
                      "9p" if name != "mcr" else "6m", ruleset=name, self_drawn=True,
                      first_turn="heavenly").result
        assert not {f.chinese for f in r.fans} & {"天胡", "天和"}


# ---------------------------------------------------------------- kong payments
_SC = rules.get("sichuan")


def test_kong_payment_scenarios_sichuan():
    # seat 1 holds 555p: it kongs the dealer's 5p (直杠: the dealer pays 2), draws the
    # replacement and discards 9s, which seat 2 wins on: 呼叫转移 moves the 2 to seat 2
    hands = ["5p9p1s2s3s4s5s6s7s8s11p33p", "555p123s456s789s1p", "22p44p66p88p99p77s9s",
             "34p4p67p8p23456s88s"]
    pols = [Script("5p", void=0), Script("9s", claims=("kong",), void=0),
            Script(void=0), Script(void=0)]
    # the kong replacement comes from the tail: make it 9s
    st = play_hand("sichuan", pols, wall=_wall_tail("sichuan", hands, "9s"), dealer=0,
                   log=True)
    kong = [c for c in st.end_checks if c["check"] == "杠分"]
    assert kong[0] == {"check": "杠分", "kind": "exposed", "payer": 0, "payee": 1, "amount": 2}
    w = st.wins[0]
    assert (w["seat"], w["discarder"], w["tile"]) == (2, 1, parse_tiles("9s")[0])
    moved = [c for c in st.end_checks if c["check"] == "呼叫转移"]
    assert moved[0] == {"check": "呼叫转移", "kind": "", "payer": 1, "payee": 2, "amount": 2}
    assert sum(st.deltas) == 0


@pytest.mark.parametrize("name", ["sichuan", "sichuan_xueliu", "guangdong", "xian", "nanjing"])
def test_kong_payments_follow_the_log(name, seed=11):
    """Every kong payment, transfer and refund re-derived from the event log."""
    rs = rules.get(name)
    if name == "nanjing":       # without 天听 (a declaration only the Python loop plays)
        rs = nanjing.build(tian_ting=False)
    kp = rs.kong_payments
    seen = Counter()
    # 广东: random bots seldom win, and kong points need a winner (荒庄荒杠)
    pl = "efficiency" if name == "guangdong" else "random"
    for h in range(40):
        st = play_hand(rs, pl, seed=seed, hand=h, log=True)
        expect, ev = _derive(st.events, kp, 4, rs.blood == "xuezhan")
        if kp.when == "with_win" and not st.wins:
            expect, ev = [], []                   # 荒庄荒杠
        # 退税 at a drawn end (docs/rules/sichuan.md §8): non-winners not ready (or 花猪) refund their
        # untransferred kong income
        if st.end_reason == "wall" and "退税" in rs.end_checks:
            won = {w["seat"] for w in st.wins}
            for q in range(4):
                if q in won or _ready(st, q):
                    continue
                for e, moved in ev:
                    if e["payee"] == q and not moved:
                        expect.append(("退税", q, e["payer"], e["amount"]))
        got = [(c["check"], c["payer"], c["payee"], c["amount"]) for c in st.end_checks
               if c["check"] in ("杠分", "呼叫转移", "退税")]
        assert sorted(got) == sorted(expect), h
        assert sum(st.deltas) == 0
        win_sum = np.sum([w["deltas"] for w in st.wins], axis=0) if st.wins else np.zeros(4)
        paid = np.zeros(4, dtype=np.int64)
        for c in st.end_checks:
            paid[c["payer"]] -= c["amount"]
            paid[c["payee"]] += c["amount"]
        assert list(win_sum + paid) == list(st.deltas)
        seen.update(x[0] for x in got)
        # the compiled loop pays the same
        b = play_hand(rs, pl, seed=seed, hand=h, engine="compiled")
        assert summarize(b)["end_checks"] == summarize(st)["end_checks"]
        assert list(b.deltas) == list(st.deltas)
    assert seen["杠分"] > 10
    if name == "sichuan":
        assert seen["退税"] > 0


def _ready(st, q):
    s = st.seats[q]
    if len({k // 9 for k in np.flatnonzero(s.phys)} | {t // 9 for m in s.melds
                                                         for t in m["tiles"]}) == 3:
        return False                                  # 花猪
    hand = Hand(s.phys, tuple(majiang.Meld(m["kind"], m["tile"], m["concealed"])
                              for m in s.melds))
    return any(check_win(hand, k, ruleset=_SC, self_drawn=False,
                         seat_wind=(q - st.dealer) % 4).valid
               for k in range(27) if hand.all_counts[k] < 4)


def _derive(events, kp, n, xuezhan):
    """(expected payments, [(kong entry, moved by 呼叫转移)]) read from a log."""
    out, entries = [], []
    out_seats = set()
    drawn = {}
    last_kongs = {q: [] for q in range(n)}     # kong entries since the seat's last discard
    for i, e in enumerate(events):
        k = e["e"]
        if k == "start":
            drawn = {q: None for q in range(n)}
            dealer = [ev for ev in events if ev["e"] == "header"][0]["dealer"]
            drawn[dealer] = e["drawn"]
        elif k == "draw":
            drawn[e["seat"]] = e["tile"]
        elif k == "kong":
            p = e["seat"]
            others = [q for q in range(n) if q != p and q not in out_seats]
            if e["kind"] == "concealed":
                pays = [(q, kp.concealed) for q in others]
            else:
                # robbed: a robbing win follows before play moves on; then nothing
                robbed = False
                for ev in events[i + 1:]:
                    if ev["e"] in ("claim", "pass_win"):
                        continue
                    robbed = ev["e"] == "win" and ev["how"] == "robbing_kong"
                    break
                late = e["tile"] != drawn[p] and kp.late_added_free
                pays = [] if robbed else [(q, 0 if late else kp.added) for q in others]
            for q, a in pays:
                if a:
                    ent = {"payer": q, "payee": p, "amount": a}
                    pair = [ent, False]
                    entries.append(pair)
                    last_kongs[p].append(pair)
                    out.append(("杠分", q, p, a))
        elif k == "call" and e["kind"] == "kong":
            q, d = e["seat"], e["frm"]
            pays = [(d, kp.exposed)] + [(x, kp.exposed_each) for x in range(n)
                                        if x not in (q, d) and x not in out_seats]
            for x, a in pays:
                if a:
                    pair = [{"payer": x, "payee": q, "amount": a}, False]
                    entries.append(pair)
                    last_kongs[q].append(pair)
                    out.append(("杠分", x, q, a))
        elif k == "discard":
            p = e["seat"]
            # winners on this very discard
            winners = []
            for ev in events[i + 1:]:
                if ev["e"] in ("claim",):
                    continue
                if ev["e"] == "win" and ev["discarder"] == p and ev["how"] == "discard":
                    winners.append(ev["seat"])
                    continue
                if ev["e"] == "pass_win":
                    continue
                break
            inc = [pr for pr in last_kongs[p] if not pr[1]]
            total = sum(pr[0]["amount"] for pr in inc)
            if winners and total and kp.transfer:
                for pr in inc:
                    pr[1] = True
                share, rem = divmod(total, len(winners))
                for j, w in enumerate(winners):
                    a = share + (rem if j == 0 else 0)
                    if a:
                        out.append(("呼叫转移", p, w, a))
            last_kongs[p] = []
        elif k == "win" and xuezhan:
            out_seats.add(e["seat"])
    return out, [(pr[0], pr[1]) for pr in entries]


def test_refund_and_void_on_constructed_states():
    # 退税: seat 1 made a concealed kong (each of three paid 2) and is not ready at a
    # drawn end; seat 2 (ready) keeps its 直杠 income
    rs = _SC
    led = KongLedger(rs, 4)
    led.kong(1, "concealed", [False] * 4, turns=3)
    led.kong(2, "exposed", [False] * 4, turns=5, discarder=3)
    seats = []
    kong = {1: {"kind": "kong", "tile": 9, "concealed": True, "tiles": [9] * 4},       # 1111p
            2: {"kind": "kong", "tile": 17, "concealed": False, "tiles": [17] * 4}}    # 9999p
    # seat 0 ready (1s/4s), seat 1 scattered (not ready), seat 2 ready (8s or 6s/9s),
    # seat 3 scattered; none holds three suits
    for q, text in enumerate(("123456789p1234s", "35678p2469s1s", "1112345678s",
                              "1236p245789s147p")):
        c = np.zeros(34, dtype=np.uint8)
        for t in parse_tiles(text):
            c[t] += 1
        seats.append(SimpleNamespace(phys=c, melds=[kong[q]] if q in kong else []))
    st = SimpleNamespace(rs=rs, wins=[], seats=seats, n=4, dealer=0, prevalent=0,
                         end_reason="wall", deltas=[0] * 4, kong_ledger=led)
    got = [(c["check"], c["payer"], c["payee"], c["amount"]) for c in end_checks(st)]
    kongs = [("杠分", 0, 1, 2), ("杠分", 2, 1, 2), ("杠分", 3, 1, 2), ("杠分", 3, 2, 2)]
    assert got[:4] == kongs
    refunds = [g for g in got if g[0] == "退税"]
    assert sorted(refunds) == [("退税", 1, 0, 2), ("退税", 1, 2, 2), ("退税", 1, 3, 2)]
    assert sum(st.deltas) == 0
    # 广东 荒庄荒杠 (docs/rules/guangdong.md §1): kong points are void when nobody wins, kept with a winner
    gd = rules.guangdong.build(follow_dealer=False)     # the kong payments alone
    for wins, kept in (([], False), ([{"seat": 0}], True)):
        led = KongLedger(gd, 4)
        led.kong(2, "exposed", [False] * 4, turns=1, discarder=1)     # 放杠 3 from the feeder
        led.kong(3, "added", [False] * 4, turns=2)                    # 1 from each other
        st = SimpleNamespace(rs=gd, wins=wins, seats=[], n=4, end_reason="wall",
                             deltas=[0] * 4, kong_ledger=led)
        end_checks(st)
        # seat 1: -3 - 1; seat 2: +3 - 1; seat 3: +1 x 3; seat 0: -1
        assert st.deltas == ([-1, -4, 2, 3] if kept else [0] * 4)


def test_kong_payment_amounts_from_the_readings():
    led = KongLedger(_SC, 4)
    outs = [False, True, False, False]          # seat 1 has won (血战): it pays nothing
    led.kong(0, "concealed", outs, 0)           # 下雨: 2 from each player still in
    led.kong(0, "added", outs, 1)               # 刮风 补杠: 1 each
    led.kong(2, "added", outs, 2, late=True)    # 转手杠: nothing
    led.kong(3, "exposed", outs, 3, discarder=2)    # 直杠: the discarder 2
    got = [(e["payer"], e["payee"], e["amount"]) for e, *_ in led.items]
    assert got == [(2, 0, 2), (3, 0, 2), (2, 0, 1), (3, 0, 1), (2, 3, 2)]
    # 擦挂 (BY, DK): plus 1 from each other player still in
    led = KongLedger(rules.BUILDERS["sichuan"](cagua=True), 4)
    led.kong(3, "exposed", [False] * 4, 0, discarder=2)
    assert [(e["payer"], e["amount"]) for e, *_ in led.items] == [(2, 2), (0, 1), (1, 1)]
    with pytest.raises(RuleError):
        KongPayments(concealed=-1)
    with pytest.raises(RuleError):
        KongPayments(when="later")


# ---------------------------------------------------------------- rule fields
def test_table_rules_are_ruleset_fields():
    assert rules.get("shandong").pass_lock == "kind"
    assert rules.get("guangdong").pass_lock == "all"
    assert rules.get("sichuan").end_checks == ("查花猪", "查大叫", "退税")
    # a house ruleset turns them on from TOML: 过水 and 换三张 on MCR-like tables
    rs = rules.loads('base = "sichuan"\nname = "test_sc_exchange"\n[options]\nexchange3 = true\n')
    assert rs.exchange == 3
    st = play_hand(rs, "efficiency", seed=3, hand=0, log=True, engine="python")
    assert [e for e in st.events if e["e"] == "exchange_direction"]
    b = play_hand(rs, "efficiency", seed=3, hand=0)
    assert summarize(b) == summarize(st)
    house = rules.loads('base = "mcr"\nname = "test_mcr_guoshui"\n[rules]\npass_lock = "kind"\n'
                        'end_checks = ["查大叫"]\nkong_payments = {concealed = 2, exposed = 3}\n')
    assert house.pass_lock == "kind" and house.kong_payments.exposed == 3
    assert rules.loads(rules.dumps(house)).kong_payments == house.kong_payments
    with pytest.raises(RuleError):
        rules.loads('base = "mcr"\n[rules]\npass_lock = "sometimes"\n')
    with pytest.raises(RuleError):
        rules.loads('base = "mcr"\n[rules]\nkong_payments = {rain = 2}\n')
    with pytest.raises(RuleError):
        replace(rules.get("mcr"), end_checks=("查鸡",))


# ---------------------------------------------------------------- 8-fan aware bot
def test_mcr_bot_keeps_a_wait_that_reaches_8():
    # 22256678m222345s: the plain choice (most live waits, 2m) leaves waits no 8-fan
    # hand can use; 5m / 6m / 8m keep tenpai with a valid win (found by brute force)
    from majiang._core import game as cg
    text = "22256678m222345s"
    wall = _wall("mcr", [text])
    c = np.zeros(34, dtype=np.uint8)
    for t in parse_tiles(text):
        c[t] += 1

    def valid_waits(counts):
        return [w for w in range(34) if counts[w] < 4 and check_win(
            Hand(counts.copy(), ()), w, ruleset="mcr", self_drawn=True).valid]

    sh = game_model("mcr").shape(())
    so = cg.ShapeOpts(31, sh.quads, None, sh.pair_mask & ((1 << 34) - 1), 0, False,
                      np.array(sh.caps, dtype=np.uint8))
    plain, s0, _ = cg.choose_discard(c, so, 0, np.zeros(34, dtype=np.uint8))
    after = c.copy()
    after[plain] -= 1
    assert s0 == 0 and valid_waits(after) == []          # the test can fail
    st = play_hand("mcr", "efficiency", wall=wall, dealer=0, log=True, engine="python")
    first = next(e for e in st.events if e["e"] == "discard" and e["seat"] == 0)
    after = c.copy()
    after[first["tile"]] -= 1
    assert cg.shanten(after, so, 0) == 0 and valid_waits(after)
    b = play_hand("mcr", "efficiency", wall=wall, dealer=0)
    assert summarize(b) == summarize(st)


# ---------------------------------------------------------------- 武汉 红中
# 武汉 红中赖子杠 (docs/rules/wuhan.md): 红中 is "never part of a set" — played out (a
# 红中杠) but never punged or konged.  The indicator is the first tile from the tail (1m
# here: the 赖子 is 2m).

def test_red_dragon_is_never_punged_or_konged_in_the_python_loop():
    hands = ["7z123m456p789s1349s", "77z13m45p67s2468s", "1z2z3z4z5z6z99m99p5s",
             "3m4m5m6m3p4p5p6p3s4s5s6s9s"]
    wall = _wall("wuhan", hands, tail="1m")
    # the dealer throws 7z first; seat 1 (two 红中, the next seat) would pung anything
    pols = [Script("7z"), Script(claims=("pung", "kong")), Script(), Script()]
    st = play_hand("wuhan", pols, wall=wall, dealer=0, engine="python")
    assert not any(m["tile"] == 33 for s in st.seats for m in s.melds)
    assert st.seats[0].discards[0] == 33          # the 红中 was on offer
    # four 红中 in the dealer's hand: no concealed kong of them is offered
    hands = ["7777z123m456p9s149s", "13m45p67s2468s123z", "4z5z6z99m99p5s78m78p",
             "3m4m5m6m3p4p5p6p3s4s5s6s9s"]
    pols = [Script(declares=("concealed_kong",)), Script(), Script(), Script()]
    play_hand("wuhan", pols, wall=_wall("wuhan", hands, tail="1m"), dealer=0, engine="python")
    assert not any(o[0] == "concealed_kong" and o[1] == 33
                   for what, opts in pols[0].seen if what == "declare" for o in opts)


def test_red_dragon_is_never_melded_in_either_loop():
    # efficiency bots pung every pair they can use; before this rule 37 of 200 seeded
    # hands had a 红中 pung or kong.  Both loops now play the same hands without one.
    for i in range(100):
        a = play_hand("wuhan", ["efficiency"] * 4, seed=7, hand=i, engine="compiled")
        b = play_hand("wuhan", ["efficiency"] * 4, seed=7, hand=i, engine="python")
        for st in (a, b):
            assert not any(m["tile"] == 33 and m["kind"] != "chow"
                           for s in st.seats for m in s.melds), i
        assert list(a.deltas) == list(b.deltas), i


# ---------------------------------------------------------------- 杠上炮 / 杠后炮
# A win on the discard its discarder made right after his own kong (in the same turn, after
# the replacement draw).  Values worked by hand from the readings: 四川 +1 番 (docs/rules/
# sichuan.md §6, both tables), 长沙 a 大胡 of 6 (changsha.md §2), 云南 1 番 (yunnan.md §3), 卡五星
# ×2 (kawuxing.md §3), 内蒙 敖汉 the discarder's own share ×2 again (neimeng.md §4) and 宁城 +1 番
# (neimeng.md §6), 沈阳 杠上流泪 1 番 (shenyang.md §3), 广东鸡平胡 +3 番 outside the limit check
# (guangdong.md §2, GJ).

def test_kong_discard_is_a_discard_win_only():
    with pytest.raises(majiang.InvalidHandError, match="self-draw"):
        majiang.score("123m456m789m55p78p", "9p", ruleset="sichuan", self_drawn=True,
                      kong_discard=True)
    with pytest.raises(majiang.InvalidHandError, match="robbed kong"):
        check_win("123m456m789m55p78p", "9p", ruleset="sichuan", kong=True, kong_discard=True)
    with pytest.raises(majiang.InvalidHandError, match="robbed kong"):
        majiang.score("123m456p789s11z45m", "6m", kong=True, kong_discard=True)   # mcr
    # a ruleset without the rule scores the same with or without it (mcr: no such fan)
    plain = majiang.score("123m456p789s11z45m", "6m")
    flagged = majiang.score("123m456p789s11z45m", "6m", kong_discard=True)
    assert flagged.total == plain.total and flagged.context.kong_discard
    assert "discard after a kong" in str(flagged.context)


def _pts(hand, win, name, **kw):
    r = majiang.score(hand, win, ruleset=name, **kw)
    return r.points, {f.chinese for f in r.fans}


@pytest.mark.parametrize("name", ["sichuan", "sichuan_xueliu"])
def test_kong_discard_sichuan(name):
    # 平胡 ×1; with 杠上炮 +1 番 = ×2, paid by the discarder alone
    assert _pts("123m456m789m55p78p", "9p", name) == (1, {"平胡"})
    assert _pts("123m456m789m55p78p", "9p", name, kong_discard=True) == (2, {"杠上炮"})
    # 七对 2 番 = ×4; + 杠上炮 = 3 番 = ×8, the cap; 清七对 4 番 (+1) stays capped at ×8
    assert _pts("1122m3344p5566m7p", "7p", name)[0] == 4
    assert _pts("1122m3344p5566m7p", "7p", name, kong_discard=True)[0] == 8
    assert _pts("1122334455667m", "7m", name)[0] == 8
    assert _pts("1122334455667m", "7m", name, kong_discard=True)[0] == 8
    r = majiang.score("123m456m789m55p78p", "9p", ruleset=name, kong_discard=True)
    assert r.settle(0, 1) == (2, -2, 0, 0)


def test_kong_discard_changsha():
    # a 小胡 (2-5-8 pair) is worth 1; with 杠上炮 it is a 大胡 of 6 (the 小胡 gives way)
    assert _pts("123m456p789s22m45m", "6m", "changsha") == (1, {"小胡"})
    assert _pts("123m456p789s22m45m", "6m", "changsha", kong_discard=True) == (6, {"杠上炮"})
    # a 大胡 may use any pair: 11m is no 2-5-8 pair, so the plain hand is no win
    with pytest.raises(majiang.InvalidHandError, match="pair_258_small"):
        majiang.score("123m456p789s11m45m", "6m", ruleset="changsha")
    assert _pts("123m456p789s11m45m", "6m", "changsha", kong_discard=True)[0] == 6
    # 大胡 add up: 碰碰胡 6 + 杠上炮 6
    assert _pts("111m222p333s444m5s", "5s", "changsha", kong_discard=True)[0] == 12


def test_kong_discard_yunnan():
    # a 平和 (0 番) must be self-drawn; 杠上炮 makes it 1 番 = 2 [interp.]
    # (a pung meld: no 门清)
    with pytest.raises(majiang.InvalidHandError, match="pinghu_self_draw"):
        majiang.score("123m456m55p78p [777s]", "9p", ruleset="yunnan")
    assert _pts("123m456m55p78p [777s]", "9p", "yunnan", kong_discard=True) == (2, {"杠上炮"})
    # 清一色 2 番 = 4; + 1 = 3 番 = 8; 清一色 + 对对胡 (3) + 1 stays at the 3-番 cap
    assert _pts("456m789m11m23m [555m]", "4m", "yunnan")[0] == 4
    assert _pts("456m789m11m23m [555m]", "4m", "yunnan", kong_discard=True)[0] == 8
    assert _pts("111m222m33m55m [999m]", "3m", "yunnan", kong_discard=True)[0] == 8


def test_kong_discard_kawuxing():
    # a 屁胡 may not win on a discard; 杠上炮 (×2) is a pattern that lets it
    with pytest.raises(majiang.InvalidHandError, match="discard_needs_pattern"):
        majiang.score("123p456p789s22s45s", "6s", ruleset="kawuxing")
    assert _pts("123p456p789s22s45s", "6s", "kawuxing", kong_discard=True)[0] == 2
    # 碰碰胡 ×2 × 杠上炮 ×2
    assert _pts("111p222p333s44s55z", "5z", "kawuxing", kong_discard=True)[0] == 4


def test_kong_discard_neimeng():
    from majiang.rules import neimeng as N
    # docs/rules/neimeng.md §7 example 2: A (seat 0, not the dealer B) wins 对对胡 (2 番 = 4) on
    # C's (seat 2) 7万.  C pays B's share 8 (dealer), his own 4 × 2 = 8 and D's 4: 20.  After
    # his own kong (杠后炮) his own share is 16: 28; with D closed (share 8): 32
    kw = dict(ruleset="neimeng", seat_wind=3)
    plain = majiang.score("888s55p77m [111z] [222m]", "7m", **kw)
    after = majiang.score("888s55p77m [111z] [222m]", "7m", kong_discard=True, **kw)
    assert plain.points == after.points == 4
    assert plain.settle(0, 2) == (20, 0, -20, 0) and after.settle(0, 2) == (28, 0, -28, 0)
    assert "杠后炮" in after and "杠后炮" not in plain
    assert N.settle_table(4, 0, 2, dealer=1, melds=(2, 1, 1, 0), kong_discard=True) == \
        (32, 0, -32, 0)
    # a self-draw has no discarder: the flag changes nothing there
    assert N.settle_neimeng(4, 0, None, dealer=1, kong_discard=True) == \
        N.settle_neimeng(4, 0, None, dealer=1)
    # 宁城: the discarder pays one share; 杠后炮 +1 番: 对对胡 1 番 = 2 -> 4
    ning = N.build(variant="ningcheng")
    assert _pts("888s55p77m [111z] [222m]", "7m", ning, seat_wind=3) == (2, {"对对胡"})
    r = majiang.score("888s55p77m [111z] [222m]", "7m", ruleset=ning, seat_wind=3,
                      kong_discard=True)
    assert r.points == 4 and r.settle(0, 2) == (4, 0, -4, 0)


def test_kong_discard_shenyang_and_jipinghu():
    # 沈阳: 飘 3 番 = 8; + 杠上流泪 1 = 4 番 = 16
    assert _pts("111m999p33z44z [222s]", "4z", "shenyang") == (8, {"飘"})
    assert _pts("111m999p33z44z [222s]", "4z", "shenyang", kong_discard=True) == \
        (16, {"飘", "杠上流泪"})
    # 鸡平胡: 大三元 is a limit hand of 6 番 (64); 杠上炮 +3 applies even to it: 9 番 = 512;
    # 平胡 + 门清 = 2 番 (4); + 3 = 5, capped at 3 番 (8)
    assert _pts("555z666z777z23m44m", "1m", "guangdong_jipinghu")[0] == 64
    assert _pts("555z666z777z23m44m", "1m", "guangdong_jipinghu", kong_discard=True)[0] == 512
    assert _pts("123m456p789s11s45m", "6m", "guangdong_jipinghu")[0] == 4
    assert _pts("123m456p789s11s45m", "6m", "guangdong_jipinghu", kong_discard=True)[0] == 8


@pytest.mark.parametrize("kong", [True, False])
def test_kong_discard_in_a_scripted_hand(kong):
    # the hands of test_kong_payment_scenarios_sichuan: seat 1 kongs (or pungs) the
    # dealer's 5p, draws (or not) a replacement and discards 9s; seat 2 wins on it with
    # 七对 (2 番 = 4); after the kong 杠上炮 adds 1 番: 8, paid by seat 1 alone
    hands = ["5p9p1s2s3s4s5s6s7s8s11p33p", "555p123s456s789s1p", "22p44p66p88p99p77s9s",
             "34p4p67p8p23456s88s"]
    pols = [Script("5p", void=0), Script("9s", claims=("kong" if kong else "pung",), void=0),
            Script(void=0), Script(void=0)]
    st = play_hand("sichuan", pols, wall=_wall_tail("sichuan", hands, "9s"), dealer=0,
                   log=True)
    w = st.wins[0]
    assert (w["seat"], w["discarder"], w["how"]) == (2, 1, "discard")
    assert w["kong_discard"] is kong and w["check"][2]["kong_discard"] is kong
    assert ("杠上炮" in _fan_names(w)) is kong and "七对" in _fan_names(w)
    assert w["deltas"] == ([0, -8, 8, 0] if kong else [0, -4, 4, 0])
    assert sum(st.deltas) == 0


def _kong_discards_from_log(events):
    """Per discard win in the log, whether its discard was made in the turn of its
    discarder's kong: a kong (concealed, added, or called on a discard) not robbed, and no
    discard since (a separate reading of the rule, from the events alone)."""
    out = []
    konger = None         # the seat whose kong of this turn still waits for its discard
    flag = False          # the last discard followed its discarder's kong
    for e in events:
        k = e["e"]
        if k == "kong" or (k == "call" and e["kind"] == "kong"):
            konger = e["seat"]
        elif k == "win" and e["how"] == "robbing_kong":
            konger = None             # the kong failed
        elif k == "discard":
            flag = konger == e["seat"]
            konger = None
        elif k == "win" and e["how"] == "discard":
            out.append(flag)
    return out


_KONG_DISCARD_FAN = {"sichuan": "杠上炮", "sichuan_xueliu": "杠上炮", "changsha": "杠上炮",
                     "yunnan": "杠上炮", "kawuxing": "杠上炮", "neimeng": "杠后炮",
                     "shenyang": "杠上流泪", "guangdong_jipinghu": "杠上炮"}


@pytest.mark.parametrize("name", sorted(_KONG_DISCARD_FAN))
def test_kong_discard_in_both_loops(name):
    # 30 seeded hands in the compiled loop: zero-sum, the fan exactly on the flagged wins;
    # the first two hands with such a win played again by the Python loop with a log: the
    # same hand, the same win contexts, and the flag read again from the log
    fan = _KONG_DISCARD_FAN[name]
    n = rules.get(name).players
    found = []
    for h in range(300):
        b = play_hand(name, "efficiency", seed=20, hand=h, engine="compiled")
        assert sum(b.deltas) == 0
        for w in b.wins:
            assert (fan in _fan_names(w)) is w["kong_discard"], (name, h)
            assert not (w["kong_discard"] and w["how"] != "discard")
        if any(w["kong_discard"] for w in b.wins):
            found.append((h, b))
        if h >= 29 and len(found) >= 2:
            break
    assert len(found) >= 2, name
    for h, b in found[:2]:
        a = play_hand(name, ("efficiency",) * n, seed=20, hand=h, log=True)
        assert summarize(a) == summarize(b)
        assert [w["check"][2] for w in a.wins] == [w["check"][2] for w in b.wins]
        assert [w["kong_discard"] for w in a.wins if w["how"] == "discard"] == \
            _kong_discards_from_log(a.events)
        assert sum(a.deltas) == 0


# ---------------------------------------------------------------- 花上添花 / 大杠开花
# How the winning tile came: drawn for a flower (海南 花上添花 x3, docs/rules/hainan.md §3),
# or drawn for a kong made on a discard (南京 大杠开花 +20 against 小杠开花 +10,
# docs/rules/nanjing.md §2).  The flags are read again from the log alone: a draw right
# after the same seat's flower replaced it; the seat's last kong was a call on a discard.
def _replacement_flags_from_log(events):
    out = []
    after_flower, claimed = {}, {}
    prev = None
    for e in events:
        k = e["e"]
        if k == "draw":
            after_flower[e["seat"]] = (prev is not None and prev["e"] == "flower"
                                       and prev["seat"] == e["seat"])
        elif k == "call" and e["kind"] == "kong":
            claimed[e["seat"]] = True
        elif k == "kong":
            claimed[e["seat"]] = False
        elif k == "win" and e["how"] in ("self_draw", "kong_replacement"):
            out.append((after_flower.get(e["seat"], False),
                        e["how"] == "kong_replacement" and claimed.get(e["seat"], False)))
        prev = e
    return out


def _fans_match_flags(name, w):
    fans = _fan_names(w)
    if name == "hainan":
        return ("花上添花" in fans) is w["flower_replacement"]
    return (("大杠开花" in fans) is w["kong_claimed"]
            and ("小杠开花" in fans) is (w["how"] == "kong_replacement"
                                         and not w["kong_claimed"]))


@pytest.mark.parametrize("name, flag", [("hainan", "flower_replacement"),
                                        ("nanjing", "kong_claimed")])
def test_replacement_wins_in_both_loops(name, flag):
    # seeded hands in the compiled loop (at least 30): zero-sum, the fan exactly on the
    # flagged wins; the first two flagged hands played again by the Python loop with a
    # log: the same hand and win contexts, the flags read again from the log, a replay
    from majiang.game import replay, to_jsonl
    # 南京 without 天听 (a declaration only the Python loop plays)
    rs = nanjing.build(tian_ting=False) if name == "nanjing" else name
    found = []
    for h in range(600):
        b = play_hand(rs, "efficiency", seed=20, hand=h, engine="compiled")
        assert sum(b.deltas) == 0
        for w in b.wins:
            assert _fans_match_flags(name, w), (name, h)
        if any(w[flag] for w in b.wins):
            found.append((h, b))
        if h >= 29 and len(found) >= 2:
            break
    assert len(found) >= 2, name
    for h, b in found[:2]:
        a = play_hand(rs, ("efficiency",) * 4, seed=20, hand=h, log=True)
        assert summarize(a) == summarize(b)
        assert [w["check"][2] for w in a.wins] == [w["check"][2] for w in b.wins]
        drawn = [w for w in a.wins if w["how"] in ("self_draw", "kong_replacement")]
        assert [(w["flower_replacement"], w["kong_claimed"]) for w in drawn] == \
            _replacement_flags_from_log(a.events)
        assert summarize(replay(to_jsonl(a.events), ruleset=None if isinstance(rs, str) else rs)) \
            == summarize(a)

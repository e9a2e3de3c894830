"""贵州捉鸡 end-of-hand payments in the game engine (docs/rules/guizhou.md §4-5):
豆 (kong payments, ready players collect, void at a drawn end), 鸡 (the tile turned after
the hand + 1, 幺鸡, 冲锋鸡 / 责任鸡) after a win, 查叫 at a drawn end.

Two kinds of checks:

* constructed end states, with the expected deltas worked out by hand from the rules;
* seeded simulations, recomputed from the event log alone: the final tiles, pools,
  kongs and the first 幺鸡 are rebuilt from the logged moves, the turned tile from the
  logged wall and draw counts, readiness by asking THE predicate about every tile kind
  (no shape filter), and the payments by the pure functions of
  :mod:`majiang.rules.guizhou` (tested on the readings' worked examples).
"""
from __future__ import annotations

import random
from collections import Counter
from types import SimpleNamespace

import numpy as np
import pytest

import majiang
from majiang.game.engine import KongLedger, end_checks, fast_eligible, play_hand
from majiang.hand import Hand, Meld
from majiang.rules import guizhou as G
from majiang.rules.model import game_model


def _seat(concealed, melds=(), discards=(), won=()):
    phys = np.zeros(34, dtype=np.uint8)
    for k in concealed:
        phys[k] += 1
    return SimpleNamespace(phys=phys, melds=list(melds), discards=list(discards),
                           won_tiles=list(won), flowers=[])


def _state(seats, wins, deltas, end, turned, first=None):
    rs = G.GUIZHOU
    wall = np.array([turned if turned is not None else 0, 0], dtype=np.int16)
    st = SimpleNamespace(rs=rs, n=4, dealer=0, prevalent=0, seats=seats, wins=wins,
                         deltas=list(deltas), end_reason=end, wall=wall, head=0,
                         tail=0 if turned is not None else -1,
                         wall_left=1 if turned is not None else 0,
                         first_discards=first or {})
    st.kong_ledger = KongLedger(rs, 4)
    return st


def _table_ok(seats):
    c = Counter()
    for s in seats:
        for k in np.flatnonzero(s.phys):
            c[int(k)] += int(s.phys[k])
        for m in s.melds:
            c.update(m["tiles"])
        c.update(s.discards)
    assert max(c.values()) <= 4


# seat 1: a concealed kong of 9万 and 234条 567条 33筒 45筒 (ready: 3筒 / 6筒, 平胡)
_S1_KONG = {"kind": "kong", "tile": 8, "concealed": True, "tiles": [8] * 4, "frm": None}
_JUNK_A = [0, 4, 7, 11, 15, 19, 23, 26, 26, 3]          # 10 tiles, seat 2 (with a kong)
_JUNK_B = [0, 3, 6, 9, 12, 16, 19, 22, 25, 2, 5, 15, 26]  # 13 tiles


def test_constructed_win():
    """Seat 0 self-draws 平胡 holding three 幺鸡; seat 1 is ready (concealed kong, one
    5条); seat 2 is not ready, discarded the first 幺鸡 (冲锋鸡, unclaimed) and has an
    exposed kong fed by seat 3; the tile turned after the hand is 4条 (chicken 5条)."""
    s0 = _seat([18, 18, 18, 1, 2, 3, 4, 5, 6, 15, 16, 17, 13, 13])
    s1 = _seat([19, 20, 21, 22, 23, 24, 11, 11, 12, 13], melds=[_S1_KONG])
    kong2 = {"kind": "kong", "tile": 10, "concealed": False, "tiles": [10] * 4, "frm": 3}
    s2 = _seat(_JUNK_A, melds=[kong2], discards=[18, 0])
    s3 = _seat(_JUNK_B)
    seats = [s0, s1, s2, s3]
    _table_ok(seats)
    assert majiang.shanten(Hand(s3.phys), ruleset="guizhou") >= 1
    assert majiang.shanten(Hand(s2.phys, (Meld("kong", 10, False),)), ruleset="guizhou") >= 1
    win = {"seat": 0, "tile": 13, "how": "self_draw", "points": 1, "deltas": [3, -1, -1, -1]}
    st = _state(seats, [win], win["deltas"], "win", turned=21, first={18: [2, None, 3]})
    st.kong_ledger.kong(1, "concealed", [False] * 4, 2)
    st.kong_ledger.kong(2, "exposed", [False] * 4, 5, discarder=3)
    out = end_checks(st)
    # by hand: 豆 seat 1 collects 3 from each (seat 2 is not ready: its 点豆 is not paid);
    # 鸡 (幺鸡 1, 5条 1): seat 0 3 from each, seat 1 1 from each, seat 2 pays its
    # discarded 幺鸡 1 + 冲锋 2 to each of the ready seats 0 and 1
    dou = [-3, 9, -3, -3]
    ji = [9 - 1 + 3, -3 + 3 + 3, -3 - 1 - 6, -3 - 1]
    assert st.deltas == [a + b + c for a, b, c in zip(win["deltas"], dou, ji)]
    assert st.deltas == [11, 11, -14, -8]
    by = Counter()
    for e in out:
        by[e["check"]] += e["amount"]
    assert by == {"杠分": 9, "鸡": 9 + 3 + 6}


@pytest.mark.parametrize("shao,want", [(True, [14, -2, -9, -3]), (False, [10, 10, -13, -7])])
def test_constructed_burn(shao, want):
    """烧 (docs/rules/guizhou.md §4): seat 1 (ready, a concealed kong, one 5条) discards 5筒
    right after his kong and seat 0 wins on it (平胡 1 + 热炮 1, paid 2 by seat 1).  Seat 0
    holds three 幺鸡; seat 2 (not ready) discarded the first 幺鸡, unclaimed; turned 4条."""
    s0 = _seat([18, 18, 18, 1, 2, 3, 4, 5, 6, 15, 16, 17, 13], won=[13])
    s1 = _seat([19, 20, 21, 22, 23, 24, 11, 11, 12, 14], melds=[_S1_KONG])   # waits 5筒
    kong2 = {"kind": "kong", "tile": 10, "concealed": False, "tiles": [10] * 4, "frm": 3}
    s2 = _seat(_JUNK_A, melds=[kong2], discards=[18, 0])
    s3 = _seat(_JUNK_B)
    seats = [s0, s1, s2, s3]
    _table_ok(seats)
    win = {"seat": 0, "tile": 13, "how": "discard", "discarder": 1, "kong_discard": True,
           "points": 2, "deltas": [2, -2, 0, 0]}
    st = _state(seats, [win], win["deltas"], "win", turned=21, first={18: [2, None, 3]})
    st.rs = G.build(shao=shao)
    st.kong_ledger = KongLedger(st.rs, 4)
    st.kong_ledger.kong(1, "concealed", [False] * 4, 2)
    st.kong_ledger.kong(2, "exposed", [False] * 4, 5, discarder=3)
    end_checks(st)
    # by hand: 鸡 seat 0 3 幺鸡 = 3 from each; seat 2 pays its 幺鸡 1 + 冲锋 2 to each ready
    # seat (0 and 1).  Burnt, seat 1 collects no 豆 (his 闷豆 3 x 3) and not his 5条 (1 x 3);
    # not burnt, he does.  Seat 2 is not ready: its 点豆 is never paid.
    assert st.deltas == want and sum(want) == 0


def test_constructed_duty_chicken_and_gold():
    """The turned tile is 9条: the chicken is 幺鸡 itself (金鸡, worth 2).  Seat 3 punged
    seat 2's first 幺鸡 (责任鸡): seat 2 pays seat 3 the 幺鸡's value and earns no
    冲锋 bonus; seat 0 won on seat 1's discard."""
    s0 = _seat([1, 2, 3, 4, 5, 6, 15, 16, 17, 13, 9, 10, 11], won=[13])
    pung = {"kind": "pung", "tile": 18, "concealed": False, "tiles": [18] * 3, "frm": 2}
    s1 = _seat(_JUNK_B)
    s2 = _seat(_JUNK_A + [24, 25, 24])
    s3 = _seat([19, 20, 21, 22, 23, 24, 11, 11, 12, 14], melds=[pung])
    seats = [s0, s1, s2, s3]
    _table_ok(seats)
    for s in (s1, s2):
        assert majiang.shanten(Hand(s.phys), ruleset="guizhou") >= 1
    win = {"seat": 0, "tile": 13, "how": "discard", "points": 1, "deltas": [1, -1, 0, 0]}
    st = _state(seats, [win], win["deltas"], "win", turned=26, first={18: [2, 3, 4]})
    end_checks(st)
    # seat 3 ready (234条 567条 33筒 46筒 + pung of 幺鸡: waits 5筒): holds 3 幺鸡 = 6
    # from each; seat 0 ready, no chickens; 责任鸡: seat 2 (not ready) pays seat 3 2
    assert majiang.check_win(Hand(s3.phys, (Meld("pung", 18, False),)), 13,
                             ruleset="guizhou", self_drawn=True).valid
    ji = [-6, -6, -6 - 2, 18 + 2]
    assert st.deltas == [a + b for a, b in zip(win["deltas"], ji)]


def test_constructed_drawn_end():
    """荒庄: seat 1 waits on 大对子 (5) with a concealed kong; nobody else is ready: each
    pays seat 1 5 (查叫); the kong and the chickens are not paid."""
    s0 = _seat(_JUNK_B)
    s1 = _seat([21, 21, 21, 22, 22, 22, 11, 11, 12, 12], melds=[_S1_KONG])
    s2 = _seat(_JUNK_A + [24, 25, 24])
    s3 = _seat([0, 2, 4, 6, 9, 13, 15, 17, 20, 23, 26, 5, 3])
    seats = [s0, s1, s2, s3]
    _table_ok(seats)
    for s in (s0, s2, s3):
        assert majiang.shanten(Hand(s.phys), ruleset="guizhou") >= 1
    st = _state(seats, [], [0] * 4, "wall", turned=None)
    st.kong_ledger.kong(1, "concealed", [False] * 4, 2)
    out = end_checks(st)
    assert st.deltas == [-5, 15, -5, -5]
    assert {e["check"] for e in out} == {"查叫"}



@pytest.mark.parametrize("dealer,want", [
    # the dealer (seat 0) not ready: his 查叫 payment is 5 + the streak 2
    (0, [-7, 17, -5, -5]),
    # the dealer (seat 1) ready: his value is 大对子 5 + the 连庄 add-on 2, from each
    (1, [-7, 21, -7, -7])])
def test_constructed_drawn_end_with_dealer_streak(dealer, want):
    """docs/rules/guizhou.md §3-4: 查叫 "+ dealer streak" (dealer_repeats=2), the same
    table as test_constructed_drawn_end."""
    s0 = _seat(_JUNK_B)
    s1 = _seat([21, 21, 21, 22, 22, 22, 11, 11, 12, 12], melds=[_S1_KONG])
    s2 = _seat(_JUNK_A + [24, 25, 24])
    s3 = _seat([0, 2, 4, 6, 9, 13, 15, 17, 20, 23, 26, 5, 3])
    st = _state([s0, s1, s2, s3], [], [0] * 4, "wall", turned=None)
    st.rs, st.dealer = G.build(dealer_repeats=2), dealer
    st.kong_ledger = KongLedger(st.rs, 4)
    st.kong_ledger.kong(1, "concealed", [False] * 4, 2)
    end_checks(st)
    assert st.deltas == want


def _chicken_totals_reference(tiles, discards, ready, turned, first_yaoji=None,
                              first_yaoji_claimed_by=None, wugu=False, tong_san=False,
                              ben_ji=False, yao_bai=False, man_tang=False, weekday=0,
                              chui_feng=False, burnt=()):
    """docs/rules/guizhou.md §5 read seat by seat, written here independently of
    rules/guizhou.py: a ready seat collects (held chickens + its discarded fixed
    chickens + its 冲锋 bonus) from every other seat; a seat not ready pays (its discarded
    fixed chickens + its 冲锋 bonus) to every ready seat; 责任鸡: the discarder of a
    claimed first 幺鸡 pays the claimant its value (reversed when only the discarder is
    ready).  Options: 本鸡 (the turned tile), 摇摆鸡 (one rank lower), 星期鸡 (+1 on the
    weekday's rank), 满堂鸡 (a ready seat's own discarded chickens count), 吹风鸡 (turned
    5筒: nothing), 烧 (a burnt seat collects nothing)."""
    if chui_feng and turned == 13:
        return (0, 0, 0, 0)
    picked = []
    if turned is not None:
        suit, rank = divmod(turned, 9)                      # rank 0..8
        picked.append(9 * suit + (rank + 1) % 9)
        if ben_ji:
            picked.append(turned)
        if yao_bai:
            picked.append(9 * suit + (rank - 1) % 9)
    gold = 18 in picked
    value = {18: 2 if gold else 1}
    for c in picked:
        if c != 18:
            value[c] = value.get(c, 0) + 1
    if weekday:
        for c in (weekday - 1, 9 + weekday - 1, 18 + weekday - 1):
            value[c] = value.get(c, 0) + 1
    if wugu:
        value[16] = value.get(16, 0) + (4 if gold else 2)
    fixed = {18, 16} if wugu else {18}
    out = [0] * 4
    for p in range(4):
        own = sum(value[k] for k in discards[p] if k in fixed)
        if man_tang and ready[p]:
            own += sum(value.get(k, 0) for k in discards[p] if k not in fixed)
        if first_yaoji == p and first_yaoji_claimed_by is None:
            own += (3 if tong_san else 2) * (2 if gold else 1)
        if ready[p]:
            if p in burnt:
                continue
            own += sum(value.get(k, 0) * c for k, c in tiles[p].items())
            for q in range(4):
                if q != p:
                    out[q] -= own
                    out[p] += own
        else:
            for q in range(4):
                if q != p and ready[q]:
                    out[p] -= own
                    out[q] += own
    if first_yaoji is not None and first_yaoji_claimed_by is not None:
        d, c = first_yaoji, first_yaoji_claimed_by
        if ready[d] and not ready[c]:
            d, c = c, d
        out[d] -= value[18]
        out[c] += value[18]
    return tuple(out)


def test_chicken_transfers_match_a_seat_by_seat_reading():
    rng = random.Random(4)
    for _ in range(500):
        tiles = [{rng.randrange(27): rng.randint(1, 3) for _ in range(rng.randint(0, 4))}
                 for _ in range(4)]
        discards = [[rng.choice([18, 16, 3, 22, 13, 0]) for _ in range(rng.randint(0, 3))]
                    for _ in range(4)]
        ready = [rng.random() < 0.5 for _ in range(4)]
        turned = rng.choice([None, 13, 13] + list(range(27)))
        fy = rng.choice([None, 0, 1, 2, 3])
        fc = rng.choice([None, (fy + 1) % 4]) if fy is not None else None
        kw = dict(first_yaoji=fy, first_yaoji_claimed_by=fc, wugu=rng.random() < 0.3,
                  tong_san=rng.random() < 0.3, ben_ji=rng.random() < 0.3,
                  yao_bai=rng.random() < 0.3, man_tang=rng.random() < 0.3,
                  weekday=rng.choice([0, 0, 1, 4, 7]), chui_feng=rng.random() < 0.5,
                  burnt=rng.choice([(), (), (rng.randrange(4),)]))
        want = _chicken_totals_reference(tiles, discards, ready, turned, **kw)
        got = [0] * 4
        for a, b, v in G.chicken_transfers(tiles, discards, ready, turned, **kw):
            assert v > 0
            got[a] -= v
            got[b] += v
        assert tuple(got) == want
        assert G.chicken_payments(tiles, discards, ready, turned, **kw) == want


# ---------------------------------------------------------------- from the event log
def _recompute(events, rs):
    """Independent recomputation of one hand's deltas from its log."""
    head = {e["e"]: e for e in events if e["e"] in ("header", "start")}
    wall = head["header"]["wall"]
    hands = [Counter(h) for h in head["start"]["hands"]]
    pools = [[] for _ in range(4)]
    melds = [[] for _ in range(4)]       # [kind, tile, concealed, how, feeder]
    first_yaoji = claimed = None
    fresh = False                        # the last discard is the first 幺鸡
    konged = [False] * 4                 # the seat's last move was a kong (no discard since)
    hot = False                          # the last discard followed its discarder's kong
    n_head = 13 * 4 + 1
    n_tail = 0
    wins = []
    win_deltas = [0] * 4
    declared = [""] * 4                  # each seat's ready declaration (天听 / 软报 …)
    for e in events:
        k = e["e"]
        if k == "ready" and e["choice"]:
            declared[e["seat"]] = e["choice"]
        if k == "draw":
            fresh = False
            hands[e["seat"]][e["tile"]] += 1
            if e["tail"]:
                n_tail += 1
            else:
                n_head += 1
        elif k == "discard":
            hot, konged[e["seat"]] = konged[e["seat"]], False
            hands[e["seat"]][e["tile"]] -= 1
            pools[e["seat"]].append(e["tile"])
            fresh = e["tile"] == 18 and first_yaoji is None
            if fresh:
                first_yaoji = e["seat"]
        elif k == "call":
            q, t, frm = e["seat"], e["tile"], e["frm"]
            assert pools[frm][-1] == t
            pools[frm].pop()
            hands[q][t] -= 3 if e["kind"] == "kong" else 2
            melds[q].append([e["kind"], t, False, "exposed" if e["kind"] == "kong" else "",
                             frm])
            if t == 18 and fresh:
                claimed = q
            fresh = False
            konged[q] = e["kind"] == "kong"
        elif k == "kong":
            q, t = e["seat"], e["tile"]
            konged[q] = True
            if e["kind"] == "concealed":
                hands[q][t] -= 4
                melds[q].append(["kong", t, True, "concealed", None])
            else:
                hands[q][t] -= 1
                m = next(m for m in melds[q] if m[0] == "pung" and m[1] == t)
                m[0], m[3] = "kong", "added"
        elif k == "win":
            wins.append(e)
            for i in range(4):
                win_deltas[i] += e["deltas"][i]
    if wins and wins[0]["how"] == "discard":
        pools[wins[0]["discarder"]].pop()
    if wins and wins[0]["how"] == "robbing_kong":
        d = wins[0]["discarder"]
        m = next(m for m in melds[d] if m[1] == wins[0]["tile"] and m[3] == "added")
        m[0], m[3] = "pung", ""
    winners = {w["seat"] for w in wins}
    # 烧 (docs/rules/guizhou.md §4): the discarder who dealt in right after his own kong
    burnt = {wins[0]["discarder"]} if wins and wins[0]["how"] == "discard" and hot \
        and rs.options.get("shao", True) else set()
    # final tiles per seat (hand + melds; a discard winner's winning tile)
    tiles = []
    for q in range(4):
        c = Counter({t: v for t, v in hands[q].items() if v})
        for m in melds[q]:
            c[m[1]] += 4 if m[0] == "kong" else 3
        tiles.append(c)
    for w in wins:
        if w["how"] != "self_draw" and w["how"] != "kong_replacement":
            tiles[w["seat"]][w["tile"]] += 1
    # readiness: THE predicate on every kind, as a self-draw
    ready, values = [], []
    for q in range(4):
        if q in winners:
            ready.append(True)
            values.append(max(w["total"] for w in wins if w["seat"] == q))
            continue
        conc = np.zeros(34, dtype=np.uint8)
        for t, v in hands[q].items():
            conc[t] = v
        hand = Hand(conc, tuple(Meld(m[0], m[1], m[2]) for m in melds[q]))
        best = None
        for t in range(27):
            if tiles[q][t] >= 4:
                continue
            r = majiang.check_win(hand, t, ruleset=rs, self_drawn=True,
                                  seat_wind=(q - head["header"]["dealer"]) % 4,
                                  prevalent_wind=head["header"]["prevalent_wind"],
                                  declared_ready=declared[q])
            if r.valid:
                best = max(best or 0, int(r.result.points))
        ready.append(best is not None)
        values.append(best)
    tail_index = len(wall) - 1 - n_tail
    turned = wall[n_head] if n_head <= tail_index else None
    out = list(win_deltas)
    parts = {}
    if wins:
        kongs = [[(m[1], m[3], m[4]) for m in melds[q] if m[0] == "kong"] for q in range(4)]
        # a burnt seat collects no 豆: as if it were not ready, for its own income
        parts["杠分"] = G.kong_payments(kongs, [r and q not in burnt
                                               for q, r in enumerate(ready)])
        parts["鸡"] = _chicken_totals_reference(
            [dict(c) for c in tiles], pools, ready, turned, first_yaoji=first_yaoji,
            first_yaoji_claimed_by=claimed, wugu=bool(rs.options["wugu"]),
            tong_san=bool(rs.options["tong_san"]), burnt=burnt,
            **{k: rs.options[k] for k in ("ben_ji", "yao_bai", "man_tang", "weekday",
                                          "chui_feng")})
    else:
        parts["查叫"] = G.chajiao([v if r else None for v, r in zip(values, ready)])
    for p in parts.values():
        out = [a + b for a, b in zip(out, p)]
    return out, parts, turned, ready


@pytest.mark.parametrize("rs,players,n", [
    (G.GUIZHOU, ("efficiency",) * 4, 120),
    (G.GUIZHOU, ("random",) * 4, 40),
    (G.build(wugu=True, tong_san=True, qing_da_dui=20), ("efficiency",) * 4, 40),
    (G.build(ben_ji=True, yao_bai=True, man_tang=True, weekday=3, chui_feng=True),
     ("efficiency",) * 4, 30),
    (G.build(man_tang=True, weekday=7, shao=False), ("random",) * 4, 30)])
def test_simulated_hands_match_log_recomputation(rs, players, n):
    counts = Counter()
    for h in range(n):
        st = play_hand(rs, players, seed=21, hand=h, log=True)
        want, parts, turned, ready = _recompute(st.events, rs)
        end = st.events[-1]
        assert end["e"] == "end"
        assert sum(end["deltas"]) == 0
        assert end["deltas"] == want, (h, parts, st.end_checks)
        assert np.array_equal(st.census(), st.expected_census())
        tb = st.end_table
        assert tb.turned == turned and list(tb.ready) == ready
        for e in st.end_checks:
            counts[e["check"]] += e["amount"]
        for name, p in parts.items():
            per = [0] * 4
            for e in st.end_checks:
                if e["check"] == name:
                    per[e["payer"]] -= e["amount"]
                    per[e["payee"]] += e["amount"]
            assert tuple(per) == tuple(p), (h, name)
        if not st.wins:
            assert not any(e["check"] in ("杠分", "鸡") for e in st.end_checks)
    if players[0] == "efficiency":
        assert counts["鸡"] > 0 and counts["杠分"] > 0


@pytest.mark.parametrize("players,rs", [
    (("efficiency",) * 4, "guizhou"), (("random",) * 4, "guizhou"),
    (("efficiency",) * 4, G.build(ben_ji=True, man_tang=True, weekday=2, chui_feng=True))])
def test_compiled_loop_pays_the_same(players, rs):
    """The compiled loop (FastHand tracks the first discard of each kind and added
    kongs) settles 豆 / 鸡 / 查叫 exactly as the Python loop, hand by hand (热炮 and 烧
    read from the same win context; the chicken options in the shared end settlement)."""
    # 报听 (天听 / 地听) is played by the Python loop only: the table without it compiles
    rs = G.build(ting_values="none")
    assert not fast_eligible(game_model("guizhou"), players)
    assert fast_eligible(game_model(rs), players)
    for h in range(60):
        a = play_hand(rs, players, seed=4, hand=h)
        b = play_hand(rs, players, seed=4, hand=h, engine="python")
        assert type(a).__name__ == "FastState"
        assert a.end_table == b.end_table, h
        assert a.end_checks == b.end_checks, h
        assert list(a.deltas) == list(b.deltas), h


def test_drawn_hands_chajiao_from_log():
    """Seeded drawn hands (seed 21) where someone is ready at the wall's end: 查叫 as
    recomputed from the log, and no 豆 / 鸡."""
    for h in (132, 279, 415, 471):
        st = play_hand("guizhou", seed=21, hand=h, log=True)
        assert not st.wins and st.end_reason == "wall"
        want, parts, _, ready = _recompute(st.events, G.GUIZHOU)
        assert any(ready) and not all(ready)
        assert st.events[-1]["deltas"] == want
        assert {e["check"] for e in st.end_checks} == {"查叫"}
        assert any(parts["查叫"])


def test_drawn_hand_with_a_declaration_chajiao_from_log():
    """Seat 1 declares 天听 on its dealt hand (123m 456m 789m 123p 5p: waits on 5p, whose
    other three copies the others hold) and everyone throws what he draws to the wall's
    end: 查叫 pays seat 1's value with the declaration, 天听 20 (docs/rules/guizhou.md §2:
    a hand pattern beside 平胡 1), from each of the three others.  The log recomputation
    reads the declaration from the log."""
    from _engine_helpers import Script, build_test_wall

    class Declarer(Script):
        def declare_ready(self, view, discard, waits):
            return "deal" if "deal" in (view.ready_offered or view.ready_kinds) else False

    hands = ["5p2m5m8m3p6p9p2s5s8s3s6s9s4m", "123m456m789m123p5p",
             "5p1m4m7m1p4p7p1s4s7s2m6m9m", "5p3m6m9m2p8p4p2s5s8s3s6s9s"]
    st = play_hand("guizhou", [Script(), Declarer(), Script(), Script()],
                   wall=build_test_wall("guizhou", hands), dealer=0, log=True)
    assert [(e["seat"], e["choice"]) for e in st.events if e["e"] == "ready"] == [(1, "deal")]
    assert not st.wins and st.end_reason == "wall"
    want, parts, _, ready = _recompute(st.events, G.GUIZHOU)
    assert ready == [False, True, False, False]
    assert list(parts["查叫"]) == [-20, 60, -20, -20] == st.events[-1]["deltas"] == want


def test_replay_keeps_end_payments():
    from majiang.game.logs import replay
    for h in range(4):
        st = play_hand("guizhou", seed=9, hand=h, log=True)
        r = replay(st.events)
        assert list(r.deltas) == list(st.deltas)
        assert r.end_checks == st.end_checks


def test_seeded_re_pao_and_burn_in_play():
    """A seeded hand (seed 21, hand 111) where seat 2 deals in with the discard right
    after his exposed kong: the win scores 热炮 (平胡 1 + 1) without a 豆 of the winner,
    seat 2's 点豆 is void (烧) in both loops, and a replay of the log settles the same."""
    from majiang.game.logs import replay
    st = play_hand("guizhou", ("efficiency",) * 4, seed=21, hand=111, log=True)
    (w,) = st.wins
    assert w["discarder"] == 2 and w["kong_discard"]
    assert dict(w["fans"]) == {"平胡": 1, "热炮": 1} and w["points"] == 2
    assert not any(e["check"] == "杠分" for e in st.end_checks)
    fast = play_hand("guizhou", ("efficiency",) * 4, seed=21, hand=111)
    assert list(fast.deltas) == list(st.deltas) and fast.end_checks == st.end_checks
    r = replay(st.events)
    assert list(r.deltas) == list(st.deltas) and r.end_checks == st.end_checks
    kept = play_hand(G.build(shao=False), ("efficiency",) * 4, seed=21, hand=111)
    assert [e for e in kept.end_checks if e["check"] == "杠分"] == [
        {"check": "杠分", "kind": "exposed", "payer": 3, "payee": 2, "amount": 3}]


def test_fields_checked_and_round_trip():
    import dataclasses

    from majiang import rules
    from majiang.errors import RuleError
    from majiang.rules.base import KongPayments
    with pytest.raises(RuleError, match="collect"):
        KongPayments(collect="winners")
    with pytest.raises(RuleError, match="burn"):
        KongPayments(transfer=True, burn=True)
    with pytest.raises(RuleError, match="burn"):
        KongPayments(burn="yes")
    with pytest.raises(RuleError, match="end settlement"):
        dataclasses.replace(G.GUIZHOU, end_settlement="nowhere")
    back = rules.loads(rules.dumps(G.GUIZHOU))
    assert back.end_settlement == "guizhou"
    assert back.kong_payments == G.GUIZHOU.kong_payments
    with pytest.raises(RuleError):
        rules.loads('base = "mcr"\n[rules]\nend_settlement = "nowhere"\n')

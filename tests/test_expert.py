"""The ``"expert"`` built-in player (:mod:`majiang.game.expert`).

Legal play: whole hands under several rulesets with the tile census conserved (every
physical tile in exactly one place at the end).  Behaviour: positions built by hand, the
expected move reasoned from the rules (fan values of the Chinese Official catalogue) and
the policy's stated order, not read from the player's own output.
"""
from __future__ import annotations

import numpy as np
import pytest

from majiang.game import play_hand
from majiang.game.expert import ExpertPlayer, plan_value, plans_of
from majiang.game.expert_plans import GENERAL_CONCEALED, SHORT
from majiang.game.players import BUILTIN_PLAYERS, EfficiencyPlayer, SeatView, make_players
from majiang.hand import Meld
from majiang.rules.model import game_model
from majiang.tiles import parse_tile, parse_tiles


def _position(ruleset, hand, melds=(), discards=None, last=None, opp_melds=None):
    """Seat 0's view of a hand-built position: ``hand`` its concealed tiles, ``melds``
    its exposed melds (:class:`Meld`), ``discards`` ``{seat: "tiles"}`` the pools,
    ``last`` ``(seat, "tile")`` the discard on offer, ``opp_melds`` ``{seat: [Meld]}``.  Built on a dealt hand whose seat 0
    tiles and pools are replaced (only what a view reads is set)."""
    st = play_hand(ruleset, "efficiency", seed=3, dealer=0, deal_only=True, engine="python")
    s = st.seats[0]
    s.phys = np.zeros(34, dtype=np.uint8)
    for t in parse_tiles(hand):
        s.phys[t] += 1
    s.melds = []
    s.meld_counts = np.zeros(34, dtype=np.uint8)
    for m in melds:
        tiles = list(m.tiles)
        s.melds.append({"kind": m.kind, "tile": m.tile, "concealed": m.concealed,
                        "tiles": tiles, "frm": 1})
        for t in tiles:
            s.meld_counts[t] += 1
    s._opts = s._popts = None
    s.drawn = None
    vis = s.meld_counts.astype(np.int64).copy()
    for q, text in (discards or {}).items():
        st.seats[q].discards = parse_tiles(text)
        for t in st.seats[q].discards:
            vis[t] += 1
    for q, ms in (opp_melds or {}).items():
        st.seats[q].melds = [{"kind": m.kind, "tile": m.tile, "concealed": m.concealed,
                              "tiles": list(m.tiles), "frm": 0} for m in ms]
        for m in ms:
            for t in m.tiles:
                vis[t] += 1
    if last is not None:        # the tile on offer: the last of that seat's pool
        st.last_discard = (last[0], parse_tile(last[1]))
    st.visible = vis.astype(st.visible.dtype)
    return SeatView(st, 0)


def test_expert_is_a_builtin_player():
    assert "expert" in BUILTIN_PLAYERS
    (p,) = make_players(["expert"], 1)
    assert isinstance(p, ExpertPlayer) and p.name == "expert"


def test_plans_come_from_the_fan_catalogue():
    names = {p.name for p in plans_of(game_model("mcr"))}
    assert {"混一色", "清一色", "碰碰和", "五门齐", "花龙", "清龙", "三色三同顺",
            "三色三步高"} <= names
    assert plans_of(game_model("hefei")) == ()        # adds points, no doublings: no plan
    # 6 suit plans, 碰碰和, 五门齐, 6 + 3 + 7 + 30 fixed-chow plans (花龙: the 3! ways to
    # give 123 / 456 / 789 to the suits; 清龙: a suit; 三色三同顺: 1..7; 三色三步高:
    # 1..5 times the 3! orders of the suits)
    assert len(plans_of(game_model("mcr"))) == 6 + 1 + 1 + 6 + 3 + 7 + 30


@pytest.mark.parametrize("ruleset", ["mcr", "mcr_botzone", "sichuan", "guangdong", "hefei",
                                     "taiwan", "sichuan_xueliu", "kawuxing",
                                     "guangdong_jipinghu"])
def test_expert_plays_legal_hands_and_conserves_tiles(ruleset):
    n = game_model(ruleset).players
    for seed in range(3):
        for players in (["expert"] * n, ["expert", "efficiency", "random", "expert"][:n]):
            st = play_hand(ruleset, players, seed=seed, hand=seed, engine="python")
            assert np.array_equal(st.census(), st.expected_census()), (ruleset, seed)


def test_distances_of_hand_built_plans():
    # 123456789m 11z 55p waits on 1z / 5p: 清龙 (16 fan, over the 8 minimum: weight 0)
    # ready, distance 0 (the shanten convention: -1 complete)
    v = _position("mcr", "123456789m11z55p3s")
    c, _ = v.play_counts()
    c[parse_tile("3s")] -= 1
    assert plan_value(v, c, with_plan=True)[:2] == (0.0, "清龙")
    # 11z 55p 3s as the rest: one tile from a set and a pair beside the three chows
    assert plan_value(v, with_plan=True)[:2] == (0.0, "清龙")
    # 混一色 (characters) here is 2 away — 55p unusable, two draws toward a fourth set —
    # + SHORT (6 fan needs another 2); the general plan of a concealed hand is ready (0)
    # + GENERAL_CONCEALED: the value is the least of the two
    alone = min(plan_value(v, c, plans=(p,), general=False) for p in plans_of(v.model)
                if p.name == "混一色")
    assert alone == 2 + SHORT
    vals = {p.name: plan_value(v, c, plans=(p,)) for p in plans_of(v.model)
            if p.name == "混一色"}
    assert vals == {"混一色": min(2 + SHORT, 0 + GENERAL_CONCEALED)}


def test_five_gates_distance():
    # 123m 456p 789s 11z 55z 7z: a set of each suit, a pair of winds, a pair of dragons:
    # throw 7z and wait on 1z / 5z — ready (0), 6 fan below the minimum: + 0.5
    v = _position("mcr", "123m456p789s11z55z7z")
    gates = tuple(p for p in plans_of(v.model) if p.name == "五门齐")
    assert plan_value(v, plans=gates, with_plan=True, general=False)[:2] == (0.5, "五门齐")
    # no dragon at all: three tiles to draw (a dragon pair and a third 1z, or a dragon
    # pung) — 2 from ready, + 0.5
    v = _position("mcr", "123m456p789s11z4z55s")
    assert plan_value(v, plans=gates, general=False) == 2.5
    # the general plan: ready (0) + GENERAL_CONCEALED, nearer than 五门齐's 2.5
    assert plan_value(v, plans=gates) == min(2.5, 0 + GENERAL_CONCEALED)


def test_expert_keeps_a_one_suit_plan_in_an_open_hand():
    # exposed pung of 5z (箭刻, 2 fan); concealed 1234679m 11z 34p.  By shape alone the
    # hand is 1-shanten either way and the efficiency order keeps the 34p ryanmen
    # (throws a 万); but no 8-fan hand uses 34p here: with the 万 and honors the hand
    # is 1 from 清龙 (123 456 789m: 5m 8m missing, 16 fan) or 混一色 + 箭刻 (6 + 2),
    # so the expert throws 3p or 4p.
    v = _position("mcr", "1234679m11z34p", melds=(Meld("pung", parse_tile("5z")),))
    eff = EfficiencyPlayer().discard(v)
    assert eff < 9                                  # the test can fail: a 万 by shape
    assert ExpertPlayer().discard(v) in parse_tiles("34p")


@pytest.mark.parametrize("hand, why", [
    # 23m 456p 78s: 花龙 (123m 456p 789s) is the plan; a chow of 234m can never be in it
    ("235m4569p178s123z", "breaks the 花龙 plan"),
    # 23m + pairs of honors: after 234m the best is 混一色 still 4 away (+ 0.5), no
    # better than the concealed hand as it is (3-shanten, general plan + 1)
    ("23m258p19s1122z55z", "no plan made nearer"),
])
def test_expert_does_not_chow_without_a_plan_it_improves(hand, why):
    v = _position("mcr", hand, discards={3: "4m"}, last=(3, "4m"))
    opts = [("chow", parse_tile("2m"))]
    assert EfficiencyPlayer().claim(v, opts) == opts[0]      # shape alone: chow
    assert ExpertPlayer().claim(v, opts) is None, why


def test_expert_pungs_into_a_one_suit_plan():
    # 1234679m 11z 34p 55z, 5z (白... a dragon) on offer: the pung is 箭刻 and leaves the
    # 万 + honors 1 from 清龙 / 混一色: a plan nearer than the concealed hand (1-shanten + 1)
    v = _position("mcr", "1234679m11z34p55z", discards={2: "5z"}, last=(2, "5z"))
    assert ExpertPlayer().claim(v, [("pung",)]) == ("pung",)


def test_expert_folds_with_a_safe_tile_against_a_likely_ready_opponent(monkeypatch):
    # seat 1: three exposed pungs and 24 discards (the tempo prior of majiang.opponents
    # puts it past the fold threshold, checked first); seat 0 is far from ready (a pile
    # of singles).  5p is 现物 (seat 1 threw it); every other held tile is live
    from majiang.game import expert
    opp = {1: [Meld("pung", parse_tile(t)) for t in ("6m", "8p", "2s")]}
    disc = {1: "5p2m2m3m3m4p4p6p6p3s3s4s4s2z2z6s6s7s7s1z1z8m8m9p"}
    hand = "159m357p1589s4567z"
    v = _position("mcr", hand, discards=disc, opp_melds=opp)
    assert expert.ExpertPlayer()._threats(v)[1] > expert.FOLD_P
    assert ExpertPlayer().discard(v) == parse_tile("5p")
    # with no threat the same hand attacks and keeps the 5p between 3p and 7p
    monkeypatch.setattr(expert, "FOLD_P", 1.1)
    assert ExpertPlayer().discard(v) != parse_tile("5p")


def _sichuan(hand, void=0, **kw):
    """Seat 0's view under 四川 血战 with ``void`` declared (定缺)."""
    v = _position("sichuan", hand, **kw)
    s = v._st.seats[0]
    s.void = void
    s._opts = s._popts = None
    return v


def test_value_plans_come_from_the_regional_fan_tables():
    from majiang.game import expert
    # 四川 (docs/rules/sichuan.md §5): 清一色 2 doublings, 七对 2, 对对胡 1 — no minimum,
    # so the plans weigh the value: -FAN_WEIGHT per doubling
    m = game_model("sichuan")
    assert expert.value_rules(m) and not expert.value_rules(game_model("mcr"))
    got = sorted((p.name, p.kind, p.weight) for p in plans_of(m))
    w, wp = expert.FAN_WEIGHT, expert.PAIRS_FAN_WEIGHT
    assert got == sorted([("清一色", "suit", -2 * w)] * 3 + [("七对", "pairs", -2 * wp),
                                                         ("对对胡", "pungs", -1 * w)])
    # 广东 推倒胡: only 七对 doubles among the shapes (自摸 / 杠上开花 are not plans; the
    # limit hands are paid apart and are no plan)
    gd = plans_of(game_model("guangdong"))
    assert [(p.name, p.weight) for p in gd if p.name == "七对"] == [("七对", -wp)]
    # its limit hands (paid at their own value past the cap) that have a plan
    limit = -expert.LIMIT_WEIGHT
    assert sorted((p.name, p.weight) for p in gd if p.name != "七对") == sorted(
        [("十三幺", limit), ("字一色", limit), ("清幺九", limit), ("大三元", limit)])


def test_guangdong_limit_hand_distances():
    from majiang.game import expert
    limit = expert.LIMIT_WEIGHT
    # 1m 9m 1p 9p 1s 9s and the seven honors, plus 5z: a complete 十三幺 (-1)
    v = _position("guangdong", "19m19p19s1234567z5z")
    orphans = [p for p in plans_of(v.model) if p.name == "十三幺"]
    assert plan_value(v, plans=orphans, general=False) == -1 - limit
    # 555z 666z 77z 123m 45p 9s: throw 9s, draw the third 7z and the hand is 大三元
    # ready on the 4p or the 5p left alone (单钓) — one draw from ready
    v = _position("guangdong", "555666z77z123m45p9s")
    dragons = [p for p in plans_of(v.model) if p.name == "大三元"]
    assert plan_value(v, plans=dragons, general=False) == 1 - limit


def test_sichuan_void_is_the_shortest_suit_and_goes_first():
    # 3 万, 5 筒, 6 条: 万 is declared void (the fewest tiles) and, once declared, the only
    # legal discards are 万 tiles (定缺 first)
    hand = "159m" + "13579p" + "2468s" + "11s" + "9s"
    v = _sichuan(hand, void=-1)
    assert ExpertPlayer().choose_void(v) == 0
    v = _sichuan(hand, void=0)
    assert ExpertPlayer().discard(v) in parse_tiles("159m")


def test_sichuan_void_ties_go_to_the_suit_of_least_use():
    # 1279m 1479p 23799s: 万 and 筒 hold four tiles each (the efficiency rule, fewest
    # then the lower suit, names 万); 1479p has no pair and no two tiles within two
    # ranks, while 12m / 79m are two partial chows — without 筒 the hand is nearer a
    # win, so the expert names 筒
    v = _sichuan("1279m1479p23799s", void=-1)
    assert EfficiencyPlayer().choose_void(v) == 0
    assert ExpertPlayer().choose_void(v) == 1


def test_sichuan_keeps_a_full_flush_plan():
    # 11 筒 and 1s 8s 9s, 万 void.  Throwing 1p or 1s leaves the hand 2-shanten either
    # way, and the efficiency order throws the 筒 (a 条 pair-able shape is kept); the
    # 清一色 plan (4x) counts only the 筒, so the expert throws a 条
    v = _sichuan("12245567899p189s")
    assert EfficiencyPlayer().discard(v) < 18          # the test can fail: a 筒 by shape
    assert 18 <= ExpertPlayer().discard(v) < 27


def test_seven_pairs_distance():
    from majiang._core import game as _cg
    so = game_model("sichuan").shape(()).game_opts(0)
    avail = np.full(34, 4, np.int64)

    def dist(hand, melds, quads):
        c = np.zeros(34, dtype=np.uint8)
        for t in parse_tiles(hand):
            c[t] += 1
        out = np.empty(1)
        _cg.plan_values(_cg.PlanSet([("pairs", quads, 0.0)]), c, so, 0, melds, avail, out)
        return out[0]
    # six pairs and a single: ready (0); a four counts two pairs where quads may pair
    assert dist("1122p3344s5566s7p", (), True) == 0
    assert dist("1111p2233s4455s6p", (), True) == 0
    # without quads: 5 distinct pairs and one more kind (6p) -> 6 - 5 + (7 - 6) = 2
    assert dist("1111p2233s4455s6p", (), False) == 2
    assert dist("1111p2233s44s", (Meld("pung", parse_tile("9p")),), True) == np.inf


def test_sichuan_passes_an_early_cheap_discard_win_for_a_self_draw():
    # 23456p 234s 678s 55s with 万 void: a 平胡 waiting on 1p / 4p / 7p (10 live copies).
    # On seat 2's 4p it wins 1 (平胡 = 2^0, the discarder alone pays); self-drawn it wins
    # (1 + 1 自摸加底) from each of three = 6.  Early (about 13 own draws left) a 1p / 4p /
    # 7p draw comes with P ~ 1 - (1 - 10/80)^13 ~ 0.8, and PASS_RHO (0.35) x 0.8 x 6 > 1: pass
    hand = "23456p23455678s"
    v = _sichuan(hand, discards={2: "4p"}, last=(2, "4p"))
    assert ExpertPlayer().claim(v, [("win",)]) is None
    # with four tiles left in the wall (one own draw) P ~ 10/80: take the win
    st = v._st
    st.head = st.tail - 3
    assert ExpertPlayer().claim(v, [("win",)]) == ("win",)


@pytest.mark.slow
def test_expert_realism_under_mcr_botzone():
    # the realism statistics of bench/bench_realism.py on a small run (400 hands): the
    # published strong-AI figures are 1.6 % drawn, 43 % 平和, 全求人 not among the 12
    # commonest fans; the bounds here are loose for the sample size
    import majiang
    df = majiang.simulate("mcr_botzone", 400, players="expert", seed=11, n_jobs=1,
                          progress=False)
    wins = [fans for fl in df["fans"] for fans in fl]
    names = [{x[0] for x in fans} for fans in wins]
    drawn = float((df["end"] == "wall").mean())
    assert drawn <= 0.06
    assert sum("全求人" in n for n in names) <= 0.05 * len(wins)
    assert sum("平和" in n for n in names) >= 0.30 * len(wins)
    assert 0.18 <= len(wins) / (4 * len(df)) <= 0.30


def _rest_prog_reference(r, need_set):
    """The expert's rest progress written out: the most over one piece of a set (a single,
    a pair, a pung, an adjacent or gapped two, a chow) of the piece's tiles plus the pair
    progress (2 / 1 / 0) of what is left; without ``need_set`` the pair progress alone."""
    def pair(x):
        m = max(x)
        return 2 if m >= 2 else 1 if m >= 1 else 0
    best = pair(r)
    if not need_set:
        return best
    for k in range(34):
        pieces = []
        if r[k] >= 1:
            pieces.append([k])
        if r[k] >= 2:
            pieces.append([k, k])
        if r[k] >= 3:
            pieces.append([k, k, k])
        if k < 27 and k % 9 <= 7 and r[k] and r[k + 1]:
            pieces.append([k, k + 1])
        if k < 27 and k % 9 <= 6 and r[k] and r[k + 1] and r[k + 2]:
            pieces.append([k, k + 1, k + 2])
        if k < 27 and k % 9 <= 6 and r[k] and r[k + 2]:
            pieces.append([k, k + 2])
        for p in pieces:
            x = list(r)
            for t in p:
                x[t] -= 1
            best = max(best, len(p) + pair(x))
    return best


def test_compiled_rest_progress_equals_the_written_rule():
    from majiang._core import game as _cg
    rng = np.random.default_rng(4)
    for _ in range(3000):
        n = int(rng.integers(0, 12))
        r = np.bincount(rng.choice(136, n, replace=False) // 4, minlength=34).astype(np.int64)
        for need in (True, False):
            assert _cg.rest_progress(r, need) == _rest_prog_reference(list(r), need)
    with pytest.raises(ValueError):
        _cg.chow_plan_distance(np.zeros(34, np.uint8), np.full(34, 4, np.int64), [7], 0, 0)


def _valid_ukeire_reference(c, j, so, vis, live, verdict, wild, weight=None):
    """The tile-by-tile rule of players._valid_ukeire (its former Python body)."""
    from majiang._core import game as _cg
    out = np.zeros(34, dtype=np.uint8)
    total = 0.0
    for t in range(34):
        left = int(live[t]) - int(c[t]) - int(vis[t])
        if left <= 0 or c[t] >= 4:
            continue
        c[t] += 1
        got = 0.0
        if _cg.shanten(c, so, j) == 0:
            if verdict is None:
                got = 1.0
            else:
                for y in range(34):
                    if not c[y]:
                        continue
                    c[y] -= 1
                    if _cg.shanten(c, so, j) == 0:
                        _cg.waits(c, so, j, out)
                        for w in range(34):
                            if out[w] and w not in wild and verdict(c, w):
                                got = max(got, 1.0 if weight is None else weight(c, w))
                                if got >= 1.0:
                                    break
                    c[y] += 1
                    if got >= 1.0:
                        break
        c[t] -= 1
        total += got * left
    return int(total) if weight is None else total


def test_compiled_valid_ukeire_equals_the_tile_by_tile_rule():
    from majiang._core import game as _cg
    so = game_model("mcr").shape(()).game_opts(0)
    rng = np.random.default_rng(8)

    def verdict(c, w):                 # any deterministic rule of the hand and the wait
        return (int(c[:9].sum()) + w) % 3 != 0

    def weight(c, w):
        return 0.5 if w % 2 else 1.0

    checked = hits = 0
    memos, sh_memo = {}, {}
    from _hands import family_hand
    for _ in range(300):
        full = None
        while full is None:
            full = family_hand(rng, "sets", [0, 1, 2])
        c = full.astype(np.uint8)
        for _ in range(2):              # two tiles out, one in: mostly 1-shanten
            c[rng.choice(np.flatnonzero(c))] -= 1
        c[int(rng.integers(34))] += 1
        if c.max() > 4:
            continue
        vis = rng.integers(0, 2, 34).astype(np.uint8)
        live = np.full(34, 4, np.int64)
        wild = (int(rng.integers(3)),)
        for v, wt in ((None, None), (verdict, None), (verdict, weight)):
            before = c.copy()
            got = _cg.valid_ukeire(c, 0, so, vis, live, v, wild, wt)
            assert np.array_equal(c, before)
            assert got == _valid_ukeire_reference(c.copy(), 0, so, vis, live, v, wild, wt)
            checked += got > 0
            # a memo kept across calls of the same rules (here: the same wild kind)
            memo = memos.setdefault((wild, v is None, wt is None), {})
            for _ in range(2):
                assert _cg.valid_ukeire(c, 0, so, vis, live, v, wild, wt, memo) == got
                # and the shanten of the hands it visits kept across every call
                assert _cg.valid_ukeire(c, 0, so, vis, live, v, wild, wt, memo,
                                        sh_memo) == got
            hits += bool(memo)
    assert checked > 100 and hits > 100 and len(sh_memo) > 1000


def test_expert_plays_as_the_efficiency_bot_under_honour_chows(monkeypatch):
    """Under 南昌 honour chows (three winds / the three dragons as a chow) the compiled
    kernels the expert's own weighing uses know no honour chows, so the expert discards
    and calls as the efficiency bot, which weighs shapes by the ruleset's shape engine
    there: it never asks those kernels (they raise here), and at every decision of seeded
    hands the two choose the same."""
    import majiang.game.expert as E
    assert game_model("nanchang").honor_chows

    class NoKernels:
        def __getattr__(self, name):
            if name in ("evaluate", "shanten", "waits", "choose_discard"):
                raise AssertionError(f"the expert asked the compiled {name} under honour chows")
            return getattr(_real_cg, name)
    _real_cg = E._cg
    monkeypatch.setattr(E, "_cg", NoKernels())
    seen = {"discard": 0, "claim": 0}

    class Both(ExpertPlayer):
        eff = EfficiencyPlayer()

        def discard(self, view):
            k = super().discard(view)
            assert k == self.eff.discard(view)
            seen["discard"] += 1
            return k

        def claim(self, view, options):
            o = super().claim(view, options)
            assert o == self.eff.claim(view, options)
            seen["claim"] += 1
            return o
    for h in range(3):
        st = play_hand("nanchang", [Both() for _ in range(4)], seed=4, hand=h)
        assert sum(st.deltas) == 0
    assert seen["discard"] > 60 and seen["claim"] > 5


def _chow_position():
    """Seat 0 (concealed, no plan nearer by a chow of 789p) holds 133588m 45678p 34s with
    9p on offer from the seat before (a position of a seeded mcr_botzone hand)."""
    return _position("mcr_botzone", "133588m45678p34s",
                     discards={0: "9m7p18s247z", 1: "159m2467z", 2: "29p1s1234z",
                               3: "6m39p99s566z"},
                     last=(3, "9p"), opp_melds={3: [Meld("chow", parse_tile("7p"))]})


def test_expert_chows_when_the_call_brings_enough_valid_draws(monkeypatch):
    """A chow with no fan plan it brings nearer is taken when it takes the hand from 2 to 1
    from ready with at least CALL_VALID live draws to a ready hand whose wait wins.

    133588m 45678p 34s is 2 from ready.  Chowing 9p with 78p and throwing 1m leaves
    33588m 456p 34s + 789p, 1 from ready.  The draws that make it ready with a wait worth
    8 fan (counted by hand; checked below tile by tile with check_win):
    * 4m x4 (none seen): throw 3m, 345m 88m 456p 34s + 789p waits on 2s / 5s; 2s wins
      with 三色三步高 (345m 456p 234s, 6) + 平和 (2) + 连六 (456p 789p, 1) = 9 (5s: 平和
      2 + 喜相逢 345m 345s 1 + 连六 1 = 4, too few);
    * 2s x4 (none seen): throw 3m, 35m 88m 456p 234s + 789p waits on 4m (坎张): the same
      chows and pair, 6 + 2 + 1 + 1 = 10;
    other draws give shapes without the three shifted chows (a 33m / 88m double-pair wait,
    5s's 345s), below 8.  So 8 valid draws >= CALL_VALID (4): the expert chows; without
    the rule it passes (789p is in none of its fan plans, so no plan comes nearer)."""
    import majiang.game.expert as E
    from majiang.game.players import called
    from majiang.hand import _trusted_hand
    from majiang.scoring import check_win
    v = _chow_position()
    opt = ("chow", parse_tile("7p"))
    c, j = v.play_counts()
    c2, m = called(c, parse_tile("9p"), opt)
    assert ExpertPlayer()._call_valid(v, c, c2, j, m) == 8
    # the count tile by tile: draws t after which some discard y leaves a ready hand with
    # a wait w that check_win accepts (on a discard or self-drawn) with the chow melded
    vis = v.visible_counts()
    so = v.shape_options((m,))
    from majiang._core import game as _cg
    c2[parse_tile("1m")] -= 1
    valid = {}
    for t in range(34):
        left = 4 - int(c2[t]) - int(vis[t])
        if left <= 0:
            continue
        c2[t] += 1
        ok = False
        for y in np.flatnonzero(c2):
            c2[y] -= 1
            for w in range(34):
                if c2[w] >= 4:
                    continue
                c2[w] += 1
                done = _cg.shanten(c2, so) == -1
                c2[w] -= 1
                if done and any(check_win(_trusted_hand(np.array(c2), (m,)), w,
                                          ruleset="mcr_botzone", self_drawn=sd).valid
                                for sd in (False, True)):
                    ok = True
            c2[y] += 1
        c2[t] -= 1
        if ok:
            valid[t] = left
    assert valid == {parse_tile("4m"): 4, parse_tile("2s"): 4}
    assert ExpertPlayer().claim(v, [opt]) == opt
    monkeypatch.setattr(E, "CALL_VALID", 0)
    assert ExpertPlayer().claim(v, [opt]) is None


# ---------------------------------------------------------------- the plans' kernels
# The plan distances written out tile by tile (the expert's former Python body): the
# compiled kernels (majiang._core.game.plan_values / plan_minima) must give the same
# number for every plan, hand and melds.  Shanten under a plan's caps is the core's.
_DEAD = 99
_GATES = ((0, 9), (9, 18), (18, 27), (27, 31), (31, 34))


def _dragons_reference(c, melds, dragons, avail):
    other, need = 0, list(dragons)
    for m in melds:
        if m.kind in ("pung", "kong") and m.tile in need:
            need.remove(m.tile)
        else:
            other += 1
    if other > 1:
        return _DEAD
    used, rest = 0, [int(x) for x in c]
    for d in need:
        have = min(rest[d], 3)
        if 3 - have > int(avail[d]) - rest[d]:
            return _DEAD
        used += have
        rest[d] -= have
    return 3 * (4 - len(melds)) + 2 - used - _rest_prog_reference(rest, other == 0) - 1


def _pairs_reference(c, melds, quads):
    if melds:
        return _DEAD
    if quads:
        return 6 - sum(int(x) // 2 for x in c)
    pairs = sum(1 for x in c if x >= 2)
    kinds = sum(1 for x in c if x >= 1)
    return 6 - pairs + max(0, 7 - kinds)


def _pungs_reference(c, melds):
    if any(m.kind == "chow" for m in melds):
        return _DEAD
    need = 4 - len(melds)
    trips = sum(1 for x in c if x >= 3)
    pairs = sum(1 for x in c if x == 2)
    m = min(trips, need)
    pairs += trips - m
    e = 1 if pairs else 0
    t = min(pairs - e, need - m)
    return 2 * need - 2 * m - t - e


def _gates_reference(c, melds):
    done = set()
    for m in melds:
        g = next(i for i, (a, b) in enumerate(_GATES) if a <= m.tile < b)
        if g in done:
            return _DEAD
        done.add(g)
    sets, pairs = {}, {}
    for g, (a, b) in enumerate(_GATES):
        if g in done:
            continue
        part = [int(x) for x in c[a:b]]
        sp = pp = 0
        for i, n in enumerate(part):
            if not n:
                continue
            pp = max(pp, 2 if n >= 2 else 1)
            sp = max(sp, 3 if n >= 3 else 2 if n == 2 else 1)
            if g < 3:
                near = (i + 1 < 9 and part[i + 1]), (i + 2 < 9 and part[i + 2])
                if near[0] and near[1]:
                    sp = 3
                elif near[0] or near[1]:
                    sp = max(sp, 2)
        sets[g], pairs[g] = sp, pp
    if not sets:
        return _DEAD
    return min(sum(3 - sets[r] for r in sets if r != p) + 2 - pairs[p] for p in sets) - 1


def _chows_reference(c, targets, melds, avail):
    left, other = list(targets), 0
    for m in melds:
        if m.kind == "chow" and m.tile in left:
            left.remove(m.tile)
        elif m.kind == "chow":
            return _DEAD
        else:
            other += 1
    if other > 1:
        return _DEAD
    need = [0] * 34
    for a in left:
        for t in (a, a + 1, a + 2):
            need[t] += 1
    used, rest = 0, []
    for k in range(34):
        u = min(int(c[k]), need[k])
        if need[k] - u > int(avail[k]) - int(c[k]):
            return _DEAD                 # a missing tile with no copy left
        rest.append(int(c[k]) - u)
        used += u
    return 3 * (4 - len(melds)) + 2 - used - _rest_prog_reference(rest, other == 0) - 1


def _plan_reference(plan, c, melds, so, avail):
    from majiang._core import game as _cg
    if plan.kind == "suit":
        if any(not plan.data[m.tile] for m in melds):
            return _DEAD
        caps = np.where(plan.data, 4, 0).astype(np.uint8)
        pso = _cg.ShapeOpts(so.mask, so.quads, caps, so.pair_mask, so.void_suits, so.fifth)
        return int(_cg.shanten(c, pso, 0))
    if plan.kind == "form":
        if melds:
            return _DEAD
        pso = _cg.ShapeOpts(plan.data, so.quads, None, so.pair_mask, so.void_suits, so.fifth)
        return int(_cg.shanten(c, pso, 0))
    if plan.kind == "gates":
        return _gates_reference(c, melds)
    if plan.kind == "dragons":
        return _dragons_reference(c, melds, plan.data, avail)
    if plan.kind == "pairs":
        return _pairs_reference(c, melds, plan.data)
    if plan.kind == "pungs":
        return _pungs_reference(c, melds)
    return _chows_reference(c, plan.data, melds, avail)


def _random_plan_hand(rng, honors=True):
    """A random hand with 0-3 melds (concealed counts ``uint8 (34,)``, 3n+1 or 3n+2
    tiles), its melds and the copies not seen outside it (``int64 (34,)``)."""
    kinds = 34 if honors else 27
    left = np.zeros(34, np.int64)
    left[:kinds] = 4
    melds = []
    for _ in range(int(rng.integers(0, 4))):
        for _ in range(20):
            r = rng.random()
            if r < 0.45:
                s, rank = int(rng.integers(3)), int(rng.integers(7))
                m = Meld("chow", 9 * s + rank)
            else:
                m = Meld("pung" if r < 0.85 else "kong", int(rng.integers(kinds)))
            need = np.bincount(list(m.tiles), minlength=34)
            if (need <= left).all():
                left -= need
                melds.append(m)
                break
    n = 14 - 3 * len(melds) - int(rng.integers(0, 2))
    pool = np.repeat(np.arange(34), left)
    c = np.bincount(rng.choice(pool, n, replace=False), minlength=34)
    left -= c
    seen = np.array([rng.integers(0, x + 1) if x else 0 for x in left], np.int64)
    avail = (left - seen + c).astype(np.int64)       # 4 - seen - own melds' tiles
    return c.astype(np.uint8), tuple(melds), avail


@pytest.mark.parametrize("ruleset", ["mcr", "sichuan", "guangdong"])
def test_compiled_plan_distances_equal_the_written_rules(ruleset):
    from majiang._core import game as _cg
    from majiang.game.expert_plans import _plan_set
    model = game_model(ruleset)
    plans, ps = _plan_set(model)
    honors = bool(np.asarray(model.shape(()).caps)[27:].any())
    rng = np.random.default_rng(19)
    out = np.empty(len(plans))
    alive = 0
    for _ in range(400 if ruleset == "mcr" else 150):
        c, melds, avail = _random_plan_hand(rng, honors)
        so = model.shape(melds).game_opts(0)
        sh = _cg.plan_values(ps, c, so, 0, melds, avail, out)
        assert sh == _cg.shanten(c, so, 0)
        want = [_plan_reference(p, c, melds, so, avail) for p in plans]
        for p, w, got in zip(plans, want, out):
            assert got == (np.inf if w >= _DEAD else w + p.weight), (p, c, melds)
        alive += sum(w < _DEAD for w in want)
        # the least over some plans for each discard (the general plan weighing 1)
        sub = rng.choice(len(plans), min(5, len(plans)), replace=False).astype(np.int64)
        xs = np.flatnonzero(c).astype(np.int64)
        mins = np.empty(len(xs))
        _cg.plan_minima(ps, c, so, 0, 1.0, melds, avail, sub, xs, mins)
        for x, got in zip(xs, mins):
            c[x] -= 1
            ds = [_plan_reference(plans[i], c, melds, so, avail) for i in sub]
            want = min([_cg.shanten(c, so, 0) + 1.0] + [d + plans[i].weight
                                                        for i, d in zip(sub, ds) if d < _DEAD])
            c[x] += 1
            assert got == want
    assert alive > 100


def test_compiled_plan_kernels_check_their_inputs():
    from majiang._core import game as _cg
    from majiang.game.expert_plans import _plan_set
    model = game_model("mcr")
    _, ps = _plan_set(model)
    so = model.shape(()).game_opts(0)
    c = np.zeros(34, np.uint8)
    c[:13] = 1
    avail = np.full(34, 4, np.int64)
    out = np.empty(len(ps))
    with pytest.raises(ValueError):
        _cg.plan_values(ps, np.zeros(33, np.uint8), so, 0, (), avail, out)
    bad = c.copy()
    bad[0] = 5
    with pytest.raises(ValueError):
        _cg.plan_values(ps, bad, so, 0, (), avail, out)
    with pytest.raises(ValueError):
        _cg.plan_values(ps, c, so, 0, (), avail, np.empty(3))
    one = np.empty(1)
    with pytest.raises(ValueError):        # kind 20 is not held
        _cg.plan_minima(ps, c, so, 0, 1.0, (), avail, np.zeros(1, np.int64),
                        np.array([20], np.int64), one)
    with pytest.raises(ValueError):        # no such plan
        _cg.plan_minima(ps, c, so, 0, 1.0, (), avail, np.array([len(ps)], np.int64),
                        np.array([0], np.int64), one)
    with pytest.raises(ValueError):
        _cg.PlanSet([("chows", (7, 8, 9), 0.0)])
    with pytest.raises(ValueError):
        _cg.PlanSet([("spiral", None, 0.0)])


def test_compiled_discard_evaluation_equals_one_hand_at_a_time():
    # evaluate_discards: the shanten and live ukeire of the hand after each allowed
    # discard, as evaluate() of that hand (the expert's candidates)
    from majiang._core import game as _cg
    rng = np.random.default_rng(7)
    for ruleset in ("mcr", "sichuan"):
        model = game_model(ruleset)
        so = model.shape(()).game_opts(0)
        for _ in range(150):
            c = np.bincount(rng.choice(136, 14, replace=False) // 4, minlength=34)
            c = c.astype(np.uint8)
            vis = rng.integers(0, 2, 34).astype(np.uint8)
            allowed = (rng.random(34) < 0.8).astype(np.uint8)
            sh, uk = np.empty(34, np.int64), np.empty(34, np.int64)
            n = _cg.evaluate_discards(c, so, 0, vis, allowed, sh, uk)
            want = {}
            for x in range(34):
                if c[x] and allowed[x]:
                    c[x] -= 1
                    want[x] = _cg.evaluate(c, so, 0, vis)
                    c[x] += 1
            assert n == len(want)
            assert {x: (int(sh[x]), int(uk[x])) for x in range(34) if sh[x] != -2} == want
            s_only = np.empty(34, np.int64)
            assert _cg.evaluate_discards(c, so, 0, vis, allowed, s_only, uk, False) == n
            assert np.array_equal(s_only, sh)
    with pytest.raises(ValueError):
        _cg.evaluate_discards(np.zeros(33, np.uint8), so, 0, vis, allowed, sh, uk)


def test_expert_keeps_the_wait_whose_copies_are_likelier_to_come(monkeypatch):
    # mcr_botzone, 8 tiles left in the walls (2 a seat).  123456789m 234s + 7z 5p: either
    # single keeps a ready 清龙 on the other (单钓).  One unseen copy of each: 7z (seats 1
    # and 2 threw one each), 5p (seat 0 threw one, seat 3 shows 456p).  By hand with the
    # densities of ExpertPlayer.reach (honours 0.8, 0.2 when the holder threw the kind;
    # inner tiles 1.1), opponents holding 13, 13 and 10 tiles:
    #   7z: 13*0.2 + 13*0.2 + 10*0.8 = 13.2, P(in a wall) = 8 / 21.2 = 0.377;
    #       reaches the seat with 0.377/4 + 0.377*3/4*0.7 + 0.623*0.1 = 0.355
    #   5p: 36*1.1 = 39.6, P(in a wall) = 8 / 47.6 = 0.168;
    #       0.168/4 + 0.168*3/4*0.7 + 0.832*0.1 = 0.213
    # so 7z is kept (5p thrown); counting copies alone (1 each) ties, and the tie throws
    # the honour first.
    from majiang.game import expert
    v = _position("mcr_botzone", "123456789m234s5p7z", discards={0: "5p", 1: "7z", 2: "7z"},
                  opp_melds={3: [Meld("chow", parse_tile("4p"))]})
    st = v._st
    st.seat_next = [lo + 1 for lo in st.seat_low]
    assert v.wall_left == 8
    own, others = ExpertPlayer.reach(v)
    z7, p5 = parse_tile("7z"), parse_tile("5p")
    assert own[z7] + others[z7] == pytest.approx(0.355, abs=1e-3)
    assert own[p5] + others[p5] == pytest.approx(0.213, abs=1e-3)
    assert ExpertPlayer().discard(v) == p5
    monkeypatch.setattr(expert, "REACH", False)
    assert ExpertPlayer().discard(v) == z7

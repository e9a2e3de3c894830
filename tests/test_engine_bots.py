"""The efficiency bot under rulesets whose wins need more than a complete shape, and the
one reading of "ready" at the end of a hand (查大叫 / 退税 / 查叫 / 豆 collected by ready
players).

Bot: under a ruleset where THE predicate refuses some complete shapes (a minimum fan or
points, 八枝, a 2-5-8 pair for a small win ...; :func:`min_aware` reads it from the
ruleset's fields), the bot keeps a tenpai whose waits THE predicate accepts, and leaves
a tenpai none of whose waits can ever win.  Checked on constructed deals by brute force
over every tile with THE predicate, and both loops play the same hands.

Readiness (docs/rules/sichuan.md §8): ready = some tile the seat can still draw completes
a valid win judged as a self-draw (a wait whose every copy the seat holds itself is no
wait); value = the largest value over the waits, each as a win on a discard where THE
predicate allows one, else as the self-draw.  Expected payments are worked by hand from
the readings.
"""
from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from majiang import rules
from majiang._core import game as cg
from majiang.game import engine, play_hand, players, summarize
from majiang.game.engine import _Readiness, end_checks, end_table, min_aware
from majiang.hand import Hand
from majiang.rules.model import game_model
from majiang.scoring import check_win
from majiang.tiles import as_counts, parse_tiles
from _engine_helpers import build_test_wall

_ALL = (1 << 34) - 1


def _bot_opts(name):
    """The shape options the bot plays by (the engine's strict options, no melds)."""
    model = game_model(name)
    sh = model.shape(())
    return cg.ShapeOpts(sh.mask, sh.quads, None, sh.pair_mask & _ALL, 0, False,
                        np.array(sh.caps, dtype=np.uint8))


def _valid_waits(name, after):
    """Brute force: every kind of the set that completes ``after`` into a valid win
    under THE predicate as a self-draw."""
    m = game_model(name)
    return [w for w in range(34) if m.copies[w] and after[w] < 4 and check_win(
        Hand(after.copy(), ()), w, ruleset=name, self_drawn=True).valid]


def _tenpai_discards(name, hand):
    so = _bot_opts(name)
    out = []
    for x in np.flatnonzero(hand):
        after = hand.copy()
        after[x] -= 1
        if cg.shanten(after, so, 0) == 0:
            out.append(int(x))
    return out


def _bot_first_discard(name, text):
    """The dealer bot's first discard from ``text`` (both loops; their summaries equal)."""
    wall = build_test_wall(name, [text])
    st = play_hand(name, "efficiency", wall=wall, dealer=0, log=True, engine="python")
    first = next(e for e in st.events if e["e"] in ("discard", "declare") and e["seat"] == 0)
    assert first["e"] == "discard"
    b = play_hand(name, "efficiency", wall=wall, dealer=0, engine="compiled")
    assert summarize(b) == summarize(st)
    return first["tile"]


# ---------------------------------------------------------------- which rulesets
def test_min_aware_reads_the_ruleset_fields():
    for name in ("mcr", "hefei", "changsha", "shenyang", "luoshan", "tianjin", "wenzhou"):
        assert min_aware(game_model(name)), name
    for name in ("sichuan", "guangdong", "guangdong_jipinghu", "shandong", "taiwan"):
        assert not min_aware(game_model(name)), name
    # the same facts switched by their fields, no ruleset named in the bot
    assert not min_aware(game_model(replace(rules.get("mcr"), name="mcr0", min_fan=0)))
    assert min_aware(game_model(replace(rules.get("guangdong"), name="gd3", min_fan=3)))
    assert not min_aware(game_model(rules.BUILDERS["luoshan"](min_self=0, min_discard=0)))
    assert min_aware(game_model(rules.BUILDERS["hefei"](jiang_258=False)))    # 八枝 alone


# ---------------------------------------------------------------- the bot's discards
def test_hefei_bot_keeps_a_wait_that_can_win():
    # 2667788m3678p567s: the plain choice (most live waits) discards 2m and waits on 3p
    # with 6 万, 4 筒, 3 条: no suit reaches 8 (八枝), so no wait can win; discarding 3p
    # waits on 2m with 8 万 and a 2-5-8 pair
    text = "2667788m3678p567s"
    c = as_counts(text)
    plain, s0, _ = cg.choose_discard(c, _bot_opts("hefei"), 0, np.zeros(34, dtype=np.uint8))
    after = c.copy()
    after[plain] -= 1
    assert s0 == 0 and _valid_waits("hefei", after) == []       # the test can fail
    k = _bot_first_discard("hefei", text)
    after = c.copy()
    after[k] -= 1
    assert cg.shanten(after, _bot_opts("hefei"), 0) == 0 and _valid_waits("hefei", after)


def test_hefei_bot_leaves_a_tenpai_that_can_never_win():
    # 12399m2348p23567s: every tenpai discard leaves waits THE predicate refuses (no
    # suit of 8); the bot keeps a 1-shanten shape instead
    text = "12399m2348p23567s"
    c = as_counts(text)
    tenpai = _tenpai_discards("hefei", c)
    assert tenpai
    for x in tenpai:
        after = c.copy()
        after[x] -= 1
        assert _valid_waits("hefei", after) == []
    k = _bot_first_discard("hefei", text)
    assert k not in tenpai
    after = c.copy()
    after[k] -= 1
    assert cg.shanten(after, _bot_opts("hefei"), 0) == 1


def _winning_draws(name, after):
    """Brute force: copies left (the set less ``after``) of the draws that give the 3n+1
    hand ``after`` a discard after which some tile completes a shape of the bot's
    options into a win THE predicate accepts."""
    m = game_model(name)
    so = _bot_opts(name)
    total = 0
    for t in range(34):
        if not m.copies[t] or after[t] >= m.copies[t]:
            continue
        h = after.copy()
        h[t] += 1
        ok = False
        for y in np.flatnonzero(h):
            h2 = h.copy()
            h2[y] -= 1
            for w in range(34):
                if h2[w] >= m.copies[w]:
                    continue
                h3 = h2.copy()
                h3[w] += 1
                if cg.shanten(h3, so, 0) == -1 and check_win(
                        Hand(h2.copy(), ()), w, ruleset=name, self_drawn=True).valid:
                    ok = True
                    break
            if ok:
                break
        if ok:
            total += int(m.copies[t]) - int(after[t])
    return total


def test_hefei_bot_steps_back_toward_a_wait_that_can_win(monkeypatch):
    # with players.LOOKAHEAD (off by default: it costs 5-12x the time of a hand)
    # 257m45666789p678s: no tenpai discard can win (no suit of 8 with a 2-5-8 pair);
    # among the discards that leave tenpai, the bot keeps the one with the most draws
    # toward a winning tenpai, which is not the plain best shape
    monkeypatch.setattr(players, "LOOKAHEAD", True)
    text = "257m45666789p678s"
    c = as_counts(text)
    so = _bot_opts("hefei")
    tenpai = _tenpai_discards("hefei", c)
    for x in tenpai:
        after = c.copy()
        after[x] -= 1
        assert _valid_waits("hefei", after) == []
    draws = {}
    for x in np.flatnonzero(c):
        if int(x) in tenpai:
            continue
        after = c.copy()
        after[x] -= 1
        if cg.shanten(after, so, 0) == 1:
            draws[int(x)] = _winning_draws("hefei", after)
    allowed = np.array([1 if c[x] and x not in tenpai else 0 for x in range(34)],
                       dtype=np.uint8)
    plain, _, _ = cg.choose_discard(c, so, 0, np.zeros(34, dtype=np.uint8), -1, allowed)
    assert draws[int(plain)] < max(draws.values())              # the test can fail
    k = _bot_first_discard("hefei", text)
    assert draws[k] == max(draws.values())


@pytest.mark.parametrize("name,switches", [
    ("hefei", False), ("changsha", False), ("luoshan", False), ("shenyang", False),
    ("mcr", False), ("hefei", True), ("wuhan", True)])
def test_loops_agree_under_win_conditions(name, switches, monkeypatch):
    # the compiled loop and the Python loop make the same choices, also with the bot's
    # switches on (waits weighed while jokers are held, the step back that looks ahead)
    if switches:
        monkeypatch.setattr(players, "AWARE_JOKERS", True)
        monkeypatch.setattr(players, "LOOKAHEAD", True)
        monkeypatch.setattr(engine.fast, "_FLAGS", {})
    for h in range(12 if name not in ("luoshan", "wuhan") else 6):
        a = play_hand(name, "efficiency", seed=21, hand=h, engine="compiled")
        b = play_hand(name, "efficiency", seed=21, hand=h, engine="python")
        assert summarize(a) == summarize(b), (name, h)


def test_switches_are_read_for_each_hand(monkeypatch):
    # a switch turned on after the compiled loop has played (and kept its flags for the
    # model) takes effect in both loops alike
    for h in (1, 2):
        off = summarize(play_hand("wuhan", "efficiency", seed=21, hand=h, engine="compiled"))
        monkeypatch.setattr(players, "AWARE_JOKERS", True)
        a = summarize(play_hand("wuhan", "efficiency", seed=21, hand=h, engine="compiled"))
        b = summarize(play_hand("wuhan", "efficiency", seed=21, hand=h, engine="python"))
        assert a != off, h                    # the switch matters in this hand
        assert a == b, h
        monkeypatch.setattr(players, "AWARE_JOKERS", False)


@pytest.mark.parametrize("name,h", [("mcr", 23), ("mcr", 28), ("hefei", 16)])
def test_loops_agree_when_dead_waits_also_step_back(name, h, monkeypatch):
    # players.STEP_BACK with -1 (the measured variant: also leave a tenpai whose valid
    # waits are all dead) reaches the compiled loop as its step_back bits
    plain = summarize(play_hand(name, "efficiency", seed=21, hand=h, engine="compiled"))
    monkeypatch.setattr(players, "STEP_BACK", (-1, players.NO_VALID_WAIT))
    a = summarize(play_hand(name, "efficiency", seed=21, hand=h, engine="compiled"))
    b = summarize(play_hand(name, "efficiency", seed=21, hand=h, engine="python"))
    assert a != plain                         # the variant matters in this hand
    assert a == b


# ---------------------------------------------------------------- readiness
def _state(rs, hands, melds=None, wins=()):
    melds = melds or {}
    seats = [SimpleNamespace(phys=as_counts(t), melds=melds.get(q, []), discards=[],
                             won_tiles=[]) for q, t in enumerate(hands)]
    return SimpleNamespace(rs=rs, wins=list(wins), seats=seats, n=len(hands), dealer=0,
                           prevalent=0, end_reason="wall", deltas=[0] * len(hands),
                           wall_left=0, head=0, tail=-1, wall=np.zeros(0, dtype=np.int16))


def test_chadajiao_reading_exhausted_wait_and_discard_value():
    # 四川 with 自摸加番 (docs/rules/sichuan.md §6-8, BY/ST), nobody won, the wall is out:
    #  seat 0: concealed kong 2222m + 13m456789p11p: its only shape wait is 2m, whose
    #          four copies are in its own kong -> not ready;
    #  seat 1: 123456789p1234s waits 1s / 4s -> ready; 平胡 0 番 = 1 on a discard (the
    #          查大叫 value); as a self-draw 自摸 adds 1 番 -> 2 (left out, ST);
    #  seats 2, 3: scattered, two suits each -> not ready, no 花猪.
    # 查大叫: seats 0, 2, 3 each pay seat 1 its value 1.
    rs = rules.BUILDERS["sichuan"](self_draw="double")
    kong = {"kind": "kong", "tile": 1, "concealed": True, "tiles": [1] * 4}
    st = _state(rs, ["13m456789p11p", "123456789p1234s", "13579m13579p258p",
                     "4468m4468s13579s"], {0: [kong]})
    # preconditions (the test can fail): a shape wait on 2m; the two values differ
    w = np.zeros(34, dtype=np.uint8)
    so = cg.ShapeOpts(1 | 2, False, None, _ALL, 0, False)
    cg.waits(as_counts("13m456789p11p"), so, 0, w)
    assert list(np.flatnonzero(w)) == [1]
    h1 = Hand(as_counts("123456789p1234s"), ())
    assert check_win(h1, parse_tiles("4s")[0], ruleset=rs, self_drawn=True).result.points == 2
    assert check_win(h1, parse_tiles("4s")[0], ruleset=rs, self_drawn=False).result.points == 1
    got = [(c["check"], c["payer"], c["payee"], c["amount"]) for c in end_checks(st)]
    assert got == [("查大叫", 0, 1, 1), ("查大叫", 2, 1, 1), ("查大叫", 3, 1, 1)]
    assert st.deltas == [-1, 3, -1, -1]
    # the end table reads the same helper
    tb = end_table(st)
    assert tb.ready == (False, True, False, False) and tb.values == (None, 1, None, None)


def test_readiness_by_self_draw_when_a_discard_win_is_barred():
    # 贵州 (docs/rules/guizhou.md): a 平胡 (1) with no 豆 may not win on a discard
    # (通行证) but may self-draw -> ready, worth 1; 查叫 at the drawn end: each player not
    # ready pays seat 1 that 1
    rs = rules.get("guizhou")
    st = _state(rs, ["13579m13579p258p", "123456789p1234s", "2468m2468m13579s",
                     "4468m4468s13579s"])
    h1 = Hand(as_counts("123456789p1234s"), ())
    assert not check_win(h1, parse_tiles("4s")[0], ruleset=rs, self_drawn=False).valid
    r = _Readiness(st)
    assert [r.ready(q) for q in range(4)] == [False, True, False, False]
    assert r.value(1) == 1
    got = [(c["check"], c["payer"], c["payee"], c["amount"]) for c in end_checks(st)
           if c["check"] == "查叫"]
    assert sorted(got) == [("查叫", 0, 1, 1), ("查叫", 2, 1, 1), ("查叫", 3, 1, 1)]

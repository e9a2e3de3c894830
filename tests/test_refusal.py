"""scoring.refusal: a hand :func:`sure_refusal` refuses is refused by THE predicate
(check_win), and the game loops play the same hands with it and without it.

Hand-built cases follow the 武汉 reading (docs/rules/wuhan.md): a 屁胡 needs a 2/5/8 pair and
at most one 赖子; a 大胡 (清一色, 将一色, 风一色, 碰碰胡, 全求人, 杠上开花, 海底捞月, 抢杠胡)
any pair and any 赖子; no 红中 or 痞子 held.
"""
import numpy as np
import pytest

from majiang.game import play_hand
from majiang.hand import Hand, Meld, as_hand
from majiang.rules import get
from majiang.rules.derived import with_indicator
from majiang.scoring import check_win, refusal
from majiang.scoring.refusal import refusal_of, sure_refusal


def _sure(hand, win, rs="wuhan", jokers=0, **kw):
    h = as_hand(hand, strict=False)
    return sure_refusal(get(rs) if isinstance(rs, str) else rs, h.concealed, h.melds, win,
                        jokers=jokers + h.jokers, **kw)


def test_served_rulesets():
    assert refusal_of(get("wuhan")) is not None
    assert refusal_of(with_indicator("wuhan", "9p")) is not None
    assert refusal_of(get("mcr")) is None          # a minimum of 8 fan: always asked
    assert refusal_of(get("sichuan")) is None
    assert refusal_of(get("xian")) is None          # every complete shape wins


@pytest.mark.parametrize("hand, win, jokers, ctx, refused", [
    # 屁胡: 5s pair, no 赖子 -> a win, never refused here
    ("234m567m789p5s [111s]", 22, 0, {}, False),
    # two 赖子 (** = 789p or 777p), chows, three suits: no 大胡 possible -> refused
    ("234m567m7p5s** [111s]", 22, 0, {}, True),
    # ... unless the win is on a kong's replacement tile (杠上开花) or the last tile (海底)
    ("234m567m7p5s** [111s]", 22, 0, {"kong": True, "self_drawn": True}, False),
    ("234m567m7p5s** [111s]", 22, 0, {"last_tile": True}, False),
    # 碰碰胡 possible with the two 赖子 (** = 777p): asked (a 大胡 win)
    ("222m555p7p5s** [111s]", 22, 0, {}, False),
    # no 2/5/8 pair (3s pair), no 大胡 -> refused
    ("234m567m789p3s [111s]", 20, 0, {}, True),
    # 红中 held (the pair) -> refused
    ("234m567m789p7z [111s]", 33, 0, {}, True),
    # 清一色 possible (every tile 万) with a 3m pair: asked (a 大胡 win)
    ("234m567m789m3m [111m]", 2, 0, {}, False),
    # 全求人: one tile left, won on a discard: asked; self-drawn it is a 屁胡 at best (3s: no)
    ("3s [123m] [456m] [789p] [111s]", 20, 0, {}, False),
    ("3s [123m] [456m] [789p] [111s]", 20, 0, {"self_drawn": True}, True),
])
def test_hand_built(hand, win, jokers, ctx, refused):
    assert _sure(hand, win, jokers=jokers, **ctx) is refused
    kw = {"self_drawn": False, **ctx}
    h = as_hand(hand, strict=False)
    v = check_win(h, win, ruleset="wuhan", jokers=jokers, **kw).valid
    if refused:
        assert not v
    # the hand-built wins (大胡 / 屁胡 cases above that are asked) are wins
    if not refused and hand != "3s [123m] [456m] [789p] [111s]":
        assert v


def test_pizi_held_is_refused():
    rs = with_indicator("wuhan", "9p")
    assert _sure("234m567m789p5s [111s]", 22, rs=rs)
    assert not _sure("234m567m789p5s [111s]", 22, rs=with_indicator("wuhan", "1z"))


def _random_complete(rng):
    """A random 武汉 14-tile complete shape (sets + pair), some tiles turned into jokers,
    some sets claimed: (concealed before the win, melds text, win kind, jokers)."""
    counts = np.zeros(34, int)
    sets = []
    suits = rng.choice([1, 1, 2, 3])
    pool = sorted(rng.choice(3, size=suits, replace=False).tolist())
    honors = rng.random() < 0.3
    while len(sets) < 4:
        if honors and rng.random() < 0.3:
            k = int(rng.integers(27, 34))
            kind = "pung"
        else:
            s = int(rng.choice(pool))
            kind = "pung" if rng.random() < 0.4 else "chow"
            k = 9 * s + int(rng.integers(0, 9 if kind == "pung" else 7))
        tiles = [k] * 3 if kind == "pung" else [k, k + 1, k + 2]
        if any(counts[t] + tiles.count(t) > 4 for t in tiles):
            continue
        for t in tiles:
            counts[t] += 1
        sets.append((kind, k, tiles))
    while True:
        p = int(rng.integers(0, 34)) if rng.random() < 0.3 else 9 * int(rng.choice(pool)) + int(
            rng.integers(0, 9))
        if counts[p] <= 2:
            counts[p] += 2
            break
    n_melds = int(rng.integers(1, 4)) if rng.random() < 0.9 else 0
    melds = []
    for kind, k, tiles in sets[:n_melds]:
        for t in tiles:
            counts[t] -= 1
        melds.append(Meld(kind, k, False))
    conc = np.flatnonzero(counts)
    win = int(rng.choice(conc))
    counts[win] -= 1
    jokers = 0
    for _ in range(int(rng.choice([0, 0, 1, 1, 2, 3]))):
        held = np.flatnonzero(counts)
        if held.size:
            counts[int(rng.choice(held))] -= 1
            jokers += 1
    return counts, tuple(melds), win, jokers


def test_random_hands_never_refused_wrongly():
    rng = np.random.default_rng(20)
    fired = refused_by_predicate = 0
    for i in range(700):
        counts, melds, win, jokers = _random_complete(rng)
        rs = with_indicator("wuhan", int(rng.integers(0, 34))) if i % 3 == 0 else get("wuhan")
        ms = melds
        h = Hand(counts.astype(np.uint8), ms, jokers=jokers)
        ctx = {"self_drawn": bool(rng.random() < 0.5), "last_tile": bool(rng.random() < 0.05),
               "kong": bool(rng.random() < 0.05)}
        wij = bool(rng.random() < 0.15)       # the winning draw is a joker instead
        sure = sure_refusal(rs, h.concealed, ms, None if wij else win, jokers=jokers,
                            win_is_joker=wij, **ctx)
        v = check_win(h, None if wij else win, ruleset=rs, win_is_joker=wij, **ctx).valid
        assert not (sure and v), (counts.tolist(), melds, win, jokers, ctx, wij)
        fired += sure
        refused_by_predicate += not v
    # the quick check answers most refusals (its point), and some wins exist
    assert fired >= refused_by_predicate // 2
    assert refused_by_predicate < 700


@pytest.mark.parametrize("log", [False, True])       # compiled loop / Python loop
@pytest.mark.parametrize("players", ["efficiency", "random"])
def test_game_tables_same_with_and_without(monkeypatch, log, players):
    def table():
        out = []
        for i in range(25):
            st = play_hand("wuhan", [players] * 4, seed=5, hand=i, log=log)
            out.append((tuple((w["seat"], w["tile"], w["how"], tuple(w["deltas"]))
                              for w in st.wins), tuple(st.deltas), st.draws, st.wall_left))
        return out
    fast = table()
    monkeypatch.setattr(refusal, "QUICK", False)
    assert table() == fast

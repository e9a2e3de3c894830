"""The compiled minimum-fan verdict (:func:`majiang.scoring.kernel.win_verdict`, asked by
the probability kernels without the GIL) against :func:`majiang.check_win`, and the
per-thread memo of the shanten programme's rows against the programme itself."""
from __future__ import annotations

import numpy as np
import pytest

import majiang
from majiang import check_win
from majiang._core import efficiency as _eff
from majiang._core import probability as _prob
from majiang.hand import Hand, Meld
from majiang.scoring.kernel import win_verdict


def _random_win(rng):
    """A random 14-tile winning shape as (before uint8 (34,), melds, win kind), or None
    when a kind would pass 4 copies: 0-3 melds (chow / pung / kong, some concealed
    kongs), concealed chows and pungs (honour pungs too) and a pair, or seven pairs."""
    c = np.zeros(34, np.int64)
    melds = []
    if rng.random() < 0.1:
        for k in rng.choice(34, 7, replace=False):
            c[k] += 2
    else:
        n_melds = int(rng.integers(0, 4))
        for i in range(4):
            honour = rng.random() < 0.2
            k = int(rng.integers(27, 34)) if honour else int(rng.integers(27))
            chow = not honour and k % 9 <= 6 and rng.random() < 0.6
            if i < n_melds:
                if chow:
                    melds.append(Meld("chow", k, False))
                else:
                    kong = rng.random() < 0.25
                    melds.append(Meld("kong" if kong else "pung", k,
                                      bool(kong and rng.random() < 0.5)))
            else:
                if chow:
                    c[k:k + 3] += 1
                else:
                    c[k] += 3
        c[int(rng.integers(34))] += 2
    if _over(c, melds):
        return None
    win = int(rng.choice(np.flatnonzero(c)))
    before = c.copy()
    before[win] -= 1
    return before.astype(np.uint8), tuple(melds), win


def _over(c, melds) -> bool:
    total = c.copy()
    for m in melds:
        if m.kind == "chow":
            total[m.tile:m.tile + 3] += 1
        else:
            total[m.tile] += 4 if m.kind == "kong" else 3
    return bool(total.max() > 4)


@pytest.mark.parametrize("ruleset", ["mcr", "mcr_botzone"])
def test_verdict_equals_check_win_on_random_hands(ruleset):
    rng = np.random.default_rng(11)
    seen = {0: 0, 1: 0}
    n = 0
    while n < 1500:
        got = _random_win(rng)
        if got is None:
            continue
        before, melds, win = got
        if rng.random() < 0.3:        # one tile swapped: mostly not a winning hand
            held = np.flatnonzero(before)
            before = before.copy()
            before[int(rng.choice(held))] -= 1
            k = int(rng.integers(34))
            before[k] += 1
            if _over(before.astype(np.int64) + np.eye(34, dtype=np.int64)[win], melds):
                continue
        seat, prev = int(rng.integers(4)), int(rng.integers(4))
        v = win_verdict(ruleset, melds, seat, prev)
        assert v is not None
        for self_drawn in (True, False):
            hand = Hand(before, melds)
            try:
                want = check_win(hand, win, ruleset=ruleset, self_drawn=self_drawn,
                                 seat_wind=seat, prevalent_wind=prev).valid
            except majiang.MahjongError:
                assert v(before, win, self_drawn) == -1
                continue
            got_v = v(before, win, self_drawn)
            assert got_v == int(want), (ruleset, before, melds, win, self_drawn)
            seen[got_v] += 1
        n += 1
    assert seen[1] > 300 and seen[0] > 300      # both verdicts are exercised


def test_verdict_is_only_offered_where_it_is_the_rulesets():
    assert win_verdict("mcr") is not None
    assert win_verdict("sichuan") is None       # regional scorer
    assert win_verdict("anqing") is None        # jokers
    with pytest.raises(majiang.RuleError):
        win_verdict("mcr", (), seat_wind="X")


def test_verdict_refuses_what_the_kernel_cannot_judge():
    v = win_verdict("mcr")
    before = np.zeros(34, np.uint8)
    before[0] = 4
    assert v(before, 0) == -1                   # a fifth copy: the reference raises
    assert v(before, 34) == -1


def test_kernel_predicate_gives_the_same_probabilities():
    """The probability kernels ask the compiled verdict; with it taken away (every
    query to Python's check_win) the exact results are the same numbers."""
    from majiang.probability import engine as E
    hand = "125678m4459p345s2z"
    fast = majiang.discard_probabilities(hand, 6, ruleset="mcr")
    orig = E._Engine.__init__

    def no_kernel(self, pos, *a, **kw):
        if pos.pred is not None:
            pos.pred.kernel_verdict = None
        orig(self, pos, *a, **kw)

    E._Engine.__init__ = no_kernel
    try:
        slow = majiang.discard_probabilities(hand, 6, ruleset="mcr")
    finally:
        E._Engine.__init__ = orig
    cols = ["p_win", "p_tenpai"]
    assert fast[cols].equals(slow[cols]) and fast["p_win"].max() > 0


def test_pred_uses_the_kernel_for_plain_hands():
    from majiang.probability.position import _position
    pos = _position("123m456p789s1122z", None, "mcr")
    p = _prob._Pred(pos.pred)
    g = _prob.Graph(pos.unseen, pos.caps, pos.mask, pos.quads, 0, 10**6, p)
    h = np.ascontiguousarray(pos.counts, dtype=np.uint8)
    g.solve(g.add_root(h, 0), h, 3, pos.U, 0)
    assert p.kernel_calls > 0 and p.calls == 0


def test_row_memo_equals_the_programme():
    """Capped shanten (the rows the tables do not hold) with the memo and without it."""
    _eff.build_tables()
    rng = np.random.default_rng(5)
    hands = []
    for _ in range(3000):
        h = np.bincount(rng.choice(136, 14, replace=False) // 4, minlength=34).astype(np.uint8)
        h[rng.choice(np.flatnonzero(h))] -= int(rng.random() < 0.5)
        caps = np.maximum(h, rng.integers(0, 5, 34)).astype(np.uint8)
        hands.append((h, caps, int(rng.choice([1, 3, 7, 31]))))
    try:
        _eff.row_memo(False)
        want = [_eff.shanten_one(h, m, False, c) for h, c, m in hands]
        _eff.row_memo(True)
        got = [_eff.shanten_one(h, m, False, c) for h, c, m in hands]
        again = [_eff.shanten_one(h, m, False, c) for h, c, m in hands]
    finally:
        _eff.row_memo(True)
    assert got == want == again
    n, hits, misses = _eff.row_memo()
    assert hits > 0 and misses > 0 and n > 0


def test_compiled_loop_bots_choose_as_the_bridge(monkeypatch):
    """The compiled loop's efficiency bots weigh their tenpai waits with the compiled verdict
    (pick_valid_wait's rule in C) and step back from a tenpai no wait of which wins in C
    (step_back without its look-ahead); with both taken away they ask the Python bridge:
    the same hands, decision for decision (Chinese Official, 8-fan minimum, flowers)."""
    import pandas as pd

    from majiang.game.engine import fast
    a = majiang.simulate("mcr", n_hands=120, players="efficiency", seed=9, n_jobs=1)
    assert fast._wait_verdict(majiang.rules.model.game_model("mcr"), 0) is not None
    switches = fast._bot_switches
    assert switches()["lookahead"] == 0
    monkeypatch.setattr(fast, "_wait_verdict", lambda model, prevalent: None)
    monkeypatch.setattr(fast, "_bot_switches", lambda: {**switches(), "lookahead": 1})
    b = majiang.simulate("mcr", n_hands=120, players="efficiency", seed=9, n_jobs=1)
    pd.testing.assert_frame_equal(a, b)
    assert sum(1 for w in a["winners"] if len(w)) > 30       # wins were weighed

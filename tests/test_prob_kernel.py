"""The compiled probability kernel (majiang._core.probability) against independent
computations.

* A pure-Python expectimax over the actual draws (the true wall: a tile drawn and
  thrown back leaves the wall; any discard after any draw) written here from the
  rules: a hand wins when it is complete under the stated constraint (checked by a
  decomposition written in this file), tenpai means one more tile (or joker)
  completes it.  Pruning uses the unconstrained shanten of ``majiang.shanten`` as
  a lower bound (a constraint only removes complete hands, so the constrained
  shanten is never lower): a state whose bound says it cannot succeed in the draws
  left has value 0.  The kernel's ``true_wall_solve`` must equal it to 1e-9.
* The closed form ``1 - C(U-k, T) / C(U, T)`` for a tenpai hand whose only sensible
  play is to keep its wait.
* Unrestricted >= restricted (changes 0, 1, 2); the unrestricted S1 graph equals the
  true wall at T = 1 (one draw: the two models coincide).
* Predicate errors and KeyboardInterrupt reach the caller as themselves.
"""
from __future__ import annotations

import math
import random
from functools import lru_cache

import numpy as np
import pytest

import majiang
from majiang._core import efficiency as _eff
from majiang._core import probability as _prob

_eff.build_tables()

WIN, TENPAI = 0, 1
JK = 34
REGULAR, SEVEN_PAIRS, ORPHANS = 1, 2, 4
ORPHAN_KINDS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
PAIR_258 = frozenset(s * 9 + r for s in range(3) for r in (1, 4, 7))


def counts(s: str) -> np.ndarray:
    return np.ascontiguousarray(majiang.parse_counts(s), dtype=np.uint8)


# ---------------------------------------------------------------------------
# Independent complete-hand check (real tiles + jokers), with constraints
# ---------------------------------------------------------------------------

class Rule:
    """What a complete hand must satisfy: ``forms`` (REGULAR/SEVEN_PAIRS/ORPHANS
    bits), ``caps`` copies per kind in the tile set, ``void`` (a suit must be
    empty, every form), ``pair_258`` (the pair of a regular hand is a 2, 5 or 8)."""

    def __init__(self, forms=REGULAR | SEVEN_PAIRS | ORPHANS, caps=(4,) * 34, void=False,
                 pair_258=False):
        self.forms, self.caps, self.void, self.pair_258 = forms, tuple(caps), void, pair_258


def _suit(k: int) -> int:
    return k // 9 if k < 27 else 3


def _regular(h: tuple, j: int, allowed: frozenset, caps: tuple, pair_ok) -> bool:
    """4 sets + a pair (sets = pungs or chows) from real counts ``h`` and ``j`` jokers;
    every tile (a joker stands for one) is of an allowed kind, within its caps."""
    h = list(h)
    virt = list(h)              # real + the kinds jokers stand for

    def room(k: int, n: int) -> bool:
        return k in allowed and virt[k] + n <= caps[k]

    def joker_groups(jl: int, pair_done: bool, sets: int) -> bool:
        # the jokers left form whole groups on their own
        if sets == 0 and pair_done:
            return jl == 0
        if not pair_done:
            for k in allowed:
                if pair_ok(k) and room(k, 2):
                    virt[k] += 2
                    ok = joker_groups(jl - 2, True, sets)
                    virt[k] -= 2
                    if ok:
                        return True
            return False
        for k in allowed:
            if room(k, 3):
                virt[k] += 3
                ok = joker_groups(jl - 3, True, sets - 1)
                virt[k] -= 3
                if ok:
                    return True
            if k < 27 and k % 9 <= 6 and all(room(k + x, 1) for x in range(3)):
                for x in range(3):
                    virt[k + x] += 1
                ok = joker_groups(jl - 3, True, sets - 1)
                for x in range(3):
                    virt[k + x] -= 1
                if ok:
                    return True
        return False

    def rec(jl: int, pair_done: bool, sets: int) -> bool:
        i = next((k for k in range(34) if h[k]), -1)
        if i < 0:
            return jl >= 0 and jl == 3 * sets + (0 if pair_done else 2) and \
                joker_groups(jl, pair_done, sets)
        if i not in allowed:
            return False
        c = h[i]
        # pair at i
        if not pair_done and pair_ok(i):
            take = min(c, 2)
            need = 2 - take
            if need <= jl and room(i, need):
                h[i] -= take
                virt[i] += need
                ok = rec(jl - need, True, sets)
                h[i] += take
                virt[i] -= need
                if ok:
                    return True
        if sets == 0:
            return False
        # pung at i
        take = min(c, 3)
        need = 3 - take
        if need <= jl and room(i, need):
            h[i] -= take
            virt[i] += need
            ok = rec(jl - need, pair_done, sets - 1)
            h[i] += take
            virt[i] -= need
            if ok:
                return True
        # chows holding i (kinds below i hold no real tile any more: jokers there)
        if i < 27:
            for start in (i - 2, i - 1, i):
                if start < 0 or _suit(start) != _suit(i) or start % 9 > 6:
                    continue
                others = [p for p in range(start, start + 3) if p != i]
                # each other position: a real tile if there is one (try both), else a joker
                opts = []
                for p in others:
                    o = []
                    if h[p] > 0 and p > i:
                        o.append(("real", p))
                    o.append(("joker", p))
                    opts.append(o)
                for a in opts[0]:
                    for b in opts[1]:
                        need = sum(1 for x in (a, b) if x[0] == "joker")
                        if need > jl:
                            continue
                        if not all(room(x[1], 1) for x in (a, b) if x[0] == "joker"):
                            continue
                        h[i] -= 1
                        for x in (a, b):
                            if x[0] == "real":
                                h[x[1]] -= 1
                            else:
                                virt[x[1]] += 1
                        ok = rec(jl - need, pair_done, sets - 1)
                        h[i] += 1
                        for x in (a, b):
                            if x[0] == "real":
                                h[x[1]] += 1
                            else:
                                virt[x[1]] -= 1
                        if ok:
                            return True
        return False

    n = sum(h) + j
    return n == 14 and rec(j, False, 4)


def _seven_pairs(h: tuple, j: int, allowed: frozenset, caps: tuple) -> bool:
    if sum(h) + j != 14 or any(c > 2 for c in h):
        return False
    if any(h[k] and k not in allowed for k in range(34)):
        return False
    held = [k for k in range(34) if h[k]]
    singles = sum(1 for k in held if h[k] == 1)
    if any(h[k] == 1 and caps[k] < 2 for k in held) or singles > j:
        return False
    extra = j - singles
    if extra % 2:
        return False
    free = [k for k in allowed if not h[k] and caps[k] >= 2]
    return len(held) + extra // 2 == 7 and extra // 2 <= len(free)


def _orphans(h: tuple, j: int) -> bool:
    if sum(h) + j != 14 or any(h[k] for k in range(34) if k not in ORPHAN_KINDS):
        return False
    missing = sum(1 for k in ORPHAN_KINDS if not h[k])
    pair = any(h[k] >= 2 for k in ORPHAN_KINDS)
    if any(h[k] > 2 for k in ORPHAN_KINDS) or sum(1 for k in ORPHAN_KINDS if h[k] == 2) > 1:
        return False
    return missing + (0 if pair else 1) == j


@lru_cache(maxsize=None)
def complete(h: tuple, j: int, rule: Rule) -> bool:
    suits = (0, 1, 2) if rule.void else (None,)
    for v in suits:
        allowed = frozenset(k for k in range(34) if rule.caps[k] > 0 and
                            (v is None or _suit(k) != v))
        if rule.forms & REGULAR:
            pair_ok = (lambda k: k in PAIR_258) if rule.pair_258 else (lambda k: True)
            if _regular(h, j, allowed, rule.caps, pair_ok):
                return True
        if rule.forms & SEVEN_PAIRS and _seven_pairs(h, j, allowed, rule.caps):
            return True
        if rule.forms & ORPHANS and v is None and _orphans(h, j):
            return True
    return False


@lru_cache(maxsize=None)
def tenpai(h: tuple, j: int, rule: Rule) -> bool:
    """One more tile completes the 13-tile hand (a joker stands for any tile)."""
    return complete(h, j + 1, rule)


_FORM_NAMES = {REGULAR: "regular", SEVEN_PAIRS: "seven_pairs", ORPHANS: "thirteen_orphans"}


@lru_cache(maxsize=None)
def lower_bound(h: tuple, j: int, forms: int) -> int:
    """Unconstrained shanten (a lower bound of the constrained one)."""
    names = [n for b, n in _FORM_NAMES.items() if forms & b]
    return majiang.shanten(np.array(h, dtype=np.uint8), forms=names, jokers=j,
                           joker_fifth_copy=True)


def brute_force(h0: np.ndarray, j0: int, wall35, T: int, objective: int, rule: Rule,
                joker_discard: bool = True) -> float:
    """Optimal probability of the event within T draws from the actual wall."""
    memo: dict = {}

    def value(h: tuple, j: int, wall: tuple, rem: int) -> float:
        if objective == TENPAI and lower_bound(h, j, rule.forms) <= 0 and tenpai(h, j, rule):
            return 1.0
        if lower_bound(h, j, rule.forms) + (1 if objective == WIN else 0) > rem:
            return 0.0
        if rem == 0:
            return 0.0
        key = (h, j, wall)
        if key in memo:
            return memo[key]
        W = sum(wall)
        total = 0.0
        for k in range(35):
            if not wall[k]:
                continue
            p = wall[k] / W
            w2 = wall[:k] + (wall[k] - 1,) + wall[k + 1:]
            if k < 34:
                h2, j2 = h[:k] + (h[k] + 1,) + h[k + 1:], j
            else:
                h2, j2 = h, j + 1
            lb = lower_bound(h2, j2, rule.forms)
            if lb == -1 and complete(h2, j2, rule):
                total += p
                continue
            if lb + (1 if objective == WIN else 0) > rem - 1:
                continue          # every discard keeps at least this shanten
            best = 0.0
            for d in range(34):
                if h2[d]:
                    best = max(best, value(h2[:d] + (h2[d] - 1,) + h2[d + 1:], j2, w2, rem - 1))
            if j2 and joker_discard:
                best = max(best, value(h2, j2 - 1, w2, rem - 1))
            total += p * best
        memo[key] = total
        return total

    return value(tuple(int(x) for x in h0), j0, tuple(int(x) for x in wall35), T)


# ---------------------------------------------------------------------------
# Hands
# ---------------------------------------------------------------------------

def _random_hands(rule: Rule, shanten: int, n: int, seed: int, jokers: int = 0,
                  kinds=None) -> list[tuple[np.ndarray, int]]:
    """``n`` random 13-tile hands (real tiles + ``jokers``) of the given constrained
    shanten (the kernel's, cross-checked below by the brute force's own tenpai test)."""
    rng = random.Random(seed)
    pool = [k for k in range(34) for _ in range(rule.caps[k]) if kinds is None or k in kinds]
    out = []
    seen = set()
    while len(out) < n:
        tiles = rng.sample(pool, 13 - jokers)
        h = np.zeros(34, dtype=np.uint8)
        for t in tiles:
            h[t] += 1
        key = h.tobytes()
        if key in seen:
            continue
        s = _kernel_shanten(h, jokers, rule)
        if s == shanten:
            seen.add(key)
            out.append((h, jokers))
    return out


def _opts(rule: Rule) -> dict:
    caps = None if rule.caps == (4,) * 34 else np.array(rule.caps, dtype=np.uint8)
    return dict(mask=rule.forms, quads=False, caps=caps,
                pair_mask=sum(1 << k for k in PAIR_258) if rule.pair_258 else None,
                void_suits=7 if rule.void else 0)


def _kernel_shanten(h, j, rule):
    o = _opts(rule)
    g = _prob.Graph(np.zeros(34, dtype=np.uint8), o["caps"], o["mask"], False, 0, 10, None,
                    pair_mask=o["pair_mask"], void_suits=o["void_suits"])
    return g.shanten_of(g.add_root(np.ascontiguousarray(h), j))


def _solve(h, j, wall35, T, objective, rule, joker_discard=True, pred=None, max_states=10**6):
    o = _opts(rule)
    return _prob.true_wall_solve(h, j, np.asarray(wall35, dtype=np.int32), T, objective,
                                 o["mask"], False, o["caps"], pair_mask=o["pair_mask"],
                                 void_suits=o["void_suits"], joker_discard=joker_discard,
                                 pred=pred, max_states=max_states)


def _wall(h, rule, jokers_in_wall=0):
    return np.append(np.array(rule.caps, dtype=np.int32) - h, jokers_in_wall).astype(np.int32)


PLAIN = Rule()
SICHUAN = Rule(forms=REGULAR | SEVEN_PAIRS, caps=(4,) * 27 + (0,) * 7, void=True)
P258 = Rule(forms=REGULAR | SEVEN_PAIRS, pair_258=True)
# jokers: 5z (index 31) is the joker kind, its four copies are drawn as jokers
JOKER_RULE = Rule(forms=REGULAR | SEVEN_PAIRS, caps=(4,) * 31 + (0,) + (4,) * 2)

CASES = {
    "plain": (PLAIN, 0, 0),
    "void_suit_108": (SICHUAN, 0, 0),
    "pair_258": (P258, 0, 0),
    "jokers": (JOKER_RULE, 0, 4),
    "jokers_in_hand": (JOKER_RULE, 1, 3),
}


def _check_hands(rule, j0, wall_jokers, shanten, T, objective, n, seed, joker_discard=True):
    hands = _random_hands(rule, shanten, n, seed, jokers=j0)
    for h, j in hands:
        # the brute force's own tenpai test agrees with the kernel's shanten at 0
        if shanten == 0:
            assert tenpai(tuple(int(x) for x in h), j, rule)
        wall = _wall(h, rule, wall_jokers)
        want = brute_force(h, j, wall, T, objective, rule, joker_discard)
        got = _solve(h, j, wall, T, objective, rule, joker_discard)
        assert got is not None
        value, curve, n_states = got
        assert value == pytest.approx(want, abs=1e-9), (h, j, T, objective)
        assert curve.shape == (T,) and curve[-1] == pytest.approx(value, abs=1e-12)
        assert np.all(np.diff(curve) >= -1e-12)
        # the curve of the horizon-T policy never beats the optimum of a shorter horizon
        for t in range(1, T if rule is PLAIN or rule is SICHUAN else 1):
            assert curve[t - 1] <= brute_force(h, j, wall, t, objective, rule,
                                               joker_discard) + 1e-9


@pytest.mark.parametrize("case", sorted(CASES))
def test_true_wall_equals_brute_force_one_shanten(case):
    rule, j0, wj = CASES[case]
    _check_hands(rule, j0, wj, 1, 3, WIN, 10, seed=11)
    _check_hands(rule, j0, wj, 1, 2, TENPAI, 10 if rule is PLAIN else 5, seed=12)


@pytest.mark.parametrize("case", sorted(CASES))
def test_true_wall_equals_brute_force_two_shanten(case):
    rule, j0, wj = CASES[case]
    _check_hands(rule, j0, wj, 2, 3, WIN, 10, seed=21)
    _check_hands(rule, j0, wj, 2, 2, TENPAI, 10, seed=22)


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(CASES))
def test_true_wall_equals_brute_force_tenpai_objective_three_draws(case):
    rule, j0, wj = CASES[case]
    _check_hands(rule, j0, wj, 1, 3, TENPAI, 10, seed=13)
    _check_hands(rule, j0, wj, 2, 3, TENPAI, 10, seed=23)


@pytest.mark.slow
def test_jokers_never_discarded():
    rule, j0, wj = CASES["jokers_in_hand"]
    _check_hands(rule, j0, wj, 1, 3, WIN, 10, seed=31, joker_discard=False)


# ---------------------------------------------------------------------------
# Closed forms
# ---------------------------------------------------------------------------

def _closed_form(U: int, k: int, T: int) -> float:
    return 1.0 - math.comb(U - k, T) / math.comb(U, T)


@pytest.mark.parametrize("hand,outs", [("123456789m1234p", 6), ("123m456p789s1122z", 4),
                                       ("111222333m789s5p", 3)])
@pytest.mark.parametrize("T", [1, 3, 8, 18])
def test_restricted_graph_keeps_its_wait_closed_form(hand, outs, T):
    h = counts(hand)
    assert majiang.shanten(h) == 0
    u0 = (4 - h).astype(np.uint8)
    U = int(u0.sum())
    g = _prob.Graph(u0, None, 7, False, 0, 10**5, None)
    root = g.add_root(h)
    status, V, curve = g.solve(root, h, T, U, WIN)
    assert status == 0
    assert V[root, 0] == pytest.approx(_closed_form(U, outs, T), abs=1e-12)
    for t in range(1, T + 1):
        assert curve[t] == pytest.approx(_closed_form(U, outs, t), abs=1e-12)


@pytest.mark.parametrize("T", [1, 2])
def test_true_wall_single_honor_wait_closed_form(T):
    # 111z222z333z444z + 5z: no play raises the outs above 3 within two draws
    h = counts("1112223334445z")
    rule = Rule(forms=REGULAR)
    wall = _wall(h, rule)
    U = int(wall.sum())
    value, curve, _ = _solve(h, 0, wall, T, WIN, rule)
    assert value == pytest.approx(_closed_form(U, 3, T), abs=1e-12)
    assert brute_force(h, 0, wall, T, WIN, rule) == pytest.approx(_closed_form(U, 3, T), abs=1e-12)


def test_true_wall_tenpai_objective_of_a_tenpai_hand_is_one():
    h = counts("123456789m1234p")
    value, curve, n = _solve(h, 0, _wall(h, PLAIN), 3, TENPAI, PLAIN)
    assert value == 1.0 and np.all(curve == 1.0)


# ---------------------------------------------------------------------------
# Unrestricted vs restricted; S1 vs true wall at one draw
# ---------------------------------------------------------------------------

def _s1_values(h, j, rule, T, *, changes=0, unrestricted=False, wall_jokers=0,
               max_states=10**6):
    """[(value, curve) for the win and the tenpai objective] in the S1 graph."""
    o = _opts(rule)
    u0 = (np.array(rule.caps) - h).astype(np.uint8)
    U = int(u0.sum()) + wall_jokers
    g = _prob.Graph(u0, o["caps"], o["mask"], False, changes, max_states, None,
                    pair_mask=o["pair_mask"], void_suits=o["void_suits"],
                    joker_unseen=wall_jokers, unrestricted=unrestricted)
    root = g.add_root(np.ascontiguousarray(h), j)
    out = []
    for objective in (WIN, TENPAI):
        status, V, curve = g.solve(root, np.ascontiguousarray(h), T, U, objective)
        assert status == 0
        assert curve[T] == pytest.approx(V[root, 0], abs=1e-12)
        out.append((V[root, 0], curve))
    return out


@pytest.mark.parametrize("case", sorted(CASES))
def test_unrestricted_at_least_restricted(case):
    rule, j0, wj = CASES[case]
    # with jokers and caps the shanten core takes its general route (slower): a lighter
    # budget at 2-shanten there
    heavy = case.startswith("jokers")
    for shanten, T, budgets in ((1, 3, (0, 1, 2)), (2, 3, (0, 1) if heavy else (0, 1, 2))):
        for h, j in _random_hands(rule, shanten, 3, seed=41 + shanten, jokers=j0):
            un = _s1_values(h, j, rule, T, unrestricted=True, wall_jokers=wj)
            for c in budgets:
                re = _s1_values(h, j, rule, T, changes=c, wall_jokers=wj)
                for objective in (WIN, TENPAI):
                    assert un[objective][0] >= re[objective][0] - 1e-12, (case, h, objective, c)


@pytest.mark.parametrize("case", sorted(CASES))
def test_unrestricted_s1_equals_true_wall_for_one_draw(case):
    rule, j0, wj = CASES[case]
    for shanten in (0, 1):
        for h, j in _random_hands(rule, shanten, 5, seed=51, jokers=j0):
            both = _s1_values(h, j, rule, 1, unrestricted=True, wall_jokers=wj)
            for objective in (WIN, TENPAI):
                un, curve = both[objective]
                tw, tcurve, _ = _solve(h, j, _wall(h, rule, wj), 1, objective, rule)
                assert un == pytest.approx(tw, abs=1e-12)
                assert curve[1:] == pytest.approx(tcurve, abs=1e-12)


def test_state_limit_statuses():
    h = counts("2225678m88p12466s")
    u0 = (4 - h).astype(np.uint8)
    g = _prob.Graph(u0, None, 7, False, 0, 50, None, unrestricted=True)
    root = g.add_root(h)
    status, V, curve = g.solve(root, h, 5, int(u0.sum()), WIN)
    assert status == -2 and V is None
    assert _solve(h, 0, _wall(h, PLAIN), 4, WIN, PLAIN, max_states=50) is None


# ---------------------------------------------------------------------------
# Predicate: three arguments, cache, errors and KeyboardInterrupt
# ---------------------------------------------------------------------------

def test_predicate_sees_jokers_and_the_drawn_joker():
    calls = []

    def pred(h14, kind, n_jokers):
        calls.append((int(h14.sum()), int(kind), int(n_jokers)))
        return True

    rule, j0, wj = CASES["jokers_in_hand"]
    h, j = _random_hands(rule, 0, 1, seed=61, jokers=1)[0]
    _solve(h, j, _wall(h, rule, wj), 1, WIN, rule, pred=pred)
    assert calls and all(n + jj == 14 for n, _, jj in calls)
    assert any(kind == JK and jj == j + 1 for _, kind, jj in calls)


def test_predicate_exception_and_keyboard_interrupt_propagate():
    h = counts("123456789m1234p")
    u0 = (4 - h).astype(np.uint8)

    def boom(h14, kind, n_jokers):
        raise ValueError("bad")

    def interrupt(h14, kind, n_jokers):
        raise KeyboardInterrupt

    for fn, exc in ((boom, ValueError), (interrupt, KeyboardInterrupt)):
        g = _prob.Graph(u0, None, 7, False, 0, 1000, fn)
        root = g.add_root(h)
        status, V, _ = g.solve(root, h, 3, int(u0.sum()), WIN)
        assert status == -3 and isinstance(g.pred_error, exc)
        with pytest.raises(exc):
            _solve(h, 0, _wall(h, PLAIN), 2, WIN, PLAIN, pred=fn)
        p = _prob._Pred(fn)
        walls = np.full((4, 3), 0, dtype=np.uint8)
        walls[:, 0] = 9            # 1p: completes the hand
        out16 = np.empty(4, dtype=np.int16)
        rc = _prob.simulate_greedy(h, u0, None, 7, False, p, walls, out16, out16.copy(),
                                   np.empty((4, 34), dtype=np.uint8), np.empty(4, dtype=np.int8))
        assert rc == -3 and isinstance(p.error, exc)


def _interrupt_after(seconds: float):
    import signal
    import threading
    main = threading.main_thread().ident
    timer = threading.Timer(seconds, lambda: signal.pthread_kill(main, signal.SIGINT))
    timer.start()
    return timer


def test_sigint_stops_a_long_true_wall_solve():
    h = counts("19m3457899p12789s")        # 1-shanten: T = 7 takes minutes
    timer = _interrupt_after(0.3)
    try:
        with pytest.raises(KeyboardInterrupt):
            _solve(h, 0, _wall(h, PLAIN), 7, WIN, PLAIN, max_states=10**8)
    finally:
        timer.cancel()


def test_sigint_stops_a_long_unrestricted_graph_solve():
    h = counts("19m3457899p12789s")
    u0 = (4 - h).astype(np.uint8)
    g = _prob.Graph(u0, None, 7, False, 0, 10**8, None, unrestricted=True)
    root = g.add_root(h)
    timer = _interrupt_after(0.3)
    try:
        status, V, _ = g.solve(root, h, 8, int(u0.sum()), WIN)
    finally:
        timer.cancel()
    assert status == -4 and isinstance(g.pred_error, KeyboardInterrupt)


# ---------------------------------------------------------------------------
# Monte Carlo paths: jokers in walls, shape options
# ---------------------------------------------------------------------------

def test_simulate_greedy_with_jokers_and_void_suit():
    # a joker completes a tenpai hand; under the void rule a three-suit hand never wins
    rule, j0, wj = CASES["jokers"]
    h = counts("123456789m1234p")
    u0 = (np.array(rule.caps) - h).astype(np.uint8)
    walls = np.array([[JK, 0, 0], [2, JK, 0], [9, 0, 0], [2, 2, 2]], dtype=np.uint8)
    wt = np.empty(4, dtype=np.int16)
    tt = np.empty(4, dtype=np.int16)
    tile = np.empty(4, dtype=np.int8)
    fj = np.empty(4, dtype=np.int8)
    o = _opts(rule)
    rc = _prob.simulate_greedy(h, u0, o["caps"], o["mask"], False, None, walls, wt, tt,
                               np.empty((4, 34), dtype=np.uint8), tile, joker_unseen=4,
                               final_jokers=fj)
    assert rc == 0
    assert list(wt) == [1, 2, 1, -1] and list(tile[:3]) == [JK, JK, 9] and list(tt) == [0] * 4
    h3 = counts("123m456p789s1234s")
    rc = _prob.simulate_greedy(h3, (4 - h3).astype(np.uint8), None, 3, False, None, walls[2:3],
                               wt[:1], tt[:1], np.empty((1, 34), dtype=np.uint8), tile[:1],
                               void_suits=7)
    assert rc == 0 and wt[0] == -1


def test_true_wall_winning_distribution_adds_up_to_the_value():
    for case in ("plain", "jokers_in_hand"):
        rule, j0, wj = CASES[case]
        for h, j in _random_hands(rule, 1, 3, seed=71, jokers=j0):
            wall = _wall(h, rule, wj)
            o = _opts(rule)
            value, curve, n, (hands, kinds, jok, mass) = _prob.true_wall_solve(
                h, j, wall, 3, WIN, o["mask"], False, o["caps"], wins=True)
            assert mass.sum() == pytest.approx(value, abs=1e-12)
            assert value == pytest.approx(brute_force(h, j, wall, 3, WIN, rule), abs=1e-9)
            for hh, k, jj in zip(hands, kinds, jok):
                assert complete(tuple(int(x) for x in hh), int(jj), rule)
                assert k == JK or hh[k] >= 1


def test_joker_wall_closed_form_and_policy_replay():
    # tenpai on 1p/4p (6 outs) with 4 jokers in the wall: 10 winning tiles
    rule, _, wj = CASES["jokers"]
    h = counts("123456789m1234p")
    u0 = (np.array(rule.caps) - h).astype(np.uint8)
    U = int(u0.sum()) + wj
    o = _opts(rule)
    g = _prob.Graph(u0, o["caps"], o["mask"], False, 0, 10**5, None, joker_unseen=wj)
    root = g.add_root(h)
    T = 6
    status, V, curve = g.solve(root, h, T, U, WIN)
    assert status == 0
    assert V[root, 0] == pytest.approx(_closed_form(U, 10, T), abs=1e-12)
    tw, _, _ = _solve(h, 0, _wall(h, rule, wj), 2, WIN, rule)
    assert tw >= _closed_form(U, 10, 2) - 1e-12
    # the policy on real shuffled walls (jokers drawn as kind 34)
    rng = np.random.default_rng(7)
    pool = np.repeat(np.arange(35, dtype=np.uint8), np.append(u0, wj))
    n = 20000
    walls = np.ascontiguousarray(np.array([rng.permutation(pool)[:T] for _ in range(n)]))
    wt = np.empty(n, dtype=np.int16)
    tile = np.empty(n, dtype=np.int8)
    fj = np.empty(n, dtype=np.int8)
    g.simulate(root, V, walls, wt, np.empty(n, dtype=np.int16),
               np.empty((n, 34), dtype=np.uint8), tile, fj)
    p = float(np.mean(wt > 0))
    se = math.sqrt(p * (1 - p) / n)
    assert abs(p - _closed_form(U, 10, T)) < 4 * se
    assert set(np.unique(tile[wt > 0])) <= {9, 12, JK}
    assert np.all(fj == 0)


def _greedy_reference(h0, u0, caps, mask, walls):
    """The greedy player of :func:`simulate_greedy`, tile by tile in Python (no jokers,
    every complete hand wins): win time and final hand per wall."""
    from majiang._core import efficiency as _eff

    def sh(h):
        return int(_eff.shanten_one(np.ascontiguousarray(h, dtype=np.uint8), mask, False, caps))

    def live(h, s, left):
        tot = 0
        for k in range(34):
            cap = 4 if caps is None else caps[k]
            if left[k] > 0 and h[k] < cap:
                h[k] += 1
                if sh(h) < s:
                    tot += left[k]
                h[k] -= 1
        return tot

    out = []
    for wall in walls:
        h = h0.astype(np.int64).copy()
        left = u0.astype(np.int64).copy()
        s, won = sh(h), -1
        for t, k in enumerate(wall):
            left[k] -= 1
            h[k] += 1
            s14 = sh(h)
            if s14 == -1:
                h[k] -= 1
                won = t + 1
                break
            if s14 >= s:
                h[k] -= 1
                continue
            best = None
            for d in [k] + [d for d in range(34) if d != k and h[d] > 0]:
                h[d] -= 1
                key = (sh(h), -live(h, sh(h), left), 0 if d == k else 1, d)
                h[d] += 1
                if best is None or key < best[0]:
                    best = (key, d)
            h[best[1]] -= 1
            s = max(best[0][0], 0)
        out.append((won, h.copy()))
    return out


@pytest.mark.parametrize("hand,capped", [("25m125667p79s3367z", False),
                                         ("1358m2469p1357s11z", True)])
def test_simulate_greedy_with_a_shared_memo_plays_the_tile_by_tile_reference(hand, capped):
    """Two roots of one position played with one GreedyMemo (the per-hand facts kept
    across calls) against the rule written tile by tile: the same wins and final hands."""
    h14 = counts(hand)
    assert h14.sum() == 14
    rng = np.random.default_rng(17)
    caps = None
    if capped:
        caps = np.full(34, 4, dtype=np.uint8)
        caps[rng.choice(27, 6, replace=False)] = 3
        caps = np.maximum(caps, h14).astype(np.uint8)
    u0 = ((4 if caps is None else caps.astype(np.int64)) - h14).astype(np.uint8)
    pool = np.repeat(np.arange(34), u0)
    walls = np.array([rng.permutation(pool)[:6] for _ in range(120)], dtype=np.uint8)
    memo = _prob.GreedyMemo()
    for d in np.flatnonzero(h14)[:2]:
        h = h14.copy()
        h[d] -= 1
        wt = np.empty(len(walls), dtype=np.int16)
        fin = np.empty((len(walls), 34), dtype=np.uint8)
        rc = _prob.simulate_greedy(h, u0, caps, 1, False, None, walls, wt,
                                   np.empty(len(walls), dtype=np.int16), fin,
                                   np.empty(len(walls), dtype=np.int8), memo=memo)
        assert rc == 0
        ref = _greedy_reference(h, u0, caps, 1, walls)
        assert [w for w, _ in ref] == list(wt)
        assert all(np.array_equal(f, fh) for (_, f), fh in zip(ref, fin))
    assert memo.size > 0
    with pytest.raises(ValueError):         # a memo is bound to its shape options
        _prob.simulate_greedy(h, u0, None, 7, False, None, walls, wt,
                              np.empty(len(walls), dtype=np.int16), fin,
                              np.empty(len(walls), dtype=np.int8), memo=memo)

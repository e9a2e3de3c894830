"""Fan odds over the true wall (``T <= 2``) from the kernel's winning-hand distribution.

``fan_odds`` (and ``advise(draws=...)``'s expected score) read the winning hands of
the optimal true-wall play from ``true_wall_solve(..., wins=True)``.  The reference
here is written independently of the probability kernel and of the shanten code: a
plain-Python expectimax over the *actual* draws of the ruleset's real wall (a tile
drawn and thrown back has left the wall) with THE win predicate (``check_win``,
self-drawn) as the only win test.  A cheap completeness test written here (sets with
jokers filling gaps, seven pairs, thirteen orphans, the knitted forms) only skips the
predicate on hands no winning form of the ruleset can hold.

The optimal play is not unique when two discards have the same win probability;
the reference breaks ties as the kernel documents (the drawn tile back first, then a
joker, then the lowest kind), so the whole distribution of winning hands, and with
it every fan, fan total and points probability, must agree.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

import majiang
from majiang.hand import Hand, parse_hand
from majiang.odds import fan_odds
from majiang.rules.model import game_model
from majiang.scoring import check_win
from majiang.tiles import parse_counts

JOKER = 34
TIE = 1e-12


@lru_cache(maxsize=None)
def _sets(c: tuple, j: int, pair: bool) -> bool:
    """Real tiles ``c`` + ``j`` jokers form sets (and one pair if ``pair``)."""
    i = next((k for k in range(34) if c[k]), None)
    if i is None:
        return j % 3 == (2 if pair else 0)
    lst = list(c)
    for t in (1, 2, 3):                       # pung: t real copies, jokers for the rest
        if c[i] >= t and 3 - t <= j:
            lst[i] -= t
            if _sets(tuple(lst), j - (3 - t), pair):
                return True
            lst[i] += t
    for t in (1, 2) if pair else ():          # the pair
        if c[i] >= t and 2 - t <= j:
            lst[i] -= t
            if _sets(tuple(lst), j - (2 - t), False):
                return True
            lst[i] += t
    if i < 27:
        for lo in range(max(i - 2, i - i % 9), min(i, i - i % 9 + 6) + 1):
            members = [lo, lo + 1, lo + 2]
            real = [m for m in members if m >= i and lst[m] > 0]
            for mask in range(1 << len(real)):
                use = [m for b, m in enumerate(real) if mask >> b & 1]
                if i not in use:
                    continue
                need = 3 - len(use)
                if need > j:
                    continue
                for m in use:
                    lst[m] -= 1
                ok = _sets(tuple(lst), j - need, pair)
                for m in use:
                    lst[m] += 1
                if ok:
                    return True
    return False


KNOWN_FORMS = {"regular", "seven_pairs", "thirteen_orphans", "honors_and_knitted",
               "knitted_straight", "thirteen_lonely", "seven_stars"}
ORPHANS = frozenset([0, 8, 9, 17, 18, 26, *range(27, 34)])
KNITS = [frozenset(9 * s + d for s, r in zip(suits, (0, 1, 2)) for d in (r, r + 3, r + 6))
         for suits in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))]


@lru_cache(maxsize=None)
def _maybe_complete(c: tuple, j: int, n_melds: int) -> bool:
    """A superset of the complete shapes of KNOWN_FORMS (real tiles ``c``, ``j``
    jokers): sets + pair, seven pairs, thirteen orphans, all tiles distinct (the
    knitted / lonely forms), a knitted straight + a set + a pair."""
    if _sets(c, j, True):
        return True
    if n_melds:
        return False
    odd = sum(x % 2 for x in c)
    if odd <= j and (j - odd) % 2 == 0:                       # seven pairs
        return True
    if all(c[k] == 0 for k in range(34) if k not in ORPHANS):  # thirteen orphans
        return True
    if max(c) <= 1:                                           # knitted / lonely forms
        return True
    for knit in KNITS:                                        # knitted straight + set + pair
        if all(c[k] for k in knit):
            rest = tuple(x - (k in knit) for k, x in enumerate(c))
            if _sets(rest, j, True):
                return True
    return False


class WallBrute:
    """Expectimax over the actual draws, with the winning-hand distribution."""

    def __init__(self, ruleset, hand, indicator=None, visible=None):
        self.model = game_model(ruleset)
        h = hand if isinstance(hand, Hand) else parse_hand(hand,
                                                             hand_size=self.model.hand_size)
        self.melds = h.melds
        w = self.model.wall(indicator)
        wall = w.counts.astype(int) - h.all_counts.astype(int)
        if visible is not None:
            wall -= parse_counts(visible).astype(int)
        assert wall.min() >= 0
        self.wall0 = tuple(int(x) for x in wall) + (int(w.jokers) - h.jokers,)
        self.h0, self.j0 = tuple(int(x) for x in h.concealed), int(h.jokers)
        jr = self.model.jokers
        self.joker_discard = jr is None or jr.discard
        # the predicate is skipped only on hands no winning form can hold
        self.prefilter = set(self.model.ruleset.forms) <= KNOWN_FORMS
        self.results: dict = {}

    def result(self, h14: tuple, nj: int, k: int):
        """The scored win of the 3n+2 hand ``h14`` (+ ``nj`` jokers) completed by
        drawing ``k`` (34 = a joker), or None."""
        key = (h14, nj, k)
        if key in self.results:
            return self.results[key]
        r = None
        if not self.prefilter or _maybe_complete(h14, nj, len(self.melds)):
            before = np.array(h14, dtype=np.uint8)
            if k == JOKER:
                chk = check_win(Hand(before, self.melds, (), nj - 1), None,
                                ruleset=self.model, self_drawn=True, win_is_joker=True)
            else:
                before[k] -= 1
                chk = check_win(Hand(before, self.melds, (), nj), k, ruleset=self.model,
                                self_drawn=True)
            r = chk.result if chk.valid else None
        self.results[key] = r
        return r

    @staticmethod
    def _draw(h: tuple, nj: int, k: int):
        if k == JOKER:
            return h, nj + 1
        lst = list(h)
        lst[k] += 1
        return tuple(lst), nj

    def _discards(self, h14: tuple, nj: int, k: int):
        """3n+1 hands after a discard, in the kernel's tie order: the drawn tile,
        a joker, then the kinds ascending."""
        out = []

        def drop(d):
            lst = list(h14)
            lst[d] -= 1
            return tuple(lst), nj
        if k == JOKER:
            if self.joker_discard:
                out.append((h14, nj - 1))
        else:
            out.append(drop(k))
            if nj and self.joker_discard:
                out.append((h14, nj - 1))
        out += [drop(d) for d in range(34) if h14[d] and d != k]
        return out

    @lru_cache(maxsize=None)
    def value(self, h: tuple, nj: int, wall: tuple, t: int) -> float:
        if t == 0:
            return 0.0
        U = sum(wall)
        total = 0.0
        for k in range(35):
            if not wall[k]:
                continue
            h14, nj14 = self._draw(h, nj, k)
            if self.result(h14, nj14, k) is not None:
                total += wall[k] / U
            elif t > 1:
                w2 = list(wall)
                w2[k] -= 1
                total += wall[k] / U * max(
                    (self.value(a, b, tuple(w2), t - 1) for a, b in self._discards(h14, nj14, k)),
                    default=0.0)
        return total

    def wins(self, T: int) -> dict:
        """``{(h14, k, jokers after the draw): P(winning that way)}`` under the optimal
        play (ties broken in the kernel's order)."""
        dist: dict = {}

        def walk(h, nj, wall, t, mass):
            U = sum(wall)
            for k in range(35):
                if not wall[k]:
                    continue
                p = mass * wall[k] / U
                h14, nj14 = self._draw(h, nj, k)
                if self.result(h14, nj14, k) is not None:
                    key = (h14, k, nj14)
                    dist[key] = dist.get(key, 0.0) + p
                    continue
                if t == 1:
                    continue
                w2 = list(wall)
                w2[k] -= 1
                w2 = tuple(w2)
                best, arg = -1.0, None
                for a, b in self._discards(h14, nj14, k):
                    v = self.value(a, b, w2, t - 1)
                    if v > best + TIE:
                        best, arg = v, (a, b)
                if arg is not None and best > 0.0:
                    walk(arg[0], arg[1], w2, t - 1, p)

        walk(self.h0, self.j0, self.wall0, T, 1.0)
        return dist

    def tables(self, T: int):
        """P(win), {fan name: P}, {total: P}, {points: P}, expected points."""
        rs = self.model.ruleset
        fans, totals, points = {}, {}, {}
        p_win = exp = 0.0
        for (h14, k, nj), p in self.wins(T).items():
            r = self.result(h14, nj, k)
            pts = getattr(r, "points", None)
            if pts is None:
                pts = rs.points(int(r.total), [f.id for f in r.fans])
            p_win += p
            exp += p * int(pts)
            totals[int(r.total)] = totals.get(int(r.total), 0.0) + p
            points[int(pts)] = points.get(int(pts), 0.0) + p
            for f in r.fans:
                name = f"{f.chinese} {f.english}"
                fans[name] = fans.get(name, 0.0) + p
        return p_win, fans, totals, points, exp


def _check(rs, hand, T, indicator=None):
    ref = WallBrute(rs, hand, indicator)
    p_win, fans, totals, points, exp = ref.tables(T)
    assert p_win == pytest.approx(ref.value(ref.h0, ref.j0, ref.wall0, T), abs=1e-12)
    df = fan_odds(hand, T, ruleset=rs, indicator=indicator)
    assert set(df["model"]) == {"true wall"} and set(df["policy"]) == {"optimal"}
    assert (df["se"] == 0).all()

    def table(cat, key=str):
        sub = df[df["category"] == cat]
        return {key(n): p for n, p in zip(sub["name"], sub["probability"])}
    win = table("win")["win"]
    assert win == pytest.approx(p_win, abs=1e-12), (rs, hand, T)
    for got, want in ((table("fan"), fans), (table("total", int), totals),
                      (table("points", int), points)):
        assert set(got) == set(want), (rs, hand, T)
        for name, p in want.items():
            assert got[name] == pytest.approx(p, abs=1e-12), (rs, hand, T, name)
    assert df.attrs["exp_score"] == pytest.approx(exp, abs=1e-9)
    return p_win, totals


# (ruleset, hand, indicator): tenpai hands (several waits, fan totals, jokers) ...
TENPAI = [
    ("mcr", "123m456p789s1155z", None),
    ("sichuan", "123456789p1155s", None),
    ("guangdong", "123m456p789s1155z", None),
    ("guangdong", "19m19p19s1234567z", None),         # thirteen orphans, 13 waits
    ("kawuxing", "123p456p789s5577z", None),           # 84-tile wall
    ("taiwan", "123m456p789s123p5577z", None),         # 16-tile hand
    ("anqing", "123m456p789s3344z", "1z"),             # jokers drawn (发 / 白 are
    ("anqing", "123m456p78s3344z*", "1z"),             # kong-only there: winds)
]
# ... and 1-shanten hands (no win on the first draw)
ONE_SHANTEN = [
    ("mcr", "2345m666p789s11z5z", None),
    ("sichuan", "1234789m2345p99p", None),
    ("shenyang", "123m789p19s55z [222s]", None),      # 开门: an exposed pung
]
SLOW_T2 = {("guangdong", "19m19p19s1234567z", None)}
CASES = ([(1, *c) for c in TENPAI] + [(2, *c) for c in TENPAI + ONE_SHANTEN
                                      if c not in SLOW_T2])


@pytest.mark.parametrize("T,rs,hand,ind", CASES)
def test_fan_odds_equal_brute_force_over_the_real_wall(T, rs, hand, ind):
    p_win, totals = _check(rs, hand, T, ind)
    assert p_win > 0, (rs, hand, T)          # every case can win: the tables are not empty


@pytest.mark.slow
@pytest.mark.parametrize("rs,hand,ind", sorted(SLOW_T2, key=str) + [
    ("anqing", "123m456p789s55p1z*", "1z")])
def test_fan_odds_two_draws_equal_brute_force_slow(rs, hand, ind):
    assert _check(rs, hand, 2, ind)[0] > 0


def test_several_fan_totals_are_seen():
    """The reference is not trivial: some case wins with different fan totals."""
    _, totals = _check("mcr", "2345m666p789s11z5z", 2)
    assert len(totals) >= 2


def test_fan_odds_win_equals_win_probability():
    """fan_odds and win_probability play the same true-wall optimum (T <= 2)."""
    plays = [(c, T) for c in TENPAI[:3] + TENPAI[-2:] + ONE_SHANTEN[:1] for T in (1, 2)]
    for (rs, hand, ind), T in plays:
        df = fan_odds(hand, T, ruleset=rs, indicator=ind)
        win = float(df.loc[df["category"] == "win", "probability"].iloc[0])
        p = majiang.probability.probabilities(hand, T, ruleset=rs, indicator=ind)
        assert p.model == "true wall" and set(df["model"]) == {"true wall"}
        assert win == pytest.approx(p.p_win, abs=1e-12), (rs, hand, T)
        tot = df.loc[df["category"] == "total", "probability"].sum()
        assert tot == pytest.approx(win, abs=1e-12)


def test_advise_expected_score_equals_brute_force():
    """advise(draws=T) scores the winning hands of the same play: for its three best
    discards, p_win and exp_score equal the reference's."""
    hand14 = "2345m666p789s11z5z3p"
    df = majiang.advise(hand14, ruleset="mcr", draws=2)
    seen = 0
    for _, row in df.head(3).iterrows():
        if np.isnan(row["p_win"]):
            continue
        h = parse_hand(hand14)
        c = h.concealed.copy()
        c[int(np.argmax(parse_counts(row["discard"])))] -= 1
        ref = WallBrute("mcr", Hand(c), visible=row["discard"])   # the discard left the wall
        p_win, _, _, _, exp = ref.tables(2)
        assert row["p_win"] == pytest.approx(p_win, abs=1e-12), row["discard"]
        assert row["exp_score"] == pytest.approx(exp, abs=1e-9), row["discard"]
        seen += 1
    assert seen >= 2

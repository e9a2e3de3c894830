"""The ``"expert"`` built-in player: plans for a hand that may win under the ruleset, calls
only into such a plan, and folds against a likely-ready opponent.

It reads nothing but the public :class:`~majiang.game.players.SeatView` and plays in the
Python game loop only (the compiled loop hosts the ``"random"`` and ``"efficiency"`` bots;
a table with an expert seat is played by the Python loop, as for any policy object).

How it plays (every rule below is this policy, not a rule of the game):

**Plans** (rulesets with a minimum fan whose fan catalogue holds the named fans: Chinese
Official ``mcr`` / ``mcr_botzone``).  A plan is a target a hand can be built toward, with a
distance in the shanten convention (-1 complete, 0 ready) computed from the own tiles and
melds:

* one-suit plans (混一色 per suit, 清一色 per suit): the ruleset's shanten with the tiles
  outside the plan unusable (the compiled shanten under caps of 0 for those kinds);
* 碰碰和: shanten of four pungs and a pair (``2 need - 2 pungs - pairs kept - eyes``);
* fixed-chow plans (花龙, 清龙, 三色三同顺, 三色三步高: three given chows): the missing
  tiles of the chows not yet melded, plus what the other tiles lack of one more set and a
  pair; dead when a missing tile has no unseen copy left;
* the general plan (any shape, small fans adding up): the ruleset's shanten, weighed
  :data:`GENERAL_CONCEALED` while the hand has no claimed meld (门前清 / 不求人 / 平和 …
  may still add up) and :data:`GENERAL_OPEN` once open (全求人 and odd fans only).

A plan whose fan is below the minimum weighs :data:`SHORT` more (it needs another fan);
the value of a hand is the least distance + weight over its plans (:func:`plan_value`).

**Discards.**  When the least shanten after a discard is 0 or 1 the exact count decides:
ready discards by the unseen copies of the waits that win under the ruleset's own win
predicate (:func:`~majiang.game.players.pick_valid_wait`), each weighed by its chance to
come to the seat (:meth:`ExpertPlayer.reach`: drawn by the seat itself, or let go by an
opponent — a copy is likelier in an opponent's hand than in the walls, late in the hand
and for a kind that opponent has not discarded, and a held copy is rarely let go), so
that a ready hand changes its wait (改听) to one whose copies are likelier to come; 1-shanten
discards by their *valid ukeire* — the live copies of the draws after which some discard
leaves a ready hand with a wait the predicate accepts (the helper of
:func:`~majiang.game.players.step_back`).  Otherwise, or when nothing there can win, the
discard of least plan value, then least shanten, then most live ukeire, then honors before
terminals before inner tiles.  Under a ruleset where every complete shape wins and no plan
applies this is the efficiency bot's order.

**Calls.**  A pung or chow only when the plan value after the call (and its best discard)
is at least :data:`CALL_GAIN` below the value of the hand as it is, reached by a plan
other than the open general one, and, when the call makes the hand ready, with a live wait
that wins; a call that makes the hand ready with such a wait counts as value 0
(:data:`READY_CALLS`); a call no plan comes nearer by is still taken when it brings the
hand from 2 or more to 1 from ready with at least :data:`CALL_VALID` valid ukeire (live
draws to a ready hand whose wait wins with the called meld: the look-ahead asks whether
the call gets the hand to a winning wait in time).  An exposed kong only
in a hand already open (a concealed hand keeps 门前清); concealed and added kongs as the
efficiency bot (when they do not raise the shanten).  Wins are always taken.

**Defence** (cheap: no sampling of opponent hands, so a decision costs about a millisecond;
:func:`majiang.danger` would cost far more).  Each opponent's chance of being ready is the
tempo prior of :mod:`majiang.opponents` (:meth:`~majiang.opponents.OpponentModel.p_ready_prior`
from its discards and claimed melds).  When the largest reaches :data:`FOLD_P` and the own
hand is :data:`FOLD_SHANTEN` or more from ready, it folds: the held tile of least cheap
danger, summed over opponents weighted by their readiness — a tile the opponent discarded
itself weighs :data:`OWN_FACTOR`, one discarded after its last discard (and passed)
:data:`PASSED_FACTOR`, otherwise by the unseen copies (``(1 + unseen) / 5``), honors
:data:`HONOR_FACTOR` and terminals :data:`TERMINAL_FACTOR` (fewer waits hold them).

Measured (:func:`majiang.simulate` with the statistics of ``bench/bench_realism.py``,
hands 0-19,999 of seed 0, four experts under ``mcr_botzone``; the published strong-AI
figures of the IJCAI final in brackets): drawn hands 2.65 % (529; 95 % Wilson interval
2.43-2.88 %; efficiency bots 12.84 %; [1.6 %]), self-draw share of wins 28.7 % [30.2 %],
wins per player-hand 24.3 % [23.2-25.2 %], mean fan 12.30 [12.45], 平和 in 44.7 % of wins
[43.0 %], 全求人 in 0.78 % (efficiency bots 17.0 %); under ``mcr`` 394 drawn of 20,000.
The same walls gave 624 drawn hands with the general plan's concealed weight at 1.0
(:data:`~majiang.game.expert_plans.GENERAL_CONCEALED`), 633 with a wait's live copies all
alike (:data:`REACH` off), 652 without the call look-ahead (:data:`CALL_VALID`; both
before the weight's change); the paired 10,000-hand blocks behind the weight are in its
docstring, the settings measured and not kept in the README.  In the duplicate format
(``bench/bench_strength.py --rulesets mcr --seed 7``, 2,000 walls, one expert against
three efficiency bots) the expert scores +7.85 points per hand (95 % interval 7.21 to
8.50), wins 36 % of hands and deals in 13.8 %.  A hand of four experts takes about three
times as long as one of four efficiency bots in the Python loop (about 16 against 5 ms of
CPU under mcr_botzone, ``bench/bench_simulate.py``): every plan's distance for every
candidate discard (:func:`majiang._core.game.plan_values`, ``plan_minima``), the
candidates' shanten and ukeire (``evaluate_discards``) and the valid ukeire
(``valid_ukeire``, each ready hand weighed once a hand) are compiled.

**Regional plans** (:func:`value_rules`: fans are doublings and there is no minimum —
四川 血战 / 血流, 广东 推倒胡 / 鸡平胡, 卡五星).  The plans are read from the ruleset's fan
catalogue — 清一色 / 混一色 per suit, the all-pungs fan (对对胡 / 碰碰胡), seven pairs —
and weigh ``-FAN_WEIGHT`` per doubling of their fan (the general plan weighs 0): a plan
worth more may be a little further.  Once ready, the discard whose waits are worth most
is kept: live copies times what the wait pays self-drawn under the ruleset's settlement
(:meth:`ExpertPlayer._self_value`, the seats already out paying nothing), plus, for a wait
in a suit an opponent declared void (定缺: it throws every such tile), :data:`FEED` times
its value on a discard per such opponent.  A winning discard is let pass when a self-draw
is likely enough to pay more (:data:`PASS_RHO`: 四川 pays a 平胡 1 on a discard and
(1 + 1) from each of three self-drawn; 广东 2 against 4 from each): under blood rules by
the chance of a self-draw before the wall ends, otherwise as a race against the
opponents' tempo priors (:data:`RACE_HIT`).  Kongs are made whenever they keep the
shanten, or raise it by :data:`KONG_SLACK` while 2 or more from ready (they pay at once
or with the win).  定缺 names the suit without which the hand keeps the least shanten
(:meth:`ExpertPlayer.choose_void`), ties to the fewest tiles.  A danger-weighed discard
order (:meth:`ExpertPlayer.dangers`, opponents' void suits safe, :data:`DEF_W`) was
measured and left off (it lost more wins than deal-ins).  Pungs are called by (plan value,
shanten, -live ukeire) after the call, the efficiency bot's test with the plans put first
(:meth:`ExpertPlayer._value_claim`).

Measured in the duplicate format (``bench/bench_strength.py --seed 7``, 2,000 walls × 4
rotations, one expert against three efficiency bots, 95 % intervals clustered by wall):
四川 +0.203 points per hand [0.153, 0.253], 广东 +0.019 [0.004, 0.034] (the efficiency bot
against three random bots: +3.20 and +4.46); on walls no setting was chosen on
(``--seed 11``): +0.178 [0.126, 0.229] and +0.020 [0.003, 0.036].  Under 广东 the expert
plays nearly as the efficiency bot: no plan measured better there.
"""
from __future__ import annotations

import numpy as np

from .._core import game as _cg
from ..errors import MahjongError
from .players import (BUILTIN_PLAYERS, EfficiencyPlayer, _centrality, _valid_ukeire, called,
                      declaring_allowed, legal_discard, standing_kept)

from .expert_plans import (FAN_WEIGHT, GENERAL_CONCEALED, GENERAL_OPEN,  # noqa: F401
                           LIMIT_WEIGHT, PAIRS_FAN_WEIGHT, SHORT, _context, _minima,
                           _values, plan_value, plans_of, value_rules)

__all__ = ["ExpertPlayer", "plan_value", "plans_of", "value_rules"]

FOLD_P = 0.25
"""An opponent's P(ready) (tempo prior) from which the expert may fold."""
FOLD_SHANTEN = 3
"""The own shanten from which the expert folds against a likely-ready opponent."""
OWN_FACTOR = 0.3
PASSED_FACTOR = 0.1
HONOR_FACTOR = 0.6
TERMINAL_FACTOR = 0.8
SELF_DRAWN_ONLY = 0.35
"""Weight of a live copy of a wait that wins only self-drawn (against 1 for one that also
wins on a discard): roughly the share of a tile's copies the seat draws itself."""
CALL_GAIN = 0.5
"""The least drop of the plan value a pung / chow must bring (its distance falls by 1 when
the called set is one of the plan's)."""
READY_CALLS = True
"""Whether a pung / chow that makes the hand ready with a live wait that wins is taken
even when no fan plan is behind it."""
TOP_PLANS = 5
"""Plans (the nearest) weighed for each discard."""
PASS_RHO = 0.35
"""Under :func:`value_rules`: a win on a discard is passed when it pays less than
``PASS_RHO`` x P(self-draw by the end) x the mean self-draw value of the waits (the
discount for the others winning first).  四川, 1,000 walls x 4 rotations against three
efficiency bots (before the pung test of :meth:`ExpertPlayer._value_claim`): 0.2 +0.05,
0.3 +0.10, 0.35 +0.12, 0.5 +0.09, 0.7 +0.03 points per hand."""
KONG_SLACK = 1
"""Under :func:`value_rules` (kongs pay at once or with the win): a kong is made when it
raises the shanten by at most this much (none once ready, nor below 2)."""
VALUE_CLAIMS = True
"""Under :func:`value_rules`: pungs by (plan value, shanten, -live ukeire)
(:meth:`ExpertPlayer._value_claim`), else by a drop of the plan value of
:data:`CALL_GAIN` as under a minimum fan."""
READY_VALUE = True
"""Under :func:`value_rules`: the ready discard by what its waits pay
(:meth:`ExpertPlayer._ready_value`), else by the plans' order."""
VOID_BY_SHANTEN = True
"""定缺 by the shanten the hand keeps without the suit (:meth:`ExpertPlayer.choose_void`),
else by the fewest tiles (the efficiency bot)."""
FEED = 1.0
"""Under :func:`value_rules`, weighing a ready hand's waits: a live copy of a wait in a
suit an opponent still in declared void (定缺: it throws every such tile it draws) adds
``FEED`` times its value on a discard per such opponent."""
RACE_HIT = 0.3
"""Under :func:`value_rules` without blood rules, weighing a pass: a ready opponent's
chance to win within a round."""
DEF_W = 0.0
"""Under :func:`value_rules`: the plan distance a discard may give up per unit of cheap
danger (:meth:`ExpertPlayer.dangers`)."""
DEF_STEP = 0.25
"""Plan value + weighed danger are compared in steps of this size (closer: by shanten,
then live ukeire)."""
CALL_VALID = 4
"""Under a minimum fan: a pung / chow with no fan plan behind it is taken when it brings
the hand from 2 or more to 1 from ready with at least this many valid ukeire (0: never).
Paired runs under mcr_botzone (2,500 hands each, the same walls): 4 — 71 drawn against
74, 78 against 79, the hands 0.27 and 0.39 draws shorter; 8 — 74 against 74, 0.17
shorter."""
REACH = True
"""Weigh a ready hand's waits by where their unseen copies likely lie
(:meth:`ExpertPlayer.reach`), else a copy counts 1 (:data:`SELF_DRAWN_ONLY` when it wins
only self-drawn)."""
_TIER = np.array([1] + [2] * 7 + [1, 1] + [2] * 7 + [1, 1] + [2] * 7 + [1] + [0] * 7)
HOLD = (0.8, 0.75, 1.1)
"""How densely an opponent's concealed hand holds a kind against the wall (honours,
terminals, the other number tiles; :meth:`ExpertPlayer.reach`).  Measured on 300 hands of
four experts under mcr_botzone (seed 5, at their ready decisions): of the unseen copies
of an honour no opponent has discarded, 60 % lie in the walls with 31-60 tiles left and
32 % with 30 or fewer; of an inner tile 48 % and 30 %."""
HOLD_DISCARDED = (0.2, 0.35, 0.5)
"""The same for a kind in the opponent's own discards: it holds 0.03 honours of such a
kind against 0.19 of another (seed 5 as above), 0.08 against 0.33 terminals, 0.25
against 0.47 inner tiles."""
LET_DRAWN = 0.7
"""The chance an opponent discards a copy it draws (:meth:`ExpertPlayer.reach`)."""
LET_HELD = 0.1
"""The chance an opponent discards a copy it holds."""
# ------------------------------------------------------------------ the player
class ExpertPlayer(EfficiencyPlayer):
    """Plans, valid progress, calls into a plan, a cheap fold (see the module text).
    Plays in the Python game loop only."""

    name = "expert"

    # -- 定缺 ------------------------------------------------------------------
    def choose_void(self, view) -> int:
        """The void suit (定缺) that leaves the hand nearest a win: the least shanten with
        that suit's tiles unusable (kept as tiles to throw), then the fewest tiles of it
        (the efficiency bot's rule), then the lower suit."""
        if not VOID_BY_SHANTEN:
            return super().choose_void(view)
        c, j = view.play_counts()
        so = view.shape_options()
        caps = np.array(view.model.shape(()).caps, dtype=np.uint8)
        best, key = 0, None
        for s in range(3):
            cs = caps.copy()
            cs[9 * s:9 * s + 9] = 0
            pso = _cg.ShapeOpts(so.mask, so.quads, cs, so.pair_mask, so.void_suits, so.fifth,
                                cs)
            kk = (int(_cg.shanten(c, pso, j)), int(c[9 * s:9 * s + 9].sum()), s)
            if key is None or kk < key:
                best, key = s, kk
        return best

    # -- discards -------------------------------------------------------------
    def discard(self, view) -> int:
        legal = view.legal_discards
        c, j = view.play_counts()
        if j or view.model.honor_chows:
            # wild tiles held, or honour chows (南昌), which the compiled kernels of the
            # plans do not know: the efficiency bot's discard (by the shape engine there)
            return super().discard(view)
        vis = view.visible_counts()
        so = view.shape_options()
        allowed = declaring_allowed(view, self._allowed(view, legal))   # 立四: declare at once
        k = self._attack(view, c, j, vis, so, allowed)
        k = self._defend(view, c, j, so, allowed, k)
        return legal_discard(view, k, legal)

    def _cands(self, c, j, so, vis, allowed):
        """{kind: shanten after discarding it} of each allowed discard, in kind order
        (:func:`majiang._core.game.evaluate_discards`; the live ukeire, a tie-break,
        is counted where a tie asks for it: :meth:`_by_plan`)."""
        sh = np.empty(34, dtype=np.int64)
        uk = np.empty(34, dtype=np.int64)
        _cg.evaluate_discards(c, so, j, vis, np.ascontiguousarray(allowed, dtype=np.uint8),
                              sh, uk, False)
        return {x: s for x, s in zip(range(34), sh.tolist()) if s != -2}

    def _attack(self, view, c, j, vis, so, allowed) -> int:
        cands = self._cands(c, j, so, vis, allowed)
        if not cands:
            return -1
        least = min(cands.values())
        aware = view.min_aware
        if aware and least <= 1:
            live, verdict, wild, hope = self._judge(view, j)
            if least == 0:
                k = self._ready_pick(view, c, j, vis, so, allowed, live, verdict, wild)
                if k >= 0:
                    return k
            k = self._valid_step(view, c, j, so, vis, live, verdict, wild,
                                 [x for x, s in cands.items() if s <= 1])
            if k >= 0:
                return k
        if not plans_of(view.model):
            k, _, _ = self._best(view, c, j, so, vis, allowed)
            return int(k)
        k = self._by_plan(view, c, j, so, vis, cands)
        if k >= 0 and cands[k] == 0 and READY_VALUE and value_rules(view.model):
            k2 = self._ready_value(view, c, j, vis, so, cands)
            if k2 >= 0:
                return k2
        return k

    def _ready_value(self, view, c, j, vis, so, cands) -> int:
        """Among the discards that leave the hand ready, the one whose waits are worth
        most: the live copies of each wait times what it pays self-drawn
        (:meth:`_self_value`); -1 when no wait is live."""
        melds = tuple(view.own_melds)
        live = self._live(view, melds)
        best, key = -1, None
        for x, s in cands.items():
            if s != 0:
                continue
            c[x] -= 1
            total, ev = self._waits_worth(view, c, j, so, vis, melds, live, feed=True)
            c[x] += 1
            if ev > 0:
                kk = (-ev, -total, _centrality(x), x)
                if key is None or kk < key:
                    best, key = x, kk
        return best

    def _waits_worth(self, view, c, j, so, vis, melds, live, feed=False):
        """``(live, worth)`` of the 3n+1 hand ``c``'s waits: their live copies (``live``
        caps less held and visible) and the sum of live copies x what each pays
        self-drawn (:meth:`_self_value`); with ``feed``, a wait in the declared void suit
        of an opponent still in adds :data:`FEED` x its value on a discard per such
        opponent."""
        out = np.zeros(34, dtype=np.uint8)
        _cg.waits(c, so, j, out)
        total = ev = 0.0
        for w in np.flatnonzero(out):
            w = int(w)
            left = int(live[w]) - int(c[w]) - int(vis[w])
            if left <= 0:
                continue
            total += left
            ev += left * self._self_value(view, c, melds, w)
            if feed and FEED > 0 and w < 27:
                fed = sum(1 for q in range(view.players) if q != view.seat
                          and q not in view.won and view.voids[q] == w // 9)
                if fed:
                    ev += FEED * fed * left * self._disc_value(view, c, melds, w)
        return total, ev

    @staticmethod
    def _live(view, melds):
        live = np.array(view.model.shape(melds).caps, dtype=np.int64)
        void = view.voids[view.seat]
        if void >= 0:
            live[9 * void:9 * void + 9] = 0
        return live

    def _win_check(self, view, after, melds, w, self_drawn):
        """THE predicate's verdict (a :class:`~majiang.scoring.WinCheck`, or None when it
        refuses the hand) on the 3n+1 hand ``after`` (+ ``melds``) winning on ``w``
        (cached per hand)."""
        cache = self.__dict__.setdefault("_win_cache", {})
        key = (after.tobytes(), melds, w, bool(self_drawn), view.seat_wind,
               view.prevalent_wind, view.flowers[view.seat], view.ruleset)
        if key in cache:
            return cache[key]
        from ..hand import _trusted_hand
        from ..scoring import check_win
        h = np.array(after, dtype=np.uint8)
        h.flags.writeable = False
        try:
            got = check_win(_trusted_hand(h, melds), w, ruleset=view.model.ruleset,
                            self_drawn=bool(self_drawn), seat_wind=view.seat_wind,
                            prevalent_wind=view.prevalent_wind,
                            flowers=view.flowers[view.seat])
        except MahjongError:
            got = None
        if len(cache) > 1 << 15:
            cache.clear()
        cache[key] = got
        return got

    def _self_value(self, view, after, melds, w) -> float:
        """What the seat gains when ``after`` (+ ``melds``) wins self-drawn on ``w``: the
        ruleset's settlement, the seats already out paying nothing (0 when it does not
        win)."""
        r = self._win_check(view, after, melds, w, True)
        if r is None or not r.valid:
            return 0.0
        d = r.result.settle(view.seat, None)
        out = set(view.won)
        return float(sum(-d[q] for q in range(len(d)) if q != view.seat and q not in out))

    def _disc_value(self, view, after, melds, w) -> float:
        """What the seat gains when ``after`` (+ ``melds``) wins on a discard of ``w`` by
        the next seat (0 when it does not win)."""
        r = self._win_check(view, after, melds, w, False)
        if r is None or not r.valid:
            return 0.0
        return float(r.result.settle(view.seat, (view.seat + 1) % view.players)[view.seat])

    def _pass_discard_win(self, view) -> bool:
        """Under :func:`value_rules`: whether to let a winning discard pass and play on for
        a self-draw (see :data:`PASS_RHO`)."""
        last = view.last_discard
        if last is None or PASS_RHO <= 0:
            return False
        c, j = view.play_counts()
        if j:
            return False
        seat, tile = last
        w = view.play_kind(tile)
        melds = tuple(view.own_melds)
        r = self._win_check(view, c, melds, w, False)
        if r is None or not r.valid:
            return False
        now = float(r.result.settle(view.seat, seat)[view.seat])
        vis = view.visible_counts()
        live = self._live(view, melds)
        u, ev = self._waits_worth(view, c, j, view.shape_options(), vis, melds, live)
        if u <= 0:
            return False
        unseen = float(np.maximum(live - c - vis, 0).sum())
        n_in = view.players - len([q for q in view.won if q != view.seat])
        draws = view.wall_left / max(n_in, 1)
        a = min(u / max(unseen, 1.0), 1.0)
        if view.model.ruleset.blood:
            # the others' wins do not end the hand: a self-draw by the end of the wall
            p_self, p_other = 1.0 - (1.0 - a) ** draws, 0.0
        else:
            # a race: the others win first with a round's chance ``b`` (their tempo
            # priors times RACE_HIT), and such a win costs about what this one pays
            b = 1.0 - float(np.prod([1.0 - RACE_HIT * p for p in
                                     self._threats(view).values()]))
            end = 1.0 - max(1.0 - a - b, 0.0) ** draws
            p_self, p_other = a / (a + b) * end, b / (a + b) * end
        return now < PASS_RHO * (p_self * ev / u - p_other * now)

    def _ready_pick(self, view, c, j, vis, so, allowed, live, verdict, wild) -> int:
        """Among the discards that leave the hand ready, the one whose waits weigh most:
        each live copy of a wait that wins weighs its chance to come to the seat
        (:meth:`reach`: drawn by the seat, or also discarded when the wait wins on a
        discard; with :data:`REACH` off, 1 and :data:`SELF_DRAWN_ONLY`); ties to the most
        live copies; -1 when no live wait wins."""
        out = np.zeros(34, dtype=np.uint8)
        melds = tuple(view.own_melds)
        reach = self.reach(view) if REACH else None
        best, key = -1, None
        for x in np.flatnonzero(allowed):
            x = int(x)
            if not c[x]:
                continue
            c[x] -= 1
            if _cg.shanten(c, so, j) == 0:
                _cg.waits(c, so, j, out)
                score = total = 0.0
                for w in np.flatnonzero(out):
                    w = int(w)
                    left = int(live[w]) - int(c[w]) - int(vis[w])
                    if w in wild or left <= 0:
                        continue
                    total += left
                    if not verdict(c, w):
                        continue
                    if reach is None:
                        score += left if self._on_discard(view, c, melds, w) else (
                            SELF_DRAWN_ONLY * left)
                    else:
                        score += left * (reach[0][w] + (reach[1][w] if self._on_discard(
                            view, c, melds, w) else 0.0))
                if score > 0:
                    kk = (-score, -total, _centrality(x), x)
                    if key is None or kk < key:
                        best, key = x, kk
            c[x] += 1
        return best

    @staticmethod
    def reach(view):
        """``(own, others)``, ``float64 (34,)`` each: the chance that an unseen copy of a
        kind comes to the seat — ``own`` that the seat draws it itself, ``others`` that an
        opponent lets it go (a discard the seat may win on).

        Where an unseen copy lies: in the wall(s) (``wall_left`` tiles, drawn at random) or
        in an opponent's concealed hand (13 tiles less 3 a meld), an opponent's hand
        holding a kind :data:`HOLD` times as densely as the wall, or
        :data:`HOLD_DISCARDED` times when the kind lies in its own discards (it kept none
        of it).  Of the wall's copies the seat draws its own wall's share (one wall per
        seat: ``1 / players`` of them) or its turn's share (a shared wall: one in the seats
        still in); an opponent discards a copy it draws with :data:`LET_DRAWN`, one it
        holds with :data:`LET_HELD`."""
        n = view.players
        opp = [q for q in range(n) if q != view.seat and q not in view.won]
        wall = float(max(view.wall_left, 0))
        per_seat = bool(getattr(view.model.ruleset.wall_end, "per_seat", False))
        share = 1.0 / n if per_seat else 1.0 / (len(opp) + 1)
        pk = view.play_kind
        kind = _TIER
        base = np.array(HOLD)[kind]
        dense = np.zeros(34)
        for q in opp:
            e = base.copy()
            for t in view.discards[q]:
                k = pk(t)
                e[k] = HOLD_DISCARDED[kind[k]]
            dense += max(13 - 3 * len(view.melds[q]), 1) * e
        p_wall = wall / np.maximum(wall + dense, 1e-9)
        own = p_wall * share
        others = p_wall * (1.0 - share) * LET_DRAWN + (1.0 - p_wall) * LET_HELD
        return own, (others if opp else np.zeros(34))

    def _on_discard(self, view, after, melds, w) -> bool:
        """Whether the ready hand ``after`` (+ ``melds``) wins on a discard of ``w`` under
        the ruleset's win predicate (:meth:`_win_check`, cached per hand)."""
        r = self._win_check(view, after, melds, w, False)
        return r is not None and r.valid

    def _valid_step(self, view, c, j, so, vis, live, verdict, wild, xs) -> int:
        """Among the discards ``xs``, the one with the most weighed valid ukeire: the live
        copies of the draws after which some discard leaves a ready hand with a wait that
        wins, a draw counting 1 when such a wait also wins on a discard and
        :data:`SELF_DRAWN_ONLY` when it wins only self-drawn; -1 when none has any."""
        memo, sh_memo = {}, self._shanten_memo(view, tuple(view.own_melds), j)
        bound = []
        for x in xs:
            c[x] -= 1
            bound.append((-_valid_ukeire(c, j, so, vis, live, None, wild,
                                         shanten_memo=sh_memo), _centrality(x), x))
            c[x] += 1
        bound.sort()
        best, top = -1, 0.0
        for nb, _, x in bound:
            if -nb <= top:
                break
            c[x] -= 1
            v = self._weighed_ukeire(view, c, j, so, vis, live, verdict, wild, memo, sh_memo)
            c[x] += 1
            if v > top:
                best, top = x, v
        return best

    def _weighed_ukeire(self, view, c, j, so, vis, live, verdict, wild, memo=None,
                        sh_memo=None) -> float:
        """The weighed valid ukeire of the 3n+1 hand ``c`` (see :meth:`_valid_step`): a
        wait that can win on a discard counts 1, one that wins only self-drawn
        :data:`SELF_DRAWN_ONLY` (:func:`~majiang.game.players._valid_ukeire`; ``memo`` kept
        for the decision, ``sh_memo`` from :meth:`_shanten_memo`)."""
        melds = tuple(view.own_melds)

        def weight(c13, w) -> float:
            return 1.0 if self._on_discard(view, c13, melds, w) else SELF_DRAWN_ONLY

        return _valid_ukeire(c, j, so, vis, live, verdict, wild, weight, memo, sh_memo)

    def _shanten_memo(self, view, melds, j) -> dict:
        """The ``shanten_memo`` of :func:`~majiang._core.game.valid_ukeire` for the seat's
        hands with ``melds`` and ``j`` jokers: a hand's shanten depends on its tiles and
        the shape options (the model, the melds, the 定缺 suit) alone, so it is kept across
        the decisions of the hand (and of later hands under the same model).  The best
        weight of a tenpai hand (``memo``) also reads the seat's table (winds, flowers,
        the 番 it carries): that memo lives for one decision."""
        key = (view.seat, melds, int(j), view.voids[view.seat], id(view.model))
        memos = self.__dict__.setdefault("_shanten_memos", {})
        got = memos.get(key)
        if got is None or got[0] is not view.model:
            if len(memos) > 256:
                memos.clear()
            got = memos[key] = (view.model, {})
        elif len(got[1]) > 1 << 16:
            got[1].clear()
        return got[1]

    def _by_plan(self, view, c, j, so, vis, cands) -> int:
        melds = tuple(view.own_melds)
        ctx = _context(view, melds)
        vals = _values(c, melds, j, so, ctx)        # the general plan, then each plan
        cut = float(vals.min()) + 1.0
        # the TOP_PLANS nearest plans within 1 of the best (ties in the plans' order)
        top = [int(i) for i in np.argsort(vals[1:], kind="stable")
               if vals[1 + i] <= cut][:TOP_PLANS]
        dz = None
        if ctx[4] and DEF_W > 0:
            threats = self._threats(view)
            if threats:
                dz = self.dangers(view, c, threats)
        xs = list(cands)
        keys = {}
        for x, d in zip(xs, _minima(c, melds, j, so, ctx, top, xs)):
            d = float(d)
            if dz is not None:
                d = round((d + DEF_W * float(dz[x])) / DEF_STEP)
            keys[x] = (d, cands[x])
        # the least (plan value, shanten), then the most live ukeire (counted for the
        # tied discards only), then honors before terminals before inner tiles
        least = min(keys.values())
        best, key = -1, None
        for x, k in keys.items():
            if k != least:
                continue
            c[x] -= 1
            _, u = _cg.evaluate(c, so, j, vis)
            c[x] += 1
            kk = (-u, _centrality(x), x)
            if key is None or kk < key:
                best, key = x, kk
        return best

    # -- defence ---------------------------------------------------------------
    def _threats(self, view) -> dict:
        from ..opponents import DEFAULT_MODEL
        out = {}
        model = view.model
        won, discards, melds = view.won, view.discards, view.melds
        for q in range(view.players):
            if q == view.seat or q in won:
                continue
            nd = len(discards[q])
            nm = sum(1 for m in melds[q] if not m[2])
            out[q] = DEFAULT_MODEL.p_ready_prior(model, nd, nm)
        return out

    def _defend(self, view, c, j, so, allowed, k) -> int:
        if int(_cg.shanten(c, so, j)) < FOLD_SHANTEN:     # the best shanten after a discard
            return k
        threats = self._threats(view)
        if not threats or max(threats.values()) < FOLD_P:
            return k
        return self.safest(view, c, allowed, threats, k)

    @staticmethod
    def dangers(view, c, threats) -> np.ndarray:
        """``float64 (34,)``: the cheap danger of discarding each held kind against
        ``threats`` (``{seat: P(ready)}``; see the module text); a kind of a suit an
        opponent declared void (定缺) is no danger to it."""
        vis = view.visible_counts().astype(np.int64)
        disc = view.discards
        pk = view.play_kind
        voids = view.voids
        n, me = view.players, view.seat
        own_disc, after = {}, {}
        for q in threats:
            own_disc[q] = {pk(t) for t in disc[q]}
            # the latest discard of each seat after q in turn order before this seat
            # (passed by q since its own latest discard; claims make this approximate)
            d = (q - me) % n
            after[q] = {pk(disc[(me + e) % n][-1]) for e in range(d + 1, n)
                        if disc[(me + e) % n]}
        out = np.zeros(34)
        for x in np.flatnonzero(c):
            x = int(x)
            unseen = max(4 - int(vis[x]) - int(c[x]), 0)
            base = (1 + unseen) / 5.0
            if x >= 27:
                base *= HONOR_FACTOR
            elif x % 9 in (0, 8):
                base *= TERMINAL_FACTOR
            dz = 0.0
            for q, p in threats.items():
                if x < 27 and voids[q] == x // 9:
                    continue
                f = 1.0
                if x in own_disc[q]:
                    f *= OWN_FACTOR
                if x in after[q]:
                    f *= PASSED_FACTOR
                dz += p * base * f
            out[x] = dz
        return out

    @classmethod
    def safest(cls, view, c, allowed, threats, prefer=-1) -> int:
        """The allowed held kind of least cheap danger against ``threats`` (``{seat:
        P(ready)}``; :meth:`dangers`); ties go to ``prefer``, then honors first."""
        dz = cls.dangers(view, c, threats)
        best, key = -1, None
        for x in np.flatnonzero(allowed):
            x = int(x)
            if not c[x]:
                continue
            kk = (round(float(dz[x]), 9), x != prefer, _centrality(x), x)
            if key is None or kk < key:
                best, key = x, kk
        return best

    # -- calls -----------------------------------------------------------------
    def claim(self, view, options):
        valued = value_rules(view.model)
        if ("win",) in options:
            if valued and self._pass_discard_win(view):
                return None
            return ("win",)
        last = view.last_discard
        if last is not None:
            options = standing_kept(view, options, last[1])     # 立四: keep one to declare
            if not options:
                return None
        if last is None or not plans_of(view.model) or view.model.honor_chows:
            return super().claim(view, options)
        kind = view.play_kind(last[1])
        c, j = view.play_counts()
        if j:
            return super().claim(view, options)
        if valued and VALUE_CLAIMS:
            return self._value_claim(view, options, c, j, kind)
        melds = tuple(view.own_melds)
        open_hand = any(not m.concealed for m in melds)
        now = plan_value(view, c)
        best, key = None, now
        for o in options:
            c2, m = called(c, kind, o)
            if o[0] == "kong":
                if not (open_hand or valued):
                    continue
                s0 = int(_cg.shanten(c, view.shape_options(), j))
                s1 = int(_cg.shanten(c2, view.shape_options((m,)), j))
                if s1 <= s0 + (KONG_SLACK if valued and s0 >= 2 else 0):
                    return o        # a kong pays (value rules) or keeps the shanten
                continue
            v, name = plan_value(view, c2, (m,), with_plan=True)[:2]
            ready = self._call_can_win(view, c2, j, m)
            if ready is False:
                continue
            if ready is True and READY_CALLS and not valued:
                v = min(v, 0.0)         # a ready hand whose wait wins: as good as a plan
            elif (CALL_VALID and ready is None and not valued
                  and (name == "general" or v > key - CALL_GAIN)
                  and self._call_valid(view, c, c2, j, m) >= CALL_VALID):
                v = min(v, key - CALL_GAIN)     # 1 from ready, enough draws to a valid wait
            elif name == "general" and not valued:
                continue
            if v > key - CALL_GAIN:
                continue
            best, key = o, v
        return best

    def _value_claim(self, view, options, c, j, kind):
        """A claim under :func:`value_rules`: a kong as :data:`KONG_SLACK` allows; a pung
        when (plan value, shanten, -live ukeire) after it and its best discard is below
        the hand's as it is — the efficiency bot's test with the plans put first."""
        vis = view.visible_counts()
        so = view.shape_options()
        s0, u0 = _cg.evaluate(c, so, j, vis)
        best, key = None, (round(plan_value(view, c), 6), s0, -u0)
        void = view.voids[view.seat]
        for o in options:
            c2, m = called(c, kind, o)
            so1 = view.shape_options((m,))
            if o[0] == "kong":
                s1 = int(_cg.shanten(c2, so1, j))
                if s1 <= s0 + (KONG_SLACK if s0 >= 2 else 0):
                    return o
                continue
            k, s1, u1 = _cg.choose_discard(c2, so1, j, vis, void)
            if k < 0:
                continue
            k1 = (round(plan_value(view, c2, (m,)), 6), s1, -u1)
            if k1 < key:
                best, key = o, k1
        return best

    def _call_valid(self, view, c, c2, j, m) -> int:
        """After the call ``m`` (counts ``c2``, the hand to discard from): when the call
        takes the hand (``c`` before it) from 2 or more to 1 from ready, the most valid
        ukeire (live draws to a ready hand whose wait wins with the called meld) over its
        1-from-ready discards; else 0."""
        so0 = view.shape_options()
        if int(_cg.shanten(c, so0, j)) < 2:
            return 0
        so = view.shape_options((m,))
        vis = view.visible_counts()
        live = np.array(view.model.shape(tuple(view.own_melds) + (m,)).caps, dtype=np.int64)
        void = view.voids[view.seat]
        if void >= 0:
            live[9 * void:9 * void + 9] = 0
        verdict, _ = view.judge_waits(j, (m,))
        wild = () if view.stand_in is not None else view.joker_kinds
        allowed = self._allowed(view)
        best = 0
        memo, sh_memo = {}, self._shanten_memo(view, tuple(view.own_melds) + (m,), j)
        for x in np.flatnonzero(allowed):
            x = int(x)
            if not c2[x]:
                continue
            c2[x] -= 1
            if int(_cg.shanten(c2, so, j)) == 1:
                best = max(best, int(_valid_ukeire(c2, j, so, vis, live, verdict, wild,
                                                   memo=memo, shanten_memo=sh_memo)))
            c2[x] += 1
        return best

    def _call_can_win(self, view, c2, j, m):
        """After the call ``m`` (counts ``c2``, the hand to discard from): None when its
        least shanten after a discard is not 0 (nothing to judge yet), True when some
        discard leaves a ready hand with a live wait that wins, False otherwise."""
        so = view.shape_options((m,))
        vis = view.visible_counts()
        allowed = self._allowed(view)
        k, s, _ = _cg.choose_discard(c2, so, j, vis, view.voids[view.seat], allowed)
        if k < 0:
            return False
        if s != 0:
            return None
        if not view.min_aware:
            return True
        live = np.array(view.model.shape(tuple(view.own_melds) + (m,)).caps, dtype=np.int64)
        verdict, hope = view.judge_waits(j, (m,))
        wild = () if view.stand_in is not None else view.joker_kinds
        got = self._valid_tenpai(c2, j, vis, so, allowed, live, verdict, wild, hope)
        return got >= 0

    def declare(self, view, options):
        if ("win",) in options:
            return ("win",)
        if not value_rules(view.model):
            return super().declare(view, options)
        return self._kong_option(view, standing_kept(view, options), lambda s_keep: KONG_SLACK if s_keep >= 2 else 0)

    def __repr__(self) -> str:
        return "ExpertPlayer()"


# the registry lives in players (which the engine asks); this module adds itself, and
# majiang.game imports it, so the name is known wherever majiang.game.players is
BUILTIN_PLAYERS["expert"] = ExpertPlayer

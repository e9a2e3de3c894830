"""One position's engine and the choice of route: :class:`_Engine` holds the ruleset
shanten, the kernel's hand-state graphs, the true-wall solver and the Monte Carlo on
real walls (the Python route of the 2-5-8 / 三金倒 rulesets is its part
:class:`~majiang.probability.route258._Route258`); :func:`_run` picks the method for
one root (exact, the automatic budgets, Monte Carlo) and :func:`_setup` checks the
arguments and builds the position and its engine."""
from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

import numpy as np

from .._core import efficiency as _eff
from .._core import probability as _prob
from .._parallel import plain_seed, resolve_n_jobs, spawn_seeds
from ..errors import MahjongError, RuleError
from ..tiles import N_KINDS
from . import limits
from .limits import (
    _OBJ_TENPAI, _OBJ_WIN, AUTO_MAX_SHANTEN, B258_PY_MAX_DRAWS, CHUNK, JOKER, MAX_CHANGES, REAL,
    S1, TRUE_WALL, TRUE_WALL_MAX_DRAWS, TRUE_WALL_WINS_MAX_DRAWS, _kernel_misjudges, _PredBudget,
)
from .position import (
    _check_changes, _check_draws, _check_method, _check_samples, _policy_parts, _Position,
    _position, _raise_pred_error, _WinPred,
)
from .results import Probabilities
from .route258 import _Route258


class _Engine(_Route258):
    """One position: graphs for its roots, exact solves and simulations."""

    def __init__(self, pos: _Position, draws: int, changes: int | None, max_states: int):
        _eff.build_tables()
        self.pos, self.T, self.changes = pos, draws, changes
        self.max_states = max_states
        self.keep_wins = False
        self._graphs: dict = {}
        self._shanten: dict = {}
        self._b258 = None       # pair_258_small / all_258: the ruleset's shape groups
        if _kernel_misjudges(pos.model):
            from ..efficiency import _plan258
            self._b258 = _plan258(pos.model.ruleset)
        self._three = pos.model.jokers_to_win      # 3 三金倒 / 三财神, 4 四鬼胡, 0 none
        self._extra = _extra_forms(pos)     # 十三烂 / 七星归位: the ruleset's shape engine
        # honour chows (南昌): the kernel knows none, every shanten is the shape engine's
        # and every root takes the Python paths (exact to B258_PY_MAX_DRAWS, then greedy)
        self._hc = _honor_chow_engine(pos)
        self.pred_over = False  # the auto search ran past JOKER_PRED_BUDGET
        self.mc_work: int | None = None   # B258_MC_WORK(_PLAIN) while an auto call runs
        self.rows_done = 0                # ruleset-shanten rows of the greedy player
        self.pred_mc_work: float | None = None   # JOKER_MC_PRED_WORK while an auto call runs
        self._eff_memo: dict = {}
        self._greedy_memo = None   # the greedy player's per-hand facts (sequential runs)

    # -- shanten under the ruleset's shape options --------------------------------
    def shanten(self, h0: np.ndarray, j0: int = 0) -> int:
        """The ruleset's shanten of ``(h0, j0)``; under 三金倒 / 三财神 / 四鬼胡 the least of
        the shape shanten and the draws to the last joker needed (``need - 1 - jokers``:
        -1 for a 3n+2 hand with all, 0 for a 3n+1 hand with one fewer or more), as
        :func:`majiang.rules.shapes.form_shanten`."""
        s = self.shape_shanten(h0, j0)
        if self._three:
            n = int(h0.sum()) + int(j0)
            s = min(s, max(-1 if n % 3 == 2 else 0, self._three - 1 - int(j0)))
        return s

    def shape_shanten(self, h0: np.ndarray, j0: int = 0) -> int:
        """The shanten of the ruleset's shapes (its forms and constraints, no 三金倒)."""
        key = (h0.tobytes(), j0)
        got = self._shanten.get(key)
        if got is not None:
            return got
        pos = self.pos
        if self._b258 is not None:       # small win 2-5-8 pair, 大胡 shapes any pair
            from ..efficiency import _b258_shanten
            pred = pos.pred
            if isinstance(pred, _WinPred) and pred.budget is not None:
                pred.spent += limits.B258_SHANTEN_UNITS      # the auto search's cost estimate
                if pred.spent > pred.budget:
                    raise _PredBudget(f"more than {pred.budget:g} units of work")
            caps = pos.caps if pos.caps is not None else self._b258.copies
            s = int(_b258_shanten(self._b258, np.ascontiguousarray(h0, dtype=np.uint8), caps,
                                  pos.melds, int(j0)))
            self._shanten[key] = s
            return s
        if self._hc is not None:
            s = self._honor_chow_shanten(h0, j0)
        else:
            s = self._kernel_shanten(h0, j0)
            if self._extra is not None:
                s = min(s, self.extra_shanten(h0, j0))
        self._shanten[key] = s
        return s

    def _honor_chow_shanten(self, h0: np.ndarray, j0: int = 0) -> int:
        """The shanten of every form of a ruleset with honour chows (南昌), by its
        compiled shape engine (:func:`majiang.rules.shapes.core_form_shanten`), the
        extra forms read with the held wild tiles' faces as :meth:`extra_shanten`."""
        from ..rules.shapes import core_form_shanten, own_face_forms
        spec, rs, suits = self._hc
        kw = dict(caps=self.pos.caps, n_melds=len(self.pos.melds), spec=spec,
                  meld_suits=suits)
        per = core_form_shanten(np.ascontiguousarray(h0, dtype=np.uint8), jokers=int(j0),
                                **kw)
        per = own_face_forms(per, rs, h0, int(j0), self.pos.faces, **kw)
        return int(min(per.values()))

    def _kernel_shanten(self, h0: np.ndarray, j0: int = 0) -> int:
        """The shanten of the forms the kernel knows (the core's)."""
        pos = self.pos
        return int(_eff.shanten_one(h0, pos.mask, pos.quads, pos.caps, j0, pos.shape.fifth,
                                    pair_mask=pos.pair_mask, void_suits=pos.void_suits))

    def extra_shanten(self, h0: np.ndarray, j0: int = 0) -> int:
        """The shanten of the ruleset's whole-hand forms the kernel does not know (十三烂,
        七星归位: :data:`majiang.rules.shapes.EXTRA_FORM_KEPT`), by the ruleset's compiled
        shape engine; held wild tiles stand for their own faces where the ruleset says so
        (南昌 德国, :func:`majiang.rules.shapes.own_face_forms`: the position's faces; a
        joker drawn later is of no known face and takes no part).  99 without them."""
        from ..rules.shapes import EXTRA_FORM_KEPT, core_form_shanten, own_face_forms
        spec, rs = self._extra
        kw = dict(caps=self.pos.caps, n_melds=0, spec=spec)
        per = core_form_shanten(h0, jokers=int(j0), **kw)
        per = own_face_forms(per, rs, h0, int(j0), self.pos.faces, **kw)
        return min((v for f, v in per.items() if f in EXTRA_FORM_KEPT), default=99)

    # -- graphs ------------------------------------------------------------------
    def graph(self, budget: int, unrestricted: bool = False):
        key = (budget, unrestricted)
        g = self._graphs.get(key)
        if g is None:
            pos = self.pos
            jr = pos.model.jokers
            g = _prob.Graph(pos.unseen, pos.caps, pos.mask, pos.quads, budget,
                            self.max_states, pos.pred, pair_mask=pos.pair_mask,
                            void_suits=pos.void_suits, joker_unseen=pos.joker_unseen,
                            joker_discard=bool(jr.discard) if jr is not None else True,
                            fifth=bool(jr.fifth_copy) if jr is not None else False,
                            unrestricted=unrestricted)
            self._graphs[key] = g
        return g

    def solve(self, g, h0: np.ndarray, j0: int, objective: int):
        """(V, curve, root) or None when the state limit is hit."""
        try:
            root = g.add_root(h0, j0)
        except MemoryError:
            if g.n_states >= self.max_states:
                return None
            raise
        status, V, curve = g.solve(root, h0, self.T, self.pos.U, objective)
        _raise_pred_error(g.pred_error, self.pos.model)
        if status in (-3, -4):
            raise KeyboardInterrupt("interrupted")
        if status == -2:
            return None
        if status < 0:
            raise MemoryError("out of memory while building the hand-state graph")
        return V, curve, root

    def _result(self, g, h0, j0, policy: str) -> Probabilities | None:
        T = self.T
        win = self.solve(g, h0, j0, _OBJ_WIN)
        if win is None:
            return None
        wm = g.last_win_mass
        ten = self.solve(g, h0, j0, _OBJ_TENPAI)
        if ten is None:
            return None
        (Vw, cw, root), (Vt, ct, _) = win, ten
        winning = None
        if self.keep_wins:
            winning = self._winning_of(g, wm)
        z = np.zeros(T)
        return Probabilities(
            draws=T, p_win=float(Vw[root, 0]), p_tenpai=float(Vt[root, 0]), se_win=0.0,
            se_tenpai=0.0, win_curve=cw[1:].copy(), tenpai_curve=ct[1:].copy(),
            win_curve_se=z, tenpai_curve_se=z.copy(), method="exact", policy=policy,
            n_states=int(g.n_states), model=S1, note=self.pos.note, ruleset=self.pos.name,
            _winning=winning)

    @staticmethod
    def _winning_of(g, wm):
        """(hands13 uint8 (n, 34), win kind intp (n,), weight (n,), jokers (n,), None)."""
        table = g.edge_table()
        owner, kind = table[0][:wm.size], table[1][:wm.size]
        sel = np.flatnonzero(wm > 0)
        hands = np.array([g.hand_of(int(i)) for i in owner[sel]],
                         dtype=np.uint8).reshape(-1, N_KINDS)
        jk = np.array([int(g.jokers_of(int(i))) for i in owner[sel]], dtype=np.intp)
        return hands, kind[sel].astype(np.intp), wm[sel].copy(), jk, None

    def _true_wall(self, h0: np.ndarray, j0: int) -> Probabilities | None:
        """The kernel's true-wall optimum; with ``keep_wins`` also the winning hands of
        that play (``true_wall_solve(..., wins=True)``)."""
        pos, T = self.pos, self.T
        jr = pos.model.jokers
        wall35 = np.append(pos.unseen, pos.joker_unseen).astype(np.int32)
        kw = dict(fifth=bool(jr.fifth_copy) if jr is not None else False,
                  pair_mask=pos.pair_mask, void_suits=pos.void_suits,
                  joker_discard=bool(jr.discard) if jr is not None else True,
                  pred=pos.pred, max_states=self.max_states)
        out, winning = [], None
        for objective in (_OBJ_WIN, _OBJ_TENPAI):
            wins = self.keep_wins and objective == _OBJ_WIN
            try:
                got = _prob.true_wall_solve(h0, j0, wall35, T, objective, pos.mask, pos.quads,
                                            pos.caps, wins=wins, **kw)
            except BaseException as exc:       # a predicate error is re-raised as itself
                if isinstance(exc, Exception) and not isinstance(exc, (MahjongError,
                                                                        MemoryError)):
                    _raise_pred_error(exc, pos.model)
                raise
            if got is None:
                return None
            out.append(got[:3])
            if wins:
                winning = _before_draw(*got[3])
        (p_win, cw, n_w), (p_ten, ct, n_t) = out
        n_states = int(n_w) + int(n_t)
        z = np.zeros(T)
        return Probabilities(
            draws=T, p_win=float(p_win), p_tenpai=float(p_ten), se_win=0.0, se_tenpai=0.0,
            win_curve=np.asarray(cw, dtype=np.float64).copy(),
            tenpai_curve=np.asarray(ct, dtype=np.float64).copy(), win_curve_se=z,
            tenpai_curve_se=z.copy(), method="exact", policy="optimal", n_states=n_states,
            model=TRUE_WALL, note=pos.note, ruleset=pos.name, _winning=winning)

    def exact(self, h0: np.ndarray, j0: int, best: bool) -> Probabilities | None:
        """The exact search: ``best`` = the best play that fits (``method="exact"``),
        else the fast default (true wall for short horizons, else ``changes<=0``)."""
        if self._python_paths(h0, j0):
            # pair_258_small / all_258, 三金倒: the kernel judges completion and tenpai by
            # the core's forms; short horizons are solved here with the ruleset's shanten
            self._b258_no_kernel()
            if self.T <= B258_PY_MAX_DRAWS:
                return self.b258_true_wall(h0, j0)
            if best:
                raise RuleError(
                    f"under {self.pos.name} ({self._what()}) the exact search covers at "
                    f"most {B258_PY_MAX_DRAWS} draws; use method='monte_carlo' (real walls, "
                    "greedy play) for longer horizons")
            return None
        if self.changes is not None:
            return self._result(self.graph(self.changes), h0, j0, f"changes<={self.changes}")
        if self.T <= (TRUE_WALL_WINS_MAX_DRAWS if self.keep_wins else TRUE_WALL_MAX_DRAWS):
            r = self._true_wall(h0, j0)
            if r is not None:
                return r
        if not best:
            return self._result(self.graph(0), h0, j0, "changes<=0")
        r = self._result(self.graph(0, unrestricted=True), h0, j0, "optimal")
        if r is not None:
            return r
        found, prev = None, -1
        for b in range(MAX_CHANGES + 1):
            r = self._result(self.graph(b), h0, j0, f"changes<={b}")
            if r is None:
                break
            found = r
            if r.n_states == prev:       # no change move left to add
                break
            prev = r.n_states
        return found

    def simulate(self, h0: np.ndarray, j0: int, policy: str, n: int, seed: Any,
                 n_jobs: int | None, keep_wins: bool = False) -> Probabilities | None:
        pos = self.pos
        if self._python_paths(h0, j0):       # never the kernel's forms (see exact)
            self._b258_no_kernel()
            return self.b258_simulate(h0, j0, n, seed, keep_wins)
        label = "greedy"
        if policy == "optimal":
            budget = 0 if self.changes is None else self.changes
            g = self.graph(budget)
            win = self.solve(g, h0, j0, _OBJ_WIN)
            ten = self.solve(g, h0, j0, _OBJ_TENPAI) if win is not None else None
            if ten is None:
                return None
            label = f"changes<={budget}"
        n_chunks, chunk_walls = self._wall_chunks(n, seed)
        win_time = np.empty(n, dtype=np.int16)
        ten_time = np.empty(n, dtype=np.int16)
        final = np.empty((n, N_KINDS), dtype=np.uint8) if keep_wins else None
        final_j = np.zeros(n, dtype=np.int8)
        tile = np.empty(n, dtype=np.int8)
        gpred = _prob._Pred(pos.pred) if policy == "greedy" else None
        jr = pos.model.jokers

        jobs = resolve_n_jobs(n_jobs)
        sequential = jobs <= 1 or n_chunks == 1 or (policy == "greedy" and pos.pred is not None)
        memo = None
        if policy == "greedy" and sequential:       # one memo for the position's roots
            if self._greedy_memo is None:
                self._greedy_memo = _prob.GreedyMemo()
            memo = self._greedy_memo

        def run(c: int) -> int:
            lo, hi, walls = chunk_walls(c)
            m = hi - lo
            fin = final[lo:hi] if final is not None else np.empty((m, N_KINDS), dtype=np.uint8)
            if policy == "greedy":
                return _prob.simulate_greedy(
                    h0, pos.unseen, pos.caps, pos.mask, pos.quads, gpred, walls,
                    win_time[lo:hi], ten_time[lo:hi], fin, tile[lo:hi],
                    pair_mask=pos.pair_mask, void_suits=pos.void_suits, jokers0=j0,
                    joker_unseen=pos.joker_unseen,
                    joker_discard=bool(jr.discard) if jr is not None else True,
                    fifth=bool(jr.fifth_copy) if jr is not None else False,
                    final_jokers=final_j[lo:hi], memo=memo)
            Vw, _, root = win
            Vt, _, _ = ten
            scratch_t = np.empty(m, dtype=np.int16)
            scratch_w = np.empty(m, dtype=np.int16)
            g.simulate(root, Vw, walls, win_time[lo:hi], scratch_t, fin, tile[lo:hi],
                       final_j[lo:hi])
            g.simulate(root, Vt, walls, scratch_w, ten_time[lo:hi],
                       np.empty((m, N_KINDS), dtype=np.uint8), np.empty(m, dtype=np.int8))
            return 0

        played = n
        cap = self.pred_mc_work if policy == "greedy" else None
        units0 = pos.pred.units if cap is not None else 0.0
        if sequential:
            codes = []
            for c in range(n_chunks):
                codes.append(run(c))
                if codes[-1] < 0 and gpred is not None:    # predicate error or a signal
                    _raise_pred_error(gpred.error, pos.model)
                if cap is not None and c + 1 < n_chunks and (
                        pos.pred.units - units0 >= cap
                        or (c + 1) * CHUNK >= limits.JOKER_MC_MAX_WALLS):
                    played = (c + 1) * CHUNK    # the automatic method's work cap
                    break
        else:
            with ThreadPoolExecutor(min(jobs, n_chunks)) as ex:
                codes = list(ex.map(run, range(n_chunks)))
        if gpred is not None:
            _raise_pred_error(gpred.error, pos.model)
        if any(c < 0 for c in codes):
            raise MahjongError("Monte Carlo simulation failed")
        note = pos.note
        if played < n:
            win_time, ten_time, tile, final_j = (win_time[:played], ten_time[:played],
                                                 tile[:played], final_j[:played])
            final = final[:played] if final is not None else None
            note = (note + "; " if note else "") + (
                f"{played} of {n} walls played (the automatic method's cap under jokers: "
                f"{limits.JOKER_MC_MAX_WALLS} walls or {cap:g} units of winning-hand checks)")
        winning = None
        if keep_wins:
            won = win_time > 0
            winning = (final[won], tile[won].astype(np.intp),
                       np.full(int(won.sum()), 1.0 / played), final_j[won].astype(np.intp),
                       played)
        return self._mc_result(win_time, ten_time, label,
                               int(g.n_states) if policy == "optimal" else None, note,
                               winning)

    def _wall_chunks(self, n: int, seed: Any) -> tuple:
        """The real walls of the Monte Carlo (both players, :meth:`simulate` and
        :meth:`b258_simulate`): ``(n_chunks, walls)``, ``walls(c) -> (lo, hi, uint8
        (hi - lo, T))`` the first ``T`` tiles of the shuffled unseen tiles (34 = a joker)
        for samples ``lo:hi``; chunk ``c`` of ``CHUNK`` samples draws from its own child
        of ``SeedSequence(seed).spawn``, so the walls depend on the seed only (never on
        ``n_jobs``) and a shorter horizon's walls are the prefixes of a longer one's."""
        pos, T = self.pos, self.T
        pool = np.repeat(np.arange(N_KINDS + 1, dtype=np.uint8),
                         np.append(pos.unseen, pos.joker_unseen).astype(np.intp))
        n_chunks = max(1, math.ceil(n / CHUNK))
        seeds = spawn_seeds(seed, n_chunks)

        def walls(c: int) -> tuple:
            lo, hi = c * CHUNK, min(n, (c + 1) * CHUNK)
            rng = np.random.Generator(np.random.PCG64(seeds[c]))
            return lo, hi, _deal(rng, pool, hi - lo, T)

        return n_chunks, walls

    def _mc_result(self, win_time: np.ndarray, ten_time: np.ndarray, policy: str,
                   n_states: int | None, note: str | None, winning: Any) -> Probabilities:
        """The Monte Carlo :class:`Probabilities` from each sample's draw of the win
        (``win_time``: 1..T, 0 = none) and of tenpai (``ten_time``: 0..T, -1 = never)."""
        T, n = self.T, win_time.size
        steps = np.arange(1, T + 1)
        wc = ((win_time[:, None] >= 1) & (win_time[:, None] <= steps[None, :])).mean(axis=0)
        tc = ((ten_time[:, None] >= 0) & (ten_time[:, None] <= steps[None, :])).mean(axis=0)
        p_t = float(tc[-1]) if T else float(np.mean(ten_time == 0))
        p_w = float(wc[-1]) if T else 0.0
        return Probabilities(
            draws=T, p_win=p_w, p_tenpai=p_t, se_win=_se(p_w, n), se_tenpai=_se(p_t, n),
            win_curve=wc.astype(np.float64), tenpai_curve=tc.astype(np.float64),
            win_curve_se=np.sqrt(wc * (1 - wc) / n), tenpai_curve_se=np.sqrt(tc * (1 - tc) / n),
            method="monte_carlo", policy=policy, n_samples=n, n_states=n_states, model=REAL,
            note=note, ruleset=self.pos.name, _winning=winning)


def _honor_chow_engine(pos: _Position) -> tuple | None:
    """``(shape spec, ruleset, suits of the melds)`` of the ruleset's compiled shape
    engine when the ruleset plays honour chows (:attr:`RuleSpec.honor_chows
    <majiang.rules.model.RuleSpec.honor_chows>`, 南昌), which the kernel does not know;
    else None."""
    if not pos.model.honor_chows:
        return None
    from ..rules.shapes import _spec, meld_suits
    return _spec(pos.model.ruleset), pos.model.ruleset, meld_suits(pos.melds)


def _extra_forms(pos: _Position) -> tuple | None:
    """``(shape spec, ruleset)`` of the ruleset's compiled shape engine when the ruleset
    has whole-hand forms the kernel does not know (十三烂, 七星归位) and the hand is
    concealed (they take all 14 tiles), else None; not under the 2-5-8 families, whose
    own route judges every form (:func:`~majiang.probability.limits._kernel_misjudges`)."""
    from ..rules.shapes import EXTRA_FORM_KEPT, _spec
    rs = pos.model.ruleset
    if pos.melds or _kernel_misjudges(pos.model) or not any(
            f in EXTRA_FORM_KEPT for f in rs.forms):
        return None
    return _spec(rs), rs


def _before_draw(hands14: np.ndarray, kinds: np.ndarray, jokers14: np.ndarray,
                 mass: np.ndarray) -> tuple:
    """The kernel's winning hands (complete hands, winning draw, jokers held after it,
    probability) as ``Probabilities._winning``: ``(hands13 uint8 (n, 34), win kind intp
    (n,), weight (n,), jokers before the draw intp (n,), None)``."""
    hands = np.array(hands14, dtype=np.uint8).reshape(-1, N_KINDS)
    kinds = np.asarray(kinds, dtype=np.intp)
    real = np.flatnonzero(kinds != JOKER)
    hands[real, kinds[real]] -= 1
    jokers = np.asarray(jokers14, dtype=np.intp) - (kinds == JOKER)
    return hands, kinds, np.asarray(mass, dtype=np.float64), jokers, None


def _deal(rng: np.random.Generator, pool: np.ndarray, m: int, T: int) -> np.ndarray:
    """``uint8 (m, T)``: the first ``T`` tiles of ``m`` uniform shuffles of ``pool``
    (a partial Fisher-Yates shuffle, vectorised over the rows; 34 = a joker)."""
    U = pool.size
    walls = np.tile(pool, (m, 1))
    rows = np.arange(m)
    for j in range(T):
        r = j + rng.integers(0, U - j, size=m)
        picked = walls[rows, r]
        walls[rows, r] = walls[rows, j]
        walls[rows, j] = picked
    return np.ascontiguousarray(walls[:, :T])


def _se(p: float, n: int) -> float:
    return math.sqrt(max(p * (1.0 - p), 0.0) / n)


def _zero_draws(engine: _Engine, h0: np.ndarray, j0: int) -> Probabilities:
    tenpai = 1.0 if engine.shanten(h0, j0) <= 0 else 0.0
    e = np.zeros(0)
    pos = engine.pos
    return Probabilities(0, 0.0, tenpai, 0.0, 0.0, e, e.copy(), e.copy(), e.copy(), "exact",
                         "optimal", model=TRUE_WALL, note=pos.note, ruleset=pos.name)


def _out_of_reach(engine: _Engine, s: int) -> Probabilities:
    T, pos = engine.T, engine.pos
    z = np.zeros(T)
    note = pos.note or f"{s}-shanten: no win or tenpai is reachable within {T} draws"
    return Probabilities(T, 0.0, 0.0, 0.0, 0.0, z, z.copy(), z.copy(), z.copy(), "exact",
                         "optimal", model=TRUE_WALL, note=note, ruleset=pos.name,
                         _winning=(np.zeros((0, N_KINDS), np.uint8), np.zeros(0, np.intp),
                                   np.zeros(0), np.zeros(0, np.intp), None))


def _run(engine: _Engine, h0: np.ndarray, j0: int, method: str, policy: str | None,
         n_samples: int, seed: Any, n_jobs: int | None, keep_wins: bool = False) -> Probabilities:
    """The probabilities of the root ``(h0, j0)`` (:func:`_run_root`), noting a
    whole-hand form's limits (:meth:`_Engine.extra_note`)."""
    res = _run_root(engine, h0, j0, method, policy, n_samples, seed, n_jobs, keep_wins)
    left = engine.extra_note(h0, j0)
    if left and res is not None:
        res = replace(res, note=(res.note + "; " if res.note else "") + left)
    return res


def _run_root(engine: _Engine, h0: np.ndarray, j0: int, method: str, policy: str | None,
              n_samples: int, seed: Any, n_jobs: int | None,
              keep_wins: bool = False) -> Probabilities:
    seed = plain_seed(seed)        # once: a Generator advances once though walls are dealt twice
    policy = _policy_parts(policy)[0]     # a printed name; its change budget is the engine's
    named = policy is not None or engine.changes is not None     # see _auto_method
    if engine.T == 0:
        return _zero_draws(engine, h0, j0)
    s = engine.shanten(h0, j0)
    if s > engine.T:           # each draw lowers the shanten by at most one: both are 0
        return _out_of_reach(engine, s)
    engine.keep_wins = keep_wins
    short = engine.T <= TRUE_WALL_MAX_DRAWS
    pred = engine.pos.pred
    budgeted = (method == "auto" and isinstance(pred, _WinPred)
                and engine.pos.model.jokers is not None)
    engine.mc_work = None
    engine.pred_mc_work = limits.JOKER_MC_PRED_WORK if budgeted else None
    if method == "auto":
        engine.mc_work = (limits.B258_MC_WORK if engine.pos.model.jokers is not None
                          else limits.B258_MC_WORK_PLAIN)
    if method == "exact" or (method == "auto" and policy is None
                             and (s <= AUTO_MAX_SHANTEN or short or engine.changes is not None)
                             and not engine.pred_over):
        if budgeted:
            pred.budget = limits.JOKER_PRED_BUDGET
        try:
            res = engine.exact(h0, j0, best=(method == "exact"))
        except _PredBudget:
            engine.pred_over = True
            res = None
        finally:
            if budgeted:
                pred.budget = None
        if res is not None:
            if res.p_win == 0.0 and s >= 0 and res.policy == "changes<=0" and not res.note:
                # a lower bound that found no win: say so, and how to look further
                res = replace(res, note=(
                    "no win under changes<=0 (every draw that lowers the shanten kept, no "
                    "other tile taken in): a lower bound; policy='optimal' or 'greedy' may "
                    "find wins"))
            return res
        if method == "exact":
            raise RuleError(
                f"the exact search needs more than max_states={engine.max_states} hand states "
                f"for this {s}-shanten hand; raise max_states or use method='monte_carlo'")
        policy = None
    if method == "auto" and policy is None:
        # the named change budget played on real walls ("optimal" plays the engine's
        # budget), else the greedy player
        policy = "optimal" if engine.changes is not None else "greedy"
    if policy is None:
        policy = "optimal"
    res = engine.simulate(h0, j0, policy, n_samples, seed, n_jobs, keep_wins)
    if res is not None and engine.pred_over:
        res = replace(res, note=(res.note + "; " if res.note else "") + (
            f"Monte Carlo because the exact search needs more than {limits.JOKER_PRED_BUDGET} "
            "units of winning-hand checks (a hand with k jokers counts 2^k units"
            + (f", a 2-5-8 shanten evaluation {limits.B258_SHANTEN_UNITS}" if engine._b258 is not None
               else "") + ")"))
    if res is None:       # optimal policy asked but the graph is too large
        if method == "auto" and not named:
            return engine.simulate(h0, j0, "greedy", n_samples, seed, n_jobs, keep_wins)
        budget = 0 if engine.changes is None else engine.changes
        raise RuleError(
            f"the policy 'changes<={budget}' needs more than max_states={engine.max_states} "
            "hand states; use policy='greedy' or raise max_states")
    return res


def _auto_method(method: str, policy: str | None) -> str:
    """The method that honours a policy named under ``method="auto"``: ``"greedy"`` is
    the greedy player's Monte Carlo (``"monte_carlo"``), ``"optimal"`` the best play
    that fits (``"exact"``); otherwise `method` unchanged (a change budget,
    ``"changes<=c"`` or ``changes=c``, is the restricted exact search, played on real
    walls when the exact search is cut short, :func:`_run`).  Raises
    :class:`~majiang.RuleError` for an unknown method or policy."""
    _check_method(method, policy)
    if method == "auto":
        p = _policy_parts(policy)[0]
        if p == "greedy":
            return "monte_carlo"
        if p == "optimal":
            return "exact"
    return method


def _setup(hand, draws, visible, ruleset, method, policy, n_samples, changes, max_states,
           indicator, seat_wind, prevalent_wind):
    _check_method(method, policy)
    n_samples = _check_samples(n_samples)
    changes = _check_changes(changes)
    named = _policy_parts(policy)[1]          # policy="changes<=c" is changes=c
    if named is not None:
        if changes is not None and changes != named:
            raise RuleError(f"policy={policy!r} and changes={changes} disagree; give one")
        changes = named
    pos = _position(hand, visible, ruleset, indicator=indicator, seat_wind=seat_wind,
                    prevalent_wind=prevalent_wind)
    T = _check_draws(draws, pos.U)
    return pos, _Engine(pos, T, changes, max_states), n_samples

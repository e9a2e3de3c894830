"""The Python route of the exact search and the Monte Carlo, for rulesets whose shapes
the compiled kernel cannot judge: the 2-5-8 pair families (``pair_258_small`` /
``all_258``: 长沙, 合肥, 武汉; :func:`~majiang.probability.limits._kernel_misjudges`) and
三金倒 / 三财神 when two jokers can be held within the horizon.

:class:`_Route258` is a part of :class:`majiang.probability.engine._Engine` (its
methods use the engine's position, horizon, ruleset shanten and wall dealing): the
true-wall expectimax up to :data:`~majiang.probability.limits.B258_PY_MAX_DRAWS` draws
judged by the ruleset's shanten and THE win predicate (:meth:`_Route258.b258_true_wall`),
and beyond it the greedy player on real walls (:meth:`_Route258.b258_simulate`).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .._core import efficiency as _eff
from ..errors import RuleError
from ..tiles import N_KINDS
from . import limits
from .limits import (
    _OBJ_TENPAI, _OBJ_WIN, B258_PY_MAX_DRAWS, GREEDY_258, JOKER, TRUE_WALL, _PredBudget,
)
from .position import _after_discards, _raise_pred_error, _WinPred
from .results import Probabilities


class _Route258:
    """The Python paths of :class:`~majiang.probability.engine._Engine` (a mixin: the
    engine sets ``pos``, ``T``, ``changes``, ``_b258``, ``_hc``, ``_three``, ``mc_work``,
    ``rows_done``, ``_eff_memo`` and provides ``shanten``, ``shape_shanten``,
    ``_wall_chunks`` and ``_mc_result``)."""

    def _wins(self, h14: np.ndarray, nj: int, k: int) -> bool:
        """Whether drawing ``k`` (34 = a joker) to reach ``(h14, nj)`` wins: three jokers
        held under 三金倒 / 三财神 (a self-draw wins whatever the other tiles, the rule's
        shape-free win, which THE predicate accepts too), else the ruleset's shapes
        complete and THE predicate."""
        if self._three and nj >= self._three:
            return True
        if self.shape_shanten(h14, nj) != -1:
            return False
        pred = self.pos.pred
        return pred is None or bool(pred(h14, k, nj))

    def _python_paths(self, h0: np.ndarray, j0: int) -> bool:
        """Whether this root is solved here rather than by the kernel, whose forms miss
        the ruleset's: 2-5-8 pair rulesets (:func:`_kernel_misjudges`); 十三烂 / 七星归位
        (安庆, 保定, 南昌) when that form's shanten is within the horizon (beyond it the
        form can reach neither tenpai nor a win, and the kernel's answer is exact); and
        三金倒 / 三财神 / 四鬼胡 when one joker fewer than the win's (ready by it) can be held
        within the horizon — the
        draws still missing can come from the jokers unseen."""
        if self._b258 is not None or self._hc is not None:
            return True         # (honour chows, 南昌: the kernel knows none)
        if self._extra is not None and self.extra_leads(h0, j0):
            return True
        if not self._three:
            return False
        need = max(0, self._three - 1 - int(j0))
        return need <= min(self.T, self.pos.joker_unseen)

    def extra_leads(self, h0: np.ndarray, j0: int) -> bool:
        """Whether the root's 十三烂 / 七星归位 (:meth:`extra_shanten`) is within the
        horizon and played here: always for horizons the Python search solves exactly
        (up to ``B258_PY_MAX_DRAWS``), beyond them when that form is at least as close
        as the kernel's forms (else the kernel plays the leading forms and the result
        says that the whole-hand form was left out, :meth:`extra_left_out`)."""
        e = self.extra_shanten(h0, j0)
        if e > self.T:
            return False
        return self.T <= B258_PY_MAX_DRAWS or e <= self._kernel_shanten(h0, j0)

    def extra_note(self, h0: np.ndarray, j0: int) -> str:
        """The note of a root whose 十三烂 / 七星归位 is within the horizon: when the
        kernel played it (:meth:`extra_leads` false), that form's wins are left out;
        when the Python paths did under a ruleset whose wild tiles may stand for their
        own faces (南昌 德国), a wild tile drawn later counts as a joker only, which
        十三烂 does not take.  Both make the result a lower bound."""
        if self._extra is None or self._b258 is not None or self._hc is not None:
            return ""
        e = self.extra_shanten(h0, j0)
        if e > self.T:
            return ""
        if not self.extra_leads(h0, j0):
            return (f"十三烂 / 七星归位 ({e}-shanten, behind the hand's other forms) not "
                    "played: a lower bound")
        jr = self.pos.model.jokers
        if jr is not None and jr.own_face_natural and self.pos.joker_unseen:
            return ("a wild tile drawn later plays as a joker only, never as its own face "
                    "in 十三烂 / 七星归位: a lower bound")
        return ""

    def _effective(self, h: np.ndarray, nj: int, s: int) -> set:
        """Kinds (34 = a joker) whose draw lowers the ruleset shanten ``s`` of ``(h, nj)``
        after the best discard."""
        key = (h.tobytes(), nj)
        got = self._eff_memo.get(key)
        if got is not None:
            return got
        if self._b258 is not None and not self._three:
            from ..efficiency import _b258_effective
            caps = self.pos.caps if self.pos.caps is not None else self._b258.copies
            _, eff = _b258_effective(self._b258, h, caps, self.pos.melds, nj)
            got = set(int(k) for k in eff) | {JOKER}
            self._eff_memo[key] = got
            return got
        out = set()
        shape = self.shape_shanten(h, nj)
        if shape > s:
            pass                      # a draw lowers the shape shanten by one at most
        elif self._b258 is None and self._extra is None and self._hc is None:
            # the kinds that lower the shape shanten (a draw lowers it by one at most,
            # so only a shape at the least shanten has any): the kernel's ukeire
            pos = self.pos
            jr = pos.model.jokers
            _, live = _eff.ukeire_one(np.ascontiguousarray(h, dtype=np.uint8), pos.mask,
                                      pos.quads, pos.caps, None, int(nj),
                                      bool(jr is not None and jr.fifth_copy),
                                      pair_mask=pos.pair_mask, void_suits=pos.void_suits)
            out.update(int(k) for k in np.flatnonzero(live >= 0))
        else:       # 十三烂 / 七星归位, honour chows; 2-5-8 shapes with 三金倒 (none yet)
            caps = self.pos.caps if self.pos.caps is not None else self.pos.model.copies
            for k in range(N_KINDS):
                if h[k] >= caps[k]:
                    continue                # no copy left to draw
                h14 = h.copy()
                h14[k] += 1
                if self.shanten(h14, nj) < s:      # the 3n+2 hand: its best discard
                    out.add(k)
        if self.shanten(h, nj + 1) < s:            # a joker draw (三金倒, or any shape)
            out.add(JOKER)
        self._eff_memo[key] = out
        return out

    def b258_true_wall(self, h0: np.ndarray, j0: int) -> Probabilities:
        """``T <= B258_PY_MAX_DRAWS`` under a ``pair_258_small`` / ``all_258`` ruleset, or
        under 三金倒 / 三财神 (:meth:`_python_paths`): the true-wall expectimax in Python,
        completion and tenpai judged by the ruleset's shanten
        (:func:`majiang.efficiency._b258_shanten`: 2-5-8 pair for a small win, the 大胡
        shapes with any pair, 将将胡 of any shape; the draws to a third joker) and
        :meth:`_wins`.  Optimal play per objective (win, tenpai), as the kernel's; the
        winning hands of the win policy are kept.  A state whose shanten cannot be met in
        the draws left is worth 0 (a draw lowers the shanten by at most one)."""
        pos, T = self.pos, self.T
        pred = pos.pred
        jr = pos.model.jokers
        memo: dict = {}
        wins = self._wins
        batch = self._b258 is not None and not self._three

        def value(h, nj, wall, t, obj):
            """(value, curve (t + 1,), winning dist) of a 3n+1 state with t draws left;
            curve[i] = P(success within i draws) under the policy of the value."""
            s = self.shanten(h, nj)
            if obj == _OBJ_TENPAI and s <= 0:
                return 1.0, np.ones(t + 1), {}
            if s + (1 if obj == _OBJ_WIN else 0) > t or t == 0:
                return 0.0, np.zeros(t + 1), {}
            key = (h.tobytes(), nj, wall.tobytes(), t, obj)
            got = memo.get(key)
            if got is not None:
                return got
            U = int(wall.sum())
            val, curve, dist = 0.0, np.zeros(t + 1), {}
            draws = np.flatnonzero(wall)
            if s + (1 if obj == _OBJ_WIN else 0) == t:
                # no slack: only a draw that lowers the shanten can still succeed (the
                # best discard after any other draw keeps the shanten)
                eff = self._effective(h, nj, s)
                draws = [k for k in draws if int(k) in eff]
            for k in draws:
                k = int(k)
                p = wall[k] / U
                h14, nj14 = h.copy(), nj
                if k == JOKER:
                    nj14 += 1
                else:
                    h14[k] += 1
                if wins(h14, nj14, k):
                    val += p
                    curve[1:] += p
                    if obj == _OBJ_WIN:
                        dk = (h.tobytes(), k, nj)
                        dist[dk] = dist.get(dk, 0.0) + p
                    continue
                w2 = wall.copy()
                w2[k] -= 1
                best, best_c, best_d = -1.0, None, {}
                opts = _after_discards(jr, h14, nj14)
                if batch:             # the children's shanten in one batch (memoized)
                    self._b258_rows(np.array([o[1] for o in opts], dtype=np.uint8),
                                    np.array([o[2] for o in opts], dtype=np.int64))
                for _, h13, n13 in opts:
                    v, c, dd = value(h13, n13, w2, t - 1, obj)
                    if v > best + 1e-15:
                        best, best_c, best_d = v, c, dd
                if best <= 0.0:
                    continue
                val += p * best
                curve[1:] += p * best_c
                for dk, q in best_d.items():
                    dist[dk] = dist.get(dk, 0.0) + p * q
            memo[key] = (val, curve, dist)
            return memo[key]

        wall = np.append(pos.unseen, pos.joker_unseen).astype(np.int64)
        p_win, cw, dist = value(h0.copy(), j0, wall, T, _OBJ_WIN)
        p_ten, ct, _ = value(h0.copy(), j0, wall, T, _OBJ_TENPAI)
        cw, ct = cw[1:], ct[1:]
        if pred is not None:
            _raise_pred_error(getattr(pred, "error", None), pos.model)
        keys = list(dist)
        hands = np.array([np.frombuffer(k[0], dtype=np.uint8) for k in keys],
                         dtype=np.uint8).reshape(-1, N_KINDS)
        z = np.zeros(T)
        return Probabilities(
            draws=T, p_win=float(p_win), p_tenpai=float(p_ten), se_win=0.0, se_tenpai=0.0,
            win_curve=np.asarray(cw, dtype=np.float64), tenpai_curve=np.asarray(
                ct, dtype=np.float64), win_curve_se=z, tenpai_curve_se=z.copy(),
            method="exact", policy="optimal", n_states=len(memo), model=TRUE_WALL,
            note=pos.note, ruleset=pos.name,
            _winning=(hands, np.array([k[1] for k in keys], dtype=np.intp),
                      np.array([dist[k] for k in keys]),
                      np.array([k[2] for k in keys], dtype=np.intp), None))

    def _b258_no_kernel(self) -> None:
        if self.changes is not None:
            raise RuleError(
                f"changes={self.changes}: the restricted search judges wins and tenpai by the "
                f"standard winning shapes only, not by {self.pos.name}'s "
                f"({self._what()}); leave changes=None")

    def _what(self) -> str:
        if self._b258 is not None:
            return "2-5-8 pair for a small win, 将将胡"
        if self._hc is not None:
            return "honour chows: three different winds or the three dragons"
        if self._extra is not None and not self._three:
            return "十三烂 / 七星归位, whole-hand forms of its own"
        return "三金倒 / 三财神: three jokers win on a self-draw"

    def _b258_rows(self, rows: np.ndarray, jks: np.ndarray) -> np.ndarray:
        """The ruleset's shanten of each row (``uint8 (n, 34)``, jokers ``(n,)``)."""
        from ..efficiency import _b258_batch
        pos = self.pos
        self.rows_done += len(rows)
        if self._three:
            return np.array([self.shanten(np.ascontiguousarray(r), int(j))
                             for r, j in zip(rows, jks)], dtype=np.int64)
        memo = self._shanten            # shape_shanten's memo: the ruleset's shanten here
        keys = [(r.tobytes(), int(j)) for r, j in zip(rows, jks)]
        out = np.array([memo.get(k, 99) for k in keys], dtype=np.int64)
        todo = [i for i, k in enumerate(keys) if k not in memo]
        if not todo:
            return out
        b258 = self._b258
        if b258 is not None and not pos.melds and (
                pos.caps is None or np.array_equal(pos.caps, b258.copies)) \
                and not (rows[todo] > b258.copies).any():
            # every row judged once a call (the memo of shape_shanten), the rest in one
            # batch: the core's batch call per group, the closed forms in NumPy
            sub = np.ascontiguousarray(rows[todo], dtype=np.uint8)
            jsub = np.asarray(jks)[todo]
            jk = np.ascontiguousarray(jsub, dtype=np.uint8) if jsub.any() else None
            got = _b258_batch(sub, jk, pos.model.ruleset, np.empty(len(todo), dtype=np.int8))
            pred = pos.pred
            if isinstance(pred, _WinPred) and pred.budget is not None:
                pred.spent += limits.B258_SHANTEN_UNITS * len(todo)
                if pred.spent > pred.budget:
                    raise _PredBudget(f"more than {pred.budget:g} units of work")
            for i, v in zip(todo, got.tolist()):
                memo[keys[i]] = v
                out[i] = v
            return out
        for i in todo:
            out[i] = self.shanten(np.ascontiguousarray(rows[i]), int(jks[i]))
        return out

    def _b258_step(self, h: np.ndarray, nj: int, k: int, memo: dict, base: np.ndarray,
                   jbase: int):
        """The greedy player's move after drawing ``k`` (34 = a joker) to the 3n+1 hand
        ``(h, nj)``: ``None`` = the draw wins (the ruleset's shanten is -1 and THE
        predicate accepts it), else ``(h13, nj13, shanten)`` after the discard that
        keeps the least ruleset shanten, ties broken by the most live tiles that lower
        it (its ukeire: copies neither visible nor in the hand, ``base - h13``), then by
        throwing the drawn tile back, then by the lowest discarded kind."""
        key = (h.tobytes(), nj, k)
        got = memo.get(key, False)
        if got is not False:
            return got
        pos = self.pos
        h14, nj14 = h.copy(), nj
        if k == JOKER:
            nj14 += 1
        else:
            h14[k] += 1
        try:
            ok = self._wins(h14, nj14, k)
        except Exception as err:            # noqa: BLE001 - reported as a RuleError
            _raise_pred_error(err, pos.model)
        if ok:
            memo[key] = None
            return None
        opts = _after_discards(pos.model.jokers, h14, nj14)
        H = np.array([o[1] for o in opts], dtype=np.uint8)
        J = np.array([o[2] for o in opts], dtype=np.int64)
        S = self._b258_rows(H, J)
        best = np.flatnonzero(S == S.min())
        if best.size > 1:
            pick = self._b258_tie(h, nj, H, J, S, best, base, jbase)
        else:
            pick = int(best[0])
        got = (H[pick], int(J[pick]), int(S[pick]))
        memo[key] = got
        return got

    def _b258_tie(self, h, nj, H, J, S, best, base, jbase) -> int:
        """The tie-break of :meth:`_b258_step` among the discards ``best`` (rows of
        ``H`` / ``J`` at the least shanten ``S``): the most live tiles whose draw lowers
        the shanten (``base - H``, below the caps; a joker: ``jbase - J``), then the
        drawn tile thrown back, then the lowest discarded kind.  The draws of all the
        tied hands are judged in one batch of the ruleset's shanten."""
        pos = self.pos
        caps = pos.caps if pos.caps is not None else pos.model.copies
        Hb = H[best].astype(np.int64)                          # (b, 34)
        w = np.asarray(base, dtype=np.int64)[None, :] - Hb     # live copies per kind
        ok = (w > 0) & (Hb < np.asarray(caps, dtype=np.int64)[None, :])
        owner, kind = np.nonzero(ok)
        rows = Hb[owner].copy()
        rows[np.arange(owner.size), kind] += 1
        jrows = J[best][owner]
        weight = w[owner, kind]
        jw = jbase - J[best]
        jo = np.flatnonzero(jw > 0)
        if jo.size:
            rows = np.concatenate([rows, Hb[jo]])
            jrows = np.concatenate([jrows, J[best][jo] + 1])
            weight = np.concatenate([weight, jw[jo]])
            owner = np.concatenate([owner, jo])
        score = np.zeros(best.size, dtype=np.int64)
        if owner.size:
            S2 = self._b258_rows(np.ascontiguousarray(rows, dtype=np.uint8), jrows)
            low = S2 < S[best][owner]
            np.add.at(score, owner[low], weight[low])
        cands = best[score == score.max()]
        for i in cands.tolist():
            if J[i] == nj and np.array_equal(H[i], h):
                return int(i)
        return int(cands[0])

    def b258_simulate(self, h0: np.ndarray, j0: int, n: int, seed: Any,
                      keep_wins: bool = False) -> Probabilities:
        """Horizons beyond ``B258_PY_MAX_DRAWS`` under a ``pair_258_small`` / ``all_258``
        ruleset: ``n`` real walls (:meth:`_wall_chunks`, as :meth:`simulate`: a shorter
        horizon's walls are the prefixes of a longer one's and the curves are those of
        one policy), played by the greedy player of :meth:`_b258_step`;
        tenpai = the ruleset's shanten <= 0 after a discard (or a win).  The player
        does not depend on the horizon, so the estimates are non-decreasing in it."""
        pos = self.pos
        n_chunks, chunk_walls = self._wall_chunks(n, seed)
        win_time = np.zeros(n, dtype=np.int16)
        ten_time = np.full(n, -1, dtype=np.int16)
        won_h, won_k, won_j = [], [], []
        memo: dict = {}
        h0 = np.ascontiguousarray(h0, dtype=np.uint8)
        base = pos.unseen.astype(np.int64) + h0       # copies not visible (melds aside)
        jbase = pos.joker_unseen + j0
        ready0 = self.shanten(h0, j0) <= 0
        played = n
        rows0 = self.rows_done
        for c in range(n_chunks):
            lo, _, walls = chunk_walls(c)
            for i, wall in enumerate(walls.tolist()):
                h, nj = h0, j0
                row = lo + i
                if (self.mc_work is not None and row >= limits.B258_MC_MIN_SAMPLES
                        and self.rows_done - rows0 >= self.mc_work):
                    played = row
                    break
                if ready0:
                    ten_time[row] = 0
                for t, k in enumerate(wall):
                    got = self._b258_step(h, nj, k, memo, base, jbase)
                    if got is None:
                        win_time[row] = t + 1
                        if ten_time[row] < 0:
                            ten_time[row] = t + 1
                        if keep_wins:
                            won_h.append(h)
                            won_k.append(k)
                            won_j.append(nj)
                        break
                    h, nj, s = got
                    if s <= 0 and ten_time[row] < 0:
                        ten_time[row] = t + 1
            if played < n:
                break
        win_time, ten_time = win_time[:played], ten_time[:played]
        winning = None
        if keep_wins:
            winning = (np.array(won_h, dtype=np.uint8).reshape(-1, N_KINDS),
                       np.array(won_k, dtype=np.intp), np.full(len(won_k), 1.0 / played),
                       np.array(won_j, dtype=np.intp), played)
        note = pos.note or (
            f"{pos.name}: wins and tenpai judged by the ruleset's shanten ({self._what()}) "
            f"and its win rules; beyond {B258_PY_MAX_DRAWS} draws a greedy player (least "
            "shanten, then most live improving tiles) on real walls")
        if played < n:
            note += (f"; {played} of {n} walls played (the automatic method's greedy player "
                     f"reached its cap of {self.mc_work} hands judged by the ruleset's shanten)")
        return self._mc_result(win_time, ten_time, GREEDY_258, len(memo),
                               note, winning)

"""A hand that must discard (one tile more, 3n+2): whether it wins now
(:func:`_completion`), each discard's probabilities (:func:`_discards`), and the hand
valued by its best discard (:func:`_fourteen`), with the equal best ones named."""
from __future__ import annotations

import sys

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .._core import efficiency as _eff
from .._parallel import spawn_seeds
from ..errors import InvalidHandError
from ..tiles import N_KINDS, tile_name
from .engine import _auto_method, _Engine, _run, _setup
from .limits import AUTO_MAX_SHANTEN, B258_PY_MAX_DRAWS, JOKER, TRUE_WALL, TRUE_WALL_MAX_DRAWS
from .position import _after_discards, _discard_name, _Position, _WinPred
from .results import Estimate, Probabilities


@dataclass(frozen=True)
class _Complete:
    """The verdict of THE win predicate on a hand that must discard and is complete in
    shape (:func:`_completion`): ``wins``; ``fan`` the largest fan total over the tiles
    that can have been the self-drawn winning one (None when the model scores no fan);
    ``text`` what to tell the player; ``winning`` the win as ``Probabilities._winning``
    (weight 1) or None."""

    wins: bool
    fan: int | None
    text: str
    winning: Any = None
    tile: str | None = None         # the winning tile of the best reading (a win)
    self_drawn: bool = True


def _completion(engine: _Engine, self_drawn: bool = True) -> _Complete | None:
    """Whether the 3n+2 hand of ``engine.pos`` wins now, self-drawn (on a discard with
    ``self_drawn=False``): None when it is not
    complete in shape (neither the ruleset's shanten nor the shape without its pair /
    void-suit constraints is -1); else THE win predicate (:func:`majiang.scoring.check_win`,
    self-drawn, the position's winds) on every tile it holds taken as the drawn one (the
    last draw of a hand is not known): it wins when one of them is a valid win, ``fan``
    the best total; otherwise the reason of the reading with the most fan (e.g. below the
    8-fan minimum of MCR, a third suit under 缺一门)."""
    pos = engine.pos
    h, nj = pos.counts, pos.jokers
    fifth = pos.shape.fifth
    rule_shanten = int(engine.shanten(h, nj))
    if rule_shanten != -1 and int(
            _eff.shanten_one(h, pos.mask, pos.quads, pos.caps, nj, fifth)) != -1:
        return None
    pred = _WinPred(pos.model, pos.melds, pos.ctx, faces=getattr(pos.pred, "faces", None),
                    indicator=getattr(pos.pred, "indicator", None))
    best, why = None, None                  # (fan, kind, check) of a win / of the reason
    for k in [int(k) for k in np.flatnonzero(h)] + ([JOKER] if nj else []):
        try:
            chk = pred.check(h.copy(), k, nj, self_drawn)
        except InvalidHandError:
            continue
        fan = int(chk.result.total) if getattr(chk.result, "total", None) is not None else -1
        if chk.valid:
            if best is None or fan > best[0]:
                best = (fan, k, chk)
        elif why is None or fan > why[0]:
            why = (fan, k, chk)
    if best is None:
        if why is None:
            return None
        reason = why[2].reason
        same = f"not a winning hand under {pos.name}: "      # said once, not twice
        reason = reason[len(same):] if reason.startswith(same) else reason
        if rule_shanten != -1:      # complete only without the ruleset's shape rules
            return _Complete(False, None, (
                f"no win under {pos.name}: a complete shape only without its shape rules "
                f"(by them {rule_shanten}-shanten); {reason}"))
        return _Complete(False, None, f"complete shape but no win under {pos.name}: {reason}")
    fan, k = (best[0] if best[0] >= 0 else None), best[1]
    h13, j13 = h.copy(), nj
    if k == JOKER:
        j13 -= 1
    else:
        h13[k] -= 1
    winning = (h13[None, :], np.array([k], dtype=np.intp), np.ones(1),
               np.array([j13], dtype=np.intp), None)
    total = "" if fan is None else f", {pos.model.ruleset.scoring.total_text(fan)}"
    return _Complete(True, fan, "complete: wins now" + total,
                     winning, _discard_name(k), self_drawn)


def _won_now(engine: _Engine, done: _Complete) -> Probabilities:
    """A hand that wins now: ``P(win) = P(tenpai) = 1`` at every draw."""
    T, pos = engine.T, engine.pos
    one, z = np.ones(T), np.zeros(T)
    return Probabilities(T, 1.0, 1.0, 0.0, 0.0, one, one.copy(), z, z.copy(), "exact",
                         "optimal", model=TRUE_WALL, note=done.text, ruleset=pos.name,
                         _winning=done.winning,
                         _tenpai=Estimate(1.0, 0.0, "exact", None, TRUE_WALL, "optimal",
                                          done.text))


BEST_NAMED = 3
"""At most this many equal best discards are named one by one (``"5m or 8m"``); more
are ``"1m (one of 14 equal)"``."""


def _best_names(results: dict, attr: str, pos=None) -> tuple[Probabilities, str, str]:
    """The result with the highest ``attr`` (``"p_win"``: then ``p_tenpai``;
    ``"p_tenpai"``: then ``p_win``), the first discard (tile order) that reaches it and
    all of them, ``"5m or 8m"`` (:data:`BEST_NAMED`)."""
    other = "p_tenpai" if attr == "p_win" else "p_win"
    ok = {d: r for d, r in results.items() if r is not None}
    key = (lambda r: (getattr(r, attr), getattr(r, other)))
    top = max(ok.values(), key=key)
    name = _discard_name if pos is None else pos.discard_name
    names = [name(d) for d, r in ok.items() if key(r) == key(top)]
    if len(names) > BEST_NAMED:
        return top, names[0], f"{names[0]} (one of {len(names)} equal)"
    return top, names[0], " or ".join(names)


def _fourteen(engine: _Engine, pos: _Position, method: str, policy: str | None,
              n_samples: int, seed: Any, n_jobs: int | None,
              keep_wins: bool = False) -> Probabilities:
    """The probabilities of a hand that must discard: 1 when it wins now
    (:func:`_completion`); else, for each event, those of its best discard under the
    method and policy — the maximum over *every* discard (one that raises the shanten
    can be the best over a long horizon, or under a restricted policy) of the hand
    waiting to draw; under ``method="auto"`` a discard that raises the shanten counts
    when the method solves it exactly (:func:`_auto_exact`), not when it would be
    played by the greedy Monte Carlo (another, weaker policy, and minutes of walls).  ``p_win`` and its curve come from the best discard for winning
    (:attr:`Probabilities.discard`), ``p_tenpai`` and its curve from the best for
    tenpai (:attr:`Probabilities.tenpai_discard`); the note names them, and says why
    a hand complete in shape is no win."""
    _check_discard_hand(pos)
    done = _completion(engine)
    if done is not None and done.wins:
        return _won_now(engine, done)
    res = _discards(engine, pos, method, policy, n_samples, seed, n_jobs, all_discards=True,
                    keep_wins=keep_wins, exact_raising=True)
    win, dw, all_w = _best_names(res, "p_win", pos)
    ten, dt, all_t = _best_names(res, "p_tenpai", pos)
    extra = "" if done is None or pos.note else f"; {done.text}"   # pos.note says why
    note = "; ".join(x for x in (win.note, f"best discard {all_w}") if x) + extra
    t_note = f"best discard {all_t}" + extra
    t_est = Estimate(ten.p_tenpai, ten.se_tenpai, ten.method, ten.n_samples, ten.model,
                     ten.policy, t_note, dt)
    return replace(win, p_tenpai=ten.p_tenpai, se_tenpai=ten.se_tenpai,
                   tenpai_curve=ten.tenpai_curve, tenpai_curve_se=ten.tenpai_curve_se,
                   note=note, discard=dw, tenpai_discard=dt, _tenpai=t_est)


def _discard_options(pos: _Position) -> list:
    """``[(label, discard kind or JOKER, h0, j0)]`` for a hand that must discard."""
    return [(tile_name(d) if d != JOKER else "*", d, h0, j0)
            for d, h0, j0 in _after_discards(pos.model.jokers, pos.counts, pos.jokers)]


def _auto_exact(engine: _Engine, s: int, h0: np.ndarray, j0: int) -> bool:
    """Whether ``method="auto"`` solves a root of ruleset shanten ``s`` exactly (as
    :func:`_run` decides, the predicate budget aside): out of reach, a short horizon,
    or at most :data:`AUTO_MAX_SHANTEN` — but never beyond :data:`B258_PY_MAX_DRAWS`
    on the Python paths, which play longer horizons by Monte Carlo."""
    if s > engine.T:
        return True
    if engine._python_paths(h0, j0):
        return engine.T <= B258_PY_MAX_DRAWS
    return s <= AUTO_MAX_SHANTEN or engine.T <= TRUE_WALL_MAX_DRAWS


def _discards(engine: _Engine, pos: _Position, method: str, policy: str | None, n_samples: int,
              seed: Any, n_jobs: int | None, all_discards: bool,
              keep_wins: bool = False, exact_raising: bool = False) -> dict:
    """``{discard kind (34 = a joker): Probabilities or None}``: None for discards that
    raise the ruleset shanten (unless ``all_discards``; with ``exact_raising`` under
    ``method="auto"`` only those it solves exactly, :func:`_auto_exact`) or leave no
    arrangement."""
    opts = _discard_options(pos)
    shan = {d: engine.shanten(h0, j0) for _, d, h0, j0 in opts}
    best = min(shan.values())
    ss = spawn_seeds(seed, N_KINDS + 1)      # one child per discard kind: order-free
    out: dict = {}
    over = engine.pred_over
    bar = _progress(len(opts))
    for _, d, h0, j0 in opts:
        if bar is not None:
            bar.update(0 if d == opts[0][1] else 1)
        raising = shan[d] > best
        if (raising and not all_discards) or shan[d] >= 99 or (
                raising and exact_raising and method == "auto"
                and not _auto_exact(engine, shan[d], h0, j0)):
            out[d] = None
            continue
        out[d] = _run(engine, h0, j0, method, policy, n_samples, ss[d], n_jobs, keep_wins)
        if engine.pred_over and not over:
            # past the predicate budget: the discards already solved exactly are played
            # by the same Monte Carlo as the rest, so that one model ranks them all
            over = True
            for _, d2, h2, j2 in opts:
                if d2 == d:
                    break
                if out.get(d2) is not None and out[d2].method == "exact":
                    out[d2] = _run(engine, h2, j2, method, policy, n_samples, ss[d2], n_jobs,
                                   keep_wins)
    if bar is not None:
        bar.update(1)
        bar.close()
    return out


def _progress(total: int):
    """A tqdm bar over the discards on a terminal's ``sys.stderr``, shown once the call
    has run for 2 s (none when stderr is not a terminal or tqdm is missing)."""
    err = sys.stderr
    if err is None or not getattr(err, "isatty", lambda: False)():
        return None
    try:
        from tqdm import tqdm
    except ImportError:             # progress is a convenience, never a failure
        return None
    return tqdm(total=total, unit="discard", desc="win probabilities", delay=2.0,
                file=err, leave=False, dynamic_ncols=True)


def _check_discard_hand(pos: _Position) -> None:
    n = int(pos.counts.sum()) + pos.jokers
    if n % 3 != 2:
        raise InvalidHandError(
            f"per-discard probabilities need a hand that must discard (3n+2 concealed tiles, "
            f"{pos.model.hand_size + 1} with no melds), got {n}; use probabilities() for a "
            f"hand waiting to draw")


def _discard_results(hand, draws, visible, ruleset, method, seed, n_samples, policy, changes,
                     n_jobs, max_states, all_discards, indicator=None, seat_wind=0,
                     prevalent_wind=0, keep_wins=False):
    """Shared work of :func:`discard_curves`, :func:`discard_probabilities` and
    :func:`majiang.advise`: validate, build the position and solve every discard.
    Returns ``(position, engine, {discard kind: Probabilities or None})``.  A table
    :class:`~majiang.position.Position` given as ``hand`` gives the hand, visible
    tiles, ruleset, indicator and winds (:func:`majiang.position.analysis_inputs`)."""
    if type(hand).__name__ == "Position":
        from ..position import analysis_inputs, check_draws
        check_draws(hand, draws, "discard_probabilities")
        hand, kw = analysis_inputs(hand, "discard_probabilities", dict(
            visible=visible, ruleset=ruleset, indicator=indicator, seat_wind=seat_wind,
            prevalent_wind=prevalent_wind))
        visible, ruleset, indicator = kw["visible"], kw["ruleset"], kw.get("indicator")
        seat_wind, prevalent_wind = kw["seat_wind"], kw["prevalent_wind"]
    method = _auto_method(method, policy)      # a named policy is honoured under "auto"
    pos, engine, n_samples = _setup(hand, draws, visible, ruleset, method, policy, n_samples,
                                    changes, max_states, indicator, seat_wind, prevalent_wind)
    _check_discard_hand(pos)
    return pos, engine, _discards(engine, pos, method, policy, n_samples, seed, n_jobs,
                                  all_discards, keep_wins)


def _probability_frame(pos, engine, res):
    import pandas as pd
    cols = ["discard", "shanten", "p_tenpai", "p_win", "se_tenpai", "se_win", "method",
            "model", "policy", "note"]
    rows = []
    for (_, d, h0, j0) in _discard_options(pos):
        r = res.get(d)
        rows.append({
            "discard": pos.discard_name(d),
            "shanten": engine.shanten(h0, j0),
            "p_tenpai": r.p_tenpai if r is not None else np.nan,
            "p_win": r.p_win if r is not None else np.nan,
            "se_tenpai": r.se_tenpai if r is not None else np.nan,
            "se_win": r.se_win if r is not None else np.nan,
            "method": r.method if r is not None else "",
            "model": r.model if r is not None else "",
            "policy": r.policy if r is not None else "",
            "note": r.note if r is not None else "",
        })
    return pd.DataFrame(rows, columns=cols)

"""Reading the table: the danger of each discard at a position (:func:`danger`).

For every tile kind the viewing seat may discard, the probability that the discard
completes a valid win for some opponent (放铳, "deals in"), per opponent and in total, and
the points the seat then expects to pay, under the opponent model of
:mod:`majiang.opponents` (its module text states the model; ``df.attrs["model"]`` names
it).

Combining opponents: each opponent is read on its own (the readings are taken as
independent).  Under a ruleset where several players may win on one discard
(``winners="multiple"``, 一炮多响) every winner is paid: ``exp_loss = Σ_j p_j L_j``; otherwise
(截和 ``"head_bump"``, ``"single"``) the first winner in turn order after the discarder
takes it: ``exp_loss = Σ_j p_j Π_{i before j} (1 - p_i) L_j``.  In both cases
``p_deal_in = 1 - Π_j (1 - p_j)``.  ``L_j`` is the discarder's expected loss when the tile
deals in to opponent ``j`` under the ruleset's settlement (Chinese Official: fan + 8).

Standard errors: ``p_deal_in_se`` by the delta method from each opponent's Monte Carlo
error (:mod:`majiang.opponents`, step 5: binomial with the samples' effective size);
``exp_loss_se`` the first-order ``sqrt(Σ_j (L_j se_j)^2)`` (the spread of ``L_j`` is left
out).  Neither counts the error of the tempo prior.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .errors import MahjongError, RuleError
from .opponents import DEFAULT_MODEL, DEFAULT_SAMPLES, OpponentModel, read_position
from .tiles import tile_name

__all__ = ["danger", "danger_arrays"]


def _position(position: Any):
    from .position import Position
    if not isinstance(position, Position):
        raise RuleError(f"danger() takes a majiang.Position, got {type(position).__name__}")
    from .position._analysis import check_in_play
    check_in_play(position, "danger")
    return position


def danger_arrays(position: Any, *, n_samples: int = DEFAULT_SAMPLES, seed: Any = 0,
                  model: OpponentModel = DEFAULT_MODEL, loss: bool = True) -> dict:
    """The arrays behind :func:`danger`, over all 34 kinds: ``p`` (total P(deal in)),
    ``p_se``, ``loss`` (expected loss), ``loss_se``, ``per_seat`` ``{seat: p (34,)}`` and
    ``reads`` (the :class:`~majiang.opponents.OpponentRead` per opponent).  Each array is
    ``float64 (34,)``; ``p_raw``, the total before the recalibration (step 6 of
    :mod:`majiang.opponents`).  ``loss=False`` skips what only the loss needs (scoring wins
    under rulesets with no minimum fan): ``loss`` is then 0 there."""
    pos = _position(position)
    reads = read_position(pos, n_samples=n_samples, seed=seed, model=model, loss=loss)
    rs = pos.model.ruleset
    multiple = getattr(rs, "winners", "head_bump") == "multiple"
    n = pos.players
    order = sorted(reads, key=lambda r: (r.seat - pos.seat) % n)   # turn order after us
    none = np.ones(34)
    loss = np.zeros(34)
    for r in order:
        share = r.p_win if multiple else r.p_win * none
        loss += share * r.loss
        none = none * (1.0 - r.p_win)
    p_raw = 1.0 - none
    var = np.zeros(34)
    lvar = np.zeros(34)
    for r in order:
        others = np.ones(34)
        for q in order:
            if q is not r:
                others *= 1.0 - q.p_win
        var += (others * r.p_win_se) ** 2
        lvar += (r.loss * r.p_win_se) ** 2
    p, slope = model.recalibrate(pos.model, p_raw)
    per_seat = {r.seat: r.p_win for r in reads}
    if model.calibrate:
        p, loss, per_seat = _spread(pos, reads, p_raw, p, loss)
    return {"p": p, "p_se": slope * np.sqrt(var), "loss": loss, "loss_se": np.sqrt(lvar),
            "per_seat": per_seat, "reads": reads, "p_raw": p_raw}


def _spread(pos: Any, reads: tuple, p_raw: np.ndarray, p: np.ndarray,
            loss: np.ndarray) -> tuple[np.ndarray, np.ndarray, dict]:
    """Step 6 of :mod:`majiang.opponents` on the opponents: ``(p, loss, per_seat)`` with
    each opponent's P(deal in) and the expected loss scaled by ``p / p_raw``; a kind with
    ``p_raw = 0`` gets ``p`` shared equally by the opponents read (samples drawn) whose
    void suit does not hold it, each at its mean loss over the kinds it wins on (0 and
    ``p`` 0 when no opponent may take it)."""
    from .opponents import _SUIT_OF
    scale = np.divide(p, p_raw, out=np.zeros(34), where=p_raw > 0)
    zero = p_raw <= 0
    # (opponents, 34): the opponent was read (samples drawn) and its void suit lacks the kind
    ok = np.array([(_SUIT_OF != int(pos.voids[r.seat])) & (r.n_samples > 0) for r in reads]
                  ).reshape(len(reads), 34)
    n_ok = ok.sum(axis=0)
    floor = np.divide(p, n_ok, out=np.zeros(34), where=zero & (n_ok > 0))
    per_seat, extra = {}, np.zeros(34)
    for r, mine in zip(reads, ok):
        f = floor * mine
        hit = r.p_win > 0
        extra += f * (float(r.loss[hit].mean()) if hit.any() else 0.0)
        per_seat[r.seat] = r.p_win * scale + f
    p = np.where(zero & (n_ok == 0), 0.0, p)
    return p, loss * scale + extra, per_seat


def danger(position: Any, *, n_samples: int = DEFAULT_SAMPLES, seed: Any = 0,
           model: OpponentModel = DEFAULT_MODEL):
    """How dangerous each discard is at ``position``, under a stated opponent model.

    Parameters
    ----------
    position : majiang.Position
        The seat's view of the table (its concealed tiles, every river and meld).
    n_samples : int
        Ready hands generated per opponent (:data:`majiang.opponents.DEFAULT_SAMPLES`).
    seed : int, SeedSequence, Generator or None
        Seed of the sampled opponent hands.  A non-negative int, a ``numpy.random.SeedSequence`` or ``numpy.random.Generator``
        (default ``0``: the same answer every call; ``None``: fresh entropy, a different
        answer every call).
    model : majiang.opponents.OpponentModel
        The opponent model (default :data:`majiang.opponents.DEFAULT_MODEL`).

    Returns
    -------
    pandas.DataFrame
        One row per kind in the seat's concealed tiles, in tile order, with columns
        ``tile`` (name), ``seen`` (copies the seat sees on the table and in other seats'
        melds), ``label`` (``"生张"`` a live tile, none seen; ``"熟张"`` one or more seen),
        ``p_deal_in`` (P(the discard completes a valid win for some opponent)),
        ``p_deal_in_se``, ``p_seat<j>`` per opponent seat ``j``, ``exp_loss`` (expected
        points paid for dealing in; see the module text) and ``exp_loss_se``.
        ``attrs``: ``model`` (the model's name), ``model_text`` (one line),
        ``n_samples``, ``p_ready`` ``{seat: P(ready)}``, ``p_ready_prior``,
        ``n_ready`` ``{seat: ready hands among the samples}``, ``notes``.

    Raises
    ------
    RuleError
        Not a Position; a bad seed or sample count.
    """
    import pandas as pd
    pos = _position(position)
    a = danger_arrays(pos, n_samples=n_samples, seed=seed, model=model)
    kinds = [int(k) for k in np.flatnonzero(pos.concealed)]
    seen = pos.visible_counts().astype(int)
    data: dict = {
        "tile": [tile_name(k) for k in kinds],
        "seen": [int(seen[k]) for k in kinds],
        "label": ["生张" if seen[k] == 0 else "熟张" for k in kinds],
        "p_deal_in": a["p"][kinds],
        "p_deal_in_se": a["p_se"][kinds],
    }
    for s in sorted(a["per_seat"]):
        data[f"p_seat{s}"] = a["per_seat"][s][kinds]
    data["exp_loss"] = a["loss"][kinds]
    data["exp_loss_se"] = a["loss_se"][kinds]
    df = pd.DataFrame(data)
    reads = a["reads"]
    df.attrs.update({
        "model": model.name,
        "model_text": model.describe(),
        "n_samples": int(n_samples),
        "p_ready": {r.seat: r.p_ready for r in reads},
        "p_ready_prior": {r.seat: r.p_ready_prior for r in reads},
        "n_ready": {r.seat: r.n_ready for r in reads},
        "notes": sorted({note for r in reads for note in r.notes}),
    })
    return df


# -- advice that weighs attack and defence ----------------------------------------------
DEFAULT_HORIZON = 3
"""The least number of draws the probabilities of :func:`majiang.advise` look ahead when
a position is given without ``draws`` (see :func:`horizon`: more for a hand far from a
win, never more than the seat's remaining draws).  Three draws keep the exact true-wall
search (a median of 32 ms of CPU with the danger read on 60 real positions,
``bench/bench_danger.py``); ``draws=8`` takes a median of 53 ms there, but 0.3-0.6 s on
a 3-shanten hand and 1-2 s on a 4-shanten one (the labelled greedy Monte Carlo of
:mod:`majiang.probability`)."""

MAX_DEFAULT_HORIZON = 6
"""The most draws :func:`horizon` gives a hand far from a win (a 4-shanten hand's
``shanten + 2``).  Measured (``bench/bench_danger.py``, 60 real positions, CPU, a
loaded machine): ``advise(position)`` median 43 ms, 90th percentile 0.70 s (with three
draws at most: 32 ms and 73 ms) — the far hands, whose advice now weighs attack."""

RANKINGS = ("ev", "efficiency", "safety")
"""``by=`` of :func:`majiang.advise` with a position: ``"ev"`` (default) expected score
gained minus expected loss; ``"efficiency"`` the order of :func:`majiang.advise` without
a position; ``"safety"`` the lowest expected loss (then the lowest p_deal_in)."""


def horizon(position: Any) -> int:
    """The default horizon of :func:`majiang.advise` at ``position``: the seat's remaining
    draws (``tiles_left // players``, at least 1 while a tile is left; 0 when the wall is
    empty), at most :data:`DEFAULT_HORIZON` draws or, for a hand too far from a win for
    that (``shanten + 1 > DEFAULT_HORIZON``: a hand ``s`` tiles from ready needs ``s + 1``
    draws to win at all, so every discard would have ``p_win`` 0 and the table would rank
    by danger alone), ``shanten + 2`` draws (at most :data:`MAX_DEFAULT_HORIZON`)."""
    pos = _position(position)
    left = int(pos.tiles_left)
    if left <= 0:
        return 0
    want = DEFAULT_HORIZON
    if pos.concealed_count(pos.seat) % 3 == 2:  # a discard to choose: the hand's shanten counts
        try:
            from .efficiency import shanten
            kw = pos.analysis_kwargs()
            s = int(shanten(pos.hand, ruleset=kw["ruleset"], indicator=kw.get("indicator"),
                            void=kw.get("void")))
            if s + 1 > DEFAULT_HORIZON:         # no win within the default horizon
                want = min(s + 2, MAX_DEFAULT_HORIZON)
        except MahjongError:
            pass
    return max(1, min(want, left // pos.players))


def exp_gain(pos: Any, res: Any) -> float:
    """Expected settlement gain of the seat's own self-drawn wins within the horizon: the
    sum over the winning outcomes of a probability result computed with ``keep_wins``
    (:func:`majiang.probability.outcomes._win_outcomes`: weight, scored win) of weight x
    the winner's share of the ruleset's settlement of a self-draw (Chinese Official:
    3 x (8 + fan)).  0 without a win or under a model that scores no hand."""
    from .probability import _win_outcomes
    out = 0.0
    for w, r in _win_outcomes(pos, res):
        try:
            out += w * float(r.settle(0, None)[0])
        except MahjongError:
            continue
    return out


def weigh(table: Any, position: Any, *, by: str = "ev", n_samples: int = DEFAULT_SAMPLES,
          seed: Any = 0, model: OpponentModel = DEFAULT_MODEL):
    """Add ``p_deal_in``, ``p_deal_in_se``, ``exp_loss`` and ``ev`` to an advise table
    (one row per ``discard``) from :func:`danger_arrays` at ``position``, and rank by
    ``by`` (:data:`RANKINGS`).

    ``ev = exp_gain - exp_loss``: ``exp_gain`` (a column of the table, see
    :func:`exp_gain`; 0 when absent) is the expected settlement gain of the seat's own
    wins within the horizon after this discard, ``exp_loss`` the expected payment when
    this discard deals in (:func:`danger`).  Only the danger of this discard counts, not
    that of the later discards within the horizon.  (The push / fold verdict is
    :func:`majiang.analysis.push_or_fold`'s.)

    Raises
    ------
    RuleError
        ``by`` not in :data:`RANKINGS`.
    """
    if by not in RANKINGS:
        raise RuleError(f"by must be one of {', '.join(RANKINGS)}, got {by!r}")
    from ._ranks import shared_ranks as _shared_ranks
    from .tiles import parse_tile
    a = danger_arrays(position, n_samples=n_samples, seed=seed, model=model)
    kinds = [parse_tile(d) for d in table["discard"]]
    p, p_se, loss = a["p"][kinds], a["p_se"][kinds], a["loss"][kinds]
    gain = (np.nan_to_num(table["exp_gain"].to_numpy(dtype=float), nan=0.0)
            if "exp_gain" in table.columns else 0.0)
    ev = gain - loss
    if by == "ev":
        order = np.argsort(-ev, kind="stable")
    elif by == "safety":
        order = np.lexsort((p, loss))
    else:
        order = np.arange(len(kinds))
    out = table.take(order).reset_index(drop=True)
    out["p_deal_in"] = p[order]
    out["p_deal_in_se"] = p_se[order]
    out["exp_loss"] = loss[order]
    out["ev"] = ev[order]
    if by == "ev":
        out["rank"] = _shared_ranks(ev[order][:, None])
    elif by == "safety":
        out["rank"] = _shared_ranks(loss[order][:, None])
    out.attrs.update(table.attrs)
    out.attrs.update({"by": by, "opponent_model": model.name,
                      "opponent_model_text": model.describe(), "n_samples": int(n_samples),
                      "p_ready": {r.seat: r.p_ready for r in a["reads"]}})
    return out

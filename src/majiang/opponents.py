"""A model of one opponent's concealed tiles and of the tiles it wins on, from what a seat sees.

The named model, ``"ready-hand samples"`` (:class:`OpponentModel`, :data:`DEFAULT_MODEL`),
answers for one opponent and every tile kind ``t``: the probability that the opponent is
ready (some tile completes a valid win on a discard), the probability that a discard of
``t`` completes a valid win for it, and the points the discarder then pays.  It reads only
what the viewing seat sees: the unseen tiles (``int`` counts ``(34,)``: tiles in the other
hands or the wall), the opponent's melds, its discards, the discards it has let pass since
its own last discard, its seat, its flowers and declared void suit (定缺), and the ruleset.

How it is built (every step is the model; none is a fact of the rules):

1. **Tempo prior** ``P(ready)``: ``logit P = a + b * log(1 + discards) + c_melds``, the
   number of discards the opponent has made and the melds it holds (a class per count,
   ``c_0 = 0``, four or more one class), with coefficients (:data:`TEMPO`) fitted by
   maximum likelihood on hands of four built-in ``"efficiency"`` players
   (``bench/fit_tempo.py``: ready = the opponent's actual hand has a wait that wins on a
   discard under the ruleset's win predicate), together with the evidence weight ``g``
   of step 5.  Fitted for ``mcr``, ``sichuan`` and ``guangdong``; another ruleset uses
   the ``mcr`` fit when it has a minimum fan and the ``guangdong`` fit otherwise
   (:meth:`OpponentModel.tempo_of` says which).
2. **Ready hands**: ``n_samples`` hands are drawn from the unseen tiles as a complete
   regular hand (``4 - melds`` sets and a pair; each set chosen with probability
   proportional to the number of ways the tiles hold it: ``C(u, 3)`` for a pung,
   ``u_a u_b u_c`` for a chow; the pair ``C(u, 2)``) less one of its tiles chosen
   uniformly, vectorised with numpy.  The tile that completes the hand is the viewer's
   discard, so every kind the viewer holds counts one copy more when the complete hand
   is drawn (the 13 tiles kept never hold more than the unseen copies): without it a
   single wait (单钓) or a pair wait (双碰) on a kind the viewer holds would never be
   generated, which made the model about 2.5 times too low.  Hands whose waits have more
   unseen copies are so the likelier (live waits).  The opponent's declared void suit
   holds no tile.  Seven pairs and the other whole-hand forms are not generated (their
   waits still count when a generated hand has them, judged by shape); in Chinese
   Official self-play the knitted forms (全不靠, 组合龙) are about a tenth of the wins on a
   discard, the part of the danger this model misses.
3. **The ruleset's own win predicate** judges every wait of every sample
   (:func:`majiang.scoring.check_win` on a discard, with the opponent's seat wind, the
   prevalent wind, its flowers, 和绝张 when the other three copies of the tile are visible
   and 河底捞鱼 when the wall is empty; :class:`_Judge` gives the same verdict faster):
   minimum fan (Chinese Official: a wait worth less than
   8 fan does not win), 缺一门, 二五八将, self-draw-only rules (nothing wins on a discard),
   must-open rules.  A sample with no valid wait on a discard is not a ready hand and is
   dropped; the settlement of a valid one is the ruleset's
   (:meth:`~majiang.scoring.FanResult.settle`, the discarder's loss: Chinese Official
   ``fan + 8``).
4. **Behaviour (the likelihood of what the table shows)**: a ready hand that could have
   won on a discard it let pass since its own last discard (its concealed tiles have not
   changed since) has weight ``pass_factor`` per such tile (a player rarely passes a valid
   win); a hand whose waits include its own latest discard (it held a complete hand and
   threw a tile of it) also ``pass_factor``; each earlier own discard among its waits
   ``own_factor`` (an efficiency player throws the tiles outside its shape, so a wait on
   its own discards is less likely).  An older discard of another seat it let pass,
   ``age`` go-arounds ago, weighs a hand waiting on it by ``1 - keep ** age * (1 -
   pass_factor)`` (the hand then was this one with probability ``keep ** age``): the
   熟张 (tiles already discarded) are safer than the 生张.  Chinese Official rules have no furiten (振听): a
   player may win on a tile it discarded, so these are likelihoods, not bans.  Under a
   ruleset with a pass lock (:attr:`~majiang.rules.Ruleset.pass_lock`: 过水 ``"kind"``
   bars the passed kind, 漏和 ``"all"`` every discard win until the player's next
   discard) the barred wins are removed, which is a rule.
5. **Posterior**: with ``L`` the mean weight of the ready samples, ``logit P(ready |
   table) = logit P(ready) + g log L`` (``g = 1`` is Bayes' rule, a hand that is not ready
   explaining any passed discard; ``g`` is fitted with the prior and held in [0, 1]: the
   fits give ``g`` near 0, so P(ready) rests on the tempo while the table's evidence
   decides which tiles a ready hand waits on), and ``P(t wins) = P(ready | table) * Σ w
   [t wins] / Σ w`` over the ready samples.  Its reported standard error is the Monte
   Carlo error of that weighted share: binomial with the effective sample size of the
   weights (``ESS = (Σ w)² / Σ w²``) and the share pulled half a sample towards one half,
   so a tile no sample waits on still gets the error of one sample in ``ESS``, not 0.
   The error of the fitted coefficients is not counted.
6. **Recalibration** (:func:`majiang.danger` applies it to the total over opponents):
   steps 1–5 read the danger too low by about a quarter on simulated discards (the forms
   not generated, the behaviour constants set by hand), so the total ``p_raw = 1 - Π_j
   (1 - p_j)`` is passed through ``logit p = a + b logit(p_raw + eps)`` (Platt scaling),
   with ``(a, b)`` fitted per ruleset by maximum likelihood on simulated discards whose
   truth the engine knows (:data:`CALIBRATION`, ``eps`` = :data:`CALIBRATION_EPS`) and
   scored on other hands (``docs/danger_calibration.md``).  The map is increasing, so it
   never changes which of two tiles is safer.  Each opponent's share is scaled by
   ``p / p_raw``; a tile no sample waits on (``p_raw = 0``) gets ``p`` shared equally by
   the opponents read whose void suit does not hold it.  ``OpponentModel(calibrate=False)``
   gives the raw reading.

Jokers are read by their face: the model neither generates nor counts wild tiles, so
under a joker ruleset it understates the danger (:attr:`OpponentRead.notes`).

Tiles are kind indices 0..33.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._core import FORM_BITS
from .errors import InvalidHandError, MahjongError, RuleError
from .hand import Hand, Meld
from .rules.model import GameModel, game_model

__all__ = ["OpponentModel", "OpponentRead", "DEFAULT_MODEL", "DEFAULT_SAMPLES", "TEMPO",
           "CALIBRATION", "CALIBRATION_EPS", "LOSS_SAMPLES", "read_opponent", "sample_ready_hands", "shape_waits"]

DEFAULT_SAMPLES = 600
"""Hands generated per opponent by default.  Under Chinese Official rules about a third of
them are ready with a wait worth 8 fan, so a tile's share of the ready hands is estimated
from about 200: a share of 0.1 to within about 0.02, a rare wait (a share of 1 %) only to
within its own size (the reported standard error says so); ``danger`` takes about 17 ms
of CPU at this size on real-game positions (``bench/bench_danger.py``)."""

TEMPO: dict[str, tuple[float, ...]] = {
    "mcr": (-6.453, 1.974, -0.362, -0.451, -0.736, 4.427, 0.055),
    "sichuan": (-7.809, 3.113, 0.505, 1.097, 1.180, 5.921, 0.0),
    "guangdong": (-7.571, 2.702, 0.746, 1.193, 2.502, 0.0, 0.0),
}
"""``(a, b, c1, c2, c3, c4, g)`` of the ready model per ruleset: the tempo prior
``logit P(ready) = a + b * log(1 + discards) + c_melds`` (``c_0 = 0``; 4 or more melds use
``c4``) and the weight ``g`` of the table's evidence, ``logit P(ready | table) = logit
P(ready) + g * log L`` (``L`` the mean likelihood of the ready samples, step 5 of the
module text), all fitted together by maximum likelihood by ``bench/fit_tempo.py`` on
hands of four built-in efficiency players.  Under ``mcr`` the meld terms come out
negative, which we read as: "ready" means a wait worth the 8-fan minimum, and a called
meld gives up the concealed hand's fans (不求人, 门前清) as often as it brings the hand
closer; where any shape wins (sichuan, guangdong) they are positive."""

TEMPO_TERMS = 7
"""Numbers in a tempo tuple (:data:`TEMPO`)."""

CALIBRATION: dict[str, tuple[float, float]] = {
    "mcr": (-0.3625, 0.8268),
    "sichuan": (-0.3990, 0.8067),
    "guangdong": (0.3361, 1.0366),
}
"""``(a, b)`` of the recalibration of step 6 per ruleset: ``logit p = a + b * logit(p_raw +
CALIBRATION_EPS)``, fitted by maximum likelihood (Platt scaling) on the fit half (even
hands) of the simulated discards of ``docs/danger_calibration.md``
(``bench/calibrate_danger.py --fit``); the scores there are on the other half."""

CALIBRATION_EPS = 1e-4
"""The offset of the recalibration (:data:`CALIBRATION`): a tile no sampled hand waits on
(``p_raw = 0``) keeps a small probability, the danger of the hands the sampler does not
generate."""


LOSS_SAMPLES = 8
"""Under a ruleset whose win the shape decides (no minimum fan, see :class:`_Judge`), the
wins per tile kind that are scored for the expected loss (a Monte Carlo mean over these)."""


def _fitted_key(model: GameModel) -> str:
    """The ruleset whose fits (:data:`TEMPO`, :data:`CALIBRATION`) serve ``model``: its own,
    else ``mcr`` under a minimum fan and ``guangdong`` otherwise."""
    if model.name in TEMPO:
        return model.name
    return "mcr" if model.min_fan > 0 else "guangdong"


def _sigmoid(x: float) -> float:
    return float(1.0 / (1.0 + np.exp(-x)))


@dataclass(frozen=True)
class OpponentModel:
    """The behaviour model of :mod:`majiang.opponents` (its module text states it).

    Attributes
    ----------
    name : str
        Shown in results (``df.attrs["model"]`` of :func:`majiang.danger`).
    pass_factor : float
        Likelihood factor of a ready hand that could have won on a discard it let pass
        (and of one waiting on its own latest discard), in (0, 1].
    own_factor : float
        Likelihood factor per earlier own discard among a ready hand's waits, in (0, 1].
    keep : float
        Probability that a ready hand kept its waits over one go-around, in (0, 1]: an
        older discard it let pass ``age`` go-arounds ago weighs a hand waiting on it by
        ``1 - keep ** age * (1 - pass_factor)``.
    tempo : tuple of 7 floats or None
        ``(a, b, c1, c2, c3, c4, g)`` of the ready model (:data:`TEMPO`); None = the
        ruleset's fit.
    calibrate : bool
        Pass the total P(deal in) through the ruleset's recalibration (step 6 of the
        module text, :data:`CALIBRATION`); False gives the raw reading of steps 1–5.
    calibration : tuple of 2 floats or None
        ``(a, b)`` of the recalibration; None = the ruleset's fit.
    """

    name: str = "ready-hand samples"
    pass_factor: float = 0.05
    own_factor: float = 0.5
    keep: float = 0.7
    tempo: tuple | None = None
    calibrate: bool = True
    calibration: tuple | None = None

    def __post_init__(self) -> None:
        for k in ("pass_factor", "own_factor", "keep"):
            v = getattr(self, k)
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not 0 < v <= 1:
                raise RuleError(f"{k} must be a number in (0, 1], got {v!r}")
        if self.tempo is not None:
            t = tuple(float(x) for x in self.tempo)
            if len(t) != TEMPO_TERMS:
                raise RuleError(f"tempo must be {TEMPO_TERMS} numbers (a, b, c1, c2, c3, c4, "
                                f"g), got {self.tempo!r}")
            object.__setattr__(self, "tempo", t)
        if self.calibration is not None:
            c = tuple(float(x) for x in self.calibration)
            if len(c) != 2 or not np.isfinite(c).all():
                raise RuleError(f"calibration must be two finite numbers (a, b), got "
                                f"{self.calibration!r}")
            object.__setattr__(self, "calibration", c)

    def tempo_of(self, model: GameModel) -> tuple[str, tuple]:
        """``(source, (a, b, c1, c2, c3, c4, g))``: the ready model's coefficients used
        under ``model`` and where they come from (``"given"``, a ruleset name of
        :data:`TEMPO`)."""
        if self.tempo is not None:
            return "given", self.tempo
        key = _fitted_key(model)
        return key, TEMPO[key]

    def recalibrate(self, model: GameModel, p_raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Step 6: ``(p, slope)`` for raw totals ``p_raw`` (``float64`` array in [0, 1]):
        ``logit p = a + b logit(p_raw + eps)`` with ``(a, b)`` the ruleset's fit
        (:data:`CALIBRATION`, the ``mcr`` fit for another ruleset with a minimum fan and
        the ``guangdong`` fit otherwise, as :meth:`tempo_of`) and ``eps`` =
        :data:`CALIBRATION_EPS`; ``slope`` is ``dp / dp_raw`` (for standard errors).  The
        identity (``slope`` 1) when :attr:`calibrate` is False."""
        p_raw = np.asarray(p_raw, dtype=float)
        if not self.calibrate:
            return p_raw.copy(), np.ones_like(p_raw)
        if self.calibration is not None:
            a, b = self.calibration
        else:
            a, b = CALIBRATION[_fitted_key(model)]
        x = np.clip(p_raw + CALIBRATION_EPS, 1e-12, 1.0 - 1e-9)
        p = 1.0 / (1.0 + np.exp(-(a + b * np.log(x / (1.0 - x)))))
        return p, b * p * (1.0 - p) / (x * (1.0 - x))

    def p_ready_prior(self, model: GameModel, discards: int, melds: int) -> float:
        """The tempo prior: P(ready) of an opponent after ``discards`` discards holding
        ``melds`` melds (float in (0, 1)): ``logit P = a + b log(1 + discards) + c_melds``."""
        t = self.tempo_of(model)[1]
        m = min(int(melds), 4)
        return _sigmoid(t[0] + t[1] * float(np.log1p(discards)) + (t[1 + m] if m else 0.0))

    def p_ready_post(self, model: GameModel, prior: float, lik: float) -> float:
        """P(ready | table): ``logit P = logit prior + g log lik`` (``lik`` the mean
        likelihood of the ready samples, > 0; ``g`` the fitted evidence weight)."""
        g = self.tempo_of(model)[1][6]
        return _sigmoid(float(np.log(prior / (1.0 - prior)) + g * np.log(lik)))

    def describe(self) -> str:
        """One line naming the model and its parameters."""
        return (f"{self.name} (P(ready) from the discards and melds made; ready hands "
                f"drawn from the unseen tiles and judged by the ruleset's win rules; a hand "
                f"that let a winning discard pass weighs {self.pass_factor}, one waiting on "
                f"its own earlier discard {self.own_factor}"
                f"{'; recalibrated on simulated discards' if self.calibrate else ''})")


DEFAULT_MODEL = OpponentModel()
"""The default :class:`OpponentModel`."""


@dataclass(frozen=True, eq=False)
class OpponentRead:
    """What the model reads of one opponent.

    Attributes
    ----------
    seat : int
    p_ready_prior, p_ready : float
        P(ready) before and after the table's evidence.
    p_win : numpy.ndarray
        ``float64 (34,)``: P(a discard of kind t completes a valid win for this opponent).
    p_win_se : numpy.ndarray
        ``float64 (34,)``: its standard error (sampling only).
    loss : numpy.ndarray
        ``float64 (34,)``: the discarder's expected loss in points when t deals in to this
        opponent (0 where ``p_win`` is 0).
    n_samples, n_ready : int
        Hands generated; those with a valid wait on a discard.
    ess : float
        Effective sample size of the weighted ready hands (``(Σw)² / Σw²``).
    notes : tuple of str
    lik : float
        The mean likelihood of the ready samples (``L`` of step 5; 1 with no evidence).
    """

    seat: int
    p_ready_prior: float
    p_ready: float
    p_win: np.ndarray
    p_win_se: np.ndarray
    loss: np.ndarray
    n_samples: int
    n_ready: int
    ess: float
    notes: tuple = field(default=())
    lik: float = 1.0


# -- the sets a complete hand is built of ------------------------------------------------
def _set_table() -> np.ndarray:
    rows = []
    for k in range(34):
        r = np.zeros(34, np.int16)
        r[k] = 3
        rows.append(r)
    for s in range(3):
        for i in range(7):
            r = np.zeros(34, np.int16)
            r[9 * s + i:9 * s + i + 3] = 1
            rows.append(r)
    return np.array(rows)


_SETS = _set_table()                  # (55, 34): 34 pungs then 21 chows
_CHOW_LO = np.array([9 * s + i for s in range(3) for i in range(7)])


def _pick(rng: np.random.Generator, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row-wise categorical draw from non-negative weights ``w`` (S, K): (index, ok)."""
    cum = np.cumsum(w, axis=1)
    tot = cum[:, -1]
    ok = tot > 0
    r = rng.random(len(w)) * tot
    idx = (cum <= r[:, None]).sum(axis=1)
    return np.minimum(idx, w.shape[1] - 1), ok


def sample_ready_hands(pool: np.ndarray, n_sets: int, n: int, rng: np.random.Generator,
                       extra: Any = None) -> np.ndarray:
    """``n`` hands of ``3 * n_sets + 1`` tiles drawn from ``pool`` (counts (34,)) as a
    complete regular hand (``n_sets`` sets and a pair, each set with probability
    proportional to the ways the pool holds it) less one of its tiles.

    ``extra`` (kinds) adds one copy of each kind to the pool the complete hand is built
    from: the winning tile may be one the viewer holds (its last copy).  The tile taken
    out is chosen uniformly; a hand that still holds more than ``pool`` is refused (the
    added copy may only be the tile taken out).

    Returns ``int16 (m, 34)``, ``m <= n`` (draws the pool cannot complete are dropped).
    """
    base = np.asarray(pool, np.int64)
    gen = base.copy()
    if extra is not None and len(extra):
        gen[np.asarray(extra, np.intp)] += 1
    P = np.broadcast_to(gen, (n, 34)).copy()
    H = np.zeros((n, 34), np.int64)
    ok = np.ones(n, bool)
    for _ in range(n_sets):
        pung = P * (P - 1) * (P - 2) // 6
        chow = P[:, _CHOW_LO] * P[:, _CHOW_LO + 1] * P[:, _CHOW_LO + 2]
        idx, good = _pick(rng, np.concatenate([pung, chow], axis=1).astype(np.float64))
        ok &= good
        s = _SETS[idx]
        P -= s
        H += s
    idx, good = _pick(rng, (P * (P - 1) // 2).astype(np.float64))
    ok &= good
    rows = np.arange(n)
    H[rows, idx] += 2
    out, _ = _pick(rng, H.astype(np.float64))
    H[rows, out] -= 1
    ok &= (H <= base[None, :]).all(axis=1)
    return H[ok].astype(np.int16)


# -- judging waits ----------------------------------------------------------------------
_REGULAR_OR_PAIRS = FORM_BITS["regular"] | FORM_BITS["seven_pairs"]
_SUIT_OF = np.array([k // 9 if k < 27 else 3 for k in range(34)])


def _near(h: np.ndarray) -> np.ndarray:
    """``bool (m, 34)``: the kinds one more copy of which can complete ``h`` as a regular
    hand or seven pairs: a kind held, or a suited kind within two of one held."""
    held = h > 0
    near = held.copy()
    for d in (1, 2):
        for s in range(3):
            a, b = 9 * s, 9 * s + 9
            near[:, a:b - d] |= held[:, a + d:b]
            near[:, a + d:b] |= held[:, a:b - d]
    return near


def shape_waits(hands: np.ndarray, so: Any, *, extra_forms: bool = False,
                model: Any = None, melds: tuple = ()) -> np.ndarray:
    """``bool (m, 34)``: the kinds one more copy of which completes each hand of
    ``hands`` (``(m, 34)`` counts of ``3 k + 1`` tiles) by shape under the compiled
    shape options ``so`` (:meth:`~majiang.rules.shape_options.ShapeOptions.game_opts`).

    Only the regular form and seven pairs are checked, on the kinds within two of a held
    tile (:func:`_near`), where every wait of those forms lies: a hand generated as a
    complete regular hand less one tile is never one tile from thirteen orphans or a
    knitted form (its sets hold too few distinct orphans or knitted tiles).  They are
    checked in one batch by the compiled shanten kernel
    (:func:`majiang._core.efficiency.shanten_many`, shanten ``-1`` = complete).  With
    ``extra_forms`` (forms beyond the compiled ones, such as 十三烂, or honour chows,
    南昌) each hand also asks :func:`~majiang.scoring.waiting.beyond_waits` (slow, hand by
    hand)."""
    from ._core.efficiency import shanten_many
    h = np.ascontiguousarray(hands, dtype=np.uint8)
    m = len(h)
    out = np.zeros((m, 34), bool)
    if not m:
        return out
    cand = _near(h) & (h < 4)
    r, k = np.nonzero(cand)
    x = h[r]
    x[np.arange(len(r)), k] += 1
    sh = np.empty(len(r), np.int8)
    shanten_many(np.ascontiguousarray(x), int(so.mask) & _REGULAR_OR_PAIRS, bool(so.quads),
                 sh, pair_mask=int(so.pair_mask))
    ok = sh == -1
    out[r[ok], k[ok]] = True
    if extra_forms:
        from .scoring.waiting import beyond_waits
        for i in range(m):
            out[i, np.asarray(beyond_waits(model, h[i], melds), np.intp)] = True
    return out


class _Judge:
    """The ruleset's verdict on the shape waits of sampled hands (a win on a discard),
    and the discarder's loss.

    Three paths, each giving the verdict of :func:`majiang.scoring.check_win`:

    - **kernel** (Chinese Official fan table, no constraint beyond the minimum): every
      wait scored in one batch (:func:`majiang.scoring.score_batch`), the 8-fan minimum
      applied, the loss from the scored total;
    - **shape decides** (no minimum fan, no wild tiles, no form beyond the compiled ones,
      no constraint but 缺一门): a shape wait is a valid win when the hand lacks a suit
      (缺一门) or always; the loss, which needs the scorer, is computed on request for a
      few sampled wins per kind (:meth:`losses`);
    - otherwise each (hand, wait) asks :func:`~majiang.scoring.check_win` (cached).
    """

    def __init__(self, model: GameModel, melds: tuple, seat: int, viewer: int,
                 seat_wind: int, prevalent_wind: int, flowers: int, last_copy: Any = (),
                 last_tile: bool = False) -> None:
        self.model, self.melds, self.seat, self.viewer = model, melds, seat, viewer
        self.ctx = dict(seat_wind=seat_wind, prevalent_wind=prevalent_wind, flowers=flowers,
                        last_tile=bool(last_tile))
        self.last_copy = np.zeros(34, bool)
        self.last_copy[np.asarray(list(last_copy), np.intp)] = True
        self.cache: dict = {}
        rs = model.ruleset
        cons = set(model.constraints_beyond(()))
        self.path = "predicate"
        if rs is not None and not cons and model.jokers is None:
            from .scoring.kernel import _kernel_table
            if _kernel_table(rs) is not None:
                self.path = "kernel"
        if (self.path == "predicate" and model.min_fan == 0 and model.jokers is None
                and not model.extra_forms and cons <= {"void_suit"}
                and model.shape(()).exact and model.closed_hand_can_win()[0]):
            self.path = "shape"
        # the shape check: under "shape" it decides (the ruleset's pair rule applies);
        # otherwise the loose check (any pair), the predicate decides
        self.so = model.shape(()).game_opts(len(melds), pairs=self.path == "shape",
                                            fifth=False)
        self.void_rule = "void_suit" in cons
        self.meld_suits = np.zeros(4, bool)
        for mm in melds:
            self.meld_suits[_SUIT_OF[int(mm.tile)]] = True

    def waits(self, hands: np.ndarray) -> np.ndarray:
        """:func:`shape_waits` of ``hands`` under the ruleset's forms."""
        return shape_waits(hands, self.so,
                           extra_forms=bool(self.model.extra_forms) or self.model.honor_chows,
                           model=self.model, melds=self.melds)

    def batch(self, hands: np.ndarray, rows: np.ndarray, waits: np.ndarray) -> np.ndarray:
        """The discarder's loss when ``hands[rows[i]]`` + ``waits[i]`` wins on its discard,
        NaN where it is no valid win (``float64 (len(rows),)``); 0 (not yet known) for a
        valid win on the "shape" path (:meth:`losses`)."""
        out = np.full(len(rows), np.nan)
        if not len(rows):
            return out
        rs = self.model.ruleset
        if self.path == "kernel":
            from .scoring.kernel import melds_array, score_batch
            c = hands[rows]
            m = np.repeat(melds_array([Hand(c[0], self.melds)]), len(rows), axis=0)
            r = score_batch(c, waits, m, self_drawn=False, ruleset=rs, n_jobs=1,
                            last_copy=self.last_copy[waits], **self.ctx)
            ok = r.meets_minimum
            for tot in np.unique(r.total[ok]):
                sel = ok & (r.total == tot)
                out[sel] = -rs.settle(int(tot), self.seat, self.viewer)[self.viewer]
            return out
        if self.path == "shape":
            ok = np.ones(len(rows), bool)
            if self.void_rule:             # 缺一门: the whole hand lacks one suit
                c = hands[rows].astype(np.int64)
                c[np.arange(len(rows)), waits] += 1
                has = np.stack([c[:, 9 * s:9 * s + 9].sum(axis=1) > 0 for s in range(3)],
                               axis=1) | self.meld_suits[None, :3]
                ok = ~has.all(axis=1)
            out[ok] = 0.0
            return out
        for i, (h, w) in enumerate(zip(rows, waits)):
            c = np.ascontiguousarray(hands[h], dtype=np.uint8)
            out[i] = self.verdict(c, c.tobytes(), int(w))
        return out

    def verdict(self, c: np.ndarray, key: bytes, w: int) -> float:
        """The discarder's loss when ``c`` + ``w`` wins on its discard, NaN when no valid win."""
        k = (key, w)
        got = self.cache.get(k)
        if got is None:
            from .scoring import check_win
            got = np.nan
            try:
                r = check_win(Hand(c, self.melds), w, ruleset=self.model, self_drawn=False,
                              last_copy=bool(self.last_copy[w]), **self.ctx)
                if r.valid:
                    got = 0.0
                    if r.result is not None:
                        got = float(-r.result.settle(self.seat, self.viewer)[self.viewer])
            except MahjongError:
                got = np.nan
            self.cache[k] = got
        return got


def _as_melds(melds: Any) -> tuple:
    out = []
    for m in melds or ():
        m = getattr(m, "meld", m)             # a TableMeld holds its Meld
        if not isinstance(m, Meld):
            raise InvalidHandError(f"an opponent's meld must be a Meld, got {m!r}")
        out.append(m)
    return tuple(out)


def read_opponent(unseen: Any, *, ruleset: Any = None, seat: int, viewer: int,
                  melds: Any = (), discards: Any = (), passed: Any = (), dealer: int = 0,
                  prevalent_wind: int = 0, flowers: int = 0, void: int = -1,
                  earlier: Any = (), candidates: Any = None, n_samples: int = DEFAULT_SAMPLES, seed: Any = 0,
                  model: OpponentModel = DEFAULT_MODEL, loss_kinds: Any = None,
                  loss_samples: int = LOSS_SAMPLES, last_copy: Any = (),
                  last_tile: bool = False) -> OpponentRead:
    """Read one opponent under the model of this module (its text states every step).

    Parameters
    ----------
    unseen : array_like of int, shape (34,)
        Copies the viewer has not seen: in the other hands or the wall.
    ruleset : None, str, Ruleset or GameModel
        ``None`` = Chinese Official rules (``"mcr"``).
    seat, viewer : int
        The opponent's seat and the viewing seat (the discarder who pays).
    melds : sequence of Meld (or TableMeld)
        The opponent's melds (concealed kongs included).
    discards : sequence of int
        The opponent's own discards in order (claimed ones included).
    passed : sequence of int
        Discards of other seats since the opponent's own last discard that it let pass.
    earlier : sequence of (int, int)
        Older discards of other seats the opponent let pass, as ``(tile, age)``: ``age``
        go-arounds before now (1 = the latest round).
    dealer, prevalent_wind, flowers, void
        The dealer seat, the prevalent wind 0..3, the opponent's flowers (count) and its
        declared void suit (0..2, -1 none).
    candidates : sequence of int, optional
        Kinds the viewer holds the last unseen copy of (every other copy seen): a ready
        hand may wait on it, so the complete hands are built from the unseen tiles plus
        one copy of each (``extra`` of :func:`sample_ready_hands`; a kind with unseen
        copies needs none).
    n_samples : int
        Hands generated (>= 1).
    seed : int, SeedSequence, Generator or None
        As everywhere (:func:`majiang._parallel.as_seed_sequence`).
    model : OpponentModel
    loss_kinds : sequence of int or None
        The kinds whose expected loss is wanted (None: all).  Only rulesets whose wins the
        shape decides (no minimum fan) score wins for the loss alone, so there it saves
        time (an empty sequence: no loss, 0); elsewhere every loss comes with the verdict.
    loss_samples : int
        On those rulesets, the wins per kind scored for the loss (:data:`LOSS_SAMPLES`).
    last_copy : sequence of int
        Kinds whose other three copies are all visible: a win on a discard of one is on
        the last copy (和绝张, which counts toward a minimum fan).
    last_tile : bool
        The discard follows the wall's last draw (河底捞鱼).

    Returns
    -------
    OpponentRead

    Raises
    ------
    InvalidHandError
        Unseen counts that are not 34 non-negative numbers within the tile set.
    RuleError
        Unknown ruleset, a bad seed or sample count.
    """
    from ._parallel import as_seed_sequence
    gm = game_model(ruleset)
    u = np.asarray(unseen)
    if u.shape != (34,) or (u < 0).any() or (u > gm.copies).any():
        raise InvalidHandError("unseen counts must be 34 numbers between 0 and the copies "
                               "of the tile set")
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) \
            or n_samples < 1:
        raise RuleError(f"n_samples must be a positive integer, got {n_samples!r}")
    melds = _as_melds(melds)
    discards = [int(t) for t in discards]
    passed = [int(t) for t in passed]
    earlier = [(int(t), int(a)) for t, a in earlier]
    n = gm.players
    prior = model.p_ready_prior(gm, len(discards), len(melds))
    notes = []
    if gm.jokers is not None:
        notes.append("jokers are read by their face: the opponent's wild tiles are not "
                     "modelled, so the danger is understated")
    zero = np.zeros(34)
    n_sets = (gm.hand_size - 1) // 3 - len(melds)
    if gm.self_draw_only or n_sets < 0:
        why = "no win on a discard under this ruleset" if gm.self_draw_only else \
            "the opponent holds more melds than a hand has"
        return OpponentRead(seat, prior, prior, zero, zero.copy(), zero.copy(), 0, 0, 0.0,
                            tuple(notes + [why]))
    pool = u.astype(np.int64).copy()
    if 0 <= void <= 2:
        pool[9 * void:9 * void + 9] = 0
    rng = np.random.Generator(np.random.PCG64(as_seed_sequence(seed)))
    hands = sample_ready_hands(pool, n_sets, int(n_samples), rng,
                               None if candidates is None else [int(k) for k in candidates])
    judge = _Judge(gm, melds, seat, viewer, (seat - dealer) % n, prevalent_wind, flowers,
                   last_copy=[int(k) for k in last_copy], last_tile=last_tile)
    m = len(hands)
    rows_a, ws_a = np.nonzero(judge.waits(hands))
    lost = judge.batch(hands, rows_a, ws_a)
    good = lost == lost                     # not NaN: a valid win on a discard
    valid = np.zeros((m, 34), bool)
    loss = np.zeros((m, 34))
    valid[rows_a[good], ws_a[good]] = True
    loss[rows_a[good], ws_a[good]] = lost[good]
    ready = valid.any(axis=1)
    valid, loss, hands = valid[ready], loss[ready], hands[ready]
    weight = np.ones(len(valid))
    for d in passed:
        weight *= np.where(valid[:, d], model.pass_factor, 1.0)
    for d, age in earlier:
        weight *= np.where(valid[:, d], 1.0 - model.keep ** age * (1.0 - model.pass_factor),
                           1.0)
    if discards:
        weight *= np.where(valid[:, discards[-1]], model.pass_factor, 1.0)
        for d in set(discards[:-1]) - {discards[-1]}:
            weight *= np.where(valid[:, d], model.own_factor, 1.0)
    lock = getattr(gm.ruleset, "pass_lock", "")
    now = valid.copy()
    if passed and lock == "kind":
        now[:, passed] = False
    elif passed and lock == "all":
        now[valid[:, passed].any(axis=1)] = False
    n_ready = len(valid)
    if n_ready == 0:
        notes.append("no generated hand was ready with a valid wait on a discard")
        return OpponentRead(seat, prior, 0.0, zero, zero.copy(), zero.copy(), m, 0, 0.0,
                            tuple(notes))
    lbar = float(weight.mean())
    post = model.p_ready_post(gm, prior, lbar)
    sw = weight.sum()
    hit = (weight[:, None] * now).sum(axis=0)
    frac = hit / sw
    ess = float(sw ** 2 / (weight ** 2).sum())
    se = _binomial_se(frac, ess)
    if judge.path == "shape":
        kinds = range(34) if loss_kinds is None else [int(k) for k in loss_kinds]
        _shape_losses(judge, hands, now, weight, loss, kinds, rng, int(loss_samples))
    exp_loss = np.divide((weight[:, None] * now * loss).sum(axis=0), hit,
                         out=np.zeros(34), where=hit > 0)
    return OpponentRead(seat, prior, post, post * frac, post * se, exp_loss, m, n_ready, ess,
                        tuple(notes), lbar)


def _binomial_se(frac: np.ndarray, ess: float) -> np.ndarray:
    """Monte Carlo standard error of a weighted share ``frac`` (``(34,)``) estimated from
    weighted samples of effective size ``ess``: the binomial ``sqrt(f (1 - f) / ess)`` with
    ``f`` pulled half a sample towards one half (Jeffreys), so a kind no sample hit still
    gets the error of one share in ``ess`` rather than 0."""
    f = (frac * ess + 0.5) / (ess + 1.0)
    return np.sqrt(f * (1.0 - f) / max(ess, 1.0))


def _shape_losses(judge: _Judge, hands: np.ndarray, now: np.ndarray, weight: np.ndarray,
                  loss: np.ndarray, kinds: list, rng: np.random.Generator, cap: int) -> None:
    """Fill ``loss[i, k]`` for up to ``cap`` sampled wins per kind of ``kinds`` (drawn with
    probability proportional to their weight, scored by the ruleset,
    :meth:`_Judge.verdict`) and give each other win of kind ``k`` their mean: the
    expected loss of a kind is then a Monte Carlo mean over ``cap`` scored wins."""
    for k in kinds:
        idx = np.flatnonzero(now[:, k])
        if not len(idx):
            continue
        w = weight[idx]
        pick = idx if len(idx) <= cap else rng.choice(idx, size=cap, replace=False,
                                                      p=w / w.sum())
        vals = []
        for i in pick:
            c = np.ascontiguousarray(hands[i], dtype=np.uint8)
            v = judge.verdict(c, c.tobytes(), k)
            if v == v:
                vals.append(v)
        loss[idx, k] = float(np.mean(vals)) if vals else 0.0


# -- from a table position --------------------------------------------------------------
def passed_since(position: Any, seat: int) -> tuple[list[int], list[tuple[int, int]]]:
    """``(passed, earlier)`` of :func:`read_opponent` for ``seat``, as the model reads the
    table.  ``passed``: the latest discard of each seat strictly between ``seat`` and the
    viewing seat in turn order (they played after ``seat``'s own last discard when no
    claim broke the order).  ``earlier``: every other discard of another seat, with its
    age in go-arounds (``len(river) - index``, plus one for a seat that played before
    ``seat`` in the latest round).  A discard ``seat`` itself claimed is left out.  A
    position keeps each river in order but not the order across rivers, so a claim that
    skipped seats is not seen."""
    n = position.players
    viewer = position.seat
    between = set()
    p = (seat + 1) % n
    while p != viewer:
        between.add(p)
        p = (p + 1) % n
    passed, earlier = [], []
    for q in range(n):
        if q == seat:
            continue
        river = position.discards[q]
        for i, d in enumerate(river):
            if d.claimed_by == seat:
                continue
            age = len(river) - i
            if q in between:
                if age == 1:
                    passed.append(int(d.tile))
                    continue
                age -= 1
            earlier.append((int(d.tile), age))
    return passed, earlier


def read_position(position: Any, *, n_samples: int = DEFAULT_SAMPLES, seed: Any = 0,
                  model: OpponentModel = DEFAULT_MODEL,
                  loss: bool = True) -> tuple[OpponentRead, ...]:
    """:func:`read_opponent` for every opponent still playing in ``position`` (a
    :class:`majiang.Position`), seen from its seat: the unseen tiles
    (:meth:`~majiang.Position.unseen_counts`), each opponent's melds, discards, flowers
    and void suit, the discards it let pass (:func:`passed_since`), the kinds with three
    copies visible as ``last_copy`` (和绝张), an empty wall as ``last_tile`` (河底捞鱼),
    the viewer's concealed kinds as the candidates (a discard of one of them is what the
    opponent may win on, so each adds a copy to the tiles its complete hand is drawn from)
    and as the kinds whose loss is wanted (none with ``loss=False``).  Opponent ``i`` (in seat order)
    draws from the ``i``-th child of ``seed``.

    Raises
    ------
    RuleError, InvalidHandError
        As :func:`read_opponent`.
    """
    from ._parallel import spawn_seeds
    opp = position.opponents()
    seeds = spawn_seeds(seed, len(opp))
    unseen = np.asarray(position.unseen_counts(), np.int64)
    cands = [int(k) for k in np.flatnonzero(position.concealed)]
    wanted = cands if loss else []
    last_copy = [int(k) for k in np.flatnonzero(position.visible_counts() >= 3)]
    last_tile = int(position.tiles_left) == 0
    out = []
    for i, j in enumerate(opp):
        melds = position.played_melds(j)        # a stand-in pung as the face's
        if position.hidden_kongs[j]:
            z = np.zeros(34)
            prior = model.p_ready_prior(position.model, len(position.discards[j]),
                                        len(melds) + position.hidden_kongs[j])
            out.append(OpponentRead(j, prior, prior, z, z.copy(), z.copy(), 0, 0, 0.0, (
                "a concealed kong of an unseen tile is not modelled: no danger is read "
                "for this opponent",)))
            continue
        passed, earlier = passed_since(position, j)
        out.append(read_opponent(
            unseen, ruleset=position.model, seat=j, viewer=position.seat, melds=melds,
            discards=[d.tile for d in position.discards[j]], passed=passed, earlier=earlier,
            dealer=position.dealer, prevalent_wind=position.prevalent_wind,
            flowers=int(position.flowers[j]), void=int(position.voids[j]),
            candidates=cands, n_samples=n_samples, seed=seeds[i], model=model,
            loss_kinds=wanted, last_copy=last_copy, last_tile=last_tile))
    return tuple(out)

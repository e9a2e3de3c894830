"""The result types of :mod:`majiang.probability`: :class:`Estimate` (one probability
with its standard error) and :class:`Probabilities` (win and tenpai probabilities and
curves of one hand, with the method, model and policy that produced them)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .limits import S1


def _default_spec(*xs: float) -> str:
    """The format of :class:`Estimate` without a spec: 4 decimals, more when a nonzero
    value or standard error would round to 0 there (``5e-5 ± 5e-5`` prints ``0.00005 ±
    0.00005``: its first significant digit shown), scientific below 1e-12."""
    digits = 4
    for x in xs:
        x = abs(float(x))
        if 0 < x < 1e-4:
            if x < 1e-12:
                return ".1e"
            digits = max(digits, -math.floor(math.log10(x)))
    return f".{digits}f"


@dataclass(frozen=True)
class Estimate:
    """A probability with its standard error (0.0 for exact values).

    ``float(est)`` gives the value; ``format(est, ".3f")`` the value (± se for Monte
    Carlo); ``str(est)`` also names the method, model and policy.  ``method`` is
    ``"exact"`` or ``"monte_carlo"``; ``n_samples`` is None for exact values;
    ``model`` / ``policy`` / ``note`` as in :class:`Probabilities`; ``discard`` the
    best discard of a hand that must discard (its value is that discard's; the first in
    tile order among equal ones, which the note lists), else "".
    """

    value: float
    se: float
    method: str
    n_samples: int | None = None
    model: str = S1
    policy: str = "optimal"
    note: str = ""
    discard: str = ""

    def __float__(self) -> float:
        return float(self.value)

    def __format__(self, spec: str) -> str:
        if not spec:            # enough decimals that neither number rounds to 0
            exact = self.method == "exact"
            spec = _default_spec(self.value, 0.0 if exact else self.se)
        if self.method == "exact":
            return format(self.value, spec)
        return f"{format(self.value, spec)} ± {format(self.se, spec)}"

    def __str__(self) -> str:
        note = f"; {self.note}" if self.note else ""
        return f"{format(self, '')} ({self.method}, {self.model}, policy {self.policy}{note})"


@dataclass(frozen=True, eq=False)
class Probabilities:
    """Win and tenpai probabilities of one hand over ``draws`` draws.

    Attributes
    ----------
    draws : int
        The horizon ``T``.
    p_win, p_tenpai : float
        Probability of winning / being tenpai within ``T`` draws.
    se_win, se_tenpai : float
        Standard errors (0.0 when exact).
    win_curve, tenpai_curve : numpy.ndarray
        ``float64`` of shape ``(T,)``: element ``t - 1`` is the probability that
        the event happened by draw ``t``; the last element equals ``p_win`` /
        ``p_tenpai``.
    win_curve_se, tenpai_curve_se : numpy.ndarray
        ``float64`` ``(T,)`` standard errors (zeros when exact).
    method : str
        ``"exact"`` or ``"monte_carlo"``.
    policy : str
        ``"optimal"`` (best play of the model), ``"changes<=c"`` (restricted
        search, a lower bound), ``"greedy"`` (Monte Carlo ukeire-greedy player) or
        ``"greedy (ruleset shanten)"`` (the 2-5-8 rulesets' greedy player); each is
        accepted back as ``policy=``.
    n_samples : int or None
        Walls simulated (None when exact).
    n_states : int or None
        Hand states of the exact search (None when not built).
    model : str
        ``"true wall"``, ``"kind counts"`` or ``"real walls"`` (Monte Carlo).
    note : str
        Why the probability is 0 by rule (e.g. 开门 with a closed hand), which discard
        a hand that must discard is valued by, that a complete hand wins now (or why
        it does not), else "".
    ruleset : str
        The game model's name.
    discard, tenpai_discard : str
        For a hand that must discard: the discard whose ``p_win`` (resp.
        ``p_tenpai``) is reported, the best one (:func:`probabilities`; the first in
        tile order among equal ones, which the note lists); "" otherwise (and for a
        complete hand that wins now).
    """

    draws: int
    p_win: float
    p_tenpai: float
    se_win: float
    se_tenpai: float
    win_curve: np.ndarray
    tenpai_curve: np.ndarray
    win_curve_se: np.ndarray
    tenpai_curve_se: np.ndarray
    method: str
    policy: str
    n_samples: int | None = None
    n_states: int | None = None
    model: str = S1
    note: str = ""
    ruleset: str = ""
    _winning: Any = field(default=None, repr=False)   # winning-hand distribution (fan odds)
    discard: str = ""
    tenpai_discard: str = ""
    _tenpai: Any = field(default=None, repr=False)    # Estimate of the best tenpai discard

    @property
    def win(self) -> Estimate:
        return Estimate(self.p_win, self.se_win, self.method, self.n_samples, self.model,
                        self.policy, self.note, self.discard)

    @property
    def tenpai(self) -> Estimate:
        if self._tenpai is not None:
            return self._tenpai
        return Estimate(self.p_tenpai, self.se_tenpai, self.method, self.n_samples, self.model,
                        self.policy, "")

    @property
    def label(self) -> str:
        """``"<method>, <model>, policy <policy>"`` — what produced the numbers."""
        return f"{self.method}, {self.model}, policy {self.policy}"

    def __str__(self) -> str:
        rs = f"; {self.ruleset}" if self.ruleset else ""
        note = f"; {self.note}" if self.note else ""
        return (f"P(win) {format(self.win, '')}, P(tenpai) {format(self.tenpai, '')} within "
                f"{self.draws} draws ({self.label}{rs}{note})")

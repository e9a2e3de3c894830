"""Questions players ask: which tile to discard (何切).

:func:`advise` ranks the discards of a hand that must discard by

1. shanten after the discard (lower is better: 向听数),
2. live ukeire (有效牌) — effective tiles still unseen, counting the visible tiles,
3. the second-order efficiency (改良, "two-step"): the live-weighted average,
   over the effective draws, of the best live ukeire available after that draw
   and the best discard that keeps the lower shanten (higher is better; absent
   for a tenpai discard),
4. the number of effective kinds, then tile order (a stable, documented last resort).

With ``draws=T`` the table gains ``p_tenpai`` and ``p_win`` (probability of being
tenpai / of winning within ``T`` self-draws, :mod:`majiang.probability`) and,
within equal shanten, discards rank by ``p_win`` then ``p_tenpai`` before the
criteria above.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .efficiency import DEFAULT_FORMS, discard_table

__all__ = ["advise"]


def advise(hand: Any, visible: Any = None, *, forms: Sequence[str] | None = None,
           seven_pairs_quads: bool | None = None, second_order: bool = True, jokers: int = 0,
           joker_fifth_copy: bool = False, ruleset: Any = None, draws: int | None = None,
           method: str = "auto", seed: Any = None, n_samples: int = 20_000):
    """Discard advice for a hand that must discard, best first.

    Parameters
    ----------
    hand : str, Hand or array_like of shape (34,)
        14 tiles counting melds (3n+2 concealed).
    visible : str or array_like of shape (34,), optional
        Every tile the player sees besides the hand (discards, exposed melds of
        others); lowers live counts.  Hand + visible may hold at most 4 of a kind.
    forms, seven_pairs_quads, jokers, joker_fifth_copy, ruleset
        Winning forms and wild tiles, as in :func:`majiang.shanten`
        (``ruleset="mcr"``: the five Chinese Official forms).
    second_order : bool
        Compute the two-step tie-break (column ``improvement``); off is faster.
    draws : int, optional
        Horizon for the columns ``p_tenpai`` and ``p_win`` (see
        :func:`majiang.probability.discard_probabilities`: NaN for discards that
        raise the shanten).  ``None`` (default) leaves them out.
    method, seed, n_samples
        Passed with ``draws`` and ``ruleset`` (which then also decides which
        complete hands win) to :func:`majiang.probability.discard_probabilities`.

    Returns
    -------
    pandas.DataFrame
        Columns ``rank, discard, shanten, ukeire_kinds, ukeire_count, ukeire,
        improvement`` (and ``p_tenpai, p_win`` with ``draws``); one row per
        distinct discard, best first.  Discards that are
        equal on every criterion share a rank.

    Raises
    ------
    InvalidHandError, InvalidNotationError, RuleError
        As :func:`majiang.discard_table`.
    """
    table = discard_table(hand, visible, forms=forms, seven_pairs_quads=seven_pairs_quads,
                          second_order=second_order, jokers=jokers,
                          joker_fifth_copy=joker_fifth_copy, ruleset=ruleset)
    crit_cols = ["shanten", "ukeire_count", "_imp", "ukeire_kinds"]
    asc = [True, False, False, False]
    if draws is not None:
        from .probability import discard_probabilities
        probs = discard_probabilities(hand, draws, visible=visible, ruleset=ruleset,
                                      method=method, seed=seed, n_samples=n_samples)
        table = table.merge(probs[["discard", "p_tenpai", "p_win"]], on="discard", how="left")
        crit_cols[1:1] = ["_pw", "_pt"]
        asc[1:1] = [False, False]
    key = table.assign(_imp=table["improvement"].fillna(-1.0))
    if draws is not None:
        key = key.assign(_pw=table["p_win"].fillna(-1.0), _pt=table["p_tenpai"].fillna(-1.0))
    order = key.sort_values(crit_cols, ascending=asc, kind="stable").index
    out = table.loc[order].reset_index(drop=True)
    crit = key.loc[order, crit_cols].to_numpy()
    new_group = np.ones(len(out), dtype=bool)
    if len(out) > 1:
        new_group[1:] = np.any(crit[1:] != crit[:-1], axis=1)
    ranks = np.zeros(len(out), dtype=np.int64)
    rank = 0
    for i, is_new in enumerate(new_group):
        if is_new:
            rank = i + 1
        ranks[i] = rank
    out.insert(0, "rank", ranks)
    return out

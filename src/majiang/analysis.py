"""Questions players ask: which tile to discard (何切).

:func:`advise` ranks the discards of a hand that must discard.  Without a horizon
(``draws=None``) by

1. shanten after the discard (lower is better: 向听数; the ruleset's shanten:
   its forms, tile set, 缺一门 void suit, 二五八将 pair),
2. live ukeire (有效牌) — effective tiles still unseen, counting the visible tiles,
3. the second-order efficiency (改良, "two-step"): the live-weighted average,
   over the effective draws, of the best live ukeire available after that draw
   and the best discard that keeps the lower shanten (higher is better; absent
   for a tenpai discard),
4. the number of effective kinds, then tile order (a stable, documented last resort).

With ``draws=T`` every discard with a finite ruleset shanten gets ``p_tenpai`` and
``p_win`` (probability of being tenpai / of winning within ``T`` self-draws under
the ruleset's game model, :mod:`majiang.probability`), and the discards rank by
**p_win, then p_tenpai, then live ukeire**, then the criteria above.  Under a
ruleset that scores hands the table also gains ``exp_score`` (expected points
within the horizon under the ruleset's scoring rule, 0 for no win) and
``mean_fan`` (mean fan total given a win), and the columns ``model`` / ``policy``
say what produced the probabilities.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .efficiency import _regional_jokers, discard_columns, discard_table

__all__ = ["advise"]


def advise(hand: Any, visible: Any = None, *, forms: Sequence[str] | None = None,
           seven_pairs_quads: bool | None = None, second_order: bool = True, jokers: int = 0,
           joker_fifth_copy: bool = False, ruleset: Any = None, draws: int | None = None,
           method: str = "auto", seed: Any = 0, n_samples: int = 20_000,
           changes: int | None = None, indicator: Any = None, seat_wind: Any = 0,
           prevalent_wind: Any = 0):
    """Discard advice for a hand that must discard, best first.

    Parameters
    ----------
    hand : str, Hand or array_like of shape (34,)
        One tile more than the ruleset's hand size (14, or 17 under 16-tile rulesets),
        counting melds as 3 and jokers.
    visible : str or array_like of shape (34,), optional
        Every tile the player sees besides the hand (discards, exposed melds of
        others); lowers live counts.  Hand + visible may hold at most 4 of a kind.
    forms, seven_pairs_quads, jokers, joker_fifth_copy, ruleset
        Winning forms and wild tiles, as in :func:`majiang.shanten`
        (``ruleset="mcr"``: the five Chinese Official forms).
    second_order : bool
        Compute the two-step tie-break (column ``improvement``); off is faster.
    draws : int, optional
        Horizon for the columns ``p_tenpai``, ``p_win`` (and ``exp_score``,
        ``mean_fan`` under a ruleset that scores hands): see
        :func:`majiang.probability.discard_probabilities`; every discard with a
        finite ruleset shanten is evaluated.  ``None`` (default) leaves them out.
    method, seed, n_samples, changes, indicator, seat_wind, prevalent_wind
        Passed with ``draws`` and ``ruleset`` to the probability model
        (:func:`majiang.probability.probabilities`); ``indicator`` (the turned tile of
        a joker ruleset) also goes to :func:`majiang.discard_table`, so the wild kinds
        (one, or two: 南昌, 天津) are not listed as ordinary draws.

    Returns
    -------
    pandas.DataFrame
        Columns ``rank, discard, shanten, ukeire_kinds, ukeire_count, ukeire,
        improvement`` (and with ``draws``: ``p_tenpai, p_win, se_win, method, model,
        policy, note``, plus ``exp_score, mean_fan`` when the ruleset scores hands); one
        row per distinct discard, best first.  Discards equal on every ranking
        criterion share a rank.

    Raises
    ------
    InvalidHandError, InvalidNotationError, RuleError
        As :func:`majiang.discard_table` and :func:`majiang.probabilities`.
    KeyboardInterrupt
        Propagated unchanged.
    """
    rs = _regional_jokers(ruleset, forms, indicator)     # a fixed joker kind needs none
    if draws is None and rs is None:
        return _advise_columns(hand, visible, forms, seven_pairs_quads, second_order, jokers,
                               joker_fifth_copy, ruleset)
    table = discard_table(hand, visible, forms=forms, seven_pairs_quads=seven_pairs_quads,
                          second_order=second_order, jokers=jokers,
                          joker_fifth_copy=joker_fifth_copy, ruleset=ruleset,
                          indicator=indicator)
    crit_cols = ["shanten", "ukeire_count", "_imp", "ukeire_kinds"]
    asc = [True, False, False, False]
    if draws is not None:
        probs = _probability_columns(hand, draws, visible, ruleset, method, seed, n_samples,
                                     changes, indicator, seat_wind, prevalent_wind, jokers)
        table = table.merge(probs, on="discard", how="left")
        crit_cols = ["_pw", "_pt", "ukeire_count", "shanten", "_imp", "ukeire_kinds"]
        asc = [False, False, False, True, False, False]
    key = table.assign(_imp=table["improvement"].fillna(-1.0))
    if draws is not None:
        key = key.assign(_pw=table["p_win"].fillna(-1.0), _pt=table["p_tenpai"].fillna(-1.0))
    order = key.sort_values(crit_cols, ascending=asc, kind="stable").index
    out = table.loc[order].reset_index(drop=True)
    out.insert(0, "rank", _shared_ranks(key.loc[order, crit_cols].to_numpy()))
    return out


def _shared_ranks(crit: np.ndarray) -> np.ndarray:
    """Ranks of rows already in best-first order, ``crit`` of shape (n, k) their ranking
    keys: a row equal to the one before on every key shares its rank (competition
    ranking 1, 1, 3, ...); NaN never equals, so it starts a rank.  Returns int64 (n,)."""
    n = len(crit)
    ranks = np.arange(1, n + 1, dtype=np.int64)
    if n > 1:
        ranks[1:][np.all(crit[1:] == crit[:-1], axis=1)] = 0
        ranks = np.maximum.accumulate(ranks)
    return ranks


def _rank_order(sh, count, impr, kinds):
    """Stable best-first order and shared ranks of the discard columns (no draws).

    Keys, most significant first: shanten ascending, live ukeire descending,
    improvement descending (NaN counts as -1), effective kinds descending; ties keep
    tile order.  Returns ``(order, ranks)``, int64 arrays of the row count."""
    imp = np.where(np.isnan(impr), -1.0, impr)
    order = np.lexsort((-kinds, -imp, -count, sh))
    crit = np.stack((sh[order].astype(np.float64), count[order].astype(np.float64),
                     imp[order], kinds[order].astype(np.float64)), axis=1)
    return order, _shared_ranks(crit)


def _ranked_columns(hand, visible, forms, seven_pairs_quads, second_order, jokers,
                    joker_fifth_copy, ruleset):
    """The kernel's discard columns of a hand that must discard and their ranking
    (no draws, no regional shape rules).

    Returns ``(names, sh, kinds, count, texts, impr, order, ranks)``: ``names`` and
    ``texts`` lists of str in tile order; ``sh``, ``kinds``, ``count`` int64 and
    ``impr`` float64 arrays in tile order; ``order`` the best-first permutation and
    ``ranks`` the rank of each row *in that order* (int64).  Raises as
    :func:`majiang.discard_table`."""
    names, sh, kinds, count, texts, impr = discard_columns(
        hand, visible, forms, seven_pairs_quads, second_order, jokers, joker_fifth_copy,
        ruleset)
    order, ranks = _rank_order(sh, count, impr, kinds)
    return names, sh, kinds, count, texts, impr, order, ranks


def _advise_columns(hand, visible, forms, seven_pairs_quads, second_order, jokers,
                    joker_fifth_copy, ruleset):
    """advise() without draws and without regional shape rules: the kernel's discard
    columns ranked in NumPy, one DataFrame at the end (same table as before issue 12)."""
    import pandas as pd

    names, sh, kinds, count, texts, impr, order, ranks = _ranked_columns(
        hand, visible, forms, seven_pairs_quads, second_order, jokers, joker_fifth_copy,
        ruleset)
    idx = order.tolist()
    return pd.DataFrame({"rank": ranks, "discard": [names[i] for i in idx],
                         "shanten": sh[order], "ukeire_kinds": kinds[order],
                         "ukeire_count": count[order], "ukeire": [texts[i] for i in idx],
                         "improvement": impr[order]}, copy=False)


def _probability_columns(hand, draws, visible, ruleset, method, seed, n_samples, changes,
                         indicator, seat_wind, prevalent_wind, jokers):
    """One row per discard: p_tenpai, p_win, se_win, method, model, policy, note (+ exp_score,
    mean_fan when the ruleset scores hands)."""
    import pandas as pd

    from . import probability as P

    if jokers:
        from .hand import Hand, as_hand
        h = as_hand(hand, strict=False)
        hand = Hand(h.concealed, h.melds, h.flowers, h.jokers + int(jokers))
    scored = ruleset is not None and P._model_of(ruleset).ruleset is not None
    pos, engine, res = P._discard_results(
        hand, draws, visible, ruleset, method, seed, n_samples, None, changes, 1,
        P.DEFAULT_MAX_STATES, True, indicator, seat_wind, prevalent_wind, keep_wins=scored)
    rows = []
    for d, r in res.items():
        row = {"discard": P._discard_name(d)}
        if r is None:
            rows.append(row)
            continue
        row.update(p_tenpai=r.p_tenpai, p_win=r.p_win, se_win=r.se_win, method=r.method,
                   model=r.model, policy=r.policy, note=r.note)
        if scored:
            row["exp_score"], row["mean_fan"] = P._score_summary(pos, r)
        rows.append(row)
    cols = ["discard", "p_tenpai", "p_win", "se_win", "method", "model", "policy", "note"]
    if scored:
        cols += ["exp_score", "mean_fan"]
    return pd.DataFrame(rows, columns=cols)

"""Discard tables (何切): the kernel's columns (:func:`discard_columns`, shared with
:func:`majiang.advise`) and the pandas frame of :func:`discard_table`."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._core import efficiency as _eff
from ..tiles import tile_name
from ._b258 import _b258_columns
from ._hand import (_check_jokers, _core_error, _hand_query, _seen_indicator, _visible,
                    _visible_in_set)
from ._jokers import _check_indicator, _stand_in_names, wild_faces
from ._ruleset import _jokers_allowed, _regional_jokers, _resolved, _route, _ruleset_fifth


def discard_columns(hand: Any, visible: Any, forms, seven_pairs_quads, second_order: bool,
                    jokers: int, joker_fifth_copy: bool, ruleset: Any) -> tuple:
    """The kernel's discard-table columns of a hand that must discard, core forms only
    (no regional shape rules): ``(names, shanten, ukeire_kinds, ukeire_count, ukeire,
    improvement)`` in tile order — lists of str and int64 / float64 arrays.  Shared by
    :func:`discard_table` and :func:`majiang.advise`.  Raises as :func:`discard_table`."""
    generic = ruleset is None           # no ruleset given: generic jokers allowed
    ruleset = _resolved(ruleset, forms, seven_pairs_quads)
    forms = seven_pairs_quads = None
    visible = _visible_in_set(visible, ruleset)
    how, rs = _route(ruleset)
    if not generic:
        _jokers_allowed(ruleset, hand, jokers)
    if how == "b258":       # 2-5-8 pair for a small win, any pair for a 大胡 shape
        return _b258_columns(hand, rs, visible, _check_jokers(jokers))
    joker_fifth_copy = _ruleset_fifth(ruleset, joker_fifth_copy)
    mask, seven_pairs_quads, counts, caps, h, jokers, extra = _hand_query(
        hand, 2, "a discard table needs a hand that must discard; for a hand waiting for a "
        "draw use ukeire()", forms, seven_pairs_quads, ruleset, jokers, shape=True)
    s = _eff.shanten_one(counts, mask, seven_pairs_quads, caps, jokers, joker_fifth_copy,
                         **extra)
    if s < -1:
        raise _core_error(counts, s, jokers=jokers)
    vis = _visible(visible, h, counts)
    return _eff.discard_columns(counts, mask, seven_pairs_quads, caps, vis, second_order,
                                jokers, joker_fifth_copy, **extra)


def discard_table(hand: Any, visible: Any = None, *, forms: Sequence[str] | None = None,
                  seven_pairs_quads: bool | None = None, second_order: bool = True,
                  jokers: int = 0, joker_fifth_copy: bool = False, ruleset: Any = None,
                  indicator: Any = None, void: Any = None):
    """One row per distinct discard of a 3n+2 hand (何切), in tile order.

    Parameters
    ----------
    hand, visible, forms, seven_pairs_quads, jokers, joker_fifth_copy, ruleset
        As in :func:`ukeire` (default: Chinese Official rules).  Jokers are kept (a joker is never the advised discard
        in this table; rulesets that allow discarding one decide that themselves).
    second_order : bool
        Compute the ``improvement`` column (slower).
    indicator : str or int, optional
        As in :func:`ukeire`: with a joker ruleset the wild kinds are known, their
        natural copies are not counted as ordinary draws and a helpful joker draw
        shows as ``*`` in the ``ukeire`` column (the shape engine of
        :mod:`majiang.rules.shapes`; ``improvement`` is then NaN).
    void : str or int, optional
        The declared void suit (定缺), as in :func:`shanten`: the complete hand must lack
        it, and while the hand holds tiles of that suit only they are listed (they must
        be discarded first: :func:`void_first`).

    Columns
    -------
    discard : str
        The tile discarded (Tenhou notation).
    shanten : int
        Shanten after the discard.
    ukeire_kinds : int
        Number of effective tile kinds after the discard.
    ukeire_count : int
        Live effective tiles (sum of live counts).
    ukeire : str
        The effective kinds, compact Tenhou notation (``"147m"``).
    improvement : float
        Second-order efficiency (改良/two-step): the average, weighted by live
        counts, over the effective draws of the best live ukeire reachable after
        that draw and the best discard keeping the lower shanten.  NaN when
        already tenpai (nothing further to improve) or when not computed.

    Returns
    -------
    pandas.DataFrame

    Raises
    ------
    InvalidHandError
        For a 3n+1 hand, a fifth copy, bad counts, a visible kind outside the
        ruleset's tile set.
    """
    if void is not None:
        from ..rules.derived import with_void
        ruleset = with_void(ruleset, void)
    if indicator is not None and ruleset is not None:
        from ..rules.derived import with_indicator
        ruleset = with_indicator(ruleset, indicator)    # 武汉 痞子: never kept
    return void_first(_discard_table(hand, visible, forms, seven_pairs_quads, second_order,
                                     jokers, joker_fifth_copy, ruleset, indicator), ruleset)


def void_first(table: Any, ruleset: Any) -> Any:
    """The rows of a discard table (a DataFrame with a ``discard`` column of tile names,
    best first or in tile order) a player may choose under ``ruleset``'s declared void
    suit (:attr:`majiang.rules.model.RuleSpec.declared_void`, 定缺): while the hand holds
    tiles of that suit only those may be discarded (四川: the declared suit is thrown
    before any other tile, as the game engine's legal discards), so only their rows are
    kept and a ``rank`` column is ranked anew among them (ties still shared).  The table
    itself when no void is declared or no tile of the suit is held."""
    if ruleset is None:
        return table
    from ..rules.model import rule_spec
    s = rule_spec(ruleset).declared_void
    if s is None or table.empty:
        return table
    keep = table["discard"].astype(str).str.endswith("mps"[s]).to_numpy()
    if not keep.any() or keep.all():
        return table
    out = table.loc[keep].reset_index(drop=True)
    if "rank" in out.columns:
        out["rank"] = out["rank"].rank(method="min").astype(np.int64)
    return out


def _discard_table(hand, visible, forms, seven_pairs_quads, second_order, jokers,
                   joker_fifth_copy, ruleset, indicator):
    """:func:`discard_table` without the declared-void filter."""
    import pandas as pd

    rsv = _resolved(ruleset, forms, seven_pairs_quads)     # None: the default ruleset
    faces = None if indicator is None else wild_faces(hand, rsv, indicator)
    hand = _check_indicator(hand, rsv, indicator)     # wild tiles by their faces
    rs = _regional_jokers(rsv, None, indicator)     # a fixed joker kind needs none
    if rs is not None and _route(rsv)[0] == "b258":
        rs = None           # pair_258_small: discard_columns (_b258_columns)
    if rs is not None:      # regional shape rules / joker kinds: majiang.rules.shapes
        from ..rules.shapes import ruleset_discard_table
        _jokers_allowed(rsv, hand, jokers)      # as ukeire / discard_columns
        table = ruleset_discard_table(hand, rs, _visible_in_set(visible, rsv),
                                      jokers=_check_jokers(jokers), indicator=indicator,
                                      faces=faces)
        names = _stand_in_names(rsv, indicator)
        if names:       # a held stand-in is discarded as itself (安庆 7z, not the face)
            table["discard"] = table["discard"].replace(names)
        return table
    return _table_frame(pd, discard_columns(
        hand, _seen_indicator(visible, rsv, indicator), forms, seven_pairs_quads,
        second_order, jokers, joker_fifth_copy, ruleset))


_TABLE_COLUMNS = ["discard", "shanten", "ukeire_kinds", "ukeire_count", "ukeire",
                  "improvement"]
_FRAME_PARTS: list = []     # [column Index, the dtype pandas infers for a list of str]


def _table_frame(pd: Any, columns: tuple) -> Any:
    """The discard table from :func:`discard_columns`'s six fresh columns, equal (values,
    dtypes, index) to ``pd.DataFrame(dict(zip(_TABLE_COLUMNS, columns)))``.

    Issue 12: that constructor spends about 90 µs of a 130 µs call inferring the column
    labels' and strings' dtypes anew each time.  Here the column Index and the string
    dtype are made once, the two string columns are converted with that dtype, and the
    frame is assembled by ``DataFrame._from_arrays`` without re-validation (about 45 µs).
    That classmethod is not public API, so any failure falls back to the public
    constructor (tested equal in tests/test_efficiency.py)."""
    names, sh, kinds, count, texts, impr = columns
    try:
        if not _FRAME_PARTS:
            _FRAME_PARTS[:] = [pd.Index(_TABLE_COLUMNS), pd.Series(["1m"]).dtype]
        index, str_dtype = _FRAME_PARTS
        if str_dtype == object:
            strings = (np.array(names, dtype=object), np.array(texts, dtype=object))
        else:
            strings = (pd.array(names, dtype=str_dtype), pd.array(texts, dtype=str_dtype))
        return pd.DataFrame._from_arrays(
            [strings[0], sh, kinds, count, strings[1], impr], columns=index,
            index=pd.RangeIndex(len(names)), verify_integrity=False)
    except (AttributeError, TypeError, ValueError):     # a pandas without the fast path
        return pd.DataFrame(dict(zip(_TABLE_COLUMNS, columns)), copy=False)


def _discard_table_rows(hand: Any, visible: Any = None, *, forms=None, seven_pairs_quads=None,
                        second_order: bool = True, jokers: int = 0,
                        joker_fifth_copy: bool = False, ruleset: Any = None):
    """The table as :func:`discard_table` built it before issue 12 (row dicts from
    ``discard_rows``): the reference of the equivalence tests."""
    import pandas as pd

    from ..tiles import format_counts
    mask, seven_pairs_quads, counts, caps, h, jokers, extra = _hand_query(
        hand, 2, "a discard table needs a hand that must discard; for a hand waiting for a "
        "draw use ukeire()", forms, seven_pairs_quads, ruleset, jokers, shape=True)
    vis = _visible(visible, h, counts)
    rows = []
    for kind, sh, live, second in _eff.discard_rows(counts, mask, seven_pairs_quads, caps,
                                                     vis, second_order, jokers,
                                                     joker_fifth_copy, **extra):
        eff = live >= 0
        rows.append({
            "discard": tile_name(kind),
            "shanten": int(sh),
            "ukeire_kinds": int(eff.sum()),
            "ukeire_count": int(live[eff].sum()),
            "ukeire": format_counts(eff.astype(np.uint8)),
            "improvement": float(second),
        })
    return pd.DataFrame(rows, columns=_TABLE_COLUMNS)

"""Hand validation shared by the single-hand functions: the accepted inputs to the
core's count vector and caps (:func:`_prepare`), the core's error codes as one-line
errors, joker counts, a ruleset's shape options for one hand, the visible tiles."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import InvalidHandError, RuleError
from ..hand import Hand, as_hand, visible_counts
from ..tiles import N_KINDS, tile_name
from ._ruleset import _resolved, _rule_of, form_mask

_ERR_BAD_COUNT = -100
_ERR_BAD_SIZE = -101
_NO_ARRANGEMENT = 99


def _core_error(counts: np.ndarray, code: int, where: str = "",
                jokers: int = 0) -> InvalidHandError:
    if code == _ERR_BAD_COUNT:
        k = int(np.argmax(counts > 4))
        return InvalidHandError(f"{where}{int(counts[k])} copies of {tile_name(k)}: "
                                "at most 4 of each tile exist")
    n = int(counts.sum())
    with_j = f" + {jokers} jokers" if jokers else ""
    return InvalidHandError(f"{where}{n} concealed tiles{with_j}: a hand needs 3n+1 or 3n+2 "
                            "tiles (13 or 14 with no melds, at most 17)")


def _prepare(hand: Any, jokers: int = 0, hand_size: int = 13
             ) -> tuple[np.ndarray, np.ndarray | None, Hand | None, int]:
    """(concealed uint8 (34,), caps or None, Hand or None, jokers) for any accepted hand.

    A string or Hand must hold a full hand of ``hand_size`` (13: 13/14 tiles counting
    melds and jokers; 16 under 16-tile rulesets), so a miscounted 13-tile hand is an
    error rather than a 16-tile hand.  ``jokers`` (the keyword) are added to the hand's
    own ``*`` jokers before any check, so ``shanten("123m456p789s112z", jokers=1)`` and
    ``shanten("123m456p789s112z*")`` are the same hand.  A bare count vector may be a
    partial hand (3n+1 / 3n+2 tiles with the jokers).  The returned ``jokers`` is the
    total held.
    """
    if (type(hand) is np.ndarray and hand.dtype == np.uint8 and hand.shape == (N_KINDS,)
            and hand.flags.c_contiguous):
        return hand, None, None, jokers
    if isinstance(hand, str):
        h = as_hand(hand + " " + "*" * jokers if jokers else hand, hand_size=hand_size)
    elif isinstance(hand, Hand):
        if jokers:
            hand = Hand(hand.concealed, hand.melds, hand.flowers,
                        _check_jokers(hand.jokers + jokers))
        h = as_hand(hand, hand_size=hand_size)
    else:           # a bare count vector may be a partial hand (3n+1 / 3n+2 tiles)
        from ..tiles import as_counts
        h = Hand(as_counts(hand), jokers=jokers)
    caps = None
    if h.melds:
        _no_honor_chows(h.melds)
        locked = h.all_counts.astype(np.int16) - h.concealed
        caps = np.ascontiguousarray(4 - locked, dtype=np.uint8)
    return np.ascontiguousarray(h.concealed, dtype=np.uint8), caps, h, _check_jokers(h.jokers)


def _no_honor_chows(melds) -> None:
    """The core routes (every ruleset without honour chows: one with them goes to the
    shape engine, :func:`majiang.rules.shapes.needs_python`) refuse an honour chow meld.

    Raises
    ------
    RuleError
        A meld of three winds or of the three dragons.
    """
    for m in melds:
        if m.kind == "chow" and m.tile >= 27:
            raise RuleError(f"the meld {m} is an honour chow, a set only under a ruleset "
                            "that plays honour chows (nanchang)")


_WHOLE_HAND = 2 | 4 | 8     # seven pairs, thirteen orphans, honors-and-knitted


def _shape_options(rs: Any, counts: np.ndarray, h: Hand | None) -> dict:
    """Core keyword options ``{caps, pair_mask, void_suits}`` of ruleset `rs` for this hand:
    caps = tile-set copies less the copies in the melds, the 2-5-8 pair mask, and the
    void-suit bits less the suits the melds already hold (from the game model).

    Raises
    ------
    InvalidHandError
        A tile outside the ruleset's tile set, or more copies than the set leaves.
    """
    from ..rules.model import game_model
    melds = () if h is None else h.melds
    copies = np.asarray(rs.copies)
    bad = [int(k) for k in np.flatnonzero(counts) if copies[k] == 0]
    bad += [m.tile for m in melds if copies[m.tile] == 0]
    if bad:
        raise InvalidHandError(f"{tile_name(bad[0])} is not in the tile set of ruleset "
                               f"{rs.name} ({rs.tiles})")
    locked = np.zeros(N_KINDS, np.int16)
    for m in melds:
        for t in m.tiles:
            locked[t] += 1
    if np.any(locked > copies):
        k = int(np.argmax(locked > copies))
        raise InvalidHandError(f"melds hold more {tile_name(k)} than ruleset {rs.name} has")
    shape = game_model(rs).shape(melds)
    over = counts > shape.caps
    if over.any():
        k = int(np.argmax(over))
        raise InvalidHandError(f"{int(counts[k])} copies of {tile_name(k)}: the ruleset's "
                               f"tile set leaves {int(shape.caps[k])}")
    return {"caps": shape.caps, "pair_mask": shape.pair_mask, "void_suits": shape.void_suits}


def _no_whole(mask: int, h: Hand | None) -> int:
    """Seven pairs, thirteen orphans and 全不靠 need the whole hand concealed: off with melds."""
    return mask & ~_WHOLE_HAND if h is not None and h.melds else mask


def _check_jokers(jokers: Any) -> int:
    if isinstance(jokers, (bool, np.bool_)) or not isinstance(jokers, (int, np.integer)):
        raise RuleError(f"jokers must be an integer count, got {jokers!r}")
    if not 0 <= jokers <= 8:
        raise RuleError(f"jokers must be between 0 and 8, got {jokers}")
    return int(jokers)


def size_error(what: str, residue: int, n: int) -> InvalidHandError:
    """The error of a hand of ``n`` tiles where ``3k + residue`` (at most 17) is needed:
    ``what`` is ``"<needs>"`` or ``"<needs>; <hint>"``, and the size goes with the need
    (``"ukeire needs a hand waiting for a draw (3n+1 tiles, at most 17), got 14; for a
    hand that must discard use discard_table()"``)."""
    need, _, hint = what.partition("; ")
    return InvalidHandError(f"{need} (3n+{residue} tiles, at most 17), got {n}"
                            + (f"; {hint}" if hint else ""))


def _hand_query(hand: Any, residue: int | None, what: str, forms, seven_pairs_quads, ruleset,
                jokers: Any = 0, shape: bool = False):
    """Shared prologue of the single-hand functions: resolve the forms, validate the
    hand, and require ``(tiles + jokers) % 3 == residue`` (1: waiting for a draw,
    2: must discard; None: either).  With ``shape`` and a ruleset whose shape rules
    the core computes (:func:`_route`), the caps come from its tile set and the
    extra core options from :func:`_shape_options`.  Returns ``(mask, quads, counts,
    caps, hand, jokers, extra)``; ``extra`` holds the keyword options of the kernels
    (empty without shape rules).  Seven pairs / thirteen orphans / 全不靠 are dropped
    from ``mask`` for a hand with melds."""
    extra: dict = {}
    rec = _rule_of(_resolved(ruleset, forms, seven_pairs_quads))
    rs = rec.rs if shape and rec.how is not None else None
    seven_pairs_quads = rec.quads
    mask = rec.mask if rec.mask is not None else form_mask(rec.rs.forms)
    jokers = _check_jokers(jokers)
    counts, caps, h, jokers = _prepare(hand, jokers, rec.size)
    if counts.max(initial=0) > 4:
        raise _core_error(counts, _ERR_BAD_COUNT)
    n = int(counts.sum()) + jokers
    if residue is not None and (n % 3 != residue or n > 17):
        raise size_error(what, residue, n)
    if rs is not None:
        extra = _shape_options(rs, counts, h)
        caps = extra.pop("caps")
    return _no_whole(mask, h), seven_pairs_quads, counts, caps, h, jokers, extra


def _visible_in_set(visible: Any, ruleset: Any) -> Any:
    """``visible`` at the boundary of :func:`ukeire` / :func:`discard_table` /
    :func:`discard_columns`: under a ruleset, a ``uint8 (34,)`` count vector whose kinds
    are all in the ruleset's tile set (:meth:`GameModel.check_kinds
    <majiang.rules.model.GameModel.check_kinds>`, the check the CLI's ``--visible``
    uses); unchanged without a ruleset or visible tiles.

    Raises
    ------
    InvalidHandError
        A visible kind outside the tile set (4z under a 108-tile ruleset), bad counts.
    InvalidNotationError
        Unreadable text.
    """
    if visible is None or ruleset is None:
        return visible
    from ..rules.model import game_model
    v = visible_counts(visible)
    game_model(ruleset).check_kinds(v, "visible")
    return v


def _seen_indicator(visible: Any, ruleset: Any, indicator: Any) -> Any:
    """``visible`` plus the turned indicator the game model sets apart from the wall
    (:meth:`majiang.rules.model.GameModel.set_apart`: 安庆 / 武汉, joker = indicator + 1),
    so that the live counts are those of :meth:`GameModel.wall` as in the probabilities;
    unchanged without a ruleset or indicator."""
    if indicator is None or ruleset is None:
        return visible
    from ..rules.model import game_model
    return game_model(ruleset).seen_with_indicator(visible, indicator)


def _visible(visible: Any, hand: Hand | None, counts: np.ndarray) -> np.ndarray | None:
    """The visible tiles as a ``uint8 (34,)`` vector checked with the hand (hand + visible
    within 4 copies a kind; :func:`majiang.hand.visible_counts`); None for none."""
    if visible is None:
        return None
    if hand is None:
        hand = Hand(counts)
    v = visible_counts(visible, hand)
    return np.ascontiguousarray(v, dtype=np.uint8)

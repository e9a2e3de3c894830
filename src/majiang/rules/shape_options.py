"""The shape options of a rule spec for one meld set (:class:`ShapeOptions`): the plain
data the Cython shape kernels take, made only by :meth:`RuleSpec.shape
<majiang.rules.model.RuleSpec.shape>` (re-exported by :mod:`majiang.rules.model`)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from .._core import FORM_BITS, WHOLE_HAND_FORMS

__all__ = ["ShapeOptions", "ALL_PAIRS"]

ALL_PAIRS = (1 << 34) - 1
"""A pair mask with every kind allowed (bits 0..33): no pair restriction."""


@dataclass(frozen=True)
class ShapeOptions:
    """Plain options for the shanten / probability core (no ruleset inside).

    Made only by :meth:`RuleSpec.shape` (one object per ruleset and meld set); every
    engine that needs shape options reads them here: :mod:`majiang.efficiency`'s route
    record, the probability position, the game loop's compiled options
    (:meth:`game_opts`, the one maker of :class:`majiang._core.game.ShapeOpts`) and the
    shape engine's spec (:func:`majiang.rules.shapes.spec_of`).

    Attributes
    ----------
    forms : tuple of str
        Core forms (:data:`majiang.rules.base.CORE_FORMS`) that can win.
    quads : bool
        Four of a kind may count as two pairs in seven pairs.
    caps : numpy.ndarray
        ``uint8 (34,)``: copies available to the concealed hand (tile-set copies
        less the copies locked in exposed melds); 0 = not in the tile set.
    pair_mask : int
        Bit ``k`` set: kind ``k`` may be the pair of a regular hand (二五八将 keeps
        the 2/5/8 bits); :data:`ALL_PAIRS` = no restriction.
    void_suits : int
        Bit ``s`` (0 万, 1 筒, 2 条) set: the complete hand may lack suit ``s``;
        0 = no void suit needed.  Suits already held in exposed melds are removed.
    exact : bool
        Whether these options express every shape rule of the model (else the
        win predicate still rejects some complete shapes, e.g. 十三烂 or 缺门 bans,
        a minimum in fan or in points).
    fifth : bool
        A joker may stand for a fifth copy of a kind (:attr:`RuleSpec.fifth_copy`).
    """

    forms: tuple
    quads: bool
    caps: np.ndarray
    pair_mask: int = ALL_PAIRS
    void_suits: int = 0
    exact: bool = True
    fifth: bool = False

    @property
    def unconstrained(self) -> bool:
        """No tile-set caps below 4, no pair restriction, no void suit."""
        return (self.pair_mask == ALL_PAIRS and self.void_suits == 0
                and bool(np.all(self.caps == 4)))

    @cached_property
    def mask(self) -> int:
        """The core's form mask of :attr:`forms` (bits of :data:`majiang._core.FORM_BITS`),
        computed once."""
        m = 0
        for f in self.forms:
            m |= FORM_BITS[f]
        return m

    def mask_for(self, n_melds: int) -> int:
        """:attr:`mask` less the forms a hand with ``n_melds`` exposed melds cannot
        complete: the whole-hand forms (seven pairs, thirteen orphans, 全不靠) need no
        meld; a knitted straight (9 knitted tiles + a set + a pair) at most one.  Never
        0: the regular form stays."""
        m = self.mask
        if n_melds:
            m &= ~WHOLE_HAND_FORMS
        if n_melds > 1:
            m &= ~FORM_BITS["knitted_straight"]
        return m or FORM_BITS["regular"]

    def game_opts(self, n_melds: int = 0, *, pairs: bool = True, live: Any = None,
                  fifth: bool | None = None, void: bool = False) -> Any:
        """These options as the game kernels' :class:`majiang._core.game.ShapeOpts` (its
        one maker): forms :meth:`mask_for` ``n_melds``, the seven-pairs quad option, no
        caps (4 copies each: the core's table path; the game loop checks the tile set
        itself), the pair mask (``pairs`` False: any pair, the loose pre-check before
        the win predicate), the void-suit bits :attr:`void_suits` only with ``void`` (缺门
        at the win: the bots aim at the nearest hand lacking one of those suits; without
        it none, as the loop handles 定缺 by the declared suit), ``fifth`` (None:
        :attr:`fifth`) and ``live`` (``uint8 (34,)`` copies per kind for live-ukeire
        counts; None = 4 each)."""
        from .._core import game as _cg
        return _cg.ShapeOpts(self.mask_for(n_melds), self.quads, None,
                             self.pair_mask & ALL_PAIRS if pairs else ALL_PAIRS,
                             self.void_suits if void else 0,
                             self.fifth if fifth is None else bool(fifth), live)

"""The wall a player draws from (:class:`Wall`), as :meth:`majiang.rules.model.RuleSpec.wall`
builds it from a ruleset's tile set, jokers and indicator.  Split from
:mod:`majiang.rules.model`, which re-exports it."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Wall"]


@dataclass(frozen=True)
class Wall:
    """The tiles a player draws from, before removing any hand or visible tile.

    Attributes
    ----------
    counts : numpy.ndarray
        ``int16 (34,)`` playable copies per kind that are drawn as themselves
        (flowers excluded: they are replaced as drawn; the joker kind's wild copies
        excluded; a face-up indicator excluded).
    jokers : int
        Tiles in the wall that are drawn as jokers (wild tiles).
    joker_kind : int or None
        The (first) wild kind (None without jokers).
    indicator : int or None
        The turned indicator kind, counted as visible (not in ``counts``).
    joker_kinds : tuple of int
        Every wild kind (``(joker_kind,)``; two with :attr:`JokerRule.second`, 南昌
        正精 / 副精, 天津 混儿); empty without jokers.
    """

    counts: np.ndarray
    jokers: int = 0
    joker_kind: int | None = None
    indicator: int | None = None
    joker_kinds: tuple = ()

    @property
    def size(self) -> int:
        """Tiles drawable: ``counts.sum() + jokers``."""
        return int(self.counts.sum()) + self.jokers

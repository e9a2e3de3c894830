"""What a position counts: the tiles on the table, in each seat's melds, the face-up
indicator, what the seat sees and what it does not, each seat's concealed count and the
tiles left in the wall (the :class:`_Counts` part of
:class:`~majiang.position.Position`).

The counting rules (one place, used by every analysis that takes a position) are those
of the :mod:`majiang.position` docstring: a claimed discard counts once (in its meld or
among the winner's won tiles), another seat's unseen concealed kong is 4 unknown tiles,
the indicator counts when the ruleset leaves it face up.
"""
from __future__ import annotations

import numpy as np

from ..errors import RuleError
from ..tiles import N_KINDS
from ._parse import _int


class _Counts:
    """The counts of :class:`~majiang.position.Position` (computed once: a position never
    changes)."""

    def _indicator_counts(self) -> np.ndarray:
        """``int64 (34,)``: the copy of the indicator that lies face up (the ruleset's
        :meth:`~majiang.rules.model.GameModel.face_up`)."""
        if self.indicator is None or self._model.jokers is None:
            return np.zeros(N_KINDS, np.int64)
        return self._model.face_up(self.indicator).astype(np.int64)

    def _counts(self) -> tuple:
        """``(table, melds, indicator)``, computed once (a position never changes):
        ``int64 (34,)`` discards on the table (unclaimed) plus every winner's won
        tiles; a tuple of ``int64 (34,)`` per seat, the tiles of its melds; the face-up
        indicator.  Read-only arrays."""
        got = self.__dict__.get("_cached")
        if got is not None:
            return got
        table = [0] * N_KINDS
        for river in self.discards:
            for d in river:
                if d.claimed_by is None:
                    table[d.tile] += 1
        for ts in self.won_tiles:
            for t in ts:
                table[t] += 1
        melds = []
        for ms in self.melds:
            row = [0] * N_KINDS
            for tm in ms:
                for t in tm.meld.tiles:
                    row[t] += 1
            a = np.array(row, np.int64)
            a.flags.writeable = False
            melds.append(a)
        t = np.array(table, np.int64)
        ind = self._indicator_counts()
        t.flags.writeable = ind.flags.writeable = False
        got = (t, tuple(melds), ind)
        object.__setattr__(self, "_cached", got)
        return got

    def _meld_counts(self, p: int) -> np.ndarray:
        return self._counts()[1][p]

    def _table_counts(self) -> np.ndarray:
        """Discards on the table (unclaimed) plus every winner's won tiles."""
        return self._counts()[0]

    def _all_seen(self) -> np.ndarray:
        table, melds, ind = self._counts()
        return self.concealed.astype(np.int64) + table + ind + sum(melds)

    def _where_is(self, t: int) -> str:
        parts = [f"{int(self.concealed[t])} concealed"]
        melds = sum(int(self._meld_counts(p)[t]) for p in range(self.players))
        parts.append(f"{melds} in melds")
        parts.append(f"{int(self._table_counts()[t])} discarded or won")
        ind = int(self._counts()[2][t])
        if ind:
            parts.append(f"{ind} indicator")
        return " + ".join(parts)

    def _derived_wall(self) -> int:
        model = self._model
        seen = int(self._all_seen().sum()) + 4 * sum(self.hidden_kongs)
        others = sum(self.concealed_count(p) for p in range(self.players) if p != self.seat)
        return int(model.copies.sum()) + model.n_flowers - sum(self.flowers) - seen - others

    @property
    def tiles_left(self) -> int:
        """:attr:`wall_left` when given, else derived: the tile set (flowers included)
        less every tile seen (concealed, melds, hidden kongs, discards on the table, won
        tiles, a face-up indicator, flowers set aside) and the other seats' concealed
        tiles (:meth:`concealed_count`)."""
        return self.wall_left if self.wall_left is not None else self._derived_wall()

    def visible_counts(self) -> np.ndarray:
        """``uint8 (34,)``: what the seat sees outside its own concealed tiles and own
        melds: the discards still on the table (its own too), the other seats' exposed
        melds (and concealed kongs whose tile is given), the tiles winners took, the
        face-up indicator.  A claimed discard is counted once (in its meld)."""
        table, melds, ind = self._counts()
        v = table + ind
        for p, m in enumerate(melds):
            if p != self.seat:
                v = v + m
        return v.astype(np.uint8)

    def unseen_counts(self) -> np.ndarray:
        """``int16 (34,)``: tile-set copies less the own concealed tiles, the own melds
        and :meth:`visible_counts`: the tiles in other seats' hands (their hidden kongs
        included) or the wall."""
        own = self.concealed.astype(np.int16) + self._meld_counts(self.seat).astype(np.int16)
        return (self._model.copies.astype(np.int16) - own
                - self.visible_counts().astype(np.int16))

    def _seat_arg(self, seat) -> int:
        """``seat`` checked as a seat of this table (RuleError otherwise)."""
        seat = _int(seat, "seat")
        if not 0 <= seat < self.players:
            raise RuleError(f"seat must be 0..{self.players - 1}, got {seat}")
        return seat

    def concealed_count(self, seat: int) -> int:
        """Concealed tiles of ``seat``: the own count, else ``hand_size - 3 x melds``
        (hidden kongs included): another seat waits with ``hand_size`` tiles.

        Raises
        ------
        RuleError
            Not a seat.
        """
        seat = self._seat_arg(seat)
        if seat == self.seat:
            return int(self.concealed.sum())
        return self.hand_size - 3 * (len(self.melds[seat]) + self.hidden_kongs[seat])

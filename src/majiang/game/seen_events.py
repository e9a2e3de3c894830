"""The hand's events as one seat may see them: the part of
:class:`~majiang.game.players.SeatView` for a policy that follows the table event by event
(an external program: :class:`majiang.botzone.ExternalPlayer`).

The events are the engine's log (:mod:`majiang.game.logs`), kept from the policy's
``start`` on when the hand keeps none; what the seat may not see is taken out.
"""
from __future__ import annotations


class _SeenEvents:
    """``record_events`` / ``n_events`` / ``seen_events`` of a seat view (``self._st``
    the hand state, ``self.seat`` the seat)."""

    __slots__ = ()

    def record_events(self) -> None:
        """Keep the hand's event log (:mod:`majiang.game.logs`) from now on when the hand
        keeps none (``play_hand(log=False)``).  Call it from ``start(view)``, before the
        deal, to see every event with :meth:`seen_events`
        (:class:`majiang.botzone.ExternalPlayer` does)."""
        if self._st.events is None:
            self._st.events = []

    def n_events(self) -> int:
        """How many events the hand's log holds so far (0 without a log)."""
        ev = self._st.events
        return 0 if ev is None else len(ev)

    def seen_events(self, start: int = 0) -> list:
        """The hand's logged events from index ``start`` on, as this seat may see them
        (copies, :mod:`majiang.game.logs` format): the ``header`` without the wall;
        ``deal`` / ``start`` with the other seats' hands None; another seat's ``draw``
        with ``tile`` None; the other seats' decisions (``declare``, ``claim``,
        ``exchange``) left out, and of their ``ready`` asks (报听) and ``open_kong`` asks
        (开杠) only a declaration or a 开杠 made, without its waits; under standing tiles
        (立四) the others' standing tiles as a count and their face-down declaring discard
        with ``tile`` None.  Empty without a log (:meth:`record_events`)."""
        ev = self._st.events
        if ev is None:
            return []
        out = []
        me = self.seat
        for e in ev[start:]:
            k = e.get("e")
            if k in ("declare", "claim", "exchange") and e.get("seat") != me:
                continue
            if k in ("ready", "open_kong") and e.get("seat") != me and not e.get("choice"):
                continue      # asked but not taken: the ask would tell the hand is ready
            e = dict(e)
            if k in ("ready", "open_kong") and e.get("seat") != me:
                e.pop("waits", None)
                if self._st.standing:
                    e["tile"] = None      # 立四: the declaring tile lies face down
            if k == "discard" and e.get("face_down") and e.get("seat") != me:
                e["tile"] = None
            if k == "standing":
                e["tiles"] = [t if q == me else len(t) for q, t in enumerate(e["tiles"])]
            if k == "header":
                e.pop("wall", None)
            elif k in ("deal", "start"):
                e["hands"] = [h if q == me else None for q, h in enumerate(e["hands"])]
                if k == "start" and me != self._st.dealer:
                    e.pop("drawn", None)
            elif k == "draw" and e.get("seat") != me:
                e["tile"] = None
            out.append(e)
        return out

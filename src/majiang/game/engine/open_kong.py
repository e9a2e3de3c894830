"""开杠 in the Python loop (:attr:`Ruleset.kong_reveal <majiang.rules.base.Ruleset.kong_reveal>`
= n > 0, 长沙 杠 as against 补张): after a kong, a player whose hand is ready may turn n
tiles from the wall instead of drawing one replacement.

Reading (docs/rules/changsha.md §1 "杠 vs 补张", JD ``HandlerGangDispatchCard``, two
tiles):

* **offered**: after any kong (concealed, added and not robbed, or exposed on a discard)
  of a seat that is not locked, when at least n tiles can still be drawn and the hand
  after the kong is ready: some kind, a copy of it left outside the seat's hand and
  melds, completes it into a win that THE predicate accepts as a plain self-draw
  (:func:`.declare.ready_waits`, no declaration).  The policy's ``open_kong(view, kind,
  waits)`` answers True (杠: turn the tiles) or False (补张: one replacement draw, the
  engine's play of every kong without the rule); a policy without the method always
  takes the 补张.  Logged as ``open_kong`` (seat, kong kind, waits, choice).
* **turned**: n tiles from the tail (flowers set aside and replaced as on a draw),
  logged as ``kong_reveal`` (seat, tiles), seen by every seat.
* **the konger's win (杠上开花)**: each turned tile that completes his hand, judged as a
  self-draw on a kong tile (``kong=True``: 杠上开花 where the ruleset has it), is a win of
  its own; he is asked once (a ``claim`` with the one option ``("win",)``) and, taking
  it, wins on every such tile — both tiles winning pay twice (docs/rules/changsha.md:
  "both → counted twice", JD counts the win once per tile).  The hand then ends (or,
  under 血战 / 血流, play passes on).
* **the others' wins (杠上炮)**: else the tiles are the konger's discards, and every
  other seat, in turn order from his 下家, is asked once whether to win on the turned
  tiles that complete its hand, judged as a win on a discard made right after a kong
  (``kong_discard``: 杠上炮 where the ruleset has it), the konger the discarder; each tile
  it wins on is a win of its own.  Several seats win per ``Ruleset.winners`` (长沙:
  every one of them; else the first in turn order).
* **nobody wins**: the tiles stay in the konger's discards, no call may be made on them
  [interp.: JD also lets the others chow, pung or kong a turned tile], the konger's hand
  is locked from then on (as a 血流 winner's or a declared one: he discards each tile he
  draws unless it wins, makes no call or kong; :attr:`SeatView.locked
  <majiang.game.players.SeatView.locked>`) and play passes to his 下家.

Not played: the calls on a turned tile, a locked konger's later kong that keeps his
waits (JD allows it).  The compiled loop (``_core/game_loop.pxi``, ``after_kong`` /
``open_kong``) plays the same moves for the built-in bots.
"""
from __future__ import annotations

import numpy as np

from .wins import first_winner


def policy_open_kong(policy, view, kind, waits) -> bool:
    """``policy``'s answer to a 开杠 ask (True: 杠, turn the tiles; False: 补张): its
    ``open_kong(view, kind, waits)``, or False (the 补张) for a policy without the method."""
    fn = getattr(policy, "open_kong", None)
    return bool(fn(view, int(kind), list(waits))) if fn is not None else False


class _OpenKong:
    """开杠 (a mixin of :class:`~majiang.game.engine.loop._Game`)."""

    def open_kong_waits(self, p, kind) -> list:
        """The waits of seat ``p``'s hand right after its kong of ``kind`` when it may
        choose a 开杠 there, else []: the kinds, a copy of each left outside the seat's
        hand and melds, on which THE predicate accepts the hand's win as a self-draw
        (:meth:`HandState.try_win`, as the compiled loop asks it)."""
        st = self.st
        n = st.rs.kong_reveal
        s = st.seats[p]
        if not n or s.locked or s.declared or st.wall_left - st.kept() < n:
            return []
        w, _ = st.waits(p)
        out = []
        for k in np.flatnonzero(w):
            k = int(k)
            held = int(s.phys[k]) + sum(m["tiles"].count(k) for m in s.melds)
            if k in st.jks or held >= int(st.model.copies[k]):
                continue
            res = self._verdict(p, k, self_drawn=True)
            if res is not None and res.valid:
                out.append(k)
        return out

    def ask_open_kong(self, p, kind, waits) -> bool:
        """Ask seat ``p``'s policy ``open_kong(view, kind, waits)`` (True: 杠, False: 补张);
        logged ``open_kong`` whatever the answer, so a replay asks it again."""
        st = self.st
        choice = policy_open_kong(self.pol[p], self.views[p], kind, waits)
        st._log(e="open_kong", seat=p, tile=int(kind), waits=[int(k) for k in waits],
                choice=choice)
        return choice

    def after_kong(self, p, kind):
        """Seat ``p`` has made a kong of ``kind``: None for a 补张 (the caller draws the
        replacement), else the outcome of the 开杠, as :meth:`own_turn` returns it
        (``("end", reason)`` or ``("next", seat)``)."""
        waits = self.open_kong_waits(p, kind)
        if not waits or not self.ask_open_kong(p, kind, waits):
            return None
        return self.open_kong(p)

    def _turn_tiles(self, p) -> list:
        st = self.st
        s = st.seats[p]
        tiles = []
        while len(tiles) < st.rs.kong_reveal and st.can_draw(p):
            t = st._take(True, p)
            st.draws += 1
            if t >= 34:
                s.flowers.append(t)
                st._log(e="flower", seat=p, tile=t)
                continue
            tiles.append(t)
        return tiles

    def _verdict(self, q, t, **kw):
        """THE predicate's verdict on seat ``q`` winning on turned tile ``t`` with the
        context ``kw`` of :meth:`HandState.try_win` (a self-drawn tile held for the ask)."""
        st = self.st
        s = st.seats[q]
        held = kw.get("self_drawn")
        if held:
            s.phys[t] += 1
        try:
            return st.try_win(q, t, **kw)
        finally:
            if held:
                s.phys[t] -= 1

    def _wins_on(self, q, tiles, **kw) -> list:
        """The indices into the turned ``tiles`` of those that complete seat ``q``'s hand."""
        out = []
        for i, t in enumerate(tiles):
            res = self._verdict(q, t, **kw)
            if res is not None and res.valid:
                out.append(i)
        return out

    def _record(self, q, t, last, **kw):
        """Record seat ``q``'s win on turned tile ``t``, its verdict asked again just
        before so that the scored context is this tile's."""
        self.st.record_win(q, t, self._verdict(q, t, last_tile=last, **kw), **kw)

    def open_kong(self, p):
        """Turn the tiles of seat ``p``'s 开杠 and play what follows (see the module)."""
        st = self.st
        s = st.seats[p]
        tiles = self._turn_tiles(p)
        st._log(e="kong_reveal", seat=p, tiles=[int(t) for t in tiles])
        last = st.at_last(p)
        own = self._wins_on(p, tiles, self_drawn=True, kong=True, last_tile=last)
        if own and self.ask_claim(p, [("win",)]) == ("win",):
            for i in own:
                self._record(p, tiles[i], last, self_drawn=True, kong=True)
            for i, t in enumerate(tiles):
                if i == own[0]:
                    s.phys[t] += 1          # the first winning tile: in the hand, shown
                elif i in own:
                    s.won_tiles.append(t)
                else:
                    st.to_pool(p, t)
            st._changed(p)
            return self.after_win([p], last_tile_taken=tiles[own[0]], self_draw=True)
        # the tiles are the konger's discards: the others may win on them (杠上炮)
        for t in tiles:
            st.to_pool(p, t)
        st.turns += 1
        if tiles:
            st.last_discard = (p, tiles[-1])
        st.discard_after_kong = True
        wins = {}
        for i in range(1, st.n):
            q = (p + i) % st.n
            if st.seats[q].out:
                continue
            got = self._wins_on(q, tiles, self_drawn=False, last_tile=last, discarder=p)
            if got and self.ask_claim(q, [("win",)]) == ("win",):
                wins[q] = got
        if not wins:
            st.discard_after_kong = False
            s.locked = True
            st._changed(p)
            return ("next", self.next_active(p))
        winners = list(wins)
        if st.rs.winners != "multiple":
            verdicts = {q: self._verdict(q, tiles[wins[q][0]], self_drawn=False,
                                         last_tile=last, discarder=p) for q in winners}
            winners = [first_winner(st.rs, winners, verdicts)]
        taken = {}
        for q in winners:
            for i in wins[q]:
                self._record(q, tiles[i], last, self_drawn=False, discarder=p)
                taken.setdefault(i, q)
        st.discard_after_kong = False
        for i in sorted(taken, reverse=True):       # each tile won: to its first winner
            t = tiles[i]
            del s.discards[len(s.discards) - len(tiles) + i]
            st.visible[st.play_kind(t)] -= 1
            st.seats[taken[i]].won_tiles.append(t)
        st.kong_ledger.transfer(p, winners, st.turns)
        return self.after_win(winners, last_tile_taken=tiles[min(taken)], self_draw=False,
                              frm=p)

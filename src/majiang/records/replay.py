"""Replaying a Botzone record event by event, checking it is consistent
(:func:`replay`), and the situations an analysis needs: every discard decision
(:func:`decision_points`) and every win with its context (:func:`wins`).

A log whose events contradict each other raises
:class:`majiang.errors.InvalidHandError` naming the match id, the line and the event.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

from majiang.errors import InvalidHandError

from .codes import _HAND, _NUM_KINDS, _WALL_TOTAL, WALL_PER_PLAYER, _counts_str, _name
from .datatypes import Decision, Discard, Event, GameRecord, RecordMeld, ReplayState, Win


class _Replayer:
    """Mutable replay of one record; ``apply`` checks and applies one event."""

    # phases: who may do what next
    _DRAW = "draw"          # self.actor must Draw (seat 0, the dealer, at the start)
    _HOLD_DRAWN = "drawn"   # self.actor holds 14 after a draw: Play/AnGang/BuGang/Hu
    _HOLD_CLAIM = "claimed" # self.actor holds 14 after Chi/Peng: Play
    _DISCARDED = "discarded"  # a discard may be claimed, else the next seat draws
    _KONG = "kong"          # self.actor declared a kong: replacement Draw (or robbing Hu)
    _OVER = "over"

    def __init__(self, record: GameRecord):
        self.record = record
        self.concealed = np.zeros((4, _NUM_KINDS), dtype=np.int16)
        self.melds: list[list[RecordMeld]] = [[] for _ in range(4)]
        self.rivers: list[list[Discard]] = [[] for _ in range(4)]
        self.table = np.zeros(_NUM_KINDS, dtype=np.int16)        # discards on the table
        self.exposed = np.zeros((4, _NUM_KINDS), dtype=np.int16)  # exposed meld tiles
        self.hidden_kongs = np.zeros((4, _NUM_KINDS), dtype=np.int16)
        self.draws = [0, 0, 0, 0]
        self.phase = self._DRAW
        self.actor: int = 0  # East (seat 0) deals and draws first
        self.last_discard: tuple[int, int] | None = None  # (seat, tile)
        self.last_kong: tuple[str, int, int] | None = None  # (action, seat, tile)
        self.drawn: int | None = None  # tile of the actor's last draw
        self.replacement = False  # the actor's last draw followed its own kong
        self.index = -1
        self.event: Event | None = None
        if len(record.deals) != 4:
            self._fail(f"{len(record.deals)} Deal hands, expected 4", line=record.line)
        for p, deal in enumerate(record.deals):
            if len(deal) != _HAND:
                self._fail(f"player {p} is dealt {len(deal)} tiles, expected {_HAND}", line=record.line)
            for t in deal:
                self.concealed[p, t] += 1
        self._check_supply(range(_NUM_KINDS), what="the deals")

    # -- errors
    def _fail(self, why: str, line: int | None = None):
        """Raise InvalidHandError naming the match, where it is (line numbers are
        1-based and known only for records parsed from text) and the event."""
        ev = self.event
        where = f"match {self.record.match_id}"
        if ev is None:                 # checks of the deals, before any event
            if self.record.line:
                where += f" (starting at line {self.record.line})"
        else:
            line = line or ev.line
            if line:
                where += f", line {line}"
            where += f" ({ev})"
        raise InvalidHandError(f"{where}: {why}")

    def _check_supply(self, kinds, what: str):
        total = (
            self.concealed.sum(axis=0) + self.exposed.sum(axis=0)
            + self.hidden_kongs.sum(axis=0) + self.table
        )
        for k in kinds:
            if total[k] > 4:
                self._fail(f"{what} put {int(total[k])} copies of {_name(k)} in play (at most 4)")

    def _take(self, p: int, t: int, n: int = 1):
        if self.concealed[p, t] < n:
            self._fail(
                f"player {p} needs {n} of {_name(t)} but holds {int(self.concealed[p, t])} "
                f"(hand {_counts_str(self.concealed[p])})"
            )
        self.concealed[p, t] -= n

    def hand_size(self, p: int) -> int:
        """Concealed tiles + 3 per meld (a kong counts 3)."""
        return int(self.concealed[p].sum()) + 3 * len(self.melds[p])

    def _check_sizes(self):
        holding = self.actor if self.phase in (self._HOLD_DRAWN, self._HOLD_CLAIM, self._OVER) else None
        for p in range(4):
            want = 14 if p == holding else 13
            got = self.hand_size(p)
            if got != want:
                self._fail(
                    f"player {p} holds {got} tile-equivalents (concealed + 3 per meld), "
                    f"expected {want}"
                )

    def _claim_last_discard(self, p: int, action: str) -> int:
        """Checks a claim (Chi/Peng/Gang/Hu) on the last discard; returns the discard."""
        if self.phase != self._DISCARDED or self.last_discard is None:
            self._fail(f"{action} without a discard to claim")
        seat, tile = self.last_discard
        if seat == p:
            self._fail(f"player {p} claims its own discard")
        return tile

    def _mark_claimed(self, p: int):
        seat, tile = self.last_discard
        river = self.rivers[seat]
        river[-1] = Discard(river[-1].tile, p)
        self.table[tile] -= 1
        self.last_discard = None

    def _check_ignored(self, ev: Event):
        """Losing claims on the same discard: plausible, but never applied."""
        if self.phase != self._DISCARDED or self.last_discard is None:
            self._fail("'Ignore' claims without a discard to claim")
        seat, tile = self.last_discard
        seen = {ev.player}
        for ig in ev.ignored:
            q, t = ig.player, ig.tile
            if q == seat or q in seen:
                self._fail(f"ignored claim by player {q}, who cannot claim this discard")
            seen.add(q)
            need: list[int] = []
            if ig.action == "Chi":
                if q != (seat + 1) % 4 or t >= 27 or t % 9 in (0, 8) or tile // 9 != t // 9 or abs(tile - t) > 1:
                    self._fail(f"ignored Chi {_name(t)} by player {q} is impossible on {_name(tile)}")
                need = [k for k in (t - 1, t, t + 1) if k != tile]
            elif ig.action in ("Peng", "Gang"):
                if t != tile:
                    self._fail(f"ignored {ig.action} {_name(t)} on a discarded {_name(tile)}")
                need = [t] * (2 if ig.action == "Peng" else 3)
            elif ig.action == "Hu":
                if t != tile:
                    self._fail(f"ignored Hu on {_name(t)} but the discard is {_name(tile)}")
            else:
                self._fail(f"ignored {ig.action}: only Chi/Peng/Gang/Hu claims can lose on priority")
            have = np.bincount(need, minlength=_NUM_KINDS) if need else None
            if have is not None and np.any(have > self.concealed[q]):
                self._fail(
                    f"ignored {ig.action} {_name(t)} by player {q}, who lacks the tiles "
                    f"(hand {_counts_str(self.concealed[q])})"
                )

    # -- one event
    def apply(self, index: int, ev: Event):
        self.index, self.event = index, ev
        p, t, a = ev.player, ev.tile, ev.action
        if not (0 <= p < 4) or not (0 <= t < _NUM_KINDS):
            self._fail("seat or tile out of range")
        if self.phase == self._OVER:
            self._fail("event after the winning Hu")
        if ev.ignored:
            self._check_ignored(ev)

        if a == "Draw":
            if self.phase == self._DRAW:
                if p != self.actor:
                    self._fail(f"player {p} draws out of turn (player {self.actor} is due)")
                self.replacement = False
            elif self.phase == self._DISCARDED:
                due = (self.last_discard[0] + 1) % 4
                if p != due:
                    self._fail(f"player {p} draws out of turn (player {due} is due)")
                self.last_discard = None
                self.replacement = False
            elif self.phase == self._KONG:
                if p != self.actor:
                    self._fail(f"player {p} draws after player {self.actor}'s kong")
                self.replacement = True
            else:
                self._fail(f"Draw while player {self.actor} must discard")
            if sum(self.draws) >= _WALL_TOTAL:
                self._fail(f"more than {_WALL_TOTAL} draws: the wall holds no more tiles")
            self.concealed[p, t] += 1
            self.draws[p] += 1
            self._check_supply([t], what=f"player {p}'s draw")
            self.actor, self.drawn, self.phase = p, t, self._HOLD_DRAWN
            self.last_kong = None

        elif a == "Play":
            if self.phase not in (self._HOLD_DRAWN, self._HOLD_CLAIM) or p != self.actor:
                self._fail(f"player {p} discards out of turn")
            self._take(p, t)
            self.rivers[p].append(Discard(t))
            self.table[t] += 1
            self.last_discard = (p, t)
            self.phase, self.drawn, self.replacement = self._DISCARDED, None, False

        elif a == "Chi":
            claimed = self._claim_last_discard(p, a)
            seat = self.last_discard[0]
            if p != (seat + 1) % 4:
                self._fail(f"player {p} may chow only from player {(p - 1) % 4}, not from player {seat}")
            if t >= 27 or t % 9 in (0, 8):
                self._fail(f"{_name(t)} cannot be the middle tile of a chow")
            if claimed // 9 != t // 9 or abs(claimed - t) > 1:
                self._fail(f"the claimed {_name(claimed)} is not in the chow around {_name(t)}")
            self._mark_claimed(p)
            for k in (t - 1, t, t + 1):
                if k != claimed:
                    self._take(p, k)
                self.exposed[p, k] += 1
            self.melds[p].append(RecordMeld("chow", t - 1, False))
            self.actor, self.phase = p, self._HOLD_CLAIM

        elif a in ("Peng", "Gang"):
            claimed = self._claim_last_discard(p, a)
            if claimed != t:
                self._fail(f"{a} {_name(t)} on a discarded {_name(claimed)}")
            n = 2 if a == "Peng" else 3
            self._mark_claimed(p)
            self._take(p, t, n)
            self.exposed[p, t] += n + 1
            self.melds[p].append(RecordMeld("pung" if a == "Peng" else "kong", t, False))
            self.actor = p
            if a == "Peng":
                self.phase = self._HOLD_CLAIM
            else:
                self.phase, self.last_kong = self._KONG, (a, p, t)

        elif a == "AnGang":
            if self.phase != self._HOLD_DRAWN or p != self.actor:
                self._fail(f"player {p} declares a concealed kong without having drawn")
            self._take(p, t, 4)
            self.hidden_kongs[p, t] += 4
            self.melds[p].append(RecordMeld("kong", t, True))
            self.phase, self.last_kong = self._KONG, (a, p, t)

        elif a == "BuGang":
            if self.phase != self._HOLD_DRAWN or p != self.actor:
                self._fail(f"player {p} adds to a kong without having drawn")
            for i, m in enumerate(self.melds[p]):
                if m.kind == "pung" and m.tile == t and not m.concealed:
                    break
            else:
                self._fail(f"player {p} has no exposed pung of {_name(t)} to add to")
            self._take(p, t)
            self.melds[p][i] = RecordMeld("kong", t, False)
            self.exposed[p, t] += 1
            self.phase, self.last_kong = self._KONG, (a, p, t)

        elif a == "Hu":
            self._apply_hu(p, t)

        else:  # pragma: no cover - parse_games admits only ACTIONS
            self._fail(f"unknown action {a!r}")
        self._check_sizes()

    def _apply_hu(self, p: int, t: int):
        """Record the win context in self.win_info and end the hand."""
        kong_replacement = robbing = False
        if self.phase == self._HOLD_DRAWN and p == self.actor:
            if t != self.drawn:
                self._fail(f"self-drawn Hu on {_name(t)} but player {p} drew {_name(self.drawn)}")
            self_drawn, discarder = True, None
            kong_replacement = self.replacement
            self._take(p, t)  # concealed before the win tile
            actor = p
        elif self.phase == self._DISCARDED:
            claimed = self._claim_last_discard(p, "Hu")
            if claimed != t:
                self._fail(f"Hu on {_name(t)} but the last discard is {_name(claimed)}")
            self_drawn, discarder = False, self.last_discard[0]
            actor = discarder
        elif self.phase == self._KONG and self.last_kong and self.last_kong[0] == "BuGang":
            _, seat, tile = self.last_kong
            if seat == p:
                self._fail(f"player {p} robs its own kong")
            if tile != t:
                self._fail(f"robbing Hu on {_name(t)} but the added kong is of {_name(tile)}")
            self_drawn, discarder, robbing = False, seat, True
            actor = seat
        else:
            self._fail(f"player {p} cannot win now (no own draw, discard or added kong to win on)")

        before = self.concealed[p].copy()
        if before.sum() + 3 * len(self.melds[p]) != 13:
            self._fail(
                f"player {p} wins with {int(before.sum()) + 3 * len(self.melds[p]) + 1} "
                "tile-equivalents, expected 14"
            )
        own_melds = sum(
            (np.bincount(m.tiles(), minlength=_NUM_KINDS) for m in self.melds[p]),
            start=np.zeros(_NUM_KINDS, dtype=np.int64),
        )
        # copies of t outside the winner's hand, before the win tile arrived
        others_exposed = self.exposed.sum(axis=0) - self.exposed[p]
        table_t = int(self.table[t]) - (0 if self_drawn or robbing else 1)
        others_t = int(others_exposed[t]) - (1 if robbing else 0)
        shown = table_t + others_t + int(self.exposed[p, t])
        known = int(before[t]) + int(own_melds[t]) + table_t + others_t + 1
        nxt = (actor + 1) % 4
        fits = all(d <= WALL_PER_PLAYER for d in self.draws)
        self.win_info = dict(
            player=p,
            concealed=before.astype(np.uint8),
            melds=tuple(self.melds[p]),
            win_tile=t,
            self_drawn=self_drawn,
            discarder=discarder,
            last_copy=known == 4,
            win_tile_shown=shown,
            kong_replacement=kong_replacement,
            robbing_kong=robbing,
            wall_last=(self.draws[nxt] == WALL_PER_PLAYER) if fits else None,
            wall_remaining=tuple(WALL_PER_PLAYER - d for d in self.draws),
        )
        # move the tile to the winner (a robbed kong reverts to a pung)
        if robbing:
            seat = discarder
            for i, m in enumerate(self.melds[seat]):
                if m.kind == "kong" and m.tile == t and not m.concealed:
                    self.melds[seat][i] = RecordMeld("pung", t, False)
                    break
            self.exposed[seat, t] -= 1
        elif not self_drawn:
            self._mark_claimed(p)
        self.concealed[p, t] += 1
        self.actor, self.phase = p, self._OVER

    def visible(self) -> np.ndarray:
        """uint8 (4, 34): per seat, table discards + others' exposed meld tiles."""
        others = self.exposed.sum(axis=0)[None, :] - self.exposed
        return (self.table[None, :] + others).astype(np.uint8)

    def snapshot(self) -> ReplayState:
        return ReplayState(
            index=self.index,
            event=self.event,
            concealed=self.concealed.astype(np.uint8),
            melds=tuple(tuple(m) for m in self.melds),
            discards=tuple(tuple(r) for r in self.rivers),
            visible=self.visible(),
            draws=tuple(self.draws),
            last_discard=self.last_discard,
        )


def replay(record: GameRecord) -> Iterator[ReplayState]:
    """Replay a record; yields one :class:`ReplayState` after each event, in
    event order (``len(record.events)`` states).

    Semantics: ``Chi t`` makes the chow ``t-1, t, t+1`` from the previous seat's
    last discard (which leaves that seat's table river, marked claimed) and two
    tiles of the hand; ``Peng``/``Gang`` claim the last discard with 2/3 tiles of
    the hand; ``AnGang`` moves 4 concealed tiles into a concealed kong;
    ``BuGang`` moves one tile of the hand onto the seat's exposed pung; a kong is
    followed by the replacement ``Draw``.  ``Hu`` wins on the seat's own draw, the
    last discard, or another seat's ``BuGang`` tile (the robbed kong reverts to a
    pung); the winner's state then holds 14 tile-equivalents.  ``Ignore`` claims
    are not applied.

    Checked on every event (:class:`~majiang.errors.InvalidHandError` naming the
    match id, line and event): turn order (draw by the seat after the discarder
    unless a claim intervenes; chow only from the previous seat; kongs only after
    one's own draw or on a discard; a replacement draw after every kong), tiles
    taken from a hand exist there, never more than 4 copies of a kind in play, no
    more than 84 draws in all, each seat holds 13 tile-equivalents (concealed + 3
    per meld) between turns and 14 while it must discard.
    """
    r = _Replayer(record)
    for i, ev in enumerate(record.events):
        r.apply(i, ev)
        yield r.snapshot()


def decision_points(record: GameRecord) -> Iterator[Decision]:
    """Yield a :class:`Decision` for every discard (``Play``) of any seat, in
    order, with the hand right before the discard.  The record is replayed and
    validated as in :func:`replay` (same errors)."""
    r = _Replayer(record)
    for i, ev in enumerate(record.events):
        if ev.action == "Play" and r.actor == ev.player and r.phase in (r._HOLD_DRAWN, r._HOLD_CLAIM):
            p = ev.player
            decision = Decision(
                game=record.match_id,
                turn_index=i,
                player=p,
                concealed=r.concealed[p].astype(np.uint8),
                melds=tuple(r.melds[p]),
                visible=r.visible()[p],
                discard=ev.tile,
                seat_wind=p,
                prevalent_wind=record.prevalent_wind,
                drawn=r.drawn if r.phase == r._HOLD_DRAWN else None,
            )
            r.apply(i, ev)  # validates the discard before it is handed out
            yield decision
        else:
            r.apply(i, ev)


def wins(record: GameRecord) -> list[Win]:
    """The winning situations of a record (one per ``Hu`` event; Botzone has no
    multiple winners, so at most one), after replaying and validating the whole
    record as :func:`replay` does.  See :class:`Win` for the fields; the fans and
    scores are the recorded ones."""
    r = _Replayer(record)
    out: list[Win] = []
    for i, ev in enumerate(record.events):
        r.apply(i, ev)
        if ev.action == "Hu":
            info = r.win_info
            out.append(
                Win(
                    game=record.match_id,
                    turn_index=i,
                    seat_wind=info["player"],
                    prevalent_wind=record.prevalent_wind,
                    fan_total=record.fan_total,
                    fans=tuple(record.fans),
                    scores=record.scores,
                    **info,
                )
            )
    return out

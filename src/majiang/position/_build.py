"""Positions built from play: an engine's seat view, a Botzone record's discard decision,
a simulated hand's event log (the classmethods ``Position.from_view``, ``from_botzone``
and ``from_log``; the :class:`_FromPlay` part of :class:`~majiang.position.Position`).

A position reads records and logs, never the game engine: ``from_view`` reads a view's
public properties only.
"""
from __future__ import annotations

from typing import Any, TypeVar

import numpy as np

from ..errors import RuleError
from ..hand import Meld, chow_tiles
from ..records.datatypes import Discard
from ..tiles import N_KINDS
from ._parse import TableMeld

_P = TypeVar("_P")


class _FromPlay:
    """The constructors from play of :class:`~majiang.position.Position`."""

    @classmethod
    def from_view(cls: type[_P], view: Any) -> _P:
        """The position a :class:`~majiang.game.players.SeatView` shows (a policy's
        argument in :func:`majiang.game.play_hand`), read through its public properties.

        The engine's view keeps only the discards still on the table (a claimed discard
        leaves its river, so none is marked claimed) and does not say whom a meld was
        claimed from (``from_seat`` None); another seat's concealed kong is a
        :attr:`hidden_kongs` count; the tiles winners took under 血战 / 血流 are not
        shown.  ``wall_left`` is the engine's count of tiles left (flowers included).
        The view's ``drawn`` is kept only when it is one: the seat holds
        ``hand_size + 1`` tiles and did not just claim the latest discard into a chow or
        pung (the engine keeps a seat's last dealt tile as "drawn" until its first
        discard); its ``last_discard`` only while that tile still lies on the table.
        ``visible_counts`` is by physical kind (the view's counts a stand-in, 安庆 红中 /
        温州 白板, as the kind it plays as), and so are the melds: a pung the view shows as
        the joker kind's face is of stand-ins, kept as ``[555z]`` (as :meth:`from_log`).
        """
        return _from_view(cls, view)

    @classmethod
    def from_botzone(cls: type[_P], record: Any, decision_index: int) -> _P:
        """The position of the seat about to discard at a Botzone record's discard
        decision number ``decision_index`` (an index into
        :func:`majiang.records.decision_points`; negative counts from the end).

        Botzone Chinese Official rules: ruleset ``"mcr"``, seat 0 deals (East), seat
        ``p`` has wind ``p``, no flowers.  Every river keeps its claimed discards
        (marked), each claimed meld names the seat it came from, another seat's
        concealed kong is a :attr:`hidden_kongs` count, and ``wall_left`` is the 84
        draws of Botzone's wall less those made.  The record holds every discard, so
        the position has ``complete_rivers=True`` (river lengths checked against the
        turn order).

        Raises
        ------
        RuleError
            ``record`` is not a GameRecord; ``decision_index`` is not the index of a
            decision of the record.
        InvalidHandError
            The record is inconsistent (as :func:`majiang.records.replay`).
        """
        return _from_botzone(cls, record, decision_index)

    @classmethod
    def from_log(cls: type[_P], log: Any, step: int, *, seat: int | None = None,
                 ruleset: Any = None) -> _P:
        """The position at event ``step`` of a simulated hand's event log, seen from one
        seat.

        ``log``: one hand's events (an entry of the ``log`` column of
        ``majiang.simulate(..., logs=True)``, ``HandState.events`` of
        ``play_hand(..., log=True)``, JSON Lines text or a file path; see
        :mod:`majiang.game.logs`).  A **step** is an index into that list of events:
        the position is the table just *before* event ``step`` is applied, seen from
        the event's seat (``seat=`` for events of no seat, such as ``"end"``, or to
        look from another seat).  So at a ``"discard"`` or ``"declare"`` event it is
        the decision of the seat holding ``hand_size + 1`` tiles, at a ``"claim"``
        event the seat weighing the discard (:attr:`last_discard`), at a ``"draw"``
        the seat about to draw.  Steps before the ``"start"`` event are the 换三张
        (``"exchange"``) and 定缺 (``"void"``) decisions.  ``ruleset``: the Ruleset
        when the header's name is not registered (house rules).

        Rivers keep claimed discards (marked), melds name their source, other seats'
        concealed kongs are hidden, the tiles winners took (血战 / 血流) are
        :attr:`won_tiles`, and ``wall_left`` counts the tiles not yet taken from the
        physical wall (flowers included).  Melds keep their physical tiles: a pung
        claimed from a discarded stand-in (上海百搭 白板 playing as the 百搭's face) is
        ``[555z]``, which the analyses read as the face's pung
        (:func:`majiang.efficiency.read_faces`).  The log holds every discard, so the position
        has ``complete_rivers=True`` (river lengths checked against the turn order).

        Raises
        ------
        RuleError
            Not a hand log (no header or no ``"start"`` event), ``step`` out of range,
            or an event of no seat without ``seat=``.
        """
        return _from_log(cls, log, step, seat, ruleset)



# --------------------------------------------------------------------------
# construction from play: an engine view, a Botzone record, an engine log
# --------------------------------------------------------------------------

def _from_view(cls, view) -> Any:
    model = view.model
    n = view.players
    seat = view.seat
    melds: list[list] = []
    hidden = [0] * n
    # the view gives a meld by the kind it plays as; the position keeps its physical
    # tiles (read_faces' notation, as from_log): a pung or kong played as the joker kind
    # is of stand-ins (安庆 红中, 上海百搭 / 温州 白板), the wild copies never being melded
    # (JokerRule be_claimed and kong off: where either is on, the view cannot say)
    jr = model.jokers
    sub, face = view.stand_in, view.joker_kind
    if jr is None or jr.be_claimed or jr.kong:
        sub = None
    for p, ms in enumerate(view.melds):
        row = []
        for kind, tile, concealed in ms:
            if tile is None:            # another seat's concealed kong: tile not shown
                hidden[p] += 1
            else:
                if sub is not None and kind != "chow" and tile == face:
                    tile = sub
                row.append(TableMeld(Meld(kind, int(tile), bool(concealed))))
        melds.append(row)
    c = np.asarray(view.concealed, dtype=np.uint8)
    drawn = view.drawn
    size = int(c.sum()) + 3 * len(melds[seat])
    if drawn is None or drawn >= N_KINDS or size != model.hand_size + 1 or not c[drawn]:
        drawn = None                # during the deal the engine keeps the last dealt tile
    discards = [[Discard(int(t)) for t in river] for river in view.discards]
    last = view.last_discard
    if last is not None:
        ls, lt = last
        if not (discards[ls] and discards[ls][-1].tile == lt):
            last = None             # claimed or won on since
            own = melds[seat]
            if drawn is not None and ls != seat and own and own[-1].meld.kind != "kong" \
                    and lt in own[-1].meld.tiles:
                drawn = None        # the seat just claimed it: nothing was drawn
    return cls(concealed=c, ruleset=model.ruleset,
               seat=seat, drawn=drawn, dealer=view.dealer, prevalent_wind=view.prevalent_wind,
               melds=melds, discards=discards, flowers=list(view.flowers),
               indicator=view.indicator, wall_left=view.wall_left,
               voids=list(view.voids) if model.declares_void else None, won=list(view.won),
               hidden_kongs=hidden if any(hidden) else None, last_discard=last)


def _from_botzone(cls, record, decision_index: int) -> Any:
    from ..records import WALL_PER_PLAYER, GameRecord, decision_points, replay
    if not isinstance(record, GameRecord):
        raise RuleError(f"from_botzone takes a majiang.records.GameRecord (from "
                        f"majiang.records.parse_games or example_games), got "
                        f"{type(record).__name__}")
    decisions = list(decision_points(record))
    if isinstance(decision_index, bool) or not isinstance(decision_index, (int, np.integer)):
        raise RuleError(f"decision_index must be an int, got {decision_index!r}")
    if not -len(decisions) <= decision_index < len(decisions):
        raise RuleError(f"match {record.match_id} has {len(decisions)} discard decisions "
                        f"(0..{len(decisions) - 1}, or -1..-{len(decisions)} from the end), "
                        f"not {decision_index}")
    d = decisions[int(decision_index)]
    frm: list[list] = [[] for _ in range(4)]
    before = None
    for st in replay(record):
        if st.index >= d.turn_index:
            break
        ev = st.event
        if ev.action in ("Chi", "Peng", "Gang"):
            frm[ev.player].append(before.last_discard[0])
        elif ev.action == "AnGang":
            frm[ev.player].append(None)
        before = st
    seat = d.player
    melds, hidden = [], [0, 0, 0, 0]
    for p in range(4):
        row = []
        for m, f in zip(before.melds[p], frm[p]):
            if m.concealed and p != seat:
                hidden[p] += 1          # the seat never saw the tiles of this kong
            else:
                row.append(TableMeld(Meld(m.kind, m.tile, m.concealed), f))
        melds.append(row)
    return cls(concealed=d.concealed, ruleset="mcr", seat=seat, drawn=d.drawn, dealer=0,
               prevalent_wind=record.prevalent_wind, melds=melds,
               discards=[list(r) for r in before.discards],
               wall_left=max(0, 4 * WALL_PER_PLAYER - sum(before.draws)),
               hidden_kongs=hidden if any(hidden) else None, complete_rivers=True)


_SEATLESS = ("header", "deal", "jokers", "exchange_direction", "start", "end_table",
             "end_check", "end")


def _log_events(log: Any) -> list:
    """The events of one hand's log: a list of dicts, JSON Lines text or a file path."""
    if isinstance(log, list):
        return log
    if isinstance(log, str) or hasattr(log, "__fspath__"):
        import json
        import os
        text = str(log)
        if "\n" not in text and not text.lstrip().startswith("{") and os.path.exists(text):
            with open(text, encoding="utf-8-sig") as fh:
                text = fh.read()
        out = []
        for i, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    out.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise RuleError(f"log line {i} is not JSON: {exc}") from None
        return out
    return list(log)


def _from_log(cls, log: Any, step: int, seat: int | None, ruleset: Any) -> Any:
    from ..rules.model import game_model
    events = _log_events(log)
    if not events or not isinstance(events[0], dict) or events[0].get("e") != "header":
        raise RuleError("a hand log starts with a header event (simulate(..., logs=True) "
                        "gives one per hand in its 'log' column)")
    if isinstance(step, bool) or not isinstance(step, (int, np.integer)):
        raise RuleError(f"step must be an event index, got {step!r}")
    step = int(step)
    if not 0 <= step < len(events):
        raise RuleError(f"step {step} is not an event of this log (0..{len(events) - 1})")
    h = events[0]
    model = game_model(ruleset if ruleset is not None else h["ruleset"])
    n = model.players
    ev_at = events[step]
    if seat is None:
        if "seat" not in ev_at:
            raise RuleError(f"event {step} ({ev_at.get('e')!r}) belongs to no seat; give seat=")
        seat = int(ev_at["seat"])
    wall = h["wall"]
    start_i = next((i for i, e in enumerate(events) if e.get("e") == "start"), None)
    if start_i is None:
        raise RuleError("the log has no 'start' event (written by an older engine)")
    start = events[start_i]
    hands = [np.bincount(np.asarray(t, dtype=np.intp), minlength=N_KINDS).astype(np.int16)
             for t in start["hands"]]
    flowers = [0] * n
    deal = next(e for e in events if e.get("e") == "deal")
    for p, fl in enumerate(deal["flowers"]):
        flowers[p] = len(fl)
    for e in events[:start_i]:
        if e.get("e") == "flowers":
            flowers[e["seat"]] = len(e["tiles"])
    drawn: list = [None] * n
    drawn[int(h["dealer"])] = int(start["drawn"])
    # the wall: tiles taken by the deal and its flower replacements, the indicator
    taken = int(sum(len(t) for t in start["hands"])) + sum(flowers)
    indicator = None
    jr = model.jokers
    sub = jr.substitute if jr is not None else None
    joker = None
    for e in events[:start_i]:
        if e.get("e") == "jokers":
            indicator, joker = e.get("indicator"), e.get("joker")
            if indicator is not None:
                aside = 0                # flowers turned over before the indicator
                while wall[len(wall) - 1 - aside] >= N_KINDS:
                    aside += 1
                taken += aside + int(model.face_up(indicator).sum())
    if step < start_i:
        # before the deal ends only 换三张 and 定缺 are decided: the hands of the start
        # event, less the tiles received in the exchange (still to come at an exchange)
        gives = {e["seat"]: e["tiles"] for e in events if e.get("e") == "exchange"}
        d = next((e["direction"] for e in events if e.get("e") == "exchange_direction"),
                 None)
        if ev_at.get("e") == "exchange" and d is not None:
            stp = (1, n - 1, 2)[int(d)]
            for p in range(n):
                for x in gives.get(p, ()):
                    hands[p][x] += 1
                    hands[(p + stp) % n][x] -= 1
        drawn = [None] * n
        drawn[int(h["dealer"])] = int(start["drawn"])
        if hands[int(h["dealer"])][drawn[int(h["dealer"])]] <= 0:
            drawn[int(h["dealer"])] = None
        first = start_i
    else:
        first = start_i + 1
    melds: list[list] = [[] for _ in range(n)]
    rivers: list[list] = [[] for _ in range(n)]
    voids = [-1] * n
    won: list[int] = []
    won_tiles: list[list] = [[] for _ in range(n)]
    last = None
    blood = bool(getattr(model.ruleset, "blood", ""))

    def play(t):
        return joker if (sub is not None and t == sub) else t

    for e in events[:min(start_i, step)]:
        if e.get("e") == "void":
            voids[e["seat"]] = int(e["suit"])
    for e in events[first:step]:
        k = e.get("e")
        if k == "void":
            voids[e["seat"]] = int(e["suit"])
        elif k == "draw":
            p, t = e["seat"], int(e["tile"])
            hands[p][t] += 1
            drawn[p] = t
            taken += 1
        elif k == "flower":
            flowers[e["seat"]] += 1
            taken += 1
        elif k == "discard":
            p, t = e["seat"], int(e["tile"])
            hands[p][t] -= 1
            rivers[p].append(Discard(t))
            drawn[p] = None
            last = (p, t)
        elif k == "call":
            q, t, p = e["seat"], int(e["tile"]), int(e["frm"])
            rivers[p][-1] = Discard(rivers[p][-1].tile, q)
            last = None
            kind = e["kind"]
            if kind == "chow":
                a = int(e["start"])
                for x in chow_tiles(a):     # an honour chow (南昌) too
                    if x != play(t):
                        hands[q][x] -= 1
                melds[q].append(TableMeld(Meld("chow", a), p))
            else:       # by its physical tiles: a stand-in pung is [555z] (read_faces)
                hands[q][t] -= 3 if kind == "kong" else 2
                melds[q].append(TableMeld(Meld(kind, t), p))
            drawn[q] = None
        elif k == "kong":
            p, t = e["seat"], int(e["tile"])
            if e["kind"] == "concealed":
                hands[p][t] -= 4
                melds[p].append(TableMeld(Meld("kong", t, True)))
            else:
                hands[p][t] -= 1
                for i, tm in enumerate(melds[p]):
                    if tm.meld.kind == "pung" and tm.meld.tile == t:
                        melds[p][i] = TableMeld(Meld("kong", t), tm.from_seat)
                        break
            drawn[p] = None
        elif k == "win":
            q, t, how = e["seat"], int(e["tile"]), e["how"]
            if q not in won:
                won.append(q)
            if not blood:
                continue
            if how in ("self_draw", "kong_replacement"):
                hands[q][t] -= 1
                won_tiles[q].append(t)
                drawn[q] = None
            elif how == "discard":
                p = int(e["discarder"])
                if rivers[p] and rivers[p][-1].claimed_by is None:
                    rivers[p][-1] = Discard(rivers[p][-1].tile, q)
                    won_tiles[q].append(t)
                last = None
            elif how == "robbing_kong":
                p = int(e["discarder"])
                for i, tm in enumerate(melds[p]):
                    if tm.meld.kind == "kong" and tm.meld.tile == t and not tm.meld.concealed:
                        melds[p][i] = TableMeld(Meld("pung", t), tm.from_seat)
                        won_tiles[q].append(t)
                        break
    if last is not None and not (rivers[last[0]] and rivers[last[0]][-1] == Discard(last[1])):
        last = None
    # what the seat sees: the other seats' concealed kongs are hidden
    hidden = [0] * n
    shown = []
    for p in range(n):
        row = []
        for tm in melds[p]:
            if tm.meld.concealed and p != seat:
                hidden[p] += 1
            else:
                row.append(tm)
        shown.append(row)
    c = hands[seat]
    d_own = drawn[seat]
    if d_own is not None and (c[d_own] <= 0 or int(c.sum()) + 3 * len(melds[seat])
                              != model.hand_size + 1):
        d_own = None
    return cls(concealed=c.astype(np.uint8), ruleset=model.ruleset, seat=seat, drawn=d_own,
               dealer=int(h["dealer"]), prevalent_wind=int(h["prevalent_wind"]) % 4,
               melds=shown, discards=rivers, flowers=flowers, indicator=indicator,
               wall_left=len(wall) - taken, voids=voids if model.declares_void else None,
               won=won, won_tiles=won_tiles if any(won_tiles) else None,
               hidden_kongs=hidden if any(hidden) else None, last_discard=last,
               complete_rivers=True)


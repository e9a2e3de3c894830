"""A built-in player of the engine (:data:`majiang.game.players.BUILTIN_PLAYERS`) answering
Botzone requests: ``python -m majiang.botzone --player NAME``.

The seat's table (:class:`BotzoneTable`, rebuilt from the requests) becomes a hand state
of the engine as the seat sees it — own tiles, every meld, discard pool, flower count and
wall end; the other seats' concealed tiles and the wall's order are unknown and never
read by a player's :class:`~majiang.game.players.SeatView` — and the player is asked as the
engine asks it: ``declare`` (win, concealed or added kong) then ``discard`` on the own
draw; ``claim`` (win, kong, pung, chow) on a discard or a robbable added kong, then, after
a pung or a chow, ``discard`` on the hand with the call made.  The options offered are
the moves :meth:`BotzoneTable.check_response` accepts, so a move of the player is a legal
response.  Protocol id ``p`` is the engine's seat ``p`` with id 0 dealing.
"""
from __future__ import annotations

import numpy as np

from ..errors import RuleError
from ..records.codes import botzone_code
from ._table import PER_SEAT_DRAWS, BotzoneTable


def player_names() -> tuple:
    """The names ``--player`` accepts: the built-in players of the engine."""
    from ..game.players import BUILTIN_PLAYERS
    return tuple(BUILTIN_PLAYERS)


def make_player(name: str, seed: int = 0):
    """The built-in player ``name`` (random choices from ``seed``).

    Raises
    ------
    RuleError
        An unknown name (the message lists the built-in ones).
    """
    from ..game.players import BUILTIN_PLAYERS
    cls = BUILTIN_PLAYERS.get(str(name).strip().lower())
    if cls is None:
        raise RuleError(f"unknown player {name!r}; built-in players: "
                        f"{', '.join(BUILTIN_PLAYERS)}")
    return cls(np.random.default_rng(seed))


def _state(table: BotzoneTable):
    """The engine's hand state of the table as its seat knows it (see the module)."""
    from ..game.engine import HandState
    st = HandState(table.ruleset, [None] * 4, seed=0, dealer=0, prevalent_wind=table.quan)
    me = table.me
    for p in range(4):
        s = st.seats[p]
        s.flowers = [34] * int(table.flowers[p])      # only the count is read
        for kind, t, conc, frm in table.melds[p]:
            tiles = [t, t + 1, t + 2] if kind == "chow" else [t] * (4 if kind == "kong" else 3)
            st.add_meld(p, kind, t, conc, tiles, frm=frm)
            if kind == "kong":
                if conc:
                    s.n_kongs_concealed += 1
                else:
                    s.n_kongs_exposed += 1
            else:
                s.n_calls += 1
        for _ in range(0 if p == me else int(table.hidden_kongs[p])):
            st.add_meld(p, "kong", 0, True, [0] * 4)  # tile unknown: a view shows None
            s.n_kongs_concealed += 1
        s.discards = [int(t) for t, by in table.discards[p] if by is None]
        for t in s.discards:
            st.visible[t] += 1
        s.n_drawn = int(table.draws[p])
        s.n_discarded = len(table.discards[p])
        st._melds_changed(p)
    s = st.seats[me]
    s.phys = table.hand.astype(np.uint8)
    s.drawn = table.drawn if table.last == ("draw", me) else None
    st._changed(me)
    if st.per_seat:       # Botzone's own walls: 21 draws a seat
        for p in range(4):
            st.seat_next[p] = st.seat_low[p] + PER_SEAT_DRAWS - int(table.draws[p]) - 1
    else:                 # one wall: its end is not shown, only what was drawn from it
        left = st.wall.size - 13 * 4 - sum(table.draws) - sum(table.flowers)
        st.head = st.tail - max(left, 0) + 1
    if table.last[0] == "discard":
        st.last_discard = (table.last[1], table.last[2])
    st.interrupted = any(table.melds[p] or table.hidden_kongs[p] for p in range(4))
    return st


def _own_turn(table, policy, view) -> str:
    me = table.me
    ok = table.check_response
    options: list = []
    r = table.win_check()
    if r is not None and r.valid:
        options.append(("win",))
    for k in np.flatnonzero(table.hand == 4):
        if ok(f"GANG {botzone_code(int(k))}") is None:
            options.append(("concealed_kong", int(k)))
    for kind, t, _, _ in table.melds[me]:
        if kind == "pung" and ok(f"BUGANG {botzone_code(t)}") is None:
            options.append(("added_kong", int(t)))
    choice = policy.declare(view, options) if options else None
    if choice is not None:
        choice = tuple(choice)
        if choice == ("win",):
            return "HU"
        if choice[0] == "concealed_kong":
            return f"GANG {botzone_code(int(choice[1]))}"
        if choice[0] == "added_kong":
            return f"BUGANG {botzone_code(int(choice[1]))}"
    return f"PLAY {botzone_code(int(policy.discard(view)))}"


def _claim(table, policy, view, st) -> str:
    me = table.me
    ok = table.check_response
    kind, q, d = table.last
    options: list = []
    r = table.win_check()
    if r is not None and r.valid:
        options.append(("win",))
    held = [int(x) for x in np.flatnonzero(table.hand)]
    if kind == "discard":
        if ok("GANG") is None:
            options.append(("kong",))
        if table.hand[d] >= 2 and any(ok(f"PENG {botzone_code(x)}") is None for x in held):
            options.append(("pung",))
        for lo in (d - 2, d - 1, d):
            if 0 <= lo and lo < 27 and lo % 9 <= 6 and lo // 9 == d // 9 and any(
                    ok(f"CHI {botzone_code(lo + 1)} {botzone_code(x)}") is None for x in held):
                options.append(("chow", lo))
    choice = policy.claim(view, options) if options else None
    if choice is None:
        return "PASS"
    choice = tuple(choice)
    if choice == ("win",):
        return "HU"
    if choice == ("kong",):
        return "GANG"
    s = st.seats[me]
    if choice == ("pung",):
        need, meld, head = [d, d], ("pung", d, [d] * 3), "PENG"
    else:
        lo = int(choice[1])
        need = [x for x in (lo, lo + 1, lo + 2) if x != d]
        meld, head = ("chow", lo, [lo, lo + 1, lo + 2]), f"CHI {botzone_code(lo + 1)}"
    for x in need:
        s.phys[x] -= 1
    st.seats[q].discards.pop()
    st.visible[d] -= 1
    st.add_meld(me, meld[0], meld[1], False, meld[2], frm=q)
    s.n_calls += 1
    st.last_discard = None
    st._changed(me)
    return f"{head} {botzone_code(int(policy.discard(view)))}"


def player_response(table: BotzoneTable, policy) -> str:
    """The response of ``policy`` (a policy of the engine: a built-in player or one's own
    object with ``declare`` / ``discard`` / ``claim``) to the table's latest request;
    ``PASS`` where the seat has nothing to decide.  Not yet checked for legality (the
    caller checks it with :meth:`BotzoneTable.check_response`)."""
    from ..game.players import SeatView
    last = table.last
    mine = last[0] == "draw" and last[1] == table.me and table.drawn is not None
    if not mine and not (last[0] in ("discard", "bugang") and last[1] != table.me):
        return "PASS"
    st = _state(table)
    view = SeatView(st, table.me)
    if mine:
        return _own_turn(table, policy, view)
    return _claim(table, policy, view, st)

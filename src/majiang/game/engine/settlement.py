"""Payments at the end of a hand outside the hand values (:func:`end_checks`): kong
payments, the ruleset's end checks (查花猪 / 查大叫 / 退税) and its end settlement on the
final table (:func:`end_table`)."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .readiness import _Readiness


def _three_suits(seat) -> bool:
    """花猪: the seat holds tiles of all three suits (concealed or in melds)."""
    b = np.asarray(seat.phys, dtype=np.uint8).tobytes()
    held = [any(b[0:9]), any(b[9:18]), any(b[18:27])]
    for m in seat.melds:
        for t in m["tiles"]:
            if t < 27:
                held[t // 9] = True
    return all(held)


def end_checks(st) -> list:
    """Payments outside the hand value: the kong payments of the hand
    (:class:`KongLedger`, :attr:`Ruleset.kong_payments`) and the ruleset's
    :attr:`Ruleset.end_checks` when the hand ends with the wall (docs/rules/sichuan.md
    §8: 查花猪 → 查大叫 → 退税).  Adds them to ``st.deltas`` and returns them (also in
    ``st.end_checks``: dicts with ``check``, ``payer``, ``payee``, ``amount``).

    Kong payments are kept, or void when the ruleset pays them only with a win
    (荒庄荒杠) and nobody won; a player who dealt in right after his own kong collects
    none of them where the ruleset burns him (烧, :func:`burnt_seats`).  At a drawn end players who have won take no part.  A
    花猪 (still holding tiles of three suits) pays 16 x base to each other player who
    is not a 花猪; a player who is not ready (and not a 花猪) pays each ready player
    that player's largest hand value; 退税: not-ready players and 花猪 hand back their
    kong income (what 呼叫转移 moved away stays moved).  Who is ready and what a
    ready hand is worth are read once, by :class:`_Readiness` (the same reading as
    the kong payments collected only by ready players and the end settlement's
    :class:`~majiang.rules.base.EndTable`).
    """
    st.end_checks = []
    rs = st.rs
    ledger = getattr(st, "kong_ledger", None)
    kongs = [] if ledger is None else ledger.items
    readiness = None
    if kongs and not (ledger.kp.when == "with_win" and not st.wins):
        st.end_checks = [dict(it.entry) for it in kongs]
        if getattr(ledger.kp, "collect", "always") == "ready":
            readiness = _Readiness(st)
            st.end_checks = [e for e in st.end_checks
                             if e["check"] != "杠分" or readiness.ready(e["payee"])]
        burnt = burnt_seats(st.wins) if getattr(ledger.kp, "burn", False) else ()
        if burnt:
            st.end_checks = [e for e in st.end_checks
                             if e["check"] != "杠分" or e["payee"] not in burnt]
    settle_name = getattr(rs, "end_settlement", "")
    if settle_name:
        from ...rules.base import END_SETTLEMENTS
        readiness = readiness or _Readiness(st)
        table = end_table(st, readiness)
        st.end_table = table
        st.end_checks = st.end_checks + [dict(e) for e in END_SETTLEMENTS[settle_name](rs, table)]
    checks = tuple(getattr(rs, "end_checks", ()))
    if not checks or st.end_reason != "wall":
        _apply(st, st.end_checks)
        return st.end_checks
    won = {w["seat"] for w in st.wins}
    part = [q for q in range(st.n) if q not in won]
    base = rs.scoring.base
    seats = st.seats
    # a 花猪 exists only where 查花猪 is played (云南 plays 查大叫 alone: three suits are fine)
    pigs = [q for q in part if _three_suits(seats[q])] if "查花猪" in checks else []
    readiness = readiness or _Readiness(st)
    ready = [q for q in part if q not in pigs and readiness.ready(q)]
    out = []
    if "查花猪" in checks:
        for q in pigs:
            for r in part:
                if r != q and r not in pigs:
                    out.append({"check": "查花猪", "payer": q, "payee": r, "amount": 16 * base})
    if "查大叫" in checks:
        payers = [q for q in part if q not in pigs and q not in ready]
        values = {r: readiness.value(r) for r in ready} if payers else {}
        for q in payers:
            for r in ready:
                out.append({"check": "查大叫", "payer": q, "payee": r, "amount": values[r]})
    if "退税" in checks:
        for it in kongs:
            e = it.entry
            q = e["payee"]
            if e["check"] == "杠分" and not it.moved and q in part and q not in ready:
                out.append({"check": "退税", "payer": q, "payee": e["payer"],
                            "amount": e["amount"]})
    st.end_checks = st.end_checks + out
    _apply(st, st.end_checks)
    return st.end_checks


def burnt_seats(wins) -> frozenset:
    """烧 (:attr:`KongPayments.burn`): the seats that dealt in with the discard they made
    right after their own kong (a win's ``kong_discard``, its ``discarder``)."""
    return frozenset(int(w["discarder"]) for w in wins
                     if w.get("kong_discard") and w.get("discarder") is not None)


class _PerSeat(Sequence):
    """A per-seat tuple read on first use: the end table's readiness and ready values
    (THE predicate over each seat's waits), asked only by the end settlements that read
    them (贵州 查叫 / 鸡, 保定), not by those that do not (广东 跟庄 / 买马, 长沙 扎鸟).
    Compares equal to the tuple of its values."""

    def __init__(self, n, fn):
        self._n, self._fn, self._v = n, fn, None

    def _values(self) -> tuple:
        if self._v is None:
            self._v = tuple(self._fn(q) for q in range(self._n))
        return self._v

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i):
        return self._values()[i]

    def __eq__(self, other) -> bool:
        if isinstance(other, (_PerSeat, tuple, list)):
            return self._values() == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self._values())


def end_table(st, readiness=None):
    """The final table of a finished hand (:class:`majiang.rules.base.EndTable`) that an
    end-of-hand settlement (:attr:`Ruleset.end_settlement`) reads."""
    from ...rules.base import EndTable
    readiness = readiness or _Readiness(st)
    n = st.n
    tiles, discards, kongs, supplied = [], [], [], []
    for q, seat in enumerate(st.seats):
        supplied.append([(_claimed_tile(m), int(m["frm"]))
                         for m in seat.melds if m.get("frm") is not None])
        cnt = {k: v for k, v in enumerate(np.asarray(seat.phys).tolist()) if v}
        for t in list(seat.won_tiles) + [t for m in seat.melds for t in m["tiles"]]:
            cnt[int(t)] = cnt.get(int(t), 0) + 1
        ks = []
        for m in seat.melds:
            if m["kind"] != "kong":
                continue
            if m["concealed"]:
                ks.append((int(m["tile"]), "concealed", None))
            elif m.get("how") == "added":
                ks.append((int(m["tile"]), "added", None))
            else:
                ks.append((int(m["tile"]), "exposed", m.get("frm")))
        tiles.append(cnt)
        discards.append(tuple(int(t) for t in seat.discards))
        kongs.append(tuple(ks))
    # a discard win: the winning tile is in each winner's hand (with several winners
    # only the first takes the tile itself)
    for w in st.wins:
        q, t = w["seat"], int(w["tile"])
        if w["how"] in ("discard", "robbing_kong") and t not in st.seats[q].won_tiles:
            tiles[q][t] = tiles[q].get(t, 0) + 1
        if w["how"] in ("discard", "robbing_kong") and w.get("discarder") is not None:
            supplied[q].append((t, int(w["discarder"])))
    rest = ()
    if st.wall_left > 0:
        rest = st.wall_rest() if hasattr(st, "wall_rest") else st.wall[st.head:st.tail + 1]
        rest = tuple(t for t in np.asarray(rest).tolist() if t < 34)
    turned = rest[0] if rest else None
    start = tuple({k: v for k, v in enumerate(np.asarray(h).tolist()) if v}
                  for h in getattr(st, "start_hands", None) or ())
    ready = _PerSeat(n, readiness.ready)
    values = _PerSeat(n, lambda q: readiness.value(q) if readiness.ready(q) else None)
    first = {int(k): (int(v[0]), None if v[1] is None else int(v[1]))
             for k, v in getattr(st, "first_discards", {}).items()}
    return EndTable(players=n, end=st.end_reason, winners=tuple(w["seat"] for w in st.wins),
                    ready=ready, values=values, tiles=tuple(tiles), discards=tuple(discards),
                    kongs=tuple(kongs), turned=turned, first_discards=first,
                    wild=tuple(int(k) for k in getattr(st, "jks", ()) or ()),
                    dealer=int(st.dealer), melds=tuple(len(s.melds) for s in st.seats),
                    wins=tuple((int(w["seat"]), w.get("how", ""), w.get("discarder"),
                                int(w.get("points", 0)), tuple(w.get("fans", ())))
                               for w in st.wins),
                    start=start, rest=rest,
                    payments=tuple(tuple(int(x) for x in w["deltas"]) for w in st.wins),
                    win_tiles=tuple(int(w["tile"]) for w in st.wins),
                    kong_discards=tuple(bool(w.get("kong_discard")) for w in st.wins),
                    last_drawn=_last_drawn(st), opening=_opening(st),
                    supplied=tuple(tuple(x) for x in supplied))


def _opening(st) -> tuple:
    """Per seat, its discards made in turn order from the dealer before the first claim
    or win (:attr:`EndTable.opening`): the first ``open_turns`` discards of the hand went
    dealer, next seat, …; none of them was claimed, so each is still in its pool, in
    order.  () when the loop did not keep the count."""
    t = getattr(st, "open_turns", None)
    if t is None:
        return ()
    t = st.turns if t < 0 else t
    n = st.n
    made = [t // n + (1 if (q - st.dealer) % n < t % n else 0) for q in range(n)]
    return tuple(tuple(int(k) for k in list(st.seats[q].discards)[:made[q]])
                 for q in range(n))


def _claimed_tile(m):
    """The kind of the discard a claimed meld took: kept by the Python loop; a pung's or
    kong's is its tile, a chow's unknown (None) when not kept."""
    t = m.get("claimed")
    if t is None and m["kind"] != "chow":
        t = m["tile"]
    return None if t is None else int(t)


def _last_drawn(st):
    """The kind of the last playing tile the hand drew from the wall (both loops keep
    it; -1 or absent: none)."""
    t = getattr(st, "last_drawn", None)
    return None if t is None or t < 0 else int(t)


def _apply(st, payments):
    for c in payments:
        st.deltas[c["payer"]] -= c["amount"]
        st.deltas[c["payee"]] += c["amount"]

"""Ready declarations (报听) in the Python loop: which waits a declaration may be made on,
the kongs a declared hand may still make, and the declaration asked with a discard.

Reading (one rule for every ruleset that plays declarations, :func:`~.facts.ready_kinds`):

* **when**: with a discard.  A seat that has not declared, whose hand after its discard is
  ready, may declare together with that discard (docs/rules/shandong.md: "暗楼 / 明楼",
  docs/rules/baoding.md "the declaring tile laid face down", docs/rules/lisi.md "discarded
  only to declare ready"); the declaration counts from that discard on (a win on the
  declaring discard itself is a win on a declared player's discard).  The kinds
  ``"concealed"`` / ``"open"`` are offered with any such discard; two kinds have their
  own moment (:func:`offered_kinds`, docs/rules/guizhou.md §1, docs/rules/nanjing.md):

  - ``"deal"`` (天听, 硬报: on the dealt hand): each non-dealer whose dealt 13 tiles are
    ready is asked right after the deal, before the dealer's first discard, in turn
    order from the dealer's 下家, without a discard (the ``ready`` event's ``tile`` is
    None); the dealer, whose dealt hand has 14 tiles, is asked with his first discard
    when no draw (a kong's replacement) came before it;
  - ``"first_draw"`` (地听, 软报: right after the first draw): with the discard a seat
    makes in the turn of its first draw from the wall (a non-dealer's first discard
    unless a call came first, the dealer's second).
* **ready**: some tile kind, of which a copy is left outside the seat's own hand and melds,
  completes the hand into a valid win under THE predicate judged as a **self-draw** with
  the declaration (as :class:`~.readiness._Readiness`: a self-draw is always open to a
  ready hand).
* **locked after it**: the seat discards each tile it draws unless it wins; it calls no
  pung, chow or exposed kong; it may make a concealed or an added kong of the tile just
  drawn when that keeps its waits (docs/rules/baoding.md: "after it only 暗杠 and
  winning"; "after 报听 the player may not 吃/碰/杠 and must discard the tile just
  drawn"; the kong that keeps the waits is the usual exception), none at all where
  ``Ruleset.ready_kongs`` is False (docs/rules/lisi.md: no kong after ready).
* **kinds**: ``"concealed"`` (暗楼, 报听) wins by self-draw or on a discard; ``"open"`` (the
  hand shown: 山东 明楼, 海南 明摸) wins **only by self-draw** (docs/rules/shandong.md,
  docs/rules/hainan_tuidao.md §2).
* **required** (``Ruleset.ready == "required"``, 保定 / 立四): a seat that has not declared
  does not win (docs/rules/baoding.md, docs/rules/lisi.md "a win only after declaring
  ready").
* **public**: the declaration is logged (``ready`` event: the seat, the discard, the kinds
  offered, the choice) and shown to every seat (:attr:`SeatView.declared
  <majiang.game.players.SeatView.declared>`).
* **scored**: the win context carries the winner's declaration
  (:attr:`~majiang.winning.WinContext.declared_ready`) and, on a discard, the
  discarder's (:attr:`~majiang.winning.WinContext.discarder_ready`); each ruleset's fans
  or settlement give them their value.
* 过水: a declared seat is not held by the pass lock (docs/rules/shandong.md: "not in a
  declared-ready state").

Standing tiles (立四, :attr:`Ruleset.standing_tiles <majiang.rules.base.Ruleset.standing_tiles>`,
docs/rules/lisi.md §1): the first ``n`` playing tiles dealt to each seat stand apart
(``_Seat.standing``, by kind; the others see how many, not which: :class:`SeatView
<majiang.game.players.SeatView>` ``standing`` / ``standing_counts``, the ``standing`` log
event);

* **discards**: before the declaration a standing tile is discarded only to declare
  (:meth:`~.state.HandState.legal_discards`): a kind held only as standing copies is a
  legal discard when its discard leaves the hand ready (:func:`standing_declarations`),
  and that discard **is** the declaration (made for the seat, logged ``forced``); a kind
  held both ways asks the policy, a "no" throwing the free copy;
* **face down**: the declaring tile goes to the seat's ``face_down`` pile, not its pool:
  nobody claims or wins on it, the others do not see it (``discard`` log event
  ``face_down``, its tile hidden from the others' :meth:`SeatView.seen_events`);
* **calls**: pungs and kongs take standing copies too, the standing ones first while
  another standing tile is left (:func:`standing_used`, [interp.]: the text lets them be
  used, not which copies a player gives); a pung or chow that would leave only standing
  tiles in the hand (nothing to discard) is not offered (:func:`call_leaves_discard`);
* a seat whose standing tiles are all used cannot declare, so cannot win where a
  declaration is required.

Not played: a declaration's own payment besides the win's value.
"""
from __future__ import annotations

import numpy as np

from ...hand import Hand, Meld
from ..._core import game as _cg
from .wins import _verdict


def ready_waits(st, p, kind: str = "concealed") -> list:
    """The kinds (0..33) that complete seat ``p``'s 3n+1 concealed hand into a valid win
    judged as a self-draw with declaration ``kind``; copies held by the seat itself
    (concealed or in its melds) exhaust a wait.  Empty: the hand is not ready."""
    s = st.seats[p]
    if (int(s.phys.sum()) + 3 * len(s.melds)) % 3 != 1:
        return []
    c, j = st.play_counts(p)
    w, _ = st.waits(p)
    if not w.any():
        return []
    held = c.astype(np.int64)
    for m in s.melds:
        for t in m["tiles"]:
            if t < 34:
                held[st.play_kind(t)] += 1
    melds = st.meld_objects(p)
    hand = Hand(c, melds, jokers=j)
    kw = dict(ruleset=st.rs, self_drawn=True, seat_wind=(p - st.dealer) % st.n,
              prevalent_wind=st.prevalent, flowers=len(s.flowers), declared_ready=kind,
              seat_fan=st.model.seat_fan(s.discards))
    out = []
    for k in np.flatnonzero(w):
        k = int(k)
        if held[k] >= int(st.model.copies[k]):
            continue
        key = ("ready", c.tobytes(), j, melds, k, kw["seat_wind"], kw["flowers"], kind,
               kw["seat_fan"])
        if _verdict(st.check_win, st._verdicts, key, p, hand, k, kw).valid:
            out.append(k)
    return out


def offered_kinds(st, p) -> tuple:
    """The declaration kinds seat ``p`` may make with the discard it has just made (its
    ``n_discarded`` counted, ``drawn`` still set when the turn began with a draw): the
    ruleset's ``"concealed"`` / ``"open"`` always, ``"deal"`` with the dealer's first
    discard before any draw, ``"first_draw"`` with the discard of the seat's first draw
    (see the module)."""
    s = st.seats[p]
    out = []
    for k in st.ready_kinds:
        if k == "deal":
            if p != st.dealer or s.n_drawn or s.n_discarded != 1:
                continue
        elif k == "first_draw":
            if s.drawn is None or s.n_drawn != 1:
                continue
        out.append(k)
    return tuple(out)


def _shape_waits(st, c, j, melds) -> np.ndarray:
    so = st.model.shape(melds).game_opts(len(melds), pairs=False)
    w = np.zeros(34, dtype=np.uint8)
    _cg.waits(np.ascontiguousarray(c, dtype=np.uint8), so, j, w)
    return w


def kong_keeps_waits(st, p, k: int, how: str) -> bool:
    """Whether declared seat ``p`` may make a ``how`` (``"concealed"`` / ``"added"``) kong of
    kind ``k``: only of the tile just drawn, and the waits (by shape) of the hand after it
    are those the seat declared on; never where ``Ruleset.ready_kongs`` is False."""
    s = st.seats[p]
    if not st.rs.ready_kongs:
        return False                # no kong at all after the declaration (立四)
    if s.drawn is None or st.play_kind(s.drawn) != k or k in st.jks:
        return False                # (a kong of jokers, 金杠, changes the jokers held)
    c, j = st.play_counts(p)
    c[k] -= 1                       # the hand the seat declared on (before the draw)
    melds = st.meld_objects(p)
    before = _shape_waits(st, c, j, melds)
    if how == "added":
        return True                 # the concealed hand is unchanged
    c2 = c.copy()
    if c2[k] < 3:
        return False
    c2[k] -= 3
    after = _shape_waits(st, c2, j, melds + (Meld("kong", k, True),))
    return bool(np.array_equal(before, after))


def standing_used(s, kind: int, n: int) -> int:
    """How many of the ``n`` tiles of physical ``kind`` that seat ``s`` puts into a meld are
    standing tiles (立四): the standing copies first while another standing tile is left,
    else the free copies; the standing ones when the free copies do not suffice."""
    st_k = int(s.standing[kind])
    free = int(s.phys[kind]) - st_k
    spare = max(0, int(s.standing.sum()) - 1)
    return max(n - free, min(st_k, spare, n))


def standing_left_after(s, taken: dict) -> int:
    """How many standing tiles (立四) seat ``s`` keeps after putting the concealed tiles
    ``taken`` (``{physical kind: n}``) into a meld (:func:`standing_used`)."""
    return int(s.standing.sum()) - sum(standing_used(s, k, n) for k, n in taken.items())


def call_leaves_discard(st, q, taken: dict) -> bool:
    """Whether seat ``q``, after putting the concealed tiles ``taken`` (``{kind: n}``) into
    a pung or chow, still holds a tile it may discard without declaring: a free (not
    standing) tile.  Always True without standing tiles."""
    s = st.seats[q]
    if not st.standing or not s.standing.any():
        return True
    left = int(s.phys.sum()) - sum(taken.values())
    return left - standing_left_after(s, taken) > 0


def _standing_kind(st) -> str:
    """The declaration a face-down standing tile makes: the concealed one where played."""
    kinds = [k for k in st.ready_kinds if k in ("concealed", "open")]
    return kinds[0] if kinds else st.ready_kinds[0]


def standing_declarations(st, p) -> list:
    """The kinds of seat ``p``'s standing tiles (立四) whose discard, face down, declares
    ready now: the 3n+1 hand left is ready (:func:`ready_waits`)."""
    s = st.seats[p]
    if s.declared or not st.ready_kinds:
        return []
    key = (p, s.phys.tobytes(), s.standing.tobytes(), len(s.melds))
    got = st._standing_cache.get(key)
    if got is not None:
        return got
    out = []
    c, j = st.play_counts(p)
    if _cg.shanten(c, st.shape_opts(p, False), j) > 0:
        st._standing_cache[key] = out          # no discard leaves it ready, by shape alone
        return out
    kind = _standing_kind(st)
    for k in np.flatnonzero(s.standing):
        k = int(k)
        s.phys[k] -= 1
        try:
            if ready_waits(st, p, kind):
                out.append(k)
        finally:
            s.phys[k] += 1
    st._standing_cache[key] = out
    return out

"""Who is ready at the end of a hand and what a ready hand is worth
(:class:`_Readiness`), read once for 查大叫, 退税, kong payments and the end table."""
from __future__ import annotations

import weakref

import numpy as np

from ...hand import Hand, Meld
from ...rules.model import game_model
from ...scoring.waiting import beyond_waits as _beyond_waits
from ..._core import game as _cg
from .facts import _beyond_forms
from .wins import check_win_fn


def _shape_waits(model, c, j, melds, so) -> np.ndarray:
    """``uint8 (34,)``: the kinds one more copy of which completes the 3n+1 hand ``c``
    (+ ``j`` jokers, ``melds``) by shape — the compiled check's waits (options ``so``)
    and those of :func:`~majiang.scoring.waiting.beyond_core` (十三烂, 将将胡 of any
    shape).  The candidates the end-of-hand readiness asks THE predicate about."""
    w = np.zeros(34, dtype=np.uint8)
    c = np.ascontiguousarray(c, dtype=np.uint8)
    _cg.waits(c, so, j, w)
    if _beyond_forms(model):
        w[_beyond_waits(model, c, melds, j)] = 1
    return w


class _Readiness:
    """Who is ready (下叫 / 听牌) at the end of a hand, and what a ready hand is worth: the
    one reading behind 查大叫 and 退税 (:func:`end_checks`), the kong payments only ready
    players collect (:attr:`KongPayments.collect`) and the end settlement's
    :class:`~majiang.rules.base.EndTable` (贵州 查叫, 鸡).

    Reading (docs/rules/sichuan.md §8: "a player still in but not ready (未下叫) pays each
    ready player that player's largest possible hand value"; docs/rules/guizhou.md §4 and
    docs/rules/sichuan.md §8:
    查叫 / 查大叫; the sources BK ``findMaxFanTingPai``, CQ ``getMaxHuType``, ST):

    * **ready**: a winner, or a seat whose concealed hand (jokers as the engine plays
      them) is completed by some tile kind into a valid win under THE predicate judged
      as a **self-draw** (with the seat's flowers).  A ready hand may always win by
      self-draw, where a win on a discard can be barred (贵州 通行证, self-draw-only
      rulesets), so a discard verdict would call such a hand not ready.  A wait whose
      every copy the seat holds itself (concealed or in its own melds: the 5th copy of a
      kong) is **no wait**: no tile can complete it.  Copies seen elsewhere (discards,
      other melds) do not exhaust a wait: readiness is a fact of the hand, not of the
      wall.
    * **value**: a winner's best win's points; a ready hand's largest value over its
      waits (with the seat's ready declaration, 报听 / 天听: a declared hand is worth
      what its win would be), each wait valued as a **win on a discard** where THE
      predicate allows one (a hand declared open: as the self-draw)
      (ST leaves 自摸 out of the "largest value": with 自摸加番 a self-draw would double
      it) and as the self-draw otherwise.

    Before this helper the two disagreed: 查大叫 judged readiness by a discard win and
    kept exhausted waits, the end table judged a self-draw and skipped them.
    """

    def __init__(self, st):
        # the hand is held weakly: the end table's lazy readiness (settlement._PerSeat)
        # keeps this reading, and the hand keeps the end table; a strong reference would
        # make a cycle that only the garbage collector frees
        try:
            self._st = weakref.ref(st)
        except TypeError:            # a plain namespace standing for a hand (tests)
            self._st = lambda: st
        self.rs = st.rs
        self.model = game_model(st.rs)
        self.check_win = check_win_fn()
        self.won = {}
        for w in st.wins:
            self.won[w["seat"]] = max(self.won.get(w["seat"], 0), int(w["points"]))
        self._got = {}
        self._val = {}

    @property
    def st(self):
        st = self._st()
        if st is None:
            raise RuntimeError("the readiness of a finished hand is read from its state "
                               "(keep the hand state, not only its end table)")
        return st

    def _counts(self, q):
        """(concealed counts as played, jokers) of seat q: the Python loop's
        ``play_counts``, or the compiled loop's physical tiles less its wild kind."""
        st = self.st
        if hasattr(st, "play_counts"):
            c, j = st.play_counts(q)
        else:
            c, j = np.array(st.seats[q].phys, dtype=np.uint8), 0
            for k in getattr(st, "jks", ()) or ():
                j += int(c[k])
                c[k] = 0
        return np.ascontiguousarray(c, dtype=np.uint8), j

    def _context(self, q):
        st = self.st
        return dict(ruleset=self.rs, seat_wind=(q - st.dealer) % st.n,
                    prevalent_wind=st.prevalent,
                    flowers=len(getattr(st.seats[q], "flowers", ()) or ()),
                    declared_ready=getattr(st.seats[q], "declared", ""),
                    seat_fan=self.model.seat_fan(getattr(st.seats[q], "discards", ())))

    def _valid(self, q):
        """``[(hand, wait kind, faces kwargs, self-draw verdict)]`` of seat q's valid
        waits (computed once)."""
        got = self._got.get(q)
        if got is not None:
            return got
        st, model = self.st, self.model
        seat = st.seats[q]
        c, j = self._counts(q)
        melds = tuple(Meld(m["kind"], m["tile"], m["concealed"]) for m in seat.melds)
        got = []
        if (int(c.sum()) + j + 3 * len(melds)) % 3 == 1:
            so = model.shape(()).game_opts(len(melds), pairs=False, fifth=False)
            w = _shape_waits(model, c, j, melds, so)
            if not (w.any() or getattr(st, "by_faces", False)
                    or (model.three_jokers_win and j >= model.jokers_to_win)):
                self._got[q] = got          # no wait by shape: nothing to ask
                return got
            hand = Hand(c, melds, jokers=j)
            faces = {}
            if getattr(st, "by_faces", False):     # THE predicate reads the faces
                ph = np.array(seat.phys, dtype=np.uint8)
                hand = Hand(ph, melds)
                faces = {"indicator": st.indicator if st.indicator is not None else st.jk}
                if j:                    # a wild tile as its own face (南昌 德国)
                    w |= _shape_waits(model, ph, 0, melds, so)
            if model.three_jokers_win and j >= model.jokers_to_win:
                w[:] = 1                 # 三金倒 / 四鬼胡: the jokers win on any self-draw
            held = c.astype(np.int64)
            for m in seat.melds:
                for t in m["tiles"]:
                    if t < 34:
                        held[t] += 1
            for k in np.flatnonzero(w):
                k = int(k)
                if held[k] >= int(model.copies[k]):
                    continue          # no copy left to complete it
                if faces and k in st.jks:
                    continue          # a natural copy of a wild kind's face: none
                r = self.check_win(hand, k, self_drawn=True, **self._context(q), **faces)
                if r.valid:
                    got.append((hand, k, faces, r))
        self._got[q] = got
        return got

    def _points(self, r) -> int:
        return (int(r.result.points) if hasattr(r.result, "points")
                else int(self.rs.points(r.result.total)))

    def ready(self, q) -> bool:
        return q in self.won or bool(self._valid(q))

    def value(self, q):
        """The seat's value (see the class), None when it is not ready."""
        if q in self.won:
            return self.won[q]
        got = self._val.get(q, False)
        if got is not False:
            return got
        best = None
        ctx = self._context(q)
        for hand, k, faces, r in self._valid(q):
            if ctx["declared_ready"] == "open":      # a hand shown wins only self-drawn
                v = self._points(r)
            else:
                d = self.check_win(hand, k, self_drawn=False, **ctx, **faces)
                v = self._points(d if d.valid else r)
            best = v if best is None else max(best, v)
        self._val[q] = best
        return best

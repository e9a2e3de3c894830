"""The turn loop of the Python loop (:class:`_Game`): draw, the player's own turn (win,
kongs, discard), claims on the discard, the end of the hand."""
from __future__ import annotations

import numpy as np

from .claims import _Claims, call_ok
from .deal import _Deal
from .declare import kong_keeps_waits, offered_kinds, ready_waits
from .open_kong import _OpenKong
from .policy import _Asking
from .settlement import end_checks
from .state import HandState


class _Game(_Asking, _Deal, _Claims, _OpenKong):
    """One hand played in Python: the deal (:class:`~.deal._Deal`), the turn loop
    here, claims (:class:`~.claims._Claims`), 开杠 (:class:`~.open_kong._OpenKong`), the
    policies asked through :class:`~.policy._Asking`."""

    def __init__(self, st: HandState, policies, views):
        self.st = st
        self.pol = policies
        self.views = views

    # -- asking policies -------------------------------------------------

    def run(self):
        self.deal()
        st = self.st
        if st.flower_win:
            for i in range(st.n):         # every flower at the deal: 八仙過海 at once
                p = (st.dealer + i) % st.n
                if len(st.seats[p].flowers) == st.model.n_flowers:
                    st.flower_winner = p
                    return self.end("wall")
        if st.rob_one and st.check_rob_one():   # seven and one at the deal: 七搶一
            return self.end("wall")
        if "deal" in st.ready_kinds:       # 天听: the non-dealers' dealt hands (.declare)
            for i in range(1, st.n):
                p = (st.dealer + i) % st.n
                waits = ready_waits(st, p, "deal")
                if waits:
                    kind = self.ask_ready(p, None, waits, ("deal",))
                    if kind:
                        st.seats[p].declared = kind
        return self.loop()

    def loop(self):
        st = self.st
        cur = st.dealer
        drawn = st.seats[cur].drawn
        kong_flag = False
        mode = "turn"
        while True:
            if mode in ("draw", "kong_draw"):
                t = st.draw(cur, from_tail=(mode == "kong_draw"))
                if t is None:
                    return self.end("wall")
                drawn, kong_flag = t, mode == "kong_draw"
                mode = "turn"
            if mode == "turn":
                outcome = self.own_turn(cur, drawn, kong_flag)
            else:                         # after a pung / chow: discard only
                outcome = ("discard", self.do_discard(cur))
            if outcome[0] == "end":
                return self.end(outcome[1])
            if outcome[0] == "next":      # after a blood win: play passes on
                cur = outcome[1]
                if cur is None:
                    return self.end("blood")
                mode = "draw"
                continue
            if st.discard_history is not None and st.discard_win(cur, outcome[1]):
                return self.end("win")    # 出牌即胡 (十风): the discard wins at once
            res = self.after_discard(cur, outcome[1])
            if res[0] == "end":
                return self.end(res[1])
            if res[0] == "next":
                cur = res[1]
                if cur is None:
                    return self.end("blood" if res[2] else "wall")
                mode = "draw"
            elif res[0] == "claimed":
                cur = res[1]
                mode = "discard_only"
            else:                         # exposed kong: replacement draw, own turn
                cur = res[1]
                mode = "kong_draw"
                out = self.after_kong(cur, st.play_kind(outcome[1]))    # or 开杠
                if out is not None:
                    if out[0] == "end":
                        return self.end(out[1])
                    cur = out[1]
                    if cur is None:
                        return self.end("blood")
                    mode = "draw"

    def next_active(self, p):
        st = self.st
        for i in range(1, st.n + 1):
            q = (p + i) % st.n
            if not st.seats[q].out:
                return q
        return None

    def blood_done(self):
        st = self.st
        if st.rs.blood == "xuezhan":
            return sum(1 for s in st.seats if not s.out) <= 1
        return False

    def own_turn(self, p, drawn, kong_flag):
        """Win / kongs / discard for seat p holding a drawn tile.  Returns
        ("discard", tile), ("end", reason) or ("next", seat)."""
        st = self.st
        s = st.seats[p]
        cg = st.model.calls
        while True:
            options = []
            last = st.at_last(p)
            res = st.try_win(p, drawn, self_drawn=True, kong=kong_flag, last_tile=last)
            if res is not None and res.valid:
                options.append(("win",))
            if not s.locked and st.may_kong(p):
                if "concealed_kong" in cg:
                    for k in np.flatnonzero(s.phys >= 4):
                        k = int(k)
                        if (k not in st.jks or st.joker_rule.kong) and k != st.sub and \
                                k not in st.model.setless_kinds and \
                                not (s.void >= 0 and k < 27 and k // 9 == s.void) and \
                                not (s.declared and not kong_keeps_waits(st, p, k, "concealed")) \
                                and call_ok(st, p, "concealed_kong", k):
                            options.append(("concealed_kong", k))
                if "added_kong" in cg:
                    for m in s.melds:
                        if m["kind"] == "pung" and s.phys[m["tile"]] and m["tile"] not in st.jks \
                                and m["tile"] != st.sub and not (
                                    s.declared
                                    and not kong_keeps_waits(st, p, m["tile"], "added")) \
                                and call_ok(st, p, "added_kong", m["tile"]):
                            options.append(("added_kong", m["tile"]))
            if st.flower_jokers and not s.phys.any() and ("win",) in options:
                choice = ("win",)   # 花鬼: only flower jokers held, none to discard: it wins
            elif ("win",) in options and st.must_win():
                choice = ("win",)                 # 最后四张: the win is taken, not asked
            else:
                choice = self.ask_declare(p, options) if options else None
            if choice is None:
                break
            if choice[0] == "win":
                st.record_win(p, drawn, res, self_drawn=True, kong=kong_flag)
                return self.after_win([p], last_tile_taken=drawn, self_draw=True)
            k = choice[1]
            if choice[0] == "concealed_kong":
                st.take(p, k, 4)
                st.add_meld(p, "kong", k, True, [k] * 4)
                s.n_kongs_concealed += 1
                st._log(e="kong", seat=p, kind="concealed", tile=k)
                st.kong_ledger.kong(p, "concealed", [x.out for x in st.seats], st.turns,
                                    wild=st.jks.index(k) if k in st.jks else -1)
                st.note_kong(p)
            else:
                st.take(p, k, 1)
                for m in s.melds:
                    if m["kind"] == "pung" and m["tile"] == k:
                        m["kind"] = "kong"
                        m["tiles"].append(k)
                        m["how"] = "added"
                        break
                st.visible[k] += 1
                s.meld_counts[k] += 1
                st._melds_changed(p)
                s.n_kongs_exposed += 1
                st.interrupted = True
                st._log(e="kong", seat=p, kind="added", tile=k)
                # robbing the kong
                robbed = self.claim_round(p, k, robbing=True)
                if robbed is not None:
                    return robbed
                st.kong_ledger.kong(p, "added", [x.out for x in st.seats], st.turns,
                                    late=k != drawn)
                st.note_kong(p)
            out = self.after_kong(p, k)           # 开杠 instead of the replacement
            if out is not None:
                return out
            t = st.draw(p, from_tail=True)
            if t is None:
                return ("end", "wall")
            drawn, kong_flag = t, True
        return ("discard", self.do_discard(p))

    def do_discard(self, p):
        st = self.st
        s = st.seats[p]
        t = self.ask_discard(p)
        s.phys[t] -= 1
        s.n_discarded += 1
        s.passed.clear()
        s.pass_all = False
        st.hidden_discard = False
        if st.standing and not s.declared and s.standing[t]:
            st.hidden_discard = self.offer_standing(p, t)
        if st.hidden_discard:                  # 立四: face down, out of every pool
            s.face_down.append(t)
            s.drawn = None
            st._changed(p)
            st.turns += 1
            return t
        st.to_pool(p, t)
        if st.ready_kinds and not s.declared and not s.locked and not st.standing:
            self.offer_ready(p, t)
        st.last_discard = (p, t)
        st.discard_after_kong = st.kong_mark == (p, st.turns)     # 杠上炮 if won on
        s.drawn = None
        st._changed(p)
        st.turns += 1
        if t not in st.first_discards:
            st.first_discards[t] = [p, None, st.turns]
        return t

    def offer_ready(self, p, t):
        """报听 with discard ``t`` (:mod:`.declare`): when the hand left is ready, ask the
        policy; a declaration locks the hand and is logged and shown to all."""
        st = self.st
        offered = offered_kinds(st, p)
        if not offered:
            return
        waits = ready_waits(st, p, offered[0])
        if not waits:
            return
        kind = self.ask_ready(p, t, waits, offered)
        if kind:
            st.seats[p].declared = kind

    def offer_standing(self, p, t):
        """报听 with a standing tile of kind ``t`` (立四, :mod:`.declare`), the discard made:
        when the hand left is ready the seat declares — asked when it also held a free
        copy of ``t`` (a "no" throws that one), else made for it (logged ``forced``).
        True when it declared: the tile then lies face down."""
        st = self.st
        s = st.seats[p]
        offered = offered_kinds(st, p)
        waits = ready_waits(st, p, offered[0]) if offered else []
        if not waits:
            return False                       # (legal: a free copy of t is thrown)
        if s.phys[t] >= s.standing[t]:         # a free copy was held: asked
            kind = self.ask_ready(p, t, waits, offered)
        else:
            kind = offered[0]
            st._log(e="ready", seat=p, tile=int(t), options=list(offered),
                    waits=list(waits), choice=kind, forced=True)
        if not kind:
            return False
        s.declared = kind
        s.standing[t] -= 1
        st.mark_face_down(p)
        return True

    def discard_only(self, p):
        return ("discard", self.do_discard(p))

    def end(self, reason):
        st = self.st
        if reason == "wall" and st.flower_winner is not None:
            st.record_flower_win(st.flower_winner)      # the draw stopped at the last flower
            reason = "win"
        st.ended = True
        st.end_reason = reason
        end_checks(st)
        tb = getattr(st, "end_table", None)
        if tb is not None and st.events is not None:
            st._log(e="end_table", turned=tb.turned, ready=list(tb.ready),
                    values=list(tb.values))
        for c in st.end_checks:
            st._log(e="end_check", **c)
        st._log(e="end", reason=reason, deltas=list(st.deltas), wall_left=st.wall_left)
        return st

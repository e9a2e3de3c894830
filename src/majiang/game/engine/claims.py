"""Claims in the Python loop: a discard or a robbable added kong offered to the other
seats (win > kong / pung > chow, 过水 / 漏和), the wins on it, the call made, and what
follows a win (the hand ends, or play passes on under 血战 / 血流)."""
from __future__ import annotations

from ...hand import chow_tiles, chows_holding
from .declare import call_leaves_discard
from .wins import first_winner


def call_ok(st, q, call, kind) -> bool:
    """Whether seat ``q`` may make ``call`` of ``kind`` under the ruleset's limits on
    calls (:attr:`~majiang.rules.model.RuleSpec.call_limit`, 内蒙 敖汉); True without any."""
    lim = st.model.call_limit
    if lim is None:
        return True
    s = st.seats[q]
    melds = tuple((m["kind"], m["tile"], m["concealed"]) for m in s.melds)
    return bool(lim(call, kind, melds, int(s.phys.sum()), st.wall_left))


def _may_win(kind, passed):
    from ...rules.shandong import may_win
    return may_win(kind, passed)


class _Claims:
    """Claims and wins on them (a mixin of :class:`~majiang.game.engine.loop._Game`)."""

    def claim_round(self, p, tile, robbing=False):
        """Ask the other seats about ``tile`` (a discard or a robbable added kong).

        Robbing: returns None when nobody robs, else the outcome of the win(s).
        """
        st = self.st
        n = st.n
        last = st.at_last(p)
        kind = st.play_kind(tile)
        is_joker = tile in st.jks
        # a discarded joker is won on only, unless the ruleset lets it be claimed
        # (JokerRule.be_claimed, 南昌): then as its face, punged / konged with copies of
        # that face, chowed with two other tiles
        meld_ok = not is_joker or st.joker_rule.be_claimed
        asks = []
        wins = {}
        for i in range(1, n):
            q = (p + i) % n
            sq = st.seats[q]
            if sq.out:
                continue
            options = []
            locked = st.pass_lock is not None and not sq.declared and (
                sq.pass_all or (st.pass_lock == "kind" and not _may_win(kind, sq.passed)))
            res = None if locked else st.try_win(q, tile, self_drawn=False, robbing=robbing,
                                                 last_tile=last and not robbing, discarder=p)
            if res is not None and res.valid:
                options.append(("win",))
                wins[q] = res
            if not robbing and not last and not sq.locked and not sq.declared and \
                    meld_ok and \
                    not (sq.void >= 0 and kind < 27 and kind // 9 == sq.void):
                cg = st.model.calls
                held = int(sq.phys[tile])
                two = call_leaves_discard(st, q, {tile: 2})
                if "exposed_kong" in cg and held >= 3 and st.can_draw(q) and \
                        kind not in st.model.setless_kinds and \
                        call_ok(st, q, "exposed_kong", kind):
                    options.append(("kong",))
                if "pung" in cg and held >= 2 and two \
                        and kind not in st.model.unclaimable_pung_kinds \
                        and not (st.flower_jokers and int(sq.phys.sum()) <= 2) \
                        and call_ok(st, q, "pung", kind):
                    # (花鬼: a pung may not leave only flower jokers, never discarded)
                    options.append(("pung",))
                if "chow_left" in cg and i == 1 and tile == kind:
                    # from the seat before only; honour chows (南昌) as suited ones
                    for a in chows_holding(kind, st.model.honor_chows):
                        need = [x for x in chow_tiles(a) if x != kind]
                        if all(x not in st.jks and sq.phys[x] > 0 for x in need) and \
                                call_leaves_discard(st, q, {x: 1 for x in need}) and \
                                call_ok(st, q, "chow", a):
                            options.append(("chow", a))
            if options:
                asks.append((q, options))
        if not asks:
            return None if robbing else ("none",)
        choices = {}
        forced = st.must_win()                    # 最后四张: a possible win is taken
        for q, options in asks:
            choices[q] = ("win",) if forced and q in wins else self.ask_claim(q, options)
        winners = [q for q, _ in asks if choices[q] == ("win",)]
        if st.pass_lock is not None:
            for q in wins:
                if choices[q] != ("win",):          # a win passed: 过水 / 漏和
                    st.seats[q].passed.add(kind)
                    st.seats[q].pass_all = st.pass_lock == "all"
                    st._log(e="pass_win", seat=q, tile=int(tile))
        if winners:
            if st.rs.winners != "multiple":
                winners = [first_winner(st.rs, winners, wins)]
            for q in winners:
                st.record_win(q, tile, wins[q], self_drawn=False, discarder=p,
                              robbing=robbing)
            if not robbing:
                st.kong_ledger.transfer(p, winners, st.turns)
            # the tile goes to the (first) winner
            if robbing:
                sp = st.seats[p]
                for m in sp.melds:
                    if m["kind"] == "kong" and m["tile"] == kind and not m["concealed"] \
                            and len(m["tiles"]) == 4:
                        m["kind"] = "pung"
                        m["tiles"].pop()
                        m.pop("how", None)
                        break
                st.visible[kind] -= 1
                sp.meld_counts[kind] -= 1
                sp.n_kongs_exposed -= 1
                st._melds_changed(p)
            else:
                sp = st.seats[p]
                sp.discards.pop()
                st.visible[kind] -= 1
            st.seats[winners[0]].won_tiles.append(tile)
            return self.after_win(winners, last_tile_taken=tile, self_draw=False, frm=p)
        if robbing:
            return None
        for q, _ in asks:
            c = choices[q]
            if c is not None and c[0] in ("kong", "pung"):
                return ("meld", q, c)
        for q, _ in asks:
            c = choices[q]
            if c is not None and c[0] == "chow":
                return ("meld", q, c)
        return ("none",)

    def after_win(self, winners, *, last_tile_taken, self_draw, frm=None):
        """Mark winners; end the hand or pass play on (blood rules)."""
        st = self.st
        st.interrupted = True
        if not st.rs.blood:
            # a self-drawn winning tile stays in the winner's hand (shown)
            return ("end", "win")
        for q in winners:
            s = st.seats[q]
            if self_draw:
                s.phys[last_tile_taken] -= 1
                s.won_tiles.append(last_tile_taken)
                st._changed(q)
            if st.rs.blood == "xuezhan":
                s.out = True
            else:
                s.locked = True
            s.drawn = None
        if self.blood_done():
            return ("end", "blood")
        # play passes to the seat after the last winner (in turn order from the discarder)
        if self_draw:
            last = winners[0]
        else:
            last = max(winners, key=lambda q: (q - frm) % st.n)
        return ("next", self.next_active(last))

    def after_discard(self, p, tile):
        """Claims on seat p's discard.  Returns ("end", r), ("next", seat, blood),
        ("claimed", seat) or ("kong", seat)."""
        st = self.st
        if st.hidden_discard:                 # 立四: a face-down declaration, never claimed
            if st.at_last(p):
                return ("next", None, False)
            return ("next", self.next_active(p), False)
        res = self.claim_round(p, tile)
        if res[0] == "end":
            return res
        if res[0] == "next":
            return ("next", res[1], True)
        if res[0] == "meld":
            q, c = res[1], res[2]
            sq = st.seats[q]
            sp = st.seats[p]
            sp.discards.pop()
            st.end_turn_order(True)
            kind = st.play_kind(tile)
            st.visible[kind] -= 1
            if c[0] == "kong":
                st.take(q, tile, 3)
                st.add_meld(q, "kong", kind, False, [tile] * 4, frm=p, claimed=tile)
                sq.n_kongs_exposed += 1
                st.kong_ledger.kong(q, "exposed", [x.out for x in st.seats], st.turns,
                                    discarder=p)
                st.note_kong(q, p)
            elif c[0] == "pung":
                st.take(q, tile, 2)
                st.add_meld(q, "pung", kind, False, [tile] * 3, frm=p, claimed=tile)
            else:
                a = c[1]
                tiles = [tile]
                for x in chow_tiles(a):
                    if x != kind:
                        st.take(q, x, 1)
                        tiles.append(x)
                st.add_meld(q, "chow", a, False, sorted(tiles), frm=p, claimed=tile)
            sq.n_calls += 1
            fd = st.first_discards.get(tile)
            if fd is not None and fd[2] == st.turns and fd[0] == p:
                fd[1] = q                 # the first discard of its kind was claimed
            st._changed(q)
            st._log(e="call", seat=q, kind=c[0], tile=int(tile), frm=p,
                    start=int(c[1]) if c[0] == "chow" else None)
            return ("kong", q) if c[0] == "kong" else ("claimed", q)
        # nobody claimed
        if st.at_last(p):
            return ("next", None, False)
        return ("next", self.next_active(p), False)

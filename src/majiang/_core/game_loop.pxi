# Part of game.pyx (included): the compiled turn loop: draws, the own turn (win,
# kongs), discards, claims on them (win > kong / pung > chow, 过水), what follows a win,
# 开杠 (the tiles a ready konger turns instead of a 补张: game/engine/open_kong.py).


cdef class FastHand(_HandBots):
    """One hand played by built-in bots in compiled code (no jokers, core forms only).

    Mirrors :class:`majiang.game.engine._Game` move for move (same seeds, same
    hands); wins are judged by THE predicate through ``bridge.check`` and paid
    through ``bridge.record`` (Python), only for complete shapes.
    """
    cdef int optkind_last       # the call chosen in the last claim round (O_KONG …)
    cdef int optarg_last        # and its argument (a chow's first kind)

    # ------------------------------------------------------------ the loop
    cpdef int run(self) except -1:
        cdef int cur = self.dealer, drawn = self.seats[self.dealer].drawn, kong_flag = 0
        cdef int mode = 0     # 0 turn, 1 draw, 2 kong draw, 3 discard only
        cdef int code, out, t
        cdef int res_code, res_a, res_b
        while True:
            if mode == 1 or mode == 2:
                t = self.draw(cur, mode == 2)
                if t < 0:
                    return self.finish(E_WALL)
                drawn = t
                kong_flag = mode == 2
                mode = 0
            if mode == 0:
                code = self.own_turn(cur, drawn, kong_flag, &out)
            else:
                out = self.do_discard(cur)
                code = R_DISCARD
            if code == R_END:
                return self.finish(out)
            if code == R_NEXT:
                cur = out
                if cur < 0:
                    return self.finish(E_BLOOD)
                mode = 1
                continue
            # a discard: claims
            res_code = self.claim_round(cur, out, 0, &res_a, &res_b)
            if res_code == R_END:
                return self.finish(res_a)
            if res_code == R_NEXT:
                if res_a < 0:
                    return self.finish(E_BLOOD)
                cur = res_a
                mode = 1
                continue
            if res_code == R_MELD:
                self.make_meld(cur, out, res_a, res_b)
                cur = res_a
                mode = 2 if self.optkind_last == O_KONG else 3
                if mode == 2:
                    code = self.after_kong(cur, &t)         # or 开杠
                    if code == R_END:
                        return self.finish(t)
                    if code == R_NEXT:
                        if t < 0:
                            return self.finish(E_BLOOD)
                        cur = t
                        mode = 1
                continue
            # nobody claimed
            if not self.can_draw():
                return self.finish(E_WALL)
            cur = self.next_active(cur)
            mode = 1

    cdef int finish(self, int reason) except -1:
        self.end_reason = reason
        return reason

    cdef int next_active(self, int p) noexcept:
        cdef int i, q
        for i in range(1, self.n + 1):
            q = (p + i) % self.n
            if not self.seats[q].out:
                return q
        return -1

    cdef int do_discard(self, int p) except -1:
        cdef FSeat* s = &self.seats[p]
        cdef int t = self.bot_discard(p)
        s.phys[t] -= 1
        s.ndisc_made += 1
        s.s13_ok = 0
        s.passed = 0
        s.pass_all = 0
        if s.n_disc >= MAXD:
            raise RuntimeError("compiled loop: discard pool full")
        s.disc[s.n_disc] = t
        s.n_disc += 1
        self.visible[t] += 1
        self.last_disc = t
        self.disc_after_kong = self.kong_seat == p and self.kong_turn == self.turns
        s.drawn = -1
        self.turns += 1
        if self.fd_seat[t] < 0:
            self.fd_seat[t] = p
            self.fd_turn[t] = self.turns
        return t

    cdef int own_turn(self, int p, int drawn, int kong_flag, int* out) except -1:
        cdef FSeat* s = &self.seats[p]
        cdef int ok[MAXOPT]
        cdef int ot[MAXOPT]
        cdef int nopt, k, i, ch, t, code
        cdef bint last
        while True:
            nopt = 0
            last = not self.can_draw()
            res = self.try_win(p, drawn, True, kong_flag, False, last)
            if res is not None and res.valid:
                ok[nopt] = O_WIN
                ot[nopt] = 0
                nopt += 1
            if not s.locked and self.can_draw():
                if self.ckong:
                    for k in range(34):
                        if s.phys[k] >= 4 and k != self.jk and not ((self.no_set >> k) & 1) and \
                                not (s.void >= 0 and k < 27 and k // 9 == s.void) and \
                                self.call_ok(p, "concealed_kong", k):
                            ok[nopt] = O_CKONG
                            ot[nopt] = k
                            nopt += 1
                if self.akong:
                    for i in range(s.n_melds):
                        if s.melds[i].kind == 1 and s.phys[s.melds[i].tile] and \
                                s.melds[i].tile != self.jk and \
                                self.call_ok(p, "added_kong", s.melds[i].tile):
                            ok[nopt] = O_AKONG
                            ot[nopt] = s.melds[i].tile
                            nopt += 1
            ch = self.bot_declare(p, nopt, ok, ot) if nopt else -1
            if ch < 0:
                break
            if ok[ch] == O_WIN:
                self.record(p, drawn, res, True, -1, kong_flag, False)
                return self.after_win_self(p, drawn, out)
            k = ot[ch]
            if ok[ch] == O_CKONG:
                s.phys[k] -= 4
                self.add_meld(p, 2, k, 1, -1)
                s.kcon += 1
                if self.pay_kongs:
                    self.bridge.kong(p, "concealed", self.outs(), self.turns, -1, False)
                self.kong_seat = p
                self.kong_turn = self.turns
                self.kong_from = -1
            else:
                s.phys[k] -= 1
                s.s13_ok = 0
                for i in range(s.n_melds):
                    if s.melds[i].kind == 1 and s.melds[i].tile == k:
                        s.melds[i].kind = 2
                        s.melds[i].n = 4
                        s.melds[i].added = 1
                        break
                self.visible[k] += 1
                s.exposed[k] += 1
                s.meldall[k] += 1
                s.kexp += 1
                self.interrupted = 1
                code = self.rob(p, k, out)
                if code >= 0:
                    return code
                if self.pay_kongs:
                    self.bridge.kong(p, "added", self.outs(), self.turns, -1, k != drawn)
                self.kong_seat = p
                self.kong_turn = self.turns
                self.kong_from = -1
            code = self.after_kong(p, out)                  # 开杠 instead of the replacement
            if code >= 0:
                return code
            t = self.draw(p, True)
            if t < 0:
                out[0] = E_WALL
                return R_END
            drawn = t
            kong_flag = 1
        out[0] = self.do_discard(p)
        return R_DISCARD

    cdef void add_meld(self, int p, int kind, int tile, int concealed, int frm) noexcept:
        cdef FSeat* s = &self.seats[p]
        cdef FMeld* m = &s.melds[s.n_melds]
        cdef int k
        s.s13_ok = 0
        self.interrupted = 1
        m.kind = kind
        m.tile = tile
        m.concealed = concealed
        m.frm = frm
        m.n = 4 if kind == 2 else 3
        m.added = 0
        s.n_melds += 1
        if kind == 0:
            for k in range(tile, tile + 3):
                s.meldall[k] += 1
                if not concealed:
                    s.exposed[k] += 1
                    self.visible[k] += 1
        else:
            s.meldall[tile] += m.n
            if not concealed:
                s.exposed[tile] += m.n
                self.visible[tile] += m.n

    cdef int rob(self, int p, int k, int* out) except -2:
        """Robbing an added kong: -1 nobody robs, else an outcome code (out set)."""
        cdef int a, b
        cdef int code = self.claim_round(p, k, 1, &a, &b)
        if code == R_ROBBED_NONE:
            return -1
        out[0] = a
        return code

    cdef int claim_round(self, int p, int tile, bint robbing, int* ra, int* rb) except -1:
        cdef int i, q, nask = 0, j, held, a, x, y, nw, code
        cdef int askq[4]
        cdef int nopt[4]
        cdef int ok[4][MAXOPT]
        cdef int ot[4][MAXOPT]
        cdef int choice[4]
        cdef int winners[4]
        cdef bint last = not self.can_draw()
        cdef FSeat* sq
        cdef FSeat* sp
        wins = None             # WinChecks by seat, made only when someone may win
        for i in range(1, self.n):
            q = (p + i) % self.n
            sq = &self.seats[q]
            if sq.out:
                continue
            j = 0
            res = None
            if not (self.pass_lock and (sq.pass_all or (self.pass_lock == 1 and
                                                         (sq.passed >> tile) & 1))):
                res = self.try_win(q, tile, False, False, robbing, last and not robbing)
            if res is not None and res.valid:
                ok[nask][j] = O_WIN
                ot[nask][j] = 0
                j += 1
                if wins is None:
                    wins = [None] * self.n
                wins[q] = res
            if not robbing and not last and not sq.locked and tile != self.jk and \
                    not (sq.void >= 0 and tile < 27 and tile // 9 == sq.void):
                held = sq.phys[tile]
                if (self.no_set >> tile) & 1:
                    held = 0            # 武汉 红中: never punged or konged
                if self.ekong and held >= 3 and self.can_draw() and \
                        self.call_ok(q, "exposed_kong", tile):
                    ok[nask][j] = O_KONG
                    ot[nask][j] = 0
                    j += 1
                if self.pung and held >= 2 and self.call_ok(q, "pung", tile):
                    ok[nask][j] = O_PUNG
                    ot[nask][j] = 0
                    j += 1
                if self.chow and i == 1 and tile < 27:
                    for a in range(tile - 2, tile + 1):
                        if a < 0 or a // 9 != tile // 9 or a % 9 > 6:
                            continue
                        y = 1
                        for x in range(a, a + 3):
                            if x != tile and (sq.phys[x] == 0 or x == self.jk):
                                y = 0
                        if y and self.call_ok(q, "chow", a):
                            ok[nask][j] = O_CHOW
                            ot[nask][j] = a
                            j += 1
            if j:
                askq[nask] = q
                nopt[nask] = j
                nask += 1
        if nask == 0:
            return R_ROBBED_NONE if robbing else R_NONE
        for i in range(nask):
            choice[i] = self.bot_claim(askq[i], tile, nopt[i], ok[i], ot[i])
        nw = 0
        for i in range(nask):
            if choice[i] >= 0 and ok[i][choice[i]] == O_WIN:
                winners[nw] = askq[i]
                nw += 1
        if self.pass_lock:
            for i in range(nask):
                q = askq[i]
                if wins is not None and wins[q] is not None and \
                        not (choice[i] >= 0 and ok[i][choice[i]] == O_WIN):
                    self.seats[q].passed |= (<uint64_t>1) << tile
                    self.seats[q].pass_all = self.pass_lock == 2
        if nw:
            if not self.multiple:
                nw = 1
            for i in range(nw):
                self.record(winners[i], tile, wins[winners[i]], False, p, False, robbing)
            if self.pay_kongs and not robbing:
                self.bridge.transfer(p, [winners[i] for i in range(nw)], self.turns)
            sp = &self.seats[p]
            if robbing:
                for i in range(sp.n_melds):
                    if sp.melds[i].kind == 2 and sp.melds[i].tile == tile and \
                            not sp.melds[i].concealed:
                        sp.melds[i].kind = 1
                        sp.melds[i].n = 3
                        sp.melds[i].added = 0
                        break
                self.visible[tile] -= 1
                sp.exposed[tile] -= 1
                sp.meldall[tile] -= 1
                sp.kexp -= 1
            else:
                sp.n_disc -= 1
                self.visible[tile] -= 1
            sq = &self.seats[winners[0]]
            if sq.n_won >= MAXWON:
                raise RuntimeError("compiled loop: too many wins for one seat")
            sq.won[sq.n_won] = tile
            sq.n_won += 1
            code = self.after_win(winners, nw, tile, False, p, ra)
            return code
        if robbing:
            return R_ROBBED_NONE
        for i in range(nask):
            if choice[i] >= 0 and (ok[i][choice[i]] == O_KONG or ok[i][choice[i]] == O_PUNG):
                ra[0] = askq[i]
                self.optkind_last = ok[i][choice[i]]
                self.optarg_last = ot[i][choice[i]]
                return R_MELD
        for i in range(nask):
            if choice[i] >= 0 and ok[i][choice[i]] == O_CHOW:
                ra[0] = askq[i]
                self.optkind_last = O_CHOW
                self.optarg_last = ot[i][choice[i]]
                return R_MELD
        return R_NONE

    cdef list outs(self):
        return [bool(self.seats[i].out) for i in range(self.n)]

    cdef void make_meld(self, int p, int tile, int q, int unused) except *:
        cdef FSeat* sq = &self.seats[q]
        cdef FSeat* sp = &self.seats[p]
        cdef int a, x
        sp.n_disc -= 1
        self.visible[tile] -= 1
        if self.open_turns < 0:
            self.open_turns = self.turns - 1
        if self.optkind_last == O_KONG:
            sq.phys[tile] -= 3
            self.add_meld(q, 2, tile, 0, p)
            sq.kexp += 1
            if self.pay_kongs:
                self.bridge.kong(q, "exposed", self.outs(), self.turns, p, False)
            self.kong_seat = q
            self.kong_turn = self.turns
            self.kong_from = p
        elif self.optkind_last == O_PUNG:
            sq.phys[tile] -= 2
            self.add_meld(q, 1, tile, 0, p)
        else:
            a = self.optarg_last
            for x in range(a, a + 3):
                if x != tile:
                    sq.phys[x] -= 1
            self.add_meld(q, 0, a, 0, p)
        sq.calls += 1
        if self.fd_seat[tile] == p and self.fd_turn[tile] == self.turns:
            self.fd_claim[tile] = q

    cdef int after_win_self(self, int p, int tile, int* out) except -1:
        cdef int w[1]
        w[0] = p
        return self.after_win(w, 1, tile, True, -1, out)

    cdef int after_win(self, int* winners, int nw, int tile, bint self_draw, int frm,
                       int* out) except -1:
        cdef int i, q, last, d, best_d
        cdef FSeat* s
        self.interrupted = 1
        if not self.blood:
            out[0] = E_WIN
            return R_END
        for i in range(nw):
            s = &self.seats[winners[i]]
            if self_draw:
                s.phys[tile] -= 1
                s.s13_ok = 0
                if s.n_won >= MAXWON:
                    raise RuntimeError("compiled loop: too many wins for one seat")
                s.won[s.n_won] = tile
                s.n_won += 1
            if self.blood == 1:
                s.out = 1
            else:
                s.locked = 1
            s.drawn = -1
        if self.blood == 1:
            q = 0
            for i in range(self.n):
                if not self.seats[i].out:
                    q += 1
            if q <= 1:
                out[0] = E_BLOOD
                return R_END
        if self_draw:
            last = winners[0]
        else:
            last = winners[0]
            best_d = -1
            for i in range(nw):
                d = (winners[i] - frm + self.n) % self.n
                if d > best_d:
                    best_d = d
                    last = winners[i]
        out[0] = self.next_active(last)
        return R_NEXT

    cdef void record(self, int p, int tile, object res, bint self_drawn, int discarder,
                     bint kong, bint robbing) except *:
        if self.open_turns < 0:     # the claimed discard is not part of the turn order
            self.open_turns = self.turns - (0 if (self_drawn or robbing) else 1)
        outs = [bool(self.seats[q].out) for q in range(self.n)]
        self.bridge.record(p, tile, res, self_drawn, None if discarder < 0 else discarder,
                           kong, robbing, outs)

    # ------------------------------------------------------------ 开杠 (engine/open_kong.py)
    cdef int after_kong(self, int p, int* out) except -2:
        """Seat p has made a kong: -1 for a 补张 (the caller draws the replacement), else
        the outcome code of its 开杠 (``out`` set), as :meth:`_OpenKong.after_kong`."""
        cdef FSeat* s = &self.seats[p]
        cdef int waits[34]
        cdef int nw = 0, k
        cdef bint yes
        if not self.kong_reveal or s.locked or self.left() - self.kept() < self.kong_reveal:
            return -1
        for k in range(34):
            if k == self.jk or s.phys[k] + s.meldall[k] >= self.copies[k]:
                continue
            s.phys[k] += 1
            res = self.try_win(p, k, True, False, False, False)
            s.phys[k] -= 1
            if res is not None and res.valid:
                waits[nw] = k
                nw += 1
        if not nw:
            return -1
        if s.ptype == 0:
            yes = self.pick(p, 2) == 1
        else:
            yes = self.open_chance(p, waits, nw) >= self.ok_chance
        if not yes:
            return -1
        return self.open_kong(p, out)

    cdef double open_chance(self, int p, int* waits, int nw) noexcept:
        """players.open_kong_chance: a turned tile is a live copy of the waits."""
        cdef FSeat* s = &self.seats[p]
        cdef uint8_t c[34]
        cdef int unseen[34]
        cdef int k, i, v, u = 0, live = 0
        cdef int j = self.play(p, c)
        cdef double miss = 1.0
        for k in range(34):
            v = <int>self.copies[k] - (<int>self.visible[k] - <int>s.exposed[k]) - c[k] \
                - s.meldall[k]
            unseen[k] = v if v > 0 else 0
            u += unseen[k]
        u -= j
        for i in range(nw):
            live += unseen[waits[i]]
        if self.kong_reveal <= 0 or u <= 0 or live <= 0:
            return 0.0
        for i in range(self.kong_reveal):
            if u - i <= 0:
                break
            v = u - live - i
            miss *= (<double>(v if v > 0 else 0)) / (<double>(u - i))
        return 1.0 - miss

    cdef int open_kong(self, int p, int* out) except -2:
        """Turn the tiles of seat p's 开杠 and play what follows (as
        :meth:`_OpenKong.open_kong`; the bots take every win)."""
        cdef FSeat* s = &self.seats[p]
        cdef FSeat* sq
        cdef int tiles[4]
        cdef int own[4]
        cdef int winners[4]
        cdef int wmask[4]
        cdef int taken[4]
        cdef int nt = 0, nown = 0, nw = 0, t, i, j, q, k, x
        cdef bint last
        while nt < self.kong_reveal and self.can_draw():
            t = self.take(True)
            self.draws += 1
            if t >= 34:
                s.flowers[s.n_flowers] = t
                s.n_flowers += 1
                continue
            tiles[nt] = t
            nt += 1
        last = not self.can_draw()
        for i in range(nt):
            t = tiles[i]
            s.phys[t] += 1
            res = self.try_win(p, t, True, True, False, last)
            s.phys[t] -= 1
            if res is not None and res.valid:
                own[nown] = i
                nown += 1
        if nown:                                    # 杠上开花, once per winning tile
            for i in range(nown):
                t = tiles[own[i]]
                s.phys[t] += 1
                res = self.try_win(p, t, True, True, False, last)
                s.phys[t] -= 1
                self.record(p, t, res, True, -1, True, False)
            for i in range(nt):
                t = tiles[i]
                k = 0
                for j in range(nown):
                    if own[j] == i:
                        k = 1
                if i == own[0]:
                    s.phys[t] += 1
                elif k:
                    s.won[s.n_won] = t
                    s.n_won += 1
                else:
                    self.add_disc(p, t)
            return self.after_win_self(p, tiles[own[0]], out)
        for i in range(nt):                         # the konger's discards: 杠上炮
            self.add_disc(p, tiles[i])
        self.turns += 1
        if nt:
            self.last_disc = tiles[nt - 1]
        self.disc_after_kong = 1
        for j in range(1, self.n):
            q = (p + j) % self.n
            if self.seats[q].out:
                continue
            k = 0
            for i in range(nt):
                res = self.try_win(q, tiles[i], False, False, False, last)
                if res is not None and res.valid:
                    k |= 1 << i
            if k:
                winners[nw] = q
                wmask[nw] = k
                nw += 1
        if not nw:
            self.disc_after_kong = 0
            s.locked = 1
            out[0] = self.next_active(p)
            return R_NEXT
        if not self.multiple:
            nw = 1
        for i in range(nt):
            taken[i] = -1
        for j in range(nw):
            q = winners[j]
            for i in range(nt):
                if (wmask[j] >> i) & 1:
                    res = self.try_win(q, tiles[i], False, False, False, last)
                    self.record(q, tiles[i], res, False, p, False, False)
                    if taken[i] < 0:
                        taken[i] = q
        self.disc_after_kong = 0
        t = -1
        for i in range(nt - 1, -1, -1):
            if taken[i] < 0:
                continue
            x = s.n_disc - nt + i
            for k in range(x, s.n_disc - 1):
                s.disc[k] = s.disc[k + 1]
            s.n_disc -= 1
            self.visible[tiles[i]] -= 1
            sq = &self.seats[taken[i]]
            if sq.n_won >= MAXWON:
                raise RuntimeError("compiled loop: too many wins for one seat")
            sq.won[sq.n_won] = tiles[i]
            sq.n_won += 1
            t = tiles[i]
        if self.pay_kongs:
            self.bridge.transfer(p, [winners[j] for j in range(nw)], self.turns)
        return self.after_win(winners, nw, t, False, p, out)

    cdef void add_disc(self, int p, int t) except *:
        cdef FSeat* s = &self.seats[p]
        if s.n_disc >= MAXD:
            raise RuntimeError("compiled loop: discard pool full")
        s.disc[s.n_disc] = t
        s.n_disc += 1
        self.visible[t] += 1

# Part of game.pyx (included): what a seat of the compiled hand may do: the shape
# checks before THE predicate (through the bridge), the first-turn flags and the
# built-in bots' choices (discard, declare, claim).


cdef class _HandBots(_HandState):
    """Win checks and the built-in bots' choices (a base of :class:`FastHand`)."""

    cdef int shanten13(self, int p, int minus) noexcept:
        """Loose shanten of seat p's 3n+1 hand (``minus``: the drawn tile to take off,
        -1 none), cached until the hand changes other than by a draw.  A filter (is one
        tile enough?): exact whenever it is 0 or less; when positive it may be a lower
        bound — with the knitted forms the basic forms come first, then the knitted
        forms' lower bound, and their full shanten only when neither settles it."""
        cdef FSeat* s = &self.seats[p]
        cdef uint8_t c[34]
        cdef Opts o, basic
        cdef int k, j, sb, lb
        if s.s13_ok:
            return s.s13
        j = self.play(p, c)
        if minus >= 0:
            if minus == self.jk:
                j -= 1
            else:
                c[minus] -= 1
        o = self.loose(p, j)
        if j == 0 and lone_tiles(c) >= 2 and not (o.mask & 4 and orphan_kinds(c) >= 12) \
                and not (o.mask & (8 | 16) and knit_lb(c, o.mask, 0) <= 0):
            # two lone tiles: no regular or seven-pairs hand one tile short (every tile
            # but the one wait sits in a set, a pair or a two-tile part); thirteen orphans
            # needs twelve of its kinds, the knitted forms their bound
            s.s13 = 1
        elif o.mask & (8 | 16) and o.mask & 7:
            basic = o
            basic.mask = o.mask & ~(8 | 16)
            sb = shanten_opts_c(c, &basic)
            if sb <= 0:
                s.s13 = sb
            else:
                lb = knit_lb(c, o.mask, j)
                s.s13 = (sb if sb < lb else lb) if lb > 0 else shanten_opts_c(c, &o)
        else:
            s.s13 = shanten_opts_c(c, &o)
        s.s13_ok = 1
        return s.s13

    cdef object try_win(self, int p, int tile, bint self_drawn, bint kong, bint robbing,
                        bint last_tile):
        cdef FSeat* s = &self.seats[p]
        cdef uint8_t c[34]
        cdef Opts o
        cdef int k, j, jf
        cdef bint last_copy, special
        cdef bint is_joker = self.jk >= 0 and tile == self.jk
        if is_joker and not self_drawn:
            return None           # a discarded joker is never won on
        j = self.play(p, c)
        if self_drawn:
            if is_joker:
                j -= 1
            else:
                c[tile] -= 1
        # three_jokers: the jokers held that win at once (3 三金倒, 4 四鬼胡), 0 for none
        special = (self.three_jokers and self_drawn
                   and j + (1 if is_joker else 0) >= self.three_jokers)
        if not special and self.all258 and self.only258(p, c, -1 if is_joker else tile):
            # 将将胡 of any shape (engine.beyond_core's all_258 case): THE predicate decides
            if not is_joker and c[tile] >= 4:
                return None
            special = True
        if not special:
            if self.shanten13(p, tile if self_drawn else -1) > 0:
                return None       # one tile cannot complete it
            jf = j
            if is_joker:
                jf += 1
            else:
                if c[tile] >= 4:
                    return None
                c[tile] += 1
            o = self.loose(p, jf)
            k = shanten_opts_c(c, &o)
            if not is_joker:
                c[tile] -= 1
            if k != -1:
                return None
        last_copy = (not is_joker) and (not robbing) and c[tile] == 0 and \
            (<int>self.visible[tile] - (0 if self_drawn else 1)) >= 3
        res = self.bridge.check(p, bytes([c[k] for k in range(34)]), self.melds_py(p),
                                -1 if is_joker else tile, self_drawn, kong or robbing,
                                last_copy, last_tile, (p - self.dealer + self.n) % self.n,
                                s.n_flowers, j, is_joker,
                                FIRST_TURNS[self.first_turn(p, self_drawn, kong or robbing)],
                                bool(not self_drawn and not robbing and self.disc_after_kong),
                                bool(self_drawn and self.flower_seat == p),
                                bool(self_drawn and kong and self.kong_from >= 0))
        return res

    cdef bint only258(self, int p, const uint8_t* c, int tile) noexcept:
        """Every tile of seat p's hand (concealed ``c``, melds, the win ``tile`` unless
        -1) is a 2, 5 or 8 of a suit: the shape of the all_258 form
        (:func:`majiang.scoring.waiting.beyond_core`; jokers stand for any tile)."""
        cdef int k
        cdef FSeat* s = &self.seats[p]
        for k in range(34):
            if (c[k] or s.meldall[k]) and (k >= 27 or k % 3 != 1):
                return False
        if tile >= 0 and (tile >= 27 or tile % 3 != 1):
            return False
        return True

    cdef int first_turn(self, int p, bint self_drawn, bint kong) noexcept:
        """0 none, 1 天和, 2 地和, 3 人和 (as :meth:`HandState.first_turn`)."""
        cdef FSeat* s = &self.seats[p]
        if self.interrupted or kong:
            return 0
        if self_drawn:
            if s.ndisc_made:
                return 0
            return 1 if p == self.dealer else 2
        if p == self.dealer or s.ndrawn or s.ndisc_made:
            return 0
        return 3

    # ------------------------------------------------------------ bots
    cdef int bot_discard(self, int p) except -2:
        cdef FSeat* s = &self.seats[p]
        cdef int lg[34]
        cdef int nl = self.legal(p, lg)
        cdef int k, i, sh, u, j, x
        cdef uint8_t allowed[34]
        cdef uint8_t live[34]
        cdef uint8_t vis[34]
        cdef uint8_t h[34]
        cdef Opts o
        if s.locked:
            return lg[0]
        if s.ptype == 0:
            return lg[<int>self.pick(p, nl)]
        memset(allowed, 0, 34)
        for i in range(nl):
            if lg[i] != self.jk:
                allowed[lg[i]] = 1
        j = self.play(p, h)
        o = self.strict(p, 0, j)
        self.live_of(p, live, -1, 0)
        self.seat_vis(p, vis)
        k = choose_c(h, &o, live, vis, s.void, allowed, &sh, &u)
        if k < 0:
            return lg[0]
        if sh == 0 and self.min_aware and (j == 0 or self.aware_jokers):
            i = self.valid_tenpai(p, h, &o, live, vis, allowed, j)
            if i >= 0:
                k = i
            elif i < -2 or i == -1:
                if self.step_back & (1 << (-i - 1)) and not self.lookahead:
                    # no tenpai discard can win: the best discard that leaves tenpai
                    # (players.step_back without its look-ahead, in C)
                    i = self.step_back_c(p, h, &o, live, vis, allowed)
                    if i >= 0:
                        k = i
                elif self.step_back & (1 << (-i - 1)):
                    # no tenpai discard can win: a shape toward one that can
                    # (players.step_back, through the bridge)
                    i = self.bridge.step_back(
                        p, bytes([h[x] for x in range(34)]),
                        bytes([allowed[x] for x in range(34)]), self.melds_py(p),
                        (p - self.dealer + self.n) % self.n, j,
                        bytes([live[x] for x in range(34)]), bytes([vis[x] for x in range(34)]),
                        s.void, self.jk, s.n_flowers)
                    if i >= 0:
                        k = i
        for i in range(nl):
            if lg[i] == k:
                return k
        return lg[0]

    cdef int valid_tenpai(self, int p, uint8_t* h, const Opts* o, uint8_t* live, uint8_t* vis,
                          const uint8_t* allowed, int jokers) except -9:
        """:func:`pick_valid_wait` over the tenpai discards among the ``allowed`` kinds of
        ``h`` (+ ``jokers``, already in ``o``): the kind, -1 when no live wait can win now
        but some wait could (dead, or with more flowers drawn), -3 when no wait can, -2
        when none is tenpai.  The natural copies of the wild kind are no wait (all its
        copies are wild).  The candidates (:meth:`tenpai_cands`) go to the compiled
        verdict where it is the ruleset's (:meth:`valid_tenpai_c`), else to the bridge."""
        cdef TenpaiCands tc
        cdef int x, i, q
        self.tenpai_cands(h, o, live, vis, allowed, &tc)
        if tc.nc == 0:
            return -2
        if self.kvp != NULL and jokers == 0:
            x = self.valid_tenpai_c(p, h, &tc)
            if x != -100:
                return x
        cands = []
        for i in range(tc.nc):
            x = tc.cx[i]
            h[x] -= 1
            cands.append((x, bytes([h[q] for q in range(34)]),
                          [(tc.ww[i][q], tc.wl[i][q]) for q in range(tc.nw[i])]))
            h[x] += 1
        return self.bridge.pick_wait(p, cands, self.melds_py(p),
                                     (p - self.dealer + self.n) % self.n, jokers,
                                     self.seats[p].n_flowers)

    cdef void tenpai_cands(self, uint8_t* h, const Opts* o, const uint8_t* live,
                           const uint8_t* vis, const uint8_t* allowed,
                           TenpaiCands* tc) noexcept:
        """The tenpai discards among the ``allowed`` kinds of ``h``, in kind order, each
        with its waits (not the wild kind, not a kind held four times) and their live
        copies (``live - held - seen``, the discard counted back), and the sum of the
        positive ones (``h`` modified and restored)."""
        cdef int x, w, left, nc = 0
        cdef bint rows
        cdef int8_t eff[34]
        cdef uint8_t near[34]
        for x in range(34):
            if not h[x] or not allowed[x]:
                continue
            h[x] -= 1
            if shanten_opts_c(h, o) == 0:
                tc.nw[nc] = 0
                tc.ctot[nc] = 0
                # the waits by table rows where the options allow (the same kinds)
                rows = plain_rows(o)
                if rows:
                    near_kinds(h, o.mask & 7, near)   # the knitted waits: found apart
                    rows = ukeire_table_c(h, o.mask, o.quads, eff, NULL,
                                          near if USE_NEAR else NULL) == 0
                for w in range(34):
                    if h[w] >= 4 or w == self.jk:
                        continue
                    h[w] += 1
                    if (eff[w] >= 0) if rows else (shanten_opts_c(h, o) == -1):
                        left = <int>live[w] - <int>h[w] + 1 - <int>vis[w]
                        tc.ww[nc][tc.nw[nc]] = <uint8_t>w
                        tc.wl[nc][tc.nw[nc]] = left
                        tc.nw[nc] += 1
                        if left > 0:
                            tc.ctot[nc] += left
                    h[w] -= 1
                tc.cx[nc] = x
                nc += 1
            h[x] += 1
        tc.nc = nc

    cdef int step_back_c(self, int p, uint8_t* h, const Opts* o, const uint8_t* live,
                         const uint8_t* vis, const uint8_t* allowed) noexcept:
        """:func:`majiang.game.players.step_back` without its look-ahead (``verdict``
        None): among the ``allowed`` kinds held whose discard leaves the hand NOT tenpai,
        the efficiency order (:func:`choose_c`); -1 when every one leaves it tenpai."""
        cdef uint8_t a[34]
        cdef int x, sh, u, any_left = 0
        for x in range(34):
            a[x] = 1 if (allowed[x] and h[x]) else 0
            if a[x]:
                h[x] -= 1
                if shanten_opts_c(h, o) == 0:
                    a[x] = 0
                else:
                    any_left = 1
                h[x] += 1
        if not any_left:
            return -1
        return choose_c(h, o, live, vis, self.seats[p].void, a, &sh, &u)

    cdef int valid_tenpai_c(self, int p, uint8_t* h, const TenpaiCands* tc) noexcept:
        """:meth:`valid_tenpai` by the compiled verdict (``self.kvp``, the ruleset's win
        predicate's: :func:`majiang.scoring.kernel.win_verdict`), the rule of
        :func:`majiang.game.players.pick_valid_wait` in C on the candidates ``tc``: by most
        live waits, then lowest kind; stop below the best count of live valid waits; the
        most live valid waits, then the most live waits, then centrality, then the lowest
        kind.  -100 when the verdict cannot judge a hand (the bridge then decides)."""
        cdef FSeat* s = &self.seats[p]
        cdef Verdict v = self.kvp[0]
        cdef int x, i, q, a, good, r, best = -1, best_good = 0, flw
        cdef int nc = tc.nc
        cdef int order[34]
        cdef int k0 = 0, k1 = 0, k2 = 0
        if s.n_melds > 4:
            return -100
        for i in range(s.n_melds):
            v.h.mkind[i] = s.melds[i].kind
            v.h.mtile[i] = s.melds[i].tile
            v.h.mconc[i] = s.melds[i].concealed
        v.h.n_melds = s.n_melds
        v.h.seat = (p - self.dealer + self.n) % self.n
        v.h.flowers = s.n_flowers
        for i in range(nc):          # most live waits first, then the lowest kind
            order[i] = i
        for i in range(1, nc):
            a = order[i]
            q = i
            while q > 0 and tc.ctot[order[q - 1]] < tc.ctot[a]:
                order[q] = order[q - 1]
                q -= 1
            order[q] = a
        for i in range(nc):
            a = order[i]
            if tc.ctot[a] <= 0 or tc.ctot[a] < best_good:
                break
            x = tc.cx[a]
            h[x] -= 1
            good = 0
            for q in range(tc.nw[a]):
                if tc.wl[a][q] > 0:
                    r = verdict_c(&v, h, tc.ww[a][q], 1)
                    if r < 0:
                        h[x] += 1
                        return -100
                    if r:
                        good += tc.wl[a][q]
            h[x] += 1
            if good <= 0:
                continue
            if good > best_good:
                best_good = good
            if (best < 0 or -good < k0 or (-good == k0 and (-tc.ctot[a] < k1 or (
                    -tc.ctot[a] == k1 and (centrality(x) < k2 or (
                        centrality(x) == k2 and x < best)))))):
                best, k0, k1, k2 = x, -good, -tc.ctot[a], centrality(x)
        if best >= 0:
            return best
        for flw in range(2):         # a valid dead wait; then one with every flower drawn
            if flw:
                if s.n_flowers >= self.n_flower_set:
                    break
                v.h.flowers = self.n_flower_set
            for i in range(nc):
                a = order[i]
                x = tc.cx[a]
                h[x] -= 1
                for q in range(tc.nw[a]):
                    if flw or tc.wl[a][q] <= 0:
                        r = verdict_c(&v, h, tc.ww[a][q], 1)
                        if r != 0:
                            h[x] += 1
                            return -1 if r > 0 else -100
                h[x] += 1
        return -3

    cdef int bot_declare(self, int p, int nopt, int* ok, int* ot) except -2:
        cdef FSeat* s = &self.seats[p]
        cdef int i, k, sh, u, s_keep, s1, nl, j
        cdef int lg[34]
        cdef uint8_t allowed[34]
        cdef uint8_t live[34]
        cdef uint8_t vis[34]
        cdef uint8_t h[34]
        cdef Opts o
        for i in range(nopt):
            if ok[i] == O_WIN:
                return i
        if s.ptype == 0:
            i = <int>self.pick(p, nopt + 1)
            return i if i < nopt else -1
        nl = self.legal(p, lg)
        memset(allowed, 0, 34)
        for i in range(nl):
            if lg[i] != self.jk:
                allowed[lg[i]] = 1
        j = self.play(p, h)
        o = self.strict(p, 0, j)
        self.live_of(p, live, -1, 0)
        self.seat_vis(p, vis)
        choose_c(h, &o, live, vis, s.void, allowed, &s_keep, &u)
        for i in range(nopt):
            k = ot[i]
            if ok[i] == O_CKONG:
                h[k] -= 4
                o = self.strict(p, 1, j, k)
                self.live_of(p, live, 2, k)
                s1 = shanten_opts_c(h, &o)
                h[k] += 4
            else:
                h[k] -= 1
                o = self.strict(p, 0, j)
                self.live_of(p, live, -1, 0)
                s1 = shanten_opts_c(h, &o)
                h[k] += 1
            if s1 <= s_keep:
                return i
        return -1

    cdef int bot_claim(self, int p, int tile, int nopt, int* ok, int* ot) except -2:
        cdef FSeat* s = &self.seats[p]
        cdef int i, k, k2, s0, u0, s1, u1, best = -1, key_s, key_u, a = 0, j
        cdef uint8_t live[34]
        cdef uint8_t vis[34]
        cdef uint8_t h[34]
        cdef Opts o
        for i in range(nopt):
            if ok[i] == O_WIN:
                return i
        if s.ptype == 0:
            i = <int>self.pick(p, nopt + 1)
            return i if i < nopt else -1
        j = self.play(p, h)
        self.seat_vis(p, vis)
        o = self.strict(p, 0, j)
        s0 = shanten_opts_c(h, &o)        # = eval_c's shanten; its ukeire only if needed
        u0 = -1
        key_s = s0
        key_u = -1
        for i in range(nopt):
            if ok[i] == O_KONG:
                h[tile] -= 3
                o = self.strict(p, 1, j, tile)
                s1 = shanten_opts_c(h, &o)
                if s1 <= s0 and (best < 0 or s1 <= key_s):
                    self.live_of(p, live, 2, tile)
                    eval_c(h, &o, live, vis, &s1, &u1)
                    if key_u < 0 and best < 0:
                        key_u = self.own_ukeire(p, h, tile, 3, vis, j)
                    if best < 0 or s1 < key_s or (s1 == key_s and u1 > key_u):
                        best = i
                        key_s = s1
                        key_u = u1
                h[tile] += 3
                continue
            if ok[i] == O_PUNG:
                h[tile] -= 2
                self.live_of(p, live, 1, tile)
            else:
                a = ot[i]
                for k in range(a, a + 3):
                    if k != tile:
                        h[k] -= 1
                self.live_of(p, live, 0, a)
            o = self.strict(p, 1, j, tile)
            k = choose_c(h, &o, live, vis, s.void, NULL, &s1, &u1, 1)
            if k >= 0 and s1 <= key_s:
                k = choose_c(h, &o, live, vis, s.void, NULL, &s1, &u1)
            else:
                k = -1
            if ok[i] == O_PUNG:
                h[tile] += 2
            else:
                for k2 in range(a, a + 3):
                    if k2 != tile:
                        h[k2] += 1
            if k < 0:
                continue
            if s1 == key_s and key_u < 0 and best < 0:
                key_u = self.own_ukeire(p, h, -1, 0, vis, j)
            if s1 < key_s or (s1 == key_s and u1 > key_u):
                best = i
                key_s = s1
                key_u = u1
        return best

    cdef int own_ukeire(self, int p, uint8_t* h, int tile, int removed, uint8_t* vis,
                        int jokers) noexcept:
        """Live ukeire of seat p's current 3n+1 hand (``h`` with ``removed`` copies of
        ``tile`` taken off for a kong being weighed: restored around the count)."""
        cdef uint8_t live[34]
        cdef Opts o = self.strict(p, 0, jokers)
        cdef int s0, u0
        if removed:
            h[tile] += removed
        self.live_of(p, live, -1, 0)
        eval_c(h, &o, live, vis, &s0, &u0)
        if removed:
            h[tile] -= removed
        return u0

# Part of game.pyx (included): the compiled hand's state (FastHand's base): the wall
# and draws, the deal, 换三张 and 定缺, the seats' views, the results read by Python.


cdef class _HandState:
    """The state of one hand in the compiled loop: wall, seats, flags (the base of
    :class:`FastHand`; the rules it plays are in :class:`_HandBots` and :class:`FastHand`).
    """

    cdef FSeat seats[4]
    cdef int wall[MAXWALL]
    cdef public int n, dealer, prevalent, head, tail, wall_n, draws, turns, end_reason
    cdef int chow, pung, ekong, akong, ckong, multiple, blood, void_rule, pass_lock
    cdef int mask, quads
    cdef uint64_t pair_mask
    cdef int kept0, per_exp, per_con, n_by
    cdef int by_k[8]
    cdef int by_v[8]
    cdef uint8_t copies[34]
    cdef uint8_t visible[34]
    cdef int last_disc
    cdef object bridge
    cdef list pending
    cdef list gens
    cdef public int jk, indicator
    cdef public int last_drawn  # kind of the last playing tile taken (-1 none; 长沙 扎鸟)
    cdef public int open_turns  # discards made in turn order from the dealer before the first
                                # claim or win (-1: none yet; 跟庄, engine.end_table)
    cdef int jk_mode, fifth, three_jokers
    cdef int all258            # the all_258 form (将将胡 of any shape): THE predicate is asked
    cdef uint64_t no_set       # bit k: kind k never enters a set (武汉 红中): no pung, no kong
    cdef object call_limit     # the ruleset's limits on calls (RuleSpec.call_limit) or None
    cdef int jk_map[34]
    cdef int aside[64]
    cdef int n_aside
    cdef int interrupted       # a call, a kong or a win happened (天和 / 地和 / 人和)
    cdef int kong_seat         # the last kong made (not robbed): its seat (-1 none) and the
    cdef int kong_turn         # discards made before it; the last discard followed its
    cdef int disc_after_kong   # discarder's kong of that turn (杠上炮, HandState.note_kong)
    cdef int kong_from         # the last kong's discarder, -1 of own tiles (大杠开花)
    cdef int flower_seat       # the seat whose last draw replaced a flower (花上添花)
    cdef int pay_kongs         # the ruleset pays kongs outside the hand value (bridge.kong)
    cdef int min_aware         # bots check tenpai waits with THE predicate (bridge.pick_wait)
    cdef int step_back         # bit (-code - 1): pick_wait outcomes that make a bot leave tenpai
    cdef int aware_jokers      # the wait check also while jokers are held (players.AWARE_JOKERS)
    cdef object kv_obj         # the compiled wait verdict (a WinVerdict) where it is THE
    cdef const Verdict* kvp    # predicate's (flags["verdict"]); NULL: bridge.pick_wait
    cdef int n_flower_set      # flowers of the tile set (the hope of pick_valid_wait)
    cdef int lookahead         # players.LOOKAHEAD: step_back weighs draws (bridge), else C
    cdef int fd_seat[34]       # the first discard of each kind: seat (-1 none), the seat
    cdef int fd_claim[34]      # that claimed that very tile (-1 none), its turn number
    cdef int fd_turn[34]       # (贵州 冲锋鸡 / 责任鸡, engine.end_table)
    cdef int kong_reveal       # 开杠: tiles a ready konger may turn instead of a 补张 (0 none)
    cdef double ok_chance      # the efficiency bot's 开杠 threshold (players.OPEN_KONG_CHANCE)
    def __init__(self, wall, int n, int hand_size, int dealer, int prevalent, copies, dict flags,
                 list ptypes, list gens, object bridge):
        cdef int i, k, p
        cdef FSeat* s
        cdef const uint8_t[::1] cv = copies
        cdef const int16_t[::1] wv = wall
        if wv.shape[0] > MAXWALL:
            raise ValueError("wall too long")
        self.wall_n = wv.shape[0]
        self.last_drawn = -1
        self.open_turns = -1
        for i in range(self.wall_n):
            self.wall[i] = wv[i]
        self.n = n
        self.dealer = dealer
        self.prevalent = prevalent
        self.head = 0
        self.tail = self.wall_n - 1
        self.draws = 0
        self.turns = 0
        self.end_reason = -1
        self.last_disc = -1
        self.interrupted = 0
        self.kong_seat = -1
        self.kong_turn = -1
        self.disc_after_kong = 0
        self.kong_from = -1
        self.flower_seat = -1
        for k in range(34):
            self.fd_seat[k] = -1
            self.fd_claim[k] = -1
            self.fd_turn[k] = -1
        self.pay_kongs = flags.get("pay_kongs", 0)
        self.min_aware = flags.get("min_aware", 0)
        self.step_back = flags.get("step_back", 0)
        self.aware_jokers = flags.get("aware_jokers", 0)
        self.kv_obj = flags.get("verdict")
        self.kvp = NULL
        if isinstance(self.kv_obj, WinVerdict):
            self.kvp = &(<WinVerdict>self.kv_obj).v
        self.n_flower_set = flags.get("n_flowers", 0)
        self.lookahead = flags.get("lookahead", 1)
        self.kong_reveal = flags.get("kong_reveal", 0)
        self.ok_chance = flags.get("open_kong_chance", 1.0)
        for k in range(34):
            self.copies[k] = cv[k]
            self.visible[k] = 0
        self.chow = flags["chow"]
        self.pung = flags["pung"]
        self.ekong = flags["exposed_kong"]
        self.akong = flags["added_kong"]
        self.ckong = flags["concealed_kong"]
        self.multiple = flags["multiple"]
        self.blood = flags["blood"]
        self.void_rule = flags["void"]
        self.pass_lock = flags["pass_lock"]
        self.mask = flags["mask"]
        self.quads = flags["quads"]
        self.pair_mask = flags["pair_mask"]
        ensure_pair_tables(self.pair_mask)
        self.kept0 = flags["kept"]
        self.per_exp = flags["per_exposed_kong"]
        self.per_con = flags["per_concealed_kong"]
        by = flags["by_kongs"]
        self.n_by = len(by)
        for i in range(self.n_by):
            self.by_k[i] = by[i][0]
            self.by_v[i] = by[i][1]
        self.jk = -1
        self.indicator = -1
        self.n_aside = 0
        self.jk_mode = flags.get("jk_mode", 0)
        self.fifth = flags.get("fifth", 0)
        self.three_jokers = flags.get("three_jokers", 0)
        self.all258 = flags.get("all258", 0)
        self.no_set = flags.get("no_set", 0)
        self.call_limit = flags.get("call_limit")
        jm = flags.get("jk_map")
        for k in range(34):
            self.jk_map[k] = jm[k] if jm is not None else -1
        if self.jk_mode == 1:
            self.jk = flags["jk_fixed"]
        self.bridge = bridge
        self.pending = [None] * n
        self.gens = gens
        for p in range(n):
            s = &self.seats[p]
            memset(s, 0, sizeof(FSeat))
            s.void = -1
            s.drawn = -1
            s.ptype = ptypes[p]
            s.bg = <bitgen_t*>PyCapsule_GetPointer(gens[p].capsule, "BitGenerator")
        self.deal(hand_size)

    # ------------------------------------------------------------ wall
    cdef int kept(self) noexcept:
        cdef int p, ne = 0, nc = 0, i, k
        for p in range(self.n):
            ne += self.seats[p].kexp
            nc += self.seats[p].kcon
        if self.n_by:
            k = self.by_v[self.n_by - 1]
            for i in range(self.n_by):
                if ne + nc == self.by_k[i]:
                    k = self.by_v[i]
                    break
            return k
        return self.kept0 + self.per_exp * ne + self.per_con * nc

    cdef inline int left(self) noexcept:
        return self.tail - self.head + 1

    cdef inline bint can_draw(self) noexcept:
        return self.left() > self.kept()

    cdef inline int take(self, bint from_tail) noexcept:
        cdef int t
        if from_tail:
            t = self.wall[self.tail]
            self.tail -= 1
        else:
            t = self.wall[self.head]
            self.head += 1
        if t < 34:
            self.last_drawn = t
        return t

    cdef int draw(self, int p, bint from_tail) noexcept:
        cdef FSeat* s = &self.seats[p]
        cdef int t
        if not self.can_draw():
            return -1
        t = self.take(from_tail)
        self.draws += 1
        self.flower_seat = -1
        while t >= 34:
            s.flowers[s.n_flowers] = t
            s.n_flowers += 1
            if not self.can_draw():
                return -1
            t = self.take(True)
            self.draws += 1
            self.flower_seat = p
        s.phys[t] += 1
        s.drawn = t
        s.ndrawn += 1
        return t

    cdef inline unsigned long long pick(self, int p, unsigned long long m) noexcept:
        cdef bitgen_t* bg = self.seats[p].bg
        return mj_mulhi(bg.next_uint64(bg.state), m)

    # ------------------------------------------------------------ deal
    cdef void deal(self, int hand_size) except *:
        cdef int i, j, p, k, t, need, best, v
        cdef FSeat* s
        for i in range(self.n):
            p = (self.dealer + i) % self.n
            s = &self.seats[p]
            k = hand_size + (1 if p == self.dealer else 0)
            for j in range(k):
                t = self.take(False)
                if t >= 34:
                    s.flowers[s.n_flowers] = t
                    s.n_flowers += 1
                else:
                    s.phys[t] += 1
                s.drawn = t
        if self.jk_mode == 2:
            t = self.take(True)
            while t >= 34:
                self.aside[self.n_aside] = t
                self.n_aside += 1
                t = self.take(True)
            self.aside[self.n_aside] = t
            self.n_aside += 1
            self.indicator = t
            self.visible[t] += 1
            self.jk = self.jk_map[t]
        for i in range(self.n):
            p = (self.dealer + i) % self.n
            s = &self.seats[p]
            need = s.n_flowers
            while need:
                need -= 1
                t = self.take(True)
                self.draws += 1
                if t >= 34:
                    s.flowers[s.n_flowers] = t
                    s.n_flowers += 1
                    need += 1
                else:
                    s.phys[t] += 1
                    s.drawn = t
        s = &self.seats[self.dealer]
        if s.drawn < 0 or s.drawn >= 34 or not s.phys[s.drawn]:
            for k in range(33, -1, -1):
                if s.phys[k]:
                    s.drawn = k
                    break

    def hand(self, int p):
        """Seat p's concealed counts (physical kinds) as a uint8 (34,) array."""
        import numpy as _np
        return _np.array([self.seats[p].phys[k] for k in range(34)], dtype=_np.uint8)

    def exchange(self, list gives, int direction):
        """换三张: seat p passes the kinds ``gives[p]`` to seat ``p + 1`` (direction 0),
        ``p - 1`` (1) or ``p + 2`` (2); then the dealer's first tile is re-read."""
        cdef int p, q, k
        cdef FSeat* s
        for p in range(self.n):
            for k in gives[p]:
                self.seats[p].phys[k] -= 1
        for p in range(self.n):
            q = (p + (1, self.n - 1, 2)[direction]) % self.n
            for k in gives[p]:
                self.seats[q].phys[k] += 1
        s = &self.seats[self.dealer]
        if not s.phys[s.drawn]:
            for k in range(33, -1, -1):
                if s.phys[k]:
                    s.drawn = k
                    break

    def declare_voids(self):
        """定缺 for every seat (after the deal and any exchange); nothing under no void
        rule (0) or 缺门 at the win (2)."""
        cdef int i, j, p, k, t, v, best
        cdef FSeat* s
        if self.void_rule == 1:
            for i in range(self.n):
                p = (self.dealer + i) % self.n
                s = &self.seats[p]
                if s.ptype == 0:
                    v = <int>self.pick(p, 3)
                else:
                    v = 0
                    best = 1000
                    for j in range(3):
                        k = 0
                        for t in range(9 * j, 9 * j + 9):
                            k += s.phys[t]
                        if k < best:
                            best = k
                            v = j
                s.void = v

    # ------------------------------------------------------------ helpers
    cdef Opts loose(self, int p, int jokers) noexcept:
        return make_opts_c(mask_for(self.mask, self.seats[p].n_melds), self.quads, NULL,
                           jokers, self.fifth, pair_all(), 0)

    cdef Opts strict(self, int p, int extra_melds, int jokers, int extra_tile=-1) noexcept:
        """The bots' options for seat p's melds plus ``extra_melds`` being weighed (one
        with a tile of kind ``extra_tile``, -1 none); under 缺门 at the win (void rule 2)
        the void-suit bits of the suits no meld holds (as RuleSpec.shape's), so the
        shanten is the least over those suits, found again at each decision."""
        cdef int v = 0, k, x
        cdef FSeat* s = &self.seats[p]
        if self.void_rule == 2:
            for x in range(3):
                if extra_tile >= 0 and extra_tile < 27 and extra_tile // 9 == x:
                    continue
                for k in range(9 * x, 9 * x + 9):
                    if s.meldall[k]:
                        break
                else:
                    v |= 1 << x
        return make_opts_c(mask_for(self.mask, s.n_melds + extra_melds),
                           self.quads, NULL, jokers, self.fifth, self.pair_mask, v)

    cdef int play(self, int p, uint8_t* c) noexcept:
        """Seat p's concealed counts as played (jokers off) into c; returns the jokers."""
        cdef int k, j = 0
        for k in range(34):
            c[k] = self.seats[p].phys[k]
        if self.jk >= 0:
            j = c[self.jk]
            c[self.jk] = 0
        return j

    cdef void live_of(self, int p, uint8_t* live, int extra_kind, int extra_tile) noexcept:
        """Tile-set copies less the seat's meld tiles (and a hypothetical meld), its
        定缺 suit at 0.  extra_kind: -1 none, 0 chow, 1 pung, 2 kong."""
        cdef FSeat* s = &self.seats[p]
        cdef int k, v
        for k in range(34):
            v = self.copies[k] - s.meldall[k]
            live[k] = v if v > 0 else 0
        if extra_kind == 0:
            for k in range(extra_tile, extra_tile + 3):
                live[k] = live[k] - 1 if live[k] > 0 else 0
        elif extra_kind >= 1:
            v = self.copies[extra_tile] - s.meldall[extra_tile] - (3 if extra_kind == 1 else 4)
            live[extra_tile] = v if v > 0 else 0
        if s.void >= 0:
            for k in range(9 * s.void, 9 * s.void + 9):
                live[k] = 0

    cdef void seat_vis(self, int p, uint8_t* vis) noexcept:
        cdef int k
        for k in range(34):
            vis[k] = self.visible[k] - self.seats[p].exposed[k]

    cdef int legal(self, int p, int* out) noexcept:
        """Legal discards (physical kinds, ascending; 定缺 suit first)."""
        cdef FSeat* s = &self.seats[p]
        cdef int k, n = 0, nv = 0
        if s.locked and s.drawn >= 0:
            out[0] = s.drawn
            return 1
        # without branches on the counts (a random hand's counts defeat the predictor)
        if s.void >= 0:
            for k in range(9 * s.void, 9 * s.void + 9):
                out[nv] = k
                nv += s.phys[k] != 0
            if nv:
                return nv
        for k in range(34):
            out[n] = k
            n += s.phys[k] != 0
        return n

    cdef bint call_ok(self, int p, str call, int kind) except -1:
        """Whether seat p may make ``call`` of ``kind`` under the ruleset's limits on calls
        (the Python function ``RuleSpec.call_limit``, asked only where there is one, as
        the Python loop's ``claims.call_ok``: melds, concealed tiles, tiles left)."""
        cdef int k, held = 0
        if self.call_limit is None:
            return True
        for k in range(34):
            held += self.seats[p].phys[k]
        return bool(self.call_limit(call, kind, tuple(self.melds_py(p)), held,
                                    self.tail - self.head + 1))

    cdef object melds_py(self, int p):
        cdef FSeat* s = &self.seats[p]
        cdef int i
        names = ("chow", "pung", "kong")
        return [(names[s.melds[i].kind], s.melds[i].tile, bool(s.melds[i].concealed))
                for i in range(s.n_melds)]

    # ------------------------------------------------------------ results
    def seat_info(self):
        """Per seat: (exposed kongs, concealed kongs, calls, flowers, discards, won
        tiles, concealed counts, melds [(kind, tile, concealed, n tiles, from seat or -1,
        added)])."""
        out = []
        cdef int p, i
        cdef FSeat* s
        for p in range(self.n):
            s = &self.seats[p]
            out.append((s.kexp, s.kcon, s.calls, [s.flowers[i] for i in range(s.n_flowers)],
                        [s.disc[i] for i in range(s.n_disc)], [s.won[i] for i in range(s.n_won)],
                        [s.phys[i] for i in range(34)],
                        [(s.melds[i].kind, s.melds[i].tile, s.melds[i].concealed, s.melds[i].n,
                          s.melds[i].frm, s.melds[i].added) for i in range(s.n_melds)]))
        return out

    def first_discards(self):
        """``{kind: (seat, claimed by or None)}``: the first discard of each kind and the
        seat that claimed that very tile (as the Python loop's ``first_discards``)."""
        cdef int k
        return {k: (self.fd_seat[k], None if self.fd_claim[k] < 0 else self.fd_claim[k])
                for k in range(34) if self.fd_seat[k] >= 0}

    def tallies(self):
        """Per seat: (exposed kongs, concealed kongs, calls, flowers)."""
        cdef int p
        return [(self.seats[p].kexp, self.seats[p].kcon, self.seats[p].calls,
                 self.seats[p].n_flowers) for p in range(self.n)]

    def aside_tiles(self):
        """Tiles set aside at the deal: the turned indicator and flowers turned with it."""
        return [self.aside[i] for i in range(self.n_aside)]

    def wall_rest(self):
        return [self.wall[i] for i in range(self.head, self.tail + 1)]

    @property
    def wall_left(self):
        return self.tail - self.head + 1

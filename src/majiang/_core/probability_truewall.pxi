# Part of probability.pyx (textually included: one compilation unit).  The exact
# true-wall expectimax over actual draws, for short horizons.

# ---------------------------------------------------------------------------
# True-wall expectimax (short horizons): exact optimum over actual draws
# ---------------------------------------------------------------------------

cdef class _TrueWall:
    cdef Map memo
    cdef double* vals
    cdef int64_t nvals, capvals
    cdef int wall[NKJ]           # remaining wall (mutated along the search)
    cdef int drawn[NKJ]          # drawn so far per kind
    cdef uint8_t capsbuf[NK]
    cdef const uint8_t* caps
    cdef Opts o
    cdef int T, U, objective, stride
    cdef bint joker_discard
    cdef int64_t max_states
    cdef _Pred pred
    cdef public int64_t n_states
    cdef public int64_t shanten_calls

    def __cinit__(self, const int32_t[::1] wall35, object caps, int mask, bint quads,
                  bint fifth, object pair_mask, int void_suits, bint joker_discard,
                  int T, int objective, object pred, int64_t max_states):
        cdef int i
        self.U = 0
        for i in range(NKJ):
            self.wall[i] = wall35[i]
            self.drawn[i] = 0
            self.U += wall35[i]
        if caps is None:
            self.caps = NULL
        else:
            for i in range(NK):
                self.capsbuf[i] = caps[i]
            self.caps = self.capsbuf
        self.o = build_opts(mask, quads, self.caps, fifth, pair_mask, void_suits)
        self.T = T
        self.objective = objective
        self.stride = T + 1
        self.joker_discard = joker_discard
        self.max_states = max_states
        self.pred = pred if isinstance(pred, _Pred) else _Pred(pred)
        self.n_states = 0
        self.nvals = 0
        self.shanten_calls = 0
        self.capvals = 1024 * self.stride
        self.vals = <double*>malloc(self.capvals * sizeof(double))
        if map_init(&self.memo, 4096) < 0 or self.vals == NULL:
            raise MemoryError()

    def __dealloc__(self):
        map_free(&self.memo)
        free(self.vals)

    cdef inline int sh(self, const uint8_t* h, int j) noexcept nogil:
        self.shanten_calls += 1
        return shj(&self.o, h, j)

    cdef inline uint64_t drawn_code(self) noexcept nogil:
        """The multiset of drawn kinds as sorted 6-bit digits (kind + 1)."""
        cdef uint64_t c = 0
        cdef int k, m
        for k in range(NKJ):
            for m in range(self.drawn[k]):
                c = (c << 6) | <uint64_t>(k + 1)
        return c

    cdef int value(self, uint8_t* h, int j, int t, int s, double* out) noexcept nogil:
        """``out[r]`` (r = 0..T-t) = probability of success within the next r draws
        under the policy optimal for the remaining horizon; ``s`` the shanten of
        (h, j).  0 ok, -1 memory, -2 state limit, -3 predicate, -4 interrupted."""
        cdef int rem = self.T - t, r, k, d, jj, jd, s14, sd, w, rc, need, W, cap, which
        cdef uint64_t lo, hi, x
        cdef int32_t idx
        cdef double p, bestv
        cdef double child[MAXT + 1]
        cdef double best[MAXT + 1]
        cdef void* pp
        cdef bint win_obj = self.objective == OBJ_WIN
        if not win_obj and s <= 0:
            for r in range(rem + 1):
                out[r] = 1.0
            return 0
        need = s + (1 if win_obj else 0)
        if need > rem:
            for r in range(rem + 1):
                out[r] = 0.0
            return 0
        pack(h, <uint64_t>j, &lo, &hi)
        x = self.drawn_code()
        idx = map_get(&self.memo, lo, hi, x)
        if idx >= 0:
            memcpy(out, self.vals + <int64_t>idx * self.stride, (rem + 1) * sizeof(double))
            return 0
        if self.n_states >= self.max_states:
            return -2
        self.n_states += 1
        if self.n_states % SIGNAL_EVERY == 0 and self.pred.check_signals() < 0:
            return -4
        for r in range(rem + 1):
            out[r] = 0.0
        W = self.U - t
        for k in range(NKJ):
            if self.wall[k] <= 0:
                continue
            if k < NK:
                cap = self.caps[k] if self.caps != NULL else 4
                if h[k] >= cap:
                    continue
            p = <double>self.wall[k] / W
            self.wall[k] -= 1
            self.drawn[k] += 1
            if k < NK:
                h[k] += 1
                jj = j
            else:
                jj = j + 1
            rc = 0
            s14 = self.sh(h, jj)
            w = 0
            if s14 == -1:
                w = self.pred.is_win(h, k, jj)
                if w < 0:
                    rc = -3
            if rc == 0 and w == 1:
                for r in range(1, rem + 1):
                    out[r] += p
            elif rc == 0 and s14 + (1 if win_obj else 0) <= rem - 1:
                # (every discard leaves shanten >= s14: otherwise no child can succeed)
                rc = self.best_discard(h, jj, k, t, rem, best, &bestv, &which)
                if rc == 0 and bestv > 0.0:
                    for r in range(1, rem + 1):
                        out[r] += p * best[r - 1]
            if k < NK:
                h[k] -= 1
            self.wall[k] += 1
            self.drawn[k] -= 1
            if rc < 0:
                return rc
        if self.nvals + self.stride > self.capvals:
            pp = realloc(self.vals, self.capvals * 2 * sizeof(double))
            if pp == NULL:
                return -1
            self.vals = <double*>pp
            self.capvals *= 2
        memcpy(self.vals + self.nvals, out, (rem + 1) * sizeof(double))
        if map_put(&self.memo, lo, hi, x, <int32_t>(self.nvals // self.stride)) < 0:
            return -1
        self.nvals += self.stride
        return 0

    cdef int best_discard(self, uint8_t* h, int jj, int k, int t, int rem, double* best,
                          double* bestv, int* which) noexcept nogil:
        """The best discard of the 3n+2 hand (h, jj) after drawing ``k`` at draw t + 1:
        its value vector into ``best`` (rem entries), its value into ``bestv`` (-1 when
        no discard is allowed), the kind discarded into ``which`` (34 = a joker).
        Candidates in order (ties keep the first): the drawn tile, a joker, kinds
        ascending."""
        cdef double child[MAXT + 1]
        cdef int rc = 0, d
        bestv[0] = -1.0
        which[0] = -1
        if k == JK:
            if self.joker_discard:
                rc = self.child_value(h, jj - 1, t, child)
                if rc == 0 and child[rem - 1] > bestv[0]:
                    bestv[0] = child[rem - 1]
                    which[0] = JK
                    memcpy(best, child, rem * sizeof(double))
        else:
            h[k] -= 1
            rc = self.child_value(h, jj, t, child)
            h[k] += 1
            if rc == 0 and child[rem - 1] > bestv[0]:
                bestv[0] = child[rem - 1]
                which[0] = k
                memcpy(best, child, rem * sizeof(double))
            if rc == 0 and jj > 0 and self.joker_discard:
                rc = self.child_value(h, jj - 1, t, child)
                if rc == 0 and child[rem - 1] > bestv[0] + 1e-13:
                    bestv[0] = child[rem - 1]
                    which[0] = JK
                    memcpy(best, child, rem * sizeof(double))
        d = 0
        while rc == 0 and d < NK:
            if h[d] > 0 and d != k:
                h[d] -= 1
                rc = self.child_value(h, jj, t, child)
                h[d] += 1
                if rc == 0 and child[rem - 1] > bestv[0] + 1e-13:
                    bestv[0] = child[rem - 1]
                    which[0] = d
                    memcpy(best, child, rem * sizeof(double))
            d += 1
        return rc

    cdef int child_value(self, uint8_t* h, int j, int t, double* out) noexcept nogil:
        """Value vector of the 3n+1 hand (h, j) after draw t + 1."""
        cdef int s = self.sh(h, j)
        return self.value(h, j, t + 1, s, out)

    def run(self, const uint8_t[::1] h0, int jokers0):
        cdef uint8_t h[NK]
        cdef double out[MAXT + 1]
        cdef int rc, s, r
        memcpy(h, &h0[0], NK)
        with nogil:
            s = self.sh(h, jokers0)
            rc = self.value(h, jokers0, 0, s, out)
        if rc < 0:
            return rc, None
        curve = np.empty(self.T, dtype=np.float64)
        for r in range(self.T):
            curve[r] = out[r + 1]
        return 0, curve

    @property
    def pred_error(self):
        return self.pred.error

    def winning(self, const uint8_t[::1] h0, int jokers0):
        """After :meth:`run` (win objective): the winning-hand distribution under the
        optimal policy, aggregated per (hand, winning draw, jokers), as ``(status,
        (hands uint8 (n, 34), kinds intp (n,), jokers intp (n,), mass float64 (n,)))``.
        A forward pass level by level (states merged per draw count)."""
        cdef int T = self.T, t, rc, k, jj, s14, w, which, rem, i, cap, jn, j
        cdef Py_ssize_t a
        cdef uint8_t h[NK]
        cdef double best[MAXT + 1]
        cdef double bestv, p, m
        cdef int W
        level = {(bytes(h0), jokers0, (0,) * NKJ): 1.0}
        wins = {}
        for t in range(T):
            rem = T - t
            W = self.U - t
            nxt = {}
            for (hb, j, drawn), m in level.items():
                memcpy(h, <const char*>hb, NK)
                for i in range(NKJ):
                    self.drawn[i] = drawn[i]
                    self.wall[i] -= drawn[i]
                rc = 0
                for k in range(NKJ):
                    if self.wall[k] <= 0:
                        continue
                    if k < NK:
                        cap = self.caps[k] if self.caps != NULL else 4
                        if h[k] >= cap:
                            continue
                    p = <double>self.wall[k] / W
                    self.wall[k] -= 1
                    self.drawn[k] += 1
                    if k < NK:
                        h[k] += 1
                        jj = j
                    else:
                        jj = j + 1
                    s14 = self.sh(h, jj)
                    w = 0
                    if s14 == -1:
                        w = self.pred.is_win(h, k, jj)
                        if w < 0:
                            rc = -3
                    if rc == 0 and w == 1:
                        key = ((<char*>h)[:NK], k, jj)
                        wins[key] = wins.get(key, 0.0) + p * m
                    elif rc == 0 and s14 + 1 <= rem - 1:
                        with nogil:
                            rc = self.best_discard(h, jj, k, t, rem, best, &bestv, &which)
                        if rc == 0 and bestv > 0.0:
                            jn = jj
                            if which == JK:
                                jn = jj - 1
                            else:
                                h[which] -= 1
                            key = ((<char*>h)[:NK], jn,
                                   tuple([self.drawn[i] for i in range(NKJ)]))
                            if which != JK:
                                h[which] += 1
                            nxt[key] = nxt.get(key, 0.0) + p * m
                    if k < NK:
                        h[k] -= 1
                    self.wall[k] += 1
                    self.drawn[k] -= 1
                    if rc < 0:
                        break
                for i in range(NKJ):
                    self.wall[i] += self.drawn[i]
                    self.drawn[i] = 0
                if rc < 0:
                    return rc, None
            level = nxt
            if not level:
                break
        n = len(wins)
        hands = np.zeros((n, NK), dtype=np.uint8)
        kinds = np.zeros(n, dtype=np.intp)
        jok = np.zeros(n, dtype=np.intp)
        mass = np.zeros(n, dtype=np.float64)
        for a, ((hb, k, jj), m) in enumerate(sorted(wins.items())):
            hands[a] = np.frombuffer(hb, dtype=np.uint8)
            kinds[a] = k
            jok[a] = jj
            mass[a] = m
        return 0, (hands, kinds, jok, mass)


def true_wall_solve(const uint8_t[::1] h0, int jokers0, object wall35, int T, int objective,
                    int mask, bint quads, object caps=None, *, bint fifth=False,
                    object pair_mask=None, int void_suits=0, bint joker_discard=True,
                    object pred=None, int64_t max_states=200_000, bint wins=False):
    """Exact optimum over actual draws (the true wall) for a short horizon.

    The state is the hand (real tiles ``h0`` uint8 (34,) + ``jokers0`` jokers), and
    the actual remaining wall ``wall35`` (35 counts, index 34 = jokers; a tile drawn
    and thrown back leaves the wall).  After each draw the player wins if the hand
    is complete under the shape options and ``pred`` allows it; otherwise the
    player discards any tile (a joker only if ``joker_discard``).  States are
    memoized and pruned by shanten (``s + 1 > T - t`` for the win, ``s > T - t``
    for tenpai: value 0).

    ``objective`` 0 = win, 1 = tenpai after a draw (a win counts; a hand tenpai
    before any draw has P = 1).  Returns ``(value, curve, n_states)`` with
    ``curve`` float64 (T,), ``curve[t-1]`` the probability that the event happened
    by draw ``t`` under the policy optimal for the whole horizon (ties: the drawn
    tile is thrown back, then the lowest kind), or None when more than
    ``max_states`` states are needed.  An exception raised by ``pred`` (or a
    signal, e.g. KeyboardInterrupt) is re-raised as itself.

    With ``wins=True`` (win objective only) a fourth element is returned: the
    winning-hand distribution under that policy, ``(hands uint8 (n, 34), kinds
    intp (n,) (34 = a joker), jokers intp (n,), mass float64 (n,))`` with
    ``mass.sum() == value`` (the real tiles of each complete hand, the winning
    draw, the jokers held, the probability of winning that way).
    """
    if T < 0 or T > MAXT:
        raise ValueError(f"true_wall_solve handles 0 <= T <= {MAXT}")
    w = np.ascontiguousarray(wall35, dtype=np.int32)
    if w.shape != (NKJ,):
        raise ValueError("wall35 must hold 35 counts")
    if T > int(w.sum()) or (w < 0).any():
        raise ValueError("T exceeds the wall, or a negative wall count")
    cap_arr = np.full(NK, 4, dtype=np.int64) if caps is None else np.asarray(caps, dtype=np.int64)
    if (np.asarray(h0, dtype=np.int64) + w[:NK] > cap_arr).any():
        raise ValueError("hand + wall hold more copies of a kind than caps allow")
    cdef _TrueWall tw = _TrueWall(w, caps, mask, quads, fifth, pair_mask, void_suits,
                                  joker_discard, T, objective, pred, max_states)
    if T == 0:
        s = shj(&tw.o, &h0[0], jokers0)
        v0 = 1.0 if (objective == OBJ_TENPAI and s <= 0) else 0.0
        if wins:
            return v0, np.zeros(0), 0, (np.zeros((0, NK), dtype=np.uint8), np.zeros(0, np.intp),
                                        np.zeros(0, np.intp), np.zeros(0))
        return v0, np.zeros(0), 0
    if wins and objective != OBJ_WIN:
        raise ValueError("wins=True needs the win objective")
    rc, curve = tw.run(h0, jokers0)
    if rc == 0 and wins:
        rc, dist = tw.winning(h0, jokers0)
    if rc == -2:
        return None
    if rc in (-3, -4):
        raise tw.pred.error
    if rc < 0:
        raise MemoryError("out of memory in the true-wall search")
    if wins:
        return float(curve[T - 1]), curve, int(tw.n_states), dist
    return float(curve[T - 1]), curve, int(tw.n_states)


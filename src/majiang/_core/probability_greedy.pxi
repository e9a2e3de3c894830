# Part of probability.pyx (textually included: one compilation unit).  Monte Carlo
# play of the ukeire-greedy policy on real shuffled walls.

# ---------------------------------------------------------------------------
# Greedy policy on real walls
# ---------------------------------------------------------------------------

cdef extern from *:
    int ctz64 "__builtin_ctzll"(unsigned long long) nogil


cdef enum:
    GR_MAX = 20             # discard kinds of one record (hands hold at most 18 tiles)
    GR_LIMIT = 200000       # records a memo keeps before it starts again (~35 MB)


cdef struct GRec:
    # one hand after a draw (3n+2 tiles, jokers): the discards (real kinds) that leave
    # the least shanten ``target``, each with the kinds whose draw would then lower it
    # (bit k; bit JK: a joker), in kind order
    int target
    int n
    uint8_t kinds[GR_MAX]
    uint64_t masks[GR_MAX]


cdef class GreedyMemo:
    """The greedy player's per-hand facts (:func:`simulate_greedy`: the discards leaving
    the least shanten and their effective kinds) kept across calls, for one position's
    roots and chunks of walls: pass the same object as ``memo=``.  Bound to the shape
    options of its first call (another set raises ValueError); not for concurrent calls.
    Starts again after GR_LIMIT hands."""
    cdef Map m
    cdef GRec* recs
    cdef int64_t n, cap
    cdef object key

    def __cinit__(self):
        self.recs = NULL
        self.n = 0
        self.cap = 0
        self.key = None
        if map_init(&self.m, 4096) < 0:
            raise MemoryError()

    def __dealloc__(self):
        map_free(&self.m)
        free(self.recs)

    @property
    def size(self):
        """Hands kept."""
        return self.n


cdef inline int mask_live(uint64_t m, const int* left) noexcept nogil:
    """Live copies (``left`` > 0) of the kinds of bit set ``m`` (bit JK: jokers)."""
    cdef int total = 0, k
    while m:
        k = ctz64(m)
        if left[k] > 0:
            total += left[k]
        m &= m - 1
    return total


cdef uint64_t effective_mask(uint8_t* h, int j, int s, const Opts* o,
                             bint joker) noexcept nogil:
    """The kinds whose draw lowers the shanten ``s`` of the 3n+1 hand ``(h, j)`` below
    the cap (bit JK: a joker, asked only when ``joker``: jokers may still be drawn), as
    the live effective tiles of a discard count them (:func:`mask_live`)."""
    cdef uint64_t m = 0
    cdef int k, cap
    for k in range(NK):
        cap = o.caps[k] if o.caps != NULL else 4
        if h[k] >= cap:
            continue
        h[k] += 1
        if shj(o, h, j) < s:
            m |= (<uint64_t>1) << k
        h[k] -= 1
    if joker and shj(o, h, j + 1) < s:
        m |= (<uint64_t>1) << JK
    return m


cdef int32_t gr_add(GRec** recs, int64_t* n, int64_t* cap, uint8_t* h, int j,
                    const Opts* o, bint joker) noexcept nogil:
    """Append the :class:`GRec` of the hand ``(h, j)``; its index, or -1 out of memory."""
    cdef GRec* r
    cdef GRec* grown
    cdef int d, sd, best = 1000
    cdef int8_t sh[NK]
    if n[0] == cap[0]:
        grown = <GRec*>realloc(recs[0], (cap[0] * 2 + 64) * sizeof(GRec))
        if grown == NULL:
            return -1
        recs[0] = grown
        cap[0] = cap[0] * 2 + 64
    r = &recs[0][n[0]]
    for d in range(NK):
        sh[d] = 127
        if h[d] == 0:
            continue
        h[d] -= 1
        sd = shj(o, h, j)
        h[d] += 1
        sh[d] = <int8_t>(sd if sd < 127 else 126)
        if sd < best:
            best = sd
    r.target = best
    r.n = 0
    for d in range(NK):
        if sh[d] != best or h[d] == 0 or r.n == GR_MAX:
            continue
        h[d] -= 1
        r.kinds[r.n] = <uint8_t>d
        r.masks[r.n] = effective_mask(h, j, best, o, joker)
        r.n += 1
        h[d] += 1
    n[0] += 1
    return <int32_t>(n[0] - 1)


@cython.boundscheck(False)
@cython.wraparound(False)
def simulate_greedy(const uint8_t[::1] h0, const uint8_t[::1] u0, object caps, int mask,
                    bint quads, object pred, const uint8_t[:, ::1] walls,
                    int16_t[::1] win_time, int16_t[::1] tenpai_time, uint8_t[:, ::1] final,
                    int8_t[::1] win_tile, *, int jokers0=0, int joker_unseen=0,
                    bint joker_discard=True, bint fifth=False, object pair_mask=None,
                    int void_suits=0, int8_t[::1] final_jokers=None, GreedyMemo memo=None):
    """Ukeire-greedy play on each wall (uint8 values 0..34, 34 = a joker): win
    whenever the predicate allows; a drawn joker is always kept (the real tile whose
    discard leaves the lowest shanten and the most live effective tiles goes);
    after a real draw that lowers shanten (or completes a hand that does not win),
    discard the tile that keeps the lowest shanten with the most live effective
    tiles (live = unseen copies minus every copy drawn so far), preferring to discard
    the drawn tile, then the lowest kind; any other draw is discarded.  Jokers are
    never discarded.  Outputs as :meth:`Graph.simulate`.  ``memo``: a
    :class:`GreedyMemo` shared by calls with the same options (the same decisions,
    fewer shanten evaluations); None: one for this call.  Returns 0, -3 when the
    predicate raised, -4 when interrupted (the exception is in ``pred.error`` when
    ``pred`` is a :class:`_Pred`)."""
    cdef _Pred P = pred if isinstance(pred, _Pred) else _Pred(pred)
    cdef uint8_t capsbuf[NK]
    cdef const uint8_t* cp = NULL
    cdef int i
    if caps is not None:
        for i in range(NK):
            capsbuf[i] = caps[i]
        cp = capsbuf
    cdef Opts o = build_opts(mask, quads, cp, fifth, pair_mask, void_suits)
    cdef Py_ssize_t r, nr = walls.shape[0]
    cdef int T = walls.shape[1]
    cdef uint8_t h[NK]
    cdef int left[NKJ]
    cdef int t, k, d, s, s14, w, target, best_d, best_u, u, rc = 0, j, jj, q
    cdef bint has_fj = final_jokers is not None
    cdef GRec* rec
    cdef int32_t ri
    cdef uint64_t lo, hi
    cdef bint joker = joker_unseen > 0
    if memo is None:
        memo = GreedyMemo()
    key = (mask, bool(quads), None if caps is None else (<char*>capsbuf)[:NK], bool(fifth),
           pair_mask, void_suits, bool(joker))
    if memo.key is None:
        memo.key = key
    elif memo.key != key:
        raise ValueError("this GreedyMemo was filled under other shape options")
    if memo.n >= GR_LIMIT:
        map_free(&memo.m)
        memo.n = 0
        if map_init(&memo.m, 4096) < 0:
            raise MemoryError()
    with nogil:
        for r in range(nr):
            if r % 256 == 255 and P.check_signals() < 0:
                rc = -4
                break
            memcpy(h, &h0[0], NK)
            for i in range(NK):
                left[i] = u0[i]
            left[JK] = joker_unseen
            j = jokers0
            s = shj(&o, h, j)
            win_time[r] = -1
            win_tile[r] = -1
            tenpai_time[r] = 0 if s <= 0 else -1
            for t in range(T):
                k = walls[r, t]
                left[k] -= 1
                if k < NK:
                    h[k] += 1
                    jj = j
                else:
                    jj = j + 1
                s14 = shj(&o, h, jj)
                if s14 == -1:
                    w = P.is_win(h, k, jj)
                    if w < 0:
                        rc = -3
                        break
                    if w == 1:
                        if k < NK:
                            h[k] -= 1
                        win_time[r] = t + 1
                        win_tile[r] = k
                        break
                if k < NK and s14 >= s:
                    h[k] -= 1
                    continue
                # the decision: among the discards leaving the least shanten, the most
                # live effective tiles; the shanten and effective kinds of each
                # discard depend on the hand only and are kept per hand (gr_*), the
                # live counts are this wall's
                pack(h, <uint64_t>jj, &lo, &hi)
                ri = map_get(&memo.m, lo, hi, 0)
                if ri < 0:
                    ri = gr_add(&memo.recs, &memo.n, &memo.cap, h, jj, &o, joker)
                    if ri < 0 or map_put(&memo.m, lo, hi, 0, ri) < 0:
                        rc = -1
                        break
                rec = &memo.recs[ri]
                target = rec.target
                best_d = -1
                best_u = -1
                for q in range(rec.n):
                    d = rec.kinds[q]
                    u = mask_live(rec.masks[q], left)
                    if d == k:
                        if u >= best_u:       # the drawn tile is kept on ties
                            best_u = u
                            best_d = d
                    elif u > best_u:
                        best_u = u
                        best_d = d
                if best_d >= 0:
                    h[best_d] -= 1
                j = jj
                s = target if target >= 0 else 0
                if tenpai_time[r] < 0 and s <= 0:
                    tenpai_time[r] = t + 1
            if rc < 0:
                break
            memcpy(&final[r, 0], h, NK)
            if has_fj:
                final_jokers[r] = j
    if rc == -1:
        raise MemoryError()
    return rc


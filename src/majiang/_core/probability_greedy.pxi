# Part of probability.pyx (textually included: one compilation unit).  Monte Carlo
# play of the ukeire-greedy policy on real shuffled walls.

# ---------------------------------------------------------------------------
# Greedy policy on real walls
# ---------------------------------------------------------------------------

cdef int live_ukeire(uint8_t* h, int j, int s, const Opts* o, const int* left) noexcept nogil:
    """Live effective tiles of a 3n+1 hand of shanten s (``left`` = copies still in the
    wall as the player knows it, index 34 = jokers)."""
    cdef int k, total = 0, cap
    for k in range(NK):
        if left[k] <= 0:
            continue
        cap = o.caps[k] if o.caps != NULL else 4
        if h[k] >= cap:
            continue
        h[k] += 1
        if shj(o, h, j) < s:
            total += left[k]
        h[k] -= 1
    if left[JK] > 0 and shj(o, h, j + 1) < s:
        total += left[JK]
    return total


@cython.boundscheck(False)
@cython.wraparound(False)
def simulate_greedy(const uint8_t[::1] h0, const uint8_t[::1] u0, object caps, int mask,
                    bint quads, object pred, const uint8_t[:, ::1] walls,
                    int16_t[::1] win_time, int16_t[::1] tenpai_time, uint8_t[:, ::1] final,
                    int8_t[::1] win_tile, *, int jokers0=0, int joker_unseen=0,
                    bint joker_discard=True, bint fifth=False, object pair_mask=None,
                    int void_suits=0, int8_t[::1] final_jokers=None):
    """Ukeire-greedy play on each wall (uint8 values 0..34, 34 = a joker): win
    whenever the predicate allows; a drawn joker is always kept (the real tile whose
    discard leaves the lowest shanten and the most live effective tiles goes);
    after a real draw that lowers shanten (or completes a hand that does not win),
    discard the tile that keeps the lowest shanten with the most live effective
    tiles (live = unseen copies minus every copy drawn so far), preferring to discard
    the drawn tile, then the lowest kind; any other draw is discarded.  Jokers are
    never discarded.  Outputs as :meth:`Graph.simulate`.  Returns 0, -3 when the
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
    cdef int t, k, d, s, s14, sd, w, target, best_d, best_u, u, rc = 0, j, jj
    cdef bint has_fj = final_jokers is not None
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
                target = 1000
                best_d = -1
                best_u = -1
                if k < NK:
                    # the drawn tile first (kept on ties)
                    h[k] -= 1
                    target = shj(&o, h, jj)
                    best_u = live_ukeire(h, jj, target, &o, left)
                    best_d = k
                    h[k] += 1
                for d in range(NK):
                    if d == k or h[d] == 0:
                        continue
                    h[d] -= 1
                    sd = shj(&o, h, jj)
                    if sd < target:
                        target = sd
                        best_u = -1
                    if sd == target:
                        u = live_ukeire(h, jj, sd, &o, left)
                        if u > best_u:
                            best_u = u
                            best_d = d
                    h[d] += 1
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
    return rc


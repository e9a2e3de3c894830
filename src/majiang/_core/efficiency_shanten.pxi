# Shanten of one vector.
# Part of the efficiency kernel: textually included by efficiency.pyx (one
# compilation unit; the enums and imports there, the shared declarations in
# efficiency.pxd).
#
# Group rows (table or programme), the min-plus combination of the four groups,
# the regular form, and the table / general / joker routes of one count vector.
# The whole-hand forms they call are in efficiency_forms.pxi.


# ---------------------------------------------------------------------------
# Shanten of one vector
# ---------------------------------------------------------------------------

cdef inline int table_index(const uint8_t* h, int npos, const int32_t* off) noexcept nogil:
    """Rank of ``h[:npos]`` among vectors with at most MAXSUM tiles, or -1 if it has more."""
    cdef int i, ps = 0, idx = 0, v
    for i in range(npos):
        v = h[i]
        if ps + v > MAXSUM:
            return -1
        idx += off[(i * (MAXSUM + 1) + ps) * 5 + v]
        ps += v
    return idx


cdef inline const uint8_t* suit_row(const uint8_t* h, const uint8_t* caps, int base, int npos,
                                    bint chows, int M, int pair_bits,
                                    uint8_t* scratch) noexcept nogil:
    """Distance row of one suit (npos=9) or the honors (npos=7): a table row when the
    table covers it, else the programme's row written into ``scratch``.

    ``pair_bits``: positions that may hold the pair (all ``npos`` bits = any)."""
    cdef int i, idx = -1, full = (1 << npos) - 1
    cdef bint direct = M > TM, zero = caps != NULL
    cdef const uint8_t* row
    if caps != NULL:
        for i in range(npos):
            if caps[base + i] != 4:
                direct = True
            if caps[base + i] != 0:
                zero = False
        if zero:
            # no copy of this group may be used (a void suit, or not in the tile set)
            memset(scratch, INF, ROW)
            scratch[0] = 0
            return scratch
    pair_bits &= full
    if not direct:
        if chows:
            idx = table_index(h + base, npos, &SUIT_OFF[0][0][0])
        else:
            idx = table_index(h + base, npos, &HONOR_OFF[0][0][0])
        if idx >= 0:
            row = (SUIT_TABLE if chows else HONOR_TABLE) + <Py_ssize_t>idx * TROW
            if pair_bits == full:
                return row
            if pair_bits != 0:
                row = pattern_table(pair_bits | (0 if chows else 512))
                if row == NULL:
                    dp_direct(h + base, NULL, npos, chows, pair_bits, scratch)
                    return scratch
                return row + <Py_ssize_t>idx * PROW
            # no pair in this group: keep the pairless entries
            for i in range(TM + 1):
                scratch[i * 2] = row[i * 2]
                scratch[i * 2 + 1] = INF
            for i in range((TM + 1) * 2, ROW):
                scratch[i] = INF
            return scratch
    dp_direct(h + base, caps + base if caps != NULL else NULL, npos, chows, pair_bits, scratch)
    return scratch


cdef void group_row(const uint8_t* h, const uint8_t* caps, int g, int M, int pair_bits,
                    uint8_t* out) noexcept nogil:
    """The distance row of one group for other core modules (shapes.pyx): ``out[m * 2 + p]``
    (ROW = 12 entries, m = 0..5 sets, p = 1 with the pair) = least tiles to add to group
    ``g`` of ``h`` (0-2: the suits, 3: the honors) for m sets (+ the pair) of that group
    within ``caps`` (NULL = 4 each), the pair on a position of ``pair_bits`` (bit i =
    rank i of the group); INF (100) or more = impossible, as is every m above ``M``.
    A table row when the tables cover it (call ensure_tables / ensure_pair_tables
    first), else the programme."""
    cdef uint8_t scratch[ROW]
    cdef const uint8_t* r
    cdef int i, n = (M + 1) * 2 if M < MAXM else ROW
    r = suit_row(h, caps, 9 * g, 9 if g < 3 else 7, g < 3, M, pair_bits, scratch)
    memcpy(out, r, n)
    for i in range(n, ROW):
        out[i] = INF


cdef inline void minplus(const uint8_t* A, const uint8_t* B, uint8_t* C, int M) noexcept nogil:
    """C[m, p] = min A[m1, p1] + B[m2, p2] over m1 + m2 = m, p1 + p2 = p (p <= 1).

    Entries >= INF mean impossible; sums of those never fall below INF.
    """
    cdef int m1, m2, a0, a1, v
    memset(C, INF, ROW)
    for m1 in range(M + 1):
        a0 = A[m1 * 2]
        a1 = A[m1 * 2 + 1]
        for m2 in range(M + 1 - m1):
            v = a0 + B[m2 * 2]
            if v < C[(m1 + m2) * 2]:
                C[(m1 + m2) * 2] = <uint8_t>v
            v = a0 + B[m2 * 2 + 1]
            if a1 + B[m2 * 2] < v:
                v = a1 + B[m2 * 2]
            if v < C[(m1 + m2) * 2 + 1]:
                C[(m1 + m2) * 2 + 1] = <uint8_t>v


cdef inline int combine(const uint8_t* r0, const uint8_t* r1, const uint8_t* r2,
                        const uint8_t* rh, int M) noexcept nogil:
    """Distance to M sets + a pair from the rows of the three suits and the honors."""
    cdef uint8_t c01[ROW]
    cdef uint8_t c2h[ROW]
    cdef int m, v, best = INF
    minplus(r0, r1, c01, M)
    minplus(r2, rh, c2h, M)
    for m in range(M + 1):
        v = c01[m * 2] + c2h[(M - m) * 2 + 1]
        if v < best:
            best = v
        v = c01[m * 2 + 1] + c2h[(M - m) * 2]
        if v < best:
            best = v
    return best


cdef inline int imin(int a, int b) noexcept nogil:
    return a if a < b else b


cdef inline void minplus_pair(const uint8_t* A, const uint8_t* B, int* C0, int* C1,
                              int M) noexcept nogil:
    """Branchless min-plus of two rows: C0[m] (no pair) and C1[m] (the pair in A or B)
    for m = 0..M.  Entries may exceed INF where ``minplus`` stores INF; both give the
    same minimum below INF (no finite sum reaches INF)."""
    cdef int m, i, v0, v1
    for m in range(M + 1):
        v0 = A[0] + B[2 * m]
        v1 = imin(A[0] + B[2 * m + 1], A[1] + B[2 * m])
        for i in range(1, m + 1):
            v0 = imin(v0, A[2 * i] + B[2 * (m - i)])
            v1 = imin(v1, imin(A[2 * i] + B[2 * (m - i) + 1], A[2 * i + 1] + B[2 * (m - i)]))
        C0[m] = v0
        C1[m] = v1


cdef inline int combine_m(const uint8_t* r0, const uint8_t* r1, const uint8_t* r2,
                          const uint8_t* rh, int M) noexcept nogil:
    """``combine`` without branches or stores of the (5, 2) products; called with a
    constant M so the compiler unrolls every loop."""
    cdef int a0[TM + 1]
    cdef int a1[TM + 1]
    cdef int b0[TM + 1]
    cdef int b1[TM + 1]
    cdef int m, best = INF
    minplus_pair(r0, r1, a0, a1, M)
    minplus_pair(r2, rh, b0, b1, M)
    for m in range(M + 1):
        best = imin(best, imin(a0[m] + b1[M - m], a1[m] + b0[M - m]))
    return best


cdef int combine_fast(const uint8_t* r0, const uint8_t* r1, const uint8_t* r2,
                      const uint8_t* rh, int M) noexcept nogil:
    """``combine`` of four table rows, specialised by the number of sets (M <= TM)."""
    if M == 4:
        return combine_m(r0, r1, r2, rh, 4)
    if M == 3:
        return combine_m(r0, r1, r2, rh, 3)
    if M == 2:
        return combine_m(r0, r1, r2, rh, 2)
    if M == 1:
        return combine_m(r0, r1, r2, rh, 1)
    return combine_m(r0, r1, r2, rh, 0)


cdef bint USE_FIVE_BOUND = 1


def set_five_bound(bint on):
    """Testing switch: five-set hands (16-tile rulesets) from the four-set table rows and
    a bound (:func:`five_set_distance`) or always by the direct programme."""
    global USE_FIVE_BOUND
    USE_FIVE_BOUND = on


cdef int five_set_distance(const uint8_t* h, uint64_t pair_mask) noexcept nogil:
    """Distance to five sets + a pair (16-tile hands, no caps) from table rows, or -1 when
    the rows cannot settle it (the caller then runs the direct programme).

    The tables hold each group's distances for at most TM = 4 sets.  Every split of the
    five sets over the four groups with at most four in each is combined exactly from
    them; a split with all five in one group g (the others hold nothing but perhaps the
    pair) needs at least ``max(d(g, 4 sets), 15 - tiles of g)`` added tiles without the
    pair there and ``max(d(g, 4 sets + pair), 17 - tiles of g)`` with it (a distance
    never falls when a set is added; the five sets hold 15 tiles).  When that bound is
    no better than the exact minimum over the other splits, the minimum is the
    distance; otherwise -1."""
    cdef uint8_t scratch[4][ROW]
    cdef uint8_t rows[4][ROW]
    cdef const uint8_t* r
    cdef int g, i, base, npos, best, lb0, lb1, pmin, held
    cdef int cnt[4]
    for g in range(4):
        base = 9 * g
        npos = 9 if g < 3 else 7
        r = suit_row(h, NULL, base, npos, g < 3, TM,
                     <int>((pair_mask >> base) & ((1 << npos) - 1)), scratch[g])
        memcpy(rows[g], r, (TM + 1) * 2)
        rows[g][(TM + 1) * 2] = INF
        rows[g][(TM + 1) * 2 + 1] = INF
        held = 0
        for i in range(base, base + npos):
            held += h[i]
        cnt[g] = held
    best = combine(rows[0], rows[1], rows[2], rows[3], TM + 1)
    for g in range(4):
        lb0 = rows[g][TM * 2]
        if 3 * (TM + 1) - cnt[g] > lb0:
            lb0 = 3 * (TM + 1) - cnt[g]
        lb1 = rows[g][TM * 2 + 1]
        if 3 * (TM + 1) + 2 - cnt[g] > lb1:
            lb1 = 3 * (TM + 1) + 2 - cnt[g]
        pmin = INF
        for i in range(4):
            if i != g and rows[i][1] < pmin:
                pmin = rows[i][1]
        if lb1 < best or lb0 + pmin < best:
            return -1
    return best


cdef int regular_distance(const uint8_t* h, int M, const uint8_t* caps,
                          uint64_t pair_mask) noexcept nogil:
    """Distance to M sets + a pair within ``caps``, the pair on a kind of ``pair_mask``."""
    cdef uint8_t s0[ROW]
    cdef uint8_t s1[ROW]
    cdef uint8_t s2[ROW]
    cdef uint8_t sh[ROW]
    cdef int d
    if M == TM + 1 and caps == NULL and USE_FIVE_BOUND:
        d = five_set_distance(h, pair_mask)
        if d >= 0:
            return d
    return combine(suit_row(h, caps, 0, 9, True, M, <int>(pair_mask & 0x1FF), s0),
                   suit_row(h, caps, 9, 9, True, M, <int>((pair_mask >> 9) & 0x1FF), s1),
                   suit_row(h, caps, 18, 9, True, M, <int>((pair_mask >> 18) & 0x1FF), s2),
                   suit_row(h, caps, 27, 7, False, M, <int>((pair_mask >> 27) & 0x7F), sh),
                   M)


cdef int n_sets_c(const uint8_t* h) noexcept nogil:
    """Sets needed for a concealed vector of n tiles, or an error code."""
    cdef int i, n = 0
    for i in range(N_KINDS):
        if h[i] > 4:
            return ERR_BAD_COUNT
        n += h[i]
    if n % 3 == 0 or n > 17:
        return ERR_BAD_SIZE
    return n // 3


cdef int shanten_general(const uint8_t* h, int M, int mask, bint quads,
                         const uint8_t* caps, uint64_t pair_mask) noexcept nogil:
    """Least tiles to add (the distance d) for M sets + a pair, any caps; INF if impossible.

    The whole-hand forms (seven pairs, thirteen orphans, honors-and-knitted) are tried
    when M == 4 (13/14 tiles with jokers: no melds; 16-tile callers with a meld clear
    them from ``mask``).  ``pair_mask`` restricts the pair of the regular form only."""
    cdef int best = INF, d
    if mask & FORM_REGULAR:
        best = regular_distance(h, M, caps, pair_mask)
    if M == 4:
        if mask & FORM_SEVEN_PAIRS:
            if caps == NULL:
                d = seven_pairs_distance(h, quads)
            else:
                d = seven_pairs_caps_distance(h, quads, caps)
            if d < best:
                best = d
        if mask & FORM_THIRTEEN_ORPHANS:
            if caps == NULL:
                d = thirteen_orphans_distance(h)
            else:
                d = thirteen_orphans_caps_distance(h, caps)
            if d < best:
                best = d
    if mask & (FORM_HONORS_KNITTED | FORM_KNITTED_STRAIGHT):
        d = knitted_distance(h, mask, M, caps, best)
        if d < best:
            best = d
    return best


cdef inline int checked_index(const uint8_t* h, int npos, const int32_t* off,
                              int* total) noexcept nogil:
    """Table rank of ``h[:npos]``; -1 if it holds more than MAXSUM tiles, -2 if a count > 4."""
    cdef int i, v, ps = 0, idx = 0
    cdef bint over = False
    for i in range(npos):
        v = h[i]
        if v > 4:
            return -2
        if not over:
            if ps + v > MAXSUM:
                over = True
            else:
                idx += off[(i * (MAXSUM + 1) + ps) * 5 + v]
        ps += v
    total[0] += ps
    return -1 if over else idx


cdef inline int fast_index(const uint8_t* h, int npos, const int32_t* off, int* total,
                           int* bad) noexcept nogil:
    """``checked_index`` without branches: the rank of ``h[:npos]``, valid only when the
    group holds at most MAXSUM tiles (``total`` grows by the group's tiles; the caller
    compares) and no count is above 4 (else ``bad`` is set).  Indices are clamped so
    no read leaves the offset table."""
    cdef int i, v, ps = 0, idx = 0
    for i in range(npos):
        v = h[i]
        bad[0] |= (v + 3) & ~7          # nonzero exactly when v > 4
        idx += off[(i * (MAXSUM + 1) + imin(ps, MAXSUM)) * 5 + imin(v, 4)]
        ps += v
    total[0] += ps
    return idx if ps <= MAXSUM else -1


cdef int shanten_c(const uint8_t* h, int mask, bint quads, const uint8_t* caps) noexcept nogil:
    """Shanten of one vector under the forms in ``mask``, or an error code (< -1)."""
    return shanten_jokers_c(h, mask, quads, caps, 0, False)


cdef int with_jokers(int d, int jokers) noexcept nogil:
    """Shanten from the distance of the real tiles: each joker fills one missing tile."""
    if d >= INF:
        return INF - 1
    d -= jokers
    return (d if d > 0 else 0) - 1


cdef int shanten_jokers_c(const uint8_t* h, int mask, bint quads, const uint8_t* caps,
                          int jokers, bint fifth) noexcept nogil:
    """Shanten of real tiles ``h`` plus ``jokers`` wild tiles, or an error code (< -1).

    The hand (real + jokers) needs M = (n + jokers) // 3 sets and a pair.  A joker
    fills one missing tile of the target arrangement, so the distance is the real
    tiles' distance to M sets + a pair less the jokers (it is never below the
    jokers: the target has at least n + jokers tiles).  Without ``fifth`` a joker
    only stands for a copy that exists (target counts <= caps); with it, targets
    may hold up to caps + jokers of a kind.  Seven pairs, thirteen orphans and the
    knitted forms need distinct kinds and never use a fifth copy.

    The common case (no caps, at most 14 tiles per suit, at most four sets) is
    four table rows; everything else takes the general route.
    """
    cdef int total = 0, n, M, best = INF, d, pairs, odd, bad = 0
    cdef int i0, i1, i2, ih
    cdef const uint8_t* r0
    cdef const uint8_t* r1
    cdef const uint8_t* r2
    cdef const uint8_t* rh
    cdef uint8_t loose[N_KINDS]
    cdef int k
    if caps != NULL or (fifth and jokers > 0):
        M = n_sets_c(h)
        if M == ERR_BAD_COUNT:
            return M
        n = 0
        for k in range(N_KINDS):
            n += h[k]
        n += jokers
        if n % 3 == 0 or n > 17:
            return ERR_BAD_SIZE
        M = n // 3
        if fifth and jokers > 0:
            for k in range(N_KINDS):
                loose[k] = (caps[k] if caps != NULL else 4) + jokers
            d = shanten_general(h, M, mask & FORM_REGULAR, quads, loose, pair_all())
            if mask & ~FORM_REGULAR:
                best = shanten_general(h, M, mask & ~FORM_REGULAR, quads, caps, pair_all())
                if best < d:
                    d = best
            return with_jokers(d, jokers)
        return with_jokers(shanten_general(h, M, mask, quads, caps, pair_all()), jokers)
    i0 = fast_index(h, 9, &SUIT_OFF[0][0][0], &total, &bad)
    i1 = fast_index(h + 9, 9, &SUIT_OFF[0][0][0], &total, &bad)
    i2 = fast_index(h + 18, 9, &SUIT_OFF[0][0][0], &total, &bad)
    ih = fast_index(h + 27, 7, &HONOR_OFF[0][0][0], &total, &bad)
    if bad:
        return ERR_BAD_COUNT
    n = total + jokers
    if n % 3 == 0 or n > 17:
        return ERR_BAD_SIZE
    M = n // 3
    if M > TM or i0 < 0 or i1 < 0 or i2 < 0 or ih < 0:
        return with_jokers(shanten_general(h, M, mask, quads, NULL, pair_all()), jokers)
    r0 = SUIT_TABLE + <Py_ssize_t>i0 * TROW
    r1 = SUIT_TABLE + <Py_ssize_t>i1 * TROW
    r2 = SUIT_TABLE + <Py_ssize_t>i2 * TROW
    rh = HONOR_TABLE + <Py_ssize_t>ih * TROW
    if mask & FORM_REGULAR:
        best = combine_fast(r0, r1, r2, rh, M)
    if M == 4:
        if mask & FORM_SEVEN_PAIRS:
            if quads:
                pairs = r0[ST_HALVES] + r1[ST_HALVES] + r2[ST_HALVES] + rh[ST_HALVES]
                odd = r0[ST_ODD] + r1[ST_ODD] + r2[ST_ODD] + rh[ST_ODD]
            else:
                pairs = r0[ST_PAIRS] + r1[ST_PAIRS] + r2[ST_PAIRS] + rh[ST_PAIRS]
                odd = r0[ST_SINGLES] + r1[ST_SINGLES] + r2[ST_SINGLES] + rh[ST_SINGLES]
            d = pairs_distance(pairs, odd)
            if d < best:
                best = d
        if mask & FORM_THIRTEEN_ORPHANS:
            d = 14 - (r0[ST_ORPHANS] + r1[ST_ORPHANS] + r2[ST_ORPHANS] + rh[ST_ORPHANS])
            if r0[ST_ORPHAN_PAIR] or r1[ST_ORPHAN_PAIR] or r2[ST_ORPHAN_PAIR] or rh[ST_ORPHAN_PAIR]:
                d -= 1
            if d < best:
                best = d
    if mask & (FORM_HONORS_KNITTED | FORM_KNITTED_STRAIGHT):
        d = knitted_distance(h, mask, M, NULL, best)
        if d < best:
            best = d
    return with_jokers(best, jokers)

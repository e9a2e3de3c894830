# Second-order advice, the context of one hand.
# Part of the efficiency kernel: textually included by efficiency.pyx (one
# compilation unit; the enums and imports there, the shared declarations in
# efficiency.pxd).
#
# What every state of the second-order column reads: the rows of each group, their
# min-plus products and the shanten of a state; the effective draws and the column
# itself are in efficiency_second_order.pxi.


# ---------------------------------------------------------------------------
# Second-order advice (改良), incremental
# ---------------------------------------------------------------------------
# improvement(d) is the average, over the effective draws k of h - d (weight: live
# copies), of the best live ukeire over the discards d2 of H = h - d + k that keep shanten
# s_d - 1.  Every state S = h - d + k - d2 is a 3n+1 vector whose shanten and effective
# kinds do not depend on what is visible (only the live counts do), so both are kept per
# call: (d, k, d2) and (d2, k, d) reach the same state, k == d a first-level state
# h - d2 (known from the first pass) and d2 == k the state h - d (shanten s_d: never
# kept).  On the table path (plain options, at most 14 tiles) the rows of H, the min-plus
# products of its pairs of groups and of each three groups are made once per H (from the
# rows of h for the groups the draw and discard left alone); a discard d2 changes one
# group row, a draw j one more, so a state costs three min-plus products, and a draw j
# a look at the few (sets, pair) splits of its group that can drop (a draw lowers a
# row entry by at most one) and at the whole forms' totals changed by one kind.  A
# joker's fifth copy takes the general kernels for each new state, still memoised.
# Hands of more than 14 tiles (16-tile rulesets) read their rows from the programme as
# under caps; the knitted forms (全不靠, 组合龙) are computed on the vector like the whole
# forms under caps.  Same values as
# ``discard_rows`` (min-plus over (sets, pair) is associative and commutative, exact
# below INF); tests/test_second_order.py checks them against a reference from scratch.
# With caps, a pair restriction or void suits (a hand with melds, a reduced tile set,
# 二五八将, 缺一门) the rows come from the programme (``suit_row``) once per group vector
# and call (``RowCache``), a void suit is one variant per suit (the least distance over
# them, as in ``shanten_opts_c``), and the whole forms are computed on the vector, only
# when they are within one of the state's distance; jokers lower every distance by
# their number (an effective draw lowers the distance of the real tiles).

cdef extern from "math.h" nogil:
    double NAN

cdef enum:
    SO_UNKNOWN = 127

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static inline int mj_lowest_bit(unsigned long long x) {
        unsigned long i; _BitScanForward64(&i, x); return (int)i;
    }
    #else
    static inline int mj_lowest_bit(unsigned long long x) { return __builtin_ctzll(x); }
    #endif
    """
    int lowest_bit "mj_lowest_bit"(uint64_t x) noexcept nogil   # x != 0

cdef int SO_PI[4][4]        # index of the pair of groups (a, b) among the six
cdef int SO_OTHER[4][4]     # index of the pair of the two groups other than a and b
SO_PI[:] = [[-1, 0, 1, 2], [0, -1, 3, 4], [1, 3, -1, 5], [2, 4, 5, -1]]
SO_OTHER[:] = [[-1, 5, 4, 3], [5, -1, 2, 1], [4, 2, -1, 0], [3, 1, 0, -1]]


cdef enum:
    RC_SLOTS = 8192       # rows kept per call when they do not come from the tables
    SO_MAXV = 3           # void-suit variants (one per suit the hand may lack)

cdef struct RowCache:
    # rows of group vectors under caps / a pair restriction, computed once per call
    # (open addressing on the group's base-5 code; full -> NULL, the general route)
    int32_t key[2 * RC_SLOTS]
    int32_t slot[2 * RC_SLOTS]
    int n
    uint8_t rows[RC_SLOTS][ROW]

cdef struct SOCtx:
    int M
    int mask
    bint quads
    int J                           # jokers (each fills one missing tile)
    bint table                      # rows and whole-form totals from the shanten tables
    bint whole                      # whole forms apply (M == 4 and asked for)
    const uint8_t* caps             # copies a draw may reach (NULL: 4 each)
    uint64_t pair_mask
    RowCache* cache
    int nv                          # variants: the distance is the least over them
    int vzero[SO_MAXV]              # suit whose caps are 0 in the variant, or -1
    bint gtab[SO_MAXV][4]           # the group's rows are table rows in the variant
    const uint8_t* vcaps[SO_MAXV]   # caps of the variant (NULL: 4 each)
    uint8_t vbuf[SO_MAXV][N_KINDS]
    const uint8_t* rows[SO_MAXV][4]          # group rows of H
    const uint8_t* plus[SO_MAXV][N_KINDS]    # row of H's group of j plus one j (NULL: none)
    uint8_t q[SO_MAXV][6][ROW]               # products of the pairs of groups (SO_PI order)
    uint8_t comp[SO_MAXV][4][ROW]            # product of the three groups other than g


cdef uint8_t ZERO_ROW[ROW]          # a group none of whose copies may be used
ZERO_ROW[:] = [0] + [INF] * (ROW - 1)


cdef inline void minplus_m(const uint8_t* A, const uint8_t* B, uint8_t* C,
                           int M) noexcept nogil:
    """``minplus`` without branches for entries 0..M (entries above M are not written);
    called with a constant M so the compiler unrolls it.  Same values: sums of two
    entries are at most 2 * INF < 256 and are clamped to INF."""
    cdef int m, i, v0, v1
    for m in range(M + 1):
        v0 = A[0] + B[2 * m]
        v1 = imin(A[0] + B[2 * m + 1], A[1] + B[2 * m])
        for i in range(1, m + 1):
            v0 = imin(v0, A[2 * i] + B[2 * (m - i)])
            v1 = imin(v1, imin(A[2 * i] + B[2 * (m - i) + 1], A[2 * i + 1] + B[2 * (m - i)]))
        C[2 * m] = <uint8_t>imin(v0, INF)
        C[2 * m + 1] = <uint8_t>imin(v1, INF)


cdef void minplus_k(const uint8_t* A, const uint8_t* B, uint8_t* C, int M) noexcept nogil:
    """:func:`minplus_m` specialised by M (M <= MAXM)."""
    if M == 5:
        minplus_m(A, B, C, 5)
    elif M == 4:
        minplus_m(A, B, C, 4)
    elif M == 3:
        minplus_m(A, B, C, 3)
    elif M == 2:
        minplus_m(A, B, C, 2)
    elif M == 1:
        minplus_m(A, B, C, 1)
    else:
        minplus_m(A, B, C, 0)


cdef inline int group_of(int k) noexcept nogil:
    return k // 9 if k < 27 else 3


cdef inline int draw_cap(const SOCtx* c, int j) noexcept nogil:
    return 4 if c.caps == NULL else c.caps[j]


cdef inline const uint8_t* trow(const uint8_t* h, int g) noexcept nogil:
    """Table row of group ``g`` of the full vector ``h`` (NULL above MAXSUM tiles)."""
    cdef int idx
    if g == 3:
        idx = table_index(h + 27, 7, &HONOR_OFF[0][0][0])
        return NULL if idx < 0 else HONOR_TABLE + <Py_ssize_t>idx * TROW
    idx = table_index(h + 9 * g, 9, &SUIT_OFF[0][0][0])
    return NULL if idx < 0 else SUIT_TABLE + <Py_ssize_t>idx * TROW


cdef const uint8_t* crow(SOCtx* c, int v, const uint8_t* h, int g) noexcept nogil:
    """Row of group ``g`` of ``h`` in variant ``v``: a table row, the zero row for the
    variant's void suit, else :func:`suit_row` under the caps and pair bits, kept in
    the call's cache (the caps of a group are the same in every variant where it is not
    void; NULL when the cache is full)."""
    cdef int i, npos = 7 if g == 3 else 9, code = 0, pair_bits, u, k
    cdef const uint8_t* r
    cdef uint8_t scratch[ROW]
    cdef RowCache* rc = c.cache
    cdef uint64_t mix
    if c.table or c.gtab[v][g]:
        return trow(h, g)
    if c.vzero[v] == g:
        return ZERO_ROW
    for i in range(npos):
        code = code * 5 + h[9 * g + i]
    code += g * 1953125             # 5 ** 9: one key range per group
    mix = (<uint64_t>code) * (<uint64_t>2654435761)
    u = <int>(mix >> 11)
    while True:
        u &= 2 * RC_SLOTS - 1
        k = rc.key[u]
        if k == code:
            return rc.rows[rc.slot[u]]
        if k < 0:
            break
        u += 1
    if rc.n == RC_SLOTS:
        return NULL
    pair_bits = <int>((c.pair_mask >> (9 * g)) & (0x7F if g == 3 else 0x1FF))
    r = suit_row(h, c.vcaps[v], 9 * g, npos, g < 3, c.M, pair_bits, scratch)
    memcpy(rc.rows[rc.n], r, ROW if r == scratch else (TM + 1) * 2)
    rc.key[u] = code
    rc.slot[u] = rc.n
    rc.n += 1
    return rc.rows[rc.n - 1]


cdef void plus_rows_c(SOCtx* c, int v, uint8_t* h, int g, const uint8_t** plus) noexcept nogil:
    """:func:`plus_rows` in variant ``v`` (a draw up to the kind's cap)."""
    cdef int j, lo = 9 * g, hi = 34 if g == 3 else 9 * g + 9
    if c.table or c.gtab[v][g]:
        plus_rows(h, g, plus)
        return
    for j in range(lo, hi):
        if h[j] >= draw_cap(c, j):
            plus[j] = NULL
        else:
            h[j] += 1
            plus[j] = crow(c, v, h, g)
            h[j] -= 1


cdef void plus_rows(uint8_t* h, int g, const uint8_t** plus) noexcept nogil:
    """plus[j] = row of group g of h + j for the kinds j of g (NULL when h[j] == 4 or
    the group would hold more than MAXSUM tiles).  The ranks of all the group's plus
    vectors in one pass: a prefix of the rank, the rank digit of j, and a suffix read
    with every prefix sum one higher."""
    cdef int i, v, npos = 7 if g == 3 else 9, ps = 0
    cdef const uint8_t* x = h + 9 * g
    cdef const int32_t* off = &HONOR_OFF[0][0][0] if g == 3 else &SUIT_OFF[0][0][0]
    cdef const uint8_t* table = HONOR_TABLE if g == 3 else SUIT_TABLE
    cdef int pre[9]
    cdef int psum[9]
    cdef int suf = 0, idx = 0
    for i in range(npos):
        v = x[i]
        pre[i] = idx
        psum[i] = ps
        ps += v
        if ps <= MAXSUM:
            idx += off[(i * (MAXSUM + 1) + psum[i]) * 5 + v]
    if ps + 1 > MAXSUM:
        for i in range(npos):
            plus[9 * g + i] = NULL
        return
    for i in range(npos - 1, -1, -1):
        v = x[i]
        if v >= 4:
            plus[9 * g + i] = NULL
        else:
            plus[9 * g + i] = table + <Py_ssize_t>(
                pre[i] + off[(i * (MAXSUM + 1) + psum[i]) * 5 + v + 1] + suf) * TROW
        suf += off[(i * (MAXSUM + 1) + psum[i] + 1) * 5 + v]


cdef bint so_ctx(SOCtx* c, uint8_t* H, const uint8_t* (*base_rows)[4],
                 const uint8_t* (*base_plus)[N_KINDS], int ga, int gb) noexcept nogil:
    """Rows, pair products and three-group products of H in every variant; H differs
    from the base hand in groups ``ga`` and ``gb`` only.  False when a row is missing
    (outside the tables, or the row cache is full)."""
    cdef int v, g, j, a, b
    for v in range(c.nv):
        for g in range(4):
            if g == ga or g == gb:
                c.rows[v][g] = crow(c, v, H, g)
                if c.rows[v][g] == NULL:
                    return False
                plus_rows_c(c, v, H, g, c.plus[v])
            else:
                c.rows[v][g] = base_rows[v][g]
                for j in range(9 * g, 34 if g == 3 else 9 * g + 9):
                    c.plus[v][j] = base_plus[v][j]
        if c.mask & FORM_REGULAR:
            for a in range(4):
                for b in range(a + 1, 4):
                    minplus_k(c.rows[v][a], c.rows[v][b], c.q[v][SO_PI[a][b]], c.M)
            minplus_k(c.rows[v][1], c.q[v][SO_PI[2][3]], c.comp[v][0], c.M)
            minplus_k(c.rows[v][0], c.q[v][SO_PI[2][3]], c.comp[v][1], c.M)
            minplus_k(c.rows[v][3], c.q[v][SO_PI[0][1]], c.comp[v][2], c.M)
            minplus_k(c.rows[v][2], c.q[v][SO_PI[0][1]], c.comp[v][3], c.M)
    return True


cdef int whole_distance(const SOCtx* c, const uint8_t* h, int v, int bound) noexcept nogil:
    """The least of ``bound`` and the distances to seven pairs, thirteen orphans and the
    knitted forms of the full vector ``h`` in variant ``v`` (the same functions as
    :func:`shanten_general`; the bound prunes the knitted patterns)."""
    cdef int best = bound, d
    cdef const uint8_t* caps = c.vcaps[v]
    if c.M == 4 and c.mask & FORM_SEVEN_PAIRS:
        d = (seven_pairs_distance(h, c.quads) if caps == NULL
             else seven_pairs_caps_distance(h, c.quads, caps))
        if d < best:
            best = d
    if c.M == 4 and c.mask & FORM_THIRTEEN_ORPHANS:
        d = thirteen_orphans_distance(h) if caps == NULL else thirteen_orphans_caps_distance(h, caps)
        if d < best:
            best = d
    if c.mask & (FORM_HONORS_KNITTED | FORM_KNITTED_STRAIGHT):
        best = knitted_distance(h, c.mask, c.M, caps, best)
    return best


cdef int so_shanten_fast(SOCtx* c, uint8_t* H, int d2) noexcept nogil:
    """Shanten of H - d2 from the context of H, or NOT_FAST."""
    cdef int a = group_of(d2), v, best = INF, d
    cdef const uint8_t* rows[4]
    cdef const uint8_t* ra
    H[d2] -= 1
    for v in range(c.nv):
        ra = crow(c, v, H, a)
        if ra == NULL:
            H[d2] += 1
            return NOT_FAST
        if c.mask & FORM_REGULAR:
            d = rows_regular(ra, c.comp[v][a], c.M)
            if d < best:
                best = d
        if c.whole:
            if c.table:
                if c.M == 4:            # seven pairs, thirteen orphans: the whole hand
                    memcpy(rows, c.rows[v], sizeof(rows))
                    rows[a] = ra
                    best = rows_whole(rows, c.mask, c.quads, best)
                if c.mask & (FORM_HONORS_KNITTED | FORM_KNITTED_STRAIGHT):
                    best = knitted_distance(H, c.mask, c.M, NULL, best)
            else:
                best = whole_distance(c, H, v, best)
    H[d2] += 1
    return with_jokers(best, c.J)

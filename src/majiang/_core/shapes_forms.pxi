# Whole-hand forms (fully concealed 14-tile hands): tiles kept by the best target of
# seven pairs, thirteen orphans, 十三烂 and 七星归位, NEG if there is none.
# Part of the shape kernel: textually included by shapes.pyx (one compilation unit;
# the enums, Shape / Pos and imin there).

cdef int ORPHANS[13]
ORPHANS[:] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]

# 十三烂 patterns of one suit: rank sets pairwise at least 3 apart (0..3 ranks)
cdef int N_LONELY = 0
cdef int LONELY_LEN[64]
cdef int LONELY_RANKS[64][3]


cdef void _init_lonely():
    global N_LONELY
    cdef int a, b, c
    N_LONELY = 0
    LONELY_LEN[0] = 0
    N_LONELY = 1
    for a in range(9):
        LONELY_LEN[N_LONELY] = 1
        LONELY_RANKS[N_LONELY][0] = a
        N_LONELY += 1
        for b in range(a + 3, 9):
            LONELY_LEN[N_LONELY] = 2
            LONELY_RANKS[N_LONELY][0] = a
            LONELY_RANKS[N_LONELY][1] = b
            N_LONELY += 1
            for c in range(b + 3, 9):
                LONELY_LEN[N_LONELY] = 3
                LONELY_RANKS[N_LONELY][0] = a
                LONELY_RANKS[N_LONELY][1] = b
                LONELY_RANKS[N_LONELY][2] = c
                N_LONELY += 1


_init_lonely()

# LONELY_BEST[held][n]: most held ranks (bit r of ``held``) a pattern of n ranks keeps, for
# a suit whose ranks all exist (caps >= 1); other suits run the pattern loop
cdef int8_t LONELY_BEST[512][4]


cdef void _init_lonely_best():
    cdef int held, i, j, kept
    for held in range(512):
        for j in range(4):
            LONELY_BEST[held][j] = -1
        for i in range(N_LONELY):
            kept = 0
            for j in range(LONELY_LEN[i]):
                kept += (held >> LONELY_RANKS[i][j]) & 1
            if kept > LONELY_BEST[held][LONELY_LEN[i]]:
                LONELY_BEST[held][LONELY_LEN[i]] = kept


_init_lonely_best()


cdef uint64_t ALL_KINDS = (<uint64_t>1 << N_KINDS) - 1
cdef uint64_t ORPHAN_MASK = 0
for _k in (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33):
    ORPHAN_MASK |= <uint64_t>1 << _k


cdef int seven_pairs_kept(const Shape* sp, const Pos* p, int void) noexcept nogil:
    """Seven pairs on distinct kinds (with ``quads`` a kind of cap 4 twice), leaving out
    suit ``void`` (-1: none): the seven best pair slots, each keeping 0-2 tiles (a
    first slot of a kind with cap >= 2 keeps min(held, 2), a second one of cap 4 keeps
    min(max(held - 2, 0), 2))."""
    cdef uint64_t kinds = ALL_KINDS, first, second
    cdef int n2, n1, slots, t2
    if void >= 0:
        kinds &= ~(<uint64_t>0x1FF << (9 * void))
    first = p.cap2 & kinds
    n2 = popcount64(p.m2 & first)
    n1 = popcount64(p.m1 & ~p.m2 & first)
    slots = popcount64(first)
    if sp.quads:
        second = p.cap4 & kinds
        n2 += popcount64(p.m4 & second)
        n1 += popcount64(p.m3 & ~p.m4 & second)
        slots += popcount64(second)
    if slots < 7:
        return NEG
    t2 = imin(n2, 7)
    return 2 * t2 + imin(n1, 7 - t2)


cdef int orphans_kept(const Pos* p) noexcept nogil:
    """Thirteen orphans: each of the 13 kinds once (all must exist) and a pair on one
    of them with cap >= 2."""
    cdef int kept
    if (p.cap1 & ORPHAN_MASK) != ORPHAN_MASK:
        return NEG
    kept = popcount64(p.m1 & ORPHAN_MASK)
    if p.m2 & p.cap2 & ORPHAN_MASK:
        return kept + 1
    return kept if p.cap2 & ORPHAN_MASK else NEG


cdef void lonely_kept(const Pos* p, int* any_kept, int* stars_kept) noexcept nogil:
    """Tiles kept by the best 十三烂 target (``any_kept``) and the best 七星归位 target
    (all seven honors, ``stars_kept``); NEG or below when there is none."""
    cdef int best_len[3][4]
    cdef int s, i, j, r, ok, held, a, b, d, h, v, best = NEG, best7 = NEG
    cdef int honors_avail, honors_held
    cdef int suited[10]
    for s in range(3):
        held = <int>((p.m1 >> (9 * s)) & 0x1FF)
        if ((p.cap1 >> (9 * s)) & 0x1FF) == 0x1FF:
            for i in range(4):
                best_len[s][i] = LONELY_BEST[held][i]
            continue
        for i in range(4):
            best_len[s][i] = NEG
        for i in range(N_LONELY):
            ok = 1
            held = 0
            for j in range(LONELY_LEN[i]):
                r = 9 * s + LONELY_RANKS[i][j]
                if p.caps[r] < 1:
                    ok = 0
                    break
                if p.c[r]:
                    held += 1
            if ok and held > best_len[s][LONELY_LEN[i]]:
                best_len[s][LONELY_LEN[i]] = held
    honors_avail = popcount64(p.cap1 >> 27)
    honors_held = popcount64(p.m1 & p.cap1 & (<uint64_t>0x7F << 27))
    # suited[t]: most suited tiles kept by patterns of t ranks in all (0..9) over the suits
    for a in range(10):
        suited[a] = 3 * NEG
    for a in range(4):
        for b in range(4):
            for d in range(4):
                v = best_len[0][a] + best_len[1][b] + best_len[2][d]
                if v > suited[a + b + d]:
                    suited[a + b + d] = v
    for a in range(10):
        h = 14 - a                      # honors in the target (distinct)
        if h > honors_avail:
            continue
        v = suited[a] + imin(h, honors_held)
        if v > best:
            best = v
        if h == 7 and v > best7:
            best7 = v
    any_kept[0] = best
    stars_kept[0] = best7

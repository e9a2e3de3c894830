# Part of fans.pyx (textually included: one compilation unit).  The combination
# patterns (one test per fan id), the choice of the best admissible groups
# (套算一次 / 不得相同) and the evaluation of one reading with the 不计 lists.

# ---------------------------------------------------------------- combinations (fan id)
# Each test reads the sorted lowest tiles of k chows or k suited pungs.
cdef inline bint one_suit(const int* ts, int k) noexcept nogil:
    return ts[0] // 9 == ts[k - 1] // 9

cdef inline bint steps(const int* ts, int k, int d) noexcept nogil:
    cdef int i
    for i in range(k - 1):
        if ts[i + 1] - ts[i] != d:
            return False
    return True

cdef inline bint three_suits(const int* ts) noexcept nogil:
    cdef int a = ts[0] // 9, b = ts[1] // 9, c = ts[2] // 9
    return a != b and a != c and b != c

cdef inline void sorted_ranks(const int* ts, int* r) noexcept nogil:
    cdef int a = ts[0] % 9, b = ts[1] % 9, c = ts[2] % 9, x
    if a > b:
        x = a; a = b; b = x
    if b > c:
        x = b; b = c; c = x
    if a > b:
        x = a; a = b; b = x
    r[0] = a; r[1] = b; r[2] = c

cdef inline bint comb_14_quadruple_chow(const int* ts) noexcept nogil:
    return ts[0] == ts[3]

cdef inline bint comb_15_four_pure_shifted_pungs(const int* ts) noexcept nogil:
    return one_suit(ts, 4) and steps(ts, 4, 1)

cdef inline bint comb_16_four_pure_shifted_chows(const int* ts) noexcept nogil:
    return one_suit(ts, 4) and (steps(ts, 4, 1) or steps(ts, 4, 2))

cdef inline bint comb_23_pure_triple_chow(const int* ts) noexcept nogil:
    return ts[0] == ts[2]

cdef inline bint comb_24_pure_shifted_pungs(const int* ts) noexcept nogil:
    return one_suit(ts, 3) and steps(ts, 3, 1)

cdef inline bint comb_28_pure_straight(const int* ts) noexcept nogil:
    return one_suit(ts, 3) and ts[0] % 9 == 0 and steps(ts, 3, 3)

cdef inline bint comb_30_pure_shifted_chows(const int* ts) noexcept nogil:
    return one_suit(ts, 3) and (steps(ts, 3, 1) or steps(ts, 3, 2))

cdef inline bint comb_32_triple_pung(const int* ts) noexcept nogil:
    cdef int r[3]
    sorted_ranks(ts, r)
    return three_suits(ts) and r[0] == r[2]

cdef inline bint comb_39_mixed_straight(const int* ts) noexcept nogil:
    cdef int r[3]
    sorted_ranks(ts, r)
    return three_suits(ts) and r[0] == 0 and r[1] == 3 and r[2] == 6

cdef inline bint comb_41_mixed_triple_chow(const int* ts) noexcept nogil:
    cdef int r[3]
    sorted_ranks(ts, r)
    return three_suits(ts) and r[0] == r[2]

cdef inline bint comb_42_mixed_shifted_pungs(const int* ts) noexcept nogil:
    cdef int r[3]
    sorted_ranks(ts, r)
    return three_suits(ts) and r[1] == r[0] + 1 and r[2] == r[1] + 1

cdef inline bint comb_50_mixed_shifted_chows(const int* ts) noexcept nogil:
    cdef int r[3]
    sorted_ranks(ts, r)
    return three_suits(ts) and r[1] == r[0] + 1 and r[2] == r[1] + 1

cdef inline bint comb_65_double_pung(const int* ts) noexcept nogil:
    return ts[0] // 9 != ts[1] // 9 and ts[0] % 9 == ts[1] % 9

cdef inline bint comb_69_pure_double_chow(const int* ts) noexcept nogil:
    return ts[0] == ts[1]

cdef inline bint comb_70_mixed_double_chow(const int* ts) noexcept nogil:
    return ts[0] // 9 != ts[1] // 9 and ts[0] % 9 == ts[1] % 9

cdef inline bint comb_71_short_straight(const int* ts) noexcept nogil:
    return one_suit(ts, 2) and ts[1] - ts[0] == 3

cdef inline bint comb_72_two_terminal_chows(const int* ts) noexcept nogil:
    return one_suit(ts, 2) and ts[0] % 9 == 0 and ts[1] % 9 == 6


ctypedef bint (*comb_t)(const int*) noexcept nogil
cdef comb_t COMB[NF]
memset(COMB, 0, sizeof(COMB))
COMB[14] = comb_14_quadruple_chow
COMB[15] = comb_15_four_pure_shifted_pungs
COMB[16] = comb_16_four_pure_shifted_chows
COMB[23] = comb_23_pure_triple_chow
COMB[24] = comb_24_pure_shifted_pungs
COMB[28] = comb_28_pure_straight
COMB[30] = comb_30_pure_shifted_chows
COMB[32] = comb_32_triple_pung
COMB[39] = comb_39_mixed_straight
COMB[41] = comb_41_mixed_triple_chow
COMB[42] = comb_42_mixed_shifted_pungs
COMB[50] = comb_50_mixed_shifted_chows
COMB[65] = comb_65_double_pung
COMB[69] = comb_69_pure_double_chow
COMB[70] = comb_70_mixed_double_chow
COMB[71] = comb_71_short_straight
COMB[72] = comb_72_two_terminal_chows


cdef inline int comb_size(int fid) noexcept nogil:
    """(number of sets) * 2 + (1 for chows, 0 for suited pungs); 0 when not a combination."""
    if fid == 14: return 4 * 2 + 1
    if fid == 15: return 4 * 2
    if fid == 16: return 4 * 2 + 1
    if fid == 23: return 3 * 2 + 1
    if fid == 24: return 3 * 2
    if fid == 28: return 3 * 2 + 1
    if fid == 30: return 3 * 2 + 1
    if fid == 32: return 3 * 2
    if fid == 39: return 3 * 2 + 1
    if fid == 41: return 3 * 2 + 1
    if fid == 42: return 3 * 2
    if fid == 50: return 3 * 2 + 1
    if fid == 65: return 2 * 2
    if fid == 69: return 2 * 2 + 1
    if fid == 70: return 2 * 2 + 1
    if fid == 71: return 2 * 2 + 1
    if fid == 72: return 2 * 2 + 1
    return 0


cdef inline void sort_small(int* a, int n) noexcept nogil:
    cdef int i, j, x
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


cdef inline int popcount4(int m) noexcept nogil:
    return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1)


ctypedef struct Subsets:
    # every k-subset (k = 2, 3, 4) of up to 4 sets in combination order:
    # sorted lowest tiles and the mask of set indices
    int n[5]
    int ts[5][6][4]
    int mask[5][6]


cdef void make_subsets(const int* idx, const int* tl, int n, Subsets* ss) noexcept nogil:
    cdef int a, b, c, m
    ss.n[2] = 0
    ss.n[3] = 0
    ss.n[4] = 0
    for a in range(n):
        for b in range(a + 1, n):
            m = ss.n[2]
            ss.ts[2][m][0] = tl[a]; ss.ts[2][m][1] = tl[b]
            sort_small(ss.ts[2][m], 2)
            ss.mask[2][m] = (1 << idx[a]) | (1 << idx[b])
            ss.n[2] += 1
            for c in range(b + 1, n):
                m = ss.n[3]
                ss.ts[3][m][0] = tl[a]; ss.ts[3][m][1] = tl[b]; ss.ts[3][m][2] = tl[c]
                sort_small(ss.ts[3][m], 3)
                ss.mask[3][m] = (1 << idx[a]) | (1 << idx[b]) | (1 << idx[c])
                ss.n[3] += 1
    # the 3-subsets above come out as (a, b, c) nested: the order of combinations()
    if n == 4:
        ss.ts[4][0][0] = tl[0]; ss.ts[4][0][1] = tl[1]
        ss.ts[4][0][2] = tl[2]; ss.ts[4][0][3] = tl[3]
        sort_small(ss.ts[4][0], 4)
        ss.mask[4][0] = (1 << idx[0]) | (1 << idx[1]) | (1 << idx[2]) | (1 << idx[3])
        ss.n[4] = 1


cdef bint valid_order(const int* masks, int r) noexcept nogil:
    """Some order of the groups shares at most one set with the sets combined before."""
    cdef int i, j, k
    if r == 2:
        return popcount4(masks[0] & masks[1]) <= 1
    # r == 3: try the 6 orders
    cdef int perm[6][3]
    perm[0][0] = 0; perm[0][1] = 1; perm[0][2] = 2
    perm[1][0] = 0; perm[1][1] = 2; perm[1][2] = 1
    perm[2][0] = 1; perm[2][1] = 0; perm[2][2] = 2
    perm[3][0] = 1; perm[3][1] = 2; perm[3][2] = 0
    perm[4][0] = 2; perm[4][1] = 0; perm[4][2] = 1
    perm[5][0] = 2; perm[5][1] = 1; perm[5][2] = 0
    cdef int used
    cdef bint ok
    for i in range(6):
        used = 0
        ok = True
        for j in range(3):
            k = masks[perm[i][j]]
            if popcount4(k & used) > 1:
                ok = False
                break
            used |= k
        if ok:
            return True
    return False


cdef int key_cmp(int s1, int d1, const int* ids1, int n1,
                 int s2, int d2, const int* ids2, int n2) noexcept nogil:
    """Compare (sum, distinct, [-id for id in sorted ids]) like Python tuples: -1/0/1."""
    cdef int i, a, b
    if s1 != s2:
        return 1 if s1 > s2 else -1
    if d1 != d2:
        return 1 if d1 > d2 else -1
    i = 0
    while i < n1 and i < n2:
        a = -ids1[i]
        b = -ids2[i]
        if a != b:
            return 1 if a > b else -1
        i += 1
    if n1 != n2:
        return 1 if n1 > n2 else -1
    return 0


cdef void choose(const int* c_fid, const int* c_val, const int* c_mask, int n,
                 uint8_t* cnt) noexcept nogil:
    """The reference's _choose: best admissible subset of at most 3 groups."""
    cdef int r, a, b, c, i, j, s, d, nb = 0, sb = 0, db = 0
    cdef int pick[3]
    cdef int masks[3]
    cdef int ids[3]
    cdef int best[3]
    cdef int best_ids[3]
    cdef bint have = False, clash
    if n == 1:
        cnt[c_fid[0]] += 1
        return
    for r in range(1, (3 if n > 3 else n) + 1):
        # combinations(range(n), r) in lexicographic order
        for i in range(r):
            pick[i] = i
        while True:
            clash = False
            for i in range(r):
                for j in range(i + 1, r):
                    if c_fid[pick[i]] == c_fid[pick[j]] and (c_mask[pick[i]] & c_mask[pick[j]]):
                        clash = True
            if not clash:
                for i in range(r):
                    masks[i] = c_mask[pick[i]]
                if r == 1 or valid_order(masks, r):
                    s = 0
                    for i in range(r):
                        s += c_val[pick[i]]
                        ids[i] = c_fid[pick[i]]
                    sort_small(ids, r)
                    d = 1
                    for i in range(1, r):
                        if ids[i] != ids[i - 1]:
                            d += 1
                    if not have or key_cmp(s, d, ids, r, sb, db, best_ids, nb) > 0:
                        have = True
                        sb = s; db = d; nb = r
                        for i in range(r):
                            best[i] = pick[i]
                            best_ids[i] = ids[i]
            # next combination
            i = r - 1
            while i >= 0 and pick[i] == n - r + i:
                i -= 1
            if i < 0:
                break
            pick[i] += 1
            for j in range(i + 1, r):
                pick[j] = pick[j - 1] + 1
    for i in range(nb):
        cnt[c_fid[best[i]]] += 1


# ---------------------------------------------------------------- evaluation of one reading
cdef int evaluate(const Table* tb, W* w, const uint8_t* static_cnt, const u64* static_mask,
                  const Cand* cd, uint8_t* cnt, int* tmin, u64* present) noexcept nogil:
    """Fan counts of one reading, exclusions applied: the counted fans are the bits of
    present (cnt holds their counts; other entries are stale); returns the total."""
    cdef int i, j, k, t, fid, n, m
    cdef int nch = 0, npg = 0, nsp = 0
    cdef int ch_i[4]
    cdef int ch_t[4]
    cdef int sp_i[4]
    cdef int sp_t[4]
    cdef int c_fid[MAXC]
    cdef int c_val[MAXC]
    cdef int c_mask[MAXC]
    cdef int nc = 0, cs, total
    cdef int form = cd.form
    cdef Subsets sch, spg
    cdef const Subsets* ss
    cdef comb_t test
    cdef u64 bits
    cdef int dyn[NF]
    memcpy(cnt, static_cnt, NF)
    present[0] = static_mask[2 * form]
    present[1] = static_mask[2 * form + 1]
    w.form = form
    w.pair = cd.pair
    w.n_pairs = cd.n_pairs
    for i in range(cd.n_pairs):
        w.pairs[i] = cd.pairs[i]
    w.n_knit = cd.n_knit
    w.pos = cd.pos
    w.uw = cd.uw
    w.wind = 0; w.drag = 0; w.cp = 0
    for i in range(cd.n_sets):
        k = cd.skind[i]
        t = cd.stile[i]
        if k == K_CHOW:
            w.chows[nch] = t
            ch_i[nch] = i
            ch_t[nch] = t
            nch += 1
        else:
            w.pungs[npg] = t
            npg += 1
            if t < 27:
                sp_i[nsp] = i
                sp_t[nsp] = t
                nsp += 1
            if cd.sconc[i]:
                w.cp += 1
            if 27 <= t <= 30:
                w.wind += 1
            elif t >= 31:
                w.drag += 1
    w.nch = nch
    w.npg = npg
    sort_small(w.chows, nch)
    sort_small(w.pungs, npg)
    dynamic_values(w, dyn)
    for j in range(tb.n_pred[form]):
        fid = tb.pred_ids[form][j]
        n = dyn[fid]
        if n:
            cnt[fid] = n
            present[fid >> 6] |= (<u64>1) << (fid & 63)
    if nch >= 2 or nsp >= 2:
        make_subsets(ch_i, ch_t, nch, &sch)
        make_subsets(sp_i, sp_t, nsp, &spg)
        for j in range(tb.n_comb[form]):
            fid = tb.comb_ids[form][j]
            cs = comb_size(fid)
            k = cs >> 1
            ss = &sch if cs & 1 else &spg
            test = COMB[fid]
            for m in range(ss.n[k]):
                if test(ss.ts[k][m]) and nc < MAXC:
                    c_fid[nc] = fid
                    c_val[nc] = tb.value[fid]
                    c_mask[nc] = ss.mask[k][m]
                    nc += 1
        if nc:
            for j in range(nc):
                cnt[c_fid[j]] = 0
            choose(c_fid, c_val, c_mask, nc, cnt)
            for j in range(nc):
                fid = c_fid[j]
                if cnt[fid]:
                    present[fid >> 6] |= (<u64>1) << (fid & 63)
    # 不重复: lowest id first (over the fans present at the start); a fan already
    # excluded excludes nothing
    for k in range(2):
        bits = present[k]
        while bits:
            fid = (k << 6) + ctz64(bits)
            bits &= bits - 1
            if (present[k] >> (fid & 63)) & 1:
                present[0] &= ~tb.excl_mask[fid][0]
                present[1] &= ~tb.excl_mask[fid][1]
    for j in range(tb.n_red):
        fid = tb.red_fid[j]
        if (present[fid >> 6] >> (fid & 63)) & 1:
            k = tb.red_x[j]
            if (present[k >> 6] >> (k & 63)) & 1:
                n = cnt[k] - tb.red_k[j]
                if n > 0:
                    cnt[k] = n
                else:
                    present[k >> 6] &= ~((<u64>1) << (k & 63))
    if tb.fallback and not ((present[0] & tb.block_mask[0]) or (present[1] & tb.block_mask[1])):
        fid = tb.fallback
        cnt[fid] = 1
        present[fid >> 6] |= (<u64>1) << (fid & 63)
    total = 0
    tmin[0] = 0
    for k in range(2):
        bits = present[k]
        while bits:
            fid = (k << 6) + ctz64(bits)
            bits &= bits - 1
            total += tb.value[fid] * cnt[fid]
            if tb.toward_min[fid]:
                tmin[0] += tb.value[fid] * cnt[fid]
    return total


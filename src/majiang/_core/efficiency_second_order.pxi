# Second-order advice, effective draws and the column.
# Part of the efficiency kernel: textually included by efficiency.pyx (one
# compilation unit; the enums and imports there, the shared declarations in
# efficiency.pxd).
#
# Effective draws of a state (table route and general), the first-level ukeire of
# each discard, the improvement column and discard_columns (the columns of
# majiang.discard_table).  The method is described in efficiency_so_context.pxi.


cdef uint64_t ORPHAN_BITS = 0     # bit k: terminal or honor kind
for _k in range(N_KINDS):
    if _k >= 27 or _k % 9 == 0 or _k % 9 == 8:
        ORPHAN_BITS |= (<uint64_t>1) << _k


cdef bint so_effective_fast(SOCtx* c, uint8_t* H, int d2, int sh,
                            uint64_t* out) noexcept nogil:
    """Effective kinds (bit j) of S = H - d2 of shanten ``sh`` >= 0 from the context of
    H (not the table route: :func:`so_effective_table`); False when a row is missing.
    A draw j is effective when the new distance is below dS = sh + 1 + jokers, the
    distance of S.  Every distance (each form, each
    variant) drops by at most one when a tile is added, so only forms within one of dS
    are looked at: the regular form on the (sets, pair) splits of the draw's group where
    the row of S times the product of the other groups is at most dS; the whole forms
    on the vector."""
    cdef int a = group_of(d2), b, j, lo, hi, dS = sh + 1 + c.J, cnt, vv
    cdef int m, p, x, t
    cdef bint wchk[SO_MAXV]
    cdef bint hit, wany = False
    cdef int nt[SO_MAXV]
    cdef int tidx[SO_MAXV][ROW]
    cdef int tthr[SO_MAXV][ROW]
    cdef const uint8_t* R
    cdef bint regular = c.mask & FORM_REGULAR
    cdef const uint8_t* ra[SO_MAXV]
    cdef const uint8_t* r
    cdef const uint8_t* other
    cdef const uint8_t* aplus[SO_MAXV][N_KINDS]
    cdef uint8_t X[SO_MAXV][ROW]
    cdef uint64_t E = 0
    if sh >= INF - 1:               # no arrangement: no draw changes that
        out[0] = 0
        return True
    H[d2] -= 1                      # H is S until the end
    for vv in range(c.nv):
        ra[vv] = crow(c, vv, H, a)
        if ra[vv] == NULL:
            H[d2] += 1
            return False
        plus_rows_c(c, vv, H, a, aplus[vv])
        wchk[vv] = False
        if c.whole:
            wchk[vv] = whole_distance(c, H, vv, dS + 1) <= dS
            wany = wany or wchk[vv]
    for b in range(4):
        lo = 9 * b
        hi = 34 if b == 3 else lo + 9
        for vv in range(c.nv):
            nt[vv] = 0
            if not regular:
                continue
            if b == a:
                other = c.comp[vv][a]   # a draw in the discard's group: S_a + j x the rest
                R = ra[vv]
            else:
                minplus_k(ra[vv], c.q[vv][SO_OTHER[a][b]], X[vv], c.M)
                other = X[vv]           # a draw in group b: S_b + j x ra x the other two
                R = c.rows[vv][b]
            # a draw lowers each entry of its group's row by at most one, so only the
            # (sets, pair) splits on which R x other is within one of dS can drop below
            for m in range(c.M + 1):
                for p in range(2):
                    x = other[(c.M - m) * 2 + 1 - p]
                    if R[m * 2 + p] + x <= dS:
                        tidx[vv][nt[vv]] = m * 2 + p
                        tthr[vv][nt[vv]] = dS - 1 - x
                        nt[vv] += 1
        for j in range(lo, hi):
            cnt = H[j]
            if cnt >= draw_cap(c, j):
                continue
            hit = False
            if wany:
                H[j] += 1
                for vv in range(c.nv):
                    if wchk[vv] and whole_distance(c, H, vv, dS) < dS:
                        hit = True
                        break
                H[j] -= 1
            for vv in range(c.nv):
                if hit:
                    break
                if nt[vv] == 0:
                    continue
                r = aplus[vv][j] if b == a else c.plus[vv][j]
                if r == NULL:
                    H[d2] += 1
                    return False
                for t in range(nt[vv]):
                    if r[tidx[vv][t]] <= tthr[vv][t]:
                        hit = True
                        break
            if hit:
                E |= (<uint64_t>1) << j
    H[d2] += 1
    out[0] = E
    return True


cdef bint so_effective_table(SOCtx* c, uint8_t* H, int d2, int sh,
                             uint64_t* out) noexcept nogil:
    """:func:`so_effective_fast` on the table route (one variant, no caps), the whole
    forms from the tables' totals: a draw changes the totals of one kind only, so the
    whole-form distance after drawing a kind held cnt times is one of eight numbers
    (terminal/honor or simple, cnt 0..3).  The knitted forms (not in the tables) on the
    vector, for the draws only when S is within one of dS in them."""
    cdef int a = group_of(d2), b, j, lo, hi, dS = sh + 1 + c.J, cnt, dw
    cdef int knit = c.mask & (FORM_HONORS_KNITTED | FORM_KNITTED_STRAIGHT)
    cdef uint64_t knit_eff = 0
    cdef bint whole
    cdef int pairs = 0, singles = 0, halves = 0, odd = 0, orph = 0, opair = 0, o2, p2
    cdef int m, p, x, t, nt
    cdef bint weff[8]
    cdef int tidx[ROW]
    cdef int tthr[ROW]
    cdef const uint8_t* R = NULL
    cdef bint regular = c.mask & FORM_REGULAR
    cdef const uint8_t* rows[4]
    cdef const uint8_t* ra
    cdef const uint8_t* r
    cdef const uint8_t* other = NULL
    cdef const uint8_t* aplus[N_KINDS]
    cdef uint8_t X[ROW]
    cdef uint64_t E = 0
    if sh >= INF - 1:
        out[0] = 0
        return True
    H[d2] -= 1                      # H is S until the end
    ra = trow(H, a)
    if ra == NULL:
        H[d2] += 1
        return False
    memcpy(rows, c.rows[0], sizeof(rows))
    rows[a] = ra
    if knit and knitted_distance(H, knit, c.M, NULL, dS + 1) <= dS:
        knit_eff = knitted_effective(H, knit, c.M, dS)
    whole = c.whole and c.M == 4        # seven pairs / thirteen orphans (c.whole may be
    if whole:                           # set by 组合龙 alone, which takes three sets)
        for b in range(4):
            pairs += rows[b][ST_PAIRS]
            singles += rows[b][ST_SINGLES]
            halves += rows[b][ST_HALVES]
            odd += rows[b][ST_ODD]
            orph += rows[b][ST_ORPHANS]
            opair |= rows[b][ST_ORPHAN_PAIR]
        for cnt in range(4):
            dw = INF
            if c.mask & FORM_SEVEN_PAIRS:
                if c.quads:
                    dw = (pairs_distance(halves + 1, odd - 1) if cnt & 1
                          else pairs_distance(halves, odd + 1))
                elif cnt == 0:
                    dw = pairs_distance(pairs, singles + 1)
                elif cnt == 1:
                    dw = pairs_distance(pairs + 1, singles - 1)
                else:
                    dw = pairs_distance(pairs, singles)
            if c.mask & FORM_THIRTEEN_ORPHANS:
                weff[4 + cnt] = imin(dw, 14 - orph - (1 if opair else 0)) < dS
                o2 = orph + (1 if cnt == 0 else 0)
                p2 = 1 if (opair or cnt == 1) else 0
                dw = imin(dw, 14 - o2 - p2)
            else:
                weff[4 + cnt] = dw < dS
            weff[cnt] = dw < dS
    plus_rows(H, a, aplus)
    for b in range(4):
        lo = 9 * b
        hi = 34 if b == 3 else lo + 9
        nt = 0
        if regular:
            if b == a:
                other = c.comp[0][a]
                R = ra
            else:
                minplus_k(ra, c.q[0][SO_OTHER[a][b]], X, c.M)
                other = X
                R = rows[b]
            for m in range(c.M + 1):
                for p in range(2):
                    x = other[(c.M - m) * 2 + 1 - p]
                    if R[m * 2 + p] + x <= dS:
                        tidx[nt] = m * 2 + p
                        tthr[nt] = dS - 1 - x
                        nt += 1
        for j in range(lo, hi):
            cnt = H[j]
            if cnt >= 4:
                continue
            if whole and weff[cnt + (0 if (ORPHAN_BITS >> j) & 1 else 4)]:
                E |= (<uint64_t>1) << j
                continue
            if (knit_eff >> j) & 1:
                E |= (<uint64_t>1) << j
                continue
            if nt:
                r = aplus[j] if b == a else c.plus[0][j]
                if r == NULL:
                    H[d2] += 1
                    return False
                for t in range(nt):
                    if r[tidx[t]] <= tthr[t]:
                        E |= (<uint64_t>1) << j
                        break
    H[d2] += 1
    out[0] = E
    return True


cdef uint64_t effective_general(uint8_t* S, const Opts* o) noexcept nogil:
    cdef int8_t live[N_KINDS]
    cdef uint64_t E = 0
    cdef int j
    ukeire_c(S, o, NULL, live)
    for j in range(N_KINDS):
        if live[j] >= 0:
            E |= (<uint64_t>1) << j
    return E


cdef bint so_setup(SOCtx* c, uint8_t* h, const Opts* o, RowCache* cache,
                   const uint8_t* (*base_rows)[4],
                   const uint8_t* (*base_plus)[N_KINDS]) noexcept nogil:
    """Fill the options of the context for the 3n+2 hand ``h`` and the rows of its groups
    (``base_rows``, ``base_plus``); False when the incremental route does not apply (a
    joker's fifth copy, more than five sets, no cache where one is needed, a missing
    row): the callers then take the general kernels."""
    cdef int n = 0, g, j, v
    cdef bint fast
    for j in range(N_KINDS):
        n += h[j]
    # the incremental route: anything but a joker's fifth copy.  Variants as in
    # shanten_opts_c: one, or one per void suit (its caps set to 0).
    c.M = (n + o.jokers - 1) // 3
    c.mask = o.mask
    c.quads = o.quads
    c.J = o.jokers
    c.caps = o.caps
    c.pair_mask = o.pair_mask
    c.cache = cache
    c.whole = ((c.M == 4 and (o.mask & (FORM_SEVEN_PAIRS | FORM_THIRTEEN_ORPHANS
                                        | FORM_HONORS_KNITTED)) != 0)
               or (c.M >= 3 and (o.mask & FORM_KNITTED_STRAIGHT) != 0))
    c.nv = 0
    if o.void_suits & 7 == 0:
        c.vzero[0] = -1
        c.vcaps[0] = o.caps
        c.nv = 1
    else:
        for g in range(3):
            if (o.void_suits >> g) & 1:
                for j in range(N_KINDS):
                    c.vbuf[c.nv][j] = o.caps[j] if o.caps != NULL else 4
                for j in range(9 * g, 9 * g + 9):
                    c.vbuf[c.nv][j] = 0
                c.vcaps[c.nv] = c.vbuf[c.nv]
                c.vzero[c.nv] = g
                c.nv += 1
    c.table = (c.nv == 1 and o.caps == NULL and (o.pair_mask & pair_all()) == pair_all()
               and n + o.jokers <= 14)
    fast = (not (o.fifth and o.jokers > 0) and c.M <= MAXM
            and (c.table or cache != NULL))
    for v in range(c.nv):
        # a group with 4 copies of each kind and any pair: its table rows (suit_row
        # returns them too; this skips the cache)
        for g in range(4):
            c.gtab[v][g] = c.M <= TM and c.vzero[v] != g
            for j in range(9 * g, 34 if g == 3 else 9 * g + 9):
                if c.vcaps[v] != NULL and c.vcaps[v][j] != 4:
                    c.gtab[v][g] = False
            if ((c.pair_mask >> (9 * g)) & (0x7F if g == 3 else 0x1FF)) != (
                    0x7F if g == 3 else 0x1FF):
                c.gtab[v][g] = False
    if fast:
        for v in range(c.nv):
            for g in range(4):
                base_rows[v][g] = crow(c, v, h, g)
                if base_rows[v][g] == NULL:
                    fast = False
                plus_rows_c(c, v, h, g, base_plus[v])
    return fast


cdef void first_level_c(SOCtx* c, bint fast, uint8_t* h, const Opts* o, uint8_t* seen,
                        int* sd, int8_t* lv, const uint8_t* (*base_rows)[4],
                        const uint8_t* (*base_plus)[N_KINDS]) noexcept nogil:
    """``sd[d]``, ``lv[d * 34:]``: shanten and live array (as ``ukeire_c``) of h - d
    for every kind d held, the discarded copy visible: from the context of h (one
    discard changes one group row), else :func:`ukeire_any`."""
    cdef int d, j, sh, left
    cdef uint64_t E
    cdef bint ok
    if fast:
        fast = so_ctx(c, h, base_rows, base_plus, -1, -1)
    for d in range(N_KINDS):
        if h[d] == 0:
            continue
        sh = so_shanten_fast(c, h, d) if fast else NOT_FAST
        ok = sh != NOT_FAST and sh >= 0
        if ok:
            ok = (so_effective_table(c, h, d, sh, &E) if c.table
                  else so_effective_fast(c, h, d, sh, &E))
        h[d] -= 1
        seen[d] += 1
        if ok:
            sd[d] = sh
            for j in range(N_KINDS):
                if (E >> j) & 1:
                    left = (o.caps[j] if o.caps != NULL else 4) - h[j] - seen[j]
                    lv[d * N_KINDS + j] = <int8_t>(left if left > 0 else 0)
                else:
                    lv[d * N_KINDS + j] = -1
        else:
            sd[d] = ukeire_any(h, o, seen, lv + d * N_KINDS)
        h[d] += 1
        seen[d] -= 1


cdef int second_order_c(SOCtx* c, bint fast, uint8_t* h, const Opts* o, uint8_t* seen,
                        const int* sd, const int8_t* lv, double* out, int8_t* msh,
                        uint64_t* meff, uint8_t* mhas, int nl, const int* loc,
                        const uint8_t* (*base_rows)[4],
                        const uint8_t* (*base_plus)[N_KINDS]) noexcept nogil:
    """``out[d]`` = improvement of discarding d (NaN when s_d <= 0 or no effective live
    draw) for every kind held by the 3n+2 hand ``h``; ``sd[d]`` and ``lv[d * 34:]`` are
    the shanten and live array of h - d (``seen`` counting the discarded copy).  The
    memo arrays hold ``34 * nl * nl`` entries (``nl`` kinds held, ``loc`` their local
    index), ``msh`` filled with SO_UNKNOWN and ``mhas`` with 0.  ``c`` and the base rows
    come from :func:`so_setup` (``fast``: its result).  ``h`` and ``seen`` are modified
    and restored."""
    cdef int d, k, d2, j, w, wsum, s, target, sh, best, total, left, key, i1, i2
    cdef int gd
    cdef bint ready, usable
    cdef double acc
    cdef uint64_t E
    cdef uint64_t ed[N_KINDS]
    for d in range(N_KINDS):
        ed[d] = 0
        if h[d]:
            for j in range(N_KINDS):
                if lv[d * N_KINDS + j] >= 0:
                    ed[d] |= (<uint64_t>1) << j
    for d in range(N_KINDS):
        out[d] = NAN
        s = sd[d]
        if h[d] == 0 or s <= 0:
            continue
        target = s - 1
        gd = group_of(d)
        h[d] -= 1
        seen[d] += 1
        acc = 0.0
        wsum = 0
        for k in range(N_KINDS):
            w = lv[d * N_KINDS + k]
            if w <= 0:
                continue
            h[k] += 1                   # h is H = h - d + k
            ready = False
            usable = fast
            best = -1
            for d2 in range(N_KINDS):
                if h[d2] == 0 or d2 == k:   # d2 == k: back to h - d (shanten s)
                    continue
                if k == d:                  # h - d2: the first pass has it
                    if sd[d2] != target:
                        continue
                    E = ed[d2]
                else:
                    i1 = loc[d]
                    i2 = loc[d2]
                    if i1 > i2:
                        i1, i2 = i2, i1
                    key = (k * nl + i1) * nl + i2
                    sh = msh[key]
                    if sh == SO_UNKNOWN:
                        sh = NOT_FAST
                        if usable and not ready:
                            usable = so_ctx(c, h, base_rows, base_plus, gd, group_of(k))
                            ready = True
                        if usable:
                            sh = so_shanten_fast(c, h, d2)
                        if sh == NOT_FAST:
                            h[d2] -= 1
                            sh = shanten_o(h, o)
                            h[d2] += 1
                        msh[key] = <int8_t>sh
                    if sh != target:
                        continue
                    if not mhas[key]:
                        if usable and not ready:
                            usable = so_ctx(c, h, base_rows, base_plus, gd, group_of(k))
                            ready = True
                        if not (usable and (
                                so_effective_table(c, h, d2, sh, &meff[key]) if c.table
                                else so_effective_fast(c, h, d2, sh, &meff[key]))):
                            h[d2] -= 1
                            meff[key] = effective_general(h, o)
                            h[d2] += 1
                        mhas[key] = 1
                    E = meff[key]
                # live ukeire of S = H - d2 with the visible tiles and d
                h[d2] -= 1
                total = 0
                while E:
                    j = lowest_bit(E)
                    E &= E - 1
                    left = (o.caps[j] if o.caps != NULL else 4) - h[j] - seen[j]
                    if left > 0:
                        total += left
                h[d2] += 1
                if total > best:
                    best = total
            h[k] -= 1
            acc += w * best
            wsum += w
        if wsum > 0:
            out[d] = acc / wsum
        h[d] += 1
        seen[d] -= 1
    return 0


def discard_columns(cnp.ndarray counts, int mask, bint quads, object caps, object visible,
                    bint second_order, int jokers=0, bint fifth=False, *,
                    object pair_mask=None, int void_suits=0):
    """The columns of ``majiang.discard_table``, one entry per distinct discard kind in
    tile order: (discard names, shanten int64, ukeire_kinds int64, ukeire_count int64,
    ukeire texts, improvement float64).  Same values as :func:`discard_rows`: the
    ukeire of each discard from the rows of the hand's groups (:func:`first_level_c`),
    the improvement column incremental (:func:`second_order_c`, states kept for the
    call)."""
    cdef Opts o = make_opts(mask, quads, caps, jokers, fifth, pair_mask, void_suits)
    cdef uint8_t h[N_KINDS]
    cdef uint8_t seen[N_KINDS]
    cdef int8_t lv[N_KINDS * N_KINDS]      # live array of h - d, row d
    cdef int sd[N_KINDS]
    cdef double second[N_KINDS]
    cdef int loc[N_KINDS]
    cdef int d, k, nk, nc, nl = 0, r = 0, nh = 0
    cdef int8_t* msh = NULL
    cdef uint64_t* meff = NULL
    cdef uint8_t* mhas = NULL
    cdef RowCache* cache = NULL
    cdef size_t nmemo
    cdef SOCtx c
    cdef const uint8_t* base_rows[SO_MAXV][4]
    cdef const uint8_t* base_plus[SO_MAXV][N_KINDS]
    cdef bint fast
    memcpy(h, cnp.PyArray_DATA(counts), N_KINDS)
    memset(seen, 0, N_KINDS)
    if visible is not None:
        memcpy(seen, cnp.PyArray_DATA(visible), N_KINDS)
    for d in range(N_KINDS):
        loc[d] = -1
        sd[d] = -1
        second[d] = float("nan")
        nh += h[d]
        if h[d]:
            loc[d] = nl
            nl += 1
    if not (o.caps == NULL and (o.pair_mask & pair_all()) == pair_all()
            and o.void_suits & 7 == 0 and nh + o.jokers <= 14):
        cache = <RowCache*>malloc(sizeof(RowCache))     # NULL: the general kernels
        if cache != NULL:
            memset(cache.key, 0xFF, sizeof(cache.key))
            cache.n = 0
    try:
        with nogil:
            fast = so_setup(&c, h, &o, cache, base_rows, base_plus)
            first_level_c(&c, fast, h, &o, seen, sd, lv, base_rows, base_plus)
        if second_order:
            nmemo = <size_t>N_KINDS * nl * nl
            msh = <int8_t*>malloc(nmemo)
            meff = <uint64_t*>malloc(nmemo * sizeof(uint64_t))
            mhas = <uint8_t*>malloc(nmemo)
            if msh == NULL or meff == NULL or mhas == NULL:
                raise MemoryError("cannot allocate the second-order memo")
            memset(msh, SO_UNKNOWN, nmemo)
            memset(mhas, 0, nmemo)
            with nogil:
                second_order_c(&c, fast, h, &o, seen, sd, lv, second, msh, meff, mhas, nl,
                               loc, base_rows, base_plus)
    finally:
        free(msh); free(meff); free(mhas); free(cache)
    cdef cnp.ndarray sh = np.empty(nl, np.int64)
    cdef cnp.ndarray kinds = np.empty(nl, np.int64)
    cdef cnp.ndarray count = np.empty(nl, np.int64)
    cdef cnp.ndarray impr = np.empty(nl, np.float64)
    cdef list names = []
    cdef list texts = []
    cdef const int8_t* row
    for d in range(N_KINDS):
        if h[d] == 0:
            continue
        row = lv + d * N_KINDS
        nk = 0
        nc = 0
        for k in range(N_KINDS):
            if row[k] >= 0:
                nk += 1
                nc += row[k]
        names.append(TILE_NAMES[d])
        texts.append(kinds_text(row))
        (<int64_t*>cnp.PyArray_DATA(sh))[r] = sd[d]
        (<int64_t*>cnp.PyArray_DATA(kinds))[r] = nk
        (<int64_t*>cnp.PyArray_DATA(count))[r] = nc
        (<double*>cnp.PyArray_DATA(impr))[r] = second[d]
        r += 1
    return names, sh, kinds, count, texts, impr

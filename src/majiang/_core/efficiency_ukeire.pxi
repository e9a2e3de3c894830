# Ukeire by table rows.
# Part of the efficiency kernel: textually included by efficiency.pyx (one
# compilation unit; the enums and imports there, the shared declarations in
# efficiency.pxd).


# ---------------------------------------------------------------------------
# Ukeire by table rows (the quick path of majiang.ukeire)
# ---------------------------------------------------------------------------
# A draw changes one group (a suit or the honors), so the min-plus product of the
# other three groups is computed once per group and each draw costs one table
# look-up and one (M + 1) x 2 scan.  Min-plus over (sets, pair) is associative and
# commutative, so this is the same minimum as ``combine`` (exact: no finite sum
# reaches INF).

cdef tuple TILE_NAMES = tuple([f"{(k % 9) + 1}{'mpsz'[k // 9]}" for k in range(N_KINDS)])


cdef inline int rows_regular(const uint8_t* r, const uint8_t* comp, int M) noexcept nogil:
    """Distance to M sets + a pair from one group's row and the other groups' product."""
    cdef int m, v, best = INF
    for m in range(M + 1):
        v = r[m * 2] + comp[(M - m) * 2 + 1]
        if v < best:
            best = v
        v = r[m * 2 + 1] + comp[(M - m) * 2]
        if v < best:
            best = v
    return best


cdef inline int rows_whole(const uint8_t** rows, int mask, bint quads, int best) noexcept nogil:
    """Seven pairs / thirteen orphans from the statistics of four table rows."""
    cdef int d, pairs = 0, odd = 0, orph = 0, opair = 0, g
    if mask & FORM_SEVEN_PAIRS:
        for g in range(4):
            if quads:
                pairs += rows[g][ST_HALVES]
                odd += rows[g][ST_ODD]
            else:
                pairs += rows[g][ST_PAIRS]
                odd += rows[g][ST_SINGLES]
        d = pairs_distance(pairs, odd)
        if d < best:
            best = d
    if mask & FORM_THIRTEEN_ORPHANS:
        for g in range(4):
            orph += rows[g][ST_ORPHANS]
            opair |= rows[g][ST_ORPHAN_PAIR]
        d = 14 - orph - (1 if opair else 0)
        if d < best:
            best = d
    return best


cdef int ukeire_table_c(uint8_t* h, int mask, bint quads, int8_t* live,
                        const uint8_t* visible=NULL, const uint8_t* only=NULL) noexcept nogil:
    """``ukeire_c`` without options for a 3n+1 hand (n <= 13) on the table path: the
    shanten, or NOT_FAST when the hand is outside it (a group above MAXSUM tiles),
    ERR_BAD_COUNT / ERR_BAD_SIZE for a bad vector.  ``h`` is modified and restored.
    ``only`` (optional, 34 flags): the kinds whose draw may lower the regular, seven
    pairs and thirteen orphans forms (the caller's exact filter, e.g. the kinds near the
    hand); the others are not looked up (the knitted draws are found apart).

    The knitted forms (全不靠, 组合龙; not in the tables) by :func:`knitted_distance` on
    the vector: a draw lowers their distance by at most one, so they are looked at for
    the draws only when their distance is the hand's (the bound ``d0`` prunes them)."""
    cdef int total = 0, M, g, k, base, npos, idx, best, s, s0, j, d0, dreg, fm
    cdef int knit = mask & (FORM_HONORS_KNITTED | FORM_KNITTED_STRAIGHT)
    cdef uint64_t knit_eff = 0
    cdef int idxs[4]
    cdef const uint8_t* rows[4]
    cdef const uint8_t* saved
    cdef uint8_t comp[4][ROW]
    cdef uint8_t tmp[ROW]
    cdef const int32_t* off
    idxs[0] = checked_index(h, 9, &SUIT_OFF[0][0][0], &total)
    idxs[1] = checked_index(h + 9, 9, &SUIT_OFF[0][0][0], &total)
    idxs[2] = checked_index(h + 18, 9, &SUIT_OFF[0][0][0], &total)
    idxs[3] = checked_index(h + 27, 7, &HONOR_OFF[0][0][0], &total)
    for g in range(4):
        if idxs[g] == -2:
            return ERR_BAD_COUNT
    if total % 3 != 1 or total > 13:
        return NOT_FAST if total % 3 != 0 and total <= 17 else ERR_BAD_SIZE
    for g in range(4):
        if idxs[g] < 0:
            return NOT_FAST
        rows[g] = (HONOR_TABLE if g == 3 else SUIT_TABLE) + <Py_ssize_t>idxs[g] * TROW
    M = total // 3
    # the product of the other three groups, for each group
    minplus(rows[2], rows[3], tmp, M)
    minplus(rows[1], tmp, comp[0], M)
    minplus(rows[0], tmp, comp[1], M)
    minplus(rows[0], rows[1], tmp, M)
    minplus(rows[3], tmp, comp[2], M)
    minplus(rows[2], tmp, comp[3], M)
    best = INF
    if mask & FORM_REGULAR:
        best = rows_regular(rows[0], comp[0], M)
    dreg = best
    if M == 4:
        best = rows_whole(rows, mask, quads, best)
    # the forms a draw may bring below the hand's distance: those at it (a draw lowers a
    # form's distance by at most one); the others are not looked at for the draws
    fm = FORM_REGULAR if (mask & FORM_REGULAR and dreg == best) else 0
    if M == 4:
        if mask & FORM_SEVEN_PAIRS and rows_whole(rows, FORM_SEVEN_PAIRS, quads, INF) == best:
            fm |= FORM_SEVEN_PAIRS
        if mask & FORM_THIRTEEN_ORPHANS and \
                rows_whole(rows, FORM_THIRTEEN_ORPHANS, quads, INF) == best:
            fm |= FORM_THIRTEEN_ORPHANS
    if knit:
        d0 = knitted_distance(h, knit, M, NULL, best + 1)
        if d0 < best:
            best = d0
        if d0 <= best:                  # a knitted draw may lower the hand's distance
            knit_eff = knitted_effective(h, knit, M, best)
    d0 = best
    s0 = with_jokers(best, 0)
    for g in range(4):
        base = 9 * g
        npos = 7 if g == 3 else 9
        off = &HONOR_OFF[0][0][0] if g == 3 else &SUIT_OFF[0][0][0]
        saved = rows[g]
        for j in range(npos):
            k = base + j
            live[k] = -1
            if h[k] >= 4:
                continue
            if only != NULL and not only[k] and not (knit_eff >> k) & 1:
                continue
            h[k] += 1
            idx = table_index(h + base, npos, off)
            h[k] -= 1
            if idx < 0:         # a group of 15 tiles: the whole route for this draw
                h[k] += 1
                s = shanten_c(h, mask, quads, NULL)
                h[k] -= 1
            else:
                rows[g] = (HONOR_TABLE if g == 3 else SUIT_TABLE) + <Py_ssize_t>idx * TROW
                best = INF
                if fm & FORM_REGULAR:
                    best = rows_regular(rows[g], comp[g], M)
                if fm & (FORM_SEVEN_PAIRS | FORM_THIRTEEN_ORPHANS):
                    best = rows_whole(rows, fm, quads, best)
                rows[g] = saved
                if (knit_eff >> k) & 1:
                    best = d0 - 1
                s = with_jokers(best, 0)
            if s < s0:
                s = 4 - h[k] - (visible[k] if visible != NULL else 0)
                live[k] = <int8_t>(s if s > 0 else 0)
    return s0


def ukeire_fast(object counts, int mask, bint quads):
    """``{tile name: live}`` of a C-contiguous uint8 (34,) 3n+1 vector (n <= 13) with no
    options and nothing visible, built in the core; None when the input is anything else
    (the caller takes the validating route, which owns the error messages)."""
    cdef cnp.ndarray arr
    cdef uint8_t h[N_KINDS]
    cdef int8_t live[N_KINDS]
    cdef int s, k
    if not cnp.PyArray_Check(counts):
        return None
    arr = <cnp.ndarray>counts
    if (cnp.PyArray_TYPE(arr) != cnp.NPY_UINT8 or cnp.PyArray_NDIM(arr) != 1
            or cnp.PyArray_DIM(arr, 0) != N_KINDS or not cnp.PyArray_IS_C_CONTIGUOUS(arr)):
        return None
    if SUIT_TABLE == NULL:
        ensure_tables()
    memcpy(h, cnp.PyArray_DATA(arr), N_KINDS)
    s = ukeire_table_c(h, mask, quads, live)
    if s < -1:
        return None
    d = {}
    for k in range(N_KINDS):
        if live[k] >= 0:
            d[<str>TILE_NAMES[k]] = live[k]
    return d



cdef inline bint plain_opts(const Opts* o) noexcept nogil:
    return (o.caps == NULL and o.jokers == 0 and o.void_suits == 0
            and (o.pair_mask & pair_all()) == pair_all())


cdef int ukeire_any(uint8_t* h, const Opts* o, const uint8_t* visible,
                    int8_t* live) noexcept nogil:
    """``ukeire_c``, by table rows when the options allow (same values)."""
    cdef int s
    if plain_opts(o):
        s = ukeire_table_c(h, o.mask, o.quads, live, visible)
        if s >= -1:
            return s
    return ukeire_c(h, o, visible, live)


cdef str kinds_text(const int8_t* live):
    """Compact Tenhou text of the kinds with live >= 0 (``format_counts`` of them)."""
    cdef list parts = []
    cdef int g, k, lo, hi
    cdef str digits
    for g in range(4):
        lo = 9 * g
        hi = 34 if g == 3 else lo + 9
        digits = ""
        for k in range(lo, hi):
            if live[k] >= 0:
                digits += chr(49 + k - lo)
        if digits:
            parts.append(digits + "mpsz"[g])
    return "".join(parts)

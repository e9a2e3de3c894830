# Whole-hand and knitted forms.
# Part of the efficiency kernel: textually included by efficiency.pyx (one
# compilation unit; the enums and imports there, the shared declarations in
# efficiency.pxd).
#
# Distances to seven pairs and thirteen orphans (plain and under caps), and the
# knitted forms of Chinese Official rules (全不靠, 组合龙): distance and effective draws.


# ---------------------------------------------------------------------------
# Seven pairs and thirteen orphans
# ---------------------------------------------------------------------------

cdef inline int seven_pairs_distance(const uint8_t* h, bint quads) noexcept nogil:
    cdef int i, pairs = 0, odd = 0, c, d
    for i in range(N_KINDS):
        c = h[i]
        if quads:
            pairs += c >> 1
            odd += c & 1
        elif c >= 2:
            pairs += 1
        elif c == 1:
            odd += 1
    return pairs_distance(pairs, odd)


cdef inline int pairs_distance(int pairs, int odd) noexcept nogil:
    """Seven pairs: each missing pair costs one tile on a kind with an odd count, two
    on a fresh kind (34 kinds are always enough)."""
    cdef int d
    if pairs >= 7:
        return 0
    d = 7 - pairs
    if pairs + odd < 7:
        d += 7 - pairs - odd
    return d


cdef int seven_pairs_caps_distance(const uint8_t* h, bint quads,
                                   const uint8_t* caps) noexcept nogil:
    """Seven pairs within ``caps``: a kind with cap < 2 holds no pair, two pairs on one
    kind (``quads``) need cap 4.  Each kind's pairs cost max(2 - held, 0), then
    max(4 - held, 0) - max(2 - held, 0) for the second: non-decreasing per kind, so
    the seven cheapest pair slots over all kinds are optimal."""
    cdef int k, c, cap, first, second, need = 7, d = 0, t
    cdef int n_cost[3]
    n_cost[0] = 0
    n_cost[1] = 0
    n_cost[2] = 0
    for k in range(N_KINDS):
        cap = caps[k]
        if cap < 2:
            continue
        c = h[k] if h[k] < cap else cap
        first = 2 - c if c < 2 else 0
        n_cost[first] += 1
        if quads and cap >= 4:
            second = (4 - c if c < 4 else 0) - first
            n_cost[second] += 1
    for t in range(3):
        if n_cost[t] >= need:
            return d + need * t
        d += n_cost[t] * t
        need -= n_cost[t]
    return INF


cdef int ORPHANS[13]
ORPHANS[:] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]


cdef inline int thirteen_orphans_distance(const uint8_t* h) noexcept nogil:
    cdef int i, kinds = 0, pair = 0
    for i in range(13):
        if h[ORPHANS[i]] > 0:
            kinds += 1
            if h[ORPHANS[i]] >= 2:
                pair = 1
    return 14 - kinds - pair


cdef int thirteen_orphans_caps_distance(const uint8_t* h, const uint8_t* caps) noexcept nogil:
    """Thirteen orphans within ``caps``: every one of the 13 kinds must exist (cap >= 1)
    and the pair needs a kind with cap >= 2."""
    cdef int i, k, kinds = 0, pair = INF
    for i in range(13):
        k = ORPHANS[i]
        if caps[k] < 1:
            return INF
        if h[k] > 0:
            kinds += 1
        if caps[k] >= 2:
            if h[k] >= 2 and caps[k] >= 2:
                pair = 0
            elif pair > 1:
                pair = 1
    if pair >= INF:
        return INF
    return 13 - kinds + pair


# ---------------------------------------------------------------------------
# Knitted forms (Chinese Official): 全不靠 honors-and-knitted, 组合龙 knitted straight
# ---------------------------------------------------------------------------

# the six knitted patterns: suits (s147, s258, s369) as a permutation of (0, 1, 2)
cdef int KNIT_SUITS[6][3]
KNIT_SUITS[:] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]


cdef inline void knit_kinds(int pattern, int* kinds) noexcept nogil:
    """The nine kinds of a knitted pattern: 147 in one suit, 258 in the next, 369 in the last."""
    cdef int j, r
    for j in range(3):
        for r in range(3):
            kinds[j * 3 + r] = KNIT_SUITS[pattern][j] * 9 + j + 3 * r


cdef inline int knit_present(const uint8_t* h, int pattern, int* kinds) noexcept nogil:
    """Fill ``kinds`` with the nine kinds of ``pattern`` (:func:`knit_kinds`); returns how
    many of them ``h`` holds."""
    cdef int j, present = 0
    knit_kinds(pattern, kinds)
    for j in range(9):
        if h[kinds[j]]:
            present += 1
    return present


cdef inline int knit_take(const uint8_t* h, const uint8_t* caps, const int* kinds,
                          uint8_t* rem, uint8_t* cap) noexcept nogil:
    """组合龙 with the nine ``kinds``: ``rem`` = ``h`` less one held copy of each kind and
    ``cap`` = ``caps`` (NULL: 4 each) less one copy of each (what the set and the pair
    may still use); returns the tiles the nine kinds miss, or INF when one of them has
    cap 0 (rem and cap then unusable)."""
    cdef int j, k, d = 0
    for k in range(N_KINDS):
        rem[k] = h[k]
        cap[k] = caps[k] if caps != NULL else 4
    for j in range(9):
        k = kinds[j]
        if cap[k] == 0:
            return INF
        cap[k] -= 1
        if rem[k]:
            rem[k] -= 1
        else:
            d += 1
    return d


cdef inline int over(int w, int have) noexcept nogil:
    return w - have if w > have else 0


cdef int set_and_pair_distance(const uint8_t* rem, const uint8_t* cap, int nsets) noexcept nogil:
    """Tiles to add so ``rem`` holds ``nsets`` (0 or 1) sets and a pair within ``cap``.

    With one set: every set's own cost is computed once; a pair on kind P combines
    with the cheapest set not touching P (pungs of P are impossible, chows through P
    are costed jointly), found among the five cheapest sets — at most four touch P.
    """
    cdef int P, S, k, a, w, cost, best = INF, c2, i, j, t, n_sets = 0
    cdef int cs[55]
    cdef int start[55]          # pung: kind; chow: -(lowest kind) - 1
    cdef int top[5]
    cdef int ntop = 0
    for P in range(N_KINDS):
        if cap[P] >= 2:
            c2 = over(2, rem[P])
            if c2 < best:
                best = c2
    if nsets == 0 or best >= INF:
        return best
    for S in range(N_KINDS):
        cs[n_sets] = over(3, rem[S]) if cap[S] >= 3 else INF
        start[n_sets] = S
        n_sets += 1
    for S in range(27):
        if S % 9 > 6:
            continue
        cost = 0
        for a in range(3):
            if cap[S + a] < 1:
                cost = INF
                break
            cost += over(1, rem[S + a])
        cs[n_sets] = cost
        start[n_sets] = -S - 1
        n_sets += 1
    # the five cheapest sets (insertion into a short sorted list)
    for i in range(n_sets):
        if cs[i] >= INF:
            continue
        j = ntop if ntop < 5 else 5
        while j > 0 and cs[top[j - 1]] > cs[i]:
            if j < 5:
                top[j] = top[j - 1]
            j -= 1
        if j < 5:
            top[j] = i
            if ntop < 5:
                ntop += 1
    best = INF
    for P in range(N_KINDS):
        if cap[P] < 2:
            continue
        c2 = over(2, rem[P])
        if c2 >= best:
            continue
        for t in range(ntop):
            i = top[t]
            k = start[i]
            if k >= 0:
                if k == P:
                    continue
            elif P >= -k - 1 and P <= -k + 1:
                continue
            if c2 + cs[i] < best:
                best = c2 + cs[i]
            break
        if P < 27:                    # chows through P, costed with the pair jointly
            for S in range(P - 2, P + 1):
                if S < 0 or S // 9 != P // 9 or S % 9 > 6:
                    continue
                cost = 0
                for a in range(3):
                    k = S + a
                    w = 3 if k == P else 1
                    if w > cap[k]:
                        cost = INF
                        break
                    cost += over(w, rem[k])
                if cost < best:
                    best = cost
    return best


cdef int knitted_distance(const uint8_t* h, int mask, int M, const uint8_t* caps,
                          int best) noexcept nogil:
    """Distance to the knitted forms in ``mask``, or ``best`` if none is below it."""
    cdef int pattern, j, k, present, d, honors = 0, avail, avail_h = 0
    cdef int kinds[9]
    cdef uint8_t rem[N_KINDS]
    cdef uint8_t cap[N_KINDS]
    if (mask & FORM_HONORS_KNITTED) and M == 4:
        # 14 distinct kinds of the 16 (nine knitted + seven honors) that exist
        for k in range(27, 34):
            if caps == NULL or caps[k]:
                avail_h += 1
                if h[k]:
                    honors += 1
        for pattern in range(6):
            knit_kinds(pattern, kinds)
            present = honors
            avail = avail_h
            for j in range(9):
                if caps == NULL or caps[kinds[j]]:
                    avail += 1
                    if h[kinds[j]]:
                        present += 1
            if avail < 14:
                continue
            d = 14 - (present if present < 14 else 14)
            if d < best:
                best = d
    if (mask & FORM_KNITTED_STRAIGHT) and M >= 3:
        for pattern in range(6):
            present = knit_present(h, pattern, kinds)
            if 9 - present >= best:      # the nine knitted tiles alone cost that much
                continue
            d = knit_take(h, caps, kinds, rem, cap)
            if d >= INF:
                continue
            d += set_and_pair_distance(rem, cap, M - 3)
            if d < best:
                best = d
    return best


cdef inline bint near_held(const uint8_t* rem, int k) noexcept nogil:
    """Whether a suited kind ``k`` has a held tile within two of it in its suit."""
    cdef int r, lo, hi, j
    if k >= 27:
        return False
    r = k % 9
    lo = k - (r if r < 2 else 2)
    hi = k + ((8 - r) if 8 - r < 2 else 2)
    for j in range(lo, hi + 1):
        if j != k and rem[j]:
            return True
    return False


cdef uint64_t knitted_effective(const uint8_t* h, int knit, int M, int dS) noexcept nogil:
    """Bit j set: drawing kind j brings a knitted form of ``knit`` (全不靠, 组合龙) of the
    vector ``h`` (no caps: 4 copies of each kind, j held fewer than 4 times) below the
    distance ``dS`` — the draws :func:`knitted_distance` of ``h + j`` puts below ``dS``,
    found per pattern: 全不靠 counts distinct kinds (a new honor or a new kind of the
    pattern adds one); for 组合龙 a missing kind of the pattern lowers its distance by
    one, any other draw goes to the set and the pair (:func:`set_and_pair_distance`).
    Patterns whose distance exceeds ``dS`` are skipped (a draw lowers it by at most one)."""
    cdef uint64_t E = 0, honors_new = 0
    cdef int pattern, j, k, present, honors = 0, spd, base, thr, lone
    cdef int kinds[9]
    cdef uint8_t rem[N_KINDS]
    cdef uint8_t cap[N_KINDS]
    if (knit & FORM_HONORS_KNITTED) and M == 4:
        for k in range(27, 34):
            if h[k]:
                honors += 1
            else:
                honors_new |= (<uint64_t>1) << k
        for pattern in range(6):
            present = honors + knit_present(h, pattern, kinds)
            if present < 14 and 14 - present - 1 < dS:    # one more distinct kind
                E |= honors_new
                for j in range(9):
                    if not h[kinds[j]]:
                        E |= (<uint64_t>1) << kinds[j]
    if (knit & FORM_KNITTED_STRAIGHT) and M >= 3:
        for pattern in range(6):
            present = knit_present(h, pattern, kinds)
            if 8 - present >= dS:           # at best one missing kind drawn
                continue
            base = knit_take(h, NULL, kinds, rem, cap)     # 9 - present (no caps)
            spd = set_and_pair_distance(rem, cap, M - 3)
            if base + spd > dS:             # a draw lowers it by at most one
                continue
            for j in range(9):              # a missing kind of the pattern: one less
                if not h[kinds[j]]:
                    E |= (<uint64_t>1) << kinds[j]
            thr = dS - base                 # any other draw: the set and pair below thr
            lone = -1                       # the verdict for a lone draw, found once
            for k in range(N_KINDS):
                if (E >> k) & 1 or h[k] >= 4:
                    continue
                if not rem[k] and not near_held(rem, k):
                    # no held tile of its kind or within two in its suit: every such
                    # draw forms the same shapes (a pair, or a set of it alone), so one
                    # answers for all (every cap here is 3 or 4)
                    if lone < 0:
                        rem[k] += 1
                        lone = set_and_pair_distance(rem, cap, M - 3) < thr
                        rem[k] -= 1
                    if lone:
                        E |= (<uint64_t>1) << k
                    continue
                rem[k] += 1
                if set_and_pair_distance(rem, cap, M - 3) < thr:
                    E |= (<uint64_t>1) << k
                rem[k] -= 1
    return E

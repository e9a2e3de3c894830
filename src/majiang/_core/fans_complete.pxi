# Part of fans.pyx (textually included: one compilation unit).  Completeness of a
# hand in every form, used to decide whether the win tile is the only wait (边张,
# 嵌张, 单钓将 count only for a unique wait).

# ---------------------------------------------------------------- completeness (waits)
cdef bint split_group(int* g, int n, bint pair, bint honors) noexcept nogil:
    cdef int i = 0
    cdef bint ok
    while i < n and g[i] == 0:
        i += 1
    if i == n:
        return not pair
    if g[i] >= 3:
        g[i] -= 3
        ok = split_group(g, n, pair, honors)
        g[i] += 3
        if ok:
            return True
    if pair and g[i] >= 2:
        g[i] -= 2
        ok = split_group(g, n, False, honors)
        g[i] += 2
        if ok:
            return True
    if not honors and i <= 6 and g[i + 1] and g[i + 2]:
        g[i] -= 1; g[i + 1] -= 1; g[i + 2] -= 1
        ok = split_group(g, n, pair, honors)
        g[i] += 1; g[i + 1] += 1; g[i + 2] += 1
        return ok
    return False


cdef bint regular_complete(const int* c, int n_melds, int total) noexcept nogil:
    cdef int s, lo, hi, n, i, pairs = 0
    cdef int g[9]
    for s in range(4):
        lo = 9 * s
        hi = 34 if s == 3 else lo + 9
        n = 0
        for i in range(lo, hi):
            g[i - lo] = c[i]
            n += c[i]
        if n % 3 == 1:
            return False
        if n % 3 == 2:
            pairs += 1
            if pairs > 1:
                return False
        if n and not split_group(g, hi - lo, n % 3 == 2, s == 3):
            return False
    return pairs == 1 and total == 14 - 3 * n_melds


cdef int set_and_pair(int* rest, int n_sets, int* out_pair, int* out_kind, int* out_tile,
                      int max_out) noexcept nogil:
    """The reference's _set_and_pair: readings of a remainder as n_sets (0/1) sets + a pair."""
    cdef int p, i, nl, no = 0
    cdef int left[4]
    cdef bint empty
    for p in range(NK):
        if rest[p] < 2:
            continue
        rest[p] -= 2
        if n_sets == 0:
            empty = True
            for i in range(NK):
                if rest[i]:
                    empty = False
                    break
            if empty and no < max_out:
                out_pair[no] = p; out_kind[no] = -1; out_tile[no] = -1
                no += 1
        else:
            nl = 0
            for i in range(NK):
                if rest[i]:
                    if nl < 4:
                        left[nl] = i
                    nl += 1
            if nl == 1 and rest[left[0]] == 3:
                if no < max_out:
                    out_pair[no] = p; out_kind[no] = K_PUNG; out_tile[no] = left[0]
                    no += 1
            elif (nl == 3 and left[0] < 27 and left[1] == left[0] + 1
                  and left[2] == left[0] + 2 and left[0] // 9 == left[2] // 9
                  and rest[left[0]] == 1 and rest[left[1]] == 1 and rest[left[2]] == 1):
                if no < max_out:
                    out_pair[no] = p; out_kind[no] = K_CHOW; out_tile[no] = left[0]
                    no += 1
        rest[p] += 2
    return no


cdef bint knitted_complete(const int* c, int n_melds) noexcept nogil:
    cdef int k, j
    cdef int rest[NK]
    cdef int op[1]
    cdef int ok_[1]
    cdef int ot[1]
    cdef bint all_in
    if n_melds > 1:
        return False
    for k in range(6):
        all_in = True
        for j in range(9):
            if not c[KS[k][j]]:
                all_in = False
                break
        if not all_in:
            continue
        for j in range(NK):
            rest[j] = c[j]
        for j in range(9):
            rest[KS[k][j]] -= 1
        if set_and_pair(rest, 1 - n_melds, op, ok_, ot, 1):
            return True
    return False


cdef int honors_knitted(const int* c, int n_melds, int total, int* knit) noexcept nogil:
    """Suited knitted tiles of 全不靠 (count) or -1."""
    cdef int t, k, j, n = 0
    cdef bint inside, found
    if n_melds or total != 14:
        return -1
    for t in range(NK):
        if c[t] > 1:
            return -1
    for k in range(6):
        inside = True
        for t in range(27):
            if c[t]:
                found = False
                for j in range(9):
                    if KS[k][j] == t:
                        found = True
                        break
                if not found:
                    inside = False
                    break
        if inside:
            for t in range(27):
                if c[t]:
                    knit[n] = t
                    n += 1
            return n
    return -1


cdef bint complete(const int* c, int n_melds, int forms, int quads) noexcept nogil:
    cdef int t, total = 0, orph
    cdef int knit[9]
    cdef bint ok
    for t in range(NK):
        total += c[t]
    if (forms & (1 << F_REG)) and regular_complete(c, n_melds, total):
        return True
    if n_melds == 0 and total == 14:
        if forms & (1 << F_SP):
            ok = True
            for t in range(NK):
                if c[t] % 2 or (not quads and c[t] > 2):
                    ok = False
                    break
            if ok:
                return True
        if forms & (1 << F_TO):
            ok = True
            orph = 0
            for t in range(NK):
                if is_term_honor(t):
                    if not c[t]:
                        ok = False
                        break
                    orph += c[t]
            if ok and orph == 14:
                return True
        if (forms & (1 << F_HK)) and honors_knitted(c, 0, total, knit) >= 0:
            return True
    if (forms & (1 << F_KS)) and n_melds <= 1 and knitted_complete(c, n_melds):
        return True
    return False


cdef int unique_wait(const Table* tb, const HandIn* h) noexcept nogil:
    """1 when exactly one kind completes the hand before the win (by shape).

    Only the reference's candidate kinds are tried (held kinds and suited
    neighbours within two; every kind once 11 kinds are held and a special form
    is allowed; a knitted straight's kinds when 8 of them are held): no other
    kind can complete a hand in any form.
    """
    cdef int t, d, r, k, j, n = 0, distinct = 0, held
    cdef int c[NK]
    cdef uint8_t cand[NK]
    memset(cand, 0, NK)
    for t in range(NK):
        c[t] = h.before[t]
        if c[t]:
            distinct += 1
            cand[t] = 1
            if t < 27:
                r = t % 9
                for d in range(-2, 3):
                    if 0 <= r + d <= 8:
                        cand[t + d] = 1
    if tb.forms_enabled & ((1 << F_TO) | (1 << F_HK) | (1 << F_KS)):
        if distinct >= 11:
            memset(cand, 1, NK)
        elif tb.forms_enabled & (1 << F_KS):
            for k in range(6):
                held = 0
                for j in range(9):
                    if c[KS[k][j]]:
                        held += 1
                if held >= 8:
                    for j in range(9):
                        cand[KS[k][j]] = 1
    for t in range(NK):
        if not cand[t]:
            continue
        c[t] += 1
        if complete(c, h.n_melds, tb.forms_enabled, tb.quads):
            n += 1
            if n > 1:
                return 0
        c[t] -= 1
    return n == 1


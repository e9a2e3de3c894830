# Part of fans.pyx (textually included: one compilation unit).  The search: every
# decomposition of the hand (special forms, then the regular ones) and every
# attribution of the win tile, scored; the best reading is kept (就高不就低).

# ---------------------------------------------------------------- the search
ctypedef struct Walk:
    const Table* tb
    const HandIn* h
    Result* r
    W w
    int uw                   # -1 until computed
    int c[NK]                # concealed tiles, win tile included
    int best_total
    int stack_kind[4]
    int stack_tile[4]
    int depth
    uint8_t static_cnt[NF]   # values of the per-hand predicates
    u64 static_mask[10]      # per form: the per-hand fans counted (2 words each)


cdef inline int position(int kind, int tile, int win) noexcept nogil:
    if kind == K_CHOW:
        if win == tile + 1:
            return P_CLOSED
        if (win == tile + 2 and tile % 9 == 0) or (win == tile and tile % 9 == 6):
            return P_EDGE
        return P_OPEN
    return P_PUNG


cdef void score_reading(Walk* wk, Cand* cd) noexcept nogil:
    """Every attribution of the win tile in one decomposition; keeps the best."""
    cdef const HandIn* h = wk.h
    cdef int win = h.win
    cdef int na = 0, i, j, kind, t, ws, pos, total, tmin
    cdef int a_set[8]
    cdef int a_pos[8]
    cdef bint match, dup
    cdef uint8_t cnt[NF]
    cdef u64 present[2]
    if cd.form == F_REG or cd.form == F_KS:
        for i in range(cd.n_csets):
            kind = cd.skind[h.n_melds + i]
            t = cd.stile[h.n_melds + i]
            match = ((kind == K_CHOW and t <= win <= t + 2 and t // 9 == win // 9)
                     or (kind == K_PUNG and t == win))
            if not match:
                continue
            dup = False
            for j in range(i):
                if cd.skind[h.n_melds + j] == kind and cd.stile[h.n_melds + j] == t:
                    dup = True
                    break
            if dup:
                continue
            a_set[na] = h.n_melds + i
            a_pos[na] = position(kind, t, win)
            na += 1
        if cd.pair == win:
            a_set[na] = WS_PAIR
            a_pos[na] = P_PAIR
            na += 1
        if cd.n_knit:
            for j in range(cd.n_knit):
                if cd.knit[j] == win:
                    a_set[na] = WS_NONE
                    a_pos[na] = P_SPECIAL
                    na += 1
                    break
        # stable sort by position
        for i in range(1, na):
            ws = a_set[i]
            pos = a_pos[i]
            j = i - 1
            while j >= 0 and a_pos[j] > pos:
                a_set[j + 1] = a_set[j]
                a_pos[j + 1] = a_pos[j]
                j -= 1
            a_set[j + 1] = ws
            a_pos[j + 1] = pos
    else:
        a_set[0] = WS_NONE
        a_pos[0] = P_SPECIAL
        na = 1
    for i in range(na):
        ws = a_set[i]
        pos = a_pos[i]
        for j in range(h.n_melds, cd.n_sets):
            cd.sconc[j] = not (j == ws and cd.skind[j] == K_PUNG and not h.self_drawn)
        cd.win_set = ws
        cd.pos = pos
        if pos == P_EDGE or pos == P_CLOSED or pos == P_PAIR:
            if wk.uw < 0:
                wk.uw = unique_wait(wk.tb, h)
            cd.uw = wk.uw
        else:
            cd.uw = 0
        total = evaluate(wk.tb, &wk.w, wk.static_cnt, wk.static_mask, cd, cnt, &tmin, present)
        if total > wk.best_total:
            wk.best_total = total
            wk.r.total = total
            wk.r.total_min = tmin
            memcpy(wk.r.fans, cnt, NF)
            wk.r.present[0] = present[0]
            wk.r.present[1] = present[1]
            memcpy(&wk.r.best, cd, sizeof(Cand))


cdef void init_cand(Walk* wk, Cand* cd, int form) noexcept nogil:
    cdef const HandIn* h = wk.h
    cdef int i
    cd.form = form
    cd.n_sets = h.n_melds
    for i in range(h.n_melds):
        cd.skind[i] = h.mkind[i]
        cd.stile[i] = h.mtile[i]
        cd.sconc[i] = h.mconc[i]
    cd.n_csets = 0
    cd.pair = -1
    cd.n_pairs = 0
    cd.n_knit = 0
    cd.win_set = WS_NONE
    cd.pos = P_SPECIAL
    cd.uw = 0


cdef void regular_leaf(Walk* wk, int pair_tile) noexcept nogil:
    cdef Cand cd
    cdef int i, n = wk.h.n_melds
    init_cand(wk, &cd, F_REG)
    for i in range(wk.depth):
        cd.skind[n + i] = wk.stack_kind[i]
        cd.stile[n + i] = wk.stack_tile[i]
        cd.sconc[n + i] = 1
    cd.n_csets = wk.depth
    cd.n_sets = n + wk.depth
    cd.pair = pair_tile
    score_reading(wk, &cd)


cdef void rec(Walk* wk, int* hh, int remaining, bint pair_left, int last_start,
              int last_type, int pair_tile) noexcept nogil:
    """The order of majiang._core.decompose.rec (pair < pung < chow at the lowest tile)."""
    cdef int i = last_start if last_start > 0 else 0, t
    while i < NK and hh[i] == 0:
        i += 1
    if i == NK:
        if remaining == 0 and not pair_left:
            regular_leaf(wk, pair_tile)
        return
    for t in range(3):
        if i == last_start and t < last_type:
            continue
        if t == 0:
            if not pair_left or hh[i] < 2:
                continue
            hh[i] -= 2
            rec(wk, hh, remaining, False, i, t, i)
            hh[i] += 2
        elif t == 1:
            if remaining == 0 or hh[i] < 3:
                continue
            hh[i] -= 3
            wk.stack_kind[wk.depth] = K_PUNG
            wk.stack_tile[wk.depth] = i
            wk.depth += 1
            rec(wk, hh, remaining - 1, pair_left, i, t, pair_tile)
            wk.depth -= 1
            hh[i] += 3
        else:
            if remaining == 0 or i >= 27 or i % 9 > 6 or hh[i + 1] == 0 or hh[i + 2] == 0:
                continue
            hh[i] -= 1; hh[i + 1] -= 1; hh[i + 2] -= 1
            wk.stack_kind[wk.depth] = K_CHOW
            wk.stack_tile[wk.depth] = i
            wk.depth += 1
            rec(wk, hh, remaining - 1, pair_left, i, t, pair_tile)
            wk.depth -= 1
            hh[i] += 1; hh[i + 1] += 1; hh[i + 2] += 1


cdef int score_core(const Table* tb, const HandIn* h, Result* r) noexcept nogil:
    """Best reading of one winning hand into r; returns the status (ST_*)."""
    cdef Walk wk
    cdef Cand cd
    cdef int i, j, t, k, n_before = 0, n = 0, distinct = 0, exposed_win = 0, has_kong = 0
    cdef int allb[NK]
    cdef int hh[NK]
    cdef int op[8]
    cdef int okd[8]
    cdef int ot[8]
    cdef int rest[NK]
    cdef int win = h.win
    cdef bint ok
    cdef W* w = &wk.w
    r.status = ST_INVALID
    r.total = 0
    r.total_min = 0
    if win < 0 or win >= NK or h.n_melds < 0 or h.n_melds > 4:
        return ST_INVALID
    for t in range(NK):
        allb[t] = h.before[t]
        n_before += h.before[t]
    for i in range(h.n_melds):
        t = h.mtile[i]
        if h.mkind[i] == K_CHOW:
            allb[t] += 1; allb[t + 1] += 1; allb[t + 2] += 1
            if not h.mconc[i] and t <= win <= t + 2:
                exposed_win += 1
        else:
            k = 4 if h.mkind[i] == K_KONG else 3
            allb[t] += k
            if h.mkind[i] == K_KONG:
                has_kong = 1
            if not h.mconc[i] and t == win:
                exposed_win += k
    # the reference's checks (the caller re-runs it to raise the right error)
    if n_before + 3 * h.n_melds != tb.hand_size or tb.hand_size != 13:
        return ST_INVALID
    if allb[win] >= 4:
        return ST_INVALID
    if h.kong and h.self_drawn and not has_kong:
        return ST_INVALID
    if h.kong and not h.self_drawn and allb[win]:
        return ST_INVALID
    if h.last_copy and h.before[win]:
        return ST_INVALID
    r.last_copy = h.last_copy or exposed_win == 3

    wk.tb = tb
    wk.h = h
    wk.r = r
    wk.uw = -1
    wk.best_total = -1
    wk.depth = 0
    for t in range(NK):
        wk.c[t] = h.before[t]
    wk.c[win] += 1
    allb[win] += 1
    # per-hand facts, from the bit set of the kinds present
    cdef u64 pm = 0, r9
    w.n4 = 0
    for t in range(NK):
        if allb[t]:
            pm |= (<u64>1) << t
            if allb[t] == 4:
                w.n4 += 1
    w.mask = ((pm & 0x1FF) != 0) | (((pm >> 9) & 0x1FF) != 0) << 1 | \
        (((pm >> 18) & 0x1FF) != 0) << 2 | (((pm >> 27) & 0xF) != 0) << 3 | \
        (((pm >> 31) & 0x7) != 0) << 4
    w.green = (pm & ~M_GREEN) == 0
    w.term = (pm & ~M_TERM) == 0
    w.termhonor = (pm & ~M_TERM_HONOR) == 0
    w.simples = (pm & M_TERM_HONOR) == 0
    w.reversible = (pm & ~M_REVERSIBLE) == 0
    w.has_honor = (pm & M_HONORS) != 0
    w.honors_only = (pm & ~M_HONORS) == 0
    r9 = (pm | (pm >> 9) | (pm >> 18)) & 0x1FF
    if r9:
        w.rlo = ctz64(r9) + 1
        w.rhi = 64 - clz64(r9)
    else:
        w.rlo = 10
        w.rhi = 0
    w.nine_gates = 0
    if h.n_melds == 0 and win < 27:
        k = win - win % 9
        ok = h.before[k] == 3 and h.before[k + 8] == 3
        for i in range(1, 8):
            if h.before[k + i] != 1:
                ok = False
        w.nine_gates = ok
    w.n_exposed = 0
    for i in range(h.n_melds):
        if not h.mconc[i]:
            w.n_exposed += 1
    w.mk = 0
    w.ck = 0
    for i in range(h.n_melds):
        if h.mkind[i] == K_KONG:
            if h.mconc[i]:
                w.ck += 1
            else:
                w.mk += 1
    w.self_drawn = h.self_drawn
    w.last_copy = r.last_copy
    w.kong = h.kong
    w.last_tile = h.last_tile
    w.seat = h.seat
    w.prevalent = h.prevalent
    w.flowers = h.flowers

    # the per-hand predicates, once
    cdef int sv[NF]
    cdef u64 sp[2]
    sp[0] = 0
    sp[1] = 0
    static_values(w, sv)
    for j in range(tb.n_static):
        i = tb.static_ids[j]
        k = sv[i]
        wk.static_cnt[i] = k
        if k:
            sp[i >> 6] |= (<u64>1) << (i & 63)
    for t in range(5):
        wk.static_mask[2 * t] = sp[0] & tb.static_form_mask[t][0]
        wk.static_mask[2 * t + 1] = sp[1] & tb.static_form_mask[t][1]
    for t in range(NK):
        n += wk.c[t]
        if t < 27 and wk.c[t]:
            distinct += 1
    # special forms
    if h.n_melds == 0 and n == 14:
        if tb.forms_enabled & (1 << F_SP):
            ok = True
            for t in range(NK):
                if wk.c[t] % 2 or (not tb.quads and wk.c[t] > 2):
                    ok = False
                    break
            if ok:
                init_cand(&wk, &cd, F_SP)
                for t in range(NK):
                    for k in range(wk.c[t] // 2):
                        cd.pairs[cd.n_pairs] = t
                        cd.n_pairs += 1
                score_reading(&wk, &cd)
        if tb.forms_enabled & (1 << F_TO):
            ok = True
            k = 0
            for t in range(NK):
                if is_term_honor(t):
                    if not wk.c[t]:
                        ok = False
                        break
                    k += wk.c[t]
            if ok and k == 14:
                init_cand(&wk, &cd, F_TO)
                for t in range(NK):
                    if is_term_honor(t) and wk.c[t] == 2:
                        cd.pair = t
                        break
                score_reading(&wk, &cd)
        if tb.forms_enabled & (1 << F_HK):
            init_cand(&wk, &cd, F_HK)
            k = honors_knitted(wk.c, 0, n, cd.knit)
            if k >= 0:
                cd.n_knit = k
                score_reading(&wk, &cd)
    if (tb.forms_enabled & (1 << F_KS)) and h.n_melds <= 1 and distinct >= 9:
        for k in range(6):
            ok = True
            for i in range(9):
                if not wk.c[KS[k][i]]:
                    ok = False
                    break
            if not ok:
                continue
            for t in range(NK):
                rest[t] = wk.c[t]
            for i in range(9):
                rest[KS[k][i]] -= 1
            n_before = set_and_pair(rest, 1 - h.n_melds, op, okd, ot, 8)
            for i in range(n_before):
                init_cand(&wk, &cd, F_KS)
                cd.n_knit = 9
                for t in range(9):
                    cd.knit[t] = KS[k][t]
                cd.pair = op[i]
                if okd[i] >= 0:
                    cd.skind[cd.n_sets] = okd[i]
                    cd.stile[cd.n_sets] = ot[i]
                    cd.sconc[cd.n_sets] = 1
                    cd.n_sets += 1
                    cd.n_csets = 1
                score_reading(&wk, &cd)
    if tb.forms_enabled & (1 << F_REG):
        for t in range(NK):
            hh[t] = wk.c[t]
        rec(&wk, hh, (n - 2) // 3, True, -1, -1, -1)
    if wk.best_total < 0:
        r.status = ST_NOT_WINNING
        return ST_NOT_WINNING
    r.status = ST_OK
    return ST_OK


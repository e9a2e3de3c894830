# Part of game.pyx (included): the efficiency bot's discard choice (least shanten,
# then most live ukeire, then the outermost tile).

cdef bint USE_ROWS = 1


def set_rows(bint on):
    """Testing switch: find the kinds that lower the shanten by table rows (one look-up
    and one short scan a draw, :func:`ukeire_table_c`) where the options allow, or by a
    shanten call a draw."""
    global USE_ROWS
    USE_ROWS = on


cdef inline bint plain_rows(const Opts* o) noexcept nogil:
    """Options on the table path of :func:`ukeire_table_c` (no caps, jokers, void suits
    or pair restriction)."""
    return (USE_ROWS and o.caps == NULL and o.jokers == 0 and o.void_suits == 0
            and (o.pair_mask & pair_all()) == pair_all())


cdef int ukeire_live(uint8_t* h, const Opts* o, const uint8_t* live, const uint8_t* visible,
                     int s0) noexcept nogil:
    """Live copies of the kinds whose draw lowers the shanten ``s0`` of the 3n+1 hand."""
    cdef int k, left, total = 0
    cdef uint8_t near[34]
    cdef int8_t eff[34]
    if plain_rows(o):
        near_kinds(h, o.mask & 7, near)         # the knitted draws: ukeire_table_c's own
    if plain_rows(o) and ukeire_table_c(h, o.mask, o.quads, eff, NULL,
                                        near if USE_NEAR else NULL) == s0:
        for k in range(34):
            if eff[k] >= 0:
                left = live[k] - h[k] - visible[k]
                if left > 0:
                    total += left
        return total
    near_kinds(h, o.mask, near)
    for k in range(34):
        if not near[k]:
            continue
        left = live[k] - h[k] - visible[k]
        if left <= 0 or h[k] >= 4:
            continue
        h[k] += 1
        if shanten_opts_c(h, o) < s0:
            total += left
        h[k] -= 1
    return total


cdef inline int centrality(int k) noexcept nogil:
    """Tie-break: lower = discard first (honors, then terminals, then inner tiles)."""
    if k >= 27:
        return 0
    k = k % 9
    return 1 + (k if k < 4 else 8 - k)


cdef void eval_c(uint8_t* h, const Opts* o, const uint8_t* live, const uint8_t* visible,
                 int* out_s, int* out_u) noexcept nogil:
    """Shanten and live ukeire of a 3n+1 hand (the knitted forms only while they do
    better than the other forms, as in :func:`choose_c`)."""
    cdef Opts basic
    cdef int s
    if o.mask & (8 | 16) and o.mask & 7:
        if knitted_not_better(h, o, &basic):
            o = &basic
    s = shanten_opts_c(h, o)
    out_s[0] = s
    out_u[0] = ukeire_live(h, o, live, visible, s)


def evaluate(const uint8_t[::1] counts, ShapeOpts so, int jokers,
             const uint8_t[::1] visible):
    """``(shanten, live ukeire)`` of a 3n+1 hand."""
    cdef uint8_t h[34]
    cdef Opts o = so.opts(jokers)
    cdef int k, s, u
    with nogil:
        for k in range(34):
            h[k] = counts[k]
        eval_c(h, &o, so.live, &visible[0], &s, &u)
    return s, u


cdef int choose_c(uint8_t* h, const Opts* o, const uint8_t* live, const uint8_t* visible,
                  int void_suit, const uint8_t* allowed, int* out_s, int* out_u,
                  bint shanten_only=0) noexcept nogil:
    """Body of :func:`choose_discard` (``h`` modified and restored; ``allowed`` may be NULL).
    ``shanten_only``: stop after the least shanten (``out_s``; returns 0, or -1 when
    nothing may be discarded)."""
    cdef int sh[34]
    cdef int bound[34]
    cdef int order[34]
    cdef uint8_t near[34]
    cdef int k, k2, i, nc, b, left, u, best_k = -1, best_s = 1000, best_u = -1, c
    cdef int best_c = 100
    cdef bint void_held = 0
    cdef Opts basic
    if o.mask & (8 | 16) and o.mask & 7:
        # the knitted forms (slow, every kind an ukeire candidate) only while they do
        # better than the other forms; the shanten values are the same either way
        if knitted_not_better(h, o, &basic):
            o = &basic
    if 0 <= void_suit <= 2:
        for k in range(9 * void_suit, 9 * void_suit + 9):
            if h[k] and (allowed == NULL or allowed[k]):
                void_held = 1
    for k in range(34):
        sh[k] = 1000
        if h[k] == 0 or (allowed != NULL and not allowed[k]):
            continue
        if void_held and not (9 * void_suit <= k < 9 * void_suit + 9):
            continue
        h[k] -= 1
        sh[k] = shanten_opts_c(h, o)
        h[k] += 1
        if sh[k] < best_s:
            best_s = sh[k]
    if shanten_only:
        out_s[0] = best_s if best_s < 1000 else 99
        out_u[0] = 0
        return 0 if best_s < 1000 else -1
    # candidates by an upper bound of their ukeire (live copies of the near kinds),
    # highest first; a candidate whose bound is below the best ukeire so far cannot
    # win or tie, so the choice is the same as trying them all
    nc = 0
    for k in range(34):
        if sh[k] != best_s:
            continue
        h[k] -= 1
        near_kinds(h, o.mask, near)
        b = 0
        for k2 in range(34):
            if near[k2] and h[k2] < 4:
                left = live[k2] - h[k2] - visible[k2]
                if left > 0:
                    b += left
        h[k] += 1
        bound[k] = b
        i = nc
        while i > 0 and (bound[order[i - 1]] < b):
            order[i] = order[i - 1]
            i -= 1
        order[i] = k
        nc += 1
    for i in range(nc):
        k = order[i]
        if USE_PRUNE and best_k >= 0 and bound[k] < best_u:
            break
        h[k] -= 1
        u = ukeire_live(h, o, live, visible, best_s)
        h[k] += 1
        c = centrality(k)
        if best_k < 0 or u > best_u or (u == best_u and (c < best_c or
                                                          (c == best_c and k < best_k))):
            best_u = u
            best_c = c
            best_k = k
    if best_k < 0:
        out_s[0] = 99
        out_u[0] = 0
        return -1
    out_s[0] = best_s
    out_u[0] = best_u
    return best_k


def choose_discard(const uint8_t[::1] counts, ShapeOpts so, int jokers,
                   const uint8_t[::1] visible, int void_suit=-1, uint8_t[::1] allowed=None):
    """The efficiency bot's discard from a 3n+2 hand: ``(kind, shanten, ukeire)``.

    Order: a tile of ``void_suit`` (定缺, 0-2) first while any is held; then the
    least shanten after the discard, the most live ukeire, then honors before
    terminals before inner tiles, then the lower kind.  ``allowed`` (optional,
    ``uint8 (34,)``) limits the kinds considered.  Returns ``(-1, 99, 0)`` when no
    kind may be discarded.
    """
    cdef uint8_t h[34]
    cdef Opts o = so.opts(jokers)
    cdef int k, best_k, best_s, best_u
    cdef const uint8_t* al = NULL
    if allowed is not None:
        al = &allowed[0]
    with nogil:
        for k in range(34):
            h[k] = counts[k]
        best_k = choose_c(h, &o, so.live, &visible[0], void_suit, al, &best_s, &best_u)
    if best_k < 0:
        return -1, 99, 0
    return best_k, best_s, best_u

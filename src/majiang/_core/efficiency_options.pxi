# Shape options.
# Part of the efficiency kernel: textually included by efficiency.pyx (one
# compilation unit; the enums and imports there, the shared declarations in
# efficiency.pxd).
#
# The Opts route (see efficiency.pxd): caps (tile set, melds), the 2-5-8 pair mask,
# void suits (缺一门) and jokers standing for a fifth copy, and the Python-side
# construction of Opts.


# ---------------------------------------------------------------------------
# Shape options: caps, pair mask, void suits, jokers
# ---------------------------------------------------------------------------

cdef Opts make_opts_c(int mask, bint quads, const uint8_t* caps, int jokers, bint fifth,
                      uint64_t pair_mask, int void_suits) noexcept nogil:
    """An options struct (see efficiency.pxd for the "no constraint" values)."""
    cdef Opts o
    o.mask = mask
    o.quads = quads
    o.caps = caps
    o.jokers = jokers
    o.fifth = fifth
    o.pair_mask = pair_mask
    o.void_suits = void_suits
    return o


cdef int constrained_distance(const uint8_t* h, int M, const Opts* o,
                              const uint8_t* caps, int void) noexcept nogil:
    """Distance under ``caps`` (NULL = 4 each), the pair mask and the joker options;
    ``void`` is the suit (0-2) whose caps are 0 here, or -1."""
    cdef uint8_t loose[N_KINDS]
    cdef int k, d, best
    if o.fifth and o.jokers > 0:
        for k in range(N_KINDS):
            loose[k] = (o.caps[k] if o.caps != NULL else 4) + o.jokers
            if void >= 0 and k // 9 == void and k < 27:
                loose[k] = 0
        d = shanten_general(h, M, o.mask & FORM_REGULAR, o.quads, loose, o.pair_mask)
        if o.mask & ~FORM_REGULAR:
            best = shanten_general(h, M, o.mask & ~FORM_REGULAR, o.quads, caps, o.pair_mask)
            if best < d:
                d = best
        return d
    return shanten_general(h, M, o.mask, o.quads, caps, o.pair_mask)


cdef int shanten_opts_c(const uint8_t* h, const Opts* o) noexcept nogil:
    """Shanten of real tiles ``h`` (+ ``o.jokers``) under every option in ``o``, or an
    error code (< -1); 99 when no arrangement exists.  Tables must be built.

    Without a pair restriction or a void suit this is :func:`shanten_jokers_c` (the
    table path).  Otherwise the distance is computed by the general route: suits
    whose pair positions are mixed run the direct programme with a per-position
    "pair allowed" flag; with void suits, the distance is the least over the eligible
    suits ``s`` of the distance with the caps of suit ``s`` set to 0 (exact: a
    complete hand lacking suit ``s`` is exactly an arrangement within those caps).
    With ``fifth`` jokers the regular form may use caps + jokers copies of a kind
    (as in :func:`shanten_jokers_c`), except in the void suit.
    """
    cdef int k, n, M, s, d, best
    cdef uint8_t vc[N_KINDS]
    if o.void_suits == 0 and (o.pair_mask & pair_all()) == pair_all():
        return shanten_jokers_c(h, o.mask, o.quads, o.caps, o.jokers, o.fifth)
    n = 0
    for k in range(N_KINDS):
        if h[k] > 4:
            return ERR_BAD_COUNT
        n += h[k]
    n += o.jokers
    if n % 3 == 0 or n > 17:
        return ERR_BAD_SIZE
    M = n // 3
    if o.void_suits & 7 == 0:
        return with_jokers(constrained_distance(h, M, o, o.caps, -1), o.jokers)
    best = INF
    for s in range(3):
        if not (o.void_suits >> s) & 1:
            continue
        for k in range(N_KINDS):
            vc[k] = o.caps[k] if o.caps != NULL else 4
        for k in range(9 * s, 9 * s + 9):
            vc[k] = 0
        d = constrained_distance(h, M, o, vc, s)
        if d < best:
            best = d
    return with_jokers(best, o.jokers)


cdef inline int shanten_o(const uint8_t* h, const Opts* o) noexcept nogil:
    return shanten_opts_c(h, o)


cdef inline const uint8_t* caps_ptr(object caps) except? NULL:
    if caps is None:
        return NULL
    return <const uint8_t*>cnp.PyArray_DATA(caps)


cdef uint64_t pair_mask_of(object pair_mask) except? 0:
    """None -> every kind; else an int whose bit k allows kind k as the regular pair."""
    if pair_mask is None:
        return pair_all()
    if pair_mask < 0 or pair_mask >= (1 << 64):
        raise ValueError("pair_mask must be None or an int in [0, 2**64)")
    return <uint64_t>pair_mask


cdef Opts make_opts(int mask, bint quads, object caps, int jokers, bint fifth,
                    object pair_mask=None, int void_suits=0) except *:
    cdef uint64_t pm = pair_mask_of(pair_mask)
    if SUIT_TABLE == NULL:
        ensure_tables()
    if void_suits < 0 or void_suits > 7:
        raise ValueError("void_suits must be a 3-bit suit mask (0..7)")
    ensure_pair_tables(pm)
    return make_opts_c(mask, quads, caps_ptr(caps), jokers, fifth, pm, void_suits)

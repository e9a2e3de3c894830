# Part of game.pyx (included): shape options and the shape checks the engine asks
# before THE predicate (shanten, waits), the knitted forms' lower bound.

cdef class ShapeOpts:
    """Plain shape options for one hand.

    ``caps``: copies usable per kind (None = 4 each: the fast table path of the
    core); ``live``: copies per kind in the tile set for live-ukeire counts
    (None = ``caps``, or 4 each); ``pair_mask``, ``void_suits``, ``fifth`` as in
    the core's options.
    """

    cdef public int mask
    cdef public bint quads
    cdef public bint fifth
    cdef public uint64_t pair_mask
    cdef public int void_suits
    cdef bint has_caps
    cdef uint8_t caps[34]
    cdef uint8_t live[34]

    def __init__(self, int mask, bint quads, object caps, uint64_t pair_mask,
                 int void_suits, bint fifth=False, object live=None):
        cdef int k
        cdef const uint8_t[::1] cv
        self.mask = mask
        self.quads = quads
        self.fifth = fifth
        self.pair_mask = pair_mask
        ensure_pair_tables(pair_mask)      # the fast path for a restricted pair
        self.void_suits = void_suits
        self.has_caps = caps is not None
        for k in range(34):
            self.caps[k] = 4
            self.live[k] = 4
        if caps is not None:
            cv = caps
            if cv.shape[0] != 34:
                raise ValueError("caps must have 34 entries")
            for k in range(34):
                self.caps[k] = cv[k]
                self.live[k] = cv[k]
        if live is not None:
            cv = live
            if cv.shape[0] != 34:
                raise ValueError("live must have 34 entries")
            for k in range(34):
                self.live[k] = cv[k]

    cdef inline Opts opts(self, int jokers) noexcept:
        return make_opts_c(self.mask, self.quads, self.caps if self.has_caps else NULL,
                           jokers, self.fifth, self.pair_mask, self.void_suits)


def shanten(const uint8_t[::1] counts, ShapeOpts so, int jokers=0):
    """Shanten of ``counts`` (+ ``jokers``) under ``so``; -1 complete, 99 impossible."""
    cdef Opts o = so.opts(jokers)
    cdef int s
    with nogil:
        s = shanten_opts_c(&counts[0], &o)
    return s


def waits(const uint8_t[::1] counts, ShapeOpts so, int jokers, uint8_t[::1] out):
    """For a 3n+1 hand: ``out[k] = 1`` when ``counts + k`` (+ jokers) is complete.

    A kind already held four times is never a wait.  Returns 1 when drawing a joker
    completes the hand (0 otherwise).
    """
    cdef uint8_t h[34]
    cdef Opts o = so.opts(jokers)
    cdef Opts oj = so.opts(jokers + 1)
    cdef int k, any_w = 0, jw = 0
    with nogil:
        for k in range(34):
            h[k] = counts[k]
        for k in range(34):
            out[k] = 0
            if h[k] >= 4:
                continue
            h[k] += 1
            if shanten_opts_c(h, &o) == -1:
                out[k] = 1
                any_w = 1
            h[k] -= 1
        if any_w or shanten_opts_c(h, &oj) == -1:
            jw = 1
    return jw


cdef bint USE_NEAR = 1


def set_near(bint on):
    """Testing switch: restrict ukeire draws to the kinds near the hand (exact for the
    regular and seven-pairs forms) or try all 34."""
    global USE_NEAR
    USE_NEAR = on


cdef bint USE_PRUNE = 1

cdef int KNIT[6][3]
KNIT[0][:] = [0, 1, 2]
KNIT[1][:] = [0, 2, 1]
KNIT[2][:] = [1, 0, 2]
KNIT[3][:] = [1, 2, 0]
KNIT[4][:] = [2, 0, 1]
KNIT[5][:] = [2, 1, 0]


cdef int knit_lb(const uint8_t* h, int mask, int jokers) noexcept nogil:
    """A lower bound of the shanten in the knitted forms: honors and knitted tiles
    need 14 distinct tiles of one knitted pattern and the honors (13 - held - jokers);
    a knitted straight needs the pattern's 9 tiles (8 - held - jokers)."""
    cdef int pat, r, k, held, honors = 0, best = 1000, v
    for k in range(27, 34):
        if h[k]:
            honors += 1
    for pat in range(6):
        held = 0
        for r in range(9):
            k = 9 * KNIT[pat][r % 3] + r
            if h[k]:
                held += 1
        if mask & 8:
            v = 13 - min(held + honors, 14) - jokers
            if v < best:
                best = v
        if mask & 16:
            v = 8 - held - jokers
            if v < best:
                best = v
    return best


cdef inline bint knitted_not_better(uint8_t* h, const Opts* o, Opts* basic) noexcept nogil:
    """Whether the forms without the knitted ones reach the hand's shanten (``basic``
    = ``o`` less the knitted forms); the lower bound first, the full shanten only
    when the bound does not settle it."""
    cdef int sb
    basic[0] = o[0]
    basic.mask = o.mask & ~(8 | 16)
    sb = shanten_opts_c(h, basic)
    if USE_NEAR and knit_lb(h, o.mask, o.jokers) >= sb:
        return 1
    return sb <= shanten_opts_c(h, o)


def set_prune(bint on):
    """Testing switch: skip discard candidates whose ukeire bound is below the best."""
    global USE_PRUNE
    USE_PRUNE = on


cdef inline void near_kinds(const uint8_t* h, int mask, uint8_t* near) noexcept nogil:
    """Kinds whose draw can lower the shanten: for the regular form a kind within two
    ranks of a held tile of its suit or a held honor; seven pairs a held kind;
    thirteen orphans every terminal and honor; the knitted forms every kind."""
    cdef int k, s, r, d
    if mask & (8 | 16) or not USE_NEAR:
        for k in range(34):
            near[k] = 1
        return
    for k in range(34):
        near[k] = 0
    for k in range(27, 34):
        if h[k]:
            near[k] = 1
    for s in range(3):
        for r in range(9):
            if h[9 * s + r]:
                for d in range(-2, 3):
                    if 0 <= r + d <= 8:
                        near[9 * s + r + d] = 1
    if mask & 4:
        for k in range(27, 34):
            near[k] = 1
        for s in range(3):
            near[9 * s] = 1
            near[9 * s + 8] = 1

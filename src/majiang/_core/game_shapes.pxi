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


cdef int lone_tiles(const uint8_t* h) noexcept nogil:
    """Kinds held once with no other tile of the suit within two ranks (an honor held
    once), counted up to 2: a 3n+1 hand one tile short of a regular or seven-pairs
    arrangement (no jokers) has at most one, its single wait."""
    cdef int k, r, base, w, n = 0
    for k in range(27, 34):
        n += h[k] == 1
    for base in range(0, 27, 9):
        if n >= 2:
            return n
        for r in range(9):
            if h[base + r] == 1:
                w = 0
                if r >= 2:
                    w += h[base + r - 2]
                if r >= 1:
                    w += h[base + r - 1]
                if r <= 7:
                    w += h[base + r + 1]
                if r <= 6:
                    w += h[base + r + 2]
                n += w == 0
    return n


cdef inline int orphan_kinds(const uint8_t* h) noexcept nogil:
    """Terminal and honor kinds held (thirteen orphans one tile short needs twelve)."""
    cdef int k, n = 0
    for k in range(27, 34):
        n += h[k] != 0
    for k in range(0, 27, 9):
        n += (h[k] != 0) + (h[k + 8] != 0)
    return n


def lone_tile_count(const uint8_t[::1] counts):
    """:func:`lone_tiles` for tests."""
    return lone_tiles(&counts[0])


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


# ---------------------------------------------------------------------------
# The expert's plan distances (majiang.game.expert_plans): the counting kernels
# ---------------------------------------------------------------------------

cdef inline int pair_prog_c(const int* r) noexcept nogil:
    """Useful tiles toward a pair: 2 (a kind held twice), 1 (any tile), 0."""
    cdef int k, m = 0
    for k in range(34):
        if r[k] > m:
            m = r[k]
    return 2 if m >= 2 else (1 if m >= 1 else 0)


cdef int rest_prog_c(int* r, bint need_set) noexcept nogil:
    """Useful tiles of ``r`` toward one more set (when ``need_set``) and a pair: the most,
    over a piece of a set taken from ``r`` (a single 1, a pair or an adjacent / gapped
    two 2, a pung or a chow 3), of the piece plus :func:`pair_prog_c` of the rest
    (``r`` is modified and restored)."""
    cdef int best = pair_prog_c(r), k, rank, v
    if not need_set:
        return best
    for k in range(34):
        if not r[k]:
            continue
        r[k] -= 1                                   # a single
        v = 1 + pair_prog_c(r)
        r[k] += 1
        if v > best:
            best = v
        if r[k] >= 2:
            r[k] -= 2
            v = 2 + pair_prog_c(r)
            r[k] += 2
            if v > best:
                best = v
        if r[k] >= 3:
            r[k] -= 3
            v = 3 + pair_prog_c(r)
            r[k] += 3
            if v > best:
                best = v
        if k < 27:
            rank = k % 9
            if rank <= 7 and r[k + 1]:
                r[k] -= 1
                r[k + 1] -= 1
                v = 2 + pair_prog_c(r)
                if v > best:
                    best = v
                if rank <= 6 and r[k + 2]:
                    r[k + 2] -= 1
                    v = 3 + pair_prog_c(r)
                    r[k + 2] += 1
                    if v > best:
                        best = v
                r[k] += 1
                r[k + 1] += 1
            if rank <= 6 and r[k + 2]:
                r[k] -= 1
                r[k + 2] -= 1
                v = 2 + pair_prog_c(r)
                r[k] += 1
                r[k + 2] += 1
                if v > best:
                    best = v
        if best >= 5:
            return 5
    return best


def rest_progress(const int64_t[::1] r, bint need_set):
    """:func:`rest_prog_c` of the counts ``r`` (int64 (34,), each 0..4): the useful tiles
    toward one more set (when ``need_set``) and a pair, 0..5."""
    cdef int a[34]
    cdef int k
    if r.shape[0] != 34:
        raise ValueError("r must have 34 entries")
    for k in range(34):
        a[k] = <int>r[k]
    return rest_prog_c(a, need_set)


def chow_plan_distance(const uint8_t[::1] c, const int64_t[::1] avail, object left,
                       int other, int n_melds):
    """Distance (shanten convention) of a plan of fixed chows for the concealed counts
    ``c`` (uint8 (34,)): ``left`` the lowest tiles of the plan's chows not yet melded,
    ``other`` the melds outside the plan (0 or 1), ``n_melds`` all melds; ``avail``
    (int64 (34,)) the copies of each kind not seen outside the own hand.  The chows'
    tiles held count, a missing one with no copy left to draw makes the plan dead (-1);
    the other tiles add :func:`rest_progress` toward the remaining set and the pair."""
    cdef int lf[3]
    cdef int n_left = 0
    if c.shape[0] != 34 or avail.shape[0] != 34:
        raise ValueError("c and avail must have 34 entries")
    for a in left:
        if not (0 <= a < 27 and a % 9 <= 6):
            raise ValueError(f"{a} is not the lowest tile of a chow")
        if n_left >= 3:
            raise ValueError("a plan of fixed chows has three chows")
        lf[n_left] = a
        n_left += 1
    return chow_dist_c(&c[0], &avail[0], lf, n_left, other, n_melds)


cdef inline int memo_shanten(uint8_t* h, const Opts* o, dict memo) except? -1000:
    """``shanten_opts_c`` of ``h``, looked up in / kept in ``memo`` (keyed by the counts
    as bytes; None: no memo)."""
    cdef int s
    if memo is None:
        return shanten_opts_c(h, o)
    key = (<char*>h)[:34]
    got = memo.get(key)
    if got is not None:
        return <int>got
    s = shanten_opts_c(h, o)
    memo[key] = s
    return s


def valid_ukeire(object counts, int jokers, ShapeOpts so, object visible, object live,
                 object verdict, object wild=(), object weight=None, dict memo=None,
                 dict shanten_memo=None):
    """:func:`majiang.game.players._valid_ukeire` with the shanten loops in C: the live
    copies (``live[t] - counts[t] - visible[t]``) of the kinds ``t`` whose draw gives the
    3n+1 hand ``counts`` (uint8 (34,), modified and restored; + ``jokers``) a tenpai
    discard with a wait (not of ``wild``) that ``verdict(counts, w)`` accepts — called with
    ``counts`` holding the tenpai hand after that discard, waits in kind order, discards
    in kind order, stopping at the first full weight; ``verdict`` None: a tenpai discard at
    all.  An int; with ``weight(counts, w)`` (in [0, 1]) a float: each draw's copies times
    the best weight among its accepted waits.  ``verdict`` and ``weight`` must answer by
    the hand and the wait alone: with ``memo`` (a dict kept by the caller across calls
    with the same ``so``, ``jokers``, ``verdict``, ``weight`` and ``wild``) the best weight
    of each tenpai hand is looked up there (keyed by its counts as bytes) and not asked
    again; with ``shanten_memo`` (a dict kept across calls with the same ``so`` and
    ``jokers``) the shanten of the hands after a draw and after a draw and a discard."""
    cdef uint8_t[::1] c = counts
    cdef Opts o = so.opts(jokers)
    cdef int t, y, w, left, sw
    cdef int lv[34]
    cdef int vs[34]
    cdef uint8_t wm[34]
    cdef uint8_t near[34]
    cdef double total = 0.0, got, got13, x
    if c.shape[0] != 34:
        raise ValueError("counts must have 34 entries")
    for t in range(34):
        lv[t] = int(live[t])
        vs[t] = int(visible[t])
        wm[t] = 0
    for w in wild:
        if 0 <= w < 34:
            wm[w] = 1
    for t in range(34):
        left = lv[t] - c[t] - vs[t]
        if left <= 0 or c[t] >= 4:
            continue
        c[t] += 1
        got = 0.0
        if memo_shanten(&c[0], &o, shanten_memo) == 0:
            if verdict is None:
                got = 1.0
            else:
                for y in range(34):
                    if not c[y]:
                        continue
                    c[y] -= 1
                    if memo_shanten(&c[0], &o, shanten_memo) == 0:
                        key = None
                        hit = None
                        if memo is not None:
                            key = (<char*>&c[0])[:34]
                            hit = memo.get(key)
                        if hit is not None:
                            got13 = hit
                        else:
                            got13 = 0.0
                            # a wait completes the hand with held tiles: without jokers
                            # only a kind near the hand can (near_kinds)
                            if jokers == 0:
                                near_kinds(&c[0], o.mask, near)
                            for w in range(34):
                                if c[w] >= 4 or wm[w] or (jokers == 0 and not near[w]):
                                    continue
                                c[w] += 1
                                sw = shanten_opts_c(&c[0], &o)
                                c[w] -= 1
                                if sw == -1 and verdict(counts, w):
                                    x = 1.0 if weight is None else float(weight(counts, w))
                                    if x > got13:
                                        got13 = x
                                    if got13 >= 1.0:
                                        break
                            if key is not None:
                                memo[key] = got13
                        if got13 > got:
                            got = got13
                    c[y] += 1
                    if got >= 1.0:
                        break
        c[t] -= 1
        total += got * left
    return int(total) if weight is None else total

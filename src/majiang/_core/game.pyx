# cython: language_level=3
"""Compiled helpers of the game engine: shape checks and the efficiency bot's choices.

Private module: :mod:`majiang.game` validates everything and owns the rules.  The
kernels here know no ruleset; they take count vectors and a :class:`ShapeOpts`
(forms mask, seven-pairs quads, per-kind caps, pair mask, void-suit bits, whether a
joker may stand for a fifth copy) and call the shanten core
(:mod:`majiang._core.efficiency`, ``shanten_opts_c``) without the GIL.

Count vectors are C-contiguous ``uint8 (34,)``; ``visible`` is what the player sees
besides their own hand and own melds (``uint8 (34,)``).
"""
from libc.stdint cimport uint8_t, int8_t, int16_t, uint64_t
from libc.string cimport memset

from .efficiency cimport (Opts, make_opts_c, shanten_opts_c, ensure_tables,
                          ensure_pair_tables)

ensure_tables()


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


cdef int ukeire_live(uint8_t* h, const Opts* o, const uint8_t* live, const uint8_t* visible,
                     int s0) noexcept nogil:
    """Live copies of the kinds whose draw lowers the shanten ``s0`` of the 3n+1 hand."""
    cdef int k, left, total = 0
    cdef uint8_t near[34]
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


# ===========================================================================
# The compiled hand loop (built-in players, no jokers): see majiang.game.engine
# ===========================================================================
from cpython.pycapsule cimport PyCapsule_GetPointer
from numpy.random cimport bitgen_t
from .efficiency cimport pair_all

cdef extern from *:
    """
    static inline unsigned long long mj_mulhi(unsigned long long a, unsigned long long b) {
        return (unsigned long long)(((__uint128_t)a * b) >> 64);
    }
    """
    unsigned long long mj_mulhi(unsigned long long a, unsigned long long b) nogil

cdef enum:
    MAXM = 8
    MAXD = 96
    MAXF = 40
    MAXWON = 64
    MAXWALL = 256
    MAXOPT = 24
    # option kinds
    O_WIN = 0
    O_CKONG = 1
    O_AKONG = 2
    O_KONG = 3
    O_PUNG = 4
    O_CHOW = 5
    # outcomes
    R_DISCARD = 0
    R_END = 1
    R_NEXT = 2
    R_NONE = 3
    R_MELD = 4
    R_ROBBED_NONE = 5
    # end reasons
    E_WIN = 0
    E_WALL = 1
    E_BLOOD = 2

cdef struct FMeld:
    int kind          # 0 chow, 1 pung, 2 kong
    int tile
    int concealed
    int frm
    int n
    int added         # a kong added to a claimed pung (转弯豆)

cdef struct FSeat:
    uint8_t phys[34]
    uint8_t exposed[34]
    uint8_t meldall[34]
    FMeld melds[MAXM]
    int n_melds
    int flowers[MAXF]
    int n_flowers
    int disc[MAXD]
    int n_disc
    int won[MAXWON]
    int n_won
    int out
    int locked
    int void
    int drawn
    uint64_t passed
    int pass_all
    int kexp
    int kcon
    int calls
    int ptype         # 0 random, 1 efficiency
    bitgen_t* bg
    int s13           # cached loose shanten of the 3n+1 hand (before any drawn tile)
    int s13_ok
    int ndisc_made    # discards made (first-turn flags)
    int ndrawn        # draws in play (first-turn flags)


FIRST_TURNS = ("", "heavenly", "earthly", "human")


cdef inline int mask_for(int mask, int n_melds) noexcept nogil:
    if n_melds:
        mask &= ~(2 | 4 | 8)
    if n_melds > 1:
        mask &= ~16
    return mask if mask else 1


cdef class FastHand:
    """One hand played by built-in bots in compiled code (no jokers, core forms only).

    Mirrors :class:`majiang.game.engine._Game` move for move (same seeds, same
    hands); wins are judged by THE predicate through ``bridge.check`` and paid
    through ``bridge.record`` (Python), only for complete shapes.
    """

    cdef FSeat seats[4]
    cdef int wall[MAXWALL]
    cdef public int n, dealer, prevalent, head, tail, wall_n, draws, turns, end_reason
    cdef int chow, pung, ekong, akong, ckong, multiple, blood, void_rule, pass_lock
    cdef int mask, quads
    cdef uint64_t pair_mask
    cdef int kept0, per_exp, per_con, n_by
    cdef int by_k[8]
    cdef int by_v[8]
    cdef uint8_t copies[34]
    cdef uint8_t visible[34]
    cdef int last_disc
    cdef object bridge
    cdef list pending
    cdef list gens
    cdef int optkind_last
    cdef int optarg_last
    cdef public int jk, indicator
    cdef int jk_mode, fifth, three_jokers
    cdef int all258            # the all_258 form (将将胡 of any shape): THE predicate is asked
    cdef int jk_map[34]
    cdef int aside[64]
    cdef int n_aside
    cdef int interrupted       # a call, a kong or a win happened (天和 / 地和 / 人和)
    cdef int pay_kongs         # the ruleset pays kongs outside the hand value (bridge.kong)
    cdef int min_aware         # bots check tenpai waits with THE predicate (bridge.pick_wait)
    cdef int step_back         # bit (-code - 1): pick_wait outcomes that make a bot leave tenpai
    cdef int aware_jokers      # the wait check also while jokers are held (players.AWARE_JOKERS)
    cdef int fd_seat[34]       # the first discard of each kind: seat (-1 none), the seat
    cdef int fd_claim[34]      # that claimed that very tile (-1 none), its turn number
    cdef int fd_turn[34]       # (贵州 冲锋鸡 / 责任鸡, engine.end_table)

    def __init__(self, wall, int n, int hand_size, int dealer, int prevalent, copies, dict flags,
                 list ptypes, list gens, object bridge):
        cdef int i, k, p
        cdef FSeat* s
        cdef const uint8_t[::1] cv = copies
        cdef const int16_t[::1] wv = wall
        if wv.shape[0] > MAXWALL:
            raise ValueError("wall too long")
        self.wall_n = wv.shape[0]
        for i in range(self.wall_n):
            self.wall[i] = wv[i]
        self.n = n
        self.dealer = dealer
        self.prevalent = prevalent
        self.head = 0
        self.tail = self.wall_n - 1
        self.draws = 0
        self.turns = 0
        self.end_reason = -1
        self.last_disc = -1
        self.interrupted = 0
        for k in range(34):
            self.fd_seat[k] = -1
            self.fd_claim[k] = -1
            self.fd_turn[k] = -1
        self.pay_kongs = flags.get("pay_kongs", 0)
        self.min_aware = flags.get("min_aware", 0)
        self.step_back = flags.get("step_back", 0)
        self.aware_jokers = flags.get("aware_jokers", 0)
        for k in range(34):
            self.copies[k] = cv[k]
            self.visible[k] = 0
        self.chow = flags["chow"]
        self.pung = flags["pung"]
        self.ekong = flags["exposed_kong"]
        self.akong = flags["added_kong"]
        self.ckong = flags["concealed_kong"]
        self.multiple = flags["multiple"]
        self.blood = flags["blood"]
        self.void_rule = flags["void"]
        self.pass_lock = flags["pass_lock"]
        self.mask = flags["mask"]
        self.quads = flags["quads"]
        self.pair_mask = flags["pair_mask"]
        ensure_pair_tables(self.pair_mask)
        self.kept0 = flags["kept"]
        self.per_exp = flags["per_exposed_kong"]
        self.per_con = flags["per_concealed_kong"]
        by = flags["by_kongs"]
        self.n_by = len(by)
        for i in range(self.n_by):
            self.by_k[i] = by[i][0]
            self.by_v[i] = by[i][1]
        self.jk = -1
        self.indicator = -1
        self.n_aside = 0
        self.jk_mode = flags.get("jk_mode", 0)
        self.fifth = flags.get("fifth", 0)
        self.three_jokers = flags.get("three_jokers", 0)
        self.all258 = flags.get("all258", 0)
        jm = flags.get("jk_map")
        for k in range(34):
            self.jk_map[k] = jm[k] if jm is not None else -1
        if self.jk_mode == 1:
            self.jk = flags["jk_fixed"]
        self.bridge = bridge
        self.pending = [None] * n
        self.gens = gens
        for p in range(n):
            s = &self.seats[p]
            memset(s, 0, sizeof(FSeat))
            s.void = -1
            s.drawn = -1
            s.ptype = ptypes[p]
            s.bg = <bitgen_t*>PyCapsule_GetPointer(gens[p].capsule, "BitGenerator")
        self.deal(hand_size)

    # ------------------------------------------------------------ wall
    cdef int kept(self) noexcept:
        cdef int p, ne = 0, nc = 0, i, k
        for p in range(self.n):
            ne += self.seats[p].kexp
            nc += self.seats[p].kcon
        if self.n_by:
            k = self.by_v[self.n_by - 1]
            for i in range(self.n_by):
                if ne + nc == self.by_k[i]:
                    k = self.by_v[i]
                    break
            return k
        return self.kept0 + self.per_exp * ne + self.per_con * nc

    cdef inline int left(self) noexcept:
        return self.tail - self.head + 1

    cdef inline bint can_draw(self) noexcept:
        return self.left() > self.kept()

    cdef inline int take(self, bint from_tail) noexcept:
        cdef int t
        if from_tail:
            t = self.wall[self.tail]
            self.tail -= 1
        else:
            t = self.wall[self.head]
            self.head += 1
        return t

    cdef int draw(self, int p, bint from_tail) noexcept:
        cdef FSeat* s = &self.seats[p]
        cdef int t
        if not self.can_draw():
            return -1
        t = self.take(from_tail)
        self.draws += 1
        while t >= 34:
            s.flowers[s.n_flowers] = t
            s.n_flowers += 1
            if not self.can_draw():
                return -1
            t = self.take(True)
            self.draws += 1
        s.phys[t] += 1
        s.drawn = t
        s.ndrawn += 1
        return t

    cdef inline unsigned long long pick(self, int p, unsigned long long m) noexcept:
        cdef bitgen_t* bg = self.seats[p].bg
        return mj_mulhi(bg.next_uint64(bg.state), m)

    # ------------------------------------------------------------ deal
    cdef void deal(self, int hand_size) except *:
        cdef int i, j, p, k, t, need, best, v
        cdef FSeat* s
        for i in range(self.n):
            p = (self.dealer + i) % self.n
            s = &self.seats[p]
            k = hand_size + (1 if p == self.dealer else 0)
            for j in range(k):
                t = self.take(False)
                if t >= 34:
                    s.flowers[s.n_flowers] = t
                    s.n_flowers += 1
                else:
                    s.phys[t] += 1
                s.drawn = t
        if self.jk_mode == 2:
            t = self.take(True)
            while t >= 34:
                self.aside[self.n_aside] = t
                self.n_aside += 1
                t = self.take(True)
            self.aside[self.n_aside] = t
            self.n_aside += 1
            self.indicator = t
            self.visible[t] += 1
            self.jk = self.jk_map[t]
        for i in range(self.n):
            p = (self.dealer + i) % self.n
            s = &self.seats[p]
            need = s.n_flowers
            while need:
                need -= 1
                t = self.take(True)
                self.draws += 1
                if t >= 34:
                    s.flowers[s.n_flowers] = t
                    s.n_flowers += 1
                    need += 1
                else:
                    s.phys[t] += 1
                    s.drawn = t
        s = &self.seats[self.dealer]
        if s.drawn < 0 or s.drawn >= 34 or not s.phys[s.drawn]:
            for k in range(33, -1, -1):
                if s.phys[k]:
                    s.drawn = k
                    break

    def hand(self, int p):
        """Seat p's concealed counts (physical kinds) as a uint8 (34,) array."""
        import numpy as _np
        return _np.array([self.seats[p].phys[k] for k in range(34)], dtype=_np.uint8)

    def exchange(self, list gives, int direction):
        """换三张: seat p passes the kinds ``gives[p]`` to seat ``p + 1`` (direction 0),
        ``p - 1`` (1) or ``p + 2`` (2); then the dealer's first tile is re-read."""
        cdef int p, q, k
        cdef FSeat* s
        for p in range(self.n):
            for k in gives[p]:
                self.seats[p].phys[k] -= 1
        for p in range(self.n):
            q = (p + (1, self.n - 1, 2)[direction]) % self.n
            for k in gives[p]:
                self.seats[q].phys[k] += 1
        s = &self.seats[self.dealer]
        if not s.phys[s.drawn]:
            for k in range(33, -1, -1):
                if s.phys[k]:
                    s.drawn = k
                    break

    def declare_voids(self):
        """定缺 for every seat (after the deal and any exchange)."""
        cdef int i, j, p, k, t, v, best
        cdef FSeat* s
        if self.void_rule:
            for i in range(self.n):
                p = (self.dealer + i) % self.n
                s = &self.seats[p]
                if s.ptype == 0:
                    v = <int>self.pick(p, 3)
                else:
                    v = 0
                    best = 1000
                    for j in range(3):
                        k = 0
                        for t in range(9 * j, 9 * j + 9):
                            k += s.phys[t]
                        if k < best:
                            best = k
                            v = j
                s.void = v

    # ------------------------------------------------------------ helpers
    cdef Opts loose(self, int p, int jokers) noexcept:
        return make_opts_c(mask_for(self.mask, self.seats[p].n_melds), self.quads, NULL,
                           jokers, self.fifth, pair_all(), 0)

    cdef Opts strict(self, int p, int extra_melds, int jokers) noexcept:
        return make_opts_c(mask_for(self.mask, self.seats[p].n_melds + extra_melds),
                           self.quads, NULL, jokers, self.fifth, self.pair_mask, 0)

    cdef int play(self, int p, uint8_t* c) noexcept:
        """Seat p's concealed counts as played (jokers off) into c; returns the jokers."""
        cdef int k, j = 0
        for k in range(34):
            c[k] = self.seats[p].phys[k]
        if self.jk >= 0:
            j = c[self.jk]
            c[self.jk] = 0
        return j

    cdef void live_of(self, int p, uint8_t* live, int extra_kind, int extra_tile) noexcept:
        """Tile-set copies less the seat's meld tiles (and a hypothetical meld), its
        定缺 suit at 0.  extra_kind: -1 none, 0 chow, 1 pung, 2 kong."""
        cdef FSeat* s = &self.seats[p]
        cdef int k, v
        for k in range(34):
            v = self.copies[k] - s.meldall[k]
            live[k] = v if v > 0 else 0
        if extra_kind == 0:
            for k in range(extra_tile, extra_tile + 3):
                live[k] = live[k] - 1 if live[k] > 0 else 0
        elif extra_kind >= 1:
            v = self.copies[extra_tile] - s.meldall[extra_tile] - (3 if extra_kind == 1 else 4)
            live[extra_tile] = v if v > 0 else 0
        if s.void >= 0:
            for k in range(9 * s.void, 9 * s.void + 9):
                live[k] = 0

    cdef void seat_vis(self, int p, uint8_t* vis) noexcept:
        cdef int k
        for k in range(34):
            vis[k] = self.visible[k] - self.seats[p].exposed[k]

    cdef int legal(self, int p, int* out) noexcept:
        """Legal discards (physical kinds, ascending; 定缺 suit first)."""
        cdef FSeat* s = &self.seats[p]
        cdef int k, n = 0, nv = 0
        if s.locked and s.drawn >= 0:
            out[0] = s.drawn
            return 1
        if s.void >= 0:
            for k in range(9 * s.void, 9 * s.void + 9):
                if s.phys[k]:
                    out[nv] = k
                    nv += 1
            if nv:
                return nv
        for k in range(34):
            if s.phys[k]:
                out[n] = k
                n += 1
        return n

    cdef object melds_py(self, int p):
        cdef FSeat* s = &self.seats[p]
        cdef int i
        names = ("chow", "pung", "kong")
        return [(names[s.melds[i].kind], s.melds[i].tile, bool(s.melds[i].concealed))
                for i in range(s.n_melds)]

    cdef int shanten13(self, int p, int minus) noexcept:
        """Loose shanten of seat p's 3n+1 hand (``minus``: the drawn tile to take off,
        -1 none), cached until the hand changes other than by a draw.  A filter (is one
        tile enough?): exact whenever it is 0 or less; when positive it may be a lower
        bound — with the knitted forms the basic forms come first, then the knitted
        forms' lower bound, and their full shanten only when neither settles it."""
        cdef FSeat* s = &self.seats[p]
        cdef uint8_t c[34]
        cdef Opts o, basic
        cdef int k, j, sb, lb
        if s.s13_ok:
            return s.s13
        j = self.play(p, c)
        if minus >= 0:
            if minus == self.jk:
                j -= 1
            else:
                c[minus] -= 1
        o = self.loose(p, j)
        if o.mask & (8 | 16) and o.mask & 7:
            basic = o
            basic.mask = o.mask & ~(8 | 16)
            sb = shanten_opts_c(c, &basic)
            if sb <= 0:
                s.s13 = sb
            else:
                lb = knit_lb(c, o.mask, j)
                s.s13 = (sb if sb < lb else lb) if lb > 0 else shanten_opts_c(c, &o)
        else:
            s.s13 = shanten_opts_c(c, &o)
        s.s13_ok = 1
        return s.s13

    cdef object try_win(self, int p, int tile, bint self_drawn, bint kong, bint robbing,
                        bint last_tile):
        cdef FSeat* s = &self.seats[p]
        cdef uint8_t c[34]
        cdef Opts o
        cdef int k, j, jf
        cdef bint last_copy, special
        cdef bint is_joker = self.jk >= 0 and tile == self.jk
        if is_joker and not self_drawn:
            return None           # a discarded joker is never won on
        j = self.play(p, c)
        if self_drawn:
            if is_joker:
                j -= 1
            else:
                c[tile] -= 1
        special = self.three_jokers and self_drawn and j + (1 if is_joker else 0) >= 3
        if not special and self.all258 and self.only258(p, c, -1 if is_joker else tile):
            # 将将胡 of any shape (engine.beyond_core's all_258 case): THE predicate decides
            if not is_joker and c[tile] >= 4:
                return None
            special = True
        if not special:
            if self.shanten13(p, tile if self_drawn else -1) > 0:
                return None       # one tile cannot complete it
            jf = j
            if is_joker:
                jf += 1
            else:
                if c[tile] >= 4:
                    return None
                c[tile] += 1
            o = self.loose(p, jf)
            k = shanten_opts_c(c, &o)
            if not is_joker:
                c[tile] -= 1
            if k != -1:
                return None
        last_copy = (not is_joker) and (not robbing) and c[tile] == 0 and \
            (<int>self.visible[tile] - (0 if self_drawn else 1)) >= 3
        res = self.bridge.check(p, bytes([c[k] for k in range(34)]), self.melds_py(p),
                                -1 if is_joker else tile, self_drawn, kong or robbing,
                                last_copy, last_tile, (p - self.dealer + self.n) % self.n,
                                s.n_flowers, j, is_joker,
                                FIRST_TURNS[self.first_turn(p, self_drawn, kong or robbing)])
        return res

    cdef bint only258(self, int p, const uint8_t* c, int tile) noexcept:
        """Every tile of seat p's hand (concealed ``c``, melds, the win ``tile`` unless
        -1) is a 2, 5 or 8 of a suit: the shape of the all_258 form
        (:func:`majiang.scoring.waiting.beyond_core`; jokers stand for any tile)."""
        cdef int k
        cdef FSeat* s = &self.seats[p]
        for k in range(34):
            if (c[k] or s.meldall[k]) and (k >= 27 or k % 3 != 1):
                return False
        if tile >= 0 and (tile >= 27 or tile % 3 != 1):
            return False
        return True

    cdef int first_turn(self, int p, bint self_drawn, bint kong) noexcept:
        """0 none, 1 天和, 2 地和, 3 人和 (as :meth:`HandState.first_turn`)."""
        cdef FSeat* s = &self.seats[p]
        if self.interrupted or kong:
            return 0
        if self_drawn:
            if s.ndisc_made:
                return 0
            return 1 if p == self.dealer else 2
        if p == self.dealer or s.ndrawn or s.ndisc_made:
            return 0
        return 3

    # ------------------------------------------------------------ bots
    cdef int bot_discard(self, int p) except -2:
        cdef FSeat* s = &self.seats[p]
        cdef int lg[34]
        cdef int nl = self.legal(p, lg)
        cdef int k, i, sh, u, j, x
        cdef uint8_t allowed[34]
        cdef uint8_t live[34]
        cdef uint8_t vis[34]
        cdef uint8_t h[34]
        cdef Opts o
        if s.locked:
            return lg[0]
        if s.ptype == 0:
            return lg[<int>self.pick(p, nl)]
        memset(allowed, 0, 34)
        for i in range(nl):
            if lg[i] != self.jk:
                allowed[lg[i]] = 1
        j = self.play(p, h)
        o = self.strict(p, 0, j)
        self.live_of(p, live, -1, 0)
        self.seat_vis(p, vis)
        k = choose_c(h, &o, live, vis, s.void, allowed, &sh, &u)
        if k < 0:
            return lg[0]
        if sh == 0 and self.min_aware and (j == 0 or self.aware_jokers):
            i = self.valid_tenpai(p, h, &o, live, vis, allowed, j)
            if i >= 0:
                k = i
            elif i < -2 or i == -1:
                if self.step_back & (1 << (-i - 1)):
                    # no tenpai discard can win: a shape toward one that can
                    # (players.step_back, through the bridge)
                    i = self.bridge.step_back(
                        p, bytes([h[x] for x in range(34)]),
                        bytes([allowed[x] for x in range(34)]), self.melds_py(p),
                        (p - self.dealer + self.n) % self.n, j,
                        bytes([live[x] for x in range(34)]), bytes([vis[x] for x in range(34)]),
                        s.void, self.jk, s.n_flowers)
                    if i >= 0:
                        k = i
        for i in range(nl):
            if lg[i] == k:
                return k
        return lg[0]

    cdef int valid_tenpai(self, int p, uint8_t* h, const Opts* o, uint8_t* live, uint8_t* vis,
                          const uint8_t* allowed, int jokers) except -9:
        """The bridge's :func:`pick_valid_wait` over the tenpai discards among the
        ``allowed`` kinds of ``h`` (+ ``jokers``, already in ``o``): the kind, -1 when no
        live wait can win now but some wait could (dead, or with more flowers drawn), -3
        when no wait can, -2 when none is tenpai.  The natural copies of the wild kind
        are no wait (all its copies are wild)."""
        cdef int x, w, left
        cands = []
        for x in range(34):
            if not h[x] or not allowed[x]:
                continue
            h[x] -= 1
            if shanten_opts_c(h, o) == 0:
                ws = []
                for w in range(34):
                    if h[w] >= 4 or w == self.jk:
                        continue
                    h[w] += 1
                    if shanten_opts_c(h, o) == -1:
                        left = <int>live[w] - <int>h[w] + 1 - <int>vis[w]
                        ws.append((w, left))
                    h[w] -= 1
                cands.append((x, bytes([h[w] for w in range(34)]), ws))
            h[x] += 1
        if not cands:
            return -2
        return self.bridge.pick_wait(p, cands, self.melds_py(p),
                                     (p - self.dealer + self.n) % self.n, jokers,
                                     self.seats[p].n_flowers)

    cdef int bot_declare(self, int p, int nopt, int* ok, int* ot) except -2:
        cdef FSeat* s = &self.seats[p]
        cdef int i, k, sh, u, s_keep, s1, nl, j
        cdef int lg[34]
        cdef uint8_t allowed[34]
        cdef uint8_t live[34]
        cdef uint8_t vis[34]
        cdef uint8_t h[34]
        cdef Opts o
        for i in range(nopt):
            if ok[i] == O_WIN:
                return i
        if s.ptype == 0:
            i = <int>self.pick(p, nopt + 1)
            return i if i < nopt else -1
        nl = self.legal(p, lg)
        memset(allowed, 0, 34)
        for i in range(nl):
            if lg[i] != self.jk:
                allowed[lg[i]] = 1
        j = self.play(p, h)
        o = self.strict(p, 0, j)
        self.live_of(p, live, -1, 0)
        self.seat_vis(p, vis)
        choose_c(h, &o, live, vis, s.void, allowed, &s_keep, &u)
        for i in range(nopt):
            k = ot[i]
            if ok[i] == O_CKONG:
                h[k] -= 4
                o = self.strict(p, 1, j)
                self.live_of(p, live, 2, k)
                s1 = shanten_opts_c(h, &o)
                h[k] += 4
            else:
                h[k] -= 1
                o = self.strict(p, 0, j)
                self.live_of(p, live, -1, 0)
                s1 = shanten_opts_c(h, &o)
                h[k] += 1
            if s1 <= s_keep:
                return i
        return -1

    cdef int bot_claim(self, int p, int tile, int nopt, int* ok, int* ot) except -2:
        cdef FSeat* s = &self.seats[p]
        cdef int i, k, k2, s0, u0, s1, u1, best = -1, key_s, key_u, a = 0, j
        cdef uint8_t live[34]
        cdef uint8_t vis[34]
        cdef uint8_t h[34]
        cdef Opts o
        for i in range(nopt):
            if ok[i] == O_WIN:
                return i
        if s.ptype == 0:
            i = <int>self.pick(p, nopt + 1)
            return i if i < nopt else -1
        j = self.play(p, h)
        self.seat_vis(p, vis)
        o = self.strict(p, 0, j)
        s0 = shanten_opts_c(h, &o)        # = eval_c's shanten; its ukeire only if needed
        u0 = -1
        key_s = s0
        key_u = -1
        for i in range(nopt):
            if ok[i] == O_KONG:
                h[tile] -= 3
                o = self.strict(p, 1, j)
                s1 = shanten_opts_c(h, &o)
                if s1 <= s0 and (best < 0 or s1 <= key_s):
                    self.live_of(p, live, 2, tile)
                    eval_c(h, &o, live, vis, &s1, &u1)
                    if key_u < 0 and best < 0:
                        key_u = self.own_ukeire(p, h, tile, 3, vis, j)
                    if best < 0 or s1 < key_s or (s1 == key_s and u1 > key_u):
                        best = i
                        key_s = s1
                        key_u = u1
                h[tile] += 3
                continue
            if ok[i] == O_PUNG:
                h[tile] -= 2
                self.live_of(p, live, 1, tile)
            else:
                a = ot[i]
                for k in range(a, a + 3):
                    if k != tile:
                        h[k] -= 1
                self.live_of(p, live, 0, a)
            o = self.strict(p, 1, j)
            k = choose_c(h, &o, live, vis, s.void, NULL, &s1, &u1, 1)
            if k >= 0 and s1 <= key_s:
                k = choose_c(h, &o, live, vis, s.void, NULL, &s1, &u1)
            else:
                k = -1
            if ok[i] == O_PUNG:
                h[tile] += 2
            else:
                for k2 in range(a, a + 3):
                    if k2 != tile:
                        h[k2] += 1
            if k < 0:
                continue
            if s1 == key_s and key_u < 0 and best < 0:
                key_u = self.own_ukeire(p, h, -1, 0, vis, j)
            if s1 < key_s or (s1 == key_s and u1 > key_u):
                best = i
                key_s = s1
                key_u = u1
        return best

    cdef int own_ukeire(self, int p, uint8_t* h, int tile, int removed, uint8_t* vis,
                        int jokers) noexcept:
        """Live ukeire of seat p's current 3n+1 hand (``h`` with ``removed`` copies of
        ``tile`` taken off for a kong being weighed: restored around the count)."""
        cdef uint8_t live[34]
        cdef Opts o = self.strict(p, 0, jokers)
        cdef int s0, u0
        if removed:
            h[tile] += removed
        self.live_of(p, live, -1, 0)
        eval_c(h, &o, live, vis, &s0, &u0)
        if removed:
            h[tile] -= removed
        return u0

    # ------------------------------------------------------------ the loop
    cpdef int run(self) except -1:
        cdef int cur = self.dealer, drawn = self.seats[self.dealer].drawn, kong_flag = 0
        cdef int mode = 0     # 0 turn, 1 draw, 2 kong draw, 3 discard only
        cdef int code, out, t
        cdef int res_code, res_a, res_b
        while True:
            if mode == 1 or mode == 2:
                t = self.draw(cur, mode == 2)
                if t < 0:
                    return self.finish(E_WALL)
                drawn = t
                kong_flag = mode == 2
                mode = 0
            if mode == 0:
                code = self.own_turn(cur, drawn, kong_flag, &out)
            else:
                out = self.do_discard(cur)
                code = R_DISCARD
            if code == R_END:
                return self.finish(out)
            if code == R_NEXT:
                cur = out
                if cur < 0:
                    return self.finish(E_BLOOD)
                mode = 1
                continue
            # a discard: claims
            res_code = self.claim_round(cur, out, 0, &res_a, &res_b)
            if res_code == R_END:
                return self.finish(res_a)
            if res_code == R_NEXT:
                if res_a < 0:
                    return self.finish(E_BLOOD)
                cur = res_a
                mode = 1
                continue
            if res_code == R_MELD:
                self.make_meld(cur, out, res_a, res_b)
                cur = res_a
                mode = 2 if self.optkind_last == O_KONG else 3
                continue
            # nobody claimed
            if not self.can_draw():
                return self.finish(E_WALL)
            cur = self.next_active(cur)
            mode = 1

    cdef int finish(self, int reason) except -1:
        self.end_reason = reason
        return reason

    cdef int next_active(self, int p) noexcept:
        cdef int i, q
        for i in range(1, self.n + 1):
            q = (p + i) % self.n
            if not self.seats[q].out:
                return q
        return -1

    cdef int do_discard(self, int p) except -1:
        cdef FSeat* s = &self.seats[p]
        cdef int t = self.bot_discard(p)
        s.phys[t] -= 1
        s.ndisc_made += 1
        s.s13_ok = 0
        s.passed = 0
        s.pass_all = 0
        if s.n_disc >= MAXD:
            raise RuntimeError("compiled loop: discard pool full")
        s.disc[s.n_disc] = t
        s.n_disc += 1
        self.visible[t] += 1
        self.last_disc = t
        s.drawn = -1
        self.turns += 1
        if self.fd_seat[t] < 0:
            self.fd_seat[t] = p
            self.fd_turn[t] = self.turns
        return t

    cdef int own_turn(self, int p, int drawn, int kong_flag, int* out) except -1:
        cdef FSeat* s = &self.seats[p]
        cdef int ok[MAXOPT]
        cdef int ot[MAXOPT]
        cdef int nopt, k, i, ch, t, code
        cdef bint last
        while True:
            nopt = 0
            last = not self.can_draw()
            res = self.try_win(p, drawn, True, kong_flag, False, last)
            if res is not None and res.valid:
                ok[nopt] = O_WIN
                ot[nopt] = 0
                nopt += 1
            if not s.locked and self.can_draw():
                if self.ckong:
                    for k in range(34):
                        if s.phys[k] >= 4 and k != self.jk and \
                                not (s.void >= 0 and k < 27 and k // 9 == s.void):
                            ok[nopt] = O_CKONG
                            ot[nopt] = k
                            nopt += 1
                if self.akong:
                    for i in range(s.n_melds):
                        if s.melds[i].kind == 1 and s.phys[s.melds[i].tile] and \
                                s.melds[i].tile != self.jk:
                            ok[nopt] = O_AKONG
                            ot[nopt] = s.melds[i].tile
                            nopt += 1
            ch = self.bot_declare(p, nopt, ok, ot) if nopt else -1
            if ch < 0:
                break
            if ok[ch] == O_WIN:
                self.record(p, drawn, res, True, -1, kong_flag, False)
                return self.after_win_self(p, drawn, out)
            k = ot[ch]
            if ok[ch] == O_CKONG:
                s.phys[k] -= 4
                self.add_meld(p, 2, k, 1, -1)
                s.kcon += 1
                if self.pay_kongs:
                    self.bridge.kong(p, "concealed", self.outs(), self.turns, -1, False)
            else:
                s.phys[k] -= 1
                s.s13_ok = 0
                for i in range(s.n_melds):
                    if s.melds[i].kind == 1 and s.melds[i].tile == k:
                        s.melds[i].kind = 2
                        s.melds[i].n = 4
                        s.melds[i].added = 1
                        break
                self.visible[k] += 1
                s.exposed[k] += 1
                s.meldall[k] += 1
                s.kexp += 1
                self.interrupted = 1
                code = self.rob(p, k, out)
                if code >= 0:
                    return code
                if self.pay_kongs:
                    self.bridge.kong(p, "added", self.outs(), self.turns, -1, k != drawn)
            t = self.draw(p, True)
            if t < 0:
                out[0] = E_WALL
                return R_END
            drawn = t
            kong_flag = 1
        out[0] = self.do_discard(p)
        return R_DISCARD

    cdef void add_meld(self, int p, int kind, int tile, int concealed, int frm) noexcept:
        cdef FSeat* s = &self.seats[p]
        cdef FMeld* m = &s.melds[s.n_melds]
        cdef int k
        s.s13_ok = 0
        self.interrupted = 1
        m.kind = kind
        m.tile = tile
        m.concealed = concealed
        m.frm = frm
        m.n = 4 if kind == 2 else 3
        m.added = 0
        s.n_melds += 1
        if kind == 0:
            for k in range(tile, tile + 3):
                s.meldall[k] += 1
                if not concealed:
                    s.exposed[k] += 1
                    self.visible[k] += 1
        else:
            s.meldall[tile] += m.n
            if not concealed:
                s.exposed[tile] += m.n
                self.visible[tile] += m.n

    cdef int rob(self, int p, int k, int* out) except -2:
        """Robbing an added kong: -1 nobody robs, else an outcome code (out set)."""
        cdef int a, b
        cdef int code = self.claim_round(p, k, 1, &a, &b)
        if code == R_ROBBED_NONE:
            return -1
        out[0] = a
        return code

    cdef int claim_round(self, int p, int tile, bint robbing, int* ra, int* rb) except -1:
        cdef int i, q, nask = 0, j, held, a, x, y, nw, code
        cdef int askq[4]
        cdef int nopt[4]
        cdef int ok[4][MAXOPT]
        cdef int ot[4][MAXOPT]
        cdef int choice[4]
        cdef int winners[4]
        cdef bint last = not self.can_draw()
        cdef FSeat* sq
        cdef FSeat* sp
        wins = None             # WinChecks by seat, made only when someone may win
        for i in range(1, self.n):
            q = (p + i) % self.n
            sq = &self.seats[q]
            if sq.out:
                continue
            j = 0
            res = None
            if not (self.pass_lock and (sq.pass_all or (self.pass_lock == 1 and
                                                         (sq.passed >> tile) & 1))):
                res = self.try_win(q, tile, False, False, robbing, last and not robbing)
            if res is not None and res.valid:
                ok[nask][j] = O_WIN
                ot[nask][j] = 0
                j += 1
                if wins is None:
                    wins = [None] * self.n
                wins[q] = res
            if not robbing and not last and not sq.locked and tile != self.jk and \
                    not (sq.void >= 0 and tile < 27 and tile // 9 == sq.void):
                held = sq.phys[tile]
                if self.ekong and held >= 3 and self.can_draw():
                    ok[nask][j] = O_KONG
                    ot[nask][j] = 0
                    j += 1
                if self.pung and held >= 2:
                    ok[nask][j] = O_PUNG
                    ot[nask][j] = 0
                    j += 1
                if self.chow and i == 1 and tile < 27:
                    for a in range(tile - 2, tile + 1):
                        if a < 0 or a // 9 != tile // 9 or a % 9 > 6:
                            continue
                        y = 1
                        for x in range(a, a + 3):
                            if x != tile and (sq.phys[x] == 0 or x == self.jk):
                                y = 0
                        if y:
                            ok[nask][j] = O_CHOW
                            ot[nask][j] = a
                            j += 1
            if j:
                askq[nask] = q
                nopt[nask] = j
                nask += 1
        if nask == 0:
            return R_ROBBED_NONE if robbing else R_NONE
        for i in range(nask):
            choice[i] = self.bot_claim(askq[i], tile, nopt[i], ok[i], ot[i])
        nw = 0
        for i in range(nask):
            if choice[i] >= 0 and ok[i][choice[i]] == O_WIN:
                winners[nw] = askq[i]
                nw += 1
        if self.pass_lock:
            for i in range(nask):
                q = askq[i]
                if wins is not None and wins[q] is not None and \
                        not (choice[i] >= 0 and ok[i][choice[i]] == O_WIN):
                    self.seats[q].passed |= (<uint64_t>1) << tile
                    self.seats[q].pass_all = self.pass_lock == 2
        if nw:
            if not self.multiple:
                nw = 1
            for i in range(nw):
                self.record(winners[i], tile, wins[winners[i]], False, p, False, robbing)
            if self.pay_kongs and not robbing:
                self.bridge.transfer(p, [winners[i] for i in range(nw)], self.turns)
            sp = &self.seats[p]
            if robbing:
                for i in range(sp.n_melds):
                    if sp.melds[i].kind == 2 and sp.melds[i].tile == tile and \
                            not sp.melds[i].concealed:
                        sp.melds[i].kind = 1
                        sp.melds[i].n = 3
                        sp.melds[i].added = 0
                        break
                self.visible[tile] -= 1
                sp.exposed[tile] -= 1
                sp.meldall[tile] -= 1
                sp.kexp -= 1
            else:
                sp.n_disc -= 1
                self.visible[tile] -= 1
            sq = &self.seats[winners[0]]
            if sq.n_won >= MAXWON:
                raise RuntimeError("compiled loop: too many wins for one seat")
            sq.won[sq.n_won] = tile
            sq.n_won += 1
            code = self.after_win(winners, nw, tile, False, p, ra)
            return code
        if robbing:
            return R_ROBBED_NONE
        for i in range(nask):
            if choice[i] >= 0 and (ok[i][choice[i]] == O_KONG or ok[i][choice[i]] == O_PUNG):
                ra[0] = askq[i]
                self.optkind_last = ok[i][choice[i]]
                self.optarg_last = ot[i][choice[i]]
                return R_MELD
        for i in range(nask):
            if choice[i] >= 0 and ok[i][choice[i]] == O_CHOW:
                ra[0] = askq[i]
                self.optkind_last = O_CHOW
                self.optarg_last = ot[i][choice[i]]
                return R_MELD
        return R_NONE

    cdef list outs(self):
        return [bool(self.seats[i].out) for i in range(self.n)]

    cdef void make_meld(self, int p, int tile, int q, int unused) except *:
        cdef FSeat* sq = &self.seats[q]
        cdef FSeat* sp = &self.seats[p]
        cdef int a, x
        sp.n_disc -= 1
        self.visible[tile] -= 1
        if self.optkind_last == O_KONG:
            sq.phys[tile] -= 3
            self.add_meld(q, 2, tile, 0, p)
            sq.kexp += 1
            if self.pay_kongs:
                self.bridge.kong(q, "exposed", self.outs(), self.turns, p, False)
        elif self.optkind_last == O_PUNG:
            sq.phys[tile] -= 2
            self.add_meld(q, 1, tile, 0, p)
        else:
            a = self.optarg_last
            for x in range(a, a + 3):
                if x != tile:
                    sq.phys[x] -= 1
            self.add_meld(q, 0, a, 0, p)
        sq.calls += 1
        if self.fd_seat[tile] == p and self.fd_turn[tile] == self.turns:
            self.fd_claim[tile] = q

    cdef int after_win_self(self, int p, int tile, int* out) except -1:
        cdef int w[1]
        w[0] = p
        return self.after_win(w, 1, tile, True, -1, out)

    cdef int after_win(self, int* winners, int nw, int tile, bint self_draw, int frm,
                       int* out) except -1:
        cdef int i, q, last, d, best_d
        cdef FSeat* s
        self.interrupted = 1
        if not self.blood:
            out[0] = E_WIN
            return R_END
        for i in range(nw):
            s = &self.seats[winners[i]]
            if self_draw:
                s.phys[tile] -= 1
                s.s13_ok = 0
                if s.n_won >= MAXWON:
                    raise RuntimeError("compiled loop: too many wins for one seat")
                s.won[s.n_won] = tile
                s.n_won += 1
            if self.blood == 1:
                s.out = 1
            else:
                s.locked = 1
            s.drawn = -1
        if self.blood == 1:
            q = 0
            for i in range(self.n):
                if not self.seats[i].out:
                    q += 1
            if q <= 1:
                out[0] = E_BLOOD
                return R_END
        if self_draw:
            last = winners[0]
        else:
            last = winners[0]
            best_d = -1
            for i in range(nw):
                d = (winners[i] - frm + self.n) % self.n
                if d > best_d:
                    best_d = d
                    last = winners[i]
        out[0] = self.next_active(last)
        return R_NEXT

    cdef void record(self, int p, int tile, object res, bint self_drawn, int discarder,
                     bint kong, bint robbing) except *:
        outs = [bool(self.seats[q].out) for q in range(self.n)]
        self.bridge.record(p, tile, res, self_drawn, None if discarder < 0 else discarder,
                           kong, robbing, outs)

    # ------------------------------------------------------------ results
    def seat_info(self):
        """Per seat: (exposed kongs, concealed kongs, calls, flowers, discards, won
        tiles, concealed counts, melds [(kind, tile, concealed, n tiles, from seat or -1,
        added)])."""
        out = []
        cdef int p, i
        cdef FSeat* s
        for p in range(self.n):
            s = &self.seats[p]
            out.append((s.kexp, s.kcon, s.calls, [s.flowers[i] for i in range(s.n_flowers)],
                        [s.disc[i] for i in range(s.n_disc)], [s.won[i] for i in range(s.n_won)],
                        [s.phys[i] for i in range(34)],
                        [(s.melds[i].kind, s.melds[i].tile, s.melds[i].concealed, s.melds[i].n,
                          s.melds[i].frm, s.melds[i].added) for i in range(s.n_melds)]))
        return out

    def first_discards(self):
        """``{kind: (seat, claimed by or None)}``: the first discard of each kind and the
        seat that claimed that very tile (as the Python loop's ``first_discards``)."""
        cdef int k
        return {k: (self.fd_seat[k], None if self.fd_claim[k] < 0 else self.fd_claim[k])
                for k in range(34) if self.fd_seat[k] >= 0}

    def tallies(self):
        """Per seat: (exposed kongs, concealed kongs, calls, flowers)."""
        cdef int p
        return [(self.seats[p].kexp, self.seats[p].kcon, self.seats[p].calls,
                 self.seats[p].n_flowers) for p in range(self.n)]

    def aside_tiles(self):
        """Tiles set aside at the deal: the turned indicator and flowers turned with it."""
        return [self.aside[i] for i in range(self.n_aside)]

    def wall_rest(self):
        return [self.wall[i] for i in range(self.head, self.tail + 1)]

    @property
    def wall_left(self):
        return self.tail - self.head + 1


def knitted_lower_bound(const uint8_t[::1] counts, int mask, int jokers=0):
    """:func:`knit_lb` for tests: a lower bound of the knitted forms' shanten."""
    return knit_lb(&counts[0], mask, jokers)

# cython: language_level=3
"""Win / tenpai probability kernels: a hand-state graph, backward induction over it,
an exact true-wall expectimax for short horizons, and Monte Carlo play of a policy
on real walls.

Private module: the public, validating API and the model's description live in
``majiang.probability``.  Everything here works on 34-kind uint8 count vectors, a
joker count and the shape options of the shanten core (``Opts`` of efficiency.pxd:
forms, seven-pairs quads, caps, a pair mask, void suits, jokers and the fifth-copy
rule).  Rulesets reach it only as a Python callable
``pred(h14, win_kind, n_jokers) -> bool`` evaluated on complete hands (cached per
(hand, win kind, jokers)); ``win_kind`` 34 means the drawn tile was a joker.

Jokers
------
The wall holds ``joker_unseen`` jokers, drawn as a 35th kind (index 34).  A state
is the real-tile count vector plus the number of jokers held; shanten counts the
jokers through ``Opts.jokers``.  With ``joker_discard=False`` a joker is never
discarded (a drawn joker must be kept and a real tile thrown instead).

Graph (wall model S1 of majiang.probability)
--------------------------------------------
A state is a 3n+1 concealed hand, its jokers and a budget of *change moves* left.
*Restricted* expansion (``unrestricted=False``) of a state of shanten ``s``, for
every drawable kind ``k``:

* ``h + k`` complete and the predicate says win  -> a *win* edge;
* ``h + k`` has shanten ``s14 < s``: an *advance* edge whose successors are the
  discards keeping the new shanten;
* a drawn joker that does not lower the shanten: its successors keep ``s`` (keeping
  a joker costs no change move);
* otherwise (including a complete hand that is not a win), when the budget is
  positive: a *change* edge whose successors keep ``s``, budget lowered by one.

*Unrestricted* expansion (``unrestricted=True``): after any non-winning draw every
discard is a successor (shanten may rise).  The graph is then expanded breadth
first by draw depth inside :meth:`Graph.solve`, and a state first reached at depth
``t`` is expanded only if it can still succeed: ``s + 1 <= T - t`` for the win,
``s <= T - t`` for tenpai (adding a tile lowers shanten by at most one, so every
other state has value 0 from then on).  Successors that are dead one draw later
are left out.

Throwing the drawn tile back (the hand stays) is always allowed, except a joker
under ``joker_discard=False``.

Status codes of the Python-facing calls: 0 ok, -1 out of memory, -2 more than
``max_states`` states, -3 the predicate raised, -4 interrupted by a signal.  For
-3 and -4 the exception (e.g. ``KeyboardInterrupt``) is kept in
``Graph.pred_error`` / ``_Pred.error``; the caller must re-raise a
``BaseException`` that is not an ``Exception`` as itself.
"""
from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport malloc, realloc, free, calloc
from libc.string cimport memset, memcpy
from cpython.exc cimport PyErr_CheckSignals

cimport cython
import numpy as np
cimport numpy as cnp

from .efficiency cimport (Opts, make_opts_c, shanten_opts_c, shanten_c, pair_all,
                          ensure_tables, ensure_pair_tables)

cnp.import_array()

cdef enum:
    NK = 34
    JK = 34              # the joker "kind" in walls and edges
    NKJ = 35
    OBJ_WIN = 0
    OBJ_TENPAI = 1
    MAXT = 10            # longest true-wall horizon (drawn kinds packed in 60 bits)
    SIGNAL_EVERY = 2048  # states between two signal checks


# ---------------------------------------------------------------------------
# An open-addressing hash map from a packed key (three uint64) to an int32
# ---------------------------------------------------------------------------

cdef struct Slot:
    uint64_t lo
    uint64_t hi
    uint64_t x
    int32_t val
    int32_t used


cdef struct Map:
    Slot* slots
    int64_t cap        # power of two
    int64_t n


cdef inline uint64_t mix(uint64_t lo, uint64_t hi, uint64_t x) noexcept nogil:
    cdef uint64_t z = lo * <uint64_t>0x9E3779B97F4A7C15ULL ^ (hi + <uint64_t>0x632BE59BD9B4E019ULL)
    z ^= x * <uint64_t>0xD6E8FEB86659FD93ULL
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef int map_init(Map* m, int64_t cap) noexcept nogil:
    m.cap = cap
    m.n = 0
    m.slots = <Slot*>calloc(cap, sizeof(Slot))
    return 0 if m.slots != NULL else -1


cdef void map_free(Map* m) noexcept nogil:
    free(m.slots)
    m.slots = NULL


cdef int map_grow(Map* m) noexcept nogil:
    cdef Slot* old = m.slots
    cdef int64_t oldcap = m.cap, i, j, mask
    cdef Slot* ns = <Slot*>calloc(oldcap * 2, sizeof(Slot))
    if ns == NULL:
        return -1
    mask = oldcap * 2 - 1
    for i in range(oldcap):
        if old[i].used:
            j = <int64_t>(mix(old[i].lo, old[i].hi, old[i].x) & <uint64_t>mask)
            while ns[j].used:
                j = (j + 1) & mask
            ns[j] = old[i]
    m.slots = ns
    m.cap = oldcap * 2
    free(old)
    return 0


cdef inline int32_t map_get(Map* m, uint64_t lo, uint64_t hi, uint64_t x) noexcept nogil:
    """Value for the key, or -1."""
    cdef int64_t mask = m.cap - 1
    cdef int64_t j = <int64_t>(mix(lo, hi, x) & <uint64_t>mask)
    while m.slots[j].used:
        if m.slots[j].lo == lo and m.slots[j].hi == hi and m.slots[j].x == x:
            return m.slots[j].val
        j = (j + 1) & mask
    return -1


cdef inline int map_put(Map* m, uint64_t lo, uint64_t hi, uint64_t x, int32_t val) noexcept nogil:
    """Insert (the key must be absent). Returns -1 on allocation failure."""
    cdef int64_t mask, j
    if (m.n + 1) * 2 > m.cap:
        if map_grow(m) < 0:
            return -1
    mask = m.cap - 1
    j = <int64_t>(mix(lo, hi, x) & <uint64_t>mask)
    while m.slots[j].used:
        j = (j + 1) & mask
    m.slots[j].lo = lo
    m.slots[j].hi = hi
    m.slots[j].x = x
    m.slots[j].val = val
    m.slots[j].used = 1
    m.n += 1
    return 0


cdef inline void pack(const uint8_t* h, uint64_t extra, uint64_t* lo, uint64_t* hi) noexcept nogil:
    """Counts 0..7 of the 34 kinds in 102 bits, ``extra`` (< 2**24) above them."""
    cdef uint64_t a = 0, b = 0
    cdef int i
    for i in range(21):
        a |= (<uint64_t>h[i]) << (3 * i)
    for i in range(21, NK):
        b |= (<uint64_t>h[i]) << (3 * (i - 21))
    lo[0] = a
    hi[0] = b | (extra << 40)


cdef inline Opts with_jokers(const Opts* base, int j) noexcept nogil:
    cdef Opts o = base[0]
    o.jokers = j
    return o


cdef inline int shj(const Opts* base, const uint8_t* h, int j) noexcept nogil:
    """Shanten of ``h`` plus ``j`` jokers under the shape options ``base``."""
    cdef Opts o = base[0]
    o.jokers = j
    return shanten_opts_c(h, &o)


cdef Opts build_opts(int mask, bint quads, const uint8_t* caps, bint fifth, object pair_mask,
                     int void_suits) except *:
    cdef uint64_t pm = pair_all() if pair_mask is None else <uint64_t>int(pair_mask)
    ensure_tables()
    if (pm & pair_all()) != pair_all():
        ensure_pair_tables(pm)       # the table route for a restricted pair (else ~50x slower)
    return make_opts_c(mask, quads, caps, 0, fifth, pm, void_suits)


# ---------------------------------------------------------------------------
# Win predicate with a cache (the callable is Python; called with the GIL)
# ---------------------------------------------------------------------------

def _arity(fn):
    """2 for a legacy ``pred(h14, win_kind)``, else 3."""
    import inspect
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return 3
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        return 3
    n = sum(1 for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
            and p.default is p.empty)
    return 2 if n == 2 else 3


cdef class _Pred:
    """Caches ``pred(h14, win_kind, n_jokers) -> bool`` on complete hands; None =
    always win.  ``h14`` is a fresh uint8 (34,) array of the real tiles, ``win_kind``
    0..33 or 34 (a joker was drawn), ``n_jokers`` the jokers held (the drawn one
    included).  A callable taking exactly two positional parameters is called as
    ``pred(h14, win_kind)`` (legacy).

    The first exception raised by the callable (or a signal caught by
    :meth:`check_signals`) is kept in ``error``; from then on every query fails,
    so all searches sharing this object stop."""
    cdef object fn
    cdef int nargs
    cdef Map cache
    cdef public int64_t calls
    cdef public object error
    cdef int failed

    def __cinit__(self, fn):
        self.fn = fn
        self.nargs = 3 if fn is None else _arity(fn)
        self.calls = 0
        self.error = None
        self.failed = 0
        if map_init(&self.cache, 1024) < 0:
            raise MemoryError()

    def __dealloc__(self):
        map_free(&self.cache)

    cdef int is_win(self, const uint8_t* h14, int k, int j) noexcept nogil:
        """1 win, 0 not a win, -1 the callable raised (error kept in .error)."""
        cdef uint64_t lo, hi
        cdef int32_t v
        if self.failed:
            return -1
        if self.fn is None:
            return 1
        pack(h14, <uint64_t>(k + 1) | (<uint64_t>j << 8), &lo, &hi)
        v = map_get(&self.cache, lo, hi, 0)
        if v >= 0:
            return v
        with gil:
            v = self._call(h14, k, j)
        if v < 0:
            return -1
        map_put(&self.cache, lo, hi, 0, v)
        return v

    cdef int _call(self, const uint8_t* h14, int k, int j) noexcept:
        cdef cnp.ndarray arr = np.empty(NK, dtype=np.uint8)
        memcpy(cnp.PyArray_DATA(arr), h14, NK)
        self.calls += 1
        try:
            if self.nargs == 2:
                return 1 if self.fn(arr, k) else 0
            return 1 if self.fn(arr, k, j) else 0
        except BaseException as exc:       # reported by the caller (re-raised there)
            if self.error is None:
                self.error = exc
            self.failed = 1
            return -1

    cdef int check_signals(self) noexcept with gil:
        """0, or -1 when a signal handler raised (kept in .error; e.g. Ctrl-C)."""
        if self.failed:
            return -1
        try:
            PyErr_CheckSignals()
        except BaseException as exc:
            if self.error is None:
                self.error = exc
            self.failed = 1
            return -1
        return 0


# ---------------------------------------------------------------------------
# The graph
# ---------------------------------------------------------------------------

cdef struct Edge:
    int32_t kind         # 0..33, 34 = joker
    int8_t win           # 1: the draw wins
    int8_t useful        # 1: drawn with live / (U - t); 0: shares what is left (S1)
    int8_t decl          # 1: throwing the drawn tile back is allowed
    int8_t change        # 1: its successors cost a change move
    int32_t soff         # successors: succ[soff : soff + ns]
    int32_t ns


cdef class Graph:
    """Hand-state graph shared by the roots (discards) of one position.

    Parameters
    ----------
    u0 : uint8 (34,)
        Unseen real copies per kind (the wall model).
    caps : uint8 (34,) or None
        Copies available to the concealed hand (tile set minus melds); None = 4.
    mask, quads : int, bool
        Winning forms and the seven-pairs quad rule, as the shanten core.
    budget : int
        Change moves per path (restricted search; ignored when unrestricted).
    max_states : int
        Cap on the number of states.
    pred : callable, _Pred or None
        ``pred(h14, win_kind, n_jokers) -> bool`` on complete hands; None = any
        complete hand (under the shape options) wins.
    pair_mask : int or None
        Bit ``k`` set: kind ``k`` may be the pair of a regular hand (None = any).
    void_suits : int
        Bits 1/2/4 (man/pin/sou): a complete hand lacks one of these suits.
    joker_unseen : int
        Jokers in the wall (drawn as kind 34).
    joker_discard : bool
        Whether a joker may be discarded.
    fifth : bool
        A joker may stand for a fifth copy.
    unrestricted : bool
        Any discard after any draw (see the module docstring); states are expanded
        per solve, breadth first with pruning by shanten.
    """
    cdef uint8_t u0[NKJ]
    cdef uint8_t capsbuf[NK]
    cdef const uint8_t* caps
    cdef Opts o
    cdef public int budget
    cdef public int64_t max_states
    cdef public bint unrestricted
    cdef public bint joker_discard
    cdef _Pred pred
    cdef Map index
    # states
    cdef uint8_t* hands
    cdef int8_t* shan
    cdef int8_t* bud
    cdef int8_t* jok
    cdef int8_t* xslack       # unrestricted: successor shanten bound used when expanded
    cdef int32_t* eoff
    cdef int32_t* ne          # -1 = not expanded yet
    cdef public int64_t n_states
    cdef int64_t cap_states
    # edges and successors
    cdef Edge* edges
    cdef int64_t n_edges, cap_edges
    cdef int32_t* succ
    cdef int64_t n_succ, cap_succ
    cdef public int64_t shanten_calls
    cdef int64_t n_expanded
    cdef public object last_win_mass     # float64 (n_edges,): win probability per edge (last solve)

    def __cinit__(self, const uint8_t[::1] u0, object caps, int mask, bint quads, int budget,
                  int64_t max_states, object pred, *, object pair_mask=None, int void_suits=0,
                  int joker_unseen=0, bint joker_discard=True, bint fifth=False,
                  bint unrestricted=False):
        cdef int i
        for i in range(NK):
            self.u0[i] = u0[i]
        self.u0[JK] = joker_unseen
        if caps is None:
            self.caps = NULL
        else:
            for i in range(NK):
                self.capsbuf[i] = caps[i]
            self.caps = self.capsbuf
        self.o = build_opts(mask, quads, self.caps, fifth, pair_mask, void_suits)
        self.budget = 0 if unrestricted else budget
        self.max_states = max_states
        self.unrestricted = unrestricted
        self.joker_discard = joker_discard
        self.pred = pred if isinstance(pred, _Pred) else _Pred(pred)
        self.n_states = 0
        self.n_expanded = 0
        self.cap_states = 256
        self.hands = <uint8_t*>malloc(self.cap_states * NK)
        self.shan = <int8_t*>malloc(self.cap_states)
        self.bud = <int8_t*>malloc(self.cap_states)
        self.jok = <int8_t*>malloc(self.cap_states)
        self.xslack = <int8_t*>malloc(self.cap_states)
        self.eoff = <int32_t*>malloc(self.cap_states * sizeof(int32_t))
        self.ne = <int32_t*>malloc(self.cap_states * sizeof(int32_t))
        self.n_edges = 0
        self.cap_edges = 1024
        self.edges = <Edge*>malloc(self.cap_edges * sizeof(Edge))
        self.n_succ = 0
        self.cap_succ = 4096
        self.succ = <int32_t*>malloc(self.cap_succ * sizeof(int32_t))
        self.shanten_calls = 0
        if (self.hands == NULL or self.shan == NULL or self.bud == NULL or self.jok == NULL
                or self.xslack == NULL or self.eoff == NULL
                or self.ne == NULL or self.edges == NULL or self.succ == NULL
                or map_init(&self.index, 1024) < 0):
            raise MemoryError("cannot allocate the hand-state graph")

    def __dealloc__(self):
        free(self.hands); free(self.shan); free(self.bud); free(self.jok); free(self.xslack)
        free(self.eoff); free(self.ne)
        free(self.edges); free(self.succ)
        map_free(&self.index)

    @property
    def pred_error(self):
        """The exception raised by the predicate or a signal handler (or None)."""
        return self.pred.error

    # -- storage -----------------------------------------------------------
    cdef int grow_states(self) noexcept nogil:
        cdef int64_t c = self.cap_states * 2
        cdef void* p
        p = realloc(self.hands, c * NK)
        if p == NULL: return -1
        self.hands = <uint8_t*>p
        p = realloc(self.shan, c)
        if p == NULL: return -1
        self.shan = <int8_t*>p
        p = realloc(self.bud, c)
        if p == NULL: return -1
        self.bud = <int8_t*>p
        p = realloc(self.jok, c)
        if p == NULL: return -1
        self.jok = <int8_t*>p
        p = realloc(self.xslack, c)
        if p == NULL: return -1
        self.xslack = <int8_t*>p
        p = realloc(self.eoff, c * sizeof(int32_t))
        if p == NULL: return -1
        self.eoff = <int32_t*>p
        p = realloc(self.ne, c * sizeof(int32_t))
        if p == NULL: return -1
        self.ne = <int32_t*>p
        self.cap_states = c
        return 0

    cdef inline int sh(self, const uint8_t* h, int j) noexcept nogil:
        self.shanten_calls += 1
        return shj(&self.o, h, j)

    cdef int32_t state_id(self, const uint8_t* h, int b, int j, int s) noexcept nogil:
        """Id of (h, b, j), created if new (``s`` its shanten, or -100 to compute).
        -1: allocation failure, -2: too many states."""
        cdef uint64_t lo, hi
        cdef int32_t v
        pack(h, <uint64_t>b | (<uint64_t>j << 8), &lo, &hi)
        v = map_get(&self.index, lo, hi, 0)
        if v >= 0:
            return v
        if self.n_states >= self.max_states:
            return -2
        if self.n_states >= self.cap_states and self.grow_states() < 0:
            return -1
        v = <int32_t>self.n_states
        memcpy(self.hands + <int64_t>v * NK, h, NK)
        if s == -100:
            s = self.sh(h, j)
        if s > 120:
            s = 120
        self.shan[v] = <int8_t>s
        self.bud[v] = <int8_t>b
        self.jok[v] = <int8_t>j
        self.xslack[v] = -128
        self.ne[v] = -1
        self.eoff[v] = 0
        if map_put(&self.index, lo, hi, 0, v) < 0:
            return -1
        self.n_states += 1
        return v

    cdef int push_edge(self, int kind, int win, int useful, int decl, int change) noexcept nogil:
        cdef void* p
        if self.n_edges >= self.cap_edges:
            p = realloc(self.edges, self.cap_edges * 2 * sizeof(Edge))
            if p == NULL: return -1
            self.edges = <Edge*>p
            self.cap_edges *= 2
        self.edges[self.n_edges].kind = kind
        self.edges[self.n_edges].win = win
        self.edges[self.n_edges].useful = useful
        self.edges[self.n_edges].decl = decl
        self.edges[self.n_edges].change = change
        self.edges[self.n_edges].soff = <int32_t>self.n_succ
        self.edges[self.n_edges].ns = 0
        self.n_edges += 1
        return 0

    cdef int push_succ(self, int32_t j) noexcept nogil:
        cdef void* p
        if self.n_succ >= self.cap_succ:
            p = realloc(self.succ, self.cap_succ * 2 * sizeof(int32_t))
            if p == NULL: return -1
            self.succ = <int32_t*>p
            self.cap_succ *= 2
        self.succ[self.n_succ] = j
        self.n_succ += 1
        self.edges[self.n_edges - 1].ns += 1
        return 0

    cdef int min_discard(self, uint8_t* h, int jj, int k) noexcept nogil:
        """Least shanten over the discards of the 3n+2 hand (h, jj) other than the drawn
        tile ``k``."""
        cdef int d, sd, best = 1000
        for d in range(NK):
            if h[d] == 0 or d == k:
                continue
            h[d] -= 1
            sd = self.sh(h, jj)
            h[d] += 1
            if sd < best:
                best = sd
        if jj > 0 and self.joker_discard and k != JK:
            sd = self.sh(h, jj - 1)
            if sd < best:
                best = sd
        return best

    cdef int add_succs(self, uint8_t* h, int jj, int k, int lo_s, int hi_s, int b) noexcept nogil:
        """Append to the last edge every discard of (h, jj) except the drawn tile ``k``
        whose shanten lies in [lo_s, hi_s] (state budget ``b``).  0 ok, or an error code."""
        cdef int d, sd
        cdef int32_t j
        for d in range(NK):
            if h[d] == 0 or d == k:
                continue
            h[d] -= 1
            sd = self.sh(h, jj)
            if lo_s <= sd <= hi_s:
                j = self.state_id(h, b, jj, sd)
                if j < 0:
                    h[d] += 1
                    return j
                if self.push_succ(j) < 0:
                    h[d] += 1
                    return -1
            h[d] += 1
        if jj > 0 and self.joker_discard and k != JK:
            sd = self.sh(h, jj - 1)
            if lo_s <= sd <= hi_s:
                j = self.state_id(h, b, jj - 1, sd)
                if j < 0:
                    return j
                if self.push_succ(j) < 0:
                    return -1
        return 0

    # -- expansion ---------------------------------------------------------
    cdef int expand(self, int32_t i, int slack) noexcept nogil:
        """Compute the edges of state i (``slack``: the largest successor shanten kept
        in the unrestricted mode).  0 ok, -1 memory, -2 too many states, -3 predicate
        error."""
        cdef uint8_t h[NK]
        cdef int s, b, j, k, jj, s14, target, w, cap, rc, decl, m
        cdef int64_t first_edge = self.n_edges
        memcpy(h, self.hands + <int64_t>i * NK, NK)
        s = self.shan[i]
        b = self.bud[i]
        j = self.jok[i]
        for k in range(NKJ):
            if self.u0[k] == 0:
                continue
            if k < NK:
                cap = self.caps[k] if self.caps != NULL else 4
                if h[k] >= cap:
                    continue
                h[k] += 1
                jj = j
            else:
                jj = j + 1
            s14 = self.sh(h, jj)
            if s14 == -1:
                w = self.pred.is_win(h, k, jj)
                if w < 0:
                    if k < NK:
                        h[k] -= 1
                    return -3
                if w == 1:
                    if self.push_edge(k, 1, 1, 1, 0) < 0:
                        return -1
                    if k < NK:
                        h[k] -= 1
                    continue
                s14 = s           # complete but not a win: no advance
            decl = 1 if (k < NK or self.joker_discard) else 0
            rc = 0
            if self.unrestricted:
                if self.push_edge(k, 0, 1 if s14 < s else 0, decl, 0) < 0:
                    return -1
                if s14 <= slack:      # every discard leaves shanten >= s14
                    rc = self.add_succs(h, jj, k, -1000, slack, 0)
            elif k == JK:
                m = self.min_discard(h, jj, k)
                target = m if m >= 0 else 0
                if self.push_edge(k, 0, 1 if m < s else 0, decl, 0) < 0:
                    return -1
                rc = self.add_succs(h, jj, k, target, target, b)
            elif s14 < s:
                target = s14 if s14 >= 0 else 0
                if self.push_edge(k, 0, 1, 1, 0) < 0:
                    return -1
                rc = self.add_succs(h, jj, k, target, target, b)
            elif b > 0:
                if self.push_edge(k, 0, 0, 1, 1) < 0:
                    return -1
                rc = self.add_succs(h, jj, k, s, s, b - 1)
            else:
                h[k] -= 1
                continue
            # here an edge was pushed for this draw (the last one)
            if k < NK:
                h[k] -= 1
            if rc < 0:
                return rc
            if self.edges[self.n_edges - 1].ns == 0 and self.edges[self.n_edges - 1].decl:
                self.n_edges -= 1     # nothing but throwing it back: no edge needed
        self.eoff[i] = <int32_t>first_edge
        self.ne[i] = <int32_t>(self.n_edges - first_edge)
        self.n_expanded += 1
        if self.n_expanded % SIGNAL_EVERY == 0:
            if self.pred.check_signals() < 0:
                return -4
        return 0

    cdef int reach(self, int32_t root, int T, int objective, int32_t** out, int64_t* nout,
                   uint8_t** alive_out) noexcept nogil:
        """Breadth-first list of the states reachable from root (expanding them).
        ``alive[i]`` (indexed by state id) is 1 for the states expanded for this solve."""
        cdef int64_t cap = 256, head = 0, n = 1, e, q
        cdef int32_t* lst = <int32_t*>malloc(cap * sizeof(int32_t))
        cdef int32_t* dep = <int32_t*>malloc(cap * sizeof(int32_t))
        cdef uint8_t* seen = NULL
        cdef uint8_t* alive = NULL
        cdef int64_t seen_cap = 0
        cdef int32_t i, j
        cdef int rc, t, need, sl
        cdef void* p
        if lst == NULL or dep == NULL:
            free(lst); free(dep)
            return -1
        lst[0] = root
        dep[0] = 0
        seen_cap = self.n_states + 1024
        seen = <uint8_t*>calloc(seen_cap, 1)
        alive = <uint8_t*>calloc(seen_cap, 1)
        if seen == NULL or alive == NULL:
            free(lst); free(dep); free(seen); free(alive)
            return -1
        seen[root] = 1
        while head < n:
            i = lst[head]
            t = dep[head]
            head += 1
            if self.unrestricted:
                if objective == OBJ_TENPAI and self.shan[i] <= 0:
                    continue
                need = self.shan[i] + (1 if objective == OBJ_WIN else 0)
                if t >= T or need > T - t:
                    continue
                sl = T - t - 1 - (1 if objective == OBJ_WIN else 0)
                if self.ne[i] < 0 or self.xslack[i] < sl:
                    rc = self.expand(i, sl)
                    if rc < 0:
                        free(lst); free(dep); free(seen); free(alive)
                        return rc
                    self.xslack[i] = <int8_t>sl
            elif self.ne[i] < 0:
                rc = self.expand(i, 127)
                if rc < 0:
                    free(lst); free(dep); free(seen); free(alive)
                    return rc
            alive[i] = 1
            if self.n_states > seen_cap:
                p = realloc(seen, self.n_states * 2)
                if p == NULL:
                    free(lst); free(dep); free(seen); free(alive)
                    return -1
                seen = <uint8_t*>p
                memset(seen + seen_cap, 0, self.n_states * 2 - seen_cap)
                p = realloc(alive, self.n_states * 2)
                if p == NULL:
                    free(lst); free(dep); free(seen); free(alive)
                    return -1
                alive = <uint8_t*>p
                memset(alive + seen_cap, 0, self.n_states * 2 - seen_cap)
                seen_cap = self.n_states * 2
            for e in range(self.eoff[i], self.eoff[i] + self.ne[i]):
                for q in range(self.edges[e].soff, self.edges[e].soff + self.edges[e].ns):
                    j = self.succ[q]
                    if not seen[j]:
                        seen[j] = 1
                        if n >= cap:
                            p = realloc(lst, cap * 2 * sizeof(int32_t))
                            if p == NULL:
                                free(lst); free(dep); free(seen); free(alive)
                                return -1
                            lst = <int32_t*>p
                            p = realloc(dep, cap * 2 * sizeof(int32_t))
                            if p == NULL:
                                free(lst); free(dep); free(seen); free(alive)
                                return -1
                            dep = <int32_t*>p
                            cap *= 2
                        lst[n] = j
                        dep[n] = t + 1
                        n += 1
        free(seen)
        free(dep)
        out[0] = lst
        nout[0] = n
        alive_out[0] = alive
        return 0

    # -- Python-facing -----------------------------------------------------
    def add_root(self, const uint8_t[::1] h0, int jokers0=0):
        """State id of a 3n+1 hand (real tiles ``h0`` plus ``jokers0`` jokers) with the
        full budget (shanten computed here).  Raises MemoryError past ``max_states``."""
        cdef int32_t v
        with nogil:
            v = self.state_id(&h0[0], self.budget, jokers0, -100)
        if v < 0:
            raise MemoryError("too many states") if v == -2 else MemoryError()
        return v

    def shanten_of(self, int32_t i):
        return self.shan[i]

    def jokers_of(self, int32_t i):
        return self.jok[i]

    def hand_of(self, int32_t i):
        a = np.empty(NK, dtype=np.uint8)
        cdef uint8_t[::1] av = a
        memcpy(&av[0], self.hands + <int64_t>i * NK, NK)
        return a

    cdef double edge_probs(self, int32_t i, const int32_t* live, int t, int U,
                           int32_t lall_i, double* pe) noexcept nogil:
        """Probability of drawing along each edge of state ``i`` at draw ``t + 1``,
        into ``pe[e - eoff[i]]``; returns their sum.  Winning and shanten-lowering
        draws are drawn with ``live / (U - t)``; the others share what is left in
        proportion to their live copies (the wall model S1 of majiang.probability)."""
        cdef int64_t e, e0 = self.eoff[i]
        cdef double esum = 0.0, den, rest, p, total = 0.0
        for e in range(e0, e0 + self.ne[i]):
            if live[e] > 0 and self.edges[e].useful:
                esum += live[e]
        den = U - t
        if esum > den:
            den = esum
        rest = lall_i - esum
        for e in range(e0, e0 + self.ne[i]):
            p = 0.0
            if live[e] > 0:
                if not self.edges[e].useful:
                    p = (1.0 - esum / den) * live[e] / rest if rest > 0 else 0.0
                else:
                    p = live[e] / den
            pe[e - e0] = p
            total += p
        return total

    def solve(self, int32_t root, const uint8_t[::1] h0, int T, int U, int objective):
        """Backward induction from ``root`` (start hand ``h0``; its jokers are the
        root's) over ``T`` draws from a wall of ``U`` unseen tiles (jokers included).

        Returns ``(status, V, curve)``: status 0 ok, -1 memory, -2 state limit, -3
        predicate error, -4 interrupted (see ``pred_error``); ``V`` float64
        (n_states, T + 1) values (0 for unreachable states; ``V[i, t]`` =
        probability of success with ``T - t`` draws left after ``t`` draws);
        ``curve`` float64 (T + 1,) the probability of success by draw t under the
        policy (``curve[T] == V[root, 0]``).
        """
        cdef int32_t* lst = NULL
        cdef uint8_t* alive = NULL
        cdef int64_t n = 0, a, e, q, n_e
        cdef int rc
        with nogil:
            rc = self.reach(root, T, objective, &lst, &n, &alive)
        if rc < 0:
            return rc, None, None
        cdef int64_t N = self.n_states
        V = np.zeros((N, T + 1), dtype=np.float64)
        curve = np.zeros(T + 1, dtype=np.float64)
        cdef double[:, ::1] Vv = V
        cdef double[::1] cv = curve
        cdef int32_t* live = <int32_t*>malloc((self.n_edges + 1) * sizeof(int32_t))
        wmass_arr = np.zeros(self.n_edges, dtype=np.float64)
        cdef double[::1] wmass = wmass_arr
        cdef double* mass = <double*>calloc(N, sizeof(double))
        cdef double* mnext = <double*>calloc(N, sizeof(double))
        cdef int32_t* lall = <int32_t*>malloc((n + 1) * sizeof(int32_t))
        cdef int64_t max_ne = 1
        for a in range(n):
            if alive[lst[a]] and self.ne[lst[a]] > max_ne:
                max_ne = self.ne[lst[a]]
        cdef double* pe = <double*>malloc(max_ne * sizeof(double))   # edge probabilities
        cdef int32_t i, j, k, x, t, best_j, j0 = self.jok[root]
        cdef uint8_t* h
        cdef double p, pedge, acc, best, v, m, won
        cdef int interrupted = 0
        if live == NULL or mass == NULL or mnext == NULL or lall == NULL or pe == NULL:
            free(live); free(mass); free(mnext); free(lst); free(lall); free(pe); free(alive)
            raise MemoryError()
        with nogil:
            for a in range(n):
                i = lst[a]
                if not alive[i]:
                    continue
                h = self.hands + <int64_t>i * NK
                x = 0
                for k in range(NK):
                    if h[k] > h0[k]:
                        x += h[k] - h0[k]
                if self.jok[i] > j0:
                    x += self.jok[i] - j0
                lall[a] = U - x
                for e in range(self.eoff[i], self.eoff[i] + self.ne[i]):
                    k = self.edges[e].kind
                    if k < NK:
                        x = h[k] - h0[k]
                    else:
                        x = self.jok[i] - j0
                    live[e] = self.u0[k] - (x if x > 0 else 0)
            # terminal values
            for a in range(n):
                i = lst[a]
                if objective == OBJ_TENPAI and self.shan[i] <= 0:
                    for t in range(T + 1):
                        Vv[i, t] = 1.0
            for t in range(T - 1, -1, -1):
                if n > SIGNAL_EVERY and self.pred.check_signals() < 0:
                    interrupted = 1
                    break
                for a in range(n):
                    i = lst[a]
                    if not alive[i] or (objective == OBJ_TENPAI and self.shan[i] <= 0):
                        continue
                    pedge = self.edge_probs(i, live, t, U, lall[a], pe)
                    acc = 0.0
                    for e in range(self.eoff[i], self.eoff[i] + self.ne[i]):
                        p = pe[e - self.eoff[i]]
                        if p == 0.0:
                            continue
                        if self.edges[e].win:
                            acc += p
                        else:
                            best = Vv[i, t + 1] if self.edges[e].decl else 0.0
                            for q in range(self.edges[e].soff, self.edges[e].soff + self.edges[e].ns):
                                v = Vv[self.succ[q], t + 1]
                                if v > best:
                                    best = v
                            acc += p * best
                    acc += (1.0 - pedge) * Vv[i, t + 1]
                    Vv[i, t] = acc
            # forward pass under the policy
            mass[root] = 1.0
            won = 0.0
            if interrupted:
                pass
            elif objective == OBJ_TENPAI and self.shan[root] <= 0:
                for t in range(T + 1):
                    cv[t] = 1.0
            else:
                cv[0] = 0.0
                for t in range(T):
                    for a in range(n):
                        mnext[lst[a]] = 0.0
                    for a in range(n):
                        i = lst[a]
                        m = mass[i]
                        if m == 0.0:
                            continue
                        if not alive[i] or (objective == OBJ_TENPAI and self.shan[i] <= 0):
                            mnext[i] += m
                            continue
                        pedge = self.edge_probs(i, live, t, U, lall[a], pe)
                        for e in range(self.eoff[i], self.eoff[i] + self.ne[i]):
                            p = pe[e - self.eoff[i]]
                            if p == 0.0:
                                continue
                            if self.edges[e].win:
                                won += p * m
                                wmass[e] += p * m
                            else:
                                if self.edges[e].decl:
                                    best = Vv[i, t + 1]
                                    best_j = i
                                else:
                                    best = -1.0
                                    best_j = -1
                                for q in range(self.edges[e].soff, self.edges[e].soff + self.edges[e].ns):
                                    v = Vv[self.succ[q], t + 1]
                                    if v > best:
                                        best = v
                                        best_j = self.succ[q]
                                if best_j >= 0:
                                    mnext[best_j] += p * m
                        mnext[i] += (1.0 - pedge) * m
                    for a in range(n):
                        mass[lst[a]] = mnext[lst[a]]
                    if objective == OBJ_TENPAI:
                        acc = 0.0
                        for a in range(n):
                            if self.shan[lst[a]] <= 0:
                                acc += mass[lst[a]]
                        cv[t + 1] = acc
                    else:
                        cv[t + 1] = won
        free(live); free(mass); free(mnext); free(lst); free(lall); free(pe); free(alive)
        if interrupted:
            return -4, None, None
        self.last_win_mass = wmass_arr
        return 0, V, curve

    def edge_table(self):
        """(owner state int32, kind int32, win int8) arrays over all edges so far
        (kind 34 = a joker)."""
        cdef int64_t n = self.n_edges, i, e
        owner = np.full(n, -1, dtype=np.int32)
        kind = np.empty(n, dtype=np.int32)
        win = np.zeros(n, dtype=np.int8)
        for e in range(n):
            kind[e] = self.edges[e].kind
            win[e] = self.edges[e].win
        for i in range(self.n_states):
            if self.ne[i] < 0:
                continue
            for e in range(self.eoff[i], self.eoff[i] + self.ne[i]):
                owner[e] = i
        return owner, kind, win

    def reachable(self, int32_t root, int T=0, int objective=OBJ_WIN):
        """Number of states reachable from root (expanding them; ``T`` and
        ``objective`` matter only when unrestricted); negative = error code."""
        cdef int32_t* lst = NULL
        cdef uint8_t* alive = NULL
        cdef int64_t n = 0
        cdef int rc
        with nogil:
            rc = self.reach(root, T, objective, &lst, &n, &alive)
        free(lst)
        free(alive)
        return rc if rc < 0 else n

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def simulate(self, int32_t root, const double[:, ::1] V, const uint8_t[:, ::1] walls,
                 int16_t[::1] win_time, int16_t[::1] tenpai_time, uint8_t[:, ::1] final,
                 int8_t[::1] win_tile, int8_t[::1] final_jokers=None):
        """Play the policy greedy in ``V`` on each wall (row = the draws in order,
        uint8 values 0..34, 34 = a joker).

        Writes ``win_time[r]`` (1..T, or -1), ``tenpai_time[r]`` (0..T, or -1: the
        first time the hand is tenpai or has won), ``final[r]`` the 3n+1 real tiles
        when the game ended (win or horizon), ``win_tile[r]`` (0..34, or -1) and,
        if given, ``final_jokers[r]``.  States are only visited if they were reached
        when V was solved.  Returns 0.
        """
        cdef Py_ssize_t r, nr = walls.shape[0]
        cdef int T = walls.shape[1]
        cdef int t, k
        cdef int32_t cur, best_j, q
        cdef int64_t e, nV = V.shape[0]
        cdef double best, v
        cdef bint found, has_fj = final_jokers is not None
        with nogil:
            for r in range(nr):
                cur = root
                win_time[r] = -1
                win_tile[r] = -1
                tenpai_time[r] = 0 if self.shan[cur] <= 0 else -1
                for t in range(T):
                    k = walls[r, t]
                    found = False
                    if self.ne[cur] > 0:
                        for e in range(self.eoff[cur], self.eoff[cur] + self.ne[cur]):
                            if self.edges[e].kind == k:
                                found = True
                                break
                    if not found:
                        continue
                    if self.edges[e].win:
                        win_time[r] = t + 1
                        win_tile[r] = k
                        break
                    if self.edges[e].decl:
                        best = V[cur, t + 1]
                        best_j = cur
                    else:
                        best = -1.0
                        best_j = -1
                    for q in range(self.edges[e].soff, self.edges[e].soff + self.edges[e].ns):
                        if self.succ[q] < nV:
                            v = V[self.succ[q], t + 1]
                            if v > best:
                                best = v
                                best_j = self.succ[q]
                    if best_j < 0:
                        break           # a forced move into states that cannot succeed
                    cur = best_j
                    if tenpai_time[r] < 0 and self.shan[cur] <= 0:
                        tenpai_time[r] = t + 1
                memcpy(&final[r, 0], self.hands + <int64_t>cur * NK, NK)
                if has_fj:
                    final_jokers[r] = self.jok[cur]
        return 0


# ---------------------------------------------------------------------------
# Greedy policy on real walls
# ---------------------------------------------------------------------------

cdef int live_ukeire(uint8_t* h, int j, int s, const Opts* o, const int* left) noexcept nogil:
    """Live effective tiles of a 3n+1 hand of shanten s (``left`` = copies still in the
    wall as the player knows it, index 34 = jokers)."""
    cdef int k, total = 0, cap
    for k in range(NK):
        if left[k] <= 0:
            continue
        cap = o.caps[k] if o.caps != NULL else 4
        if h[k] >= cap:
            continue
        h[k] += 1
        if shj(o, h, j) < s:
            total += left[k]
        h[k] -= 1
    if left[JK] > 0 and shj(o, h, j + 1) < s:
        total += left[JK]
    return total


@cython.boundscheck(False)
@cython.wraparound(False)
def simulate_greedy(const uint8_t[::1] h0, const uint8_t[::1] u0, object caps, int mask,
                    bint quads, object pred, const uint8_t[:, ::1] walls,
                    int16_t[::1] win_time, int16_t[::1] tenpai_time, uint8_t[:, ::1] final,
                    int8_t[::1] win_tile, *, int jokers0=0, int joker_unseen=0,
                    bint joker_discard=True, bint fifth=False, object pair_mask=None,
                    int void_suits=0, int8_t[::1] final_jokers=None):
    """Ukeire-greedy play on each wall (uint8 values 0..34, 34 = a joker): win
    whenever the predicate allows; a drawn joker is always kept (the real tile whose
    discard leaves the lowest shanten and the most live effective tiles goes);
    after a real draw that lowers shanten (or completes a hand that does not win),
    discard the tile that keeps the lowest shanten with the most live effective
    tiles (live = unseen copies minus every copy drawn so far), preferring to discard
    the drawn tile, then the lowest kind; any other draw is discarded.  Jokers are
    never discarded.  Outputs as :meth:`Graph.simulate`.  Returns 0, -3 when the
    predicate raised, -4 when interrupted (the exception is in ``pred.error`` when
    ``pred`` is a :class:`_Pred`)."""
    cdef _Pred P = pred if isinstance(pred, _Pred) else _Pred(pred)
    cdef uint8_t capsbuf[NK]
    cdef const uint8_t* cp = NULL
    cdef int i
    if caps is not None:
        for i in range(NK):
            capsbuf[i] = caps[i]
        cp = capsbuf
    cdef Opts o = build_opts(mask, quads, cp, fifth, pair_mask, void_suits)
    cdef Py_ssize_t r, nr = walls.shape[0]
    cdef int T = walls.shape[1]
    cdef uint8_t h[NK]
    cdef int left[NKJ]
    cdef int t, k, d, s, s14, sd, w, target, best_d, best_u, u, rc = 0, j, jj
    cdef bint has_fj = final_jokers is not None
    with nogil:
        for r in range(nr):
            if r % 256 == 255 and P.check_signals() < 0:
                rc = -4
                break
            memcpy(h, &h0[0], NK)
            for i in range(NK):
                left[i] = u0[i]
            left[JK] = joker_unseen
            j = jokers0
            s = shj(&o, h, j)
            win_time[r] = -1
            win_tile[r] = -1
            tenpai_time[r] = 0 if s <= 0 else -1
            for t in range(T):
                k = walls[r, t]
                left[k] -= 1
                if k < NK:
                    h[k] += 1
                    jj = j
                else:
                    jj = j + 1
                s14 = shj(&o, h, jj)
                if s14 == -1:
                    w = P.is_win(h, k, jj)
                    if w < 0:
                        rc = -3
                        break
                    if w == 1:
                        if k < NK:
                            h[k] -= 1
                        win_time[r] = t + 1
                        win_tile[r] = k
                        break
                if k < NK and s14 >= s:
                    h[k] -= 1
                    continue
                target = 1000
                best_d = -1
                best_u = -1
                if k < NK:
                    # the drawn tile first (kept on ties)
                    h[k] -= 1
                    target = shj(&o, h, jj)
                    best_u = live_ukeire(h, jj, target, &o, left)
                    best_d = k
                    h[k] += 1
                for d in range(NK):
                    if d == k or h[d] == 0:
                        continue
                    h[d] -= 1
                    sd = shj(&o, h, jj)
                    if sd < target:
                        target = sd
                        best_u = -1
                    if sd == target:
                        u = live_ukeire(h, jj, sd, &o, left)
                        if u > best_u:
                            best_u = u
                            best_d = d
                    h[d] += 1
                if best_d >= 0:
                    h[best_d] -= 1
                j = jj
                s = target if target >= 0 else 0
                if tenpai_time[r] < 0 and s <= 0:
                    tenpai_time[r] = t + 1
            if rc < 0:
                break
            memcpy(&final[r, 0], h, NK)
            if has_fj:
                final_jokers[r] = j
    return rc


# ---------------------------------------------------------------------------
# True-wall expectimax (short horizons): exact optimum over actual draws
# ---------------------------------------------------------------------------

cdef class _TrueWall:
    cdef Map memo
    cdef double* vals
    cdef int64_t nvals, capvals
    cdef int wall[NKJ]           # remaining wall (mutated along the search)
    cdef int drawn[NKJ]          # drawn so far per kind
    cdef uint8_t capsbuf[NK]
    cdef const uint8_t* caps
    cdef Opts o
    cdef int T, U, objective, stride
    cdef bint joker_discard
    cdef int64_t max_states
    cdef _Pred pred
    cdef public int64_t n_states
    cdef public int64_t shanten_calls

    def __cinit__(self, const int32_t[::1] wall35, object caps, int mask, bint quads,
                  bint fifth, object pair_mask, int void_suits, bint joker_discard,
                  int T, int objective, object pred, int64_t max_states):
        cdef int i
        self.U = 0
        for i in range(NKJ):
            self.wall[i] = wall35[i]
            self.drawn[i] = 0
            self.U += wall35[i]
        if caps is None:
            self.caps = NULL
        else:
            for i in range(NK):
                self.capsbuf[i] = caps[i]
            self.caps = self.capsbuf
        self.o = build_opts(mask, quads, self.caps, fifth, pair_mask, void_suits)
        self.T = T
        self.objective = objective
        self.stride = T + 1
        self.joker_discard = joker_discard
        self.max_states = max_states
        self.pred = pred if isinstance(pred, _Pred) else _Pred(pred)
        self.n_states = 0
        self.nvals = 0
        self.shanten_calls = 0
        self.capvals = 1024 * self.stride
        self.vals = <double*>malloc(self.capvals * sizeof(double))
        if map_init(&self.memo, 4096) < 0 or self.vals == NULL:
            raise MemoryError()

    def __dealloc__(self):
        map_free(&self.memo)
        free(self.vals)

    cdef inline int sh(self, const uint8_t* h, int j) noexcept nogil:
        self.shanten_calls += 1
        return shj(&self.o, h, j)

    cdef inline uint64_t drawn_code(self) noexcept nogil:
        """The multiset of drawn kinds as sorted 6-bit digits (kind + 1)."""
        cdef uint64_t c = 0
        cdef int k, m
        for k in range(NKJ):
            for m in range(self.drawn[k]):
                c = (c << 6) | <uint64_t>(k + 1)
        return c

    cdef int value(self, uint8_t* h, int j, int t, int s, double* out) noexcept nogil:
        """``out[r]`` (r = 0..T-t) = probability of success within the next r draws
        under the policy optimal for the remaining horizon; ``s`` the shanten of
        (h, j).  0 ok, -1 memory, -2 state limit, -3 predicate, -4 interrupted."""
        cdef int rem = self.T - t, r, k, d, jj, jd, s14, sd, w, rc, need, W, cap, which
        cdef uint64_t lo, hi, x
        cdef int32_t idx
        cdef double p, bestv
        cdef double child[MAXT + 1]
        cdef double best[MAXT + 1]
        cdef void* pp
        cdef bint win_obj = self.objective == OBJ_WIN
        if not win_obj and s <= 0:
            for r in range(rem + 1):
                out[r] = 1.0
            return 0
        need = s + (1 if win_obj else 0)
        if need > rem:
            for r in range(rem + 1):
                out[r] = 0.0
            return 0
        pack(h, <uint64_t>j, &lo, &hi)
        x = self.drawn_code()
        idx = map_get(&self.memo, lo, hi, x)
        if idx >= 0:
            memcpy(out, self.vals + <int64_t>idx * self.stride, (rem + 1) * sizeof(double))
            return 0
        if self.n_states >= self.max_states:
            return -2
        self.n_states += 1
        if self.n_states % SIGNAL_EVERY == 0 and self.pred.check_signals() < 0:
            return -4
        for r in range(rem + 1):
            out[r] = 0.0
        W = self.U - t
        for k in range(NKJ):
            if self.wall[k] <= 0:
                continue
            if k < NK:
                cap = self.caps[k] if self.caps != NULL else 4
                if h[k] >= cap:
                    continue
            p = <double>self.wall[k] / W
            self.wall[k] -= 1
            self.drawn[k] += 1
            if k < NK:
                h[k] += 1
                jj = j
            else:
                jj = j + 1
            rc = 0
            s14 = self.sh(h, jj)
            w = 0
            if s14 == -1:
                w = self.pred.is_win(h, k, jj)
                if w < 0:
                    rc = -3
            if rc == 0 and w == 1:
                for r in range(1, rem + 1):
                    out[r] += p
            elif rc == 0 and s14 + (1 if win_obj else 0) <= rem - 1:
                # (every discard leaves shanten >= s14: otherwise no child can succeed)
                rc = self.best_discard(h, jj, k, t, rem, best, &bestv, &which)
                if rc == 0 and bestv > 0.0:
                    for r in range(1, rem + 1):
                        out[r] += p * best[r - 1]
            if k < NK:
                h[k] -= 1
            self.wall[k] += 1
            self.drawn[k] -= 1
            if rc < 0:
                return rc
        if self.nvals + self.stride > self.capvals:
            pp = realloc(self.vals, self.capvals * 2 * sizeof(double))
            if pp == NULL:
                return -1
            self.vals = <double*>pp
            self.capvals *= 2
        memcpy(self.vals + self.nvals, out, (rem + 1) * sizeof(double))
        if map_put(&self.memo, lo, hi, x, <int32_t>(self.nvals // self.stride)) < 0:
            return -1
        self.nvals += self.stride
        return 0

    cdef int best_discard(self, uint8_t* h, int jj, int k, int t, int rem, double* best,
                          double* bestv, int* which) noexcept nogil:
        """The best discard of the 3n+2 hand (h, jj) after drawing ``k`` at draw t + 1:
        its value vector into ``best`` (rem entries), its value into ``bestv`` (-1 when
        no discard is allowed), the kind discarded into ``which`` (34 = a joker).
        Candidates in order (ties keep the first): the drawn tile, a joker, kinds
        ascending."""
        cdef double child[MAXT + 1]
        cdef int rc = 0, d
        bestv[0] = -1.0
        which[0] = -1
        if k == JK:
            if self.joker_discard:
                rc = self.child_value(h, jj - 1, t, child)
                if rc == 0 and child[rem - 1] > bestv[0]:
                    bestv[0] = child[rem - 1]
                    which[0] = JK
                    memcpy(best, child, rem * sizeof(double))
        else:
            h[k] -= 1
            rc = self.child_value(h, jj, t, child)
            h[k] += 1
            if rc == 0 and child[rem - 1] > bestv[0]:
                bestv[0] = child[rem - 1]
                which[0] = k
                memcpy(best, child, rem * sizeof(double))
            if rc == 0 and jj > 0 and self.joker_discard:
                rc = self.child_value(h, jj - 1, t, child)
                if rc == 0 and child[rem - 1] > bestv[0] + 1e-13:
                    bestv[0] = child[rem - 1]
                    which[0] = JK
                    memcpy(best, child, rem * sizeof(double))
        d = 0
        while rc == 0 and d < NK:
            if h[d] > 0 and d != k:
                h[d] -= 1
                rc = self.child_value(h, jj, t, child)
                h[d] += 1
                if rc == 0 and child[rem - 1] > bestv[0] + 1e-13:
                    bestv[0] = child[rem - 1]
                    which[0] = d
                    memcpy(best, child, rem * sizeof(double))
            d += 1
        return rc

    cdef int child_value(self, uint8_t* h, int j, int t, double* out) noexcept nogil:
        """Value vector of the 3n+1 hand (h, j) after draw t + 1."""
        cdef int s = self.sh(h, j)
        return self.value(h, j, t + 1, s, out)

    def run(self, const uint8_t[::1] h0, int jokers0):
        cdef uint8_t h[NK]
        cdef double out[MAXT + 1]
        cdef int rc, s, r
        memcpy(h, &h0[0], NK)
        with nogil:
            s = self.sh(h, jokers0)
            rc = self.value(h, jokers0, 0, s, out)
        if rc < 0:
            return rc, None
        curve = np.empty(self.T, dtype=np.float64)
        for r in range(self.T):
            curve[r] = out[r + 1]
        return 0, curve

    @property
    def pred_error(self):
        return self.pred.error

    def winning(self, const uint8_t[::1] h0, int jokers0):
        """After :meth:`run` (win objective): the winning-hand distribution under the
        optimal policy, aggregated per (hand, winning draw, jokers), as ``(status,
        (hands uint8 (n, 34), kinds intp (n,), jokers intp (n,), mass float64 (n,)))``.
        A forward pass level by level (states merged per draw count)."""
        cdef int T = self.T, t, rc, k, jj, s14, w, which, rem, i, cap, jn, j
        cdef Py_ssize_t a
        cdef uint8_t h[NK]
        cdef double best[MAXT + 1]
        cdef double bestv, p, m
        cdef int W
        level = {(bytes(h0), jokers0, (0,) * NKJ): 1.0}
        wins = {}
        for t in range(T):
            rem = T - t
            W = self.U - t
            nxt = {}
            for (hb, j, drawn), m in level.items():
                memcpy(h, <const char*>hb, NK)
                for i in range(NKJ):
                    self.drawn[i] = drawn[i]
                    self.wall[i] -= drawn[i]
                rc = 0
                for k in range(NKJ):
                    if self.wall[k] <= 0:
                        continue
                    if k < NK:
                        cap = self.caps[k] if self.caps != NULL else 4
                        if h[k] >= cap:
                            continue
                    p = <double>self.wall[k] / W
                    self.wall[k] -= 1
                    self.drawn[k] += 1
                    if k < NK:
                        h[k] += 1
                        jj = j
                    else:
                        jj = j + 1
                    s14 = self.sh(h, jj)
                    w = 0
                    if s14 == -1:
                        w = self.pred.is_win(h, k, jj)
                        if w < 0:
                            rc = -3
                    if rc == 0 and w == 1:
                        key = ((<char*>h)[:NK], k, jj)
                        wins[key] = wins.get(key, 0.0) + p * m
                    elif rc == 0 and s14 + 1 <= rem - 1:
                        with nogil:
                            rc = self.best_discard(h, jj, k, t, rem, best, &bestv, &which)
                        if rc == 0 and bestv > 0.0:
                            jn = jj
                            if which == JK:
                                jn = jj - 1
                            else:
                                h[which] -= 1
                            key = ((<char*>h)[:NK], jn,
                                   tuple([self.drawn[i] for i in range(NKJ)]))
                            if which != JK:
                                h[which] += 1
                            nxt[key] = nxt.get(key, 0.0) + p * m
                    if k < NK:
                        h[k] -= 1
                    self.wall[k] += 1
                    self.drawn[k] -= 1
                    if rc < 0:
                        break
                for i in range(NKJ):
                    self.wall[i] += self.drawn[i]
                    self.drawn[i] = 0
                if rc < 0:
                    return rc, None
            level = nxt
            if not level:
                break
        n = len(wins)
        hands = np.zeros((n, NK), dtype=np.uint8)
        kinds = np.zeros(n, dtype=np.intp)
        jok = np.zeros(n, dtype=np.intp)
        mass = np.zeros(n, dtype=np.float64)
        for a, ((hb, k, jj), m) in enumerate(sorted(wins.items())):
            hands[a] = np.frombuffer(hb, dtype=np.uint8)
            kinds[a] = k
            jok[a] = jj
            mass[a] = m
        return 0, (hands, kinds, jok, mass)


def true_wall_solve(const uint8_t[::1] h0, int jokers0, object wall35, int T, int objective,
                    int mask, bint quads, object caps=None, *, bint fifth=False,
                    object pair_mask=None, int void_suits=0, bint joker_discard=True,
                    object pred=None, int64_t max_states=200_000, bint wins=False):
    """Exact optimum over actual draws (the true wall) for a short horizon.

    The state is the hand (real tiles ``h0`` uint8 (34,) + ``jokers0`` jokers), and
    the actual remaining wall ``wall35`` (35 counts, index 34 = jokers; a tile drawn
    and thrown back leaves the wall).  After each draw the player wins if the hand
    is complete under the shape options and ``pred`` allows it; otherwise the
    player discards any tile (a joker only if ``joker_discard``).  States are
    memoized and pruned by shanten (``s + 1 > T - t`` for the win, ``s > T - t``
    for tenpai: value 0).

    ``objective`` 0 = win, 1 = tenpai after a draw (a win counts; a hand tenpai
    before any draw has P = 1).  Returns ``(value, curve, n_states)`` with
    ``curve`` float64 (T,), ``curve[t-1]`` the probability that the event happened
    by draw ``t`` under the policy optimal for the whole horizon (ties: the drawn
    tile is thrown back, then the lowest kind), or None when more than
    ``max_states`` states are needed.  An exception raised by ``pred`` (or a
    signal, e.g. KeyboardInterrupt) is re-raised as itself.

    With ``wins=True`` (win objective only) a fourth element is returned: the
    winning-hand distribution under that policy, ``(hands uint8 (n, 34), kinds
    intp (n,) (34 = a joker), jokers intp (n,), mass float64 (n,))`` with
    ``mass.sum() == value`` (the real tiles of each complete hand, the winning
    draw, the jokers held, the probability of winning that way).
    """
    if T < 0 or T > MAXT:
        raise ValueError(f"true_wall_solve handles 0 <= T <= {MAXT}")
    w = np.ascontiguousarray(wall35, dtype=np.int32)
    if w.shape != (NKJ,):
        raise ValueError("wall35 must hold 35 counts")
    if T > int(w.sum()) or (w < 0).any():
        raise ValueError("T exceeds the wall, or a negative wall count")
    cap_arr = np.full(NK, 4, dtype=np.int64) if caps is None else np.asarray(caps, dtype=np.int64)
    if (np.asarray(h0, dtype=np.int64) + w[:NK] > cap_arr).any():
        raise ValueError("hand + wall hold more copies of a kind than caps allow")
    cdef _TrueWall tw = _TrueWall(w, caps, mask, quads, fifth, pair_mask, void_suits,
                                  joker_discard, T, objective, pred, max_states)
    if T == 0:
        s = shj(&tw.o, &h0[0], jokers0)
        v0 = 1.0 if (objective == OBJ_TENPAI and s <= 0) else 0.0
        if wins:
            return v0, np.zeros(0), 0, (np.zeros((0, NK), dtype=np.uint8), np.zeros(0, np.intp),
                                        np.zeros(0, np.intp), np.zeros(0))
        return v0, np.zeros(0), 0
    if wins and objective != OBJ_WIN:
        raise ValueError("wins=True needs the win objective")
    rc, curve = tw.run(h0, jokers0)
    if rc == 0 and wins:
        rc, dist = tw.winning(h0, jokers0)
    if rc == -2:
        return None
    if rc in (-3, -4):
        raise tw.pred.error
    if rc < 0:
        raise MemoryError("out of memory in the true-wall search")
    if wins:
        return float(curve[T - 1]), curve, int(tw.n_states), dist
    return float(curve[T - 1]), curve, int(tw.n_states)


# ---------------------------------------------------------------------------
# Legacy: unrestricted optimum of the S1 model, plain options (bench measurements)
# ---------------------------------------------------------------------------

cdef class _Unrestricted:
    """Kept for ``bench/bench_winprob.py``; prefer ``Graph(..., unrestricted=True)``."""
    cdef Map memo
    cdef double* vals
    cdef int64_t nvals, capvals
    cdef uint8_t u0[NK]
    cdef uint8_t h0[NK]
    cdef int mask
    cdef bint quads
    cdef int T, U
    cdef public int64_t n_states

    def __cinit__(self, const uint8_t[::1] h0, const uint8_t[::1] u0, int mask, bint quads,
                  int T, int U):
        cdef int i
        for i in range(NK):
            self.u0[i] = u0[i]
            self.h0[i] = h0[i]
        self.mask = mask
        self.quads = quads
        self.T = T
        self.U = U
        self.n_states = 0
        self.capvals = 1024
        self.vals = <double*>malloc(self.capvals * sizeof(double))
        ensure_tables()
        if map_init(&self.memo, 4096) < 0 or self.vals == NULL:
            raise MemoryError()

    def __dealloc__(self):
        map_free(&self.memo)
        free(self.vals)

    cdef double value(self, uint8_t* h, int t) noexcept nogil:
        """Optimal P(win) with draws t+1..T left, any discard allowed."""
        cdef uint64_t lo, hi
        cdef int32_t idx
        cdef int s, k, d, x, live, sd
        cdef double acc = 0.0, pk = 0.0, best, v, den, stay
        cdef void* p
        if t >= self.T:
            return 0.0
        pack(h, <uint64_t>(t + 1), &lo, &hi)
        idx = map_get(&self.memo, lo, hi, 0)
        if idx >= 0:
            return self.vals[idx]
        s = shanten_c(h, self.mask, self.quads, NULL)
        if s + 1 > self.T - t:
            return 0.0
        den = self.U - t
        stay = self.value(h, t + 1)
        for k in range(NK):
            x = h[k] - self.h0[k]
            live = self.u0[k] - (x if x > 0 else 0)
            if live <= 0:
                continue
            pk += live / den
            h[k] += 1
            if shanten_c(h, self.mask, self.quads, NULL) == -1:
                acc += live / den
                h[k] -= 1
                continue
            best = stay
            for d in range(NK):
                if h[d] == 0 or d == k:
                    continue
                h[d] -= 1
                sd = shanten_c(h, self.mask, self.quads, NULL)
                if sd + 1 <= self.T - t - 1:
                    v = self.value(h, t + 1)
                    if v > best:
                        best = v
                h[d] += 1
            h[k] -= 1
            acc += live / den * best
        acc += (1.0 - pk) * stay
        if self.nvals >= self.capvals:
            p = realloc(self.vals, self.capvals * 2 * sizeof(double))
            if p == NULL:
                return acc
            self.vals = <double*>p
            self.capvals *= 2
        self.vals[self.nvals] = acc
        map_put(&self.memo, lo, hi, 0, <int32_t>self.nvals)
        self.nvals += 1
        self.n_states = self.nvals
        return acc

    def run(self):
        cdef uint8_t h[NK]
        cdef double v
        memcpy(h, self.h0, NK)
        with nogil:
            v = self.value(h, 0)
        return v


# ---------------------------------------------------------------------------
# Dealing (issue 12): partial Fisher-Yates over the wall, without the GIL
# ---------------------------------------------------------------------------

@cython.boundscheck(False)
@cython.wraparound(False)
def deal_counts(const int64_t[:, ::1] offsets, const uint8_t[::1] kind_of,
                uint8_t[:, ::1] out):
    """Deal ``offsets.shape[0]`` hands of ``k = offsets.shape[1]`` tiles from one wall.

    ``kind_of`` (uint8, length W <= 1024) lists the wall tile by tile (its kind
    index, 0..out.shape[1]-1).  Hand ``i`` is a partial Fisher-Yates shuffle of a
    fresh copy of the wall: step ``t`` swaps position ``t`` with ``t + offsets[i,
    t]``, where the caller draws ``offsets[i, t]`` uniformly in ``[0, W - t)``; the
    first ``k`` positions are the hand, a uniform ``k``-subset of the wall.  Adds the
    hand's kind counts into ``out[i]`` (uint8, zeroed by the caller).  Returns -1 when
    an offset is out of range (nothing more is dealt), 0 otherwise."""
    cdef Py_ssize_t m = offsets.shape[0], k = offsets.shape[1], W = kind_of.shape[0]
    cdef Py_ssize_t i, t, j, K = out.shape[1]
    cdef uint8_t buf[1024]
    cdef uint8_t tmp
    cdef int bad = 0
    if W > 1024 or k > W or out.shape[0] != m:
        raise ValueError("deal_counts: wall longer than 1024, hand longer than the wall "
                         "or out rows != offsets rows")
    for j in range(W):
        if kind_of[j] >= K:
            raise ValueError("deal_counts: a kind index outside out's columns")
    with nogil:
        for i in range(m):
            memcpy(buf, &kind_of[0], W)
            for t in range(k):
                j = offsets[i, t]
                if j < 0 or j >= W - t:
                    bad = 1
                    break
                j += t
                tmp = buf[j]
                buf[j] = buf[t]
                buf[t] = tmp
                out[i, tmp] += 1
            if bad:
                break
    return -1 if bad else 0

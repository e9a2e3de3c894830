# cython: language_level=3
"""Win / tenpai probability kernels: a hand-state graph, backward induction over it,
and Monte Carlo play of a policy on real walls.

Private module: the public, validating API and the model's description live in
``majiang.probability``.  Everything here works on 34-kind uint8 count vectors and
plain options; rulesets reach it only as a Python callable ``pred(h14, win_tile)``
evaluated on complete hands (results cached per (hand, win tile)).

Graph
-----
A state is a 13-tile (3n+1) concealed hand plus a budget of *change moves* left.
Expanding a state ``h`` of shanten ``s`` looks at every kind ``k`` with unseen
copies (``u0[k] > 0``):

* ``h + k`` complete and the predicate says win  -> a *win* edge;
* ``h + k`` has shanten ``s14 < s``: an *advance* edge whose successors are
  ``h + k - d`` for every discard ``d`` keeping the new shanten ``s14``;
* otherwise (including a complete hand that is not a win), when the budget is
  positive: a *change* edge whose successors are ``h + k - d`` (``d != k``) with
  shanten ``s``, each with the budget lowered by one.

Declining a draw (discarding it: the hand stays) is always allowed.  The
structure does not depend on the root, so one graph serves all discards of a
14-tile hand; live counts are computed per root at solve time.
"""
from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport malloc, realloc, free, calloc
from libc.string cimport memset, memcpy

cimport cython
import numpy as np
cimport numpy as cnp

from .efficiency cimport shanten_c

cnp.import_array()

cdef enum:
    NK = 34
    OBJ_WIN = 0
    OBJ_TENPAI = 1


# ---------------------------------------------------------------------------
# An open-addressing hash map from a packed key (two uint64) to an int32
# ---------------------------------------------------------------------------

cdef struct Slot:
    uint64_t lo
    uint64_t hi
    int32_t val
    int32_t used


cdef struct Map:
    Slot* slots
    int64_t cap        # power of two
    int64_t n


cdef inline uint64_t mix(uint64_t lo, uint64_t hi) noexcept nogil:
    cdef uint64_t z = lo * <uint64_t>0x9E3779B97F4A7C15ULL ^ (hi + <uint64_t>0x632BE59BD9B4E019ULL)
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
            j = <int64_t>(mix(old[i].lo, old[i].hi) & <uint64_t>mask)
            while ns[j].used:
                j = (j + 1) & mask
            ns[j] = old[i]
    m.slots = ns
    m.cap = oldcap * 2
    free(old)
    return 0


cdef inline int32_t map_get(Map* m, uint64_t lo, uint64_t hi) noexcept nogil:
    """Value for the key, or -1."""
    cdef int64_t mask = m.cap - 1
    cdef int64_t j = <int64_t>(mix(lo, hi) & <uint64_t>mask)
    while m.slots[j].used:
        if m.slots[j].lo == lo and m.slots[j].hi == hi:
            return m.slots[j].val
        j = (j + 1) & mask
    return -1


cdef inline int map_put(Map* m, uint64_t lo, uint64_t hi, int32_t val) noexcept nogil:
    """Insert (the key must be absent). Returns -1 on allocation failure."""
    cdef int64_t mask, j
    if (m.n + 1) * 2 > m.cap:
        if map_grow(m) < 0:
            return -1
    mask = m.cap - 1
    j = <int64_t>(mix(lo, hi) & <uint64_t>mask)
    while m.slots[j].used:
        j = (j + 1) & mask
    m.slots[j].lo = lo
    m.slots[j].hi = hi
    m.slots[j].val = val
    m.slots[j].used = 1
    m.n += 1
    return 0


cdef inline void pack(const uint8_t* h, uint64_t extra, uint64_t* lo, uint64_t* hi) noexcept nogil:
    cdef uint64_t a = 0, b = 0
    cdef int i
    for i in range(21):
        a |= (<uint64_t>h[i]) << (3 * i)
    for i in range(21, NK):
        b |= (<uint64_t>h[i]) << (3 * (i - 21))
    lo[0] = a
    hi[0] = b | (extra << 40)


# ---------------------------------------------------------------------------
# Win predicate with a cache (the callable is Python; called with the GIL)
# ---------------------------------------------------------------------------

cdef class _Pred:
    """Caches ``pred(h14, win_tile) -> bool`` on complete hands; None = always win."""
    cdef object fn
    cdef Map cache
    cdef public int64_t calls
    cdef public object error

    def __cinit__(self, fn):
        self.fn = fn
        self.calls = 0
        self.error = None
        if map_init(&self.cache, 1024) < 0:
            raise MemoryError()

    def __dealloc__(self):
        map_free(&self.cache)

    cdef int is_win(self, const uint8_t* h14, int k) noexcept nogil:
        """1 win, 0 not a win, -1 the callable raised (error kept in .error)."""
        cdef uint64_t lo, hi
        cdef int32_t v
        if self.fn is None:
            return 1
        pack(h14, <uint64_t>(k + 1), &lo, &hi)
        v = map_get(&self.cache, lo, hi)
        if v >= 0:
            return v
        with gil:
            v = self._call(h14, k)
        if v < 0:
            return -1
        map_put(&self.cache, lo, hi, v)
        return v

    cdef int _call(self, const uint8_t* h14, int k) noexcept:
        cdef cnp.ndarray arr = np.empty(NK, dtype=np.uint8)
        memcpy(cnp.PyArray_DATA(arr), h14, NK)
        self.calls += 1
        try:
            return 1 if self.fn(arr, k) else 0
        except BaseException as exc:       # reported by the caller
            if self.error is None:
                self.error = exc
            return -1


# ---------------------------------------------------------------------------
# The graph
# ---------------------------------------------------------------------------

cdef struct Edge:
    int32_t kind
    int32_t win          # 0: advance, 1: win, 2: change move
    int32_t soff         # successors: succ[soff : soff + ns]
    int32_t ns


cdef class Graph:
    """Hand-state graph shared by the roots (discards) of one position.

    Parameters: ``u0`` uint8 (34,) unseen copies per kind (the wall model),
    ``caps`` uint8 (34,) or None (copies available to the concealed hand),
    ``mask``/``quads`` as the shanten core, ``budget`` change moves per path,
    ``max_states`` cap on the graph size, ``pred`` a callable or None.
    """
    cdef uint8_t u0[NK]
    cdef uint8_t capsbuf[NK]
    cdef const uint8_t* caps
    cdef int mask
    cdef bint quads
    cdef public int budget
    cdef public int64_t max_states
    cdef _Pred pred
    cdef Map index
    # states
    cdef uint8_t* hands
    cdef int8_t* shan
    cdef int8_t* bud
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
    cdef public object last_win_mass     # float64 (n_edges,): win probability per edge (last solve)

    def __cinit__(self, const uint8_t[::1] u0, object caps, int mask, bint quads, int budget,
                  int64_t max_states, object pred):
        cdef int i
        for i in range(NK):
            self.u0[i] = u0[i]
        if caps is None:
            self.caps = NULL
        else:
            for i in range(NK):
                self.capsbuf[i] = caps[i]
            self.caps = self.capsbuf
        self.mask = mask
        self.quads = quads
        self.budget = budget
        self.max_states = max_states
        self.pred = pred if isinstance(pred, _Pred) else _Pred(pred)
        self.n_states = 0
        self.cap_states = 256
        self.hands = <uint8_t*>malloc(self.cap_states * NK)
        self.shan = <int8_t*>malloc(self.cap_states)
        self.bud = <int8_t*>malloc(self.cap_states)
        self.eoff = <int32_t*>malloc(self.cap_states * sizeof(int32_t))
        self.ne = <int32_t*>malloc(self.cap_states * sizeof(int32_t))
        self.n_edges = 0
        self.cap_edges = 1024
        self.edges = <Edge*>malloc(self.cap_edges * sizeof(Edge))
        self.n_succ = 0
        self.cap_succ = 4096
        self.succ = <int32_t*>malloc(self.cap_succ * sizeof(int32_t))
        self.shanten_calls = 0
        if (self.hands == NULL or self.shan == NULL or self.bud == NULL or self.eoff == NULL
                or self.ne == NULL or self.edges == NULL or self.succ == NULL
                or map_init(&self.index, 1024) < 0):
            raise MemoryError("cannot allocate the hand-state graph")

    def __dealloc__(self):
        free(self.hands); free(self.shan); free(self.bud); free(self.eoff); free(self.ne)
        free(self.edges); free(self.succ)
        map_free(&self.index)

    @property
    def pred_error(self):
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
        p = realloc(self.eoff, c * sizeof(int32_t))
        if p == NULL: return -1
        self.eoff = <int32_t*>p
        p = realloc(self.ne, c * sizeof(int32_t))
        if p == NULL: return -1
        self.ne = <int32_t*>p
        self.cap_states = c
        return 0

    cdef int32_t state_id(self, const uint8_t* h, int b, int s) noexcept nogil:
        """Id of (h, b), created if new (``s`` its shanten, or -100 to compute).
        -1: allocation failure, -2: too many states."""
        cdef uint64_t lo, hi
        cdef int32_t v
        pack(h, <uint64_t>b, &lo, &hi)
        v = map_get(&self.index, lo, hi)
        if v >= 0:
            return v
        if self.n_states >= self.max_states:
            return -2
        if self.n_states >= self.cap_states and self.grow_states() < 0:
            return -1
        v = <int32_t>self.n_states
        memcpy(self.hands + <int64_t>v * NK, h, NK)
        if s == -100:
            s = shanten_c(h, self.mask, self.quads, self.caps)
            self.shanten_calls += 1
        self.shan[v] = <int8_t>s
        self.bud[v] = <int8_t>b
        self.ne[v] = -1
        self.eoff[v] = 0
        if map_put(&self.index, lo, hi, v) < 0:
            return -1
        self.n_states += 1
        return v

    cdef int push_edge(self, int kind, int win) noexcept nogil:
        cdef void* p
        if self.n_edges >= self.cap_edges:
            p = realloc(self.edges, self.cap_edges * 2 * sizeof(Edge))
            if p == NULL: return -1
            self.edges = <Edge*>p
            self.cap_edges *= 2
        self.edges[self.n_edges].kind = kind
        self.edges[self.n_edges].win = win
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

    # -- expansion ---------------------------------------------------------
    cdef int expand(self, int32_t i) noexcept nogil:
        """Compute the edges of state i. 0 ok, -1 memory, -2 too many states, -3 predicate error."""
        cdef uint8_t h[NK]
        cdef int s, b, k, d, s14, target, w, sd, cap
        cdef int32_t j
        cdef int64_t first_edge = self.n_edges
        memcpy(h, self.hands + <int64_t>i * NK, NK)
        s = self.shan[i]
        b = self.bud[i]
        for k in range(NK):
            if self.u0[k] == 0:
                continue
            cap = self.caps[k] if self.caps != NULL else 4
            if h[k] >= cap:
                continue
            h[k] += 1
            s14 = shanten_c(h, self.mask, self.quads, self.caps)
            self.shanten_calls += 1
            if s14 == -1:
                w = self.pred.is_win(h, k)
                if w < 0:
                    h[k] -= 1
                    return -3
                if w == 1:
                    if self.push_edge(k, 1) < 0:
                        return -1
                    h[k] -= 1
                    continue
                s14 = s           # complete but not a win: no advance (a change move at most)
            if s14 < s:
                target = s14 if s14 >= 0 else 0
                if self.push_edge(k, 0) < 0:
                    return -1
                for d in range(NK):
                    if h[d] == 0 or d == k:
                        continue
                    h[d] -= 1
                    sd = shanten_c(h, self.mask, self.quads, self.caps)
                    self.shanten_calls += 1
                    if sd == target:
                        j = self.state_id(h, b, sd)
                        if j < 0:
                            h[d] += 1
                            h[k] -= 1
                            return j
                        if self.push_succ(j) < 0:
                            return -1
                    h[d] += 1
                if self.edges[self.n_edges - 1].ns == 0:
                    self.n_edges -= 1
            elif b > 0:
                if self.push_edge(k, 2) < 0:
                    return -1
                for d in range(NK):
                    if h[d] == 0 or d == k:
                        continue
                    h[d] -= 1
                    sd = shanten_c(h, self.mask, self.quads, self.caps)
                    self.shanten_calls += 1
                    if sd == s:
                        j = self.state_id(h, b - 1, sd)
                        if j < 0:
                            h[d] += 1
                            h[k] -= 1
                            return j
                        if self.push_succ(j) < 0:
                            return -1
                    h[d] += 1
                if self.edges[self.n_edges - 1].ns == 0:
                    self.n_edges -= 1
            h[k] -= 1
        self.eoff[i] = <int32_t>first_edge
        self.ne[i] = <int32_t>(self.n_edges - first_edge)
        return 0

    cdef int reach(self, int32_t root, int32_t** out, int64_t* nout) noexcept nogil:
        """Breadth-first list of the states reachable from root (expanding them)."""
        cdef int64_t cap = 256, head = 0, n = 1, e, q
        cdef int32_t* lst = <int32_t*>malloc(cap * sizeof(int32_t))
        cdef uint8_t* seen = NULL
        cdef int64_t seen_cap = 0
        cdef int32_t i, j
        cdef int rc
        cdef void* p
        if lst == NULL:
            return -1
        lst[0] = root
        seen_cap = self.n_states + 1024
        seen = <uint8_t*>calloc(seen_cap, 1)
        if seen == NULL:
            free(lst)
            return -1
        seen[root] = 1
        while head < n:
            i = lst[head]
            head += 1
            if self.ne[i] < 0:
                rc = self.expand(i)
                if rc < 0:
                    free(lst); free(seen)
                    return rc
            if self.n_states > seen_cap:
                p = realloc(seen, self.n_states * 2)
                if p == NULL:
                    free(lst); free(seen)
                    return -1
                seen = <uint8_t*>p
                memset(seen + seen_cap, 0, self.n_states * 2 - seen_cap)
                seen_cap = self.n_states * 2
            for e in range(self.eoff[i], self.eoff[i] + self.ne[i]):
                for q in range(self.edges[e].soff, self.edges[e].soff + self.edges[e].ns):
                    j = self.succ[q]
                    if not seen[j]:
                        seen[j] = 1
                        if n >= cap:
                            p = realloc(lst, cap * 2 * sizeof(int32_t))
                            if p == NULL:
                                free(lst); free(seen)
                                return -1
                            lst = <int32_t*>p
                            cap *= 2
                        lst[n] = j
                        n += 1
        free(seen)
        out[0] = lst
        nout[0] = n
        return 0

    # -- Python-facing -----------------------------------------------------
    def add_root(self, const uint8_t[::1] h0):
        """State id of a 3n+1 hand with the full budget (shanten computed here)."""
        cdef int32_t v
        with nogil:
            v = self.state_id(&h0[0], self.budget, -100)
        if v < 0:
            raise MemoryError("too many states") if v == -2 else MemoryError()
        return v

    def shanten_of(self, int32_t i):
        return self.shan[i]

    def hand_of(self, int32_t i):
        a = np.empty(NK, dtype=np.uint8)
        cdef uint8_t[::1] av = a
        memcpy(&av[0], self.hands + <int64_t>i * NK, NK)
        return a

    cdef double edge_probs(self, int32_t i, const int32_t* live, int t, int U,
                           int32_t lall_i, double* pe) noexcept nogil:
        """Probability of drawing along each edge of state ``i`` at draw ``t + 1``,
        into ``pe[e - eoff[i]]``; returns their sum.  Shanten-lowering and winning
        kinds are drawn with ``live / (U - t)``; change moves share what is left in
        proportion to their live copies (the wall model S1 of majiang.probability)."""
        cdef int64_t e, e0 = self.eoff[i]
        cdef double esum = 0.0, den, rest, p, total = 0.0
        for e in range(e0, e0 + self.ne[i]):
            if live[e] > 0 and self.edges[e].win != 2:
                esum += live[e]
        den = U - t
        if esum > den:
            den = esum
        rest = lall_i - esum
        for e in range(e0, e0 + self.ne[i]):
            p = 0.0
            if live[e] > 0:
                if self.edges[e].win == 2:
                    p = (1.0 - esum / den) * live[e] / rest if rest > 0 else 0.0
                else:
                    p = live[e] / den
            pe[e - e0] = p
            total += p
        return total

    def solve(self, int32_t root, const uint8_t[::1] h0, int T, int U, int objective):
        """Backward induction from ``root`` (start hand ``h0``) over ``T`` draws from a
        wall of ``U`` unseen tiles.

        Returns ``(status, V, curve)``: status 0 ok, -1 memory, -2 state limit, -3
        predicate error; ``V`` float64 (n_states, T + 1) values (0 for unreachable
        states; ``V[i, t]`` = probability of success with ``T - t`` draws left after
        ``t`` draws); ``curve`` float64 (T + 1,) the probability of success by draw
        t under the policy (``curve[T] == V[root, 0]``).
        """
        cdef int32_t* lst = NULL
        cdef int64_t n = 0, a, e, q, n_e
        cdef int rc
        with nogil:
            rc = self.reach(root, &lst, &n)
        if rc < 0:
            return rc, None, None
        cdef int64_t N = self.n_states
        V = np.zeros((N, T + 1), dtype=np.float64)
        curve = np.zeros(T + 1, dtype=np.float64)
        cdef double[:, ::1] Vv = V
        cdef double[::1] cv = curve
        # live copies per edge for this root
        cdef int32_t* live = <int32_t*>malloc((self.n_edges + 1) * sizeof(int32_t))
        wmass_arr = np.zeros(self.n_edges, dtype=np.float64)
        cdef double[::1] wmass = wmass_arr
        cdef double* mass = <double*>calloc(N, sizeof(double))
        cdef double* mnext = <double*>calloc(N, sizeof(double))
        cdef int32_t* lall = <int32_t*>malloc((n + 1) * sizeof(int32_t))
        cdef int64_t max_ne = 1
        for a in range(n):
            if self.ne[lst[a]] > max_ne:
                max_ne = self.ne[lst[a]]
        cdef double* pe = <double*>malloc(max_ne * sizeof(double))   # edge probabilities
        cdef int32_t i, j, k, x, t, best_j
        cdef uint8_t* h
        cdef double den, p, pedge, acc, best, v, esum, m, won, rest
        if live == NULL or mass == NULL or mnext == NULL or lall == NULL or pe == NULL:
            free(live); free(mass); free(mnext); free(lst); free(lall); free(pe)
            raise MemoryError()
        with nogil:
            for a in range(n):
                i = lst[a]
                h = self.hands + <int64_t>i * NK
                x = 0
                for k in range(NK):
                    if h[k] > h0[k]:
                        x += h[k] - h0[k]
                lall[a] = U - x
                for e in range(self.eoff[i], self.eoff[i] + self.ne[i]):
                    k = self.edges[e].kind
                    x = h[k] - h0[k]
                    live[e] = self.u0[k] - (x if x > 0 else 0)
            # terminal values
            for a in range(n):
                i = lst[a]
                if objective == OBJ_TENPAI and self.shan[i] <= 0:
                    for t in range(T + 1):
                        Vv[i, t] = 1.0
            for t in range(T - 1, -1, -1):
                for a in range(n):
                    i = lst[a]
                    if objective == OBJ_TENPAI and self.shan[i] <= 0:
                        continue
                    pedge = self.edge_probs(i, live, t, U, lall[a], pe)
                    acc = 0.0
                    for e in range(self.eoff[i], self.eoff[i] + self.ne[i]):
                        p = pe[e - self.eoff[i]]
                        if p == 0.0:
                            continue
                        if self.edges[e].win == 1:
                            acc += p
                        else:
                            best = Vv[i, t + 1]
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
            if objective == OBJ_TENPAI and self.shan[root] <= 0:
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
                        if objective == OBJ_TENPAI and self.shan[i] <= 0:
                            mnext[i] += m
                            continue
                        pedge = self.edge_probs(i, live, t, U, lall[a], pe)
                        for e in range(self.eoff[i], self.eoff[i] + self.ne[i]):
                            p = pe[e - self.eoff[i]]
                            if p == 0.0:
                                continue
                            if self.edges[e].win == 1:
                                won += p * m
                                wmass[e] += p * m
                            else:
                                best = Vv[i, t + 1]
                                best_j = i
                                for q in range(self.edges[e].soff, self.edges[e].soff + self.edges[e].ns):
                                    v = Vv[self.succ[q], t + 1]
                                    if v > best:
                                        best = v
                                        best_j = self.succ[q]
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
        free(live); free(mass); free(mnext); free(lst); free(lall); free(pe)
        self.last_win_mass = wmass_arr
        return 0, V, curve

    def edge_table(self):
        """(owner state int32, kind int32, win int8) arrays over all edges so far."""
        cdef int64_t n = self.n_edges, i, e
        owner = np.empty(n, dtype=np.int32)
        kind = np.empty(n, dtype=np.int32)
        win = np.empty(n, dtype=np.int8)
        for i in range(self.n_states):
            if self.ne[i] < 0:
                continue
            for e in range(self.eoff[i], self.eoff[i] + self.ne[i]):
                owner[e] = i
                kind[e] = self.edges[e].kind
                win[e] = self.edges[e].win
        return owner, kind, win

    def reachable(self, int32_t root):
        """Number of states reachable from root (expanding them); negative = error code."""
        cdef int32_t* lst = NULL
        cdef int64_t n = 0
        cdef int rc
        with nogil:
            rc = self.reach(root, &lst, &n)
        free(lst)
        return rc if rc < 0 else n

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def simulate(self, int32_t root, const double[:, ::1] V, const uint8_t[:, ::1] walls,
                 int16_t[::1] win_time, int16_t[::1] tenpai_time, uint8_t[:, ::1] final,
                 int8_t[::1] win_tile):
        """Play the policy greedy in ``V`` on each wall (row = the draws in order).

        Writes ``win_time[r]`` (1..T, or -1), ``tenpai_time[r]`` (0..T, or -1: the
        first time the hand is tenpai or has won), ``final[r]`` the 13-tile hand
        when the game ended (win or horizon) and ``win_tile[r]`` (or -1).
        States are only visited if they were reached when V was solved.
        """
        cdef Py_ssize_t r, nr = walls.shape[0]
        cdef int T = walls.shape[1]
        cdef int t, k
        cdef int32_t cur, best_j, q
        cdef int64_t e, nV = V.shape[0]
        cdef double best, v
        cdef bint found
        with nogil:
            for r in range(nr):
                cur = root
                win_time[r] = -1
                win_tile[r] = -1
                tenpai_time[r] = 0 if self.shan[cur] <= 0 else -1
                for t in range(T):
                    k = walls[r, t]
                    found = False
                    for e in range(self.eoff[cur], self.eoff[cur] + self.ne[cur]):
                        if self.edges[e].kind == k:
                            found = True
                            break
                    if not found:
                        continue
                    if self.edges[e].win == 1:
                        win_time[r] = t + 1
                        win_tile[r] = k
                        break
                    best = V[cur, t + 1]
                    best_j = cur
                    for q in range(self.edges[e].soff, self.edges[e].soff + self.edges[e].ns):
                        if self.succ[q] < nV:
                            v = V[self.succ[q], t + 1]
                            if v > best:
                                best = v
                                best_j = self.succ[q]
                    cur = best_j
                    if tenpai_time[r] < 0 and self.shan[cur] <= 0:
                        tenpai_time[r] = t + 1
                memcpy(&final[r, 0], self.hands + <int64_t>cur * NK, NK)
        return 0


# ---------------------------------------------------------------------------
# Greedy policy on real walls
# ---------------------------------------------------------------------------

cdef int live_ukeire(uint8_t* h, int s, int mask, bint quads, const uint8_t* caps,
                     const int* left) noexcept nogil:
    """Live effective tiles of a 3n+1 hand of shanten s (``left`` = copies still in the wall
    as the player knows it)."""
    cdef int k, total = 0, cap
    for k in range(NK):
        if left[k] <= 0:
            continue
        cap = caps[k] if caps != NULL else 4
        if h[k] >= cap:
            continue
        h[k] += 1
        if shanten_c(h, mask, quads, caps) < s:
            total += left[k]
        h[k] -= 1
    return total


@cython.boundscheck(False)
@cython.wraparound(False)
def simulate_greedy(const uint8_t[::1] h0, const uint8_t[::1] u0, object caps, int mask,
                    bint quads, object pred, const uint8_t[:, ::1] walls,
                    int16_t[::1] win_time, int16_t[::1] tenpai_time, uint8_t[:, ::1] final,
                    int8_t[::1] win_tile):
    """Ukeire-greedy play on each wall: win whenever the predicate allows; after a
    draw that lowers shanten (or completes a hand that does not win), discard the
    tile that keeps the lowest shanten with the most live effective tiles (live =
    unseen copies minus every copy drawn so far), preferring to discard the drawn
    tile, then the lowest kind; any other draw is discarded.  Outputs as
    :meth:`Graph.simulate`.  Returns 0, or -3 when the predicate raised."""
    cdef _Pred P = pred if isinstance(pred, _Pred) else _Pred(pred)
    cdef uint8_t capsbuf[NK]
    cdef const uint8_t* cp = NULL
    cdef int i
    if caps is not None:
        for i in range(NK):
            capsbuf[i] = caps[i]
        cp = capsbuf
    cdef Py_ssize_t r, nr = walls.shape[0]
    cdef int T = walls.shape[1]
    cdef uint8_t h[NK]
    cdef int left[NK]
    cdef int t, k, d, s, s14, sd, w, target, best_d, best_u, u, rc = 0
    with nogil:
        for r in range(nr):
            memcpy(h, &h0[0], NK)
            for i in range(NK):
                left[i] = u0[i]
            s = shanten_c(h, mask, quads, cp)
            win_time[r] = -1
            win_tile[r] = -1
            tenpai_time[r] = 0 if s <= 0 else -1
            for t in range(T):
                k = walls[r, t]
                left[k] -= 1
                h[k] += 1
                s14 = shanten_c(h, mask, quads, cp)
                if s14 == -1:
                    w = P.is_win(h, k)
                    if w < 0:
                        rc = -3
                        break
                    if w == 1:
                        h[k] -= 1
                        win_time[r] = t + 1
                        win_tile[r] = k
                        break
                if s14 >= s:
                    h[k] -= 1
                    continue
                target = s14 if s14 >= 0 else 0
                best_d = k
                best_u = -1
                # the drawn tile first (kept on ties), then the other kinds in order
                h[k] -= 1
                sd = shanten_c(h, mask, quads, cp)
                if sd == target:
                    best_u = live_ukeire(h, sd, mask, quads, cp, left)
                h[k] += 1
                for d in range(NK):
                    if d == k or h[d] == 0:
                        continue
                    h[d] -= 1
                    sd = shanten_c(h, mask, quads, cp)
                    if sd == target:
                        u = live_ukeire(h, sd, mask, quads, cp, left)
                        if u > best_u:
                            best_u = u
                            best_d = d
                    h[d] += 1
                h[best_d] -= 1
                s = target
                if tenpai_time[r] < 0 and s <= 0:
                    tenpai_time[r] = t + 1
            if rc < 0:
                break
            memcpy(&final[r, 0], h, NK)
    return rc


# ---------------------------------------------------------------------------
# Unrestricted optimum in the same wall model (small horizons only: measurement)
# ---------------------------------------------------------------------------

cdef class _Unrestricted:
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
        idx = map_get(&self.memo, lo, hi)
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
        map_put(&self.memo, lo, hi, <int32_t>self.nvals)
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

# Part of probability.pyx (textually included: one compilation unit).  The
# hand-state graph of wall model S1 and backward induction over it (see the
# module docstring: restricted / unrestricted expansion, change budgets).

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


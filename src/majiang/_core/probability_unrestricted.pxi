# Part of probability.pyx (textually included: one compilation unit).  The legacy
# unrestricted optimum of the S1 model with plain options (bench measurements).

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


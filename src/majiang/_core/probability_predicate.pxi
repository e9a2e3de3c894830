# Part of probability.pyx (textually included: one compilation unit).  The win
# predicate: the ruleset's Python callable, cached per (hand, win kind, jokers).

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


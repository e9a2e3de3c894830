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

    When the callable has a ``kernel_verdict`` attribute (a :class:`~majiang._core.fans.
    WinVerdict`, set by :class:`majiang.probability.position._WinPred` where the compiled
    fan kernel's minimum-fan verdict is the ruleset's), hands without jokers are judged
    by it without the GIL; a hand it cannot judge (-1) goes to the callable.

    The first exception raised by the callable (or a signal caught by
    :meth:`check_signals`) is kept in ``error``; from then on every query fails,
    so all searches sharing this object stop."""
    cdef object fn
    cdef int nargs
    cdef Map cache
    cdef public int64_t calls
    cdef public object error
    cdef int failed
    cdef object kernel               # the WinVerdict (kept alive: vp points into it)
    cdef const Verdict* vp           # NULL: every query goes to the callable
    cdef public int64_t kernel_calls

    def __cinit__(self, fn):
        self.fn = fn
        self.kernel = getattr(fn, "kernel_verdict", None) if fn is not None else None
        self.vp = NULL
        if isinstance(self.kernel, WinVerdict):
            self.vp = &(<WinVerdict>self.kernel).v
        self.kernel_calls = 0
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
        if self.vp != NULL and j == 0 and k < NK:
            v = self._kernel_verdict(h14, k)
            if v >= 0:
                map_put(&self.cache, lo, hi, 0, v)
                return v
        with gil:
            v = self._call(h14, k, j)
        if v < 0:
            return -1
        map_put(&self.cache, lo, hi, 0, v)
        return v

    cdef int _kernel_verdict(self, const uint8_t* h14, int k) noexcept nogil:
        """The compiled verdict on ``h14`` (the drawn ``k`` included): 1, 0 or -1."""
        cdef uint8_t before[NK]
        memcpy(before, h14, NK)
        if before[k] == 0:
            return -1
        before[k] -= 1
        self.kernel_calls += 1
        return verdict_c(self.vp, before, k, 1)

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


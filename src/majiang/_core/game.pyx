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
from libc.stdint cimport uint8_t, int8_t, uint64_t

from .efficiency cimport Opts, make_opts_c, shanten_opts_c, ensure_tables

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


cdef int ukeire_live(uint8_t* h, const Opts* o, const uint8_t* live, const uint8_t* visible,
                     int s0) noexcept nogil:
    """Live copies of the kinds whose draw lowers the shanten ``s0`` of the 3n+1 hand."""
    cdef int k, left, total = 0
    for k in range(34):
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


def evaluate(const uint8_t[::1] counts, ShapeOpts so, int jokers,
             const uint8_t[::1] visible):
    """``(shanten, live ukeire)`` of a 3n+1 hand."""
    cdef uint8_t h[34]
    cdef Opts o = so.opts(jokers)
    cdef int k, s, u
    with nogil:
        for k in range(34):
            h[k] = counts[k]
        s = shanten_opts_c(h, &o)
        u = ukeire_live(h, &o, so.live, &visible[0], s)
    return s, u


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
    cdef int sh[34]
    cdef Opts o = so.opts(jokers)
    cdef int k, s, u, best_k = -1, best_s = 1000, best_u = -1, c, best_c = 100
    cdef bint has_allowed = allowed is not None
    cdef bint void_held = 0
    with nogil:
        for k in range(34):
            h[k] = counts[k]
        if 0 <= void_suit <= 2:
            for k in range(9 * void_suit, 9 * void_suit + 9):
                if h[k] and (not has_allowed or allowed[k]):
                    void_held = 1
        for k in range(34):
            sh[k] = 1000
            if h[k] == 0 or (has_allowed and not allowed[k]):
                continue
            if void_held and not (9 * void_suit <= k < 9 * void_suit + 9):
                continue
            h[k] -= 1
            sh[k] = shanten_opts_c(h, &o)
            h[k] += 1
            if sh[k] < best_s:
                best_s = sh[k]
        for k in range(34):
            if sh[k] != best_s:
                continue
            h[k] -= 1
            u = ukeire_live(h, &o, so.live, &visible[0], best_s)
            h[k] += 1
            c = centrality(k)
            if u > best_u or (u == best_u and c < best_c):
                best_u = u
                best_c = c
                best_k = k
    if best_k < 0:
        return -1, 99, 0
    return best_k, best_s, best_u

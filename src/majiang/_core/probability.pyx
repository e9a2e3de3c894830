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

Source layout
-------------
One extension module, one compilation unit; its parts are textually included, in
this order: ``probability_predicate.pxi`` (the cached win predicate),
``probability_graph.pxi`` (:class:`Graph`), ``probability_greedy.pxi`` (greedy play on
real walls), ``probability_truewall.pxi`` (the true-wall expectimax) and
``probability_unrestricted.pxi`` (the legacy unrestricted S1 optimum).  This file
holds the shared constants, the state hash map, the shape-option helpers and the
dealing kernel.
"""
from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport malloc, realloc, free, calloc
from libc.string cimport memset, memcpy
from cpython.exc cimport PyErr_CheckSignals

cimport cython
import numpy as np
cimport numpy as cnp

from .fans cimport Verdict, WinVerdict, verdict_c
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


include "probability_predicate.pxi"
include "probability_graph.pxi"
include "probability_greedy.pxi"
include "probability_truewall.pxi"
include "probability_unrestricted.pxi"


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


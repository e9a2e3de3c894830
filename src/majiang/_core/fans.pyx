# cython: language_level=3
"""Chinese Official (MCR) fan kernel: the best fan vector of a winning hand, in C.

Private module: the public, validating wrapper is :func:`majiang.scoring.score`,
which uses this kernel for rulesets whose fan table is the MCR one and keeps
the pure-Python engine as the reference (``score(..., method="python")``).

What is in C and what is data
-----------------------------
The kernel re-implements only the fan *predicates* (one small function per fan
id, ``fan_NN_...``) and the *combination* patterns (一般高, 三同刻 …, one test
per fan id, ``comb_NN_...``).  Everything else comes from the Python fan table
through :class:`FanTable` (values, the forms each fan applies in, the 不计
lists, partial reductions, the fallback fan, which fans count toward the
minimum), so the exclusion principles follow the same data as the reference:

* 不重复: fans are visited from the lowest id up; a counted fan removes the fans
  it excludes; a removed fan excludes nothing.
* 套算一次 / 不得相同: the admissible subset (at most three groups) of the
  combination groups with the best key (sum of values, distinct fans, bigger
  fans) — enumerated in the same order as the reference so ties break the same
  way.
* 就高不就低: every decomposition (special forms, then the regular ones in the
  order of :mod:`majiang._core.decompose`) and every attribution of the win
  tile (edge < closed < pair < open < pung < special, then set order) is
  scored; the first with the strictly highest total wins.

Tiles are kinds 0..33; melds are ``(kind, tile, concealed)`` with kind 0 chow,
1 pung, 2 kong.  Inputs are validated by the caller except for the checks the
reference makes on the win context (hand size, fifth copy, kong / last-copy
contradictions): the kernel reports those as "invalid" so that the caller can
raise the reference error.

Source layout
-------------
One extension module, one compilation unit (so the predicates inline into the
search); its parts are textually included, in this order: ``fans_predicates.pxi``
(one predicate per fan id), ``fans_combinations.pxi`` (combination patterns, the
best admissible groups, the evaluation of one reading with the 不计 lists),
``fans_complete.pxi`` (completeness, the unique-wait test), ``fans_walk.pxi`` (every
decomposition and win-tile attribution), ``fans_results.pxi`` (:class:`FanTable`,
:class:`KernelResult`) and ``fans_verdict.pxi`` (:class:`WinVerdict`: the minimum-fan
verdict for callers without the GIL).  ``fans.pxd`` declares the structs other core
modules share (the fan table, one hand's input) and :func:`verdict_c`; this file holds
the other tables and structs and the entry points :func:`score_hand` and
:func:`score_batch`.
"""
from itertools import permutations

from libc.stdint cimport uint8_t, int8_t, int32_t
from libc.string cimport memset, memcpy

cdef extern from *:
    int ctz64 "__builtin_ctzll"(unsigned long long) nogil
    int clz64 "__builtin_clzll"(unsigned long long) nogil

cimport cython
cimport numpy as cnp
import numpy as np

cnp.import_array()

# forms (bit i of a form mask)
cdef enum:
    F_REG = 0
    F_SP = 1
    F_TO = 2
    F_HK = 3
    F_KS = 4

# where the win tile sits (the reference's tie order)
cdef enum:
    P_EDGE = 0
    P_CLOSED = 1
    P_PAIR = 2
    P_OPEN = 3
    P_PUNG = 4
    P_SPECIAL = 5

cdef enum:
    K_CHOW = 0
    K_PUNG = 1
    K_KONG = 2

# fan kinds in the table
cdef enum:
    FK_ABSENT = 0
    FK_PRED = 1
    FK_COMB = 2

# kernel status
cdef enum:
    ST_OK = 0
    ST_INVALID = 1        # the context contradicts the hand (the caller raises)
    ST_NOT_WINNING = 2

# win_set codes besides a set index
cdef enum:
    WS_PAIR = -1
    WS_NONE = -2

N_FAN_IDS = NF
"""Length of a fan vector indexed by fan id: ids 1..81 (the official fans) and 82
(明暗杠, the ruleset option ``concealed_and_melded_kong``); index 0 unused."""

FORMS = ("regular", "seven_pairs", "thirteen_orphans", "honors_and_knitted", "knitted_straight")
"""Form names by kernel code."""
POSITIONS = ("edge", "closed", "pair", "open", "pung", "special")
"""Win positions by kernel code (also the tie order of attributions)."""
KINDS = ("chow", "pung", "kong")
"""Set kinds by kernel code."""

# fan ids implemented as predicates / as combinations (the C side of the contract)
PREDICATE_IDS = frozenset((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 17, 18, 19, 20, 21, 22,
                           25, 26, 27, 29, 31, 33, 34, 35, 36, 37, 38, 40, 43, 44, 45, 46, 47,
                           48, 49, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 66,
                           67, 68, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82))
COMBINATION_IDS = frozenset((14, 15, 16, 23, 24, 28, 30, 32, 39, 41, 42, 50, 65, 69, 70, 71, 72))

# ---------------------------------------------------------------- structs
ctypedef struct Cand:
    int form
    int n_sets               # melds first, then the concealed sets
    int skind[4]
    int stile[4]
    int sconc[4]
    int n_csets
    int pair                 # -1: none
    int n_pairs
    int pairs[7]
    int n_knit
    int knit[9]
    int win_set              # set index, WS_PAIR or WS_NONE
    int pos
    int uw

ctypedef struct Result:
    int status
    int total
    int total_min
    int last_copy            # effective 和绝张 (implied by three exposed copies)
    uint8_t fans[NF]         # counts of the fans in present (other entries stale)
    u64 present[2]           # the counted fans as a bit set over ids
    Cand best

# everything a predicate reads: per-hand facts + the current reading
ctypedef struct W:
    # per hand
    int mask                 # 1 m, 2 p, 4 s, 8 winds, 16 dragons
    int green
    int term
    int termhonor
    int honors_only
    int reversible
    int simples
    int has_honor
    int rlo
    int rhi
    int n4
    int nine_gates
    int n_exposed
    int self_drawn
    int last_copy
    int kong
    int last_tile
    int seat
    int prevalent
    int flowers
    # per reading
    int form
    int pair
    int n_pairs
    int pairs[7]
    int n_knit
    int pos
    int uw
    int nch
    int chows[4]             # sorted
    int npg
    int pungs[4]             # sorted (kongs included)
    int wind
    int drag
    int cp
    int mk
    int ck

cdef int KS[6][9]

def _init_knitted():
    cdef int i = 0, j
    for groups in permutations(range(3)):
        ts = sorted(suit * 9 + g + 3 * k for suit, g in enumerate(groups) for k in range(3))
        for j in range(9):
            KS[i][j] = ts[j]
        i += 1

_init_knitted()


def knitted_straights():
    """The six knitted straights in kernel order (checked against rules.knitted)."""
    return tuple(tuple(KS[i][j] for j in range(9)) for i in range(6))


# ---------------------------------------------------------------- tile classes
cdef inline bint is_terminal(int t) noexcept nogil:
    return t < 27 and (t % 9 == 0 or t % 9 == 8)

cdef inline bint is_term_honor(int t) noexcept nogil:
    return t >= 27 or t % 9 == 0 or t % 9 == 8

cdef inline bint is_green(int t) noexcept nogil:
    return t == 19 or t == 20 or t == 21 or t == 23 or t == 25 or t == 32

cdef inline bint is_reversible(int t) noexcept nogil:
    # 1234589p 245689s 白
    if 9 <= t <= 17:
        return t <= 13 or t >= 16
    if 18 <= t <= 26:
        return t == 19 or t == 21 or t == 22 or t == 23 or t == 25 or t == 26
    return t == 31


cdef u64 M_GREEN = 0, M_TERM = 0, M_TERM_HONOR = 0, M_REVERSIBLE = 0, M_HONORS = 0

def _init_masks():
    global M_GREEN, M_TERM, M_TERM_HONOR, M_REVERSIBLE, M_HONORS
    cdef int t
    for t in range(NK):
        if is_green(t):
            M_GREEN |= (<u64>1) << t
        if is_terminal(t):
            M_TERM |= (<u64>1) << t
        if is_term_honor(t):
            M_TERM_HONOR |= (<u64>1) << t
        if is_reversible(t):
            M_REVERSIBLE |= (<u64>1) << t
        if t >= 27:
            M_HONORS |= (<u64>1) << t

_init_masks()


include "fans_predicates.pxi"
include "fans_combinations.pxi"
include "fans_complete.pxi"
include "fans_walk.pxi"
include "fans_results.pxi"
include "fans_verdict.pxi"


# ---------------------------------------------------------------- entry points
cdef inline int meld_kind(object k) except -1:
    if k == "chow":
        return K_CHOW
    if k == "pung":
        return K_PUNG
    if k == "kong":
        return K_KONG
    raise ValueError(f"unknown meld kind {k!r}")


cdef inline int small_int(object x, int lo, int hi) except -2:
    """x when it is an exact int in lo..hi, else -1 (bools and other types too)."""
    cdef long v
    if type(x) is not int:
        return -1
    try:
        v = x
    except OverflowError:
        return -1
    return <int>v if lo <= v <= hi else -1


@cython.boundscheck(False)
@cython.wraparound(False)
def score_hand(FanTable table, object ruleset, object hand, object win, bint self_drawn,
               bint last_copy, bint kong, bint last_tile, object seat_wind,
               object prevalent_wind, object flowers):
    """Best reading of a winning hand, or None when the reference engine must run.

    Parameters
    ----------
    table : FanTable
    ruleset : object
        Kept on the result (:attr:`KernelResult.ruleset`) for the caller.
    hand : object
        A hand before the win with ``concealed`` (uint8 ndarray, shape (34,),
        C-contiguous), ``melds`` (tuple of objects with ``kind`` "chow" / "pung" /
        "kong", ``tile`` and ``concealed``), ``flowers`` (sized) and ``jokers``.
    win : int
        Kind 0..33 (an exact int).
    self_drawn, last_copy, kong, last_tile : bool
    seat_wind, prevalent_wind : int
        0..3 (exact ints).
    flowers : int
        Flowers declared with the win (0 = those of the hand).

    Returns
    -------
    KernelResult or None
        None for anything the fast checks do not cover (other input types, jokers,
        a flower count that disagrees with the hand or exceeds the table's) and for
        everything the reference engine rejects (hand size, fifth copy, a
        contradicting context, not a winning hand): the caller runs the reference,
        which raises the right error.
    """
    cdef HandIn h
    cdef int i, nm, nf, fl
    cdef const uint8_t* data
    cdef object concealed, melds
    cdef cnp.ndarray arr
    try:
        concealed = hand.concealed
        melds = hand.melds
        nf = len(hand.flowers)
        if hand.jokers:
            return None
    except AttributeError:
        return None
    if type(concealed) is not np.ndarray or type(melds) is not tuple:
        return None
    arr = <cnp.ndarray>concealed
    nm = len(<tuple>melds)
    if (cnp.PyArray_TYPE(arr) != cnp.NPY_UINT8 or cnp.PyArray_SIZE(arr) != NK
            or not cnp.PyArray_IS_C_CONTIGUOUS(arr) or nm > 4):
        return None
    h.win = small_int(win, 0, NK - 1)
    h.seat = small_int(seat_wind, 0, 3)
    h.prevalent = small_int(prevalent_wind, 0, 3)
    fl = small_int(flowers, 0, 8)
    if h.win < 0 or h.seat < 0 or h.prevalent < 0 or fl < 0:
        return None
    if nf:
        if fl and fl != nf:
            return None
        fl = nf
    if fl > table.max_flowers:
        return None
    h.flowers = fl
    data = <const uint8_t*>cnp.PyArray_DATA(arr)
    for i in range(NK):
        h.before[i] = data[i]
        if data[i] > 4:
            return None
    h.n_melds = nm
    for i in range(nm):
        m = (<tuple>melds)[i]
        h.mkind[i] = meld_kind(m.kind)
        h.mtile[i] = m.tile
        h.mconc[i] = m.concealed
        if not 0 <= h.mtile[i] < NK or (h.mkind[i] == K_CHOW and
                                        (h.mtile[i] >= 27 or h.mtile[i] % 9 > 6)):
            return None
    h.self_drawn = self_drawn
    h.last_copy = last_copy
    h.kong = kong
    h.last_tile = last_tile
    cdef KernelResult res = KernelResult.__new__(KernelResult)
    if score_core(&table.t, &h, &res.r) != ST_OK:
        return None
    res.n_melds = nm
    res.h = h
    res.hand = hand
    res.ruleset = ruleset
    return res


@cython.boundscheck(False)
@cython.wraparound(False)
def score_batch(FanTable table, const uint8_t[:, ::1] concealed, const int8_t[:, :, ::1] melds,
                const uint8_t[:, ::1] context, uint8_t[:, ::1] fans, int32_t[::1] totals,
                int32_t[::1] totals_min, int8_t[::1] status):
    """Score N hands without the GIL (inputs validated by the caller).

    concealed (N, 34) uint8 before the win; melds (N, 4, 3) int8 rows
    ``(kind, tile, concealed)`` with kind -1 for no meld (melds first); context
    (N, 9) uint8 rows ``(win, self_drawn, last_copy, kong, last_tile, seat,
    prevalent, flowers, unused)``.  Writes fans (N, N_FAN_IDS) uint8, totals,
    totals_min (N,) int32 and status (N,) int8 (0 ok, 1 invalid context, 2 not
    a winning hand).
    """
    cdef Py_ssize_t n = concealed.shape[0], j
    cdef int i
    cdef HandIn h
    cdef Result r
    cdef const Table* tb = &table.t
    if fans.shape[0] < n or fans.shape[1] != NF:
        raise ValueError(f"fans must have shape ({n}, {NF})")
    with nogil:
        for j in range(n):
            for i in range(NK):
                h.before[i] = concealed[j, i]
            h.n_melds = 0
            for i in range(4):
                if melds[j, i, 0] < 0:
                    break
                h.mkind[i] = melds[j, i, 0]
                h.mtile[i] = melds[j, i, 1]
                h.mconc[i] = melds[j, i, 2]
                h.n_melds += 1
            h.win = context[j, 0]
            h.self_drawn = context[j, 1]
            h.last_copy = context[j, 2]
            h.kong = context[j, 3]
            h.last_tile = context[j, 4]
            h.seat = context[j, 5]
            h.prevalent = context[j, 6]
            h.flowers = context[j, 7]
            status[j] = score_core(tb, &h, &r)
            if status[j] == ST_OK:
                for i in range(NF):
                    fans[j, i] = fan_count(&r, i)
                totals[j] = r.total
                totals_min[j] = r.total_min
            else:
                memset(&fans[j, 0], 0, NF)
                totals[j] = 0
                totals_min[j] = 0


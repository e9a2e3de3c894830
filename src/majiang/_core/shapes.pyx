# cython: language_level=3
"""Shanten and ukeire under regional shape rules: the compiled port of
``majiang.rules.shapes`` (which stays the reference implementation).

Private module: the validating wrappers live in ``majiang.rules.shapes``
(``core_form_shanten``, ``core_shanten_counts``, ``core_ukeire_counts`` and the
ruleset-level functions).  Every result equals the Python engine's (tests/test_shapes_core.py).

Definition (the Python engine's)
--------------------------------
A hand of ``n`` concealed tiles (jokers included) needs ``M = n // 3`` sets and a
pair.  For a form, ``kept`` is the most tiles of the hand that a complete target
multiset ``T`` of that form can keep (``sum(min(T, h))``, ``T`` within the caps);
the form's shanten is ``max(-1, 3M + 2 - kept - jokers - 1)`` (the extra forms
十三烂 / 七星归位 take no jokers), 99 when no target exists.

* **regular**: ``3M + 2 - kept`` is the least tiles to add, the sum over the four
  groups (three suits, the honors) of per-group distances for ``m`` sets and an
  optional pair; the per-group rows come from the core's tables or its programme
  (``efficiency.group_row``) under the caps and the pair pattern (二五八将: ranks 2,
  5, 8 of a suit, no honor pair), and are combined here by min-plus.  With honour
  chows (南昌: three different winds or the three dragons, ``ShapeSpec(honor_chows=)``)
  the honours' row is computed here instead (:func:`honor_chow_row`: every target of
  the winds and of the dragons, combined by min-plus).  缺一门
  (``void``): the least over the suits without a meld of the combination that leaves
  that suit out.  ``no_void``: a suit with no meld must take part (its "no set, no
  pair" entry is dropped).
* **seven pairs** (kinds with cap >= 2; a second pair of a kind with ``quads`` and
  cap 4), **thirteen orphans**, **十三烂** (14 singles: a suit's tiles pairwise at
  least 3 ranks apart, distinct honors) and **七星归位** (十三烂 with all seven honors):
  closed forms, on a fully concealed 14-tile hand only; never with a void suit
  except seven pairs (the kinds of one suit left out).
* **a count of jokers** (三金倒 / 三财神 with three, 广东 四鬼胡 with four, ``need``):
  ``max(-1 if n % 3 == 2 else 0, need - 1 - jokers)``.

Ukeire recomputes only the group a draw changes; a discard table keeps each distinct
group row it computed (rows of five sets run the programme, so 16-tile hands reuse them).

One extension module, one compilation unit: the whole-hand forms' kept counts (and
their 十三烂 pattern tables) are the textually included part ``shapes_forms.pxi``.
"""
from libc.stdint cimport uint8_t, int8_t, int16_t, uint64_t
from libc.string cimport memset, memcpy

cimport cython
import numpy as np

cdef extern from *:
    int popcount64 "__builtin_popcountll"(unsigned long long) nogil
cimport numpy as cnp

from .efficiency cimport (N_KINDS, ensure_tables, ensure_pair_tables,
                          group_row)

cnp.import_array()

cdef enum:
    F_REGULAR = 1
    F_SEVEN_PAIRS = 2
    F_ORPHANS = 4
    F_LONELY = 8
    F_STARS = 16
    F_THREE_JOKERS = 32
    N_FORMS = 6
    GROW = 12             # group row: m * 2 + p, m = 0..5
    GINF = 100            # group row entries >= GINF are impossible
    NO_FORM = 99          # shanten of an impossible form (the Python engine's value)
    NEG = -1000           # "no target" in kept counts (the Python engine's _NEG)
    MEMO = 512            # group rows kept per ukeire / discard-table call

FORM_BITS = {"regular": F_REGULAR, "seven_pairs": F_SEVEN_PAIRS,
             "thirteen_orphans": F_ORPHANS, "thirteen_lonely": F_LONELY,
             "seven_stars": F_STARS}
"""The forms this module computes (bit per form); others stay in the Python engine."""
JOKER_DRAW = -1
"""Key of a helpful joker draw in the ukeire dicts (as in the Python engine)."""
FORM_ORDER = ("regular", "seven_pairs", "thirteen_orphans", "thirteen_lonely",
              "seven_stars", "three_jokers")
"""Slot of each form in the per-form output of :func:`form_shanten`."""


cdef struct Shape:
    int forms             # F_* bits of the computed forms (three jokers included)
    int joker_win         # jokers held that win at once (3 or 4) with F_THREE_JOKERS
    bint quads            # seven pairs may use a kind twice (cap 4)
    bint void             # 缺一门: the complete hand lacks one suit
    bint no_void          # every suit present (a suit held in a meld counts)
    int pair_bits[4]      # positions of each group that may hold the regular pair
    bint honor_chows      # three different winds / the three dragons are a set (南昌)
    uint8_t copies[N_KINDS]


cdef struct Pos:
    # one query: concealed real tiles, caps, jokers, melds, the sets needed
    uint8_t c[40]         # counts of the 34 kinds, then 6 zero bytes (ge_bits reads 40)
    uint8_t caps[40]      # the same for the caps
    int jokers
    int n_melds
    int meld_bits         # suits (bit 0 万, 1 筒, 2 条) held in the melds
    int n                 # concealed tiles, jokers included (3M + 1 or 3M + 2)
    int M                 # sets needed (n // 3)
    # bit k of: held >= 1, >= 2, >= 3, == 4 copies (kept by set_count); cap >= 1, 2, 4
    uint64_t m1, m2, m3, m4, cap1, cap2, cap4


cdef struct Memo:
    # group rows already computed in this call (caps, pattern and M fixed per call)
    uint64_t key[MEMO]    # 0 = empty; else 1 + group + 4 * (base-5 group vector)
    uint8_t row[MEMO][GROW]


cdef inline void set_count(Pos* p, int k, int v) noexcept nogil:
    """p.c[k] = v, keeping the held-count masks."""
    cdef uint64_t b = <uint64_t>1 << k
    p.c[k] = <uint8_t>v
    p.m1 = (p.m1 & ~b) | (b if v >= 1 else 0)
    p.m2 = (p.m2 & ~b) | (b if v >= 2 else 0)
    p.m3 = (p.m3 & ~b) | (b if v >= 3 else 0)
    p.m4 = (p.m4 & ~b) | (b if v >= 4 else 0)


cdef inline uint64_t ge_bits(const uint8_t* c, int t) noexcept nogil:
    """Bit k set when c[k] >= t (1 <= t <= 4), for 40 bytes of counts 0..4 (34..39 zero):
    eight counts at a time, each byte plus 0x80 - t carries into its top bit exactly
    when it is >= t (no byte overflows), and a multiply gathers the top bits."""
    cdef uint64_t w, x, out = 0, add = <uint64_t>(0x80 - t) * <uint64_t>0x0101010101010101
    cdef int i
    for i in range(5):
        memcpy(&w, c + 8 * i, 8)
        x = ((w + add) >> 7) & <uint64_t>0x0101010101010101
        out |= ((x * <uint64_t>0x0102040810204080) >> 56) << (8 * i)
    return out


cdef inline void held_masks(Pos* p) noexcept nogil:
    p.m1 = ge_bits(p.c, 1)
    p.m2 = ge_bits(p.c, 2)
    p.m3 = ge_bits(p.c, 3)
    p.m4 = ge_bits(p.c, 4)


cdef inline void cap_masks(Pos* p) noexcept nogil:
    p.cap1 = ge_bits(p.caps, 1)
    p.cap2 = ge_bits(p.caps, 2)
    p.cap4 = ge_bits(p.caps, 4)


cdef inline bint whole_forms(const Shape* sp, const Pos* p) noexcept nogil:
    """Whether the whole-hand forms (and so the masks) are computed for ``p``."""
    return (sp.forms & (F_SEVEN_PAIRS | F_ORPHANS | F_LONELY | F_STARS)) != 0 \
        and p.n_melds == 0 and p.M == 4


cdef inline int imin(int a, int b) noexcept nogil:
    return a if a < b else b


cdef inline int imax(int a, int b) noexcept nogil:
    return a if a > b else b


# ---------------------------------------------------------------------------
# The regular form: group rows combined under the suit rules
# ---------------------------------------------------------------------------

cdef inline int group_lo(int g) noexcept nogil:
    return 9 * g


cdef inline int group_n(int g) noexcept nogil:
    return 9 if g < 3 else 7


cdef void fill_row(const Shape* sp, const Pos* p, int g, Memo* memo,
                   uint8_t* out) noexcept nogil:
    """Row of group ``g`` for the counts ``p.c`` (from ``memo`` when it has it)."""
    cdef uint64_t key = 0
    cdef int i, probe, slot = 0
    if memo != NULL:
        for i in range(group_n(g)):
            key = key * 5 + p.c[group_lo(g) + i]
        key = 1 + <uint64_t>g + 4 * key
        slot = <int>((key * <uint64_t>0x9E3779B97F4A7C15) >> 55)     # 9 bits: 0..511
        for probe in range(8):          # linear probing, a few slots (then not kept)
            if memo.key[slot] == key:
                memcpy(out, memo.row[slot], GROW)
                return
            if memo.key[slot] == 0:
                break
            slot = (slot + 1) & (MEMO - 1)
    if g == 3 and sp.honor_chows:
        honor_chow_row(p.c + 27, p.caps + 27, p.M, sp.pair_bits[3], out)
    else:
        group_row(p.c, p.caps, g, p.M, sp.pair_bits[g], out)
    if memo != NULL and memo.key[slot] == 0:
        memo.key[slot] = key
        memcpy(memo.row[slot], out, GROW)


# Honour chows: the targets of the winds (4 kinds: pungs and any three different winds)
# and of the dragons (3 kinds: pungs and the three dragons), each a distinct (counts,
# sets) of at most 5 sets, no count above 4 (filled once at import).
cdef int N_WIND_T = 0
cdef int N_DRAGON_T = 0
cdef uint8_t WIND_T[256][4]        # 136 targets
cdef uint8_t WIND_N[256]
cdef uint8_t DRAGON_T[32][3]       # 17 targets
cdef uint8_t DRAGON_N[32]


def _init_honor_targets():
    global N_WIND_T, N_DRAGON_T
    from itertools import combinations_with_replacement
    for npos, chows, name in ((4, ((0, 1, 2), (1, 2, 3), (0, 2, 3), (0, 1, 3)), "w"),
                              (3, ((0, 1, 2),), "d")):
        sets = []
        for r in range(npos):
            v = [0] * npos
            v[r] = 3
            sets.append(v)
        for trio in chows:
            sets.append([1 if r in trio else 0 for r in range(npos)])
        seen = set()
        for k in range(6):
            for combo in combinations_with_replacement(range(len(sets)), k):
                v = tuple(sum(sets[i][r] for i in combo) for r in range(npos))
                if max(v, default=0) > 4 or (v, k) in seen:
                    continue
                seen.add((v, k))
                if len(seen) > (256 if name == "w" else 32):
                    raise RuntimeError("honour chow targets exceed their arrays")
                if name == "w":
                    for r in range(4):
                        WIND_T[N_WIND_T][r] = v[r]
                    WIND_N[N_WIND_T] = k
                    N_WIND_T += 1
                else:
                    for r in range(3):
                        DRAGON_T[N_DRAGON_T][r] = v[r]
                    DRAGON_N[N_DRAGON_T] = k
                    N_DRAGON_T += 1


_init_honor_targets()


cdef void targets_row(const uint8_t* h, const uint8_t* caps, int npos, const uint8_t* T,
                      const uint8_t* TN, int nt, int M, int pair_bits,
                      int* out) noexcept nogil:
    """``out[m * 2 + p]`` (GROW entries): least tiles to add to the ``npos`` counts ``h``
    for a target of ``T`` (rows of ``npos`` counts, ``TN`` their sets) with m <= M sets
    (+ a pair on a position of ``pair_bits`` when p) within ``caps``; GINF = none."""
    cdef int t, i, r, n, kept, k2, ok
    for i in range(GROW):
        out[i] = GINF
    for t in range(nt):
        n = TN[t]
        if n > M:
            continue
        ok = 1
        kept = 0
        for i in range(npos):
            if T[t * npos + i] > caps[i]:
                ok = 0
                break
            kept += imin(T[t * npos + i], h[i])
        if not ok:
            continue
        out[n * 2] = imin(out[n * 2], 3 * n - kept)
        for r in range(npos):
            if not ((pair_bits >> r) & 1) or T[t * npos + r] + 2 > caps[r]:
                continue
            k2 = kept - imin(T[t * npos + r], h[r]) + imin(T[t * npos + r] + 2, h[r])
            out[n * 2 + 1] = imin(out[n * 2 + 1], 3 * n + 2 - k2)


cdef void honor_chow_row(const uint8_t* h, const uint8_t* caps, int M, int pair_bits,
                         uint8_t* out) noexcept nogil:
    """The honours' group row (as ``efficiency.group_row``: ``out[m * 2 + p]``, GINF or
    more impossible, every m above ``M`` too) when honour chows are sets: the winds' and
    the dragons' rows (:func:`targets_row`) combined by min-plus."""
    cdef int w[GROW]
    cdef int d[GROW]
    cdef int c[GROW]
    cdef int i
    targets_row(h, caps, 4, &WIND_T[0][0], WIND_N, N_WIND_T, M, pair_bits & 0xF, w)
    targets_row(h + 4, caps + 4, 3, &DRAGON_T[0][0], DRAGON_N, N_DRAGON_T, M,
                (pair_bits >> 4) & 0x7, d)
    minplus(w, d, c, imin(M, 5))
    for i in range(GROW):
        out[i] = <uint8_t>imin(c[i], GINF)


cdef inline void minplus(const int* A, const int* B, int* C, int M) noexcept nogil:
    """C[m * 2 + p] = least A[m1, p1] + B[m2, p2] over m1 + m2 = m <= M, p1 + p2 = p <= 1
    (entries >= GINF are impossible; their sums stay >= GINF)."""
    cdef int m1, m2, i
    for i in range(GROW):
        C[i] = 4 * GINF
    for m1 in range(M + 1):
        for m2 in range(M + 1 - m1):
            i = (m1 + m2) * 2
            C[i] = imin(C[i], A[m1 * 2] + B[m2 * 2])
            C[i + 1] = imin(C[i + 1], imin(A[m1 * 2] + B[m2 * 2 + 1],
                                           A[m1 * 2 + 1] + B[m2 * 2]))


cdef int combine_rows(const Shape* sp, const uint8_t* rows, int M, int meld_bits,
                      int void) noexcept nogil:
    """Least tiles to add for M sets + a pair from the four group rows (``rows[g * GROW +
    m * 2 + p]``), leaving out group ``void`` (-1: none: its row becomes "nothing"); with
    ``no_void`` a suit other than ``void`` and without a meld must hold a set or the
    pair (its "no set, no pair" entry is dropped)."""
    cdef int r[4][GROW]
    cdef int c01[GROW]
    cdef int c23[GROW]
    cdef int g, i, m, best = GINF
    for g in range(4):
        if g == void:
            for i in range(GROW):
                r[g][i] = GINF
            r[g][0] = 0
            continue
        for i in range(GROW):
            r[g][i] = rows[g * GROW + i]
        if sp.no_void and g < 3 and not ((meld_bits >> g) & 1):
            r[g][0] = GINF
    minplus(r[0], r[1], c01, M)
    minplus(r[2], r[3], c23, M)
    for m in range(M + 1):
        best = imin(best, imin(c01[m * 2] + c23[(M - m) * 2 + 1],
                               c01[m * 2 + 1] + c23[(M - m) * 2]))
    return best


cdef int regular_distance(const Shape* sp, const uint8_t* rows, const Pos* p) noexcept nogil:
    """Least tiles to add for the regular form (GINF or more: impossible)."""
    cdef int v, best = GINF
    if not sp.void:
        return combine_rows(sp, rows, p.M, p.meld_bits, -1)
    for v in range(3):
        if not ((p.meld_bits >> v) & 1):       # a suit in a meld is never the void one
            best = imin(best, combine_rows(sp, rows, p.M, p.meld_bits, v))
    return best


# ---------------------------------------------------------------------------
# Whole-hand forms (fully concealed 14-tile hands): tiles kept, NEG if impossible
# ---------------------------------------------------------------------------

include "shapes_forms.pxi"


# ---------------------------------------------------------------------------
# Shanten per form
# ---------------------------------------------------------------------------

cdef inline int from_distance(int d, int jokers) noexcept nogil:
    if d >= GINF:
        return NO_FORM
    return imax(-1, d - jokers - 1)


cdef inline int from_kept(int kept, int need, int jokers) noexcept nogil:
    if kept <= NEG // 2:
        return NO_FORM
    return imax(-1, need - kept - jokers - 1)


cdef int shanten_rows(const Shape* sp, const Pos* p, const uint8_t* rows,
                      int* per) noexcept nogil:
    """Least shanten over the forms; ``per`` (N_FORMS slots, or NULL) gets each form's,
    -100 for a form not computed (not in the spec, or a whole-hand form of a hand with
    melds or of another size).  Without ``per``, 十三烂 / 七星 are skipped when they
    cannot go below the other forms (they keep at most one tile per kind held)."""
    cdef int i, k, s, v, best = NO_FORM, kept, kept7, kinds
    cdef bint whole = p.n_melds == 0 and p.M == 4
    cdef int vals[N_FORMS]
    for i in range(N_FORMS):
        vals[i] = -100
    if sp.forms & F_REGULAR:
        vals[0] = from_distance(regular_distance(sp, rows, p), p.jokers)
    if sp.forms & F_THREE_JOKERS:
        vals[5] = imax(-1 if p.n % 3 == 2 else 0, sp.joker_win - 1 - p.jokers)
    if whole:
        if sp.forms & F_SEVEN_PAIRS:
            kept = NEG
            if sp.void:
                for s in range(3):
                    if not ((p.meld_bits >> s) & 1):
                        kept = imax(kept, seven_pairs_kept(sp, p, s))
            else:
                kept = seven_pairs_kept(sp, p, -1)
            vals[1] = from_kept(kept, 14, p.jokers)
        if sp.forms & F_ORPHANS:
            vals[2] = NO_FORM if sp.void else from_kept(orphans_kept(p), 14, p.jokers)
        if sp.forms & (F_LONELY | F_STARS) and not sp.void:
            if per == NULL:
                for i in range(N_FORMS):
                    if vals[i] != -100 and vals[i] < best:
                        best = vals[i]
                kinds = popcount64(p.m1)
                if 13 - kinds >= best:      # shanten >= 14 - kinds - 1: no lower
                    return best
            lonely_kept(p, &kept, &kept7)
            if sp.forms & F_LONELY:
                vals[3] = from_kept(kept, 14, 0)
            if sp.forms & F_STARS:
                vals[4] = from_kept(kept7, 14, 0)
        elif sp.forms & F_LONELY:
            vals[3] = NO_FORM
        if sp.void and sp.forms & F_STARS:
            vals[4] = NO_FORM
    for i in range(N_FORMS):
        if vals[i] != -100 and vals[i] < best:
            best = vals[i]
        if per != NULL:
            per[i] = vals[i]
    return best


cdef void all_rows(const Shape* sp, const Pos* p, Memo* memo, uint8_t* rows) noexcept nogil:
    cdef int g
    for g in range(4):
        fill_row(sp, p, g, memo, rows + g * GROW)


cdef int shanten_pos(const Shape* sp, const Pos* p, int* per) noexcept nogil:
    cdef uint8_t rows[4 * GROW]
    all_rows(sp, p, NULL, rows)
    return shanten_rows(sp, p, rows, per)


cdef int draws_c(const Shape* sp, Pos* p, Memo* memo, const uint8_t* rows, int s0,
                 int8_t* better) noexcept nogil:
    """better[k] = 1 if drawing a real k (within its cap) lowers the shanten ``s0`` of the
    3n+1 position ``p`` (``rows``: its group rows); returns 1 if drawing a joker does."""
    cdef uint8_t work[4 * GROW]
    cdef int k, g, s
    memcpy(work, rows, 4 * GROW)
    for k in range(N_KINDS):
        better[k] = 0
        if p.c[k] >= p.caps[k]:
            continue
        g = k // 9 if k < 27 else 3
        set_count(p, k, p.c[k] + 1)
        p.n += 1
        fill_row(sp, p, g, memo, work + g * GROW)
        s = shanten_rows(sp, p, work, NULL)
        set_count(p, k, p.c[k] - 1)
        p.n -= 1
        memcpy(work + g * GROW, rows + g * GROW, GROW)
        if s < s0:
            better[k] = 1
    p.jokers += 1
    p.n += 1
    s = shanten_rows(sp, p, rows, NULL)
    p.jokers -= 1
    p.n -= 1
    return 1 if s < s0 else 0


# ---------------------------------------------------------------------------
# Python-facing objects (inputs validated by majiang.rules.shapes)
# ---------------------------------------------------------------------------

cdef class ShapeSpec:
    """A shape spec in C form (``majiang.rules.shapes.Spec`` compiled once per spec)."""
    cdef Shape s
    cdef readonly bint unknown_forms    # a form this module does not compute (knitted)

    def __init__(self, forms, bint quads, copies, bint void, bint pair_258, bint no_void,
                 three_jokers, bint honor_chows=False):
        # three_jokers: jokers held that win at once (3 三金倒 / 三财神, 4 四鬼胡; True = 3),
        # 0 / False for none
        cdef int k, g
        self.s.forms = 0
        self.unknown_forms = False
        for f in forms:
            if f in FORM_BITS:
                self.s.forms |= FORM_BITS[f]
            else:
                self.unknown_forms = True
        self.s.joker_win = 3 if three_jokers is True else int(three_jokers)
        if self.s.joker_win:
            self.s.forms |= F_THREE_JOKERS
        self.s.quads = quads
        self.s.void = void
        self.s.no_void = no_void
        self.s.honor_chows = honor_chows
        if len(copies) != N_KINDS:
            raise ValueError("copies: 34 entries")
        for k in range(N_KINDS):
            if not 0 <= copies[k] <= 4:     # the rows, masks and memo keys take 0..4
                raise ValueError("copies: 0..4 a kind")
            self.s.copies[k] = <uint8_t>int(copies[k])
        for g in range(3):
            self.s.pair_bits[g] = 0x92 if pair_258 else 0x1FF    # ranks 2, 5, 8
        self.s.pair_bits[3] = 0 if pair_258 else 0x7F
        ensure_tables()
        if pair_258:
            ensure_pair_tables(sum(1 << (9 * g + r) for g in range(3) for r in (1, 4, 7)))


cdef const uint8_t* u8_34(object a) except NULL:
    """The data of a C-contiguous uint8 array of 34 entries (else ValueError)."""
    if not (cnp.PyArray_Check(a) and cnp.PyArray_TYPE(a) == cnp.NPY_UINT8
            and cnp.PyArray_SIZE(a) == N_KINDS and cnp.PyArray_ISCARRAY_RO(a)):
        raise ValueError("a uint8 array of 34 counts")
    return <const uint8_t*>cnp.PyArray_DATA(a)


cdef int load_pos(Pos* p, const Shape* sp, object counts, int jokers, object caps,
                  int n_melds, int meld_bits, int residue=0) except -1:
    """Fill ``p``; 0, or raise ValueError naming the problem (the wrapper words it).
    ``residue`` 1 or 2: the hand must hold 3n + residue tiles (0: either).  Every array
    index below rests on these checks: counts within caps <= 4, n <= 17 so M <= 5."""
    cdef int k, n = 0, cap
    cdef const uint8_t* cv = u8_34(counts)
    memset(p.c, 0, sizeof(p.c))
    memset(p.caps, 0, sizeof(p.caps))
    cdef const uint8_t* kv = NULL
    if caps is not None:
        kv = u8_34(caps)
    for k in range(N_KINDS):
        cap = sp.copies[k]
        if kv != NULL and kv[k] < cap:
            cap = kv[k]
        p.caps[k] = <uint8_t>cap
        if cv[k] > cap:
            raise ValueError(f"kind {k}")
        p.c[k] = cv[k]
        n += cv[k]
    if jokers < 0 or jokers > 17:      # (and no int overflow in n below)
        raise ValueError("jokers")
    n += jokers
    if n % 3 == 0 or n > 17 or (residue and n % 3 != residue):
        raise ValueError("size")
    p.jokers = jokers
    p.n_melds = n_melds
    p.meld_bits = meld_bits & 7
    p.n = n
    p.M = n // 3
    held_masks(p)           # kept up to date by set_count from here on
    cap_masks(p)
    return 0


def form_shanten(ShapeSpec spec, counts, int jokers=0, caps=None, int n_melds=0,
                 int meld_bits=0):
    """Per-form shanten, int16 (6,) in FORM_ORDER; -100 = form not computed."""
    cdef Pos p
    cdef int per[N_FORMS]
    cdef int i
    load_pos(&p, &spec.s, counts, jokers, caps, n_melds, meld_bits)
    with nogil:
        shanten_pos(&spec.s, &p, per)
    out = np.empty(N_FORMS, np.int16)
    cdef int16_t[::1] ov = out
    for i in range(N_FORMS):
        ov[i] = <int16_t>per[i]
    return out


def shanten(ShapeSpec spec, counts, int jokers=0, caps=None, int n_melds=0, int meld_bits=0):
    """Least shanten over the spec's forms."""
    cdef Pos p
    cdef int s
    load_pos(&p, &spec.s, counts, jokers, caps, n_melds, meld_bits)
    with nogil:
        s = shanten_pos(&spec.s, &p, NULL)
    return s


def shanten_many(ShapeSpec spec, const uint8_t[:, ::1] counts, object jokers,
                 int16_t[::1] out, caps=None):
    """Shanten of every row (no melds); ``jokers`` None or uint8 (N,).  Returns the first
    row that is not a valid hand (a count above the cap, a bad size), or -1."""
    cdef Pos p
    cdef Py_ssize_t i, n = counts.shape[0]
    cdef const uint8_t[::1] jv
    cdef int k, t, cap
    cdef uint8_t capv[N_KINDS]
    cdef const uint8_t[::1] kv
    cdef bint has_j = jokers is not None
    for k in range(N_KINDS):
        capv[k] = spec.s.copies[k]
    if caps is not None:
        kv = caps
        if kv.shape[0] != N_KINDS:
            raise ValueError("caps: 34 entries")
        for k in range(N_KINDS):
            if kv[k] < capv[k]:
                capv[k] = kv[k]
    if has_j:
        jv = jokers
        if jv.shape[0] != n:
            raise ValueError("jokers: one per row")
    memset(p.c, 0, sizeof(p.c))
    memset(p.caps, 0, sizeof(p.caps))
    memcpy(p.caps, capv, N_KINDS)
    cap_masks(&p)
    cdef Py_ssize_t bad = -1
    if counts.shape[1] != N_KINDS or out.shape[0] < n:
        raise ValueError("counts (N, 34), out (N,)")
    with nogil:
        for i in range(n):
            t = 0
            for k in range(N_KINDS):
                if counts[i, k] > capv[k]:
                    bad = i
                p.c[k] = counts[i, k]
                t += p.c[k]
            p.jokers = jv[i] if has_j else 0
            t += p.jokers
            if bad >= 0 or t % 3 == 0 or t > 17:
                bad = i
                break
            p.n_melds = 0
            p.meld_bits = 0
            p.n = t
            p.M = t // 3
            if whole_forms(&spec.s, &p):
                held_masks(&p)
            out[i] = <int16_t>shanten_pos(&spec.s, &p, NULL)
    return bad


cdef dict ukeire_dict(const Shape* sp, Pos* p, int s0, const int8_t* better, int jbetter,
                      object visible, object joker_kinds, object joker_copies,
                      object stand_in):
    """The Python engine's ``{kind: live}`` (a joker draw under -1) from the draw flags.

    A kind of ``joker_kinds`` is never drawn as itself; with ``stand_in`` (face,
    substitute, copies) the substitute is drawn as the face and listed under its own
    kind; live counts as in ``majiang.rules.shapes.ukeire_counts``."""
    cdef dict out = {}
    cdef int k, kk, face = -1, sub = -1, n_face = 0, held, v, seen
    cdef const uint8_t[::1] vis
    cdef bint has_vis = visible is not None
    cdef tuple jks
    cdef bint two = isinstance(joker_kinds, tuple)
    if has_vis:
        vis = visible
        if vis.shape[0] != N_KINDS:
            raise ValueError("visible: 34 entries")
    if joker_kinds is None:
        jks = ()
    elif two:
        jks = joker_kinds
    else:
        jks = (joker_kinds,)
    if stand_in is not None:
        face, sub, n_face = stand_in
        if not (0 <= face < N_KINDS and 0 <= sub < N_KINDS):
            raise ValueError("stand_in: kinds 0..33")
    for kk in jks:
        if not 0 <= kk < N_KINDS:
            raise ValueError("joker kinds: 0..33")
    for k in range(N_KINDS):
        if k == sub or sp.copies[k] == 0 or not better[k] or k in jks:
            continue
        v = p.caps[k] - p.c[k] - (vis[k] if has_vis else 0)
        out[k] = v if v > 0 else 0
    if face >= 0 and better[face]:
        held = p.c[face] + sp.copies[face] - p.caps[face]
        v = n_face - held - (vis[sub] if has_vis else 0)
        out[sub] = v if v > 0 else 0
    if joker_kinds is not None and jbetter:
        wild_total = sum(joker_copies) if two else joker_copies
        if p.jokers < min(8, wild_total):
            if two:
                seen = 0
                for kk in jks:      # every visible wild-kind tile is a seen joker
                    seen += vis[kk] if has_vis else 0
                v = sum(joker_copies) - p.jokers - seen
            else:
                kk = joker_kinds
                v = joker_copies - p.jokers - (vis[kk] if has_vis else 0)
            out[JOKER_DRAW] = v if v > 0 else 0
    return out


def ukeire(ShapeSpec spec, counts, int jokers=0, caps=None, int n_melds=0, int meld_bits=0,
           visible=None, joker_kinds=None, joker_copies=4, stand_in=None):
    """(shanten, {kind: live}) of a 3n+1 hand, as ``majiang.rules.shapes.ukeire_counts``."""
    cdef Pos p
    cdef Memo memo
    cdef uint8_t rows[4 * GROW]
    cdef int8_t better[N_KINDS]
    cdef int s0, jb
    load_pos(&p, &spec.s, counts, jokers, caps, n_melds, meld_bits, 1)     # a draw: <= 17
    with nogil:
        memset(memo.key, 0, sizeof(memo.key))
        all_rows(&spec.s, &p, &memo, rows)
        s0 = shanten_rows(&spec.s, &p, rows, NULL)
        jb = draws_c(&spec.s, &p, &memo, rows, s0, better)
    return s0, ukeire_dict(&spec.s, &p, s0, better, jb, visible, joker_kinds, joker_copies,
                           stand_in)


def discard_ukeire(ShapeSpec spec, counts, int jokers=0, caps=None, int n_melds=0,
                   int meld_bits=0, visible=None, joker_kinds=None, joker_copies=4,
                   stand_in=None):
    """For a 3n+2 hand: ``[(discard, shanten, {kind: live})]`` for each kind held, in kind
    order, as ``ukeire_counts`` after that discard with the discarded tile added to
    ``visible`` (a held face of the stand-in's joker kind is seen as the substitute)."""
    cdef Pos p
    cdef Memo memo
    cdef uint8_t rows[4 * GROW]
    cdef uint8_t base[4 * GROW]
    cdef int8_t better[N_KINDS]
    cdef int d, g, s0, jb
    cdef list out = []
    load_pos(&p, &spec.s, counts, jokers, caps, n_melds, meld_bits, 2)
    vis0 = (np.zeros(N_KINDS, np.uint8) if visible is None
            else np.ascontiguousarray(visible, dtype=np.uint8))
    face = sub = -1
    if stand_in is not None:
        face, sub = stand_in[0], stand_in[1]
    memset(memo.key, 0, sizeof(memo.key))
    all_rows(&spec.s, &p, &memo, base)
    for d in range(N_KINDS):
        if not p.c[d]:
            continue
        g = d // 9 if d < 27 else 3
        set_count(&p, d, p.c[d] - 1)
        p.n -= 1
        memcpy(rows, base, 4 * GROW)
        with nogil:
            fill_row(&spec.s, &p, g, &memo, rows + g * GROW)
            s0 = shanten_rows(&spec.s, &p, rows, NULL)
            jb = draws_c(&spec.s, &p, &memo, rows, s0, better)
        v = vis0.copy()
        v[sub if d == face else d] += 1
        out.append((d, s0, ukeire_dict(&spec.s, &p, s0, better, jb, v, joker_kinds,
                                       joker_copies, stand_in)))
        set_count(&p, d, p.c[d] + 1)
        p.n += 1
    return out

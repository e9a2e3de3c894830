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
"""
from itertools import permutations

from libc.stdint cimport uint8_t, int8_t, int32_t
from libc.string cimport memset, memcpy

ctypedef unsigned long long u64

cdef extern from *:
    int ctz64 "__builtin_ctzll"(unsigned long long) nogil
    int clz64 "__builtin_clzll"(unsigned long long) nogil

cimport cython
cimport numpy as cnp
import numpy as np

cnp.import_array()

cdef enum:
    NK = 34               # tile kinds
    NF = 83               # fan ids 1..81, 82 明暗杠 (option; index 0 unused)
    MAXX = 16             # most fans one fan excludes
    MAXR = 8              # most partial reductions
    MAXC = 32             # most combination groups in one reading

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
ctypedef struct Table:
    int value[NF]
    int forms[NF]            # mask of forms the fan applies in
    int kind[NF]             # FK_*
    int n_excl[NF]
    int excl[NF][MAXX]
    int n_red
    int red_fid[MAXR]
    int red_x[MAXR]
    int red_k[MAXR]
    int fallback             # id of the fallback fan (无番和), 0 for none
    int blocks_fallback[NF]  # counts toward the minimum and is not the fallback
    int toward_min[NF]       # counts toward the minimum (FanResult.meets_minimum)
    int forms_enabled        # the ruleset's winning forms
    # derived: per form, the predicate and combination fans to visit (id order)
    int n_pred[5]
    int pred_ids[5][NF]
    int n_comb[5]
    int comb_ids[5][NF]
    u64 excl_mask[NF][2]     # 不计 lists as bit sets over fan ids
    u64 block_mask[2]        # blocks_fallback as a bit set
    int n_static             # the per-hand predicates of the table
    int static_ids[NF]
    u64 static_form_mask[5][2]   # per form: the per-hand predicates that apply
    int quads                # seven pairs may use a quad as two pairs
    int hand_size

ctypedef struct HandIn:
    uint8_t before[NK]       # concealed tiles before the win
    int n_melds
    int mkind[4]
    int mtile[4]
    int mconc[4]
    int win
    int self_drawn
    int last_copy
    int kong
    int last_tile
    int seat
    int prevalent
    int flowers

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


# ---------------------------------------------------------------- predicates (fan id)
cdef inline int fan_01_big_four_winds(const W* w) noexcept nogil:
    return w.wind == 4

cdef inline int fan_02_big_three_dragons(const W* w) noexcept nogil:
    return w.drag == 3

cdef inline int fan_03_all_green(const W* w) noexcept nogil:
    return w.green

cdef inline int fan_04_nine_gates(const W* w) noexcept nogil:
    return w.nine_gates

cdef inline int fan_05_four_kongs(const W* w) noexcept nogil:
    return w.mk + w.ck == 4

cdef inline int fan_06_seven_shifted_pairs(const W* w) noexcept nogil:
    cdef int i
    cdef const int* p = w.pairs
    if not (p[0] < 27 and p[6] == p[0] + 6 and p[0] // 9 == p[6] // 9):
        return 0
    for i in range(6):
        if p[i + 1] != p[i] + 1:
            return 0
    return 1

cdef inline int fan_07_thirteen_orphans(const W* w) noexcept nogil:
    return 1

cdef inline int fan_08_all_terminals(const W* w) noexcept nogil:
    return w.term

cdef inline int fan_09_little_four_winds(const W* w) noexcept nogil:
    return w.wind == 3 and 27 <= w.pair <= 30

cdef inline int fan_10_little_three_dragons(const W* w) noexcept nogil:
    return w.drag == 2 and w.pair >= 31

cdef inline int fan_11_all_honors(const W* w) noexcept nogil:
    return w.honors_only

cdef inline int fan_12_four_concealed_pungs(const W* w) noexcept nogil:
    return w.cp == 4

cdef inline int fan_13_pure_terminal_chows(const W* w) noexcept nogil:
    cdef int p = w.pair, b
    if w.nch != 4 or p >= 27 or p % 9 != 4:
        return 0
    b = p - 4
    return (w.chows[0] == b and w.chows[1] == b and w.chows[2] == b + 6
            and w.chows[3] == b + 6)

cdef inline int fan_17_three_kongs(const W* w) noexcept nogil:
    return w.mk + w.ck == 3

cdef inline int fan_18_all_terminals_and_honors(const W* w) noexcept nogil:
    return w.termhonor

cdef inline int fan_19_seven_pairs(const W* w) noexcept nogil:
    return 1

cdef inline int fan_20_greater_honors_knitted(const W* w) noexcept nogil:
    return w.n_knit == 7

cdef inline int fan_21_all_even_pungs(const W* w) noexcept nogil:
    cdef int i, t
    if w.nch or w.pair >= 27 or (w.pair % 9) % 2 == 0:
        return 0
    for i in range(w.npg):
        t = w.pungs[i]
        if not (t < 27 and (t % 9) % 2 == 1):
            return 0
    return 1

cdef inline int fan_22_full_flush(const W* w) noexcept nogil:
    return w.mask == 1 or w.mask == 2 or w.mask == 4

cdef inline int rank_range(const W* w, int lo, int hi) noexcept nogil:
    return (not w.has_honor) and lo <= w.rlo and w.rhi <= hi

cdef inline int fan_25_upper_tiles(const W* w) noexcept nogil:
    return rank_range(w, 7, 9)

cdef inline int fan_26_middle_tiles(const W* w) noexcept nogil:
    return rank_range(w, 4, 6)

cdef inline int fan_27_lower_tiles(const W* w) noexcept nogil:
    return rank_range(w, 1, 3)

cdef inline int fan_29_three_suited_terminal_chows(const W* w) noexcept nogil:
    cdef int p = w.pair, s, k = 0
    cdef int want[4]
    if w.nch != 4 or p >= 27 or p % 9 != 4:
        return 0
    for s in range(3):
        if s != p // 9:
            want[k] = 9 * s
            want[k + 1] = 9 * s + 6
            k += 2
    return (w.chows[0] == want[0] and w.chows[1] == want[1] and w.chows[2] == want[2]
            and w.chows[3] == want[3])

cdef inline int fan_31_all_fives(const W* w) noexcept nogil:
    cdef int i, t, p = w.pair
    if p >= 27 or p % 9 != 4:
        return 0
    for i in range(w.nch):
        t = w.chows[i]
        if not (t < 27 and 2 <= t % 9 <= 4):
            return 0
    for i in range(w.npg):
        t = w.pungs[i]
        if not (t < 27 and t % 9 == 4):
            return 0
    return 1

cdef inline int fan_33_three_concealed_pungs(const W* w) noexcept nogil:
    return w.cp == 3

cdef inline int fan_34_lesser_honors_knitted(const W* w) noexcept nogil:
    return 1

cdef inline int fan_35_knitted_straight(const W* w) noexcept nogil:
    return w.form == F_KS or w.n_knit == 9

cdef inline int fan_36_upper_four(const W* w) noexcept nogil:
    return rank_range(w, 6, 9)

cdef inline int fan_37_lower_four(const W* w) noexcept nogil:
    return rank_range(w, 1, 4)

cdef inline int fan_38_big_three_winds(const W* w) noexcept nogil:
    return w.wind == 3

cdef inline int fan_40_reversible_tiles(const W* w) noexcept nogil:
    return w.reversible

cdef inline int fan_43_chicken_hand(const W* w) noexcept nogil:
    return 0            # the fallback fan, added by the engine

cdef inline int fan_44_last_tile_draw(const W* w) noexcept nogil:
    return w.last_tile and w.self_drawn

cdef inline int fan_45_last_tile_claim(const W* w) noexcept nogil:
    return w.last_tile and not w.self_drawn

cdef inline int fan_46_out_with_replacement_tile(const W* w) noexcept nogil:
    return w.kong and w.self_drawn

cdef inline int fan_47_robbing_the_kong(const W* w) noexcept nogil:
    return w.kong and not w.self_drawn

cdef inline int fan_48_all_pungs(const W* w) noexcept nogil:
    return w.npg == 4

cdef inline int fan_49_half_flush(const W* w) noexcept nogil:
    cdef int m = w.mask
    return (m & 24) != 0 and ((m & 7) == 1 or (m & 7) == 2 or (m & 7) == 4)

cdef inline int fan_51_all_types(const W* w) noexcept nogil:
    return w.mask == 31

cdef inline int fan_52_melded_hand(const W* w) noexcept nogil:
    return w.n_exposed == 4 and not w.self_drawn

cdef inline int fan_53_two_concealed_kongs(const W* w) noexcept nogil:
    return w.ck == 2

cdef inline int fan_54_two_dragon_pungs(const W* w) noexcept nogil:
    return w.drag == 2

cdef inline int fan_55_outside_hand(const W* w) noexcept nogil:
    cdef int i, t
    if not is_term_honor(w.pair):
        return 0
    for i in range(w.nch):
        t = w.chows[i] % 9
        if t != 0 and t != 6:
            return 0
    for i in range(w.npg):
        if not is_term_honor(w.pungs[i]):
            return 0
    return 1

cdef inline int fan_56_fully_concealed_hand(const W* w) noexcept nogil:
    return w.n_exposed == 0 and w.self_drawn

cdef inline int fan_57_two_melded_kongs(const W* w) noexcept nogil:
    return w.mk == 2

cdef inline int fan_58_last_tile(const W* w) noexcept nogil:
    return w.last_copy

cdef inline int fan_59_dragon_pung(const W* w) noexcept nogil:
    return w.drag

cdef inline int has_pung(const W* w, int t) noexcept nogil:
    cdef int i
    for i in range(w.npg):
        if w.pungs[i] == t:
            return 1
    return 0

cdef inline int fan_60_prevalent_wind(const W* w) noexcept nogil:
    return has_pung(w, 27 + w.prevalent)

cdef inline int fan_61_seat_wind(const W* w) noexcept nogil:
    return has_pung(w, 27 + w.seat)

cdef inline int fan_62_concealed_hand(const W* w) noexcept nogil:
    return w.n_exposed == 0 and not w.self_drawn

cdef inline int fan_63_all_chows(const W* w) noexcept nogil:
    return w.npg == 0 and w.pair >= 0 and w.pair < 27

cdef inline int fan_64_tile_hog(const W* w) noexcept nogil:
    cdef int n = w.n4 - w.mk - w.ck
    return n if n > 0 else 0

cdef inline int fan_66_two_concealed_pungs(const W* w) noexcept nogil:
    return w.cp == 2

cdef inline int fan_67_concealed_kong(const W* w) noexcept nogil:
    return w.ck == 1

cdef inline int fan_68_all_simples(const W* w) noexcept nogil:
    return w.simples

cdef inline int fan_73_pung_of_terminals_or_honors(const W* w) noexcept nogil:
    cdef int i, t, n = 0
    for i in range(w.npg):
        if is_terminal(w.pungs[i]):
            n += 1
    if w.wind < 3:
        for i in range(w.npg):
            t = w.pungs[i]
            if 27 <= t <= 30 and t != 27 + w.seat and t != 27 + w.prevalent:
                n += 1
    return n

cdef inline int fan_74_melded_kong(const W* w) noexcept nogil:
    return w.mk == 1

cdef inline int fan_75_one_voided_suit(const W* w) noexcept nogil:
    cdef int m = w.mask & 7
    return m == 3 or m == 5 or m == 6

cdef inline int fan_76_no_honors(const W* w) noexcept nogil:
    return (w.mask & 24) == 0

cdef inline int fan_77_edge_wait(const W* w) noexcept nogil:
    return w.uw and w.pos == P_EDGE

cdef inline int fan_78_closed_wait(const W* w) noexcept nogil:
    return w.uw and w.pos == P_CLOSED

cdef inline int fan_79_single_wait(const W* w) noexcept nogil:
    return w.uw and w.pos == P_PAIR

cdef inline int fan_80_self_drawn(const W* w) noexcept nogil:
    return w.self_drawn

cdef inline int fan_81_flower_tiles(const W* w) noexcept nogil:
    return w.flowers

cdef inline int fan_82_concealed_and_melded_kong(const W* w) noexcept nogil:
    # 明暗杠 (not among the 81; ruleset option concealed_and_melded_kong)
    return w.ck == 1 and w.mk == 1


cdef inline void static_values(const W* w, int* v) noexcept nogil:
    """Values of the predicates that read only per-hand facts (v indexed by fan id)."""
    v[3] = fan_03_all_green(w)
    v[4] = fan_04_nine_gates(w)
    v[5] = fan_05_four_kongs(w)
    v[7] = fan_07_thirteen_orphans(w)
    v[8] = fan_08_all_terminals(w)
    v[11] = fan_11_all_honors(w)
    v[17] = fan_17_three_kongs(w)
    v[18] = fan_18_all_terminals_and_honors(w)
    v[19] = fan_19_seven_pairs(w)
    v[22] = fan_22_full_flush(w)
    v[25] = fan_25_upper_tiles(w)
    v[26] = fan_26_middle_tiles(w)
    v[27] = fan_27_lower_tiles(w)
    v[34] = fan_34_lesser_honors_knitted(w)
    v[36] = fan_36_upper_four(w)
    v[37] = fan_37_lower_four(w)
    v[40] = fan_40_reversible_tiles(w)
    v[43] = fan_43_chicken_hand(w)
    v[44] = fan_44_last_tile_draw(w)
    v[45] = fan_45_last_tile_claim(w)
    v[46] = fan_46_out_with_replacement_tile(w)
    v[47] = fan_47_robbing_the_kong(w)
    v[49] = fan_49_half_flush(w)
    v[51] = fan_51_all_types(w)
    v[52] = fan_52_melded_hand(w)
    v[53] = fan_53_two_concealed_kongs(w)
    v[56] = fan_56_fully_concealed_hand(w)
    v[57] = fan_57_two_melded_kongs(w)
    v[58] = fan_58_last_tile(w)
    v[62] = fan_62_concealed_hand(w)
    v[64] = fan_64_tile_hog(w)
    v[67] = fan_67_concealed_kong(w)
    v[68] = fan_68_all_simples(w)
    v[74] = fan_74_melded_kong(w)
    v[75] = fan_75_one_voided_suit(w)
    v[76] = fan_76_no_honors(w)
    v[80] = fan_80_self_drawn(w)
    v[81] = fan_81_flower_tiles(w)
    v[82] = fan_82_concealed_and_melded_kong(w)


cdef inline void dynamic_values(const W* w, int* v) noexcept nogil:
    """Values of the predicates that read the reading (v indexed by fan id)."""
    v[1] = fan_01_big_four_winds(w)
    v[2] = fan_02_big_three_dragons(w)
    v[6] = fan_06_seven_shifted_pairs(w) if w.form == F_SP else 0
    v[9] = fan_09_little_four_winds(w)
    v[10] = fan_10_little_three_dragons(w)
    v[12] = fan_12_four_concealed_pungs(w)
    v[13] = fan_13_pure_terminal_chows(w)
    v[20] = fan_20_greater_honors_knitted(w)
    v[21] = fan_21_all_even_pungs(w)
    v[29] = fan_29_three_suited_terminal_chows(w)
    v[31] = fan_31_all_fives(w)
    v[33] = fan_33_three_concealed_pungs(w)
    v[35] = fan_35_knitted_straight(w)
    v[38] = fan_38_big_three_winds(w)
    v[48] = fan_48_all_pungs(w)
    v[54] = fan_54_two_dragon_pungs(w)
    v[55] = fan_55_outside_hand(w)
    v[59] = fan_59_dragon_pung(w)
    v[60] = fan_60_prevalent_wind(w)
    v[61] = fan_61_seat_wind(w)
    v[63] = fan_63_all_chows(w)
    v[66] = fan_66_two_concealed_pungs(w)
    v[73] = fan_73_pung_of_terminals_or_honors(w)
    v[77] = fan_77_edge_wait(w)
    v[78] = fan_78_closed_wait(w)
    v[79] = fan_79_single_wait(w)


STATIC_IDS = frozenset((3, 4, 5, 7, 8, 11, 17, 18, 19, 22, 25, 26, 27, 34, 36, 37, 40, 43, 44, 45, 46, 47, 49, 51, 52, 53, 56, 57, 58, 62, 64, 67, 68, 74, 75, 76, 80, 81, 82))
DYNAMIC_IDS = frozenset((1, 2, 6, 9, 10, 12, 13, 20, 21, 29, 31, 33, 35, 38, 48, 54, 55, 59, 60, 61, 63, 66, 73, 77, 78, 79))


# Predicates that read only per-hand facts (tiles, melds, context), never the reading,
# are evaluated once per hand.  (Kongs are always melds, so the kong counts are per hand.)
cdef uint8_t STATIC[NF]
memset(STATIC, 0, sizeof(STATIC))
for _fid in STATIC_IDS:
    STATIC[_fid] = 1
assert STATIC_IDS | DYNAMIC_IDS == PREDICATE_IDS and not STATIC_IDS & DYNAMIC_IDS


# ---------------------------------------------------------------- combinations (fan id)
# Each test reads the sorted lowest tiles of k chows or k suited pungs.
cdef inline bint one_suit(const int* ts, int k) noexcept nogil:
    return ts[0] // 9 == ts[k - 1] // 9

cdef inline bint steps(const int* ts, int k, int d) noexcept nogil:
    cdef int i
    for i in range(k - 1):
        if ts[i + 1] - ts[i] != d:
            return False
    return True

cdef inline bint three_suits(const int* ts) noexcept nogil:
    cdef int a = ts[0] // 9, b = ts[1] // 9, c = ts[2] // 9
    return a != b and a != c and b != c

cdef inline void sorted_ranks(const int* ts, int* r) noexcept nogil:
    cdef int a = ts[0] % 9, b = ts[1] % 9, c = ts[2] % 9, x
    if a > b:
        x = a; a = b; b = x
    if b > c:
        x = b; b = c; c = x
    if a > b:
        x = a; a = b; b = x
    r[0] = a; r[1] = b; r[2] = c

cdef inline bint comb_14_quadruple_chow(const int* ts) noexcept nogil:
    return ts[0] == ts[3]

cdef inline bint comb_15_four_pure_shifted_pungs(const int* ts) noexcept nogil:
    return one_suit(ts, 4) and steps(ts, 4, 1)

cdef inline bint comb_16_four_pure_shifted_chows(const int* ts) noexcept nogil:
    return one_suit(ts, 4) and (steps(ts, 4, 1) or steps(ts, 4, 2))

cdef inline bint comb_23_pure_triple_chow(const int* ts) noexcept nogil:
    return ts[0] == ts[2]

cdef inline bint comb_24_pure_shifted_pungs(const int* ts) noexcept nogil:
    return one_suit(ts, 3) and steps(ts, 3, 1)

cdef inline bint comb_28_pure_straight(const int* ts) noexcept nogil:
    return one_suit(ts, 3) and ts[0] % 9 == 0 and steps(ts, 3, 3)

cdef inline bint comb_30_pure_shifted_chows(const int* ts) noexcept nogil:
    return one_suit(ts, 3) and (steps(ts, 3, 1) or steps(ts, 3, 2))

cdef inline bint comb_32_triple_pung(const int* ts) noexcept nogil:
    cdef int r[3]
    sorted_ranks(ts, r)
    return three_suits(ts) and r[0] == r[2]

cdef inline bint comb_39_mixed_straight(const int* ts) noexcept nogil:
    cdef int r[3]
    sorted_ranks(ts, r)
    return three_suits(ts) and r[0] == 0 and r[1] == 3 and r[2] == 6

cdef inline bint comb_41_mixed_triple_chow(const int* ts) noexcept nogil:
    cdef int r[3]
    sorted_ranks(ts, r)
    return three_suits(ts) and r[0] == r[2]

cdef inline bint comb_42_mixed_shifted_pungs(const int* ts) noexcept nogil:
    cdef int r[3]
    sorted_ranks(ts, r)
    return three_suits(ts) and r[1] == r[0] + 1 and r[2] == r[1] + 1

cdef inline bint comb_50_mixed_shifted_chows(const int* ts) noexcept nogil:
    cdef int r[3]
    sorted_ranks(ts, r)
    return three_suits(ts) and r[1] == r[0] + 1 and r[2] == r[1] + 1

cdef inline bint comb_65_double_pung(const int* ts) noexcept nogil:
    return ts[0] // 9 != ts[1] // 9 and ts[0] % 9 == ts[1] % 9

cdef inline bint comb_69_pure_double_chow(const int* ts) noexcept nogil:
    return ts[0] == ts[1]

cdef inline bint comb_70_mixed_double_chow(const int* ts) noexcept nogil:
    return ts[0] // 9 != ts[1] // 9 and ts[0] % 9 == ts[1] % 9

cdef inline bint comb_71_short_straight(const int* ts) noexcept nogil:
    return one_suit(ts, 2) and ts[1] - ts[0] == 3

cdef inline bint comb_72_two_terminal_chows(const int* ts) noexcept nogil:
    return one_suit(ts, 2) and ts[0] % 9 == 0 and ts[1] % 9 == 6


ctypedef bint (*comb_t)(const int*) noexcept nogil
cdef comb_t COMB[NF]
memset(COMB, 0, sizeof(COMB))
COMB[14] = comb_14_quadruple_chow
COMB[15] = comb_15_four_pure_shifted_pungs
COMB[16] = comb_16_four_pure_shifted_chows
COMB[23] = comb_23_pure_triple_chow
COMB[24] = comb_24_pure_shifted_pungs
COMB[28] = comb_28_pure_straight
COMB[30] = comb_30_pure_shifted_chows
COMB[32] = comb_32_triple_pung
COMB[39] = comb_39_mixed_straight
COMB[41] = comb_41_mixed_triple_chow
COMB[42] = comb_42_mixed_shifted_pungs
COMB[50] = comb_50_mixed_shifted_chows
COMB[65] = comb_65_double_pung
COMB[69] = comb_69_pure_double_chow
COMB[70] = comb_70_mixed_double_chow
COMB[71] = comb_71_short_straight
COMB[72] = comb_72_two_terminal_chows


cdef inline int comb_size(int fid) noexcept nogil:
    """(number of sets) * 2 + (1 for chows, 0 for suited pungs); 0 when not a combination."""
    if fid == 14: return 4 * 2 + 1
    if fid == 15: return 4 * 2
    if fid == 16: return 4 * 2 + 1
    if fid == 23: return 3 * 2 + 1
    if fid == 24: return 3 * 2
    if fid == 28: return 3 * 2 + 1
    if fid == 30: return 3 * 2 + 1
    if fid == 32: return 3 * 2
    if fid == 39: return 3 * 2 + 1
    if fid == 41: return 3 * 2 + 1
    if fid == 42: return 3 * 2
    if fid == 50: return 3 * 2 + 1
    if fid == 65: return 2 * 2
    if fid == 69: return 2 * 2 + 1
    if fid == 70: return 2 * 2 + 1
    if fid == 71: return 2 * 2 + 1
    if fid == 72: return 2 * 2 + 1
    return 0


cdef inline void sort_small(int* a, int n) noexcept nogil:
    cdef int i, j, x
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


cdef inline int popcount4(int m) noexcept nogil:
    return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1)


ctypedef struct Subsets:
    # every k-subset (k = 2, 3, 4) of up to 4 sets in combination order:
    # sorted lowest tiles and the mask of set indices
    int n[5]
    int ts[5][6][4]
    int mask[5][6]


cdef void make_subsets(const int* idx, const int* tl, int n, Subsets* ss) noexcept nogil:
    cdef int a, b, c, m
    ss.n[2] = 0
    ss.n[3] = 0
    ss.n[4] = 0
    for a in range(n):
        for b in range(a + 1, n):
            m = ss.n[2]
            ss.ts[2][m][0] = tl[a]; ss.ts[2][m][1] = tl[b]
            sort_small(ss.ts[2][m], 2)
            ss.mask[2][m] = (1 << idx[a]) | (1 << idx[b])
            ss.n[2] += 1
            for c in range(b + 1, n):
                m = ss.n[3]
                ss.ts[3][m][0] = tl[a]; ss.ts[3][m][1] = tl[b]; ss.ts[3][m][2] = tl[c]
                sort_small(ss.ts[3][m], 3)
                ss.mask[3][m] = (1 << idx[a]) | (1 << idx[b]) | (1 << idx[c])
                ss.n[3] += 1
    # the 3-subsets above come out as (a, b, c) nested: the order of combinations()
    if n == 4:
        ss.ts[4][0][0] = tl[0]; ss.ts[4][0][1] = tl[1]
        ss.ts[4][0][2] = tl[2]; ss.ts[4][0][3] = tl[3]
        sort_small(ss.ts[4][0], 4)
        ss.mask[4][0] = (1 << idx[0]) | (1 << idx[1]) | (1 << idx[2]) | (1 << idx[3])
        ss.n[4] = 1


cdef bint valid_order(const int* masks, int r) noexcept nogil:
    """Some order of the groups shares at most one set with the sets combined before."""
    cdef int i, j, k
    if r == 2:
        return popcount4(masks[0] & masks[1]) <= 1
    # r == 3: try the 6 orders
    cdef int perm[6][3]
    perm[0][0] = 0; perm[0][1] = 1; perm[0][2] = 2
    perm[1][0] = 0; perm[1][1] = 2; perm[1][2] = 1
    perm[2][0] = 1; perm[2][1] = 0; perm[2][2] = 2
    perm[3][0] = 1; perm[3][1] = 2; perm[3][2] = 0
    perm[4][0] = 2; perm[4][1] = 0; perm[4][2] = 1
    perm[5][0] = 2; perm[5][1] = 1; perm[5][2] = 0
    cdef int used
    cdef bint ok
    for i in range(6):
        used = 0
        ok = True
        for j in range(3):
            k = masks[perm[i][j]]
            if popcount4(k & used) > 1:
                ok = False
                break
            used |= k
        if ok:
            return True
    return False


cdef int key_cmp(int s1, int d1, const int* ids1, int n1,
                 int s2, int d2, const int* ids2, int n2) noexcept nogil:
    """Compare (sum, distinct, [-id for id in sorted ids]) like Python tuples: -1/0/1."""
    cdef int i, a, b
    if s1 != s2:
        return 1 if s1 > s2 else -1
    if d1 != d2:
        return 1 if d1 > d2 else -1
    i = 0
    while i < n1 and i < n2:
        a = -ids1[i]
        b = -ids2[i]
        if a != b:
            return 1 if a > b else -1
        i += 1
    if n1 != n2:
        return 1 if n1 > n2 else -1
    return 0


cdef void choose(const int* c_fid, const int* c_val, const int* c_mask, int n,
                 uint8_t* cnt) noexcept nogil:
    """The reference's _choose: best admissible subset of at most 3 groups."""
    cdef int r, a, b, c, i, j, s, d, nb = 0, sb = 0, db = 0
    cdef int pick[3]
    cdef int masks[3]
    cdef int ids[3]
    cdef int best[3]
    cdef int best_ids[3]
    cdef bint have = False, clash
    if n == 1:
        cnt[c_fid[0]] += 1
        return
    for r in range(1, (3 if n > 3 else n) + 1):
        # combinations(range(n), r) in lexicographic order
        for i in range(r):
            pick[i] = i
        while True:
            clash = False
            for i in range(r):
                for j in range(i + 1, r):
                    if c_fid[pick[i]] == c_fid[pick[j]] and (c_mask[pick[i]] & c_mask[pick[j]]):
                        clash = True
            if not clash:
                for i in range(r):
                    masks[i] = c_mask[pick[i]]
                if r == 1 or valid_order(masks, r):
                    s = 0
                    for i in range(r):
                        s += c_val[pick[i]]
                        ids[i] = c_fid[pick[i]]
                    sort_small(ids, r)
                    d = 1
                    for i in range(1, r):
                        if ids[i] != ids[i - 1]:
                            d += 1
                    if not have or key_cmp(s, d, ids, r, sb, db, best_ids, nb) > 0:
                        have = True
                        sb = s; db = d; nb = r
                        for i in range(r):
                            best[i] = pick[i]
                            best_ids[i] = ids[i]
            # next combination
            i = r - 1
            while i >= 0 and pick[i] == n - r + i:
                i -= 1
            if i < 0:
                break
            pick[i] += 1
            for j in range(i + 1, r):
                pick[j] = pick[j - 1] + 1
    for i in range(nb):
        cnt[c_fid[best[i]]] += 1


# ---------------------------------------------------------------- evaluation of one reading
cdef int evaluate(const Table* tb, W* w, const uint8_t* static_cnt, const u64* static_mask,
                  const Cand* cd, uint8_t* cnt, int* tmin, u64* present) noexcept nogil:
    """Fan counts of one reading, exclusions applied: the counted fans are the bits of
    present (cnt holds their counts; other entries are stale); returns the total."""
    cdef int i, j, k, t, fid, n, m
    cdef int nch = 0, npg = 0, nsp = 0
    cdef int ch_i[4]
    cdef int ch_t[4]
    cdef int sp_i[4]
    cdef int sp_t[4]
    cdef int c_fid[MAXC]
    cdef int c_val[MAXC]
    cdef int c_mask[MAXC]
    cdef int nc = 0, cs, total
    cdef int form = cd.form
    cdef Subsets sch, spg
    cdef const Subsets* ss
    cdef comb_t test
    cdef u64 bits
    cdef int dyn[NF]
    memcpy(cnt, static_cnt, NF)
    present[0] = static_mask[2 * form]
    present[1] = static_mask[2 * form + 1]
    w.form = form
    w.pair = cd.pair
    w.n_pairs = cd.n_pairs
    for i in range(cd.n_pairs):
        w.pairs[i] = cd.pairs[i]
    w.n_knit = cd.n_knit
    w.pos = cd.pos
    w.uw = cd.uw
    w.wind = 0; w.drag = 0; w.cp = 0
    for i in range(cd.n_sets):
        k = cd.skind[i]
        t = cd.stile[i]
        if k == K_CHOW:
            w.chows[nch] = t
            ch_i[nch] = i
            ch_t[nch] = t
            nch += 1
        else:
            w.pungs[npg] = t
            npg += 1
            if t < 27:
                sp_i[nsp] = i
                sp_t[nsp] = t
                nsp += 1
            if cd.sconc[i]:
                w.cp += 1
            if 27 <= t <= 30:
                w.wind += 1
            elif t >= 31:
                w.drag += 1
    w.nch = nch
    w.npg = npg
    sort_small(w.chows, nch)
    sort_small(w.pungs, npg)
    dynamic_values(w, dyn)
    for j in range(tb.n_pred[form]):
        fid = tb.pred_ids[form][j]
        n = dyn[fid]
        if n:
            cnt[fid] = n
            present[fid >> 6] |= (<u64>1) << (fid & 63)
    if nch >= 2 or nsp >= 2:
        make_subsets(ch_i, ch_t, nch, &sch)
        make_subsets(sp_i, sp_t, nsp, &spg)
        for j in range(tb.n_comb[form]):
            fid = tb.comb_ids[form][j]
            cs = comb_size(fid)
            k = cs >> 1
            ss = &sch if cs & 1 else &spg
            test = COMB[fid]
            for m in range(ss.n[k]):
                if test(ss.ts[k][m]) and nc < MAXC:
                    c_fid[nc] = fid
                    c_val[nc] = tb.value[fid]
                    c_mask[nc] = ss.mask[k][m]
                    nc += 1
        if nc:
            for j in range(nc):
                cnt[c_fid[j]] = 0
            choose(c_fid, c_val, c_mask, nc, cnt)
            for j in range(nc):
                fid = c_fid[j]
                if cnt[fid]:
                    present[fid >> 6] |= (<u64>1) << (fid & 63)
    # 不重复: lowest id first (over the fans present at the start); a fan already
    # excluded excludes nothing
    for k in range(2):
        bits = present[k]
        while bits:
            fid = (k << 6) + ctz64(bits)
            bits &= bits - 1
            if (present[k] >> (fid & 63)) & 1:
                present[0] &= ~tb.excl_mask[fid][0]
                present[1] &= ~tb.excl_mask[fid][1]
    for j in range(tb.n_red):
        fid = tb.red_fid[j]
        if (present[fid >> 6] >> (fid & 63)) & 1:
            k = tb.red_x[j]
            if (present[k >> 6] >> (k & 63)) & 1:
                n = cnt[k] - tb.red_k[j]
                if n > 0:
                    cnt[k] = n
                else:
                    present[k >> 6] &= ~((<u64>1) << (k & 63))
    if tb.fallback and not ((present[0] & tb.block_mask[0]) or (present[1] & tb.block_mask[1])):
        fid = tb.fallback
        cnt[fid] = 1
        present[fid >> 6] |= (<u64>1) << (fid & 63)
    total = 0
    tmin[0] = 0
    for k in range(2):
        bits = present[k]
        while bits:
            fid = (k << 6) + ctz64(bits)
            bits &= bits - 1
            total += tb.value[fid] * cnt[fid]
            if tb.toward_min[fid]:
                tmin[0] += tb.value[fid] * cnt[fid]
    return total


# ---------------------------------------------------------------- completeness (waits)
cdef bint split_group(int* g, int n, bint pair, bint honors) noexcept nogil:
    cdef int i = 0
    cdef bint ok
    while i < n and g[i] == 0:
        i += 1
    if i == n:
        return not pair
    if g[i] >= 3:
        g[i] -= 3
        ok = split_group(g, n, pair, honors)
        g[i] += 3
        if ok:
            return True
    if pair and g[i] >= 2:
        g[i] -= 2
        ok = split_group(g, n, False, honors)
        g[i] += 2
        if ok:
            return True
    if not honors and i <= 6 and g[i + 1] and g[i + 2]:
        g[i] -= 1; g[i + 1] -= 1; g[i + 2] -= 1
        ok = split_group(g, n, pair, honors)
        g[i] += 1; g[i + 1] += 1; g[i + 2] += 1
        return ok
    return False


cdef bint regular_complete(const int* c, int n_melds, int total) noexcept nogil:
    cdef int s, lo, hi, n, i, pairs = 0
    cdef int g[9]
    for s in range(4):
        lo = 9 * s
        hi = 34 if s == 3 else lo + 9
        n = 0
        for i in range(lo, hi):
            g[i - lo] = c[i]
            n += c[i]
        if n % 3 == 1:
            return False
        if n % 3 == 2:
            pairs += 1
            if pairs > 1:
                return False
        if n and not split_group(g, hi - lo, n % 3 == 2, s == 3):
            return False
    return pairs == 1 and total == 14 - 3 * n_melds


cdef int set_and_pair(int* rest, int n_sets, int* out_pair, int* out_kind, int* out_tile,
                      int max_out) noexcept nogil:
    """The reference's _set_and_pair: readings of a remainder as n_sets (0/1) sets + a pair."""
    cdef int p, i, nl, no = 0
    cdef int left[4]
    cdef bint empty
    for p in range(NK):
        if rest[p] < 2:
            continue
        rest[p] -= 2
        if n_sets == 0:
            empty = True
            for i in range(NK):
                if rest[i]:
                    empty = False
                    break
            if empty and no < max_out:
                out_pair[no] = p; out_kind[no] = -1; out_tile[no] = -1
                no += 1
        else:
            nl = 0
            for i in range(NK):
                if rest[i]:
                    if nl < 4:
                        left[nl] = i
                    nl += 1
            if nl == 1 and rest[left[0]] == 3:
                if no < max_out:
                    out_pair[no] = p; out_kind[no] = K_PUNG; out_tile[no] = left[0]
                    no += 1
            elif (nl == 3 and left[0] < 27 and left[1] == left[0] + 1
                  and left[2] == left[0] + 2 and left[0] // 9 == left[2] // 9
                  and rest[left[0]] == 1 and rest[left[1]] == 1 and rest[left[2]] == 1):
                if no < max_out:
                    out_pair[no] = p; out_kind[no] = K_CHOW; out_tile[no] = left[0]
                    no += 1
        rest[p] += 2
    return no


cdef bint knitted_complete(const int* c, int n_melds) noexcept nogil:
    cdef int k, j
    cdef int rest[NK]
    cdef int op[1]
    cdef int ok_[1]
    cdef int ot[1]
    cdef bint all_in
    if n_melds > 1:
        return False
    for k in range(6):
        all_in = True
        for j in range(9):
            if not c[KS[k][j]]:
                all_in = False
                break
        if not all_in:
            continue
        for j in range(NK):
            rest[j] = c[j]
        for j in range(9):
            rest[KS[k][j]] -= 1
        if set_and_pair(rest, 1 - n_melds, op, ok_, ot, 1):
            return True
    return False


cdef int honors_knitted(const int* c, int n_melds, int total, int* knit) noexcept nogil:
    """Suited knitted tiles of 全不靠 (count) or -1."""
    cdef int t, k, j, n = 0
    cdef bint inside, found
    if n_melds or total != 14:
        return -1
    for t in range(NK):
        if c[t] > 1:
            return -1
    for k in range(6):
        inside = True
        for t in range(27):
            if c[t]:
                found = False
                for j in range(9):
                    if KS[k][j] == t:
                        found = True
                        break
                if not found:
                    inside = False
                    break
        if inside:
            for t in range(27):
                if c[t]:
                    knit[n] = t
                    n += 1
            return n
    return -1


cdef bint complete(const int* c, int n_melds, int forms, int quads) noexcept nogil:
    cdef int t, total = 0, orph
    cdef int knit[9]
    cdef bint ok
    for t in range(NK):
        total += c[t]
    if (forms & (1 << F_REG)) and regular_complete(c, n_melds, total):
        return True
    if n_melds == 0 and total == 14:
        if forms & (1 << F_SP):
            ok = True
            for t in range(NK):
                if c[t] % 2 or (not quads and c[t] > 2):
                    ok = False
                    break
            if ok:
                return True
        if forms & (1 << F_TO):
            ok = True
            orph = 0
            for t in range(NK):
                if is_term_honor(t):
                    if not c[t]:
                        ok = False
                        break
                    orph += c[t]
            if ok and orph == 14:
                return True
        if (forms & (1 << F_HK)) and honors_knitted(c, 0, total, knit) >= 0:
            return True
    if (forms & (1 << F_KS)) and n_melds <= 1 and knitted_complete(c, n_melds):
        return True
    return False


cdef int unique_wait(const Table* tb, const HandIn* h) noexcept nogil:
    """1 when exactly one kind completes the hand before the win (by shape).

    Only the reference's candidate kinds are tried (held kinds and suited
    neighbours within two; every kind once 11 kinds are held and a special form
    is allowed; a knitted straight's kinds when 8 of them are held): no other
    kind can complete a hand in any form.
    """
    cdef int t, d, r, k, j, n = 0, distinct = 0, held
    cdef int c[NK]
    cdef uint8_t cand[NK]
    memset(cand, 0, NK)
    for t in range(NK):
        c[t] = h.before[t]
        if c[t]:
            distinct += 1
            cand[t] = 1
            if t < 27:
                r = t % 9
                for d in range(-2, 3):
                    if 0 <= r + d <= 8:
                        cand[t + d] = 1
    if tb.forms_enabled & ((1 << F_TO) | (1 << F_HK) | (1 << F_KS)):
        if distinct >= 11:
            memset(cand, 1, NK)
        elif tb.forms_enabled & (1 << F_KS):
            for k in range(6):
                held = 0
                for j in range(9):
                    if c[KS[k][j]]:
                        held += 1
                if held >= 8:
                    for j in range(9):
                        cand[KS[k][j]] = 1
    for t in range(NK):
        if not cand[t]:
            continue
        c[t] += 1
        if complete(c, h.n_melds, tb.forms_enabled, tb.quads):
            n += 1
            if n > 1:
                return 0
        c[t] -= 1
    return n == 1


# ---------------------------------------------------------------- the search
ctypedef struct Walk:
    const Table* tb
    const HandIn* h
    Result* r
    W w
    int uw                   # -1 until computed
    int c[NK]                # concealed tiles, win tile included
    int best_total
    int stack_kind[4]
    int stack_tile[4]
    int depth
    uint8_t static_cnt[NF]   # values of the per-hand predicates
    u64 static_mask[10]      # per form: the per-hand fans counted (2 words each)


cdef inline int position(int kind, int tile, int win) noexcept nogil:
    if kind == K_CHOW:
        if win == tile + 1:
            return P_CLOSED
        if (win == tile + 2 and tile % 9 == 0) or (win == tile and tile % 9 == 6):
            return P_EDGE
        return P_OPEN
    return P_PUNG


cdef void score_reading(Walk* wk, Cand* cd) noexcept nogil:
    """Every attribution of the win tile in one decomposition; keeps the best."""
    cdef const HandIn* h = wk.h
    cdef int win = h.win
    cdef int na = 0, i, j, kind, t, ws, pos, total, tmin
    cdef int a_set[8]
    cdef int a_pos[8]
    cdef bint match, dup
    cdef uint8_t cnt[NF]
    cdef u64 present[2]
    if cd.form == F_REG or cd.form == F_KS:
        for i in range(cd.n_csets):
            kind = cd.skind[h.n_melds + i]
            t = cd.stile[h.n_melds + i]
            match = ((kind == K_CHOW and t <= win <= t + 2 and t // 9 == win // 9)
                     or (kind == K_PUNG and t == win))
            if not match:
                continue
            dup = False
            for j in range(i):
                if cd.skind[h.n_melds + j] == kind and cd.stile[h.n_melds + j] == t:
                    dup = True
                    break
            if dup:
                continue
            a_set[na] = h.n_melds + i
            a_pos[na] = position(kind, t, win)
            na += 1
        if cd.pair == win:
            a_set[na] = WS_PAIR
            a_pos[na] = P_PAIR
            na += 1
        if cd.n_knit:
            for j in range(cd.n_knit):
                if cd.knit[j] == win:
                    a_set[na] = WS_NONE
                    a_pos[na] = P_SPECIAL
                    na += 1
                    break
        # stable sort by position
        for i in range(1, na):
            ws = a_set[i]
            pos = a_pos[i]
            j = i - 1
            while j >= 0 and a_pos[j] > pos:
                a_set[j + 1] = a_set[j]
                a_pos[j + 1] = a_pos[j]
                j -= 1
            a_set[j + 1] = ws
            a_pos[j + 1] = pos
    else:
        a_set[0] = WS_NONE
        a_pos[0] = P_SPECIAL
        na = 1
    for i in range(na):
        ws = a_set[i]
        pos = a_pos[i]
        for j in range(h.n_melds, cd.n_sets):
            cd.sconc[j] = not (j == ws and cd.skind[j] == K_PUNG and not h.self_drawn)
        cd.win_set = ws
        cd.pos = pos
        if pos == P_EDGE or pos == P_CLOSED or pos == P_PAIR:
            if wk.uw < 0:
                wk.uw = unique_wait(wk.tb, h)
            cd.uw = wk.uw
        else:
            cd.uw = 0
        total = evaluate(wk.tb, &wk.w, wk.static_cnt, wk.static_mask, cd, cnt, &tmin, present)
        if total > wk.best_total:
            wk.best_total = total
            wk.r.total = total
            wk.r.total_min = tmin
            memcpy(wk.r.fans, cnt, NF)
            wk.r.present[0] = present[0]
            wk.r.present[1] = present[1]
            memcpy(&wk.r.best, cd, sizeof(Cand))


cdef void init_cand(Walk* wk, Cand* cd, int form) noexcept nogil:
    cdef const HandIn* h = wk.h
    cdef int i
    cd.form = form
    cd.n_sets = h.n_melds
    for i in range(h.n_melds):
        cd.skind[i] = h.mkind[i]
        cd.stile[i] = h.mtile[i]
        cd.sconc[i] = h.mconc[i]
    cd.n_csets = 0
    cd.pair = -1
    cd.n_pairs = 0
    cd.n_knit = 0
    cd.win_set = WS_NONE
    cd.pos = P_SPECIAL
    cd.uw = 0


cdef void regular_leaf(Walk* wk, int pair_tile) noexcept nogil:
    cdef Cand cd
    cdef int i, n = wk.h.n_melds
    init_cand(wk, &cd, F_REG)
    for i in range(wk.depth):
        cd.skind[n + i] = wk.stack_kind[i]
        cd.stile[n + i] = wk.stack_tile[i]
        cd.sconc[n + i] = 1
    cd.n_csets = wk.depth
    cd.n_sets = n + wk.depth
    cd.pair = pair_tile
    score_reading(wk, &cd)


cdef void rec(Walk* wk, int* hh, int remaining, bint pair_left, int last_start,
              int last_type, int pair_tile) noexcept nogil:
    """The order of majiang._core.decompose.rec (pair < pung < chow at the lowest tile)."""
    cdef int i = last_start if last_start > 0 else 0, t
    while i < NK and hh[i] == 0:
        i += 1
    if i == NK:
        if remaining == 0 and not pair_left:
            regular_leaf(wk, pair_tile)
        return
    for t in range(3):
        if i == last_start and t < last_type:
            continue
        if t == 0:
            if not pair_left or hh[i] < 2:
                continue
            hh[i] -= 2
            rec(wk, hh, remaining, False, i, t, i)
            hh[i] += 2
        elif t == 1:
            if remaining == 0 or hh[i] < 3:
                continue
            hh[i] -= 3
            wk.stack_kind[wk.depth] = K_PUNG
            wk.stack_tile[wk.depth] = i
            wk.depth += 1
            rec(wk, hh, remaining - 1, pair_left, i, t, pair_tile)
            wk.depth -= 1
            hh[i] += 3
        else:
            if remaining == 0 or i >= 27 or i % 9 > 6 or hh[i + 1] == 0 or hh[i + 2] == 0:
                continue
            hh[i] -= 1; hh[i + 1] -= 1; hh[i + 2] -= 1
            wk.stack_kind[wk.depth] = K_CHOW
            wk.stack_tile[wk.depth] = i
            wk.depth += 1
            rec(wk, hh, remaining - 1, pair_left, i, t, pair_tile)
            wk.depth -= 1
            hh[i] += 1; hh[i + 1] += 1; hh[i + 2] += 1


cdef int score_core(const Table* tb, const HandIn* h, Result* r) noexcept nogil:
    """Best reading of one winning hand into r; returns the status (ST_*)."""
    cdef Walk wk
    cdef Cand cd
    cdef int i, j, t, k, n_before = 0, n = 0, distinct = 0, exposed_win = 0, has_kong = 0
    cdef int allb[NK]
    cdef int hh[NK]
    cdef int op[8]
    cdef int okd[8]
    cdef int ot[8]
    cdef int rest[NK]
    cdef int win = h.win
    cdef bint ok
    cdef W* w = &wk.w
    r.status = ST_INVALID
    r.total = 0
    r.total_min = 0
    if win < 0 or win >= NK or h.n_melds < 0 or h.n_melds > 4:
        return ST_INVALID
    for t in range(NK):
        allb[t] = h.before[t]
        n_before += h.before[t]
    for i in range(h.n_melds):
        t = h.mtile[i]
        if h.mkind[i] == K_CHOW:
            allb[t] += 1; allb[t + 1] += 1; allb[t + 2] += 1
            if not h.mconc[i] and t <= win <= t + 2:
                exposed_win += 1
        else:
            k = 4 if h.mkind[i] == K_KONG else 3
            allb[t] += k
            if h.mkind[i] == K_KONG:
                has_kong = 1
            if not h.mconc[i] and t == win:
                exposed_win += k
    # the reference's checks (the caller re-runs it to raise the right error)
    if n_before + 3 * h.n_melds != tb.hand_size or tb.hand_size != 13:
        return ST_INVALID
    if allb[win] >= 4:
        return ST_INVALID
    if h.kong and h.self_drawn and not has_kong:
        return ST_INVALID
    if h.kong and not h.self_drawn and allb[win]:
        return ST_INVALID
    if h.last_copy and h.before[win]:
        return ST_INVALID
    r.last_copy = h.last_copy or exposed_win == 3

    wk.tb = tb
    wk.h = h
    wk.r = r
    wk.uw = -1
    wk.best_total = -1
    wk.depth = 0
    for t in range(NK):
        wk.c[t] = h.before[t]
    wk.c[win] += 1
    allb[win] += 1
    # per-hand facts, from the bit set of the kinds present
    cdef u64 pm = 0, r9
    w.n4 = 0
    for t in range(NK):
        if allb[t]:
            pm |= (<u64>1) << t
            if allb[t] == 4:
                w.n4 += 1
    w.mask = ((pm & 0x1FF) != 0) | (((pm >> 9) & 0x1FF) != 0) << 1 | \
        (((pm >> 18) & 0x1FF) != 0) << 2 | (((pm >> 27) & 0xF) != 0) << 3 | \
        (((pm >> 31) & 0x7) != 0) << 4
    w.green = (pm & ~M_GREEN) == 0
    w.term = (pm & ~M_TERM) == 0
    w.termhonor = (pm & ~M_TERM_HONOR) == 0
    w.simples = (pm & M_TERM_HONOR) == 0
    w.reversible = (pm & ~M_REVERSIBLE) == 0
    w.has_honor = (pm & M_HONORS) != 0
    w.honors_only = (pm & ~M_HONORS) == 0
    r9 = (pm | (pm >> 9) | (pm >> 18)) & 0x1FF
    if r9:
        w.rlo = ctz64(r9) + 1
        w.rhi = 64 - clz64(r9)
    else:
        w.rlo = 10
        w.rhi = 0
    w.nine_gates = 0
    if h.n_melds == 0 and win < 27:
        k = win - win % 9
        ok = h.before[k] == 3 and h.before[k + 8] == 3
        for i in range(1, 8):
            if h.before[k + i] != 1:
                ok = False
        w.nine_gates = ok
    w.n_exposed = 0
    for i in range(h.n_melds):
        if not h.mconc[i]:
            w.n_exposed += 1
    w.mk = 0
    w.ck = 0
    for i in range(h.n_melds):
        if h.mkind[i] == K_KONG:
            if h.mconc[i]:
                w.ck += 1
            else:
                w.mk += 1
    w.self_drawn = h.self_drawn
    w.last_copy = r.last_copy
    w.kong = h.kong
    w.last_tile = h.last_tile
    w.seat = h.seat
    w.prevalent = h.prevalent
    w.flowers = h.flowers

    # the per-hand predicates, once
    cdef int sv[NF]
    cdef u64 sp[2]
    sp[0] = 0
    sp[1] = 0
    static_values(w, sv)
    for j in range(tb.n_static):
        i = tb.static_ids[j]
        k = sv[i]
        wk.static_cnt[i] = k
        if k:
            sp[i >> 6] |= (<u64>1) << (i & 63)
    for t in range(5):
        wk.static_mask[2 * t] = sp[0] & tb.static_form_mask[t][0]
        wk.static_mask[2 * t + 1] = sp[1] & tb.static_form_mask[t][1]
    for t in range(NK):
        n += wk.c[t]
        if t < 27 and wk.c[t]:
            distinct += 1
    # special forms
    if h.n_melds == 0 and n == 14:
        if tb.forms_enabled & (1 << F_SP):
            ok = True
            for t in range(NK):
                if wk.c[t] % 2 or (not tb.quads and wk.c[t] > 2):
                    ok = False
                    break
            if ok:
                init_cand(&wk, &cd, F_SP)
                for t in range(NK):
                    for k in range(wk.c[t] // 2):
                        cd.pairs[cd.n_pairs] = t
                        cd.n_pairs += 1
                score_reading(&wk, &cd)
        if tb.forms_enabled & (1 << F_TO):
            ok = True
            k = 0
            for t in range(NK):
                if is_term_honor(t):
                    if not wk.c[t]:
                        ok = False
                        break
                    k += wk.c[t]
            if ok and k == 14:
                init_cand(&wk, &cd, F_TO)
                for t in range(NK):
                    if is_term_honor(t) and wk.c[t] == 2:
                        cd.pair = t
                        break
                score_reading(&wk, &cd)
        if tb.forms_enabled & (1 << F_HK):
            init_cand(&wk, &cd, F_HK)
            k = honors_knitted(wk.c, 0, n, cd.knit)
            if k >= 0:
                cd.n_knit = k
                score_reading(&wk, &cd)
    if (tb.forms_enabled & (1 << F_KS)) and h.n_melds <= 1 and distinct >= 9:
        for k in range(6):
            ok = True
            for i in range(9):
                if not wk.c[KS[k][i]]:
                    ok = False
                    break
            if not ok:
                continue
            for t in range(NK):
                rest[t] = wk.c[t]
            for i in range(9):
                rest[KS[k][i]] -= 1
            n_before = set_and_pair(rest, 1 - h.n_melds, op, okd, ot, 8)
            for i in range(n_before):
                init_cand(&wk, &cd, F_KS)
                cd.n_knit = 9
                for t in range(9):
                    cd.knit[t] = KS[k][t]
                cd.pair = op[i]
                if okd[i] >= 0:
                    cd.skind[cd.n_sets] = okd[i]
                    cd.stile[cd.n_sets] = ot[i]
                    cd.sconc[cd.n_sets] = 1
                    cd.n_sets += 1
                    cd.n_csets = 1
                score_reading(&wk, &cd)
    if tb.forms_enabled & (1 << F_REG):
        for t in range(NK):
            hh[t] = wk.c[t]
        rec(&wk, hh, (n - 2) // 3, True, -1, -1, -1)
    if wk.best_total < 0:
        r.status = ST_NOT_WINNING
        return ST_NOT_WINNING
    r.status = ST_OK
    return ST_OK


# ---------------------------------------------------------------- Python side
cdef inline int fan_count(const Result* r, int fid) noexcept nogil:
    """Count of fan fid in a result (0 when not counted)."""
    return r.fans[fid] if (r.present[fid >> 6] >> (fid & 63)) & 1 else 0


cdef class FanTable:
    """The data half of the kernel: values, forms, 不计 lists … of one fan table.

    Built by :mod:`majiang.scoring` from a ruleset (``_kernel_table``); this
    module knows nothing of rulesets.

    Parameters
    ----------
    fans : sequence of tuples
        ``(id, value, forms, is_combination, excludes, reduces, minimum, fallback)``
        per fan: ``forms`` a tuple of form names or None (all), ``excludes`` ids,
        ``reduces`` ``((id, n), ...)``.
    forms : sequence of str
        The ruleset's winning forms.
    seven_pairs_quads : bool
    hand_size : int
    max_flowers : int
        Flowers of the tile set (more is an error the caller raises).
    """

    cdef Table t
    cdef readonly int max_flowers

    def __init__(self, fans, forms, bint seven_pairs_quads, int hand_size, int max_flowers=8):
        cdef int fid, x, i
        memset(&self.t, 0, sizeof(Table))
        allforms = (1 << len(FORMS)) - 1
        fallback = []
        for (fid, value, fforms, is_comb, excludes, reduces, minimum, is_fallback) in fans:
            if not 1 <= fid < NF:
                raise ValueError(f"fan id {fid} outside 1..{NF - 1}")
            if is_comb != (fid in COMBINATION_IDS) or (not is_comb and fid not in PREDICATE_IDS):
                raise ValueError(f"fan {fid}: no such {'combination' if is_comb else 'predicate'}"
                                 " in the kernel")
            self.t.value[fid] = value
            self.t.kind[fid] = FK_COMB if is_comb else FK_PRED
            self.t.forms[fid] = allforms if fforms is None else \
                sum(1 << FORMS.index(f) for f in set(fforms))
            ex = sorted(excludes)
            if len(ex) > MAXX:
                raise ValueError(f"fan {fid} excludes more than {MAXX} fans")
            self.t.n_excl[fid] = len(ex)
            for i, x in enumerate(ex):
                self.t.excl[fid][i] = x
            for x, n in reduces:
                if self.t.n_red >= MAXR:
                    raise ValueError("too many partial reductions")
                self.t.red_fid[self.t.n_red] = fid
                self.t.red_x[self.t.n_red] = x
                self.t.red_k[self.t.n_red] = n
                self.t.n_red += 1
            self.t.toward_min[fid] = bool(minimum)
            self.t.blocks_fallback[fid] = bool(minimum) and not is_fallback
            if is_fallback:
                fallback.append(fid)
        self.t.fallback = fallback[0] if fallback else 0
        cdef int f, k
        for f in range(len(FORMS)):
            for fid in range(1, NF):
                if not (self.t.forms[fid] & (1 << f)):
                    continue
                if self.t.kind[fid] == FK_PRED and not STATIC[fid]:
                    self.t.pred_ids[f][self.t.n_pred[f]] = fid
                    self.t.n_pred[f] += 1
                elif self.t.kind[fid] == FK_COMB:
                    self.t.comb_ids[f][self.t.n_comb[f]] = fid
                    self.t.n_comb[f] += 1
        for fid in range(1, NF):
            if STATIC[fid] and self.t.kind[fid] == FK_PRED:
                self.t.static_ids[self.t.n_static] = fid
                self.t.n_static += 1
                for f in range(len(FORMS)):
                    if self.t.forms[fid] & (1 << f):
                        self.t.static_form_mask[f][fid >> 6] |= (<u64>1) << (fid & 63)
        for fid in range(1, NF):
            for k in range(self.t.n_excl[fid]):
                x = self.t.excl[fid][k]
                self.t.excl_mask[fid][x >> 6] |= (<u64>1) << (x & 63)
            if self.t.blocks_fallback[fid]:
                self.t.block_mask[fid >> 6] |= (<u64>1) << (fid & 63)
        self.t.forms_enabled = sum(1 << FORMS.index(f) for f in set(forms))
        self.t.quads = seven_pairs_quads
        self.t.hand_size = hand_size
        self.max_flowers = max_flowers


cdef class KernelResult:
    """The best reading found by the kernel (plain ints; see :func:`score_hand`)."""

    cdef Result r
    cdef HandIn h
    cdef readonly int n_melds
    cdef readonly object hand
    """The hand scored (as passed to :func:`score_hand`)."""
    cdef readonly object ruleset
    """The ruleset object passed to :func:`score_hand`."""

    @property
    def win(self):
        return self.h.win

    @property
    def self_drawn(self):
        return bool(self.h.self_drawn)

    @property
    def kong(self):
        return bool(self.h.kong)

    @property
    def last_tile(self):
        return bool(self.h.last_tile)

    @property
    def seat_wind(self):
        return self.h.seat

    @property
    def prevalent_wind(self):
        return self.h.prevalent

    @property
    def flowers(self):
        """Flowers scored (those of the hand when it holds any)."""
        return self.h.flowers

    @property
    def total(self):
        return self.r.total

    @property
    def total_min(self):
        """Points of the fans that count toward the minimum."""
        return self.r.total_min

    @property
    def last_copy(self):
        return bool(self.r.last_copy)

    @property
    def form(self):
        return FORMS[self.r.best.form]

    @property
    def fan_counts(self):
        """``((fan id, count), ...)`` in id order."""
        cdef int fid
        cdef list out = []
        for fid in range(1, NF):
            if fan_count(&self.r, fid):
                out.append((fid, self.r.fans[fid]))
        return tuple(out)

    @property
    def fan_keys(self):
        """``(fan id * 256 + count, ...)`` in id order (cheap keys for the caller's caches)."""
        cdef int fid
        cdef list out = []
        for fid in range(1, NF):
            if fan_count(&self.r, fid):
                out.append(fid * 256 + self.r.fans[fid])
        return out

    @property
    def fan_vector(self):
        """Counts indexed by fan id (length :data:`N_FAN_IDS` = 83, index 0 unused), a
        uint8 array."""
        cdef int fid
        out = np.zeros(NF, dtype=np.uint8)
        cdef uint8_t[::1] v = out
        for fid in range(NF):
            v[fid] = fan_count(&self.r, fid)
        return out

    @property
    def pair(self):
        return None if self.r.best.pair < 0 else self.r.best.pair

    @property
    def pairs(self):
        cdef int i
        return tuple(self.r.best.pairs[i] for i in range(self.r.best.n_pairs))

    @property
    def knitted(self):
        cdef int i
        return tuple(self.r.best.knit[i] for i in range(self.r.best.n_knit))

    @property
    def concealed_sets(self):
        """The decomposition's concealed sets ``(("chow" | "pung", tile), ...)`` in core order."""
        cdef int i, n = self.n_melds
        return tuple((KINDS[self.r.best.skind[i]], self.r.best.stile[i])
                     for i in range(n, self.r.best.n_sets))

    @property
    def set_concealed(self):
        """Concealed flag of every set (melds first) in the chosen attribution."""
        cdef int i
        return tuple(bool(self.r.best.sconc[i]) for i in range(self.r.best.n_sets))

    @property
    def win_set(self):
        """Index of the set the win tile completed, -1 for the pair, None otherwise."""
        cdef int ws = self.r.best.win_set
        return None if ws == WS_NONE else ws

    @property
    def win_position(self):
        return POSITIONS[self.r.best.pos]

    @property
    def unique_wait(self):
        return bool(self.r.best.uw)


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

# Declarations shared with other core modules (e.g. probability kernels).
from libc.stdint cimport uint8_t, int8_t, uint64_t

cdef enum:
    N_KINDS = 34
    FORM_REGULAR = 1
    FORM_SEVEN_PAIRS = 2
    FORM_THIRTEEN_ORPHANS = 4
    FORM_HONORS_KNITTED = 8
    FORM_KNITTED_STRAIGHT = 16
    WHOLE_HAND_FORMS = 2 | 4 | 8   # forms that need all 13/14 tiles concealed
    VOID_MAN = 1                   # void_suits bits: 万 (kinds 0-8)
    VOID_PIN = 2                   #                  筒 (kinds 9-17)
    VOID_SOU = 4                   #                  条 (kinds 18-26)
    ERR_BAD_COUNT = -100     # a kind above 4 copies
    ERR_BAD_SIZE = -101      # tile total is a multiple of 3 or above 17


# pair_mask with every kind allowed (bits 0..33): "no pair restriction".  Any value
# whose low 34 bits are all set means the same (e.g. <uint64_t>-1).
cdef inline uint64_t pair_all() noexcept nogil:
    return (<uint64_t>1 << 34) - 1


cdef struct Opts:
    # All shanten kernels read their options from this struct.  "No constraint"
    # values: mask as wanted, quads False, caps NULL, jokers 0, fifth False,
    # pair_mask pair_all(), void_suits 0.  Build it with make_opts_c.
    int mask               # winning forms (FORM_* bits)
    bint quads             # seven pairs may use a quad as two pairs
    const uint8_t* caps    # copies available to the concealed hand per kind (34 entries;
                           # tile-set copies minus copies locked in melds); NULL = 4 each.
                           # cap 0 = kind not in the tile set; held copies above the cap
                           # are unusable (they must be discarded).
    int jokers             # wild tiles held beside the count vector
    bint fifth             # a joker may stand for a fifth copy: the regular form may use
                           # caps + jokers copies of any kind (also a kind with cap 0, so
                           # leave it off with a reduced tile set; void suits excepted)
    uint64_t pair_mask     # bit k: kind k may be the pair of a REGULAR arrangement
                           # (seven pairs / orphans / knitted forms are exempt);
                           # pair_all() (low 34 bits set) = no restriction
    int void_suits         # VOID_* bits; nonzero: the complete concealed hand holds no
                           # tile of at least one of these suits (缺一门), every form;
                           # 0 = no void rule.  Callers fold exposed melds in by
                           # removing a suit a meld holds.
    # Whole-hand forms (seven pairs, thirteen orphans, honors-and-knitted) are tried
    # when the hand needs exactly 4 sets (13/14 concealed tiles + jokers).  A caller
    # whose hand has exposed melds with 13/14 concealed tiles (16-tile rulesets) must
    # clear WHOLE_HAND_FORMS from mask itself.


# Call ensure_tables() and ensure_pair_tables(pair_mask) once with the GIL before using
# shanten_opts_c (make_opts_c builds nothing).  Without the pair tables a restricted pair
# mask is still exact but runs the direct programme (~10 us instead of ~0.2 us a hand).
cdef Opts make_opts_c(int mask, bint quads, const uint8_t* caps, int jokers, bint fifth,
                      uint64_t pair_mask, int void_suits) noexcept nogil
cdef int shanten_opts_c(const uint8_t* h, const Opts* o) noexcept nogil
cdef void ensure_tables() except *
cdef int ensure_pair_tables(uint64_t pair_mask) except -1
cdef int shanten_c(const uint8_t* h, int mask, bint quads, const uint8_t* caps) noexcept nogil
cdef int shanten_jokers_c(const uint8_t* h, int mask, bint quads, const uint8_t* caps,
                          int jokers, bint fifth) noexcept nogil
cdef int n_sets_c(const uint8_t* h) noexcept nogil
# Ukeire of a 3n+1 hand (n <= 13, no caps, jokers, void suits or pair restriction) by
# table rows (efficiency_ukeire.pxi): live[k] >= 0 exactly for the kinds whose draw
# lowers the shanten (4 - held - visible[k] copies, at least 0), -1 for the others;
# returns the shanten, or a code below -1 when the hand is outside the tables.
# ``only``: 34 flags, the only kinds that may lower the non-knitted forms (NULL: all).
cdef int ukeire_table_c(uint8_t* h, int mask, bint quads, int8_t* live,
                        const uint8_t* visible=*, const uint8_t* only=*) noexcept nogil
# One group's distance row (the suits g = 0-2, the honors g = 3) under caps and a pair
# pattern: out[m * 2 + p] for m = 0..5 sets (12 entries), 100 or more = impossible.
# Used by shapes.pyx (regional shape rules combine the rows themselves).
cdef void group_row(const uint8_t* h, const uint8_t* caps, int g, int M, int pair_bits,
                    uint8_t* out) noexcept nogil

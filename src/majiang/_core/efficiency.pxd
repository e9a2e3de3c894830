# Declarations shared with other core modules (e.g. probability kernels).
from libc.stdint cimport uint8_t, int8_t

cdef enum:
    N_KINDS = 34
    FORM_REGULAR = 1
    FORM_SEVEN_PAIRS = 2
    FORM_THIRTEEN_ORPHANS = 4
    FORM_HONORS_KNITTED = 8
    FORM_KNITTED_STRAIGHT = 16
    ERR_BAD_COUNT = -100     # a kind above 4 copies
    ERR_BAD_SIZE = -101      # tile total is a multiple of 3 or above 17

cdef int shanten_c(const uint8_t* h, int mask, bint quads, const uint8_t* caps) noexcept nogil
cdef int shanten_jokers_c(const uint8_t* h, int mask, bint quads, const uint8_t* caps,
                          int jokers, bint fifth) noexcept nogil
cdef int n_sets_c(const uint8_t* h) noexcept nogil

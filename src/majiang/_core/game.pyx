# cython: language_level=3
"""Compiled helpers of the game engine: shape checks, the efficiency bot's choices and
the compiled hand loop (:class:`FastHand`).

Private module: :mod:`majiang.game` validates everything and owns the rules.  The
kernels here know no ruleset; they take count vectors and a :class:`ShapeOpts`
(forms mask, seven-pairs quads, per-kind caps, pair mask, void-suit bits, whether a
joker may stand for a fifth copy) and call the shanten core
(:mod:`majiang._core.efficiency`, ``shanten_opts_c``) without the GIL.

Count vectors are C-contiguous ``uint8 (34,)``; ``visible`` is what the player sees
besides their own hand and own melds (``uint8 (34,)``).

The module is compiled from this file and the ``game_*.pxi`` parts it includes (one
concept each; included text, so the speed is that of one file).
"""
from libc.stdint cimport uint8_t, int8_t, int16_t, int64_t, uint64_t
from libc.string cimport memset
from libc.math cimport INFINITY

from .efficiency cimport (Opts, make_opts_c, shanten_opts_c, ensure_tables,
                          ensure_pair_tables, ukeire_table_c, pair_all)

ensure_tables()

# One extension module in parts (textual includes: cdef functions inline across them):
# ShapeOpts, shape checks, waits, the knitted bound; the efficiency bot's discard choice
include "game_shapes.pxi"
# the expert's plan distances, every plan and candidate discard in one call
include "game_plans.pxi"
include "game_choose.pxi"


# ===========================================================================
# The compiled hand loop (built-in players, no jokers): see majiang.game.engine
# ===========================================================================
from cpython.pycapsule cimport PyCapsule_GetPointer
from numpy.random cimport bitgen_t
from .fans cimport Verdict, WinVerdict, verdict_c

# the hand's random stream: numpy's seed words and wall shuffle without numpy's overhead
include "game_stream.pxi"

cdef extern from *:
    """
    static inline unsigned long long mj_mulhi(unsigned long long a, unsigned long long b) {
        return (unsigned long long)(((__uint128_t)a * b) >> 64);
    }
    """
    unsigned long long mj_mulhi(unsigned long long a, unsigned long long b) nogil

cdef enum:
    MAXM = 8
    MAXD = 96
    MAXF = 40
    MAXWON = 64
    MAXWALL = 256
    MAXOPT = 24
    # option kinds
    O_WIN = 0
    O_CKONG = 1
    O_AKONG = 2
    O_KONG = 3
    O_PUNG = 4
    O_CHOW = 5
    # outcomes
    R_DISCARD = 0
    R_END = 1
    R_NEXT = 2
    R_NONE = 3
    R_MELD = 4
    R_ROBBED_NONE = 5
    # end reasons
    E_WIN = 0
    E_WALL = 1
    E_BLOOD = 2

cdef struct FMeld:
    int kind          # 0 chow, 1 pung, 2 kong
    int tile
    int concealed
    int frm
    int n
    int added         # a kong added to a claimed pung (转弯豆)

cdef struct TenpaiCands:
    # a hand's tenpai discards (kind order) with their waits and live copies
    int nc
    int cx[34]            # the discard
    int ctot[34]          # live copies of its waits (positive ones summed)
    int nw[34]            # how many waits
    uint8_t ww[34][34]    # the waits
    int wl[34][34]        # their live copies (may be 0 or less: dead)

cdef struct FSeat:
    uint8_t phys[34]
    uint8_t exposed[34]
    uint8_t meldall[34]
    FMeld melds[MAXM]
    int n_melds
    int flowers[MAXF]
    int n_flowers
    int disc[MAXD]
    int n_disc
    int won[MAXWON]
    int n_won
    int out
    int locked
    int void
    int drawn
    uint64_t passed
    int pass_all
    int kexp
    int kcon
    int calls
    int ptype         # 0 random, 1 efficiency
    bitgen_t* bg
    int s13           # cached loose shanten of the 3n+1 hand (before any drawn tile)
    int s13_ok
    int ndisc_made    # discards made (first-turn flags)
    int ndrawn        # draws in play (first-turn flags)


FIRST_TURNS = ("", "heavenly", "earthly", "human")


cdef inline int mask_for(int mask, int n_melds) noexcept nogil:
    if n_melds:
        mask &= ~(2 | 4 | 8)
    if n_melds > 1:
        mask &= ~16
    return mask if mask else 1

# FastHand(_HandBots(_HandState)), a class a part (Cython has no include in a class
# body): _HandState the wall, the deal and the seats; _HandBots the win checks before
# THE predicate and the bots' choices; FastHand the turn loop, claims and wins
include "game_hand.pxi"
include "game_bots.pxi"
include "game_loop.pxi"


def knitted_lower_bound(const uint8_t[::1] counts, int mask, int jokers=0):
    """:func:`knit_lb` for tests: a lower bound of the knitted forms' shanten."""
    return knit_lb(&counts[0], mask, jokers)

# Declarations of the fan kernel shared with other core modules: the probability
# kernels and the game loop ask :func:`verdict_c` whether a complete hand reaches the
# ruleset's minimum under the same compiled scorer as :func:`majiang.score`.
from libc.stdint cimport uint8_t

ctypedef unsigned long long u64

cdef enum:
    NK = 34               # tile kinds
    NF = 83               # fan ids 1..81, 82 明暗杠 (option; index 0 unused)
    MAXX = 16             # most fans one fan excludes
    MAXR = 8              # most partial reductions
    MAXC = 32             # most combination groups in one reading

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


ctypedef struct Verdict:
    # what a verdict reads besides the hand: the table, the seat's fixed context
    const Table* tp              # points into the FanTable a WinVerdict keeps alive
    HandIn h                     # the template: melds, winds, flowers; no flags
    int min_fan
    int flowers_count            # flowers count toward the minimum


cdef class WinVerdict:
    # One seat's fixed win context under one kernel fan table and the ruleset's minimum;
    # see fans_verdict.pxi.  Callers without the GIL keep the object and pass &v.
    cdef object table            # the FanTable (kept alive: v.tp points into it)
    cdef Verdict v


cdef int verdict_c(const Verdict* v, const uint8_t* before, int win,
                   int self_drawn) noexcept nogil

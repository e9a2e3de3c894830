# cython: language_level=3
"""Every decomposition of a complete concealed vector (private; see majiang.efficiency).

Regular form: blocks (pair, pung, chow) are chosen for the lowest remaining
tile, in non-decreasing order of (that tile, block type), so each multiset of
blocks is produced exactly once.  With ``honor_chows`` (the rule spec's
``RuleSpec.honor_chows``, 南昌) an honour chow is a block too: three different winds
or the three dragons, named by its start (``majiang.hand.HONOR_CHOW_STARTS``); from
the lowest remaining tile 东 there are three of them (东南西, 北东南, 西北东), from 南 one
(南西北), from 中 one (the dragons).
"""
from libc.stdint cimport uint8_t
cimport numpy as cnp

cnp.import_array()

cdef enum:
    N_KINDS = 34
    PAIR = 0
    PUNG = 1
    CHOW = 2
    N_TYPES = 6           # 3, 4, 5: the honour chows holding the lowest tile

# the honour chows from their lowest kind i (types 3, 4, 5): the two other kinds and the
# chow's start (majiang.hand.chow_tiles); -1 where there is none
cdef int HC_A[21]
cdef int HC_B[21]
cdef int HC_START[21]
HC_A[:] = [28, 29, -1, -1, 32, -1, -1, 28, -1, -1, -1, -1, -1, -1,
           29, -1, -1, -1, -1, -1, -1]
HC_B[:] = [29, 30, -1, -1, 33, -1, -1, 30, -1, -1, -1, -1, -1, -1,
           30, -1, -1, -1, -1, -1, -1]
HC_START[:] = [27, 28, -1, -1, 31, -1, -1, 30, -1, -1, -1, -1, -1, -1,
               29, -1, -1, -1, -1, -1, -1]


cdef void rec(uint8_t* h, int remaining_sets, bint pair_left, int last_start, int last_type,
              list stack, list out, int pair_tile, bint honor_chows):
    cdef int i = 0, t, a, b, v
    while i < N_KINDS and h[i] == 0:
        i += 1
    if i == N_KINDS:
        if remaining_sets == 0 and not pair_left:
            out.append((pair_tile, tuple(stack)))
        return
    for t in range(N_TYPES if honor_chows and i >= 27 else 3):
        if i == last_start and t < last_type:
            continue
        if t == PAIR:
            if not pair_left or h[i] < 2:
                continue
            h[i] -= 2
            rec(h, remaining_sets, False, i, t, stack, out, i, honor_chows)
            h[i] += 2
        elif t == PUNG:
            if remaining_sets == 0 or h[i] < 3:
                continue
            h[i] -= 3
            stack.append(("pung", i))
            rec(h, remaining_sets - 1, pair_left, i, t, stack, out, pair_tile, honor_chows)
            stack.pop()
            h[i] += 3
        elif t > CHOW:
            v = t - 3
            a = HC_A[v * 7 + i - 27]
            b = HC_B[v * 7 + i - 27]
            if remaining_sets == 0 or a < 0 or h[a] == 0 or h[b] == 0:
                continue
            h[i] -= 1
            h[a] -= 1
            h[b] -= 1
            stack.append(("chow", HC_START[v * 7 + i - 27]))
            rec(h, remaining_sets - 1, pair_left, i, t, stack, out, pair_tile, honor_chows)
            stack.pop()
            h[i] += 1
            h[a] += 1
            h[b] += 1
        else:
            if remaining_sets == 0 or i >= 27 or i % 9 > 6 or h[i + 1] == 0 or h[i + 2] == 0:
                continue
            h[i] -= 1
            h[i + 1] -= 1
            h[i + 2] -= 1
            stack.append(("chow", i))
            rec(h, remaining_sets - 1, pair_left, i, t, stack, out, pair_tile, honor_chows)
            stack.pop()
            h[i] += 1
            h[i + 1] += 1
            h[i + 2] += 1


def regular_decompositions(cnp.ndarray counts, int n_sets, bint honor_chows=False):
    """List of (pair_kind, ((\"chow\"|\"pung\", lowest_kind), ...)) for a validated vector;
    with ``honor_chows`` honour chows are sets too (an honour chow named by its start)."""
    cdef cnp.ndarray work = counts.copy()
    cdef list out = []
    rec(<uint8_t*>cnp.PyArray_DATA(work), n_sets, True, -1, -1, [], out, -1, honor_chows)
    return out

# cython: language_level=3
"""Every decomposition of a complete concealed vector (private; see majiang.efficiency).

Regular form: blocks (pair, pung, chow) are chosen for the lowest remaining
tile, in non-decreasing order of (start tile, block type), so each multiset of
blocks is produced exactly once.
"""
from libc.stdint cimport uint8_t
cimport numpy as cnp

cnp.import_array()

cdef enum:
    N_KINDS = 34
    PAIR = 0
    PUNG = 1
    CHOW = 2


cdef void rec(uint8_t* h, int remaining_sets, bint pair_left, int last_start, int last_type,
              list stack, list out, int pair_tile):
    cdef int i = 0, t
    while i < N_KINDS and h[i] == 0:
        i += 1
    if i == N_KINDS:
        if remaining_sets == 0 and not pair_left:
            out.append((pair_tile, tuple(stack)))
        return
    for t in range(3):
        if i == last_start and t < last_type:
            continue
        if t == PAIR:
            if not pair_left or h[i] < 2:
                continue
            h[i] -= 2
            rec(h, remaining_sets, False, i, t, stack, out, i)
            h[i] += 2
        elif t == PUNG:
            if remaining_sets == 0 or h[i] < 3:
                continue
            h[i] -= 3
            stack.append(("pung", i))
            rec(h, remaining_sets - 1, pair_left, i, t, stack, out, pair_tile)
            stack.pop()
            h[i] += 3
        else:
            if remaining_sets == 0 or i >= 27 or i % 9 > 6 or h[i + 1] == 0 or h[i + 2] == 0:
                continue
            h[i] -= 1
            h[i + 1] -= 1
            h[i + 2] -= 1
            stack.append(("chow", i))
            rec(h, remaining_sets - 1, pair_left, i, t, stack, out, pair_tile)
            stack.pop()
            h[i] += 1
            h[i + 1] += 1
            h[i + 2] += 1


def regular_decompositions(cnp.ndarray counts, int n_sets):
    """List of (pair_kind, ((\"chow\"|\"pung\", lowest_kind), ...)) for a validated vector."""
    cdef cnp.ndarray work = counts.copy()
    cdef list out = []
    rec(<uint8_t*>cnp.PyArray_DATA(work), n_sets, True, -1, -1, [], out, -1)
    return out

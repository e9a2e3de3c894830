# cython: language_level=3
"""Shanten (向听) and ukeire (有效牌) kernels on 34-kind count vectors.

Private module: the public, validating wrappers live in ``majiang.efficiency``.

Definition (exact about the 4-copy limit)
-----------------------------------------
For a concealed count vector ``h`` that must form ``M`` sets and one pair,
the *distance* is ``d(h) = min_w sum_i max(w_i - h_i, 0)`` over every complete
arrangement ``w`` (``M`` sets + a pair, ``w_i <= cap_i``, ``cap_i = 4`` minus
the copies locked in exposed melds).  ``d`` is the number of tiles still to be
drawn; shanten is ``d - 1`` (−1 complete, 0 tenpai).  Because ``w`` never holds
a fifth copy, a wait on a kind the hand already holds four of is not a wait.

How it is computed
------------------
A suit is scanned left to right by a dynamic programme whose state is the
number of open chows started one and two positions back, the number of sets
and whether the pair is placed; a position's cost is ``max(w_i - h_i, 0)``.
Running that programme over a prefix trie of all suit vectors with at most 14
tiles gives a table (per suit vector: distance for 0..4 sets, with/without the
pair), built once per user and kept in a checksummed cache file (see "The table
cache on disk" below; a process reads it in a few milliseconds instead of building
for a second or so).  A hand is then four table look-ups (three suits, honors) and a
min-plus combination, branchless and specialised by the number of sets
(``combine_fast``).  Suits that
need something the table lacks (more than 14 tiles, five sets for 16-tile
hands, caps below 4) run the same programme directly.

Shape options (``Opts``, see efficiency.pxd)
--------------------------------------------
* ``caps``: a tile set (108: honors cap 0; 84: no 万, no winds) minus the copies
  in melds.  A group whose caps are all 0 contributes nothing (no table look-up);
  held copies above a cap are never part of ``w`` (they must be discarded).
* ``pair_mask`` (二五八将): the programme's pair may sit only on allowed
  positions.  A group with no allowed position keeps the pairless half of its
  table row; a mixed group (2/5/8 of a suit) reads a second table of the same
  ranking built for that pattern on first use (``ensure_pair_tables``).
* ``void_suits`` (缺一门): the least, over the eligible suits ``s``, of the
  distance with the caps of ``s`` set to 0 -- a complete hand lacking ``s`` is
  exactly an arrangement within those caps, for every form.
* Whole-hand forms (seven pairs, thirteen orphans, 全不靠) are tried when the
  hand needs four sets and honour the caps (a pair needs cap 2, two pairs of a
  kind cap 4, each orphan / knitted kind cap 1).
"""
from libc.stdint cimport uint8_t, int8_t, int32_t, int64_t, uint64_t
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, free
from cpython.long cimport PyLong_AsLongAndOverflow

cimport cython
import numpy as np
cimport numpy as cnp

cnp.import_array()

cdef enum:
    MAXM = 5              # most sets the direct programme handles (16-tile hands)
    ROW = 12              # (MAXM + 1) * 2 entries: index m * 2 + p
    TM = 4                # most sets stored in the tables
    TROW = 16             # table row: (TM + 1) * 2 distances, then the statistics below
    ST_PAIRS = 10         # kinds with >= 2 copies       (seven pairs, distinct)
    ST_SINGLES = 11       # kinds with exactly 1 copy
    ST_HALVES = 12        # sum of count // 2            (seven pairs, a quad = two pairs)
    ST_ODD = 13           # kinds with an odd count
    ST_ORPHANS = 14       # terminal/honor kinds present (thirteen orphans)
    ST_ORPHAN_PAIR = 15   # 1 if a terminal/honor kind has >= 2 copies
    NSTATE = 25           # (a, b): open chows started 1 and 2 positions back
    DPSIZE = 300          # NSTATE * ROW
    INF = 100
    MAXSUM = 14           # tables cover suit vectors with at most 14 tiles
    NOT_FAST = -200       # shanten_fast: input is not a plain uint8 (34,) vector


# The kernel is one compilation unit (cdef functions inline across it) split by concept
# into the parts below, textually included in this order: the distance programme, its
# tables and their disk cache; group rows, min-plus and one vector's shanten; seven
# pairs, thirteen orphans and the knitted forms; the shape options (caps, 2-5-8 pair,
# void suits, jokers); the Python entry points (shanten_one / _fast / _many, ukeire,
# discard_rows); direct parsing of plain text; ukeire by table rows (the quick path);
# the second order: the rows and products of a hand, then the effective draws and
# discard_columns.
include "efficiency_tables.pxi"
include "efficiency_shanten.pxi"
include "efficiency_forms.pxi"
include "efficiency_options.pxi"
include "efficiency_entry.pxi"
include "efficiency_parse.pxi"
include "efficiency_ukeire.pxi"
include "efficiency_so_context.pxi"
include "efficiency_second_order.pxi"

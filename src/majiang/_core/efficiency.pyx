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

# ---------------------------------------------------------------------------
# The per-position dynamic programme
# ---------------------------------------------------------------------------

cdef inline void dp_init(uint8_t* D) noexcept nogil:
    memset(D, INF, DPSIZE)
    D[0] = 0


cdef void dp_step(const uint8_t* Din, uint8_t* Dout, int h, int cap, bint chow_ok,
                  bint pair_ok) noexcept nogil:
    """Advance the programme over one position holding ``h`` tiles (cap ``cap``); the
    pair may sit on this position only if ``pair_ok``."""
    cdef int a, b, c, cmax, kind, w, cost, madd, pair, m, p, v, idx
    cdef const uint8_t* src
    cdef uint8_t* dst
    memset(Dout, INF, DPSIZE)
    for a in range(5):
        for b in range(5 - a):
            src = Din + (a * 5 + b) * ROW
            # skip dead states quickly
            v = INF
            for m in range(ROW):
                if src[m] < v:
                    v = src[m]
            if v >= INF:
                continue
            cmax = 4 - a - b if chow_ok else 0
            for c in range(cmax + 1):
                dst = Dout + (c * 5 + a) * ROW
                for kind in range(6):
                    # kind = 2 * pungs + pair: pungs 0..2 of this kind, pair 0/1;
                    # more than one block of a kind needs cap > 4 (jokers as fifth copies)
                    pair = kind & 1
                    if pair and not pair_ok:
                        continue
                    madd = c + (kind >> 1)
                    w = a + b + c + 3 * (kind >> 1) + 2 * pair
                    if w > cap:
                        continue
                    cost = w - h if w > h else 0
                    for m in range(MAXM + 1 - madd):
                        for p in range(2 - pair):
                            v = src[m * 2 + p]
                            if v >= INF:
                                continue
                            v += cost
                            idx = (m + madd) * 2 + p + pair
                            if v < dst[idx]:
                                dst[idx] = <uint8_t>v


cdef void dp_direct(const uint8_t* h, const uint8_t* caps, int npos, bint chows,
                    int pair_bits, uint8_t* row) noexcept nogil:
    """Run the programme over ``npos`` positions; ``row[m*2+p]`` = distance.

    Position ``i`` may hold the pair only if bit ``i`` of ``pair_bits`` is set."""
    cdef uint8_t A[DPSIZE]
    cdef uint8_t B[DPSIZE]
    cdef uint8_t* cur = A
    cdef uint8_t* nxt = B
    cdef uint8_t* tmp
    cdef int i, cap
    dp_init(cur)
    for i in range(npos):
        cap = caps[i] if caps != NULL else 4
        dp_step(cur, nxt, h[i], cap, chows and i <= npos - 3, (pair_bits >> i) & 1)
        tmp = cur
        cur = nxt
        nxt = tmp
    memcpy(row, cur, ROW)          # state (a, b) = (0, 0) is the first ROW entries


# ---------------------------------------------------------------------------
# Tables: distance rows for every suit / honor vector with at most 14 tiles
# ---------------------------------------------------------------------------

cdef int32_t SUIT_OFF[9][MAXSUM + 1][5]
cdef int32_t HONOR_OFF[7][MAXSUM + 1][5]
cdef uint8_t* SUIT_TABLE = NULL
cdef uint8_t* HONOR_TABLE = NULL
cdef int32_t N_SUIT = 0
cdef int32_t N_HONOR = 0


cdef void count_tuples(int npos, int32_t cnt[10][MAXSUM + 1]) noexcept:
    """cnt[k][s]: tuples of length k (k <= npos), entries 0..4, with sum <= s."""
    cdef int k, s, v, acc
    for s in range(MAXSUM + 1):
        cnt[0][s] = 1
    for k in range(1, npos + 1):
        for s in range(MAXSUM + 1):
            acc = 0
            for v in range(5):
                if v <= s:
                    acc += cnt[k - 1][s - v]
            cnt[k][s] = acc


cdef void make_offsets(int npos, int32_t* off) noexcept:
    """Lexicographic ranking offsets: off[(i*(MAXSUM+1)+ps)*5+v]."""
    cdef int32_t cnt[10][MAXSUM + 1]
    cdef int v, i, ps, acc, rest
    count_tuples(npos, cnt)
    for i in range(npos):
        rest = npos - 1 - i
        for ps in range(MAXSUM + 1):
            acc = 0
            for v in range(5):
                off[(i * (MAXSUM + 1) + ps) * 5 + v] = acc
                if ps + v <= MAXSUM:
                    acc += cnt[rest][MAXSUM - ps - v]


cdef int32_t count_configs(int npos) noexcept:
    """How many vectors of ``npos`` counts 0..4 hold at most MAXSUM tiles (table rows)."""
    cdef int32_t cnt[10][MAXSUM + 1]
    count_tuples(npos, cnt)
    return cnt[npos][MAXSUM]


cdef void leaf_stats(const uint8_t* digits, int npos, bint chows, uint8_t* row) noexcept nogil:
    cdef int i, c
    for i in range(ST_PAIRS, TROW):
        row[i] = 0
    for i in range(npos):
        c = digits[i]
        if c >= 2:
            row[ST_PAIRS] += 1
        elif c == 1:
            row[ST_SINGLES] += 1
        row[ST_HALVES] += c >> 1
        row[ST_ODD] += c & 1
        if c > 0 and (not chows or i == 0 or i == npos - 1):
            row[ST_ORPHANS] += 1
            if c >= 2:
                row[ST_ORPHAN_PAIR] = 1


cdef int32_t build_rec(int pos, int npos, int ps, bint chows, uint8_t* stack,
                       uint8_t* digits, uint8_t* table, int32_t idx) noexcept nogil:
    """Depth-first walk of the prefix trie; leaves are written in rank order."""
    cdef int v
    cdef uint8_t* cur = stack + pos * DPSIZE
    cdef uint8_t* nxt = stack + (pos + 1) * DPSIZE
    cdef uint8_t* row
    if pos == npos:
        row = table + <Py_ssize_t>idx * TROW
        memcpy(row, cur, (TM + 1) * 2)
        leaf_stats(digits, npos, chows, row)
        return idx + 1
    for v in range(5):
        if ps + v > MAXSUM:
            break
        digits[pos] = v
        dp_step(cur, nxt, v, 4, chows and pos <= npos - 3, True)
        idx = build_rec(pos + 1, npos, ps + v, chows, stack, digits, table, idx)
    return idx


cdef void ensure_tables() except *:
    """Fill the tables once per process: from the cache file when it is valid, else
    built (and the cache rewritten)."""
    if SUIT_TABLE != NULL:
        return
    with _TABLE_LOCK:       # reading the cache releases the GIL: build once
        if SUIT_TABLE == NULL:
            _fill_tables()


cdef void _fill_tables() except *:
    global SUIT_TABLE, HONOR_TABLE, N_SUIT, N_HONOR, TABLE_SOURCE
    cdef uint8_t* stack
    cdef int32_t n
    cdef size_t ns, nh
    make_offsets(9, &SUIT_OFF[0][0][0])
    make_offsets(7, &HONOR_OFF[0][0][0])
    N_SUIT = count_configs(9)
    N_HONOR = count_configs(7)
    ns = <size_t>N_SUIT * TROW
    nh = <size_t>N_HONOR * TROW
    st = <uint8_t*>malloc(ns)
    ht = <uint8_t*>malloc(nh)
    stack = <uint8_t*>malloc(10 * DPSIZE)
    if stack == NULL or st == NULL or ht == NULL:
        free(stack); free(st); free(ht)
        raise MemoryError("cannot allocate shanten tables")
    cdef uint8_t[::1] suit_view = <uint8_t[:ns]>st
    cdef uint8_t[::1] honor_view = <uint8_t[:nh]>ht
    cdef uint8_t digits[9]
    if _load_cache(suit_view, honor_view):
        TABLE_SOURCE = "cache"
    else:
        with nogil:
            dp_init(stack)
            n = build_rec(0, 9, 0, True, stack, digits, st, 0)
            dp_init(stack)
            n = build_rec(0, 7, 0, False, stack, digits, ht, 0)
        TABLE_SOURCE = "built"
        _save_cache(suit_view, honor_view)
    free(stack)
    HONOR_TABLE = ht
    SUIT_TABLE = st


import threading
_TABLE_LOCK = threading.Lock()
TABLE_SOURCE = None
"""Where this process's tables came from: None (not yet needed), "cache" or "built"."""


def build_tables():
    """Build the lookup tables (idempotent). Returns (n_suit_rows, n_honor_rows)."""
    ensure_tables()
    return N_SUIT, N_HONOR


# ---------------------------------------------------------------------------
# The table cache on disk
# ---------------------------------------------------------------------------
# The tables are a pure function of this compiled module, so they are stored once
# per user in a versioned, checksummed file:
#   magic (8 bytes) | key (32: a hash of this extension file's CRC-32 and size and of
#   the layout constants) | n_suit, n_honor (2 x uint32 LE) | CRC-32 of the payload
#   (uint32 LE) | payload.
# A missing, stale (other key: a rebuilt or different core) or corrupt (checksum)
# file is rebuilt and rewritten atomically; an unwritable cache directory only means
# building at every start.  MAJIANG_CACHE_DIR overrides the directory; the empty
# string or "0" disables the cache.

CACHE_MAGIC = b"MJTAB\x00\x00\x01"
CACHE_FORMAT = 1          # bump when the file layout or the table contents change


def cache_dir():
    """Directory of the table cache (None when disabled): ``$MAJIANG_CACHE_DIR``, else
    ``platformdirs.user_cache_dir("majiang")`` when platformdirs is installed, else
    ``~/.cache/majiang``."""
    import os
    env = os.environ.get("MAJIANG_CACHE_DIR")
    if env is not None:
        return None if env in ("", "0") else env
    try:
        from platformdirs import user_cache_dir
    except ImportError:
        return os.path.join(os.path.expanduser("~"), ".cache", "majiang")
    return user_cache_dir("majiang", appauthor=False)


def cache_key():
    """32-byte key of the tables this module builds: any rebuild of the core or change
    of the layout constants gives another key, so a stale file is never read."""
    import hashlib
    import zlib
    with open(__file__, "rb") as f:
        code = f.read()
    return hashlib.blake2b(repr((zlib.crc32(code), len(code), CACHE_FORMAT, TROW, TM, MAXSUM,
                                 INF, N_SUIT, N_HONOR)).encode(), digest_size=32).digest()


def cache_file():
    """Path of the table cache file, or None when the cache is disabled."""
    import os
    d = cache_dir()
    return None if d is None else os.path.join(d, f"shanten-tables-v{CACHE_FORMAT}.bin")


cdef bint _load_cache(uint8_t[::1] suit, uint8_t[::1] honor) except *:
    import struct
    import zlib
    try:
        path = cache_file()
        if path is None:
            return False
        with open(path, "rb") as f:
            head = f.read(52)
            if (len(head) != 52 or head[:8] != CACHE_MAGIC or head[8:40] != cache_key()
                    or struct.unpack("<II", head[40:48]) != (N_SUIT, N_HONOR)):
                return False
            if f.readinto(suit) != suit.shape[0] or f.readinto(honor) != honor.shape[0]:
                return False
            if f.read(1):
                return False
    except (OSError, ValueError):
        return False
    return struct.unpack("<I", head[48:52])[0] == zlib.crc32(honor, zlib.crc32(suit))


cdef void _save_cache(uint8_t[::1] suit, uint8_t[::1] honor) except *:
    import os
    import struct
    import tempfile
    import zlib
    crc = zlib.crc32(honor, zlib.crc32(suit))
    tmp = None
    try:
        path = cache_file()
        if path is None:
            return
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tables-", dir=os.path.dirname(path))
        with os.fdopen(fd, "wb") as f:
            f.write(CACHE_MAGIC + cache_key() + struct.pack("<III", N_SUIT, N_HONOR, crc))
            f.write(suit)
            f.write(honor)
        os.replace(tmp, path)
        tmp = None
    except OSError:
        pass
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


# ---------------------------------------------------------------------------
# Pair-restricted tables (二五八将): the same rows with the pair allowed only on
# some positions of a group, built on first use (same ranking as the tables above)
# ---------------------------------------------------------------------------

cdef enum:
    PROW = 10             # (TM + 1) * 2 distances per row
    MAX_PAT = 8           # pair patterns kept

cdef int PAT_KEY[MAX_PAT]          # pattern bits | 512 for the honors
cdef uint8_t* PAT_TABLE[MAX_PAT]
cdef int N_PAT = 0


cdef int32_t build_rec_pairs(int pos, int npos, int ps, bint chows, int pair_bits,
                             uint8_t* stack, uint8_t* table, int32_t idx) noexcept nogil:
    cdef int v
    cdef uint8_t* cur = stack + pos * DPSIZE
    cdef uint8_t* nxt = stack + (pos + 1) * DPSIZE
    if pos == npos:
        memcpy(table + <Py_ssize_t>idx * PROW, cur, PROW)
        return idx + 1
    for v in range(5):
        if ps + v > MAXSUM:
            break
        dp_step(cur, nxt, v, 4, chows and pos <= npos - 3, (pair_bits >> pos) & 1)
        idx = build_rec_pairs(pos + 1, npos, ps + v, chows, pair_bits, stack, table, idx)
    return idx


cdef inline const uint8_t* pattern_table(int key) noexcept nogil:
    cdef int i
    for i in range(N_PAT):
        if PAT_KEY[i] == key:
            return PAT_TABLE[i]
    return NULL


cdef int ensure_pattern(int pair_bits, bint chows) except -1:
    """Build the table of one group pair pattern unless it is trivial, built or the
    cache is full (then that pattern runs the direct programme: same result)."""
    global N_PAT
    cdef int npos = 9 if chows else 7
    cdef int full = (1 << npos) - 1
    cdef int key
    cdef uint8_t* stack
    cdef uint8_t* t
    pair_bits &= full
    if pair_bits == 0 or pair_bits == full:
        return 0
    key = pair_bits | (0 if chows else 512)
    if pattern_table(key) != NULL or N_PAT >= MAX_PAT:
        return 0
    ensure_tables()
    stack = <uint8_t*>malloc(10 * DPSIZE)
    t = <uint8_t*>malloc(<size_t>(N_SUIT if chows else N_HONOR) * PROW)
    if stack == NULL or t == NULL:
        free(stack); free(t)
        raise MemoryError("cannot allocate a pair-pattern table")
    with nogil:
        dp_init(stack)
        build_rec_pairs(0, npos, 0, chows, pair_bits, stack, t, 0)
    free(stack)
    PAT_KEY[N_PAT] = key
    PAT_TABLE[N_PAT] = t
    N_PAT += 1                  # published last: readers never see a half-built slot
    return 0


cdef int ensure_pair_tables(uint64_t pair_mask) except -1:
    """Build the tables a pair mask needs (with the GIL; idempotent).  Without them the
    kernels stay exact but run the direct programme for mixed groups (slower)."""
    ensure_tables()
    if (pair_mask & pair_all()) == pair_all():
        return 0
    ensure_pattern(<int>(pair_mask & 0x1FF), True)
    ensure_pattern(<int>((pair_mask >> 9) & 0x1FF), True)
    ensure_pattern(<int>((pair_mask >> 18) & 0x1FF), True)
    ensure_pattern(<int>((pair_mask >> 27) & 0x7F), False)
    return 0


# ---------------------------------------------------------------------------
# Shanten of one vector
# ---------------------------------------------------------------------------

cdef inline int table_index(const uint8_t* h, int npos, const int32_t* off) noexcept nogil:
    """Rank of ``h[:npos]`` among vectors with at most MAXSUM tiles, or -1 if it has more."""
    cdef int i, ps = 0, idx = 0, v
    for i in range(npos):
        v = h[i]
        if ps + v > MAXSUM:
            return -1
        idx += off[(i * (MAXSUM + 1) + ps) * 5 + v]
        ps += v
    return idx


cdef inline const uint8_t* suit_row(const uint8_t* h, const uint8_t* caps, int base, int npos,
                                    bint chows, int M, int pair_bits,
                                    uint8_t* scratch) noexcept nogil:
    """Distance row of one suit (npos=9) or the honors (npos=7): a table row when the
    table covers it, else the programme's row written into ``scratch``.

    ``pair_bits``: positions that may hold the pair (all ``npos`` bits = any)."""
    cdef int i, idx = -1, full = (1 << npos) - 1
    cdef bint direct = M > TM, zero = caps != NULL
    cdef const uint8_t* row
    if caps != NULL:
        for i in range(npos):
            if caps[base + i] != 4:
                direct = True
            if caps[base + i] != 0:
                zero = False
        if zero:
            # no copy of this group may be used (a void suit, or not in the tile set)
            memset(scratch, INF, ROW)
            scratch[0] = 0
            return scratch
    pair_bits &= full
    if not direct:
        if chows:
            idx = table_index(h + base, npos, &SUIT_OFF[0][0][0])
        else:
            idx = table_index(h + base, npos, &HONOR_OFF[0][0][0])
        if idx >= 0:
            row = (SUIT_TABLE if chows else HONOR_TABLE) + <Py_ssize_t>idx * TROW
            if pair_bits == full:
                return row
            if pair_bits != 0:
                row = pattern_table(pair_bits | (0 if chows else 512))
                if row == NULL:
                    dp_direct(h + base, NULL, npos, chows, pair_bits, scratch)
                    return scratch
                return row + <Py_ssize_t>idx * PROW
            # no pair in this group: keep the pairless entries
            for i in range(TM + 1):
                scratch[i * 2] = row[i * 2]
                scratch[i * 2 + 1] = INF
            for i in range((TM + 1) * 2, ROW):
                scratch[i] = INF
            return scratch
    dp_direct(h + base, caps + base if caps != NULL else NULL, npos, chows, pair_bits, scratch)
    return scratch


cdef void group_row(const uint8_t* h, const uint8_t* caps, int g, int M, int pair_bits,
                    uint8_t* out) noexcept nogil:
    """The distance row of one group for other core modules (shapes.pyx): ``out[m * 2 + p]``
    (ROW = 12 entries, m = 0..5 sets, p = 1 with the pair) = least tiles to add to group
    ``g`` of ``h`` (0-2: the suits, 3: the honors) for m sets (+ the pair) of that group
    within ``caps`` (NULL = 4 each), the pair on a position of ``pair_bits`` (bit i =
    rank i of the group); INF (100) or more = impossible, as is every m above ``M``.
    A table row when the tables cover it (call ensure_tables / ensure_pair_tables
    first), else the programme."""
    cdef uint8_t scratch[ROW]
    cdef const uint8_t* r
    cdef int i, n = (M + 1) * 2 if M < MAXM else ROW
    r = suit_row(h, caps, 9 * g, 9 if g < 3 else 7, g < 3, M, pair_bits, scratch)
    memcpy(out, r, n)
    for i in range(n, ROW):
        out[i] = INF


cdef inline void minplus(const uint8_t* A, const uint8_t* B, uint8_t* C, int M) noexcept nogil:
    """C[m, p] = min A[m1, p1] + B[m2, p2] over m1 + m2 = m, p1 + p2 = p (p <= 1).

    Entries >= INF mean impossible; sums of those never fall below INF.
    """
    cdef int m1, m2, a0, a1, v
    memset(C, INF, ROW)
    for m1 in range(M + 1):
        a0 = A[m1 * 2]
        a1 = A[m1 * 2 + 1]
        for m2 in range(M + 1 - m1):
            v = a0 + B[m2 * 2]
            if v < C[(m1 + m2) * 2]:
                C[(m1 + m2) * 2] = <uint8_t>v
            v = a0 + B[m2 * 2 + 1]
            if a1 + B[m2 * 2] < v:
                v = a1 + B[m2 * 2]
            if v < C[(m1 + m2) * 2 + 1]:
                C[(m1 + m2) * 2 + 1] = <uint8_t>v


cdef inline int combine(const uint8_t* r0, const uint8_t* r1, const uint8_t* r2,
                        const uint8_t* rh, int M) noexcept nogil:
    """Distance to M sets + a pair from the rows of the three suits and the honors."""
    cdef uint8_t c01[ROW]
    cdef uint8_t c2h[ROW]
    cdef int m, v, best = INF
    minplus(r0, r1, c01, M)
    minplus(r2, rh, c2h, M)
    for m in range(M + 1):
        v = c01[m * 2] + c2h[(M - m) * 2 + 1]
        if v < best:
            best = v
        v = c01[m * 2 + 1] + c2h[(M - m) * 2]
        if v < best:
            best = v
    return best


cdef inline int imin(int a, int b) noexcept nogil:
    return a if a < b else b


cdef inline void minplus_pair(const uint8_t* A, const uint8_t* B, int* C0, int* C1,
                              int M) noexcept nogil:
    """Branchless min-plus of two rows: C0[m] (no pair) and C1[m] (the pair in A or B)
    for m = 0..M.  Entries may exceed INF where ``minplus`` stores INF; both give the
    same minimum below INF (no finite sum reaches INF)."""
    cdef int m, i, v0, v1
    for m in range(M + 1):
        v0 = A[0] + B[2 * m]
        v1 = imin(A[0] + B[2 * m + 1], A[1] + B[2 * m])
        for i in range(1, m + 1):
            v0 = imin(v0, A[2 * i] + B[2 * (m - i)])
            v1 = imin(v1, imin(A[2 * i] + B[2 * (m - i) + 1], A[2 * i + 1] + B[2 * (m - i)]))
        C0[m] = v0
        C1[m] = v1


cdef inline int combine_m(const uint8_t* r0, const uint8_t* r1, const uint8_t* r2,
                          const uint8_t* rh, int M) noexcept nogil:
    """``combine`` without branches or stores of the (5, 2) products; called with a
    constant M so the compiler unrolls every loop."""
    cdef int a0[TM + 1]
    cdef int a1[TM + 1]
    cdef int b0[TM + 1]
    cdef int b1[TM + 1]
    cdef int m, best = INF
    minplus_pair(r0, r1, a0, a1, M)
    minplus_pair(r2, rh, b0, b1, M)
    for m in range(M + 1):
        best = imin(best, imin(a0[m] + b1[M - m], a1[m] + b0[M - m]))
    return best


cdef int combine_fast(const uint8_t* r0, const uint8_t* r1, const uint8_t* r2,
                      const uint8_t* rh, int M) noexcept nogil:
    """``combine`` of four table rows, specialised by the number of sets (M <= TM)."""
    if M == 4:
        return combine_m(r0, r1, r2, rh, 4)
    if M == 3:
        return combine_m(r0, r1, r2, rh, 3)
    if M == 2:
        return combine_m(r0, r1, r2, rh, 2)
    if M == 1:
        return combine_m(r0, r1, r2, rh, 1)
    return combine_m(r0, r1, r2, rh, 0)


cdef int regular_distance(const uint8_t* h, int M, const uint8_t* caps,
                          uint64_t pair_mask) noexcept nogil:
    """Distance to M sets + a pair within ``caps``, the pair on a kind of ``pair_mask``."""
    cdef uint8_t s0[ROW]
    cdef uint8_t s1[ROW]
    cdef uint8_t s2[ROW]
    cdef uint8_t sh[ROW]
    return combine(suit_row(h, caps, 0, 9, True, M, <int>(pair_mask & 0x1FF), s0),
                   suit_row(h, caps, 9, 9, True, M, <int>((pair_mask >> 9) & 0x1FF), s1),
                   suit_row(h, caps, 18, 9, True, M, <int>((pair_mask >> 18) & 0x1FF), s2),
                   suit_row(h, caps, 27, 7, False, M, <int>((pair_mask >> 27) & 0x7F), sh),
                   M)


cdef inline int seven_pairs_distance(const uint8_t* h, bint quads) noexcept nogil:
    cdef int i, pairs = 0, odd = 0, c, d
    for i in range(N_KINDS):
        c = h[i]
        if quads:
            pairs += c >> 1
            odd += c & 1
        elif c >= 2:
            pairs += 1
        elif c == 1:
            odd += 1
    return pairs_distance(pairs, odd)


cdef inline int pairs_distance(int pairs, int odd) noexcept nogil:
    """Seven pairs: each missing pair costs one tile on a kind with an odd count, two
    on a fresh kind (34 kinds are always enough)."""
    cdef int d
    if pairs >= 7:
        return 0
    d = 7 - pairs
    if pairs + odd < 7:
        d += 7 - pairs - odd
    return d


cdef int seven_pairs_caps_distance(const uint8_t* h, bint quads,
                                   const uint8_t* caps) noexcept nogil:
    """Seven pairs within ``caps``: a kind with cap < 2 holds no pair, two pairs on one
    kind (``quads``) need cap 4.  Each kind's pairs cost max(2 - held, 0), then
    max(4 - held, 0) - max(2 - held, 0) for the second: non-decreasing per kind, so
    the seven cheapest pair slots over all kinds are optimal."""
    cdef int k, c, cap, first, second, need = 7, d = 0, t
    cdef int n_cost[3]
    n_cost[0] = 0
    n_cost[1] = 0
    n_cost[2] = 0
    for k in range(N_KINDS):
        cap = caps[k]
        if cap < 2:
            continue
        c = h[k] if h[k] < cap else cap
        first = 2 - c if c < 2 else 0
        n_cost[first] += 1
        if quads and cap >= 4:
            second = (4 - c if c < 4 else 0) - first
            n_cost[second] += 1
    for t in range(3):
        if n_cost[t] >= need:
            return d + need * t
        d += n_cost[t] * t
        need -= n_cost[t]
    return INF


cdef int ORPHANS[13]
ORPHANS[:] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]


cdef inline int thirteen_orphans_distance(const uint8_t* h) noexcept nogil:
    cdef int i, kinds = 0, pair = 0
    for i in range(13):
        if h[ORPHANS[i]] > 0:
            kinds += 1
            if h[ORPHANS[i]] >= 2:
                pair = 1
    return 14 - kinds - pair


cdef int thirteen_orphans_caps_distance(const uint8_t* h, const uint8_t* caps) noexcept nogil:
    """Thirteen orphans within ``caps``: every one of the 13 kinds must exist (cap >= 1)
    and the pair needs a kind with cap >= 2."""
    cdef int i, k, kinds = 0, pair = INF
    for i in range(13):
        k = ORPHANS[i]
        if caps[k] < 1:
            return INF
        if h[k] > 0:
            kinds += 1
        if caps[k] >= 2:
            if h[k] >= 2 and caps[k] >= 2:
                pair = 0
            elif pair > 1:
                pair = 1
    if pair >= INF:
        return INF
    return 13 - kinds + pair


cdef int n_sets_c(const uint8_t* h) noexcept nogil:
    """Sets needed for a concealed vector of n tiles, or an error code."""
    cdef int i, n = 0
    for i in range(N_KINDS):
        if h[i] > 4:
            return ERR_BAD_COUNT
        n += h[i]
    if n % 3 == 0 or n > 17:
        return ERR_BAD_SIZE
    return n // 3


# ---------------------------------------------------------------------------
# Knitted forms (Chinese Official): 全不靠 honors-and-knitted, 组合龙 knitted straight
# ---------------------------------------------------------------------------

# the six knitted patterns: suits (s147, s258, s369) as a permutation of (0, 1, 2)
cdef int KNIT_SUITS[6][3]
KNIT_SUITS[:] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]


cdef inline void knit_kinds(int pattern, int* kinds) noexcept nogil:
    """The nine kinds of a knitted pattern: 147 in one suit, 258 in the next, 369 in the last."""
    cdef int j, r
    for j in range(3):
        for r in range(3):
            kinds[j * 3 + r] = KNIT_SUITS[pattern][j] * 9 + j + 3 * r


cdef inline int over(int w, int have) noexcept nogil:
    return w - have if w > have else 0


cdef int set_and_pair_distance(const uint8_t* rem, const uint8_t* cap, int nsets) noexcept nogil:
    """Tiles to add so ``rem`` holds ``nsets`` (0 or 1) sets and a pair within ``cap``.

    With one set: every set's own cost is computed once; a pair on kind P combines
    with the cheapest set not touching P (pungs of P are impossible, chows through P
    are costed jointly), found among the five cheapest sets — at most four touch P.
    """
    cdef int P, S, k, a, w, cost, best = INF, c2, i, j, t, n_sets = 0
    cdef int cs[55]
    cdef int start[55]          # pung: kind; chow: -(lowest kind) - 1
    cdef int top[5]
    cdef int ntop = 0
    for P in range(N_KINDS):
        if cap[P] >= 2:
            c2 = over(2, rem[P])
            if c2 < best:
                best = c2
    if nsets == 0 or best >= INF:
        return best
    for S in range(N_KINDS):
        cs[n_sets] = over(3, rem[S]) if cap[S] >= 3 else INF
        start[n_sets] = S
        n_sets += 1
    for S in range(27):
        if S % 9 > 6:
            continue
        cost = 0
        for a in range(3):
            if cap[S + a] < 1:
                cost = INF
                break
            cost += over(1, rem[S + a])
        cs[n_sets] = cost
        start[n_sets] = -S - 1
        n_sets += 1
    # the five cheapest sets (insertion into a short sorted list)
    for i in range(n_sets):
        if cs[i] >= INF:
            continue
        j = ntop if ntop < 5 else 5
        while j > 0 and cs[top[j - 1]] > cs[i]:
            if j < 5:
                top[j] = top[j - 1]
            j -= 1
        if j < 5:
            top[j] = i
            if ntop < 5:
                ntop += 1
    best = INF
    for P in range(N_KINDS):
        if cap[P] < 2:
            continue
        c2 = over(2, rem[P])
        if c2 >= best:
            continue
        for t in range(ntop):
            i = top[t]
            k = start[i]
            if k >= 0:
                if k == P:
                    continue
            elif P >= -k - 1 and P <= -k + 1:
                continue
            if c2 + cs[i] < best:
                best = c2 + cs[i]
            break
        if P < 27:                    # chows through P, costed with the pair jointly
            for S in range(P - 2, P + 1):
                if S < 0 or S // 9 != P // 9 or S % 9 > 6:
                    continue
                cost = 0
                for a in range(3):
                    k = S + a
                    w = 3 if k == P else 1
                    if w > cap[k]:
                        cost = INF
                        break
                    cost += over(w, rem[k])
                if cost < best:
                    best = cost
    return best


cdef int knitted_distance(const uint8_t* h, int mask, int M, const uint8_t* caps,
                          int best) noexcept nogil:
    """Distance to the knitted forms in ``mask``, or ``best`` if none is below it."""
    cdef int pattern, j, k, present, d, honors = 0, avail, avail_h = 0
    cdef int kinds[9]
    cdef uint8_t rem[N_KINDS]
    cdef uint8_t cap[N_KINDS]
    cdef bint ok
    if (mask & FORM_HONORS_KNITTED) and M == 4:
        # 14 distinct kinds of the 16 (nine knitted + seven honors) that exist
        for k in range(27, 34):
            if caps == NULL or caps[k]:
                avail_h += 1
                if h[k]:
                    honors += 1
        for pattern in range(6):
            knit_kinds(pattern, kinds)
            present = honors
            avail = avail_h
            for j in range(9):
                if caps == NULL or caps[kinds[j]]:
                    avail += 1
                    if h[kinds[j]]:
                        present += 1
            if avail < 14:
                continue
            d = 14 - (present if present < 14 else 14)
            if d < best:
                best = d
    if (mask & FORM_KNITTED_STRAIGHT) and M >= 3:
        for pattern in range(6):
            knit_kinds(pattern, kinds)
            present = 0
            for j in range(9):
                if h[kinds[j]]:
                    present += 1
            if 9 - present >= best:      # the nine knitted tiles alone cost that much
                continue
            for k in range(N_KINDS):
                rem[k] = h[k]
                cap[k] = caps[k] if caps != NULL else 4
            d = 0
            ok = True
            for j in range(9):
                k = kinds[j]
                if cap[k] == 0:
                    ok = False
                    break
                cap[k] -= 1
                if rem[k]:
                    rem[k] -= 1
                else:
                    d += 1
            if not ok:
                continue
            d += set_and_pair_distance(rem, cap, M - 3)
            if d < best:
                best = d
    return best


cdef inline bint near_held(const uint8_t* rem, int k) noexcept nogil:
    """Whether a suited kind ``k`` has a held tile within two of it in its suit."""
    cdef int r, lo, hi, j
    if k >= 27:
        return False
    r = k % 9
    lo = k - (r if r < 2 else 2)
    hi = k + ((8 - r) if 8 - r < 2 else 2)
    for j in range(lo, hi + 1):
        if j != k and rem[j]:
            return True
    return False


cdef uint64_t knitted_effective(const uint8_t* h, int knit, int M, int dS) noexcept nogil:
    """Bit j set: drawing kind j brings a knitted form of ``knit`` (全不靠, 组合龙) of the
    vector ``h`` (no caps: 4 copies of each kind, j held fewer than 4 times) below the
    distance ``dS`` — the draws :func:`knitted_distance` of ``h + j`` puts below ``dS``,
    found per pattern: 全不靠 counts distinct kinds (a new honor or a new kind of the
    pattern adds one); for 组合龙 a missing kind of the pattern lowers its distance by
    one, any other draw goes to the set and the pair (:func:`set_and_pair_distance`).
    Patterns whose distance exceeds ``dS`` are skipped (a draw lowers it by at most one)."""
    cdef uint64_t E = 0, honors_new = 0
    cdef int pattern, j, k, present, honors = 0, spd, base, thr, lone
    cdef int kinds[9]
    cdef uint8_t rem[N_KINDS]
    cdef uint8_t cap[N_KINDS]
    if (knit & FORM_HONORS_KNITTED) and M == 4:
        for k in range(27, 34):
            if h[k]:
                honors += 1
            else:
                honors_new |= (<uint64_t>1) << k
        for pattern in range(6):
            knit_kinds(pattern, kinds)
            present = honors
            for j in range(9):
                if h[kinds[j]]:
                    present += 1
            if present < 14 and 14 - present - 1 < dS:    # one more distinct kind
                E |= honors_new
                for j in range(9):
                    if not h[kinds[j]]:
                        E |= (<uint64_t>1) << kinds[j]
    if (knit & FORM_KNITTED_STRAIGHT) and M >= 3:
        for pattern in range(6):
            knit_kinds(pattern, kinds)
            present = 0
            for j in range(9):
                if h[kinds[j]]:
                    present += 1
            if 8 - present >= dS:           # at best one missing kind drawn
                continue
            for k in range(N_KINDS):
                rem[k] = h[k]
                cap[k] = 4
            for j in range(9):
                k = kinds[j]
                cap[k] -= 1
                if rem[k]:
                    rem[k] -= 1
            spd = set_and_pair_distance(rem, cap, M - 3)
            base = 9 - present
            if base + spd > dS:             # a draw lowers it by at most one
                continue
            for j in range(9):              # a missing kind of the pattern: one less
                if not h[kinds[j]]:
                    E |= (<uint64_t>1) << kinds[j]
            thr = dS - base                 # any other draw: the set and pair below thr
            lone = -1                       # the verdict for a lone draw, found once
            for k in range(N_KINDS):
                if (E >> k) & 1 or h[k] >= 4:
                    continue
                if not rem[k] and not near_held(rem, k):
                    # no held tile of its kind or within two in its suit: every such
                    # draw forms the same shapes (a pair, or a set of it alone), so one
                    # answers for all (every cap here is 3 or 4)
                    if lone < 0:
                        rem[k] += 1
                        lone = set_and_pair_distance(rem, cap, M - 3) < thr
                        rem[k] -= 1
                    if lone:
                        E |= (<uint64_t>1) << k
                    continue
                rem[k] += 1
                if set_and_pair_distance(rem, cap, M - 3) < thr:
                    E |= (<uint64_t>1) << k
                rem[k] -= 1
    return E


cdef int shanten_general(const uint8_t* h, int M, int mask, bint quads,
                         const uint8_t* caps, uint64_t pair_mask) noexcept nogil:
    """Least tiles to add (the distance d) for M sets + a pair, any caps; INF if impossible.

    The whole-hand forms (seven pairs, thirteen orphans, honors-and-knitted) are tried
    when M == 4 (13/14 tiles with jokers: no melds; 16-tile callers with a meld clear
    them from ``mask``).  ``pair_mask`` restricts the pair of the regular form only."""
    cdef int best = INF, d
    if mask & FORM_REGULAR:
        best = regular_distance(h, M, caps, pair_mask)
    if M == 4:
        if mask & FORM_SEVEN_PAIRS:
            if caps == NULL:
                d = seven_pairs_distance(h, quads)
            else:
                d = seven_pairs_caps_distance(h, quads, caps)
            if d < best:
                best = d
        if mask & FORM_THIRTEEN_ORPHANS:
            if caps == NULL:
                d = thirteen_orphans_distance(h)
            else:
                d = thirteen_orphans_caps_distance(h, caps)
            if d < best:
                best = d
    if mask & (FORM_HONORS_KNITTED | FORM_KNITTED_STRAIGHT):
        d = knitted_distance(h, mask, M, caps, best)
        if d < best:
            best = d
    return best


cdef inline int checked_index(const uint8_t* h, int npos, const int32_t* off,
                              int* total) noexcept nogil:
    """Table rank of ``h[:npos]``; -1 if it holds more than MAXSUM tiles, -2 if a count > 4."""
    cdef int i, v, ps = 0, idx = 0
    cdef bint over = False
    for i in range(npos):
        v = h[i]
        if v > 4:
            return -2
        if not over:
            if ps + v > MAXSUM:
                over = True
            else:
                idx += off[(i * (MAXSUM + 1) + ps) * 5 + v]
        ps += v
    total[0] += ps
    return -1 if over else idx


cdef inline int fast_index(const uint8_t* h, int npos, const int32_t* off, int* total,
                           int* bad) noexcept nogil:
    """``checked_index`` without branches: the rank of ``h[:npos]``, valid only when the
    group holds at most MAXSUM tiles (``total`` grows by the group's tiles; the caller
    compares) and no count is above 4 (else ``bad`` is set).  Indices are clamped so
    no read leaves the offset table."""
    cdef int i, v, ps = 0, idx = 0
    for i in range(npos):
        v = h[i]
        bad[0] |= (v + 3) & ~7          # nonzero exactly when v > 4
        idx += off[(i * (MAXSUM + 1) + imin(ps, MAXSUM)) * 5 + imin(v, 4)]
        ps += v
    total[0] += ps
    return idx if ps <= MAXSUM else -1


cdef int shanten_c(const uint8_t* h, int mask, bint quads, const uint8_t* caps) noexcept nogil:
    """Shanten of one vector under the forms in ``mask``, or an error code (< -1)."""
    return shanten_jokers_c(h, mask, quads, caps, 0, False)


cdef int with_jokers(int d, int jokers) noexcept nogil:
    """Shanten from the distance of the real tiles: each joker fills one missing tile."""
    if d >= INF:
        return INF - 1
    d -= jokers
    return (d if d > 0 else 0) - 1


cdef int shanten_jokers_c(const uint8_t* h, int mask, bint quads, const uint8_t* caps,
                          int jokers, bint fifth) noexcept nogil:
    """Shanten of real tiles ``h`` plus ``jokers`` wild tiles, or an error code (< -1).

    The hand (real + jokers) needs M = (n + jokers) // 3 sets and a pair.  A joker
    fills one missing tile of the target arrangement, so the distance is the real
    tiles' distance to M sets + a pair less the jokers (it is never below the
    jokers: the target has at least n + jokers tiles).  Without ``fifth`` a joker
    only stands for a copy that exists (target counts <= caps); with it, targets
    may hold up to caps + jokers of a kind.  Seven pairs, thirteen orphans and the
    knitted forms need distinct kinds and never use a fifth copy.

    The common case (no caps, at most 14 tiles per suit, at most four sets) is
    four table rows; everything else takes the general route.
    """
    cdef int total = 0, n, M, best = INF, d, pairs, odd, bad = 0
    cdef int i0, i1, i2, ih
    cdef const uint8_t* r0
    cdef const uint8_t* r1
    cdef const uint8_t* r2
    cdef const uint8_t* rh
    cdef uint8_t loose[N_KINDS]
    cdef int k
    if caps != NULL or (fifth and jokers > 0):
        M = n_sets_c(h)
        if M == ERR_BAD_COUNT:
            return M
        n = 0
        for k in range(N_KINDS):
            n += h[k]
        n += jokers
        if n % 3 == 0 or n > 17:
            return ERR_BAD_SIZE
        M = n // 3
        if fifth and jokers > 0:
            for k in range(N_KINDS):
                loose[k] = (caps[k] if caps != NULL else 4) + jokers
            d = shanten_general(h, M, mask & FORM_REGULAR, quads, loose, pair_all())
            if mask & ~FORM_REGULAR:
                best = shanten_general(h, M, mask & ~FORM_REGULAR, quads, caps, pair_all())
                if best < d:
                    d = best
            return with_jokers(d, jokers)
        return with_jokers(shanten_general(h, M, mask, quads, caps, pair_all()), jokers)
    i0 = fast_index(h, 9, &SUIT_OFF[0][0][0], &total, &bad)
    i1 = fast_index(h + 9, 9, &SUIT_OFF[0][0][0], &total, &bad)
    i2 = fast_index(h + 18, 9, &SUIT_OFF[0][0][0], &total, &bad)
    ih = fast_index(h + 27, 7, &HONOR_OFF[0][0][0], &total, &bad)
    if bad:
        return ERR_BAD_COUNT
    n = total + jokers
    if n % 3 == 0 or n > 17:
        return ERR_BAD_SIZE
    M = n // 3
    if M > TM or i0 < 0 or i1 < 0 or i2 < 0 or ih < 0:
        return with_jokers(shanten_general(h, M, mask, quads, NULL, pair_all()), jokers)
    r0 = SUIT_TABLE + <Py_ssize_t>i0 * TROW
    r1 = SUIT_TABLE + <Py_ssize_t>i1 * TROW
    r2 = SUIT_TABLE + <Py_ssize_t>i2 * TROW
    rh = HONOR_TABLE + <Py_ssize_t>ih * TROW
    if mask & FORM_REGULAR:
        best = combine_fast(r0, r1, r2, rh, M)
    if M == 4:
        if mask & FORM_SEVEN_PAIRS:
            if quads:
                pairs = r0[ST_HALVES] + r1[ST_HALVES] + r2[ST_HALVES] + rh[ST_HALVES]
                odd = r0[ST_ODD] + r1[ST_ODD] + r2[ST_ODD] + rh[ST_ODD]
            else:
                pairs = r0[ST_PAIRS] + r1[ST_PAIRS] + r2[ST_PAIRS] + rh[ST_PAIRS]
                odd = r0[ST_SINGLES] + r1[ST_SINGLES] + r2[ST_SINGLES] + rh[ST_SINGLES]
            d = pairs_distance(pairs, odd)
            if d < best:
                best = d
        if mask & FORM_THIRTEEN_ORPHANS:
            d = 14 - (r0[ST_ORPHANS] + r1[ST_ORPHANS] + r2[ST_ORPHANS] + rh[ST_ORPHANS])
            if r0[ST_ORPHAN_PAIR] or r1[ST_ORPHAN_PAIR] or r2[ST_ORPHAN_PAIR] or rh[ST_ORPHAN_PAIR]:
                d -= 1
            if d < best:
                best = d
    if mask & (FORM_HONORS_KNITTED | FORM_KNITTED_STRAIGHT):
        d = knitted_distance(h, mask, M, NULL, best)
        if d < best:
            best = d
    return with_jokers(best, jokers)


# ---------------------------------------------------------------------------
# Python-facing kernels (inputs validated by majiang.efficiency)
# ---------------------------------------------------------------------------

cdef Opts make_opts_c(int mask, bint quads, const uint8_t* caps, int jokers, bint fifth,
                      uint64_t pair_mask, int void_suits) noexcept nogil:
    """An options struct (see efficiency.pxd for the "no constraint" values)."""
    cdef Opts o
    o.mask = mask
    o.quads = quads
    o.caps = caps
    o.jokers = jokers
    o.fifth = fifth
    o.pair_mask = pair_mask
    o.void_suits = void_suits
    return o


cdef int constrained_distance(const uint8_t* h, int M, const Opts* o,
                              const uint8_t* caps, int void) noexcept nogil:
    """Distance under ``caps`` (NULL = 4 each), the pair mask and the joker options;
    ``void`` is the suit (0-2) whose caps are 0 here, or -1."""
    cdef uint8_t loose[N_KINDS]
    cdef int k, d, best
    if o.fifth and o.jokers > 0:
        for k in range(N_KINDS):
            loose[k] = (o.caps[k] if o.caps != NULL else 4) + o.jokers
            if void >= 0 and k // 9 == void and k < 27:
                loose[k] = 0
        d = shanten_general(h, M, o.mask & FORM_REGULAR, o.quads, loose, o.pair_mask)
        if o.mask & ~FORM_REGULAR:
            best = shanten_general(h, M, o.mask & ~FORM_REGULAR, o.quads, caps, o.pair_mask)
            if best < d:
                d = best
        return d
    return shanten_general(h, M, o.mask, o.quads, caps, o.pair_mask)


cdef int shanten_opts_c(const uint8_t* h, const Opts* o) noexcept nogil:
    """Shanten of real tiles ``h`` (+ ``o.jokers``) under every option in ``o``, or an
    error code (< -1); 99 when no arrangement exists.  Tables must be built.

    Without a pair restriction or a void suit this is :func:`shanten_jokers_c` (the
    table path).  Otherwise the distance is computed by the general route: suits
    whose pair positions are mixed run the direct programme with a per-position
    "pair allowed" flag; with void suits, the distance is the least over the eligible
    suits ``s`` of the distance with the caps of suit ``s`` set to 0 (exact: a
    complete hand lacking suit ``s`` is exactly an arrangement within those caps).
    With ``fifth`` jokers the regular form may use caps + jokers copies of a kind
    (as in :func:`shanten_jokers_c`), except in the void suit.
    """
    cdef int k, n, M, s, d, best
    cdef uint8_t vc[N_KINDS]
    if o.void_suits == 0 and (o.pair_mask & pair_all()) == pair_all():
        return shanten_jokers_c(h, o.mask, o.quads, o.caps, o.jokers, o.fifth)
    n = 0
    for k in range(N_KINDS):
        if h[k] > 4:
            return ERR_BAD_COUNT
        n += h[k]
    n += o.jokers
    if n % 3 == 0 or n > 17:
        return ERR_BAD_SIZE
    M = n // 3
    if o.void_suits & 7 == 0:
        return with_jokers(constrained_distance(h, M, o, o.caps, -1), o.jokers)
    best = INF
    for s in range(3):
        if not (o.void_suits >> s) & 1:
            continue
        for k in range(N_KINDS):
            vc[k] = o.caps[k] if o.caps != NULL else 4
        for k in range(9 * s, 9 * s + 9):
            vc[k] = 0
        d = constrained_distance(h, M, o, vc, s)
        if d < best:
            best = d
    return with_jokers(best, o.jokers)


cdef inline int shanten_o(const uint8_t* h, const Opts* o) noexcept nogil:
    return shanten_opts_c(h, o)


cdef inline const uint8_t* caps_ptr(object caps) except? NULL:
    if caps is None:
        return NULL
    return <const uint8_t*>cnp.PyArray_DATA(caps)


cdef uint64_t pair_mask_of(object pair_mask) except? 0:
    """None -> every kind; else an int whose bit k allows kind k as the regular pair."""
    if pair_mask is None:
        return pair_all()
    if pair_mask < 0 or pair_mask >= (1 << 64):
        raise ValueError("pair_mask must be None or an int in [0, 2**64)")
    return <uint64_t>pair_mask


cdef Opts make_opts(int mask, bint quads, object caps, int jokers, bint fifth,
                    object pair_mask=None, int void_suits=0) except *:
    cdef uint64_t pm = pair_mask_of(pair_mask)
    if SUIT_TABLE == NULL:
        ensure_tables()
    if void_suits < 0 or void_suits > 7:
        raise ValueError("void_suits must be a 3-bit suit mask (0..7)")
    ensure_pair_tables(pm)
    return make_opts_c(mask, quads, caps_ptr(caps), jokers, fifth, pm, void_suits)


def shanten_one(cnp.ndarray counts, int mask, bint quads, object caps=None, int jokers=0,
                bint fifth=False, *, object pair_mask=None, int void_suits=0):
    """Shanten of one C-contiguous uint8 (34,) vector plus ``jokers`` wild tiles.

    ``caps`` is None or a uint8 (34,) vector of copies still available per kind
    (0 = not in the tile set).  ``pair_mask``: None (any pair) or an int whose bit k
    allows kind k as the pair of a regular arrangement.  ``void_suits``: 0, or suit
    bits (1 万, 2 筒, 4 条) of which the complete hand must lack at least one.
    Error codes < -1 (see .pxd); 99 when no arrangement of the requested forms exists.
    """
    cdef Opts o = make_opts(mask, quads, caps, jokers, fifth, pair_mask, void_suits)
    return shanten_o(<const uint8_t*>cnp.PyArray_DATA(counts), &o)


def shanten_fast(object hand, int mask, bint quads, int need=0):
    """Shanten of ``hand`` if it is a C-contiguous uint8 (34,) ndarray, or plain Tenhou
    text of a full 13/14-tile hand without melds (see :func:`parse_text`), else
    NOT_FAST (-200).

    The quick path of ``majiang.shanten`` for count vectors and plain strings; other
    inputs (and every invalid one) go through the validating Python route.  With
    ``need`` (13 or 16) a vector must hold ``need`` or ``need + 1`` tiles (the
    concealed tiles of a Hand without melds), else NOT_FAST.
    """
    cdef cnp.ndarray arr
    cdef uint8_t c[N_KINDS]
    cdef int n, k
    cdef const uint8_t* p
    if type(hand) is str:
        n = fill_plain(<str>hand, c)
        if n != 13 and n != 14:
            return NOT_FAST
        if SUIT_TABLE == NULL:
            ensure_tables()
        return shanten_c(c, mask, quads, NULL)
    if not cnp.PyArray_Check(hand):
        return NOT_FAST
    arr = <cnp.ndarray>hand
    if (cnp.PyArray_TYPE(arr) != cnp.NPY_UINT8 or cnp.PyArray_NDIM(arr) != 1
            or cnp.PyArray_DIM(arr, 0) != N_KINDS or not cnp.PyArray_IS_C_CONTIGUOUS(arr)):
        return NOT_FAST
    if SUIT_TABLE == NULL:
        ensure_tables()
    p = <const uint8_t*>cnp.PyArray_DATA(arr)
    if need:
        n = 0
        for k in range(N_KINDS):
            n += p[k]
        if n != need and n != need + 1:
            return NOT_FAST
    return shanten_c(p, mask, quads, NULL)


@cython.boundscheck(False)
@cython.wraparound(False)
def shanten_many(const uint8_t[:, ::1] counts, int mask, bint quads, int8_t[::1] out,
                 const uint8_t[::1] jokers=None, bint fifth=False, *, object caps=None,
                 object pair_mask=None, int void_suits=0):
    """Fill ``out[i]`` with the shanten of row ``i`` (GIL released); error codes as above.

    ``jokers`` is None or a uint8 (N,) count of wild tiles per row; ``caps``,
    ``pair_mask``, ``void_suits`` as in :func:`shanten_one` (the same for every row).
    Returns the index of the first bad row, or -1.
    """
    cdef Py_ssize_t i, n = counts.shape[0]
    cdef Py_ssize_t bad = -1
    cdef int s
    cdef bint has_jokers = jokers is not None
    cdef Opts o = make_opts(mask, quads, caps, 0, fifth, pair_mask, void_suits)
    cdef bint plain = (o.caps == NULL and o.void_suits == 0
                       and (o.pair_mask & pair_all()) == pair_all())
    if counts.shape[1] != N_KINDS or out.shape[0] != n:
        raise ValueError("counts must be (N, 34) and out (N,)")
    if has_jokers and jokers.shape[0] != n:
        raise ValueError("jokers must be (N,)")
    with nogil:
        for i in range(n):
            if not plain:
                o.jokers = jokers[i] if has_jokers else 0
                s = shanten_opts_c(&counts[i, 0], &o)
            elif has_jokers:
                s = shanten_jokers_c(&counts[i, 0], mask, quads, NULL, jokers[i], fifth)
            else:
                s = shanten_c(&counts[i, 0], mask, quads, NULL)
            if s < -1 and bad < 0:
                bad = i
            out[i] = <int8_t>(s if s >= -1 else -128)
    return bad


cdef int ukeire_c(uint8_t* h, const Opts* o, const uint8_t* visible, int8_t* live) noexcept nogil:
    """For a 3n+1 hand: live[k] = live copies of kind k if drawing k lowers shanten, else -1.

    Returns the hand's shanten. ``h`` is modified and restored.
    """
    cdef int s0 = shanten_o(h, o)
    cdef int k, s, cap, left
    for k in range(N_KINDS):
        live[k] = -1
        cap = o.caps[k] if o.caps != NULL else 4
        if h[k] >= cap:
            continue
        h[k] += 1
        s = shanten_o(h, o)
        h[k] -= 1
        if s < s0:
            left = cap - h[k] - (visible[k] if visible != NULL else 0)
            live[k] = <int8_t>(left if left > 0 else 0)
    return s0


def ukeire_one(cnp.ndarray counts, int mask, bint quads, object caps, object visible,
               int jokers=0, bint fifth=False, *, object pair_mask=None, int void_suits=0):
    """(shanten, int8 (34,) live array with -1 for kinds that are not effective).

    Options as in :func:`shanten_one`; live = cap - held - visible (at least 0)."""
    cdef Opts o = make_opts(mask, quads, caps, jokers, fifth, pair_mask, void_suits)
    cdef cnp.ndarray work = counts.copy()
    cdef cnp.ndarray live = np.empty(N_KINDS, dtype=np.int8)
    cdef const uint8_t* vis = NULL
    if visible is not None:
        vis = <const uint8_t*>cnp.PyArray_DATA(visible)
    s = ukeire_c(<uint8_t*>cnp.PyArray_DATA(work), &o, vis, <int8_t*>cnp.PyArray_DATA(live))
    return s, live


cdef int best_after_draw(uint8_t* h, const Opts* o, const uint8_t* visible,
                         int target) noexcept nogil:
    """For a 3n+2 hand: the largest live ukeire over discards that keep shanten ``target``."""
    cdef int d, k, best = -1, total
    cdef int8_t live[N_KINDS]
    for d in range(N_KINDS):
        if h[d] == 0:
            continue
        h[d] -= 1
        if shanten_o(h, o) == target:
            ukeire_c(h, o, visible, live)
            total = 0
            for k in range(N_KINDS):
                if live[k] > 0:
                    total += live[k]
            if total > best:
                best = total
        h[d] += 1
    return best


def discard_rows(cnp.ndarray counts, int mask, bint quads, object caps, object visible,
                 bint second_order, int jokers=0, bint fifth=False, *,
                 object pair_mask=None, int void_suits=0):
    """For a 3n+2 hand, one tuple per distinct discard kind (jokers are not discarded here):

    (kind, shanten after the discard, live int8 (34,) as in ``ukeire_one``,
    expected best live ukeire after one effective draw or NaN).  The discarded copy
    is on the table, so it counts as visible.  Options as in :func:`shanten_one`.
    """
    cdef Opts o = make_opts(mask, quads, caps, jokers, fifth, pair_mask, void_suits)
    cdef cnp.ndarray work = counts.copy()
    cdef uint8_t* h = <uint8_t*>cnp.PyArray_DATA(work)
    cdef const uint8_t* vis = NULL
    cdef int d, k, s, nxt, weight, wsum
    cdef double acc
    cdef int8_t* lv
    cdef cnp.ndarray live
    cdef uint8_t seen[N_KINDS]      # visible tiles plus the copy just discarded
    for k in range(N_KINDS):
        seen[k] = 0
    if visible is not None:
        vis = <const uint8_t*>cnp.PyArray_DATA(visible)
        for k in range(N_KINDS):
            seen[k] = vis[k]
    vis = seen
    rows = []
    for d in range(N_KINDS):
        if h[d] == 0:
            continue
        h[d] -= 1
        seen[d] += 1
        live = np.empty(N_KINDS, dtype=np.int8)
        lv = <int8_t*>cnp.PyArray_DATA(live)
        s = ukeire_c(h, &o, vis, lv)
        second = float("nan")
        if second_order and s > 0:
            acc = 0.0
            wsum = 0
            with nogil:
                for k in range(N_KINDS):
                    weight = lv[k]
                    if weight <= 0:
                        continue
                    h[k] += 1
                    nxt = best_after_draw(h, &o, vis, s - 1)
                    h[k] -= 1
                    acc += weight * nxt
                    wsum += weight
            if wsum > 0:
                second = acc / wsum
        h[d] += 1
        seen[d] -= 1
        rows.append((d, s, live, second))
    return rows


# ---------------------------------------------------------------------------
# Direct parsing of ASCII Tenhou text (the quick path of majiang.tiles / hand)
# ---------------------------------------------------------------------------
# Only text whose meaning is certain is read here; anything else (other notations,
# errors of any kind, a fifth copy) gives "not handled" and the caller takes the
# validating tokenizer, which owns every error message.

cdef inline int digit_tile(Py_UCS4 d, Py_UCS4 suit) noexcept nogil:
    """Kind of digit ``d`` before suit letter ``suit`` (0 = red five), or -1."""
    cdef int v = <int>d - 48
    if suit == u'z':
        return 26 + v if 1 <= v <= 7 else -1
    if v == 0:
        v = 5
    if suit == u'm':
        return v - 1
    if suit == u'p':
        return 8 + v
    return 17 + v       # 's'


cdef int fill_plain(str text, uint8_t* c) noexcept:
    """Count vector of plain text: digit runs (0-9; 0 = red five) each directly before
    one of ``m p s z`` (1-7 before ``z``), ASCII spaces between runs.  Returns the
    number of tiles, or -1 when the text is anything else or a kind exceeds 4."""
    cdef Py_ssize_t i, j, n = len(text), start = -1
    cdef Py_UCS4 ch
    cdef int k, total = 0
    memset(c, 0, N_KINDS)
    for i in range(n):
        ch = text[i]
        if u'0' <= ch <= u'9':
            if start < 0:
                start = i
        elif ch == u'm' or ch == u'p' or ch == u's' or ch == u'z':
            if start < 0:
                return -1
            for j in range(start, i):
                k = digit_tile(text[j], ch)
                if k < 0:
                    return -1
                c[k] += 1
                if c[k] > 4:
                    return -1
                total += 1
            start = -1
        elif ch == u' ' and start < 0:
            pass
        else:
            return -1
    if start >= 0:
        return -1
    return total


cdef cnp.ndarray new_counts(const uint8_t* c, bint readonly):
    cdef cnp.npy_intp dim = N_KINDS
    cdef cnp.ndarray arr = cnp.PyArray_SimpleNew(1, &dim, cnp.NPY_UINT8)
    memcpy(cnp.PyArray_DATA(arr), c, N_KINDS)
    if readonly:
        cnp.PyArray_CLEARFLAGS(arr, cnp.NPY_ARRAY_WRITEABLE)
    return arr


def plain_counts(object text, bint readonly=False):
    """``(counts, n)`` for plain Tenhou text (see :func:`fill_plain`): a new C-contiguous
    uint8 (34,) array (read-only if asked) and the number of tiles; None when the text
    is not plain, holds a fifth copy or is not a str."""
    cdef uint8_t c[N_KINDS]
    cdef int n
    if type(text) is not str:
        return None
    n = fill_plain(<str>text, c)
    if n < 0:
        return None
    return new_counts(c, readonly), n


cdef int meld_code(const int* t, int nt, bint brace) noexcept nogil:
    """Meld of the (unsorted) tiles of a bracket group: kind * 64 + tile, concealed kong
    = 3 * 64 + tile; -1 when the group is no meld (the tokenizer reports it)."""
    cdef int a, b, x, lo, hi, mid
    if nt == 4:
        if t[0] == t[1] == t[2] == t[3]:
            return (3 if brace else 2) * 64 + t[0]
        return -1
    if nt != 3 or brace:
        return -1
    if t[0] == t[1] == t[2]:
        return 1 * 64 + t[0]
    lo = t[0]
    hi = t[0]
    for a in range(1, 3):
        if t[a] < lo:
            lo = t[a]
        if t[a] > hi:
            hi = t[a]
    mid = t[0] + t[1] + t[2] - lo - hi
    if hi - lo != 2 or mid != lo + 1 or lo >= 27 or lo // 9 != hi // 9:
        return -1
    return lo       # chow


def parse_text(object text):
    """Direct reading of ASCII hand text: concealed digit runs before ``m p s z``
    (``0`` = red five), ``*`` jokers, ``1f``..``8f`` flowers outside brackets, melds
    ``[...]`` (pung, kong, chow) and concealed kongs ``{....}``, ASCII spaces.

    Returns ``(counts, n, melds, flowers, jokers)`` -- a new read-only uint8 (34,)
    array of the concealed tiles, their number, a tuple of meld codes (kind * 64 +
    tile: 0 chow, 1 pung, 2 kong, 3 concealed kong), the sorted tuple of flower
    indices and the joker count -- when every check of ``parse_hand`` except the
    total size is known to pass (no kind above 4 counting the melds, each flower once,
    at most 8 jokers); None otherwise (the caller then parses and reports errors).
    """
    cdef uint8_t c[N_KINDS]
    cdef uint8_t allc[N_KINDS]
    cdef int inner[4]
    cdef int codes[8]
    cdef int ni = 0, nm = 0, total = 0, jokers = 0, flowers = 0, k, code, f, t
    cdef int depth = 0           # 0 outside, 1 in [ ], 2 in { }
    cdef Py_ssize_t i, j, n, start = -1
    cdef Py_UCS4 ch
    if type(text) is not str:
        return None
    n = len(<str>text)
    memset(c, 0, N_KINDS)
    memset(allc, 0, N_KINDS)
    for i in range(n):
        ch = (<str>text)[i]
        if u'0' <= ch <= u'9':
            if start < 0:
                start = i
        elif ch == u'm' or ch == u'p' or ch == u's' or ch == u'z':
            if start < 0:
                return None
            for j in range(start, i):
                k = digit_tile((<str>text)[j], ch)
                if k < 0:
                    return None
                allc[k] += 1
                if allc[k] > 4:
                    return None
                if depth:
                    if ni == 4:
                        return None
                    inner[ni] = k
                    ni += 1
                else:
                    c[k] += 1
                    total += 1
            start = -1
        elif ch == u'f':
            if start < 0 or depth:
                return None
            for j in range(start, i):
                f = <int>(<str>text)[j] - 49
                if f < 0 or f > 7 or (flowers >> f) & 1:
                    return None
                flowers |= 1 << f
            start = -1
        elif start >= 0:
            return None
        elif ch == u' ':
            pass
        elif ch == u'*':
            if depth:
                return None
            jokers += 1
            if jokers > 8:
                return None
        elif ch == u'[' or ch == u'{':
            if depth or nm == 8:
                return None
            depth = 1 if ch == u'[' else 2
            ni = 0
        elif ch == u']' or ch == u'}':
            if depth != (1 if ch == u']' else 2):
                return None
            code = meld_code(inner, ni, depth == 2)
            if code < 0:
                return None
            codes[nm] = code
            nm += 1
            depth = 0
        else:
            return None
    if start >= 0 or depth:
        return None
    melds = tuple([codes[t] for t in range(nm)])
    fl = tuple([t for t in range(8) if (flowers >> t) & 1])
    return new_counts(c, True), total, melds, fl, jokers


def list_counts(object x):
    """A new uint8 (34,) array from a list or tuple of 34 Python ints 0..4, else None
    (the caller validates anything else and reports errors)."""
    cdef uint8_t c[N_KINDS]
    cdef Py_ssize_t i
    cdef object v
    cdef long w
    cdef int ovf = 0
    if (type(x) is not list and type(x) is not tuple) or len(x) != N_KINDS:
        return None
    for i in range(N_KINDS):
        v = x[i]
        if type(v) is not int:
            return None
        w = PyLong_AsLongAndOverflow(v, &ovf)
        if ovf or w < 0 or w > 4:
            return None
        c[i] = <uint8_t>w
    return new_counts(c, False)


def tile_list_counts(object x):
    """A new uint8 (34,) count vector of a list or tuple of Python int tile kinds
    0..33 with at most 4 of each, else None (the caller validates and reports)."""
    cdef uint8_t c[N_KINDS]
    cdef Py_ssize_t i, n
    cdef object v
    cdef long w
    cdef int ovf = 0
    if type(x) is not list and type(x) is not tuple:
        return None
    n = len(x)
    memset(c, 0, N_KINDS)
    for i in range(n):
        v = x[i]
        if type(v) is not int:
            return None
        w = PyLong_AsLongAndOverflow(v, &ovf)
        if ovf or w < 0 or w >= N_KINDS or c[w] == 4:
            return None
        c[w] += 1
    return new_counts(c, False)


# ---------------------------------------------------------------------------
# Ukeire by table rows (the quick path of majiang.ukeire)
# ---------------------------------------------------------------------------
# A draw changes one group (a suit or the honors), so the min-plus product of the
# other three groups is computed once per group and each draw costs one table
# look-up and one (M + 1) x 2 scan.  Min-plus over (sets, pair) is associative and
# commutative, so this is the same minimum as ``combine`` (exact: no finite sum
# reaches INF).

cdef tuple TILE_NAMES = tuple([f"{(k % 9) + 1}{'mpsz'[k // 9]}" for k in range(N_KINDS)])


cdef inline int rows_regular(const uint8_t* r, const uint8_t* comp, int M) noexcept nogil:
    """Distance to M sets + a pair from one group's row and the other groups' product."""
    cdef int m, v, best = INF
    for m in range(M + 1):
        v = r[m * 2] + comp[(M - m) * 2 + 1]
        if v < best:
            best = v
        v = r[m * 2 + 1] + comp[(M - m) * 2]
        if v < best:
            best = v
    return best


cdef inline int rows_whole(const uint8_t** rows, int mask, bint quads, int best) noexcept nogil:
    """Seven pairs / thirteen orphans from the statistics of four table rows."""
    cdef int d, pairs = 0, odd = 0, orph = 0, opair = 0, g
    if mask & FORM_SEVEN_PAIRS:
        for g in range(4):
            if quads:
                pairs += rows[g][ST_HALVES]
                odd += rows[g][ST_ODD]
            else:
                pairs += rows[g][ST_PAIRS]
                odd += rows[g][ST_SINGLES]
        d = pairs_distance(pairs, odd)
        if d < best:
            best = d
    if mask & FORM_THIRTEEN_ORPHANS:
        for g in range(4):
            orph += rows[g][ST_ORPHANS]
            opair |= rows[g][ST_ORPHAN_PAIR]
        d = 14 - orph - (1 if opair else 0)
        if d < best:
            best = d
    return best


cdef int ukeire_table_c(uint8_t* h, int mask, bint quads, int8_t* live,
                        const uint8_t* visible=NULL) noexcept nogil:
    """``ukeire_c`` without options for a 3n+1 hand (n <= 13) on the table path: the
    shanten, or NOT_FAST when the hand is outside it (a group above MAXSUM tiles),
    ERR_BAD_COUNT / ERR_BAD_SIZE for a bad vector.  ``h`` is modified and restored.

    The knitted forms (全不靠, 组合龙; not in the tables) by :func:`knitted_distance` on
    the vector: a draw lowers their distance by at most one, so they are looked at for
    the draws only when their distance is the hand's (the bound ``d0`` prunes them)."""
    cdef int total = 0, M, g, k, base, npos, idx, best, s, s0, j, d0
    cdef int knit = mask & (FORM_HONORS_KNITTED | FORM_KNITTED_STRAIGHT)
    cdef uint64_t knit_eff = 0
    cdef int idxs[4]
    cdef const uint8_t* rows[4]
    cdef const uint8_t* saved
    cdef uint8_t comp[4][ROW]
    cdef uint8_t tmp[ROW]
    cdef const int32_t* off
    idxs[0] = checked_index(h, 9, &SUIT_OFF[0][0][0], &total)
    idxs[1] = checked_index(h + 9, 9, &SUIT_OFF[0][0][0], &total)
    idxs[2] = checked_index(h + 18, 9, &SUIT_OFF[0][0][0], &total)
    idxs[3] = checked_index(h + 27, 7, &HONOR_OFF[0][0][0], &total)
    for g in range(4):
        if idxs[g] == -2:
            return ERR_BAD_COUNT
    if total % 3 != 1 or total > 13:
        return NOT_FAST if total % 3 != 0 and total <= 17 else ERR_BAD_SIZE
    for g in range(4):
        if idxs[g] < 0:
            return NOT_FAST
        rows[g] = (HONOR_TABLE if g == 3 else SUIT_TABLE) + <Py_ssize_t>idxs[g] * TROW
    M = total // 3
    # the product of the other three groups, for each group
    minplus(rows[2], rows[3], tmp, M)
    minplus(rows[1], tmp, comp[0], M)
    minplus(rows[0], tmp, comp[1], M)
    minplus(rows[0], rows[1], tmp, M)
    minplus(rows[3], tmp, comp[2], M)
    minplus(rows[2], tmp, comp[3], M)
    best = INF
    if mask & FORM_REGULAR:
        best = rows_regular(rows[0], comp[0], M)
    if M == 4:
        best = rows_whole(rows, mask, quads, best)
    if knit:
        d0 = knitted_distance(h, knit, M, NULL, best + 1)
        if d0 < best:
            best = d0
        if d0 <= best:                  # a knitted draw may lower the hand's distance
            knit_eff = knitted_effective(h, knit, M, best)
    d0 = best
    s0 = with_jokers(best, 0)
    for g in range(4):
        base = 9 * g
        npos = 7 if g == 3 else 9
        off = &HONOR_OFF[0][0][0] if g == 3 else &SUIT_OFF[0][0][0]
        saved = rows[g]
        for j in range(npos):
            k = base + j
            live[k] = -1
            if h[k] >= 4:
                continue
            h[k] += 1
            idx = table_index(h + base, npos, off)
            h[k] -= 1
            if idx < 0:         # a group of 15 tiles: the whole route for this draw
                h[k] += 1
                s = shanten_c(h, mask, quads, NULL)
                h[k] -= 1
            else:
                rows[g] = (HONOR_TABLE if g == 3 else SUIT_TABLE) + <Py_ssize_t>idx * TROW
                best = INF
                if mask & FORM_REGULAR:
                    best = rows_regular(rows[g], comp[g], M)
                if M == 4:
                    best = rows_whole(rows, mask, quads, best)
                rows[g] = saved
                if (knit_eff >> k) & 1:
                    best = d0 - 1
                s = with_jokers(best, 0)
            if s < s0:
                s = 4 - h[k] - (visible[k] if visible != NULL else 0)
                live[k] = <int8_t>(s if s > 0 else 0)
    return s0


def ukeire_fast(object counts, int mask, bint quads):
    """``{tile name: live}`` of a C-contiguous uint8 (34,) 3n+1 vector (n <= 13) with no
    options and nothing visible, built in the core; None when the input is anything else
    (the caller takes the validating route, which owns the error messages)."""
    cdef cnp.ndarray arr
    cdef uint8_t h[N_KINDS]
    cdef int8_t live[N_KINDS]
    cdef int s, k
    if not cnp.PyArray_Check(counts):
        return None
    arr = <cnp.ndarray>counts
    if (cnp.PyArray_TYPE(arr) != cnp.NPY_UINT8 or cnp.PyArray_NDIM(arr) != 1
            or cnp.PyArray_DIM(arr, 0) != N_KINDS or not cnp.PyArray_IS_C_CONTIGUOUS(arr)):
        return None
    if SUIT_TABLE == NULL:
        ensure_tables()
    memcpy(h, cnp.PyArray_DATA(arr), N_KINDS)
    s = ukeire_table_c(h, mask, quads, live)
    if s < -1:
        return None
    d = {}
    for k in range(N_KINDS):
        if live[k] >= 0:
            d[<str>TILE_NAMES[k]] = live[k]
    return d



cdef inline bint plain_opts(const Opts* o) noexcept nogil:
    return (o.caps == NULL and o.jokers == 0 and o.void_suits == 0
            and (o.pair_mask & pair_all()) == pair_all())


cdef int ukeire_any(uint8_t* h, const Opts* o, const uint8_t* visible,
                    int8_t* live) noexcept nogil:
    """``ukeire_c``, by table rows when the options allow (same values)."""
    cdef int s
    if plain_opts(o):
        s = ukeire_table_c(h, o.mask, o.quads, live, visible)
        if s >= -1:
            return s
    return ukeire_c(h, o, visible, live)


cdef str kinds_text(const int8_t* live):
    """Compact Tenhou text of the kinds with live >= 0 (``format_counts`` of them)."""
    cdef list parts = []
    cdef int g, k, lo, hi
    cdef str digits
    for g in range(4):
        lo = 9 * g
        hi = 34 if g == 3 else lo + 9
        digits = ""
        for k in range(lo, hi):
            if live[k] >= 0:
                digits += chr(49 + k - lo)
        if digits:
            parts.append(digits + "mpsz"[g])
    return "".join(parts)


# ---------------------------------------------------------------------------
# Second-order advice (改良), incremental
# ---------------------------------------------------------------------------
# improvement(d) is the average, over the effective draws k of h - d (weight: live
# copies), of the best live ukeire over the discards d2 of H = h - d + k that keep shanten
# s_d - 1.  Every state S = h - d + k - d2 is a 3n+1 vector whose shanten and effective
# kinds do not depend on what is visible (only the live counts do), so both are kept per
# call: (d, k, d2) and (d2, k, d) reach the same state, k == d a first-level state
# h - d2 (known from the first pass) and d2 == k the state h - d (shanten s_d: never
# kept).  On the table path (plain options, at most 14 tiles) the rows of H, the min-plus
# products of its pairs of groups and of each three groups are made once per H (from the
# rows of h for the groups the draw and discard left alone); a discard d2 changes one
# group row, a draw j one more, so a state costs three min-plus products, and a draw j
# a look at the few (sets, pair) splits of its group that can drop (a draw lowers a
# row entry by at most one) and at the whole forms' totals changed by one kind.  A
# joker's fifth copy takes the general kernels for each new state, still memoised.
# Hands of more than 14 tiles (16-tile rulesets) read their rows from the programme as
# under caps; the knitted forms (全不靠, 组合龙) are computed on the vector like the whole
# forms under caps.  Same values as
# ``discard_rows`` (min-plus over (sets, pair) is associative and commutative, exact
# below INF); tests/test_second_order.py checks them against a reference from scratch.
# With caps, a pair restriction or void suits (a hand with melds, a reduced tile set,
# 二五八将, 缺一门) the rows come from the programme (``suit_row``) once per group vector
# and call (``RowCache``), a void suit is one variant per suit (the least distance over
# them, as in ``shanten_opts_c``), and the whole forms are computed on the vector, only
# when they are within one of the state's distance; jokers lower every distance by
# their number (an effective draw lowers the distance of the real tiles).

cdef extern from "math.h" nogil:
    double NAN

cdef enum:
    SO_UNKNOWN = 127

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static inline int mj_lowest_bit(unsigned long long x) {
        unsigned long i; _BitScanForward64(&i, x); return (int)i;
    }
    #else
    static inline int mj_lowest_bit(unsigned long long x) { return __builtin_ctzll(x); }
    #endif
    """
    int lowest_bit "mj_lowest_bit"(uint64_t x) noexcept nogil   # x != 0

cdef int SO_PI[4][4]        # index of the pair of groups (a, b) among the six
cdef int SO_OTHER[4][4]     # index of the pair of the two groups other than a and b
SO_PI[:] = [[-1, 0, 1, 2], [0, -1, 3, 4], [1, 3, -1, 5], [2, 4, 5, -1]]
SO_OTHER[:] = [[-1, 5, 4, 3], [5, -1, 2, 1], [4, 2, -1, 0], [3, 1, 0, -1]]


cdef enum:
    RC_SLOTS = 8192       # rows kept per call when they do not come from the tables
    SO_MAXV = 3           # void-suit variants (one per suit the hand may lack)

cdef struct RowCache:
    # rows of group vectors under caps / a pair restriction, computed once per call
    # (open addressing on the group's base-5 code; full -> NULL, the general route)
    int32_t key[2 * RC_SLOTS]
    int32_t slot[2 * RC_SLOTS]
    int n
    uint8_t rows[RC_SLOTS][ROW]

cdef struct SOCtx:
    int M
    int mask
    bint quads
    int J                           # jokers (each fills one missing tile)
    bint table                      # rows and whole-form totals from the shanten tables
    bint whole                      # whole forms apply (M == 4 and asked for)
    const uint8_t* caps             # copies a draw may reach (NULL: 4 each)
    uint64_t pair_mask
    RowCache* cache
    int nv                          # variants: the distance is the least over them
    int vzero[SO_MAXV]              # suit whose caps are 0 in the variant, or -1
    bint gtab[SO_MAXV][4]           # the group's rows are table rows in the variant
    const uint8_t* vcaps[SO_MAXV]   # caps of the variant (NULL: 4 each)
    uint8_t vbuf[SO_MAXV][N_KINDS]
    const uint8_t* rows[SO_MAXV][4]          # group rows of H
    const uint8_t* plus[SO_MAXV][N_KINDS]    # row of H's group of j plus one j (NULL: none)
    uint8_t q[SO_MAXV][6][ROW]               # products of the pairs of groups (SO_PI order)
    uint8_t comp[SO_MAXV][4][ROW]            # product of the three groups other than g


cdef uint8_t ZERO_ROW[ROW]          # a group none of whose copies may be used
ZERO_ROW[:] = [0] + [INF] * (ROW - 1)


cdef inline void minplus_m(const uint8_t* A, const uint8_t* B, uint8_t* C,
                           int M) noexcept nogil:
    """``minplus`` without branches for entries 0..M (entries above M are not written);
    called with a constant M so the compiler unrolls it.  Same values: sums of two
    entries are at most 2 * INF < 256 and are clamped to INF."""
    cdef int m, i, v0, v1
    for m in range(M + 1):
        v0 = A[0] + B[2 * m]
        v1 = imin(A[0] + B[2 * m + 1], A[1] + B[2 * m])
        for i in range(1, m + 1):
            v0 = imin(v0, A[2 * i] + B[2 * (m - i)])
            v1 = imin(v1, imin(A[2 * i] + B[2 * (m - i) + 1], A[2 * i + 1] + B[2 * (m - i)]))
        C[2 * m] = <uint8_t>imin(v0, INF)
        C[2 * m + 1] = <uint8_t>imin(v1, INF)


cdef void minplus_k(const uint8_t* A, const uint8_t* B, uint8_t* C, int M) noexcept nogil:
    """:func:`minplus_m` specialised by M (M <= MAXM)."""
    if M == 5:
        minplus_m(A, B, C, 5)
    elif M == 4:
        minplus_m(A, B, C, 4)
    elif M == 3:
        minplus_m(A, B, C, 3)
    elif M == 2:
        minplus_m(A, B, C, 2)
    elif M == 1:
        minplus_m(A, B, C, 1)
    else:
        minplus_m(A, B, C, 0)


cdef inline int group_of(int k) noexcept nogil:
    return k // 9 if k < 27 else 3


cdef inline int draw_cap(const SOCtx* c, int j) noexcept nogil:
    return 4 if c.caps == NULL else c.caps[j]


cdef inline const uint8_t* trow(const uint8_t* h, int g) noexcept nogil:
    """Table row of group ``g`` of the full vector ``h`` (NULL above MAXSUM tiles)."""
    cdef int idx
    if g == 3:
        idx = table_index(h + 27, 7, &HONOR_OFF[0][0][0])
        return NULL if idx < 0 else HONOR_TABLE + <Py_ssize_t>idx * TROW
    idx = table_index(h + 9 * g, 9, &SUIT_OFF[0][0][0])
    return NULL if idx < 0 else SUIT_TABLE + <Py_ssize_t>idx * TROW


cdef const uint8_t* crow(SOCtx* c, int v, const uint8_t* h, int g) noexcept nogil:
    """Row of group ``g`` of ``h`` in variant ``v``: a table row, the zero row for the
    variant's void suit, else :func:`suit_row` under the caps and pair bits, kept in
    the call's cache (the caps of a group are the same in every variant where it is not
    void; NULL when the cache is full)."""
    cdef int i, npos = 7 if g == 3 else 9, code = 0, pair_bits, u, k
    cdef const uint8_t* r
    cdef uint8_t scratch[ROW]
    cdef RowCache* rc = c.cache
    cdef uint64_t mix
    if c.table or c.gtab[v][g]:
        return trow(h, g)
    if c.vzero[v] == g:
        return ZERO_ROW
    for i in range(npos):
        code = code * 5 + h[9 * g + i]
    code += g * 1953125             # 5 ** 9: one key range per group
    mix = (<uint64_t>code) * (<uint64_t>2654435761)
    u = <int>(mix >> 11)
    while True:
        u &= 2 * RC_SLOTS - 1
        k = rc.key[u]
        if k == code:
            return rc.rows[rc.slot[u]]
        if k < 0:
            break
        u += 1
    if rc.n == RC_SLOTS:
        return NULL
    pair_bits = <int>((c.pair_mask >> (9 * g)) & (0x7F if g == 3 else 0x1FF))
    r = suit_row(h, c.vcaps[v], 9 * g, npos, g < 3, c.M, pair_bits, scratch)
    memcpy(rc.rows[rc.n], r, ROW if r == scratch else (TM + 1) * 2)
    rc.key[u] = code
    rc.slot[u] = rc.n
    rc.n += 1
    return rc.rows[rc.n - 1]


cdef void plus_rows_c(SOCtx* c, int v, uint8_t* h, int g, const uint8_t** plus) noexcept nogil:
    """:func:`plus_rows` in variant ``v`` (a draw up to the kind's cap)."""
    cdef int j, lo = 9 * g, hi = 34 if g == 3 else 9 * g + 9
    if c.table or c.gtab[v][g]:
        plus_rows(h, g, plus)
        return
    for j in range(lo, hi):
        if h[j] >= draw_cap(c, j):
            plus[j] = NULL
        else:
            h[j] += 1
            plus[j] = crow(c, v, h, g)
            h[j] -= 1


cdef void plus_rows(uint8_t* h, int g, const uint8_t** plus) noexcept nogil:
    """plus[j] = row of group g of h + j for the kinds j of g (NULL when h[j] == 4 or
    the group would hold more than MAXSUM tiles).  The ranks of all the group's plus
    vectors in one pass: a prefix of the rank, the rank digit of j, and a suffix read
    with every prefix sum one higher."""
    cdef int i, v, npos = 7 if g == 3 else 9, ps = 0
    cdef const uint8_t* x = h + 9 * g
    cdef const int32_t* off = &HONOR_OFF[0][0][0] if g == 3 else &SUIT_OFF[0][0][0]
    cdef const uint8_t* table = HONOR_TABLE if g == 3 else SUIT_TABLE
    cdef int pre[9]
    cdef int psum[9]
    cdef int suf = 0, idx = 0
    for i in range(npos):
        v = x[i]
        pre[i] = idx
        psum[i] = ps
        ps += v
        if ps <= MAXSUM:
            idx += off[(i * (MAXSUM + 1) + psum[i]) * 5 + v]
    if ps + 1 > MAXSUM:
        for i in range(npos):
            plus[9 * g + i] = NULL
        return
    for i in range(npos - 1, -1, -1):
        v = x[i]
        if v >= 4:
            plus[9 * g + i] = NULL
        else:
            plus[9 * g + i] = table + <Py_ssize_t>(
                pre[i] + off[(i * (MAXSUM + 1) + psum[i]) * 5 + v + 1] + suf) * TROW
        suf += off[(i * (MAXSUM + 1) + psum[i] + 1) * 5 + v]


cdef bint so_ctx(SOCtx* c, uint8_t* H, const uint8_t* (*base_rows)[4],
                 const uint8_t* (*base_plus)[N_KINDS], int ga, int gb) noexcept nogil:
    """Rows, pair products and three-group products of H in every variant; H differs
    from the base hand in groups ``ga`` and ``gb`` only.  False when a row is missing
    (outside the tables, or the row cache is full)."""
    cdef int v, g, j, a, b
    for v in range(c.nv):
        for g in range(4):
            if g == ga or g == gb:
                c.rows[v][g] = crow(c, v, H, g)
                if c.rows[v][g] == NULL:
                    return False
                plus_rows_c(c, v, H, g, c.plus[v])
            else:
                c.rows[v][g] = base_rows[v][g]
                for j in range(9 * g, 34 if g == 3 else 9 * g + 9):
                    c.plus[v][j] = base_plus[v][j]
        if c.mask & FORM_REGULAR:
            for a in range(4):
                for b in range(a + 1, 4):
                    minplus_k(c.rows[v][a], c.rows[v][b], c.q[v][SO_PI[a][b]], c.M)
            minplus_k(c.rows[v][1], c.q[v][SO_PI[2][3]], c.comp[v][0], c.M)
            minplus_k(c.rows[v][0], c.q[v][SO_PI[2][3]], c.comp[v][1], c.M)
            minplus_k(c.rows[v][3], c.q[v][SO_PI[0][1]], c.comp[v][2], c.M)
            minplus_k(c.rows[v][2], c.q[v][SO_PI[0][1]], c.comp[v][3], c.M)
    return True


cdef int whole_distance(const SOCtx* c, const uint8_t* h, int v, int bound) noexcept nogil:
    """The least of ``bound`` and the distances to seven pairs, thirteen orphans and the
    knitted forms of the full vector ``h`` in variant ``v`` (the same functions as
    :func:`shanten_general`; the bound prunes the knitted patterns)."""
    cdef int best = bound, d
    cdef const uint8_t* caps = c.vcaps[v]
    if c.M == 4 and c.mask & FORM_SEVEN_PAIRS:
        d = (seven_pairs_distance(h, c.quads) if caps == NULL
             else seven_pairs_caps_distance(h, c.quads, caps))
        if d < best:
            best = d
    if c.M == 4 and c.mask & FORM_THIRTEEN_ORPHANS:
        d = thirteen_orphans_distance(h) if caps == NULL else thirteen_orphans_caps_distance(h, caps)
        if d < best:
            best = d
    if c.mask & (FORM_HONORS_KNITTED | FORM_KNITTED_STRAIGHT):
        best = knitted_distance(h, c.mask, c.M, caps, best)
    return best


cdef int so_shanten_fast(SOCtx* c, uint8_t* H, int d2) noexcept nogil:
    """Shanten of H - d2 from the context of H, or NOT_FAST."""
    cdef int a = group_of(d2), v, best = INF, d
    cdef const uint8_t* rows[4]
    cdef const uint8_t* ra
    H[d2] -= 1
    for v in range(c.nv):
        ra = crow(c, v, H, a)
        if ra == NULL:
            H[d2] += 1
            return NOT_FAST
        if c.mask & FORM_REGULAR:
            d = rows_regular(ra, c.comp[v][a], c.M)
            if d < best:
                best = d
        if c.whole:
            if c.table:
                if c.M == 4:            # seven pairs, thirteen orphans: the whole hand
                    memcpy(rows, c.rows[v], sizeof(rows))
                    rows[a] = ra
                    best = rows_whole(rows, c.mask, c.quads, best)
                if c.mask & (FORM_HONORS_KNITTED | FORM_KNITTED_STRAIGHT):
                    best = knitted_distance(H, c.mask, c.M, NULL, best)
            else:
                best = whole_distance(c, H, v, best)
    H[d2] += 1
    return with_jokers(best, c.J)


cdef uint64_t ORPHAN_BITS = 0     # bit k: terminal or honor kind
for _k in range(N_KINDS):
    if _k >= 27 or _k % 9 == 0 or _k % 9 == 8:
        ORPHAN_BITS |= (<uint64_t>1) << _k


cdef bint so_effective_fast(SOCtx* c, uint8_t* H, int d2, int sh,
                            uint64_t* out) noexcept nogil:
    """Effective kinds (bit j) of S = H - d2 of shanten ``sh`` >= 0 from the context of
    H (not the table route: :func:`so_effective_table`); False when a row is missing.
    A draw j is effective when the new distance is below dS = sh + 1 + jokers, the
    distance of S.  Every distance (each form, each
    variant) drops by at most one when a tile is added, so only forms within one of dS
    are looked at: the regular form on the (sets, pair) splits of the draw's group where
    the row of S times the product of the other groups is at most dS; the whole forms
    on the vector."""
    cdef int a = group_of(d2), b, j, lo, hi, dS = sh + 1 + c.J, cnt, vv
    cdef int m, p, x, t
    cdef bint wchk[SO_MAXV]
    cdef bint hit, wany = False
    cdef int nt[SO_MAXV]
    cdef int tidx[SO_MAXV][ROW]
    cdef int tthr[SO_MAXV][ROW]
    cdef const uint8_t* R
    cdef bint regular = c.mask & FORM_REGULAR
    cdef const uint8_t* ra[SO_MAXV]
    cdef const uint8_t* r
    cdef const uint8_t* other
    cdef const uint8_t* aplus[SO_MAXV][N_KINDS]
    cdef uint8_t X[SO_MAXV][ROW]
    cdef uint64_t E = 0
    if sh >= INF - 1:               # no arrangement: no draw changes that
        out[0] = 0
        return True
    H[d2] -= 1                      # H is S until the end
    for vv in range(c.nv):
        ra[vv] = crow(c, vv, H, a)
        if ra[vv] == NULL:
            H[d2] += 1
            return False
        plus_rows_c(c, vv, H, a, aplus[vv])
        wchk[vv] = False
        if c.whole:
            wchk[vv] = whole_distance(c, H, vv, dS + 1) <= dS
            wany = wany or wchk[vv]
    for b in range(4):
        lo = 9 * b
        hi = 34 if b == 3 else lo + 9
        for vv in range(c.nv):
            nt[vv] = 0
            if not regular:
                continue
            if b == a:
                other = c.comp[vv][a]   # a draw in the discard's group: S_a + j x the rest
                R = ra[vv]
            else:
                minplus_k(ra[vv], c.q[vv][SO_OTHER[a][b]], X[vv], c.M)
                other = X[vv]           # a draw in group b: S_b + j x ra x the other two
                R = c.rows[vv][b]
            # a draw lowers each entry of its group's row by at most one, so only the
            # (sets, pair) splits on which R x other is within one of dS can drop below
            for m in range(c.M + 1):
                for p in range(2):
                    x = other[(c.M - m) * 2 + 1 - p]
                    if R[m * 2 + p] + x <= dS:
                        tidx[vv][nt[vv]] = m * 2 + p
                        tthr[vv][nt[vv]] = dS - 1 - x
                        nt[vv] += 1
        for j in range(lo, hi):
            cnt = H[j]
            if cnt >= draw_cap(c, j):
                continue
            hit = False
            if wany:
                H[j] += 1
                for vv in range(c.nv):
                    if wchk[vv] and whole_distance(c, H, vv, dS) < dS:
                        hit = True
                        break
                H[j] -= 1
            for vv in range(c.nv):
                if hit:
                    break
                if nt[vv] == 0:
                    continue
                r = aplus[vv][j] if b == a else c.plus[vv][j]
                if r == NULL:
                    H[d2] += 1
                    return False
                for t in range(nt[vv]):
                    if r[tidx[vv][t]] <= tthr[vv][t]:
                        hit = True
                        break
            if hit:
                E |= (<uint64_t>1) << j
    H[d2] += 1
    out[0] = E
    return True


cdef bint so_effective_table(SOCtx* c, uint8_t* H, int d2, int sh,
                             uint64_t* out) noexcept nogil:
    """:func:`so_effective_fast` on the table route (one variant, no caps), the whole
    forms from the tables' totals: a draw changes the totals of one kind only, so the
    whole-form distance after drawing a kind held cnt times is one of eight numbers
    (terminal/honor or simple, cnt 0..3).  The knitted forms (not in the tables) on the
    vector, for the draws only when S is within one of dS in them."""
    cdef int a = group_of(d2), b, j, lo, hi, dS = sh + 1 + c.J, cnt, dw
    cdef int knit = c.mask & (FORM_HONORS_KNITTED | FORM_KNITTED_STRAIGHT)
    cdef uint64_t knit_eff = 0
    cdef bint whole
    cdef int pairs = 0, singles = 0, halves = 0, odd = 0, orph = 0, opair = 0, o2, p2
    cdef int m, p, x, t, nt
    cdef bint weff[8]
    cdef int tidx[ROW]
    cdef int tthr[ROW]
    cdef const uint8_t* R = NULL
    cdef bint regular = c.mask & FORM_REGULAR
    cdef const uint8_t* rows[4]
    cdef const uint8_t* ra
    cdef const uint8_t* r
    cdef const uint8_t* other = NULL
    cdef const uint8_t* aplus[N_KINDS]
    cdef uint8_t X[ROW]
    cdef uint64_t E = 0
    if sh >= INF - 1:
        out[0] = 0
        return True
    H[d2] -= 1                      # H is S until the end
    ra = trow(H, a)
    if ra == NULL:
        H[d2] += 1
        return False
    memcpy(rows, c.rows[0], sizeof(rows))
    rows[a] = ra
    if knit and knitted_distance(H, knit, c.M, NULL, dS + 1) <= dS:
        knit_eff = knitted_effective(H, knit, c.M, dS)
    whole = c.whole and c.M == 4        # seven pairs / thirteen orphans (c.whole may be
    if whole:                           # set by 组合龙 alone, which takes three sets)
        for b in range(4):
            pairs += rows[b][ST_PAIRS]
            singles += rows[b][ST_SINGLES]
            halves += rows[b][ST_HALVES]
            odd += rows[b][ST_ODD]
            orph += rows[b][ST_ORPHANS]
            opair |= rows[b][ST_ORPHAN_PAIR]
        for cnt in range(4):
            dw = INF
            if c.mask & FORM_SEVEN_PAIRS:
                if c.quads:
                    dw = (pairs_distance(halves + 1, odd - 1) if cnt & 1
                          else pairs_distance(halves, odd + 1))
                elif cnt == 0:
                    dw = pairs_distance(pairs, singles + 1)
                elif cnt == 1:
                    dw = pairs_distance(pairs + 1, singles - 1)
                else:
                    dw = pairs_distance(pairs, singles)
            if c.mask & FORM_THIRTEEN_ORPHANS:
                weff[4 + cnt] = imin(dw, 14 - orph - (1 if opair else 0)) < dS
                o2 = orph + (1 if cnt == 0 else 0)
                p2 = 1 if (opair or cnt == 1) else 0
                dw = imin(dw, 14 - o2 - p2)
            else:
                weff[4 + cnt] = dw < dS
            weff[cnt] = dw < dS
    plus_rows(H, a, aplus)
    for b in range(4):
        lo = 9 * b
        hi = 34 if b == 3 else lo + 9
        nt = 0
        if regular:
            if b == a:
                other = c.comp[0][a]
                R = ra
            else:
                minplus_k(ra, c.q[0][SO_OTHER[a][b]], X, c.M)
                other = X
                R = rows[b]
            for m in range(c.M + 1):
                for p in range(2):
                    x = other[(c.M - m) * 2 + 1 - p]
                    if R[m * 2 + p] + x <= dS:
                        tidx[nt] = m * 2 + p
                        tthr[nt] = dS - 1 - x
                        nt += 1
        for j in range(lo, hi):
            cnt = H[j]
            if cnt >= 4:
                continue
            if whole and weff[cnt + (0 if (ORPHAN_BITS >> j) & 1 else 4)]:
                E |= (<uint64_t>1) << j
                continue
            if (knit_eff >> j) & 1:
                E |= (<uint64_t>1) << j
                continue
            if nt:
                r = aplus[j] if b == a else c.plus[0][j]
                if r == NULL:
                    H[d2] += 1
                    return False
                for t in range(nt):
                    if r[tidx[t]] <= tthr[t]:
                        E |= (<uint64_t>1) << j
                        break
    H[d2] += 1
    out[0] = E
    return True


cdef uint64_t effective_general(uint8_t* S, const Opts* o) noexcept nogil:
    cdef int8_t live[N_KINDS]
    cdef uint64_t E = 0
    cdef int j
    ukeire_c(S, o, NULL, live)
    for j in range(N_KINDS):
        if live[j] >= 0:
            E |= (<uint64_t>1) << j
    return E


cdef bint so_setup(SOCtx* c, uint8_t* h, const Opts* o, RowCache* cache,
                   const uint8_t* (*base_rows)[4],
                   const uint8_t* (*base_plus)[N_KINDS]) noexcept nogil:
    """Fill the options of the context for the 3n+2 hand ``h`` and the rows of its groups
    (``base_rows``, ``base_plus``); False when the incremental route does not apply (a
    joker's fifth copy, more than five sets, no cache where one is needed, a missing
    row): the callers then take the general kernels."""
    cdef int n = 0, g, j, v
    cdef bint fast
    for j in range(N_KINDS):
        n += h[j]
    # the incremental route: anything but a joker's fifth copy.  Variants as in
    # shanten_opts_c: one, or one per void suit (its caps set to 0).
    c.M = (n + o.jokers - 1) // 3
    c.mask = o.mask
    c.quads = o.quads
    c.J = o.jokers
    c.caps = o.caps
    c.pair_mask = o.pair_mask
    c.cache = cache
    c.whole = ((c.M == 4 and (o.mask & (FORM_SEVEN_PAIRS | FORM_THIRTEEN_ORPHANS
                                        | FORM_HONORS_KNITTED)) != 0)
               or (c.M >= 3 and (o.mask & FORM_KNITTED_STRAIGHT) != 0))
    c.nv = 0
    if o.void_suits & 7 == 0:
        c.vzero[0] = -1
        c.vcaps[0] = o.caps
        c.nv = 1
    else:
        for g in range(3):
            if (o.void_suits >> g) & 1:
                for j in range(N_KINDS):
                    c.vbuf[c.nv][j] = o.caps[j] if o.caps != NULL else 4
                for j in range(9 * g, 9 * g + 9):
                    c.vbuf[c.nv][j] = 0
                c.vcaps[c.nv] = c.vbuf[c.nv]
                c.vzero[c.nv] = g
                c.nv += 1
    c.table = (c.nv == 1 and o.caps == NULL and (o.pair_mask & pair_all()) == pair_all()
               and n + o.jokers <= 14)
    fast = (not (o.fifth and o.jokers > 0) and c.M <= MAXM
            and (c.table or cache != NULL))
    for v in range(c.nv):
        # a group with 4 copies of each kind and any pair: its table rows (suit_row
        # returns them too; this skips the cache)
        for g in range(4):
            c.gtab[v][g] = c.M <= TM and c.vzero[v] != g
            for j in range(9 * g, 34 if g == 3 else 9 * g + 9):
                if c.vcaps[v] != NULL and c.vcaps[v][j] != 4:
                    c.gtab[v][g] = False
            if ((c.pair_mask >> (9 * g)) & (0x7F if g == 3 else 0x1FF)) != (
                    0x7F if g == 3 else 0x1FF):
                c.gtab[v][g] = False
    if fast:
        for v in range(c.nv):
            for g in range(4):
                base_rows[v][g] = crow(c, v, h, g)
                if base_rows[v][g] == NULL:
                    fast = False
                plus_rows_c(c, v, h, g, base_plus[v])
    return fast


cdef void first_level_c(SOCtx* c, bint fast, uint8_t* h, const Opts* o, uint8_t* seen,
                        int* sd, int8_t* lv, const uint8_t* (*base_rows)[4],
                        const uint8_t* (*base_plus)[N_KINDS]) noexcept nogil:
    """``sd[d]``, ``lv[d * 34:]``: shanten and live array (as ``ukeire_c``) of h - d
    for every kind d held, the discarded copy visible: from the context of h (one
    discard changes one group row), else :func:`ukeire_any`."""
    cdef int d, j, sh, left
    cdef uint64_t E
    cdef bint ok
    if fast:
        fast = so_ctx(c, h, base_rows, base_plus, -1, -1)
    for d in range(N_KINDS):
        if h[d] == 0:
            continue
        sh = so_shanten_fast(c, h, d) if fast else NOT_FAST
        ok = sh != NOT_FAST and sh >= 0
        if ok:
            ok = (so_effective_table(c, h, d, sh, &E) if c.table
                  else so_effective_fast(c, h, d, sh, &E))
        h[d] -= 1
        seen[d] += 1
        if ok:
            sd[d] = sh
            for j in range(N_KINDS):
                if (E >> j) & 1:
                    left = (o.caps[j] if o.caps != NULL else 4) - h[j] - seen[j]
                    lv[d * N_KINDS + j] = <int8_t>(left if left > 0 else 0)
                else:
                    lv[d * N_KINDS + j] = -1
        else:
            sd[d] = ukeire_any(h, o, seen, lv + d * N_KINDS)
        h[d] += 1
        seen[d] -= 1


cdef int second_order_c(SOCtx* c, bint fast, uint8_t* h, const Opts* o, uint8_t* seen,
                        const int* sd, const int8_t* lv, double* out, int8_t* msh,
                        uint64_t* meff, uint8_t* mhas, int nl, const int* loc,
                        const uint8_t* (*base_rows)[4],
                        const uint8_t* (*base_plus)[N_KINDS]) noexcept nogil:
    """``out[d]`` = improvement of discarding d (NaN when s_d <= 0 or no effective live
    draw) for every kind held by the 3n+2 hand ``h``; ``sd[d]`` and ``lv[d * 34:]`` are
    the shanten and live array of h - d (``seen`` counting the discarded copy).  The
    memo arrays hold ``34 * nl * nl`` entries (``nl`` kinds held, ``loc`` their local
    index), ``msh`` filled with SO_UNKNOWN and ``mhas`` with 0.  ``c`` and the base rows
    come from :func:`so_setup` (``fast``: its result).  ``h`` and ``seen`` are modified
    and restored."""
    cdef int d, k, d2, j, w, wsum, s, target, sh, best, total, left, key, i1, i2
    cdef int gd
    cdef bint ready, usable
    cdef double acc
    cdef uint64_t E
    cdef uint64_t ed[N_KINDS]
    for d in range(N_KINDS):
        ed[d] = 0
        if h[d]:
            for j in range(N_KINDS):
                if lv[d * N_KINDS + j] >= 0:
                    ed[d] |= (<uint64_t>1) << j
    for d in range(N_KINDS):
        out[d] = NAN
        s = sd[d]
        if h[d] == 0 or s <= 0:
            continue
        target = s - 1
        gd = group_of(d)
        h[d] -= 1
        seen[d] += 1
        acc = 0.0
        wsum = 0
        for k in range(N_KINDS):
            w = lv[d * N_KINDS + k]
            if w <= 0:
                continue
            h[k] += 1                   # h is H = h - d + k
            ready = False
            usable = fast
            best = -1
            for d2 in range(N_KINDS):
                if h[d2] == 0 or d2 == k:   # d2 == k: back to h - d (shanten s)
                    continue
                if k == d:                  # h - d2: the first pass has it
                    if sd[d2] != target:
                        continue
                    E = ed[d2]
                else:
                    i1 = loc[d]
                    i2 = loc[d2]
                    if i1 > i2:
                        i1, i2 = i2, i1
                    key = (k * nl + i1) * nl + i2
                    sh = msh[key]
                    if sh == SO_UNKNOWN:
                        sh = NOT_FAST
                        if usable and not ready:
                            usable = so_ctx(c, h, base_rows, base_plus, gd, group_of(k))
                            ready = True
                        if usable:
                            sh = so_shanten_fast(c, h, d2)
                        if sh == NOT_FAST:
                            h[d2] -= 1
                            sh = shanten_o(h, o)
                            h[d2] += 1
                        msh[key] = <int8_t>sh
                    if sh != target:
                        continue
                    if not mhas[key]:
                        if usable and not ready:
                            usable = so_ctx(c, h, base_rows, base_plus, gd, group_of(k))
                            ready = True
                        if not (usable and (
                                so_effective_table(c, h, d2, sh, &meff[key]) if c.table
                                else so_effective_fast(c, h, d2, sh, &meff[key]))):
                            h[d2] -= 1
                            meff[key] = effective_general(h, o)
                            h[d2] += 1
                        mhas[key] = 1
                    E = meff[key]
                # live ukeire of S = H - d2 with the visible tiles and d
                h[d2] -= 1
                total = 0
                while E:
                    j = lowest_bit(E)
                    E &= E - 1
                    left = (o.caps[j] if o.caps != NULL else 4) - h[j] - seen[j]
                    if left > 0:
                        total += left
                h[d2] += 1
                if total > best:
                    best = total
            h[k] -= 1
            acc += w * best
            wsum += w
        if wsum > 0:
            out[d] = acc / wsum
        h[d] += 1
        seen[d] -= 1
    return 0


def discard_columns(cnp.ndarray counts, int mask, bint quads, object caps, object visible,
                    bint second_order, int jokers=0, bint fifth=False, *,
                    object pair_mask=None, int void_suits=0):
    """The columns of ``majiang.discard_table``, one entry per distinct discard kind in
    tile order: (discard names, shanten int64, ukeire_kinds int64, ukeire_count int64,
    ukeire texts, improvement float64).  Same values as :func:`discard_rows`: the
    ukeire of each discard from the rows of the hand's groups (:func:`first_level_c`),
    the improvement column incremental (:func:`second_order_c`, states kept for the
    call)."""
    cdef Opts o = make_opts(mask, quads, caps, jokers, fifth, pair_mask, void_suits)
    cdef uint8_t h[N_KINDS]
    cdef uint8_t seen[N_KINDS]
    cdef int8_t lv[N_KINDS * N_KINDS]      # live array of h - d, row d
    cdef int sd[N_KINDS]
    cdef double second[N_KINDS]
    cdef int loc[N_KINDS]
    cdef int d, k, nk, nc, nl = 0, r = 0, nh = 0
    cdef int8_t* msh = NULL
    cdef uint64_t* meff = NULL
    cdef uint8_t* mhas = NULL
    cdef RowCache* cache = NULL
    cdef size_t nmemo
    cdef SOCtx c
    cdef const uint8_t* base_rows[SO_MAXV][4]
    cdef const uint8_t* base_plus[SO_MAXV][N_KINDS]
    cdef bint fast
    memcpy(h, cnp.PyArray_DATA(counts), N_KINDS)
    memset(seen, 0, N_KINDS)
    if visible is not None:
        memcpy(seen, cnp.PyArray_DATA(visible), N_KINDS)
    for d in range(N_KINDS):
        loc[d] = -1
        sd[d] = -1
        second[d] = float("nan")
        nh += h[d]
        if h[d]:
            loc[d] = nl
            nl += 1
    if not (o.caps == NULL and (o.pair_mask & pair_all()) == pair_all()
            and o.void_suits & 7 == 0 and nh + o.jokers <= 14):
        cache = <RowCache*>malloc(sizeof(RowCache))     # NULL: the general kernels
        if cache != NULL:
            memset(cache.key, 0xFF, sizeof(cache.key))
            cache.n = 0
    try:
        with nogil:
            fast = so_setup(&c, h, &o, cache, base_rows, base_plus)
            first_level_c(&c, fast, h, &o, seen, sd, lv, base_rows, base_plus)
        if second_order:
            nmemo = <size_t>N_KINDS * nl * nl
            msh = <int8_t*>malloc(nmemo)
            meff = <uint64_t*>malloc(nmemo * sizeof(uint64_t))
            mhas = <uint8_t*>malloc(nmemo)
            if msh == NULL or meff == NULL or mhas == NULL:
                raise MemoryError("cannot allocate the second-order memo")
            memset(msh, SO_UNKNOWN, nmemo)
            memset(mhas, 0, nmemo)
            with nogil:
                second_order_c(&c, fast, h, &o, seen, sd, lv, second, msh, meff, mhas, nl,
                               loc, base_rows, base_plus)
    finally:
        free(msh); free(meff); free(mhas); free(cache)
    cdef cnp.ndarray sh = np.empty(nl, np.int64)
    cdef cnp.ndarray kinds = np.empty(nl, np.int64)
    cdef cnp.ndarray count = np.empty(nl, np.int64)
    cdef cnp.ndarray impr = np.empty(nl, np.float64)
    cdef list names = []
    cdef list texts = []
    cdef const int8_t* row
    for d in range(N_KINDS):
        if h[d] == 0:
            continue
        row = lv + d * N_KINDS
        nk = 0
        nc = 0
        for k in range(N_KINDS):
            if row[k] >= 0:
                nk += 1
                nc += row[k]
        names.append(TILE_NAMES[d])
        texts.append(kinds_text(row))
        (<int64_t*>cnp.PyArray_DATA(sh))[r] = sd[d]
        (<int64_t*>cnp.PyArray_DATA(kinds))[r] = nk
        (<int64_t*>cnp.PyArray_DATA(count))[r] = nc
        (<double*>cnp.PyArray_DATA(impr))[r] = second[d]
        r += 1
    return names, sh, kinds, count, texts, impr

# The distance programme and its tables.
# Part of the efficiency kernel: textually included by efficiency.pyx (one
# compilation unit; the enums and imports there, the shared declarations in
# efficiency.pxd).
#
# The per-position dynamic programme, the per-suit / honor tables built from it,
# their checksummed cache on disk and the pair-restricted (二五八将) pattern tables.


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


# A per-thread memo of the programme's rows.  Rows the tables do not hold (caps below 4
# -- the copies a hand can still reach, as the probability kernels and the game loops
# pass them --, five sets, a mixed pair pattern with no table) otherwise rerun the
# programme, about 2 us a group, on every shanten call; a search over one position asks
# for the same few thousand group vectors again and again.  The key is everything the row
# depends on (the counts, the caps or "none", the pair positions, suit or honours), so
# the memo is exact for every caller; it is per thread (the kernels run without the GIL
# in worker threads), freed when the thread ends, and emptied when three quarters full.
cdef extern from *:
    """
    #include <pthread.h>
    #include <stdlib.h>
    #include <string.h>
    #include <stdint.h>
    #define MJ_RC_BITS 15
    #define MJ_RC_SIZE (1 << MJ_RC_BITS)
    typedef struct { uint64_t a, b; uint8_t row[12]; uint8_t used; } mj_rc_entry;
    typedef struct { int64_t n; int64_t hits, misses; mj_rc_entry e[MJ_RC_SIZE]; } mj_rc;
    static pthread_key_t mj_rc_key;
    static pthread_once_t mj_rc_once = PTHREAD_ONCE_INIT;
    static int mj_rc_off = 0;
    static void mj_rc_make_key(void) { pthread_key_create(&mj_rc_key, free); }
    static mj_rc* mj_rc_get(void) {
        mj_rc* c;
        if (mj_rc_off) return NULL;
        pthread_once(&mj_rc_once, mj_rc_make_key);
        c = (mj_rc*)pthread_getspecific(mj_rc_key);
        if (c == NULL) {
            c = (mj_rc*)calloc(1, sizeof(mj_rc));
            if (c == NULL) return NULL;
            if (pthread_setspecific(mj_rc_key, c) != 0) { free(c); return NULL; }
        }
        return c;
    }
    /* the slot of key (a, b): its entry if present, else the empty slot to fill */
    static mj_rc_entry* mj_rc_slot(mj_rc* c, uint64_t a, uint64_t b) {
        uint64_t z = a * 0x9E3779B97F4A7C15ULL ^ (b + 0x632BE59BD9B4E019ULL);
        size_t j;
        z ^= z >> 29; z *= 0xBF58476D1CE4E5B9ULL; z ^= z >> 32;
        j = (size_t)(z & (MJ_RC_SIZE - 1));
        while (c->e[j].used && (c->e[j].a != a || c->e[j].b != b))
            j = (j + 1) & (MJ_RC_SIZE - 1);
        return &c->e[j];
    }
    static void mj_rc_clear(mj_rc* c) {
        size_t j;
        for (j = 0; j < MJ_RC_SIZE; j++) c->e[j].used = 0;
        c->n = 0;
    }
    """
    ctypedef struct mj_rc_entry:
        uint64_t a
        uint64_t b
        uint8_t row[12]
        uint8_t used
    ctypedef struct mj_rc:
        int64_t n
        int64_t hits
        int64_t misses
    int MJ_RC_SIZE
    int mj_rc_off
    mj_rc* mj_rc_get() noexcept nogil
    mj_rc_entry* mj_rc_slot(mj_rc* c, uint64_t a, uint64_t b) noexcept nogil
    void mj_rc_clear(mj_rc* c) noexcept nogil


def row_memo(object enabled=None):
    """The calling thread's memo of programme rows: ``(entries, hits, misses)``; with
    ``enabled`` False / True turn the memo off / on in every thread (for tests and
    benchmarks that compare against the programme itself)."""
    global mj_rc_off
    if enabled is not None:
        mj_rc_off = 0 if enabled else 1
    cdef mj_rc* c = mj_rc_get()
    if c == NULL:
        return (0, 0, 0)
    return (int(c.n), int(c.hits), int(c.misses))


cdef void dp_direct(const uint8_t* h, const uint8_t* caps, int npos, bint chows,
                    int pair_bits, uint8_t* row) noexcept nogil:
    """:func:`dp_run` through the calling thread's memo (the same row)."""
    cdef uint64_t a = 0, b = 0
    cdef int i, v
    cdef mj_rc* c = mj_rc_get()
    cdef mj_rc_entry* e
    if c == NULL:
        dp_run(h, caps, npos, chows, pair_bits, row)
        return
    for i in range(npos):
        v = h[i]
        if v > 15 or (caps != NULL and caps[i] > 14):
            dp_run(h, caps, npos, chows, pair_bits, row)
            return
        a |= (<uint64_t>v) << (4 * i)
        b |= (<uint64_t>(caps[i] if caps != NULL else 15)) << (4 * i)
    a |= (<uint64_t>(pair_bits & 0x1FF)) << 36
    a |= (<uint64_t>npos) << 45
    a |= (<uint64_t>(1 if chows else 0)) << 50
    e = mj_rc_slot(c, a, b)
    if e.used:
        memcpy(row, e.row, ROW)
        c.hits += 1
        return
    c.misses += 1
    dp_run(h, caps, npos, chows, pair_bits, row)
    if c.n * 4 >= <int64_t>MJ_RC_SIZE * 3:
        mj_rc_clear(c)
        e = mj_rc_slot(c, a, b)
    e.a = a
    e.b = b
    memcpy(e.row, row, ROW)
    e.used = 1
    c.n += 1


cdef void dp_run(const uint8_t* h, const uint8_t* caps, int npos, bint chows,
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

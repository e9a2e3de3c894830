# Part of game.pyx (included): the hand's random stream in C: the seed words numpy's
# SeedSequence gives a PCG64 (seed_words) and numpy's shuffle of the wall (shuffle_wall),
# the same numbers without numpy's per-call overhead (~15 us a hand).  Both are checked
# against numpy itself in tests/test_game.py.

from libc.stdint cimport uint32_t

cdef enum:
    SS_POOL = 4                  # numpy.random.SeedSequence's default pool size
    SS_MAX_WORDS = 64

cdef uint32_t SS_INIT_A = 0x43b0d7e5
cdef uint32_t SS_MULT_A = 0x931e8875
cdef uint32_t SS_INIT_B = 0x8b51f9dd
cdef uint32_t SS_MULT_B = 0x58f38ded
cdef uint32_t SS_MIX_L = 0xca01f9dd
cdef uint32_t SS_MIX_R = 0x4973f715


cdef inline uint32_t ss_hashmix(uint32_t value, uint32_t* hc) noexcept nogil:
    value ^= hc[0]
    hc[0] *= SS_MULT_A
    value *= hc[0]
    value ^= value >> 16
    return value


cdef inline uint32_t ss_mix(uint32_t x, uint32_t y) noexcept nogil:
    cdef uint32_t r = SS_MIX_L * x - SS_MIX_R * y
    r ^= r >> 16
    return r


cdef int int_words(object x, uint32_t* out, int at) except -1:
    """numpy's words of a non-negative int (least significant first, 0 -> one word)."""
    if x == 0:
        out[at] = 0
        return at + 1
    while x > 0:
        if at >= SS_MAX_WORDS:
            raise ValueError("seed too large")
        out[at] = <uint32_t>(x & 0xFFFFFFFF)
        at += 1
        x >>= 32
    return at


def seed_words(object seed, object hand):
    """``SeedSequence(seed, spawn_key=(hand,)).generate_state(4, numpy.uint64)`` (what
    ``numpy.random.PCG64`` seeds from) as 32 little-endian bytes, for non-negative int
    ``seed`` and ``hand``: the entropy words padded to the pool size (a spawn key is
    given), the spawn key's words after them, numpy's mixing and output hashes."""
    cdef uint32_t ent[SS_MAX_WORDS]
    cdef uint32_t pool[SS_POOL]
    cdef uint32_t outw[8]
    cdef uint32_t hc, v
    cdef int n, i, j
    n = int_words(seed, ent, 0)
    while n < SS_POOL:
        ent[n] = 0
        n += 1
    n = int_words(hand, ent, n)
    hc = SS_INIT_A
    for i in range(SS_POOL):
        pool[i] = ss_hashmix(ent[i], &hc)       # n >= SS_POOL here
    for i in range(SS_POOL):
        for j in range(SS_POOL):
            if i != j:
                pool[j] = ss_mix(pool[j], ss_hashmix(pool[i], &hc))
    for i in range(SS_POOL, n):
        for j in range(SS_POOL):
            pool[j] = ss_mix(pool[j], ss_hashmix(ent[i], &hc))
    hc = SS_INIT_B
    for i in range(8):
        v = pool[i % SS_POOL]
        v ^= hc
        hc *= SS_MULT_B
        v *= hc
        v ^= v >> 16
        outw[i] = v
    return bytes([(outw[i >> 2] >> (8 * (i & 3))) & 0xFF for i in range(32)])


cdef inline uint64_t interval_c(bitgen_t* bg, uint64_t mx) noexcept nogil:
    """numpy's ``random_interval``: uniform in [0, mx] by masked rejection."""
    cdef uint64_t mask = mx, v
    if mx == 0:
        return 0
    mask |= mask >> 1
    mask |= mask >> 2
    mask |= mask >> 4
    mask |= mask >> 8
    mask |= mask >> 16
    mask |= mask >> 32
    if mx <= <uint64_t>0xFFFFFFFFU:
        v = bg.next_uint32(bg.state) & mask
        while v > mx:
            v = bg.next_uint32(bg.state) & mask
    else:
        v = bg.next_uint64(bg.state) & mask
        while v > mx:
            v = bg.next_uint64(bg.state) & mask
    return v


def shuffle_wall(int16_t[::1] tiles, object bitgen):
    """Shuffle ``tiles`` in place as ``numpy.random.Generator(bitgen).shuffle`` does
    (Fisher-Yates from the end, ``random_interval`` draws), consuming the same numbers."""
    cdef bitgen_t* bg = <bitgen_t*>PyCapsule_GetPointer(bitgen.capsule, "BitGenerator")
    cdef Py_ssize_t i, j, n = tiles.shape[0]
    cdef int16_t t
    with bitgen.lock:
        for i in range(n - 1, 0, -1):
            j = <Py_ssize_t>interval_c(bg, <uint64_t>i)
            t = tiles[j]
            tiles[j] = tiles[i]
            tiles[i] = t

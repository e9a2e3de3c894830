# Python-facing kernels.
# Part of the efficiency kernel: textually included by efficiency.pyx (one
# compilation unit; the enums and imports there, the shared declarations in
# efficiency.pxd).
#
# shanten of one vector / a batch, ukeire of one vector and the reference discard
# rows; every input is validated by majiang.efficiency before it reaches these.


# ---------------------------------------------------------------------------
# Python-facing kernels (inputs validated by majiang.efficiency)
# ---------------------------------------------------------------------------

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

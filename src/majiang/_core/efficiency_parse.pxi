# Direct text parsing.
# Part of the efficiency kernel: textually included by efficiency.pyx (one
# compilation unit; the enums and imports there, the shared declarations in
# efficiency.pxd).


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

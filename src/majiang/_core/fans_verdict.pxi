# Part of fans.pyx (textually included: one compilation unit).  WinVerdict: whether a
# complete hand reaches the ruleset's minimum, askable without the GIL (declared in
# fans.pxd for the probability kernels and the game loop).

cdef class WinVerdict:
    """One seat's fixed win context under one kernel fan table, for verdicts without the
    GIL: :func:`verdict_c` (C) or calling the object (Python, for tests).

    Built by :func:`majiang.scoring.kernel.win_verdict` from a ruleset, which decides when
    the kernel's verdict is the ruleset's (:func:`majiang.check_win`'s): a 13-tile ruleset
    the kernel scores, no jokers, no wild faces.

    Parameters
    ----------
    table : FanTable
    melds : sequence
        The seat's melds as objects with ``kind`` ("chow" / "pung" / "kong"), ``tile``
        (0..33, a chow's lowest) and ``concealed`` (at most 4).
    seat_wind, prevalent_wind : int
        0..3.
    flowers : int
        Flowers held (0..table.max_flowers).
    min_fan : int
        The ruleset's minimum (起和番).
    flowers_count : bool
        Flowers count toward the minimum.

    Raises
    ------
    ValueError
        A meld, wind or flower count out of range.
    """

    def __init__(self, FanTable table, object melds, int seat_wind, int prevalent_wind,
                 int flowers, int min_fan, bint flowers_count):
        cdef int i, k, t
        if not (0 <= seat_wind <= 3 and 0 <= prevalent_wind <= 3):
            raise ValueError("winds must be 0..3")
        if not 0 <= flowers <= table.max_flowers:
            raise ValueError(f"flowers must be 0..{table.max_flowers}")
        melds = tuple(melds)
        if len(melds) > 4:
            raise ValueError("at most 4 melds")
        memset(&self.v, 0, sizeof(Verdict))
        self.table = table
        self.v.tp = &table.t
        for i, m in enumerate(melds):
            k = meld_kind(m.kind)
            t = int(m.tile)
            if not 0 <= t < NK or (k == K_CHOW and (t >= 27 or t % 9 > 6)):
                raise ValueError(f"bad meld tile {t} for a {m.kind}")
            self.v.h.mkind[i] = k
            self.v.h.mtile[i] = t
            self.v.h.mconc[i] = 1 if m.concealed else 0
        self.v.h.n_melds = len(melds)
        self.v.h.seat = seat_wind
        self.v.h.prevalent = prevalent_wind
        self.v.h.flowers = flowers
        self.v.min_fan = min_fan
        self.v.flowers_count = flowers_count

    @property
    def min_fan(self):
        return self.v.min_fan

    def __call__(self, const uint8_t[::1] before, int win, bint self_drawn=True):
        """:func:`verdict_c` of ``before`` (uint8 (34,), the concealed tiles before the
        win) completed by kind ``win``: 1, 0 or -1."""
        if before.shape[0] != NK:
            raise ValueError("before must have 34 entries")
        return verdict_c(&self.v, &before[0], win, self_drawn)


cdef int verdict_c(const Verdict* v, const uint8_t* before, int win,
                   int self_drawn) noexcept nogil:
    """1 when ``before`` + ``win`` with the verdict's melds and winds is a winning hand
    whose fans (those counting toward the minimum) reach ``v.min_fan``; 0 when it is
    below the minimum or not a winning hand; -1 when the kernel cannot judge it (a kind
    out of range, a fifth copy, a context the hand contradicts): ask the reference,
    which raises the right error."""
    cdef HandIn h = v.h
    cdef Result r
    cdef int st, i
    if win < 0 or win >= NK:
        return -1
    for i in range(NK):
        if before[i] > 4:
            return -1
        h.before[i] = before[i]
    h.win = win
    h.self_drawn = self_drawn
    st = score_core(v.tp, &h, &r)
    if st == ST_NOT_WINNING:
        return 0
    if st != ST_OK:
        return -1
    return 1 if (r.total if v.flowers_count else r.total_min) >= v.min_fan else 0

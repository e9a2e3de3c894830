# Part of fans.pyx (textually included: one compilation unit).  The Python-facing
# classes: FanTable (the data half of the kernel, built from a fan table) and
# KernelResult (the best reading, as plain ints).

# ---------------------------------------------------------------- Python side
cdef inline int fan_count(const Result* r, int fid) noexcept nogil:
    """Count of fan fid in a result (0 when not counted)."""
    return r.fans[fid] if (r.present[fid >> 6] >> (fid & 63)) & 1 else 0


cdef class FanTable:
    """The data half of the kernel: values, forms, 不计 lists … of one fan table.

    Built by :mod:`majiang.scoring` from a ruleset (``_kernel_table``); this
    module knows nothing of rulesets.

    Parameters
    ----------
    fans : sequence of tuples
        ``(id, value, forms, is_combination, excludes, reduces, minimum, fallback)``
        per fan: ``forms`` a tuple of form names or None (all), ``excludes`` ids,
        ``reduces`` ``((id, n), ...)``.
    forms : sequence of str
        The ruleset's winning forms.
    seven_pairs_quads : bool
    hand_size : int
    max_flowers : int
        Flowers of the tile set (more is an error the caller raises).
    """

    cdef Table t
    cdef readonly int max_flowers

    def __init__(self, fans, forms, bint seven_pairs_quads, int hand_size, int max_flowers=8):
        cdef int fid, x, i
        memset(&self.t, 0, sizeof(Table))
        allforms = (1 << len(FORMS)) - 1
        fallback = []
        for (fid, value, fforms, is_comb, excludes, reduces, minimum, is_fallback) in fans:
            if not 1 <= fid < NF:
                raise ValueError(f"fan id {fid} outside 1..{NF - 1}")
            if is_comb != (fid in COMBINATION_IDS) or (not is_comb and fid not in PREDICATE_IDS):
                raise ValueError(f"fan {fid}: no such {'combination' if is_comb else 'predicate'}"
                                 " in the kernel")
            self.t.value[fid] = value
            self.t.kind[fid] = FK_COMB if is_comb else FK_PRED
            self.t.forms[fid] = allforms if fforms is None else \
                sum(1 << FORMS.index(f) for f in set(fforms))
            ex = sorted(excludes)
            if len(ex) > MAXX:
                raise ValueError(f"fan {fid} excludes more than {MAXX} fans")
            self.t.n_excl[fid] = len(ex)
            for i, x in enumerate(ex):
                self.t.excl[fid][i] = x
            for x, n in reduces:
                if self.t.n_red >= MAXR:
                    raise ValueError("too many partial reductions")
                self.t.red_fid[self.t.n_red] = fid
                self.t.red_x[self.t.n_red] = x
                self.t.red_k[self.t.n_red] = n
                self.t.n_red += 1
            self.t.toward_min[fid] = bool(minimum)
            self.t.blocks_fallback[fid] = bool(minimum) and not is_fallback
            if is_fallback:
                fallback.append(fid)
        self.t.fallback = fallback[0] if fallback else 0
        cdef int f, k
        for f in range(len(FORMS)):
            for fid in range(1, NF):
                if not (self.t.forms[fid] & (1 << f)):
                    continue
                if self.t.kind[fid] == FK_PRED and not STATIC[fid]:
                    self.t.pred_ids[f][self.t.n_pred[f]] = fid
                    self.t.n_pred[f] += 1
                elif self.t.kind[fid] == FK_COMB:
                    self.t.comb_ids[f][self.t.n_comb[f]] = fid
                    self.t.n_comb[f] += 1
        for fid in range(1, NF):
            if STATIC[fid] and self.t.kind[fid] == FK_PRED:
                self.t.static_ids[self.t.n_static] = fid
                self.t.n_static += 1
                for f in range(len(FORMS)):
                    if self.t.forms[fid] & (1 << f):
                        self.t.static_form_mask[f][fid >> 6] |= (<u64>1) << (fid & 63)
        for fid in range(1, NF):
            for k in range(self.t.n_excl[fid]):
                x = self.t.excl[fid][k]
                self.t.excl_mask[fid][x >> 6] |= (<u64>1) << (x & 63)
            if self.t.blocks_fallback[fid]:
                self.t.block_mask[fid >> 6] |= (<u64>1) << (fid & 63)
        self.t.forms_enabled = sum(1 << FORMS.index(f) for f in set(forms))
        self.t.quads = seven_pairs_quads
        self.t.hand_size = hand_size
        self.max_flowers = max_flowers


cdef class KernelResult:
    """The best reading found by the kernel (plain ints; see :func:`score_hand`)."""

    cdef Result r
    cdef HandIn h
    cdef readonly int n_melds
    cdef readonly object hand
    """The hand scored (as passed to :func:`score_hand`)."""
    cdef readonly object ruleset
    """The ruleset object passed to :func:`score_hand`."""

    @property
    def win(self):
        return self.h.win

    @property
    def self_drawn(self):
        return bool(self.h.self_drawn)

    @property
    def kong(self):
        return bool(self.h.kong)

    @property
    def last_tile(self):
        return bool(self.h.last_tile)

    @property
    def seat_wind(self):
        return self.h.seat

    @property
    def prevalent_wind(self):
        return self.h.prevalent

    @property
    def flowers(self):
        """Flowers scored (those of the hand when it holds any)."""
        return self.h.flowers

    @property
    def total(self):
        return self.r.total

    @property
    def total_min(self):
        """Points of the fans that count toward the minimum."""
        return self.r.total_min

    @property
    def last_copy(self):
        return bool(self.r.last_copy)

    @property
    def form(self):
        return FORMS[self.r.best.form]

    @property
    def fan_counts(self):
        """``((fan id, count), ...)`` in id order."""
        cdef int fid
        cdef list out = []
        for fid in range(1, NF):
            if fan_count(&self.r, fid):
                out.append((fid, self.r.fans[fid]))
        return tuple(out)

    @property
    def fan_keys(self):
        """``(fan id * 256 + count, ...)`` in id order (cheap keys for the caller's caches)."""
        cdef int fid
        cdef list out = []
        for fid in range(1, NF):
            if fan_count(&self.r, fid):
                out.append(fid * 256 + self.r.fans[fid])
        return out

    @property
    def fan_vector(self):
        """Counts indexed by fan id (length :data:`N_FAN_IDS` = 83, index 0 unused), a
        uint8 array."""
        cdef int fid
        out = np.zeros(NF, dtype=np.uint8)
        cdef uint8_t[::1] v = out
        for fid in range(NF):
            v[fid] = fan_count(&self.r, fid)
        return out

    @property
    def pair(self):
        return None if self.r.best.pair < 0 else self.r.best.pair

    @property
    def pairs(self):
        cdef int i
        return tuple(self.r.best.pairs[i] for i in range(self.r.best.n_pairs))

    @property
    def knitted(self):
        cdef int i
        return tuple(self.r.best.knit[i] for i in range(self.r.best.n_knit))

    @property
    def concealed_sets(self):
        """The decomposition's concealed sets ``(("chow" | "pung", tile), ...)`` in core order."""
        cdef int i, n = self.n_melds
        return tuple((KINDS[self.r.best.skind[i]], self.r.best.stile[i])
                     for i in range(n, self.r.best.n_sets))

    @property
    def set_concealed(self):
        """Concealed flag of every set (melds first) in the chosen attribution."""
        cdef int i
        return tuple(bool(self.r.best.sconc[i]) for i in range(self.r.best.n_sets))

    @property
    def win_set(self):
        """Index of the set the win tile completed, -1 for the pair, None otherwise."""
        cdef int ws = self.r.best.win_set
        return None if ws == WS_NONE else ws

    @property
    def win_position(self):
        return POSITIONS[self.r.best.pos]

    @property
    def unique_wait(self):
        return bool(self.r.best.uw)


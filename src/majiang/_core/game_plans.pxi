# Part of game.pyx (included): the expert's plan distances (majiang.game.expert_plans)
# in one call — every plan of a ruleset for one hand (plan_values), or the least value
# over some plans for each candidate discard (plan_minima).  The rules of each plan's
# distance are stated in majiang.game.expert_plans and tests/test_expert.py holds them
# written out tile by tile (the reference these kernels are tested against).

cdef enum:
    PLAN_SUIT = 0       # one-suit plans: the shanten with the kinds outside the plan unusable
    PLAN_GATES = 1      # 五门齐: a group from each of the five gates
    PLAN_FORM = 2       # a whole-hand form (十三幺): the shanten in that form alone
    PLAN_DRAGONS = 3    # 大三元: a pung of each dragon, one more set and a pair
    PLAN_PAIRS = 4      # seven pairs
    PLAN_PUNGS = 5      # four pungs and a pair
    PLAN_CHOWS = 6      # three fixed chows, one more set and a pair
    PLAN_MAX = 96
    PLAN_DEAD = 99      # a distance of 99 or more: the plan cannot be reached
    PLAN_MELDS = 8

_PLAN_KINDS = {"suit": PLAN_SUIT, "gates": PLAN_GATES, "form": PLAN_FORM,
               "dragons": PLAN_DRAGONS, "pairs": PLAN_PAIRS, "pungs": PLAN_PUNGS,
               "chows": PLAN_CHOWS}
_MELD_CODES = {"chow": 0, "pung": 1, "kong": 2}

cdef struct PlanMelds:
    int n
    int kind[PLAN_MELDS]      # 0 chow, 1 pung, 2 kong
    int tile[PLAN_MELDS]      # the meld's kind (a chow: its lowest)


cdef class PlanSet:
    """The plans of a ruleset in compiled form, in the order given.

    ``plans``: a sequence of ``(kind, data, weight)``: ``"suit"`` with ``data`` the
    kinds of the plan (bool (34,)), ``"form"`` with a forms mask (int), ``"chows"``
    with the lowest kinds of three chows, ``"dragons"`` with three kinds, ``"pairs"``
    with whether a four counts two pairs, ``"gates"`` / ``"pungs"`` with None;
    ``weight`` (float) is added to the plan's distance.  ValueError on anything else
    or more than 96 plans.
    """

    cdef int n
    cdef int kind[PLAN_MAX]
    cdef uint8_t caps[PLAN_MAX][34]
    cdef int arg[PLAN_MAX][3]
    cdef int form[PLAN_MAX]
    cdef double weight[PLAN_MAX]

    def __init__(self, plans):
        cdef int i, k
        plans = list(plans)
        if len(plans) > PLAN_MAX:
            raise ValueError(f"at most {PLAN_MAX} plans")
        self.n = 0
        for i, (kind, data, weight) in enumerate(plans):
            code = _PLAN_KINDS.get(kind)
            if code is None:
                raise ValueError(f"unknown plan kind {kind!r}")
            self.kind[i] = code
            self.weight[i] = float(weight)
            self.form[i] = 0
            for k in range(34):
                self.caps[i][k] = 0
            for k in range(3):
                self.arg[i][k] = 0
            if code == PLAN_SUIT:
                if len(data) != 34:
                    raise ValueError("a suit plan's kinds must have 34 entries")
                for k in range(34):
                    self.caps[i][k] = 4 if data[k] else 0
            elif code == PLAN_FORM:
                self.form[i] = int(data)
            elif code == PLAN_PAIRS:
                self.form[i] = 1 if data else 0
            elif code == PLAN_CHOWS or code == PLAN_DRAGONS:
                if len(data) != 3:
                    raise ValueError("a chows or dragons plan names three kinds")
                for k in range(3):
                    a = int(data[k])
                    if code == PLAN_CHOWS and not (0 <= a < 27 and a % 9 <= 6):
                        raise ValueError(f"{a} is not the lowest tile of a chow")
                    if not 0 <= a < 34:
                        raise ValueError(f"{a} is not a tile kind")
                    self.arg[i][k] = a
            self.n = i + 1

    def __len__(self):
        return self.n


cdef int read_plan_melds(object melds, PlanMelds* out) except -1:
    """The kinds and tiles of ``melds`` (objects with ``kind`` and ``tile``)."""
    cdef int t
    out.n = 0
    for m in melds:
        if out.n >= PLAN_MELDS:
            raise ValueError(f"at most {PLAN_MELDS} melds")
        code = _MELD_CODES.get(m.kind)
        if code is None:
            raise ValueError(f"unknown meld kind {m.kind!r}")
        t = int(m.tile)
        if not 0 <= t < 34:
            raise ValueError(f"{t} is not a tile kind")
        out.kind[out.n] = code
        out.tile[out.n] = t
        out.n += 1
    return 0


cdef int chow_dist_c(const uint8_t* c, const int64_t* avail, const int* left, int n_left,
                     int other, int n_melds) noexcept:
    """:func:`chow_plan_distance` on C arrays (-1: dead)."""
    cdef int need[34]
    cdef int rest[34]
    cdef int k, u, used = 0
    for k in range(34):
        need[k] = 0
    for k in range(n_left):
        need[left[k]] += 1
        need[left[k] + 1] += 1
        need[left[k] + 2] += 1
    for k in range(34):
        u = c[k] if c[k] < need[k] else need[k]
        if need[k] - u > <int>avail[k] - <int>c[k]:
            return -1
        rest[k] = c[k] - u
        used += u
    return 3 * (4 - n_melds) + 2 - used - rest_prog_c(rest, other == 0) - 1


cdef int gates_dist_c(const uint8_t* c, const PlanMelds* m) noexcept:
    """五门齐: per gate (万, 筒, 条, winds, dragons) not melded, the most tiles toward a set
    (3 a pung or chow, 2 a pair or a two-tile piece, 1 a tile) and toward a pair; the
    least over the gate giving the pair of what the others lack."""
    cdef int lo[5]
    cdef int hi[5]
    cdef int done[5]
    cdef int sets[5]
    cdef int pairs[5]
    cdef int g, q, i, n, sp, pp, p, r, need, best = -1, any_set = 0
    cdef bint n0, n1
    lo[:] = [0, 9, 18, 27, 31]
    hi[:] = [9, 18, 27, 31, 34]
    for g in range(5):
        done[g] = 0
    for q in range(m.n):
        for g in range(5):
            if lo[g] <= m.tile[q] < hi[g]:
                if done[g]:
                    return PLAN_DEAD
                done[g] = 1
                break
    for g in range(5):
        if done[g]:
            continue
        any_set = 1
        sp = pp = 0
        for i in range(hi[g] - lo[g]):
            n = c[lo[g] + i]
            if not n:
                continue
            pp = max(pp, 2 if n >= 2 else 1)
            sp = max(sp, 3 if n >= 3 else (2 if n == 2 else 1))
            if g < 3:
                n0 = i + 1 < 9 and c[lo[g] + i + 1] != 0
                n1 = i + 2 < 9 and c[lo[g] + i + 2] != 0
                if n0 and n1:
                    sp = 3
                elif n0 or n1:
                    sp = max(sp, 2)
        sets[g] = sp
        pairs[g] = pp
    if not any_set:
        return PLAN_DEAD
    for p in range(5):
        if done[p]:
            continue
        need = 2 - pairs[p]
        for r in range(5):
            if r != p and not done[r]:
                need += 3 - sets[r]
        if best < 0 or need < best:
            best = need
    return best - 1


cdef int pung_dist_c(const uint8_t* c, int n_melds) noexcept:
    """Four pungs and a pair: ``2 need - 2 pungs - pairs kept - eyes``."""
    cdef int need = 4 - n_melds, trips = 0, pairs = 0, k, mm, e, t
    for k in range(34):
        if c[k] >= 3:
            trips += 1
        elif c[k] == 2:
            pairs += 1
    mm = trips if trips < need else need
    pairs += trips - mm
    e = 1 if pairs else 0
    t = pairs - e if pairs - e < need - mm else need - mm
    return 2 * need - 2 * mm - t - e


cdef int pairs_dist_c(const uint8_t* c, bint quads) noexcept:
    """Seven pairs: ``6 - pairs`` (a four two pairs with ``quads``), else also one pair
    per missing kind."""
    cdef int k, pairs = 0, kinds = 0
    if quads:
        for k in range(34):
            pairs += c[k] // 2
        return 6 - pairs
    for k in range(34):
        pairs += c[k] >= 2
        kinds += c[k] >= 1
    return 6 - pairs + (7 - kinds if kinds < 7 else 0)


cdef int dragons_dist_c(const uint8_t* c, const PlanMelds* m, const int* dragons,
                        const int64_t* avail) noexcept:
    """大三元: a pung (or kong) of each dragon, one more set and a pair."""
    cdef int need[3]
    cdef int rest[34]
    cdef int q, i, other = 0, used = 0, have, d
    cdef bint hit
    for i in range(3):
        need[i] = 1
    for q in range(m.n):
        hit = 0
        if m.kind[q] != 0:
            for i in range(3):
                if need[i] and dragons[i] == m.tile[q]:
                    need[i] = 0
                    hit = 1
                    break
        if not hit:
            other += 1
    if other > 1:
        return PLAN_DEAD
    for i in range(34):
        rest[i] = c[i]
    for i in range(3):
        if not need[i]:
            continue
        d = dragons[i]
        have = rest[d] if rest[d] < 3 else 3
        if 3 - have > <int>avail[d] - rest[d]:
            return PLAN_DEAD
        used += have
        rest[d] -= have
    return 3 * (4 - m.n) + 2 - used - rest_prog_c(rest, other == 0) - 1


cdef int plan_dist_c(PlanSet ps, int i, const uint8_t* c, ShapeOpts so, const PlanMelds* m,
                     const int64_t* avail) noexcept:
    """The distance of plan ``i`` (shanten convention; PLAN_DEAD or more: dead)."""
    cdef int code = ps.kind[i], q, d, other = 0, n_left = 3
    cdef int left[3]
    cdef Opts o
    if code == PLAN_SUIT:
        for q in range(m.n):
            if not ps.caps[i][m.tile[q]]:
                return PLAN_DEAD
        o = make_opts_c(so.mask, so.quads, ps.caps[i], 0, so.fifth, so.pair_mask,
                        so.void_suits)
        return shanten_opts_c(c, &o)
    if code == PLAN_GATES:
        return gates_dist_c(c, m)
    if code == PLAN_FORM:
        if m.n:
            return PLAN_DEAD
        o = make_opts_c(ps.form[i], so.quads, NULL, 0, so.fifth, so.pair_mask,
                        so.void_suits)
        return shanten_opts_c(c, &o)
    if code == PLAN_DRAGONS:
        return dragons_dist_c(c, m, ps.arg[i], avail)
    if code == PLAN_PAIRS:
        if m.n:
            return PLAN_DEAD
        return pairs_dist_c(c, ps.form[i] != 0)
    if code == PLAN_PUNGS:
        for q in range(m.n):
            if m.kind[q] == 0:
                return PLAN_DEAD
        return pung_dist_c(c, m.n)
    # PLAN_CHOWS: the melded chows of the plan leave it; another chow kills it
    for q in range(3):
        left[q] = ps.arg[i][q]
    for q in range(m.n):
        if m.kind[q] == 0:
            for d in range(n_left):
                if left[d] == m.tile[q]:
                    left[d] = left[n_left - 1]     # (order does not matter: counts)
                    n_left -= 1
                    break
            else:
                return PLAN_DEAD
        else:
            other += 1
    if other > 1:
        return PLAN_DEAD
    d = chow_dist_c(c, avail, left, n_left, other, m.n)
    return PLAN_DEAD if d < 0 else d


cdef int check_plan_hand(const uint8_t[::1] counts, const int64_t[::1] avail,
                         uint8_t* h) except -1:
    cdef int k
    if counts.shape[0] != 34 or avail.shape[0] != 34:
        raise ValueError("counts and avail must have 34 entries")
    for k in range(34):
        if counts[k] > 4:
            raise ValueError("a kind held more than 4 times")
        h[k] = counts[k]
    return 0


def plan_values(PlanSet ps, const uint8_t[::1] counts, ShapeOpts so, int jokers,
                object melds, const int64_t[::1] avail, double[::1] out):
    """Every plan's value for the hand ``counts`` (uint8 (34,), each 0..4; + ``jokers``)
    with ``melds`` (objects with ``kind`` "chow" / "pung" / "kong" and ``tile``):
    ``out[i]`` (float64, at least ``len(ps)`` entries) = plan ``i``'s distance + weight,
    ``inf`` when it cannot be reached (a distance of 99 or more, or any plan while jokers
    are held); ``avail`` (int64 (34,)): copies of each kind not seen outside the own
    hand.  Returns the hand's shanten under ``so`` (the general plan).  ValueError on a
    wrong length or count."""
    cdef uint8_t h[34]
    cdef PlanMelds m
    cdef Opts o = so.opts(jokers)
    cdef int i, d
    check_plan_hand(counts, avail, h)
    if out.shape[0] < ps.n:
        raise ValueError("out must have an entry per plan")
    read_plan_melds(melds, &m)
    for i in range(ps.n):
        if jokers:
            out[i] = INFINITY
            continue
        d = plan_dist_c(ps, i, h, so, &m, &avail[0])
        out[i] = INFINITY if d >= PLAN_DEAD else <double>d + ps.weight[i]
    return shanten_opts_c(h, &o)


def plan_minima(PlanSet ps, const uint8_t[::1] counts, ShapeOpts so, int jokers,
                double general_weight, object melds, const int64_t[::1] avail,
                const int64_t[::1] plans, const int64_t[::1] discards, double[::1] out):
    """For each kind ``x = discards[q]`` (held in ``counts``): ``out[q]`` = the least
    value after discarding ``x`` over the general plan (the shanten under ``so`` +
    ``general_weight``) and the plans of index ``plans`` (their values as
    :func:`plan_values`; none while jokers are held).  Arguments otherwise as
    :func:`plan_values`.  ValueError on a wrong length, count, index or discard."""
    cdef uint8_t h[34]
    cdef PlanMelds m
    cdef Opts o = so.opts(jokers)
    cdef int q, i, x, d
    cdef double best, v
    check_plan_hand(counts, avail, h)
    if out.shape[0] < discards.shape[0]:
        raise ValueError("out must have an entry per discard")
    for i in range(plans.shape[0]):
        if not 0 <= plans[i] < ps.n:
            raise ValueError(f"no plan {plans[i]}")
    for q in range(discards.shape[0]):
        if not 0 <= discards[q] < 34 or not h[discards[q]]:
            raise ValueError(f"kind {discards[q]} is not held")
    read_plan_melds(melds, &m)
    for q in range(discards.shape[0]):
        x = <int>discards[q]
        h[x] -= 1
        best = <double>shanten_opts_c(h, &o) + general_weight
        if not jokers:
            for i in range(plans.shape[0]):
                d = plan_dist_c(ps, <int>plans[i], h, so, &m, &avail[0])
                if d < PLAN_DEAD:
                    v = <double>d + ps.weight[plans[i]]
                    if v < best:
                        best = v
        h[x] += 1
        out[q] = best
    return None


def evaluate_discards(const uint8_t[::1] counts, ShapeOpts so, int jokers,
                      const uint8_t[::1] visible, const uint8_t[::1] allowed,
                      int64_t[::1] out_s, int64_t[::1] out_u, bint ukeire=True):
    """:func:`evaluate` of the hand after each discard: for each kind ``k`` held in
    ``counts`` (uint8 (34,), each 0..4) with ``allowed[k]`` set, ``out_s[k]`` and
    ``out_u[k]`` (int64 (34,)) = the shanten and live ukeire of ``counts`` less one
    ``k`` (without ``ukeire``: the shanten alone, ``out_u[k] = -1``); ``out_s[k] = -2``
    for the other kinds.  Returns the number of discards evaluated.  ValueError on a
    wrong length or count."""
    cdef uint8_t h[34]
    cdef Opts o = so.opts(jokers)
    cdef int k, s, u, n = 0
    if (counts.shape[0] != 34 or visible.shape[0] != 34 or allowed.shape[0] != 34
            or out_s.shape[0] != 34 or out_u.shape[0] != 34):
        raise ValueError("counts, visible, allowed and the outputs must have 34 entries")
    for k in range(34):
        if counts[k] > 4:
            raise ValueError("a kind held more than 4 times")
        h[k] = counts[k]
    with nogil:
        for k in range(34):
            out_s[k] = -2
            out_u[k] = 0
            if not (h[k] and allowed[k]):
                continue
            h[k] -= 1
            if ukeire:
                eval_c(h, &o, so.live, &visible[0], &s, &u)
            else:
                s = shanten_opts_c(h, &o)      # (eval_c's shanten: the same number)
                u = -1
            h[k] += 1
            out_s[k] = s
            out_u[k] = u
            n += 1
    return n

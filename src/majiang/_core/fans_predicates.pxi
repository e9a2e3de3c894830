# Part of fans.pyx (textually included: one compilation unit, so the predicates
# inline into the walk).  The fan predicates, one function per fan id, and which
# of them read only per-hand facts (evaluated once per hand).

# ---------------------------------------------------------------- predicates (fan id)
cdef inline int fan_01_big_four_winds(const W* w) noexcept nogil:
    return w.wind == 4

cdef inline int fan_02_big_three_dragons(const W* w) noexcept nogil:
    return w.drag == 3

cdef inline int fan_03_all_green(const W* w) noexcept nogil:
    return w.green

cdef inline int fan_04_nine_gates(const W* w) noexcept nogil:
    return w.nine_gates

cdef inline int fan_05_four_kongs(const W* w) noexcept nogil:
    return w.mk + w.ck == 4

cdef inline int fan_06_seven_shifted_pairs(const W* w) noexcept nogil:
    cdef int i
    cdef const int* p = w.pairs
    if not (p[0] < 27 and p[6] == p[0] + 6 and p[0] // 9 == p[6] // 9):
        return 0
    for i in range(6):
        if p[i + 1] != p[i] + 1:
            return 0
    return 1

cdef inline int fan_07_thirteen_orphans(const W* w) noexcept nogil:
    return 1

cdef inline int fan_08_all_terminals(const W* w) noexcept nogil:
    return w.term

cdef inline int fan_09_little_four_winds(const W* w) noexcept nogil:
    return w.wind == 3 and 27 <= w.pair <= 30

cdef inline int fan_10_little_three_dragons(const W* w) noexcept nogil:
    return w.drag == 2 and w.pair >= 31

cdef inline int fan_11_all_honors(const W* w) noexcept nogil:
    return w.honors_only

cdef inline int fan_12_four_concealed_pungs(const W* w) noexcept nogil:
    return w.cp == 4

cdef inline int fan_13_pure_terminal_chows(const W* w) noexcept nogil:
    cdef int p = w.pair, b
    if w.nch != 4 or p >= 27 or p % 9 != 4:
        return 0
    b = p - 4
    return (w.chows[0] == b and w.chows[1] == b and w.chows[2] == b + 6
            and w.chows[3] == b + 6)

cdef inline int fan_17_three_kongs(const W* w) noexcept nogil:
    return w.mk + w.ck == 3

cdef inline int fan_18_all_terminals_and_honors(const W* w) noexcept nogil:
    return w.termhonor

cdef inline int fan_19_seven_pairs(const W* w) noexcept nogil:
    return 1

cdef inline int fan_20_greater_honors_knitted(const W* w) noexcept nogil:
    return w.n_knit == 7

cdef inline int fan_21_all_even_pungs(const W* w) noexcept nogil:
    cdef int i, t
    if w.nch or w.pair >= 27 or (w.pair % 9) % 2 == 0:
        return 0
    for i in range(w.npg):
        t = w.pungs[i]
        if not (t < 27 and (t % 9) % 2 == 1):
            return 0
    return 1

cdef inline int fan_22_full_flush(const W* w) noexcept nogil:
    return w.mask == 1 or w.mask == 2 or w.mask == 4

cdef inline int rank_range(const W* w, int lo, int hi) noexcept nogil:
    return (not w.has_honor) and lo <= w.rlo and w.rhi <= hi

cdef inline int fan_25_upper_tiles(const W* w) noexcept nogil:
    return rank_range(w, 7, 9)

cdef inline int fan_26_middle_tiles(const W* w) noexcept nogil:
    return rank_range(w, 4, 6)

cdef inline int fan_27_lower_tiles(const W* w) noexcept nogil:
    return rank_range(w, 1, 3)

cdef inline int fan_29_three_suited_terminal_chows(const W* w) noexcept nogil:
    cdef int p = w.pair, s, k = 0
    cdef int want[4]
    if w.nch != 4 or p >= 27 or p % 9 != 4:
        return 0
    for s in range(3):
        if s != p // 9:
            want[k] = 9 * s
            want[k + 1] = 9 * s + 6
            k += 2
    return (w.chows[0] == want[0] and w.chows[1] == want[1] and w.chows[2] == want[2]
            and w.chows[3] == want[3])

cdef inline int fan_31_all_fives(const W* w) noexcept nogil:
    cdef int i, t, p = w.pair
    if p >= 27 or p % 9 != 4:
        return 0
    for i in range(w.nch):
        t = w.chows[i]
        if not (t < 27 and 2 <= t % 9 <= 4):
            return 0
    for i in range(w.npg):
        t = w.pungs[i]
        if not (t < 27 and t % 9 == 4):
            return 0
    return 1

cdef inline int fan_33_three_concealed_pungs(const W* w) noexcept nogil:
    return w.cp == 3

cdef inline int fan_34_lesser_honors_knitted(const W* w) noexcept nogil:
    return 1

cdef inline int fan_35_knitted_straight(const W* w) noexcept nogil:
    return w.form == F_KS or w.n_knit == 9

cdef inline int fan_36_upper_four(const W* w) noexcept nogil:
    return rank_range(w, 6, 9)

cdef inline int fan_37_lower_four(const W* w) noexcept nogil:
    return rank_range(w, 1, 4)

cdef inline int fan_38_big_three_winds(const W* w) noexcept nogil:
    return w.wind == 3

cdef inline int fan_40_reversible_tiles(const W* w) noexcept nogil:
    return w.reversible

cdef inline int fan_43_chicken_hand(const W* w) noexcept nogil:
    return 0            # the fallback fan, added by the engine

cdef inline int fan_44_last_tile_draw(const W* w) noexcept nogil:
    return w.last_tile and w.self_drawn

cdef inline int fan_45_last_tile_claim(const W* w) noexcept nogil:
    return w.last_tile and not w.self_drawn

cdef inline int fan_46_out_with_replacement_tile(const W* w) noexcept nogil:
    return w.kong and w.self_drawn

cdef inline int fan_47_robbing_the_kong(const W* w) noexcept nogil:
    return w.kong and not w.self_drawn

cdef inline int fan_48_all_pungs(const W* w) noexcept nogil:
    return w.npg == 4

cdef inline int fan_49_half_flush(const W* w) noexcept nogil:
    cdef int m = w.mask
    return (m & 24) != 0 and ((m & 7) == 1 or (m & 7) == 2 or (m & 7) == 4)

cdef inline int fan_51_all_types(const W* w) noexcept nogil:
    return w.mask == 31

cdef inline int fan_52_melded_hand(const W* w) noexcept nogil:
    return w.n_exposed == 4 and not w.self_drawn

cdef inline int fan_53_two_concealed_kongs(const W* w) noexcept nogil:
    return w.ck == 2

cdef inline int fan_54_two_dragon_pungs(const W* w) noexcept nogil:
    return w.drag == 2

cdef inline int fan_55_outside_hand(const W* w) noexcept nogil:
    cdef int i, t
    if not is_term_honor(w.pair):
        return 0
    for i in range(w.nch):
        t = w.chows[i] % 9
        if t != 0 and t != 6:
            return 0
    for i in range(w.npg):
        if not is_term_honor(w.pungs[i]):
            return 0
    return 1

cdef inline int fan_56_fully_concealed_hand(const W* w) noexcept nogil:
    return w.n_exposed == 0 and w.self_drawn

cdef inline int fan_57_two_melded_kongs(const W* w) noexcept nogil:
    return w.mk == 2

cdef inline int fan_58_last_tile(const W* w) noexcept nogil:
    return w.last_copy

cdef inline int fan_59_dragon_pung(const W* w) noexcept nogil:
    return w.drag

cdef inline int has_pung(const W* w, int t) noexcept nogil:
    cdef int i
    for i in range(w.npg):
        if w.pungs[i] == t:
            return 1
    return 0

cdef inline int fan_60_prevalent_wind(const W* w) noexcept nogil:
    return has_pung(w, 27 + w.prevalent)

cdef inline int fan_61_seat_wind(const W* w) noexcept nogil:
    return has_pung(w, 27 + w.seat)

cdef inline int fan_62_concealed_hand(const W* w) noexcept nogil:
    return w.n_exposed == 0 and not w.self_drawn

cdef inline int fan_63_all_chows(const W* w) noexcept nogil:
    return w.npg == 0 and w.pair >= 0 and w.pair < 27

cdef inline int fan_64_tile_hog(const W* w) noexcept nogil:
    cdef int n = w.n4 - w.mk - w.ck
    return n if n > 0 else 0

cdef inline int fan_66_two_concealed_pungs(const W* w) noexcept nogil:
    return w.cp == 2

cdef inline int fan_67_concealed_kong(const W* w) noexcept nogil:
    return w.ck == 1

cdef inline int fan_68_all_simples(const W* w) noexcept nogil:
    return w.simples

cdef inline int fan_73_pung_of_terminals_or_honors(const W* w) noexcept nogil:
    cdef int i, t, n = 0
    for i in range(w.npg):
        if is_terminal(w.pungs[i]):
            n += 1
    if w.wind < 3:
        for i in range(w.npg):
            t = w.pungs[i]
            if 27 <= t <= 30 and t != 27 + w.seat and t != 27 + w.prevalent:
                n += 1
    return n

cdef inline int fan_74_melded_kong(const W* w) noexcept nogil:
    return w.mk == 1

cdef inline int fan_75_one_voided_suit(const W* w) noexcept nogil:
    cdef int m = w.mask & 7
    return m == 3 or m == 5 or m == 6

cdef inline int fan_76_no_honors(const W* w) noexcept nogil:
    return (w.mask & 24) == 0

cdef inline int fan_77_edge_wait(const W* w) noexcept nogil:
    return w.uw and w.pos == P_EDGE

cdef inline int fan_78_closed_wait(const W* w) noexcept nogil:
    return w.uw and w.pos == P_CLOSED

cdef inline int fan_79_single_wait(const W* w) noexcept nogil:
    return w.uw and w.pos == P_PAIR

cdef inline int fan_80_self_drawn(const W* w) noexcept nogil:
    return w.self_drawn

cdef inline int fan_81_flower_tiles(const W* w) noexcept nogil:
    return w.flowers

cdef inline int fan_82_concealed_and_melded_kong(const W* w) noexcept nogil:
    # 明暗杠 (not among the 81; ruleset option concealed_and_melded_kong)
    return w.ck == 1 and w.mk == 1


cdef inline void static_values(const W* w, int* v) noexcept nogil:
    """Values of the predicates that read only per-hand facts (v indexed by fan id)."""
    v[3] = fan_03_all_green(w)
    v[4] = fan_04_nine_gates(w)
    v[5] = fan_05_four_kongs(w)
    v[7] = fan_07_thirteen_orphans(w)
    v[8] = fan_08_all_terminals(w)
    v[11] = fan_11_all_honors(w)
    v[17] = fan_17_three_kongs(w)
    v[18] = fan_18_all_terminals_and_honors(w)
    v[19] = fan_19_seven_pairs(w)
    v[22] = fan_22_full_flush(w)
    v[25] = fan_25_upper_tiles(w)
    v[26] = fan_26_middle_tiles(w)
    v[27] = fan_27_lower_tiles(w)
    v[34] = fan_34_lesser_honors_knitted(w)
    v[36] = fan_36_upper_four(w)
    v[37] = fan_37_lower_four(w)
    v[40] = fan_40_reversible_tiles(w)
    v[43] = fan_43_chicken_hand(w)
    v[44] = fan_44_last_tile_draw(w)
    v[45] = fan_45_last_tile_claim(w)
    v[46] = fan_46_out_with_replacement_tile(w)
    v[47] = fan_47_robbing_the_kong(w)
    v[49] = fan_49_half_flush(w)
    v[51] = fan_51_all_types(w)
    v[52] = fan_52_melded_hand(w)
    v[53] = fan_53_two_concealed_kongs(w)
    v[56] = fan_56_fully_concealed_hand(w)
    v[57] = fan_57_two_melded_kongs(w)
    v[58] = fan_58_last_tile(w)
    v[62] = fan_62_concealed_hand(w)
    v[64] = fan_64_tile_hog(w)
    v[67] = fan_67_concealed_kong(w)
    v[68] = fan_68_all_simples(w)
    v[74] = fan_74_melded_kong(w)
    v[75] = fan_75_one_voided_suit(w)
    v[76] = fan_76_no_honors(w)
    v[80] = fan_80_self_drawn(w)
    v[81] = fan_81_flower_tiles(w)
    v[82] = fan_82_concealed_and_melded_kong(w)


cdef inline void dynamic_values(const W* w, int* v) noexcept nogil:
    """Values of the predicates that read the reading (v indexed by fan id)."""
    v[1] = fan_01_big_four_winds(w)
    v[2] = fan_02_big_three_dragons(w)
    v[6] = fan_06_seven_shifted_pairs(w) if w.form == F_SP else 0
    v[9] = fan_09_little_four_winds(w)
    v[10] = fan_10_little_three_dragons(w)
    v[12] = fan_12_four_concealed_pungs(w)
    v[13] = fan_13_pure_terminal_chows(w)
    v[20] = fan_20_greater_honors_knitted(w)
    v[21] = fan_21_all_even_pungs(w)
    v[29] = fan_29_three_suited_terminal_chows(w)
    v[31] = fan_31_all_fives(w)
    v[33] = fan_33_three_concealed_pungs(w)
    v[35] = fan_35_knitted_straight(w)
    v[38] = fan_38_big_three_winds(w)
    v[48] = fan_48_all_pungs(w)
    v[54] = fan_54_two_dragon_pungs(w)
    v[55] = fan_55_outside_hand(w)
    v[59] = fan_59_dragon_pung(w)
    v[60] = fan_60_prevalent_wind(w)
    v[61] = fan_61_seat_wind(w)
    v[63] = fan_63_all_chows(w)
    v[66] = fan_66_two_concealed_pungs(w)
    v[73] = fan_73_pung_of_terminals_or_honors(w)
    v[77] = fan_77_edge_wait(w)
    v[78] = fan_78_closed_wait(w)
    v[79] = fan_79_single_wait(w)


STATIC_IDS = frozenset((3, 4, 5, 7, 8, 11, 17, 18, 19, 22, 25, 26, 27, 34, 36, 37, 40, 43, 44, 45, 46, 47, 49, 51, 52, 53, 56, 57, 58, 62, 64, 67, 68, 74, 75, 76, 80, 81, 82))
DYNAMIC_IDS = frozenset((1, 2, 6, 9, 10, 12, 13, 20, 21, 29, 31, 33, 35, 38, 48, 54, 55, 59, 60, 61, 63, 66, 73, 77, 78, 79))


# Predicates that read only per-hand facts (tiles, melds, context), never the reading,
# are evaluated once per hand.  (Kongs are always melds, so the kong counts are per hand.)
cdef uint8_t STATIC[NF]
memset(STATIC, 0, sizeof(STATIC))
for _fid in STATIC_IDS:
    STATIC[_fid] = 1
assert STATIC_IDS | DYNAMIC_IDS == PREDICATE_IDS and not STATIC_IDS & DYNAMIC_IDS


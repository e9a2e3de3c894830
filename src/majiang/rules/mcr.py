"""Chinese Official rules (国标麻将, Mahjong Competition Rules, MCR) as a :class:`Ruleset`.

Sources: the fan table (ids 1..81 in the standard order, names, values and the
不计 lists) follows ENC as summarised in docs/rules/mcr.md §2; where ENC says
nothing, standard MCR practice (the 1998 rules as commonly applied, marked
[std] below) fills the gap.  Definitions are one small predicate each over a
:class:`majiang.winning.WinningHand`; patterns built from several sets (一般高,
三同刻 …) are *combinations* whose counting follows the 套算一次 / 不得相同
principles applied by :mod:`majiang.scoring`.

Readings chosen where the texts are silent or disagree (each is tested in
``tests/test_scoring.py``):

* Tile-composition fans (字一色, 清幺九, 混幺九, 绿一色, 断幺, 清一色 …) are judged on
  the tiles, so they also apply to seven pairs (七对 + 字一色 is 88); ENC words
  some of them with pungs only because that is the usual case.
* Three wind pungs score 三风刻 and are not also 幺九刻; a pung of the seat or
  prevalent wind scores 门风刻 / 圈风刻 and is not also 幺九刻 (不重复: one set, one
  identity fan).  Dragon pungs score 箭刻, never 幺九刻.
* 九莲宝灯 (concealed 1112345678999 waiting on any tile of the suit) does not
  count 清一色, 门前清 / 不求人 (自摸 still counts), 缺一门, 无字, and one of its
  幺九刻 [std].
* 四暗刻 does not count 门前清 / 不求人 (自摸 still counts) [std]; the special forms
  七对 / 连七对 / 十三幺 / 全不靠 / 七星不靠 do not count 门前清 / 不求人 / 单钓将.
* One concealed kong and one melded kong: build option
  ``concealed_and_melded_kong`` (明暗杠), see below.  Default on: 明暗杠, 5 fan.
* 平和 also applies to 组合龙 + chow + suited pair (the knitted straight stands
  for three chows) [std].
* 边张 / 坎张 / 单钓将 need a single waiting tile kind (独听, ENC: "单和123的3");
  a win tile inside the 9 knitted tiles of 组合龙 scores none of them, since
  those tiles form no chow or pair (the texts define the waits on chows and the
  pair only).
* 天和 / 地和 / 人和 are not among the 81 fans (ENC's table, docs/rules/mcr.md §2): the
  game engine passes the first-turn flag (:attr:`majiang.winning.WinContext.first_turn`)
  as under every ruleset, and these rules score nothing for it; a house ruleset that
  wants them adds a fan on ``rules.fans.heavenly`` / ``earthly_or_human``.

Option ``concealed_and_melded_kong`` (明暗杠, "Concealed Kong and Melded Kong")
--------------------------------------------------------------------------
A hand with exactly two kongs, one concealed (暗杠) and one melded (明杠, an
exposed or an added kong), is scored in two ways:

* ``True`` (default): the non-standard fan 明暗杠, 5 fan (fan id 82, outside the
  81), which does not count 暗杠 and 明杠 (不计).  Its concealed kong is still a
  concealed pung for 双暗刻 / 三暗刻, as for any concealed kong.  This is what
  Botzone's judge scores (the fan library behind PyMahjongGB, which wrote the
  shipped Botzone records of :mod:`majiang.records`) and what the most used
  Chinese Official calculators score; checked by experiment against PyMahjongGB
  (``tests/test_mcr.py``), e.g. ``23m789s11z [5555z] {6666m}`` on 1m:
  箭刻 2 + 缺一门 1 + 明暗杠 5 = 8.
* ``False``: the 81 fans of the rules (ENC, docs/rules/mcr.md §2), which have no such
  fan: the hand scores 暗杠 (2) + 明杠 (1), 3 fan, so the example above is 6 fan
  and below the minimum.  ``build(concealed_and_melded_kong=False)`` is that
  reading; its fan table is exactly the 81 fans.

Two concealed kongs stay 双暗杠 and two melded kongs 双明杠 under both readings;
three or four kongs score 三杠 / 四杠, never 明暗杠.
"""
from __future__ import annotations

from itertools import combinations

from ..winning import WinningHand
from .base import Fan, Ruleset, check_bool
from .table_rules import DealerRule

__all__ = ["MCR", "MCR_OFFICIAL", "FAN_IDS", "CONCEALED_AND_MELDED_KONG", "build",
           "settle_mcr"]

# ---------------------------------------------------------------- tile sets
_TERMINALS = frozenset((0, 8, 9, 17, 18, 26))
_TERM_HONOR = _TERMINALS | frozenset(range(27, 34))
_GREEN = frozenset((19, 20, 21, 23, 25, 32))            # 23468s + 发
_REVERSIBLE = frozenset((9, 10, 11, 12, 13, 16, 17,      # 1234589p
                         19, 21, 22, 23, 25, 26,         # 245689s
                         31))                             # 白
_WINDS = range(27, 31)
_DRAGONS = range(31, 34)

_ALL = None
_SETS = frozenset(("regular", "knitted_straight"))       # forms with sets (pungs, chows)
_REG = frozenset(("regular",))
_TILES = frozenset(("regular", "seven_pairs", "knitted_straight"))   # composition fans
_SP = frozenset(("seven_pairs",))


# ---------------------------------------------------------------- tile-level helpers
def _mask(w: WinningHand) -> int:
    """Bits of the tile types present: 1 m, 2 p, 4 s, 8 wind, 16 dragon."""
    c = w._cache
    m = c.get("mask")
    if m is None:
        m = 0
        for t in w.kinds:
            m |= 1 << (t // 9 if t < 27 else (3 if t < 31 else 4))
        c["mask"] = m
    return m


def _ranks(w: WinningHand) -> tuple[int, int] | None:
    """(lowest, highest) rank of an all-suited hand; None when it has honors."""
    c = w._cache
    if "ranks" not in c:
        ks = w.kinds
        if ks[-1] >= 27:
            c["ranks"] = None
        else:
            rs = [t % 9 + 1 for t in ks]
            c["ranks"] = (min(rs), max(rs))
    return c["ranks"]


def _all_in(w: WinningHand, group: frozenset) -> bool:
    return all(t in group for t in w.kinds)


def _wind_pungs(w: WinningHand) -> int:
    return sum(1 for t in w.pungs if 27 <= t <= 30)


def _dragon_pungs(w: WinningHand) -> int:
    return sum(1 for t in w.pungs if t >= 31)


def _suited_pungs(w: WinningHand) -> list[tuple[int, int]]:
    """(set index, tile) of suited pungs and kongs."""
    return [(i, s.tile) for i, s in enumerate(w.sets) if s.kind != "chow" and s.tile < 27]


def _chow_sets(w: WinningHand) -> list[tuple[int, int]]:
    """(set index, lowest tile) of chows."""
    return [(i, s.tile) for i, s in enumerate(w.sets) if s.kind == "chow"]


# ---------------------------------------------------------------- predicates
def _big_four_winds(w): return int(_wind_pungs(w) == 4)
def _big_three_dragons(w): return int(_dragon_pungs(w) == 3)
def _all_green(w): return int(_all_in(w, _GREEN))


def _nine_gates(w):
    """Concealed 1112345678999 of one suit before the win, won on any tile of the suit."""
    h = w.hand
    if h.melds:
        return 0
    c = h.concealed
    t = w.win_tile
    if t >= 27:
        return 0
    b = t - t % 9
    return int(c[b] == 3 and c[b + 8] == 3 and all(c[b + i] == 1 for i in range(1, 8)))


def _four_kongs(w): return int(w.melded_kongs + w.concealed_kongs == 4)


def _seven_shifted_pairs(w):
    p = w.pairs
    return int(p[0] < 27 and p[6] == p[0] + 6 and p[0] // 9 == p[6] // 9
               and all(p[i + 1] == p[i] + 1 for i in range(6)))


def _thirteen_orphans(w): return 1
def _all_terminals(w): return int(_all_in(w, _TERMINALS))
def _little_four_winds(w): return int(_wind_pungs(w) == 3 and 27 <= w.pair <= 30)
def _little_three_dragons(w): return int(_dragon_pungs(w) == 2 and w.pair >= 31)
def _all_honors(w): return int(w.kinds[0] >= 27)
def _four_concealed_pungs(w): return int(w.concealed_pungs == 4)


def _pure_terminal_chows(w):
    ch, p = w.chows, w.pair
    if len(ch) != 4 or p >= 27 or p % 9 != 4:
        return 0
    b = p - 4
    return int(ch == (b, b, b + 6, b + 6))


def _three_kongs(w): return int(w.melded_kongs + w.concealed_kongs == 3)
def _all_terminals_honors(w): return int(_all_in(w, _TERM_HONOR))
def _seven_pairs(w): return 1
def _greater_honors_knitted(w): return int(len(w.knitted) == 7)


def _all_even_pungs(w):
    if w.chows or w.pair >= 27 or (w.pair % 9) % 2 == 0:
        return 0
    return int(all(t < 27 and (t % 9) % 2 == 1 for t in w.pungs))


def _full_flush(w): return int(_mask(w) in (1, 2, 4))


def _range(lo: int, hi: int):
    def pred(w):
        r = _ranks(w)
        return int(r is not None and lo <= r[0] and r[1] <= hi)
    return pred


def _three_suited_terminal_chows(w):
    ch, p = w.chows, w.pair
    if len(ch) != 4 or p >= 27 or p % 9 != 4:
        return 0
    others = [s for s in range(3) if s != p // 9]
    want = tuple(sorted(9 * s + r for s in others for r in (0, 6)))
    return int(ch == want)


def _all_fives(w):
    p = w.pair
    if p >= 27 or p % 9 != 4:
        return 0
    return int(all(t < 27 and 2 <= t % 9 <= 4 for t in w.chows)
               and all(t < 27 and t % 9 == 4 for t in w.pungs))


def _three_concealed_pungs(w): return int(w.concealed_pungs == 3)
def _lesser_honors_knitted(w): return 1


def _knitted_straight(w):
    return int(w.form == "knitted_straight" or len(w.knitted) == 9)


def _big_three_winds(w): return int(_wind_pungs(w) == 3)
def _reversible(w): return int(_all_in(w, _REVERSIBLE))
def _chicken(w): return 0          # counted by the engine as the fallback fan
def _last_tile_draw(w): return int(w.context.last_tile and w.context.self_drawn)
def _last_tile_claim(w): return int(w.context.last_tile and not w.context.self_drawn)
def _replacement(w): return int(w.context.kong and w.context.self_drawn)
def _robbing(w): return int(w.context.kong and not w.context.self_drawn)
def _all_pungs(w): return int(len(w.pungs) == 4)


def _half_flush(w):
    m = _mask(w)
    return int((m & 24) != 0 and (m & 7) in (1, 2, 4))


def _all_types(w): return int(_mask(w) == 31)
def _melded_hand(w): return int(w.n_exposed == 4 and not w.context.self_drawn)
def _two_concealed_kongs(w): return int(w.concealed_kongs == 2)
def _two_dragon_pungs(w): return int(_dragon_pungs(w) == 2)


def _outside_hand(w):
    if w.pair not in _TERM_HONOR:
        return 0
    return int(all(t % 9 in (0, 6) for t in w.chows) and all(t in _TERM_HONOR for t in w.pungs))


def _fully_concealed(w): return int(w.n_exposed == 0 and w.context.self_drawn)
def _two_melded_kongs(w): return int(w.melded_kongs == 2)
def _last_copy(w): return int(w.context.last_copy)
def _dragon_pung(w): return _dragon_pungs(w)
def _prevalent_wind(w): return int(27 + w.context.prevalent_wind in w.pungs)
def _seat_wind(w): return int(27 + w.context.seat_wind in w.pungs)
def _concealed_hand(w): return int(w.n_exposed == 0 and not w.context.self_drawn)


def _all_chows(w):
    return int(not w.pungs and w.pair is not None and w.pair < 27)


def _tile_hog(w):
    n = sum(1 for c in w.counts if c == 4)
    return max(0, n - w.melded_kongs - w.concealed_kongs)


def _two_concealed_pungs(w): return int(w.concealed_pungs == 2)
def _concealed_kong(w): return int(w.concealed_kongs == 1)
def _all_simples(w): return int(not any(t in _TERM_HONOR for t in w.kinds))


def _pung_terminals_honors(w):
    """Pungs of suited 1/9, and of winds that are neither the seat nor the
    prevalent wind while fewer than three wind pungs are present (a wind pung
    otherwise scores 门风刻 / 圈风刻 / 三风刻 / 小四喜 / 大四喜 instead)."""
    n = sum(1 for t in w.pungs if t in _TERMINALS)
    if _wind_pungs(w) < 3:
        own = (27 + w.context.seat_wind, 27 + w.context.prevalent_wind)
        n += sum(1 for t in w.pungs if 27 <= t <= 30 and t not in own)
    return n


def _melded_kong(w): return int(w.melded_kongs == 1)


def _concealed_and_melded_kong(w):
    """明暗杠 (option): exactly two kongs, one concealed and one melded."""
    return int(w.concealed_kongs == 1 and w.melded_kongs == 1)


def _one_voided_suit(w):
    m = _mask(w) & 7
    return int(m in (3, 5, 6))


def _no_honors(w): return int((_mask(w) & 24) == 0)
def _edge_wait(w): return int(w.unique_wait and w.win_position == "edge")
def _closed_wait(w): return int(w.unique_wait and w.win_position == "closed")
def _single_wait(w): return int(w.unique_wait and w.win_position == "pair")
def _self_drawn(w): return int(w.context.self_drawn)
def _flowers(w): return w.context.flowers


# ---------------------------------------------------------------- combinations
# Each returns the groups of set indices that form the pattern.
def _chow_groups(k: int, test):
    def comb(w):
        cs = w.chow_sets
        if len(cs) < k:
            return ()
        return [tuple(i for i, _ in g) for g in combinations(cs, k)
                if test(sorted(t for _, t in g))]
    return comb


def _pung_groups(k: int, test):
    def comb(w):
        ps = w.suited_pung_sets
        if len(ps) < k:
            return ()
        return [tuple(i for i, _ in g) for g in combinations(ps, k)
                if test(sorted(t for _, t in g))]
    return comb


def _one_suit(ts) -> bool:
    return ts[0] // 9 == ts[-1] // 9


def _three_suits(ts) -> bool:
    return len({t // 9 for t in ts}) == len(ts) == 3


def _ranks_of(ts) -> list[int]:
    return sorted(t % 9 for t in ts)


def _steps(ts, d: int) -> bool:
    return all(ts[i + 1] - ts[i] == d for i in range(len(ts) - 1))


# 4 sets
def _quadruple_chow(ts): return ts[0] == ts[3]
def _four_shifted_chows(ts): return _one_suit(ts) and (_steps(ts, 1) or _steps(ts, 2))
def _four_shifted_pungs(ts): return _one_suit(ts) and _steps(ts, 1)
# 3 sets
def _pure_triple_chow(ts): return ts[0] == ts[2]
def _pure_straight(ts): return _one_suit(ts) and ts[0] % 9 == 0 and _steps(ts, 3)
def _pure_shifted_chows(ts): return _one_suit(ts) and (_steps(ts, 1) or _steps(ts, 2))
def _mixed_straight(ts): return _three_suits(ts) and _ranks_of(ts) == [0, 3, 6]


def _mixed_triple(ts):
    r = _ranks_of(ts)
    return _three_suits(ts) and r[0] == r[2]


def _mixed_shifted(ts):
    r = _ranks_of(ts)
    return _three_suits(ts) and r[1] == r[0] + 1 and r[2] == r[1] + 1


def _pure_shifted_pungs(ts): return _one_suit(ts) and _steps(ts, 1)
# 2 sets
def _pure_double_chow(ts): return ts[0] == ts[1]


def _mixed_double_chow(ts):
    return ts[0] // 9 != ts[1] // 9 and ts[0] % 9 == ts[1] % 9


def _short_straight(ts): return _one_suit(ts) and ts[1] - ts[0] == 3


def _two_terminal_chows(ts):
    return _one_suit(ts) and ts[0] % 9 == 0 and ts[1] % 9 == 6


def _double_pung(ts):
    return ts[0] // 9 != ts[1] // 9 and ts[0] % 9 == ts[1] % 9


# ---------------------------------------------------------------- the table
def _f(id, zh, en, value, pred=None, *, comb=None, excludes=(), reduces=(), forms=_ALL,
       minimum=True, fallback=False, aliases=(), source="ENC"):
    return Fan(id, zh, en, value, predicate=pred, combination=comb, excludes=frozenset(excludes),
               reduces=reduces, forms=forms, minimum=minimum, fallback=fallback,
               aliases=aliases, source=source)


_FANS = (
    _f(1, "大四喜", "Big Four Winds", 88, _big_four_winds, excludes=(38, 48, 60, 61, 73),
       forms=_SETS),
    _f(2, "大三元", "Big Three Dragons", 88, _big_three_dragons, excludes=(54, 59), forms=_SETS,
       source="ENC; [std] also 双箭刻"),
    _f(3, "绿一色", "All Green", 88, _all_green, excludes=(49, 75), forms=_TILES),
    _f(4, "九莲宝灯", "Nine Gates", 88, _nine_gates, excludes=(22, 56, 62, 75, 76),
       reduces=((73, 1),), forms=_REG,
       source="ENC (不计清一色); [std] concealed only, also 门前清/不求人, 缺一门, 无字, one 幺九刻"),
    _f(5, "四杠", "Four Kongs", 88, _four_kongs, excludes=(17, 48, 53, 57, 67, 74, 79),
       forms=_SETS, aliases=("十八学士",), source="ENC; 不计 list [std]"),
    _f(6, "连七对", "Seven Shifted Pairs", 88, _seven_shifted_pairs,
       excludes=(19, 22, 56, 62, 75, 76, 79), forms=_SP,
       source="ENC; [std] also 七对, 门前清, 缺一门, 无字"),
    _f(7, "十三幺", "Thirteen Orphans", 88, _thirteen_orphans, excludes=(51, 56, 62, 79),
       forms=frozenset(("thirteen_orphans",)), source="ENC; [std] also 门前清"),
    _f(8, "清幺九", "All Terminals", 64, _all_terminals, excludes=(18, 48, 55, 65, 73, 76),
       forms=_TILES, source="ENC (同刻 read as 双同刻); [std] also 混幺九, 全带幺, 幺九刻"),
    _f(9, "小四喜", "Little Four Winds", 64, _little_four_winds, excludes=(38, 73), forms=_SETS),
    _f(10, "小三元", "Little Three Dragons", 64, _little_three_dragons, excludes=(54, 59),
       forms=_SETS, source="ENC; [std] also 双箭刻"),
    _f(11, "字一色", "All Honors", 64, _all_honors, excludes=(18, 48, 55, 73, 75), forms=_TILES,
       source="ENC; [std] also 混幺九, 全带幺, 幺九刻, 缺一门"),
    _f(12, "四暗刻", "Four Concealed Pungs", 64, _four_concealed_pungs, excludes=(48, 56, 62),
       forms=_SETS, source="ENC; [std] 不求人 too (自摸 counts)"),
    _f(13, "一色双龙会", "Pure Terminal Chows", 64, _pure_terminal_chows,
       excludes=(19, 22, 63, 69, 72, 75, 76), forms=_REG,
       source="ENC; [std] also 一般高, 老少副, 缺一门, 无字"),
    _f(14, "一色四同顺", "Quadruple Chow", 48, comb=_chow_groups(4, _quadruple_chow),
       excludes=(23, 64, 69)),
    _f(15, "一色四节高", "Four Pure Shifted Pungs", 48, comb=_pung_groups(4, _four_shifted_pungs),
       excludes=(24, 48)),
    _f(16, "一色四步高", "Four Pure Shifted Chows", 32,
       comb=_chow_groups(4, _four_shifted_chows), excludes=(30, 71, 72),
       source="ENC; 不计 list [std]"),
    _f(17, "三杠", "Three Kongs", 32, _three_kongs, excludes=(53, 57, 67, 74), forms=_SETS,
       source="ENC; 不计 list [std]"),
    _f(18, "混幺九", "All Terminals and Honors", 32, _all_terminals_honors,
       excludes=(48, 55, 73), forms=_TILES, source="ENC; [std] also 全带幺, 幺九刻"),
    _f(19, "七对子", "Seven Pairs", 24, _seven_pairs, excludes=(56, 62, 79), forms=_SP,
       aliases=("七对",), source="ENC; [std] also 门前清"),
    _f(20, "七星不靠", "Greater Honors and Knitted Tiles", 24, _greater_honors_knitted,
       excludes=(34, 51, 56, 62, 79), forms=frozenset(("honors_and_knitted",)),
       source="ENC; [std] also 全不靠, 门前清"),
    _f(21, "全双刻", "All Even Pungs", 24, _all_even_pungs, excludes=(48, 68, 76), forms=_REG,
       source="ENC; [std] also 无字"),
    _f(22, "清一色", "Full Flush", 24, _full_flush, excludes=(75, 76), forms=_TILES,
       source="ENC; [std] also 缺一门"),
    _f(23, "一色三同顺", "Pure Triple Chow", 24, comb=_chow_groups(3, _pure_triple_chow),
       excludes=(24, 69), source="ENC; [std] also 一般高"),
    _f(24, "一色三节高", "Pure Shifted Pungs", 24, comb=_pung_groups(3, _pure_shifted_pungs),
       excludes=(23,)),
    _f(25, "全大", "Upper Tiles", 24, _range(7, 9), excludes=(36, 76), forms=_TILES,
       source="ENC; [std] also 大于五"),
    _f(26, "全中", "Middle Tiles", 24, _range(4, 6), excludes=(68, 76), forms=_TILES,
       source="ENC; [std] also 无字"),
    _f(27, "全小", "Lower Tiles", 24, _range(1, 3), excludes=(37, 76), forms=_TILES,
       source="ENC; [std] also 小于五"),
    _f(28, "清龙", "Pure Straight", 16, comb=_chow_groups(3, _pure_straight)),
    _f(29, "三色双龙会", "Three-Suited Terminal Chows", 16, _three_suited_terminal_chows,
       excludes=(63, 70, 72, 76), forms=_REG),
    _f(30, "一色三步高", "Pure Shifted Chows", 16, comb=_chow_groups(3, _pure_shifted_chows)),
    _f(31, "全带五", "All Fives", 16, _all_fives, excludes=(68, 76), forms=_REG,
       source="ENC; [std] also 无字"),
    _f(32, "三同刻", "Triple Pung", 16, comb=_pung_groups(3, _mixed_triple)),
    _f(33, "三暗刻", "Three Concealed Pungs", 16, _three_concealed_pungs, forms=_SETS),
    _f(34, "全不靠", "Lesser Honors and Knitted Tiles", 12, _lesser_honors_knitted,
       excludes=(51, 56, 62, 79), forms=frozenset(("honors_and_knitted",)),
       source="ENC; [std] also 门前清"),
    _f(35, "组合龙", "Knitted Straight", 12, _knitted_straight,
       forms=frozenset(("knitted_straight", "honors_and_knitted"))),
    _f(36, "大于五", "Upper Four", 12, _range(6, 9), excludes=(76,), forms=_TILES),
    _f(37, "小于五", "Lower Four", 12, _range(1, 4), excludes=(76,), forms=_TILES),
    _f(38, "三风刻", "Big Three Winds", 12, _big_three_winds, forms=_SETS,
       source="ENC; its wind pungs are not also 幺九刻 (不重复)"),
    _f(39, "花龙", "Mixed Straight", 8, comb=_chow_groups(3, _mixed_straight)),
    _f(40, "推不倒", "Reversible Tiles", 8, _reversible, excludes=(75,), forms=_TILES),
    _f(41, "三色三同顺", "Mixed Triple Chow", 8, comb=_chow_groups(3, _mixed_triple)),
    _f(42, "三色三节高", "Mixed Shifted Pungs", 8, comb=_pung_groups(3, _mixed_shifted)),
    _f(43, "无番和", "Chicken Hand", 8, _chicken, fallback=True,
       source="ENC: counted when no other fan counts; flowers disregarded"),
    _f(44, "妙手回春", "Last Tile Draw", 8, _last_tile_draw, excludes=(80,)),
    _f(45, "海底捞月", "Last Tile Claim", 8, _last_tile_claim),
    _f(46, "杠上开花", "Out with Replacement Tile", 8, _replacement, excludes=(80,)),
    _f(47, "抢杠和", "Robbing the Kong", 8, _robbing, excludes=(58,)),
    _f(48, "碰碰和", "All Pungs", 6, _all_pungs, forms=_REG),
    _f(49, "混一色", "Half Flush", 6, _half_flush, excludes=(75,), forms=_TILES,
       source="ENC; [std] 不计缺一门"),
    _f(50, "三色三步高", "Mixed Shifted Chows", 6, comb=_chow_groups(3, _mixed_shifted)),
    _f(51, "五门齐", "All Types", 6, _all_types, forms=_TILES),
    _f(52, "全求人", "Melded Hand", 6, _melded_hand, excludes=(79,), forms=_REG),
    _f(53, "双暗杠", "Two Concealed Kongs", 6, _two_concealed_kongs, excludes=(66, 67),
       forms=_SETS, source="ENC; [std] 不计暗杠, and its two kongs are the 双暗刻"),
    _f(54, "双箭刻", "Two Dragon Pungs", 6, _two_dragon_pungs, excludes=(59,), forms=_SETS,
       source="ENC; [std] 不计箭刻"),
    _f(55, "全带幺", "Outside Hand", 4, _outside_hand, forms=_REG),
    _f(56, "不求人", "Fully Concealed Hand", 4, _fully_concealed, excludes=(80,),
       source="ENC; [std] 不计自摸"),
    _f(57, "双明杠", "Two Melded Kongs", 4, _two_melded_kongs, excludes=(74,), forms=_SETS,
       source="ENC; [std] 不计明杠"),
    _f(58, "和绝张", "Last Tile", 4, _last_copy),
    _f(59, "箭刻", "Dragon Pung", 2, _dragon_pung, forms=_SETS),
    _f(60, "圈风刻", "Prevalent Wind", 2, _prevalent_wind, forms=_SETS),
    _f(61, "门风刻", "Seat Wind", 2, _seat_wind, forms=_SETS),
    _f(62, "门前清", "Concealed Hand", 2, _concealed_hand),
    _f(63, "平和", "All Chows", 2, _all_chows, excludes=(76,), forms=_SETS,
       source="ENC; [std] 不计无字"),
    _f(64, "四归一", "Tile Hog", 2, _tile_hog, forms=_TILES),
    _f(65, "双同刻", "Double Pung", 2, comb=_pung_groups(2, _double_pung)),
    _f(66, "双暗刻", "Two Concealed Pungs", 2, _two_concealed_pungs, forms=_SETS),
    _f(67, "暗杠", "Concealed Kong", 2, _concealed_kong, forms=_SETS),
    _f(68, "断幺", "All Simples", 2, _all_simples, excludes=(76,), forms=_TILES,
       source="ENC; [std] 不计无字"),
    _f(69, "一般高", "Pure Double Chow", 1, comb=_chow_groups(2, _pure_double_chow)),
    _f(70, "喜相逢", "Mixed Double Chow", 1, comb=_chow_groups(2, _mixed_double_chow)),
    _f(71, "连六", "Short Straight", 1, comb=_chow_groups(2, _short_straight)),
    _f(72, "老少副", "Two Terminal Chows", 1, comb=_chow_groups(2, _two_terminal_chows)),
    _f(73, "幺九刻", "Pung of Terminals or Honors", 1, _pung_terminals_honors, forms=_SETS),
    _f(74, "明杠", "Melded Kong", 1, _melded_kong, forms=_SETS),
    _f(75, "缺一门", "One Voided Suit", 1, _one_voided_suit, forms=_TILES),
    _f(76, "无字", "No Honors", 1, _no_honors, forms=_TILES),
    _f(77, "边张", "Edge Wait", 1, _edge_wait, aliases=("独听・边张",)),
    _f(78, "坎张", "Closed Wait", 1, _closed_wait, aliases=("嵌张", "独听・嵌张")),
    _f(79, "单钓将", "Single Wait", 1, _single_wait, aliases=("单钓", "独听・单钓")),
    _f(80, "自摸", "Self-Drawn", 1, _self_drawn),
    _f(81, "花牌", "Flower Tiles", 1, _flowers, minimum=False,
       source="ENC: 1 fan each, not counted toward the minimum"),
)

CONCEALED_AND_MELDED_KONG = _f(
    82, "明暗杠", "Concealed Kong and Melded Kong", 5, _concealed_and_melded_kong,
    excludes=(67, 74), forms=_SETS,
    source="not among the 81 fans (ENC); Botzone's judge / PyMahjongGB and common "
           "calculators: 5 fan, 不计暗杠 and 明杠 (option concealed_and_melded_kong)")
"""The non-standard fan 明暗杠 (id 82) that option ``concealed_and_melded_kong`` adds."""

FAN_IDS = {f.chinese: f.id for f in _FANS}
"""Chinese name -> fan id (1..81, the official fans; 明暗杠 is 82 when the option is on)."""


def settle_mcr(total: int, winner: int, discarder: int | None, *, players: int = 4,
               base: int = 8) -> tuple[int, ...]:
    """Chinese Official settlement [std MCR]: on a discard the discarder pays
    ``base + total`` and every other player ``base``; on a self-draw every other
    player pays ``base + total``.  Returns the per-seat changes (sum 0)."""
    out = [0] * players
    for seat in range(players):
        if seat == winner:
            continue
        pay = base + total if discarder is None or seat == discarder else base
        out[seat] -= pay
        out[winner] += pay
    return tuple(out)


def build(concealed_and_melded_kong: bool = True) -> Ruleset:
    """The Chinese Official ruleset with its build option (registered as ``"mcr"``
    with the defaults; :func:`majiang.rules.load` rebuilds it from ``[options]``).

    Parameters
    ----------
    concealed_and_melded_kong : bool, default True
        明暗杠: score one concealed + one melded kong as the non-standard fan 明暗杠
        (id 82, 5 fan, 不计暗杠 / 明杠), as Botzone's judge, PyMahjongGB and most
        calculators do.  False gives the 81 official fans (暗杠 2 + 明杠 1).  See the
        module docstring.

    Returns
    -------
    Ruleset

    Raises
    ------
    RuleError
        When the option is not a bool.
    """
    check_bool(concealed_and_melded_kong, "mcr option concealed_and_melded_kong")
    on = bool(concealed_and_melded_kong)
    return Ruleset(
        # who deals next: no 连庄: the deal passes every hand, four hands a wind round [std MCR competition rules]
        dealer_rule=DealerRule(win="rotate", draw="pass"),
        name="mcr",
        title="Chinese Official (国标麻将, MCR)",
        players=4,
        hand_size=13,
        calls=("chow_left", "pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=("regular", "seven_pairs", "thirteen_orphans", "honors_and_knitted",
               "knitted_straight"),
        seven_pairs_quads=True,
        min_fan=8,
        flowers_count_toward_minimum=False,
        fans=_FANS + (CONCEALED_AND_MELDED_KONG,) if on else _FANS,
        settlement=settle_mcr,
        settlement_params={"base": 8},
        source="docs/rules/mcr.md §2; minimum 8 and "
               "settlement are standard MCR (the encyclopedia text states only that flowers do not count "
               "toward the minimum)"
               + ("; 明暗杠 (option concealed_and_melded_kong, on): Botzone's judge / "
                  "PyMahjongGB" if on else ""),
        options={"concealed_and_melded_kong": on},
        builder="mcr",
    )


MCR = build()
"""Chinese Official rules as registered (``rules.get("mcr")``): 明暗杠 on."""

MCR_OFFICIAL = build(concealed_and_melded_kong=False)
"""Chinese Official rules with exactly the 81 official fans (明暗杠 off)."""

"""Every decomposition of real tiles plus jokers, each joker assigned a kind
(:func:`joker_decompositions`), for scoring hands with jokers.  With ``honor_chows``
(:attr:`RuleSpec.honor_chows <majiang.rules.model.RuleSpec.honor_chows>`, 南昌) three
different winds or the three dragons are a chow too (named by its start,
:data:`majiang.hand.HONOR_CHOW_STARTS`).
"""
from __future__ import annotations

from itertools import combinations_with_replacement, product

from ...errors import InvalidHandError
from ...hand import HONOR_CHOW_STARTS, Decomposition, chow_tiles

__all__ = ["joker_decompositions", "joker_assignments"]


def _groups_of_jokers(j: int, sets_left: int, need_pair: bool, kinds: tuple,
                      hc: bool = False):
    """Every multiset of joker-only groups: yields (pair or None, [sets], [assigned kinds]);
    ``hc``: honour chows are sets."""
    if j != 3 * sets_left + 2 * need_pair:
        return
    set_types = [("pung", k) for k in kinds] + [
        ("chow", k) for k in sorted(_chow_starts(kinds, hc))]
    pairs = list(kinds) if need_pair else [None]
    for p in pairs:
        for combo in combinations_with_replacement(range(len(set_types)), sets_left):
            sets = [set_types[i] for i in combo]
            assigned = []
            if p is not None:
                assigned += [p, p]
            for kind, t in sets:
                assigned += [t] * 3 if kind == "pung" else list(chow_tiles(t))
            yield p, sets, assigned


def _regular_joker_dec(c: list, j: int, n_sets: int, kinds: tuple, out: set,
                       assigned: list, sets: list, pair, hc: bool = False) -> None:
    i = next((k for k in range(34) if c[k]), None)
    sets_left = n_sets - len(sets)
    if i is None:
        for p, more, asg in _groups_of_jokers(j, sets_left, pair is None, kinds, hc):
            out.add((tuple(sorted(assigned + asg)), p if pair is None else pair,
                     tuple(sorted(sets + more, key=lambda st: (st[1], st[0])))))
        return
    ci = c[i]
    # pung of i: r real copies, 3 - r jokers
    if sets_left:
        for r in range(1, min(3, ci) + 1):
            if 3 - r <= j:
                c[i] -= r
                _regular_joker_dec(c, j - (3 - r), n_sets, kinds, out,
                                   assigned + [i] * (3 - r), sets + [("pung", i)], pair, hc)
                c[i] += r
    # pair of i
    if pair is None:
        for r in range(1, min(2, ci) + 1):
            if 2 - r <= j:
                c[i] -= r
                _regular_joker_dec(c, j - (2 - r), n_sets, kinds, out,
                                   assigned + [i] * (2 - r), sets, i, hc)
                c[i] += r
    # chows holding one real i; tiles below i are jokers, tiles above real or joker
    if sets_left and (i < 27 or hc):
        for start, jk, real in _chow_branches(c, i, j, _chow_starts(kinds, hc)):
            c[i] -= 1
            for t in real:
                c[t] -= 1
            _regular_joker_dec(c, j - len(jk), n_sets, kinds, out, assigned + jk,
                               sets + [("chow", start)], pair, hc)
            c[i] += 1
            for t in real:
                c[t] += 1


def _seven_pairs_joker_dec(c: list, j: int, quads: bool, kinds: tuple, out: set) -> None:
    limit = 4 if quads else 2
    base = []
    for k in range(34):
        if c[k] > limit:
            return
        if c[k] % 2:
            if k not in kinds:
                return
            base.append(k)
    left = j - len(base)
    if left < 0 or left % 2:
        return
    cur = list(c)
    for k in base:
        cur[k] += 1

    def rec(start: int, left: int, asg: list) -> None:
        if left == 0:
            if sum(cur) == 14:
                pairs = tuple(k for k in range(34) for _ in range(cur[k] // 2))
                out.add((tuple(sorted(base + asg)), "seven_pairs", pairs))
            return
        for k in kinds:
            if k < start:
                continue
            if cur[k] + 2 <= limit:
                cur[k] += 2
                rec(k, left - 2, asg + [k, k])
                cur[k] -= 2

    rec(0, left, [])


def _joker_hand(counts, jokers: int, kinds, caps) -> tuple:
    """``(counts as a list, kinds as a sorted tuple, caps as a list, tiles with the
    jokers)`` of a hand asked of :func:`joker_decompositions` / :func:`joker_assignments`,
    refusing a size that is not 3n+2."""
    c = [int(x) for x in counts]
    kinds = tuple(range(34)) if kinds is None else tuple(sorted(kinds))
    cap = [4] * 34 if caps is None else [int(x) for x in caps]
    n = sum(c) + jokers
    if n % 3 != 2:
        raise InvalidHandError(f"decompositions need 3n+2 concealed tiles, got {n}")
    return c, kinds, cap, n


def joker_decompositions(counts, jokers: int, *, n_melds: int = 0, caps=None,
                         forms=("regular", "seven_pairs"), quads: bool = False,
                         kinds=None, fifth_copy: bool = False,
                         honor_chows: bool = False) -> list[tuple[tuple, Decomposition]]:
    """Every decomposition of real tiles + jokers, each joker assigned a kind.

    Returns ``[(assignment, Decomposition)]``: ``assignment`` is the sorted tuple of
    kinds the jokers stand for; only kinds that complete a set or the pair are ever
    tried (a joker next to real tiles fills its set; jokers left alone form whole
    sets or the pair of any kind).  Equal to replacing the jokers by every multiset
    of kinds and decomposing (tested against that brute force).

    ``caps`` (copies available to the concealed hand; default 4 each, or the
    kinds given) bounds real + assigned copies unless `fifth_copy`.  `honor_chows`: three
    different winds or the three dragons are a chow too (南昌).
    """
    c, kinds, cap, n = _joker_hand(counts, jokers, kinds, caps)
    n_sets = (n - 2) // 3
    raw: set = set()
    if "regular" in forms:
        _regular_joker_dec(list(c), jokers, n_sets, kinds, raw, [], [], None,
                           bool(honor_chows))
    sp: set = set()
    if "seven_pairs" in forms and n == 14 and n_melds == 0:
        _seven_pairs_joker_dec(list(c), jokers, quads, kinds, sp)
    out = []
    for asg, pair, sets in sorted(raw, key=repr):
        if not fifth_copy and any(c[k] + asg.count(k) > cap[k] for k in set(asg)):
            continue
        out.append((asg, Decomposition("regular", pair=pair, sets=sets)))
    for asg, _, pairs in sorted(sp, key=repr):
        if not fifth_copy and any(c[k] + asg.count(k) > cap[k] for k in set(asg)):
            continue
        out.append((asg, Decomposition("seven_pairs", pairs=pairs)))
    return out


_CHOW_STARTS: dict = {}


def _chow_branches(c, i: int, j: int, starts: frozenset):
    """Each chow holding one real ``i`` (the lowest real tile left in ``c``) with at most
    ``j`` jokers: ``(start, jokers' kinds, real tiles above i used)``; its tiles below
    ``i`` are jokers, those above real (when held) or jokers.  ``starts``: the chow
    starts allowed (:func:`_chow_starts`)."""
    for start, below, above in _chow_shapes(i, starts):
        for real_above in _FLAGS[len(above)]:
            if any(ra and not c[t] for ra, t in zip(real_above, above)):
                continue
            jk = [*below, *(t for ra, t in zip(real_above, above) if not ra)]
            if len(jk) <= j:
                yield start, jk, [t for ra, t in zip(real_above, above) if ra]


_FLAGS = tuple(tuple(product((False, True), repeat=n)) for n in range(3))
_CHOW_SHAPES: dict = {}


def _chow_shapes(i: int, starts: frozenset) -> tuple:
    """``(start, tiles below i, tiles above i)`` of each allowed chow holding ``i``
    (:func:`_chow_branches`), kept per ``(i, starts)``."""
    got = _CHOW_SHAPES.get((i, starts))
    if got is None:
        out = []
        for start in ((i - 2, i - 1, i) if i < 27 else HONOR_CHOW_STARTS):
            if start not in starts or i not in chow_tiles(start):
                continue
            others = [t for t in chow_tiles(start) if t != i]
            out.append((start, tuple(t for t in others if t < i),
                        tuple(t for t in others if t > i)))
        got = _CHOW_SHAPES[(i, starts)] = tuple(out)
    return got


def _chow_starts(kinds: tuple, hc: bool = False) -> frozenset:
    """The kinds that start a chow of three kinds all in ``kinds`` (a suit's ranks 1-7,
    and with ``hc`` the honour chows' starts, :data:`~majiang.hand.HONOR_CHOW_STARTS`):
    the chows :func:`_regular_joker_dec` tries from a held tile."""
    got = _CHOW_STARTS.get((kinds, hc))
    if got is None:
        ks = set(kinds)
        got = _CHOW_STARTS[(kinds, hc)] = frozenset(
            s for s in (*range(27), *(HONOR_CHOW_STARTS if hc else ()))
            if (s >= 27 or s % 9 <= 6) and set(chow_tiles(s)) <= ks)
    return got


def _regular_joker_asg(c: tuple, j: int, sets_left: int, need_pair: bool, kinds: tuple,
                       memo: dict, hc: bool = False) -> frozenset:
    """The joker assignments (sorted kind tuples) of :func:`_regular_joker_dec` that
    complete the counts ``c`` (a tuple) into ``sets_left`` sets (+ the pair when
    ``need_pair``) with ``j`` jokers: the same branches, each sub-problem solved once
    (``memo``, one per ``kinds`` and ``hc``), the decompositions themselves not kept;
    ``hc``: honour chows are sets."""
    key = (c, j, sets_left, need_pair)
    got = memo.get(key)
    if got is not None:
        return got
    i = next((k for k in range(34) if c[k]), None)
    out: set = set()
    if i is None:
        for _, _, asg in _groups_of_jokers(j, sets_left, need_pair, kinds, hc):
            out.add(tuple(sorted(asg)))
        got = memo[key] = frozenset(out)
        return got
    lc = list(c)
    ci = c[i]

    def branch(jk: list, used: dict, sl: int, np_: bool) -> None:
        for t, r in used.items():
            lc[t] -= r
        sub = _regular_joker_asg(tuple(lc), j - len(jk), sl, np_, kinds, memo, hc)
        for t, r in used.items():
            lc[t] += r
        if not jk:
            out.update(sub)
        else:
            for rest in sub:
                out.add(tuple(sorted(rest + tuple(jk))))

    if sets_left:
        for r in range(1, min(3, ci) + 1):
            if 3 - r <= j:
                branch([i] * (3 - r), {i: r}, sets_left - 1, need_pair)
    if need_pair:
        for r in range(1, min(2, ci) + 1):
            if 2 - r <= j:
                branch([i] * (2 - r), {i: r}, sets_left, False)
    if sets_left and (i < 27 or hc):
        for _start, jk, real in _chow_branches(c, i, j, _chow_starts(kinds, hc)):
            used = {i: 1}
            for t in real:
                used[t] = used.get(t, 0) + 1
            branch(jk, used, sets_left - 1, need_pair)
    got = memo[key] = frozenset(out)
    return got


_ASG_MEMOS: dict = {}
_ASG_MEMO_MAX = 50_000
"""Entries kept per kind set by :func:`_asg_memo` before it is emptied."""


def _asg_memo(kinds: tuple, hc: bool = False) -> dict:
    """The memo of :func:`_regular_joker_asg` for ``kinds``, kept across calls: the
    sub-problems (the tiles left after the lowest are placed) recur across the hands a
    search asks about (a probability search asks of thousands that share their upper
    tiles).  Its answers depend on the key and ``kinds`` only; emptied when it holds
    :data:`_ASG_MEMO_MAX` entries."""
    memo = _ASG_MEMOS.get((kinds, hc))
    if memo is None or len(memo) >= _ASG_MEMO_MAX:
        if len(_ASG_MEMOS) >= 16:
            _ASG_MEMOS.clear()
        memo = _ASG_MEMOS[(kinds, hc)] = {}
    return memo


_SUIT_RANGES = ((0, 9), (9, 18), (18, 27), (27, 34))


def _regular_asg_by_suit(c: list, jokers: int, kinds: tuple, hc: bool = False) -> set:
    """The assignments of :func:`_regular_joker_asg` for the whole hand ``c`` (a list of
    34 counts, ``jokers`` wild tiles, every set and the pair), found suit by suit.

    Every set lies in one suit (or is an honour pung or honour chow), so a complete hand is a complete
    part in each suit (m, p, s, the honours), one of them holding the pair: the
    assignments are the unions, over the ways of sharing the jokers and placing the pair,
    of one assignment of each suit's part (:func:`_part_asg`: its joker-only groups stay
    in the suit, and the other suits' parts give the rest).  A union is the
    concatenation of the parts, already sorted (the suits' kinds are in order).  Real
    tiles of a kind outside ``kinds`` fall back to the whole-hand search, which places
    them as it always has."""
    parts = []
    for lo, hi in _SUIT_RANGES:
        ks = _suit_kinds(kinds, lo, hi)
        seg = tuple(c[lo:hi])
        if any(x and lo + r not in ks for r, x in enumerate(seg)):
            n = sum(c) + jokers
            return set(_regular_joker_asg(tuple(c), jokers, (n - 2) // 3, True, kinds,
                                          _asg_memo(kinds, hc), hc))
        parts.append((ks, seg, lo, sum(seg), hc and lo == 27))
    out: set = set()
    _share(parts, 0, jokers, True, [], out)
    return out


def _share(parts: list, i: int, j_left: int, pair_left: bool, acc: list, out: set) -> None:
    """:func:`_regular_asg_by_suit`: the parts from suit ``i`` on take ``j_left`` jokers
    (and the pair when ``pair_left``); each union found is added to ``out``."""
    ks, seg, lo, n, hc = parts[i]
    if i == 3:                      # the honours take what is left
        got = _part_asg(ks, seg, lo, n, j_left, pair_left, hc)
        if got:
            out.update(_products(acc + [got]))
        return
    for pair in ((False, True) if pair_left else (False,)):
        for j in range((2 * pair - n) % 3, j_left + 1, 3):
            got = _part_asg(ks, seg, lo, n, j, pair, hc)
            if got:
                _share(parts, i + 1, j_left - j, pair_left and not pair, acc + [got], out)


_SUIT_KINDS: dict = {}
_PARTS: dict = {}


def _suit_kinds(kinds: tuple, lo: int, hi: int) -> tuple:
    got = _SUIT_KINDS.get((kinds, lo))
    if got is None:
        got = _SUIT_KINDS[(kinds, lo)] = tuple(k for k in kinds if lo <= k < hi)
    return got


def _part_asg(ks: tuple, seg: tuple, lo: int, n: int, j: int, pair: bool,
              hc: bool = False) -> frozenset:
    """The assignments (kinds of ``ks``) completing one suit's part ``seg`` (its counts
    from kind ``lo``, ``n`` tiles) with ``j`` jokers into sets (and the pair when
    ``pair``): :func:`_regular_joker_asg` on it, kept per part (the parts recur across
    the hands a search asks about; emptied at :data:`_ASG_MEMO_MAX` entries)."""
    key = (ks, seg, j, pair, hc)
    got = _PARTS.get(key)
    if got is None:
        left = n + j - 2 * pair
        if left < 0 or left % 3:
            got = frozenset()
        else:
            sub = [0] * 34
            sub[lo:lo + len(seg)] = seg
            got = _regular_joker_asg(tuple(sub), j, left // 3, pair, ks, _asg_memo(ks, hc), hc)
        if len(_PARTS) >= _ASG_MEMO_MAX:
            _PARTS.clear()
        _PARTS[key] = got
    return got


def _products(sets: list):
    """Each concatenation of one tuple from each of ``sets`` (in order)."""
    acc = [()]
    for s in sets:
        acc = [a + b for a in acc for b in s]
    return acc


def joker_assignments(counts, jokers: int, *, n_melds: int = 0, caps=None,
                      forms=("regular", "seven_pairs"), quads: bool = False,
                      kinds=None, fifth_copy: bool = False, honor_chows: bool = False) -> set:
    """The assignments of :func:`joker_decompositions` (same arguments) as a set of
    sorted kind tuples, without building the decompositions: what a scorer needs that
    decomposes each assigned hand itself (:func:`majiang.scoring.regional.candidates`).
    Equal to ``{a for a, _ in joker_decompositions(...)}``."""
    c, kinds, cap, n = _joker_hand(counts, jokers, kinds, caps)
    raw: set = set()
    if "regular" in forms:
        raw.update(_regular_asg_by_suit(c, jokers, kinds, bool(honor_chows)))
    if "seven_pairs" in forms and n == 14 and n_melds == 0:
        sp: set = set()
        _seven_pairs_joker_dec(list(c), jokers, quads, kinds, sp)
        raw.update(asg for asg, _, _ in sp)
    if fifth_copy:
        return raw
    return {asg for asg in raw if not any(c[k] + asg.count(k) > cap[k] for k in set(asg))}

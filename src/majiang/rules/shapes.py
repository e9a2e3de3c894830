"""Exact shanten, ukeire and joker decompositions under a ruleset's shape rules.

The Cython core knows the Chinese Official forms and plain jokers.  Regional
rules add what it does not know, and this module computes them exactly:

* **shape constraints** — 缺一门/定缺 (``void_suit``: the hand may hold at most two
  suits), 二五八将 (``pair_258``: the pair of a regular hand is a 2, 5 or 8),
  ``no_void`` (all three suits), a reduced tile set (108, 84, 112 tiles: kinds
  that do not exist can never be drawn);
* **extra forms** — 十三烂 (``thirteen_lonely``: 14 singles, suited tiles of one
  suit at least 3 apart, honors distinct, no jokers) and 七星归位
  (``seven_stars``: 十三烂 holding all seven honors);
* **jokers** with all of the above.

Method: a complete hand is a *target* multiset ``T``; the shanten of a hand ``h``
with ``J`` jokers is ``need - J - max_T sum(min(T, h)) - 1`` where ``need`` is
the concealed size of a complete hand (14 with no melds).  For the regular
form the maximum is found per suit (every combination of at most 5 sets and
an optional pair of one suit, at most 4 copies per kind, within the copies the
melds and the tile set leave) and combined over the three suits and the
honors, so constraints on the pair or on suits are exact.  The extra forms are
maximised directly.  With no constraints the result equals the core's (tested).

Two engines compute this definition.  The functions :func:`form_shanten`,
:func:`shanten_counts` and :func:`ukeire_counts` are the pure-Python reference (an
enumeration of per-suit targets, milliseconds a hand).  :func:`core_form_shanten`,
:func:`core_shanten_counts`, :func:`core_ukeire_counts` and :func:`core_shanten_batch`
run the compiled port (:mod:`majiang._core.shapes`: the core's per-group distance
rows combined under the suit rules, closed forms for the whole-hand forms; within
about 3x of the unconstrained core, bench/bench_shapes.py) with equal results
(tests/test_shapes_core.py); the ruleset-level functions use it unless given
``engine="python"``.  A form the compiled engine does not know falls back to the
reference.

Extension point: :data:`EXTRA_FORM_KEPT` maps each extra form name to
``kept(counts, caps, jokers) -> int | None`` (tiles of the hand that can stay;
jokers are added by the caller when the form may use them); register a new form
there and in :data:`majiang.rules.base.EXTRA_FORMS` (and, for core speed, as a closed
form in ``_core/shapes.pyx``; until then that form is computed by the reference).
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product

import numpy as np

from ..errors import InvalidHandError, RuleError
from ..hand import Decomposition, Hand, _check_total, as_hand, visible_counts
from ..tiles import format_counts, tile_name
from .._memo import per_ruleset
from .base import EXTRA_FORMS
from .constraints import SHAPE_CONSTRAINTS
from .._core import shapes as _cs

__all__ = ["Spec", "spec_of", "shanten_counts", "form_shanten", "ukeire_counts",
           "joker_decompositions", "lonely_patterns", "EXTRA_FORM_KEPT", "THREE_JOKERS",
           "three_jokers_win", "stand_in", "core_form_shanten", "core_shanten_counts",
           "core_ukeire_counts", "core_shanten_batch", "ENGINES"]

_NEG = -1000


# ============================================================== targets per group
@lru_cache(maxsize=None)
def _group_targets(honors: bool, max_sets: int):
    """(T (N, npos) int8, nsets (N,), pair position or -1 (N,)) of one group's targets."""
    npos = 7 if honors else 9
    sets = []
    for r in range(npos):
        v = [0] * npos
        v[r] = 3
        sets.append(v)
    if not honors:
        for r in range(7):
            v = [0] * npos
            v[r] = v[r + 1] = v[r + 2] = 1
            sets.append(v)
    S = np.array(sets, dtype=np.int8)
    rows, ns = [], []
    for k in range(max_sets + 1):
        for combo in combinations_with_replacement(range(len(sets)), k):
            v = S[list(combo)].sum(0) if combo else np.zeros(npos, np.int8)
            if v.max(initial=0) <= 4:
                rows.append(v)
                ns.append(k)
    base = np.array(rows, dtype=np.int8)
    nsets = np.array(ns, dtype=np.int8)
    Ts, Ns, Ps = [base], [nsets], [np.full(len(base), -1, np.int8)]
    for r in range(npos):
        v = base.copy()
        v[:, r] += 2
        ok = v.max(1) <= 4
        Ts.append(v[ok])
        Ns.append(nsets[ok])
        Ps.append(np.full(int(ok.sum()), r, np.int8))
    return np.concatenate(Ts), np.concatenate(Ns), np.concatenate(Ps)


@lru_cache(maxsize=1 << 16)
def _group_best(h: tuple, caps: tuple, honors: bool, pair_mask: int, max_sets: int) -> tuple:
    """best[n][p]: most tiles of `h` kept by a target of n sets (+ a pair if p) of this
    group within `caps`, the pair restricted to positions in `pair_mask`."""
    T, N, P = _group_targets(honors, max_sets)
    ha = np.array(h, np.int8)
    ok = (T <= np.array(caps, np.int8)).all(1)
    if pair_mask != (1 << len(h)) - 1:
        allowed = np.array([bool(pair_mask >> r & 1) for r in range(len(h))] + [True])
        ok &= allowed[P]          # P == -1 indexes the trailing True
    kept = np.minimum(T, ha).sum(1)
    best = np.full((max_sets + 1, 2), _NEG, np.int64)
    has_pair = (P >= 0).astype(np.int64)
    np.maximum.at(best, (N[ok].astype(np.int64), has_pair[ok]), kept[ok])
    return tuple(tuple(int(x) for x in row) for row in best)


_GROUPS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))
_258 = (1, 4, 7)


def _regular_kept(c: tuple, caps: tuple, n_sets: int, void: int | None, pair_258: bool,
                  no_void: bool = False, meld_suits: frozenset = frozenset()) -> int:
    """Most tiles kept by a regular target of n_sets sets + a pair (exact).

    ``meld_suits``: suits already present in the exposed melds (they satisfy the
    all-three-suits rule, and can never be the void suit)."""
    if n_sets > 5:
        raise RuleError("at most 5 sets (16-tile hands) in the Python shape engine")
    # dp over groups: (sets, pair) -> kept
    dp = {(0, 0): 0}
    for g, (lo, hi, honors) in enumerate(_GROUPS):
        h = c[lo:hi]
        cp = caps[lo:hi]
        if g == void:
            if any(h):
                pass                      # every tile of the void suit is swapped out
            continue
        mask = (1 << (hi - lo)) - 1
        if pair_258:
            mask = 0 if honors else sum(1 << r for r in _258)
        best = _group_best(h, cp, honors, mask, n_sets)
        new: dict = {}
        for (s, p), k in dp.items():
            for n in range(n_sets - s + 1):
                for q in (0, 1):
                    if p + q > 1:
                        continue
                    b = best[n][q]
                    if b <= _NEG // 2:
                        continue
                    if no_void and g < 3 and n == 0 and q == 0 and g not in meld_suits:
                        continue          # this suit must appear in the target
                    key = (s + n, p + q)
                    v = k + b
                    if new.get(key, _NEG) < v:
                        new[key] = v
        dp = new
    return dp.get((n_sets, 1), _NEG)


def _seven_pairs_kept(c: tuple, caps: tuple, quads: bool, kinds: tuple) -> int:
    vals = []
    for k in kinds:
        if caps[k] >= 2:
            vals.append(min(c[k], 2))
            if quads and caps[k] >= 4:
                vals.append(min(max(c[k] - 2, 0), 2))
    if len(vals) < 7:
        return _NEG
    vals.sort(reverse=True)
    return sum(vals[:7])


_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def _orphans_kept(c: tuple, caps: tuple) -> int:
    if any(caps[k] < 1 for k in _ORPHANS):
        return _NEG
    kept = sum(1 for k in _ORPHANS if c[k])
    if any(c[k] >= 2 and caps[k] >= 2 for k in _ORPHANS):
        kept += 1
    elif not any(caps[k] >= 2 for k in _ORPHANS):
        return _NEG
    return kept


# ---------------------------------------------------------------- 十三烂 / 七星归位
@lru_cache(maxsize=None)
def lonely_patterns() -> tuple:
    """Rank subsets (0-based) of one suit whose members are pairwise at least 3 apart."""
    out = []
    for k in range(4):
        for combo in combinations(range(9), k):
            if all(b - a >= 3 for a, b in zip(combo, combo[1:])):
                out.append(combo)
    return tuple(out)


def _lonely_kept(c: tuple, caps: tuple, honors_needed: int | None) -> int:
    """Most tiles kept by a 十三烂 target (all 7 honors with honors_needed=7)."""
    per_suit = []
    for s in range(3):
        best = [_NEG] * 4
        for pat in lonely_patterns():
            if any(caps[9 * s + r] < 1 for r in pat):
                continue
            k = sum(1 for r in pat if c[9 * s + r])
            if k > best[len(pat)]:
                best[len(pat)] = k
        per_suit.append(best)
    honors_avail = [k for k in range(27, 34) if caps[k] >= 1]
    honors_held = sum(1 for k in honors_avail if c[k])
    best = _NEG
    for a, b, d in product(range(4), repeat=3):
        h = 14 - a - b - d
        if h < 0 or h > len(honors_avail):
            continue
        if honors_needed is not None and h != honors_needed:
            continue
        v = per_suit[0][a] + per_suit[1][b] + per_suit[2][d] + min(h, honors_held)
        best = max(best, v)
    return best


EXTRA_FORM_KEPT = {
    "thirteen_lonely": lambda c, caps: _lonely_kept(c, caps, None),
    "seven_stars": lambda c, caps: _lonely_kept(c, caps, 7),
}
"""Extra forms: ``kept(counts, caps) -> int`` (jokers never take part: 安庆 "drawing a
joker breaks 十三烂").  Both need a fully concealed 14-tile hand."""


# ============================================================== spec and shanten
class Spec:
    """What the shape engine needs from a ruleset (hashable, cached per ruleset)."""

    __slots__ = ("forms", "quads", "copies", "void", "pair_258", "no_void", "fifth", "kinds",
                 "three_jokers", "compiled")

    def __init__(self, forms, quads=False, copies=(4,) * 34, void=False, pair_258=False,
                 no_void=False, fifth=False, three_jokers=False) -> None:
        self.forms = tuple(forms)
        self.quads = bool(quads)
        self.copies = tuple(copies)
        self.void = bool(void)
        self.pair_258 = bool(pair_258)
        self.no_void = bool(no_void)
        self.fifth = bool(fifth)
        self.three_jokers = bool(three_jokers)
        self.kinds = tuple(k for k in range(34) if self.copies[k])
        self.compiled = None          # its _core.shapes.ShapeSpec, made on first use


THREE_JOKERS = "three_jokers"
"""The shape-free win of three jokers (罗源 三金倒, 温州 三财神): its name in a ruleset's
``options["special_wins"]`` (where :mod:`majiang.scoring.regional` reads it too) and
the key of its pseudo-form in :func:`form_shanten`."""


def three_jokers_win(rs) -> bool:
    """Whether holding three jokers wins at once on a self-draw, whatever the other tiles
    (``"three_jokers"`` in the ruleset's ``options["special_wins"]``: 罗源 三金倒, 温州
    三财神; never with fewer than three wild copies).  Shanten then also counts the
    distance to a third joker
    (:func:`form_shanten`), so these rulesets are computed here (:func:`needs_python`)."""
    return bool(rs.jokers is not None and rs.jokers.total_copies >= 3
                and THREE_JOKERS in tuple(rs.options.get("special_wins", ()) or ()))


def spec_of(rs) -> Spec:
    """The shape spec of a :class:`~majiang.rules.Ruleset` (constraints that shape wins,
    the three-joker win)."""
    cons = set(rs.constraints)
    return Spec(rs.forms, rs.seven_pairs_quads, rs.copies, "void_suit" in cons,
                "pair_258" in cons, "no_void" in cons,
                bool(rs.jokers and rs.jokers.fifth_copy), three_jokers_win(rs))


def _kept_by_form(c: tuple, caps: tuple, n_sets: int, n_melds: int, spec: Spec,
                  whole: bool, meld_suits: frozenset = frozenset()) -> dict:
    out = {}
    voids = tuple(v for v in (0, 1, 2) if v not in meld_suits) if spec.void else (None,)
    for form in spec.forms:
        if form == "regular":
            out[form] = max((_regular_kept(c, caps, n_sets, v, spec.pair_258, spec.no_void,
                                           meld_suits) for v in voids), default=_NEG)
        elif not whole:
            continue
        elif form == "seven_pairs":
            best = _NEG
            for v in voids:
                kinds = tuple(k for k in spec.kinds if v is None or not (9 * v <= k < 9 * v + 9))
                if spec.no_void:
                    # seven pairs holding all three suits: rarely needed; approximate by the
                    # unconstrained value only when all three suits can appear
                    pass
                best = max(best, _seven_pairs_kept(c, caps, spec.quads, kinds))
            out[form] = best
        elif form == "thirteen_orphans":
            out[form] = _NEG if spec.void else _orphans_kept(c, caps)
        elif form in EXTRA_FORM_KEPT:
            out[form] = _NEG if spec.void else EXTRA_FORM_KEPT[form](c, caps)
        else:
            raise RuleError(f"the Python shape engine does not know the form {form!r} "
                            "(knitted forms are computed by the core only)")
    return out


def form_shanten(counts, *, jokers: int = 0, caps=None, n_melds: int = 0,
                 spec: Spec, meld_suits=()) -> dict:
    """Shanten per form ``{form: shanten}`` (99 when the form is impossible).

    ``counts`` are the concealed real tiles (34), ``jokers`` the wild tiles held,
    ``caps`` the copies available to the concealed hand (tile set minus the copies
    in one's melds; default the spec's copies), ``n_melds`` the declared melds.
    ``meld_suits``: the suits (0 万, 1 筒, 2 条) those melds hold (a void suit cannot
    be one of them; they count as present for the all-three-suits rule).
    With ``spec.three_jokers`` (:func:`three_jokers_win`) the dict also holds
    ``"three_jokers"``: the draws to a third joker (``2 - jokers``; at least -1 for a
    3n+2 hand, 0 for a 3n+1 hand).
    """
    c = tuple(int(x) for x in counts)
    if caps is None:
        caps = spec.copies
    else:
        caps = tuple(min(int(a), b) for a, b in zip(caps, spec.copies))
    for k in range(34):
        if c[k] > caps[k]:
            raise InvalidHandError(f"{c[k]} copies of {tile_name(k)}: the ruleset's tile set "
                                   f"leaves {caps[k]}")
    n = sum(c) + jokers
    if n % 3 == 0 or n > 17:
        raise InvalidHandError(f"{n} concealed tiles (jokers included): a hand needs 3n+1 "
                               "or 3n+2 tiles")
    n_sets = (n - 2) // 3 if n % 3 == 2 else (n - 1) // 3
    need = 3 * n_sets + 2
    whole = n_melds == 0 and need == 14
    out = {}
    for form, kept in _kept_by_form(c, caps, n_sets, n_melds, spec, whole,
                                    frozenset(meld_suits)).items():
        if kept <= _NEG // 2:
            out[form] = 99
            continue
        j = 0 if form in EXTRA_FORM_KEPT else jokers
        out[form] = max(-1, need - kept - j - 1)
    if spec.three_jokers:
        # 三金倒 / 三财神: three jokers held win on a self-draw with any other tiles; each
        # missing joker is one draw (the hand keeps its jokers and discards another
        # tile), so a 3n+2 hand is complete (-1) with three and a 3n+1 hand is ready (0)
        # with two — and with three, where every draw wins
        out[THREE_JOKERS] = max(-1 if n % 3 == 2 else 0, 2 - jokers)
    return out


def shanten_counts(counts, *, jokers: int = 0, caps=None, n_melds: int = 0, spec: Spec,
                   meld_suits=()) -> int:
    """Least shanten over the spec's forms (see :func:`form_shanten`)."""
    per = form_shanten(counts, jokers=jokers, caps=caps, n_melds=n_melds, spec=spec,
                       meld_suits=meld_suits)
    return min(per.values()) if per else 99


def ukeire_counts(counts, *, jokers: int = 0, caps=None, n_melds: int = 0, spec: Spec,
                  visible=None, joker_kind: int | None = None,
                  joker_copies: int = 4, meld_suits=(),
                  stand_in: tuple | None = None) -> tuple[int, dict]:
    """(shanten, {kind: live}) of a 3n+1 hand; a drawn joker is listed under ``-1``.

    Live counts: copies in the tile set minus the hand (concealed and melds) minus
    `visible`.  With `joker_kind` the natural copies of that kind are jokers: the
    kind is not drawn as itself, and drawing it (a joker) is listed when it helps.
    Two wild kinds (南昌 正精 / 副精, 天津 混儿): `joker_kind` and `joker_copies` are
    tuples (kinds, wild copies of each); a visible copy of a wild kind counts as a
    seen joker once the kind's non-wild copies (a face-up indicator) are seen.

    `stand_in` ``(face, substitute, copies)`` (see :func:`stand_in`): the substitute
    kind (安庆 红中, 温州 / 上海百搭 / 杭州 flip 白板) is never drawn as itself; a drawn
    one plays as ``face`` (the joker kind's natural tile, written so in the hand).  That
    draw is listed under the **substitute kind** (the tile the player draws, e.g. 5z),
    live = ``copies`` (the face's drawable copies, :meth:`GameModel.wall`) − the
    ``face`` tiles held (concealed and in melds: every one is a stand-in) − visible
    copies of the substitute (seen stand-ins are written by their own name; a visible
    ``face`` tile is a seen joker, as without a substitute).
    """
    jks = joker_kind if isinstance(joker_kind, tuple) else (
        () if joker_kind is None else (joker_kind,))
    c = [int(x) for x in counts]
    caps_t = tuple(spec.copies) if caps is None else tuple(
        min(int(a), b) for a, b in zip(caps, spec.copies))
    kw = dict(caps=caps_t, n_melds=n_melds, spec=spec, meld_suits=meld_suits)
    s = shanten_counts(c, jokers=jokers, **kw)
    face = sub = None
    if stand_in is not None:
        face, sub, _ = stand_in
    better = set()
    for k in spec.kinds:
        if k == sub or (k in jks and k != face) or c[k] >= caps_t[k]:
            continue                # the substitute is drawn as the face; jokers below
        c[k] += 1
        if shanten_counts(c, jokers=jokers, **kw) < s:
            better.add(k)
        c[k] -= 1
    joker_better = (joker_draw_left(joker_kind, joker_copies, jokers)
                    and shanten_counts(c, jokers=jokers + 1, **kw) < s)
    return s, listed_draws(better, joker_better, c, caps_t, spec.copies, visible,
                           joker_kind, joker_copies, stand_in, jokers)


def joker_draw_left(joker_kind, joker_copies, jokers: int) -> bool:
    """Whether a joker can still be drawn: the wild kind is known and some wild copy is
    not held (at most 8 held)."""
    if joker_kind is None:
        return False
    total = sum(joker_copies) if isinstance(joker_kind, tuple) else joker_copies
    return jokers < min(8, total)


def listed_draws(better, joker_better: bool, counts, caps, copies, visible, joker_kind,
                 joker_copies, stand_in, jokers: int) -> dict:
    """The ukeire dict ``{kind: live}`` (a joker draw under ``-1``) from which draws lower
    the shanten: ``better`` the kinds whose draw does (the stand-in's face for a drawn
    substitute), ``joker_better`` a drawn joker does (and :func:`joker_draw_left`).  The
    live counts of :func:`ukeire_counts`; shared with ``efficiency``'s core route under
    known wild kinds (the compiled ``_core.shapes.ukeire_dict`` is the same in C).

    ``counts`` concealed real tiles, ``caps`` the copies left to the concealed hand,
    ``copies`` the tile set's (``copies - caps``: the copies in one's melds),
    ``visible`` None or (34,), ``jokers`` held, the other arguments as in
    :func:`ukeire_counts`."""
    two = isinstance(joker_kind, tuple)
    jks = joker_kind if two else (() if joker_kind is None else (joker_kind,))
    vis = [0] * 34 if visible is None else [int(x) for x in visible]
    out: dict = {}
    face = sub = None
    if stand_in is not None:
        face, sub, n_face = stand_in
    for k in range(34):
        if k in better and k != sub and k not in jks and copies[k]:
            out[k] = max(0, int(caps[k]) - int(counts[k]) - vis[k])
    if face is not None and face in better:
        held = int(counts[face]) + int(copies[face]) - int(caps[face])   # every one a stand-in
        out[sub] = max(0, n_face - held - vis[sub])
    if joker_better:            # the wild copies not held nor seen
        if two:                 # a visible wild-kind tile is a joker once its natural
            seen = sum(max(0, vis[k] - (int(copies[k]) - cp))       # copies are seen
                       for k, cp in zip(jks, joker_copies))
            out[-1] = max(0, sum(joker_copies) - jokers - seen)
        else:
            out[-1] = max(0, joker_copies - jokers - vis[joker_kind])
    return out


# ============================================================== the compiled engine
# majiang._core.shapes computes what form_shanten / shanten_counts / ukeire_counts
# compute (the same definition, from the core's per-group rows; tests/test_shapes_core.py
# checks equality on random hands).  The functions above stay the reference; the
# ruleset-level functions below use the compiled engine unless told engine="python".
ENGINES = ("auto", "core", "python")
"""``engine=`` values of the ruleset-level functions: ``"auto"`` / ``"core"`` the compiled
engine (:mod:`majiang._core.shapes`; a form it does not know falls back to this module),
``"python"`` the reference functions of this module."""


def _compiled(spec: Spec):
    cs = spec.compiled
    if cs is None:
        cs = spec.compiled = _cs.ShapeSpec(spec.forms, spec.quads, spec.copies, spec.void,
                                           spec.pair_258, spec.no_void, spec.three_jokers)
    return cs


def _u8(x):
    """``x`` as a uint8 (34,) array, or None when it is not counts 0..4 (then the Python
    engine decides, and raises what it raises)."""
    if type(x) is np.ndarray and x.dtype == np.uint8 and x.shape == (34,):
        a = x if x.flags.c_contiguous else np.ascontiguousarray(x)
        return a if a.max(initial=0) <= 4 else None
    try:
        a = np.asarray(x)
    except Exception:               # noqa: BLE001 - left to the Python engine's checks
        return None
    if a.shape != (34,) or a.dtype.kind not in "iub" or (a.size and (a.min() < 0
                                                                     or a.max() > 4)):
        return None
    return np.ascontiguousarray(a, dtype=np.uint8)


def _u8_visible(x):
    if x is None:
        return None
    a = np.asarray(x)
    if a.shape != (34,) or a.dtype.kind not in "iub" or (a.size and (a.min() < 0
                                                                     or a.max() > 255)):
        return False
    return np.ascontiguousarray(a, dtype=np.uint8)


def _meld_bits(meld_suits) -> int:
    return sum(1 << int(x) for x in set(meld_suits))


def _unknown_whole(cs, counts, jokers: int, n_melds: int) -> bool:
    """A form the compiled engine does not know would be computed (the Python engine raises)."""
    return cs.unknown_forms and n_melds == 0 and int(counts.sum()) + jokers in (13, 14)


def _via_compiled(run, reference, refused: bool):
    """``run()`` by the compiled engine, or ``reference()`` (the Python engine, which
    raises the proper error) when the input was refused before or by the compiled call
    (``ValueError``): the one fallback rule of the ``core_*`` functions."""
    if refused:
        return reference()
    try:
        return run()
    except ValueError:
        return reference()


def core_form_shanten(counts, *, jokers: int = 0, caps=None, n_melds: int = 0,
                      spec: Spec, meld_suits=()) -> dict:
    """:func:`form_shanten` by the compiled engine (equal results, same errors: a hand the
    compiled engine refuses is passed to :func:`form_shanten`, which raises)."""
    cs = _compiled(spec)
    c, k = _u8(counts), None if caps is None else _u8(caps)

    def run() -> dict:
        per = _cs.form_shanten(cs, c, int(jokers), k, int(n_melds), _meld_bits(meld_suits))
        return {f: int(per[_FORM_SLOT[f]]) for f in spec.forms + (THREE_JOKERS,)
                if f in _FORM_SLOT and per[_FORM_SLOT[f]] != -100}

    return _via_compiled(run, lambda: form_shanten(
        counts, jokers=jokers, caps=caps, n_melds=n_melds, spec=spec, meld_suits=meld_suits),
        c is None or (caps is not None and k is None) or _unknown_whole(cs, c, jokers, n_melds))


def core_shanten_counts(counts, *, jokers: int = 0, caps=None, n_melds: int = 0,
                        spec: Spec, meld_suits=()) -> int:
    """:func:`shanten_counts` by the compiled engine (see :func:`core_form_shanten`)."""
    cs = _compiled(spec)
    c, k = _u8(counts), None if caps is None else _u8(caps)
    return _via_compiled(
        lambda: _cs.shanten(cs, c, int(jokers), k, int(n_melds), _meld_bits(meld_suits)),
        lambda: shanten_counts(counts, jokers=jokers, caps=caps, n_melds=n_melds, spec=spec,
                               meld_suits=meld_suits),
        c is None or (caps is not None and k is None) or _unknown_whole(cs, c, jokers, n_melds))


def core_ukeire_counts(counts, *, jokers: int = 0, caps=None, n_melds: int = 0, spec: Spec,
                       visible=None, joker_kind=None, joker_copies=4, meld_suits=(),
                       stand_in: tuple | None = None) -> tuple[int, dict]:
    """:func:`ukeire_counts` by the compiled engine: ``(shanten, {kind: live})``, a helpful
    joker draw under ``-1`` (equal results; a hand the compiled engine refuses goes to
    :func:`ukeire_counts`)."""
    cs = _compiled(spec)
    c, k, v = _u8(counts), None if caps is None else _u8(caps), _u8_visible(visible)
    return _via_compiled(
        lambda: _cs.ukeire(cs, c, int(jokers), k, int(n_melds), _meld_bits(meld_suits), v,
                           joker_kind, joker_copies, stand_in),
        lambda: ukeire_counts(counts, jokers=jokers, caps=caps, n_melds=n_melds, spec=spec,
                              visible=visible, joker_kind=joker_kind,
                              joker_copies=joker_copies, meld_suits=meld_suits,
                              stand_in=stand_in),
        c is None or (caps is not None and k is None) or v is False
        or (int(c.sum()) + jokers) % 3 != 1 or _unknown_whole(cs, c, jokers + 1, n_melds))


def core_shanten_batch(counts: np.ndarray, jokers, spec: Spec) -> np.ndarray:
    """Shanten of every row of a C-contiguous uint8 (N, 34) batch (no melds) with
    ``jokers`` (None or uint8 (N,)) under `spec`: int8 (N,).

    Raises
    ------
    InvalidHandError
        Naming the first bad row (a count above the tile set's copies, a bad size).
    """
    cs = _compiled(spec)
    n = counts.shape[0]
    out16 = np.empty(n, np.int16)
    if cs.unknown_forms:
        bad = 0 if n else -1
    else:
        bad = _cs.shanten_many(cs, counts, jokers, out16)
    rows = range(n) if cs.unknown_forms else ([bad] if bad >= 0 else [])
    for i in rows:                  # the Python engine words the error (or computes)
        try:
            out16[i] = shanten_counts(counts[i], jokers=0 if jokers is None else int(jokers[i]),
                                      spec=spec)
        except InvalidHandError as e:
            raise InvalidHandError(f"row {i}: {e}") from None
        if not cs.unknown_forms:
            raise InvalidHandError(f"row {i}: not a hand the shape engine accepts")
    return out16.astype(np.int8)


_FORM_SLOT = {f: i for i, f in enumerate(_cs.FORM_ORDER)}


# ============================================================== joker decompositions
def _groups_of_jokers(j: int, sets_left: int, need_pair: bool, kinds: tuple):
    """Every multiset of joker-only groups: yields (pair or None, [sets], [assigned kinds])."""
    if j != 3 * sets_left + 2 * need_pair:
        return
    set_types = [("pung", k) for k in kinds] + [
        ("chow", k) for k in kinds if k < 27 and k % 9 <= 6 and k + 1 in kinds and k + 2 in kinds]
    pairs = list(kinds) if need_pair else [None]
    for p in pairs:
        for combo in combinations_with_replacement(range(len(set_types)), sets_left):
            sets = [set_types[i] for i in combo]
            assigned = []
            if p is not None:
                assigned += [p, p]
            for kind, t in sets:
                assigned += [t] * 3 if kind == "pung" else [t, t + 1, t + 2]
            yield p, sets, assigned


def _regular_joker_dec(c: list, j: int, n_sets: int, kinds: tuple, out: set,
                       assigned: list, sets: list, pair) -> None:
    i = next((k for k in range(34) if c[k]), None)
    sets_left = n_sets - len(sets)
    if i is None:
        for p, more, asg in _groups_of_jokers(j, sets_left, pair is None, kinds):
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
                                   assigned + [i] * (3 - r), sets + [("pung", i)], pair)
                c[i] += r
    # pair of i
    if pair is None:
        for r in range(1, min(2, ci) + 1):
            if 2 - r <= j:
                c[i] -= r
                _regular_joker_dec(c, j - (2 - r), n_sets, kinds, out,
                                   assigned + [i] * (2 - r), sets, i)
                c[i] += r
    # chows holding one real i; tiles below i are jokers, tiles above real or joker
    if sets_left and i < 27:
        rank = i % 9
        for start in (i - 2, i - 1, i):
            if start < 9 * (i // 9) or start % 9 > 6 or not all(
                    t in kinds for t in (start, start + 1, start + 2)):
                continue
            others = [t for t in (start, start + 1, start + 2) if t != i]
            below = [t for t in others if t < i]
            above = [t for t in others if t > i]
            for real_above in product((False, True), repeat=len(above)):
                if any(ra and not c[t] for ra, t in zip(real_above, above)):
                    continue
                jk = below + [t for ra, t in zip(real_above, above) if not ra]
                if len(jk) > j:
                    continue
                c[i] -= 1
                for ra, t in zip(real_above, above):
                    if ra:
                        c[t] -= 1
                _regular_joker_dec(c, j - len(jk), n_sets, kinds, out, assigned + jk,
                                   sets + [("chow", start)], pair)
                c[i] += 1
                for ra, t in zip(real_above, above):
                    if ra:
                        c[t] += 1
        del rank


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


def joker_decompositions(counts, jokers: int, *, n_melds: int = 0, caps=None,
                         forms=("regular", "seven_pairs"), quads: bool = False,
                         kinds=None, fifth_copy: bool = False) -> list[tuple[tuple, Decomposition]]:
    """Every decomposition of real tiles + jokers, each joker assigned a kind.

    Returns ``[(assignment, Decomposition)]``: ``assignment`` is the sorted tuple of
    kinds the jokers stand for; only kinds that complete a set or the pair are ever
    tried (a joker next to real tiles fills its set; jokers left alone form whole
    sets or the pair of any kind).  Equal to replacing the jokers by every multiset
    of kinds and decomposing (tested against that brute force).

    ``caps`` (copies available to the concealed hand; default 4 each, or the
    kinds given) bounds real + assigned copies unless `fifth_copy`.
    """
    c = [int(x) for x in counts]
    kinds = tuple(range(34)) if kinds is None else tuple(sorted(kinds))
    cap = [4] * 34 if caps is None else [int(x) for x in caps]
    n = sum(c) + jokers
    if n % 3 != 2:
        raise InvalidHandError(f"decompositions need 3n+2 concealed tiles, got {n}")
    n_sets = (n - 2) // 3
    raw: set = set()
    if "regular" in forms:
        _regular_joker_dec(list(c), jokers, n_sets, kinds, raw, [], [], None)
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


# ============================================================== ruleset-level API
def meld_suits(melds) -> frozenset:
    """The suits (0 万, 1 筒, 2 条) held in these melds."""
    return frozenset(t // 9 for m in melds for t in m.tiles if t < 27)


def needs_python(rs) -> bool:
    """Whether shanten/ukeire under `rs` need this module's shape engine (compiled by
    default, see :data:`ENGINES`), else the core's own options suffice."""
    return (bool(SHAPE_CONSTRAINTS & set(rs.constraints))
            or any(f in EXTRA_FORMS for f in rs.forms)
            or rs.tile_set not in ("136", "144")
            or three_jokers_win(rs))


def _hand_parts(hand, jokers: int, rs):
    """(Hand, caps left by the melds, jokers held in all) of a hand under `rs`.  Text or a
    Hand must be a full hand of ``rs.hand_size`` (13: 13 / 14 tiles counting melds and
    jokers), as on the core routes (``efficiency._prepare``); a bare count vector may be
    a partial hand.  ``jokers`` (the keyword) join the text's own ``*`` before any check."""
    if isinstance(hand, str) and jokers:
        hand, jokers = hand + " " + "*" * jokers, 0
    if isinstance(hand, (str, Hand)):
        h = as_hand(hand, strict=False)
        _check_total(h.n_concealed + h.jokers + jokers, len(h.melds), rs.hand_size)
    else:
        h = as_hand(np.asarray(hand), strict=False)
    caps = [rs.copies[k] for k in range(34)]
    for m in h.melds:
        for t in m.tiles:
            caps[t] -= 1
    if min(caps) < 0:
        k = int(np.argmin(caps))
        raise InvalidHandError(f"melds hold more {tile_name(k)} than ruleset {rs.name} has")
    bad = [k for k in range(34) if h.concealed[k] and rs.copies[k] == 0]
    bad += [m.tile for m in h.melds if rs.copies[m.tile] == 0]
    if bad:
        raise InvalidHandError(f"{tile_name(bad[0])} is not in the tile set of ruleset "
                               f"{rs.name} ({rs.tiles})")
    return h, tuple(caps), jokers + h.jokers


def _check_engine(engine: str) -> bool:
    """True for the compiled engine."""
    if engine not in ENGINES:
        raise RuleError(f"engine must be one of {ENGINES}, got {engine!r}")
    return engine != "python"




_spec = per_ruleset(spec_of)
""":func:`spec_of`, kept per ruleset object (its compiled form is made once)."""


def ruleset_shanten(hand, rs, *, jokers: int = 0, per_form: bool = False,
                    engine: str = "auto"):
    """Shanten of a hand under ruleset `rs` (constraints, extra forms, tile set, jokers):
    an int, or ``{form: shanten}`` with `per_form` (:func:`form_shanten`).  `engine`:
    :data:`ENGINES` (the compiled engine by default; ``"python"`` the reference)."""
    fs = core_form_shanten if _check_engine(engine) else form_shanten
    h, caps, j = _hand_parts(hand, jokers, rs)
    per = fs(h.concealed, jokers=j, caps=caps, n_melds=len(h.melds), spec=_spec(rs),
             meld_suits=meld_suits(h.melds))
    return per if per_form else min(per.values())


def _joker_kind(rs, indicator):
    """The wild kind (int), the wild kinds (tuple) with two kinds, or None (unknown)."""
    if rs.jokers is None:
        return None
    if rs.jokers.source == "fixed" and rs.jokers.second is None:
        return rs.jokers.fixed
    if indicator is None and rs.jokers.source != "fixed":
        return None
    return rs.jokers.kinds(indicator) if rs.jokers.second else rs.joker_kind(indicator)


def _joker_copies(rs):
    if rs.jokers is None:
        return 4
    return rs.jokers.kind_copies if rs.jokers.second else rs.jokers.copies


def _joker_key(jk) -> str:
    """``"6m*"`` for one wild kind, ``"9p1p*"`` for two (正精 then 副精)."""
    return "".join(tile_name(k) for k in (jk if isinstance(jk, tuple) else (jk,))) + "*"


def stand_in(rs, indicator=None) -> tuple | None:
    """``(face, substitute, copies)`` when a substitute kind stands in for the joker
    kind's natural tile under `rs` and this `indicator` (安庆 红中; 温州, 上海百搭 活动百搭,
    杭州 flip: 白板): ``face`` the joker kind, ``substitute`` the stand-in kind,
    ``copies`` the face's drawable copies in a fresh wall (:meth:`GameModel.wall`: the
    stand-ins, a turned stand-in (安庆 红中 turned) already set apart; the analyses add
    :meth:`GameModel.set_apart` to ``visible``, so it is not taken off twice).  None without a substitute, when the joker kind is unknown (no
    indicator), or when the substitute is itself the joker kind (温州 with 白板 turned)."""
    jr = rs.jokers
    if jr is None or jr.substitute is None or jr.second is not None:
        return None
    if jr.source != "fixed" and indicator is None:
        return None
    face = jr.kind(indicator)
    if face == jr.substitute:
        return None
    from .base import _kind
    from .model import game_model
    n = int(game_model(rs).wall(indicator).counts[face])
    if jr.source == "next" and _kind(indicator) == jr.substitute:
        n += 1      # the face-up stand-in: counted once, through the visible tiles
    return (int(face), int(jr.substitute), n) if n > 0 else None


def _seen(rs, visible, indicator):
    """``visible`` plus the indicator the game model sets apart
    (:meth:`majiang.rules.model.GameModel.set_apart`)."""
    if indicator is None or rs.jokers is None:
        return visible
    from .model import game_model
    return game_model(rs).seen_with_indicator(visible, indicator)


def ruleset_ukeire(hand, rs, visible=None, *, jokers: int = 0, indicator=None,
                   engine: str = "auto") -> dict:
    """``{tile: live}`` under `rs`; a helpful joker draw is keyed ``"<joker kind>*"``, a
    helpful stand-in draw (:func:`stand_in`) by the substitute's own name (``"5z"``).
    `engine`: :data:`ENGINES` (the compiled engine by default)."""
    uk = core_ukeire_counts if _check_engine(engine) else ukeire_counts
    h, caps, j = _hand_parts(hand, jokers, rs)
    n = h.n_concealed + j
    if n % 3 != 1:
        raise InvalidHandError(f"ukeire needs a hand waiting for a draw (3n+1 tiles), got {n}; "
                               "for a hand that must discard use discard_table()")
    visible = _seen(rs, visible, indicator)     # the turned indicator is set apart
    vis = None if visible is None else visible_counts(visible, h)
    jk = _joker_kind(rs, indicator)
    _, live = uk(h.concealed, jokers=j, caps=caps, n_melds=len(h.melds),
                 meld_suits=meld_suits(h.melds), spec=_spec(rs), visible=vis, joker_kind=jk,
                 joker_copies=_joker_copies(rs), stand_in=stand_in(rs, indicator))
    return named_draws(live, jk)


def named_draws(live: dict, joker_kind) -> dict:
    """``{kind: live}`` (a joker draw under -1) as ``{tile: live}`` in tile order, the
    joker draw last under ``"<joker kind>*"`` (:func:`_joker_key`)."""
    out = {tile_name(k): v for k, v in sorted(live.items()) if k >= 0}
    if -1 in live:
        out[_joker_key(joker_kind)] = live[-1]
    return out


def ruleset_discard_table(hand, rs, visible=None, *, jokers: int = 0, indicator=None,
                          engine: str = "auto"):
    """One row per distinct discard (jokers are kept), as :func:`majiang.discard_table`;
    the ``improvement`` column is NaN (not computed under regional shape rules).
    `engine`: :data:`ENGINES` (the compiled engine by default)."""
    import pandas as pd
    compiled = _check_engine(engine)
    h, caps, j = _hand_parts(hand, jokers, rs)
    n = h.n_concealed + j
    if n % 3 != 2 or n > 17:
        raise InvalidHandError(f"a discard table needs a hand that must discard (3n+2 tiles, "
                               f"at most 17), got {n}; for a hand waiting for a draw use "
                               "ukeire()")
    visible = _seen(rs, visible, indicator)     # the turned indicator is set apart
    vis = np.zeros(34, np.int64) if visible is None else visible_counts(visible, h).astype(
        np.int64)
    spec = _spec(rs)
    jk = _joker_kind(rs, indicator)
    si = stand_in(rs, indicator)
    per = None
    if compiled:
        cs = _compiled(spec)
        c8, k8, v8 = _u8(h.concealed), _u8(caps), _u8_visible(vis)
        if (c8 is not None and k8 is not None and v8 is not False
                and not _unknown_whole(cs, c8, j, len(h.melds))):
            try:
                per = _cs.discard_ukeire(cs, c8, j, k8, len(h.melds),
                                         _meld_bits(meld_suits(h.melds)), v8, jk,
                                         _joker_copies(rs), si)
            except ValueError:      # refused (a count above its cap): the reference raises
                per = None
    if per is None:
        per = []
        c = h.concealed.astype(np.int64)
        for d in range(34):
            if not c[d]:
                continue
            c[d] -= 1
            v = vis.copy()
            # the discard is seen (a held face tile of the joker kind is a stand-in: the
            # discarded tile is the substitute)
            v[si[1] if si is not None and d == si[0] else d] += 1
            s, live = ukeire_counts(c, jokers=j, caps=caps, n_melds=len(h.melds), spec=spec,
                                    meld_suits=meld_suits(h.melds), visible=v, joker_kind=jk,
                                    joker_copies=_joker_copies(rs), stand_in=si)
            c[d] += 1
            per.append((d, s, live))
    rows = []
    for d, s, live in per:
        eff = np.zeros(34, np.uint8)
        for k in live:
            if k >= 0:
                eff[k] = 1
        text = format_counts(eff) + ("*" if -1 in live else "")
        rows.append({"discard": tile_name(d), "shanten": int(s), "ukeire_kinds": len(live),
                     "ukeire_count": int(sum(live.values())), "ukeire": text,
                     "improvement": float("nan")})
    return pd.DataFrame(rows, columns=["discard", "shanten", "ukeire_kinds", "ukeire_count",
                                       "ukeire", "improvement"])

"""The compiled shape engine (:mod:`majiang._core.shapes`) behind the reference's
signatures: :func:`core_form_shanten`, :func:`core_shanten_counts`,
:func:`core_ukeire_counts` and :func:`core_shanten_batch`, with equal results and the
reference's errors (a hand the compiled engine refuses is passed to the reference).
"""
from __future__ import annotations

import numpy as np

from ...errors import InvalidHandError
from ..._core import shapes as _cs
from .forms import EXTRA_FORM_KEPT
from .reference import form_shanten, shanten_counts, ukeire_counts
from .spec import THREE_JOKERS, Spec

__all__ = ["ENGINES", "core_form_shanten", "core_shanten_counts", "core_ukeire_counts",
           "core_shanten_batch"]


# majiang._core.shapes computes what form_shanten / shanten_counts / ukeire_counts
# compute (the same definition, from the core's per-group rows; tests/test_shapes.py
# checks equality on random hands).  Those (.reference) stay the reference; the
# ruleset-level functions (.ruleset) use the compiled engine unless told engine="python".
ENGINES = ("auto", "core", "python")
"""``engine=`` values of the ruleset-level functions: ``"auto"`` / ``"core"`` the compiled
engine (:mod:`majiang._core.shapes`; a form it does not know falls back to the
reference), ``"python"`` the reference functions (:mod:`.reference`)."""


def _compiled(spec: Spec):
    cs = spec.compiled
    if cs is None:
        forms = tuple(f for f in spec.forms if f not in _BESIDE)
        cs = spec.compiled = _cs.ShapeSpec(forms, spec.quads, spec.copies, spec.void,
                                           spec.pair_258, spec.no_void, spec.three_jokers,
                                           spec.honor_chows)
    return cs


_BESIDE = ("eight_pairs",)
"""Forms computed beside the compiled engine by the reference's closed form (温州 八对:
:func:`~.forms.eight_pairs_kept`, O(34)): the compiled call answers the other forms and
the least is taken."""


def _beside(spec: Spec, counts, jokers: int, caps, n_melds: int) -> dict:
    """``{form: shanten}`` of the spec's forms in :data:`_BESIDE` that can apply to this
    hand (no melds, 16 or 17 tiles with the jokers), by the reference; {} otherwise."""
    try:
        n = sum(int(x) for x in counts) + int(jokers)
    except (TypeError, ValueError):
        return {}
    if not beside_applies(spec, n, n_melds):
        return {}
    sub = _beside_spec(spec, tuple(f for f in spec.forms if f in _BESIDE))
    return form_shanten(counts, jokers=jokers, caps=caps, spec=sub)


def beside_applies(spec: Spec, n_tiles: int, n_melds: int) -> bool:
    """Whether a form of :data:`_BESIDE` can apply to a hand of ``n_tiles`` concealed tiles
    (jokers included) and ``n_melds`` melds under ``spec`` (then a compiled call alone does
    not answer: :func:`_beside`)."""
    return not n_melds and n_tiles in (16, 17) and any(f in _BESIDE for f in spec.forms)


def _beside_spec(spec: Spec, forms: tuple) -> Spec:
    key = (id(spec), forms)
    got = _BESIDE_SPECS.get(key)
    if got is None or got[0] is not spec:
        got = _BESIDE_SPECS[key] = (spec, Spec(forms, spec.quads, spec.copies, spec.void,
                                               spec.pair_258, spec.no_void, spec.fifth,
                                               False, spec.dead, spec.honor_chows))
    return got[1]


_BESIDE_SPECS: dict = {}


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


def _dead_held(counts, spec: Spec) -> int:
    """Tiles of ``spec.dead`` kinds held (安庆 杠牌, 武汉 红中), 0 when none or when the
    compiled engine cannot take them as jokers (a fifth-copy joker rule)."""
    if not spec.dead or spec.fifth:
        return 0
    try:
        return sum(int(counts[k]) for k in spec.dead)
    except (TypeError, IndexError, ValueError):
        return 0


def _dead_form_shanten(counts, jokers: int, caps, n_melds: int, spec: Spec, meld_suits,
                       d: int) -> dict:
    """:func:`form_shanten` of a hand holding ``d`` tiles of dead kinds, by the compiled
    engine (which refuses dead kinds): the dead tiles are passed as ``d`` more jokers.
    Shanten is ``need - kept - jokers - 1`` with ``kept`` the hand's real tiles a target
    keeps, which does not depend on the jokers, and a dead tile is never kept; so every
    form that uses jokers gives ``d`` less than the truth and gets ``d`` back (it cannot
    have been cut at -1: ``kept`` is at most the ``n - d - jokers`` live real tiles, so
    the true value is at least ``d - 1``), while the extra forms, which use no jokers
    (a joker there is a tile to replace, as a dead one), are exact as computed."""
    c = np.array(counts, dtype=np.uint8)
    c[list(spec.dead)] = 0
    per = core_form_shanten(c, jokers=jokers + d, caps=caps, n_melds=n_melds, spec=spec,
                            meld_suits=meld_suits)
    out = {}
    for f, v in per.items():
        if f == THREE_JOKERS:
            n = int(c.sum()) + jokers + d
            out[f] = max(-1 if n % 3 == 2 else 0, spec.three_jokers - 1 - jokers)
        else:
            out[f] = v if v >= 99 or f in EXTRA_FORM_KEPT else v + d
    return out


def core_form_shanten(counts, *, jokers: int = 0, caps=None, n_melds: int = 0,
                      spec: Spec, meld_suits=()) -> dict:
    """:func:`form_shanten` by the compiled engine (equal results, same errors: a hand the
    compiled engine refuses is passed to :func:`form_shanten`, which raises)."""
    d = _dead_held(counts, spec)
    if d and int(jokers) + d <= 17:
        try:
            return _dead_form_shanten(counts, int(jokers), caps, n_melds, spec, meld_suits, d)
        except (ValueError, InvalidHandError):      # the reference words the error
            return form_shanten(counts, jokers=jokers, caps=caps, n_melds=n_melds,
                                spec=spec, meld_suits=meld_suits)
    cs = _compiled(spec)
    c, k = _u8(counts), None if caps is None else _u8(caps)

    def run() -> dict:
        per = _cs.form_shanten(cs, c, int(jokers), k, int(n_melds), _meld_bits(meld_suits))
        out = {f: int(per[_FORM_SLOT[f]]) for f in spec.forms + (THREE_JOKERS,)
               if f in _FORM_SLOT and per[_FORM_SLOT[f]] != -100}
        out.update(_beside(spec, counts, jokers, caps, n_melds))
        for f in spec.forms:
            if f in _BESIDE:
                out.setdefault(f, 99)       # not applicable to this hand (as the reference)
        return out

    return _via_compiled(run, lambda: form_shanten(
        counts, jokers=jokers, caps=caps, n_melds=n_melds, spec=spec, meld_suits=meld_suits),
        c is None or (caps is not None and k is None) or _unknown_whole(cs, c, jokers, n_melds))


def core_shanten_counts(counts, *, jokers: int = 0, caps=None, n_melds: int = 0,
                        spec: Spec, meld_suits=()) -> int:
    """:func:`shanten_counts` by the compiled engine (see :func:`core_form_shanten`)."""
    if _dead_held(counts, spec):
        per = core_form_shanten(counts, jokers=jokers, caps=caps, n_melds=n_melds, spec=spec,
                                meld_suits=meld_suits)
        return min(per.values()) if per else 99
    cs = _compiled(spec)
    c, k = _u8(counts), None if caps is None else _u8(caps)

    def run() -> int:
        s = _cs.shanten(cs, c, int(jokers), k, int(n_melds), _meld_bits(meld_suits))
        return min([s, *_beside(spec, counts, jokers, caps, n_melds).values()])

    return _via_compiled(
        run,
        lambda: shanten_counts(counts, jokers=jokers, caps=caps, n_melds=n_melds, spec=spec,
                               meld_suits=meld_suits),
        c is None or (caps is not None and k is None) or _unknown_whole(cs, c, jokers, n_melds))


def core_ukeire_counts(counts, *, jokers: int = 0, caps=None, n_melds: int = 0, spec: Spec,
                       visible=None, joker_kind=None, joker_copies=4, meld_suits=(),
                       stand_in: tuple | None = None) -> tuple[int, dict]:
    """:func:`ukeire_counts` by the compiled engine: ``(shanten, {kind: live})``, a helpful
    joker draw under ``-1`` (equal results; a hand the compiled engine refuses goes to
    :func:`ukeire_counts`; one holding a dead kind to its loop over the draws, each
    shanten by :func:`core_shanten_counts`)."""
    if _dead_held(counts, spec) or _beside(spec, counts, jokers, caps, n_melds):
        # (a form beside the compiled engine: the reference's loop over the draws, each
        # shanten by core_shanten_counts)
        return ukeire_counts(counts, jokers=jokers, caps=caps, n_melds=n_melds, spec=spec,
                             visible=visible, joker_kind=joker_kind, joker_copies=joker_copies,
                             meld_suits=meld_suits, stand_in=stand_in,
                             _shanten=core_shanten_counts)
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
    if spec.dead and n:
        hold = counts[:, list(spec.dead)].any(1)
        if hold.any():          # rows holding a dead kind: the reference (the compiled
            return _batch_with_dead(counts, jokers, spec, hold)   # engine refuses them)
    out16 = np.empty(n, np.int16)
    if cs.unknown_forms:
        bad = 0 if n else -1
    else:
        bad = _cs.shanten_many(cs, counts, jokers, out16)
        if bad < 0 and any(f in _BESIDE for f in spec.forms):
            for i in range(n):      # 八对 rows (16 / 17 tiles): the least with the closed form
                b = _beside(spec, counts[i], 0 if jokers is None else int(jokers[i]), None, 0)
                if b:
                    out16[i] = min(int(out16[i]), *b.values())
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


def _batch_with_dead(counts: np.ndarray, jokers, spec: Spec, hold: np.ndarray) -> np.ndarray:
    """:func:`core_shanten_batch` of a batch some of whose rows (``hold``) hold a kind of
    ``spec.dead``: those rows one by one (:func:`core_shanten_counts`), the others in one
    compiled call; errors name the row of the whole batch."""
    out = np.empty(counts.shape[0], np.int8)
    rest = np.flatnonzero(~hold)
    for i in range(counts.shape[0]):
        if not hold[i]:
            continue
        try:
            out[i] = core_shanten_counts(counts[i],
                                         jokers=0 if jokers is None else int(jokers[i]),
                                         spec=spec)
        except InvalidHandError as e:
            raise InvalidHandError(f"row {i}: {e}") from None
    if rest.size:
        sub = np.ascontiguousarray(counts[rest])
        sj = None if jokers is None else np.ascontiguousarray(jokers[rest])
        try:
            out[rest] = core_shanten_batch(sub, sj, spec)
        except InvalidHandError as e:
            msg = str(e)
            j = int(msg.split(":", 1)[0].split()[1])
            raise InvalidHandError(f"row {int(rest[j])}:{msg.split(':', 1)[1]}") from None
    return out


_FORM_SLOT = {f: i for i, f in enumerate(_cs.FORM_ORDER)}

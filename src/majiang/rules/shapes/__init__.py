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
(tests/test_shapes.py); the ruleset-level functions use it unless given
``engine="python"``.  A form the compiled engine does not know falls back to the
reference.

Extension point: :data:`EXTRA_FORM_KEPT` maps each extra form name to
``kept(counts, caps, jokers) -> int | None`` (tiles of the hand that can stay;
jokers are added by the caller when the form may use them); register a new form
there and in :data:`majiang.rules.base.EXTRA_FORMS` (and, for core speed, as a closed
form in ``_core/shapes.pyx``; until then that form is computed by the reference).

The package is split by concept: :mod:`.spec` (what the engine reads from a ruleset),
:mod:`.forms` (the reference per form), :mod:`.reference` (the reference shanten and
ukeire), :mod:`.compiled` (the ``core_*`` functions), :mod:`.decompositions` (joker
decompositions) and :mod:`.ruleset` (the ruleset-level functions); every name is
importable from ``majiang.rules.shapes``.
"""
from __future__ import annotations

from .compiled import (ENGINES, core_form_shanten, core_shanten_batch, core_shanten_counts,
                       core_ukeire_counts)
from .decompositions import joker_assignments, joker_decompositions
from .forms import EXTRA_FORM_KEPT, lonely_patterns
from .reference import form_shanten, shanten_counts, ukeire_counts
from .ruleset import melds_as_face, stand_in
from .spec import THREE_JOKERS, Spec, spec_of, three_jokers_win

# the ruleset-level functions and the helpers efficiency, scoring and the tests import
# from here (outside __all__, as before the split)
from ..._core import shapes as _cs  # noqa: F401
from .compiled import _BESIDE, _FORM_SLOT, _compiled, _meld_bits  # noqa: F401
from .forms import _NEG, _lonely_kept, _regular_kept  # noqa: F401
from .reference import joker_draw_left, listed_draws  # noqa: F401
from .ruleset import (_hand_parts, _spec, meld_suits, named_draws, needs_python,  # noqa: F401
                      own_face_forms,
                      ruleset_discard_table, ruleset_shanten, ruleset_ukeire)

__all__ = ["Spec", "spec_of", "shanten_counts", "form_shanten", "ukeire_counts",
           "joker_decompositions", "joker_assignments",
           "lonely_patterns", "EXTRA_FORM_KEPT", "THREE_JOKERS",
           "three_jokers_win", "stand_in", "melds_as_face", "core_form_shanten", "core_shanten_counts",
           "core_ukeire_counts", "core_shanten_batch", "ENGINES"]

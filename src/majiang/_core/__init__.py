"""Compiled kernels (Cython).  They know no ruleset: callers pass plain options built
from the rule spec (:class:`majiang.rules.model.RuleSpec`, its
:class:`~majiang.rules.model.ShapeOptions`)."""

FORM_BITS = {
    "regular": 1,
    "seven_pairs": 2,
    "thirteen_orphans": 4,
    "honors_and_knitted": 8,
    "knitted_straight": 16,
}
"""The winning forms the shanten core computes, with their bit in its form mask (the
``FORM_*`` constants of ``_core/efficiency.pxd``); the one Python copy of those bits."""

WHOLE_HAND_FORMS = 2 | 4 | 8
"""Form bits that need the whole hand concealed (seven pairs, thirteen orphans,
honours-and-knitted): off for a hand with melds (``WHOLE_HAND_FORMS`` of the .pxd)."""

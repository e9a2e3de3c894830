"""What the shape engine needs from a ruleset: :class:`Spec` (:func:`spec_of`) and the
shape-free three-joker win (:func:`three_jokers_win`).  Reads the ruleset only; imports
nothing of the engines, so the game model can ask it without a cycle.
"""
from __future__ import annotations

__all__ = ["Spec", "spec_of", "THREE_JOKERS", "three_jokers_win"]


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
    distance to a third joker (:func:`~majiang.rules.shapes.form_shanten`), so these
    rulesets are computed by the shape engine (:func:`~majiang.rules.shapes.needs_python`)."""
    return bool(rs.jokers is not None and rs.jokers.total_copies >= 3
                and THREE_JOKERS in tuple(rs.options.get("special_wins", ()) or ()))


def spec_of(rs) -> Spec:
    """The shape spec of a :class:`~majiang.rules.Ruleset` (constraints that shape wins,
    the three-joker win)."""
    cons = set(rs.constraints)
    return Spec(rs.forms, rs.seven_pairs_quads, rs.copies, "void_suit" in cons,
                "pair_258" in cons, "no_void" in cons,
                bool(rs.jokers and rs.jokers.fifth_copy), three_jokers_win(rs))

"""What the shape engine needs from a ruleset: :class:`Spec`, made by :func:`spec_of` from
the rule spec (:class:`~majiang.rules.model.RuleSpec`: nothing here reads the ruleset's
constraints or options), and the shape-free three-joker win (:func:`three_jokers_win`).
"""
from __future__ import annotations

from ..model import THREE_JOKERS, rule_spec

__all__ = ["Spec", "spec_of", "THREE_JOKERS", "three_jokers_win"]


class Spec:
    """What the shape engine needs from a ruleset (cached per ruleset by the engine):
    ``forms`` (every winning form, extra forms included), ``quads``, ``copies`` (tile-set
    copies, 34 ints), ``void`` (缺一门), ``pair_258`` (二五八将), ``no_void`` (every suit
    held), ``fifth`` (a joker may be a fifth copy), ``three_jokers`` (the jokers held that
    win at once: 3 for 三金倒 / 三财神, 4 for 四鬼胡, 0 for none; True means 3),
    ``dead`` (kinds a complete hand never holds concealed — 武汉 红中, 安庆 杠牌: a held
    one counts toward the hand's size and is never kept; ``copies`` gives them 0, so no
    target holds them), ``honor_chows`` (three different winds or the three dragons are
    a set too: :attr:`RuleSpec.honor_chows <majiang.rules.model.RuleSpec.honor_chows>`,
    南昌), ``kinds`` (the kinds a target may hold) and ``compiled`` (its
    :class:`majiang._core.shapes.ShapeSpec`, made on first use; a hand holding a dead
    kind reaches it with those tiles as jokers, :func:`.compiled._dead_form_shanten`).  Build it with
    :func:`spec_of`; tests may build one by hand."""

    __slots__ = ("forms", "quads", "copies", "void", "pair_258", "no_void", "fifth", "kinds",
                 "three_jokers", "dead", "honor_chows", "compiled")

    def __init__(self, forms, quads=False, copies=(4,) * 34, void=False, pair_258=False,
                 no_void=False, fifth=False, three_jokers=False, dead=(),
                 honor_chows=False) -> None:
        self.forms = tuple(forms)
        self.quads = bool(quads)
        self.dead = tuple(sorted(set(int(k) for k in dead)))
        self.copies = tuple(0 if k in self.dead else int(x) for k, x in enumerate(copies))
        self.void = bool(void)
        self.pair_258 = bool(pair_258)
        self.no_void = bool(no_void)
        self.fifth = bool(fifth)
        self.three_jokers = 3 if three_jokers is True else int(three_jokers)
        self.honor_chows = bool(honor_chows)
        self.kinds = tuple(k for k in range(34) if self.copies[k])
        self.compiled = None          # its _core.shapes.ShapeSpec, made on first use


def three_jokers_win(rs) -> bool:
    """Whether holding a count of jokers (three: 三金倒 / 三财神; four: 四鬼胡, count
    :attr:`RuleSpec.jokers_to_win <majiang.rules.model.RuleSpec.jokers_to_win>`) wins at
    once on a self-draw, whatever the other tiles:
    :attr:`RuleSpec.three_jokers_win <majiang.rules.model.RuleSpec.three_jokers_win>` of
    ``rs`` (a ruleset or its name)."""
    return rule_spec(rs).three_jokers_win


def spec_of(rs) -> Spec:
    """The shape spec of a ruleset (a :class:`~majiang.rules.Ruleset`, a name or a
    :class:`~majiang.rules.model.RuleSpec`), read from its rule spec: forms, the
    seven-pairs quad option, tile-set copies, 缺一门 / 二五八将 / every-suit rules,
    the fifth-copy joker, the three-joker win, the kinds never held at a win
    (:attr:`~majiang.rules.model.RuleSpec.banned_kinds`) and the honour chows
    (:attr:`~majiang.rules.model.RuleSpec.honor_chows`)."""
    m = rule_spec(rs)
    return Spec(m.forms, m.seven_pairs_quads, m.copies.tolist(), m.void_suit,
                m.pair_kinds is not None, m.no_void, m.fifth_copy, m.jokers_to_win,
                m.banned_kinds, m.honor_chows)

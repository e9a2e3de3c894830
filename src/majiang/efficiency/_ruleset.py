"""Ruleset to route: the winning forms and their core mask, the ruleset a call uses
(the default, a name, narrowed by ``forms=``), and how its shanten is computed (the plain
core, the core with shape options, the 2-5-8 families, or the shape engine of
:mod:`majiang.rules.shapes`), read once per ruleset (:class:`_Rule`)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._core import FORM_BITS
from .._memo import per_ruleset
from ..errors import RuleError

FORMS = FORM_BITS
"""Winning forms the core knows, with their bit in the core's form mask
(:data:`majiang._core.FORM_BITS`)."""

DEFAULT_FORMS = ("regular", "seven_pairs", "thirteen_orphans")
"""The forms of the ``"plain"`` ruleset (riichi-style: seven distinct pairs).  Not the
default: ``ruleset=None`` is Chinese Official rules (see the module notes)."""


_MASKS: dict[Any, int] = {}


def form_mask(forms: Sequence[str] | str) -> int:
    """Bit mask of the core for a sequence of form names.

    Raises
    ------
    RuleError
        For an unknown form name or an empty selection.
    """
    try:
        return _MASKS[forms]
    except (KeyError, TypeError):
        pass
    if isinstance(forms, str):
        names = (forms,)
    else:
        try:
            names = tuple(forms)
        except TypeError:
            raise RuleError(f"forms must be a sequence of form names, got {forms!r}") from None
    mask = 0
    for f in names:
        if not isinstance(f, str) or f not in FORMS:
            raise RuleError(f"unknown winning form {f!r}; known forms: {', '.join(FORMS)}")
        mask |= FORMS[f]
    if not mask:
        raise RuleError("forms must name at least one winning form")
    try:
        _MASKS[forms] = mask
    except TypeError:      # unhashable (a list): fine, just not cached
        pass
    return mask


_RULES_GET: Any = None


def _get_ruleset(ruleset: Any) -> Any:
    """:func:`majiang.rules.get`, imported on first use (rules is data; imported lazily)
    and then kept: a ``from ..rules import`` inside each helper cost about 1.5 µs per
    call, five times per ``shanten(..., ruleset=)``."""
    global _RULES_GET
    if _RULES_GET is None:
        from ..rules import get
        _RULES_GET = get
    return _RULES_GET(ruleset)


_DEFAULT_RS: Any = None


def _resolved(ruleset: Any, forms: Any = None, seven_pairs_quads: bool | None = None) -> Any:
    """The :class:`~majiang.rules.Ruleset` a call uses: ``ruleset`` (``None`` = the default,
    :data:`majiang.rules.model.DEFAULT_RULESET`) narrowed by ``forms`` /
    ``seven_pairs_quads`` (:func:`majiang.rules.derived.narrowed`: the other rules kept).

    Raises
    ------
    RuleError
        An unknown ruleset; a form the ruleset does not have.
    """
    if forms is None and seven_pairs_quads is None:
        if ruleset is None:
            global _DEFAULT_RS
            if _DEFAULT_RS is None:
                from ..rules.model import DEFAULT_RULESET
                _DEFAULT_RS = _get_ruleset(DEFAULT_RULESET)
            return _DEFAULT_RS
        return _get_ruleset(ruleset)
    from ..rules.derived import narrowed
    return narrowed(ruleset, forms, seven_pairs_quads)


def resolve_forms(forms: Sequence[str] | None, seven_pairs_quads: bool | None,
                  ruleset: Any = None) -> tuple[tuple[str, ...], bool]:
    """Winning forms and the seven-pairs quad option of ``ruleset`` (a name such as
    ``"mcr"`` or a :class:`majiang.rules.Ruleset`; ``None`` = the default, Chinese
    Official rules) narrowed by ``forms`` / ``seven_pairs_quads`` (:func:`_resolved`).

    Raises
    ------
    RuleError
        For an unknown ruleset name, or a form the ruleset does not have.
    """
    r = _resolved(ruleset, forms, seven_pairs_quads)
    return tuple(r.forms), bool(r.seven_pairs_quads)


# The shape constraints the core computes exactly (``Opts.void_suits`` /
# ``Opts.pair_mask``) are majiang.rules.model.SHAPE_RULES.  ``pair_258_small`` (2-5-8
# pair for a small win only; a 大胡 may use any pair) has its own route, ``"b258"``
# (_b258_groups): the least shanten over the small-win shape (the core's ``pair_mask``)
# and the ruleset's 大胡 shapes that need no situational context, each a core call or a
# closed form.


def _route(ruleset: Any, forms: Any = None) -> tuple[str | None, Any]:
    """How a ruleset's shanten is computed: ``("python", rs)`` by the shape engine of
    :mod:`majiang.rules.shapes` (compiled, ``_core/shapes.pyx``, equal to its Python
    reference; jokers with shape rules, extra forms such as 十三烂, ``no_void``), ``("core", rs)`` by the core with shape options (void suit, 2-5-8
    pair, a reduced tile set), ``("b258", rs)`` for ``pair_258_small`` (small-win and
    big-win shapes, :func:`_b258_groups`), or ``(None, None)`` (plain core: forms only).
    ``ruleset`` None is the default ruleset; ``forms`` narrows it (:func:`_resolved`),
    ``rs`` is then the narrowed ruleset."""
    rec = _rule_of(_resolved(ruleset, forms))
    return rec.how, (None if rec.how is None else rec.rs)


class _Rule:
    """The route of one ruleset for ``shanten`` / ``ukeire`` calls, read once per ruleset
    object (:func:`_rule`) from its rule spec only (:class:`~majiang.rules.model.RuleSpec`
    and the :class:`~majiang.rules.model.ShapeOptions` of a hand without melds): ``how``
    (the route of :func:`_route`), ``rs`` (the ruleset), the core form ``mask`` of its
    forms (None when a form is not the core's: 十三烂, 将将胡 …), ``quads``, ``fifth``,
    ``size`` (hand size), and for the ``"core"`` route ``caps``, ``pair_mask``, ``void``
    (else None, None, 0).  Flat slots: read on every call of the hot paths."""

    __slots__ = ("rs", "how", "mask", "quads", "fifth", "size", "caps", "pair_mask",
                 "void")

    def __init__(self, model: Any, how: str | None) -> None:
        sh = model.shape(())
        self.rs, self.how = model.ruleset, how
        self.mask = sh.mask if not model.extra_forms else None
        self.quads = sh.quads
        self.fifth = sh.fifth
        self.size = model.hand_size
        self.caps = self.pair_mask = None
        self.void = 0
        if how == "core":
            self.caps, self.pair_mask, self.void = sh.caps, sh.pair_mask, sh.void_suits


_DEFAULT_RULE: Any = None


def _default_rule() -> _Rule:
    """The :class:`_Rule` of the default ruleset (``ruleset=None``), kept after the first
    call: the default path pays no ruleset look-up."""
    global _DEFAULT_RULE
    if _DEFAULT_RULE is None:
        _DEFAULT_RULE = _rule_of(_resolved(None))
    return _DEFAULT_RULE


_RULE_BY_NAME: dict = {}
_REGISTRY: Any = None


def _rule(ruleset: Any) -> _Rule:
    """The cached :class:`_Rule` of a ruleset (a name, a ``.toml`` path or a Ruleset):
    one :func:`majiang.rules.get` per call, the rest read once per ruleset object.  A
    registry name is looked up once: its record is kept while the registry still holds
    the same ruleset under that name.

    Raises
    ------
    RuleError
        An unknown ruleset.
    """
    global _REGISTRY
    if type(ruleset) is str:
        rec = _RULE_BY_NAME.get(ruleset)
        if rec is not None and _REGISTRY.get(rec.rs.name) is rec.rs:
            return rec
        rec = _rule_of(_get_ruleset(ruleset))
        if not ruleset.lower().endswith(".toml") and len(_RULE_BY_NAME) < 256:
            from ..rules import _REGISTRY
            _RULE_BY_NAME[ruleset] = rec
        return rec
    return _rule_of(_get_ruleset(ruleset))


def _build_rule(r: Any) -> _Rule:
    from ..rules.model import SHAPE_RULES, rule_spec
    from ..rules.shapes import needs_python
    how = None
    model = rule_spec(r)
    if model.shapes_258:    # the model's one 2-5-8 decision (waits, probability)
        how = "b258"            # small win: 2-5-8 pair; 大胡 shapes: any pair (_b258_groups)
    elif needs_python(r):
        how = "python"
        if (model.jokers is None and not model.extra_forms and not model.kong_only_kinds
                and not model.honor_chows and not model.shape_constraints - set(SHAPE_RULES)):
            how = "core"
    return _Rule(model, how)


_rule_of = per_ruleset(_build_rule)


def _flowers_allowed(ruleset: Any, hand: Any) -> None:
    """Flowers in a hand under a ruleset whose tile set has none (四川, 广东 …) are an
    error (:meth:`GameModel.check_flowers <majiang.rules.model.GameModel.check_flowers>`).
    Plain ASCII text without an ``f`` holds no flower and is not parsed again."""
    if isinstance(hand, str) and "f" not in hand and hand.isascii():
        return
    from ..rules.model import game_model
    game_model(ruleset).check_hand_flowers(hand)


def _jokers_allowed(ruleset: Any, hand: Any, jokers: Any) -> None:
    """A ``*`` (or ``jokers=``) under a ruleset that has no jokers is an error, as in
    scoring and probabilities; without a ruleset any hand may hold generic jokers.
    Flowers under a tile set without flowers are refused here too (:func:`_flowers_allowed`).

    Raises
    ------
    RuleError
        The ruleset has no joker rule and the hand holds jokers.
    InvalidHandError
        The hand holds flowers the ruleset's tile set does not have.
    """
    if ruleset is None:
        return
    _flowers_allowed(ruleset, hand)
    if isinstance(hand, str):
        held = hand.count("*")
    else:
        held = int(getattr(hand, "jokers", 0) or 0)
    if not held and isinstance(jokers, (int, np.integer)) and not isinstance(jokers, bool):
        held = int(jokers)
    if not held:
        return
    from ..rules.model import game_model
    model = game_model(ruleset)
    if model.jokers is None:
        raise model.no_jokers(held)


def _regional(ruleset: Any, forms: Any):
    """The ruleset when its shape rules need :mod:`majiang.rules.shapes` (jokers with a
    shape rule or a reduced tile set, extra forms such as 十三烂, ``no_void``), else None.

    Extension point for regional rulesets: the core stays ruleset-free; void suits,
    2-5-8 pairs and reduced tile sets are core options (:func:`_shape_options`); a
    ruleset whose winning shapes the core cannot express is computed by the exact
    Python engine of :mod:`majiang.rules.shapes` (checked against the core where both
    apply, tests/test_shapes.py).
    """
    how, r = _route(ruleset, forms)
    return r if how == "python" else None


def _regional_jokers(ruleset: Any, forms: Any, indicator: Any):
    """:func:`_regional`, or the ruleset when its joker kind is known (fixed, or from
    `indicator`) so ukeire can list a joker draw."""
    rs = _regional(ruleset, forms)
    if rs is None:
        r = _resolved(ruleset, forms)
        if r.jokers is not None and (indicator is not None or not r.jokers.needs_indicator):
            rs = r
    return rs


def _hand_size(ruleset: Any) -> int:
    """13, or the ruleset's hand size (16 for 台湾/罗源)."""
    if ruleset is None:
        return 13
    return _rule(ruleset).size


def _ruleset_fifth(ruleset: Any, joker_fifth_copy: bool) -> bool:
    if ruleset is None or joker_fifth_copy:
        return joker_fifth_copy
    return _rule(ruleset).fifth

"""Win constraints: small named predicates a ruleset lists by name (:attr:`Ruleset.constraints`).

Each constraint is ``check(w, fans, ruleset) -> bool`` (True = the win is allowed)
over a decomposed :class:`~majiang.winning.WinningHand` ``w`` and the fans counted
for it (``{fan id: count}``); a ruleset stays data because it only names them.
Jokers are already replaced by the tiles they stand for in ``w``; the joker
assignment is in ``joker_info(w)`` (:mod:`majiang.rules.assignment`).

Constraints that change which shapes can win at all (``void_suit``,
``pair_258``) are also read by :mod:`majiang.rules.shapes` so that shanten and
ukeire under the ruleset aim at winnable hands.  ``pair_258_small`` (a small win
needs a 2-5-8 pair, a 大胡 may use any pair) is read by :mod:`majiang.efficiency`
through :func:`majiang.rules.fans.big_shapes`: the shapes that win as a 大胡 by shape alone.
"""
from __future__ import annotations

from collections.abc import Callable

from ..tiles import KINDS_258
from ..winning import WinningHand
from .assignment import joker_info
from .declared import DECLARED_VOID, TURNED

__all__ = ["CONSTRAINTS", "constraint", "DESCRIPTIONS", "SHAPE_CONSTRAINTS"]

CONSTRAINTS: dict[str, Callable[[WinningHand, dict, object], bool]] = {}
DESCRIPTIONS: dict[str, str] = {}
SHAPE_CONSTRAINTS = frozenset(("void_suit", "pair_258", "no_void"))
"""Constraints the shape engine (shanten, ukeire) honours exactly."""


def constraint(name: str, description: str):
    def deco(fn):
        CONSTRAINTS[name] = fn
        DESCRIPTIONS[name] = description
        return fn
    return deco


def _suits(w: WinningHand) -> set:
    return {t // 9 for t in w.kinds if t < 27}


def _big(w: WinningHand, fans: dict, rs) -> bool:
    return any("big" in rs.fan(f).tags for f in fans)


@constraint("void_suit", "缺一门/定缺: at most two of the three suits (万 筒 条)")
def void_suit(w, fans, rs) -> bool:
    declared = rs.options.get(DECLARED_VOID)      # a seat's 定缺 (rules.derived.with_void)
    if declared is not None:
        return int(declared) not in _suits(w)
    return len(_suits(w)) <= 2


@constraint("no_void", "不允许缺门: all three suits present")
def no_void(w, fans, rs) -> bool:
    return len(_suits(w)) == 3


@constraint("pair_258", "二五八将: the pair of a regular hand is a 2, 5 or 8")
def pair_258(w, fans, rs) -> bool:
    if w.form != "regular":
        return True
    return w.pair in KINDS_258


@constraint("pair_258_small", "二五八将 for a small win (屁胡/小胡); a 大胡 may use any pair")
def pair_258_small(w, fans, rs) -> bool:
    return pair_258(w, fans, rs) or _big(w, fans, rs)


@constraint("has_258", "the hand holds at least one 2, 5 or 8 (七对 and 十三幺 exempt)")
def has_258(w, fans, rs) -> bool:
    if w.form != "regular":
        return True
    return any(t in KINDS_258 for t in w.kinds)


@constraint("must_open", "开门/开口: at least one claimed meld (chow, pung or exposed kong)")
def must_open(w, fans, rs) -> bool:
    return w.n_exposed > 0


@constraint("must_open_pung", "开门 by a pung or an exposed kong (沈阳: a chow does not open)")
def must_open_pung(w, fans, rs) -> bool:
    return any(m.kind != "chow" and not m.concealed for m in w.hand.melds)


@constraint("terminal", "幺九: the hand holds a suited 1 or 9")
def terminal(w, fans, rs) -> bool:
    return any(t < 27 and t % 9 in (0, 8) for t in w.kinds)


@constraint("terminal_or_dragon_pung", "幺九 or a dragon pung (内蒙)")
def terminal_or_dragon_pung(w, fans, rs) -> bool:
    return terminal(w, fans, rs) or any(t >= 31 for t in w.pungs)


@constraint("has_pung", "at least one pung or kong (内蒙)")
def has_pung(w, fans, rs) -> bool:
    return bool(w.pungs) or w.form != "regular"


@constraint("self_draw_only", "自摸 only: no win on a discard or by robbing a kong")
def self_draw_only(w, fans, rs) -> bool:
    return w.context.self_drawn


@constraint("discard_needs_pattern", "屁胡 only by self-draw (or robbing a kong); a win on a "
            "discard needs a pattern (卡五星, 广水)")
def discard_needs_pattern(w, fans, rs) -> bool:
    if w.context.self_drawn or w.context.robbing_kong:
        return True
    return any("pattern" in rs.fan(f).tags for f in fans)


@constraint("eight_of_a_suit", "八枝: one suit has 8 or more tiles (合肥)")
def eight_of_a_suit(w, fans, rs) -> bool:
    c = w.counts
    return any(sum(c[9 * s:9 * s + 9]) >= 8 for s in range(3))


@constraint("no_red_dragon", "红中 may not be held at the win (武汉)")
def no_red_dragon(w, fans, rs) -> bool:
    return w.counts[33] == 0


@constraint("no_pizi", "the 痞子 (the turned indicator's kind) may not be held at the win, "
            "nor be the winning tile (武汉)")
def no_pizi(w, fans, rs) -> bool:
    k = rs.options.get(TURNED)      # the hand's turned kind (rules.derived.with_indicator)
    if k is None:
        return True                 # not known: nothing to refuse (give the indicator)
    # held loose (melds are not held), less the 赖子 standing for its kind (no 痞子)
    loose = int(w.hand.concealed[k]) + (w.context.win_tile == k)
    return loose - joker_info(w)[1].count(k) <= 0


@constraint("kong_only_tiles", "发 and 白 serve only in kongs: one held outside a kong "
            "blocks a win (安庆 杠牌)")
def kong_only_tiles(w, fans, rs) -> bool:
    for k in (31, 32):
        in_kongs = sum(4 for m in w.hand.melds if m.kind == "kong" and m.tile == k)
        if w.counts[k] != in_kongs:
            return False
    return True


@constraint("kong_pass", "通行证: a win on a discard needs a kong (贵州)")
def kong_pass(w, fans, rs) -> bool:
    return w.context.self_drawn or any(s.kind == "kong" for s in w.sets)


@constraint("pinghu_self_draw", "平和 (no pattern) must be self-drawn (云南)")
def pinghu_self_draw(w, fans, rs) -> bool:
    return discard_needs_pattern(w, fans, rs)


@constraint("max_one_joker_small", "a small win (屁胡) holds at most one joker (武汉)")
def max_one_joker_small(w, fans, rs) -> bool:
    return joker_info(w)[0] <= 1 or _big(w, fans, rs)


@constraint("open_small_needs_flowers", "an opened hand wins small only with enough 硬花 "
            "(南京: ruleset option open_min_flowers, 4)")
def open_small_needs_flowers(w, fans, rs) -> bool:
    if w.n_exposed == 0 or _big(w, fans, rs):
        return True
    return max(w.context.flowers, w.hand.n_flowers) >= rs.options.get("open_min_flowers", 4)


@constraint("two_suits", "exactly two of the three suits 万 筒 条, melds included (立四)")
def two_suits(w, fans, rs) -> bool:
    return len({t // 9 for t in w.kinds if t < 27}) == 2

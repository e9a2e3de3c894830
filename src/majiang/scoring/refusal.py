"""Sure refusals: complete shapes THE win predicate (:func:`majiang.check_win`) is known to
refuse, found without enumerating the hand's readings.

The game loops ask THE predicate on every complete shape (a win in play) and on every wait
a bot weighs; under 武汉 most of those hands are refused (two 赖子 and no 大胡, no 2/5/8
pair and no 大胡), and each refusal costs the scorer an enumeration of every joker
assignment.  :func:`sure_refusal` answers those hands from facts every reading shares, so
the loops skip the scorer for them (:func:`majiang.game.engine.wins._verdict`,
:func:`majiang.game.wait_judge.wait_verdict`); every other hand still goes to THE
predicate.  The answer is only ever "refused for sure" or "ask THE predicate": a ruleset
it cannot reason about (:func:`refusal_of` None) is always asked.

The reasoning, for the rulesets it serves (:func:`refusal_of`: the constraints
``must_open``, ``no_red_dragon``, ``no_pizi``, ``pair_258_small``, ``max_one_joker_small``,
``pair_258``; the forms regular and ``all_258``; no minimum; 13-tile hands; some complete
shape refused (not :attr:`ShapeOptions.exact`); every fan tagged ``"big"`` one of 清一色,
将一色, 风一色, 碰碰胡, 全求人, 杠上开花, 抢杠胡 or 海底 — 武汉 and house rules on it).
A reading wins iff it breaks no constraint, i.e. it holds no 红中 / 痞子 loose and either
it is a small win (a regular reading with a 2/5/8 pair and at most one joker) or it counts
a big fan.  So a hand is refused for sure when

* it holds a natural 红中 or 痞子 loose (every reading holds it), or
* the win has no situational context (kong, last tile) and no reading can be small (more
  than one joker, or no regular decomposition with a 2/5/8 pair: the compiled shanten
  with that pair mask, which allows at least every decomposition the scorer does) and
  none can count a big fan: 清一色 / 将一色 / 风一色 need every natural tile (melds and the
  winning tile included) in one suit / a 2, 5 or 8 / an honour; 碰碰胡 needs no chow meld
  and concealed tiles that pungs and a pair can cover with the jokers held (at most three
  of a kind, and at most as many kinds as sets left, or one more when one of them can be
  the pair); 全求人 needs a win on a discard with a single tile left concealed.

Each test is a necessary condition of its fan or of the small win, so a hand refused here
is refused by THE predicate; :data:`QUICK` switched off, the loops ask THE predicate on
every hand (the reference path the tests compare with).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .._memo import per_ruleset
from ..rules import fans as F
from ..tiles import KINDS_258

__all__ = ["QUICK", "refusal_of", "sure_refusal"]

QUICK = True
"""Whether the game loops use :func:`sure_refusal` before THE predicate (False: THE
predicate judges every hand, the reference path)."""

_CONSTRAINTS = frozenset(("must_open", "no_red_dragon", "no_pizi", "pair_258_small",
                          "max_one_joker_small", "pair_258"))
_BIG = {F.flush: "flush", F.all_258: "all_258", F.all_honors: "all_honors",
        F.all_pungs: "all_pungs", F.melded_all: "melded_all", F.kong_flower: "kong",
        F.robbing: "kong", F.last_tile: "last_tile", F.last_self: "last_tile",
        F.last_discard: "last_tile"}
_MASK_258 = sum(1 << k for k in KINDS_258)


class _Refusal:
    """What :func:`sure_refusal` reads of one ruleset (:func:`refusal_of`)."""

    __slots__ = ("model", "banned", "small_pair", "one_joker", "big", "opts")

    def __init__(self, model, big) -> None:
        self.model = model
        self.banned = tuple(model.banned_kinds)
        # the small win's pair: 2/5/8 under pair_258_small (a 大胡 any pair) or pair_258
        self.small_pair = model.small_pair_258
        self.one_joker = model.one_joker_small
        self.big = big
        self.opts: dict = {}

    def small_opts(self, n_melds: int):
        got = self.opts.get(n_melds)
        if got is None:
            m = self.model
            # shared by the rulesets that differ only in the turned kind (one per kind)
            key = (m.forms, m.seven_pairs_quads, m.fifth_copy, m.pair_mask, self.small_pair,
                   n_melds)
            got = _OPTS.get(key)
            if got is None:
                from .._core import game as _cg
                sh = m.shape(())
                mask = _MASK_258 if self.small_pair else int(sh.pair_mask)
                got = _OPTS[key] = _cg.ShapeOpts(sh.mask_for(n_melds), sh.quads, None, mask,
                                                 0, sh.fifth, None)
            self.opts[n_melds] = got
        return got


_OPTS: dict = {}


def _build(rs) -> _Refusal | None:
    from ..rules.model import game_model
    from .faces import faces_matter
    model = game_model(rs)
    if (model.constraints_beyond(_CONSTRAINTS) or model.min_fan
            or model.min_points is not None or not set(model.forms) <= {"regular", "all_258"}
            or model.jokers_to_win or faces_matter(rs) or model.kong_only_kinds
            or rs.hand_size != 13 or model.shape(()).exact):
        return None                 # (exact: every complete shape wins, nothing to refuse)
    # the form all_258 (将将胡 of any shape) passes the pair rules: asked like the fan
    big = {"all_258"} if "all_258" in model.forms else set()
    for f in rs.fans:
        if "big" not in f.tags:
            continue
        got = _BIG.get(f.predicate)
        if got is None:
            return None             # a big fan this module cannot bound: always ask
        big.add(got)
    return _Refusal(model, frozenset(big))


refusal_of = per_ruleset(_build)
"""The facts :func:`sure_refusal` reads of a ruleset, or None where it cannot reason (THE
predicate is then always asked)."""


def _pungs_possible(full, n_melds: int) -> bool:
    xs = [int(x) for x in full if x]
    if not xs:
        return True
    if max(xs) > 3:
        return False
    sets = 4 - n_melds
    return len(xs) <= sets or (len(xs) == sets + 1 and min(xs) <= 2)


def sure_refusal(rs: Any, concealed: Any, melds: tuple, win: int | None, *, jokers: int = 0,
                 win_is_joker: bool = False, self_drawn: bool = False, kong: bool = False,
                 last_tile: bool = False) -> bool:
    """True when THE predicate surely refuses the hand + ``win`` under ``rs`` (module
    notes); False means "ask THE predicate".

    Parameters
    ----------
    rs : Ruleset
    concealed : array of int (34,)
        The natural concealed tiles before the winning tile.
    melds : tuple of Meld
    win : int or None
        The winning kind (None with ``win_is_joker``: the winning tile is a joker).
    jokers : int
        Jokers held before the winning tile.
    win_is_joker, self_drawn, kong, last_tile
        As :func:`majiang.check_win`.
    """
    r = refusal_of(rs)
    if r is None:
        return False
    full = np.array(concealed, dtype=np.uint8)
    if win is not None and not win_is_joker:
        full[win] += 1
    for k in r.banned:
        if full[k]:
            return True                       # a 红中 / 痞子 held loose
    if not any(not m.concealed for m in melds):
        return False                          # THE predicate refuses it at once
    if (kong and "kong" in r.big) or (last_tile and "last_tile" in r.big):
        return False                          # 杠上开花 / 抢杠 / 海底: any shape may be big
    J = int(jokers) + int(bool(win_is_joker))
    if not (r.one_joker and J > 1):
        from .._core import game as _cg
        if _cg.shanten(full, r.small_opts(len(melds)), J) == -1:
            return False                      # a small win may exist
    big = r.big
    if not big:
        return True
    nat = full.astype(np.int16)
    for m in melds:
        for t in m.tiles:
            nat[t] += 1
    kinds = np.flatnonzero(nat)
    if not kinds.size:
        return False
    if "flush" in big and kinds[-1] < 27 and kinds[0] // 9 == kinds[-1] // 9:
        return False
    if "all_258" in big and all(int(k) in KINDS_258 for k in kinds):
        return False
    if "all_honors" in big and kinds[0] >= 27:
        return False
    if ("all_pungs" in big and not any(m.kind == "chow" for m in melds)
            and _pungs_possible(full, len(melds))):
        return False
    if "melded_all" in big and not self_drawn and int(np.sum(concealed)) + int(jokers) == 1:
        return False
    return True

"""海南 推倒胡 / 明摸 / 明打 — the settlement fragment of the general rule text, read as
海南's settlement (docs/rules/hainan_tuidao.md).

The fragment (docs/rules/hainan_tuidao.md §1) numbers its items 2, 4, 5, 6 (1 and 3 are
lost): "推倒胡，放炮即1全部人1番"; 报听明摸 — after declaring ready a player may only
self-draw, and 明摸 pays 4 from each player, 8 from the dealer; 明打 8 from each, 16 from the
dealer; flowers only add 番 and never stand for tiles; a win on a flower replacement (花砸)
counts no 番.  It follows the 海南 text directly and two independent 海南 servers pay a
discard win in its shape, so it is read as the settlement of 海南麻将: the hands, calls,
flowers and 番 sources are those of the ``hainan`` ruleset (:mod:`.hainan`,
docs/rules/hainan.md), the payments these:

* 推倒胡 on a discard (chosen reading): **each of the three others pays 1, the discarder
  1 more** (4 in all); a self-draw: each of the three pays 1 [interp.]; the amounts are flat,
  whatever the hand (option ``unit``).
* 明摸 (:func:`mingmo`): a player who declared ready with his hand shown self-draws: each
  non-dealer pays 4, the dealer 8 (a dealer winner gets 8 from each [interp.]).
* 明打 (:func:`mingda`) [interp.]: a declared player's discard gives another player the win:
  the declared discarder alone pays 8, 16 when the dealer is the discarder or the winner.
* 花砸 scores nothing extra: the ``hainan`` table is built without its 花上添花 ×3 (option
  ``huashang=False``; the fragment and the servers' ×3 **conflict**; the fragment is followed
  here, the servers by ``hainan``).
* 包牌: the liability cases of ``hainan`` (三道牌, a 番-less 抢杠, 四道牌: the responsible
  player pays the whole win alone; :mod:`majiang.rules.liability`), kept from the base,
  with its options ``haidi_bao`` (海底包牌) and ``fang_goujiao`` (防勾脚), off by default.

Options of :func:`build` (default first, alternatives named in docs/rules/hainan_tuidao.md §3):

* ``payment`` ("everyone"): "discarder" = the literal reading — on a discard the discarder
  alone pays 1.
* ``unit`` ("flat"): "hainan" = the full 海南 scale of the servers: the unit is the hand's
  multiplier (``hainan`` values and cap), and each other player pays unit × (1 + 1 with the
  dealer), the discarder 1 more (:func:`majiang.rules.hainan.settle_hainan`).
* ``you_fan`` (True): a discard win needs a 番 source (as ``hainan``).

The game engine plays the declaration (报听 with the hand shown: ``Ruleset.ready`` "optional",
the kind ``"open"`` from the 明摸 fan's tag; :mod:`majiang.game.engine.declare`): the declared
hand wins only by self-draw, and the win's settlement (:func:`settle_tuidao`, its
``declared_ready`` / ``discarder_ready`` parameters filled from the win context) pays 明摸
(:func:`mingmo`) and 明打 (:func:`mingda`) in place of the 推倒胡 payment, flat whatever
the ``unit`` [interp.: whether multipliers apply on top is not known].  Not known:
items 1 and 3 of the fragment; whether hand multipliers apply on top of 4 / 8.
"""
from __future__ import annotations

import dataclasses

from . import fans as F
from .base import (POINTS_FUNCTIONS, Ruleset, ScoringRule, check_bool, check_choice,
                   register_settlement)
from .hainan import build as _hainan_build
from .hainan import hainan_points, settle_hainan
from .table_rules import DealerRule

__all__ = ["build", "HAINAN_TUIDAO", "settle_tuidao", "mingmo", "mingda"]

_SRC = "docs/rules/hainan_tuidao.md"


def tuidao_points(fans: dict, rs, w) -> int:
    """1 unit (times the base) for any win (``unit="flat"``), else the 海南 multiplier."""
    if rs.options.get("unit", "flat") == "hainan":
        return hainan_points(fans, rs, w)
    return rs.scoring.base


POINTS_FUNCTIONS["hainan_tuidao"] = tuidao_points


@register_settlement
def settle_tuidao(points: int, winner: int, discarder: int | None, *, players: int = 4,
                  dealer: int | None = 0, payment: str = "everyone",
                  unit: str = "flat", declared_ready: str = "",
                  discarder_ready: bool = False) -> tuple:
    """推倒胡 payments of a win worth `points` units (docs/rules/hainan_tuidao.md §2):
    self-draw — each other player pays `points`; discard — each other player pays
    `points` and the discarder 1 more (``payment="everyone"``) or the discarder alone pays
    `points` (``"discarder"``).  ``unit="hainan"``: :func:`settle_hainan` (dealer +1 unit,
    discarder +1).  A winner who declared with the hand shown self-draws (``declared_ready``
    ``"open"``): 明摸 (:func:`mingmo`) instead; a win on a declared player's discard
    (``discarder_ready``): 明打 (:func:`mingda`) instead."""
    if declared_ready == "open" and discarder is None:
        return mingmo(winner, dealer if dealer is not None else 0, players)
    if discarder_ready and discarder is not None:
        return mingda(discarder, winner, dealer if dealer is not None else 0, players)
    if unit == "hainan":
        return settle_hainan(points, winner, discarder, players=players, dealer=dealer)
    out = [0] * players
    for p in range(players):
        if p == winner:
            continue
        if discarder is not None and payment == "discarder" and p != discarder:
            continue
        amount = points + (1 if p == discarder and payment == "everyone" else 0)
        out[p] -= amount
        out[winner] += amount
    return tuple(out)


def mingmo(winner: int, dealer: int, players: int = 4) -> tuple:
    """明摸: the declared `winner` self-draws; each non-dealer pays 4 and the dealer 8; a
    dealer winner gets 8 from each [interp.] (docs/rules/hainan_tuidao.md §2).

    Raises
    ------
    RuleError
        Seats outside the table.
    """
    _seats(players, winner, dealer)
    out = [0] * players
    for p in range(players):
        if p != winner:
            amount = 8 if dealer in (p, winner) else 4
            out[p] -= amount
            out[winner] += amount
    return tuple(out)


def mingda(discarder: int, winner: int, dealer: int, players: int = 4) -> tuple:
    """明打 [interp.]: the declared `discarder`'s discard gives `winner` the win; the
    discarder alone pays 8, 16 when the dealer is the discarder or the winner
    (docs/rules/hainan_tuidao.md §2).

    Raises
    ------
    RuleError
        Seats outside the table, or the discarder is the winner.
    """
    _seats(players, winner, dealer, discarder)
    if discarder == winner:
        from ..errors import RuleError
        raise RuleError("the discarder cannot be the winner")
    out = [0] * players
    amount = 16 if dealer in (discarder, winner) else 8
    out[discarder] -= amount
    out[winner] += amount
    return tuple(out)


def _seats(players: int, *seats: int) -> None:
    from ..errors import RuleError
    for s in seats:
        if not isinstance(s, int) or not 0 <= s < players:
            raise RuleError(f"seat must be 0..{players - 1}, got {s!r}")


def build(*, payment: str = "everyone", unit: str = "flat", you_fan: bool = True,
          cap: int | None = 8, haidi_bao: bool = False, fang_goujiao: bool = False) -> Ruleset:
    check_choice(payment, "hainan_tuidao option payment", ("everyone", "discarder"))
    check_choice(unit, "hainan_tuidao option unit", ("flat", "hainan"))
    for key, v in (("you_fan", you_fan), ("haidi_bao", haidi_bao),
                   ("fang_goujiao", fang_goujiao)):
        check_bool(v, f"hainan_tuidao option {key}")
    check_choice(cap, "hainan_tuidao option cap", (8, 12, 16, None))
    # 花砸 (a win on a flower replacement) adds nothing: the fragment, not the servers' ×3
    base = _hainan_build(you_fan=you_fan, cap=cap, huashang=False, haidi_bao=haidi_bao,
                         fang_goujiao=fang_goujiao)
    # 明摸 / 明打: paid by the settlement (no 番); the tag lets players declare with the hand
    # shown in the game engine (majiang.game.engine.facts.ready_kinds)
    ready_fans = (
        F.fan(21, "明摸", "Declared Ready, Self-Drawn (4 / 8 from each)", 0, F.declared_open,
              tags=(F.READY_OPEN,), source=_SRC + " §2"),
        F.fan(22, "明打", "Discard of a Declared Player (8 / 16 from him)", 0,
              F.discarder_declared, source=_SRC + " §2 [interp.]"),
    )
    return dataclasses.replace(
        base, name="hainan_tuidao", fans=tuple(base.fans) + ready_fans, ready="optional", title="海南 推倒胡 / 明摸 / 明打 (Hainan settlement)",
        settlement=settle_tuidao,
        settlement_params={"dealer": 0, "payment": payment, "unit": unit,
                           "declared_ready": "", "discarder_ready": False},
        scoring=ScoringRule(mode="custom", function="hainan_tuidao", cap=cap),
        source=_SRC, options={"payment": payment, "unit": unit, "you_fan": you_fan,
                              "cap": cap, "haidi_bao": haidi_bao,
                              "fang_goujiao": fang_goujiao},
        builder="hainan_tuidao", section="§3.21",
        # who deals next: "其余规则与大众麻将相同" read as 轮庄 with 连庄 on the dealer's win
        dealer_rule=DealerRule(draw="pass"),
        interpreted=("read as the settlement of 海南 (docs/rules/hainan_tuidao.md §1)",
                     "a self-draw pays 1 from each; 明打 = a declared player dealing in",
                     "next dealer: the dealer keeps the deal on his win, otherwise the next "
                     "seat (\"其余规则与大众麻将相同\")") + base.interpreted[-2:],
        missing=(), lost=("items 1 and 3 of the text",) + base.lost)


HAINAN_TUIDAO = build()

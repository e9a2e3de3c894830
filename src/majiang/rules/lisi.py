"""立四麻将 (Lisi "stand four", Taiyuan, three players) — docs/rules/lisi.md
(source keys: LSA = ``AllureCurtain/lisi-mahjong-assistant``
``docs/design.md``, a detailed three-player household rule set, weight medium; TYL = the
commercial client constants ``const_tylsmj`` (太原立四), win-type list only, weight low).

From the general rule texts (docs/rules/lisi.md): the first four tiles dealt stand apart (立四); one of them is
discarded only to declare ready, which a win requires (报听); any three may join the
other nine tiles in sets, and they may be used for 碰 / 杠; no 吃; kong replacement
from the tail; after ready no change of the hand and no kong; the last 7 stacks are
kept (still 7 with one kong, 8 with two, one more per further kong).

From the public sources (docs/rules/lisi.md, LSA):

* 108 tiles, suits only (the tile set ``"108"``), three players, 13 tiles (dealer 14);
* the final hand holds **exactly two suits** (缺一门; melds count) — constraint
  ``void_suit`` (which the shape engine honours) plus ``two_suits`` (a one-suit hand
  does not win).  The void is a fact of the **winning hand** only (LSA: "the final
  hand"; no source names a 定缺): ``void_rule="at_win"`` — nothing is declared at the
  deal, discards and claims are free, and the player may change the suit he drops
  during the hand (the bots aim at the least shanten over the three suits, found again
  at each decision);
  Shanten, ukeire and advice honour the void suit exactly; a one-suit hand still
  reads as ready by shape (the model's ``shape().exact`` is False), its win is refused;
* forms: 4 sets + a pair (a concealed 1–9 of one suit is three chows, 龙, already a
  regular reading); a win only after declaring ready, by self-draw or on a discard;
* settlement (convention P): self-draw — each of the other two pays 20; a discard by
  a player **not** ready — the discarder alone pays 20 (winner the dealer) or 15; a
  discard by a **ready** player — winner the dealer: both others pay 10; winner not
  the dealer: the dealer pays 10, the other non-dealer 5; kong bonus for the winner's
  kongs only (明杠 5, 暗杠 10 per paying unit): paid by both others on a self-draw or a
  ready discarder's deal-in, doubled (10 / 20) by a not-ready discarder.

As fans: 胡牌 20 + 明杠 5 each + 暗杠 10 each, added (``points`` = what each opponent
pays on a self-draw); the settlement :func:`settle_lisi` subtracts the 20 to find the
kong bonus and applies the table above.  ``result.settle`` finds the dealer's seat
from the winner's seat wind (East = the dealer); :func:`settle_lisi` takes ``dealer=``.
Whether the discarder had declared ready is the win context's
:attr:`~majiang.winning.WinContext.discarder_ready` (``check_win(..., discarder_ready=True)``;
the game engine sets it), which ``result.settle`` passes to the settlement's
``discarder_ready`` parameter.  The game engine plays the declaration
(:mod:`majiang.game.engine.declare`): a win needs one; the declared hand discards each
draw unless it wins, and makes no kong (``ready_kongs=False``).  The standing tiles
(立四, ``standing_tiles=4``): the first four tiles dealt to each player stand apart, face
down to the others; before ready none is discarded, but pungs and kongs may use them
(the standing copies first while another standing tile is left [interp.]); the
declaration is the discard of one of them, face down (nobody claims or wins on it); a
player left with none cannot declare, so cannot win.

Alternatives (TYL, the four-player commercial version: 136 tiles, 平胡 / 清一色 / 七小对
/ 豪华七小对 / 一条龙 / 十三幺) have names but no values (§4) and are not built.
"""
from __future__ import annotations

from . import fans as F
from .base import Ruleset, ScoringRule, WallEnd, register_settlement

__all__ = ["build", "LISI", "settle_lisi", "BASE"]

BASE = 20
"""The 胡牌 fan: the self-draw payment of each opponent before kong bonuses (LSA)."""


@register_settlement
def settle_lisi(points: int, winner: int, discarder: int | None, *, players: int = 3,
                dealer: int = 0, discarder_ready: bool = False) -> tuple:
    """立四 settlement (LSA; docs/rules/lisi.md §2) of a win worth ``points`` = 20 + kong bonus."""
    kong = points - BASE
    out = [0] * players

    def pay(frm: int, amount: int) -> None:
        out[frm] -= amount
        out[winner] += amount

    others = [p for p in range(players) if p != winner]
    if discarder is None:
        for p in others:
            pay(p, BASE + kong)
    elif not discarder_ready:
        pay(discarder, (20 if winner == dealer else 15) + 2 * kong)
    else:
        for p in others:
            base = 10 if (winner == dealer or p == dealer) else 5
            pay(p, base + kong)
    return tuple(out)


def build() -> Ruleset:
    src = "docs/rules/lisi.md (LSA)"
    fl = (
        F.fan(1, "胡牌", "Win (20 per opponent on a self-draw)", BASE, F.always, source=src),
        F.fan(2, "明杠", "Exposed Kong (5)", 5, F.exposed_kongs, source=src),
        F.fan(3, "暗杠", "Concealed Kong (10)", 10, F.concealed_kongs, source=src),
    )
    return Ruleset(
        name="lisi", title="立四麻将 (Lisi, Taiyuan, three players)",
        players=3, hand_size=13,
        calls=("pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=("regular",), seven_pairs_quads=False, min_fan=0,
        flowers_count_toward_minimum=False, fans=fl, settlement=settle_lisi,
        settlement_params={"dealer": 0, "discarder_ready": False},
        source="docs/rules/lisi.md",
        tile_set="108", constraints=("void_suit", "two_suits"), void_rule="at_win",
        ready="required",
        wall_end=WallEnd(by_kongs=((0, 14), (1, 14), (2, 16), (3, 18), (4, 20))),
        winners="single", options={},
        scoring=ScoringRule(mode="add", unit="points"),     # §2: convention P
        builder="lisi", section="§3.22",
        interpreted=("three-player household rules (docs/rules/lisi.md)",
                     "a pung or kong takes the standing copies of its kind first while another "
                     "standing tile is left (which copies are used is not stated)",
                     "a pung that would leave only standing tiles in the hand (nothing to "
                     "discard) is not offered (not stated)"),
        lost=("four-player values (only the names are known)",),
        standing_tiles=4, ready_kongs=False,
        missing=())


LISI = build()

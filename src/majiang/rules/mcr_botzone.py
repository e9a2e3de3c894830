"""Chinese Official rules as played on Botzone and in the IJCAI Mahjong AI competitions
(复式国标麻将, the duplicate format) as a :class:`Ruleset`: ``"mcr_botzone"``.

Sources: docs/rules/mcr_botzone.md (Botzone's Chinese-Standard-Mahjong game page, its
section on the duplicate format, and the competition's own environment).  Everything
about the hand's value is Chinese Official (:mod:`majiang.rules.mcr`, with its build
option 明暗杠 on, as Botzone's judge scores); what differs is the table:

* 136 tiles, no flowers: the fan 花牌 is not in the table (never counted);
* the shuffled wall is cut into four walls of 34, one per seat (seat wind order: East's
  wall first); a seat is dealt its 13 tiles and draws every tile, kong replacements
  included, only from its own wall, from its end (as the competition's judge takes
  them), so each seat draws at most 21 tiles;
* the hand is drawn (荒牌) when the seat to draw next has an empty wall: the discard
  before that draw can only be won on (no chow, pung or kong), and no kong is declared
  after a draw that leaves the next seat's wall (or the drawer's own) empty;
* 海底捞月: a win on that last discard (the discarder's next seat has an empty wall);
  妙手回春: a self-drawn win on a draw after which the drawer's next seat has an
  empty wall — not the last tile of the drawer's own wall.

The wall rule is the table rule ``WallEnd(per_seat=True)``
(:class:`~majiang.rules.table_rules.WallEnd`), which the game engine reads; the
compiled loop does not play it, so hands of this ruleset play in the Python loop.
"""
from __future__ import annotations

from dataclasses import replace

from .base import Ruleset
from .mcr import build as _mcr_build
from .table_rules import WallEnd

__all__ = ["MCR_BOTZONE", "build"]

_FLOWERS_FAN = 81        # 花牌: no flowers in the 136-tile set


def build(concealed_and_melded_kong: bool = True) -> Ruleset:
    """The Botzone / IJCAI duplicate-format Chinese Official ruleset (registered as
    ``"mcr_botzone"`` with the defaults).

    Parameters
    ----------
    concealed_and_melded_kong : bool, default True
        明暗杠 as in :func:`majiang.rules.mcr.build` (on: Botzone's judge scores it).

    Returns
    -------
    Ruleset

    Raises
    ------
    RuleError
        When the option is not a bool.
    """
    base = _mcr_build(concealed_and_melded_kong=concealed_and_melded_kong)
    return replace(
        base,
        name="mcr_botzone",
        title="Chinese Official, Botzone / IJCAI duplicate format (复式国标麻将)",
        tile_set="136",
        tiles_note="four walls of 34, one per seat",
        fans=tuple(f for f in base.fans if f.id != _FLOWERS_FAN),
        wall_end=WallEnd(per_seat=True),
        source="docs/rules/mcr_botzone.md (the duplicate format of Botzone and the IJCAI "
               "Mahjong AI competitions); fans and settlement: docs/rules/mcr.md §2",
        builder="mcr_botzone",
        section="§2",
    )


MCR_BOTZONE = build()
"""The Botzone / IJCAI duplicate-format ruleset as registered (``rules.get("mcr_botzone")``)."""

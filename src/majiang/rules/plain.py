"""Plain shapes (``"plain"``): every complete hand wins — the shape arithmetic of riichi tools.

Not a regional game but a reference ruleset for shape questions: the 136-tile set (no
flowers), 4 players, 13-tile hands, the three forms ``regular`` (four sets and a pair),
``seven_pairs`` with seven *distinct* pairs (four of a kind is not two pairs) and
``thirteen_orphans``; no constraints, no minimum.  Its one fan, 和牌 (Complete Hand,
1 point), is the fallback counted for every complete hand, so every complete shape
wins and scores 1.

These are the forms and the seven-pairs reading of the riichi shanten tools (the
``xiangting``, ``riichienv`` and ``mahjong`` packages); pass ``ruleset="plain"`` to
compare with them.  The library's default ruleset (``ruleset=None``) is Chinese
Official rules (``"mcr"``), not this one.
"""
from __future__ import annotations

from . import fans as F
from .base import Ruleset, settle_points

__all__ = ["FORMS", "PLAIN", "build"]

FORMS = ("regular", "seven_pairs", "thirteen_orphans")
"""The winning forms of the plain ruleset (seven pairs with distinct pairs)."""


def build() -> Ruleset:
    """The plain ruleset (no options)."""
    return Ruleset(
        name="plain",
        title="Plain shapes (any complete hand wins)",
        players=4, hand_size=13,
        calls=("chow_left", "pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=FORMS, seven_pairs_quads=False, min_fan=0,
        flowers_count_toward_minimum=False,
        fans=(F.fan(1, "和牌", "Complete Hand", 1, F.always, fallback=True,
                    source="every complete hand wins"),),
        settlement=settle_points,
        source="docs/rules/common.md §1 (the 136 tiles), §4 (the general shape, seven "
               "pairs, thirteen orphans); seven distinct pairs, as the riichi shanten tools",
        tile_set="136", builder="plain")


PLAIN = build()
"""The plain ruleset as registered (``rules.get("plain")``)."""

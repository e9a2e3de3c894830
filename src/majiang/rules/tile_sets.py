"""The built-in tile sets (:data:`TILE_SETS`): copies of each of the 34 kinds and the
non-playing (flower) tiles of each set a ruleset may name (:attr:`Ruleset.tile_set`).
"""
from __future__ import annotations

from ..errors import RuleError

__all__ = ["TILE_SETS", "tile_copies"]


def _copies(suits=(0, 1, 2), winds=4, dragons=4, one_each_wind=False) -> tuple:
    c = [0] * 34
    for s in suits:
        for k in range(9 * s, 9 * s + 9):
            c[k] = 4
    for k in range(27, 31):
        c[k] = 1 if one_each_wind else winds
    for k in range(31, 34):
        c[k] = dragons
    return tuple(c)


TILE_SETS = {
    # name: (copies of the 34 playable kinds, flowers (non-playing tiles), description)
    "136": (_copies(), 0, "136: 3 suits x 36, 4 winds x 4, 3 dragons x 4"),
    "140": (_copies(), 4, "140: 136 + 4 flowers 春夏秋冬 (广东 花鬼)"),
    "144": (_copies(), 8, "144: 136 + 8 flowers 春夏秋冬梅兰竹菊"),
    "108": (_copies(winds=0, dragons=0), 0, "108: 万 筒 条 x 36 only (素麻将)"),
    "112": (_copies(dragons=0, one_each_wind=True), 0,
            "112: 108 + one each of 东南西北 (灌南)"),
    "112_wind_flowers": (_copies(winds=0, dragons=0), 4,
                         "112: 108 + one each of 东南西北 as bonus tiles (灌南)"),
    "84": (_copies(suits=(1, 2), winds=0), 0, "84: 筒 条 x 36 + 中发白 x 4 (no 万, no winds)"),
    "100": (_copies(suits=(1, 2)), 0, "100: 筒 条 x 36 + 28 honours (no 万, 广东 不带万)"),
    "72": (_copies(suits=(1, 2), winds=0, dragons=0), 0,
           "72: 筒 条 x 36 only (no 万, no honours, 广东 不带万 不带风)"),
    "128_honor_flowers": (_copies(winds=0, dragons=0), 20,
                          "128: 108 suited + 东南西北中 x 4 as flowers (罗源 20花)"),
    "144_honor_flowers": (_copies(winds=0, dragons=0), 36,
                          "144: 108 suited + 28 honors and 8 flowers, all as flowers (罗源 36花)"),
    "116": (_copies(winds=0, dragons=0), 8, "116: 108 suited + 8 flowers (海南 无字牌)"),
    "144_dragon_flowers": (_copies(dragons=0), 20,
                           "144: 108 suited + 16 winds + 20 flowers (8 flowers + 中发白 x 4, 南京)"),
}
"""Built-in tile sets: per-kind copies of the playable kinds and non-playing (flower) tiles."""


def tile_copies(name: str) -> tuple:
    """Copies of each of the 34 kinds in the tile set `name` (:data:`TILE_SETS`).

    Raises
    ------
    RuleError
        Unknown tile set.
    """
    try:
        return TILE_SETS[name][0]
    except KeyError:
        raise RuleError(f"unknown tile set {name!r}; known: {', '.join(TILE_SETS)}") from None

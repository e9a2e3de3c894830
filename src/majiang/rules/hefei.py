"""合肥麻将 (Hefei), read as the Changsha-family game it is — docs/rules/hefei.md
(sources there: the general texts, CS/JD for the Changsha values, a Hefei product's notes).

From the general rule texts (docs/rules/hefei.md): 万 筒 条 only (108 tiles); 八枝 (at the win one suit
holds 8 or more tiles); "不许吃牌，不许碰牌"; win classes 小和 (平和, and the
start-of-hand 四喜 / 无将和 / 缺一色 / 六顺), 大和 (七小对, 碰碰和, 将将和, 清一色, 杠上花,
抢杠和, 海底捞月; a 大和 shape that is also a 小和 shape scores as 大和), 超大和
(豪华七对, or two 大和 together) and 最大和 (three together).

From the public sources (docs/rules/hefei.md; docs/rules/changsha.md §2 for the values):

* the classes are Changsha's, so Changsha's values apply: 小和 1 from the discarder,
  2 from each player on a self-draw (docs/rules/changsha.md §2, JD); each 大和 6 (from the discarder,
  or from each player on a self-draw), 超大和 12, 最大和 18 — classes, so the 大和 add
  up to at most three (``cap`` 18; 豪华七对 counts 12, 双豪华七对 18); 全求人 is a
  大和 (it appears in the seed's 超大和 combinations);
* 将将和 = every tile a 2, 5 or 8 (docs/rules/changsha.md, CS/JD);
* "不许碰" is read as **no 吃**: 碰 is allowed, else 碰碰和 / 全求人 could not exist
  ([interp.] of the readings, seed internal evidence);
* 4 players, 13 tiles (dealer 14); 一炮多响 (the seed's 通炮者 deals next).

Options of :func:`build` (default = the reading above; alternatives named):

* ``jiang_258`` (True): a 小和 needs a 2/5/8 pair as in Changsha (docs/rules/changsha.md §1); False =
  any pair (the Hefei seed states no pair rule).
* ``cap`` (18): the 最大和 value; ``None`` = 大和 add up without limit (Changsha's
  own products, docs/rules/changsha.md §2).
* ``tiles`` (108): the seed's 108; 144 = the HFMJ product inventory (id 67344196275,
  **conflict** in §1), honors then playable and flowers non-playing.

Not scored from one hand (documented, not guessed): the start-of-hand 小和 are a
payment of :data:`START_OF_HAND_PAYMENT` from each other player during play (use
:func:`start_of_hand_wins` on the dealt hand); 扎鸟, 飘, 闹庄 and the Hefei 嘴
values (not found).  将将和 is a winning form of its own (``all_258``: every tile a 2,
5 or 8, melds included, any shape), a 大和 (6).

Shanten, ukeire, waits and advice (``jiang_258`` on) aim at the hands that win by
shape alone, as in :mod:`majiang.rules.changsha`: a 2-5-8 pair for a 小和, any pair
for a 大和 shape (七小对, 碰碰和, 清一色, 将将和, 全求人); 杠上花, 抢杠和 and 海底捞月 are
tagged ``"situational"`` and never make a hand ready.  八枝 (``eight_of_a_suit``) is
part of the shape there: shanten, ukeire, waits and advice aim at complete hands with
8 or more tiles of a suit (melds included), exactly (``efficiency._eight_groups``).
"""
from __future__ import annotations

from . import fans as F
from .base import Ruleset, ScoringRule, WallEnd, check_bool, check_choice, check_int, settle_points
from .table_rules import DealerRule

__all__ = ["build", "HEFEI", "start_of_hand_wins", "START_OF_HAND_PAYMENT"]

START_OF_HAND_PAYMENT = 2
"""A start-of-hand 小和 (四喜, 无将和, 缺一色, 六顺) is paid like a 小和 self-draw: 2 from
each other player, and play goes on (docs/rules/hefei.md §1, docs/rules/changsha.md §3 JD)."""


def start_of_hand_wins(hand: object) -> tuple[str, ...]:
    """The start-of-hand 小和 a dealt hand (13 or 14 tiles) claims (docs/rules/hefei.md §1, docs/rules/changsha.md §3).

    四喜: four of one kind; 无将和: no 2, 5 or 8; 缺一色: one of 万 筒 条 missing;
    六顺: two kinds held three (or more) times.

    Returns
    -------
    tuple of str
        The names, in that order (empty when none).

    Raises
    ------
    InvalidHandError, InvalidNotationError
        For a hand that cannot be read.
    """
    from ..hand import as_hand
    h = as_hand(hand)
    c = [int(x) for x in h.concealed]
    for m in h.melds:
        for t in m.tiles:
            c[t] += 1
    from .changsha import start_of_hand_wins as changsha_start
    names = {"板板胡": "无将和", "六六顺": "六顺"}       # the same patterns, Hefei's names
    return tuple(names.get(x, x) for x in changsha_start(c))


def build(*, jiang_258: bool = True, cap: int | None = 18, tiles: int = 108) -> Ruleset:
    check_choice(tiles, "hefei option tiles", (108, 144))
    check_bool(jiang_258, "hefei option jiang_258")
    check_int(cap, "hefei option cap", lo=6, optional=True)
    src = "docs/rules/hefei.md §1 (docs/rules/changsha.md §2)"
    big = ("big", "pattern")
    sit = big + ("situational",)      # needs the win's context: never ready by shape
    q = F.seven_pairs_quads
    ex = (20, 21)
    fl = (
        F.fan(1, "双豪华七小对", "Double Luxury Seven Pairs (最大和)", 18,
              lambda w: int(q(w) >= 2), excludes=(2, 3) + ex, tags=big + ("shape:seven_pairs",),
              source=src),
        F.fan(2, "豪华七对", "Luxury Seven Pairs (超大和)", 12, lambda w: int(q(w) == 1),
              excludes=(3,) + ex, tags=big + ("shape:seven_pairs",), source=src),
        F.fan(3, "七小对", "Seven Pairs", 6, F.seven_pairs, excludes=ex, tags=big, source=src),
        F.fan(4, "碰碰和", "All Pungs", 6, F.all_pungs, excludes=ex, tags=big, source=src),
        F.fan(5, "将将和", "All 2-5-8", 6, F.all_258, excludes=ex, tags=big, source=src),
        F.fan(6, "清一色", "Full Flush", 6, F.flush, excludes=ex, tags=big, source=src),
        F.fan(7, "杠上花", "Win on Kong Replacement", 6, F.kong_flower, excludes=ex, tags=sit,
              source=src),
        F.fan(8, "抢杠和", "Robbing the Kong", 6, F.robbing, excludes=ex, tags=sit, source=src),
        F.fan(9, "海底捞月", "Last Tile Self-Draw", 6, F.last_self, excludes=ex, tags=sit,
              source=src),
        F.fan(10, "全求人", "Melded Hand", 6, F.melded_all, excludes=ex, tags=big, source=src),
        F.fan(20, "小和", "Small Win (平和)", 1, F.always, fallback=True, source=src),
        F.fan(21, "小和自摸", "Small Win Self-Drawn", 1, F.self_drawn, minimum=False,
              source=src),
    )
    tile_set = "108" if tiles == 108 else "144"
    return Ruleset(
        # who deals next: the 通炮者 deals next, else the winner (S003)
        dealer_rule=DealerRule(win="discarder"),
        name="hefei", title="合肥麻将 (Hefei, Changsha-family reading)",
        tiles_note="" if tiles == 108 else "HFMJ inventory", players=4, hand_size=13,
        calls=("pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=("regular", "seven_pairs", "all_258"), seven_pairs_quads=True, min_fan=0,
        flowers_count_toward_minimum=False, fans=fl, settlement=settle_points,
        settlement_params={},
        source="docs/rules/hefei.md §1; docs/rules/changsha.md",
        tile_set=tile_set,
        constraints=("eight_of_a_suit",) + (("pair_258_small",) if jiang_258 else ()),
        ready="none", wall_end=WallEnd(kept=0), winners="multiple",
        scoring=ScoringRule(mode="add", cap=cap, unit="points"),  # §1: 长沙 values
        options={"jiang_258": jiang_258, "cap": cap, "tiles": tiles},
        builder="hefei", section="§3.8",
        interpreted=("Changsha values (docs/rules/hefei.md §1): the Hefei 嘴 table was not found",
                     "不许碰 read as no 吃"),
        missing=())


HEFEI = build()

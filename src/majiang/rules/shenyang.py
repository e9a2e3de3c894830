"""沈阳麻将 — docs/rules/shenyang.md.

All facts from the seed: 136 tiles, no flowers; must open (开门) by a peng or an
exposed kong (a chi does not open); no voided suit; the hand must hold 幺九 (a
suited 1 or 9); base 1, a win of N 番 scores 2^N, a cap by agreement; fans: 飘
(碰碰和) 3, 手把一 +1, kongs (中发白 明 2 / 暗 4, others 明 1 / 暗 2), 碰 of 中发白 1,
边和 2, 夹和 2, 杠上开花 / 海底捞月 / 杠上流泪 1, 小和 1 (杠上流泪: dealing in with the discard
right after one's own kong, the win context's ``kong_discard``).

Rule 10 (碰牌算杠, our name): "已碰的对子若在之后的对局中吃或手牌的顺子中也有已碰的这张牌算1杠
（即加算1番），和牌时生效，先吃后碰亦可" — a claimed pung (碰, a declared meld) whose tile
also sits in a chow of the winning hand (claimed or in hand, before or after the 碰)
counts as one kong: +1 番 per such pung, scored at the win beside the kongs.  Dragons
never form chows, so it is always the plain kong's 1 番.  A pung formed in the hand is
not a 碰 and does not count [interp.].

Ambiguities: 小和 (1) is the value of a win with no other fan; 闷三家/闭门炮 need play
history or are undefined and are not scored; ``cap`` option (None).  亮牌 is not played:
the text leaves open what a shown set is in the hand (docs/rules/shenyang.md §4), so it
is listed under ``lost``.
Players 4 and 13-tile hands are assumed (not stated).
"""
from __future__ import annotations

from . import fans as F
from .base import Ruleset, ScoringRule, WallEnd, check_int, settle_points

__all__ = ["build", "SHENYANG"]


def _kongs(dragon: bool, concealed: bool):
    def pred(w) -> int:
        return sum(1 for m in w.hand.melds if m.kind == "kong" and m.concealed == concealed
                   and (m.tile >= 31) == dragon)
    return pred


def _pung_tile_in_chow(w) -> int:
    """碰牌算杠 (rule 10): claimed pungs whose tile is also in a chow of the hand."""
    chows = [s.tile for s in w.sets if s.kind == "chow"]
    return sum(1 for s in w.sets if s.kind == "pung" and s.melded
               and any(c <= s.tile <= c + 2 for c in chows))


def build(*, cap: int | None = None) -> Ruleset:
    check_int(cap, "shenyang option cap", lo=0, optional=True)
    src = "docs/rules/shenyang.md"
    fl = (
        F.fan(1, "小和", "Small Win", 1, F.always, fallback=True, source=src),
        F.fan(2, "飘", "All Pungs", 3, F.all_pungs, source=src),
        F.fan(3, "手把一", "One Tile in Hand", 1, F.single_left, source=src),
        F.fan(4, "中发白明杠", "Exposed Dragon Kong", 2, _kongs(True, False), source=src),
        F.fan(5, "中发白暗杠", "Concealed Dragon Kong", 4, _kongs(True, True), source=src),
        F.fan(6, "明杠", "Exposed Kong", 1, _kongs(False, False), source=src),
        F.fan(7, "暗杠", "Concealed Kong", 2, _kongs(False, True), source=src),
        F.fan(14, "碰牌算杠", "Punged Tile also in a Chow (counts as a kong)", 1,
              _pung_tile_in_chow, source=src),
        F.fan(8, "碰中发白", "Dragon Pung", 1,
              lambda w: sum(1 for s in w.sets if s.kind == "pung" and s.tile >= 31), source=src),
        F.fan(9, "边和", "Edge Wait", 2, F.edge, source=src),
        F.fan(10, "夹和", "Closed Wait", 2, F.closed, source=src),
        F.fan(11, "杠上开花", "Win on Kong Replacement", 1, F.kong_flower, source=src),
        F.fan(12, "海底捞月", "Last Tile Self-Draw", 1, F.last_self, source=src),
        F.fan(13, "杠上流泪", "Win on a Discard after a Kong", 1, F.kong_discard, source=src),
    )
    return Ruleset(
        name="shenyang", title="沈阳麻将 (Shenyang)", players=4, hand_size=13,
        calls=("chow_left", "pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=("regular",), seven_pairs_quads=False, min_fan=0,
        flowers_count_toward_minimum=False, fans=fl, settlement=settle_points,
        settlement_params={}, source="docs/rules/shenyang.md", tile_set="136",
        constraints=("must_open_pung", "no_void", "terminal"), ready="optional",
        wall_end=WallEnd(kept=0), winners="head_bump",
        scoring=ScoringRule(mode="double", base=1, cap=cap), options={"cap": cap},
        builder="shenyang", section="§3.29",
        interpreted=("小和 1 read as the value of a win with no other fan",
                     "4 players and 13-tile hands assumed (not stated)",
                     "play to the last tile (the wall end not stated)",
                     "one winner, the first in turn after the discarder (several winners not "
                     "stated)",
                     "rule 10 (a punged tile also in a chow counts as a kong): only a claimed "
                     "pung (碰), +1 番 each"),
        lost=("闭门炮 (named, never defined)",
              "亮牌 (2 番): whether a shown set is one of the hand's four sets, whether "
              "showing 中发白 draws a replacement, whether the 2 番 is per set shown, whose "
              "honour pungs then count 2 番, and what 未亮时不允许和牌 forbids are not stated"))


SHENYANG = build()

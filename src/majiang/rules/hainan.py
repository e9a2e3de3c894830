"""海南麻将 (Hainan) — docs/rules/hainan.md (source key HN: the
BX Hainan module ``MJTable_HaiNan`` / ``GameConstants_HaiNan``; the settlement fragment of docs/rules/partial.md §3).

From the general rule texts (docs/rules/hainan.md): 番 is a condition to win, not a multiplier; its sources are
1 a 2/5/8 pair, 2 a pung/kong of 中/发/白, 3 one's own flower (dealer 春/梅, 下家 夏/兰,
对家 秋/菊, 上家 冬/竹), 4 a pung/kong of the prevailing wind (令) or one's own wind,
5 门前清, 6 碰碰和, 10 自摸 ("无番靠自摸": a hand without 番 may still win by self-draw);
flowers exist, chows exist.

From the public sources (docs/rules/hainan.md, HN; one commercial server, "partial"):

* 144 tiles (136 + 8 flowers, replaced from the tail); 4 players, 13 tiles (dealer 14);
  吃 碰 杠; a wall end of about 15 tiles [interp. of code];
* items 7–9 of the 番 list, read as 混一色, any kong, and 只吃不碰 (claimed melds, all
  chows) [interp.]; HN also counts 七对, 十三幺, 清一色 and 花胡 (7 or more flowers) as
  番 — all of them are fans tagged ``pattern`` here, and a win on a discard needs one
  (constraint ``discard_needs_pattern``; a self-draw or a robbed kong does not);
* value, convention M from 1 (HN ``get_chi_hu_fen``): 杠上开花 ×3, 清一色 ×2, 碰碰胡 ×2,
  七小对 ×2 / 豪华七小对 ×3, 十三幺 ×13, 自摸 ×2, multiplied, then the cap (8, 12 or 16);
* settlement (HN): each other player pays value × d, on a discard win too, and the
  discarder pays +1 (炮分); d = 1, +1 when the dealer is one of the two (庄闲).
  ``result.settle(winner, discarder)`` finds the dealer's seat from the winner's seat
  wind (East = the dealer); :func:`settle_hainan` takes ``dealer=`` directly.

Options of :func:`build` (default first, alternatives named):

* ``cap`` (8): the table cap on the value; 12, 16, or ``None`` (no cap).  The three are
  HN table options; the first listed is used (cap applied to the value, before d —
  "per payer or total" is still unknown, §6).
* ``you_fan`` (True, 有番): a discard win needs a 番 source; False = 无番.
* ``jiao_ling`` (True, 叫令): a pung of the prevailing wind is a 番 source.
* ``zhuangxian`` (True, 庄闲): payments between the dealer and another player get d + 1.
* ``no_honors`` (False, 无字牌): the honors removed (108 suited + 8 flowers).
* ``players`` (4): HN also offers 3.
* ``huashang`` (True, HN and HNJ): 花上添花 ×3, a self-draw on the tile drawn for a flower
  (the win context's ``flower_replacement``, which the game engine sets); False = the
  fragment's 花砸 (docs/rules/hainan_tuidao.md): such a win is allowed and adds nothing.
  The two texts **conflict**; the module follows the servers' multiplier scale, so ×3 is
  the default.  A kong's replacement that was a flower, itself replaced, is 花上添花 and
  not also 杠上开花 [interp.: HN's win type is one of 杠开 / 补花]; like 杠上开花 it
  multiplies with 自摸 ×2 (docs/rules/hainan.md §3 lists them side by side).

天胡 / 地胡 ×3 (and each a 番 source) come from the win context's ``first_turn``, which
the game engine sets; 地胡 is read as any non-dealer win in the first go-around before a
call [interp.].  Not scored from one hand: the side bet 噶 and the dealer
streak (both add to d).

包牌 (liability, HN; :attr:`Ruleset.liabilities <majiang.rules.base.Ruleset.liabilities>`,
played by both game loops): the responsible player pays the whole win, the 炮分 +1
included when he discarded — 三道牌: a win on the discard of a seat that fed the winner
three (or four) of his claimed melds; a 番-less 抢杠 under 有番 (a robbed kong won with no
``pattern`` fan): the robbed seat; 四道牌: a self-draw whose four claimed melds one seat
fed: that seat pays what all three would.  Two table options of HN add cases, read from
the servers' code (docs/rules/hainan.md §7): ``haidi_bao`` (海底包牌, off by default) — a
win on a discard or a robbed kong with at most one tile per player left to draw (HN:
``15 < left <= 15 + players``; HNJ: 16 to 19 tiles left) is paid by the discarder alone;
``fang_goujiao`` (防勾脚, off by default) — every win on a discard or a robbed kong is
paid by the discarder alone (HN settles such a win as it does 三道牌).
"""
from __future__ import annotations

from . import fans as F
from .base import (POINTS_FUNCTIONS, Ruleset, ScoringRule, WallEnd, fan_product,
                   check_bool, check_choice, register_settlement)
from .liability import Liability

__all__ = ["build", "HAINAN", "hainan_points", "settle_hainan", "OWN_FLOWERS"]

OWN_FLOWERS = {0: (0, 4), 1: (1, 5), 2: (2, 7), 3: (3, 6)}
"""Own flowers by seat wind (0 = the dealer): flower indices of 春夏秋冬梅兰竹菊 —
dealer 春/梅, 下家 夏/兰, 对家 秋/菊, 上家 冬/竹 (docs/rules/hainan.md §2 item 3)."""


def _n_flowers(w) -> int:
    return max(w.context.flowers, w.hand.n_flowers)


def _own_flower(w) -> int:
    own = OWN_FLOWERS[w.context.seat_wind]
    return sum(1 for f in w.hand.flowers if f in own)


def _wind_pung(ling: bool):
    def pred(w) -> int:
        good = {27 + w.context.seat_wind}
        if ling:
            good.add(27 + w.context.prevalent_wind)
        return sum(1 for t in w.pungs if t in good)
    return pred


def _chows_only(w) -> int:
    """只吃不碰: at least one claimed meld, and every claimed meld a chow."""
    ex = [m for m in w.hand.melds if not m.concealed]
    return int(bool(ex) and all(m.kind == "chow" for m in ex))


def _eye_258(w) -> int:
    return int(w.form == "regular" and F.pair_258(w))


def hainan_points(fans: dict, rs, w) -> int:
    """The value: the product of the multipliers of the counted fans, then the cap."""
    return fan_product(fans, rs, tag="multiplier")


POINTS_FUNCTIONS["hainan"] = hainan_points


@register_settlement
def settle_hainan(points: int, winner: int, discarder: int | None, *, players: int = 4,
                  dealer: int | None = 0, zhuangxian: bool = True, pao: int = 1) -> tuple:
    """海南 settlement (HN): each other player pays ``points × d`` on every win, d = 1
    (+1 when ``zhuangxian`` and the dealer is the payer or the winner); on a discard the
    discarder also pays ``pao`` (炮分, +1).  ``discarder`` None = self-draw."""
    out = [0] * players
    for p in range(players):
        if p == winner:
            continue
        d = 1 + (1 if zhuangxian and dealer is not None and dealer in (p, winner) else 0)
        amount = points * d + (pao if p == discarder else 0)
        out[p] -= amount
        out[winner] += amount
    return tuple(out)


def build(*, cap: int | None = 8, you_fan: bool = True, jiao_ling: bool = True,
          zhuangxian: bool = True, no_honors: bool = False, players: int = 4,
          huashang: bool = True, haidi_bao: bool = False,
          fang_goujiao: bool = False) -> Ruleset:
    check_choice(cap, "hainan option cap", (8, 12, 16, None))
    check_choice(players, "hainan option players", (3, 4))
    for key, v in (("you_fan", you_fan), ("jiao_ling", jiao_ling), ("zhuangxian", zhuangxian),
                   ("no_honors", no_honors), ("huashang", huashang),
                   ("haidi_bao", haidi_bao), ("fang_goujiao", fang_goujiao)):
        check_bool(v, f"hainan option {key}")
    src = "docs/rules/hainan.md (HN)"
    mult, pat = ("multiplier",), ("pattern",)
    fl = (
        F.fan(1, "平胡", "Basic Win (x1)", 1, F.always, fallback=True, source=src),
        F.fan(2, "杠上开花", "Win on Kong Replacement (x3)", 3, F.kong_flower, tags=mult,
              source=src),
        F.fan(3, "清一色", "Full Flush (x2)", 2, F.flush, tags=mult + pat, source=src),
        F.fan(4, "碰碰胡", "All Pungs (x2)", 2, F.all_pungs, tags=mult + pat, source=src),
        F.fan(5, "七小对", "Seven Pairs (x2)", 2, F.seven_pairs, tags=mult + pat, source=src),
        F.fan(6, "豪华七小对", "Luxury Seven Pairs (x3)", 3,
              lambda w: int(F.seven_pairs_quads(w) > 0), excludes=(5,), tags=mult + pat,
              source=src),
        F.fan(7, "十三幺", "Thirteen Orphans (x13)", 13,
              lambda w: int(w.form == "thirteen_orphans"), tags=mult + pat, source=src),
        F.fan(8, "自摸", "Self-Drawn (x2)", 2, F.self_drawn, tags=mult, source=src),
        F.fan(10, "有眼", "2-5-8 Pair (番)", 0, _eye_258, tags=pat, source=src),
        F.fan(11, "箭刻", "Dragon Pung (番)", 0, F.dragon_pungs, tags=pat, source=src),
        F.fan(12, "番花对位", "Own Flower (番)", 0, _own_flower, tags=pat, source=src),
        F.fan(13, "令牌/风刻", "Prevailing or Seat Wind Pung (番)", 0, _wind_pung(jiao_ling),
              tags=pat, source=src),
        F.fan(14, "门清", "Concealed Hand (番)", 0, F.concealed, tags=pat, source=src),
        F.fan(15, "混一色", "Half Flush (番)", 0, F.half_flush, tags=pat, source=src),
        F.fan(16, "杠", "Kong (番)", 0, lambda w: int(F.kongs(w) > 0), tags=pat, source=src),
        F.fan(17, "只吃不碰", "Chows Only (番)", 0, _chows_only, tags=pat, source=src),
        F.fan(18, "花胡", "Seven Flowers (番)", 0, lambda w: int(_n_flowers(w) >= 7), tags=pat,
              source=src),
        F.fan(19, "天胡", "Heavenly Hand (x3)", 3, F.heavenly, tags=mult + pat, source=src),
        F.fan(20, "地胡", "Earthly Hand (x3)", 3, F.earthly_or_human, tags=mult + pat,
              source=src),
    )
    if huashang:        # 花上添花 ×3 (HN, HNJ); off: the fragment's 花砸, no 番
        fl += (F.fan(21, "花上添花", "Win on a Flower Replacement (x3)", 3,
                     F.flower_replacement, excludes=(2,), tags=mult, source=src),)
    tile_set = "116" if no_honors else "144"
    # 包牌 (docs/rules/hainan.md §4): the liable seat pays the whole win (+1 炮分 when he
    # discarded): 三道牌 — the discarder fed the winner three melds; a 番-less 抢杠 under
    # 有番 — the robbed seat; 四道牌 — a self-draw whose four melds one seat fed
    bao = (Liability("三道牌", wins=("discard",), liable="discarder", fed=3),)
    if you_fan:
        bao += (Liability("无番抢杠", wins=("robbing_kong",), liable="discarder",
                          unless_fans=tuple(f.chinese for f in fl if "pattern" in f.tags)),)
    # 海底包牌 (option, HN / HNJ code): a win on a discard or a robbed kong with at most
    # one tile per player left to draw (HN: 15 < left <= 15 + players, 15 kept)
    if haidi_bao:
        bao += (Liability("海底包牌", wins=("discard", "robbing_kong"), liable="discarder",
                          last_tiles=players),)
    # 防勾脚 (option, HN code): every win on a discard or a robbed kong is paid by the
    # discarder (the robbed seat) alone, against two seats playing into each other's hands
    if fang_goujiao:
        bao += (Liability("防勾脚", wins=("discard", "robbing_kong"), liable="discarder"),)
    bao += (Liability("四道牌", wins=("self_draw", "kong_replacement"), liable="feeder",
                      fed=4),)
    return Ruleset(
        name="hainan", title="海南麻将 (Hainan)",
        players=players, hand_size=13,
        calls=("chow_left", "pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=("regular", "seven_pairs", "thirteen_orphans") if not no_honors
        else ("regular", "seven_pairs"),
        seven_pairs_quads=True, min_fan=0, flowers_count_toward_minimum=False, fans=fl,
        settlement=settle_hainan,
        settlement_params={"dealer": 0, "zhuangxian": zhuangxian, "pao": 1},
        source="docs/rules/hainan.md",
        tile_set=tile_set, constraints=("discard_needs_pattern",) if you_fan else (),
        ready="none", wall_end=WallEnd(kept=15), winners="head_bump", liabilities=bao,
        scoring=ScoringRule(mode="custom", function="hainan", cap=cap),
        options={"cap": cap, "you_fan": you_fan, "jiao_ling": jiao_ling,
                 "zhuangxian": zhuangxian, "no_honors": no_honors, "players": players,
                 "huashang": huashang, "haidi_bao": haidi_bao,
                 "fang_goujiao": fang_goujiao},
        builder="hainan", section="§3.20",
        interpreted=("items 7-9 of the 番 list inferred (docs/rules/hainan.md)",
                     "a wall end of about 15 tiles; 地胡 as any non-dealer win in the first go-around before a call",
                     "the cap applied to the value, before d, so per payer (per payer or in "
                     "total: not stated)",
                     "花上添花 x3 (the servers) over the fragment's 花砸 with no 番 (option "
                     "huashang); a flower drawn as a kong's replacement: 花上添花, not also "
                     "杠上开花",
                     "海底包牌 (option haidi_bao) read from the servers' code "
                     "(docs/rules/hainan.md §7): a win on a discard or a robbed kong with at "
                     "most one tile per player left to draw is paid by the discarder alone",
                     "防勾脚 (option fang_goujiao) read from one server's code "
                     "(docs/rules/hainan.md §7): every win on a discard or a robbed kong is "
                     "paid by the discarder alone"),
        lost=())


HAINAN = build()

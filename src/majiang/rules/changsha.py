"""长沙麻将 二五八 — docs/rules/changsha.md.

From the general rule texts (docs/rules/changsha.md): 108 tiles (no honors); 小胡 = a 2/5/8 pair (将) plus
sets; 大胡 七巧对 (seven pairs) and 清一色; 转转 style (any pair, no chi) as option.
From the public sources (docs/rules/changsha.md, high confidence, two commercial servers agree):
chi from the left, peng, kongs; 小胡 1 on a discard, 2 from each on a self-draw;
each 大胡 6 (they add up): 碰碰胡, 将将胡 (every tile a 2/5/8), 清一色, 七小对, 海底捞月,
海底炮, 杠上开花, 杠上炮, 抢杠胡, 全求人; 豪华七小对 12, 双豪华 18; a 大胡 may use any pair;
一炮多响.

Resolutions: 将将胡 is a winning form of its own (``all_258``: every tile, melds
included, a 2, 5 or 8, any shape — docs/rules/changsha.md §2 "any shape"), a 大胡 (6); the 转转 option
keeps the seed's forms (regular, seven pairs) with any pair.  Shanten, ukeire, waits
and advice aim at the hands that win *by shape alone* (on a discard or by self-draw,
no situational context): a regular hand with a 2-5-8 pair (小胡), or a 大胡 shape
with any pair — 七小对, 碰碰胡, 清一色, 将将胡 of any shape, 全求人 (four claimed
melds, won on a discard).  海底捞月, 海底炮, 杠上开花, 杠上炮 and 抢杠胡 are tagged
``"situational"``: they never make a hand ready (so ``123m456p789s1166s`` is not
ready: neither 1s nor 6s gives a 2-5-8 pair or a 大胡 shape).  起手胡 and 扎鸟 need the
game history: the game engine plays them through the end-of-hand settlement
(:func:`end_settlement`, both loops).

杠 and 补张 (docs/rules/changsha.md §1, JD; ``kong_reveal=2``, 二五八 only): after a kong a
player whose hand is ready may, instead of the 补张 (one replacement tile), 杠: two tiles
are turned from the wall; each that completes his hand is a 杠上开花 win of its own (both:
paid twice); else each other seat may win on a turned tile that completes its hand
(杠上炮, the konger paying; several winners allowed, each tile won a win of its own);
else both tiles are his discards, his hand is locked (he discards each draw unless it
wins) and play passes to his 下家 (the game engine, :mod:`majiang.game.engine.open_kong`,
both loops).  杠上开花 is also a win on a 补张's replacement, and 杠上炮 a win on the discard
the konger makes after a 补张 (the win context's ``kong_discard``) [interp.: the readings
name these wins only for the 杠; we keep them for the 补张].  Not played: chowing, punging
or konging a turned tile (JD allows it), a locked konger's later kong.

起手胡 (docs/rules/changsha.md §3, CS/JD/MP): each pattern a dealt hand shows
(:func:`start_of_hand_wins`: 四喜, 板板胡, 缺一色, 六六顺; the dealer's 14 tiles) is paid
like a self-drawn 小胡, 2 from each other player, and play goes on.  The money is due at
the deal; the engine books it with the hand's other end-of-hand payments (``check`` =
the pattern's name), which changes no total.  Each pattern counts once per hand.

扎鸟 (docs/rules/changsha.md §4, CS/JD): after a win ``birds`` tiles (default 2) are
turned from the head of the live wall; on a 海底 win (the wall empty) the last tile is
the one bird.  A bird of rank r points at the seat (r - 1) mod 4 places on from the
winner (several winners: from the discarder): 1/5/9 the winner, 2/6 the 下家, 3/7
across, 4/8 the 上家.  Each payment of a win rises with the birds on its winner plus
those on its payer: ``bird_mode`` "add" +1 a bird (default), "times" x (1 + birds),
"double" x 2^birds (``check`` = "扎鸟").

Birds and 起手胡 (docs/rules/changsha.md §4, CS ``calcOver`` / ``calXiaoHuFen``; option
``start_win_birds``, on by default: CS's 起手鸟分 setting): the birds also raise each
起手胡 payment (2 a pattern from each other player), by the birds on the claimant plus
those on the payer, in the same ``bird_mode`` (+1 a bird once on the pattern total, x (1 +
birds), x 2^birds); and a drawn hand in which someone claimed a 起手胡 turns its birds
too: the wall is empty, so the 海底 tile (the last tile drawn) is the one bird, counted
from the dealer (CS counts from the dealer; there is no winner) [interp.: CS skips the +1
on a claimant who also won the hand, a quirk of one server; not played].
"""
from __future__ import annotations

from ..tiles import KINDS_258
from . import fans as F
from .base import (END_SETTLEMENTS, Ruleset, ScoringRule, WallEnd, check_bool, check_choice,
                   check_int, settle_points)
from .table_rules import RAISE_MODES, pointed_seats, raised_amount, raised_payments
from .table_rules import DealerRule

__all__ = ["build", "CHANGSHA", "start_of_hand_wins", "bird_seats", "end_settlement",
           "START_OF_HAND_PAYMENT", "BIRD_MODES"]

START_OF_HAND_PAYMENT = 2
"""A 起手胡 is paid like a self-drawn 小胡: 2 from each other player (docs/rules/changsha.md
§3, JD; CS pays 1 底分 or a fixed 2 as an option)."""

BIRD_MODES = RAISE_MODES
"""扎鸟 scoring (docs/rules/changsha.md §4, CS ``calcBird`` / JD): +1 a bird, x (1 + birds),
x 2^birds."""


def start_of_hand_wins(counts) -> tuple[str, ...]:
    """The 起手胡 patterns a dealt hand shows (docs/rules/changsha.md §3, CS/JD/MP).

    四喜: four of one kind; 板板胡: no 2, 5 or 8 at all; 缺一色: one of 万 筒 条 missing;
    六六顺: two kinds held three (or more) times.

    Parameters
    ----------
    counts : sequence of int or mapping
        Copies per kind 0..33 (a length-34 sequence or ``{kind: copies}``), melds
        included if any.

    Returns
    -------
    tuple of str
        The names, in that order (empty when none).
    """
    if hasattr(counts, "items"):
        c = [0] * 34
        for k, v in counts.items():
            c[int(k)] += int(v)
    else:
        c = [int(x) for x in counts]
    out = []
    if max(c) >= 4:
        out.append("四喜")
    if not any(c[k] for k in KINDS_258):
        out.append("板板胡")
    if any(sum(c[9 * s:9 * s + 9]) == 0 for s in range(3)):
        out.append("缺一色")
    if sum(1 for x in c if x >= 3) >= 2:
        out.append("六六顺")
    return tuple(out)


def bird_seats(birds, anchor: int, players: int = 4) -> list[int]:
    """Per seat, how many of the bird tiles ``birds`` (kinds 0..26) point at it, counting
    from seat ``anchor`` (the winner, or the discarder with several winners): rank r is
    the seat (r - 1) mod 4 places on in turn order (docs/rules/changsha.md §4, JD
    ``get_seat``; :func:`~majiang.rules.table_rules.pointed_seats`)."""
    return pointed_seats(birds, anchor, players)


def end_settlement(rs, table) -> list:
    """起手胡 and 扎鸟 at the end of a hand (see the module docstring): a list of
    ``{"check", "payer", "payee", "amount"}`` over the final table
    (:class:`~majiang.rules.base.EndTable`)."""
    opts = rs.options
    n = table.players
    out = []
    claimed = {}                          # seat: its 起手胡 patterns
    if opts.get("start_wins", True):
        for p, hand in enumerate(table.start):
            names = start_of_hand_wins(hand)
            for name in names:
                for q in range(n):
                    if q != p:
                        out.append({"check": name, "payer": q, "payee": p,
                                    "amount": START_OF_HAND_PAYMENT})
            if names:
                claimed[p] = len(names)
    nb = int(opts.get("birds", 0))
    start_birds = bool(claimed) and opts.get("start_win_birds", True)
    if nb and table.wins:
        birds = table.rest[:nb] if table.rest else table.win_tiles[:1]
        # one winner (winning once, or twice on the tiles of a 开杠): from him
        anchor = table.wins[0][0] if len({w[0] for w in table.wins}) == 1 else table.wins[0][2]
    elif nb and start_birds and table.last_drawn is not None:
        # a drawn hand with a 起手胡: the 海底 tile is the bird, counted from the dealer
        birds = table.rest[:nb] if table.rest else (table.last_drawn,)
        anchor = table.dealer
    else:
        return out
    on = bird_seats(birds, anchor, n)
    mode = opts.get("bird_mode", "add")
    out += raised_payments(table, lambda w, q: on[w] + on[q], mode, "扎鸟")
    if start_birds:
        for p, k in claimed.items():
            for q in range(n):
                extra = 0 if q == p else raised_amount(START_OF_HAND_PAYMENT * k,
                                                       on[p] + on[q], mode)
                if extra:
                    out.append({"check": "扎鸟", "payer": q, "payee": p, "amount": extra})
    return out


END_SETTLEMENTS["changsha"] = end_settlement


def build(*, zhuanzhuan: bool = False, start_wins: bool | None = None,
          birds: int | None = None, bird_mode: str = "add",
          start_win_birds: bool = True) -> Ruleset:
    """The Changsha ruleset.  Options: ``zhuanzhuan`` (the 转转 style), ``start_wins``
    (起手胡 paid), ``birds`` (扎鸟 tiles turned after a win, 0..8: our pick of 2 among the
    tables' 1, 2, 4, 6), ``bird_mode`` (:data:`BIRD_MODES`), ``start_win_birds`` (the
    birds raise the 起手胡 payments and are turned after a drawn hand with a 起手胡; CS
    起手鸟分).  None: the style's default (二五八 True and 2; 转转, a separate game, False
    and 0).

    Raises
    ------
    RuleError
        An option of the wrong type or out of range.
    """
    check_bool(zhuanzhuan, "changsha option zhuanzhuan")
    if start_wins is None:
        start_wins = not zhuanzhuan
    if birds is None:
        birds = 0 if zhuanzhuan else 2
    check_bool(start_wins, "changsha option start_wins")
    check_int(birds, "changsha option birds", lo=0, hi=8)
    check_choice(bird_mode, "changsha option bird_mode", BIRD_MODES)
    check_bool(start_win_birds, "changsha option start_win_birds")
    src = "docs/rules/changsha.md §2"
    big = ("big", "pattern")
    sit = big + ("situational",)      # needs the win's context: never ready by shape
    q = F.seven_pairs_quads
    fl = (
        F.fan(1, "双豪华七小对", "Double Luxury Seven Pairs", 18, lambda w: int(q(w) >= 2),
              excludes=(2, 3, 20, 21), tags=big + ("shape:seven_pairs",), source=src),
        F.fan(2, "豪华七小对", "Luxury Seven Pairs", 12, lambda w: int(q(w) == 1),
              excludes=(3, 20, 21), tags=big + ("shape:seven_pairs",), source=src),
        F.fan(3, "七小对", "Seven Pairs", 6, F.seven_pairs, tags=big, excludes=(20, 21), source=src),
        F.fan(4, "碰碰胡", "All Pungs", 6, F.all_pungs, tags=big, excludes=(20, 21), source=src),
        F.fan(5, "将将胡", "All 2-5-8", 6, F.all_258, tags=big, excludes=(20, 21), source=src),
        F.fan(6, "清一色", "Full Flush", 6, F.flush, tags=big, excludes=(20, 21), source=src),
        F.fan(7, "海底捞月", "Last Tile Self-Draw", 6, F.last_self, tags=sit, excludes=(20, 21), source=src),
        F.fan(8, "海底炮", "Last Tile Discard", 6, F.last_discard, tags=sit, excludes=(20, 21), source=src),
        F.fan(9, "杠上开花", "Win on Kong Replacement", 6, F.kong_flower, tags=sit, excludes=(20, 21), source=src),
        F.fan(10, "抢杠胡", "Robbing the Kong", 6, F.robbing, tags=sit, excludes=(20, 21), source=src),
        F.fan(12, "杠上炮", "Win on a Discard after a Kong", 6, F.kong_discard, tags=sit,
              excludes=(20, 21), source=src + " (a tile a 杠 turns; [interp.] the discard "
              "after a 补张)"),
        F.fan(11, "全求人", "Melded Hand", 6, F.melded_all, tags=big, excludes=(20, 21), source=src),
        F.fan(20, "小胡", "Small Win", 1, F.always, fallback=True, source=src),
        F.fan(21, "小胡自摸", "Small Win Self-Drawn", 1, F.self_drawn, minimum=False,
              source=src),
    )
    return Ruleset(
        # who deals next: the winner deals next; several winners: the discarder (JD _cur_banker)
        dealer_rule=DealerRule(win="winner", several="discarder"),
        name="changsha_zhuanzhuan" if zhuanzhuan else "changsha",
        title="长沙转转麻将 (Changsha zhuanzhuan)" if zhuanzhuan else "长沙麻将 二五八 (Changsha)",
        players=4, hand_size=13,
        calls=(() if zhuanzhuan else ("chow_left",)) + (
            "pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=("regular", "seven_pairs") + (() if zhuanzhuan else ("all_258",)),
        seven_pairs_quads=True, min_fan=0,
        flowers_count_toward_minimum=False, fans=fl, settlement=settle_points,
        settlement_params={}, source="docs/rules/changsha.md",
        tile_set="108", constraints=() if zhuanzhuan else ("pair_258_small",), ready="none",
        wall_end=WallEnd(kept=0), winners="multiple",
        scoring=ScoringRule(mode="add", unit="points"),     # §2: amounts per paying player
        options={"zhuanzhuan": zhuanzhuan, "start_wins": start_wins, "birds": birds,
                 "bird_mode": bird_mode, "start_win_birds": start_win_birds},
        end_settlement="changsha" if (start_wins or birds) else "",
        builder="changsha", section="§3.19",
        interpreted=("杠上开花 also a win on a 补张's replacement, 杠上炮 also a win on the "
                     "discard after a 补张",
                     "after a 杠 nobody wins on, the turned tiles are not called (one server lets the "
                     "others chow, pung or kong one) and the locked konger makes no kong",
                     "birds after a drawn hand with a 起手胡: the 海底 tile (the last tile "
                     "drawn) is the one bird, counted from the dealer"),
        kong_reveal=0 if zhuanzhuan else 2)


CHANGSHA = build()
CHANGSHA_ZHUANZHUAN = build(zhuanzhuan=True)

"""杭州麻将 (Hangzhou, 白板 财神) — docs/rules/hangzhou.md (source keys
HZS: the ``HzmjClassic`` design spec of ``pandora-server``; HZB: a Hangzhou bot's fan and
财神 modules, checked against the platform; BDO: a commercial create-room option list;
MIL: the MIL 杭州麻将 2025 rulebook summary).

The seed names only 136 tiles, 爆头, 财飘 and 杠开.  From the public sources (docs/rules/hangzhou.md):

* 136 tiles, 4 players, 13 tiles (dealer 14); 吃 (from the player before you), 碰, 明杠,
  暗杠, 补杠; one winner (the first in turn order after the discarder); the last 20
  tiles are not drawn (MIL "墙尾20张流局").  Forms: 4 sets + a pair, or 七对 (a
  four-of-a-kind counts as two pairs: the 豪华 levels).
* 财神 (HZS §2.2, MIL "白板财神", HZB): **白板 is the 财神**, all four copies, wild in
  sets, the pair and 七对 pairs (``JokerRule(source="fixed", fixed=白)``).  A discarded
  财神 may not be claimed or won on.
* Self-draw only (HZS §6.7, BDO, MIL "仅自摸"): constraint ``self_draw_only``.  A win on
  a discard is allowed only in **三牢** (the dealer's third or later consecutive deal)
  and only between the dealer and a non-dealer: option ``sanlao=True`` describes such a
  hand (the constraint is lifted, the dealer factor is 8 and :func:`settle_hangzhou`
  refuses a 闲-on-闲 discard win).
* Value, convention M (HZB formula, HZS table): ``M = branch × 2^chain × [4个白板 ×2] ×
  [爆头 ×2]``.  Fans (all multipliers): 平胡 ×1; 爆头 ×2 (the hand before the win is
  complete but for a lone 财神, so any tile wins: HZS §6.2); 杠开 ×2 (one kong; a chain
  of k kongs ×2^k, :func:`chain_value`); 4个白板 ×2 (all 财神 held at the win, HZB);
  七对 ×2, 豪华七对 ×4, 双豪华 ×8, 三豪华 ×16 (HZB confirms ×16; the ladder below is
  §3's [interp.]).  七客 (七对 + 爆头) and 杠爆 (杠开 × 爆头) are products, not fans.
* 杠开 chain (HZS §6.4, HZB): a win on the replacement of the k-th kong made in a row (kong,
  replacement, kong again …, with no discard between) is ×2^k: the 杠开 fan counts k, read
  from :attr:`WinContext.kong_chain <majiang.winning.WinContext.kong_chain>` (the game engine
  counts the kongs; ``majiang.score(..., kong_chain=k)`` for a hand by hand; 0 = one kong).
* 财飘 (HZS §6.3, HZB): from a 爆头, the player throws the 财神 instead of winning; each
  飘 doubles (财飘 ×4, 双飘 ×8, 三飘 ×16 with the 爆头 ×2); kongs and 飘 share one chain
  (HZB: at most 6, 飘 at most 3).  The number of 飘 is game history, not a hand: pass it
  to :func:`chain_value` (§7 example 4: 杠 then 飘 then win = M 8).  The game engine does
  not play the 飘 (lost in the sources, ``lost``): its 抓打圈 (until the 飘 player's next
  draw the others may not call and must throw the tile they draw) is left open by the
  sources — whether it also stops an added kong or the others' own self-drawn wins, and
  exactly when it ends (HZB names these as open) — and so is the value of a win after a 飘
  that is not a 爆头 again (HZS: 财飘 ×4; HZB's formula: ×2 without the 爆头).
* Settlement (HZS §6.5, MIL "老庄2/4/8倍"): stake = base × M; the dealer factor N is 2
  on the dealer's first deal, 4 on the second consecutive, 8 from the third (三牢)
  (:func:`dealer_factor`; option ``dealer_deal``).  Self-draw: a dealer winner gets
  stake × N from each non-dealer; a non-dealer winner gets stake × N from the dealer and
  stake from each other non-dealer.  A 三牢 discard win: the discarder pays what all
  three would have paid on a self-draw.
* 三摊承包 (HZS §6.6, BDO, MIL "三吃承包"): :func:`chengbao` moves the whole payment to a
  player from whom the winner took three 摊 (吃, and by default 碰), or who took three
  from the winner.

Hands: in :func:`majiang.score`, :func:`majiang.shanten` … a 财神 is written ``*`` (a
``5z`` there would be a natural 白板, which 杭州 does not have);
:func:`majiang.scoring.faces.score` takes the 白板 by their face.

Options of :func:`build` (default first, alternatives named):

* ``caishen`` ("fixed": 白板, HZS default and MIL; "flip": a turned kind is the 财神 —
  its other 3 copies — and 白板 plays as its face, HZS's optional mode).
* ``cap`` (16: MIL "4番封顶" read as ×16 [interp.]; BDO 32 or 64; None for HZB's 256 /
  512 limits).
* ``dealer_deal`` (1: N = 2; 2: N = 4; 3: 三牢 N = 8; the product option "every hand
  starts at 8" = 3).
* ``sanlao`` (False; True: 三牢 discard wins, see above).
* ``you_cai_bi_kao`` (False; True = HZB's 有财必拷响: holding a 财神, a hand wins only as
  爆头 or 杠开 — read as also covering 七对 [interp.]).
* ``tan_pung`` (True: a 碰 counts as a 摊 for 承包, HZS default; False: only 吃, MIL "三吃").

Lost in the sources: 十风 (named by MIL / BDO, never defined), 清七对 (named by HZS, no
value), kong money (no amounts), 财飘 in play (see above).
"""
from __future__ import annotations

from typing import Any

from ..errors import RuleError
from . import fans as F
from .base import (DERIVED_OPTIONS, POINTS_FUNCTIONS, JokerRule, Ruleset, ScoringRule, WallEnd,
                   fan_product,
                   check_bool, check_choice, check_int, register_settlement)
from .table_rules import DealerRule

__all__ = ["build", "HANGZHOU", "hangzhou_points", "settle_hangzhou", "dealer_factor",
           "chain_value", "chengbao", "lone_joker_ready", "DEALER_FACTORS"]

_SRC = "docs/rules/hangzhou.md (HZS, HZB)"
WHITE = 31
DEALER_FACTORS = (2, 4, 8)
"""老庄 N by the dealer's consecutive deal (1st, 2nd, 3rd and later): HZS §3, MIL."""


# ---------------------------------------------------------------- helpers
def _real_before(w) -> tuple[list, int]:
    """(real tile counts of the concealed hand before the win, jokers held before it)."""
    n, asg, win_joker = F.joker_info(w)
    c = [int(x) for x in w.hand.concealed]
    for k in asg:
        c[k] -= 1
    if win_joker:
        c[w.context.win_tile] += 1
    return c, n - int(win_joker)


def _sets_only(c: list, j: int, room: list) -> bool:
    """Whether counts ``c`` plus ``j`` wild tiles split into pungs and chows only, a wild
    tile standing for kind ``k`` at most ``room[k]`` times (no fifth copy).

    The lowest real kind ``i`` is in a pung (its real copies, jokers for the rest) or in a
    chow starting at ``i - 2``, ``i - 1`` or ``i`` (the kinds below ``i`` are used up, so
    jokers stand there; above ``i`` a real tile is used when there is one — a joker in
    its place is never better)."""
    i = 0
    while i < 34 and c[i] == 0:
        i += 1
    if i == 34:
        return j % 3 == 0
    take = min(3, c[i])
    if 3 - take <= min(j, room[i]):
        c[i] -= take
        room[i] -= 3 - take
        ok = _sets_only(c, j - (3 - take), room)
        room[i] += 3 - take
        c[i] += take
        if ok:
            return True
    if i >= 27:
        return False
    r = i % 9
    for s in (i - 2, i - 1, i):
        if s < i - r or s % 9 > 6 or s // 9 != i // 9:
            continue
        wild, used = [], []
        for k in (s, s + 1, s + 2):
            if k == i or (k > i and c[k] > 0):
                used.append(k)
            else:
                wild.append(k)
        if len(wild) > j or any(room[k] < 1 for k in wild):
            continue
        for k in used:
            c[k] -= 1
        for k in wild:
            room[k] -= 1
        ok = _sets_only(c, j - len(wild), room)
        for k in used:
            c[k] += 1
        for k in wild:
            room[k] += 1
        if ok:
            return True
    return False


def lone_joker_ready(w) -> int:
    """爆头 / 跑百搭 (:mod:`.shanghai_baida`): the hand before the win held a 财神 and,
    without it, was complete — sets only (the 财神 alone waits for the pair), or six
    pairs for 七对 — so any tile wins.  HZS §6.2 ("any draw completes it")."""
    c, j = _real_before(w)
    if j < 1 or min(c) < 0:
        return 0
    j -= 1
    if w.form == "seven_pairs":
        need = sum(x % 2 for x in c)
        return int(need <= j and (j - need) % 2 == 0)
    if w.form != "regular":
        return 0
    if (sum(c) + j) % 3:
        return 0
    room = [4 - x for x in c]
    for m in w.hand.melds:
        for t in m.tiles:
            room[t] -= 1
    return int(_sets_only(list(c), j, room))


def _all_caishen(copies: int):
    """4个白板: every wild copy (4; 3 with a turned 财神 [interp.]) held at the win,
    the drawn one included."""
    def pred(w) -> int:
        return int(F.joker_info(w)[0] >= copies)
    return pred


def _luxury(level: int):
    def pred(w) -> int:
        return int(w.form == "seven_pairs" and F.seven_pairs_quads(w) == level)
    return pred


def _luxury_3plus(w) -> int:
    return int(w.form == "seven_pairs" and F.seven_pairs_quads(w) >= 3)


def hangzhou_points(fans: dict, rs, w) -> int:
    """M: the product of the counted multipliers, capped at ``rs.scoring.cap``; 0 under
    有财必拷响 for a hand holding a 财神 without 爆头 or 杠开 (no win)."""
    m = fan_product(fans, rs)
    if rs.options.get("you_cai_bi_kao") and F.joker_info(w)[0] and not (
            fans.get(2) or fans.get(3)):
        return 0
    return m


POINTS_FUNCTIONS["hangzhou"] = hangzhou_points


def dealer_factor(deal: int) -> int:
    """老庄 N for the dealer's `deal`-th consecutive deal (1 → 2, 2 → 4, 3 or more → 8;
    a drawn hand counts as a consecutive deal).  HZS §3, MIL.

    Raises
    ------
    RuleError
        ``deal`` < 1.
    """
    check_int(deal, "dealer deal", lo=1)
    return DEALER_FACTORS[min(deal, 3) - 1]


def chain_value(*, baotou: bool = False, kongs: int = 0, piao: int = 0,
                all_caishen: bool = False, branch: int = 1, cap: int | None = 16) -> int:
    """M of a win with a chain of ``kongs`` kongs and ``piao`` 财飘 before it (HZB formula
    ``branch × 2^(kongs + piao) × [4个白板 ×2] × [爆头 ×2]``, HZS §6.3–6.4).

    ``branch`` is 1 for a plain hand or the 七对 factor (2, 4, 8, 16); a 飘 needs a 爆头
    (it is thrown from one).  Examples (§5, §7): 财飘 = 4, 双飘 = 8, 三飘 = 16,
    杠开 = 2, 杠爆 = 4, 杠飘 = 8.

    Raises
    ------
    RuleError
        Negative counts, 飘 without 爆头, more than 3 飘 or a chain longer than 6 (HZB).
    """
    for name, v, lo in (("kongs", kongs, 0), ("piao", piao, 0), ("branch", branch, 1)):
        check_int(v, name, lo=lo)
    if piao and not baotou:
        raise RuleError("财飘 is thrown from a 爆头: piao needs baotou=True")
    if piao > 3:
        raise RuleError(f"at most 3 财飘 (三飘), got {piao}")
    if kongs + piao > 6:
        raise RuleError(f"a kong/飘 chain is at most 6 long, got {kongs + piao}")
    m = branch * 2 ** (kongs + piao) * (2 if all_caishen else 1) * (2 if baotou else 1)
    return m if cap is None else min(m, cap)


@register_settlement
def settle_hangzhou(points: int, winner: int, discarder: int | None, *, players: int = 4,
                    dealer: int | None = 0, dealer_factor: int = 2) -> tuple:
    """杭州 settlement of a win worth stake `points` (base × M): self-draw — a dealer
    winner gets stake × N from each non-dealer; a non-dealer winner gets stake × N from
    the dealer and stake from each other player.  A discard win (三牢 only): the
    discarder pays the sum of those three payments.  HZS §6.5.

    Raises
    ------
    RuleError
        A discard win between two non-dealers (not allowed in 三牢 either, HZS §6.7).
    """
    pts = int(points)

    def share(p: int) -> int:
        return pts * dealer_factor if dealer is not None and dealer in (p, winner) else pts

    out = [0] * players
    if discarder is not None and dealer is not None and dealer not in (winner, discarder):
        raise RuleError("杭州: a discard win between two non-dealers is not allowed "
                        "(三牢 discard wins are between the dealer and a non-dealer)")
    for p in range(players):
        if p == winner:
            continue
        a = share(p)
        payer = p if discarder is None else discarder
        out[payer] -= a
        out[winner] += a
    return tuple(out)


def chengbao(changes, winner: int, tan: dict | None = None, *, limit: int = 3) -> tuple:
    """三摊承包: if the winner took ``limit`` 摊 from player X, or X took ``limit`` from the
    winner, X pays everything the winner collects (HZS §6.6).

    Parameters
    ----------
    changes : sequence of int
        Per-seat changes of the win (:meth:`RegionalResult.settle`).
    winner : int
    tan : dict
        ``{(taker, giver): 摊 count}`` — claims (吃, and 碰 when the ruleset option
        ``tan_pung`` is on) that ``taker`` made on ``giver``'s discards.

    Returns
    -------
    tuple of int
        The changes with the liable player paying all (unchanged when nobody is liable;
        the first liable seat in turn order after the winner when several are).

    Raises
    ------
    RuleError
        A bad seat or count.
    """
    ch = [int(x) for x in changes]
    n = len(ch)
    if not 0 <= winner < n:
        raise RuleError(f"winner seat must be 0..{n - 1}, got {winner!r}")
    tan = dict(tan or {})
    for (a, b), v in tan.items():
        if not (0 <= a < n and 0 <= b < n) or a == b or v < 0:
            raise RuleError(f"bad 摊 entry {(a, b)}: {v}")
    for d in range(1, n):
        x = (winner + d) % n
        if tan.get((winner, x), 0) >= limit or tan.get((x, winner), 0) >= limit:
            total = ch[winner]
            out = [0] * n
            out[winner] = total
            out[x] = -total
            return tuple(out)
    return tuple(ch)


def build(*, caishen: str = "fixed", cap: Any = 16, dealer_deal: int = 1,
          sanlao: bool = False, you_cai_bi_kao: bool = False,
          tan_pung: bool = True, min_points=None) -> Ruleset:
    # ``min_points`` is stored with 有财必拷响 (a 0-point hand does not win) and derived
    # from it: the argument is accepted (older house-rule files write it) and ignored
    check_choice(caishen, "hangzhou option caishen", ("fixed", "flip"))
    for key, v in (("sanlao", sanlao), ("you_cai_bi_kao", you_cai_bi_kao),
                   ("tan_pung", tan_pung)):
        check_bool(v, f"hangzhou option {key}")
    check_int(cap, "hangzhou option cap", lo=1, optional=True)
    check_int(dealer_deal, "hangzhou option dealer_deal", lo=1)
    factor = dealer_factor(dealer_deal)
    if sanlao:
        factor = 8
    mult = ("multiplier",)
    fl = (
        F.fan(1, "平胡", "Basic Win (x1)", 1, F.always, fallback=True, source=_SRC),
        F.fan(2, "爆头", "Lone Caishen Wait (x2)", 2, lone_joker_ready, tags=mult,
              source=_SRC),
        F.fan(3, "杠开", "Win on Kong Replacement (x2 per kong)", 2, F.kong_chain,
              tags=mult + (F.KONG_CHAIN,),
              source=_SRC),
        F.fan(4, "4个白板", "All Four Caishen (x2)", 2, _all_caishen(4 if caishen == "fixed" else 3), tags=mult,
              source=_SRC + " (HZB)"),
        F.fan(5, "七对", "Seven Pairs (x2)", 2, _luxury(0), tags=mult,
              source=_SRC + " [interp.]"),
        F.fan(6, "豪华七对", "Luxury Seven Pairs (x4)", 4, _luxury(1), tags=mult,
              source=_SRC + " [interp.]"),
        F.fan(7, "双豪华七对", "Double Luxury Seven Pairs (x8)", 8, _luxury(2), tags=mult,
              source=_SRC + " [interp.]"),
        F.fan(8, "三豪华七对", "Triple Luxury Seven Pairs (x16)", 16, _luxury_3plus,
              tags=mult, source=_SRC + " (HZB)"),
    )
    if caishen == "fixed":
        jr = JokerRule(source="fixed", fixed=WHITE, copies=4, claim=False,
                       be_claimed=False, discard=True)
    else:
        jr = JokerRule(source="turned", copies=3, claim=False, be_claimed=False,
                       discard=True, substitute=WHITE)
    return Ruleset(
        # who deals next: a drawn hand counts as a consecutive deal (HZS §3, §12)
        dealer_rule=DealerRule(streak="dealer_deal", streak_from=1),
        name="hangzhou", title="杭州麻将 (Hangzhou, 白板财神)",
        players=4, hand_size=13,
        calls=("chow_left", "pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=("regular", "seven_pairs"), seven_pairs_quads=True, min_fan=0,
        flowers_count_toward_minimum=False, fans=fl, settlement=settle_hangzhou,
        settlement_params={"dealer": 0, "dealer_factor": factor},
        source="docs/rules/hangzhou.md",
        tile_set="136", constraints=() if sanlao else ("self_draw_only",), ready="none",
        jokers=jr, wall_end=WallEnd(kept=20), winners="head_bump",
        scoring=ScoringRule(mode="custom", function="hangzhou", cap=cap),
        options={"caishen": caishen, "cap": cap, "dealer_deal": int(dealer_deal),
                 "sanlao": bool(sanlao), "you_cai_bi_kao": bool(you_cai_bi_kao),
                 "tan_pung": bool(tan_pung),
                 "min_points": (1, 1) if you_cai_bi_kao else (0, 0)},
        builder="hangzhou", section="§3.6",
        interpreted=("the rulebook's 4番封顶 cap read as x16",),
        lost=("十风 (named, never defined)", "the value of 清七对 (named, no value)",
              "kong money (no amounts)",
              "财飘 in play: the sources leave open whether its 抓打圈 also stops an added kong "
              "or the others' self-drawn wins, when exactly it ends, and what a win after a "
              "飘 that is not a 爆头 is worth"))


DERIVED_OPTIONS["hangzhou"] = frozenset({"min_points"})
HANGZHOU = build()

"""The 缺一门 / 跟庄 variant of the general rule text, read as 保定-type 扣听推倒胡 (Hebei) —
docs/rules/baoding.md.

The rule text (docs/rules/baoding.md §1) gives no name: no 吃; 碰 and 杠 with replacement from
the tail; kong chips (明杠 1, 暗杠 2) count only for the winner; the last 7½ stacks are kept; a
缺一门 option; a player must be ready (the declaring tile laid face down) before winning, after
which only 暗杠 and winning are allowed; a win on a discard takes it from a 碰 / 杠 claim (抢碰,
抢杠); 诈胡 loses to all three; a deal-in by a player who is **not** ready pays everyone's chips
(大包); the dealer's chips count double; **跟庄**: when all four discard the same tile in a
go-around, the dealer pays each other player 1, again in each following such go-around.
It matches the 保定 game of one platform's product texts in every mechanic (跟庄 and the
7½-stack reserve included); the values are that text's table.  Chosen reading:

* 136 tiles, 4 players, 13 tiles (dealer 14); 碰, 明杠, 补杠, 暗杠, no 吃; forms: four sets and a
  pair, seven pairs (a four counts), 十三幺, and 七不挨 (every tile isolated, all seven honours:
  the ``seven_stars`` form) [interp.].
* Hand chips (§3, convention P): 平胡 1, 七小对 2, 豪华七对 (one four) 4, 超级豪华七对 (two) 8,
  一条龙 2, 清一色 4, 十三幺 10, 七不挨 8 [interp.: the value of a neighbouring game]; the
  table's combined hands are products (清一色一条龙 = 4 × 2 = 8), so the items multiply
  [interp.]; 杠上花 ×2, 抢杠胡 ×2.  The winner's kong chips are added: 明杠 / 补杠 1, 暗杠 2.
* Settlement (§4): a share is hand chips + kong chips, ×2 when the dealer wins or pays it.
  Self-draw: each other player pays his share; a discard by a **ready** player: each of the
  three pays his own share; by a player **not ready**: the discarder pays all three (大包).
  The win's own settlement pays 大包 unless the discarder had declared ready (its
  ``discarder_ready`` parameter, filled from the win context's
  :attr:`~majiang.winning.WinContext.discarder_ready`: the game engine plays the declaration,
  :mod:`majiang.game.engine.declare`); the engine's end-of-hand settlement ``"baoding"`` pays
  跟庄, read from the discards made before the first claim (a claim breaks the run).
  :func:`settle_baoding`, :func:`gen_zhuang` and :func:`zha_hu` pay each rule alone.
* One winner on a discard: the nearest after the discarder (截胡).  Wall end: 15 tiles kept.
  Drawn hand: no payment (跟庄 is still paid), kong chips void.

Options of :func:`build`: ``que_yi_men`` (False): the final hand lacks a suit (``void_suit``),
no 十三幺 / 七不挨, and one suit with honours does not win as a plain hand (only 清一色 may be
one-suited) [interp. of "屁和"]; ``gen_zhuang`` (True); ``qi_bu_ai`` (True).  The void is
checked at the win only (``void_rule="at_win"``): the text (docs/rules/baoding.md §1) chooses
缺一门 for the table before the game and names a three-suit win as 诈胡, but has no 定缺 — no
suit is declared at the deal, no throwing order, and the player may change the suit he drops
during the hand [interp.: "the hand may not hold all three suits" read of the winning hand,
as its 诈胡 case reads it].

The declaration (``ready="required"``): a player declares with a discard that leaves his hand
ready; only then may he win; his hand is locked after it (he discards each draw unless he
wins or makes a kong of the drawn tile that keeps his waits; the text allows only 暗杠, the
engine's one rule also an added kong that keeps them).  The text's +1 for a declared hand
is dropped: every winner has declared [interp.].

Not modelled: 诈胡 in play (the engine makes no false wins:
:func:`zha_hu` pays one), caps (none stated).
"""
from __future__ import annotations

from ..errors import RuleError
from . import fans as F
from .base import (END_SETTLEMENTS, POINTS_FUNCTIONS, Ruleset, ScoringRule, WallEnd,
                   check_bool, register_settlement)
from .constraints import constraint
from .table_rules import DealerRule

__all__ = ["build", "BAODING", "baoding_points", "settle_baoding", "gen_zhuang", "zha_hu",
           "gen_zhuang_rounds"]

_SRC = "docs/rules/baoding.md"
_HAND = (2, 3, 4, 5, 6, 7, 8)            # hand-chip items (multiplied)
_DOUBLE = (9, 10)                       # 杠上花, 抢杠胡 (x2 each)
_KONG = {11: 1, 12: 2}                  # kong chips (added)


@constraint("no_half_flush_plain", "one suit with honours does not win as a plain hand (保定 "
            "缺一门: only 清一色 may be one-suited)")
def no_half_flush_plain(w, fans, rs) -> bool:
    return not F.half_flush(w)


def _pairs_fours(n: int):
    def pred(w) -> int:
        return int(w.form == "seven_pairs" and F.seven_pairs_quads(w) >= n)
    return pred


def baoding_points(fans: dict, rs, w) -> int:
    """Hand chips (the product of the hand items, 1 for 平胡) × 2 per 杠上花 / 抢杠胡, plus
    the winner's kong chips: what each other player pays before the dealer factor."""
    chips = 1
    for k, n in fans.items():
        if k in _HAND or k in _DOUBLE:
            chips *= rs.fan(k).value ** n
    return chips + sum(_KONG[k] * n for k, n in fans.items() if k in _KONG)


POINTS_FUNCTIONS["baoding"] = baoding_points


def _share(points, p, winner, dealer):
    return points * (2 if dealer is not None and dealer in (p, winner) else 1)


@register_settlement
def settle_baoding(points: int, winner: int, discarder: int | None, *, players: int = 4,
                   dealer: int | None = 0, discarder_ready: bool = False) -> tuple:
    """A win worth `points` chips per share (docs/rules/baoding.md §4): each other player's
    share ×2 with the dealer; self-draw or a ready discarder: each pays his own share; a
    discarder not ready pays all three (大包)."""
    out = [0] * players
    for p in range(players):
        if p == winner:
            continue
        frm = p if (discarder is None or discarder_ready) else discarder
        s = _share(points, p, winner, dealer)
        out[frm] -= s
        out[winner] += s
    return tuple(out)


def gen_zhuang(rounds: int, dealer: int, players: int = 4) -> tuple:
    """跟庄: the dealer pays each other player 1 per copied go-around (not doubled)."""
    if rounds < 0 or not 0 <= dealer < players:
        raise RuleError(f"跟庄 needs rounds >= 0 and a dealer seat 0..{players - 1}")
    out = [rounds] * players
    out[dealer] = -rounds * (players - 1)
    return tuple(out)


def gen_zhuang_rounds(discards, dealer: int) -> int:
    """How many go-arounds from the first had all players discard the same kind.
    ``discards``: per seat, its discards made in turn order from the dealer before the
    first claim or win (:attr:`EndTable.opening <majiang.rules.table_rules.EndTable.opening>`:
    a claim ends the run; the pools themselves would not do, a claimed tile leaves its pool
    and the later ones shift into its place)."""
    n = len(discards)
    order = [(dealer + i) % n for i in range(n)]
    r = 0
    while all(len(discards[q]) > r for q in order) and \
            len({discards[q][r] for q in order}) == 1:
        r += 1
    return r


def zha_hu(false_winner: int, dealer: int, players: int = 4) -> tuple:
    """诈胡 [interp.]: the false winner pays each other player a 平胡 share (1, 2 to or from
    the dealer)."""
    if not (0 <= false_winner < players and 0 <= dealer < players):
        raise RuleError(f"seats must be 0..{players - 1}")
    out = [0] * players
    for p in range(players):
        if p != false_winner:
            s = _share(1, p, false_winner, dealer)
            out[p] += s
            out[false_winner] -= s
    return tuple(out)


def end_settlement(rs, table) -> list:
    """跟庄 (a declared discarder's deal-in is paid by the win's own settlement)."""
    out = []
    if rs.options.get("gen_zhuang", True):
        r = gen_zhuang_rounds(table.opening, table.dealer)
        for p in range(table.players):
            if r and p != table.dealer:
                out.append({"check": "跟庄", "payer": table.dealer, "payee": p, "amount": r})
    return out


END_SETTLEMENTS["baoding"] = end_settlement


def build(*, que_yi_men: bool = False, gen_zhuang: bool = True, qi_bu_ai: bool = True
          ) -> Ruleset:
    for k, v in (("que_yi_men", que_yi_men), ("gen_zhuang", gen_zhuang),
                 ("qi_bu_ai", qi_bu_ai)):
        check_bool(v, f"baoding option {k}")
    fl = (
        F.fan(2, "七小对", "Seven Pairs (2)", 2, F.seven_pairs, source=_SRC),
        F.fan(3, "豪华七对", "Seven Pairs with a Four (4)", 4, _pairs_fours(1), excludes=(2,),
              source=_SRC),
        F.fan(4, "超级豪华七对", "Seven Pairs with Two Fours (8)", 8, _pairs_fours(2),
              excludes=(2, 3), source=_SRC),
        F.fan(5, "一条龙", "Pure Straight (x2)", 2, F.straight, source=_SRC),
        F.fan(6, "清一色", "Full Flush (x4)", 4, F.flush, source=_SRC),
        F.fan(7, "十三幺", "Thirteen Orphans (10)", 10,
              lambda w: int(w.form == "thirteen_orphans"), source=_SRC),
        F.fan(8, "七不挨", "Seven Lonely Honours (8)", 8,
              lambda w: int(w.form == "seven_stars"), source=_SRC + " [interp.]"),
        F.fan(9, "杠上花", "Win on Kong Replacement (x2)", 2, F.kong_flower, source=_SRC),
        F.fan(10, "抢杠胡", "Robbing a Kong (x2)", 2, F.robbing, source=_SRC),
        F.fan(11, "明杠", "Exposed Kong (+1)", 1, F.exposed_kongs, source=_SRC),
        F.fan(12, "暗杠", "Concealed Kong (+2)", 2, F.concealed_kongs, source=_SRC),
    )
    forms = ("regular", "seven_pairs")
    if not que_yi_men:
        forms += ("thirteen_orphans",) + (("seven_stars",) if qi_bu_ai else ())
    return Ruleset(
        # who deals next: the deal passes to the 下家 unless the dealer wins; 流庄: the dealer stays (S000)
        dealer_rule=DealerRule(),
        name="baoding", title="保定 扣听推倒胡 (缺一门 / 跟庄 variant)", players=4,
        hand_size=13, calls=("pung", "exposed_kong", "added_kong", "concealed_kong"),
        forms=forms, seven_pairs_quads=True, min_fan=0, flowers_count_toward_minimum=False,
        fans=fl, settlement=settle_baoding,
        settlement_params={"dealer": 0, "discarder_ready": False}, source=_SRC,
        tile_set="136",
        constraints=("void_suit", "no_half_flush_plain") if que_yi_men else (),
        void_rule="at_win",
        ready="required", wall_end=WallEnd(kept=15), winners="head_bump",
        scoring=ScoringRule(mode="custom", function="baoding", unit="points"),
        options={"que_yi_men": que_yi_men, "gen_zhuang": gen_zhuang, "qi_bu_ai": qi_bu_ai},
        builder="baoding", section="§3.23", end_settlement="baoding",
        interpreted=("read as a Hebei 保定 game (docs/rules/baoding.md §1); identity uncertain",
                     "items multiply; 七不挨 8",
                     "after declaring, an added kong that keeps the waits is allowed too")
        + (("缺一门: the hand must lack a suit at the win only (a three-suit win is 诈胡); "
            "no void suit declared at the deal (no 定缺), no throwing order",)
           if que_yi_men else ()),
        missing=())


BAODING = build()

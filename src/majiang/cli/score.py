"""Fans (番) of a winning hand under a ruleset: Chinese Official rules (国标麻将, MCR) by
default, any other with --rules (wild tiles by their faces with --indicator).

HAND is the hand BEFORE the winning tile (13 tiles counting each meld as 3;
16 under a 16-tile ruleset such as taiwan):
exposed melds in [...], concealed kongs in {...}.  --win names the winning
tile.  Prints the set the win tile completed (a chow's wait: edge 边张,
closed 坎张 or open 两面), every fan (its id in the ruleset's fan table, Chinese
and English name, value x count), the total,
whether the 8-fan minimum is met (flowers do not count toward it) and what
each seat pays.  A complete hand below the minimum is not a win: its fans are
shown and nothing is paid.  A hand that is not complete is an error (exit 2).
With --rules NAME|FILE the ruleset's fans, minimum, points (with its cap, if
the cap cut them) and settlement apply.  Under --rules whose jokers come from a
turned tile (wuhan, nanchang, tianjin …) give --indicator: without it no tile is
wild (a "note" line says so; --json: "joker_note").  A table flag the ruleset does
not read (--kong-discard, --declared-ready, --discarder-ready, --flower-replacement,
--kong-claimed, --kong-chain changing no fan and no payment, e.g. 杠上炮 under guangdong) is
named in a "note" line too (--json: "flag_note").

Examples:
  majiang score "456p789s11z [555z] 45m" --win 6m
  majiang score "23m789s11z [555z] {6666m}" --win 1m --self-drawn --seat S
  majiang score 19m19p19s1234567z --win 1z --prevalent E --flowers 2 --json
  majiang score 1122334455667p --win 7p --self-drawn --rules sichuan
  majiang score "123m456m* {1111p} {2222p}" --win 1z --self-drawn --kong --kong-chain 2 --seat S --rules hangzhou
"""
from __future__ import annotations

import argparse

from ._common import (Column, add_indicator_arg, add_json_flag, check_indicator, emit_json,
                      format_table, hand_glyphs, write)
from ._rule_options import add_option_arg, load_ruleset

HELP = "fans, points and payments of a winning hand (Chinese Official rules unless --rules)"

_WINDS = "ESWN"

WAIT_WORDS = {"edge": "edge wait 边张", "closed": "closed wait 坎张",
              "open": "open wait 两面", "pung": "a pair became a pung: 对倒 wait"}
"""How ``result.win_set``'s position in brackets (``"chow 456m (open)"``) is printed."""


def win_set_text(win_set: str, form: str | None = None) -> str:
    """``"chow 456m (open)"`` -> ``"chow 456m (open wait 两面)"``; ``"pair 5m"`` ->
    ``"pair 5m (single wait 单钓)"``; a form without sets (``win_set == form``) ->
    ``"the seven_pairs form"``; other texts unchanged."""
    import re

    if form is not None and win_set == form:
        return f"the {form} form"

    m = re.fullmatch(r"(.*) \((\w+)\)", win_set)
    if m and m.group(2) in WAIT_WORDS:
        return f"{m.group(1)} ({WAIT_WORDS[m.group(2)]})"
    if win_set.startswith("pair "):
        return f"{win_set} (single wait 单钓)"
    return win_set


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("hand", nargs="+", metavar="HAND",
                        help='the hand before the winning tile, e.g. "456p789s11z [555z] 45m"')
    parser.add_argument("--win", required=True, metavar="TILE", help="the winning tile, e.g. 7s")
    parser.add_argument("--self-drawn", action="store_true", default=None,
                        help="won on one's own draw (自摸); without it a win on a discard, "
                             "or self-drawn under a ruleset whose wins are self-drawn only")
    parser.add_argument("--seat", default="E", metavar="WIND",
                        help="seat wind E/S/W/N or 东南西北 (default: %(default)s)")
    parser.add_argument("--prevalent", default="E", metavar="WIND",
                        help="prevalent (round) wind (default: %(default)s)")
    parser.add_argument("--flowers", type=int, default=0, metavar="N",
                        help="flowers collected (Chinese Official: 1 fan each; other rulesets "
                             "score them by their own rules, up to the ruleset's flower "
                             "tiles, e.g. 20 硬花 under nanjing; a seat's own flower or a "
                             "set of four under taiwan needs the flowers themselves, "
                             "written in the hand as 1f..8f) (default: %(default)s)")
    parser.add_argument("--last-copy", action="store_true",
                        help="和绝张: the other three copies of the win tile are visible")
    parser.add_argument("--kong", action="store_true",
                        help="杠上开花 with --self-drawn, else 抢杠和 (robbing a kong)")
    parser.add_argument("--kong-discard", action="store_true",
                        help="杠上炮: won on the discard the discarder made right after his "
                             "own kong (a discard win; scored where the rules know it)")
    parser.add_argument("--declared-ready", choices=("concealed", "open", "deal", "first_draw"),
                        default="",
                        help="the winner had declared ready (报听): concealed (暗楼), with "
                             "the hand shown (明楼 / 明摸, self-draw only), on the dealt hand "
                             "(deal: 天听) or right after the first draw (first_draw: 地听); "
                             "scored where the rules give it a value")
    parser.add_argument("--discarder-ready", action="store_true",
                        help="the discarder had declared ready (a discard win: 保定 / 立四 "
                             "no 大包, 海南 推倒胡 明打)")
    parser.add_argument("--flower-replacement", action="store_true",
                        help="with --self-drawn: won on the tile drawn for a flower (海南 "
                             "花上添花)")
    parser.add_argument("--kong-claimed", action="store_true",
                        help="with --self-drawn --kong: the kong was made on another "
                             "player's discard (南京 大杠开花)")
    parser.add_argument("--kong-chain", type=int, default=0, metavar="N",
                        help="with --self-drawn --kong: the kongs made in a row before the "
                             "win, 1..4, the hand holding that many (杭州 杠开 x2 per kong; "
                             "default 0: one kong)")
    parser.add_argument("--seat-fan", type=int, default=0, metavar="N",
                        help="番 the winner carries on the table beyond the hand: under "
                             "wuhan with the option min_fan, the personal 番 of the 红中 / "
                             "痞子 / 赖子 played out (红中杠 1, 痞子杠 1, 赖子杠 2 each); the "
                             "melds' 番 are read from the hand (default: %(default)s)")
    parser.add_argument("--last-tile", action="store_true",
                        help="last tile of the wall: 妙手回春 / 海底捞月")
    parser.add_argument("--rules", "--ruleset", dest="ruleset", default="mcr", metavar="NAME|FILE",
                        help="ruleset name or house-rule .toml file (default: %(default)s; "
                             "--ruleset is the same option)")
    add_option_arg(parser)
    add_indicator_arg(parser)
    add_json_flag(parser)


def cap_note(result, rs) -> str | None:
    """``"capped at 3 fan (x8); 4 fan counted"`` when the ruleset's cap lowered the
    points of `result`, else None (totals in the ruleset's unit,
    :meth:`majiang.rules.points.ScoringRule.total_text`).  The result says so itself (``capped`` and
    ``cap_text()`` of :class:`~majiang.scoring.RegionalResult`, custom points functions
    included); for a result without them, the rule of
    :meth:`majiang.rules.Ruleset.points`: the cap applies in the ``add`` and ``double``
    modes unless a limit fan (``scoring.limit``) was scored."""
    sc = rs.scoring
    if hasattr(result, "capped"):
        if not result.capped:
            return None
        text = result.cap_text() if hasattr(result, "cap_text") else ""
        return f"{text or 'capped'}; {sc.total_text(result.total)} counted"
    if sc.mode not in ("add", "double") or sc.cap is None or result.total <= sc.cap:
        return None
    if sc.limit & {f.id for f in result.fans}:
        return None
    return f"capped at {sc.total_text(sc.cap)}; {sc.total_text(result.total)} counted"


def no_win_note(result) -> str:
    """Why a complete hand is no win (below the ruleset's minimum, in fan or, for
    螺山, in points), or "" for a win."""
    if result.meets_minimum:
        return ""
    if hasattr(result, "below_minimum"):
        return result.below_minimum()
    return f"below the {result.min_fan}-fan minimum of {result.ruleset}"


def no_indicator_note(rs, hand, indicator: str | None) -> str | None:
    """Under a ruleset whose jokers come from a turned tile (武汉, 南昌, 天津 …) scored
    without ``--indicator``, what that means, as :func:`majiang.score` reads such a hand
    without ``indicator=``: no tile is wild, each one scores as itself (a ``*`` is a
    joker whose face is not given).  None when the jokers are known (fixed or
    ``--indicator``) or the ruleset has none."""
    jr = rs.jokers
    if indicator is not None or jr is None or not jr.needs_indicator:
        return None
    if hand.jokers:
        return ("no --indicator given: every tile scored as itself, each * as a joker "
                "of unknown face")
    return "no --indicator given: scored without jokers (every tile as itself)"


_FLAGS = (("kong_discard", "--kong-discard", False), ("declared_ready", "--declared-ready", ""),
          ("discarder_ready", "--discarder-ready", False),
          ("flower_replacement", "--flower-replacement", False),
          ("kong_claimed", "--kong-claimed", False), ("kong_chain", "--kong-chain", 0),
          ("seat_fan", "--seat-fan", 0))


def _win_kind(ctx) -> str:
    return ("kong_replacement" if ctx.self_drawn and ctx.kong else "self_draw"
            if ctx.self_drawn else "robbing_kong" if ctx.robbing_kong else "discard")


def _settled_here(c) -> bool:
    """A liability case this command settles: the discarder's, needing no fed melds (海南
    防勾脚; 海底包牌 with ``--last-tile``) — the hand text says all it asks."""
    return c.liable == "discarder" and not c.fed


def apply_liability(rs, result, payments, winner, discarder, last_tile):
    """``(payments, applied)``: the win's payments with the ruleset's liability cases that
    need nothing but the win applied (:func:`_settled_here`; a case bound to the wall's
    end only on the last tile: no tile left to draw)."""
    cases = [c for c in rs.liabilities if _settled_here(c)]
    if payments is None or not cases:
        return payments, []
    from ..rules.liability import liable_payments
    return liable_payments(cases, payments, winner=winner, how=_win_kind(result.context),
                           discarder=discarder, fans=[f.chinese for f in result.fans],
                           melds=[[] for _ in payments], live_left=0 if last_tile else None)


def end_note(rs, hand, win: str, self_drawn: bool, indicator: str | None) -> str | None:
    """What the winner's tiles pay at the hand's end under a ruleset with an end-of-hand
    settlement that says so (:data:`majiang.rules.table_rules.END_NOTES`: 南昌 精分 /
    冲关 / 冲关包赔), which the payment line leaves out; None otherwise."""
    from ..rules.model import game_model
    from ..rules.table_rules import END_NOTES
    from ..tiles import parse_tile
    note = END_NOTES.get(rs.end_settlement)
    if note is None:
        return None
    won = parse_tile(win)
    counts = hand.all_counts                        # hand and melds, (34,) uint8
    counts[won] += 1
    tiles = {int(k): int(c) for k, c in enumerate(counts) if c}
    taken = {won} if not self_drawn else set()
    taken.update(int(k) for m in hand.melds if not m.concealed for k in m.tiles)
    wild = () if indicator is None else game_model(rs).joker_kinds(indicator)
    return note(rs, tiles, wild, taken)


def liability_note(rs, result, hand) -> str | None:
    """The ruleset's liability (包) cases that may apply to this win, which a lone hand
    cannot settle (who fed which meld is not in the hand text; the game engine knows it):
    named so that the payment line is read as the plain settlement."""
    how = _win_kind(result.context)
    fans = {f.chinese for f in result.fans}
    claimed = sum(1 for m in hand.melds if not m.concealed)
    need = {"discarder": lambda c: c.fed, "feeder": lambda c: c.fed,
            "last_feeder": lambda c: 1, "fed": lambda c: 0}
    cases = [c for c in rs.liabilities if how in c.wins and claimed >= need[c.liable](c)
             and not _settled_here(c)
             and (not c.only_fans or fans & set(c.only_fans))
             and not fans & set(c.unless_fans)]
    if not cases:
        return None
    return ("包 not applied (who fed which meld is not in the hand text; the game engine "
            "pays it): " + "; ".join(c.describe() for c in cases))


def unread_flags_note(rescore, result, args, settle) -> str | None:
    """The table flags given (``--kong-discard``, ``--declared-ready``,
    ``--discarder-ready``) that change nothing under the ruleset — the same fans, points
    and payments scored without them (广东 推倒胡 has no 杠上炮) — named in one line; None
    when each one given counts.  ``rescore(**kw)`` scores the hand with one flag changed;
    ``settle(r)`` gives a result's payments (None for no win)."""
    def key(r):
        return ([(f.id, f.count) for f in r.fans], r.total, getattr(r, "points", None),
                settle(r), no_win_note(r))
    from ..errors import MahjongError

    def same_without(name, off):
        try:
            return key(rescore(**{name: off})) == key(result)
        except MahjongError:        # no win without it (贵州 通行证 lifted by 报听): it counts
            return False
    unread = []
    for name, flag, off in _FLAGS:
        if getattr(args, name) not in (None, False, "") and same_without(name, off):
            unread.append(flag)
    if not unread:
        return None
    one = len(unread) == 1
    return (f"{', '.join(unread)} change{'s' if one else ''} nothing for this hand: the same "
            f"fans, points and payments without {'it' if one else 'them'}")


def _score_hand(text: str, rs):
    """HAND parsed as every command does (:func:`parse_cli_hand`), a count that fits no
    hand size said as score counts it: the hand before the winning tile (13 tiles, 16
    under a 16-tile ruleset), not "13 or 14" as a hand to discard from."""
    from ..errors import InvalidHandError
    from ._common import hand_size, parse_cli_hand
    try:
        return parse_cli_hand(text, rs)
    except InvalidHandError as exc:
        head, _, rest = str(exc).partition("; expected ")
        if not head.startswith("wrong number of tiles: ") or not rest:
            raise
        size = hand_size(rs) or 13
        got = head.removeprefix("wrong number of tiles: ")
        hint = rest.partition("; ")[2]         # which --rules a hand of that size needs
        raise InvalidHandError(
            f"the hand to score is the hand BEFORE the winning tile ({size} tiles counting "
            f"each meld as 3), got {got}; the winning tile goes in --win"
            + (f"; {hint}" if hint else "")) from None


def run(args: argparse.Namespace) -> int:
    from ..hand import format_hand
    from ..scoring import score

    rs = load_ruleset(args.ruleset, args.rule_options)
    hand = _score_hand(" ".join(args.hand), rs)
    indicator = check_indicator(args.indicator, rs)     # wild tiles then written by face
    def rescore(**changed):
        kw = dict(kong_discard=args.kong_discard, declared_ready=args.declared_ready,
                  discarder_ready=args.discarder_ready,
                  flower_replacement=args.flower_replacement, kong_claimed=args.kong_claimed,
                  kong_chain=args.kong_chain, seat_fan=args.seat_fan)
        kw.update(changed)
        return score(hand, args.win, self_drawn=args.self_drawn, last_copy=args.last_copy,
                     kong=args.kong, last_tile=args.last_tile, seat_wind=args.seat,
                     prevalent_wind=args.prevalent, flowers=args.flowers, ruleset=rs,
                     **kw, **({} if indicator is None else {"indicator": indicator}))
    result = rescore()
    joker_note = no_indicator_note(rs, hand, indicator)
    ctx = result.context
    n_players = rs.players
    discarder = None if ctx.self_drawn else (ctx.seat_wind + 1) % n_players

    def settle(r):      # a hand below the ruleset's minimum is no win: it settles nothing
        return r.settle(ctx.seat_wind % n_players, discarder) if r.meets_minimum else None
    wins = bool(result.meets_minimum)
    why = no_win_note(result)
    payments, applied = apply_liability(rs, result, settle(result), ctx.seat_wind % n_players,
                                        discarder, args.last_tile)
    flag_note = unread_flags_note(rescore, result, args, settle)
    side_note = end_note(rs, hand, args.win, ctx.self_drawn, indicator) if wins else None
    bao_note = liability_note(rs, result, hand) if wins else None
    if applied:
        bao_note = "; ".join([f"包 {name}: {_WINDS[q]} pays the whole win"
                              for name, q in applied] + ([bao_note] if bao_note else []))
    capped = cap_note(result, rs)
    if args.json:
        d = result.to_dict()
        d["glyphs"] = hand_glyphs(hand)
        d["capped"] = capped is not None
        d["total_unit"] = rs.scoring.total_unit
        if not wins:
            d["settlement_note"] = f"{why}: not a win, nothing is paid"
        elif not ctx.self_drawn:
            d["settlement_note"] = "discarder assumed to be the next seat"
        d["settlement"] = None if payments is None else list(payments)
        d["joker_note"] = joker_note
        d["flag_note"] = flag_note
        d["liability_note"] = bao_note
        d["end_note"] = side_note
        emit_json(d)
        return 0

    how = ("self-drawn" if ctx.self_drawn else "on a discard made right after its "
           "discarder's kong (杠上炮)" if ctx.kong_discard else "on a discard")
    if ctx.declared_ready:
        how += f", declared ready ({ctx.declared_ready})"
    if ctx.discarder_ready:
        how += ", the discarder declared ready"
    if ctx.flower_replacement:
        how += ", on a flower replacement"
    if ctx.kong_claimed:
        how += ", the kong made on a discard"
    if ctx.kong_chain > 1:
        how += f", after {ctx.kong_chain} kongs in a row"
    if ctx.seat_fan:
        how += f", {ctx.seat_fan} 番 carried on the table"
    write(f"hand     {format_hand(hand)}   {hand_glyphs(hand)}")
    write(f"win      {args.win} {how}; seat {_WINDS[ctx.seat_wind]}, prevalent "
          f"{_WINDS[ctx.prevalent_wind]}; form {result.form}; win tile completed "
          f"{win_set_text(result.win_set, result.form)}")
    for n in (joker_note, flag_note, bao_note, side_note):
        if n is not None:
            write(f"note     {n}")
    write()
    rows = [{"id": f.id, "fan": f.chinese, "english": f.english, "value": f.value,
             "count": f.count, "points": f.points} for f in result.fans]
    for line in format_table(rows, [Column("id", "fan id", ">"), Column("fan", "番种"),
                                    Column("english", "fan"), Column("value", "value", ">"),
                                    Column("count", "x", ">"), Column("points", "points", ">")]):
        write(line)
    write()
    note = "" if wins else f"  ({why})"
    if rs.scoring.mode == "custom" and hasattr(result, "points"):
        # the values may be multipliers (海南 x2 / x3): their sum is no fan count
        write(f"total    {result.total} (the values added; the points follow the ruleset's "
              f"own formula){note}")
    else:
        write(f"total    {rs.scoring.total_text(result.total)}{note}")
    if not wins:
        if hasattr(result, "points"):
            write(f"points   {result.points}")
        write(f"payment  none: {why}, so the hand is not a win and nothing is paid")
        return 0
    if hasattr(result, "points"):
        write(f"points   {result.points}" + (f"  ({capped})" if capped else ""))
    elif capped:
        write(f"cap      {capped}")
    seats = "  ".join(f"{_WINDS[i]} {p:+d}" for i, p in enumerate(payments))
    who = "" if discarder is None else f" (discarder assumed {_WINDS[discarder]})"
    write(f"payment  {seats}{who}")
    return 0

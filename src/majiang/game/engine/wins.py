"""Wins in both loops: THE predicate asked once per win context (:func:`_verdict`) and
the record and settlement of one win (:func:`_make_win`)."""
from __future__ import annotations

from types import SimpleNamespace

from ...errors import MahjongError


def check_win_fn():
    """THE win predicate, :func:`majiang.scoring.check_win` (imported on first use)."""
    from ...scoring import check_win
    return check_win


def win_context(rs, *, self_drawn, win_is_joker, kong, last_copy, last_tile, seat_wind,
                prevalent, flowers, first_turn, kong_discard=False, declared_ready="",
                discarder_ready=False, flower_replacement=False, kong_claimed=False,
                kong_chain=0, seat_fan=0) -> dict:
    """The keyword arguments of THE predicate for a win in play (both loops): the win
    tile's context as the table sees it (``kong``: on a kong's replacement tile or
    robbing one; ``first_turn``: ``""`` or the 天和 / 地和 / 人和 name; ``kong_discard``:
    on the discard its discarder made right after his own kong, 杠上炮; ``declared_ready`` /
    ``discarder_ready``: the winner's declaration, the discarder had declared, 报听;
    ``flower_replacement``: a self-draw on the tile drawn for a flower; ``kong_claimed``: on
    the replacement of a kong made on a discard; ``kong_chain``: on a kong replacement, the
    kongs made in a row before it; ``seat_fan``: the 番 the winner carries on the table,
    :meth:`RuleSpec.seat_fan <majiang.rules.model.RuleSpec.seat_fan>`)."""
    return dict(ruleset=rs, self_drawn=bool(self_drawn), jokers=0,
                win_is_joker=bool(win_is_joker), kong=bool(kong), last_copy=bool(last_copy),
                last_tile=bool(last_tile), seat_wind=int(seat_wind), prevalent_wind=prevalent,
                flowers=int(flowers), first_turn=first_turn, kong_discard=bool(kong_discard),
                declared_ready=declared_ready or "", discarder_ready=bool(discarder_ready),
                flower_replacement=bool(flower_replacement), kong_claimed=bool(kong_claimed),
                kong_chain=int(kong_chain), seat_fan=int(seat_fan))


_SURE_REFUSAL = None


def _refused(check_win, hand, win, kw) -> bool:
    """THE predicate surely refuses this win (:func:`majiang.scoring.refusal.sure_refusal`,
    switched by :data:`majiang.scoring.refusal.QUICK`); only when ``check_win`` is THE
    predicate and the hand is not read by its faces."""
    from ...scoring import refusal
    if not refusal.QUICK or kw.get("indicator") is not None or check_win is not _predicate():
        return False
    global _SURE_REFUSAL
    if _SURE_REFUSAL is None:
        from ...scoring.predicate import WinCheck
        _SURE_REFUSAL = WinCheck(False, "not a winning hand under the ruleset")
    return refusal.sure_refusal(kw["ruleset"], hand.concealed, hand.melds, win,
                                jokers=int(hand.jokers) + int(kw.get("jokers", 0)),
                                win_is_joker=kw.get("win_is_joker", False),
                                self_drawn=kw.get("self_drawn", False),
                                kong=kw.get("kong", False), last_tile=kw.get("last_tile", False))


def _predicate():
    from ...scoring import check_win
    return check_win


def _verdict(check_win, cache: dict, key, p: int, hand, win, kw: dict):
    """THE predicate's verdict on seat `p`'s win context, kept in `cache` under `key`
    (both loops, Python and compiled, ask through here).  The engine builds only legal
    contexts, so a refusal is an engine bug, raised as RuntimeError."""
    res = cache.get(key)
    if res is None and _refused(check_win, hand, win, kw):
        res = cache[key] = _SURE_REFUSAL
    if res is None:
        try:
            res = check_win(hand, win, **kw)
        except MahjongError as exc:
            raise RuntimeError(f"engine bug: the winning-hand check refused the context of "
                               f"seat {p} ({hand}, tile {win}): {exc}") from exc
        cache[key] = res
    return res


def first_winner(rs, winners, wins) -> int:
    """The seat that takes a tile several seats win on when only one wins it
    (``winners`` not ``"multiple"``): the first of `winners` (seats in turn order after
    the discarder) whose win counts a fan of :attr:`Ruleset.win_first` (灌南 大绝七对先胡:
    a 七对 hand goes first), else the first.  `wins` maps each seat to its verdict."""
    if rs.win_first:
        first = set(rs.win_first)
        for q in winners:
            if any(f.chinese in first for f in wins[q].result.fans):
                return q
    return winners[0]


def claimed_melds(seat_melds) -> list:
    """Per seat, its claimed melds as ``(from seat, kind)`` (the feeding record a
    liability case reads, :func:`majiang.rules.liability.liable_payments`), from the
    Python loop's meld dicts (``frm`` None: concealed)."""
    return [[(m["frm"], m["kind"]) for m in ms if m.get("frm") is not None]
            for ms in seat_melds]


def _make_win(rs, p, tile, res, self_drawn, discarder, kong, robbing, outs, check,
              melds=None, live_left=None):
    """The record of one win and its settlement (``FanResult.settle`` /
    ``RegionalResult.settle``); after a blood win, seats already out do not pay a
    self-draw.  ``kong_discard``: won on the discard its discarder made right after his
    own kong (杠上炮, from the scored context).  The ruleset's liability cases
    (:attr:`~majiang.rules.base.Ruleset.liabilities`) then move the payments onto the
    liable seat: ``melds`` is a callable giving every seat's claimed melds as
    ``(from seat, kind)`` (:func:`claimed_melds`), asked only when the ruleset has such
    cases, ``live_left`` a callable giving the tiles left to draw (the wall less the
    tiles kept at its end), asked only by a case bound to the wall's end (海南 海底包牌);
    the record's ``"liability"`` lists the cases applied as ``(name, seat)``."""
    r = res.result
    if self_drawn:
        deltas = list(r.settle(p, None))
        if rs.blood:
            for q in range(len(deltas)):
                if q != p and outs[q] and deltas[q] < 0:
                    deltas[p] += deltas[q]
                    deltas[q] = 0
    else:
        deltas = list(r.settle(p, discarder))
    how = ("kong_replacement" if (self_drawn and kong) else "self_draw" if self_drawn
           else "robbing_kong" if robbing else "discard")
    fans = [(f.chinese, int(f.count)) for f in r.fans]
    liability = []
    if rs.liabilities and melds is not None:
        from ...rules.liability import liable_payments
        deltas, liability = liable_payments(
            rs.liabilities, deltas, winner=p, how=how, discarder=discarder,
            fans=[f for f, _ in fans], melds=melds(), self_draw=lambda: r.settle(p, None, as_self_draw=True),
            live_left=live_left)
        deltas = list(deltas)
    return {"seat": p, "tile": int(tile), "how": how, "discarder": discarder, "fans": fans,
            "total": int(r.total), "points": int(getattr(r, "points", r.total)),
            "deltas": deltas, "result": r, "check": check,
            "kong_discard": bool(getattr(r.context, "kong_discard", False)),
            "declared_ready": getattr(r.context, "declared_ready", ""),
            "discarder_ready": bool(getattr(r.context, "discarder_ready", False)),
            "flower_replacement": bool(getattr(r.context, "flower_replacement", False)),
            "kong_claimed": bool(getattr(r.context, "kong_claimed", False)),
            "liability": liability}


def _tagged_fans(rs, tag: str, view) -> list:
    """The ruleset's fans carrying `tag`, each counted by its predicate on `view` (the
    scored-result rows of a win that is not a hand shape: 八仙過海, 十风)."""
    out = []
    for f in rs.fans:
        if tag in f.tags:
            k = int(f.predicate(view))
            if k:
                out.append(SimpleNamespace(id=f.id, chinese=f.chinese, english=f.english,
                                           value=f.value, count=k))
    return out


class FlowerWinResult:
    """The value of a flower win (台湾 八仙過海: a seat holding every flower wins at once):
    the ruleset's fans tagged :data:`~majiang.rules.fans.FLOWER_WIN` counted on the win's
    context alone (八仙過海, and the dealer's 莊家 / 連莊 / 拉莊 on his win), paid as a
    self-draw (:meth:`settle`, dealer terms by the seat winds).  Read by :func:`_make_win`
    as a scored result."""

    def __init__(self, rs, flowers, seat_wind: int, prevalent: int, robbed: bool = False):
        from ...rules.fans import FLOWER_WIN
        from ...winning import WinContext
        self.rs = rs
        self.context = WinContext(0, self_drawn=not robbed, seat_wind=int(seat_wind),
                                  prevalent_wind=int(prevalent), flowers=len(flowers))
        view = SimpleNamespace(context=self.context, robbed=bool(robbed),
                               hand=SimpleNamespace(flowers=tuple(sorted(flowers))))
        self.fans = _tagged_fans(rs, FLOWER_WIN, view)
        self.total = sum(f.value * f.count for f in self.fans)
        self.points = rs.points(self.total)

    def settle(self, winner: int, discarder=None) -> tuple:
        """Per-seat score changes: each other seat pays, as on a self-draw; after 七搶一
        the robbed seat (``discarder``) alone, as on a discard."""
        return self.rs.settle(self.total, winner, discarder,
                              dealer=winner - self.context.seat_wind)


class DiscardWinResult:
    """The value of a discard win (出牌即胡, 云南 十风: a seat whose own discards complete
    a fan tagged :data:`~majiang.rules.fans.DISCARD_WIN` wins at once on that discard):
    those fans alone, counted on a view of the seat (its discards in order, its melds),
    valued by the ruleset's scoring (its custom points function where it has one) and
    paid as a self-draw by every other seat (:meth:`settle`).  Read by :func:`_make_win`
    as a scored result."""

    def __init__(self, rs, discards, melds: int, seat_wind: int, prevalent: int):
        from ...rules.base import POINTS_FUNCTIONS
        from ...rules.fans import DISCARD_WIN
        from ...winning import WinContext
        self.rs = rs
        self.context = WinContext(0, self_drawn=True, seat_wind=int(seat_wind),
                                  prevalent_wind=int(prevalent))
        view = SimpleNamespace(context=self.context, discards=tuple(int(t) for t in discards),
                               melds=int(melds))
        self.fans = _tagged_fans(rs, DISCARD_WIN, view)
        self.total = sum(f.value * f.count for f in self.fans)
        sc = rs.scoring
        if sc.mode == "custom":
            self.points = int(POINTS_FUNCTIONS[sc.function](
                {f.id: f.count for f in self.fans}, rs, view))
        else:
            self.points = int(rs.points(self.total, [f.id for f in self.fans]))

    def __bool__(self) -> bool:
        return bool(self.fans)

    def settle(self, winner: int, discarder=None) -> tuple:
        """Per-seat score changes: each other seat pays the points, as on a self-draw."""
        rs = self.rs
        n = rs.players
        params = dict(rs.settlement_params)
        if "dealer" in params:
            params["dealer"] = (winner - self.context.seat_wind) % n
        return tuple(rs.settlement(self.points, winner, None, players=n, **params))


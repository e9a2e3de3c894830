"""Liability (包): one seat pays for others because of what it fed the winner.

A ruleset lists its liability cases as :class:`Liability` data
(:attr:`~majiang.rules.base.Ruleset.liabilities`); :func:`liable_payments` turns the
payments of one win into the payments with liability, from what the table knows at the
win: how it was won, who discarded (or whose kong was robbed), the win's fans and who fed
each claimed meld.  Both game loops pay every win through it
(:func:`majiang.game.engine.wins._make_win`), so one mechanism serves every ruleset:

* **who is liable** (``liable``): the discarder of the winning tile (the robbed seat on
  a robbed kong), a seat that fed the winner ``fed`` or more of his claimed melds
  (``"feeder"``), a seat the winner himself fed ``fed`` or more melds (``"fed"``,
  安庆 反包), or the seat that fed the winner's latest claimed meld (``"last_feeder"``:
  on a win on a claimed kong's replacement, the discarder of that kong, 南京 大杠开花);
* **when** (``wins``, ``fed``, ``only_fans`` / ``unless_fans``, ``last_tiles``): the kinds
  of win, the melds fed, fans the win must (or must not) count, how near the wall's end
  the win falls (海南 海底包牌: at most ``last_tiles`` tiles left to draw);
* **what he pays** (``pays``): ``"win"`` — every payment of the win, the others paying
  nothing (海南 "the responsible player pays the whole amount plus 1"); ``"self_draw"`` —
  the whole win as if self-drawn, every other seat's share (南京 抢杠 "counts as a
  self-draw paid in full by the responsible player"); ``"largest_share"`` — the largest
  share of the win (the dealer's), times ``times``, in place of his own share, the other
  payers paying theirs (安庆 顺包 / 反包); ``times`` maps the melds fed to a multiplier
  (the multiplier of the largest count not above it; ×1 below all), ``all_pungs_times``
  likewise when every meld fed is a pung or kong.

The cases are read in order: the first ``"win"`` / ``"self_draw"`` case that applies
settles the win; ``"largest_share"`` cases add up (a seat liable twice pays both, 安庆
"compute each side separately and sum").
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import RuleError
from .checks import check_choice

__all__ = ["Liability", "WIN_KINDS", "LIABLE", "PAYS", "liable_payments"]

WIN_KINDS = ("discard", "robbing_kong", "self_draw", "kong_replacement")
"""The kinds of win a liability case names (the engine's ``how`` of a win)."""

LIABLE = ("discarder", "feeder", "fed", "last_feeder")
"""Who is liable: the discarder (or robbed seat), a seat that fed the winner ``fed``
melds, a seat the winner fed ``fed`` melds, the seat that fed the winner's latest
claimed meld."""

PAYS = ("win", "self_draw", "largest_share")
"""What the liable seat pays (see the module docstring)."""


def _pairs(v, what: str) -> tuple:
    items = v.items() if isinstance(v, dict) else v
    try:
        out = tuple(sorted((int(a), int(b)) for a, b in items))
    except (TypeError, ValueError):
        raise RuleError(f"{what} must map a number of melds to a multiplier, got {v!r}") \
            from None
    if any(a < 0 or b < 1 for a, b in out):
        raise RuleError(f"{what}: melds >= 0 and multipliers >= 1, got {v!r}")
    return out


@dataclass(frozen=True)
class Liability:
    """One liability (包) case of a ruleset (see the module docstring).

    Parameters
    ----------
    name : str
        The case's name (``"三道牌"``), recorded with the win it settles.
    wins : tuple of str
        Kinds of win it applies to (:data:`WIN_KINDS`).
    liable : str
        :data:`LIABLE`.
    fed : int
        Claimed melds (chows, pungs, kongs; an added kong counts once, as the pung it
        was) the liable seat fed the winner (``"fed"``: the winner fed the liable seat)
        for the case to apply; 0: none needed (not with ``"feeder"`` / ``"fed"``).
    only_fans, unless_fans : tuple of str
        The win counts one of these fans / none of them (Chinese names).
    pays : str
        :data:`PAYS`.
    times, all_pungs_times : mapping or pairs
        ``{melds fed: multiplier}`` (see the module docstring).
    last_tiles : int or None
        The case applies only when at most this many tiles are left to draw at the win
        (the wall's tiles less those kept at its end; 海南 海底包牌: one per player);
        None: anywhere in the hand.

    Raises
    ------
    RuleError
        A name outside those listed, a negative count or a multiplier below 1.
    """

    name: str
    wins: tuple = ("discard",)
    liable: str = "discarder"
    fed: int = 0
    only_fans: tuple = ()
    unless_fans: tuple = ()
    pays: str = "win"
    times: tuple = ()
    all_pungs_times: tuple = ()
    last_tiles: int | None = None

    def __post_init__(self) -> None:
        where = f"liability {self.name!r}"
        object.__setattr__(self, "wins", tuple(self.wins))
        bad = [w for w in self.wins if w not in WIN_KINDS]
        if bad or not self.wins:
            raise RuleError(f"{where}: wins must be some of {', '.join(WIN_KINDS)}, "
                            f"got {self.wins!r}")
        check_choice(self.liable, f"{where}: liable", LIABLE)
        check_choice(self.pays, f"{where}: pays", PAYS)
        if isinstance(self.fed, bool) or not isinstance(self.fed, int) or not 0 <= self.fed <= 4:
            raise RuleError(f"{where}: fed must be 0..4 melds, got {self.fed!r}")
        if self.liable in ("feeder", "fed") and self.fed < 1:
            raise RuleError(f"{where}: a feeder is liable only for some melds fed (fed >= 1)")
        for key in ("only_fans", "unless_fans"):
            object.__setattr__(self, key, tuple(getattr(self, key)))
        if self.last_tiles is not None and (isinstance(self.last_tiles, bool)
                                            or not isinstance(self.last_tiles, int)
                                            or self.last_tiles < 0):
            raise RuleError(f"{where}: last_tiles must be a number of tiles >= 0 or None, "
                            f"got {self.last_tiles!r}")
        object.__setattr__(self, "times", _pairs(self.times, f"{where}: times"))
        object.__setattr__(self, "all_pungs_times",
                           _pairs(self.all_pungs_times, f"{where}: all_pungs_times"))

    def describe(self) -> str:
        """The case in words, e.g. ``"三道牌: on a discard win, the discarder who fed the
        winner 3 melds pays the whole win"``."""
        who = {"discarder": "the discarder" if self.wins != ("robbing_kong",)
               else "the robbed player",
               "feeder": f"a player who fed the winner {self.fed} or more melds",
               "fed": f"a player the winner fed {self.fed} or more melds",
               "last_feeder": "the player who fed the winner's latest meld"}[self.liable]
        if self.liable == "discarder" and self.fed:
            who += f" who fed the winner {self.fed} or more melds"
        what = {"win": "pays the whole win", "self_draw": "pays the whole win as a self-draw",
                "largest_share": "pays the largest share (the dealer's) in place of his "
                "own"}[self.pays]
        k = ", ".join(f"x{b} at {a} melds" for a, b in self.times)
        k += "".join(f", x{b} more at {a} all pungs / kongs" for a, b in self.all_pungs_times)
        if k:
            what += f" ({k.lstrip(', ')})"
        when = " or ".join(w.replace("_", " ") for w in self.wins)
        fans = (f" with {' or '.join(self.only_fans)}" if self.only_fans
                else " with none of its 番 sources" if self.unless_fans else "")
        if self.last_tiles is not None:
            fans += f" with at most {self.last_tiles} tiles left to draw"
        return f"{self.name}: on a {when} win{fans}, {who} {what}"

    def multiplier(self, n: int, all_pungs: bool) -> int:
        """The multiplier for `n` melds fed (× ``all_pungs_times`` when every one is a
        pung or kong)."""
        k = _lookup(self.times, n)
        return k * _lookup(self.all_pungs_times, n) if all_pungs else k


def _lookup(pairs: tuple, n: int) -> int:
    k = 1
    for a, b in pairs:
        if a <= n:
            k = b
    return k


def _fed(melds, giver: int, taker: int) -> list:
    """The kinds of `taker`'s claimed melds that `giver` fed (``melds[q]``: seat q's
    claimed melds as ``(from seat, kind)``)."""
    return [kind for frm, kind in melds[taker] if frm == giver]


def liable_payments(cases, deltas, *, winner: int, how: str, discarder, fans, melds,
                    self_draw=None, live_left=None) -> tuple:
    """The payments of one win with the ruleset's liability cases applied.

    Parameters
    ----------
    cases : sequence of Liability
        The ruleset's cases, in order.
    deltas : sequence of int
        Per-seat score changes of the win as the ruleset settles it (sum 0 for a
        zero-sum ruleset).
    winner : int
    how : str
        :data:`WIN_KINDS` (other kinds, e.g. a flower win, take no liability).
    discarder : int or None
        The discarder, or the robbed seat on a robbed kong; None on a self-draw.
    fans : iterable of str
        The win's fans (Chinese names).
    melds : sequence of sequences
        Per seat: its claimed melds as ``(from seat, kind)`` (``kind`` ``"chow"`` /
        ``"pung"`` / ``"kong"``); concealed kongs left out.
    self_draw : callable, optional
        ``self_draw() -> deltas`` of the same win settled as a self-draw (needed by
        ``pays="self_draw"``).
    live_left : int or callable, optional
        The tiles left to draw at the win (the wall less the tiles kept at its end), or
        ``live_left() -> int`` (asked only by a case with ``last_tiles``); None: not
        known, and such a case does not apply.

    Returns
    -------
    (deltas, applied)
        The new per-seat changes (a tuple; the total paid to the winner changes only
        with ``"self_draw"`` / ``"largest_share"``) and the cases applied as
        ``(name, liable seat)`` pairs (empty: the deltas unchanged).
    """
    fans = set(fans)
    n = len(deltas)
    shares = [0] * n
    applied = []
    for c in cases:
        if how not in c.wins:
            continue
        if c.only_fans and not fans.intersection(c.only_fans):
            continue
        if c.unless_fans and fans.intersection(c.unless_fans):
            continue
        if c.last_tiles is not None:
            if callable(live_left):
                live_left = live_left()
            if live_left is None or live_left > c.last_tiles:
                continue
        for q in _liable_seats(c, n, winner, discarder, melds):
            kinds = (_fed(melds, winner, q) if c.liable == "fed"
                     else [melds[winner][-1][1]] if c.liable == "last_feeder"
                     else _fed(melds, q, winner))
            if c.pays == "largest_share":
                base = max((-d for d in deltas if d < 0), default=0)
                shares[q] += base * c.multiplier(len(kinds), all(k != "chow" for k in kinds))
                applied.append((c.name, q))
                continue
            src = deltas if c.pays == "win" else self_draw()
            total = sum(-d for i, d in enumerate(src) if i != winner and d < 0)
            total *= c.multiplier(len(kinds), bool(kinds) and all(k != "chow" for k in kinds))
            out = [0] * n
            out[q] -= total
            out[winner] += total
            return tuple(out), [(c.name, q)]
    if not applied:
        return tuple(deltas), []
    out = list(deltas)
    for q, amount in enumerate(shares):
        if amount:
            out[winner] += amount + out[q]       # his own share (out[q] <= 0) replaced
            out[q] = -amount
    return tuple(out), applied


def _liable_seats(c, n: int, winner: int, discarder, melds) -> list:
    if c.liable == "discarder":
        if discarder is None:
            return []
        if c.fed and len(_fed(melds, discarder, winner)) < c.fed:
            return []
        return [discarder]
    if c.liable == "last_feeder":
        ms = melds[winner]
        return [ms[-1][0]] if ms and ms[-1][0] not in (None, winner) else []
    seats = [q for q in range(n) if q != winner]
    if c.liable == "feeder":
        return [q for q in seats if len(_fed(melds, q, winner)) >= c.fed]
    return [q for q in seats if len(_fed(melds, winner, q)) >= c.fed]

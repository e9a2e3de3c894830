"""The table one seat sees, rebuilt from its Botzone requests (:class:`BotzoneTable`), and
which responses are legal at the latest request (:meth:`BotzoneTable.check_response`).

Protocol ids are Botzone's: player 0 is East and deals; play goes 0, 1, 2, 3; a player
chows from the player before it, ``(id + 3) % 4``.
"""
from __future__ import annotations

import numpy as np

from ..errors import InvalidHandError, InvalidNotationError, MahjongError
from ..hand import Hand, Meld
from ..records.codes import botzone_code, botzone_tile
from ..tiles import tile_name

RULESET = "mcr_botzone"
"""The default ruleset of a table: Chinese Official as Botzone plays it (136 tiles, a
34-tile wall per seat, 21 draws each; docs/botzone.md).  ``"mcr"`` (one wall, flowers)
is the other ruleset a table may be judged under."""

RULESETS = ("mcr_botzone", "mcr")
PER_SEAT_DRAWS = 21
"""Draws from each seat's own wall under ``"mcr_botzone"`` (34 less 13 dealt)."""

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
"""The line a Botzone program prints after its response to stay running."""


def flower_code(tile: int) -> str:
    """Botzone code ``H1``-``H8`` of an engine flower tile (34..41)."""
    return f"H{int(tile) - 33}"


def _same_suit_run(lo: int) -> bool:
    return lo < 27 and lo % 9 <= 6


class BotzoneTable:
    """The table as one Botzone seat knows it (fed request by request, :meth:`apply`).

    Attributes: ``me`` (own protocol id, also its seat wind), ``quan`` (prevalent wind),
    ``hand`` (``int64 (34,)`` own concealed tiles), ``drawn`` (the own tile just drawn, or
    None), ``flowers`` (per id: count), ``melds`` (per id: ``[kind, lowest tile,
    concealed, from id]``), ``discards`` (per id: ``[tile, claimed by id or None]``),
    ``hidden_kongs`` (per id: concealed kongs whose tile is unknown), ``last`` (what the
    latest request asks about: ``("draw", id)``, ``("discard", id, tile)``,
    ``("bugang", id, tile)``, ``("init",)`` or ``("other",)``), ``after_kong`` (the own
    draw is a kong's replacement), ``draws`` (per id: tiles drawn in play, the dealer's
    first included), ``ruleset`` (``"mcr_botzone"`` by default; ``"mcr"`` — also taken
    as soon as a flower shows, the duplicate format having none), ``n`` (requests
    applied).

    Errors: :class:`~majiang.errors.InvalidNotationError` for an unreadable request,
    :class:`~majiang.errors.InvalidHandError` for one the table contradicts (a tile not
    held, a claim of no discard), both naming the request number and text.
    """

    def __init__(self, ruleset: str = RULESET) -> None:
        if ruleset not in RULESETS:
            from ..errors import RuleError
            raise RuleError(f"a Botzone table plays {' or '.join(RULESETS)}, got {ruleset!r}")
        self.ruleset = ruleset
        self.draws = [0, 0, 0, 0]
        self.me: int | None = None
        self.quan = 0
        self.hand = np.zeros(34, dtype=np.int64)
        self.drawn: int | None = None
        self.flowers = [0, 0, 0, 0]
        self.melds: list[list] = [[] for _ in range(4)]
        self.discards: list[list] = [[] for _ in range(4)]
        self.hidden_kongs = [0, 0, 0, 0]
        self.last: tuple = ("none",)
        self.after_kong = False
        self._kong_pending = [False] * 4
        self.my_last_response: str | None = None
        self.n = 0

    # ------------------------------------------------------------------ feeding
    @classmethod
    def from_history(cls, requests: list, responses: list = (),
                     ruleset: str = RULESET) -> BotzoneTable:
        """The table after ``requests`` (strings), given the seat's ``responses`` to all
        of them but (usually) the last."""
        t = cls(ruleset)
        for i, req in enumerate(requests):
            t.apply(req)
            if i < len(responses):
                t.respond(responses[i])
        return t

    def respond(self, response: str) -> None:
        """Record the seat's own response to the latest request (a concealed kong's tile
        is known only from it)."""
        self.my_last_response = str(response).strip()

    def _err(self, req: str, why: str, cls=InvalidHandError):
        return cls(f"Botzone request {self.n} ({req.strip()!r}): {why}")

    def _tile(self, code: str, req: str) -> int:
        try:
            return botzone_tile(code)
        except InvalidNotationError as exc:
            raise self._err(req, str(exc), InvalidNotationError) from None

    def _id(self, text: str, req: str) -> int:
        if text not in ("0", "1", "2", "3"):
            raise self._err(req, f"bad player id {text!r}: expected 0..3", InvalidNotationError)
        return int(text)

    def _take(self, t: int, k: int, req: str) -> None:
        if self.hand[t] < k:
            raise self._err(req, f"the hand holds {int(self.hand[t])} {botzone_code(t)}, "
                                 f"needs {k}")
        self.hand[t] -= k

    def _play(self, p: int, t: int, req: str) -> None:
        if p == self.me:
            held = int(self.hand.sum()) + 3 * len(self.melds[p])
            if held != 14:
                raise self._err(req, f"a discard of the seat's own while it holds {held} "
                                     "tiles (a discard follows a draw or a call: 14)")
            self._take(t, 1, req)
        self.drawn = None
        self.discards[p].append([t, None])
        self.last = ("discard", p, t)

    def _claimed(self, p: int, req: str) -> tuple:
        if self.last[0] != "discard" or self.last[1] == p:
            raise self._err(req, "a claim with no discard of another player to claim")
        _, q, d = self.last
        self.discards[q][-1][1] = p
        return q, d

    def apply(self, req: str) -> None:
        """Apply one request line (see docs/botzone.md for the format).  A request that
        the table contradicts (a fifth copy of a tile among the seat's tiles and the table,
        a chow of a discard not made by the player before, a discard of the seat's own
        while it holds no tile to spare, a flower code outside H1-H8) raises
        :class:`~majiang.errors.InvalidHandError` (or InvalidNotationError), one line."""
        self._apply(req)
        seen = self.visible() + self.hand
        for k, t, c, _ in self.melds[self.me] if self.me is not None else ():
            if c:
                seen[t] += 4
        if seen.max() > 4:
            t = int(np.argmax(seen))
            raise self._err(req, f"{int(seen[t])} copies of {botzone_code(t)} among the "
                                 "seat's tiles and the table (4 exist)")

    def _flower(self, code: str, req: str) -> None:
        if len(code) != 2 or code[0] != "H" or code[1] not in "12345678":
            raise self._err(req, f"bad flower code {code!r}: expected H1..H8",
                            InvalidNotationError)

    def _apply(self, req: str) -> None:
        self.n += 1
        w = str(req).split()
        if not w:
            raise self._err(req, "an empty request", InvalidNotationError)
        code = w[0]
        bad = self._err(req, "expected '0 id quan', '1 hua0..hua3 <13 tiles> <flowers>', "
                             "'2 tile' or '3 id ACTION ...'", InvalidNotationError)
        if code == "0":
            if len(w) != 3:
                raise bad
            self.me = self._id(w[1], req)
            if w[2] not in ("0", "1", "2", "3"):
                raise self._err(req, f"bad prevalent wind {w[2]!r}: expected 0..3",
                                InvalidNotationError)
            self.quan = int(w[2])
            self.last = ("init",)
            return
        if self.me is None:
            raise self._err(req, "the first request must be '0 id quan'", InvalidNotationError)
        if code == "1":
            if len(w) < 18 or not all(x.isdigit() for x in w[1:5]):
                raise bad
            self.flowers = [int(x) for x in w[1:5]]
            if sum(self.flowers):
                self.ruleset = "mcr"
            for x in w[5:18]:
                self.hand[self._tile(x, req)] += 1
            if len(w) != 18 + sum(self.flowers):
                raise self._err(req, f"{sum(self.flowers)} flowers announced, "
                                     f"{len(w) - 18} listed", InvalidNotationError)
            for x in w[18:]:
                self._flower(x, req)
            if self.hand.max() > 4:
                raise self._err(req, "more than 4 copies of a tile in the hand")
            self.last = ("init",)
            return
        if code == "2":
            if len(w) != 2:
                raise bad
            t = self._tile(w[1], req)
            self.hand[t] += 1
            self.drawn = t
            self.draws[self.me] += 1
            self.after_kong = self._kong_pending[self.me]
            self._kong_pending[self.me] = False
            self.last = ("draw", self.me)
            return
        if code != "3" or len(w) < 3:
            raise bad
        p = self._id(w[1], req)
        act = w[2]
        args = w[3:]
        need = {"BUHUA": 1, "DRAW": 0, "PLAY": 1, "PENG": 1, "CHI": 2, "GANG": 0,
                "BUGANG": 1}
        if act not in need or len(args) != need[act]:
            raise self._err(req, f"unknown action {act!r} or wrong arguments: expected BUHUA "
                                 "H, DRAW, PLAY T, PENG T, CHI MID T, GANG or BUGANG T",
                            InvalidNotationError)
        if act == "BUHUA":
            self._flower(args[0], req)
            self.flowers[p] += 1
            self.ruleset = "mcr"
            return
        if act == "DRAW":
            if p == self.me:
                raise self._err(req, "the own draw is '2 tile', not '3 id DRAW'")
            self._kong_pending[p] = False
            self.draws[p] += 1
            self.last = ("draw", p)
            return
        if act == "PLAY":
            self._play(p, self._tile(args[0], req), req)
            return
        if act == "PENG":
            q, d = self._claimed(p, req)
            if p == self.me:
                self._take(d, 2, req)
            self.melds[p].append(["pung", d, False, q])
            self._play(p, self._tile(args[0], req), req)
            return
        if act == "CHI":
            mid = self._tile(args[0], req)
            lo = mid - 1
            if not (_same_suit_run(lo) and mid % 9 >= 1):
                raise self._err(req, f"{args[0]} cannot be the middle of a chow",
                                InvalidNotationError)
            q, d = self._claimed(p, req)
            if q != (p - 1) % 4:
                raise self._err(req, f"player {p} may chow only the discard of player "
                                     f"{(p - 1) % 4}, not of player {q}")
            if d not in (lo, mid, lo + 2):
                raise self._err(req, f"the chow around {args[0]} does not hold the discard "
                                     f"{botzone_code(d)}")
            if p == self.me:
                for x in (lo, mid, lo + 2):
                    if x != d:
                        self._take(x, 1, req)
            self.melds[p].append(["chow", lo, False, q])
            self._play(p, self._tile(args[1], req), req)
            return
        if act == "GANG":
            if self.last[0] == "discard" and self.last[1] != p:
                q, d = self._claimed(p, req)
                if p == self.me:
                    self._take(d, 3, req)
                self.melds[p].append(["kong", d, False, q])
            elif self.last == ("draw", p):
                if p == self.me:
                    r = (self.my_last_response or "").split()
                    if len(r) != 2 or r[0] != "GANG":
                        raise self._err(req, "a concealed kong of the seat's own, but its "
                                             "response was not 'GANG tile'")
                    k = self._tile(r[1], req)
                    self._take(k, 4, req)
                    self.melds[p].append(["kong", k, True, None])
                    self.drawn = None
                else:
                    self.hidden_kongs[p] += 1
            else:
                raise self._err(req, "a kong neither on another player's discard nor "
                                     "after the player's own draw")
            self._kong_pending[p] = True
            self.last = ("other",)
            return
        # BUGANG
        t = self._tile(args[0], req)
        for m in self.melds[p]:
            if m[0] == "pung" and m[1] == t:
                m[0] = "kong"
                break
        else:
            raise self._err(req, f"player {p} adds {args[0]} to a pung it does not have")
        if p == self.me:
            self._take(t, 1, req)
            self.drawn = None
        self._kong_pending[p] = True
        self.last = ("bugang", p, t)

    # ------------------------------------------------------------------ reading
    def wall_empty(self, p: int) -> bool:
        """Whether id ``p``'s own wall is empty (``"mcr_botzone"`` only: 21 draws made);
        always False under ``"mcr"``, whose wall end the protocol does not show."""
        return self.ruleset == "mcr_botzone" and self.draws[p] >= PER_SEAT_DRAWS

    def own_melds(self) -> tuple:
        """The own melds as :class:`~majiang.hand.Meld` objects."""
        return tuple(Meld(k, t, c) for k, t, c, _ in self.melds[self.me])

    def visible(self) -> np.ndarray:
        """``int64 (34,)``: tiles face up on the table (discards not claimed, every
        exposed meld)."""
        v = np.zeros(34, dtype=np.int64)
        for river in self.discards:
            for t, by in river:
                if by is None:
                    v[t] += 1
        for ms in self.melds:
            for k, t, c, _ in ms:
                if c:
                    continue
                for x in (t, t + 1, t + 2) if k == "chow" else (t,) * (4 if k == "kong" else 3):
                    v[x] += 1
        return v

    def position(self):
        """The :class:`majiang.Position` of the seat (ruleset :data:`RULESET`; dealer
        id 0; discards claimed marked, melds naming their source)."""
        from ..position import Position
        from ..records.datatypes import Discard
        melds = [[(Meld(k, t, c), f) for k, t, c, f in ms] for ms in self.melds]
        discards = [[Discard(t, by) for t, by in river] for river in self.discards]
        last = None
        if self.last[0] == "discard" and self.last[1] != self.me:
            last = (self.last[1], self.last[2])
        return Position(concealed=self.hand.astype(np.uint8), ruleset=self.ruleset, seat=self.me,
                        drawn=self.drawn if self.last == ("draw", self.me) else None,
                        dealer=0, prevalent_wind=self.quan, melds=melds, discards=discards,
                        flowers=list(self.flowers), hidden_kongs=[
                            0 if p == self.me else k for p, k in enumerate(self.hidden_kongs)],
                        last_discard=last)

    def win_check(self):
        """The win check (:func:`majiang.check_win`) of a win on the latest request's
        tile: the own draw (self-drawn, 杠上开花 after an own kong), another player's
        discard, or its added kong (抢杠和); None when no win is possible there.  和绝张
        when no copy is held and the other three are face up; 海底捞月 / 妙手回春 under
        ``"mcr_botzone"`` when the next seat after the discarder / drawer has an empty wall
        (:meth:`wall_empty`), never under ``"mcr"`` (the protocol does not show that wall's
        end: a win that needs them is missed, never claimed wrongly)."""
        from ..scoring.predicate import check_win
        kind = self.last[0]
        c = self.hand.copy()
        if kind == "draw" and self.last[1] == self.me and self.drawn is not None:
            t, self_drawn, kong = self.drawn, True, self.after_kong
            c[t] -= 1
        elif kind == "discard" and self.last[1] != self.me:
            t, self_drawn, kong = self.last[2], False, False
        elif kind == "bugang" and self.last[1] != self.me:
            t, self_drawn, kong = self.last[2], False, True
        else:
            return None
        if c[t] >= 4:
            return None
        last_copy = kind != "bugang" and not c[t] and \
            int(self.visible()[t]) - (0 if self_drawn else 1) >= 3
        # 妙手回春 / 海底捞月 (mcr_botzone): the next seat after the drawer / discarder
        # has an empty wall; never a robbed kong
        last_tile = kind != "bugang" and self.wall_empty((self.last[1] + 1) % 4)
        try:
            return check_win(Hand(c.astype(np.uint8), self.own_melds()), int(t),
                             ruleset=self.ruleset, self_drawn=self_drawn, kong=kong,
                             last_copy=last_copy, last_tile=last_tile, seat_wind=self.me,
                             prevalent_wind=self.quan, flowers=self.flowers[self.me])
        except MahjongError:
            return None

    def check_response(self, response: str) -> str | None:
        """None when ``response`` is legal at the latest request, else why not (one
        line).  HU is legal only when :meth:`win_check` accepts the win (>= 8 fan)."""
        w = str(response).split()
        if not w:
            return "an empty response"
        last = self.last
        mine_draw = last[0] == "draw" and last[1] == self.me and self.drawn is not None
        others_discard = last[0] == "discard" and last[1] != self.me
        robbable = last[0] == "bugang" and last[1] != self.me
        if w == ["PASS"]:
            return "PASS after the own draw: the seat must play" if mine_draw else None
        if w == ["HU"]:
            if not (mine_draw or others_discard or robbable):
                return "HU with no tile to win on"
            r = self.win_check()
            if r is None or not r.valid:
                return "HU on a hand that is no win of 8 fan or more" + (
                    f" ({r.reason})" if r is not None and r.reason else "")
            return None
        try:
            tiles = [botzone_tile(x) for x in w[1:]]
        except InvalidNotationError as exc:
            return str(exc)
        act = w[0]
        h = self.hand
        if mine_draw:
            if act == "PLAY" and len(tiles) == 1:
                return None if h[tiles[0]] else f"PLAY {w[1]}: not in the hand"
            if act in ("GANG", "BUGANG") and (self.wall_empty(self.me)
                                              or self.wall_empty((self.me + 1) % 4)):
                return f"{act} when the own wall or the next player's is empty"
            if act == "GANG" and len(tiles) == 1:
                return None if h[tiles[0]] == 4 else f"GANG {w[1]}: the hand holds " \
                                                      f"{int(h[tiles[0]])}, not 4"
            if act == "BUGANG" and len(tiles) == 1:
                t = tiles[0]
                ok = h[t] and any(m[0] == "pung" and m[1] == t for m in self.melds[self.me])
                return None if ok else f"BUGANG {w[1]}: no pung of it with the tile held"
            return f"{response.strip()!r} after the own draw: expected PLAY t, GANG t, " \
                   f"BUGANG t or HU"
        if others_discard:
            q, d = last[1], last[2]
            c = h.copy()
            if act in ("GANG", "PENG", "CHI") and self.wall_empty((q + 1) % 4):
                return f"{act} on the last discard (the next player's wall is empty)"
            if act == "GANG" and not tiles:
                return None if c[d] >= 3 else f"GANG: the hand holds {int(c[d])} " \
                                              f"{botzone_code(d)}, not 3"
            if act == "PENG" and len(tiles) == 1:
                if c[d] < 2:
                    return f"PENG: the hand holds {int(c[d])} {botzone_code(d)}, not 2"
                c[d] -= 2
                return None if c[tiles[0]] else f"PENG then PLAY {w[1]}: not in the hand"
            if act == "CHI" and len(tiles) == 2:
                if (q + 1) % 4 != self.me:
                    return "CHI of a discard not from the player before"
                lo = tiles[0] - 1
                if not (_same_suit_run(lo) and tiles[0] % 9 >= 1) or d not in (lo, lo + 1, lo + 2):
                    return f"CHI {w[1]}: no chow around it holds {botzone_code(d)}"
                for x in (lo, lo + 1, lo + 2):
                    if x != d:
                        if not c[x]:
                            return f"CHI {w[1]}: {botzone_code(x)} not in the hand"
                        c[x] -= 1
                return None if c[tiles[1]] else f"CHI then PLAY {w[2]}: not in the hand"
            return f"{response.strip()!r} on a discard: expected PASS, HU, PENG t, " \
                   f"CHI mid t or GANG"
        return f"{response.strip()!r} where only PASS{' or HU' if robbable else ''} is legal"

    def __repr__(self) -> str:
        from ..tiles import format_counts
        return (f"BotzoneTable(me={self.me}, hand={format_counts(self.hand)}, "
                f"last={self.last}, drawn={None if self.drawn is None else tile_name(self.drawn)})")


def parse_input(lines: list) -> tuple[list, list]:
    """``(requests, responses)`` of one simple-interaction input: the turn count ``n``
    then ``2n - 1`` lines alternating request and response (lines after them, Botzone's
    data, are ignored).  Raises :class:`~majiang.errors.InvalidNotationError`."""
    lines = [ln.rstrip("\r\n") for ln in lines]
    if not lines or not lines[0].strip().isdigit():
        raise InvalidNotationError("Botzone input: the first line must be the turn count")
    n = int(lines[0])
    if n < 1:
        raise InvalidNotationError(f"Botzone input: the turn count must be 1 or more, got {n}")
    body = lines[1:1 + 2 * n - 1]
    if len(body) < 2 * n - 1:
        raise InvalidNotationError(f"Botzone input: turn count {n} needs {2 * n - 1} lines "
                                   f"after it, got {len(body)}")
    return body[0::2], body[1::2]

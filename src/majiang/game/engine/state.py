"""The state of one hand in the Python loop (:class:`HandState`): the wall and draws,
each seat's tiles and melds, the shape checks before THE predicate and the wins."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from ...errors import RuleError
from ...hand import Hand, Meld
from ...rules.model import game_model
from ...scoring.faces import faces_matter as _faces_matter
from ...scoring.waiting import beyond_core as _beyond_core
from ...scoring.waiting import beyond_waits as _beyond_waits
from ..._core import game as _cg
from . import facts as _facts
from .facts import _beyond_forms, _pass_lock, _shape_extra
from .deal import plays_exchange
from .declare import standing_declarations, standing_used
from .kongs import KongLedger
from .wall import (_Shuffled, build_wall, checked_wall, expected_census, hand_bit_generator,
                   tile_census)
from .wins import (DiscardWinResult, FlowerWinResult, _make_win, _verdict, check_win_fn,
                   claimed_melds, win_context)


class _Seat:
    __slots__ = ("phys", "melds", "flowers", "discards", "won_tiles", "out", "locked",
                 "void", "meld_counts", "_opts", "_popts", "n_kongs_exposed",
                 "n_kongs_concealed", "n_calls", "drawn", "passed", "pass_all",
                 "n_discarded", "n_drawn", "declared", "standing", "face_down")

    def __init__(self):
        self.phys = np.zeros(34, dtype=np.uint8)     # concealed, physical kinds
        self.melds = []          # dicts: kind, tile, concealed, tiles (physical), frm
        self.flowers = []
        self.discards = []       # physical tiles still in this seat's pool
        self.won_tiles = []      # tiles won (blood rules: set aside)
        self.out = False         # 血战: has won, plays no more
        self.locked = False      # 血流: has won, hand locked
        self.void = -1
        self.meld_counts = np.zeros(34, dtype=np.uint8)   # tiles of the exposed melds
        self._opts = None
        self._popts = None
        self.n_kongs_exposed = 0
        self.n_kongs_concealed = 0
        self.n_calls = 0
        self.drawn = None
        self.passed = set()      # 过水: kinds passed as wins since the own last discard
        self.pass_all = False    # 漏和: a passed win locks every discard win
        self.n_discarded = 0     # discards made (first-turn flags)
        self.n_drawn = 0         # draws in play (first-turn flags)
        self.declared = ""       # 报听: "" or the declaration made (winning.READY_DECLARATIONS)
        self.standing = np.zeros(34, dtype=np.uint8)   # 立四: the standing tiles held, by kind
        self.face_down = []      # 立四: the standing tile discarded face down to declare


class HandState:
    """The state of one hand in play.  Built by :func:`play_hand`; read by views.

    Not a public constructor: use :func:`play_hand`.
    """

    def __init__(self, ruleset, players, *, seed=None, hand=0, wall=None, dealer=0,
                 prevalent_wind=0, log=False, exchange3=False):
        self.model = game_model(ruleset)
        rs = self.model.ruleset
        if rs is None:
            raise RuleError("the engine needs a ruleset (its scoring and settlement); "
                            "give a name such as 'mcr'")
        self.rs = rs
        n = self.model.players
        if len(players) != n:
            raise RuleError(f"ruleset {rs.name} is played by {n} players, got {len(players)}")
        if not 0 <= int(dealer) < n:
            raise RuleError(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")
        self.n = n
        self.players = list(players)
        self.hand_index = int(hand)
        self.seed = seed
        self.dealer = int(dealer)
        self.prevalent = int(prevalent_wind) % 4
        self.logging = bool(log)
        self.events = [] if log else None
        self.check_win = check_win_fn()
        jr = self.model.jokers
        self.joker_rule = jr
        self.jk = -1                      # joker kind (the first wild kind)
        self.jks = ()                     # every wild kind (南昌 正精 + 副精, 天津 混儿)
        self.sub = -1                     # substitute kind
        self.indicator = None
        self.aside = []                   # indicator, flowers turned with it
        self.flower_jokers = bool(jr is not None and jr.flowers)   # 花鬼: flowers held as jokers
        if wall is None:
            bg = hand_bit_generator(seed if seed is not None else 0, hand)
            self.wall = build_wall(self.model, np.random.Generator(bg))
        elif isinstance(wall, _Shuffled):
            self.wall = wall.tiles
        else:
            self.wall = checked_wall(self.model, wall)
        self.head = 0
        self.tail = self.wall.size - 1
        self.last_drawn = -1              # kind of the last playing tile taken (_take)
        # one wall per seat (WallEnd.per_seat, Botzone's duplicate format): seat p owns
        # the quarter of its seat wind, East's first, and takes from its end
        self.per_seat = bool(getattr(rs.wall_end, "per_seat", False))
        if self.per_seat:
            size = self.wall.size // n
            self.seat_low = [((p - self.dealer) % n) * size for p in range(n)]
            self.seat_next = [lo + size - 1 for lo in self.seat_low]
        self.seats = [_Seat() for _ in range(n)]
        self.visible = np.zeros(34, dtype=np.uint8)   # pools + exposed melds + indicator
        self.draws = 0
        self.wins = []           # dicts
        self.deltas = [0] * n
        self.turns = 0
        self.last_discard = None
        self._extra = _shape_extra(self.model)
        self._three_jokers = self.model.jokers_to_win      # 3 三金倒, 4 四鬼胡, 0 none
        self._beyond = _beyond_forms(self.model)
        self.ended = False
        self.end_reason = ""
        self._wcache = {}
        self._win_args = {}
        self._verdicts = {}      # THE predicate's verdicts, reused within the hand
        self.exchange3 = plays_exchange(rs, exchange3)
        self.exchange_direction = None     # set by replay from the log
        self.bitgen = None                 # the hand's stream (random choices of the table)
        self.pass_lock = _pass_lock(rs)
        self.kong_ledger = KongLedger(rs, n)
        self.interrupted = False           # a call, a kong or a win happened (天和 / 地和 / 人和)
        self.kong_mark = None              # (seat, discards made) of the last kong made
        self.discard_after_kong = False    # the last discard followed its discarder's kong
        self.kong_from = -1                # the last kong's discarder (-1: of own tiles)
        self.flower_seat = -1              # the seat whose last draw replaced a flower
        self.min_aware = _facts.min_aware(self.model)   # bots aim at waits THE predicate accepts
        self.wait_cache = {}               # the bots' verdicts on waits, this hand
        self.first_discards = {}           # kind -> [seat, claimed by, turn] (冲锋鸡)
        self.open_turns = -1               # discards made in turn order before the first
        #                                    claim or win (-1: none yet; 跟庄, end_table)
        self.by_faces = _faces_matter(rs)  # wins scored with the wild tiles by their faces
        self.flower_faces = _facts.flower_faces(self.model)   # wins read the flowers held
        self.flower_win = _facts.flower_win(self.model)       # every flower wins at once
        # 出牌即胡 (十风): each seat's discards in order, claimed or not
        self.discard_history = [[] for _ in range(self.n)] if _facts.discard_win(
            self.model) else None
        self.flower_winner = None          # the seat that has just collected every flower
        self.rob_one = _facts.seven_rob_one(self.model)       # 七搶一: seven rob the eighth
        self.flower_robbed = None          # 七搶一: the seat that holds the eighth (pays)
        self.ready_kinds = _facts.ready_kinds(self.model)   # 报听 played (.declare)
        self.must_declare = rs.ready == "required" and bool(self.ready_kinds)
        self.ready_offered = ()            # the kinds a ready ask offers, while it is asked
        self._seat_fan = bool(rs.seat_fan)  # 番 a seat carries on the table (武汉 红中杠 …)
        self.standing = int(rs.standing_tiles)   # 立四: standing tiles per seat (.declare)
        # 缺门 at the win (no 定缺): the bots' shape options carry the free suits (._strict)
        self.void_at_win = self.model.void_at_win
        self.hidden_discard = False        # the last discard was a face-down declaration
        self._standing_cache = {}          # standing_declarations, by hand

    # ------------------------------------------------------------------ logging
    def _log(self, **ev):
        if self.events is not None:
            self.events.append(ev)

    # ------------------------------------------------------------------ wall
    @property
    def wall_left(self) -> int:
        if self.per_seat:
            return sum(nx - lo + 1 for nx, lo in zip(self.seat_next, self.seat_low))
        return self.tail - self.head + 1

    def wall_rest(self) -> np.ndarray:
        """The tiles still in the wall(s), undrawn (``int16``)."""
        if self.per_seat:
            return np.concatenate([self.wall[lo:nx + 1]
                                   for nx, lo in zip(self.seat_next, self.seat_low)])
        return self.wall[self.head:self.tail + 1] if self.wall_left > 0 else self.wall[:0]

    def kept(self) -> int:
        exp = sum(s.n_kongs_exposed for s in self.seats)
        con = sum(s.n_kongs_concealed for s in self.seats)
        return self.rs.wall_end.kept_tiles(exp, con)

    def can_draw(self, p: int | None = None) -> bool:
        """Whether a tile can be drawn now (by seat ``p``: with one wall per seat, from
        its own wall)."""
        if self.per_seat:
            if p is None:
                return self.wall_left > 0
            return self.seat_next[p] >= self.seat_low[p]
        return self.wall_left > self.kept()

    def must_win(self) -> bool:
        """最后四张 (:attr:`Ruleset.must_win_last` = n): the n-th last tile that can be
        drawn has been drawn, so a win a seat may make now is taken (the loop does not ask
        the policy)."""
        n = self.rs.must_win_last
        return bool(n) and self.wall_left - self.kept() < n

    def at_last(self, p: int) -> bool:
        """The draw or discard seat ``p`` just made is the last of the hand (海底: no call
        after it; the hand is drawn if nobody wins): no tile left to draw, or with one
        wall per seat the next seat's wall is empty."""
        if self.per_seat:
            return not self.can_draw((p + 1) % self.n)
        return not self.can_draw()

    def may_kong(self, p: int) -> bool:
        """Seat ``p`` may declare a concealed or added kong now (a replacement can be
        drawn and the tile just drawn is not the last)."""
        if self.per_seat:
            return self.can_draw(p) and not self.at_last(p)
        return self.can_draw()

    def _take(self, from_tail: bool, p: int | None = None) -> int:
        if self.per_seat:
            t = int(self.wall[self.seat_next[p]])
            self.seat_next[p] -= 1
        elif from_tail:
            t = int(self.wall[self.tail])
            self.tail -= 1
        else:
            t = int(self.wall[self.head])
            self.head += 1
        if t < 34:
            self.last_drawn = t        # the 海底 tile when the wall runs out (长沙 扎鸟)
        return t

    def draw(self, p: int, from_tail: bool = False):
        """Draw for seat p (flowers set aside and replaced from the tail; 花鬼: kept as
        jokers); None when the live wall is exhausted."""
        s = self.seats[p]
        if not self.can_draw(p):
            return None
        t = self._take(from_tail, p)
        self.draws += 1
        self.flower_seat = -1
        while t >= 34 and not self.flower_jokers:
            s.flowers.append(t)
            self._log(e="flower", seat=p, tile=t)
            if self.flower_win and len(s.flowers) == self.model.n_flowers:
                self.flower_winner = p     # 八仙過海: the hand ends (the loop records it)
                return None
            if self.rob_one and self.check_rob_one():
                return None                # 七搶一: the hand ends (the loop records it)
            if not self.can_draw(p):
                return None
            t = self._take(True, p)
            self.draws += 1
            self.flower_seat = p           # the tile kept replaced a flower (花上添花)
        if t >= 34:
            s.flowers.append(t)        # 花鬼: a flower joker, held (the joker slot)
        else:
            s.phys[t] += 1
        s.drawn = t
        s.n_drawn += 1
        self._changed(p)
        self._log(e="draw", seat=p, tile=t, tail=from_tail)
        return t

    # ------------------------------------------------------------------ hand views
    def _changed(self, p):
        """Seat p's concealed tiles changed (hook; the shape caches key on the tiles)."""

    def _melds_changed(self, p):
        s = self.seats[p]
        s._opts = None
        s._popts = None

    def play_counts(self, p):
        """(concealed counts as played, jokers) of seat p; flower jokers (花鬼) held are
        jokers."""
        s = self.seats[p]
        c = s.phys.copy()
        j = len(s.flowers) if self.flower_jokers else 0
        if self.jk >= 0:
            for k in self.jks:
                j += int(c[k])
                c[k] = 0
            if self.sub >= 0 and self.sub != self.jk:
                c[self.jk] = c[self.sub]
                c[self.sub] = 0
        return c, j

    def play_kind(self, t: int) -> int:
        return self.jk if (t == self.sub and self.sub >= 0) else t

    def meld_objects(self, p):
        return tuple(Meld(m["kind"], m["tile"], m["concealed"]) for m in self.seats[p].melds)

    def shape_opts(self, p, strict=True):
        """ShapeOpts for seat p: strict = the ruleset's shape options (bots);
        loose = forms and caps only (the pre-check before THE predicate)."""
        s = self.seats[p]
        got = s._opts if strict else s._popts
        if got is not None:
            return got
        sh = self.model.shape(self.shape_melds(self.meld_objects(p)))
        if strict:
            o = self._strict(sh, len(s.melds), s.void)
            s._opts = o
        else:
            # the pre-check before THE predicate: forms only, 4 copies each (looser
            # than the tile set, so it never hides a win; the predicate decides)
            o = sh.game_opts(len(s.melds), pairs=False)
            s._popts = o
        return o

    def _strict(self, sh, n_melds, void):
        """Bot options: the table path of the core (4 copies each), the 2-5-8 pair
        mask, live counts from the tile set less the melds; a declared void suit
        (定缺) has no live tiles (the bot discards it first instead of asking the
        core for a void suit); under 缺门 at the win (a void suit, not declared) the
        void-suit bits of the suits the melds leave free, so the shanten is the least
        over those suits, found again at each decision."""
        live = np.array(sh.caps, dtype=np.uint8)
        if void >= 0:
            live[9 * void:9 * void + 9] = 0
        return sh.game_opts(n_melds, live=live, void=self.void_at_win)

    def waits(self, p):
        """(waits uint8 (34,), joker draw completes) of seat p's 3n+1 hand (shape only)."""
        c, j = self.play_counts(p)
        return self._waits_of(p, c, j)

    def seat_visible(self, p):
        """What seat p sees besides its own hand and own melds (``uint8 (34,)``)."""
        return self.visible - self.seats[p].meld_counts

    # ------------------------------------------------------------------ wins
    def _last_copy(self, kind: int, self_drawn: bool) -> bool:
        """和绝张: the other three copies of the win tile are visible (discards, exposed
        melds, a face-up indicator); a discarded win tile is itself in ``visible``."""
        return int(self.visible[kind]) - (0 if self_drawn else 1) >= 3

    def first_turn(self, p, self_drawn, kong=False):
        """天和 / 地和 / 人和 of a win by seat p now (:attr:`WinContext.first_turn`):
        nothing interrupted the first go-around (no call, kong or win), the win is not
        on a kong tile, and the seat has not discarded (a self-draw: 天和 for the
        dealer, 地和 otherwise) or, on a discard, not yet drawn (人和, non-dealer)."""
        if self.interrupted or kong:
            return ""
        s = self.seats[p]
        if self_drawn:
            if s.n_discarded:
                return ""
            return "heavenly" if p == self.dealer else "earthly"
        if p == self.dealer or s.n_drawn or s.n_discarded:
            return ""
        return "human"

    def note_kong(self, p, frm=-1):
        """Seat p made a kong (not robbed): its discard of this turn, after the
        replacement draw, is one a win on is 杠上炮 (:attr:`discard_after_kong`);
        ``frm``: the seat whose discard it claimed (-1: a kong of p's own tiles), so a
        win on its replacement has ``kong_claimed`` (南京 大杠开花)."""
        self.kong_mark = (p, self.turns)
        self.kong_from = frm

    def try_win(self, p, tile, *, self_drawn, kong=False, robbing=False, last_tile=False,
                discarder=None):
        """THE predicate's verdict (WinCheck) for seat p winning on physical ``tile``
        (``discarder``: the seat whose discard or added kong it is), or None when the
        shape is not complete (the predicate is then not asked) or the table refuses the
        win: no declaration where one is required, a discard for a hand declared open
        (:mod:`.declare`)."""
        s = self.seats[p]
        if self.ready_kinds and ((self.must_declare and not s.declared)
                                 or (s.declared == "open" and not self_drawn)):
            return None
        c, j = self.play_counts(p)
        is_joker = tile in self.jks or tile >= 34       # (a flower: a 花鬼 joker)
        if self_drawn:
            if is_joker:
                j -= 1
            else:
                c[self.play_kind(tile)] -= 1
        if (self.jk >= 0 and not self_drawn and is_joker
                and not self.joker_rule.be_claimed):
            return None
        # shape pre-check on the hand before the win tile
        kind = self.play_kind(tile)
        special = (self._three_jokers and (j + (1 if is_joker else 0)) >= self._three_jokers
                   and self_drawn)
        if not special and not self._complete(p, c, j, kind, is_joker, tile, self_drawn):
            return None
        flowers = 0 if self.flower_jokers else len(s.flowers)    # (花鬼: jokers, counted in j)
        hand = Hand(c, self.meld_objects(p), jokers=j,
                    flowers=tuple(f - 34 for f in s.flowers) if self.flower_faces else ())
        seat_wind = (p - self.dealer) % self.n
        last_copy = (not is_joker and not robbing and not c[kind]
                     and self._last_copy(kind, self_drawn))
        kw = win_context(self.rs, self_drawn=self_drawn, win_is_joker=is_joker,
                         kong=kong or robbing, last_copy=last_copy, last_tile=last_tile,
                         seat_wind=seat_wind, prevalent=self.prevalent, flowers=flowers,
                         first_turn=self.first_turn(p, self_drawn, kong or robbing),
                         kong_discard=(not self_drawn and not robbing
                                       and self.discard_after_kong),
                         flower_replacement=self_drawn and self.flower_seat == p,
                         kong_claimed=self_drawn and kong and self.kong_from >= 0,
                         declared_ready=s.declared,
                         discarder_ready=(not self_drawn and discarder is not None
                                          and bool(self.seats[discarder].declared)),
                         kong_chain=self.kong_ledger.chain(p) if self_drawn and kong else 0,
                         seat_fan=self.model.seat_fan(s.discards) if self._seat_fan else 0)
        key = (p, c.tobytes(), j, tuple(self.meld_objects(p)), kind, is_joker, self_drawn,
               kw["kong"], last_copy, last_tile, flowers, kw["first_turn"], kw["kong_discard"],
               kw["declared_ready"], kw["discarder_ready"], kw["flower_replacement"],
               kw["kong_claimed"], kw["kong_chain"], kw["seat_fan"])
        if self.by_faces:
            # the faces of the held wild tiles change the value (南昌 德国, 天津 银杠胡 …):
            # THE predicate reads the hand by its physical tiles and the indicator
            hand, kind, key = self._faces_args(p, tile, self_drawn, kw, key)
        win = None if is_joker and not self.by_faces else kind    # THE predicate's tile
        res = _verdict(self.check_win, self._verdicts, key, p, hand, win, kw)
        if res.valid:
            self._win_args[p] = (hand, win, kw)
        return res

    def _faces_args(self, p, tile, self_drawn, kw, key):
        """(hand by faces, win tile by its face, cache key) for THE predicate given
        ``indicator=`` (:func:`majiang.scoring.faces.score`): the concealed physical
        tiles (less a self-drawn win tile), the melds, the physical win tile."""
        ph = np.array(self.seats[p].phys, dtype=np.uint8)
        if self_drawn:
            ph[tile] -= 1
        kw["jokers"] = 0
        kw["win_is_joker"] = False       # the win tile is given by its face
        kw["indicator"] = self.indicator if self.indicator is not None else self.jk
        return (Hand(ph, self.meld_objects(p)), int(tile),
                key + (ph.tobytes(), int(tile)))

    def _complete(self, p, c, j, kind, is_joker, tile=None, self_drawn=True):
        """Shape pre-check: the hand before the win (c, j) plus the win tile is complete
        in some form (caps and forms only; THE predicate decides the rest): the compiled
        check of the core forms, else :func:`~majiang.scoring.waiting.beyond_core`
        (十三烂, 将将胡 of any shape); where the values read the wild tiles' faces
        (南昌 德国) also the hand with every wild tile as its own face."""
        full = c.copy()
        jf = j
        if is_joker:
            jf += 1
        else:
            if full[kind] >= 4:
                return False
            full[kind] += 1
        if _cg.shanten(full, self.shape_opts(p, False), jf) == -1:
            return True
        melds = self.meld_objects(p)
        if self._beyond and _beyond_core(self.model, full, melds, jf):
            return True
        if self._beyond and self.by_faces and jf and tile is not None:
            # a core shape with the wild tiles as their faces is one with jokers (above);
            # 十三烂 takes no joker but may take a wild tile as its own face (南昌 德国)
            ph = np.array(self.seats[p].phys, dtype=np.uint8)
            if not self_drawn:
                ph[tile] += 1              # a discard: not in the hand yet
            return bool(_beyond_core(self.model, ph, melds, 0))
        return False

    def _waits_of(self, p, c, j):
        s = self.seats[p]
        key = (p, len(s.melds), c.tobytes(), j)
        got = self._wcache.get(key)
        if got is not None:
            return got
        out = np.zeros(34, dtype=np.uint8)
        jw = _cg.waits(np.ascontiguousarray(c, dtype=np.uint8), self.shape_opts(p, False), j,
                       out)
        if self._beyond:
            out[_beyond_waits(self.model, c, self.meld_objects(p), j)] = 1
        got = self._wcache[key] = (out, bool(jw))
        return got

    def end_turn_order(self, claimed: bool) -> None:
        """A claim or a win: play no longer goes round in turn order from the dealer;
        :attr:`open_turns` keeps the discards made before (a ``claimed`` discard not
        among them), once."""
        if self.open_turns < 0:
            self.open_turns = self.turns - int(claimed)

    def record_win(self, p, tile, res, *, self_drawn, discarder=None, kong=False,
                   robbing=False):
        self.end_turn_order(not (self_drawn or robbing))
        win = _make_win(self.rs, p, tile, res, self_drawn, discarder, kong, robbing,
                        [s.out for s in self.seats], self._win_args.get(p),
                        lambda: claimed_melds(s.melds for s in self.seats),
                        lambda: self.wall_left - self.kept())
        for q in range(self.n):
            self.deltas[q] += win["deltas"][q]
        self.wins.append(win)
        extra = {"liability": [list(x) for x in win["liability"]]} if win["liability"] else {}
        self._log(e="win", seat=p, tile=int(tile), how=win["how"], discarder=discarder,
                  fans=win["fans"], total=win["total"], deltas=win["deltas"], **extra)
        return win

    def check_rob_one(self) -> bool:
        """七搶一: when the flowers are split seven and one (every one out), the seven-flower
        seat is the flower winner and the other the robbed seat; True then."""
        got = _facts.rob_split(len(x.flowers) for x in self.seats)
        if got is None:
            return False
        self.flower_winner, self.flower_robbed = got
        return True

    def discard_win(self, p, tile):
        """出牌即胡 (:func:`~.facts.discard_win`, 云南 十风): seat p has just discarded
        ``tile``; when its discards and melds complete a fan tagged
        :data:`~majiang.rules.fans.DISCARD_WIN` it wins at once (paid as a self-draw,
        :class:`DiscardWinResult`, how ``"discard_win"``; nobody may claim the tile) and the
        win is returned, else None."""
        if self.discard_history is None:
            return None
        hist = self.discard_history[p]
        hist.append(int(tile))
        s = self.seats[p]
        r = DiscardWinResult(self.rs, hist, len(s.melds), (p - self.dealer) % self.n,
                             self.prevalent)
        if not r:
            return None
        win = _make_win(self.rs, p, tile, SimpleNamespace(result=r), True, None, False, False,
                        [x.out for x in self.seats], None)
        win["how"] = "discard_win"
        self.end_turn_order(False)
        for q in range(self.n):
            self.deltas[q] += win["deltas"][q]
        self.wins.append(win)
        self._log(e="win", seat=p, tile=int(tile), how="discard_win", discarder=None,
                  fans=win["fans"], total=win["total"], deltas=win["deltas"])
        return win

    def record_flower_win(self, p):
        """Seat p holds every flower (八仙過海, :class:`FlowerWinResult`): the win is paid
        as a self-draw; its tile is the last flower.  Or seat p holds seven and robs the
        eighth from :attr:`flower_robbed` (七搶一), who pays it alone; its tile is that
        flower."""
        s = self.seats[p]
        robbed = self.flower_robbed
        res = SimpleNamespace(result=FlowerWinResult(self.rs, [f - 34 for f in s.flowers],
                                                     (p - self.dealer) % self.n,
                                                     self.prevalent, robbed=robbed is not None))
        tile = s.flowers[-1] if robbed is None else self.seats[robbed].flowers[-1]
        win = _make_win(self.rs, p, tile, res, robbed is None, robbed, False, False,
                        [x.out for x in self.seats], None)
        win["how"] = "flower"
        self.end_turn_order(False)
        for q in range(self.n):
            self.deltas[q] += win["deltas"][q]
        self.wins.append(win)
        self._log(e="win", seat=p, tile=int(tile), how="flower", discarder=robbed,
                  fans=win["fans"], total=win["total"], deltas=win["deltas"])
        return win

    # ------------------------------------------------------------------ melds
    def mark_face_down(self, p):
        """Mark seat ``p``'s last logged discard as laid face down (立四's declaration)."""
        if self.events is None:
            return
        for e in reversed(self.events):
            if e.get("e") == "discard" and e.get("seat") == p:
                e["face_down"] = True
                return

    def to_pool(self, p, t):
        """Physical tile ``t`` goes face up into seat ``p``'s discard pool, seen by every
        seat (a discard, or a 开杠's turned tile nobody took)."""
        self.seats[p].discards.append(t)
        self.visible[self.play_kind(t)] += 1

    def take(self, p, kind, n):
        """Seat ``p`` puts ``n`` concealed tiles of physical kind ``kind`` into a meld; under
        standing tiles (立四, :func:`~.declare.standing_used`) the standing copies among
        them leave the standing set."""
        s = self.seats[p]
        if self.standing:
            s.standing[kind] -= standing_used(s, kind, n)
        s.phys[kind] -= n

    def add_meld(self, p, kind, tile, concealed, phys_tiles, frm=None, claimed=None):
        """Seat p lays down a meld; ``frm`` the seat whose discard it claimed and
        ``claimed`` that tile's kind (a chow's claimed tile is not its ``tile``)."""
        s = self.seats[p]
        self.interrupted = True
        s.melds.append({"kind": kind, "tile": int(tile), "concealed": bool(concealed),
                        "tiles": [int(t) for t in phys_tiles], "frm": frm,
                        "claimed": None if claimed is None else int(claimed)})
        if not concealed:
            for t in phys_tiles:
                k = self.play_kind(int(t))
                self.visible[k] += 1
                s.meld_counts[k] += 1
        self._melds_changed(p)

    def legal_discards(self, p):
        """Physical kinds seat p may discard now (定缺 suit first; a locked 血流 hand or a
        declared ready one discards its drawn tile; 温州 lone honours first,
        :meth:`_lone_honours`)."""
        st = self
        s = st.seats[p]
        kinds = [int(k) for k in np.flatnonzero(s.phys)]
        if (s.locked or s.declared) and s.drawn is not None:
            return [s.drawn]
        if st.standing and not s.declared and s.standing.any():
            # 立四: a standing tile only to declare ready (.declare)
            decl = standing_declarations(st, p)
            kinds = [k for k in kinds if s.phys[k] > s.standing[k] or k in decl]
        if st.jk >= 0 and not st.joker_rule.discard:
            nj = [k for k in kinds if k not in st.jks]
            if nj:
                kinds = nj
        if s.void >= 0:
            vs = [k for k in kinds if k < 27 and k // 9 == s.void]
            if vs:
                kinds = vs
        if st.rs.discard_order == "lone_honours":
            kinds = self._lone_honours(p, kinds)
        return kinds

    def _lone_honours(self, p, kinds):
        """``Ruleset.discard_order == "lone_honours"`` (温州, docs/rules/wenzhou.md §1: "a
        lone honour must go first; after someone discards an honour you follow with the
        same honour if you hold a single one"), among the discardable ``kinds``: after
        another seat's latest discard played as honour h, a seat holding exactly one tile
        played as h must discard it; otherwise a seat holding lone honours (the only tile
        played as its honour kind) discards one of them.  Tiles count as they play (a
        stand-in as the joker's face, the wild tiles not at all) [interp.]."""
        held = {}
        for k in kinds:
            h = self.play_kind(k)
            held.setdefault(h, []).append(k)
        phys = self.seats[p].phys
        lone = {h: ks[0] for h, ks in held.items()
                if h >= 27 and len(ks) == 1 and int(phys[ks[0]]) == 1}
        last = self.last_discard
        if last is not None and last[0] != p:
            h = self.play_kind(int(last[1]))
            if h in lone:
                return [lone[h]]
        return sorted(lone.values()) if lone else kinds

    def opts_with(self, p, extra=()):
        """Strict ShapeOpts for seat p's melds plus hypothetical ``extra`` Melds."""
        if not extra:
            return self.shape_opts(p, True)
        melds = self.meld_objects(p) + tuple(extra)
        return self._strict(self.model.shape(self.shape_melds(melds)), len(melds),
                            self.seats[p].void)

    def shape_melds(self, melds):
        """The melds whose tiles count against the copies of their kinds in the shape
        options: all but a kong of jokers (金杠, :attr:`JokerRule.kong`), whose four
        tiles are jokers out of play, not natural copies (it still counts as a set)."""
        if not self.joker_rule or not self.joker_rule.kong:
            return melds
        return tuple(m for m in melds if not (m.kind == "kong" and m.tile in self.jks))

    # ------------------------------------------------------------------ census
    def census(self) -> np.ndarray:
        """Count of every physical tile across hands, melds, discards, won tiles,
        flowers, the wall and the tiles set aside (``int64 (34 + flowers,)``)."""
        return tile_census(self.model, self.seats, self.aside, self.wall_rest())

    def expected_census(self) -> np.ndarray:
        return expected_census(self.model)

"""The whole-hand engine: one hand (一局) under a ruleset, from the deal to the end.

Everything about the game comes from the ruleset's game model
(:func:`majiang.rules.model.game_model`): the tile set and flowers, players, hand
size, calls, jokers (an indicator turned from the wall), the end-of-wall rule,
several winners or head-bump, 血战到底 / 血流成河; whether a hand wins is asked of
THE win predicate (:func:`majiang.scoring.check_win`), only for complete shapes
(a compiled shape check, :mod:`majiang._core.game`, filters first).

Physical tiles are integers: ``0..33`` the 34 kinds, ``34 + i`` flower ``i``.  A
tile of a wild kind is a joker while held — one kind, or two with
:attr:`JokerRule.second` (南昌 正精 + 副精, 天津 混儿: ``state.jks``, the kinds of
:meth:`GameModel.joker_kinds`); with a substitute kind (安庆 红中) the substitute tiles
play as the joker kind's natural tile.

Turn order is counter-clockwise: seat ``s + 1`` plays after seat ``s``; the
player on the left of ``s + 1`` is ``s`` (chows come only from the previous
seat).  Seat winds: the dealer is East, ``(s - dealer) % players``.

Rules applied (sources: the ruleset's page in docs/rules/):

* deal 13 / 16 tiles each, the dealer one more; flowers set aside and replaced
  from the tail (dealer first), also on every later draw;
* jokers: after the deal one tile is turned from the tail (re-turned while it is
  a flower; the turned flower stays aside), giving the joker kind per the
  :class:`~majiang.rules.JokerRule`; a fixed joker turns nothing; when every copy of
  the turned kind is wild (南昌, ``source="turned"``, 4 copies) the turned tile goes
  back where it lay (the next replacement draw), else it stays face up, set aside;
  jokers of every wild kind are never claimed, never used to claim, never part of a
  kong, and never discarded where the ruleset forbids it (天津);
* a ruleset whose values read the faces of the wild tiles
  (:func:`majiang.scoring.faces.faces_matter`: 南昌 德国 with a 精 as its own face, 天津
  银杠胡 / 金杠胡 / 本混龙) has its wins judged with the hand by its physical tiles and the
  indicator (``check_win(..., indicator=)``); such rulesets play in the Python loop;
* a turn: draw (the dealer's first turn uses the 14th dealt tile), then the
  player may win (self-draw), declare a concealed or an added kong (replacement
  from the tail, after which the turn goes on), or discard;
* an added kong may be robbed (抢杠和) by anyone who wins on that tile;
* claims on a discard: win > kong / pung > chow (chow only by the next seat,
  only where the ruleset allows chows); several winners per ``ruleset.winners``
  (``"multiple"``: all of them; ``"head_bump"`` / ``"single"``: the first in turn
  order after the discarder); nothing but a win may claim the last discard;
* 定缺 (rulesets with the ``void_suit`` constraint): each player names a void suit
  at the deal, must discard that suit's tiles before any other, and may not
  claim them;
* end: a win (the hand ends) or, with ``blood="xuezhan"``, play goes on until
  all but one have won or the wall ends; with ``"xueliu"`` winners stay in
  (their hand is then locked: they draw, win or discard the drawn tile) until
  the wall ends; the hand is drawn when the live wall holds
  ``wall_end.kept_tiles(exposed, concealed kongs)`` tiles and someone must draw;
* settlement: ``FanResult.settle`` / ``RegionalResult.settle`` per win; after a
  blood win, players already out do not pay a self-draw.

* 过水 / 漏和 (``Ruleset.pass_lock``): a passed win locks the passed kind (山东) or
  every discard win (广东) until the player's own discard;
* 换三张 (``Ruleset.exchange`` or ``exchange3=True``), before 定缺; the ruleset's
  ``end_checks`` (查花猪 / 查大叫 / 退税) at a drawn end (:func:`end_checks`);
* 天和 / 地和 / 人和: a win in the first go-around before any call, kong or win passes
  ``first_turn`` to THE predicate (:attr:`majiang.winning.WinContext.first_turn`);
* kong payments outside the hand value (``Ruleset.kong_payments``: 四川 刮风下雨 and
  呼叫转移, 广东 杠分 with 荒庄荒杠, 贵州 豆 collected only by ready players), kept in
  :class:`KongLedger` and settled at the end with the end checks (``st.end_checks``,
  in the score deltas);
* the ruleset's end-of-hand settlement (``Ruleset.end_settlement``, a function of the
  final table :class:`~majiang.rules.base.EndTable` built by :func:`end_table`: 贵州
  鸡 after a win, 查叫 at a drawn end, 河北 / 内蒙 / 灌南 dealer and 闭门 terms, 保定 跟庄
  from the discard pools); "ready" there is a winner or a hand that some
  tile completes into a valid win under THE predicate as a self-draw.

Two loops play the same hands move for move: the compiled one
(:class:`majiang._core.game.FastHand`: built-in bots, core forms only, one joker kind
of the usual sort, no log) and this module's Python one (any
policy, substitute jokers, two wild kinds, extra forms, logs); the tests compare them
hand by hand.

Not yet modelled: ready declarations (报听, 天听 / 地听), 买马, Botzone-style
duplicate walls, 杠上炮 as a fan (the win context does not say that the discard
followed a kong), 血流's "only the larger of 查花猪 / 查大叫", 点杠花 paid as a discard,
杠爆全包 / 抢杠全包 (广东 full-pay).
"""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._parallel import as_seed_sequence, plain_seed
from ..errors import MahjongError, RuleError
from ..hand import Hand, Meld
from ..rules.model import game_model
from ..scoring.faces import faces_matter as _faces_matter
from ..scoring.waiting import beyond_core as _beyond_core
from ..scoring.waiting import beyond_waits as _beyond_waits
from .._core import game as _cg
from . import players as _players  # noqa: E402
from .players import (SeatView, efficiency_exchange, make_players,  # noqa: E402
                      pick_valid_wait, random_exchange, step_back, wait_judge)

__all__ = ["IllegalMoveError", "play_hand", "HandState", "hand_seed_sequence", "build_wall",
           "check_win_fn", "KongLedger", "KongItem", "min_aware"]

_ALL_PAIRS = (1 << 34) - 1


def _shape_extra(model) -> bool:
    """The model has a form outside the core that only the Python loop plays (十三烂-like
    extra forms); all_258 (将将胡 of any shape) is not one: the compiled loop checks its
    shape itself (every tile a 2, 5 or 8, ``FastHand.only258``) as the Python loop does
    with :func:`~majiang.scoring.waiting.beyond_core`, and THE predicate decides."""
    return bool(set(model.extra_forms) - {"all_258"})


def _beyond_forms(model) -> bool:
    """The model has a form the compiled shape check does not know (十三烂-like extra
    forms, 将将胡 of any shape): :func:`~majiang.scoring.waiting.beyond_core` is asked
    beside it."""
    return bool(model.extra_forms)


def _indicator_back(jr, model, t) -> bool:
    """Whether the turned indicator ``t`` goes back into play: the turned kind itself is
    wild (``source="turned"``) with every copy wild (:attr:`JokerRule.copies` = the
    kind's copies, 南昌 正精; :meth:`GameModel.wall` then keeps no natural copy)."""
    return jr.source == "turned" and int(jr.copies) >= int(model.copies[int(t)])


def _indicator_back_possible(jr, model) -> bool:
    """Some indicator goes back into play (:func:`_indicator_back`); the compiled loop
    always sets the turned tile aside, so such rulesets play in the Python loop."""
    return jr.source == "turned" and int(jr.copies) >= int(np.max(model.copies))


def _pass_lock(rs):
    """过水 / 漏和 of the ruleset (:attr:`Ruleset.pass_lock`): None, ``"kind"`` (Shandong
    不能弃先和后: the passed kind, :func:`majiang.rules.shandong.may_win`) or ``"all"``
    (Guangdong 漏和: every win on a discard until the player's own turn)."""
    return getattr(rs, "pass_lock", "") or None


def min_aware(model) -> bool:
    """Whether the efficiency bot checks its tenpai waits with THE predicate
    (:func:`~majiang.game.players.pick_valid_wait`): under the ruleset a complete shape
    of the bots' shape options may still not win when self-drawn: the rule spec's shape
    options are not exact (:meth:`RuleSpec.shape <majiang.rules.model.RuleSpec.shape>`:
    a minimum in fan or in points (螺山 100 / 200, 天津 2, 温州 / 罗源 1), a constraint
    beyond the shape such as 二五八将 for a small win or 八枝, extra forms)."""
    return not model.shape(()).exact


class KongItem(NamedTuple):
    """One payment of a :class:`KongLedger`.

    Attributes
    ----------
    entry : dict
        ``{"check", "kind", "payer", "payee", "amount"}``: ``check`` ``"杠分"`` for a
        kong (``kind`` ``"concealed"`` / ``"added"`` / ``"exposed"``) or ``"呼叫转移"``
        for a transfer (``kind`` ``""``); ``amount`` a positive int.
    turn : int
        Discards made before the kong (a transfer: before the winning discard).
    moved : bool
        Its income was moved on by 呼叫转移 (a 退税 then leaves it alone).
    """

    entry: dict
    turn: int
    moved: bool = False


class KongLedger:
    """Kong payments of one hand outside the hand value (:attr:`Ruleset.kong_payments`:
    四川 刮风下雨 and 呼叫转移, 广东 杠分), shared by both loops.

    ``items`` lists :class:`KongItem` entries in the order made; :func:`end_checks`
    applies them to the score deltas at the end of the hand (or voids them: 荒庄荒杠)
    and refunds them (退税).
    """

    def __init__(self, rs, n):
        self.kp = getattr(rs, "kong_payments", None)
        self.n = n
        self.items: list[KongItem] = []

    def kong(self, p, kind, outs, turns, discarder=-1, late=False):
        """Seat p made a kong (``"concealed"``, ``"added"`` or ``"exposed"`` on
        ``discarder``'s discard); ``outs``: seats already out (血战); ``turns``: discards
        made so far; ``late``: an added kong on a tile held from an earlier turn."""
        kp = self.kp
        if kp is None:
            return
        others = [q for q in range(self.n) if q != p and not outs[q]]
        if kind == "concealed":
            pay = [(q, kp.concealed) for q in others]
        elif kind == "added":
            amt = 0 if (late and kp.late_added_free) else kp.added
            pay = [(q, amt) for q in others]
        else:
            pay = [(discarder, kp.exposed)] + [(q, kp.exposed_each) for q in others
                                               if q != discarder]
        for q, a in pay:
            if a > 0:
                self.items.append(KongItem({"check": "杠分", "kind": kind, "payer": int(q),
                                            "payee": int(p), "amount": int(a)}, int(turns)))

    def transfer(self, discarder, winners, turns):
        """呼叫转移: ``winners`` (turn order after the discarder) won on the discard
        that followed the discarder's kong(s) of this turn: that income moves to them."""
        kp = self.kp
        if kp is None or not kp.transfer or not winners:
            return
        inc = [i for i, it in enumerate(self.items)
               if it.entry["check"] == "杠分" and it.entry["payee"] == discarder
               and it.turn == turns - 1 and not it.moved]
        total = sum(self.items[i].entry["amount"] for i in inc)
        if not total:
            return
        for i in inc:
            self.items[i] = self.items[i]._replace(moved=True)
        share, rem = divmod(total, len(winners))
        for i, w in enumerate(winners):
            a = share + (rem if i == 0 else 0)
            if a:
                self.items.append(KongItem({"check": "呼叫转移", "kind": "",
                                            "payer": int(discarder), "payee": int(w),
                                            "amount": int(a)}, int(turns)))


class IllegalMoveError(MahjongError):
    """A player policy returned a move that the rules do not allow here."""


def check_win_fn():
    """THE win predicate, :func:`majiang.scoring.check_win` (imported on first use)."""
    from ..scoring import check_win
    return check_win


def hand_seed_sequence(seed: Any, hand: int) -> np.random.SeedSequence:
    """The SeedSequence of hand number ``hand`` of a run seeded with ``seed``:
    ``SeedSequence(seed).spawn(n)[hand]`` for any ``n > hand``."""
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) and seed >= 0:
        return np.random.SeedSequence(int(seed), spawn_key=(int(hand),))
    base = as_seed_sequence(seed)
    return np.random.SeedSequence(base.entropy, spawn_key=tuple(base.spawn_key) + (int(hand),),
                                  pool_size=base.pool_size)


def hand_bit_generator(seed: Any, hand: int) -> np.random.PCG64:
    """The hand's one random stream (numpy PCG64 from :func:`hand_seed_sequence`): it
    shuffles the wall first, then serves every random bot choice in the order the
    hand asks for them (the compiled and the Python loop consume it alike)."""
    return np.random.PCG64(hand_seed_sequence(seed, hand))


_TILES: dict = {}


def _sorted_tiles(model) -> np.ndarray:
    got = _TILES.get(id(model))
    if got is not None and got[0] is model:
        return got[1]
    tiles = np.repeat(np.arange(34, dtype=np.int16), np.asarray(model.copies, dtype=np.int64))
    if model.n_flowers:
        tiles = np.concatenate([tiles, np.arange(34, 34 + model.n_flowers, dtype=np.int16)])
    tiles.setflags(write=False)
    _TILES[id(model)] = (model, tiles)
    return tiles


def build_wall(model, rng: np.random.Generator) -> np.ndarray:
    """A shuffled physical wall: ``int16`` array of kinds 0..33 and flowers 34+
    (``rng.permutation`` of the sorted tile set)."""
    return rng.permutation(_sorted_tiles(model))


class _Shuffled:
    """A wall already shuffled from the hand's stream (skips the explicit-wall check)."""

    __slots__ = ("tiles",)

    def __init__(self, tiles):
        self.tiles = tiles


class _Seat:
    __slots__ = ("phys", "melds", "flowers", "discards", "won_tiles", "out", "locked",
                 "void", "meld_counts", "_opts", "_popts", "n_kongs_exposed",
                 "n_kongs_concealed", "n_calls", "drawn", "passed", "pass_all",
                 "n_discarded", "n_drawn")

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
        if wall is None:
            bg = hand_bit_generator(seed if seed is not None else 0, hand)
            self.wall = build_wall(self.model, np.random.Generator(bg))
        elif isinstance(wall, _Shuffled):
            self.wall = wall.tiles
        else:
            w = np.asarray(wall, dtype=np.int16).ravel()
            expect = np.sort(build_wall(self.model, np.random.default_rng(0)))
            if w.shape != expect.shape or not np.array_equal(np.sort(w), expect):
                raise RuleError(f"an explicit wall must hold each physical tile of {rs.name} "
                                f"exactly once ({expect.size} tiles: kinds 0..33 by the "
                                f"ruleset's copies, flowers 34..{33 + self.model.n_flowers})")
            self.wall = w.copy()
        self.head = 0
        self.tail = self.wall.size - 1
        self.seats = [_Seat() for _ in range(n)]
        self.visible = np.zeros(34, dtype=np.uint8)   # pools + exposed melds + indicator
        self.draws = 0
        self.wins = []           # dicts
        self.deltas = [0] * n
        self.turns = 0
        self.last_discard = None
        self._extra = _shape_extra(self.model)
        self._three_jokers = self.model.three_jokers_win
        self._beyond = _beyond_forms(self.model)
        self.ended = False
        self.end_reason = ""
        self._wcache = {}
        self._win_args = {}
        self._verdicts = {}      # THE predicate's verdicts, reused within the hand
        self.exchange3 = bool(exchange3) or rs.exchange == 3
        self.exchange_direction = None     # set by replay from the log
        self.bitgen = None                 # the hand's stream (random choices of the table)
        self.pass_lock = _pass_lock(rs)
        self.kong_ledger = KongLedger(rs, n)
        self.interrupted = False           # a call, a kong or a win happened (天和 / 地和 / 人和)
        self.min_aware = min_aware(self.model)   # bots aim at waits THE predicate accepts
        self.wait_cache = {}               # the bots' verdicts on waits, this hand
        self.first_discards = {}           # kind -> [seat, claimed by, turn] (冲锋鸡)
        self.by_faces = _faces_matter(rs)  # wins scored with the wild tiles by their faces

    # ------------------------------------------------------------------ logging
    def _log(self, **ev):
        if self.events is not None:
            self.events.append(ev)

    # ------------------------------------------------------------------ wall
    @property
    def wall_left(self) -> int:
        return self.tail - self.head + 1

    def kept(self) -> int:
        exp = sum(s.n_kongs_exposed for s in self.seats)
        con = sum(s.n_kongs_concealed for s in self.seats)
        return self.rs.wall_end.kept_tiles(exp, con)

    def can_draw(self) -> bool:
        return self.wall_left > self.kept()

    def _take(self, from_tail: bool) -> int:
        if from_tail:
            t = int(self.wall[self.tail])
            self.tail -= 1
        else:
            t = int(self.wall[self.head])
            self.head += 1
        return t

    def draw(self, p: int, from_tail: bool = False):
        """Draw for seat p (flowers set aside and replaced from the tail); None when
        the live wall is exhausted."""
        s = self.seats[p]
        if not self.can_draw():
            return None
        t = self._take(from_tail)
        self.draws += 1
        while t >= 34:
            s.flowers.append(t)
            self._log(e="flower", seat=p, tile=t)
            if not self.can_draw():
                return None
            t = self._take(True)
            self.draws += 1
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
        """(concealed counts as played, jokers) of seat p."""
        s = self.seats[p]
        c = s.phys.copy()
        j = 0
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
        sh = self.model.shape(self.meld_objects(p))
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
        core for a void suit)."""
        live = np.array(sh.caps, dtype=np.uint8)
        if void >= 0:
            live[9 * void:9 * void + 9] = 0
        return sh.game_opts(n_melds, live=live)

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

    def try_win(self, p, tile, *, self_drawn, kong=False, robbing=False, last_tile=False):
        """THE predicate's verdict (WinCheck) for seat p winning on physical ``tile``,
        or None when the shape is not complete (the predicate is then not asked)."""
        s = self.seats[p]
        c, j = self.play_counts(p)
        is_joker = tile in self.jks
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
        special = self._three_jokers and (j + (1 if is_joker else 0)) >= 3 and self_drawn
        if not special and not self._complete(p, c, j, kind, is_joker, tile, self_drawn):
            return None
        hand = Hand(c, self.meld_objects(p), jokers=j)
        seat_wind = (p - self.dealer) % self.n
        flowers = len(s.flowers)
        last_copy = (not is_joker and not robbing and not c[kind]
                     and self._last_copy(kind, self_drawn))
        kw = dict(ruleset=self.rs, self_drawn=bool(self_drawn), jokers=0,
                  win_is_joker=is_joker, kong=bool(kong or robbing), last_copy=bool(last_copy),
                  last_tile=bool(last_tile), seat_wind=seat_wind,
                  prevalent_wind=self.prevalent, flowers=flowers,
                  first_turn=self.first_turn(p, self_drawn, kong or robbing))
        key = (p, c.tobytes(), j, tuple(self.meld_objects(p)), kind, is_joker, self_drawn,
               kw["kong"], last_copy, last_tile, flowers, kw["first_turn"])
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

    def record_win(self, p, tile, res, *, self_drawn, discarder=None, kong=False,
                   robbing=False):
        win = _make_win(self.rs, p, tile, res, self_drawn, discarder, kong, robbing,
                        [s.out for s in self.seats], self._win_args.get(p))
        for q in range(self.n):
            self.deltas[q] += win["deltas"][q]
        self.wins.append(win)
        self._log(e="win", seat=p, tile=int(tile), how=win["how"], discarder=discarder,
                  fans=win["fans"], total=win["total"], deltas=win["deltas"])
        return win

    # ------------------------------------------------------------------ melds
    def add_meld(self, p, kind, tile, concealed, phys_tiles, frm=None):
        s = self.seats[p]
        self.interrupted = True
        s.melds.append({"kind": kind, "tile": int(tile), "concealed": bool(concealed),
                        "tiles": [int(t) for t in phys_tiles], "frm": frm})
        if not concealed:
            for t in phys_tiles:
                k = self.play_kind(int(t))
                self.visible[k] += 1
                s.meld_counts[k] += 1
        self._melds_changed(p)

    def legal_discards(self, p):
        """Physical kinds seat p may discard now (定缺 suit first; a locked 血流 hand
        discards its drawn tile)."""
        st = self
        s = st.seats[p]
        kinds = [int(k) for k in np.flatnonzero(s.phys)]
        if s.locked and s.drawn is not None:
            return [s.drawn]
        if st.jk >= 0 and not st.joker_rule.discard:
            nj = [k for k in kinds if k not in st.jks]
            if nj:
                kinds = nj
        if s.void >= 0:
            vs = [k for k in kinds if k < 27 and k // 9 == s.void]
            if vs:
                kinds = vs
        return kinds

    def opts_with(self, p, extra=()):
        """Strict ShapeOpts for seat p's melds plus hypothetical ``extra`` Melds."""
        if not extra:
            return self.shape_opts(p, True)
        melds = self.meld_objects(p) + tuple(extra)
        return self._strict(self.model.shape(melds), len(melds), self.seats[p].void)

    # ------------------------------------------------------------------ census
    def census(self) -> np.ndarray:
        """Count of every physical tile across hands, melds, discards, won tiles,
        flowers, the wall and the tiles set aside (``int64 (34 + flowers,)``)."""
        m = 34 + self.model.n_flowers
        c = np.zeros(m, dtype=np.int64)
        for s in self.seats:
            c[:34] += s.phys
            for md in s.melds:
                for t in md["tiles"]:
                    c[t] += 1
            for t in s.flowers + s.discards + s.won_tiles:
                c[t] += 1
        for t in self.aside:
            c[t] += 1
        if self.wall_left > 0:
            c += np.bincount(self.wall[self.head:self.tail + 1], minlength=m)
        return c

    def expected_census(self) -> np.ndarray:
        c = np.zeros(34 + self.model.n_flowers, dtype=np.int64)
        c[:34] = self.model.copies
        c[34:] = 1
        return c


# ====================================================================== the loop

def _may_win(kind, passed):
    from ..rules.shandong import may_win
    return may_win(kind, passed)


def _verdict(check_win, cache: dict, key, p: int, hand, win, kw: dict):
    """THE predicate's verdict on seat `p`'s win context, kept in `cache` under `key`
    (both loops, Python and compiled, ask through here).  The engine builds only legal
    contexts, so a refusal is an engine bug, raised as RuntimeError."""
    res = cache.get(key)
    if res is None:
        try:
            res = check_win(hand, win, **kw)
        except MahjongError as exc:
            raise RuntimeError(f"engine bug: the winning-hand check refused the context of "
                               f"seat {p} ({hand}, tile {win}): {exc}") from exc
        cache[key] = res
    return res


def _make_win(rs, p, tile, res, self_drawn, discarder, kong, robbing, outs, check):
    """The record of one win and its settlement (``FanResult.settle`` /
    ``RegionalResult.settle``); after a blood win, seats already out do not pay a
    self-draw."""
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
    return {"seat": p, "tile": int(tile), "how": how, "discarder": discarder, "fans": fans,
            "total": int(r.total), "points": int(getattr(r, "points", r.total)),
            "deltas": deltas, "result": r, "check": check}


def _options_text(options):
    return ", ".join(repr(tuple(o)) for o in options) or "none"


def _norm(choice):
    if choice is None:
        return None
    if isinstance(choice, (list, tuple)):
        return tuple(int(x) if isinstance(x, (int, np.integer)) and not isinstance(x, bool)
                     else x for x in choice)
    return choice


class _Game:
    def __init__(self, st: HandState, policies, views):
        self.st = st
        self.pol = policies
        self.views = views

    # -- asking policies -------------------------------------------------
    def ask_declare(self, p, options):
        st = self.st
        choice = _norm(self.pol[p].declare(self.views[p], list(options)))
        if choice is not None and choice not in options:
            raise IllegalMoveError(f"seat {p} ({self.pol[p]!r}): declare returned {choice!r}; "
                                   f"legal: None (go on to discard) or {_options_text(options)}")
        st._log(e="declare", seat=p, options=[list(o) for o in options],
                choice=None if choice is None else list(choice))
        return choice

    def ask_claim(self, p, options):
        st = self.st
        choice = _norm(self.pol[p].claim(self.views[p], list(options)))
        if choice is not None and choice not in options:
            raise IllegalMoveError(f"seat {p} ({self.pol[p]!r}): claim returned {choice!r}; "
                                   f"legal: None (pass) or {_options_text(options)}")
        st._log(e="claim", seat=p, options=[list(o) for o in options],
                choice=None if choice is None else list(choice))
        return choice

    def ask_discard(self, p):
        st = self.st
        legal = st.legal_discards(p)
        s = st.seats[p]
        if s.locked:
            t = legal[0]
        else:
            t = self.pol[p].discard(self.views[p])
            if isinstance(t, (np.integer,)):
                t = int(t)
            if isinstance(t, bool) or not isinstance(t, int) or t not in legal:
                raise IllegalMoveError(f"seat {p} ({self.pol[p]!r}): discard returned {t!r}; "
                                       f"legal discards (physical kinds): {legal}")
        if s.locked:
            st._log(e="discard", seat=p, tile=int(t), forced=True)
        else:
            st._log(e="discard", seat=p, tile=int(t))
        return int(t)

    # -- the hand --------------------------------------------------------
    def run(self):
        self.deal()
        return self.loop()

    def deal(self):
        """Deal, turn the joker indicator, replace flowers, 定缺."""
        st = self.st
        n = st.n
        order = [(st.dealer + i) % n for i in range(n)]
        for p in order:
            k = st.model.hand_size + (1 if p == st.dealer else 0)
            for _ in range(k):
                t = st._take(False)
                if t >= 34:
                    st.seats[p].flowers.append(t)
                else:
                    st.seats[p].phys[t] += 1
                st.seats[p].drawn = t
        st._log(e="deal", hands=[[int(x) for x in np.repeat(np.arange(34), s.phys)]
                                 for s in st.seats],
                flowers=[list(s.flowers) for s in st.seats])
        # jokers
        jr = st.joker_rule
        if jr is not None:
            if jr.source == "fixed":
                st.jk = int(jr.fixed)
                st.jks = (st.jk,)
            else:
                t = st._take(True)
                while t >= 34:
                    st.aside.append(t)
                    t = st._take(True)
                st.indicator = t
                st.jk = int(jr.kind(t))
                st.jks = tuple(int(k) for k in jr.kinds(t))
                if _indicator_back(jr, st.model, t):
                    # every copy of the turned kind is wild (南昌 正精): the turned tile
                    # goes back where it lay, the next replacement draw
                    st.tail += 1
                else:
                    st.aside.append(t)
                    st.visible[t] += 1
            if jr.substitute is not None:
                st.sub = int(jr.substitute)
            st._log(e="jokers", indicator=st.indicator, joker=st.jk, kinds=list(st.jks))
        # flowers in the deal: replaced from the tail, dealer first, until none
        for p in order:
            s = st.seats[p]
            need = len(s.flowers)
            while need:
                need -= 1
                t = st._take(True)
                st.draws += 1
                if t >= 34:
                    s.flowers.append(t)
                    need += 1
                else:
                    s.phys[t] += 1
                    s.drawn = t
            if s.flowers:
                st._log(e="flowers", seat=p, tiles=list(s.flowers))
        d = st.seats[st.dealer]
        if d.drawn is None or d.drawn >= 34 or not d.phys[d.drawn]:
            d.drawn = int(np.flatnonzero(d.phys)[-1])
        if st.exchange3:
            self.exchange(order)
        for p in range(n):
            st._changed(p)
        # 定缺
        if st.model.void_suit:
            for p in order:
                v = self.pol[p].choose_void(self.views[p]) if hasattr(self.pol[p], "choose_void") \
                    else 0
                if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= v <= 2:
                    raise IllegalMoveError(f"seat {p}: choose_void returned {v!r}; legal: 0 (万), "
                                           "1 (筒), 2 (条)")
                st.seats[p].void = int(v)
                st._melds_changed(p)
                st._log(e="void", seat=p, suit=int(v))
        st.start_hands = [s.phys.copy() for s in st.seats]
        st._log(e="start", hands=[[int(x) for x in np.repeat(np.arange(34), s.phys)]
                                  for s in st.seats],
                drawn=int(st.seats[st.dealer].drawn))

    def exchange(self, order):
        """换三张 (docs/rules/sichuan.md §2): each seat passes three tiles of one suit; one
        random direction for all (next seat, previous seat, opposite; two choices with
        three players), drawn from the hand's stream after the choices."""
        st = self.st
        n = st.n
        gives = {}
        for p in order:
            pol = self.pol[p]
            s = st.seats[p]
            t = pol.exchange(self.views[p]) if hasattr(pol, "exchange") \
                else efficiency_exchange(s.phys)
            try:
                t = sorted(int(x) for x in t)
            except (TypeError, ValueError):
                t = None
            ok = (t is not None and len(t) == 3 and all(0 <= x < 27 for x in t)
                  and len({x // 9 for x in t}) == 1
                  and all(s.phys[x] >= t.count(x) for x in t))
            if not ok:
                raise IllegalMoveError(f"seat {p} ({pol!r}): exchange returned {t!r}; legal: "
                                       "three held tiles of one suit (万 筒 条)")
            gives[p] = t
            st._log(e="exchange", seat=p, tiles=t)
        m = 3 if n == 4 else 2
        if st.exchange_direction is not None:
            d = int(st.exchange_direction)
        else:
            d = (int(st.bitgen.random_raw()) * m) >> 64
        st._log(e="exchange_direction", direction=d)
        for p in range(n):
            for x in gives[p]:
                st.seats[p].phys[x] -= 1
        step = (1, n - 1, 2)[d]
        for p in range(n):
            for x in gives[p]:
                st.seats[(p + step) % n].phys[x] += 1
        dl = st.seats[st.dealer]
        if not dl.phys[dl.drawn]:
            dl.drawn = int(np.flatnonzero(dl.phys)[-1])

    def loop(self):
        st = self.st
        cur = st.dealer
        drawn = st.seats[cur].drawn
        kong_flag = False
        mode = "turn"
        while True:
            if mode in ("draw", "kong_draw"):
                t = st.draw(cur, from_tail=(mode == "kong_draw"))
                if t is None:
                    return self.end("wall")
                drawn, kong_flag = t, mode == "kong_draw"
                mode = "turn"
            if mode == "turn":
                outcome = self.own_turn(cur, drawn, kong_flag)
            else:                         # after a pung / chow: discard only
                outcome = ("discard", self.do_discard(cur))
            if outcome[0] == "end":
                return self.end(outcome[1])
            if outcome[0] == "next":      # after a blood win: play passes on
                cur = outcome[1]
                if cur is None:
                    return self.end("blood")
                mode = "draw"
                continue
            res = self.after_discard(cur, outcome[1])
            if res[0] == "end":
                return self.end(res[1])
            if res[0] == "next":
                cur = res[1]
                if cur is None:
                    return self.end("blood" if res[2] else "wall")
                mode = "draw"
            elif res[0] == "claimed":
                cur = res[1]
                mode = "discard_only"
            else:                         # exposed kong: replacement draw, own turn
                cur = res[1]
                mode = "kong_draw"

    def next_active(self, p):
        st = self.st
        for i in range(1, st.n + 1):
            q = (p + i) % st.n
            if not st.seats[q].out:
                return q
        return None

    def blood_done(self):
        st = self.st
        if st.rs.blood == "xuezhan":
            return sum(1 for s in st.seats if not s.out) <= 1
        return False

    def own_turn(self, p, drawn, kong_flag):
        """Win / kongs / discard for seat p holding a drawn tile.  Returns
        ("discard", tile), ("end", reason) or ("next", seat)."""
        st = self.st
        s = st.seats[p]
        cg = st.model.calls
        while True:
            options = []
            last = not st.can_draw()
            res = st.try_win(p, drawn, self_drawn=True, kong=kong_flag, last_tile=last)
            if res is not None and res.valid:
                options.append(("win",))
            if not s.locked and st.can_draw():
                if "concealed_kong" in cg:
                    for k in np.flatnonzero(s.phys >= 4):
                        k = int(k)
                        if k not in st.jks and k != st.sub and \
                                not (s.void >= 0 and k < 27 and k // 9 == s.void):
                            options.append(("concealed_kong", k))
                if "added_kong" in cg:
                    for m in s.melds:
                        if m["kind"] == "pung" and s.phys[m["tile"]] and m["tile"] not in st.jks \
                                and m["tile"] != st.sub:
                            options.append(("added_kong", m["tile"]))
            choice = self.ask_declare(p, options) if options else None
            if choice is None:
                break
            if choice[0] == "win":
                st.record_win(p, drawn, res, self_drawn=True, kong=kong_flag)
                return self.after_win([p], last_tile_taken=drawn, self_draw=True)
            k = choice[1]
            if choice[0] == "concealed_kong":
                s.phys[k] -= 4
                st.add_meld(p, "kong", k, True, [k] * 4)
                s.n_kongs_concealed += 1
                st._log(e="kong", seat=p, kind="concealed", tile=k)
                st.kong_ledger.kong(p, "concealed", [x.out for x in st.seats], st.turns)
            else:
                s.phys[k] -= 1
                for m in s.melds:
                    if m["kind"] == "pung" and m["tile"] == k:
                        m["kind"] = "kong"
                        m["tiles"].append(k)
                        m["how"] = "added"
                        break
                st.visible[k] += 1
                s.meld_counts[k] += 1
                st._melds_changed(p)
                s.n_kongs_exposed += 1
                st.interrupted = True
                st._log(e="kong", seat=p, kind="added", tile=k)
                # robbing the kong
                robbed = self.claim_round(p, k, robbing=True)
                if robbed is not None:
                    return robbed
                st.kong_ledger.kong(p, "added", [x.out for x in st.seats], st.turns,
                                    late=k != drawn)
            t = st.draw(p, from_tail=True)
            if t is None:
                return ("end", "wall")
            drawn, kong_flag = t, True
        return ("discard", self.do_discard(p))

    def do_discard(self, p):
        st = self.st
        s = st.seats[p]
        t = self.ask_discard(p)
        s.phys[t] -= 1
        s.n_discarded += 1
        s.passed.clear()
        s.pass_all = False
        s.discards.append(t)
        st.visible[st.play_kind(t)] += 1
        st.last_discard = (p, t)
        s.drawn = None
        st._changed(p)
        st.turns += 1
        if t not in st.first_discards:
            st.first_discards[t] = [p, None, st.turns]
        return t

    def discard_only(self, p):
        return ("discard", self.do_discard(p))

    def claim_round(self, p, tile, robbing=False):
        """Ask the other seats about ``tile`` (a discard or a robbable added kong).

        Robbing: returns None when nobody robs, else the outcome of the win(s).
        """
        st = self.st
        n = st.n
        last = not st.can_draw()
        kind = st.play_kind(tile)
        is_joker = tile in st.jks
        asks = []
        wins = {}
        for i in range(1, n):
            q = (p + i) % n
            sq = st.seats[q]
            if sq.out:
                continue
            options = []
            locked = st.pass_lock is not None and (
                sq.pass_all or (st.pass_lock == "kind" and not _may_win(kind, sq.passed)))
            res = None if locked else st.try_win(q, tile, self_drawn=False, robbing=robbing,
                                                 last_tile=last and not robbing)
            if res is not None and res.valid:
                options.append(("win",))
                wins[q] = res
            if not robbing and not last and not sq.locked and not is_joker and \
                    not (sq.void >= 0 and kind < 27 and kind // 9 == sq.void):
                cg = st.model.calls
                held = int(sq.phys[tile])
                if "exposed_kong" in cg and held >= 3 and st.can_draw():
                    options.append(("kong",))
                if "pung" in cg and held >= 2:
                    options.append(("pung",))
                if "chow_left" in cg and i == 1 and kind < 27 and tile == kind:
                    r = kind % 9
                    for a in (kind - 2, kind - 1, kind):
                        if a < 0 or a // 9 != kind // 9 or a % 9 > 6:
                            continue
                        need = [x for x in (a, a + 1, a + 2) if x != kind]
                        if all(x not in st.jks and sq.phys[x] > 0 for x in need):
                            options.append(("chow", a))
                    del r
            if options:
                asks.append((q, options))
        if not asks:
            return None if robbing else ("none",)
        choices = {}
        for q, options in asks:
            choices[q] = self.ask_claim(q, options)
        winners = [q for q, _ in asks if choices[q] == ("win",)]
        if st.pass_lock is not None:
            for q in wins:
                if choices[q] != ("win",):          # a win passed: 过水 / 漏和
                    st.seats[q].passed.add(kind)
                    st.seats[q].pass_all = st.pass_lock == "all"
                    st._log(e="pass_win", seat=q, tile=int(tile))
        if winners:
            if st.rs.winners != "multiple":
                winners = winners[:1]
            for q in winners:
                st.record_win(q, tile, wins[q], self_drawn=False, discarder=p,
                              robbing=robbing)
            if not robbing:
                st.kong_ledger.transfer(p, winners, st.turns)
            # the tile goes to the (first) winner
            if robbing:
                sp = st.seats[p]
                for m in sp.melds:
                    if m["kind"] == "kong" and m["tile"] == kind and not m["concealed"] \
                            and len(m["tiles"]) == 4:
                        m["kind"] = "pung"
                        m["tiles"].pop()
                        m.pop("how", None)
                        break
                st.visible[kind] -= 1
                sp.meld_counts[kind] -= 1
                sp.n_kongs_exposed -= 1
                st._melds_changed(p)
            else:
                sp = st.seats[p]
                sp.discards.pop()
                st.visible[kind] -= 1
            st.seats[winners[0]].won_tiles.append(tile)
            return self.after_win(winners, last_tile_taken=tile, self_draw=False, frm=p)
        if robbing:
            return None
        for q, _ in asks:
            c = choices[q]
            if c is not None and c[0] in ("kong", "pung"):
                return ("meld", q, c)
        for q, _ in asks:
            c = choices[q]
            if c is not None and c[0] == "chow":
                return ("meld", q, c)
        return ("none",)

    def after_win(self, winners, *, last_tile_taken, self_draw, frm=None):
        """Mark winners; end the hand or pass play on (blood rules)."""
        st = self.st
        st.interrupted = True
        if not st.rs.blood:
            # a self-drawn winning tile stays in the winner's hand (shown)
            return ("end", "win")
        for q in winners:
            s = st.seats[q]
            if self_draw:
                s.phys[last_tile_taken] -= 1
                s.won_tiles.append(last_tile_taken)
                st._changed(q)
            if st.rs.blood == "xuezhan":
                s.out = True
            else:
                s.locked = True
            s.drawn = None
        if self.blood_done():
            return ("end", "blood")
        # play passes to the seat after the last winner (in turn order from the discarder)
        if self_draw:
            last = winners[0]
        else:
            last = max(winners, key=lambda q: (q - frm) % st.n)
        return ("next", self.next_active(last))

    def after_discard(self, p, tile):
        """Claims on seat p's discard.  Returns ("end", r), ("next", seat, blood),
        ("claimed", seat) or ("kong", seat)."""
        st = self.st
        res = self.claim_round(p, tile)
        if res[0] == "end":
            return res
        if res[0] == "next":
            return ("next", res[1], True)
        if res[0] == "meld":
            q, c = res[1], res[2]
            sq = st.seats[q]
            sp = st.seats[p]
            sp.discards.pop()
            kind = st.play_kind(tile)
            st.visible[kind] -= 1
            if c[0] == "kong":
                sq.phys[tile] -= 3
                st.add_meld(q, "kong", kind, False, [tile] * 4, frm=p)
                sq.n_kongs_exposed += 1
                st.kong_ledger.kong(q, "exposed", [x.out for x in st.seats], st.turns,
                                    discarder=p)
            elif c[0] == "pung":
                sq.phys[tile] -= 2
                st.add_meld(q, "pung", kind, False, [tile] * 3, frm=p)
            else:
                a = c[1]
                tiles = [tile]
                for x in (a, a + 1, a + 2):
                    if x != kind:
                        sq.phys[x] -= 1
                        tiles.append(x)
                st.add_meld(q, "chow", a, False, sorted(tiles), frm=p)
            sq.n_calls += 1
            fd = st.first_discards.get(tile)
            if fd is not None and fd[2] == st.turns and fd[0] == p:
                fd[1] = q                 # the first discard of its kind was claimed
            st._changed(q)
            st._log(e="call", seat=q, kind=c[0], tile=int(tile), frm=p,
                    start=int(c[1]) if c[0] == "chow" else None)
            return ("kong", q) if c[0] == "kong" else ("claimed", q)
        # nobody claimed
        if not st.can_draw():
            return ("next", None, False)
        return ("next", self.next_active(p), False)

    def end(self, reason):
        st = self.st
        st.ended = True
        st.end_reason = reason
        end_checks(st)
        tb = getattr(st, "end_table", None)
        if tb is not None:
            st._log(e="end_table", turned=tb.turned, ready=list(tb.ready),
                    values=list(tb.values))
        for c in st.end_checks:
            st._log(e="end_check", **c)
        st._log(e="end", reason=reason, deltas=list(st.deltas), wall_left=st.wall_left)
        return st


# ====================================================================== compiled loop

class _FastBridge:
    """THE predicate and the settlement for the compiled loop (called on complete
    shapes and on wins only)."""

    def __init__(self, rs, prevalent, n):
        self.rs = rs
        self.prevalent = prevalent
        self.check_win = check_win_fn()
        self.args = {}
        self.verdicts = {}
        self.wins = []
        self.deltas = [0] * n
        self.kongs = KongLedger(rs, n)
        self.wait_cache = {}
        self.model = game_model(rs)

    def pick_wait(self, p, cands, melds, seat_wind, jokers=0, flowers=0):
        """:func:`~majiang.game.players.pick_valid_wait` for the compiled bot: ``cands``
        lists ``(k, after bytes, [(wait, live left)])``; ``melds`` ``(kind, tile,
        concealed)`` tuples; ``jokers`` wild tiles held besides; ``flowers`` the seat's
        flowers."""
        ms = tuple(Meld(k, t, bool(c)) for k, t, c in melds)
        cs = [(k, np.frombuffer(a, dtype=np.uint8), ws) for k, a, ws in cands]
        return pick_valid_wait(cs, *self._judge(ms, seat_wind, jokers, flowers))

    def _judge(self, ms, seat_wind, jokers, flowers):
        return wait_judge(self.check_win, self.rs, self.model, self.wait_cache, ms, seat_wind,
                          self.prevalent, jokers, flowers)

    def step_back(self, p, hb, ab, melds, seat_wind, jokers, lb, vb, void, jk, flowers=0):
        """:func:`~majiang.game.players.step_back` for the compiled bot: the hand, the
        allowed kinds, the live copies and what the seat sees as ``uint8 (34,)`` bytes;
        ``melds`` ``(kind, tile, concealed)`` tuples; ``jk`` the wild kind or -1."""
        ms = tuple(Meld(k, t, bool(c)) for k, t, c in melds)
        model = self.model
        live = np.frombuffer(lb, dtype=np.uint8).copy()
        so = model.shape(()).game_opts(len(ms), live=live)
        verdict = (self._judge(ms, seat_wind, jokers, flowers)[0] if _players.LOOKAHEAD
                   else None)
        return step_back(np.frombuffer(hb, dtype=np.uint8).copy(), int(jokers), so,
                         np.frombuffer(vb, dtype=np.uint8).copy(), int(void),
                         np.frombuffer(ab, dtype=np.uint8).copy(), live.astype(np.int64),
                         verdict, (int(jk),) if jk >= 0 else ())

    def kong(self, p, kind, outs, turns, discarder, late):
        self.kongs.kong(p, kind, outs, turns, discarder, late)

    def transfer(self, discarder, winners, turns):
        self.kongs.transfer(discarder, winners, turns)

    def check(self, p, cbytes, melds, tile, self_drawn, kong, last_copy, last_tile, seat_wind,
              flowers, jokers=0, win_is_joker=False, first_turn=""):
        hand = Hand(np.frombuffer(cbytes, dtype=np.uint8).copy(),
                    tuple(Meld(k, t, bool(c)) for k, t, c in melds), jokers=int(jokers))
        tile = None if win_is_joker else int(tile)
        kw = dict(ruleset=self.rs, self_drawn=bool(self_drawn), jokers=0,
                  win_is_joker=bool(win_is_joker),
                  kong=bool(kong), last_copy=bool(last_copy), last_tile=bool(last_tile),
                  seat_wind=int(seat_wind), prevalent_wind=self.prevalent,
                  flowers=int(flowers), first_turn=first_turn)
        key = (p, cbytes, tuple(melds), tile, self_drawn, kong, last_copy, last_tile, flowers,
               int(jokers), bool(win_is_joker), first_turn)
        res = _verdict(self.check_win, self.verdicts, key, p, hand, tile, kw)
        if res.valid:
            self.args[p] = (hand, tile, kw)
        return res

    def record(self, p, tile, res, self_drawn, discarder, kong, robbing, outs):
        win = _make_win(self.rs, p, tile, res, bool(self_drawn), discarder, bool(kong),
                        bool(robbing), outs, self.args.get(p))
        for q in range(len(self.deltas)):
            self.deltas[q] += win["deltas"][q]
        self.wins.append(win)


class _FastSeat:
    __slots__ = ("n_kongs_exposed", "n_kongs_concealed", "n_calls", "flowers", "discards",
                 "won_tiles", "phys", "melds")


class FastState:
    """The final state of a hand played by the compiled loop: the fields
    :func:`majiang.game.logs.summarize` and the tests read (no event log)."""

    events = None

    def __init__(self, model, seed, hand, dealer, prevalent, fh, bridge, wall):
        self.model = model
        self.rs = model.ruleset
        self.n = model.players
        self.seed = seed
        self.hand_index = int(hand)
        self.dealer = dealer
        self.prevalent = prevalent
        self.wins = bridge.wins
        self.deltas = bridge.deltas
        self.draws = fh.draws
        self.turns = fh.turns
        self.wall_left = fh.wall_left
        self.end_reason = ("win", "wall", "blood")[fh.end_reason]
        self.wall = wall
        self.head, self.tail = fh.head, fh.tail
        self._fh = fh
        self._seats = None
        self.tallies = fh.tallies()
        self.aside = fh.aside_tiles()
        self.kong_ledger = bridge.kongs
        self.jk = fh.jk
        self.jks = (fh.jk,) if fh.jk >= 0 else ()
        self.first_discards = fh.first_discards()
        self.indicator = fh.indicator if fh.indicator >= 0 else None

    @property
    def seats(self) -> list:
        """Per seat: kongs, calls, flowers, discards, won tiles, concealed tiles, melds
        (built on first access)."""
        if self._seats is not None:
            return self._seats
        self._rest = self._fh.wall_rest()
        self._seats = []
        for kexp, kcon, calls, flowers, disc, won, phys, melds in self._fh.seat_info():
            s = _FastSeat()
            s.n_kongs_exposed, s.n_kongs_concealed, s.n_calls = kexp, kcon, calls
            s.flowers, s.discards, s.won_tiles = flowers, disc, won
            s.phys = np.array(phys, dtype=np.uint8)
            s.melds = [{"kind": ("chow", "pung", "kong")[m[0]], "tile": m[1],
                        "concealed": bool(m[2]),
                        "tiles": [m[1], m[1] + 1, m[1] + 2] if m[0] == 0 else [m[1]] * m[3]}
                       for m in melds]
            for d, m in zip(s.melds, melds):
                if len(m) > 4:
                    d["frm"] = None if m[4] < 0 else int(m[4])
                    if m[5]:
                        d["how"] = "added"
            self._seats.append(s)
        self._fh = None
        return self._seats

    def census(self) -> np.ndarray:
        m = 34 + self.model.n_flowers
        c = np.zeros(m, dtype=np.int64)
        seats = self.seats
        for s in seats:
            c[:34] += s.phys
            for md in s.melds:
                for t in md["tiles"]:
                    c[t] += 1
            for t in s.flowers + s.discards + s.won_tiles:
                c[t] += 1
        for t in self.aside:
            c[t] += 1
        if self._rest:
            c += np.bincount(np.asarray(self._rest, dtype=np.int64), minlength=m)
        return c

    def expected_census(self) -> np.ndarray:
        c = np.zeros(34 + self.model.n_flowers, dtype=np.int64)
        c[:34] = self.model.copies
        c[34:] = 1
        return c


_ELIGIBLE: dict = {}


def fast_eligible(model, players, log=False) -> bool:
    """Whether the compiled loop plays this hand: built-in players only, no forms
    outside the core, jokers only of the usual kind (:attr:`JokerRule.plain`: one wild
    kind, never claimed, never used to claim, discardable, no substitute tile; the
    turned tile set aside; values that do not read the wild tiles' faces), no log."""
    if log:
        return False
    key = (id(model), tuple(players) if all(isinstance(p, str) for p in players) else None)
    got = _ELIGIBLE.get(key)
    if key[1] is not None and got is not None and got[0] is model:
        return got[1]
    ok = _fast_eligible(model, players)
    if key[1] is not None:
        _ELIGIBLE[key] = (model, ok)
    return ok


def _fast_eligible(model, players) -> bool:
    if _shape_extra(model) or model.players > 4:
        return False
    jr = model.jokers
    if jr is not None and (not jr.plain or _indicator_back_possible(jr, model)
                           or _faces_matter(model.ruleset)):
        return False       # (faces_matter: the compiled loop's bridge scores with '*')
    if int(model.copies.sum()) + model.n_flowers > 256 or model.n_flowers > 40:
        return False
    return all(isinstance(p, str) and p.strip().lower() in ("random", "efficiency")
               for p in players)


_FLAGS: dict = {}


def _fast_flags(model) -> dict:
    got = _FLAGS.get(id(model))
    if got is not None and got[0] is model:
        return got[1]
    rs = model.ruleset
    mask = model.shape(()).mask
    lock = _pass_lock(rs)
    we = rs.wall_end
    flags = {
        "pay_kongs": int(getattr(rs, "kong_payments", None) is not None),
        "min_aware": int(min_aware(model)),
        "chow": int("chow_left" in model.calls), "pung": int("pung" in model.calls),
        "exposed_kong": int("exposed_kong" in model.calls),
        "added_kong": int("added_kong" in model.calls),
        "concealed_kong": int("concealed_kong" in model.calls),
        "multiple": int(rs.winners == "multiple"),
        "blood": {"": 0, "xuezhan": 1, "xueliu": 2}[rs.blood],
        "void": int(model.void_suit), "pass_lock": {None: 0, "kind": 1, "all": 2}[lock],
        "mask": mask, "quads": int(model.seven_pairs_quads),
        "pair_mask": int(model.shape(()).pair_mask) & _ALL_PAIRS,
        "kept": int(we.kept), "per_exposed_kong": int(we.per_exposed_kong),
        "per_concealed_kong": int(we.per_concealed_kong),
        "by_kongs": [tuple(int(x) for x in kv) for kv in we.by_kongs],
        "copies": np.ascontiguousarray(model.copies, dtype=np.uint8),
        "jk_mode": 0, "jk_fixed": -1, "jk_map": None, "fifth": 0,
        "three_jokers": int(model.three_jokers_win),
        "all258": int("all_258" in model.forms),     # 将将胡 of any shape: ask the predicate
    }
    jr = model.jokers
    if jr is not None:
        flags["fifth"] = int(bool(jr.fifth_copy))
        if jr.source == "fixed":
            flags["jk_mode"], flags["jk_fixed"] = 1, int(jr.fixed)
        else:
            flags["jk_mode"] = 2
            flags["jk_map"] = [int(jr.kind(k)) if model.copies[k] else -1 for k in range(34)]
    _FLAGS[id(model)] = (model, flags)
    return flags


def _bot_switches() -> dict:
    """The efficiency bot's switches (:data:`~majiang.game.players.STEP_BACK`,
    :data:`~majiang.game.players.AWARE_JOKERS`) as compiled-loop flags, read for each
    hand as the Python loop reads them (not kept with the model's flags)."""
    return {"step_back": sum(1 << (-c - 1) for c in _players.STEP_BACK),
            "aware_jokers": int(_players.AWARE_JOKERS)}


def play_fast(model, players, *, seed=0, hand=0, wall=None, dealer=0, prevalent_wind=0,
              exchange3=False):
    """One hand in the compiled loop (see :func:`play_hand`); returns a FastState."""
    rs = model.ruleset
    n = model.players
    bg = hand_bit_generator(seed, hand)
    if wall is None:
        w = build_wall(model, np.random.Generator(bg))
    else:
        w = np.ascontiguousarray(np.asarray(wall, dtype=np.int16).ravel())
        expect = np.sort(build_wall(model, np.random.default_rng(0)))
        if w.shape != expect.shape or not np.array_equal(np.sort(w), expect):
            raise RuleError(f"an explicit wall must hold each physical tile of {rs.name} "
                            "exactly once")
    gens = [bg] * n            # one stream per hand, shared in decision order
    flags = _fast_flags(model)
    ptypes = [0 if p.strip().lower() == "random" else 1 for p in players]
    bridge = _FastBridge(rs, int(prevalent_wind) % 4, n)
    fh = _cg.FastHand(w, n, model.hand_size, int(dealer), int(prevalent_wind) % 4,
                      flags["copies"], {**flags, **_bot_switches()}, ptypes, gens, bridge)
    if exchange3 or rs.exchange == 3:
        def pick(m):
            return (int(bg.random_raw()) * m) >> 64
        gives = [None] * n
        for i in range(n):
            p = (int(dealer) + i) % n
            h = fh.hand(p)
            gives[p] = (random_exchange(h, pick) if ptypes[p] == 0
                        else efficiency_exchange(h))
        d = pick(3 if n == 4 else 2)
        fh.exchange(gives, d)
    fh.declare_voids()
    fh.run()
    st = FastState(model, seed, hand, int(dealer), int(prevalent_wind) % 4, fh, bridge, w)
    end_checks(st)
    return st


def _three_suits(seat) -> bool:
    """花猪: the seat holds tiles of all three suits (concealed or in melds)."""
    b = np.asarray(seat.phys, dtype=np.uint8).tobytes()
    held = [any(b[0:9]), any(b[9:18]), any(b[18:27])]
    for m in seat.melds:
        for t in m["tiles"]:
            if t < 27:
                held[t // 9] = True
    return all(held)


def end_checks(st) -> list:
    """Payments outside the hand value: the kong payments of the hand
    (:class:`KongLedger`, :attr:`Ruleset.kong_payments`) and the ruleset's
    :attr:`Ruleset.end_checks` when the hand ends with the wall (docs/rules/sichuan.md
    §8: 查花猪 → 查大叫 → 退税).  Adds them to ``st.deltas`` and returns them (also in
    ``st.end_checks``: dicts with ``check``, ``payer``, ``payee``, ``amount``).

    Kong payments are kept, or void when the ruleset pays them only with a win
    (荒庄荒杠) and nobody won.  At a drawn end players who have won take no part.  A
    花猪 (still holding tiles of three suits) pays 16 x base to each other player who
    is not a 花猪; a player who is not ready (and not a 花猪) pays each ready player
    that player's largest hand value; 退税: not-ready players and 花猪 hand back their
    kong income (what 呼叫转移 moved away stays moved).  Who is ready and what a
    ready hand is worth are read once, by :class:`_Readiness` (the same reading as
    the kong payments collected only by ready players and the end settlement's
    :class:`~majiang.rules.base.EndTable`).
    """
    st.end_checks = []
    rs = st.rs
    ledger = getattr(st, "kong_ledger", None)
    kongs = [] if ledger is None else ledger.items
    readiness = None
    if kongs and not (ledger.kp.when == "with_win" and not st.wins):
        st.end_checks = [dict(it.entry) for it in kongs]
        if getattr(ledger.kp, "collect", "always") == "ready":
            readiness = _Readiness(st)
            st.end_checks = [e for e in st.end_checks
                             if e["check"] != "杠分" or readiness.ready(e["payee"])]
    settle_name = getattr(rs, "end_settlement", "")
    if settle_name:
        from ..rules.base import END_SETTLEMENTS
        readiness = readiness or _Readiness(st)
        table = end_table(st, readiness)
        st.end_table = table
        st.end_checks = st.end_checks + [dict(e) for e in END_SETTLEMENTS[settle_name](rs, table)]
    checks = tuple(getattr(rs, "end_checks", ()))
    if not checks or st.end_reason != "wall":
        _apply(st, st.end_checks)
        return st.end_checks
    won = {w["seat"] for w in st.wins}
    part = [q for q in range(st.n) if q not in won]
    base = rs.scoring.base
    seats = st.seats
    # a 花猪 exists only where 查花猪 is played (云南 plays 查大叫 alone: three suits are fine)
    pigs = [q for q in part if _three_suits(seats[q])] if "查花猪" in checks else []
    readiness = readiness or _Readiness(st)
    ready = [q for q in part if q not in pigs and readiness.ready(q)]
    out = []
    if "查花猪" in checks:
        for q in pigs:
            for r in part:
                if r != q and r not in pigs:
                    out.append({"check": "查花猪", "payer": q, "payee": r, "amount": 16 * base})
    if "查大叫" in checks:
        payers = [q for q in part if q not in pigs and q not in ready]
        values = {r: readiness.value(r) for r in ready} if payers else {}
        for q in payers:
            for r in ready:
                out.append({"check": "查大叫", "payer": q, "payee": r, "amount": values[r]})
    if "退税" in checks:
        for it in kongs:
            e = it.entry
            q = e["payee"]
            if e["check"] == "杠分" and not it.moved and q in part and q not in ready:
                out.append({"check": "退税", "payer": q, "payee": e["payer"],
                            "amount": e["amount"]})
    st.end_checks = st.end_checks + out
    _apply(st, st.end_checks)
    return st.end_checks


def _shape_waits(model, c, j, melds, so) -> np.ndarray:
    """``uint8 (34,)``: the kinds one more copy of which completes the 3n+1 hand ``c``
    (+ ``j`` jokers, ``melds``) by shape — the compiled check's waits (options ``so``)
    and those of :func:`~majiang.scoring.waiting.beyond_core` (十三烂, 将将胡 of any
    shape).  The candidates the end-of-hand readiness asks THE predicate about."""
    w = np.zeros(34, dtype=np.uint8)
    c = np.ascontiguousarray(c, dtype=np.uint8)
    _cg.waits(c, so, j, w)
    if _beyond_forms(model):
        w[_beyond_waits(model, c, melds, j)] = 1
    return w


class _Readiness:
    """Who is ready (下叫 / 听牌) at the end of a hand, and what a ready hand is worth: the
    one reading behind 查大叫 and 退税 (:func:`end_checks`), the kong payments only ready
    players collect (:attr:`KongPayments.collect`) and the end settlement's
    :class:`~majiang.rules.base.EndTable` (贵州 查叫, 鸡).

    Reading (docs/rules/sichuan.md §8: "a player still in but not ready (未下叫) pays each
    ready player that player's largest possible hand value"; docs/rules/guizhou.md §4 and
    docs/rules/sichuan.md §8:
    查叫 / 查大叫; the sources BK ``findMaxFanTingPai``, CQ ``getMaxHuType``, ST):

    * **ready**: a winner, or a seat whose concealed hand (jokers as the engine plays
      them) is completed by some tile kind into a valid win under THE predicate judged
      as a **self-draw** (with the seat's flowers).  A ready hand may always win by
      self-draw, where a win on a discard can be barred (贵州 通行证, self-draw-only
      rulesets), so a discard verdict would call such a hand not ready.  A wait whose
      every copy the seat holds itself (concealed or in its own melds: the 5th copy of a
      kong) is **no wait**: no tile can complete it.  Copies seen elsewhere (discards,
      other melds) do not exhaust a wait: readiness is a fact of the hand, not of the
      wall.
    * **value**: a winner's best win's points; a ready hand's largest value over its
      waits, each wait valued as a **win on a discard** where THE predicate allows one
      (ST leaves 自摸 out of the "largest value": with 自摸加番 a self-draw would double
      it) and as the self-draw otherwise.

    Before this helper the two disagreed: 查大叫 judged readiness by a discard win and
    kept exhausted waits, the end table judged a self-draw and skipped them.
    """

    def __init__(self, st):
        self.st = st
        self.rs = st.rs
        self.model = game_model(st.rs)
        self.check_win = check_win_fn()
        self.won = {}
        for w in st.wins:
            self.won[w["seat"]] = max(self.won.get(w["seat"], 0), int(w["points"]))
        self._got = {}
        self._val = {}

    def _counts(self, q):
        """(concealed counts as played, jokers) of seat q: the Python loop's
        ``play_counts``, or the compiled loop's physical tiles less its wild kind."""
        st = self.st
        if hasattr(st, "play_counts"):
            c, j = st.play_counts(q)
        else:
            c, j = np.array(st.seats[q].phys, dtype=np.uint8), 0
            for k in getattr(st, "jks", ()) or ():
                j += int(c[k])
                c[k] = 0
        return np.ascontiguousarray(c, dtype=np.uint8), j

    def _context(self, q):
        st = self.st
        return dict(ruleset=self.rs, seat_wind=(q - st.dealer) % st.n,
                    prevalent_wind=st.prevalent,
                    flowers=len(getattr(st.seats[q], "flowers", ()) or ()))

    def _valid(self, q):
        """``[(hand, wait kind, faces kwargs, self-draw verdict)]`` of seat q's valid
        waits (computed once)."""
        got = self._got.get(q)
        if got is not None:
            return got
        st, model = self.st, self.model
        seat = st.seats[q]
        c, j = self._counts(q)
        melds = tuple(Meld(m["kind"], m["tile"], m["concealed"]) for m in seat.melds)
        got = []
        if (int(c.sum()) + j + 3 * len(melds)) % 3 == 1:
            so = model.shape(()).game_opts(len(melds), pairs=False, fifth=False)
            w = _shape_waits(model, c, j, melds, so)
            hand = Hand(c, melds, jokers=j)
            faces = {}
            if getattr(st, "by_faces", False):     # THE predicate reads the faces
                ph = np.array(seat.phys, dtype=np.uint8)
                hand = Hand(ph, melds)
                faces = {"indicator": st.indicator if st.indicator is not None else st.jk}
                if j:                    # a wild tile as its own face (南昌 德国)
                    w |= _shape_waits(model, ph, 0, melds, so)
            if j >= 3 and model.three_jokers_win:
                w[:] = 1                 # 三金倒: three jokers win on any self-draw
            held = c.astype(np.int64)
            for m in seat.melds:
                for t in m["tiles"]:
                    if t < 34:
                        held[t] += 1
            for k in np.flatnonzero(w):
                k = int(k)
                if held[k] >= int(model.copies[k]):
                    continue          # no copy left to complete it
                if faces and k in st.jks:
                    continue          # a natural copy of a wild kind's face: none
                r = self.check_win(hand, k, self_drawn=True, **self._context(q), **faces)
                if r.valid:
                    got.append((hand, k, faces, r))
        self._got[q] = got
        return got

    def _points(self, r) -> int:
        return (int(r.result.points) if hasattr(r.result, "points")
                else int(self.rs.points(r.result.total)))

    def ready(self, q) -> bool:
        return q in self.won or bool(self._valid(q))

    def value(self, q):
        """The seat's value (see the class), None when it is not ready."""
        if q in self.won:
            return self.won[q]
        got = self._val.get(q, False)
        if got is not False:
            return got
        best = None
        for hand, k, faces, r in self._valid(q):
            d = self.check_win(hand, k, self_drawn=False, **self._context(q), **faces)
            v = self._points(d if d.valid else r)
            best = v if best is None else max(best, v)
        self._val[q] = best
        return best


def end_table(st, readiness=None):
    """The final table of a finished hand (:class:`majiang.rules.base.EndTable`) that an
    end-of-hand settlement (:attr:`Ruleset.end_settlement`) reads."""
    from ..rules.base import EndTable
    readiness = readiness or _Readiness(st)
    n = st.n
    tiles, discards, kongs = [], [], []
    for q, seat in enumerate(st.seats):
        cnt = {}
        for k in np.flatnonzero(seat.phys):
            cnt[int(k)] = int(seat.phys[k])
        for t in list(seat.won_tiles) + [t for m in seat.melds for t in m["tiles"]]:
            cnt[int(t)] = cnt.get(int(t), 0) + 1
        ks = []
        for m in seat.melds:
            if m["kind"] != "kong":
                continue
            if m["concealed"]:
                ks.append((int(m["tile"]), "concealed", None))
            elif m.get("how") == "added":
                ks.append((int(m["tile"]), "added", None))
            else:
                ks.append((int(m["tile"]), "exposed", m.get("frm")))
        tiles.append(cnt)
        discards.append(tuple(int(t) for t in seat.discards))
        kongs.append(tuple(ks))
    # a discard win: the winning tile is in each winner's hand (with several winners
    # only the first takes the tile itself)
    for w in st.wins:
        q, t = w["seat"], int(w["tile"])
        if w["how"] in ("discard", "robbing_kong") and t not in st.seats[q].won_tiles:
            tiles[q][t] = tiles[q].get(t, 0) + 1
    turned = None
    if st.wall_left > 0:
        for t in st.wall[st.head:st.tail + 1]:
            if int(t) < 34:
                turned = int(t)
                break
    ready = tuple(readiness.ready(q) for q in range(n))
    values = tuple(readiness.value(q) if ready[q] else None for q in range(n))
    first = {int(k): (int(v[0]), None if v[1] is None else int(v[1]))
             for k, v in getattr(st, "first_discards", {}).items()}
    return EndTable(players=n, end=st.end_reason, winners=tuple(w["seat"] for w in st.wins),
                    ready=ready, values=values, tiles=tuple(tiles), discards=tuple(discards),
                    kongs=tuple(kongs), turned=turned, first_discards=first,
                    wild=tuple(int(k) for k in getattr(st, "jks", ()) or ()),
                    dealer=int(st.dealer), melds=tuple(len(s.melds) for s in st.seats),
                    wins=tuple((int(w["seat"]), w.get("how", ""), w.get("discarder"),
                                int(w.get("points", 0)), tuple(w.get("fans", ())))
                               for w in st.wins))


def _apply(st, payments):
    for c in payments:
        st.deltas[c["payer"]] -= c["amount"]
        st.deltas[c["payee"]] += c["amount"]


def play_hand(ruleset: Any, players: Any = None, *, seed: Any = 0, hand: int = 0,
              wall: Any = None, dealer: int | None = None, prevalent_wind: int | None = None,
              log: bool = False, deal_only: bool = False, engine: str = "auto",
              exchange3: bool = False) -> HandState:
    """Play one hand (一局) and return its final :class:`HandState`.

    Parameters
    ----------
    ruleset : str, Ruleset or GameModel
    players : sequence of str or policy objects, optional
        One per seat (``"efficiency"`` by default; ``"random"``; or an object with
        ``discard(view)``, ``claim(view, options)``, ``declare(view, options)``).
    seed : int, SeedSequence, numpy Generator or None
        The run's seed.  A non-negative int, a ``numpy.random.SeedSequence`` or
        ``numpy.random.Generator`` (default ``0``: the same answer every call;
        ``None``: fresh entropy, a different answer every call).  This hand's wall and
        random bots use one numpy PCG64 stream from ``SeedSequence(seed)`` spawned by
        ``hand`` (:func:`hand_bit_generator`); a Generator gives one draw, the int
        seed of that SeedSequence.
    hand : int
        The hand's index in the run (seeds; dealer ``hand % players`` and
        prevalent wind ``(hand // players) % 4`` unless given).
    wall : sequence of int, optional
        An explicit physical wall (tests): each tile of the set exactly once,
        drawn from index 0; replacements from the end.
    log : bool
        Keep the event log (``state.events``).
    engine : {"auto", "compiled", "python"}
        ``"auto"``: the compiled loop (:class:`majiang._core.game.FastHand`, same
        hands move for move) when every player is a built-in bot, the ruleset has no
        form outside the core and at most one joker kind of the usual sort
        (:func:`fast_eligible`), and no log is asked for; else the Python loop.
        ``"python"`` forces the Python loop.
    exchange3 : bool
        Play 换三张 before 定缺 (四川 tables; docs/rules/sichuan.md §2): each seat passes
        three tiles of one suit in one random direction.  Also played when the
        ruleset says so (``Ruleset.exchange == 3``).
    deal_only : bool
        Stop after the deal (flowers replaced, jokers turned, 定缺 named):
        ``state.start_hands`` holds each seat's starting tiles (studies of the deal).

    Raises
    ------
    RuleError
        Unknown ruleset or player name, wrong number of players, bad wall, bad seed.
    IllegalMoveError
        A policy returned a move the rules do not allow (the message names the seat,
        the move and the legal options).
    """
    seed = plain_seed(seed)          # once: a Generator advances, None is fresh
    model = game_model(ruleset)
    n = model.players
    if players is None:
        players = ("efficiency",) * n
    if isinstance(players, str):
        players = (players,) * n
    if engine not in ("auto", "compiled", "python"):
        raise RuleError(f"engine must be auto, compiled or python, got {engine!r}")
    if engine != "python" and not deal_only \
            and len(players) == n and fast_eligible(model, players, log):
        if dealer is None:
            dealer = int(hand) % n
        if prevalent_wind is None:
            prevalent_wind = (int(hand) // n) % 4
        if not 0 <= int(dealer) < n:
            raise RuleError(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")
        return play_fast(model, players, seed=seed, hand=hand, wall=wall, dealer=dealer,
                         prevalent_wind=prevalent_wind, exchange3=exchange3)
    if engine == "compiled":
        raise RuleError("engine='compiled' needs built-in players, a ruleset without extra "
                        "forms or unusual jokers (substitute tiles, claimable jokers), and "
                        "no log")
    bg = hand_bit_generator(seed, hand)
    if wall is None:
        wall = _Shuffled(build_wall(model, np.random.Generator(bg)))
    pols = make_players(players, n, np.random.Generator(bg))
    if dealer is None:
        dealer = int(hand) % n
    if prevalent_wind is None:
        prevalent_wind = (int(hand) // n) % 4
    st = HandState(model, pols, seed=seed, hand=hand, wall=wall, dealer=dealer,
                   prevalent_wind=prevalent_wind, log=log, exchange3=exchange3)
    st.bitgen = bg
    if st.events is not None:
        st.events.append({"e": "header", "ruleset": st.rs.name, "hand": int(hand),
                          "seed": seed if isinstance(seed, (int, type(None))) else str(seed),
                          "dealer": st.dealer, "prevalent_wind": st.prevalent,
                          "exchange3": st.exchange3,
                          "players": [getattr(p, "name", type(p).__name__) for p in pols],
                          "wall": [int(x) for x in st.wall]})
    views = [SeatView(st, p) for p in range(n)]
    for p, pol in enumerate(pols):
        if hasattr(pol, "start"):
            pol.start(views[p])
    g = _Game(st, pols, views)
    if deal_only:
        g.deal()
    else:
        g.run()
    return st

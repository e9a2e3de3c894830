"""The compiled loop (:class:`majiang._core.game.FastHand`) from Python: which hands it
plays (:func:`fast_eligible`), its flags, the bridge that asks THE predicate and pays
the wins, and the final state it leaves (:class:`FastState`)."""
from __future__ import annotations

from functools import cached_property

import numpy as np

from ...hand import Meld, _trusted_hand
from ...rules.model import game_model
from ...rules.derived import with_indicator
from ...scoring.faces import faces_matter as _faces_matter
from ..._core import game as _cg
from .. import players as _players
from ..players import efficiency_exchange, pick_valid_wait, random_exchange, step_back, wait_judge
from . import facts as _facts
from .facts import (_ALL_PAIRS, _indicator_back_possible, _pass_lock,
                    _shape_extra)
from .deal import exchange_direction, plays_exchange
from .kongs import KongLedger, kongs_read
from .settlement import end_checks
from .wall import build_wall, checked_wall, expected_census, hand_bit_generator, tile_census
from .wins import _make_win, _verdict, check_win_fn, win_context


_MELDS: dict = {}


def _meld(m) -> Meld:
    """The Meld of a compiled meld tuple ``(kind, tile, concealed)`` (made once)."""
    got = _MELDS.get(m)
    if got is None:
        got = _MELDS[m] = Meld(m[0], int(m[1]), bool(m[2]))
    return got


class _FastBridge:
    """THE predicate and the settlement for the compiled loop (called on complete
    shapes and on wins only)."""

    def __init__(self, model, prevalent, n):
        self.rs = model.ruleset
        self.prevalent = prevalent
        self.args = {}
        self.verdicts = {}
        self.wins = []
        self.deltas = [0] * n
        self.kongs = KongLedger(self.rs, n)
        self.wait_cache = {}
        self.model = model
        self.flower_faces = _facts.flower_faces(model)   # wins read the flowers held
        self.fh = None                     # the compiled hand (set once built)
        self.flower_ids = {}               # (seat, flowers held) -> flower indices

    @cached_property
    def check_win(self):
        """THE predicate (:func:`~.wins.check_win_fn`), looked up on the first win check
        of the hand (most random-bot hands have none)."""
        return check_win_fn()

    def _flowers(self, p, n):
        """The flowers (indices 0..7) seat ``p`` holds, ``n`` of them: read from the
        compiled hand when the count changed (a seat's flowers only accumulate)."""
        got = self.flower_ids.get((p, n))
        if got is None:
            got = tuple(sorted(int(f) - 34 for f in self.fh.seat_info()[p][3]))
            self.flower_ids[(p, n)] = got
        return got

    def _seat_fan(self, p):
        """The 番 seat ``p`` carries on the table (:meth:`RuleSpec.seat_fan
        <majiang.rules.model.RuleSpec.seat_fan>`), from its pool in the compiled hand."""
        return self.model.seat_fan(self.fh.seat_info()[p][4])

    def pick_wait(self, p, cands, melds, seat_wind, jokers=0, flowers=0):
        """:func:`~majiang.game.players.pick_valid_wait` for the compiled bot: ``cands``
        lists ``(k, after bytes, [(wait, live left)])``; ``melds`` ``(kind, tile,
        concealed)`` tuples; ``jokers`` wild tiles held besides; ``flowers`` the seat's
        flowers."""
        ms = tuple(Meld(k, t, bool(c)) for k, t, c in melds)
        cs = [(k, np.frombuffer(a, dtype=np.uint8), ws) for k, a, ws in cands]
        return pick_valid_wait(cs, *self._judge(ms, seat_wind, jokers, flowers, p))

    def _judge(self, ms, seat_wind, jokers, flowers, p):
        return wait_judge(self.check_win, self.rs, self.model, self.wait_cache, ms, seat_wind,
                          self.prevalent, jokers, flowers,
                          seat_fan=self._seat_fan(p) if self.rs.seat_fan else 0)

    def step_back(self, p, hb, ab, melds, seat_wind, jokers, lb, vb, void, jk, flowers=0):
        """:func:`~majiang.game.players.step_back` for the compiled bot: the hand, the
        allowed kinds, the live copies and what the seat sees as ``uint8 (34,)`` bytes;
        ``melds`` ``(kind, tile, concealed)`` tuples; ``jk`` the wild kind or -1."""
        ms = tuple(Meld(k, t, bool(c)) for k, t, c in melds)
        model = self.model
        live = np.frombuffer(lb, dtype=np.uint8).copy()
        at_win = model.void_at_win      # 缺门 at the win: the
        so = model.shape(ms if at_win else ()).game_opts(         # suits the melds leave
            len(ms), live=live, void=at_win)                      # free (HandState._strict)
        verdict = (self._judge(ms, seat_wind, jokers, flowers, p)[0] if _players.LOOKAHEAD
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
              flowers, jokers=0, win_is_joker=False, first_turn="", kong_discard=False,
              flower_replacement=False, kong_claimed=False):
        # the compiled hand is valid by construction (at most 4 copies of a kind with the
        # melds, 3n+1 concealed tiles with the jokers): Hand's checks are skipped
        hand = _trusted_hand(np.frombuffer(cbytes, dtype=np.uint8),
                             tuple(_meld(m) for m in melds),
                             self._flowers(p, flowers) if self.flower_faces else (), int(jokers))
        tile = None if win_is_joker else int(tile)
        kw = win_context(self.rs, self_drawn=self_drawn, win_is_joker=win_is_joker, kong=kong,
                         last_copy=last_copy, last_tile=last_tile, seat_wind=seat_wind,
                         prevalent=self.prevalent, flowers=flowers, first_turn=first_turn,
                         kong_discard=kong_discard, flower_replacement=flower_replacement,
                         kong_claimed=kong_claimed,
                         kong_chain=self.kongs.chain(p) if self_drawn and kong else 0,
                         seat_fan=self._seat_fan(p) if self.rs.seat_fan else 0)
        key = (p, cbytes, tuple(melds), tile, self_drawn, kong, last_copy, last_tile, flowers,
               int(jokers), bool(win_is_joker), first_turn, bool(kong_discard),
               bool(flower_replacement), bool(kong_claimed), kw["kong_chain"], kw["seat_fan"])
        res = _verdict(self.check_win, self.verdicts, key, p, hand, tile, kw)
        if res.valid:
            self.args[p] = (hand, tile, kw)
        return res

    def _claimed_melds(self):
        """Per seat, its claimed melds as ``(from seat, kind)`` (read from the compiled
        hand at a win, only for a ruleset with liability cases)."""
        kinds = ("chow", "pung", "kong")
        return [[(int(m[4]), kinds[m[0]]) for m in info[7] if m[4] >= 0]
                for info in self.fh.seat_info()]

    def _live_left(self):
        """The tiles left to draw (the wall less the tiles kept at its end after the
        kongs made), read from the compiled hand at a win, only for a liability case bound
        to the wall's end."""
        t = self.fh.tallies()
        return self.fh.wall_left - self.rs.wall_end.kept_tiles(sum(x[0] for x in t),
                                                               sum(x[1] for x in t))

    def record(self, p, tile, res, self_drawn, discarder, kong, robbing, outs):
        win = _make_win(self.rs, p, tile, res, bool(self_drawn), discarder, bool(kong),
                        bool(robbing), outs, self.args.get(p), self._claimed_melds,
                        self._live_left)
        for q in range(len(self.deltas)):
            self.deltas[q] += win["deltas"][q]
        self.wins.append(win)


class _FastSeat:
    __slots__ = ("n_kongs_exposed", "n_kongs_concealed", "n_calls", "flowers", "discards",
                 "won_tiles", "phys", "melds")


_END_REASONS = ("win", "wall", "blood")


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
        self.end_reason = _END_REASONS[fh.end_reason]
        self.wall = wall
        self.head, self.tail = fh.head, fh.tail
        self._fh = fh                      # kept: the fields below are read from it
        self._seats = None
        self.kong_ledger = bridge.kongs
        self.jk = fh.jk
        self.jks = (fh.jk,) if fh.jk >= 0 else ()
        self.indicator = fh.indicator if fh.indicator >= 0 else None
        self.last_drawn = fh.last_drawn
        self.open_turns = fh.open_turns

    @cached_property
    def tallies(self) -> list:
        """Per seat: (exposed kongs, concealed kongs, calls, flowers)."""
        return self._fh.tallies()

    @cached_property
    def aside(self) -> list:
        """Tiles set aside at the deal (the turned indicator and flowers turned with it)."""
        return self._fh.aside_tiles()

    @cached_property
    def first_discards(self) -> dict:
        """``{kind: (seat, claimed by or None)}``: the first discard of each kind."""
        return self._fh.first_discards()

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
        return self._seats

    def census(self) -> np.ndarray:
        """As :meth:`HandState.census` (:func:`~.wall.tile_census`)."""
        seats = self.seats                    # reads the wall's rest (self._rest)
        return tile_census(self.model, seats, self.aside, self._rest)

    def expected_census(self) -> np.ndarray:
        return expected_census(self.model)


_ELIGIBLE: dict = {}


def fast_eligible(model, players, log=False) -> bool:
    """Whether the compiled loop plays this hand: built-in players only, no forms
    outside the core, no kong-only kinds (安庆 杠牌), one shared wall (not ``WallEnd.per_seat``), jokers only of the usual kind (:attr:`JokerRule.plain`: one wild
    kind, never claimed, never used to claim, discardable, no substitute tile; the
    turned tile set aside; values that do not read the wild tiles' faces), no winner
    ahead of a nearer one (:attr:`~majiang.rules.base.Ruleset.win_first`), no ready
    declaration that changes anything (:func:`~.facts.ready_kinds` empty: 保定, 立四, 山东,
    海南 推倒胡, 贵州, 南京 and 天津 under 扣听 play in the Python loop), no log.  Limits on calls (:attr:`RuleSpec.call_limit
    <majiang.rules.model.RuleSpec.call_limit>`, 内蒙 敖汉) are asked by the compiled loop
    too (flag ``call_limit``: the same Python function, at each call it could offer).  A
    win on one's own discards (出牌即胡,
    :func:`~.facts.discard_win`: 云南 十风) is not stopped for: :func:`~.play.play_hand`
    plays such a hand again in the Python loop.  A forced win
    (``Ruleset.must_win_last``, 云南 最后四张) needs nothing here: the built-in bots
    take every win they may."""
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
    if _shape_extra(model) or model.players > 4 or model.kong_only_kinds:
        return False       # (kong-only kinds: the compiled loop would let them be punged)
    if getattr(model.ruleset.wall_end, "per_seat", False):
        return False       # one wall per seat (Botzone): the compiled loop has one wall
    if model.ruleset.win_first:
        return False       # (灌南 七对先胡: the compiled loop gives a discard to the first)
    if model.ruleset.discard_order:
        return False       # (温州 lone honours first: the compiled loop discards freely)
    if model.ruleset.standing_tiles:
        return False       # (立四 standing tiles: the compiled loop discards freely)
    jr = model.jokers
    if jr is not None and (not jr.plain or _indicator_back_possible(jr, model)
                           or _faces_matter(model.ruleset)):
        return False       # (faces_matter: the compiled loop's bridge scores with '*')
    if int(model.copies.sum()) + model.n_flowers > 256 or model.n_flowers > 40:
        return False
    if _facts.ready_kinds(model):
        return False       # ready declarations (报听) are played by the Python loop only
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
        # the kongs go to the bridge's ledger (bridge.kong) when the ruleset reads it: its
        # payments, or the kongs made in a row a win on the replacement counts (杭州 杠开)
        "pay_kongs": int(kongs_read(rs)),
        "min_aware": int(_facts.min_aware(model)),
        "chow": int("chow_left" in model.calls), "pung": int("pung" in model.calls),
        "exposed_kong": int("exposed_kong" in model.calls),
        "added_kong": int("added_kong" in model.calls),
        "concealed_kong": int("concealed_kong" in model.calls),
        "multiple": int(rs.winners == "multiple"),
        "blood": {"": 0, "xuezhan": 1, "xueliu": 2}[rs.blood],
        # 0 no void suit, 1 定缺 (declared at the deal), 2 缺门 at the win (no declaring)
        "void": (1 if model.declares_void else 2) if model.void_suit else 0, "pass_lock": {None: 0, "kind": 1, "all": 2}[lock],
        "mask": mask, "quads": int(model.seven_pairs_quads),
        "pair_mask": int(model.shape(()).pair_mask) & _ALL_PAIRS,
        "kept": int(we.kept), "per_exposed_kong": int(we.per_exposed_kong),
        "per_concealed_kong": int(we.per_concealed_kong),
        "by_kongs": [tuple(int(x) for x in kv) for kv in we.by_kongs],
        "copies": np.ascontiguousarray(model.copies, dtype=np.uint8),
        "jk_mode": 0, "jk_fixed": -1, "jk_map": None, "fifth": 0,
        "three_jokers": int(model.jokers_to_win),      # 3 三金倒, 4 四鬼胡, 0 none
        "all258": int("all_258" in model.forms),     # 将将胡 of any shape: ask the predicate
        "no_set": sum(1 << k for k in model.setless_kinds),   # 武汉 红中: never in a set
        "n_flowers": int(model.n_flowers),
        "call_limit": model.call_limit,        # 内蒙 敖汉: asked before offering a call
        "kong_reveal": int(rs.kong_reveal),    # 长沙 开杠 (engine.open_kong)
        "open_kong_chance": float(_players.OPEN_KONG_CHANCE),
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


_VERDICTS: dict = {}


def _wait_verdict(model, prevalent: int):
    """The compiled wait verdict the loop's bots ask instead of ``bridge.pick_wait``
    (:func:`majiang.scoring.kernel.win_verdict`, seat and melds filled in by the loop):
    where the bots weigh their waits (:func:`~majiang.game.engine.facts.min_aware`), the
    verdict is THE predicate's and the value reads no flower faces; else None."""
    key = (id(model), prevalent)
    got = _VERDICTS.get(key)
    if got is not None and got[0] is model:
        return got[1]
    v = None
    if _facts.min_aware(model) and not _facts.flower_faces(model):
        from ...scoring.kernel import win_verdict
        v = win_verdict(model, (), 0, prevalent)
    _VERDICTS[key] = (model, v)
    return v


def _bot_switches() -> dict:
    """The efficiency bot's switches (:data:`~majiang.game.players.STEP_BACK`,
    :data:`~majiang.game.players.AWARE_JOKERS`, :data:`~majiang.game.players.LOOKAHEAD`:
    without it the loop steps back in C) as compiled-loop flags, read for each
    hand as the Python loop reads them (not kept with the model's flags)."""
    key = (tuple(_players.STEP_BACK), _players.AWARE_JOKERS, _players.LOOKAHEAD)
    got = _SWITCHES.get(key)
    if got is None:
        got = _SWITCHES[key] = {"step_back": sum(1 << (-c - 1) for c in key[0]),
                                "aware_jokers": int(key[1]), "lookahead": int(key[2])}
    return dict(got)


_SWITCHES: dict = {}
_HAND_FLAGS: dict = {}


def _hand_flags(model, prevalent: int) -> dict:
    """The compiled hand's flags: the model's (:func:`_fast_flags`), the bots' switches
    (:func:`_bot_switches`, read for each hand) and the wait verdict
    (:func:`_wait_verdict`); the merged dict kept while all three are the same."""
    flags = _fast_flags(model)
    sw = _bot_switches()
    v = _wait_verdict(model, prevalent)
    key = (id(flags), id(v), *sw.items())
    got = _HAND_FLAGS.get(key)
    if got is None or got[0] is not flags or got[1] is not v:
        if len(_HAND_FLAGS) > 256:
            _HAND_FLAGS.clear()
        got = _HAND_FLAGS[key] = (flags, v, {**flags, **sw, "verdict": v})
    return got[2]


def play_fast(model, players, *, seed=0, hand=0, wall=None, dealer=0, prevalent_wind=0,
              exchange3=False):
    """One hand in the compiled loop (see :func:`play_hand`); returns a FastState.

    Raises
    ------
    RuleError
        A ruleset whose ready declarations change the play (:func:`~.facts.ready_kinds`):
        the compiled loop has none, the Python loop plays them.
    """
    rs = model.ruleset
    if _facts.ready_kinds(model):
        from ...errors import RuleError
        raise RuleError(f"ruleset {rs.name}: ready declarations (报听) are played by the "
                        "Python loop only (play_hand chooses it)")
    n = model.players
    bg = hand_bit_generator(seed, hand)
    if wall is None:
        w = build_wall(model, np.random.Generator(bg))
    else:
        w = checked_wall(model, wall)
    gens = [bg] * n            # one stream per hand, shared in decision order
    flags = _fast_flags(model)
    ptypes = [0 if p.strip().lower() == "random" else 1 for p in players]
    bridge = _FastBridge(model, int(prevalent_wind) % 4, n)
    fh = _cg.FastHand(w, n, model.hand_size, int(dealer), int(prevalent_wind) % 4,
                      flags["copies"], _hand_flags(model, int(prevalent_wind) % 4),
                      ptypes, gens, bridge)
    bridge.fh = fh
    if fh.indicator >= 0:
        # a rule reading the turned kind (武汉 痞子: never held at a win): THE predicate
        # and the bots' wait verdicts judge with it
        bridge.rs = with_indicator(rs, int(fh.indicator))
        bridge.model = game_model(bridge.rs)
    if plays_exchange(rs, exchange3):
        def pick(m):
            return (int(bg.random_raw()) * m) >> 64
        gives = [None] * n
        for i in range(n):
            p = (int(dealer) + i) % n
            h = fh.hand(p)
            gives[p] = (random_exchange(h, pick) if ptypes[p] == 0
                        else efficiency_exchange(h))
        d = exchange_direction(bg, n)
        fh.exchange(gives, d)
    fh.declare_voids()
    start = [fh.hand(p) for p in range(n)] if rs.end_settlement else None
    fh.run()
    bridge.fh = None                   # no cycle fh <-> bridge left behind
    st = FastState(model, seed, hand, int(dealer), int(prevalent_wind) % 4, fh, bridge, w)
    st.start_hands = start
    end_checks(st)
    return st

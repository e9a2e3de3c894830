"""A PettingZoo AEC environment: one hand (一局) of any built-in ruleset, each seat an agent.

>>> from majiang.env import env                                    # doctest: +SKIP
>>> e = env("sichuan")
>>> e.reset(seed=7)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     if terminated or truncated:
...         e.step(None)
...         continue
...     legal = obs["action_mask"].nonzero()[0]
...     e.step(int(legal[0]))

Needs the optional extra ``pip install ".[rl]"`` (PettingZoo, Gymnasium).  The page
docs/env.md holds the layout below with examples.

The game is the package's engine (:func:`majiang.game.play_hand`, the Python loop): it
deals, asks whose decision it is and which moves are legal, applies the move, scores the
win and settles the hand under the ruleset.  Nothing here re-implements a rule: each
agent is a policy of the engine (``declare`` / ``discard`` / ``claim`` /
``choose_void`` / ``declare_ready``) whose answers come from :meth:`raw_env.step`; the engine runs in a
worker thread that waits for each answer (only one of the two runs at a time, so a hand
is reproducible from its seed).

Agents: ``player_0`` .. ``player_{n-1}``, the engine's seats (``n`` = 4, or 3 under
three-player rulesets such as ``kawuxing``); the dealer of hand ``h`` is seat ``h % n``.

Actions (``Discrete(115)``, the same ids for every ruleset):

=========  ==========================================================================
id         move
=========  ==========================================================================
0-33       discard the tile of that kind (0-8 1m-9m, 9-17 1p-9p, 18-26 1s-9s, 27-30 East
           South West North, 31-33 white green red dragon: :mod:`majiang.tiles`); on
           the own turn it also means "no win, no kong" (the engine asks a player with
           a win or a kong open first, this id answers both questions at once)
34-36      chow the discard: 34 the discard is the lowest tile of the chow, 35 the
           middle, 36 the highest (an honour chow, 南昌: its tiles in cycle order,
           :func:`majiang.hand.chow_tiles` — each of the three wind chows holding a
           wind has it at a different place)
37         pung the discard
38         kong on the discard (exposed kong)
39-72      concealed kong of kind ``id - 39``
73-106     added kong (a pung made a kong) of kind ``id - 73``
107        win (self-draw, on a discard, or robbing an added kong)
108        pass (decline every claim on a discard or an added kong; on a ready
           decision: declare nothing)
109-111    定缺: name the void suit 万 / 筒 / 条 (rulesets that play it)
112-113    报听: declare ready with the discard just made, 112 concealed (暗楼 / 报听),
           113 open (the hand shown: 明楼 / 明摸); 108 (pass) declares nothing
114        开杠: after a kong, turn the tiles (长沙 杠); 108 (pass) takes the one
           replacement tile (补张)
=========  ==========================================================================

Ready declarations (报听) are asked where the ruleset plays them
(:func:`majiang.game.engine.facts.ready_kinds`: 保定, 立四 and 山东 concealed, 山东 and 海南
推倒胡 open) as the engine asks them (:mod:`majiang.game.engine.declare`): right after the
agent's own discard, when the hand left is ready (a wait that wins as a self-draw), the
same agent gets a **ready decision** (row 13 [0] = 6): pass (108) or one of 112 / 113
for each kind offered then — the mask offers nothing else, and no ready decision
comes where the engine would not ask.  天听 (贵州, 南京: on the dealt hand; a non-dealer is
asked right after the deal, with no discard) and 地听 (贵州: with the discard of the first
draw) are concealed declarations, action 112, asked only at their moment.  A declared hand is then locked (its own-turn
mask offers only the drawn tile, a win, or a kong that keeps the waits; no calls), an
open declaration wins only by self-draw, and where a declaration is required (保定, 立四)
an undeclared hand is offered no win.  Under standing tiles (立四, docs/rules/lisi.md §4) the
discard mask offers a standing tile only when its discard declares: a kind held only standing
declares with no ready decision, a kind held both ways gets one (pass throws the free copy).

换三张 (the exchange of three tiles, ``exchange3=True`` or a ruleset that plays it) is
made for every seat by the built-in rule (:func:`majiang.game.players.efficiency_exchange`).

开杠 (rulesets with ``Ruleset.kong_reveal``, 长沙: :mod:`majiang.game.engine.open_kong`): right
after the agent's kong, when its hand is ready, an **open-kong decision** (row 13 [0] = 7,
row 10 the waits): 114 turns the tiles, 108 takes the 补张.  A win on the turned tiles (the
konger's 杠上开花, or another seat's 杠上炮) is then asked as a claim (row 13 [0] = 4, row 10
the turned tiles, 107 win or 108 pass); a konger nobody won on is locked (row 13 [29-32]):
its own-turn mask offers only the drawn tile or a win.

Observation: a dict ``{"observation": int8 (14, 34), "action_mask": int8 (115,)}``; the
mask is 1 for the legal actions of the agent whose decision it is and all 0 for the
others (and after the hand).  Rows of ``observation`` (kinds in the order above;
"relative seat" ``r``: 0 the agent, 1 the next player (下家), 2 the one after, 3 the
previous player (上家); 3-player rulesets leave the fourth row zero):

====  =============================================================================
row   content
====  =============================================================================
0     own concealed tiles by kind (0-4; jokers at their kind; the drawn tile included)
1     the own drawn tile (one-hot), on an own-turn decision (row 13 [0] = 2)
2-5   melds of relative seat 0-3: the tiles of each meld by kind (a chow counts its
      three kinds); another seat's concealed kong is hidden (its count is in row 13)
6-9   discards of relative seat 0-3 still in the pool, by kind (claimed ones leave)
10    the tile offered to claim (a discard, or the tile of an added kong that may be
      robbed), one-hot, on a claim decision (the tiles a 开杠 turned, on a claim of
      them); on a ready or open-kong decision the hand's waits (1 for each kind a
      declaration, or the hand after the kong, would win on)
11    wild kinds (1 for each joker kind of the hand)
12    the turned indicator tile (one-hot), if the ruleset turns one
13    scalars: [0] the decision asked (0 none, 1 void suit, 2 own turn: win / kong /
      discard, 3 discard after a call, 4 claim a discard, 5 rob an added kong, 6
      declare ready with the discard just made, 7 开杠 or 补张 after the own kong),
      [1] relative seat that offered the tile of a claim, [2] own seat wind
      (0 East .. 3 North), [3] prevalent wind, [4] relative seat of the dealer,
      [5] tiles left in the wall (capped at 127), [6] players, [7] own draws so far
      (capped at 127), [8-11] flowers of relative seat 0-3, [12-15] concealed kongs of
      relative seat 0-3, [16-19] void suit + 1 of relative seat 0-3 (0 none),
      [20-23] 1 if relative seat 0-3 has won (血战 / 血流), [24-27] the ready
      declaration of relative seat 0-3 (0 none, 1 concealed, 2 open; public), [28] 1
      if a win needs a declaration (保定, 立四), [29-32] 1 if relative seat 0-3's hand
      is locked (a 血流 winner's, a 开杠 nobody won on), the rest 0 (the tiles a winner took
      under 血战 / 血流 are not shown)
====  =============================================================================

Rewards: 0 until the hand ends; then each agent gets its score change of the hand
(``HandState.deltas``: the ruleset's settlement of every win, kong payments and end
checks), and every agent is terminated at once — under 血战 / 血流 a winner stays an
agent (asked nothing more) until the hand ends.  Truncation never happens (a hand always
ends).  A zero-sum ruleset gives rewards summing to 0.

Illegal actions raise :class:`~majiang.game.engine.IllegalMoveError` (a
:class:`~majiang.errors.MahjongError`) naming the agent, the action and the legal ids;
the environment is left as it was, so the agent may act again (no PettingZoo
``TerminateIllegalWrapper`` convention of a -1 reward).

Seeding: ``reset(seed=s)`` plays hand 0 of the run seeded ``s`` (:func:`majiang.game.play_hand`
with ``seed=s, hand=0``: the same wall and deal as the simulator's); each later ``reset()``
without a seed plays the run's next hand (the dealer rotates).  ``reset(options={"hand":
h})`` picks hand ``h``; other option keys are ignored.  Without any seed the run's seed is
drawn once from fresh entropy.
"""
from __future__ import annotations

import queue
import threading
from typing import Any

import numpy as np

from .errors import MahjongError, RuleError
from .game.engine import IllegalMoveError
from .game.engine.open_kong import policy_open_kong
from .hand import chow_tiles
from .rules.model import game_model
from .tiles import format_counts, tile_name

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as _exc:          # pragma: no cover - the optional extra is missing
    raise ImportError("majiang.env needs PettingZoo and Gymnasium: "
                      'pip install ".[rl]"') from _exc

__all__ = ["env", "raw_env", "N_ACTIONS", "N_ROWS", "action_name",
           "DISCARD", "CHOW", "PUNG", "KONG", "CONCEALED_KONG", "ADDED_KONG", "WIN", "PASS",
           "VOID", "READY", "OPEN_KONG"]

DISCARD = 0
"""Actions ``0..33``: discard a tile of that kind."""
CHOW = 34
"""Actions ``34..36``: chow with the discard as the lowest / middle / highest tile."""
PUNG = 37
KONG = 38
"""Exposed kong on a discard."""
CONCEALED_KONG = 39
"""Actions ``39..72``: concealed kong of kind ``id - 39``."""
ADDED_KONG = 73
"""Actions ``73..106``: added kong of kind ``id - 73``."""
WIN = 107
PASS = 108
VOID = 109
"""Actions ``109..111``: void suit 万 / 筒 / 条 (定缺)."""
READY = 112
"""Actions ``112..113``: declare ready (报听) concealed / open with the discard just made."""
OPEN_KONG = 114
"""开杠: turn the tiles after the own kong (PASS: the 补张)."""
N_ACTIONS = 115
N_ROWS = 14
_INFO = 13
# the decision codes of row 13, [0]
_DECISIONS = {"void": 1, "declare": 2, "discard": 2, "call": 3, "claim": 4, "rob": 5,
              "ready": 6, "open_kong": 7}
_SUITS = ("万", "筒", "条")
# the ready declarations in action order (READY + i) and their code in row 13 (i + 1)
_READY_KINDS = ("concealed", "open")


def _ready_code(kind: str) -> int:
    """Row 13's code of a declaration (1 concealed, 2 open); the declarations made at
    their own moment (天听 ``"deal"``, 地听 ``"first_draw"``) are concealed ones."""
    return 2 if kind == "open" else 1


def action_name(a: int) -> str:
    """A short English name of action id ``a`` (``"discard 5p"``, ``"chow (middle)"``,
    ``"concealed kong E"``, ``"declare ready (open)"``…).  Raises
    :class:`~majiang.errors.RuleError` outside ``0..114``."""
    a = int(a)
    if 0 <= a < 34:
        return f"discard {tile_name(a)}"
    if CHOW <= a < PUNG:
        return f"chow ({('lowest', 'middle', 'highest')[a - CHOW]})"
    if a == PUNG:
        return "pung"
    if a == KONG:
        return "kong"
    if CONCEALED_KONG <= a < ADDED_KONG:
        return f"concealed kong {tile_name(a - CONCEALED_KONG)}"
    if ADDED_KONG <= a < WIN:
        return f"added kong {tile_name(a - ADDED_KONG)}"
    if a == WIN:
        return "win"
    if a == PASS:
        return "pass"
    if VOID <= a < READY:
        return f"void suit {_SUITS[a - VOID]}"
    if READY <= a < OPEN_KONG:
        return f"declare ready ({_READY_KINDS[a - READY]})"
    if a == OPEN_KONG:
        return "open kong (turn the tiles)"
    raise RuleError(f"no action {a}: the ids are 0..{N_ACTIONS - 1}")


# --------------------------------------------------------------------------- the bridge
class _Abort(BaseException):
    """Ends the worker's hand early (a reset or close in the middle of a hand)."""


_ABORT = object()


class _Bridge:
    """The hand running in a worker thread, and the hand-over of each decision.

    The worker puts ``("ask", seat, what, options)``, then ``("end", state)`` or
    ``("error", exception)`` on ``to_env`` and waits on ``to_engine`` for the answer;
    exactly one side runs at a time."""

    def __init__(self) -> None:
        self.to_env: queue.Queue = queue.Queue(maxsize=1)
        self.to_engine: queue.Queue = queue.Queue(maxsize=1)
        self.views: dict = {}
        self.stash: tuple | None = None      # (seat, tile): a discard chosen at a declare
        self.thread: threading.Thread | None = None

    def ask(self, seat: int, what: str, options):
        self.stash = None
        self.to_env.put(("ask", seat, what, options))
        answer = self.to_engine.get()
        if answer is _ABORT:
            raise _Abort()
        return answer

    def start(self, run) -> tuple:
        def work():
            try:
                st = run()
            except _Abort:
                self.to_env.put(("aborted", None))
                return
            except BaseException as exc:        # handed to the caller's thread
                self.to_env.put(("error", exc))
                return
            self.to_env.put(("end", st))
        self.thread = threading.Thread(target=work, name="majiang-env-hand", daemon=True)
        self.thread.start()
        return self.next()

    def next(self) -> tuple:
        msg = self.to_env.get()
        if msg[0] == "error":
            self.thread.join()
            raise msg[1]
        if msg[0] in ("end", "aborted"):
            self.thread.join()
        return msg

    def answer(self, value) -> tuple:
        self.to_engine.put(value)
        return self.next()

    def abort(self) -> None:
        if self.thread is not None and self.thread.is_alive():
            self.to_engine.put(_ABORT)
            self.next()


class _Agent:
    """One seat's policy for the engine: every question goes through the bridge."""

    name = "env"

    def __init__(self, bridge: _Bridge, seat: int) -> None:
        self.bridge = bridge
        self.seat = seat

    def start(self, view) -> None:
        self.bridge.views[self.seat] = view

    def choose_void(self, view) -> int:
        return self.bridge.ask(self.seat, "void", None)

    def declare(self, view, options):
        return self.bridge.ask(self.seat, "declare", list(options))

    def discard(self, view) -> int:
        stash = self.bridge.stash
        if stash is not None and stash[0] == self.seat:
            self.bridge.stash = None
            return stash[1]
        return self.bridge.ask(self.seat, "discard", None)

    def claim(self, view, options):
        return self.bridge.ask(self.seat, "claim", list(options))

    def declare_ready(self, view, discard, waits):
        return self.bridge.ask(self.seat, "ready", (-1 if discard is None else int(discard),
                                                    [int(k) for k in waits]))

    def open_kong(self, view, kind, waits):
        return self.bridge.ask(self.seat, "open_kong", (int(kind), [int(k) for k in waits]))

    def __repr__(self) -> str:
        return f"player_{self.seat}"


def _offered(view) -> tuple:
    """``(seat, tile, robbing)`` of the tile a claim is asked on: the latest discard, the
    tile of an added kong, or the list of the tiles a 开杠 turned (from the hand's log as
    the seat sees it)."""
    n = view.n_events()
    start = max(0, n - 16)
    while True:
        for e in reversed(view.seen_events(start)):
            if e["e"] == "discard":
                return int(e["seat"]), int(e["tile"]), False
            if e["e"] == "kong" and e.get("kind") == "added":
                return int(e["seat"]), int(e["tile"]), True
            if e["e"] == "kong_reveal":          # the tiles a 开杠 turned (all of them)
                return int(e["seat"]), [int(t) for t in e["tiles"]], False
        if start == 0:
            raise MahjongError("a claim with no discard or added kong before it")
        start = max(0, start - 64)


def _after_call(view) -> bool:
    """Whether the seat's discard is asked right after its own pung / chow."""
    n = view.n_events()
    last = view.seen_events(max(0, n - 1))
    return bool(last) and last[-1]["e"] == "call" and last[-1]["seat"] == view.seat


# --------------------------------------------------------------------------- encoding
def _mask_and_map(view, what: str, options) -> tuple:
    """``(action mask int8 (114,), {action id: the engine's answer})`` of a decision."""
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    answers: dict = {}
    if what == "void":
        for s in range(3):
            answers[VOID + s] = s
    elif what == "ready":                    # the engine asks only when it allows one
        for kind in view.ready_offered or view.ready_kinds:
            answers[READY + _ready_code(kind) - 1] = kind
        answers[PASS] = ""
    elif what == "open_kong":                # 开杠 or 补张
        answers[OPEN_KONG] = True
        answers[PASS] = False
    elif what == "discard":
        for k in view.legal_discards:
            answers[DISCARD + int(k)] = int(k)
    elif what == "declare":
        for o in options:
            if o[0] == "win":
                answers[WIN] = o
            elif o[0] == "concealed_kong":
                answers[CONCEALED_KONG + int(o[1])] = o
            elif o[0] == "added_kong":
                answers[ADDED_KONG + int(o[1])] = o
        for k in view.legal_discards:
            answers[DISCARD + int(k)] = ("discard", int(k))
    else:                                    # a claim
        d = None
        for o in options:
            if o[0] == "win":
                answers[WIN] = o
            elif o[0] == "pung":
                answers[PUNG] = o
            elif o[0] == "kong":
                answers[KONG] = o
            elif o[0] == "chow":
                if d is None:
                    d = view.play_kind(_offered(view)[1])
                answers[CHOW + chow_tiles(int(o[1])).index(d)] = o
        answers[PASS] = None
    mask[list(answers)] = 1
    return mask, answers


def _observe(view, n: int, decision: int = 0, offered: tuple | None = None,
             waits=()) -> np.ndarray:
    """The ``int8 (14, 34)`` observation of ``view``'s seat (rows in the module doc);
    ``waits``: the kinds of a ready decision (row 10)."""
    me = view.seat
    o = np.zeros((N_ROWS, 34), dtype=np.int8)
    o[0] = view.concealed
    if decision == 2 and view.drawn is not None and view.drawn < 34:
        o[1, view.drawn] = 1
    info = o[_INFO]
    info[0] = decision
    info[2] = view.seat_wind
    info[3] = view.prevalent_wind
    info[4] = (view.dealer - me) % n
    info[5] = min(view.wall_left, 127)
    info[6] = n
    info[7] = min(view.draws_made, 127)
    flowers = view.flowers
    voids = view.voids
    won = set(view.won)
    declared = view.declared
    locked = view.locked
    meld_rows = np.zeros((4, 34), dtype=np.int16)
    for q, melds in enumerate(view.melds):
        r = (q - me) % n
        for kind, t, concealed in melds:
            if kind == "kong" and concealed:
                info[12 + r] += 1
                if t is None:            # another seat's: the tile is hidden
                    continue
            if kind == "chow":
                meld_rows[r, list(chow_tiles(t))] += 1
            else:
                meld_rows[r, t] += 4 if kind == "kong" else 3
    o[2:6] = np.minimum(meld_rows, 4)
    for q, pool in enumerate(view.discards):
        r = (q - me) % n
        for t in pool:
            if t < 34:
                o[6 + r, t] += 1
    for q in range(n):
        r = (q - me) % n
        info[8 + r] = min(flowers[q], 127)
        info[16 + r] = voids[q] + 1
        info[20 + r] = q in won
        if declared[q]:
            info[24 + r] = _ready_code(declared[q])
        info[29 + r] = locked[q]
    info[28] = view.ready_required
    if offered is not None:
        info[1] = (offered[0] - me) % n
        o[10, offered[1]] = 1
    for k in waits:
        o[10, k] = 1
    for k in view.joker_kinds:
        o[11, k] = 1
    if view.indicator is not None and 0 <= view.indicator < 34:
        o[12, view.indicator] = 1
    return o


_HIGH = np.full((N_ROWS, 34), 4, dtype=np.int8)
_HIGH[10:13] = 1
_HIGH[_INFO] = 127


# --------------------------------------------------------------------------- the env
class raw_env(AECEnv):
    """One hand of ``ruleset`` as a PettingZoo AEC environment (see the module doc for
    the observation rows, the action ids, rewards, seeding and illegal actions).

    Parameters
    ----------
    ruleset : str, Ruleset or GameModel
        Any ruleset :func:`majiang.game.play_hand` plays (``"mcr"`` by default).
    exchange3 : bool
        Play 换三张 before 定缺 (made by the built-in rule for every seat).
    render_mode : {None, "human", "ansi"}
        ``"ansi"``: :meth:`render` returns the table as text (every hand shown);
        ``"human"``: prints it.

    Attributes: ``hand_state`` (the engine's :class:`~majiang.game.engine.HandState` of
    the current hand, its event log included; after the hand, the final one with
    ``deltas`` and ``wins``), ``ruleset`` (the ruleset's name).

    Raises
    ------
    RuleError
        An unknown ruleset or render mode.
    """

    metadata = {"render_modes": ["human", "ansi"], "name": "majiang_v0",
                "is_parallelizable": False}

    def __init__(self, ruleset: Any = "mcr", *, exchange3: bool = False,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "human", "ansi"):
            raise RuleError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        self._model = game_model(ruleset)
        self.ruleset = self._model.ruleset.name
        self._n = int(self._model.players)
        self.exchange3 = bool(exchange3)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self._n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(0, _HIGH, (N_ROWS, 34), dtype=np.int8),
            "action_mask": spaces.Box(0, 1, (N_ACTIONS,), dtype=np.int8)})
            for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in self.possible_agents}
        self._seed: Any = None
        self._hand = -1
        self._bridge: _Bridge | None = None
        self.hand_state = None
        # the decision asked: (seat, what, decision code, mask, {action: answer},
        # offered tile or None, the engine's options; of a ready decision (discard, waits))
        self._pending: tuple | None = None
        self.agents = []

    # -- spaces
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # -- the hand
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._stop()
        if seed is not None:
            self._seed = int(seed)
            self._hand = 0
        else:
            if self._seed is None:
                self._seed = int(np.random.SeedSequence().entropy % (1 << 63))
            self._hand += 1
        if options and "hand" in options:
            self._hand = int(options["hand"])
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        bridge = _Bridge()
        self._bridge = bridge
        pols = [_Agent(bridge, p) for p in range(self._n)]
        from .game.engine import play_hand
        seed, hand, model, ex3 = self._seed, self._hand, self._model, self.exchange3

        def run():
            return play_hand(model, pols, seed=seed, hand=hand, log=True, engine="python",
                             exchange3=ex3)
        self._handle(bridge.start(run))

    def _handle(self, msg: tuple) -> None:
        """Take the engine's next message: a decision to ask, or the end of the hand."""
        if msg[0] == "ask":
            _, seat, what, options = msg
            view = self._bridge.views[seat]
            self.hand_state = view._st
            offered = None
            if what == "claim":
                offered = _offered(view)
                if offered[2]:
                    what_code = "rob"
                else:
                    what_code = "claim"
            elif what in ("ready", "open_kong"):
                what_code = what
            elif what == "discard" and _after_call(view):
                what_code = "call"
            else:
                what_code = what
            mask, answers = _mask_and_map(view, what, options)
            self._pending = (seat, what, _DECISIONS[what_code], mask, answers, offered,
                             options)
            self.agent_selection = self.possible_agents[seat]
            return
        # the hand is over
        st = msg[1]
        self._pending = None
        self.hand_state = st
        for a, p in self.agent_name_mapping.items():
            self.rewards[a] = float(st.deltas[p])
            self.terminations[a] = True
        self._accumulate_rewards()

    def observe(self, agent):
        p = self.agent_name_mapping[agent]
        view = self._bridge.views.get(p) if self._bridge is not None else None
        if view is None:
            return {"observation": np.zeros((N_ROWS, 34), dtype=np.int8),
                    "action_mask": np.zeros(N_ACTIONS, dtype=np.int8)}
        pend = self._pending
        if pend is not None and pend[0] == p:
            obs = _observe(view, self._n, pend[2], pend[5],
                           pend[6][1] if pend[1] in ("ready", "open_kong") else ())
            mask = pend[3].copy()
        else:
            obs = _observe(view, self._n)
            mask = np.zeros(N_ACTIONS, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat, what, _, _, answers, _, _ = self._pending
        if action is None or isinstance(action, (bool, np.bool_)) or \
                not isinstance(action, (int, np.integer)) or int(action) not in answers:
            legal = ", ".join(f"{a} ({action_name(a)})" for a in sorted(answers))
            shown = action if not isinstance(action, (int, np.integer)) or \
                not 0 <= int(action) < N_ACTIONS else f"{int(action)} ({action_name(action)})"
            raise IllegalMoveError(f"{agent}: action {shown} is not legal now; legal: {legal}")
        a = int(action)
        reply = answers[a]
        if what == "declare" and DISCARD <= a < 34:
            self._bridge.stash = (seat, reply[1])      # no win, no kong: then this discard
            reply = None
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        self._handle(self._bridge.answer(reply))
        if self.render_mode == "human":
            self.render()

    # -- outside policies
    def seat_view(self, agent):
        """The engine's :class:`~majiang.game.players.SeatView` of ``agent``: what that
        seat may see (its own tiles, the table, never another hand or the wall), as the
        built-in bots read it; None before the deal."""
        if self._bridge is None:
            return None
        return self._bridge.views.get(self.agent_name_mapping[agent])

    def policy_action(self, policy) -> int:
        """The action id that ``policy`` — a policy of the engine
        (:mod:`majiang.game.players`: ``EfficiencyPlayer()``, ``RandomPlayer(rng)`` or one's
        own object with ``declare`` / ``discard`` / ``claim``) — chooses for the current
        decision of :attr:`agent_selection`, asked as the engine asks it (an own turn:
        ``declare`` when a win or kong is open, then ``discard``; ``choose_void``, if the
        policy has it, else 万; a ready decision: ``declare_ready(view, discard, waits)``
        if the policy has it (True: the first kind the ruleset plays), else pass; an
        open-kong decision: ``open_kong(view, kind, waits)`` if the policy has it, else
        the 补张).  Use it to seat built-in bots beside learning agents.

        Raises
        ------
        IllegalMoveError
            The policy's choice is not legal here, or the hand is over.
        """
        pend = self._pending
        if pend is None:
            raise IllegalMoveError("the hand is over: no decision to ask a policy about")
        seat, what, _, _, answers, _, _ = pend
        view = self._bridge.views[seat]
        if what == "void":
            choice = int(policy.choose_void(view)) if hasattr(policy, "choose_void") else 0
            want = choice
        elif what == "discard":
            want = int(policy.discard(view))
        elif what == "ready":
            fn = getattr(policy, "declare_ready", None)
            tile = None if pend[6][0] < 0 else pend[6][0]
            choice = fn(view, tile, list(pend[6][1])) if fn is not None else False
            if choice is True:
                choice = (view.ready_offered or view.ready_kinds)[0]
            want = choice if choice else ""
        elif what == "open_kong":
            want = policy_open_kong(policy, view, pend[6][0], pend[6][1])
        else:
            choice = getattr(policy, what)(view, list(pend[6]))
            if choice is None:
                if what == "claim":
                    return PASS
                want = ("discard", int(policy.discard(view)))
            else:
                want = tuple(int(x) if isinstance(x, (int, np.integer)) and
                             not isinstance(x, bool) else x for x in choice)
        for a, v in answers.items():
            if v == want:
                return a
        raise IllegalMoveError(f"player_{seat} ({policy!r}): {what} chose {want!r}, not "
                               f"legal here")

    # -- the rest of the API
    def render(self):
        if self.render_mode is None:
            return None
        text = self._table_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _table_text(self) -> str:
        st = self.hand_state
        if st is None:
            return f"{self.ruleset}: no hand dealt"
        lines = [f"{self.ruleset} · hand {self._hand} · dealer player_{st.dealer} · "
                 f"wall {st.wall_left} left" + (" · over" if st.ended else "")]
        for p, s in enumerate(st.seats):
            melds = " ".join(f"[{m['kind']} {tile_name(m['tile'])}]" for m in s.melds)
            pool = " ".join(tile_name(t) for t in s.discards)
            lines.append(f"player_{p}: {format_counts(s.phys) or '-'} {melds}".rstrip()
                         + f" | discards: {pool or '-'}"
                         + (f" | score {st.deltas[p]:+g}" if st.ended else ""))
        return "\n".join(lines)

    def _stop(self) -> None:
        if self._bridge is not None:
            self._bridge.abort()
        self._pending = None

    def close(self) -> None:
        self._stop()

    def __del__(self):
        try:
            self._stop()
        except Exception:       # interpreter shutdown: the worker is a daemon thread
            pass


def env(ruleset: Any = "mcr", **options) -> AECEnv:
    """The environment of :class:`raw_env` (keywords ``exchange3``, ``render_mode``)
    wrapped in PettingZoo's order check (:class:`~pettingzoo.utils.wrappers.OrderEnforcingWrapper`:
    ``reset`` before ``step``).  Illegal actions raise
    :class:`~majiang.game.engine.IllegalMoveError` (see the module doc)."""
    return wrappers.OrderEnforcingWrapper(raw_env(ruleset, **options))

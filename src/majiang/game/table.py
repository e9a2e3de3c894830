"""Win and tenpai probability at the table: a Monte Carlo over the whole-hand engine.

The single-player model of :mod:`majiang.probability` lets one player draw alone.
Here the hand is played at a full table (:func:`~majiang.game.engine.play_hand`,
the Python loop, move for move the same as the compiled one):

* seat 0 is the dealer (East, prevalent wind East unless given) and is dealt the
  given tiles.  A hand of the ruleset's hand size (13 / 16, waiting for its draw)
  gets a random 14th / 17th dealt tile, which counts as its first draw; a hand of one
  tile more is dealt as it is and its first move is a discard.  Being the dealer,
  a win on that first draw passes 天和 (``first_turn``) to THE predicate, as at
  a real table;
* the rest of the ruleset's physical tile set (flowers included; the hand's tiles
  and a given joker indicator removed) is shuffled for every sample and dealt /
  drawn as the engine does: the other ``players - 1`` seats get random hands and
  play ``opponents`` (built-in bots by name, or policy objects of the plug-in
  protocol); seat 0 plays ``player`` (default the efficiency bot);
* the sample counts as a win when seat 0 wins — self-draw, after a kong, on a
  discard or by robbing a kong, wherever THE win predicate and the ruleset allow —
  before its ``draws + 1``-th draw from the wall (every draw counts, kong
  replacements included; the opponents' discards after its ``draws``-th discard
  are still in time).  Another seat winning first ends a hand as a loss; under
  血战 / 血流 rulesets play goes on as the engine plays it and seat 0 may still win.
  An exhausted wall is a loss;
* tenpai: seat 0's hand waiting to draw (3n+1 tiles) has shanten 0 under the
  ruleset's shape options (forms, tile set, pair kinds, its declared void suit)
  at some point in that window, or seat 0 wins; a hand tenpai when dealt counts.

Jokers: ``*`` in the hand needs a ruleset with jokers; with a fixed joker it is
dealt as that kind, with a turned joker ``indicator=`` must be given and is placed
where the engine turns it (the last tile of the wall).  Without ``indicator`` the
engine turns a random one, and a dealt natural tile may then be wild.  Seen tiles
(``visible``) and melds are not modelled: the engine starts from a deal.

Seeds: sample ``i`` uses ``SeedSequence(seed)`` spawned by ``i``
(:func:`~majiang.game.engine.hand_seed_sequence`), split into the wall's stream
and the bots' stream, so results depend on the seed only, never on ``n_jobs``.

Registered as the ``"table"`` model of :func:`majiang.probability.win_probability`
when :mod:`majiang.game` is imported (the probability layer sits below the game
layer and never imports it by statement).
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._parallel import as_seed_sequence, resolve_n_jobs
from ..efficiency import shanten as _shanten
from ..errors import InvalidHandError, RuleError
from ..hand import as_hand
from ..probability import Estimate, _check_samples, _se
from ..rules.model import game_model
from ..tiles import tile_name
from .._core import game as _cg
from .engine import _sorted_tiles, hand_seed_sequence, play_hand
from .players import BUILTIN_PLAYERS, make_players

__all__ = ["TableResult", "table_probabilities", "MODEL_NAME", "POLICY_NAME"]

MODEL_NAME = "table (engine Monte Carlo)"
POLICY_NAME = "efficiency bot"    # the default player ("<built-in player> bot")
DEFAULT_SAMPLES = 2000
CHUNK = 64                   # samples per task (each sample has its own spawned seed)
WIN_KINDS = ("self_draw", "kong_replacement", "discard", "robbing_kong")
SE_NOTE = "± is 1 standard error"
"""Start of the estimates' ``note``: what the ``±`` of ``str(estimate)`` is."""


def _describe_note(note: str) -> str:
    """The opponents part of an estimate's note (the ``±`` label cut off)."""
    return note.split("; ", 1)[1] if note.startswith(SE_NOTE) and "; " in note else note


class _Stop(Exception):
    """Seat 0's window is over (it won, or it drew past the horizon)."""


class _Probe:
    """Watches one sample through seat 0's public :class:`~majiang.game.players.SeatView`
    (given to seat 0's policy at the start of the hand; it reads the live hand): seat 0's
    draws, its win, its tenpai."""

    __slots__ = ("T", "bonus", "view", "tenpai", "_last")

    def __init__(self, T: int, bonus: int, tenpai: bool):
        self.T, self.bonus, self.tenpai = T, bonus, tenpai
        self.view = None
        self._last = None

    def check(self, view) -> None:
        v = self.view
        if v is None:
            return
        if 0 in v.won:
            raise _Stop
        if v.draws_made + self.bonus > self.T:
            raise _Stop
        if not self.tenpai:
            self.look()

    def look(self) -> None:
        v = self.view
        c, j = v.play_counts()
        if (int(c.sum()) + j) % 3 != 1:
            return
        key = c.tobytes() + bytes((j, len(v.own_melds)))
        if key == self._last:
            return
        self._last = key
        if _cg.shanten(c, v.shape_options(), j) <= 0:
            self.tenpai = True


class _Watch:
    """A policy wrapper: asks the probe before every decision, then the policy."""

    def __init__(self, inner, probe: _Probe):
        self._inner = inner
        self._probe = probe

    def __getattr__(self, name):          # choose_void, exchange, name …
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._inner, name)

    def start(self, view) -> None:
        """Seat 0's view goes to the probe; then the policy's own ``start``, if any."""
        if view.seat == 0:
            self._probe.view = view
        start = getattr(self._inner, "start", None)
        if start is not None:
            start(view)

    def declare(self, view, options):
        self._probe.check(view)
        return self._inner.declare(view, options)

    def claim(self, view, options):
        self._probe.check(view)
        return self._inner.claim(view, options)

    def discard(self, view):
        self._probe.check(view)
        return self._inner.discard(view)


@dataclass(frozen=True)
class TableResult:
    """Win and tenpai estimates of one hand at the table.

    ``win`` / ``tenpai``: :class:`~majiang.probability.Estimate` (``method
    "monte_carlo"``, ``model`` :data:`MODEL_NAME`, ``se`` one standard error
    ``sqrt(p (1 - p) / n_samples)``, and a ``note`` that says so: ``str(result.win)``
    prints ``value ± se``); ``win_kinds``: seat 0's wins by
    kind (``"self_draw"``, ``"kong_replacement"``, ``"discard"``, ``"robbing_kong"``);
    ``others_first``: samples in which another seat won before seat 0's window
    closed and seat 0 did not win; ``walls_out``: samples drawn by an exhausted wall;
    ``won_after_others``: samples in which seat 0 won after another seat had won
    (血战 / 血流 rulesets only: elsewhere the first win ends the hand).
    """

    win: Estimate
    tenpai: Estimate
    n_samples: int
    win_kinds: dict = field(default_factory=dict)
    others_first: int = 0
    walls_out: int = 0
    won_after_others: int = 0

    def __str__(self) -> str:
        """Labelled lines: each estimate with ``± 1 SE`` said, the model, the policy and
        the opponents, then how the samples ended."""
        w, t = self.win, self.tenpai
        kinds = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in self.win_kinds.items())
        return "\n".join([
            f"p_win     {w.value:.4f} ± {w.se:.4f}  (± 1 standard error, {self.n_samples} hands)",
            f"p_tenpai  {t.value:.4f} ± {t.se:.4f}  (± 1 standard error)",
            f"model     {w.model}; policy {w.policy}; {_describe_note(w.note)}",
            f"wins      {kinds}; another seat won first {self.others_first}; "
            f"wall exhausted {self.walls_out}",
        ])


def _players(model, player, opponents):
    n = model.players
    if isinstance(opponents, str) or not isinstance(opponents, (list, tuple)):
        opponents = [opponents] * (n - 1)
    opponents = list(opponents)
    if len(opponents) != n - 1:
        raise RuleError(f"{model.name} is played by {n} players: give {n - 1} opponents, "
                        f"got {len(opponents)}")
    seats = [player] + opponents
    for i, p in enumerate(seats):
        if isinstance(p, str) and p.strip().lower() not in BUILTIN_PLAYERS:
            raise RuleError(f"seat {i}: unknown player {p!r}; built-in players: "
                            f"{', '.join(BUILTIN_PLAYERS)} (or a policy object)")
    make_players(seats, n)             # validates policy objects (RuleError)
    return seats


def _seat_name(s) -> str:
    """A built-in player's name (``"efficiency"``) or a policy object's ``name``."""
    return s.strip().lower() if isinstance(s, str) else getattr(s, "name", type(s).__name__)


def _describe(seats) -> str:
    names = [_seat_name(s) for s in seats]
    opp = names[1:]
    if len(set(opp)) == 1:
        txt = f"{len(opp)} x {opp[0]} bot" if isinstance(seats[1], str) else \
            f"{len(opp)} x {opp[0]}"
    else:
        txt = ", ".join(opp)
    return f"opponents: {txt}; seat 0 ({names[0]}) is the dealer"


def _setup(model, hand, indicator):
    """Seat 0's physical tiles (``int16``) and the indicator tile (or None)."""
    hs = model.hand_size
    h = as_hand(hand)
    if h.melds:
        raise RuleError("the table model starts from a deal: give a concealed hand "
                        f"without melds, got {h}")
    n = int(h.n_tiles)
    if n not in (hs, hs + 1):
        raise InvalidHandError(f"the table model needs {hs} tiles (waiting for the draw) or "
                               f"{hs + 1} (the dealer's deal) under {model.name}, got {n}")
    jr = model.jokers
    ind = None
    if indicator is not None:
        if jr is None or not jr.needs_indicator:
            raise RuleError(f"{model.name} turns no joker indicator; drop indicator=")
        from ..tiles import parse_tile
        ind = parse_tile(indicator) if isinstance(indicator, str) else int(indicator)
        if not 0 <= ind < 34 or not model.copies[ind]:
            raise RuleError(f"indicator {indicator!r} is not a tile of {model.name}")
    counts = np.asarray(h.concealed, dtype=np.int64).copy()
    if h.jokers:
        if jr is None:
            raise model.no_jokers(h.jokers)
        if jr.flowers:
            raise RuleError(f"the table model reads no flower jokers (花鬼 of {model.name}): "
                            "a '*' there has no tile kind")
        if jr.source == "fixed":
            jk = int(jr.fixed)
        elif ind is None:
            raise RuleError(f"'*' in the hand: give indicator= (the turned tile) so that "
                            f"the joker kind of {model.name} is known")
        else:
            jk = int(jr.kind(ind))
        counts[jk] += h.jokers
    use = counts.copy()
    if ind is not None:
        use[ind] += 1
    over = np.flatnonzero(use > np.asarray(model.copies, dtype=np.int64))
    if over.size:
        k = int(over[0])
        raise InvalidHandError(f"{int(use[k])} copies of {tile_name(k)} (hand, jokers and "
                               f"indicator) but {model.name} has {int(model.copies[k])}")
    tiles = np.repeat(np.arange(34, dtype=np.int16), counts)
    return tiles, ind


def _rest(model, tiles, ind):
    full = _sorted_tiles(model)
    take = np.zeros(full.size, dtype=bool)
    want = np.bincount(tiles, minlength=34).astype(np.int64)
    if ind is not None:
        want[ind] += 1
    for k in np.flatnonzero(want):
        idx = np.flatnonzero(full == k)[:want[k]]
        take[idx] = True
    return full[~take]


def _one(model, seats, tiles, ind, rest, T, start_tenpai, base, i, prevalent):
    ss = hand_seed_sequence(base, i)
    wall_ss, bot_ss = ss.spawn(2)
    rng = np.random.Generator(np.random.PCG64(wall_ss))
    hand = rng.permutation(tiles)
    others = rng.permutation(rest)
    if ind is not None:
        wall = np.concatenate([hand, others, np.array([ind], dtype=np.int16)])
    else:
        wall = np.concatenate([hand, others])
    wall = wall.astype(np.int16)
    bonus = 1 if tiles.size == model.hand_size else 0   # the random dealt tile: draw 1
    probe = _Probe(T, bonus, start_tenpai)
    pols = make_players(seats, model.players, np.random.Generator(np.random.PCG64(bot_ss)))
    pols = [_Watch(p, probe) for p in pols]
    try:
        st = play_hand(model, pols, seed=base, hand=i, wall=wall, dealer=0,
                       prevalent_wind=prevalent, engine="python")
        ended_wall = getattr(st, "end_reason", "") == "wall"
    except _Stop:
        ended_wall = False
    view = probe.view
    if view is None:
        return None, probe.tenpai, False, ended_wall
    if not probe.tenpai and 0 not in view.won:
        probe.look()
    how = None
    others_first = False
    for seat, kind in view.wins:
        if seat == 0:
            how = kind
            break
        others_first = True
    return how, probe.tenpai or how is not None, others_first, ended_wall and how is None


def table_probabilities(hand: Any, draws: int, *, ruleset: Any = None,
                        n_samples: int = DEFAULT_SAMPLES, seed: Any = 0,
                        opponents: Any = "efficiency", player: Any = "efficiency",
                        indicator: Any = None, prevalent_wind: int = 0,
                        n_jobs: int | None = 1) -> TableResult:
    """Win and tenpai probability of ``hand`` at a full table (see the module).

    Parameters
    ----------
    hand : str or Hand
        Seat 0's concealed tiles: the ruleset's hand size (a random dealt tile is its
        first draw) or one more (the dealer's deal as it is); ``*`` jokers allowed.
    draws : int
        Seat 0's horizon: wins before its ``draws + 1``-th draw count (``>= 1`` for a
        hand of hand size, ``>= 0`` for one more).
    ruleset : None, str, Ruleset or GameModel
        A ruleset the engine plays.  Default ``None``: Chinese Official rules
        (``"mcr"``), as every function given no ruleset.
    n_samples : int
        Hands played (standard errors ``sqrt(p (1 - p) / n)``).
    seed : int, SeedSequence, numpy Generator or None
        A non-negative int, a ``numpy.random.SeedSequence`` or ``numpy.random.Generator``
        (default ``0``: the same answer every call; ``None``: fresh entropy, a
        different answer every call).
        Sample ``i`` uses ``SeedSequence(seed)`` spawned by ``i``.
    opponents : str, policy object or sequence of them
        The other seats (``"efficiency"``, ``"random"`` or plug-in policies); one value
        for all, or ``players - 1`` values.
    player : str or policy object
        Seat 0's policy (default the efficiency bot).
    indicator : str or int, optional
        The turned joker indicator (rulesets that turn one), placed where the engine
        turns it.
    prevalent_wind : int
        0..3 (seat 0 is East, the dealer).
    n_jobs : int or None
        Threads: ``None`` lets the function choose (one worker for small inputs, up to every
        core for big ones), ``-1`` allows every core, ``k >= 1`` at most ``k``
        workers; the result does not depend on it.

    Returns
    -------
    TableResult

    Raises
    ------
    RuleError
        Unknown ruleset or player, a wrong number of opponents, bad ``draws`` /
        ``n_samples`` / ``seed`` / ``n_jobs`` / ``indicator``, ``*`` without a joker rule.
    InvalidHandError, InvalidNotationError
        A bad hand: melds, a wrong size, more copies than the tile set holds.
    """
    model = game_model(ruleset)
    n = _check_samples(n_samples)
    jobs = resolve_n_jobs(n_jobs)
    base = as_seed_sequence(seed)
    seats = _players(model, player, opponents)
    tiles, ind = _setup(model, hand, indicator)
    lo = 1 if tiles.size == model.hand_size else 0
    if isinstance(draws, bool) or not isinstance(draws, (int, np.integer)) or draws < lo:
        raise RuleError(f"draws must be an integer >= {lo} for a {tiles.size}-tile hand, "
                        f"got {draws!r}")
    T = int(draws)
    if isinstance(prevalent_wind, bool) or not isinstance(prevalent_wind, (int, np.integer)) \
            or not 0 <= prevalent_wind <= 3:
        raise RuleError(f"prevalent_wind must be 0..3, got {prevalent_wind!r}")
    rest = _rest(model, tiles, ind)
    start_tenpai = False
    if tiles.size == model.hand_size:     # tenpai when dealt counts (as single-player)
        start_tenpai = _shanten(hand, ruleset=model.ruleset, indicator=indicator) <= 0

    def run(lo_i: int, hi_i: int):
        return [_one(model, seats, tiles, ind, rest, T, start_tenpai, base, i,
                     int(prevalent_wind)) for i in range(lo_i, hi_i)]

    chunks = [(a, min(a + CHUNK, n)) for a in range(0, n, CHUNK)]
    if jobs == 1 or len(chunks) == 1:
        parts = [run(a, b) for a, b in chunks]
    else:
        with ThreadPoolExecutor(max_workers=jobs) as ex:
            parts = list(ex.map(lambda ab: run(*ab), chunks))
    outs = [o for part in parts for o in part]
    kinds = {k: 0 for k in WIN_KINDS}
    wins = ten = others = walls = after = 0
    for how, tp, of, wl in outs:
        if how is not None:
            wins += 1
            kinds[how] = kinds.get(how, 0) + 1
            after += bool(of)
        else:
            others += bool(of)
        ten += bool(tp)
        walls += bool(wl)
    pw, pt = wins / n, ten / n
    note = f"{SE_NOTE} over {n} hands; {_describe(seats)}"
    pol = f"{_seat_name(player)} bot" if isinstance(player, str) else _seat_name(player)
    win = Estimate(pw, _se(pw, n), "monte_carlo", n, MODEL_NAME, pol, note)
    tenpai = Estimate(pt, _se(pt, n), "monte_carlo", n, MODEL_NAME, pol, note)
    return TableResult(win, tenpai, n, kinds, others, walls, after)


_TABLE_KWARGS = ("ruleset", "n_samples", "seed", "opponents", "player", "indicator",
                 "prevalent_wind", "n_jobs")


def _model(hand: Any, draws: int, **kwargs: Any) -> TableResult:
    """The ``"table"`` model as :func:`majiang.probability.win_probability` calls it:
    the keyword arguments of :func:`table_probabilities`; ``visible`` must be empty
    and the single-player options (``method``, ``policy``, ``changes`` …) are refused
    with a :class:`~majiang.RuleError`."""
    vis = kwargs.pop("visible", None)
    if vis is not None and not (isinstance(vis, str) and not vis.strip()) and \
            not (not isinstance(vis, str) and int(np.asarray(vis).sum()) == 0):
        raise RuleError("model='table' starts from a deal and does not model seen tiles: "
                        "drop visible= (or use the single-player model)")
    bad = sorted(set(kwargs) - set(_TABLE_KWARGS))
    if bad:
        raise RuleError(f"model='table' does not take {', '.join(bad)}; it takes "
                        f"{', '.join(_TABLE_KWARGS)}")
    return table_probabilities(hand, draws, **kwargs)

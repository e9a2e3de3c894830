"""Players: the policy protocol, what a player sees, and the built-in bots.

A policy is any object with three methods (the built-in bots implement them too):

``declare(view, options) -> option or None``
    On the player's own turn, holding a drawn tile.  ``options`` is a list of
    tuples: ``("win",)`` (self-draw), ``("concealed_kong", kind)``,
    ``("added_kong", kind)``.  ``None``: go on to discard.  Asked only when some
    option exists.
``discard(view) -> int``
    The physical tile kind to discard (0..33; a joker is discarded by its kind);
    :attr:`SeatView.legal_discards` lists the legal ones (定缺 suit first).
``claim(view, options) -> option or None``
    On another player's discard (or an added kong that may be robbed):
    ``("win",)``, ``("kong",)``, ``("pung",)``, ``("chow", lowest kind)``; ``None``
    passes.  Asked only when some option exists.

Optional: ``choose_void(view) -> 0 | 1 | 2`` (定缺 under rulesets that declare the void
suit at the deal, :attr:`RuleSpec.declares_void <majiang.rules.model.RuleSpec.declares_void>`:
万 筒 条; default 0; never asked under 缺门 at the win), ``exchange(view) -> [k1, k2, k3]`` (换三张 when the table plays it:
three held tiles of one suit; default: :func:`efficiency_exchange`) and
``start(view)`` (called once at the deal), and ``declare_ready(view, discard, waits) ->
bool or kind`` (报听, under a ruleset whose declaration changes something,
:func:`majiang.game.engine.facts.ready_kinds`: asked after a discard that leaves the hand
ready — or, for 天听, on a non-dealer's ready dealt hand with ``discard`` None —
``waits`` the kinds it wins on; ``True`` declares the first of
:attr:`SeatView.ready_offered` (the kinds open now), a kind name (``"concealed"`` /
``"open"`` / ``"deal"`` / ``"first_draw"``) that one, False none; the declared hand then discards each draw unless it wins.  A policy without the method
never declares, and so never wins where a declaration is required).  And ``open_kong(view, kind, waits) -> bool`` (开杠, under a ruleset with
:attr:`~majiang.rules.base.Ruleset.kong_reveal`: asked right after a kong of ``kind`` that
leaves the hand ready, ``waits`` the kinds it wins on: True turns the tiles, False takes
the one replacement, 补张; a policy without the method always takes the 补张;
:mod:`majiang.game.engine.open_kong`).  A move outside the
options raises :class:`~majiang.game.engine.IllegalMoveError` naming the seat, the
move and the legal options.

Built-in bots (``players=`` names; they read nothing but the public
:class:`SeatView`, whose shape helpers — ``play_counts()``, ``visible_counts()``,
``shape_options()``, ``judge_waits()`` … — serve a policy of one's own as well):

* ``"random"`` — a uniformly random legal move at every decision (passing and
  discarding included), except that it always wins when it may;
* ``"efficiency"`` — wins whenever it may; names as void suit the suit it holds
  fewest of and discards it first; otherwise discards to the least shanten under
  the ruleset's shape options (forms, tile-set caps, 缺一门, 二五八将 via the
  compiled core), then the most live ukeire, then honors before terminals before
  inner tiles; claims a pung / chow (then the best discard) or a kong only when
  that lowers its shanten, or keeps it with more live ukeire (a kong: keeps it).
  Under honour chows (南昌: three winds / the three dragons are a chow), which the
  compiled kernels do not know, every shanten and ukeire is the ruleset's shape
  engine's instead (:func:`_shape_engine_discard`; over 300 seeded 南昌 hands the table
  discarded 16.8 tiles before the win against 20.4 with the kernels' shapes, at 0.079 s
  a hand against 0.050).
  Under a ruleset where a complete shape may still not win
  (:func:`majiang.game.engine.min_aware`, read from the ruleset's fields: a minimum
  fan such as Chinese Official's 8, a minimum in points such as 螺山's 100 / 200,
  constraints beyond the shape such as 合肥 八枝, 开门 or a 2-5-8 pair for a small win),
  when a discard makes it tenpai it keeps the tenpai whose waits hold the most live
  tiles that THE predicate accepts (:func:`pick_valid_wait`, judged as a self-draw with
  the seat's flowers), not a wait that can never win; when no wait of any tenpai
  discard can win, even with every flower drawn, it leaves tenpai for the best shape
  that is not tenpai (:func:`step_back`).  Over 2000 seeded hands per ruleset (seed
  12345) the drawn hands went from 51.4% to 23.2% (合肥), 7.7% to 2.1% (长沙), 13.7% to
  3.4% (沈阳), 2.2% to 1.2% (武汉), and stayed 8.1% / 8.4% (Chinese Official), 0.9% (南京),
  0.95% (天津); 螺山 stays about 91% (its minimum needs 台 — honor pungs, flushes — that
  a shape bot does not aim at).  Measured and left off (switches :data:`AWARE_JOKERS`,
  :data:`LOOKAHEAD`, both loops honour them): weighing waits while jokers are held (no
  gain under 武汉 / 螺山, 3-4x the time), and a step back toward the discard whose draws
  most often reach a winning tenpai (合肥 23.2% -> 18.9%, Chinese Official 8.4% -> 7.0%
  drawn, for 5x (Chinese Official) to 12x (合肥) the time of a hand).  Stepping back also
  from a tenpai whose valid waits are all dead measured worse (Chinese Official 8.8%,
  合肥 23.5%), as did refusing a call that leads to such a tenpai (win rate 89.6%).
* ``"expert"`` — :class:`~majiang.game.expert.ExpertPlayer` (:mod:`majiang.game.expert`):
  under a minimum fan it builds toward hands that can reach it (混一色, 碰碰和, 花龙,
  三色三步高 … read from the ruleset's fan catalogue) from the first draw, counts only the
  progress toward waits that win, calls only into such a plan, and folds to the safest
  tile against a likely-ready opponent; under doubling rulesets without a minimum (四川,
  广东 …) it weighs the big hands that pay (清一色, 对对胡, 七对 …), keeps the waits worth
  most, lets a cheap winning discard pass for a likely self-draw and names the 定缺 suit
  by shanten.  It plays in the Python loop only.

Ready declarations (报听, :meth:`EfficiencyPlayer.declare_ready`, the expert's too): where a
declaration is required to win (保定, 立四) the efficiency bot declares on every discard
that leaves a ready hand (the engine asks only then: a wait that wins), and on the dealt
hand or the first draw wherever the ruleset offers those (贵州 天听 / 地听, 南京 天听 for 地胡:
a fan pays them); where it is optional and pays (山东 暗楼 / 明楼, 海南 明摸, 天津 扣听) it
declares when its waits hold at least two live copies (the tile set less its own tiles and
what it sees), the concealed kind where the ruleset has it (暗楼 keeps the discard wins
that 明楼 gives up), else the open one.  The random bot declares with probability
``1 / (kinds + 1)`` each kind offered when asked (one raw draw).

开杠 (:meth:`EfficiencyPlayer.open_kong`, the expert's too): when :func:`open_kong_chance` reaches
:data:`OPEN_KONG_CHANCE`, else 补张; the random bot takes either with one chance in two.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import RuleError
from ..hand import Meld, chow_tiles
from .._core import game as _cg
from .seat_view import SeatView
from .wait_judge import _refused, closed_out, hope_of, wait_judge, wait_verdict  # noqa: F401

__all__ = ["SeatView", "RandomPlayer", "EfficiencyPlayer", "ScriptedPlayer", "make_players",
           "seat_players",
           "BUILTIN_PLAYERS", "random_exchange", "efficiency_exchange", "pick_valid_wait",
           "wait_verdict", "wait_judge", "step_back", "closed_out", "NO_VALID_WAIT", "STEP_BACK",
           "OPEN_KONG_CHANCE", "open_kong_chance"]


def _centrality(k: int) -> int:
    """The bots' tie-break (as the compiled core): honors 0, then terminals, then inner."""
    if k >= 27:
        return 0
    k %= 9
    return 1 + (k if k < 4 else 8 - k)


def pick_valid_wait(cands, verdict, hope=None) -> int:
    """The win-condition-aware choice among tenpai discards (rulesets where THE predicate
    refuses some complete shapes: a minimum fan or points, constraints beyond the shape;
    :func:`majiang.game.engine.min_aware`): ``cands`` lists ``(k, after, waits)`` — the
    kind discarded, the counts after it (``uint8 (34,)``), and ``[(wait kind, live
    copies left)]``; ``verdict(after, w)`` says whether a win on ``w`` is valid under THE
    predicate.  Returns the candidate with the most live copies of valid winning tiles
    (then the most live waits, then honors before terminals before inner tiles, then
    the lowest kind); when no candidate has a live valid wait: -1 when some candidate
    has a valid wait whose copies are all seen (a dead wait) or a wait that ``hope``
    (optional: the verdict in the most favourable context the hand may still reach, e.g.
    every flower drawn) accepts, :data:`NO_VALID_WAIT` (-3) when no wait of any
    candidate can win.  Candidates are weighed most live
    waits first and the rest skipped once their live waits fall below the best count
    of valid ones (the same choice with fewer predicate calls).  Both loops call it, so
    they choose alike."""
    best, key = -1, None
    best_good = 0
    order = sorted(((sum(max(left, 0) for _, left in ws), k, after, ws)
                    for k, after, ws in cands), key=lambda x: (-x[0], x[1]))
    for total, k, after, waits in order:
        if total <= 0 or total < best_good:
            break
        good = 0
        for w, left in waits:
            if left > 0 and verdict(after, w):
                good += left
        if good <= 0:
            continue
        best_good = max(best_good, good)
        kk = (-good, -total, _centrality(k), k)
        if key is None or kk < key:
            best, key = k, kk
    if best >= 0:
        return best
    # no live valid wait: is any wait valid at all (then only dead), or may one still win?
    for _, k, after, waits in order:
        for w, left in waits:
            if left <= 0 and verdict(after, w):
                return -1
    if hope is not None:
        for _, k, after, waits in order:
            for w, _ in waits:
                if hope(after, w):
                    return -1
    return NO_VALID_WAIT


NO_VALID_WAIT = -3
""":func:`pick_valid_wait`: no tenpai discard has a wait that THE predicate accepts."""

AWARE_JOKERS = False
"""Whether the efficiency bot also weighs its waits with THE predicate while it holds
jokers (:func:`pick_valid_wait`)."""

LOOKAHEAD = False
"""Whether :func:`step_back` weighs its discards by the draws that reach a tenpai with a
wait THE predicate accepts (else the plain order among the discards that leave
tenpai)."""

STEP_BACK = (NO_VALID_WAIT,)
"""The :func:`pick_valid_wait` outcomes after which the efficiency bot leaves tenpai
(:func:`step_back`)."""


def step_back(c, j, so, vis, void, allowed, live=None, verdict=None, wild=()) -> int:
    """The efficiency bot's discard when no tenpai discard of the 3n+2 hand ``c`` (+
    ``j`` jokers) can win (:data:`STEP_BACK`), among the ``allowed`` kinds that do NOT
    leave the hand tenpai; -1 when every allowed discard is tenpai.

    With ``live`` (``int (34,)``: copies of each kind the seat may still draw, before
    its own and the ``vis`` tiles) and ``verdict(after, w)`` (THE predicate, as
    :func:`pick_valid_wait`): the discard of least shanten whose draws reach a tenpai
    with a valid wait most often — the live copies of every kind ``t`` such that the
    hand after the discard, plus ``t``, has a tenpai discard with a wait (not of the
    ``wild`` kinds) that ``verdict`` accepts; ties, or no such draw at all, go to the
    plain order: least shanten, most live ukeire, honors before terminals before inner
    tiles (:func:`majiang._core.game.choose_discard` under ``so``, 定缺 suit ``void``).
    Both loops call it (the compiled one through its bridge)."""
    a = np.array(allowed, dtype=np.uint8)
    sh = {}
    for x in np.flatnonzero(a):
        if not c[x]:
            a[x] = 0
            continue
        c[x] -= 1
        s = _cg.shanten(c, so, j)
        c[x] += 1
        if s == 0:
            a[x] = 0
        else:
            sh[int(x)] = s
    if not a.any():
        return -1
    if verdict is not None and live is not None:
        least = min(sh.values())
        # weighed by an upper bound first (the live draws that reach tenpai at all);
        # one whose bound falls below the best count so far cannot reach or tie it
        bound = []
        for x in sorted(sh):
            if sh[x] == least:
                c[x] -= 1
                bound.append((-_valid_ukeire(c, j, so, vis, live, None, wild), x))
                c[x] += 1
        bound.sort()
        score = {}
        top = 0
        for nb, x in bound:
            if -nb <= 0 or -nb < top:
                break
            c[x] -= 1
            score[x] = v = _valid_ukeire(c, j, so, vis, live, verdict, wild)
            c[x] += 1
            top = max(top, v)
        if top > 0:
            a[:] = 0
            for x, v in score.items():
                if v == top:
                    a[x] = 1
    k, _, _ = _cg.choose_discard(c, so, j, vis, void, a)
    return int(k)


def _valid_ukeire(c, j, so, vis, live, verdict, wild, weight=None, memo=None,
                  shanten_memo=None):
    """Live copies of the kinds whose draw gives the 3n+1 hand ``c`` (+ ``j`` jokers) a
    tenpai discard with a wait that ``verdict`` accepts (see :func:`step_back`); with
    ``verdict`` None: a tenpai discard at all.  An int; with ``weight(c13, w)`` (a value
    in [0, 1] of the accepted wait ``w`` of the tenpai hand ``c13``) a float: each draw's
    copies times the best weight among its accepted waits (the expert's discount of a
    wait that wins only self-drawn).  ``memo``: a dict kept across calls with the same
    ``so``, ``j``, ``verdict``, ``weight`` and ``wild``, ``shanten_memo`` one kept across
    calls with the same ``so`` and ``j`` (see :func:`majiang._core.game.valid_ukeire`)."""
    if not (isinstance(c, np.ndarray) and c.dtype == np.uint8 and c.flags.c_contiguous
            and c.flags.writeable):
        c = np.array(c, dtype=np.uint8)
    return _cg.valid_ukeire(c, int(j), so, vis, live, verdict, wild, weight, memo,
                            shanten_memo)


def random_exchange(counts, pick) -> list:
    """换三张 of the random bot: a uniformly chosen suit holding 3+ tiles, then three of
    its tiles uniformly (``pick(m)`` draws an index below m)."""
    elig = [s for s in range(3) if int(counts[9 * s:9 * s + 9].sum()) >= 3]
    if not elig:
        return []
    s = elig[pick(len(elig))]
    inst = [k for k in range(9 * s, 9 * s + 9) for _ in range(int(counts[k]))]
    out = []
    for _ in range(3):
        out.append(inst.pop(pick(len(inst))))
    return sorted(out)


def efficiency_exchange(counts) -> list:
    """换三张 of the efficiency bot: the suit with the fewest tiles among those holding
    3+ (its coming void suit), giving its three least connected tiles (fewest held
    tiles within two ranks, then terminals before inner tiles, then the lower kind)."""
    c = [int(x) for x in counts]
    elig = [s for s in range(3) if sum(c[9 * s:9 * s + 9]) >= 3]
    if not elig:
        return []
    s = min(elig, key=lambda x: (sum(c[9 * x:9 * x + 9]), x))
    out = []
    for _ in range(3):
        def key(k):
            r = k - 9 * s
            near = sum(c[9 * s + q] for q in range(max(0, r - 2), min(8, r + 2) + 1)) - 1
            return (near, min(r, 8 - r), k)
        k = min((k for k in range(9 * s, 9 * s + 9) if c[k]), key=key)
        c[k] -= 1
        out.append(k)
    return sorted(out)


def standing_kept(view, options, tile=None) -> list:
    """The ``options`` (own-turn kongs, or calls on the discard ``tile``) after which the
    seat still holds a standing tile (立四: with none left it cannot declare ready, so
    cannot win); all of them when it holds none."""
    if not view.standing_counts[view.seat]:
        return list(options)
    out = []
    for o in options:
        if o[0] in ("concealed_kong", "added_kong"):
            taken = {o[1]: 4 if o[0] == "concealed_kong" else 1}
        elif o[0] in ("kong", "pung") and tile is not None:
            taken = {tile: 3 if o[0] == "kong" else 2}
        elif o[0] == "chow" and tile is not None:
            taken = {x: 1 for x in chow_tiles(o[1]) if x != view.play_kind(tile)}
        else:
            out.append(o)
            continue
        if view.standing_left_after(taken) > 0:
            out.append(o)
    return out


def declaring_allowed(view, allowed):
    """Under standing tiles (立四): the ``allowed`` discard kinds narrowed to those that
    declare ready now (:attr:`SeatView.declaring_discards`) when there are any — a win
    needs the declaration, which only such a discard makes; else ``allowed``."""
    if not view.standing_counts[view.seat]:
        return allowed
    decl = view.declaring_discards
    if not decl:
        return allowed
    a = np.zeros(34, dtype=np.uint8)
    for k in decl:
        if allowed[view.play_kind(k)]:
            a[view.play_kind(k)] = 1
    return a if a.any() else allowed


def legal_discard(view, k: int, legal) -> int:
    """The played kind ``k`` chosen by a bot (-1: none) as a legal discard: a held
    stand-in playing as the joker kind's face is thrown as itself (安庆 红中), and a choice
    that is not legal (or none) gives the first legal discard."""
    if k < 0:
        return int(legal[0])
    sub = view.stand_in
    if sub is not None and k == view.joker_kind:
        k = sub
    return int(k) if k in legal else int(legal[0])


def called(counts: np.ndarray, kind: int, option: tuple) -> tuple:
    """``(concealed counts after the call, the meld made)`` when the discarded `kind` is
    claimed by `option` (``("kong",)``, ``("pung",)`` or ``("chow", lowest kind)``) from
    the concealed ``counts`` (``uint8 (34,)``, not changed): the claimed tile joins the
    meld and the other tiles of the meld leave the hand."""
    c2 = counts.copy()
    if option[0] == "kong":
        c2[kind] -= 3
        return c2, Meld("kong", kind)
    if option[0] == "pung":
        c2[kind] -= 2
        return c2, Meld("pung", kind)
    a = option[1]
    for x in chow_tiles(a):         # an honour chow (南昌) too
        if x != kind:
            c2[x] -= 1
    return c2, Meld("chow", a)


def _shape_engine_ukeire(view, c, j, melds, vis) -> tuple:
    """``(shanten, live ukeire)`` of the 3n+1 hand ``c`` (``uint8 (34,)``, ``j`` wild
    tiles held, the seat's ``melds``) by the ruleset's shape engine
    (:func:`majiang.rules.shapes.core_ukeire_counts`): for a ruleset whose shapes the
    compiled game kernels do not know, honour chows (南昌, :attr:`RuleSpec.honor_chows
    <majiang.rules.model.RuleSpec.honor_chows>`).  Live copies: the tile set less the hand,
    the melds and ``vis`` (what the seat sees); a joker draw that helps counts the wild
    copies not seen."""
    from ..rules.shapes import _spec, core_ukeire_counts, meld_suits
    model = view.model
    jr = model.jokers
    jks = view.joker_kinds
    jk = None if not jks else (jks if len(jks) > 1 else jks[0])
    copies = 4 if jr is None else (jr.kind_copies if len(jks) > 1 else jr.copies)
    s, live = core_ukeire_counts(np.ascontiguousarray(c, dtype=np.uint8), jokers=int(j),
                                 caps=model.shape(melds).caps, n_melds=len(melds),
                                 spec=_spec(model.ruleset), visible=vis, joker_kind=jk,
                                 joker_copies=copies, meld_suits=meld_suits(melds))
    return int(s), int(sum(live.values()))


def _shape_engine_discard(view, c, j, melds, vis, void, allowed) -> tuple:
    """The efficiency bot's discard as :func:`majiang._core.game.choose_discard` orders it
    (a tile of the 定缺 suit ``void`` first; least shanten, most live ukeire, honours
    before terminals before inner tiles, the lower kind), each discard judged by
    :func:`_shape_engine_ukeire`: ``(kind, shanten, ukeire)``, ``(-1, 99, 0)`` when
    nothing may be discarded."""
    kinds = [k for k in range(34) if c[k] and (allowed is None or allowed[k])]
    if 0 <= void <= 2 and any(9 * void <= k < 9 * void + 9 for k in kinds):
        kinds = [k for k in kinds if 9 * void <= k < 9 * void + 9]
    best = (-1, 99, 0)
    key = None
    c = np.array(c, dtype=np.uint8)
    for k in kinds:
        c[k] -= 1
        s, u = _shape_engine_ukeire(view, c, j, melds, vis)
        c[k] += 1
        kk = (s, -u, _centrality(k), k)
        if key is None or kk < key:
            key, best = kk, (k, s, u)
    return best


OPEN_KONG_CHANCE = 0.25
"""The bots' 开杠 threshold (:meth:`EfficiencyPlayer.open_kong`): the least chance that a turned
tile wins.  The 补张's tile is a kong tile too (杠上开花): the 开杠 buys more tiles at once for a
locked hand and the risk of 杠上炮; we take it at one chance in four."""


def open_kong_chance(view, waits) -> float:
    """The chance that at least one of the :attr:`SeatView.kong_reveal` tiles turned by a
    开杠 is a live copy of ``waits``, the tiles drawn uniformly from those the seat does not
    see (the tile set less its own tiles and melds and what it sees)."""
    n = view.kong_reveal
    _, j = view.play_counts()
    unseen = view.unseen_counts()
    u = int(unseen.sum()) - j
    live = sum(int(unseen[k]) for k in waits)
    if n <= 0 or u <= 0 or live <= 0:
        return 0.0
    miss = 1.0
    for i in range(n):
        if u - i <= 0:
            break
        miss *= max(0, u - live - i) / (u - i)
    return 1.0 - miss


class RandomPlayer:
    """Uniformly random legal moves; always wins when it may.

    Each choice among ``m`` alternatives takes one raw 64-bit draw ``x`` of the
    seat's generator and picks ``(x * m) >> 64`` (the compiled loop does the same,
    so both paths play the same hands).
    """

    name = "random"

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self._raw = rng.bit_generator.random_raw

    def _pick(self, m: int) -> int:
        return (int(self._raw()) * m) >> 64

    def choose_void(self, view) -> int:
        return self._pick(3)

    def exchange(self, view) -> list:
        return random_exchange(view.concealed, self._pick)

    def declare(self, view, options):
        if ("win",) in options:
            return ("win",)
        i = self._pick(len(options) + 1)
        return options[i] if i < len(options) else None

    def discard(self, view) -> int:
        legal = view.legal_discards
        return int(legal[self._pick(len(legal))])

    def declare_ready(self, view, discard, waits):
        """A random choice among not declaring and each kind offered now."""
        kinds = view.ready_offered or view.ready_kinds
        i = self._pick(len(kinds) + 1)
        return kinds[i] if i < len(kinds) else False

    def claim(self, view, options):
        if ("win",) in options:
            return ("win",)
        i = self._pick(len(options) + 1)
        return options[i] if i < len(options) else None

    def open_kong(self, view, kind, waits):
        """开杠 or 补张 at random (one raw draw)."""
        return self._pick(2) == 1

    def __repr__(self) -> str:
        return "RandomPlayer()"


class EfficiencyPlayer:
    """Shanten, then live ukeire, under the ruleset's shape options (see the module)."""

    name = "efficiency"

    def __init__(self, rng: np.random.Generator | None = None) -> None:
        self.rng = rng

    def choose_void(self, view) -> int:
        c = view.concealed
        sums = [int(c[9 * s:9 * s + 9].sum()) for s in range(3)]
        return int(np.argmin(sums))

    def exchange(self, view) -> list:
        return efficiency_exchange(view.concealed)

    # -- helpers over the public view (a user's policy can do the same)
    @staticmethod
    def _allowed(view, legal=None):
        """``uint8 (34,)``: the kinds (as played) of the seat's ``legal`` discards
        (default :attr:`SeatView.legal_discards`), its wild tiles none."""
        allowed = np.zeros(34, dtype=np.uint8)
        wild = view.joker_kinds
        for t in view.legal_discards if legal is None else legal:
            if t in wild:
                continue
            allowed[view.play_kind(t)] = 1
        return allowed

    def _best(self, view, c, j, so, vis, allowed=None, melds=None):
        """``(kind, shanten, ukeire)`` of the best discard (``so`` the compiled options
        of the seat's melds, ``melds`` the melds themselves when not the seat's own);
        under honour chows by the ruleset's shape engine (:func:`_shape_engine_discard`)."""
        allowed = self._allowed(view) if allowed is None else allowed
        if view.model.honor_chows:
            return _shape_engine_discard(view, c, j, view.own_melds if melds is None
                                         else melds, vis, view.voids[view.seat], allowed)
        k, sh, u = _cg.choose_discard(c, so, j, vis, view.voids[view.seat], allowed)
        return k, sh, u

    @staticmethod
    def _evaluate(view, c, j, so, vis, melds=None):
        """``(shanten, live ukeire)`` of a 3n+1 hand (as :meth:`_best`)."""
        if view.model.honor_chows:
            return _shape_engine_ukeire(view, c, j, view.own_melds if melds is None
                                        else melds, vis)
        return _cg.evaluate(c, so, j, vis)

    def declare(self, view, options):
        if ("win",) in options:
            return ("win",)
        return self._kong_option(view, standing_kept(view, options))

    def declare_ready(self, view, discard, waits):
        """报听 (see the module): always where the ruleset requires it or on the dealt hand
        or the first draw (天听 / 地听, offered only where a fan pays them); else when the
        ``waits`` hold at least two live copies, the concealed kind first."""
        kinds = view.ready_offered or view.ready_kinds
        if not kinds:
            return False
        if view.ready_required:
            return kinds[0]
        for k in ("deal", "first_draw"):
            if k in kinds:
                return k
        unseen = view.unseen_counts()
        if sum(int(unseen[k]) for k in waits) < 2:
            return False
        return "concealed" if "concealed" in kinds else kinds[0]

    def open_kong(self, view, kind, waits):
        """开杠 (True) when the chance that a turned tile completes the hand
        (:func:`open_kong_chance`) is at least :data:`OPEN_KONG_CHANCE`, else 补张."""
        return open_kong_chance(view, waits) >= OPEN_KONG_CHANCE

    def _kong_option(self, view, options, slack=lambda s_keep: 0):
        """The first kong of ``options`` (concealed or added) after which the hand's
        shanten is at most the shanten kept by the best discard plus ``slack(kept)``
        (0 for this bot), or None."""
        c, j = view.play_counts()
        vis = view.visible_counts()
        _, s_keep, _ = self._best(view, c, j, view.shape_options(), vis)
        allowed = s_keep + slack(s_keep)
        wild = view.joker_kinds
        for o in options:
            k = o[1]
            c2, j2 = c.copy(), j
            if o[0] == "concealed_kong":
                if k in wild:
                    j2 = j - 4          # 金杠: four jokers leave the hand
                else:
                    c2[k] -= 4
                extra = (Meld("kong", k, True),)
                so = view.shape_options(extra)
                melds = view.own_melds + extra
            else:
                c2[k] -= 1
                so = view.shape_options()
                melds = None            # (an added kong: the pung's copies stay in melds)
            s1, _ = self._evaluate(view, c2, j2, so, vis, melds)
            if s1 <= allowed:
                return o
        return None

    def discard(self, view) -> int:
        c, j = view.play_counts()
        vis = view.visible_counts()
        so = view.shape_options()
        legal = view.legal_discards
        allowed = declaring_allowed(view, self._allowed(view, legal))
        k, sh, _ = self._best(view, c, j, so, vis, allowed)
        if (sh == 0 and view.min_aware and (j == 0 or AWARE_JOKERS)
                and not view.model.honor_chows):     # (there the shape engine judged)
            # among the tenpai discards, one whose waits THE predicate accepts
            live, verdict, wild, hope = self._judge(view, j)
            k2 = self._valid_tenpai(c, j, vis, so, allowed, live, verdict, wild, hope)
            if k2 >= 0:
                k = k2
            elif k2 in STEP_BACK:
                # no tenpai discard can win: a shape toward one that can (a ready hand
                # that can never win would stay so)
                k3 = step_back(c, j, so, vis, view.voids[view.seat], allowed, live,
                               verdict if LOOKAHEAD else None, wild)
                if k3 >= 0:
                    k = k3
        return legal_discard(view, k, legal)

    @staticmethod
    def _judge(view, j):
        """(live copies ``int64 (34,)``, verdict, wild kinds, hope) for weighing the
        seat's waits with ``j`` jokers (:meth:`SeatView.judge_waits`, as the compiled
        loop's bridge): live = the tile set less the melds, its 定缺 suit none; the
        natural copies of a wild kind are no wait (all its copies are wild) unless a
        substitute tile plays as it (安庆)."""
        live = np.array(view.model.shape(view.own_melds).caps, dtype=np.int64)
        void = view.voids[view.seat]
        if void >= 0:
            live[9 * void:9 * void + 9] = 0
        wild = () if view.stand_in is not None else view.joker_kinds
        verdict, hope = view.judge_waits(j)
        return live, verdict, wild, hope

    @staticmethod
    def _valid_tenpai(c, j, vis, so, allowed, live, verdict, wild, hope=None) -> int:
        """:func:`pick_valid_wait` over the tenpai discards of the hand ``c`` (+ ``j``
        jokers; ``so`` the shape options of its melds; ``live``, ``verdict``, ``wild``
        from :meth:`_judge`); ``allowed``: the kinds it may discard (:meth:`_allowed`)."""
        out = np.zeros(34, dtype=np.uint8)
        cands = []
        for x in range(34):
            if not (c[x] and allowed[x]):
                continue
            c[x] -= 1
            if _cg.shanten(c, so, j) == 0:
                _cg.waits(c, so, j, out)
                ws = [(int(w), int(live[w]) - int(c[w]) - int(vis[w]))
                      for w in np.flatnonzero(out) if int(w) not in wild]
                cands.append((x, c.copy(), ws))
            c[x] += 1
        if not cands:
            return -2
        return pick_valid_wait(cands, verdict, hope)

    def claim(self, view, options):
        if ("win",) in options:
            return ("win",)
        last = view.last_discard
        tile = last[1] if last is not None else None
        if tile is None:
            return None
        kind = view.play_kind(tile)
        options = standing_kept(view, options, tile)
        c, j = view.play_counts()
        vis = view.visible_counts()
        s0, u0 = self._evaluate(view, c, j, view.shape_options(), vis)
        best, key = None, (s0, -u0)
        for o in options:
            c2, m = called(c, kind, o)
            so = view.shape_options((m,))
            melds = view.own_melds + (m,)
            if o[0] == "kong":
                s1, u1 = self._evaluate(view, c2, j, so, vis, melds)
                k1 = (s1, -u1)
                if s1 <= s0 and (best is None or k1 < key):
                    best, key = o, k1
                continue
            k, s1, u1 = self._best(view, c2, j, so, vis, np.ones(34, np.uint8), melds)
            if k < 0:
                continue
            k1 = (s1, -u1)
            if k1 < key:
                best, key = o, k1
        return best

    def __repr__(self) -> str:
        return "EfficiencyPlayer()"


class ScriptedPlayer:
    """Replays one seat's logged decisions in order (used by :func:`replay`)."""

    name = "scripted"

    def __init__(self, decisions: list) -> None:
        self.decisions = list(decisions)
        self.i = 0

    def _next(self, kind):
        if self.i >= len(self.decisions):
            raise RuleError(f"replay: the log has no more decisions, the engine asks for "
                            f"{kind}")
        d = self.decisions[self.i]
        self.i += 1
        if d["e"] != kind:
            raise RuleError(f"replay: the engine asks for {kind}, the log has {d['e']} "
                            f"(decision {self.i} of seat {d.get('seat')})")
        return d

    def choose_void(self, view) -> int:
        return int(self._next("void")["suit"])

    def exchange(self, view) -> list:
        return list(self._next("exchange")["tiles"])

    def declare(self, view, options):
        c = self._next("declare")["choice"]
        return None if c is None else tuple(c)

    def discard(self, view) -> int:
        return int(self._next("discard")["tile"])

    def declare_ready(self, view, discard, waits):
        return self._next("ready")["choice"] or False

    def claim(self, view, options):
        c = self._next("claim")["choice"]
        return None if c is None else tuple(c)

    def open_kong(self, view, kind, waits):
        return bool(self._next("open_kong")["choice"])

    def __repr__(self) -> str:
        return "ScriptedPlayer()"


BUILTIN_PLAYERS = {"random": RandomPlayer, "efficiency": EfficiencyPlayer}


def is_policy(x: Any) -> bool:
    """True when ``x`` has the policy methods ``discard``, ``claim`` and ``declare``."""
    return all(callable(getattr(x, m, None)) for m in ("discard", "claim", "declare"))


def seat_players(players: Any, n: int) -> tuple:
    """One player per seat, validated: ``None`` the efficiency bot in every seat, a name
    or a policy object in every seat, else the sequence as a tuple.

    Raises
    ------
    RuleError
        As :func:`make_players` (a wrong count, an unknown name, an object that is no
        policy).
    """
    if players is None:
        players = ("efficiency",) * n
    if isinstance(players, str) or is_policy(players):
        players = (players,) * n
    players = tuple(players)
    make_players(players, n)          # validates names and the count
    return players


def make_players(players: Any, n: int, rng=None) -> list:
    """Policies for the seats: names of built-in bots or policy objects; random bots
    draw from ``rng`` (a numpy Generator shared by the seats, in decision order).

    Raises
    ------
    RuleError
        A wrong number of players, an unknown name, or an object lacking
        ``discard`` / ``claim`` / ``declare``.
    """
    if isinstance(players, str) or is_policy(players):
        players = (players,) * n
    players = list(players)
    if len(players) != n:
        raise RuleError(f"the ruleset is played by {n} players; got {len(players)} "
                        f"player(s): {players!r}")
    out = []
    for i, p in enumerate(players):
        if isinstance(p, str):
            cls = BUILTIN_PLAYERS.get(p.strip().lower())
            if cls is None:
                raise RuleError(f"seat {i}: unknown player {p!r}; built-in players: "
                                f"{', '.join(BUILTIN_PLAYERS)} (or a policy object)")
            out.append(cls(rng if rng is not None else np.random.default_rng(0)))
        elif is_policy(p):
            out.append(p)
        else:
            raise RuleError(f"seat {i}: a player must be a name ({', '.join(BUILTIN_PLAYERS)}) "
                            f"or an object with discard(view), claim(view, options) and "
                            f"declare(view, options); got {p!r}")
    return out

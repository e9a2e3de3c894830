"""The position a probability is asked about, checked: the hand, seen tiles and
ruleset read into a :class:`_Position` (counts, unseen wall, the ruleset's shape options,
THE win predicate as the kernel's callable, :class:`_WinPred`), and the checks of the
other arguments (draws, method, policy, samples, change budget)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import InvalidHandError, MahjongError, RuleError
from ..hand import Hand, as_hand, visible_counts
from ..rules.model import GameModel, RuleSpec, ShapeOptions, game_model
from ..tiles import tile_name
from .limits import GREEDY_258, JOKER, MAX_CHANGES, METHODS, POLICIES, _PredBudget


# ---------------------------------------------------------------------------
# The win predicate handed to the kernel
# ---------------------------------------------------------------------------

class _WinPred:
    """THE win predicate (:func:`check_win`) as the kernel's callable.

    ``pred(h14, win_kind, n_jokers=0)``: ``h14`` the concealed kinds after the draw
    (``uint8 (34,)``), ``win_kind`` the drawn kind (34 = a joker), ``n_jokers`` the
    jokers held after the draw.  Cached per call.  Self-drawn context.

    ``faces`` (``uint8 (34,)``) and ``indicator``: the wild tiles of the position by
    their faces, under a ruleset whose values read them
    (:func:`~majiang.scoring.faces.faces_matter`: 南昌 德国, a 精 standing for its own
    face; 天津 银杠胡 …).  A hand drawing a natural tile is then judged by those faces
    (:func:`~majiang.scoring.faces.check_by_faces`; jokers drawn since are of no known
    face), as the scorer judges it; a joker drawn as the winning tile is judged as a
    joker of no known face.
    """

    def __init__(self, model: GameModel, melds: tuple, ctx: dict, never: bool = False,
                 faces: Any = None, indicator: Any = None):
        self.model, self.melds, self.ctx, self.never = model, melds, ctx, never
        self.faces = None
        self.indicator = indicator
        if faces is not None and int(np.sum(faces)) and model.jokers is not None:
            from ..scoring.faces import faces_matter
            if faces_matter(model.ruleset):
                if indicator is None and model.jokers.source == "fixed":
                    self.indicator = int(model.joker_kinds(None)[0])
                if self.indicator is not None:
                    self.faces = np.asarray(faces, dtype=np.uint8)
        # the compiled verdict where it is the ruleset's (the kernels ask it without the
        # GIL for hands without jokers; None: every query comes here)
        self.kernel_verdict = None
        if not never and self.faces is None:
            from ..scoring.kernel import win_verdict
            self.kernel_verdict = win_verdict(model, melds, ctx.get("seat_wind", 0),
                                              ctx.get("prevalent_wind", 0))
        self.cache: dict = {}
        self.results: dict = {}               # the scored result of each valid key
        self.calls = 0
        self.budget: float | None = None      # JOKER_PRED_BUDGET while an auto search runs
        self.spent = 0.0
        self.units = 0.0                      # all checks so far, 2**jokers each

    def __call__(self, h14: np.ndarray, k: int, n_jokers: int) -> bool:
        if self.never:
            return False
        key = (bytes(h14), int(k), int(n_jokers))
        got = self.cache.get(key)
        if got is not None:
            return got
        self.calls += 1
        self.units += 2.0 ** int(n_jokers)
        if self.budget is not None:
            self.spent += 2.0 ** int(n_jokers)
            if self.spent > self.budget:
                raise _PredBudget(f"more than {self.budget:g} units of winning-hand checks")
        chk = self.check(np.asarray(h14, dtype=np.uint8), int(k), int(n_jokers))
        ok = bool(chk.valid)
        self.cache[key] = ok
        self.results[key] = chk.result if ok else None
        return ok

    def result(self, h14: np.ndarray, k: int, n_jokers: int):
        """The scored result of a win (None when not a win), from the cache of the
        calls made while solving when there is one (no budget applies)."""
        key = (bytes(h14), int(k), int(n_jokers))
        if key not in self.results:
            chk = self.check(np.asarray(h14, dtype=np.uint8), int(k), int(n_jokers))
            self.results[key] = chk.result if chk.valid else None
        return self.results[key]

    def check(self, h14: np.ndarray, k: int, n_jokers: int = 0, self_drawn: bool = True):
        """The :class:`WinCheck` of ``h14`` completed by drawing ``k`` (34 = joker; on a
        discard with ``self_drawn=False``)."""
        from ..scoring import check_win
        before = np.array(h14, dtype=np.uint8)
        if k == JOKER:
            hand = Hand(before, self.melds, (), n_jokers - 1)
            return check_win(hand, None, ruleset=self.model, self_drawn=self_drawn,
                             win_is_joker=True, **self.ctx)
        before[k] -= 1
        try:
            hand = Hand(before, self.melds, (), n_jokers)
        except InvalidHandError:
            from ..scoring import WinCheck
            return WinCheck(False, "not a hand")
        if self.faces is not None:
            from ..scoring.faces import check_by_faces
            return check_by_faces(check_win, before, self.melds, k, n_jokers, self.faces,
                                  self.indicator, ruleset=self.model,
                                  self_drawn=self_drawn, **self.ctx)
        return check_win(hand, k, ruleset=self.model, self_drawn=self_drawn, **self.ctx)


def _raise_pred_error(err: BaseException | None, model: GameModel) -> None:
    if err is None:
        return
    if not isinstance(err, Exception):          # KeyboardInterrupt, SystemExit
        raise err
    if isinstance(err, MahjongError) and not isinstance(err, InvalidHandError):
        raise err
    raise RuleError(f"checking whether a hand wins under {model.name!r} raised "
                    f"{type(err).__name__}: {err}") from err


# ---------------------------------------------------------------------------
# Input handling
# ---------------------------------------------------------------------------

@dataclass
class _Position:
    """A checked position: the hand and what is unseen, with the rule spec's shape
    options for its melds (``shape``, :meth:`RuleSpec.shape
    <majiang.rules.model.RuleSpec.shape>`; ``mask`` / ``quads`` / ``pair_mask`` /
    ``void_suits`` read from it, never stored twice)."""

    model: RuleSpec
    hand: Hand
    counts: np.ndarray           # concealed uint8 (34,)
    jokers: int                  # jokers held
    caps: np.ndarray | None      # copies available to the concealed hand, or None (4 each)
    melds: tuple
    unseen: np.ndarray           # uint8 (34,) drawn as themselves
    joker_unseen: int            # unseen tiles drawn as jokers
    U: int                       # unseen tiles (jokers included)
    shape: ShapeOptions          # the rule spec's shape options for these melds
    pred: _WinPred | None
    note: str = ""
    ctx: dict = field(default_factory=dict)     # seat / prevalent wind of THE predicate
    shown: dict = field(default_factory=dict)   # discard names shown otherwise (安庆 2m -> 7z)
    faces: np.ndarray | None = None             # the held wild tiles by their faces

    @property
    def name(self) -> str:
        return self.model.name

    @property
    def mask(self) -> int:
        """The core's form mask of the ruleset's core forms."""
        return self.shape.mask

    @property
    def quads(self) -> bool:
        return self.shape.quads

    @property
    def pair_mask(self) -> int:
        return self.shape.pair_mask

    @property
    def void_suits(self) -> int:
        return self.shape.void_suits

    def discard_name(self, d: int) -> str:
        """The tile name of discard `d` as the player sees it: ``*`` a joker, a held
        stand-in by its own name (安庆 7z, not the 钻牌 face it plays)."""
        name = _discard_name(d)
        return self.shown.get(name, name)


def _model_of(ruleset: Any) -> GameModel:
    """None / registry name / ``.toml`` path / Ruleset / GameModel -> GameModel."""
    return game_model(ruleset)


def _position(hand: Any, visible: Any, ruleset: Any, *, indicator: Any = None,
              seat_wind: Any = 0, prevalent_wind: Any = 0) -> _Position:
    model = _model_of(ruleset)
    if indicator is not None:        # a rule reading the turned kind (武汉 痞子)
        from ..rules.derived import with_indicator
        model = game_model(with_indicator(model.ruleset, indicator))
    from ..efficiency import read_faces, wild_faces     # stand-ins as themselves
    faces = wild_faces(hand, model.ruleset, indicator)
    hand = read_faces(hand, model.ruleset, indicator)
    if isinstance(hand, str):
        h = as_hand(hand, hand_size=model.hand_size)
    elif isinstance(hand, Hand):
        h = hand
        if h.n_tiles not in (model.hand_size, model.hand_size + 1):
            raise InvalidHandError(
                f"{h.n_tiles} tiles (melds count 3, jokers included): {model.name} plays "
                f"{model.hand_size}-tile hands ({model.hand_size + 1} before a discard)")
    else:
        h = as_hand(hand, strict=False)
    if h.jokers and model.jokers is None:
        raise model.no_jokers(h.jokers)
    model.check_flowers(h.flowers)
    counts = np.ascontiguousarray(h.concealed, dtype=np.uint8)
    vis = visible_counts(visible, h).astype(np.int16)
    held = h.all_counts.astype(np.int16)
    outside = np.flatnonzero((model.copies == 0) & ((held > 0) | (vis > 0)))
    if outside.size:
        raise InvalidHandError(
            f"{tile_name(int(outside[0]))} is not in the tile set of {model.name} "
            f"({model.n_tiles} tiles)")
    model.check_seen(vis, indicator, int(h.jokers))      # the turned copy is seen by itself
    wall = model.wall(indicator)
    seen_jokers = 0
    if wall.joker_kinds:
        # seen tiles as they look, as ukeire reads them: a wild kind's face is a seen
        # joker, a stand-in (安庆 7z) a seen copy of the face it plays
        from ..rules.shapes import stand_in
        vis = vis.copy()
        for k in wall.joker_kinds:
            seen_jokers += int(vis[k])
            vis[k] = 0
        si = stand_in(model.ruleset, indicator)
        if si is not None:
            vis[si[0]] += vis[si[1]]
            vis[si[1]] = 0
    unseen = wall.counts.astype(np.int16) - held - vis
    if unseen.min() < 0:
        k = int(np.argmin(unseen))
        extra = ""
        if k in wall.joker_kinds:
            extra = " (its other copies are jokers: write them as '*')"
        elif k == wall.indicator and model.set_apart(indicator)[k]:
            extra = " (one is the turned indicator, seen already: leave it out of visible)"
        raise InvalidHandError(
            f"{tile_name(k)}: the hand and the visible tiles hold {int(held[k] + vis[k])} "
            f"copies but the wall of {model.name} has {int(wall.counts[k])}{extra}")
    joker_unseen = wall.jokers - h.jokers - seen_jokers
    if joker_unseen < 0:
        raise InvalidHandError(f"{h.jokers} jokers held and {seen_jokers} seen but "
                               f"{model.name} has {wall.jokers}")
    sh = model.shape(h.melds)
    caps = None if bool(np.all(sh.caps == 4)) else np.ascontiguousarray(sh.caps)
    ok, why = (True, "")
    if not any(not m.concealed for m in h.melds):
        ok, why = model.closed_hand_can_win()
    ctx = {"seat_wind": seat_wind, "prevalent_wind": prevalent_wind}
    need_pred = not (sh.exact and model.jokers is None)
    pred = None
    if not ok:
        pred = _WinPred(model, h.melds, ctx, never=True)
    elif need_pred:
        pred = _WinPred(model, h.melds, ctx, faces=faces, indicator=indicator)
    note = "" if ok else (f"P(win) = 0 by rule: a closed hand cannot win under {model.name} "
                          f"({why}); give the hand with its claimed melds")
    if ok and "eight_pairs" in model.forms and not h.melds:
        # 温州 八对: the kernels play the regular form only
        note = "八对 (eight pairs and one) not played: a lower bound"
    return _Position(model, h, counts, int(h.jokers), caps, h.melds,
                     unseen.astype(np.uint8), int(joker_unseen),
                     int(unseen.sum()) + int(joker_unseen), sh, pred, note, ctx,
                     _shown_names(model, indicator), faces)


def _shown_names(model: GameModel, indicator: Any) -> dict:
    """``{face name: stand-in name}`` (:func:`majiang.efficiency._stand_in_names`)."""
    if model.jokers is None or indicator is None:
        return {}
    from ..efficiency import _stand_in_names
    return _stand_in_names(model.ruleset, indicator)


def _check_draws(draws: Any, U: int) -> int:
    if isinstance(draws, bool) or not isinstance(draws, (int, np.integer)):
        raise RuleError(f"draws must be a non-negative integer, got {draws!r}")
    draws = int(draws)
    if draws < 0:
        raise RuleError(f"draws must be >= 0, got {draws}")
    if draws > U:
        raise RuleError(f"{draws} draws: more than the {U} unseen tiles left to draw")
    if draws > 32000:
        raise RuleError(f"{draws} draws: too many (at most 32000)")
    return draws


def _check_method(method: str, policy: str | None) -> None:
    if method not in METHODS:
        raise RuleError(f"unknown method {method!r}; use one of {', '.join(METHODS)}")
    _policy_parts(policy)


def _policy_parts(policy: Any) -> tuple[str | None, int | None]:
    """``(policy, changes)`` of a policy name as results print it (:attr:`Estimate.policy`),
    so that every printed name is accepted back as ``policy=``: ``"optimal"`` and
    ``"greedy"`` stay; ``"greedy (ruleset shanten)"`` is ``"greedy"`` (the only player of
    those rulesets' Monte Carlo); ``"changes<=c"`` is ``changes=c`` with the method's
    default player (the restricted search when exact, its policy on real walls under
    ``method="monte_carlo"``).  Raises :class:`~majiang.RuleError` for other values."""
    if policy is None or policy in POLICIES:
        return policy, None
    if policy == GREEDY_258:
        return "greedy", None
    m = re.fullmatch(r"\s*changes\s*<=\s*(\d+)\s*", policy) if isinstance(policy, str) else None
    if m is not None and int(m.group(1)) <= MAX_CHANGES:
        return None, int(m.group(1))
    raise RuleError(f"unknown policy {policy!r}; use one of {', '.join(POLICIES)}, "
                    f"{GREEDY_258!r} or 'changes<=c' with c in 0..{MAX_CHANGES}")


def _check_samples(n: Any, what: str = "n_samples") -> int:
    """`n` as an int >= 1; RuleError naming the parameter `what` otherwise."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise RuleError(f"{what} must be a positive integer, got {n!r}")
    return int(n)


def _check_changes(changes: Any) -> int | None:
    if changes is None:
        return None
    if (isinstance(changes, bool) or not isinstance(changes, (int, np.integer))
            or not 0 <= changes <= MAX_CHANGES):
        raise RuleError(f"changes must be None or an integer 0..{MAX_CHANGES}, got {changes!r}")
    return int(changes)


def _after_discards(jr: Any, h14: np.ndarray, nj14: int) -> list:
    """``[(discard kind or JOKER, h13, nj13)]``: the hand after each discard of the
    3n+2 hand ``(h14, nj14)`` — each kind held, ascending, then a joker when one is
    held and the joker rule ``jr`` (None = no jokers) lets it be discarded."""
    out = []
    for d in np.flatnonzero(h14):
        h13 = h14.copy()
        h13[d] -= 1
        out.append((int(d), h13, nj14))
    if nj14 and (jr is None or jr.discard):
        out.append((JOKER, h14.copy(), nj14 - 1))
    return out


def _discard_name(d: int) -> str:
    return "*" if d == JOKER else tile_name(d)

"""Questions players ask: which tile to discard (何切).

:func:`advise` ranks the discards of a hand that must discard.  Without a horizon
(``draws=None``) by

1. shanten after the discard (lower is better: 向听数; the ruleset's shanten:
   its forms, tile set, 缺一门 void suit, 二五八将 pair),
2. live ukeire (有效牌) — effective tiles still unseen, counting the visible tiles,
3. the second-order efficiency (改良, "two-step"): the live-weighted average,
   over the effective draws, of the best live ukeire available after that draw
   and the best discard that keeps the lower shanten (higher is better; absent
   for a tenpai discard),
4. the number of effective kinds, then tile order (a stable, documented last resort).

With ``draws=T`` every discard with a finite ruleset shanten gets ``p_tenpai`` and
``p_win`` (probability of being tenpai / of winning within ``T`` self-draws under
the ruleset's game model, :mod:`majiang.probability`), and the discards rank by
**p_win, then p_tenpai, then live ukeire**, then the criteria above.  Under a
ruleset that scores hands the table also gains ``exp_score`` (expected points of the
winning hand within the horizon under the ruleset's scoring rule, 0 for no win; a hand's
value before settlement — who pays, the base stake and the number of payers are not in
it, unlike a position's ``exp_gain``) and
``mean_fan`` (mean fan total given a win), and the columns ``model`` / ``policy``
say what produced the probabilities.

A hand that is already complete is asked first (:func:`completion`): when it is a
valid win under the ruleset — THE win predicate (:func:`majiang.scoring.check_win`)
on some tile of it as the winning one, in the standard win context of a hand given
with none (:func:`majiang.scoring.api.standard_self_drawn`: on a discard, self-drawn
under a ruleset whose wins are self-drawn only; as :func:`majiang.score` and
:func:`majiang.check_win` by default), else self-drawn — the answer is to win, not to
discard: ``advise(...).attrs["win_now"]`` is ``"win now: N fan (9s on a discard)"``
(N the best fan total over the tiles that can have been the winning one, in the ruleset's
unit — ``"N points"`` under 武汉 / 长沙, ``"N tai"`` under 台湾, the bare total under a
points function: :meth:`majiang.rules.ScoringRule.total_text` —, that tile and its
context named; ``"win now (9s …)"`` when the model scores no fan), and the table
below it still ranks the discards, for the player who declines the win.  A hand complete in shape that is no win (MCR below its 8-fan minimum, a
third suit under 缺一门 …) is advised as before and ``attrs["no_win"]`` says why.
Both are None otherwise.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._ranks import rank_key as _rank_key
from ._ranks import shared_ranks as _shared_ranks
from .efficiency import _regional_jokers, discard_columns, discard_table

__all__ = ["advise", "completion", "Completion"]


@dataclass(frozen=True)
class Completion:
    """Whether a complete hand wins now (:func:`completion`).

    Attributes
    ----------
    wins : bool
        A valid win under the ruleset now, in the standard context (on a discard, or
        self-drawn under a self-draw-only ruleset) or else self-drawn.
    fan : int or None
        The best fan total over the tiles that can have been the winning one (None
        when the model scores no fan, or no win).
    text : str
        ``"win now: 14 fan (9s on a discard)"`` (the total in the ruleset's unit:
        ``"win now: 5 points …"`` under 武汉) / ``"win now (9s self-drawn)"``; or
        why a hand complete in shape is no win, e.g. ``"complete shape but no win
        under mcr: below the 8-fan minimum of mcr (7 fan)"``.
    tile : str or None
        The winning tile of that reading (``"*"`` a joker), None without a win.
    self_drawn : bool or None
        Its context: self-drawn (True) or on a discard (False); None without a win.
    """

    wins: bool
    fan: int | None
    text: str
    tile: str | None = None
    self_drawn: bool | None = None


def _with_jokers(hand: Any, jokers: int):
    """``hand`` with ``jokers`` more wild tiles held (advise's ``jokers=``)."""
    if not jokers:
        return hand
    from .hand import Hand, as_hand
    h = as_hand(hand, strict=False)
    return Hand(h.concealed, h.melds, h.flowers, h.jokers + int(jokers))


def completion(hand: Any, *, ruleset: Any = None, forms: Sequence[str] | None = None,
               seven_pairs_quads: bool | None = None, jokers: int = 0, indicator: Any = None,
               seat_wind: Any = 0, prevalent_wind: Any = 0) -> Completion | None:
    """Whether a hand that must discard is complete, and if so whether it wins now.

    The hand's winning tile is not known, so every tile it holds is tried as the winning
    tile under THE win predicate (:func:`majiang.scoring.check_win`, with the given
    winds) in the standard context of a hand given with none
    (:func:`majiang.scoring.api.standard_self_drawn`: on a discard, self-drawn under a
    ruleset whose wins are self-drawn only — the default of :func:`majiang.score` and
    :func:`majiang.check_win`), and self-drawn when no tile wins in that context; the
    hand wins when one of them is a valid win, with the best fan total.
    Without a ruleset the default ruleset's predicate judges (Chinese Official rules);
    ``forms`` / ``seven_pairs_quads`` narrow the ruleset (its other rules stay), and a hand
    with generic jokers and no ruleset gets None (the default ruleset has no jokers).

    Parameters
    ----------
    hand : str, Hand or array_like of shape (34,)
        One tile more than the ruleset's hand size, counting melds as 3 and jokers.
    ruleset, forms, seven_pairs_quads, jokers, indicator, seat_wind, prevalent_wind
        As :func:`advise`.

    Returns
    -------
    Completion or None
        None when the hand is not complete in shape (nor in the shape without the
        ruleset's pair / void-suit constraints), or is not a hand that must discard.

    Raises
    ------
    InvalidHandError, InvalidNotationError, RuleError
        As :func:`majiang.probability.probabilities`.
    """
    from . import probability as P
    from .hand import as_hand

    h = _with_jokers(hand, jokers)
    if ruleset is None and as_hand(h, strict=False).jokers:
        return None     # generic jokers: the default ruleset's predicate has none
    if forms is not None or seven_pairs_quads is not None:
        from .rules.derived import narrowed
        ruleset = narrowed(ruleset, forms, seven_pairs_quads)   # forms= narrows the rules
    pos = P._position(h, None, ruleset, indicator=indicator, seat_wind=seat_wind,
                      prevalent_wind=prevalent_wind)
    if (int(pos.counts.sum()) + pos.jokers) % 3 != 2:
        return None
    from .scoring.api import standard_self_drawn
    engine = P._Engine(pos, 0, None, P.DEFAULT_MAX_STATES)
    standard = standard_self_drawn(ruleset)
    done = P._completion(engine, self_drawn=standard)
    if done is not None and not done.wins and not standard:
        alt = P._completion(engine, self_drawn=True)       # no win on a discard
        done = alt if alt is not None and alt.wins else done
    if done is None:
        return None
    if not done.wins:
        return Completion(False, None, done.text)
    how = f"({done.tile} {'self-drawn' if done.self_drawn else 'on a discard'})"
    total = "" if done.fan is None else f": {pos.model.ruleset.scoring.total_text(done.fan)}"
    return Completion(True, done.fan, "win now" + total + " " + how,
                      done.tile, done.self_drawn)


def advise(hand: Any, visible: Any = None, *, forms: Sequence[str] | None = None,
           seven_pairs_quads: bool | None = None, second_order: bool = True,
           jokers: int | None = None, joker_fifth_copy: bool = False, ruleset: Any = None,
           draws: int | None = None, method: str = "auto", seed: Any = 0,
           n_samples: int | None = None, changes: int | None = None, indicator: Any = None,
           seat_wind: Any = None, prevalent_wind: Any = None, policy: str | None = None,
           by: str | None = None,
           danger_samples: int | None = None, opponent_model: Any = None, void: Any = None,
           model: str | None = None):
    """Discard advice for a hand that must discard, best first (or to win now).

    Given a :class:`majiang.Position` instead of a hand, the advice also weighs the table
    (:func:`majiang.reading.weigh`): the columns gain ``p_deal_in``, ``p_deal_in_se``,
    ``exp_loss`` and ``ev`` (and ``exp_gain`` with ``draws``, which then default to
    :func:`majiang.reading.horizon`), and the rows rank by ``by``.

    Parameters
    ----------
    hand : str, Hand, array_like of shape (34,) or Position
        One tile more than the ruleset's hand size (14, or 17 under 16-tile rulesets),
        counting melds as 3 and jokers.  A :class:`~majiang.position.Position` gives the
        hand (its melds, flowers and held jokers), ``visible`` (the discards on the
        table and the other seats' melds), ``ruleset``, ``indicator``, ``seat_wind``
        and ``prevalent_wind``; giving one of those keywords as well with another value
        (any ``visible``; any ``jokers``, even 0: the position's hand holds its own)
        raises :class:`~majiang.errors.RuleError`.
    visible : str or array_like of shape (34,), optional
        Every tile the player sees besides the hand (discards, exposed melds of
        others); lowers live counts.  Hand + visible may hold at most 4 of a kind.
    forms, seven_pairs_quads, jokers, joker_fifth_copy, ruleset
        Winning forms and wild tiles, as in :func:`majiang.shanten` (default
        ``None``: Chinese Official rules, ``"mcr"``, also for the probability columns;
        ``forms`` narrows the ruleset's forms; ``jokers`` None: none besides the hand's
        ``*``).  Chinese Official rules have no jokers, so a hand holding ``*`` needs a
        ruleset that has them; with no ruleset such a hand is read by shape only (the
        generic wild tile of :func:`majiang.shanten`) and the probability columns
        (``draws``) refuse it.
    second_order : bool
        Compute the two-step tie-break (column ``improvement``); off is faster.
    draws : int, optional
        Horizon for the columns ``p_tenpai``, ``p_win`` (and ``exp_score``,
        ``mean_fan`` under a ruleset that scores hands): see
        :func:`majiang.probability.discard_probabilities`; every discard with a
        finite ruleset shanten is evaluated.  ``None`` (default) leaves them out.
    method, seed, n_samples, changes, indicator, seat_wind, prevalent_wind
        (``seat_wind`` / ``prevalent_wind`` None: East, or the position's.)
        Passed with ``draws`` and ``ruleset`` to the probability model
        (:func:`majiang.probability.probabilities`); ``indicator`` (the turned tile of
        a joker ruleset) also goes to :func:`majiang.discard_table`, so the wild kinds
        (one, or two: 南昌, 天津) are not listed as ordinary draws.  ``n_samples``
        (default None): the Monte Carlo samples, 20,000 for the single-player model
        (:data:`majiang.probability.DEFAULT_SAMPLES`), :data:`TABLE_SAMPLES` hands per
        discard for ``model="table"``.
    model : {None, "single", "table"}
        The probability model of the ``draws`` columns, as
        :func:`majiang.win_probability`'s ``model``: ``None`` / ``"single"`` (default)
        the single-player model (exact where feasible); ``"table"`` the whole-hand
        engine at a full table (:func:`majiang.game.table.table_probabilities`: the
        hand after each discard is dealt to seat 0, the dealer, and the other seats play
        the efficiency bot; a Monte Carlo, columns ``p_tenpai``, ``p_win``, ``se_win``;
        no ``exp_score``).  The table model starts from a deal, so it takes a hand
        without melds or seen tiles (``visible``, a Position: RuleError), ``draws`` of
        at least 1, and no ``method`` / ``policy`` / ``changes`` / ``seat_wind``.

    policy : str, optional
        The play policy of the probabilities, any name they print (``"optimal"``,
        ``"greedy"``, ``"changes<=c"`` …): see :func:`majiang.probability.probabilities`.
    by : {"ev", "efficiency", "safety"}, optional
        With a position only (default ``"ev"``): rank by ``ev`` = ``exp_gain`` (expected
        settlement gain of the seat's own self-drawn wins within ``draws``; ``draws``
        defaults to the seat's remaining draws, at most 3 or, for a hand 3 or more from
        ready, shanten + 2: :func:`majiang.reading.horizon`) minus ``exp_loss`` (expected
        payment if this discard deals in, :func:`majiang.danger`); ``"efficiency"`` keeps
        the order of the keyword call (``draws`` as given, no default) and adds the
        columns; ``"safety"`` ranks by ``exp_loss``.  ``attrs["push_or_fold"]`` says
        whether the best-ev discard is a push (the most attacking), a fold (the safest)
        or a compromise, within ``draws`` (default the seat's horizon, whatever ``by``:
        :func:`push_or_fold`).  ``attrs["kong"]``: when the seat may declare a concealed
        or added kong, whether that beats the advised discard, by ev with a horizon and
        by shanten and winning live tiles without
        (:func:`majiang.waiting_hand.kong_verdict`; :func:`majiang.advise_kong` gives
        the table), else None.  Without a position only ``None`` / ``"efficiency"``.
    danger_samples, opponent_model
        With a position: ``n_samples`` and ``model`` of :func:`majiang.danger`.
    void : str or int, optional
        The declared void suit (定缺) under a ruleset with a void suit: ``"m"``, ``"p"``,
        ``"s"`` or 0..2 (a position gives its seat's own).  The complete hand must lack
        that suit, and while the hand holds tiles of it only those are advised (they are
        discarded first: :func:`majiang.efficiency.void_first`).  ``None``: not declared
        (缺一门 applied as such: the hand lacks some suit).

    Returns
    -------
    pandas.DataFrame
        Columns ``rank, discard, shanten, ukeire_kinds, ukeire_count, ukeire,
        improvement`` (and with ``draws``: ``p_tenpai, p_win, se_win, method, model,
        policy, note``, plus ``exp_score, mean_fan`` when the ruleset scores hands); one
        row per distinct discard, best first.  Discards equal on every ranking
        criterion share a rank.  ``attrs["win_now"]``: ``"win now: N fan"`` when the
        hand is a valid win now (then win rather than discard), else None;
        ``attrs["no_win"]``: why a hand complete in shape is no win, else None
        (:func:`completion`).  Whether to declare a concealed or added kong instead of
        discarding is :func:`majiang.advise_kong` (one line: :func:`majiang.claims.kong_note`).

    Raises
    ------
    InvalidHandError, InvalidNotationError, RuleError
        As :func:`majiang.discard_table` and :func:`majiang.probabilities`.
    KeyboardInterrupt
        Propagated unchanged.

    See Also
    --------
    majiang.advise_kong : declaring a concealed or added kong instead of discarding.
    majiang.advise_claim : whether to claim another seat's discard.
    """
    pos = hand if type(hand).__name__ == "Position" else None
    table_model = _table_model(model, draws, pos)
    if pos is not None:
        from .position import analysis_inputs
        hand, kw = analysis_inputs(hand, "advise", dict(
            visible=visible, ruleset=ruleset, indicator=indicator, seat_wind=seat_wind,
            prevalent_wind=prevalent_wind, jokers=jokers), given_only=True)
        jokers = 0
        visible, ruleset, indicator = kw["visible"], kw["ruleset"], kw.get("indicator")
        seat_wind, prevalent_wind = kw["seat_wind"], kw["prevalent_wind"]
        from .reading import RANKINGS, horizon
        by = "ev" if by is None else by
        if by not in RANKINGS:
            from .errors import RuleError
            raise RuleError(f"by must be one of {', '.join(RANKINGS)}, got {by!r}")
        if draws is None and by != "efficiency":
            draws = horizon(pos)
        from .position import check_draws
        check_draws(pos, draws, "advise")
    else:
        jokers = 0 if jokers is None else jokers
        seat_wind = 0 if seat_wind is None else seat_wind
        prevalent_wind = 0 if prevalent_wind is None else prevalent_wind
    if pos is None and by not in (None, "efficiency"):
        from .errors import RuleError
        from .reading import RANKINGS
        if by not in RANKINGS:
            raise RuleError(f"by must be one of {', '.join(RANKINGS)}, got {by!r}")
        raise RuleError(f"by={by!r} weighs the table: give a majiang.Position instead of a hand")
    if void is not None:
        from .rules.derived import with_void
        ruleset = with_void(ruleset, void)
    if n_samples is None:
        from .probability import DEFAULT_SAMPLES as SINGLE_SAMPLES
        n_samples = TABLE_SAMPLES if table_model else SINGLE_SAMPLES
    table = _advice(hand, visible, forms, seven_pairs_quads, second_order, jokers,
                    joker_fifth_copy, ruleset, draws, method, seed, n_samples, changes,
                    indicator, seat_wind, prevalent_wind, policy, gain=pos is not None,
                    model=model if table_model else None)
    from .efficiency import void_first
    table = void_first(table, ruleset)      # 定缺: the declared suit's tiles go first
    done = None
    if not _surely_incomplete(hand, ruleset, forms, seven_pairs_quads, jokers, indicator):
        done = completion(hand, ruleset=ruleset, forms=forms,
                          seven_pairs_quads=seven_pairs_quads, jokers=jokers,
                          indicator=indicator, seat_wind=seat_wind,
                          prevalent_wind=prevalent_wind)
    table.attrs["win_now"] = done.text if done is not None and done.wins else None
    table.attrs["no_win"] = done.text if done is not None and not done.wins else None
    if pos is not None:             # weigh the table: the danger of each discard
        from .reading import DEFAULT_MODEL, DEFAULT_SAMPLES, horizon, weigh
        table = weigh(table, pos, by=by,
                      n_samples=DEFAULT_SAMPLES if danger_samples is None else danger_samples,
                      seed=seed, model=DEFAULT_MODEL if opponent_model is None
                      else opponent_model)
        gains = None
        if "exp_gain" not in table.columns:     # by="efficiency" without draws
            gains = _probability_columns(
                hand, horizon(pos), visible, _narrow(ruleset, forms, seven_pairs_quads),
                method, seed, n_samples, changes, indicator, seat_wind, prevalent_wind,
                jokers, policy, gain=True)
        table.attrs["push_or_fold"] = push_or_fold(table, gains)
        from .waiting_hand import kong_verdict
        table.attrs["kong"] = kong_verdict(pos, table, draws, seed, by)
    return table


TABLE_SAMPLES = 400
"""Hands played per discard by :func:`advise` with ``model="table"`` when ``n_samples``
is not given (about 2 s per discard under Chinese Official rules on a loaded machine:
the engine plays all four seats; standard error of ``p_win`` at most 0.025)."""


def _table_model(model: Any, draws: Any, pos: Any) -> bool:
    """Whether :func:`advise`'s ``model`` is an extra probability model (``"table"``);
    None / ``"single"`` is the single-player model.  A model without ``draws`` or with a
    Position is refused (RuleError, one line)."""
    from .errors import RuleError
    from .probability.models import SINGLE_PLAYER
    if model is None or model in SINGLE_PLAYER:
        return False
    if draws is None:
        raise RuleError(f"model={model!r} names the probability model of p_win: give draws")
    if pos is not None:
        raise RuleError(f"model={model!r} starts from a deal and does not model a position's "
                        "seen tiles or melds: give the hand, or use the single-player model")
    return True


def _narrow(ruleset: Any, forms: Any, seven_pairs_quads: Any) -> Any:
    """The ruleset narrowed by ``forms`` / ``seven_pairs_quads`` (the probabilities have
    no ``forms=`` of their own)."""
    if forms is None and seven_pairs_quads is None:
        return ruleset
    from .rules.derived import narrowed
    return narrowed(ruleset, forms, seven_pairs_quads)


def push_or_fold(table: Any, gains: Any = None) -> str:
    """Whether to push or fold at a position: ``"push: discard 2m (ev 5.45; the safest,
    3m, has ev 4.98)"``, ``"fold: discard 7z (ev 0.00) rather than push with 9s (ev
    -0.35)"``, or ``"compromise: discard 5p (ev 0.40) rather than push with 9s (ev 0.10)
    or fold with 7z (ev 0.00)"``.

    ``table`` is :func:`advise`'s table at a position (columns ``discard``,
    ``exp_loss``, ``p_deal_in`` and, with a horizon, ``exp_gain``, ``p_win``,
    ``p_tenpai``, ``ukeire_count``); ``gains`` (optional) a frame with ``discard``,
    ``p_win``, ``p_tenpai`` and ``exp_gain`` at the position's default horizon, used in
    place of the table's (``by="efficiency"`` without ``draws`` has none).  The advised
    discard is the best ``ev = exp_gain - exp_loss`` (of equal ones the safer, then tile
    order).  Push is the attacking choice: the highest ``exp_gain``, then ``p_win``,
    ``p_tenpai`` and live ukeire (of equal ones the safer); fold the safest discard (lowest
    ``exp_loss``, then ``p_deal_in``).  The verdict says which of the two the advised
    discard is (push when it attacks as much as the push on all four counts, fold when it
    is as safe as the fold, else a compromise).  It depends on the position and the horizon only, not on the
    table's ranking (``by``).  When no discard can win within the horizon (every
    ``p_win`` and ``exp_gain`` 0: the hand is further from a win than the horizon reaches)
    the verdict says so and names a horizon that would weigh the attack (shanten + 2
    draws), since ``ev`` is then the danger alone."""
    from .tiles import parse_tile
    n = len(table)
    cols = {c: table[c].to_numpy() for c in ("exp_gain", "p_win", "p_tenpai")
            if c in table.columns}
    if gains is not None:       # the horizon's own columns, by discard (a left join)
        at = {d: i for i, d in enumerate(gains["discard"].tolist())}
        rows = np.array([at.get(d, -1) for d in table["discard"].tolist()], dtype=np.int64)
        for c in ("exp_gain", "p_win", "p_tenpai"):
            v = np.append(gains[c].to_numpy(dtype=float), np.nan)
            cols[c] = v[rows]

    def column(name: str, fill: float) -> np.ndarray:
        if name not in cols:
            return np.full(n, fill)
        v = np.asarray(cols[name], dtype=float)
        return np.where(np.isnan(v), fill, v)
    disc = table["discard"].tolist()
    k = np.array([parse_tile(d) for d in disc], dtype=np.int64)
    g, pw, pt = column("exp_gain", 0.0), column("p_win", -1.0), column("p_tenpai", -1.0)
    u = (table["ukeire_count"].to_numpy(dtype=float) if "ukeire_count" in table.columns
         else np.zeros(n))
    loss = table["exp_loss"].to_numpy(dtype=float)
    ev_ = g - loss
    # first rows of stable sorts (np.lexsort: the last key most significant)
    best = int(np.lexsort((k, loss, -ev_))[0])
    push = int(np.lexsort((k, loss, -u, -pt, -pw, -g))[0])
    safe = int(np.lexsort((k, table["p_deal_in"].to_numpy(dtype=float), loss))[0])

    def ev(i: int) -> str:
        return f"ev {ev_[i]:.2f}"
    # no discard wins within the horizon (a hand too far for it): ev is the danger alone
    blind = ""
    if (g <= 0).all() and (pw <= 0).all() and "shanten" in table.columns:
        s = int(table["shanten"].min())
        blind = (f" — no discard wins within the horizon from {s}-shanten, so ev weighs "
                 f"the danger alone: give draws={s + 2} or more to weigh the attack")
    attack = np.stack((g, pw, pt, u))
    if (attack[:, best] >= attack[:, push]).all():
        return (f"push: discard {disc[best]} ({ev(best)}; the safest, "
                f"{disc[safe]}, has {ev(safe)})" + blind)
    if loss[best] <= loss[safe]:
        return (f"fold: discard {disc[best]} ({ev(best)}) rather than push with "
                f"{disc[push]} ({ev(push)})" + blind)
    return (f"compromise: discard {disc[best]} ({ev(best)}) rather than push with "
            f"{disc[push]} ({ev(push)}) or fold with {disc[safe]} ({ev(safe)})" + blind)


def _surely_incomplete(hand: Any, ruleset: Any, forms: Any, seven_pairs_quads: Any,
                       jokers: int, indicator: Any) -> bool:
    """Whether the hand is surely not complete, so that :func:`completion` (about 0.1 ms)
    need not be asked: the ruleset has no pair or void-suit rule (so the shape without
    those rules, which :func:`completion` also tries, is the ruleset's shape) and its
    shanten (:func:`majiang.shanten`, about 1 µs) is not -1.  False whenever unsure."""
    from .efficiency import shanten
    from .rules.model import ALL_PAIRS, game_model
    try:
        opts = game_model(ruleset).shape(())
        if opts.pair_mask != ALL_PAIRS or opts.void_suits:
            return False
        return shanten(hand, ruleset=ruleset, forms=forms, seven_pairs_quads=seven_pairs_quads,
                       jokers=jokers, indicator=indicator) >= 0
    except Exception:       # anything odd: let completion() decide and report
        return False


def _advice(hand, visible, forms, seven_pairs_quads, second_order, jokers, joker_fifth_copy,
            ruleset, draws, method, seed, n_samples, changes, indicator, seat_wind,
            prevalent_wind, policy, gain=False, model=None):
    """The ranked discard table of :func:`advise` (``gain``: with ``draws``, add the column
    ``exp_gain`` of :func:`majiang.reading.exp_gain`; ``model``: an extra probability
    model of the ``draws`` columns, :func:`_model_columns`)."""
    rs = _regional_jokers(ruleset, forms, indicator)     # a fixed joker kind needs none
    if draws is None and rs is None:
        table = _advise_columns(hand, visible, forms, seven_pairs_quads, second_order, jokers,
                                joker_fifth_copy, ruleset)
        if jokers:
            return table
        return _valid_waits(table, hand, visible, ruleset, forms, seven_pairs_quads,
                            seat_wind, prevalent_wind)
    table = discard_table(hand, visible, forms=forms, seven_pairs_quads=seven_pairs_quads,
                          second_order=second_order, jokers=jokers,
                          joker_fifth_copy=joker_fifth_copy, ruleset=ruleset,
                          indicator=indicator)
    if draws is not None:
        from .rules.derived import narrowed
        prob_rs = (ruleset if forms is None and seven_pairs_quads is None
                   else narrowed(ruleset, forms, seven_pairs_quads))     # forms= narrows
        if model is not None:
            probs = _model_columns(model, hand, draws, visible, prob_rs, method, seed,
                                   n_samples, changes, indicator, seat_wind, prevalent_wind,
                                   jokers, policy)
        else:
            probs = _probability_columns(hand, draws, visible, prob_rs, method, seed,
                                         n_samples, changes, indicator, seat_wind,
                                         prevalent_wind, jokers, policy, gain)
        table = _join_discards(table, probs)
    imp = np.nan_to_num(table["improvement"].to_numpy(dtype=float), nan=-1.0)
    crit = [table["shanten"].to_numpy(dtype=float), table["ukeire_count"].to_numpy(dtype=float),
            imp, table["ukeire_kinds"].to_numpy(dtype=float)]
    sign = [1.0, -1.0, -1.0, -1.0]              # shanten ascending, the others descending
    if draws is not None:                       # p_win, then p_tenpai, then live ukeire
        # to 12 significant digits: mirror-image discards tie, not rank on float noise
        pw = _rank_key(np.nan_to_num(table["p_win"].to_numpy(dtype=float), nan=-1.0))
        pt = _rank_key(np.nan_to_num(table["p_tenpai"].to_numpy(dtype=float), nan=-1.0))
        crit = [pw, pt, crit[1], crit[0], imp, crit[3]]
        sign = [-1.0, -1.0, -1.0, 1.0, -1.0, -1.0]
    order = np.lexsort([s * c for s, c in zip(sign, crit)][::-1])    # stable
    out = table.take(order).reset_index(drop=True)
    out.insert(0, "rank", _shared_ranks(np.stack([c[order] for c in crit], axis=1)))
    return out


def _join_discards(table: Any, probs: Any) -> Any:
    """``table.merge(probs, on="discard", how="left")``, without the merge when both list
    the same discards in the same order (the usual case: one row per discard kind in
    tile order), which is a column-wise concatenation."""
    import pandas as pd
    if table["discard"].tolist() != probs["discard"].tolist():
        return table.merge(probs, on="discard", how="left")
    right = probs.drop(columns="discard")
    right.index = table.index
    return pd.concat([table, right], axis=1)


def _rank_order(sh, count, impr, kinds):
    """Stable best-first order and shared ranks of the discard columns (no draws).

    Keys, most significant first: shanten ascending, live ukeire descending,
    improvement descending (NaN counts as -1), effective kinds descending; ties keep
    tile order.  Returns ``(order, ranks)``, int64 arrays of the row count."""
    imp = np.where(np.isnan(impr), -1.0, impr)
    order = np.lexsort((-kinds, -imp, -count, sh))
    crit = np.stack((sh[order].astype(np.float64), count[order].astype(np.float64),
                     imp[order], kinds[order].astype(np.float64)), axis=1)
    return order, _shared_ranks(crit)


def _ranked_columns(hand, visible, forms, seven_pairs_quads, second_order, jokers,
                    joker_fifth_copy, ruleset):
    """The kernel's discard columns of a hand that must discard and their ranking
    (no draws, no regional shape rules).

    Returns ``(names, sh, kinds, count, texts, impr, order, ranks)``: ``names`` and
    ``texts`` lists of str in tile order; ``sh``, ``kinds``, ``count`` int64 and
    ``impr`` float64 arrays in tile order; ``order`` the best-first permutation and
    ``ranks`` the rank of each row *in that order* (int64).  Raises as
    :func:`majiang.discard_table`."""
    names, sh, kinds, count, texts, impr = discard_columns(
        hand, visible, forms, seven_pairs_quads, second_order, jokers, joker_fifth_copy,
        ruleset)
    order, ranks = _rank_order(sh, count, impr, kinds)
    return names, sh, kinds, count, texts, impr, order, ranks


def _advise_columns(hand, visible, forms, seven_pairs_quads, second_order, jokers,
                    joker_fifth_copy, ruleset):
    """advise() without draws and without regional shape rules: the kernel's discard
    columns ranked in NumPy, one DataFrame at the end (same table as before issue 12)."""
    import pandas as pd

    names, sh, kinds, count, texts, impr, order, ranks = _ranked_columns(
        hand, visible, forms, seven_pairs_quads, second_order, jokers, joker_fifth_copy,
        ruleset)
    idx = order.tolist()
    return pd.DataFrame({"rank": ranks, "discard": [names[i] for i in idx],
                         "shanten": sh[order], "ukeire_kinds": kinds[order],
                         "ukeire_count": count[order], "ukeire": [texts[i] for i in idx],
                         "improvement": impr[order]}, copy=False)


def _probability_columns(hand, draws, visible, ruleset, method, seed, n_samples, changes,
                         indicator, seat_wind, prevalent_wind, jokers, policy=None,
                         gain=False):
    """One row per discard: p_tenpai, p_win, se_win, method, model, policy, note (+ exp_score,
    mean_fan when the ruleset scores hands; + exp_gain with ``gain``)."""
    import pandas as pd

    from . import probability as P

    hand = _with_jokers(hand, jokers)
    pos, engine, res = P._discard_results(       # every rule spec scores its wins
        hand, draws, visible, ruleset, method, seed, n_samples, policy, changes, 1,
        P.DEFAULT_MAX_STATES, True, indicator, seat_wind, prevalent_wind, keep_wins=True)
    rows = []
    for d, r in res.items():
        row = {"discard": pos.discard_name(d)}      # a stand-in discarded as itself
        if r is None:
            rows.append(row)
            continue
        row.update(p_tenpai=r.p_tenpai, p_win=r.p_win, se_win=r.se_win, method=r.method,
                   model=r.model, policy=r.policy, note=r.note)
        row["exp_score"], row["mean_fan"] = P._score_summary(pos, r)
        if gain:
            from .reading import exp_gain
            row["exp_gain"] = exp_gain(pos, r)
        rows.append(row)
    cols = ["discard", "p_tenpai", "p_win", "se_win", "method", "model", "policy", "note",
            "exp_score", "mean_fan"] + (["exp_gain"] if gain else [])
    return pd.DataFrame(rows, columns=cols)


def _model_columns(model, hand, draws, visible, ruleset, method, seed, n_samples, changes,
                   indicator, seat_wind, prevalent_wind, jokers, policy):
    """One row per discard kind: p_tenpai, p_win, se_win, method, model, policy, note from
    the extra probability model ``model`` (``"table"``: the hand after the discard played
    at a full table, :func:`majiang.win_probability` ``model="table"``), each discard
    with ``n_samples`` hands and the same ``seed``.  Options the model does not take are
    passed only when given, so that it refuses them in its own words (RuleError)."""
    import pandas as pd

    from .hand import Hand, as_hand
    from .probability.models import _extra_model
    from .tiles import tile_name

    run = _extra_model(model)
    h = as_hand(_with_jokers(hand, jokers), strict=False)
    kw: dict[str, Any] = {"ruleset": ruleset, "n_samples": n_samples, "seed": seed,
                          "prevalent_wind": prevalent_wind}
    extra = {"visible": visible, "indicator": indicator, "policy": policy,
             "changes": changes, "method": None if method == "auto" else method,
             "seat_wind": None if seat_wind in (0, "E", "east") else seat_wind}
    kw.update({k: v for k, v in extra.items() if v is not None})
    rows = []
    for k in np.flatnonzero(np.asarray(h.concealed)).tolist():
        c = np.array(h.concealed, dtype=np.uint8)
        c[k] -= 1
        r = run(Hand(c, h.melds, h.flowers, h.jokers), draws, **kw)
        w, t = r.win, r.tenpai
        rows.append({"discard": tile_name(k), "p_tenpai": t.value, "p_win": w.value,
                     "se_win": w.se, "method": w.method, "model": w.model,
                     "policy": w.policy, "note": w.note})
    return pd.DataFrame(rows, columns=["discard", "p_tenpai", "p_win", "se_win", "method",
                                       "model", "policy", "note"])


# ------------------------------------------------ waits that win (a minimum in fan / points)
def _valid_waits(table, hand, visible, ruleset, forms, seven_pairs_quads, seat_wind,
                 prevalent_wind):
    """advise()'s table (no draws) with the waits that win under a ruleset whose complete
    shapes may still not win (a minimum in fan or in points, Chinese Official rules' 8
    fan; :meth:`RuleSpec.shape <majiang.rules.model.RuleSpec.shape>` not exact).

    For each tenpai row (shanten 0 after the discard) every shape wait
    (:func:`majiang.scoring.waiting.waits`) is judged by THE win predicate
    (:func:`majiang.scoring.check_win`, with the given winds) on a discard and
    self-drawn.  Adds the columns ``valid_ukeire`` (int: the live copies of the waits
    that win on a discard or self-drawn; the row's ``ukeire_count`` on rows that are
    not tenpai) and ``waits_fan`` (str: ``"3m:9/10 6m:<8"``, each wait's fan total on a
    discard / self-drawn, ``<8`` below the minimum, ``no`` another reason; ``"not
    ready: …"`` when no wait wins; None on rows not tenpai), and ranks by shanten,
    then ``valid_ukeire``, then the criteria before.  The table is unchanged under a
    ruleset whose complete shapes all win, and for hands with jokers."""
    from .hand import as_hand
    from .rules.model import game_model
    from .rules.derived import narrowed

    rs = (ruleset if forms is None and seven_pairs_quads is None
          else narrowed(ruleset, forms, seven_pairs_quads))
    model = game_model(rs)
    if model.shape(()).exact:
        return table
    tenpai = table["shanten"].to_numpy() == 0
    if not tenpai.any():            # nothing to judge: the ranking stands
        return table.assign(valid_ukeire=table["ukeire_count"].to_numpy(dtype=np.int64),
                            waits_fan=None)
    h = as_hand(hand, hand_size=model.hand_size)
    if h.jokers:
        return table
    from .hand import Hand, visible_counts
    from .tiles import parse_tile
    from .waiting_hand import winning_waits

    outside = visible_counts(visible).astype(np.int64)     # seen outside the hand
    for m in h.melds:
        for t in m.tiles:
            outside[t] += 1
    valid, texts = [], []
    for d, sh, count in zip(table["discard"], table["shanten"], table["ukeire_count"]):
        if sh != 0:
            valid.append(int(count))
            texts.append(None)
            continue
        c = np.array(h.concealed, dtype=np.uint8)
        c[parse_tile(d)] -= 1
        total, text = winning_waits(model, rs, Hand(c, h.melds, h.flowers), outside,
                                    parse_tile(d), seat_wind, prevalent_wind)
        valid.append(total)
        texts.append(text)
    out = table.assign(valid_ukeire=np.array(valid, dtype=np.int64), waits_fan=texts)
    sh = out["shanten"].to_numpy(dtype=np.int64)
    imp = out["improvement"].fillna(-1.0).to_numpy(dtype=np.float64)
    order = np.lexsort((-out["ukeire_kinds"].to_numpy(dtype=np.int64), -imp,
                        -out["ukeire_count"].to_numpy(dtype=np.int64),
                        -out["valid_ukeire"].to_numpy(dtype=np.int64), sh))
    out = out.iloc[order].reset_index(drop=True)
    crit = np.stack([sh[order], out["valid_ukeire"], out["ukeire_count"], imp[order],
                     out["ukeire_kinds"]], axis=1).astype(np.float64)
    out["rank"] = _shared_ranks(crit)
    return out

"""``majiang.play_match``: hands played one after another, the deal, the dealer's streak,
the prevalent wind and the scores carried from each hand to the next.

:func:`majiang.simulate` plays independent hands (the deal passes every hand).  A match
follows the ruleset's own rule for who deals next (连庄 / 轮庄 / 抢庄:
:attr:`Ruleset.next_dealer_rule <majiang.rules.Ruleset.next_dealer_rule>`, one
:class:`~majiang.rules.table_rules.DealerRule` per ruleset), gives each hand the dealer's
streak through the ruleset's streak option (台湾 ``dealer_repeats``, 广东
``dealer_streak`` …: :meth:`DealerRule.streak_options
<majiang.rules.table_rules.DealerRule.streak_options>`), and moves the prevalent wind
(圈风) on each time the deal has gone once round the table.  Each hand is
:func:`majiang.game.play_hand` and its row :func:`majiang.game.logs.summarize`, as in
:func:`majiang.simulate`.
"""
from __future__ import annotations

from typing import Any

from .._parallel import int_seed
from ..errors import RuleError
from .runner import COLUMNS

__all__ = ["play_match", "MATCH_COLUMNS", "MAX_HANDS_PER_ROUND"]

MATCH_COLUMNS = ("match", "prevalent_wind", "dealer_streak", "scores")
"""The columns :func:`play_match` adds to :data:`majiang.game.runner.COLUMNS`."""

MAX_HANDS_PER_ROUND = 100
"""A match of ``rounds`` stops with a RuleError after ``MAX_HANDS_PER_ROUND`` × rounds ×
players hands (the dealer kept the deal nearly every hand: a table that never wins
under a rule that keeps the deal on a drawn hand)."""


def _is_int(x) -> bool:
    import numpy as np
    return not isinstance(x, (bool, np.bool_)) and isinstance(x, (int, np.integer))


def play_match(ruleset: Any, players: Any = None, *, hands: int | None = None,
               rounds: int | None = None, matches: int = 1, seed: Any = 0,
               exchange3: bool = False, logs: bool = False):
    """Play matches of hands whose dealer, dealer streak, prevalent wind and scores carry
    from one hand to the next, and return one row per hand.

    Each match starts with seat 0 (East) dealing, a streak of 0, the prevalent wind
    East and every score at 0.  After each hand the ruleset's
    :class:`~majiang.rules.table_rules.DealerRule` (``Ruleset.next_dealer_rule``) names the
    next dealer: he keeps the deal (连庄) on his win or, by ruleset, a drawn hand;
    otherwise his 下家 (or, by ruleset, the winner or the discarder) deals.  The
    dealer's streak (the deals he has kept in a row) goes to the hand through the rule's
    streak option (台湾 / 安庆 ``dealer_repeats``, 广东 ``dealer_streak``, 罗源 ``repeat``: the
    streak; 杭州 / 温州 ``dealer_deal``: the streak + 1), so the hand is scored with it;
    that option's value in ``ruleset`` is replaced hand by hand.  The prevalent wind
    moves on each time the deal has passed to another seat ``players`` times.  Hands
    are played one after another in this process (each depends on the last).

    Parameters
    ----------
    ruleset : str or Ruleset
        A registered name (or house-rule ``.toml``), or a Ruleset object.
    players : str, policy object or sequence of them, optional
        One per seat, as in :func:`majiang.simulate` (default ``"efficiency"``).
    hands : int, optional
        Hands per match (>= 0).
    rounds : int, optional
        Instead of ``hands``: play until the deal has passed ``rounds`` × players times
        (``rounds=4``: 东南西北, the full game).  Default (neither given): ``rounds=1``.
    matches : int
        Independent matches (>= 1), one after another.
    seed : int, SeedSequence, numpy Generator or None
        A non-negative int, a ``numpy.random.SeedSequence`` or ``numpy.random.Generator``
        (default ``0``: the same answer every call; ``None``: fresh entropy, a different
        answer every call).  The
        hands of all matches are numbered 0, 1, 2 … in play order (the ``hand``
        column) and hand ``i`` draws from the stream of ``play_hand(seed=seed,
        hand=i)``; a row replays with ``play_hand(ruleset, players, seed=row.seed,
        hand=row.hand, dealer=row.dealer, prevalent_wind=row.prevalent_wind)`` under
        the ruleset with the row's streak.  Under a ruleset whose deal passes every
        hand (``mcr``) one match of ``hands=k`` plays the hands of
        ``simulate(ruleset, k, seed=seed)``.
    exchange3, logs : bool
        As in :func:`majiang.simulate`.

    Returns
    -------
    pandas.DataFrame
        One row per hand in play order: the columns of :func:`majiang.simulate`
        (:data:`~majiang.game.runner.COLUMNS`, + ``log``), then ``match`` (int64, from
        0), ``prevalent_wind`` (int64, 0..3 = East..North), ``dealer_streak`` (int64:
        the deals the dealer had kept in a row before this hand, the value given to the
        streak option less ``streak_from``) and ``scores`` (per seat, each seat's total
        after this hand in the match: the running sum of ``score_deltas``).
        ``attrs["players"]`` as in :func:`majiang.simulate`; ``attrs["dealer_rule"]``
        the rule in plain text.

    Raises
    ------
    RuleError
        Unknown ruleset or player, a wrong number of players, ``hands`` and ``rounds``
        both given, a ``hands`` / ``rounds`` / ``matches`` that is not a non-negative
        int (``rounds`` and ``matches`` at least 1), a bad ``seed``, ``exchange3``
        under a ruleset without 定缺, or a match of ``rounds`` that has not ended
        after :data:`MAX_HANDS_PER_ROUND` hands a round per seat.
    IllegalMoveError
        A policy's illegal move.
    """
    from ..rules.model import game_model
    from ..rules.toml import with_options
    from .engine import play_hand
    from .engine.deal import check_exchange
    from .logs import summarize
    from .players import seat_players
    from .store import frame, player_names
    model = game_model(ruleset)
    if hands is not None and rounds is not None:
        raise RuleError("give hands or rounds, not both")
    if hands is not None and (not _is_int(hands) or hands < 0):
        raise RuleError(f"hands must be a non-negative int (hands per match), got {hands!r}")
    if hands is None:
        rounds = 1 if rounds is None else rounds
        if not _is_int(rounds) or rounds < 1:
            raise RuleError(f"rounds must be a positive int (times the deal goes round the "
                            f"table), got {rounds!r}")
    if not _is_int(matches) or matches < 1:
        raise RuleError(f"matches must be a positive int, got {matches!r}")
    check_exchange(model, exchange3)
    seed = int_seed(seed)
    n = model.players
    players = seat_players(players, n)
    rule = model.ruleset.next_dealer_rule
    built: dict = {}

    def ruleset_of(streak: int):          # each streak's ruleset built once
        if streak not in built:
            opts = rule.streak_options(model.ruleset, streak)
            built[streak] = with_options(model.ruleset, **opts) if opts else model.ruleset
        return built[streak]
    # a match of rounds ends after `goal` passes of the deal; one of hands after `cap` hands
    goal = 0 if hands is not None else int(rounds or 1) * n
    cap = int(hands) if hands is not None else MAX_HANDS_PER_ROUND * goal

    rows: list = []
    for m in range(int(matches)):
        dealer = streak = passes = played = 0
        scores = [0] * n
        while played < cap and (hands is not None or passes < goal):
            wind = (passes // n) % 4
            st = play_hand(ruleset_of(streak), players, seed=seed, hand=len(rows),
                           dealer=dealer, prevalent_wind=wind, log=logs,
                           exchange3=exchange3)
            row = summarize(st)
            if logs:
                row["log"] = st.events
            scores = [a + int(b) for a, b in zip(scores, row["score_deltas"])]
            row.update(match=m, prevalent_wind=wind, dealer_streak=streak, scores=scores)
            rows.append(row)
            played += 1
            nxt = rule.next_dealer(dealer, row["winners"], row["discarder"], n)
            streak = streak + 1 if nxt == dealer else 0
            passes += nxt != dealer
            dealer = nxt
        if passes < goal:
            raise RuleError(f"the match did not end within {cap} hands: the deal passed "
                            f"{passes} of {goal} times")
    cols = list(COLUMNS) + (["log"] if logs else []) + list(MATCH_COLUMNS)
    table = frame({c: [r[c] for r in rows] for c in cols}, cols)
    for c in ("match", "prevalent_wind", "dealer_streak"):
        table[c] = table[c].astype("int64")
    table.attrs["players"] = player_names(players)
    table.attrs["dealer_rule"] = rule.describe()
    return table

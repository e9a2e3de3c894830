"""One hand from the front door (:func:`play_hand`): the compiled loop when it can play
the hand, else the Python loop."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..._parallel import plain_seed
from ...errors import RuleError
from ...rules.model import game_model
from ..players import SeatView, is_policy, make_players
from .deal import check_exchange
from .facts import (discard_win, discard_win_possible, flower_win, rob_split,
                    seven_rob_one)
from .fast import fast_eligible, play_fast
from .loop import _Game
from .state import HandState
from .wall import _Shuffled, build_wall, hand_bit_generator


def _header_options(rs) -> dict:
    """``{"options": ...}`` for a log header when `rs` is a built-in ruleset built with
    other options (:func:`~majiang.rules.toml.changed_options`), else ``{}``."""
    from ...rules.toml import changed_options
    got = changed_options(rs)
    return {"options": {k: list(v) if isinstance(v, tuple) else v for k, v in got.items()}} \
        if got else {}


def play_hand(ruleset: Any, players: Any = None, *, seed: Any = 0, hand: int = 0,
              wall: Any = None, dealer: int | None = None, prevalent_wind: int | None = None,
              log: bool = False, deal_only: bool = False, engine: str = "auto",
              exchange3: bool = False) -> HandState:
    """Play one hand (一局) and return its final :class:`HandState`.

    Parameters
    ----------
    ruleset : str, Ruleset or GameModel
    players : str, policy object, or a sequence of them, optional
        One per seat, or one for every seat (``"efficiency"`` by default; ``"random"``; or an object with
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
        drawn from index 0; replacements from the end.  With one wall per seat
        (``WallEnd.per_seat``, ``"mcr_botzone"``) the wall is cut into equal quarters,
        East's first, and each seat takes from the end of its own quarter (deal,
        draws and kong replacements alike), as Botzone's judge does.
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
        ruleset says so (``Ruleset.exchange == 3``).  Refused (RuleError) under a
        ruleset without 定缺 (no void suit, or 缺门 at the win only), and when not a bool.
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
    check_exchange(model, exchange3)
    n = model.players
    if players is None:
        players = ("efficiency",) * n
    if isinstance(players, str) or is_policy(players):
        players = (players,) * n       # one name or one policy object for every seat
    if engine not in ("auto", "compiled", "python"):
        raise RuleError(f"engine must be auto, compiled or python, got {engine!r}")
    if dealer is None:
        dealer = int(hand) % n
    if prevalent_wind is None:
        prevalent_wind = (int(hand) // n) % 4
    if engine != "python" and not deal_only \
            and len(players) == n and fast_eligible(model, players, log):
        if not 0 <= int(dealer) < n:
            raise RuleError(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")
        st = play_fast(model, players, seed=seed, hand=hand, wall=wall, dealer=dealer,
                       prevalent_wind=prevalent_wind, exchange3=exchange3)
        if not ((flower_win(model) and any(len(s.flowers) == model.n_flowers
                                           for s in st.seats))
                or (seven_rob_one(model)
                    and rob_split(len(s.flowers) for s in st.seats) is not None)
                or (discard_win(model) and discard_win_possible(model, st.seats))):
            return st
        # a seat collected every flower (八仙過海 ends the hand there) or may have won on
        # its own discards (十风): the compiled loop does not stop for it, the Python loop
        # (same moves up to there) does
    elif engine == "compiled":
        raise RuleError("engine='compiled' needs built-in players, a ruleset without extra "
                        "forms, honour chows, unusual jokers (substitute tiles, claimable "
                        "jokers), one wall per seat, a win that goes ahead of a nearer one "
                        "(灌南 七对先胡) or ready declarations (报听), and no log")
    bg = hand_bit_generator(seed, hand)
    if wall is None:
        wall = _Shuffled(build_wall(model, np.random.Generator(bg)))
    pols = make_players(players, n, np.random.Generator(bg))
    st = HandState(model, pols, seed=seed, hand=hand, wall=wall, dealer=dealer,
                   prevalent_wind=prevalent_wind, log=log, exchange3=exchange3)
    st.bitgen = bg
    if st.events is not None:
        st.events.append({"e": "header", "ruleset": st.rs.name, "hand": int(hand),
                          "seed": seed if isinstance(seed, (int, type(None))) else str(seed),
                          "dealer": st.dealer, "prevalent_wind": st.prevalent,
                          "exchange3": st.exchange3,
                          "players": [getattr(p, "name", type(p).__name__) for p in pols],
                          "wall": [int(x) for x in st.wall], **_header_options(st.rs)})
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

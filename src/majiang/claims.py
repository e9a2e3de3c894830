"""Whether to claim a discard (吃 / 碰 / 杠 / 和): :func:`advise_claim`.

At a :class:`majiang.Position` where the seat waits (it holds the ruleset's hand size)
and another seat's discard is on offer (:attr:`Position.last_discard`), the choices are

* ``"win"`` — win on the discard (和): offered when the win predicate
  (:func:`majiang.check_win`, on a discard, with the position's winds and flowers; the
  last copy when the other three are shown — on the table or in the seat's own melds —
  and the last tile when the wall is empty) says
  the hand plus the tile is a valid win: never under a ruleset whose wins are self-drawn
  only, and under Chinese Official rules only with at least 8 fan;
* ``"kong"`` — an exposed kong (明杠) with three held copies (ruleset call
  ``"exposed_kong"``); the seat then draws a replacement tile, so no discard follows;
* ``"pung"`` — with two held copies (call ``"pung"``);
* ``"chow 3-4-5m"`` — each way the tile fits a run with two held tiles, only from the
  seat before in turn order (call ``"chow_left"``; rulesets without it have no chow);
* ``"pass"``.

Each choice is judged on the position after it, built with :meth:`Position.replace`
(the called tile leaves the river: its discard is marked claimed and counted in the
seat's meld) and read by the same analyses as :func:`majiang.advise`:

* after a chow or pung the seat must discard: the row is :func:`majiang.advise`'s best
  discard of that position (``discard``, its ``shanten`` and live ``ukeire``, and with
  ``draws`` its ``p_tenpai`` / ``p_win``; with ``danger=True`` also ``p_deal_in``,
  ``exp_loss`` and ``ev`` of that discard, ranked by ``ev`` inside :func:`majiang.advise`);
* after a pass or a kong the seat waits for a draw: :func:`majiang.shanten` and
  :func:`majiang.ukeire` (live counts from the position's visible tiles) of the waiting
  hand, and with ``draws`` :func:`majiang.probabilities` (a kong's replacement tile is
  one draw more: its horizon is ``draws + 1``); no discard is made now, so
  ``exp_loss`` is 0 and ``ev`` is ``exp_gain`` (:func:`majiang.reading.exp_gain`: the
  expected settlement of the seat's own self-drawn wins within the horizon), NaN
  without ``draws``;
* the win row has shanten -1, ``p_win`` 1 and its ``fan``.

Rows rank as :func:`majiang.advise`: the win first, then with ``draws`` and
``danger=True`` by ``ev`` (``exp_gain - exp_loss``: only the danger of the discard made
now counts, as in :func:`majiang.advise`), then (with ``draws``) ``p_win``,
``p_tenpai``, then ``shanten`` ascending, ``valid_ukeire`` descending (under a ruleset
with a minimum in fan, Chinese Official rules' 8 fan: the live copies of a ready hand's
waits that reach it, :func:`majiang.waiting_hand.winning_waits`, so a call that leaves
no 8-fan wait ranks below a pass that keeps one; the live ukeire elsewhere) and live
``ukeire`` descending.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .hand import chow_tiles, chows_holding
from .waiting_hand import choice_text, kong_options, position_call_allowed, waiting_row

__all__ = ["advise_claim", "advise_kong"]


def _error(msg: str):
    from .errors import RuleError
    return RuleError(msg)


def _offer(position: Any, tile: Any) -> tuple[int, int]:
    """``(seat, kind)`` of the discard on offer, checked (one-line RuleError)."""
    from .tiles import parse_tile, tile_name
    if type(position).__name__ != "Position":
        raise _error("advise_claim needs a majiang.Position (the table: discards, melds, seat)")
    if position.must_discard:
        raise _error(f"seat {position.seat} holds {position.hand_size + 1} tiles and must "
                     "discard: there is no discard to claim")
    last = position.last_discard
    if last is None:
        raise _error("no discard is on offer in this position (no river ends with an "
                     "unclaimed tile)")
    ls, lt = last
    if ls == position.seat:
        raise _error(f"the last discard ({tile_name(lt)}) is seat {ls}'s own")
    if tile is not None:
        k = parse_tile(tile) if isinstance(tile, str) else int(tile)
        if k != lt:
            raise _error(f"{tile_name(k)} is not the discard on offer ({tile_name(lt)} "
                         f"from seat {ls})")
    return ls, lt


def _after_call(position: Any, ls: int, t: int, kind: str, low: int, used: list[int]):
    """The position after claiming seat ``ls``'s last discard ``t`` into a meld."""
    from .hand import Meld
    from .records import Discard
    conc = np.array(position.concealed, dtype=np.int64)
    for k in used:
        conc[k] -= 1
    melds = [list(m) for m in position.melds]
    melds[position.seat].append((Meld(kind, low), ls))
    discards = [list(d) for d in position.discards]
    discards[ls][-1] = Discard(t, position.seat)
    return position.replace(concealed=conc.astype(np.uint8), drawn=None, melds=melds,
                            discards=discards, last_discard=None)


def _win(position: Any, t: int):
    """``(fan or None, None)`` when winning on ``t`` is valid, ``(None, reason)`` when the
    hand is complete in shape but no win, None when not complete."""
    from .scoring import check_win
    from .tiles import tile_name
    kw = position.analysis_kwargs()
    # 和绝张: the other three copies shown (the table, incl. this discard, and own melds);
    # 河底捞鱼: the wall is empty
    shown = int(position.visible_counts()[t]) + sum(
        (3 if m.kind == "pung" else 4) if m.kind != "chow" and m.tile == t
        else int(m.kind == "chow" and t in m.tiles)
        for m in position.own_melds)
    from .rules.derived import with_void
    wc = check_win(position.hand, t, ruleset=with_void(position.ruleset, kw.get("void")),
                   self_drawn=False,
                   seat_wind=kw["seat_wind"], prevalent_wind=kw["prevalent_wind"],
                   flowers=position.flowers[position.seat], indicator=kw.get("indicator"),
                   last_copy=shown >= 4, last_tile=int(position.tiles_left) == 0)
    if wc.valid:
        return (None if wc.result is None else int(wc.result.total)), None
    if "no decomposition" in wc.reason:
        return None
    return None, f"no win on {tile_name(t)} on a discard: {wc.reason}"


def _plus_one(draws: int | None) -> int | None:
    """The horizon after a kong: its replacement tile is one draw more."""
    return None if draws is None else draws + 1


def _discarding(position: Any, draws: int | None, seed: Any, danger: bool) -> tuple[dict, dict]:
    """The best discard of a position that must discard (:func:`majiang.advise`)."""
    from .analysis import advise
    if danger:
        t = advise(position, draws=draws, seed=seed, second_order=False,
                   by="ev" if draws is not None else "efficiency")
    else:
        pos = position
        t = advise(pos.hand, second_order=False, draws=draws, seed=seed,
                   **pos.analysis_kwargs())
    best = t.iloc[0]
    row = {"discard": best["discard"], "shanten": int(best["shanten"]),
           "ukeire_count": int(best["ukeire_count"]), "ukeire": best["ukeire"]}
    if "valid_ukeire" in t.columns:         # a minimum in fan: the waits that win
        row.update(valid_ukeire=int(best["valid_ukeire"]), waits_fan=best["waits_fan"])
    if draws is not None:
        row.update(p_tenpai=best.get("p_tenpai"), p_win=best.get("p_win"),
                   _model=best.get("model"), _policy=best.get("policy"))
    if danger:
        row.update(p_deal_in=best["p_deal_in"], exp_loss=best["exp_loss"],
                   ev=best["ev"] if "ev" in t.columns else np.nan)
        if "exp_gain" in t.columns:
            row["exp_gain"] = best["exp_gain"]
    return row, t.attrs


def advise_claim(position: Any, tile: Any = None, *, draws: int | None = None,
                 seed: Any = 0, danger: bool = False):
    """Rank the answers to the discard on offer: win, kong, pung, each chow, pass.

    Parameters
    ----------
    position : majiang.Position
        The seat waits (holds the ruleset's hand size) and another seat's discard is on
        offer (:attr:`Position.last_discard`, derived or given).
    tile : str or int, optional
        The offered tile; default the position's last discard.  Another tile is refused.
    draws : int, optional
        Horizon of ``p_tenpai`` / ``p_win`` (:func:`majiang.probabilities`); None
        (default) leaves them out.
    seed : int, SeedSequence, Generator or None
        Seed of the Monte Carlo parts.  A non-negative int, a ``numpy.random.SeedSequence`` or ``numpy.random.Generator``
        (default ``0``: the same answer every call; ``None``: fresh entropy, a different
        answer every call).
    danger : bool
        Weigh the table after a chow or pung (:func:`majiang.advise` given the position:
        ``p_deal_in``, ``exp_loss``, ``ev`` of the best discard, chosen by ``ev`` with
        ``draws``, else by efficiency).  Slower (the opponent model samples hands).

    Returns
    -------
    pandas.DataFrame
        One row per legal answer, best first: ``rank`` (int), ``action`` (``"win"``,
        ``"kong"``, ``"pung"``, ``"chow 3-4-5m"``, ``"pass"``), ``discard`` (the best
        discard after a chow / pung, else None), ``shanten`` (int, -1 for the win),
        ``ukeire_count`` (int, live), ``ukeire`` (str), ``valid_ukeire`` (int: the live
        copies of a ready hand's waits that win, below a fan minimum; else
        ``ukeire_count``), ``waits_fan`` (str: each wait's fan on a discard / self-drawn
        under a fan minimum, else None), ``fan`` (the win's fan total,
        else NaN); with ``draws`` ``p_tenpai``, ``p_win``; with ``danger`` ``p_deal_in``,
        ``exp_loss``, ``ev`` (and with ``draws`` too ``exp_gain``).  ``attrs["by"]``
        (with ``draws``): ``"ev"`` with ``danger``, else ``"p_win"``.  ``attrs``: ``tile`` and ``from_seat`` (the offer),
        ``ruleset``, ``no_win`` (why a hand complete with the tile is no win, else
        None), ``calls`` (the ruleset's calls), ``draws``, ``probability_model`` and
        ``policy`` (with ``draws``: what produced ``p_win``), ``opponent_model`` and
        ``opponent_model_text`` (with ``danger``: the opponent model).

    Raises
    ------
    RuleError
        ``position`` is not a Position, the seat must discard, no discard is on offer,
        the offer is the seat's own, or ``tile`` is not the discard on offer.
    InvalidHandError
        As :class:`majiang.Position` for the positions after each call.

    Notes
    -----
    Under a declared void suit (定缺, the position's ``voids``) a win is judged with that
    suit void, and a tile of that suit is never melded (no pung, kong or chow row).  A kind
    that never enters a set (武汉 红中) has no pung or kong row, nor a kind that serves only
    in kongs (安庆 发 / 白) a pung row (:attr:`~majiang.rules.model.GameModel.setless_kinds`,
    :attr:`~majiang.rules.model.GameModel.kong_only_kinds`), nor a call the ruleset's limits
    refuse (内蒙 敖汉, :attr:`~majiang.rules.model.RuleSpec.call_limit`).
    """
    from .tiles import tile_name
    ls, t = _offer(position, tile)
    model = position.model
    calls = tuple(model.calls)
    held = np.asarray(position.concealed, dtype=np.int64)
    rows: list[dict] = []
    attrs: dict[str, Any] = {"tile": tile_name(t), "from_seat": ls,
                             "ruleset": model.name, "calls": calls, "no_win": None}
    if model.self_draw_only:
        attrs["no_win"] = f"{model.name} wins on self-draws only"
    else:
        won = _win(position, t)
        if won is not None:
            fan, why = won
            if why is None:
                rows.append({"action": "win", "discard": None, "shanten": -1,
                             "ukeire_count": 0, "ukeire": "", "fan": fan,
                             **({} if draws is None else {"p_tenpai": 1.0, "p_win": 1.0})})
            else:
                attrs["no_win"] = why
    from .rules.declared import void_index
    void = void_index(position.analysis_kwargs().get("void"))
    if void is not None and t < 27 and t // 9 == void:
        calls = ()      # 定缺: a tile of the declared void suit is never melded
    if "exposed_kong" in calls and held[t] >= 3 and t not in model.setless_kinds and \
            position_call_allowed(position, "exposed_kong", t):
        after = _after_call(position, ls, t, "kong", t, [t, t, t])
        rows.append({"action": "kong", **waiting_row(after, _plus_one(draws), seed)})
    if "pung" in calls and held[t] >= 2 and t not in model.unclaimable_pung_kinds and \
            position_call_allowed(position, "pung", t):
        after = _after_call(position, ls, t, "pung", t, [t, t])
        row, extra = _discarding(after, draws, seed, danger)
        rows.append({"action": "pung", **row})
        attrs.update({k: extra[k] for k in ("opponent_model", "opponent_model_text")
                      if k in extra})
    if "chow_left" in calls and ls == (position.seat - 1) % position.players:
        # suited chows, and honour chows where the ruleset plays them (南昌)
        for low in chows_holding(t, model.honor_chows):
            others = [k for k in chow_tiles(low) if k != t]
            if all(held[k] >= 1 for k in others) and position_call_allowed(position, "chow", low):
                after = _after_call(position, ls, t, "chow", low, others)
                row, extra = _discarding(after, draws, seed, danger)
                name = ("-".join(tile_name(k)[0] for k in sorted(chow_tiles(low)))
                        + tile_name(low)[1])
                rows.append({"action": f"chow {name}", **row})
    rows.append({"action": "pass", **waiting_row(position, draws, seed)})
    return _rank(rows, draws, danger, attrs)


def _rank(rows: list[dict], draws: int | None, danger: bool, attrs: dict):
    """The rows as a DataFrame, best first (a win first, then p_win / p_tenpai with
    ``draws``, then shanten ascending and live ukeire descending), with ``rank``
    (shared on equal keys) and ``attrs``."""
    import pandas as pd

    from ._ranks import shared_ranks as _shared_ranks
    df = pd.DataFrame(rows)
    if "fan" not in df.columns:
        df["fan"] = np.nan
    if not danger:
        df = df.drop(columns=[c for c in ("p_deal_in", "exp_loss", "ev", "exp_gain")
                              if c in df.columns])
    win_first = (df["action"] != "win").astype(int)
    if "valid_ukeire" not in df.columns:
        df["valid_ukeire"] = df["ukeire_count"]
    df["valid_ukeire"] = df["valid_ukeire"].fillna(df["ukeire_count"]).astype(np.int64)
    key = pd.DataFrame({"w": win_first, "s": df["shanten"], "v": -df["valid_ukeire"],
                        "u": -df["ukeire_count"]})
    cols = ["w", "s", "v", "u"]
    if draws is not None:
        key["pw"] = -df["p_win"].astype(float).fillna(-1.0)
        key["pt"] = -df["p_tenpai"].astype(float).fillna(-1.0)
        cols = ["w", "pw", "pt", "v", "u", "s"]
        attrs["draws"] = int(draws)
        if danger:          # weigh both sides: ev first (the win still leads)
            key["ev"] = -df["ev"].astype(float).fillna(-np.inf)
            cols = ["w", "ev"] + cols[1:]
        attrs["by"] = "ev" if danger else "p_win"
    order = key.sort_values(cols, kind="stable").index
    crit = key.loc[order, cols].to_numpy(dtype=np.float64)
    out = df.loc[order].reset_index(drop=True)
    out["discard"] = pd.Series([d if isinstance(d, str) else None for d in out["discard"]],
                               dtype=object)
    out.insert(0, "rank", _shared_ranks(crit))
    lead = ["rank", "action", "discard", "shanten", "ukeire_count", "ukeire",
            "valid_ukeire", "fan"]
    out = out[lead + [c for c in out.columns if c not in lead]]
    for src, name in (("_model", "probability_model"), ("_policy", "policy")):
        if src in out.columns and out[src].notna().any():   # what produced p_win
            attrs[name] = out[src].dropna().iloc[0]
    out = out.drop(columns=[c for c in ("_model", "_policy") if c in out.columns])
    out.attrs.update(attrs)
    return out


def advise_kong(position: Any, *, draws: int | None = None, seed: Any = 0,
                danger: bool = False):
    """Whether to declare a kong on one's own turn, against the best discard.

    At a :class:`majiang.Position` where the seat must discard, the choices are a
    concealed kong (暗杠, ruleset call ``"concealed_kong"``) of every kind held four
    times, an added kong (加杠, call ``"added_kong"``) of every own exposed pung whose
    fourth copy is held, and ``"discard"``: :func:`majiang.advise`'s best discard.  A
    kong is judged as a waiting hand (it draws a replacement tile next): its shanten and
    live ukeire (:func:`majiang.shanten`, :func:`majiang.ukeire`; with ``draws``
    :func:`majiang.probabilities` over ``draws + 1`` draws, the replacement tile being
    one more), on the
    position after the kong (:meth:`Position.replace`: four concealed copies become
    ``{6666m}``, or the pung becomes a kong claimed from the same seat).  The kong's own
    scoring (kong fans, kong payments) and the chance that an added kong is robbed
    (抢杠) are not weighed.  Rows rank as :func:`advise_claim`.

    Parameters
    ----------
    position : majiang.Position
        The seat must discard (``hand_size + 1`` tiles counting melds).
    draws, danger
        As :func:`advise_claim` (``danger`` weighs the discard row only).
    seed : int, SeedSequence, Generator or None
        Seed of the Monte Carlo parts.  A non-negative int, a ``numpy.random.SeedSequence`` or ``numpy.random.Generator``
        (default ``0``: the same answer every call; ``None``: fresh entropy, a different
        answer every call).

    Returns
    -------
    pandas.DataFrame
        Columns as :func:`advise_claim`; ``action`` is ``"concealed kong 6m"``,
        ``"added kong 5z"`` or ``"discard"`` (its tile in ``discard``).  Only the
        ``"discard"`` row when no kong is possible or allowed.  ``attrs["calls"]``: the
        ruleset's calls.

    Raises
    ------
    RuleError
        ``position`` is not a Position, or the seat does not have to discard.
    """
    if type(position).__name__ != "Position":
        raise _error("advise_kong needs a majiang.Position")
    if not position.must_discard:
        raise _error(f"seat {position.seat} holds {position.hand_size} tiles: a kong is "
                     "declared on one's own turn, after drawing")
    model = position.model
    calls = tuple(model.calls)
    rows: list[dict] = [{"action": action, **waiting_row(after, _plus_one(draws), seed)}
                        for action, after in kong_options(position)]
    row, extra = _discarding(position, draws, seed, danger)
    rows.append({"action": "discard", **row})
    attrs: dict[str, Any] = {"ruleset": model.name, "calls": calls}
    attrs.update({k: extra[k] for k in ("opponent_model", "opponent_model_text")
                  if k in extra and danger})
    return _rank(rows, draws, danger, attrs)


def kong_note(position: Any) -> str | None:
    """One line on whether to declare a kong (``majiang advise --position`` prints it): when
    the seat may declare a concealed or added kong, :func:`advise_kong`'s verdict by
    efficiency (shanten, live ukeire; no horizon), e.g. ``"discard 3z (shanten 2, 17
    live) rather than concealed kong 1m (shanten 2, 11 live)"``; None when no kong is
    possible (or the seat does not have to discard)."""
    if type(position).__name__ != "Position" or not kong_options(position):
        return None
    df = advise_kong(position)
    best = df.iloc[0]
    other = df[df["action"] != best["action"]]
    other = other[other["action"] == "discard"] if best["action"] != "discard" else other
    return (f"{choice_text(best)} rather than {choice_text(other.iloc[0])}" if len(other)
            else choice_text(best))

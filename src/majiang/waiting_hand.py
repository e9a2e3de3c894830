"""A hand waiting for its tile: which of its waits win, and a kong instead of a discard.

* :func:`winning_waits` — under a ruleset whose complete shapes may still not win (a
  minimum in fan or points: Chinese Official rules' 8 fan), the live copies of a ready
  hand's waits that win under THE win predicate (:func:`majiang.scoring.check_win`) and
  each wait's fan total on a discard / self-drawn.  :func:`majiang.advise` ranks tenpai
  discards by it (column ``valid_ukeire``), :func:`majiang.advise_claim` its rows.
* :func:`waiting_row` — a seat waiting for a draw at a :class:`majiang.Position` (after
  a pass, a kong): shanten, live ukeire, the winning waits, and with a horizon its
  probabilities and expected gain.
* :func:`kong_options` / :func:`kong_verdict` — the concealed and added kongs a seat
  may declare on its own turn, and whether one beats the advised discard
  (``advise(position).attrs["kong"]``; :func:`majiang.advise_kong` gives the table).
"""
from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["winning_waits", "waiting_row", "kong_options", "kong_verdict", "choice_text",
           "position_call_allowed"]


def winning_waits(model: Any, rs: Any, after: Any, outside: np.ndarray, gone: int | None,
                  seat_wind: Any = 0, prevalent_wind: Any = 0) -> tuple[int, str]:
    """The waits of a ready hand that win, under THE win predicate.

    ``after`` is the hand waiting for its tile (a :class:`majiang.Hand` of the ruleset's
    hand size); ``outside`` (int64 (34,)) the tiles seen outside its concealed tiles (the
    table and its own melds); ``gone`` the kind just discarded from it (seen, not yet in
    ``outside``) or None.  Every shape wait (:func:`majiang.scoring.waiting.waits`) with
    a copy left is judged on a discard and self-drawn (和绝张 when the other three copies
    are shown).  Returns ``(live, text)``: ``live`` the unseen copies of the waits that
    win either way, ``text`` each wait's fan total on a discard / self-drawn
    (``"3m:9/10 6m:<8"``; ``"not ready: …"`` when none wins)."""
    from .tiles import tile_name
    copies = np.asarray(model.copies, dtype=np.int64)
    conc = np.asarray(after.concealed, dtype=np.int64)
    total, cells, ready = 0, [], False
    for k in _shape_waits(model, rs, after):
        if outside[k] + conc[k] >= copies[k]:
            continue        # a fifth copy: a wait by shape that no tile fills
        # 和绝张: the other three copies shown (the table and own melds, not the own
        # concealed tiles), so the wait is the last copy
        last = int(outside[k]) >= 3
        on_discard, self_drawn = (_wait_fan(model, rs, after, k, s, seat_wind,
                                            prevalent_wind, last) for s in (False, True))
        live = max(int(copies[k] - outside[k] - conc[k] - (k == gone)), 0)
        if on_discard[0] or self_drawn[0]:
            total += live
            ready = True
        cell = f"{tile_name(k)}:{on_discard[1]}/{self_drawn[1]}"
        if self_drawn[0] and not on_discard[0]:
            cell += " (self-drawn only)"
        cells.append(cell)
    return total, ("" if ready else "not ready: ") + " ".join(cells)


_WAIT_FANS: dict = {}


def _shape_waits(model, rs, after) -> tuple:
    """The kinds of :func:`majiang.scoring.waiting.waits` of the 13-tile hand ``after``,
    kept per (ruleset, hand)."""
    key = (id(model), after.concealed.tobytes(), after.melds)
    got = _WAIT_FANS.get(key)
    if got is not None and got[0] is model:
        return got[1]
    from .scoring.waiting import waits
    from .tiles import parse_tile

    out = tuple(parse_tile(w) for w in waits(after, ruleset=rs))
    _WAIT_FANS[key] = (model, out)
    return out


def _wait_fan(model, rs, after, k: int, self_drawn: bool, seat_wind, prevalent_wind,
              last_copy: bool = False):
    """``(wins, text)`` of the 13-tile hand ``after`` winning on kind ``k`` (self-drawn or
    on a discard) under THE win predicate: text the fan total, ``<N`` below an N-fan
    minimum, ``no`` otherwise; ``last_copy``: the wait is the last copy (和绝张).  Kept per
    (ruleset, hand, wait, context)."""
    key = (id(model), after.concealed.tobytes(), after.melds, after.flowers, k, self_drawn,
           seat_wind, prevalent_wind, last_copy)
    got = _WAIT_FANS.get(key)
    if got is not None and got[0] is model:
        return got[1]
    from .scoring import check_win

    v = check_win(after, k, ruleset=rs, self_drawn=self_drawn, seat_wind=seat_wind,
                  prevalent_wind=prevalent_wind, last_copy=last_copy)
    r = v.result
    if v.valid:
        text = "win" if r is None else str(r.total)
    elif r is not None and model.min_fan and not r.meets_minimum:
        text = f"<{model.min_fan}"
    else:
        text = "no"
    if len(_WAIT_FANS) > 1 << 14:
        _WAIT_FANS.clear()
    _WAIT_FANS[key] = (model, (v.valid, text))
    return v.valid, text


def position_call_allowed(position: Any, call: str, kind: int) -> bool:
    """Whether the seat of a :class:`majiang.Position` may make ``call`` (``"chow"`` by its
    lowest kind, ``"pung"``, ``"exposed_kong"``, ``"added_kong"``, ``"concealed_kong"``) of
    ``kind`` under the ruleset's limits on calls (:attr:`RuleSpec.call_limit
    <majiang.rules.model.RuleSpec.call_limit>`, 内蒙 敖汉); True where there are none."""
    lim = position.model.call_limit
    if lim is None:
        return True
    mine = tuple((tm.meld.kind, tm.meld.tile, tm.meld.concealed)
                 for tm in position.melds[position.seat])
    held = int(np.asarray(position.concealed, dtype=np.int64).sum())
    return bool(lim(call, kind, mine, held, position.tiles_left))


def kong_options(position: Any) -> list:
    """``[(action, position after)]`` for each kong the seat may declare on its own turn
    at a :class:`majiang.Position` that must discard: a concealed kong (暗杠, ruleset
    call ``"concealed_kong"``) of every kind held four times but one that never enters a
    set (武汉 红中, :attr:`~majiang.rules.model.GameModel.setless_kinds`) (``"concealed kong 6m"``:
    the four copies become ``{6666m}``) and an added kong (加杠, call ``"added_kong"``)
    of every own exposed pung whose fourth copy is held (``"added kong 5z"``: the pung
    becomes a kong claimed from the same seat).  Empty when none is possible or allowed,
    or the seat does not have to discard."""
    from .hand import Meld
    from .tiles import tile_name
    if not position.must_discard:
        return []
    calls = position.model.calls
    held = np.asarray(position.concealed, dtype=np.int64)
    out = []
    if "concealed_kong" in calls:
        for t in np.flatnonzero(held >= 4).tolist():
            if t in position.model.setless_kinds or \
                    not position_call_allowed(position, "concealed_kong", t):
                continue                # 武汉 红中: never part of a set; 内蒙 limits
            conc = held.copy()
            conc[t] -= 4
            melds = [list(m) for m in position.melds]
            melds[position.seat].append((Meld("kong", t, concealed=True), None))
            out.append((f"concealed kong {tile_name(t)}", position.replace(
                concealed=conc.astype(np.uint8), drawn=None, melds=melds)))
    if "added_kong" in calls:
        for i, tm in enumerate(position.melds[position.seat]):
            t = tm.meld.tile
            if tm.meld.kind != "pung" or held[t] < 1 or \
                    not position_call_allowed(position, "added_kong", t):
                continue
            conc = held.copy()
            conc[t] -= 1
            melds = [list(m) for m in position.melds]
            melds[position.seat][i] = (Meld("kong", t), tm.from_seat)
            out.append((f"added kong {tile_name(t)}", position.replace(
                concealed=conc.astype(np.uint8), drawn=None, melds=melds)))
    return out


def waiting_row(position: Any, draws: int | None, seed: Any) -> dict:
    """Shanten, live ukeire, the live copies of the waits that win (and probabilities) of
    a :class:`majiang.Position` whose seat waits for a draw (after a pass or a kong).

    Keys: ``discard`` (None), ``shanten``, ``ukeire_count``, ``ukeire``,
    ``valid_ukeire`` (under a ruleset whose complete shapes may still not win, Chinese
    Official rules' 8 fan: the live copies of a ready hand's waits that win,
    :func:`winning_waits`; else ``ukeire_count``), ``waits_fan`` (the waits' fan totals
    of a ready hand under such a ruleset, else None); with ``draws`` ``p_tenpai``,
    ``p_win``, ``exp_gain`` (:func:`majiang.reading.exp_gain`) and the producing
    ``_model`` / ``_policy``; ``p_deal_in`` and ``exp_loss`` 0 (no discard is made now)
    and ``ev`` (``exp_gain``, NaN without ``draws``)."""
    from .efficiency import shanten, ukeire
    from .rules.model import game_model
    from .rules.derived import with_void
    from .tiles import format_counts, parse_tile
    kw = position.analysis_kwargs()
    ind = kw.get("indicator")
    h = position.hand
    row: dict[str, Any] = {"discard": None}
    void = kw.get("void")
    row["shanten"] = int(shanten(h, ruleset=position.ruleset, indicator=ind, void=void))
    uk = ukeire(h, kw["visible"], ruleset=position.ruleset, indicator=ind, void=void)
    row["ukeire_count"] = int(sum(uk.values()))
    eff = np.zeros(34, dtype=np.uint8)
    for k in uk:
        if not k.endswith("*"):         # a joker draw is listed as "<kind>*"
            eff[parse_tile(k)] = 1
    row["ukeire"] = format_counts(eff)
    row["valid_ukeire"], row["waits_fan"] = row["ukeire_count"], None
    rs = with_void(position.ruleset, void)
    model = game_model(rs)
    if row["shanten"] == 0 and not h.jokers and not model.shape(()).exact:
        outside = np.asarray(kw["visible"], dtype=np.int64).copy()
        for m in h.melds:
            for t in m.tiles:
                outside[t] += 1
        row["valid_ukeire"], row["waits_fan"] = winning_waits(
            model, rs, h, outside, None, kw["seat_wind"], kw["prevalent_wind"])
    gain = np.nan
    if draws is not None:
        r, gain = _waiting_odds(position, draws, seed)
        row.update(p_tenpai=r.p_tenpai, p_win=r.p_win, _model=r.model, _policy=r.policy,
                   exp_gain=gain)
    row.update(p_deal_in=0.0, exp_loss=0.0, ev=gain)
    return row


def _waiting_odds(position: Any, draws: int, seed: Any):
    """``(Probabilities, exp_gain)`` of a waiting position over ``draws`` draws: as
    :func:`majiang.probabilities` (default method and policy), the winning outcomes kept
    for :func:`majiang.reading.exp_gain`."""
    from . import probability as P
    from .reading import exp_gain
    from .rules.derived import with_void
    kw = position.analysis_kwargs()
    method = P._auto_method("auto", None)
    ruleset = with_void(position.ruleset, kw.get("void"))
    ppos, engine, n = P._setup(position.hand, draws, kw["visible"], ruleset, method,
                               None, P.DEFAULT_SAMPLES, None, P.DEFAULT_MAX_STATES,
                               kw.get("indicator"), kw["seat_wind"], kw["prevalent_wind"])
    r = P._run(engine, ppos.counts, ppos.jokers, method, None, n, seed, 1, keep_wins=True)
    return r, float(exp_gain(ppos, r))


def choice_text(row: Any, by_ev: bool = False) -> str:
    """One choice of a claim / kong table in words: ``"discard 3z (shanten 2, 17 live)"``,
    ``"concealed kong 1m (shanten 2, 11 winning)"`` (winning: the live copies of waits
    that win, where they differ from the live ones), or with ``by_ev`` ``"… (ev 3.20)"``."""
    what = f"discard {row['discard']}" if row["action"] == "discard" else row["action"]
    if by_ev:
        return f"{what} (ev {float(row['ev']):.2f})"
    valid = row.get("valid_ukeire")
    live = int(row["ukeire_count"])
    count = (f"{live} live" if valid is None or valid != valid or int(valid) == live
             else f"{int(valid)} winning")
    return f"{what} (shanten {int(row['shanten'])}, {count})"


def kong_verdict(pos: Any, table: Any, draws: int | None, seed: Any,
                 by: str = "ev") -> str | None:
    """``attrs["kong"]`` of :func:`advise` at a position: whether a kong the seat may
    declare (:func:`kong_options`) beats the advised discard (the table's first row).
    With ``ev`` in the table (a horizon): by ev, a kong's ev being its ``exp_gain`` over
    one draw more (the replacement tile) and no discard now; otherwise by shanten, then
    the live copies of waits that win (``valid_ukeire`` where computed), then live
    ukeire.  None when no kong is possible."""
    opts = kong_options(pos)
    if not opts:
        return None
    by_ev = draws is not None and "ev" in table.columns and table["ev"].notna().all()
    best = dict(table.iloc[0])
    best["action"] = "discard"

    def key(r):
        if by_ev:
            return (-float(r["ev"]),)
        valid = r.get("valid_ukeire")
        valid = r["ukeire_count"] if valid is None or valid != valid else valid
        return (int(r["shanten"]), -int(valid), -int(r["ukeire_count"]))
    rows = [best] + [{"action": a, **waiting_row(after, None if draws is None else draws + 1,
                                                  seed)} for a, after in opts]
    top = min(rows, key=key)                    # ties keep the discard (listed first)
    others = [r for r in rows if r is not top]
    if top is not best:
        others = [best]
    return choice_text(top, by_ev) + " rather than " + choice_text(others[0], by_ev)

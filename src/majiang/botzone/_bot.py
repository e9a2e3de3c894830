"""Our bot as a Botzone Chinese-Standard-Mahjong program: the answer to the latest request
(:func:`choose_response`) and the stdin / stdout loop (:func:`main`,
``python -m majiang.botzone``; simple or JSON interaction, whichever the input is).

The rule (docs/botzone.md):

* **HU** whenever the win check of the latest tile (:meth:`BotzoneTable.win_check`: own
  draw, a discard, a robbed added kong) accepts it (>= 8 fan, Chinese Official).
* On the own draw: a concealed kong (``GANG t``) or an added kong (``BUGANG t``) when the
  hand's shanten after it is no worse than after the best discard; else ``PLAY`` the
  first discard of :func:`majiang.advise` on the seat's :class:`majiang.Position`
  (``by="ev"`` by default: the table weighed, expected gain less expected loss;
  ``--by efficiency``: advise on the hand and the visible tiles alone, shanten then
  live ukeire, about ten times faster).
* On another player's discard: ``PENG t`` / ``CHI mid t`` only when the call makes the
  hand ready (shanten 0 after the call and its best discard, from 1 or more before) with
  a wait that wins with >= 8 fan as a discard win; never a kong on a discard (1 fan for
  an opened hand).  ``PASS`` otherwise.
* Every answer is checked with :meth:`BotzoneTable.check_response` before it is
  printed; a refused one falls back to ``PASS`` (or, after the own draw, ``PLAY`` of the
  drawn tile).

``--player NAME`` answers with a built-in player of the engine instead
(:mod:`majiang.botzone._players`).
"""
from __future__ import annotations

import sys
from typing import Any

import numpy as np

from ..errors import MahjongError
from ..hand import Hand, Meld
from ..records.codes import botzone_code
from ._players import make_player, player_names, player_response
from ._table import KEEP_RUNNING, RULESET, RULESETS, BotzoneTable, parse_input

RANKINGS = ("ev", "efficiency")


def _shanten(c: np.ndarray, melds: tuple) -> int:
    from ..efficiency import shanten
    return int(shanten(Hand(c.astype(np.uint8), melds), ruleset="mcr"))   # same shapes


def _best_discard_shanten(c: np.ndarray, melds: tuple) -> tuple[int, int]:
    """(kind, shanten after it) of the least-shanten discard of a 3n+2 hand (ties: the
    lowest kind), from the compiled discard table (rows in tile order)."""
    from ..efficiency import discard_table
    from ..tiles import parse_tile
    t = discard_table(Hand(c.astype(np.uint8), melds), ruleset="mcr", second_order=False)
    sh = t["shanten"].to_numpy()
    i = int(np.argmin(sh))
    return parse_tile(t["discard"].iloc[i]), int(sh[i])


def _valid_wait(table: BotzoneTable, c: np.ndarray, melds: tuple) -> bool:
    """Whether the 3n+1 hand ``c`` (+ ``melds``) has a wait that wins with >= 8 fan as a
    discard win (no special context)."""
    from ..scoring.predicate import check_win
    from ..scoring.waiting import waits
    from ..tiles import parse_tile
    h = Hand(c.astype(np.uint8), melds)
    try:
        ws = waits(h, ruleset="mcr")
    except MahjongError:
        return False
    for w in ws:
        k = parse_tile(w)
        if c[k] >= 4:
            continue
        try:
            if check_win(h, k, ruleset=table.ruleset, self_drawn=False, seat_wind=table.me,
                         prevalent_wind=table.quan, flowers=table.flowers[table.me]).valid:
                return True
        except MahjongError:
            continue
    return False


def _advised_discard(table: BotzoneTable, by: str) -> int | None:
    from ..analysis import advise
    from ..tiles import parse_tile
    try:
        pos = table.position()
        if by == "efficiency":      # the shape ranking alone: no table weighing
            kw = pos.analysis_kwargs()
            t = advise(pos.hand, kw["visible"], ruleset=kw["ruleset"],
                       seat_wind=kw["seat_wind"], prevalent_wind=kw["prevalent_wind"])
        else:
            t = advise(pos, by=by)
        for name in t["discard"]:
            k = parse_tile(name)
            if table.hand[k]:
                return k
    except MahjongError:
        return None
    return None


def _own_turn(table: BotzoneTable, by: str) -> str:
    c = table.hand.copy()
    melds = table.own_melds()
    _, s_keep = _best_discard_shanten(c, melds)
    if table.wall_empty(table.me) or table.wall_empty((table.me + 1) % 4):
        s_keep = -9                 # no kong at the wall's end
    for k in np.flatnonzero(c == 4):
        c2 = c.copy()
        c2[k] = 0
        if _shanten(c2, melds + (Meld("kong", int(k), True),)) <= s_keep:
            return f"GANG {botzone_code(int(k))}"
    for kind, t, conc, _ in table.melds[table.me]:
        if kind == "pung" and c[t]:
            c2 = c.copy()
            c2[t] -= 1
            m2 = tuple(Meld("kong", t) if (m.kind == "pung" and m.tile == t) else m
                       for m in melds)
            if _shanten(c2, m2) <= s_keep:
                return f"BUGANG {botzone_code(t)}"
    k = _advised_discard(table, by)
    if k is None:
        k, _ = _best_discard_shanten(c, melds)
    return f"PLAY {botzone_code(k)}"


def _call(table: BotzoneTable) -> str | None:
    q, d = table.last[1], table.last[2]
    c = table.hand.copy()
    melds = table.own_melds()
    s0 = _shanten(c, melds)
    if s0 < 1 or table.wall_empty((q + 1) % 4):
        return None
    cands = []
    if c[d] >= 2:
        cands.append(("PENG", None, (d, d), Meld("pung", d)))
    if (q + 1) % 4 == table.me and d < 27:
        r = d % 9
        for lo in (d - 2, d - 1, d):
            if lo < d - r or lo % 9 > 6 or lo // 9 != d // 9:
                continue
            need = tuple(x for x in (lo, lo + 1, lo + 2) if x != d)
            if all(c[x] for x in need):
                cands.append(("CHI", lo + 1, need, Meld("chow", lo)))
    for act, mid, need, meld in cands:
        c2 = c.copy()
        for x in need:
            c2[x] -= 1
        m2 = melds + (meld,)
        # the ready discards after the call, in kind order: the first with a valid wait
        for x in np.flatnonzero(c2):
            c2[x] -= 1
            ok = _shanten(c2, m2) == 0 and _valid_wait(table, c2, m2)
            c2[x] += 1
            if ok:
                out = botzone_code(int(x))
                return f"PENG {out}" if act == "PENG" else f"CHI {botzone_code(mid)} {out}"
    return None


def choose_response(table: BotzoneTable, by: str = "ev", player: Any = None) -> str:
    """The bot's answer to the table's latest request (a legal response line; see the
    module for the rule).  ``by``: the ranking of :func:`majiang.advise` for discards
    (``"ev"`` or ``"efficiency"``).  ``player``: a policy of the engine (a built-in
    player, :func:`make_player`) answering instead of the rule above
    (:func:`~majiang.botzone._players.player_response`)."""
    last = table.last
    mine = last[0] == "draw" and last[1] == table.me and table.drawn is not None
    answer = "PASS"
    if player is not None:
        answer = player_response(table, player)
    elif mine or (last[0] in ("discard", "bugang") and last[1] != table.me):
        r = table.win_check()
        if r is not None and r.valid:
            answer = "HU"
        elif mine:
            answer = _own_turn(table, by)
        elif last[0] == "discard":
            answer = _call(table) or "PASS"
    if table.check_response(answer) is not None:        # never print an illegal move
        answer = f"PLAY {botzone_code(table.drawn)}" if mine else "PASS"
    return answer


def _read_history(first: str, stream) -> tuple[list, list]:
    n = int(first)
    lines = [first] + [stream.readline() for _ in range(2 * n - 1)]
    return parse_input(lines)


def parse_json_input(text: str) -> tuple[list, list]:
    """``(requests, responses)`` of one Botzone JSON input line (``{"requests": [...],
    "responses": [...], ...}``: each request and response a string in the same format as
    the simple interaction; one response fewer than requests; Botzone's ``data``,
    ``globaldata`` and limits are ignored).  Raises
    :class:`~majiang.errors.InvalidNotationError`."""
    import json
    from ..errors import InvalidNotationError
    try:
        obj = json.loads(text)
    except ValueError as exc:
        raise InvalidNotationError(f"Botzone JSON input: not JSON ({exc.msg})") from None
    if not isinstance(obj, dict):
        raise InvalidNotationError("Botzone JSON input: expected an object with "
                                   "\"requests\" and \"responses\"")
    req, resp = obj.get("requests"), obj.get("responses", [])
    ok = (isinstance(req, list) and isinstance(resp, list) and req
          and all(isinstance(x, str) for x in req + resp))
    if not ok:
        raise InvalidNotationError("Botzone JSON input: \"requests\" must be a non-empty "
                                   "list of strings and \"responses\" a list of strings")
    if len(resp) != len(req) - 1:
        raise InvalidNotationError(f"Botzone JSON input: {len(req)} requests need "
                                   f"{len(req) - 1} responses, got {len(resp)}")
    return req, resp


def _request_line(text: str) -> str:
    """A kept-running request line: the request itself, or (JSON interaction) the request
    as a JSON string."""
    if text.startswith('"'):
        import json
        from ..errors import InvalidNotationError
        try:
            value = json.loads(text)
        except ValueError as exc:
            raise InvalidNotationError(f"Botzone JSON request: not JSON ({exc.msg})") from None
        if not isinstance(value, str):
            raise InvalidNotationError("Botzone JSON request: expected a string")
        return value
    return text


def main(argv: Any = None, stdin=None, stdout=None) -> int:
    """Run as a Botzone program: read the input (simple interaction: the turn count, then
    the requests and responses so far; JSON interaction: one line ``{"requests": [...],
    "responses": [...]}``), print the answer (JSON: ``{"response": "..."}``); then stay
    running (print :data:`KEEP_RUNNING`) and answer each further request line (JSON: the
    request as a JSON string, or a plain line), or a whole new input.  Returns the exit
    status (0 at the end of input)."""
    import argparse
    ap = argparse.ArgumentParser(prog="python -m majiang.botzone",
                                 description="A Botzone Chinese-Standard-Mahjong program "
                                             "(simple interaction) playing majiang's bot.")
    ap.add_argument("--by", choices=RANKINGS, default="ev",
                    help="how discards are ranked (majiang.advise): ev (default) or "
                         "efficiency (faster)")
    ap.add_argument("--ruleset", choices=RULESETS, default=RULESET,
                    help="mcr_botzone (default: Botzone's own walls, 21 draws a seat) or "
                         "mcr (one wall; taken anyway when a flower shows)")
    ap.add_argument("--once", action="store_true",
                    help="answer one input and exit (no keep-running)")
    ap.add_argument("--player", metavar="NAME", default=None,
                    help="play a built-in player of the engine instead ("
                         + ", ".join(player_names()) + "); default: the rule above "
                         "(advise's discards, calls only to a ready hand of 8 fan)")
    args = ap.parse_args(argv)
    player = None
    if args.player is not None:
        try:
            player = make_player(args.player)
        except MahjongError as exc:
            print(f"majiang.botzone: {exc}", file=sys.stderr)
            return 2
    inp = stdin or sys.stdin
    out = stdout or sys.stdout
    table = None
    as_json = False
    try:
        while True:
            line = inp.readline()
            if not line:
                return 0
            text = line.strip()
            if not text:
                continue
            if text.isdigit():                       # a full history
                requests, responses = _read_history(text, inp)
                table = BotzoneTable.from_history(requests, responses, args.ruleset)
                as_json = False
            elif text.startswith(("{", "[")):        # a full history, JSON interaction
                requests, responses = parse_json_input(text)
                table = BotzoneTable.from_history(requests, responses, args.ruleset)
                as_json = True
            else:
                if table is None:
                    raise MahjongError("Botzone input: the first line must be the turn "
                                       "count (or a JSON object)")
                table.apply(_request_line(text))
            if player is not None:       # random choices reproducible per request
                player = make_player(args.player, table.n)
            answer = choose_response(table, args.by, player)
            table.respond(answer)
            if as_json:
                import json
                out.write(json.dumps({"response": answer}) + "\n")
            else:
                out.write(answer + "\n")
            if args.once:
                out.flush()
                return 0
            out.write(KEEP_RUNNING + "\n")
            out.flush()
    except MahjongError as exc:
        print(f"majiang.botzone: {exc}", file=sys.stderr)
        return 2

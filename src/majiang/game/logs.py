"""Event logs of hands: JSON Lines, a per-hand summary, and exact replay.

A log is a list of plain dicts (JSON-serialisable), one per event, in order:

``header``  ruleset name, hand index, seed, dealer, prevalent wind, player names and
            the whole physical wall (kinds 0..33, flowers 34+; drawn from index 0,
            replacements from the end); ``options``: the build options that differ from
            the built-in ruleset of that name (absent when none);
``deal``    the dealt hands and flowers; ``flowers`` replacements after the deal;
``start``   every seat's tiles once the deal's flowers are replaced, and the dealer's
            14th tile (its first "draw");
``jokers``  the turned indicator, the joker kind and every wild kind (``kinds``);
``exchange`` / ``exchange_direction``  换三张: a seat's three tiles (decision) and the
            direction drawn for all;
``void``    a seat's 定缺 suit (decision);
``draw`` / ``flower``   a draw (``tail``: a replacement from the tail) / a flower set aside;
``declare`` / ``claim`` decisions: the options offered and the choice (None = pass);
``discard`` a discard (``forced``: a locked 血流 hand's or a declared ready hand's drawn
            tile, not a decision);
``ready``   报听 (decision): asked after a discard that leaves the hand ready, under a
            ruleset that plays declarations: the discard, the kinds offered, the waits and
            the choice (``""`` none, ``"concealed"``, ``"open"``);
``open_kong`` 开杠 or 补张 (decision) after a kong that leaves the hand ready, under a
            ruleset that plays it (``Ruleset.kong_reveal``): the kong kind, the waits
            and the choice (True: 开杠); ``kong_reveal`` the tiles a 开杠 turned (the
            konger's win on them, or the others', is then asked as a ``claim``);
``kong`` / ``call``     melds made; ``win`` a win (how, fans, total, deltas);
``end_table`` the final table an end settlement read (贵州: the tile turned after the
            hand, who is ready, their values);
``end_check`` a payment outside the hand value (杠分 / 呼叫转移 kong payments, 查花猪 /
            查大叫 / 退税 at a drawn 四川 end, 贵州 鸡 / 查叫);
``end``     reason (``win``, ``wall``, ``blood``), score deltas, tiles left.

:func:`replay` plays the header's wall again with scripted players that repeat the
logged decisions, so the replayed hand has the same winners, fans and deltas.
"""
from __future__ import annotations

import json
from typing import Any, Iterable

from ..errors import RuleError

__all__ = ["summarize", "replay", "to_jsonl", "read_jsonl", "DECISIONS", "write_botzone",
           "botzone_text"]

DECISIONS = ("void", "exchange", "declare", "discard", "claim", "ready", "open_kong")


def summarize(st) -> dict:
    """One row of :func:`majiang.simulate`: the outcome of a finished hand state."""
    wins = st.wins
    t = getattr(st, "tallies", None)
    if t is None:
        t = [(s.n_kongs_exposed, s.n_kongs_concealed, s.n_calls, len(s.flowers))
             for s in st.seats]
    return {
        "ruleset": st.rs.name,
        "hand": st.hand_index,
        "seed": st.seed if isinstance(st.seed, (int, type(None))) else str(st.seed),
        "dealer": st.dealer,
        "winners": [w["seat"] for w in wins],
        "win_types": [w["how"] for w in wins],
        "discarder": [w["discarder"] for w in wins],
        "fans": [[list(f) for f in w["fans"]] for w in wins],
        "fan_totals": [w["total"] for w in wins],
        "points": [w["points"] for w in wins],
        "score_deltas": list(st.deltas),
        "draws": st.draws,
        "wall_left": st.wall_left,
        "turns": st.turns,
        "end": st.end_reason,
        "kongs": [a + b for a, b, _, _ in t],
        "calls": [c for _, _, c, _ in t],
        "flowers": [f for _, _, _, f in t],
        "end_checks": [dict(c) for c in getattr(st, "end_checks", [])],
    }


def to_jsonl(events: Iterable[dict], path: Any = None) -> str:
    """The log as JSON Lines text (one event per line); also written to ``path``."""
    text = "".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n"
                   for e in events)
    if path is not None:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    return text


def read_jsonl(source: Any) -> list[dict]:
    """Events from JSON Lines text or a file path.

    Raises
    ------
    RuleError
        A line that is not a JSON object.
    """
    if isinstance(source, str) and "\n" not in source and not source.lstrip().startswith("{"):
        with open(source, encoding="utf-8-sig") as fh:
            source = fh.read()
    out = []
    for i, line in enumerate(str(source).splitlines(), 1):
        if not line.strip():
            continue
        try:
            ev = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RuleError(f"log line {i} is not JSON: {exc}") from None
        if not isinstance(ev, dict) or "e" not in ev:
            raise RuleError(f"log line {i} is not an event object with an 'e' field")
        out.append(ev)
    return out


def replay(log: Any, *, ruleset: Any = None):
    """Replay a logged hand; returns the final :class:`~majiang.game.engine.HandState`
    (with its own log), whose :func:`summarize` equals the original's.

    ``log``: a list of events, JSON Lines text or a file path.  ``ruleset``: the
    ruleset object when the header's name is not registered (house rules); without it a
    header's ``options`` (a built-in ruleset played with other build options: side bets,
    variants) rebuild the ruleset with them.

    Raises
    ------
    RuleError
        No header, or decisions that do not fit the replayed hand.
    """
    from .engine import HandState, _Game
    from .players import ScriptedPlayer, SeatView
    events = log if isinstance(log, list) else read_jsonl(log)
    if not events or events[0].get("e") != "header":
        raise RuleError("a hand log starts with a header event")
    h = events[0]
    from ..rules.model import game_model
    if ruleset is None and h.get("options"):
        from ..rules import get
        from ..rules.toml import with_options
        ruleset = with_options(get(h["ruleset"]), **h["options"])
    model = game_model(ruleset if ruleset is not None else h["ruleset"])
    n = model.players
    per_seat = [[] for _ in range(n)]
    for ev in events[1:]:
        if ev["e"] in DECISIONS and not ev.get("forced"):
            per_seat[ev["seat"]].append(ev)
    pols = [ScriptedPlayer(d) for d in per_seat]
    st = HandState(model, pols, seed=h.get("seed"), hand=h.get("hand", 0), wall=h["wall"],
                   dealer=h["dealer"], prevalent_wind=h["prevalent_wind"], log=True,
                   exchange3=bool(h.get("exchange3", False)))
    for ev in events:
        if ev["e"] == "exchange_direction":
            st.exchange_direction = int(ev["direction"])
    st.events.append(dict(h))
    views = [SeatView(st, p) for p in range(n)]
    _Game(st, pols, views).run()
    for p, pol in enumerate(pols):
        if pol.i != len(pol.decisions):
            raise RuleError(f"replay: seat {p} has {len(pol.decisions) - pol.i} logged "
                            "decision(s) left over")
    return st


def _logs_of(table_or_logs) -> list:
    if hasattr(table_or_logs, "columns"):
        if "log" not in table_or_logs.columns:
            raise RuleError("the table has no 'log' column: simulate(..., logs=True)")
        return list(table_or_logs["log"])
    logs = list(table_or_logs)
    if logs and isinstance(logs[0], dict):      # one log, not a list of logs
        logs = [logs]
    return [lg if isinstance(lg, list) else read_jsonl(lg) for lg in logs]


_BOTZONE_RULESETS = ("mcr", "mcr_botzone")
"""Rulesets whose hands a Botzone record can hold (``mcr_botzone`` is the format the
records come from: their walls and last tiles are its own)."""


def botzone_text(log: list) -> str:
    """One Chinese Official hand's log as a Botzone record (see
    ``majiang/data/botzone_mcr/README.md``), readable by :mod:`majiang.records` and
    ``majiang review``.

    Botzone's format has no flowers and seat 0 is the dealer (East): seats are
    renumbered from the dealer, flower draws leave only their replacement ``Draw``,
    and the ``Fan`` / ``Score`` lines leave the 花牌 fans out (Score recomputed by the
    ruleset's settlement without them).

    Raises
    ------
    RuleError
        Not a Chinese Official (``mcr`` or ``mcr_botzone``) hand log, or a log without
        its header.
    """
    from ..records import botzone_code
    from ..rules import get
    if not log or log[0].get("e") != "header":
        raise RuleError("a hand log starts with a header event")
    h = log[0]
    if h["ruleset"] not in _BOTZONE_RULESETS:
        raise RuleError("Botzone records are Chinese Official (mcr or mcr_botzone) hands, "
                        f"not {h['ruleset']}")
    rs = get(h["ruleset"])
    n = rs.players
    dealer = int(h["dealer"])

    def b(seat):
        return (int(seat) - dealer) % n

    def code(t):
        return botzone_code(int(t))

    start = next((e for e in log if e["e"] == "start"), None)
    if start is None:
        raise RuleError("the log has no 'start' event (written by an older engine)")
    lines = [f"Match sim-{h['ruleset']}-{h.get('seed')}-{h.get('hand', 0)}",
             f"Wind {int(h['prevalent_wind'])}"]
    hands = {b(s): list(tiles) for s, tiles in enumerate(start["hands"])}
    first = int(start["drawn"])
    hands[0].remove(first)
    for bs in range(n):
        lines.append(f"Player {bs} Deal " + " ".join(code(t) for t in hands[bs]))
    lines.append(f"Player 0 Draw {code(first)}")
    last_discard = None
    result = []
    wins = []
    for e in log:
        k = e["e"]
        if k == "draw":
            lines.append(f"Player {b(e['seat'])} Draw {code(e['tile'])}")
        elif k == "discard":
            lines.append(f"Player {b(e['seat'])} Play {code(e['tile'])}")
            last_discard = e["tile"]
        elif k == "call":
            if e["kind"] == "chow":
                lines.append(f"Player {b(e['seat'])} Chi {code(e['start'] + 1)}")
            elif e["kind"] == "pung":
                lines.append(f"Player {b(e['seat'])} Peng {code(e['tile'])}")
            else:
                lines.append(f"Player {b(e['seat'])} Gang {code(e['tile'])}")
        elif k == "kong":
            act = "AnGang" if e["kind"] == "concealed" else "BuGang"
            lines.append(f"Player {b(e['seat'])} {act} {code(e['tile'])}")
        elif k == "win":
            lines.append(f"Player {b(e['seat'])} Hu {code(e['tile'])}")
            wins.append(e)
    del last_discard
    if not wins:
        lines.append("Huang")
    for w in wins:
        fans = [(name, c) for name, c in w["fans"] if name != "花牌"]
        total = sum(rs.fan(name).value * c for name, c in fans)
        discarder = None if w["discarder"] is None else int(w["discarder"])
        deltas = rs.settle(total, int(w["seat"]), discarder)
        score = [0] * n
        for s2 in range(n):
            score[b(s2)] = deltas[s2]
        result.append(f"Fan {total} " + "+".join(f"{name}*{c}" for name, c in fans))
        result.append("Score " + " ".join(str(x) for x in score))
    return "\n".join(lines + result) + "\n"


def write_botzone(table_or_logs: Any, path: Any = None) -> str:
    """Write the Chinese Official hands of ``simulate(..., logs=True)`` (or a list of
    logs) as Botzone records, one blank line between hands; returns the text (also
    written to ``path``).  Hands of other rulesets are skipped.  See
    :func:`botzone_text` for what changes (seat numbers, flowers).

    Raises
    ------
    RuleError
        A table without a ``log`` column.
    """
    parts = []
    for lg in _logs_of(table_or_logs):
        if lg and lg[0].get("e") == "header" and lg[0].get("ruleset") in _BOTZONE_RULESETS:
            parts.append(botzone_text(lg))
    text = "\n".join(parts)
    if path is not None:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    return text

"""An external Botzone program as a seat of the engine (:class:`ExternalPlayer`).

The player turns the events its seat sees (:meth:`SeatView.seen_events`, the log the
seat keeps from ``start``) into Botzone requests, sends each to the program and reads its
response; the response to the request of a decision the engine asks (own draw, a
discard or an added kong it may claim) becomes the move.  Seat ids: the engine's seat
``p`` is Botzone id ``(p - dealer) % 4`` (its seat wind), so id 0 deals; flowers are
coded ``H1``-``H8`` by their index in the tile set.
"""
from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
import time
from typing import Any

from ..errors import RuleError
from ..records.codes import botzone_code
from ._table import KEEP_RUNNING, BotzoneTable, flower_code


PROTOCOLS = ("simple", "json")
"""Botzone's interaction formats :class:`ExternalPlayer` speaks."""


def _illegal(msg: str):
    from ..game.engine import IllegalMoveError
    return IllegalMoveError(msg)


class RequestWriter:
    """Botzone requests for one engine seat from the hand's events (:mod:`majiang.game.logs`
    format, as :meth:`SeatView.seen_events` gives them), fed in order (:meth:`feed`).

    The engine's seat ``p`` is Botzone id ``(p - dealer) % 4``; a flower tile ``t``
    (34..41) is ``H{t - 33}``; a pung or chow and the discard after it are one request
    (``3 id PENG t`` / ``3 id CHI mid t``), as Botzone sends them.  The ``0 id quan``
    request comes first and is not written here.
    """

    def __init__(self, seat: int, dealer: int) -> None:
        self._seat = seat
        self._dealer = dealer
        self._start_flowers: list = [[] for _ in range(4)]
        self._pending_call: tuple | None = None

    def _id(self, seat: int) -> int:
        return (seat - self._dealer) % 4

    def feed(self, events: list) -> list:
        """The request lines of these events (in order), for the seat."""
        out = []
        for e in events:
            k = e.get("e")
            if k == "flowers":
                self._start_flowers[self._id(e["seat"])] = list(e["tiles"])
            elif k == "start":
                hand = list(e["hands"][self._seat])
                if self._seat == self._dealer:
                    hand.remove(e["drawn"])
                fl = self._start_flowers
                out.append(" ".join(["1"] + [str(len(f)) for f in fl]
                                    + [botzone_code(t) for t in hand]
                                    + [flower_code(t) for f in fl for t in f]))
                out.append(f"2 {botzone_code(e['drawn'])}" if self._seat == self._dealer
                           else "3 0 DRAW")
            elif k == "flower":
                out.append(f"3 {self._id(e['seat'])} BUHUA {flower_code(e['tile'])}")
            elif k == "draw":
                out.append(f"2 {botzone_code(e['tile'])}" if e["seat"] == self._seat
                           else f"3 {self._id(e['seat'])} DRAW")
            elif k == "call":
                if e["kind"] == "kong":
                    out.append(f"3 {self._id(e['seat'])} GANG")
                else:
                    self._pending_call = (e["seat"], e["kind"], e.get("start"))
            elif k == "discard":
                who, t = self._id(e["seat"]), botzone_code(e["tile"])
                pc = self._pending_call
                self._pending_call = None
                if pc is not None and pc[0] == e["seat"] and pc[1] == "pung":
                    out.append(f"3 {who} PENG {t}")
                elif pc is not None and pc[0] == e["seat"] and pc[1] == "chow":
                    out.append(f"3 {who} CHI {botzone_code(pc[2] + 1)} {t}")
                else:
                    out.append(f"3 {who} PLAY {t}")
            elif k == "kong":
                who = self._id(e["seat"])
                out.append(f"3 {who} GANG" if e["kind"] == "concealed"
                           else f"3 {who} BUGANG {botzone_code(e['tile'])}")
        return out


class ExternalPlayer:
    """A seat played by a program speaking Botzone's Chinese-Standard-Mahjong protocol
    (simple or JSON interaction; a policy object for :func:`majiang.game.play_hand` / ``simulate``).

    Parameters
    ----------
    command : str or sequence of str
        The program and its arguments (a string is split as a shell would).
    time_limit : float
        Seconds allowed per response (default 6, Botzone's limit for Python bots).
    startup_limit : float
        Seconds allowed for the first response of a process (start-up and imports).
    name : str, optional
        Shown in messages (default: the command).
    protocol : {"simple", "json"}
        Botzone's simple interaction (default) or its JSON interaction: the history as one
        line ``{"requests": [...], "responses": [...]}``, a kept-running request as a JSON
        string, the answer as ``{"response": "..."}``.

    The program may keep running (print ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` after its
    response: later requests come one line each) or exit after each response (it is
    started again with the whole history, as on Botzone).  Only Chinese Official rules
    for four players are played: ``"mcr_botzone"`` (as on Botzone) or ``"mcr"``.

    Raises (from the engine's calls)
    ------
    IllegalMoveError
        One line naming the seat, the program, the request and the response: a response
        that is no legal move (also a non-PASS answer where the rules allow none), a
        timeout, or a program that exits without answering.
    """

    def __init__(self, command: Any, *, time_limit: float = 6.0, startup_limit: float = 60.0,
                 name: str | None = None, protocol: str = "simple") -> None:
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.command:
            raise RuleError("ExternalPlayer needs a command")
        if protocol not in PROTOCOLS:
            raise RuleError(f"protocol must be one of {', '.join(PROTOCOLS)}, got "
                            f"{protocol!r}")
        self.protocol = protocol
        self.time_limit = float(time_limit)
        self.startup_limit = float(startup_limit)
        self.name = name or " ".join(self.command)
        self._proc: subprocess.Popen | None = None
        self._lines: queue.Queue | None = None
        self.requests: list[str] = []
        self.responses: list[str] = []

    # ------------------------------------------------------------------ process
    def _spawn(self) -> None:
        self.close()
        try:
            self._proc = subprocess.Popen(self.command, stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                          text=True, bufsize=1)
        except OSError as exc:          # not found, not executable ...
            raise _illegal(f"the external program {self.command!r} could not be started: "
                           f"{exc.strerror or exc}") from None
        q: queue.Queue = queue.Queue()
        out = self._proc.stdout

        def pump():
            for line in out:
                q.put(line)
            q.put(None)
        threading.Thread(target=pump, daemon=True).start()
        self._lines = q
        self._fresh = True
        self._kept = False

    def close(self) -> None:
        """End the program (it is also ended at the next hand's start)."""
        p = self._proc
        self._proc = None
        if p is not None and p.poll() is None:
            try:
                p.stdin.close()
            except OSError:
                pass
            try:
                p.wait(timeout=2)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def _ask(self, request: str) -> str:
        """Send one request (with the history when the program is not running) and
        return its response line."""
        if self._proc is None or self._proc.poll() is not None or not self._kept:
            self._spawn()
            if self.protocol == "json":
                payload = json.dumps({"requests": self.requests + [request],
                                      "responses": self.responses}) + "\n"
            else:
                n = len(self.requests) + 1
                text = [str(n)]
                for i, r in enumerate(self.requests):
                    text += [r, self.responses[i]]
                text.append(request)
                payload = "\n".join(text) + "\n"
        else:
            payload = (json.dumps(request) if self.protocol == "json" else request) + "\n"
        limit = self.startup_limit if self._fresh else self.time_limit
        self._fresh = False
        try:
            self._proc.stdin.write(payload)
            self._proc.stdin.flush()
        except OSError:
            raise self._fail(request, "the program closed its input") from None
        deadline = time.monotonic() + limit
        response = None
        while True:
            left = deadline - time.monotonic()
            try:
                line = self._lines.get(timeout=max(left, 0.0))
            except queue.Empty:
                self.close()
                raise self._fail(request, f"no answer within {limit:g} s") from None
            if line is None:                  # exited: one answer per run
                self._kept = False
                break
            text = line.strip()
            if text == KEEP_RUNNING:
                self._kept = True
                break
            if response is None and text:
                response = text
        if response is None:
            raise self._fail(request, "the program ended without an answer")
        if self.protocol == "json":
            response = self._json_response(request, response)
        self.requests.append(request)
        self.responses.append(response)
        return response

    def _json_response(self, request: str, line: str) -> str:
        """The ``"response"`` string of a JSON answer line (else an IllegalMoveError)."""
        try:
            obj = json.loads(line)
        except ValueError:
            obj = None
        if not isinstance(obj, dict) or not isinstance(obj.get("response"), str):
            self.close()
            raise self._fail(request, 'not a JSON answer {"response": "..."}', line)
        return obj["response"].strip()

    def _fail(self, request: str, why: str, response: str | None = None):
        got = "" if response is None else f" answered {response!r}:"
        return _illegal(f"seat {self._seat} ({self.name}): to request {request!r}{got} {why}")

    # ------------------------------------------------------------------ events -> requests
    def start(self, view) -> None:
        from ._table import RULESETS
        if view.players != 4 or view.model.name not in RULESETS:
            raise RuleError(f"ExternalPlayer plays Chinese Official rules for 4 players "
                            f"(ruleset {' or '.join(map(repr, RULESETS))}); got "
                            f"{view.model.name!r}")
        view.record_events()
        self._seat = view.seat
        self._dealer = view.dealer
        self._pid = (view.seat - view.dealer) % 4
        self._seen = view.n_events()
        self._writer = RequestWriter(view.seat, view.dealer)
        self._cached_play: int | None = None
        self.requests, self.responses = [], []
        self.table = BotzoneTable(view.model.name)
        self._kept = False
        self.close()
        self._send(f"0 {self._pid} {view.prevalent_wind}")

    def _send(self, request: str, check: bool = True) -> str:
        """Apply the request to the seat's table and ask the program; ``check``: refuse
        an answer the table finds illegal (a decision the engine asks is checked against
        the engine's options instead)."""
        self.table.apply(request)
        response = self._ask(request)
        if check:
            why = self.table.check_response(response)
            if why is not None:
                self.close()
                raise self._fail(request, why, response)
        self.table.respond(response)
        return response

    def _requests(self, events: list) -> list:
        return self._writer.feed(events)

    def _sync(self, view) -> str | None:
        """Send every request the seat has not seen yet; the last one's response (the
        decision's), or None when there was none."""
        events = view.seen_events(self._seen)
        self._seen = view.n_events()
        reqs = self._requests(events)
        resp = None
        for i, r in enumerate(reqs):
            last = i == len(reqs) - 1
            resp = self._send(r, check=not last)
            if not last and resp != "PASS" and not self._overridable(resp):
                raise self._fail(r, "a move the engine did not offer here", resp)
        return resp

    def _overridable(self, resp: str) -> bool:
        # a legal claim of a discard that another seat's claim (or win) took first
        return self.table.last[0] in ("discard", "bugang") and resp.split()[0] in (
            "HU", "PENG", "CHI", "GANG")

    # ------------------------------------------------------------------ the policy
    def _parse(self, req: str, resp: str | None, shapes: dict) -> tuple:
        """``(word, tiles)`` of a response whose first word is in ``shapes`` (word ->
        number of tiles after it); else an IllegalMoveError."""
        from ..errors import InvalidNotationError
        from ..records.codes import botzone_tile
        w = (resp or "").split()
        if not w or w[0] not in shapes or len(w) != 1 + shapes[w[0]]:
            expected = ", ".join(k + " t" * n for k, n in shapes.items())
            raise self._fail(req, f"expected one of: {expected}", resp)
        try:
            return w[0], [botzone_tile(x) for x in w[1:]]
        except InvalidNotationError as exc:
            raise self._fail(req, str(exc), resp) from None

    def _offered(self, req, resp, move, options):
        if move not in [tuple(o) for o in options]:
            self._cached_play = None
            self.close()
            raise self._fail(req, "a move the engine does not allow here (legal: "
                                  + (", ".join(map(str, options)) or "none") + ")", resp)
        return move

    def declare(self, view, options):
        resp = self._sync(view)
        req = self.requests[-1] if self.requests else ""
        word, ts = self._parse(req, resp, {"PLAY": 1, "GANG": 1, "BUGANG": 1, "HU": 0})
        if word == "PLAY":
            self._cached_play = ts[0]
            return None
        move = {"HU": ("win",), "GANG": ("concealed_kong", ts and ts[0]),
                "BUGANG": ("added_kong", ts and ts[0])}[word]
        return self._offered(req, resp, move, options)

    def discard(self, view) -> int:
        if self._cached_play is None:
            resp = self._sync(view)
            req = self.requests[-1] if self.requests else ""
            word, ts = self._parse(req, resp, {"PLAY": 1})
            self._cached_play = ts[0]
        t = self._cached_play
        self._cached_play = None
        if t not in view.legal_discards:
            self.close()
            raise self._fail(self.requests[-1], "a discard of a tile not held",
                             self.responses[-1])
        return int(t)

    def claim(self, view, options):
        resp = self._sync(view)
        req = self.requests[-1] if self.requests else ""
        word, ts = self._parse(req, resp, {"PASS": 0, "HU": 0, "GANG": 0, "PENG": 1,
                                           "CHI": 2})
        if word == "PASS":
            return None
        if word == "HU":
            move = ("win",)
        elif word == "GANG":
            move = ("kong",)
        elif word == "PENG":
            move = ("pung",)
            self._cached_play = ts[0]
        else:
            move = ("chow", ts[0] - 1)
            self._cached_play = ts[1]
        return self._offered(req, resp, move, options)

    def __repr__(self) -> str:
        return f"ExternalPlayer({self.name!r})"

"""Whole hands under a ruleset: the engine, players, logs and the simulate runner.

* :func:`play_hand` — one hand (一局) from the deal to a win or an exhausted wall
  (:mod:`.engine`);
* players — the policy protocol, :class:`SeatView`, the ``"random"`` and
  ``"efficiency"`` bots (:mod:`.players`);
* :func:`replay`, :func:`to_jsonl`, :func:`read_jsonl` — event logs (:mod:`.logs`);
  :func:`write_botzone` — Chinese Official hands as Botzone records (``majiang review``);
* :func:`simulate` — many hands as a pandas DataFrame (:mod:`.runner`), on all cores
  or an executor, resumable in a Parquet run directory; :func:`read_run` reads one
  back (:mod:`.store`).
"""
from .engine import HandState, IllegalMoveError, play_hand
from .logs import read_jsonl, replay, summarize, to_jsonl, write_botzone
from .players import EfficiencyPlayer, RandomPlayer, SeatView
from .runner import simulate
from .store import read_run

__all__ = ["play_hand", "HandState", "IllegalMoveError", "SeatView", "RandomPlayer",
           "EfficiencyPlayer", "replay", "summarize", "to_jsonl", "read_jsonl", "simulate", "write_botzone",
           "read_run"]

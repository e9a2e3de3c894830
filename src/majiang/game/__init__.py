"""Whole hands under a ruleset: the engine, players, logs and the simulate runner.

* :func:`play_hand` — one hand (一局) from the deal to a win or an exhausted wall
  (:mod:`.engine`);
* players — the policy protocol, :class:`SeatView` (:mod:`.seat_view`), the ``"random"``,
  ``"efficiency"`` and ``"expert"`` bots (:mod:`.players`, :mod:`.expert`);
* :func:`replay`, :func:`to_jsonl`, :func:`read_jsonl` — event logs (:mod:`.logs`);
  :func:`write_botzone` — Chinese Official hands as Botzone records (``majiang review``);
* :func:`simulate` — many hands as a pandas DataFrame (:mod:`.runner`), on all cores
  or an executor, resumable in a Parquet run directory; :func:`read_run` reads one
  back (:mod:`.store`);
* :func:`play_match` — hands in a row, the deal, the dealer's streak, the prevalent wind
  and the scores carried from hand to hand under the ruleset's 连庄 rule (:mod:`.match`);
* :func:`table_probabilities` — win / tenpai probability of a hand at a full table
  by Monte Carlo over the engine (:mod:`.table`), registered as
  ``majiang.probability.win_probability(..., model="table")``.
"""
from .engine import HandState, IllegalMoveError, play_hand
from .logs import read_jsonl, replay, summarize, to_jsonl, write_botzone
from .expert import ExpertPlayer
from .players import EfficiencyPlayer, RandomPlayer, SeatView
from .runner import simulate
from .match import play_match
from .store import read_run
from .table import table_probabilities
from ..probability import register_model as _register_model
from .table import _model as _table_model

_register_model("table", _table_model)     # win_probability(..., model="table")

__all__ = ["play_hand", "HandState", "IllegalMoveError", "SeatView", "RandomPlayer",
           "EfficiencyPlayer", "ExpertPlayer", "replay", "summarize", "to_jsonl", "read_jsonl", "simulate", "play_match", "write_botzone",
           "read_run", "table_probabilities"]

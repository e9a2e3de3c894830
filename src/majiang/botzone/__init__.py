"""Botzone's Chinese-Standard-Mahjong protocol, both ways (docs/botzone.md).

* ``python -m majiang.botzone`` (:func:`main`): our bot as a Botzone program — it reads
  the simple interaction on standard input (the turn count, then the requests and its
  own earlier responses; or, kept running, one request a line), rebuilds the seat's
  table (:class:`BotzoneTable`, a :class:`majiang.Position` under ``"mcr_botzone"`` or
  ``"mcr"``) and prints a legal response (:func:`choose_response`; ``--player NAME``: a
  built-in player of the engine answers, :func:`player_response`).
* :class:`ExternalPlayer`: a program speaking the protocol as a seat of the engine
  (``majiang.game.play_hand(..., players=[ExternalPlayer("prog"), ...])``), with a time
  limit per response and a one-line :class:`~majiang.game.engine.IllegalMoveError` on an
  illegal move or a timeout.

Tile codes: ``W1``-``W9`` 万, ``B1``-``B9`` 筒, ``T1``-``T9`` 条, ``F1``-``F4`` East South
West North, ``J1``-``J3`` 中 发 白, ``H1``-``H8`` flowers
(:func:`majiang.records.botzone_tile`).  Rules: Chinese Official as Botzone plays it
(``"mcr_botzone"``, the default) or with one wall and flowers (``"mcr"``).
"""
from __future__ import annotations

from ._bot import choose_response, main
from ._external import ExternalPlayer, RequestWriter
from ._players import make_player, player_names, player_response
from ._table import KEEP_RUNNING, BotzoneTable, parse_input

__all__ = ["BotzoneTable", "ExternalPlayer", "KEEP_RUNNING", "RequestWriter", "choose_response", "main",
           "make_player", "parse_input", "player_names", "player_response"]

"""A table position: everything one seat sees at a decision.

:class:`Position` gathers what a player knows when it must act: the ruleset, its
seat, the dealer and the winds, its own concealed tiles (and the tile just drawn),
every seat's melds (with the seat each claimed meld came from), every seat's discards
in order (those claimed marked with the claiming seat), flowers, the joker indicator,
the tiles left in the wall, declared void suits (定缺), the seats that already won
(血战 / 血流) and ready declarations (报听).  It never holds another seat's concealed
tiles, nor the wall's order.

Tiles are kind indices 0..33 (0-8 = 1-9m, 9-17 = 1-9p, 18-26 = 1-9s, 27-30 = East South
West North, 31-33 = White Green Red); the own concealed tiles are physical kinds (a
held joker at its kind).  Count vectors are ``numpy`` arrays of shape ``(34,)``.

Counting rules (one place, used by every analysis that takes a Position):

* a discard claimed into a meld (or won on) is counted once, in the meld (or among the
  winner's :attr:`Position.won_tiles`), never in the river;
* another seat's concealed kong whose tile the seat did not see is a count in
  :attr:`Position.hidden_kongs` (4 unknown tiles, part of :meth:`Position.unseen_counts`);
* the joker indicator counts as seen when it stays face up on the table (as the
  ruleset says: :meth:`majiang.rules.model.GameModel.face_up`).

Errors: :class:`~majiang.errors.InvalidHandError` for tiles that cannot be there
together (a fifth copy, a tile outside the tile set, a hand size that does not fit the
turn), :class:`~majiang.errors.InvalidNotationError` for unreadable text and
:class:`~majiang.errors.RuleError` for seats, winds and options out of range.

The package holds one concept per module: ``_model`` (the :class:`Position` dataclass,
its constructor, validation and value semantics), ``_parse`` (reading seats, tiles,
melds and rivers; :class:`TableMeld`), ``_counts`` (what the seat sees and does not),
``_analysis`` (what the analyses read: :func:`analysis_inputs`), ``_build`` (from an
engine view, a Botzone record, an event log), ``_text`` (plain data, TOML / JSON, the
one-line form) and ``_html`` (Jupyter).  Import the names from ``majiang.position``.
"""
from __future__ import annotations

from ..records.datatypes import Discard
from ._analysis import analysis_inputs, check_draws
from ._model import Position, position_from_dict, position_from_text
from ._parse import TableMeld

__all__ = ["Position", "TableMeld", "Discard", "position_from_dict", "position_from_text",
           "analysis_inputs", "check_draws"]

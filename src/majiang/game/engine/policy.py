"""Asking the players' policies for their moves in the Python loop, and refusing a move
the rules do not allow (:class:`IllegalMoveError`)."""
from __future__ import annotations

import numpy as np

from ...errors import MahjongError


class IllegalMoveError(MahjongError):
    """A player policy returned a move that the rules do not allow here."""


def _options_text(options):
    return ", ".join(repr(tuple(o)) for o in options) or "none"


def _norm(choice):
    if choice is None:
        return None
    if isinstance(choice, (list, tuple)):
        return tuple(int(x) if isinstance(x, (int, np.integer)) and not isinstance(x, bool)
                     else x for x in choice)
    return choice


class _Asking:
    """Asking the policies (a mixin of :class:`~majiang.game.engine.loop._Game`)."""

    def _ask(self, e, p, options, none_means):
        """Ask seat ``p``'s policy to ``e`` ("declare" / "claim") among ``options``; a
        choice outside them (None = ``none_means``) is an :class:`IllegalMoveError`."""
        choice = _norm(getattr(self.pol[p], e)(self.views[p], list(options)))
        if choice is not None and choice not in options:
            raise IllegalMoveError(f"seat {p} ({self.pol[p]!r}): {e} returned {choice!r}; "
                                   f"legal: None ({none_means}) or {_options_text(options)}")
        self.st._log(e=e, seat=p, options=[list(o) for o in options],
                     choice=None if choice is None else list(choice))
        return choice

    def ask_declare(self, p, options):
        return self._ask("declare", p, options, "go on to discard")

    def ask_claim(self, p, options):
        return self._ask("claim", p, options, "pass")

    def ask_ready(self, p, tile, waits, offered=None):
        """Ask seat ``p``'s policy whether to declare ready (报听) with discard ``tile``
        (None: on the dealt hand, no discard), among the kinds ``offered`` now (default:
        every kind the ruleset plays; :attr:`SeatView.ready_offered
        <majiang.game.players.SeatView.ready_offered>` while asked):
        ``declare_ready(view, tile, waits)`` returns False / None (no), True (the first
        kind offered) or one of them; a policy without the method never declares.  The
        decision is logged (``ready``) whatever it is, so a replay asks it again.  Returns
        ``""`` or the declaration's kind."""
        st = self.st
        kinds = tuple(offered) if offered else st.ready_kinds
        fn = getattr(self.pol[p], "declare_ready", None)
        st.ready_offered = kinds
        try:
            choice = fn(self.views[p], None if tile is None else int(tile),
                        list(waits)) if fn is not None else False
        finally:
            st.ready_offered = ()
        if choice is True:
            choice = kinds[0]
        elif choice is False or choice is None or choice == "":
            choice = ""
        elif choice not in kinds:
            raise IllegalMoveError(f"seat {p} ({self.pol[p]!r}): declare_ready returned "
                                   f"{choice!r}; legal: False, True or one of {list(kinds)}")
        st._log(e="ready", seat=p, tile=None if tile is None else int(tile),
                options=list(kinds), waits=list(waits), choice=choice)
        return choice

    def ask_discard(self, p):
        st = self.st
        legal = st.legal_discards(p)
        s = st.seats[p]
        if s.locked or (s.declared and s.drawn is not None):
            t = legal[0]
        else:
            t = self.pol[p].discard(self.views[p])
            if isinstance(t, (np.integer,)):
                t = int(t)
            if isinstance(t, bool) or not isinstance(t, int) or t not in legal:
                raise IllegalMoveError(f"seat {p} ({self.pol[p]!r}): discard returned {t!r}; "
                                       f"legal discards (physical kinds): {legal}")
        if s.locked or (s.declared and s.drawn is not None):
            st._log(e="discard", seat=p, tile=int(t), forced=True)
        else:
            st._log(e="discard", seat=p, tile=int(t))
        return int(t)

    # -- the hand --------------------------------------------------------

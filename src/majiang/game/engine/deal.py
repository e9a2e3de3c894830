"""The deal of the Python loop: tiles dealt, the joker indicator turned, flowers
replaced, 换三张 and 定缺 (a part of :class:`~majiang.game.engine.loop._Game`)."""
from __future__ import annotations

import numpy as np

from ...errors import RuleError
from ...rules.model import game_model
from ...rules.derived import with_indicator
from ..players import efficiency_exchange
from .facts import _indicator_back
from .policy import IllegalMoveError


def plays_exchange(rs, exchange3) -> bool:
    """换三张 is played: asked for (``exchange3=True``) or the ruleset's own
    (``Ruleset.exchange == 3``)."""
    return bool(exchange3) or rs.exchange == 3


def check_exchange(model, exchange3) -> None:
    """RuleError unless ``exchange3`` is a bool, and True only under a ruleset with 定缺
    (:attr:`RuleSpec.declares_void <majiang.rules.model.RuleSpec.declares_void>`): 换三张 is
    played before 定缺, so a ruleset without a declared void suit (none, or 缺门 at the win
    only) has no 换三张 to play."""
    if not isinstance(exchange3, (bool, np.bool_)):
        raise RuleError(f"exchange3 must be True or False, got {exchange3!r}")
    if exchange3 and not model.declares_void:
        raise RuleError(f"exchange3: 换三张 is played before 定缺 (缺一门); {model.name} "
                        + ("declares no void suit (its hand lacks a suit only at the win)"
                           if model.void_suit else "has no void suit"))


def exchange_direction(bitgen, n: int) -> int:
    """换三张's one direction for all seats, drawn from the hand's stream after the
    choices: 0 next seat, 1 previous seat, 2 opposite (two choices with three players)."""
    m = 3 if n == 4 else 2
    return (int(bitgen.random_raw()) * m) >> 64


class _Deal:
    """The deal (a mixin of :class:`~majiang.game.engine.loop._Game`)."""


    def deal(self):
        """Deal, turn the joker indicator, replace flowers, 定缺; under standing tiles
        (立四, :mod:`.declare`) the first tiles dealt to each seat stand apart."""
        st = self.st
        n = st.n
        order = [(st.dealer + i) % n for i in range(n)]
        for p in order:
            k = st.model.hand_size + (1 if p == st.dealer else 0)
            for _ in range(k):
                t = st._take(False, p)
                if t >= 34:
                    st.seats[p].flowers.append(t)
                else:
                    st.seats[p].phys[t] += 1
                    if int(st.seats[p].standing.sum()) < st.standing:
                        st.seats[p].standing[t] += 1     # 立四: the first tiles dealt stand
                st.seats[p].drawn = t
        st._log(e="deal", hands=[[int(x) for x in np.repeat(np.arange(34), s.phys)]
                                 for s in st.seats],
                flowers=[list(s.flowers) for s in st.seats])
        # jokers
        jr = st.joker_rule
        if jr is not None:
            if jr.flowers:
                pass            # 花鬼: the flowers held are the jokers, no kind is wild
            elif jr.source == "fixed":
                st.jk = int(jr.fixed)
                st.jks = (st.jk,)
            else:
                t = st._take(True)
                while t >= 34:
                    st.aside.append(t)
                    t = st._take(True)
                st.indicator = t
                # a rule reading the turned kind (武汉 痞子: never held at a win)
                st.rs = with_indicator(st.rs, t)
                st.model = game_model(st.rs)
                st.jk = int(jr.kind(t))
                st.jks = tuple(int(k) for k in jr.kinds(t))
                if _indicator_back(jr, st.model, t):
                    # every copy of the turned kind is wild (南昌 正精): the turned tile
                    # goes back where it lay, the next replacement draw
                    st.tail += 1
                else:
                    st.aside.append(t)
                    st.visible[t] += 1
            if jr.substitute is not None:
                st.sub = int(jr.substitute)
            st._log(e="jokers", indicator=st.indicator, joker=st.jk, kinds=list(st.jks))
        # flowers in the deal: replaced from the tail, dealer first, until none (花鬼:
        # kept in the hand as jokers)
        for p in order:
            s = st.seats[p]
            need = 0 if st.flower_jokers else len(s.flowers)
            while need:
                need -= 1
                t = st._take(True)
                st.draws += 1
                if t >= 34:
                    s.flowers.append(t)
                    need += 1
                else:
                    s.phys[t] += 1
                    s.drawn = t
            if s.flowers and not st.flower_jokers:
                st._log(e="flowers", seat=p, tiles=list(s.flowers))
        d = st.seats[st.dealer]
        if d.drawn is None or d.drawn >= 34 or not d.phys[d.drawn]:
            d.drawn = int(np.flatnonzero(d.phys)[-1])
        if st.exchange3:
            self.exchange(order)
        for p in range(n):
            st._changed(p)
        # 定缺 (not under 缺门 at the win: nothing is declared, RuleSpec.declares_void)
        if st.model.declares_void:
            for p in order:
                v = self.pol[p].choose_void(self.views[p]) if hasattr(self.pol[p], "choose_void") \
                    else 0
                if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= v <= 2:
                    raise IllegalMoveError(f"seat {p}: choose_void returned {v!r}; legal: 0 (万), "
                                           "1 (筒), 2 (条)")
                st.seats[p].void = int(v)
                st._melds_changed(p)
                st._log(e="void", seat=p, suit=int(v))
        if st.standing:
            for s in st.seats:          # (换三张 may have passed some on)
                np.minimum(s.standing, s.phys, out=s.standing)
            st._log(e="standing", tiles=[[int(x) for x in np.repeat(np.arange(34), s.standing)]
                                         for s in st.seats])
        st.start_hands = [s.phys.copy() for s in st.seats]
        st._log(e="start", hands=[[int(x) for x in np.repeat(np.arange(34), s.phys)]
                                  for s in st.seats],
                drawn=int(st.seats[st.dealer].drawn))

    def exchange(self, order):
        """换三张 (docs/rules/sichuan.md §2): each seat passes three tiles of one suit; one
        random direction for all (next seat, previous seat, opposite; two choices with
        three players), drawn from the hand's stream after the choices."""
        st = self.st
        n = st.n
        gives = {}
        for p in order:
            pol = self.pol[p]
            s = st.seats[p]
            t = pol.exchange(self.views[p]) if hasattr(pol, "exchange") \
                else efficiency_exchange(s.phys)
            try:
                t = sorted(int(x) for x in t)
            except (TypeError, ValueError):
                t = None
            ok = (t is not None and len(t) == 3 and all(0 <= x < 27 for x in t)
                  and len({x // 9 for x in t}) == 1
                  and all(s.phys[x] >= t.count(x) for x in t))
            if not ok:
                raise IllegalMoveError(f"seat {p} ({pol!r}): exchange returned {t!r}; legal: "
                                       "three held tiles of one suit (万 筒 条)")
            gives[p] = t
            st._log(e="exchange", seat=p, tiles=t)
        if st.exchange_direction is not None:
            d = int(st.exchange_direction)
        else:
            d = exchange_direction(st.bitgen, n)
        st._log(e="exchange_direction", direction=d)
        for p in range(n):
            for x in gives[p]:
                st.seats[p].phys[x] -= 1
        step = (1, n - 1, 2)[d]
        for p in range(n):
            for x in gives[p]:
                st.seats[(p + step) % n].phys[x] += 1
        dl = st.seats[st.dealer]
        if not dl.phys[dl.drawn]:
            dl.drawn = int(np.flatnonzero(dl.phys)[-1])

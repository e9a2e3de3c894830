"""Shared helpers of the engine tests: hand-built walls and a scripted test policy."""
from __future__ import annotations

from collections import Counter

from majiang.game.players import EfficiencyPlayer
from majiang.rules.base import EndTable
from majiang.rules.model import game_model
from majiang.tiles import parse_tiles


def build_test_wall(name, hands, draws="", tail=""):
    """A physical wall under ruleset ``name``: the hands in deal order (dealer first),
    then ``draws`` from the head; the rest of the set in the middle; ``tail`` drawn
    first from the end."""
    model = game_model(name)
    pool = Counter()
    for k in range(34):
        pool[k] += int(model.copies[k])
    for f in range(model.n_flowers):
        pool[34 + f] += 1
    head = []
    for h in hands:
        head += parse_tiles(h)
    head += parse_tiles(draws) if draws else []
    back = parse_tiles(tail) if tail else []
    for t in head + back:
        pool[t] -= 1
        assert pool[t] >= 0, f"too many copies of {t}"
    return head + sorted(pool.elements()) + back[::-1]


class Script:
    """A test policy: discards the listed tiles in order (else its drawn tile);
    claims / declares the listed option kinds; wins unless told to skip wins
    (``skip_wins`` claims of a win passed); ``seen`` records every option list."""

    def __init__(self, discards="", claims=(), declares=(), skip_wins=0):
        self.discards = parse_tiles(discards) if discards else []
        self.claims = tuple(claims)
        self.declares = tuple(declares)
        self.skip_wins = skip_wins
        self.seen = []

    def discard(self, view):
        legal = view.legal_discards
        if self.discards and self.discards[0] in legal:
            return self.discards.pop(0)
        return view.drawn if view.drawn in legal else legal[-1]

    def _pick(self, kinds, options):
        for kind in kinds:
            for o in options:
                if o[0] == kind:
                    return o
        return None

    def claim(self, view, options):
        self.seen.append(("claim", list(options)))
        if ("win",) in options:
            if self.skip_wins:
                self.skip_wins -= 1
            else:
                return ("win",)
        return self._pick(self.claims, options)

    def declare(self, view, options):
        self.seen.append(("declare", list(options)))
        if ("win",) in options:
            return ("win",)
        return self._pick(self.declares, options)


def end_table(**kw):
    """An :class:`~majiang.rules.base.EndTable` of a four-seat hand: nobody ready, no
    discards, kongs or turned tiles, unless given in ``kw``."""
    base = dict(players=4, end="win", winners=(), ready=(False,) * 4, values=(None,) * 4,
                tiles=({},) * 4, discards=((),) * 4, kongs=((),) * 4, turned=None,
                first_discards={})
    base.update(kw)
    return EndTable(**base)


def by_check(entries):
    """Settlement entries grouped ``{check: sorted [(payer, payee, amount)]}``."""
    out = {}
    for e in entries:
        out.setdefault(e["check"], []).append((e["payer"], e["payee"], e["amount"]))
    return {k: sorted(v) for k, v in out.items()}


def check_settlement(st):
    """Assert a played hand settles consistently: zero-sum, every end payment positive
    between two seats, the wins' and end payments adding up to the score changes, every
    tile accounted for.  Returns the end payments (``st.end_checks``)."""
    import numpy as np
    assert sum(st.deltas) == 0
    paid = np.zeros(len(st.deltas), dtype=np.int64)
    for w in st.wins:
        paid += w["deltas"]
    for e in st.end_checks:
        assert e["amount"] > 0 and e["payer"] != e["payee"]
        paid[e["payer"]] -= e["amount"]
        paid[e["payee"]] += e["amount"]
    assert list(paid) == list(st.deltas)
    assert np.array_equal(st.census(), st.expected_census())
    return st.end_checks


class GoldKonger(EfficiencyPlayer):
    """The efficiency bot that declares a kong of its 混儿 (金杠 / 银杠) whenever offered
    (the bots themselves keep four jokers rather than kong them)."""

    name = "gold"

    def declare(self, view, options):
        for o in options:
            if o[0] == "concealed_kong" and o[1] in view.joker_kinds:
                return o
        return super().declare(view, options)


def live_decisions(e):
    """PettingZoo's AEC loop over one hand of env ``e``: yields ``(agent, obs)`` at each
    live decision (the caller must ``e.step`` it); a terminated or truncated agent is
    stepped with ``None`` here."""
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        yield agent, obs

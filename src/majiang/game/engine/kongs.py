"""Kong payments outside the hand value (:attr:`Ruleset.kong_payments`: 四川 刮风下雨
and 呼叫转移, 广东 杠分, 贵州 豆): one ledger per hand, filled by both loops and settled
by :func:`~majiang.game.engine.settlement.end_checks`."""
from __future__ import annotations

from typing import NamedTuple


def kongs_read(rs) -> bool:
    """Whether anything in the ruleset reads a :class:`KongLedger`: its kong payments
    (:attr:`Ruleset.kong_payments`) or a fan tagged :data:`~majiang.rules.fans.KONG_CHAIN`
    (杭州 杠开 ×2 per kong, :attr:`WinContext.kong_chain
    <majiang.winning.WinContext.kong_chain>`).  The compiled loop tells the ledger its
    kongs only then (its ``pay_kongs`` flag); else its win contexts carry ``kong_chain``
    0, which nothing in the ruleset reads."""
    from ...rules.fans import KONG_CHAIN
    return (getattr(rs, "kong_payments", None) is not None
            or any(KONG_CHAIN in f.tags for f in rs.fans))


class KongItem(NamedTuple):
    """One payment of a :class:`KongLedger`.

    Attributes
    ----------
    entry : dict
        ``{"check", "kind", "payer", "payee", "amount"}``: ``check`` ``"杠分"`` for a
        kong (``kind`` ``"concealed"`` / ``"added"`` / ``"exposed"``) or ``"呼叫转移"``
        for a transfer (``kind`` ``""``); ``amount`` a positive int.
    turn : int
        Discards made before the kong (a transfer: before the winning discard).
    moved : bool
        Its income was moved on by 呼叫转移 (a 退税 then leaves it alone).
    """

    entry: dict
    turn: int
    moved: bool = False


class KongLedger:
    """Kong payments of one hand outside the hand value (:attr:`Ruleset.kong_payments`:
    四川 刮风下雨 and 呼叫转移, 广东 杠分), shared by both loops.

    ``items`` lists :class:`KongItem` entries in the order made; :func:`end_checks`
    applies them to the score deltas at the end of the hand (or voids them: 荒庄荒杠)
    and refunds them (退税).
    """

    def __init__(self, rs, n):
        self.kp = getattr(rs, "kong_payments", None)
        self.n = n
        self.items: list[KongItem] = []
        self.run = (-1, -1, 0)         # (seat, turns, kongs in a row) of the last kong

    def kong(self, p, kind, outs, turns, discarder=-1, late=False, wild=-1):
        """Seat p made a kong (``"concealed"``, ``"added"`` or ``"exposed"`` on
        ``discarder``'s discard); ``outs``: seats already out (血战); ``turns``: discards
        made so far; ``late``: an added kong on a tile held from an earlier turn;
        ``wild``: a concealed kong of the wild kind of that place in
        :meth:`JokerRule.kinds` (金杠 / 银杠, :attr:`KongPayments.wild`), -1 none."""
        seat, turn, n = self.run
        self.run = (p, turns, n + 1 if (seat, turn) == (p, turns) else 1)
        kp = self.kp
        if kp is None:
            return
        others = [q for q in range(self.n) if q != p and not outs[q]]
        if kind == "concealed":
            amt = kp.wild[wild] if 0 <= wild < len(kp.wild) else kp.concealed
            pay = [(q, amt) for q in others]
        elif kind == "added":
            amt = 0 if (late and kp.late_added_free) else kp.added
            pay = [(q, amt) for q in others]
        else:
            pay = [(discarder, kp.exposed)] + [(q, kp.exposed_each) for q in others
                                               if q != discarder]
        for q, a in pay:
            if a > 0:
                self.items.append(KongItem({"check": "杠分", "kind": kind, "payer": int(q),
                                            "payee": int(p), "amount": int(a)}, int(turns)))

    def chain(self, p) -> int:
        """The kongs seat ``p`` made in a row in its current turn (kong, replacement,
        kong …, no discard between: no other seat can kong in between), 0 when the last
        kong was not his; asked for a win on a kong replacement
        (:attr:`~majiang.winning.WinContext.kong_chain`)."""
        seat, _, n = self.run
        return n if seat == p else 0

    def transfer(self, discarder, winners, turns):
        """``winners`` (turn order after the discarder) won on the discard that followed
        the discarder's kong(s) of this turn (杠上炮): 呼叫转移 moves that income to them
        (``transfer``), or it is void (``void_on_deal_in``, 宁城)."""
        kp = self.kp
        if kp is None or not winners or not (kp.transfer
                                             or getattr(kp, "void_on_deal_in", False)):
            return
        inc = [i for i, it in enumerate(self.items)
               if it.entry["check"] == "杠分" and it.entry["payee"] == discarder
               and it.turn == turns - 1 and not it.moved]
        if not kp.transfer:
            for i in reversed(inc):
                del self.items[i]
            return
        total = sum(self.items[i].entry["amount"] for i in inc)
        if not total:
            return
        for i in inc:
            self.items[i] = self.items[i]._replace(moved=True)
        share, rem = divmod(total, len(winners))
        for i, w in enumerate(winners):
            a = share + (rem if i == 0 else 0)
            if a:
                self.items.append(KongItem({"check": "呼叫转移", "kind": "",
                                            "payer": int(discarder), "payee": int(w),
                                            "amount": int(a)}, int(turns)))

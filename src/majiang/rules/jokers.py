"""Jokers (钻牌/财神/百搭/混儿/赖子/金): :class:`JokerRule`, which kind is wild and what a
joker may do, and :data:`WILD_HELD`, the wild kinds of the hand being scored.
"""
from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass

from ..errors import RuleError

__all__ = ["JokerRule", "WILD_HELD"]


_SUCC = {}
for _s in range(3):
    for _r in range(9):
        _SUCC[9 * _s + _r] = 9 * _s + (_r + 1) % 9
_WIND_CYCLE = (27, 28, 29, 30)
_DRAGON_CYCLE = (33, 32, 31)                 # 中 -> 发 -> 白 -> 中
_HONOR_CYCLE7 = (27, 28, 29, 30, 33, 32, 31)  # 东南西北中发白, end joined to start


@dataclass(frozen=True)
class JokerRule:
    """Which tile kind is wild (钻牌/财神/百搭/混儿/赖子/金) and what a joker may do.

    Parameters
    ----------
    source : {"next", "turned", "fixed", "flowers"}
        ``"next"``: the kind after a turned indicator (suits 9→1, winds 东→南→西→北→东,
        dragons 中→发→白→中, or one 7-cycle 东南西北中发白 with ``honor_cycle="seven"``);
        ``"turned"``: the turned tile's kind itself (罗源 金, 活动百搭);
        ``"fixed"``: always ``fixed`` (e.g. 红中);
        ``"flowers"``: no kind is wild: the tile set's ``copies`` flowers are the jokers
        (广东 花鬼).  A flower drawn stays in the hand as a joker (no replacement draw);
        the count vectors hold it in the joker slot (``*``).  No indicator is turned.
    fixed : int, optional
        The kind for ``source="fixed"``.
    honor_cycle : {"separate", "seven"}
    copies : int
        How many copies of the joker kind are wild (4; 3 when the turned one stays
        face up on the table).
    claim, be_claimed, discard : bool
        Whether a joker may be used to claim (吃/碰), whether a discarded joker may be
        claimed or won on, whether a joker may be discarded at all.
    fifth_copy : bool
        Whether a joker may stand for a fifth copy of a kind.
    substitute : int, optional
        A kind that stands in for the joker's natural tile (安庆: 红中; 温州, 上海百搭
        活动百搭, 杭州 翻财神: 白板).  Its copies are drawn as that face
        (:meth:`GameModel.wall`); a hand writes a held one as the face; ukeire and the
        discard tables list its draw under the substitute's own name (``"7z"``, ``"5z"``);
        :func:`majiang.scoring.faces.score` takes it by its own name.
    second : {None, "next"}
        A second wild kind: ``"next"`` = the kind after the first wild kind in its
        cycle (same cycles as ``source="next"``).  南昌 正精 (the turned kind) + 副精
        (the next kind); 天津 混儿 中下滚 (3 of the turned kind + 4 of the next).
        ``None`` (default): one wild kind, as every ruleset before.
    second_copies : int
        Wild copies of the second kind (4).
    own_face_natural : bool
        A joker standing for its own face counts as a natural tile (南昌 德国: "no 精
        acting as a wild"); read by :func:`majiang.scoring.faces.score`, which then also
        scores the hand with the jokers as their faces.  False (default): a held joker
        is always a joker (天津 素胡 = no 混儿 held at all).
    kong : bool
        金杠 (混儿杠): the four copies of a wild kind held together may be declared as a
        concealed kong (天津 TJP, 河北 TJJ2 ``mode_金杠``).  The kong is a set of the hand
        like any concealed kong, of the wild kind's face; its four tiles are jokers
        taken out of play: no longer wild in the concealed hand, and not natural copies
        of that kind either (the jokers still held may stand for it, as before).  A
        kong's money may depend on its wild kind
        (:attr:`~majiang.rules.table_rules.KongPayments.wild`).  False (default): a
        joker never goes into a meld.
    """

    source: str = "next"
    fixed: int | None = None
    honor_cycle: str = "separate"
    copies: int = 4
    claim: bool = False
    be_claimed: bool = False
    discard: bool = True
    fifth_copy: bool = False
    substitute: int | None = None
    second: str | None = None
    second_copies: int = 4
    own_face_natural: bool = False
    kong: bool = False

    def __post_init__(self) -> None:
        if self.source not in ("next", "turned", "fixed", "flowers"):
            raise RuleError(f"joker source must be next, turned, fixed or flowers, got "
                            f"{self.source!r}")
        if self.source == "flowers" and (self.second is not None or self.substitute is not None
                                         or self.fifth_copy):
            raise RuleError("flower jokers (source='flowers') have no wild kind: no second "
                            "kind, substitute tile or fifth copy")
        if self.source == "fixed" and (self.fixed is None or not 0 <= self.fixed < 34):
            raise RuleError("a fixed joker needs fixed=<kind 0..33>")
        if self.honor_cycle not in ("separate", "seven"):
            raise RuleError(f"honor_cycle must be separate or seven, got {self.honor_cycle!r}")
        if not 1 <= self.copies <= 8:
            raise RuleError(f"joker copies must be 1..8, got {self.copies}")
        if not isinstance(self.kong, bool):
            raise RuleError(f"joker kong must be True or False, got {self.kong!r}")
        if self.second not in (None, "next"):
            raise RuleError(f"joker second must be None or 'next', got {self.second!r}")
        if self.second is not None:
            if not 1 <= self.second_copies <= 4:
                raise RuleError(f"joker second_copies must be 1..4, got {self.second_copies}")
            if self.copies + self.second_copies > 8:
                raise RuleError("two joker kinds may have at most 8 wild copies together "
                                f"(a hand counts at most 8 jokers), got {self.copies} + "
                                f"{self.second_copies}")
            if self.substitute is not None:
                raise RuleError("a substitute tile works with one joker kind only")

    def kind(self, indicator: int | None = None) -> int:
        """The wild kind for a turned `indicator` kind (ignored for fixed jokers).

        Raises
        ------
        RuleError
            Flower jokers (no kind is wild), or no indicator for a turned joker.
        """
        if self.source == "flowers":
            raise RuleError("the jokers are the flowers (花鬼): no tile kind is wild")
        if self.source == "fixed":
            return int(self.fixed)
        if indicator is None:
            raise RuleError("this ruleset's joker is found from a turned indicator tile; "
                            "give the indicator")
        t = _kind(indicator)
        if self.source == "turned":
            return t
        return self._next(t)

    def _next(self, t: int) -> int:
        """The kind after `t` in its cycle (suits 9→1, winds, dragons or the 7-cycle)."""
        if t < 27:
            return _SUCC[t]
        if self.honor_cycle == "seven":
            cyc = _HONOR_CYCLE7
        else:
            cyc = _WIND_CYCLE if t < 31 else _DRAGON_CYCLE
        return cyc[(cyc.index(t) + 1) % len(cyc)]

    def kinds(self, indicator: int | None = None) -> tuple:
        """Every wild kind for a turned `indicator`: ``(kind,)``, or ``(kind, next kind)``
        with :attr:`second` (南昌 正精 / 副精, 天津 混儿); ``()`` for flower jokers."""
        if self.source == "flowers":
            return ()
        k = self.kind(indicator)
        if self.second is None:
            return (k,)
        return (k, self._next(k))

    @property
    def kind_copies(self) -> tuple:
        """Wild copies of each kind of :meth:`kinds`, in the same order."""
        if self.source == "flowers":
            return ()
        return (self.copies,) if self.second is None else (self.copies, self.second_copies)

    @property
    def flowers(self) -> bool:
        """The jokers are the flowers (``source="flowers"``, 广东 花鬼)."""
        return self.source == "flowers"

    @property
    def needs_indicator(self) -> bool:
        """The wild kind is found from a turned indicator (``"next"`` / ``"turned"``)."""
        return self.source in ("next", "turned")

    @property
    def total_copies(self) -> int:
        """Wild tiles in the set: the sum of :attr:`kind_copies` (the flowers' number
        for flower jokers)."""
        return self.copies if self.source == "flowers" else sum(self.kind_copies)

    @property
    def plain(self) -> bool:
        """One wild kind of the usual sort, which the compiled game loop plays: never
        claimed, never used to claim, discardable, no substitute tile, no second kind,
        never konged (:attr:`kong`)."""
        return (self.substitute is None and not self.claim and not self.be_claimed
                and self.discard and self.second is None and not self.kong
                and self.source != "flowers")


WILD_HELD: ContextVar = ContextVar("majiang_wild_held", default=None)
"""``(wild kinds, copies of each held)`` of the hand being scored, published by
:func:`majiang.scoring.faces.score` (the hand written with the jokers by their faces and
the turned indicator); None otherwise.  Fan predicates that depend on which joker kind
is held (天津 银杠胡 / 金杠胡 / 本混龙) read it."""


def _kind(x) -> int:
    if isinstance(x, str):
        from ..tiles import parse_tile
        return parse_tile(x)
    if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < 34:
        raise RuleError(f"a tile kind must be 0..33 or a tile name, got {x!r}")
    return int(x)

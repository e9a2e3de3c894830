"""The winning-hand data types fan predicates read: :class:`WinContext` and :class:`WinningHand`.

This module sits low in the layers (it imports only :mod:`majiang.tiles`,
:mod:`majiang.hand` and :mod:`majiang.errors`), so rulesets in
:mod:`majiang.rules` can define fan predicates over a :class:`WinningHand`
without importing :mod:`majiang.scoring`, which builds these objects.

Tiles are kind indices 0..33 (0-8 = 1-9m, 9-17 = 1-9p, 18-26 = 1-9s,
27-30 = East South West North, 31 White, 32 Green, 33 Red).  Winds in a
context are 0..3 = East South West North.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from .errors import InvalidHandError
from .hand import Decomposition, Hand
from .tiles import N_KINDS, tile_name

__all__ = ["WinContext", "SetView", "WinningHand", "WIN_POSITIONS", "FIRST_TURNS",
           "READY_DECLARATIONS", "suit_of",
           "rank_of"]

FIRST_TURNS = ("", "heavenly", "earthly", "human")
"""Values of :attr:`WinContext.first_turn`: none, 天和, 地和, 人和."""

READY_DECLARATIONS = ("", "concealed", "open", "deal", "first_draw")
"""Values of :attr:`WinContext.declared_ready`: none, a concealed declaration (报听, 暗楼),
one with the hand shown (明楼, 明摸: self-draw only), one made on the dealt hand (天听:
before the dealer's first discard, the dealer with it) and one made with the discard
right after the seat's first draw (地听 / 软报); the last two are concealed."""

WIN_POSITIONS = ("edge", "closed", "open", "pung", "pair", "special")
"""Where the win tile sits in the set it completed (:attr:`WinningHand.win_position`):
``"edge"`` the 3 of 12-3 or the 7 of 7-89 (边张), ``"closed"`` the middle of a chow (坎张),
``"open"`` another end of a chow (两面), ``"pung"`` a pung (双碰), ``"pair"`` the pair (单钓),
``"special"`` a form without sets (seven pairs, thirteen orphans, knitted tiles)."""


def suit_of(t: int) -> int:
    """Suit of a tile kind: 0 characters, 1 dots, 2 bamboo, 3 honors."""
    return t // 9 if t < 27 else 3


def rank_of(t: int) -> int:
    """Rank 1..9 of a suited tile (honors: 1..7 within the honors)."""
    return t % 9 + 1 if t < 27 else t - 26


def _wind(x, what: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= 3:
        raise InvalidHandError(f"{what} must be 0..3 (East South West North), got {x!r}")
    return int(x)


@dataclass(frozen=True)
class WinContext:
    """How a hand was won: everything scoring needs besides the tiles.

    Parameters
    ----------
    win_tile : int
        Kind 0..33 of the winning tile.
    self_drawn : bool
        Won on one's own draw (自摸); otherwise on another player's discard or
        kong tile.
    last_copy : bool
        和绝张: the win tile is the last copy, the other three being visible
        (discards and exposed melds, one's own included).
    kong : bool
        With ``self_drawn``: the win tile is the replacement draw after one's own
        kong (杠上开花).  Without: the win robs another player's added kong
        (抢杠和).
    last_tile : bool
        The win tile is the last tile of the wall: 妙手回春 on a self-draw,
        海底捞月 on the last discard.
    seat_wind, prevalent_wind : int
        0..3 = East South West North (门风 / 圈风).
    flowers : int
        Number of flowers (花牌) 0..36, scored after the win: 0..8 with the 8 flowers,
        up to the ruleset's non-playing tiles where honours count as flowers (南京 20,
        罗源 36; the scorers check the ruleset's count).
    first_turn : {"", "heavenly", "earthly", "human"}
        A win in the first go-around, before any call or kong (the game engine
        knows it; a lone hand does not): ``"heavenly"`` 天和, the dealer wins on the
        dealt tiles before any discard; ``"earthly"`` 地和, a non-dealer wins on
        the self-draw of its first turn; ``"human"`` 人和, a non-dealer wins on a
        discard before its own first draw.  ``""`` (default) otherwise.  Rulesets
        read them through :attr:`heavenly`, :attr:`earthly`, :attr:`human`.
    kong_discard : bool
        杠上炮 / 杠后炮 (杠上流泪): won on a discard its discarder made right after his own
        kong (in the same turn, after the replacement draw).  Only on a discard, not a
        robbed kong (the game engine knows it; a lone hand does not).  Rulesets that
        know the rule score it (a fan, or a payment term of their settlement).
    flower_replacement : bool
        With ``self_drawn``: the win tile is the replacement drawn for a flower (补花)
        just set aside — 花上添花 / 花砸 (the game engine knows it; a lone hand does not).
        A kong's replacement that was a flower, itself replaced, has both ``kong`` and
        ``flower_replacement``; each ruleset says what that scores.
    kong_claimed : bool
        With ``kong`` and ``self_drawn`` (杠上开花): the kong that drew the replacement
        was made on another player's discard (a 明杠 / 直杠), not of one's own tiles (a
        concealed kong or a pung made up with a drawn tile) — 南京 大杠开花 against 小杠开花.
    kong_chain : int
        With ``kong`` and ``self_drawn`` (杠上开花): the kongs the winner made in a row in
        this turn — kong, replacement draw, kong again … — the win tile being the last
        one's replacement: 1 .. 4, or 0 (default: not given, read as one).  The game
        engine counts them; 杭州 doubles 杠开 once per kong of the chain.
    seat_fan : int
        番 the winner carries on the table beyond the hand's own tiles and melds: 武汉's
        personal 番 of the 红中 / 痞子 / 赖子 the winner played out (红中杠 1, 痞子杠 1,
        赖子杠 2; its claimed melds and kongs are read from the hand).  0 .. 99, default 0.
        The game engine counts them where the ruleset has such 番
        (:attr:`Ruleset.seat_fan <majiang.rules.Ruleset.seat_fan>`); a ruleset's minimum may
        read them (:attr:`Ruleset.win_minimum <majiang.rules.Ruleset.win_minimum>`).
    declared_ready : {"", "concealed", "open", "deal", "first_draw"}
        The winner's ready declaration (报听, :data:`READY_DECLARATIONS`; True reads as
        ``"concealed"``, None / False as none): the game engine sets it, a ruleset's fans
        or settlement give it its value.
    discarder_ready : bool
        On a discard win: the discarder had declared ready.

    Raises
    ------
    InvalidHandError
        For a win tile outside 0..33, winds outside 0..3, flowers outside 0..36, an
        unknown ``first_turn`` or one the win contradicts (天和 / 地和 on a discard,
        人和 on a self-draw, 天和 by a non-dealer, 地和 / 人和 by the dealer), or
        ``kong_discard`` on a self-draw or a robbed kong, an unknown ``declared_ready``,
        ``"open"`` on a discard win, ``discarder_ready`` on a self-draw,
        ``flower_replacement`` without ``self_drawn``, ``kong_claimed`` without a
        kong replacement (``kong`` and ``self_drawn``), or a ``kong_chain`` outside 0..4
        or given without a kong replacement, a ``seat_fan`` outside 0..99.
    """

    win_tile: int
    self_drawn: bool = False
    last_copy: bool = False
    kong: bool = False
    last_tile: bool = False
    seat_wind: int = 0
    prevalent_wind: int = 0
    flowers: int = 0
    first_turn: str = ""
    kong_discard: bool = False
    declared_ready: str = ""
    discarder_ready: bool = False
    flower_replacement: bool = False
    kong_claimed: bool = False
    kong_chain: int = 0
    seat_fan: int = 0

    def __post_init__(self) -> None:
        t = self.win_tile
        if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t < N_KINDS:
            raise InvalidHandError(f"win_tile must be a tile kind 0..33, got {t!r}")
        for name in ("self_drawn", "last_copy", "kong", "last_tile", "kong_discard",
                     "discarder_ready", "flower_replacement", "kong_claimed"):
            object.__setattr__(self, name, bool(getattr(self, name)))
        object.__setattr__(self, "seat_wind", _wind(self.seat_wind, "seat_wind"))
        object.__setattr__(self, "prevalent_wind", _wind(self.prevalent_wind, "prevalent_wind"))
        f = self.flowers
        if isinstance(f, bool) or not isinstance(f, int) or not 0 <= f <= 36:
            raise InvalidHandError(f"flowers must be a count 0..36, got {f!r}")
        ft = self.first_turn
        if ft not in FIRST_TURNS:
            raise InvalidHandError(f"first_turn must be one of {FIRST_TURNS}, got {ft!r}")
        if ft and (ft == "human") == self.self_drawn:
            raise InvalidHandError(f"first_turn={ft!r} contradicts "
                                   f"self_drawn={self.self_drawn} (天和 / 地和 are self-drawn, "
                                   "人和 is won on a discard)")
        if ft and (ft == "heavenly") != (self.seat_wind == 0):
            raise InvalidHandError(f"first_turn={ft!r} contradicts seat_wind={self.seat_wind} "
                                   "(天和 is the dealer's, East; 地和 / 人和 a non-dealer's)")
        if self.kong_discard and (self.self_drawn or self.kong):
            raise InvalidHandError("kong_discard (杠上炮: a win on the discard made right after "
                                   "the discarder's kong) needs a win on a discard, not "
                                   + ("a self-draw" if self.self_drawn else "a robbed kong"))
        dr = self.declared_ready
        if dr is None or isinstance(dr, bool):         # None: not declared, as ""
            object.__setattr__(self, "declared_ready", "concealed" if dr else "")
        elif dr not in READY_DECLARATIONS:
            raise InvalidHandError(f"declared_ready must be one of {READY_DECLARATIONS} or a "
                                   f"bool, got {dr!r}")
        if self.declared_ready == "open" and not self.self_drawn:
            raise InvalidHandError("declared_ready='open' (a ready hand shown, 明楼 / 明摸) "
                                   "wins only by self-draw")
        if self.discarder_ready and self.self_drawn:
            raise InvalidHandError("discarder_ready needs a win on a discard, not a self-draw")
        if self.flower_replacement and not self.self_drawn:
            raise InvalidHandError("flower_replacement (a win on the tile drawn for a flower) "
                                   "needs a self-draw")
        if self.kong_claimed and not (self.kong and self.self_drawn):
            raise InvalidHandError("kong_claimed (the kong was made on a discard) needs a win "
                                   "on that kong's replacement: kong and self_drawn")
        kc = self.kong_chain
        if isinstance(kc, bool) or not isinstance(kc, int) or not 0 <= kc <= 4:
            raise InvalidHandError(f"kong_chain must be a count of kongs 0..4, got {kc!r}")
        if kc and not (self.kong and self.self_drawn):
            raise InvalidHandError("kong_chain (kongs in a row before the win) needs a win on "
                                   "a kong replacement: kong and self_drawn")
        sf = self.seat_fan
        if isinstance(sf, bool) or not isinstance(sf, int) or not 0 <= sf <= 99:
            raise InvalidHandError(f"seat_fan (番 the winner carries on the table) must be a "
                                   f"count 0..99, got {sf!r}")

    @property
    def heavenly(self) -> bool:
        """天和: the dealer wins on the dealt tiles, before any discard."""
        return self.first_turn == "heavenly"

    @property
    def earthly(self) -> bool:
        """地和: a non-dealer wins on its first self-draw, before any call or kong."""
        return self.first_turn == "earthly"

    @property
    def human(self) -> bool:
        """人和: a non-dealer wins on a discard before its own first draw, no call yet."""
        return self.first_turn == "human"

    @property
    def robbing_kong(self) -> bool:
        """抢杠和: the win is on another player's added-kong tile."""
        return self.kong and not self.self_drawn

    @property
    def kong_replacement(self) -> bool:
        """杠上开花: the win tile is one's own kong replacement draw."""
        return self.kong and self.self_drawn

    def __str__(self) -> str:
        how = "self-drawn" if self.self_drawn else "on a discard"
        flags = [n for n, v in (("last copy", self.last_copy), ("kong", self.kong),
                                ("last tile", self.last_tile),
                                ("discard after a kong", self.kong_discard),
                                (f"declared ready ({self.declared_ready})",
                                 self.declared_ready),
                                ("discarder declared ready", self.discarder_ready),
                                ("on a flower replacement", self.flower_replacement),
                                ("the kong made on a discard", self.kong_claimed),
                                (f"{self.kong_chain} kongs in a row", self.kong_chain > 1))
                 if v]
        if self.first_turn:
            flags.append({"heavenly": "天和", "earthly": "地和", "human": "人和"}[self.first_turn])
        winds = "ESWN"
        extra = f", {', '.join(flags)}" if flags else ""
        return (f"win on {tile_name(self.win_tile)} {how}{extra}; seat {winds[self.seat_wind]}, "
                f"prevalent {winds[self.prevalent_wind]}, {self.flowers} flower(s)")


class SetView(NamedTuple):
    """One set of a decomposed winning hand.

    ``kind`` is ``"chow"``, ``"pung"`` or ``"kong"``; ``tile`` the lowest tile;
    ``concealed`` whether it counts as concealed for scoring (暗: a concealed kong,
    or a pung formed in the hand and not completed by a discard); ``melded``
    whether it is a declared meld of the :class:`~majiang.hand.Hand` (exposed melds
    and concealed kongs).
    """

    kind: str
    tile: int
    concealed: bool
    melded: bool


class WinningHand:
    """A decomposed winning hand with its context: what a fan predicate reads.

    Built by :mod:`majiang.scoring` for every decomposition of the 14 (or more,
    with kongs) tiles and every attribution of the win tile; predicates must treat
    it as read-only.

    Attributes
    ----------
    hand : Hand
        The hand BEFORE the winning tile (concealed tiles, melds, flowers).
    context : WinContext
    decomposition : Decomposition or None
        The reading of the concealed tiles (win tile included).  ``None`` for the
        knitted forms, whose 9 knitted tiles are in :attr:`knitted`.
    form : str
        ``"regular"``, ``"seven_pairs"``, ``"thirteen_orphans"``,
        ``"honors_and_knitted"`` or ``"knitted_straight"``.
    sets : tuple of SetView
        Every set: the hand's melds first (in declaration order), then the
        concealed sets of the decomposition.  Empty for forms without sets.
    pair : int or None
        The pair (eye) of the regular and knitted-straight forms (and the pair of
        thirteen orphans).
    pairs : tuple of int
        The seven pairs (a kind repeats when a quad counts as two pairs).
    knitted : tuple of int
        The suited knitted tiles (组合龙 part, or the suited singles of 全不靠).
    counts : tuple of int
        34 counts of all tiles, melds included (a kong counts 4), win tile included.
    win_set : int or None
        Index in :attr:`sets` of the set the win tile completed; ``-1`` when it
        completed the pair; ``None`` when it sits in a part without sets.
    win_position : str
        One of :data:`WIN_POSITIONS`.
    unique_wait : bool
        The hand before the win could win on exactly one tile kind (独听), judged
        by shape (see :func:`majiang.scoring.waits`).  The constructor also takes a
        function of no argument returning it, called the first time a predicate
        reads it (the scorers pass one: most rulesets never read it, and the waits
        cost more than the rest of a reading).
    """

    __slots__ = ("hand", "context", "decomposition", "form", "sets", "pair", "pairs", "knitted",
                 "counts", "win_set", "win_position", "_unique_wait", "chows", "pungs",
                 "chow_sets", "suited_pung_sets",
                 "concealed_pungs", "melded_kongs", "concealed_kongs", "n_exposed", "_cache")

    def __init__(self, hand: Hand, context: WinContext, decomposition: Decomposition | None,
                 form: str, sets: tuple, pair: int | None, pairs: tuple, knitted: tuple,
                 counts: tuple, win_set: int | None, win_position: str,
                 unique_wait: Any, cache: dict | None = None) -> None:
        self.hand = hand
        self.context = context
        self.decomposition = decomposition
        self.form = form
        self.sets = sets
        self.pair = pair
        self.pairs = pairs
        self.knitted = knitted
        self.counts = counts
        self.win_set = win_set
        self.win_position = win_position
        self._unique_wait = unique_wait
        self._cache = {} if cache is None else cache
        chows, pungs, chow_sets, pung_sets = [], [], [], []
        cp = mk = ck = 0
        for i, s in enumerate(sets):
            if s.kind == "chow":
                chows.append(s.tile)
                chow_sets.append((i, s.tile))
            else:
                pungs.append(s.tile)
                if s.tile < 27:
                    pung_sets.append((i, s.tile))
                if s.concealed:
                    cp += 1
                if s.kind == "kong":
                    if s.concealed:
                        ck += 1
                    else:
                        mk += 1
        chows.sort()
        pungs.sort()
        #: Lowest tiles of all chows, sorted.
        self.chows = tuple(chows)
        #: Tiles of all pungs and kongs, sorted.
        self.pungs = tuple(pungs)
        #: (index in sets, lowest tile) of the chows, and of the suited pungs/kongs.
        self.chow_sets = tuple(chow_sets)
        self.suited_pung_sets = tuple(pung_sets)
        #: Concealed pungs (暗刻) counting concealed kongs; a pung completed by a
        #: discard is exposed.
        self.concealed_pungs = cp
        #: Exposed kongs (明杠) and concealed kongs (暗杠).
        self.melded_kongs = mk
        self.concealed_kongs = ck
        #: Exposed melds (claimed chows, pungs, kongs; not concealed kongs).
        self.n_exposed = sum(1 for m in hand.melds if not m.concealed)

    # -- derived views -----------------------------------------------------
    @property
    def unique_wait(self) -> bool:
        """独听 (see the class notes), computed on first reading when given as a function."""
        u = self._unique_wait
        if callable(u):
            u = self._unique_wait = bool(u())
        return u

    def __getstate__(self):
        self.unique_wait            # resolved: a function given is not pickled
        return None, {k: getattr(self, k) for k in self.__slots__}

    @property
    def win_tile(self) -> int:
        return self.context.win_tile

    @property
    def kinds(self) -> tuple[int, ...]:
        """Tile kinds present (melds and win tile included), ascending."""
        k = self._cache.get("kinds")
        if k is None:
            k = self._cache["kinds"] = tuple(i for i, c in enumerate(self.counts) if c)
        return k

    def __repr__(self) -> str:
        parts = [f"form={self.form!r}"]
        if self.sets:
            parts.append("sets=" + ",".join(
                f"{s.kind[0]}{tile_name(s.tile)}{'' if s.concealed else '*'}" for s in self.sets))
        if self.pair is not None:
            parts.append(f"pair={tile_name(self.pair)}")
        if self.pairs:
            parts.append("pairs=" + ",".join(tile_name(p) for p in self.pairs))
        if self.knitted:
            parts.append("knitted=" + ",".join(tile_name(p) for p in self.knitted))
        parts.append(f"win={tile_name(self.win_tile)}@{self.win_position}")
        return f"WinningHand({', '.join(parts)})"

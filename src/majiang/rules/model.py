"""The compiled rule spec of a ruleset: the one place every layer asks what the game is.

A :class:`RuleSpec` is compiled once from a :class:`~majiang.rules.Ruleset` by
:func:`rule_spec` (for ``ruleset=None``, the default ruleset :data:`DEFAULT_RULESET`,
Chinese Official rules ``"mcr"``, as everywhere in the library) and answers:

* **tiles** — copies of each of the 34 kinds (:attr:`RuleSpec.copies`), flowers,
  the physical wall size (136 / 108 / 144 / 84 …) and, for a turned indicator, the
  wall a player draws from with the jokers set apart (:meth:`RuleSpec.wall`);
* **table** — players, hand size (13 or 16; the dealer holds one more), calls;
* **what wins** — winning forms, the shape options the Cython core honours exactly
  (:meth:`RuleSpec.shape`: tile-set caps, 缺一门 void suit, 二五八将 pair kinds),
  and :meth:`RuleSpec.violations`, the rules-level half of the win predicate: which
  of the ruleset's constraints (void suit, 2-5-8 pair, must open, self-draw only,
  minimum fan …) a decomposed, fan-counted reading breaks.  The hand-level predicate
  "is this hand, with this context, a valid win" is :func:`majiang.scoring.is_win`
  (scoring enumerates the readings; each reading is judged here).  Probabilities,
  fan odds, starting-hand studies, the CLI and the game engine call only these.

Nothing outside :mod:`majiang.rules` reads a ruleset's ``constraints`` or ``options``:
every engine reads the :class:`RuleSpec` properties instead.  ``GameModel`` /
:func:`game_model` are the older names of :class:`RuleSpec` / :func:`rule_spec` (the same
objects).  Nothing here imports the layers above (scoring, probability, engine).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from ..errors import InvalidHandError, RuleError
from ..tiles import KINDS_258, tile_name
from .._memo import per_ruleset
from .base import CORE_FORMS, EXTRA_FORMS, JokerRule, Ruleset
from .constraints import CONSTRAINTS, DESCRIPTIONS
from .declared import DECLARED_VOID, TURNED, void_index
from .shape_options import ALL_PAIRS, ShapeOptions
from .wall import Wall

__all__ = ["RuleSpec", "GameModel", "ShapeOptions", "Wall", "rule_spec", "game_model",
           "DEFAULT_FORMS", "DEFAULT_RULESET", "SHAPE_RULES", "SELF_DRAW_SAFE",
           "THREE_JOKERS", "FOUR_JOKERS", "JOKER_WINS", "void_index", "DECLARED_VOID", "TURNED"]

DEFAULT_RULESET = "mcr"
"""The ruleset of every public function given ``ruleset=None``: Chinese Official rules
(国标麻将).  The one place the default is decided."""

DEFAULT_FORMS = ("regular", "seven_pairs", "thirteen_orphans")
"""The forms of the ``"plain"`` ruleset (:mod:`majiang.rules.plain`): riichi-style, seven
pairs of distinct pairs.  Not the default: ``ruleset=None`` is :data:`DEFAULT_RULESET`."""

SHAPE_RULES = {
    "void_suit": "the complete hand holds at most two of the three suits (缺一门)",
    "pair_258": "the pair of a regular hand is a 2, 5 or 8 of a suit (二五八将)",
}
"""Constraints the shanten core honours exactly (:meth:`RuleSpec.shape`)."""

SELF_DRAW_SAFE = frozenset(("self_draw_only", "discard_needs_pattern", "kong_pass",
                            "pinghu_self_draw", "pass_or_pattern", "jokers_win_self_drawn"))
"""Constraints a self-drawn win always satisfies (they restrict wins on a discard)."""

_MUST_OPEN = ("must_open", "must_open_pung")

THREE_JOKERS = "three_jokers"
"""The shape-free win of three jokers (罗源 三金倒, 温州 三财神): its name in a ruleset's
``options["special_wins"]`` (:attr:`RuleSpec.three_jokers_win`) and the key of its
pseudo-form in :func:`majiang.rules.shapes.form_shanten` (whatever the count)."""
FOUR_JOKERS = "four_jokers"
"""The shape-free win of four jokers (广东 四鬼胡): its name in ``options["special_wins"]``."""
JOKER_WINS = {THREE_JOKERS: 3, FOUR_JOKERS: 4}
"""The jokers held that win at once for each name of ``options["special_wins"]``
(:attr:`RuleSpec.jokers_to_win`)."""


@dataclass(frozen=True, eq=False)
class RuleSpec:
    """A ruleset compiled once into typed, frozen facts: everything the analysis layers,
    the game engine and the bots read of the rules.

    Build with :func:`rule_spec` (memoized per :class:`~majiang.rules.Ruleset` object);
    never construct one by hand.  ``GameModel`` is the same class under its older name.

    Fields (read from the ruleset once)
    -----------------------------------
    name : str
        The ruleset's registry name (``"mcr"``, ``"sichuan"`` …).
    ruleset : Ruleset
        The :class:`~majiang.rules.Ruleset` compiled (always set; ``rule_spec(None)``
        compiles :data:`DEFAULT_RULESET`).  Engines read the properties below, not its
        ``constraints`` / ``options``.
    copies : numpy.ndarray
        ``uint8 (34,)``, read-only: playable copies of each kind in the tile set (0 =
        not in the set: honours under 四川's 108 tiles).
    players : int
        Seats at the table (4; 3 for 卡五星, 2 for 二人 variants).
    hand_size : int
        Tiles of a non-dealer's starting hand (13, or 16 for 台湾 / 罗源).
    forms : tuple of str
        Winning forms (:data:`majiang.rules.base.FORM_NAMES`), core and extra.
    seven_pairs_quads : bool
        Four of a kind may count as two pairs in seven pairs.
    min_fan : int
        起和番: fan a win must reach (0 = no minimum in fan; see :attr:`min_points`).
    constraints : tuple of str
        The ruleset's named win constraints (:mod:`majiang.rules.constraints`), read
        only inside :mod:`majiang.rules`; engines use the typed properties
        (:attr:`void_suit`, :attr:`no_void`, :attr:`pair_kinds`, :attr:`pair_mask`,
        :attr:`banned_kinds`, :attr:`must_open`, :attr:`self_draw_only` …).
    jokers : JokerRule or None
        The joker (wild tile) rule (:class:`~majiang.rules.base.JokerRule`), None
        without jokers.
    calls : tuple of str
        Claims allowed (``"chow_left"``, ``"pung"``, ``"exposed_kong"`` …).

    Derived (properties, never stored twice): :attr:`n_flowers` / :attr:`flowers`
    (non-playing tiles of the tile set), :attr:`n_tiles` (physical tiles), :attr:`tiles`
    (the tile set's description), :attr:`kinds`, :attr:`dealer_hand_size`,
    :attr:`core_forms` / :attr:`extra_forms`, :attr:`fifth_copy`,
    :attr:`three_jokers_win` / :attr:`jokers_to_win`, :attr:`min_points`, :attr:`shapes_258`,
    :attr:`honor_chows`; the shape options
    of a hand with given melds come from :meth:`shape` (one :class:`ShapeOptions` per
    meld set, memoized).
    """

    name: str
    ruleset: Ruleset
    copies: np.ndarray
    players: int
    hand_size: int
    forms: tuple
    seven_pairs_quads: bool
    min_fan: int
    constraints: tuple
    jokers: JokerRule | None
    calls: tuple
    _shape: dict = field(default_factory=dict, repr=False)

    # -- tiles ---------------------------------------------------------------
    @property
    def n_flowers(self) -> int:
        """Non-playing tiles of the tile set (flowers, or honours used as flowers): 0, 8,
        20, 36 … (read from the tile set, :attr:`Ruleset.n_flowers
        <majiang.rules.Ruleset.n_flowers>`)."""
        return self.ruleset.n_flowers

    @property
    def flowers(self) -> int:
        """The same as :attr:`n_flowers`."""
        return self.ruleset.n_flowers

    @property
    def tiles(self) -> str:
        """The tile set's description (``"108: 万 筒 条 x 36 only (素麻将)"``)."""
        return self.ruleset.tiles

    @property
    def n_tiles(self) -> int:
        """Physical tiles in the set (flowers included): 136, 144, 108, 84 …"""
        return int(self.copies.sum()) + self.n_flowers

    @property
    def kinds(self) -> tuple:
        """Kinds in the tile set."""
        return tuple(int(k) for k in np.flatnonzero(self.copies))

    def check_kinds(self, counts: Any, what: str) -> None:
        """Refuse tiles outside the tile set: ``counts`` (array_like of shape (34,), tile
        counts such as the visible tiles) may not hold a kind of which the set has no
        copy (4z under a 108-tile ruleset).  The one check used by
        :func:`majiang.ukeire` / :func:`majiang.discard_table` / :func:`majiang.advise`
        for ``visible`` and by the CLI for ``--visible``.

        Raises
        ------
        InvalidHandError
            ``"<what>: <tile> is not in the tile set of <name> (<n> tiles)"``.
        """
        absent = self._absent
        if absent.size and np.asarray(counts)[absent].any():
            k = int(absent[np.flatnonzero(np.asarray(counts)[absent])[0]])
            raise InvalidHandError(f"{what}: {tile_name(k)} is not in the tile set of "
                                   f"{self.name} ({self.n_tiles} tiles)")

    def check_flowers(self, flowers: Any, what: str = "the hand") -> None:
        """Refuse flower tiles (``flowers``: the hand's flower indices, 0..7 = 1f..8f)
        under a tile set without flowers (:attr:`n_flowers` 0: 四川 108, 广东 136 …) or
        beyond its flowers.  The one check of the hand's flowers used by
        :func:`majiang.shanten` / :func:`majiang.ukeire` / :func:`majiang.discard_table`
        / :func:`majiang.advise`, the probabilities and the scoring (``score`` /
        ``check_win``) under a ruleset.

        Raises
        ------
        InvalidHandError
            ``"<what> holds flower <nf>, but <name> (<n> tiles) has no flowers"``.
        """
        fl = tuple(int(f) for f in flowers)
        if not fl:
            return
        if self.n_flowers == 0 or max(fl) >= self.n_flowers:
            f = fl[0] if self.n_flowers == 0 else max(fl)
            has = "no flowers" if self.n_flowers == 0 else f"{self.n_flowers} flowers"
            raise InvalidHandError(f"{what} holds flower {f + 1}f, but the tile set of "
                                   f"{self.name} ({self.n_tiles} tiles) has {has}")

    def check_hand_flowers(self, hand: Any, what: str = "the hand") -> None:
        """:meth:`check_flowers` of a hand given as text or a :class:`~majiang.hand.Hand`
        (other inputs, count vectors, hold no flowers).  Plain ASCII text without an
        ``f`` holds no flower and is not parsed; other text is parsed leniently (a bad
        notation raises :class:`~majiang.errors.InvalidNotationError`)."""
        if isinstance(hand, str):
            if "f" not in hand and hand.isascii():
                return
            from ..hand import as_hand
            fl = as_hand(hand, strict=False).flowers
        else:
            fl = getattr(hand, "flowers", ())
        if fl:
            self.check_flowers(fl, what)

    @cached_property
    def _absent(self) -> np.ndarray:
        """The kinds not in the tile set (``intp``, ascending), read once."""
        return np.flatnonzero(self.copies == 0)

    @property
    def dealer_hand_size(self) -> int:
        """The dealer's starting tiles (hand size + 1)."""
        return self.hand_size + 1

    def joker_kind(self, indicator: Any = None) -> int | None:
        """The wild kind for a turned `indicator` (kind or tile name); None without jokers.

        Raises
        ------
        RuleError
            The jokers are found from an indicator and none was given.
        """
        if self.jokers is None or self.jokers.flowers:
            return None
        return self.jokers.kind(indicator)

    def no_jokers(self, held: int, how: str = "ruleset='hangzhou'") -> RuleError:
        """The error for a hand holding ``held`` jokers (``*``) under this ruleset, which
        has none: one line naming the ruleset and why (``"mcr has no jokers: Chinese
        Official (国标麻将, MCR) plays no wild tiles; the hand holds 1 '*' (a ruleset with
        jokers reads it, e.g. ruleset='hangzhou')"``); ``how`` names such a ruleset in the
        caller's words (``"--rules hangzhou"`` on the command line)."""
        return RuleError(f"{self.name} has no jokers: {self.ruleset.title} plays no wild "
                         f"tiles; the hand holds {held} '*' (a ruleset with jokers reads "
                         f"it, e.g. {how})")

    def joker_kinds(self, indicator: Any = None) -> tuple:
        """Every wild kind for a turned `indicator`: ``()`` without jokers, one kind, or
        two (正精 / 副精 of 南昌, the 中下滚 混儿 of 天津: the turned kind, then the next).

        Raises
        ------
        RuleError
            The jokers are found from an indicator and none was given.
        """
        if self.jokers is None:
            return ()
        return self.jokers.kinds(indicator)

    def set_apart(self, indicator: Any = None) -> np.ndarray:
        """``int64 (34,)``: the copies turned face up and set apart from the wall, neither
        drawn nor wild — one copy of the turned indicator when the joker is the *next*
        kind (``JokerRule.source == "next"``: 安庆 钻牌, 武汉 赖子; :meth:`wall` removes it);
        zeros otherwise (a turned joker kind's face-up copy is one of its
        :attr:`JokerRule.copies` already, and 南昌's turned 正精 stays in the wall).

        Every analysis counts these as seen on its own: a caller's ``visible`` tiles
        (and the CLI's ``--visible``) leave the turned indicator out, and a hand plus
        visible tiles plus the indicator may not exceed the tile set's copies.

        Raises
        ------
        RuleError
            As :meth:`wall`.
        """
        out = np.zeros(34, np.int64)
        jr = self.jokers
        if jr is not None and jr.source == "next" and indicator is not None:
            out[self.wall(indicator).indicator] = 1
        return out

    def face_up(self, indicator: Any = None) -> np.ndarray:
        """``int64 (34,)``: the turned copies out of play that every analysis counts as
        seen by themselves — :meth:`set_apart` (安庆 / 武汉), plus the face-up copy of a
        turned wild kind when only the others are wild (``JokerRule.source ==
        "turned"`` with 3 copies: 天津's turned 混儿, 杭州 / 温州 / 罗源 / 上海 flip).  A
        caller's ``visible`` tiles leave them out: every visible copy of a wild kind is
        one of its wild copies, seen.  Zeros without a known indicator."""
        out = self.set_apart(indicator)
        jr = self.jokers
        if jr is not None and jr.source == "turned" and indicator is not None:
            k = _kind_of(indicator)
            out[k] += max(0, int(self.copies[k]) - min(int(jr.copies), int(self.copies[k])))
        return out

    def check_seen(self, visible: Any, indicator: Any = None, jokers: int = 0,
                   what: str = "visible") -> None:
        """Check the seen tiles against the copies in play once the wild kinds are known:
        ``visible`` (None, text or array_like (34,)) plus :meth:`face_up` may not exceed a
        kind's copies, and the visible copies of the wild kinds plus `jokers` held may not
        exceed the jokers of the wall (:attr:`Wall.jokers`).  Nothing to check without
        jokers or with an unknown indicator.

        Raises
        ------
        InvalidHandError
            One line naming the kind and the counts (天津, indicator 1m: a fourth visible
            1m, since the turned one is face up and three are wild).
        """
        jr = self.jokers
        if visible is None or jr is None or (indicator is None and jr.needs_indicator):
            return
        from ..hand import visible_counts
        v = visible_counts(visible).astype(np.int64)
        up = self.face_up(indicator)
        over = np.flatnonzero(v + up > self.copies)
        if over.size:
            k = int(over[0])
            raise InvalidHandError(
                f"{what}: {int(v[k])} copies of {tile_name(k)} seen besides the turned "
                f"indicator (face up, counted as seen: leave it out of {what}); the tile set "
                f"of {self.name} has {int(self.copies[k])}")
        wall = self.wall(indicator)
        seen = int(sum(int(v[k]) for k in wall.joker_kinds))
        if seen + int(jokers) > wall.jokers:
            names = "".join(tile_name(int(k)) for k in wall.joker_kinds)
            held = f" and {int(jokers)} held" if jokers else ""
            raise InvalidHandError(
                f"{what}: {seen} copies of the wild kinds ({names}) seen{held}, but "
                f"{self.name} has {wall.jokers} jokers")

    def seen_with_indicator(self, visible: Any, indicator: Any = None) -> Any:
        """``visible`` (None or array_like (34,)) plus :meth:`set_apart`: the tiles out of
        the live wall as the analyses count them.  ``visible`` unchanged (None stays None)
        when nothing is set apart; else an ``int64 (34,)`` vector.  ``visible`` is checked
        first (:meth:`check_seen`: a visible copy of a wild kind is a seen joker, the
        turned copies are seen by themselves).

        Raises
        ------
        InvalidHandError
            As :meth:`check_seen`.
        """
        self.check_seen(visible, indicator)
        extra = self.set_apart(indicator)
        if not extra.any():
            return visible
        if visible is None:
            return extra
        from ..hand import visible_counts
        return visible_counts(visible).astype(np.int64) + extra

    def wall(self, indicator: Any = None) -> Wall:
        """The drawable tiles of a fresh wall (see :class:`Wall`).

        Jokers: the wild kind's copies (:attr:`JokerRule.copies`: 3 when the turned
        tile itself is the joker and stays face up) are drawn as jokers; with
        ``source="next"`` the face-up indicator leaves the wall; a ``substitute``
        kind (安庆 红中) is drawn as the joker kind's natural tile.  With a second wild
        kind (:attr:`JokerRule.second`) its ``second_copies`` are drawn as jokers too,
        so :attr:`Wall.jokers` counts both kinds (南昌 8, 天津 7).

        Raises
        ------
        RuleError
            The ruleset's jokers need an indicator and none was given, or the
            indicator is not in the tile set.
        """
        counts = self.copies.astype(np.int16)
        if self.jokers is None:
            return Wall(counts)
        jr = self.jokers
        if jr.flowers:              # 花鬼: the flowers are drawn as jokers, no kind is wild
            return Wall(counts, int(jr.copies))
        kind = jr.kind(indicator)
        ind = None
        if jr.source != "fixed":
            ind = _kind_of(indicator)
            if not self.copies[ind]:
                raise RuleError(f"indicator {indicator!r} is not in the tile set of {self.name}")
        wild = min(jr.copies, int(counts[kind]))
        counts[kind] -= wild
        if jr.source == "next" and ind is not None:
            if counts[ind] <= 0:
                raise RuleError(f"indicator {indicator!r}: no copy left in the wall")
            counts[ind] -= 1
        elif jr.source == "turned":
            counts[kind] = 0          # the face-up one (the rest are wild)
        if jr.substitute is not None:
            counts[kind] += counts[jr.substitute]
            counts[jr.substitute] = 0
        kinds = jr.kinds(indicator)
        if len(kinds) > 1:
            k2 = kinds[1]
            wild2 = min(jr.second_copies, int(counts[k2]))
            counts[k2] -= wild2
            wild += wild2
        return Wall(counts, wild, kind, ind, kinds)

    # -- what wins -----------------------------------------------------------
    @property
    def void_suit(self) -> bool:
        """缺一门: the winning hand lacks a whole suit."""
        return "void_suit" in self.constraints

    @property
    def declares_void(self) -> bool:
        """定缺 at the deal (四川): :attr:`void_suit` with ``Ruleset.void_rule`` "declared"."""
        return self.void_suit and self.ruleset.void_rule == "declared"

    @property
    def void_at_win(self) -> bool:
        """缺门 at the win only (``"at_win"``: 立四, 保定 缺一门, 安庆 B)."""
        return self.void_suit and not self.declares_void

    @property
    def declared_void(self) -> int | None:
        """The declared void suit (定缺: 0 万, 1 筒, 2 条) the analyses apply, or None: set
        only by :func:`with_void`.  The complete hand must then lack that suit
        (:meth:`shape`, the ``void_suit`` win predicate); its tiles are thrown first."""
        v = self.ruleset.options.get(DECLARED_VOID)
        return None if v is None else int(v)

    @property
    def pair_kinds(self) -> tuple | None:
        """Kinds allowed as the pair of every regular win (二五八将), or None."""
        return KINDS_258 if "pair_258" in self.constraints else None

    @property
    def pair_mask(self) -> int:
        """:attr:`pair_kinds` as a bit mask (bit ``k``: kind ``k`` may be the pair of a
        regular hand); :data:`ALL_PAIRS` without a pair rule."""
        kinds = self.pair_kinds
        return ALL_PAIRS if kinds is None else sum(1 << k for k in kinds)

    @property
    def fifth_copy(self) -> bool:
        """A joker may stand for a fifth copy of a kind (:attr:`JokerRule.fifth_copy
        <majiang.rules.base.JokerRule.fifth_copy>`); False without jokers."""
        return bool(self.jokers is not None and self.jokers.fifth_copy)

    @property
    def shapes_258(self) -> bool:
        """Whether the hands that win by shape are the 2-5-8 shape families (长沙 family:
        长沙, 合肥, 武汉 and house rules built on them): a ``pair_258_small`` constraint
        (a small win needs a 2-5-8 pair, a 大胡 shape any pair) or the ``all_258`` form
        (将将胡: every tile a 2, 5 or 8, any shape).  The core's forms cannot express
        either, so shanten / ukeire / advice (:mod:`majiang.efficiency`, its ``"b258"``
        route), waits (:func:`majiang.scoring.waits`) and probabilities
        (:mod:`majiang.probability`, which then never uses the compiled kernel) take the
        shape-family route exactly when this is True; the other shape rules of the model
        (:attr:`void_suit`, :attr:`pair_kinds`, 八枝 ``eight_of_a_suit``) apply on that
        route too.  This property is the one place the decision is made."""
        return "pair_258_small" in self.constraints or "all_258" in self.forms

    @property
    def no_void(self) -> bool:
        """不缺门 / 断一门 forbidden: the winning hand holds every suit (``no_void``)."""
        return "no_void" in self.constraints

    @property
    def pizi(self) -> int | None:
        """The 痞子 of the hand (武汉, constraint ``no_pizi``: the turned indicator's kind,
        which may not be held at the win), known only on a ruleset made by
        :func:`with_indicator`; None otherwise."""
        if "no_pizi" not in self.constraints:
            return None
        k = self.ruleset.options.get(TURNED)
        return None if k is None else int(k)

    @property
    def banned_kinds(self) -> tuple:
        """Kinds no complete hand may hold as a concealed natural tile (武汉 红中:
        ``no_red_dragon``, and the 痞子 once the turned indicator is known: :attr:`pizi`;
        安庆 杠牌 发 / 白: :attr:`kong_only_kinds`)."""
        red = (33,) if "no_red_dragon" in self.constraints else ()
        p = self.pizi
        return red + ((p,) if p is not None and p not in red else ()) + self.kong_only_kinds

    @property
    def setless_kinds(self) -> tuple:
        """Kinds that never enter a set (武汉 红中 under ``no_red_dragon``: "never part of a
        set", docs/rules/wuhan.md; it is played out as a 红中杠): never punged, konged
        (claimed, added or concealed) or chowed; held at the win it blocks the win
        (:attr:`banned_kinds`)."""
        return (33,) if "no_red_dragon" in self.constraints else ()

    @property
    def unclaimable_pung_kinds(self) -> tuple:
        """Kinds no seat may pung: :attr:`setless_kinds` and :attr:`kong_only_kinds`."""
        return self.setless_kinds + self.kong_only_kinds

    @property
    def kong_only_kinds(self) -> tuple:
        """Kinds that serve only in kongs (安庆 杠牌, ``kong_only_tiles``: 发 and 白 as the
        hand plays them): never punged, chowed or part of a winning hand's sets or pair;
        a kong of them is a meld like any other, and one held loose blocks a win."""
        return (31, 32) if "kong_only_tiles" in self.constraints else ()

    @property
    def small_pair_258(self) -> bool:
        """A small win's pair must be of 2, 5 or 8 (``pair_258_small``: a 大胡 may use any
        pair; ``pair_258``: every win)."""
        return "pair_258_small" in self.constraints or "pair_258" in self.constraints

    @property
    def one_joker_small(self) -> bool:
        """A small win (屁胡) may use at most one joker (``max_one_joker_small``, 武汉)."""
        return "max_one_joker_small" in self.constraints

    @property
    def eight_of_a_suit(self) -> bool:
        """八枝 (合肥): a win needs at least 8 tiles of one suit (``eight_of_a_suit``)."""
        return "eight_of_a_suit" in self.constraints

    @property
    def shape_constraints(self) -> frozenset:
        """The ruleset's constraints that restrict the winning shape itself
        (:data:`majiang.rules.constraints.SHAPE_CONSTRAINTS`), as opposed to the context
        of the win (self-draw only, must open, minimum …)."""
        from .constraints import SHAPE_CONSTRAINTS
        return frozenset(self.constraints) & SHAPE_CONSTRAINTS

    @property
    def jokers_to_win(self) -> int:
        """The jokers whose holding wins at once on a self-draw, whatever the other tiles:
        3 (罗源 三金倒, 温州 三财神: ``"three_jokers"``), 4 (广东 四鬼胡: ``"four_jokers"``)
        among the ruleset's ``options["special_wins"]`` (:data:`JOKER_WINS`; the least
        if both), when the set holds that many wild copies; 0 for no such win."""
        jr = self.jokers
        if jr is None:
            return 0
        names = tuple(self.ruleset.options.get("special_wins", ()) or ())
        need = min((JOKER_WINS[x] for x in names if x in JOKER_WINS), default=0)
        return need if need and jr.total_copies >= need else 0

    @property
    def three_jokers_win(self) -> bool:
        """Whether holding a count of jokers (:attr:`jokers_to_win`: three for 三金倒 /
        三财神, four for 四鬼胡) wins at once on a self-draw.  Shanten then also counts the
        distance to the last of them, so these rulesets are computed by the shape engine
        (:func:`majiang.rules.shapes.needs_python`)."""
        return self.jokers_to_win > 0

    @property
    def min_points(self) -> tuple | None:
        """The minimum of a win in points, not fan, as ``(self-drawn, on a discard)``, under
        a ruleset with custom scoring that has one (螺山 100 / 200, 天津 2, 温州 / 罗源 1);
        None otherwise (the minimum is then :attr:`min_fan`)."""
        rs = self.ruleset
        if rs.scoring.mode != "custom":
            return None
        lo = rs.options.get("min_points")
        return None if lo is None else tuple(int(x) for x in lo)

    def constraints_beyond(self, names: Any) -> tuple:
        """The ruleset's constraint names outside ``names`` (an iterable of constraint
        names an analysis applies), sorted: what a caller must report as not applied."""
        return tuple(sorted(set(self.constraints) - set(names)))

    @property
    def must_open(self) -> bool:
        """开门: a win needs a claimed meld (so a closed hand never wins)."""
        return any(c in self.constraints for c in _MUST_OPEN)

    @property
    def self_draw_only(self) -> bool:
        """自摸 only: no win on a discard."""
        return "self_draw_only" in self.constraints

    @property
    def honor_chows(self) -> bool:
        """Honour chows (南昌): three different winds (any three of 东南西北) or the three
        dragons are a chow, concealed in the hand or claimed like a suited chow
        (:data:`majiang.hand.HONOR_CHOW_STARTS` names them by their start).  The one
        flag every layer reads: the decompositions of scoring, the shape engine's
        shanten and ukeire (:func:`majiang.rules.shapes.needs_python` routes such a
        ruleset there), waits, the probability search (its Python paths), the game
        loop's chow claims, win check and efficiency bot (the compiled loop does not play
        such a ruleset).  From the ruleset's option ``honor_chows``."""
        return bool(self.ruleset.options.get("honor_chows", False))

    def check_melds(self, melds: Any) -> None:
        """Refuse melds this ruleset does not play: an honour chow
        (:data:`majiang.hand.HONOR_CHOW_STARTS`) without :attr:`honor_chows`.

        Raises
        ------
        RuleError
            Such a meld.
        """
        if self.honor_chows:
            return
        for m in melds:
            if m.kind == "chow" and m.tile >= 27:
                raise RuleError(f"ruleset {self.name} has no honour chows: the meld {m} "
                                "is not a set there (three winds or three dragons are a "
                                "chow only where a ruleset plays honour chows, as nanchang)")

    @property
    def call_limit(self):
        """The ruleset's limits on calls (:data:`~majiang.rules.table_rules.CALL_LIMITS`,
        内蒙 敖汉: no chow after a dragon pung …), or None when every call the hand can
        make is allowed.  Read by the game loops, the bots' options and the call advice."""
        if not self.ruleset.options.get("call_limits_played", False):
            return None
        from .table_rules import CALL_LIMITS
        return CALL_LIMITS.get(self.ruleset.builder)

    @property
    def chow_allowed(self) -> bool:
        """Whether chows may be claimed (from the player on the left)."""
        return "chow_left" in self.calls

    @property
    def core_forms(self) -> tuple:
        """The winning forms the core computes (extra forms such as 十三烂 excluded)."""
        return tuple(f for f in self.forms if f in CORE_FORMS) or ("regular",)

    @property
    def extra_forms(self) -> tuple:
        """Forms only :mod:`majiang.rules.shapes` and the scorer know (十三烂, 七星归位)."""
        return tuple(f for f in self.forms if f in EXTRA_FORMS)

    @property
    def unconstrained(self) -> bool:
        """Every complete shape of :attr:`forms` on the full 136 tiles wins (no scorer
        needed): no constraints, no minimum, no jokers, no extra forms."""
        return (not self.constraints and self.min_fan == 0 and self.jokers is None
                and not self.ruleset.win_minimum
                and not self.extra_forms and bool(np.all(self.copies == 4)))

    def shape(self, melds: tuple = ()) -> ShapeOptions:
        """Core shape options for a hand with these exposed melds (a sequence of
        :class:`~majiang.hand.Meld`): the one constructor of :class:`ShapeOptions`,
        memoized per meld set.

        ``exact`` tells whether the options express every shape rule (False: other
        constraints, a minimum in fan or in points, extra forms, honour chows — the core
        knows none, :attr:`honor_chows`).

        Raises
        ------
        RuleError
            The melds hold more copies of a kind than the tile set has, or a meld the
        ruleset does not play (:meth:`check_melds`).
        """
        key = tuple(sorted((m.kind, tuple(m.tiles)) for m in melds))
        got = self._shape.get(key)
        if got is not None:
            return got
        self.check_melds(melds)
        caps = self.copies.astype(np.int16)
        held_suits = set()
        for m in melds:
            for t in m.tiles:
                caps[t] -= 1
                if t < 27:
                    held_suits.add(t // 9)
        if caps.min() < 0:
            k = int(np.argmin(caps))
            raise RuleError(f"the melds hold more copies of kind {k} than the tile set "
                            f"of {self.name} has")
        void = 0
        declared = self.declared_void
        if declared is not None:
            if declared in held_suits:
                raise RuleError(f"the melds hold tiles of the declared void suit "
                                f"{'mps'[declared]}")
            void = 1 << declared
        elif self.void_suit:
            void = sum(1 << s for s in range(3) if s not in held_suits)
        others = set(self.constraints) - set(SHAPE_RULES) - SELF_DRAW_SAFE
        lo = self.min_points
        exact = (not others and self.min_fan == 0 and not self.extra_forms
                 and not self.ruleset.win_minimum
                 and not self.honor_chows and not (lo and any(x > 0 for x in lo)))
        out = ShapeOptions(self.core_forms, self.seven_pairs_quads,
                           np.ascontiguousarray(caps, dtype=np.uint8), self.pair_mask, void,
                           exact, self.fifth_copy)
        self._shape[key] = out
        return out

    def closed_hand_can_win(self) -> tuple[bool, str]:
        """Whether a hand without claimed melds may win at all, and why not.

        A single-player self-draw model never claims, so under 开门 (must open:
        武汉, 沈阳) a closed hand's win probability is 0 for this reason.
        """
        for c in _MUST_OPEN:
            if c in self.constraints:
                return False, f"{c}: {DESCRIPTIONS[c]}"
        return True, ""

    def violations(self, w: Any, fans: dict) -> list[str]:
        """The ruleset's constraints a decomposed reading breaks (empty = allowed).

        ``w`` is a :class:`~majiang.winning.WinningHand` (jokers already replaced by
        the tiles they stand for), ``fans`` its counted fans ``{fan id: count}``.
        The minimum fan is checked separately (:meth:`meets_minimum`) because it
        needs the fan table's values.
        """
        return [c for c in self.constraints if not CONSTRAINTS[c](w, fans, self.ruleset)]

    def meets_minimum(self, counted: int) -> bool:
        """Whether ``counted`` fan (those counting toward the minimum) reach 起和番."""
        return counted >= self.min_fan

    def short_of_minimum(self, w: Any, fans: dict) -> str:
        """Why the reading ``w`` (its counted ``fans``) is below the ruleset's minimum
        that is not a sum of fan values (:attr:`Ruleset.win_minimum
        <majiang.rules.Ruleset.win_minimum>`: 武汉 HZ, hand 番 + personal 番 at least 3),
        in one line; ``""`` when it reaches it or the ruleset has none."""
        name = self.ruleset.win_minimum
        if not name:
            return ""
        from .table_rules import WIN_MINIMUMS
        return WIN_MINIMUMS[name](self.ruleset, w, fans)

    def seat_fan(self, discards: Any) -> int:
        """番 a seat carries on the table beyond its hand (:attr:`Ruleset.seat_fan
        <majiang.rules.Ruleset.seat_fan>`: 武汉 红中杠 / 痞子杠 / 赖子杠) from ``discards``,
        the physical tiles still in its pool; 0 when the ruleset has none.  Both game loops
        give it to the win predicate (:attr:`WinContext.seat_fan
        <majiang.winning.WinContext.seat_fan>`)."""
        name = self.ruleset.seat_fan
        if not name:
            return 0
        from .table_rules import SEAT_FANS
        return int(SEAT_FANS[name](self.ruleset, discards))

    def describe(self) -> str:
        """One line: tiles, players, hand size, forms, constraints, minimum, jokers."""
        parts = [f"{self.n_tiles} tiles", f"{self.players} players",
                 f"{self.hand_size}-tile hands", "forms " + ", ".join(self.forms)]
        if self.constraints:
            parts.append("constraints " + ", ".join(self.constraints))
        if self.min_fan:
            parts.append(f"minimum {self.min_fan} fan")
        if self.jokers is not None:
            parts.append(f"jokers ({self.jokers.source}"
                         + (f" + {self.jokers.second}" if self.jokers.second else "") + ")")
        return f"{self.name}: " + "; ".join(parts)


def _kind_of(x: Any) -> int:
    from .base import _kind
    return _kind(x)


GameModel = RuleSpec
"""The older name of :class:`RuleSpec` (the same class: ``GameModel is RuleSpec``)."""


def rule_spec(ruleset: Any = None) -> RuleSpec:
    """The :class:`RuleSpec` of a ruleset (a registry name, a house-rule ``.toml`` path, a
    :class:`~majiang.rules.Ruleset` or a RuleSpec, returned unchanged); ``None`` =
    :data:`DEFAULT_RULESET` (Chinese Official rules, ``"mcr"``).  Compiled once per
    Ruleset object and kept (the same object on every call).

    Raises
    ------
    RuleError
        Unknown ruleset name, or an argument that is not a ruleset.
    """
    if isinstance(ruleset, RuleSpec):
        return ruleset
    if not isinstance(ruleset, Ruleset):
        if ruleset is None:
            ruleset = DEFAULT_RULESET
        elif not isinstance(ruleset, str):
            raise RuleError(f"ruleset must be a name, a .toml path or a Ruleset, got "
                            f"{type(ruleset).__name__}")
        from . import get
        ruleset = get(ruleset)
    return _model_of(ruleset)


game_model = rule_spec
"""The older name of :func:`rule_spec` (the same function)."""


def _build_model(ruleset: Ruleset) -> RuleSpec:
    copies = np.asarray(ruleset.copies, dtype=np.uint8)
    copies.setflags(write=False)
    return RuleSpec(ruleset.name, ruleset, copies, ruleset.players,
                     ruleset.hand_size, tuple(ruleset.forms), bool(ruleset.seven_pairs_quads),
                     int(ruleset.min_fan), tuple(ruleset.constraints), ruleset.jokers,
                     tuple(ruleset.calls))


_model_of = per_ruleset(_build_model)

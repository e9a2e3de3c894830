"""Rulesets as data: :class:`Fan` and :class:`Ruleset`.

A ruleset is a frozen dataclass holding the tile set, players, hand size,
calls, winning forms, minimum, fan table and settlement of one variant.  Fans
are data too: an id, names, a value, a small predicate over a
:class:`majiang.winning.WinningHand`, and the fans it excludes (不计).  The
scoring engine (:mod:`majiang.scoring`) enumerates decompositions and applies
the exclusion principles uniformly; a ruleset only supplies the table.

Regional variants are new :class:`Ruleset` values (often
``dataclasses.replace(base, ...)`` with a changed fan table); nothing here is
specific to Chinese Official rules.

The parts a ruleset is made of live in their own modules and are re-exported here:
option checks (:mod:`.checks`), tile sets (:mod:`.tile_sets`), jokers (:mod:`.jokers`),
points and settlements (:mod:`.points`) and the table rules of the game engine
(:mod:`.table_rules`).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from ..errors import RuleError
from .checks import check_bool, check_choice, check_int
from .constraints import CONSTRAINTS
from .jokers import JokerRule
from .liability import Liability
from .points import (DOUBLINGS_MAX, FAN_DOUBLINGS_MAX, FAN_VALUE_MAX, SETTLEMENTS, ScoringRule,
                     doubling, register_settlement)
from .table_rules import (DEFAULT_DEALER_RULE, END_CHECKS, END_SETTLEMENTS, PASS_LOCKS,
                          SEAT_FANS, WIN_MINIMUMS, DealerRule, EndTable, KongPayments, WallEnd)
from .tile_sets import TILE_SETS, tile_copies

# importable from here as before the split (the rule modules, scoring and the game read them)
from .jokers import WILD_HELD, _kind  # noqa: F401
from .points import POINTS_FUNCTIONS, fan_product, settle_everyone, settle_points  # noqa: F401

__all__ = ["Fan", "Ruleset", "COVERAGES", "coverage_of", "FORM_NAMES", "CORE_FORMS",
           "EXTRA_FORMS", "JokerRule", "KongPayments", "END_CHECKS", "PASS_LOCKS", "EndTable", "END_SETTLEMENTS",
           "SEAT_FANS", "WIN_MINIMUMS",
           "ScoringRule", "WallEnd", "TILE_SETS", "tile_copies", "SETTLEMENTS",
           "register_settlement", "CALLS", "WINNERS", "READY", "DISCARD_ORDERS", "VOID_RULES", "check_int", "check_bool",
           "check_choice", "FAN_VALUE_MAX", "FAN_DOUBLINGS_MAX", "DOUBLINGS_MAX", "doubling",
           "DERIVED_OPTIONS", "DealerRule", "DEFAULT_DEALER_RULE"]


DERIVED_OPTIONS: dict[str, frozenset] = {}
"""Per builder name, the keys of :attr:`Ruleset.options` that the builder derives from
its other options (杭州 ``min_points`` from ``you_cai_bi_kao``, 温州 ``special_wins``
from ``three_caishen_win``): stored for the code that reads them, never written to a
house-rule file (:func:`majiang.rules.dumps`) nor carried over when house rules change
the options."""


CORE_FORMS = ("regular", "seven_pairs", "thirteen_orphans", "honors_and_knitted",
              "knitted_straight")
"""Forms the Cython core computes (:data:`majiang.efficiency.FORMS`)."""
EXTRA_FORMS = ("thirteen_lonely", "seven_stars", "all_258", "eight_pairs")
"""Forms the core does not know: 十三烂 (thirteen lonely tiles) and 七星归位 (十三烂
holding all seven honors), computed by :mod:`majiang.rules.shapes`; 将将胡 / 将一色
(``all_258``: every tile of the hand, melds included, is a 2, 5 or 8 of a suit, in any
shape; docs/rules/changsha.md §2 CS/JD, docs/rules/wuhan.md §1 HZ), computed in closed form by
:mod:`majiang.efficiency` and scored by :mod:`majiang.scoring.regional`."""
FORM_NAMES = CORE_FORMS + EXTRA_FORMS
"""Winning forms a ruleset may list (:attr:`Ruleset.forms`)."""

CALLS = ("chow_left", "chow_any_on_win", "pung", "exposed_kong", "added_kong",
         "concealed_kong")
WINNERS = ("head_bump", "multiple", "single")
"""Several players win on one discard: 截和 (the first in turn order after the
discarder), 一炮多响 (all of them), or only one winner per hand (the hand ends)."""
READY = ("none", "optional", "required")
DISCARD_ORDERS = ("", "lone_honours")
"""Rules on which tile must be discarded (:attr:`Ruleset.discard_order`): none, or 温州's
lone honours first (docs/rules/wenzhou.md §1)."""

VOID_RULES = ("declared", "at_win")
"""How a ruleset with the ``void_suit`` constraint (缺一门) plays it
(:attr:`Ruleset.void_rule`): ``"declared"`` — 定缺, each player names his void suit at the
deal, shown to all, and throws its tiles first (四川, docs/rules/sichuan.md §3);
``"at_win"`` — the winning hand lacks a suit, nothing is declared and the player may change
plans during the hand (立四, 保定 缺一门, 安庆 rule set B)."""


@dataclass(frozen=True)
class Fan:
    """One scoring pattern (番种).

    Parameters
    ----------
    id : int
        Stable integer id (for Chinese Official rules the standard order 1..81).
    chinese, english : str
        Names, e.g. ``"清一色"``, ``"Full Flush"``.
    value : int
        Fan points per occurrence.
    predicate : callable, optional
        ``predicate(w: WinningHand) -> int``: how many times the fan occurs in
        the decomposed hand (0 = absent).  Exactly one of `predicate` and
        `combination` is given.
    combination : callable, optional
        ``combination(w) -> iterable of tuples of set indices``: every group of
        sets of ``w.sets`` that forms the pattern (一般高, 三同刻 …).  Which of
        those groups count is decided by the scoring engine with the
        套算一次 / 不得相同 principles.
    excludes : frozenset of int
        Ids of the fans not counted together with this one (不计).
    reduces : tuple of (int, int)
        Partial exclusions ``(fan id, how many fewer)``, e.g. 九莲宝灯 counts one
        幺九刻 less.
    forms : frozenset of str or None
        Winning forms in which the fan can occur; ``None`` means all.
    minimum : bool
        Whether the fan counts toward the ruleset's minimum (False for flowers).
    fallback : bool
        Counted once when no other fan counting toward the minimum is present
        (无番和); its predicate is then ignored.
    aliases : tuple of str
        Other names the fan goes by (e.g. Botzone's ``"嵌张"`` for 坎张).
    tags : frozenset of str
        Free labels read by win constraints, e.g. ``"big"`` (a 大胡 that may use any
        pair in 长沙/武汉, or a pattern that allows a win on a discard).
    source : str
        Where the rule comes from.
    """

    id: int
    chinese: str
    english: str
    value: int
    predicate: Callable[[Any], int] | None = None
    combination: Callable[[Any], Iterable[tuple[int, ...]]] | None = None
    excludes: frozenset = frozenset()
    reduces: tuple = ()
    forms: frozenset | None = None
    minimum: bool = True
    fallback: bool = False
    aliases: tuple = ()
    source: str = ""
    tags: frozenset = frozenset()

    def __post_init__(self) -> None:
        object.__setattr__(self, "tags", frozenset(self.tags))
        check_int(self.id, "fan id", lo=1)
        if (self.predicate is None) == (self.combination is None):
            raise RuleError(f"fan {self.id} {self.chinese}: give exactly one of predicate "
                            "and combination")
        object.__setattr__(self, "excludes", frozenset(self.excludes))
        object.__setattr__(self, "reduces", tuple(tuple(r) for r in self.reduces))
        if self.forms is not None:
            forms = frozenset(self.forms)
            bad = forms - set(FORM_NAMES)
            if bad:
                raise RuleError(f"fan {self.id} {self.chinese}: unknown forms {sorted(bad)}")
            object.__setattr__(self, "forms", forms)
        object.__setattr__(self, "aliases", tuple(self.aliases))

    def __str__(self) -> str:
        return f"{self.id} {self.chinese} {self.english} ({self.value})"


def _mapping(x: Mapping | None) -> Mapping:
    return MappingProxyType(dict(x or {}))


_ADDITIVE = ScoringRule()      # the default scoring rule (fan points add up)


COVERAGES = ("complete", "interpreted", "sources incomplete", "gaps")
"""How much of a regional variant a ruleset plays (``majiang rules --all``), best first."""


def coverage_of(interpreted: tuple, missing: tuple, lost: tuple = ()) -> str:
    """How much of a variant is played (:data:`COVERAGES`).

    ``"gaps"`` when some rule the sources define is not played (`missing` not empty);
    else ``"sources incomplete"`` when every rule the sources define is played but some
    fact they lose or never define is named (`lost` not empty: no implementation could
    play it as stated); else ``"interpreted"`` when some fact left open is read by
    interpretation; else ``"complete"`` (every rule of the sources played as stated)."""
    if missing:
        return "gaps"
    if lost:
        return "sources incomplete"
    return "interpreted" if interpreted else "complete"


def ready_settlement_params(params: dict, declared_ready, discarder_ready,
                            discarder) -> None:
    """Fill a settlement's ``"declared_ready"`` (the winner's declaration: ``""``,
    ``"concealed"`` or ``"open"``, :attr:`~majiang.winning.WinContext.declared_ready`) and
    ``"discarder_ready"`` (on a discard win, the discarder had declared) parameters in
    place, where the settlement has them."""
    if "declared_ready" in params:
        params["declared_ready"] = ("concealed" if declared_ready is True
                                    else declared_ready or "")
    if "discarder_ready" in params:
        params["discarder_ready"] = bool(discarder_ready and discarder is not None)


@dataclass(frozen=True)
class Ruleset:
    """A complete variant: tiles, players, calls, forms, minimum, fans, settlement.

    Parameters
    ----------
    name : str
        Registry key, e.g. ``"mcr"``.
    title : str
        Human name, e.g. ``"Chinese Official (国标麻将)"``.
    players : int
        3 or 4.
    hand_size : int
        13 or 16 (the dealer starts with one more).
    calls : tuple of str
        Allowed claims: ``"chow_left"`` (chow from the player on the left only),
        ``"pung"``, ``"exposed_kong"``, ``"added_kong"``, ``"concealed_kong"``.
    forms : tuple of str
        Winning forms, names from :data:`FORM_NAMES`.
    seven_pairs_quads : bool
        Whether four of a kind counts as two pairs in seven pairs.
    min_fan : int
        Minimum fan to win (起和分).
    flowers_count_toward_minimum : bool
    fans : tuple of Fan
        The fan table; ids unique.
    settlement : callable
        ``settlement(total, winner, discarder, **settlement_params) -> tuple`` of
        per-seat score changes (``discarder`` None on a self-draw).
    settlement_params : mapping
        Keyword arguments for `settlement` (e.g. ``{"base": 8}``).  Two keys are filled
        per win when present: ``"dealer"`` with the dealer's seat, ``"kong_discard"``
        with the win context's :attr:`~majiang.winning.WinContext.kong_discard` (a
        settlement that pays 杠后炮 itself, 内蒙), ``"declared_ready"`` /
        ``"discarder_ready"`` with the context's ready declarations (报听:
        :func:`ready_settlement_params`; 保定 / 立四 大包, 海南 推倒胡 明摸 / 明打).
    source : str
        Where the rules come from (documents, sections).

    Regional fields (all optional; the defaults describe Chinese Official rules):

    tile_set : str
        Key of :data:`TILE_SETS` (``"144"``, ``"136"``, ``"108"``, ``"112"``, ``"84"`` …);
        gives :attr:`copies`, the playable copies of each of the 34 kinds, and the
        derived :attr:`tiles` (description), :attr:`n_tiles` and :attr:`flowers`.
    tiles_note : str
        A remark added to the tile set's description in :attr:`tiles` (西安
        ``"17 stacks of 2 per player"``); "" for none.
    constraints : tuple of str
        Names of win constraints in :data:`majiang.rules.constraints.CONSTRAINTS`
        (``"void_suit"`` 缺一门, ``"pair_258"`` 二五八将, ``"must_open"`` 开门,
        ``"terminal"`` 幺九, ``"self_draw_only"`` …).  A hand that breaks one does not win.
    void_rule : {"declared", "at_win"}
        How the ``void_suit`` constraint is played (:data:`VOID_RULES`; read through
        :attr:`RuleSpec.declares_void <majiang.rules.model.RuleSpec.declares_void>`):
        ``"declared"`` (default) — 定缺: each player names a void suit after the deal
        (shown to all), must throw its tiles first and may not claim them; ``"at_win"`` —
        缺门 at the win only: no declaration, no throwing order, the winning hand lacks
        some suit and shanten / advice / the bots count the distance to the nearest such
        hand (the least over the three suits, re-evaluated at each decision).  Nothing
        without ``void_suit``.
    ready : {"none", "optional", "required"}
        Ready declaration (报听).
    jokers : JokerRule or None
    wall_end : WallEnd
    winners : {"head_bump", "multiple", "single"}
    blood : {"", "xuezhan", "xueliu"}
        四川 style: play on after a win until three have won (血战到底) or to the
        last tile, winners staying in (血流成河).  Not with flowers as the jokers
        (``JokerRule(source="flowers")``, 广东 花鬼): RuleError.
    scoring : ScoringRule
    options : mapping
        The values of the ruleset's build options (e.g. ``{"long_seven_pairs": 16}``);
        :func:`majiang.rules.load` rebuilds a ruleset from them.
    builder : str
        Name of the registered builder that made this ruleset from `options`.
    status : {"complete", "partial"}
        ``"complete"``: the ruleset plays (it may still interpret facts or leave rules
        out: :attr:`interpreted`, :attr:`missing`, :attr:`lost`, :attr:`coverage`); ``"partial"``: it
        covers only the shapes of what is known.
    interpreted : tuple of str
        Facts of the variant the sources leave open, read by interpretation (each
        named, as ``majiang rules --all`` shows them).
    missing : tuple of str
        Rules the sources define that the ruleset does not play, each named without
        "not played" (every entry is; ``majiang rules`` adds the label).
    lost : tuple of str
        Facts of the variant the sources lose or never define (a rule named and never
        described, a lost part of the text), which no implementation could play as
        stated; a fact left open for which the ruleset plays a chosen value is in
        `interpreted` instead.
    section : str
        Variant number in the index of docs/rules/README.md (``"§3.10"``).

    Table rules the game engine plays (defaults: none):

    pass_lock : {"", "kind", "all"}
        过水 / 漏和 after a passed win (:data:`PASS_LOCKS`).
    end_checks : tuple of str
        Settlements at a drawn end, names from :data:`END_CHECKS`.
    exchange : int
        换三张: tiles of one suit each player passes after the deal (0 = none, 3).
    kong_payments : KongPayments or None
        Kong payments outside the hand value.
    end_settlement : str
        Name of an end-of-hand settlement in :data:`END_SETTLEMENTS` ("" = none), paid
        from the final table (:class:`EndTable`) after a win or a drawn end.
    dealer_rule : DealerRule or None
        Who deals the next hand of a match (连庄 / 轮庄 / 抢庄) and the build option
        that takes the dealer's streak (:func:`majiang.play_match`); None: not stated
        by the sources: :data:`DEFAULT_DEALER_RULE` (what :attr:`next_dealer_rule`
        answers).
    win_first : tuple of str
        Fans (kept by Chinese name; any key of :meth:`fan` on input) whose win takes a discard ahead of a nearer claimant when
        one seat wins it (``winners`` not ``"multiple"``): of the seats winning on the
        tile, the first in turn order after the discarder whose win counts one of them
        takes it, else the first (灌南 大绝七对先胡: ``("七对",)``).  () for none: the
        first in turn order.
    discard_order : {"", "lone_honours"}
        A rule on which tile must be discarded (:data:`DISCARD_ORDERS`), played in the game
        engine's legal discards: ``"lone_honours"`` (温州): a lone honour (the only tile
        of its kind in the hand) goes before any other tile, and after another seat's
        honour discard a player holding one lone tile of that kind discards it.  "" none.
    liabilities : tuple of Liability
        Liability (包) cases, in order (:mod:`majiang.rules.liability`): who pays for
        the others because of what he fed the winner, and how much; both game loops
        apply them to each win's payments.  () for none.
    must_win_last : int
        最后四张必须胡 (云南): once the ``n``-th last tile that can be drawn from the wall has
        been drawn, a win a player may make (on his draw, a discard or a robbed kong) is
        taken: the game engine takes it for him, bots and outside policies alike (it is
        not offered as a choice).  0 (default): wins are always a choice.
    seat_fan : str
        Name of the 番 each seat carries on the table beyond its hand in
        :data:`SEAT_FANS` ("" = none): both game loops count the winner's at each win
        (:attr:`WinContext.seat_fan <majiang.winning.WinContext.seat_fan>`).
    win_minimum : str
        Name of a minimum of a win in :data:`WIN_MINIMUMS` ("" = none) besides
        :attr:`min_fan`: a win it refuses is below the minimum, as under ``min_fan``
        (武汉 HZ: hand 番 + personal 番 at least 3).
    standing_tiles : int
        立四 (standing tiles): the first ``n`` playing tiles dealt to each player stand
        apart, face down to the others (their number public).  Before a ready declaration
        (报听) none of them is discarded, but they join pungs and kongs; the declaration is
        made by discarding one of them **face down** (no claim, no win on it, unseen by
        the others), so a player left with none cannot declare.  Needs a declaration the
        engine plays (``ready`` not ``"none"``).  0 (default): no standing tiles.
    ready_kongs : bool
        Whether a hand declared ready (报听) may still make a concealed or added kong of
        the tile just drawn when that keeps its waits (True, the default: the usual
        exception); False: no kong at all after the declaration (立四: "不允许再杠了").
    kong_reveal : int
        开杠 (长沙 杠 as against 补张): ``n`` > 0 lets a player whose hand is ready after a
        kong choose, instead of the one replacement draw, to turn ``n`` tiles from the
        tail of the wall: a turned tile that completes his hand wins (杠上开花, each such
        tile a win of its own), else every other seat may win on a turned tile (杠上炮,
        a win on each tile that completes its hand), else the tiles go to his discards,
        his hand is locked (he discards each tile he draws unless it wins) and play
        passes to his 下家.  Played by both game loops
        (:mod:`majiang.game.engine.open_kong`).  0 (default): every kong is a 补张.

    Raises
    ------
    RuleError
        An unknown name in any field, a bad count, or a fan value out of bounds (below
        0, above :data:`FAN_VALUE_MAX`, or above :data:`FAN_DOUBLINGS_MAX` in a doubling
        table).
    """

    name: str
    title: str
    players: int
    hand_size: int
    calls: tuple
    forms: tuple
    seven_pairs_quads: bool
    min_fan: int
    flowers_count_toward_minimum: bool
    fans: tuple
    settlement: Callable[..., tuple]
    settlement_params: Mapping = field(default_factory=dict)
    source: str = ""
    tile_set: str = "144"
    constraints: tuple = ()
    void_rule: str = "declared"
    ready: str = "optional"
    jokers: JokerRule | None = None
    wall_end: WallEnd = WallEnd()
    winners: str = "head_bump"
    blood: str = ""
    scoring: ScoringRule = ScoringRule()
    options: Mapping = field(default_factory=dict)
    builder: str = ""
    status: str = "complete"
    interpreted: tuple = ()
    missing: tuple = ()
    lost: tuple = ()
    section: str = ""
    pass_lock: str = ""
    end_checks: tuple = ()
    exchange: int = 0
    kong_payments: KongPayments | None = None
    end_settlement: str = ""
    tiles_note: str = ""
    dealer_rule: DealerRule | None = None
    win_first: tuple = ()
    discard_order: str = ""
    liabilities: tuple = ()
    must_win_last: int = 0
    seat_fan: str = ""
    win_minimum: str = ""
    standing_tiles: int = 0
    ready_kongs: bool = True
    kong_reveal: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "calls", tuple(self.calls))
        object.__setattr__(self, "constraints", tuple(self.constraints))
        for name in ("interpreted", "missing", "lost"):
            notes = getattr(self, name)
            if isinstance(notes, str) or not all(isinstance(t, str) for t in notes):
                raise RuleError(f"ruleset {self.name}: {name} must be a tuple of strings, "
                                f"got {notes!r}")
            object.__setattr__(self, name, tuple(notes))
        object.__setattr__(self, "options", _mapping(self.options))
        object.__setattr__(self, "end_checks", tuple(self.end_checks))
        if self.pass_lock not in PASS_LOCKS:
            raise RuleError(f"ruleset {self.name}: pass_lock must be one of {PASS_LOCKS}, "
                            f"got {self.pass_lock!r}")
        bad = [c for c in self.end_checks if c not in END_CHECKS]
        if bad:
            raise RuleError(f"ruleset {self.name}: unknown end checks {bad}; known: "
                            f"{', '.join(END_CHECKS)}")
        check_choice(self.exchange, f"ruleset {self.name}: exchange", (0, 3))
        check_choice(self.discard_order, f"ruleset {self.name}: discard_order", DISCARD_ORDERS)
        check_choice(self.void_rule, f"ruleset {self.name}: void_rule", VOID_RULES)
        object.__setattr__(self, "liabilities", tuple(self.liabilities))
        if not all(isinstance(c, Liability) for c in self.liabilities):
            raise RuleError(f"ruleset {self.name}: liabilities must be Liability cases")
        check_int(self.must_win_last, f"ruleset {self.name}: must_win_last", lo=0, hi=200)
        check_int(self.standing_tiles, f"ruleset {self.name}: standing_tiles", lo=0,
                  hi=self.hand_size)
        check_bool(self.ready_kongs, f"ruleset {self.name}: ready_kongs")
        if self.standing_tiles and self.ready == "none":
            raise RuleError(f"ruleset {self.name}: standing tiles are discarded only to "
                            "declare ready; ready must not be 'none'")
        check_int(self.kong_reveal, f"ruleset {self.name}: kong_reveal", lo=0, hi=4)
        check_int(self.min_fan, f"ruleset {self.name}: min_fan", lo=0)
        check_bool(self.seven_pairs_quads, f"ruleset {self.name}: seven_pairs_quads")
        check_bool(self.flowers_count_toward_minimum,
                   f"ruleset {self.name}: flowers_count_toward_minimum")
        if not isinstance(self.end_settlement, str):
            raise RuleError(f"ruleset {self.name}: end_settlement must be a name, got "
                            f"{self.end_settlement!r}")
        for what, known in (("seat_fan", SEAT_FANS), ("win_minimum", WIN_MINIMUMS)):
            v = getattr(self, what)
            if not isinstance(v, str) or (v and v not in known):
                raise RuleError(f"ruleset {self.name}: unknown {what} {v!r}; known: "
                                f"{', '.join(sorted(known)) or 'none'}")
        if self.dealer_rule is not None and not isinstance(self.dealer_rule, DealerRule):
            raise RuleError(f"ruleset {self.name}: dealer_rule must be a DealerRule or None")
        if self.kong_payments is not None and not isinstance(self.kong_payments, KongPayments):
            raise RuleError(f"ruleset {self.name}: kong_payments must be a KongPayments")
        if self.end_settlement and self.end_settlement not in END_SETTLEMENTS:
            raise RuleError(f"ruleset {self.name}: unknown end settlement "
                            f"{self.end_settlement!r}; known: "
                            f"{', '.join(sorted(END_SETTLEMENTS)) or 'none'}")
        tile_copies(self.tile_set)
        if getattr(self.wall_end, "per_seat", False) and (
                self.jokers is not None or self.n_flowers or self.blood
                or (sum(tile_copies(self.tile_set)) % self.players)):
            raise RuleError(f"ruleset {self.name}: one wall per seat needs a tile set without "
                            "flowers that splits evenly among the players, no jokers and no "
                            "血战 / 血流")
        bad = set(self.calls) - set(CALLS)
        if bad:
            raise RuleError(f"ruleset {self.name}: unknown calls {sorted(bad)}; known: "
                            f"{', '.join(CALLS)}")
        if self.ready not in READY:
            raise RuleError(f"ruleset {self.name}: ready must be one of {READY}, "
                            f"got {self.ready!r}")
        if self.winners not in WINNERS:
            raise RuleError(f"ruleset {self.name}: winners must be one of {WINNERS}, "
                            f"got {self.winners!r}")
        if self.blood not in ("", "xuezhan", "xueliu"):
            raise RuleError(f"ruleset {self.name}: blood must be '', xuezhan or xueliu, "
                            f"got {self.blood!r}")
        if self.blood and getattr(self.jokers, "source", "") == "flowers":
            # (a blood winner's self-drawn tile is set aside by its kind; a flower has none)
            raise RuleError(f"ruleset {self.name}: flowers as the jokers (花鬼) are not "
                            f"played under blood rules ({self.blood}); no ruleset plays "
                            "them together")
        if self.status not in ("complete", "partial"):
            raise RuleError(f"ruleset {self.name}: status must be complete or partial")
        if self.constraints:
            unknown = [c for c in self.constraints if c not in CONSTRAINTS]
            if unknown:
                raise RuleError(f"ruleset {self.name}: unknown constraints {unknown}; known: "
                                f"{', '.join(sorted(CONSTRAINTS))}")
        object.__setattr__(self, "forms", tuple(self.forms))
        bad = set(self.forms) - set(FORM_NAMES)
        if bad:
            raise RuleError(f"ruleset {self.name}: unknown winning forms {sorted(bad)}")
        if self.players not in (3, 4):
            raise RuleError(f"ruleset {self.name}: players must be 3 or 4, got {self.players}")
        if self.hand_size % 3 != 1:
            raise RuleError(f"ruleset {self.name}: hand_size {self.hand_size} is not 3n+1")
        fans = tuple(sorted(self.fans, key=lambda f: f.id))
        top = FAN_DOUBLINGS_MAX if self.scoring.mode == "double" else FAN_VALUE_MAX
        for f in fans:
            check_int(f.value, f"ruleset {self.name}: value of fan {f.id} {f.chinese}",
                      lo=0, hi=top)
        ids = [f.id for f in fans]
        if len(set(ids)) != len(ids):
            raise RuleError(f"ruleset {self.name}: duplicate fan ids")
        known = set(ids)
        for f in fans:
            missing = (set(f.excludes) | {i for i, _ in f.reduces}) - known
            if missing:
                raise RuleError(f"ruleset {self.name}: fan {f.id} {f.chinese} excludes unknown "
                                f"fan ids {sorted(missing)}")
        object.__setattr__(self, "fans", fans)
        object.__setattr__(self, "settlement_params", _mapping(self.settlement_params))
        index: dict = {}
        for f in fans:
            for key in (f.id, f.chinese, f.english, f.english.lower(), *f.aliases):
                index.setdefault(key, f)
        object.__setattr__(self, "_index", index)
        # by Chinese name (any key of :meth:`fan` finds the fan)
        object.__setattr__(self, "win_first", tuple(self.fan(k).chinese
                                                    for k in self.win_first))
        if self.win_first and self.winners == "multiple":
            raise RuleError(f"ruleset {self.name}: win_first orders the winners of one "
                            "discard when only one wins it, not with winners='multiple'")

    def fan(self, key: int | str) -> Fan:
        """The fan with this id, Chinese or English name, or alias.

        Raises
        ------
        RuleError
            When no fan matches.
        """
        index = self._index  # type: ignore[attr-defined]
        f = index.get(key)
        if f is None and isinstance(key, str):
            f = index.get(key.lower())
        if f is None:
            raise RuleError(f"ruleset {self.name} has no fan {key!r}")
        return f

    def settle(self, total: int, winner: int, discarder: int | None = None, *,
               dealer: int | None = None, kong_discard: bool = False,
               declared_ready: str = "", discarder_ready: bool = False) -> tuple:
        """Per-seat score changes for a win worth `total` fan (see `settlement`).
        ``dealer``: the dealer's seat, for a settlement with dealer terms (its
        ``"dealer"`` parameter, seat 0 otherwise); ``kong_discard``: the win was on the
        discard its discarder made right after his own kong, for a settlement with a
        ``"kong_discard"`` parameter (内蒙 杠后炮); ``declared_ready`` / ``discarder_ready``:
        the winner's / the discarder's ready declaration
        (:attr:`~majiang.winning.WinContext.declared_ready`), for a settlement with such
        parameters.

        Raises
        ------
        RuleError
            For seats outside ``0..players-1`` or ``discarder == winner``.
        """
        n = self.players
        if not 0 <= winner < n:
            raise RuleError(f"winner seat must be 0..{n - 1}, got {winner!r}")
        if discarder is not None and (not 0 <= discarder < n or discarder == winner):
            raise RuleError(f"discarder seat must be 0..{n - 1} and not the winner, "
                            f"got {discarder!r}")
        params = self.settlement_params
        if dealer is not None and "dealer" in params:
            params = {**params, "dealer": int(dealer) % n}
        if "kong_discard" in params:
            params = {**params, "kong_discard": bool(kong_discard and discarder is not None)}
        if "declared_ready" in params or "discarder_ready" in params:
            params = dict(params)
            ready_settlement_params(params, declared_ready, discarder_ready, discarder)
        return self.settlement(self.points(total), winner, discarder, players=n, **params)

    @property
    def next_dealer_rule(self) -> DealerRule:
        """Who deals the next hand of a match: :attr:`dealer_rule`, or
        :data:`DEFAULT_DEALER_RULE` when the sources state none."""
        return DEFAULT_DEALER_RULE if self.dealer_rule is None else self.dealer_rule

    @property
    def coverage(self) -> str:
        """How much of the variant this ruleset plays (:func:`coverage_of` of
        :attr:`interpreted`, :attr:`missing` and :attr:`lost`): one of
        :data:`COVERAGES`."""
        return coverage_of(self.interpreted, self.missing, self.lost)

    # -- facts of the tile set (derived, never stored twice) ----------------
    @property
    def tiles(self) -> str:
        """Description of the tile set (:data:`TILE_SETS`), with :attr:`tiles_note`."""
        text = TILE_SETS[self.tile_set][2]
        return f"{text}; {self.tiles_note}" if self.tiles_note else text

    @property
    def n_tiles(self) -> int:
        """Physical tiles in the set, flowers included (136, 144, 108 …)."""
        return sum(self.copies) + self.n_flowers

    @property
    def flowers(self) -> int:
        """Flower tiles in the set (non-playing tiles; the same as :attr:`n_flowers`)."""
        return self.n_flowers

    # -- regional helpers --------------------------------------------------
    @property
    def copies(self) -> tuple:
        """Playable copies of each of the 34 kinds (0 for kinds not in the set)."""
        return tile_copies(self.tile_set)

    @property
    def kinds(self) -> tuple:
        """The playable kinds of the tile set."""
        return tuple(k for k, c in enumerate(self.copies) if c)

    @property
    def n_flowers(self) -> int:
        """Non-playing tiles (flowers, or honors used as flowers)."""
        return TILE_SETS[self.tile_set][1]

    @property
    def extended(self) -> bool:
        """Whether hands need the Python layer (:mod:`majiang.rules.shapes`,
        :mod:`majiang.scoring.regional`): jokers, shape constraints, a :attr:`win_minimum`,
        extra forms, a reduced tile set or a non-additive scoring rule."""
        return (self.jokers is not None or bool(self.constraints) or bool(self.win_minimum)
                or any(f in EXTRA_FORMS for f in self.forms)
                or replace(self.scoring, unit=_ADDITIVE.unit) != _ADDITIVE   # (a unit is a name)
                or self.tile_set not in ("136", "144"))

    def joker_kind(self, indicator: Any = None) -> int:
        """The wild kind of this ruleset for a turned `indicator` (kind or tile name).

        Raises
        ------
        RuleError
            When the ruleset has no jokers, or needs an indicator and got none.
        """
        if self.jokers is None:
            raise RuleError(f"ruleset {self.name} has no jokers")
        return self.jokers.kind(indicator)

    def points(self, total: int, fan_ids: Iterable[int] = ()) -> int:
        """Points of a win worth `total` fan under :attr:`scoring`.

        Raises
        ------
        RuleError
            Custom scoring (it needs the fan counts), or a doubling win worth more than
            :data:`DOUBLINGS_MAX` doublings.
        """
        sc = self.scoring
        limit = bool(sc.limit & set(fan_ids))
        if sc.mode == "add":
            t = total if (sc.cap is None or limit) else min(total, sc.cap)
            return sc.base * t
        if sc.mode == "double":
            t = total if (sc.cap is None or limit) else min(total, sc.cap)
            return sc.base * doubling(t)
        raise RuleError(f"ruleset {self.name}: custom scoring needs the fan counts; "
                        "use majiang.score(...).points")

    def __str__(self) -> str:
        return (f"{self.title} [{self.name}]: {self.players} players, {self.hand_size}-tile "
                f"hands, {self.tiles}; forms {', '.join(self.forms)}; minimum {self.min_fan} "
                f"fan; {len(self.fans)} fans")

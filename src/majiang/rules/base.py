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
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..errors import RuleError

__all__ = ["Fan", "Ruleset", "FORM_NAMES"]

FORM_NAMES = ("regular", "seven_pairs", "thirteen_orphans", "honors_and_knitted",
              "knitted_straight")
"""Winning forms a ruleset may list (:attr:`Ruleset.forms`)."""


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

    def __post_init__(self) -> None:
        if isinstance(self.id, bool) or not isinstance(self.id, int) or self.id < 1:
            raise RuleError(f"fan id must be a positive int, got {self.id!r}")
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


@dataclass(frozen=True)
class Ruleset:
    """A complete variant: tiles, players, calls, forms, minimum, fans, settlement.

    Parameters
    ----------
    name : str
        Registry key, e.g. ``"mcr"``.
    title : str
        Human name, e.g. ``"Chinese Official (国标麻将)"``.
    tiles : str
        Description of the tile set, e.g. ``"144: 3 suits x 36, 28 honors, 8 flowers"``.
    n_tiles : int
        Number of tiles in the wall (flowers included).
    flowers : int
        Number of flower tiles in the set.
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
        Keyword arguments for `settlement` (e.g. ``{"base": 8}``).
    source : str
        Where the rules come from (documents, sections).
    """

    name: str
    title: str
    tiles: str
    n_tiles: int
    flowers: int
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

    def __post_init__(self) -> None:
        object.__setattr__(self, "calls", tuple(self.calls))
        object.__setattr__(self, "forms", tuple(self.forms))
        bad = set(self.forms) - set(FORM_NAMES)
        if bad:
            raise RuleError(f"ruleset {self.name}: unknown winning forms {sorted(bad)}")
        if self.players not in (3, 4):
            raise RuleError(f"ruleset {self.name}: players must be 3 or 4, got {self.players}")
        if self.hand_size % 3 != 1:
            raise RuleError(f"ruleset {self.name}: hand_size {self.hand_size} is not 3n+1")
        fans = tuple(sorted(self.fans, key=lambda f: f.id))
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

    def settle(self, total: int, winner: int, discarder: int | None = None) -> tuple:
        """Per-seat score changes for a win worth `total` fan (see `settlement`).

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
        return self.settlement(total, winner, discarder, players=n, **self.settlement_params)

    def __str__(self) -> str:
        return (f"{self.title} [{self.name}]: {self.players} players, {self.hand_size}-tile "
                f"hands, {self.tiles}; forms {', '.join(self.forms)}; minimum {self.min_fan} "
                f"fan; {len(self.fans)} fans")

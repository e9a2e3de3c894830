"""Review real games: compare every recorded discard with our advice.

:func:`review_game` replays a Botzone Chinese Official (MCR) record
(:mod:`majiang.records`) and, at each discard decision, ranks the possible
discards with :func:`majiang.analysis.advise` under the winning forms the rules
allow.  The player's actual discard is then placed in that ranking.
:func:`review_games` does the same for several records, :func:`agreement`
sums up how often the players chose one of our best discards, and
:func:`review_wins` lists the wins with their recorded fans (the hook where a
fan scorer adds its own columns).

Nothing here prints; the command line (``majiang review``) formats these tables.

Which Chinese Official reading scores the wins
----------------------------------------------
Botzone's judge scores one concealed + one melded kong as 明暗杠 (5 fan), a fan that
is not among the 81 of the rules.  The registered ``mcr`` ruleset does the same
(option ``concealed_and_melded_kong``, on by default; see :mod:`majiang.rules.mcr`),
so the recorded fans are compared as they are.  Under the official reading
(``rules.mcr.MCR_OFFICIAL``, option off) a recorded 明暗杠 is read as 暗杠 + 明杠
(:data:`RECORDED_FAN_FIX`).  :func:`kong_reading` names the reading; the scorer
(:class:`MCRWinScorer`) carries it as ``.reading`` and :func:`review_wins` puts it in
``DataFrame.attrs["reading"]``.

What "advice" means here
------------------------
Advice is tile efficiency only: lower shanten, then more live effective tiles
(有效牌 still unseen, using what the player could see at that moment), then the
optional two-step improvement, exactly as :func:`~majiang.analysis.advise` ranks.
It knows nothing about fans, the 8-fan minimum of Chinese Official, defence or
reading other players, so a disagreement is a question to look at, not a
mistake.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from .analysis import _ranked_columns
from .hand import Hand, Meld, format_hand
from .records import Decision, GameRecord, RecordMeld, Win, decision_points, wins
from .tiles import counts_from_tiles, format_counts, parse_tile, tile_name

__all__ = [
    "MCR_FORMS", "REVIEW_COLUMNS", "AGREEMENT_COLUMNS", "WIN_COLUMNS",
    "decision_hand", "review_decision", "review_game", "review_games", "agreement",
    "review_wins", "score_win", "mcr_win_scorer", "MCRWinScorer", "recorded_fans",
    "RECORDED_FAN_FIX", "kong_reading",
]

MCR_FORMS: tuple[str, ...] = ("regular", "seven_pairs", "thirteen_orphans",
                              "honors_and_knitted", "knitted_straight")
"""Winning forms of Chinese Official (MCR) records: the five MCR forms (regular, seven
pairs, thirteen orphans, 全不靠/七星不靠 honors-and-knitted, 组合龙 knitted straight)."""

REVIEW_COLUMNS: tuple[str, ...] = (
    "game", "turn", "player", "hand", "drawn", "discard", "rank", "shanten",
    "ukeire_count", "ukeire", "advised", "best", "advised_shanten",
    "advised_ukeire_count", "agrees", "options",
)
"""Columns of :func:`review_game` (see its docstring for their meaning)."""

AGREEMENT_COLUMNS: tuple[str, ...] = (
    "decisions", "agreed", "agreement", "mean_rank", "shanten_loss", "ukeire_loss",
)
"""Value columns of :func:`agreement` (the group keys come first)."""

WIN_COLUMNS: tuple[str, ...] = (
    "game", "turn", "player", "win_tile", "self_drawn", "discarder", "hand",
    "fan_total", "fans", "scores",
)
"""Columns of :func:`review_wins` before any scorer columns."""


# --------------------------------------------------------------------------
# one decision
# --------------------------------------------------------------------------

def _meld(m: RecordMeld) -> Meld:
    return Meld(m.kind, int(m.tile), bool(m.concealed))


def decision_hand(decision: Decision) -> Hand:
    """The :class:`~majiang.hand.Hand` of a decision: concealed tiles right before
    the discard (drawn or claimed tile included) plus the declared melds."""
    return Hand(decision.concealed, tuple(_meld(m) for m in decision.melds))


def review_decision(decision: Decision, *, forms: Sequence[str] = MCR_FORMS,
                    seven_pairs_quads: bool = True,
                    second_order: bool = False) -> dict[str, Any]:
    """One row of :func:`review_game` for one :class:`~majiang.records.Decision`.

    Returns a dict with the keys of :data:`REVIEW_COLUMNS` (``improvement`` and
    ``advised_improvement`` are added when `second_order` is true).
    """
    hand = decision_hand(decision)
    names, sh, _kinds, count, texts, impr, order, ranks = _ranked_columns(
        hand, decision.visible, forms, seven_pairs_quads, second_order, 0, False, None)
    actual = tile_name(decision.discard)
    i = names.index(actual)           # the replay guarantees the tile is in the hand
    pos = order.tolist()
    rank_i = int(ranks[pos.index(i)])
    agrees = rank_i == 1
    j = i if agrees else pos[0]       # tied best rows are equal on every criterion
    best = order[ranks == 1].tolist()
    row = {
        "game": decision.game,
        "turn": int(decision.turn_index),
        "player": int(decision.player),
        "hand": format_hand(hand),
        "drawn": None if decision.drawn is None else tile_name(decision.drawn),
        "discard": actual,
        "rank": rank_i,
        "shanten": int(sh[i]),
        "ukeire_count": int(count[i]),
        "ukeire": str(texts[i]),
        "advised": names[j],
        "best": format_counts(counts_from_tiles([parse_tile(names[b]) for b in best])),
        "advised_shanten": int(sh[j]),
        "advised_ukeire_count": int(count[j]),
        "agrees": bool(agrees),
        "options": len(names),
    }
    if second_order:
        row["improvement"] = float(impr[i])
        row["advised_improvement"] = float(impr[j])
    return row


# --------------------------------------------------------------------------
# games
# --------------------------------------------------------------------------

def _frame(rows: list[dict[str, Any]], second_order: bool):
    import pandas as pd

    columns = list(REVIEW_COLUMNS)
    if second_order:
        columns += ["improvement", "advised_improvement"]
    df = pd.DataFrame(rows, columns=columns)
    ints = ["turn", "player", "rank", "shanten", "ukeire_count", "advised_shanten",
            "advised_ukeire_count", "options"]
    df[ints] = df[ints].astype(np.int64)
    df["agrees"] = df["agrees"].astype(bool)
    return df


def review_game(record: GameRecord, *, forms: Sequence[str] = MCR_FORMS,
                seven_pairs_quads: bool = True, second_order: bool = False,
                players: Iterable[int] | None = None):
    """Compare every discard of a game record with our advice.

    Parameters
    ----------
    record : majiang.records.GameRecord
        One hand of a Botzone log (:func:`majiang.records.load_games`).
    forms : sequence of str
        Winning forms (default :data:`MCR_FORMS`: regular, seven pairs, thirteen
        orphans).
    seven_pairs_quads : bool, default True
        Four of a kind counts as two pairs in seven pairs (Chinese Official).
    second_order : bool, default False
        Use the two-step improvement as a tie-break (about 6x slower); adds the
        columns ``improvement`` and ``advised_improvement``.
    players : iterable of int, optional
        Review only these seats (0..3); default all.

    Returns
    -------
    pandas.DataFrame
        One row per discard (``Play`` event), in game order:

        ``game``
            Botzone match id.
        ``turn``
            Index of the ``Play`` event in ``record.events``.
        ``player``
            Seat 0..3 (0 = East, the dealer).
        ``hand``
            The hand right before the discard, as :func:`~majiang.hand.format_hand`
            writes it: concealed tiles (the drawn or claimed tile included), then
            the melds (``[555z]`` exposed, ``{6666m}`` concealed kong).
        ``drawn``
            The tile just drawn; missing (None, shown as NaN by pandas) when the
            discard follows a chow or pung.
        ``discard``
            The tile actually discarded (Tenhou notation).
        ``rank``
            Its rank in our advice: 1 = among the best; discards equal on every
            criterion share a rank, so several may be rank 1.
        ``shanten``
            Shanten after the actual discard.
        ``ukeire_count``
            Live effective tiles after the actual discard, as :func:`advise`
            counts them: 4 minus the copies in the hand and those the player could
            see (all table discards and others' melds).
        ``ukeire``
            The effective kinds after the actual discard, compact (``"147m"``).
        ``advised``
            Our advised discard (rank 1).  When several discards tie at rank 1 and
            the actual discard is one of them, this is the actual discard;
            otherwise the first of the tied best in :func:`advise` order.
        ``best``
            Every discard tied at rank 1, compact Tenhou (``"46p"``).
        ``advised_shanten``, ``advised_ukeire_count``
            Shanten and live ukeire after the advised discard.
        ``agrees``
            True when the actual discard is rank 1.
        ``options``
            Number of distinct discards the hand offered.

    Raises
    ------
    majiang.errors.InvalidHandError, majiang.errors.InvalidNotationError
        When the record does not replay (see :func:`majiang.records.replay`).
    """
    return review_games([record], forms=forms, seven_pairs_quads=seven_pairs_quads,
                        second_order=second_order, players=players)


def review_games(records: Iterable[GameRecord], *, forms: Sequence[str] = MCR_FORMS,
                 seven_pairs_quads: bool = True, second_order: bool = False,
                 players: Iterable[int] | None = None):
    """:func:`review_game` for several records, concatenated in order (same
    columns; a fresh 0..n-1 index)."""
    keep = None if players is None else {int(p) for p in players}
    rows: list[dict[str, Any]] = []
    for record in records:
        rows.extend(review_decision(d, forms=forms, seven_pairs_quads=seven_pairs_quads,
                                    second_order=second_order)
                    for d in decision_points(record)
                    if keep is None or d.player in keep)
    return _frame(rows, second_order)


# --------------------------------------------------------------------------
# summaries
# --------------------------------------------------------------------------

def agreement(df, by: str | Sequence[str] | None = "player"):
    """How often the recorded discards agree with our advice.

    Parameters
    ----------
    df : pandas.DataFrame
        Output of :func:`review_game` / :func:`review_games`.
    by : str, sequence of str or None, default "player"
        Group keys, e.g. ``"player"``, ``"game"`` or ``["game", "player"]``;
        None gives a single row over all decisions.

    Returns
    -------
    pandas.DataFrame
        The group keys (as columns, sorted), then

        ``decisions``
            Number of discard decisions.
        ``agreed``
            Decisions where the actual discard was rank 1.
        ``agreement``
            ``agreed / decisions`` in 0..1 (NaN for no decisions).
        ``mean_rank``
            Mean rank of the actual discards (1 = always among the best).
        ``shanten_loss``
            Decisions where the actual discard left a higher shanten than the
            advised one (the clearest disagreements).
        ``ukeire_loss``
            Mean of ``advised_ukeire_count - ukeire_count`` over the decisions
            with the advised shanten (live tiles given up at equal shanten).
    """
    import pandas as pd

    from .errors import RuleError

    keys = [] if by is None else [by] if isinstance(by, str) else list(by)
    missing = [k for k in keys if k not in df.columns]
    if missing:
        raise RuleError(f"cannot group by {missing}: columns are {list(df.columns)}")
    work = df.assign(
        _loss=(df["shanten"] > df["advised_shanten"]).astype(np.int64),
        _uk=(df["advised_ukeire_count"] - df["ukeire_count"]).where(
            df["shanten"] == df["advised_shanten"]).astype(float),
        _agree=df["agrees"].astype(np.int64),
        _rank=df["rank"].astype(float),
    )

    def summary(g) -> dict[str, Any]:
        n = len(g)
        return {
            "decisions": n,
            "agreed": int(g["_agree"].sum()),
            "agreement": float(g["_agree"].mean()) if n else float("nan"),
            "mean_rank": float(g["_rank"].mean()) if n else float("nan"),
            "shanten_loss": int(g["_loss"].sum()),
            "ukeire_loss": float(g["_uk"].mean()) if g["_uk"].notna().any() else float("nan"),
        }

    if by is None:
        return pd.DataFrame([summary(work)], columns=list(AGREEMENT_COLUMNS))
    keys = [by] if isinstance(by, str) else list(by)
    rows = []
    for key, g in work.groupby(keys, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        rows.append({**dict(zip(keys, key)), **summary(g)})
    out = pd.DataFrame(rows, columns=keys + list(AGREEMENT_COLUMNS))
    return out.astype({"decisions": np.int64, "agreed": np.int64, "shanten_loss": np.int64})


WinScorer = Callable[[Win], Mapping[str, Any]]


def review_wins(records: Iterable[GameRecord], *, scorer: WinScorer | None = None):
    """The wins of some records, with the fans the log recorded.

    This is the hook for checking our fan scoring against Botzone's judge: pass
    ``scorer``, a function taking a :class:`~majiang.records.Win` and returning a
    mapping of extra columns (e.g. ``{"our_fan_total": 9, "our_fans": ...}``);
    they are appended after :data:`WIN_COLUMNS`, and ``majiang review`` prints
    them beside the recorded values.  When the scorer has a ``reading`` attribute
    (:class:`MCRWinScorer`: which Chinese Official reading scored the wins, see
    :func:`kong_reading`), it is kept in ``DataFrame.attrs["reading"]``.

    Returns
    -------
    pandas.DataFrame
        One row per win (drawn games have none):

        ``game``, ``turn``, ``player``
            Match id, index of the ``Hu`` event, the winner's seat.
        ``win_tile``
            The winning tile (Tenhou).
        ``self_drawn``
            True for a self-draw (自摸).
        ``discarder``
            Seat that dealt in (or whose added kong was robbed); ``<NA>`` on a
            self-draw (nullable ``Int64`` column).
        ``hand``
            The winner's hand before the winning tile (``format_hand``).
        ``fan_total``
            Fan total recorded in the log.
        ``fans``
            Recorded fans, ``[(Chinese name, count), ...]``.
        ``scores``
            Recorded settlement per seat (tuple of 4) or None.
    """
    import pandas as pd

    rows = []
    extra: list[str] = []
    for record in records:
        for w in wins(record):
            hand = Hand(w.concealed, tuple(_meld(m) for m in w.melds))
            row = {
                "game": w.game,
                "turn": int(w.turn_index),
                "player": int(w.player),
                "win_tile": tile_name(w.win_tile),
                "self_drawn": bool(w.self_drawn),
                "discarder": None if w.discarder is None else int(w.discarder),
                "hand": format_hand(hand),
                "fan_total": int(w.fan_total),
                "fans": list(w.fans),
                "scores": None if w.scores is None else tuple(int(s) for s in w.scores),
            }
            if scorer is not None:
                more = dict(scorer(w))
                extra.extend(k for k in more if k not in extra and k not in row)
                row.update(more)
            rows.append(row)
    out = pd.DataFrame(rows, columns=list(WIN_COLUMNS) + extra)
    out = out.astype({"turn": np.int64, "player": np.int64, "self_drawn": bool,
                      "discarder": "Int64", "fan_total": np.int64})
    reading = getattr(scorer, "reading", None)
    if reading is not None:
        out.attrs["reading"] = reading
    return out


def score_win(win: Any, ruleset: Any = "mcr"):
    """Score a recorded win (:class:`majiang.records.Win`) with our fan calculator.

    Context from the record: self-draw as recorded; 和绝张 when three copies were
    shown on the table (``win_tile_shown == 3``, Botzone's judge rule); 杠上开花 /
    抢杠和 from the replay; 海底/妙手 from the duplicate-wall model; no flowers
    (Botzone plays without them).

    Returns
    -------
    majiang.scoring.FanResult

    Raises
    ------
    majiang.InvalidHandError
        If the recorded hand is not a winning hand.
    """
    from .scoring import score

    hand = Hand(win.concealed, tuple(_meld(m) for m in win.melds))
    return score(hand, win.win_tile, self_drawn=win.self_drawn,
                 last_copy=win.win_tile_shown == 3,
                 kong=bool(win.kong_replacement or win.robbing_kong),
                 last_tile=bool(win.wall_last), seat_wind=win.seat_wind,
                 prevalent_wind=win.prevalent_wind, ruleset=ruleset)


RECORDED_FAN_FIX: dict[str, dict[str, int]] = {"明暗杠": {"暗杠": 1, "明杠": 1}}
"""Fans that Botzone's judge (PyMahjongGB) records but that are not among the 81 of
Chinese Official rules, and the standard fans they stand for: 明暗杠 (5 fan, one
concealed + one melded kong) is 暗杠 (2) + 明杠 (1) by the rules.  Applied only when
the ruleset's table lacks the recorded fan (``mcr`` with option
``concealed_and_melded_kong`` off); the default ``mcr`` scores 明暗杠 itself."""


def _has_fan(rs, name: str) -> bool:
    from .errors import RuleError

    try:
        rs.fan(name)
    except RuleError:
        return False
    return True


def _fix(rs, name: str) -> dict[str, int] | None:
    """The standard fans a recorded name stands for, or None when it needs no translation."""
    fix = RECORDED_FAN_FIX.get(name)
    return None if fix is None or _has_fan(rs, name) else fix


def kong_reading(ruleset: Any = "mcr") -> str:
    """Which Chinese Official reading of one concealed + one melded kong `ruleset` uses:
    ``"明暗杠"`` (option ``concealed_and_melded_kong`` on, as Botzone's judge and
    PyMahjongGB: 5 fan) or ``"暗杠+明杠"`` (the 81 official fans: 2 + 1).

    Raises
    ------
    majiang.RuleError
        For an unknown ruleset.
    """
    from .rules import get as get_ruleset

    return "明暗杠" if _has_fan(get_ruleset(ruleset), "明暗杠") else "暗杠+明杠"


def recorded_fans(fans: Iterable[tuple[str, int]], ruleset: Any = "mcr"):
    """A log's fan list in our names: ``({Chinese name: count}, total, unknown)``.

    Each recorded name is looked up in the ruleset's fan table (Chinese or English
    name, or an alias such as 嵌张 for 坎张).  A fan of :data:`RECORDED_FAN_FIX` that
    the table lacks (明暗杠 under the official reading, option
    ``concealed_and_melded_kong`` off) is replaced by the standard fans it stands
    for; the default ``mcr`` has 明暗杠 and keeps it.  ``total`` is the fan total of
    the list under the ruleset's values; ``unknown`` lists the recorded names that are
    neither (kept as they are in the dict, so they never match ours).
    """
    from .errors import RuleError
    from .rules import get as get_ruleset

    rs = get_ruleset(ruleset)
    out: dict[str, int] = {}
    unknown: list[str] = []
    total = 0
    for name, count in fans:
        for part, n in (_fix(rs, name) or {name: 1}).items():
            try:
                f = rs.fan(part)
            except RuleError:
                unknown.append(part)
                out[part] = out.get(part, 0) + n * int(count)
                continue
            out[f.chinese] = out.get(f.chinese, 0) + n * int(count)
            total += f.value * n * int(count)
    return out, total, unknown


class MCRWinScorer:
    """Scorer for :func:`review_wins`: our Chinese Official fans beside the recorded ones.

    Parameters
    ----------
    ruleset : str or Ruleset, default "mcr"
        The Chinese Official ruleset to score with; ``"mcr"`` (明暗杠 on, Botzone's
        reading) or ``rules.mcr.MCR_OFFICIAL`` (the 81 official fans).

    Attributes
    ----------
    ruleset : Ruleset
    reading : str
        :func:`kong_reading` of the ruleset (``"明暗杠"`` or ``"暗杠+明杠"``).

    Calling it with a :class:`~majiang.records.Win` returns the columns:

    ``our_fan_total``, ``our_fans`` (``[(Chinese name, count), ...]``), ``our_scores``
        Our total, fans and settlement per seat (None when our total is below the
        8-fan minimum: no win by our count, so nothing to settle).
    ``fans_agree``
        Our fan list equals the recorded one, fan by fan with counts, after the
        recorded names are read as :func:`recorded_fans` does (aliases such as
        嵌张 = 坎张; under the official reading Botzone's 明暗杠 = 暗杠 + 明杠); a
        made-up or missing fan disagrees even when the totals match.
    ``total_agrees``
        Our total equals the recorded one (under the official reading, when the log
        holds 明暗杠, the total of the translated list: 5 fan recorded become 2 + 1).
    ``scores_agree``
        Our settlement equals the recorded one; None when it cannot be compared:
        the log has none, or (official reading only) it holds 明暗杠, whose 2 extra
        fan change the recorded settlement.
    ``fans_differ``
        What differs: ``[(name, recorded count, our count), ...]``, empty when
        the lists agree.

    Raises
    ------
    majiang.RuleError
        For an unknown ruleset.
    """

    def __init__(self, ruleset: Any = "mcr"):
        self._ruleset = ruleset

    @property
    def ruleset(self):
        from .rules import get as get_ruleset

        return get_ruleset(self._ruleset)

    @property
    def reading(self) -> str:
        return kong_reading(self.ruleset)

    def __repr__(self) -> str:
        return f"MCRWinScorer(reading={self.reading!r})"

    def __call__(self, win: Any) -> dict[str, Any]:
        rs = self.ruleset
        r = score_win(win, rs)
        # below the minimum by our count the hand is no win: nothing to settle
        scores = r.settle(win.player, win.discarder) if r.meets_minimum else None
        ours = {f.chinese: int(f.count) for f in r.fans}
        theirs, translated_total, _ = recorded_fans(win.fans, rs)
        fixed = any(_fix(rs, name) for name, _ in win.fans)
        recorded_total = translated_total if fixed else int(win.fan_total)
        differ = [(name, theirs.get(name, 0), ours.get(name, 0))
                  for name in list(theirs) + [n for n in ours if n not in theirs]
                  if theirs.get(name, 0) != ours.get(name, 0)]
        return {
            "our_fan_total": r.total,
            "our_fans": [(f.chinese, f.count) for f in r.fans],
            "our_scores": None if scores is None else tuple(scores),
            "fans_agree": not differ,
            "total_agrees": r.total == recorded_total,
            "scores_agree": (None if win.scores is None or fixed
                             else scores is not None and tuple(scores) == tuple(win.scores)),
            "fans_differ": differ,
        }


mcr_win_scorer = MCRWinScorer("mcr")
"""Scorer for :func:`review_wins` under the registered ``mcr`` (明暗杠 on, Botzone's
reading): ``mcr_win_scorer(win)`` returns the columns of :class:`MCRWinScorer`."""

"""majiang: Mahjong (麻将) analysis toolkit.

Public API, re-exported from the modules that define it.
"""
from .errors import InvalidHandError, InvalidNotationError, MahjongError, RuleError
from .hand import (
    Decomposition, Hand, Meld, as_hand, format_hand, parse_hand, visible_counts,
)
from .tiles import (
    DRAGONS, FLOWER_NAMES, HONORS, N_FLOWERS, N_KINDS, TERMINALS, TERMINALS_AND_HONORS,
    WINDS, as_counts, as_counts_batch, counts_from_tiles, format_counts, parse_counts,
    parse_tile, parse_tiles, tile_chinese, tile_glyph, tile_name, tiles_from_counts,
)

# --- efficiency (core): light and always needed, imported eagerly ---
from .efficiency import (
    DEFAULT_FORMS, FORMS, decompositions, discard_table, shanten, shanten_batch, ukeire,
)

# --- heavy submodules, imported on first use (PEP 562 module __getattr__) ---
_LAZY: dict[str, str] = {
    # analysis
    "advise": "analysis",
    # whether to claim a discard (chow / pung / kong / win)
    "advise_claim": "claims",
    "advise_kong": "claims",
    # reading the table: the danger of each discard under an opponent model
    "danger": "reading",
    # a table position
    "Position": "position",
    "TableMeld": "position",
    # probability and odds
    "fan_odds": "odds",
    **{name: "probability" for name in (
        "Estimate", "Probabilities", "discard_curves", "discard_probabilities",
        "probabilities", "starting_hand_shanten", "tenpai_curve", "tenpai_probability",
        "win_curve", "win_probability")},
    # rules and scoring
    **{name: "scoring" for name in (
        "BatchScores", "FanResult", "check_win", "is_win", "score", "score_batch", "waits")},
    "game_model": "rules.model",
    "rule_spec": "rules.model",
    "RuleSpec": "rules.model",
    "WinContext": "winning",
    "WinningHand": "winning",
    # whole hands: majiang.game; studies
    "simulate": "game",
    "play_match": "game",
    "count_complete_hands": "studies",
    "compare_rulesets": "studies",
    "arena": "studies.arena",
}
"""Public name -> the submodule (relative to ``majiang``) that defines it; resolved
by :func:`__getattr__` on first access, so ``import majiang`` stays light."""

_LAZY_MODULES = ("rules", "game", "probability", "odds", "analysis", "scoring", "winning",
                 "plots", "studies", "position")
"""Submodules reachable as attributes (``majiang.rules``) without an explicit import."""


def __getattr__(name: str):
    import importlib

    if name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    elif name in _LAZY_MODULES:
        value = importlib.import_module(f".{name}", __name__)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value          # later look-ups skip __getattr__
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__) | set(_LAZY))


__version__ = "0.1.0"

__all__ = [
    "__version__",
    # errors
    "MahjongError", "InvalidNotationError", "InvalidHandError", "RuleError",
    # tiles
    "N_KINDS", "N_FLOWERS", "HONORS", "WINDS", "DRAGONS", "TERMINALS",
    "TERMINALS_AND_HONORS", "FLOWER_NAMES",
    "tile_name", "tile_glyph", "tile_chinese", "parse_tile", "parse_tiles",
    "counts_from_tiles", "tiles_from_counts", "format_counts", "parse_counts",
    "as_counts", "as_counts_batch",
    # hand
    "Meld", "Hand", "Decomposition", "parse_hand", "format_hand", "as_hand",
    "visible_counts",
    # efficiency
    "FORMS", "DEFAULT_FORMS", "shanten", "shanten_batch", "ukeire", "discard_table",
    "decompositions",
    # analysis
    "advise", "advise_claim", "advise_kong", "danger",
    # a table position
    "Position", "TableMeld",
    # probability and odds
    "win_probability", "tenpai_probability", "win_curve", "tenpai_curve", "probabilities",
    "discard_probabilities", "discard_curves", "Estimate", "Probabilities",
    "starting_hand_shanten", "fan_odds",
    # rules and scoring
    "rules", "rule_spec", "RuleSpec", "game_model", "check_win", "is_win", "score", "score_batch", "BatchScores",
    "FanResult", "waits", "WinContext", "WinningHand",
    # whole hands and studies
    "simulate", "play_match", "count_complete_hands", "compare_rulesets", "arena",
]

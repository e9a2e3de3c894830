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

# --- analysis ---
from .analysis import advise
# --- probability and odds ---
from .odds import fan_odds
from .probability import (
    Estimate, Probabilities, discard_curves, discard_probabilities, probabilities,
    starting_hand_shanten, tenpai_curve, tenpai_probability, win_curve, win_probability,
)
# --- rules and scoring ---
from . import rules
from .scoring import BatchScores, FanResult, check_win, is_win, score, score_batch, waits
from .rules.model import game_model
from .winning import WinContext, WinningHand
# --- efficiency (core) ---
from .efficiency import (
    DEFAULT_FORMS, FORMS, decompositions, discard_table, shanten, shanten_batch, ukeire,
)

from .game import simulate  # noqa: E402  (whole hands: majiang.game)
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
    "advise",
    # probability and odds
    "win_probability", "tenpai_probability", "win_curve", "tenpai_curve", "probabilities",
    "discard_probabilities", "discard_curves", "Estimate", "Probabilities",
    "starting_hand_shanten", "fan_odds",
    # rules and scoring
    "rules", "game_model", "check_win", "is_win", "score", "score_batch", "BatchScores", "FanResult", "waits", "WinContext", "WinningHand",
]

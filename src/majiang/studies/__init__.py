"""Studies over many hands: exact combinatorics (:mod:`.counts`) and rule-variant
comparisons with confidence intervals (:mod:`.compare`), and the calibration of the danger
model against the engine's truth (:mod:`.calibration`)."""
from .calibration import danger_calibration
from .compare import compare_rulesets, draws_distribution, summarize_hands
from .counts import count_complete_hands

__all__ = ["danger_calibration", "count_complete_hands", "compare_rulesets", "summarize_hands", "draws_distribution"]

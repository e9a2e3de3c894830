"""Studies over many hands: exact combinatorics (:mod:`.counts`)."""
from .counts import count_complete_hands

__all__ = ["count_complete_hands"]

"""Typing stub of the compiled decomposition enumerator (see majiang/_core/decompose.pyx)."""
import numpy as np
import numpy.typing as npt

def regular_decompositions(counts: npt.NDArray[np.uint8], n_sets: int,
                           honor_chows: bool = ...
                           ) -> list[tuple[int, tuple[tuple[str, int], ...]]]: ...

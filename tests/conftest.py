"""Shared test setup: make the benchmark helpers (bench/peers.py) importable."""
import pathlib
import sys

_BENCH = pathlib.Path(__file__).resolve().parent.parent / "bench"
if str(_BENCH) not in sys.path:
    sys.path.insert(0, str(_BENCH))

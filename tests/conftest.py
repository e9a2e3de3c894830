"""Shared test setup: make the benchmark helpers (bench/peers.py) importable."""
import pathlib
import sys

_BENCH = pathlib.Path(__file__).resolve().parent.parent / "bench"
if str(_BENCH) not in sys.path:
    sys.path.insert(0, str(_BENCH))

import signal

import pytest


@pytest.fixture(autouse=True, scope="session")
def _python_handles_sigint():
    """Tests send SIGINT (Ctrl-C) to this process and to children.  A shell starts
    background jobs with SIGINT ignored, and Python then never turns it into
    KeyboardInterrupt; install Python's handler so those tests mean the same
    however the suite was started (children then inherit the default action)."""
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield

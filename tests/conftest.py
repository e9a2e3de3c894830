"""Shared test setup: make the benchmark helpers (bench/peers.py) importable; every test
leaves the ruleset registry as it found it."""
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


@pytest.fixture(autouse=True)
def _ruleset_registry_restored():
    """Loading a house-rule file registers its ruleset (``majiang.rules.toml.loads``: a
    result looks its ruleset up by name), so a test that loads one would leave e.g.
    ``hebei+house`` in ``rules.available()`` for every later test (``majiang rules``
    then lists it).  Each test gets the registry back as it was."""
    from majiang import rules
    saved = dict(rules._REGISTRY)
    yield
    rules._REGISTRY.clear()
    rules._REGISTRY.update(saved)

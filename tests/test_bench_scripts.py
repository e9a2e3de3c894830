"""The bench scripts' command lines (bench/): ``--help`` prints the usage and exits 0 (it
was read as a number: ``float('--help')``), and a bad argument is a one-line usage error."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ("bench_simulate", "bench_api", "bench_danger", "bench_scoring", "bench_shapes",
           "fit_tempo")


def _run(script, *args):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, str(ROOT / "bench" / f"{script}.py"), *args],
                          capture_output=True, text=True, env=env, cwd=ROOT / "bench",
                          timeout=120)


@pytest.mark.parametrize("script", SCRIPTS)
def test_help(script):
    r = _run(script, "--help")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("usage:") and "Traceback" not in r.stderr


def test_a_bad_number_is_a_usage_error():
    r = _run("bench_simulate", "soon")
    assert r.returncode == 2 and "invalid float value: 'soon'" in r.stderr
    assert "Traceback" not in r.stderr

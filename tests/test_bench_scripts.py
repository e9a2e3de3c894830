"""The bench scripts' command lines (bench/): ``--help`` prints the usage and exits 0 (it
was read as a number: ``float('--help')``), and a bad argument is a one-line usage error."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ("bench_simulate", "bench_api", "bench_danger", "bench_scoring", "bench_shapes",
           "fit_tempo")


def _run(script, *args):
    # the installed package, as a user runs the scripts after ``pip install .`` (src/ holds
    # no compiled extension then: a PYTHONPATH of src/ would fail to import it)
    return subprocess.run([sys.executable, str(ROOT / "bench" / f"{script}.py"), *args],
                          capture_output=True, text=True, cwd=ROOT / "bench", timeout=120)


@pytest.mark.parametrize("script", SCRIPTS)
def test_help(script):
    r = _run(script, "--help")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("usage:") and "Traceback" not in r.stderr


def test_a_bad_number_is_a_usage_error():
    r = _run("bench_simulate", "soon")
    assert r.returncode == 2 and "invalid float value: 'soon'" in r.stderr
    assert "Traceback" not in r.stderr


def test_realism_start_plays_the_same_hands_as_a_run_from_zero():
    """bench_realism --start I: hands I.. of the seed's run, row for row the hands a run from
    0 plays there (hand i is seeded by its index alone), so two versions of a player compare
    on the same walls."""
    import majiang
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import bench_realism
    finally:
        sys.path.remove(str(ROOT / "bench"))
    got = bench_realism.hands("mcr_botzone", 3, "efficiency", 5, 2, 1)
    full = majiang.simulate("mcr_botzone", 5, players="efficiency", seed=5, n_jobs=1,
                            progress=False)
    want = full.iloc[2:].reset_index(drop=True)
    assert list(got["hand"]) == [2, 3, 4]
    assert got[list(want.columns)].astype(str).equals(want.astype(str))
    r = _run("bench_realism", "--help")
    assert r.returncode == 0 and "--start" in r.stdout

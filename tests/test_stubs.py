"""The typing stubs of the compiled modules (``majiang/_core/*.pyi``) match the built
modules: mypy's stubtest imports each module and compares it with its stub (names,
function signatures, classes).  ``.ci/run`` runs the same check before ``pytest``;
the names Cython adds to every module are listed in ``stubtest_allowlist.txt``."""
import importlib.machinery
import pathlib
import subprocess
import sys

import pytest

ALLOWLIST = pathlib.Path(__file__).with_name("stubtest_allowlist.txt")


def _core_dir():
    import majiang._core
    return pathlib.Path(majiang._core.__file__).parent


def test_every_compiled_module_has_a_stub():
    compiled = {p.name.split(".")[0] for suffix in importlib.machinery.EXTENSION_SUFFIXES
                for p in _core_dir().glob("*" + suffix)}
    stubs = {p.stem for p in _core_dir().glob("*.pyi")}
    assert compiled, "no compiled module found: the package is not built"
    assert compiled <= stubs, f"compiled modules without a .pyi stub: {sorted(compiled - stubs)}"


def test_stubs_match_compiled_modules(tmp_path):
    pytest.importorskip("mypy.stubtest")
    modules = sorted(f"majiang._core.{p.stem}" for p in _core_dir().glob("*.pyi"))
    # run from an empty directory: nothing there shadows the package under test
    r = subprocess.run([sys.executable, "-m", "mypy.stubtest", "--concise",
                        "--allowlist", str(ALLOWLIST), *modules],
                       cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr

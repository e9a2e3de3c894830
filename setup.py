"""Declares the Cython extensions and ships the rule notes; all metadata lives in
pyproject.toml.

The rule notes (docs/rules/*.md, one source) are copied into every built package as
majiang/data/rule_notes/ (``majiang rules NAME --notes`` reads them there; a source
checkout reads docs/rules itself, see majiang.rules.notes); MANIFEST.in puts them in the
sdist.

Set MAJIANG_DEBUG=1 to build with bounds checks and wrap-around on (for debugging
the core); the default build turns them off because every public entry point
validates its input in Python first.
"""
import os
import shutil
from pathlib import Path

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_py import build_py

RULE_NOTES = Path(__file__).resolve().parent / "docs" / "rules"

DEBUG = os.environ.get("MAJIANG_DEBUG", "") not in ("", "0")

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
}

CORE = ["efficiency", "decompose", "probability", "fans", "game", "shapes"]

extensions = [
    Extension(
        f"majiang._core.{name}",
        [f"src/majiang/_core/{name}.pyx"],
        include_dirs=[np.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=["-O3"] if not DEBUG else ["-O0", "-g"],
    )
    for name in CORE
]


def copy_rule_notes(build_lib: str) -> list[str]:
    """Copy docs/rules/*.md into ``<build_lib>/majiang/data/rule_notes``; the copied paths."""
    dest = Path(build_lib) / "majiang" / "data" / "rule_notes"
    dest.mkdir(parents=True, exist_ok=True)
    return [shutil.copy2(p, dest / p.name) for p in sorted(RULE_NOTES.glob("*.md"))]


class BuildWithRuleNotes(build_py):
    """build_py, then the rule notes into the package (wheels, regular installs)."""

    def run(self):
        super().run()
        copy_rule_notes(self.build_lib)


setup(ext_modules=cythonize(extensions, compiler_directives=directives),
      cmdclass={"build_py": BuildWithRuleNotes})

"""Declares the Cython extensions only; all metadata lives in pyproject.toml.

Set MAJIANG_DEBUG=1 to build with bounds checks and wrap-around on (for debugging
the core); the default build turns them off because every public entry point
validates its input in Python first.
"""
import os

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

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

setup(ext_modules=cythonize(extensions, compiler_directives=directives))

"""Extra probability models, registered by higher layers (dependency inversion):
``win_probability(..., model=name)`` calls the model registered under ``name``;
:mod:`majiang.game` registers ``"table"`` when imported, and :func:`_extra_model` — the
one place — imports a known provider by name (``importlib``) when its model is asked
for first.  This package never imports :mod:`majiang.game` by statement."""
from __future__ import annotations

import importlib
from typing import Any, Callable

from ..errors import RuleError


SINGLE_PLAYER = ("single",)
"""Names of the default single-player model (``model=None`` too)."""
_MODELS: dict[str, Callable[..., Any]] = {}
_MODEL_PROVIDERS = {"table": "majiang.game"}
"""Known extra models and the module that registers each when imported."""


def register_model(name: str, fn: Callable[..., Any]) -> None:
    """Register an extra probability model for ``win_probability(..., model=name)``.

    ``fn(hand, draws, **kwargs)`` returns an object with ``win`` and ``tenpai``
    :class:`Estimate` attributes; it raises :class:`~majiang.RuleError` on bad
    keyword arguments.  A higher layer (``majiang.game``: ``"table"``) registers its
    model at import; registering a name again replaces it.

    Raises
    ------
    RuleError
        An empty or default model name, or ``fn`` not callable.
    """
    if not isinstance(name, str) or not name or name in SINGLE_PLAYER or not callable(fn):
        raise RuleError(f"register_model needs a new model name and a callable, got "
                        f"{name!r}, {fn!r}")
    _MODELS[name] = fn


def _extra_model(name: Any) -> Callable[..., Any]:
    """The registered model ``name``; a known model whose provider was not imported
    yet is loaded here by importing the provider by name (the one place)."""
    fn = _MODELS.get(name) if isinstance(name, str) else None
    if fn is None and isinstance(name, str) and name in _MODEL_PROVIDERS:
        importlib.import_module(_MODEL_PROVIDERS[name])
        fn = _MODELS.get(name)
    if fn is None:
        known = ", ".join(sorted(set(_MODELS) | set(_MODEL_PROVIDERS)))
        raise RuleError(f"unknown probability model {name!r}; use None / 'single' (the "
                        f"single-player model) or one of: {known}")
    return fn

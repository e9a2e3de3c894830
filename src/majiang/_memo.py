"""Memos kept per ruleset object (layer 0: imports nothing of the package, so the
efficiency layer can hold one without importing :mod:`majiang.rules` at start-up)."""
from __future__ import annotations

from typing import Any

__all__ = ["per_ruleset"]


def per_ruleset(build: Any, *, maxsize: int = 256) -> Any:
    """``build(ruleset)`` kept per ruleset object: the one memo of what each layer reads
    from a ruleset once (the game model, the efficiency route, the 2-5-8 plan, the shape
    spec).  Keyed by ``id`` for speed (a Ruleset is hashed field by field), each entry
    holds its ruleset so the id stays valid; the memo is emptied when it holds `maxsize`
    rulesets, so building many temporary house rules does not grow it without bound."""
    memo: dict[int, tuple[Any, Any]] = {}

    def get(ruleset: Any) -> Any:
        hit = memo.get(id(ruleset))
        if hit is not None and hit[0] is ruleset:
            return hit[1]
        value = build(ruleset)
        if len(memo) >= maxsize:
            memo.clear()
        memo[id(ruleset)] = (ruleset, value)
        return value

    get.__doc__ = build.__doc__
    get.memo = memo                     # type: ignore[attr-defined]
    return get

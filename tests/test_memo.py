"""The per-ruleset memo (majiang._memo.per_ruleset) behind game_model, the efficiency
route, the 2-5-8 plan and the shape spec."""
import dataclasses

from majiang import rules
from majiang._memo import per_ruleset
from majiang.rules.model import _model_of, game_model


def test_memo_builds_once_per_object_and_is_bounded():
    calls = []

    class R:                    # stands for a ruleset object
        pass

    memo = per_ruleset(lambda r: calls.append(r) or len(calls), maxsize=3)
    a, b = R(), R()
    assert memo(a) == 1 and memo(a) == 1 and memo(b) == 2 and calls == [a, b]
    more = [R() for _ in range(5)]
    for r in more:
        memo(r)
    assert len(memo.memo) <= 3
    assert memo(more[-1]) == 7                  # still held: not rebuilt
    assert memo(a) == 8                         # dropped when the memo was emptied: rebuilt


def test_game_model_memo_stays_bounded_with_many_house_rules():
    base = rules.get("sichuan")
    for i in range(300):        # temporary rulesets (not registered: other tests list them)
        rs = dataclasses.replace(base, min_fan=i % 3)
        assert game_model(rs).ruleset is rs and game_model(rs).min_fan == i % 3
    assert len(_model_of.memo) <= 256
    assert game_model("mcr") is game_model(rules.get("mcr"))

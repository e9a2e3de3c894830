"""The compiled fan kernel (majiang._core.fans) against the Python reference engine.

``score()`` uses the kernel for rulesets whose fan table is the Chinese Official
one; ``score(..., method="python")`` runs the reference.  Both must give the same
FanResult: total, fans with counts, form, decomposition, knitted tiles, win set,
minimum, context and the decomposed hand — on 50,000 random winning hands of every
form (the generator of the PyMahjongGB differential test) and on every hand of
tests/test_scoring.py; errors must be the same too.
"""
from __future__ import annotations

import collections
import dataclasses

import numpy as np
import pytest

from majiang import parse_hand, rules
from majiang.errors import MahjongError, RuleError
from majiang.hand import format_hand
from majiang.rules.knitted import KNITTED_STRAIGHTS
from majiang.scoring import FanResult, score
from majiang.tiles import tile_name
from majiang._core import fans as kfans

from bench_scoring import random_winning_hands
import test_scoring

N_RANDOM = 50_000
RS = rules.get("mcr")


def _kernel_used(r: FanResult) -> bool:
    return "_src" in r._d


def _wh(w):
    return (w.form, w.sets, w.pair, w.pairs, w.knitted, w.counts, w.win_set, w.win_position,
            w.unique_wait, w.decomposition, w.context, w.hand)


def _view(r: FanResult) -> tuple:
    return (r.total, r.fans, r.form, r.decomposition, r.knitted, r.win_set, r.meets_minimum,
            r.min_fan, r.context, r.ruleset, r.hand, _wh(r.winning_hand))


def _diff(hand, win, ctx, ruleset="mcr") -> str | None:
    """None when the kernel and the reference agree, else a report naming the hand."""
    ctx = dict(ctx)
    ruleset = ctx.pop("ruleset", ruleset)
    fast = score(hand, win, ruleset=ruleset, method="auto", **ctx)
    ref = score(hand, win, ruleset=ruleset, method="python", **ctx)
    if not _kernel_used(fast):
        return f"{hand} + {win} {ctx}: the kernel was not used"
    a, b = _view(fast), _view(ref)
    if a == b:
        return None
    text = hand if isinstance(hand, str) else format_hand(hand)
    win_text = tile_name(win) if isinstance(win, int) else win
    return (f"{text} + {win_text} {ctx}\n    kernel    {a[0]} {[str(f) for f in a[1]]} "
            f"{a[2]} {a[3]} {a[5]}\n    reference {b[0]} {[str(f) for f in b[1]]} "
            f"{b[2]} {b[3]} {b[5]}")


def test_kernel_tables_follow_the_ruleset():
    assert kfans.knitted_straights() == KNITTED_STRAIGHTS
    ids = {f.id for f in RS.fans}
    assert kfans.PREDICATE_IDS | kfans.COMBINATION_IDS == ids
    assert {f.id for f in RS.fans if f.combination is not None} == kfans.COMBINATION_IDS


@pytest.mark.slow
def test_random_winning_hands_kernel_equals_reference():
    cases = random_winning_hands(N_RANDOM, seed=987654321)
    forms = collections.Counter(c.form for c in cases)
    assert min(forms.values()) >= 300, forms
    bad = []
    fans_seen: set[int] = set()
    for c in cases:
        d = _diff(c.hand, c.win_tile, c.kwargs())
        if d is not None:
            bad.append(d)
    # coverage of the comparison: every fan and every form was compared
    for c in cases[:20_000]:
        fans_seen.update(f.id for f in score(c.hand, c.win_tile, **c.kwargs()).fans)
    assert not bad, f"{len(bad)} of {N_RANDOM} hands disagree:\n" + "\n".join(bad[:10])
    # the default table: the 81 fans and 明暗杠 (option concealed_and_melded_kong)
    assert len(fans_seen) == len(RS.fans) == 82, sorted({f.id for f in RS.fans} - fans_seen)


@pytest.mark.parametrize("fid,hand,win,ctx,absent", test_scoring.CASES,
                         ids=[f"{c[0]}" for c in test_scoring.CASES])
def test_every_fan_case_kernel_equals_reference(fid, hand, win, ctx, absent):
    assert _diff(hand, win, ctx) is None, _diff(hand, win, ctx)


def _parametrized(test) -> list:
    for mark in getattr(test, "pytestmark", ()):
        if mark.name == "parametrize":
            return list(mark.args[1])
    raise AssertionError(f"{test.__name__} is not parametrized")


EXTRA_HANDS = [
    ("234567s234567p5m", "5m", {}),
    ("234s223344567p1z", "1z", {}),
    ("123456789m123p5s", "5s", {}),
    ("[123m] [123m] 123m123p9s", "9s", {}),
    ("111222333m45p99s", "6p", {}),
    ("111m222p44s55s789m", "4s", dict(self_drawn=True)),
    ("111m222p44s55s789m", "4s", {}),
    ("111m23m222p333s55z", "1m", {}),
    ("1113m [333m] [456p] [789s]", "2m", {}),
    ("12345m456p789s55p", "3m", {}),
    ("1233m456p789s555z", "3m", {}),
    ("4556m456p789s555z", "5m", {}),
    ("45567m456p789s55z", "6m", {}),
    ("147m258p36s123s55z", "9s", {}),
    ("147m258p369s123s5z", "5z", {}),
    ("[789m] [789m] [789m] 79m11p", "8m", {}),
    ("[789m] [789m] [789m] 56p99p", "4p", {}),
    ("[234m] 678m67p345s22z", "5p", dict(flowers=7)),
    ("[234m] 678m67p555z22s", "5p", dict(flowers=7)),
    ("[234m] 678m67p345s22z", "5p", dict(flowers=2)),
    ("123m456p789s234s5p 春梅", "5p", {}),
    ("123m456p789s11z55z", "5z", dict(seat_wind="S", prevalent_wind="东")),
    ("19m19p19s1234567z", "1z", dict(self_drawn=True, flowers=1)),
    ("456p789s11z [555z] 45m", "6m", dict(seat_wind="S")),
    ("1112345678999m", "1m", {}),
    ("1112345678999m", "9m", dict(self_drawn=True)),
    ("1122334455667m", "7m", dict(self_drawn=True)),
    ("1122334455667z", "7z", {}),
    ("1111222233334m", "4m", {}),
    ("[111z] [222z] [333z] [444z] 5z", "5z", dict(seat_wind=1, prevalent_wind=2)),
    ("{1111z} {2222z} {3333z} {4444z} 5z", "5z", dict(self_drawn=True, kong=True)),
]


@pytest.mark.parametrize("hand,win,ctx", [(h, w, c) for h, w, c, _ in
                                          _parametrized(test_scoring.test_exact_fans)]
                         + EXTRA_HANDS)
def test_listed_hands_kernel_equals_reference(hand, win, ctx):
    assert _diff(hand, win, ctx) is None, _diff(hand, win, ctx)


def _error(fn):
    try:
        fn()
    except MahjongError as e:
        return type(e), str(e)
    return None


@pytest.mark.parametrize("hand,win,ctx", [
    *[(h, w, c) for h, w, c, _ in _parametrized(test_scoring.test_errors)],
    ("[1111m] 456p789s23s11p", "1m", {}),
    ("123m456p789s234s5p", "5p", dict(seat_wind="X")),
    ("123m456p789s234s5p", "5p", dict(ruleset="nope")),
    ("123m456p789s234s5p", "5x", {}),
    ("123m456p789s234s5p 春梅", "5p", dict(flowers=3)),
    ("123m456p789s234s5p", "5p", dict(flowers=9)),
    ("123m456p789s234s5p", "5p", dict(flowers=-1)),
    ("123m456p789s234s5p", "5p", dict(flowers=True)),
    ("123m456p789s234s5p", 34, {}),
    ("123m456p789s234s5p", True, {}),
    ("123m456p789s234s5p", "5p", dict(seat_wind=4, flowers=9)),
    ("123m456p789s234s5p", "5x", dict(seat_wind=4)),
    ("123m456p789s234s", "5p", {}),
])
def test_errors_are_the_reference_errors(hand, win, ctx):
    fast = _error(lambda: score(hand, win, **ctx))
    ref = _error(lambda: score(hand, win, method="python", **ctx))
    assert fast == ref


def test_other_inputs_take_the_same_path():
    h = parse_hand("123m456p789s11z55z")
    base = score(h, "5z", method="python")
    for win in ("5z", 31, np.int64(31), "白"):
        r = score(h, win)
        assert _kernel_used(r) and _view(r) == _view(base)
    r = score(np.array(h.concealed), 31)        # a count vector is a hand without melds
    assert _view(r) == _view(score(np.array(h.concealed), 31, method="python"))


def test_derived_rulesets():
    # same fan table, another name and minimum: the kernel runs, values from the ruleset
    zero = dataclasses.replace(RS, name="mcr-min0", min_fan=0)
    cases = random_winning_hands(300, seed=5)
    for c in cases:
        assert _diff(c.hand, c.win_tile, c.kwargs(), ruleset=zero) is None
    # same predicates, other values and 不计 lists: still the kernel, still equal
    fans = tuple(dataclasses.replace(f, value=f.value + 1) if f.id in (69, 70, 71) else
                 dataclasses.replace(f, excludes=f.excludes | {76}) if f.id == 22 else f
                 for f in RS.fans)
    house = dataclasses.replace(RS, name="mcr-house", fans=fans)
    for c in cases:
        assert _diff(c.hand, c.win_tile, c.kwargs(), ruleset=house) is None
    # a new predicate: the Python engine scores it
    own = tuple(dataclasses.replace(f, predicate=lambda w: 1) if f.id == 80 else f
                for f in RS.fans)
    custom = dataclasses.replace(RS, name="mcr-custom", fans=own)
    r = score("123m456p789s234s5p", "5p", ruleset=custom)
    assert not _kernel_used(r) and r.count(80) == 1
    with pytest.raises(RuleError, match="kernel"):
        score("123m456p789s234s5p", "5p", ruleset=custom, method="kernel")
    with pytest.raises(RuleError, match="method"):
        score("123m456p789s234s5p", "5p", method="fast")


class Extra(FanResult):
    """A FanResult subclass with an extra attribute (as majiang.regional makes)."""


def test_result_is_immutable_and_pickles():
    import pickle
    r = score("123m456p789s11z55z", "5z")
    with pytest.raises(AttributeError):
        r.total = 3
    back = pickle.loads(pickle.dumps(r))
    assert type(back) is FanResult and _view(back) == _view(r)
    ref = score("123m456p789s11z55z", "5z", method="python")
    assert _view(pickle.loads(pickle.dumps(ref))) == _view(ref)
    e = Extra(*(getattr(ref, f) for f in ("total", "fans", "form", "decomposition", "knitted",
                                          "win_set", "meets_minimum", "min_fan", "hand",
                                          "context", "ruleset", "winning_hand")))
    object.__setattr__(e, "points", 7)
    back = pickle.loads(pickle.dumps(e))  # subclasses keep their attributes
    assert type(back) is Extra and back.points == 7 and _view(back) == _view(ref)
    assert r.winning_hand.decomposition is r.decomposition
    assert r.winning_hand.context is r.context


def test_extended_rulesets_and_jokers_stay_in_python():
    from majiang.scoring.kernel import _kernel_table
    for name in rules.available():
        rs = rules.get(name)
        if getattr(rs, "extended", False):
            assert _kernel_table(rs) is None, name
    assert _kernel_table(RS) is not None
    h = parse_hand("123m456p789s234s*")
    assert h.jokers == 1
    assert kfans.score_hand(_kernel_table(RS), RS, h, 14, False, False, False, False, 0, 0,
                            0) is None


def test_score_batch_equals_score():
    from majiang.scoring import melds_array, score_batch
    cases = random_winning_hands(5000, seed=424242)
    conc = np.stack([c.hand.concealed for c in cases])
    melds = melds_array([c.hand for c in cases])
    col = {k: np.array([getattr(c, k) for c in cases]) for k in
           ("self_drawn", "last_copy", "kong", "last_tile", "seat_wind", "prevalent_wind",
            "flowers")}
    out = score_batch(conc, [c.win_tile for c in cases], melds, **col, n_jobs=1)
    assert (out.status == 0).all()
    threaded = score_batch(conc, [c.win_tile for c in cases], melds, **col, n_jobs=3)
    for a, b in zip(out, threaded):
        assert np.array_equal(a, b)
    for i, c in enumerate(cases):
        r = score(c.hand, c.win_tile, method="python", **c.kwargs())
        got = {f: int(n) for f, n in enumerate(out.fans[i]) if n}
        assert (int(out.total[i]), got, bool(out.meets_minimum[i])) == \
            (r.total, r.fan_counts, r.meets_minimum), f"{format_hand(c.hand)} + {c.win_tile}"


def test_score_batch_status_and_errors():
    from majiang.scoring import melds_array, score_batch
    hands = [parse_hand("123m456p789s234s5p"), parse_hand("123m456p789s234s5p"),
             parse_hand("[1111m] 456p789s23s11p"), parse_hand("123m456p789s234s5p")]
    out = score_batch(np.stack([h.concealed for h in hands]), [13, 14, 0, 13],
                      melds_array(hands), kong=[False, False, False, True])
    assert out.status.tolist() == [0, 2, 1, 1]
    assert out.total[0] == score(hands[0], 13).total and not out.fans[1:].any()
    with pytest.raises(RuleError):
        score_batch(np.zeros((2, 34), np.uint8), [0, 0], ruleset="sichuan")
    with pytest.raises(RuleError):
        score_batch(np.zeros((2, 34), np.uint8), [0, 34])
    with pytest.raises(MahjongError):
        score_batch(np.full((1, 34), 5, np.uint8), [0])
    bad = np.full((1, 4, 3), -1, np.int8)
    bad[0, 0] = (0, 8, 0)                      # a chow starting on 9m
    with pytest.raises(MahjongError):
        score_batch(np.zeros((1, 34), np.uint8), [0], bad)

"""Differential tests: our shanten against independent calculators ("peers").

The peers and what each can check (details in ``bench/peers.py``):

* **xiangting** (Rust, exact, 4-copy aware) exposes only the *minimum* over regular + seven
  pairs (distinct) + thirteen orphans; its per-form functions are private. For fewer than
  13 tiles it considers only the regular form. So it checks our three-form minimum on
  13/14-tile hands, our regular form on 1..11-tile hands exactly, and on 13/14-tile hands
  our regular form wherever the regular form is the strictly binding one (elsewhere the
  minimum is only a lower bound of it).
* **mahjong** (pure Python) exposes each riichi form; its seven pairs / thirteen orphans
  are exact closed forms (the same formulas as xiangting's private ones), its regular form
  agrees with xiangting on every hand we tried, so it checks each form separately.
* **riichienv** (Rust): the same three-form minimum as xiangting.
* **PyMahjongGB** (C++, 13 tiles only): seven pairs where a quad counts as two pairs, and
  thirteen orphans. Its regular form ignores the 4-copy limit, so it is only a lower bound.

Every peer is optional: a missing one skips its tests.
"""
from __future__ import annotations

import numpy as np
import pytest

import peers as P
from majiang import shanten, shanten_batch

N_BIG = 100_000        # random hands per size against xiangting
N_MID = 20_000         # against riichienv / PyMahjongGB / mahjong's regular form
N_SMALL = 5_000        # against mahjong's minimum (pure Python)

THREE = ("regular", "seven_pairs", "thirteen_orphans")
SINGLE_FORMS = [("regular",), ("seven_pairs",), ("thirteen_orphans",), THREE]


def assert_same(hands, ours, theirs, what: str, show: int = 8) -> None:
    """Assert elementwise equality; on failure list the first disagreeing hands (Tenhou)."""
    ours = np.asarray(ours, dtype=np.int64)
    theirs = np.asarray(theirs, dtype=np.int64)
    bad = np.flatnonzero(ours != theirs)
    if bad.size:
        lines = [f"  {P.to_tenhou(hands[i]):24s} ours={ours[i]:3d} peer={theirs[i]:3d}"
                 for i in bad[:show]]
        pytest.fail(f"{what}: {bad.size} of {len(ours)} hands disagree; first ones:\n"
                    + "\n".join(lines))


@pytest.fixture(scope="module", params=[13, 14], ids=lambda s: f"{s}tiles")
def big(request):
    """(size, N_BIG random hands of that size)."""
    size = request.param
    return size, P.random_hands(N_BIG, size, seed=1000 + size)


# --------------------------------------------------------------------------- xiangting

@pytest.fixture(scope="module")
def xt_big(big):
    pytest.importorskip("xiangting")
    size, hands = big
    return size, hands, P.xiangting_shanten_batch(hands)


def test_min_of_three_forms_vs_xiangting(xt_big):
    size, hands, xt = xt_big
    assert_same(hands, shanten_batch(hands, forms=THREE, ruleset="plain"), xt, f"3 forms, {size} tiles vs xiangting")


def test_each_form_vs_xiangting(xt_big):
    """Per-form values, joined to xiangting's minimum.

    xiangting gives min(regular, seven pairs, thirteen orphans) only. We check: (1) the
    minimum of our per-form values equals it; (2) seven pairs and thirteen orphans equal
    the peers' exact closed forms (mahjong's, identical to xiangting's private ones);
    (3) regular is never below xiangting's minimum and equals it wherever it is the strictly
    binding form (about half of random hands).
    """
    mj = pytest.importorskip("mahjong")
    del mj
    size, hands, xt = xt_big
    ours = {f: shanten_batch(hands, forms=(f,), ruleset="plain").astype(np.int64) for f in THREE}
    assert_same(hands, np.minimum.reduce([ours[f] for f in THREE]), xt,
                f"min of per-form values, {size} tiles vs xiangting")
    sp = P.mahjong_shanten_batch(hands, "seven_pairs")
    to = P.mahjong_shanten_batch(hands, "thirteen_orphans")
    assert_same(hands, ours["seven_pairs"], sp, f"seven pairs (distinct), {size} tiles")
    assert_same(hands, ours["thirteen_orphans"], to, f"thirteen orphans, {size} tiles")
    below = ours["regular"] < xt
    assert_same(hands[below], ours["regular"][below], xt[below],
                f"regular below xiangting's minimum, {size} tiles")
    binding = xt < np.minimum(sp, to)
    assert binding.mean() > 0.3, "too few hands where the regular form binds"
    assert_same(hands[binding], ours["regular"][binding], xt[binding],
                f"regular (where it binds), {size} tiles vs xiangting")


@pytest.mark.parametrize("size", [1, 2, 4, 5, 7, 8, 10, 11])
def test_regular_short_hands_vs_xiangting(size):
    """Below 13 tiles xiangting (like our core) assumes the missing sets were called and
    considers the regular form only: an exact check of our regular form, traps included."""
    pytest.importorskip("xiangting")
    hands = np.concatenate([
        P.random_hands(N_MID // 2, size, seed=size),
        P.enriched_hands(N_MID // 4, size, seed=size, n_kinds=max(3, -(-size // 4))),
        P.enriched_hands(N_MID // 4, size, seed=size + 1, n_kinds=6),
    ])
    xt = P.xiangting_shanten_batch(hands)
    assert_same(hands, shanten_batch(hands, forms=("regular",), ruleset="plain"), xt,
                f"regular, {size} tiles vs xiangting")
    assert_same(hands, shanten_batch(hands, ruleset="plain"), xt, f"default forms, {size} tiles vs xiangting")


@pytest.mark.parametrize("size", [13, 14])
@pytest.mark.parametrize("n_kinds", [4, 6, 8, 10])
def test_few_kinds_vs_xiangting(size, n_kinds):
    """Hands from a few kinds: many pairs, triplets and quads (4-copy limit often in play)."""
    pytest.importorskip("xiangting")
    hands = P.enriched_hands(N_MID // 2, size, seed=100 * n_kinds + size, n_kinds=n_kinds)
    assert_same(hands, shanten_batch(hands, ruleset="plain"), P.xiangting_shanten_batch(hands),
                f"3 forms, {size} tiles from {n_kinds} kinds vs xiangting")


# --------------------------------------------------------------------------- 4-copy trap

# Exact shanten of hands holding all four copies of the tile they seem to wait on.
TRAPS = {
    "123456789m1111p": 1,     # "tenpai on 1p" would need a fifth 1p
    "123m456p789s1111z": 1,
    "1111m234p567p789s": 1,
    "1111m111122233z": 1,     # xiangting's documented example
    "1111z2222z3333z4z": 3,
    "1111m2233p4455s6z": 2,   # seven pairs (distinct): the quad is one pair
    "123456789m1111p5z": 0,   # 14 tiles: discard 1p, wait on 5z
    "11112222333344m": -1,
}


@pytest.mark.parametrize("text,expected", list(TRAPS.items()))
def test_four_copy_trap_examples(text, expected):
    counts = P.from_tenhou(text)
    assert shanten(counts, ruleset="plain") == expected
    assert shanten_batch(counts[None], ruleset="plain")[0] == expected
    # the exact peers agree (this is how their 4-copy behaviour was established)
    for module, fn in (("xiangting", P.xiangting_shanten), ("riichienv", P.riichienv_shanten),
                       ("mahjong", P.mahjong_shanten)):
        if P.available(module):
            assert fn(counts) == expected, module


@pytest.mark.parametrize("size", [13, 14])
def test_four_copy_trap_hands_vs_xiangting(size):
    pytest.importorskip("xiangting")
    hands = P.four_copy_trap_hands(N_MID, size, seed=7 + size)
    assert (hands == 4).any(axis=1).all()
    xt = P.xiangting_shanten_batch(hands)
    assert_same(hands, shanten_batch(hands, ruleset="plain"), xt, f"4-copy traps, {size} tiles vs xiangting")
    single = np.array([shanten(h, ruleset="plain") for h in hands[:2000]])
    assert_same(hands[:2000], single, xt[:2000], f"4-copy traps, single calls, {size} tiles")
    if P.available("mahjong"):
        m = P.mahjong_shanten_batch(hands[:N_SMALL], "regular")
        assert_same(hands[:N_SMALL], shanten_batch(hands[:N_SMALL], forms=("regular",), ruleset="plain"), m,
                    f"4-copy traps, regular, {size} tiles vs mahjong")


def test_trap_hands_do_trip_a_four_copy_blind_calculator():
    """The trap set is meaningful: PyMahjongGB's regular form (which allows a fifth copy)
    reports a smaller shanten than ours on a good share of it, never a larger one."""
    pytest.importorskip("MahjongGB")
    hands = P.four_copy_trap_hands(N_SMALL, 13, seed=20)
    gb = P.gb_shanten_batch(hands, "regular").astype(np.int64)
    ours = shanten_batch(hands, forms=("regular",), ruleset="plain").astype(np.int64)
    assert (ours >= gb).all()
    assert (ours > gb).mean() > 0.03
    assert P.gb_regular(P.from_tenhou("123456789m1111p")) == 0   # the documented peer bug
    assert shanten(P.from_tenhou("123456789m1111p"), forms=("regular",), ruleset="plain") == 1


# --------------------------------------------------------------------------- riichienv

@pytest.mark.parametrize("size", [13, 14])
def test_min_vs_riichienv(size):
    pytest.importorskip("riichienv")
    hands = np.concatenate([P.random_hands(N_MID, size, seed=2000 + size),
                            P.four_copy_trap_hands(N_SMALL // 5, size, seed=size)])
    assert_same(hands, shanten_batch(hands, ruleset="plain"), P.riichienv_shanten_batch(hands),
                f"3 forms, {size} tiles vs riichienv")


# --------------------------------------------------------------------------- mahjong

@pytest.mark.parametrize("size", [13, 14])
def test_vs_mahjong(size):
    pytest.importorskip("mahjong")
    hands = P.random_hands(N_SMALL, size, seed=3000 + size)
    assert_same(hands, shanten_batch(hands, ruleset="plain"), P.mahjong_shanten_batch(hands),
                f"3 forms, {size} tiles vs mahjong")
    for form in THREE:
        assert_same(hands, shanten_batch(hands, forms=(form,), ruleset="plain"),
                    P.mahjong_shanten_batch(hands, form), f"{form}, {size} tiles vs mahjong")


@pytest.mark.parametrize("size", [13, 14])
def test_regular_vs_mahjong(size):
    """Full per-hand check of the regular form on 13/14 tiles (xiangting can't isolate it)."""
    pytest.importorskip("mahjong")
    hands = np.concatenate([P.random_hands(N_MID // 2, size, seed=4000 + size),
                            P.enriched_hands(N_MID // 4, size, seed=size, n_kinds=7)])
    assert_same(hands, shanten_batch(hands, forms=("regular",), ruleset="plain"),
                P.mahjong_shanten_batch(hands, "regular"), f"regular, {size} tiles vs mahjong")


# --------------------------------------------------------------------------- PyMahjongGB

@pytest.fixture(scope="module")
def gb_hands():
    """13-tile hands — random, few-kind (pairs/quads: seven pairs binds), terminal/honour
    rich (thirteen orphans binds) — with PyMahjongGB's per-form values."""
    pytest.importorskip("MahjongGB")
    hands = np.concatenate([
        P.random_hands(N_MID, 13, seed=5000),
        P.enriched_hands(N_SMALL, 13, seed=5001, n_kinds=7),
        P.enriched_hands(N_SMALL, 13, seed=5002, n_kinds=5),
        P.orphan_rich_hands(N_SMALL, 13, seed=5003),
    ])
    gb = {f: P.gb_shanten_batch(hands, f).astype(np.int64)
          for f in ("regular", "seven_pairs", "thirteen_orphans")}
    return hands, gb


def test_seven_pairs_with_quads_vs_pymahjonggb(gb_hands):
    hands, gb = gb_hands
    ours = shanten_batch(hands, forms=("seven_pairs",), seven_pairs_quads=True, ruleset="plain")
    assert_same(hands, ours, gb["seven_pairs"],
                "seven pairs (quad = 2 pairs), 13 tiles vs PyMahjongGB")
    # the binding case is well represented: seven pairs strictly best among the forms
    reg = shanten_batch(hands, forms=("regular",), ruleset="plain")
    assert (ours < reg).sum() > 1000
    singles = np.array([shanten(h, forms=("seven_pairs",), seven_pairs_quads=True, ruleset="plain")
                        for h in hands[-2000:]])
    assert_same(hands[-2000:], singles, ours[-2000:], "seven pairs with quads, single vs batch")


def test_thirteen_orphans_vs_pymahjonggb(gb_hands):
    hands, gb = gb_hands
    ours = shanten_batch(hands, forms=("thirteen_orphans",), ruleset="plain")
    assert_same(hands, ours, gb["thirteen_orphans"],
                "thirteen orphans, 13 tiles vs PyMahjongGB")
    assert (ours <= 1).sum() > 1000


def test_chinese_min_vs_pymahjonggb_special_forms(gb_hands):
    """Our regular + seven pairs (quads) + thirteen orphans with quads on, against
    PyMahjongGB's per-form minimum where its 4-copy-blind regular form is not in play."""
    hands, gb = gb_hands
    gb7, gb13, gbreg = gb["seven_pairs"], gb["thirteen_orphans"], gb["regular"]
    ours = shanten_batch(hands, seven_pairs_quads=True, ruleset="plain").astype(np.int64)
    ours_reg = shanten_batch(hands, forms=("regular",), ruleset="plain").astype(np.int64)
    assert (ours_reg >= gbreg).all()
    exact = ours_reg == gbreg
    assert_same(hands[exact], ours[exact], np.minimum.reduce([gbreg, gb7, gb13])[exact],
                "3 forms (quads), 13 tiles vs PyMahjongGB")

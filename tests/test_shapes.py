"""The shape engines: the compiled shape engine (``majiang._core.shapes``) equals the Python one,
and the Cython shanten core under shape constraints (second part of this file).

``majiang.rules.shapes`` keeps its pure-Python functions (``form_shanten``,
``shanten_counts``, ``ukeire_counts``: an enumeration of per-suit targets) as the
reference; ``core_*`` and the ruleset-level functions run the compiled port (the
core's per-group rows combined under the shape rules).  Checked here:

* per-form shanten and ukeire dicts of both engines on random positions of every
  constraint the engine knows (void suit, 2-5-8 pair, every suit present, reduced
  tile sets and melds as caps, meld suits, jokers 0..8, 三金倒 / 三财神, 十三烂 /
  七星归位, seven pairs with and without quads, thirteen orphans, 13/14- and 16/17-tile
  hands), and for the rulesets that use the engine (anqing, nanchang, luoyuan,
  wenzhou, shenyang) at the ruleset level: ``ruleset_shanten`` / ``ruleset_ukeire`` /
  ``ruleset_discard_table`` with ``engine="core"`` against ``engine="python"``,
  indicators and visible tiles included;
* jokers against a brute force over joker assignments (every multiset of kinds the
  jokers could stand for, within the caps) for the forms jokers may join;
* the full-size run (``-m slow``): at least 100,000 random positions per constraint.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from majiang import efficiency as eff
from majiang.errors import InvalidHandError, RuleError
from majiang.rules import get as get_ruleset
from majiang.rules import shapes as S
from majiang.rules.shapes import Spec
from majiang.tiles import tile_name

from _hands import sets_of, take

C136 = np.full(34, 4, np.int64)
C108 = C136.copy()
C108[27:] = 0                       # no honors (四川, 罗源's honors are flowers)
C84 = C136.copy()
C84[0:9] = 0
C84[27:31] = 0                      # no 万, no winds
C_ODD = np.random.default_rng(7).integers(0, 5, 34)     # a made-up set: 0-4 copies a kind
C_ODD[[0, 8, 9, 17, 18, 26, 27, 33]] = 4
TILE_SETS = (C136, C108, C84, C_ODD)

LONELY_FORMS = ("regular", "seven_pairs", "thirteen_lonely", "seven_stars")
CONSTRAINTS = {
    # name: (Spec keyword arguments, copies)
    "void": (dict(forms=("regular", "seven_pairs"), void=True), C136),
    "pair_258": (dict(forms=("regular", "seven_pairs"), pair_258=True), C136),
    "no_void": (dict(forms=("regular", "seven_pairs"), no_void=True), C136),
    "caps_108": (dict(forms=("regular", "seven_pairs", "thirteen_orphans")), C108),
    "caps_84": (dict(forms=("regular", "seven_pairs", "thirteen_orphans")), C84),
    "caps_odd": (dict(forms=("regular", "seven_pairs", "thirteen_orphans"), quads=True),
                 C_ODD),
    "quads": (dict(forms=("regular", "seven_pairs", "thirteen_orphans"), quads=True), C136),
    "lonely": (dict(forms=LONELY_FORMS, quads=True), C136),
    "three_jokers": (dict(forms=("regular",), three_jokers=True), C136),
    "void_258": (dict(forms=("regular", "seven_pairs"), void=True, pair_258=True), C136),
}
RULESETS = ("anqing", "nanchang", "luoyuan", "wenzhou", "shenyang")


def make_spec(name):
    kw, copies = CONSTRAINTS[name]
    return Spec(copies=tuple(int(x) for x in copies), **kw)


# ============================================================ random positions
def random_position(rng, copies, hand_size=13, max_melds=2, max_jokers=8, draw=None,
                    min_melds=0, min_jokers=0):
    """A random concealed position: ``(counts uint8 (34,), jokers, caps uint8 (34,),
    n_melds, meld_suits)``.  ``hand_size`` 13 or 16; the concealed part holds
    ``hand_size - 3 * melds`` tiles (+1 with ``draw``, random when None), some of them
    jokers; the real tiles are uniform, near a complete regular hand, or near seven
    pairs / 十三烂 (0-3 tiles swapped)."""
    avail = np.array(copies, np.int64)
    melds = []
    for _ in range(int(rng.integers(min_melds, max_melds + 1))):
        sets = sets_of(avail)
        if not sets:
            break
        melds.append(take(avail, sets[rng.integers(len(sets))]))
    caps = avail.copy()
    if draw is None:
        draw = bool(rng.integers(2))
    size = hand_size - 3 * len(melds) + int(draw)
    jokers = 0
    if min_jokers or rng.integers(2):
        jokers = int(rng.integers(min(min_jokers, max_jokers), min(max_jokers, size) + 1))
    real = size - jokers
    style = int(rng.integers(4))
    tiles: list[int] = []
    a = avail.copy()
    if style == 1:                                      # near a complete regular hand
        for _ in range(real // 3):
            sets = sets_of(a)
            if not sets:
                break
            tiles += take(a, sets[rng.integers(len(sets))])
        pairs = [k for k in range(34) if a[k] >= 2]
        if pairs:
            k = pairs[rng.integers(len(pairs))]
            tiles += [k, k]
    elif style == 2:                                    # near seven pairs
        kinds = [k for k in range(34) if a[k] >= 2]
        for k in rng.choice(kinds, min(7, len(kinds)), replace=False):
            tiles += [int(k)] * 2
    elif style == 3:                                    # near 十三烂: ranks 3 apart
        for s in range(3):
            start = int(rng.integers(3))
            tiles += [9 * s + r for r in range(start, 9, 3) if a[9 * s + r]]
        tiles += [k for k in range(27, 34) if a[k]]
    rng.shuffle(tiles)
    tiles = tiles[:max(0, min(real, len(tiles)) - int(rng.integers(4)))]
    left = avail.copy()
    for t in tiles:
        left[t] -= 1
    pool = np.repeat(np.arange(34), left)
    extra = rng.choice(pool, real - len(tiles), replace=False)
    c = np.bincount(np.concatenate([np.array(tiles, np.int64), extra]), minlength=34)
    suits = frozenset(t // 9 for m in melds for t in m if t < 27)
    return (c.astype(np.uint8), jokers, caps.astype(np.uint8), len(melds), suits)


def random_visible(rng, c, caps):
    room = np.maximum(caps.astype(np.int64) - c, 0)
    return (rng.random(34) < 0.3) * rng.integers(0, room + 1)


def random_joker_args(rng, spec, c):
    """joker_kind (None, a kind, or two kinds), joker_copies and a stand-in for ukeire."""
    kinds = [k for k in range(34) if spec.copies[k] and not c[k]]
    r = rng.integers(4)
    if r == 0 or len(kinds) < 3:
        return None, 4, None
    pick = [int(x) for x in rng.choice(kinds, 3, replace=False)]
    if r == 1:
        return pick[0], int(rng.integers(1, 5)), None
    if r == 2:
        return (pick[0], pick[1]), (int(rng.integers(1, 5)), int(rng.integers(1, 5))), None
    return pick[0], int(rng.integers(1, 5)), (pick[0], pick[2], int(rng.integers(0, 5)))


# ============================================================ comparisons
def check_form_shanten(spec, pos):
    c, j, caps, nm, suits = pos
    kw = dict(jokers=j, caps=caps, n_melds=nm, spec=spec, meld_suits=suits)
    want = S.form_shanten(c, **kw)
    got = S.core_form_shanten(c, **kw)
    assert got == want, (c.tolist(), kw, got, want)
    assert S.core_shanten_counts(c, **kw) == min(want.values())
    if any(c[k] for k in spec.dead):
        return      # dead kinds held (安庆 杠牌): core_* pass them to the engine as jokers
    # the compiled engine itself (core_* fall back to the reference on a refusal)
    # (温州 八对 is computed beside it, by the reference's closed form: S._BESIDE)
    cs = S._compiled(spec)
    assert not cs.unknown_forms
    per = S._cs.form_shanten(cs, c, j, caps, nm, S._meld_bits(suits))
    own = {f: v for f, v in want.items() if f not in S._BESIDE}
    assert {f: int(per[S._FORM_SLOT[f]]) for f in own} == own, (c.tolist(), kw, want)
    assert S._cs.shanten(cs, c, j, caps, nm, S._meld_bits(suits)) == min(own.values())


def check_ukeire(rng, spec, pos):
    c, j, caps, nm, suits = pos
    jk, jc, si = random_joker_args(rng, spec, c)
    kw = dict(jokers=j, caps=caps, n_melds=nm, spec=spec, meld_suits=suits,
              visible=random_visible(rng, c, caps), joker_kind=jk, joker_copies=jc,
              stand_in=si)
    want = S.ukeire_counts(c, **kw)
    got = S.core_ukeire_counts(c, **kw)
    assert got == want, (c.tolist(), kw, got, want)
    if any(c[k] for k in spec.dead):
        return      # dead kinds held: core_ukeire_counts loops over the draws itself
    from majiang.rules.shapes.compiled import beside_applies
    if beside_applies(spec, int(c.sum()) + j, nm):
        return      # 八对 can apply: core_ukeire_counts loops over the draws itself
    vis = kw["visible"].astype(np.uint8)
    assert S._cs.ukeire(S._compiled(spec), c, j, caps, nm, S._meld_bits(suits), vis, jk, jc,
                        si) == want, (c.tolist(), kw, want)


def run_constraint(name, n_shanten, n_ukeire, seed):
    spec = make_spec(name)
    rng = np.random.default_rng(seed)
    copies = CONSTRAINTS[name][1]
    for i in range(n_shanten):
        size = 16 if i % 4 == 3 else 13                 # a quarter 16/17-tile hands
        pos = random_position(rng, copies, size, 3 if size == 16 else 2)
        check_form_shanten(spec, pos)
    for i in range(n_ukeire):
        size = 16 if i % 4 == 3 else 13
        pos = random_position(rng, copies, size, 3 if size == 16 else 2, draw=False)
        check_ukeire(rng, spec, pos)


@pytest.mark.parametrize("name", sorted(CONSTRAINTS))
def test_constraint_equal_python(name):
    run_constraint(name, 200, 10, seed=sum(map(ord, name)))


@pytest.mark.parametrize("name", RULESETS)
def test_ruleset_specs_equal_python(name):
    """The rulesets' own specs at the counts level: per-form shanten on 600 positions
    (jokers up to the ruleset's wild copies, melds), ukeire on 20."""
    rs = get_ruleset(name)
    spec = S.spec_of(rs)
    rng = np.random.default_rng(len(name))
    maxj = min(8, rs.jokers.total_copies) if rs.jokers else 0
    for _ in range(600 if rs.hand_size == 13 else 150):
        check_form_shanten(spec, random_position(rng, np.array(rs.copies), rs.hand_size, 2,
                                                 maxj))
    for _ in range(20 if rs.hand_size == 13 else 6):
        check_ukeire(rng, spec, random_position(rng, np.array(rs.copies), rs.hand_size, 2,
                                                maxj, draw=False))


def check_discards(rng, spec, pos):
    """The compiled per-discard ukeire of a 3n+2 position against the Python engine's
    ukeire after each discard (the discard seen; a held face of the stand-in's joker
    kind is seen as the substitute)."""
    c, j, caps, nm, suits = pos
    jk, jc, si = random_joker_args(rng, spec, c)
    vis = random_visible(rng, c, caps).astype(np.uint8)
    got = S._cs.discard_ukeire(S._compiled(spec), c, j, caps, nm, S._meld_bits(suits), vis,
                               jk, jc, si)
    want = []
    for d in range(34):
        if not c[d]:
            continue
        c2 = c.copy()
        c2[d] -= 1
        v = vis.astype(np.int64)
        v[si[1] if si is not None and d == si[0] else d] += 1
        s, live = S.ukeire_counts(c2, jokers=j, caps=caps, n_melds=nm, spec=spec,
                                  meld_suits=suits, visible=v, joker_kind=jk,
                                  joker_copies=jc, stand_in=si)
        want.append((d, s, live))
    assert got == want, (c.tolist(), j, nm, si)


@pytest.mark.parametrize("name", ["lonely", "no_void", "void_258", "caps_odd"])
def test_discard_ukeire_equal_python(name):
    spec = make_spec(name)
    rng = np.random.default_rng(sum(map(ord, name)) + 1)
    for _ in range(3):
        check_discards(rng, spec, random_position(rng, CONSTRAINTS[name][1], 13, 1, 3,
                                                  draw=True))


# ============================================================ ruleset level
def _hand_string(rng, rs, draw):
    """A random hand of ruleset `rs` as text (melds as ``[...]``, jokers ``*``)."""
    copies = np.array(rs.copies, np.int64)
    avail = copies.copy()
    melds = []
    for _ in range(int(rng.integers(2))):
        sets = [s for s in sets_of(avail)]
        melds.append(take(avail, sets[rng.integers(len(sets))]))
    size = rs.hand_size - 3 * len(melds) + int(draw)
    maxj = min(3, rs.jokers.total_copies) if rs.jokers else 0
    j = int(rng.integers(0, maxj + 1))
    pool = np.repeat(np.arange(34), avail)
    real = sorted(int(t) for t in rng.choice(pool, size - j, replace=False))
    text = "".join(tile_name(t) for t in real) + "*" * j
    for m in melds:
        text += "[" + "".join(tile_name(t) for t in m) + "]"
    return text


@pytest.mark.parametrize("name", RULESETS)
def test_ruleset_functions_equal_python(name):
    """ruleset_shanten / ruleset_ukeire / ruleset_discard_table: engine="core" equals
    engine="python" (indicators turned at random, visible tiles, melds)."""
    rs = get_ruleset(name)
    rng = np.random.default_rng(100 + len(name))
    small = rs.hand_size == 13
    want_n = {"shanten": 60 if small else 20, "ukeire": 8 if small else 2,
              "table": 2 if small else 1}
    done = dict.fromkeys(want_n, 0)
    for trial in range(400):
        if done == want_n:
            break
        draw = trial % 2 == 1
        text = _hand_string(rng, rs, draw)
        try:
            S._hand_parts(text, 0, rs)
        except InvalidHandError:
            continue
        ind = None
        if rs.jokers is not None and rs.jokers.source != "fixed":
            ind = tile_name(int(rng.choice([k for k in range(34) if rs.copies[k]])))
        if done["shanten"] < want_n["shanten"]:
            assert (S.ruleset_shanten(text, rs, per_form=True, engine="core")
                    == S.ruleset_shanten(text, rs, per_form=True, engine="python")), text
            done["shanten"] += 1
        what = "table" if draw else "ukeire"
        if done[what] >= want_n[what]:
            continue
        try:
            if not draw:
                want = S.ruleset_ukeire(text, rs, "1m2m", indicator=ind, engine="python")
                assert S.ruleset_ukeire(text, rs, "1m2m", indicator=ind) == want, (text, ind)
            else:
                want = S.ruleset_discard_table(text, rs, "9s", indicator=ind, engine="python")
                got = S.ruleset_discard_table(text, rs, "9s", indicator=ind)
                assert got.equals(want), (text, ind, got, want)
        except InvalidHandError:
            continue        # e.g. a concealed tile of the wild kind: the engines refuse alike
        done[what] += 1
    assert done == want_n, done


def test_public_api_routes_through_compiled_engine():
    """majiang.shanten / ukeire / discard_table / shanten_batch under these rulesets give
    the Python engine's values (the compiled engine behind them), and the batch raises
    naming the row."""
    rng = np.random.default_rng(5)
    for name in RULESETS:
        rs = get_ruleset(name)
        assert eff._route(name, None)[0] == "python"
        text = _hand_string(rng, rs, False)
        try:
            S._hand_parts(text, 0, rs)
        except InvalidHandError:
            continue
        assert eff.shanten(text, ruleset=name) == S.ruleset_shanten(text, rs, engine="python")
    rs = get_ruleset("anqing")
    rows = np.array([random_position(rng, C136, 13, 0, 0)[0] for _ in range(50)])
    rows = rows[(rows.sum(1) % 3) != 0]
    want = [S.shanten_counts(r, spec=S.spec_of(rs)) for r in rows]
    assert eff.shanten_batch(rows, ruleset="anqing").tolist() == want
    bad = rows.copy()
    bad[1, 0] = 5
    with pytest.raises(InvalidHandError, match="row 1"):
        eff.shanten_batch(bad, ruleset="anqing")


def test_errors_match_python():
    spec = make_spec("caps_108")
    c = np.zeros(34, np.uint8)
    c[27] = 1                                   # an honor outside the 108-tile set
    c[:12] = 1
    for f in (S.form_shanten, S.core_form_shanten):
        with pytest.raises(InvalidHandError, match="tile set"):
            f(c, spec=spec)
    c = np.zeros(34, np.uint8)
    c[:12] = 1                                  # 12 tiles: not 3n+1 / 3n+2
    for f in (S.form_shanten, S.core_form_shanten):
        with pytest.raises(InvalidHandError, match="3n"):
            f(c, spec=spec)
    with pytest.raises(RuleError, match="engine"):
        S.ruleset_shanten("123m456p789s1122z", get_ruleset("anqing"), engine="fast")


def test_compiled_engine_refuses_malformed_input():
    """Input reaching majiang._core.shapes directly, past the wrappers' checks: a
    ValueError, never an out-of-range read (jokers near the int limit overflowed the
    tile count; ukeire of 17 tiles drew an 18th, beyond the 5-set rows)."""
    cs = S._compiled(make_spec("lonely"))
    c17 = np.zeros(34, np.uint8)
    c17[:17] = 1
    c13 = c17.copy()
    c13[13:] = 0
    bad = [(S._cs.shanten, (cs, c13, 2 ** 31 - 1)), (S._cs.shanten, (cs, c13, -1)),
           (S._cs.shanten, (cs, c13, 18)), (S._cs.form_shanten, (cs, c17, 3)),
           (S._cs.ukeire, (cs, c17)), (S._cs.ukeire, (cs, c13, 1)),
           (S._cs.discard_ukeire, (cs, c13)), (S._cs.discard_ukeire, (cs, c17, 3)),
           (S._cs.shanten, (cs, c13.astype(np.int64))), (S._cs.shanten, (cs, c13[:33])),
           (S._cs.ukeire, (cs, c13, 0, None, 0, 0, np.zeros(33, np.uint8))),
           (S._cs.ukeire, (cs, c13, 0, None, 0, 0, None, 34)),
           (S._cs.ukeire, (cs, c13, 0, None, 0, 0, None, 33, 4, (33, -1, 4)))]
    for f, args in bad:
        with pytest.raises(ValueError):
            f(*args)
    with pytest.raises(ValueError):
        S._cs.ShapeSpec(("regular",), False, (5,) * 34, False, False, False, False)
    with pytest.raises(ValueError):
        S._cs.ShapeSpec(("regular",), False, (4,) * 33, False, False, False, False)
    assert S._cs.shanten(cs, c13) == S.shanten_counts(c13, spec=make_spec("lonely"))


@pytest.mark.parametrize("name", RULESETS)
def test_public_api_malformed_hands(name):
    """Malformed hands through the public functions under each ruleset of the engine:
    a clean InvalidHandError / RuleError (a fifth copy, 18 or 20 tiles, negative counts,
    more jokers than allowed, melds beyond the tile set, a 13-tile ruleset given 16)."""
    rs = get_ruleset(name)
    neg = np.zeros(34, np.int64)
    neg[:14] = 1
    neg[20] = -1
    c19 = np.zeros(34, np.int64)
    c19[:19] = 1
    five = np.zeros(34, np.int64)
    five[0] = 5
    five[1:9] = 1
    hands = [five, neg, c19, "11111m2345678m", "1m1m1m[111m]23456789m", "1m1m[1111m]2345m"]
    for h in hands:
        for j in (0, 1, 9):
            for f in (eff.shanten, eff.ukeire, eff.discard_table):
                with pytest.raises((InvalidHandError, RuleError)):
                    f(h, ruleset=name, jokers=j)
    # text is a full hand of the ruleset's size (a bare vector may be partial)
    over = "1m[111p][222p][333p][444p][555p]" if rs.hand_size == 13 else "1m[111p][222p]"
    for f in (eff.shanten, eff.ukeire, eff.discard_table):
        with pytest.raises(InvalidHandError, match="wrong number of tiles"):
            f(over, ruleset=name)
    if rs.jokers is None:       # jokers= under a ruleset without jokers, in every function
        for f in (eff.shanten, eff.ukeire, eff.discard_table):
            with pytest.raises(RuleError, match="no jokers"):
                f("123m456p789s112z", ruleset=name, jokers=1)
    else:                       # jokers= joins the text's own '*'
        more = "789m" if rs.hand_size == 16 else ""
        hand = "123m456p789s11s55p" + more          # 13 / 16 tiles, no honors
        assert eff.discard_table(hand, ruleset=name, jokers=1).equals(
            eff.discard_table(hand + "*", ruleset=name))
        short = "123m456p789s11s5p" + more          # 12 / 15 real tiles
        assert (eff.shanten(short, ruleset=name, jokers=2)
                == eff.shanten(short + "**", ruleset=name))
    with pytest.raises((InvalidHandError, RuleError)):
        eff.shanten_batch(np.stack([neg, five]), ruleset=name)
    with pytest.raises((InvalidHandError, RuleError)):
        eff.shanten_batch(c19[None], ruleset=name, jokers=np.array([1]))


# ============================================================ jokers: brute force
def _assignments(caps, c, j):
    """Every multiset of j kinds the jokers can stand for within the caps."""
    room = [k for k in range(34) if caps[k] > c[k]]
    for combo in itertools.combinations_with_replacement(room, j):
        a = np.bincount(np.array(combo, np.int64), minlength=34) if combo else np.zeros(34, int)
        if np.all(c + a <= caps):
            yield a


@pytest.mark.parametrize("name", ["void", "pair_258", "no_void", "caps_108", "quads",
                                  "void_258"])
def test_jokers_equal_brute_force_over_assignments(name):
    """Shanten with j jokers = least joker-free shanten over every assignment of the
    jokers to kinds within the caps (forms jokers may join; the joker-free side is the
    compiled engine checked against the Python one above)."""
    spec = make_spec(name)
    rng = np.random.default_rng(42)
    copies = CONSTRAINTS[name][1]
    for i in range(120):
        j = 1 + i % 2
        c, _, caps, nm, suits = random_position(rng, copies, 13, 1, 0)
        if int(c.sum()) < j:
            continue
        # take j real tiles out: they become jokers
        held = np.repeat(np.arange(34), c)
        for t in rng.choice(held, j, replace=False):
            c[t] -= 1
        kw = dict(caps=caps, n_melds=nm, spec=spec, meld_suits=suits)
        got = S.core_shanten_counts(c, jokers=j, **kw)
        want = min(S.core_shanten_counts((c + a).astype(np.uint8), **kw)
                   for a in _assignments(caps, c.astype(np.int64), j))
        assert got == want, (c.tolist(), j, nm, got, want)
        assert got == S.shanten_counts(c, jokers=j, **kw)


# ============================================================ full size
def _slow_flags(rng):
    f = {k: bool(rng.integers(2)) for k in ("void", "pair_258", "no_void", "quads",
                                            "lonely", "orphans", "three_jokers")}
    f["tiles"] = int(rng.integers(4))
    f["caps"] = f["tiles"] != 0
    f["sixteen"] = bool(rng.integers(4) == 0)
    f["melds"] = bool(rng.integers(2))
    f["jokers"] = bool(rng.integers(2))
    f["draw"] = bool(rng.integers(2))
    return f


_SPEC_CACHE: dict = {}


def _slow_spec(f):
    key = (f["void"], f["pair_258"], f["no_void"], f["quads"], f["lonely"], f["orphans"],
           f["three_jokers"], f["tiles"])
    sp = _SPEC_CACHE.get(key)
    if sp is None:
        forms = ["regular", "seven_pairs"]
        if f["orphans"]:
            forms.append("thirteen_orphans")
        if f["lonely"]:
            forms += ["thirteen_lonely", "seven_stars"]
        sp = _SPEC_CACHE[key] = Spec(tuple(forms), f["quads"],
                                     tuple(int(x) for x in TILE_SETS[f["tiles"]]), f["void"],
                                     f["pair_258"], f["no_void"], False, f["three_jokers"])
    return sp


N_SLOW = 210_000        # each constraint flag is on in about half: >= 100,000 each


@pytest.mark.slow
def test_equal_python_100k_per_constraint():
    """Per-form shanten of both engines on 210,000 random positions, each constraint
    (void, 2-5-8 pair, every suit, quads, 十三烂 / 七星, orphans, 三金倒, a reduced tile
    set, melds, jokers, 16/17 tiles) on in about half of them (at least 100,000 each,
    counted; 16/17-tile hands about a quarter); ukeire dicts on every 40th position
    that waits for a draw."""
    rng = np.random.default_rng(2026)
    flags = ("void", "pair_258", "no_void", "quads", "lonely", "orphans", "three_jokers",
             "caps", "sixteen")
    counts = dict.fromkeys(flags + ("melds", "jokers"), 0)
    n_uk = 0
    for i in range(N_SLOW):
        f = _slow_flags(rng)
        spec = _slow_spec(f)
        size = 16 if f["sixteen"] else 13
        pos = random_position(rng, TILE_SETS[f["tiles"]], size,
                              (3 if f["sixteen"] else 2) if f["melds"] else 0,
                              8 if f["jokers"] else 0, f["draw"],
                              min_melds=int(f["melds"]), min_jokers=int(f["jokers"]))
        check_form_shanten(spec, pos)
        if not f["draw"] and i % 40 == 0:
            check_ukeire(rng, spec, pos)
            n_uk += 1
        for k in flags:
            counts[k] += bool(f[k])
        counts["melds"] += pos[3] > 0
        counts["jokers"] += pos[1] > 0
    print("positions per constraint:", counts, "ukeire dicts:", n_uk)
    sixteen = counts.pop("sixteen")
    assert sixteen >= N_SLOW // 5, sixteen
    assert min(counts.values()) >= 100_000, counts


@pytest.mark.slow
def test_discard_ukeire_equal_python_slow():
    """Per-discard ukeire of both engines on 150 random 3n+2 positions (every
    constraint in turn, melds, jokers, two wild kinds, stand-ins; a fifth of them
    17-tile hands)."""
    rng = np.random.default_rng(77)
    names = sorted(CONSTRAINTS)
    for i in range(150):
        name = names[i % len(names)]
        size = 16 if i % 5 == 4 else 13
        check_discards(rng, make_spec(name),
                       random_position(rng, CONSTRAINTS[name][1], size, 2, 4, draw=True))

# ---------------------------------------------------------------------------
# Shape constraints and tile sets in the Cython shanten core.
#
# The core computes shanten exactly under a 缺一门 void suit (``void_suits``), a 二五八将
# pair restriction (``pair_mask``) and reduced tile sets (``caps``: 108 tiles without
# honors, 84 tiles without 万 and winds).  Checked here against two independent
# references:
#
# * the pure-Python shape engine :mod:`majiang.rules.shapes` (a different method:
#   enumeration of per-suit targets), on random hands with 0-2 exposed melds;
# * a brute force from the definition: multi-source breadth-first search over tile
#   swaps from every complete hand of a small tile universe (one or two suits, some
#   honors), with completeness decided by a plain recursive decomposition; and
#   enumeration of every target for seven pairs / thirteen orphans / 全不靠 within caps.
#
# The public functions (``shanten``/``ukeire``/``discard_table`` with ``ruleset=``) are
# checked to give what :mod:`majiang.rules.shapes` gives, and the ``jokers=`` keyword to
# mean the same as ``*`` in the hand.

from collections import deque
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

import majiang as mj
from majiang._core import efficiency as E
from majiang.rules import shapes
from majiang.rules.shapes import form_shanten


REGULAR, SEVEN, ORPHANS, HK, KS = 1, 2, 4, 8, 16
P258 = sum(1 << (9 * s + r) for s in range(3) for r in (1, 4, 7))
_core_C136 = np.full(34, 4, np.int64)
_core_C108 = _core_C136.copy()
_core_C108[27:] = 0
_core_C84 = _core_C136.copy()
_core_C84[0:9] = 0
_core_C84[27:31] = 0
_core_C_ODD = np.random.default_rng(99).integers(0, 5, 34)   # a made-up set: 0..4 copies a kind
_core_C_ODD[[0, 9, 18, 22]] = 4                               # room for melds and orphans
ORPHAN_KINDS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def core(h, mask=REGULAR | SEVEN | ORPHANS, quads=False, caps=None, pair_mask=None,
         void_suits=0, jokers=0):
    h = np.ascontiguousarray(h, dtype=np.uint8)
    if caps is not None:
        caps = np.ascontiguousarray(caps, dtype=np.uint8)
    return E.shanten_one(h, mask, quads, caps, jokers, False, pair_mask=pair_mask,
                         void_suits=void_suits)


# ============================================================ random cases
def random_case(rng, copies, n_melds):
    """(concealed counts, meld tiles list, caps) of a random hand of a tile set: uniform,
    near a complete regular hand, or near seven pairs (0-3 random swaps)."""
    avail = copies.copy()
    meld_tiles = []
    for _ in range(n_melds):
        sets = sets_of(avail)
        meld_tiles.append(take(avail, sets[rng.integers(len(sets))]))
    caps = avail.copy()
    size = 14 - 3 * n_melds - int(rng.integers(2))
    style = rng.integers(3)
    tiles: list[int] = []
    if style == 1:                                      # near a complete regular hand
        a = avail.copy()
        for _ in range((size - 1) // 3):
            sets = sets_of(a)
            tiles += take(a, sets[rng.integers(len(sets))])
        pairs = [k for k in range(34) if a[k] >= 2]
        k = pairs[rng.integers(len(pairs))]
        tiles += [k, k]
    elif style == 2 and n_melds == 0:                   # near seven pairs
        kinds = [k for k in range(34) if avail[k] >= 2]
        for k in rng.choice(kinds, 7, replace=False):
            tiles += [int(k)] * 2
    # keep all but 0-3 random tiles (plus the surplus), then fill up uniformly
    rng.shuffle(tiles)
    tiles = tiles[:max(0, min(size, len(tiles)) - int(rng.integers(4)))]
    left = avail.copy()
    for t in tiles:
        left[t] -= 1
    pool = np.repeat(np.arange(34), left)
    extra = rng.choice(pool, size - len(tiles), replace=False)
    c = np.bincount(np.concatenate([np.array(tiles, dtype=np.int64), extra]), minlength=34)
    return c, meld_tiles, caps


def shapes_reference(c, caps, meld_tiles, spec):
    """Shanten from rules/shapes/.  That engine looks at the concealed tiles only, so
    with melds and a void suit the suits the melds hold are taken out of the eligible
    voids here (its per-void regular maximum is used directly)."""
    n_melds = len(meld_tiles)
    if not (spec.void and n_melds):
        return min(form_shanten(c, caps=tuple(int(x) for x in caps), n_melds=n_melds,
                                spec=spec).values())
    held = {t // 9 for m in meld_tiles for t in m if t < 27}
    n = int(c.sum())
    n_sets = n // 3
    need = 3 * n_sets + 2
    ct = tuple(int(x) for x in c)
    cp = tuple(int(x) for x in caps)
    kept = max((shapes._regular_kept(ct, cp, n_sets, v, spec.pair_258)
                for v in range(3) if v not in held), default=shapes._NEG)
    if kept <= shapes._NEG // 2:
        return 99
    return max(-1, need - kept - 1)


def core_for(c, caps, meld_tiles, spec):
    mask = sum({"regular": REGULAR, "seven_pairs": SEVEN, "thirteen_orphans": ORPHANS}[f]
               for f in spec.forms)
    if meld_tiles:
        mask &= REGULAR
    void = 0
    if spec.void:
        held = {t // 9 for m in meld_tiles for t in m if t < 27}
        void = sum(1 << s for s in range(3) if s not in held)
        if void == 0:
            return 99
    return core(c, mask, spec.quads, caps, P258 if spec.pair_258 else None, void)


CONFIGS = {
    "void_suit": (_core_C136, dict(void=True), ("regular", "seven_pairs", "thirteen_orphans"), False),
    "pair_258": (_core_C136, dict(pair_258=True), ("regular", "seven_pairs", "thirteen_orphans"),
                 False),
    "tiles_108": (_core_C108, {}, ("regular", "seven_pairs"), True),
    "tiles_84": (_core_C84, {}, ("regular", "seven_pairs", "thirteen_orphans"), True),
    "combined_108": (_core_C108, dict(void=True, pair_258=True), ("regular", "seven_pairs"), True),
    "combined_84": (_core_C84, dict(void=True, pair_258=True), ("regular", "seven_pairs"), False),
    "tiles_uneven": (_core_C_ODD, {}, ("regular", "seven_pairs", "thirteen_orphans"), True),
    "combined_uneven": (_core_C_ODD, dict(void=True, pair_258=True), ("regular", "seven_pairs"),
                        False),
}


def _compare(name, n_hands, seed):
    copies, cons, forms, quads = CONFIGS[name]
    spec = Spec(forms, quads, tuple(int(x) for x in copies), **cons)
    rng = np.random.default_rng(seed)
    seen = set()
    for i in range(n_hands):
        c, melds, caps = random_case(rng, copies, i % 3)
        want = shapes_reference(c, caps, melds, spec)
        got = core_for(c, caps, melds, spec)
        assert got == want, (name, c.tolist(), melds, want, got)
        seen.add(want)
    assert len(seen) >= 4          # the sample covers complete, tenpai and worse hands


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_core_equals_shapes_engine(name):
    _compare(name, 250, 11)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_core_equals_shapes_engine_20000(name):
    _compare(name, 20000, 2026)


@pytest.mark.parametrize("copies, cons", [(_core_C136, dict(void=True, pair_258=True)),
                                          (_core_C108, dict(void=True)),
                                          (_core_C_ODD, dict(pair_258=True))])
def test_sixteen_tile_hands_match_shapes_engine(copies, cons):
    # five sets + a pair: the direct programme (beyond the tables' four sets)
    spec = Spec(("regular",), False, tuple(int(x) for x in copies), **cons)
    rng = np.random.default_rng(21)
    pool = np.repeat(np.arange(34), copies)
    for i in range(60):
        c = np.bincount(rng.choice(pool, 16 + i % 2, replace=False), minlength=34)
        want = min(form_shanten(c, caps=tuple(int(x) for x in copies), spec=spec).values())
        assert core(c, REGULAR, False, copies, P258 if cons.get("pair_258") else None,
                    7 if cons.get("void") else 0) == want


def test_random_case_is_valid():
    rng = np.random.default_rng(5)
    for i in range(300):
        c, melds, caps = random_case(rng, _core_C108, i % 3)
        assert (c <= caps).all() and c.sum() + 3 * len(melds) in (13, 14)
        assert c[27:].sum() == 0


# ============================================================ brute force: BFS over swaps
def _is_complete(c, kinds_chow, pair_ok, void_suits, pair_done=False):
    """Plain recursive check: sets + exactly one pair, the pair on an allowed kind, and
    (with void_suits) no tile of at least one of those suits."""
    if void_suits and not pair_done and not any(
            (void_suits >> s) & 1 and not any(c[9 * s:9 * s + 9]) for s in range(3)):
        return False
    i = next((k for k in range(34) if c[k]), None)
    if i is None:
        return pair_done
    if c[i] >= 3:
        c[i] -= 3
        ok = _is_complete(c, kinds_chow, pair_ok, 0, pair_done)
        c[i] += 3
        if ok:
            return True
    if not pair_done and c[i] >= 2 and pair_ok(i):
        c[i] -= 2
        ok = _is_complete(c, kinds_chow, pair_ok, 0, True)
        c[i] += 2
        if ok:
            return True
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for t in (i, i + 1, i + 2):
            c[t] -= 1
        ok = _is_complete(c, kinds_chow, pair_ok, 0, pair_done)
        for t in (i, i + 1, i + 2):
            c[t] += 1
        return ok
    return False


def _states(kinds, caps, size):
    out = []

    def rec(j, left, cur):
        if j == len(kinds):
            if left == 0:
                out.append(tuple(cur))
            return
        for v in range(min(left, caps[kinds[j]]) + 1):
            cur.append(v)
            rec(j + 1, left - v, cur)
            cur.pop()

    rec(0, size, [])
    return out


def _bfs(kinds, caps, size, pair_mask, void_suits):
    """Swap distance of every hand of `size` tiles over `kinds` (within caps) to the
    nearest complete hand (multi-source BFS from all complete hands)."""
    states = _states(kinds, caps, size)
    dist = {}
    q = deque()
    full = np.zeros(34, np.int64)
    for s in states:
        full[:] = 0
        full[list(kinds)] = s
        if _is_complete(full.tolist(), None, lambda k: (pair_mask >> k) & 1, void_suits):
            dist[s] = 0
            q.append(s)
    capv = [caps[k] for k in kinds]
    while q:
        s = q.popleft()
        d = dist[s] + 1
        lst = list(s)
        for a in range(len(kinds)):
            if not lst[a]:
                continue
            lst[a] -= 1
            for b in range(len(kinds)):
                if b == a or lst[b] >= capv[b]:
                    continue
                lst[b] += 1
                t = tuple(lst)
                if t not in dist:
                    dist[t] = d
                    q.append(t)
                lst[b] -= 1
            lst[a] += 1
    return states, dist


def _check_universe(kinds, caps, n_sets, pair_mask, void_suits):
    """Every hand of 3n+2 and 3n+1 tiles of the universe: core shanten == BFS."""
    size = 3 * n_sets + 2
    states, dist = _bfs(kinds, caps, size, pair_mask, void_suits)
    capv = np.zeros(34, np.int64)
    for k in kinds:
        capv[k] = caps[k]
    full = np.zeros(34, np.int64)
    pm = None if pair_mask == (1 << 34) - 1 else pair_mask
    values = set()
    for s in states:
        full[:] = 0
        full[list(kinds)] = s
        want = dist[s] - 1 if s in dist else 99
        assert core(full, REGULAR, caps=capv, pair_mask=pm, void_suits=void_suits) == want, (
            s, want)
        values.add(want)
    # 3n+1 hands: one tile short; d(h) = 1 + min over drawable kinds of d(h + k)
    for s in _states(kinds, caps, size - 1):
        best = None
        for j, k in enumerate(kinds):
            if s[j] < caps[k]:
                t = s[:j] + (s[j] + 1,) + s[j + 1:]
                if t in dist and (best is None or dist[t] < best):
                    best = dist[t]
        want = best if best is not None else 99       # shanten = (1 + best) - 1
        full[:] = 0
        full[list(kinds)] = s
        assert core(full, REGULAR, caps=capv, pair_mask=pm, void_suits=void_suits) == want, (
            s, want)
    assert len(values) >= 3
    return values


def test_bfs_one_suit_pair_258():
    caps = [4] * 34
    _check_universe(tuple(range(9)), caps, 2, P258, 0)


def test_bfs_one_suit_and_honors_with_caps_and_mixed_pair_mask():
    caps = [0] * 34
    for k, v in zip(range(9), (4, 3, 2, 1, 0, 4, 2, 4, 3)):
        caps[k] = v
    caps[27], caps[28], caps[31] = 2, 1, 4
    mask = (1 << 0) | (1 << 3) | (1 << 6) | (1 << 7) | (1 << 28) | (1 << 31)
    _check_universe(tuple(range(9)) + (27, 28, 31), caps, 2, mask, 0)


def test_bfs_two_suits_void():
    caps = [4] * 34
    values = _check_universe(tuple(range(18)), caps, 1, (1 << 34) - 1, 0b011)
    assert 99 not in values


def test_bfs_two_suits_void_and_258_pair_with_caps():
    caps = [4] * 34
    caps[4] = 1          # one 5m left
    caps[10] = 2         # two 2p left
    _check_universe(tuple(range(3, 15)), caps, 1, P258, 0b011)


def test_bfs_void_with_only_one_eligible_suit():
    # suit 0 may not be void (e.g. a meld of 万 is held): the hand must lack 筒
    caps = [4] * 34
    _check_universe(tuple(range(4, 14)), caps, 1, (1 << 34) - 1, 0b010)


# ============================================================ whole-hand forms within caps
def _target_distance(h, targets):
    return min((int(np.maximum(t - h, 0).sum()) for t in targets), default=None)


def _seven_pair_targets(caps, quads):
    slots = [k for k in range(34) if caps[k] >= 2]
    slots += [k for k in range(34) if quads and caps[k] >= 4]
    out = set()
    for combo in combinations(sorted(slots), 7):
        t = np.zeros(34, np.int64)
        for k in combo:
            t[k] += 2
        out.add(tuple(t))
    return [np.array(t) for t in out]


@pytest.mark.parametrize("quads", [False, True])
def test_seven_pairs_within_caps_brute_force(quads):
    rng = np.random.default_rng(3 + quads)
    for _ in range(40):
        caps = np.zeros(34, np.int64)
        kinds = rng.choice(34, 9, replace=False)
        caps[kinds] = rng.integers(0, 5, 9)
        targets = _seven_pair_targets(caps, quads)
        pool = np.repeat(np.arange(34), caps)
        if len(pool) < 14:
            continue
        for n in (13, 14):
            for _ in range(5):
                h = np.bincount(rng.choice(pool, n, replace=False), minlength=34)
                d = _target_distance(h, targets)
                want = 99 if d is None else max(-1, d - 1)
                assert core(h, SEVEN, quads, caps) == want, (h.tolist(), caps.tolist())


def test_thirteen_orphans_within_caps_brute_force():
    rng = np.random.default_rng(8)
    for _ in range(200):
        caps = np.full(34, 4, np.int64)
        caps[list(ORPHAN_KINDS)] = rng.integers(0, 5, 13) if rng.random() < 0.3 else \
            rng.integers(1, 5, 13)
        targets = []
        if all(caps[k] >= 1 for k in ORPHAN_KINDS):
            for p in ORPHAN_KINDS:
                if caps[p] >= 2:
                    t = np.zeros(34, np.int64)
                    t[list(ORPHAN_KINDS)] = 1
                    t[p] += 1
                    targets.append(t)
        pool = np.repeat(np.arange(34), np.minimum(caps, 2))
        n = 13 + int(rng.integers(2))
        h = np.bincount(rng.choice(pool, n, replace=False), minlength=34)
        h = np.minimum(h, caps)
        if h.sum() != n:
            continue
        d = _target_distance(h, targets)
        want = 99 if d is None else max(-1, d - 1)
        assert core(h, ORPHANS, False, caps) == want, (h.tolist(), caps.tolist())


def test_honors_and_knitted_within_caps_brute_force():
    rng = np.random.default_rng(9)
    suits = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    for _ in range(150):
        caps = np.full(34, 4, np.int64)
        caps[rng.choice(34, 4, replace=False)] = 0
        targets = []
        for perm in suits:
            kinds = [perm[j] * 9 + j + 3 * r for j in range(3) for r in range(3)]
            kinds += list(range(27, 34))
            ok = [k for k in kinds if caps[k] >= 1]
            for combo in combinations(ok, 14):
                t = np.zeros(34, np.int64)
                t[list(combo)] = 1
                targets.append(t)
        pool = np.repeat(np.arange(34), caps)
        n = 13 + int(rng.integers(2))
        h = np.bincount(rng.choice(pool, n, replace=False), minlength=34)
        d = _target_distance(h, targets)
        want = 99 if d is None else max(-1, d - 1)
        assert core(h, HK, False, caps) == want, (h.tolist(), caps.tolist())


def test_whole_hand_forms_need_four_sets():
    # caps alone (a tile set) no longer switch seven pairs off; a 10-tile concealed
    # vector (a hand with a meld) never uses them
    h = np.zeros(34, np.int64)
    for k in (0, 2, 4, 6, 10, 12, 14):
        h[k] = 2
    assert core(h, SEVEN, caps=_core_C136) == -1
    assert core(h, SEVEN, caps=_core_C108) == -1
    h2 = h.copy()
    h2[[12, 14]] = 0
    assert core(h2, SEVEN, caps=_core_C136) == 99


# ============================================================ properties
hands14 = st.lists(st.integers(0, 135), min_size=14, max_size=14, unique=True).map(
    lambda ts: np.bincount(np.array(ts) // 4, minlength=34))


@settings(max_examples=300, deadline=None)
@given(hands14, st.integers(0, 1), st.integers(0, (1 << 34) - 1), st.integers(1, 7),
       st.booleans())
def test_constraints_never_lower_shanten(h, drop, pm, void, quads):
    if drop:
        h = h.copy()
        h[int(np.flatnonzero(h)[0])] -= 1
    mask = REGULAR | SEVEN | ORPHANS
    base = core(h, mask, quads)
    with_pair = core(h, mask, quads, pair_mask=pm)
    with_void = core(h, mask, quads, void_suits=void)
    both = core(h, mask, quads, pair_mask=pm, void_suits=void)
    assert base <= with_pair <= both
    assert base <= with_void <= both
    # fewer copies available never helps either
    caps = np.maximum(h, 4 - (np.arange(34) % 3 == 0))
    assert core(h, mask, quads, caps=caps) >= base
    assert core(h, mask, quads, caps=caps, pair_mask=pm, void_suits=void) >= both


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2), st.lists(st.integers(0, 35), min_size=13, max_size=14),
       st.booleans())
def test_void_is_free_for_a_one_suit_hand(suit, ranks, honors):
    tiles = [9 * suit + r // 4 for r in ranks]
    if honors:                      # honors do not belong to a suit
        tiles[:3] = [27, 27, 33]
    h = np.bincount(tiles, minlength=34)
    if h.max() > 4:
        return
    assert core(h, void_suits=7) == core(h)
    assert core(h, void_suits=7, pair_mask=P258) == core(h, pair_mask=P258)


def test_no_restriction_values_mean_none():
    rng = np.random.default_rng(1)
    for _ in range(200):
        h = np.bincount(rng.choice(136, 14, replace=False) // 4, minlength=34)
        want = core(h)
        assert core(h, pair_mask=(1 << 34) - 1) == want
        assert core(h, pair_mask=(1 << 64) - 1) == want
        assert core(h, caps=_core_C136) == want


def test_batch_kernel_with_options_matches_single():
    rng = np.random.default_rng(4)
    rows = np.array([np.bincount(rng.choice(108, 14, replace=False) // 4, minlength=34)
                     for _ in range(500)], dtype=np.uint8)
    out = np.empty(500, np.int8)
    assert E.shanten_many(rows, 3, True, out, caps=_core_C108.astype(np.uint8), pair_mask=P258,
                          void_suits=7) == -1
    for i in range(500):
        assert out[i] == core(rows[i], 3, True, _core_C108, P258, 7)


# ============================================================ public API under rulesets
def _hand_text(c):
    from majiang.tiles import format_counts
    return format_counts(np.asarray(c, dtype=np.uint8))


@pytest.mark.parametrize("name", ["sichuan", "kawuxing"])
def test_ruleset_shanten_matches_shapes_engine(name):
    # changsha (pair_258_small: small and big-win shapes) is checked against THE win
    # predicate in tests/test_changsha_shapes.py; the shapes engine does not model it
    rs = get_ruleset(name)
    rng = np.random.default_rng(7)
    for i in range(60):
        c, melds, caps = random_case(rng, np.asarray(rs.copies, np.int64), 0)
        text = _hand_text(c)
        assert mj.shanten(text, ruleset=name) == shapes.ruleset_shanten(text, rs)


@pytest.mark.parametrize("name", ["sichuan", "kawuxing"])
def test_ruleset_ukeire_and_discard_table_match_shapes_engine(name):
    rs = get_ruleset(name)
    rng = np.random.default_rng(17)
    cols = ["discard", "shanten", "ukeire_kinds", "ukeire_count", "ukeire"]
    for i in range(12):
        c, melds, caps = random_case(rng, np.asarray(rs.copies, np.int64), 0)
        if c.sum() == 13:
            text = _hand_text(c)
            assert mj.ukeire(text, ruleset=name) == shapes.ruleset_ukeire(text, rs)
        else:
            text = _hand_text(c)
            got = mj.discard_table(text, ruleset=name, second_order=False)
            want = shapes.ruleset_discard_table(text, rs)
            assert got[cols].equals(want[cols])


def test_sichuan_meld_suit_counts_toward_the_void():
    # [111m] holds 万, so the hand must lack 筒 or 条: the tenpai shape 456p789p234s+5s
    # cannot win.  Without 条: 456p789p kept (6 of 11 tiles) -> 5 to draw -> 4-shanten.
    hand = "[111m]456p789p234s5s"
    assert mj.shanten(hand) == 0
    assert mj.shanten(hand, ruleset="sichuan") == 4
    # only 万/筒 draws can help (条 must go), so 5s is no longer a wait
    live = mj.ukeire(hand, ruleset="sichuan")
    assert live and all(t[-1] in "mp" for t in live)
    # a meld in a suit the concealed tiles also hold: the other suit can still be void
    assert mj.shanten("[111m]123m456m789m5s", ruleset="sichuan") == 0
    # without 筒: 123m 789s 5s kept, 7 of 11 -> 4 to draw -> 3-shanten (without 条: 6 kept)
    assert mj.shanten("[111m]123m456p789s5s", ruleset="sichuan") == 3


def test_sichuan_examples_from_issue():
    assert mj.shanten("123m456p789s1155s", ruleset="sichuan") == 3
    assert mj.shanten("123m456p789s1155s") == 0


def test_batch_under_ruleset():
    rng = np.random.default_rng(12)
    rows = np.array([np.bincount(rng.choice(108, 13, replace=False) // 4, minlength=34)
                     for _ in range(100)], dtype=np.uint8)
    got = mj.shanten_batch(rows, ruleset="sichuan")
    rs = get_ruleset("sichuan")
    for i in range(0, 100, 10):
        assert got[i] == shapes.ruleset_shanten(rows[i], rs)
    bad = rows.copy()
    bad[3] = np.bincount([0, 1, 2, 12, 13, 14, 24, 25, 26, 9, 9, 10, 30], minlength=34)
    with pytest.raises(InvalidHandError, match="row 3"):
        mj.shanten_batch(bad, ruleset="sichuan")


def test_tile_outside_the_tile_set_is_an_error():
    with pytest.raises(InvalidHandError, match="tile set"):
        mj.shanten("123m456p789s1155z", ruleset="sichuan")
    with pytest.raises(InvalidHandError, match="tile set"):
        mj.ukeire("123m456p789s1155s", ruleset="kawuxing")


# ============================================================ jokers keyword == '*'
def test_jokers_keyword_counts_toward_the_hand():
    twelve = "123m456p789s112z"
    assert mj.shanten(twelve, jokers=1) == mj.shanten(twelve + "*") == 0
    assert mj.shanten("123m456p789s11z", jokers=3) == mj.shanten("123m456p789s11z***") == -1
    assert mj.shanten("123m456p789s11z", jokers=2) == mj.shanten("123m456p789s11z**") == 0
    assert mj.ukeire("123m456p789s12z", jokers=2) == mj.ukeire("123m456p789s12z**")
    assert mj.ukeire("123m456p789s12z", jokers=2)          # 1z, 2z and more are waits
    a = mj.discard_table("123m456p789s112z", jokers=2)
    b = mj.discard_table("123m456p789s112z**")
    assert a.equals(b)
    # a Hand, and a hand with a meld
    h = mj.parse_hand("123m456p789s1122z")
    assert mj.shanten(h, jokers=1) == mj.shanten("123m456p789s1122z*")
    assert mj.shanten("[123m]456p789s112z", jokers=1) == mj.shanten("[123m]456p789s112z*")
    # a count vector of 12 tiles + 1 joker
    c = np.bincount([0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27, 28], minlength=34)
    assert mj.shanten(c.tolist(), jokers=1) == mj.shanten(twelve + "*")
    with pytest.raises(InvalidHandError):
        mj.shanten(twelve, jokers=3)          # 15 tiles

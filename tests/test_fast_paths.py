"""The quick paths of issue 12 give exactly what the validating routes give.

Each quick path (direct parsing of ASCII text in the core, trusted Hand construction,
list fast paths, the string / Hand routes of ``shanten``, the ukeire kernel) is
compared with the route it short-cuts -- the same public function with the quick path
switched off (monkeypatched to "not handled") -- on random inputs, valid and invalid:
same value, or same exception type and message.  A 5k fast variant runs always; the
100k variant is marked slow.
"""
from __future__ import annotations

import numpy as np
import pytest

import majiang
from majiang import efficiency, hand as hand_mod, tiles as tiles_mod
from majiang.errors import MahjongError

FAST_N = 5_000
SLOW_N = 100_000

_SUIT = "mpsz"


def _outcome(fn, *args, **kw):
    try:
        r = fn(*args, **kw)
    except MahjongError as e:
        return ("error", type(e).__name__, str(e))
    if isinstance(r, np.ndarray):
        return ("array", r.dtype.str, r.tolist(), r.flags.writeable)
    if type(r).__name__ == "DataFrame":
        return ("frame", r)
    if isinstance(r, majiang.Hand):
        return ("hand", r.concealed.tolist(), r.concealed.flags.writeable, r.melds,
                r.flowers, r.jokers, r.concealed.dtype.str)
    return ("value", r)


def _group_text(rng, kinds: list[int]) -> str:
    """Tenhou text of tile kinds, grouped by suit in random runs, red fives sometimes."""
    out = []
    order = list(kinds)
    rng.shuffle(order)
    i = 0
    while i < len(order):
        run = order[i:i + int(rng.integers(1, 5))]
        i += len(run)
        for suit in range(4):
            ds = []
            for k in run:
                if k // 9 == suit if k < 27 else suit == 3:
                    r = k - 9 * suit + 1
                    ds.append("0" if r == 5 and suit < 3 and rng.random() < 0.2 else str(r))
            if ds:
                out.append("".join(ds) + _SUIT[suit])
        if rng.random() < 0.3:
            out.append(" ")
    return "".join(out)


def _meld_text(rng, used: np.ndarray) -> str | None:
    for _ in range(10):
        kind = rng.integers(0, 4)
        if kind == 0:
            s = int(rng.integers(0, 3))
            t = 9 * s + int(rng.integers(0, 7))
            ks = [t, t + 1, t + 2]
        else:
            t = int(rng.integers(0, 34))
            ks = [t] * (3 if kind == 1 else 4)
        if all(used[k] + ks.count(k) <= 4 for k in set(ks)):
            for k in ks:
                used[k] += 1
            body = _group_text(rng, ks).replace(" ", "")
            return ("{" + body + "}") if kind == 3 else ("[" + body + "]")
    return None


def _random_hand_text(rng) -> str:
    """Mostly valid hand text (plain, with melds, flowers, jokers), sometimes broken."""
    used = np.zeros(34, np.int64)
    n_melds = int(rng.choice([0, 0, 0, 1, 2, 3, 4]))
    melds = [m for m in (_meld_text(rng, used) for _ in range(n_melds)) if m]
    size = int(rng.choice([13, 14, 13, 14, 16, 17, 12, 15, 11]))
    n_jokers = int(rng.choice([0, 0, 0, 0, 1, 2, 9]))
    n = max(0, size - 3 * len(melds) - min(n_jokers, 3))
    wall = np.repeat(np.arange(34), 4 - used)
    kinds = rng.choice(wall, size=min(n, len(wall)), replace=False).tolist()
    if rng.random() < 0.03 and kinds:       # a fifth copy
        kinds += [kinds[0]] * 4
    parts = [_group_text(rng, kinds)] + melds
    if n_jokers:
        parts.insert(int(rng.integers(0, len(parts) + 1)), "*" * min(n_jokers, 3)
                     if n_jokers < 9 else "*" * 9)
    if rng.random() < 0.2:
        fl = rng.choice(8, size=int(rng.integers(1, 4)), replace=rng.random() < 0.2) + 1
        parts.append("".join(map(str, fl)) + "f")
    rng.shuffle(parts)
    text = " ".join(parts) if rng.random() < 0.7 else "".join(parts)
    r = rng.random()
    if r < 0.08:        # corrupt one character
        pos = int(rng.integers(0, len(text) + 1))
        bad = str(rng.choice(list("x[]{}8z0*f 9 \t东M")))
        text = text[:pos] + bad + text[pos:]
    elif r < 0.12 and text:
        pos = int(rng.integers(0, len(text)))
        text = text[:pos] + text[pos + 1:]
    return text


def _texts(n: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    return [_random_hand_text(rng) for _ in range(n)]


@pytest.fixture
def slow_routes(monkeypatch):
    """Switch every quick path off: the routes as they were before issue 12."""
    def off(monkeypatch):
        monkeypatch.setattr(hand_mod, "_parse_text", lambda s: None)
        monkeypatch.setattr(tiles_mod, "_plain_counts", lambda s, readonly=False: None)
        monkeypatch.setattr(tiles_mod, "_tile_list_counts", lambda x: None)
        monkeypatch.setattr(tiles_mod, "_list_counts", lambda x: None)
    return off


def _compare_parsing(n: int, seed: int, monkeypatch, off) -> None:
    texts = _texts(n, seed)
    calls = [
        (majiang.parse_hand, {}), (majiang.parse_hand, {"strict": False}),
        (majiang.parse_hand, {"hand_size": 13}), (majiang.parse_hand, {"hand_size": 16}),
        (majiang.as_hand, {}), (majiang.parse_counts, {}), (majiang.counts_from_tiles, {}),
        (majiang.as_counts, {}),
    ]
    fast = [[_outcome(f, t, **kw) for f, kw in calls] for t in texts]
    off(monkeypatch)
    slow = [[_outcome(f, t, **kw) for f, kw in calls] for t in texts]
    n_ok = 0
    for t, a, b in zip(texts, fast, slow):
        assert a == b, t
        n_ok += a[0][0] == "hand"
    assert n_ok > n // 4        # the sample holds many valid hands, not only errors


def test_parsing_matches_validating_route(slow_routes, monkeypatch):
    _compare_parsing(FAST_N, 1, monkeypatch, slow_routes)


@pytest.mark.slow
def test_parsing_matches_validating_route_100k(slow_routes, monkeypatch):
    _compare_parsing(SLOW_N, 2, monkeypatch, slow_routes)


def test_parsed_hand_equals_its_parts():
    """Independent of either route: the hand built from what the text says."""
    h = majiang.parse_hand("23m0p56p11z [555z] {6666m} [3m12m] 51f *")
    assert h.concealed.tolist() == np.bincount([1, 2, 13, 13, 14, 27, 27],
                                               minlength=34).tolist()
    assert h.melds == (majiang.Meld("pung", 31), majiang.Meld("kong", 5, concealed=True),
                       majiang.Meld("chow", 0))
    assert h.flowers == (0, 4) and h.jokers == 1
    assert not h.concealed.flags.writeable
    with pytest.raises(ValueError):
        h.concealed[0] = 1
    assert h == majiang.Hand(h.concealed, h.melds, (4, 0), 1)
    assert hash(h) == hash(majiang.Hand(h.concealed, h.melds, (4, 0), 1))
    import pickle
    assert pickle.loads(pickle.dumps(h)) == h


def _random_lists(rng, n):
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.5:
            out.append(rng.integers(0, 34, size=int(rng.integers(0, 18))).tolist())
        elif r < 0.8:
            out.append(rng.integers(0, 5 if rng.random() < 0.9 else 6, size=34).tolist())
        elif r < 0.9:
            x = rng.integers(0, 5, size=34).tolist()
            x[int(rng.integers(0, 34))] = [True, -1, 2 ** 70, 1.0, "1"][int(rng.integers(0, 5))]
            out.append(x)
        else:
            out.append(tuple(rng.integers(-1, 35, size=int(rng.integers(0, 6))).tolist()))
    return out


@pytest.mark.parametrize("n", [FAST_N, pytest.param(SLOW_N, marks=pytest.mark.slow)])
def test_list_paths_match(n, slow_routes, monkeypatch):
    xs = _random_lists(np.random.default_rng(3), n)
    calls = (majiang.as_counts, majiang.counts_from_tiles, majiang.as_hand)
    fast = [[_outcome(f, x) for f in calls] for x in xs]
    slow_routes(monkeypatch)
    slow = [[_outcome(f, x) for f in calls] for x in xs]
    for x, a, b in zip(xs, fast, slow):
        assert a == b, x


def _shanten_outcomes(texts):
    out = []
    for t in texts:
        row = []
        for kw in ({}, {"ruleset": "mcr"}, {"forms": ("regular",)}, {"ruleset": "taiwan"},
                   {"seven_pairs_quads": False}, {"ruleset": "plain"}):
            row.append(_outcome(majiang.shanten, t, **kw))
        try:
            h = majiang.parse_hand(t)
        except MahjongError:
            h = None
        row.append(None if h is None else _outcome(majiang.shanten, h))
        row.append(None if h is None else _outcome(majiang.shanten, h, ruleset="taiwan"))
        row.append(_outcome(majiang.ukeire, t))
        row.append(None if h is None else _outcome(majiang.ukeire, h))
        row.append(_outcome(majiang.ukeire, t, ruleset="plain"))
        out.append(row)
    return out


@pytest.mark.parametrize("n", [FAST_N, pytest.param(SLOW_N, marks=pytest.mark.slow)])
def test_shanten_of_text_and_hand_match(n, slow_routes, monkeypatch):
    texts = _texts(n, 4)
    fast = _shanten_outcomes(texts)
    slow_routes(monkeypatch)
    for mod in (efficiency._api, efficiency._b258):     # where the quick paths read it
        monkeypatch.setattr(mod, "_plain_counts", lambda s, readonly=False: None)
    monkeypatch.setattr(efficiency._eff, "ukeire_fast", lambda *a: None)
    monkeypatch.setattr(efficiency._eff, "shanten_fast", _vector_only_fast(
        efficiency._eff.shanten_fast))
    slow = _shanten_outcomes(texts)
    for t, a, b in zip(texts, fast, slow):
        assert a == b, t


def _vector_only_fast(f):
    def g(hand, mask, quads, need=0):
        if isinstance(hand, str) or need:
            return -200
        return f(hand, mask, quads)
    return g


def test_shanten_of_text_against_xiangting():
    """An independent oracle for the string route (xiangting: regular + seven pairs +
    thirteen orphans, exact about the 4-copy limit)."""
    xiangting = pytest.importorskip("xiangting")
    rng = np.random.default_rng(5)
    wall = np.repeat(np.arange(34), 4)
    for _ in range(2000):
        ks = rng.choice(wall, size=int(rng.choice([13, 14])), replace=False).tolist()
        c = np.bincount(ks, minlength=34)
        text = _group_text(rng, ks)
        want = xiangting.calculate_replacement_number(c.tolist(),
                                                      xiangting.PlayerCount.FOUR) - 1
        assert majiang.shanten(text, ruleset="plain") == want, text


def _random_vectors(rng, n):
    wall = np.repeat(np.arange(34), 4)
    out = []
    for _ in range(n):
        size = int(rng.choice([13, 13, 13, 10, 7, 4, 1, 14, 16, 12]))
        if rng.random() < 0.5:      # concentrated: long suits, quads, 15-tile groups
            lo = 9 * int(rng.integers(0, 3))
            pool = (np.repeat(np.arange(lo, lo + 9), 4) if rng.random() < 0.3
                    else wall[4 * lo:4 * lo + 72])
            kinds = rng.choice(pool, size=size, replace=False)
        else:
            kinds = rng.choice(wall, size=size, replace=False)
        c = np.bincount(np.minimum(kinds, 33), minlength=34)
        if rng.random() < 0.02:
            c[int(rng.integers(0, 34))] = 5
        out.append(np.ascontiguousarray(c, dtype=np.uint8))
    return out


def _ukeire_outcomes(vectors):
    return [[_outcome(majiang.ukeire, c), _outcome(majiang.ukeire, c, seven_pairs_quads=False),
             _outcome(majiang.ukeire, c, ruleset="plain")]
            for c in vectors]


@pytest.mark.parametrize("n", [FAST_N, pytest.param(SLOW_N, marks=pytest.mark.slow)])
def test_ukeire_of_vector_matches(n, monkeypatch):
    vectors = _random_vectors(np.random.default_rng(6), n)
    fast = _ukeire_outcomes(vectors)
    monkeypatch.setattr(efficiency._eff, "ukeire_fast", lambda *a: None)
    slow = _ukeire_outcomes(vectors)
    n_dict = 0
    for c, a, b in zip(vectors, fast, slow):
        assert a == b, c.tolist()
        n_dict += a[0][0] == "value"
    assert n_dict > n // 2


def test_ukeire_of_vector_by_brute_force():
    """Independent of the kernel's ukeire: a draw is effective when the shanten of the
    hand plus that tile (computed by the direct programme: caps of 4 force it) drops."""
    caps4 = np.full(34, 4, np.uint8)
    rng = np.random.default_rng(7)
    for c in _random_vectors(rng, 400):
        n = int(c.sum())
        if n % 3 != 1 or c.max() > 4 or n > 13:
            continue
        got = majiang.ukeire(c, ruleset="plain")        # forms 1|2|4, distinct pairs
        s0 = efficiency._eff.shanten_one(c, 7, False, caps4)
        want = {}
        for k in range(34):
            if c[k] < 4:
                d = c.copy()
                d[k] += 1
                if efficiency._eff.shanten_one(d, 7, False, caps4) < s0:
                    want[majiang.tile_name(k)] = 4 - int(c[k])
        assert got == want, c.tolist()


# --------------------------------------------------------------------------- table cache

_CACHE_PROBE = r"""
import sys, numpy as np
from majiang._core import efficiency as e
e.build_tables()
rng = np.random.default_rng(8)
wall = np.repeat(np.arange(34), 4)
rows = np.stack([np.bincount(rng.choice(wall, 13 + (i % 2), replace=False), minlength=34)
                 for i in range(3000)]).astype(np.uint8)
out = np.empty(len(rows), np.int8)
e.shanten_many(rows, 7, False, out)
caps4 = np.full(34, 4, np.uint8)    # the direct programme: no table involved
ref = np.array([e.shanten_one(r, 7, False, caps4) for r in rows[:300]], np.int8)
assert (out[:300] == ref).all()
print(e.TABLE_SOURCE, e.cache_file(), out.tobytes().hex())
"""


def _probe(env_dir):
    import os
    import subprocess
    import sys
    env = dict(os.environ)
    if env_dir is None:
        env.pop("MAJIANG_CACHE_DIR", None)
    else:
        env["MAJIANG_CACHE_DIR"] = str(env_dir)
    r = subprocess.run([sys.executable, "-c", _CACHE_PROBE], env=env, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    source, path, values = r.stdout.split()
    return source, path, values


def test_table_cache_built_loaded_and_rebuilt(tmp_path):
    src1, path, v1 = _probe(tmp_path)
    assert src1 == "built" and path.startswith(str(tmp_path))
    from pathlib import Path
    f = Path(path)
    assert f.is_file() and not list(tmp_path.glob(".tables-*"))   # no temp file left
    src2, _, v2 = _probe(tmp_path)
    assert src2 == "cache" and v2 == v1
    # a corrupt payload byte: detected by the checksum, rebuilt, rewritten
    data = bytearray(f.read_bytes())
    data[len(data) // 2] ^= 0xFF
    f.write_bytes(bytes(data))
    src3, _, v3 = _probe(tmp_path)
    assert src3 == "built" and v3 == v1
    assert _probe(tmp_path)[0] == "cache"
    # a stale key (another build of the core): rebuilt
    data = bytearray(f.read_bytes())
    data[10] ^= 0xFF
    f.write_bytes(bytes(data))
    assert _probe(tmp_path)[0] == "built"
    # truncated
    f.write_bytes(f.read_bytes()[:1000])
    src4, _, v4 = _probe(tmp_path)
    assert src4 == "built" and v4 == v1


def test_table_cache_unwritable_or_disabled(tmp_path):
    blocker = tmp_path / "not_a_dir"
    blocker.write_text("x")
    src, _, v = _probe(blocker / "sub")         # cannot create the directory
    assert src == "built"
    src_off, path_off, v_off = _probe("")       # disabled
    assert src_off == "built" and path_off == "None" and v_off == v


# --------------------------------------------------------------------------- batch kernel

def _random_rows(rng, n):
    rows = np.zeros((n, 34), np.uint8)
    wall = np.repeat(np.arange(34), 4)
    for i in range(n):
        size = int(rng.choice([13, 14, 13, 14, 1, 2, 4, 5, 7, 8, 10, 11, 16, 17, 12, 15]))
        if rng.random() < 0.3:              # one or two suits: long groups, quads
            lo = 9 * int(rng.integers(0, 3))
            pool = wall[4 * lo:4 * lo + (36 if rng.random() < 0.5 else 72)]
        else:
            pool = wall
        rows[i] = np.bincount(rng.choice(pool, size=min(size, len(pool)), replace=False),
                              minlength=34)
        if rng.random() < 0.01:
            rows[i, int(rng.integers(0, 34))] = 5
    return rows


def _batch_matches(n, seed):
    """The batch kernel (branchless min-plus by set count, clamped indices) against the
    per-row route of the validating wrapper with caps of 4 -- the old index and min-plus
    code -- for every form mask, with and without quads."""
    rows = _random_rows(np.random.default_rng(seed), n)
    caps4 = np.full(34, 4, np.uint8)
    eff = efficiency._eff
    for mask in (1, 7, 2, 4, 6, 31, 25):
        for quads in (False, True):
            out = np.empty(n, np.int8)
            eff.shanten_many(rows, mask, quads, out)
            ref = np.array([eff.shanten_one(r, mask, quads, caps4) for r in rows])
            ref[ref < -1] = -128        # error codes, as the batch kernel writes them
            assert np.array_equal(out.astype(int), ref), (mask, quads)


def test_batch_kernel_matches_reference_route():
    _batch_matches(FAST_N, 9)


@pytest.mark.slow
def test_batch_kernel_matches_reference_route_100k():
    _batch_matches(SLOW_N, 10)


def test_batch_against_xiangting_and_threads():
    xiangting = pytest.importorskip("xiangting")
    rows = _random_rows(np.random.default_rng(11), 20_000)
    n = rows.sum(axis=1)
    ok = (rows.max(axis=1) <= 4) & (n % 3 != 0) & (n <= 14)
    rows = np.ascontiguousarray(rows[ok])
    got = majiang.shanten_batch(rows, ruleset="plain")
    four = xiangting.PlayerCount.FOUR
    want = [xiangting.calculate_replacement_number(r.tolist(), four) - 1 for r in rows]
    assert got.tolist() == want
    assert np.array_equal(majiang.shanten_batch(rows, n_jobs=None, ruleset="plain"), got)
    assert np.array_equal(majiang.shanten_batch(rows, n_jobs=2, ruleset="plain"), got)
    bad = rows.copy()
    bad[len(bad) - 3, 0] = 5
    with pytest.raises(majiang.InvalidHandError, match=f"row {len(bad) - 3}: "):
        majiang.shanten_batch(bad, n_jobs=2)


# --------------------------------------------------------------------------- discard tables

def _table_cases(rng, n):
    wall = np.repeat(np.arange(34), 4)
    cases = []
    for i in range(n):
        size = int(rng.choice([14, 14, 14, 11, 8, 5, 2]))
        ks = rng.choice(wall, size=size, replace=False)
        c = np.bincount(ks, minlength=34).astype(np.uint8)
        vis = None
        if rng.random() < 0.3:
            left = (4 - c).astype(np.int64)
            vis = np.minimum(left, rng.integers(0, 3, size=34) * (rng.random(34) < 0.3))
            vis = vis.astype(np.uint8)
        kw = [{}, {"seven_pairs_quads": False}, {"ruleset": "mcr"}, {"ruleset": "sichuan"},
              {"forms": ("regular",)}, {"ruleset": "plain"}][int(rng.integers(0, 6))]
        if kw.get("ruleset") == "sichuan":
            c[27:] = 0
            if c.sum() % 3 != 2:
                continue
            if vis is not None:
                vis[27:] = 0
        hand = majiang.format_counts(c) if size == 14 and rng.random() < 0.5 else c
        cases.append((hand, vis, kw))
    return cases


def _tables_match(n, n_second, seed):
    import pandas as pd
    cases = _table_cases(np.random.default_rng(seed), n)
    n_frames = 0
    for i, (hand, vis, kw) in enumerate(cases):
        second = i < n_second
        a = _outcome(majiang.discard_table, hand, vis, second_order=second, **kw)
        b = _outcome(efficiency._discard_table_rows, hand, vis, second_order=second, **kw)
        if a[0] == "error" or b[0] == "error":
            assert a == b
        else:
            pd.testing.assert_frame_equal(a[1], b[1])
            n_frames += 1
    assert n_frames > n // 2


def test_discard_table_matches_row_route():
    _tables_match(3000, 150, 12)


def test_discard_table_public_constructor_fallback(monkeypatch):
    """Without pandas' DataFrame._from_arrays the table comes from the public constructor,
    and both routes give the row route's frame (values, dtypes, index)."""
    import pandas as pd

    def gone(*a, **k):
        raise AttributeError("no _from_arrays in this pandas")

    monkeypatch.setattr(pd.DataFrame, "_from_arrays", gone, raising=False)
    _tables_match(300, 20, 14)


@pytest.mark.slow
def test_discard_table_matches_row_route_100k():
    _tables_match(SLOW_N, 3000, 13)


def test_auto_threads_follow_free_cores(monkeypatch):
    """n_jobs=None counts only the cores other processes leave free (load average)."""
    import os
    for load, want in ((0.0, 2), (1.0, 2), (1.6, 1), (6.0, 1)):
        monkeypatch.setattr(os, "getloadavg", lambda load=load: (load, load, load))
        assert efficiency._spare_cores(2) == want
    monkeypatch.setattr(os, "getloadavg", lambda: (_ for _ in ()).throw(OSError()))
    assert efficiency._spare_cores(4) == 4



# ------------------------------------------- knitted forms on the table routes (issue 17)

def _near_knitted(rng, n, size):
    """Hands near 全不靠 / 组合龙: most of a knitted pattern (147 / 258 / 369 in the three
    suits in some order), some honors, the rest random; at most 4 of a kind."""
    out = []
    while len(out) < n:
        order = rng.permutation(3)
        knit = [9 * int(order[j]) + j + 3 * r for j in range(3) for r in range(3)]
        keep = list(rng.choice(knit, size=int(rng.integers(5, 10)), replace=False))
        honors = list(rng.choice(np.arange(27, 34), size=int(rng.integers(0, 6)),
                                 replace=False))
        ks = (keep + honors)[:size]
        while len(ks) < size:
            ks.append(int(rng.integers(0, 34)))
        c = np.bincount(ks, minlength=34)
        if c.max() <= 4:
            out.append(np.ascontiguousarray(c, dtype=np.uint8))
    return out


def test_knitted_forms_on_the_table_routes():
    """ukeire and discard tables with the knitted forms (the default, Chinese Official)
    against the general route: the ukeire by adding each tile and asking the validating
    per-hand shanten (caps of 4 force it), the discard table against its row route."""
    import pandas as pd
    rng = np.random.default_rng(17)
    caps4 = np.full(34, 4, np.uint8)
    mask = 1 | 2 | 4 | 8 | 16
    # 13 tiles, and 10 (a partial vector: 组合龙 with no set, no whole-hand forms)
    for c in (_near_knitted(rng, 600, 13) + _near_knitted(rng, 200, 10)
              + _random_vectors(rng, 300)):
        if int(c.sum()) not in (10, 13) or c.max() > 4:
            continue
        s0 = efficiency._eff.shanten_one(c, mask, True, caps4)
        want = {}
        for k in range(34):
            if c[k] < 4:
                d = c.copy()
                d[k] += 1
                if efficiency._eff.shanten_one(d, mask, True, caps4) < s0:
                    want[majiang.tile_name(k)] = 4 - int(c[k])
        assert majiang.ukeire(c) == want, c.tolist()
        assert majiang.shanten(c) == s0
    hands = _near_knitted(rng, 120, 14) + _near_knitted(rng, 60, 11)
    knitted_best = 0
    for i, h in enumerate(hands):
        second = i < 40
        a = majiang.discard_table(h, second_order=second)
        b = efficiency._discard_table_rows(h, second_order=second)
        pd.testing.assert_frame_equal(a, b)
        knitted_best += (majiang.shanten(h) < majiang.shanten(h, forms=(
            "regular", "seven_pairs", "thirteen_orphans")))
    assert knitted_best > 20          # the knitted forms decide many of these hands

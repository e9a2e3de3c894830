"""Adapters to other shanten calculators ("peers"), used as differential oracles and benchmarks.

Every adapter takes one count vector in majiang's kind order (numpy ``uint8`` of shape
``(34,)``: 1-9m, 1-9p, 1-9s, 1z-7z = E S W N White Green Red) and returns the peer's
shanten as an ``int`` (-1 complete, 0 tenpai). ``*_batch`` helpers loop over an ``(N, 34)``
array and return ``int8`` of shape ``(N,)``. The peers are optional (``pip install .[bench]``);
:func:`available` tells which import. Facts below were checked with the listed versions by
introspection and on probe hands (see ``tests/test_differential.py``).

xiangting 6.0.2 (Rust, Nyanten algorithm)
    ``calculate_replacement_number(bingpai, PlayerCount.FOUR)`` returns shanten + 1 for the
    **minimum over regular + seven pairs (distinct pairs: a quad is one pair) + thirteen
    orphans**. The per-form functions exist in the Rust crate but are private: the Python
    API gives only the minimum. There is no fulu/meld argument any more (it was removed in
    5.x): melds are implied by the tile count (3n+1 / 3n+2 tiles = 4-n melds already
    called), and with fewer than 13/14 tiles only the regular form is considered. There is
    no seven-pairs-with-quads variant; ``PlayerCount.THREE`` drops 2m-8m. Accepts a list or
    a numpy array; raises ``ValueError`` on >14 tiles, 3n tiles or >4 copies.
    **Respects the 4-copy limit** exactly ("123456789m1111p" -> 1, "1111m111122233z" -> 1).

riichienv 0.4.11 (Rust, Nyanten tables)
    ``calculate_shanten(tile_ids)`` takes a list of 136-tile ids (``kind * 4 + copy``; only
    ``id // 4`` matters) and returns the **minimum over regular + seven pairs (distinct) +
    thirteen orphans**; ``calculate_shanten_3p`` is the sanma variant. No per-form
    functions, no meld argument (melds implied by tile count). It does not validate: any
    tile count is accepted (12 or 16 tiles give a number) and five copies of a kind
    panic (``pyo3_runtime.PanicException``). **Respects the 4-copy limit**.

mahjong 2.1.0 (MahjongRepository, pure Python)
    ``Shanten.calculate_shanten(tiles_34, use_chiitoitsu=True, use_kokushi=True)`` (minimum),
    and per form ``calculate_shanten_for_regular_hand`` (DFS over decompositions, melds
    implied by tile count), ``calculate_shanten_for_chiitoitsu_hand`` (distinct pairs:
    ``6 - pairs + max(0, 7 - kinds)``), ``calculate_shanten_for_kokushi_hand``. Input is a
    34-count list in our kind order. Seven pairs and thirteen orphans are exact closed forms.
    The regular form has ad-hoc 4-copy corrections (flags for quads + isolated tiles); they
    give 1 for "123456789m1111p" and, as far as tested, **respect the 4-copy limit**: the
    regular form equals xiangting on every 1..11-tile hand tried (xiangting is regular-only
    there) and on every 13/14-tile hand where the regular form binds, 4-copy traps included.
    About 40-50 µs per hand.

PyMahjongGB 1.4.0 (module ``MahjongGB``, C++ from ChineseOfficialMahjongHelper)
    Tile codes ``W1-W9`` characters (m), ``B1-B9`` dots (p), ``T1-T9`` bamboo (s), ``F1-F4``
    East South West North, ``J1`` = Red 中, ``J2`` = Green 发, ``J3`` = White 白 (verified
    with the fan calculator: ``J2`` scores All Green, ``J3`` Reversible Tiles; ``F1``-``F4``
    score Seat Wind for seat 0-3). Input is a tuple of tile codes; 13 concealed tiles for the
    special forms, 1/4/7/10/13 for the regular form; **14-tile hands are rejected**
    (``TypeError: ERROR_INVALID_HAND``). ``MahjongShanten(pack, hand)`` -> int, the minimum
    over all five MCR forms; ``RegularShanten``, ``SevenPairsShanten`` (a quad counts as
    **two** pairs, the MCR rule), ``ThirteenOrphansShanten``, ``HonorsAndKnittedTilesShanten``
    (全不靠), ``KnittedStraightShanten`` (组合龙, 10 or 13 tiles) each return
    ``(shanten, useful_tiles)``. The regular form **ignores the 4-copy limit**:
    "123456789m1111p" -> 0 (exact: 1), "1111z2222z3333z4z" -> 2 (exact: 3). Seven pairs with
    quads and thirteen orphans cannot hit the limit, so those are exact.
"""
from __future__ import annotations

import importlib
from typing import Callable

import numpy as np

__all__ = [
    "N_KINDS", "available", "random_hands", "enriched_hands", "four_copy_trap_hands",
    "orphan_rich_hands",
    "to_tenhou", "from_tenhou",
    "to_gb_tiles", "to_tile_ids", "batch",
    "xiangting_shanten", "xiangting_shanten_batch",
    "riichienv_shanten", "riichienv_shanten_batch",
    "mahjong_shanten", "mahjong_regular", "mahjong_seven_pairs", "mahjong_thirteen_orphans",
    "mahjong_shanten_batch",
    "gb_shanten", "gb_regular", "gb_seven_pairs", "gb_thirteen_orphans", "gb_honors_knitted",
    "gb_knitted_straight", "gb_shanten_batch",
    "PEERS",
]

N_KINDS = 34
ORPHANS = np.array([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33])

# --------------------------------------------------------------------------- conversions

_SUIT_OFFSET = {"m": 0, "p": 9, "s": 18, "z": 27}
_SUITS = (("m", 0, 9), ("p", 9, 9), ("s", 18, 9), ("z", 27, 7))


def best_cpu_per_item(fn: Callable, items, repeat: int) -> float:
    """Best over `repeat` runs of the mean seconds per item of ``fn(item)``, in this
    thread's CPU time: on a shared machine other processes preempt us, and wall time
    then measures them (ours and the peers' figures alike are CPU time)."""
    import time
    best = 1e9
    for _ in range(repeat):
        t = time.thread_time()
        for x in items:
            fn(x)
        best = min(best, time.thread_time() - t)
    return best / len(items)


def to_tenhou(counts) -> str:
    """Tenhou notation of a count vector, e.g. ``"123m456p789s1122z"``."""
    c = np.asarray(counts)
    out = []
    for suit, off, n in _SUITS:
        digits = "".join(str(i + 1) * int(c[off + i]) for i in range(n))
        if digits:
            out.append(digits + suit)
    return "".join(out)


def from_tenhou(text: str) -> np.ndarray:
    """Count vector of a plain Tenhou string (``0`` = red five is read as 5); test helper only."""
    c = np.zeros(N_KINDS, np.uint8)
    digits: list[int] = []
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            digits.append(5 if ch == "0" else int(ch))
        elif ch in _SUIT_OFFSET:
            if not digits:
                raise ValueError(f"suit letter {ch!r} without digits in {text!r}")
            for d in digits:
                if ch == "z" and d > 7:
                    raise ValueError(f"no honour {d}z in {text!r}")
                c[_SUIT_OFFSET[ch] + d - 1] += 1
            digits = []
        else:
            raise ValueError(f"bad character {ch!r} in {text!r}")
    if digits:
        raise ValueError(f"trailing digits without suit in {text!r}")
    if (c > 4).any():
        raise ValueError(f"more than 4 copies in {text!r}")
    return c


# PyMahjongGB codes in our kind order: W=characters, B=dots, T=bamboo, F1-4=winds,
# J3=White, J2=Green, J1=Red.
GB_CODES = (
    [f"W{i}" for i in range(1, 10)]
    + [f"B{i}" for i in range(1, 10)]
    + [f"T{i}" for i in range(1, 10)]
    + ["F1", "F2", "F3", "F4", "J3", "J2", "J1"]
)


def to_gb_tiles(counts) -> tuple:
    """PyMahjongGB hand: a tuple of tile codes."""
    c = np.asarray(counts)
    return tuple(GB_CODES[k] for k in np.flatnonzero(c) for _ in range(int(c[k])))


_COPY = np.arange(4, dtype=np.int64)


def to_tile_ids(counts) -> list:
    """136-tile ids (``kind * 4 + copy``) for riichienv."""
    c = np.asarray(counts)
    return np.flatnonzero(_COPY[None, :] < c[:, None]).tolist()


# --------------------------------------------------------------------------- random hands

def random_hands(n: int, size: int, seed=0) -> np.ndarray:
    """``n`` hands of ``size`` tiles drawn without replacement from a 136-tile wall.

    Vectorised: the first ``size`` tiles of a random permutation of the wall, obtained by
    an argpartition of independent uniform keys. Returns ``(n, 34)`` uint8, C-contiguous.
    """
    if not 0 <= size <= 136:
        raise ValueError(f"size must be in 0..136, got {size}")
    rng = np.random.default_rng(seed)
    out = np.zeros((n, N_KINDS), np.uint8)
    chunk = 65536  # bounds memory: keys are chunk x 136 float64
    for start in range(0, n, chunk):
        m = min(chunk, n - start)
        keys = rng.random((m, 136))
        tiles = np.argpartition(keys, size - 1, axis=1)[:, :size] if size else np.empty((m, 0), int)
        flat = (tiles // 4 + np.arange(m)[:, None] * N_KINDS).ravel()
        out[start:start + m] = np.bincount(flat, minlength=m * N_KINDS).reshape(m, N_KINDS)
    return np.ascontiguousarray(out)


def enriched_hands(n: int, size: int, seed=0, n_kinds: int = 8) -> np.ndarray:
    """Hands drawn from a wall restricted to ``n_kinds`` random kinds (4 copies each).

    With few kinds, pairs, triplets and quads are common, so seven pairs is often the
    binding form and the 4-copy limit is often in play.
    """
    if size > 4 * n_kinds:
        raise ValueError("size too large for the restricted wall")
    rng = np.random.default_rng(seed)
    kinds = np.argsort(rng.random((n, N_KINDS)), axis=1)[:, :n_kinds]          # (n, k)
    wall = np.repeat(kinds, 4, axis=1)                                          # (n, 4k)
    order = np.argsort(rng.random(wall.shape), axis=1)[:, :size]
    drawn = np.take_along_axis(wall, order, axis=1)
    flat = (drawn + np.arange(n)[:, None] * N_KINDS).ravel()
    return np.bincount(flat, minlength=n * N_KINDS).reshape(n, N_KINDS).astype(np.uint8)


def four_copy_trap_hands(n: int, size: int, seed=0) -> np.ndarray:
    """Hands that hold all four copies of some kind ``k``, the rest drawn near ``k``.

    The other ``size - 4`` tiles come from the (up to four) kinds within two steps of ``k``
    in its suit plus three random kinds, so ``k`` is often the tile the hand "wants" —
    exactly where a calculator that forgets the 4-copy limit reports a too-small shanten.
    """
    if not 4 <= size <= 14:
        raise ValueError("size must be in 4..14")
    rng = np.random.default_rng(seed)
    k = rng.integers(N_KINDS, size=n)
    # kinds within two steps of k in its suit (-1 where none)
    offs = np.array([-2, -1, 1, 2])
    near = k[:, None] + offs[None, :]
    same_suit = (k[:, None] < 27) & (near // 9 == (k // 9)[:, None]) & (near >= 0) & (near < 27)
    near = np.where(same_suit, near, -1)
    # three random other kinds
    keys = rng.random((n, N_KINDS))
    rows = np.arange(n)[:, None]
    keys[rows, np.where(near >= 0, near, k[:, None])] = np.inf
    keys[np.arange(n), k] = np.inf
    others = np.argpartition(keys, 2, axis=1)[:, :3]
    pool = np.concatenate([near, others], axis=1)                     # (n, 7), -1 = unused
    wall = np.repeat(pool, 4, axis=1)                                  # (n, 28)
    wkeys = np.where(wall >= 0, rng.random(wall.shape), np.inf)
    drawn = np.take_along_axis(wall, np.argpartition(wkeys, size - 5, axis=1)[:, :size - 4], 1)
    flat = (drawn + np.arange(n)[:, None] * N_KINDS).ravel()
    out = np.bincount(flat, minlength=n * N_KINDS).reshape(n, N_KINDS).astype(np.uint8)
    out[np.arange(n), k] = 4
    return out


def orphan_rich_hands(n: int, size: int = 13, seed=0) -> np.ndarray:
    """Hands with many distinct terminals/honours, so thirteen orphans is often binding:
    ``size - d`` distinct orphan kinds (d = 0..3) plus ``d`` tiles from the orphans and
    four simples (2m 5m 5p 5s)."""
    rng = np.random.default_rng(seed)
    out = np.zeros((n, N_KINDS), np.uint8)
    extra_pool = np.concatenate([ORPHANS, [1, 4, 13, 22]])
    for i in range(n):
        d = int(rng.integers(0, 4)) + max(0, size - 13)
        out[i, rng.choice(ORPHANS, min(13, size - d), replace=False)] = 1
        while out[i].sum() < size:
            j = rng.choice(extra_pool)
            if out[i, j] < 4:
                out[i, j] += 1
    return out


# --------------------------------------------------------------------------- adapters

def available(name: str) -> bool:
    """Whether peer module ``name`` ("xiangting", "riichienv", "mahjong", "MahjongGB") imports."""
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


def batch(fn: Callable, counts: np.ndarray) -> np.ndarray:
    """Apply a single-hand adapter to each row of an ``(N, 34)`` array -> int8 ``(N,)``."""
    counts = np.asarray(counts)
    return np.fromiter((fn(row) for row in counts), dtype=np.int8, count=len(counts))


# xiangting -------------------------------------------------------------------

def xiangting_shanten(counts) -> int:
    """xiangting: minimum of regular / seven pairs (distinct) / thirteen orphans."""
    import xiangting
    return xiangting.calculate_replacement_number(counts, xiangting.PlayerCount.FOUR) - 1


def xiangting_shanten_batch(counts: np.ndarray) -> np.ndarray:
    import xiangting
    f = xiangting.calculate_replacement_number
    four = xiangting.PlayerCount.FOUR
    rows = np.asarray(counts).tolist()
    return np.fromiter((f(r, four) for r in rows), dtype=np.int8, count=len(rows)) - np.int8(1)


# riichienv -------------------------------------------------------------------

def riichienv_shanten(counts) -> int:
    """riichienv: minimum of regular / seven pairs (distinct) / thirteen orphans."""
    import riichienv
    return int(riichienv.calculate_shanten(to_tile_ids(counts)))


def riichienv_inputs(counts: np.ndarray) -> list:
    """Pre-converted riichienv inputs (tile-id lists) for a batch."""
    counts = np.asarray(counts)
    mask = _COPY[None, None, :] < counts[:, :, None]                    # (N, 34, 4)
    ids = np.nonzero(mask.reshape(len(counts), -1))[1].tolist()
    ends = np.cumsum(counts.sum(axis=1, dtype=np.int64)).tolist()
    starts = [0] + ends[:-1]
    return [ids[a:b] for a, b in zip(starts, ends)]


def riichienv_shanten_batch(counts: np.ndarray) -> np.ndarray:
    import riichienv
    f = riichienv.calculate_shanten
    ins = riichienv_inputs(counts)
    return np.fromiter((f(r) for r in ins), dtype=np.int8, count=len(ins))


# mahjong ---------------------------------------------------------------------

def _mj():
    from mahjong.shanten import Shanten
    return Shanten


def mahjong_shanten(counts) -> int:
    """mahjong: minimum of regular / chiitoitsu (distinct pairs) / kokushi."""
    return int(_mj().calculate_shanten(np.asarray(counts).tolist()))


def mahjong_regular(counts) -> int:
    return int(_mj().calculate_shanten_for_regular_hand(np.asarray(counts).tolist()))


def mahjong_seven_pairs(counts) -> int:
    return int(_mj().calculate_shanten_for_chiitoitsu_hand(np.asarray(counts).tolist()))


def mahjong_thirteen_orphans(counts) -> int:
    return int(_mj().calculate_shanten_for_kokushi_hand(np.asarray(counts).tolist()))


_MJ_FORMS = {
    "regular": "calculate_shanten_for_regular_hand",
    "seven_pairs": "calculate_shanten_for_chiitoitsu_hand",
    "thirteen_orphans": "calculate_shanten_for_kokushi_hand",
}


def mahjong_shanten_batch(counts: np.ndarray, form: str | None = None) -> np.ndarray:
    """``form`` None = minimum of the three, else one of "regular", "seven_pairs", "thirteen_orphans"."""
    S = _mj()
    f = S.calculate_shanten if form is None else getattr(S, _MJ_FORMS[form])
    rows = np.asarray(counts).tolist()
    return np.fromiter((f(r) for r in rows), dtype=np.int8, count=len(rows))


# PyMahjongGB -----------------------------------------------------------------

def _gb():
    import MahjongGB
    return MahjongGB


def gb_shanten(counts) -> int:
    """PyMahjongGB ``MahjongShanten``: minimum over the five MCR forms (13 tiles, no melds)."""
    return int(_gb().MahjongShanten((), to_gb_tiles(counts)))


def gb_regular(counts) -> int:
    """Regular form; ignores the 4-copy limit. 1/4/7/10/13 tiles."""
    return int(_gb().RegularShanten(to_gb_tiles(counts))[0])


def gb_seven_pairs(counts) -> int:
    """Seven pairs, a quad counts as two pairs (MCR). 13 tiles."""
    return int(_gb().SevenPairsShanten(to_gb_tiles(counts))[0])


def gb_thirteen_orphans(counts) -> int:
    return int(_gb().ThirteenOrphansShanten(to_gb_tiles(counts))[0])


def gb_honors_knitted(counts) -> int:
    """全不靠 honors and knitted tiles. 13 tiles."""
    return int(_gb().HonorsAndKnittedTilesShanten(to_gb_tiles(counts))[0])


def gb_knitted_straight(counts) -> int:
    """组合龙 knitted straight (+ a set and a pair). 10 or 13 tiles."""
    return int(_gb().KnittedStraightShanten(to_gb_tiles(counts))[0])


_GB_FORMS = {
    "regular": "RegularShanten",
    "seven_pairs": "SevenPairsShanten",
    "thirteen_orphans": "ThirteenOrphansShanten",
    "honors_and_knitted": "HonorsAndKnittedTilesShanten",
    "knitted_straight": "KnittedStraightShanten",
}


def _kinds_per_row(counts: np.ndarray) -> tuple[list, np.ndarray]:
    """Flattened kind indices of every tile in a batch, and each row's end offset."""
    counts = np.asarray(counts)
    n = len(counts)
    flat = np.repeat(np.tile(np.arange(N_KINDS), n), counts.ravel().astype(np.int64))
    ends = np.cumsum(counts.sum(axis=1, dtype=np.int64))
    return flat.tolist(), ends.tolist()


def gb_inputs(counts: np.ndarray) -> list:
    """Pre-converted PyMahjongGB inputs (tuples of tile codes) for a batch."""
    flat, ends = _kinds_per_row(counts)
    codes = [GB_CODES[k] for k in flat]
    starts = [0] + ends[:-1]
    return [tuple(codes[a:b]) for a, b in zip(starts, ends)]


def gb_shanten_batch(counts: np.ndarray, form: str | None = None) -> np.ndarray:
    """``form`` None = ``MahjongShanten`` (minimum of five), else one of the five MCR forms."""
    gb = _gb()
    ins = gb_inputs(counts)
    if form is None:
        f = gb.MahjongShanten
        return np.fromiter((f((), h) for h in ins), dtype=np.int8, count=len(ins))
    f = getattr(gb, _GB_FORMS[form])
    return np.fromiter((f(h)[0] for h in ins), dtype=np.int8, count=len(ins))


# --------------------------------------------------------------------------- registry

#: name -> import name, forms of its single (minimum) function, whether it respects the
#: 4-copy limit (empirically), hand sizes it accepts, and its single / batch adapters.
PEERS = {
    "xiangting": dict(module="xiangting", forms=("regular", "seven_pairs", "thirteen_orphans"),
                      four_copy_exact=True, sizes=(13, 14), single=xiangting_shanten,
                      batch=xiangting_shanten_batch),
    "riichienv": dict(module="riichienv", forms=("regular", "seven_pairs", "thirteen_orphans"),
                      four_copy_exact=True, sizes=(13, 14), single=riichienv_shanten,
                      batch=riichienv_shanten_batch),
    "mahjong": dict(module="mahjong", forms=("regular", "seven_pairs", "thirteen_orphans"),
                    four_copy_exact=True, sizes=(13, 14), single=mahjong_shanten,
                    batch=mahjong_shanten_batch),
    "PyMahjongGB": dict(module="MahjongGB",
                        forms=("regular", "seven_pairs", "thirteen_orphans", "honors_and_knitted",
                               "knitted_straight"),
                        four_copy_exact=False, sizes=(13,), single=gb_shanten,
                        batch=gb_shanten_batch),
}

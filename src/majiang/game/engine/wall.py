"""Seeds and walls: the hand's one random stream (:func:`hand_bit_generator`) and the
shuffled physical wall it deals from (:func:`build_wall`)."""
from __future__ import annotations

from typing import Any

import sys

import numpy as np
from numpy.random.bit_generator import ISpawnableSeedSequence

from ..._core import game as _cg
from ..._parallel import as_seed_sequence
from ...errors import RuleError

_LITTLE_ENDIAN = sys.byteorder == "little"      # seed_words gives little-endian words


def hand_seed_sequence(seed: Any, hand: int) -> np.random.SeedSequence:
    """The SeedSequence of hand number ``hand`` of a run seeded with ``seed``:
    ``SeedSequence(seed).spawn(n)[hand]`` for any ``n > hand``."""
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) and seed >= 0:
        return np.random.SeedSequence(int(seed), spawn_key=(int(hand),))
    base = as_seed_sequence(seed)
    return np.random.SeedSequence(base.entropy, spawn_key=tuple(base.spawn_key) + (int(hand),),
                                  pool_size=base.pool_size)


class _HandSeeds(ISpawnableSeedSequence):
    """:func:`hand_seed_sequence` of an int seed with the words a PCG64 seeds from
    computed in C (:func:`majiang._core.game.seed_words`, numpy's own mixing, ~0.3 us
    instead of ~10 us); any other request goes to the SeedSequence itself."""

    __slots__ = ("seed", "hand", "words")

    def __init__(self, seed: int, hand: int):
        self.seed, self.hand = seed, hand
        self.words = np.frombuffer(_cg.seed_words(seed, hand), dtype="<u8")

    def generate_state(self, n_words, dtype=np.uint32):
        if n_words == 4 and dtype is np.uint64:
            return self.words
        return hand_seed_sequence(self.seed, self.hand).generate_state(n_words, dtype)

    def spawn(self, n_children):
        return hand_seed_sequence(self.seed, self.hand).spawn(n_children)


def hand_bit_generator(seed: Any, hand: int) -> np.random.PCG64:
    """The hand's one random stream (numpy PCG64 from :func:`hand_seed_sequence`): it
    shuffles the wall first, then serves every random bot choice in the order the
    hand asks for them (the compiled and the Python loop consume it alike)."""
    if (type(seed) is int and seed >= 0 and type(hand) is int and hand >= 0
            and _LITTLE_ENDIAN):
        return np.random.PCG64(_HandSeeds(seed, hand))
    return np.random.PCG64(hand_seed_sequence(seed, hand))


_TILES: dict = {}


def _sorted_tiles(model) -> np.ndarray:
    got = _TILES.get(id(model))
    if got is not None and got[0] is model:
        return got[1]
    tiles = np.repeat(np.arange(34, dtype=np.int16), np.asarray(model.copies, dtype=np.int64))
    if model.n_flowers:
        tiles = np.concatenate([tiles, np.arange(34, 34 + model.n_flowers, dtype=np.int16)])
    tiles.setflags(write=False)
    _TILES[id(model)] = (model, tiles)
    return tiles


def build_wall(model, rng: np.random.Generator) -> np.ndarray:
    """A shuffled physical wall: ``int16`` array of kinds 0..33 and flowers 34+
    (``rng.permutation`` of the sorted tile set, shuffled in C from the same numbers:
    :func:`majiang._core.game.shuffle_wall`)."""
    w = _sorted_tiles(model).copy()
    _cg.shuffle_wall(w, rng.bit_generator)
    return w


def checked_wall(model, wall) -> np.ndarray:
    """An explicit wall (tests, replays) as a fresh C-contiguous ``int16`` array, both
    loops' one check that it holds each physical tile of the tile set exactly once.

    Raises
    ------
    RuleError
        A tile missing, repeated or outside the tile set.
    """
    w = np.array(wall, dtype=np.int16).ravel()
    expect = _sorted_tiles(model)
    if w.shape != expect.shape or not np.array_equal(np.sort(w), expect):
        raise RuleError(f"an explicit wall must hold each physical tile of {model.ruleset.name} "
                        f"exactly once ({expect.size} tiles: kinds 0..33 by the "
                        f"ruleset's copies, flowers 34..{33 + model.n_flowers})")
    return w


def tile_census(model, seats, aside, rest) -> np.ndarray:
    """Count of every physical tile across the seats' hands, melds, discards (face-down
    ones too, 立四), won tiles and flowers, the tiles set aside and the wall's ``rest`` (``int64 (34 + flowers,)``;
    both loops' final states; equal to :func:`expected_census` in a consistent hand)."""
    m = 34 + model.n_flowers
    c = np.zeros(m, dtype=np.int64)
    for s in seats:
        c[:34] += s.phys
        for md in s.melds:
            for t in md["tiles"]:
                c[t] += 1
        for t in s.flowers + s.discards + s.won_tiles + list(getattr(s, "face_down", ())):
            c[t] += 1
    for t in aside:
        c[t] += 1
    rest = np.asarray(rest, dtype=np.int64)
    if rest.size:
        c += np.bincount(rest, minlength=m)
    return c


def expected_census(model) -> np.ndarray:
    """The tile set's count of every physical tile (``int64 (34 + flowers,)``)."""
    c = np.zeros(34 + model.n_flowers, dtype=np.int64)
    c[:34] = model.copies
    c[34:] = 1
    return c


class _Shuffled:
    """A wall already shuffled from the hand's stream (skips the explicit-wall check)."""

    __slots__ = ("tiles",)

    def __init__(self, tiles):
        self.tiles = tiles

"""One meaning of ``n_jobs`` and ``seed`` in every public function (majiang._parallel).

The functions are found by signature from ``majiang.__all__`` and
``majiang.game.__all__``, so a new public function with ``n_jobs`` or ``seed`` fails
here until it has a small call in :data:`CALLS` (and so is checked like the others).
The expected values are equalities between runs (same seed, any ``n_jobs``; an int
seed, its ``SeedSequence``, a Generator's first draw), never numbers of our own.
"""
from __future__ import annotations

import dataclasses
import functools
import inspect
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import majiang
import majiang.game
from majiang import RuleError
from majiang._parallel import (N_JOBS_DOC, SEED_DOC, available_cores, resolve_n_jobs,
                               spawn_seeds)

HAND13 = "123m456p789s1122z"          # waiting, two draws to a win at most
HAND14 = "1234m456p789s1122z"         # must discard


@functools.lru_cache(maxsize=2)
def _rows(n: int, seed: int = 3) -> np.ndarray:
    rng = np.random.default_rng(seed)
    rows = np.zeros((n, 34), np.uint8)
    idx = np.argsort(rng.random((n, 136)), axis=1)[:, :13] // 4
    for k in range(13):
        np.add.at(rows, (np.arange(n), idx[:, k]), 1)
    return rows


def _score_args():
    from majiang.tiles import counts_from_tiles, parse_tile
    c = counts_from_tiles("123m456m789m123p5p")            # before the win on 5p
    conc = np.repeat(c[None, :], 600, axis=0)               # 600 rows: split over 2 threads
    return (conc, np.full(600, parse_tile("5p"))), {}


def _arena_parts(df):
    """The arena summary and its per-hand table (``attrs["hands"]``, a DataFrame that
    ``attrs`` equality cannot compare)."""
    hands = df.attrs["hands"]
    summary = df.copy()
    summary.attrs = {}
    return {"summary": summary, "hands": hands}


def _table_position():
    return majiang.Position("23345m111p456p99s6m", seat=1, discards=["1z7m9m", "2z", "3z4z",
                                                                     "7m5z"])


def _offer_position():
    return majiang.Position("1155m234p678s123z", discards=[None, None, "9s5m", None])


def _kong_position():
    return majiang.Position("1111m234p678s1237z", discards=[None, None, None, "3z"])


def _summary(st):
    from majiang.game.logs import summarize
    return summarize(st)


# name -> (call with keyword overrides, value to compare); small inputs that still split
# into several chunks / threads, so n_jobs 1 and 2 run different schedules.
CALLS = {
    "shanten_batch": (lambda **k: majiang.shanten_batch(_rows(20_000), **k), None),
    "score_batch": (lambda **k: majiang.score_batch(*_score_args()[0], **k),
                    lambda r: (r.total, r.fans, r.meets_minimum, r.status)),
    "probabilities": (lambda **k: majiang.probabilities(HAND13, 3, method="monte_carlo",
                                                        n_samples=2100, **k), None),
    "discard_probabilities": (lambda **k: majiang.discard_probabilities(
        HAND14, 2, method="monte_carlo", n_samples=1100, **k), None),
    "discard_curves": (lambda **k: majiang.discard_curves(
        HAND14, 2, method="monte_carlo", n_samples=1100, **k), None),
    "starting_hand_shanten": (lambda **k: majiang.starting_hand_shanten(70_000, **k), None),
    "fan_odds": (lambda **k: majiang.fan_odds(HAND13, 2, ruleset="mcr", method="monte_carlo",
                                              n_samples=2100, **k), None),
    "advise": (lambda **k: majiang.advise(HAND14, draws=2, method="monte_carlo",
                                          n_samples=1100, **k), None),
    "simulate": (lambda **k: majiang.simulate("mcr", 12, chunk_size=4, progress=False, **k),
                 None),
    "compare_rulesets": (lambda **k: majiang.compare_rulesets(["mcr"], 8, chunk_size=3,
                                                              progress=False, **k), None),
    "play_hand": (lambda **k: majiang.game.play_hand("mcr", hand=3, **k), _summary),
    "play_match": (lambda **k: majiang.play_match("taiwan", hands=3, **k), None),
    "table_probabilities": (lambda **k: majiang.game.table_probabilities(
        HAND13, 2, ruleset="mcr", n_samples=70, **k), None),
    "arena": (lambda **k: majiang.arena(["efficiency", "random", "random", "random"], "mcr",
                                        6, chunk_size=2, progress=False, **k), _arena_parts),
    "danger": (lambda **k: majiang.danger(_table_position(), n_samples=200, **k), None),
    "advise_claim": (lambda **k: majiang.advise_claim(_offer_position(), draws=2, **k), None),
    "advise_kong": (lambda **k: majiang.advise_kong(_kong_position(), draws=2, **k), None),
}


def _public(param: str) -> dict:
    found = {}
    for mod in (majiang, majiang.game):
        for name in mod.__all__:
            obj = getattr(mod, name)
            if inspect.isfunction(obj) and param in inspect.signature(obj).parameters:
                found[name] = obj
    return found


N_JOBS_FUNCS = sorted(_public("n_jobs"))
SEED_FUNCS = sorted(_public("seed"))


def _same(a, b, where="") -> None:
    if isinstance(a, pd.DataFrame):
        pd.testing.assert_frame_equal(a, b)
        assert a.attrs == b.attrs, where
    elif isinstance(a, np.ndarray):
        np.testing.assert_array_equal(a, b, err_msg=where)
    elif isinstance(a, dict):
        assert list(a) == list(b), where
        for k in a:
            _same(a[k], b[k], f"{where}[{k!r}]")
    elif isinstance(a, (list, tuple)):
        assert type(a) is type(b) and len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{where}[{i}]")
    elif dataclasses.is_dataclass(a):
        _same(dataclasses.asdict(a), dataclasses.asdict(b), where)
    else:
        assert a == b, (where, a, b)


def _run(name: str, **kw):
    call, key = CALLS[name]
    got = call(**kw)
    return key(got) if key else got


def test_every_public_n_jobs_and_seed_function_has_a_call():
    assert set(N_JOBS_FUNCS) | set(SEED_FUNCS) <= set(CALLS), \
        sorted(set(N_JOBS_FUNCS) | set(SEED_FUNCS) - set(CALLS))
    assert {"shanten_batch", "score_batch", "simulate", "probabilities"} <= set(N_JOBS_FUNCS)


def test_docstrings_say_the_same_sentence():
    """Each docstring gives the sentence, or refers to probabilities' (which gives it)."""
    def flat(s):
        return " ".join(s.split())
    ref = ":func:`majiang.probability.probabilities`"
    for param, sentence in (("n_jobs", N_JOBS_DOC), ("seed", SEED_DOC)):
        for name, f in _public(param).items():
            doc = flat(f.__doc__)
            assert flat(sentence) in doc or ref in doc, (param, name)


def test_seed_default_is_the_same_everywhere():
    for name, f in _public("seed").items():
        assert inspect.signature(f).parameters["seed"].default == 0, name


def test_resolve_n_jobs():
    cores = available_cores()
    assert resolve_n_jobs(None) == cores and resolve_n_jobs(-1) == cores
    assert resolve_n_jobs(None, auto=1) == 1 and resolve_n_jobs(np.int64(3)) == 3
    for bad in (0, -2, -7, 1.5, 2.0, True, False, "2", np.bool_(True)):
        with pytest.raises(RuleError, match=r"^n_jobs must be a positive integer \(that many "
                                            r"workers\), None \(automatic\) or -1 \(every "
                                            r"core\), got "):
            resolve_n_jobs(bad)


@pytest.mark.parametrize("name", N_JOBS_FUNCS)
def test_n_jobs_one_meaning(name):
    ref = _run(name, n_jobs=1, seed=5) if name in SEED_FUNCS else _run(name, n_jobs=1)
    extra = {"seed": 5} if name in SEED_FUNCS else {}
    for ok in (None, -1, 2):
        _same(ref, _run(name, n_jobs=ok, **extra), f"{name} n_jobs={ok}")
    for bad in (0, -2, 1.5, True, "2"):
        with pytest.raises(RuleError, match="n_jobs must be a positive integer"):
            _run(name, n_jobs=bad, **extra)


@pytest.mark.parametrize("name", SEED_FUNCS)
def test_seed_one_meaning(name):
    a = _run(name, seed=7)
    _same(a, _run(name, seed=7), f"{name}: same int seed")
    _same(a, _run(name, seed=np.int64(7)), f"{name}: numpy int seed")
    ss = np.random.SeedSequence(7)
    _same(a, _run(name, seed=ss), f"{name}: SeedSequence(7)")
    _same(a, _run(name, seed=ss), f"{name}: the same SeedSequence object again")
    child = np.random.SeedSequence(7).spawn(2)[1]            # a spawned one, reused
    _same(_run(name, seed=child), _run(name, seed=child), f"{name}: a child SeedSequence")
    # a Generator stands for the int it draws first (it advances)
    drawn = int(np.random.default_rng(11).integers(0, 2**63))
    _same(_run(name, seed=np.random.default_rng(11)), _run(name, seed=drawn),
          f"{name}: Generator")
    _same(_run(name), _run(name, seed=0), f"{name}: default seed 0")
    for bad in (-1, 1.5, True, "7"):
        with pytest.raises(RuleError, match="seed must be a non-negative integer"):
            _run(name, seed=bad)


def test_spawn_seeds_are_numpy_spawn_of_a_fresh_sequence():
    for seed in (0, 7, np.random.SeedSequence(9).spawn(3)[2]):
        want = np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key).spawn(4) \
            if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed).spawn(4)
        got = spawn_seeds(seed, 4)
        assert [g.generate_state(4).tolist() for g in got] == \
            [w.generate_state(4).tolist() for w in want]
    ss = np.random.SeedSequence(3)
    assert spawn_seeds(ss, 2)[1].generate_state(2).tolist() == \
        spawn_seeds(ss, 2)[1].generate_state(2).tolist()           # ss not advanced


def test_seed_none_is_fresh_entropy():
    a = majiang.starting_hand_shanten(2000, seed=None)
    b = majiang.starting_hand_shanten(2000, seed=None)
    assert not a.equals(b)     # two fresh 128-bit seeds dealing the same 2000 hands: never


def test_simulate_records_the_run_seed_of_any_seed():
    g = np.random.default_rng(11)
    drawn = int(np.random.default_rng(11).integers(0, 2**63))
    t = majiang.simulate("mcr", 3, seed=g, n_jobs=1, progress=False)
    assert set(t["seed"]) == {drawn}
    t = majiang.simulate("mcr", 3, seed=None, n_jobs=1, progress=False)
    again = majiang.simulate("mcr", 3, seed=int(t["seed"][0]), n_jobs=1, progress=False)
    pd.testing.assert_frame_equal(t, again)            # the recorded seed replays the run


def test_compare_rulesets_draws_one_seed_for_every_ruleset():
    t = majiang.compare_rulesets({"a": "mcr", "b": "mcr"}, 8, seed=np.random.default_rng(2),
                                 n_jobs=1, progress=False)
    a = t[t["ruleset"] == "a"].drop(columns="ruleset").reset_index(drop=True)
    b = t[t["ruleset"] == "b"].drop(columns="ruleset").reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pids")
def test_parent_liveness_check_of_the_worker_guard():
    """The check a worker started by a fork server makes of its pool's process."""
    from majiang._parallel import _alive
    assert _alive(os.getpid()) and _alive(os.getppid())
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()                                  # exited and reaped: the pid is free
    assert not _alive(p.pid)

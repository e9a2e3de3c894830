"""majiang.simulate at scale: any split of the work gives the same table, run
directories survive interruption (SIGKILL, Ctrl-C) and refuse to mix runs, the
Parquet encoding gives back exactly the in-memory Python values.

The oracle for "the same table however it was split" is independent of simulate's
chunking: each row must equal ``summarize(play_hand(ruleset, players, seed=seed,
hand=i))`` for its own hand index.
"""
from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import hashlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pandas as pd
import pytest

from majiang import RuleError, rules
from majiang.game import play_hand, read_run, simulate, summarize
from majiang.game import runner, store
from majiang.game.runner import COLUMNS, default_chunk_size


def _strict_same(a, b, where="") -> None:
    """Equal values AND equal Python types, recursively (1 != 1.0, [1] != (1,))."""
    assert type(a) is type(b), f"{where}: {type(a).__name__} vs {type(b).__name__}"
    if isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            _strict_same(x, y, f"{where}[{i}]")
    elif isinstance(a, dict):
        assert list(a) == list(b), where
        for k in a:
            _strict_same(a[k], b[k], f"{where}[{k!r}]")
    else:
        assert a == b, where


def _same_table(a: pd.DataFrame, b: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(a, b)
    for c in a.columns:
        if a[c].dtype == object:
            for i, (x, y) in enumerate(zip(a[c], b[c])):
                _strict_same(x, y, f"{c} row {i}")


def _snapshot(d: Path) -> dict:
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns,
                     hashlib.sha256(p.read_bytes()).hexdigest())
            for p in sorted(d.iterdir())}


def _parts(d: Path) -> list:
    return sorted(p.name for p in d.glob("part-*.parquet"))


# ---------------------------------------------------------------- same table, any split
def test_rows_are_the_hands_of_their_own_index_however_split():
    players = ("random", "efficiency", "random", "efficiency")
    base = simulate("guangdong", 45, players=players, seed=11, n_jobs=1, progress=False)
    assert list(base["hand"]) == list(range(45))
    for h in (0, 7, 44):            # independent of simulate's chunking
        want = summarize(play_hand("guangdong", players, seed=11, hand=h))
        got = {c: base.iloc[h][c] for c in COLUMNS}
        got = {c: (v.item() if hasattr(v, "item") else v) for c, v in got.items()}
        assert got == want
    with cf.ThreadPoolExecutor(3) as ex:
        splits = [
            simulate("guangdong", 45, players=players, seed=11, n_jobs=2, chunk_size=7,
                     progress=False),
            simulate("guangdong", 45, players=players, seed=11, n_jobs=-1, chunk_size=4,
                     progress=False),
            simulate("guangdong", 45, players=players, seed=11, executor=ex, chunk_size=13,
                     progress=False),
            simulate("guangdong", 45, players=players, seed=11, n_jobs=1, chunk_size=1,
                     progress=False),
        ]
    for t in splits:
        _same_table(base, t)
    # the executor was the caller's: simulate did not shut it down
    with cf.ThreadPoolExecutor(1) as ex:
        simulate("mcr", 2, seed=1, executor=ex, progress=False)
        assert ex.submit(int, "3").result() == 3


def test_dask_local_cluster_gives_the_same_table(tmp_path):
    pytest.importorskip("dask")
    distributed = pytest.importorskip("distributed")
    base = simulate("mcr", 40, seed=3, n_jobs=1, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        a = simulate("mcr", 40, seed=3, executor=client, chunk_size=6, progress=False)
        b = simulate("mcr", 40, seed=3, executor=client.get_executor(), chunk_size=9,
                     out=tmp_path / "run", progress=False)
        # a modified ruleset is not registered: it travels to the workers as the object
        rs = dataclasses.replace(rules.get("guangdong"), min_fan=1)
        c = simulate(rs, 30, players="random", seed=2, executor=client, chunk_size=8,
                     progress=False)
    _same_table(base, a)
    _same_table(base, b)
    _same_table(simulate(rs, 30, players="random", seed=2, n_jobs=1, progress=False), c)


# ---------------------------------------------------------------- Parquet round trip
@pytest.mark.parametrize("name,kw", [
    ("mcr", {"logs": True}),
    ("sichuan", {"exchange3": True}),
    ("sichuan_xueliu", {"logs": True}),
    ("guangdong", {}),
    ("anqing", {"logs": True}),
    ("shenyang", {}),
])
def test_run_directory_round_trips_every_value(tmp_path, name, kw):
    n = 24 if kw.get("logs") else 60
    mem = simulate(name, n, seed=5, n_jobs=1, progress=False, **kw)
    disk = simulate(name, n, seed=5, n_jobs=1, out=tmp_path / "r", chunk_size=10,
                    progress=False, **kw)
    _same_table(mem, disk)
    _same_table(mem, read_run(tmp_path / "r"))
    if name.startswith("sichuan"):
        # the test covers the dicts of 四川's end checks (查大叫 / 查花猪)
        assert any(len(x) for x in mem["end_checks"])
    if kw.get("logs"):
        # logs hold tuples (a win's fans): they come back as tuples
        assert any(isinstance(f, tuple) for log in mem["log"] for e in log
                   if e["e"] == "win" for f in e["fans"])


def test_raw_parquet_is_readable_by_pandas(tmp_path):
    d = tmp_path / "r"
    mem = simulate("sichuan", 60, seed=1, n_jobs=1, out=d, chunk_size=25, progress=False)
    (d / ".part-junk.tmp").write_bytes(b"PAR1 half a file")    # a torn temporary file
    raw = pd.read_parquet(d)
    assert list(raw["hand"]) == list(range(60))
    assert [list(w) for w in raw["winners"]] == list(mem["winners"])
    assert [json.loads(s) for s in raw["end_checks"]] == list(mem["end_checks"])
    assert [[[p["name"], p["count"]] for p in w] for w in raw["fans"].iloc[0]] == \
        mem["fans"].iloc[0]
    _same_table(mem, read_run(d))
    only = read_run(d, columns=["hand", "winners"])
    assert list(only.columns) == ["hand", "winners"]
    assert list(only["winners"]) == list(mem["winners"])


def test_tagged_json_is_exact():
    values = [
        [], {}, None, 0, -3, 2 ** 62, 1.5, float("inf"), True, "中",
        ("a", 1, (2, [3, (4,)])),
        {"__tuple__": [1, 2]},                 # a dict that looks like a tag
        {1: "x", (2, 3): ["y"]},               # non-string keys
        [{"e": "win", "fans": [("平胡", 1)], "choice": None}],
    ]
    for v in values:
        _strict_same(store._loads(store._dumps(v)), v, repr(v))
    with pytest.raises(RuleError, match="cannot store"):
        store._dumps([object()])


def test_a_value_without_an_exact_encoding_is_refused(tmp_path):
    rows = simulate("mcr", 2, seed=1, n_jobs=1, progress=False).to_dict("records")
    rows = [{k: (v.item() if hasattr(v, "item") else v) for k, v in r.items()} for r in rows]
    rows[1]["points"] = [1.5]
    with pytest.raises(RuleError, match="points"):
        store.write_part(tmp_path, 0, 2, rows, list(COLUMNS))
    rows[1]["points"] = [2.0]                  # would read back as int 2
    with pytest.raises(RuleError, match="points"):
        store.write_part(tmp_path, 0, 2, rows, list(COLUMNS))
    assert _parts(tmp_path) == [] and not list(tmp_path.glob(".*"))


# ---------------------------------------------------------------- survive interruption
_CHILD = textwrap.dedent("""
    import sys
    from majiang.game import simulate
    out, jobs = sys.argv[1], int(sys.argv[2])
    try:
        simulate("guangdong", 600, players="random", seed=9, n_jobs=jobs, chunk_size=10,
                 out=out, progress=False)
    except KeyboardInterrupt:
        import multiprocessing
        print("interrupted", len(multiprocessing.active_children()), flush=True)
        sys.exit(3)
    print("finished", flush=True)
""")


def _start_and_stop(tmp_path, d: Path, jobs: int, sig: int, min_parts: int = 3):
    script = tmp_path / "child.py"
    script.write_text(_CHILD)
    proc = subprocess.Popen([sys.executable, str(script), str(d), str(jobs)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if d.is_dir() and len(_parts(d)) >= min_parts:
            break
        time.sleep(0.005)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    return proc.returncode, out, err


def test_resume_after_sigkill_gives_the_uninterrupted_table(tmp_path):
    d = tmp_path / "run"
    code, _, err = _start_and_stop(tmp_path, d, 1, signal.SIGKILL)
    assert code == -signal.SIGKILL, err
    before = _snapshot(d)
    done = _parts(d)
    assert 3 <= len(done) < 60          # killed in the middle
    resumed = simulate("guangdong", 600, players="random", seed=9, n_jobs=1, chunk_size=10,
                       out=d, progress=False)
    after = _snapshot(d)
    for name in done:                   # finished chunks were skipped, not rewritten
        assert after[name] == before[name]
    assert len(_parts(d)) == 60
    fresh = simulate("guangdong", 600, players="random", seed=9, n_jobs=2, progress=False)
    _same_table(fresh, resumed)
    # chunk_size left out: the resumed run takes the directory's
    _same_table(fresh, simulate("guangdong", 600, players="random", seed=9, out=d,
                                progress=False))


def test_ctrl_c_stops_workers_at_once_and_keeps_finished_chunks(tmp_path):
    d = tmp_path / "run"
    t0 = time.monotonic()
    code, out, err = _start_and_stop(tmp_path, d, 2, signal.SIGINT)
    assert code == 3 and out.split() == ["interrupted", "0"], (code, out, err)
    assert time.monotonic() - t0 < 30
    done = _parts(d)
    assert 3 <= len(done) < 60
    resumed = simulate("guangdong", 600, players="random", seed=9, n_jobs=2, chunk_size=10,
                       out=d, progress=False)
    fresh = simulate("guangdong", 600, players="random", seed=9, n_jobs=1, progress=False)
    _same_table(fresh, resumed)


def test_keyboard_interrupt_in_process_keeps_finished_chunks(tmp_path):
    """A policy object interrupts at its 500th decision (serial run, in process)."""
    class Interrupting:
        def __init__(self):
            self.n = 0
            self.armed = True

        def discard(self, view):
            self.n += 1
            if self.armed and self.n == 500:
                raise KeyboardInterrupt
            legal = view.legal_discards
            return view.drawn if view.drawn in legal else legal[0]

        def claim(self, view, options):
            return None

        def declare(self, view, options):
            return None

    pol = Interrupting()
    players = (pol, "random", "random", "random")
    d = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        simulate("guangdong", 60, players=players, seed=4, n_jobs=1, chunk_size=5, out=d,
                 progress=False)
    assert 1 <= len(_parts(d)) < 12
    pol.armed = False
    resumed = simulate("guangdong", 60, players=players, seed=4, n_jobs=1, out=d,
                       progress=False)
    _same_table(simulate("guangdong", 60, players=players, seed=4, n_jobs=1, progress=False),
                resumed)


# ---------------------------------------------------------------- refuse to mix runs
def test_different_arguments_into_a_used_directory_raise_and_change_nothing(tmp_path):
    d = tmp_path / "run"
    simulate("guangdong", 30, players="random", seed=1, n_jobs=1, chunk_size=10, out=d,
             progress=False)
    before = _snapshot(d)
    changed = [
        dict(seed=2), dict(n=31), dict(chunk_size=5), dict(players="efficiency"),
        dict(logs=True), dict(ruleset="guangdong_jipinghu"),
        dict(ruleset=dataclasses.replace(rules.get("guangdong"), min_fan=1)),
    ]
    for kw in changed:
        args = dict(ruleset="guangdong", n=30, players="random", seed=1, chunk_size=10)
        args.update(kw)
        with pytest.raises(RuleError, match="different simulate run"):
            simulate(args.pop("ruleset"), args.pop("n"), out=d, n_jobs=1, progress=False,
                     **args)
        assert _snapshot(d) == before, kw
    manifest = json.loads((d / store.MANIFEST).read_text())
    assert manifest["n_hands"] == 30 and manifest["seed"] == 1
    assert manifest["players"] == ["random"] * 4 and manifest["ruleset"] == "guangdong"
    assert manifest["version"] and manifest["chunk_size"] == 10


def test_unregistered_ruleset_resumes_by_fingerprint(tmp_path):
    d = tmp_path / "run"
    rs1 = dataclasses.replace(rules.get("guangdong"), min_fan=1)
    rs2 = dataclasses.replace(rules.get("guangdong"), min_fan=1)     # equal data, new object
    a = simulate(rs1, 24, players="random", seed=3, n_jobs=1, chunk_size=8, out=d,
                 progress=False)
    os.remove(d / store.part_name(8, 16))
    b = simulate(rs2, 24, players="random", seed=3, n_jobs=2, out=d, progress=False)
    _same_table(a, b)


def test_fingerprint_is_stable_across_processes_and_sees_changes(tmp_path):
    toml = tmp_path / "house.toml"
    toml.write_text('name = "friday"\nbase = "sichuan"\n[fans]\n"清一色" = 3\n',
                    encoding="utf-8")
    # another process, another string hash seed (this one's is random); it also
    # checks that simulate never imports dask unless given a Client
    code = ("import sys\nfrom majiang import rules\nfrom majiang.game import simulate\n"
            "from majiang.game.store import ruleset_fingerprint as f\n"
            "simulate('mcr', 60, chunk_size=20, n_jobs=2, out=sys.argv[2], progress=False)\n"
            "print(f(rules.get('mcr')), f(rules.load(sys.argv[1])), "
            "any(m.split('.')[0] in ('dask', 'distributed') for m in sys.modules))")
    env = dict(os.environ, PYTHONHASHSEED="12345")
    r = subprocess.run([sys.executable, "-c", code, str(toml), str(tmp_path / "r")],
                       capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    mcr, house, dask_imported = r.stdout.split()
    assert dask_imported == "False"
    assert mcr == store.ruleset_fingerprint(rules.get("mcr"))
    assert house == store.ruleset_fingerprint(rules.load(toml))
    assert mcr != house
    base = rules.get("sichuan")
    assert store.ruleset_fingerprint(base) != store.ruleset_fingerprint(
        dataclasses.replace(base, min_fan=1))
    f3 = dataclasses.replace(base.fans[2], value=base.fans[2].value + 1)
    assert store.ruleset_fingerprint(base) != store.ruleset_fingerprint(
        dataclasses.replace(base, fans=(*base.fans[:2], f3, *base.fans[3:])))


def test_house_rule_file_runs_in_a_directory(tmp_path):
    toml = tmp_path / "house.toml"
    toml.write_text('name = "friday"\nbase = "sichuan"\n[fans]\n"清一色" = 3\n',
                    encoding="utf-8")
    a = simulate(str(toml), 30, seed=2, n_jobs=2, chunk_size=10, out=tmp_path / "r",
                 progress=False)
    assert set(a["ruleset"]) == {"friday"}
    _same_table(a, simulate(str(toml), 30, seed=2, n_jobs=1, progress=False))


def test_directories_that_are_not_runs_are_refused(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(RuleError, match="is a file"):
        simulate("mcr", 2, out=f, progress=False)
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    with pytest.raises(RuleError, match="not empty"):
        simulate("mcr", 2, out=other, progress=False)
    assert sorted(os.listdir(other)) == ["notes.txt"]
    with pytest.raises(RuleError, match="no _manifest"):
        read_run(other)
    with pytest.raises(RuleError, match="not a run directory"):
        read_run(tmp_path / "missing")


def test_read_run_of_an_unfinished_run(tmp_path):
    d = tmp_path / "run"
    full = simulate("guangdong", 30, players="random", seed=8, chunk_size=10, out=d,
                    n_jobs=1, progress=False)
    os.remove(d / store.part_name(10, 20))
    with pytest.raises(RuleError, match="unfinished: 20 of 30"):
        read_run(d)
    part = read_run(d, partial=True)
    assert list(part["hand"]) == list(range(10)) + list(range(20, 30))
    _same_table(part.reset_index(drop=True),
                full[~full["hand"].between(10, 19)].reset_index(drop=True))
    with pytest.raises(RuleError, match="unknown columns"):
        read_run(d, columns=["nope"], partial=True)


# ---------------------------------------------------------------- flat memory
class _CountingExecutor(cf.ThreadPoolExecutor):
    """Records, at each submit, how many chunks were submitted and how many files exist."""

    def __init__(self, d: Path):
        super().__init__(2)
        self.d, self.seen = d, []

    def submit(self, fn, *args, **kwargs):
        self.seen.append(len(_parts(self.d)))
        return super().submit(fn, *args, **kwargs)


def test_chunks_go_to_disk_as_they_finish(tmp_path):
    d = tmp_path / "run"
    with _CountingExecutor(d) as ex:
        simulate("guangdong", 200, players="random", seed=1, executor=ex, chunk_size=5,
                 out=d, progress=False)
    window = 2 * 2 + 1
    assert len(ex.seen) == 40
    # at the k-th submit at most `window` chunks are in flight: the others are on disk
    for k, files in enumerate(ex.seen):
        assert files >= k - window, (k, files)


def test_memory_stays_flat_with_out(tmp_path, monkeypatch):
    """Peak traced memory of the run itself (the final read-back left out): it grows
    with the number of hands in memory, and does not with out=."""
    import tracemalloc
    monkeypatch.setattr(store, "read_run", lambda *a, **k: None)

    def peak(n, out):
        tracemalloc.start()
        try:
            simulate("guangdong", n, players="random", seed=1, n_jobs=1, chunk_size=10,
                     out=out, progress=False)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    simulate("guangdong", 10, players="random", out=tmp_path / "warm", progress=False)
    small, big = peak(100, tmp_path / "a"), peak(400, tmp_path / "b")
    assert big < 1.3 * small, (small, big)
    small, big = peak(100, None), peak(400, None)              # the test can fail
    assert big > 2 * small, (small, big)


# ---------------------------------------------------------------- progress, defaults, errors
def test_progress_bar_only_for_long_runs(capsys, monkeypatch):
    simulate("guangdong", 60, players="random", n_jobs=1, chunk_size=10)
    assert capsys.readouterr().err == ""             # shorter than the delay
    monkeypatch.setattr(runner, "_PROGRESS_DELAY", 0.0)
    simulate("guangdong", 60, players="random", n_jobs=1, chunk_size=10)
    err = capsys.readouterr().err
    assert "60/60" in err and "hand" in err           # stderr is not a tty here
    simulate("guangdong", 60, players="random", n_jobs=2, chunk_size=10)
    assert "60/60" in capsys.readouterr().err
    simulate("guangdong", 60, players="random", n_jobs=1, chunk_size=10, progress=False)
    assert capsys.readouterr().err == ""


def test_default_chunk_size():
    assert default_chunk_size(0) == 50 and default_chunk_size(3199) == 50
    assert default_chunk_size(3200) == 100
    assert default_chunk_size(10 ** 7) == 2000
    assert default_chunk_size(10 ** 7, logs=True) == 200
    for n in (1, 99, 10 ** 4, 10 ** 6):
        k = default_chunk_size(n)
        assert n <= 50 or -(-n // k) >= 32 or k == 50


def test_empty_run(tmp_path):
    a = simulate("mcr", 0, progress=False)
    b = simulate("mcr", 0, out=tmp_path / "r", progress=False)
    assert len(a) == len(b) == 0 and list(a.columns) == list(b.columns) == list(COLUMNS)


@pytest.mark.parametrize("kw,match", [
    ({"n_jobs": 0}, "n_jobs"), ({"n_jobs": 1.5}, "n_jobs"), ({"n_jobs": True}, "n_jobs"),
    ({"chunk_size": 0}, "chunk_size"), ({"chunk_size": -4}, "chunk_size"),
    ({"chunk_size": 2.5}, "chunk_size"), ({"executor": "dask"}, "executor"),
    ({"executor": 4}, "executor"), ({"out": 3}, "out"), ({"out": ""}, "out"),
    ({"seed": -1}, "seed"),
])
def test_bad_arguments(kw, match):
    with pytest.raises(RuleError, match=match):
        simulate("mcr", 10, progress=False, **kw)


def test_shut_down_executor_is_reported():
    ex = cf.ThreadPoolExecutor(1)
    ex.shutdown()
    with pytest.raises(RuleError, match="executor"):
        simulate("mcr", 10, executor=ex, progress=False)


def test_a_directory_removed_mid_run_is_reported(tmp_path):
    d = tmp_path / "run"
    simulate("mcr", 2, seed=1, n_jobs=1, out=d, progress=False)
    for p in d.iterdir():
        p.unlink()
    d.rmdir()
    rows = simulate("mcr", 1, n_jobs=1, progress=False).to_dict("records")
    rows = [{k: (v.item() if hasattr(v, "item") else v) for k, v in r.items()} for r in rows]
    with pytest.raises(RuleError, match="cannot write part-"):
        store.write_part(d, 0, 1, rows, list(COLUMNS))


def test_uncreatable_directory(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(RuleError, match="cannot create"):
        simulate("mcr", 4, out=f / "run", progress=False)


# ---------------------------------------------------------------- CLI
def test_cli_simulate_out_jobs_chunk_size(tmp_path, capsys):
    from majiang.cli import main
    d = tmp_path / "run"
    argv = ["simulate", "guangdong", "-n", "40", "--players", "random", "--seed", "3",
            "--jobs", "2", "--chunk-size", "10", "--out", str(d), "--no-progress"]
    assert main(argv) == 0
    first = capsys.readouterr()
    assert "hands    40" in first.out and first.err == ""
    assert len(_parts(d)) == 4
    assert main(argv) == 0                                   # resumed: nothing left to do
    assert capsys.readouterr().out == first.out
    assert main(argv[:-1] + ["--json"]) == 0
    s = json.loads(capsys.readouterr().out)
    t = simulate("guangdong", 40, players="random", seed=3, n_jobs=1, progress=False)
    assert s["hands"] == 40 and s["drawn_rate"]["value"] == pytest.approx(  # {value, lo, hi, n}
        t["winners"].map(len).eq(0).mean())
    assert s["out"] == str(d)
    bad = argv.copy()
    bad[bad.index("--seed") + 1] = "4"
    assert main(bad) == 2
    assert "different simulate run" in capsys.readouterr().err
    for opt, val in (("--jobs", "0"), ("--jobs", "-2"), ("--chunk-size", "0")):
        b = argv.copy()
        b[b.index(opt) + 1] = val
        assert main(b) == 2
        assert opt.lstrip("-").split("-")[0] in capsys.readouterr().err


# ---------------------------------------------------------------- workers die with the parent
def _children(pid: int) -> list:
    """Live (not zombie) child processes of ``pid``: psutil when installed, else /proc."""
    try:
        import psutil
    except ImportError:
        psutil = None
    if psutil is not None:
        try:
            return [c.pid for c in psutil.Process(pid).children()
                    if c.status() != psutil.STATUS_ZOMBIE]
        except psutil.NoSuchProcess:
            return []
    out = []
    for e in os.listdir("/proc"):
        if e.isdigit():
            try:
                stat = Path(f"/proc/{e}/stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()       # after "(comm)": state, ppid
            if int(fields[1]) == pid and fields[0] != "Z":
                out.append(int(e))
    return out


def _alive(pid: int) -> bool:
    """``pid`` exists and is not a zombie (a dead child not reaped yet)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _wait_for(check, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.02)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


_NO_PDEATHSIG = textwrap.dedent("""
    import sys
    import majiang._parallel as par
    par._pdeathsig = lambda: False          # only the portable guard: the watch thread
    from majiang.cli import main
    sys.exit(main(sys.argv[1:]))
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux)")
@pytest.mark.parametrize("guard", ["pdeathsig", "watch thread"])
def test_workers_end_when_the_parent_is_killed(tmp_path, guard):
    """``kill -9`` of ``simulate --out --jobs 2``: both worker processes exit at once
    (they used to stay blocked on their task queue for minutes), by the kernel's
    parent-death signal and, where there is none, by the workers' watch thread."""
    d = tmp_path / "run"
    args = ["simulate", "mcr", "-n", "200000", "--jobs", "2", "--chunk-size", "50",
            "--no-progress", "--out", str(d)]
    if guard == "pdeathsig":
        cmd = [sys.executable, "-m", "majiang", *args]
    else:
        script = tmp_path / "child.py"
        script.write_text(_NO_PDEATHSIG)
        cmd = [sys.executable, str(script), *args]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for(lambda: d.is_dir() and _parts(d), 120, "the first chunk file")
        workers = _wait_for(lambda: len(_children(proc.pid)) >= 2 and _children(proc.pid),
                            60, "two worker processes")
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    t0 = time.monotonic()
    _wait_for(lambda: not any(_alive(w) for w in workers), 20, f"workers {workers} to end")
    assert time.monotonic() - t0 < 20


# ---------------------------------------------------------------- damaged chunk files
def _damage(f: Path, how: str) -> None:
    data = f.read_bytes()
    if how == "truncated":
        f.write_bytes(data[: len(data) // 2])
    elif how == "empty":
        f.write_bytes(b"")
    else:                                   # another file under the chunk's name
        f.write_bytes(b"not a parquet file\n" * 20)


@pytest.mark.parametrize("how", ["truncated", "empty", "garbage"])
def test_a_damaged_chunk_is_named_in_one_line(tmp_path, capsys, how):
    from majiang.cli import main
    d = tmp_path / "run"
    kw = {"seed": 2, "n_jobs": 1, "chunk_size": 5, "progress": False}
    simulate("mcr", 20, out=d, **kw)
    bad = d / store.part_name(5, 10)
    _damage(bad, how)
    want = f"chunk file {bad} is damaged"
    with pytest.raises(RuleError, match="delete it and rerun simulate") as e:
        read_run(d)
    assert want in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(RuleError, match="delete it and rerun simulate") as e:
        simulate("mcr", 20, out=d, **kw)                  # resume: refused before playing
    assert want in str(e.value)
    code = main(["simulate", "mcr", "-n", "20", "--seed", "2", "--jobs", "1",
                 "--chunk-size", "5", "--no-progress", "--out", str(d)])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert want in err and "hands 5..9" in err
    bad.unlink()                                          # what the message says to do
    _same_table(simulate("mcr", 20, out=d, **kw), simulate("mcr", 20, **kw))


def test_a_chunk_damaged_after_the_check_is_named_by_read_run(tmp_path, monkeypatch):
    """Damage the footer check cannot see (it passes): the read names the file."""
    d = tmp_path / "run"
    simulate("mcr", 10, seed=2, n_jobs=1, chunk_size=5, out=d, progress=False)
    import pyarrow.parquet as pq

    def broken(*a, **k):
        raise OSError("Couldn't deserialize thrift: TProtocolException: Invalid data\n")

    monkeypatch.setattr(pq, "read_table", broken)
    with pytest.raises(RuleError, match=r"part-000000000000-000000000005\.parquet is damaged "
                                        r"\(Couldn't deserialize thrift: TProtocolException: "
                                        r"Invalid data\); delete it"):
        read_run(d)


# ---------------------------------------------------------------- slow
@pytest.mark.slow
def test_big_resumable_run_on_all_cores(tmp_path):
    d = tmp_path / "run"
    a = simulate("mcr", 6000, seed=1, n_jobs=-1, out=d, progress=False)
    b = simulate("mcr", 6000, seed=1, n_jobs=1, chunk_size=777, progress=False)
    _same_table(a, b)


def test_exchange3_is_a_bool_and_needs_a_void_suit():
    """换三张 comes before 定缺: a ruleset without a void suit has none to play, and the
    option is a bool (the string "yes" was taken as True)."""
    with pytest.raises(RuleError, match="mcr has no void suit"):
        simulate("mcr", 2, exchange3=True, n_jobs=1, progress=False)
    with pytest.raises(RuleError, match="exchange3 must be True or False"):
        simulate("sichuan", 2, exchange3="yes", n_jobs=1, progress=False)
    from majiang.game import play_hand
    with pytest.raises(RuleError, match="no void suit"):
        play_hand("guangdong", "random", exchange3=True)
    assert len(simulate("sichuan", 2, exchange3=True, n_jobs=1, progress=False)) == 2

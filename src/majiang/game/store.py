"""Run directories of :func:`majiang.simulate`: one Parquet file per finished chunk.

A run directory (``simulate(..., out="DIR")``) holds

``_manifest.json``
    the run's arguments (:func:`run_manifest`): format, ruleset name and a
    fingerprint of its data, ``n_hands``, ``seed``, players, ``chunk_size``,
    ``exchange3``, ``logs``, the package version and the column names.  A rerun
    compares its own manifest with this one and refuses to write into a directory
    of a different run (:func:`open_run`).
``part-SSSSSSSSSSSS-EEEEEEEEEEEE.parquet``
    hands ``S <= hand < E`` (zero-padded indices, so the names sort in hand order),
    written under a temporary name starting with ``.`` in the same directory,
    flushed to disk, then renamed (:func:`write_part`): a file with the final name
    is always complete.  Readers (pyarrow, pandas, dask) skip names starting with
    ``.`` or ``_``, so ``pandas.read_parquet(DIR)`` and
    ``dask.dataframe.read_parquet(DIR)`` read only finished chunks.

Parquet encoding of the columns of :data:`majiang.game.runner.COLUMNS`
(:func:`chunk_schema`):

* ``ruleset``, ``end``: string; ``hand``, ``seed``, ``dealer``, ``draws``,
  ``wall_left``, ``turns``: int64;
* ``winners``, ``discarder`` (null on a self-draw), ``fan_totals``, ``points``,
  ``score_deltas``, ``kongs``, ``calls``, ``flowers``: list<int64>;
  ``win_types``: list<string>;
* ``fans``: list<list<struct<name: string, count: int64>>> (per winner, the
  ``[name, count]`` pairs);
* ``end_checks`` and ``log``: JSON text (these hold dicts of varying shape); tuples
  and dicts with non-string keys are tagged (``{"__tuple__": [...]}``,
  ``{"__dict__": [[k, v], ...]}``) so that decoding gives back exactly the Python
  values of the in-memory table.

:func:`read_run` decodes all of it into the DataFrame :func:`majiang.simulate`
returns in memory (lists, ``[name, count]`` lists, dicts, tuples).  Reading the
directory with ``pandas.read_parquet`` instead gives the raw encoding (numpy
arrays for lists, dicts for the fan structs, JSON strings), which is what a lazy
reader such as ``dask.dataframe.read_parquet(DIR)`` sees too.
"""
from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import json
import os
import re
import tempfile
import time
from typing import Any

from ..errors import RuleError

__all__ = ["MANIFEST", "FORMAT", "read_run", "read_manifest", "run_manifest", "open_run",
           "write_part", "finished_parts", "check_parts", "part_name", "ruleset_fingerprint",
           "encode_rows", "decode_table", "chunk_schema", "frame"]

MANIFEST = "_manifest.json"
FORMAT = "majiang.simulate/1"
_PART = re.compile(r"^part-(\d{12})-(\d{12})\.parquet$")
_TUPLE = "__tuple__"
_DICT = "__dict__"
_COMPARED = ("format", "ruleset", "ruleset_builtin", "ruleset_fingerprint", "n_hands",
             "seed", "players", "chunk_size", "exchange3", "logs", "version")

_INT = ("hand", "seed", "dealer", "draws", "wall_left", "turns")
_STR = ("ruleset", "end")
_INT_LISTS = ("winners", "discarder", "fan_totals", "points", "score_deltas", "kongs",
              "calls", "flowers")
_STR_LISTS = ("win_types",)
_JSON = ("end_checks", "log")


def _schema_types() -> dict:
    import pyarrow as pa
    types = {}
    for c in _INT:
        types[c] = pa.int64()
    for c in _STR:
        types[c] = pa.string()
    for c in _INT_LISTS:
        types[c] = pa.list_(pa.int64())
    for c in _STR_LISTS:
        types[c] = pa.list_(pa.string())
    types["fans"] = pa.list_(pa.list_(pa.struct([("name", pa.string()), ("count", pa.int64())])))
    for c in _JSON:
        types[c] = pa.string()
    return types


def chunk_schema(columns):
    """The pyarrow schema of a chunk file with these columns (see the module text)."""
    import pyarrow as pa
    types = _schema_types()
    fields = []
    for c in columns:
        if c not in types:
            raise RuleError(f"no Parquet encoding for column {c!r}")
        meta = {b"majiang.encoding": b"tagged-json"} if c in _JSON else None
        fields.append(pa.field(c, types[c], metadata=meta))
    return pa.schema(fields, metadata={b"majiang.format": FORMAT.encode()})


# ------------------------------------------------------------------ tagged JSON
def _tag(x: Any) -> Any:
    t = type(x)
    if x is None or t is str or t is int or t is bool or t is float:
        return x
    if t is list:
        return [_tag(v) for v in x]
    if t is tuple:
        return {_TUPLE: [_tag(v) for v in x]}
    if t is dict:
        if all(type(k) is str for k in x) and not (len(x) == 1 and (_TUPLE in x or _DICT in x)):
            return {k: _tag(v) for k, v in x.items()}
        return {_DICT: [[_tag(k), _tag(v)] for k, v in x.items()]}
    import numpy as np
    if isinstance(x, np.bool_):
        return bool(x)
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.floating):
        return float(x)
    raise RuleError(f"cannot store a value of type {t.__name__} ({x!r:.60}) in a run "
                    "directory; logs and end checks hold JSON-like values")


def _untag(d: dict) -> Any:
    if len(d) == 1:
        if _TUPLE in d:
            return tuple(d[_TUPLE])
        if _DICT in d:
            return {k: v for k, v in d[_DICT]}
    return d


def _dumps(x: Any) -> str:
    return json.dumps(_tag(x), ensure_ascii=False, separators=(",", ":"))


def _loads(s: str) -> Any:
    return json.loads(s, object_hook=_untag)


# ------------------------------------------------------------------ encode / decode
def encode_rows(rows: list, columns) -> Any:
    """Rows of :func:`majiang.simulate` (dicts) as a ``pyarrow.Table`` of :func:`chunk_schema`.

    Raises
    ------
    RuleError
        A value the encoding cannot hold exactly (e.g. a float in an int column).
    """
    import pyarrow as pa
    schema = chunk_schema(columns)
    arrays = []
    for f in schema:
        c = f.name
        vals = [r[c] for r in rows]
        _check_exact(c, vals)
        if c == "fans":
            vals = [[[{"name": n, "count": k} for n, k in w] for w in v] for v in vals]
        elif c in _JSON:
            vals = [_dumps(v) for v in vals]
        try:
            arrays.append(pa.array(vals, type=f.type))
        except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError) as exc:
            raise RuleError(f"column {c!r} cannot be stored as {f.type}: {exc}") from None
    return pa.Table.from_arrays(arrays, schema=schema)


def _bad(c: str, v: Any, want: str):
    return RuleError(f"column {c!r} holds {v!r:.80} where the Parquet encoding keeps "
                     f"{want} exactly; it would read back as a different Python value")


def _check_exact(c: str, vals: list) -> None:
    """Every value of a typed column has the exact Python type its Arrow type gives
    back (pyarrow itself would store 2.0 in an int64 column as 2).  The JSON columns
    are exact by construction (:func:`_tag`)."""
    if c in _INT or c in _STR:
        t = int if c in _INT else str
        for v in vals:
            if type(v) is not t:
                raise _bad(c, v, t.__name__)
    elif c in _INT_LISTS or c in _STR_LISTS:
        t = int if c in _INT_LISTS else str
        nullable = c == "discarder"
        for v in vals:
            if type(v) is not list:
                raise _bad(c, v, f"a list of {t.__name__}")
            for x in v:
                if type(x) is not t and not (nullable and x is None):
                    raise _bad(c, v, f"a list of {t.__name__}")
    elif c == "fans":
        for v in vals:
            ok = type(v) is list and all(
                type(w) is list and all(type(p) is list and len(p) == 2 and type(p[0]) is str
                                        and type(p[1]) is int for p in w) for w in v)
            if not ok:
                raise _bad(c, v, "per winner a list of [name: str, count: int] lists")


def decode_table(table) -> dict:
    """A chunk table back to ``{column: list of Python values}`` (the in-memory values)."""
    out = {}
    for c in table.column_names:
        vals = table.column(c).to_pylist()
        if c == "fans":
            vals = [[[[p["name"], p["count"]] for p in w] for w in v] for v in vals]
        elif c in _JSON:
            vals = [_loads(v) for v in vals]
        out[c] = vals
    return out


# ------------------------------------------------------------------ fingerprint
def _canon(x: Any, depth: int = 0, path: frozenset = frozenset()) -> Any:
    """A JSON-able, process-independent description of ``x`` (no ids, no set order)."""
    if x is None or isinstance(x, (bool, int, str)):
        return x
    if isinstance(x, float):
        return repr(x)
    if depth > 12 or id(x) in path:
        return "<...>"
    path = path | {id(x)}
    d = depth + 1
    if isinstance(x, enum.Enum):
        return ["enum", f"{type(x).__module__}.{type(x).__qualname__}", _canon(x.value, d, path)]
    if isinstance(x, bytes):
        return ["bytes", x.hex()]
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return ["dataclass", f"{type(x).__module__}.{type(x).__qualname__}",
                [[f.name, _canon(getattr(x, f.name), d, path)] for f in dataclasses.fields(x)]]
    if isinstance(x, (list, tuple)):
        return [_canon(v, d, path) for v in x]
    if isinstance(x, (set, frozenset)):
        return ["set", sorted((_canon(v, d, path) for v in x), key=_key)]
    if hasattr(x, "items") and hasattr(x, "keys"):
        return ["map", sorted(([_canon(k, d, path), _canon(v, d, path)] for k, v in x.items()),
                              key=_key)]
    if isinstance(x, functools.partial):
        return ["partial", _canon(x.func, d, path), _canon(x.args, d, path),
                _canon(x.keywords, d, path)]
    if isinstance(x, type):
        return ["type", f"{x.__module__}.{x.__qualname__}"]
    if callable(x):
        name = f"{getattr(x, '__module__', '?')}.{getattr(x, '__qualname__', type(x).__name__)}"
        cells = []
        for cell in getattr(x, "__closure__", None) or ():
            try:
                cells.append(_canon(cell.cell_contents, d, path))
            except ValueError:                      # an empty cell
                cells.append("<empty>")
        return ["callable", name, cells, _canon(getattr(x, "__defaults__", None), d, path)]
    state = getattr(x, "__dict__", None)
    return ["object", f"{type(x).__module__}.{type(x).__qualname__}",
            _canon(state, d, path) if isinstance(state, dict) else None]


def _key(x: Any) -> str:
    return json.dumps(x, sort_keys=True, ensure_ascii=True)


def ruleset_fingerprint(ruleset) -> str:
    """A stable hex digest (SHA-256) of a :class:`~majiang.rules.Ruleset`'s data.

    Every dataclass field enters, recursively (fans, settlement parameters, joker
    and wall-end rules, options ...); functions by module, qualified name, closure
    values and defaults (not their code); sets and mappings in sorted order.  Equal in
    every process for equal data; changes when a field changes (e.g.
    ``dataclasses.replace(rs, min_fan=0)``).
    """
    blob = json.dumps(_canon(ruleset), sort_keys=True, ensure_ascii=True,
                      separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


# ------------------------------------------------------------------ manifest
def _version() -> str:
    try:
        from importlib.metadata import version
        return version("majiang")
    except Exception:                               # not installed as a distribution
        return "unknown"


def player_names(players) -> list:
    """The name of each seat's player as a run records it (the manifest, the ``players``
    attribute of :func:`majiang.simulate`'s table): a built-in name in lower case, a policy
    object as ``policy:module.Class`` (only its class can be recorded)."""
    names = []
    for p in players:
        if isinstance(p, str):
            names.append(p.strip().lower())
        else:
            names.append(f"policy:{type(p).__module__}.{type(p).__qualname__}")
    return names


def run_manifest(ruleset, *, builtin: bool, n_hands: int, seed: int, players, chunk_size: int,
                 exchange3: bool, logs: bool, columns) -> dict:
    """The manifest of a run (a JSON-able dict); see the module text."""
    names = player_names(players)
    return {
        "format": FORMAT,
        "ruleset": ruleset.name,
        "ruleset_builtin": bool(builtin),
        "ruleset_fingerprint": ruleset_fingerprint(ruleset),
        "n_hands": int(n_hands),
        "seed": int(seed),
        "players": names,
        "chunk_size": int(chunk_size),
        "exchange3": bool(exchange3),
        "logs": bool(logs),
        "version": _version(),
        "columns": list(columns),
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def read_manifest(path: Any, *, name: str = MANIFEST, fmt: str = FORMAT,
                  kind: str = "simulate") -> dict | None:
    """The manifest of a run directory, or None when there is none.  ``name`` (file
    name), ``fmt`` (its ``format``) and ``kind`` (for messages) serve other resumable runs
    (:func:`majiang.arena`).

    Raises
    ------
    RuleError
        An unreadable manifest, or one of another format.
    """
    path = os.fspath(path)
    if not os.path.isdir(path):
        return None
    fn = os.path.join(path, name)
    try:
        with open(fn, encoding="utf-8") as fh:
            m = json.load(fh)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise RuleError(f"cannot read the {kind} manifest {fn}: {exc}") from None
    if not isinstance(m, dict) or m.get("format") != fmt:
        raise RuleError(f"{fn} is not a majiang.{kind} manifest (format "
                        f"{m.get('format') if isinstance(m, dict) else None!r})")
    return m


def _atomic_write(path: str, write) -> None:
    d = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=d)
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:                       # make the rename itself durable
        dfd = os.open(d, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass


def make_dir(path: Any, what: str = "out") -> str:
    """Create the directory ``path`` and any missing parent folders (``mkdir -p``)
    unless it exists already; returns ``path`` as a str.

    Raises
    ------
    RuleError
        ``path`` or one of its parents is a file, or it cannot be created; `what`
        names the argument in the message (``out=...``).
    """
    path = os.fspath(path)
    if os.path.isdir(path):
        return path
    if os.path.exists(path):
        raise RuleError(f"{what}={path!r} is a file; give a directory")
    parent = os.path.dirname(os.path.abspath(path))
    while parent and not os.path.exists(parent) and os.path.dirname(parent) != parent:
        parent = os.path.dirname(parent)
    if os.path.exists(parent) and not os.path.isdir(parent):
        raise RuleError(f"cannot create the directory {what}={path!r}: {parent} is a file")
    try:
        os.makedirs(path, exist_ok=True)     # exist_ok: made meanwhile by another process
    except OSError as exc:
        raise RuleError(f"cannot create the directory {what}={path!r}: {exc}") from None
    return path


def open_run(path: Any, manifest: dict, *, name: str = MANIFEST, compared: tuple = _COMPARED,
             read: Any = None, kind: str = "simulate") -> dict:
    """Create the run directory ``path`` with ``manifest``, or check that the one
    there describes the same run; returns the manifest in force.  ``name`` (the manifest's
    file name), ``compared`` (the keys that must agree), ``read`` (``read(path)`` -> the
    manifest there or None; default :func:`read_manifest`) and ``kind`` (for messages)
    serve other resumable runs (:func:`majiang.arena`).

    Raises
    ------
    RuleError
        ``path`` (or a parent) is a file, it cannot be created, holds other files and
        no manifest, or holds a manifest with different arguments (the message names
        them); nothing is written then.
    """
    path = os.fspath(path)
    if os.path.exists(path) and not os.path.isdir(path):
        raise RuleError(f"out={path!r} is a file; give a directory for the run's Parquet chunks")
    read = read_manifest if read is None else read
    old = read(path) if os.path.isdir(path) else None
    if old is not None:
        diffs = [f"{k}: {old.get(k)!r} in the directory, {manifest.get(k)!r} now"
                 for k in compared if old.get(k) != manifest.get(k)]
        if diffs:
            raise RuleError(f"out={path!r} holds a different {kind} run; refusing to mix "
                            "runs (nothing was written). Differences: " + "; ".join(diffs)
                            + ". Use another directory, or the same arguments to resume.")
        return old
    make_dir(path)
    try:
        others = [n for n in os.listdir(path) if not n.startswith(".")]
    except OSError as exc:
        raise RuleError(f"cannot read the run directory out={path!r}: {exc}") from None
    if others:
        raise RuleError(f"out={path!r} is not empty and has no {name} (it holds "
                        f"{sorted(others)[:3]}...); refusing to write into it")
    try:
        _atomic_write(os.path.join(path, name),
                      lambda fh: fh.write((json.dumps(manifest, indent=1, ensure_ascii=False)
                                           + "\n").encode()))
    except OSError as exc:
        raise RuleError(f"cannot write to the run directory out={path!r}: {exc}") from None
    return manifest


def part_name(start: int, stop: int) -> str:
    """File name of the chunk of hands ``start <= hand < stop``."""
    return f"part-{int(start):012d}-{int(stop):012d}.parquet"


def finished_parts(path: Any) -> set:
    """``{(start, stop)}`` of the chunk files in a run directory."""
    out = set()
    for n in os.listdir(os.fspath(path)):
        m = _PART.match(n)
        if m:
            out.add((int(m.group(1)), int(m.group(2))))
    return out


def _damaged(path: str, start: int, stop: int, exc: BaseException) -> RuleError:
    """The one-line error of a chunk file that cannot be read back."""
    why = " ".join(str(exc).split())[:200] or type(exc).__name__
    return RuleError(f"chunk file {os.path.join(path, part_name(start, stop))} is damaged "
                     f"({why}); delete it and rerun simulate with the same arguments to "
                     f"play hands {start}..{stop - 1} again")


def _read_part(path: str, start: int, stop: int, columns=None):
    """One chunk file as a ``pyarrow.Table`` (only ``columns`` when given).

    Raises
    ------
    RuleError
        The file cannot be read (truncated, overwritten, not Parquet): the message
        names it and says to delete it and resume.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq
    try:
        return pq.read_table(os.path.join(path, part_name(start, stop)), columns=columns)
    except (OSError, ValueError, KeyError, pa.ArrowException) as exc:
        raise _damaged(path, start, stop, exc) from None


def check_parts(path: Any, parts) -> None:
    """Check that the chunk files ``parts`` (``(start, stop)`` pairs) of a run directory
    open as Parquet holding ``stop - start`` rows (their footers only: cheap), before a
    resumed run counts them as done.

    Raises
    ------
    RuleError
        A damaged file, named, with what to do (delete it and resume).
    """
    import pyarrow as pa
    import pyarrow.parquet as pq
    path = os.fspath(path)
    for a, b in sorted(parts):
        try:
            rows = pq.read_metadata(os.path.join(path, part_name(a, b))).num_rows
        except (OSError, ValueError, KeyError, pa.ArrowException) as exc:
            raise _damaged(path, a, b, exc) from None
        if rows != b - a:
            raise _damaged(path, a, b, ValueError(f"{rows} rows, not {b - a}"))


def write_part(path: Any, start: int, stop: int, rows: list, columns) -> str:
    """Write hands ``start..stop-1`` as one Parquet file, atomically; returns its path.

    The rows are checked and encoded (:func:`encode_rows`) before anything is
    written, so a file never holds values that would read back differently.

    Raises
    ------
    RuleError
        A value without an exact encoding, ``len(rows) != stop - start``, or the file
        cannot be written (disk full, directory removed ...).
    """
    import pyarrow.parquet as pq
    if len(rows) != stop - start:
        raise RuleError(f"chunk {start}..{stop} has {len(rows)} rows")
    table = encode_rows(rows, columns)
    fn = os.path.join(os.fspath(path), part_name(start, stop))
    try:
        _atomic_write(fn, lambda fh: pq.write_table(table, fh, compression="zstd"))
    except OSError as exc:
        raise RuleError(f"cannot write {part_name(start, stop)} to the run directory "
                        f"{os.fspath(path)!r}: {exc}; the chunks written so far are kept, "
                        "rerun with the same arguments to resume") from None
    return fn


def frame(data: dict, cols):
    """The DataFrame of ``{column: list of values}``: the one constructor of the
    in-memory and the on-disk table, so both get the same dtypes."""
    import pandas as pd
    return pd.DataFrame({c: data[c] for c in cols}, columns=list(cols))


def read_run(path: Any, *, columns: Any = None, partial: bool = False):
    """The table of a run directory written by ``majiang.simulate(..., out=path)``.

    Parameters
    ----------
    path : str or os.PathLike
        The run directory.
    columns : sequence of str, optional
        Read only these columns (default: all of the run's columns, in order).
    partial : bool
        Return the chunks finished so far (a run still going, or interrupted)
        instead of raising when some are missing.

    Returns
    -------
    pandas.DataFrame
        One row per hand in hand order, the columns and Python values of
        :func:`majiang.simulate`'s in-memory table (lists of int / str, fans as
        ``[name, count]`` lists, ``end_checks`` dicts, the ``log`` event lists).

    Raises
    ------
    RuleError
        No manifest in ``path``, missing chunks (unless ``partial``), a damaged chunk
        file (the message names it: delete it and rerun simulate with the same
        arguments), a chunk whose rows are not the hands its name promises, or an
        unknown column.
    """
    import pyarrow as pa
    path = os.fspath(path)
    if not os.path.isdir(path):
        raise RuleError(f"{path!r} is not a run directory")
    m = read_manifest(path)
    if m is None:
        raise RuleError(f"{path!r} has no {MANIFEST}; not a majiang.simulate run directory")
    allc = list(m["columns"])
    cols = allc if columns is None else list(columns)
    bad = [c for c in cols if c not in allc]
    if bad:
        raise RuleError(f"unknown columns {bad}; the run has {allc}")
    n, k = int(m["n_hands"]), int(m["chunk_size"])
    have = finished_parts(path)
    want = [(a, min(a + k, n)) for a in range(0, n, k)]
    missing = [b for b in want if b not in have]
    if missing and not partial:
        done = sum(b - a for a, b in want if (a, b) in have)
        raise RuleError(f"the run in {path!r} is unfinished: {done} of {n} hands "
                        f"({len(missing)} chunks missing); rerun simulate with the same "
                        "arguments to finish it, or read_run(..., partial=True)")
    read = cols if "hand" in cols else ["hand"] + cols
    tables = []
    for a, b in want:
        if (a, b) in missing:
            continue
        t = _read_part(path, a, b, columns=read)
        if t.column("hand").to_pylist() != list(range(a, b)):
            raise RuleError(f"{part_name(a, b)} in {path!r} does not hold hands {a}..{b - 1}")
        tables.append(t)
    if tables:
        data = decode_table(pa.concat_tables(tables))
    else:
        data = {c: [] for c in read}
    return frame({c: data[c] for c in cols}, cols)

"""``--out DIR`` / ``out=DIR``: the run directory and any missing parent folders are
created (``mkdir -p``); a file in the way is an error and nothing is created."""
from __future__ import annotations

import os

import pytest

import majiang
from majiang.cli import main
from majiang.errors import RuleError


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("cmd,sub", [("simulate", ""), ("study", "mcr")])
def test_missing_parents_are_created(capsys, tmp_path, cmd, sub):
    target = tmp_path / "runs" / "deeper" / "x"
    code, out, err = run(capsys, cmd, "mcr", "-n", "2", "--jobs", "1", "--no-progress",
                         "--out", str(target))
    assert code == 0, err
    assert (target / sub / "_manifest.json").is_file()


@pytest.mark.parametrize("cmd,sub", [("simulate", ""), ("study", "mcr")])
def test_the_last_folder_is_created(capsys, tmp_path, cmd, sub):
    target = tmp_path / "run"
    code, out, err = run(capsys, cmd, "mcr", "-n", "2", "--jobs", "1", "--no-progress",
                         "--out", str(target))
    assert code == 0, err
    assert (target / sub / "_manifest.json").is_file()


def test_api_simulate_missing_parents(tmp_path):
    t = majiang.simulate("mcr", 2, n_jobs=1, progress=False, out=tmp_path / "a" / "b")
    assert len(t) == 2 and (tmp_path / "a" / "b" / "_manifest.json").is_file()


def test_api_compare_missing_parents(tmp_path):
    majiang.compare_rulesets(["mcr"], 2, n_jobs=1, progress=False, out=tmp_path / "a" / "b")
    assert (tmp_path / "a" / "b" / "mcr" / "_manifest.json").is_file()


@pytest.mark.parametrize("cmd", ["simulate", "study"])
def test_a_file_in_the_path_is_an_error(capsys, tmp_path, cmd):
    (tmp_path / "f").write_text("x")
    code, out, err = run(capsys, cmd, "mcr", "-n", "2", "--jobs", "1", "--no-progress",
                         "--out", str(tmp_path / "f" / "run"))
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert f"{tmp_path / 'f'} is a file" in err
    assert sorted(os.listdir(tmp_path)) == ["f"]       # nothing was created


def test_out_is_a_file(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(RuleError, match="is a file"):
        majiang.simulate("mcr", 2, n_jobs=1, progress=False, out=f)

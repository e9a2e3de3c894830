"""``--out DIR`` / ``out=DIR``: the run directory itself is created, a missing parent
folder (a mistyped path) is an error and nothing is created."""
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


@pytest.mark.parametrize("cmd", ["simulate", "study"])
def test_missing_parent_is_an_error(capsys, tmp_path, cmd):
    target = tmp_path / "typo" / "run"
    code, out, err = run(capsys, cmd, "mcr", "-n", "2", "--jobs", "1", "--no-progress",
                         "--out", str(target))
    assert code == 2 and "Traceback" not in err
    assert f"parent folder {tmp_path / 'typo'} does not exist" in err
    assert os.listdir(tmp_path) == []                 # nothing was created


@pytest.mark.parametrize("cmd,sub", [("simulate", ""), ("study", "mcr")])
def test_the_last_folder_is_created(capsys, tmp_path, cmd, sub):
    target = tmp_path / "run"
    code, out, err = run(capsys, cmd, "mcr", "-n", "2", "--jobs", "1", "--no-progress",
                         "--out", str(target))
    assert code == 0, err
    assert (target / sub / "_manifest.json").is_file()


def test_api_simulate_missing_parent(tmp_path):
    with pytest.raises(RuleError, match="parent folder .* does not exist"):
        majiang.simulate("mcr", 2, n_jobs=1, progress=False, out=tmp_path / "a" / "b")
    assert not (tmp_path / "a").exists()


def test_api_compare_missing_parent(tmp_path):
    with pytest.raises(RuleError, match="parent folder .* does not exist"):
        majiang.compare_rulesets(["mcr"], 2, n_jobs=1, progress=False,
                                 out=tmp_path / "a" / "b")
    assert not (tmp_path / "a").exists()


def test_out_is_a_file(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(RuleError, match="is a file"):
        majiang.simulate("mcr", 2, n_jobs=1, progress=False, out=f)

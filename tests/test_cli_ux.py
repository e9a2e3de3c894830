"""What a fresh user of the command line tripped on: short usage errors, the unit of a
score's total, the statistics ``simulate`` prints, where the rule notes are."""
from __future__ import annotations

import pytest

from majiang.cli import SUBCOMMANDS, main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- usage errors
@pytest.mark.parametrize("argv, words", [
    (["simulate", "luoyuan", "-n", "abc"], "argument -n/--hands: invalid int value: 'abc'"),
    (["study", "mcr", "-n", "x"], "invalid int value: 'x'"),
    (["score", "123m"], "required: --win"),
    (["match", "mcr", "--hands", "1", "--rounds", "1"], "not allowed with"),
])
def test_a_usage_error_is_two_lines(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 2, err
    assert lines[0].startswith(f"usage: majiang {argv[0]} [options]")
    assert lines[1].startswith(f"majiang {argv[0]}: error: ") and words in lines[1]


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_every_command_names_its_positionals_in_the_short_usage(capsys, command):
    code, _, err = run(capsys, command, "--no-such-flag")
    assert code == 2
    first, second = err.splitlines()
    assert first.startswith(f"usage: majiang {command} [options]")
    assert second.endswith("--no-such-flag") or "required" in second
    code, out, _ = run(capsys, command, "--help")      # --help keeps the whole usage
    assert code == 0 and out.startswith(f"usage: majiang {command} [-h] ")

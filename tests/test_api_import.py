"""The public API of ``majiang``: every exported name resolves, and ``import majiang``
leaves the heavy submodules (game, probability, rules, scoring) unimported."""
import json
import subprocess
import sys

import majiang


def test_every_public_name_resolves():
    for name in majiang.__all__:
        assert getattr(majiang, name) is not None, name
    assert set(majiang.__all__) <= set(dir(majiang))


def test_lazy_names_are_the_defining_objects():
    from majiang.analysis import advise
    from majiang.game import simulate
    from majiang.probability import win_probability
    from majiang.scoring import score

    assert majiang.advise is advise
    assert majiang.simulate is simulate
    assert majiang.win_probability is win_probability
    assert majiang.score is score


def test_unknown_attribute_raises_attribute_error():
    try:
        majiang.no_such_name
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("no AttributeError")


def _modules_after(code: str) -> list[str]:
    out = subprocess.run(
        [sys.executable, "-c",
         code + "\nimport sys, json; print(json.dumps(sorted(sys.modules)))"],
        capture_output=True, text=True, check=True, timeout=60)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_import_majiang_is_light():
    mods = _modules_after("import majiang")
    for heavy in ("majiang.game", "majiang.probability", "majiang.rules", "majiang.scoring",
                  "majiang._core.game", "pandas", "matplotlib"):
        assert heavy not in mods, heavy
    # the eager names are there
    assert "majiang.efficiency" in mods and "majiang.hand" in mods


def test_from_import_of_a_lazy_name_loads_its_module():
    mods = _modules_after("from majiang import simulate, rules")
    assert "majiang.game" in mods and "majiang.rules" in mods


def test_shanten_command_imports_only_what_it_needs():
    mods = _modules_after(
        "import io, contextlib\nfrom majiang.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert main(['shanten', '23345m111p456p99s6m']) == 0")
    for heavy in ("majiang.game", "majiang.probability", "majiang.scoring", "pandas"):
        assert heavy not in mods, heavy

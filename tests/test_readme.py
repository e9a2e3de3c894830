"""The README's Python examples print what the code prints (run as doctests)."""
import doctest
import pathlib
import re

import pandas as pd

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_examples():
    text = "\n".join(re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"),
                                re.S))
    test = doctest.DocTestParser().get_doctest(text, {}, "README", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    with pd.option_context("display.width", 250, "display.max_columns", 30):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 10
    assert result.failed == 0

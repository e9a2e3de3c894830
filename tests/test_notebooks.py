"""The notebooks' saved outputs agree with themselves (issue 8: notebook 02 showed two
different p_win values for the same discard; the second cell left the discarded tile out
of the visible tiles).  The notebooks themselves run under nbmake."""
from __future__ import annotations

import json
from pathlib import Path

NB02 = Path(__file__).resolve().parents[1] / "notebooks" / "02_win_probability.ipynb"


def _outputs(nb: dict, marker: str) -> str:
    """Plain-text outputs of the one code cell whose source contains `marker`."""
    cells = [c for c in nb["cells"] if c["cell_type"] == "code" and marker in "".join(c["source"])]
    assert len(cells) == 1, marker
    return "".join("".join(o.get("data", {}).get("text/plain", o.get("text", "")))
                   for o in cells[0].get("outputs", []))


def _cell(text: str, row: str, column: str) -> str:
    """A value of a printed pandas table: the row whose label (or first value after
    the index) is `row`, under the header `column` (the comparison table's headers
    "p_win any" / "p_win mcr" / "p_win mcr, 1 change" read as any / mcr / 1_change)."""
    lines = [l for l in text.splitlines() if l.strip()]
    header = (lines[0].replace("p_win any", "any").replace("p_win mcr, 1 change", "1_change")
              .replace("p_win mcr", "mcr").split())
    for line in lines[1:]:
        cells = line.split()
        label_first = cells[0] == row
        if label_first or (len(cells) > 1 and cells[1] == row):
            # the index label takes one cell before the columns
            return cells[1 + header.index(column)]
    raise AssertionError(f"no row {row!r} in\n{text}")


def _nb02_values(nb: dict) -> dict:
    best = next(l for l in _outputs(nb, "adv = majiang.advise").splitlines()
                if l.split()[:2] == ["0", "1"]).split()[2]          # advise's rank-1 discard
    check = _outputs(nb, 'method="monte_carlo"')
    compare = _outputs(nb, "p_win any")
    return {"best": best,
            "exact": _cell(check, "P(win)", "exact"),
            "any": _cell(compare, best, "any"),
            "mcr1": _cell(compare, best, "1_change"),
            "odds": _cell(_outputs(nb, "fan_odds(h13"), "win", "probability")}


def test_notebook_02_shows_one_p_win_per_discard():
    v = _nb02_values(json.loads(NB02.read_text(encoding="utf-8")))
    assert v["exact"] == v["any"], v          # the exact check equals the per-discard table
    assert v["odds"] == v["mcr1"], v          # fan odds' P(win) equals its per-discard row

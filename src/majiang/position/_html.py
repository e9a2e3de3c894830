"""A position as HTML for Jupyter (``Position._repr_html_``): the table seen from the
viewing seat, tiles as glyphs."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..tiles import N_KINDS, tile_name
from ._parse import _SUIT_NAMES, _WIND_NAMES, TableMeld

# --------------------------------------------------------------------------
# HTML (Jupyter)
# --------------------------------------------------------------------------

def _position_html(p: Any) -> str:
    """The table as HTML: a header line, one row per seat (turn order from the viewing
    seat: its flags, melds and discard river as tile glyphs; claimed discards dimmed)
    and the seat's own hand, the drawn tile set apart."""
    import html

    from ..tiles import TILE_BACK_GLYPH, format_counts, tile_glyph
    esc = html.escape

    def span(content: str, title: str, style: str = "") -> str:
        return f'<span title="{esc(title)}" style="{style}">{content}</span>'

    def meld_html(tm: TableMeld) -> str:
        m = tm.meld
        if m.concealed:
            body = tile_glyph(m.tile) + TILE_BACK_GLYPH * 2 + tile_glyph(m.tile)
            return span(body, f"concealed kong {m}",
                        "margin-right:0.3em;border-bottom:2px dashed #888")
        src = "" if tm.from_seat is None else f", claimed from seat {tm.from_seat}"
        return span("".join(tile_glyph(t) for t in m.tiles), f"{m.kind} {m}{src}",
                    "margin-right:0.3em;border-bottom:2px solid #888")

    def river_html(river) -> str:
        out = []
        for i, d in enumerate(river):
            if i and i % 6 == 0:
                out.append("<br>")
            if d.claimed_by is None:
                out.append(span(tile_glyph(d.tile), tile_name(d.tile)))
            else:
                out.append(span(tile_glyph(d.tile),
                                f"{tile_name(d.tile)}, claimed by seat {d.claimed_by}",
                                "opacity:0.3"))
        return "".join(out)

    model = p.model
    n = p.players
    head = [f"{esc(model.name)}", f"prevalent wind {_WIND_NAMES[p.prevalent_wind]}",
            f"{p.tiles_left} tiles left"]
    if p.indicator is not None:
        head.append(f"indicator {tile_glyph(p.indicator)} ({tile_name(p.indicator)})")
    rows = []
    for i in range(n):
        q = (p.seat + i) % n
        flags = [f"seat {q}", _WIND_NAMES[(q - p.dealer) % n]]
        if q == p.seat:
            flags.append("<b>you</b>")
        if q == p.dealer:
            flags.append("dealer")
        if p.voids[q] >= 0:
            flags.append(f"void {_SUIT_NAMES[p.voids[q]]}")
        if p.flowers[q]:
            flags.append(f"{p.flowers[q]} flower{'s' if p.flowers[q] > 1 else ''}")
        if q in p.won:
            won = "".join(tile_glyph(t) for t in p.won_tiles[q])
            flags.append("won" + (f" {won}" if won else ""))
        if q in p.ready:
            flags.append("ready")
        melds = "".join(meld_html(tm) for tm in p.melds[q])
        melds += "".join(span(TILE_BACK_GLYPH * 4, "concealed kong (tiles not seen)",
                              "margin-right:0.3em;border-bottom:2px dashed #888")
                         for _ in range(p.hidden_kongs[q]))
        rows.append("<tr>"
                    f'<td style="font-size:0.9em;text-align:left;vertical-align:top">'
                    f'{", ".join(flags)}</td>'
                    f'<td style="font-size:1.8em;text-align:left;white-space:nowrap">{melds}</td>'
                    f'<td style="font-size:1.8em;text-align:left;line-height:1.1">'
                    f'{river_html(p.discards[q])}</td></tr>')
    c = p.concealed.astype(np.intp).copy()
    drawn = ""
    if p.drawn is not None:
        c[p.drawn] -= 1
        drawn = span(tile_glyph(p.drawn), f"drawn {tile_name(p.drawn)}", "margin-left:0.5em")
    hand = "".join(tile_glyph(k) for k in np.repeat(np.arange(N_KINDS), c))
    own = "".join(meld_html(tm) for tm in p.melds[p.seat])
    return ('<div class="majiang-position">'
            f'<div style="font-size:0.9em">{" · ".join(head)}</div>'
            '<table style="border-collapse:collapse"><tr><th>seat</th><th>melds</th>'
            f'<th>discards</th></tr>{"".join(rows)}</table>'
            f'<div style="font-size:2.5em;white-space:nowrap" '
            f'title="{esc(format_counts(p.concealed))}">{hand}{drawn}'
            f'<span style="margin-left:0.5em">{own}</span></div></div>')


"""`render -o FILE.png`: cairosvg's PNG of the same SVG, checked by size (IHDR) and a
few pixel probes at known places (cell and card fills, away from any text)."""

from __future__ import annotations

from matchledger.projections.presentation.games.lca import picture as lca
from matchledger.projections.presentation.games.photographer import picture as photographer

from ..helpers import needs_png
from .support import Png, hex_rgb, png_size, svg_size

pytestmark = needs_png()

WHITE = (255, 255, 255, 255)
# the lca board's origin in the full picture: translate(10,34), then the row/column labels
LCA_X, LCA_Y = 10 + lca.LEFT, 34 + lca.TOP


def lca_cell(col: int, row: int) -> tuple[int, int]:
    """A probe point 5 px inside the top-left corner of a cell (0-based col, row)."""
    return LCA_X + col * lca.CELL + 5, LCA_Y + row * lca.CELL + 5


def close(actual, expected, tolerance=2) -> bool:
    return all(abs(a - e) <= tolerance for a, e in zip(actual, expected))


def test_lca_png_size_and_pixels(render):
    svg, data = render("amend5", "--public"), render("amend5", "--public", suffix="png")
    assert png_size(data) == svg_size(svg)
    png = Png(data)
    assert png.pixel(2, 2) == WHITE
    assert png.pixel(*lca_cell(0, 9)) == hex_rgb(lca.WALL)  # A10: the wall row
    assert png.pixel(*lca_cell(9, 9)) == hex_rgb(lca.WALL)  # J10
    assert png.pixel(*lca_cell(6, 0)) == hex_rgb(lca.HEAT[2])  # G1: brightness 2
    assert png.pixel(*lca_cell(3, 0)) == hex_rgb(lca.HEAT[1])  # D1: brightness 1
    assert png.pixel(*lca_cell(8, 11)) == hex_rgb(lca.HEAT[0])  # I12: dark floor
    # J13 holds an action: the host's picture marks it at the cell's centre, the public's does not
    centre = (LCA_X + 9 * lca.CELL + lca.CELL // 2, LCA_Y + 12 * lca.CELL + lca.CELL // 2)
    assert png.pixel(*centre) == hex_rgb(lca.HEAT[0])
    host = Png(render("amend5", suffix="png"))
    assert host.pixel(*centre) != hex_rgb(lca.HEAT[0])


def test_pw_png_probe(render):
    data = render("pw1", "--public", suffix="png")
    png = Png(data)
    assert (png.width, png.height) == svg_size(render("pw1", "--public"))
    # round 1 "gift" (7 of the busiest 7): the shade at opacity 0.7 over white
    x, y = 10 + 80 + 5, 34 + 26 + 5
    r, g, b, _a = hex_rgb("#3f6fb5")
    expected = tuple(round(0.7 * c + 0.3 * 255) for c in (r, g, b))
    assert close(png.pixel(x, y), expected)


def test_photographer_png_probe(render):
    png = Png(render("g2", "--public", suffix="png"))
    # the last table row (row 3): a face-up yellow 4 in the first place, the second empty
    left, top = 10 + photographer.LEFT, 34 + 26 + 2 * (photographer.CARD_H + photographer.GAP)
    assert png.pixel(left + 6, top + photographer.CARD_H - 6) == hex_rgb(photographer.COLOURS["yellow"])
    second = left + photographer.CARD_W + photographer.GAP
    assert png.pixel(second + photographer.CARD_W // 2, top + 10) == WHITE

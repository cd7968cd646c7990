"""Names in any script reach the pictures: the SVG carries them as they are (a browser
draws each from whatever font has it); the PNG is drawn with one font, DejaVu Sans,
which has Cyrillic but no CJK, so a CJK character is drawn as its escape (never as a
box) and `render` names it on stderr."""

from __future__ import annotations

import pytest

from matchledger.projections.presentation.png import missing_glyphs, render_png
from matchledger.projections.presentation.svg import FONT

from ..helpers import invoke, needs_png
from .support import Png

pytestmark = pytest.mark.guarantee("output.png-fonts")

CJK, CYRILLIC = "李", "Аня"
WHITE = (255, 255, 255, 255)


@pytest.fixture
def cjk_cyrillic_db(tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "photographer", "g1", "--players", f"{CJK},{CYRILLIC}", "--seed", str(2**50))
    return db


def test_the_svg_carries_cjk_and_cyrillic_names_as_they_are(cjk_cyrillic_db, tmp_path):
    invoke(cjk_cyrillic_db, "render", "g1", "-o", tmp_path / "g1.svg")
    svg = (tmp_path / "g1.svg").read_text(encoding="utf-8")
    assert f"Film of {CJK} (hand 5)" in svg and f"Film of {CYRILLIC} (hand 5)" in svg
    assert "\\u" not in svg


@needs_png()
def test_render_png_draws_a_cjk_name_escaped_and_says_so(cjk_cyrillic_db, tmp_path):
    result = invoke(cjk_cyrillic_db, "render", "g1", "-o", tmp_path / "g1.png")
    assert (tmp_path / "g1.png").read_bytes().startswith(b"\x89PNG")
    note = result.stderr.partition("note:")[2]
    assert (f"draws {CJK}" in note) == bool(missing_glyphs(CJK))  # with DejaVu Sans: named
    assert (CYRILLIC in note) == bool(missing_glyphs(CYRILLIC))  # with DejaVu Sans: drawn, not named
    assert not note or "write .svg" in note


def _svg(text: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40" viewBox="0 0 160 40" font-family="{FONT}">'
        f'<rect x="0" y="0" width="160" height="40" fill="#ffffff"/><text x="8" y="28" font-size="22">{text}</text></svg>'
    )


def _ink(data: bytes) -> set[tuple[int, int]]:
    png = Png(data)
    return {(x, y) for y in range(png.height) for x in range(png.width) if png.pixel(x, y) != WHITE}


@needs_png()
def test_png_draws_cyrillic_as_letters_and_cjk_as_its_escape_never_as_boxes():
    if missing_glyphs(CYRILLIC + "A") or not missing_glyphs(CJK):
        pytest.skip(f"the PNG font here is not {FONT.split(',')[0]} (Cyrillic, no CJK): this test knows only that one")
    import cairosvg

    def drawn_raw(text: str) -> bytes:
        return cairosvg.svg2png(bytestring=_svg(text).encode("utf-8"))

    boxes = _ink(drawn_raw(CJK * 3))  # what a font without the glyphs draws: three boxes
    cyrillic = render_png(_svg(CYRILLIC))
    assert cyrillic.escaped == () and cyrillic.data == drawn_raw(CYRILLIC)
    assert _ink(cyrillic.data) and _ink(cyrillic.data) != boxes
    cjk = render_png(_svg(CJK))
    assert cjk.escaped == (CJK,)
    assert cjk.data == drawn_raw("\\u674e")  # its escape, as a terminal shows it
    assert _ink(cjk.data) != _ink(drawn_raw(CJK))  # not the box

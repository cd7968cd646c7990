"""In a real browser, cells typed with commas into a grid's field (``G4, A1,B1``) are
marked on the grid as the server will read them: commas separate cells as spaces do.
Headless Chromium, the system's, driven by Playwright; skipped, saying why, without."""

from __future__ import annotations

from tests.helpers import invoke

from .chromium import browser, playwright, requires_chromium  # noqa: F401 (browser: a fixture)
from .support import STUDIO, Server, invite

pytestmark = requires_chromium


def test_cells_typed_with_commas_are_marked_on_the_grid(browser, tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    link = invite(db, "m1", "--as", "ann", "--submit")
    with Server(db) as server:
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.goto(link["url"].replace("http://127.0.0.1:8000", server.url))
        page.fill("input[name=tokens]", "G4, A1,B1")
        for order, cell in enumerate(("G4", "A1", "B1"), start=1):
            assert page.get_attribute(f'button.cell[data-cell="{cell}"]', "data-order") == str(order)

"""On a phone (360 and 390 px wide), a participant's page fits the screen: nothing makes
it wider than the viewport, before or after a submission (the receipt and the line that
proves it are 64-digit hashes, which must wrap)."""

from __future__ import annotations

import pytest

from tests.helpers import invoke

from .chromium import browser, playwright, requires_chromium  # noqa: F401 (browser: a fixture)
from .support import STUDIO, Server, invite

pytestmark = requires_chromium

FITS = "document.documentElement.scrollWidth <= window.innerWidth"


@pytest.mark.parametrize("width", [360, 390])
def test_a_participants_page_fits_a_phone_before_and_after_a_submission(browser, tmp_path, width):
    db = tmp_path / "m.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    link = invite(db, "m1", "--as", "ann", "--submit")
    with Server(db) as server:
        context = browser.new_context(viewport={"width": width, "height": 844})
        page = context.new_page()
        page.goto(link["url"].replace("http://127.0.0.1:8000", server.url))
        before = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        page.fill("input[name=tokens]", "G4 A1 B1 C1 D1")
        page.click('button[type="submit"]')
        page.wait_for_selector("#recorded")
        after = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        context.close()
    assert before[0] <= before[1], f"before a submission: {before[0]} px wide in a {before[1]} px viewport"
    assert after[0] <= after[1], f"after a submission: {after[0]} px wide in a {after[1]} px viewport"

"""Keyboard only, on a phone: a participant who cannot tap reaches the form's typed field
and its Submit button without stepping through every cell of the picker.  The lca picker
of the example studio is 119 buttons, and each was its own tab stop before the typed
field: 121 presses of Tab to submit.  A grid is one tab stop, its cells reached with the
arrow keys (the WAI-ARIA grid pattern)."""

from __future__ import annotations

import pytest

from tests.helpers import invoke

from .chromium import browser, playwright, requires_chromium  # noqa: F401 (browser: a fixture)
from .support import STUDIO, Server, invite

pytestmark = requires_chromium

#: Presses of Tab a keyboard user may fairly need, from the page's top to the typed field.
FAIR_PRESSES = 12
FOCUSED = "(e => e.tagName + ' ' + (e.name || ''))(document.activeElement)"


def test_the_typed_field_is_reached_by_keyboard_without_crossing_every_cell(browser, tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob,cat", "--studio", STUDIO)
    ann = invite(db, "m1", "--as", "ann", "--submit")["token"]
    with Server(db) as server:
        page = browser.new_page(viewport={"width": 360, "height": 800})
        page.goto(f"{server.url}/p/{ann}")
        assert page.query_selector_all("table.pick button"), "the picker is drawn"
        for _ in range(FAIR_PRESSES):
            page.keyboard.press("Tab")
            if page.evaluate(FOCUSED) == "INPUT tokens":
                return
        pytest.fail(f"after {FAIR_PRESSES} presses of Tab the focus is on {page.evaluate(FOCUSED)}")


def test_a_cell_of_the_picker_is_chosen_with_the_keyboard(browser, tmp_path):
    """What works today, and must keep working: Enter and Space on a focused cell pick it."""
    db = tmp_path / "m.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob,cat", "--studio", STUDIO)
    ann = invite(db, "m1", "--as", "ann", "--submit")["token"]
    with Server(db) as server:
        page = browser.new_page(viewport={"width": 360, "height": 800})
        page.goto(f"{server.url}/p/{ann}")
        cells = page.query_selector_all("table.pick button")
        cells[0].focus()
        page.keyboard.press("Enter")
        cells[1].focus()
        page.keyboard.press("Space")
        assert page.input_value("input[name=tokens]") == "A1 B1"


def test_the_arrow_keys_move_through_the_picker_and_skip_what_is_no_cell(browser, tmp_path):
    """Down from A1 is A2; right along row 6 steps over the wall at D6 (no button there)."""
    db = tmp_path / "m.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob,cat", "--studio", STUDIO)
    ann = invite(db, "m1", "--as", "ann", "--submit")["token"]
    with Server(db) as server:
        page = browser.new_page(viewport={"width": 360, "height": 800})
        page.goto(f"{server.url}/p/{ann}")
        focused = "document.activeElement.getAttribute('data-cell')"
        page.query_selector("table.pick button[data-cell=A1]").focus()
        page.keyboard.press("ArrowDown")
        assert page.evaluate(focused) == "A2"
        page.query_selector("table.pick button[data-cell=C6]").focus()
        page.keyboard.press("ArrowRight")
        assert page.evaluate(focused) == "E6"
        assert page.evaluate("document.querySelectorAll('table.pick button[tabindex=\"0\"]').length") == 1

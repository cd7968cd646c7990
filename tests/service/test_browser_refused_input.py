"""In a real browser, a refused submission never loses what the participant entered:
after the refusal, once the page's stream has sent its first event (``live.js`` would
swap in the stream's form if its key differed), the lca cells tapped are still in the
field and marked chosen, pw's lists and photographer's lists still hold their choices.
And when what may be submitted does change while the page is open (the host closes the
round), what was entered is carried into the new form, with a word that it changed.
Headless Chromium, the system's, driven by Playwright; skipped, saying why, without."""

from __future__ import annotations

import pytest

from tests.helpers import invoke

from .chromium import browser, playwright, requires_chromium  # noqa: F401 (browser: a fixture)
from .support import STUDIO, Server, invite

pytestmark = [requires_chromium, pytest.mark.guarantee("service.forms-from-choices")]
PHONE = {"width": 390, "height": 844}


#: What the browser's console says of the refusal's own answer: expected, not an error.
REFUSED_ANSWER = "the server responded with a status of 422"


def open_link(browser, server: Server, link: dict, errors: list[str]):
    """The participant's page, its stream open; script errors are added to ``errors``."""
    page = browser.new_context(viewport=PHONE).new_page()

    def console(message) -> None:
        if message.type == "error" and REFUSED_ANSWER not in message.text:
            errors.append(message.text)

    page.on("console", console)
    page.goto(link["url"].replace("http://127.0.0.1:8000", server.url))
    page.wait_for_selector("body[data-updates='1']")
    return page


def submit_refused(page) -> None:
    """Submit, see the refusal, and wait for the refused page's stream to send its view."""
    page.click('button[type="submit"]')
    page.wait_for_selector("#refused")
    page.wait_for_selector("body[data-updates]")


def values(page, names: list[str]) -> dict[str, str]:
    return {name: page.input_value(f'[name="{name}"]') for name in names}


def test_lca_cells_tapped_stay_in_the_field_and_marked_after_a_refusal(browser, tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    errors: list[str] = []
    with Server(db) as server:
        page = open_link(browser, server, invite(db, "m1", "--as", "ann", "--submit"), errors)
        for cell in ("G4", "A1", "B1"):  # three lights: Round 1 takes five
            page.click(f'button.cell[data-cell="{cell}"]')
        submit_refused(page)
        assert page.input_value("input[name=tokens]") == "G4 A1 B1"
        for order, cell in enumerate(("G4", "A1", "B1"), start=1):
            button = f'button.cell[data-cell="{cell}"]'
            assert page.get_attribute(button, "aria-pressed") == "true"
            assert page.get_attribute(button, "data-order") == str(order)
        page.click('button.cell[data-cell="C1"]')  # and tapping goes on from them
        assert page.input_value("input[name=tokens]") == "G4 A1 B1 C1"
    assert errors == []


def test_pw_lists_keep_their_choices_after_a_refusal(browser, tmp_path):
    db = tmp_path / "p.db"
    invoke(db, "new", "pw", "p1", "--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan")
    errors: list[str] = []
    chosen = {"a1_type": "gift", "a1_target": "bob", "a2_type": "watch", "a2_target": "bob"}  # one target twice: W2
    with Server(db) as server:
        page = open_link(browser, server, invite(db, "p1", "--as", "zed", "--submit"), errors)
        for name, value in chosen.items():
            page.select_option(f'select[name="{name}"]', value)
        submit_refused(page)
        assert values(page, list(chosen)) == chosen
        assert page.input_value("input[name=tokens]") == ""  # only what was typed: nothing
    assert errors == []


def test_photographer_lists_keep_a_choice_that_is_no_option_after_the_refusal(browser, tmp_path):
    db = tmp_path / "f.db"
    invoke(db, "new", "photographer", "f1", "--players", "ann,bob", "--seed", "3")
    errors: list[str] = []
    chosen = {"take_row": "1", "take_end": "left", "take_count": "1", "wind_from": "3", "wind_to": "2"}
    with Server(db) as server:
        page = open_link(browser, server, invite(db, "f1", "--as", "ann", "--submit"), errors)
        for name, value in chosen.items():
            page.select_option(f'select[name="{name}"]', value)
        submit_refused(page)  # winding 3 to 2 is no choice: refused before the rules see it
        assert values(page, list(chosen)) == chosen
    assert errors == []


def test_when_the_choices_change_what_was_entered_is_carried_into_the_new_form(browser, tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    errors: list[str] = []
    with Server(db) as server:
        page = open_link(browser, server, invite(db, "m1", "--as", "ann", "--submit"), errors)
        for cell in ("G4", "A1", "B1"):
            page.click(f'button.cell[data-cell="{cell}"]')
        invoke(db, "submit", "m1", "bob", "F2", "A1", "B1", "C1", "D1")
        invoke(db, "close", "m1", "--force", "--reason", "ann did not answer")  # the host, from the command line
        page.wait_for_selector("table.pick[data-count='3']", timeout=10_000)  # Round 2's form
        assert page.input_value("input[name=tokens]") == "G4 A1 B1"
        assert page.get_attribute('button.cell[data-cell="G4"]', "aria-pressed") == "true"  # a centre now too
        assert "What you may submit has changed" in page.inner_text("#form-area")
    assert errors == []

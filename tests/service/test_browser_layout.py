"""In a real browser, each game's participant page puts the board where the choice is:
on a phone (360 px) the "Now" part, then the form, then the board directly under it (the
photographer's hand too, not a screen further down), nothing wider than the screen; on a
desktop (1280 px) the board beside the form.  And the "Now" part follows the match: the
host's close, made from the command line, redraws it.  Headless Chromium (the system's,
driven by Playwright); skipped, saying why, where either is missing."""

from __future__ import annotations

import pytest

from tests.helpers import invoke

from .chromium import browser, playwright, requires_chromium  # noqa: F401 (browser: a fixture)
from .support import STUDIO, Server, invite

pytestmark = requires_chromium
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
#: at most this many pixels between the form's bottom and the board's top on a phone
ADJACENT = 40
GAMES = {
    "lca": ("l1", ["--players", "ann,bob", "--studio", str(STUDIO)]),
    "pw": ("p1", ["--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan"]),
    "photographer": ("f1", ["--players", "ann,bob", "--seed", "3"]),
}


def box(page, selector: str) -> dict:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not shown"
    return found


def opened(browser, server: Server, link: dict, viewport: dict):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(link["url"].replace("http://127.0.0.1:8000", server.url))
    return context, page


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """Each game's match in one database, and one ``serve`` of it: (the server, each
    game's link for ann).  The tests only look: none changes a match."""
    db = tmp_path_factory.mktemp("layout") / "m.db"
    links = {}
    for game, (match, args) in GAMES.items():
        invoke(db, "new", game, match, *args)
        links[game] = invite(db, match, "--as", "ann", "--submit")
    with Server(db) as server:
        yield server, links


@pytest.mark.parametrize("game", sorted(GAMES))
def test_on_a_phone_now_comes_first_and_the_board_is_right_under_the_form(browser, served, game):
    server, links = served
    context, page = opened(browser, server, links[game], PHONE)
    now, form, board = box(page, "#now"), box(page, "#submit-form"), box(page, "#live .board svg")
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    hand = box(page, "#live .board g.hand") if game == "photographer" else None
    context.close()
    assert now["y"] + now["height"] <= form["y"] < 300, (now, form)  # what to do now, then the form at once
    gap = board["y"] - (form["y"] + form["height"])
    assert 0 <= gap <= ADJACENT, f"the board is {gap} px under the form"
    assert width[0] <= width[1], f"{width[0]} px wide in a {width[1]} px screen"
    if hand is not None:  # the wind is about the hand: it is in sight of the form
        below = hand["y"] - (form["y"] + form["height"])
        assert below < 300, f"the hand is {below} px under the form"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_on_a_desktop_the_board_is_beside_the_form(browser, served, game):
    server, links = served
    context, page = opened(browser, server, links[game], DESKTOP)
    form, board = box(page, "#submit-form"), box(page, "#live .board svg")
    context.close()
    assert board["x"] >= form["x"] + form["width"], (form, board)  # to its right
    assert board["y"] < form["y"] + form["height"], (form, board)  # and level with it


def test_the_now_part_follows_the_match_and_shows_the_receipt_that_counts(browser, tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    link = invite(db, "m1", "--as", "ann", "--submit")
    with Server(db, poll=0.05) as server:
        context, page = opened(browser, server, link, PHONE)
        assert page.inner_text("#now #headline") == "round 1 (lights)"
        assert "none yet" in page.inner_text("#now #counts")
        page.fill("input[name=tokens]", "B2 C2 D2 E2 F2")
        page.click('button[type="submit"]')
        page.wait_for_selector("#recorded")
        receipt = page.inner_text("#recorded code.receipt")
        assert page.inner_text("#now #counts code.receipt") == receipt
        page.wait_for_function("document.body.getAttribute('data-updates') !== null", timeout=10_000)
        invoke(db, "submit", "m1", "bob", "B3", "C3", "D3", "E3", "F3")
        invoke(db, "close", "m1")  # the host, from the command line: the stream redraws "Now"
        page.wait_for_selector("#now #headline:text-is('round 2 (cameras)')", timeout=10_000)
        assert "none yet" in page.inner_text("#now #counts")
        # the picker of Round 2 shows ann's own lights, as her board does
        own = page.eval_on_selector_all(
            'button.cell[data-mark~="own-light"]', "cells => cells.map(c => c.dataset.cell)"
        )
        context.close()
    assert own == ["B2", "C2", "D2"]

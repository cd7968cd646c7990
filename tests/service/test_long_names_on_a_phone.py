"""On a phone (360 px), the longest names the ledger accepts fit the page: a match id of
64 characters and a participant's name of 40, neither with a space to break at, and a
refused submission whose long token the error quotes back.  Each is text a careless host
or participant gives; none may make the page wider than the screen
(``document.documentElement.scrollWidth <= innerWidth``, as tests/service/test_page_audit.py
checks for the page states of ordinary names)."""

from __future__ import annotations

import pytest

from tests.helpers import invoke

from .chromium import browser, playwright, requires_chromium  # noqa: F401 (browser: a fixture)
from .support import STUDIO, Server, invite

pytestmark = requires_chromium

PHONE = {"width": 360, "height": 800}
WIDTHS = "[document.documentElement.scrollWidth, window.innerWidth]"
LONG_ID = "m" * 64
LONG_NAME = "A" * 40


def widths(browser, url: str) -> list[int]:
    page = browser.new_page(viewport=PHONE)
    try:
        page.goto(url)
        return page.evaluate(WIDTHS)
    finally:
        page.close()


@pytest.fixture
def long_id(tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "lca", LONG_ID, "--players", "ann,bob,cat", "--studio", STUDIO)
    return db


@pytest.fixture
def long_name(tmp_path):
    db = tmp_path / "n.db"
    invoke(db, "new", "lca", "m1", "--players", f"{LONG_NAME},bob,cat", "--studio", STUDIO)
    return db


def test_a_match_id_of_64_characters_fits_a_phone_on_every_page(browser, long_id):
    ann = invite(long_id, LONG_ID, "--as", "ann", "--submit")["token"]
    with Server(long_id) as server:
        for path in (f"/m/{LONG_ID}", f"/p/{ann}"):
            scroll, inner = widths(browser, server.url + path)
            assert scroll <= inner, (path, scroll)


def test_a_participants_name_of_40_characters_fits_a_phone_in_the_pages_header(browser, long_name):
    token = invite(long_name, "m1", "--as", LONG_NAME, "--submit")["token"]
    with Server(long_name) as server:
        page = browser.new_page(viewport=PHONE)
        page.goto(f"{server.url}/p/{token}")
        header = page.evaluate("(e => [e.scrollWidth, e.clientWidth])(document.querySelector('header'))")
        assert header[0] <= header[1], header


def test_a_participants_name_of_40_characters_fits_a_phone_on_their_page(browser, long_name):
    token = invite(long_name, "m1", "--as", LONG_NAME, "--submit")["token"]
    with Server(long_name) as server:
        scroll, inner = widths(browser, f"{server.url}/p/{token}")
        assert scroll <= inner, scroll


def test_a_refused_submission_quoting_a_long_token_fits_a_phone(browser, long_name):
    bob = invite(long_name, "m1", "--as", "bob", "--submit")["token"]
    with Server(long_name) as server:
        page = browser.new_page(viewport=PHONE)
        page.goto(f"{server.url}/p/{bob}")
        page.fill("input[name=tokens]", "G4 " + "Z" * 300)
        page.click("form.submit button[type=submit]")
        page.wait_for_selector("#refused")
        notice = page.evaluate("(e => [e.scrollWidth, e.clientWidth])(document.querySelector('#refused'))")
        assert notice[0] <= notice[1], notice

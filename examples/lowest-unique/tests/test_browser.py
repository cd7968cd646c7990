"""A real browser submits through the form the service draws from the game's legal
choices: headless Chromium (the system's, driven by Playwright) on a phone-sized screen
opens ann's link, picks her number from the list, submits and sees the receipt.
Skipped, saying why, where the driver, the browser or a form drawn from the choices is
missing."""

from __future__ import annotations

import shutil

import pytest
from conftest import read_json

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
playwright = pytest.importorskip("playwright.sync_api", reason="the Playwright driver is not installed")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed: apt-get install chromium")
PHONE = {"width": 360, "height": 740}


@pytest.fixture
def browser():
    with playwright.sync_playwright() as driver:
        try:
            launched = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        except playwright.Error as exc:  # a browser too old for the driver, libraries missing
            pytest.skip(f"{CHROMIUM} could not be started by Playwright: {str(exc).splitlines()[0]}")
        try:
            yield launched
        finally:
            launched.close()


def test_u3_ann_picks_her_number_from_the_form_drawn_from_the_choices(browser, served):
    db, client, token = served
    assert 'name="number"' in client.get(f"/p/{token}").text  # the form drawn from the legal choices
    context = browser.new_context(viewport=PHONE)
    errors: list[str] = []
    page = context.new_page()
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(f"{client.base_url}/p/{token}")
    numbers = page.eval_on_selector_all('select[name="number"] option', "options => options.map(o => o.value)")
    assert [n for n in numbers if n] == [str(n) for n in range(1, 11)]  # U3: 1 to highest
    page.select_option('select[name="number"]', "7")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.click('button[type="submit"]')
    page.wait_for_selector("#recorded")
    [row] = [r for r in read_json(db, "log", "s1") if r["event"].get("participant") == "ann"]
    assert row["event"]["tokens"] == ["7"]
    assert f"{row['seq']}:{row['hash']}" == page.inner_text("#recorded code.receipt")
    assert errors == []
    context.close()

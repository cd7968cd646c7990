"""A real browser submits through a form drawn from the game's legal choices: headless
Chromium (the system's, driven by Playwright) on a phone-sized screen opens a pw
guest's link, picks both actions from the lists (one a Predict of Predict, W1),
submits, and sees the receipt; the page is no wider than the phone.  Skipped, saying
why, where the driver or the browser is missing."""

from __future__ import annotations

import pytest

from tests.helpers import invoke

from .chromium import browser, playwright, requires_chromium  # noqa: F401 (browser: a fixture)
from .support import Server, cli_json, invite

pytestmark = [requires_chromium, pytest.mark.guarantee("service.forms-from-choices")]
PHONE = {"width": 360, "height": 740}


def test_a_pw_guest_submits_through_the_lists_drawn_from_the_choices(browser, tmp_path):
    db = tmp_path / "p.db"
    invoke(db, "new", "pw", "p1", "--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan")
    link = invite(db, "p1", "--as", "zed", "--submit")
    with Server(db, poll=0.05) as server:
        context = browser.new_context(viewport=PHONE)
        errors: list[str] = []
        page = context.new_page()
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        page.goto(link["url"].replace("http://127.0.0.1:8000", server.url))
        targets = page.eval_on_selector_all('select[name="a1_target"] option', "options => options.map(o => o.value)")
        assert targets == ["", "bob", "yan"]  # W2: not zed, not their partner ann
        page.select_option('select[name="a1_type"]', "predict")
        page.select_option('select[name="a1_target"]', "bob")
        page.select_option('select[name="a1_predict"]', "predict")
        page.select_option('select[name="a2_type"]', "watch")
        page.select_option('select[name="a2_target"]', "yan")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # reads on a phone
        page.click('button[type="submit"]')
        page.wait_for_selector("#recorded")
        [row] = [r for r in cli_json(db, "log", "p1") if r["actor"] == "zed"]
        assert row["event"]["tokens"] == ["predict:bob=predict", "watch:yan"]
        assert f"{row['seq']}:{row['hash']}" == page.inner_text("#recorded code.receipt")
        assert errors == []
        context.close()

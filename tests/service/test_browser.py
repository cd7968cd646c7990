"""A real browser: headless Chromium (the system's, driven by Playwright) opens a
participant's link, picks cells on the board, submits through the form, sees the
receipt, and watches the public page follow the host's close from the command line
without a reload.  Skipped, saying why, where the driver or the browser is missing
(`.ci/run` installs Chromium; the driver comes with the test extras)."""

from __future__ import annotations

import pytest

from tests.helpers import invoke

from .chromium import browser, playwright, requires_chromium  # noqa: F401 (browser: a fixture)
from .support import STUDIO, Server, invite

pytestmark = requires_chromium


@pytest.mark.guarantee("service.browser")
def test_a_participant_submits_through_the_form_and_the_public_page_follows_the_hosts_close(browser, tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    link = invite(db, "m1", "--as", "ann", "--submit")
    with Server(db, poll=0.05) as server:
        context = browser.new_context(viewport={"width": 390, "height": 844})  # a phone
        errors: list[str] = []
        mine = context.new_page()
        mine.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        mine.goto(link["url"].replace("http://127.0.0.1:8000", server.url))
        for cell in ("G4", "A1", "B1", "C1", "D1", "E1"):  # a sixth is one too many: ignored
            mine.click(f'button.cell[data-cell="{cell}"]')
        assert mine.input_value("input[name=tokens]") == "G4 A1 B1 C1 D1"
        assert mine.get_attribute('button.cell[data-cell="A1"]', "data-order") == "2"
        mine.click('button[type="submit"]')
        mine.wait_for_selector("#recorded")
        receipt = mine.inner_text("#recorded code.receipt")
        assert "1 receipt in the verified chain" in invoke(db, "verify", "m1", "--receipt", receipt).output
        assert receipt in mine.inner_text(".receipts")

        public = context.new_page()
        public.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        public.goto(f"{server.url}/m/m1")
        public.wait_for_selector("body[data-updates='1']")  # the stream is open (no eval: the CSP forbids it)
        assert public.inner_text("#headline") == "round 1 (lights)"
        public.evaluate("window.notReloaded = true")
        invoke(db, "submit", "m1", "bob", "F2", "A1", "B1", "C1", "D1")
        invoke(db, "close", "m1")  # the host, from the command line
        public.wait_for_selector("#headline:text-is('round 2 (cameras)')", timeout=10_000)
        assert public.evaluate("window.notReloaded") is True
        assert "F2" in public.inner_text(".panels")
        # ann's page followed too: her form now asks for three camera centres
        mine.wait_for_selector("table.pick[data-count='3']", timeout=10_000)
        assert "Round 2: pick 3 camera centres" in mine.inner_text("#form-area")
        assert errors == []  # nothing refused by the Content-Security-Policy, no script error
        context.close()

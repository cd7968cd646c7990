"""Headless Chromium for the service's page tests: the system's browser, driven by
Playwright (no browser is downloaded); a module using it skips, saying why, without
either.  ``from .chromium import CHROMIUM, browser, playwright`` (``browser`` is the
fixture)."""

from __future__ import annotations

import shutil

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
playwright = pytest.importorskip(
    "playwright.sync_api", reason="the Playwright driver is not installed (pip install -e '.[test]')"
)
requires_chromium = pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed: apt-get install chromium")


@pytest.fixture(scope="module")
def browser():
    """One Chromium per test module: starting it costs about a second of both cores, and each
    test's ``new_page`` opens a context of its own (no cookie or storage is shared)."""
    with playwright.sync_playwright() as driver:
        try:
            launched = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        except playwright.Error as exc:  # a browser too old for the driver, libraries missing
            pytest.skip(f"{CHROMIUM} could not be started by Playwright: {str(exc).splitlines()[0]}")
        try:
            yield launched
        finally:
            launched.close()

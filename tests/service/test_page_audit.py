"""Every page state of every game (tests/service/page_states.py), opened in a real
browser at a phone's width (360 px) and a desktop's (1280 px): nothing is wider than
the viewport (``document.documentElement.scrollWidth <= innerWidth``; at 390 px too), and an
accessibility audit (axe-core, through axe-playwright-python) finds no violation of
serious or critical impact.  And the cell picker works from the keyboard alone.

The states are built once for the module (one database, one ``serve``, one browser
and one tab), and each is visited once: both widths are measured and audited on the
same load.  Skipped, saying why, where the driver, the audit or the browser is missing.
"""

from __future__ import annotations

import pytest

from .chromium import CHROMIUM, playwright, requires_chromium
from .page_states import build, open_state
from .support import Server

axe_playwright = pytest.importorskip(
    "axe_playwright_python.sync_playwright", reason="axe-playwright-python is not installed (pip install -e '.[test]')"
)

# One worker builds the states and runs every test of the module, one after another.
pytestmark = [requires_chromium, pytest.mark.xdist_group("page_audit")]

WIDTHS = (360, 1280)
#: Measured for overflow only (no audit): a larger phone's width, where a fixed size
#: that fits 360 px can still overflow once the layout changes.
ALSO_MEASURED = (390,)
HEIGHT = 800
#: The impacts axe ranks above "moderate": each is a barrier to some reader.
BARRIERS = {"serious", "critical"}
WIDTH_NOW = "[document.documentElement.scrollWidth, window.innerWidth]"
#: What the page tells a phone about its width (without it a phone lays the page out
#: 980 px wide and shrinks it: nothing overflows, and nothing can be read).
VIEWPORT = "(document.querySelector('meta[name=viewport]') || {content: ''}).content"


#: axe-core's run over the whole page, keeping only what fails.
AXE_RUN = "axe.run(document, {resultTypes: ['violations']})"


def _barriers(page) -> list[str]:
    """The serious and critical violations axe-core finds on the page as it is now
    (axe-core injected into it once per load: a run is the costly part)."""
    found = []
    for violation in page.evaluate(AXE_RUN)["violations"]:
        if violation["impact"] in BARRIERS:
            nodes = "; ".join(" ".join(node["target"]) for node in violation["nodes"][:5])
            more = len(violation["nodes"]) - 5
            found.append(
                f"{violation['id']} ({violation['impact']}: {violation['help']}) at {nodes}"
                + (f" and {more} more" if more > 0 else "")
            )
    return found


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Every state built, one ``serve`` of them, and one browser tab: (states, the
    server's URL, the tab)."""
    folder = tmp_path_factory.mktemp("page-audit")
    db, states = build(folder)
    with Server(db) as server, playwright.sync_playwright() as driver:
        try:
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        except playwright.Error as exc:
            pytest.skip(f"{CHROMIUM} could not be started by Playwright: {str(exc).splitlines()[0]}")
        try:
            yield states, server.url, browser.new_page(viewport={"width": WIDTHS[0], "height": HEIGHT})
        finally:
            browser.close()


@pytest.fixture(scope="module")
def audited(site):
    """For each state (by its id): (the state, {width: (scrollWidth, innerWidth)},
    {width: [axe's barriers]}, the page's title, its viewport declaration)."""
    states, url, page = site
    axe_core = axe_playwright.Axe().axe_script
    results = {}
    for state in states:
        page.set_viewport_size({"width": WIDTHS[0], "height": HEIGHT})
        open_state(page, url, state)
        page.evaluate(axe_core)
        sizes, barriers = {}, {}
        for width in sorted(WIDTHS + ALSO_MEASURED):
            page.set_viewport_size({"width": width, "height": HEIGHT})
            sizes[width] = tuple(page.evaluate(WIDTH_NOW))
            if width in WIDTHS:
                barriers[width] = _barriers(page)
        results[state.id] = (state, sizes, barriers, page.title(), page.evaluate(VIEWPORT))
    return results


def test_the_audit_visits_every_state_of_every_game(audited):
    from tests.helpers import games

    shipped = {"lca", "pw", "photographer"} & set(games())
    assert {state.game for state, *_ in audited.values()} == shipped
    for state, _sizes, _barriers, title, viewport in audited.values():
        assert title, f"{state.id}: the page has no title"
        assert "width=device-width" in viewport, f"{state.id}: no viewport for a phone ({viewport!r})"


def test_no_page_state_is_wider_than_the_screen(audited):
    wide = [
        f"{state.id} at {width} px: {scroll} px wide"
        for state, sizes, _barriers, _title, _viewport in audited.values()
        for width, (scroll, inner) in sizes.items()
        if scroll > inner
    ]
    assert not wide, "pages wider than the viewport:\n" + "\n".join(wide)


def test_no_page_state_has_a_serious_or_critical_accessibility_violation(audited):
    found = [
        f"{state.id} at {width} px: {barrier}"
        for state, _sizes, barriers, _title, _viewport in audited.values()
        for width, listed in barriers.items()
        for barrier in listed
    ]
    assert not found, "axe-core found barriers:\n" + "\n".join(found)


#: The element that has the keyboard's focus, if it is a cell of a picker grid.
FOCUSED_CELL = "(() => { const e = document.activeElement; return e && e.closest('table.pick') && e.matches('button') ? e.getAttribute('data-tokens') : null; })()"
TYPED = "document.querySelector('form input[name=\"tokens\"]').value"


def _tab_to_a_cell(page, presses: int = 80) -> str:
    """Press Tab until a cell of the picker has the focus; its tokens."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        tokens = page.evaluate(FOCUSED_CELL)
        if tokens:
            return tokens
    raise AssertionError(f"no cell of the picker took the focus in {presses} presses of Tab")


def test_the_cell_picker_works_from_the_keyboard_alone(site):
    """Tab reaches a cell, Enter picks it, the right arrow moves to the next and Space picks it; the field the
    form sends holds both, in that order; Enter on a picked cell takes it out again."""
    states, url, page = site
    pickers = [s for s in states if s.name == "participant, before submitting"]
    tried = []
    for state in pickers:
        page.set_viewport_size({"width": WIDTHS[0], "height": HEIGHT})
        open_state(page, url, state)
        if not page.query_selector("table.pick button"):
            continue  # this game's form has no grid now
        tried.append(state.game)
        page.evaluate("document.activeElement && document.activeElement.blur()")
        first = _tab_to_a_cell(page)
        page.keyboard.press("Enter")
        assert page.evaluate(TYPED).split() == first.split(), state.id
        page.keyboard.press("ArrowRight")  # the grid is one tab stop: its cells are reached with the arrows
        second = page.evaluate(FOCUSED_CELL)
        assert second and second != first, state.id
        page.keyboard.press(" ")
        assert page.evaluate(TYPED).split() == [*first.split(), *second.split()], state.id
        page.keyboard.press("Enter")  # the same cell again: taken out
        assert page.evaluate(TYPED).split() == first.split(), state.id
    assert "lca" in tried, f"no picker grid on the participants' pages of {[s.game for s in pickers]}"

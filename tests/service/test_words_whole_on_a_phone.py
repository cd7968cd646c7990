"""On a phone (360 px), the headers of a results table are read whole: the photographer's
Scores table fits the screen by breaking its headers inside words ("participa nt",
"point s", "row s", "blurr ed"), which reads as a broken page.  A header may wrap between
words; no word may be cut."""

from __future__ import annotations

from tests.helpers import invoke

from .chromium import browser, playwright, requires_chromium  # noqa: F401 (browser: a fixture)
from .support import Server, invite

pytestmark = requires_chromium

#: The words of each header of a panel's table that are wider than their cell, as
#: [panel title, header, word] (each word measured alone, on one line, in the cell's font).
CUT_WORDS = """
Array.from(document.querySelectorAll('section.panel')).flatMap(panel =>
  Array.from(panel.querySelectorAll('th')).flatMap(th => {
    const style = getComputedStyle(th);
    const room = th.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return th.textContent.split(/\\s+/).filter(word => {
      const probe = document.createElement('span');
      probe.style.whiteSpace = 'nowrap';
      probe.textContent = word;
      th.appendChild(probe);
      const wide = probe.getBoundingClientRect().width;
      probe.remove();
      return wide > room + 0.5;
    }).map(word => [panel.querySelector('h2').textContent, th.textContent, word]);
  }))
"""


def test_the_photographers_scores_headers_are_not_cut_inside_words_on_a_phone(browser, tmp_path):
    db = tmp_path / "f.db"
    invoke(db, "new", "photographer", "f1", "--players", "ann,bob,cat", "--seed", "3")
    ann = invite(db, "f1", "--as", "ann", "--submit")["token"]
    with Server(db) as server:
        page = browser.new_page(viewport={"width": 360, "height": 800})
        page.goto(f"{server.url}/p/{ann}")
        assert page.query_selector_all("section.panel th"), "the panels have headers"
        assert page.evaluate(CUT_WORDS) == []


def test_the_photographers_scores_headers_are_whole_on_a_desktop(browser, tmp_path):
    """The measure itself: at 1280 px nothing is cut."""
    db = tmp_path / "f.db"
    invoke(db, "new", "photographer", "f1", "--players", "ann,bob,cat", "--seed", "3")
    ann = invite(db, "f1", "--as", "ann", "--submit")["token"]
    with Server(db) as server:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"{server.url}/p/{ann}")
        assert page.query_selector_all("section.panel th")
        assert page.evaluate(CUT_WORDS) == []

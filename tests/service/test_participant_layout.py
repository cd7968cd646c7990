"""A participant's page starts with what to do now, then the form with the board it is
about, then results and their own submissions (issue 27, "the board is not where the
choice is"): checked in the HTML the page is made of, in process, with no browser.

- the "Now" part: where the match stands (the headline), and the participant's move that
  counts now with its receipt, or none yet; the stream redraws it (its message carries it);
- lca: the picker's cells carry what the participant knows of the studio (lights with
  their brightness, their own lights, cameras), from the game's choices, and the web
  board has the picture's legend;
- photographer: the hand is drawn straight under the table, each card with its position,
  and the winds name position 1 as the bottom (as docs/design.md's notation counts them)."""

from __future__ import annotations

import json
import re

import pytest

from matchledger.commands.service import pages
from matchledger.commands.service.forms import form_html
from matchledger.commands.service.reads import Reads
from matchledger.projections.application import Application
from tests.helpers import invoke

from .support import STUDIO

pytestmark = pytest.mark.guarantee("service.forms-from-choices")

#: ann's lights end up on B2 C2 D2, bob's on B3 C3 D3 (L2: no cell named by both)
ROUND_1 = {"ann": "B2 C2 D2 E2 F2", "bob": "B3 C3 D3 E3 F3"}
ROUND_2 = {"ann": "B5 E5 H5", "bob": "B8 E8 H8"}


def page_of(db, match: str, who: str) -> tuple[str, dict]:
    """``who``'s page as the service draws it (with the form drawn from their choices),
    and the choices."""
    app = Application.open(db, read_only=True)
    try:
        page = Reads(app).page(match, who)
        description = app.choices(match, who, None)
        return pages.participant_page("t0ken", match, page, form_html(description)), description
    finally:
        app.close()


def lca(tmp_path, rounds: int):
    db = tmp_path / "l.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    for played in (ROUND_1, ROUND_2)[:rounds]:
        for who, cells in played.items():
            invoke(db, "submit", "m1", who, *cells.split())
        invoke(db, "close", "m1")
    return db


def section(html: str, opening: str) -> str:
    start = html.index(opening)
    return html[start : html.index("</section>", start)]


def test_the_page_starts_with_now_then_the_form_then_its_board_then_results_and_submissions(tmp_path):
    html, _ = page_of(lca(tmp_path, 1), "m1", "ann")
    order = [
        '<section id="now"',
        '<section id="form-area"',
        'class="board"',
        'class="panels"',
        'class="receipts"',
    ]
    at = [html.index(marker) for marker in order]
    assert at == sorted(at), dict(zip(order, at))
    now = section(html, '<section id="now"')
    assert '<p class="headline" id="headline">round 2 (cameras)</p>' in now
    assert html.count('id="headline"') == 1  # in "Now", no longer in the live part too
    # the form and the live part sit together, the board first in the live part
    assert re.search(
        r'<div class="play"><section id="form-area">.*</section><section id="live"><div class="board">', html, re.S
    )


def test_now_shows_the_move_that_counts_this_round_with_its_receipt(tmp_path):
    db = tmp_path / "l.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    html, _ = page_of(db, "m1", "ann")
    assert "Your move this round: none yet." in section(html, '<section id="now"')
    invoke(db, "submit", "m1", "ann", "A1", "B1", "C1", "D1", "E1")
    invoke(db, "submit", "m1", "ann", "G4", "A1", "B1", "C1", "D1")  # supersedes seq 2
    app = Application.open(db, read_only=True)
    try:
        rows = {row.seq: row.hash for row in app.store.log.rows("m1")}
    finally:
        app.close()
    now = section(page_of(db, "m1", "ann")[0], '<section id="now"')
    assert 'data-seq="3"' in now and "G4 A1 B1 C1 D1" in now
    assert f'<code class="receipt">3:{rows[3]}</code>' in now and rows[2] not in now
    invoke(db, "submit", "m1", "bob", "F2", "A1", "B1", "C1", "D1")
    invoke(db, "close", "m1")
    now = section(page_of(db, "m1", "ann")[0], '<section id="now"')
    assert "round 2 (cameras)" in now and "Your move this round: none yet." in now


def test_the_participants_stream_message_carries_the_now_part():
    message = pages.live_message("<p>live</p>", "<form></form>", "<p>now</p>")
    assert message.startswith(b"event: view\ndata: ")
    assert b'"now":"<p>now</p>"' in message and b'"form":"<form></form>"' in message
    assert b'"now"' not in pages.live_message("<p>live</p>")  # the public's: no "Now" part


def marks_of(description: dict) -> dict[str, list]:
    [part] = description["parts"]
    return {mark["name"]: mark["cells"] for mark in part["grid"]["marks"]}


def test_the_lca_picker_of_round_1_holds_the_walls_alone(tmp_path):
    db = tmp_path / "l.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    invoke(db, "submit", "m1", "bob", *ROUND_1["bob"].split())  # not announced: no mark of it
    _, description = page_of(db, "m1", "ann")
    assert list(marks_of(description)) == ["wall"]


def test_the_lca_picker_of_round_2_marks_lights_brightness_and_the_participants_own_lights(tmp_path):
    db = lca(tmp_path, 1)
    html, description = page_of(db, "m1", "ann")
    marks = marks_of(description)
    # [x, y]: B2 is [1, 1]
    assert marks["light"] == [[1, 1], [2, 1], [3, 1], [1, 2], [2, 2], [3, 2]]
    assert marks["own-light"] == [[1, 1], [2, 1], [3, 1]]  # ann's, told to her alone
    assert marks_of(page_of(db, "m1", "bob")[1])["own-light"] == [[1, 2], [2, 2], [3, 2]]
    status = json.loads(invoke(db, "status", "m1", "--public", "--json").stdout)["brightness"]
    for level in range(1, 6):
        expected = sorted(
            ([ord(name[0]) - ord("A"), int(name[1:]) - 1] for name, n in status.items() if n == level),
            key=lambda xy: (xy[1], xy[0]),
        )
        assert marks.get(f"brightness-{level}", []) == expected, level
    form = section(html, '<section id="form-area"')
    b2 = re.search(
        r'<button type="button" class="cell" data-mark="([^"]*)" data-cell="B2"[^>]*aria-label="([^"]*)"', form
    )
    assert b2.group(1).split() == ["light", "own-light", f"brightness-{status['B2']}"]
    assert b2.group(2) == f"B2, light, your light, brightness {status['B2']}"
    b3 = re.search(r'data-mark="([^"]*)" data-cell="B3"', form)
    assert "own-light" not in b3.group(1).split() and "light" in b3.group(1).split()
    assert '<ul class="marks"' in form and "your light</li>" in form


def test_the_lca_picker_of_round_3_marks_the_cameras_and_the_cells_they_see(tmp_path):
    _, description = page_of(lca(tmp_path, 2), "m1", "ann")
    marks = marks_of(description)
    centres = [[1, 4], [4, 4], [7, 4], [1, 7], [4, 7], [7, 7]]  # B5 E5 H5 B8 E8 H8
    assert sorted(marks["camera"]) == sorted(centres)
    seen = {(x + dx, y + dy) for x, y in centres for dx in (-1, 0, 1) for dy in (-1, 0, 1)} - set(map(tuple, centres))
    assert {tuple(cell) for cell in marks["filmed"]} == seen


def test_the_web_board_has_the_pictures_legend(tmp_path):
    html, _ = page_of(lca(tmp_path, 1), "m1", "ann")
    live = html[html.index('<section id="live">') :]
    legend = re.search(r'<ul class="legend"[^>]*>(.*?)</ul>', live, re.S)
    assert legend, "no legend beside the web board"
    labels = re.findall(r"</svg> ([^<]+)</li>", legend.group(1))
    assert labels[:2] == ["wall", "dark"] and "light" in labels and "camera" in labels and "yours" in labels
    assert live.index('class="board"') < legend.start() < live.index('class="panels"')


def test_the_photographers_hand_is_under_the_table_with_numbered_positions(tmp_path):
    db = tmp_path / "f.db"
    invoke(db, "new", "photographer", "f1", "--players", "ann,bob", "--seed", "3")
    html, description = page_of(db, "f1", "ann")
    board = html[html.index('class="board"') :]
    table, hand, film = (board.index(g) for g in ('id="table"', 'class="hand" data-player="ann"', 'class="film"'))
    assert table < hand < film  # the hand right under the table, before the films
    hand_group = board[hand : board.index("</g>", hand)]
    assert re.findall(r'class="position">(\d+)<', hand_group) == ["1", "2", "3", "4", "5"]
    wind = next(part for part in description["parts"] if part["name"] == "wind")
    labels = {tuple(o["tokens"]): o["label"] for o in wind["options"]}
    assert labels[("wind", "1:2")] == "1 (bottom) to 2" and labels[("wind", "2:3")] == "2 to 3"
    # the form's list of the wind's first position says which end 1 is
    assert re.search(r'<label>wind from \(1 = bottom\) <select name="wind_from">', html)

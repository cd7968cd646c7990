"""A game's presentation is found through its declaration (``GameSpec.presentation``, a
package that may be installed anywhere), and a game that declares none still has every
door: the read commands' text, `render`, `report`, `messages` and the service's pages,
in the generic form (projections/presentation/generic_picture.py, generic_messages.py).

The game here is the toy game of tests/toygame.py, which declares no presentation
(``engine.register``); tests/presentation/elsewhere/ is a presentation of its own kept
outside matchledger's folders, named by a declaration the test installs.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
import xml.dom.minidom

import pytest

from matchledger import engine
from matchledger.projections.presentation import games
from matchledger.projections.presentation.games import presentation_module
from tests.helpers import invoke, read_json

#: t1: rounds 1 and 2 closed (ann 3 then 2, bob 5 then 1), round 3 open; t2: finished.
SCRIPT = [
    ("new", "toy", "t1", "--players", "ann,bob"),
    ("submit", "t1", "ann", "3"),
    ("submit", "t1", "bob", "5"),
    ("close", "t1"),
    ("submit", "t1", "ann", "2"),
    ("submit", "t1", "bob", "1"),
    ("close", "t1"),
    ("new", "toy", "t2", "--players", "ann,bob"),
    *(step for _ in range(3) for step in (("submit", "t2", "ann", "4"), ("submit", "t2", "bob", "6"), ("close", "t2"))),
]


@pytest.fixture(scope="module")
def toy_db(tmp_path_factory):
    db = tmp_path_factory.mktemp("toy") / "toy.db"
    for step in SCRIPT:
        invoke(db, *step)
    return db


@pytest.fixture
def own_presentation(monkeypatch):
    """The toy game declared with a presentation of its own, kept outside matchledger."""
    declared = dataclasses.replace(engine.spec("toy"), presentation="tests.presentation.elsewhere")
    monkeypatch.setitem(engine._SPECS, "toy", declared)


def _render(db, tmp_path, *args) -> str:
    out = tmp_path / f"pic{len(list(tmp_path.iterdir()))}.svg"
    invoke(db, "render", *args, "-o", out)
    return out.read_text(encoding="utf-8")


def _texts(svg: str) -> list[str]:
    return re.findall(r"<text [^>]*>([^<]*)</text>", svg)


def test_the_read_commands_show_a_game_without_presentation_in_the_generic_text(toy_db):
    assert "ann: 5\n" in invoke(toy_db, "scores", "t1").output
    reveals = invoke(toy_db, "reveals", "t1", "--public").output
    assert "public.submitted" in reveals and "points" not in reveals
    assert "private.points" in invoke(toy_db, "knowledge", "t1", "--as", "ann").output


def test_render_draws_the_generic_picture_of_a_game_without_one(toy_db, tmp_path):
    host = _render(toy_db, tmp_path, "t1")
    xml.dom.minidom.parseString(host)  # well formed
    assert _render(toy_db, tmp_path, "t1") == host  # deterministic
    assert "t1 (toy) — round 3 — view: host — as of seq 7" in _texts(host)
    # the track: rounds 1 and 2 announced, 3 open
    assert re.findall(r'class="(announced|open|to-come)" data-round="(\d+)"', host) == [
        ("announced", "1"),
        ("announced", "2"),
        ("open", "3"),
    ]
    assert "Announced" in _texts(host) and "submitted ann bob" in _texts(host)
    assert "Told privately, round 2" in _texts(host) and "points 2" in _texts(host)
    public = _render(toy_db, tmp_path, "t1", "--public")
    assert "none known in this view yet" in _texts(public)  # nobody's scores are public yet
    assert not any(text.startswith("Told") or "points" in text for text in _texts(public))
    ann = _render(toy_db, tmp_path, "t1", "--as", "ann")
    told = _texts(ann)
    assert told[told.index("Told you, round 2") + 1 :][:2] == ["points", "2"]  # ann's own, not bob's 1
    assert "Scores" in told and "bob" not in told[told.index("Scores") :]


def test_the_generic_picture_of_a_finished_match_shows_the_standings(toy_db, tmp_path):
    svg = _render(toy_db, tmp_path, "t2", "--public")
    assert "t2 (toy) — finished — view: public — as of seq 11" in _texts(svg)
    assert "Outcome: standings" in _texts(svg)
    assert not re.findall(r'class="open"', svg)


def test_report_steps_through_a_game_without_pictures(toy_db, tmp_path):
    out = tmp_path / "t1.html"
    invoke(toy_db, "report", "t1", "--public", "-o", out)
    data = json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', out.read_text()).group(1))
    assert [frame["seq"] for frame in data["frames"]] == [1, 4, 7]  # the events the public may know of
    assert data["game"] == "toy" and all(board.startswith("<svg") for board in data["boards"])


def test_messages_of_a_game_without_its_own_hold_that_round_in_generic_words(toy_db):
    data = read_json(toy_db, "messages", "t1", "--round", "1")
    assert data["public"] == {"round": 1, "announced": {"submitted": ["ann", "bob"]}}
    assert data["participants"] == {
        "ann": {"round": 1, "announced": {"submitted": ["ann", "bob"]}, "told": {"points": 3}},
        "bob": {"round": 1, "announced": {"submitted": ["ann", "bob"]}, "told": {"points": 5}},
    }
    assert invoke(toy_db, "messages", "t1", "--as", "bob").output == (
        "=== to bob ===\nt1: round 2 is closed.\nAnnounced to all:\n  submitted: ann, bob\n"
        "Told only to you (bob):\n  points: 1\n"
    )
    assert invoke(toy_db, "messages", "t1", "--public").output == (
        "=== public post ===\nt1: round 2 is closed.\nAnnounced:\n  submitted: ann, bob\n"
    )


def test_the_service_pages_of_a_game_without_presentation_work(toy_db):
    import httpx

    from matchledger.commands import logs
    from matchledger.commands.service import build, writable
    from matchledger.ledger.stores import open_store
    from matchledger.projections.application import Application

    token = read_json(toy_db, "invite", "t1", "--as", "ann", "--submit")["token"]
    reader = Application(open_store(str(toy_db), read_only=True))
    asgi, service = build(reader, writable(str(toy_db), 1.0), logs.log().bind(), base_url="http://127.0.0.1:8000")

    async def pages():
        service.writer.start()
        try:
            async with httpx.AsyncClient(
                transport=httpx.ASGITransport(app=asgi), base_url="http://127.0.0.1:8000"
            ) as client:
                return [await client.get(path) for path in ("/m/t1", f"/p/{token}")]
        finally:
            service.writer.close()

    public, own = asyncio.run(pages())
    assert (public.status_code, own.status_code) == (200, 200), (public.text[:300], own.text[:300])
    for page in (public, own):
        assert '<p class="headline" id="headline">round 3</p>' in page.text
        assert '<div class="board"><svg' in page.text and 'data-key="scores"' in page.text
    assert "Told" not in public.text and "<td>points</td><td>2</td>" in own.text


def test_a_presentation_is_found_through_the_declaration_wherever_it_is_installed(toy_db, tmp_path, own_presentation):
    assert "toy totals: ann has 5, bob has 6\n" in invoke(toy_db, "scores", "t1").output
    svg = _render(toy_db, tmp_path, "t1")
    assert re.findall(r'class="toy-bar" data-player="(\w+)"', svg) == ["ann", "bob"]
    assert "t1 (toy) — toy after round 2 — view: host — as of seq 7" in _texts(svg)
    assert invoke(toy_db, "messages", "t1").output == (
        "=== public post ===\nt1 round 2: 2 players submitted.\n\n"
        "=== to ann ===\nann, you scored 2 in t1 round 2.\n\n"
        "=== to bob ===\nbob, you scored 1 in t1 round 2.\n"
    )
    assert "toy" in games.games_with("picture")


def test_a_declared_presentation_lacking_a_module_uses_the_generic_one(monkeypatch, toy_db, tmp_path):
    declared = dataclasses.replace(engine.spec("toy"), presentation="tests.presentation.broken")
    monkeypatch.setitem(engine._SPECS, "toy", declared)
    assert presentation_module("toy", "text") is None and presentation_module("toy", "messages") is None
    assert "ann: 5\n" in invoke(toy_db, "scores", "t1").output


def test_a_presentation_module_that_fails_to_import_raises(monkeypatch):
    for package in ("tests.presentation.broken", "tests.presentation.no_such_package"):
        monkeypatch.setitem(engine._SPECS, "toy", dataclasses.replace(engine.spec("toy"), presentation=package))
        with pytest.raises(ModuleNotFoundError):
            presentation_module("toy", "picture")


@pytest.mark.parametrize("game", [name for name in engine.names() if name != "toy"])
def test_the_generic_picture_and_messages_draw_any_games_read_models(game):
    """Knowing no game, the generic presentation must not fail on read models of shapes
    it was not written for: every installed game's, in every view, as a match opens and ends."""
    import random

    from matchledger.engine.state import HOST, PUBLIC, as_participant
    from matchledger.projections.fold import play
    from matchledger.projections.presentation import generic_messages, generic_picture
    from matchledger.projections.presentation.picture import read_models

    rules = engine.get(game)
    drawn = []

    def draw(match):
        state = match.state
        if len(drawn) > 12 and not state.finished:  # the opening, and the end, are enough
            return
        for view in (HOST, PUBLIC, as_participant(state.participants[0])):
            models = read_models(rules, state, view)
            board = generic_picture.board(models)
            panels = generic_picture.panels(models)
            assert board.width > 0 and panels and generic_picture.headline(models)
            public = generic_messages.public_message(models["reveals"], 1)
            assert generic_messages.public_lines("m", public)[0] == "m: round 1 is closed."
            if view.kind == "participant":
                own = generic_messages.participant_message(models["knowledge"], 1)
                assert generic_messages.participant_lines("m", view.participant, own)[0] == "m: round 1 is closed."
        drawn.append(state.last_seq)

    play(rules.sample(random.Random(7)), observe=draw)
    assert len(drawn) > 3

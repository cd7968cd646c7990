"""Stored text cannot drive a terminal: a log imported from elsewhere (or written by an
older version) may hold names, ids, notes and actors with control characters; every
text output shows them escaped, JSON output writes them as escapes, error messages too,
and pictures draw them escaped."""

from __future__ import annotations

import json

import pytest

from tests.helpers import invoke, needs_png

from .common import CONTROLS, uncontrolled
from .forged import HOSTILE, forged_lca, plant

PLAYERS = ["ann\x1b]52;c;aGk=\x07", "bob\nforged"]
MATCH = "m\x1b[2J\n1"
ACTOR = "host\x1b]0;pwned\x07"


@pytest.fixture
def hostile_text_db(tmp_path):
    db = tmp_path / "m.db"
    for number, note in enumerate(HOSTILE):
        match_id = MATCH if number == 0 else f"m{number}"
        plant(db, match_id, forged_lca(match_id, PLAYERS, note), ACTOR)
    return db


def clean(result, codes=(0,)) -> str:
    assert result.exit_code in codes, result.output
    text = result.stdout + result.stderr
    assert not uncontrolled(text), repr(text)
    return text


TEXT_COMMANDS = [
    ("status", MATCH),
    ("status", MATCH, "--as", PLAYERS[0]),
    ("scores", MATCH),
    ("outcome", MATCH),
    ("reveals", MATCH),
    ("reveals", MATCH, "--as", PLAYERS[1]),
    ("knowledge", MATCH, "--as", PLAYERS[0]),
    ("messages", MATCH),
    ("log", MATCH),
    ("audit", MATCH),
    ("explain", MATCH, PLAYERS[0]),
    ("rescore", MATCH, "--option", "filming_lights_divisor=1"),
    ("head", MATCH),
    ("verify", MATCH),
    ("verify", "--all", "--jobs", "1"),
]


@pytest.mark.guarantee("terminal.text-escaped")
@pytest.mark.parametrize("args", TEXT_COMMANDS, ids=lambda args: " ".join(args[:1] + args[2:3]))
def test_every_text_command_shows_stored_control_characters_escaped(hostile_text_db, args):
    # verify and audit name the first text no command accepts: a finding (exit 3), escaped
    text = clean(invoke(hostile_text_db, *args, expect=None), codes=(3,) if args[0] in ("verify", "audit") else (0,))
    if args[0] not in ("head", "verify"):
        assert "\\x1b" in text or "\\n" in text


@pytest.mark.guarantee("terminal.no-forged-rows")
def test_a_note_cannot_forge_a_log_row(hostile_text_db):
    for number in range(len(HOSTILE)):
        match_id = MATCH if number == 0 else f"m{number}"
        listing = clean(invoke(hostile_text_db, "log", match_id)).splitlines()
        events = len(json.loads(invoke(hostile_text_db, "log", match_id, "--json").stdout))
        assert len(listing) == 3 + events  # the title, the header, the rule, a line an event
    assert "forged" not in "".join(line for line in listing if line.lstrip().startswith("9 "))


@pytest.mark.guarantee("terminal.no-forged-rows")
def test_a_match_id_cannot_forge_a_verify_all_line(hostile_text_db):
    lines = clean(invoke(hostile_text_db, "verify", "--all", "--jobs", "1", expect=3), codes=(3,)).splitlines()
    assert len(lines) == len(HOSTILE) + 1  # a finding a match, and the count
    # the id escaped; the first finding is then the hostile actor's (checked before the id)
    assert lines[0].startswith("FINDING m\\x1b[2J\\n1 seq 1: ")


@pytest.mark.guarantee("terminal.no-forged-rows")
def test_diff_names_the_parting_escaped(hostile_text_db):
    text = clean(invoke(hostile_text_db, "diff", "m1", "m2", expect=3), codes=(3,))
    assert "field text" in text and "\\x1b" in text


@pytest.mark.guarantee("terminal.json-escaped")
def test_json_output_writes_unprintable_characters_as_escapes_of_the_same_value(hostile_text_db):
    result = invoke(hostile_text_db, "log", "m5", "--json")
    assert not uncontrolled(result.stdout)
    assert "\\u009b2J" in result.stdout
    events = json.loads(result.stdout)
    assert events[-2]["event"]["text"] == HOSTILE[5] and events[0]["actor"] == ACTOR
    status = json.loads(clean(invoke(hostile_text_db, "status", MATCH, "--json")))
    assert status["match"] == MATCH and status["players"] == PLAYERS


@pytest.mark.guarantee("terminal.pictures-escaped")
@pytest.mark.parametrize("suffix", [".svg", pytest.param(".png", marks=needs_png())])
def test_pictures_draw_control_characters_escaped(hostile_text_db, tmp_path, suffix):
    out = tmp_path / f"board{suffix}"
    clean(invoke(hostile_text_db, "render", MATCH, "--as", PLAYERS[0], "-o", out))
    if suffix == ".svg":
        svg = out.read_text(encoding="utf-8")
        assert not set(svg) & (CONTROLS - {"\n"})
        assert "ann\\x1b]52;c;aGk=\\x07" in svg


@pytest.mark.guarantee("terminal.pictures-escaped")
def test_the_replay_page_is_written(hostile_text_db, tmp_path):
    clean(invoke(hostile_text_db, "report", MATCH, "-o", tmp_path / "m.html"))


@pytest.mark.parametrize(
    "args",
    [
        ("status", "m\x1b]52;c;aGk=\x07"),
        ("status", "m1", "--\x1b[2J"),
        ("status", "m1", "extra\x1b[2J"),
        ("\x1b[2Jstatus",),
        ("status", "m1", "--as", "bob\x1b[31m"),
        ("--db\x1b[2J", "x"),
    ],
)
@pytest.mark.guarantee("terminal.errors-escaped")
def test_error_messages_show_what_was_typed_escaped(hostile_text_db, args):
    result = invoke(hostile_text_db, *args, expect=None)
    assert result.exit_code in (1, 2)
    assert "\\x1b" in clean(result, codes=(1, 2))

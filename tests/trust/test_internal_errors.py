"""No input reaches an internal error: JSON nested deeper than any decoder goes, in an
imported file or an announced one, is a clean refusal (exit 1), and so is JSON nested
deeper than JSON_MAX_DEPTH."""

from __future__ import annotations

import json

import pytest

from matchledger.ledger.limits import JSON_MAX_DEPTH
from tests.helpers import invoke

from .common import new_lca, rows

ENVELOPE = {
    "match_id": "x1",
    "seq": 1,
    "kind": "NoteAdded",
    "recorded_at": "2024-01-01T00:00:00Z",
    "actor": "host",
    "prev_hash": "0" * 64,
    "hash": "0" * 64,
}


def export_line(body: str) -> str:
    head = json.dumps(ENVELOPE)[:-1]
    return f'{head}, "body": {body}}}\n'


@pytest.mark.guarantee("input.json-depth")
@pytest.mark.parametrize("depth", [100_000, 1_000, JSON_MAX_DEPTH + 1])
def test_an_import_nested_too_deeply_is_refused(tmp_path, depth):
    body = '{"type": "NoteAdded", "v": 1, "text": "x", "deep": ' + "[" * depth + "]" * depth + "}"
    path = tmp_path / "deep.jsonl"
    path.write_text(export_line(body))
    db = tmp_path / "m.db"
    result = invoke(db, "import", path, expect=1)
    assert "line 1" in result.stderr and "internal error" not in result.stderr
    if depth < 1_000:
        assert f"{depth + 1} levels deep; at most {JSON_MAX_DEPTH}" in result.stderr
    assert rows(db) == []


@pytest.mark.guarantee("input.json-depth")
def test_an_announced_file_nested_too_deeply_is_refused(tmp_path):
    db = tmp_path / "m.db"
    new_lca(db)
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    result = invoke(db, "outcome", "m1", "--announced", path, expect=1)
    assert "nested too deeply" in result.stderr and "internal error" not in result.stderr


@pytest.mark.parametrize(
    "args, fragment",
    [
        (("log", "m\udcff"), "'m\\udcff' is not UTF-8 text"),
        (("note", "m1", "caf\udce9"), "is not UTF-8 text"),
        (("render", "m1", "-o", "b\x00.svg"), "holds a NUL character"),
        (("export", "m1", "-o", "e\x00.jsonl"), "holds a NUL character"),
    ],
)
@pytest.mark.guarantee("input.arguments-text")
def test_an_argument_that_is_not_text_is_refused(tmp_path, args, fragment):
    """A shell hands over bytes that are not UTF-8 as lone surrogates, and a script line
    can hold a NUL: neither names anything the ledger keeps, and neither reaches it."""
    db = tmp_path / "m.db"
    new_lca(db)
    before = rows(db)
    result = invoke(db, *args, expect=1)
    assert fragment in result.stderr and "internal error" not in result.stderr
    assert rows(db) == before and {p.name for p in tmp_path.iterdir()} <= {"m.db", "m.db-shm", "m.db-wal"}


@pytest.mark.guarantee("input.arguments-text")
def test_a_script_line_holding_a_nul_is_refused(tmp_path):
    db = tmp_path / "m.db"
    new_lca(db)
    script = tmp_path / "s.txt"
    script.write_text("note m1 'a\x00b'\n")
    result = invoke(db, "script", script, expect=1)
    assert "line 1" in result.stderr and "NUL" in result.stderr

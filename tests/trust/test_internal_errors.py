"""No input reaches an internal error: JSON nested deeper than any decoder goes, in an
imported file or an announced one, is a clean refusal (exit 1), and so is JSON nested
deeper than JSON_MAX_DEPTH."""

from __future__ import annotations

import json

import pytest
from matchledger.ledger.limits import JSON_MAX_DEPTH

from tests.helpers import invoke

from .common import new_lca, rows

ENVELOPE = {"match_id": "x1", "seq": 1, "kind": "NoteAdded", "recorded_at": "2024-01-01T00:00:00Z",
            "actor": "host", "prev_hash": "0" * 64, "hash": "0" * 64}


def export_line(body: str) -> str:
    head = json.dumps(ENVELOPE)[:-1]
    return f'{head}, "body": {body}}}\n'


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


def test_an_announced_file_nested_too_deeply_is_refused(tmp_path):
    db = tmp_path / "m.db"
    new_lca(db)
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    result = invoke(db, "outcome", "m1", "--announced", path, expect=1)
    assert "nested too deeply" in result.stderr and "internal error" not in result.stderr

"""docs/canonical-json.md is true: its shell example, run as written on a fresh database,
recomputes the stored hash; its Python, run as written, recomputes every hash of random
events holding any text (non-ASCII names, quotes, backslashes, control characters)."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchledger.ledger.events import MatchCreated, NoteAdded, SubmissionRecorded
from matchledger.ledger.store import Store

from ..helpers import REPO

pytestmark = pytest.mark.guarantee("output.canonical-json")

DOC = REPO / "docs" / "canonical-json.md"


def _example(kind: str) -> str:
    """The fenced block right after the doc's ``<!-- example:KIND`` marker."""
    found = re.search(rf"<!-- example:{kind}\b[^\n]*-->\n```\w+\n(.*?)\n```", DOC.read_text(encoding="utf-8"), re.S)
    assert found, f"docs/canonical-json.md has no {kind} example"
    return found.group(1)


def _stored(db: Path, match_id: str, seq: int) -> tuple[str, str]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT body, hash FROM events WHERE match_id = ? AND seq = ?", (match_id, seq)).fetchone()


def _reproduce_hashes():
    namespace: dict = {}
    exec(compile(_example("python"), str(DOC), "exec"), namespace)
    return namespace["reproduce_hashes"]


@pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("bash", "sqlite3", "sha256sum")),
    reason="the shell example needs bash, the sqlite3 shell and sha256sum, not all installed here",
)
def test_the_documented_shell_example_recomputes_the_stored_hash_of_a_non_ascii_event(tmp_path):
    bin_dir = Path(sys.executable).parent
    assert (bin_dir / "matchledger").exists(), "the example runs the installed matchledger command"
    env = {**os.environ, "PATH": os.pathsep.join([str(bin_dir), os.environ.get("PATH", "")])}
    env.pop("MATCHLEDGER_DB", None)
    result = subprocess.run(
        ["bash", "-e", "-c", _example("shell")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    body, stored = _stored(tmp_path / "audit.db", "m1", 2)
    *_, hashed_bytes, computed, printed = result.stdout.splitlines()
    assert computed == f"{stored}  -"
    assert printed == stored
    assert '李 \\"wins\\" \\\\o/' in body and hashed_bytes.count(body) == 1  # the body as stored, UTF-8 as is
    assert "\\u" not in hashed_bytes


def test_the_documented_python_recomputes_the_hashes_of_the_worked_example(tmp_path):
    db = tmp_path / "audit.db"
    from ..helpers import invoke

    invoke(db, "new", "photographer", "m1", "--players", "李,Аня")
    invoke(db, "note", "m1", 'Аня: «good game», 李 "wins" \\o/')
    assert _reproduce_hashes()(str(db), "m1") == 2


def test_json_dumps_with_its_defaults_gives_another_hash_for_a_non_ascii_name(tmp_path):
    """Why the doc names the two settings: Python's defaults give other bytes."""
    db = tmp_path / "audit.db"
    store = Store(db)
    store.append("m1", 1, [NoteAdded(text="李")], actor="host", recorded_at="2026-01-01T00:00:00.000000Z")
    store.close()
    body, _hash = _stored(db, "m1", 1)
    assert json.dumps(json.loads(body), ensure_ascii=False, separators=(",", ":")) == body
    assert json.dumps(json.loads(body)) != body  # "\u674e" and spaces
    assert (
        json.dumps(json.loads(body), ensure_ascii=False, separators=(",", ":"), sort_keys=True) != body
    )  # fields unsorted


ANY_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
NAMES = st.lists(
    st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=8), min_size=1, max_size=4
)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**63 - 1) | ANY_TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(ANY_TEXT, inner, max_size=3),
    max_leaves=8,
)
SALTS = st.none() | st.binary(min_size=16, max_size=16).map(bytes.hex)


def _events(draw_names, options, notes, tokens, salts):
    created = MatchCreated(game="lca", players=draw_names, options=options, setup={"names": draw_names})
    events = (
        [created]
        + [NoteAdded(text=note) for note in notes]
        + [SubmissionRecorded(participant=draw_names[0], round=1, tokens=tokens)]
    )
    return [
        event if salt is None else event.__class__(**{**_fields(event), "salt": salt})
        for event, salt in zip(events, salts)
    ]


def _fields(event) -> dict:
    return {name: getattr(event, name) for name in event.__struct_fields__}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    names=NAMES,
    options=st.dictionaries(ANY_TEXT, JSON_VALUES, max_size=4),
    notes=st.lists(ANY_TEXT, max_size=3),
    tokens=st.lists(ANY_TEXT, max_size=3),
    salts=st.lists(SALTS, min_size=5, max_size=5),
    actor=st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=10),
)
def test_the_documented_python_recomputes_every_hash_of_random_events(names, options, notes, tokens, salts, actor):
    reproduce_hashes = _reproduce_hashes()
    events = _events(names, options, notes, tokens, salts)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "m.db"
        store = Store(db)
        store.append("m.1", 1, events, actor=actor, recorded_at="2026-01-01T00:00:00.000000Z")
        store.close()
        assert reproduce_hashes(str(db), "m.1") == len(events)
        with sqlite3.connect(db) as conn:
            for (body,) in conn.execute("SELECT body FROM events"):
                assert json.dumps(json.loads(body), ensure_ascii=False, separators=(",", ":")) == body

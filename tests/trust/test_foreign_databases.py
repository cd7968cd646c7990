"""A file that is not a matchledger database is refused, naming it, and left byte for
byte as it was, by reads and writes alike; a database of an earlier matchledger (no
mark, but exactly our table and triggers) is ours, and a write marks it."""

from __future__ import annotations

import sqlite3

import pytest
from click.testing import CliRunner

from matchledger.commands.cli import cli
from matchledger.ledger.errors import ForeignDatabase
from matchledger.ledger.events import MatchCreated
from matchledger.ledger.sqlite_file import APPLICATION_ID
from matchledger.ledger.store import Store

from ..helpers import invoke
from .support import fingerprint, other_programs_database

READS = [
    ("log", "m1"),
    ("status", "m1"),
    ("verify", "--all"),
    ("verify", "m1"),
    ("audit", "m1"),
    ("export", "m1"),
    ("head", "m1"),
]
WRITES = [
    ("new", "toy", "m1", "--players", "a,b"),
    ("init",),
    ("note", "m1", "hello"),
    ("checkpoint", "--all"),
]


def _not_ours(kind: str, path) -> None:
    if kind == "another program's":
        other_programs_database(path)
    elif kind == "empty SQLite":
        sqlite3.connect(path).execute("VACUUM")  # a valid database file with nothing in it
    elif kind == "not SQLite":
        path.write_bytes(b"a text file, not a database\n" * 100)
    elif kind == "another application_id":
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA application_id = 1196444487")  # GeoPackage's
        conn.execute("CREATE TABLE features (id INTEGER)")
        conn.commit()
        conn.close()


KINDS = ["another program's", "empty SQLite", "not SQLite", "another application_id"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("args", READS + WRITES, ids=" ".join)
@pytest.mark.guarantee("files.foreign-refused")
def test_a_file_that_is_not_ours_is_refused_by_name_and_left_unchanged(tmp_path, kind, args):
    db = tmp_path / "theirs.db"
    _not_ours(kind, db)
    before = fingerprint(db)
    result = invoke(db, *args, expect=None)
    assert result.exit_code == 1, result.output
    assert f"cannot open {str(db)!r} as a matchledger database" in result.output
    assert "left unchanged" in result.output and "internal error" not in result.output
    assert fingerprint(db) == before


@pytest.mark.guarantee("files.foreign-refused")
def test_another_programs_events_table_keeps_working_after_we_were_pointed_at_it(tmp_path):
    ours = tmp_path / "ours.db"
    invoke(ours, "new", "toy", "m1", "--players", "a,b")
    exported = tmp_path / "m1.jsonl"
    invoke(ours, "export", "m1", "-o", exported)
    db = tmp_path / "theirs.db"
    other_programs_database(db)
    for args in [("log", "m1"), ("verify", "--all"), ("new", "toy", "m1", "--players", "a,b"), ("import", exported)]:
        invoke(db, *args, expect=1)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE events SET what = 'still theirs'")  # no trigger of ours refuses it
    conn.execute("DELETE FROM events")
    conn.commit()
    names = [row[0] for row in conn.execute("SELECT name FROM sqlite_master")]
    conn.close()
    assert names == ["events"]


@pytest.mark.guarantee("files.write-creates")
def test_an_empty_file_is_refused_by_a_read_and_becomes_a_database_on_a_write(tmp_path):
    db = tmp_path / "empty.db"
    db.touch()
    assert "it is empty" in invoke(db, "status", "m1", expect=1).output
    assert db.read_bytes() == b""
    invoke(db, "new", "toy", "m1", "--players", "a,b")
    assert _application_id(db) == APPLICATION_ID


@pytest.mark.guarantee("files.write-creates")
def test_a_new_database_is_marked_and_its_folder_must_exist(tmp_path):
    db = tmp_path / "new.db"
    invoke(db, "new", "toy", "m1", "--players", "a,b")
    assert _application_id(db) == APPLICATION_ID
    assert Store(":memory:").conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    missing = tmp_path / "no-such-folder" / "m.db"
    assert "folder" in invoke(missing, "init", expect=1).output and not missing.parent.exists()


def _application_id(db) -> int:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("PRAGMA application_id").fetchone()[0]
    finally:
        conn.close()


def _earlier_matchledger_database(db, *, journal_mode: str = "wal") -> None:
    """A database as matchledger wrote it before the mark: our table and triggers, no
    application_id and no recorded schema version (here: one of ours with the mark and the
    version taken off: every version recorded is recorded with the mark)."""
    store = Store(db)
    created = MatchCreated(game="toy", players=["ann", "bob"], options={"multiplier": 1})  # as `new` records it
    store.append("m1", 1, [created], actor="h", recorded_at="2026-01-01T00:00:00.000000Z")
    store.close()
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA application_id = 0")
    conn.execute("PRAGMA user_version = 0")
    conn.execute(f"PRAGMA journal_mode = {journal_mode}")
    conn.close()


@pytest.mark.guarantee("files.earlier-version")
def test_an_earlier_matchledgers_database_is_read_unchanged_and_marked_by_a_write(tmp_path):
    db = tmp_path / "earlier.db"
    _earlier_matchledger_database(db, journal_mode="delete")
    before = fingerprint(db)
    invoke(db, "status", "m1")
    invoke(db, "verify", "--all")
    assert fingerprint(db) == before  # not even a switch to WAL
    invoke(db, "note", "m1", "hello")
    assert _application_id(db) == APPLICATION_ID
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


@pytest.mark.guarantee("files.earlier-version")
def test_our_table_without_our_triggers_or_mark_is_not_ours(tmp_path):
    db = tmp_path / "lookalike.db"
    _earlier_matchledger_database(db)
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER events_no_update")
    conn.close()
    before = fingerprint(db)
    for args in [("status", "m1"), ("note", "m1", "x")]:
        assert "lacks the append-only triggers" in invoke(db, *args, expect=1).output
    assert fingerprint(db) == before


@pytest.mark.guarantee("files.read-changes-nothing")
def test_a_read_creates_no_table_trigger_or_snapshot_and_the_store_refuses_writes(tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "toy", "m1", "--players", "a,b")
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER events_no_delete")  # a marked file a read must not repair
    conn.close()
    before = fingerprint(db)["file"]
    for args in [
        ("status", "m1"),
        ("scores", "m1"),
        ("log", "m1"),
        ("verify", "m1"),
        ("audit", "m1"),
        ("export", "m1"),
    ]:
        invoke(db, *args, expect=None)
    assert fingerprint(db)["file"] == before
    store = Store(db, read_only=True)
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        store.conn.execute("CREATE TABLE snapshots (x)")
    store.close()


@pytest.mark.guarantee("files.foreign-refused")
def test_store_refuses_a_foreign_file_with_its_own_error(tmp_path):
    db = tmp_path / "theirs.db"
    other_programs_database(db)
    for options in ({"read_only": True}, {"create": False}, {"create": True}):
        with pytest.raises(ForeignDatabase, match="events table is not matchledger's"):
            Store(db, **options)


@pytest.mark.parametrize("value", ["", ":memory:"])
@pytest.mark.guarantee("files.db-named")
def test_db_must_name_a_file(tmp_path, monkeypatch, value):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["--db", value, "new", "toy", "m1", "--players", "a,b"])
    assert result.exit_code == 2 and "names no database file" in result.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.guarantee("files.db-named")
def test_an_empty_matchledger_db_variable_is_refused_not_taken_for_the_default(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["init"], env={"MATCHLEDGER_DB": ""})
    assert result.exit_code == 2 and "MATCHLEDGER_DB is set but empty" in result.output
    assert list(tmp_path.iterdir()) == []
    assert CliRunner().invoke(cli, ["--db", "given.db", "init"], env={"MATCHLEDGER_DB": ""}).exit_code == 0

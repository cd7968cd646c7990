"""SQLite files of every earlier layout (tests/migrations/layouts.py): a read reads each as
it is and changes nothing; the first write brings it to this version (marked, the
version recorded), every event's bytes and hash as they were and verify passing; a file
of a newer version is refused by reads and writes alike, naming both versions."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from matchledger.ledger import migrations
from matchledger.ledger.errors import CorruptLog
from matchledger.ledger.events import NoteAdded
from matchledger.ledger.migrations import Migration, NewerSchema
from matchledger.ledger.sqlite_file import APPLICATION_ID
from matchledger.ledger.stores import open_store
from matchledger.projections.application import Application
from tests.helpers import invoke
from tests.trust.support import fingerprint

from .layouts import SQLITE_LAYOUTS, sqlite_database, sqlite_rows
from .support import verdicts, verified

T = "2026-01-01T00:00:00.000000Z"
NEWER = (
    "its tables are of matchledger schema version {found}, newer than the version this matchledger reads "
    "({readable}); upgrade matchledger; nothing was changed"
)


def _header(db) -> tuple[int, int]:
    """(application_id, user_version), as any SQLite client reads them."""
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT * FROM pragma_application_id, pragma_user_version").fetchone()
    finally:
        conn.close()


def _contents(db) -> dict:
    """The file and its WAL (SQLite's -shm index is rewritten by any connection's read)."""
    found = fingerprint(db)
    return {"file": found["file"], "-wal": found["-wal"]}


def _schema(db) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").fetchall()
    finally:
        conn.close()


@pytest.fixture(params=list(SQLITE_LAYOUTS))
def earlier(request, tmp_path, season_tables):
    """A file of an earlier layout holding the season (what of it the layout can hold)."""
    db = tmp_path / f"{request.param}.db"
    sqlite_database(db, request.param, season_tables)
    return db


def test_every_earlier_layout_is_older_than_this_version():
    assert migrations.sqlite_version() == 4
    assert {version for version, _make in SQLITE_LAYOUTS.values()} == {1, 2, 3}
    assert [m.version for m in migrations.SQLITE_MIGRATIONS] == [1, 2, 3, 4]


@pytest.mark.guarantee("files.schema-version")
def test_a_read_of_each_earlier_layout_reads_it_as_it_is_and_changes_nothing(earlier, season_tables):
    before, header = fingerprint(earlier)["file"], _header(earlier)  # (a read may leave empty -wal and -shm files)
    assert verified(earlier) == verdicts(season_tables)
    for args in (("status", "g3"), ("log", "amend5"), ("outcome", "g3", "--json"), ("export", "amend5")):
        invoke(earlier, *args)
    assert fingerprint(earlier)["file"] == before
    assert _header(earlier) == header and header[1] < migrations.sqlite_version()  # no version recorded by a read


@pytest.mark.guarantee("files.schema-version")
def test_the_first_write_migrates_each_earlier_layout_and_keeps_every_event(earlier, season_tables):
    before = sqlite_rows(earlier)
    invoke(earlier, "note", "g3", "after the upgrade")
    assert _header(earlier) == (APPLICATION_ID, migrations.sqlite_version())
    after = sqlite_rows(earlier)
    assert after["events"][: len(before["events"])] == before["events"]  # every byte, every hash
    assert [row[2] for row in after["events"][len(before["events"]) :]] == ["NoteAdded"]
    for table in ("snapshots", "capabilities"):
        assert after.get(table, []) == before.get(table, [])
    assert verified(earlier) == verdicts(season_tables, g3=1)
    schema = _schema(earlier)
    invoke(earlier, "note", "g3", "and once more")  # nothing left to migrate
    assert _schema(earlier) == schema
    assert {name for kind, name, _table, _sql in schema if kind == "trigger"} == {
        "events_no_update",
        "events_no_delete",
    }


@pytest.mark.guarantee("files.schema-version")
def test_a_write_that_appends_nothing_migrates_too(tmp_path, season_tables):
    db = tmp_path / "first.db"
    sqlite_database(db, "sqlite-1-first-release", season_tables)
    invoke(db, "init")
    assert _header(db) == (APPLICATION_ID, migrations.sqlite_version())
    assert sqlite_rows(db)["events"] == season_tables["events"]


def test_a_new_file_is_made_by_the_migrations_and_records_its_version(tmp_path):
    db = tmp_path / "new.db"
    invoke(db, "init")
    assert _header(db) == (APPLICATION_ID, migrations.sqlite_version())
    conn = sqlite3.connect(":memory:")  # the migrations from the start, on their own
    migrations.migrate_sqlite(conn, 0)
    assert conn.execute(
        "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
    ).fetchall() == _schema(db)


def _newer(db, *, add_table: bool = True) -> None:
    """What a newer matchledger might leave: a higher version recorded, and a table of its own."""
    conn = sqlite3.connect(db)
    try:
        conn.execute(f"PRAGMA user_version = {migrations.sqlite_version() + 1}")
        if add_table:
            conn.execute("CREATE TABLE projections (match_id TEXT PRIMARY KEY, body BLOB)")
        conn.commit()
    finally:
        conn.close()


@pytest.mark.guarantee("files.schema-version")
def test_a_file_of_a_newer_schema_is_refused_by_reads_and_writes_naming_both_versions(tmp_path):
    db = tmp_path / "newer.db"
    invoke(db, "new", "toy", "m1", "--players", "a,b")
    _newer(db)
    before = _contents(db)
    message = NEWER.format(found=migrations.sqlite_version() + 1, readable=migrations.sqlite_version())
    for args in (("status", "m1"), ("verify", "--all"), ("note", "m1", "x"), ("init",)):
        output = invoke(db, *args, expect=1).output
        assert output == f"Error: cannot use {str(db)!r}: {message}\n", args
    for options in ({"read_only": True}, {"create": False}, {}):
        with pytest.raises(NewerSchema) as refused:
            open_store(db, **options)
        latest = migrations.sqlite_version()
        assert (refused.value.found, refused.value.readable) == (latest + 1, latest)
    assert _contents(db) == before


@pytest.mark.parametrize("layout, version", [("sqlite-1-first-release", 99), ("sqlite-2-marked", -5)])
@pytest.mark.guarantee("files.schema-version")
def test_a_version_no_matchledger_records_is_refused_not_migrated(tmp_path, season_tables, layout, version):
    """A version without the mark (every recorded version is recorded with it), or a
    negative one, is someone else's: refused by reads and writes, the file unchanged."""
    db = tmp_path / "forged.db"
    sqlite_database(db, layout, season_tables)
    conn = sqlite3.connect(db)
    try:
        conn.execute(f"PRAGMA user_version = {version}")
        conn.commit()
    finally:
        conn.close()
    before = _contents(db)
    for args in (("list",), ("init",), ("note", "g3", "x")):
        output = invoke(db, *args, expect=1).output
        assert f"it records schema version {version} (user_version)" in output, (args, output)
        assert "the file was left unchanged" in output
    assert _contents(db) == before


@pytest.mark.guarantee("files.schema-version")
def test_a_newer_matchledger_migrating_the_file_under_a_writer_stops_its_next_write(tmp_path):
    db = tmp_path / "held.db"
    invoke(db, "new", "toy", "m1", "--players", "a,b")
    writer = open_store(db)  # as serve's writer holds it
    try:
        head = writer.head("m1")
        _newer(db, add_table=False)  # the version alone: the schema's own counter does not move
        with pytest.raises(NewerSchema):
            writer.append("m1", 2, [NoteAdded(text="x")], actor="host", recorded_at=T)
        assert writer.head("m1") == head
    finally:
        writer.close()


# --------------------------------------------------------------------------- the mechanism, with a next version


def next_version(monkeypatch) -> list[int]:
    """Add a migration of this test's own after this matchledger's; the versions it
    migrated files from."""
    calls = []

    def step(conn):
        calls.append(conn.execute("SELECT * FROM pragma_user_version").fetchone()[0])
        threading.Event().wait(0.05)  # long enough for other writers to arrive meanwhile

    following = Migration(migrations.sqlite_version() + 1, "test", step)
    monkeypatch.setattr(migrations, "SQLITE_MIGRATIONS", (*migrations.SQLITE_MIGRATIONS, following))
    return calls


#: The version of the files this matchledger writes, before a test adds the next.
CURRENT = migrations.sqlite_version()


@pytest.fixture
def current(tmp_path):
    """A file of this version, with a match."""
    db = tmp_path / "current.db"
    invoke(db, "new", "toy", "m1", "--players", "a,b")
    assert _header(db) == (APPLICATION_ID, CURRENT)
    return db


@pytest.mark.guarantee("files.schema-version")
def test_a_read_of_the_version_before_does_not_migrate(current, monkeypatch):
    db, calls = current, next_version(monkeypatch)
    before = fingerprint(db)["file"]
    invoke(db, "status", "m1")
    assert fingerprint(db)["file"] == before and _header(db)[1] == CURRENT and calls == []


@pytest.mark.guarantee("files.schema-version")
def test_writers_at_once_migrate_a_file_once(current, monkeypatch):
    db, calls = current, next_version(monkeypatch)
    errors, start = [], threading.Barrier(4)

    def first_write(n: int) -> None:
        try:
            start.wait()
            store = open_store(db)
            store.append(f"w{n}", 1, [NoteAdded(text="hello")], actor="host", recorded_at=T)
            store.close()
        except Exception as exc:  # any failure of the guarantee
            errors.append(exc)

    threads = [threading.Thread(target=first_write, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert calls == [CURRENT]  # once, from this version
    assert _header(db) == (APPLICATION_ID, CURRENT + 1)
    reader = open_store(db, read_only=True)
    try:
        assert reader.match_ids() == ["m1", "w0", "w1", "w2", "w3"]
    finally:
        reader.close()


@pytest.mark.guarantee("files.schema-version")
def test_a_migration_that_fails_leaves_the_file_as_it_was(tmp_path, season_tables, monkeypatch):
    db = tmp_path / "first.db"
    sqlite_database(db, "sqlite-1-first-release", season_tables)

    def failing(conn):
        conn.execute("SELECT no_such_function()")

    bad = Migration(CURRENT + 1, "bad", failing)
    monkeypatch.setattr(migrations, "SQLITE_MIGRATIONS", (*migrations.SQLITE_MIGRATIONS, bad))
    schema, rows = _schema(db), sqlite_rows(db)
    with pytest.raises(CorruptLog, match="no such function"):
        open_store(db)
    assert _header(db) == (0, 0)  # not even the mark of migration 2
    assert (_schema(db), sqlite_rows(db)) == (schema, rows)


# --------------------------------------------------------------------------- the service's address (version 3)


@pytest.mark.guarantee("files.schema-version")
def test_an_earlier_layout_keeps_the_service_address_from_its_first_write_on(earlier):
    """Read as it is, an earlier file has no address (and no table for one); the first
    write makes the table, and an address recorded then leads `invite`'s links, never
    entering the log or an export."""
    reader = Application.open(str(earlier), read_only=True)
    try:
        assert reader.service_address() is None
    finally:
        reader.close()
    held = {name for _kind, name, _table, _sql in _schema(earlier)}
    assert ("service_addresses" in held) == (_header(earlier)[1] >= 3)
    exported = invoke(earlier, "export", "g3").stdout
    first = invoke(earlier, "invite", "g3", "--as", "ann")  # the first write: migrated
    assert first.stdout.startswith("link for ann (read only) in g3: http://127.0.0.1:8000/p/")
    assert "no serve has recorded its address" in first.stderr
    assert _header(earlier) == (APPLICATION_ID, migrations.sqlite_version())
    writer = Application.open(str(earlier))
    try:
        writer.record_service_address("http://127.0.0.1:41234/", given=False)
    finally:
        writer.close()
    assert invoke(earlier, "invite", "g3", "--as", "ann").stdout.startswith(
        "link for ann (read only) in g3: http://127.0.0.1:41234/p/"
    )
    assert invoke(earlier, "export", "g3").stdout == exported


# --------------------------------------------------------------------------- the hooks (version 4)


@pytest.mark.guarantee("files.schema-version")
def test_an_earlier_layout_gets_the_hooks_tables_from_its_first_write(earlier):
    """Read as it is, an earlier file holds no hook (and no table for one); the first
    write makes them, and a hook added then is kept beside the log, never in an export."""
    reader = Application.open(str(earlier), read_only=True)
    try:
        assert reader.hooks() == []
    finally:
        reader.close()
    assert "hooks" not in {name for _kind, name, _table, _sql in _schema(earlier)}
    exported = invoke(earlier, "export", "g3").stdout
    invoke(earlier, "hook", "add", "g3", "https://chat.example.org/x", "--on", "close")
    assert {"hooks", "hook_deliveries"} <= {name for _kind, name, _table, _sql in _schema(earlier)}
    assert _header(earlier) == (APPLICATION_ID, migrations.sqlite_version())
    assert invoke(earlier, "export", "g3").stdout == exported

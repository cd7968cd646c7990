"""A database file handed over by someone hostile keeps nothing of its own: every schema
object on our tables must be exactly one matchledger makes (a trigger checked by its
text, not its name), and anything else is refused, naming it, by every read and write,
the file left as it was."""

from __future__ import annotations

import contextlib
import sqlite3

import pytest

from matchledger.ledger.capabilities import token_hash
from matchledger.ledger.errors import CorruptLog, ForeignDatabase
from matchledger.ledger.events import NoteAdded
from matchledger.ledger.sqlite_file import TRIGGERS
from matchledger.ledger.store import Store
from matchledger.projections.application import Application
from tests.helpers import invoke, read_json

from .common import new_lca
from .support import fingerprint

PLANTED = {
    "no-op update guard": (
        "DROP TRIGGER events_no_update",
        "CREATE TRIGGER events_no_update BEFORE UPDATE ON events WHEN 0 "
        "BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE is not allowed'); END",
    ),
    "auditor link on every insert": (
        "CREATE TRIGGER plant AFTER INSERT ON events BEGIN INSERT OR IGNORE INTO capabilities VALUES "
        "('" + "e" * 64 + "', new.match_id, 'auditor', NULL, 0, '2024-01-01T00:00:00Z', NULL); END",
    ),
    "revocations undone": (
        "CREATE TRIGGER unrevoke AFTER UPDATE OF revoked_at ON capabilities "
        "BEGIN UPDATE capabilities SET revoked_at = NULL WHERE token_hash = new.token_hash; END",
    ),
    "an index of someone else's": ("CREATE INDEX by_kind ON events (kind)",),
    "a view": ("CREATE VIEW everything AS SELECT * FROM events",),
    "a table of someone else's": ("CREATE TABLE notes (text TEXT)",),
    "the snapshots table otherwise": (
        "DROP TABLE IF EXISTS snapshots",
        "CREATE TABLE snapshots (match_id TEXT PRIMARY KEY, seq INTEGER, hash TEXT, revision TEXT, body BLOB)",
    ),
}
NAMED = {
    "no-op update guard": "trigger 'events_no_update'",
    "auditor link on every insert": "trigger 'plant'",
    "revocations undone": "trigger 'unrevoke'",
    "an index of someone else's": "index 'by_kind'",
    "a view": "view 'everything'",
    "a table of someone else's": "table 'notes'",
    "the snapshots table otherwise": "table 'snapshots'",
}


def hosted(tmp_path):
    db = tmp_path / "hostile.db"
    new_lca(db)
    link = read_json(db, "invite", "m1", "--as", "ann", "--submit")
    return db, link["token"]


#: sha256 of no bytes: an empty -wal holds nothing, as an absent one does.
_EMPTY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def _kept(db) -> dict:
    """The database and what its -wal holds (the -shm is SQLite's index of the -wal, which
    a reader's connection touches; a connection closing may leave an empty -wal or none)."""
    return {
        part: None if part == "-wal" and digest == _EMPTY else digest
        for part, digest in fingerprint(db).items()
        if part != "-shm"
    }


def plant(db, *statements) -> None:
    # Closed here: an sqlite3 connection left to the garbage collector (it is in a cycle
    # with its statement cache) would checkpoint the -wal whenever the collector ran,
    # in the middle of the comparison.
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        for statement in statements:
            conn.execute(statement)


@pytest.mark.parametrize("kind", list(PLANTED))
@pytest.mark.guarantee("files.schema-exact")
def test_a_schema_object_we_do_not_make_is_refused_by_every_read_and_write(tmp_path, kind):
    db, token = hosted(tmp_path)
    plant(db, *PLANTED[kind])
    before = _kept(db)
    for args in [
        ("status", "m1"),
        ("verify", "--all"),
        ("log", "m1"),
        ("note", "m1", "x"),
        ("submit", "m1", "ann", "A1"),
        ("revoke", token),
        ("invite", "m1", "--auditor"),
        ("invite", "--list"),
    ]:
        result = invoke(db, *args, expect=1)
        assert NAMED[kind] in result.output and "matchledger does not make" in result.output, (args, result.output)
    assert _kept(db) == before
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM capabilities").fetchone() == (1,)  # nothing planted


@pytest.mark.guarantee("files.schema-exact")
def test_a_database_whose_events_table_sqlite_utils_wrote_with_brackets_is_ours(tmp_path):
    db = tmp_path / "older.db"
    with sqlite3.connect(db) as conn:  # as an older sqlite-utils wrote our table
        conn.execute(
            "CREATE TABLE [events] (\n   [match_id] TEXT NOT NULL,\n   [seq] INTEGER NOT NULL,\n   [kind] TEXT NOT NULL,\n"
            "   [body] TEXT NOT NULL,\n   [recorded_at] TEXT NOT NULL,\n   [actor] TEXT NOT NULL,\n"
            "   [prev_hash] TEXT NOT NULL,\n   [hash] TEXT NOT NULL,\n   PRIMARY KEY ([match_id], [seq])\n)"
        )
        for trigger in TRIGGERS.values():
            conn.execute(trigger)
    assert "no match 'm9'" in invoke(db, "status", "m9", expect=1).output  # read as ours
    new_lca(db)
    invoke(db, "verify", "m1")


@pytest.mark.guarantee("service.revoke-confirmed")
def test_a_revocation_that_does_not_hold_fails_loudly(tmp_path):
    db, token = hosted(tmp_path)
    application = Application(Store(db))
    # A trigger of this connection only (TEMP: in no file): the revocation is undone as
    # it is written, as a hostile trigger in the file did before such files were refused.
    application.store.conn.execute(
        "CREATE TEMP TRIGGER unrevoke AFTER UPDATE OF revoked_at ON main.capabilities "
        "BEGIN UPDATE capabilities SET revoked_at = NULL WHERE token_hash = new.token_hash; END"
    )
    with pytest.raises(CorruptLog, match="still opens the match"):
        application.revoke(token)
    assert application.store.capability(token_hash(token)).active


@pytest.mark.guarantee("service.links-listed")
def test_invite_list_shows_every_link_and_no_token(tmp_path):
    db, token = hosted(tmp_path)
    auditor = read_json(db, "invite", "m1", "--auditor")["token"]
    invoke(db, "revoke", auditor)
    with sqlite3.connect(db) as conn:  # a row nobody issued through matchledger
        conn.execute(
            "INSERT INTO capabilities VALUES (?, 'm1', 'auditor', NULL, 0, '2030-01-01T00:00:00Z', NULL)", ("f" * 64,)
        )
    listed = read_json(db, "invite", "--list")
    assert [(link["role"], link["participant"], link["can_submit"], link["revoked_at"] is None) for link in listed] == [
        ("participant", "ann", True, True),
        ("auditor", None, False, False),
        ("auditor", None, False, True),
    ]
    assert [link["id"] for link in listed] == [token_hash(token)[:12], token_hash(auditor)[:12], "f" * 12]
    assert set(listed[0]) == {"id", "match", "role", "participant", "can_submit", "issued_at", "revoked_at"}
    text = invoke(db, "invite", "m1", "--list").output
    assert "3 links, 2 active" in text and "f" * 12 in text and "ann" in text
    for output in (text, str(listed)):
        assert token not in output and auditor not in output and token_hash(token) not in output
    assert "no match 'm9'" in invoke(db, "invite", "m9", "--list", expect=1).output
    invoke(db, "invite", "--list", "--as", "ann", expect=2)


@pytest.mark.guarantee("files.schema-exact")
def test_a_trigger_planted_while_a_writer_holds_the_file_is_refused_at_its_next_write(tmp_path):
    db, _token = hosted(tmp_path)
    writer = Application(Store(db))  # as `serve`'s writer holds it
    writer.invite("m1", auditor=True)
    plant(db, *PLANTED["auditor link on every insert"])
    with pytest.raises(ForeignDatabase, match="trigger 'plant'"):
        writer.invite("m1", auditor=True)
    with pytest.raises(ForeignDatabase, match="trigger 'plant'"):
        writer.store.append("m1", 2, [NoteAdded(text="x")], actor="h", recorded_at="2024-01-01T00:00:00Z")
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM capabilities").fetchone() == (2,)  # nothing planted
        assert conn.execute("SELECT count(*) FROM events").fetchone() == (1,)

"""Every schema layout a matchledger release made, rebuilt in SQL as that release wrote it
(read from the repository's history: ``git log -p -- ledger/store.py ledger/sqlite_file.py
ledger/postgres_database.py``), with a recorded season's rows copied in.

SQLite (no version was recorded in the file before version 2's later releases, so
``user_version`` is 0 in the others):

- ``sqlite-1-first-release`` (3413752): the ``events`` table as sqlite-utils then wrote
  it (``[name]``), its two triggers run as one script (a line break before ``BEGIN``),
  no mark;
- ``sqlite-1-snapshots`` (7d3b812): the same with the ``snapshots`` table, as the later
  sqlite-utils wrote the table (``"name"``);
- ``sqlite-2-marked`` (6468ef4): the mark (``application_id``), the triggers written
  one by one, ``snapshots`` and ``capabilities`` (2c6a8cf);
- ``sqlite-2-versioned`` (the releases that recorded ``user_version``, up to the one
  before ``service_addresses``): the same with version 2 recorded;
- ``sqlite-3-addresses`` (the releases up to the one before ``hooks``): the same with
  ``service_addresses`` and version 3 recorded.

PostgreSQL:

- ``postgresql-1-first-release`` (c1b84ff): version 1 without ``capabilities`` (made by
  the first invitation then, and still where it is missing);
- ``postgresql-1-capabilities`` (the releases up to the one before
  ``service_addresses``): version 1 with ``capabilities`` made with the tables;
- ``postgresql-2-addresses`` (the releases up to the one before ``hooks``): the same
  with ``service_addresses`` and version 2 recorded;
- ``postgresql-3-hooks`` (the releases up to the one before the notifying triggers):
  the same with ``hooks`` and ``hook_deliveries`` and version 3 recorded.

The version this matchledger writes (the tables made by a first write) is each back
end's newest and is what every other test runs on.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

#: The ``events`` table as the first release's sqlite-utils wrote it.
SQLITE_EVENTS_BRACKETS = (
    "CREATE TABLE [events] (\n   [match_id] TEXT NOT NULL,\n   [seq] INTEGER NOT NULL,\n   [kind] TEXT NOT NULL,\n"
    "   [body] TEXT NOT NULL,\n   [recorded_at] TEXT NOT NULL,\n   [actor] TEXT NOT NULL,\n"
    "   [prev_hash] TEXT NOT NULL,\n   [hash] TEXT NOT NULL,\n   PRIMARY KEY ([match_id], [seq])\n)"
)
#: The same as later sqlite-utils wrote it (and this release writes it).
SQLITE_EVENTS_QUOTES = (
    'CREATE TABLE "events" (\n   "match_id" TEXT NOT NULL,\n   "seq" INTEGER NOT NULL,\n   "kind" TEXT NOT NULL,\n'
    '   "body" TEXT NOT NULL,\n   "recorded_at" TEXT NOT NULL,\n   "actor" TEXT NOT NULL,\n   "prev_hash" TEXT NOT NULL,\n'
    '   "hash" TEXT NOT NULL,\n   PRIMARY KEY ("match_id", "seq")\n)'
)
#: The triggers as the first release's script made them.
SQLITE_TRIGGERS_SCRIPT = """
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE is not allowed'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE is not allowed'); END;
"""
#: The triggers as one statement each (f97b639 on).
SQLITE_TRIGGERS = [
    "CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events "
    "BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE is not allowed'); END",
    "CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events "
    "BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE is not allowed'); END",
]
SQLITE_SNAPSHOTS = (
    "CREATE TABLE IF NOT EXISTS snapshots (match_id TEXT PRIMARY KEY, seq INTEGER NOT NULL, "
    "hash TEXT NOT NULL, revision TEXT NOT NULL, body BLOB NOT NULL)"
)
SQLITE_CAPABILITIES = (
    "CREATE TABLE IF NOT EXISTS capabilities (token_hash TEXT PRIMARY KEY, match_id TEXT NOT NULL, "
    "role TEXT NOT NULL, participant TEXT, can_submit INTEGER NOT NULL, created_at TEXT NOT NULL, revoked_at TEXT)"
)
SQLITE_MARK = 0x4D4C4447


def _sqlite_1_first_release(conn: sqlite3.Connection) -> None:
    conn.execute(SQLITE_EVENTS_BRACKETS)
    conn.executescript(SQLITE_TRIGGERS_SCRIPT)


def _sqlite_1_snapshots(conn: sqlite3.Connection) -> None:
    conn.execute(SQLITE_EVENTS_QUOTES)
    for trigger in SQLITE_TRIGGERS:
        conn.execute(trigger)
    conn.execute(SQLITE_SNAPSHOTS)


def _sqlite_2_marked(conn: sqlite3.Connection) -> None:
    conn.execute(SQLITE_EVENTS_QUOTES)
    for trigger in SQLITE_TRIGGERS:
        conn.execute(trigger)
    conn.execute(SQLITE_SNAPSHOTS)
    conn.execute(SQLITE_CAPABILITIES)
    conn.execute(f"PRAGMA application_id = {SQLITE_MARK}")


def _sqlite_2_versioned(conn: sqlite3.Connection) -> None:
    _sqlite_2_marked(conn)
    conn.execute("PRAGMA user_version = 2")


def _sqlite_3_addresses(conn: sqlite3.Connection) -> None:
    _sqlite_2_marked(conn)
    conn.execute(
        "CREATE TABLE IF NOT EXISTS service_addresses (source TEXT PRIMARY KEY, url TEXT NOT NULL, "
        "recorded_at TEXT NOT NULL)"
    )
    conn.execute("PRAGMA user_version = 3")


#: name -> (schema version, the statements that made it)
SQLITE_LAYOUTS = {
    "sqlite-1-first-release": (1, _sqlite_1_first_release),
    "sqlite-1-snapshots": (1, _sqlite_1_snapshots),
    "sqlite-2-marked": (2, _sqlite_2_marked),
    "sqlite-2-versioned": (2, _sqlite_2_versioned),
    "sqlite-3-addresses": (3, _sqlite_3_addresses),
}


def sqlite_database(path: Path, layout: str, tables: dict[str, list[tuple]]) -> None:
    """A WAL file of ``layout`` holding ``tables``' rows (those of a table the layout
    lacks are left out), as that release left it."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        SQLITE_LAYOUTS[layout][1](conn)
        held = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        for table, rows in tables.items():
            if table in held and rows:
                marks = ", ".join("?" * len(rows[0]))
                conn.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)
    finally:
        conn.close()


def sqlite_rows(path: Path) -> dict[str, list[tuple]]:
    """Every row of every table of ours, in a stable order."""
    conn = sqlite3.connect(path)
    try:
        held = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        return {
            table: conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
            for table in ("events", "snapshots", "capabilities")
            if table in held
        }
    finally:
        conn.close()


# --------------------------------------------------------------------------- PostgreSQL

POSTGRES_1_FIRST_RELEASE = """
CREATE TABLE matchledger_schema (version integer NOT NULL);
INSERT INTO matchledger_schema (version) VALUES (1);
CREATE TABLE events (
    match_id text COLLATE "C" NOT NULL,
    seq bigint NOT NULL,
    kind text NOT NULL,
    body text NOT NULL,
    recorded_at text NOT NULL,
    actor text NOT NULL,
    prev_hash text NOT NULL,
    hash text NOT NULL,
    PRIMARY KEY (match_id, seq)
);
CREATE FUNCTION matchledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are append-only: % is not allowed', TG_OP;
END
$$;
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    FOR EACH ROW EXECUTE FUNCTION matchledger_append_only();
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION matchledger_append_only();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION matchledger_append_only();
CREATE TABLE snapshots (
    match_id text COLLATE "C" PRIMARY KEY,
    seq bigint NOT NULL,
    hash text NOT NULL,
    revision text NOT NULL,
    body bytea NOT NULL
);
CREATE VIEW events_json AS
    SELECT match_id, seq, kind, body::jsonb AS body, recorded_at, actor, prev_hash, hash FROM events;
"""

POSTGRES_1_CAPABILITIES = (
    POSTGRES_1_FIRST_RELEASE
    + """
CREATE TABLE IF NOT EXISTS capabilities (token_hash text PRIMARY KEY, match_id text NOT NULL,
    role text NOT NULL, participant text, can_submit boolean NOT NULL, created_at text NOT NULL, revoked_at text);
"""
)

POSTGRES_2_ADDRESSES = (
    POSTGRES_1_CAPABILITIES
    + """
CREATE TABLE IF NOT EXISTS service_addresses (source text PRIMARY KEY, url text NOT NULL,
    recorded_at text NOT NULL);
UPDATE matchledger_schema SET version = 2;
"""
)

POSTGRES_3_HOOKS = (
    POSTGRES_2_ADDRESSES
    + """
CREATE TABLE IF NOT EXISTS hooks (hook_id text COLLATE "C" PRIMARY KEY, match_id text COLLATE "C" NOT NULL,
    url text NOT NULL, kinds text NOT NULL, format text NOT NULL, secret text NOT NULL, after_seq bigint NOT NULL,
    created_at text NOT NULL, removed_at text);
CREATE TABLE IF NOT EXISTS hook_deliveries (hook_id text COLLATE "C" NOT NULL, match_id text COLLATE "C" NOT NULL,
    seq bigint NOT NULL, kind text NOT NULL, claimed_at text NOT NULL, state text NOT NULL,
    attempts text NOT NULL, PRIMARY KEY (hook_id, match_id, seq, kind));
UPDATE matchledger_schema SET version = 3;
"""
)

#: name -> (schema version, the script that made it)
POSTGRES_LAYOUTS = {
    "postgresql-1-first-release": (1, POSTGRES_1_FIRST_RELEASE),
    "postgresql-1-capabilities": (1, POSTGRES_1_CAPABILITIES),
    "postgresql-2-addresses": (2, POSTGRES_2_ADDRESSES),
    "postgresql-3-hooks": (3, POSTGRES_3_HOOKS),
}

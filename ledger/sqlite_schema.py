"""What a matchledger SQLite database holds: its mark, the ``events`` table with its
append-only triggers, and the tables made beside it on first use.

These texts are both what a write makes and what every open compares the file's schema
with (:mod:`.sqlite_file`): an object written otherwise is not ours.  Which of them a
file of each schema version holds, and how a file of an earlier version becomes one of
this version, is :mod:`.migrations`.
"""

from __future__ import annotations

#: SQLite's ``application_id`` of a matchledger database: "MLDG" in ASCII.
APPLICATION_ID = 0x4D4C4447

TRIGGERS = {
    "events_no_update": "CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events "
    "BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE is not allowed'); END",
    "events_no_delete": "CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events "
    "BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE is not allowed'); END",
}

EVENTS_TABLE = (
    'CREATE TABLE "events" (\n   "match_id" TEXT NOT NULL,\n   "seq" INTEGER NOT NULL,\n   "kind" TEXT NOT NULL,\n'
    '   "body" TEXT NOT NULL,\n   "recorded_at" TEXT NOT NULL,\n   "actor" TEXT NOT NULL,\n   "prev_hash" TEXT NOT NULL,\n'
    '   "hash" TEXT NOT NULL,\n   PRIMARY KEY ("match_id", "seq")\n)'
)

# Made on the first snapshot written, so a read never changes a file and an old file
# simply has none.  One row per match: the latest snapshot.
SNAPSHOTS_TABLE = (
    "CREATE TABLE IF NOT EXISTS snapshots (match_id TEXT PRIMARY KEY, seq INTEGER NOT NULL, "
    "hash TEXT NOT NULL, revision TEXT NOT NULL, body BLOB NOT NULL)"
)

# Made by the first invitation (a write), never by a read: a reader of a file without it
# finds no capability.  One row per token issued, by the sha256 of the token.
CAPABILITIES_TABLE = (
    "CREATE TABLE IF NOT EXISTS capabilities (token_hash TEXT PRIMARY KEY, match_id TEXT NOT NULL, "
    "role TEXT NOT NULL, participant TEXT, can_submit INTEGER NOT NULL, created_at TEXT NOT NULL, revoked_at TEXT)"
)

#: The service's address as `serve` recorded it for `invite` (ledger/service_addresses.py):
#: made by migration 3, one row per source.
SERVICE_ADDRESSES_TABLE = (
    "CREATE TABLE IF NOT EXISTS service_addresses (source TEXT PRIMARY KEY, url TEXT NOT NULL, "
    "recorded_at TEXT NOT NULL)"
)

#: The hooks a host added and their deliveries (ledger/hooks.py): made by migration 4.
HOOKS_TABLE = (
    "CREATE TABLE IF NOT EXISTS hooks (hook_id TEXT PRIMARY KEY, match_id TEXT NOT NULL, url TEXT NOT NULL, "
    "kinds TEXT NOT NULL, format TEXT NOT NULL, secret TEXT NOT NULL, after_seq INTEGER NOT NULL, "
    "created_at TEXT NOT NULL, removed_at TEXT)"
)
HOOK_DELIVERIES_TABLE = (
    "CREATE TABLE IF NOT EXISTS hook_deliveries (hook_id TEXT NOT NULL, match_id TEXT NOT NULL, "
    "seq INTEGER NOT NULL, kind TEXT NOT NULL, claimed_at TEXT NOT NULL, state TEXT NOT NULL, "
    "attempts TEXT NOT NULL, PRIMARY KEY (hook_id, match_id, seq, kind))"
)

#: Every schema object matchledger makes, (type, name) -> (table, CREATE statement; None
#: for the index SQLite makes for a primary key).  A file holds ``events`` and its
#: triggers once it is ours; the other tables once they were first written.
SCHEMA: dict[tuple[str, str], tuple[str, str | None]] = {
    ("table", "events"): ("events", EVENTS_TABLE),
    ("index", "sqlite_autoindex_events_1"): ("events", None),
    **{("trigger", name): ("events", sql) for name, sql in TRIGGERS.items()},
    ("table", "snapshots"): ("snapshots", SNAPSHOTS_TABLE),
    ("index", "sqlite_autoindex_snapshots_1"): ("snapshots", None),
    ("table", "capabilities"): ("capabilities", CAPABILITIES_TABLE),
    ("index", "sqlite_autoindex_capabilities_1"): ("capabilities", None),
    ("table", "service_addresses"): ("service_addresses", SERVICE_ADDRESSES_TABLE),
    ("index", "sqlite_autoindex_service_addresses_1"): ("service_addresses", None),
    ("table", "hooks"): ("hooks", HOOKS_TABLE),
    ("index", "sqlite_autoindex_hooks_1"): ("hooks", None),
    ("table", "hook_deliveries"): ("hook_deliveries", HOOK_DELIVERIES_TABLE),
    ("index", "sqlite_autoindex_hook_deliveries_1"): ("hook_deliveries", None),
}

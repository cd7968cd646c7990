"""Schema migrations: every layout each back end has shipped, as a versioned, ordered list.

A database records the version of its layout: SQLite in ``PRAGMA user_version``,
PostgreSQL in the table ``matchledger_schema``.  Migration N turns a database of version
N - 1 into one of version N; running the list from the start on an empty database gives
the current layout, so creating the tables is migration 1.

- **Run by the first write.**  Opening a database for writing runs every migration after
  its version, and records the new one, in one transaction under the database's write
  lock (SQLite's ``BEGIN IMMEDIATE``, PostgreSQL's advisory lock on the schema), looking
  at the version again once the lock is held: of two writers at once, one migrates and
  the other finds the work done.  A migration that fails leaves the database as it was.
- **A read never migrates.**  A read of an earlier version reads it as it is, read-only:
  every layout in these lists stays readable.
- **A newer version is refused** (:class:`NewerSchema`), by reads and writes alike,
  naming both versions, before anything is read or changed: an older matchledger cannot
  know what a newer one's tables mean.

A migration never changes an event: the log's bytes and hashes are the same after it.
When the current schema changes, a migration's statements stay as they were (copied
here, no longer shared with the schema modules), so the list still replays history.
For a change to a SQLite table's columns, sqlite-utils' ``table.transform`` is the
tool; no migration has needed one yet (the tables have kept their columns since the
first release).

The history, read from the repository's log (``tests/migrations/layouts.py`` rebuilds
each layout in SQL):

SQLite (versions before 2 were never recorded in the file: a file whose ``user_version``
is 0 is of version 1 without the mark, of version 2 with it):

1. The ``events`` table (as sqlite-utils wrote it, ``[name]`` or ``"name"``) and the
   two triggers refusing UPDATE and DELETE.  Later releases of version 1 added the
   ``snapshots`` table, made by the first snapshot written.
2. SQLite's ``application_id`` set to matchledger's mark, so that a file of another
   program is never taken for ours.  Later releases of version 2 added the
   ``capabilities`` table, made by the first invitation.  Version 2 was the first
   recorded in ``user_version``.
3. The ``service_addresses`` table: the address `serve` records for `invite`'s links.
4. The ``hooks`` and ``hook_deliveries`` tables: posts to the channel (ledger/hooks.py).

PostgreSQL:

1. ``matchledger_schema``, ``events`` with its trigger function and triggers refusing
   UPDATE, DELETE and TRUNCATE, ``snapshots``, ``capabilities`` and the view
   ``events_json``.  The first release of version 1 made ``capabilities`` later, on the
   first invitation, as it still does where the table is missing.
2. The ``service_addresses`` table: the address `serve` records for `invite`'s links.
3. The ``hooks`` and ``hook_deliveries`` tables: posts to the channel (ledger/hooks.py).
4. The trigger function ``matchledger_notify`` and its triggers on ``events`` and
   ``capabilities`` (``capabilities`` made first where a database still lacks it),
   announcing each commit to the ``serve`` processes that listen (``LISTEN
   matchledger``; docs/service.md, "Reads").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from . import postgres_schema, sqlite_schema
from .errors import ForeignDatabase


class Migration(NamedTuple):
    """One step of a back end's history: what turns version ``version - 1`` into ``version``."""

    version: int
    summary: str
    #: Runs the step on a connection (sqlite3's or psycopg's) inside the migrating transaction.
    apply: Callable[[Any], None]


class NewerSchema(ForeignDatabase):
    """A database whose tables are of a schema version newer than this matchledger's."""

    def __init__(self, location: str, found: int, readable: int):
        self.location, self.found, self.readable = location, found, readable
        super().__init__(
            f"cannot use {location!r}: its tables are of matchledger schema version {found}, newer than the "
            f"version this matchledger reads ({readable}); upgrade matchledger; nothing was changed"
        )


def pending(migrations: Sequence[Migration], found: int) -> list[Migration]:
    """The migrations a database of version ``found`` has not had, in order."""
    return [migration for migration in migrations if migration.version > found]


# --------------------------------------------------------------------------- SQLite


def _sqlite_events_table(conn) -> None:
    conn.execute(sqlite_schema.EVENTS_TABLE)  # the text sqlite-utils wrote it with (files made then are ours)
    for statement in sqlite_schema.TRIGGERS.values():
        conn.execute(statement)


def _sqlite_mark(conn) -> None:
    conn.execute(f"PRAGMA application_id = {sqlite_schema.APPLICATION_ID}")


def _sqlite_service_addresses(conn) -> None:
    conn.execute(sqlite_schema.SERVICE_ADDRESSES_TABLE)


def _sqlite_hooks(conn) -> None:
    conn.execute(sqlite_schema.HOOKS_TABLE)
    conn.execute(sqlite_schema.HOOK_DELIVERIES_TABLE)


SQLITE_MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "the events table and its append-only triggers", _sqlite_events_table),
    Migration(2, "matchledger's mark (SQLite's application_id)", _sqlite_mark),
    Migration(3, "the service's address, recorded by serve for invite", _sqlite_service_addresses),
    Migration(4, "the hooks serve posts to, and their deliveries", _sqlite_hooks),
)


def sqlite_version() -> int:
    """The SQLite schema version this matchledger writes (and the newest it reads)."""
    return SQLITE_MIGRATIONS[-1].version


def migrate_sqlite(conn, found: int) -> None:
    """Bring a file of version ``found`` (0: no tables) to :func:`sqlite_version` and
    record it; inside the caller's transaction, which holds the file's write lock."""
    for migration in pending(SQLITE_MIGRATIONS, found):
        migration.apply(conn)
    conn.execute(f"PRAGMA user_version = {sqlite_version()}")


# --------------------------------------------------------------------------- PostgreSQL


def _postgres_tables(conn) -> None:
    conn.execute(postgres_schema.VERSION_TABLE)
    conn.execute(postgres_schema.TABLES)


def _postgres_service_addresses(conn) -> None:
    conn.execute(postgres_schema.SERVICE_ADDRESSES_TABLE)


def _postgres_hooks(conn) -> None:
    conn.execute(postgres_schema.HOOKS_TABLES)


def _postgres_notify(conn) -> None:
    conn.execute(postgres_schema.CAPABILITIES_TABLE)  # a first release's tables made it on the first invitation
    conn.execute(postgres_schema.NOTIFY)


POSTGRES_MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1, "the events table and its append-only triggers, snapshots, capabilities, events_json", _postgres_tables
    ),
    Migration(2, "the service's address, recorded by serve for invite", _postgres_service_addresses),
    Migration(3, "the hooks serve posts to, and their deliveries", _postgres_hooks),
    Migration(4, "triggers announcing each commit to the serve processes listening", _postgres_notify),
)


def postgres_version() -> int:
    """The PostgreSQL schema version this matchledger writes (and the newest it reads)."""
    return POSTGRES_MIGRATIONS[-1].version


def migrate_postgres(conn, found: int) -> None:
    """Bring a database of version ``found`` (0: no tables) to :func:`postgres_version`
    and record it; inside the caller's transaction, which holds the schema's lock."""
    for migration in pending(POSTGRES_MIGRATIONS, found):
        migration.apply(conn)
    if found == 0:
        conn.execute("INSERT INTO matchledger_schema (version) VALUES (%s)", (postgres_version(),))
    else:
        conn.execute("UPDATE matchledger_schema SET version = %s", (postgres_version(),))

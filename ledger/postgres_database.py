"""Opening a PostgreSQL database: the URL, our tables and their schema version, and
turning what the server says into the errors a user sees.

- ``--db postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?PARAMS]`` (or ``postgres://``)
  names a database (libpq's URL: ``PGPASSWORD`` and ``~/.pgpass`` work as for ``psql``).
  Messages name it by :func:`printable_url`, which leaves out the password.
- The tables are matchledger's when ``matchledger_schema`` records a version of
  :mod:`.migrations` up to :data:`SCHEMA_VERSION`; a database of a newer (or unknown)
  version is refused, naming both versions, before anything is read or changed.
- Only a write creates the tables (:mod:`.postgres_schema`: ``events`` with the triggers
  refusing UPDATE, DELETE and TRUNCATE, ``snapshots``, ``capabilities``,
  ``service_addresses``, the ``events_json`` view and the version) or migrates them from an earlier version, all in
  one transaction, under a lock, so two first writers do it once.  A read of a database
  without them is an error and creates nothing, a read of an earlier version reads it as
  it is; every transaction of a read-only open is ``READ ONLY``, so nothing it runs can
  write.
- Settings travel with each transaction, never with the session (``SET LOCAL``): a
  transaction-pooling proxy (PgBouncer's ``pool_mode = transaction``) hands a server
  connection from one client to the next between transactions, and a session setting
  (a reader's read-only, a lock timeout) would then meet another client's transaction.
  Statements outside a transaction of ours run in one of their own for the same reason
  (a read waits for a lock no longer than a write does).  For the same proxies no
  statement is prepared on the server (psycopg's ``prepare_threshold``): a prepared
  statement lives in one server connection, which the next transaction may not get.
  The listening connection (:mod:`.postgres_listen`) is a session by nature (LISTEN):
  it sets its settings once, and must reach PostgreSQL directly (docs/deploy.md).
- The database must be encoded in UTF8: bodies are stored as text and hashed as UTF-8.
- Nothing of someone else's runs on our tables: a trigger we do not make (or one of ours
  disabled, given a condition or another function), a rule, or our trigger function
  rewritten is refused on every open, naming it.
"""

from __future__ import annotations

import json
import re

import psycopg
from psycopg import errors as pg_errors

from . import migrations
from .errors import (
    BUSY_LOCK,
    ConnectionLost,
    CorruptLog,
    DatabaseBusy,
    DatabaseUnavailable,
    ForeignDatabase,
    LogConflict,
    MatchledgerError,
    NoDatabase,
    UnwritableDatabase,
)
from .postgres_schema import FUNCTION_SOURCES
from .postgres_urls import printable_url, secrets_of

#: The layout of the tables this matchledger writes, and the newest it reads: a change of
#: layout is a migration (:mod:`.migrations`), and an older matchledger then refuses the
#: database instead of misreading it.
SCHEMA_VERSION = migrations.postgres_version()

#: The first key of every advisory lock we take ("MLDG"), so they never meet another
#: program's: (LOCK_SPACE, hashtext(schema)) while the tables are made,
#: (LOCK_SPACE, hashtext(schema.match)) while a transaction appends to a match.
LOCK_SPACE = 0x4D4C4447

#: Seconds to wait for the server to answer a connection, unless the URL says otherwise.
CONNECT_TIMEOUT_SECONDS = 10

# Our tables in the schema where a write makes them (the first of the search path), read
# from pg_class with the statement's snapshot: a name lookup (to_regclass) may not yet see
# tables that another writer committed while this one waited for the lock to make them.
_INSPECT = (
    "SELECT current_setting('server_encoding'), "
    "bool_or(c.relname = 'matchledger_schema') IS TRUE, bool_or(c.relname = 'events') IS TRUE "
    "FROM (SELECT 1) AS always LEFT JOIN pg_catalog.pg_class c ON c.relname IN ('matchledger_schema', 'events') "
    "AND c.relnamespace = (SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = current_schema())"
)


#: The triggers we make on our tables: (table, name) -> (pg_trigger.tgtype (FOR EACH
#: ROW = 1, BEFORE = 2, INSERT = 4, DELETE = 8, UPDATE = 16, TRUNCATE = 32), the
#: function it runs), each with no column list, condition or argument, enabled.
_OUR_TRIGGERS = {
    ("events", "events_no_update"): (19, "matchledger_append_only"),
    ("events", "events_no_delete"): (11, "matchledger_append_only"),
    ("events", "events_no_truncate"): (34, "matchledger_append_only"),
    ("events", "events_notify"): (5, "matchledger_notify"),
    ("capabilities", "capabilities_notify"): (21, "matchledger_notify"),
}
_OUR_TABLES = (
    "events",
    "snapshots",
    "capabilities",
    "service_addresses",
    "hooks",
    "hook_deliveries",
    "matchledger_schema",
)

# What else runs on our tables: every trigger written by a user (disabled ones too), every
# rule (a view's own rule is on the view), and the source of our trigger functions.
_FOREIGN = (
    "WITH ns AS (SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = current_schema()), "
    "ours AS (SELECT c.oid, c.relname FROM pg_catalog.pg_class c, ns WHERE c.relnamespace = ns.oid "
    "AND c.relname = ANY(%s)) "
    "SELECT 'trigger', ours.relname, t.tgname, t.tgtype::int = 0 OR NOT (t.tgenabled = 'O' AND t.tgqual IS NULL "
    "AND t.tgnargs = 0 AND cardinality(t.tgattr::int2[]) = 0 "
    "AND p.pronamespace = (SELECT oid FROM ns)), t.tgtype::int, p.proname::text "
    "FROM pg_catalog.pg_trigger t JOIN ours ON ours.oid = t.tgrelid JOIN pg_catalog.pg_proc p ON p.oid = t.tgfoid "
    "WHERE NOT t.tgisinternal "
    "UNION ALL SELECT 'rule', ours.relname, r.rulename, true, 0, '' FROM pg_catalog.pg_rewrite r "
    "JOIN ours ON ours.oid = r.ev_class "
    "UNION ALL SELECT 'function', '', p.proname, p.prosrc <> (%s::jsonb)->>p.proname::text, 0, p.proname::text "
    "FROM pg_catalog.pg_proc p, ns WHERE p.pronamespace = ns.oid AND p.proname = ANY(%s)"
)


class Database:
    """One PostgreSQL database as matchledger names and reaches it."""

    def __init__(self, url: str, *, read_only: bool, lock_timeout: float):
        self.url = url
        self.location = printable_url(url)
        self.read_only = read_only
        self.lock_timeout = lock_timeout
        self._secrets = secrets_of(url)

    # ---- connecting

    def connect_options(self) -> dict:
        """What every connection is opened with, beside the URL."""
        # prepare_threshold None: no server-side prepared statement (see the module's doc)
        options: dict = {"autocommit": True, "client_encoding": "UTF8", "prepare_threshold": None}
        try:
            given = psycopg.conninfo.conninfo_to_dict(self.url)
        except psycopg.Error as exc:
            raise self.connect_error(exc) from None
        if "connect_timeout" not in given:
            options["connect_timeout"] = CONNECT_TIMEOUT_SECONDS
        return options

    def connect(self) -> psycopg.Connection:
        """A connection to the database, with nothing set on its session (each
        transaction sets what it needs: :meth:`begin`, :meth:`set_local`)."""
        options = self.connect_options()
        try:
            return psycopg.connect(self.url, **options)
        except psycopg.Error as exc:
            raise self.connect_error(exc) from None

    def lock_timeout_ms(self) -> int:
        return max(1, round(self.lock_timeout * 1000))

    def begin(self) -> str:
        """The statements that open a transaction carrying our settings (one round trip)."""
        mode = " READ ONLY" if self.read_only else ""
        return f"BEGIN{mode}; SET LOCAL lock_timeout = {self.lock_timeout_ms()}"

    def local_settings(self) -> str:
        """A query that sets our settings for the transaction it runs in (the implicit
        one of a query string, :meth:`PostgresConnection._alone`).  Read-only may be
        set at any point of a transaction, only read-write must come first."""
        read_only = ", set_config('transaction_read_only', 'on', true)" if self.read_only else ""
        return f"SELECT set_config('lock_timeout', '{self.lock_timeout_ms()}', true){read_only}"

    def set_local(self, conn: psycopg.Connection) -> None:
        """Our settings for the transaction just begun on ``conn`` (psycopg's own
        ``conn.transaction()``), before its first query."""
        read_only = "; SET LOCAL transaction_read_only = on" if self.read_only else ""
        try:
            conn.execute(f"SET LOCAL lock_timeout = {self.lock_timeout_ms()}{read_only}")
        except psycopg.Error as exc:
            raise self.error(exc) from None

    def set_for_session(self, conn: psycopg.Connection) -> None:
        """Our settings for the whole session of a connection that is a session by
        nature and never pooled (the listening one)."""
        try:
            conn.execute(
                f"SET lock_timeout = {self.lock_timeout_ms()}; "
                f"SET default_transaction_read_only = {'on' if self.read_only else 'off'}"
            )
        except psycopg.Error as exc:
            raise self.error(exc) from None

    # ---- our tables

    def prepare(self, conn: psycopg.Connection, *, create: bool) -> None:
        """Check that the database holds our tables at a schema version we read.  A
        write brings an earlier version up to date (:mod:`.migrations`), and with
        ``create`` makes the tables where there are none; a read reads an earlier
        version as it is."""
        latest = migrations.postgres_version()
        try:
            with conn.transaction():
                self.set_local(conn)
                found = self._check(conn, create=create)
        except psycopg.Error as exc:  # the commit of what only read
            raise self.error(exc) from None
        if found == latest or self.read_only:
            return
        try:
            with conn.transaction():
                self.set_local(conn)
                conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(current_schema()))", (LOCK_SPACE,))
                found = self._check(conn, create=create)  # again: another writer may have done it meanwhile
                if found != latest:
                    migrations.migrate_postgres(conn, found)
        except psycopg.Error as exc:
            error = self.error(exc)
            if found and isinstance(error, UnwritableDatabase):  # a host role may not alter the tables
                raise UnwritableDatabase(
                    f"cannot migrate the tables of {self.location!r} from matchledger schema version {found} to "
                    f"{latest}: {self._reason(exc)}; a role that may alter them (their owner) migrates them with "
                    "its first write"
                ) from None
            raise error from None

    def _check(self, conn: psycopg.Connection, *, create: bool) -> int:
        """The schema version of our tables, or 0 where there are none and a write with
        ``create`` may make them; refuses anything else."""
        try:
            encoding, versioned, events = _one_row(conn.execute(_INSPECT))
            version = _one_row(conn.execute("SELECT max(version) FROM matchledger_schema"))[0] if versioned else None
        except psycopg.Error as exc:
            raise self.error(exc) from None
        if encoding != "UTF8":
            raise ForeignDatabase(
                f"cannot use {self.location!r}: the database is encoded in {encoding}, and matchledger needs UTF8 "
                "(create it with `createdb --encoding=UTF8 --template=template0 …`)"
            )
        if not versioned and not events:
            if create and not self.read_only:
                return 0
            raise NoDatabase(self.location, tables=True)
        if not versioned or not events:
            why = (
                "its events table is not matchledger's (it has no matchledger_schema table)"
                if events
                else ("it has a matchledger_schema table but no events table")
            )
            raise ForeignDatabase(f"cannot use {self.location!r} as a matchledger database: {why}; nothing was changed")
        latest = migrations.postgres_version()
        if version is not None and version > latest:
            raise migrations.NewerSchema(self.location, version, latest)
        if version is None or version < migrations.POSTGRES_MIGRATIONS[0].version:
            recorded = "record no schema version" if version is None else f"are of matchledger schema version {version}"
            raise ForeignDatabase(
                f"cannot use {self.location!r}: its tables {recorded}, "
                f"not the version this matchledger reads ({latest}); nothing was changed"
            )
        self._refuse_foreign_objects(conn)
        return version

    def _refuse_foreign_objects(self, conn: psycopg.Connection) -> None:
        """Refuse a database where something of someone else's runs on our tables: a
        trigger we do not make (or ours disabled, conditioned, or running another
        function), a rule, our trigger function rewritten (one that lets UPDATE through)."""
        try:
            found = conn.execute(
                _FOREIGN, (list(_OUR_TABLES), json.dumps(FUNCTION_SOURCES), list(FUNCTION_SOURCES))
            ).fetchall()
        except psycopg.Error as exc:
            raise self.error(exc) from None
        for kind, table, name, altered, tgtype, function in found:
            if kind == "trigger" and _OUR_TRIGGERS.get((table, name)) == (tgtype, function) and not altered:
                continue
            if kind == "function" and not altered:
                continue
            what = f"{kind} {name!r}" + (f" on table {table!r}" if kind != "function" else "")
            raise ForeignDatabase(
                f"cannot use {self.location!r} as a matchledger database: it holds {what}, which matchledger does not "
                "make (or makes otherwise): something of someone else's would run on our tables; nothing was changed"
            )

    # ---- errors

    def connect_error(self, exc: psycopg.Error) -> MatchledgerError:
        return DatabaseUnavailable(f"cannot connect to {self.location!r}: {self._reason(exc)}")

    def error(self, exc: psycopg.Error) -> MatchledgerError:
        """The error a user sees for what the server (or the connection) reported."""
        reason = self._reason(exc)
        if isinstance(exc, pg_errors.LockNotAvailable):
            return DatabaseBusy(
                f"database {self.location!r} is busy: another connection has held a lock for more than "
                f"{self.lock_timeout:g} s; try again",
                cause=BUSY_LOCK,
            )
        if isinstance(exc, (pg_errors.DeadlockDetected, pg_errors.SerializationFailure)):
            return LogConflict(
                f"another writer of {self.location!r} got in the way ({reason}); nothing was written: try again"
            )
        if isinstance(exc, (pg_errors.ReadOnlySqlTransaction, pg_errors.InsufficientPrivilege, pg_errors.DiskFull)):
            return UnwritableDatabase(f"cannot write to {self.location!r}: {reason}")
        lost = isinstance(exc, psycopg.OperationalError) and exc.sqlstate is None
        if lost or isinstance(exc, (pg_errors.AdminShutdown, pg_errors.CrashShutdown, pg_errors.CannotConnectNow)):
            return ConnectionLost(self.location, reason)
        return CorruptLog(f"cannot use {self.location!r}: {reason}")

    def _reason(self, exc: psycopg.Error) -> str:
        """What went wrong, on one line, without a password."""
        diag = getattr(exc, "diag", None)
        text = (diag.message_primary if diag is not None else None) or str(exc) or type(exc).__name__
        text = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
        text = text.rpartition(" failed: ")[2] if text.startswith("connection") else text
        text = re.sub(r"^(FATAL|ERROR):\s+", "", text)
        for secret in self._secrets:
            text = text.replace(secret, "***")
        return text


def _one_row(cursor: psycopg.Cursor) -> tuple:
    """The row of a query that always returns one (aggregates, over ``(SELECT 1)`` or a table)."""
    row = cursor.fetchone()
    assert row is not None, "an aggregate query returned no row"
    return row

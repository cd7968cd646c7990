"""The PostgreSQL event store: the same ``events`` table as SQLite's, on a server that
several hosts (and a fleet of ``serve`` processes) reach at once.

Concurrency without long-held locks: a transaction that appends to a match first takes
the match's advisory lock (held until it commits or rolls back, so for one command),
then reads the head and checks the seq it was told to expect; appends to other matches
go on in parallel, and readers take no lock at all (MVCC), so a slow reader never
blocks a writer.  The primary key (``match_id``, ``seq``) stands behind the lock: a
writer that bypasses it still cannot interleave, it gets a unique violation, which is
the same :class:`LogConflict` as SQLite's.

A :class:`PostgresStore` holds one connection (:class:`PostgresConnection`), shared by
its four parts: its own (a command-line process), or one lent by a
:class:`PostgresPool` (a long-running process such as ``serve``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypedDict

import psycopg
from psycopg import errors as pg_errors

from .capabilities import Capability
from .capability_store import CapabilityStore
from .change_feed import FALLBACK_SECONDS, ChangeFeed, Listener, Subscription
from .errors import BUSY_POOL, DatabaseBusy
from .event_log import ChainedLog
from .hook_store import HookStore
from .hooks import (
    DELIVERY_COLUMNS,
    HOOK_COLUMNS,
    PENDING,
    Attempt,
    Delivery,
    Hook,
    decode_attempts,
    delivery_of,
    delivery_row,
    encode_attempts,
    hook_of,
    hook_row,
    with_attempts,
)
from .limits import LOCK_TIMEOUT_SECONDS
from .log_store import LogStore
from .postgres_database import LOCK_SPACE, Database
from .postgres_schema import CAPABILITIES_TABLE
from .service_addresses import ServiceAddress
from .snapshot_cache import SnapshotCache
from .transactions import Transactions

_INSERT = (
    "INSERT INTO events (match_id, seq, kind, body, recorded_at, actor, prev_hash, hash) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"
)
_SNAPSHOT = (
    "SELECT s.seq, s.body, s.hash FROM snapshots s "
    "JOIN events e ON e.match_id = s.match_id AND e.seq = s.seq AND e.hash = s.hash "
    "WHERE s.match_id = %s AND s.revision = %s"
)
_SAVE_SNAPSHOT = (
    "INSERT INTO snapshots (match_id, seq, hash, revision, body) VALUES (%s, %s, %s, %s, %s) "
    "ON CONFLICT (match_id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash, "
    "revision = excluded.revision, body = excluded.body"
)


# Made by the first invitation (a write), never by a read, as on SQLite; the schema's
# version does not cover it (a database without it simply holds no links).
_CAPABILITY_COLUMNS = "token_hash, match_id, role, participant, can_submit, created_at, revoked_at"


class PostgresConnection(Transactions):
    """One connection to the database, shared by the parts of a store, and its
    transactions; whatever psycopg raises becomes one of our errors."""

    def __init__(self, database: Database, *, create: bool, connection: psycopg.Connection | None):
        super().__init__()
        self.database = database
        self.owns_connection = connection is None
        if connection is None:
            connection = database.connect()
            try:
                database.prepare(connection, create=create)
            except BaseException:
                connection.close()
                raise
        self.conn = connection

    def close(self) -> None:
        if self.owns_connection:
            self.conn.close()

    # ---- statements

    def run(self, sql: str, params: tuple | list = ()) -> psycopg.Cursor:
        if self._depth == 0:
            return self._alone(sql, params)
        try:
            return self.conn.execute(sql, params)
        except psycopg.Error as exc:
            raise self.database.error(exc) from None

    def fetch(self, sql: str, params: tuple | list = ()) -> list[tuple]:
        if self._depth == 0:
            return self._alone(sql, params).fetchall()
        try:
            return self.conn.execute(sql, params).fetchall()
        except psycopg.Error as exc:
            raise self.database.error(exc) from None

    def _alone(self, sql: str, params: tuple | list) -> psycopg.Cursor:
        """A statement outside a transaction of ours, after our settings for it alone
        (a read-only store's statements are read-only, and wait for a lock no longer
        than the lock timeout), nothing set on the session.  Both go as one query
        string, which PostgreSQL runs as one implicit transaction, in one round trip:
        the parameters are bound on the client for that (a query string of several
        statements takes none bound on the server); the settings apply before the
        statement takes its locks, as it is parsed after they ran."""
        self._reconnect_if_lost()
        cursor = psycopg.ClientCursor(self.conn)
        try:
            cursor.execute(f"{self.database.local_settings()}; {sql}", params)
        except psycopg.Error as exc:
            raise self.database.error(exc) from None
        cursor.nextset()  # the statement's result, after the settings'
        return cursor

    def _reconnect_if_lost(self) -> None:
        """A connection the server ended (a restart, a failover, an idle timeout) is
        opened again before the next statement, outside a transaction only (one lost
        midway was lost whole, and its error said so): a long-running ``serve`` answers
        again once the server is back.  A lent connection is its pool's to replace."""
        if self._depth == 0 and self.owns_connection and (self.conn.broken or self.conn.closed):
            connection = self.database.connect()  # DatabaseUnavailable while the server is away
            try:
                self.database.prepare(connection, create=False)
            except BaseException:
                connection.close()
                raise
            self.conn.close()
            self.conn = connection

    # ---- transactions

    def _begin(self) -> None:
        self._reconnect_if_lost()
        try:
            self.conn.execute(self.database.begin())  # no parameters: its two statements in one round trip
        except psycopg.Error as exc:
            self._rollback()
            raise self.database.error(exc) from None

    def _commit(self) -> None:
        try:
            self.conn.execute("COMMIT")
        except psycopg.Error as exc:
            self._rollback()
            raise self.database.error(exc) from None

    def _rollback(self) -> None:
        # On a lost connection there is nothing to roll back (the server did), and the
        # error that brought us here is the one to report.
        if self.conn.closed or self.conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE:
            return
        try:
            self.conn.execute("ROLLBACK")
        except psycopg.Error:
            pass


class PostgresLog(ChainedLog):
    """The ``events`` table.  A transaction that appends to a match holds its advisory lock."""

    def __init__(self, db: PostgresConnection):
        super().__init__(db, db.database.location)
        self.db = db

    def _lock_match(self, match_id: str) -> None:
        self.db.run("SELECT pg_advisory_xact_lock(%s, hashtext(current_schema() || '.' || %s))", (LOCK_SPACE, match_id))

    def _match_ids(self) -> list[str]:
        return [row[0] for row in self.db.fetch("SELECT DISTINCT match_id FROM events ORDER BY match_id")]

    def _has_match(self, match_id: str) -> bool:
        return bool(self.db.fetch("SELECT 1 FROM events WHERE match_id = %s LIMIT 1", (match_id,)))

    def _read(
        self, columns: str, match_id: str, after: int, upto: int | None, *, replace_bad_utf8: bool
    ) -> list[tuple]:
        # The database is UTF8 (checked on open): every text it holds is UTF-8.
        params: tuple[str | int, ...]
        if upto is None:
            sql, params = (
                f"SELECT {columns} FROM events WHERE match_id = %s AND seq > %s ORDER BY seq",
                (match_id, after),
            )
        else:
            sql = f"SELECT {columns} FROM events WHERE match_id = %s AND seq > %s AND seq <= %s ORDER BY seq"
            params = (match_id, after, upto)
        return self.db.fetch(sql, params)

    def _head(self, match_id: str) -> tuple[int, str] | None:
        rows = self.db.fetch("SELECT seq, hash FROM events WHERE match_id = %s ORDER BY seq DESC LIMIT 1", (match_id,))
        return rows[0] if rows else None

    def _insert(self, rows: list[tuple]) -> None:
        try:
            with self.db.conn.cursor() as cursor:
                cursor.executemany(_INSERT, rows)
        except pg_errors.UniqueViolation as exc:
            raise self._conflict(rows, exc.diag.message_primary or "unique violation") from None
        except psycopg.Error as exc:
            raise self.db.database.error(exc) from None


class PostgresSnapshots(SnapshotCache):
    """The ``snapshots`` table (a cache of folded states; see projections/snapshots.py)."""

    def __init__(self, db: PostgresConnection, log: PostgresLog):
        self.db, self._log = db, log

    def snapshot(self, match_id: str, revision: str, upto: int | None = None) -> tuple[int, bytes, str] | None:
        self._log.flush_for(match_id)
        if upto is None:
            rows = self.db.fetch(_SNAPSHOT, (match_id, revision))
        else:
            rows = self.db.fetch(_SNAPSHOT + " AND s.seq <= %s", (match_id, revision, upto))
        return (rows[0][0], bytes(rows[0][1]), rows[0][2]) if rows else None

    def save_snapshot(self, match_id: str, seq: int, event_hash: str, revision: str, body: bytes) -> None:
        with self.db.transaction():
            self.db.run(_SAVE_SNAPSHOT, (match_id, seq, event_hash, revision, body))


class PostgresCapabilities(CapabilityStore):
    """The ``capabilities`` table (the service's tokens, by hash; see ledger/capabilities.py)."""

    def __init__(self, db: PostgresConnection):
        self.db = db

    def save_capability(self, capability: Capability) -> None:
        with self.db.transaction():
            if not self._has_table():  # made only where missing: a host role may not CREATE
                self.db.run(CAPABILITIES_TABLE)
            self.db.run(
                f"INSERT INTO capabilities ({_CAPABILITY_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                (
                    capability.token_hash,
                    capability.match_id,
                    capability.role,
                    capability.participant,
                    capability.can_submit,
                    capability.created_at,
                    capability.revoked_at,
                ),
            )

    def capability(self, token_hash: str) -> Capability | None:
        # Looked up only where the table exists: a failed statement would abort the
        # transaction it ran in.
        if not self._has_table():
            return None
        rows = self.db.fetch(f"SELECT {_CAPABILITY_COLUMNS} FROM capabilities WHERE token_hash = %s", (token_hash,))
        return _capability_of(rows[0]) if rows else None

    def capabilities(self, match_id: str | None = None) -> list[Capability]:
        if not self._has_table():
            return []
        where, params = ("WHERE match_id = %s ", (match_id,)) if match_id is not None else ("", ())
        rows = self.db.fetch(
            f"SELECT {_CAPABILITY_COLUMNS} FROM capabilities {where}ORDER BY created_at, token_hash", params
        )
        return [_capability_of(row) for row in rows]

    def revoke_capability(self, token_hash: str, revoked_at: str) -> Capability | None:
        if self.capability(token_hash) is None:
            return None
        with self.db.transaction():
            self.db.run(
                "UPDATE capabilities SET revoked_at = %s WHERE token_hash = %s AND revoked_at IS NULL",
                (revoked_at, token_hash),
            )
        return self.capability(token_hash)

    def save_service_address(self, address: ServiceAddress) -> None:
        with self.db.transaction():
            self.db.run(
                "INSERT INTO service_addresses (source, url, recorded_at) VALUES (%s, %s, %s) "
                "ON CONFLICT (source) DO UPDATE SET url = excluded.url, recorded_at = excluded.recorded_at",
                (address.source, address.url, address.recorded_at),
            )

    def service_addresses(self) -> list[ServiceAddress]:
        # Tables of a version before addresses were kept are read as they are: no table.
        if not self._has_table("service_addresses"):
            return []
        rows = self.db.fetch("SELECT source, url, recorded_at FROM service_addresses ORDER BY source")
        return [ServiceAddress(source=source, url=url, recorded_at=recorded_at) for source, url, recorded_at in rows]

    def _has_table(self, name: str = "capabilities") -> bool:
        return bool(self.db.fetch("SELECT to_regclass(%s) IS NOT NULL", (name,))[0][0])


class PostgresHooks(HookStore):
    """The ``hooks`` and ``hook_deliveries`` tables (ledger/hooks.py), made by migration 3."""

    def __init__(self, db: PostgresConnection):
        self.db = db

    def save_hook(self, hook: Hook) -> None:
        with self.db.transaction():
            self.db.run(
                f"INSERT INTO hooks ({HOOK_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)", hook_row(hook)
            )

    def hook(self, hook_id: str) -> Hook | None:
        rows = self._fetch(f"SELECT {HOOK_COLUMNS} FROM hooks WHERE hook_id = %s", (hook_id,))
        return hook_of(rows[0]) if rows else None

    def hooks(self, match_id: str | None = None) -> list[Hook]:
        where, params = ("WHERE match_id = %s ", (match_id,)) if match_id is not None else ("", ())
        rows = self._fetch(f"SELECT {HOOK_COLUMNS} FROM hooks {where}ORDER BY created_at, hook_id", params)
        return [hook_of(row) for row in rows]

    def remove_hook(self, hook_id: str, removed_at: str) -> Hook | None:
        if self.hook(hook_id) is None:
            return None
        with self.db.transaction():
            self.db.run(
                "UPDATE hooks SET removed_at = %s WHERE hook_id = %s AND removed_at IS NULL", (removed_at, hook_id)
            )
        return self.hook(hook_id)

    def claim_delivery(self, delivery: Delivery) -> bool:
        with self.db.transaction():
            cursor = self.db.run(
                f"INSERT INTO hook_deliveries ({DELIVERY_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s) "
                "ON CONFLICT DO NOTHING",
                delivery_row(delivery),
            )
            return cursor.rowcount == 1

    def take_over(self, delivery: Delivery, claimed_at: str) -> Delivery | None:
        key = (delivery.hook_id, delivery.match_id, delivery.seq, delivery.kind)
        with self.db.transaction():
            rows = self.db.fetch(
                "UPDATE hook_deliveries SET claimed_at = %s "
                "WHERE hook_id = %s AND match_id = %s AND seq = %s AND kind = %s AND state = %s AND claimed_at = %s "
                f"RETURNING {DELIVERY_COLUMNS}",
                (claimed_at, *key, PENDING, delivery.claimed_at),
            )
        return delivery_of(rows[0]) if rows else None

    def record_attempt(self, delivery: Delivery, attempt: Attempt, state: str) -> Delivery:
        key = (delivery.hook_id, delivery.match_id, delivery.seq, delivery.kind)
        with self.db.transaction():
            [(attempts,)] = self.db.fetch(
                "SELECT attempts FROM hook_deliveries WHERE hook_id = %s AND match_id = %s AND seq = %s AND kind = %s "
                "FOR UPDATE",
                key,
            )
            kept = (*decode_attempts(attempts), attempt)
            self.db.run(
                "UPDATE hook_deliveries SET state = %s, attempts = %s "
                "WHERE hook_id = %s AND match_id = %s AND seq = %s AND kind = %s",
                (state, encode_attempts(kept), *key),
            )
        return with_attempts(delivery, state, kept)

    def deliveries(self, hook_id: str) -> list[Delivery]:
        rows = self._fetch(
            f"SELECT {DELIVERY_COLUMNS} FROM hook_deliveries WHERE hook_id = %s ORDER BY match_id, seq, kind",
            (hook_id,),
        )
        return [delivery_of(row) for row in rows]

    def _fetch(self, sql: str, params: tuple) -> list[tuple]:
        # Tables of a version before hooks were kept are read as they are: no table (a
        # failed statement would abort the transaction it ran in, so it is not tried).
        if not self.db.fetch("SELECT to_regclass('hook_deliveries') IS NOT NULL")[0][0]:
            return []
        return self.db.fetch(sql, params)


class PostgresChanges(ChangeFeed):
    """The server's current snapshot, as text; and the commits our triggers announce,
    pushed by a listening connection of their own (ledger/postgres_listen.py)."""

    def __init__(self, db: PostgresConnection):
        self.db = db

    def subscribe(self, listener: Listener, *, fallback: float = FALLBACK_SECONDS) -> Subscription:
        from .postgres_listen import PostgresListener

        return PostgresListener(self.db.database, listener, fallback=fallback)

    def data_version(self) -> str:
        # xmin:xmax:transactions in progress: a commit either moves xmax (the highest
        # completed transaction's id, plus one) or takes its transaction out of the list
        # in progress.  xmax alone would miss the commit of a transaction that began
        # before one that already finished.  Any writer's commit moves it (another
        # process's, another database's on the same server): a look too many is cheap,
        # one too few would keep a revoked token open.
        return self.db.fetch("SELECT pg_current_snapshot()::text")[0][0]


class PostgresStore(LogStore):
    """Matches in a PostgreSQL database, named by its URL.

    ``read_only`` opens it for reading only (its tables must exist; nothing can be
    written); otherwise ``create`` makes the tables where there are none, and tables of
    an earlier schema version are migrated.  A writer waits up to ``lock_timeout``
    seconds for a lock.  ``connection``: one lent by a pool (already checked), which ``close`` leaves open.
    """

    def __init__(
        self,
        url: str,
        *,
        create: bool = True,
        read_only: bool = False,
        lock_timeout: float = LOCK_TIMEOUT_SECONDS,
        connection: psycopg.Connection | None = None,
    ):
        self.database = Database(url, read_only=read_only, lock_timeout=lock_timeout)
        self.address = url
        self.location = self.database.location
        self.read_only = read_only
        self.db = PostgresConnection(self.database, create=create, connection=connection)
        log = PostgresLog(self.db)
        self._parts(log, PostgresSnapshots(self.db, log), PostgresCapabilities(self.db), PostgresChanges(self.db))
        self.hook_store = PostgresHooks(self.db)

    @property
    def conn(self) -> psycopg.Connection:
        return self.db.conn

    def close(self) -> None:
        self.db.close()


class _LentStoreOptions(TypedDict):
    """What each store a pool lends is opened with."""

    read_only: bool
    lock_timeout: float


class PostgresPool:
    """Connections to one PostgreSQL database kept open for a long-running process
    (``serve``): ``with pool.store() as store`` lends a :class:`PostgresStore` on one of
    them for as long as the block runs (one request).  The tables are checked (and with
    ``create`` made) once, when the pool opens; a lent store's transactions carry
    their own settings, so nothing is set on a connection.  At most ``max_size`` connections; a borrower waits up to
    ``lock_timeout`` seconds for one."""

    def __init__(
        self,
        url: str,
        *,
        create: bool = False,
        read_only: bool = False,
        lock_timeout: float = LOCK_TIMEOUT_SECONDS,
        min_size: int = 1,
        max_size: int = 8,
    ):
        from psycopg_pool import ConnectionPool, PoolTimeout  # only a long-running process needs it

        self._options: _LentStoreOptions = {"read_only": read_only, "lock_timeout": lock_timeout}
        self._timeout_error = PoolTimeout
        PostgresStore(url, create=create, **self._options).close()  # reachable, and our tables
        self.database = Database(url, read_only=read_only, lock_timeout=lock_timeout)
        self.address, self.location = url, self.database.location
        self._pool = ConnectionPool(
            url,
            min_size=min_size,
            max_size=max_size,
            kwargs=self.database.connect_options(),  # nothing set on a session: each transaction sets its own
            check=ConnectionPool.check_connection,  # a connection the server dropped is replaced
            timeout=lock_timeout,
            open=False,
            name="matchledger",
        )
        try:
            self._pool.open(wait=True, timeout=lock_timeout)
        except PoolTimeout:
            self._pool.close()
            raise DatabaseBusy(
                f"cannot open {min_size} connections to {self.location!r} within {lock_timeout:g} s", cause=BUSY_POOL
            ) from None

    @contextmanager
    def store(self) -> Iterator[PostgresStore]:
        try:
            with self._pool.connection() as conn:
                yield PostgresStore(self.address, connection=conn, **self._options)
        except self._timeout_error:
            raise DatabaseBusy(
                f"database {self.location!r} is busy: no free connection within {self.database.lock_timeout:g} s; try again",
                cause=BUSY_POOL,
            ) from None

    def close(self) -> None:
        self._pool.close()


def _capability_of(row: tuple) -> Capability:
    """A row of ``capabilities`` (its columns in ``_CAPABILITY_COLUMNS``'s order)."""
    token, match_id, role, participant, can_submit, created_at, revoked_at = row
    return Capability(
        token_hash=token,
        match_id=match_id,
        role=role,
        participant=participant,
        can_submit=bool(can_submit),
        created_at=created_at,
        revoked_at=revoked_at,
    )

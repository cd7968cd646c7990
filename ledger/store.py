"""The SQLite store: one database file, its ``events`` table append-only and hash-chained
per match, with the snapshot cache, the capability store and the change feed beside it.

Append-only is enforced by the database itself (triggers abort any UPDATE or DELETE),
so a script that bypasses this module cannot silently rewrite history.  Which files are
matchledger databases, and how each is opened (and migrated), is :mod:`.sqlite_file`'s
business.  What every back end shares (appends that state the seq they expect, hashing,
batching) is :class:`.event_log.ChainedLog`'s; here are SQLite's statements for each
part (:mod:`.log_store`).
"""

from __future__ import annotations

import functools
import os
import sqlite3

from .capabilities import Capability
from .capability_store import CapabilityStore
from .change_feed import ChangeFeed
from .errors import CorruptLog
from .event_log import COLUMNS, ChainedLog, StoredEvent
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
from .service_addresses import ServiceAddress
from .snapshot_cache import SnapshotCache
from .sqlite_file import (
    check_schema,
    database_error,
    open_for_reading,
    open_for_writing,
    schema_state,
)
from .sqlite_schema import CAPABILITIES_TABLE, SNAPSHOTS_TABLE
from .transactions import Transactions

__all__ = ["COLUMNS", "Store", "StoredEvent"]

_CAPABILITY_COLUMNS = "token_hash, match_id, role, participant, can_submit, created_at, revoked_at"


def _plain_errors(method):
    """``method`` with what SQLite raises turned into the error a user sees (a busy or
    read-only database, a file that cannot be read), naming the file."""

    @functools.wraps(method)
    def translated(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as exc:
            raise self.file.error(exc) from None

    return translated


class DatabaseFile(Transactions):
    """An open database file: its connection, and its transactions, shared by the parts.

    ``read_only`` opens it for reading only (it must exist and be a matchledger
    database, and nothing is changed); otherwise ``create`` makes the file if there is
    none, and an earlier schema is migrated.  A writer waits up to ``lock_timeout``
    seconds for another writer's lock.
    """

    def __init__(self, path: str, *, create: bool, read_only: bool, lock_timeout: float):
        super().__init__()
        self.path = path
        self.lock_timeout = lock_timeout
        if read_only:
            self.conn = open_for_reading(path, lock_timeout)
        else:
            self.conn = open_for_writing(path, lock_timeout, create=create)
        try:
            self._checked_schema = schema_state(self.conn)  # the open checked the schema as it is now
        except sqlite3.Error as exc:
            self.conn.close()
            raise self.error(exc) from None

    def error(self, exc: sqlite3.Error):
        """The error a user sees for what SQLite reported."""
        return database_error(self.path, exc, self.lock_timeout)

    # ---- transactions: BEGIN IMMEDIATE takes the file's write lock, so every match is locked

    def _begin(self) -> None:
        try:
            self.conn.execute("BEGIN IMMEDIATE")
            state = schema_state(self.conn)
        except sqlite3.Error as exc:
            raise self.error(exc) from None
        # Under the write lock: a trigger planted since the schema was last checked (while
        # a server holds this connection), or a newer matchledger's migration, would
        # change what this transaction's writes do.
        if state != self._checked_schema:
            try:
                check_schema(self.conn, self.path)
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            self._checked_schema = state

    def _commit(self) -> None:
        try:
            self.conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if self.conn.in_transaction:  # a COMMIT that failed leaves it open
                self.conn.execute("ROLLBACK")
            raise self.error(exc) from None

    def _rollback(self) -> None:
        self.conn.execute("ROLLBACK")


class SQLiteLog(ChainedLog):
    """The ``events`` table."""

    def __init__(self, file: DatabaseFile):
        super().__init__(file, file.path)
        self.file = file

    @_plain_errors
    def _match_ids(self) -> list[str]:
        return [row[0] for row in self.file.conn.execute("SELECT DISTINCT match_id FROM events ORDER BY match_id")]

    @_plain_errors
    def _has_match(self, match_id: str) -> bool:
        sql = "SELECT 1 FROM events WHERE match_id = ? LIMIT 1"
        return self.file.conn.execute(sql, (match_id,)).fetchone() is not None

    @_plain_errors
    def _read(
        self, columns: str, match_id: str, after: int, upto: int | None, *, replace_bad_utf8: bool
    ) -> list[tuple]:
        """``columns`` of the match's rows with seq in (``after``, ``upto``], in seq order.

        Only a row edited behind the store's back holds text that is not UTF-8.  With
        ``replace_bad_utf8`` such text is read with replacement characters (its hash can
        no longer match, so verify names the row); without, the read fails as any
        unreadable file does (:func:`database_error` words it).
        """
        sql = f"SELECT {columns} FROM events WHERE match_id = ? AND seq > ?"
        params: list = [match_id, after]
        if upto is not None:
            sql += " AND seq <= ?"
            params.append(upto)
        sql += " ORDER BY seq"
        conn = self.file.conn
        try:
            return conn.execute(sql, params).fetchall()
        except sqlite3.OperationalError as exc:
            if not replace_bad_utf8 or "decode" not in str(exc):
                raise
            conn.text_factory = lambda data: data.decode("utf-8", "replace")
            try:
                return conn.execute(sql, params).fetchall()
            finally:
                conn.text_factory = str

    @_plain_errors
    def _head(self, match_id: str) -> tuple[int, str] | None:
        row = self.file.conn.execute(
            "SELECT seq, hash FROM events WHERE match_id = ? ORDER BY seq DESC LIMIT 1", (match_id,)
        ).fetchone()
        return (row[0], row[1]) if row else None

    @_plain_errors
    def _insert(self, rows: list[tuple]) -> None:
        try:
            self.file.conn.executemany(
                "INSERT INTO events (match_id, seq, kind, body, recorded_at, actor, prev_hash, hash) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
        except sqlite3.IntegrityError as exc:
            raise self._conflict(rows, str(exc)) from None


class SQLiteSnapshots(SnapshotCache):
    """The ``snapshots`` table (a cache of folded states; see projections/snapshots.py),
    made by the first snapshot saved."""

    def __init__(self, file: DatabaseFile, log: SQLiteLog):
        self.file, self._log = file, log

    def snapshot(self, match_id: str, revision: str, upto: int | None = None) -> tuple[int, bytes, str] | None:
        self._log.flush_for(match_id)
        sql = (
            "SELECT s.seq, s.body, s.hash FROM snapshots s "
            "JOIN events e ON e.match_id = s.match_id AND e.seq = s.seq AND e.hash = s.hash "
            "WHERE s.match_id = ? AND s.revision = ?"
        )
        params: list = [match_id, revision]
        if upto is not None:
            sql += " AND s.seq <= ?"
            params.append(upto)
        try:
            row = self.file.conn.execute(sql, params).fetchone()
        except sqlite3.OperationalError:  # a file from before snapshots existed: no table
            return None
        except sqlite3.DatabaseError as exc:
            raise CorruptLog(f"cannot read {self.file.path!r}: {exc}") from None
        return (row[0], bytes(row[1]), row[2]) if row else None

    @_plain_errors
    def save_snapshot(self, match_id: str, seq: int, event_hash: str, revision: str, body: bytes) -> None:
        with self.file.transaction():
            self.file.conn.execute(SNAPSHOTS_TABLE)
            self.file.conn.execute(
                "INSERT OR REPLACE INTO snapshots (match_id, seq, hash, revision, body) VALUES (?, ?, ?, ?, ?)",
                (match_id, seq, event_hash, revision, body),
            )


class SQLiteCapabilities(CapabilityStore):
    """The ``capabilities`` table (the service's tokens, by hash; see
    ledger/capabilities.py), made by the first invitation."""

    def __init__(self, file: DatabaseFile):
        self.file = file

    @_plain_errors
    def save_capability(self, capability: Capability) -> None:
        with self.file.transaction():
            self.file.conn.execute(CAPABILITIES_TABLE)
            self.file.conn.execute(
                f"INSERT INTO capabilities ({_CAPABILITY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    capability.token_hash,
                    capability.match_id,
                    capability.role,
                    capability.participant,
                    int(capability.can_submit),
                    capability.created_at,
                    capability.revoked_at,
                ),
            )

    def capability(self, token_hash: str) -> Capability | None:
        rows = self._select("WHERE token_hash = ?", (token_hash,))
        return _capability_of(rows[0]) if rows else None

    def capabilities(self, match_id: str | None = None) -> list[Capability]:
        where, params = ("WHERE match_id = ? ", (match_id,)) if match_id is not None else ("", ())
        return [_capability_of(row) for row in self._select(f"{where}ORDER BY created_at, token_hash", params)]

    @_plain_errors
    def revoke_capability(self, token_hash: str, revoked_at: str) -> Capability | None:
        if self.capability(token_hash) is None:
            return None
        with self.file.transaction():
            self.file.conn.execute(
                "UPDATE capabilities SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL",
                (revoked_at, token_hash),
            )
        return self.capability(token_hash)

    @_plain_errors
    def save_service_address(self, address: ServiceAddress) -> None:
        with self.file.transaction():
            self.file.conn.execute(
                "INSERT OR REPLACE INTO service_addresses (source, url, recorded_at) VALUES (?, ?, ?)",
                (address.source, address.url, address.recorded_at),
            )

    def service_addresses(self) -> list[ServiceAddress]:
        try:
            rows = self.file.conn.execute(
                "SELECT source, url, recorded_at FROM service_addresses ORDER BY source"
            ).fetchall()
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):  # a file of a version before addresses were kept, read as it is
                return []
            raise self.file.error(exc) from None
        except sqlite3.Error as exc:
            raise self.file.error(exc) from None
        return [_address_of(row) for row in rows]

    def _select(self, rest: str, params: tuple) -> list[tuple]:
        try:
            return self.file.conn.execute(f"SELECT {_CAPABILITY_COLUMNS} FROM capabilities {rest}", params).fetchall()
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):  # nobody was ever invited
                return []
            raise self.file.error(exc) from None
        except sqlite3.Error as exc:
            raise self.file.error(exc) from None


class SQLiteHooks(HookStore):
    """The ``hooks`` and ``hook_deliveries`` tables (ledger/hooks.py), made by migration 4."""

    def __init__(self, file: DatabaseFile):
        self.file = file

    @_plain_errors
    def save_hook(self, hook: Hook) -> None:
        with self.file.transaction():
            self.file.conn.execute(
                f"INSERT INTO hooks ({HOOK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", hook_row(hook)
            )

    def hook(self, hook_id: str) -> Hook | None:
        rows = self._select(f"SELECT {HOOK_COLUMNS} FROM hooks WHERE hook_id = ?", (hook_id,))
        return hook_of(rows[0]) if rows else None

    def hooks(self, match_id: str | None = None) -> list[Hook]:
        where, params = ("WHERE match_id = ? ", (match_id,)) if match_id is not None else ("", ())
        rows = self._select(f"SELECT {HOOK_COLUMNS} FROM hooks {where}ORDER BY created_at, hook_id", params)
        return [hook_of(row) for row in rows]

    @_plain_errors
    def remove_hook(self, hook_id: str, removed_at: str) -> Hook | None:
        if self.hook(hook_id) is None:
            return None
        with self.file.transaction():
            self.file.conn.execute(
                "UPDATE hooks SET removed_at = ? WHERE hook_id = ? AND removed_at IS NULL", (removed_at, hook_id)
            )
        return self.hook(hook_id)

    @_plain_errors
    def claim_delivery(self, delivery: Delivery) -> bool:
        with self.file.transaction():
            cursor = self.file.conn.execute(
                f"INSERT OR IGNORE INTO hook_deliveries ({DELIVERY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                delivery_row(delivery),
            )
        return cursor.rowcount == 1

    @_plain_errors
    def take_over(self, delivery: Delivery, claimed_at: str) -> Delivery | None:
        key = (delivery.hook_id, delivery.match_id, delivery.seq, delivery.kind)
        with self.file.transaction():
            cursor = self.file.conn.execute(
                "UPDATE hook_deliveries SET claimed_at = ? "
                "WHERE hook_id = ? AND match_id = ? AND seq = ? AND kind = ? AND state = ? AND claimed_at = ?",
                (claimed_at, *key, PENDING, delivery.claimed_at),
            )
            if cursor.rowcount != 1:
                return None
            [row] = self.file.conn.execute(
                f"SELECT {DELIVERY_COLUMNS} FROM hook_deliveries "
                "WHERE hook_id = ? AND match_id = ? AND seq = ? AND kind = ?",
                key,
            ).fetchall()
        return delivery_of(row)

    @_plain_errors
    def record_attempt(self, delivery: Delivery, attempt: Attempt, state: str) -> Delivery:
        with self.file.transaction():
            [(attempts,)] = self.file.conn.execute(
                "SELECT attempts FROM hook_deliveries WHERE hook_id = ? AND match_id = ? AND seq = ? AND kind = ?",
                (delivery.hook_id, delivery.match_id, delivery.seq, delivery.kind),
            ).fetchall()
            kept = (*decode_attempts(attempts), attempt)
            self.file.conn.execute(
                "UPDATE hook_deliveries SET state = ?, attempts = ? "
                "WHERE hook_id = ? AND match_id = ? AND seq = ? AND kind = ?",
                (state, encode_attempts(kept), delivery.hook_id, delivery.match_id, delivery.seq, delivery.kind),
            )
        return with_attempts(delivery, state, kept)

    def deliveries(self, hook_id: str) -> list[Delivery]:
        rows = self._select(
            f"SELECT {DELIVERY_COLUMNS} FROM hook_deliveries WHERE hook_id = ? ORDER BY match_id, seq, kind",
            (hook_id,),
        )
        return [delivery_of(row) for row in rows]

    def _select(self, sql: str, params: tuple) -> list[tuple]:
        try:
            return self.file.conn.execute(sql, params).fetchall()
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):  # a file of a version before hooks were kept, read as it is
                return []
            raise self.file.error(exc) from None
        except sqlite3.Error as exc:
            raise self.file.error(exc) from None


class SQLiteChanges(ChangeFeed):
    """SQLite's ``data_version``: a number that changes whenever another connection has
    committed to the file since it was last read here (this connection's own commits do
    not move it)."""

    def __init__(self, file: DatabaseFile):
        self.file = file

    @_plain_errors
    def data_version(self) -> int:
        return self.file.conn.execute("PRAGMA data_version").fetchone()[0]


class Store(LogStore):
    """An open SQLite database file holding any number of matches.

    ``read_only`` opens it for reading only (it must exist and be a matchledger
    database, and nothing is changed); otherwise ``create`` makes the file if there is
    none, and a file of an earlier schema version is migrated.  A writer waits up to
    ``lock_timeout`` seconds for another writer's lock.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        create: bool = True,
        read_only: bool = False,
        lock_timeout: float = LOCK_TIMEOUT_SECONDS,
    ):
        self.path = self.location = self.address = str(path)  # a path holds no secret to leave out
        self.read_only = read_only
        self.lock_timeout = lock_timeout
        self.file = DatabaseFile(self.path, create=create, read_only=read_only, lock_timeout=lock_timeout)
        log = SQLiteLog(self.file)
        self._parts(log, SQLiteSnapshots(self.file, log), SQLiteCapabilities(self.file), SQLiteChanges(self.file))
        self.hook_store = SQLiteHooks(self.file)

    @property
    def conn(self) -> sqlite3.Connection:
        return self.file.conn

    def close(self) -> None:
        self.file.conn.close()

    def command_ended(self) -> None:
        # Closed now, as the end of the process would close it: closing the last
        # connection checkpoints the WAL and removes the -wal and -shm files.  Left to
        # the garbage collector (an sqlite3 connection is in a reference cycle with its
        # statement cache), a command run in a longer-lived process closed at some later
        # moment, rewriting the file's bytes then.
        self.close()


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


def _address_of(row: tuple) -> ServiceAddress:
    """A row of ``service_addresses``, as stored: a value written past the store (of
    another type) is kept as text, for the reader to check and refuse."""
    source, url, recorded_at = row
    return ServiceAddress(source=str(source), url=str(url), recorded_at=str(recorded_at))

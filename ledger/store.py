"""The SQLite event store: one ``events`` table, append-only, hash-chained per match.

Append-only is enforced by the database itself (triggers abort any UPDATE or DELETE),
so a script that bypasses this module cannot silently rewrite history.  Which files are
matchledger databases, and how each is opened, is :mod:`.sqlite_file`'s business.  Appends state
the sequence number they expect next (optimistic concurrency): a writer that lost the
race gets :class:`LogConflict` and nothing of its batch is written.
"""

from __future__ import annotations

import functools
import sqlite3
from contextlib import contextmanager
from itertools import starmap
from pathlib import Path
from typing import Iterable, Iterator

import msgspec
from msgspec.structs import astuple

from .capabilities import Capability
from .codec import GENESIS_HASH, decode_event, encode, envelope_hash
from .errors import CorruptLog, LogConflict, UnknownMatch
from .events import Event
from .limits import LOCK_TIMEOUT_SECONDS
from .sqlite_file import database_error, open_for_reading, open_for_writing

COLUMNS = ("match_id", "seq", "kind", "body", "recorded_at", "actor", "prev_hash", "hash")
_ROW_COLUMNS = ", ".join(COLUMNS)  # in StoredEvent's field order

# Made on the first snapshot written, so a read never changes a file and an old file
# simply has none.  One row per match: the latest snapshot.
_SNAPSHOTS_TABLE = (
    "CREATE TABLE IF NOT EXISTS snapshots (match_id TEXT PRIMARY KEY, seq INTEGER NOT NULL, "
    "hash TEXT NOT NULL, revision TEXT NOT NULL, body BLOB NOT NULL)"
)

# Made by the first invitation (a write), never by a read: a reader of a file without it
# finds no capability.  One row per token issued, by the sha256 of the token.
_CAPABILITIES_TABLE = (
    "CREATE TABLE IF NOT EXISTS capabilities (token_hash TEXT PRIMARY KEY, match_id TEXT NOT NULL, "
    "role TEXT NOT NULL, participant TEXT, can_submit INTEGER NOT NULL, created_at TEXT NOT NULL, revoked_at TEXT)"
)
_CAPABILITY_COLUMNS = "token_hash, match_id, role, participant, can_submit, created_at, revoked_at"


class StoredEvent(msgspec.Struct, frozen=True):
    """One row of the ``events`` table (a Struct: cheap to build on the append path)."""

    match_id: str
    seq: int
    kind: str
    body: str
    recorded_at: str
    actor: str
    prev_hash: str
    hash: str

    def event(self) -> Event:
        return decode_event(self.body)


def _plain_errors(method):
    """``method`` with what SQLite raises turned into the error a user sees (a busy or
    read-only database, a file that cannot be read), naming the file."""

    @functools.wraps(method)
    def translated(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as exc:
            raise database_error(self.path, exc, self.lock_timeout) from None

    return translated


class Store:
    """An open database file holding any number of matches.

    ``read_only`` opens it for reading only (it must exist and be a matchledger
    database, and nothing is changed); otherwise ``create`` makes the file if there is
    none.  A writer waits up to ``lock_timeout`` seconds for another writer's lock.
    """

    def __init__(
        self, path: str | Path, *, create: bool = True, read_only: bool = False, lock_timeout: float = LOCK_TIMEOUT_SECONDS
    ):
        self.path = str(path)
        self.read_only = read_only
        self.lock_timeout = lock_timeout
        if read_only:
            self.conn = open_for_reading(self.path, lock_timeout)
        else:
            self.conn = open_for_writing(self.path, lock_timeout, create=create)
        self._depth = 0
        # Heads written inside the open transaction: while we hold the write lock nobody
        # else can append, so a batch need not read each head back.  Forgotten at its end.
        self._heads: dict[str, tuple[int, str]] = {}
        # Rows appended in the open transaction, inserted together (one executemany)
        # before any read and before COMMIT: a batch pays SQLite's per-call cost once.
        self._pending: list[tuple] = []  # rows as INSERT parameters (column order)

    def close(self) -> None:
        self.conn.close()

    # ---- transactions

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All appends inside are written together or not at all (nests)."""
        if self._depth == 0:
            self._execute("BEGIN IMMEDIATE")
        self._depth += 1
        try:
            yield
            if self._depth == 1:
                self._flush()
        except BaseException:
            self._depth -= 1
            if self._depth == 0:
                self._heads.clear()
                self._pending.clear()
                self.conn.execute("ROLLBACK")
            raise
        self._depth -= 1
        if self._depth == 0:
            self._heads.clear()
            try:
                self._execute("COMMIT")
            except BaseException:
                if self.conn.in_transaction:  # a COMMIT that failed leaves it open
                    self.conn.execute("ROLLBACK")
                raise

    @_plain_errors
    def _execute(self, statement: str) -> None:
        self.conn.execute(statement)

    def _flush_for(self, match_id: str) -> None:
        # Only a match written in the open transaction can have rows still pending.
        if match_id in self._heads:
            self._flush()

    def _flush(self) -> None:
        if self._pending:
            rows, self._pending = self._pending, []
            self._insert(rows)

    # ---- reading

    @_plain_errors
    def match_ids(self) -> list[str]:
        self._flush()
        return [row[0] for row in self.conn.execute("SELECT DISTINCT match_id FROM events ORDER BY match_id")]

    @_plain_errors
    def has_match(self, match_id: str) -> bool:
        if match_id in self._heads:  # written in the open transaction
            return True
        return self.conn.execute("SELECT 1 FROM events WHERE match_id = ? LIMIT 1", (match_id,)).fetchone() is not None

    @_plain_errors
    def rows(self, match_id: str, *, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
        """The match's rows with seq in (``after``, ``upto``], in seq order ([] for an
        unknown match).  A text that is not UTF-8 is read with replacement characters
        (see ``_read``), so that verify names the row rather than failing to read it."""
        return list(starmap(StoredEvent, self._read(_ROW_COLUMNS, match_id, after, upto, replace_bad_utf8=True)))

    def unknown_match(self, match_id: str) -> UnknownMatch:
        """The error for a match this store does not hold (the one place it is worded)."""
        return UnknownMatch(f"no match {match_id!r} in {self.path!r}")

    @_plain_errors
    def events(self, match_id: str, *, after: int = 0, upto: int | None = None) -> list[tuple[int, Event]]:
        """Decoded (seq, event) pairs; raises UnknownMatch for a match with no events."""
        # The replay hot path: only the two columns the fold needs, no row objects.
        pairs = self._read("seq, body", match_id, after, upto, replace_bad_utf8=False)
        if not pairs and after == 0 and not self.has_match(match_id):
            raise self.unknown_match(match_id)
        events = []
        for seq, body in pairs:
            try:
                events.append((seq, decode_event(body)))
            except CorruptLog as exc:
                raise CorruptLog(f"match {match_id!r} seq {seq}: {exc}") from None
        return events

    def _read(self, columns: str, match_id: str, after: int, upto: int | None, *, replace_bad_utf8: bool) -> list[tuple]:
        """``columns`` of the match's rows with seq in (``after``, ``upto``], in seq order.

        Only a row edited behind the store's back holds text that is not UTF-8.  With
        ``replace_bad_utf8`` such text is read with replacement characters (its hash can
        no longer match, so verify names the row); without, the read fails as any
        unreadable file does (:func:`database_error` words it).
        """
        self._flush_for(match_id)
        sql = f"SELECT {columns} FROM events WHERE match_id = ? AND seq > ?"
        params: list = [match_id, after]
        if upto is not None:
            sql += " AND seq <= ?"
            params.append(upto)
        sql += " ORDER BY seq"
        try:
            return self.conn.execute(sql, params).fetchall()
        except sqlite3.OperationalError as exc:
            if not replace_bad_utf8 or "decode" not in str(exc):
                raise
            self.conn.text_factory = lambda data: data.decode("utf-8", "replace")
            try:
                return self.conn.execute(sql, params).fetchall()
            finally:
                self.conn.text_factory = str

    # ---- snapshots (a cache of folded states; see projections/snapshots.py)

    def snapshot(self, match_id: str, revision: str, upto: int | None = None) -> tuple[int, bytes, str] | None:
        """(seq, body, hash of event seq) of the match's stored snapshot if it was written
        by ``revision`` after an event still in the log with the same hash (and at or
        before ``upto``).  Only a cache: the log must vouch for it before it is used."""
        self._flush_for(match_id)
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
            row = self.conn.execute(sql, params).fetchone()
        except sqlite3.OperationalError:  # a file from before snapshots existed: no table
            return None
        except sqlite3.DatabaseError as exc:
            raise CorruptLog(f"cannot read {self.path!r}: {exc}") from None
        return (row[0], bytes(row[1]), row[2]) if row else None

    @_plain_errors
    def save_snapshot(self, match_id: str, seq: int, event_hash: str, revision: str, body: bytes) -> None:
        """Keep ``body`` as the match's snapshot after event ``seq`` (replacing the one
        kept before: a snapshot is a cache, not part of the append-only log)."""
        with self.transaction():
            self.conn.execute(_SNAPSHOTS_TABLE)
            self.conn.execute(
                "INSERT OR REPLACE INTO snapshots (match_id, seq, hash, revision, body) VALUES (?, ?, ?, ?, ?)",
                (match_id, seq, event_hash, revision, body),
            )

    # ---- noticing other writers

    @_plain_errors
    def data_version(self) -> int:
        """A number that changes whenever another connection has committed to the
        database since it was last read here (SQLite's ``data_version``): the service
        polls it to learn cheaply that some match may have moved on."""
        return self.conn.execute("PRAGMA data_version").fetchone()[0]

    # ---- capabilities (the service's tokens, by hash; see ledger/capabilities.py)

    @_plain_errors
    def save_capability(self, capability: Capability) -> None:
        """Keep ``capability`` (its token hash is new: tokens are random)."""
        with self.transaction():
            self.conn.execute(_CAPABILITIES_TABLE)
            self.conn.execute(
                f"INSERT INTO capabilities ({_CAPABILITY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (capability.token_hash, capability.match_id, capability.role, capability.participant,
                 int(capability.can_submit), capability.created_at, capability.revoked_at),
            )

    def capability(self, token_hash: str) -> Capability | None:
        """The capability issued for the token with this hash, revoked or not (None: none)."""
        try:
            row = self.conn.execute(
                f"SELECT {_CAPABILITY_COLUMNS} FROM capabilities WHERE token_hash = ?", (token_hash,)
            ).fetchone()
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):  # nobody was ever invited
                return None
            raise database_error(self.path, exc, self.lock_timeout) from None
        except sqlite3.Error as exc:
            raise database_error(self.path, exc, self.lock_timeout) from None
        if row is None:
            return None
        token, match_id, role, participant, can_submit, created_at, revoked_at = row
        return Capability(token_hash=token, match_id=match_id, role=role, participant=participant,
                          can_submit=bool(can_submit), created_at=created_at, revoked_at=revoked_at)

    @_plain_errors
    def revoke_capability(self, token_hash: str, revoked_at: str) -> Capability | None:
        """Stamp the capability of this token hash revoked (if it is not yet); the
        capability as it now stands (None: no such token)."""
        if self.capability(token_hash) is None:
            return None
        with self.transaction():
            self.conn.execute(
                "UPDATE capabilities SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL",
                (revoked_at, token_hash),
            )
        return self.capability(token_hash)

    @_plain_errors
    def head(self, match_id: str) -> tuple[int, str] | None:
        self._flush_for(match_id)
        row = self.conn.execute(
            "SELECT seq, hash FROM events WHERE match_id = ? ORDER BY seq DESC LIMIT 1", (match_id,)
        ).fetchone()
        return (row[0], row[1]) if row else None

    # ---- writing

    def append(
        self,
        match_id: str,
        expected_seq: int,
        events: Iterable[Event],
        *,
        actor: str,
        recorded_at: str,
    ) -> list[StoredEvent]:
        """Append ``events`` as seq ``expected_seq``, ``expected_seq + 1``, …

        Raises :class:`LogConflict` (writing nothing) if the match's next seq is not
        ``expected_seq`` — another writer got there first.
        """
        events = list(events)
        if not events:
            return []
        if not self._depth:  # a transaction of its own (inside one, a batch appends on)
            with self.transaction():
                return self.append(match_id, expected_seq, events, actor=actor, recorded_at=recorded_at)
        head = self._heads.get(match_id) or self.head(match_id)
        last_seq, prev_hash = head if head else (0, GENESIS_HASH)
        if last_seq + 1 != expected_seq:
            raise LogConflict(
                f"match {match_id!r} moved on: expected to write seq {expected_seq} but the log "
                f"already ends at seq {last_seq}; re-read and try again"
            )
        actor_json, match_id_json, recorded_at_json = encode(actor), encode(match_id), encode(recorded_at)
        rows = []
        pending = self._pending
        seq = expected_seq
        for event in events:
            body = encode(event)
            kind = type(event).__name__
            digest = envelope_hash(actor_json, body, kind, match_id_json, prev_hash, recorded_at_json, seq)
            row = (match_id, seq, kind, body.decode("utf-8"), recorded_at, actor, prev_hash, digest)
            pending.append(row)  # the INSERT's parameters, in column order
            rows.append(StoredEvent(*row))
            prev_hash = digest
            seq += 1
        self._heads[match_id] = (seq - 1, prev_hash)
        return rows

    def append_rows(self, rows: list[StoredEvent]) -> None:
        """Write already-hashed rows (import); the caller has verified them."""
        if not rows:
            return
        with self.transaction():
            self._pending += [astuple(row) for row in rows]  # field order is the column order
            self._heads[rows[-1].match_id] = (rows[-1].seq, rows[-1].hash)

    @_plain_errors
    def _insert(self, rows: list[tuple]) -> None:
        try:
            self.conn.executemany(
                "INSERT INTO events (match_id, seq, kind, body, recorded_at, actor, prev_hash, hash) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
        except sqlite3.IntegrityError as exc:
            matches = sorted({row[0] for row in rows})
            where = f"match {matches[0]!r}" if len(matches) == 1 else f"one of matches {', '.join(map(repr, matches))}"
            raise LogConflict(f"{where}: another writer appended the same seq first ({exc})") from None

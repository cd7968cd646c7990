"""The event log: matches as append-only, hash-chained lists of rows.

A database holds any number of matches, each a list of rows (:class:`StoredEvent`)
numbered 1, 2, 3 … and chained by hash.  The interface (:class:`EventLog`) is small, a
recorder's: append with the seq expected next, read rows, a match's head, the matches
held.  Appends state the sequence number they expect (optimistic concurrency): a writer
that lost the race gets :class:`LogConflict` and nothing of its batch is written.

:class:`ChainedLog` is that interface written once for every SQL back end: hashing, the
expected-seq check, batching a transaction's rows into one insert, and decoding; a back
end fills in its few statements (insert, read, head, the match's write lock).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from contextlib import AbstractContextManager
from itertools import starmap

import msgspec
from msgspec.structs import astuple

from .codec import GENESIS_HASH, decode_event, encode, envelope_hash
from .errors import CorruptLog, LogConflict, UnknownMatch
from .events import Event
from .transactions import Transactions

COLUMNS = ("match_id", "seq", "kind", "body", "recorded_at", "actor", "prev_hash", "hash")
ROW_COLUMNS = ", ".join(COLUMNS)  # in StoredEvent's field order


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


class EventLog(ABC):
    """Matches as append-only, hash-chained rows (see the module's docstring).

    ``location`` names the database in messages (a file's path, or a URL without its
    password)."""

    location: str

    @abstractmethod
    def append(
        self, match_id: str, expected_seq: int, events: Iterable[Event], *, actor: str, recorded_at: str
    ) -> list[StoredEvent]:
        """Append ``events`` as seq ``expected_seq``, ``expected_seq + 1``, …, hashed and
        chained; :class:`LogConflict` (writing nothing) if the match's next seq is not
        ``expected_seq``: another writer got there first."""

    @abstractmethod
    def append_rows(self, rows: list[StoredEvent]) -> None:
        """Write already-hashed rows (import; the caller has verified them);
        LogConflict where one of their seqs is taken."""

    @abstractmethod
    def rows(self, match_id: str, *, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
        """The match's rows with seq in (``after``, ``upto``], in seq order ([] for an
        unknown match).  A text that is not UTF-8 is read with replacement characters,
        so that verify names the row rather than failing to read it."""

    @abstractmethod
    def head(self, match_id: str) -> tuple[int, str] | None:
        """(seq, hash) of the match's last row (None: no such match)."""

    @abstractmethod
    def match_ids(self) -> list[str]:
        """Every match held, in order of id."""

    @abstractmethod
    def transaction(self) -> AbstractContextManager[None]:
        """Appends inside are written together or not at all (nests)."""

    @property
    @abstractmethod
    def in_transaction(self) -> bool:
        """Whether a transaction is open (an outer one decides what a conflict undoes)."""

    def has_match(self, match_id: str) -> bool:
        return self.head(match_id) is not None

    def events(self, match_id: str, *, after: int = 0, upto: int | None = None) -> list[tuple[int, Event]]:
        """Decoded (seq, event) pairs; raises UnknownMatch for a match with no events."""
        rows = self.rows(match_id, after=after, upto=upto)
        if not rows and after == 0 and not self.has_match(match_id):
            raise self.unknown_match(match_id)
        return [(row.seq, _decoded(match_id, row.seq, row.body)) for row in rows]

    def unknown_match(self, match_id: str) -> UnknownMatch:
        """The error for a match this log does not hold (the one place it is worded)."""
        return UnknownMatch(match_id, self.location)


class ChainedLog(EventLog):
    """The event log on an SQL database, written once: a back end fills in the
    statements (see the module's docstring), on a connection whose transactions it
    shares with the other parts of its store (``transactions``)."""

    def __init__(self, transactions: Transactions, location: str) -> None:
        self.location = location
        self._transactions = transactions
        # Heads written inside the open transaction: while it holds the match's write lock
        # nobody else can append to it, so a batch need not read each head back.
        # Forgotten at its end.
        self._heads: dict[str, tuple[int, str]] = {}
        # Rows appended in the open transaction, inserted together (one executemany)
        # before any read and before COMMIT: a batch pays the per-call cost once.
        self._pending: list[tuple] = []  # rows as INSERT parameters (column order)
        transactions.hold(self)

    # ---- what a back end fills in

    def _lock_match(self, match_id: str) -> None:
        """Hold the match's write lock until the transaction ends (a back end whose
        transaction already locks every match does nothing)."""

    @abstractmethod
    def _insert(self, rows: list[tuple]) -> None:
        """Insert rows (INSERT parameters); LogConflict where one of their seqs is taken."""

    @abstractmethod
    def _read(
        self, columns: str, match_id: str, after: int, upto: int | None, *, replace_bad_utf8: bool
    ) -> list[tuple]:
        """``columns`` of the match's rows with seq in (``after``, ``upto``], in seq order."""

    @abstractmethod
    def _match_ids(self) -> list[str]: ...

    @abstractmethod
    def _has_match(self, match_id: str) -> bool: ...

    @abstractmethod
    def _head(self, match_id: str) -> tuple[int, str] | None: ...

    # ---- transactions (the connection's, shared with the store's other parts)

    def transaction(self) -> AbstractContextManager[None]:
        return self._transactions.transaction()

    @property
    def in_transaction(self) -> bool:
        return self._transactions.in_transaction

    def flush(self) -> None:
        """Insert the rows kept back (before a read of the database, and before COMMIT)."""
        if self._pending:
            rows, self._pending = self._pending, []
            self._insert(rows)

    def flush_for(self, match_id: str) -> None:
        """Insert the rows kept back before a read of ``match_id`` (only a match written
        in the open transaction can have any)."""
        if match_id in self._heads:
            self.flush()

    def forget(self, *, unwritten: bool) -> None:
        self._heads.clear()
        if unwritten:
            self._pending.clear()

    # ---- reading

    def match_ids(self) -> list[str]:
        self.flush()
        return self._match_ids()

    def has_match(self, match_id: str) -> bool:
        if match_id in self._heads:  # written in the open transaction
            return True
        return self._has_match(match_id)

    def head(self, match_id: str) -> tuple[int, str] | None:
        self.flush_for(match_id)
        return self._head(match_id)

    def rows(self, match_id: str, *, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
        self.flush_for(match_id)
        return list(starmap(StoredEvent, self._read(ROW_COLUMNS, match_id, after, upto, replace_bad_utf8=True)))

    def events(self, match_id: str, *, after: int = 0, upto: int | None = None) -> list[tuple[int, Event]]:
        # The replay hot path: only the two columns the fold needs, no row objects.
        self.flush_for(match_id)
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

    # ---- writing

    def append(
        self, match_id: str, expected_seq: int, events: Iterable[Event], *, actor: str, recorded_at: str
    ) -> list[StoredEvent]:
        events = list(events)
        if not events:
            return []
        if not self._transactions.in_transaction:  # a transaction of its own (inside one, a batch appends on)
            with self.transaction():
                return self.append(match_id, expected_seq, events, actor=actor, recorded_at=recorded_at)
        head = self._heads.get(match_id) or self._locked_head(match_id)
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

    def _locked_head(self, match_id: str) -> tuple[int, str] | None:
        """The match's head, read once its write lock is held (so it stays the head)."""
        self._lock_match(match_id)
        return self.head(match_id)

    def append_rows(self, rows: list[StoredEvent]) -> None:
        if not rows:
            return
        with self.transaction():
            self._pending += [astuple(row) for row in rows]  # field order is the column order
            self._heads[rows[-1].match_id] = (rows[-1].seq, rows[-1].hash)

    @staticmethod
    def _conflict(rows: list[tuple], reason: str) -> LogConflict:
        """The error for rows whose seqs another writer took first (``reason``: what the
        database said, on one line)."""
        matches = sorted({row[0] for row in rows})
        where = f"match {matches[0]!r}" if len(matches) == 1 else f"one of matches {', '.join(map(repr, matches))}"
        return LogConflict(f"{where}: another writer appended the same seq first ({reason})")


def _decoded(match_id: str, seq: int, body: str) -> Event:
    try:
        return decode_event(body)
    except CorruptLog as exc:
        raise CorruptLog(f"match {match_id!r} seq {seq}: {exc}") from None

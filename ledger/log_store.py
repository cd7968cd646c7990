"""The store interface: what every back end offers the application, and what they share.

A store holds any number of matches, each an append-only, hash-chained list of rows
(:class:`StoredEvent`).  Appends state the sequence number they expect next (optimistic
concurrency): a writer that lost the race gets :class:`LogConflict` and nothing of its
batch is written.  Everything above the store (the application, verification, the
command line) uses only the methods of :class:`LogStore`, so a back end is a subclass
that fills in the few statements that differ: beginning and ending a transaction,
inserting rows, reading them, and the snapshot cache.

Hashing, the expected-seq check, batching a transaction's rows into one insert and
decoding bodies are written once, here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from itertools import starmap

import msgspec
from msgspec.structs import astuple

from .capabilities import Capability
from .codec import GENESIS_HASH, decode_event, encode, envelope_hash
from .errors import CorruptLog, LogConflict, UnknownMatch
from .events import Event

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


class LogStore(ABC):
    """An open database holding any number of matches (see the module's docstring).

    ``location`` names it in messages (a file's path, or a URL without its password);
    ``address`` opens it again, e.g. in a worker process (it may hold a password: never
    print it).
    """

    location: str
    address: str

    def __init__(self) -> None:
        self._depth = 0
        # Heads written inside the open transaction: while it holds the match's write lock
        # nobody else can append to it, so a batch need not read each head back.
        # Forgotten at its end.
        self._heads: dict[str, tuple[int, str]] = {}
        # Rows appended in the open transaction, inserted together (one executemany)
        # before any read and before COMMIT: a batch pays the per-call cost once.
        self._pending: list[tuple] = []  # rows as INSERT parameters (column order)

    # ---- what a back end fills in

    @abstractmethod
    def close(self) -> None: ...

    def command_ended(self) -> None:
        """The command-line command that opened the store is done: close it (a server's
        connection must not wait for the garbage collector)."""
        self.close()

    @abstractmethod
    def _begin(self) -> None:
        """Start a transaction that may write."""

    @abstractmethod
    def _commit(self) -> None:
        """Commit it (rolled back when the commit itself fails)."""

    @abstractmethod
    def _rollback(self) -> None: ...

    def _lock_match(self, match_id: str) -> None:  # noqa: B027 (an optional hook)
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

    @abstractmethod
    def snapshot(self, match_id: str, revision: str, upto: int | None = None) -> tuple[int, bytes, str] | None:
        """(seq, body, hash of event seq) of the match's stored snapshot if it was written
        by ``revision`` after an event still in the log with the same hash (and at or
        before ``upto``).  Only a cache: the log must vouch for it before it is used."""

    @abstractmethod
    def save_snapshot(self, match_id: str, seq: int, event_hash: str, revision: str, body: bytes) -> None:
        """Keep ``body`` as the match's snapshot after event ``seq`` (replacing the one
        kept before: a snapshot is a cache, not part of the append-only log)."""

    # ---- what the service needs (commands/service/; ledger/capabilities.py)

    @abstractmethod
    def data_version(self) -> int | str:
        """A value (compared with ``==``) that moves whenever another connection has
        committed to the database since it was last read here, and stays put while
        nothing is written: the service keeps heads and grants while it stands still,
        and its pages poll it to look at the heads of their matches when it moves."""

    @abstractmethod
    def save_capability(self, capability: Capability) -> None:
        """Keep ``capability`` (its token hash is new: tokens are random), in a table
        beside the log made by the first invitation, never by a read."""

    @abstractmethod
    def capability(self, token_hash: str) -> Capability | None:
        """The capability issued for the token with this hash, revoked or not (None:
        none, or nobody was ever invited)."""

    @abstractmethod
    def capabilities(self, match_id: str | None = None) -> list[Capability]:
        """Every capability issued (for ``match_id``, or for any match), revoked or not, in
        the order they were issued (then by token hash): what `invite --list` shows, so
        a row nobody issued through matchledger is seen."""

    @abstractmethod
    def revoke_capability(self, token_hash: str, revoked_at: str) -> Capability | None:
        """Stamp the capability of this token hash revoked (if it is not yet); the
        capability as it now stands (None: no such token)."""

    # ---- transactions

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is open (an outer one decides what a conflict undoes)."""
        return self._depth > 0

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All appends inside are written together or not at all (nests)."""
        if self._depth == 0:
            self._begin()
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
                self._rollback()
            raise
        self._depth -= 1
        if self._depth == 0:
            self._heads.clear()
            self._commit()

    def _flush_for(self, match_id: str) -> None:
        # Only a match written in the open transaction can have rows still pending.
        if match_id in self._heads:
            self._flush()

    def _flush(self) -> None:
        if self._pending:
            rows, self._pending = self._pending, []
            self._insert(rows)

    # ---- reading

    def match_ids(self) -> list[str]:
        self._flush()
        return self._match_ids()

    def has_match(self, match_id: str) -> bool:
        if match_id in self._heads:  # written in the open transaction
            return True
        return self._has_match(match_id)

    def head(self, match_id: str) -> tuple[int, str] | None:
        self._flush_for(match_id)
        return self._head(match_id)

    def rows(self, match_id: str, *, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
        """The match's rows with seq in (``after``, ``upto``], in seq order ([] for an
        unknown match).  A text that is not UTF-8 is read with replacement characters,
        so that verify names the row rather than failing to read it."""
        self._flush_for(match_id)
        return list(starmap(StoredEvent, self._read(ROW_COLUMNS, match_id, after, upto, replace_bad_utf8=True)))

    def unknown_match(self, match_id: str) -> UnknownMatch:
        """The error for a match this store does not hold (the one place it is worded)."""
        return UnknownMatch(match_id, self.location)

    def events(self, match_id: str, *, after: int = 0, upto: int | None = None) -> list[tuple[int, Event]]:
        """Decoded (seq, event) pairs; raises UnknownMatch for a match with no events."""
        # The replay hot path: only the two columns the fold needs, no row objects.
        self._flush_for(match_id)
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
        """Write already-hashed rows (import); the caller has verified them."""
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

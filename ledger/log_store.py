"""A store: one open database, seen as the four parts it holds, each an interface of its own.

- ``store.log`` (:class:`.event_log.EventLog`): the matches, append-only and hash-chained;
- ``store.snapshots`` (:class:`.snapshot_cache.SnapshotCache`): folded states, a cache the
  log must vouch for;
- ``store.capability_store`` (:class:`.capability_store.CapabilityStore`): the service's
  links, by token hash, and its address;
- ``store.changes`` (:class:`.change_feed.ChangeFeed`): whether anything was committed
  since a position.

The parts share one connection, so one transaction (``store.transaction()``) spans them
all.  The store also answers every part's methods itself (``store.head``,
``store.snapshot``, ``store.data_version`` …), which is how the layers above call it
today.  A back end (SQLite's :mod:`.store`, PostgreSQL's :mod:`.postgres_store`) is a
subclass that opens the database and makes the four parts; :mod:`.stores` chooses one.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from contextlib import AbstractContextManager

from .capabilities import Capability
from .capability_store import CapabilityStore
from .change_feed import ChangeFeed
from .errors import UnknownMatch
from .event_log import COLUMNS, ROW_COLUMNS, EventLog, StoredEvent
from .events import Event
from .hook_store import HookStore
from .service_addresses import ServiceAddress
from .snapshot_cache import SnapshotCache

__all__ = ["COLUMNS", "ROW_COLUMNS", "LogStore", "StoredEvent"]


class LogStore(ABC):
    """An open database holding any number of matches (see the module's docstring).

    ``location`` names it in messages (a file's path, or a URL without its password);
    ``address`` opens it again, e.g. in a worker process (it may hold a password: never
    print it).
    """

    location: str
    address: str
    log: EventLog
    snapshots: SnapshotCache
    capability_store: CapabilityStore
    changes: ChangeFeed
    #: The hooks and their deliveries (ledger/hook_store.py), beside the capabilities.
    hook_store: HookStore

    def _parts(
        self, log: EventLog, snapshots: SnapshotCache, capability_store: CapabilityStore, changes: ChangeFeed
    ) -> None:
        self.log, self.snapshots, self.capability_store, self.changes = log, snapshots, capability_store, changes

    @abstractmethod
    def close(self) -> None: ...

    def command_ended(self) -> None:
        """The command-line command that opened the store is done: close it (a server's
        connection must not wait for the garbage collector)."""
        self.close()

    # ---- the log's

    def transaction(self) -> AbstractContextManager[None]:
        """Everything written inside, by any part, is written together or not at all (nests)."""
        return self.log.transaction()

    @property
    def in_transaction(self) -> bool:
        return self.log.in_transaction

    def match_ids(self) -> list[str]:
        return self.log.match_ids()

    def has_match(self, match_id: str) -> bool:
        return self.log.has_match(match_id)

    def head(self, match_id: str) -> tuple[int, str] | None:
        return self.log.head(match_id)

    def rows(self, match_id: str, *, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
        return self.log.rows(match_id, after=after, upto=upto)

    def events(self, match_id: str, *, after: int = 0, upto: int | None = None) -> list[tuple[int, Event]]:
        return self.log.events(match_id, after=after, upto=upto)

    def unknown_match(self, match_id: str) -> UnknownMatch:
        return self.log.unknown_match(match_id)

    def append(
        self, match_id: str, expected_seq: int, events: Iterable[Event], *, actor: str, recorded_at: str
    ) -> list[StoredEvent]:
        return self.log.append(match_id, expected_seq, events, actor=actor, recorded_at=recorded_at)

    def append_rows(self, rows: list[StoredEvent]) -> None:
        self.log.append_rows(rows)

    # ---- the snapshot cache's

    def snapshot(self, match_id: str, revision: str, upto: int | None = None) -> tuple[int, bytes, str] | None:
        return self.snapshots.snapshot(match_id, revision, upto)

    def save_snapshot(self, match_id: str, seq: int, event_hash: str, revision: str, body: bytes) -> None:
        self.snapshots.save_snapshot(match_id, seq, event_hash, revision, body)

    # ---- the capability store's

    def save_capability(self, capability: Capability) -> None:
        self.capability_store.save_capability(capability)

    def capability(self, token_hash: str) -> Capability | None:
        return self.capability_store.capability(token_hash)

    def capabilities(self, match_id: str | None = None) -> list[Capability]:
        return self.capability_store.capabilities(match_id)

    def revoke_capability(self, token_hash: str, revoked_at: str) -> Capability | None:
        return self.capability_store.revoke_capability(token_hash, revoked_at)

    def save_service_address(self, address: ServiceAddress) -> None:
        self.capability_store.save_service_address(address)

    def service_addresses(self) -> list[ServiceAddress]:
        return self.capability_store.service_addresses()

    # ---- the change feed's

    def data_version(self) -> int | str:
        return self.changes.data_version()

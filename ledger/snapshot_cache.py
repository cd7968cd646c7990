"""The snapshot cache: folded states kept beside the log, so that a read need not replay
a long match from its first event (projections/snapshots.py makes and checks them).

Only a cache: a snapshot is handed out only while the event it was taken after is still
in the log with the same hash, and the log must vouch for it again before it is used.
Losing the cache loses nothing.
"""

from __future__ import annotations

from abc import ABC, abstractmethod


class SnapshotCache(ABC):
    """One snapshot per match: the latest saved."""

    @abstractmethod
    def snapshot(self, match_id: str, revision: str, upto: int | None = None) -> tuple[int, bytes, str] | None:
        """(seq, body, hash of event seq) of the match's snapshot if it was written by
        ``revision`` after an event still in the log with the same hash (and at or
        before ``upto``); None otherwise."""

    @abstractmethod
    def save_snapshot(self, match_id: str, seq: int, event_hash: str, revision: str, body: bytes) -> None:
        """Keep ``body`` as the match's snapshot after event ``seq`` (replacing the one
        kept before: a snapshot is a cache, not part of the append-only log), in the
        open transaction if there is one."""

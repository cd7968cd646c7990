"""The change feed: whether anything was committed to the database since a position
read earlier, so that a long-running reader (the service) keeps what it read while
nothing moved and looks again once something did; and, where the back end can push
them (PostgreSQL's LISTEN/NOTIFY), which match moved, as soon as it was committed."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Protocol

#: A match's head as the log gives it: (seq, hash); None for a match with no events.
Head = tuple[int, str] | None

#: Seconds between two looks of a pushing feed's safety net (:class:`Listener`).
FALLBACK_SECONDS = 5.0


class Listener(Protocol):
    """What a pushing feed tells, each from the feed's own thread (the receiver hands
    it over to its own).  Until ``listening`` is called, and from ``lost`` on until it
    is called again, nothing is pushed: the receiver polls :meth:`ChangeFeed.data_version`."""

    def listening(self) -> None:
        """Changes are pushed from now on.  What was committed before may have been
        missed (nothing is pushed while the feed is away): forget everything kept."""

    def lost(self) -> None:
        """Changes are not pushed from now on (the connection was lost, or the
        database's tables announce nothing): poll until ``listening`` again."""

    def match_moved(self, match_id: str) -> None:
        """Events of ``match_id`` were committed."""

    def links_changed(self, match_id: str) -> None:
        """A link to ``match_id`` was given or revoked."""

    def heads_seen(self, heads: Mapping[str, Head]) -> None:
        """The safety net's look at the heads of ``watched()``'s matches, after the
        database moved without being pushed a reason: a kept head that differs moved."""

    def watched(self) -> Sequence[str]:
        """The matches whose heads the receiver keeps (called from the feed's thread)."""


class Subscription(ABC):
    """A running push of changes to a :class:`Listener`; ``close`` stops it."""

    @abstractmethod
    def close(self) -> None: ...


class ChangeFeed(ABC):
    """Positions of the database, compared with ``==``."""

    @abstractmethod
    def data_version(self) -> int | str:
        """The position now: a value that moves whenever another connection has
        committed to the database since it was last read here, and stays put while
        nothing is written.  It may also move for a commit that changed none of our
        tables (a look too many is cheap; one too few would keep a revoked link open)."""

    def moved_since(self, position: int | str) -> bool:
        """Whether anything may have been committed since ``position`` was read."""
        return self.data_version() != position

    def subscribe(self, listener: Listener, *, fallback: float = FALLBACK_SECONDS) -> Subscription | None:
        """Push what is committed to ``listener``, on a connection and thread of the
        feed's own, until the subscription is closed; None where the back end pushes
        nothing (SQLite: its ``data_version`` is read from memory, polling it is free).
        Every ``fallback`` seconds a pushing feed looks at :meth:`data_version` on its
        own connection, and if it moved, at the heads of the watched matches."""
        return None

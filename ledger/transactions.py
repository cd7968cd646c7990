"""One connection's transactions, shared by every part of a store on it.

The log, the snapshot cache and the capability store of one database write through one
connection, so what they write inside one transaction is committed together or not at
all: a command's events with the snapshot taken after them, an invitation with nothing
else.  A back end's connection subclasses :class:`Transactions` and fills in beginning,
committing and rolling back; a part that keeps writes back until a read or the commit
(the log batches a transaction's rows into one insert) joins it with :meth:`hold`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol


class HeldWrites(Protocol):
    """A part that keeps writes back while a transaction is open."""

    def flush(self) -> None:
        """Write now what is kept back (the transaction is about to commit)."""

    def forget(self, *, unwritten: bool) -> None:
        """The transaction ended: forget what was kept for it, and with ``unwritten``
        (it rolled back) the writes not yet made too."""


class Transactions(ABC):
    """Transactions on one connection: they nest, and the outermost decides."""

    def __init__(self) -> None:
        self._depth = 0
        self._holders: list[HeldWrites] = []

    def hold(self, holder: HeldWrites) -> None:
        """Have ``holder`` write what it keeps back before each commit."""
        self._holders.append(holder)

    @abstractmethod
    def _begin(self) -> None:
        """Start a transaction that may write."""

    @abstractmethod
    def _commit(self) -> None:
        """Commit it (rolled back when the commit itself fails)."""

    @abstractmethod
    def _rollback(self) -> None: ...

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is open (an outer one decides what a conflict undoes)."""
        return self._depth > 0

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All writes inside are made together or not at all (nests)."""
        if self._depth == 0:
            self._begin()
        self._depth += 1
        try:
            yield
            if self._depth == 1:
                for holder in self._holders:
                    holder.flush()
        except BaseException:
            self._depth -= 1
            if self._depth == 0:
                for holder in self._holders:
                    holder.forget(unwritten=True)
                self._rollback()
            raise
        self._depth -= 1
        if self._depth == 0:
            for holder in self._holders:
                holder.forget(unwritten=False)
            self._commit()

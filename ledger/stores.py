"""Opening a store: SQLite for a file, PostgreSQL for a ``postgresql://`` URL.

The one place a back end is chosen: every command, the service, the shipped test suites
and the benchmarks open their stores here (tests/contracts/test_one_factory.py holds
them to it), and use only the store interface (:class:`.log_store.LogStore` and its
parts).  Opening for writing also brings an earlier schema up to date
(:mod:`.migrations`).  ``open_pool`` serves a long-running process: it lends a store per
request, on one of a pool of connections for PostgreSQL, on a connection of its own for
SQLite (a file opens in a moment, and its connection is not shared between threads).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Protocol, TypedDict

from .limits import LOCK_TIMEOUT_SECONDS
from .log_store import LogStore
from .postgres_urls import is_postgres_url


def open_store(
    db: str | os.PathLike[str],
    *,
    create: bool = True,
    read_only: bool = False,
    lock_timeout: float = LOCK_TIMEOUT_SECONDS,
) -> LogStore:
    """The store of the database ``db``: a file (or ``":memory:"``), or a PostgreSQL URL."""
    if is_postgres_url(str(db)):
        from .postgres_store import PostgresStore  # psycopg is loaded only for PostgreSQL

        return PostgresStore(str(db), create=create, read_only=read_only, lock_timeout=lock_timeout)
    from .store import Store

    return Store(db, create=create, read_only=read_only, lock_timeout=lock_timeout)


class StorePool(Protocol):
    """Stores lent one at a time: ``with pool.store() as store: …``; ``close()`` at the end."""

    location: str

    def store(self) -> AbstractContextManager[LogStore]: ...

    def close(self) -> None: ...


class _OpenOptions(TypedDict):
    """What :func:`open_store` is called with for each store a pool lends."""

    create: bool
    read_only: bool
    lock_timeout: float


def open_pool(
    db: str | os.PathLike[str],
    *,
    create: bool = False,
    read_only: bool = False,
    lock_timeout: float = LOCK_TIMEOUT_SECONDS,
    max_size: int = 8,
) -> StorePool:
    """Stores of the database ``db`` for a long-running process (checked on opening)."""
    options: _OpenOptions = {"create": create, "read_only": read_only, "lock_timeout": lock_timeout}
    if is_postgres_url(str(db)):
        from .postgres_store import PostgresPool

        return PostgresPool(str(db), max_size=max_size, **options)
    return _StorePerUse(str(db), options)


class _StorePerUse:
    def __init__(self, db: str, options: _OpenOptions):
        self.db, self.options = db, options
        opened = open_store(db, **options)  # refuses what a store would refuse, now
        self.location = opened.location
        opened.close()
        self.options["create"] = False  # made above if it was to be

    @contextmanager
    def store(self) -> Iterator[LogStore]:
        opened = open_store(self.db, **self.options)
        try:
            yield opened
        finally:
            opened.close()

    def close(self) -> None:
        pass

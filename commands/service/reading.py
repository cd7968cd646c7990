"""The service's database work, off the event loop (docs/service.md, "Reads").

Every read the service makes (a token's grant, a match's head, a page's read models)
runs on one thread of its own, the one that uses the reads' connection, so the event
loop never waits for the database: a slow query, a lock held elsewhere or a server that
stopped answering holds that thread, not the loop, and what needs no database (the
static files, ``/healthz``, the public answers kept while changes are pushed:
``Reads.peek``) keeps being answered meanwhile.

A request waits for its read at most ``deadline`` seconds (``DEADLINE_SECONDS``), then is
refused with 503 and ``Retry-After`` (``DatabaseTimedOut``); the read it handed over is
dropped if it has not started yet, so a stall leaves no backlog of reads nobody waits
for.  One thread, not a pool: the reads keep what they read (heads, grants, answers) in
plain structures, and a SQLite connection (as the one connection of a PostgreSQL
reader) serves one statement at a time anyway; what a reader costs is mostly what is
kept, not the statement.  Each handed-over call is marked with when its request arrived
(``Reads.since``), so requests that arrived before one look at the database share it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from matchledger.ledger.errors import DatabaseBusy

from .reads import Reads

#: Seconds a request waits for the database before it is refused with 503.
DEADLINE_SECONDS = 2.0

T = TypeVar("T")


class DatabaseTimedOut(DatabaseBusy):
    """The database did not answer a request's read within the deadline."""

    def __init__(self, deadline: float):
        super().__init__(f"the database did not answer within {deadline:g} s")
        self.deadline = deadline


class Reading:
    """The one thread the service reads the database on."""

    def __init__(self, reads: Reads, *, deadline: float = DEADLINE_SECONDS):
        self.reads = reads
        self.deadline = deadline
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="matchledger-reader")

    async def __call__(self, call: Callable[..., T], *args, since: int | None = None) -> T:
        """What ``call(*args)`` returns, run on the reading thread for a request that
        arrived at ``since`` (``time.monotonic_ns``; None: now), or DatabaseTimedOut."""
        arrived = time.monotonic_ns() if since is None else since
        reads = self.reads

        def job() -> T:
            reads.since = arrived
            try:
                return call(*args)
            finally:
                reads.since = None

        future = asyncio.get_running_loop().run_in_executor(self._thread, job)
        try:
            # Cancelled at the deadline: a job not started yet is dropped by the executor.
            return await asyncio.wait_for(future, self.deadline)
        except TimeoutError:
            raise DatabaseTimedOut(self.deadline) from None

    def close(self) -> None:
        """Stop taking reads; the one running (if any) ends by itself."""
        self._thread.shutdown(wait=False, cancel_futures=True)

"""The service's database work, off the event loop (docs/service.md, "Reads").

Every read the service makes (a token's grant, a match's head, a page's read models)
runs on one thread of its own, the one that uses the reads' connection, so the event
loop never waits for the database: a slow query, a lock held elsewhere or a server that
stopped answering holds that thread, not the loop, and what needs no database (the
static files, ``/healthz``, the public answers kept while changes are pushed:
``Reads.peek``) keeps being answered meanwhile.

A request waits for its read ``deadline`` seconds (``DEADLINE_SECONDS``); if it is not
answered by then and the thread has been held by one read for that long (the database
does not answer), it is refused with 503 and ``Retry-After`` (``DatabaseTimedOut``), and
so is every request that finds the thread still held.  A thread that is merely busy,
answering one read after another (a burst of pages to make on a loaded machine), is
waited for, up to ``BUSY_SECONDS`` in all.  The read a refused request handed over is
dropped if it has not started yet, so a stall leaves no backlog of reads nobody waits
for.  One thread, not a pool: the reads keep what they read (heads, grants, answers) in
plain structures, and a SQLite connection (as the one connection of a PostgreSQL
reader) serves one statement at a time anyway; what a reader costs is mostly what is
kept, not the statement.  Each handed-over call is marked with when its request arrived
(``Reads.since``), so requests that arrived before one look at the database share it.
The thread is a daemon: a read held by a database that does not answer never holds the
process's exit (a pool's worker would be joined at exit, for as long as the stall).
"""

from __future__ import annotations

import asyncio
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import TypeVar

from matchledger.ledger.errors import DatabaseBusy

from .reads import Reads

#: Seconds a request waits for the database before it is refused with 503, when one read
#: has held the reading thread that long.
DEADLINE_SECONDS = 2.0
#: Seconds a request waits at most for a thread that keeps answering other reads.
BUSY_SECONDS = 10.0
#: How often a request that waits past the deadline asks whether the thread is held.
_LOOK_AGAIN_SECONDS = 0.1

T = TypeVar("T")


class DatabaseTimedOut(DatabaseBusy):
    """The database did not answer a request's read within the deadline."""

    def __init__(self, deadline: float):
        super().__init__(f"the database did not answer within {deadline:g} s")
        self.deadline = deadline


class Reading:
    """The one thread the service reads the database on."""

    def __init__(self, reads: Reads, *, deadline: float = DEADLINE_SECONDS, busy: float = BUSY_SECONDS):
        self.reads = reads
        self.deadline = deadline
        self.busy = busy
        #: When the read the thread is on began (``time.monotonic``), None while it waits for one.
        self._began: float | None = None
        #: When the thread last finished a read: a thread that finishes none is held.
        self._finished = time.monotonic()
        self._jobs: queue.SimpleQueue[tuple[Future, Callable[[], object]] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="matchledger-reader", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            future, call = job
            if not future.set_running_or_notify_cancel():  # its request gave up waiting
                continue
            self._began = time.monotonic()
            try:
                future.set_result(call())
            except BaseException as exc:  # handed to the request that waits for it
                future.set_exception(exc)
            finally:
                self._began, self._finished = None, time.monotonic()

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

        handed: Future = Future()
        self._jobs.put((handed, job))
        waited = asyncio.wrap_future(handed)
        handed_at = time.monotonic()
        timeout = self.deadline
        # Not wait_for: a read may raise a TimeoutError of its own (DatabaseBusy is one).
        while not (await asyncio.wait({waited}, timeout=timeout))[0]:
            now = time.monotonic()
            held = self._began is not None and now - max(self._finished, handed_at) >= self.deadline
            if held or now - handed_at >= self.busy:
                waited.cancel()  # a job not started yet is dropped by the thread
                raise DatabaseTimedOut(self.deadline)
            timeout = _LOOK_AGAIN_SECONDS
        return waited.result()

    def close(self) -> None:
        """Stop taking reads; the one running (if any) ends by itself."""
        self._jobs.put(None)

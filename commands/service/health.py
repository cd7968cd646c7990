"""What a load balancer or an orchestrator asks a `serve` process (docs/deploy.md,
"Health, readiness and draining"; docs/service.md, "Operations").

``/healthz`` says the process answers, and touches nothing else.  ``/readyz`` says the
database can be read by this process now: it opens the database as a read command opens
it (read-only, through the one factory, so a schema newer than this matchledger reads,
or a database that is not matchledger's, is refused as every command refuses it) and
closes it again.  It never uses the connection the service reads with: a probe tells
whether a fresh connection succeeds, and a stalled one leaves every request alone.

The probe runs on a thread of its own (a daemon: a probe still connecting never holds
the process's exit), never on the event loop, and is waited for at most
``DEADLINE_SECONDS``: a database that does not answer is "unreachable" within that
time, whatever its connection timeout.  Probes never pile up: one runs at a time (a
probe asked for while one runs waits for that one), and a verdict answers every probe
for ``KEPT_SECONDS``, so a flood of ``/readyz`` (it needs no token) opens at most one
connection at a time, about one a second.  A refusal words the kind of failure with the
service's fixed words (``problems.py``): never the database's URL, user or password.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable

from matchledger.ledger.errors import DatabaseBusy, DatabaseUnavailable, ForeignDatabase, NoDatabase
from matchledger.ledger.migrations import NewerSchema

from .problems import Refused

#: Seconds a readiness probe waits for the database.
DEADLINE_SECONDS = 2.0
#: Seconds a probe's verdict answers the probes that follow it.
KEPT_SECONDS = 1.0
#: What the two routes answer when all is well.
OK = b'{"status":"ok"}'


class Readiness:
    """Whether the database is readable now (``check``), from ``probe``: a call that
    opens the database read-only and closes it, raising what the opening raised."""

    def __init__(
        self,
        probe: Callable[[], None],
        *,
        deadline: float = DEADLINE_SECONDS,
        kept: float = KEPT_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.probe = probe
        self.deadline = deadline
        self.kept = kept
        self.clock = clock
        self._running: asyncio.Future[Refused | None] | None = None
        self._verdict: tuple[float, Refused | None] | None = None  # (when it was reached, the verdict)

    async def check(self) -> Refused | None:
        """None when the database is readable, else the 503 to answer."""
        if self._verdict is not None and self.clock() - self._verdict[0] < self.kept:
            return self._verdict[1]
        if self._running is None:
            self._running = self._start()
            self._running.add_done_callback(self._reached)
        try:
            return await asyncio.wait_for(asyncio.shield(self._running), self.deadline)
        except TimeoutError:
            # The probe goes on (a connection attempt cannot be cut short from here);
            # the next check waits for it rather than starting another.
            return Refused(
                503,
                f"the ledger's database did not answer within {self.deadline:g} s",
                {"Retry-After": "5"},
                kind="unreachable",
                reason="database unreachable (no answer in time)",
            )

    def _start(self) -> asyncio.Future[Refused | None]:
        """A probe on a thread of its own; its verdict, as a future of the loop."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Refused | None] = loop.create_future()

        def settle(verdict: Refused | None) -> None:
            if not future.done():
                future.set_result(verdict)

        def probing() -> None:
            verdict = self._verdict_now()
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody waits
                loop.call_soon_threadsafe(settle, verdict)

        threading.Thread(target=probing, name="matchledger-readiness", daemon=True).start()
        return future

    def _reached(self, future: asyncio.Future[Refused | None]) -> None:
        self._running = None
        if not future.cancelled() and future.exception() is None:
            self._verdict = (self.clock(), future.result())

    def _verdict_now(self) -> Refused | None:
        try:
            self.probe()
        except Exception as exc:  # whatever stops a read stops readiness, named by its kind
            return not_ready(exc)
        return None


def not_ready(exc: Exception) -> Refused:
    """The 503 for what opening the database raised, by its kind (subclasses first)."""
    if isinstance(exc, NewerSchema):
        return Refused(
            503,
            f"the ledger's database is of matchledger schema version {exc.found}, newer than this server reads "
            f"({exc.readable}): upgrade this server",
            {"Retry-After": "30"},
            kind="schema-too-new",
        )
    if isinstance(exc, NoDatabase):
        return Refused(
            503, "there is no matchledger database where this server reads", {"Retry-After": "30"}, kind="no-database"
        )
    if isinstance(exc, ForeignDatabase):
        return Refused(
            503,
            "the database this server reads is not a matchledger database (or holds something matchledger does not make)",
            {"Retry-After": "30"},
            kind="not-a-matchledger-database",
        )
    if isinstance(exc, DatabaseBusy):
        return Refused(503, "the ledger is busy; try again in a moment", {"Retry-After": "2"}, kind="busy")
    if isinstance(exc, DatabaseUnavailable):
        return Refused(
            503, "the ledger's database cannot be reached at the moment", {"Retry-After": "5"}, kind="unreachable"
        )
    # anything else (a file SQLite cannot open, an error of the server's): said, not shown
    return Refused(503, "the ledger's database cannot be read", {"Retry-After": "5"}, kind="unreadable")

"""Participants' own submissions, recorded by one writer thread.

The thread owns the service's only writable connection, opened on the first submission
(a service nobody submits through never writes).  Submissions that arrive while it is
busy are written together: each is decided in turn against the log as the ones before
it left it, and all are committed in one transaction, so one sync to disk serves them
all.  A submission the rules refuse writes nothing and is answered on its own.

``Application.execute`` takes the write lock before it reads the match, so on SQLite no
decision can go stale.  A back end that refuses a stale decision only when appending
(``LogConflict``) gets the whole batch decided again against the log as it then stands,
``ATTEMPTS`` times at most; after that the submitters are told to try again.  Each
event's actor is the participant who submitted.

The link a submission came through is checked again as it is written, before and once
more after the match's write lock is taken (``LinkClosed``): the request was let in when its headers arrived, and its body may
come much later, after the host revoked the link.  And whatever another connection
committed since the last batch (the host's CLI, or a row edited behind the ledger's
back) makes the thread read its matches afresh, chains checked, before deciding.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from matchledger.engine.commands import Submit
from matchledger.ledger.errors import LogConflict, MatchledgerError
from matchledger.ledger.store import StoredEvent
from matchledger.projections.application import Application

#: Times a batch is decided again after losing a race for the log.
ATTEMPTS = 8
#: Submissions written in one transaction at most.
BATCH = 64
#: Submissions one participant may have in one round through the service (each a new
#: event for ever: the log is append-only, and every read of the match reads them).
#: The host records more from the command line if a round ever needs it.
SUBMISSIONS_PER_ROUND = 20

_STOP = object()


class LinkClosed(MatchledgerError, PermissionError):
    """The link a submission came through no longer lets it be recorded (revoked, most
    likely, while the request was under way)."""


class TooManySubmissions(MatchledgerError, RuntimeError):
    """A participant who already has ``SUBMISSIONS_PER_ROUND`` submissions in the round."""


@dataclass(eq=False)
class _Job:
    match_id: str
    participant: str
    cmd: Submit
    done: Callable[[object], None]  # called in the thread with the rows or the error
    link: str | None = field(default=None, repr=False)  # its token: never in a repr, a log or a message
    outcome: object = field(default=None)


class Writer:
    def __init__(self, open_application: Callable[[], Application], written: Callable[[str], None]):
        """``open_application``: the writable application (called once, in the thread);
        ``written``: told (from the thread) of each match just written to."""
        self._open = open_application
        self._written = written
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="matchledger-writer", daemon=True)
        self._app: Application | None = None
        self._version: object = None  # the database's data_version when its matches were last read afresh

    def start(self) -> None:
        self._thread.start()

    def close(self) -> None:
        """Write what was submitted, then stop."""
        if self._thread.is_alive():
            self._jobs.put(_STOP)
            self._thread.join()

    async def submit(self, match_id: str, participant: str, tokens: list[str], *, link: str | None) -> StoredEvent:
        """Record ``participant``'s submission; the row of their ``SubmissionRecorded``
        event, their receipt.  Raises what the rules, or the log, say; ``LinkClosed`` if
        the token ``link`` (None: none to check) no longer lets ``participant`` submit
        in ``match_id`` when the submission is written."""
        cmd = Submit(participant, list(tokens))  # bounded and printable, or MalformedInput
        loop = asyncio.get_running_loop()
        future = loop.create_future()

        def done(outcome: object) -> None:
            loop.call_soon_threadsafe(_settle, future, outcome)

        self._jobs.put(_Job(match_id, participant, cmd, done, link))
        rows = await future
        return rows[0]

    # ------------------------------------------------------------------ the thread

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            if job is _STOP:
                break
            batch = [job]
            stop = False
            while len(batch) < BATCH:
                try:
                    more = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if more is _STOP:
                    stop = True
                    break
                batch.append(more)
            self._write(batch)
            for match_id in {job.match_id for job in batch if isinstance(job.outcome, list)}:
                self._written(match_id)
            for job in batch:
                job.done(job.outcome)
            if stop:
                break
        if self._app is not None:
            self._app.store.close()

    def _write(self, batch: list[_Job]) -> None:
        """Set each job's outcome: its rows, or the error that refused it."""
        try:
            if self._app is None:
                self._app = self._open()
        except (MatchledgerError, OSError) as exc:
            for job in batch:
                job.outcome = exc
            return
        app = self._app
        for _attempt in range(ATTEMPTS):
            try:
                with app.atomic():
                    self._read_afresh_if_moved(app)
                    for job in batch:
                        job.outcome = self._decide(app, job)
                return
            except LogConflict:
                continue  # the kept states were dropped: decide everything again
            except Exception as exc:
                if len(batch) == 1:
                    batch[0].outcome = exc
                    return
                for job in batch:  # find out whose submission it was: each on its own
                    self._write([job])
                return
        for job in batch:
            job.outcome = LogConflict(
                f"match {job.match_id!r} moved on {ATTEMPTS} times while the submission was decided; try again"
            )

    def _read_afresh_if_moved(self, app: Application) -> None:
        """Drop the kept states if another connection committed since they were read
        (this thread's own commits do not move its connection's data_version)."""
        version = app.store.data_version()
        if version != self._version:
            app.forget()
            self._version = version

    @staticmethod
    def _decide(app: Application, job: _Job) -> list[StoredEvent] | Exception:
        if job.link is not None and not _lets_submit(app, job):
            return LinkClosed()
        before = app.store.head(job.match_id)
        try:
            state = app.state(job.match_id)
            made = len(state.submissions.get(state.round, {}).get(job.participant, []))
            if made >= SUBMISSIONS_PER_ROUND:
                return TooManySubmissions(
                    f"{job.participant} already has {made} submissions in round {state.round} of {job.match_id!r}, "
                    "as many as a link may make; the last one counts (the host can record another from the "
                    "command line)"
                )
            rows = app.execute(job.match_id, job.cmd, actor=job.participant)
        except LogConflict:
            raise
        except MatchledgerError as exc:
            if app.store.head(job.match_id) != before:
                raise  # it failed after writing: the batch must not keep half of it
            return exc
        # Again, now that the match's lock is held (PostgreSQL takes it only to append, so
        # the submission may have waited for it while the host revoked): the batch is
        # rolled back, and each submission in it decided on its own.
        if job.link is not None and not _lets_submit(app, job):
            raise LinkClosed()
        return rows


def _lets_submit(app: Application, job: _Job) -> bool:
    capability = app.capability(job.link)  # None once revoked
    return (
        capability is not None
        and capability.can_submit
        and capability.match_id == job.match_id
        and capability.participant == job.participant
    )


def _settle(future: asyncio.Future, outcome: object) -> None:
    if future.done():
        return
    if isinstance(outcome, BaseException):
        future.set_exception(outcome)
    else:
        future.set_result(outcome)

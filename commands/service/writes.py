"""Participants' own submissions, recorded by one writer thread.

The thread owns the service's only writable connection, opened on the first submission
(a service nobody submits through never writes).  Submissions that arrive while it is
busy are handed to the application together, which decides each in turn against the log
as the ones before it left it and commits them in one transaction, so one sync to disk
serves them all.  What a submission through a link is held to (the link checked again
as it is written, the bound per round, deciding again when the log moved, never keeping
half a write) is the application's policy (``projections/application/access.py``), the
same for any door; this module only queues, batches and answers.

A submission waits in the queue at most ``deadline`` seconds: one the thread has not
taken by then (the database stalls, or the thread is busy with a write that does) is
dropped, never written, and refused as not recorded (``NotTaken``: 503 with
``Retry-After``).  One the thread has taken is answered with what became of it,
however long that takes: answering "not recorded" for a write that may still commit
would be a lie.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from matchledger.engine.commands import Submit
from matchledger.ledger.errors import DatabaseBusy, MatchledgerError
from matchledger.projections.application import (
    Application,
    LinkClosed,
    LinkSubmission,
    PastDeadline,
    Recorded,
    TooManySubmissions,
)

#: Submissions written in one transaction at most.
BATCH = 64
#: Seconds a submission waits for the writer thread to take it before it is refused.
QUEUE_DEADLINE_SECONDS = 2.0

_STOP = object()

#: The refusals a door words itself (http.py), as the application raises them.
__all__ = ["BATCH", "LinkClosed", "NotTaken", "PastDeadline", "TooManySubmissions", "Writer", "receipt_json"]


class NotTaken(DatabaseBusy):
    """The writer did not take a submission within the deadline: nothing was recorded."""

    def __init__(self, deadline: float):
        super().__init__(f"the writer did not take the submission within {deadline:g} s; nothing was recorded")
        self.deadline = deadline


@dataclass(eq=False)
class _Job:
    submission: LinkSubmission
    done: Callable[[object], None]  # called in the thread with what was recorded, or the error
    #: "queued", then "taken" by the thread or "dropped" by the door at the deadline
    state: str = "queued"
    lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self) -> bool:
        """(The thread.) Whether the job is the thread's to write, not dropped."""
        with self.lock:
            if self.state == "dropped":
                return False
            self.state = "taken"
            return True

    def drop(self) -> bool:
        """(The door, at the deadline.) Whether the job was dropped before it was taken."""
        with self.lock:
            if self.state == "taken":
                return False
            self.state = "dropped"
            return True


class Writer:
    def __init__(
        self,
        open_application: Callable[[], Application],
        written: Callable[[str], None],
        *,
        deadline: float = QUEUE_DEADLINE_SECONDS,
    ):
        """``open_application``: the writable application (called once, in the thread);
        ``written``: told (from the thread) of each match just written to; ``deadline``:
        seconds a submission waits to be taken."""
        self._open = open_application
        self.deadline = deadline
        self._written = written
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="matchledger-writer", daemon=True)
        self._app: Application | None = None

    def start(self) -> None:
        self._thread.start()

    def close(self, timeout: float | None = None) -> None:
        """Write what was submitted, then stop; give up waiting after ``timeout``
        seconds (a database that does not answer holds a write: the thread is a daemon,
        so the process ends anyway, and the server rolls the transaction back)."""
        if self._thread.is_alive():
            self._jobs.put(_STOP)
            self._thread.join(timeout)

    async def submit(self, match_id: str, participant: str, tokens: list[str], *, link: str | None) -> Recorded:
        """Record ``participant``'s submission: what was recorded (its first row, their
        ``SubmissionRecorded``, is their receipt).  Raises what the rules, or the log,
        say; ``LinkClosed`` if the token ``link`` (None: none to check) no longer lets
        ``participant`` submit in ``match_id`` when the submission is written."""
        cmd = Submit(participant, list(tokens))  # bounded and printable, or MalformedInput
        loop = asyncio.get_running_loop()
        future = loop.create_future()

        def done(outcome: object) -> None:
            loop.call_soon_threadsafe(_settle, future, outcome)

        job = _Job(LinkSubmission(match_id, cmd, link), done)
        self._jobs.put(job)
        finished, _waiting = await asyncio.wait({future}, timeout=self.deadline)
        if not finished and job.drop():
            raise NotTaken(self.deadline)
        return await future  # taken: what became of it is the answer

    # ------------------------------------------------------------------ the thread

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            if job is _STOP:
                break
            batch = [job] if job.take() else []
            stop = False
            while len(batch) < BATCH:
                try:
                    more = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if more is _STOP:
                    stop = True
                    break
                if more.take():
                    batch.append(more)
            if not batch:
                continue
            outcomes = self._write([job.submission for job in batch])
            for match_id in {job.submission.match_id for job, outcome in zip(batch, outcomes) if _recorded(outcome)}:
                self._written(match_id)
            for job, outcome in zip(batch, outcomes):
                job.done(outcome)
            if stop:
                break
        if self._app is not None:
            self._app.close()

    def _write(self, batch: list[LinkSubmission]) -> list[object]:
        """What became of each submission: what it recorded, or the error that refused it."""
        try:
            if self._app is None:
                self._app = self._open()
        except (MatchledgerError, OSError) as exc:
            return [exc for _submission in batch]
        return list(self._app.submit_through_links(batch))


def receipt_json(recorded: Recorded) -> dict:
    """A participant's receipt as the JSON API answers it: the seq and hash of their
    ``SubmissionRecorded``, and the seq of their earlier submission in the round that it
    supersedes, if any (theirs: nothing they did not know)."""
    row = recorded[0]
    receipt: dict = {"seq": row.seq, "hash": row.hash}
    if row.seq in recorded.supersedes:
        receipt["supersedes"] = recorded.supersedes[row.seq]
    return receipt


def _recorded(outcome: object) -> bool:
    return isinstance(outcome, Recorded)


def _settle(future: asyncio.Future, outcome: object) -> None:
    if future.done():
        return
    if isinstance(outcome, BaseException):
        future.set_exception(outcome)
    else:
        future.set_result(outcome)

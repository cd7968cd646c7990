"""Participants' own submissions, recorded by one writer thread.

The thread owns the service's only writable connection, opened on the first submission
(a service nobody submits through never writes).  Submissions that arrive while it is
busy are handed to the application together, which decides each in turn against the log
as the ones before it left it and commits them in one transaction, so one sync to disk
serves them all.  What a submission through a link is held to (the link checked again
as it is written, the bound per round, deciding again when the log moved, never keeping
half a write) is the application's policy (``projections/application/access.py``), the
same for any door; this module only queues, batches and answers.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass

from matchledger.engine.commands import Submit
from matchledger.ledger.errors import MatchledgerError
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

_STOP = object()

#: The refusals a door words itself (http.py), as the application raises them.
__all__ = ["BATCH", "LinkClosed", "PastDeadline", "TooManySubmissions", "Writer", "receipt_json"]


@dataclass(eq=False)
class _Job:
    submission: LinkSubmission
    done: Callable[[object], None]  # called in the thread with what was recorded, or the error


class Writer:
    def __init__(self, open_application: Callable[[], Application], written: Callable[[str], None]):
        """``open_application``: the writable application (called once, in the thread);
        ``written``: told (from the thread) of each match just written to."""
        self._open = open_application
        self._written = written
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="matchledger-writer", daemon=True)
        self._app: Application | None = None

    def start(self) -> None:
        self._thread.start()

    def close(self) -> None:
        """Write what was submitted, then stop."""
        if self._thread.is_alive():
            self._jobs.put(_STOP)
            self._thread.join()

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

        self._jobs.put(_Job(LinkSubmission(match_id, cmd, link), done))
        return await future

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

"""Delivering posts to the hooks (docs/service.md, "Posts to the channel"), off the event
loop: a running `serve` never waits on a receiver, however slow.

- A *scanner* thread looks, each time the database moved (and every ``poll`` seconds),
  for the posts each active hook is owed (``Application.due_posts``), claims each in the
  database before anything is sent (``claim_delivery``: of two `serve` processes on one
  database, exactly one claims it), and hands it to a bounded queue; with the queue
  full it claims nothing more until there is room.
- *Sender* threads POST each claimed post: Discord's pieces in order, or one JSON body,
  each signed; a failure (no answer, 429 or 5xx) is tried again after a growing wait, at
  most ``attempts`` times; each attempt's outcome is kept on the delivery.  The claim is
  renewed before each attempt: one whose lease lapsed while it waited in the queue, and
  that another `serve` took over, is not sent (``ledger/hooks.py``, the lease).  Part 3 of
  issue 28 (deadlines and reminders) hands its own posts to :meth:`Deliveries.post`.

Every call is bounded: ``timeout`` seconds to connect and for each read, ``total``
seconds for the whole exchange; no redirect is followed (a 3xx is an outcome); no proxy,
cookie or credential is sent, only the post; at most :data:`RESPONSE_MAX_BYTES` of the
answer are read, and nothing of it is kept but its status.
"""

from __future__ import annotations

import http.client
import logging
import queue
import ssl
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field

from matchledger.ledger.errors import MatchledgerError
from matchledger.ledger.hooks import Delivery, Hook
from matchledger.projections.application import Application, DuePost

from .channel import SIGNATURE_HEADER, TIMESTAMP_HEADER, bodies, public_post, signature

#: The most of a receiver's answer that is read (it is never kept or shown).
RESPONSE_MAX_BYTES = 4096
USER_AGENT = "matchledger-hooks"

log = logging.getLogger("matchledger.hooks")


@dataclass(frozen=True)
class Outcome:
    """What one POST came to: the receiver's status, or why there was none."""

    status: int | None = None
    error: str | None = None

    @property
    def retry(self) -> bool:
        """Whether trying again may help: no answer, too many requests, a server error."""
        return self.status is None or self.status == 429 or self.status >= 500

    @property
    def succeeded(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def send(url: str, body: bytes, headers: dict[str, str], *, timeout: float, total: float) -> Outcome:
    """POST ``body`` to ``url`` once: no redirect followed, no proxy, only ``headers``;
    ``timeout`` to connect and for each read, ``total`` for it all."""
    parts = urllib.parse.urlsplit(url)
    try:
        host, port = parts.hostname or "", parts.port
    except ValueError as exc:  # a port that is no port
        return Outcome(error=f"no address to post to: {exc}")
    connection: http.client.HTTPConnection
    if parts.scheme == "https":
        connection = http.client.HTTPSConnection(host, port, timeout=timeout, context=ssl.create_default_context())
    else:
        connection = http.client.HTTPConnection(host, port, timeout=timeout)
    # The whole exchange is bounded too: a receiver that trickles its answer a byte at a
    # time under the per-read timeout is cut off at ``total``.
    watchdog = threading.Timer(total, _cut, (connection,))
    watchdog.daemon = True
    watchdog.start()
    try:
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        connection.request(
            "POST",
            path,
            body=body,
            headers={"Content-Type": "application/json", "User-Agent": USER_AGENT, **headers},
        )
        response = connection.getresponse()
        response.read(RESPONSE_MAX_BYTES)  # read a little, keep none of it
        return Outcome(status=response.status)
    except (OSError, http.client.HTTPException) as exc:
        return Outcome(error=_reason(exc, cut=not watchdog.is_alive()))
    finally:
        watchdog.cancel()
        connection.close()


def _cut(connection: http.client.HTTPConnection) -> None:
    sock = connection.sock
    if sock is not None:
        try:
            import socket

            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def _reason(exc: BaseException, *, cut: bool) -> str:
    if cut:
        return "no whole answer within the total time allowed"
    if isinstance(exc, TimeoutError):
        return "timed out"
    name = type(exc).__name__
    detail = getattr(exc, "strerror", None) or str(exc)
    return f"{name}: {detail}" if detail else name


@dataclass
class _Job:
    hook: Hook
    delivery: Delivery
    bodies: list[bytes]
    sent: int = 0  # pieces the receiver took, so a retry sends only the rest
    tries: int = field(default=0)


class Deliveries:
    """The scanner and the senders of one `serve` (see the module)."""

    def __init__(
        self,
        open_application: Callable[[], Application],
        *,
        poll: float = 1.0,
        senders: int = 2,
        queue_size: int = 64,
        attempts: int = 4,
        backoff: float = 2.0,
        timeout: float = 5.0,
        total: float = 15.0,
        clock: Callable[[], float] = time.time,
    ):
        self.open_application = open_application
        self.poll, self.attempts, self.backoff = poll, attempts, backoff
        self.timeout, self.total, self.clock = timeout, total, clock
        self.jobs: queue.Queue[_Job | None] = queue.Queue(maxsize=queue_size)
        self.stopping = threading.Event()
        self.wake = threading.Event()
        self.threads = [threading.Thread(target=self._scan, name="hooks-scanner", daemon=True)] + [
            threading.Thread(target=self._send_jobs, name=f"hooks-sender-{n}", daemon=True) for n in range(senders)
        ]

    def start(self) -> Deliveries:
        for thread in self.threads:
            thread.start()
        return self

    def stop(self, wait: float = 5.0) -> None:
        self.stopping.set()
        self.wake.set()
        for _sender in self.threads[1:]:  # a sender waiting for a job wakes now, not at its next look
            try:
                self.jobs.put_nowait(None)
            except queue.Full:
                break  # each has a job to finish, then sees the stop
        deadline = time.monotonic() + wait
        for thread in self.threads:
            thread.join(max(0.0, deadline - time.monotonic()))

    # ------------------------------------------------------------------ finding what is owed

    def _scan(self) -> None:
        application = None
        seen: object = object()
        told = None  # the last problem logged: a database that cannot be written is said once
        while not self.stopping.is_set():
            try:
                if application is None:
                    application = self.open_application()
                token = application.change_token()
                if token != seen:
                    seen = token
                    self.scan_once(application)
                told = None
            except MatchledgerError as exc:  # the database refused or went away: try again later
                if str(exc) != told:
                    told = str(exc)
                    log.warning("posts to the hooks wait: %s", exc)
                if application is not None:
                    application.close()
                application = None
                seen = object()
            self.wake.wait(self.poll)
            self.wake.clear()
        if application is not None:
            application.close()

    def scan_once(self, application: Application) -> int:
        """Claim and queue every post owed to an active hook (while the queue has room);
        how many were queued."""
        queued = 0
        for standing in application.hooks():
            hook = standing.hook
            if not hook.active:
                continue
            for post in application.due_posts(hook.hook_id):
                if self.jobs.full():
                    return queued  # claimed later, once there is room
                shown = application.announced(post.match, post.round, public=True)
                text, parts = public_post(shown)
                queued += self.post(application, hook, post, text, parts, game=shown.game)
        return queued

    def post(self, application: Application, hook: Hook, post: DuePost, text: str, parts: dict, *, game: str) -> int:
        """Claim ``post`` for ``hook`` and queue it (1), unless another process claimed it
        (0): any kind of post, its public text and parts given."""
        delivery = application.claim_delivery(hook.hook_id, post)
        if delivery is None:
            return 0
        made = bodies(
            hook.format,
            match=post.match,
            game=game,
            kind=post.kind,
            seq=post.seq,
            round_no=post.round,
            text=text,
            parts=parts,
        )
        # A delivery taken over after a lapsed claim keeps its attempts: they count.
        self.jobs.put(_Job(hook, delivery, made, tries=len(delivery.attempts)))
        return 1

    # ------------------------------------------------------------------ sending

    def _send_jobs(self) -> None:
        application = None
        while not self.stopping.is_set():
            try:
                job = self.jobs.get(timeout=0.2)
            except queue.Empty:
                continue
            if job is None:  # stop() woke it
                continue
            try:
                if application is None:
                    application = self.open_application()
                self.deliver(application, job)
            except MatchledgerError as exc:
                log.warning("a post to a hook was not finished: %s", exc)
                if application is not None:
                    application.close()
                application = None
        if application is not None:
            application.close()

    def deliver(self, application: Application, job: _Job) -> Delivery:
        """Send the job's pieces, trying again after a growing wait, and keep each attempt."""
        delivery = job.delivery
        while True:
            if not _still_active(application, job.hook):
                return delivery  # removed since it was claimed: `hook remove` stops every post from then on
            renewed = application.renew_claim(delivery)
            if renewed is None:
                return delivery  # its claim lapsed (queued too long) and another `serve` took it over
            delivery = job.delivery = renewed
            job.tries += 1
            outcome = self._send_rest(job)
            last = outcome.succeeded or not outcome.retry or job.tries >= self.attempts
            delivery = application.record_delivery_attempt(
                delivery, status=outcome.status, error=outcome.error, last=last and not outcome.succeeded
            )
            if last or self.stopping.wait(self.backoff * 2 ** (job.tries - 1)):
                return delivery

    def _send_rest(self, job: _Job) -> Outcome:
        outcome = Outcome(status=204)
        while job.sent < len(job.bodies):
            body = job.bodies[job.sent]
            stamp = str(int(self.clock()))
            headers = {
                TIMESTAMP_HEADER: stamp,
                SIGNATURE_HEADER: signature(job.hook.secret, stamp, body),
                "X-Matchledger-Delivery": f"{job.hook.hook_id}.{job.delivery.seq}.{job.delivery.kind}.{job.sent + 1}",
            }
            outcome = send(job.hook.url, body, headers, timeout=self.timeout, total=self.total)
            if not outcome.succeeded:
                if len(job.bodies) > 1:
                    why = f"HTTP {outcome.status}" if outcome.status is not None else outcome.error
                    return Outcome(outcome.status, f"piece {job.sent + 1} of {len(job.bodies)}: {why}")
                return outcome
            job.sent += 1
        return outcome


def _still_active(application: Application, hook: Hook) -> bool:
    """Whether ``hook`` is still active, as the ledger stands now (not when it was queued)."""
    return any(
        standing.hook.hook_id == hook.hook_id and standing.hook.active for standing in application.hooks(hook.match_id)
    )

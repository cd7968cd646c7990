"""`matchledger serve`: the ledger over HTTP, a second front door onto the one
application (docs/design.md, "Service"; docs/service.md).

- ``reads.py``: what the service reads, kept per viewer until the match's head moves;
- ``reading.py``: the one thread it reads the database on, off the event loop, within a deadline;
- ``writes.py``: participants' submissions, written by one thread, batched;
- ``live.py``: the pages' server-sent event streams;
- ``http.py``: the routes (Starlette); ``guard.py``: security headers and the access log;
- ``pages.py`` and ``forms.py``: the HTML; ``assets/``: its one stylesheet and script;
- ``openapi.py``: the description of the JSON API; ``server.py``: running it (uvicorn);
- ``connections.py``: what one connection may cost (head size, read deadline, how many);
- ``health.py``: ``/healthz`` and ``/readyz``, for load balancers and orchestrators.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from typing import TypedDict

from matchledger.projections.application import Application

from .guard import Guard
from .health import Readiness
from .http import Service
from .live import Live
from .reading import Reading
from .reads import Reads
from .writes import Writer

_MEDIA_TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml"}


def assets() -> dict[str, tuple[bytes, str]]:
    folder = resources.files(__package__) / "assets"
    return {
        entry.name: (entry.read_bytes(), _MEDIA_TYPES[entry.name[entry.name.rfind(".") :]])
        for entry in folder.iterdir()
        if entry.name[entry.name.rfind(".") :] in _MEDIA_TYPES
    }


class _LiveOptions(TypedDict, total=False):
    """The live streams' pace and limits, as `serve` sets them."""

    interval: float
    heartbeat: float
    per_client: int
    per_match: int


def build(
    reader: Application,
    open_writer,
    log,
    *,
    base_url: str,
    poll: float | None = None,
    keep_alive: float | None = None,
    streams_per_client: int | None = None,
    streams_per_match: int | None = None,
    probe: Callable[[], None] | None = None,
):
    """The ASGI app serving ``reader``'s database (``open_writer``: the writable
    application, opened in the writer thread on the first submission; ``probe``: opens
    the database and closes it, for ``/readyz``)."""
    reads = Reads(reader)
    given: _LiveOptions = {}  # what is not given keeps Live's default
    if poll is not None:
        given["interval"] = poll
    if keep_alive is not None:
        given["heartbeat"] = keep_alive
    if streams_per_client is not None:
        given["per_client"] = streams_per_client
    if streams_per_match is not None:
        given["per_match"] = streams_per_match
    reading = Reading(reads)  # every read off the event loop, within a deadline
    live = Live(reads, reading=reading, **given)
    writer = Writer(open_writer, lambda match_id: reader_loop_call(live, reads, match_id))
    readiness = Readiness(probe) if probe is not None else None
    service = Service(reads, writer, live, base_url=base_url, assets=assets(), readiness=readiness, reading=reading)
    return Guard(service.app(), log), service


def reader_loop_call(live: Live, reads: Reads | None = None, match_id: str | None = None) -> None:
    """Wake the live streams (and the reads' refresher) from the writer thread; the
    match written to is read again at once (queued before the writer's answer, so the
    participant's next request sees their submission, pushed changes or not)."""
    loop = live.loop
    if loop is not None:
        if reads is not None and match_id is not None:
            loop.call_soon_threadsafe(reads.moved, match_id)
        loop.call_soon_threadsafe(live.poke)
        if reads is not None:
            loop.call_soon_threadsafe(reads.poke)


def readable(db: str, lock_timeout: float) -> Callable[[], None]:
    """A readiness probe of the database ``db``: opens it as a read command does
    (read-only, its schema checked) and closes it; raises what the opening raised."""

    def probe() -> None:
        Application.open(db, read_only=True, lock_timeout=lock_timeout).close()

    return probe


def writable(db: str, lock_timeout: float):
    """A factory of the writer thread's application on the database ``db`` (a file or
    a PostgreSQL URL)."""
    return lambda: Application.open(db, lock_timeout=lock_timeout)

"""A database stalled for a while under running `serve` processes (issue 29): what the
clients already connected get meanwhile, by class of request.

Three ways to stall it, each a ``begin()`` and an ``end()``:

- :class:`Paused`: every process of a PostgreSQL cluster stopped (SIGSTOP to the
  postmaster and its children, SIGCONT after), as a machine that stops answering;
- :class:`Locked`: ``LOCK TABLE events IN ACCESS EXCLUSIVE MODE`` held in one
  transaction, and an INSERT committed in another database of the same cluster
  meanwhile (which moves the cluster's snapshot, as any busy neighbour does);
- :class:`SqliteExclusive`: ``BEGIN EXCLUSIVE`` held on a SQLite file.  Not the same
  stall: in WAL mode readers go on reading while a writer holds the lock.

Each probe is sent on a keep-alive connection opened (and answered once) before the
stall, in waves during it; a probe that is not answered is waited for up to
``GUARD_SECONDS`` past the stall's end (a guard against hanging, nothing is asserted).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .service import _request

GUARD_SECONDS = 20.0


# --------------------------------------------------------------------------- the stalls


def cluster_pids(data: Path) -> list[int]:
    """The postmaster of the cluster in ``data`` and its children (Linux ``/proc``)."""
    postmaster = int((data / "postmaster.pid").read_text().split()[0])
    children = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            # the parent's pid is the 2nd field after the command's ")", which may hold spaces
            if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == postmaster:
                children.append(int(entry.name))
    return [postmaster, *children]


def _signal(pids: list[int], sig: int) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)


class Paused:
    """Every process of the cluster stopped, as a database machine that hangs."""

    name = "cluster paused (SIGSTOP)"

    def __init__(self, data: Path):
        self.data = data
        self.pids: list[int] = []

    def begin(self) -> None:
        self.pids = cluster_pids(self.data)  # the postmaster first: it forks no new child meanwhile
        _signal(self.pids, signal.SIGSTOP)

    def end(self) -> None:
        _signal(self.pids, signal.SIGCONT)
        self.pids = []


def resume(data: Path) -> None:
    """Every process of the cluster let go on, whatever was stopped (safe to repeat)."""
    if (data / "postmaster.pid").exists():
        _signal(cluster_pids(data), signal.SIGCONT)


class Locked:
    """The events table locked in one transaction, and one commit elsewhere in the
    cluster during it."""

    name = "events locked + a commit in another database"

    def __init__(self, url: str, elsewhere: str):
        self.url, self.elsewhere = url, elsewhere
        self.holder = None

    def begin(self) -> None:
        import psycopg

        self.holder = psycopg.connect(self.url)
        self.holder.execute("SET LOCAL lock_timeout = '5s'")  # a guard: serve holds no long lock
        self.holder.execute("LOCK TABLE events IN ACCESS EXCLUSIVE MODE")
        with psycopg.connect(self.elsewhere, autocommit=True) as other:
            other.execute("INSERT INTO busy DEFAULT VALUES")

    def end(self) -> None:
        if self.holder is not None:
            self.holder.rollback()
            self.holder.close()
            self.holder = None


class SqliteExclusive:
    """``BEGIN EXCLUSIVE`` held on a SQLite file (WAL: readers are not held up)."""

    name = "BEGIN EXCLUSIVE held"

    def __init__(self, path: Path):
        self.path = path
        self.holder: sqlite3.Connection | None = None

    def begin(self) -> None:
        self.holder = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.holder.execute("BEGIN EXCLUSIVE")

    def end(self) -> None:
        if self.holder is not None:
            self.holder.execute("ROLLBACK")
            self.holder.close()
            self.holder = None


# --------------------------------------------------------------------------- the probes


@dataclass
class Seen:
    """What the probes of one class got: the worst latency and each answer's kind."""

    worst: float = 0.0
    answers: Counter = field(default_factory=Counter)

    def add(self, seconds: float, answer: str) -> None:
        self.worst = max(self.worst, seconds)
        self.answers[answer] += 1

    def said(self) -> str:
        return ", ".join(f"{answer} x{count}" for answer, count in sorted(self.answers.items()))


def classes(match_id: str, token: str) -> dict[str, list[tuple[str, dict[str, str]]]]:
    """The probes by class: what needs no database, a match read before the stall, and
    what needs the database for its token."""
    return {
        "static (/healthz, /assets/service.css)": [("/healthz", {}), ("/assets/service.css", {})],
        "kept public answer (read before)": [(f"/api/v1/matches/{match_id}/public", {})],
        "participant /me (token checked)": [(f"/api/v1/matches/{match_id}/me", {"Authorization": f"Bearer {token}"})],
    }


async def _answer(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """(status, head) of one answer, its body read (by Content-Length) and dropped."""
    head = await reader.readuntil(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    await reader.readexactly(length)
    return int(head[9:12]), head.lower()


def _answer_kind(status: int, head: bytes) -> str:
    if status == 503:
        return "503 with Retry-After" if b"\r\nretry-after:" in head else "503 without Retry-After"
    return str(status)


def waves(seconds: float) -> list[float]:
    """When probes are sent, seconds after the stall began: at once, midway, near its end."""
    return sorted({0.5, round(seconds / 2, 1), max(0.5, seconds - 1.0)})


async def probe_stall(
    addresses: list[tuple[str, int]],
    probes: dict[str, list[tuple[str, dict[str, str]]]],
    stream: str,
    stall,
    seconds: float,
) -> dict[str, Seen]:
    """Connect a client for each wave, class, path and server and read once; stall the
    database for ``seconds``; send each wave's requests in turn meanwhile; what each
    class got.  The stall is ended whatever happens (an error, Ctrl-C).

    A live page of the match (``stream``) stays open on each server throughout, as in
    any league where someone is watching: its wake-ups are what look at the database."""
    loop = asyncio.get_running_loop()
    clients = []
    watching = [asyncio.ensure_future(_watch(hostname, port, stream)) for hostname, port in addresses]
    for wave in waves(seconds):
        for kind, paths in probes.items():
            for hostname, port in addresses:
                for path, headers in paths:
                    reader, writer = await asyncio.open_connection(hostname, port)
                    raw = _request("GET", path, f"{hostname}:{port}", headers)
                    writer.write(raw)
                    await _answer(reader)  # read before the stall: a public answer is kept from here
                    clients.append((wave, kind, reader, writer, raw))
    seen = {kind: Seen() for kind in probes}
    extra = []  # connections opened again during the stall

    async def probe(wave: float, kind: str, reader, writer, raw: bytes) -> None:
        await asyncio.sleep(max(0.0, began + wave - time.perf_counter()))
        sent = time.perf_counter()
        try:
            answer = _answer_kind(*await asyncio.wait_for(_ask(reader, writer, raw), seconds + GUARD_SECONDS))
        except TimeoutError:
            answer = f"no answer in {seconds + GUARD_SECONDS:.0f} s"
        except (asyncio.IncompleteReadError, ConnectionError):
            answer = "connection closed"
        seen[kind].add(time.perf_counter() - sent, answer)

    async def _ask(reader, writer, raw: bytes) -> tuple[int, bytes]:
        """``raw`` sent and answered; where the server had closed the connection as idle
        (uvicorn's keep-alive timeout, 5 s: a late wave's), sent again on a new one, as
        a browser does, the time counted from the first send."""
        writer.write(raw)
        try:
            return await _answer(reader)
        except asyncio.IncompleteReadError as exc:
            if exc.partial:
                raise
        hostname, port = writer.get_extra_info("peername")[:2]
        reader, writer = await asyncio.open_connection(hostname, port)
        extra.append(writer)
        writer.write(raw)
        return await _answer(reader)

    try:
        await loop.run_in_executor(None, stall.begin)
        began = time.perf_counter()
        probing = asyncio.gather(*(probe(*client) for client in clients))
        try:
            await asyncio.sleep(seconds)
        finally:
            await loop.run_in_executor(None, stall.end)
        await probing
    finally:
        stall.end()  # again where ``begin`` failed half-way, or Ctrl-C came meanwhile
        for _wave, _class, _reader, writer, _raw in clients:
            writer.close()
        for writer in extra:
            writer.close()
        for watcher in watching:
            watcher.cancel()
        await asyncio.gather(*watching, return_exceptions=True)
    return seen


async def _watch(hostname: str, port: int, path: str) -> None:
    """A live page's stream, read and dropped until cancelled."""
    reader, writer = await asyncio.open_connection(hostname, port)
    try:
        writer.write(_request("GET", path, f"{hostname}:{port}"))
        while await reader.read(65536):
            pass
    finally:
        writer.close()


def recovered(addresses: list[tuple[str, int]], within: float = 60.0) -> bool:
    """Each server's ``/readyz`` answers 200 again (bounded: a guard against hanging)."""
    import urllib.request

    deadline = time.perf_counter() + within
    for hostname, port in addresses:
        while True:
            with contextlib.suppress(OSError):  # refused, 503 (an HTTPError), or no answer in 5 s
                with urllib.request.urlopen(f"http://{hostname}:{port}/readyz", timeout=5) as answer:
                    if answer.status == 200:
                        break
            if time.perf_counter() > deadline:
                return False
            time.sleep(0.2)
    return True

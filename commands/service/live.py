"""Live pages: server-sent event streams that follow a match, whoever writes to it.

One poller watches every match that has an open page: each ``interval`` it asks the
application whether anything was committed since (``Reads.look``, the application's
change token: one cheap query, and it sees the command line's writes in other processes
as well as ours), and only then reads the heads of the watched matches, on the reading
thread (``reading.py``), never on the event loop.  The service's
own writes wake it at once (:meth:`Live.poke`).  Where the back end pushes changes
(PostgreSQL's LISTEN/NOTIFY: ``Reads`` listens), a match's commit wakes it as soon as
it is announced, and it polls only every few seconds (``FALLBACK_SECONDS``), as a
safety net; while the listening connection is lost it polls at ``interval`` again.
The streams do not change.  A stream's render and its refusal are coroutines: they
read on the reading thread, or answer from what the loop holds (``Reads.peek``).

A stream sends its viewer's page only when what it shows that viewer changed: a
match's head moving wakes every stream of the match, each renders its view (once per
view and head, see ``reads``), and a stream whose bytes are the ones it sent last sends
nothing.  So nothing in a stream, not even its timing, depends on events the viewer may
not see.  A comment line keeps the connection open on a fixed schedule from the
stream's start, whatever happens in the match.  A participant's link revoked while its
page is open is sent nothing more, and its stream ends at the next beat (not at the
match's next event, whose timing the viewer may not know).

Streams are admitted (``open``) within two bounds, so that no one client and no one
match takes every connection the process may hold: ``per_client`` streams from one
address (an IPv6 client's /64, which one machine is given whole), answered 429 past
it, and ``per_match`` streams of one match, answered 503.  A stream's place is given
back when it ends, whether or not it ever sent a byte.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from typing import Protocol

from matchledger.ledger.change_feed import FALLBACK_SECONDS
from matchledger.ledger.errors import DatabaseBusy, DatabaseUnavailable, MatchledgerError

from .problems import Refused, refused
from .reads import Reads, to_json

#: Seconds between two looks at the store while pages are open.
POLL_SECONDS = 0.15
#: Seconds between two keep-alive comments of a stream.
HEARTBEAT_SECONDS = 15.0
#: How long a browser waits before it reconnects a dropped stream, in milliseconds.
RETRY_MS = 2000
#: Live streams from one client, and of one match, at once (by default).
STREAMS_PER_CLIENT = 16
STREAMS_PER_MATCH = 500


class Messages(Protocol):
    """A stream's messages, which its reader may close before they end (an async
    generator, or an admitted one)."""

    def __aiter__(self) -> AsyncIterator[bytes]: ...

    async def __anext__(self) -> bytes: ...

    async def aclose(self) -> None: ...


#: What a stream sends when woken (its view's message, or nothing new), read off the loop.
Render = Callable[[], Awaitable[bytes]]
#: Why a stream's viewer may see no more (a revoked link), or None.
Refusal = Callable[[], Awaitable[str | None]]


async def _never_refused() -> str | None:
    return None


class _Watch:
    """One match's open streams: how many, and the head they last saw."""

    def __init__(self) -> None:
        self.streams = 0
        self.head: tuple[int, str] | None = None
        self.moved = asyncio.Event()

    def wake(self) -> None:
        self.moved.set()
        self.moved = asyncio.Event()


class Live:
    def __init__(
        self,
        reads: Reads,
        *,
        interval: float = POLL_SECONDS,
        heartbeat: float = HEARTBEAT_SECONDS,
        per_client: int = STREAMS_PER_CLIENT,
        per_match: int = STREAMS_PER_MATCH,
        reading: Callable[..., Awaitable] | None = None,
    ):
        self.reads = reads
        self.reading = reading  # the reading thread (``reading.py``); None: read in place (a test's)
        self.interval = interval
        self.heartbeat = heartbeat
        self.per_client = per_client
        self.per_match = per_match
        self._by_client: dict[str, int] = {}
        self._by_match: dict[str, int] = {}
        self.closing = asyncio.Event()
        self._watches: dict[str, _Watch] = {}
        self._poked = asyncio.Event()
        self._version: object = None  # the application's change token, compared with ==
        self._task: asyncio.Task | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        reads.woken.append(self.poke)  # a pushed move wakes the streams at once

    # ------------------------------------------------------------------ the poller

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._task = self.loop.create_task(self._poll())

    async def stop(self) -> None:
        self.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def close(self) -> None:
        """End every stream (the server is shutting down)."""
        self.closing.set()

    def poke(self) -> None:
        """Something was just written here: look now rather than at the next tick."""
        self._poked.set()

    async def _poll(self) -> None:
        while not self.closing.is_set():
            every = max(self.interval, FALLBACK_SECONDS) if self.reads.pushed else self.interval
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._poked.wait(), every)
            poked = self._poked.is_set()
            self._poked.clear()
            if self._watches:
                await self.look(poked)

    async def look(self, poked: bool = False) -> None:
        """Wake the streams of every watched match whose head moved (a kept head costs
        nothing to read: only a match that moved is read again).  Unless ``poked``,
        nothing is read while the change token stands still."""
        try:
            heads = await self._read(self._heads, list(self._watches), poked)
        except MatchledgerError:  # the database did not answer in time: the next tick looks again
            return
        if heads is None:
            return
        for match_id, head in heads.items():
            watch = self._watches.get(match_id)
            if watch is not None and head != watch.head:
                watch.head = head
                watch.wake()

    async def _read(self, call: Callable, *args):
        return call(*args) if self.reading is None else await self.reading(call, *args)

    def _heads(self, matches: list[str], poked: bool) -> dict[str, tuple[int, str] | None] | None:
        """(On the reading thread.) The heads of ``matches`` (None for one that cannot be
        read: its streams render the refusal themselves), or None if the change token
        stood still and nothing was ``poked``."""
        try:
            version = self.reads.look()
        except MatchledgerError:
            version = None
        if version is not None and version == self._version and not poked:
            return None
        self._version = version
        heads: dict[str, tuple[int, str] | None] = {}
        for match_id in matches:
            try:
                heads[match_id] = self.reads.head(match_id)
            except MatchledgerError:
                heads[match_id] = None
        return heads

    # ------------------------------------------------------------------ admission

    def open(
        self,
        match_id: str,
        client: str | None,
        render: Render,
        refusal: Refusal = _never_refused,
    ) -> Messages:
        """:meth:`stream`, if ``client`` and ``match_id`` have room for one more (else
        Refused: 429 for the client, 503 for the match); its place is held until the
        returned iterator ends or is closed."""
        who = client_key(client)
        if self._by_client.get(who, 0) >= self.per_client:
            raise Refused(
                429, f"this address has {self.per_client} live pages open already: close one", {"Retry-After": "10"}
            )
        if self._by_match.get(match_id, 0) >= self.per_match:
            raise Refused(
                503,
                f"this match has {self.per_match} live pages open already; reload later",
                {"Retry-After": "10"},
                reason="live pages per match",
            )
        self._by_client[who] = self._by_client.get(who, 0) + 1
        self._by_match[match_id] = self._by_match.get(match_id, 0) + 1
        return _Admitted(self.stream(match_id, render, refusal), lambda: self._leave(who, match_id))

    def _leave(self, who: str, match_id: str) -> None:
        for counts, key in ((self._by_client, who), (self._by_match, match_id)):
            left = counts[key] - 1
            if left:
                counts[key] = left
            else:
                del counts[key]

    # ------------------------------------------------------------------ streams

    async def stream(
        self, match_id: str, render: Render, refusal: Refusal = _never_refused
    ) -> AsyncGenerator[bytes, None]:
        """The events of one viewer's page: its view whenever that changes, until the
        viewer leaves, the match's log stops verifying, the server shuts down, or
        ``refusal`` says why the viewer may see no more (a revoked link)."""
        watch = self._watches.setdefault(match_id, _Watch())
        watch.streams += 1
        loop = asyncio.get_running_loop()
        try:
            yield f"retry: {RETRY_MS}\n\n".encode()
            sent = None
            beat = loop.time() + self.heartbeat
            while not self.closing.is_set():
                moved = watch.moved
                # A viewer refused meanwhile is sent nothing more; the stream ends at the
                # next beat, so its end tells nothing of when the match moved.
                if await refusal() is None:
                    try:
                        message = await render()
                    except (DatabaseBusy, DatabaseUnavailable):
                        # A passing outage: the stream ends without a refusal, so the
                        # browser connects again after ``retry`` (the page's script keeps
                        # trying while the service answers 503), and the page goes on.
                        return
                    except MatchledgerError as exc:
                        yield _refused(refused(exc, match_id=match_id).message)  # never the database's name
                        return
                    if message and message != sent:  # empty: nothing new (the feed's)
                        sent = message
                        yield message
                while not moved.is_set() and not self.closing.is_set():
                    wait = beat - loop.time()
                    if wait <= 0:
                        beat += self.heartbeat
                        why = await refusal()
                        if why is not None:
                            yield _refused(why)
                            return
                        yield b": keep-alive\n\n"
                        continue
                    await _first(moved, self.closing, wait)
        finally:
            watch.streams -= 1
            if not watch.streams:
                self._watches.pop(match_id, None)


def client_key(client: str | None) -> str:
    """Whom a stream is counted against: the client's address, an IPv6 one by its /64."""
    if not client:
        return ""
    try:
        address = ipaddress.ip_address(client)
    except ValueError:
        return client
    if address.version == 6:
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


class _Admitted:
    """An admitted stream: ``leave`` is called once, when it ends or is closed (an async
    generator closed before its first step never runs its ``finally``)."""

    def __init__(self, messages: Messages, leave: Callable[[], None]):
        self.messages = messages
        self._leave: Callable[[], None] | None = leave

    def __aiter__(self) -> _Admitted:
        return self

    async def __anext__(self) -> bytes:
        try:
            return await self.messages.__anext__()
        except BaseException:
            self._left()
            raise

    async def aclose(self) -> None:
        self._left()
        await self.messages.aclose()

    def _left(self) -> None:
        if self._leave is not None:
            leave, self._leave = self._leave, None
            leave()


def _refused(message: str) -> bytes:
    return b"event: refused\ndata: " + to_json({"error": message}) + b"\n\n"


async def _first(a: asyncio.Event, b: asyncio.Event, timeout: float) -> None:
    """Until ``a`` or ``b`` is set, or ``timeout`` seconds."""
    waits = [asyncio.ensure_future(a.wait()), asyncio.ensure_future(b.wait())]
    try:
        await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in waits:
            task.cancel()

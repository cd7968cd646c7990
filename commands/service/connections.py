"""What one connection may cost `serve`, whoever opens it (docs/service.md, "Limits").

uvicorn's httptools protocol caps neither a request's head (bytes or header lines: one
connection sending header lines for ever grows the process without bound) nor the time
a request may take to arrive: its keep-alive timeout is armed only after an answer and
cancelled by any byte, so a connection that never finishes its first request, or
trickles a line at a time, is never closed.  ``limit_concurrency`` answers 503 only once
a head was read, so half-sent requests still hold a descriptor each.  This subclass adds:

- a head (request line and headers, or whatever a client sends while one is awaited)
  of at most ``HEAD_BYTES_MAX`` bytes and ``HEADERS_MAX`` header lines, else 431 and the
  connection is closed;
- a deadline: a connection's request must arrive whole (head and body) within
  ``read_seconds`` of its first byte, or of the connection's opening, or of the answer
  before it (plus uvicorn's keep-alive wait), else 408 and the connection is closed;
  a request whose body did not arrive is marked (``TIMED_OUT``) so the app logs why;
- at most ``connections`` connections at once: one more is answered 503 as soon as it
  is accepted, and closed, so its descriptor is given back at once.

The counting is a few integer operations per chunk and per header: the throughput of
the service is unchanged (docs/performance.md, "The service's limits").
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import httptools
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

#: Bytes a request's head may take (nginx's default is 4 lines of 8 KiB; a browser
#: sends one or two).
HEAD_BYTES_MAX = 32 * 1024
#: Header lines a request may carry.
HEADERS_MAX = 100
#: Seconds a request may take to arrive whole, by default.
READ_SECONDS = 15.0
#: Connections at once, by default.
CONNECTIONS_MAX = 1000
#: The scope's key set on a request whose body did not arrive in time.
TIMED_OUT = "matchledger.timed_out"


@dataclass(frozen=True)
class ConnectionLimits:
    read_seconds: float = READ_SECONDS
    connections: int = CONNECTIONS_MAX


def _closing(status: bytes, *headers: bytes) -> bytes:
    return b"".join([b"HTTP/1.1 ", status, b"\r\n", *(h + b"\r\n" for h in headers),
                     b"content-length: 0\r\nconnection: close\r\n\r\n"])


HEAD_TOO_LARGE = _closing(b"431 Request Header Fields Too Large")
TIMEOUT = _closing(b"408 Request Timeout")
TOO_MANY = _closing(b"503 Service Unavailable", b"retry-after: 5")


class _HeadTooLarge(Exception):
    """Raised in a parser callback: the parser stops where it is."""


def protocol(limits: ConnectionLimits) -> type[asyncio.Protocol]:
    """The HTTP protocol class for uvicorn's ``Config(http=...)``, bound to ``limits``."""

    class Bounded(BoundedHttpToolsProtocol):
        pass

    Bounded.limits = limits
    return Bounded


class BoundedHttpToolsProtocol(HttpToolsProtocol):
    limits = ConnectionLimits()

    _refused = False
    _deadline: asyncio.TimerHandle | None = None
    _reading = False  # between a request's first byte and its last
    _awaiting_head = True  # bytes that come now belong to a request's head
    _head_bytes = 0
    _headers_seen = 0
    _completed_in_chunk = False  # a request ended in the chunk being read

    # ------------------------------------------------------------------ connection

    def connection_made(self, transport) -> None:  # type: ignore[override]
        if len(self.connections) >= self.limits.connections:
            self._refused = True
            self.transport = transport
            transport.write(TOO_MANY)
            transport.close()
            return
        super().connection_made(transport)
        self._arm(self.limits.read_seconds)

    def connection_lost(self, exc) -> None:
        self._disarm()
        if self._refused:
            return
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused or self.transport.is_closing():
            return
        self._unset_keepalive_if_required()
        self._completed_in_chunk = False
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserCallbackError as exc:
            if isinstance(exc.__context__, _HeadTooLarge):
                self._close_with(HEAD_TOO_LARGE)
            else:
                self.send_400_response("Invalid HTTP request received.")
            return
        except httptools.HttpParserError:
            self.send_400_response("Invalid HTTP request received.")
            return
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
            return
        if self._awaiting_head and not self._completed_in_chunk:
            # A chunk that leaves a head unfinished counts whole, unless a request ended
            # in it (its body is not a head's): a head's bytes past the bound are at most
            # one read's.
            self._head_bytes += len(data)
            if self._head_bytes > HEAD_BYTES_MAX:
                self._close_with(HEAD_TOO_LARGE)

    # ------------------------------------------------------------------ parser callbacks

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._reading, self._awaiting_head = True, True
        self._head_bytes = self._headers_seen = 0
        self._arm(self.limits.read_seconds)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._headers_seen += 1
        if self._headers_seen > HEADERS_MAX:
            raise _HeadTooLarge()
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._awaiting_head = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._reading, self._awaiting_head, self._head_bytes = False, True, 0
        self._completed_in_chunk = True
        self._disarm()  # the answer takes what time it takes (a live stream: hours)
        super().on_message_complete()

    def on_response_complete(self) -> None:
        idle = not self.pipeline and not self._reading
        super().on_response_complete()
        if idle and not self.transport.is_closing():
            # uvicorn's keep-alive wait for the next request's first byte, then its time to arrive
            self._arm(self.timeout_keep_alive + self.limits.read_seconds)

    # ------------------------------------------------------------------ the deadline

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._timed_out)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _timed_out(self) -> None:
        self._deadline = None
        cycle = self.cycle
        if self._reading and not self._awaiting_head and cycle is not None:
            cycle.scope[TIMED_OUT] = True  # type: ignore[literal-required]  # the app waits for a body that did not come
        self._close_with(TIMEOUT)

    def _close_with(self, answer: bytes) -> None:
        self._disarm()
        if self.transport.is_closing():
            return
        cycle = self.cycle
        if cycle is None or cycle.response_complete or not cycle.response_started:
            self.transport.write(answer)
        if cycle is not None and not cycle.response_complete:
            cycle.disconnected = True  # the app sees the client gone; nothing it sends now reaches the wire
            cycle.message_event.set()
        self.transport.close()


#: Descriptors the process keeps besides its connections: the database and its WAL
#: (reader and writer), the listening socket, the log, the event loop's own.
DESCRIPTORS_KEPT = 64


def connections_that_fit(wanted: int) -> tuple[int, int]:
    """(the connections this process may hold, its open-file limit): the soft limit is
    raised towards the hard one when ``wanted`` needs it (as any process may), and the
    count is lowered to what the limit leaves when it cannot be."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = wanted + DESCRIPTORS_KEPT
    if soft != resource.RLIM_INFINITY and soft < needed:
        target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return wanted, soft
    return max(0, min(wanted, soft - DESCRIPTORS_KEPT)), soft

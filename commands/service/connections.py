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
  is accepted, and closed, so its descriptor is given back at once (and ``on_refusal``
  is told its client's address, for the log: no request was read, so no access record
  says it);
- with ``serve --limit-concurrency N`` (uvicorn's ``limit_concurrency``), a request read
  while N connections are open or N requests are being answered is handed to the app
  marked (``OVER_LIMIT``), which answers it 503 with ``Retry-After`` as it words every
  refusal and logs why, instead of uvicorn's bare text and a stray warning;
- at most ``PIPELINED_MAX`` requests read ahead of the one being answered.  uvicorn
  queues every pipelined request a read holds (one read of 256 KiB is ~5,000 small
  requests, ~2.4 KB each once parsed) and resumes reading whenever an answer ends or the
  app asks for its body, so one connection that pipelines and never reads its answers
  grew the process by 50 times what it sent.  Here the parser is fed a slice at a time;
  once that many wait, what is left of the read is kept as bytes, reading stops, and
  both resume as the answers drain.  The time a request spends unread that way is not
  the client's: its deadline waits too.  An answer written to a client that does not
  read it waits on the transport (uvicorn's flow control pauses the app above 64 KiB
  buffered), so a connection holds at most one answer in memory besides those;
- an answer whose client left (its transport closing, a reset among the pipelined
  answers, a deadline) is told so (``disconnected``): its writes go nowhere instead of
  raising into the app, so the access log has its one record at info, no traceback.

The counting is a few integer operations per slice and per header, and a browser's
request of 1 KB parses as fast in 256-byte slices as whole (~10 µs either way): the
throughput of the service is unchanged (docs/performance.md, "The service's limits").
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

import httptools
from uvicorn.protocols.http.flow_control import FlowControl, service_unavailable
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle

from matchledger.ledger.errors import MalformedInput

#: Bytes a request's head may take (nginx's default is 4 lines of 8 KiB; a browser
#: sends one or two).
HEAD_BYTES_MAX = 32 * 1024
#: Header lines a request may carry.
HEADERS_MAX = 100
#: Seconds a request may take to arrive whole, by default.
READ_SECONDS = 15.0
#: Connections at once, by default.
CONNECTIONS_MAX = 1000
#: Requests one connection may have read ahead of the one being answered (pipelined);
#: browsers pipeline none, a client that does gains nothing from more.
PIPELINED_MAX = 4
#: Bytes fed to the parser at once: past ``PIPELINED_MAX``, a slice may queue at most
#: 256 / 16 (the shortest request, ``GET / HTTP/1.1\n\n``) more.  A browser's request
#: is one slice or a few.
PARSE_SLICE = 256
#: The scope's key set on a request whose body did not arrive in time.
TIMED_OUT = "matchledger.timed_out"
#: The scope's key set on a request beyond ``limit_concurrency`` (the app answers it 503).
OVER_LIMIT = "matchledger.over_limit"


@dataclass(frozen=True)
class ConnectionLimits:
    read_seconds: float = READ_SECONDS
    connections: int = CONNECTIONS_MAX
    #: Told the client's address of each connection refused past ``connections``.
    on_refusal: Callable[[str | None], None] | None = None


def _closing(status: bytes, *headers: bytes) -> bytes:
    return b"".join(
        [
            b"HTTP/1.1 ",
            status,
            b"\r\n",
            *(h + b"\r\n" for h in headers),
            b"content-length: 0\r\nconnection: close\r\n\r\n",
        ]
    )


HEAD_TOO_LARGE = _closing(b"431 Request Header Fields Too Large")
TIMEOUT = _closing(b"408 Request Timeout")
TOO_MANY = _closing(b"503 Service Unavailable", b"retry-after: 5")


class _HeadTooLarge(MalformedInput):
    """Raised in a parser callback: the parser stops where it is."""


class _ReadWhenAllowed(FlowControl):
    """uvicorn's flow control, whose reading resumes only when ``may_read`` says so:
    uvicorn resumes it at every answer's end and every ``receive`` of the app."""

    def __init__(self, transport: asyncio.Transport, may_read) -> None:
        super().__init__(transport)
        self._may_read = may_read

    def resume_reading(self) -> None:
        if self._may_read():
            super().resume_reading()


class _AnswerTransport:
    """The transport as one answer sees it: once it is closing (the client left, or a
    deadline closed it) a write goes nowhere and the answer is marked disconnected, so
    the app ends quietly; uvloop would raise RuntimeError into the app instead."""

    __slots__ = ("_transport", "_cycle")

    def __init__(self, transport: asyncio.Transport, cycle: RequestResponseCycle) -> None:
        self._transport = transport
        self._cycle = cycle

    def write(self, data: bytes) -> None:
        if self._transport.is_closing():
            self._cycle.disconnected = True
            return
        self._transport.write(data)

    def __getattr__(self, name: str):
        return getattr(self._transport, name)


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
    _answering: RequestResponseCycle | None = None  # the request being answered (pipelined ones wait)
    _unparsed = b""  # read but not parsed: PIPELINED_MAX requests wait already
    _release_soon = False

    # ------------------------------------------------------------------ connection

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # as uvicorn's: a server's connection is a Transport
        if len(self.connections) >= self.limits.connections:
            self._refused = True
            self.transport = transport
            transport.write(TOO_MANY)
            transport.close()
            if self.limits.on_refusal is not None:
                peer = transport.get_extra_info("peername")
                self.limits.on_refusal(peer[0] if peer else None)
            return
        super().connection_made(transport)
        self.flow = _ReadWhenAllowed(transport, self._may_read)
        self._arm(self.limits.read_seconds)

    def connection_lost(self, exc) -> None:
        self._disarm()
        if self._refused:
            return
        self._unparsed = b""
        self._all_gone()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused or self.transport.is_closing():
            return
        self._unset_keepalive_if_required()
        if self._unparsed:  # reading was paused; a transport may still hand over what it had
            self._unparsed += data
            return
        self._feed(data)

    # ------------------------------------------------------------------ pipelined requests

    def _feed(self, data: bytes) -> None:
        """Parse ``data`` a slice at a time, until ``PIPELINED_MAX`` requests wait: the
        rest is kept, and reading paused, until they are answered."""
        view, offset = memoryview(data), 0
        while offset < len(data):
            if len(self.pipeline) >= PIPELINED_MAX:
                self._unparsed = bytes(view[offset:])
                self.flow.pause_reading()
                if self._reading:
                    self._disarm()  # the request waits on us, not on its client
                return
            if not self._parse(view[offset : offset + PARSE_SLICE]):
                return
            offset += PARSE_SLICE

    def _parse(self, chunk) -> bool:
        """Feed one slice to the parser; False when the connection was answered and closed."""
        self._completed_in_chunk = False
        try:
            self.parser.feed_data(chunk)
        except httptools.HttpParserCallbackError as exc:
            if isinstance(exc.__context__, _HeadTooLarge):
                self._close_with(HEAD_TOO_LARGE)
            else:
                self.send_400_response("Invalid HTTP request received.")
            return False
        except httptools.HttpParserError:
            self.send_400_response("Invalid HTTP request received.")
            return False
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
            return False
        if self._awaiting_head and not self._completed_in_chunk:
            # A slice that leaves a head unfinished counts whole, unless a request ended
            # in it (its body is not a head's): a head's bytes past the bound are at most
            # one slice's.
            self._head_bytes += len(chunk)
            if self._head_bytes > HEAD_BYTES_MAX:
                self._close_with(HEAD_TOO_LARGE)
                return False
        return not self.transport.is_closing()

    def _may_read(self) -> bool:
        return not self._unparsed and len(self.pipeline) < PIPELINED_MAX

    def _release(self) -> None:
        """An answer ended: parse what was kept, then read again if there is room."""
        self._release_soon = False
        if self.transport.is_closing() or self.parser is None or len(self.pipeline) >= PIPELINED_MAX:
            return
        data, self._unparsed = self._unparsed, b""
        if data:
            self._unset_keepalive_if_required()
            if self._reading:
                self._arm(self.limits.read_seconds)
            self._feed(data)
        self.flow.resume_reading()

    def _start_asgi_task(self, cycle: RequestResponseCycle, app) -> None:
        if app is service_unavailable:  # beyond limit_concurrency: the app words the 503
            cycle.scope[OVER_LIMIT] = True  # type: ignore[literal-required]  # a key of our own in the scope
            app = self.app
        cycle.transport = _AnswerTransport(self.transport, cycle)  # type: ignore[assignment]
        self._answering = cycle
        super()._start_asgi_task(cycle, app)

    def _all_gone(self) -> None:
        """Every request of the connection learns its client is gone: the one answered
        (which uvicorn would not tell when others were pipelined behind it) and those waiting."""
        cycles = [self._answering, self.cycle, *(cycle for cycle, _app in self.pipeline)]
        for cycle in filter(None, cycles):  # one may be named twice: marking it again is harmless
            if not cycle.response_complete:
                cycle.disconnected = True
            cycle.message_event.set()

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
        idle = not self.pipeline and not self._reading and not self._unparsed
        super().on_response_complete()
        if self.transport.is_closing():
            return
        if idle:
            # uvicorn's keep-alive wait for the next request's first byte, then its time to arrive
            self._arm(self.timeout_keep_alive + self.limits.read_seconds)
        if self._unparsed:
            if not self._release_soon:  # not inside the app's send: the parser starts tasks
                self._release_soon = True
                self.loop.call_soon(self._release)
        else:
            self.flow.resume_reading()  # uvicorn resumed it before taking the next from the queue

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
        answering = self._answering
        if answering is None or answering.response_complete or not answering.response_started:
            self.transport.write(answer)  # not into the middle of an answer
        self._unparsed = b""
        self._all_gone()  # the apps see the client gone; nothing they send now reaches the wire
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

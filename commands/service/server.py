"""Running the app: uvicorn on a socket bound here (so the address printed is the one
listened on, a free port included), shut down gracefully on SIGTERM or SIGINT: no new
connection is taken, the live streams end (each closed cleanly, so that a browser's
``EventSource`` reconnects, to this process once it is back or to another behind the same
address), answers under way are finished within ``GRACE_SECONDS`` (then cancelled), the
writer thread writes what it was given, then the process exits 0.

``limit_concurrency`` (``serve --limit-concurrency``) is uvicorn's; the requests beyond
it are answered by the app (``connections.OVER_LIMIT``), so uvicorn's warning for each
is dropped here: the access log's record of the 503 says why (``reason``).

What a connection may cost is bounded by the HTTP protocol it is given
(``connections.py``); forwarded headers (``X-Forwarded-For``, ``-Proto``) are believed
only from the proxies named (``trusted_proxies``), never by default."""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable

from .connections import ConnectionLimits, protocol

#: Seconds the shutdown waits for answers under way before it cancels them.
GRACE_SECONDS = 5
#: What uvicorn logs (on its error logger) for each request beyond limit_concurrency.
_OVER_LIMIT_WARNING = "Exceeded concurrency limit."


class _WithoutOverLimitWarnings(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != _OVER_LIMIT_WARNING


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family, backlog=1024)


def address(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def trusted_proxies(text: str | None) -> list[str]:
    """The addresses or networks (``10.0.0.5``, ``10.0.0.0/24``, ``::1``; ``*`` for any)
    whose forwarded headers are believed, from a comma-separated list; ValueError
    naming a bad one."""
    import ipaddress

    found = []
    for item in (text or "").split(","):
        item = item.strip()
        if not item:
            continue
        if item != "*":
            try:
                ipaddress.ip_network(item, strict=False)
            except ValueError:
                raise ValueError(
                    f"{item!r} is not an IP address or network (e.g. 127.0.0.1, 10.0.0.0/24, ::1, or *)"
                ) from None
        found.append(item)
    return found


def run(
    app,
    on_shutdown: Callable[[], None],
    sock: socket.socket,
    announce: Callable[[], None],
    *,
    limits: ConnectionLimits | None = None,
    proxies: list[str] | None = None,
    limit_concurrency: int | None = None,
) -> None:
    limits = limits or ConnectionLimits()
    import uvicorn

    if limit_concurrency is not None:
        logging.getLogger("uvicorn.error").addFilter(_WithoutOverLimitWarnings())

    class Server(uvicorn.Server):
        async def startup(self, sockets=None):
            await super().startup(sockets)
            if self.started:
                announce()

        def handle_exit(self, sig, frame):
            super().handle_exit(sig, frame)
            # uvicorn would raise the signal again once shut down, to die of it; a stop
            # asked for is a clean exit (0), as systemd and scripts expect.
            self._captured_signals.clear()

        async def shutdown(self, sockets=None):
            on_shutdown()  # the live streams end, so their connections can close
            await super().shutdown(sockets)

    # uvicorn would believe X-Forwarded-For/-Proto from 127.0.0.1 by default, that is
    # from any process on the machine, and from whatever FORWARDED_ALLOW_IPS names.  No
    # route is a WebSocket: an Upgrade header is ignored, not handed to another protocol.
    config = uvicorn.Config(
        app,
        log_config=None,
        access_log=False,
        lifespan="on",
        server_header=False,
        timeout_graceful_shutdown=GRACE_SECONDS,
        log_level="warning",
        http=protocol(limits),
        ws="none",
        proxy_headers=bool(proxies),
        forwarded_allow_ips=list(proxies or []) or None,
        limit_concurrency=limit_concurrency,
    )
    Server(config).run(sockets=[sock])

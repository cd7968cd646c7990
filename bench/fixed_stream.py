"""The floor a live update is compared with: the same framework (Starlette) on the same
server (uvicorn, as `serve` runs it) holding server-sent event streams that send a
message computed beforehand, of the size a page's update is, to every open stream the
moment it is told to (``POST /poke``): what waking N streams and writing to N sockets
costs here, with no database, no match and no page made.

    python -m bench.fixed_stream SIZE    # prints ``serving on URL``; SIGTERM stops it
"""

from __future__ import annotations

import asyncio
import sys

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from matchledger.commands.service.connections import ConnectionLimits
from matchledger.commands.service.server import address, bind, run

#: Connections one process holds at most (the streams and the pokes), as `serve` is given
#: in the bench (``--max-connections``).
CONNECTIONS = 5_000


def app(size: int) -> Starlette:
    message = b"event: view\ndata: " + b"x" * max(0, size - 20) + b"\n\n"
    woken = {"event": asyncio.Event()}

    async def poke(request: Request) -> Response:
        event, woken["event"] = woken["event"], asyncio.Event()
        event.set()
        return Response(b"", 204)

    class Stream:
        async def __call__(self, scope, receive, send) -> None:
            headers = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-store")]
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            await send({"type": "http.response.body", "body": b"retry: 2000\n\n" + message, "more_body": True})

            async def gone() -> None:  # the request's (empty) body first, then the client leaving
                while (await receive())["type"] != "http.disconnect":
                    pass

            leaving = asyncio.ensure_future(gone())
            try:
                while True:
                    waiting = asyncio.ensure_future(woken["event"].wait())
                    await asyncio.wait({waiting, leaving}, return_when=asyncio.FIRST_COMPLETED)
                    if leaving.done():
                        waiting.cancel()
                        return
                    await send({"type": "http.response.body", "body": message, "more_body": True})
            except OSError:
                return
            finally:
                leaving.cancel()

    async def events(request: Request):
        return Stream()

    return Starlette(routes=[Route("/m/{match}/events", events), Route("/poke", poke, methods=["POST"])])


def main(argv: list[str]) -> None:
    sock = bind("127.0.0.1", 0)
    listening = address(sock)
    run(
        app(int(argv[0])),
        lambda: None,
        sock,
        lambda: print(f"serving fixed streams on {listening}", flush=True),
        limits=ConnectionLimits(connections=CONNECTIONS),
    )


if __name__ == "__main__":
    main(sys.argv[1:])

"""The floor the service's reads are compared with: the same framework (Starlette) on the
same server and settings (uvicorn, as `serve` runs it) answering every path with bytes
computed beforehand, of the very size the service answers with.

    python -m bench.fixed_bytes ANSWERS.json    # {"/path": ["media/type", "base64"], ...}

Prints ``serving on URL`` like `serve` and stops on SIGTERM.
"""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from matchledger.commands.service.server import address, bind, run


def app(answers: dict[str, tuple[str, bytes]]) -> Starlette:
    async def fixed(request: Request) -> Response:
        media_type, body = answers[request.url.path]
        return Response(body, media_type=media_type)

    return Starlette(routes=[Route(path, fixed) for path in answers])


def main(argv: list[str]) -> None:
    table = json.loads(Path(argv[0]).read_text())
    answers = {path: (media_type, base64.b64decode(body)) for path, (media_type, body) in table.items()}
    sock = bind("127.0.0.1", 0)
    listening = address(sock)
    run(app(answers), lambda: None, sock, lambda: print(f"serving fixed bytes on {listening}", flush=True))


if __name__ == "__main__":
    main(sys.argv[1:])

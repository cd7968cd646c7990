"""`serve`: the database over HTTP (DESIGN.md, "Service"; docs/service.md)."""

from __future__ import annotations

import click
from matchledger.ledger.errors import MalformedInput

from . import logs
from .access import BASE_URL_VARIABLE, service_address
from .options import usage_error
from .output import say
from .session import app, session


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on (0: a free one).")
@click.option("--base-url", metavar="URL", envvar=BASE_URL_VARIABLE,
              help=f"The address others reach the service at, behind a proxy (env {BASE_URL_VARIABLE}, as for invite); default: the one listened on.")
@click.option("--poll", type=click.FloatRange(0.01, 10), default=0.15, show_default=True, metavar="SECONDS",
              help="How often open pages look for events written by other processes.")
@click.option("--keep-alive", "keep_alive", type=click.FloatRange(0.1, 3600), default=15, show_default=True, metavar="SECONDS",
              help="How often an open page's stream sends a keep-alive (a proxy may close a quiet connection).")
def serve_cmd(host, port, base_url, poll, keep_alive):
    """Serve the database over HTTP: public pages, participants' links, the JSON API.

    Public pages at /m/MATCH, each participant's own page at the link `invite` prints
    (/p/TOKEN), an auditor's at /a/TOKEN, and the JSON API under /api/v1 (described at
    /api/v1/openapi.json).  Pages update live as events land, whoever writes them (the
    command line too).  Prints the address it listens on; SIGTERM or Ctrl-C stops it
    gracefully.  Access is logged (--log-json for JSON lines) with tokens redacted.

    \b
    Examples:
      matchledger serve
      matchledger --db league.db serve --host 0.0.0.0 --port 8080 --base-url https://games.example.org
      matchledger --log-json serve --port 0      # a free port, JSON access log on stderr
    """
    current = session()
    reader = app()  # read-only: serving reads never changes the file
    if base_url is not None:
        try:
            base_url = service_address(base_url)
        except MalformedInput as exc:
            raise usage_error(str(exc)) from None
    # imported here: the framework and server cost every other command start-up time
    from .service import build, writable
    from .service.server import address, bind, run

    logs.configure(current.log_json, verbose=True)
    try:
        sock = bind(host, port)
    except OSError as exc:
        raise MalformedInput(f"cannot listen on {host!r} port {port}: {exc.strerror or exc}") from None
    listening = address(sock)
    asgi, service = build(reader, writable(current.db, current.lock_timeout), logs.log().bind(),
                          base_url=base_url or listening, poll=poll, keep_alive=keep_alive)

    def announce() -> None:
        reached = f" (reached as {base_url})" if base_url else ""
        say(f"serving {reader.location} on {listening}{reached}; Ctrl-C or SIGTERM stops")

    run(asgi, service.live.close, sock, announce)
    say("stopped", err=True)

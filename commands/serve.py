"""`serve`: the database over HTTP (docs/design.md, "Service"; docs/service.md)."""

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
@click.option(
    "--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on (0: a free one)."
)
@click.option(
    "--base-url",
    metavar="URL",
    envvar=BASE_URL_VARIABLE,
    help=f"The address others reach the service at, behind a proxy (env {BASE_URL_VARIABLE}, as for invite); default: the one listened on.",
)
@click.option(
    "--poll",
    type=click.FloatRange(0.01, 10),
    default=0.15,
    show_default=True,
    metavar="SECONDS",
    help="How often open pages look for events written by other processes.",
)
@click.option(
    "--keep-alive",
    "keep_alive",
    type=click.FloatRange(0.1, 3600),
    default=15,
    show_default=True,
    metavar="SECONDS",
    help="How often an open page's stream sends a keep-alive (a proxy may close a quiet connection).",
)
@click.option(
    "--read-timeout",
    "read_timeout",
    type=click.FloatRange(0.05, 3600),
    default=15,
    show_default=True,
    metavar="SECONDS",
    help="How long a request may take to arrive whole, head and body (else 408 and the connection is closed).",
)
@click.option(
    "--max-connections",
    "max_connections",
    type=click.IntRange(1, 1_000_000),
    default=1000,
    show_default=True,
    metavar="N",
    help="Connections at once; one more is answered 503 and closed (needs N + 64 open files).",
)
@click.option(
    "--limit-concurrency",
    "limit_concurrency",
    type=click.IntRange(1, 1_000_000),
    default=None,
    metavar="N",
    help="Shed load (uvicorn's limit_concurrency): a request that comes once N connections are open (its own, "
    "live pages' and idle ones included) or N requests are being answered gets 503 with Retry-After (/healthz "
    "excepted); e.g. --limit-concurrency 800.  Default: no limit but --max-connections.",
)
@click.option(
    "--streams-per-client",
    type=click.IntRange(1, 1_000_000),
    default=16,
    show_default=True,
    metavar="N",
    help="Live pages open at once from one client address (an IPv6 /64); one more is 429.",
)
@click.option(
    "--streams-per-match",
    type=click.IntRange(1, 1_000_000),
    default=500,
    show_default=True,
    metavar="N",
    help="Live pages open at once on one match; one more is 503.",
)
@click.option(
    "--forwarded-allow-ips",
    "forwarded",
    metavar="LIST",
    envvar="FORWARDED_ALLOW_IPS",
    help="The reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed: addresses or "
    "networks, comma-separated (env FORWARDED_ALLOW_IPS); default: none, every client is who connects.",
)
def serve_cmd(
    host,
    port,
    base_url,
    poll,
    keep_alive,
    read_timeout,
    max_connections,
    limit_concurrency,
    streams_per_client,
    streams_per_match,
    forwarded,
):
    """Serve the database over HTTP: public pages, participants' links, the JSON API.

    Public pages at /m/MATCH, each participant's own page at the link `invite` prints
    (/p/TOKEN), an auditor's at /a/TOKEN, and the JSON API under /api/v1 (described at
    /api/v1/openapi.json).  Pages update live as events land, whoever writes them (the
    command line too).  Prints the address it listens on, and records in the database
    where it is reached (--base-url, else that address) for the links `invite` prints;
    SIGTERM or Ctrl-C stops it gracefully.  Access is logged (--log-json for JSON
    lines) with tokens redacted.

    While it runs, each round closes at its deadline (`deadline`) where the rules let
    it, and the hooks (`hook add`) are posted each close, a deadline passed with its
    round left open, and each reminder.

    \b
    Examples:
      matchledger serve
      matchledger --db league.db serve --host 0.0.0.0 --port 8080 --base-url https://games.example.org
      matchledger --log-json serve --port 0      # a free port, JSON access log on stderr
      matchledger serve --forwarded-allow-ips 127.0.0.1   # behind nginx or Caddy on this machine

    A request's head is at most 32 KiB and 100 header lines (else 431).  GET /healthz
    answers while the process runs; GET /readyz while the database can be read too
    (else 503), for a load balancer or an orchestrator (docs/deploy.md).
    """
    # imported here: the framework and server cost every other command start-up time
    from .service.server import trusted_proxies

    try:
        proxies = trusted_proxies(forwarded)
    except ValueError as exc:
        raise usage_error(f"--forwarded-allow-ips: {exc}") from None
    current = session()
    reader = app()  # read-only: serving reads never changes the file
    if base_url is not None:
        try:
            base_url = service_address(base_url)
        except MalformedInput as exc:
            raise usage_error(str(exc)) from None
    from .service import build, readable, writable
    from .service.connections import ConnectionLimits, connections_that_fit
    from .service.health import DEADLINE_SECONDS
    from .service.server import address, bind, run

    connections, open_files = connections_that_fit(max_connections)
    if connections < 1:
        raise MalformedInput(
            f"this process may open {open_files} files, too few to serve (ulimit -n; LimitNOFILE= in a systemd unit)"
        )
    if connections < max_connections:
        say(
            f"serving at most {connections} connections, not {max_connections}: this process may open "
            f"{open_files} files (ulimit -n; LimitNOFILE= in a systemd unit)",
            err=True,
        )

    try:
        sock = bind(host, port)
    except OSError as exc:
        raise MalformedInput(f"cannot listen on {host!r} port {port}: {exc.strerror or exc}") from None
    listening = address(sock)
    _record_address(current, base_url or listening, given=base_url is not None)
    # The access log (info) from here on: a refusal before it is one `Error:` line, like
    # every command's, not preceded by a log record of the same failure.
    logs.configure(current.log_json, verbose=True)
    asgi, service = build(
        reader,
        writable(current.db, current.lock_timeout),
        logs.log().bind(),
        base_url=base_url or listening,
        poll=poll,
        keep_alive=keep_alive,
        streams_per_client=streams_per_client,
        streams_per_match=streams_per_match,
        probe=readable(current.db, min(current.lock_timeout, DEADLINE_SECONDS)),
    )

    def announce() -> None:
        reached = f" (reached as {base_url})" if base_url else ""
        say(f"serving {reader.location} on {listening}{reached}; Ctrl-C or SIGTERM stops")

    from .service.deliveries import Deliveries  # posts to the hooks (`hook add`), off the event loop

    deliveries = Deliveries(writable(current.db, current.lock_timeout)).start()  # daemon threads
    from .service.ontime import serve_deadlines  # rounds closed at their deadlines, the hosts told

    on_time = serve_deadlines(writable(current.db, current.lock_timeout), deliveries)
    run(
        asgi,
        service.live.close,
        sock,
        announce,
        limits=ConnectionLimits(read_seconds=read_timeout, connections=connections, on_refusal=_log_refusal),
        proxies=proxies,
        limit_concurrency=limit_concurrency,
    )
    on_time.stop()
    deliveries.stop()
    say("stopped", err=True)


def _log_refusal(client: str | None) -> None:
    """A connection refused past --max-connections: answered 503 before a request was
    read, so this record, not an access record, says so (and why)."""
    logs.log().info("connection_refused", status=503, reason="connection limit", client=client)


def _record_address(current, url: str, *, given: bool) -> None:
    """Record where this service is reached, for the links `invite` prints (after
    ``--port 0``, the port the system gave), beside the capabilities, never in the log.
    A database this process may not write is served all the same: the host is told that
    `invite` needs --base-url."""
    from matchledger.ledger.errors import MatchledgerError
    from matchledger.ledger.service_addresses import is_wildcard

    from .errors import message
    from .service import writable

    if not given and is_wildcard(url):
        return say(
            f"serve listens on every interface ({url}), which no browser can go to, so it recorded no address "
            "for invite's links: run serve with --base-url URL (the address participants reach it at), "
            "or give invite --base-url",
            err=True,
        )

    try:
        application = writable(current.db, current.lock_timeout)()
    except MatchledgerError as exc:
        return _not_recorded(url, message(exc))
    try:
        application.record_service_address(url, given=given)
    except MatchledgerError as exc:
        application.close()
        return _not_recorded(url, message(exc))
    try:
        kept = application.service_address()
    except MatchledgerError:
        kept = None  # one that is no address: invite names it
    finally:
        application.close()
    if kept is not None and kept.url != url:  # a --base-url recorded before wins over a port listened on
        say(
            f"invite's links lead to {kept.url}, the address serve was given (--base-url) at {kept.recorded_at}, "
            f"not to {url}; serve --base-url URL records another",
            err=True,
        )


def _not_recorded(url: str, why: str) -> None:
    say(f"the address {url} was not recorded for invite's links ({why}); give invite --base-url", err=True)

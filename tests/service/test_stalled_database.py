"""A database that stops answering stalls no route of `serve` (docs/service.md, "Reads"):
every read runs on the reading thread, never the event loop, and waits for the database
at most ``reading.DEADLINE_SECONDS``.  Measured before: with the server's processes of
the database paused, every request of the `serve` process (static files, the OpenAPI,
other matches) waited for as long as the pause lasted.

Here the server processes that serve this test's database (its backends, not the
postmaster: other tests share the cluster) are paused with SIGSTOP for the length of
the test's checks, and continued after.  While paused: what needs no database
(``/healthz``, the static files) and the public's answers kept while changes are pushed
are answered; a request that must read (a participant's token is checked on every
request) is refused with 503 and ``Retry-After``, its access record naming why.  Then
the database answers again, and so does everything."""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator

import httpx
import pytest

from tests.postgres.support import listeners, until

from .support import Server, bearer, invite
from .test_pushed_changes import SLOW_POLL, own_database  # noqa: F401  # a fixture

#: Longer than any answer may take while paused: an answer that waits out the pause fails.
PAUSE_GUARD_SECONDS = 15.0


def backends(postgres_server, database: str) -> list[int]:
    """The server processes of every connection to ``database`` (every `serve` reader,
    listener and writer), not the admin connection that asks."""
    with postgres_server.admin() as conn:
        return [
            pid
            for (pid,) in conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", (database,)
            ).fetchall()
        ]


@contextlib.contextmanager
def paused(pids: list[int]) -> Iterator[None]:
    """The processes ``pids`` stopped (SIGSTOP) until the block ends, continued whatever happens."""
    stopped = []
    try:
        for pid in pids:
            os.kill(pid, signal.SIGSTOP)
            stopped.append(pid)
        yield
    finally:
        for pid in stopped:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)


@pytest.mark.guarantee("service.database-deadline")
def test_a_paused_database_stalls_no_route_kept_answers_are_answered_and_reads_are_refused_with_503(
    postgres_server,
    own_database,  # the fixture imported above
    tmp_path,
):
    url, name = own_database
    link = invite(url, "m1", "--as", "ann")["token"]
    with Server(url, folder=tmp_path, poll=SLOW_POLL) as server:
        assert until(lambda: len(listeners(postgres_server, name)) == 1)
        client = httpx.Client(base_url=server.url, timeout=PAUSE_GUARD_SECONDS)
        kept = {path: client.get(path) for path in ("/m/m1", "/api/v1/matches/m1/public", "/api/v1/matches/m1/head")}
        assert all(answer.status_code == 200 for answer in kept.values())
        assert client.get("/api/v1/matches/m1/me", headers=bearer(link)).status_code == 200
        with paused(backends(postgres_server, name)):
            assert client.get("/healthz").status_code == 200
            assert client.get("/assets/service.css").status_code == 200
            for path, before in kept.items():  # read before the pause, kept: answered from what was kept
                answer = client.get(path)
                assert (answer.status_code, answer.content) == (200, before.content), path
            me = client.get("/api/v1/matches/m1/me", headers=bearer(link))  # its token must be looked up
            assert me.status_code == 503 and me.headers["retry-after"] == "2"
            assert me.json()["type"].endswith(":busy") and name not in me.text and "postgres" not in me.text
            page = client.get(f"/p/{link}")
            assert page.status_code == 503 and "try again" in page.text
            unknown = client.get("/m/never-read")  # nothing kept of it: it must be read
            assert unknown.status_code == 503
            assert client.get("/healthz").status_code == 200  # the loop is free
        assert until(lambda: client.get("/api/v1/matches/m1/me", headers=bearer(link)).status_code == 200)
        assert client.get("/m/never-read").status_code == 404
        reasons = [record.get("reason") for record in server.log_records() if record.get("status") == 503]
        assert reasons and all(reason == "database did not answer within 2 s" for reason in reasons), reasons
        client.close()

"""Pushed changes on PostgreSQL (docs/service.md, "Reads"): a `serve` process listens for
what its database's triggers announce, re-reads only the matches that moved, and keeps
checking a link on every request that carries it.  Each test has a database of its own
(its connections may be ended, and another database of the same server written to),
and a real `serve` process whose poll is as slow as it may be (``--poll 10``), so that
what a page shows within the tests' guards came from a pushed change."""

from __future__ import annotations

import psycopg
import pytest

from matchledger.engine.commands import Reopen
from matchledger.ledger.postgres_listen import APPLICATION_NAME
from matchledger.projections.application import Application
from tests.helpers import invoke
from tests.postgres.support import listeners, until

from .support import STUDIO, Server, bearer, events, invite

ROUND_1 = {"ann": ["G4", "A1", "B1", "C1", "D1"], "bob": ["F2", "A1", "B1", "C1", "D1"]}
#: The slowest poll `serve` takes: a page that changes sooner was pushed the change.
SLOW_POLL = 10.0


@pytest.fixture
def own_database(postgres_server):
    """A database of this test's own with an lca match m1 in round 1, and its name."""
    name = postgres_server.create_database("pushed")
    url = postgres_server.url(name)
    invoke(url, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    try:
        yield url, name
    finally:
        with postgres_server.admin() as conn:
            conn.execute(f"ALTER DATABASE {name} WITH ALLOW_CONNECTIONS true")
        postgres_server.drop_database(name)


def round_1_submitted(url: str) -> None:
    for who, cells in ROUND_1.items():
        invoke(url, "submit", "m1", who, *cells)


@pytest.mark.guarantee("service.live")
def test_a_hosts_close_from_the_command_line_wakes_a_public_page_served_from_postgresql(
    postgres_server, own_database, tmp_path
):
    url, name = own_database
    round_1_submitted(url)
    with Server(url, folder=tmp_path, poll=SLOW_POLL) as server, server.client.stream("GET", "/m/m1/events") as public:
        [(kind, first)] = events(public, 1)
        assert kind == "view" and "round 1 (lights)" in first["live"]
        assert until(lambda: len(listeners(postgres_server, name)) == 1)
        invoke(url, "close", "m1")  # the host, in a process of its own
        [(kind, closed)] = events(public, 1)
        assert kind == "view" and "round 2 (cameras)" in closed["live"]


@pytest.mark.guarantee("service.live")
def test_a_commit_to_another_database_of_the_server_makes_serve_read_no_kept_match_again(
    postgres_server, own_database, tmp_path
):
    """Measured before pushed changes: one commit to another database while our events
    table was locked stalled every route (each kept match was read again, and waited for
    the lock).  Now the match kept is answered from what was kept, and the link checked
    (its table is not locked): no reader of `serve` waits for the lock."""
    url, name = own_database
    link = invite(url, "m1", "--as", "ann")["token"]
    elsewhere = postgres_server.create_database("elsewhere")
    try:
        other_url = postgres_server.url(elsewhere)
        with Server(url, folder=tmp_path, poll=SLOW_POLL) as server:
            assert until(lambda: len(listeners(postgres_server, name)) == 1)
            public = server.client.get("/api/v1/matches/m1/public")
            me = server.client.get("/api/v1/matches/m1/me", headers=bearer(link))
            assert public.status_code == me.status_code == 200
            with psycopg.connect(url) as locker:
                locker.execute("LOCK TABLE events IN ACCESS EXCLUSIVE MODE")  # held until the block ends
                invoke(other_url, "new", "lca", "x1", "--players", "ann,bob", "--studio", STUDIO)
                again = server.client.get("/api/v1/matches/m1/public")
                me_again = server.client.get("/api/v1/matches/m1/me", headers=bearer(link))
                with postgres_server.admin(name) as admin:
                    waiting = admin.execute(
                        "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
                        "WHERE NOT l.granted AND a.application_name IS DISTINCT FROM %s",
                        (APPLICATION_NAME,),  # the safety net may look at the heads, on its own thread
                    ).fetchone()[0]
                locker.rollback()
        assert (again.status_code, again.content) == (200, public.content)
        assert (me_again.status_code, me_again.content) == (200, me.content)
        assert waiting == 0
    finally:
        postgres_server.drop_database(elsewhere)


@pytest.mark.guarantee("service.live")
def test_a_listening_connection_ended_is_opened_again_and_a_commit_made_meanwhile_is_seen(
    postgres_server, own_database, tmp_path
):
    url, name = own_database
    round_1_submitted(url)
    invoke(url, "close", "m1")
    writer = Application.open(url)  # opened now: no new connection may be made while the listener is away
    try:
        with (
            Server(url, folder=tmp_path, poll=SLOW_POLL) as server,
            server.client.stream("GET", "/m/m1/events") as public,
        ):
            [(_kind, first)] = events(public, 1)
            assert "round 2 (cameras)" in first["live"]
            assert until(lambda: len(listeners(postgres_server, name)) == 1)
            [pid] = listeners(postgres_server, name)
            with postgres_server.admin() as admin:
                admin.execute(f"ALTER DATABASE {name} WITH ALLOW_CONNECTIONS false")
                admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            assert until(lambda: listeners(postgres_server, name) == [])
            writer.execute("m1", Reopen(reason="recount"), actor="host")  # while nobody listens
            with postgres_server.admin() as admin:
                admin.execute(f"ALTER DATABASE {name} WITH ALLOW_CONNECTIONS true")
            [(_kind, reopened)] = events(public, 1)  # seen once it listens again (or by the poll meanwhile)
            assert "round 1 (lights)" in reopened["live"]
            assert until(lambda: len(listeners(postgres_server, name)) == 1)
            assert listeners(postgres_server, name) != [pid]
            invoke(url, "close", "m1")  # pushed again
            [(_kind, closed)] = events(public, 1)
            assert "round 2 (cameras)" in closed["live"]
    finally:
        writer.close()


@pytest.mark.guarantee("service.tokens-scoped")
def test_a_revocation_on_postgresql_refuses_the_very_next_request(postgres_server, own_database, tmp_path):
    """NOTIFY is asynchronous: the link is checked against the database for the request
    that carries it (a look at its change token), not when its revocation is announced."""
    url, name = own_database
    link = invite(url, "m1", "--as", "ann", "--submit")["token"]
    with Server(url, folder=tmp_path, poll=SLOW_POLL) as server:
        assert until(lambda: len(listeners(postgres_server, name)) == 1)
        for _ in range(2):  # the second answered from the grant kept
            assert server.client.get("/api/v1/matches/m1/me", headers=bearer(link)).status_code == 200
        invoke(url, "revoke", link)
        assert server.client.get("/api/v1/matches/m1/me", headers=bearer(link)).status_code == 401
        refused = server.client.post(
            "/api/v1/matches/m1/submissions", json={"tokens": ROUND_1["ann"]}, headers=bearer(link)
        )
        assert refused.status_code == 401

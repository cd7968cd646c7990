"""One `serve` process on the PostgreSQL back end (the session's throwaway server; skipped,
saying why, where none can be started): a participant reads and submits through their
link, the receipt is proven on the command line, and the public's live page follows the
host's close from the command line in another process.  (Two `serve` processes on one
database: tests/service/test_concurrency.py.)"""

from __future__ import annotations

import threading
import time

import httpx
import psycopg
import pytest

from matchledger.ledger.postgres_database import LOCK_SPACE
from tests.helpers import invoke

from .support import STUDIO, Server, bearer, cli_json, events, invite

ROUND_1 = {"ann": ["G4", "A1", "B1", "C1", "D1"], "bob": ["F2", "A1", "B1", "C1", "D1"]}


@pytest.mark.guarantee("service.postgres")
def test_serve_on_postgresql_records_a_participants_submission_and_follows_the_hosts_close(postgres_url, tmp_path):
    invoke(postgres_url, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    link = invite(postgres_url, "m1", "--as", "ann", "--submit")
    with Server(postgres_url, folder=tmp_path) as server, server.client.stream("GET", "/m/m1/events") as public:
        [(kind, first)] = events(public, 1)
        assert kind == "view" and "round 1 (lights)" in first["live"]
        answer = server.client.post(
            "/api/v1/matches/m1/submissions", json={"tokens": ROUND_1["ann"]}, headers=bearer(link["token"])
        )
        assert answer.status_code == 201, answer.text
        receipt = f"{answer.json()['seq']}:{answer.json()['hash']}"
        assert "1 receipt in the verified chain" in invoke(postgres_url, "verify", "m1", "--receipt", receipt).output
        me = server.client.get("/api/v1/matches/m1/me", headers=bearer(link["token"])).json()
        assert me == {"participant": "ann", "knowledge": cli_json(postgres_url, "knowledge", "m1", "--as", "ann")}
        invoke(postgres_url, "submit", "m1", "bob", *ROUND_1["bob"])
        invoke(postgres_url, "close", "m1")  # the host, from the command line
        [(kind, closed)] = events(public, 1)  # bob's submission sent the public nothing
        assert kind == "view" and "round 2 (cameras)" in closed["live"] and "F2" in closed["live"]
        assert receipt in server.client.get(f"/p/{link['token']}").text
        invoke(postgres_url, "revoke", link["token"])
        assert server.client.get("/api/v1/matches/m1/me", headers=bearer(link["token"])).status_code == 401


@pytest.fixture
def own_database(postgres_server):
    """A database of this test's own, whose connections may be ended without touching
    another test's; an lca match in round 1 in it."""
    name = postgres_server.create_database("own")
    url = postgres_server.url(name)
    invoke(url, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    try:
        yield url, name
    finally:
        postgres_server.drop_database(name)


def end_connections(postgres_server, name: str) -> int:
    """What a restart of the server, a failover or an idle timeout does to them."""
    with postgres_server.admin() as conn:
        return len(
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                (name,),
            ).fetchall()
        )


@pytest.mark.guarantee("service.postgres")
def test_serve_answers_again_once_its_connections_were_ended_and_says_503_meanwhile(
    postgres_server, own_database, tmp_path
):
    url, name = own_database
    link = invite(url, "m1", "--as", "ann", "--submit")["token"]
    with Server(url, folder=tmp_path) as server:
        assert server.client.get("/api/v1/matches/m1/head").status_code == 200
        assert end_connections(postgres_server, name) >= 1
        answers = [server.client.get("/api/v1/matches/m1/head") for _ in range(2)]
        submitted = server.client.post(
            "/api/v1/matches/m1/submissions", json={"tokens": ROUND_1["ann"]}, headers=bearer(link)
        )
        if submitted.status_code == 503:  # the writer's own connection was the one that noticed
            submitted = server.client.post(
                "/api/v1/matches/m1/submissions", json={"tokens": ROUND_1["ann"]}, headers=bearer(link)
            )
    # the first read after the cut may find the connection gone (503, saying nothing of
    # the server); the next opens another
    assert answers[-1].status_code == 200
    assert all(
        a.status_code == 200 or (a.status_code == 503 and name not in a.text and "Retry-After" in a.headers)
        for a in answers
    )
    assert submitted.status_code == 201, submitted.text


@pytest.mark.guarantee("service.postgres")
def test_the_first_reads_after_the_servers_connections_were_ended_are_answered_not_refused(
    postgres_server, own_database, tmp_path
):
    """A read is asked once more on a connection opened again (issue 29: the first GET
    after a restart answered 503 although the server was back)."""
    url, name = own_database
    link = invite(url, "m1", "--as", "ann")["token"]
    with Server(url, folder=tmp_path) as server:
        assert server.client.get(f"/p/{link}").status_code == 200
        # A token is looked up on every request, so /me reads; /head may be answered from
        # what was kept, without any connection, while changes are pushed.
        me, head = ("/api/v1/matches/m1/me", bearer(link)), ("/api/v1/matches/m1/head", {})
        for path, headers in [me, head, me]:
            assert end_connections(postgres_server, name) >= 1
            answer = server.client.get(path, headers=headers)
            assert answer.status_code == 200, (path, answer.status_code, answer.text)


@pytest.mark.guarantee("service.tokens-scoped")
def test_a_revocation_made_while_a_submission_waits_for_the_matchs_lock_stops_it(own_database, tmp_path):
    """On PostgreSQL the match's lock is taken only to append: the link is checked again
    once it is held."""
    url, _name = own_database
    link = invite(url, "m1", "--as", "ann", "--submit")["token"]
    answer: dict = {}
    with Server(url, folder=tmp_path) as server, psycopg.connect(url) as other_writer:
        other_writer.execute(
            "SELECT pg_advisory_xact_lock(%s, hashtext(current_schema() || '.' || %s))", (LOCK_SPACE, "m1")
        )

        def submit() -> None:
            with httpx.Client(base_url=server.url, timeout=30) as client:
                answer["response"] = client.post(
                    "/api/v1/matches/m1/submissions", json={"tokens": ROUND_1["ann"]}, headers=bearer(link)
                )

        thread = threading.Thread(target=submit)
        thread.start()
        with psycopg.connect(url, autocommit=True) as look:
            deadline = time.monotonic() + 10
            while not look.execute(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            ).fetchone()[0]:
                assert time.monotonic() < deadline, "the submission never waited for the match's lock"
                time.sleep(0.05)
        assert "revoked" in invoke(url, "revoke", link).output
        other_writer.rollback()  # the other writer is done with the match
        thread.join(30)
    assert answer["response"].status_code == 401, answer["response"].text
    assert not [row for row in cli_json(url, "log", "m1") if row["kind"] == "SubmissionRecorded"]

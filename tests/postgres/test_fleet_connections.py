"""How many connections one `serve` process holds on PostgreSQL, counted on a real
process as docs/deploy.md ("Sizing a fleet") counts them from the code: the reader,
the listening connection, the deadline thread's and the hook scanner's from the start;
the writer's from the first submission; a hook sender's from its first post (none
here); a readiness probe's only while it runs."""

from __future__ import annotations

import pytest

from matchledger.ledger.postgres_listen import APPLICATION_NAME
from tests.helpers import invoke
from tests.service.support import STUDIO, Server, bearer, invite

from .support import until

pytestmark = pytest.mark.guarantee("postgres.connections")

#: docs/deploy.md, "Sizing a fleet": held from the start (reader, listener, deadlines,
#: hook scanner), and once the first submission was written (the writer).
AT_START = 4
AFTER_A_SUBMISSION = 5


@pytest.fixture
def own_database(postgres_server):
    name = postgres_server.create_database("fleet")
    try:
        yield postgres_server.url(name), name
    finally:
        postgres_server.drop_database(name)


def held(postgres_server, database: str) -> list[str]:
    """The application names of the connections to ``database``, but the one asking."""
    with postgres_server.admin() as conn:
        return sorted(
            name
            for (name,) in conn.execute(
                "SELECT application_name FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                (database,),
            ).fetchall()
        )


def test_a_serve_process_holds_the_connections_the_sizing_counts(postgres_server, own_database, tmp_path):
    url, name = own_database
    invoke(url, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    ann = invite(url, "m1", "--as", "ann", "--submit")["token"]
    with Server(url, folder=tmp_path) as server:
        assert until(lambda: len(held(postgres_server, name)) == AT_START), held(postgres_server, name)
        assert held(postgres_server, name).count(APPLICATION_NAME) == 1  # the listener, one per process
        assert server.client.get("/readyz").status_code == 200  # its probe's connection is closed after it
        answer = server.client.post(
            "/api/v1/matches/m1/submissions", json={"tokens": ["G4", "A1", "B1", "C1", "D1"]}, headers=bearer(ann)
        )
        assert answer.status_code == 201, answer.text
        assert until(lambda: len(held(postgres_server, name)) == AFTER_A_SUBMISSION), held(postgres_server, name)
    assert until(lambda: held(postgres_server, name) == [])  # all given back when it stops

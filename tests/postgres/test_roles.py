"""The set-up docs/deploy.md advises: the tables owned by one role (which made them with
`matchledger init`), hosts logging in as a role that may only read and append.  Such a
host records and reads everything a host does, and cannot change or remove an event
even by switching the triggers off (only a table's owner may)."""

from __future__ import annotations

import json

import psycopg
import pytest

from tests.helpers import REPO, invoke
from tests.service.support import STUDIO, Server, bearer

PASSWORD = "host-Pa55"
GRANTS = """
GRANT USAGE ON SCHEMA {schema} TO {role};
GRANT SELECT, INSERT ON events TO {role};
GRANT SELECT, INSERT, UPDATE ON snapshots TO {role};
GRANT SELECT ON matchledger_schema, events_json TO {role};
GRANT SELECT, INSERT, UPDATE ON capabilities TO {role};
GRANT SELECT, INSERT, UPDATE ON service_addresses TO {role};
GRANT SELECT, INSERT, UPDATE ON hooks, hook_deliveries TO {role};
"""


def test_these_are_the_grants_docs_deploy_md_gives():
    page = (REPO / "docs" / "deploy.md").read_text()
    for line in GRANTS.strip().splitlines():
        assert line.format(schema="public", role="league_host").rstrip(";") in page, line


@pytest.fixture
def host_role(postgres_server):
    role = f"host_{postgres_server._new_name('r')}"
    with postgres_server.admin() as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN PASSWORD '{PASSWORD}'")
    yield role
    with postgres_server.admin(postgres_server.tests_database) as conn:
        conn.execute(f"DROP OWNED BY {role} CASCADE")  # its grants, where they were given
        conn.execute(f"DROP ROLE {role}")


def granted(postgres_url: str, host_role: str) -> str:
    """The tables made by their owner (`init`), ``host_role`` granted what docs/deploy.md
    grants; the URL the host logs in with."""
    invoke(postgres_url, "init")
    schema = postgres_url.rsplit("%3D", 1)[1]
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(GRANTS.format(schema=schema, role=host_role))
    return postgres_url.replace("postgresql://postgres@", f"postgresql://{host_role}:{PASSWORD}@")


@pytest.mark.guarantee("postgres.least-privilege")
def test_a_host_who_may_only_read_and_append_records_everything_and_can_change_nothing(
    postgres_url, host_role, monkeypatch
):
    host = granted(postgres_url, host_role)
    monkeypatch.chdir(REPO)
    invoke(host, "script", "fixtures/photographer/g3-sunset.txt")  # a finished match: its snapshot written
    invoke(host, "checkpoint", "g3")  # and replaced
    invoke(host, "note", "g3", "well played")
    assert invoke(host, "verify", "--all").output.startswith("g3: ok")
    for statement in (
        "DELETE FROM events",
        "UPDATE events SET body = body",
        "TRUNCATE events",
        "ALTER TABLE events DISABLE TRIGGER USER",
        "DROP TABLE events",
    ):
        with psycopg.connect(host) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(statement)
    assert invoke(postgres_url, "head", "g3", "--json").stdout == invoke(host, "head", "g3", "--json").stdout


@pytest.mark.guarantee("postgres.least-privilege")
def test_such_a_host_invites_revokes_and_serves_links(postgres_url, host_role, tmp_path):
    host = granted(postgres_url, host_role)
    invoke(host, "new", "lca", "r1", "--players", "ann,bob", "--studio", STUDIO)
    token = json.loads(invoke(host, "invite", "r1", "--as", "ann", "--submit", "--json").stdout)["token"]
    with Server(host, folder=tmp_path) as server:
        assert server.client.get("/api/v1/matches/r1/me", headers=bearer(token)).status_code == 200
        submitted = server.client.post(
            "/api/v1/matches/r1/submissions", headers=bearer(token), json={"tokens": ["G4", "A1", "B1", "C1", "D1"]}
        )
        assert submitted.status_code == 201, submitted.text
        assert "revoked" in invoke(host, "revoke", token).output
        assert server.client.get("/api/v1/matches/r1/me", headers=bearer(token)).status_code == 401

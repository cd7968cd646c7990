"""What a host sees when the database is not there: an unreachable server, a login
refused, a missing database or a database without our tables.  Each is one line on
stderr, exit 1, no traceback, and no password, whether the URL comes from --db or
MATCHLEDGER_DB; the URL is named without its password."""

from __future__ import annotations

import os
import subprocess
import sys

import psycopg
import pytest

from matchledger.ledger.postgres_urls import printable_url, secrets_of
from matchledger.testing.postgres_server import _free_port
from tests.helpers import REPO

PASSWORD = "s3cret-Pa55"


def run(db: str, *args: str, via_environment: bool = False) -> subprocess.CompletedProcess:
    """The real console command in a process of its own (what a host types)."""
    env = dict(os.environ, MATCHLEDGER_ACTOR="host")
    argv = [sys.executable, "-m", "matchledger", *(() if via_environment else ("--db", db)), *args]
    if via_environment:
        env["MATCHLEDGER_DB"] = db
    return subprocess.run(argv, capture_output=True, text=True, env=env, cwd=REPO, timeout=60)


@pytest.fixture(scope="module")
def login_role(postgres_server):
    """A role that must give its password (``trust`` is only for the superuser)."""
    with postgres_server.admin() as conn:
        conn.execute(f"CREATE ROLE ledger_host LOGIN PASSWORD '{PASSWORD}'")
    yield "ledger_host"
    with postgres_server.admin() as conn:
        conn.execute("DROP ROLE ledger_host")


def cases(server, role: str, empty_url: str) -> dict[str, tuple[str, str]]:
    """name: (URL, what the one line must say)."""
    port = _free_port()  # nothing listens there
    database = server.tests_database
    return {
        "unreachable server": (
            f"postgresql://{role}:{PASSWORD}@127.0.0.1:{port}/{database}",
            f"Error: cannot connect to 'postgresql://{role}@127.0.0.1:{port}/{database}': Connection refused",
        ),
        "wrong password": (
            f"postgresql://{role}:not-{PASSWORD}@127.0.0.1:{server.port}/{database}",
            f"Error: cannot connect to 'postgresql://{role}@127.0.0.1:{server.port}/{database}': "
            f'password authentication failed for user "{role}"',
        ),
        "password as a parameter": (
            f"postgresql://{role}@127.0.0.1:{server.port}/{database}?password=not-{PASSWORD}",
            f"Error: cannot connect to 'postgresql://{role}@127.0.0.1:{server.port}/{database}': "
            f'password authentication failed for user "{role}"',
        ),
        "unknown role": (
            f"postgresql://nobody:{PASSWORD}@127.0.0.1:{server.port}/{database}",
            f"Error: cannot connect to 'postgresql://nobody@127.0.0.1:{server.port}/{database}': "
            'password authentication failed for user "nobody"',
        ),
        "missing database": (
            f"postgresql://{role}:{PASSWORD}@127.0.0.1:{server.port}/no_such_db",
            f"Error: cannot connect to 'postgresql://{role}@127.0.0.1:{server.port}/no_such_db': "
            'database "no_such_db" does not exist',
        ),
        "no tables": (
            empty_url,
            f"Error: no matchledger tables in {printable_url(empty_url)!r} (run `matchledger init` or `new` first)",
        ),
    }


@pytest.mark.parametrize(
    "case, via_environment",
    [
        *(
            (case, False)
            for case in (
                "unreachable server",
                "wrong password",
                "password as a parameter",
                "unknown role",
                "missing database",
                "no tables",
            )
        ),
        ("wrong password", True),
        ("no tables", True),
    ],
    ids=lambda value: {False: "--db", True: "MATCHLEDGER_DB"}.get(value, value) if isinstance(value, bool) else value,
)
@pytest.mark.guarantee("postgres.clear-errors")
def test_a_database_out_of_reach_is_one_line_exit_1_without_the_password(
    postgres_server, postgres_databases, login_role, case, via_environment
):
    empty = postgres_databases.url()
    url, expected = cases(postgres_server, login_role, empty)[case]
    if case == "no tables":  # the role may log in with its password, and finds nothing of ours
        with psycopg.connect(empty) as conn:
            conn.execute(f"GRANT USAGE, CREATE ON SCHEMA {empty.rsplit('%3D', 1)[1]} TO {login_role}")
        url = url.replace("postgresql://postgres@", f"postgresql://{login_role}:{PASSWORD}@")
        expected = expected.replace("postgresql://postgres@", f"postgresql://{login_role}@")
    result = run(url, "status", "m1", via_environment=via_environment)
    assert (result.returncode, result.stdout, result.stderr) == (1, "", expected + "\n")
    assert PASSWORD not in result.stderr


@pytest.mark.guarantee("postgres.clear-errors")
def test_a_write_command_out_of_reach_is_as_clear(postgres_server, login_role):
    url = f"postgresql://{login_role}:not-{PASSWORD}@127.0.0.1:{postgres_server.port}/{postgres_server.tests_database}"
    result = run(url, "new", "pw", "m1", "--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan")
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert "password authentication failed" in result.stderr and PASSWORD not in result.stderr


@pytest.mark.parametrize(
    "url, shown",
    [
        ("postgresql://ann:pw@db.example:5432/league", "postgresql://ann@db.example:5432/league"),
        ("postgres://ann:p%40ss@db.example/league?sslmode=require", "postgres://ann@db.example/league?sslmode=require"),
        (
            "postgresql://ann@db.example/league?password=pw&sslmode=require",
            "postgresql://ann@db.example/league?sslmode=require",
        ),
        ("postgresql:///league?host=/run/postgresql", "postgresql:///league?host=/run/postgresql"),
        # the password of the client's TLS key is a secret too
        (
            "postgresql://ann@db.example/league?sslpassword=S3CRETssl&sslmode=verify-full",
            "postgresql://ann@db.example/league?sslmode=verify-full",
        ),
        ("postgresql://[::1/x", "postgresql://…"),
    ],
)
@pytest.mark.guarantee("postgres.clear-errors")
def test_a_url_is_shown_without_its_password(url, shown):
    assert printable_url(url) == shown
    for secret in secrets_of(url):
        assert secret not in shown

"""`invite`'s links lead where `serve` is reached: the address a `serve` records in the
database when it starts (after ``--port 0``, the port the system gave; with
``--base-url``, that), beside the links and never in the log; a given address wins over
one listened on; an address the host types wins over both; with none recorded, the
default, and one line saying how to set it.  A hostile database's address is refused,
naming it, and no link is issued (issue 27, host side)."""

from __future__ import annotations

import json
import sqlite3

import httpx
import psycopg
import pytest

from tests.helpers import invoke

from .support import STUDIO, Server

DEFAULT = "http://127.0.0.1:8000"


@pytest.fixture
def db(tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    return db


def links_issued(db) -> int:
    return len(json.loads(invoke(db, "invite", "--list", "--json").stdout))


@pytest.mark.guarantee("service.links-address")
def test_invite_after_serve_on_a_free_port_links_to_the_port_it_listens_on(db):
    before = invoke(db, "invite", "m1", "--as", "ann")
    assert before.stdout.startswith(f"link for ann (read only) in m1: {DEFAULT}/p/")
    assert before.stderr == (
        f"links lead to {DEFAULT}: no serve has recorded its address in {str(db)!r} "
        "(run serve first, or give --base-url URL)\n"
    )
    with Server(db) as server:
        assert server.url != DEFAULT
        result = invoke(db, "invite", "m1", "--as", "ann", "--submit")
        url = result.stdout.strip().rsplit(" ", 1)[1]
        assert url.startswith(f"{server.url}/p/")
        assert result.stderr.startswith(f"links lead to {server.url}, the address serve listened on at 20")
        assert httpx.get(url, timeout=30).status_code == 200  # the link opens ann's page
        as_json = json.loads(invoke(db, "invite", "m1", "--auditor", "--json").stdout)
        assert as_json["url"] == f"{server.url}/a/{as_json['token']}"
        assert httpx.get(as_json["url"], timeout=30).status_code == 200
    assert "the address" not in server.log()  # nothing to say: it was recorded
    exported = invoke(db, "export", "m1").stdout
    assert server.url.rsplit(":", 1)[1] not in exported  # not a fact of the match


@pytest.mark.guarantee("service.links-address")
def test_a_given_base_url_wins_over_a_port_a_later_serve_listens_on(db, monkeypatch):
    with Server(db, "--base-url", "https://games.example.org/league/"):
        pass
    with Server(db) as server:
        pass
    assert (
        "invite's links lead to https://games.example.org/league, the address serve was given (--base-url) at 20"
    ) in server.log()
    assert f"not to {server.url}; serve --base-url URL records another" in server.log()
    result = invoke(db, "invite", "m1", "--as", "bob")
    assert result.stdout.startswith("link for bob (read only) in m1: https://games.example.org/league/p/")
    assert "the address serve was given (--base-url) at" in result.stderr
    # what the host types wins, and needs no word
    told = invoke(db, "invite", "m1", "--as", "bob", "--base-url", "https://elsewhere.example.org")
    assert told.stdout.startswith("link for bob (read only) in m1: https://elsewhere.example.org/p/")
    assert told.stderr == ""
    monkeypatch.setenv("MATCHLEDGER_BASE_URL", "https://env.example.org")
    from_env = invoke(db, "invite", "m1", "--as", "bob")
    assert from_env.stdout.startswith("link for bob (read only) in m1: https://env.example.org/p/")
    assert from_env.stderr == ""


@pytest.mark.guarantee("service.links-address")
@pytest.mark.parametrize(
    "url, shown",
    [
        ("javascript:alert(1)", "'javascript:alert(1)'"),
        ("http://games.example.org/\x1b[2J", "'http://games.example.org/\\x1b[2J'"),
        ("http://x.example.org/?next=evil", "'http://x.example.org/?next=evil'"),
        ("http://" + "a" * 3000, "'http://" + "a" * 73 + "'..."),
    ],
    ids=["not-http", "control-characters", "query", "too-long"],
)
def test_an_address_a_hostile_database_holds_is_refused_naming_it_and_no_link_is_issued(db, url, shown):
    invoke(db, "init")  # this version's tables
    conn = sqlite3.connect(db)
    try:
        conn.execute("INSERT INTO service_addresses VALUES ('listening', ?, '2026-01-01T00:00:00Z')", (url,))
        conn.commit()
    finally:
        conn.close()
    result = invoke(db, "invite", "m1", "--as", "ann", expect=1)
    assert result.stdout == ""
    assert result.stderr == (
        f"Error: the service address kept in {str(db)!r} is not an http(s) address of at most 2000 printable "
        f"characters: {shown}; give --base-url URL, or run serve to record its address again\n"
    )
    assert links_issued(db) == 0
    given = invoke(db, "invite", "m1", "--as", "ann", "--base-url", "https://games.example.org")
    assert given.stdout.startswith("link for ann (read only) in m1: https://games.example.org/p/")
    with Server(db):  # serve records its own over it
        pass
    assert invoke(db, "invite", "m1", "--as", "ann").stdout.startswith(
        "link for ann (read only) in m1: http://127.0.0.1:"
    )


def test_a_time_a_hostile_database_gives_its_address_is_refused_naming_it(db):
    invoke(db, "init")
    conn = sqlite3.connect(db)
    try:
        conn.execute("INSERT INTO service_addresses VALUES ('base-url', 'https://games.example.org', ?)", ("\x1b]0;x",))
        conn.commit()
    finally:
        conn.close()
    result = invoke(db, "invite", "m1", "--as", "ann", expect=1)
    assert result.stderr == (
        f"Error: the service address kept in {str(db)!r} was recorded at '\\x1b]0;x', which is no time; "
        "give --base-url URL, or run serve to record its address again\n"
    )
    assert links_issued(db) == 0


def test_a_base_url_past_the_bound_is_refused_by_serve_and_invite(db):
    long = "https://games.example.org/" + "a" * 2000
    for args in (("invite", "m1", "--as", "ann", "--base-url", long), ("serve", "--base-url", long)):
        result = invoke(db, *args, expect=2)
        assert "at most 2000 characters" in result.output and long not in result.output


# --------------------------------------------------------------------------- PostgreSQL


@pytest.mark.guarantee("service.links-address")
def test_invite_after_serve_on_postgresql_links_to_the_port_it_listens_on(postgres_url, tmp_path):
    invoke(postgres_url, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    with Server(postgres_url, folder=tmp_path) as server:
        url = invoke(postgres_url, "invite", "m1", "--as", "ann").stdout.strip().rsplit(" ", 1)[1]
        assert url.startswith(f"{server.url}/p/")
        assert httpx.get(url, timeout=30).status_code == 200


@pytest.fixture
def role_without_the_address(postgres_server, postgres_url):
    """A host role granted what docs/deploy.md granted before ``service_addresses``: a
    deployment whose owner migrated the tables without granting the new one."""
    from tests.postgres.test_roles import GRANTS, PASSWORD

    role = f"host_{postgres_server._new_name('r')}"
    with postgres_server.admin() as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN PASSWORD '{PASSWORD}'")
    invoke(postgres_url, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    schema = postgres_url.rsplit("%3D", 1)[1]
    grants = "".join(line + "\n" for line in GRANTS.splitlines() if "service_addresses" not in line)
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(grants.format(schema=schema, role=role))
    yield postgres_url.replace("postgresql://postgres@", f"postgresql://{role}:{PASSWORD}@")
    with postgres_server.admin(postgres_server.tests_database) as conn:
        conn.execute(f"DROP OWNED BY {role} CASCADE")
        conn.execute(f"DROP ROLE {role}")


def test_a_host_role_not_granted_the_address_serves_and_invites_saying_so(role_without_the_address, tmp_path):
    host = role_without_the_address
    with Server(host, folder=tmp_path) as server:
        assert server.client.get("/m/m1").status_code == 200
        result = invoke(host, "invite", "m1", "--as", "ann")
    assert "was not recorded for invite's links (cannot write to" in server.log()
    assert "permission denied for table service_addresses); give invite --base-url" in server.log()
    assert result.stdout.startswith(f"link for ann (read only) in m1: {DEFAULT}/p/")
    assert result.stderr.startswith(f"links lead to {DEFAULT}: the address serve recorded was not read (")

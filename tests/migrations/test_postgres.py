"""PostgreSQL tables of every earlier layout (tests/migrations/layouts.py) are read as they
are and written by this matchledger, every event's bytes and hash as they were and verify
passing; a migration runs by the first write, once, under the schema's lock, never by a
read, and one that fails (or that a host role may not run) leaves the tables as they
were.  (Tables of a newer version: tests/postgres/test_schema.py.)"""

from __future__ import annotations

import threading

import psycopg
import pytest

from matchledger.ledger import migrations
from matchledger.ledger.errors import UnwritableDatabase
from matchledger.ledger.events import NoteAdded
from matchledger.ledger.migrations import Migration
from matchledger.ledger.postgres_urls import printable_url
from matchledger.ledger.stores import open_store
from matchledger.projections.application import Application
from tests.helpers import invoke
from tests.postgres.support import plain, relations

from .layouts import POSTGRES_LAYOUTS
from .support import verdicts, verified

T = "2026-01-01T00:00:00.000000Z"
OURS = [
    "capabilities",
    "capabilities_pkey",
    "events",
    "events_json",
    "events_pkey",
    "hook_deliveries",
    "hook_deliveries_pkey",
    "hooks",
    "hooks_pkey",
    "matchledger_append_only",
    "matchledger_notify",
    "matchledger_schema",
    "service_addresses",
    "service_addresses_pkey",
    "snapshots",
    "snapshots_pkey",
]


def postgres_database(url: str, layout: str, tables: dict[str, list[tuple]]) -> None:
    """Tables of ``layout`` holding ``tables``' rows (those of a table the layout lacks
    are left out), as that release left them."""
    with psycopg.connect(url) as conn:
        conn.execute(POSTGRES_LAYOUTS[layout][1])
        held = {name for (name,) in conn.execute("SELECT relname FROM pg_class WHERE relkind = 'r'")}
        for table, rows in tables.items():
            if table in held and rows:
                marks = ", ".join(["%s"] * len(rows[0]))
                if table == "capabilities":  # SQLite keeps can_submit as 0 or 1
                    rows = [(*row[:4], bool(row[4]), *row[5:]) for row in rows]
                with conn.cursor() as cursor:
                    cursor.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)


def table_rows(url: str) -> dict[str, list[tuple]]:
    found = {}
    for table in ("events", "snapshots", "capabilities"):
        if table in relations(url):
            found[table] = [
                tuple(bytes(value) if isinstance(value, memoryview) else value for value in row)
                for row in plain(url, f"SELECT * FROM {table} ORDER BY 1, 2")
            ]
    return found


def version(url: str) -> list[tuple]:
    return plain(url, "SELECT version FROM matchledger_schema")


@pytest.fixture(params=list(POSTGRES_LAYOUTS))
def earlier(request, postgres_url, season_tables):
    postgres_database(postgres_url, request.param, season_tables)
    return postgres_url


def test_every_earlier_layout_is_of_a_version_this_matchledger_reads():
    assert migrations.postgres_version() == 4
    assert [m.version for m in migrations.POSTGRES_MIGRATIONS] == [1, 2, 3, 4]
    assert {version for version, _script in POSTGRES_LAYOUTS.values()} <= {1, 2, 3}


@pytest.mark.guarantee("postgres.migrations")
def test_a_read_of_each_earlier_layout_reads_it_as_it_is_and_changes_nothing(earlier, season_tables):
    made, before, held = relations(earlier), table_rows(earlier), version(earlier)
    assert verified(earlier) == verdicts(season_tables)
    for args in (("status", "g3"), ("log", "amend5"), ("invite", "--list"), ("export", "amend5")):
        invoke(earlier, *args)
    assert held[0][0] < migrations.postgres_version()
    assert (relations(earlier), table_rows(earlier), version(earlier)) == (made, before, held)
    assert before["events"] == season_tables["events"]


@pytest.mark.guarantee("postgres.migrations")
def test_this_matchledger_writes_each_earlier_layout_and_keeps_every_event(earlier, season_tables):
    invoke(earlier, "note", "g3", "after the upgrade")
    invoke(earlier, "invite", "amend5", "--auditor")  # the links' table, made where it is missing
    after = table_rows(earlier)
    assert after["events"][: len(season_tables["events"])] == season_tables["events"]  # every byte, every hash
    assert [row[2] for row in after["events"][len(season_tables["events"]) :]] == ["NoteAdded"]
    assert verified(earlier) == verdicts(season_tables, g3=1)
    assert (relations(earlier), version(earlier)) == (OURS, [(migrations.postgres_version(),)])


# --------------------------------------------------------------------------- the mechanism, with a next version

#: The version of the tables this matchledger writes, before a test adds the next.
CURRENT = migrations.postgres_version()


def next_version(monkeypatch, step=None) -> list[int]:
    """Add a migration of this test's own after this matchledger's (``step``, or one
    that comments on the events table); the versions it migrated databases from."""
    calls = []

    def comment(conn):
        calls.append(conn.execute("SELECT max(version) FROM matchledger_schema").fetchone()[0])
        conn.execute("COMMENT ON TABLE events IS 'migrated'")
        threading.Event().wait(0.05)  # long enough for other writers to arrive meanwhile

    migration = Migration(CURRENT + 1, "test", step or comment)
    monkeypatch.setattr(migrations, "POSTGRES_MIGRATIONS", (*migrations.POSTGRES_MIGRATIONS, migration))
    return calls


def comment(url: str) -> list[tuple]:
    return plain(url, "SELECT obj_description('events'::regclass, 'pg_class')")


@pytest.fixture
def one(postgres_url):
    """Tables of this version, with a match."""
    invoke(postgres_url, "new", "toy", "m1", "--players", "a,b")
    return postgres_url


@pytest.mark.guarantee("postgres.migrations")
def test_a_read_of_the_version_before_does_not_migrate(one, monkeypatch):
    calls = next_version(monkeypatch)
    invoke(one, "status", "m1")
    open_store(one, read_only=True).close()
    assert (version(one), comment(one), calls) == ([(CURRENT,)], [(None,)], [])


@pytest.mark.guarantee("postgres.migrations")
def test_writers_at_once_migrate_the_tables_once(one, monkeypatch):
    calls = next_version(monkeypatch)
    errors, start = [], threading.Barrier(4)

    def first_write(n: int) -> None:
        try:
            start.wait()
            store = open_store(one)
            try:
                store.append(f"w{n}", 1, [NoteAdded(text="hello")], actor="host", recorded_at=T)
            finally:
                store.close()
        except Exception as exc:  # any failure of the guarantee
            errors.append(exc)

    threads = [threading.Thread(target=first_write, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert (calls, version(one), comment(one)) == ([CURRENT], [(CURRENT + 1,)], [("migrated",)])
    reader = open_store(one, read_only=True)
    try:
        assert reader.match_ids() == ["m1", "w0", "w1", "w2", "w3"]
    finally:
        reader.close()  # not left to the collector, whose ResourceWarning would fail another test


@pytest.mark.guarantee("postgres.migrations")
def test_a_migration_that_fails_leaves_the_tables_as_they_were(one, monkeypatch):
    def failing(conn):
        conn.execute("COMMENT ON TABLE events IS 'half'")
        conn.execute("SELECT no_such_function()")

    next_version(monkeypatch, failing)
    made = relations(one)
    result = invoke(one, "note", "m1", "x", expect=1)
    assert "no_such_function" in result.output and result.output.count("\n") == 1
    assert (relations(one), version(one), comment(one)) == (made, [(CURRENT,)], [(None,)])
    assert [row[1] for row in plain(one, "SELECT match_id, seq FROM events")] == [1]


@pytest.fixture
def host_role(postgres_server):
    """A role that may read and append, as docs/deploy.md grants (tests/postgres/test_roles.py)."""
    role = f"host_{postgres_server._new_name('r')}"
    with postgres_server.admin() as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN PASSWORD 'host-Pa55'")
    yield role
    with postgres_server.admin(postgres_server.tests_database) as conn:
        conn.execute(f"DROP OWNED BY {role} CASCADE")
        conn.execute(f"DROP ROLE {role}")


@pytest.mark.guarantee("postgres.migrations")
def test_a_host_role_that_may_not_alter_the_tables_is_told_their_owner_migrates_them(one, host_role, monkeypatch):
    from tests.postgres.test_roles import GRANTS

    schema = one.rsplit("%3D", 1)[1]
    plain(one, GRANTS.format(schema=schema, role=host_role))
    host = one.replace("postgresql://postgres@", f"postgresql://{host_role}:host-Pa55@")
    next_version(monkeypatch)
    assert verified(host) == ["m1: ok (1 event"]  # a read goes on
    with pytest.raises(UnwritableDatabase) as refused:
        open_store(host)
    assert str(refused.value).startswith(
        f"cannot migrate the tables of {printable_url(host)!r} from matchledger schema version {CURRENT} to "
        f"{CURRENT + 1}: must be owner"
    )
    assert str(refused.value).endswith("; a role that may alter them (their owner) migrates them with its first write")
    assert (version(one), comment(one)) == ([(CURRENT,)], [(None,)])
    invoke(one, "init")  # the owner's write
    assert (version(one), comment(one)) == ([(CURRENT + 1,)], [("migrated",)])
    invoke(host, "note", "m1", "then the host's")


# --------------------------------------------------------------------------- the service's address (version 2)


@pytest.mark.guarantee("postgres.migrations")
def test_an_earlier_layout_keeps_the_service_address_from_its_first_write_on(earlier):
    """Read as it is, earlier tables hold no address (and no table for one); the first
    write makes the table, and an address recorded then leads `invite`'s links, never
    entering the log or an export."""
    reader = Application.open(earlier, read_only=True)
    try:
        assert reader.service_address() is None
    finally:
        reader.close()
    assert ("service_addresses" in relations(earlier)) == (version(earlier) >= [(2,)])
    exported = invoke(earlier, "export", "g3").stdout
    first = invoke(earlier, "invite", "g3", "--as", "ann")  # the first write: migrated
    assert first.stdout.startswith("link for ann (read only) in g3: http://127.0.0.1:8000/p/")
    assert "no serve has recorded its address" in first.stderr
    assert version(earlier) == [(migrations.postgres_version(),)]
    writer = Application.open(earlier)
    try:
        writer.record_service_address("https://games.example.org/league/", given=True)
    finally:
        writer.close()
    assert invoke(earlier, "invite", "g3", "--as", "ann").stdout.startswith(
        "link for ann (read only) in g3: https://games.example.org/league/p/"
    )
    assert invoke(earlier, "export", "g3").stdout == exported


# --------------------------------------------------------------------------- the hooks (version 3)


@pytest.mark.guarantee("postgres.migrations")
def test_an_earlier_layout_gets_the_hooks_tables_from_its_first_write(earlier):
    """Read as it is, earlier tables hold no hook (and no table for one); the first write
    makes them, and a hook added then is kept beside the log, never in an export."""
    reader = Application.open(earlier, read_only=True)
    try:
        assert reader.hooks() == []
    finally:
        reader.close()
    assert ("hooks" in relations(earlier)) == (version(earlier) >= [(3,)])
    exported = invoke(earlier, "export", "g3").stdout
    invoke(earlier, "hook", "add", "g3", "https://chat.example.org/x", "--on", "close")
    assert {"hooks", "hook_deliveries"} <= set(relations(earlier))
    assert version(earlier) == [(migrations.postgres_version(),)]
    assert invoke(earlier, "export", "g3").stdout == exported


# --------------------------------------------------------------------------- the notifying triggers (version 4)


def notifying_triggers(url: str) -> list[tuple]:
    return plain(
        url,
        "SELECT c.relname, t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
        "WHERE t.tgname LIKE '%%notify' ORDER BY 1",
    )


@pytest.mark.guarantee("postgres.migrations")
def test_an_earlier_layout_gets_the_notifying_triggers_from_its_first_write_and_they_announce_commits(earlier):
    """Read as it is, earlier tables announce nothing (a reader polls them); the first
    write makes the triggers (and ``capabilities``, where a first release lacks it), and
    from then on a commit of events or of a link is announced, naming the match."""
    invoke(earlier, "status", "g3")
    assert notifying_triggers(earlier) == []
    invoke(earlier, "note", "g3", "after the upgrade")  # the first write: migrated
    assert version(earlier) == [(migrations.postgres_version(),)]
    assert notifying_triggers(earlier) == [("capabilities", "capabilities_notify"), ("events", "events_notify")]
    with psycopg.connect(earlier, autocommit=True) as listening:
        listening.execute("LISTEN matchledger")
        invoke(earlier, "note", "g3", "announced")
        invite_output = invoke(earlier, "invite", "g3", "--as", "ann").stdout
        assert "/p/" in invite_output
        heard = [n.payload for n in listening.notifies(timeout=10, stop_after=2)]
    schema = plain(earlier, "SELECT current_schema()")[0][0]
    assert sorted(heard) == sorted([f'["events", "{schema}", "g3"]', f'["capabilities", "{schema}", "g3"]'])

"""Each transaction carries its own settings (issue 29): how long to wait for a lock, and
whether anything may be written.  Nothing is set on the session, so a connection a
transaction-pooling proxy (PgBouncer, ``pool_mode = transaction``) hands from one client
to the next carries nothing of the last one: a reader's read-only setting never meets a
writer's transaction, a lock timeout never another program's.

The proof is a real PgBouncer in transaction mode with ONE server connection for every
client (tests/postgres/bouncer.py): readers and writers interleave on it, the host's
commands run through it, and the store contract passes through it (but the change feed,
whose listening connection needs a session: docs/deploy.md).  It skips, saying why,
where pgbouncer is not installed (.ci/run installs it)."""

from __future__ import annotations

import json

import psycopg
import pytest

from matchledger.ledger.errors import BUSY_LOCK, DatabaseBusy, UnwritableDatabase
from matchledger.ledger.events import MatchCreated, NoteAdded
from matchledger.ledger.stores import open_pool, open_store
from matchledger.testing.store_contract import (
    CapabilityStoreContract,
    EventLogContract,
    HookStoreContract,
    PostgresHarness,
    ServiceAddressContract,
    SnapshotCacheContract,
)
from tests.helpers import invoke
from tests.service.support import STUDIO

from .bouncer import Bouncer, binary
from .support import plain

pytestmark = pytest.mark.guarantee("postgres.transaction-pooling")

T = "2026-01-01T00:00:00.000000Z"
CREATED = MatchCreated(game="toy", players=["ann", "bob"])
ROUND_1 = {"ann": ["G4", "A1", "B1", "C1", "D1"], "bob": ["F2", "A1", "B1", "C1", "D1"]}
#: What a fresh session of the throwaway server says of each setting we use.
SESSION_DEFAULTS = {"lock_timeout": "0", "default_transaction_read_only": "off", "transaction_read_only": "off"}


def session_settings(conn) -> dict[str, str]:
    """The settings as the connection's session holds them, outside any transaction."""
    assert conn.info.transaction_status.name == "IDLE"
    return {name: conn.execute(f"SHOW {name}").fetchone()[0] for name in SESSION_DEFAULTS}


# --------------------------------------------------------------------------- on a direct connection


def test_no_setting_outlives_its_transaction_on_a_stores_connection(postgres_url, opened):
    writer = opened(postgres_url, lock_timeout=0.25)
    assert session_settings(writer.conn) == SESSION_DEFAULTS  # opening it (checks, tables made) set nothing
    writer.append("m1", 1, [CREATED], actor="h", recorded_at=T)
    assert writer.head("m1")[0] == 1
    assert session_settings(writer.conn) == SESSION_DEFAULTS
    reader = opened(postgres_url, read_only=True, lock_timeout=0.25)
    assert session_settings(reader.conn) == SESSION_DEFAULTS
    assert [row.seq for row in reader.rows("m1")] == [1]
    assert reader.capability("no-such-hash") is None
    assert session_settings(reader.conn) == SESSION_DEFAULTS


def test_no_setting_outlives_its_transaction_on_a_pools_connection(postgres_url):
    pool = open_pool(postgres_url, create=True, max_size=1, read_only=False, lock_timeout=0.25)
    try:
        with pool.store() as store:
            assert session_settings(store.conn) == SESSION_DEFAULTS
            store.append("m1", 1, [CREATED], actor="h", recorded_at=T)
            assert store.head("m1")[0] == 1
            assert session_settings(store.conn) == SESSION_DEFAULTS
    finally:
        pool.close()


def test_every_transaction_still_carries_the_settings(postgres_url, opened):
    """Read-only is in force for every statement of a read-only store, inside a
    transaction or not; the lock timeout for a read as for a write."""
    writer = opened(postgres_url, lock_timeout=0.25)
    writer.append("m1", 1, [CREATED], actor="h", recorded_at=T)
    reader = opened(postgres_url, read_only=True, lock_timeout=0.25)
    with pytest.raises(UnwritableDatabase, match="read-only transaction"):
        reader.db.run("INSERT INTO service_addresses (source, url, recorded_at) VALUES ('x', 'y', 'z')")
    with pytest.raises(UnwritableDatabase, match="read-only transaction"):
        with reader.db.transaction():
            reader.db.run("INSERT INTO service_addresses (source, url, recorded_at) VALUES ('x', 'y', 'z')")
    assert plain(postgres_url, "SELECT count(*) FROM service_addresses") == [(0,)]
    with psycopg.connect(postgres_url, autocommit=True) as holder, holder.transaction():
        holder.execute("LOCK TABLE events IN ACCESS EXCLUSIVE MODE")
        for attempt in (lambda: reader.head("m1"), lambda: writer.head("m1")):
            with pytest.raises(DatabaseBusy) as busy:
                attempt()
            assert busy.value.cause == BUSY_LOCK
        with pytest.raises(DatabaseBusy):
            writer.append("m1", 2, [NoteAdded(text="late")], actor="h", recorded_at=T)
    assert session_settings(reader.conn) == session_settings(writer.conn) == SESSION_DEFAULTS
    assert writer.head("m1")[0] == reader.head("m1")[0] == 1


# --------------------------------------------------------------------------- through PgBouncer


@pytest.fixture(scope="module")
def bouncer(postgres_server):
    program = binary()
    if program is None:
        pytest.skip(
            "pgbouncer is not installed (apt-get install pgbouncer): no transaction-pooling proxy to test through"
        )
    running = Bouncer(program, postgres_server.port)
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def bounced_databases(postgres_server):
    """The module's databases, by name, made on first use and dropped at its end."""
    made: dict[str, str] = {}
    yield made
    for database in made.values():
        postgres_server.drop_database(database)


@pytest.fixture
def bounced(postgres_server, bouncer, bounced_databases):
    """``bounced(name)``: the URL, through PgBouncer, of an empty database of this test
    (a database, not a schema: a proxy does not pass a session's search path on; emptied
    for each test, which is quicker than making one)."""
    emptied: set[str] = set()

    def url_of(name: str = "main") -> str:
        if name not in bounced_databases:
            bounced_databases[name] = postgres_server.create_database("bounced")
        elif name not in emptied:
            with postgres_server.admin(bounced_databases[name]) as admin:
                admin.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
        emptied.add(name)
        return bouncer.url(bounced_databases[name])

    return url_of


def test_readers_and_writers_share_one_server_connection_through_pgbouncer(bounced, postgres_server):
    url = bounced()
    writer = open_store(url, lock_timeout=0.5)
    reader = open_store(url, read_only=True, lock_timeout=0.5)
    try:
        writer.append("m1", 1, [CREATED], actor="h", recorded_at=T)
        for n in range(2, 8):  # each read, on the one server connection, before the next write
            assert [row.seq for row in reader.rows("m1")] == list(range(1, n))
            writer.append("m1", n, [NoteAdded(text=f"note {n}")], actor="h", recorded_at=T)
        assert reader.head("m1")[0] == writer.head("m1")[0] == 7
    finally:
        reader.close()
        writer.close()
    with postgres_server.admin() as admin:  # they did share it: the proxy opened one to the database
        [(count,)] = admin.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND application_name = ''",
            (bouncer_database(url),),
        ).fetchall()
    assert count == 1


def bouncer_database(url: str) -> str:
    return url.rsplit("/", 1)[1]


def test_the_hosts_commands_run_through_pgbouncer(bounced):
    url = bounced()
    invoke(url, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    for who, cells in ROUND_1.items():
        invoke(url, "status", "m1", "--json")  # a read between two writes, on the same server connection
        invoke(url, "submit", "m1", who, *cells)
    invoke(url, "close", "m1")
    invoke(url, "verify", "m1")
    assert json.loads(invoke(url, "status", "m1", "--json").stdout)["round"] == 2


class _ThroughPgBouncer:
    @pytest.fixture
    def backend(self, bounced):
        return PostgresHarness(bounced)


class TestEventLogThroughPgBouncer(_ThroughPgBouncer, EventLogContract):
    pass


class TestSnapshotsThroughPgBouncer(_ThroughPgBouncer, SnapshotCacheContract):
    pass


class TestCapabilitiesThroughPgBouncer(_ThroughPgBouncer, CapabilityStoreContract):
    pass


class TestServiceAddressesThroughPgBouncer(_ThroughPgBouncer, ServiceAddressContract):
    pass


class TestHooksThroughPgBouncer(_ThroughPgBouncer, HookStoreContract):
    pass

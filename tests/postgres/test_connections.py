"""Connections: a command-line process holds one and closes it when the command ends
(even with the garbage collector off: a server has a limited number of them); a
long-running process (``serve``) borrows stores from a pool
(``matchledger.ledger.stores.open_pool``), whose connections are shared by threads one
request at a time, bounded, and replaced when the server drops them."""

from __future__ import annotations

import gc
import threading

import pytest

from matchledger.ledger.errors import DatabaseBusy, DatabaseUnavailable
from matchledger.ledger.events import MatchCreated, NoteAdded
from matchledger.ledger.stores import open_pool
from matchledger.projections.application import Application
from tests.helpers import invoke

from .support import plain

T = "2026-01-01T00:00:00.000000Z"
CREATED = MatchCreated(game="toy", players=["ann", "bob"])


def connections(server) -> int:
    """Connections to the tests' database, besides the one asking."""
    with server.admin() as conn:
        return conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            (server.tests_database,),
        ).fetchone()[0]


@pytest.mark.guarantee("postgres.connections")
def test_a_command_closes_its_connection_when_it_ends(postgres_server, postgres_url):
    invoke(postgres_url, "new", "toy", "m1", "--players", "ann,bob")
    before = connections(postgres_server)
    gc.disable()  # the command line itself raises the collector's thresholds
    try:
        for _ in range(5):
            invoke(postgres_url, "note", "m1", "hello")
            invoke(postgres_url, "status", "m1")
            invoke(postgres_url, "status", "no-such-match", expect=1)
        assert connections(postgres_server) == before
    finally:
        gc.enable()


@pytest.mark.guarantee("postgres.connections")
def test_a_pool_lends_stores_to_threads_on_at_most_its_connections(postgres_server, postgres_url):
    pool = open_pool(postgres_url, create=True, max_size=2)
    errors = []

    def host(n: int) -> None:
        try:
            with pool.store() as store:
                store.append(f"m{n}", 1, [CREATED], actor="h", recorded_at=T)
            for i in range(10):
                with pool.store() as store:
                    application = Application(store, actor=f"host{n}")
                    application.store.append(f"m{n}", i + 2, [NoteAdded(text=f"{n}-{i}")], actor="h", recorded_at=T)
                    assert connections(postgres_server) <= 2 + 1  # the pool's two, and this count's own
        except Exception as exc:  # any failure of the guarantee
            errors.append(exc)

    try:
        threads = [threading.Thread(target=host, args=(n,)) for n in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        with pool.store() as store:
            assert store.match_ids() == [f"m{n}" for n in range(6)]
            assert [r.event().text for r in store.rows("m3")[1:]] == [f"3-{i}" for i in range(10)]
    finally:
        pool.close()
    assert connections(postgres_server) == 0


@pytest.mark.guarantee("postgres.connections")
def test_a_connection_the_server_dropped_is_replaced(postgres_server, postgres_url):
    pool = open_pool(postgres_url, create=True, max_size=1)
    try:
        with pool.store() as store:
            store.append("m1", 1, [CREATED], actor="h", recorded_at=T)
        with postgres_server.admin() as conn:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                (postgres_server.tests_database,),
            )
        with pool.store() as store:
            assert store.head("m1")[0] == 1
    finally:
        pool.close()


@pytest.mark.guarantee("postgres.connections")
def test_a_pool_refuses_clearly_what_a_store_would_and_says_when_it_is_exhausted(postgres_server, postgres_url):
    with pytest.raises(DatabaseUnavailable, match="cannot connect to .*no_such_db.*does not exist"):
        open_pool(postgres_server.url("no_such_db"))
    with pytest.raises(Exception, match="no matchledger tables"):
        open_pool(postgres_url)  # a pool does not make the tables unless told to
    pool = open_pool(postgres_url, create=True, max_size=1, lock_timeout=0.2)
    try:
        with pool.store():
            with pytest.raises(DatabaseBusy, match="no free connection within 0.2 s"):
                with pool.store():
                    pass
    finally:
        pool.close()
    assert plain(postgres_url, "SELECT count(*) FROM events") == [(0,)]

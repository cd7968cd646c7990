"""Changes pushed from PostgreSQL (ledger/postgres_listen.py): the listening connection
is told each commit of its own database's schema, nothing of another database of the
same server, and after its connection is ended it says so, listens again, and says
that too (its receiver then forgets what it kept: what was announced meanwhile was lost)."""

from __future__ import annotations

import psycopg
import pytest

from matchledger.ledger.events import MatchCreated, NoteAdded
from matchledger.ledger.stores import open_store
from matchledger.testing.store_contract import HeardChanges

from .support import listeners, until

T = "2026-01-01T00:00:00.000000Z"
CREATED = MatchCreated(game="no-such-game", players=["ann", "bob"])


@pytest.fixture
def two_databases(postgres_server):
    """Two databases of this test's own on one server, each with our tables."""
    names = [postgres_server.create_database("listened"), postgres_server.create_database("elsewhere")]
    urls = [postgres_server.url(name) for name in names]
    for url in urls:
        open_store(url).close()  # a write's open makes the tables
    try:
        yield names, urls
    finally:
        for name in names:
            postgres_server.drop_database(name)


@pytest.mark.guarantee("service.live")
def test_postgresql_pushes_its_own_databases_commits_and_nothing_of_another_databases(two_databases):
    (_, _), (url, elsewhere) = two_databases
    reader, other, stranger = open_store(url, read_only=True), open_store(url), open_store(elsewhere)
    heard = HeardChanges()
    subscription = reader.changes.subscribe(heard)
    try:
        assert subscription is not None and heard.wait_for("listening")
        stranger.append("s1", 1, [CREATED], actor="host", recorded_at=T)  # another database of the server
        other.append("m1", 1, [CREATED], actor="host", recorded_at=T)
        assert heard.wait_for(("moved", "m1"))
        assert heard.told == ["listening", ("moved", "m1")]  # s1's commit came first and was not told
    finally:
        for closing in (subscription, reader, other, stranger):
            if closing is not None:
                closing.close()


@pytest.mark.guarantee("service.live")
def test_a_listening_connection_ended_is_told_lost_listens_again_and_says_so(postgres_server, two_databases):
    (name, _), (url, _) = two_databases
    reader, other = open_store(url, read_only=True), open_store(url)
    heard = HeardChanges()
    subscription = reader.changes.subscribe(heard)
    try:
        assert subscription is not None and heard.wait_for("listening")
        [pid] = listeners(postgres_server, name)
        with postgres_server.admin() as conn:
            conn.execute("SELECT pg_terminate_backend(%s)", (pid,))
        assert until(lambda: heard.told.count("listening") == 2), heard.told
        assert heard.told == ["listening", "lost", "listening"]
        again = listeners(postgres_server, name)
        assert len(again) == 1 and again != [pid]  # a connection of its own again
        other.append("m1", 1, [CREATED], actor="host", recorded_at=T)
        other.append("m1", 2, [NoteAdded(text="after")], actor="host", recorded_at=T)
        assert heard.wait_for(("moved", "m1"))
    finally:
        if subscription is not None:
            subscription.close()
        reader.close()
        other.close()
    assert until(lambda: listeners(postgres_server, name) == [])  # closing ends the connection


@pytest.mark.guarantee("service.live")
def test_tables_of_an_earlier_version_announce_nothing_and_the_feed_says_it_does_not_listen(two_databases):
    """A database whose notifying triggers are gone (as an earlier version's tables,
    which a read leaves as they are) is polled: the feed never says it listens."""
    (_, _), (url, _) = two_databases
    with psycopg.connect(url) as conn:
        conn.execute("DROP TRIGGER events_notify ON events")
        conn.execute("DROP TRIGGER capabilities_notify ON capabilities")
        conn.execute("UPDATE matchledger_schema SET version = 3")
    reader = open_store(url, read_only=True)
    heard = HeardChanges()
    subscription = reader.changes.subscribe(heard, fallback=0.1)
    try:
        assert not heard.wait_for("listening", timeout=1.0)
        assert heard.told == []
    finally:
        if subscription is not None:
            subscription.close()
        reader.close()

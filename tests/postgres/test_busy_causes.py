"""A busy database says why (issue 29): a lock another connection held past the lock
timeout, or no free connection in this process's pool.  The error carries it
(``DatabaseBusy.cause``), and the service's access log gives each its own reason while
the client is told the same words as before; neither names the database's URL or
password."""

from __future__ import annotations

import json
import sqlite3

import psycopg
import pytest

from matchledger.commands.service.problems import refused
from matchledger.ledger.errors import BUSY_LOCK, BUSY_POOL, DatabaseBusy
from matchledger.ledger.events import MatchCreated, NoteAdded
from matchledger.ledger.stores import open_pool

pytestmark = pytest.mark.guarantee("postgres.transaction-pooling")

T = "2026-01-01T00:00:00.000000Z"
CREATED = MatchCreated(game="toy", players=["ann", "bob"])
PASSWORD = "busy-secret-pw"  # the superuser logs in without one (trust): it must show nowhere all the same


@pytest.fixture
def url_with_password(postgres_url) -> str:
    assert postgres_url.startswith("postgresql://postgres@")
    return postgres_url.replace("postgres@", f"postgres:{PASSWORD}@", 1)


def told(error: DatabaseBusy, url: str) -> tuple[str, bytes]:
    """The access log's reason and the body a client gets for ``error``, checked to name
    neither the URL nor the password."""
    answer = refused(error)
    assert answer.status == 503 and answer.headers == {"Retry-After": "2"}
    body = answer.body()
    for secret in (PASSWORD, url, url.rpartition("@")[2]):
        assert secret not in body.decode() and secret not in answer.reason
    return answer.reason, body


def test_no_free_connection_in_the_pool_is_a_busy_database_of_cause_pool(url_with_password):
    pool = open_pool(url_with_password, create=True, max_size=1, lock_timeout=0.2)
    try:
        with pool.store():
            with pytest.raises(DatabaseBusy) as busy:
                with pool.store():
                    pass
    finally:
        pool.close()
    assert busy.value.cause == BUSY_POOL
    reason, body = told(busy.value, url_with_password)
    assert reason == "database busy: no free connection"
    assert json.loads(body)["detail"] == "the ledger is busy; try again in a moment"


def test_a_lock_held_past_the_timeout_is_a_busy_database_of_cause_lock(url_with_password, opened):
    store = opened(url_with_password, lock_timeout=0.2)
    store.append("m1", 1, [CREATED], actor="h", recorded_at=T)
    with psycopg.connect(url_with_password, autocommit=True) as holder:
        with holder.transaction():
            holder.execute("LOCK TABLE events IN ACCESS EXCLUSIVE MODE")
            with pytest.raises(DatabaseBusy) as busy:
                store.append("m1", 2, [NoteAdded(text="late")], actor="h", recorded_at=T)
    assert busy.value.cause == BUSY_LOCK
    reason, body = told(busy.value, url_with_password)
    assert reason == "database busy: lock timeout"
    assert json.loads(body)["detail"] == "the ledger is busy; try again in a moment"


def test_sqlites_busy_file_is_a_lock_too(tmp_path, opened):
    db = tmp_path / "m.db"
    store = opened(db, lock_timeout=0.2)
    store.append("m1", 1, [CREATED], actor="h", recorded_at=T)
    holder = sqlite3.connect(db, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(DatabaseBusy) as busy:
            store.append("m1", 2, [NoteAdded(text="late")], actor="h", recorded_at=T)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert busy.value.cause == BUSY_LOCK
    assert told(busy.value, str(db))[0] == "database busy: lock timeout"


def test_the_cause_survives_a_process_boundary_and_is_one_of_two():
    import pickle

    error = pickle.loads(pickle.dumps(DatabaseBusy("database 'x' is busy", cause=BUSY_POOL)))
    assert (type(error), error.cause, str(error)) == (DatabaseBusy, BUSY_POOL, "database 'x' is busy")
    with pytest.raises(ValueError, match="no cause of a busy database 'disk'"):
        DatabaseBusy("busy", cause="disk")

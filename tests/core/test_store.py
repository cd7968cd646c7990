"""The store: append-only by trigger, hash chain, optimistic concurrency, atomic batches."""

import sqlite3

import pytest

from matchledger.ledger.codec import GENESIS_HASH
from matchledger.ledger.errors import CorruptLog, LogConflict, UnknownMatch
from matchledger.ledger.events import MatchCreated, NoteAdded
from matchledger.ledger.store import Store
from tests.helpers import own_hash

T = "2026-01-01T00:00:00.000000Z"


def created():
    return MatchCreated(game="toy", players=["ann", "bob"], options={"multiplier": 1})


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "m.db")
    s.append("m1", 1, [created(), NoteAdded(text="a"), NoteAdded(text="b")], actor="h", recorded_at=T)
    yield s
    s.close()


def test_rows_are_chained_from_genesis(store):
    rows = store.rows("m1")
    assert [r.seq for r in rows] == [1, 2, 3]
    assert rows[0].prev_hash == GENESIS_HASH
    for before, after in zip(rows, rows[1:]):
        assert after.prev_hash == before.hash
    assert [r.hash for r in rows] == [own_hash(r) for r in rows]


@pytest.mark.parametrize("sql", ["UPDATE events SET body = '{}' WHERE seq = 2", "DELETE FROM events WHERE seq = 3",
                                 "UPDATE events SET hash = 'x'", "DELETE FROM events"])
def test_update_and_delete_through_plain_sqlite3_fail(store, sql):
    conn = sqlite3.connect(store.path)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute(sql)
    conn.close()
    assert [r.seq for r in store.rows("m1")] == [1, 2, 3]


def test_wal_mode_and_contract_columns(store):
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    columns = [row[1] for row in store.conn.execute("PRAGMA table_info(events)")]
    assert columns == ["match_id", "seq", "kind", "body", "recorded_at", "actor", "prev_hash", "hash"]
    pk = [row[1] for row in sorted(store.conn.execute("PRAGMA table_info(events)"), key=lambda r: r[5]) if row[5]]
    assert pk == ["match_id", "seq"]


def test_body_is_queryable_with_json_extract(store):
    value = store.conn.execute(
        "SELECT json_extract(body, '$.text') FROM events WHERE match_id='m1' AND seq=3").fetchone()[0]
    assert value == "b"


def test_append_with_stale_expected_seq_conflicts_and_writes_nothing(store):
    with pytest.raises(LogConflict, match="expected to write seq 3 but the log already ends at seq 3"):
        store.append("m1", 3, [NoteAdded(text="late"), NoteAdded(text="later")], actor="h", recorded_at=T)
    assert len(store.rows("m1")) == 3


def test_a_failing_batch_in_a_transaction_leaves_nothing(store):
    with pytest.raises(LogConflict):
        with store.transaction():
            store.append("m1", 4, [NoteAdded(text="ok")], actor="h", recorded_at=T)
            store.append("m1", 4, [NoteAdded(text="conflict")], actor="h", recorded_at=T)
    assert len(store.rows("m1")) == 3


def test_unknown_match(store):
    with pytest.raises(UnknownMatch, match="no match 'zz'"):
        store.events("zz")


def test_corrupt_database_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(CorruptLog, match="cannot open"):
        Store(bad)


def test_rows_that_are_already_stored_conflict_naming_their_matches_and_write_nothing(store, tmp_path):
    copy = Store(tmp_path / "copy.db")
    copy.append("m2", 1, [created()], actor="h", recorded_at=T)
    m1_rows = store.rows("m1")
    copy.append_rows(m1_rows)  # m1 is new to the copy
    with pytest.raises(LogConflict, match=r"match 'm1': another writer appended the same seq first"):
        copy.append_rows(m1_rows)
    with pytest.raises(LogConflict, match=r"one of matches 'm1', 'm2': another writer"):
        with copy.transaction():
            copy.append("m2", 2, [NoteAdded(text="new")], actor="h", recorded_at=T)
            copy.append_rows(m1_rows[:1])
    assert [r.seq for r in copy.rows("m2")] == [1] and len(copy.rows("m1")) == 3
    copy.close()

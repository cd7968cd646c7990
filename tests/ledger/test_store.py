"""What only the SQLite store does: WAL mode, the table as SQLite describes it, bodies
json_extract can query, and a file that is not SQLite.  Everything a store of any back
end does is in tests/contracts/test_store_contract.py."""

import pytest

from matchledger.ledger.errors import CorruptLog
from matchledger.ledger.events import MatchCreated, NoteAdded
from matchledger.ledger.store import Store

T = "2026-01-01T00:00:00.000000Z"


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "m.db")
    s.append(
        "m1",
        1,
        [
            MatchCreated(game="toy", players=["ann", "bob"], options={"multiplier": 1}),
            NoteAdded(text="a"),
            NoteAdded(text="b"),
        ],
        actor="h",
        recorded_at=T,
    )
    yield s
    s.close()


@pytest.mark.guarantee("log.schema")
def test_wal_mode_and_contract_columns(store):
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    columns = [row[1] for row in store.conn.execute("PRAGMA table_info(events)")]
    assert columns == ["match_id", "seq", "kind", "body", "recorded_at", "actor", "prev_hash", "hash"]
    pk = [row[1] for row in sorted(store.conn.execute("PRAGMA table_info(events)"), key=lambda r: r[5]) if row[5]]
    assert pk == ["match_id", "seq"]


@pytest.mark.guarantee("log.schema")
def test_body_is_queryable_with_json_extract(store):
    value = store.conn.execute(
        "SELECT json_extract(body, '$.text') FROM events WHERE match_id='m1' AND seq=3"
    ).fetchone()[0]
    assert value == "b"


@pytest.mark.guarantee("input.corrupt-file")
def test_corrupt_database_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(CorruptLog, match="cannot open"):
        Store(bad)

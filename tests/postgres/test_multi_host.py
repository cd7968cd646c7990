"""Several hosts on one PostgreSQL database: eight processes, each with a connection of
its own, record at once into one shared match and each into its own, half through the
store, half through whole CLI commands; checked afterwards as on SQLite
(tests/reliability/eight_writers.py): every match verifies, the events are exactly the
accepted commands', every loser was told (exit 1) and left nothing."""

from __future__ import annotations

import psycopg
import pytest
from matchledger.ledger.errors import DatabaseBusy, LogConflict
from matchledger.ledger.events import MatchCreated, NoteAdded
from matchledger.ledger.stores import open_store

from tests.reliability.eight_writers import record_at_once

T = "2026-01-01T00:00:00.000000Z"
CREATED = MatchCreated(game="toy", players=["ann", "bob"])

ATTEMPTS = 60


@pytest.mark.guarantee("postgres.multi-host")
def test_eight_processes_each_with_its_own_connection_record_at_once(postgres_url, tmp_path):
    record_at_once(postgres_url, tmp_path, ATTEMPTS)


@pytest.mark.guarantee("postgres.no-long-locks")
def test_a_slow_reader_never_blocks_a_writer_and_a_writer_blocks_only_its_own_match(postgres_url):
    store = open_store(postgres_url, lock_timeout=0.5)
    for match in ("m1", "m2"):
        store.append(match, 1, [CREATED], actor="h", recorded_at=T)
    # a reader in the middle of a long transaction, having read the whole match
    with psycopg.connect(postgres_url) as reader:
        reader.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        assert len(reader.execute("SELECT body FROM events WHERE match_id = 'm1'").fetchall()) == 1
        store.append("m1", 2, [NoteAdded(text="while reading")], actor="h", recorded_at=T)  # not blocked
        assert len(reader.execute("SELECT body FROM events WHERE match_id = 'm1'").fetchall()) == 1  # its snapshot
    # a writer in the middle of its command holds that match only
    other = open_store(postgres_url, lock_timeout=0.5)
    with store.transaction():
        store.append("m1", 3, [NoteAdded(text="held")], actor="h", recorded_at=T)
        assert open_store(postgres_url, read_only=True).head("m1")[0] == 2  # readers see the last commit, at once
        other.append("m2", 2, [NoteAdded(text="elsewhere")], actor="h2", recorded_at=T)  # another match goes on
        with pytest.raises(DatabaseBusy, match="busy"):
            other.append("m1", 3, [NoteAdded(text="same match")], actor="h2", recorded_at=T)
    with pytest.raises(LogConflict, match="moved on"):  # once it committed: the loser is told
        other.append("m1", 3, [NoteAdded(text="same match")], actor="h2", recorded_at=T)
    assert [r.event().text for r in store.rows("m1")[1:]] == ["while reading", "held"]

"""The store contract, shipped for a back end's own tests (docs/testing.md): what every
back end's store does, the same tests against each.

A back end kept anywhere runs it from its own test suite by giving a *harness* as the
fixture ``backend``::

    import pytest
    from matchledger.testing.store_contract import SQLiteHarness, StoreContract

    class TestMyStore(StoreContract):
        @pytest.fixture
        def backend(self, tmp_path):
            return MyHarness(tmp_path)   # or SQLiteHarness(tmp_path), the built-in one

A harness opens stores on databases of its own and reaches those databases the way any
other client could, for what the store must refuse or survive:

- ``name``: the back end's name (``"sqlite"``);
- ``open(database="main")``: a store on the named database of this test (made empty on
  first use);
- ``plain(sql, *params, database="main")``: a statement through a plain connection,
  append-only triggers in force, committed; the rows it returns.  SQL is written with
  ``?`` placeholders; a back end with another style translates them;
- ``refusal``: the error a plain connection raises when the database refuses one;
- ``tamper(sql, *params, database="main")``: the same with the append-only triggers
  dropped, as an attacker who owns the database would;
- ``write_non_utf8_body(match_id, seq, database="main")``: the row's body replaced by
  bytes that are not UTF-8 (``pytest.skip`` where the database cannot hold them);
- ``one_writer_at_a_time`` (optional, false if missing): true where a commit cannot
  overtake another's (SQLite).

:class:`SQLiteHarness` and :class:`PostgresHarness` are the two built-in back ends'.
The fixture ``store`` (a fresh store on the harness's main database, closed after the
test) comes with the contract.  The tests carry the ids of the rows of matchledger's
docs/guarantees.md they decide (the ``guarantee`` marker, registered by matchledger's
pytest plugin).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from matchledger.ledger.codec import GENESIS_HASH, encode, envelope_hash
from matchledger.ledger.errors import CorruptLog, LogConflict, UnknownMatch
from matchledger.ledger.events import MatchCreated, NoteAdded
from matchledger.ledger.store import COLUMNS, Store
from matchledger.ledger.verify import verify_chain

T = "2026-01-01T00:00:00.000000Z"
#: A creation event of a game that need not be installed: a store never reads the game.
CREATED = MatchCreated(game="no-such-game", players=["ann", "bob"], options={"multiplier": 1})
NOTES = [NoteAdded(text="a"), NoteAdded(text='é "b"')]


def three_events(store, match_id="m1"):
    """The match's first three events, appended in one call."""
    return store.append(match_id, 1, [CREATED, *NOTES], actor="host", recorded_at=T)


def own_hash(row) -> str:
    """The hash a stored row's own fields give: what a forger recomputes after an edit."""
    return envelope_hash(
        encode(row.actor),
        row.body.encode("utf-8"),
        row.kind,
        encode(row.match_id),
        row.prev_hash,
        encode(row.recorded_at),
        row.seq,
    )


class CallerFailed(Exception):
    pass


def _fail(store, how: str):
    if how == "conflict":
        store.append("m1", 4, [NoteAdded(text="conflict")], actor="host", recorded_at=T)
    else:
        raise CallerFailed


def _capability(token: str, **fields):
    from matchledger.ledger.capabilities import Capability, token_hash

    defaults = {"match_id": "m1", "role": "participant", "participant": "ann", "can_submit": True, "created_at": T}
    return Capability(token_hash=token_hash(token), **{**defaults, **fields})


# --------------------------------------------------------------------------- the harnesses of the built-in back ends


class SQLiteHarness:
    """SQLite databases, one file per name in ``folder``."""

    name = "sqlite"
    refusal = sqlite3.DatabaseError
    one_writer_at_a_time = True

    def __init__(self, folder: Path):
        self.folder = Path(folder)

    def open(self, database: str = "main") -> Store:
        return Store(self._path(database))

    def plain(self, sql: str, *params, database: str = "main") -> list[tuple]:
        return self._execute([], sql, params, database)

    def tamper(self, sql: str, *params, database: str = "main") -> None:
        drop = ["DROP TRIGGER IF EXISTS events_no_update", "DROP TRIGGER IF EXISTS events_no_delete"]
        self._execute(drop, sql, params, database)

    def write_non_utf8_body(self, match_id: str, seq: int, database: str = "main") -> None:
        # {"<0xff>} : TEXT as far as SQLite is concerned, not UTF-8 to anyone else
        self.tamper(
            "UPDATE events SET body = CAST(X'7b22ff7d' AS TEXT) WHERE match_id = ? AND seq = ?",
            match_id,
            seq,
            database=database,
        )

    def _path(self, database: str) -> Path:
        return self.folder / f"{database}.db"

    def _execute(self, before: list[str], sql: str, params, database: str) -> list[tuple]:
        conn = sqlite3.connect(self._path(database))
        try:
            for statement in before:
                conn.execute(statement)
            rows = conn.execute(sql, params).fetchall()
            conn.commit()
            return rows
        finally:
            conn.close()


class PostgresHarness:
    """PostgreSQL databases, one per name: ``url_of(name)`` gives the URL of an empty
    database of that name for this test (psycopg is imported only when used)."""

    name = "postgresql"
    one_writer_at_a_time = False

    def __init__(self, url_of: Callable[[str], str]):
        self.url_of = url_of

    @property
    def refusal(self):
        import psycopg

        return psycopg.Error

    def open(self, database: str = "main"):
        from matchledger.ledger.postgres_store import PostgresStore

        return PostgresStore(self.url_of(database))

    def plain(self, sql: str, *params, database: str = "main") -> list[tuple]:
        return self._execute([], sql, params, database)

    def tamper(self, sql: str, *params, database: str = "main") -> None:
        # the owner of the table can switch its triggers off (and on again after)
        self._execute(
            ["ALTER TABLE events DISABLE TRIGGER USER"],
            sql,
            params,
            database,
            after=["ALTER TABLE events ENABLE TRIGGER USER"],
        )

    def write_non_utf8_body(self, match_id: str, seq: int, database: str = "main") -> None:
        pytest.skip("a UTF8 PostgreSQL database (the only encoding matchledger opens) holds no text that is not UTF-8")

    def _execute(self, before: list[str], sql: str, params, database: str, after=()) -> list[tuple]:
        import psycopg

        with psycopg.connect(self.url_of(database)) as conn:  # committed at the end of the block
            for statement in before:
                conn.execute(statement)
            cursor = conn.execute(sql.replace("?", "%s"), params)
            rows = cursor.fetchall() if cursor.description else []
            for statement in after:
                conn.execute(statement)
            return rows


# --------------------------------------------------------------------------- the contract


class StoreContract:
    """The store contract; a subclass named ``Test...`` gives the fixture ``backend``
    (a harness: see the module)."""

    @pytest.fixture
    def backend(self):
        raise pytest.UsageError(f"{type(self).__name__}: give the fixture `backend` (a harness of your back end)")

    @pytest.fixture
    def store(self, backend):
        store = backend.open()
        yield store
        store.close()

    # --------------------------------------------------------------------------- appending and reading

    @pytest.mark.guarantee("log.hash-chain")
    def test_appended_events_read_back_as_rows_chained_from_the_genesis_hash(self, store):
        appended = three_events(store)
        rows = store.rows("m1")
        assert rows == appended
        assert [(r.match_id, r.seq, r.kind, r.actor, r.recorded_at) for r in rows] == [
            ("m1", 1, "MatchCreated", "host", T),
            ("m1", 2, "NoteAdded", "host", T),
            ("m1", 3, "NoteAdded", "host", T),
        ]
        assert [r.event() for r in rows] == [CREATED, *NOTES]
        assert [r.prev_hash for r in rows] == [GENESIS_HASH, rows[0].hash, rows[1].hash]
        assert [r.hash for r in rows] == [own_hash(r) for r in rows]
        assert verify_chain("m1", rows) == []

    def test_events_are_the_decoded_pairs_of_the_rows(self, store):
        three_events(store)
        store.append("m1", 4, [NoteAdded(text="c")], actor="other", recorded_at="2026-01-02T00:00:00.000000Z")
        assert store.events("m1") == [(1, CREATED), (2, NOTES[0]), (3, NOTES[1]), (4, NoteAdded(text="c"))]
        assert store.rows("m1")[3].prev_hash == store.rows("m1")[2].hash

    def test_reads_take_the_seqs_after_and_up_to_the_ones_given(self, store):
        three_events(store)
        assert [r.seq for r in store.rows("m1", after=1)] == [2, 3]
        assert [r.seq for r in store.rows("m1", upto=2)] == [1, 2]
        assert [r.seq for r in store.rows("m1", after=1, upto=2)] == [2]
        assert store.events("m1", after=2) == [(3, NOTES[1])]
        assert store.events("m1", after=3) == []  # nothing new is not an unknown match

    def test_any_client_reads_the_contract_columns_and_the_exact_hashed_body(self, store, backend):
        rows = three_events(store)
        plain = backend.plain(f"SELECT {', '.join(COLUMNS)} FROM events WHERE match_id = ? ORDER BY seq", "m1")
        assert plain == [tuple(getattr(row, column) for column in COLUMNS) for row in rows]

    def test_matches_are_kept_apart(self, store):
        three_events(store, "m1")
        store.append("m2", 1, [CREATED], actor="host", recorded_at=T)
        assert [r.seq for r in store.rows("m2")] == [1]
        assert store.rows("m2")[0].prev_hash == GENESIS_HASH
        assert store.rows("m2")[0].hash != store.rows("m1")[0].hash  # the match id is hashed
        assert [r.seq for r in store.rows("m1")] == [1, 2, 3]

    # --------------------------------------------------------------------------- optimistic concurrency

    @pytest.mark.guarantee("concurrency.loser-told")
    def test_an_append_expecting_a_seq_already_written_conflicts_and_writes_nothing(self, store):
        three_events(store)
        before = store.rows("m1")
        with pytest.raises(
            LogConflict, match="match 'm1' moved on: expected to write seq 3 but the log already ends at seq 3"
        ):
            store.append("m1", 3, [NoteAdded(text="late"), NoteAdded(text="later")], actor="host", recorded_at=T)
        assert store.rows("m1") == before
        assert store.head("m1") == (3, before[-1].hash)

    @pytest.mark.guarantee("concurrency.loser-told")
    def test_an_append_expecting_a_seq_past_the_log_conflicts_and_writes_nothing(self, store):
        three_events(store)
        before = store.rows("m1")
        with pytest.raises(LogConflict, match="expected to write seq 5 but the log already ends at seq 3"):
            store.append("m1", 5, [NoteAdded(text="early")], actor="host", recorded_at=T)
        with pytest.raises(
            LogConflict, match="match 'new' moved on: expected to write seq 2 but the log already ends at seq 0"
        ):
            store.append("new", 2, [CREATED], actor="host", recorded_at=T)
        assert store.rows("m1") == before
        assert not store.has_match("new")

    def test_the_next_seq_appends(self, store):
        three_events(store)
        [row] = store.append("m1", 4, [NoteAdded(text="next")], actor="host", recorded_at=T)
        assert (row.seq, row.prev_hash) == (4, store.rows("m1")[2].hash)
        assert store.append("m1", 5, [], actor="host", recorded_at=T) == []
        assert store.head("m1") == (4, row.hash)

    # --------------------------------------------------------------------------- transactions

    @pytest.mark.parametrize("how", ["conflict", "caller error"])
    @pytest.mark.guarantee("log.atomic-command")
    def test_a_transaction_of_several_appends_is_all_or_nothing(self, store, how):
        three_events(store)
        before = store.rows("m1")
        with pytest.raises(LogConflict if how == "conflict" else CallerFailed):
            with store.transaction():
                store.append("m1", 4, [NoteAdded(text="ok")], actor="host", recorded_at=T)
                store.append("m2", 1, [CREATED], actor="host", recorded_at=T)
                store.append("m1", 5, [NoteAdded(text="ok too")], actor="host", recorded_at=T)
                _fail(store, how)
        assert store.rows("m1") == before
        assert store.rows("m2") == [] and not store.has_match("m2")
        assert store.head("m1") == (3, before[-1].hash)
        # and the store goes on from there, with nothing of the failed transaction left over
        [row] = store.append("m1", 4, [NoteAdded(text="after")], actor="host", recorded_at=T)
        assert store.rows("m1") == [*before, row] and store.match_ids() == ["m1"]

    def test_a_transaction_sees_its_own_appends_and_writes_them_together(self, store):
        three_events(store)
        with store.transaction():
            first = store.append("m1", 4, [NoteAdded(text="c")], actor="host", recorded_at=T)
            second = store.append("m2", 1, [CREATED], actor="host", recorded_at=T)
            assert store.has_match("m2")
            assert store.head("m1") == (4, first[0].hash)
            assert store.rows("m1", after=3) == first
            assert store.match_ids() == ["m1", "m2"]
        assert store.rows("m1", after=3) == first and store.rows("m2") == second
        assert verify_chain("m1", store.rows("m1")) == []

    # --------------------------------------------------------------------------- import

    def test_imported_rows_are_written_exactly_as_they_were(self, store, backend):
        three_events(store)
        rows = store.rows("m1")
        copy = backend.open("copy")
        try:
            copy.append_rows(rows)
            assert copy.rows("m1") == rows
            assert copy.head("m1") == (3, rows[-1].hash)
            [after] = copy.append("m1", 4, [NoteAdded(text="c")], actor="host", recorded_at=T)
            assert after.prev_hash == rows[-1].hash
        finally:
            copy.close()

    def test_imported_rows_that_clash_conflict_naming_their_matches_and_write_nothing(self, store, backend):
        three_events(store)
        rows = store.rows("m1")
        copy = backend.open("copy")
        try:
            copy.append("m2", 1, [CREATED], actor="host", recorded_at=T)
            copy.append_rows(rows)
            with pytest.raises(LogConflict, match=r"match 'm1': another writer appended the same seq first"):
                copy.append_rows(rows)
            with pytest.raises(
                LogConflict, match=r"one of matches 'm1', 'm2': another writer appended the same seq first"
            ):
                with copy.transaction():
                    copy.append("m2", 2, [NoteAdded(text="new")], actor="host", recorded_at=T)
                    copy.append_rows(rows[:1])
            assert [r.seq for r in copy.rows("m2")] == [1]
            assert copy.rows("m1") == rows
        finally:
            copy.close()

    # --------------------------------------------------------------------------- what is stored

    def test_match_ids_lists_every_match_in_order(self, store):
        assert store.match_ids() == []
        for match_id in ("m2", "a-1", "m10"):
            store.append(match_id, 1, [CREATED], actor="host", recorded_at=T)
        assert store.match_ids() == ["a-1", "m10", "m2"]

    def test_has_match_and_head(self, store):
        assert not store.has_match("m1") and store.head("m1") is None
        rows = three_events(store)
        assert store.has_match("m1") and not store.has_match("m2")
        assert store.head("m1") == (3, rows[-1].hash)

    def test_reads_of_an_unknown_match(self, store):
        three_events(store)
        assert store.rows("zz") == []
        assert store.head("zz") is None
        assert not store.has_match("zz")
        assert store.snapshot("zz", "rev") is None
        with pytest.raises(UnknownMatch, match="no match 'zz'"):
            store.events("zz")

    # --------------------------------------------------------------------------- append-only

    @pytest.mark.parametrize("column", COLUMNS)
    @pytest.mark.guarantee("log.append-only")
    def test_update_through_a_plain_connection_fails(self, store, backend, column):
        three_events(store)
        before = store.rows("m1")
        value = 99 if column == "seq" else "x"
        with pytest.raises(backend.refusal, match="append-only"):
            backend.plain(f"UPDATE events SET {column} = ? WHERE match_id = ? AND seq = ?", value, "m1", 2)
        assert store.rows("m1") == before

    @pytest.mark.parametrize("column", COLUMNS)
    @pytest.mark.guarantee("log.append-only")
    def test_delete_through_a_plain_connection_fails(self, store, backend, column):
        three_events(store)
        before = store.rows("m1")
        with pytest.raises(backend.refusal, match="append-only"):
            backend.plain(f"DELETE FROM events WHERE {column} = ?", getattr(before[1], column))
        assert store.rows("m1") == before

    # --------------------------------------------------------------------------- tampering

    def test_a_body_that_is_not_utf8_is_still_read_and_verify_names_its_seq(self, store, backend):
        three_events(store)
        backend.write_non_utf8_body("m1", 2)
        rows = store.rows("m1")
        assert [r.seq for r in rows] == [1, 2, 3]
        assert "\ufffd" in rows[1].body
        [finding] = verify_chain("m1", rows)
        assert (finding.seq, finding.problem) == (2, "hash does not match the event's contents")
        with pytest.raises(CorruptLog, match="cannot read"):
            store.events("m1")  # a replay refuses it rather than read a replaced text

    # --------------------------------------------------------------------------- snapshots

    def test_a_snapshot_is_read_back_for_its_revision_and_seqs(self, store):
        rows = three_events(store)
        store.save_snapshot("m1", 2, rows[1].hash, "rev1", b"\x00state")
        assert store.snapshot("m1", "rev1") == (2, b"\x00state", rows[1].hash)
        assert store.snapshot("m1", "rev1", upto=2) == (2, b"\x00state", rows[1].hash)
        assert store.snapshot("m1", "rev1", upto=1) is None
        assert store.snapshot("m1", "rev2") is None
        assert store.snapshot("m2", "rev1") is None

    def test_a_snapshot_is_not_used_unless_its_event_keeps_its_hash(self, store, backend):
        rows = three_events(store)
        store.save_snapshot("m1", 2, "0" * 64, "rev1", b"forged")
        assert store.snapshot("m1", "rev1") is None
        store.save_snapshot("m1", 2, rows[1].hash, "rev1", b"state")
        assert store.snapshot("m1", "rev1") is not None
        backend.tamper("UPDATE events SET hash = ? WHERE match_id = ? AND seq = ?", "f" * 64, "m1", 2)
        assert store.snapshot("m1", "rev1") is None

    def test_saving_a_snapshot_replaces_the_one_before(self, store):
        rows = three_events(store)
        store.save_snapshot("m1", 2, rows[1].hash, "rev1", b"old")
        store.save_snapshot("m1", 3, rows[2].hash, "rev2", b"new")
        assert store.snapshot("m1", "rev2") == (3, b"new", rows[2].hash)
        assert store.snapshot("m1", "rev1") is None

    def test_a_snapshot_is_written_with_the_transaction_it_belongs_to(self, store):
        three_events(store)
        with pytest.raises(CallerFailed):
            with store.transaction():
                [row] = store.append("m1", 4, [NoteAdded(text="c")], actor="host", recorded_at=T)
                store.save_snapshot("m1", 4, row.hash, "rev1", b"state")
                raise CallerFailed
        assert store.snapshot("m1", "rev1") is None
        assert store.head("m1")[0] == 3

    # --------------------------------------------------------------------------- capabilities (the service's tokens)

    @pytest.mark.guarantee("service.tokens-hashed")
    def test_a_capability_is_kept_by_the_hash_of_its_token_and_read_back(self, store, backend):
        three_events(store)
        kept = _capability("t" * 32)
        auditor = _capability("a" * 32, role="auditor", participant=None, can_submit=False)
        store.save_capability(kept)
        store.save_capability(auditor)
        assert store.capability(kept.token_hash) == kept and kept.active
        assert store.capability(auditor.token_hash) == auditor
        assert store.capability(_capability("u" * 32).token_hash) is None
        # the token itself is nowhere: not in any column of the table, not in the log
        stored = backend.plain("SELECT * FROM capabilities")
        assert len(stored) == 2 and not any("t" * 32 in str(value) for row in stored for value in row)
        assert [row.kind for row in store.rows("m1")] == ["MatchCreated", "NoteAdded", "NoteAdded"]

    def test_revoking_a_capability_stamps_it_once(self, store):
        kept = _capability("t" * 32)
        store.save_capability(kept)
        revoked = store.revoke_capability(kept.token_hash, "2026-01-02T00:00:00.000000Z")
        assert revoked.revoked_at == "2026-01-02T00:00:00.000000Z" and not revoked.active
        assert store.capability(kept.token_hash) == revoked
        again = store.revoke_capability(kept.token_hash, "2026-01-03T00:00:00.000000Z")
        assert again.revoked_at == "2026-01-02T00:00:00.000000Z"  # the first revocation stands
        assert store.revoke_capability(_capability("u" * 32).token_hash, T) is None

    @pytest.mark.guarantee("service.links-listed")
    def test_every_capability_issued_is_listed_oldest_first_by_match_or_all(self, store, backend):
        assert store.capabilities() == [] and store.capabilities("m1") == []  # nobody was ever invited
        first = _capability("t" * 32, created_at="2026-01-01T00:00:00.000000Z")
        auditor = _capability(
            "a" * 32, role="auditor", participant=None, can_submit=False, created_at="2026-01-02T00:00:00.000000Z"
        )
        other = _capability("o" * 32, match_id="m2", created_at="2026-01-03T00:00:00.000000Z")
        for capability in (other, auditor, first):
            store.save_capability(capability)
        store.revoke_capability(auditor.token_hash, "2026-01-04T00:00:00.000000Z")
        revoked = store.capability(auditor.token_hash)
        assert store.capabilities() == [first, revoked, other]
        assert store.capabilities("m1") == [first, revoked]
        assert store.capabilities("m9") == []
        # a row written past the store (as a hostile tool would) is listed like any other
        backend.plain(
            "INSERT INTO capabilities (token_hash, match_id, role, participant, can_submit, created_at, revoked_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            "p" * 64,
            "m1",
            "auditor",
            None,
            False,
            "2026-01-05T00:00:00.000000Z",
            None,
        )
        assert [c.token_hash for c in store.capabilities("m1")] == [first.token_hash, auditor.token_hash, "p" * 64]

    def test_a_store_that_never_issued_a_capability_finds_none(self, store):
        three_events(store)
        assert store.capability(_capability("t" * 32).token_hash) is None
        assert store.revoke_capability(_capability("t" * 32).token_hash, T) is None

    def test_a_capability_saved_in_a_failed_transaction_is_not_kept(self, store):
        three_events(store)
        kept = _capability("t" * 32)
        with pytest.raises(CallerFailed):
            with store.transaction():
                store.save_capability(kept)
                raise CallerFailed
        assert store.capability(kept.token_hash) is None

    @pytest.mark.guarantee("service.live")
    def test_data_version_changes_when_another_store_commits_and_only_then(self, store, backend):
        """What the service's live pages poll: a cheap number that moves once anything was
        committed through another connection (the command line's, another process's)."""
        three_events(store)
        other = backend.open()
        try:
            before = store.data_version()
            assert store.data_version() == before  # nothing committed elsewhere
            other.append("m1", 4, [NoteAdded(text="elsewhere")], actor="host", recorded_at=T)
            after = store.data_version()
            assert after != before
            assert store.data_version() == after
        finally:
            other.close()

    @pytest.mark.guarantee("service.live")
    def test_data_version_moves_when_a_transaction_commits_after_a_later_one(self, store, backend):
        """The service keeps tokens' grants while data_version stands still: a revocation
        whose transaction began first but commits last must still move it."""
        if getattr(backend, "one_writer_at_a_time", False):
            pytest.skip(f"{backend.name} lets one writer in at a time: a commit cannot overtake another's")
        three_events(store)
        first, second = backend.open(), backend.open()
        try:
            with first.transaction():
                first.append("m1", 4, [NoteAdded(text="began first")], actor="host", recorded_at=T)
                assert len(first.rows("m1")) == 4  # written (not yet committed), so its transaction has begun
                second.append("m2", 1, [CREATED], actor="host", recorded_at=T)  # begun and committed meanwhile
                before = store.data_version()
                assert store.data_version() == before
            assert store.data_version() != before
            assert [r.seq for r in store.rows("m1")] == [1, 2, 3, 4]
        finally:
            first.close()
            second.close()

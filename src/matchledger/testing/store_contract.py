"""The store contract, shipped for a back end's own tests (docs/testing.md): what every
back end's store does, the same tests against each.

A store is four parts (ledger/log_store.py), and the contract is one class per part:
:class:`EventLogContract` (``store.log``), :class:`SnapshotCacheContract`
(``store.snapshots``), :class:`CapabilityStoreContract` and :class:`ServiceAddressContract`
(``store.capability_store``: the links, and the service's address) and
:class:`ChangeFeedContract` (``store.changes``), and :class:`HookStoreContract`
(``store.hook_store``: the hooks and their deliveries, beside the capabilities);
:class:`StoreContract` runs them all,
and checks that the store answers each part's methods as the part does.

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
test) comes with the contract, and one fixture per part of it (``log``, ``snapshots``,
``capability_store``, ``changes``).  The tests carry the ids of the rows of matchledger's
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
from matchledger.ledger.event_log import COLUMNS
from matchledger.ledger.events import MatchCreated, NoteAdded
from matchledger.ledger.log_store import LogStore
from matchledger.ledger.stores import open_store
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

    def open(self, database: str = "main") -> LogStore:
        return open_store(self._path(database))

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

    def open(self, database: str = "main") -> LogStore:
        return open_store(self.url_of(database))

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


# --------------------------------------------------------------------------- the contract, one class per part


class _OnABackEnd:
    """The fixtures every part's contract shares: the harness (``backend``, which a
    subclass named ``Test...`` gives: see the module) and a store on it."""

    @pytest.fixture
    def backend(self):
        raise pytest.UsageError(f"{type(self).__name__}: give the fixture `backend` (a harness of your back end)")

    @pytest.fixture
    def store(self, backend):
        store = backend.open()
        yield store
        store.close()

    @pytest.fixture
    def log(self, store):
        return store.log


class EventLogContract(_OnABackEnd):
    """The event log (``store.log``: ledger/event_log.py)."""

    # --------------------------------------------------------------------------- appending and reading

    @pytest.mark.guarantee("log.hash-chain")
    def test_appended_events_read_back_as_rows_chained_from_the_genesis_hash(self, log):
        appended = three_events(log)
        rows = log.rows("m1")
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

    def test_events_are_the_decoded_pairs_of_the_rows(self, log):
        three_events(log)
        log.append("m1", 4, [NoteAdded(text="c")], actor="other", recorded_at="2026-01-02T00:00:00.000000Z")
        assert log.events("m1") == [(1, CREATED), (2, NOTES[0]), (3, NOTES[1]), (4, NoteAdded(text="c"))]
        assert log.rows("m1")[3].prev_hash == log.rows("m1")[2].hash

    def test_reads_take_the_seqs_after_and_up_to_the_ones_given(self, log):
        three_events(log)
        assert [r.seq for r in log.rows("m1", after=1)] == [2, 3]
        assert [r.seq for r in log.rows("m1", upto=2)] == [1, 2]
        assert [r.seq for r in log.rows("m1", after=1, upto=2)] == [2]
        assert log.events("m1", after=2) == [(3, NOTES[1])]
        assert log.events("m1", after=3) == []  # nothing new is not an unknown match

    def test_any_client_reads_the_contract_columns_and_the_exact_hashed_body(self, log, backend):
        rows = three_events(log)
        plain = backend.plain(f"SELECT {', '.join(COLUMNS)} FROM events WHERE match_id = ? ORDER BY seq", "m1")
        assert plain == [tuple(getattr(row, column) for column in COLUMNS) for row in rows]

    def test_matches_are_kept_apart(self, log):
        three_events(log, "m1")
        log.append("m2", 1, [CREATED], actor="host", recorded_at=T)
        assert [r.seq for r in log.rows("m2")] == [1]
        assert log.rows("m2")[0].prev_hash == GENESIS_HASH
        assert log.rows("m2")[0].hash != log.rows("m1")[0].hash  # the match id is hashed
        assert [r.seq for r in log.rows("m1")] == [1, 2, 3]

    # --------------------------------------------------------------------------- optimistic concurrency

    @pytest.mark.guarantee("concurrency.loser-told")
    def test_an_append_expecting_a_seq_already_written_conflicts_and_writes_nothing(self, log):
        three_events(log)
        before = log.rows("m1")
        with pytest.raises(
            LogConflict, match="match 'm1' moved on: expected to write seq 3 but the log already ends at seq 3"
        ):
            log.append("m1", 3, [NoteAdded(text="late"), NoteAdded(text="later")], actor="host", recorded_at=T)
        assert log.rows("m1") == before
        assert log.head("m1") == (3, before[-1].hash)

    @pytest.mark.guarantee("concurrency.loser-told")
    def test_an_append_expecting_a_seq_past_the_log_conflicts_and_writes_nothing(self, log):
        three_events(log)
        before = log.rows("m1")
        with pytest.raises(LogConflict, match="expected to write seq 5 but the log already ends at seq 3"):
            log.append("m1", 5, [NoteAdded(text="early")], actor="host", recorded_at=T)
        with pytest.raises(
            LogConflict, match="match 'new' moved on: expected to write seq 2 but the log already ends at seq 0"
        ):
            log.append("new", 2, [CREATED], actor="host", recorded_at=T)
        assert log.rows("m1") == before
        assert not log.has_match("new")

    def test_the_next_seq_appends(self, log):
        three_events(log)
        [row] = log.append("m1", 4, [NoteAdded(text="next")], actor="host", recorded_at=T)
        assert (row.seq, row.prev_hash) == (4, log.rows("m1")[2].hash)
        assert log.append("m1", 5, [], actor="host", recorded_at=T) == []
        assert log.head("m1") == (4, row.hash)

    # --------------------------------------------------------------------------- transactions

    @pytest.mark.parametrize("how", ["conflict", "caller error"])
    @pytest.mark.guarantee("log.atomic-command")
    def test_a_transaction_of_several_appends_is_all_or_nothing(self, log, how):
        three_events(log)
        before = log.rows("m1")
        with pytest.raises(LogConflict if how == "conflict" else CallerFailed):
            with log.transaction():
                log.append("m1", 4, [NoteAdded(text="ok")], actor="host", recorded_at=T)
                log.append("m2", 1, [CREATED], actor="host", recorded_at=T)
                log.append("m1", 5, [NoteAdded(text="ok too")], actor="host", recorded_at=T)
                _fail(log, how)
        assert log.rows("m1") == before
        assert log.rows("m2") == [] and not log.has_match("m2")
        assert log.head("m1") == (3, before[-1].hash)
        # and the store goes on from there, with nothing of the failed transaction left over
        [row] = log.append("m1", 4, [NoteAdded(text="after")], actor="host", recorded_at=T)
        assert log.rows("m1") == [*before, row] and log.match_ids() == ["m1"]

    def test_a_transaction_sees_its_own_appends_and_writes_them_together(self, log):
        three_events(log)
        with log.transaction():
            first = log.append("m1", 4, [NoteAdded(text="c")], actor="host", recorded_at=T)
            second = log.append("m2", 1, [CREATED], actor="host", recorded_at=T)
            assert log.has_match("m2")
            assert log.head("m1") == (4, first[0].hash)
            assert log.rows("m1", after=3) == first
            assert log.match_ids() == ["m1", "m2"]
        assert log.rows("m1", after=3) == first and log.rows("m2") == second
        assert verify_chain("m1", log.rows("m1")) == []

    # --------------------------------------------------------------------------- import

    def test_imported_rows_are_written_exactly_as_they_were(self, log, backend):
        three_events(log)
        rows = log.rows("m1")
        copied = backend.open("copy")
        copy = copied.log
        try:
            copy.append_rows(rows)
            assert copy.rows("m1") == rows
            assert copy.head("m1") == (3, rows[-1].hash)
            [after] = copy.append("m1", 4, [NoteAdded(text="c")], actor="host", recorded_at=T)
            assert after.prev_hash == rows[-1].hash
        finally:
            copied.close()

    def test_imported_rows_that_clash_conflict_naming_their_matches_and_write_nothing(self, log, backend):
        three_events(log)
        rows = log.rows("m1")
        copied = backend.open("copy")
        copy = copied.log
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
            copied.close()

    # --------------------------------------------------------------------------- what is stored

    def test_match_ids_lists_every_match_in_order(self, log):
        assert log.match_ids() == []
        for match_id in ("m2", "a-1", "m10"):
            log.append(match_id, 1, [CREATED], actor="host", recorded_at=T)
        assert log.match_ids() == ["a-1", "m10", "m2"]

    def test_has_match_and_head(self, log):
        assert not log.has_match("m1") and log.head("m1") is None
        rows = three_events(log)
        assert log.has_match("m1") and not log.has_match("m2")
        assert log.head("m1") == (3, rows[-1].hash)

    def test_reads_of_an_unknown_match(self, log):
        three_events(log)
        assert log.rows("zz") == []
        assert log.head("zz") is None
        assert not log.has_match("zz")
        with pytest.raises(UnknownMatch, match="no match 'zz'"):
            log.events("zz")

    # --------------------------------------------------------------------------- append-only

    @pytest.mark.parametrize("column", COLUMNS)
    @pytest.mark.guarantee("log.append-only")
    def test_update_through_a_plain_connection_fails(self, log, backend, column):
        three_events(log)
        before = log.rows("m1")
        value = 99 if column == "seq" else "x"
        with pytest.raises(backend.refusal, match="append-only"):
            backend.plain(f"UPDATE events SET {column} = ? WHERE match_id = ? AND seq = ?", value, "m1", 2)
        assert log.rows("m1") == before

    @pytest.mark.parametrize("column", COLUMNS)
    @pytest.mark.guarantee("log.append-only")
    def test_delete_through_a_plain_connection_fails(self, log, backend, column):
        three_events(log)
        before = log.rows("m1")
        with pytest.raises(backend.refusal, match="append-only"):
            backend.plain(f"DELETE FROM events WHERE {column} = ?", getattr(before[1], column))
        assert log.rows("m1") == before

    # --------------------------------------------------------------------------- tampering

    def test_a_body_that_is_not_utf8_is_still_read_and_verify_names_its_seq(self, log, backend):
        three_events(log)
        backend.write_non_utf8_body("m1", 2)
        rows = log.rows("m1")
        assert [r.seq for r in rows] == [1, 2, 3]
        assert "\ufffd" in rows[1].body
        [finding] = verify_chain("m1", rows)
        assert (finding.seq, finding.problem) == (2, "hash does not match the event's contents")
        with pytest.raises(CorruptLog, match="cannot read"):
            log.events("m1")  # a replay refuses it rather than read a replaced text


class SnapshotCacheContract(_OnABackEnd):
    """The snapshot cache (``store.snapshots``: ledger/snapshot_cache.py), vouched for by the log."""

    @pytest.fixture
    def snapshots(self, store):
        return store.snapshots

    def test_an_unknown_match_has_no_snapshot(self, log, snapshots):
        three_events(log)
        assert snapshots.snapshot("zz", "rev") is None

    def test_a_snapshot_is_read_back_for_its_revision_and_seqs(self, log, snapshots):
        rows = three_events(log)
        snapshots.save_snapshot("m1", 2, rows[1].hash, "rev1", b"\x00state")
        assert snapshots.snapshot("m1", "rev1") == (2, b"\x00state", rows[1].hash)
        assert snapshots.snapshot("m1", "rev1", upto=2) == (2, b"\x00state", rows[1].hash)
        assert snapshots.snapshot("m1", "rev1", upto=1) is None
        assert snapshots.snapshot("m1", "rev2") is None
        assert snapshots.snapshot("m2", "rev1") is None

    def test_a_snapshot_is_not_used_unless_its_event_keeps_its_hash(self, log, snapshots, backend):
        rows = three_events(log)
        snapshots.save_snapshot("m1", 2, "0" * 64, "rev1", b"forged")
        assert snapshots.snapshot("m1", "rev1") is None
        snapshots.save_snapshot("m1", 2, rows[1].hash, "rev1", b"state")
        assert snapshots.snapshot("m1", "rev1") is not None
        backend.tamper("UPDATE events SET hash = ? WHERE match_id = ? AND seq = ?", "f" * 64, "m1", 2)
        assert snapshots.snapshot("m1", "rev1") is None

    def test_saving_a_snapshot_replaces_the_one_before(self, log, snapshots):
        rows = three_events(log)
        snapshots.save_snapshot("m1", 2, rows[1].hash, "rev1", b"old")
        snapshots.save_snapshot("m1", 3, rows[2].hash, "rev2", b"new")
        assert snapshots.snapshot("m1", "rev2") == (3, b"new", rows[2].hash)
        assert snapshots.snapshot("m1", "rev1") is None

    def test_a_snapshot_is_written_with_the_transaction_it_belongs_to(self, store, log, snapshots):
        three_events(log)
        with pytest.raises(CallerFailed):
            with store.transaction():
                [row] = log.append("m1", 4, [NoteAdded(text="c")], actor="host", recorded_at=T)
                snapshots.save_snapshot("m1", 4, row.hash, "rev1", b"state")
                raise CallerFailed
        assert snapshots.snapshot("m1", "rev1") is None
        assert log.head("m1")[0] == 3


class CapabilityStoreContract(_OnABackEnd):
    """The capability store (``store.capability_store``: ledger/capability_store.py)."""

    @pytest.fixture
    def capability_store(self, store):
        return store.capability_store

    @pytest.mark.guarantee("service.tokens-hashed")
    def test_a_capability_is_kept_by_the_hash_of_its_token_and_read_back(self, log, capability_store, backend):
        three_events(log)
        kept = _capability("t" * 32)
        auditor = _capability("a" * 32, role="auditor", participant=None, can_submit=False)
        capability_store.save_capability(kept)
        capability_store.save_capability(auditor)
        assert capability_store.capability(kept.token_hash) == kept and kept.active
        assert capability_store.capability(auditor.token_hash) == auditor
        assert capability_store.capability(_capability("u" * 32).token_hash) is None
        # the token itself is nowhere: not in any column of the table, not in the log
        stored = backend.plain("SELECT * FROM capabilities")
        assert len(stored) == 2 and not any("t" * 32 in str(value) for row in stored for value in row)
        assert [row.kind for row in log.rows("m1")] == ["MatchCreated", "NoteAdded", "NoteAdded"]

    def test_revoking_a_capability_stamps_it_once(self, capability_store):
        kept = _capability("t" * 32)
        capability_store.save_capability(kept)
        revoked = capability_store.revoke_capability(kept.token_hash, "2026-01-02T00:00:00.000000Z")
        assert revoked.revoked_at == "2026-01-02T00:00:00.000000Z" and not revoked.active
        assert capability_store.capability(kept.token_hash) == revoked
        again = capability_store.revoke_capability(kept.token_hash, "2026-01-03T00:00:00.000000Z")
        assert again.revoked_at == "2026-01-02T00:00:00.000000Z"  # the first revocation stands
        assert capability_store.revoke_capability(_capability("u" * 32).token_hash, T) is None

    @pytest.mark.guarantee("service.links-listed")
    def test_every_capability_issued_is_listed_oldest_first_by_match_or_all(self, capability_store, backend):
        assert (
            capability_store.capabilities() == [] and capability_store.capabilities("m1") == []
        )  # nobody was ever invited
        first = _capability("t" * 32, created_at="2026-01-01T00:00:00.000000Z")
        auditor = _capability(
            "a" * 32, role="auditor", participant=None, can_submit=False, created_at="2026-01-02T00:00:00.000000Z"
        )
        other = _capability("o" * 32, match_id="m2", created_at="2026-01-03T00:00:00.000000Z")
        for capability in (other, auditor, first):
            capability_store.save_capability(capability)
        capability_store.revoke_capability(auditor.token_hash, "2026-01-04T00:00:00.000000Z")
        revoked = capability_store.capability(auditor.token_hash)
        assert capability_store.capabilities() == [first, revoked, other]
        assert capability_store.capabilities("m1") == [first, revoked]
        assert capability_store.capabilities("m9") == []
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
        assert [c.token_hash for c in capability_store.capabilities("m1")] == [
            first.token_hash,
            auditor.token_hash,
            "p" * 64,
        ]

    def test_a_store_that_never_issued_a_capability_finds_none(self, log, capability_store):
        three_events(log)
        assert capability_store.capability(_capability("t" * 32).token_hash) is None
        assert capability_store.revoke_capability(_capability("t" * 32).token_hash, T) is None

    def test_a_capability_saved_in_a_failed_transaction_is_not_kept(self, store, log, capability_store):
        three_events(log)
        kept = _capability("t" * 32)
        with pytest.raises(CallerFailed):
            with store.transaction():
                capability_store.save_capability(kept)
                raise CallerFailed
        assert capability_store.capability(kept.token_hash) is None


def _address(url: str, source: str = "listening", recorded_at: str = T):
    from matchledger.ledger.service_addresses import ServiceAddress

    return ServiceAddress(url=url, source=source, recorded_at=recorded_at)


class ServiceAddressContract(_OnABackEnd):
    """The service's address, kept by the capability store beside the links
    (``store.capability_store``: ledger/service_addresses.py)."""

    @pytest.fixture
    def capability_store(self, store):
        return store.capability_store

    def test_a_store_where_no_address_was_recorded_has_none(self, log, capability_store):
        three_events(log)
        assert capability_store.service_addresses() == []

    @pytest.mark.guarantee("service.links-address")
    def test_the_latest_address_of_each_source_is_kept_beside_the_log(self, log, capability_store):
        rows = three_events(log)
        capability_store.save_service_address(_address("http://127.0.0.1:40001"))
        given = _address("https://games.example.org", "base-url", "2026-01-02T00:00:00.000000Z")
        capability_store.save_service_address(given)
        latest = _address("http://127.0.0.1:40002", recorded_at="2026-01-03T00:00:00.000000Z")
        capability_store.save_service_address(latest)
        assert capability_store.service_addresses() == [given, latest]  # by source
        assert log.rows("m1") == rows  # nothing of it in the log

    def test_an_address_saved_in_a_failed_transaction_is_not_kept(self, store, capability_store):
        kept = _address("http://127.0.0.1:40001")
        capability_store.save_service_address(kept)
        with pytest.raises(CallerFailed):
            with store.transaction():
                capability_store.save_service_address(_address("http://127.0.0.1:40002"))
                raise CallerFailed
        assert capability_store.service_addresses() == [kept]

    def test_an_address_written_past_the_store_is_read_as_stored_for_the_reader_to_check(
        self, capability_store, backend
    ):
        backend.plain(
            "INSERT INTO service_addresses (source, url, recorded_at) VALUES (?, ?, ?)",
            "listening",
            "javascript:alert(1)\x1b[2J",
            T,
        )
        assert capability_store.service_addresses() == [_address("javascript:alert(1)\x1b[2J")]


def _hook(hook_id: str = "h1", **fields):
    from matchledger.ledger.hooks import Hook

    defaults = {
        "match_id": "m1",
        "url": "https://chat.example.org/hook",
        "kinds": ("close", "finished"),
        "format": "discord",
        "secret": "s" * 43,
        "after_seq": 3,
        "created_at": T,
    }
    return Hook(hook_id=hook_id, **{**defaults, **fields})


def _delivery(hook_id: str = "h1", seq: int = 4, kind: str = "close"):
    from matchledger.ledger.hooks import Delivery

    return Delivery(hook_id=hook_id, match_id="m1", seq=seq, kind=kind, claimed_at=T)


class HookStoreContract(_OnABackEnd):
    """The hooks and their deliveries, kept beside the capabilities (``store.hook_store``:
    ledger/hook_store.py)."""

    @pytest.fixture
    def hook_store(self, store):
        return store.hook_store

    def test_a_store_where_no_hook_was_added_has_none(self, log, hook_store):
        three_events(log)
        assert (hook_store.hooks(), hook_store.hook("h1"), hook_store.deliveries("h1")) == ([], None, [])

    def test_hooks_are_kept_beside_the_log_in_the_order_they_were_added(self, log, hook_store):
        rows = three_events(log)
        later = _hook("h0", match_id="m2", created_at="2026-01-02T00:00:00.000000Z", format="json", kinds=("turn",))
        first = _hook("h1")
        hook_store.save_hook(later)
        hook_store.save_hook(first)
        assert hook_store.hooks() == [first, later]
        assert hook_store.hooks("m2") == [later] and hook_store.hook("h1") == first
        assert log.rows("m1") == rows  # nothing of it in the log

    def test_a_removed_hook_is_stamped_once_and_kept(self, hook_store):
        hook_store.save_hook(_hook())
        removed = hook_store.remove_hook("h1", "2026-01-02T00:00:00.000000Z")
        assert removed is not None and removed.removed_at == "2026-01-02T00:00:00.000000Z" and not removed.active
        assert hook_store.remove_hook("h1", "2026-01-03T00:00:00.000000Z") == removed
        assert hook_store.remove_hook("nope", T) is None

    def test_a_delivery_is_claimed_once_and_keeps_each_attempt(self, hook_store):
        from matchledger.ledger.hooks import DELIVERED, Attempt

        hook_store.save_hook(_hook())
        assert hook_store.claim_delivery(_delivery())
        assert not hook_store.claim_delivery(_delivery())  # a second serve finds it claimed
        assert hook_store.claim_delivery(_delivery(seq=9, kind="finished"))
        first = Attempt(at=T, error="timed out")
        second = Attempt(at="2026-01-01T00:00:02.000000Z", status=204)
        hook_store.record_attempt(_delivery(), first, "pending")
        done = hook_store.record_attempt(_delivery(), second, DELIVERED)
        assert done.attempts == (first, second) and done.state == DELIVERED
        assert hook_store.deliveries("h1") == [done, _delivery(seq=9, kind="finished")]

    def test_a_claim_in_a_failed_transaction_is_not_kept(self, store, hook_store):
        hook_store.save_hook(_hook())
        with pytest.raises(CallerFailed):
            with store.transaction():
                assert hook_store.claim_delivery(_delivery())
                raise CallerFailed
        assert hook_store.deliveries("h1") == []
        assert hook_store.claim_delivery(_delivery())

    def test_claims_from_two_stores_at_once_let_exactly_one_send(self, backend, hook_store):
        hook_store.save_hook(_hook())
        other = backend.open()
        try:
            claims = [hook_store.claim_delivery(_delivery()), other.hook_store.claim_delivery(_delivery())]
        finally:
            other.close()
        assert claims == [True, False]

    def test_a_claim_is_taken_over_only_while_it_is_still_the_one_given(self, backend, hook_store):
        """The lease (ledger/hooks.py): renewing or taking over compares ``claimed_at``
        and sets it, so of two that saw the same claim at most one gets it, and a
        delivery no longer pending is nobody's to take."""
        from matchledger.ledger.hooks import DELIVERED, Attempt

        later, latest = "2026-01-01T00:10:00.000000Z", "2026-01-01T00:20:00.000000Z"
        hook_store.save_hook(_hook())
        assert hook_store.claim_delivery(_delivery())
        tried = hook_store.record_attempt(_delivery(), Attempt(at=T, error="timed out"), "pending")
        other = backend.open()
        try:
            taken = other.hook_store.take_over(_delivery(), later)
            assert taken is not None and taken.claimed_at == later and taken.attempts == tried.attempts
            assert hook_store.take_over(_delivery(), latest) is None  # the claim it saw is gone
        finally:
            other.close()
        assert hook_store.deliveries("h1") == [taken]
        done = hook_store.record_attempt(taken, Attempt(at=later, status=204), DELIVERED)
        assert hook_store.take_over(done, latest) is None  # delivered: nobody's to take


class ChangeFeedContract(_OnABackEnd):
    """The change feed (``store.changes``: ledger/change_feed.py)."""

    @pytest.fixture
    def changes(self, store):
        return store.changes

    @pytest.mark.guarantee("service.live")
    def test_data_version_changes_when_another_store_commits_and_only_then(self, log, changes, backend):
        """What the service's live pages poll: a cheap number that moves once anything was
        committed through another connection (the command line's, another process's)."""
        three_events(log)
        other = backend.open()
        try:
            before = changes.data_version()
            assert changes.data_version() == before  # nothing committed elsewhere
            other.log.append("m1", 4, [NoteAdded(text="elsewhere")], actor="host", recorded_at=T)
            after = changes.data_version()
            assert after != before
            assert changes.data_version() == after
        finally:
            other.close()

    @pytest.mark.guarantee("service.live")
    def test_data_version_moves_when_a_transaction_commits_after_a_later_one(self, log, changes, backend):
        """The service keeps tokens' grants while data_version stands still: a revocation
        whose transaction began first but commits last must still move it."""
        if getattr(backend, "one_writer_at_a_time", False):
            pytest.skip(f"{backend.name} lets one writer in at a time: a commit cannot overtake another's")
        three_events(log)
        first, second = backend.open(), backend.open()
        try:
            with first.log.transaction():
                first.log.append("m1", 4, [NoteAdded(text="began first")], actor="host", recorded_at=T)
                assert len(first.log.rows("m1")) == 4  # written (not yet committed), so its transaction has begun
                second.log.append("m2", 1, [CREATED], actor="host", recorded_at=T)  # begun and committed meanwhile
                before = changes.data_version()
                assert changes.data_version() == before
            assert changes.data_version() != before
            assert [r.seq for r in log.rows("m1")] == [1, 2, 3, 4]
        finally:
            first.close()
            second.close()

    def test_moved_since_says_whether_another_store_committed_since_a_position(self, log, changes, backend):
        three_events(log)
        position = changes.data_version()
        assert not changes.moved_since(position)
        other = backend.open()
        try:
            other.log.append("m1", 4, [NoteAdded(text="elsewhere")], actor="host", recorded_at=T)
        finally:
            other.close()
        assert changes.moved_since(position)
        assert not changes.moved_since(changes.data_version())

    @pytest.mark.guarantee("service.live")
    def test_a_pushing_feed_names_each_match_another_store_commits_to_and_each_links_change(
        self, log, changes, backend
    ):
        """Where the back end pushes changes, what another connection commits is told
        as it lands: the match whose events moved, the match whose link was given or
        revoked; where it pushes nothing, ``subscribe`` says so (None) and
        ``data_version`` is what a reader polls."""
        three_events(log)
        heard = HeardChanges()
        subscription = changes.subscribe(heard)
        other = backend.open()
        try:
            if subscription is None:
                before = changes.data_version()
                other.log.append("m1", 4, [NoteAdded(text="elsewhere")], actor="host", recorded_at=T)
                assert changes.data_version() != before
                return
            assert heard.wait_for("listening"), "the feed never said it listens"
            other.log.append("m1", 4, [NoteAdded(text="elsewhere")], actor="host", recorded_at=T)
            other.log.append("m2", 1, [CREATED], actor="host", recorded_at=T)
            assert heard.wait_for(("moved", "m1")) and heard.wait_for(("moved", "m2"))
            other.capability_store.save_capability(_capability("p" * 32))
            assert heard.wait_for(("links", "m1"))
            with pytest.raises(CallerFailed), other.transaction():
                other.log.append("m3", 1, [CREATED], actor="host", recorded_at=T)
                raise CallerFailed  # rolled back: nothing committed, nothing told
            other.log.append("m4", 1, [CREATED], actor="host", recorded_at=T)
            assert heard.wait_for(("moved", "m4"))
            assert ("moved", "m3") not in heard.told  # told in commit order: m3's would have come first
        finally:
            other.close()
            if subscription is not None:
                subscription.close()

    def test_a_pushing_feeds_safety_net_hands_over_the_heads_of_the_watched_matches_once_it_moved(
        self, log, changes, backend
    ):
        """Every ``fallback`` seconds, once the database moved, the heads of the matches
        the receiver keeps are read and handed over, so that a move it was not told of
        (none should be) costs a look, never a stale page."""
        rows = three_events(log)
        heard = HeardChanges(watched=("m1", "m9"))
        subscription = changes.subscribe(heard, fallback=0.2)
        if subscription is None:
            return  # nothing pushed, nothing to back up: the poll is the whole feed
        other = backend.open()
        try:
            assert heard.wait_for("listening"), "the feed never said it listens"
            [fourth] = other.log.append("m1", 4, [NoteAdded(text="elsewhere")], actor="host", recorded_at=T)
            assert heard.wait_for(("heads", (("m1", (4, fourth.hash)), ("m9", None))))
            assert rows[-1].hash != fourth.hash
        finally:
            other.close()
            subscription.close()


class HeardChanges:
    """A receiver of pushed changes (ledger/change_feed.py, ``Listener``) that keeps
    what it was told, in order, from the feed's thread."""

    def __init__(self, watched: tuple[str, ...] = ()):
        import threading

        self.told: list = []
        self._watched = watched
        self._changed = threading.Condition()

    def _tell(self, what) -> None:
        with self._changed:
            self.told.append(what)
            self._changed.notify_all()

    def wait_for(self, what, timeout: float = 10.0) -> bool:
        """Whether ``what`` was told within ``timeout`` seconds (a guard against a hang)."""
        with self._changed:
            return self._changed.wait_for(lambda: what in self.told, timeout)

    def listening(self) -> None:
        self._tell("listening")

    def lost(self) -> None:
        self._tell("lost")

    def match_moved(self, match_id: str) -> None:
        self._tell(("moved", match_id))

    def links_changed(self, match_id: str) -> None:
        self._tell(("links", match_id))

    def heads_seen(self, heads) -> None:
        self._tell(("heads", tuple(sorted(heads.items()))))

    def watched(self) -> tuple[str, ...]:
        return self._watched


class StoreContract(
    EventLogContract,
    SnapshotCacheContract,
    CapabilityStoreContract,
    ServiceAddressContract,
    HookStoreContract,
    ChangeFeedContract,
):
    """The whole store contract: every part's, and the store answering for its parts (a
    subclass named ``Test...`` gives the fixture ``backend``: see the module)."""

    def test_the_store_answers_each_parts_methods_as_the_part_does(self, store):
        rows = three_events(store)
        assert store.log.rows("m1") == store.rows("m1") == rows
        assert store.head("m1") == store.log.head("m1") == (3, rows[-1].hash)
        assert store.match_ids() == store.log.match_ids() == ["m1"]
        assert store.has_match("m1") and store.events("m1") == store.log.events("m1")
        store.save_snapshot("m1", 3, rows[-1].hash, "rev", b"state")
        assert store.snapshots.snapshot("m1", "rev") == store.snapshot("m1", "rev") == (3, b"state", rows[-1].hash)
        kept = _capability("t" * 32)
        store.save_capability(kept)
        assert store.capability_store.capability(kept.token_hash) == store.capability(kept.token_hash) == kept
        assert store.capabilities("m1") == store.capability_store.capabilities("m1") == [kept]
        assert store.revoke_capability(kept.token_hash, T) == store.capability_store.capability(kept.token_hash)
        store.save_service_address(_address("http://127.0.0.1:40001"))
        assert (
            store.service_addresses()
            == store.capability_store.service_addresses()
            == [_address("http://127.0.0.1:40001")]
        )
        assert store.data_version() == store.changes.data_version()

    def test_one_transaction_of_the_store_spans_its_parts(self, store):
        rows = three_events(store)
        kept = _capability("t" * 32)
        with pytest.raises(CallerFailed):
            with store.transaction():
                assert store.in_transaction and store.log.in_transaction
                [row] = store.log.append("m1", 4, [NoteAdded(text="c")], actor="host", recorded_at=T)
                store.snapshots.save_snapshot("m1", 4, row.hash, "rev", b"state")
                store.capability_store.save_capability(kept)
                raise CallerFailed
        assert not store.in_transaction
        assert store.rows("m1") == rows
        assert store.snapshot("m1", "rev") is None and store.capability(kept.token_hash) is None

"""The store contract: what every back end's store does, run unchanged against each
(``backend`` and ``store`` come from conftest.py, one run per back end)."""

import pytest
from matchledger.ledger.codec import GENESIS_HASH
from matchledger.ledger.errors import CorruptLog, LogConflict, UnknownMatch
from matchledger.ledger.events import MatchCreated, NoteAdded
from matchledger.ledger.store import COLUMNS
from matchledger.ledger.verify import verify_chain

from tests.helpers import own_hash

T = "2026-01-01T00:00:00.000000Z"
CREATED = MatchCreated(game="toy", players=["ann", "bob"], options={"multiplier": 1})
NOTES = [NoteAdded(text="a"), NoteAdded(text="é \"b\"")]


def three_events(store, match_id="m1"):
    """The match's first three events, appended in one call."""
    return store.append(match_id, 1, [CREATED, *NOTES], actor="host", recorded_at=T)


# --------------------------------------------------------------------------- appending and reading


@pytest.mark.guarantee("log.hash-chain")
def test_appended_events_read_back_as_rows_chained_from_the_genesis_hash(store):
    appended = three_events(store)
    rows = store.rows("m1")
    assert rows == appended
    assert [(r.match_id, r.seq, r.kind, r.actor, r.recorded_at) for r in rows] == [
        ("m1", 1, "MatchCreated", "host", T), ("m1", 2, "NoteAdded", "host", T), ("m1", 3, "NoteAdded", "host", T)]
    assert [r.event() for r in rows] == [CREATED, *NOTES]
    assert [r.prev_hash for r in rows] == [GENESIS_HASH, rows[0].hash, rows[1].hash]
    assert [r.hash for r in rows] == [own_hash(r) for r in rows]
    assert verify_chain("m1", rows) == []


def test_events_are_the_decoded_pairs_of_the_rows(store):
    three_events(store)
    store.append("m1", 4, [NoteAdded(text="c")], actor="other", recorded_at="2026-01-02T00:00:00.000000Z")
    assert store.events("m1") == [(1, CREATED), (2, NOTES[0]), (3, NOTES[1]), (4, NoteAdded(text="c"))]
    assert store.rows("m1")[3].prev_hash == store.rows("m1")[2].hash


def test_reads_take_the_seqs_after_and_up_to_the_ones_given(store):
    three_events(store)
    assert [r.seq for r in store.rows("m1", after=1)] == [2, 3]
    assert [r.seq for r in store.rows("m1", upto=2)] == [1, 2]
    assert [r.seq for r in store.rows("m1", after=1, upto=2)] == [2]
    assert store.events("m1", after=2) == [(3, NOTES[1])]
    assert store.events("m1", after=3) == []  # nothing new is not an unknown match


def test_any_client_reads_the_contract_columns_and_the_exact_hashed_body(store, backend):
    rows = three_events(store)
    plain = backend.plain(f"SELECT {', '.join(COLUMNS)} FROM events WHERE match_id = ? ORDER BY seq", "m1")
    assert plain == [tuple(getattr(row, column) for column in COLUMNS) for row in rows]


def test_matches_are_kept_apart(store):
    three_events(store, "m1")
    store.append("m2", 1, [CREATED], actor="host", recorded_at=T)
    assert [r.seq for r in store.rows("m2")] == [1]
    assert store.rows("m2")[0].prev_hash == GENESIS_HASH
    assert store.rows("m2")[0].hash != store.rows("m1")[0].hash  # the match id is hashed
    assert [r.seq for r in store.rows("m1")] == [1, 2, 3]


# --------------------------------------------------------------------------- optimistic concurrency


@pytest.mark.guarantee("concurrency.loser-told")
def test_an_append_expecting_a_seq_already_written_conflicts_and_writes_nothing(store):
    three_events(store)
    before = store.rows("m1")
    with pytest.raises(LogConflict, match="match 'm1' moved on: expected to write seq 3 but the log already ends at seq 3"):
        store.append("m1", 3, [NoteAdded(text="late"), NoteAdded(text="later")], actor="host", recorded_at=T)
    assert store.rows("m1") == before
    assert store.head("m1") == (3, before[-1].hash)


@pytest.mark.guarantee("concurrency.loser-told")
def test_an_append_expecting_a_seq_past_the_log_conflicts_and_writes_nothing(store):
    three_events(store)
    before = store.rows("m1")
    with pytest.raises(LogConflict, match="expected to write seq 5 but the log already ends at seq 3"):
        store.append("m1", 5, [NoteAdded(text="early")], actor="host", recorded_at=T)
    with pytest.raises(LogConflict, match="match 'new' moved on: expected to write seq 2 but the log already ends at seq 0"):
        store.append("new", 2, [CREATED], actor="host", recorded_at=T)
    assert store.rows("m1") == before
    assert not store.has_match("new")


def test_the_next_seq_appends(store):
    three_events(store)
    [row] = store.append("m1", 4, [NoteAdded(text="next")], actor="host", recorded_at=T)
    assert (row.seq, row.prev_hash) == (4, store.rows("m1")[2].hash)
    assert store.append("m1", 5, [], actor="host", recorded_at=T) == []
    assert store.head("m1") == (4, row.hash)


# --------------------------------------------------------------------------- transactions


class CallerFailed(Exception):
    pass


def _fail(store, how: str):
    if how == "conflict":
        store.append("m1", 4, [NoteAdded(text="conflict")], actor="host", recorded_at=T)
    else:
        raise CallerFailed


@pytest.mark.parametrize("how", ["conflict", "caller error"])
@pytest.mark.guarantee("log.atomic-command")
def test_a_transaction_of_several_appends_is_all_or_nothing(store, how):
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


def test_a_transaction_sees_its_own_appends_and_writes_them_together(store):
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


def test_imported_rows_are_written_exactly_as_they_were(store, backend):
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


def test_imported_rows_that_clash_conflict_naming_their_matches_and_write_nothing(store, backend):
    three_events(store)
    rows = store.rows("m1")
    copy = backend.open("copy")
    try:
        copy.append("m2", 1, [CREATED], actor="host", recorded_at=T)
        copy.append_rows(rows)
        with pytest.raises(LogConflict, match=r"match 'm1': another writer appended the same seq first"):
            copy.append_rows(rows)
        with pytest.raises(LogConflict, match=r"one of matches 'm1', 'm2': another writer appended the same seq first"):
            with copy.transaction():
                copy.append("m2", 2, [NoteAdded(text="new")], actor="host", recorded_at=T)
                copy.append_rows(rows[:1])
        assert [r.seq for r in copy.rows("m2")] == [1]
        assert copy.rows("m1") == rows
    finally:
        copy.close()


# --------------------------------------------------------------------------- what is stored


def test_match_ids_lists_every_match_in_order(store):
    assert store.match_ids() == []
    for match_id in ("m2", "a-1", "m10"):
        store.append(match_id, 1, [CREATED], actor="host", recorded_at=T)
    assert store.match_ids() == ["a-1", "m10", "m2"]


def test_has_match_and_head(store):
    assert not store.has_match("m1") and store.head("m1") is None
    rows = three_events(store)
    assert store.has_match("m1") and not store.has_match("m2")
    assert store.head("m1") == (3, rows[-1].hash)


def test_reads_of_an_unknown_match(store):
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
def test_update_through_a_plain_connection_fails(store, backend, column):
    three_events(store)
    before = store.rows("m1")
    value = 99 if column == "seq" else "x"
    with pytest.raises(backend.refusal, match="append-only"):
        backend.plain(f"UPDATE events SET {column} = ? WHERE match_id = ? AND seq = ?", value, "m1", 2)
    assert store.rows("m1") == before


@pytest.mark.parametrize("column", COLUMNS)
@pytest.mark.guarantee("log.append-only")
def test_delete_through_a_plain_connection_fails(store, backend, column):
    three_events(store)
    before = store.rows("m1")
    with pytest.raises(backend.refusal, match="append-only"):
        backend.plain(f"DELETE FROM events WHERE {column} = ?", getattr(before[1], column))
    assert store.rows("m1") == before


# --------------------------------------------------------------------------- tampering


def test_a_body_that_is_not_utf8_is_still_read_and_verify_names_its_seq(store, backend):
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


def test_a_snapshot_is_read_back_for_its_revision_and_seqs(store):
    rows = three_events(store)
    store.save_snapshot("m1", 2, rows[1].hash, "rev1", b"\x00state")
    assert store.snapshot("m1", "rev1") == (2, b"\x00state", rows[1].hash)
    assert store.snapshot("m1", "rev1", upto=2) == (2, b"\x00state", rows[1].hash)
    assert store.snapshot("m1", "rev1", upto=1) is None
    assert store.snapshot("m1", "rev2") is None
    assert store.snapshot("m2", "rev1") is None


def test_a_snapshot_is_not_used_unless_its_event_keeps_its_hash(store, backend):
    rows = three_events(store)
    store.save_snapshot("m1", 2, "0" * 64, "rev1", b"forged")
    assert store.snapshot("m1", "rev1") is None
    store.save_snapshot("m1", 2, rows[1].hash, "rev1", b"state")
    assert store.snapshot("m1", "rev1") is not None
    backend.tamper("UPDATE events SET hash = ? WHERE match_id = ? AND seq = ?", "f" * 64, "m1", 2)
    assert store.snapshot("m1", "rev1") is None


def test_saving_a_snapshot_replaces_the_one_before(store):
    rows = three_events(store)
    store.save_snapshot("m1", 2, rows[1].hash, "rev1", b"old")
    store.save_snapshot("m1", 3, rows[2].hash, "rev2", b"new")
    assert store.snapshot("m1", "rev2") == (3, b"new", rows[2].hash)
    assert store.snapshot("m1", "rev1") is None


def test_a_snapshot_is_written_with_the_transaction_it_belongs_to(store):
    three_events(store)
    with pytest.raises(CallerFailed):
        with store.transaction():
            [row] = store.append("m1", 4, [NoteAdded(text="c")], actor="host", recorded_at=T)
            store.save_snapshot("m1", 4, row.hash, "rev1", b"state")
            raise CallerFailed
    assert store.snapshot("m1", "rev1") is None
    assert store.head("m1")[0] == 3


# --------------------------------------------------------------------------- capabilities (the service's tokens)


def _capability(token: str, **fields):
    from matchledger.ledger.capabilities import Capability, token_hash

    defaults = {"match_id": "m1", "role": "participant", "participant": "ann", "can_submit": True, "created_at": T}
    return Capability(token_hash=token_hash(token), **{**defaults, **fields})


@pytest.mark.guarantee("service.tokens-hashed")
def test_a_capability_is_kept_by_the_hash_of_its_token_and_read_back(store, backend):
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


def test_revoking_a_capability_stamps_it_once(store):
    kept = _capability("t" * 32)
    store.save_capability(kept)
    revoked = store.revoke_capability(kept.token_hash, "2026-01-02T00:00:00.000000Z")
    assert revoked.revoked_at == "2026-01-02T00:00:00.000000Z" and not revoked.active
    assert store.capability(kept.token_hash) == revoked
    again = store.revoke_capability(kept.token_hash, "2026-01-03T00:00:00.000000Z")
    assert again.revoked_at == "2026-01-02T00:00:00.000000Z"  # the first revocation stands
    assert store.revoke_capability(_capability("u" * 32).token_hash, T) is None


@pytest.mark.guarantee("service.links-listed")
def test_every_capability_issued_is_listed_oldest_first_by_match_or_all(store, backend):
    assert store.capabilities() == [] and store.capabilities("m1") == []  # nobody was ever invited
    first = _capability("t" * 32, created_at="2026-01-01T00:00:00.000000Z")
    auditor = _capability("a" * 32, role="auditor", participant=None, can_submit=False, created_at="2026-01-02T00:00:00.000000Z")
    other = _capability("o" * 32, match_id="m2", created_at="2026-01-03T00:00:00.000000Z")
    for capability in (other, auditor, first):
        store.save_capability(capability)
    store.revoke_capability(auditor.token_hash, "2026-01-04T00:00:00.000000Z")
    revoked = store.capability(auditor.token_hash)
    assert store.capabilities() == [first, revoked, other]
    assert store.capabilities("m1") == [first, revoked]
    assert store.capabilities("m9") == []
    # a row written past the store (as a hostile tool would) is listed like any other
    backend.plain("INSERT INTO capabilities (token_hash, match_id, role, participant, can_submit, created_at, revoked_at) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?)", "p" * 64, "m1", "auditor", None, False, "2026-01-05T00:00:00.000000Z", None)
    assert [c.token_hash for c in store.capabilities("m1")] == [first.token_hash, auditor.token_hash, "p" * 64]


def test_a_store_that_never_issued_a_capability_finds_none(store):
    three_events(store)
    assert store.capability(_capability("t" * 32).token_hash) is None
    assert store.revoke_capability(_capability("t" * 32).token_hash, T) is None


def test_a_capability_saved_in_a_failed_transaction_is_not_kept(store):
    three_events(store)
    kept = _capability("t" * 32)
    with pytest.raises(CallerFailed):
        with store.transaction():
            store.save_capability(kept)
            raise CallerFailed
    assert store.capability(kept.token_hash) is None


@pytest.mark.guarantee("service.live")
def test_data_version_changes_when_another_store_commits_and_only_then(store, backend):
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
def test_data_version_moves_when_a_transaction_commits_after_a_later_one(store, backend):
    """The service keeps tokens' grants while data_version stands still: a revocation
    whose transaction began first but commits last must still move it."""
    if backend.name == "sqlite":
        pytest.skip("SQLite lets one writer in at a time: a commit cannot overtake another's")
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

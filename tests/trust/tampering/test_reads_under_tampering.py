"""Reads of a tampered log, one hole at a time: each test is a way a read once showed
data the chain does not vouch for (or named the wrong seq, or failed with an internal
error).  The whole matrix is `tests/trust/tampering/test_reads_matrix.py`.

The match: the lca amendment fixture, then a host note, so the checkpoint that
finishing it records (seq 18, vouching for the snapshot after seq 17) has an event
after it (seq 19)."""

from __future__ import annotations

import json
import sqlite3

import msgspec
import pytest

from matchledger.ledger.codec import GENESIS_HASH, encode, envelope_hash
from matchledger.ledger.events import NoteAdded
from matchledger.ledger.store import Store, StoredEvent
from matchledger.projections import snapshots
from tests.helpers import REPO, invoke, read_json
from tests.trust.tampering.harness import raw

M = "amend5"
CHECKPOINT = 18


@pytest.fixture
def checkpointed_amend5_db(tmp_path):
    path = tmp_path / "m.db"
    invoke(path, "script", REPO / "fixtures" / "lca" / "amendment-example.txt")
    invoke(path, "note", M, "a word after the match")
    rows = _rows(path)
    assert rows[CHECKPOINT - 1].kind == "StateCheckpointed" and len(rows) == CHECKPOINT + 1
    return path


def _rows(path) -> list[StoredEvent]:
    store = Store(path, create=False)
    try:
        return store.rows(M)
    finally:
        store.close()


def _rechained(path, seq: int, rows: list[StoredEvent]) -> None:
    """The rows from ``seq`` on replaced by ``rows``, renumbered, every hash recomputed."""
    prev = _rows(path)[seq - 2].hash if seq > 1 else GENESIS_HASH
    statements = [("DELETE FROM events WHERE match_id = ? AND seq >= ?", (M, seq))]
    for number, row in enumerate(rows, start=seq):
        digest = envelope_hash(
            encode(row.actor), row.body.encode(), row.kind, encode(M), prev, encode(row.recorded_at), number
        )
        statements.append(
            (
                "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (M, number, row.kind, row.body, row.recorded_at, row.actor, prev, digest),
            )
        )
        prev = digest
    raw(path, *statements)


def _refused(path, *args, seq: int):
    result = invoke(path, *args, expect=3)
    assert f"{M} seq {seq}: " in result.stderr and result.stdout == "", result.output
    return result


def test_a_read_at_an_event_that_was_removed_refuses_naming_it(checkpointed_amend5_db):
    """The rows up to a removed event still chain: a read up to it must notice that
    they stop short of it (it showed the state after the event before, as of this one)."""
    before = read_json(checkpointed_amend5_db, "status", M, "--at", 11)
    raw(checkpointed_amend5_db, ("DELETE FROM events WHERE match_id = ? AND seq = ?", (M, 12)))
    for args in (("status", M, "--at", 12), ("log", M, "--at", 12), ("outcome", M, "--at", 12, "--json")):
        assert "event 12 is missing (next stored seq is 13)" in _refused(checkpointed_amend5_db, *args, seq=12).stderr
    assert read_json(checkpointed_amend5_db, "status", M, "--at", 11) == before  # the events before it are intact
    assert (
        json.loads(invoke(checkpointed_amend5_db, "verify", M, "--json", expect=3).stdout)["matches"][0]["findings"][0][
            "seq"
        ]
        == 12
    )


def test_a_read_resumed_from_the_snapshot_names_the_first_bad_seq_of_the_whole_log(checkpointed_amend5_db):
    """Rows 8 and 19 swapped: the read resumed from the snapshot meets the break at 19,
    but the first bad seq (verify's) is 8."""
    rows = _rows(checkpointed_amend5_db)
    columns = ("kind", "body", "recorded_at", "actor", "prev_hash", "hash")
    raw(
        checkpointed_amend5_db,
        *[
            (f"UPDATE events SET {c} = ? WHERE match_id = ? AND seq = ?", (getattr(b, c), M, a.seq))
            for a, b in ((rows[7], rows[18]), (rows[18], rows[7]))
            for c in columns
        ],
    )
    for args in (("status", M), ("scores", M, "--json"), ("knowledge", M, "--as", "ann", "--at", CHECKPOINT + 1)):
        _refused(checkpointed_amend5_db, *args, seq=8)
    assert (
        json.loads(invoke(checkpointed_amend5_db, "verify", M, "--json", expect=3).stdout)["matches"][0]["findings"][0][
            "seq"
        ]
        == 8
    )


@pytest.mark.parametrize("inserted_at", [3, CHECKPOINT])
def test_reads_refuse_a_checkpoint_that_records_another_seq_than_the_event_before_it(
    checkpointed_amend5_db, inserted_at
):
    """A forged note inserted before the checkpoint and the chain re-hashed: the chain
    holds, but the checkpoint (moved on to seq 19) still says it follows seq 17."""
    rows = _rows(checkpointed_amend5_db)
    forged = msgspec.structs.replace(
        rows[inserted_at - 1], kind="NoteAdded", body=encode(NoteAdded(text="forged")).decode()
    )
    _rechained(checkpointed_amend5_db, inserted_at, [forged, *rows[inserted_at - 1 :]])
    for args in (("status", M), ("outcome", M, "--json"), ("log", M), ("export", M), ("head", M)):
        assert (
            "records the state after event 17, not the event before it"
            in _refused(checkpointed_amend5_db, *args, seq=19).stderr
        )
    assert (
        json.loads(invoke(checkpointed_amend5_db, "verify", M, "--json", expect=3).stdout)["matches"][0]["findings"][0][
            "seq"
        ]
        == 19
    )


def test_audit_reports_only_the_events_the_chain_vouches_for(checkpointed_amend5_db):
    """A kind column changed (audit read the row by its kind: an internal error) and the
    note's text forged (audit showed it): the report stops before the first bad seq."""
    honest = read_json(checkpointed_amend5_db, "audit", M)
    rows = _rows(checkpointed_amend5_db)
    forged_note = json.loads(rows[18].body) | {"text": "forged by mallory"}
    raw(
        checkpointed_amend5_db,
        ("UPDATE events SET kind = 'NoteAdded' WHERE match_id = ? AND seq = ?", (M, 9)),
        ("UPDATE events SET body = ? WHERE match_id = ? AND seq = ?", (json.dumps(forged_note), M, 19)),
    )
    report = read_json(checkpointed_amend5_db, "audit", M, expect=3)
    assert report["findings"][0]["seq"] == 9 and report["events"] == 8 and report["head"]["seq"] == 8
    assert report["corrections"] == [c for c in honest["corrections"] if c["seq"] < 9]
    assert "forged by mallory" not in json.dumps(report)
    assert "verify: amend5 seq 9: hash does not match" in invoke(checkpointed_amend5_db, "audit", M, expect=3).stdout


def test_rescore_replays_the_log_and_never_takes_the_recorded_outcome_from_the_snapshot(checkpointed_amend5_db):
    """A forged snapshot vouched for by a forged, re-chained checkpoint is a consistent
    rewrite that reads resumed from the snapshot show (only `verify` or a published
    head catch it); `rescore` reads the whole log anyway, and both of its outcomes
    come from it."""
    honest = read_json(checkpointed_amend5_db, "rescore", M, "--option", "filming_lights_divisor=1")
    conn = sqlite3.connect(checkpointed_amend5_db)
    [body] = conn.execute("SELECT body FROM snapshots").fetchone()
    conn.close()
    state = snapshots.decode_state(bytes(body))
    state.g.lights.scores["ann"] += 1000
    forged = snapshots.encode_state(state)
    raw(checkpointed_amend5_db, ("UPDATE snapshots SET body = ?", (forged,)))
    rows = _rows(checkpointed_amend5_db)
    checkpoint = msgspec.structs.replace(rows[CHECKPOINT - 1].event(), digest=snapshots.digest(forged))
    _rechained(
        checkpointed_amend5_db,
        CHECKPOINT,
        [msgspec.structs.replace(rows[CHECKPOINT - 1], body=encode(checkpoint).decode()), rows[-1]],
    )
    assert read_json(checkpointed_amend5_db, "scores", M) != read_json(
        checkpointed_amend5_db, "scores", M, "--at", CHECKPOINT - 1
    )  # the boundary
    assert read_json(checkpointed_amend5_db, "rescore", M, "--option", "filming_lights_divisor=1") == honest
    assert (
        json.loads(invoke(checkpointed_amend5_db, "verify", M, "--json", expect=3).stdout)["matches"][0]["findings"][0][
            "seq"
        ]
        == 17
    )

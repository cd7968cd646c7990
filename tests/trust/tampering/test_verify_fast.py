"""verify's chain check (each check down a whole column) finds exactly what a reference
walk finds: the reference below checks one row at a time, every check in its documented
order, hashing with the tests' own reference (``test_codec.reference_hash``).  The two
are compared on random tampered logs, and on a database tampered with directly (bodies
that are not UTF-8 included).
"""

from __future__ import annotations

import random

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchledger.ledger.codec import GENESIS_HASH, decode_event, encode
from matchledger.ledger.errors import CorruptLog
from matchledger.ledger.events import MatchCreated, NoteAdded, RoundClosed
from matchledger.ledger.store import Store, StoredEvent
from matchledger.ledger.verify import Finding, verify_chain
from tests.ledger.test_codec import reference_hash
from tests.trust.tampering.test_verify_checks import tamper

T = "2026-01-01T00:00:00.000000Z"


def reference_verify_chain(match_id, rows, head=None, decoded=None):
    """The chain check one row at a time, as first written: the oracle for verify_chain."""
    prev_hash = GENESIS_HASH
    for index, row in enumerate(rows):
        expected_seq = index + 1
        if row.match_id != match_id:
            return [Finding(match_id, row.seq, f"row belongs to match {row.match_id!r}, spliced in")]
        if row.seq != expected_seq:
            if row.seq > expected_seq:
                return [
                    Finding(match_id, expected_seq, f"event {expected_seq} is missing (next stored seq is {row.seq})")
                ]
            return [Finding(match_id, row.seq, f"seq {row.seq} appears out of order after seq {index}")]
        recomputed = reference_hash(
            row.prev_hash,
            match_id=row.match_id,
            seq=row.seq,
            recorded_at=row.recorded_at,
            actor=row.actor,
            kind=row.kind,
            body=row.body.encode("utf-8"),
        )
        if row.prev_hash != prev_hash:
            if recomputed == row.hash and index > 0:
                return [
                    Finding(
                        match_id,
                        row.seq - 1,
                        f"event {row.seq - 1} was altered: its hash is not the one event {row.seq} chains to",
                        "hash",
                        row.prev_hash,
                        rows[index - 1].hash,
                    )
                ]
            return [
                Finding(
                    match_id,
                    row.seq,
                    "prev_hash does not link to the previous event",
                    "prev_hash",
                    row.prev_hash,
                    prev_hash,
                )
            ]
        if recomputed != row.hash:
            return [
                Finding(match_id, row.seq, "hash does not match the event's contents", "hash", row.hash, recomputed)
            ]
        try:
            event = decode_event(row.body)
        except CorruptLog as exc:
            return [Finding(match_id, row.seq, f"body does not decode: {exc}")]
        if type(event).__name__ != row.kind:
            return [
                Finding(
                    match_id,
                    row.seq,
                    "kind column disagrees with the body's type",
                    "kind",
                    row.kind,
                    type(event).__name__,
                )
            ]
        if decoded is not None:
            decoded.append((row.seq, event))
        prev_hash = row.hash
    if head is not None:
        head_seq, head_hash = head
        if head_seq > len(rows):
            return [
                Finding(
                    match_id,
                    len(rows) + 1,
                    f"log ends at seq {len(rows)} but the published head is seq {head_seq}: events were removed",
                )
            ]
        if rows[head_seq - 1].hash != head_hash:
            return [
                Finding(
                    match_id,
                    head_seq,
                    "hash differs from the published head: the log was rewritten",
                    "hash",
                    rows[head_seq - 1].hash,
                    head_hash,
                )
            ]
    return []


def chained(match_id: str, events, actors=("h",), times=(T,)) -> list[StoredEvent]:
    rows, prev = [], GENESIS_HASH
    for seq, event in enumerate(events, start=1):
        body, kind = encode(event).decode(), type(event).__name__
        actor, at = actors[seq % len(actors)], times[seq % len(times)]
        digest = reference_hash(
            prev, match_id=match_id, seq=seq, recorded_at=at, actor=actor, kind=kind, body=body.encode()
        )
        rows.append(StoredEvent(match_id, seq, kind, body, at, actor, prev, digest))
        prev = digest
    return rows


def rehashed(row: StoredEvent, **changes) -> StoredEvent:
    row = msgspec.structs.replace(row, **changes)
    digest = reference_hash(
        row.prev_hash,
        match_id=row.match_id,
        seq=row.seq,
        recorded_at=row.recorded_at,
        actor=row.actor,
        kind=row.kind,
        body=row.body.encode(),
    )
    return msgspec.structs.replace(row, hash=digest)


def _edit(rows, other, rng: random.Random, how: str) -> list[StoredEvent]:
    rows = list(rows)
    i = rng.randrange(len(rows))
    row = rows[i]
    replace = msgspec.structs.replace
    if how == "body":
        rows[i] = replace(row, body=row.body.replace('"', "'", 1))
    elif how == "body_rehashed":
        rows[i] = rehashed(row, body=encode(NoteAdded(text="forged")).decode())
    elif how == "kind_rehashed":
        rows[i] = rehashed(row, kind="NoteAdded" if row.kind != "NoteAdded" else "RoundClosed")
    elif how == "prev_hash_rehashed":
        rows[i] = rehashed(row, prev_hash=rng.choice([GENESIS_HASH, "f" * 64, rows[i - 1].hash]))
    elif how == "bad_json_rehashed":
        rows[i] = rehashed(row, body="{not json")
    elif how == "v1_without_player_rehashed":
        # decode_event's upcaster fails on it with KeyError, not CorruptLog: a check
        # that decoded past the first finding would raise where the walk names it
        rows[i] = rehashed(
            row, kind="SubmissionRecorded", body='{"type":"SubmissionRecorded","v":1,"round":1,"tokens":"A1"}'
        )
    elif how in ("hash", "prev_hash", "actor", "recorded_at"):
        rows[i] = replace(row, **{how: getattr(row, how)[::-1] or "x"})
    elif how == "delete":
        del rows[i]
    elif how == "swap" and len(rows) > 1:
        j = rng.randrange(len(rows))
        rows[i], rows[j] = rows[j], rows[i]
    elif how == "splice":
        rows[i] = replace(other[min(i, len(other) - 1)], seq=row.seq)
    elif how == "seq":
        rows[i] = replace(row, seq=rng.choice([0, row.seq + 1, row.seq + 5, -1]))
    elif how == "truncate":
        rows = rows[:i]
    elif how in ("rechained_gap", "rechained_swap"):
        # a consistent forgery: rows dropped or reordered, every link and hash redone
        if how == "rechained_gap":
            del rows[i]
        else:
            j = rng.randrange(len(rows))
            rows[i], rows[j] = rows[j], rows[i]
        rows = _relinked(rows)
    return rows


def _relinked(rows: list[StoredEvent]) -> list[StoredEvent]:
    prev, result = GENESIS_HASH, []
    for row in rows:
        row = rehashed(row, prev_hash=prev)
        result.append(row)
        prev = row.hash
    return result


EDITS = [
    "none",
    "body",
    "body_rehashed",
    "kind_rehashed",
    "prev_hash_rehashed",
    "bad_json_rehashed",
    "v1_without_player_rehashed",
    "hash",
    "prev_hash",
    "actor",
    "recorded_at",
    "delete",
    "swap",
    "splice",
    "seq",
    "truncate",
    "rechained_gap",
    "rechained_swap",
]
texts = st.text(max_size=12)
notes = st.lists(texts.map(lambda t: NoteAdded(text=t)), min_size=1, max_size=6)
FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def both(match_id, rows, head):
    """verify_chain and the reference find the same (or fail alike), and keep the same events."""
    found_events, reference_events = [], []
    try:
        reference = reference_verify_chain(match_id, rows, head, decoded=reference_events)
    except KeyError:
        with pytest.raises(KeyError):
            verify_chain(match_id, rows, head, decoded=found_events)
        return
    assert verify_chain(match_id, rows, head, decoded=found_events) == reference
    assert found_events == reference_events


@FAST
@given(notes, st.sampled_from(EDITS), st.sampled_from(EDITS), st.integers(0, 2**32), st.integers(-1, 9), texts, texts)
def test_chain_check_finds_what_the_reference_walk_finds(events, edit, again, seed, head_at, actor, match_id):
    rng = random.Random(seed)
    events = [MatchCreated(game="toy", players=["a", "b"])] + events
    rows = chained(match_id, events, actors=("h", actor), times=(T, "2026-01-02T00:00:00Z"))
    other = chained(match_id + "x", events[:3])
    heads = [None, (rows[-1].seq, rows[-1].hash), (len(rows) + 1, rows[-1].hash)]
    if 1 <= head_at <= len(rows):
        heads.append((head_at, rows[head_at - 1].hash))
    tampered = rows
    for how in (edit, again):
        if tampered and how != "none":
            tampered = _edit(tampered, other, rng, how)
    for head in heads:
        both(match_id, tampered, head)


@pytest.mark.parametrize("edit", EDITS)
def test_every_edit_at_every_row_is_found_as_the_reference_finds_it(edit):
    events = [MatchCreated(game="toy", players=["a", "b"])] + [NoteAdded(text=f"n{i}") for i in range(5)]
    rows = chained("m1", events, actors=("h", "other"))
    other = chained("m2", events[:3])
    for seed in range(60):  # enough draws to hit every row, the first and the last included
        tampered = _edit(rows, other, random.Random(seed), edit)
        for head in (None, (len(rows), rows[-1].hash), (3, rows[2].hash)):
            both("m1", tampered, head)


# --------------------------------------------------------------------------- a real file


@pytest.fixture
def toy_log_db(tmp_path):
    path = tmp_path / "m.db"
    s = Store(path)
    s.append(
        "m1",
        1,
        [MatchCreated(game="toy", players=["ann", "bob"], options={"multiplier": 1})]
        + [NoteAdded(text=f"n{i}") for i in range(2, 5)],
        actor="h",
        recorded_at=T,
    )
    s.append("m1", 5, [RoundClosed(round=1, public={"é": "ü"}), NoteAdded(text="n6")], actor="other", recorded_at="t2")
    s.close()
    return path


TAMPERS = [
    [],
    ["UPDATE events SET body = CAST(X'7b22ff7d' AS TEXT) WHERE seq = 3"],  # not UTF-8
    ["UPDATE events SET actor = CAST(X'c328' AS TEXT) WHERE seq = 2"],  # not UTF-8
    ["UPDATE events SET body = replace(body, 'n3', 'n9') WHERE seq = 3"],
    ["DELETE FROM events WHERE seq = 4"],
    ["UPDATE events SET seq = 0 WHERE seq = 1"],
    ["UPDATE events SET recorded_at = 'x' WHERE seq = 6"],
    ["UPDATE events SET kind = 'NoteAdded' WHERE seq = 5"],
]


@pytest.mark.parametrize("edits", TAMPERS)
def test_a_tampered_file_is_found_as_the_reference_walk_finds_it(toy_log_db, edits):
    tamper(toy_log_db, *edits)
    store = Store(toy_log_db, create=False)
    try:
        rows = store.rows("m1")
        for head in (None, store.head("m1"), (7, "0" * 64)):
            both("m1", rows, head)
    finally:
        store.close()

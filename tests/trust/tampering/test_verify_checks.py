"""Every tamper case is caught by the chain check, naming the first bad event.

Each test edits the SQLite file directly (dropping the triggers, as an attacker would)
and would fail if the corresponding check were removed from ledger.verify.
"""

import sqlite3

import msgspec
import pytest

from matchledger.ledger.events import MatchCreated, NoteAdded
from matchledger.ledger.store import Store
from matchledger.ledger.verify import verify_chain
from tests.helpers import own_hash

T = "2026-01-01T00:00:00.000000Z"


@pytest.fixture
def two_toy_logs_db(tmp_path):
    path = tmp_path / "m.db"
    s = Store(path)
    s.append(
        "m1",
        1,
        [MatchCreated(game="toy", players=["ann", "bob"], options={"multiplier": 1})]
        + [NoteAdded(text=f"n{i}") for i in range(2, 7)],
        actor="h",
        recorded_at=T,
    )
    s.append(
        "m2",
        1,
        [MatchCreated(game="toy", players=["cy", "di"], options={"multiplier": 1}), NoteAdded(text="other")],
        actor="h",
        recorded_at=T,
    )
    s.close()
    return path


def tamper(path, *sql):
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER IF EXISTS events_no_update")
    conn.execute("DROP TRIGGER IF EXISTS events_no_delete")
    for statement in sql:
        conn.execute(statement)
    conn.commit()
    conn.close()


def first_finding(path, match="m1", head=None):
    s = Store(path)
    findings = verify_chain(match, s.rows(match), head)
    s.close()
    return findings[0] if findings else None


def test_intact_log_has_no_finding(two_toy_logs_db):
    assert first_finding(two_toy_logs_db) is None


@pytest.mark.guarantee("tamper.body-or-byte")
def test_changed_body(two_toy_logs_db):
    tamper(two_toy_logs_db, "UPDATE events SET body = replace(body, 'n3', 'n9') WHERE match_id='m1' AND seq=3")
    finding = first_finding(two_toy_logs_db)
    assert finding.seq == 3 and "hash does not match" in finding.problem


@pytest.mark.guarantee("tamper.hash-digit")
def test_changed_hash(two_toy_logs_db):
    tamper(two_toy_logs_db, "UPDATE events SET hash = '0000' || substr(hash, 5) WHERE match_id='m1' AND seq=4")
    finding = first_finding(two_toy_logs_db)
    assert finding.seq == 4 and finding.field == "hash"


@pytest.mark.guarantee("tamper.rehashed-event")
def test_recomputed_but_unchained_hash_names_the_altered_event(two_toy_logs_db):
    s = Store(two_toy_logs_db)
    row = s.rows("m1")[2]  # seq 3
    s.close()
    row = msgspec.structs.replace(row, body=row.body.replace("n3", "n9"))
    tamper(
        two_toy_logs_db,
        f"UPDATE events SET body = '{row.body}', hash = '{own_hash(row)}' WHERE match_id='m1' AND seq=3",
    )
    finding = first_finding(two_toy_logs_db)
    assert finding.seq == 3 and "altered" in finding.problem


@pytest.mark.guarantee("tamper.deleted-row")
def test_missing_event(two_toy_logs_db):
    tamper(two_toy_logs_db, "DELETE FROM events WHERE match_id='m1' AND seq=4")
    finding = first_finding(two_toy_logs_db)
    assert finding.seq == 4 and "missing" in finding.problem


@pytest.mark.guarantee("tamper.swapped-rows")
def test_reordered_events(two_toy_logs_db):
    tamper(
        two_toy_logs_db,
        "UPDATE events SET seq = 100 WHERE match_id='m1' AND seq=3",
        "UPDATE events SET seq = 3 WHERE match_id='m1' AND seq=4",
        "UPDATE events SET seq = 4 WHERE match_id='m1' AND seq=100",
    )
    assert first_finding(two_toy_logs_db).seq == 3


@pytest.mark.guarantee("tamper.spliced-row")
def test_event_from_another_match_spliced_in(two_toy_logs_db):
    tamper(
        two_toy_logs_db,
        "DELETE FROM events WHERE match_id='m1' AND seq=2",
        "INSERT INTO events SELECT 'm1', 2, kind, body, recorded_at, actor, prev_hash, hash FROM events WHERE match_id='m2' AND seq=2",
    )
    assert first_finding(two_toy_logs_db).seq == 2


@pytest.mark.guarantee("tamper.truncated-tail")
def test_truncated_tail_is_caught_by_the_published_head(two_toy_logs_db):
    s = Store(two_toy_logs_db)
    head = s.head("m1")
    s.close()
    assert head[0] == 6
    tamper(two_toy_logs_db, "DELETE FROM events WHERE match_id='m1' AND seq >= 5")
    assert first_finding(two_toy_logs_db) is None  # without the head, a clean truncation looks intact
    finding = first_finding(two_toy_logs_db, head=head)
    assert finding.seq == 5 and "published head is seq 6" in finding.problem


@pytest.mark.guarantee("tamper.rewritten-chain")
def test_consistently_rewritten_tail_is_caught_by_the_published_head(two_toy_logs_db):
    s = Store(two_toy_logs_db)
    head = s.head("m1")
    s.close()
    tamper(two_toy_logs_db, "DELETE FROM events WHERE match_id='m1' AND seq >= 5")
    s = Store(two_toy_logs_db)
    s.append("m1", 5, [NoteAdded(text="forged"), NoteAdded(text="forged2")], actor="h", recorded_at=T)
    s.close()
    assert first_finding(two_toy_logs_db) is None
    finding = first_finding(two_toy_logs_db, head=head)
    assert finding.seq == 6 and "rewritten" in finding.problem


@pytest.mark.guarantee("tamper.rewritten-chain")
def test_a_head_published_before_later_events_pins_its_own_seq_not_the_last(two_toy_logs_db):
    s = Store(two_toy_logs_db)
    head = (3, s.rows("m1")[2].hash)  # published when the log ended at seq 3; it is at 6 now
    s.close()
    assert first_finding(two_toy_logs_db, head=head) is None
    tamper(two_toy_logs_db, "DELETE FROM events WHERE match_id='m1' AND seq >= 3")
    s = Store(two_toy_logs_db)
    s.append("m1", 3, [NoteAdded(text="forged")], actor="h", recorded_at=T)
    s.close()
    finding = first_finding(two_toy_logs_db, head=head)
    assert finding.seq == 3 and "rewritten" in finding.problem

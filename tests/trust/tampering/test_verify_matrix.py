"""Tampering: a matrix of edits made straight to the SQLite file (plain sqlite3 with the
triggers dropped, or bytes flipped in the file itself), on a real fixture match of each
game in a database that holds all three.  `matchledger verify` must exit 3 and its
first finding must name the first bad seq; the untouched matches still verify.

Positions are drawn from a seeded random source per (case, game), so each case hits a
different event of each match, reproducibly.
"""

from __future__ import annotations

import json
import random

import msgspec
import pytest

from matchledger.ledger.events import NoteAdded
from matchledger.ledger.store import Store
from matchledger.projections.comparison import first_parting
from tests.helpers import invoke, own_hash
from tests.reliability.support import FIXTURE_MATCHES, build_fixture_db, copy_db, raw
from tests.trust.tampering import harness as tampering

# Long, like the suites under tests/reliability/ (which get the marker from their folder):
# `-m "not reliability"` leaves it out.
pytestmark = pytest.mark.reliability

GAMES = tuple(FIXTURE_MATCHES)  # the games with a recorded fixture match


@pytest.fixture(scope="module")
def verify_matrix_template(tmp_path_factory):
    path = tmp_path_factory.mktemp("tamper") / "fixtures.db"
    ids = build_fixture_db(path)
    clean = path.parent / "clean.db"
    copy_db(path, clean)
    return clean, ids


def rows_of(path, match):
    store = Store(path, create=False)
    try:
        return store.rows(match)
    finally:
        store.close()


def set_row(path, match, seq, **values):
    assignments = ", ".join(f"{k} = ?" for k in values)
    raw(path, (f"UPDATE events SET {assignments} WHERE match_id = ? AND seq = ?", (*values.values(), match, seq)))


def flip_char(text: str, rng: random.Random, alphabet: str) -> str:
    i = rng.randrange(len(text))
    new = rng.choice([c for c in alphabet if c != text[i]])
    return text[:i] + new + text[i + 1 :]


PRINTABLE = 'abcdefghijklmnopqrstuvwxyz0123456789{}[]:," '


# --------------------------------------------------------------------------- the edits
# Each takes (path, match, other_match, rows, rng) and returns (first bad seq, head or None).


def body_char_changed(path, match, other, rows, rng):
    s = rng.randint(1, len(rows))
    set_row(path, match, s, body=flip_char(rows[s - 1].body, rng, PRINTABLE))
    return s, None


def body_byte_flipped_in_the_file(path, match, other, rows, rng):
    data = bytearray(path.read_bytes())
    candidates = [r for r in rows if data.count(r.body.encode()) == 1]
    row = rng.choice(candidates)
    start = data.index(row.body.encode())
    i = start + rng.randrange(len(row.body.encode()))
    data[i] = rng.choice([c for c in PRINTABLE.encode() if c != data[i]])
    path.write_bytes(bytes(data))
    return row.seq, None


def hash_digit_changed(path, match, other, rows, rng):
    s = rng.randint(1, len(rows))
    set_row(path, match, s, hash=flip_char(rows[s - 1].hash, rng, "0123456789abcdef"))
    return s, None


def prev_hash_digit_changed(path, match, other, rows, rng):
    s = rng.randint(1, len(rows))
    set_row(path, match, s, prev_hash=flip_char(rows[s - 1].prev_hash, rng, "0123456789abcdef"))
    return s, None


def envelope_field_changed(path, match, other, rows, rng):
    s = rng.randint(1, len(rows))
    field, value = rng.choice(
        [
            ("actor", "mallory"),
            ("recorded_at", "2020-01-01T00:00:00.000000Z"),
            ("kind", "NoteAdded" if rows[s - 1].kind != "NoteAdded" else "RoundClosed"),
        ]
    )
    set_row(path, match, s, **{field: value})
    return s, None


def event_rehashed_alone(path, match, other, rows, rng):
    """A body changed and its own hash recomputed (not the rest of the chain)."""
    s = rng.randint(1, len(rows) - 1)
    row = msgspec.structs.replace(rows[s - 1], body=rows[s - 1].body.replace('"type"', ' "type"', 1))
    set_row(path, match, s, body=row.body, hash=own_hash(row))
    return s, None


def row_deleted(path, match, other, rows, rng):
    s = rng.randint(1, len(rows) - 1)
    raw(path, ("DELETE FROM events WHERE match_id = ? AND seq = ?", (match, s)))
    return s, None


def two_rows_swapped(path, match, other, rows, rng):
    s, t = sorted(rng.sample(range(1, len(rows) + 1), 2))
    columns = ("kind", "body", "recorded_at", "actor", "prev_hash", "hash")
    a, b = rows[s - 1], rows[t - 1]
    set_row(path, match, s, **{c: getattr(b, c) for c in columns})
    set_row(path, match, t, **{c: getattr(a, c) for c in columns})
    return s, None


def adjacent_rows_swapped(path, match, other, rows, rng):
    s = rng.randint(1, len(rows) - 1)
    raw(
        path,
        ("UPDATE events SET seq = -1 WHERE match_id = ? AND seq = ?", (match, s)),
        ("UPDATE events SET seq = ? WHERE match_id = ? AND seq = ?", (s, match, s + 1)),
        ("UPDATE events SET seq = ? WHERE match_id = ? AND seq = -1", (s + 1, match)),
    )
    return s, None


def row_spliced_from_another_match(path, match, other, rows, rng):
    theirs = rows_of(path, other)
    s = rng.randint(1, min(len(rows), len(theirs)))
    row = theirs[s - 1]
    set_row(
        path,
        match,
        s,
        kind=row.kind,
        body=row.body,
        recorded_at=row.recorded_at,
        actor=row.actor,
        prev_hash=row.prev_hash,
        hash=row.hash,
    )
    return s, None


def row_from_another_match_appended(path, match, other, rows, rng):
    theirs = rows_of(path, other)
    row = rng.choice(theirs[1:])
    raw(
        path,
        (
            "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (match, len(rows) + 1, row.kind, row.body, row.recorded_at, row.actor, row.prev_hash, row.hash),
        ),
        drop_triggers=False,
    )
    return len(rows) + 1, None


def tail_truncated_after_published_head(path, match, other, rows, rng):
    head = (rows[-1].seq, rows[-1].hash)
    k = rng.randint(1, len(rows) - 1)
    raw(path, ("DELETE FROM events WHERE match_id = ? AND seq > ?", (match, k)))
    # Without the head a clean truncation is a shorter, intact log: the head is what pins it.
    assert invoke(path, "verify", match).exit_code == 0
    return k + 1, head


def chain_rewritten_consistently_after_published_head(path, match, other, rows, rng):
    """Events from seq s on replaced by a forger who recomputes every hash after them."""
    h = rng.randint(2, len(rows))
    head = (h, rows[h - 1].hash)
    s = rng.randint(2, h)
    events = [r.event() for r in rows[s - 1 :]]
    events[0] = NoteAdded(text="forged")
    raw(path, ("DELETE FROM events WHERE match_id = ? AND seq >= ?", (match, s)))
    store = Store(path)
    store.append(match, s, events, actor=rows[s - 1].actor, recorded_at=rows[s - 1].recorded_at)
    store.close()
    # The chain alone is intact again; the published head catches it at the head's seq,
    # and comparing with any earlier copy (what `diff` does) names the first rewritten event.
    assert first_parting(rows, rows_of(path, match))["seq"] == s
    return h, head


def announcement_forged_and_rehashed(path, match, other, rows, rng):
    """No published head: a consistent rewrite that changes what was announced is still
    caught, by re-derivation, at the forged announcement."""
    announcements = [r for r in rows if r.kind in ("RoundClosed", "TurnResolved", "OutcomeAnnounced")]
    target = rng.choice(announcements)
    event = target.event()
    import msgspec

    forged = msgspec.structs.replace(event, public={**event.public, "forged": True})
    events = [forged] + [r.event() for r in rows[target.seq :]]
    raw(path, ("DELETE FROM events WHERE match_id = ? AND seq >= ?", (match, target.seq)))
    store = Store(path)
    store.append(match, target.seq, events, actor=target.actor, recorded_at=target.recorded_at)
    store.close()
    return target.seq, None


def _with_a_checkpoint(kind, names, problem):
    """A kind of tampering from ``tampering.py`` (it needs to know where the match's last
    checkpoint is) as a case here; ``names(c)``: the seq verify names, c being the
    checkpoint's seq (the snapshot holds the state after c - 1); ``problem``: words of
    the finding."""

    def case(path, match, other, rows, rng):
        c = max(row.seq for row in rows if row.kind == "StateCheckpointed")
        kind(path, tampering.Match("", match, True, len(rows), c), rows, rng)
        return names(c), None

    case.__name__ = kind.__name__
    case.__doc__ = kind.__doc__
    case.problem = problem
    return case


HOLDS_ANOTHER_STATE = "stored snapshot after this event holds another state"
CHECKPOINT_CASES = [
    # verify's own replay reaches another state than the snapshot holds
    _with_a_checkpoint(tampering.snapshot_forged, lambda c: c - 1, HOLDS_ANOTHER_STATE),
    _with_a_checkpoint(tampering.snapshot_and_checkpoint_forged, lambda c: c, "hash does not match"),
    _with_a_checkpoint(tampering.snapshot_and_checkpoint_forged_and_rechained, lambda c: c - 1, HOLDS_ANOTHER_STATE),
    # a StateCheckpointed whose digest is not the stored snapshot's
    _with_a_checkpoint(
        tampering.checkpoint_digest_forged_and_rechained, lambda c: c, "is not the one this checkpoint vouches for"
    ),
    # a checkpoint that records another seq than the event before it (forged, or moved on by an insertion)
    _with_a_checkpoint(tampering.checkpoint_seq_forged_and_rechained, lambda c: c, "not the event before it"),
    _with_a_checkpoint(tampering.event_inserted_before_the_checkpoint, lambda c: c + 1, "not the event before it"),
]


CASES = [
    body_char_changed,
    body_byte_flipped_in_the_file,
    hash_digit_changed,
    prev_hash_digit_changed,
    envelope_field_changed,
    event_rehashed_alone,
    row_deleted,
    two_rows_swapped,
    adjacent_rows_swapped,
    row_spliced_from_another_match,
    row_from_another_match_appended,
    tail_truncated_after_published_head,
    chain_rewritten_consistently_after_published_head,
    announcement_forged_and_rehashed,
    *CHECKPOINT_CASES,
]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("case", CASES, ids=[c.__name__ for c in CASES])
# every row of the tampering table in docs/guarantees.md: each is one or two CASES
@pytest.mark.guarantee(
    "tamper.body-or-byte",
    "tamper.hash-digit",
    "tamper.envelope-columns",
    "tamper.rehashed-event",
    "tamper.deleted-row",
    "tamper.swapped-rows",
    "tamper.spliced-row",
    "tamper.truncated-tail",
    "tamper.rewritten-chain",
    "tamper.forged-announcement",
    "tamper.forged-snapshot",
    "tamper.forged-snapshot-digest",
    "tamper.forged-snapshot-rechained",
    "tamper.checkpoint-digest",
    "tamper.checkpoint-out-of-place",
)
def test_verify_names_the_first_bad_seq(case, game, verify_matrix_template, tmp_path):
    clean, ids = verify_matrix_template
    path = copy_db(clean, tmp_path / "t.db")
    match = ids[game]
    other = ids[GAMES[(GAMES.index(game) + 1) % len(GAMES)]]
    rows = rows_of(path, match)
    rng = random.Random(f"{case.__name__}/{game}")
    assert invoke(path, "verify", "--all").exit_code == 0

    first_bad, head = case(path, match, other, rows, rng)

    args = ["verify", match, "--json"] + (["--head", f"{head[0]}:{head[1]}"] if head else [])
    result = invoke(path, *args, expect=3)
    [report] = json.loads(result.stdout)["matches"]
    assert report["ok"] is False
    assert report["findings"][0]["seq"] == first_bad, report["findings"][0]
    assert getattr(case, "problem", "") in report["findings"][0]["problem"], report["findings"][0]
    assert "Traceback" not in result.output
    if head is None:  # (--all takes no head): only the edited match is reported
        everything = json.loads(invoke(path, "verify", "--all", "--json", expect=3).stdout)
        assert {m["match"] for m in everything["matches"] if not m["ok"]} == {match}


@pytest.mark.guarantee("tamper.body-or-byte")
def test_a_random_bit_flipped_in_a_body_is_a_finding_not_an_unreadable_file(verify_matrix_template, tmp_path):
    """A flip that makes the body invalid UTF-8 is still reported as a finding with its
    seq (exit 3), not as a file that cannot be read."""
    clean, ids = verify_matrix_template
    path = copy_db(clean, tmp_path / "t.db")
    rows = rows_of(path, ids["pw"])
    row = rows[4]
    data = bytearray(path.read_bytes())
    i = data.index(row.body.encode()) + 3
    data[i] = 0xFF
    path.write_bytes(bytes(data))
    result = invoke(path, "verify", ids["pw"], "--json", expect=None)
    assert "Traceback" not in result.output
    assert result.exit_code == 3, result.output
    assert json.loads(result.stdout)["matches"][0]["findings"][0]["seq"] == row.seq

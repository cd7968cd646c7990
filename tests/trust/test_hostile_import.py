"""Every limit the command line enforces (ledger/limits.py, ledger/validation.py) holds
for what enters from outside too.  Each case is a well-chained log that breaks one limit;
`import` refuses it (exit 1 or 3) and writes nothing, and a database file that already
holds it (rows written with plain sqlite3, the chain correct) is a `verify` finding
naming the seq (or the match id), while `list` and `verify --all` answer."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import msgspec
import pytest

from matchledger import engine
from matchledger.engine.lca.spec import STUDIO_MAX_SIDE
from matchledger.ledger.codec import GENESIS_HASH, encode, envelope_hash
from matchledger.ledger.events import MatchCreated, NoteAdded, SubmissionRecorded
from matchledger.ledger.limits import PARTICIPANTS_MAX, TEXT_MAX_LENGTH, TOKENS_MAX
from matchledger.ledger.store import Store
from tests.helpers import invoke

from .common import rows
from .forged import T, export_file, forged_lca

PLAYERS = ["ann", "bob"]


def lca(match_id: str = "m1", players: list[str] = PLAYERS) -> list:
    """A legal lca match (Round 1 closed, a note), every event as the engine decides it."""
    return forged_lca(match_id, players, "a word")


def created(players: list[str], studio: list[str]) -> MatchCreated:
    options = {name: spec.default for name, spec in engine.get("lca").OPTIONS.items()}
    return MatchCreated(game="lca", players=players, options=options, setup={"studio": studio})


def with_event(events: list, seq: int, event) -> list:
    """``events`` with the one at ``seq`` replaced."""
    return events[: seq - 1] + [event] + events[seq:]


#: id -> (match id, events, the seq verify names)
CASES = {
    **{
        f"match id {label}": (match_id, lca(match_id), 1)
        for label, match_id in [
            ("../x", "../x"),
            ("x/../../etc", "x/../../etc"),
            ("empty", ""),
            ("300 characters", "m" * 300),
            ("bidi override", "\u202em1"),
            ("quote", 'q"x'),
            ("crlf", "crlf\r\nSet-Cookie: x"),
        ]
    },
    "a name with markup": ("m1", lca("m1", ["<b>ann</b>", "bob"]), 1),
    "a name with a bidi override": ("m1", lca("m1", ["\u202eann", "bob"]), 1),
    "too many players": ("m1", [created([f"p{n}" for n in range(PARTICIPANTS_MAX + 1)], ["." * 20] * 20)], 1),
    # the smallest studio past the limit: one cell too wide
    "an oversized studio": ("m1", [created(PLAYERS, ["." * (STUDIO_MAX_SIDE + 1)] * 6)], 1),
    "a note over the limit": ("m1", with_event(lca(), 4, NoteAdded(text="x" * (TEXT_MAX_LENGTH + 1))), 4),
    "too many tokens": (
        "m1",
        with_event(
            lca(),
            2,
            SubmissionRecorded(
                participant="ann", round=1, tokens=["A1", "B2", "C3", "D4", "E5"] * (TOKENS_MAX // 5 + 1)
            ),
        ),
        2,
    ),
    "a token holding ESC": (
        "m1",
        with_event(
            lca(), 2, SubmissionRecorded(participant="ann", round=1, tokens=["A1\x1b[2J", "B2", "C3", "D4", "E5"])
        ),
        2,
    ),
}


def chained(match_id: str, events: list) -> list[tuple]:
    """The rows of ``events`` with every hash computed, as a forger who knows the hash
    function writes them."""
    prev, out = GENESIS_HASH, []
    for seq, event in enumerate(events, start=1):
        body, kind = encode(event), type(event).__name__
        digest = envelope_hash(encode("host"), body, kind, encode(match_id), prev, encode(T), seq)
        out.append((match_id, seq, kind, body.decode(), T, "host", prev, digest))
        prev = digest
    return out


def foreign(db: Path, match_id: str, events: list) -> Path:
    """A database of ours (a legal match in it) into which the rows were written with
    plain sqlite3: the append-only triggers refuse only updates and deletes."""
    store = Store(db)
    try:
        store.append("ok1", 1, lca("ok1"), actor="host", recorded_at=T)
    finally:
        store.close()
    conn = sqlite3.connect(db)
    try:
        conn.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?)", chained(match_id, events))
        conn.commit()
    finally:
        conn.close()
    return db


@pytest.mark.guarantee("input.import-limits")
@pytest.mark.parametrize("case", CASES)
def test_import_refuses_what_the_command_line_refuses_and_writes_nothing(tmp_path, case):
    match_id, events, _seq = CASES[case]
    db = tmp_path / "auditor.db"
    result = invoke(db, "import", export_file(tmp_path / "x.jsonl", match_id, events, "host"), expect=None)
    assert result.exit_code in (1, 3), result.output
    assert "nothing imported" in result.stderr and "internal error" not in result.output
    assert rows(db) == []


@pytest.mark.guarantee("input.import-limits")
@pytest.mark.parametrize("case", CASES)
def test_a_database_holding_it_is_a_finding_and_reads_answer(tmp_path, case):
    match_id, events, seq = CASES[case]
    db = foreign(tmp_path / "foreign.db", match_id, events)
    everything = invoke(db, "verify", "--all", expect=3)
    assert f"seq {seq}:" in everything.stdout and "ok1: ok" in everything.stdout, everything.output
    assert len([line for line in everything.stdout.splitlines() if line.startswith("FINDING")]) == 1
    if match_id:  # an empty id cannot be named on a command line
        one = invoke(db, "verify", match_id, expect=3)
        assert f"seq {seq}:" in one.stdout, one.output
    listing = invoke(db, "list", expect=None)  # exit 3 where a match's log does not replay
    assert listing.exit_code in (0, 3) and "internal error" not in listing.output, listing.output
    assert "ok1" in listing.stdout


@pytest.mark.guarantee("input.import-limits")
def test_the_same_logs_within_the_limits_import(tmp_path):
    """The cases differ from legal logs only in the limit they break."""
    db = tmp_path / "auditor.db"
    legal = {
        "m1": lca("m1"),
        "big": [created([f"p{n}" for n in range(PARTICIPANTS_MAX)], ["." * 20] * 20)],
        "wide": [created(PLAYERS, ["." * STUDIO_MAX_SIDE] * 6)],
    }
    for match_id, events in legal.items():
        invoke(db, "import", export_file(tmp_path / f"{match_id}.jsonl", match_id, events, "host"))
    note = with_event(lca("n1"), 4, NoteAdded(text="x" * TEXT_MAX_LENGTH))
    invoke(db, "import", export_file(tmp_path / "n1.jsonl", "n1", note, "host"))
    assert "n1: ok" in invoke(db, "verify", "--all").stdout
    assert msgspec.json.decode(invoke(db, "status", "wide", "--json").stdout)["studio"][0] == "." * STUDIO_MAX_SIDE

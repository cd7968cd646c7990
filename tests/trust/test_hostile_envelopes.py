"""What the envelope of an event from outside may hold is what the command line
records: an actor `--actor` accepts, a time as the ledger writes it, a salt as the
ledger draws it.  `import` refuses anything else and writes nothing; a database file
that holds it is a `verify` finding naming the seq."""

from __future__ import annotations

import msgspec
import pytest

from matchledger.ledger.portable import export_lines
from matchledger.ledger.store import Store
from tests.helpers import invoke

from .common import rows
from .forged import T, forged_lca

#: id -> (actor, recorded_at, salt of the note at seq 4 or None, the text the finding holds)
CASES = {
    "an actor with a line break and markup": ("host\r\nSet-Cookie: x=1<script>", T, None, "actor"),
    "an empty actor": ("", T, None, "actor"),
    "an actor of 100,000 characters": ("a" * 100_000, T, None, "actor"),
    "a time that is no time": ("host", "yesterday\x1b[2J <b>bold</b>", None, "recorded_at"),
    "a time of the right shape on no day": ("host", "2026-02-30T12:00:00Z", None, "recorded_at"),
    "a salt holding ESC": ("host", T, "\x1b[2J", "salt"),
    "an empty salt": ("host", T, "", "salt"),
    "a salt of 5,000 characters": ("host", T, "ab" * 2500, "salt"),
}


def events(salt: str | None) -> list:
    made = forged_lca("m1", ["ann", "bob"], "a word")
    if salt is not None:
        made[3] = msgspec.structs.replace(made[3], salt=salt)
    return made


def chained_rows(case: str):
    actor, recorded_at, salt, _ = CASES[case]
    return Store(":memory:").append("m1", 1, events(salt), actor=actor, recorded_at=recorded_at)


@pytest.mark.guarantee("input.import-limits")
@pytest.mark.parametrize("case", CASES)
def test_import_refuses_an_envelope_the_command_line_would_not_record(tmp_path, case):
    export = tmp_path / "x.jsonl"
    export.write_bytes(export_lines(chained_rows(case)))
    db = tmp_path / "auditor.db"
    result = invoke(db, "import", export, expect=3)
    assert "nothing imported" in result.stderr and CASES[case][3] in result.stderr, result.output
    assert rows(db) == []


@pytest.mark.guarantee("input.import-limits")
@pytest.mark.parametrize("case", CASES)
def test_a_database_holding_such_an_envelope_is_a_finding(tmp_path, case):
    db = tmp_path / "foreign.db"
    store = Store(db)
    try:
        store.append_rows(chained_rows(case))
    finally:
        store.close()
    seq = 4 if CASES[case][2] is not None else 1
    found = invoke(db, "verify", "m1", expect=3)
    assert f"seq {seq}:" in found.stdout and CASES[case][3] in found.stdout, found.output


def test_the_envelopes_the_ledger_records_verify(tmp_path):
    """The cases differ from a legal log only in the one field."""
    export = tmp_path / "x.jsonl"
    export.write_bytes(export_lines(Store(":memory:").append("m1", 1, events("0f" * 16), actor="host", recorded_at=T)))
    db = tmp_path / "auditor.db"
    invoke(db, "import", export)
    assert "m1: ok" in invoke(db, "verify", "m1").stdout

"""A lock another writer holds for longer than the lock timeout is a clear error naming
the database (exit 1), never an internal error; reads go on meanwhile (WAL).  The
timeout is ledger/limits.py LOCK_TIMEOUT_SECONDS, or MATCHLEDGER_LOCK_TIMEOUT."""

from __future__ import annotations

import sqlite3
import time

import pytest
from click.testing import CliRunner

from matchledger.commands.cli import cli
from matchledger.ledger.errors import DatabaseBusy
from matchledger.ledger.events import NoteAdded
from matchledger.ledger.store import Store

pytestmark = pytest.mark.guarantee("files.busy")


@pytest.fixture
def held(photographer_db_in_cwd):
    """A database whose write lock another connection holds."""
    holder = sqlite3.connect(photographer_db_in_cwd, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    yield photographer_db_in_cwd
    holder.execute("ROLLBACK")
    holder.close()


def test_a_store_waits_for_the_lock_timeout_then_names_the_busy_database(held):
    store = Store(held, lock_timeout=0.2)
    started = time.monotonic()
    with pytest.raises(DatabaseBusy, match=f"database {str(held)!r} is busy: .* more than 0.2 s"):
        store.append("m1", 2, [NoteAdded(text="late")], actor="h", recorded_at="2026-01-01T00:00:00.000000Z")
    assert 0.2 <= time.monotonic() - started < 5
    assert store.head("m1")[0] == 1
    store.close()


@pytest.mark.parametrize(
    "args", [("note", "m1", "late"), ("new", "toy", "m2", "--players", "a,b"), ("checkpoint", "m1")]
)
def test_a_write_command_says_the_database_is_busy(held, args):
    result = CliRunner().invoke(cli, ["--db", str(held), *args], env={"MATCHLEDGER_LOCK_TIMEOUT": "0.2"})
    assert result.exit_code == 1, result.output
    assert f"database {str(held)!r} is busy" in result.output and "try again" in result.output
    assert CliRunner().invoke(cli, ["--db", str(held), "status", "m1"]).exit_code == 0  # reads go on


@pytest.mark.parametrize("value", ["0", "-1", "soon", "nan", "inf"])
def test_the_lock_timeout_knob_takes_seconds_above_zero(held, value):
    result = CliRunner().invoke(cli, ["--db", str(held), "status", "m1"], env={"MATCHLEDGER_LOCK_TIMEOUT": value})
    assert (
        result.exit_code == 2
        and f"MATCHLEDGER_LOCK_TIMEOUT must be a number of seconds above 0, got {value!r}" in result.output
    )

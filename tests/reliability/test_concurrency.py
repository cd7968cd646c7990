"""Concurrency: 8 processes record at once into one shared match and each into its own
match, half through `ledger.store.Store.append`, half through the CLI in-process (the
`note` command, a whole host command: replay, decide, append).

What is checked afterwards: eight_writers.py (tests/postgres runs the same on PostgreSQL).

Waiting and retrying (see docs/guarantees.md): each append is one `BEGIN IMMEDIATE`
transaction, so writers queue on SQLite's write lock, waiting up to
`ledger.limits.LOCK_TIMEOUT_SECONDS` (10 s) instead of failing with SQLITE_BUSY.  A writer
whose expected seq is stale gets `LogConflict` and nothing is written; the ledger never
retries a command by itself (the host re-reads and decides again); the CLI writers
here retry the same note up to 50 times, as a host script would.
"""

from __future__ import annotations

import multiprocessing as mp
import sqlite3
import time
from pathlib import Path

import pytest

from matchledger.ledger.events import MatchCreated, NoteAdded
from matchledger.ledger.limits import LOCK_TIMEOUT_SECONDS
from matchledger.ledger.store import Store

from .eight_writers import record_at_once
from .support import T, soak

ATTEMPTS = 300


@pytest.mark.guarantee("concurrency.eight-writers", "concurrency.loser-told")
def test_eight_processes_recording_at_once(tmp_path):
    record_at_once(str(tmp_path / "busy.db"), tmp_path, ATTEMPTS * soak())


def _append_other(path: str, out: str) -> None:
    store = Store(path)
    try:
        store.append(
            "other",
            1,
            [MatchCreated(game="toy", players=["ann", "bob"], options={"multiplier": 1})],
            actor="w",
            recorded_at=T,
        )
        result = "ok"
    except Exception as exc:
        result = f"{type(exc).__name__}: {exc}"
    with open(out, "w") as handle:
        handle.write(result)


@pytest.mark.guarantee("concurrency.writer-waits")
def test_a_writer_waits_for_the_lock_instead_of_failing(tmp_path):
    """busy_timeout: while one writer holds the write lock, another waits and then
    succeeds; without the timeout it would fail at once with "database is locked"."""
    path = str(tmp_path / "lock.db")
    holder = Store(path)
    holder.append(
        "m", 1, [MatchCreated(game="toy", players=["ann", "bob"], options={"multiplier": 1})], actor="h", recorded_at=T
    )
    assert LOCK_TIMEOUT_SECONDS >= 1
    assert holder.conn.execute("PRAGMA busy_timeout").fetchone()[0] == LOCK_TIMEOUT_SECONDS * 1000
    out = str(tmp_path / "out.txt")
    ctx = mp.get_context("spawn")  # not fork: this process holds an open connection
    with holder.transaction():
        holder.append("m", 2, [NoteAdded(text="held")], actor="h", recorded_at=T)
        impatient = sqlite3.connect(path, timeout=0, isolation_level=None)
        try:
            impatient.execute("BEGIN IMMEDIATE")
            raise AssertionError("the write lock was not held")
        except sqlite3.OperationalError as exc:
            assert "locked" in str(exc)  # what a writer without busy_timeout would get
        finally:
            impatient.close()
        waiter = ctx.Process(target=_append_other, args=(path, out))
        waiter.start()
        time.sleep(0.3)  # the waiter now queues on the lock (not asserted: no timed checks)
    waiter.join(timeout=60)
    assert Path(out).read_text() == "ok"
    assert [r.seq for r in holder.rows("m")] == [1, 2]
    holder.close()

"""Concurrency: 8 processes record at once into one shared match and each into its own
match, half through `ledger.store.Store.append`, half through the CLI in-process (the
`note` command, a whole host command: replay, decide, append).

Checked afterwards: every match verifies and has seqs 1..n with no gap; every event a
writer was told was recorded is in the log exactly once (at the seq it was told, for
the store writers) with its command's events adjacent; every attempt that lost a race
was told so by a LogConflict (exit 1 on the CLI) and left nothing behind; no writer
ever saw "database is locked" or any other error.

Waiting and retrying (see docs/guarantees.md): each append is one `BEGIN IMMEDIATE`
transaction, so writers queue on SQLite's write lock, waiting up to
`ledger.limits.LOCK_TIMEOUT_SECONDS` (10 s) instead of failing with SQLITE_BUSY.  A writer
whose expected seq is stale gets `LogConflict` and nothing is written; the ledger never
retries a command by itself (the host re-reads and decides again); the CLI writers
here retry the same note up to 50 times, as a host script would.
"""

from __future__ import annotations

import contextlib
import io
import json
import multiprocessing as mp
import random
import sqlite3
import time

import click
import pytest
from matchledger.ledger.errors import LogConflict
from matchledger.ledger.events import MatchCreated, NoteAdded
from matchledger.ledger.limits import LOCK_TIMEOUT_SECONDS
from matchledger.ledger.store import Store
from matchledger.ledger.verify import verify_chain
from matchledger.projections.rederive import rederive

from .support import T, soak

WORKERS = 8
ATTEMPTS = 300


def _worker(path: str, w: int, attempts: int, barrier, out: str) -> None:
    rng = random.Random(w)
    log = []
    via_cli = w >= WORKERS // 2
    if via_cli:
        from matchledger.commands.cli import cli
    else:
        store = Store(path)
    barrier.wait()
    for j in range(attempts):
        match = "shared" if j % 2 == 0 else f"own-{w}"
        try:
            if via_cli:
                for retry in range(50):
                    text = f"w{w}-a{j}-r{retry}"
                    buffer = io.StringIO()
                    try:
                        with contextlib.redirect_stdout(buffer):
                            cli.main(args=["--db", path, "--actor", f"w{w}", "note", match, text],
                                     prog_name="matchledger", standalone_mode=False)
                    except click.ClickException as exc:
                        log.append({"match": match, "texts": [text], "outcome": "conflict",
                                    "exit": exc.exit_code, "message": exc.format_message()})
                        continue
                    log.append({"match": match, "texts": [text], "outcome": "ok", "output": buffer.getvalue()})
                    break
            else:
                head = store.head(match)[0]
                time.sleep(rng.uniform(0, 0.001))  # widen the race between reading and writing
                texts = [f"w{w}-a{j}-0", f"w{w}-a{j}-1"]
                try:
                    rows = store.append(match, head + 1, [NoteAdded(text=t) for t in texts], actor=f"w{w}", recorded_at=T)
                except LogConflict as exc:
                    log.append({"match": match, "texts": texts, "outcome": "conflict", "exit": exc.exit_code,
                                "message": str(exc)})
                else:
                    log.append({"match": match, "texts": texts, "outcome": "ok", "seqs": [r.seq for r in rows]})
        except Exception as exc:  # anything else is a failure of the guarantee
            log.append({"match": match, "outcome": "error", "error": f"{type(exc).__name__}: {exc}"})
    with open(out, "w") as handle:
        json.dump(log, handle)


@pytest.mark.guarantee("concurrency.eight-writers", "concurrency.loser-told")
def test_eight_processes_recording_at_once(tmp_path):
    path = str(tmp_path / "busy.db")
    store = Store(path)
    for match in ["shared"] + [f"own-{w}" for w in range(WORKERS)]:
        store.append(match, 1, [MatchCreated(game="toy", players=["ann", "bob"])], actor="h", recorded_at=T)
    store.close()

    ctx = mp.get_context("fork")
    barrier = ctx.Barrier(WORKERS)
    attempts = ATTEMPTS * soak()
    outs = [str(tmp_path / f"w{w}.json") for w in range(WORKERS)]
    procs = [ctx.Process(target=_worker, args=(path, w, attempts, barrier, outs[w])) for w in range(WORKERS)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=600)
    assert [p.exitcode for p in procs] == [0] * WORKERS
    results = [entry for out in outs for entry in json.load(open(out))]

    errors = [r for r in results if r["outcome"] == "error"]
    assert errors == []  # never "database is locked", never anything but ok or a conflict

    store = Store(path, create=False)
    try:
        logs = {}
        for match in store.match_ids():
            rows = store.rows(match)
            assert verify_chain(match, rows) == []
            assert rederive(match, [(r.seq, r.event()) for r in rows]) == []
            assert [r.seq for r in rows] == list(range(1, len(rows) + 1))  # no gap, no duplicate seq
            logs[match] = {r.event().text: r.seq for r in rows[1:]}
            assert len(logs[match]) == len(rows) - 1  # no event written twice
    finally:
        store.close()

    conflicts = 0
    for r in results:
        stored = logs[r["match"]]
        if r["outcome"] == "ok":
            seqs = [stored.get(t) for t in r["texts"]]
            assert None not in seqs, f"lost: {r}"
            assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))  # one command's events adjacent
            if "seqs" in r:
                assert seqs == r["seqs"]  # at the seq the writer was told
        else:
            conflicts += 1
            assert r["exit"] == 1
            assert "moved on" in r["message"] or "another writer" in r["message"], r["message"]
            assert not any(t in stored for t in r["texts"]), f"a losing attempt left events behind: {r}"
    for match, stored in logs.items():
        claimed = {t for r in results if r["match"] == match and r["outcome"] == "ok" for t in r["texts"]}
        assert set(stored) == claimed  # nothing appeared that nobody was told was recorded
    for w in range(WORKERS):
        own = [r for r in results if r["match"] == f"own-{w}"]
        assert own and all(r["outcome"] == "ok" for r in own)  # no race, so no conflict
    assert conflicts > 0, "no race was ever lost: the test exercised nothing"
    shared = len(logs["shared"])
    print(f"8 writers: {len(results)} attempts, {conflicts} conflicts, shared match {shared} events")


def _append_other(path: str, out: str) -> None:
    store = Store(path)
    try:
        store.append("other", 1, [MatchCreated(game="toy", players=["ann", "bob"])], actor="w", recorded_at=T)
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
    holder.append("m", 1, [MatchCreated(game="toy", players=["ann", "bob"])], actor="h", recorded_at=T)
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
    assert open(out).read() == "ok"
    assert [r.seq for r in holder.rows("m")] == [1, 2]
    holder.close()

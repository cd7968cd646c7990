"""Eight processes record at once into one shared match and each into its own match,
half through the store's ``append`` (a connection each, kept), half through the CLI
in-process (the `note` command, a whole host command: open, replay, decide, append),
on either back end (a file's path or a PostgreSQL URL).

Checked afterwards: every match verifies and has seqs 1..n with no gap; every event a
writer was told was recorded is in the log exactly once (at the seq it was told, for
the store writers) with its command's events adjacent; every attempt that lost a race
was told so by a LogConflict (exit 1 on the CLI) and left nothing behind; no writer
ever saw "database is locked" or any other error.
"""

from __future__ import annotations

import contextlib
import io
import json
import multiprocessing as mp
import random
import time
from pathlib import Path

import click

from matchledger.commands.errors import exit_code
from matchledger.ledger.errors import LogConflict
from matchledger.ledger.events import MatchCreated, NoteAdded
from matchledger.ledger.stores import open_store
from matchledger.ledger.verify import verify_chain
from matchledger.projections.rederive import rederive

from .support import T

WORKERS = 8


def _worker(db: str, w: int, attempts: int, barrier, out: str) -> None:
    rng = random.Random(w)
    log = []
    via_cli = w >= WORKERS // 2
    if via_cli:
        from matchledger.commands.cli import cli
    else:
        store = open_store(db)
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
                            cli.main(
                                args=["--db", db, "--actor", f"w{w}", "note", match, text],
                                prog_name="matchledger",
                                standalone_mode=False,
                            )
                    except click.ClickException as exc:
                        log.append(
                            {
                                "match": match,
                                "texts": [text],
                                "outcome": "conflict",
                                "exit": exc.exit_code,
                                "message": exc.format_message(),
                            }
                        )
                        continue
                    log.append({"match": match, "texts": [text], "outcome": "ok", "output": buffer.getvalue()})
                    break
            else:
                head = store.head(match)[0]
                time.sleep(rng.uniform(0, 0.001))  # widen the race between reading and writing
                texts = [f"w{w}-a{j}-0", f"w{w}-a{j}-1"]
                try:
                    rows = store.append(
                        match, head + 1, [NoteAdded(text=t) for t in texts], actor=f"w{w}", recorded_at=T
                    )
                except LogConflict as exc:
                    log.append(
                        {
                            "match": match,
                            "texts": texts,
                            "outcome": "conflict",
                            "exit": exit_code(exc),
                            "message": str(exc),
                        }
                    )
                else:
                    log.append({"match": match, "texts": texts, "outcome": "ok", "seqs": [r.seq for r in rows]})
        except Exception as exc:  # anything else is a failure of the guarantee
            log.append({"match": match, "outcome": "error", "error": f"{type(exc).__name__}: {exc}"})
    if not via_cli:
        store.close()
    with open(out, "w") as handle:
        json.dump(log, handle)


def record_at_once(db: str, folder: Path, attempts: int) -> None:
    """Run the eight writers on the database ``db`` (``folder``: for their reports) and
    check what they left; ``attempts`` per writer."""
    store = open_store(db)
    for match in ["shared"] + [f"own-{w}" for w in range(WORKERS)]:
        store.append(
            match,
            1,
            [MatchCreated(game="toy", players=["ann", "bob"], options={"multiplier": 1})],
            actor="h",
            recorded_at=T,
        )
    store.close()

    ctx = mp.get_context("fork")
    barrier = ctx.Barrier(WORKERS)
    outs = [str(folder / f"w{w}.json") for w in range(WORKERS)]
    procs = [ctx.Process(target=_worker, args=(db, w, attempts, barrier, outs[w])) for w in range(WORKERS)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=600)
    assert [p.exitcode for p in procs] == [0] * WORKERS
    results = [entry for out in outs for entry in json.loads(Path(out).read_text())]

    errors = [r for r in results if r["outcome"] == "error"]
    assert errors == []  # never "database is locked", never anything but ok or a conflict

    store = open_store(db, read_only=True)
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

"""Replay and verify against the floor: a plain ``SELECT`` of the bodies and their
msgspec decoding, nothing else."""

from __future__ import annotations

import contextlib
import io
import sqlite3
from pathlib import Path

import msgspec

from matchledger.ledger.events import AnyEvent

# --------------------------------------------------------------------------- replay / verify


def floor_scan(path: Path) -> None:
    """The floor: a plain ``SELECT body`` scan plus msgspec decoding, nothing else."""
    decode = msgspec.json.Decoder(AnyEvent).decode  # the events' own type, nothing of ours
    conn = sqlite3.connect(str(path))
    for (body,) in conn.execute("SELECT body FROM events"):
        decode(body)
    conn.close()


def replay_all(path: Path, use_snapshots: bool = True) -> int:
    """Open, read, decode and fold every match to its outcome, the way a read command
    does (``Application.state``: from the match's snapshot when it has a usable one, then
    the events after it; ``use_snapshots=False``: from the first event)."""
    from matchledger.ledger.stores import open_store
    from matchledger.projections.application import Application

    store = open_store(str(path), create=False)
    app = Application(store, use_snapshots=use_snapshots)
    finished = 0
    try:
        for mid in store.match_ids():
            finished += app.state(mid).outcome is not None
            app.forget(mid)  # a read command holds one match, not the whole file
    finally:
        store.close()
    return finished


def verify_all(path: Path, jobs: int = 1) -> None:
    """`matchledger verify --all --jobs N`, run in-process through the CLI (output
    discarded).  With one job everything runs in this process, which the CPU clock sees
    whole; with more, the workers' time is only seen by the wall clock."""
    from matchledger.commands.cli import cli

    with contextlib.redirect_stdout(io.StringIO()):
        cli.main(
            args=["--db", str(path), "verify", "--all", "--jobs", str(jobs)],
            prog_name="matchledger",
            standalone_mode=False,
        )

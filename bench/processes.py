"""Whole processes: start-up of the console script, and a host's command latency as a
match grows."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from . import corpus
from .measure import Row, fresh_database, median_time

# --------------------------------------------------------------------------- start-up and latency


def _cli_command() -> list[str]:
    script = Path(sys.executable).parent / "matchledger"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "matchledger"]


def _process_time(argv: list[str], runs: int, cwd: Path) -> float:
    env = dict(os.environ, MATCHLEDGER_ACTOR="bench")

    def once():
        subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)

    once()  # warm the file cache
    return median_time(once, runs, clock=time.perf_counter)


def long_match(tmp: Path, name: str, length: int, db: str | None = None) -> tuple[str, list[float], list[str]]:
    """A database holding the corpus's long match (:func:`corpus.long_match`: lca's
    eleven-player card) that has had ``length`` host commands: its commands up to its
    first close (contracts, submissions), then Round-1 resubmissions (each supersedes).
    ``db``: an empty database to use (a PostgreSQL URL) instead of a new file in ``tmp``."""
    from matchledger.ledger.stores import open_store
    from matchledger.projections.application import Application

    card = corpus.long_match()
    if db is None:
        path = tmp / f"{name}.db"
        fresh_database(path)
        db = str(path)
    app = Application(open_store(db), actor="bench")
    app.create(card.create)
    commands = list(card.commands)
    first_close = next(i for i, c in enumerate(commands) if type(c).__name__ == "CloseRound")
    prefix, round1 = commands[:first_close], [c for c in commands[:first_close] if type(c).__name__ == "Submit"]
    cmds = prefix[:length] + [round1[i % len(round1)] for i in range(max(0, length - len(prefix)))]
    latencies = []
    for cmd in cmds:
        start = time.perf_counter()
        app.execute(card.create.match_id, cmd)
        latencies.append(time.perf_counter() - start)  # wall clock: one command is short
    app.store.close()
    last = round1[(length) % len(round1)]
    argv = ["--db", db, "submit", card.create.match_id, last.participant, *last.tokens]
    return db, latencies, argv


def bench_startup(tmp: Path, runs: int) -> list[Row]:
    cli = _cli_command()
    runs = max(runs, 5)
    base = _process_time([sys.executable, "-c", "pass"], runs, tmp)
    rows = [Row("start-up", "python -c pass", None, None, base * 1000, base * 1000, 0.0, "ms")]
    t = _process_time(cli + ["--help"], runs, tmp)
    rows.append(
        Row(
            "start-up",
            "matchledger --help",
            None,
            None,
            t * 1000,
            base * 1000,
            (t - base) * 1000,
            "ms",
            None,
            "ratio column: ms over python -c pass",
        )
    )
    _path, _lat, argv = long_match(tmp, "startup", 5)
    t = _process_time(cli + argv, runs, tmp)
    rows.append(
        Row(
            "start-up",
            "matchledger submit (5th command)",
            None,
            None,
            t * 1000,
            base * 1000,
            (t - base) * 1000,
            "ms",
            "submit process - python -c pass (ms)",
            "ratio column: ms over python -c pass",
        )
    )
    return rows


def bench_growth(tmp: Path, runs: int, long_length: int) -> list[Row]:
    rows = []
    _p5, lat_short, argv5 = long_match(tmp, "short", 5)
    _pl, lat_long, argv_long = long_match(tmp, "long", long_length)
    fifth = statistics.median(lat_short[2:5])
    last = statistics.median(lat_long[-5:])
    rows.append(
        Row(
            "growth",
            f"in-process command latency: command {long_length} vs 5",
            None,
            None,
            last * 1000,
            fifth * 1000,
            last / fifth,
            "ms",
            None,
            "Application.execute with its cached state",
        )
    )
    cli = _cli_command()
    runs = max(runs, 3)
    t5 = _process_time(cli + argv5, runs, tmp)
    tl = _process_time(cli + argv_long, runs, tmp)
    rows.append(
        Row(
            "growth",
            f"submit process: command {long_length} vs 5",
            None,
            None,
            tl * 1000,
            t5 * 1000,
            tl / t5,
            "ms",
            None,
            "each process replays the match first",
        )
    )
    return rows

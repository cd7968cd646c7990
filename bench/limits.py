"""Every command on the largest input the limits allow, next to the same command on a
small match: elapsed time and peak memory of each process.

``python -m bench --limits`` builds, for each game in the registry, the largest match
its sampler draws (``scale="largest"``: the built-in games' at the limits, lca a 40 x 40
studio and 26 players, pw 13 pairs, photographer 4 players, every name 40 characters
long) with the actor 64 characters long and a 2,000-character note after every command,
and the small match of the same game (``scale="small"``: 3 players or pairs, or 2, short
names, lca a 6 x 6 studio), plays both to the end, and runs each read and audit command
once on each in a fresh process.  The ratio column is largest / small: what the
limits cost.  Nothing is asserted.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from . import corpus
from .measure import Row, fresh_database
from .processes import _cli_command

LONG_ACTOR = "h" * 64


def _play(path: Path, sample, note: str) -> None:
    from matchledger.engine.commands import AddNote
    from matchledger.ledger.stores import open_store
    from matchledger.projections.application import Application
    from matchledger.projections.fold import InMemoryMatch

    fresh_database(path)
    app = Application(open_store(path), actor=LONG_ACTOR)
    app.create(sample.create)
    match = InMemoryMatch(sample.create)
    match_id = sample.create.match_id
    while not match.state.finished:
        cmd = sample.next_command(match.state)
        if cmd is None:
            break
        match.do(cmd)
        app.execute(match_id, cmd)
        if note:  # in both, so that the sampler's corrections name the right seqs
            match.do(AddNote(note))
            app.execute(match_id, AddNote(note))
    app.store.close()


def build(tmp: Path, largest: bool) -> dict[str, tuple[Path, str, str]]:
    """{game: (database, match id, a participant)} for the largest or the small match of
    every game in the registry whose sampler draws them (it takes the knob ``scale``,
    :mod:`matchledger.engine.sample`); the participant is the last one seated."""
    from matchledger import engine
    from matchledger.ledger.limits import TEXT_MAX_LENGTH

    note = ("n" * TEXT_MAX_LENGTH) if largest else ""
    label = "largest" if largest else "small"
    out = {}
    for game in engine.names():
        sample = corpus.sample_at(game, 7, game, label) if hasattr(engine.get(game), "sample") else None
        if sample is None:
            continue  # no sampler, or one that declares no sizes: its largest input is unknown here
        path = tmp / f"{game}-{label}.db"
        _play(path, sample, note)
        out[game] = (path, game, _participants(sample)[-1])
    return out


def _participants(sample) -> list[str]:
    from matchledger.projections.fold import InMemoryMatch

    return InMemoryMatch(sample.create).state.participants


def _commands(match_id: str, participant: str, out: Path) -> list[tuple[str, list[str]]]:
    return [
        ("status", ["status", match_id]),
        ("scores", ["scores", match_id]),
        ("outcome --json", ["outcome", match_id, "--json"]),
        ("reveals", ["reveals", match_id]),
        ("knowledge --as", ["knowledge", match_id, "--as", participant]),
        ("log", ["log", match_id]),
        ("render svg", ["render", match_id, "-o", str(out / f"{match_id}.svg")]),
        ("render png", ["render", match_id, "-o", str(out / f"{match_id}.png")]),
        ("report", ["report", match_id, "-o", str(out / f"{match_id}.html")]),
        ("verify", ["verify", match_id]),
        ("audit", ["audit", match_id]),
        ("export", ["export", match_id, "-o", str(out / f"{match_id}.jsonl")]),
    ]


#: Runs a command and prints its peak resident memory (kB).  A small process starts it:
#: a child's peak counts the memory of the process it was forked from, so forking the
#: commands from this (large) one would report this one's size for each of them.
_PEAK_OF = (
    "import resource, subprocess, sys; "
    "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode; "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, code)"
)


def _run(argv: list[str], cwd: Path) -> tuple[float, float, int]:
    """(elapsed seconds, peak resident memory in MB, exit code) of one process; the
    elapsed time includes the small starter's own start-up, the same for every command."""
    env = dict(os.environ, MATCHLEDGER_ACTOR="bench", NO_COLOR="1")
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", _PEAK_OF, *argv], cwd=cwd, env=env, capture_output=True, text=True, check=True
    ).stdout
    elapsed = time.perf_counter() - start
    peak_kb, code = out.split()
    return elapsed, int(peak_kb) / 1024, int(code)


def bench_limits(tmp: Path, log=print) -> list[Row]:
    cli = _cli_command()
    rows: list[Row] = []
    outputs = tmp / "outputs"
    outputs.mkdir(exist_ok=True)
    log("limits: building the largest and the small matches ...")
    largest, small = build(tmp, largest=True), build(tmp, largest=False)
    for game in largest:
        big_db, big_id, big_who = largest[game]
        small_db, small_id, small_who = small[game]
        big_events = _events(big_db, big_id)
        for (name, big_args), (_same, small_args) in zip(
            _commands(big_id, big_who, outputs), _commands(small_id, small_who, outputs)
        ):
            t_big, mb_big, rc_big = _run(cli + ["--db", str(big_db), *big_args], tmp)
            t_small, mb_small, _rc = _run(cli + ["--db", str(small_db), *small_args], tmp)
            note = "" if rc_big == 0 else f"exit {rc_big}"
            rows.append(
                Row(
                    "limits",
                    f"{game} {name}: time",
                    None,
                    big_events,
                    t_big * 1000,
                    t_small * 1000,
                    t_big / t_small,
                    "ms",
                    None,
                    note,
                )
            )
            rows.append(
                Row(
                    "limits",
                    f"{game} {name}: peak memory",
                    None,
                    big_events,
                    mb_big,
                    mb_small,
                    mb_big / mb_small,
                    "MB",
                    None,
                    note,
                )
            )
    return rows


def _events(path: Path, match_id: str) -> int:
    from matchledger.ledger.stores import open_store

    store = open_store(path, read_only=True)
    try:
        return len(store.rows(match_id))
    finally:
        store.close()

"""Appends against the floor: raw ``INSERT``s of the same finished rows."""

from __future__ import annotations

import contextlib
import io
import re
import sqlite3
import sys
from pathlib import Path

from . import corpus
from .measure import Row, fresh_database, median_time

#: What `new` rightly tells a host who gives a small seed: the corpus deals its sample
#: matches from the seeds 1 to 4 and 11 on purpose (the same matches every run), so for
#: the benchmark's own scripts it is known and said hundreds of times.
_SMALL_SEED = re.compile(r"warning: seed \d+ can be found by trying every smaller seed\b")


def passed_on(said: str, to=None) -> None:
    """What a script of the corpus said on stderr, shown but for the small-seed warnings."""
    for line in said.splitlines():
        if line and not _SMALL_SEED.match(line):
            print(line, file=to or sys.stderr)


# --------------------------------------------------------------------------- append


def rows_of(chosen) -> tuple[list[tuple], list[tuple[str, list[list]]]]:
    """Pre-built rows (what raw INSERTs write) and the per-match event groups."""
    from matchledger.ledger.codec import GENESIS_HASH, encode, envelope_hash
    from matchledger.ledger.events import kind_of

    rows, matches = [], []
    actor_json, recorded_at_json = encode("bench"), encode(corpus.RECORDED_AT)
    for index, template in enumerate(chosen):
        mid = corpus.match_id(index, template)
        groups = corpus.play_as(template, mid)
        matches.append((mid, groups))
        match_id_json = encode(mid)
        prev, seq = GENESIS_HASH, 0
        for group in groups:
            for event in group:
                seq += 1
                body = encode(event)
                digest = envelope_hash(actor_json, body, kind_of(event), match_id_json, prev, recorded_at_json, seq)
                rows.append((mid, seq, kind_of(event), body.decode(), corpus.RECORDED_AT, "bench", prev, digest))
                prev = digest
    return rows, matches


def bench_append(tmp: Path, chosen, runs: int) -> list[Row]:
    from matchledger.engine.commands import CreateMatch
    from matchledger.ledger.stores import open_store
    from matchledger.projections.application import Application

    rows, matches = rows_of(chosen)
    n_events = len(rows)
    path = tmp / "append.db"
    result = []

    def fresh_store():
        fresh_database(path)
        open_store(path).close()

    def raw_insert():
        conn = sqlite3.connect(str(path), isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany(
            "INSERT INTO events (match_id, seq, kind, body, recorded_at, actor, prev_hash, hash) VALUES (?,?,?,?,?,?,?,?)",
            rows,
        )
        conn.execute("COMMIT")
        conn.close()

    raw = median_time(raw_insert, runs, fresh_store)
    raw_rate = n_events / raw
    result.append(
        Row("append", "raw INSERT, one transaction", len(chosen), n_events, raw_rate, raw_rate, 1.0, "events/s")
    )

    def append_every_command(store):
        corpus.append_matches(store, matches)

    def store_batch():
        store = open_store(path)
        with store.transaction():
            append_every_command(store)
        store.close()

    t = median_time(store_batch, runs, fresh_store)
    result.append(
        Row(
            "append",
            "Store.append batch",
            len(chosen),
            n_events,
            n_events / t,
            raw_rate,
            (n_events / t) / raw_rate,
            "events/s",
            "append, Store.append batch",
            "encode + hash + insert, one transaction",
        )
    )

    def store_per_command():
        store = open_store(path)
        append_every_command(store)
        store.close()

    t = median_time(store_per_command, runs, fresh_store)
    result.append(
        Row(
            "append",
            "Store.append, 1 txn per command",
            len(chosen),
            n_events,
            n_events / t,
            raw_rate,
            (n_events / t) / raw_rate,
            "events/s",
            None,
            "a commit per host command",
        )
    )

    def ledger_per_command():
        store = open_store(path)
        app = Application(store, actor="bench", clock=lambda: corpus.RECORDED_AT)
        for index, template in enumerate(chosen):
            mid = corpus.match_id(index, template)
            app.create(
                CreateMatch(
                    mid, template.create.game, template.create.players, template.create.options, template.create.setup
                )
            )
            for cmd in template.commands:
                app.execute(mid, cmd)
        store.close()

    t = median_time(ledger_per_command, runs, fresh_store)
    result.append(
        Row(
            "append",
            "Application.execute, 1 txn per command",
            len(chosen),
            n_events,
            n_events / t,
            raw_rate,
            (n_events / t) / raw_rate,
            "events/s",
            None,
            "decide (engine) + append",
        )
    )

    scripts = tmp / "scripts"
    scripts.mkdir(exist_ok=True)
    script_files = []
    for index, template in enumerate(chosen):
        mid = corpus.match_id(index, template)
        script_files.append(template.script(mid, template.write_setup_files(scripts, mid)))
    script_path = scripts / "all.txt"
    script_path.write_text("".join(script_files), encoding="utf-8")

    def script_batch():
        from matchledger.commands.cli import cli

        said = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(said):
            cli.main(
                args=["--db", str(path), "script", "--atomic", str(script_path)],
                prog_name="matchledger",
                standalone_mode=False,
            )
        passed_on(said.getvalue())

    t = median_time(script_batch, runs, fresh_store)
    result.append(
        Row(
            "append",
            "script --atomic batch",
            len(chosen),
            n_events,
            n_events / t,
            raw_rate,
            (n_events / t) / raw_rate,
            "events/s",
            "append, script --atomic batch",
            "parse + decide (engine) + append, one transaction",
        )
    )
    return result

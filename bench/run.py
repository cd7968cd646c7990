"""The benchmark: how close replay, verify, append and start-up run to the floor.

Run from the repository root::

    python -m bench            # full: 1, 100, 1,000 and 10,000 matches, 3 runs each
    python -m bench --quick    # small sizes, one run (a few seconds)

Every number is a median over the runs of one invocation; ratios compare two numbers
measured in the same invocation on the same files.  Nothing is asserted: the script
prints a table (and ``--json`` writes it as JSON).  All files live in a temporary
directory that is removed at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import json
import os
import platform
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import corpus

FULL_SIZES = (1, 100, 1_000, 10_000)
QUICK_SIZES = (1, 12)

# Targets from issue 8 (ratios; "≤" for cost ratios, "≥" for rate ratios).
TARGETS = {
    "replay": ("<=", 3.0),
    "verify --all": ("<=", 5.0),
    "verify --all --jobs 2": ("<=", 0.6),
    "append, script --atomic batch": (">=", 0.5),
    "append, Store.append batch": (">=", 0.5),
    "eventsourcing append ours/theirs (time)": ("<=", 1.0),
    "eventsourcing replay ours/theirs (time)": ("<=", 1.0),
    "submit process - python -c pass (ms)": ("<=", 150.0),
}


#: The clock of in-process measurements: CPU time of this process (user + system) by
#: default, which other load on a shared machine barely moves; ``--clock wall`` for
#: elapsed time.  Whole processes (start-up) are always timed by the wall clock.
CLOCK = {"cpu": time.process_time, "wall": time.perf_counter}
_clock = time.process_time


def median_time(fn, runs: int, setup=None, clock=None) -> float:
    clock = clock or _clock
    times = []
    for _ in range(runs):
        if setup is not None:
            setup()
        start = clock()
        fn()
        times.append(clock() - start)
    return statistics.median(times)


def _fresh(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        p = Path(str(path) + suffix)
        if p.exists():
            p.unlink()


class Row:
    def __init__(self, section, name, size, events, ours, base, ratio, unit, target_key=None, note=""):
        self.section, self.name, self.size, self.events = section, name, size, events
        self.ours, self.base, self.ratio, self.unit = ours, base, ratio, unit
        self.target_key, self.note = target_key, note

    def verdict(self) -> str:
        if self.target_key is None or self.target_key not in TARGETS or self.ratio is None:
            return ""
        op, limit = TARGETS[self.target_key]
        ok = self.ratio <= limit if op == "<=" else self.ratio >= limit
        return f"{op} {limit:g} {'ok' if ok else 'MISSED'}"

    def to_json(self) -> dict:
        return {
            "section": self.section, "name": self.name, "matches": self.size, "events": self.events,
            "ours": self.ours, "baseline": self.base, "ratio": self.ratio, "unit": self.unit,
            "target": self.verdict(), "note": self.note,
        }


# --------------------------------------------------------------------------- replay / verify


def floor_scan(path: Path) -> None:
    """The floor: a plain ``SELECT body`` scan plus msgspec decoding, nothing else."""
    from matchledger.ledger.codec import _event_decoder

    decode = _event_decoder.decode
    conn = sqlite3.connect(str(path))
    for (body,) in conn.execute("SELECT body FROM events"):
        decode(body)
    conn.close()


def replay_all(path: Path, use_snapshots: bool = True) -> int:
    """Open, read, decode and fold every match to its outcome, the way a read command
    does (``Application.state``: from the match's snapshot when it has a usable one, then
    the events after it; ``use_snapshots=False``: from the first event)."""
    from matchledger.ledger.store import Store
    from matchledger.projections.application import Application

    store = Store(path, create=False)
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
        cli.main(args=["--db", str(path), "verify", "--all", "--jobs", str(jobs)], prog_name="matchledger",
                 standalone_mode=False)


# --------------------------------------------------------------------------- append


def _rows_of(chosen) -> tuple[list[tuple], list[tuple[str, list[list]]]]:
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
    from matchledger.ledger.store import Store
    from matchledger.projections.application import Application

    rows, matches = _rows_of(chosen)
    n_events = len(rows)
    path = tmp / "append.db"
    result = []

    def fresh_store():
        _fresh(path)
        Store(path).close()

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
    result.append(Row("append", "raw INSERT, one transaction", len(chosen), n_events, raw_rate, raw_rate, 1.0, "events/s"))

    def append_every_command(store):
        for mid, groups in matches:
            seq = 1
            for group in groups:
                store.append(mid, seq, group, actor="bench", recorded_at=corpus.RECORDED_AT)
                seq += len(group)

    def store_batch():
        store = Store(path)
        with store.transaction():
            append_every_command(store)
        store.close()

    t = median_time(store_batch, runs, fresh_store)
    result.append(Row("append", "Store.append batch", len(chosen), n_events, n_events / t, raw_rate,
                      (n_events / t) / raw_rate, "events/s", "append, Store.append batch",
                      "encode + hash + insert, one transaction"))

    def store_per_command():
        store = Store(path)
        append_every_command(store)
        store.close()

    t = median_time(store_per_command, runs, fresh_store)
    result.append(Row("append", "Store.append, 1 txn per command", len(chosen), n_events, n_events / t, raw_rate,
                      (n_events / t) / raw_rate, "events/s", None, "a commit per host command"))

    def ledger_per_command():
        store = Store(path)
        app = Application(store, actor="bench", clock=lambda: corpus.RECORDED_AT)
        for index, template in enumerate(chosen):
            mid = corpus.match_id(index, template)
            app.create(CreateMatch(mid, template.create.game, template.create.players, template.create.options,
                                   template.create.setup))
            for cmd in template.commands:
                app.execute(mid, cmd)
        store.close()

    t = median_time(ledger_per_command, runs, fresh_store)
    result.append(Row("append", "Application.execute, 1 txn per command", len(chosen), n_events, n_events / t, raw_rate,
                      (n_events / t) / raw_rate, "events/s", None, "decide (engine) + append"))

    scripts = tmp / "scripts"
    scripts.mkdir(exist_ok=True)
    script_files = []
    for index, template in enumerate(chosen):
        mid = corpus.match_id(index, template)
        files = {}
        setup = template.create.setup
        if "studio" in setup or "deck" in setup:
            setup_file = scripts / f"{mid}.setup.txt"
            setup_file.write_text(setup.get("studio") or setup.get("deck"), encoding="utf-8")
            files["setup_file"] = str(setup_file)
        script_files.append(template.script(mid, files))
    script_path = scripts / "all.txt"
    script_path.write_text("".join(script_files), encoding="utf-8")

    def script_batch():
        from matchledger.commands.cli import cli

        with contextlib.redirect_stdout(io.StringIO()):
            cli.main(args=["--db", str(path), "script", "--atomic", str(script_path)], prog_name="matchledger",
                     standalone_mode=False)

    t = median_time(script_batch, runs, fresh_store)
    result.append(Row("append", "script --atomic batch", len(chosen), n_events, n_events / t, raw_rate,
                      (n_events / t) / raw_rate, "events/s", "append, script --atomic batch",
                      "parse + decide (engine) + append, one transaction"))
    return result


# --------------------------------------------------------------------------- eventsourcing


def bench_eventsourcing(tmp: Path, chosen, runs: int) -> list[Row]:
    try:
        from eventsourcing.persistence import StoredEvent as ESStoredEvent
        from eventsourcing.sqlite import SQLiteAggregateRecorder, SQLiteDatastore
    except ImportError:
        return [Row("eventsourcing", "skipped: eventsourcing is not installed (pip install -e '.[bench]')",
                    len(chosen), 0, None, None, None, "")]
    from matchledger.ledger.codec import decode_event, encode
    from matchledger.ledger.events import kind_of
    from matchledger.ledger.store import Store
    from matchledger.projections.fold import Replayer, replay

    _rows, matches = _rows_of(chosen)
    n_events = len(_rows)
    ours_path, theirs_path = tmp / "ours.db", tmp / "theirs.db"

    def fresh_ours():
        _fresh(ours_path)
        Store(ours_path).close()

    holder = {}

    def fresh_theirs():
        _fresh(theirs_path)
        datastore = SQLiteDatastore(str(theirs_path), originator_id_type="text")
        recorder = SQLiteAggregateRecorder(datastore)
        recorder.create_table()
        holder["recorder"], holder["datastore"] = recorder, datastore

    def ours_append():
        store = Store(ours_path)
        for mid, groups in matches:
            seq = 1
            for group in groups:
                store.append(mid, seq, group, actor="bench", recorded_at=corpus.RECORDED_AT)
                seq += len(group)
        store.close()

    def theirs_append():
        recorder = holder["recorder"]
        for mid, groups in matches:
            seq = 1
            for group in groups:
                batch = []
                for event in group:
                    batch.append(ESStoredEvent(originator_id=mid, originator_version=seq, topic=kind_of(event),
                                               state=encode(event)))
                    seq += 1
                recorder.insert_events(batch)

    ours = median_time(ours_append, runs, fresh_ours)
    theirs = median_time(theirs_append, runs, fresh_theirs)
    result = [Row("eventsourcing", "append, 1 txn per command", len(chosen), n_events, ours, theirs, ours / theirs, "s",
                  "eventsourcing append ours/theirs (time)", "ours adds the hash chain and the seq check")]

    def ours_read():
        store = Store(ours_path, create=False)
        for mid in store.match_ids():
            store.events(mid)
        store.close()

    def theirs_read():
        recorder = holder["recorder"]
        for mid, _groups in matches:
            [decode_event(e.state) for e in recorder.select_events(mid)]

    def ours_replay():
        store = Store(ours_path, create=False)
        for mid in store.match_ids():
            replay(mid, store.events(mid))
        store.close()

    def theirs_replay():
        recorder = holder["recorder"]
        for mid, _groups in matches:
            replayer = Replayer(mid)
            for e in recorder.select_events(mid):
                replayer.feed(e.originator_version, decode_event(e.state))

    for name, a, b in (("read + decode", ours_read, theirs_read), ("replay (read + decode + fold)", ours_replay, theirs_replay)):
        ta, tb = median_time(a, runs), median_time(b, runs)
        key = "eventsourcing replay ours/theirs (time)" if name.startswith("replay") else None
        result.append(Row("eventsourcing", name, len(chosen), n_events, ta, tb, ta / tb, "s", key, "same decoder and fold"))
    with contextlib.suppress(Exception):
        holder["datastore"].close()
    return result


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


def long_match(tmp: Path, name: str, length: int) -> tuple[Path, str, list[str]]:
    """A database holding one lca match (11 players, the card's studio) that has had
    ``length`` host commands: contracts, then Round-1 resubmissions (each supersedes)."""
    from matchledger.ledger.store import Store
    from matchledger.projections.application import Application

    card = next(t for t in corpus.templates()["lca"] if t.name.endswith("card-11-players"))
    path = tmp / f"{name}.db"
    _fresh(path)
    app = Application(Store(path), actor="bench")
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
    argv = ["--db", str(path), "submit", card.create.match_id, last.participant, *last.tokens]
    return path, latencies, argv


def bench_startup(tmp: Path, runs: int) -> list[Row]:
    cli = _cli_command()
    runs = max(runs, 5)
    base = _process_time([sys.executable, "-c", "pass"], runs, tmp)
    rows = [Row("start-up", "python -c pass", None, None, base * 1000, base * 1000, 0.0, "ms")]
    t = _process_time(cli + ["--help"], runs, tmp)
    rows.append(Row("start-up", "matchledger --help", None, None, t * 1000, base * 1000, (t - base) * 1000, "ms",
                    None, "ratio column: ms over python -c pass"))
    _path, _lat, argv = long_match(tmp, "startup", 5)
    t = _process_time(cli + argv, runs, tmp)
    rows.append(Row("start-up", "matchledger submit (5th command)", None, None, t * 1000, base * 1000, (t - base) * 1000,
                    "ms", "submit process - python -c pass (ms)", "ratio column: ms over python -c pass"))
    return rows


def bench_growth(tmp: Path, runs: int, long_length: int) -> list[Row]:
    rows = []
    _p5, lat_short, argv5 = long_match(tmp, "short", 5)
    _pl, lat_long, argv_long = long_match(tmp, "long", long_length)
    fifth = statistics.median(lat_short[2:5])
    last = statistics.median(lat_long[-5:])
    rows.append(Row("growth", f"in-process command latency: command {long_length} vs 5", None, None, last * 1000,
                    fifth * 1000, last / fifth, "ms", None, "Application.execute with its cached state"))
    cli = _cli_command()
    runs = max(runs, 3)
    t5 = _process_time(cli + argv5, runs, tmp)
    tl = _process_time(cli + argv_long, runs, tmp)
    rows.append(Row("growth", f"submit process: command {long_length} vs 5", None, None, tl * 1000, t5 * 1000,
                    tl / t5, "ms", None, "each process replays the match first"))
    return rows


# --------------------------------------------------------------------------- driver


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return (f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, Python "
            f"{platform.python_version()}, SQLite {sqlite3.sqlite_version}")


def run(quick: bool, runs: int | None, sizes=None, skip_processes: bool = False, log=print) -> list[Row]:
    from matchledger.commands.cli import GC_THRESHOLDS

    # In-process measurements run under the garbage-collector settings of a command
    # (the floor and the eventsourcing comparison too: one setting for every row).
    gc.set_threshold(*GC_THRESHOLDS)
    sizes = tuple(sizes or (QUICK_SIZES if quick else FULL_SIZES))
    runs = runs or (1 if quick else 3)
    by_game = corpus.templates()
    rows: list[Row] = []
    tmp = Path(tempfile.mkdtemp(prefix="matchledger-bench-"))
    try:
        for size in sizes:
            path = tmp / f"n{size}.db"
            log(f"building {size} matches ...", file=sys.stderr)
            events = corpus.build_db(str(path), corpus.mix(by_game, size))
            if size == sizes[0]:  # first use pays the imports (timed by start-up, not here)
                replay_all(path), replay_all(path, use_snapshots=False), verify_all(path)
            floor = median_time(lambda: floor_scan(path), max(runs, 3))
            t = median_time(lambda: replay_all(path), runs)
            rows.append(Row("replay", "replay (from snapshots, as reads do)", size, events, t, floor, t / floor, "s", "replay"))
            t = median_time(lambda: replay_all(path, use_snapshots=False), runs)
            rows.append(Row("replay", "replay from the first event", size, events, t, floor, t / floor, "s"))
            t = median_time(lambda: verify_all(path), runs)
            rows.append(Row("verify", "verify --all", size, events, t, floor, t / floor, "s", "verify --all"))
            if size == sizes[-1] and size >= 100:
                # parallel processes: elapsed time is what they save, so the wall clock
                one = median_time(lambda: verify_all(path, 1), runs, clock=time.perf_counter)
                two = median_time(lambda: verify_all(path, 2), runs, clock=time.perf_counter)
                rows.append(Row("verify", "verify --all --jobs 2 vs --jobs 1 (wall clock)", size, events, two, one,
                                two / one, "s", "verify --all --jobs 2"))
            path.unlink()
        for kind in ("replay (from snapshots, as reads do)", "replay from the first event"):
            replays = [r for r in rows if r.name == kind]
            if len(replays) >= 2:
                # From the first size of 100 matches or more (fixed costs amortized), if any.
                big = [r for r in replays if r.size >= 100]
                a, b = (big[0] if len(big) >= 2 else replays[0]), replays[-1]
                per_a, per_b = a.ours / a.events, b.ours / b.events
                rows.append(Row("growth", f"{kind} per event: {b.size} vs {a.size} matches", b.size, b.events,
                                per_b * 1e6, per_a * 1e6, per_b / per_a, "us/event", None, "1.0 = linear"))
        n_append = 12 if quick else 300
        log(f"append: {n_append} matches ...", file=sys.stderr)
        rows += bench_append(tmp, corpus.mix(by_game, n_append), runs)
        n_es = 12 if quick else 1_000
        log(f"eventsourcing: {n_es} matches ...", file=sys.stderr)
        rows += bench_eventsourcing(tmp, corpus.mix(by_game, n_es), runs)
        if not skip_processes:
            log("start-up and latency ...", file=sys.stderr)
            rows += bench_startup(tmp, runs)
            rows += bench_growth(tmp, runs, 60 if quick else 500)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return rows


def _fmt(value, unit) -> str:
    if value is None:
        return "-"
    if unit == "events/s":
        return f"{value:,.0f}"
    if unit == "s":
        return f"{value:.4f}"
    return f"{value:.2f}"


def table(rows: list[Row]) -> str:
    header = ["section", "measure", "matches", "events", "ours", "baseline", "ratio", "unit", "target"]
    lines = [header]
    for r in rows:
        lines.append([
            r.section, r.name, "" if r.size is None else f"{r.size:,}", "" if not r.events else f"{r.events:,}",
            _fmt(r.ours, r.unit), _fmt(r.base, r.unit), "-" if r.ratio is None else f"{r.ratio:.2f}", r.unit,
            r.verdict(),
        ])
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = []
    for index, line in enumerate(lines):
        out.append("| " + " | ".join(cell.ljust(w) for cell, w in zip(line, widths)) + " |")
        if index == 0:
            out.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(out)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, one run (a few seconds)")
    parser.add_argument("--runs", type=int, help="runs per measurement (median); default 3, 1 with --quick")
    parser.add_argument("--sizes", help="comma-separated match counts, e.g. 1,100,1000")
    parser.add_argument("--no-processes", action="store_true", help="skip the start-up and process timings")
    parser.add_argument("--json", metavar="FILE", help="also write the rows as JSON to FILE")
    parser.add_argument("--clock", choices=sorted(CLOCK), default="cpu",
                        help="in-process clock: cpu (default, robust on a shared machine) or wall")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else None
    global _clock
    _clock = CLOCK[args.clock]
    started = time.perf_counter()
    rows = run(args.quick, args.runs, sizes, args.no_processes)
    print(f"matchledger benchmark ({'quick' if args.quick else 'full'}), medians, {args.clock} clock in-process, "
          f"wall clock for processes; machine: {machine()}")
    print(table(rows))
    print(f"total time {time.perf_counter() - started:.0f} s")
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": machine(), "rows": [r.to_json() for r in rows]}, indent=2))

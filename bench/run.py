"""The benchmark: how close replay, verify, append and start-up run to the floor.

Run from the repository root::

    python -m bench            # full: 1, 100, 1,000 and 10,000 matches, 3 runs each
    python -m bench --quick    # small sizes, one run (a few seconds)
    python -m bench.service    # only the service under load (also part of the two above)

The PostgreSQL rows run on a throwaway local server (the binaries of a PostgreSQL
installation; skipped, saying why, without them; ``--no-postgres`` leaves them out).

Every number is a median over the runs of one invocation; ratios compare two numbers
measured in the same invocation on the same files.  Nothing is asserted: the script
prints a table (and ``--json`` writes it as JSON).  All files live in a temporary
directory that is removed at the end.
"""

from __future__ import annotations

import argparse
import gc
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from . import corpus
from .append import bench_append
from .eventsourcing_compare import bench_eventsourcing
from .limits import bench_limits
from .measure import CLOCK, FULL_SIZES, QUICK_SIZES, Row, machine, median_time, table, use_clock
from .postgres import bench_postgres
from .processes import bench_growth, bench_startup
from .reads import floor_scan, replay_all, verify_all


def run(
    quick: bool,
    runs: int | None,
    sizes=None,
    skip_processes: bool = False,
    log=print,
    skip_service: bool = False,
    postgres: bool = True,
) -> list[Row]:
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
            rows.append(
                Row("replay", "replay (from snapshots, as reads do)", size, events, t, floor, t / floor, "s", "replay")
            )
            t = median_time(lambda: replay_all(path, use_snapshots=False), runs)
            rows.append(Row("replay", "replay from the first event", size, events, t, floor, t / floor, "s"))
            t = median_time(lambda: verify_all(path), runs)
            rows.append(Row("verify", "verify --all", size, events, t, floor, t / floor, "s", "verify --all"))
            if size == sizes[-1] and size >= 100:
                # parallel processes: elapsed time is what they save, so the wall clock
                one = median_time(lambda: verify_all(path, 1), runs, clock=time.perf_counter)
                two = median_time(lambda: verify_all(path, 2), runs, clock=time.perf_counter)
                rows.append(
                    Row(
                        "verify",
                        "verify --all --jobs 2 vs --jobs 1 (wall clock)",
                        size,
                        events,
                        two,
                        one,
                        two / one,
                        "s",
                        "verify --all --jobs 2",
                    )
                )
            path.unlink()
        for kind in ("replay (from snapshots, as reads do)", "replay from the first event"):
            replays = [r for r in rows if r.name == kind]
            if len(replays) >= 2:
                # From the first size of 100 matches or more (fixed costs amortized), if any.
                big = [r for r in replays if r.size >= 100]
                a, b = (big[0] if len(big) >= 2 else replays[0]), replays[-1]
                per_a, per_b = a.ours / a.events, b.ours / b.events
                rows.append(
                    Row(
                        "growth",
                        f"{kind} per event: {b.size} vs {a.size} matches",
                        b.size,
                        b.events,
                        per_b * 1e6,
                        per_a * 1e6,
                        per_b / per_a,
                        "us/event",
                        None,
                        "1.0 = linear",
                    )
                )
        n_append = 12 if quick else 300
        log(f"append: {n_append} matches ...", file=sys.stderr)
        rows += bench_append(tmp, corpus.mix(by_game, n_append), runs)
        if postgres:
            n_pg = 12 if quick else 300
            log(f"postgresql: {n_pg} matches ...", file=sys.stderr)
            rows += bench_postgres(tmp, corpus.mix(by_game, n_pg), runs, processes=not skip_processes, log=log)
        n_es = 12 if quick else 1_000
        log(f"eventsourcing: {n_es} matches ...", file=sys.stderr)
        rows += bench_eventsourcing(tmp, corpus.mix(by_game, n_es), runs)
        if not skip_processes:
            log("start-up and latency ...", file=sys.stderr)
            rows += bench_startup(tmp, runs)
            rows += bench_growth(tmp, runs, 60 if quick else 500)
        if not skip_processes and not skip_service:
            from . import service  # `serve` processes under load (issue 16)

            rows += service.run(quick, log, postgres=postgres)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return rows


def limits(log) -> list[Row]:
    tmp = Path(tempfile.mkdtemp(prefix="matchledger-bench-limits-"))
    try:
        return bench_limits(tmp, lambda message: log(message, file=sys.stderr))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, one run (a few seconds)")
    parser.add_argument("--runs", type=int, help="runs per measurement (median); default 3, 1 with --quick")
    parser.add_argument("--sizes", help="comma-separated match counts, e.g. 1,100,1000")
    parser.add_argument("--no-processes", action="store_true", help="skip the start-up and process timings")
    parser.add_argument("--no-service", action="store_true", help="skip the service under load (bench/service.py)")
    parser.add_argument(
        "--no-postgres", action="store_true", help="skip the PostgreSQL rows (a throwaway local server)"
    )
    parser.add_argument(
        "--limits",
        action="store_true",
        help="only: every command on the largest input the limits allow vs a small match",
    )
    parser.add_argument("--json", metavar="FILE", help="also write the rows as JSON to FILE")
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCK),
        default="cpu",
        help="in-process clock: cpu (default, robust on a shared machine) or wall",
    )
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else None
    use_clock(args.clock)
    started = time.perf_counter()
    rows = (
        limits(print)
        if args.limits
        else run(
            args.quick, args.runs, sizes, args.no_processes, skip_service=args.no_service, postgres=not args.no_postgres
        )
    )
    print(
        f"matchledger benchmark ({'quick' if args.quick else 'full'}), medians, {args.clock} clock in-process, "
        f"wall clock for processes; machine: {machine()}"
    )
    print(table(rows))
    print(f"total time {time.perf_counter() - started:.0f} s")
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": machine(), "rows": [r.to_json() for r in rows]}, indent=2))

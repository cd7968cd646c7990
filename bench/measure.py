"""What every measurement shares: the clock, medians, the rows of the table and their
targets, and the table itself."""

from __future__ import annotations

import contextlib
import os
import platform
import sqlite3
import statistics
import time
from pathlib import Path

from .measure import *  # noqa: F403

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
    # issue 16: the service (bench/service.py; the ratio column holds the ratio, or the p99 in ms)
    "service throughput ours/fixed bytes": (">=", 0.5),
    "service read p99 (ms)": ("<=", 50.0),
    "service receipt p99 (ms)": ("<=", 20.0),
    "service live update p99 (ms)": ("<=", 250.0),
    # issue 29: a serve fleet on PostgreSQL (bench/fleet.py; the ratio column as for issue 16)
    "fleet throughput ours/fixed bytes": (">=", 0.5),
    "fleet read p99 (ms)": ("<=", 50.0),
    "fleet live update p99 (ms)": ("<=", 50.0),
    # "within about 2 s": the deadline is 2 s (commands/service/reading.py), and a 503
    # takes the deadline plus its own answer's time
    "fleet stalled answer (ms)": ("<=", 2100.0),
    # issue 17: PostgreSQL against its own floor (raw INSERTs / SELECT + decode)
    "postgresql append batch": (">=", 0.5),
    "postgresql replay": ("<=", 3.5),
}


#: The clock of in-process measurements: CPU time of this process (user + system) by
#: default, which other load on a shared machine barely moves; ``--clock wall`` for
#: elapsed time.  Whole processes (start-up) are always timed by the wall clock.
CLOCK = {"cpu": time.process_time, "wall": time.perf_counter}
_clock = time.process_time


def use_clock(name: str) -> None:
    global _clock
    _clock = CLOCK[name]


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


def fresh_database(path: Path) -> None:
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
            "section": self.section,
            "name": self.name,
            "matches": self.size,
            "events": self.events,
            "ours": self.ours,
            "baseline": self.base,
            "ratio": self.ratio,
            "unit": self.unit,
            "target": self.verdict(),
            "note": self.note,
        }


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return (
        f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, Python "
        f"{platform.python_version()}, SQLite {sqlite3.sqlite_version}"
    )


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
        lines.append(
            [
                r.section,
                r.name,
                "" if r.size is None else f"{r.size:,}",
                "" if not r.events else f"{r.events:,}",
                _fmt(r.ours, r.unit),
                _fmt(r.base, r.unit),
                "-" if r.ratio is None else f"{r.ratio:.2f}",
                r.unit,
                r.verdict(),
            ]
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = []
    for index, line in enumerate(lines):
        out.append("| " + " | ".join(cell.ljust(w) for cell, w in zip(line, widths)) + " |")
        if index == 0:
            out.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(out)

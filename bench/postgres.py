"""PostgreSQL next to its own floor and next to SQLite, on a throwaway local server
(``matchledger.testing.postgres_server``; skipped, saying why, where none can start).

Every row here is timed by the wall clock: the server's work is done in its own
processes, which this process's CPU clock does not see.  The floors use the same
connection and the same bytes as matchledger: raw ``INSERT``s of the finished rows in
one transaction; ``SELECT seq, body`` of each match plus msgspec decoding.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from . import corpus
from .append import rows_of
from .measure import Row, fresh_database, median_time
from .processes import _cli_command, _process_time, long_match
from .reads import replay_all

WALL = time.perf_counter
_INSERT = (
    "INSERT INTO events (match_id, seq, kind, body, recorded_at, actor, prev_hash, hash) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"
)


def bench_postgres(tmp: Path, chosen, runs: int, processes: bool = True, server=None, log=print) -> list[Row]:
    """The PostgreSQL rows; ``server``: a running throwaway server to use (else one is
    started here and removed at the end)."""
    from matchledger.testing.postgres_server import ThrowawayServer, Unavailable

    own = server is None
    if own:
        try:
            server = ThrowawayServer.start(durable=True)
        except Unavailable as exc:
            log(f"postgresql: skipped: {exc}", file=sys.stderr)
            return [Row("postgresql", f"skipped: {str(exc).splitlines()[0][:100]}", None, None, None, None, None, "")]
    try:
        database = server.create_database("bench")
        rows = _appends(server, database, tmp, chosen, runs) + _replays(server, database, tmp, chosen, runs)
        rows += _latency(server, database, tmp, runs, processes)
        server.drop_database(database)
        return rows
    finally:
        if own:
            server.remove()


def _fresh(server, database: str) -> str:
    """The URL of a new, empty place (a schema) in ``database``."""
    return server.url(database, schema=server.create_schema(database))


def _appends(server, database: str, tmp: Path, chosen, runs: int) -> list[Row]:
    import psycopg

    from matchledger.ledger.stores import open_store

    rows, matches = rows_of(chosen)
    n = len(rows)
    place = {}

    def fresh_postgres():
        place["url"] = _fresh(server, database)
        open_store(place["url"]).close()  # the tables, made as a first write makes them

    def raw_insert():
        with psycopg.connect(place["url"], autocommit=True) as conn:
            with conn.transaction(), conn.cursor() as cursor:
                cursor.executemany(_INSERT, rows)

    def batch(db: str):
        store = open_store(db)
        with store.transaction():
            corpus.append_matches(store, matches)
        store.close()

    path = tmp / "pg-append-sqlite.db"
    floor = n / median_time(raw_insert, runs, fresh_postgres, clock=WALL)
    ours = n / median_time(lambda: batch(place["url"]), runs, fresh_postgres, clock=WALL)
    sqlite = n / median_time(lambda: batch(str(path)), runs, lambda: fresh_database(path), clock=WALL)
    return [
        Row("postgresql", "raw INSERT, one transaction (floor)", len(chosen), n, floor, floor, 1.0, "events/s"),
        Row(
            "postgresql",
            "PostgresStore.append batch",
            len(chosen),
            n,
            ours,
            floor,
            ours / floor,
            "events/s",
            "postgresql append batch",
            "encode + hash + insert, one transaction",
        ),
        Row(
            "postgresql",
            "append batch: PostgreSQL vs SQLite",
            len(chosen),
            n,
            ours,
            sqlite,
            ours / sqlite,
            "events/s",
            None,
            "baseline: Store.append batch on a SQLite file",
        ),
    ]


def _replays(server, database: str, tmp: Path, chosen, runs: int) -> list[Row]:
    import msgspec
    import psycopg

    from matchledger.ledger.events import AnyEvent

    url = _fresh(server, database)
    n = corpus.build_db(url, chosen)
    path = tmp / "pg-replay-sqlite.db"
    fresh_database(path)
    corpus.build_db(str(path), chosen)

    def floor_scan():
        decode = msgspec.json.Decoder(AnyEvent).decode
        with psycopg.connect(url, autocommit=True) as conn:
            for (mid,) in conn.execute("SELECT DISTINCT match_id FROM events ORDER BY match_id").fetchall():
                for _seq, body in conn.execute("SELECT seq, body FROM events WHERE match_id = %s ORDER BY seq", (mid,)):
                    decode(body)

    replay_all(url), floor_scan()  # warm the server's cache and our imports
    floor = median_time(floor_scan, max(runs, 3), clock=WALL)
    rows = []
    for name, snapshots, target in (
        ("replay (from snapshots, as reads do)", True, "postgresql replay"),
        ("replay from the first event", False, None),
    ):
        ours = median_time(lambda: replay_all(url, use_snapshots=snapshots), runs, clock=WALL)
        sqlite = median_time(lambda: replay_all(path, use_snapshots=snapshots), runs, clock=WALL)
        rows.append(
            Row(
                "postgresql",
                name,
                len(chosen),
                n,
                ours,
                floor,
                ours / floor,
                "s",
                target,
                "baseline: SELECT seq, body of each match + decode",
            )
        )
        rows.append(
            Row(
                "postgresql",
                f"{name}: PostgreSQL vs SQLite",
                len(chosen),
                n,
                ours,
                sqlite,
                ours / sqlite,
                "s",
                None,
                "baseline: the same on a SQLite file",
            )
        )
    return rows


def _latency(server, database: str, tmp: Path, runs: int, processes: bool) -> list[Row]:
    """A host's command on a match of a few commands: in-process (Application.execute)
    and as a whole `matchledger submit` process, over a local connection vs a file."""
    _db, on_postgres, argv_postgres = long_match(tmp, "pg", 5, db=_fresh(server, database))
    _db, on_sqlite, argv_sqlite = long_match(tmp, "pg-sqlite", 5)
    ours, base = statistics.median(on_postgres[2:5]) * 1000, statistics.median(on_sqlite[2:5]) * 1000
    rows = [
        Row(
            "postgresql",
            "host command in-process: PostgreSQL vs SQLite",
            None,
            None,
            ours,
            base,
            ours / base,
            "ms",
            None,
            "Application.execute, 3rd-5th command",
        )
    ]
    if processes:
        cli = _cli_command()
        ours = _process_time(cli + argv_postgres, max(runs, 3), tmp) * 1000
        base = _process_time(cli + argv_sqlite, max(runs, 3), tmp) * 1000
        rows.append(
            Row(
                "postgresql",
                "submit process: PostgreSQL vs SQLite",
                None,
                None,
                ours,
                base,
                ours / base,
                "ms",
                None,
                "a whole host command over a local connection",
            )
        )
    return rows

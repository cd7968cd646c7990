"""A serve fleet on PostgreSQL (issue 29, "Measured"), beside one `serve` on SQLite.

On a throwaway PostgreSQL cluster started here (``matchledger.testing.postgres_server``,
as ``bench/postgres.py`` starts one), two `serve` processes on one database, the
clients spread over both in turn, and a busy writer committing about 50 times a second
to another database of the same cluster during every row:

1. `/me` and the participant page under 200 keep-alive clients: throughput against the
   same framework serving bytes computed beforehand (two such processes, spread alike),
   and p99 (the SQLite rows are ``bench_reads``'s, in the same run);
2. live update: from the commit of a host's close (this process's Application, on its
   own connection) to its arrival on 1,000 open public pages over both processes:
   p50 and p99;
3. the database stalled for 8 s, two ways (``bench/stall.py``): from clients connected
   before it, the worst latency and the answers of a static route, a public answer
   read before the stall, and a participant's `/me`;
4. each process's memory (RSS) with the 1,000 pages of row 2 open, against idle.

On SQLite, one `serve`: rows 2 and 4, and row 3 as ``BEGIN EXCLUSIVE`` held 8 s (not
the same stall: in WAL mode readers are not held up by a writer).

    python -m bench.service --fleet            # these rows and the SQLite read rows (about 3 minutes)
    python -m bench.service --fleet --quick    # small numbers, a few seconds of each

Every server, thread and folder is removed at the end, also on Ctrl-C (a paused
cluster is let go on first).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import threading
import time
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from . import stall
from .measure import Row
from .service import (
    _follow,
    _load,
    _request,
    _split,
    build_matches,
    fixed_bytes,
    follow_page,
    get,
    links,
    memory_mb,
    p99,
    process,
    serve,
)

FLEET = 2  # serve processes on the one PostgreSQL database
#: Bytes of a public page's live update (the bench's lca match in its first round: 32,100), for the floor's streams.
LIVE_MESSAGE_BYTES = 32_000
BUSY_COMMITS_PER_SECOND = 50


@dataclass(frozen=True)
class Scale:
    clients: int  # row 1
    seconds: float  # row 1, each measurement
    pages: int  # rows 2 and 4, over all the processes
    live_matches: int  # row 2: one after the other, two closes each
    stall_seconds: float  # row 3


FULL = Scale(clients=200, seconds=6.0, pages=1_000, live_matches=2, stall_seconds=8.0)
QUICK = Scale(clients=20, seconds=1.0, pages=20, live_matches=1, stall_seconds=2.0)


def run(tmp: Path, quick: bool, log=print, scale: Scale | None = None) -> list[Row]:
    from matchledger.testing.postgres_server import ThrowawayServer, Unavailable

    scale = scale or (QUICK if quick else FULL)
    log(f"fleet: a throwaway PostgreSQL cluster, {FLEET} serve processes ...", file=sys.stderr)
    try:
        server = ThrowawayServer.start(durable=True)
    except Unavailable as exc:
        log(f"fleet: skipped: {exc}", file=sys.stderr)
        return [Row("fleet", f"skipped: {str(exc).splitlines()[0][:100]}", None, None, None, None, None, "")]
    rows: list[Row] = []
    try:
        fleet_db, busy_db = server.create_database("fleet"), server.create_database("busy")
        elsewhere = server.url(busy_db)
        with busy_writer(elsewhere) as busy:
            reads_url = server.url(fleet_db, schema=server.create_schema(fleet_db))
            rows += fleet_reads(tmp, reads_url, scale, log)
            live_url = server.url(fleet_db, schema=server.create_schema(fleet_db))
            rows += live(live_url, FLEET, scale, log, "PostgreSQL fleet")
            granted = links(reads_url, ["live-0000"], 1)[0]
            for how in (stall.Paused(server.data), stall.Locked(reads_url, elsewhere)):
                rows += stalled(reads_url, FLEET, granted, how, scale, log, "PostgreSQL fleet")
            rate = busy.rate()
        for row in rows:
            row.note = "; ".join(filter(None, [row.note, f"busy writer: {rate:.0f} commits/s elsewhere"]))
    finally:
        stall.resume(server.data)  # never leave a stopped cluster behind (Ctrl-C mid-stall)
        server.remove()
    sqlite_db = tmp / "fleet-live.db"
    rows += live(sqlite_db, 1, scale, log, "SQLite serve")
    sqlite_reads = tmp / "fleet-stall.db"
    build_matches(sqlite_reads, 1, rounds_played=1)
    granted = links(sqlite_reads, ["live-0000"], 1)[0]
    rows += stalled(sqlite_reads, 1, granted, stall.SqliteExclusive(sqlite_reads), scale, log, "SQLite serve")
    return rows


# --------------------------------------------------------------------------- the parts


class Busy:
    def __init__(self) -> None:
        self.commits = 0
        self.began = time.perf_counter()

    def rate(self) -> float:
        return self.commits / (time.perf_counter() - self.began)


@contextmanager
def busy_writer(url: str, per_second: int = BUSY_COMMITS_PER_SECOND):
    """A thread committing one INSERT ``per_second`` times a second to ``url`` (another
    database of the cluster) until the block ends; yields its count."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS busy (id bigserial PRIMARY KEY, at timestamptz DEFAULT now())")
    busy, stop = Busy(), threading.Event()

    def write() -> None:
        with psycopg.connect(url, autocommit=True) as conn:
            due = time.perf_counter()
            while not stop.is_set():
                conn.execute("INSERT INTO busy DEFAULT VALUES")
                busy.commits += 1
                due += 1 / per_second
                stop.wait(max(0.0, due - time.perf_counter()))

    thread = threading.Thread(target=write, name="busy writer", daemon=True)
    thread.start()
    try:
        yield busy
    finally:
        stop.set()
        thread.join(30)


@contextmanager
def fleet(db, count: int, *options: str):
    """``count`` serve processes on ``db``; yields [(pid, url)]."""
    with ExitStack() as stack:
        yield [stack.enter_context(serve(db, None, *options)) for _ in range(count)]


async def _spread(urls: list[str], requests: list[list[bytes]], seconds: float, *, warm: float, once: bool = False):
    """``_load`` on each server at once, each with its share of the clients."""
    results = await asyncio.gather(
        *(_load(url, share, seconds, warm=warm, once=once) for url, share in zip(urls, requests))
    )
    return sum(r[0] for r in results), [lat for r in results for lat in r[1]], sum(r[2] for r in results)


def _shares(urls: list[str], granted, make) -> list[list[bytes]]:
    """Each client's request, the clients dealt to the servers in turn."""
    return [
        [make(url.removeprefix("http://"), m, t) for m, _p, t in granted[index :: len(urls)]]
        for index, url in enumerate(urls)
    ]


# --------------------------------------------------------------------------- row 1


def fleet_reads(tmp: Path, url: str, scale: Scale, log) -> list[Row]:
    clients, seconds = scale.clients, scale.seconds
    matches = build_matches(url, max(1, clients // 10), rounds_played=1)
    granted = links(url, matches, 10)[:clients]
    kinds = {
        "/me": lambda host, m, t: _request("GET", f"/api/v1/matches/{m}/me", host, {"Authorization": f"Bearer {t}"}),
        "participant page": lambda host, m, t: _request("GET", f"/p/{t}", host),
    }
    measured, samples = {}, {}
    warm = min(1.0, seconds / 3)
    with fleet(url, FLEET) as servers:
        urls = [u for _pid, u in servers]
        m, _p, t = granted[0]
        samples["/me"] = get(urls[0], f"/api/v1/matches/{m}/me", {"Authorization": f"Bearer {t}"})
        samples["participant page"] = get(urls[0], f"/p/{t}")
        for kind, make in kinds.items():
            log(f"fleet: {clients} clients on {kind} over {FLEET} serve on PostgreSQL ...", file=sys.stderr)
            shares = _shares(urls, granted, make)
            asyncio.run(_spread(urls, shares, 0.0, warm=0.0, once=True))  # each viewer's answer made once
            measured[kind] = asyncio.run(_spread(urls, shares, seconds, warm=warm))
    answers = {
        "/me": ("application/json", samples["/me"][1]),
        "/page": ("text/html; charset=utf-8", samples["participant page"][1]),
    }
    rows = []
    with ExitStack() as stack:
        urls = [stack.enter_context(fixed_bytes(answers, tmp))[1] for _ in range(FLEET)]
        for kind, path in (("/me", "/me"), ("participant page", "/page")):
            log(f"fleet: {clients} clients on fixed bytes as large as {kind}, {FLEET} processes ...", file=sys.stderr)
            shares = _shares(urls, granted, lambda host, _m, _t, path=path: _request("GET", path, host))
            base_rate, base_latencies, _ = asyncio.run(_spread(urls, shares, seconds, warm=warm))
            rate, latencies, failed = measured[kind]
            note = f"{len(samples[kind][1]):,} bytes an answer" + (f"; {failed} answers not 200" if failed else "")
            label = f"PostgreSQL fleet: {kind}"
            rows += [
                Row(
                    "fleet",
                    f"{label}: requests/s, {clients} clients over {FLEET} serve, vs fixed bytes",
                    None,
                    None,
                    rate,
                    base_rate,
                    rate / base_rate,
                    "req/s",
                    "fleet throughput ours/fixed bytes",
                    note,
                ),
                Row(
                    "fleet",
                    f"{label}: p99 latency, {clients} clients (fixed bytes: baseline)",
                    None,
                    None,
                    p99(latencies) * 1000,
                    p99(base_latencies) * 1000,
                    p99(latencies) * 1000,
                    "ms",
                    "fleet read p99 (ms)",
                    "ratio column: our p99 in ms",
                ),
            ]
    return rows


# --------------------------------------------------------------------------- rows 2 and 4


def live(db, count: int, scale: Scale, log, label: str) -> list[Row]:
    """Rows 2 and 4 on ``count`` serve processes of ``db``."""
    from concurrent.futures import ThreadPoolExecutor

    from matchledger.ledger.stores import open_store
    from matchledger.projections.application import Application

    pages = scale.pages
    left = build_matches(db, scale.live_matches, rounds_played=0)
    # every page comes from 127.0.0.1 (the streams-per-client limit) and all follow one match
    allowed = str(pages)
    options = ("--streams-per-client", allowed, "--streams-per-match", allowed, "--max-connections", str(pages + 100))
    log(f"fleet: {pages} open pages over {count} serve ({label}), the host closing rounds ...", file=sys.stderr)
    latencies: list[float] = []
    resident: list[list[float]] = []
    with fleet(db, count, *options) as servers:
        idle = [memory_mb(pid)[0] for pid, _url in servers]
        addresses = [_split(url) for _pid, url in servers]

        def while_open() -> None:
            resident.append([memory_mb(pid)[0] for pid, _url in servers])

        with ThreadPoolExecutor(1) as host:  # the host's connection lives in one thread
            host_app = host.submit(lambda: Application(open_store(db, create=False), actor="host")).result()
            try:
                for mid, commands in left.items():
                    latencies += asyncio.run(_follow(addresses, mid, commands, pages, host, host_app, while_open))
            finally:
                host.submit(host_app.store.close).result()
    expected = 2 * pages * len(left)
    floor = live_floor(count, pages, log)
    note = (
        f"{len(latencies)} of {expected} arrivals; pages spread over {count} serve in turn; baseline: the same "
        f"framework waking {pages:,} streams with fixed bytes ({len(floor)} arrivals)"
    )
    rows = [
        Row(
            "fleet",
            f"{label}: live update p50, commit to arrival on {pages:,} open pages",
            None,
            None,
            statistics.median(latencies) * 1000,
            statistics.median(floor) * 1000,
            statistics.median(latencies) / statistics.median(floor),
            "ms",
            None,
            note,
        ),
        Row(
            "fleet",
            f"{label}: live update p99, commit to arrival on {pages:,} open pages",
            None,
            None,
            p99(latencies) * 1000,
            p99(floor) * 1000,
            p99(latencies) * 1000,
            "ms",
            "fleet live update p99 (ms)",
            note,
        ),
    ]
    for index, before in enumerate(idle):
        most = max(snapshot[index] for snapshot in resident)
        rows.append(
            Row(
                "fleet",
                f"{label}: serve {index + 1} of {count}: RSS with {pages // count:,} open pages vs idle",
                None,
                None,
                most,
                before,
                most / before,
                "MB",
                None,
                "read after the closes arrived, every page still open",
            )
        )
    return rows


def live_floor(count: int, pages: int, log, rounds: int = 4) -> list[float]:
    """The live update's floor: ``pages`` streams over ``count`` fixed-stream servers
    (``fixed_stream.py``, messages of a page's update's size), each told to send at
    once, ``rounds`` times; each arrival's delay after the telling."""
    log(f"fleet: {pages} open fixed streams over {count} processes (the floor) ...", file=sys.stderr)
    with ExitStack() as stack:
        servers = [
            stack.enter_context(process([sys.executable, "-m", "bench.fixed_stream", str(LIVE_MESSAGE_BYTES)]))
            for _ in range(count)
        ]
        return asyncio.run(_follow_floor([_split(url) for _pid, url in servers], pages, rounds))


async def _follow_floor(addresses: list[tuple[str, int]], pages: int, rounds: int) -> list[float]:
    arrivals: list[list[float]] = [[] for _ in range(pages)]
    ready = [asyncio.Event() for _ in range(pages)]

    async def poke(hostname: str, port: int) -> None:
        reader, writer = await asyncio.open_connection(hostname, port)
        writer.write(_request("POST", "/poke", f"{hostname}:{port}"))
        await writer.drain()
        await reader.read(1024)
        writer.close()

    followers = [
        asyncio.ensure_future(
            follow_page(addresses[index % len(addresses)], "/m/floor/events", ready[index], arrivals[index])
        )
        for index in range(pages)
    ]
    await asyncio.gather(*(event.wait() for event in ready))
    told: list[float] = []
    for _ in range(rounds):
        await asyncio.sleep(0.3)
        told.append(time.perf_counter())
        await asyncio.gather(*(poke(hostname, port) for hostname, port in addresses))
        deadline = time.perf_counter() + 10
        while any(len(a) < len(told) for a in arrivals) and time.perf_counter() < deadline:
            await asyncio.sleep(0.01)
    for follower in followers:
        follower.cancel()
    await asyncio.gather(*followers, return_exceptions=True)
    return [arrived - at for a in arrivals for arrived, at in zip(a, told)]


# --------------------------------------------------------------------------- row 3


def stalled(db, count: int, granted, how, scale: Scale, log, label: str) -> list[Row]:
    """Row 3: ``how`` (a stall of ``bench/stall.py``) under ``count`` serve processes."""
    mid, _participant, token = granted
    seconds = scale.stall_seconds
    log(f"fleet: {label}, {how.name} for {seconds:g} s ...", file=sys.stderr)
    with fleet(db, count) as servers:
        addresses = [_split(url) for _pid, url in servers]
        seen = asyncio.run(stall.probe_stall(addresses, stall.classes(mid, token), f"/m/{mid}/events", how, seconds))
        back = stall.recovered(addresses)
    rows = []
    for kind, got in seen.items():
        rows.append(
            Row(
                "fleet",
                f"{label}: {how.name} {seconds:g} s: {kind}: worst latency; {got.said()}",
                None,
                None,
                got.worst * 1000,
                None,
                got.worst * 1000,
                "ms",
                "fleet stalled answer (ms)",
                "every serve ready again (/readyz) after it"
                if back
                else "a serve NOT ready again within 60 s after it",
            )
        )
    return rows


# --------------------------------------------------------------------------- the table in the docs

BEGIN = (
    "<!-- fleet rows: begin (`python -m bench.service --fleet --into docs/performance.md` rewrites to the end mark) -->"
)
END = "<!-- fleet rows: end -->"


def write_into(doc: Path, rows: list[Row], heading: str) -> None:
    """Replace what stands between the marks of ``doc`` with ``heading`` and the table
    of the fleet's rows (and the SQLite rows beside them): a re-run replaces the last."""
    from .measure import table

    text = doc.read_text(encoding="utf-8")
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        raise SystemExit(f"{doc}: no place for the fleet's rows (one line {BEGIN!r}, then one line {END!r})")
    before, rest = text.split(BEGIN, 1)
    _old, after = rest.split(END, 1)
    shown = [row for row in rows if row.section == "fleet" or row.name.startswith(("/me:", "participant page:"))]
    doc.write_text(f"{before}{BEGIN}\n{heading}\n\n{table(shown)}\n{END}{after}", encoding="utf-8")

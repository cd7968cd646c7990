"""The service under load (issue 16, "Performance"): a real `matchledger serve` process
driven over HTTP by clients in this process, each connection a keep-alive loop.

- `/me` and the participant page under 200 concurrent clients (200 links, 10 in each of
  20 matches): throughput against the same framework on the same server answering
  with bytes computed beforehand, of the same size (``fixed_bytes.py``), and p99 latency;
- a submission's receipt with 50 participants submitting at once: p99 latency;
- a live update: from the commit of an event (a host's close, written by another
  process, this one) to its arrival on 100 open public pages: p99;
- the memory of a serve process that has served 1,000 matches, and after serving them
  all again (it stays bounded: kept states and answers are capped);
- the envelope of what strangers may hold (docs/guarantees.md, ``service.bounded-clients``):
  the memory of a serve process holding its 1,000 connections (the default
  ``--max-connections``) each with a half-sent request, holding 500 live pages of one
  match (the default ``--streams-per-match``), and after a header flood; and that the
  connection past the cap is answered 503 at once.

A serve fleet on PostgreSQL, beside one serve on SQLite (issue 29): ``fleet.py``.

    python -m bench.service            # full
    python -m bench.service --quick    # a few seconds, small numbers
    python -m bench.service --fleet    # only the fleet's rows and the SQLite reads beside them

Nothing is asserted; the rows join the table of ``python -m bench``.  The clients and
the server share the machine (2 cores here), so the ratios are what matters.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import functools
import json
import selectors
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from . import corpus
from .measure import Row, machine, table

# --------------------------------------------------------------------------- the match data


@functools.cache
def _card():
    return corpus.long_match()


def _rounds(card) -> list[list]:
    """The card's commands in rounds: set-up and round 1's submissions, then each round's
    close followed by the next round's submissions."""
    parts: list[list] = [[]]
    for cmd in card.commands:
        if type(cmd).__name__ == "CloseRound":
            parts.append([cmd])
        else:
            parts[-1].append(cmd)
    return parts


def build_matches(path: Path, count: int, *, rounds_played: int) -> dict[str, list]:
    """``count`` copies of the corpus's long match (lca's eleven-player card) in round
    ``rounds_played + 1``; the card's commands each still has to play, by match id."""
    from matchledger.ledger.stores import open_store
    from matchledger.projections.application import Application

    card = _card()
    parts = _rounds(card)
    app = Application(open_store(path), actor="host")
    left: dict[str, list] = {}
    try:
        for index in range(count):
            mid = f"live-{index:04d}"
            app.create(corpus._renamed(card.create, mid))
            with app.atomic():
                for cmd in [c for part in parts[: rounds_played + 1] for c in part]:
                    app.execute(mid, cmd)
            left[mid] = [c for part in parts[rounds_played + 1 :] for c in part]
            app.forget(mid)
    finally:
        app.store.close()
    return left


def links(path: Path, matches, per_match: int) -> list[tuple[str, str, str]]:
    """(match, participant, token): links that may submit, ``per_match`` in each match."""
    from matchledger.ledger.stores import open_store
    from matchledger.projections.application import Application

    app = Application(open_store(path, create=False), actor="host")
    found = []
    try:
        for mid in matches:
            for name in _card().create.players[:per_match]:
                token, _capability = app.invite(mid, participant=name, can_submit=True)
                found.append((mid, name, token))
    finally:
        app.store.close()
    return found


# --------------------------------------------------------------------------- processes


@contextmanager
def process(argv: list[str]):
    """A server process; yields (its pid, the URL it prints).  Its log goes nowhere."""
    started = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        selector = selectors.DefaultSelector()
        selector.register(started.stdout, selectors.EVENT_READ)
        if not selector.select(60):
            raise RuntimeError(f"{argv} printed nothing in 60 s")
        line = started.stdout.readline().decode()
        yield started.pid, line.split(" on ", 1)[1].split()[0].rstrip(";")
    finally:
        started.terminate()
        try:
            started.wait(15)
        except subprocess.TimeoutExpired:
            started.kill()
            started.wait()
        started.stdout.close()


def serve(db: Path, poll: float | None = None, *options: str):
    """`serve` as docs/deploy.md runs it: JSON access log lines (cheaper than the console's)."""
    extra = ["--poll", str(poll)] if poll else []
    return process(
        [sys.executable, "-m", "matchledger", "--db", str(db), "--log-json", "serve", "--port", "0", *extra, *options]
    )


def fixed_bytes(answers: dict[str, tuple[str, bytes]], folder: Path):
    table_file = folder / "answers.json"
    table_file.write_text(json.dumps({p: [m, base64.b64encode(b).decode()] for p, (m, b) in answers.items()}))
    return process([sys.executable, "-m", "bench.fixed_bytes", str(table_file)])


def memory_mb(pid: int) -> tuple[float, float]:
    """A process's resident memory now and at its peak, in MB (Linux)."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


# --------------------------------------------------------------------------- a small HTTP/1.1 client


def _request(method: str, path: str, host: str, headers: dict[str, str] | None = None, body: bytes = b"") -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    if body or method == "POST":
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


async def _answer(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head[9:12])
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    return status, await reader.readexactly(length)


def _split(url: str) -> tuple[str, int]:
    host, _, port = url.removeprefix("http://").rpartition(":")
    return host, int(port)


async def _load(
    url: str, requests: list[bytes], seconds: float, *, warm: float, once: bool = False
) -> tuple[float, list[float], int]:
    """Each request a client of its own, repeated on a keep-alive connection for
    ``seconds`` (after ``warm`` seconds not counted; ``once``: sent once, nothing
    counted): (throughput per second, latencies in seconds, answers that were not 200/201)."""
    host, port = _split(url)
    latencies: list[float] = []
    failed = 0
    begin = time.perf_counter() + warm
    end = begin + seconds
    clock = time.perf_counter

    async def client(raw: bytes) -> None:
        nonlocal failed
        reader, writer = await asyncio.open_connection(host, port)
        try:
            while True:
                sent = clock()
                if sent >= end and not once:
                    return
                writer.write(raw)
                status, _body = await _answer(reader)
                if once:
                    return
                if sent >= begin:
                    latencies.append(clock() - sent)
                    failed += status not in (200, 201)
        finally:
            writer.close()

    await asyncio.gather(*(client(raw) for raw in requests))
    return len(latencies) / seconds if seconds else 0.0, latencies, failed


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def get(url: str, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    async def once():
        host, port = _split(url)
        reader, writer = await asyncio.open_connection(host, port)
        try:
            writer.write(_request("GET", path, f"{host}:{port}", headers))
            return await _answer(reader)
        finally:
            writer.close()

    return asyncio.run(once())


# --------------------------------------------------------------------------- the measurements


def bench_reads(tmp: Path, clients: int, seconds: float, log) -> list[Row]:
    db = tmp / "reads.db"
    matches = build_matches(db, max(1, clients // 10), rounds_played=1)
    granted = links(db, matches, 10)[:clients]
    rows = []
    with serve(db) as (_pid, url):
        host = url.removeprefix("http://")
        kinds = {
            "/me": [
                _request("GET", f"/api/v1/matches/{m}/me", host, {"Authorization": f"Bearer {t}"})
                for m, _p, t in granted
            ],
            "participant page": [_request("GET", f"/p/{t}", host) for _m, _p, t in granted],
        }
        samples = {
            "/me": get(url, f"/api/v1/matches/{granted[0][0]}/me", {"Authorization": f"Bearer {granted[0][2]}"}),
            "participant page": get(url, f"/p/{granted[0][2]}"),
        }
        measured = {}
        for kind, requests in kinds.items():
            log(f"service: {clients} clients on {kind} ...", file=sys.stderr)
            # each viewer's answer is made once per head: measure between events, when it is kept
            asyncio.run(_load(url, requests, 0.0, warm=0.0, once=True))
            measured[kind] = asyncio.run(_load(url, requests, seconds, warm=min(1.0, seconds / 3)))
    answers = {
        "/me": ("application/json", samples["/me"][1]),
        "/page": ("text/html; charset=utf-8", samples["participant page"][1]),
    }
    with fixed_bytes(answers, tmp) as (_pid, url):
        host = url.removeprefix("http://")
        for kind, path in (("/me", "/me"), ("participant page", "/page")):
            log(f"service: {clients} clients on fixed bytes as large as {kind} ...", file=sys.stderr)
            base_rate, base_latencies, _ = asyncio.run(
                _load(url, [_request("GET", path, host)] * clients, seconds, warm=min(1.0, seconds / 3))
            )
            rate, latencies, failed = measured[kind]
            size = len(samples[kind][1])
            note = f"{size:,} bytes an answer" + (f"; {failed} answers not 200" if failed else "")
            rows.append(
                Row(
                    "service",
                    f"{kind}: requests/s, {clients} clients, vs fixed bytes",
                    None,
                    None,
                    rate,
                    base_rate,
                    rate / base_rate,
                    "req/s",
                    "service throughput ours/fixed bytes",
                    note,
                )
            )
            rows.append(
                Row(
                    "service",
                    f"{kind}: p99 latency, {clients} clients (fixed bytes: baseline)",
                    None,
                    None,
                    p99(latencies) * 1000,
                    p99(base_latencies) * 1000,
                    p99(latencies) * 1000,
                    "ms",
                    "service read p99 (ms)",
                    "ratio column: our p99 in ms",
                )
            )
    return rows


def bench_receipts(tmp: Path, submitters: int, each: int, log) -> list[Row]:
    db = tmp / "receipts.db"
    matches = build_matches(db, max(1, submitters // 10), rounds_played=1)
    granted = links(db, matches, 10)[:submitters]
    card = _card()
    cameras = {cmd.participant: cmd.tokens for cmd in _rounds(card)[1] if type(cmd).__name__ == "Submit"}
    log(f"service: {submitters} participants submitting {each} times each ...", file=sys.stderr)
    with serve(db) as (_pid, url):
        host = url.removeprefix("http://")
        requests = [
            _request(
                "POST",
                f"/api/v1/matches/{m}/submissions",
                host,
                {"Authorization": f"Bearer {t}"},
                json.dumps({"tokens": cameras[p]}).encode(),
            )
            for m, p, t in granted
        ]

        async def all_submit():
            hostname, port = _split(url)
            latencies: list[float] = []
            failed = 0

            async def submitter(raw: bytes):
                nonlocal failed
                reader, writer = await asyncio.open_connection(hostname, port)
                try:
                    for _ in range(each):
                        sent = time.perf_counter()
                        writer.write(raw)
                        status, _body = await _answer(reader)
                        latencies.append(time.perf_counter() - sent)
                        failed += status != 201
                finally:
                    writer.close()

            await asyncio.gather(*(submitter(raw) for raw in requests))
            return latencies, failed

        latencies, failed = asyncio.run(all_submit())
    note = f"{len(latencies)} receipts, median {statistics.median(latencies) * 1000:.1f} ms"
    if failed:
        note += f"; {failed} answers not 201"
    return [
        Row(
            "service",
            f"receipt p99, {submitters} participants submitting at once",
            None,
            None,
            p99(latencies) * 1000,
            None,
            p99(latencies) * 1000,
            "ms",
            "service receipt p99 (ms)",
            note,
        )
    ]


def bench_live(tmp: Path, pages: int, matches: int, log) -> list[Row]:
    from matchledger.ledger.stores import open_store
    from matchledger.projections.application import Application

    db = tmp / "live.db"
    left = build_matches(db, matches, rounds_played=0)
    log(f"service: {pages} open pages, the host closing rounds from another process ...", file=sys.stderr)
    latencies: list[float] = []
    # the pages come from one address here, as from as many clients behind one proxy
    with serve(db, None, "--streams-per-client", str(pages)) as (_pid, url):
        hostname, port = _split(url)
        with ThreadPoolExecutor(1) as host:  # the host's connection lives in one thread
            host_app = host.submit(lambda: Application(open_store(db, create=False), actor="host")).result()
            try:
                for mid, commands in left.items():
                    latencies += asyncio.run(_follow([(hostname, port)], mid, commands, pages, host, host_app))
            finally:
                host.submit(host_app.store.close).result()
    return [
        Row(
            "service",
            f"live update p99: commit to arrival on {pages} open pages",
            None,
            None,
            p99(latencies) * 1000,
            None,
            p99(latencies) * 1000,
            "ms",
            "service live update p99 (ms)",
            f"{len(latencies)} arrivals, median {statistics.median(latencies) * 1000:.0f} ms; serve polls every 150 ms for other processes' writes",
        )
    ]


async def follow_page(address: tuple[str, int], path: str, ready: asyncio.Event, arrivals: list[float]) -> None:
    """Follow one page's stream at ``path``: ``ready`` set at its first view, and the
    time each later view arrived appended to ``arrivals``, until cancelled or closed."""
    hostname, port = address
    reader, writer = await asyncio.open_connection(hostname, port)
    writer.write(_request("GET", path, f"{hostname}:{port}"))
    seen = 0
    buffer = b""
    try:
        while True:
            chunk = await reader.read(65536)
            if not chunk:
                return
            now = time.perf_counter()
            buffer = buffer[-16:] + chunk
            views = buffer.count(b"event: view")
            if views:
                seen += views
                buffer = buffer[buffer.rfind(b"event: view") + 11 :]
                if seen == 1:
                    ready.set()
                else:
                    arrivals.append(now)
    finally:
        writer.close()


async def _follow(
    addresses: list[tuple[str, int]], mid: str, commands: list, pages: int, host, host_app, while_open=None
) -> list[float]:
    """Open ``pages`` public streams of ``mid``, spread in turn over the servers at
    ``addresses``; close its first two rounds (with the submissions before each) from
    this process; each page's delay after each close.  ``while_open`` is called once
    the closes have arrived, every stream still open (to read the servers' memory)."""
    arrivals: list[list[float]] = [[] for _ in range(pages)]
    ready = [asyncio.Event() for _ in range(pages)]

    followers = [
        asyncio.ensure_future(
            follow_page(addresses[index % len(addresses)], f"/m/{mid}/events", ready[index], arrivals[index])
        )
        for index in range(pages)
    ]
    await asyncio.gather(*(event.wait() for event in ready))
    closes = [i for i, cmd in enumerate(commands) if type(cmd).__name__ == "CloseRound"][:2]  # not the last: the
    # close that finishes a match commits a checkpoint after it
    committed: list[float] = []
    done = 0
    for close in closes:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(
            host, lambda upto=close, start=done: [host_app.execute(mid, c) for c in commands[start:upto]]
        )
        await asyncio.sleep(0.3)  # the submissions change no public page: let the streams settle
        committed.append(await loop.run_in_executor(host, _committed, host_app, mid, commands[close]))
        done = close + 1
        deadline = time.perf_counter() + 10
        while any(len(a) < len(committed) for a in arrivals) and time.perf_counter() < deadline:
            await asyncio.sleep(0.01)
    if while_open is not None:
        while_open()
    for follower in followers:
        follower.cancel()
    await asyncio.gather(*followers, return_exceptions=True)
    return [arrived - at for a in arrivals for arrived, at in zip(a, committed)]


def _committed(host_app, mid: str, cmd) -> float:
    """Run the host's command; when it was committed (``execute`` returns at once after)."""
    host_app.execute(mid, cmd)
    return time.perf_counter()


def bench_memory(tmp: Path, count: int, log) -> list[Row]:
    db = tmp / "memory.db"
    log(f"service: memory while serving {count} matches ...", file=sys.stderr)
    events = corpus.build_db(str(db), corpus.mix(corpus.templates(), count))
    from matchledger.ledger.stores import open_store

    store = open_store(db, create=False, read_only=True)
    try:
        match_ids = store.match_ids()
    finally:
        store.close()
    with serve(db) as (pid, url):
        idle, _ = memory_mb(pid)

        async def touch_all():
            hostname, port = _split(url)
            reader, writer = await asyncio.open_connection(hostname, port)
            try:
                for mid in match_ids:
                    for path in (f"/m/{mid}", f"/api/v1/matches/{mid}/public"):
                        writer.write(_request("GET", path, f"{hostname}:{port}"))
                        await _answer(reader)
            finally:
                writer.close()

        asyncio.run(touch_all())
        once, _ = memory_mb(pid)
        for _again in range(2):
            asyncio.run(touch_all())
        thrice, peak = memory_mb(pid)
    return [
        Row(
            "service",
            f"serve RSS after serving {count} matches vs idle",
            count,
            events,
            once,
            idle,
            once / idle,
            "MB",
            None,
            "public page and JSON of each",
        ),
        Row(
            "service",
            f"serve RSS after serving the {count} matches 3 times vs once",
            count,
            events,
            thrice,
            once,
            thrice / once,
            "MB",
            None,
            f"peak {peak:.0f} MB; 1.0 = bounded (kept states and answers are capped)",
        ),
    ]


def bench_envelope(tmp: Path, connections: int, pages: int, log, pipelined: int = 200_000) -> list[Row]:
    """The memory of a serve process holding what strangers may make it hold."""
    db = tmp / "envelope.db"
    matches = build_matches(db, 1, rounds_played=0)
    mid = next(iter(matches))
    log(
        f"service: {connections} half-sent requests, {pages} live pages, a header flood, a pipelining client ...",
        file=sys.stderr,
    )
    options = (
        "--max-connections",
        str(connections),
        "--streams-per-match",
        str(pages),
        "--streams-per-client",
        str(pages),
    )
    with serve(db, None, *options) as (pid, url):
        hostname, port = _split(url)
        get(url, f"/m/{mid}")  # the match read once, as any page's first request reads it
        idle, _ = memory_mb(pid)

        async def hold(opening: bytes, count: int, settle, probe: bool = True) -> tuple[float, float]:
            """Open ``count`` connections each sending ``opening``; (the server's RSS
            while they are open, ms for one more to be answered: only with ``probe``,
            where the ``count`` fill --max-connections, else one more sending nothing
            would wait out --read-timeout)."""
            held = []
            try:
                for _ in range(count):
                    reader, writer = await asyncio.open_connection(hostname, port)
                    writer.write(opening)
                    held.append((reader, writer))
                await settle(held)
                resident, _ = memory_mb(pid)
                if not probe:
                    return resident, float("nan")
                started = time.perf_counter()
                reader, writer = await asyncio.open_connection(hostname, port)
                answer = await reader.read(200)
                refused_ms = (
                    (time.perf_counter() - started) * 1000 if answer.startswith(b"HTTP/1.1 503") else float("nan")
                )
                writer.close()
                return resident, refused_ms
            finally:
                for _reader, writer in held:
                    writer.close()
                await asyncio.sleep(0.5)

        async def headers_read(held) -> None:
            await asyncio.sleep(1.0)  # each connection accepted, its bytes read

        async def streams_began(held) -> None:
            await asyncio.gather(*(reader.readuntil(b"event: view") for reader, _writer in held))

        half_sent = _request("GET", f"/m/{mid}", f"{hostname}:{port}").rstrip(b"\r\n") + b"\r\nX-Pad: " + b"a" * 900
        with_heads, refused_ms = asyncio.run(hold(half_sent, connections, headers_read))
        with_pages, _ = asyncio.run(
            hold(_request("GET", f"/m/{mid}/events", f"{hostname}:{port}"), pages, streams_began, probe=False)
        )

        async def flood() -> int:
            reader, writer = await asyncio.open_connection(hostname, port)
            sent = 0
            try:
                writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
                while sent < 64 * 1024 * 1024:
                    writer.write(b"X-Flood: " + b"a" * 8181 + b"\r\n")
                    sent += 8192
                    await writer.drain()
            except OSError:
                pass
            finally:
                writer.close()
            return sent

        before_flood, _ = memory_mb(pid)
        flooded = asyncio.run(flood())
        after_flood, peak = memory_mb(pid)

        async def pipelining(count: int) -> int:
            """One connection sends ``count`` requests at once and never reads an answer;
            the bytes the server's side took in 3 s (the kernel's buffers included)."""
            reader, writer = await asyncio.open_connection(hostname, port)
            flood = _request("GET", f"/api/v1/matches/{mid}/head", f"{hostname}:{port}") * count
            try:
                writer.write(flood)
                try:
                    await asyncio.wait_for(writer.drain(), 3.0)
                except TimeoutError:
                    pass  # the server stopped reading: what it was sent is what it holds
                taken = len(flood) - writer.transport.get_write_buffer_size()
                await asyncio.sleep(1.0)  # what was read is parsed, and answered as far as the socket takes
                return taken
            finally:
                writer.close()

        before_pipelined, _ = memory_mb(pid)
        taken = asyncio.run(pipelining(pipelined))
        after_pipelined, _ = memory_mb(pid)
    return [
        Row(
            "service",
            f"serve RSS holding {connections:,} half-sent requests (--max-connections) vs idle",
            None,
            None,
            with_heads,
            idle,
            with_heads / idle,
            "MB",
            None,
            f"{(with_heads - idle) * 1024 / connections:.1f} KB a connection",
        ),
        Row(
            "service",
            f"connection {connections + 1:,}, past --max-connections: answered 503 in",
            None,
            None,
            refused_ms,
            None,
            refused_ms,
            "ms",
            None,
            "at once, its descriptor given back",
        ),
        Row(
            "service",
            f"serve RSS holding {pages} live pages of one match (--streams-per-match) vs idle",
            None,
            None,
            with_pages,
            idle,
            with_pages / idle,
            "MB",
            None,
            "the RSS after the half-sent requests is not given back",
        ),
        Row(
            "service",
            "serve RSS after a header flood on one connection vs before it",
            None,
            None,
            after_flood,
            before_flood,
            after_flood / before_flood,
            "MB",
            None,
            f"closed after {flooded / 1024:.0f} KB were sent (the kernel's buffers included); peak {peak:.0f} MB",
        ),
        Row(
            "service",
            f"serve RSS after {pipelined:,} requests pipelined on one connection, never read, vs before",
            None,
            None,
            after_pipelined,
            before_pipelined,
            after_pipelined / before_pipelined,
            "MB",
            None,
            f"{taken / 1024:.0f} KB taken in (the kernel's buffers included); at most 4 read ahead of the answers",
        ),
    ]


def run(quick: bool, log=print, postgres: bool = True, only_fleet: bool = False) -> list[Row]:
    """The rows; ``postgres``: with the fleet's (issue 29, ``fleet.py``: a throwaway
    PostgreSQL cluster); ``only_fleet``: only those and the SQLite read rows beside them."""
    from . import fleet

    tmp = Path(tempfile.mkdtemp(prefix="matchledger-bench-service-"))
    try:
        rows = bench_reads(tmp, 200, 2.0 if quick else 6.0, log)
        if postgres or only_fleet:
            rows += fleet.run(tmp, quick, log)
        if only_fleet:
            return rows
        rows += bench_receipts(tmp, 50, 3 if quick else 10, log)
        rows += bench_live(tmp, 100, 1 if quick else 4, log)
        rows += bench_memory(tmp, 100 if quick else 1_000, log)
        rows += bench_envelope(tmp, 1_000, 500, log)
    finally:
        import shutil

        shutil.rmtree(tmp, ignore_errors=True)
    return rows


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.service", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs, fewer matches, e.g. --quick --fleet")
    parser.add_argument(
        "--fleet",
        action="store_true",
        help="only the serve fleet on PostgreSQL and the SQLite rows beside it (issue 29), e.g. --fleet",
    )
    parser.add_argument(
        "--no-postgres",
        action="store_true",
        help="leave out the fleet's rows (a throwaway PostgreSQL cluster), e.g. --quick --no-postgres",
    )
    parser.add_argument(
        "--into",
        metavar="FILE",
        type=Path,
        help="also write the fleet's table into FILE between its marks, e.g. --fleet --into docs/performance.md",
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    rows = run(args.quick, postgres=not args.no_postgres, only_fleet=args.fleet)
    heading = f"matchledger service benchmark ({'quick' if args.quick else 'full'}); machine: {machine()}"
    print(heading)
    print(table(rows))
    print(f"total time {time.perf_counter() - started:.0f} s")
    if args.into:
        from . import fleet

        command = "python -m bench.service" + " --quick" * args.quick + " --fleet" * args.fleet
        fleet.write_into(args.into, rows, f"`{command}`, {time.strftime('%Y-%m-%d')}; {heading}")


if __name__ == "__main__":
    main()

"""What a stranger's connections may cost a real `serve` (docs/service.md, "Limits"):
a head that never ends, a request that never finishes arriving, more connections or
live pages than the process may hold, a client that leaves mid-body, a Host header or
forwarded headers made up by the client, a token with something glued to it."""

from __future__ import annotations

import asyncio
import socket
import struct
import time
from pathlib import Path

import pytest

from matchledger.commands.service.connections import HEADERS_MAX
from matchledger.commands.service.guard import Guard
from tests.helpers import invoke

from .support import STUDIO, Server, invite

#: Seconds a test's server gives a request to arrive whole.
READ_TIMEOUT = 0.5
#: Seconds past the timeout a connection may still take to be closed (a loaded machine).
SLACK = 4.0


@pytest.fixture(scope="module")
def lca_with_ann_link(tmp_path_factory):
    """An lca match in round 1; ann's link that may submit."""
    db = tmp_path_factory.mktemp("strangers") / "league.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    return db, invite(db, "m1", "--as", "ann", "--submit")["token"]


@pytest.fixture(scope="module")
def hurried(lca_with_ann_link):
    """A server that gives a request half a second to arrive, and trusts no proxy."""
    db, _token = lca_with_ann_link
    with Server(db, "--read-timeout", str(READ_TIMEOUT)) as running:
        yield running


def address(server: Server) -> tuple[str, int]:
    host, _, port = server.url.removeprefix("http://").partition(":")
    return host, int(port)


def connect(server: Server) -> socket.socket:
    return socket.create_connection(address(server), timeout=READ_TIMEOUT + SLACK)


def until_closed(sock: socket.socket) -> tuple[bytes, float]:
    """What the server sent until it closed the connection, and when it closed it
    (socket.timeout if it did not within the socket's timeout)."""
    received = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            chunk = b""
        if not chunk:
            return received, time.monotonic()
        received += chunk


def resident_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("VmRSS:")).split()[1]) / 1024


def settled_mb(pid: int, deadline: float = 3.0) -> float:
    """The process's resident memory once it stops growing (what it read is parsed)."""
    end, last = time.monotonic() + deadline, resident_mb(pid)
    while time.monotonic() < end:
        time.sleep(0.25)
        now = resident_mb(pid)
        if now <= last:
            return now
        last = now
    return last


def records(server: Server, path: str, deadline: float = 5.0) -> list[dict]:
    """The log's records for ``path``, once there is one (the log is written after the answer)."""
    end = time.monotonic() + deadline
    while True:
        found = [r for r in server.log_records() if r.get("path") == path]
        if found or time.monotonic() > end:
            return found
        time.sleep(0.05)


# --------------------------------------------------------------------------- heads and deadlines


@pytest.mark.guarantee("service.bounded-clients")
def test_a_head_past_its_bytes_or_lines_is_refused_and_the_process_stays_small(hurried):
    before = resident_mb(hurried.process.pid)
    floods = {
        "header lines for ever": b"X-Flood: " + b"a" * 1000 + b"\r\n",
        "one header line for ever": b"a" * 1024,
    }
    for _name, line in floods.items():
        with connect(hurried) as sock:
            sock.sendall(b"GET /m/m1 HTTP/1.1\r\nHost: x\r\n")
            sent = 0
            # the server closes the connection (a reset: it leaves bytes unread), long before
            # 8 MB: what was sent before then is what the kernel's buffers took in
            with pytest.raises(OSError):
                while sent < 8 * 1024 * 1024:
                    sock.sendall(line * 64)
                    sent += len(line) * 64
    with connect(hurried) as sock:  # few bytes, too many lines: read whole, answered
        sock.sendall(
            b"GET /m/m1 HTTP/1.1\r\nHost: x\r\n"
            + b"".join(b"X-%d: 1\r\n" % i for i in range(HEADERS_MAX + 1))
            + b"\r\n"
        )
        answer, _closed = until_closed(sock)
    assert answer.startswith(b"HTTP/1.1 431 ")
    assert resident_mb(hurried.process.pid) - before < 16
    assert hurried.client.get("/m/m1").status_code == 200  # the server goes on serving


@pytest.mark.guarantee("service.bounded-clients")
def test_a_request_that_does_not_arrive_in_time_is_closed_however_it_trickles(hurried, lca_with_ann_link):
    _db, token = lca_with_ann_link
    body = b'{"tokens": ["G4", "A1", "B1", "C1", "D1"]}'
    submission = (
        f"POST /api/v1/matches/m1/submissions?slow HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode() + body[:10]
    openings = {
        "nothing sent": b"",
        "a head never finished": b"GET /m/m1 HTTP/1.1\r\nHost: x\r\n",
        "a body never finished": submission,
    }
    started = time.monotonic()
    sockets = {name: connect(hurried) for name in [*openings, "a byte at a time"]}
    for name, opening in openings.items():
        sockets[name].sendall(opening)
    trickle = sockets["a byte at a time"]
    trickle.sendall(b"GET /m/m1 HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    trickled = 0
    while time.monotonic() < started + READ_TIMEOUT + SLACK:  # a byte every 50 ms never resets the deadline
        try:
            trickle.sendall(b"a")
        except OSError:
            break
        trickled += 1
        time.sleep(0.05)
    closed = {}
    for name, sock in sockets.items():
        with sock:
            closed[name] = until_closed(sock)
    for name, (_answer, at) in closed.items():
        assert at - started < READ_TIMEOUT + SLACK, name
    assert closed["a head never finished"][0].startswith(b"HTTP/1.1 408 ")
    assert closed["a body never finished"][0].startswith(b"HTTP/1.1 408 ")
    [record] = records(hurried, "/api/v1/matches/m1/submissions")
    assert (record["level"], record["status"]) == ("info", 408)
    assert "Traceback" not in hurried.log()


@pytest.mark.guarantee("service.bounded-clients")
def test_a_client_leaving_mid_body_is_one_record_at_info(hurried, lca_with_ann_link):
    _db, token = lca_with_ann_link
    with connect(hurried) as sock:
        sock.sendall(
            (
                f"POST /p/{token} HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                f"Content-Length: 100\r\n\r\ntokens=G4"
            ).encode()
        )
        time.sleep(0.1)
    [record] = records(hurried, "/p/[token]")
    assert (record["level"], record["event"], record["status"]) == ("info", "request", 499)
    text = hurried.log()
    assert "request_failed" not in text and "Traceback" not in text


#: One request a pipelining client sends again and again, never reading the answers.
PIPELINED = b"GET /api/v1/matches/m1/head HTTP/1.1\r\nHost: x\r\n\r\n"


@pytest.mark.guarantee("service.bounded-clients")
def test_requests_pipelined_on_one_connection_and_never_read_keep_the_process_small(hurried):
    """40,000 requests (2 MB) sent at once: the server reads a few ahead of its answers,
    which it writes until the socket nobody reads is full, then reads no more (it held
    every request it read, and read them all, before: 96 MB)."""
    assert hurried.client.get("/api/v1/matches/m1/head").status_code == 200  # what serving it costs is not counted
    before = resident_mb(hurried.process.pid)
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # few answers fit in the kernel's buffers
        sock.connect(address(hurried))
        sock.setblocking(False)
        flood, sent = PIPELINED * 40_000, 0
        deadline = time.monotonic() + 2.0  # what the kernel's buffers take, then nothing more is read
        while sent < len(flood) and time.monotonic() < deadline:
            try:
                sent += sock.send(flood[sent : sent + 65536])
            except BlockingIOError:
                time.sleep(0.01)
        grown = settled_mb(hurried.process.pid) - before
        assert hurried.client.get("/api/v1/matches/m1/head").status_code == 200  # others are still answered
    with connect(hurried) as sock:  # a client that reads them has every answer, past held reads and slices
        padded = PIPELINED.replace(b"\r\n\r\n", b"\r\nX-Pad: " + b"a" * 300 + b"\r\n\r\n")  # a head spans slices
        sock.sendall(padded * 30)
        answers = b""
        while answers.count(b"HTTP/1.1 200 ") < 30:
            chunk = sock.recv(65536)
            assert chunk, answers.count(b"HTTP/1.1 200 ")
            answers += chunk
    # ~12 MB is what answering a few thousand requests costs any client once (the kernel's
    # buffers take that many answers even unread); it stays there however many follow.
    assert grown < 24, f"{grown:.1f} MB after {sent / 1024:.0f} KB pipelined"


@pytest.mark.guarantee("service.bounded-clients")
def test_a_pipelining_client_leaving_mid_answer_leaves_records_at_info_never_a_traceback(hurried):
    """Its answers (pages of 20 KB) fill the socket it does not read; it leaves with a
    reset while one is being written.  Before, that answer's next write met the closed
    transport: a request_failed record with a traceback, nearly every time."""
    for _ in range(3):
        with connect(hurried) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.sendall(b"GET /m/m1?pipelined HTTP/1.1\r\nHost: x\r\n\r\n" * 400)
            time.sleep(0.3)  # the server's writes pause: the client's window is full
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # a reset on close
    found = records(hurried, "/m/m1")
    time.sleep(0.3)  # a failure is logged after its access record
    text = hurried.log()
    assert "request_failed" not in text and "Traceback" not in text
    assert found and {r["level"] for r in records(hurried, "/m/m1")} == {"info"}


# --------------------------------------------------------------------------- how many at once


@pytest.mark.guarantee("service.bounded-clients")
def test_a_connection_past_the_cap_is_answered_503_at_once_and_a_place_given_back_is_taken(lca_with_ann_link):
    db, _token = lca_with_ann_link
    cap = 6
    with Server(db, "--max-connections", str(cap)) as running:
        held = [connect(running) for _ in range(cap)]
        try:
            with connect(running) as extra:
                answer, _closed = until_closed(extra)
            assert answer.startswith(b"HTTP/1.1 503 ") and b"retry-after" in answer.lower()
            held.pop().close()
            deadline = time.monotonic() + SLACK
            while True:
                with connect(running) as sock:
                    sock.sendall(b"GET /api/v1/matches/m1/head HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    answer, _closed = until_closed(sock)
                if answer.startswith(b"HTTP/1.1 200 ") or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            assert answer.startswith(b"HTTP/1.1 200 ")
        finally:
            for sock in held:
                sock.close()


@pytest.mark.guarantee("service.bounded-clients")
@pytest.mark.guarantee("service.host-not-trusted")
def test_live_pages_past_the_cap_of_a_client_or_a_match_are_refused_until_one_closes(lca_with_ann_link):
    """Behind a trusted proxy, each client is the one X-Forwarded-For names."""
    db, token = lca_with_ann_link
    with Server(
        db, "--streams-per-client", "2", "--streams-per-match", "3", "--forwarded-allow-ips", "127.0.0.1"
    ) as running:

        def opened(client: str, path: str = "/m/m1/events"):
            stream = running.client.stream("GET", path, headers={"X-Forwarded-For": client})
            return stream, stream.__enter__()

        first = [opened("203.0.113.1"), opened("203.0.113.1", f"/p/{token}/events")]
        try:
            assert [response.status_code for _s, response in first] == [200, 200]
            refused = running.client.get("/m/m1/events", headers={"X-Forwarded-For": "203.0.113.1"}, timeout=5)
            assert refused.status_code == 429 and "live pages open already" in refused.json()["error"]
            other = opened("203.0.113.2")
            assert other[1].status_code == 200
            full = running.client.get("/m/m1/events", headers={"X-Forwarded-For": "203.0.113.3"}, timeout=5)
            assert full.status_code == 503 and full.headers["retry-after"]
            stream, _response = first.pop()
            stream.__exit__(None, None, None)
            deadline = time.monotonic() + SLACK
            while True:
                again = opened("203.0.113.3")
                if again[1].status_code == 200 or time.monotonic() > deadline:
                    break
                again[0].__exit__(None, None, None)
                time.sleep(0.05)
            assert again[1].status_code == 200  # the place given back
            first += [other, again]
        finally:
            for stream, _response in first:
                stream.__exit__(None, None, None)
    clients = {r["client"] for r in running.log_records() if r.get("path") == "/m/m1/events"}  # the streams' ended
    assert {"203.0.113.1", "203.0.113.2", "203.0.113.3"} <= clients and "127.0.0.1" not in clients


# --------------------------------------------------------------------------- what a client says of itself


@pytest.mark.guarantee("service.host-not-trusted")
def test_no_redirect_is_made_of_the_hosts_name(hurried, lca_with_ann_link):
    _db, token = lca_with_ann_link
    for path in (f"/p/{token}/", "/m/m1/"):
        answer = hurried.client.get(path, headers={"Host": "evil.example"}, follow_redirects=False)
        assert answer.status_code == 404 and "location" not in answer.headers, path


@pytest.mark.guarantee("service.host-not-trusted")
def test_no_forwarded_header_is_believed_from_a_client_not_named_a_proxy(hurried):
    hurried.client.get(
        "/api/v1/matches/m1/public?forwarded", headers={"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"}
    )
    [record] = records(hurried, "/api/v1/matches/m1/public")
    assert record["client"] == "127.0.0.1"


@pytest.mark.guarantee("service.log-no-token")
@pytest.mark.parametrize("glued", ["{token}-x", "x{token}", "{token}{token}", "abcdefghijklmnopqrst{token}"])
def test_a_token_with_anything_url_safe_glued_to_it_is_redacted_whole(glued):
    token = "Li7ryU-Tdt5G8H46ixPqdbBQnKCw-r4I"
    logged = []

    class Log:
        def info(self, event, **values):
            logged.append(values)

    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 404, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def nothing():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def sent(_message):
        pass

    path = "/m/" + glued.format(token=token) + "/events"
    asyncio.run(Guard(app, Log())({"type": "http", "method": "GET", "path": path, "client": None}, nothing, sent))
    [record] = logged
    assert record["path"] == "/m/[token]/events"
    assert not any(token[i : i + 8] in record["path"] for i in range(len(token) - 7))


def test_a_proxy_named_wrong_is_a_usage_error_naming_it(tmp_path):
    result = invoke(tmp_path / "none.db", "serve", "--forwarded-allow-ips", "127.0.0.1,proxy.example", expect=2)
    assert "'proxy.example' is not an IP address or network" in result.output


@pytest.mark.parametrize(
    "soft, hard, fits",
    [(100, 2000, (1000, 1064)), (200, 200, (136, 200))],
    ids=["raised-to-what-is-needed", "lowered-to-what-the-hard-limit-leaves"],
)
def test_the_connections_fit_the_open_file_limit(soft, hard, fits):
    """In a process of its own: the limit is the process's."""
    import subprocess
    import sys

    code = (
        "import resource; from matchledger.commands.service.connections import connections_that_fit; "
        f"resource.setrlimit(resource.RLIMIT_NOFILE, ({soft}, {hard})); print(*connections_that_fit(1000))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert tuple(map(int, done.stdout.split())) == fits, done.stderr

"""A real `matchledger serve` process for the service tests: started on 127.0.0.1 on a
free port (``--port 0``; the address is read from what it prints), reached over HTTP,
and stopped with SIGTERM, as an operator stops it."""

from __future__ import annotations

import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from matchledger.ledger.capabilities import Capability, token_hash
from matchledger.ledger.store import Store
from tests.helpers import REPO, invoke

STUDIO = REPO / "fixtures" / "lca" / "studio-example-10x13.txt"
#: Seconds a server may take to start, and to stop after SIGTERM.
START_SECONDS = 30
STOP_SECONDS = 15


#: the longest wait for a running server's log to stop growing
LOG_SETTLE_SECONDS = 5.0


class Server:
    def __init__(
        self,
        db: Path | str,
        *args: str,
        log_json: bool = True,
        poll: float = 0.05,
        env: dict[str, str] | None = None,
        folder: Path | None = None,
    ):
        """``db``: a file, or a PostgreSQL URL (then ``folder`` holds the server's log)."""
        self.db = db
        folder = folder or Path(db).parent
        self.log_path = folder / f"serve-{os.getpid()}-{time.monotonic_ns()}.log"
        self._log = open(self.log_path, "wb")
        command = [
            sys.executable,
            "-m",
            "matchledger",
            "--db",
            str(db),
            *(["--log-json"] if log_json else []),
            "serve",
            "--port",
            "0",
            "--poll",
            str(poll),
            *args,
        ]
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=self._log,
            cwd=folder,
            env={**os.environ, "PYTHONFAULTHANDLER": "1", **(env or {})},
        )
        try:
            self.announced = self._first_line()
        except BaseException:  # it did not start as it should: nothing of it may outlive the test
            self.process.kill()
            self.process.wait()
            self.process.stdout.close()
            self._log.close()
            raise
        self.url = self.announced.split(" on ", 1)[1].split()[0].rstrip(";")
        self.client = httpx.Client(base_url=self.url, timeout=30)

    def _first_line(self) -> str:
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            ready = selector.select(START_SECONDS)
        if not ready:
            raise AssertionError(f"serve printed nothing in {START_SECONDS} s: {self.log()}")
        line = self.process.stdout.readline().decode()
        assert line.startswith("serving "), (line, self.log())
        return line.strip()

    def log(self, until: str | None = None) -> str:
        """What the server has logged.  An access line is written after its answer is
        sent, so a client can hold the answer before the line exists: while the server
        runs, wait (bounded) until the log holds ``until``, or else until it has stopped
        growing, then read it."""
        deadline, size, still = time.monotonic() + LOG_SETTLE_SECONDS, -1, 0
        while self.process.poll() is None and time.monotonic() < deadline:
            if until is not None:
                if until in self.log_path.read_text(errors="replace"):
                    break
            else:
                now = self.log_path.stat().st_size
                still = still + 1 if now == size else 0
                size = now
                if still >= 3:
                    break
            time.sleep(0.02)
        return self.log_path.read_text(errors="replace")

    def log_records(self) -> list[dict]:
        return [json.loads(line) for line in self.log().splitlines() if line.startswith("{")]

    def stop(self, sig: int = signal.SIGTERM) -> int:
        """Stop the server as an operator does; its exit code."""
        self.client.close()
        try:
            if self.process.poll() is None:
                self.process.send_signal(sig)
                try:
                    self.process.wait(STOP_SECONDS)
                except subprocess.TimeoutExpired:
                    # Every thread's stack into the log (faulthandler: PYTHONFAULTHANDLER, set
                    # at the start), so that the failure says where it hung.
                    self.process.send_signal(signal.SIGABRT)
                    try:
                        self.process.wait(5)
                    except subprocess.TimeoutExpired:
                        self.process.kill()
                        self.process.wait()
                    stacks = self.log_path.read_text(errors="replace").rpartition("Fatal Python error")[2]
                    raise AssertionError(
                        f"serve did not stop within {STOP_SECONDS} s of signal {sig}; its threads:\n{stacks[-6000:]}"
                    ) from None
        finally:
            self.process.stdout.close()  # the pipe it announced itself on
            self._log.close()
        return self.process.returncode

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def grant(db: Path, match_id: str, participant: str | None, token: str, *, can_submit: bool = False) -> str:
    """Store a capability for a token chosen by the test (``invite`` draws its own), so
    that two databases can be reached by the same link."""
    store = Store(db, create=False)
    try:
        store.save_capability(
            Capability(
                token_hash=token_hash(token),
                match_id=match_id,
                role="participant" if participant else "auditor",
                participant=participant,
                can_submit=can_submit,
                created_at="2026-01-01T00:00:00.000000Z",
            )
        )
    finally:
        store.close()
    return token


def invite(db: Path, match_id: str, *args: str) -> dict:
    return json.loads(invoke(db, "invite", match_id, *args, "--json").stdout)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def cli_json(db: Path, *args) -> object:
    return json.loads(invoke(db, *args, "--json").stdout)


def events(response: httpx.Response, count: int, timeout: float = 10.0) -> list[tuple[str, dict]]:
    """The next ``count`` server-sent events of a streaming response, as (event, data)
    (the response's lines are read on from where the last call stopped)."""
    found: list[tuple[str, dict]] = []
    deadline = time.monotonic() + timeout
    kind, data = "message", []
    lines = response.extensions.setdefault("sse-lines", response.iter_lines())
    for line in lines:
        if time.monotonic() > deadline:
            break
        if line.startswith("event:"):
            kind = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())
        elif line == "" and data:
            found.append((kind, json.loads("\n".join(data))))
            kind, data = "message", []
            if len(found) == count:
                break
    return found


class RawConnection:
    """A keep-alive HTTP/1.1 connection driven by hand, for what a polite client never
    does: pipelining requests, or sending a request's headers now and its body later."""

    def __init__(self, url: str):
        host, _, port = url.removeprefix("http://").partition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=10)
        self._unread = b""

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def answer(self) -> tuple[int, bytes]:
        """The next answer (one with a Content-Length): its status and body."""
        data = self._unread
        while b"\r\n\r\n" not in data:
            data += self._receive(data)
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        length = next(int(line.split(b":", 1)[1]) for line in lines[1:] if line.lower().startswith(b"content-length:"))
        while len(body) < length:
            body += self._receive(body)
        self._unread = body[length:]
        return int(lines[0].split()[1]), body[:length]

    def _receive(self, so_far: bytes) -> bytes:
        chunk = self.sock.recv(65536)
        assert chunk, f"the server closed the connection after {so_far[:200]!r}"
        return chunk

    def close(self) -> None:
        self.sock.close()

    def __enter__(self) -> RawConnection:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def host(db: Path, *args: str) -> str:
    """The host's command, in a process of its own (as the host's terminal runs it)."""
    done = subprocess.run(
        [sys.executable, "-m", "matchledger", "--db", str(db), *args], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout

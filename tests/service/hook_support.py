"""Hooks in tests: a match closing a round, the hook added and the posts delivered here
without threads, and a receiver of the posts: an http.server on 127.0.0.1 in a thread, which
keeps every request and answers as the test tells it (a status, a redirect, or a wait
longer than the sender's timeout)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from matchledger.commands.service.deliveries import Deliveries
from matchledger.projections.application import Application
from tests.helpers import REPO, invoke, read_json


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    #: The status of each answer in turn (the last one for every request after).
    statuses: list[int] = field(default_factory=lambda: [204])
    #: Seconds to wait before answering (a receiver that hangs).
    hang: float = 0.0
    requests: list[Received] = field(default_factory=list)

    def __post_init__(self):
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                receiver.requests.append(Received(self.path, dict(self.headers.items()), body))
                if receiver.hang:
                    time.sleep(receiver.hang)
                index = min(len(receiver.requests), len(receiver.statuses)) - 1
                status = receiver.statuses[index]
                self.send_response(status)
                if 300 <= status < 400:
                    self.send_header("Location", f"http://127.0.0.1:{receiver.port}/elsewhere")
                self.send_header("Content-Length", "5000")
                self.end_headers()
                self.wfile.write(b"\x1b[2J" + b"x" * 4996)  # more than is read, and nothing printable first

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


STUDIO = REPO / "fixtures" / "lca" / "studio-example-10x13.txt"
TIES = REPO / "fixtures" / "lca" / "ties-and-contracts.txt"


def lca_match(db, contract: str = "lights") -> None:
    invoke(db, "new", "lca", "m1", "--players", "ann,bob,cat", "--studio", STUDIO)
    invoke(db, "contract", "m1", "ann", contract)


def close_round_one(db) -> None:
    for name in ("ann", "bob", "cat"):
        invoke(db, "submit", "m1", name, "G4", "A1", "B1", "C1", "D1")
    invoke(db, "close", "m1")


def add_hook(db, url: str, *options: str) -> dict:
    return read_json(db, "hook", "add", "m1", url, *options, "--json")


def deliver_all(db, **options) -> list:
    """Scan once and send what was queued, here, without threads."""
    options = {"backoff": 0.0, "timeout": 0.5, "total": 2.0, **options}
    deliveries = Deliveries(lambda: Application.open(str(db)), **options)
    application = Application.open(str(db))
    try:
        deliveries.scan_once(application)
        done = []
        while not deliveries.jobs.empty():
            done.append(deliveries.deliver(application, deliveries.jobs.get()))
        return done
    finally:
        application.close()


def public_text(db) -> str:
    shown = invoke(db, "messages", "m1", "--public").stdout
    heading, text = shown.rstrip("\n").split("\n", 1)
    assert heading == "=== public post ==="
    return text

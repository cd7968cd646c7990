"""Running a `serve` fleet: load shed beyond `--limit-concurrency` (503 with
`Retry-After`, `/healthz` still answered), a drain on SIGTERM (live streams ended
cleanly, an answer under way finished, exit 0 in a bounded time), and 503s logged with
the kind of failure and never a token or a query string.  Real server processes on
127.0.0.1 (``support.py``)."""

from __future__ import annotations

import signal
import socket
import sqlite3
import subprocess
import time

import httpx
import pytest

from matchledger.commands.service.problems import PROBLEM_JSON, TYPE_PREFIX
from tests.helpers import invoke

from .support import STOP_SECONDS, STUDIO, RawConnection, Server, bearer, cli_json, events, invite

ROUND_1 = {"ann": "G4 A1 B1 C1 D1", "bob": "F2 A1 B1 C1 D1"}
#: The longest wait for the server to stop taking connections after SIGTERM.
CLOSING_SECONDS = 10.0


@pytest.fixture
def league(tmp_path):
    db = tmp_path / "league.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    return db


def _stream(url: str, path: str, headers: dict[str, str] | None = None):
    """An open live stream (its client and response), its first message read."""
    client = httpx.Client(base_url=url, timeout=httpx.Timeout(10, read=10))
    context = client.stream("GET", path, headers=headers or {})
    response = context.__enter__()
    assert response.status_code == 200, path
    assert events(response, 1), path
    return client, context, response


# --------------------------------------------------------------------------- --limit-concurrency


@pytest.mark.guarantee("service.probes")
def test_beyond_limit_concurrency_a_request_is_503_with_retry_after_and_healthz_still_answers(league):
    # uvicorn's count: a request is shed once N connections are open, its own included
    with Server(league, "--limit-concurrency", "3") as running:
        opened = [_stream(running.url, "/m/m1/events") for _ in range(2)]  # two connections held
        try:
            with httpx.Client(base_url=running.url, timeout=10) as third:
                shed = third.get("/api/v1/matches/m1/public?at=1")
                assert (shed.status_code, shed.headers["content-type"]) == (503, PROBLEM_JSON)
                assert shed.headers["retry-after"] == "5" and shed.json()["type"] == TYPE_PREFIX + "over-capacity"
                page = third.get("/m/m1")
                assert page.status_code == 503 and page.headers["content-type"].startswith("text/html")
                assert page.headers["content-security-policy"]  # answered as every answer, headers and all
                assert third.get("/readyz").status_code == 503  # not ready for more: a balancer sends it none
                live = third.get("/healthz")
                assert (live.status_code, live.json()) == (200, {"status": "ok"})  # alive all the same
        finally:
            for client, context, _response in opened:
                context.__exit__(None, None, None)
                client.close()
        with httpx.Client(base_url=running.url, timeout=10) as later:  # the streams closed: room again
            deadline = time.monotonic() + 10
            while later.get("/api/v1/matches/m1/public").status_code == 503 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert later.get("/api/v1/matches/m1/public").status_code == 200
        shed_records = [r for r in running.log_records() if r.get("status") == 503]
        assert {r["path"] for r in shed_records} >= {"/api/v1/matches/m1/public", "/m/m1", "/readyz"}
        assert all(r["reason"] == "concurrency limit" for r in shed_records)
        assert "at=1" not in running.log() and "Exceeded concurrency limit" not in running.log()


def test_without_limit_concurrency_open_streams_shed_nothing(league):
    with Server(league) as running:
        opened = [_stream(running.url, "/m/m1/events") for _ in range(2)]
        try:
            with httpx.Client(base_url=running.url, timeout=10) as third:
                assert third.get("/api/v1/matches/m1/public").status_code == 200
        finally:
            for client, context, _response in opened:
                context.__exit__(None, None, None)
                client.close()


# --------------------------------------------------------------------------- the drain on SIGTERM


def _until_closed(url: str) -> None:
    """Until the server takes no new connection (its shutdown has begun)."""
    host, _, port = url.removeprefix("http://").partition(":")
    deadline = time.monotonic() + CLOSING_SECONDS
    while time.monotonic() < deadline:
        try:
            socket.create_connection((host, int(port)), timeout=1).close()
        except OSError:
            return
        time.sleep(0.02)
    raise AssertionError(f"the server still took connections {CLOSING_SECONDS} s after SIGTERM")


@pytest.mark.guarantee("service.graceful")
def test_sigterm_ends_every_live_stream_cleanly_finishes_the_answer_under_way_and_exits_0(league):
    ann = invite(league, "m1", "--as", "ann", "--submit")
    body = ('{"tokens": ["' + '", "'.join(ROUND_1["ann"].split()) + '"]}').encode()
    running = Server(league)
    streams = [
        _stream(running.url, "/m/m1/events"),
        _stream(running.url, f"/p/{ann['token']}/events"),
        _stream(running.url, "/api/v1/matches/m1/events"),
    ]
    try:
        with RawConnection(running.url) as posting:
            # a submission under way: its head sent, its body not yet
            posting.send(
                b"POST /api/v1/matches/m1/submissions HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                b"Authorization: Bearer " + ann["token"].encode() + b"\r\n"
                b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n"
            )
            running.process.send_signal(signal.SIGTERM)
            _until_closed(running.url)
            posting.send(body)
            status, answer = posting.answer()
            assert status == 201, answer  # finished, and recorded
        for _client, _context, response in streams:
            # ended by the server, whole (a cut stream raises here): a browser's EventSource
            # reconnects to a stream that ends, after the `retry:` the stream opened with
            assert list(response.extensions["sse-lines"]) == []
        assert running.process.wait(STOP_SECONDS) == 0
    finally:
        for client, context, _response in streams:
            context.__exit__(None, None, None)
            client.close()
        running.stop()
    assert "stopped" in running.log() and "Traceback" not in running.log()
    assert [entry["kind"] for entry in cli_json(league, "log", "m1")] == ["MatchCreated", "SubmissionRecorded"]


def test_a_request_that_never_finishes_arriving_does_not_hold_the_shutdown(league):
    running = Server(league, "--read-timeout", "3600")  # only the shutdown's grace bounds it
    try:
        with RawConnection(running.url) as stalled:
            stalled.send(b"POST /api/v1/matches/m1/submissions HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\n{")
            time.sleep(0.2)  # the head read by the server (nothing to assert on: bounded by the grace below)
            running.process.send_signal(signal.SIGTERM)
            try:
                code = running.process.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                raise AssertionError(f"serve did not stop within {STOP_SECONDS} s of SIGTERM") from None
        assert code == 0
    finally:
        running.stop()
    assert "Traceback" not in running.log()


# --------------------------------------------------------------------------- 503s in the log


@pytest.mark.guarantee("service.probes")
def test_a_503_is_logged_with_the_kind_of_failure_and_no_token_or_query(league):
    ann = invite(league, "m1", "--as", "ann", "--submit")
    body = {"tokens": ROUND_1["ann"].split()}
    with Server(league, env={"MATCHLEDGER_LOCK_TIMEOUT": "0.3"}) as running:
        holder = sqlite3.connect(league, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another writer holds the lock past the timeout
        try:
            busy = running.client.post(
                "/api/v1/matches/m1/submissions?trace=query-secret", json=body, headers=bearer(ann["token"])
            )
            assert (busy.status_code, busy.headers["retry-after"]) == (503, "2")
            form = running.client.post(f"/p/{ann['token']}", data={"tokens": ROUND_1["ann"]})
            assert form.status_code == 503
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        records = [r for r in running.log_records() if r.get("event") == "request" and r["status"] == 503]
        assert {(r["path"], r["reason"]) for r in records} == {
            ("/api/v1/matches/m1/submissions", "database busy: lock timeout"),
            ("/p/[token]", "database busy: lock timeout"),
        }
        ok = [r for r in running.log_records() if r.get("event") == "request" and r["status"] != 503]
        assert not any("reason" in r for r in ok)  # a reason only where the server failed
        text = running.log()
        assert "query-secret" not in text and ann["token"] not in text and str(league) not in text


@pytest.mark.guarantee("service.probes")
def test_a_connection_refused_past_max_connections_is_logged_with_its_reason(league):
    with Server(league, "--max-connections", "2") as running:
        held = [RawConnection(running.url) for _ in range(2)]
        try:
            with RawConnection(running.url) as extra:
                assert extra.answer()[0] == 503
            refused = [r for r in running.log_records() if r.get("event") == "connection_refused"]
            assert [(r["status"], r["reason"], r["client"]) for r in refused] == [
                (503, "connection limit", "127.0.0.1")
            ]
        finally:
            for connection in held:
                connection.close()

"""The guard around every answer (commands/service/guard.py), driven in-process where a
real server cannot be made to fail on demand: an error the app did not expect."""

from __future__ import annotations

import asyncio

import pytest

from matchledger.commands.service.guard import Guard

TOKEN = "Li7ryU-Tdt5G8H46ixPqdbBQnKCw-r4I"


class Recorded:
    """A logger keeping its records."""

    def __init__(self):
        self.records: list[tuple[str, str, dict]] = []

    def info(self, event: str, **values) -> None:
        self.records.append(("info", event, values))

    def error(self, event: str, **values) -> None:
        self.records.append(("error", event, values))


def run(app, path: str = f"/p/{TOKEN}") -> tuple[Recorded, list[dict]]:
    log, sent = Recorded(), []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": path, "client": ("127.0.0.1", 5000)}
    asyncio.run(Guard(app, log)(scope, receive, send))
    return log, sent


@pytest.mark.guarantee("service.log-no-token")
def test_an_error_after_the_500_was_sent_is_one_more_record_not_the_servers_raw_text():
    async def failing(scope, receive, send):
        await send({"type": "http.response.start", "status": 500, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b"internal error"})
        raise KeyError(f"nothing for {TOKEN}\n\x1b[2J")  # as Starlette re-raises after answering

    log, sent = run(failing)
    [(level, event, access), (error_level, error_event, failure)] = log.records
    assert (level, event, access["status"], access["path"], access["bytes"]) == (
        "info",
        "request",
        500,
        "/p/[token]",
        14,
    )
    assert (error_level, error_event, failure["path"]) == ("error", "request_failed", "/p/[token]")
    assert "KeyError" in failure["error"] and "Traceback" in failure["error"] and "[token]" in failure["error"]
    assert all(TOKEN[:12] not in str(record) for record in log.records)
    assert {b"content-security-policy", b"referrer-policy", b"cache-control"} <= {
        name for name, _ in sent[0]["headers"]
    }


def test_an_error_before_anything_was_answered_is_left_to_the_server():
    async def failing(scope, receive, send):
        raise RuntimeError("before any answer")

    with pytest.raises(RuntimeError, match="before any answer"):
        run(failing)

"""A passing outage (the database busy or out of reach) never ends a page's stream for
good: the stream ends without a refusal, so the browser connects again (and the page's
script keeps trying while the service answers 503); a log that does not verify is still
refused, for good (issue 29, "Deadlines and recovery")."""

from __future__ import annotations

import asyncio

import pytest

from matchledger.commands.service.live import Live
from matchledger.ledger.errors import CorruptLog, DatabaseBusy, DatabaseUnavailable


class _NoReads:
    """Where Live hangs its wake-up: nothing is read through it here."""

    def __init__(self) -> None:
        self.woken: list = []


async def _not_refused() -> str | None:
    return None


def _stream(error: Exception, refusal=_not_refused) -> list[bytes]:
    async def render() -> bytes:
        raise error

    async def run() -> list[bytes]:
        live = Live(_NoReads(), heartbeat=0.05)  # type: ignore[arg-type]  # the stream reads through render alone
        return [message async for message in live.stream("m1", render, refusal)]

    return asyncio.run(asyncio.wait_for(run(), 10))


@pytest.mark.parametrize("error", [DatabaseUnavailable("server closed the connection"), DatabaseBusy("locked")])
def test_an_outage_ends_the_stream_without_a_refusal_so_the_browser_comes_back(error):
    sent = _stream(error)
    assert sent == [b"retry: 2000\n\n"]  # ended: EventSource reconnects after the retry


def test_a_log_that_does_not_verify_is_still_refused_for_good():
    sent = _stream(CorruptLog("m1: seq 3 was rewritten"))
    assert len(sent) == 2 and sent[1].startswith(b"event: refused\n")


def test_the_page_script_tries_again_after_a_stream_that_failed_for_good():
    """EventSource gives up after an answer that is no stream (a 503): the script opens
    it again, ever more rarely, unless the service refused the link."""
    from tests.helpers import REPO

    script = (REPO / "commands" / "service" / "assets" / "live.js").read_text(encoding="utf-8")
    assert "source.readyState !== EventSource.CLOSED || refusedNow" in script
    assert "setTimeout(listen, again)" in script and "Math.min(again * 2, 60000)" in script

"""The streams of one match woken by one move share one read on the reading thread
(``http.Service._shared``): a move wakes every open page of its match at once, and 500
pages would otherwise hand the thread 500 identical reads.  A stream woken by a later
move never takes a read that began before that move."""

from __future__ import annotations

import asyncio
import threading

import pytest

from matchledger.commands.service.http import Service
from matchledger.commands.service.reads import Reads
from matchledger.ledger.stores import open_store
from matchledger.projections.application import Application
from tests.helpers import invoke

from .support import STUDIO


def test_streams_woken_by_one_move_share_one_read_and_a_later_move_reads_again(tmp_path):
    db = tmp_path / "shared.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    reads = Reads(Application(open_store(str(db), create=False)))
    service = Service(reads, None, None, base_url="http://127.0.0.1:1", assets={})  # type: ignore[arg-type]
    calls: list[str] = []
    release = threading.Event()

    def read(name: str):
        def call() -> bytes:
            calls.append(name)
            release.wait(10)
            return name.encode()

        return call

    async def scenario():
        key = ("public-live", "m1")
        first = asyncio.ensure_future(service._shared(key, "m1", read("first")))
        await asyncio.sleep(0.05)  # the first read is under way on the thread
        joined = asyncio.ensure_future(service._shared(key, "m1", read("joined")))
        await asyncio.sleep(0.01)  # woken by the same move: it joins the first read
        reads.moved("m1")  # a later move: its streams must read again
        later = asyncio.ensure_future(service._shared(key, "m1", read("later")))
        await asyncio.sleep(0.05)
        release.set()
        return await asyncio.gather(first, joined, later)

    try:
        answers = asyncio.run(scenario())
    finally:
        service.reading.close()
        reads.app.close()
    assert answers == [b"first", b"first", b"later"]
    assert calls == ["first", "later"]


@pytest.mark.guarantee("service.database-deadline")
def test_a_read_that_raises_a_timeout_of_its_own_is_answered_with_it_not_taken_for_the_deadline(tmp_path):
    """A lock timeout (DatabaseBusy is a TimeoutError) names its own cause in the log;
    only a read that outlives the deadline is DatabaseTimedOut."""
    from matchledger.commands.service.reading import DatabaseTimedOut, Reading
    from matchledger.ledger.errors import BUSY_POOL, DatabaseBusy

    db = tmp_path / "busy.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    reads = Reads(Application(open_store(str(db), create=False)))
    reading = Reading(reads, deadline=0.2)

    def busy() -> bytes:
        raise DatabaseBusy("no free connection", cause=BUSY_POOL)

    def slow() -> bytes:
        threading.Event().wait(0.5)
        return b"too late"

    async def scenario():
        return await asyncio.gather(reading(busy), reading(slow), return_exceptions=True)

    try:
        own, late = asyncio.run(scenario())
    finally:
        reading.close()
        reads.app.close()
    assert type(own) is DatabaseBusy and own.cause == BUSY_POOL
    assert isinstance(late, DatabaseTimedOut)


@pytest.mark.guarantee("service.database-deadline")
def test_a_thread_busy_answering_reads_is_waited_for_and_one_held_by_a_read_is_not(tmp_path):
    """Under load the reading thread answers one read after another for longer than the
    deadline: the reads queued behind them are answered, not refused; a read that holds
    the thread past the deadline (the database does not answer) refuses those behind it."""
    from matchledger.commands.service.reading import DatabaseTimedOut, Reading

    db = tmp_path / "busy.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    reads = Reads(Application(open_store(str(db), create=False)))
    reading = Reading(reads, deadline=0.3)

    def short(index: int):
        def call() -> int:
            threading.Event().wait(0.05)  # a page made on a loaded machine
            return index

        return call

    def held() -> str:
        threading.Event().wait(1.0)  # a database that does not answer
        return "late"

    async def scenario():
        busy = await asyncio.gather(*(reading(short(index)) for index in range(12)))  # 0.6 s of work in all
        stalled = await asyncio.gather(reading(held), reading(short(99)), return_exceptions=True)
        return busy, stalled

    try:
        busy, (first, behind) = asyncio.run(scenario())
    finally:
        reading.close()
        reads.app.close()
    assert busy == list(range(12))
    assert isinstance(first, DatabaseTimedOut) and isinstance(behind, DatabaseTimedOut)
